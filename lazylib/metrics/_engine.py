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
all pairs of a chunk; a search with terms that square bilinear ones (the printed IVDM/WVDM) goes through a
lower bound instead of whole rows (:func:`bounded_groups`).

When the stored side of every bilinear term can be computed without the queries (all terms but the overlap,
whose value table spans both sides), the stored matrix for the training data is built once per fit and reused
by every later search against it (:class:`StoredSide`).

A metric only declares what it *is* (:class:`lazylib.metrics.Metric`: its attribute terms, weights and root);
this module is the whole path of a computation, top to bottom as one query takes it:

1. :class:`Operands`: the encoded queries and stored instances (:func:`lazylib.metrics._inputs.operands`);
2. :func:`pairwise`, :func:`chunks`, :func:`nearest_groups`, :func:`nearest`: what the public methods of a
   metric call;
3. the plan (:func:`plan`): the weights ``U`` and ``V``, both sides of the bilinear terms assembled into
   ``left`` and ``right``, the unknown-at-one ``fill``; the training data's stored side built once
   (:func:`training_stored_side`, :class:`StoredSide`);
4. the chunks within ``working_memory`` (:func:`chunk_rows`), the near-zero refinement
   (:func:`refine_near_zero`, :meth:`Plan.refine`, :func:`_exact_pairs`) where rounding can matter (never
   for exact sums, :attr:`Plan.exact`) and the direct terms added to each block.

A one-page overview of the engine, with a diagram from data to the vote: ``lazylib/metrics/README.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from lazylib._threads import threads_for
from lazylib.encoding import SetTable
from lazylib.metrics._sets import member_pair_bytes

if TYPE_CHECKING:  # the engine reads a metric's declared terms; it never imports the class
    from lazylib.metrics._base import Metric

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


# ---------------------------------------------------------------------------------------------- the records
class SetSides(NamedTuple):
    """The set tables of the queries and of the stored instances, one entry per column (None where the column
    is not set-valued): what a set-valued attribute term needs besides the encoded set indices."""

    query: tuple[SetTable | None, ...]
    stored: tuple[SetTable | None, ...]


class Operands(NamedTuple):
    """One computation's input, encoded as the training data were: the queries ``Zq`` (rows of the result), the
    stored instances ``Zs`` (its columns), their class codes ``classes`` (None when unknown), whether the stored
    instances are the training data (``training``: their stored side is built once per fit) and the set tables
    of both sides (``sets``, None without set-valued columns)."""

    Zq: np.ndarray
    Zs: np.ndarray
    classes: np.ndarray | None
    training: bool
    sets: SetSides | None


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


class BilinearPair(NamedTuple):
    """The bilinear terms of both sides, as a metric's ``_bilinear`` declares them: ``query`` (alpha, psi) and
    ``stored`` (beta, chi)."""

    query: Bilinear
    stored: Bilinear


# ---------------------------------------------------------------------------------------------- the entry points
def pairwise(metric: Metric, ops: Operands) -> np.ndarray:
    """The distance matrix ``D`` (queries x stored instances): computed between the distinct queries and the
    distinct stored instances (:func:`distinct_rows`) when either side has at most half as many, and gathered;
    otherwise every chunk written in place."""
    queries, stored = distinct_rows(ops.Zq), distinct_rows(ops.Zs, stored_key(metric, ops))
    if queries is None and stored is None:
        out = np.empty((ops.Zq.shape[0], ops.Zs.shape[0]))
        for _ in chunks(metric, ops, out=out):
            pass
        return out
    D = pairwise(metric, take_rows(ops, queries, stored))
    if queries is not None:
        D = D[queries.of]
    return D if stored is None else D[:, stored.of]


class Distinct(NamedTuple):
    """Distinct rows of a matrix: ``first[g]`` the first row of pattern ``g`` (patterns in order of first
    appearance), ``of[i]`` the pattern of row ``i``."""

    first: np.ndarray
    of: np.ndarray


