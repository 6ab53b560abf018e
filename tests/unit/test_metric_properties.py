"""Property checks of every registered metric, by the tags its class declares, on generated data and on
hepatitis: non-negative, finite, zero between identical instances (where the metric has that property),
symmetric where the paper's metric is, and independent of the order of the query rows."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from lazylib.datasets import load
from lazylib.metrics import REGISTRY, make_metric


def accepts(cls, kind: str) -> bool:
    """Whether the metric class has a term for attributes of ``kind`` (its ``accepts`` tag)."""
    return kind in cls.accepts if cls.accepts is not None else kind != "set"


def by_tag(predicate) -> list[str]:
    """The registered names whose class satisfies ``predicate``: the tests run over the registry by tag, so a new
    metric is tested by what it declares (``symmetric``, ``unknown_is_one``, ``zero_on_self``, ``accepts``)."""
    return sorted(name for name, cls in REGISTRY.items() if predicate(cls))


#: Metrics with a term for nominal attributes, and those that measure linear data without labels.
MIXED = by_tag(lambda cls: accepts(cls, "nominal"))
NUMERIC = by_tag(lambda cls: accepts(cls, "continuous") and not cls.needs_labels)


def build(name: str, m: int, **params):
    """``make_metric(name)`` with the parameters its class declares it cannot do without (WOM's weights: ones)."""
    required = {"weights": np.ones(m)}
    return make_metric(name, **{key: required[key] for key in REGISTRY[name].required_params}, **params)


SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def mixed_data(draw):
    """A small mixed data set: nominal and linear columns on a coarse grid (ties), some unknown values, two or
    three classes all present, and a scale factor for the linear columns from 1e-8 to 1e8."""
    n = draw(st.integers(6, 14))
    n_nominal, n_linear = draw(st.integers(0, 3)), draw(st.integers(0, 3))
    assume(n_nominal + n_linear > 0)
    scale = 10.0 ** draw(st.integers(-8, 8))
    columns = {}
    for j in range(n_nominal):
        codes = draw(st.lists(st.integers(-1, 2), min_size=n, max_size=n))
        columns[f"n{j}"] = pd.Categorical.from_codes(codes, categories=["a", "b", "c"])
    for j in range(n_linear):
        values = draw(st.lists(st.one_of(st.integers(0, 4).map(float), st.just(np.nan)), min_size=n, max_size=n))
        columns[f"x{j}"] = np.array(values) * scale
    C = draw(st.integers(2, 3))
    y = np.arange(n) % C
    return pd.DataFrame(columns), draw(st.permutations(list(y)))


def _fit(name, X, y):
    try:
        return build(name, X.shape[1]).fit(X, y)
    except ValueError as exc:  # a metric refusing this data must say why: the kinds it accepts
        assert "accepts only" in str(exc), exc
        return None


@pytest.mark.parametrize("name", MIXED)
@SETTINGS
@given(data=mixed_data(), order=st.randoms(use_true_random=False))
def test_mixed_metric_properties(name, data, order):
    X, y = data
    metric = _fit(name, X, y)
    if metric is None:
        return
    D = metric.pairwise(X)
    assert D.shape == (len(X), len(X))
    assert np.isfinite(D).all() and (D >= 0).all()
    complete = X.notna().all(axis=1).to_numpy() if metric.unknown_is_one else np.ones(len(X), bool)
    if metric.zero_on_self:
        assert np.all(np.diag(D)[complete] <= 1e-12 * (1 + D.max()))
    if metric.symmetric:
        np.testing.assert_allclose(D, D.T, rtol=1e-9, atol=1e-12 * (1 + D.max()))
    perm = np.array(order.sample(range(len(X)), len(X)))
    np.testing.assert_allclose(metric.pairwise(X.iloc[perm]), D[perm], rtol=1e-9, atol=1e-12 * (1 + D.max()))


@pytest.mark.parametrize("name", NUMERIC)
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(6, 20), m=st.integers(2, 4), log_scale=st.integers(-8, 8))
def test_numeric_metric_properties(name, seed, n, m, log_scale):
    rng = np.random.default_rng(seed)
    X = rng.random((n, m)) * 10.0**log_scale
    params = {"Q": np.diag(rng.random(m) + 0.5)} if name == "quadratic" else {}
    metric = build(name, m, **params).fit(X, types=["continuous"] * m)
    D = metric.pairwise(X)
    assert np.isfinite(D).all() and (D >= -1e-12 * (1 + np.abs(D).max())).all()
    if metric.zero_on_self:  # identical instances: exactly 0, at every scale
        assert np.all(np.diag(D) == 0.0), np.diag(D)
    if metric.symmetric:
        np.testing.assert_allclose(D, D.T, rtol=1e-9, atol=1e-9 * (1 + np.abs(D).max()))
    perm = rng.permutation(n)
    np.testing.assert_allclose(metric.pairwise(X[perm]), D[perm], rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("r", [3, 10, 60])
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), log_scale=st.integers(-8, 8))
def test_minkowski_large_r_neither_overflows_nor_underflows(r, seed, log_scale):
    """|d|^r for large r is computed in a unit near the data's spread: distances scale with the data."""
    rng = np.random.default_rng(seed)
    X = rng.random((8, 3)) + np.arange(8)[:, None]  # distinct rows
    scale = 10.0**log_scale
    D1 = make_metric("minkowski", r=r).fit(X, types=["continuous"] * 3).pairwise(X)
    Ds = make_metric("minkowski", r=r).fit(X * scale, types=["continuous"] * 3).pairwise(X * scale)
    assert np.isfinite(Ds).all() and np.all(np.diag(Ds) == 0.0)
    np.testing.assert_allclose(Ds, D1 * scale, rtol=1e-9)
    off = ~np.eye(8, dtype=bool)
    assert (Ds[off] > 0).all()


