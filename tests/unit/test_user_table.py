"""A user's table on the bench end to end (lazylib.protocols.bench.user_table.bench_table and ``lazylib bench``): the
rows, their statuses, the same rows from a new folder and from a renamed copy, a resumed run, the catalogue's
view, and the bad inputs only a run can see (a folder from another table, a class smaller than the folds)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from lazylib import cli
from lazylib.datasets.frame import from_frame
from lazylib.protocols.bench.table_stats import one_table
from lazylib.protocols.bench.user_table import ROW_COLUMNS, bench_table

METHODS = ["1-NN Euclidean", "1-NN HVDM", "k-NN HVDM", "CA"]


def _frame(n=90, seed=5) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    label = rng.integers(0, 2, n)
    size = rng.normal(label * 1.5, 1.0)
    colour = np.where(rng.random(n) < 0.7, np.where(label == 1, "red", "blue"), rng.choice(["red", "blue", "green"], n))
    frame = pd.DataFrame({"colour": colour, "size": size, "label": np.where(label == 1, "yes", "no")})
    frame.loc[rng.random(n) < 0.05, "size"] = np.nan
    return frame


@pytest.fixture(scope="module")
def first(tmp_path_factory):
    folder = tmp_path_factory.mktemp("first")
    table = from_frame(_frame(), "label", name="mine")
    return bench_table(table, methods=METHODS, seeds=2, n_jobs=1, results=folder, log=None), folder


def test_rows_statuses_and_statistics(first):
    result, _ = first
    rows = result.rows
    assert tuple(rows.columns) == ROW_COLUMNS and len(rows) == len(METHODS) * 2 * 10
    status = rows.groupby("method")["status"].agg(set).to_dict()
    assert status["CA"] == {"refused"} and rows.loc[rows["method"] == "CA", "message"].str.len().gt(0).all()
    assert all(status[m] == {"ok"} for m in METHODS if m != "CA")
    assert rows.loc[rows["status"] == "ok", "accuracy"].between(0, 100).all()
    again = one_table(rows, baseline="1-NN Euclidean", test_share=result.statistics.test_share)
    assert again.best == result.statistics.best and again.recommended == result.statistics.recommended
    assert result.provenance["data_sha256"] == result.table.sha256 and len(result.provenance["seeds"]) == 2


def test_a_new_folder_and_a_renamed_table_give_the_same_rows(first, tmp_path):
    result, folder = first
    renamed = from_frame(_frame(), "label", name="another name")
    other = bench_table(renamed, methods=METHODS, seeds=2, results=tmp_path / "new", with_catalogue=False, log=None)
    keep = ["method", "seed", "fold", "accuracy", "status", "message"]
    pd.testing.assert_frame_equal(other.rows[keep], result.rows[keep])
    resumed = bench_table(from_frame(_frame(), "label", name="mine"), methods=METHODS, seeds=2, results=folder,
                          with_catalogue=False, log=None)  # fmt: skip
    # the resumed run reads every job back from the folder: the recorded processor times too, to the bit
    pd.testing.assert_frame_equal(resumed.rows, result.rows)


def test_a_folder_of_another_table_is_refused(first):
    _, folder = first
    other = from_frame(_frame(seed=6), "label", name="mine")
    with pytest.raises(ValueError, match="holds the results of another table"):
        bench_table(other, methods=METHODS, seeds=2, results=folder, log=None)


def test_the_catalogue_view_and_its_measured_hit_rate(first):
    result, _ = first
    view = result.catalogue
    if view is None:
        pytest.skip(result.provenance["catalogue_note"])
    rate = view["hit_rate"]
    assert len(view["nearest"]) == 5 and rate["n"] == 46 and rate["k"] == 5
    assert 0 <= rate["hits"] <= 46 and rate["plain"] in rate["picks"]["baseline"].to_numpy()
    summary = result.summary()
    assert summary["catalogue"]["nearest"] == [d["dataset"] for d in view["nearest"]]
    assert summary["catalogue"]["hit_rate"]["hits"] == rate["hits"]


def test_the_command_end_to_end(tmp_path, capsys):
    path = tmp_path / "mine.csv"
    _frame().to_csv(path, index=False)
    report = tmp_path / "report"
    argv = ["bench", str(path), "--target", "label", "--report", str(report), "--seeds", "2", "--no-catalogue"]
    status = cli.main([*argv, "--methods", ",".join(METHODS)])
    out = capsys.readouterr()
    assert status == 0, out.err
    assert "mine: 90 rows" in out.out and "recommended" in out.out
    summary = json.loads((report / "summary.json").read_text())
    assert summary["data"]["columns"] == {"colour": "nominal", "size": "continuous"}
    assert summary["provenance"]["command"].startswith("lazylib bench") and summary["catalogue"] is None
    assert {m["name"]: m["status"] for m in summary["methods"]}["CA"] == "refused"
    rows = pd.read_csv(report / "results.csv")
    assert len(rows) == 80 and set(rows["status"]) == {"ok", "refused"}


def test_bad_input_only_a_run_can_see(tmp_path, capsys):
    frame = _frame()
    frame.loc[:5, "label"] = "rare"  # six rows of a class, ten folds
    path = tmp_path / "small.csv"
    frame.to_csv(path, index=False)
    base = ["bench", str(path), "--target", "label", "--report", str(tmp_path / "r"), "--seeds", "1"]
    assert cli.main([*base, "--methods", "1-NN Euclidean,k-NN HVDM"]) == cli.BAD_INPUT
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "rare" in err[0], err
    _frame().to_csv(path, index=False)
    assert cli.main([*base, "--methods", "1-NN Euclidean,no such method"]) == cli.BAD_INPUT
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no such method" in err[0], err


def test_a_budgeted_run_is_piloted_and_resumes_with_its_first_choice(tmp_path):
    table, said = from_frame(_frame(), "label", name="mine"), []
    options = {"methods": METHODS[:2], "results": tmp_path / "r", "with_catalogue": False, "log": said.append}
    first = bench_table(table, budget=0.5, **options)
    assert any(line.startswith("pilot") for line in said) and not any("resuming" in line for line in said)
    n_seeds = first.config.n_seeds
    assert 1 <= n_seeds <= 5 and first.rows["seed"].nunique() == n_seeds
    said.clear()
    again = bench_table(table, budget=0.01, **options)  # a budget that would choose fewer seeds: the folder's choice
    assert any("resuming" in line for line in said) and not any(line.startswith("pilot") for line in said)
    pd.testing.assert_frame_equal(again.rows, first.rows)


def test_a_dataframe_and_its_classes_go_in_as_they_are(first, tmp_path):
    frame = _frame()
    result = bench_table(frame.drop(columns="label"), frame["label"], methods=METHODS[:2], seeds=1,
                         with_catalogue=False, log=None)  # fmt: skip
    assert result.table.sha256 == first[0].table.sha256 and result.provenance["target"] == "label"
    assert len(result.rows) == 20 and result.to_html(tmp_path / "page.html").is_file()
    with pytest.raises(ValueError, match="already has a column 'label'"):
        bench_table(frame, frame["label"], log=None)
    with pytest.raises(ValueError, match="name the class column"):
        bench_table(frame, log=None)