def distinct_rows(Z: np.ndarray, key: np.ndarray | None = None) -> Distinct | None:
    """:class:`Distinct` rows of ``Z`` (with ``key``, an extra column that must agree too), or None when they
    are more than half the rows (then computing on them would not pay for the gathering).

    Rows are compared bit for bit: the encoded values (codes, values, set indices, NaN for unknown) are all a
    metric reads of a row, so equal rows have equal distances to everything.

    >>> distinct_rows(np.array([[1.0, 2.0], [1.0, 2.0], [0.0, np.nan], [1.0, 2.0]]))
    Distinct(first=array([0, 2]), of=array([0, 0, 1, 0]))
    """
    n = len(Z)
    if n < 2:
        return None
    parts = [np.asarray(Z, dtype=np.float64)] + ([] if key is None else [np.asarray(key, np.float64)[:, None]])
    rows = np.ascontiguousarray(np.hstack(parts))
    rows[np.isnan(rows)] = np.nan  # one bit pattern for every unknown
    rows += 0.0  # -0.0 and 0.0 alike
    # a random projection first: rows with different projections differ, so most sets of distinct rows are
    # recognised without sorting whole rows
    hashed = rows @ np.random.default_rng(0).random(rows.shape[1]) if rows.shape[1] > 1 else rows[:, 0]
    if 2 * len(np.unique(hashed)) > n:
        return None
    _, first, of = np.unique(
        rows.view(np.dtype((np.void, rows.itemsize * rows.shape[1]))).ravel(), return_index=True, return_inverse=True
    )
    if 2 * len(first) > n:
        return None
    order = np.argsort(first)  # patterns in order of first appearance
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    return Distinct(first[order], rank[of.ravel()])


def stored_key(metric: Metric, ops: Operands) -> np.ndarray | None:
    """What besides its values tells two stored instances apart: their class, when the weights are one vector
    per class."""
    W = metric.weights_
    return ops.classes if W is not None and W.ndim == 2 and ops.classes is not None else None


def take_rows(ops: Operands, queries: Distinct | None, stored: Distinct | None) -> Operands:
    """The operands restricted to the first row of each distinct query (``queries``) and stored instance
    (``stored``), None keeping a side whole; the set tables stay whole (the indices still point into them)."""
    if queries is not None:
        ops = ops._replace(Zq=ops.Zq[queries.first])
    if stored is not None:
        classes = None if ops.classes is None else ops.classes[stored.first]
        ops = ops._replace(Zs=ops.Zs[stored.first], classes=classes, training=False)
    return ops


def chunks(metric: Metric, ops: Operands, *, reduced: bool = False, out: np.ndarray | None = None):
    """Yield ``(start, stop, block)``: the distances (``reduced``: the sums ``S``) of the queries ``start:stop``
    against every stored instance, ``block`` a view of ``out`` when given (filled in place).

    A metric outside the engine (``uses_engine`` False) gives each block by its ``_block``; for the others the
    block is the plan's product, its unknown-at-one fills and near-zero refinement, plus the direct terms.
    """
    Zq, Zs = ops.Zq, ops.Zs
    if not metric.uses_engine:
        metric._check_operands(Zq, Zs)
        step = chunk_rows(metric.working_memory, len(Zs), Zq.shape[1])
        for start in range(0, len(Zq), step):
            stop = min(start + step, len(Zq))
            block = metric._block(Zq[start:stop], Zs)
            if out is not None:
                out[start:stop] = block
                block = out[start:stop]
            yield start, stop, block
        return
    if metric._norm_order() is not None:
        yield from norm_chunks(metric, ops, out)
        return
    p = plan(metric, Zq, Zs, ops.classes, training=ops.training)
    step = chunk_rows(metric.working_memory, len(Zs), 0 if p.left is None else p.left.shape[1], ops.sets)
    for start in range(0, len(Zq), step):
        stop = min(start + step, len(Zq))
        S = bilinear_sums(p, start, stop, len(Zs), None if out is None else out[start:stop])
        for a, term in metric._direct_terms(Zq[start:stop], Zs, ops.sets):
            if p.U is not None:
                term *= p.U[start:stop, a][:, None]
            if p.V is not None:
                term *= p.V[:, a][None, :]
            S += term
        # refined sums are exact and the others above a positive bound: no negative rounding left to clip
        yield start, stop, (S if reduced else metric._finish(S, nonnegative=p.left is not None))


def norm_chunks(metric: Metric, ops: Operands, out: np.ndarray | None = None):
    """:func:`chunks` of a metric that is the ``r``-norm of its attribute differences (``_norm_order``): each
    block by :func:`norm_block`, its distances also its reduced sums (the metric's ``root_`` is 1)."""
    r = metric._norm_order()
    V = stored_weights(metric.weights_, len(ops.Zs), ops.classes)
    Vr = None if V is None else V ** (1.0 / r)  # v d^r = (v^(1/r) d)^r: the weights enter the differences
    step = chunk_rows(metric.working_memory, len(ops.Zs), ops.Zq.shape[1])
    for start in range(0, len(ops.Zq), step):
        stop = min(start + step, len(ops.Zq))
        block = norm_block(metric, ops.Zq[start:stop], ops.Zs, r, Vr, None if out is None else out[start:stop])
        yield start, stop, block


