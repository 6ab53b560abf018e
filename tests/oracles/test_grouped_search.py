"""Massive ties: a search over groups of identical stored instances (issue 16) finds and votes exactly what a
scan of the whole double-precision matrix finds, under every tie rule, with and without leave-one-out."""

from __future__ import annotations

import numpy as np
import pytest
from test_search import TOL, assert_same_sets, reference_sets, reference_vote, searched_sets

from lazylib import search as _search
from lazylib.metrics import make_metric
from lazylib.neighbors import KNeighborsClassifier
from lazylib.voting import class_probabilities, neighbourhood


@pytest.fixture
def small_tiles(monkeypatch):
    monkeypatch.setattr(_search, "QUERY_BLOCK", 16)
    monkeypatch.setattr(_search, "STORED_BLOCK", 37)


def coarse(seed, n=400):
    """Two continuous attributes DVDM cuts into a few ranges, one nominal one: few distinct stored sides."""
    rng = np.random.default_rng(seed)
    X = np.column_stack([rng.normal(size=n), rng.uniform(0, 10, n), rng.integers(0, 3, n)]).astype(float)
    X[rng.random(X.shape) < 0.03] = np.nan
    y = (rng.random(n) < 0.3 + 0.1 * (X[:, 2] == 1)).astype(int) + (rng.random(n) < 0.2)
    return X, y, ["continuous", "continuous", "nominal"]


@pytest.mark.parametrize("name", ["dvdm", "hvdm"])
@pytest.mark.parametrize("k", [1, 3, 8])
def test_grouped_search_finds_what_the_full_matrix_holds(name, k, small_tiles):
    X, y, types = coarse(1)
    if name == "hvdm":  # HVDM on rounded values: identical instances are the groups
        X = np.round(X / 3)
    metric = make_metric(name).fit(X, y, types=types)
    Q = np.vstack([X[:30], X[30:60] + 0.05])
    plan, groups = _search.group_plan(metric._plan(metric.X_[:5], metric.X_, metric.y_, training=True))
    assert not groups.trivial and len(groups.size) * 2 <= len(X)
    assert_same_sets(searched_sets(metric, Q, k), reference_sets(metric, Q, k))


@pytest.mark.parametrize("ties", ["all", "first", "random"])
def test_classifier_on_groups_follows_the_tie_rule(ties, small_tiles):
    X, y, types = coarse(2)
    Q = np.vstack([X[:40], X[40:80] * 1.1])
    counts = np.bincount(y)
    for k in (1, 2, 5):
        clf = KNeighborsClassifier(k, "dvdm", ties=ties).fit(X, y, types=types)
        S = np.vstack([b for _, _, b in clf.metric_.pairwise_chunks(Q, reduced=True)])
        if ties == "random":  # the exact distribution from plain (ungrouped) candidates of the full matrix
            rows, cols, sums = _search.select(S, k, TOL)
            nb = neighbourhood(rows, cols, sums, len(Q), clf.y_, 3, k, TOL)
            np.testing.assert_allclose(
                clf.predict_distribution(Q), class_probabilities(nb, k, clf.priority_, ties), atol=1e-12
            )
            continue
        expected = [reference_vote(row, y, k, counts, ties) for row in S]
        np.testing.assert_array_equal(clf.predict(Q), [e[0] for e in expected])
        if ties == "first":  # kneighbors takes the first members of the groups
            idx = clf.kneighbors(Q, return_distance=False)
            for i, (_, voters) in enumerate(expected):
                assert sorted(idx[i]) == sorted(voters)


def loo_reference(metric, y, k, ties, counts):
    """Leave-one-out votes by the module docstring's rules on the full matrix with the diagonal removed."""
    S = np.vstack([b for _, _, b in metric.pairwise_chunks(metric.X_, reduced=True)])
    np.fill_diagonal(S, np.inf)
    return [reference_vote(row, y, k, counts, ties)[0] for row in S]


