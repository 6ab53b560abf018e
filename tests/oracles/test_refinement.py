"""Refinement only where rounding can matter (issue 39): exact sums are never recomputed, and the others are
within ``ACCURACY`` of the exact sum, checked against rational arithmetic on adversarial inputs and against the
per-pair loops of ``test_metric_loops.py``.

The exact reference below recomputes every sum from the plan's own operands (the embeddings, ``alpha``,
weights and unknown-value marks the engine multiplies) with Python fractions: no rounding at all.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from unittest import mock

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_metric_loops import loop_matrix, random_mixed, ref_heom, ref_hvdm, ref_overlap

from lazylib.metrics import _declaration, _plan, make_metric


def exact_sums(metric, Q, B=None, y_B=None, *, size: bool = False):
    """The sums ``S`` of the bilinear terms, from the plan's operands, in rational arithmetic (``size``: and
    the size of their terms, :meth:`Plan.pair_magnitude`)."""
    Zq = metric._encode_like_fit(Q, "A")
    Zs = metric.X_ if B is None else metric._encode_like_fit(B, "B")
    classes = metric.y_ if B is None else np.asarray(y_B)
    p = metric._plan(Zq, Zs, classes)
    q, s = p.query, p.stored
    m = q.alpha.shape[1]
    squared = _plan.sq_attributes(q, m)
    out = np.empty((len(Zq), len(Zs)))
    for i in range(len(Zq)):
        for j in range(len(Zs)):
            total = Fraction(0)
            for a in range(m):
                cols = np.flatnonzero(q.block == a)
                if not len(cols) and not q.alpha[i, a] and not s.alpha[j, a]:
                    continue
                if q.unknown_one is not None and (q.unknown_one[i, a] or s.unknown_one[j, a]):
                    t = Fraction(1)
                elif squared[a]:  # psi = -2 phi(x), chi = phi(y)
                    t = sum((Fraction(q.psi[i, k]) / -2 - Fraction(s.psi[j, k])) ** 2 for k in cols)
                else:
                    t = Fraction(q.alpha[i, a]) + Fraction(s.alpha[j, a])
                    t += sum(Fraction(q.psi[i, k]) * Fraction(s.psi[j, k]) for k in cols)
                if p.U is not None:
                    t *= Fraction(p.U[i, a])
                if p.V is not None:
                    t *= Fraction(p.V[j, a])
                total += t
            out[i, j] = float(total)
    if not size:
        return out
    rows, cols = np.divmod(np.arange(out.size), len(Zs))
    return out, p.pair_magnitude(rows, cols).reshape(out.shape)


def reduced(metric, Q, B=None, y_B=None) -> np.ndarray:
    return np.vstack([S for *_, S in metric.pairwise_chunks(Q, B, y_B=y_B, reduced=True)])


def assert_within_accuracy(got, want, size):
    """Every sum within ``ACCURACY`` of the exact one, or snapped to 0 where the exact one is below ``SNAP``
    times the size of its terms (embeddings equal to about 12 digits: exactly 0 by design)."""
    assert np.all(got >= 0)
    snapped = (got == 0) & (want <= _plan.SNAP * size)
    bad = ~((np.abs(got - want) <= _plan.ACCURACY * want) | snapped)
    assert not bad.any(), (got[bad], want[bad])
    assert np.all(got[want == 0] == 0)  # identical instances at exactly 0


def near_duplicates(offset: float, spread: float, n: int, m: int, seed: int):
    """Training values in [0, 1] (so embeddings are centred near 0.5); queries and stored instances far
    outside, at ``offset``, differing by ``spread`` relative: the terms that cancel in ``alpha + beta - 2
    psi.chi`` are ``offset**2`` times the sums, the worst case of the product."""
    rng = np.random.default_rng(seed)
    X = rng.random((30, m))
    base = offset * (1.0 + rng.random(m))
    Q = base + offset * spread * rng.standard_normal((n, m))
    B = np.vstack([Q[: n // 2], base + offset * spread * rng.standard_normal((n, m))])  # exact copies too
    return X, Q, B


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    offset=st.sampled_from([1.0, 1e3, 1e6, 1e9]),
    spread=st.sampled_from([1e-15, 1e-12, 1e-9, 1e-6, 1e-3, 1.0]),
    m=st.integers(1, 5),
    weighted=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_every_sum_is_within_accuracy_of_the_exact_one(offset, spread, m, weighted, seed):
    X, Q, B = near_duplicates(offset, spread, 6, m, seed)
    y = np.arange(len(X)) % 2
    weights = np.random.default_rng(seed).uniform(0.1, 10.0, (2, m)) if weighted else None
    metric = make_metric("euclidean", weights=weights).fit(X, y, types=["continuous"] * m)
    y_B = np.arange(len(B)) % 2
    assert_within_accuracy(reduced(metric, Q, B, y_B), *exact_sums(metric, Q, B, y_B, size=True))


@pytest.mark.parametrize("name", ["heom", "hvdm", "euclidean"])
@pytest.mark.parametrize("spread", [0.0, 1e-13, 1e-9, 1e-5])
def test_near_duplicates_equal_the_per_pair_loop(name, spread):
    X, y, types = random_mixed(3, n=40)
    rng = np.random.default_rng(7)
    Q = X[:10].copy()
    Q[:, 3:] = Q[:, 3:] * (1.0 + spread * rng.standard_normal((10, 3)))  # near copies of training rows
    metric = make_metric(name).fit(X, y, types=types)
    sums, size = exact_sums(metric, Q, size=True)
    assert_within_accuracy(reduced(metric, Q), sums, size)
    reference = {"heom": ref_heom, "hvdm": ref_hvdm}.get(name)
    # Euclidean on codes: the loop of test_metric_loops is normalised, so the exact sums stand in for it
    want = np.sqrt(sums) if reference is None else loop_matrix(reference(X, y, types), Q, X)
    # a sum snapped to 0 is a distance of at most sqrt(SNAP * size)
    atol = np.sqrt(_plan.SNAP * size.max())
    np.testing.assert_allclose(metric.pairwise(Q), want, rtol=_plan.ACCURACY, atol=atol)


@pytest.mark.parametrize("weights", [None, [0.5, 2.0, 0.25, 1.0, 4.0, 0.125]])
def test_overlap_sums_are_exact_and_never_recomputed(weights):
    X, y, types = random_mixed(0, n=60, n_nom=6, n_lin=0)
    X = np.vstack([X, X[:20]])  # duplicates: sums of exactly 0
    y = np.concatenate([y, y[:20]])
    metric = make_metric("overlap", weights=weights).fit(X, y, types=types)
    assert metric._plan(metric.X_, metric.X_, metric.y_, training=True).exact
    with mock.patch.object(_plan, "exact_pairs", side_effect=AssertionError("recomputed")):
        got = metric.pairwise(X)
        neighbours = list(metric.nearest_chunks(X, 3))
    want = loop_matrix(ref_overlap(X, y, types), X, X) if weights is None else exact_sums(metric, X)
    np.testing.assert_array_equal(got, want)  # exact: equal to the last bit
    assert all(np.all(block.sums >= 0) for block in neighbours)


def test_overlap_with_arbitrary_weights_is_not_exact():
    X, y, types = random_mixed(0, n=30, n_nom=4, n_lin=0)
    metric = make_metric("overlap", weights=[0.1, 0.2, 0.3, 0.7]).fit(X, y, types=types)
    assert not metric._plan(metric.X_, metric.X_, metric.y_, training=True).exact
    np.testing.assert_allclose(metric.pairwise(X), exact_sums(metric, X), rtol=_plan.ACCURACY, atol=0)


@settings(max_examples=50, deadline=None)
@given(
    ints=st.lists(st.integers(-(2**20), 2**20), min_size=1, max_size=40),
    shift=st.integers(-60, 60),
)
def test_quantum_is_the_largest_power_of_two_dividing_every_entry(ints, shift):
    a = np.ldexp(np.array(ints, dtype=np.float64), shift)
    e = _plan.quantum(a)
    if not np.any(a):
        assert e == _plan._NO_BITS
        return
    assert np.all(np.ldexp(a, -e) == np.round(np.ldexp(a, -e)))  # multiples of 2**e
    assert not np.all(np.ldexp(a, -e - 1) == np.round(np.ldexp(a, -e - 1)))  # not all of 2**(e + 1)


@settings(max_examples=50, deadline=None)
@given(
    ints=st.lists(st.integers(-(2**20), 2**20), min_size=2, max_size=60),
    shift=st.integers(-60, 60),
    head=st.integers(1, 30),
    odd=st.booleans(),
)
def test_the_first_entries_bound_the_quanta_from_above(ints, shift, head, odd):
    """Plan.exact reads the operands' first entries first (``_dyadic``'s ``head``): their quanta bound the whole
    operands' from above, so a check they fail the whole operands fail too; the largest values are the whole's."""
    a = np.ldexp(np.array(ints, dtype=np.float64), shift).reshape(-1, 1)
    if odd:  # an entry past the head that is no multiple of any power of two the head shows
        a[-1] = 0.1
    side = _declaration.Bilinear(alpha=a, psi=a[::-1].copy(), block=np.zeros(1, dtype=int))
    full, first = _plan._dyadic(side, None), _plan._dyadic(side, None, head=head)
    assert first.alpha >= full.alpha and first.emb >= full.emb and first.weight == full.weight
    assert (first.alpha_max, tuple(first.emb_max)) == (full.alpha_max, tuple(full.emb_max))
    if odd and head < len(a):
        assert full.alpha < -50  # 0.1 is read, so the whole operand is not exact
    assert _plan.exact_operands(full, full) <= _plan.exact_operands(first, first)


def test_an_inexact_entry_past_the_first_ones_makes_the_plan_inexact():
    X, y, types = random_mixed(0, n=2 * _plan.HEAD, n_nom=2, n_lin=0)
    weights = [0.5, 2.0]
    metric = make_metric("overlap", weights=weights).fit(X, y, types=types)
    assert metric._plan(metric.X_, metric.X_, metric.y_, training=True).exact
    Q = np.vstack([X, X[:1]])
    plan = metric._plan(metric._encode_like_fit(Q, "A"), metric.X_, metric.y_, training=True)
    assert plan.exact
    # the same plan with one query weight past the first entries that is no dyadic number
    U = np.full((len(Q), 2), 0.5)
    assert replace(plan, U=U).exact
    U[-1, -1] = 0.1
    stored = _plan._dyadic(plan.stored, plan.V)
    assert _plan.exact_operands(_plan._dyadic(plan.query, U, head=_plan.HEAD), stored)
    assert not replace(plan, U=U).exact


@pytest.mark.parametrize("name", ["euclidean", "heom", "hvdm"])
def test_huge_dyadic_weights_are_not_taken_for_exact_sums(name):
    """Weights of 1e300 are multiples of a huge power of two, but their products overflow: the size test, not the
    quanta, decides, so near-zero sums are recomputed and an instance is at distance 0 from itself."""
    X = np.array([[0.0, 1.0], [3.0, 4.0], [1.0, 1.0], [2.5, 7.0]])
    metric = make_metric(name, weights=[1e300, 1e300]).fit(X, np.array([0, 1, 0, 1]))
    assert not metric._plan(metric.X_, metric.X_, metric.y_, training=True).exact
    np.testing.assert_array_equal(np.diag(metric.pairwise(X)), 0.0)
