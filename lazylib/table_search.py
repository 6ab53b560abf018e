"""Exact nearest-neighbour search over per-attribute tables of nominal codes, bounded by groups of stored rows:
the search of :mod:`lazylib.classify` and of the engine's table path (:func:`lazylib.metrics._tables.table_blocks`).

A distance that is a sum of one table per attribute, ``sum_a T_a[x_a, y_a]`` (``T_a`` non-negative, indexed by
integer codes), is searched without visiting every stored row. The stored rows are grouped by their codes on the
attributes whose terms are largest (:func:`key_attributes`: at most one group per :data:`GROUPS_PER_ROW` stored
rows); the sum over those attributes, computed once per query and group (one product of the tables' rows with
the groups' one-hot columns), plus the least the other attributes can add (:func:`floors`), bounds every member's
distance from below. The k-th smallest distance among the members of the k most promising groups bounds the
k-th smallest from above, and only the members of the groups whose bound lies within the caller's limit of it
(the tie tolerance and whatever rounding margin the caller's own sums need) are candidates
(:func:`bounded_pairs`). Numpy only: :mod:`lazylib.classify` keeps its import light.

>>> T = np.array([[0.0, 1.0], [1.0, 0.0]])
>>> Z = np.array([[0, 0], [0, 1], [1, 1], [1, 1]])
>>> groups = TableGroups.of(Z, (T, T), [0])
>>> groups.codes.tolist(), groups.size.tolist()
([[0, 1]], [2, 2])
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = [
    "BUNDLE_ENTRIES",
    "GROUPS_PER_ROW",
    "Bundle",
    "TableGroups",
    "bounded_pairs",
    "bundle_tails",
    "bundles",
    "floors",
    "key_attributes",
    "member_sums",
]

#: At most one group of stored rows per this many rows (:func:`key_attributes`).
GROUPS_PER_ROW = 16
#: Entries of the table of one bundle of attributes (:class:`Bundle`): 2 MiB of float64, in cache.
BUNDLE_ENTRIES = 2**18


@dataclass(frozen=True)
class Bundle:
    """Attributes ``attributes`` read as one: a value of the bundle is a tuple of their values (mixed radix, the
    first attribute the most significant), ``table`` ((R, R), ``R`` the product of their table widths) the sum
    of their terms, added in the order of ``attributes``."""

    attributes: tuple
    table: np.ndarray

    @classmethod
    def of(cls, tables, attributes) -> Bundle:
        """The bundle of the ``attributes`` (indices into ``tables``)."""
        T = np.zeros((1, 1))
        for a in attributes:
            R, W = len(T), len(tables[a])
            T = (T[:, None, :, None] + tables[a][None, :, None, :]).reshape(R * W, R * W)
        return cls(tuple(attributes), T)

    def codes(self, Z: np.ndarray, tables) -> np.ndarray:
        """The bundle's value of every row of codes ``Z``."""
        out = np.zeros(len(Z), np.intp)
        for a in self.attributes:
            out = out * len(tables[a]) + Z[:, a]
        return out


def bundles(tables, attributes) -> list:
    """The attributes ``attributes`` packed, in order, into :class:`Bundle` of at most :data:`BUNDLE_ENTRIES`
    table entries: one gather a bundle instead of one an attribute."""
    out, current, width = [], [], 1
    for a in attributes:
        if current and (width * len(tables[a])) ** 2 > BUNDLE_ENTRIES:
            out.append(Bundle.of(tables, current))
            current, width = [], 1
        current, width = current + [a], width * len(tables[a])
    return out + ([Bundle.of(tables, current)] if current else [])


