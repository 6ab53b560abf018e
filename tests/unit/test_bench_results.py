"""A results folder that cannot lie (issue #53 item 2): every job file names what it holds; on resume a file that
does not match its job is named in a warning and its job runs again, so the resumed rows are an undamaged run's;
failed jobs run again unless kept; config.json is checked when read back; an unwritable folder fails first."""

from __future__ import annotations

import json
import os
import shutil

import numpy as np
import pandas as pd
import pytest

from lazylib.protocols.bench import protocol as bench
from lazylib.protocols.bench import results as bench_results
from lazylib.protocols.bench.results import DamagedJobFile, ResultsFolder

SMALL = bench.Config(datasets=("iris",), n_seeds=1, n_splits=3, methods=("1-NN Euclidean", "C4.5"))
#: What a rerun must reproduce (the times differ from run to run).
SAME = ["dataset", "kind", "seed", "fold", "method", "accuracy", "refused", "error"]


@pytest.fixture(scope="module")
def undamaged(tmp_path_factory):
    folder = tmp_path_factory.mktemp("undamaged")
    return folder, bench.run(SMALL, n_jobs=1, results=folder)


def _split(text: str) -> tuple[dict, str]:
    head, _, body = text.partition("\n")
    return json.loads(head[len(bench_results.JOB_HEADER) :]), body


def _forged(head: dict, rows: list[dict], **changes) -> str:
    """A job file with a valid checksum for ``rows`` under ``head`` changed by ``changes``."""
    head = head | changes
    job = (head["dataset"], head["seed"], head["fold"])
    return bench_results._job_text(head["key"], job, head["methods"], rows)


def _damages(text: str, other: str) -> dict:
    head, body = _split(text)
    lines = body.splitlines(keepends=True)
    rows = pd.read_csv(pd.io.common.StringIO(body), keep_default_na=False).to_dict("records")
    other_rows = pd.read_csv(pd.io.common.StringIO(_split(other)[1]), keep_default_na=False).to_dict("records")
    first = text.index("\n") + 1
    return {
        "cut in a row": text[: len(text) - 7],
        "cut after its first row": text[:first] + "".join(lines[:2]),
        "header only": text[:first] + lines[0],
        "its CSV header only": lines[0],
        "another job's file": other,
        "another job's rows": _forged(head, other_rows),
        "abc as an accuracy": _forged(head, [rows[0] | {"accuracy": "abc"}, *rows[1:]]),
        "0 bytes": "",
        "garbage": "\x00\x17garbage,,\n\xff\xfe",
        "wrong checksum": text[:first] + body.replace(".", "1", 1),
        "wrong methods": _forged(head, rows, methods=head["methods"][::-1]),
        "wrong key": _forged(head, rows, key="0" * 16),
        "one row short": _forged(head, rows[:1]),
    }


def test_every_damaged_job_file_is_named_and_recomputed(tmp_path, undamaged):
    source, clean = undamaged
    files = sorted((source / "jobs").glob("*.csv"))
    assert len(files) == 3
    assert all(f.read_text().startswith(bench_results.JOB_HEADER) for f in files)
    damages = _damages(files[0].read_text(), files[1].read_text())
    ran = []
    original = bench._job
    for what, damaged in damages.items():
        folder = tmp_path / what.replace(" ", "_").replace("'", "")
        shutil.copytree(source, folder)
        (folder / "jobs" / files[0].name).write_bytes(damaged.encode("latin-1", "replace"))
        ran.clear()
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(bench, "_job", lambda config, job, *a, **k: ran.append(job) or original(config, job, *a, **k))
            with pytest.warns(DamagedJobFile, match=files[0].name) as caught:
                resumed = bench.run(SMALL, n_jobs=1, results=folder)
        assert len(caught) == 1, what
        assert ran == [("iris", SMALL.seeds()[0], 0)], what  # the damaged job only, run again
        pd.testing.assert_frame_equal(resumed[SAME], clean[SAME], obj=what)
        pd.testing.assert_frame_equal(bench.run(SMALL, n_jobs=1, results=folder), resumed, obj=what)  # rewritten


def test_a_damaged_file_is_an_error_naming_it_when_loaded(tmp_path, undamaged):
    folder = tmp_path / "run"
    shutil.copytree(undamaged[0], folder)
    results = ResultsFolder(folder, SMALL)
    job = ("iris", SMALL.seeds()[0], 1)
    assert results.finished([job]) == {job} and len(results.load(job)) == 2
    (folder / "jobs" / f"iris__{job[1]}__1.csv").write_text("")
    assert results.finished([job]) == set()
    with pytest.raises(ValueError, match=f"iris__{job[1]}__1.csv is damaged: no lazylib-job header"):
        results.load(job)


