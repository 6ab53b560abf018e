"""The chunks of a computation: how many queries fit in ``working_memory`` at a time (:func:`chunk_rows`), the
bilinear product of one chunk with its fills and near-zero refinement (:func:`bilinear_sums`), and the blocks of
a metric that is an ``r``-norm of its attribute differences (:func:`norm_chunks`, :func:`norm_block`). The
engine's :func:`lazylib.metrics._engine.chunks` walks them."""

from __future__ import annotations

import numpy as np

from lazylib._threads import threads_for
from lazylib.metrics._declaration import Declaration, Operands, SetSides
from lazylib.metrics._plan import Plan, refine_near_zero, stored_weights
from lazylib.metrics._sets import member_pair_bytes


# ---------------------------------------------------------------------------------------------- the chunks
def chunk_rows(working_memory: float, n_stored: int, width: int, sets: SetSides | None = None) -> int:
    """Rows of queries per chunk so that one chunk's temporaries stay within ``working_memory`` MiB: against
    ``n_stored`` stored instances, with ``width`` columns of the query side, and for set-valued columns
    (``sets``) the member-pair temporaries of the kernel."""
    per_row = 8 * (n_stored * 3 + width)  # distances, a temporary, direct terms + the row's embedding
    if sets is not None:  # a set term's member-pair temporaries (one set column at a time: the largest)
        per_row += max((member_pair_bytes(q.sizes, len(s.members)) for q, s in zip(*sets) if q is not None), default=0)
    return max(1, int(working_memory * 2**20 // max(per_row, 1)))


def norm_chunks(declared: Declaration, ops: Operands, out: np.ndarray | None = None):
    """:func:`chunks` of a metric that is the ``r``-norm of its attribute differences (its declaration's
    ``norm_order``): each block by :func:`norm_block`, its distances also its reduced sums (the root is 1)."""
    r = declared.norm_order
    V = stored_weights(declared.weights, len(ops.Zs), ops.classes)
    Vr = None if V is None else V ** (1.0 / r)  # v d^r = (v^(1/r) d)^r: the weights enter the differences
    step = chunk_rows(declared.working_memory, len(ops.Zs), ops.Zq.shape[1])
    for start in range(0, len(ops.Zq), step):
        stop = min(start + step, len(ops.Zq))
        block = norm_block(declared, ops.Zq[start:stop], ops.Zs, r, Vr, None if out is None else out[start:stop])
        yield start, stop, block


def norm_block(declared: Declaration, Zq: np.ndarray, Zs: np.ndarray, r: float, Vr=None, out=None) -> np.ndarray:
    """``D = (sum_a (w_a d_a)^r)^(1/r)`` for the differences ``d_a`` of ``declared.differences`` and the
    weights ``w_a`` (``Vr``, (ns, m), the attribute weights to the power ``1/r``; None for ones), each pair
    in its own unit: with ``M = max_a w_a d_a``, ``D = M (sum_a (w_a d_a / M)^r)^(1/r)``. Every power then
    lies in [0, 1], the largest equal to 1, so the sum lies in [1, m] and neither over- nor underflows at any
    ``r`` and any scale of the data (the sum of ``d_a^r`` itself leaves the float range between distinct
    points for ``r`` of a few hundred). The differences are computed twice (once for ``M``), so the block
    holds three (nq, ns) arrays at a time, as :func:`chunk_rows` counts."""
    M = np.zeros((len(Zq), len(Zs))) if out is None else out
    M[:] = 0.0
    for a, d in declared.differences(Zq, Zs):
        if Vr is not None:
            d *= Vr[:, a]
        np.maximum(M, d, out=M)
    S = np.zeros_like(M)
    positive = M > 0
    for a, d in declared.differences(Zq, Zs):
        if Vr is not None:
            d *= Vr[:, a]
        np.divide(d, M, out=d, where=positive)  # where M = 0, d = 0 already
        np.power(d, r, out=d)
        S += d
    np.power(S, 1.0 / r, out=S)
    M *= S
    return M


def bilinear_sums(p: Plan, start: int, stop: int, n_stored: int, out: np.ndarray | None = None) -> np.ndarray:
    """The bilinear part of the sums of the queries ``start:stop`` (0 without bilinear terms): the plan's product,
    its unknown-at-one fills and its near-zero refinement, written into ``out`` when given."""
    if p.left is not None:
        # the fills' and the refinement's products too: a BLAS pool woken between them costs more than it gains
        with threads_for((stop - start) * p.right.shape[0] * p.right.shape[1]):
            S = np.matmul(p.left[start:stop], p.right.T, out=out)
            p.add_fills(S, start, stop)
            # sums near zero have lost their relative precision (and a root amplifies that): recomputed, so that
            # identical instances are at exactly 0 and ties among near-zero sums are decided on exact values
            refine_near_zero(p, S, start)
        return S
    if out is None:
        return np.zeros((stop - start, n_stored))
    out[:] = 0.0
    return out