def key_attributes(Z: np.ndarray, tables) -> tuple[list, np.ndarray, int]:
    """The attributes with the largest expected term between two stored rows (codes ``Z``), as many as keep the
    groups of stored rows identical on them at most one per :data:`GROUPS_PER_ROW` rows; each row's group
    (numbered densely) and their number."""
    n = len(Z)
    spread = []
    for a, T in enumerate(tables):
        f = np.bincount(Z[:, a], minlength=len(T)) / n
        spread.append(float(f @ T @ f))
    combined, count, key = np.zeros(n, np.intp), 1, []
    for a in sorted(range(len(spread)), key=lambda a: -spread[a]):
        if spread[a] <= 0:
            break
        trial = combined * len(tables[a]) + Z[:, a]
        seen = np.bincount(trial, minlength=count * len(tables[a])) > 0
        if int(seen.sum()) * GROUPS_PER_ROW > n:
            continue
        combined, count, key = (np.cumsum(seen) - 1)[trial], int(seen.sum()), key + [a]  # groups numbered densely
    return key, combined, count


@dataclass(frozen=True)
class TableGroups:
    """Stored rows grouped by their codes on the attributes ``key``: group ``g`` holds the positions
    ``ptr[g]:ptr[g + 1]`` of the stored rows in group order (``members``: their stored indices, in stored order
    within a group), with the codes ``codes[:, g]`` on ``key``; ``onehot`` (groups, sum of the key's table
    widths) their one-hot columns; the other attributes ``rest`` packed into ``bundles``, whose values
    ``stored`` are given in group order."""

    key: np.ndarray
    codes: np.ndarray
    members: np.ndarray
    ptr: np.ndarray
    onehot: np.ndarray
    rest: np.ndarray
    bundles: list
    stored: list

    @property
    def size(self) -> np.ndarray:
        """Members of each group."""
        return np.diff(self.ptr)

    @classmethod
    def of(cls, Z: np.ndarray, tables, key=None, combined=None, count=None) -> TableGroups | None:
        """The groups of the stored rows of codes ``Z`` (n, m) under the tables ``tables`` (one (W_a, W_a) per
        attribute), on ``key`` (default: :func:`key_attributes`), or None without a key. ``combined`` and
        ``count``: each row's group on ``key`` and their number, when the caller has them."""
        if key is None:
            key, combined, count = key_attributes(Z, tables)
        elif combined is None:
            combined, count = _combined(Z, tables, key)
        if not len(key):
            return None
        members = np.argsort(combined, kind="stable")
        ptr = np.concatenate(([0], np.cumsum(np.bincount(combined, minlength=count))))
        in_order = Z[members]
        codes = in_order[ptr[:-1]][:, key].T
        widths = [len(tables[a]) for a in key]
        onehot = np.zeros((count, sum(widths)))
        onehot[np.arange(count)[:, None], (np.cumsum([0] + widths[:-1]) + codes.T)] = 1.0
        rest = np.array([a for a in range(Z.shape[1]) if a not in key], np.intp)
        packed = bundles(tables, rest)
        stored = [b.codes(in_order, tables) for b in packed]
        return cls(np.array(key, np.intp), codes, members, ptr, onehot, rest, packed, stored)


def _combined(Z: np.ndarray, tables, key) -> tuple[np.ndarray, int]:
    """Each row's group on the attributes ``key`` (numbered densely) and their number."""
    combined = np.zeros(len(Z), np.intp)
    for a in key:
        combined = combined * len(tables[a]) + Z[:, a]
    _, combined = np.unique(combined, return_inverse=True)
    combined = combined.reshape(-1)
    return combined, int(combined.max()) + 1 if len(combined) else 0


def floors(Z: np.ndarray, tables, groups: TableGroups, Q: np.ndarray) -> np.ndarray:
    """Per query of codes ``Q``, the least the attributes outside the groups' key can add against any stored row
    of codes ``Z`` (each attribute's smallest term against a value the stored rows hold)."""
    low = np.zeros(len(Q))
    for a in groups.rest:
        present = np.bincount(Z[:, a], minlength=len(tables[a])) > 0
        low = low + tables[a][:, present].min(axis=1)[Q[:, a]]
    return low


