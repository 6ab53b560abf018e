"""Property checks of every registered metric, by the tags its class declares, on generated data and on
hepatitis: non-negative, finite, zero between identical instances (where the metric has that property),
symmetric where the paper's metric is, and independent of the order of the query rows.

Each check is a function of a fitted metric (:func:`mixed_properties`, :func:`numeric_properties`,
:func:`lifted_tags_hold`, :func:`not_zero_on_self_holds`), which the tests run over the registry by tag; the last
test runs the same functions on metrics whose tags lie (an asymmetric metric tagged symmetric, ...) and on broken
distances, and shows that each check catches them."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from lazylib.datasets import load
from lazylib.metrics import REGISTRY, make_metric
from lazylib.metrics.heterogeneous import HEOM
from lazylib.metrics.overlap import Overlap
from lazylib.metrics.statistical import Chebychev, Kendall
from lazylib.metrics.vdm import MVDM, VDM


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


# ------------------------------------------------------------------------------------------------------ the checks
def mixed_properties(metric, X: pd.DataFrame, perm=None, *, rtol: float = 1e-9) -> None:
    """The properties of ``D = metric.pairwise(X)`` on mixed data with unknown values, by the metric's tags:
    finite and non-negative; zero on the diagonal (``zero_on_self``; under ``unknown_is_one`` only for rows
    without unknown values); symmetric (``symmetric``); and, with a permutation ``perm`` of the rows, the same
    distances for reordered queries."""
    name = type(metric).__name__
    D = metric.pairwise(X)
    assert D.shape == (len(X), len(X))
    assert np.isfinite(D).all() and (D >= 0).all(), f"{name}: a distance is negative or not finite"
    atol = 1e-12 * (1 + D.max())
    complete = X.notna().all(axis=1).to_numpy() if metric.unknown_is_one else np.ones(len(X), bool)
    if metric.zero_on_self:
        off = np.diag(D)[complete] > atol
        assert not off.any(), f"{name} is tagged zero_on_self, but rows are not at 0 from themselves: {np.diag(D)}"
    if metric.symmetric:
        np.testing.assert_allclose(D, D.T, rtol=rtol, atol=atol, err_msg=f"{name} is tagged symmetric")
    if perm is not None:
        again = metric.pairwise(X.iloc[perm])
        np.testing.assert_allclose(again, D[perm], rtol=rtol, atol=atol, err_msg=f"{name}: the query order matters")


def numeric_properties(metric, X: np.ndarray, perm) -> None:
    """The properties of ``D = metric.pairwise(X)`` on linear data (no unknown values), by the metric's tags:
    finite and non-negative (to rounding); exactly 0 on the diagonal (``zero_on_self``), at every scale;
    symmetric (``symmetric``); the same distances for the queries reordered by ``perm``."""
    name = type(metric).__name__
    D = metric.pairwise(X)
    assert np.isfinite(D).all() and (D >= -1e-12 * (1 + np.abs(D).max())).all(), f"{name}: a distance is negative"
    if metric.zero_on_self:  # identical instances: exactly 0, at every scale
        assert np.all(np.diag(D) == 0.0), f"{name} is tagged zero_on_self, but its diagonal is {np.diag(D)}"
    if metric.symmetric:
        atol = 1e-9 * (1 + np.abs(D).max())
        np.testing.assert_allclose(D, D.T, rtol=1e-9, atol=atol, err_msg=f"{name} is tagged symmetric")
    again = metric.pairwise(X[perm])
    np.testing.assert_allclose(again, D[perm], rtol=1e-9, atol=1e-12, err_msg=f"{name}: the query order matters")


def lifted_tags_hold(metric, X: pd.DataFrame) -> None:
    """The tags that lift a property are not excuses: a metric tagged asymmetric is asymmetric on ``X``, and
    under ``unknown_is_one`` (at the default parameters) each unknown value of a row puts 1 into the row's sum
    with itself: ``D(x, x) ** root_`` is the number of unknown values of ``x``."""
    name = type(metric).__name__
    D = metric.pairwise(X)
    if not metric.symmetric:
        assert not np.allclose(D, D.T), f"{name} is tagged not symmetric, but is symmetric on these data"
    if metric.unknown_is_one:
        unknown = X.isna().sum(axis=1).to_numpy()
        assert unknown.any(), "the data have no unknown value to check unknown_is_one on"
        message = f"{name} is tagged unknown_is_one, but an unknown value is not at distance 1 from itself"
        np.testing.assert_allclose(np.diag(D) ** metric.root_, unknown, rtol=1e-9, atol=1e-12, err_msg=message)


#: An instance with two equal attribute values (the first row), where Kendall's rank distance is not 0 from itself.
TIED_ROW = np.array([[1.0, 1.0, 2.0], [0.0, 3.0, 1.0]])


def not_zero_on_self_holds(metric) -> None:
    """A metric tagged ``zero_on_self = False`` is not at 0 from itself on :data:`TIED_ROW` (fitted there)."""
    D = metric.fit(TIED_ROW, types=["continuous"] * 3).pairwise(TIED_ROW)
    message = f"{type(metric).__name__} is tagged not zero_on_self, but is at 0 from itself"
    assert metric.zero_on_self or D[0, 0] > 0, message


# ---------------------------------------------------------------------------------------------------- the data
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


def numeric_data(seed: int, n: int, m: int, log_scale: int, ties: bool):
    """Linear data ``(n, m)`` uniform in [0, 1) times ``10 ** log_scale``; with ``ties``, about half the rows
    repeat their first value in their second attribute (an instance with two equal values). Also the generator,
    for what else the test draws."""
    rng = np.random.default_rng(seed)
    X = rng.random((n, m))
    if ties:
        rows = rng.random(n) < 0.5
        X[rows, 1] = X[rows, 0]
    return X * 10.0**log_scale, rng


def _fit(name, X, y):
    try:
        return build(name, X.shape[1]).fit(X, y)
    except ValueError as exc:  # a metric refusing this data must say why: the kinds it accepts
        assert "accepts only" in str(exc), exc
        return None


# --------------------------------------------------------------------------------------------------- the tests
def test_every_registered_metric_declares_its_tags_and_is_in_a_property_test():
    """Each tag is a plain bool (a string would read as True), the required parameters a tuple of the class's
    parameter names, and no registered metric escapes the property tests (one that accepts neither nominal nor
    linear attributes, or linear ones only with labels, would need a test of its own)."""
    for name, cls in REGISTRY.items():
        assert all(type(getattr(cls, tag)) is bool for tag in ("symmetric", "unknown_is_one", "zero_on_self")), name
        assert isinstance(cls.required_params, tuple) and set(cls.required_params) <= set(cls().get_params()), name
    assert set(MIXED) | set(NUMERIC) == set(REGISTRY)


@pytest.mark.parametrize("name", MIXED)
@SETTINGS
@given(data=mixed_data(), order=st.randoms(use_true_random=False))
def test_mixed_metric_properties(name, data, order):
    X, y = data
    metric = _fit(name, X, y)
    if metric is not None:
        mixed_properties(metric, X, np.array(order.sample(range(len(X)), len(X))))


@pytest.mark.parametrize("name", NUMERIC)
@SETTINGS
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(6, 20),
    m=st.integers(2, 4),
    log_scale=st.integers(-8, 8),
    ties=st.booleans(),
)
def test_numeric_metric_properties(name, seed, n, m, log_scale, ties):
    X, rng = numeric_data(seed, n, m, log_scale, ties)
    params = {"Q": np.diag(rng.random(m) + 0.5)} if name == "quadratic" else {}
    metric = build(name, m, **params).fit(X, types=["continuous"] * m)
    numeric_properties(metric, X, rng.permutation(n))


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
    mixed_properties(build(name, X.shape[1]).fit(X, y), X, rtol=1e-12)


@pytest.mark.parametrize("name", by_tag(lambda cls: not cls.symmetric or cls.unknown_is_one))
def test_a_tag_that_lifts_a_property_says_true_on_hepatitis(name, hepatitis):
    X, y = hepatitis
    lifted_tags_hold(build(name, X.shape[1]).fit(X, y), X)


@pytest.mark.parametrize("name", by_tag(lambda cls: not cls.zero_on_self))
def test_a_metric_tagged_not_zero_on_self_is_not(name):
    not_zero_on_self_holds(build(name, 3))


# ------------------------------------------------------------------------------- the checks can fail: lying tags
class _SymmetricVDM(VDM):
    symmetric = True  # a lie: the VDM weighs each attribute's term by the query value's weight


class _AsymmetricMVDM(MVDM):
    symmetric = False  # a lie: the MVDM is the VDM without that weight


class _HEOMUnknownAsValue(HEOM):
    unknown_is_one = False  # a lie: HEOM puts an unknown value at 1 from every value, itself included


class _OverlapUnknownIsOne(Overlap):
    unknown_is_one = True  # a lie: Overlap (missing="value") reads an unknown value as a value of its own


class _KendallZeroOnSelf(Kendall):
    zero_on_self = True  # a lie: an instance with two equal attribute values is not at 0 from itself


class _ChebychevNotZeroOnSelf(Chebychev):
    zero_on_self = False  # a lie: max_a |x_a - x_a| = 0


class _OneSidedChebychev(Chebychev):
    """``max_a max(x_a - y_a, 0)``: zero on self, but not symmetric (and tagged symmetric, by inheritance)."""

    def _block(self, A, B):
        return np.maximum(A[:, None, :] - B[None, :, :], 0.0).max(axis=2)


class _NegativeChebychev(Chebychev):
    def _block(self, A, B):
        return super()._block(A, B) - 1.0


class _QueryCountingChebychev(Chebychev):
    """Adds the query's position in its block: the distances depend on the order of the queries."""

    symmetric, zero_on_self = False, False  # declared, so that only the order check is left to catch it

    def _block(self, A, B):
        return super()._block(A, B) + np.arange(len(A))[:, None]


