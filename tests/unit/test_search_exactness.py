"""The neighbour search is as exact as ``pairwise`` at every scale (issue 11): scale-free tie tolerance,
near-zero sums recomputed, distances equal to ``pairwise``'s, tied neighbours in the same order whatever the
batch, no state shared through a metric object, and clear errors."""

from __future__ import annotations

from unittest import mock

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lazylib import search as _search
from lazylib.datasets import load
from lazylib.metrics import _plan, make_metric
from lazylib.neighbors import KNeighborsClassifier, loo_accuracy_by_k


@pytest.mark.parametrize("factor", [1e-8, 1e-6, 1.0, 1e8])
def test_accuracy_does_not_depend_on_the_scale_of_the_data(factor):
    iris = load("iris")
    X = iris.X * factor
    assert KNeighborsClassifier(1, "euclidean").fit(X, iris.y).score(X, iris.y) == 1.0
    assert loo_accuracy_by_k(X, iris.y, [1, 3, 5], "euclidean").equals(
        loo_accuracy_by_k(iris.X, iris.y, [1, 3, 5], "euclidean")
    )


def test_near_zero_sums_are_recomputed_in_the_search():
    X = np.array([[0.0], [1e-3], [3e6]])
    clf = KNeighborsClassifier(1, "euclidean").fit(X, [0, 1, 1], types=["continuous"])
    d, i = clf.kneighbors(np.array([[0.0], [1e-3]]), 2)
    np.testing.assert_array_equal(i, [[0, 1], [1, 0]])
    np.testing.assert_array_equal(d[:, 0], [0.0, 0.0])
    # as pairwise gives it: the values are centred on their mean (1e6), which rounds 1e-3 to about 1e-10
    np.testing.assert_allclose(d[:, 1], clf.metric_.pairwise(np.array([[0.0]]))[0, 1], rtol=1e-12)
    np.testing.assert_allclose(d[:, 1], 1e-3, rtol=1e-6)
    assert clf.predict(np.array([[0.0]]))[0] == 0
    _, _, rows, cols, sums = next(clf.metric_.nearest_chunks(np.array([[0.0]]), 1))
    assert cols.tolist() == [0] and sums.tolist() == [0.0]


@pytest.mark.parametrize("name", ["hvdm", "vdm", "dvdm", "ivdm", "euclidean", "overlap", "manhattan"])
def test_kneighbors_distances_are_those_of_pairwise(name):
    ds = load("crx")
    X, y = ds.X.iloc[:300], ds.y.iloc[:300]
    clf = KNeighborsClassifier(5, name).fit(X, y)
    d, i = clf.kneighbors(X.iloc[:120])
    D = clf.metric_.pairwise(X.iloc[:120])
    # each sum within ACCURACY of the exact one (relative), on two paths: the distances within ACCURACY
    rtol = _plan.ACCURACY
    np.testing.assert_allclose(d, np.take_along_axis(D, i, axis=1), rtol=rtol, atol=0)
    np.testing.assert_allclose(d, np.sort(D, axis=1)[:, :5], rtol=rtol, atol=0)


@pytest.mark.parametrize("name", ["hvdm", "overlap", "dvdm", "euclidean"])
def test_a_batch_and_single_queries_order_tied_neighbours_alike(name):
    ds = load("house-votes-84")
    clf = KNeighborsClassifier(4, name).fit(ds.X, ds.y)
    batch = clf.kneighbors(ds.X.iloc[:60], return_distance=False)
    single = np.vstack([clf.kneighbors(ds.X.iloc[[j]], return_distance=False) for j in range(60)])
    np.testing.assert_array_equal(batch, single)


def test_identical_instances_are_at_distance_exactly_zero():
    ds = load("crx")
    X = ds.X.iloc[:150]
    known = ~X.isna().any(axis=1).to_numpy()
    for name in ("hvdm", "vdm", "mvdm", "dvdm", "ivdm", "wvdm", "heom", "euclidean", "overlap"):
        metric = make_metric(name).fit(ds.X, ds.y)
        D = metric.pairwise(X)
        assert (np.diag(D)[known] == 0.0).all(), name


def test_one_metric_object_serves_two_classifiers():
    ds = load("house-votes-84")
    metric = make_metric("vdm")
    a = KNeighborsClassifier(1, metric).fit(ds.X.iloc[:200], ds.y.iloc[:200])
    before = a.predict(ds.X.iloc[200:])
    KNeighborsClassifier(1, metric).fit(ds.X.iloc[200:], ds.y.iloc[200:])
    np.testing.assert_array_equal(a.predict(ds.X.iloc[200:]), before)
    assert a.metric_ is not metric and not hasattr(metric, "fitted_")


def test_score_refuses_labels_of_the_wrong_length():
    iris = load("iris")
    clf = KNeighborsClassifier(1, "euclidean").fit(iris.X, iris.y)
    with pytest.raises(ValueError, match=r"inconsistent numbers of samples: \[149, 150\]"):
        clf.score(iris.X, iris.y.iloc[:149])


