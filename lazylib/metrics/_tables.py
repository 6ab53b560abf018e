"""The engine's candidate pairs for data of few codes per attribute: each attribute's term as a table over its
codes, searched through the groups' bound of :mod:`lazylib.table_search` in place of the single-precision filter.

When every attribute is nominal (:func:`nominal`: overlap or the VDM family's class probabilities) and every
column of the queries and of the stored rows holds codes (small non-negative whole numbers, at most
:data:`TABLE_CODES` of them) and unknown values, a bilinear metric's sum is ``sum_a
T_a[x_a, y_a]`` with one table per attribute: its entries are the terms between the codes (the engine's own
sides, :meth:`~lazylib.metrics._declaration.Declaration.sides`, of one row per code), times the query weights of
the code and the attribute's global weight. The groups' bound (:func:`lazylib.table_search.bounded_pairs`) then
gives, per block of queries, the stored rows that can lie within the tie tolerance of the query's k-th smallest
sum; :func:`lazylib.search.search` computes their sums as it computes the filter's kept pairs (the plan's product,
the near-zero refinement) and selects on those, so the result is the filter's, to the last bit.

The limit allows for every rounding between the tables and the engine's sums: a sum of the engine lies within
``ACCURACY`` of the exact one relative to itself (:data:`lazylib.metrics._plan.ACCURACY`), or is recomputed from
direct differences (or set to 0 within ``SNAP`` of its terms' size); a table entry within a few units of
roundoff of its terms' size. The relative margin :data:`RELATIVE` and the absolute one (:data:`ABSOLUTE_UNITS`
units of roundoff of the largest terms' size) are far above both, so the candidates are a superset of the
pairs the filter keeps; a handful more candidates per query is all they cost.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from lazylib import search, table_search
from lazylib._threads import threads_for
from lazylib.metrics._attributes import OverlapAttribute, ProbabilityAttribute
from lazylib.metrics._declaration import Bilinear, BilinearPair, Declaration, Operands
from lazylib.metrics._plan import plan

#: Stored rows from which the tables' search is used (fewer: the filter's one tile, or a few).
TABLE_ROWS = 4096
#: The most neighbours for which the tables' search is used: with more, the groups' bound lets most stored rows
#: through (the bench's leave-one-out choice of k among 1 to 75 took 1.5-3 times the filter's time through the
#: tables on mushroom's 6,046 training rows, 2026-12-03), so the filter searches.
TABLE_K = 8
#: The most codes of one attribute (its values and the unknown one) for its table.
TABLE_CODES = 64
#: The most entries of all tables together.
TABLE_ENTRIES = 2**20
#: A member of the groups' bound costs about as much as this many single-precision multiply-adds of the filter
#: per table it gathers from (its bundles' and its key's): a block whose candidates would cost more than the
#: filter's product goes to the filter (an estimate: the tables take about a tenth of the filter's time on issue
#: 52's table, and were 2-8 times slower on letter's numeric attributes, which :func:`nominal` now leaves out).
GATHER_COST = 16
#: Relative margin of the limit: above twice ``ACCURACY`` (1e-10) and the rounding of sums of a few hundred terms.
RELATIVE = 1e-8
#: Absolute margin of the limit, in units of roundoff of the largest size of the terms of each attribute.
ABSOLUTE_UNITS = 2.0**12
UNIT_ROUNDOFF = 2.0**-53


def nominal(term) -> bool:
    """Whether ``term`` compares the values of a nominal attribute (overlap, or class probabilities of the values
    themselves): the terms whose tables the search is for (a numeric column of whole numbers, or a discretised
    one, has too many codes of too even a weight for the groups' bound to pay: letter's 16 attributes of 16
    values took the tables 2-8 times the filter's time)."""
    return isinstance(term, OverlapAttribute) or (isinstance(term, ProbabilityAttribute) and term.transform is None)


def whole_codes(Z: np.ndarray) -> np.ndarray | None:
    """(n, m) int codes of the rows ``Z`` (a known value its own, an unknown -1), or None when a known value is
    not a whole number in ``[0, TABLE_CODES - 1)``."""
    Z = np.asarray(Z, dtype=np.float64)
    if Z.ndim != 2:
        return None
    unknown = np.isnan(Z)
    with np.errstate(invalid="ignore"):  # NaN and values beyond the integers: refused below
        codes = Z.astype(np.intp)
    codes[unknown] = -1
    if not np.all((codes == Z) | unknown) or codes.max(initial=0) >= TABLE_CODES - 1:
        return None
    if np.any((codes < 0) & ~unknown):  # a known negative whole number (-1 among them)
        return None
    return codes


def _grid(widths: np.ndarray) -> np.ndarray:
    """(max width, m) encoded rows: column ``a`` holds the codes ``0 .. widths[a] - 2`` then unknown (NaN), the
    last rows repeating it."""
    G = np.full((int(widths.max()), len(widths)), np.nan)
    for a, w in enumerate(widths):
        G[: w - 1, a] = np.arange(w - 1)
    return G


def _table(q: Bilinear, s: Bilinear, a: int, w: int) -> tuple[np.ndarray, float]:
    """The (w, w) terms of attribute ``a`` between the grid's codes (the halves ``q`` and ``s`` of its rows), as
    the engine's exact pairs compute them, and the largest size of their parts (``|alpha| + |beta| + |psi|
    . |chi|``, or 1 for an unknown)."""
    cols = np.flatnonzero(q.block == a)
    psi, chi = q.psi[:w, cols], s.psi[:w, cols]
    alpha, beta = q.alpha[:w, a], s.alpha[:w, a]
    if q.squared is not None and len(cols) and q.squared[cols].all():
        T = np.square((psi / -2.0)[:, None, :] - chi[None, :, :]).sum(-1)
    else:
        T = alpha[:, None] + beta[None, :] + psi @ chi.T
    size = np.abs(alpha)[:, None] + np.abs(beta)[None, :] + np.abs(psi) @ np.abs(chi).T
    if q.unknown_one is not None:
        one = q.unknown_one[:w, a][:, None] | s.unknown_one[:w, a][None, :]
        T, size = np.where(one, 1.0, T), np.where(one, 1.0, size)
    return np.maximum(T, 0.0), float(size.max(initial=0.0))


def term_tables(declared: Declaration, widths: np.ndarray) -> tuple[tuple, float, BilinearPair] | None:
    """One (w_a, w_a) table per attribute of the metric ``declared`` over the codes of :func:`_grid` (weights
    included), the absolute margin of their sums and the sides of the grid's rows; None when the weights are
    one vector per class."""
    W = declared.weights
    if W is not None and W.ndim != 1:
        return None
    G = _grid(widths)
    sides = declared.sides(G, G)
    U = declared.query_weights(G)
    tables, margin = [], 0.0
    for a, w in enumerate(widths.tolist()):
        T, size = _table(sides.query, sides.stored, a, w)
        scale = (1.0 if U is None else U[:w, a].max(initial=0.0)) * (1.0 if W is None else float(W[a]))
        if U is not None:
            T = T * U[:w, a][:, None]
        if W is not None:
            T = T * W[a]
        tables.append(T)
        width = len(np.flatnonzero(sides.query.block == a))
        margin += ABSOLUTE_UNITS * (width + 4) * UNIT_ROUNDOFF * size * scale
    return tuple(tables), margin, sides


def _canonical(declared: Declaration, sides: BilinearPair, widths: np.ndarray) -> list:
    """Per attribute, the code of the first of the grid's codes equal to each: equal as the engine groups stored
    rows, by their stored sides' bytes (a separable metric, :func:`lazylib.search.find_groups`) or by the values
    the terms read (:func:`lazylib.metrics._engine.distinct_rows`)."""
    s, G = sides.stored, _grid(widths)
    out = []
    for a, w in enumerate(widths.tolist()):
        if declared.separable:
            cols = np.flatnonzero(s.block == a)
            parts = [s.alpha[:w, a : a + 1], s.psi[:w, cols], s.unknown_one[:w, a : a + 1].astype(np.float64)]
        else:
            read = np.array(declared.terms[a].operand(G[:w, a]), dtype=np.float64)
            read[np.isnan(read)] = np.nan  # one bit pattern for every unknown
            parts = [read[:, None] + 0.0]  # -0.0 and 0.0 alike
        rows = np.ascontiguousarray(np.hstack(parts))
        _, first, inverse = np.unique(rows.view(np.dtype((np.void, rows.itemsize * rows.shape[1]))).ravel(),
                                      return_index=True, return_inverse=True)  # fmt: skip
        out.append(first[inverse.ravel()])
    return out


def _distinct(codes: np.ndarray, canonical: list) -> int:
    """The number of distinct rows of ``codes`` once each code is read as its canonical one."""
    key, radix = np.zeros(len(codes), np.int64), 1
    for a, c in enumerate(canonical):
        radix *= len(c)
        if radix >= 2**62:
            rows = np.column_stack([c[codes[:, b]] for b, c in enumerate(canonical)])
            return len(np.unique(rows, axis=0))
        key = key * len(c) + c[codes[:, a]]
    key.sort()
    return int(len(key) > 0) + int(np.count_nonzero(key[1:] != key[:-1]))


@dataclass(frozen=True)
class TableSearch:
    """The candidate pairs of queries of codes ``Q`` against stored rows of codes ``codes``, grouped by ``groups``
    (:class:`lazylib.table_search.TableGroups`), under the tables ``tables``: ``low`` the least the attributes
    outside the key add per query (``tails``: the bundles from each on,
    :func:`lazylib.table_search.bundle_tails`), ``width`` a bound on the width of the plan's query side, ``k``
    the neighbours, ``tie_tolerance`` and ``margin`` the limit's (:meth:`limit`)."""

    tables: tuple
    groups: table_search.TableGroups
    codes: np.ndarray
    Q: np.ndarray
    low: np.ndarray
    tails: list
    width: int
    k: int
    tie_tolerance: float
    margin: float

    @classmethod
    def of(cls, declared: Declaration, Zq: np.ndarray, Zs: np.ndarray, k: int, tie_tolerance: float):
        """The search for the encoded queries ``Zq`` against the encoded stored rows ``Zs`` (those of the plan),
        or None when the data or the metric do not make tables (module docstring)."""
        if len(Zs) < TABLE_ROWS or not len(Zq) or k > TABLE_K or not declared.searchable:
            return None
        if not all(map(nominal, declared.terms)):
            return None
        cq, cs = whole_codes(Zq), whole_codes(Zs)
        if cq is None or cs is None:
            return None
        widths = np.maximum(cq.max(axis=0, initial=-1), cs.max(axis=0, initial=-1)) + 2  # the codes, then unknown
        if int(np.square(widths).sum()) > TABLE_ENTRIES:
            return None
        cq, cs = np.where(cq < 0, widths - 1, cq), np.where(cs < 0, widths - 1, cs)
        made = term_tables(declared, widths)
        if made is None:
            return None
        tables, margin, sides = made
        if 2 * _distinct(cs, _canonical(declared, sides, widths)) <= len(cs):
            return None  # the engine searches one row per group of identical ones (its own blocks)
        groups = table_search.TableGroups.of(cs, tables)
        if groups is None or len(groups.size) < k:
            return None
        cq = np.asfortranarray(cq)
        low = table_search.floors(cs, tables, groups, cq)
        tails = table_search.bundle_tails(tables, groups, cs, cq)
        # at or above the width of the plan's query side: the grid holds every code (module docstring)
        m, W, U = len(widths), declared.weights, declared.query_weighted
        width = sides.query.psi.shape[1] + (1 if W is None else m) + (m if U else 1) + m
        return cls(tables, groups, cs, cq, low, tails, width, k, tie_tolerance, margin)

    def limit(self, upper: np.ndarray) -> np.ndarray:
        """The bound below which a group's members are candidates, from ``upper`` (per query, at or above the
        k-th smallest sum of the tables): every rounding between the tables and the engine's sums allowed for."""
        r, a = RELATIVE, self.margin
        high = upper * (1.0 + r) + a  # at or above the engine's k-th smallest sum
        return (high + self.tie_tolerance * high) * (1.0 + r) + a

    def candidates(self, start: int, stop: int, cap: int):
        """``(rows, cols)`` (rows from 0, cols the stored rows) of the queries ``start:stop``, or None when they
        would exceed ``cap`` pairs."""
        Q = self.Q[start:stop]
        tails = [tail[start:stop] for tail in self.tails]
        with threads_for(len(Q) * self.groups.onehot.size):  # the product of the groups' bound
            found = table_search.bounded_pairs(
                self.tables, self.groups, Q, self.low[start:stop], self.k, cap, self.limit, tails
            )
        if found is None:
            return None
        rows, positions, _ = found
        return rows, self.groups.members[positions]


def representatives(codes: np.ndarray) -> np.ndarray:
    """Sorted stored rows that hold, together, every code of every attribute of ``codes`` (one row each)."""
    every = np.arange(len(codes))
    found = []
    for a in range(codes.shape[1]):
        row = np.full(int(codes[:, a].max(initial=0)) + 1, -1, np.intp)
        row[codes[:, a]] = every  # a row of each code (any: they read alike)
        found.append(row[row >= 0])
    return np.unique(np.concatenate(found))


def _stored_max(p, codes: np.ndarray, sub: np.ndarray) -> np.ndarray:
    """Column maxima of ``|right|`` over every stored row of ``codes`` for the plan ``p`` of the rows ``sub``
    (which hold every code): each column is one attribute's, so its maxima are ``sub``'s, but for the sum of the
    stored terms (no query weights), recomputed from each code's term as the plan adds them."""
    out = np.abs(p.right).max(axis=0, initial=0.0)
    if p.U is not None:
        return out
    column = p.stored.psi.shape[1] + (1 if p.V is None else p.V.shape[1])
    if not np.any(p.stored.alpha):  # every code's stored term 0 (the overlap's): so is every row's sum
        out[column] = 0.0
        return out
    beta = np.zeros(codes.shape)  # the stored terms of every row, laid out as the plan's
    for a in range(codes.shape[1]):
        per_code = np.zeros(int(codes[:, a].max(initial=0)) + 1)
        per_code[codes[sub, a]] = p.stored.alpha[:, a]
        beta[:, a] = per_code[codes[:, a]]
    if p.V is not None:
        beta = p.V[:1] * beta
    out[column] = np.abs(beta.sum(axis=1)).max(initial=0.0)
    return out


def table_blocks(declared: Declaration, ops: Operands, k: int, tie_tolerance: float, rest):
    """:class:`lazylib.search.Candidates` of every block of queries of ``ops`` through the tables, as
    :func:`lazylib.search.search` gives them through the filter (the same blocks, pairs and sums), or None when
    the data or the metric make no tables. Only the stored rows among the candidates (and one row of each
    code) get their stored side. From a block whose candidates exceed the filter's cap, or would cost more than
    the filter's product (:data:`GATHER_COST`), ``rest(first)`` gives the blocks (the engine's search from query
    ``first``)."""
    if ops.sets is not None:
        return None
    tables = TableSearch.of(declared, ops.Zq, ops.Zs, k, tie_tolerance)
    return None if tables is None else _blocks(declared, ops, tables, k, tie_tolerance, rest)


def _blocks(declared: Declaration, ops: Operands, tables: TableSearch, k: int, tie_tolerance: float, rest):
    nq, ns = len(ops.Zq), len(ops.Zs)
    reps = representatives(tables.codes)
    step = search.filter_rows(tables.width, declared.working_memory)  # at most the width's: then the blocks'
    if step < search.QUERY_BLOCK:  # the plan's own width, from the stored rows of one row per code
        classes = None if ops.classes is None else ops.classes[reps]
        step = search.filter_step(plan(declared, ops.Zq, ops.Zs[reps], classes), declared.working_memory)
    cap = max(int(declared.working_memory * 2**20 // search.PAIR_BYTES), min(k, ns) * step)
    kept, first = [], None
    for start in range(0, nq, step):
        stop = min(start + step, nq)
        # the filter's multiply-adds for the block, in gathers of the members' table entries
        worth = (stop - start) * ns * tables.width // (GATHER_COST * (len(tables.groups.bundles) + 1))
        found = tables.candidates(start, stop, min(cap, int(worth)))
        if found is None:  # too many candidates to repay the tables, or beyond the cap: the filter from here
            first = start
            break
        kept.append((start, stop, *found))
    if not kept:
        yield from rest(0)
        return
    sub = np.unique(np.concatenate([reps, *(cols for *_, cols in kept)]))
    classes = None if ops.classes is None else ops.classes[sub]
    p = plan(declared, ops.Zq, ops.Zs[sub], classes)
    p = replace(p, stored_max=_stored_max(p, tables.codes, sub))
    groups = search.Groups.identity(ns)
    for start, stop, rows, cols in kept:
        block = search.kept_nearest(p, start, stop, rows, np.searchsorted(sub, cols), k, tie_tolerance)
        yield search.Candidates(start, stop, block.rows, sub[block.cols], block.sums, groups)
    if first is not None:
        yield from rest(first)
