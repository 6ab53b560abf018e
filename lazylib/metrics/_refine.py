"""The near-zero refinement's arithmetic: the accuracy every sum of the engine keeps (:data:`ACCURACY`), and the
sums of chosen pairs recomputed from direct differences (:func:`exact_pairs`). Which sums of a chunk are
recomputed (:func:`lazylib.metrics._plan.refine_near_zero`, :meth:`lazylib.metrics._plan.Plan.refine`) and the
sums that are exact and never refined (:attr:`lazylib.metrics._plan.Plan.exact`) belong to the plan.

A one-page overview, with the proof sketch of the bound: ``lazylib/metrics/README.md``.
"""

from __future__ import annotations

import numpy as np

from lazylib.metrics._declaration import Bilinear

#: Relative accuracy of every sum the engine gives: a sum of the product whose rounding bound (see
#: :meth:`Plan.refine`) could exceed this fraction of it is recomputed pair by pair from direct differences.
#: ``||a||^2 + ||b||^2 - 2 a.b`` loses all relative precision as ``a -> b``, and a square root would turn a
#: rounding error of 1e-16 into a distance of 1e-8 between identical instances. A tenth of the default tie
#: tolerance (``lazylib.search.TIE_TOLERANCE``): two equal sums left unrecomputed still count as tied.
ACCURACY = 1e-10
#: Recomputed sums below this fraction of the size of their terms (``sum_k |left_k| |right_k|``) are exactly
#: 0: the embeddings of the two instances then agree to about 12 significant digits, the level of the rounding
#: left in embeddings of identical values computed on two paths (query and stored side, e.g. a centred
#: embedding computed from values rounded differently). So identical instances are at distance exactly 0, in
#: ``pairwise`` and in the search alike.
SNAP = 1e-24
#: Unit roundoff of double precision.
UNIT_ROUNDOFF = 2.0**-53
#: The metrics outside the plan that compute a squared Euclidean distance as one product (the statistical
#: ones) recompute from direct differences the sums below this fraction of ``||a||^2 + ||b||^2``.
CANCELLATION = 1e-3


# ---------------------------------------------------------------------------------------------- the exact sums
def exact_pairs(
    q: Bilinear, s: Bilinear, I: np.ndarray, J: np.ndarray, U, V, *, max_bytes: float = 32 * 2**20
) -> np.ndarray:
    """The weighted sum ``S`` for the pairs ``(I[k], J[k])`` only (queries' terms ``q``, stored ``s``),
    squared differences taken directly, a block of pairs at a time whose gathered embeddings stay within
    ``max_bytes`` (each pair's sum the same bits in any block)."""
    out = np.empty(len(I))
    m = q.alpha.shape[1]
    sq = q.squared
    step = max(1, int(max_bytes // (8 * max(q.psi.shape[1], 1))))
    for lo in range(0, len(I), step):
        i, j = I[lo : lo + step], J[lo : lo + step]
        psi, chi = q.psi[i], s.psi[j]
        cols = np.where(sq, (psi / -2.0 - chi) ** 2, psi * chi)
        per_attribute = block_sums(cols, q.block, m)
        alpha_beta = np.where(sq_attributes(q, m), 0.0, q.alpha[i] + s.alpha[j])
        t = per_attribute + alpha_beta
        if q.unknown_one is not None:
            t = np.where(q.unknown_one[i] | s.unknown_one[j], 1.0, t)
        if U is not None:
            t = t * U[i]
        if V is not None:
            t = t * V[j]
        out[lo : lo + step] = t.sum(1)
    return out


def block_sums(cols: np.ndarray, block: np.ndarray, m: int) -> np.ndarray:
    """(n, m): the columns of ``cols`` added per attribute (``block[k]`` the attribute of column ``k``), each
    attribute's columns in column order from 0, as ``np.add.at`` adds them (the same bits), one pass per
    position within a block rather than one slow scatter per element."""
    out = np.zeros((len(cols), m))
    if not len(block):
        return out
    if np.any(block[1:] < block[:-1]):  # blocks not contiguous: the general scatter
        np.add.at(out.T, block, cols.T)
        return out
    starts = np.flatnonzero(np.concatenate(([True], block[1:] != block[:-1])))
    widths = np.diff(np.concatenate((starts, [len(block)])))
    attributes = block[starts]
    for j in range(widths.max()):
        live = widths > j
        out[:, attributes[live]] += cols[:, starts[live] + j]
    return out


def sq_attributes(q: Bilinear, m: int) -> np.ndarray:
    """(m,) True for the attributes whose term is a squared difference."""
    flags = np.zeros(m, dtype=bool)
    flags[q.block[q.squared]] = True
    return flags
