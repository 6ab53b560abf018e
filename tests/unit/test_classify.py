"""``lazylib classify`` and :mod:`lazylib.classify`: the predictions of
:class:`lazylib.neighbors.KNeighborsClassifier` (``ties="all"``) on nominal tables with unknown and unseen values,
through both of its searches; bad input ends with one line and exit status 2; the output is written atomically;
the command's import path loads no scikit-learn, scipy.stats or pandas."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from lazylib import classify as knn
from lazylib import cli
from lazylib.neighbors import KNeighborsClassifier
from lazylib.weighting.infogain import IGWeighted

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = {"mvdm": lambda: "mvdm", "ig": IGWeighted, "overlap": lambda: "overlap"}


def _table(n: int, seed: int, cards=(2, 3, 5, 4, 7, 3), noise: float = 0.1, missing: float = 0.05):
    """Nominal columns (str cells, ``?`` unknown) and labels decided by the first attributes, with noise."""
    rng = np.random.default_rng(seed)
    codes = np.column_stack([rng.integers(0, v, n) for v in cards])
    label = (codes[:, 0] + codes[:, 1] * codes[:, 2]) % 3
    flip = rng.random(n) < noise
    label[flip] = rng.integers(0, 3, flip.sum())
    cells = np.array([[f"v{c}" for c in row] for row in codes], dtype=object)
    cells[rng.random(cells.shape) < missing] = "?"
    return [list(col) for col in cells.T], [f"c{c}" for c in label]


def _reference(columns_train, labels, columns_test, metric: str, k: int) -> np.ndarray:
    """KNeighborsClassifier on the codes the classifier reads: unknown NaN, an unseen test value a code no
    training row has."""
    model = knn.fit(columns_train, labels, metric=metric, k=k)
    sizes = np.array([len(v) for v in model.values])
    Z = model.Z.astype(float)
    Z[model.Z == sizes + 1] = np.nan
    Q = knn.query_codes(model, columns_test).astype(float)
    Q[Q == sizes + 1] = np.nan
    Q[Q == sizes] += 3.0  # unseen: beyond every training code
    clf = KNeighborsClassifier(k, REFERENCE[metric](), ties="all")
    clf.fit(Z, np.array(labels, dtype=object), types=["nominal"] * Z.shape[1])
    return clf.predict(Q)


def _with_unseen(columns, seed: int):
    rng = np.random.default_rng(seed)
    out = [list(c) for c in columns]
    for col in out:
        for i in np.flatnonzero(rng.random(len(col)) < 0.03):
            col[i] = "new"
    return out


@pytest.mark.parametrize("metric", knn.METRICS)
@pytest.mark.parametrize("k", [1, 3])
@pytest.mark.parametrize("n", [300, 6000])
def test_the_predictions_are_those_of_kneighborsclassifier(metric, k, n):
    """Small tables go through the dense search, large ones through the groups' bound; unknown values on both
    sides, unseen values in the queries."""
    train, labels = _table(n, seed=n + k)
    test, _ = _table(400, seed=7 * n + k)
    test = _with_unseen(test, seed=k)
    model = knn.fit(train, labels, metric=metric, k=k)
    ours = knn.predict(model, test)
    assert (ours == _reference(train, labels, test, metric, k)).all()


@pytest.mark.parametrize("metric", ["mvdm", "ig"])
def test_the_bounded_search_and_the_dense_one_agree(metric, monkeypatch):
    """The same predictions with the groups' bound and against every stored row (the bound turned off), so the
    bound prunes no neighbour; and the bound did group the stored rows."""
    train, labels = _table(8000, seed=3, cards=(2, 3, 4, 5, 6, 8, 10, 12), missing=0.02)
    test, _ = _table(500, seed=4, cards=(2, 3, 4, 5, 6, 8, 10, 12))
    model = knn.fit(train, labels, metric=metric)
    assert knn._groups(model) is not None
    bounded = knn.predict(model, test)
    monkeypatch.setattr(knn, "DENSE_ROWS", 10**9)
    assert knn._groups(model) is None
    assert (knn.predict(model, test) == bounded).all()


def test_the_information_gain_is_igweighted_s_to_the_last_bit():
    train, labels = _table(2000, seed=11, missing=0.1)
    model = knn.fit(train, labels, metric="ig")
    Z = model.Z.astype(float)
    Z[model.Z == np.array([len(v) for v in model.values]) + 1] = np.nan
    reference = IGWeighted().fit(Z, np.array(labels, dtype=object), types=["nominal"] * Z.shape[1]).weights_
    ours = knn.information_gain(model.Z, model.y, len(model.classes), [len(v) for v in model.values])
    assert ours.tolist() == reference.tolist()


def test_ties_go_to_the_more_frequent_class():
    """Two stored rows at distance 0 with different classes: the class more frequent in training wins."""
    model = knn.fit([["a", "a", "b", "b"]], ["x", "y", "y", "x"], metric="overlap")
    assert knn.predict(model, [["a"]]).tolist() == ["x"]  # x and y equally frequent: the first in order
    model = knn.fit([["a", "a", "b", "b", "b"]], ["x", "y", "y", "x", "y"], metric="overlap")
    assert knn.predict(model, [["a"]]).tolist() == ["y"]


# ---------------------------------------------------------------------------------------------- the command
def _write(path: Path, columns, labels=None) -> Path:
    rows = zip(*columns, *([labels] if labels is not None else []))
    path.write_text("".join(",".join(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _files(tmp_path, n=600):
    train, labels = _table(n, seed=1)
    test, truth = _table(120, seed=2)
    return _write(tmp_path / "train.data", train, labels), _write(tmp_path / "test.data", test, truth), train, labels


def test_the_command_writes_the_predictions_one_per_line(tmp_path, capsys):
    train_path, test_path, train, labels = _files(tmp_path)
    out = tmp_path / "pred.txt"
    argv = ["classify", "--train", str(train_path), "--test", str(test_path), "--metric", "mvdm", "--output", str(out)]
    assert cli.main(argv) == 0
    test, truth = _table(120, seed=2)
    assert out.read_text().splitlines() == knn.predict(knn.fit(train, labels, metric="mvdm"), test).tolist()
    err = capsys.readouterr().err
    assert err.startswith("lazylib classify: 120 predictions (mvdm, k = 1)") and "accuracy" in err


def test_target_header_and_standard_output(tmp_path, capsys):
    """The class in the first column, named by the header; the test file without it; predictions on stdout."""
    train, labels = _table(200, seed=5)
    (tmp_path / "a.csv").write_text(
        "cls," + ",".join(f"f{j}" for j in range(len(train))) + "\n"
        + "".join(",".join([c, *r]) + "\n" for c, r in zip(labels, zip(*train))), encoding="utf-8",
    )  # fmt: skip
    test, _ = _table(30, seed=6)
    (tmp_path / "b.csv").write_text(
        ",".join(f"f{j}" for j in range(len(test))) + "\n" + "".join(",".join(r) + "\n" for r in zip(*test)),
        encoding="utf-8",
    )
    argv = ["classify", "--train", str(tmp_path / "a.csv"), "--test", str(tmp_path / "b.csv"), "--header"]
    assert cli.main([*argv, "--target", "cls"]) == 0
    printed = capsys.readouterr()
    assert printed.out.splitlines() == knn.predict(knn.fit(train, labels), test).tolist()
    assert "accuracy" not in printed.err
    assert cli.main([*argv, "--target", "1"]) == 0 and capsys.readouterr().out == printed.out


def _refused(capsys, argv) -> str:
    status = cli.main(argv)
    err = capsys.readouterr().err
    assert status == cli.BAD_INPUT, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("lazylib classify: error: "), err
    return lines[0]


def test_bad_input_gets_one_line_and_status_2(tmp_path, capsys):
    train_path, test_path, _, _ = _files(tmp_path)
    base = ["classify", "--train", str(train_path), "--test", str(test_path)]
    ragged = tmp_path / "ragged.data"
    ragged.write_text("a,b,x\n\na,c,y\nb,y\n", encoding="utf-8")
    one = tmp_path / "one.data"
    one.write_text("a,b,x\nb,c,x\n", encoding="utf-8")
    unlabelled = tmp_path / "unlabelled.data"
    unlabelled.write_text("a,b,x\nb,c,?\n", encoding="utf-8")
    narrow = tmp_path / "narrow.data"
    narrow.write_text("a\nb\n", encoding="utf-8")
    cases = {
        "no such file": ["classify", "--train", str(tmp_path / "none"), "--test", str(test_path)],
        "line 4 has 2 cells": ["classify", "--train", str(ragged), "--test", str(test_path)],
        "single class": ["classify", "--train", str(one), "--test", str(test_path)],
        "have no class": ["classify", "--train", str(unlabelled), "--test", str(test_path)],
        "k must be": [*base, "-k", "601"],
        "--target '9'": [*base, "--target", "9"],
        "give the test rows": ["classify", "--train", str(train_path), "--test", str(narrow)],
        "one character": [*base, "--delimiter", ";;"],
        "cannot write there": [*base, "--output", str(tmp_path / "absent" / "p.txt")],
        "working_memory": [*base, "--working-memory", "0"],
    }
    for expected, argv in cases.items():
        assert expected in _refused(capsys, argv), expected


def test_a_failed_run_leaves_the_old_output(tmp_path, capsys):
    train_path, test_path, _, _ = _files(tmp_path)
    out = tmp_path / "pred.txt"
    out.write_text("old\n")
    bad = tmp_path / "bad.data"
    bad.write_text("a\n", encoding="utf-8")
    _refused(capsys, ["classify", "--train", str(train_path), "--test", str(bad), "--output", str(out)])
    assert out.read_text() == "old\n" and sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []
    assert cli.main(["classify", "--train", str(train_path), "--test", str(test_path), "--output", str(out)]) == 0
    assert len(out.read_text().splitlines()) == 120


def test_the_command_s_metrics_are_the_module_s():
    assert cli.CLASSIFY_METRICS == knn.METRICS and cli.CLASSIFY_MEMORY == knn.WORKING_MEMORY


# ---------------------------------------------------------------------------------------------- import path
HEAVY = ("sklearn", "scipy.stats", "pandas")


def _heavy_loaded(code: str) -> list:
    """The modules of :data:`HEAVY` that running ``code`` in a fresh interpreter loads."""
    probe = f"import sys\n{code}\nprint(sorted(m for m in {HEAVY!r} if m in sys.modules))"
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    return eval(done.stdout.strip().splitlines()[-1])


def test_the_classify_command_loads_no_sklearn_scipy_stats_or_pandas(tmp_path):
    train_path, test_path, _, _ = _files(tmp_path)
    run = f"from lazylib import cli; assert cli.main(['classify', '--train', {str(train_path)!r}, '--test', "
    run += f"{str(test_path)!r}, '--metric', 'ig', '--output', {str(tmp_path / 'p.txt')!r}]) == 0"
    assert _heavy_loaded(run) == []
    assert (tmp_path / "p.txt").exists()


def test_the_import_probe_can_fail():
    """The probe sees a heavy import where there is one (so an import of pandas on the path would fail it)."""
    assert _heavy_loaded("import lazylib.classify, pandas") == ["pandas"]
