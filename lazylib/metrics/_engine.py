"""The engine shared by every attribute-wise distance: the bilinear plan of a distance matrix, and its exactness.

Every distance of the five papers has the form

    D(x, y) = ( sum_a  u_a(x) * v_a(y) * t_a(x_a, y_a) ) ** (1 / root)

with an attribute term ``t_a`` (overlap, a squared or absolute difference, a VDM value difference ...), an
optional query-side weight ``u_a(x)`` (the VDM value weight of the query's value) and an optional stored-side
weight ``v_a(y)`` (attribute weights, global or one vector per class of the stored instance ``y``).

Most attribute terms are *bilinear*: ``t_a(x, y) = alpha_a(x) + beta_a(y) + psi_a(x) . chi_a(y)``. A squared
difference of embeddings ``||phi(x) - phi(y)||^2`` is one (alpha = ||phi(x)||^2, psi = -2 phi(x), chi = phi(y));
so is any table lookup ``T[x, y]`` over a finite set of values (psi = row of T, chi = one-hot). Summed over
attributes and weighted, the whole distance matrix is then **one matrix product** of two wide matrices, so the
work is done by BLAS, chunk by chunk over the queries. Attribute terms that are not bilinear (``|x - y|^r``,
the squared VDM of the printed IVDM/WVDM equations) are added one attribute at a time, still vectorised over
all pairs of a chunk.

When the stored side of every bilinear term can be computed without the queries (all terms but the overlap,
whose value table spans both sides), the stored matrix for the training data is built once per fit and reused
by every later search against it (:class:`StoredSide`).

A one-page overview of the engine, with a diagram from data to the vote: ``lazylib/metrics/README.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

#: Sums below this fraction of the size of their cancelling terms are recomputed pair by pair from direct
#: differences: ``||a||^2 + ||b||^2 - 2 a.b`` loses all relative precision as ``a -> b``, and a square root
#: would turn a rounding error of 1e-16 into a distance of 1e-8 between identical instances.
CANCELLATION = 1e-3
#: Recomputed sums below this fraction of the size of their cancelling terms are exactly 0: the embeddings of
#: the two instances then agree to about 12 significant digits, the level of the rounding left in embeddings of
#: identical values computed on two paths (query and stored side, e.g. a centred embedding computed from values
#: rounded differently). So identical instances are at distance exactly 0, in ``pairwise``
#: and in the search alike.
SNAP = 1e-24


@dataclass(frozen=True)
class Bilinear:
    """Bilinear attribute terms of one side: ``alpha`` (n, m) per-attribute scalars, ``psi`` (n, K) blocks.

    ``block[k]`` is the attribute of column ``k`` of ``psi``. On the stored side the same fields hold ``beta``
    and ``chi``. ``unknown_one`` (n, m) marks values whose attribute
    distance is 1 whatever the other value (HEOM/HVDM's rule for unknowns); their alpha and psi are 0.
    """

    alpha: np.ndarray
    psi: np.ndarray
    block: np.ndarray
    unknown_one: np.ndarray | None = None
    squared: np.ndarray | None = None  # (K,) columns of squared-difference terms (psi = -2 phi, chi = phi)


@dataclass(frozen=True)
class StoredSide:
    """The stored side of the training data, built once per fit (and per weights) and reused by every search
    against it: its bilinear terms ``side``, the right-hand matrix ``right`` of the product, the attributes with
    stored distance-one unknowns that get a column of their own (``tail_attributes``, the last columns of
    ``right``) and the stored weights ``V``. What only some searches need (the fills of queries with unknowns,
    the groups of identical stored sides, the single-precision copies) is computed when first asked for."""

    side: Bilinear
    right: np.ndarray
    tail_attributes: np.ndarray
    V: np.ndarray | None

    @cached_property
    def fill(self) -> np.ndarray:
        """(ns, m) rows added for queries with distance-one unknowns (see :func:`_unknown_one_fill`), columns
        contiguous: one per attribute."""
        return np.asfortranarray(_unknown_one_fill(self.side, self.V))

    @cached_property
    def grouped(self):
        """``(representatives, Groups, StoredSide of the representatives)``, or None when grouping identical
        stored sides would not halve the stored instances (:func:`lazylib.search.find_groups`)."""
        from lazylib import search

        return search.find_groups(self)

    @cached_property
    def single_precision(self):
        """The stored side split and rounded for the single-precision filter
        (:class:`lazylib.search.SingleParts`)."""
        from lazylib import search

        return search.SingleParts.of(self.right, len(self.tail_attributes))

    @cached_property
    def single_precision_wide(self) -> list:
        """The single-precision parts widened by the fills, for queries with distance-one unknowns."""
        return self.single_precision.wide(self.fill)


@dataclass(frozen=True)
class Plan:
    """One search's bilinear product ``S = left @ right.T`` (``pair`` None without bilinear terms), its weights
    ``U`` (queries) and ``V`` (stored), and for queries with distance-one unknowns (``unknown``, (nq, m)) the row
    added per such attribute (``fill``, (ns, m)); ``stored`` is the training data's stored side when it was used.
    The last ``tail`` columns of the product serve stored instances with distance-one unknowns only."""

    pair: tuple[Bilinear, Bilinear] | None
    U: np.ndarray | None
    V: np.ndarray | None
    stored: StoredSide | None = None
    left: np.ndarray | None = None
    right: np.ndarray | None = None
    tail: int = 0  # the last columns, one per attribute with stored distance-one unknowns
    unknown_one: np.ndarray | None = None
    fill: np.ndarray | None = None

    @cached_property
    def cancelling_scales(self) -> tuple[np.ndarray, np.ndarray]:
        """Per query and per stored instance, the size of the terms that cancel in ``alpha + beta - 2 phi.phi``:
        sums far below ``scale_q + scale_s`` have lost their relative precision (see ``CANCELLATION``).
        Computed once per plan."""
        u_max = 1.0 if self.U is None else self.U.max(initial=0.0)
        v_max = 1.0 if self.V is None else self.V.max(initial=0.0)
        return self.pair[0].alpha.sum(1) * u_max * v_max, self.pair[1].alpha.sum(1) * u_max * v_max

    def fill_coefficients(self, rows) -> np.ndarray:
        """(len(rows), m): how much of each attribute's fill a query row adds (its weight where it is unknown)."""
        M = self.unknown_one[rows].astype(np.float64)
        return M if self.U is None else M * self.U[rows]

    def add_fills(self, S: np.ndarray, lo: int, hi: int) -> None:
        """Add, in place, the "distance one" terms of the queries ``lo:hi`` (the rows of ``S``) with unknown
        values."""
        if self.unknown_one is None:
            return
        rows = np.flatnonzero(self.unknown_one[lo:hi].any(axis=1))
        if len(rows):
            fills = self.fill_coefficients(rows + lo) @ self.fill.T
            # runs of consecutive rows in place (S[rows] += fills would gather and scatter a copy of them)
            breaks = np.flatnonzero(np.diff(rows) != 1) + 1
            for first, last in zip(np.concatenate(([0], breaks)), np.concatenate((breaks, [len(rows)]))):
                S[rows[first] : rows[last - 1] + 1] += fills[first:last]

    def refine(self, rows: np.ndarray, cols: np.ndarray, sums: np.ndarray) -> np.ndarray:
        """``sums`` of the pairs ``(rows, cols)``, with those near zero recomputed from direct differences."""
        scale_q, scale_s = self.cancelling_scales
        scale = scale_q[rows] + scale_s[cols]
        near = np.flatnonzero(sums <= CANCELLATION * scale)
        if len(near):
            sums = sums.copy()
            exact = _exact_pairs(self.pair, rows[near], cols[near], self.U, self.V)
            sums[near] = np.where(exact <= SNAP * scale[near], 0.0, exact)
        return sums


def _assemble_right(s: Bilinear, V, no_query_weights: bool):
    """Stored side of the product, and the attributes that get a column for stored unknowns.

    With ``U`` (nq, m) and ``V`` (ns, m) the weights (None = ones), ``left @ right.T`` is the weighted sum
    ``S = (U*alpha_q) @ V.T + U @ (V*beta_s).T + (psi_q * U[:, block]) @ (chi_s * V[:, block]).T``
    plus, for stored instances with values unknown under the "distance one" rule, one column per such attribute
    (the last ones) adding ``1 - alpha_i`` (queries with unknown values are corrected in
    ``Plan.add_fills``). The stored side depends on the queries only through whether ``U`` is None, so it can
    be built once.
    """
    ns = s.alpha.shape[0]
    right = [s.psi if V is None else s.psi * V[:, s.block]]
    # alpha and beta terms; collapse to one column when one side's weights are all ones
    right.append(np.ones((ns, 1)) if V is None else V)
    beta = s.alpha if V is None else V * s.alpha
    right.append(beta.sum(axis=1, keepdims=True) if no_query_weights else beta)
    # stored unknowns under the "distance one" rule: with j's embedding zeroed the product holds alpha_i where
    # the rule wants 1, so add (1 - alpha_i) for known i (queries with unknowns: see Plan.add_fills)
    stored = np.flatnonzero(s.unknown_one.any(axis=0)) if s.unknown_one is not None else np.empty(0, np.intp)
    if len(stored):
        Ms = s.unknown_one[:, stored].astype(np.float64)
        right.append(Ms if V is None else Ms * V[:, stored])
    return np.ascontiguousarray(np.hstack(right)), stored


def _assemble_left(q: Bilinear, U, no_stored_weights: bool, stored: np.ndarray) -> np.ndarray:
    """Query side of the product, matching the columns of :func:`_assemble_right`."""
    nq, m = q.alpha.shape
    Uq = np.ones((nq, m)) if U is None else U
    left = [q.psi if U is None else q.psi * U[:, q.block]]
    left.append((Uq * q.alpha).sum(axis=1, keepdims=True) if no_stored_weights else Uq * q.alpha)
    left.append(np.ones((nq, 1)) if U is None else U)
    if len(stored):
        Mq = q.unknown_one[:, stored]
        left.append(Uq[:, stored] * (~Mq) * (1.0 - q.alpha[:, stored]))
    return np.ascontiguousarray(np.hstack(left))


def _unknown_one_fill(s: Bilinear, V) -> np.ndarray:
    """(ns, m): what a query whose value of attribute a is unknown adds to its row under the "distance one"
    rule, with the query's embedding zeroed: ``1 - beta_j`` for known j, 1 for unknown j (times ``v_j``)."""
    fill = np.where(s.unknown_one, 1.0, 1.0 - s.alpha)
    return fill if V is None else fill * V


def _exact_pairs(pair: tuple[Bilinear, Bilinear], I: np.ndarray, J: np.ndarray, U, V) -> np.ndarray:
    """The weighted sum ``S`` for the pairs ``(I[k], J[k])`` only, squared differences taken directly."""
    q, s = pair
    out = np.empty(len(I))
    m = q.alpha.shape[1]
    sq = q.squared
    step = max(1, 2**22 // max(q.psi.shape[1], 1))
    for lo in range(0, len(I), step):
        i, j = I[lo : lo + step], J[lo : lo + step]
        psi, chi = q.psi[i], s.psi[j]
        cols = np.where(sq, (psi / -2.0 - chi) ** 2, psi * chi)
        per_attribute = np.zeros((len(i), m))
        np.add.at(per_attribute.T, q.block, cols.T)  # sum each attribute's block of columns
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


def sq_attributes(q: Bilinear, m: int) -> np.ndarray:
    """(m,) True for the attributes whose term is a squared difference."""
    flags = np.zeros(m, dtype=bool)
    flags[q.block[q.squared]] = True
    return flags