#: A small frame of the kind :func:`mixed_data` draws (nominal codes with an unknown, a linear column with one).
FRAME = pd.DataFrame(
    {
        "n0": pd.Categorical.from_codes([0, 1, 2, 0, 1, 2, 0, 1, -1, 2], categories=["a", "b", "c"]),
        "x0": [0.0, 1.0, 2.0, 3.0, 4.0, np.nan, 1.0, 2.0, 3.0, 0.0],
    }
)
FRAME_Y = np.array([0, 0, 1, 1, 0, 1, 1, 0, 0, 1])


def _numeric(cls):
    X, rng = numeric_data(seed=0, n=10, m=3, log_scale=0, ties=True)
    numeric_properties(cls().fit(X, types=["continuous"] * 3), X, rng.permutation(10))


CHECKS = {
    "hepatitis": lambda cls, X, y: mixed_properties(cls().fit(X, y), X, rtol=1e-12),
    "mixed": lambda cls, X, y: mixed_properties(cls().fit(FRAME, FRAME_Y), FRAME, np.arange(len(FRAME))[::-1]),
    "lifted": lambda cls, X, y: lifted_tags_hold(cls().fit(X, y), X),
    "numeric": lambda cls, X, y: _numeric(cls),
    "not zero on self": lambda cls, X, y: not_zero_on_self_holds(cls()),
}


