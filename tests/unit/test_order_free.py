"""The order-free reading of nominal attributes in the Minkowski family (issue #54 item 3): ``nominal="one-hot"``
equals a one-hot embedding computed independently, does not move when the categories are reordered, and is the
reading of the bench's Euclidean baseline; the default ``"codes"`` (Wilson & Martinez) does move."""

import numpy as np
import pandas as pd
import pytest
from scipy.spatial.distance import cdist

from lazylib.datasets import load
from lazylib.metrics import make_metric
from lazylib.protocols.bench.methods import methods


def _mixed(n=60, seed=0, missing=False):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(
        {
            "colour": pd.Categorical(rng.choice(["red", "green", "blue", "grey", "pink"], n)),
            "size": rng.normal(10.0, 3.0, n),
            "shape": pd.Categorical(rng.choice(["round", "square"], n)),
            "weight": rng.exponential(2.0, n),
        }
    )
    if missing:
        X.loc[rng.choice(n, 6, replace=False), "size"] = np.nan
        X.loc[rng.choice(n, 6, replace=False), "colour"] = np.nan
    return X


def _embedding(X):
    """Standardised continuous columns (ddof = 1, the metric's) and unscaled 0/1 indicators: what a
    scikit-learn user's column transformer gives, built with pandas, not with the library."""
    parts = []
    for _, col in X.items():
        if isinstance(col.dtype, pd.CategoricalDtype):
            parts.append(pd.get_dummies(col, dtype=float).to_numpy())
        else:
            parts.append(((col - col.mean()) / col.std(ddof=1)).to_numpy()[:, None])
    return np.hstack(parts)


@pytest.mark.parametrize(("name", "r"), [("euclidean", 2), ("manhattan", 1)])
def test_one_hot_equals_an_independent_embedding(name, r):
    X = _mixed()
    D = make_metric(name, normalize="std", nominal="one-hot").fit(X).pairwise(X)
    expected = cdist(_embedding(X), _embedding(X), "minkowski", p=r)
    np.testing.assert_allclose(D, expected, rtol=1e-12, atol=1e-12)


def test_one_hot_unknown_is_at_distance_one():
    X = _mixed(missing=True)
    D = make_metric("euclidean", normalize="std", nominal="one-hot").fit(X).pairwise(X)
    std = X["size"].std(ddof=1), X["weight"].std(ddof=1)

    def exact(a, b):
        total = 0.0
        for col, s in zip(("size", "weight"), std):
            u, v = X[col].iloc[a], X[col].iloc[b]
            total += 1.0 if pd.isna(u) or pd.isna(v) else ((u - v) / s) ** 2
        for col in ("colour", "shape"):
            u, v = X[col].iloc[a], X[col].iloc[b]
            total += 1.0 if pd.isna(u) or pd.isna(v) else 2.0 * (u != v)
        return np.sqrt(total)

    expected = np.array([[exact(a, b) for b in range(len(X))] for a in range(len(X))])
    np.testing.assert_allclose(D, expected, rtol=1e-12, atol=1e-12)
    unknown = np.flatnonzero(X["colour"].isna())[0]
    assert D[unknown, unknown] > 0  # an unknown value is at distance 1 from itself (the unknown_is_one rule)


def _reordered(X, seed=1):
    rng = np.random.default_rng(seed)
    out = X.copy()
    for name, col in X.items():
        if isinstance(col.dtype, pd.CategoricalDtype):
            cats = list(col.cat.categories)
            out[name] = col.cat.reorder_categories([cats[i] for i in rng.permutation(len(cats))])
    return out


def test_reordering_categories_moves_codes_not_one_hot():
    X = _mixed(missing=True)
    Y = _reordered(X)
    assert not np.array_equal(X["colour"].cat.codes, Y["colour"].cat.codes)
    one_hot = [make_metric("euclidean", normalize="std", nominal="one-hot").fit(Z).pairwise(Z) for Z in (X, Y)]
    codes = [make_metric("euclidean", normalize="std").fit(Z).pairwise(Z) for Z in (X, Y)]
    np.testing.assert_array_equal(one_hot[0], one_hot[1])
    assert np.abs(codes[0] - codes[1]).max() > 0.1  # the code order moves Wilson & Martinez' reading


@pytest.mark.parametrize("method", ["1-NN Euclidean", "k-NN Euclidean"])
def test_the_bench_baselines_are_order_free(method):
    data = load("lymphography")  # nominal attributes of up to eight values
    X, y = data.X, data.y
    Y = _reordered(X, seed=3)
    assert any(not np.array_equal(X[c].cat.codes, Y[c].cat.codes) for c in X if X[c].dtype == "category")
    train, test = np.arange(0, len(X), 2), np.arange(1, len(X), 2)
    made = methods()[method].make
    first = made().fit(X.iloc[train], y.iloc[train]).predict(X.iloc[test])
    again = made().fit(Y.iloc[train], y.iloc[train]).predict(Y.iloc[test])
    np.testing.assert_array_equal(first, again)


def test_one_hot_refuses_a_power_other_than_one_or_two():
    X = _mixed()
    with pytest.raises(ValueError, match="nominal='one-hot' needs r = 1 or 2"):
        make_metric("minkowski", r=3, nominal="one-hot").fit(X)
    # without nominal attributes the reading does not matter, and any r works
    numeric = X[["size", "weight"]]
    np.testing.assert_array_equal(
        make_metric("minkowski", r=3, nominal="one-hot").fit(numeric).pairwise(numeric),
        make_metric("minkowski", r=3).fit(numeric).pairwise(numeric),
    )


def test_nominal_reading_is_checked():
    with pytest.raises(ValueError, match="'nominal' parameter of Euclidean must be one of"):
        make_metric("euclidean", nominal="onehot").fit(_mixed())
