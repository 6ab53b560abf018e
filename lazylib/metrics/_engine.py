"""The engine shared by every attribute-wise distance: the computation from a metric's declaration to its sums.

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
by every later search against it (:class:`lazylib.metrics._plan.StoredSide`).

A metric only declares what it *is* (:class:`lazylib.metrics.Metric`: its attribute terms, weights and root),
once per fit, as one record (:class:`lazylib.metrics._declaration.Declaration`); the engine reads that record and
the operands of a computation (:class:`~lazylib.metrics._declaration.Operands`,
:func:`lazylib.metrics._inputs.operands`), never the metric. It is two modules, in the order one query takes
them:

1. :mod:`lazylib.metrics._plan`: the plan (:func:`~lazylib.metrics._plan.plan`): the weights ``U`` and ``V``,
   both sides of the bilinear terms assembled into ``left`` and ``right``, the unknown-at-one ``fill``; the
   training data's stored side built once (:class:`~lazylib.metrics._plan.StoredSide`); the exactness decision
   (:attr:`Plan.exact <lazylib.metrics._plan.Plan.exact>`: sums that come out exact in any order); and the
   near-zero refinement (:func:`~lazylib.metrics._plan.refine_near_zero`, :meth:`Plan.refine
   <lazylib.metrics._plan.Plan.refine>`, :func:`~lazylib.metrics._plan.exact_pairs`) where rounding can matter
   (never for exact sums), with the accuracy it guarantees (:data:`~lazylib.metrics._plan.ACCURACY`);
2. this module, the computation: the distinct rows of each side, computed once and gathered
   (:func:`distinct_rows`); the chunks within ``working_memory`` (:func:`chunk_rows`), the product of each chunk
   (:func:`bilinear_sums`) and the norms of any order (:func:`norm_chunks`); the search through a lower bound
   for metrics whose direct terms square bilinear ones (:func:`bounded_groups`); and the entry points the
   public methods of a metric call, :func:`pairwise`, :func:`chunks`, :func:`nearest_groups`, :func:`nearest`.

A one-page overview of the engine, with a diagram from data to the vote: ``lazylib/metrics/README.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from lazylib import search
from lazylib._threads import threads_for
from lazylib.metrics._declaration import Declaration, Operands, SetSides
from lazylib.metrics._plan import Plan, plan, refine_near_zero, stored_weights
from lazylib.metrics._sets import member_pair_bytes
from lazylib.metrics._tables import table_blocks


# ---------------------------------------------------------------------------------------------- distinct rows
class Distinct(NamedTuple):
    """Distinct rows of a matrix: ``first[g]`` the first row of pattern ``g`` (patterns in order of first
    appearance), ``of[i]`` the pattern of row ``i``."""

    first: np.ndarray
    of: np.ndarray


def distinct_rows(Z: np.ndarray, key: np.ndarray | None = None) -> Distinct | None:
    """:class:`Distinct` rows of ``Z`` (with ``key``, an extra column that must agree too), or None when they
    are more than half the rows (then computing on them would not pay for the gathering).

    Rows are compared bit for bit. The engine passes the rows as the metric reads them
    (:meth:`lazylib.metrics._declaration.Declaration.operand_rows`: the encoded codes, values, set indices and
    NaN for unknown, or a coarser form such as DVDM's ranges), so equal rows have equal distances to everything.

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


def stored_key(declared: Declaration, ops: Operands) -> np.ndarray | None:
    """What besides its values tells two stored instances apart: their class, when the weights are one vector
    per class."""
    W = declared.weights
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


# ---------------------------------------------------------------------------------------------- the entry points
def pairwise(declared: Declaration, ops: Operands) -> np.ndarray:
    """The distance matrix ``D`` (queries x stored instances): computed between the distinct queries and the
    distinct stored instances (:func:`distinct_rows`) when either side has at most half as many, and gathered;
    otherwise every chunk written in place."""
    queries = distinct_rows(declared.operand_rows(ops.Zq))
    stored = distinct_rows(declared.operand_rows(ops.Zs), stored_key(declared, ops))
    if queries is None and stored is None:
        out = np.empty((ops.Zq.shape[0], ops.Zs.shape[0]))
        for _ in chunks(declared, ops, out=out):
            pass
        return out
    D = pairwise(declared, take_rows(ops, queries, stored))
    if queries is not None:
        D = D[queries.of]
    return D if stored is None else D[:, stored.of]


def chunks(declared: Declaration, ops: Operands, *, reduced: bool = False, out: np.ndarray | None = None):
    """Yield ``(start, stop, block)``: the distances (``reduced``: the sums ``S``) of the queries ``start:stop``
    against every stored instance, ``block`` a view of ``out`` when given (filled in place).

    A metric outside the engine (its declaration's ``uses_engine`` False) gives each block by the declared
    ``block``; for the others the block is the plan's product, its unknown-at-one fills and near-zero
    refinement, plus the direct terms.
    """
    Zq, Zs = ops.Zq, ops.Zs
    if not declared.uses_engine:
        declared.check_operands(Zq, Zs)
        step = chunk_rows(declared.working_memory, len(Zs), Zq.shape[1])
        for start in range(0, len(Zq), step):
            stop = min(start + step, len(Zq))
            block = declared.block(Zq[start:stop], Zs)
            if out is not None:
                out[start:stop] = block
                block = out[start:stop]
            yield start, stop, block
        return
    if declared.norm_order is not None:
        yield from norm_chunks(declared, ops, out)
        return
    p = plan(declared, Zq, Zs, ops.classes, training=ops.training)
    step = chunk_rows(declared.working_memory, len(Zs), 0 if p.left is None else p.left.shape[1], ops.sets)
    for start in range(0, len(Zq), step):
        stop = min(start + step, len(Zq))
        S = bilinear_sums(p, start, stop, len(Zs), None if out is None else out[start:stop])
        add_direct(S, declared.direct_terms(Zq[start:stop], Zs, ops.sets, rows=True), p, start)
        # refined sums are exact and the others above a positive bound: no negative rounding left to clip
        yield start, stop, (S if reduced else declared.finish(S, nonnegative=p.left is not None))


#: Bytes of a block of the sums to which :func:`add_direct` adds a run of row tables (within a core's cache).
ROW_BLOCK_BYTES = 2**18


def add_direct(S: np.ndarray, parts, p: Plan, start: int) -> None:
    """Add the direct terms ``parts`` (``(a, term)`` of :meth:`Declaration.direct_terms
    <lazylib.metrics._declaration.Declaration.direct_terms>` with ``rows``), weighted by the plan's ``U`` (rows
    from ``start``) and ``V``, to the sums ``S`` in the order of the attributes: a whole matrix at once, a run of
    consecutive :class:`~lazylib.metrics._attributes.RowTable` a block of rows at a time, each block of ``S``
    taking every term of the run while it is in cache (the same operations on every entry, so the same bits;
    the run's tables, together at most the size of ``S``, are what it holds)."""
    run, held = [], 0
    for a, term in parts:
        if not isinstance(term, np.ndarray):
            if held + term.table.nbytes > S.nbytes:
                _add_rows(S, run, p, start)
                run, held = [], 0
            run.append((a, term))
            held += term.table.nbytes
            continue
        _add_rows(S, run, p, start)
        run, held = [], 0
        _weigh(term, p, a, start, start + len(S))
        S += term
    _add_rows(S, run, p, start)


def _weigh(term: np.ndarray, p: Plan, a: int, start: int, stop: int) -> None:
    """Multiply the terms of attribute ``a`` for the queries ``start:stop`` by their weights, in place."""
    if p.U is not None:
        term *= p.U[start:stop, a][:, None]
    if p.V is not None:
        term *= p.V[:, a][None, :]


def _add_rows(S: np.ndarray, run: list, p: Plan, start: int) -> None:
    """:func:`add_direct` for a run of row tables."""
    if not run:
        return
    step = max(1, int(ROW_BLOCK_BYTES // (8 * max(S.shape[1], 1))))
    for lo in range(0, len(S), step):
        hi = min(lo + step, len(S))
        for a, table in run:
            term = table.table.take(table.rows[lo:hi], axis=0)
            _weigh(term, p, a, start + lo, start + hi)
            S[lo:hi] += term


#: Queries whose distinct rows are searched together (:func:`nearest_groups`): the candidates of one such
#: span's distinct queries are held at once, then handed out per block of ``lazylib.search.QUERY_BLOCK``.
QUERY_SPAN = 8192


def nearest_groups(declared: Declaration, ops: Operands, k: int, tie_tolerance: float):
    """Yield :class:`lazylib.search.Candidates` over blocks of queries: the groups of identical stored sides
    within ``tie_tolerance`` of each query's k-th smallest sum (``k`` already checked; the stored instances
    are the training data).

    Identical queries have identical candidates (a query's search does not depend on the others): within each
    span of ``QUERY_SPAN`` queries whose distinct rows are at most half of them (:func:`distinct_rows`), the
    distinct queries are searched (:func:`grouped_candidates`) and their candidates handed to every copy.
    """
    nq = len(ops.Zq)
    for lo in range(0, nq, QUERY_SPAN):
        hi = min(lo + QUERY_SPAN, nq)
        part = ops._replace(Zq=ops.Zq[lo:hi])
        queries = distinct_rows(declared.operand_rows(part.Zq))
        if queries is None:
            for block in grouped_candidates(declared, part, k, tie_tolerance):
                yield block._replace(start=block.start + lo, stop=block.stop + lo, rows=block.rows + lo)
            continue
        found = list(grouped_candidates(declared, take_rows(part, queries, None), k, tie_tolerance))
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


def grouped_candidates(
    declared: Declaration, ops: Operands, k: int, tie_tolerance: float, first: int = 0, tables: bool = True
):
    """:func:`nearest_groups` for every query of ``ops`` (from query ``first``, a block's first, on). Data of few
    codes per attribute under a searchable metric go through its tables (``tables``: unless they handed the
    blocks from ``first`` on to the rest of the engine)
    (:func:`lazylib.metrics._tables.table_blocks`: the same blocks as the search they replace); a searchable
    metric otherwise goes through :func:`lazylib.search.search` on its grouped plan, one whose direct terms all
    square bilinear ones through :func:`bounded_groups`, the others through whole rows of :func:`chunks`. Stored
    instances are grouped by identical stored sides (the training data's, built once per fit,
    :func:`lazylib.search.find_groups`) or, for a metric whose stored side depends on the queries (overlap) and
    for whole rows, by identical rows (:func:`distinct_rows`, with the class where weights are per class); each
    group counts once per member."""
    if declared.searchable and tables:
        blocks = table_blocks(
            declared,
            ops,
            k,
            tie_tolerance,
            lambda start: grouped_candidates(declared, ops, k, tie_tolerance, start, tables=False),
        )
        if blocks is not None:
            yield from blocks
            return
    stored = (
        None
        if declared.separable and declared.searchable
        else distinct_rows(declared.operand_rows(ops.Zs), stored_key(declared, ops))
    )
    groups = (
        search.Groups.identity(len(ops.Zs)) if stored is None else search.Groups.of_labels(stored.of, len(stored.first))
    )
    if declared.searchable:
        grouped = take_rows(ops, None, stored)
        p = plan(declared, grouped.Zq, grouped.Zs, grouped.classes, training=grouped.training)
        if p.left is not None:
            if stored is None:
                p, groups = search.group_plan(p)
            size = None if groups.trivial else groups.size
            chunk = chunk_rows(declared.working_memory, p.right.shape[0], p.left.shape[1])
            found = search.search(
                p, k, tie_tolerance, size, working_memory=declared.working_memory, chunk=chunk, first=first
            )
            for block in found:
                yield search.Candidates(**block._asdict(), groups=groups)
            return
    if declared.uses_engine and ops.sets is None and declared.root_terms is not None:
        groups = search.Groups.identity(len(ops.Zs))
        for start, stop, rows, cols, sums in bounded_groups(declared, ops, k, tie_tolerance):
            yield search.Candidates(start, stop, rows, cols, sums, groups)
        return
    size = None if groups.trivial else groups.size
    for start, stop, S in chunks(declared, take_rows(ops, None, stored), reduced=True):
        rows, cols, sums = search.select(S, k, tie_tolerance, start, size)
        yield search.Candidates(start, stop, rows, cols, sums, groups)


def nearest(candidates, k: int, tie_tolerance: float, *, leave_one_out: bool = False):
    """Yield :class:`lazylib.search.Nearest` from the :class:`lazylib.search.Candidates` of
    :func:`nearest_groups`: groups expanded to their members and, with ``leave_one_out`` (searched for
    ``k + 1``), each query's own instance removed and the tolerance of the k-th smallest applied again."""
    for block in candidates:
        rows, cols, sums = block.groups.expand(block.rows, block.cols, block.sums)
        if leave_one_out:
            keep = cols != rows
            rows, cols, sums = search.within(
                rows[keep] - block.start, cols[keep], sums[keep], block.stop - block.start, k, tie_tolerance
            )
            rows = rows + block.start
        yield search.Nearest(block.start, block.stop, rows, cols, sums)
