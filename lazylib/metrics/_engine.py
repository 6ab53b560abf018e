"""The engine shared by every attribute-wise distance: what a metric's public methods call, and the map of its parts.

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
lower bound instead of whole rows (:func:`lazylib.metrics._bounded.bounded_groups`).

When the stored side of every bilinear term can be computed without the queries (all terms but the overlap,
whose value table spans both sides), the stored matrix for the training data is built once per fit and reused
by every later search against it (:class:`lazylib.metrics._plan.StoredSide`).

A metric only declares what it *is* (:class:`lazylib.metrics.Metric`: its attribute terms, weights and root);
the engine is the whole path of a computation, one module per role, in the order one query takes them:

1. this module: :class:`Operands`, the encoded queries and stored instances
   (:func:`lazylib.metrics._inputs.operands`), and :func:`pairwise`, :func:`chunks`, :func:`nearest_groups`,
   :func:`nearest`, what the public methods of a metric call;
2. :mod:`lazylib.metrics._distinct`: the distinct rows of each side, computed once and gathered
   (:func:`~lazylib.metrics._distinct.distinct_rows`);
3. :mod:`lazylib.metrics._plan`: the plan (:func:`~lazylib.metrics._plan.plan`): the weights ``U`` and ``V``,
   both sides of the bilinear terms assembled into ``left`` and ``right``, the unknown-at-one ``fill``; the
   training data's stored side built once (:class:`~lazylib.metrics._plan.StoredSide`); and the exactness
   decision (:attr:`Plan.exact <lazylib.metrics._plan.Plan.exact>`: sums that come out exact in any order);
4. :mod:`lazylib.metrics._chunks`: the chunks within ``working_memory``
   (:func:`~lazylib.metrics._chunks.chunk_rows`), the product of each chunk and the norms of any order;
5. :mod:`lazylib.metrics._refine`: the near-zero refinement (:func:`~lazylib.metrics._refine.refine_near_zero`,
   :meth:`Plan.refine <lazylib.metrics._plan.Plan.refine>`, :func:`~lazylib.metrics._refine.exact_pairs`)
   where rounding can matter (never for exact sums) and the accuracy it guarantees
   (:data:`~lazylib.metrics._refine.ACCURACY`);
6. :mod:`lazylib.metrics._bounded`: the search through a lower bound for metrics whose direct terms square
   bilinear ones.

A one-page overview of the engine, with a diagram from data to the vote: ``lazylib/metrics/README.md``.
"""

from __future__ import annotations

import numpy as np

from lazylib import search
from lazylib.metrics._bounded import bounded_groups
from lazylib.metrics._chunks import bilinear_sums, chunk_rows, norm_chunks
from lazylib.metrics._declaration import Declaration, Operands
from lazylib.metrics._distinct import distinct_rows, stored_key, take_rows
from lazylib.metrics._plan import plan


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
        for a, term in declared.direct_terms(Zq[start:stop], Zs, ops.sets):
            if p.U is not None:
                term *= p.U[start:stop, a][:, None]
            if p.V is not None:
                term *= p.V[:, a][None, :]
            S += term
        # refined sums are exact and the others above a positive bound: no negative rounding left to clip
        yield start, stop, (S if reduced else declared.finish(S, nonnegative=p.left is not None))


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


def grouped_candidates(declared: Declaration, ops: Operands, k: int, tie_tolerance: float):
    """:func:`nearest_groups` for every query of ``ops``. A searchable metric goes through
    :func:`lazylib.search.search` on its grouped plan, one whose direct terms all square bilinear ones through
    :func:`bounded_groups`, the others through whole rows of :func:`chunks`. Stored instances are grouped by
    identical stored sides (the training data's, built once per fit, :func:`lazylib.search.find_groups`) or,
    for a metric whose stored side depends on the queries (overlap) and for whole rows, by identical rows
    (:func:`distinct_rows`, with the class where weights are per class); each group counts once per member."""
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
            for block in search.search(p, k, tie_tolerance, size, working_memory=declared.working_memory, chunk=chunk):
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
