"""The engine's candidate pairs for data of few codes per attribute: each attribute's term as a table over its
codes, searched through the groups' bound of :mod:`lazylib.table_search` in place of the single-precision filter.

When every column of the queries and of the stored rows holds small non-negative whole numbers (nominal codes,
or numbers of at most :data:`TABLE_CODES` values) and unknown values, a bilinear metric's sum is ``sum_a
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

from dataclasses import dataclass

import numpy as np

from lazylib import table_search
from lazylib.metrics._declaration import Bilinear, Declaration

#: Stored rows from which the tables' search is used (fewer: the filter's one tile, or a few).
TABLE_ROWS = 4096
#: The most codes of one attribute (its values and the unknown one) for its table.
TABLE_CODES = 256
#: The most entries of all tables together.
TABLE_ENTRIES = 2**20
#: Relative margin of the limit: above twice ``ACCURACY`` (1e-10) and the rounding of sums of a few hundred terms.
RELATIVE = 1e-8
#: Absolute margin of the limit, in units of roundoff of the largest size of the terms of each attribute.
ABSOLUTE_UNITS = 2.0**12
UNIT_ROUNDOFF = 2.0**-53


def whole_codes(Z: np.ndarray) -> np.ndarray | None:
    """(n, m) int codes of the rows ``Z`` (a known value its own, an unknown -1), or None when a known value is
    not a whole number in ``[0, TABLE_CODES - 1)``."""
    Z = np.asarray(Z, dtype=np.float64)
    if Z.ndim != 2:
        return None
    known = ~np.isnan(Z)
    values = Z[known]
    if values.size and (values.min() < 0 or values.max() >= TABLE_CODES - 1 or np.any(values != np.floor(values))):
        return None
    return np.where(known, Z, -1.0).astype(np.intp)


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


def term_tables(declared: Declaration, widths: np.ndarray) -> tuple[tuple, float] | None:
    """One (w_a, w_a) table per attribute of the metric ``declared`` over the codes of :func:`_grid` (weights
    included), and the absolute margin of their sums; None when the weights are one vector per class."""
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
    return tuple(tables), margin


@dataclass(frozen=True)
class TableSearch:
    """The candidates of :func:`lazylib.search.search` for queries of codes ``Q`` against stored rows grouped by
    ``groups`` (:class:`lazylib.table_search.TableGroups`), under the tables ``tables``: ``low`` the least the
    attributes outside the key add per query, ``k`` the neighbours, ``tie_tolerance`` and ``margin`` the
    limit's (:meth:`limit`)."""

    tables: tuple
    groups: table_search.TableGroups
    Q: np.ndarray
    low: np.ndarray
    k: int
    tie_tolerance: float
    margin: float

    @classmethod
    def of(cls, declared: Declaration, Zq: np.ndarray, Zs: np.ndarray, k: int, tie_tolerance: float):
        """The search for the encoded queries ``Zq`` against the encoded stored rows ``Zs`` (those of the plan),
        or None when the data or the metric do not make tables (module docstring)."""
        if len(Zs) < TABLE_ROWS or not len(Zq) or not declared.searchable:
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
        tables, margin = made
        groups = table_search.TableGroups.of(cs, tables)
        if groups is None or len(groups.size) < k:
            return None
        cq = np.asfortranarray(cq)
        return cls(tables, groups, cq, table_search.floors(cs, tables, groups, cq), k, tie_tolerance, margin)

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
        found = table_search.bounded_pairs(self.tables, self.groups, Q, self.low[start:stop], self.k, cap, self.limit)
        if found is None:
            return None
        rows, positions, _ = found
        return rows, self.groups.members[positions]
