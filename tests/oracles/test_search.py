"""The nearest-neighbour search (single-precision filter, double-precision decision) finds exactly what a scan of
the whole double-precision distance matrix finds, and the classifier votes as its documented rule says.

The references here sort each row of ``pairwise_chunks(reduced=True)`` (itself checked against per-pair loops
in ``test_metric_loops.py``) and apply the rule by hand, one query at a time.
"""

from __future__ import annotations

import numpy as np
import pytest
from test_metric_loops import random_mixed

from lazylib import search as _search
from lazylib.metrics import make_metric
from lazylib.neighbors import KNeighborsClassifier
from lazylib.voting import vote_priority

TOL = 1e-9


@pytest.fixture
def small_tiles(monkeypatch):
    """Tiles of a few dozen instances, so that small data cross many tile and block borders."""
    monkeypatch.setattr(_search, "QUERY_BLOCK", 16)
    monkeypatch.setattr(_search, "STORED_BLOCK", 37)


def reference_sets(metric, Q, k):
    """For each query: {stored index: sum} of the instances within the tolerance of its k-th smallest sum, and
    the largest sum of the row (the scale of the terms that cancel in a sum near 0)."""
    S = np.vstack([block for _, _, block in metric.pairwise_chunks(Q, reduced=True)])
    out = []
    for row in S:
        kth = np.sort(row)[k - 1]
        near = np.flatnonzero(row <= kth + TOL * abs(kth))
        out.append((dict(zip(near.tolist(), row[near].tolist())), row.max()))
    return out


def searched_sets(metric, Q, k):
    out = [dict() for _ in range(len(Q))]
    previous = 0
    for start, stop, rows, cols, sums in metric.nearest_chunks(Q, k, TOL):
        assert start == previous and stop > start
        previous = stop
        order = np.lexsort((cols, sums, rows))
        np.testing.assert_array_equal(order, np.arange(len(rows)))  # sorted by row, sum, column
        for r, c, s in zip(rows, cols, sums):
            out[r][int(c)] = float(s)
    assert previous == len(Q)
    return out


def assert_same_sets(found, expected):
    for i, (f, (e, scale)) in enumerate(zip(found, expected)):
        assert f.keys() == e.keys(), f"query {i}: found {sorted(f)}, expected {sorted(e)}"
        got, want = np.array([f[j] for j in e]), np.array(list(e.values()))
        # both are double-precision sums: equal to the rounding of the terms that cancel in them
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-13 * max(1.0, scale))


SEARCHED = [
    ("hvdm", {}),
    ("hvdm", {"normalization": "N1"}),
    ("heom", {}),
    ("dvdm", {}),
    ("ivdm", {}),
    ("wvdm", {}),
    ("vdm", {}),
    ("mvdm", {}),
    ("omvw", {}),
    ("overlap", {}),
    ("overlap", {"missing": "one"}),
    ("euclidean", {"normalize": "std"}),
    ("euclidean", {}),
    # direct (non-bilinear) terms: the search scans whole rows instead
    ("manhattan", {}),
    ("ivdm", {"erratum": False}),
    ("chebychev", {}),
]


@pytest.mark.parametrize("k", [1, 4])
@pytest.mark.parametrize(("name", "params"), SEARCHED, ids=[f"{n}{p or ''}" for n, p in SEARCHED])
def test_search_finds_what_the_full_matrix_holds(name, params, k, small_tiles):
    X, y, types = random_mixed(11, n=150, missing=0.0 if name == "chebychev" else 0.08)
    if name == "chebychev":
        X, types = X[:, 3:], types[3:]
    rng = np.random.default_rng(12)
    Q = np.vstack([X[:20], X[20:60] + rng.normal(scale=0.5, size=(40, X.shape[1])) * (np.arange(X.shape[1]) >= 3)])
    metric = make_metric(name, **params).fit(X, y, types=types)
    assert_same_sets(searched_sets(metric, Q, k), reference_sets(metric, Q, k))


@pytest.mark.parametrize("name", ["hvdm", "vdm", "overlap"])
def test_search_with_global_and_per_class_weights(name, small_tiles):
    X, y, types = random_mixed(13, n=120)
    rng = np.random.default_rng(14)
    for weights in (rng.uniform(0.1, 2.0, X.shape[1]), rng.uniform(0.0, 2.0, (3, X.shape[1]))):
        metric = make_metric(name, weights=weights).fit(X, y, types=types)
        assert_same_sets(searched_sets(metric, X[:50], 3), reference_sets(metric, X[:50], 3))