@pytest.mark.parametrize("name", ["dvdm", "overlap", "manhattan"])
@pytest.mark.parametrize("ties", ["all", "first"])
def test_leave_one_out_search_excludes_only_the_query_itself(name, ties, small_tiles):
    X, y, types = coarse(3, n=200)
    if name != "dvdm":
        X, types = np.round(X), ["nominal" if name == "overlap" else "continuous"] * 2 + ["nominal"]
        X[:, :2] = np.clip(X[:, :2], -2, 5)
    counts = np.bincount(y)
    for k in (1, 4):
        clf = KNeighborsClassifier(k, name, ties=ties).fit(X, y, types=types)
        votes = np.concatenate(
            [
                np.argmax(nb.strict + nb.tied + clf.priority_, axis=1) if ties == "all" else np.argmax(nb.first, axis=1)
                for *_, nb in clf._neighbourhoods(None, leave_one_out=True)
            ]
        )
        np.testing.assert_array_equal(votes, loo_reference(clf.metric_, y, k, ties, counts))
        found = [dict() for _ in range(len(X))]
        for _, _, rows, cols, sums in clf.metric_.nearest_chunks(None, k, TOL, leave_one_out=True):
            for r, c, s in zip(rows, cols, sums):
                found[r][int(c)] = s
        S = np.vstack([b for _, _, b in clf.metric_.pairwise_chunks(clf.metric_.X_, reduced=True)])
        np.fill_diagonal(S, np.inf)
        for i, row in enumerate(S):
            kth = np.sort(row)[k - 1]
            assert set(found[i]) == set(np.flatnonzero(row <= kth + TOL * kth).tolist()), i


def loo_full_matrix(X, y, ks, metric, ties, types=None, expected=False):
    """The previous implementation of ``loo_accuracy_by_k``: the whole distance matrix, its diagonal removed,
    and the vote of every k on it."""
    from lazylib.neighbors import _hits

    clf = KNeighborsClassifier(1, metric, ties=ties).fit(X, y, types=types)
    C = len(clf.classes_)
    correct = np.zeros(len(ks))
    for start, stop, D in clf.metric_.pairwise_chunks(X, reduced=True):
        D[np.arange(stop - start), np.arange(start, stop)] = np.inf
        for i, k in enumerate(ks):
            rows, cols, sums = _search.select(D, k, TOL)
            nb = neighbourhood(rows, cols, sums, stop - start, clf.y_, C, k, TOL, first=ties == "first")
            correct[i] += _hits(nb, k, clf.priority_, ties, clf.y_[start:stop], expected, None)
    return correct / len(X)


@pytest.mark.parametrize("name", ["hvdm", "dvdm", "overlap", "vdm", "manhattan", "ivdm"])
@pytest.mark.parametrize("ties", ["all", "first", "random"])
def test_loo_by_search_equals_the_full_matrix(name, ties, small_tiles):
    from lazylib.neighbors import loo_accuracy_by_k

    X, y, types = coarse(4, n=150)
    if name in ("overlap", "vdm"):
        X, types = np.round(np.nan_to_num(X, nan=9.0)), ["nominal"] * 3
    ks = [1, 2, 3, 6, 11]
    expected = ties == "random"
    ours = loo_accuracy_by_k(X, y, ks, name, types=types, ties=ties, expected=expected)
    np.testing.assert_allclose(
        ours.to_numpy(), loo_full_matrix(X, y, ks, name, ties, types, expected), rtol=0, atol=1e-12
    )


def test_kth_smallest_with_multiplicities_equals_sorting_the_repeated_row():
    # column j stands for size[j] stored instances: the k-th smallest instance of each row, against np.repeat
    rng = np.random.default_rng(0)
    for _ in range(2000):
        n, ns = rng.integers(1, 6), rng.integers(1, 12)
        S = rng.integers(0, 5, (n, ns)).astype(float)  # many equal sums
        size = rng.integers(1, 4, ns)
        k = int(rng.integers(1, size.sum() + 1))
        expected = [np.sort(np.repeat(row, size))[k - 1] for row in S]
        np.testing.assert_array_equal(_search.kth_smallest(S, k, size), expected)