def norm_block(metric: Metric, Zq: np.ndarray, Zs: np.ndarray, r: float, Vr=None, out=None) -> np.ndarray:
    """``D = (sum_a (w_a d_a)^r)^(1/r)`` for the differences ``d_a`` of ``metric._differences`` and the
    weights ``w_a`` (``Vr``, (ns, m), the attribute weights to the power ``1/r``; None for ones), each pair
    in its own unit: with ``M = max_a w_a d_a``, ``D = M (sum_a (w_a d_a / M)^r)^(1/r)``. Every power then
    lies in [0, 1], the largest equal to 1, so the sum lies in [1, m] and neither over- nor underflows at any
    ``r`` and any scale of the data (the sum of ``d_a^r`` itself leaves the float range between distinct
    points for ``r`` of a few hundred). The differences are computed twice (once for ``M``), so the block
    holds three (nq, ns) arrays at a time, as :func:`chunk_rows` counts."""
    M = np.zeros((len(Zq), len(Zs))) if out is None else out
    M[:] = 0.0
    for a, d in metric._differences(Zq, Zs):
        if Vr is not None:
            d *= Vr[:, a]
        np.maximum(M, d, out=M)
    S = np.zeros_like(M)
    positive = M > 0
    for a, d in metric._differences(Zq, Zs):
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


def searchable(metric: Metric) -> bool:
    """Whether the metric's sums are the bilinear product of its plan alone (no direct terms), so that
    :func:`lazylib.search.search` can search them through the single-precision filter."""
    return metric.uses_engine and not metric._direct_attributes()


#: Queries whose distinct rows are searched together (:func:`nearest_groups`): the candidates of one such
#: span's distinct queries are held at once, then handed out per block of ``lazylib.search.QUERY_BLOCK``.
QUERY_SPAN = 8192


def nearest_groups(metric: Metric, ops: Operands, k: int, tie_tolerance: float):
    """Yield :class:`lazylib.search.Candidates` over blocks of queries: the groups of identical stored sides
    within ``tie_tolerance`` of each query's k-th smallest sum (``k`` already checked; the stored instances
    are the training data).

    Identical queries have identical candidates (a query's search does not depend on the others): within each
    span of ``QUERY_SPAN`` queries whose distinct rows are at most half of them (:func:`distinct_rows`), the
    distinct queries are searched (:func:`grouped_candidates`) and their candidates handed to every copy.
    """
    from lazylib import search

    nq = len(ops.Zq)
    for lo in range(0, nq, QUERY_SPAN):
        hi = min(lo + QUERY_SPAN, nq)
        part = ops._replace(Zq=ops.Zq[lo:hi])
        queries = distinct_rows(part.Zq)
        if queries is None:
            for block in grouped_candidates(metric, part, k, tie_tolerance):
                yield block._replace(start=block.start + lo, stop=block.stop + lo, rows=block.rows + lo)
            continue
        found = list(grouped_candidates(metric, take_rows(part, queries, None), k, tie_tolerance))
        rows, cols, sums = (np.concatenate([getattr(block, f) for block in found]) for f in ("rows", "cols", "sums"))
        count = np.bincount(rows, minlength=len(queries.first))
        first = np.concatenate(([0], np.cumsum(count)[:-1]))  # rows are sorted: each query's candidates follow
        for b0 in range(0, hi - lo, search.QUERY_BLOCK):
            b1 = min(b0 + search.QUERY_BLOCK, hi - lo)
            of = queries.of[b0:b1]
            take = count[of]
            offset = np.arange(take.sum()) - np.repeat(np.cumsum(take) - take, take)
            pick = np.repeat(first[of], take) + offset
            own = np.repeat(np.arange(b0, b1) + lo, take)
            yield search.Candidates(lo + b0, lo + b1, own, cols[pick], sums[pick], found[0].groups)