def _exact_minkowski(x, y, r, weights=None):
    """``(sum_a w_a |x_a - y_a|^r)^(1/r)`` in decimal arithmetic of 60 digits with an exponent range far beyond
    the float's (differences of the floats taken exactly, the power and the root to 60 digits), as a float."""
    import decimal

    ctx = decimal.Context(prec=60, Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN)
    weights = np.ones(len(x)) if weights is None else weights
    total = decimal.Decimal(0)
    for a, b, w in zip(x, y, weights):
        d = abs(ctx.subtract(decimal.Decimal(float(a)), decimal.Decimal(float(b))))
        total = ctx.add(total, ctx.multiply(decimal.Decimal(float(w)), ctx.power(d, decimal.Decimal(r))))
    if total == 0:
        return 0.0
    return float(ctx.exp(ctx.divide(ctx.ln(total), decimal.Decimal(r))))


@pytest.mark.parametrize("r", [1, 2, 3, 1000, 1e6])
@pytest.mark.parametrize("scale", [1.0, 1e-150, 1e150])
def test_minkowski_is_exact_at_any_r_and_any_scale(r, scale):
    """Issue #40: Minkowski with r = 1000 gave 0 between distinct points (their |d|^r underflowed in the unit of
    the widest spread); every pair is now computed in its own unit. Against a 60-digit decimal reference, with
    and without attribute weights (which enter as w^(1/r) in the differences), at data scaled by 1e-150 and
    1e150."""
    rng = np.random.default_rng(int(r) % 97)
    X = np.vstack([[0.0, 0.0, 0.0], [3.0, 4.0, 0.5], [1.0, 1.0, 1.0], rng.random((5, 3)) * 10]) * scale
    X[7, 2] = X[6, 2] + 1e-9 * scale  # two rows close in one attribute only
    for weights in (None, np.array([0.5, 2.0, 1e-3])):
        metric = make_metric("minkowski", r=r, weights=weights).fit(X, types=["continuous"] * 3)
        D = metric.pairwise(X)
        exact = np.array([[_exact_minkowski(x, y, r, weights) for y in X] for x in X])
        assert np.isfinite(D).all()
        np.testing.assert_allclose(D, exact, rtol=1e-12, atol=0.0)
        assert (D[~np.eye(len(X), dtype=bool)] > 0).all()
        # the reduced sums give the distances back, and order the neighbours as the distances do
        S = np.vstack([block for _, _, block in metric.pairwise_chunks(X, reduced=True)])
        np.testing.assert_allclose(metric.from_reduced(S), D, rtol=1e-12)
        assert np.array_equal(np.argsort(S, axis=1, kind="stable"), np.argsort(D, axis=1, kind="stable"))


@pytest.fixture(scope="module")
def hepatitis():
    """Mixed data with missing values: hepatitis (6 continuous, 13 nominal, 167 missing cells)."""
    ds = load("hepatitis")
    return ds.X.iloc[:80], ds.y.iloc[:80]


@pytest.mark.parametrize("name", MIXED)
def test_non_negative_zero_on_identical_and_symmetric(name, hepatitis):
    X, y = hepatitis
    metric = build(name, X.shape[1]).fit(X, y)
    D = metric.pairwise(X)
    assert D.shape == (80, 80)
    assert (D >= 0).all() and np.isfinite(D).all()
    complete = X.notna().all(axis=1).to_numpy().copy()
    if not metric.unknown_is_one:
        complete[:] = True  # unknowns are a value of their own: identical rows are at distance 0
    assert metric.zero_on_self and np.allclose(np.diag(D)[complete], 0.0, atol=1e-12)
    if metric.symmetric:
        np.testing.assert_allclose(D, D.T, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", by_tag(lambda cls: not cls.symmetric or cls.unknown_is_one))
def test_a_tag_that_lifts_a_property_says_true_on_hepatitis(name, hepatitis):
    """The tags are not excuses: an asymmetric metric is asymmetric on real data, and under ``unknown_is_one`` a
    row with an unknown value is not at distance 0 from itself."""
    X, y = hepatitis
    metric = build(name, X.shape[1]).fit(X, y)
    D = metric.pairwise(X)
    if not metric.symmetric:
        assert not np.allclose(D, D.T)
    if metric.unknown_is_one:
        assert (np.diag(D)[X.isna().any(axis=1).to_numpy()] > 0).all()


@pytest.mark.parametrize("name", by_tag(lambda cls: not cls.zero_on_self))
def test_a_metric_tagged_not_zero_on_self_is_not(name):
    X = np.array([[1.0, 1.0, 2.0], [0.0, 3.0, 1.0]])  # the first row has two equal attribute values
    D = build(name, 3).fit(X, types=["continuous"] * 3).pairwise(X)
    assert D[0, 0] > 0
