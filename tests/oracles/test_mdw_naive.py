"""Mean differences, MDW weights and information gain against plain per-pair loops (Howe & Cardie, Eqs. 1-6)."""

import itertools

import numpy as np
import pandas as pd
import pytest

from lazylib.metrics import MVDM
from lazylib.weighting import MDWMVDM, information_gain, mdw_components, mean_difference, set_difference


def naive_mean(a, b, delta):
    """The O(n^2) form of Eq. 1, pairs with an unknown value left out."""
    total, pairs = 0.0, 0
    for u in a:
        for v in b:
            if (
                u is None
                or v is None
                or (isinstance(u, float) and np.isnan(u))
                or (isinstance(v, float) and np.isnan(v))
            ):
                continue
            total += delta(u, v)
            pairs += 1
    return total / pairs


def naive_set(S1, S2):
    return min(float(np.sqrt(((v1 - v2) ** 2).sum())) for v1 in S1 for v2 in S2)


@pytest.mark.parametrize("seed", range(5))
def test_numeric_fast_equals_naive_with_ties_and_missing(seed):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 6, 40).astype(float)  # many ties
    b = np.concatenate([rng.normal(2, 3, 25), rng.integers(0, 6, 10)])
    a[rng.choice(40, 5, replace=False)] = np.nan
    b[:3] = np.nan
    expected = naive_mean(list(a), list(b), lambda u, v: abs(u - v))
    assert mean_difference(a, b, "numeric") == pytest.approx(expected, rel=1e-12)
    assert mean_difference(a, a, "numeric") == pytest.approx(
        naive_mean(list(a), list(a), lambda u, v: abs(u - v)), rel=1e-12
    )


@pytest.mark.parametrize("seed", range(5))
def test_symbolic_fast_equals_naive_overlap_and_table(seed):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 4, 50).astype(float)
    b = rng.integers(1, 6, 30).astype(float)
    a[:4] = np.nan
    b[-2:] = np.nan
    assert mean_difference(a, b, "symbolic") == pytest.approx(naive_mean(list(a), list(b), lambda u, v: float(u != v)))
    T = rng.random((6, 6))
    T = T + T.T
    np.fill_diagonal(T, 0.0)
    expected = naive_mean(list(a), list(b), lambda u, v: T[int(u), int(v)])
    assert mean_difference(a, b, "symbolic", table=T) == pytest.approx(expected, rel=1e-12)


def test_set_difference_is_eq6_per_pair():
    rng = np.random.default_rng(3)
    A = [rng.normal(size=(rng.integers(1, 5), 3)) for _ in range(7)]
    B = [rng.normal(size=(rng.integers(1, 5), 3)) for _ in range(5)]
    D = set_difference(A, B, block=3)
    for i, j in itertools.product(range(7), range(5)):
        assert D[i, j] == pytest.approx(naive_set(A[i], B[j]), abs=1e-10)
    expected = naive_mean(A, B + [None], naive_set)
    assert mean_difference(A, B + [None], "set") == pytest.approx(expected, rel=1e-12)


def test_mdw_components_equal_naive_stages():
    rng = np.random.default_rng(7)
    n = 30
    y = rng.integers(0, 3, n)
    X = pd.DataFrame(
        {
            "num": rng.normal(y, 1.0),
            "sym": pd.Categorical(rng.integers(0, 3, n)),
            "set": [rng.normal(c, 1.0, size=(2, 2)) for c in y],
        }
    )
    X.loc[3, "num"] = np.nan
    deltas = {"num": lambda u, v: abs(u - v), "sym": lambda u, v: float(u != v), "set": naive_set}
    values = {"num": list(X["num"]), "sym": list(X["sym"].cat.codes.astype(float)), "set": list(X["set"])}
    res = mdw_components(X, y)
    for f in X.columns:
        scale = 1.0 / naive_mean(values[f], values[f], deltas[f])
        assert res.scaling[f] == pytest.approx(scale)
        for c in range(3):
            inside = [v for v, k in zip(values[f], y) if k == c]
            outside = [v for v, k in zip(values[f], y) if k != c]
            d_in = scale * naive_mean(inside, inside, deltas[f])
            d_out = scale * naive_mean(inside, outside, deltas[f])
            assert res.in_class.loc[c, f] == pytest.approx(d_in)
            assert res.out_class.loc[c, f] == pytest.approx(d_out)
    raw = np.maximum(res.out_class - res.in_class, 0)
    assert np.allclose(res.significance, raw.div(raw.sum(axis=1), axis=0))
    assert np.allclose(res.weights, res.significance * res.scaling)


