"""The stored full run is read only by the code that wrote it, or by code declared (who, when, why) to give its
numbers; otherwise reading it fails with the command that regenerates it (issue #54, item 4)."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from lazylib.protocols.bench import guard as full_run_guard
from lazylib.protocols.bench import results as bench_results
from lazylib.protocols.bench.guard import StaleArtifact, check_artifact, declarations, declare

ROOT = Path(__file__).resolve().parents[2]


def _artifact(folder: Path, fingerprint: str) -> Path:
    """A one-row stored run whose JSON records ``fingerprint``."""
    folder.mkdir(parents=True, exist_ok=True)
    row = {c: 0 for c in bench_results.RUN_COLUMNS} | {"dataset": "d", "kind": "nominal", "method": "m"}
    path = folder / "full_run.csv.gz"
    pd.DataFrame([row]).assign(refused="").to_csv(path, index=False)
    (folder / "full_run.json").write_text(json.dumps({"inputs_fingerprint": fingerprint}))
    return path


def test_the_code_that_wrote_the_run_reads_it():
    assert check_artifact({"inputs_fingerprint": "f" * 64}, ROOT, current="f" * 64).startswith("written by the current")


def test_other_code_fails_with_the_command_that_regenerates_the_run(tmp_path):
    with pytest.raises(StaleArtifact, match="Regenerate it") as err:
        check_artifact({"inputs_fingerprint": "old"}, tmp_path, current="new")
    assert full_run_guard.REGENERATE in str(err.value) and "--verify --by NAME" in str(err.value)
    with pytest.raises(ValueError, match="records no inputs_fingerprint"):
        check_artifact({"commit": "abc"}, tmp_path, current="new")


def test_a_declaration_lets_other_code_read_the_run_and_says_who_and_why(tmp_path):
    entry = declare(tmp_path, by="A. Reviewer", why="every row equal", artifact="old", current="new")
    assert entry["fingerprint"] == "new" and entry["date"]
    assert declare(tmp_path, by="B", why="again", artifact="old", current="new") == entry  # declared once
    found = check_artifact({"inputs_fingerprint": "old"}, tmp_path, current="new")
    assert "declared by A. Reviewer" in found and "every row equal" in found
    with pytest.raises(StaleArtifact):
        check_artifact({"inputs_fingerprint": "old"}, tmp_path, current="newer")
    with pytest.raises(ValueError, match="a regenerated run starts with no declaration"):
        check_artifact({"inputs_fingerprint": "regenerated"}, tmp_path, current="new")


def test_a_declaration_without_who_or_why_is_refused(tmp_path):
    with pytest.raises(ValueError, match="who makes it"):
        declare(tmp_path, by=" ", why="x", artifact="old", current="new")
    (tmp_path / full_run_guard.DECLARATIONS).write_text(
        json.dumps({"artifact": "old", "declared": [{"fingerprint": "new", "by": "A", "date": "2026-12-02"}]})
    )
    with pytest.raises(ValueError, match=r"lacks \['why'\]"):
        declarations(tmp_path)
    (tmp_path / full_run_guard.DECLARATIONS).write_text("{")
    with pytest.raises(ValueError, match="is not JSON"):
        declarations(tmp_path)


def test_load_full_run_checks_the_fingerprint(tmp_path):
    path = _artifact(tmp_path / "run", "0" * 64)
    with pytest.raises(StaleArtifact, match="Regenerate it"):
        bench_results.load_full_run(path)
    assert bench_results.read_run(path).attrs["run"]["inputs_fingerprint"] == "0" * 64  # the unchecked reader
    declare(path.parent, by="A. Reviewer", why="test")
    assert "declared by A. Reviewer" in bench_results.load_full_run(path).attrs["guard"]


def test_the_stored_run_is_read_by_this_code_or_declared_with_its_evidence():
    """The repository's artifact passes its guard: today through the declaration in benchmarks/full_run, which
    names the check that found the re-executed rows equal (book/bench/02_ranking.md, or --verify)."""
    folder = ROOT / bench_results.FULL_RUN.parent
    run = json.loads((folder / "full_run.json").read_text())
    found = check_artifact(run, folder)
    if not found.startswith("written by the current code"):
        assert "02_ranking.md" in found and "bit for bit" in found, found


def test_verify_declares_the_code_it_started_with_and_nothing_if_it_changed(tmp_path, monkeypatch):
    from lazylib.protocols.bench import protocol as bench

    folder = tmp_path / "run"
    _artifact(folder, "aaa")
    stored = bench_results.read_run(folder / "full_run.csv.gz")
    monkeypatch.setattr(bench, "run", lambda *args, **kwargs: stored.copy())  # every re-executed row equal
    seen = iter(["bbb", "ccc"])  # the files change while the subset runs
    monkeypatch.setattr(full_run_guard, "_current", lambda: next(seen))
    with pytest.raises(RuntimeError, match="changed while the subset re-executed"):
        full_run_guard._verify(folder, "A. Reviewer", 1)
    assert declarations(folder) == []
    monkeypatch.setattr(full_run_guard, "_current", lambda: "bbb")
    entry = full_run_guard._verify(folder, "A. Reviewer", 1)
    assert entry["fingerprint"] == "bbb" and declarations(folder, "aaa")[0]["by"] == "A. Reviewer"
    assert not list(folder.glob(".*.tmp"))  # written through a temporary file, renamed
