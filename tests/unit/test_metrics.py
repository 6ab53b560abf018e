"""Metric properties and input validation."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazylib.datasets import load
from lazylib.metrics import NotFittedError, make_metric


@pytest.fixture(scope="module")
def mixed():
    """Mixed data with missing values: hepatitis (6 continuous, 13 nominal, 167 missing cells)."""
    ds = load("hepatitis")
    return ds.X.iloc[:80], ds.y.iloc[:80]


def test_vdm_is_asymmetric(mixed):
    X, y = mixed
    D = make_metric("vdm").fit(X, y).pairwise(X)
    assert not np.allclose(D, D.T)


@pytest.mark.parametrize("name", ["chebychev", "camberra", "mahalanobis", "correlation", "kendall"])
def test_numeric_functions_on_iris(name):
    iris = load("iris")
    D = make_metric(name).fit(iris.X).pairwise(iris.X)
    assert D.shape == (150, 150) and np.isfinite(D).all()
    np.testing.assert_allclose(np.diag(D), 0.0, atol=1e-10)


def test_unknown_metric_lists_names():
    with pytest.raises(ValueError, match="hvdm"):
        make_metric("hdvm")
    with pytest.raises(ValueError, match="does not take"):
        make_metric("hvdm", q=3)


def test_unfitted_use():
    with pytest.raises(NotFittedError, match="fit"):
        make_metric("hvdm").pairwise(np.zeros((2, 2)))


def test_column_mismatch_between_fit_and_pairwise(mixed):
    X, y = mixed
    m = make_metric("hvdm").fit(X, y)
    with pytest.raises(ValueError, match="columns"):
        m.pairwise(X.iloc[:, ::-1])
    with pytest.raises(ValueError, match="shape"):
        make_metric("hvdm").fit(np.zeros((4, 2)), [0, 1, 0, 1], types=["continuous"] * 2).pairwise(np.zeros((3, 3)))
    other = X.copy()
    col = next(c for c in X.columns if isinstance(X[c].dtype, pd.CategoricalDtype))
    other[col] = other[col].cat.add_categories(["extra"])
    with pytest.raises(ValueError, match="categories"):
        m.pairwise(other)


def test_unknown_attribute_type():
    with pytest.raises(ValueError, match="unknown attribute type 'ordinal'"):
        make_metric("hvdm").fit(np.zeros((4, 1)), [0, 1, 0, 1], types=["ordinal"])
    # an array without types is read as every estimator reads it (encoding.fit_input): every column continuous
    assert make_metric("hvdm").fit(np.zeros((4, 1)), [0, 1, 0, 1]).kinds_ == ("continuous",)
    with pytest.raises(ValueError, match="has dtype"):
        make_metric("hvdm").fit(pd.DataFrame({"a": ["x", "y"]}), [0, 1])


def test_labels_with_nan_single_class_and_wrong_length():
    X = np.zeros((4, 1))
    with pytest.raises(ValueError, match="missing labels"):
        make_metric("vdm").fit(X, [0, 1, np.nan, 1], types=["nominal"])
    with pytest.raises(ValueError, match="single class"):
        make_metric("vdm").fit(X, [1, 1, 1, 1], types=["nominal"])
    with pytest.raises(ValueError, match="4 rows"):
        make_metric("vdm").fit(X, [0, 1], types=["nominal"])
    with pytest.raises(ValueError, match="call fit"):
        make_metric("ivdm").fit(X, types=["nominal"])


def test_empty_input():
    with pytest.raises(ValueError, match="empty"):
        make_metric("overlap").fit(np.zeros((0, 3)), types=["nominal"] * 3)
    m = make_metric("overlap").fit(np.zeros((3, 2)), types=["nominal"] * 2)
    with pytest.raises(ValueError, match="empty"):
        m.pairwise(np.zeros((0, 2)))


def test_bad_weights():
    X = np.zeros((4, 2))
    with pytest.raises(ValueError, match="shape"):
        make_metric("overlap", weights=[1.0]).fit(X, types=["nominal"] * 2)
    with pytest.raises(ValueError, match="non-negative"):
        make_metric("overlap", weights=[1.0, -1.0]).fit(X, types=["nominal"] * 2)
    with pytest.raises(ValueError, match="needs attribute weights"):
        make_metric("wom").fit(X, types=["nominal"] * 2)
    per_class = make_metric("mvdm", weights=np.ones((2, 2))).fit(X, [0, 1, 0, 1], types=["nominal"] * 2)
    with pytest.raises(ValueError, match="y_B"):
        per_class.pairwise(X, X)
    assert per_class.pairwise(X, X, y_B=[0, 1, 1, 0]).shape == (4, 4)


def test_array_and_frame_inputs_agree():
    ds = load("zoo")
    X, y = ds.X, ds.y
    types = [ds.types[c] for c in X.columns]
    from lazylib.metrics import encode

    Z = encode(X, ds.types).values
    for name in ["hvdm", "ivdm", "overlap", "vdm"]:
        a = make_metric(name).fit(X, y, types=ds.types).pairwise(X)
        b = make_metric(name).fit(Z, y.to_numpy(), types=types).pairwise(Z)
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=2**31 - 1), st.sampled_from(["hvdm", "ivdm", "wvdm", "heom", "mvdm"]))
def test_triangle_free_properties_on_random_data(seed, name):
    """Non-negativity, symmetry and zero self-distance on random mixed data with missing values."""
    rng = np.random.default_rng(seed)
    n = 25
    X = np.column_stack([rng.integers(0, 3, n), rng.normal(size=n), rng.uniform(0, 9, n)]).astype(float)
    X[rng.random(X.shape) < 0.1] = np.nan
    X[:, 1][np.isnan(X[:, 1]).all()] = 0.0
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    if np.isnan(X[:, 1:]).all(axis=0).any():
        return
    D = make_metric(name).fit(X, y, types=["nominal", "continuous", "continuous"]).pairwise(X)
    assert (D >= 0).all()
    np.testing.assert_allclose(D, D.T, rtol=1e-12, atol=1e-12)
