"""Set-valued attributes in the metrics (Howe & Cardie, Eq. 6) against independent computations.

The references here are plain loops: over pairs of instances, features and members (``math.dist``), with the
weights of the stored instance's class; no function of lazylib computes a distance for them. The last tests
compare the metrics' path (``KNeighborsClassifier`` with ``FeatureDifference`` / ``MDW``) with the separate path
of :mod:`lazylib.weighting.sets`, which reads an unknown value as difference 0 where the metrics read it as 1.
"""

from __future__ import annotations

import math
import pickle

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone

from lazylib.metrics import encode
from lazylib.metrics._engine import chunk_rows
from lazylib.neighbors import KNeighborsClassifier, loo_accuracy_by_k
from lazylib.weighting import MDW, FeatureDifference, mdw_weights
from lazylib.weighting.sets import DifferenceKNN, combined_distance, loo_accuracy


def random_sets(seed: int, n: int = 40, *, unknown: float = 0.15):
    """A frame with a numeric, a nominal and two set columns (dimensions 2 and 3, 1 to 5 members, duplicates),
    some values unknown, and three classes."""
    rng = np.random.default_rng(seed)

    def sets(d):
        out = [np.round(rng.normal(size=(rng.integers(1, 6), d)) * 4) / 4 for _ in range(n)]
        out[3] = out[1].copy()  # identical sets: distance exactly 0
        return [None if rng.random() < unknown else s for s in out]

    x = np.round(rng.normal(size=n), 2)
    x[rng.random(n) < unknown] = np.nan
    c = pd.Categorical(rng.choice(["a", "b", "c", None], size=n, p=[0.3, 0.3, 0.3, 0.1]))
    X = pd.DataFrame({"x": x, "c": c, "s2": pd.Series(sets(2), dtype=object), "s3": pd.Series(sets(3), dtype=object)})
    y = rng.choice(["p", "q", "r"], size=n)
    return X, y


def eq6(u, v) -> float:
    return min(math.dist(a, b) for a in u for b in v)


def loop_distance(X: pd.DataFrame, Q: pd.DataFrame, scales: dict, W: np.ndarray, cls: np.ndarray) -> np.ndarray:
    """``sum_f W[cls[j], f] delta_f(q_f, x_f)``: |x - y| / scale, overlap, Eq. 6 / scale; unknown at 1."""
    out = np.zeros((len(Q), len(X)))
    for i in range(len(Q)):
        for j in range(len(X)):
            total = 0.0
            for f, name in enumerate(X.columns):
                a, b = Q[name].iloc[i], X[name].iloc[j]
                if name == "c":
                    d = 1.0 if pd.isna(a) or pd.isna(b) else float(a != b)
                elif name == "x":
                    d = 1.0 if np.isnan(a) or np.isnan(b) else abs(a - b) / scales[name]
                else:
                    d = 1.0 if a is None or b is None else eq6(a, b) / scales[name]
                total += W[cls[j], f] * d
            out[i, j] = total
    return out


def largest_difference(X: pd.DataFrame, name: str) -> float:
    col = X[name]
    if name == "x":
        return float(col.max() - col.min())
    known = [s for s in col if s is not None]
    return max(eq6(u, v) for u in known for v in known)


@pytest.mark.parametrize("scale", ["range", "raw"])
def test_feature_difference_equals_a_loop_over_members(scale):
    X, y = random_sets(0)
    train, queries = X.iloc[:28].reset_index(drop=True), X.iloc[28:].reset_index(drop=True)
    rng = np.random.default_rng(1)
    W = rng.uniform(0.2, 2.0, size=(3, 4))  # per-class weights
    metric = FeatureDifference(scale=scale, weights=W).fit(train, y[:28])
    scales = {name: (largest_difference(train, name) if scale == "range" else 1.0) for name in ("x", "s2", "s3")}
    np.testing.assert_allclose(metric.scales_[[0, 2, 3]], [scales["x"], scales["s2"], scales["s3"]], rtol=1e-13)
    cls = np.unique(y[:28], return_inverse=True)[1]
    np.testing.assert_allclose(
        metric.pairwise(queries), loop_distance(train, queries, scales, W, cls), rtol=1e-12, atol=1e-12
    )
    np.testing.assert_allclose(
        metric.pairwise(train), loop_distance(train, train, scales, W, cls), rtol=1e-12, atol=1e-12
    )
    # other stored instances, with their classes
    other = np.unique(y, return_inverse=True)[1][28:]
    np.testing.assert_allclose(
        metric.pairwise(train.iloc[:5], queries, y_B=y[28:]),
        loop_distance(queries, train.iloc[:5], scales, W, other),
        rtol=1e-12,
        atol=1e-12,
    )