@pytest.mark.parametrize("name", ["overlap", "mvdm", "hvdm"])
@pytest.mark.parametrize("working_memory", [64, 0.0005])
def test_search_with_massive_ties(name, working_memory, small_tiles):
    # 4 binary attributes: 16 patterns among 300 instances, so each query ties with dozens; a tiny memory
    # bound makes the filter give up and scan whole rows
    rng = np.random.default_rng(15)
    X = rng.integers(0, 2, size=(300, 4)).astype(float)
    y = rng.integers(0, 2, size=300)
    metric = make_metric(name, working_memory=working_memory).fit(X, y, types=["nominal"] * 4)
    for k in (1, 5):
        assert_same_sets(searched_sets(metric, X[:40], k), reference_sets(metric, X[:40], k))


def test_search_decides_what_single_precision_cannot_tell_apart():
    # stored values 1900 +- 1e-4 and a crowd further away, centred near 1000: in single precision (7 digits) the
    # two nearest sums, about 2e-9 apart next to terms of 1e6, are not distinguishable
    crowd = np.linspace(0.0, 2000.0, 5000)
    X = np.concatenate([crowd[np.abs(crowd - 1900) > 0.01], [1900.0 + 1.1e-4, 1900.0 - 1e-4]])[:, None]
    y = np.arange(len(X)) % 2
    metric = make_metric("euclidean").fit(X, y, types=["continuous"])
    _, _, rows, cols, sums = next(metric.nearest_chunks(np.array([[1900.0]]), 1))
    assert cols.tolist() == [len(X) - 1]
    assert sums[0] == pytest.approx(1e-8, rel=1e-6)  # from the difference, not the cancelling terms


def test_search_beyond_single_precision_range_scans_rows():
    rng = np.random.default_rng(16)
    X = rng.normal(size=(200, 3)) * 1e20
    metric = make_metric("euclidean").fit(X, rng.integers(0, 2, 200), types=["continuous"] * 3)
    assert_same_sets(searched_sets(metric, X[:30] * 1.01, 2), reference_sets(metric, X[:30] * 1.01, 2))


def test_search_validates_k():
    X, y, types = random_mixed(17, n=20)
    metric = make_metric("hvdm").fit(X, y, types=types)
    for k in (0, 21, 1.5):
        with pytest.raises(ValueError, match="k must be an integer between 1 and the training set size 20"):
            list(metric.nearest_chunks(X, k))


def reference_vote(S_row, y, k, counts, ties):
    """The module docstring's rules, for one row of sums."""
    order = sorted(range(len(S_row)), key=lambda j: (S_row[j], j))
    kth = S_row[order[k - 1]]
    tol = TOL * abs(kth)
    if ties == "all":
        voters = [j for j in order if S_row[j] <= kth + tol]
    else:  # nearer than the k-th, then the lowest indices among those tied with it
        nearer = [j for j in order if S_row[j] < kth - tol]
        tied = sorted(j for j in order if abs(S_row[j] - kth) <= tol)
        voters = nearer + tied[: k - len(nearer)]
    votes = np.bincount(y[voters], minlength=len(counts))
    best = [c for c in range(len(counts)) if votes[c] == votes.max()]
    if ties == "all":
        return sorted(best, key=lambda c: (-counts[c], c))[0], voters
    return min(best), voters


@pytest.mark.parametrize("ties", ["all", "first"])
@pytest.mark.parametrize("name", ["overlap", "hvdm", "ivdm", "manhattan"])
def test_classifier_follows_the_tie_rule(name, ties, small_tiles):
    rng = np.random.default_rng(18)
    nominal = rng.integers(0, 3, size=(250, 3)).astype(float)
    linear = np.round(rng.normal(size=(250, 2)), 1)  # coarse values: ties on linear attributes too
    X, y = np.hstack([nominal, linear]), rng.integers(0, 3, size=250)
    types = ["nominal"] * 3 + ["continuous"] * 2
    Q = X[:60] + np.hstack([np.zeros((60, 3)), np.round(rng.normal(scale=0.3, size=(60, 2)), 1)])
    counts = np.bincount(y, minlength=3)
    for k in (1, 2, 5):
        clf = KNeighborsClassifier(k, name, ties=ties).fit(X, y, types=types)
        S = np.vstack([b for _, _, b in clf.metric_.pairwise_chunks(Q, reduced=True)])
        expected = [reference_vote(row, y, k, counts, ties) for row in S]
        np.testing.assert_array_equal(clf.predict(Q), [e[0] for e in expected])
        if ties == "first":
            idx = clf.kneighbors(Q, return_distance=False)
            for i, (_, voters) in enumerate(expected):
                assert sorted(idx[i]) == sorted(voters)
    assert (vote_priority(counts) > 0).all()