def test_failed_jobs_run_again_unless_kept(tmp_path, monkeypatch, undamaged):
    original = bench_results.ResultsFolder.save

    def failing(self, job, rows):
        if job[2] == 2:
            rows = [row | {"accuracy": np.nan, "error": "MemoryError: Unable to allocate"} for row in rows]
        original(self, job, rows)

    monkeypatch.setattr(bench_results.ResultsFolder, "save", failing)
    bench.run(SMALL, n_jobs=1, results=tmp_path)  # the third fold's job stored as failed
    monkeypatch.undo()
    kept = bench.run(SMALL, n_jobs=1, results=tmp_path, keep_failed=True)
    assert kept["error"].ne("").sum() == 2 and kept.loc[kept["error"].ne(""), "fold"].eq(2).all()
    retried = bench.run(SMALL, n_jobs=1, results=tmp_path)
    pd.testing.assert_frame_equal(retried[SAME], undamaged[1][SAME])


def test_config_json_is_written_whole_and_checked_when_read_back(tmp_path):
    ResultsFolder(tmp_path, SMALL)
    assert json.loads((tmp_path / "config.json").read_text())["key"] == SMALL.key()
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    (tmp_path / "config.json").write_text('{"key": "12')
    with pytest.raises(ValueError, match="config.json is not the JSON of a results folder"):
        ResultsFolder(tmp_path, SMALL)
    (tmp_path / "config.json").write_text("[1, 2]")
    with pytest.raises(ValueError, match="another configuration"):
        ResultsFolder(tmp_path, SMALL)


def test_a_results_folder_that_cannot_be_written_fails_before_any_job(tmp_path, monkeypatch):
    (tmp_path / "file").write_text("")
    ran = []
    monkeypatch.setattr(bench, "_job", lambda *a, **k: ran.append(a))
    with pytest.raises(ValueError, match="cannot be written"):
        bench.run(SMALL, n_jobs=1, results=tmp_path / "file" / "run")
    if os.geteuid() != 0:  # root writes anywhere
        locked = tmp_path / "locked"
        (locked / "jobs").mkdir(parents=True)
        (locked / "jobs").chmod(0o500)
        with pytest.raises(ValueError, match="cannot be written"):
            bench.run(SMALL, n_jobs=1, results=locked)
    assert ran == []


def test_the_cache_is_a_results_folder_of_data_and_no_pickle_is_read(tmp_path, monkeypatch, undamaged):
    import pathlib
    import pickle

    planted = tmp_path / f"{bench_results.cache_folder(tmp_path, SMALL).name}.pkl"
    planted.write_bytes(pickle.dumps(0))  # the old cache's name: a planted file is never read
    first = bench.run(SMALL, n_jobs=1, cache_dir=tmp_path)
    folder = bench_results.cache_folder(tmp_path, SMALL)
    assert sorted(p.suffix for p in folder.rglob("*") if p.is_file()) == [".csv"] * 3 + [".json"]
    ran = []
    monkeypatch.setattr(bench, "_job", lambda *a, **k: ran.append(a))
    again = bench.run(SMALL, n_jobs=1, cache_dir=tmp_path)
    assert ran == [] and isinstance(again, pd.DataFrame)
    pd.testing.assert_frame_equal(again, first)
    pd.testing.assert_frame_equal(first[SAME], undamaged[1][SAME])
    root = pathlib.Path(bench.__file__).parents[1]
    readers = [
        str(p.relative_to(root))
        for p in root.rglob("*.py")
        if any(call in p.read_text() for call in ("pickle.load(", "read_pickle(", "pickle.Unpickler"))
    ]
    assert readers == []


def test_the_artifact_is_written_whole_and_the_same_rows_give_the_same_bytes(tmp_path, undamaged):
    rows = undamaged[1]
    times = {"command": "test", "started": "2026-01-01T00:00:00Z", "ended": "2026-01-01T00:00:01Z", "wall_s": 1.0}
    bench_results.write_artifact(rows, tmp_path / "a", SMALL, **times)
    bench_results.write_artifact(rows, tmp_path / "b", SMALL, **times)
    names = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert names == ["cost_by_dataset.csv", "full_run.csv.gz", "full_run.json"]
    assert (tmp_path / "a" / "full_run.csv.gz").read_bytes() == (tmp_path / "b" / "full_run.csv.gz").read_bytes()
    read = bench_results.load_full_run(tmp_path / "a" / "full_run.csv.gz")
    assert bench_results.differing_rows(rows, read).empty and read.attrs["run"]["rows"] == len(rows)