def test_identical_sets_are_at_exactly_zero_and_unknown_at_one():
    X, y = random_sets(2, unknown=0.0)
    X.loc[5, "s2"] = None
    metric = FeatureDifference(weights=[0, 0, 1, 0]).fit(X, y)
    D = metric.pairwise(X)
    assert D[1, 3] == 0.0 and D[3, 1] == 0.0 and (np.diag(D)[np.arange(len(X)) != 5] == 0).all()
    assert (D[5] == 1).all() and (D[:, 5] == 1).all()


def test_small_working_memory_gives_the_same_sums():
    X, y = random_sets(3, n=60)
    big = MDW().fit(X, y)
    small = MDW(working_memory=0.002).fit(X, y)  # a few rows per chunk, the member pairs cut into blocks
    assert chunk_rows(small.working_memory, 60, 0, (small.sets_, small.sets_)) < 20
    np.testing.assert_allclose(small.weights_, big.weights_, rtol=1e-13)
    np.testing.assert_allclose(small.pairwise(X), big.pairwise(X), rtol=1e-13, atol=1e-15)


def test_mdw_learns_the_weights_of_mdw_weights_on_sets():
    X, y = random_sets(4, n=50)
    metric = MDW().fit(X, y)
    # mdw_weights on the raw frame: the scaled features give the same significance, and weights times scaled
    # differences the same distances
    raw = mdw_weights(X, y)
    np.testing.assert_allclose(
        metric.components_.significance.to_numpy(),
        MDW(scale="raw").fit(X, y).components_.significance.to_numpy(),
        rtol=1e-12,
    )
    np.testing.assert_allclose(
        metric.weights_ / np.where(metric.scales_ > 0, metric.scales_, 1.0)[None, :], raw.to_numpy(), rtol=1e-10
    )
    # without unknown values (whose difference 1 is in the scaled unit) the scale changes no distance
    X, y = random_sets(4, n=50, unknown=0.0)
    X["c"] = X["c"].cat.add_categories(["z"]).fillna("z")
    np.testing.assert_allclose(
        MDW(scale="raw").fit(X, y).pairwise(X), MDW().fit(X, y).pairwise(X), rtol=1e-10, atol=1e-12
    )


def test_classifier_equals_the_separate_path_without_unknowns():
    X, y = random_sets(5, n=60, unknown=0.0)
    X["c"] = X["c"].cat.add_categories(["z"]).fillna("z")
    queries = random_sets(6, n=15, unknown=0.0)[0]
    queries["c"] = pd.Categorical(queries["c"].astype(object).fillna("z"), categories=X["c"].cat.categories)
    for k in (1, 3):
        plain = KNeighborsClassifier(k, FeatureDifference(scale="raw")).fit(X, y)
        separate = DifferenceKNN(k).fit(X, y)
        assert (plain.predict(queries) == separate.predict(queries)).all()
        weighted = KNeighborsClassifier(k, MDW()).fit(X, y)
        assert (weighted.predict(queries) == DifferenceKNN(k, "mdw").fit(X, y).predict(queries)).all()
    ks = [1, 3, 5]
    expected = loo_accuracy(combined_distance(X, weights=mdw_weights(X, y), y_B=y), y, ks)
    pd.testing.assert_series_equal(loo_accuracy_by_k(X, y, ks, MDW()), expected, check_names=False)
    expected = loo_accuracy(combined_distance(X), y, ks)
    pd.testing.assert_series_equal(
        loo_accuracy_by_k(X, y, ks, FeatureDifference(scale="raw")), expected, check_names=False
    )


def test_the_two_paths_differ_by_the_reading_of_unknown_values():
    X, _ = random_sets(7)
    unknowns = X.isna().to_numpy() | X.apply(lambda col: col.map(lambda v: v is None)).to_numpy()
    count = unknowns.astype(float)
    either = count[:, None, :].astype(bool) | count[None, :, :].astype(bool)
    metrics_path = FeatureDifference(scale="raw").fit(X).pairwise(X)
    np.testing.assert_allclose(metrics_path - combined_distance(X), either.sum(-1), atol=1e-12)