def grouped_candidates(metric: Metric, ops: Operands, k: int, tie_tolerance: float):
    """:func:`nearest_groups` for every query of ``ops``. A searchable metric goes through
    :func:`lazylib.search.search` on its grouped plan, one whose direct terms all square bilinear ones through
    :func:`bounded_groups`, the others through whole rows of :func:`chunks`. Stored instances are grouped by
    identical stored sides (the training data's, built once per fit, :func:`lazylib.search.find_groups`) or,
    for a metric whose stored side depends on the queries (overlap) and for whole rows, by identical rows
    (:func:`distinct_rows`, with the class where weights are per class); each group counts once per member."""
    from lazylib import search

    stored = None if metric._separable() and searchable(metric) else distinct_rows(ops.Zs, stored_key(metric, ops))
    groups = (
        search.Groups.identity(len(ops.Zs)) if stored is None else search.Groups.of_labels(stored.of, len(stored.first))
    )
    if searchable(metric):
        grouped = take_rows(ops, None, stored)
        p = plan(metric, grouped.Zq, grouped.Zs, grouped.classes, training=grouped.training)
        if p.left is not None:
            if stored is None:
                p, groups = search.group_plan(p)
            size = None if groups.trivial else groups.size
            for block in search.search(metric, p, k, tie_tolerance, size):
                yield search.Candidates(**block._asdict(), groups=groups)
            return
    if metric.uses_engine and ops.sets is None and metric._root_terms() is not None:
        groups = search.Groups.identity(len(ops.Zs))
        for start, stop, rows, cols, sums in bounded_groups(metric, ops, k, tie_tolerance):
            yield search.Candidates(start, stop, rows, cols, sums, groups)
        return
    size = None if groups.trivial else groups.size
    for start, stop, S in chunks(metric, take_rows(ops, None, stored), reduced=True):
        rows, cols, sums = search.select(S, k, tie_tolerance, start, size)
        yield search.Candidates(start, stop, rows, cols, sums, groups)


def nearest(candidates, k: int, tie_tolerance: float, *, leave_one_out: bool = False):
    """Yield :class:`lazylib.search.Nearest` from the :class:`lazylib.search.Candidates` of
    :func:`nearest_groups`: groups expanded to their members and, with ``leave_one_out`` (searched for
    ``k + 1``), each query's own instance removed and the tolerance of the k-th smallest applied again."""
    from lazylib import search

    for block in candidates:
        rows, cols, sums = block.groups.expand(block.rows, block.cols, block.sums)
        if leave_one_out:
            keep = cols != rows
            rows, cols, sums = search.within(
                rows[keep] - block.start, cols[keep], sums[keep], block.stop - block.start, k, tie_tolerance
            )
            rows = rows + block.start
        yield search.Nearest(block.start, block.stop, rows, cols, sums)


# ---------------------------------------------------------------------------------------------- bounded search
#: Relative margin of the lower bound of :func:`bounded_groups`: far above the rounding of its products (the
#: number of columns times 1e-16 of the terms that cancel), so that the computed bound stays a bound.
BOUND_MARGIN = 1e-9


def bounded_groups(metric: Metric, ops: Operands, k: int, tie_tolerance: float):
    """Yield ``(start, stop, rows, cols, sums)``: what :func:`lazylib.search.select` gives on whole rows of
    :func:`chunks`, for a metric whose direct terms are all squares ``t_a = r_a^2`` of non-negative bilinear
    terms (the printed IVDM and WVDM, ``Metric._root_terms``), without computing them for every pair.

    With the weights ``w_a = u_a(x) v_a(y)``, Cauchy-Schwarz gives ``sum_a w_a r_a^2 >= (sum_a w_a r_a)^2 /
    sum_a w_a``, and ``sum_a w_a r_a`` is one more matrix product. So per query the bound ``L = bilinear part +
    (sum_a w_a r_a)^2 / W`` (``W >= sum_a w_a``) lies below every sum; the exact sums of the k smallest bounds
    give ``tau``, at or above the k-th smallest sum; every pair within the tie tolerance of the k-th smallest
    sum has ``L <= tau + tolerance``, and only those pairs are computed exactly. Their sums are those of
    :func:`chunks` to the last bit (the same block, the same terms added in the same order), so the result is
    the whole-row one.
    """
    from lazylib import search

    Zq, Zs = ops.Zq, ops.Zs
    nq, ns = len(Zq), len(Zs)
    p = plan(metric, Zq, Zs, ops.classes, training=ops.training)
    roots = metric._root_terms()
    D = [a for a, _ in roots]
    U = None if p.U is None else p.U[:, D]
    V = None if p.V is None else p.V[:, D]
    u_max = np.ones(len(D)) if U is None else U.max(axis=0, initial=0.0)
    stored = _RootSide.of([att.root_half(Zs[:, a], "stored") for a, att in roots], V)
    v_max = stored.W.max(axis=0, initial=0.0)
    # the rounding margin of the root sums rides in the product: -M * (scale of the query + of the stored one)
    right = np.hstack([stored.product, np.ones((ns, 1)), -BOUND_MARGIN * (stored.weighted_alpha @ u_max)[:, None]])
    # the chunks of :func:`chunks` (the same products, so the same bits)
    step = chunk_rows(metric.working_memory, ns, 0 if p.left is None else p.left.shape[1])
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
        step = max(1, 2**20 // self.left.shape[1])
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
        size = self.pair_magnitude(rows[near], cols[near])
        keep = sums[near] <= factor * size
        near, size = near[keep], size[keep]
        if len(near):
            sums = sums.copy()
            exact = _exact_pairs(self.query, self.stored, rows[near], cols[near], self.U, self.V)
            sums[near] = np.where(exact <= SNAP * size, 0.0, exact)
        return sums


def plan(metric: Metric, Zq: np.ndarray, Zs: np.ndarray, classes, *, training: bool = False) -> Plan:
    """The bilinear product of a computation, set up once from the metric's declared terms: the weights ``U``
    (``_query_weights``) and ``V`` (the fitted ``weights_`` of each stored instance's class), both sides
    (``_bilinear``), their assembly into ``left`` and ``right`` and the unknown-at-one ``fill``.
    ``training``: the stored instances are the training data (``Zs`` is ``X_``), whose stored side is built
    once per fit (:func:`training_stored_side`)."""
    V = stored_weights(metric.weights_, len(Zs), classes)
    U = metric._query_weights(Zq)
    trained = training_stored_side(metric, V, U is None) if training and metric._separable() else None
    terms = metric._bilinear(Zq, Zs, stored=None if trained is None else trained.terms)
    if terms is None:
        return Plan(None, None, U, V, trained)
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
    )


