"""Feature kinds of the weighting methods and the difference of two sets of vectors (Howe & Cardie, Eq. 6),
shared by :mod:`lazylib.weighting.mdw` and :mod:`lazylib.weighting.sets`."""

from __future__ import annotations

import numpy as np
import pandas as pd

from lazylib._validation import Integer, check
from lazylib.encoding import (
    SetTable,
    is_set_column,
)
from lazylib.metrics import WORKING_MEMORY
from lazylib.metrics.extend import (
    centre,
    min_member_distances,
)

#: Feature kinds of :func:`~lazylib.weighting.mean_difference`.
KINDS = ("numeric", "symbolic", "set")


def feature_kinds(X, types=None) -> tuple[list[str], list[str]]:
    """``(columns, kinds)`` of a DataFrame for :func:`~lazylib.weighting.mdw_weights`: Categorical / bool columns are
    symbolic, numeric ones numeric, object columns holding arrays are sets; ``types`` (dict or sequence of
    "nominal" / "continuous" / "integer" / "set", or the kinds of :data:`KINDS`) overrides."""
    columns = [str(c) for c in X.columns]
    if types is None:
        kinds = []
        for c in X.columns:
            col = X[c]
            if isinstance(col.dtype, pd.CategoricalDtype) or pd.api.types.is_bool_dtype(col.dtype):
                kinds.append("symbolic")
            elif pd.api.types.is_numeric_dtype(col.dtype):
                kinds.append("numeric")
            elif is_set_column(col):  # arrays, with None or NaN for an unknown set
                kinds.append("set")
            else:
                raise ValueError(f"column {c!r} has dtype {col.dtype}: use Categorical, numbers or arrays (sets)")
    else:
        given = [types[c] for c in X.columns] if isinstance(types, dict) else list(types)
        if len(given) != len(columns):
            raise ValueError(f"types has {len(given)} entries but X has {len(columns)} columns")
        alias = {"nominal": "symbolic", "continuous": "numeric", "integer": "numeric"}
        kinds = [alias.get(t, t) for t in given]
        bad = [t for t in kinds if t not in KINDS]
        if bad:
            raise ValueError(f"unknown feature types {bad}; expected nominal, continuous, integer or set")
    return columns, kinds


def set_difference(A, B=None, *, block: int = 256) -> np.ndarray:
    """``delta(S1, S2) = min_{v1 in S1, v2 in S2} ||v1 - v2||`` (Eq. 6) for every pair of sets.

    Parameters
    ----------
    A, B : sequence of arrays of shape (members, d), or one array of shape (n, members, d)
        Sets of d-dimensional vectors (sizes may differ between sets). ``B`` defaults to ``A``.

    Returns
    -------
    ndarray of shape (len(A), len(B))

    Notes
    -----
    "The ordinary vector difference" is read as the Euclidean distance between members. The sets go into
    :class:`lazylib.encoding.SetTable` form and through the kernel of the metrics' set term
    (:func:`lazylib.metrics._sets.min_member_distances`): all members of a block of sets of ``A`` against all
    members of ``B`` in one product, the minimum per pair of owners by ``np.minimum.reduceat``, so no Python loop
    runs over pairs. ``block``: sets of ``A`` per block (at most; fewer when the block's member-pair matrix would
    exceed the default working memory of the metrics). Members are centred on their mean first (differences
    unchanged), and squared distances near zero recomputed from direct differences, so identical members are at
    exactly 0.

    References
    ----------
    Howe, N. and Cardie, C., section 3, Eq. 6.

    Examples
    --------
    >>> A = [np.array([[0.0, 0.0], [5.0, 5.0]]), np.array([[3.0, 4.0]])]
    >>> set_difference(A)
    array([[0.        , 2.23606798],
           [2.23606798, 0.        ]])
    """
    block = check("block", block, Integer(low=1))
    A = [np.atleast_2d(np.asarray(s, dtype=np.float64)) for s in A]
    B = A if B is None else [np.atleast_2d(np.asarray(s, dtype=np.float64)) for s in B]
    if any(len(s) == 0 for s in A) or any(len(s) == 0 for s in B):
        raise ValueError("every set needs at least one member")
    ta, tb = SetTable.from_sets(A), SetTable.from_sets(B)
    shift = centre(np.vstack([ta.members, tb.members]))  # centred: fewer sums near cancellation
    budget = min(8 * block * int(ta.sizes.max()) * len(tb.members), WORKING_MEMORY * 2**20)
    return min_member_distances(
        ta, np.arange(len(A), dtype=np.float64), tb, np.arange(len(B), dtype=np.float64), shift=shift, max_bytes=budget
    )


def known_values(x) -> np.ndarray:
    """The known values of a sample of one numeric or coded feature, flattened, NaN left out.

    Parameters
    ----------
    x : array-like
        A sample of one feature.

    Returns
    -------
    ndarray of float64

    Examples
    --------
    >>> known_values([1.0, np.nan, 3.0]).tolist()
    [1.0, 3.0]
    """
    x = np.asarray(x, dtype=np.float64).ravel()
    return x[~np.isnan(x)]


__all__ = [
    "KINDS",
    "feature_kinds",
    "known_values",
    "set_difference",
]
