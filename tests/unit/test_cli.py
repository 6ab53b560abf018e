"""The command line ``lazylib bench`` (lazylib.cli): every bad input ends with one line on standard error naming
the problem and the fix, exit status 2, never a traceback; ``lazylib --help`` imports nothing heavy."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from lazylib import cli

ROOT = Path(__file__).resolve().parents[2]


def _csv(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def _good(tmp_path, rows=40, name="t.csv") -> Path:
    lines = ["colour,size,label"] + [f"{'rgb'[i % 3]},{i * 0.5},{'ab'[i % 2]}" for i in range(rows)]
    return _csv(tmp_path / name, "\n".join(lines) + "\n")


def _refused(capsys, argv) -> str:
    """Run ``lazylib`` on ``argv``: it must exit 2 with one line on stderr and nothing like a traceback."""
    status = cli.main(argv)
    err = capsys.readouterr().err
    assert status == cli.BAD_INPUT, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("lazylib bench: error: "), err
    assert "Traceback" not in err
    return lines[0]


BAD_TABLES = {
    "target missing": ("colour,size,kind\nr,1,a\ng,2,b\n", r"'label'"),
    "one class": ("colour,size,label\nr,1,a\ng,2,a\nb,3,a\n", r"one (class|value)"),
    "empty file": ("", r"empty"),
    "not a table": ("%PDF-1.4 binary\n", r"not a text table"),
    "column all missing": ("colour,size,label\n?,1,a\n,2,b\n?,3,a\n,4,b\n", r"colour"),
    "duplicated names": ("colour,colour,label\nr,1,a\ng,2,b\n", r"colour"),
}


@pytest.mark.parametrize("case", sorted(BAD_TABLES))
def test_a_bad_table_gets_one_line_naming_it(tmp_path, capsys, case):
    text, pattern = BAD_TABLES[case]
    path = _csv(tmp_path / "bad.csv", text)
    line = _refused(capsys, ["bench", str(path), "--target", "label", "--report", str(tmp_path / "r")])
    assert re.search(pattern, line), line


def test_an_unwritable_report_folder_is_refused_before_reading(tmp_path, capsys):
    blocker = _csv(tmp_path / "file", "")
    line = _refused(capsys, ["bench", str(tmp_path / "absent.csv"), "--target", "label", "--report", str(blocker)])
    assert "cannot write to the report folder" in line and "name a folder you can write to" in line


def test_a_file_that_does_not_exist(tmp_path, capsys):
    line = _refused(capsys, ["bench", str(tmp_path / "absent.csv"), "--target", "y", "--report", str(tmp_path / "r")])
    assert "absent.csv" in line and "no such file" in line


def test_targets_must_match_the_tables(tmp_path, capsys):
    a, b = _good(tmp_path, name="a.csv"), _good(tmp_path, name="b.csv")
    argv = ["bench", str(a), str(b), "--target", "label", "--target", "label", "--target", "x"]
    line = _refused(capsys, [*argv, "--report", str(tmp_path / "r")])
    assert "3 --target for 2 tables" in line


def test_bad_numbers_of_seeds_jobs_or_budget(tmp_path, capsys):
    base = ["bench", str(_good(tmp_path)), "--target", "label", "--report", str(tmp_path / "r")]
    assert "--seeds must be at least 1" in _refused(capsys, [*base, "--seeds", "0"])
    assert "--n-jobs must be at least 1" in _refused(capsys, [*base, "--n-jobs", "0"])
    assert "--budget must be a positive" in _refused(capsys, [*base, "--budget", "-3"])


def test_a_scheduler_that_does_not_answer(tmp_path, capsys, monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setattr(cli, "SCHEDULER_TIMEOUT", 1)
    argv = ["bench", str(_good(tmp_path)), "--target", "label", "--report", str(tmp_path / "r")]
    line = _refused(capsys, [*argv, "--scheduler", "tcp://127.0.0.1:9"])
    assert "the Dask scheduler at tcp://127.0.0.1:9 does not answer" in line and "--scheduler" in line


def test_names_are_split_on_commas():
    args = cli.parser().parse_args(["bench", "t.csv", "--target", "y", "--report", "r", "--nominal", " a, b ,c"])
    assert args.nominal == ("a", "b", "c") and args.with_catalogue is True and args.missing is None
    args = cli.parser().parse_args(
        ["bench", "t.csv", "--target", "y", "--report", "r", "--no-catalogue", "--missing", "NA", "--missing", "-"]
    )
    assert args.with_catalogue is False and args.missing == ["NA", "-"]


def test_the_command_runs_as_a_module_and_its_help_imports_nothing_heavy(tmp_path):
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-m", "lazylib", "bench", str(tmp_path / "none.csv"), "--target", "y", "--report", "r"],
        capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120,
    )  # fmt: skip
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "no such file" in done.stderr, done.stderr
    probe = "import sys; from lazylib import cli; cli.parser().format_help(); print(sorted(m for m in "
    probe += "('pandas', 'sklearn', 'scipy', 'matplotlib', 'numpy') if m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=120)
    assert done.stdout.strip() == "[]", done.stderr
