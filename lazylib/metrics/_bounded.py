"""The search through a lower bound (:func:`bounded_groups`): for a metric whose direct terms all square
bilinear ones (the printed IVDM and WVDM), the k nearest found without computing the direct terms of every
pair, with the same sums as whole rows of :func:`lazylib.metrics._engine.chunks`."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from lazylib import search
from lazylib._threads import threads_for
from lazylib.metrics._chunks import bilinear_sums, chunk_rows
from lazylib.metrics._declaration import Declaration, Operands
from lazylib.metrics._plan import Plan, plan

# ---------------------------------------------------------------------------------------------- bounded search
#: Relative margin of the lower bound of :func:`bounded_groups`: far above the rounding of its products (the
#: number of columns times 1e-16 of the terms that cancel), so that the computed bound stays a bound.
BOUND_MARGIN = 1e-9


def bounded_groups(declared: Declaration, ops: Operands, k: int, tie_tolerance: float):
    """Yield ``(start, stop, rows, cols, sums)``: what :func:`lazylib.search.select` gives on whole rows of
    :func:`chunks`, for a metric whose direct terms are all squares ``t_a = r_a^2`` of non-negative bilinear
    terms (the printed IVDM and WVDM, the declaration's ``root_terms``), without computing them for every pair.

    With the weights ``w_a = u_a(x) v_a(y)``, Cauchy-Schwarz gives ``sum_a w_a r_a^2 >= (sum_a w_a r_a)^2 /
    sum_a w_a``, and ``sum_a w_a r_a`` is one more matrix product. So per query the bound ``L = bilinear part +
    (sum_a w_a r_a)^2 / W`` (``W >= sum_a w_a``) lies below every sum; the exact sums of the k smallest bounds
    give ``tau``, at or above the k-th smallest sum; every pair within the tie tolerance of the k-th smallest
    sum has ``L <= tau + tolerance``, and only those pairs are computed exactly. Their sums are those of
    :func:`chunks` to the last bit (the same block, the same terms added in the same order), so the result is
    the whole-row one.
    """
    Zq, Zs = ops.Zq, ops.Zs
    nq, ns = len(Zq), len(Zs)
    p = plan(declared, Zq, Zs, ops.classes, training=ops.training)
    roots = declared.root_terms
    D = [a for a, _ in roots]
    U = None if p.U is None else p.U[:, D]
    V = None if p.V is None else p.V[:, D]
    u_max = np.ones(len(D)) if U is None else U.max(axis=0, initial=0.0)
    stored = _RootSide.of([att.root_half(Zs[:, a], "stored") for a, att in roots], V)
    v_max = stored.W.max(axis=0, initial=0.0)
    # the rounding margin of the root sums rides in the product: -M * (scale of the query + of the stored one)
    right = np.hstack([stored.product, np.ones((ns, 1)), -BOUND_MARGIN * (stored.weighted_alpha @ u_max)[:, None]])
    # the chunks of :func:`chunks` (the same products, so the same bits)
    step = chunk_rows(declared.working_memory, ns, 0 if p.left is None else p.left.shape[1])
    for start in range(0, nq, step):
        stop = min(start + step, nq)
        B = None if p.left is None else bilinear_sums(p, start, stop, ns)
        query = _RootSide.of(
            [att.root_half(Zq[start:stop, a], "query") for a, att in roots],
            None if U is None else U[start:stop],
            query=True,
        )
        r_margin = -BOUND_MARGIN * (query.weighted_alpha @ v_max)
        with threads_for((stop - start) * right.shape[0] * right.shape[1]):
            L = np.hstack([query.product, r_margin[:, None], np.ones((stop - start, 1))]) @ right.T
        np.maximum(L, 0.0, out=L)
        np.square(L, out=L)
        W = query.W @ v_max  # at or above sum_a u_a v_a for every stored instance
        L *= np.divide(1.0, W, out=np.zeros_like(W), where=W > 0)[:, None]
        if B is not None:
            L += B
        # L is computed: the bilinear part's rounding (below M of its size and of its cancelling terms) is
        # allowed for in the threshold rather than in another pass over the block
        b_margin = 0.0 if p.left is None else BOUND_MARGIN * p.magnitude[start:stop]
        n = stop - start
        if k == 1:
            first = L.argmin(axis=1)[:, None]
        else:
            first = np.argpartition(L, k - 1, axis=1)[:, :k]
        rows = np.repeat(np.arange(n), first.shape[1])
        tau = _pair_sums(roots, p, B, Zq, Zs, start, rows, first.ravel()).reshape(n, -1).max(axis=1)
        threshold = (tau + search.tolerance(tau, tie_tolerance) + b_margin) / (1.0 - BOUND_MARGIN)
        r, c = np.nonzero(L <= threshold[:, None])
        sums = _pair_sums(roots, p, B, Zq, Zs, start, r, c)
        r, c, sums = search.within(r, c, sums, n, k, tie_tolerance)
        yield start, stop, r + start, c, sums


@dataclass(frozen=True)
class _RootSide:
    """One side of the weighted root sums ``sum_a w_a r_a`` of :func:`bounded_groups`: ``product`` its columns
    of the matrix product (query: ``[u psi, u alpha, u]``, stored: ``[v chi, v, v beta]``), ``weighted_alpha``
    the weighted ``alpha`` (or ``beta``) per attribute and ``W`` the weights (ones without)."""

    product: np.ndarray
    weighted_alpha: np.ndarray
    W: np.ndarray

    @classmethod
    def of(cls, halves: list, W: np.ndarray | None, query: bool = False) -> "_RootSide":
        n = len(halves[0].alpha)
        W = np.ones((n, len(halves))) if W is None else np.asarray(W, dtype=float)
        alpha = np.column_stack([h.alpha for h in halves]) * W
        emb = [h.emb * W[:, [i]] for i, h in enumerate(halves)]
        return cls(np.hstack(emb + ([alpha, W] if query else [W, alpha])), alpha, W)


def _pair_sums(roots, p: Plan, B: np.ndarray | None, Zq, Zs, start: int, r: np.ndarray, c: np.ndarray):
    """The sums of the pairs ``(start + r, c)``, as :func:`chunks` computes them: the bilinear block's entry,
    then each direct term weighted and added in turn (``B`` None: no bilinear part, the sums start at 0)."""
    S = np.zeros(len(r)) if B is None else B[r, c]
    for a, att in roots:
        term = att.direct_pairs(Zq[start + r, a], Zs[c, a])
        if p.U is not None:
            term *= p.U[start + r, a]
        if p.V is not None:
            term *= p.V[c, a]
        S += term
    return S