def test_self_pairs_excluded_divides_by_n_n_minus_1():
    x = np.array([0.0, 1.0, 3.0])
    res = mdw_components(pd.DataFrame({"x": x, "z": [0.0, 0.0, 1.0]}), ["a", "a", "b"], self_pairs=False)
    assert res.scaling["x"] == pytest.approx(1.0 / (2 * (1 + 3 + 2) / 6))


def test_mdw_mvdm_weights_from_naive_mvdm_deltas():
    rng = np.random.default_rng(11)
    n = 60
    y = rng.integers(0, 3, n)
    X = pd.DataFrame({f"a{i}": pd.Categorical((y + rng.integers(0, 3, n)) % (3 + i)) for i in range(3)})
    fitted = MDWMVDM().fit(X, y)
    for f in X.columns:
        D = MVDM().fit(X[[f]], y).pairwise(X[[f]])  # one attribute's deltas, per pair
        assert fitted.components_.scaling[f] == pytest.approx(1.0 / D.mean(), rel=1e-9)
        for c in range(3):
            inside, outside = y == c, y != c
            d_in = D[np.ix_(inside, inside)].mean() / D.mean()
            d_out = D[np.ix_(inside, outside)].mean() / D.mean()
            assert fitted.components_.in_class.loc[c, f] == pytest.approx(d_in, rel=1e-9)
            assert fitted.components_.out_class.loc[c, f] == pytest.approx(d_out, rel=1e-9)


def test_information_gain_equals_counting_loop():
    rng = np.random.default_rng(5)
    n = 80
    y = rng.integers(0, 3, n)
    X = pd.DataFrame({"num": rng.normal(y, 1.0), "sym": pd.Categorical(rng.integers(0, 4, n))})
    X.loc[:4, "sym"] = np.nan

    def H(labels):
        _, counts = np.unique(labels, return_counts=True)
        p = counts / counts.sum()
        return float(-(p * np.log2(p)).sum())

    lo, hi = X["num"].min(), X["num"].max()
    bins = [min(int((v - lo) / ((hi - lo) / 8)), 7) for v in X["num"]]
    sym = ["?" if pd.isna(v) else v for v in X["sym"]]
    expected = {}
    for name, vals in (("num", bins), ("sym", sym)):
        cond = sum(sum(1 for v in vals if v == u) / n * H([c for v, c in zip(vals, y) if v == u]) for u in set(vals))
        expected[name] = H(y) - cond
    got = information_gain(X, y)
    assert got["num"] == pytest.approx(expected["num"])
    assert got["sym"] == pytest.approx(expected["sym"])


@pytest.mark.parametrize("self_pairs", [True, False])
def test_mdw_loo_distances_equal_refitting_without_each_instance(self_pairs):
    from lazylib.weighting.sets import combined_distance, mdw_loo_distances

    rng = np.random.default_rng(3)
    n = 25
    sets = [rng.normal(size=(int(rng.integers(1, 4)), 2)) for _ in range(n)]
    X = pd.DataFrame(
        {
            "x": rng.normal(size=n),
            "c": pd.Categorical(rng.choice(list("pqr"), n)),
            "s": pd.Series(sets, dtype=object),
        }
    )
    y = list(rng.choice(list("abc"), n))
    D = mdw_loo_distances(X, y, self_pairs=self_pairs)
    S = mdw_loo_distances(X, y, self_pairs=self_pairs, stages="scaling")
    for i in range(n):
        keep = [j for j in range(n) if j != i]
        res = mdw_components(X.iloc[keep].reset_index(drop=True), [y[j] for j in keep], self_pairs=self_pairs)
        ref = combined_distance(X.iloc[[i]].reset_index(drop=True), X, weights=res.weights, y_B=y)[0]
        assert np.allclose(D[i], ref, rtol=1e-12, atol=1e-12), i
        ref = combined_distance(X.iloc[[i]].reset_index(drop=True), X, weights=res.scaling)[0]
        assert np.allclose(S[i], ref, rtol=1e-12, atol=1e-12), i
