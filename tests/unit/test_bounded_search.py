"""The printed IVDM and WVDM (whose continuous terms square a bilinear one) are searched through a lower bound
(issue 27): the same neighbours, sums and tie sets as the whole rows of ``pairwise``, terms computed pair by pair
equal to the matrix's to the last bit, identical values at exactly 0."""

from __future__ import annotations

from unittest import mock

import numpy as np
import pandas as pd
import pytest

from lazylib import search
from lazylib.metrics import _engine
from lazylib.metrics.interpolated import IVDM, WVDM


def mixed_data(seed: int, n: int = 160, continuous: int = 3, nominal: int = 1, classes: int = 3):
    """Continuous columns rounded to few digits (many repeated values), some unknowns, nominal columns, and
    a third of the rows copies of others (exact ties)."""
    rng = np.random.default_rng(seed)
    columns = {}
    for a in range(continuous):
        v = np.round(rng.normal(size=n), int(rng.integers(0, 3)))
        v[rng.random(n) < 0.05] = np.nan
        columns[f"c{a}"] = v
    for a in range(nominal):
        columns[f"n{a}"] = pd.Categorical(rng.integers(0, 4, n).astype(str))
    X = pd.DataFrame(columns)
    copies = rng.integers(0, n, n // 3)
    X.iloc[: len(copies)] = X.iloc[copies].to_numpy()
    return X, rng.integers(0, classes, n)


@pytest.mark.parametrize("cls", [IVDM, WVDM])
def test_pair_terms_equal_the_matrix_terms_to_the_last_bit(cls):
    X, y = mixed_data(1, continuous=2, nominal=0)
    metric = cls(erratum=False).fit(X.iloc[:100], y[:100])
    Zq, Zs = metric._encode_like_fit(X.iloc[100:], "X"), metric.X_
    rng = np.random.default_rng(2)
    I, J = rng.integers(0, len(Zq), 500), rng.integers(0, len(Zs), 500)
    for a, att in metric._declaration.root_terms:
        T = att.direct(Zq[:, a], Zs[:, a])
        np.testing.assert_array_equal(att.direct_pairs(Zq[I, a], Zs[J, a]), T[I, J])
        # the terms are the printed ones, (sum_c (P_xc - P_yc)^2)^2
        P, Q = att.probabilities(Zq[:, a]), att.probabilities(Zs[:, a])
        np.testing.assert_allclose(T, (((P[:, None] - Q[None]) ** 2).sum(-1)) ** 2, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("cls", [IVDM, WVDM])
def test_identical_values_are_at_exactly_zero_in_the_printed_form(cls):
    X, y = mixed_data(3, nominal=0)
    metric = cls(erratum=False).fit(X, y)
    D = metric.pairwise(X)
    assert np.all(np.diag(D) == 0.0)
    same = (X.to_numpy()[:, None] == X.to_numpy()[None]) | (X.isna().to_numpy()[:, None] & X.isna().to_numpy()[None])
    assert np.all(D[same.all(-1)] == 0.0)


CASES = [
    # (seed, class, continuous, nominal, weights, k, tie tolerance, working memory)
    (4, IVDM, 3, 1, None, 1, 1e-9, None),
    (5, WVDM, 3, 0, None, 1, 0.0, None),
    (6, IVDM, 1, 0, None, 3, 1e-9, None),  # one attribute: the bound is the sum itself
    (7, WVDM, 4, 2, "global", 3, 1e-2, 0.01),  # a wide tolerance and chunks of a few rows
    (8, IVDM, 2, 1, "class", 5, 1e-9, None),
    (9, WVDM, 2, 2, "class", 1, 1e-2, 0.01),
    (10, IVDM, 5, 0, "global", 2, 0.0, 0.01),
]


@pytest.mark.parametrize("seed, cls, continuous, nominal, weights, k, tol, memory", CASES)
def test_the_bounded_search_is_the_whole_row_search(seed, cls, continuous, nominal, weights, k, tol, memory):
    X, y = mixed_data(seed, continuous=continuous, nominal=nominal)
    rng = np.random.default_rng(seed)
    m = X.shape[1]
    W = {None: None, "global": rng.random(m) + 0.1, "class": rng.random((3, m)) + 0.1}[weights]
    params = {"weights": W} if memory is None else {"weights": W, "working_memory": memory}
    metric = cls(erratum=False, **params).fit(X.iloc[:100], y[:100])
    queries = X.iloc[100:]
    with mock.patch.object(_engine, "bounded_groups", wraps=_engine.bounded_groups) as bounded:
        got = list(metric.nearest_groups(queries, k, tol))
    assert bounded.call_count == 1
    rows, cols, sums = (np.concatenate([getattr(b, f) for b in got]) for f in ("rows", "cols", "sums"))
    # the reference: every sum of every pair (the printed form has no root), the tie set of each row
    want = search.select(metric.pairwise(queries), k, tol)
    np.testing.assert_array_equal(rows, want[0])
    np.testing.assert_array_equal(cols, want[1])
    np.testing.assert_array_equal(sums, want[2])
    assert len(rows) >= k * len(queries)


def test_the_corrected_form_does_not_take_the_bounded_path():
    X, y = mixed_data(11)
    metric = IVDM().fit(X, y)
    assert metric._declaration.root_terms is None
    with mock.patch.object(_engine, "bounded_groups") as bounded:
        list(metric.nearest_groups(X.iloc[:20], 1))
    bounded.assert_not_called()


@pytest.mark.parametrize("cls", [IVDM, WVDM])
def test_sums_within_a_wide_tolerance_of_the_nearest_are_kept(cls):
    # one attribute with distinct values: the bound is the sum itself, so the threshold alone must reach the
    # pairs within the tolerance above the k-th smallest
    rng = np.random.default_rng(12)
    X = pd.DataFrame({"x": rng.normal(size=200)})
    y = (X["x"] + rng.normal(scale=0.5, size=200) > 0).astype(int).to_numpy()
    metric = cls(erratum=False).fit(X.iloc[:150], y[:150])
    got = list(metric.nearest_groups(X.iloc[150:], 2, 0.5))
    rows, cols, sums = (np.concatenate([getattr(b, f) for b in got]) for f in ("rows", "cols", "sums"))
    want = search.select(metric.pairwise(X.iloc[150:]), 2, 0.5)
    assert len(want[0]) > 2 * 50  # the tolerance does take in more than the two nearest
    for a, b in zip((rows, cols, sums), want):
        np.testing.assert_array_equal(a, b)
