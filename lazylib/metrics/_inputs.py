"""What a fitted metric accepts, checked in one place: queries and stored instances encoded exactly as the
training data were (:class:`Schema`; :func:`operands` makes them the engine's input), attribute weights
(:func:`check_weights`), the classes of stored instances (:func:`stored_classes`) and a number of neighbours
(:func:`check_k`). Every check raises a ``ValueError`` that names the problem; :class:`lazylib.metrics.Metric`
calls them and holds no validation of its own.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from lazylib._validation import Real, check
from lazylib.encoding import SET, Encoded
from lazylib.metrics._declaration import Operands, SetSides


def operands(metric, A, B=None, y_B=None) -> Operands:
    """The engine's input for a fitted ``metric``: the queries ``A`` and stored instances ``B`` (None: the
    training data, whose classes are known) encoded as the training data were, the classes of ``B`` (``y_B``,
    needed by per-class weights) and the set tables of both sides."""
    metric._check_fitted()
    Zq, sets_q = metric.schema_.encode_with_sets(A, "A")
    if B is None:
        Zs, classes, sets_s = metric.X_, metric.y_, metric.sets_
    else:
        Zs, sets_s = metric.schema_.encode_with_sets(B, "B")
        classes = None if y_B is None else stored_classes(y_B, len(Zs), metric.classes_)
    if metric.weights_ is not None and metric.weights_.ndim == 2 and classes is None:
        raise ValueError("per-class weights apply to the class of each stored instance: pass y_B with B")
    sets = None if metric.sets_ is None else SetSides(sets_q, sets_s)
    return Operands(Zq, Zs, classes, B is None, sets)


def training_operands(metric) -> Operands:
    """The engine's input for a leave-one-out search of a fitted ``metric``: its training data as both the
    queries and the stored instances."""
    metric._check_fitted()
    sets = None if metric.sets_ is None else SetSides(metric.sets_, metric.sets_)
    return Operands(metric.X_, metric.X_, metric.y_, True, sets)


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


def _check_labels(name: str, what: str, given, expected) -> None:
    """Refuse a Series/DataFrame of weights missing some of the ``expected`` labels, naming them."""
    missing = [c for c in expected if c not in set(given)]
    if missing:
        raise ValueError(
            f"{name} misses the {what} {missing!r:.200}: give a weight for every one of {list(expected)!r:.200}"
        )


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
        _check_labels("weights", "columns", weights.columns, columns)
        _check_labels("weights", "classes (rows)", weights.index, classes)
        weights = weights.reindex(index=list(classes), columns=list(columns)).to_numpy(float)
    elif isinstance(weights, pd.Series):
        _check_labels("weights", "columns", weights.index, columns)
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
    lookup = {c: i for i, c in enumerate(() if classes is None else classes)}
    unknown = set(labels) - set(lookup)
    if unknown:
        raise ValueError(f"y_B holds classes {sorted(map(str, unknown))} not seen in fit")
    return labels.map(lookup).to_numpy(np.intp)


def check_tie_tolerance(tie_tolerance) -> float:
    """``tie_tolerance`` as a float in [0, 1) (the rule of every estimator's ``tie_tolerance``), or a ValueError
    naming it and its value."""
    return check("tie_tolerance", tie_tolerance, Real(0, 1, open_high=True))


def check_k(k, n: int, *, leave_one_out: bool = False) -> int:
    """``k`` as an int between 1 and the number of stored instances ``n`` (``n - 1`` for leave-one-out)."""
    high = n - 1 if leave_one_out else n
    if not (isinstance(k, (int, np.integer)) and not isinstance(k, bool) and 1 <= k <= high):
        where = f"n - 1 = {high} for leave-one-out" if leave_one_out else f"the training set size {high}"
        raise ValueError(f"k must be an integer between 1 and {where}, got {k!r}")
    return int(k)
