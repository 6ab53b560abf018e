"""Distinct rows computed once: the queries and stored instances that a metric cannot tell apart, found so
that the engine (:mod:`lazylib.metrics._engine`) computes distances between distinct patterns only and gathers
them (:func:`distinct_rows`, :func:`take_rows`), the search counting each pattern once per member."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from lazylib.metrics._declaration import Declaration, Operands


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
