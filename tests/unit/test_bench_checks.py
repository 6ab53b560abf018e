"""Every bench configuration checked before its first job (issue #53 item 3): a configuration error is an error
naming the parameter, never a method's refusal; the command line refuses what it cannot mean and says what ran."""

from __future__ import annotations

import pytest

from lazylib.protocols.bench import checks as bench_checks
from lazylib.protocols.bench import cli as bench_cli
from lazylib.protocols.bench import protocol as bench

BASE = {"datasets": ("lenses",), "n_seeds": 1, "n_splits": 3, "methods": ("1-NN OM", "MC")}


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"ks": (0, 1)}, "each k of ks"),
        ({"ks": (1, -3)}, "each k of ks"),
        ({"ks": ()}, "ks must be a non-empty"),
        ({"ks": (1, 1)}, "ks names"),
        ({"mc_subsets": 0}, "mc_subsets"),
        ({"n_seeds": 0}, "n_seeds"),
        ({"n_seeds": -2}, "n_seeds"),
        ({"n_splits": 1}, "n_splits"),
        ({"datasets": ("lenses", "lenses")}, "datasets names \\['lenses'\\] more than once"),
        ({"methods": ("MC", "1-NN OM", "MC")}, "methods names \\['MC'\\] more than once"),
    ],
)
def test_a_configuration_error_is_an_error_naming_the_parameter(change, named):
    with pytest.raises(ValueError, match=named):
        bench.Config(**(BASE | change))


def test_a_valid_configuration_runs_and_its_refusals_are_the_methods_own():
    assert bench.Config(**BASE, ks=range(1, 6, 2)).ks == range(1, 6, 2)  # any sequence of counts
    rows = bench.run(bench.Config(**BASE, ks=(1, 3), mc_subsets=2), n_jobs=1)
    assert rows["error"].eq("").all()
    assert rows.attrs["jobs"] == {"run": 3, "resumed": 0, "failed": 0}


def _main(argv, monkeypatch, capsys):
    ran = []
    monkeypatch.setattr(bench_cli, "run", lambda *a, **k: ran.append(a))
    with pytest.raises(SystemExit) as exc:
        bench_cli.main(argv)
    assert exc.value.code == 2 and ran == []  # refused before any job
    return capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["--seeds", "0"], "argument --seeds: 0 is not a positive count"),
        (["--datasets"], "--datasets was given no value"),
        (["--methods"], "--methods was given no value"),
        (["--datasets", "lenses", "--folds"], "--folds was given no value"),
    ],
)
def test_the_command_line_refuses_what_it_cannot_mean(argv, named, monkeypatch, capsys):
    assert named in _main(argv, monkeypatch, capsys)


def test_an_output_that_cannot_be_written_fails_before_any_job(tmp_path, monkeypatch, capsys):
    missing = tmp_path / "no" / "rows.csv"
    assert "does not exist" in _main(["--datasets", "lenses", "--output", str(missing)], monkeypatch, capsys)
    (tmp_path / "file").write_text("")
    artifact = ["--datasets", "lenses", "--output", str(tmp_path / "r.csv"), "--artifact", str(tmp_path / "file" / "a")]
    assert "--artifact" in _main(artifact, monkeypatch, capsys)


def test_the_summary_line_says_what_ran(tmp_path, capsys):
    argv = ["--datasets", "lenses", "--seeds", "1", "--methods", "1-NN OM", "--n-jobs", "1", "--folds", "0", "2"]
    argv += ["--results", str(tmp_path / "run"), "--output", str(tmp_path / "rows.csv")]
    bench_cli.main(argv)
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("1 data sets (lenses) x 1 methods x 1 seeds x 2 of 10 ([0, 2]) folds: 2 jobs (2 run, 0 ")
    bench_cli.main(argv)
    assert "2 jobs (0 run, 2 resumed, 0 failed)" in capsys.readouterr().out.splitlines()[0]


def test_positive_int_reads_counts():
    assert bench_checks.positive_int("3") == 3
    for text in ("0", "-1", "two"):
        with pytest.raises(Exception, match="positive|whole"):
            bench_checks.positive_int(text)
