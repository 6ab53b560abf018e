"""Folds, paired t-tests and reproduction bands."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from lazylib import evaluation, parallel
from lazylib.datasets import load
from lazylib.neighbors import KNeighborsClassifier
from lazylib.report import bands


@pytest.mark.parametrize("n_splits", [2, 5, 10])
def test_folds_disjoint_cover_and_stratified(n_splits):
    y = load("lymphography").y.to_numpy()
    folds = evaluation.stratified_kfold(y, n_splits, random_state=0)
    tests = np.concatenate([t for _, t in folds])
    assert sorted(tests.tolist()) == list(range(len(y)))
    for train, test in folds:
        assert not set(train) & set(test) and len(train) + len(test) == len(y)
    for cls in np.unique(y):
        per_fold = [np.sum(y[t] == cls) for _, t in folds]
        assert max(per_fold) - min(per_fold) <= 1
    plain = evaluation.kfold(len(y), n_splits, random_state=0)
    assert sorted(np.concatenate([t for _, t in plain]).tolist()) == list(range(len(y)))


def test_folds_are_reproducible_from_seed():
    y = np.arange(50) % 3
    a = evaluation.stratified_kfold(y, 5, random_state=7)
    b = evaluation.stratified_kfold(y, 5, random_state=7)
    c = evaluation.stratified_kfold(y, 5, random_state=8)
    assert all((x[1] == z[1]).all() for x, z in zip(a, b))
    assert not all((x[1] == z[1]).all() for x, z in zip(a, c))
    reps = evaluation.repeated(evaluation.stratified_kfold, 3, y, 5, random_state=1)
    assert len(reps) == 3 and len(reps[0]) == 5


def test_leave_one_out_and_fixed_split():
    folds = evaluation.leave_one_out(4)
    assert [t.tolist() for _, t in folds] == [[0], [1], [2], [3]]
    ds = load("monks-1")
    ((train, test),) = evaluation.fixed_split(ds.split)
    assert len(train) == 124 and len(test) == 432


def test_paired_ttest_matches_scipy():
    rng = np.random.default_rng(0)
    a, b = rng.random(10), rng.random(10)
    for alt in ("two-sided", "greater", "less"):
        assert evaluation.paired_ttest(a, b, alt) == pytest.approx(stats.ttest_rel(a, b, alternative=alt).pvalue)
    assert evaluation.paired_ttest(a, a) == 1.0


def test_significance_marks():
    base = np.array([0.70, 0.72, 0.71, 0.69, 0.70])
    better = base + np.array([0.05, 0.06, 0.04, 0.05, 0.07])
    assert evaluation.significance_mark(better, base) == "bold"
    assert evaluation.significance_mark(base, better) == "italic"
    assert evaluation.significance_mark(base, base) == ""
    assert evaluation.significance_mark(better, base, style="arrow") == "↑"
    assert evaluation.significance_mark(base, better, style="star", tails=2, alpha=0.1) == "<"
    assert evaluation.significance_mark(better, base, style="dagger") == "†"
    assert evaluation.significance_mark(base, base, style="dagger") == ""
    # a difference significant at 10% but not at 5% (one-tailed p between the two)
    a, b = np.array([0.79, 0.68, 0.61, 0.6, 0.84]), np.array([0.75, 0.6, 0.54, 0.6, 0.86])
    p = stats.ttest_rel(a, b, alternative="greater").pvalue
    assert 0.05 <= p < 0.10 and evaluation.significance_mark(a, b, style="dagger") == "‡"


def test_cross_validate_and_band():
    ds = load("zoo")

    def run(seed):
        folds = evaluation.stratified_kfold(ds.y, 5, random_state=seed)
        acc = {
            m: evaluation.cross_validate(lambda m=m: KNeighborsClassifier(1, m), ds.X, ds.y, folds).mean()
            for m in ("overlap", "mvdm")
        }
        return pd.Series(acc)

    band = evaluation.reproduction_band(run, seeds=[0, 1, 2])
    assert list(band.columns) == ["mean", "std", "min", "max", "runs", "values"]
    assert (band["min"] <= band["mean"]).all() and (band["mean"] <= band["max"]).all()
    assert (band["mean"] > 0.85).all()
    table = evaluation.compare_with_published(
        pd.Series({"overlap": 96.09 / 100, "mvdm": 0.10}),
        band,
        digits=4,
        bounds=(0, 1),
        published_marks=pd.Series({"mvdm": "bold"}),
        reproduced_marks=pd.Series({"overlap": "italic"}),
    )
    assert table["paper mark"].tolist() == ["", "bold"] and table["our mark"].tolist() == ["italic", ""]
    assert table.loc["mvdm", "inside band"] == False  # noqa: E712
    one = bands.prediction_band(band.loc["overlap", "values"], digits=4, bounds=(0, 1))
    assert (table.loc["overlap", "band low"], table.loc["overlap", "band high"]) == (one.low, one.high)
    assert table["difference"].notna().all()


def test_n_jobs_gives_identical_results():
    ds = load("house-votes-84")
    folds = evaluation.stratified_kfold(ds.y, 10, random_state=3)
    one = evaluation.cross_validate(lambda: KNeighborsClassifier(1, "vdm"), ds.X, ds.y, folds, n_jobs=1)
    two = evaluation.cross_validate(lambda: KNeighborsClassifier(1, "vdm"), ds.X, ds.y, folds, n_jobs=2)
    np.testing.assert_array_equal(one, two)


def test_parallel_map_keeps_order_and_results():
    ds = load("zoo")

    def run(seed):
        folds = evaluation.stratified_kfold(ds.y, 5, random_state=seed)
        return pd.Series(evaluation.cross_validate(lambda: KNeighborsClassifier(1, "mvdm"), ds.X, ds.y, folds))

    serial = parallel.parallel_map(run, [5, 1, 3])
    spread = parallel.parallel_map(run, [5, 1, 3], n_jobs=2)
    for a, b in zip(serial, spread):
        pd.testing.assert_series_equal(a, b)
    assert not serial[0].equals(serial[1])  # different seeds, different folds: the order is checked
    with pytest.raises(ValueError, match="n_jobs"):
        parallel.parallel_map(run, [1], n_jobs=0)


@pytest.mark.parametrize("metric", ["hvdm", "ivdm", "overlap"])
def test_encoding_once_gives_the_same_accuracies_as_encoding_each_fold(metric):
    ds = load("hepatitis")  # nominal and linear attributes with missing values
    folds = evaluation.stratified_kfold(ds.y, 5, random_state=4)
    make = lambda: KNeighborsClassifier(3, metric)  # noqa: E731
    once = evaluation.cross_validate(make, ds.X, ds.y, folds)
    each = evaluation.cross_validate(make, ds.X, ds.y, folds, encode_once=False)
    np.testing.assert_array_equal(once, each)


def test_encoded_rows_are_checked_against_the_fit():
    from lazylib.metrics import Encoded, encode, make_metric

    zoo, votes = load("zoo"), load("house-votes-84")
    enc = encode(zoo.X, zoo.types)
    assert isinstance(enc.take([0, 2]), Encoded) and len(enc.take([0, 2])) == 2
    metric = make_metric("mvdm").fit(enc.take(np.arange(50)), zoo.y.iloc[:50])
    np.testing.assert_allclose(metric.pairwise(enc.take([60, 61])), metric.pairwise(zoo.X.iloc[[60, 61]]))
    with pytest.raises(ValueError, match="encoded with columns or categories"):
        metric.pairwise(encode(votes.X).take(np.arange(3)))
    with pytest.raises(ValueError, match="differ from the types"):
        encode(enc, ["continuous"] * len(enc.kinds))


def test_learning_curve_uses_fractions_of_each_training_fold():
    ds = load("iris")
    folds = evaluation.stratified_kfold(ds.y, 5, random_state=0)
    curve = evaluation.learning_curve(
        lambda: KNeighborsClassifier(1, "ivdm"), ds.X, ds.y, folds, [0.05, 0.5, 1.0], random_state=0
    )
    assert curve["n_train"].tolist() == [6.0, 60.0, 120.0]
    full = evaluation.cross_validate(lambda: KNeighborsClassifier(1, "ivdm"), ds.X, ds.y, folds).mean()
    assert curve.loc[1.0, "mean"] == pytest.approx(full)
    again = evaluation.learning_curve(
        lambda: KNeighborsClassifier(1, "ivdm"), ds.X, ds.y, folds, [0.05, 0.5, 1.0], random_state=0
    )
    pd.testing.assert_frame_equal(curve, again)


def test_cpu_seconds_counts_this_process_and_finished_children():
    import subprocess
    import sys

    start = evaluation.cpu_seconds()
    subprocess.run([sys.executable, "-c", "sum(i * i for i in range(2_000_000))"], check=True)
    spent = evaluation.cpu_seconds() - start
    assert spent > 0.05  # the child's work is counted once it has been waited for
    assert evaluation.cpu_seconds() >= start + spent


def test_cross_validate_refuses_folds_whose_test_cases_are_training_cases_or_empty():
    """Issue #40: a fold whose test indices were also training indices scored 1.0 with a 1-NN (each test case its
    own neighbour), silently; an empty test fold failed with "A is empty"."""
    from lazylib.neighbors import KNeighborsClassifier

    rng = np.random.default_rng(0)
    X, y = rng.random((30, 2)), np.arange(30) % 2
    make = lambda: KNeighborsClassifier(1)  # noqa: E731
    with pytest.raises(
        ValueError, match=r"folds\[0\] has 10 indices in both train and test \(\[0, 1, 2, 3, 4\] \.\.\.\)"
    ):
        evaluation.cross_validate(make, X, y, [(np.arange(30), np.arange(10))])
    with pytest.raises(ValueError, match=r"folds\[1\] has no test indices"):
        evaluation.cross_validate(make, X, y, [(np.arange(10, 30), np.arange(10)), (np.arange(30), np.array([], int))])


def _fold_takers():
    """Every function of lazylib that takes cross-validation folds from its caller, as a call on ``(X, y, folds)``."""
    from lazylib.metrics import HVDM
    from lazylib.protocols.guvenir1998 import protocol as guvenir1998
    from lazylib.protocols.payne2000 import protocol as payne2000
    from lazylib.protocols.wilson1997 import facts as wilson1997_facts

    make = lambda: KNeighborsClassifier(1, "euclidean")  # noqa: E731
    return {
        "cross_validate": lambda X, y, folds: evaluation.cross_validate(make, X, y, folds),
        "compare": lambda X, y, folds: evaluation.compare({"1-NN": make}, X, y, folds),
        "learning_curve": lambda X, y, folds: evaluation.learning_curve(make, X, y, folds, [0.5], random_state=0),
        "cv_nn": lambda X, y, folds: payne2000.cv_nn(X, y, folds),
        "cv_sweep": lambda X, y, folds: payne2000.cv_sweep(X, y, folds, nested=False),
        "sample_accuracies": lambda X, y, folds: payne2000.sample_accuracies(X, y, folds),
        "cv_selection": lambda X, y, folds: payne2000.cv_selection(X, y, folds, n_subsets=2, random_state=0),
        "prefix_accuracy": lambda X, y, folds: guvenir1998.prefix_accuracy(X, y, folds, [1], ks=(1,)),
        "vote_decomposition": lambda X, y, folds: guvenir1998.vote_decomposition(X, y, folds, ["b"]),
        "average_attribute_distance": lambda X, y, folds: wilson1997_facts.average_attribute_distance(
            HVDM(), X, y, folds
        ),
    }


@pytest.mark.parametrize("name", sorted(_fold_takers()))
def test_every_function_taking_folds_refuses_a_repeated_test_index(name):
    """Issue #40: a fold whose test indices repeat an index counted that test case twice in the accuracy, silently.
    Every function that takes folds refuses it, naming the fold and the index; valid folds still pass."""
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"a": rng.random(20), "b": rng.random(20)})
    y = np.array(["p", "q"] * 10)
    folds = evaluation.kfold(20, 2, random_state=0)
    _fold_takers()[name](X, y, folds)
    train, test = folds[1]
    repeated = [folds[0], (train, np.concatenate([test, test[[3]]]))]
    with pytest.raises(ValueError, match=rf"folds\[1\] test indices repeat \[{test[3]}\]"):
        _fold_takers()[name](X, y, repeated)


def test_check_folds_names_each_problem():
    assert [tuple(map(list, f)) for f in evaluation.check_folds([([0, 2], [1, 3])], 4)] == [([0, 2], [1, 3])]
    problems = [
        ([([0, 1], [2, 2, 3, 3])], r"folds\[0\] test indices repeat \[2, 3\]: a test case would count more than once"),
        ([([0, 1], [2, 4])], r"folds\[0\] test indices must lie in \[0, 3\] for the 4 instances, got \[4\]"),
        ([([0, 1], [[2, 3]])], r"folds\[0\] test indices must be one-dimensional, got shape \(1, 2\)"),
        ([([0.0, 1.0], [2, 3])], r"folds\[0\] train indices must be integers, got dtype float64"),
        ([([0, 1], [2, 3]), [0, 1, 2]], r"folds\[1\] must be a \(train, test\) pair of index arrays"),
    ]
    for folds, message in problems:
        with pytest.raises(ValueError, match=message):
            evaluation.check_folds(folds, 4)
    with pytest.raises(ValueError, match="n must be an integer >= 1, got 0"):
        evaluation.check_folds([], 0)
