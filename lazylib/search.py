"""Selection of the nearest stored instances and their ties, public: what every vote among neighbours uses.

A search yields, per query, the stored instances whose sum ``S`` (the distance before its root) is within the
tie tolerance of the query's k-th smallest, as ``(rows, cols, sums)`` sorted by row, then sum, then column
(:meth:`lazylib.metrics.Metric.nearest_chunks`). These helpers select such pairs from a matrix
(:func:`select`), narrow candidate pairs down to them (:func:`within`), locate each row's k-th smallest
(:func:`kth_position`, :func:`row_starts`), and count groups of identical stored instances once
(:class:`Groups`). The relative tie rule is :func:`tolerance`.

>>> import numpy as np
>>> S = np.array([[3.0, 1.0, 1.0, 2.0]])
>>> rows, cols, sums = select(S, k=1, tie_tolerance=1e-9)
>>> cols.tolist(), sums.tolist()
([1, 2], [1.0, 1.0])

Exact k-nearest-neighbour search over a metric's training data.

A search needs, for each query, the stored instances whose sum ``S`` (the distance before its root) lies within
the tie tolerance of the query's k-th smallest: the k nearest and everything tied with the k-th. Computing the
whole row of ``S`` in double precision and scanning it costs more in memory traffic than in arithmetic, so the
bilinear metrics (``S = left @ right.T``, see :mod:`lazylib.metrics._engine`) search in two steps:

1. **Filter in single precision.** ``S32 = left32 @ right32.T`` for a block of queries against a tile of stored
   instances that fits in cache. A floating-point dot product of ``w`` terms, with the rounding of its inputs,
   is off by at most ``(w + 2) * u * sum_k |left_k| |right_k|`` to first order (``u = 2**-24``; we take 1.01
   times that), and ``sum_k |left_k| |right_k| <= |left| . max_j |right_j|`` (column maxima over the stored
   instances): this gives each query a bound ``B`` with ``|S32 - S| <= B`` for every stored instance. If
   ``K32`` is the k-th smallest ``S32`` of a query, the exact k-th smallest ``K`` is within ``B`` of it, so
   every stored instance within the tolerance of ``K`` has ``S32 <= K32 + 2B + tolerance``: only those are
   kept. The bound is small because the embeddings are centred on their training means (the terms that
   cancel in ``||a||^2 + ||b||^2 - 2 a.b`` stay small) and because stored instances without distance-one
   unknowns skip the columns that only serve those (two parts, each with its own width).
2. **Decide in double precision.** The kept pairs (a handful per query, or the tied ones) get their sums again
   in double precision (near-zero sums from direct differences, as in ``pairwise``), and the selection is made
   on those sums.

The result is the selection :func:`select` makes on the double-precision matrix, up to the rounding of a
double-precision sum.

**Identical stored instances.** Stored instances whose whole stored side is identical (every embedding, weight
and unknown-value flag; e.g. DVDM's discretised ranges, where 58,000 shuttle instances have 114 distinct
stored sides) have identical sums against every query. When they are at most half the stored instances, the
search runs over one representative per group, with the group sizes as multiplicities in the k-th smallest
sum (:class:`Groups`); callers count tied neighbours by class from the groups instead of listing every
(query, stored instance) pair, so massive ties cost no more than the distinct stored sides. A training set
that fits one tile is scanned in double precision directly. Data on scales beyond single precision, or ties so
massive that the kept pairs would exceed the metric's ``working_memory``, fall back to whole rows in double
precision, so memory stays bounded either way.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import NamedTuple

import numpy as np

from lazylib._threads import threads_for
from lazylib._validation import Choice, Integer, Real, check

#: The public selection helpers; ``find_groups``, ``group_plan``, ``search``, ``exact_sums`` and the single-precision
#: parts are the engine's own (used by :mod:`lazylib.metrics`), documented in the module docstring above.
__all__ = ["Groups", "kth_position", "kth_smallest", "row_starts", "select", "tolerance", "within"]

#: Unit roundoff of single precision.
UNIT_ROUNDOFF = 2.0**-24
#: Queries per block, and stored instances per tile: a (512, 2048) single-precision tile is 4 MiB.
QUERY_BLOCK = 512
STORED_BLOCK = 2048
#: Bytes per kept pair (row, column, sum) when bounding the memory of the filter.
PAIR_BYTES = 24


#: The tie rules among neighbours at the k-th smallest distance (described in :mod:`lazylib.neighbors`, which
#: decides them; every vote among nearest neighbours in lazylib takes one of them).
TIE_RULES = ("all", "first", "random")

#: Default relative tolerance within which two sums (distances before their root) or two vote totals count as
#: tied: BLAS can round one distance differently from an identical one, and sums of the same votes in another
#: order can differ in the last bits. The one default of every ``tie_tolerance`` in lazylib.
TIE_TOLERANCE = 1e-9


#: The constraints of the public kernels' scalar parameters (built once: the kernels run once per block).
_K = Integer(low=1)
_COUNT = Integer(low=0)
_TIE = Real(0, 1, open_high=True)
_FLOOR = Real(low=0)


def _checked_k(k) -> int:
    """``k``, a whole number of neighbours >= 1 (a Python int passes without the general check's cost)."""
    return k if type(k) is int and k >= 1 else check("k", k, _K)


def _checked_tie_tolerance(tie_tolerance) -> float:
    """``tie_tolerance``, a finite number in [0, 1) (a Python float passes without the general check's cost)."""
    if type(tie_tolerance) is float and 0.0 <= tie_tolerance < 1.0:
        return tie_tolerance
    return check("tie_tolerance", tie_tolerance, _TIE)


def _checked_count(name: str, value) -> int:
    """A count (``n``, ``row_offset``): a whole number >= 0."""
    return value if type(value) is int and value >= 0 else check(name, value, _COUNT)


def _refuse_short_rows(totals: np.ndarray, k: int, what: str) -> None:
    """A ValueError naming the first row whose candidates (``totals``, counted with their sizes) are fewer than
    ``k``: its k-th smallest would be read from the next row."""
    short = np.flatnonzero(totals < k)
    if short.size:
        raise ValueError(
            f"k must be at most the {what} of every row, got k = {k} where row {int(short[0])} has {totals[short[0]]:g}"
        )


def check_ties(ties: str) -> str:
    """The tie rule ``ties``, checked to be one of :data:`TIE_RULES` (ValueError otherwise)."""
    return check("ties", ties, Choice(TIE_RULES))


def tolerance(kth: np.ndarray, tie_tolerance: float, floor: float = 0.0) -> np.ndarray:
    """Sums within this of the k-th smallest count as tied with it: relative to the k-th smallest itself, so
    the rule does not change when the data are rescaled (``floor``: absolute below it, for callers whose sums
    have a known scale). Sums near zero are recomputed from direct differences (identical instances are at
    exactly 0, see :data:`lazylib.metrics._plan.SNAP`), so a relative tolerance is also right at 0."""
    tie_tolerance = _checked_tie_tolerance(tie_tolerance)
    if not (type(floor) is float and 0.0 <= floor < np.inf):
        floor = check("floor", floor, _FLOOR)
    return tie_tolerance * np.maximum(floor, np.abs(kth))


def select(S: np.ndarray, k: int, tie_tolerance: float, row_offset: int = 0, size: np.ndarray | None = None):
    """In each row of ``S``, the columns whose sum is within the tolerance of the row's k-th smallest; with
    ``size``, column ``j`` stands for ``size[j]`` stored instances in the count of the k smallest.

    Returns ``(rows, cols, sums)`` sorted by row, then sum, then column; ``rows`` start at ``row_offset``.
    """
    row_offset = _checked_count("row_offset", row_offset)
    n, ns = S.shape
    kth = kth_smallest(S, k, size)
    flat = np.flatnonzero(S <= (kth + tolerance(kth, tie_tolerance))[:, None])
    rows, cols = np.divmod(flat, ns)
    rows, cols, sums = within(rows, cols, S.reshape(-1)[flat], n, k, tie_tolerance, size)
    return rows + row_offset, cols, sums


def kth_smallest(S: np.ndarray, k: int, size: np.ndarray | None = None) -> np.ndarray:
    """The k-th smallest of each row of ``S`` (column ``j`` counted ``size[j]`` times)."""
    k = _checked_k(k)
    n, ns = S.shape
    if k > (ns if size is None else size.sum()):
        raise ValueError(
            f"k must be at most the number of stored instances ({ns if size is None else size.sum()}), got k = {k}"
        )
    if size is None:
        if k == 1:
            return S.min(axis=1)
        if ns >= BOUND_STRIDE * BOUND_SAMPLE * k:
            return _kth_below_bound(S, k)
        return np.partition(S, k - 1, axis=1)[:, k - 1]
    if k <= size.min(initial=k):  # every column counts at least k times: the smallest is the k-th
        return S.min(axis=1)
    # every column counts at least once, so the k-th smallest instance lies among the k smallest columns
    width = min(k, ns)
    cols = np.argpartition(S, width - 1, axis=1)[:, :width] if width < ns else np.broadcast_to(np.arange(ns), S.shape)
    values = np.take_along_axis(S, cols, axis=1)
    order = np.argsort(values, axis=1, kind="stable")
    values, cols = np.take_along_axis(values, order, axis=1), np.take_along_axis(cols, order, axis=1)
    position = (np.cumsum(size[cols], axis=1) < k).sum(axis=1)
    return values[np.arange(n), np.minimum(position, width - 1)]


#: Rows of at least ``BOUND_STRIDE * BOUND_SAMPLE * k`` entries have their k-th smallest found below a bound
#: (:func:`_kth_below_bound`): the k-th smallest of every ``BOUND_STRIDE``-th column, the sample at least
#: ``BOUND_SAMPLE * k`` columns wide. One fold of FD on shuttle's 16,155 training rows (k up to 76, one BLAS
#: thread): 8.7 -> 6.9 s, the rows' partitions 2.9 s of it before (issue #52 item 4).
BOUND_STRIDE = 8
BOUND_SAMPLE = 4
#: Candidates a row may hold below its bound, in multiples of ``k * BOUND_STRIDE`` (about what a sample drawn
#: without regard to the distances leaves), at most a quarter of the row; a row with more (many ties at the
#: bound) is partitioned whole.
BOUND_CANDIDATES = 8


def _kth_below_bound(S: np.ndarray, k: int) -> np.ndarray:
    """The k-th smallest of each row of ``S``, found among the entries at or below an upper bound: the k-th
    smallest of a strided sample of the row's columns (k of its entries are at or below it, so the row's k
    smallest are too). Those few entries are partitioned instead of the whole row (about 8 ns an entry);
    the same values as partitioning the row (a row with fewer than k entries below its bound, where the sample
    holds NaN, or with too many, is partitioned whole)."""
    n, ns = S.shape
    bound = np.partition(np.ascontiguousarray(S[:, ::BOUND_STRIDE]), k - 1, axis=1)[:, k - 1]
    flat = np.flatnonzero(S <= bound[:, None])
    rows = flat // ns
    counts = np.bincount(rows, minlength=n)
    out = np.empty(n, dtype=S.dtype)
    whole = (counts < k) | (counts > min(BOUND_CANDIDATES * BOUND_STRIDE * k, ns // 4))
    if whole.any():
        out[whole] = np.partition(S[whole], k - 1, axis=1)[:, k - 1]
        keep = ~whole[rows]
        flat, rows = flat[keep], rows[keep]
        counts[whole] = 0
    if len(flat):
        starts = np.cumsum(counts) - counts
        below = np.full((n, int(counts.max())), np.inf, dtype=S.dtype)
        below[rows, np.arange(len(flat)) - starts[rows]] = S.reshape(-1)[flat]
        out[~whole] = np.partition(below, k - 1, axis=1)[~whole, k - 1]
    return out


def kth_position(rows: np.ndarray, size: np.ndarray, starts: np.ndarray, n: int, k: int) -> np.ndarray:
    """Position of each row's k-th smallest in sorted candidates where entry ``i`` counts ``size[i]`` times
    (every row holding at least k in all)."""
    n, k = _checked_count("n", n), _checked_k(k)
    _refuse_out_of_range(rows, n)
    _refuse_short_rows(np.bincount(rows, weights=size, minlength=n), k, "weighted candidates")
    total = np.cumsum(size)
    before = np.concatenate(([0], total))[starts][rows]  # counted in earlier rows
    return starts + np.bincount(rows[total - before < k], minlength=n)


def row_starts(rows: np.ndarray, n: int) -> np.ndarray:
    """Where each of the ``n`` rows begins in sorted row indices ``rows`` (every row present)."""
    n = _checked_count("n", n)
    _refuse_out_of_range(rows, n)
    return np.concatenate(([0], np.cumsum(np.bincount(rows, minlength=n))[:-1]))


def _refuse_out_of_range(rows: np.ndarray, n: int) -> None:
    """A ValueError for row indices outside ``[0, n)`` (``bincount`` would give more rows than ``n``)."""
    if len(rows) and (rows.min() < 0 or rows.max() >= n):
        raise ValueError(f"n must exceed every row index, got n = {n} for rows {int(rows.min())}..{int(rows.max())}")


def within(rows, cols, sums, n: int, k: int, tie_tolerance: float, size: np.ndarray | None = None):
    """From candidate pairs holding at least the k smallest sums of each of the ``n`` rows, those within the
    tolerance of the k-th smallest; sorted by row, then sum, then column. ``size``: as in :func:`select`."""
    k = _checked_k(k)
    order = np.lexsort((cols, sums, rows))
    rows, cols, sums = rows[order], cols[order], sums[order]
    starts = row_starts(rows, n)
    if size is None:
        _refuse_short_rows(np.bincount(rows, minlength=n), k, "candidates")
    kth = sums[starts + k - 1] if size is None else sums[kth_position(rows, size[cols], starts, n, k)]
    keep = sums <= (kth + tolerance(kth, tie_tolerance))[rows]
    return rows[keep], cols[keep], sums[keep]


class Nearest(NamedTuple):
    """What :meth:`lazylib.metrics.Metric.nearest_chunks` yields for the queries ``start:stop``: the candidate
    pairs ``(rows, cols, sums)`` (query index from 0 for the first query, stored index, sum ``S``), sorted by row,
    then sum, then column, holding each row's k nearest and every stored instance tied with the k-th."""

    start: int
    stop: int
    rows: np.ndarray
    cols: np.ndarray
    sums: np.ndarray


class Candidates(NamedTuple):
    """What :meth:`lazylib.metrics.Metric.nearest_groups` yields for the queries ``start:stop``: as
    :class:`Nearest`, but ``cols`` index the groups of identical stored instances of ``groups`` (each group's
    sum counted once per member when the k-th smallest is located)."""

    start: int
    stop: int
    rows: np.ndarray
    cols: np.ndarray
    sums: np.ndarray
    groups: "Groups"


@dataclass(frozen=True)
class Groups:
    """Stored instances grouped by identical stored sides: ``of[j]`` is the group of stored instance ``j``,
    ``size[g]`` the number of its members, ``members[ptr[g]:ptr[g + 1]]`` their indices in increasing order."""

    of: np.ndarray
    size: np.ndarray
    members: np.ndarray
    ptr: np.ndarray

    @classmethod
    def identity(cls, ns: int) -> "Groups":
        every = np.arange(ns)
        return cls(every, np.ones(ns, np.intp), every, np.arange(ns + 1))

    @classmethod
    def of_labels(cls, of: np.ndarray, n_groups: int) -> "Groups":
        size = np.bincount(of, minlength=n_groups)
        return cls(of, size, np.argsort(of, kind="stable"), np.concatenate(([0], np.cumsum(size))))

    @property
    def trivial(self) -> bool:
        return len(self.size) == len(self.of)

    def class_counts(self, y: np.ndarray, C: int) -> np.ndarray:
        """(n_groups, C): members of each class in each group."""
        return np.bincount(self.of * C + y, minlength=len(self.size) * C).reshape(len(self.size), C)

    def expand(self, rows, groups, sums, limit: int | None = None):
        """Pairs of queries and stored instances from pairs of queries and groups (each group's first ``limit``
        members only, if given), sorted by row, then sum, then stored index."""
        if self.trivial:
            return rows, groups, sums
        take = self.size[groups] if limit is None else np.minimum(self.size[groups], limit)
        pair = np.repeat(np.arange(len(rows)), take)
        offset = np.arange(len(pair)) - np.repeat(np.cumsum(take) - take, take)
        cols = self.members[self.ptr[groups][pair] + offset]
        rows, sums = rows[pair], sums[pair]
        order = np.lexsort((cols, sums, rows))
        return rows[order], cols[order], sums[order]


class Grouped(NamedTuple):
    """Groups of identical stored sides: one stored instance per group (``representatives``), the
    :class:`Groups`, and the stored side of the representatives (``stored``, a
    :class:`lazylib.metrics._plan.StoredSide`)."""

    representatives: np.ndarray
    groups: Groups
    stored: object


def find_groups(stored):
    """:class:`Grouped` ``(representatives, groups, stored)`` for the training data's stored side
    ``stored`` (:class:`lazylib.metrics._plan.StoredSide`), or None when grouping identical stored sides would
    not halve the stored instances."""
    s, ns = stored.terms, stored.right.shape[0]
    key = [stored.right, s.alpha, s.psi]
    key += [part for part in (s.unknown_one, stored.V) if part is not None]
    # a random projection first: rows with different projections differ, so most sets of distinct rows
    # are recognised without comparing whole rows
    rng = np.random.default_rng(0)
    hashed = sum(np.asarray(part, np.float64) @ rng.random(part.shape[1]) for part in key)
    if 2 * len(np.unique(hashed)) > ns:
        return None
    key = np.ascontiguousarray(np.hstack([np.asarray(part, np.float64) for part in key]))
    _, rep, of = np.unique(
        key.view(np.dtype((np.void, key.dtype.itemsize * key.shape[1]))).ravel(), return_index=True, return_inverse=True
    )
    if 2 * len(rep) > ns:
        return None
    pick = lambda a: None if a is None else a[rep]
    terms = replace(s, alpha=s.alpha[rep], psi=s.psi[rep], unknown_one=pick(s.unknown_one))
    return Grouped(
        rep,
        Groups.of_labels(of.ravel(), len(rep)),
        replace(stored, terms=terms, right=stored.right[rep], V=pick(stored.V)),
    )


def group_plan(plan):
    """The plan restricted to one representative of each group of identical stored sides, with the
    :class:`Groups`; ``(plan, identity groups)`` when grouping would not halve the stored instances or the
    stored side is not the training data's. Grouping is computed once per fitted stored side."""
    ns = plan.right.shape[0]
    found = None if plan.training is None else plan.training.grouped
    if found is None:
        return plan, Groups.identity(ns)
    sub = replace(
        plan,
        stored=found.stored.terms,
        V=found.stored.V,
        right=found.stored.right,
        fill=None if plan.fill is None else plan.fill[found.representatives],
        training=found.stored,
    )
    return sub, found.groups


def search(
    plan,
    k: int,
    tie_tolerance: float,
    size: np.ndarray | None = None,
    *,
    working_memory: float,
    chunk: int,
    first: int = 0,
):
    """Yield :class:`Nearest` ``(start, stop, rows, cols, sums)`` over blocks of queries: for each query, the
    stored instances within the tolerance of its k-th smallest sum (see :func:`select`; ``size``: the
    multiplicity of each stored row of ``plan``), for a metric whose sums are the bilinear product of ``plan``
    alone (no direct terms). ``working_memory``: the metric's bound, in MiB, on the temporaries of a block
    (the filter's); ``chunk``: the queries per chunk of a scan of whole rows within it
    (:func:`lazylib.metrics._engine.chunk_rows` of the plan's widths). ``first``: the first query searched (a
    multiple of :func:`filter_step`: the blocks before it were searched otherwise,
    :func:`lazylib.metrics._tables.table_blocks`)."""
    nq, ns = plan.left.shape[0], plan.right.shape[0]
    if ns <= STORED_BLOCK:  # a single tile: scanning it in double precision costs no more than the filter
        yield from _scan_rows(plan, 0, nq, k, tie_tolerance, size, chunk)
        return
    single = None  # the single-precision side, built when the filter is first needed
    filtering = True
    k_filter = min(k, ns)  # with multiplicities, the k-th smallest row bounds the k-th smallest instance
    step = filter_step(plan, working_memory)
    cap = max(int(working_memory * 2**20 // PAIR_BYTES), k_filter * step)
    for start in range(first, nq, step):
        stop = min(start + step, nq)
        kept = None
        if filtering:
            single = _single_precision(plan) if single is None else single
            filtering = single is not None
            kept = _filter_block(plan, single, start, stop, k_filter, tie_tolerance, cap) if filtering else None
        if kept is None:  # scales out of single precision, or too many ties: scan rows from here on
            filtering = False
            yield from _scan_rows(plan, start, stop, k, tie_tolerance, size, chunk)
            continue
        yield kept_nearest(plan, start, stop, *kept, k, tie_tolerance, size)


def kept_nearest(plan, start: int, stop: int, rows, cols, k: int, tie_tolerance: float, size=None) -> Nearest:
    """Step 2 of the module docstring for the queries ``start:stop``: the :class:`Nearest` of the kept pairs
    ``(rows, cols)`` (rows from 0; a superset of the pairs within the tolerance of each query's k-th smallest
    sum and of its k smallest), decided on their double-precision sums (pruned before their near-zero
    refinement)."""
    sums = product_sums(plan, rows + start, cols)
    rows, cols, sums = _prune(plan, start, rows, cols, sums, stop - start, k, tie_tolerance, size)
    sums = plan.refine(rows + start, cols, sums)
    rows, cols, sums = within(rows, cols, sums, stop - start, k, tie_tolerance, size)
    return Nearest(start, stop, rows + start, cols, sums)


def filter_step(plan, working_memory: float) -> int:
    """Queries per block of :func:`search`: within ``working_memory`` (a row: its tile of float32 sums, their
    copy, its query side; issue #53), at most :data:`QUERY_BLOCK`."""
    return filter_rows(plan.left.shape[1], working_memory)


def filter_rows(width: int, working_memory: float) -> int:
    """:func:`filter_step` of a plan whose query side is ``width`` columns wide (the fewer, the more rows, up to
    :data:`QUERY_BLOCK`)."""
    return int(min(QUERY_BLOCK, max(1, working_memory * 2**20 // (8 * STORED_BLOCK + 12 * width))))


#: How far the sums :meth:`~lazylib.metrics._plan.Plan.refine` returns can lie from the double-precision products
#: it starts from, in units of the plan's ``rounding`` times the size of the terms: the product is within one
#: unit of the exact sum, the direct differences within another, and a snapped sum within ``SNAP`` of the size
#: (:data:`lazylib.metrics._plan.SNAP`, far below a unit); four units leave room to spare.
REFINE_UNITS = 4.0


def _prune(plan, start: int, rows, cols, sums, n: int, k: int, tie_tolerance: float, size=None):
    """The candidate pairs that can still be within the tolerance of their query's k-th smallest once refined,
    decided on the double-precision products ``sums`` before the costlier near-zero refinement.

    A refined sum lies within ``e = REFINE_UNITS * rounding * magnitude`` of its product (per query, the
    bound of :attr:`~lazylib.metrics._plan.Plan.magnitude`), so the refined k-th smallest is at most ``U``, the
    k-th smallest of ``sums + e``; a pair with ``sums - e > U + tolerance(U)`` lies beyond the refined k-th
    smallest's tolerance (``x + tolerance(x)`` grows with ``x``) and :func:`within` would drop it, while every
    pair it keeps, the k smallest among them, stays. So the selection is the one without this step, bit for
    bit; on dense data (shuttle: 60 candidates per query from the single-precision filter) most of the
    refinement is saved."""
    if not len(rows):
        return rows, cols, sums
    e = REFINE_UNITS * plan.rounding * plan.magnitude[rows + start]
    if not np.all(np.isfinite(e)):
        return rows, cols, sums
    upper = sums + e
    order = np.lexsort((upper, rows))
    starts = row_starts(rows[order], n)
    if size is None:
        _refuse_short_rows(np.bincount(rows, minlength=n), k, "candidates")
        kth = upper[order][starts + k - 1]
    else:
        kth = upper[order][kth_position(rows[order], size[cols[order]], starts, n, k)]
    keep = sums - e <= (kth + tolerance(kth, tie_tolerance))[rows]
    return rows[keep], cols[keep], sums[keep]


def _scan_rows(plan, start: int, stop: int, k: int, tie_tolerance: float, size, chunk: int):
    """:func:`search` for the queries ``start:stop`` by whole rows in double precision, ``chunk`` rows at a time
    (bounded by the metric's ``working_memory``): the same two steps as the filter, with the rounding bound of
    double precision. The kept pairs get their sums from :func:`exact_sums` (near-zero sums from direct
    differences), so a query's sums do not depend on the other queries of its block."""
    step = max(1, chunk)
    right_max = np.abs(plan.right).max(axis=0, initial=0.0)
    fill_max = None if plan.unknown_one is None else np.abs(plan.fill).max(axis=0, initial=0.0)
    for lo in range(start, stop, step):
        hi = min(lo + step, stop)
        S = _exact_rows(plan, lo, hi)
        width = plan.left.shape[1] + (0 if fill_max is None else len(fill_max)) + 2
        magnitude = np.abs(plan.left[lo:hi]) @ right_max
        if fill_max is not None:
            magnitude += np.abs(plan.fill_coefficients(np.arange(lo, hi))) @ fill_max
        bound = 1.01 * width * 2.0**-53 * magnitude + 1e-300
        kth = kth_smallest(S, k, size)
        limit = kth + 2.0 * bound + tolerance(np.abs(kth) + bound, tie_tolerance)
        rows, cols = np.nonzero(S <= limit[:, None])
        sums = exact_sums(plan, rows + lo, cols)
        rows, cols, sums = within(rows, cols, sums, hi - lo, k, tie_tolerance, size)
        yield Nearest(lo, hi, rows + lo, cols, sums)


def exact_sums(plan, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """Double-precision sums ``S[rows[i], cols[i]]`` of the plan's product, with the unknown-value fills; sums
    near zero are taken from direct differences, as :meth:`~lazylib.metrics.Metric.pairwise` does."""
    return plan.refine(rows, cols, product_sums(plan, rows, cols))


def product_sums(plan, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """The sums ``S[rows[i], cols[i]]`` of the plan's product in double precision, with the unknown-value fills,
    before the near-zero refinement of :func:`exact_sums`."""
    out = np.empty(len(rows))
    step = plan.pair_step
    for lo in range(0, len(rows), step):
        r, c = rows[lo : lo + step], cols[lo : lo + step]
        part = np.einsum("ij,ij->i", plan.left[r], plan.right[c])
        if plan.unknown_one is not None:
            part += np.einsum("ij,ij->i", plan.fill_coefficients(r), plan.fill[c])
        out[lo : lo + step] = part
    return out


def _exact_rows(plan, lo: int, hi: int) -> np.ndarray:
    with threads_for((hi - lo) * plan.right.shape[0] * plan.right.shape[1]):  # the fills' product too
        S = plan.left[lo:hi] @ plan.right.T
        plan.add_fills(S, lo, hi)
    return S


@dataclass(frozen=True)
class SinglePart:
    """Stored instances ``cols`` with their first ``width`` columns of the product (and the fills appended for
    queries with distance-one unknowns), in single precision (``right32``, None beyond its range), and the
    column maxima of their absolute values that the error bound needs (``right_max``)."""

    cols: np.ndarray
    width: int
    right_max: np.ndarray
    right32: np.ndarray | None

    def widened(self, fill: np.ndarray) -> "SinglePart":
        """The same part with the fill rows of its instances appended (for queries with unknowns)."""
        fill = fill[self.cols]
        right_max = np.concatenate([self.right_max, np.abs(fill).max(axis=0, initial=0.0)])
        fits = self.right32 is not None and _fits(right_max)
        return SinglePart(
            self.cols, self.width, right_max, np.hstack([self.right32, fill.astype(np.float32)]) if fits else None
        )


@dataclass(frozen=True)
class SingleParts:
    """The stored side in single precision, in two parts: stored instances without distance-one unknowns (their
    last ``tail`` columns are zero, so they are left out) and the others (``narrow``); the same widened by the
    fills (``wide``, computed on first use)."""

    narrow: list

    @classmethod
    def of(cls, right: np.ndarray, tail: int) -> "SingleParts":
        w = right.shape[1]
        has_unknown = right[:, w - tail :].any(axis=1) if tail else np.zeros(len(right), bool)
        parts = []
        for cols, width in ((np.flatnonzero(~has_unknown), w - tail), (np.flatnonzero(has_unknown), w)):
            if len(cols):
                right_max, right32 = _single_rows(right, cols, width)
                parts.append(SinglePart(cols, width, right_max, right32 if _fits(right_max) else None))
        return cls(parts)

    def wide(self, fill: np.ndarray) -> list:
        return [part.widened(fill) for part in self.narrow]


#: Bytes of double-precision rows gathered at a time by :func:`_single_rows`.
SINGLE_BLOCK_BYTES = 8 * 2**20


def _single_rows(right: np.ndarray, cols: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray]:
    """``(column maxima of |right[cols, :width]|, right[cols, :width] in single precision)``, gathered a block
    of rows at a time: the same values as the whole gathered copy gives (the maxima and the rounding are taken
    entry by entry), without that copy (at a million stored rows, twice the single-precision side)."""
    right_max = np.zeros(width)
    right32 = np.empty((len(cols), width), np.float32)
    step = max(1, int(SINGLE_BLOCK_BYTES // (8 * max(width, 1))))
    for lo in range(0, len(cols), step):
        sub = right[cols[lo : lo + step], :width]
        np.maximum(right_max, np.abs(sub).max(axis=0, initial=0.0), out=right_max)
        with np.errstate(over="ignore", invalid="ignore"):  # a side beyond single precision's range is dropped
            right32[lo : lo + step] = sub
    return right_max, right32


def _single_precision(plan):
    """``(narrow parts, wide parts or None)`` of :class:`SingleParts` for the plan (kept with the training
    data's stored side when there is one); None when the parts the plan needs exceed single precision's range.
    """
    if plan.training is not None:
        single = plan.training.single_precision
        wide = None if plan.unknown_one is None else plan.training.single_precision_wide
    else:
        single = SingleParts.of(plan.right, plan.tail)
        wide = None if plan.unknown_one is None else single.wide(plan.fill)
    needed = single.narrow if plan.unknown_one is None else wide
    return (single.narrow, wide) if all(part.right32 is not None for part in needed) else None


def _fits(column_max: np.ndarray) -> bool:
    """Whether values this large leave single precision room for the sums of their products."""
    return bool(np.all(column_max < 1e15))


def _filter_block(plan, parts: tuple, start: int, stop: int, k: int, tie_tolerance: float, cap: int):
    """Step 1 of the module docstring for the queries ``start:stop``: ``(rows, cols)`` of the kept pairs (rows
    from 0), or None when more than ``cap`` pairs would be kept. Queries with distance-one unknowns use the
    stored side widened by the fills (their weights on the left), the others the plain one."""
    rows = np.arange(stop - start)
    left = plan.left[start:stop]
    if plan.unknown_one is None:
        groups = [(rows, left, None)]
    else:
        unknown = plan.unknown_one[start:stop].any(axis=1)
        groups = [
            (rows[~unknown], left[~unknown], None),
            (rows[unknown], left[unknown], plan.fill_coefficients(start + rows[unknown])),
        ]
    found_rows, found_cols = [], []
    for group, group_left, coef in groups:
        if not len(group):
            continue
        chosen = parts[0] if coef is None else parts[1]
        lefts = [
            group_left[:, : part.width] if coef is None else np.hstack([group_left[:, : part.width], coef])
            for part in chosen
        ]
        kept = _filter(lefts, [(part.right32, part.right_max, part.cols) for part in chosen], k, tie_tolerance, cap)
        if kept is None:
            return None
        found_rows.append(group[kept[0]])
        found_cols.append(kept[1])
        cap -= len(kept[0])
    return np.concatenate(found_rows), np.concatenate(found_cols)


def _filter(lefts: list, parts: list, k: int, tie_tolerance: float, cap: int):
    """Kept pairs ``(rows, cols)`` of the products ``lefts[p] @ right_p.T`` over the stored parts ``parts[p] =
    (right_p in single precision, column maxima of its absolute values, its stored indices)``, or None when
    there would be more than ``cap``."""
    # threads for the whole filter, as for every other block of products (its tiles run back to back: deciding
    # per tile of STORED_BLOCK kept one thread at any number of stored instances)
    work = sum(len(left) * right32.shape[0] * right32.shape[1] for left, (right32, _, _) in zip(lefts, parts))
    with threads_for(work):
        return _filter_tiles(lefts, parts, k, tie_tolerance, cap)


def _filter_tiles(lefts: list, parts: list, k: int, tie_tolerance: float, cap: int):
    n = len(lefts[0])
    # |S32 - S| <= bound for every stored instance: rounding of both inputs, then of a w-term dot product, with
    # sum_k |left_k| |right_k| <= |left| . (column maxima of |right|)
    bound = np.zeros(n)
    for left, (_, rmax, _) in zip(lefts, parts):
        bound = np.maximum(bound, 1.01 * (left.shape[1] + 2) * UNIT_ROUNDOFF * (np.abs(left) @ rmax))
    if not np.all(bound < 1e22):
        return None
    bound += 1e-30  # underflow
    top = np.full((n, k), np.inf)  # the k smallest S32 so far
    limit = np.full(n, np.inf, np.float32)  # keep S32 <= limit
    found_rows, found_cols, found_sums, count = [], [], [], 0
    for left, (right32, _, cols) in zip(lefts, parts):
        left32 = left.astype(np.float32)
        for c0 in range(0, right32.shape[0], STORED_BLOCK):
            S = left32 @ right32[c0 : c0 + STORED_BLOCK].T
            tile_min = S.min(axis=1)
            hit = np.flatnonzero(tile_min <= limit)  # rows with something to keep in this tile
            if not len(hit):
                continue
            sub = S[hit]
            if k == 1:
                kth = np.minimum(top[hit, 0], tile_min[hit])
                top[hit, 0] = kth
            else:
                part = sub if sub.shape[1] <= k else np.partition(sub, k - 1, axis=1)[:, :k]
                merged = np.partition(np.hstack([top[hit], part]), k - 1, axis=1)[:, :k]
                top[hit] = merged
                kth = merged.max(axis=1)
            b = bound[hit]
            margin = kth + 2.0 * b + tolerance(np.abs(kth) + b, tie_tolerance)
            limit[hit] = np.nextafter(margin.astype(np.float32), np.float32(np.inf))  # rounded up
            flat = np.flatnonzero(sub <= limit[hit, None])
            r, c = np.divmod(flat, sub.shape[1])
            found_rows.append(hit[r])
            found_cols.append(cols[c + c0])
            found_sums.append(sub.reshape(-1)[flat])
            count += len(flat)
            if count > cap:
                return None
    rows, cols, sums = np.concatenate(found_rows), np.concatenate(found_cols), np.concatenate(found_sums)
    keep = sums <= limit[rows]  # the limits only fell since each pair was found
    return rows[keep], cols[keep]