scales = st.lists(st.floats(-8, 8), min_size=3, max_size=3)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**16),
    factor=st.floats(-8, 8),
    columns=scales,
    k=st.integers(1, 4),
    name=st.sampled_from(["euclidean", "hvdm", "heom", "ivdm"]),
    tiles=st.booleans(),
)
def test_neighbours_and_distances_are_those_of_pairwise_at_any_scale(seed, factor, columns, k, name, tiles):
    with (
        mock.patch.object(_search, "STORED_BLOCK", 17 if tiles else _search.STORED_BLOCK),
        mock.patch.object(_search, "QUERY_BLOCK", 8 if tiles else _search.QUERY_BLOCK),
    ):
        check_against_pairwise(seed, factor, columns, k, name)


def check_against_pairwise(seed, factor, columns, k, name):
    """Small tiles (``tiles``) send the search through the single-precision filter, else it scans rows."""
    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(60, 3)), 1) * 10.0 ** (factor + np.array(columns))  # coarse: ties too
    y = rng.integers(0, 2, 60)
    Q = np.vstack([X[:15], X[15:30] * (1 + 1e-3 * rng.normal(size=(15, 3)))])
    clf = KNeighborsClassifier(k, name).fit(X, y, types=["continuous"] * 3)
    d, i = clf.kneighbors(Q)
    D = clf.metric_.pairwise(Q)
    np.testing.assert_allclose(d, np.take_along_axis(D, i, axis=1), rtol=1e-9, atol=0)
    np.testing.assert_allclose(d, np.sort(D, axis=1)[:, :k], rtol=1e-9, atol=0)
    S = np.vstack([block for _, _, block in clf.metric_.pairwise_chunks(Q, reduced=True)])
    for row, near in zip(S, i):  # the k returned are the k nearest, tied sums in stored order
        order = sorted(range(len(row)), key=lambda j: (row[j], j))
        kth = row[order[k - 1]]
        closer = {j for j in order if row[j] < kth * (1 - 1e-9)}
        tied = sorted(j for j in order if abs(row[j] - kth) <= 1e-9 * kth)
        assert set(near) == closer | set(tied[: k - len(closer)])


@pytest.mark.parametrize("seed", range(6))
def test_block_sums_add_as_np_add_at_does(seed):
    from lazylib.metrics._plan import block_sums

    rng = np.random.default_rng(seed)
    m = int(rng.integers(1, 8))
    widths = rng.integers(0, 12, m)  # some attributes without columns
    block = np.repeat(np.arange(m), widths)
    cols = rng.normal(size=(50, len(block))) * 10.0 ** rng.integers(-8, 8, len(block))
    want = np.zeros((50, m))
    np.add.at(want.T, block, cols.T)
    np.testing.assert_array_equal(block_sums(cols, block, m), want)
    shuffled = rng.permutation(len(block))  # columns out of attribute order: the general scatter
    want = np.zeros((50, m))
    np.add.at(want.T, block[shuffled], cols[:, shuffled].T)
    np.testing.assert_array_equal(block_sums(cols[:, shuffled], block[shuffled], m), want)


@pytest.mark.parametrize("name", ["hvdm", "ivdm", "heom", "euclidean"])  # (DVDM: few ranges, scanned whole)
@pytest.mark.parametrize("k", [1, 4])
def test_the_prune_before_the_refinement_keeps_the_selection_bit_for_bit(name, k):
    """``search._prune`` drops candidates on their double-precision products before the near-zero refinement:
    the neighbours, their sums and their order are those without it, with identical rows (multiplicities),
    near-ties and exact ties; and it does drop candidates here (the single-precision filter keeps more)."""
    rng = np.random.default_rng(k)
    # a dense cluster, coarse (identical rows, exact ties), and a few far outliers that widen the filter's bound
    X = np.vstack([np.round(rng.normal(size=(400, 3)), 2), 1e3 * rng.normal(size=(4, 3))])
    y = rng.integers(0, 3, len(X))
    Q = np.vstack([X[:40], X[40:80] + 1e-7 * rng.normal(size=(40, 3)), rng.normal(size=(40, 3))])
    metric = KNeighborsClassifier(k, name).fit(X, y, types=["continuous"] * 3).metric_
    dropped = []

    def counting(plan, start, rows, *args):
        out = prune(plan, start, rows, *args)
        dropped.append(len(rows) - len(out[0]))
        return out

    def run():
        found = [np.concatenate(parts) for parts in zip(*[c[2:5] for c in metric.nearest_groups(Q, k)])]
        return found

    prune = _search._prune
    with (
        mock.patch.object(_search, "STORED_BLOCK", 23),
        mock.patch.object(_search, "QUERY_BLOCK", 16),
    ):
        with mock.patch.object(_search, "_prune", counting):
            pruned = run()
        with mock.patch.object(_search, "_prune", lambda plan, start, rows, cols, sums, *a: (rows, cols, sums)):
            whole = run()
    assert sum(dropped) > 0
    for a, b in zip(pruned, whole):
        np.testing.assert_array_equal(a, b)
