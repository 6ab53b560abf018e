"""What a fitted metric accepts, checked in one place: queries and stored instances encoded exactly as the
training data were (:class:`Schema`), attribute weights (:func:`check_weights`), the classes of stored instances
(:func:`stored_classes`) and a number of neighbours (:func:`check_k`). Every check raises a ``ValueError`` that
names the problem; :class:`lazylib.metrics.Metric` calls them and holds no validation of its own.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from lazylib.encoding import SET, Encoded, check_finite, encode


@dataclass(frozen=True)
class Schema:
    """The columns of the training data: names, types, categories of nominal columns, whether they came from a
    DataFrame, and the member dimension of each set-valued column (None for the others, and for a column whose
    training sets are all unknown). Later inputs must match it."""

    columns: tuple[str, ...]
    kinds: tuple[str, ...]
    categories: tuple[tuple | None, ...]
    from_frame: bool
    set_dims: tuple[int | None, ...] = ()

    @classmethod
    def of(cls, enc: Encoded) -> "Schema":
        dims = tuple(None if t is None or not len(t) else t.dim for t in (enc.sets or (None,) * len(enc.columns)))
        return cls(enc.columns, enc.kinds, enc.categories, enc.from_frame, dims)

    @property
    def has_sets(self) -> bool:
        return SET in self.kinds

    def encode(self, X, what: str) -> np.ndarray:
        """``X`` (queries ``"A"`` or stored instances ``"B"``, named by ``what`` in errors) as the float matrix
        the training data became: same columns, same categories; an array only where the training data held
        no categories (its numbers would otherwise be read as category codes) and no sets."""
        return self.encode_with_sets(X, what)[0]

    def encode_with_sets(self, X, what: str) -> tuple[np.ndarray, tuple | None]:
        """:meth:`encode`, and the set tables of ``X`` (one per column, None for the columns without sets;
        None when the training data had no set-valued column). Sets must have the fitted member dimension."""
        if self.has_sets and not isinstance(X, (pd.DataFrame, Encoded)):
            named = [c for c, k in zip(self.columns, self.kinds) if k == SET]
            raise ValueError(
                f"{what} is an array but the metric was fitted with set-valued columns {named}: pass a "
                "DataFrame with the same columns"
            )
        if isinstance(X, pd.DataFrame):
            if not self.from_frame:
                raise ValueError(f"{what} is a DataFrame but the metric was fitted on an array")
            cols = tuple(str(c) for c in X.columns)
            if cols != self.columns:
                raise ValueError(f"{what} columns {list(cols)} differ from the fitted columns {list(self.columns)}")
            enc = encode(X, dict(zip(self.columns, self.kinds)), sets=self.has_sets)
            for name, fitted, now in zip(self.columns, self.categories, enc.categories):
                if fitted != now:
                    raise ValueError(f"{what} column {name!r} has categories {now}, fitted with {fitted}")
            return enc.values, self._check_sets(enc, what)
        if isinstance(X, Encoded):
            if X.columns != self.columns or X.categories != self.categories or X.kinds != self.kinds:
                raise ValueError(f"{what} was encoded with columns or categories (or types) other than the fitted ones")
        elif self.from_frame and any(c is not None for c in self.categories):
            named = [n for n, c in zip(self.columns, self.categories) if c is not None]
            raise ValueError(
                f"{what} is an array but the metric was fitted on a DataFrame with categorical columns "
                f"{named[:5]}{'...' if len(named) > 5 else ''}: pass a DataFrame with the same columns "
                "(an array's numbers would be read as category codes)"
            )
        try:
            values = np.asarray(X, dtype=np.float64) if not isinstance(X, Encoded) else X.values
        except (TypeError, ValueError):
            raise ValueError(f"{what} must hold numbers (nominal values as codes, missing as NaN)") from None
        if values.ndim != 2 or values.shape[1] != len(self.columns):
            raise ValueError(f"{what} must have shape (n, {len(self.columns)}), got {values.shape}")
        if values.shape[0] == 0:
            raise ValueError(f"{what} is empty")
        if not isinstance(X, Encoded):
            check_finite(values, self.columns)
        return values, (self._check_sets(X, what) if isinstance(X, Encoded) else None)

    def _check_sets(self, enc: Encoded, what: str) -> tuple | None:
        if not self.has_sets:
            return None
        for name, dim, table in zip(self.columns, self.set_dims, enc.sets):
            if dim is not None and len(table) and table.dim != dim:
                raise ValueError(f"{what} set column {name!r} has members of dimension {table.dim}, fitted with {dim}")
        return enc.sets


def check_accepted(metric: str, accepts: tuple[str, ...] | None, enc: Encoded) -> None:
    """Refuse columns of a type the metric has no term for (``accepts``: the types it has one for, None: all but
    set-valued ones, which a metric accepts only by naming ``"set"``)."""
    sets = [c for c, k in zip(enc.columns, enc.kinds) if k == SET]
    if sets and SET not in (accepts or ()):
        raise ValueError(
            f"{metric} has no term for set-valued attributes, and columns {sets} hold sets; "
            "FeatureDifference and MDW (lazylib.weighting) accept them"
        )
    if accepts is None:
        return
    bad = [c for c, k in zip(enc.columns, enc.kinds) if k not in accepts]
    if bad:
        raise ValueError(f"{metric} accepts only {accepts} attributes; {bad} are not")


def check_weights(weights, columns: tuple[str, ...], classes: tuple | None) -> np.ndarray | None:
    """Attribute weights as an array of shape (m,) or, one vector per class, (C, m); None stays None.

    A Series is aligned on the column names, a DataFrame on the classes (rows) and column names.
    """
    if weights is None:
        return None
    m = len(columns)
    if isinstance(weights, pd.DataFrame):
        if classes is None:
            raise ValueError("per-class weights need the metric to be fitted with class labels")
        weights = weights.reindex(index=list(classes), columns=list(columns)).to_numpy(float)
    elif isinstance(weights, pd.Series):
        weights = weights.reindex(list(columns)).to_numpy(float)
    if isinstance(weights, (dict, str, bytes)):
        raise ValueError(
            f"weights must be an array of numbers (or a pandas Series/DataFrame indexed by "
            f"attribute), got a {type(weights).__name__}"
        )
    try:
        W = np.asarray(weights, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"weights must be numbers, got {weights!r}") from None
    if not (W.shape == (m,) or (W.ndim == 2 and classes is not None and W.shape == (len(classes), m))):
        expected = f"({m},)" + (f" or ({len(classes)}, {m})" if classes is not None else "")
        raise ValueError(f"weights must have shape {expected}, got {W.shape}")
    if not np.isfinite(W).all() or (W < 0).any():
        raise ValueError("weights must be finite non-negative numbers (no NaN, no inf)")
    return W


def stored_classes(y_B, n: int, classes: tuple | None) -> np.ndarray:
    """Class indices (in ``classes`` order) of ``n`` stored instances labelled ``y_B``."""
    labels = pd.Series(np.asarray(y_B))
    if len(labels) != n:
        raise ValueError(f"y_B has {len(labels)} labels for {n} rows of B")
    lookup = {c: i for i, c in enumerate(classes or ())}
    unknown = set(labels) - set(lookup)
    if unknown:
        raise ValueError(f"y_B holds classes {sorted(map(str, unknown))} not seen in fit")
    return labels.map(lookup).to_numpy(np.intp)


def check_k(k, n: int, *, leave_one_out: bool = False) -> int:
    """``k`` as an int between 1 and the number of stored instances ``n`` (``n - 1`` for leave-one-out)."""
    high = n - 1 if leave_one_out else n
    if not (isinstance(k, (int, np.integer)) and not isinstance(k, bool) and 1 <= k <= high):
        where = f"n - 1 = {high} for leave-one-out" if leave_one_out else f"the training set size {high}"
        raise ValueError(f"k must be an integer between 1 and {where}, got {k!r}")
    return int(k)