def member_sums(tables, groups: TableGroups, Q: np.ndarray, queries, rows: np.ndarray, gs: np.ndarray, limit=None):
    """``(rows, positions, sums)`` of every member of the (query, group) pairs ``(rows, gs)`` (``positions`` in
    group order): the key's terms added once per pair, then each bundle's (``queries``: the queries' bundle
    values) per member. ``limit``: ``(bound, tails)``, per query a bound and, per bundle, the least the bundles
    from it on can add; a member whose sum so far and the rest's least exceed its query's bound is dropped
    before the next bundle is gathered (its sum would too)."""
    key = np.zeros(len(rows))
    for j, a in enumerate(groups.key):
        T = tables[a]
        key += T.ravel()[Q[:, a][rows] * len(T) + groups.codes[j][gs]]
    take = groups.size[gs]
    pair = np.repeat(np.arange(len(gs)), take)
    positions = np.arange(len(pair)) + np.repeat(groups.ptr[gs] - (np.cumsum(take) - take), take)
    rows, sums = rows[pair], key[pair]
    for i, (bundle, stored, q) in enumerate(zip(groups.bundles, groups.stored, queries)):
        sums += bundle.table.ravel()[q[rows] * len(bundle.table) + stored[positions]]
        if limit is not None and i + 1 < len(groups.bundles):
            bound, tails = limit
            keep = np.flatnonzero(sums + tails[i + 1][rows] <= bound[rows])
            if len(keep) < len(rows):
                rows, positions, sums = rows[keep], positions[keep], sums[keep]
    return rows, positions, sums


def bundle_tails(tables, groups: TableGroups, Z: np.ndarray, Q: np.ndarray) -> list:
    """Per bundle ``i`` of the groups, per query of codes ``Q``: the least the bundles from ``i`` on can add
    against a stored row of codes ``Z`` (each attribute's smallest term against a value the stored rows hold)."""
    per_bundle = []
    for bundle in groups.bundles:
        least = np.zeros(len(Q))
        for a in bundle.attributes:
            present = np.bincount(Z[:, a], minlength=len(tables[a])) > 0
            least += tables[a][:, present].min(axis=1)[Q[:, a]]
        per_bundle.append(least)
    tails = [np.zeros(len(Q))]
    for least in per_bundle[::-1]:
        tails.insert(0, tails[0] + least)
    return tails


def bounded_pairs(tables, groups: TableGroups, Q: np.ndarray, low: np.ndarray, k: int, cap: int, limit, tails):
    """``(rows, positions, sums)`` (as :func:`member_sums` gives them) of the stored rows whose sum lies within
    ``limit(upper)``, among the members of every group whose bound does, for the queries of codes ``Q`` (rows
    from 0); None when the candidates would exceed ``cap`` pairs or the groups are fewer than ``k``. ``low``:
    per query, the least the attributes outside the key can add (:func:`floors`); ``upper``: per query, the
    k-th smallest sum among the members of its k most promising groups, at or above its k-th smallest sum;
    ``tails``: :func:`bundle_tails` of the queries."""
    n = len(Q)
    if len(groups.size) < k:  # fewer groups than neighbours: no upper bound from k groups
        return None
    B = np.hstack([tables[a][Q[:, a]] for a in groups.key]) @ groups.onehot.T
    B += low[:, None]
    best = B.argmin(axis=1)[:, None] if k == 1 else np.argpartition(B, k - 1, axis=1)[:, :k]
    if groups.size[best.ravel()].sum() > cap:
        return None
    queries = [b.codes(Q, tables) for b in groups.bundles]
    rows, _, sums = member_sums(tables, groups, Q, queries, np.repeat(np.arange(n), best.shape[1]), best.ravel())
    starts = np.concatenate(([0], np.cumsum(np.bincount(rows, minlength=n))[:-1]))
    if k == 1:
        upper = np.minimum.reduceat(sums, starts)
    else:  # the k-th smallest of k stored rows: at or above the k-th smallest
        upper = sums[np.lexsort((sums, rows))][starts + k - 1]
    bound = limit(upper)
    qr, qg = np.nonzero(B <= bound[:, None])
    if groups.size[qg].sum() > cap:
        return None
    rows, positions, sums = member_sums(tables, groups, Q, queries, qr, qg, (bound, tails))
    keep = sums <= bound[rows]  # a member beyond the limit is no candidate either
    return rows[keep], positions[keep], sums[keep]