def test_leave_one_out_uses_the_training_tables():
    X, y = random_sets(8, n=45)
    clf = KNeighborsClassifier(1, MDW()).fit(X, y)
    D = clf.metric_.pairwise(X)
    np.fill_diagonal(D, np.inf)
    nearest = D.min(1)
    for _, _, rows, cols, sums in clf.metric_.nearest_chunks(None, 1, leave_one_out=True):
        assert (cols != rows).all()
        np.testing.assert_allclose(sums, nearest[rows], rtol=1e-12)
    assert 0 <= clf.score(X, y) <= 1


def test_encoded_rows_clone_and_pickle():
    X, y = random_sets(9)
    enc = encode(X, sets=True)
    metric = MDW().fit(enc.take(np.arange(30)), y[:30])
    np.testing.assert_allclose(metric.pairwise(enc.take([31, 35])), metric.pairwise(X.iloc[[31, 35]]))
    again = pickle.loads(pickle.dumps(metric))
    np.testing.assert_array_equal(again.pairwise(X.iloc[30:]), metric.pairwise(X.iloc[30:]))
    clf = KNeighborsClassifier(3, MDW(fallback="zero"))
    assert clone(clf).get_params()["metric"].get_params()["fallback"] == "zero"
    assert (clone(clf).fit(X, y).predict(X) == clf.fit(X, y).predict(X)).all()


def test_predict_loo_matches_loo_accuracy_by_k():
    X, y = random_sets(10, n=45)
    for k in (1, 3):
        clf = KNeighborsClassifier(k, MDW()).fit(X, y)
        assert np.mean(clf.predict_loo() == y) == loo_accuracy_by_k(X, y, [k], MDW())[k]


def test_cross_validation_encodes_set_columns_once():
    from lazylib import evaluation

    X, y = random_sets(11, n=50)
    folds = evaluation.stratified_kfold(y, 5, random_state=0)
    make = lambda: KNeighborsClassifier(3, MDW())  # noqa: E731
    once = evaluation.cross_validate(make, X, y, folds)
    each = evaluation.cross_validate(make, X, y, folds, encode_once=False)
    np.testing.assert_array_equal(once, each)


def test_the_near_zero_recomputation_stays_within_working_memory():
    """Sets of nearly equal 36-d members put every pair of sets near zero: the exact recomputation of their member
    pairs goes a block at a time (it used to take d + 6 times the bound, gigabytes at the default 64 MiB)."""
    import tracemalloc

    from lazylib.encoding import SetTable
    from lazylib.metrics.extend import min_member_distances

    rng = np.random.default_rng(0)
    table = SetTable.from_sets([1000.0 + 1e-6 * rng.random((12, 36)) for _ in range(60)])
    ids = np.arange(60, dtype=float)
    bound = 2**20
    tracemalloc.start()
    D = min_member_distances(table, ids, table, ids, max_bytes=bound)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 3 * bound + D.nbytes
    members = table.members.reshape(60, 12, 36)
    exact = np.sqrt(((members[:, None, :, None] - members[None, :, None, :]) ** 2).sum(-1).min(axis=(2, 3)))
    np.testing.assert_allclose(D, exact, rtol=1e-9, atol=1e-12)


def test_one_pair_of_large_sets_stays_within_working_memory():
    """Issue #40: one pair of sets of 3,000 members each took their whole member-pair matrix at once (72 MB here,
    about 3 GiB for 20,000-member sets from 320 KB of data) whatever ``max_bytes``; the product now goes a block
    of members at a time, and its minima equal the direct ones."""
    import tracemalloc

    from scipy.spatial.distance import cdist

    from lazylib.encoding import SetTable
    from lazylib.metrics.extend import min_member_distances

    rng = np.random.default_rng(1)
    sets = [rng.random((3000, 2)) + 5.0 * k for k in range(2)] + [rng.random((7, 2)), rng.random((1, 2)) + 0.5]
    table = SetTable.from_sets(sets)
    ids = np.arange(len(sets), dtype=float)
    bound = 2**20
    tracemalloc.start()
    D = min_member_distances(table, ids, table, ids, max_bytes=bound)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 3 * bound + table.members.nbytes * 4
    exact = np.array([[cdist(a, b).min() for b in sets] for a in sets])
    np.testing.assert_allclose(D, exact, rtol=1e-9, atol=1e-12)