def stored_weights(W: np.ndarray | None, n: int, classes) -> np.ndarray | None:
    """``V`` (n, m): the attribute weights of each stored instance (one global vector broadcast, or the vector
    of its class), None for all ones."""
    if W is None:
        return None
    if W.ndim == 1:
        return np.broadcast_to(W, (n, W.shape[0]))
    return W[classes]


def training_stored_side(metric: Metric, V, no_query_weights: bool) -> StoredSide:
    """The stored side of the training data, built once per fit and per weights (one per value of
    ``no_query_weights``, on which the assembled right-hand matrix depends) and kept in the metric's
    ``_training_sides`` (which setting ``weights_`` empties)."""
    side = metric._training_sides.get(no_query_weights)
    if side is None:
        terms = metric._training_stored_terms()
        right, tail_attributes = _assemble_right(terms, V, no_query_weights)
        side = metric._training_sides[no_query_weights] = StoredSide(terms, right, tail_attributes, V)
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
        return quantum(a if head is None else np.ravel(a, order="K")[:head])

    parts = [0 if W is None else q(W), q(side.alpha), q(side.psi)]
    if any(q is None for q in parts):
        return None
    w_max = 1.0 if W is None else float(np.abs(W).max(initial=0.0))
    return Dyadic(side.alpha.shape[1], *parts, w_max, float(np.abs(side.alpha).max(initial=0.0)), _column_max(side.psi))


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


def _column_max(a: np.ndarray) -> np.ndarray:
    return np.abs(a).max(axis=0, initial=0.0)


# ---------------------------------------------------------------------------------------------- the chunks
def chunk_rows(working_memory: float, n_stored: int, width: int, sets: SetSides | None = None) -> int:
    """Rows of queries per chunk so that one chunk's temporaries stay within ``working_memory`` MiB: against
    ``n_stored`` stored instances, with ``width`` columns of the query side, and for set-valued columns
    (``sets``) the member-pair temporaries of the kernel."""
    per_row = 8 * (n_stored * 3 + width)  # distances, a temporary, direct terms + the row's embedding
    if sets is not None:  # a set term's member-pair temporaries (one set column at a time: the largest)
        per_row += max((member_pair_bytes(q.sizes, len(s.members)) for q, s in zip(*sets) if q is not None), default=0)
    return max(1, int(working_memory * 2**20 // max(per_row, 1)))


# ---------------------------------------------------------------------------------------------- exactness
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


def _exact_pairs(q: Bilinear, s: Bilinear, I: np.ndarray, J: np.ndarray, U, V) -> np.ndarray:
    """The weighted sum ``S`` for the pairs ``(I[k], J[k])`` only (queries' terms ``q``, stored ``s``),
    squared differences taken directly."""
    out = np.empty(len(I))
    m = q.alpha.shape[1]
    sq = q.squared
    step = max(1, 2**22 // max(q.psi.shape[1], 1))
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
