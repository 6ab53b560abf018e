"""The plan of a computation: the bilinear terms of both sides
(:class:`~lazylib.metrics._declaration.Bilinear`, from the metric's declaration) assembled, with the weights,
into one product ``S = left @ right.T`` (:func:`plan`, :class:`Plan`); the training data's stored side built
once per fit (:class:`StoredSide`); the exactness decision (:attr:`Plan.exact`, :func:`exact_operands`):
whether every sum of the product comes out exact in any order, so that none is ever recomputed; and the
refinement of the other sums near zero (:func:`refine_near_zero`, :meth:`Plan.refine`: those whose rounding
bound, :attr:`Plan.rounding` times :attr:`Plan.magnitude`, could exceed :data:`ACCURACY` of them, recomputed
from direct differences by :func:`exact_pairs`).

A one-page overview, with the proof sketch of the bound: ``lazylib/metrics/README.md``."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import NamedTuple

import numpy as np

from lazylib import search
from lazylib.metrics._declaration import Bilinear, Declaration

# ---------------------------------------------------------------------------------------------- the accuracy
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


# ---------------------------------------------------------------------------------------------- the plan
@dataclass(frozen=True)
class StoredSide:
    """The stored side of the training data, built once per fit (and per weights) and reused by every search
    against it: its bilinear terms ``terms`` (beta, chi), the right-hand matrix ``right`` of the product, the
    attributes with stored distance-one unknowns that get a column of their own (``tail_attributes``, the last
    columns of ``right``) and the stored weights ``V``. What only some searches need (the fills of queries with
    unknowns, the groups of identical stored sides, the single-precision copies) is computed when first asked
    for."""

    terms: Bilinear
    right: np.ndarray
    tail_attributes: np.ndarray
    V: np.ndarray | None

    @cached_property
    def fill(self) -> np.ndarray:
        """(ns, m) rows added for queries with distance-one unknowns (see :func:`_unknown_one_fill`), columns
        contiguous: one per attribute."""
        return np.asfortranarray(_unknown_one_fill(self.terms, self.V))

    @cached_property
    def right_max(self) -> np.ndarray:
        """Column maxima of ``|right|`` (the size of the terms of a sum, see :attr:`Plan.magnitude`)."""
        return _column_max(self.right)

    @cached_property
    def fill_max(self) -> np.ndarray:
        """Column maxima of ``|fill|``."""
        return _column_max(self.fill)

    @cached_property
    def dyadic(self):
        """:class:`Dyadic` of the stored terms and weights, or None (see :attr:`Plan.exact`)."""
        return _dyadic(self.terms, self.V)

    @cached_property
    def dyadic_head(self):
        """:class:`Dyadic` of the first entries of the stored operands only (see :attr:`Plan.exact`)."""
        return _dyadic(self.terms, self.V, head=HEAD)

    @cached_property
    def grouped(self):
        """:class:`lazylib.search.Grouped` ``(representatives, groups, stored)``, or None when grouping identical
        stored sides would not halve the stored instances (:func:`lazylib.search.find_groups`)."""
        return search.find_groups(self)

    @cached_property
    def single_precision(self):
        """The stored side split and rounded for the single-precision filter
        (:class:`lazylib.search.SingleParts`)."""
        return search.SingleParts.of(self.right, len(self.tail_attributes))

    @cached_property
    def single_precision_wide(self) -> list:
        """The single-precision parts widened by the fills, for queries with distance-one unknowns."""
        return self.single_precision.wide(self.fill)


#: :meth:`Plan.distinct_pairs` finds the distinct pairs with a table of every possible pair code (no sort) when
#: there are at most this many codes per pair, so the table is never larger than the pairs' own index arrays;
#: by sorting the codes otherwise.
DENSE_CODES = 1

#: :meth:`Plan.distinct_pairs` looks for repeated pairs only among at least this many pairs per query and stored
#: row: coding the rows by their bytes costs about as much per row as recomputing ten pairs.
DISTINCT_MIN = 8

#: The most bytes a block of pairs gathers from each side (:attr:`Plan.pair_bytes`): 2**20 rows of one column.
PAIR_BLOCK_BYTES = 8 * 2**20


@dataclass(frozen=True)
class Plan:
    """One computation's bilinear product ``S = left @ right.T``: the bilinear terms of the queries (``query``:
    alpha, psi) and of the stored instances (``stored``: beta, chi), both None without bilinear terms; the
    weights ``U`` (queries) and ``V`` (stored); for queries with distance-one unknowns (``unknown_one``,
    (nq, m)) the row added per such attribute (``fill``, (ns, m)); ``training``, the training data's stored
    side when it was used. The last ``tail`` columns of the product serve stored instances with distance-one
    unknowns only."""

    query: Bilinear | None
    stored: Bilinear | None
    U: np.ndarray | None
    V: np.ndarray | None
    training: StoredSide | None = None
    left: np.ndarray | None = None
    right: np.ndarray | None = None
    tail: int = 0  # the last columns, one per attribute with stored distance-one unknowns
    unknown_one: np.ndarray | None = None
    fill: np.ndarray | None = None
    #: Bound, in bytes, on the rows gathered for one block of pairs (:meth:`pair_magnitude`,
    #: :func:`lazylib.search.product_sums`; :func:`~lazylib.metrics._plan.exact_pairs` four times as many):
    #: a quarter of the metric's ``working_memory``, at most :data:`PAIR_BLOCK_BYTES`.
    pair_bytes: float = 0.0
    #: Column maxima of ``|right|`` over every stored instance of the computation, when ``right`` holds only the
    #: rows of some of them (:func:`lazylib.metrics._tables.table_blocks`); None: those of ``right`` itself.
    stored_max: np.ndarray | None = None

    @property
    def pair_step(self) -> int:
        """Pairs per block when each gathers a row of ``left`` and one of ``right`` within :attr:`pair_bytes`
        (2**20 // width at the default bound, the block before issue #53; at least one pair)."""
        return max(1, int((self.pair_bytes or PAIR_BLOCK_BYTES) // (8 * max(self.left.shape[1], 1))))

    @cached_property
    def exact(self) -> bool:
        """Whether every sum of the product (fills included) comes out exact, whatever the order BLAS adds in:
        every operand an integer multiple of one power of two, and every sum of them below 2**53 of it
        (:func:`exact_operands`). Such sums are never recomputed (overlap, counts, dyadic weights)."""
        if self.left is None:
            return False
        # The operands' first entries first: a quantum over some entries bounds the whole array's from above,
        # and exactness only gets harder as a quantum falls, so when these already rule it out (probabilities,
        # most real data) the whole arrays need not be read.
        stored = self.training.dyadic_head if self.training is not None else _dyadic(self.stored, self.V, head=HEAD)
        if stored is None or not exact_operands(_dyadic(self.query, self.U, head=HEAD), stored):
            return False
        stored = self.training.dyadic if self.training is not None else _dyadic(self.stored, self.V)
        return stored is not None and exact_operands(_dyadic(self.query, self.U), stored)

    @cached_property
    def rounding(self) -> float:
        """``gamma``: the rounding of a sum of the product is at most ``gamma`` times the size of its terms,
        ``sum_k |left_k| |right_k|`` (fills included; see :meth:`refine`)."""
        m = self.query.alpha.shape[1]
        width = self.left.shape[1] + (m if self.unknown_one is not None else 0)
        return 1.01 * (width + m + 3) * UNIT_ROUNDOFF

    @cached_property
    def magnitude(self) -> np.ndarray:
        """(nq,): per query, a bound on the size of the terms of its sums against every stored instance,
        ``|left_i| . max_j |right_j|`` (plus the fills' ``|coefficients_i| . max_j |fill_j|``)."""
        if self.stored_max is not None:
            right_max = self.stored_max
        else:
            right_max = self.training.right_max if self.training is not None else _column_max(self.right)
        out = np.abs(self.left) @ right_max
        if self.unknown_one is not None:
            rows = np.flatnonzero(self.unknown_one.any(axis=1))
            fill_max = self.training.fill_max if self.training is not None else _column_max(self.fill)
            out[rows] += np.abs(self.fill_coefficients(rows)) @ fill_max
        return out

    @cached_property
    def threshold(self) -> np.ndarray:
        """(nq,): sums at or below this may have lost the relative accuracy ``ACCURACY`` (see :meth:`refine`)."""
        return (self.rounding / ACCURACY) * self.magnitude

    def pair_magnitude(self, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
        """The size of the terms of the sums of the pairs ``(rows, cols)``: ``sum_k |left_k| |right_k|``, plus
        the fills' ``sum_a |coefficient_a| |fill_a|``."""
        out = np.empty(len(rows))
        step = self.pair_step
        for lo in range(0, len(rows), step):
            r, c = rows[lo : lo + step], cols[lo : lo + step]
            part = np.einsum("ij,ij->i", np.abs(self.left[r]), np.abs(self.right[c]))
            if self.unknown_one is not None:
                part += np.einsum("ij,ij->i", np.abs(self.fill_coefficients(r)), np.abs(self.fill[c]))
            out[lo : lo + step] = part
        return out

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
        """``sums`` of the pairs ``(rows, cols)``, with those whose rounding could exceed ``ACCURACY`` of them
        recomputed from direct differences (none when the plan's sums are exact).

        A computed sum ``s`` of the product is off by at most ``gamma * M`` with ``M = sum_k |left_k|
        |right_k|`` its terms' size and ``gamma`` (:attr:`rounding`) the rounding of a sum of that many
        products (Higham, Accuracy and Stability, Eq. 3.5: any order of summation, fused or not; the fills
        are one more such sum, added once; the operands built from the terms are rounded once more, counted in
        ``gamma`` through the number of attributes). So when ``s > (gamma / ACCURACY) * M`` the exact sum
        lies within ``ACCURACY * s`` of ``s`` (and is positive): only sums at or below that are recomputed.
        ``M`` is bounded first per query (:attr:`magnitude`), then computed for the pairs below that bound.
        """
        if self.exact or not len(rows):
            return sums
        factor = self.rounding / ACCURACY
        near = np.flatnonzero(sums <= factor * self.magnitude[rows])
        if not len(near):
            return sums
        r, c = rows[near], cols[near]
        coded = self.pair_codes(r, c)  # the pairs coded once, for both recomputations
        if coded is None:
            size = self.pair_magnitude(r, c)
        else:
            first, inverse = coded
            size = self.pair_magnitude(r[first], c[first])[inverse]
        keep = sums[near] <= factor * size
        if not keep.any():
            return sums
        near, size = near[keep], size[keep]
        if coded is None:
            exact = exact_pairs(
                self.query, self.stored, r[keep], c[keep], self.U, self.V, max_bytes=4 * self.pair_bytes
            )
        else:  # once per distinct pair of rows among those kept
            used = np.zeros(len(first), bool)
            used[inverse[keep]] = True
            some = first[used]
            exact = exact_pairs(
                self.query, self.stored, r[some], c[some], self.U, self.V, max_bytes=4 * self.pair_bytes
            )
            exact = exact[(np.cumsum(used) - 1)[inverse[keep]]]
        sums = sums.copy()
        sums[near] = np.where(exact <= SNAP * size, 0.0, exact)
        return sums

    @cached_property
    def row_keys(self) -> tuple[np.ndarray, np.ndarray]:
        """(nq,), (ns,): one code per query and per stored instance, equal for two rows exactly when every
        operand of theirs that a pair's recomputation reads (:meth:`pair_magnitude`, :func:`exact_pairs`) holds
        the same bytes: the bilinear terms, the unknown-value marks, the weights and the assembled rows of the
        product and the fills."""
        q, s = self.query, self.stored
        left = [q.psi, q.alpha, q.unknown_one, self.U, self.left]
        right = [s.psi, s.alpha, s.unknown_one, self.V, self.right, self.fill]
        return _byte_codes(left, len(q.alpha)), _byte_codes(right, len(s.alpha))

    def distinct_pairs(self, rows: np.ndarray, cols: np.ndarray, compute) -> np.ndarray:
        """``compute(rows, cols)``, a per-pair function of the pairs' operands, evaluated once per distinct pair
        of rows (:attr:`row_keys`) and spread to the pairs that repeat it: the same bits as evaluating every
        pair, since each pair's value depends only on the bytes of its two rows. A leave-one-out search on data
        with many identical instances (hypothyroid under MDW: 2 million pairs near zero, 7,600 distinct)
        recomputes each distinct pair once (issue #52 item 4)."""
        coded = self.pair_codes(rows, cols)
        if coded is None:
            return compute(rows, cols)
        first, inverse = coded
        return compute(rows[first], cols[first])[inverse]

    def pair_codes(self, rows: np.ndarray, cols: np.ndarray):
        """``(first, inverse)``: one pair of each distinct pair of rows (:attr:`row_keys`; ``first`` indexes
        ``rows``) and the distinct pair of every pair; None where coding would not repay itself (too few pairs,
        or all distinct)."""
        if len(rows) < DISTINCT_MIN * (len(self.query.alpha) + len(self.stored.alpha)):
            return None  # too few pairs to repay coding the rows (mushroom's: all distinct)
        kq, ks = self.row_keys
        width = int(ks.max(initial=0)) + 1
        code = kq[rows] * width + ks[cols]
        size = (int(kq.max(initial=0)) + 1) * width
        if size <= DENSE_CODES * len(code):  # few distinct rows: a table of every code, no sort
            seen = np.zeros(size, bool)
            seen[code] = True
            if seen.sum() == len(code):
                return None
            slot = np.cumsum(seen) - 1
            which = np.empty(size, np.intp)
            which[code] = np.arange(len(code))  # one pair of each code (any: they hold the same bytes)
            return which[seen], slot[code]
        _, first, inverse = np.unique(code, return_index=True, return_inverse=True)
        if len(first) == len(code):
            return None
        return first, inverse.ravel()


def _byte_codes(parts, n: int) -> np.ndarray:
    """(n,) int64 codes of the rows of the arrays ``parts`` (each with n rows; None skipped) taken together,
    equal for two rows exactly when their bytes are."""
    parts = [np.ascontiguousarray(np.asarray(a).reshape(n, -1)).view(np.uint8) for a in parts if a is not None]
    if not parts or n == 0:
        return np.zeros(n, np.int64)
    rows = np.ascontiguousarray(np.hstack(parts))
    _, inverse = np.unique(rows.view(np.dtype((np.void, rows.shape[1]))).ravel(), return_inverse=True)
    return inverse.ravel().astype(np.int64)


def refine_near_zero(p: Plan, S: np.ndarray, start: int) -> None:
    """Recompute in place the sums of the block ``S`` (queries ``start:``) whose rounding could exceed
    ``ACCURACY`` of them (:meth:`Plan.refine`); nothing when the plan's sums are exact (:attr:`Plan.exact`).

    Most rows of a block hold no such sum: their minimum (one pass, no temporary) is compared first with the
    row's threshold (:attr:`Plan.threshold`), and only the rows below it are searched pair by pair. Every
    negative rounding is below its threshold, so the block comes out non-negative.
    """
    if p.exact:
        return
    bound = p.threshold[start : start + len(S)]
    rows = np.flatnonzero(S.min(axis=1) <= bound)
    if not len(rows):
        return
    block = S if len(rows) == len(S) else S[rows]
    r, c = np.nonzero(block <= bound[rows][:, None])
    r = rows[r]
    if len(r):
        S[r, c] = p.refine(r + start, c, S[r, c])


def plan(declared: Declaration, Zq: np.ndarray, Zs: np.ndarray, classes, *, training: bool = False) -> Plan:
    """The bilinear product of a computation, set up once from the metric's declaration ``declared``: the
    weights ``U`` (:meth:`~lazylib.metrics._declaration.Declaration.query_weights`) and ``V`` (the fitted weights
    of each stored instance's class), both sides (:meth:`~lazylib.metrics._declaration.Declaration.sides`),
    their assembly into ``left`` and ``right`` and the unknown-at-one ``fill``. ``training``: the stored
    instances are the training data (``Zs`` is the declaration's ``training``), whose stored side is built once
    per fit (:func:`training_stored_side`)."""
    V = stored_weights(declared.weights, len(Zs), classes)
    U = declared.query_weights(Zq)
    pair_bytes = min(PAIR_BLOCK_BYTES, declared.working_memory * 2**20 / 4)
    trained = training_stored_side(declared, V, U is None) if training and declared.separable else None
    terms = declared.sides(Zq, Zs, stored=None if trained is None else trained.terms)
    if terms is None:
        return Plan(None, None, U, V, trained, pair_bytes=pair_bytes)
    if trained is not None:
        right, tail_attributes = trained.right, trained.tail_attributes
    else:
        right, tail_attributes = _assemble_right(terms.stored, V, U is None)
    left = _assemble_left(terms.query, U, V is None, tail_attributes)
    unknown_one = fill = None
    if terms.query.unknown_one is not None and terms.query.unknown_one.any():
        unknown_one = terms.query.unknown_one
        fill = trained.fill if trained is not None else np.asfortranarray(_unknown_one_fill(terms.stored, V))
    return Plan(
        terms.query,
        terms.stored,
        U,
        V,
        training=trained,
        left=left,
        right=right,
        tail=len(tail_attributes),
        unknown_one=unknown_one,
        fill=fill,
        pair_bytes=pair_bytes,
    )


def stored_weights(W: np.ndarray | None, n: int, classes) -> np.ndarray | None:
    """``V`` (n, m): the attribute weights of each stored instance (one global vector broadcast, or the vector
    of its class), None for all ones."""
    if W is None:
        return None
    if W.ndim == 1:
        return np.broadcast_to(W, (n, W.shape[0]))
    return W[classes]


def training_stored_side(declared: Declaration, V, no_query_weights: bool) -> StoredSide:
    """The stored side of the training data, built once per fit and per weights (one per value of
    ``no_query_weights``, on which the assembled right-hand matrix depends) and kept in the declaration's
    ``training_sides`` (a new declaration, with none, comes with new weights)."""
    side = declared.training_sides.get(no_query_weights)
    if side is None:
        terms = declared.training_terms()
        right, tail_attributes = _assemble_right(terms, V, no_query_weights)
        if V is None:  # the stored embedding is the first columns of the product's side: held once, not twice
            terms = replace(terms, psi=right[:, : terms.psi.shape[1]])
        side = declared.training_sides[no_query_weights] = StoredSide(terms, right, tail_attributes, V)
    return side


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


class Dyadic(NamedTuple):
    """One side's operands as multiples of powers of two: every weight a multiple of ``2**weight``, every
    ``alpha`` of ``2**alpha``, every embedding entry of ``2**emb``; and their largest absolute values
    (``emb_max`` per column), over ``m`` attributes."""

    m: int
    weight: int
    alpha: int
    emb: int
    weight_max: float
    alpha_max: float
    emb_max: np.ndarray


#: The exponent given to an array without a nonzero entry (a multiple of any power of two): above any finite
#: float's (at most 2**971 divides one).
_NO_BITS = 4096


def quantum(a: np.ndarray) -> int | None:
    """The largest ``e`` such that every entry of ``a`` is an integer multiple of ``2**e`` (None for an entry
    that is not finite).

    >>> quantum(np.array([3.0, 0.5, -1.25])), quantum(np.array([0.1])) < -50
    (-2, True)
    """
    a = np.asarray(a, dtype=np.float64).ravel()
    a = a[a != 0]
    if not len(a):
        return _NO_BITS
    if not np.all(np.isfinite(a)):
        return None
    mantissa, exponent = np.frexp(a)  # a = mantissa * 2**exponent, 0.5 <= |mantissa| < 1
    bits = np.ldexp(np.abs(mantissa), 53).astype(np.int64)  # an integer below 2**53
    lowest = np.frexp((bits & -bits).astype(np.float64))[1] - 1  # its lowest set bit
    return int((exponent - 53 + lowest).min())


#: Entries of each operand that :attr:`Plan.exact` reads first (:func:`_dyadic`'s ``head``).
HEAD = 1024


def _dyadic(side: Bilinear, W, head: int | None = None) -> Dyadic | None:
    """:class:`Dyadic` of one side's terms ``side`` and weights ``W`` (None for all ones), or None when an
    operand is not finite. With ``head``, each quantum is taken over the first ``head`` entries of its operand
    only (in memory order), which bounds the whole operand's quantum from above; the largest values are always
    the whole operands'."""

    def q(a):
        return quantum(a if head is None else _head(a, head))

    parts = [0 if W is None else q(W), q(side.alpha), q(side.psi)]
    if any(q is None for q in parts):
        return None
    w_max = 1.0 if W is None else float(np.abs(W).max(initial=0.0))
    return Dyadic(side.alpha.shape[1], *parts, w_max, float(np.abs(side.alpha).max(initial=0.0)), _column_max(side.psi))


def _head(a: np.ndarray, head: int) -> np.ndarray:
    """The first ``head`` entries of ``a`` in memory order, read from its first rows when its rows lie in order
    (a view of the first columns of a wider matrix, the training data's stored embedding: no copy of it)."""
    a = np.asarray(a)
    if a.ndim == 2 and a.shape[1] and a.strides[1] == a.itemsize and a.strides[0] >= a.shape[1] * a.itemsize:
        a = a[: -(-head // a.shape[1])]
    return np.ravel(a, order="K")[:head]


def exact_operands(query: Dyadic | None, stored: Dyadic | None) -> bool:
    """Whether every sum built from operands like these is exact, in any order.

    Every term the engine forms (``u v alpha``, ``u v beta``, ``u v psi_k chi_k``, the fills' ``u v (1 -
    beta)`` and their partial sums: the assembled ``left`` and ``right``, their product and the fills) is an
    integer multiple of ``2**e`` with ``e = e_u + e_v + min(0, e_alpha, e_beta, e_psi + e_chi)``. Every sum of
    such terms is exact as long as it stays below ``2**(53 + e)`` in magnitude, which holds for every sum when
    the sum of the magnitudes of all terms does: ``2 u_max v_max (m (1 + alpha_max + beta_max) + sum_k
    psi_max_k chi_max_k)`` bounds it over ``m`` attributes (the factor 2 covers ``|1 - beta| <= 1 + beta`` and
    the alpha and beta columns counted on both sides).
    """
    if query is None or stored is None:
        return False
    if _NO_BITS in (query.weight, stored.weight):  # every weight of a side is 0: so is every term
        return True
    # (no shortcut on a large e: weights of 1e300 have quanta near 2**940, and their products overflow, which the
    # size test below catches as an infinite total)
    e = query.weight + stored.weight + min(0, query.alpha, stored.alpha, query.emb + stored.emb)
    size = query.m * (1.0 + query.alpha_max + stored.alpha_max) + float(query.emb_max @ stored.emb_max)
    total = 2.0 * query.weight_max * stored.weight_max * size
    return bool(total < np.ldexp(1.0, min(53 + e, 1000)))


#: Bytes of rows read at a time by :func:`_column_max`.
COLUMN_BLOCK_BYTES = 8 * 2**20


def _column_max(a: np.ndarray) -> np.ndarray:
    """Column maxima of ``|a|`` (0 for none), a block of rows at a time: no copy of ``a`` (the maxima are the
    same in any order of the rows)."""
    if a.ndim != 2 or a.shape[0] == 0:
        return np.abs(a).max(axis=0, initial=0.0)
    out = np.zeros(a.shape[1])
    step = max(1, int(COLUMN_BLOCK_BYTES // (8 * max(a.shape[1], 1))))
    for lo in range(0, a.shape[0], step):
        np.maximum(out, np.abs(a[lo : lo + step]).max(axis=0, initial=0.0), out=out)
    return out


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