@pytest.mark.parametrize(
    ("check", "liar", "caught"),
    [
        ("hepatitis", _SymmetricVDM, "_SymmetricVDM is tagged symmetric"),
        ("mixed", _SymmetricVDM, "_SymmetricVDM is tagged symmetric"),
        ("hepatitis", _HEOMUnknownAsValue, "_HEOMUnknownAsValue is tagged zero_on_self, but rows are not at 0"),
        ("lifted", _AsymmetricMVDM, "_AsymmetricMVDM is tagged not symmetric, but is symmetric"),
        ("lifted", _OverlapUnknownIsOne, "_OverlapUnknownIsOne is tagged unknown_is_one, but an unknown value"),
        ("numeric", _KendallZeroOnSelf, "_KendallZeroOnSelf is tagged zero_on_self, but its diagonal"),
        ("numeric", _OneSidedChebychev, "_OneSidedChebychev is tagged symmetric"),
        ("numeric", _NegativeChebychev, "_NegativeChebychev: a distance is negative"),
        ("numeric", _QueryCountingChebychev, "_QueryCountingChebychev: the query order matters"),
        ("not zero on self", _ChebychevNotZeroOnSelf, "_ChebychevNotZeroOnSelf is tagged not zero_on_self"),
    ],
)
def test_each_property_check_catches_a_metric_whose_tag_or_distance_lies(check, liar, caught, hepatitis):
    """Each check that the registry's metrics pass above fails on a metric that breaks it, while the registered
    class the liar derives from passes the same check: the checks can fail, and fail for the lie."""
    X, y = hepatitis
    truthful = liar.__mro__[1]
    assert truthful in REGISTRY.values()
    CHECKS[check](truthful, X, y)
    with pytest.raises(AssertionError, match=caught):
        CHECKS[check](liar, X, y)
