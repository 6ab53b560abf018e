"""Class labels: the one label encoder of lazylib (:func:`encode_labels`: labels to indices ``0..C-1`` and the classes
in order) and the labels as an object array of their own values, for comparisons (:func:`label_values`).

>>> encode_labels(["b", "a", "b"], 3)
(array([1, 0, 1]), array(['a', 'b'], dtype=object))
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.utils.multiclass import type_of_target
from sklearn.utils.validation import column_or_1d


def encode_labels(y, n: int, *, min_classes: int = 2, column: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Class labels -> (indices 0..C-1, classes in order): the one label encoder of lazylib.

    The classes are an array in the labels' own dtype (integers stay integers, strings stay strings; the
    categories of a Categorical, in category order, restricted to those present), so ``classes[codes]`` gives
    back the labels, as scikit-learn's ``classes_`` does. Labels of mixed kinds that do not sort together
    (``1`` and ``"1"``), complex numbers and non-integral floats (a regression target) are refused, not merged
    or rounded.

    Raises
    ------
    ValueError
        If ``y`` is missing, has the wrong length, holds a missing label, is not a classification target, or
        has fewer than ``min_classes`` classes (two by default: class-conditional statistics need two; a metric
        that only carries the labels along, such as the Euclidean distance, accepts one). An (n, 1) column is
        refused too, unless ``column`` (the estimators, as scikit-learn's do: with a DataConversionWarning).

    Examples
    --------
    >>> codes, classes = encode_labels([3, 1, 3], 3)
    >>> codes.tolist(), classes.tolist(), classes.dtype.kind
    ([1, 0, 1], [1, 3], 'i')
    """
    if y is None:
        raise ValueError(
            "this estimator requires y to be passed, but the target y is None: it learns from class labels, "
            "call fit(X, y)"
        )
    if hasattr(y, "__array__") and not isinstance(y, (pd.Series, pd.Categorical, pd.Index, np.ndarray)):
        y = np.asarray(y)  # an array-like (not a list: numpy would turn 1 and "1" into one string)
    if column and not isinstance(y, pd.Series) and np.ndim(y) == 2 and np.shape(y)[1] == 1:
        y = column_or_1d(y, warn=True)  # an estimator's column vector, as scikit-learn accepts it (with a warning)
    if not isinstance(y, pd.Series) and np.ndim(y) != 1:
        raise ValueError(f"y must be one-dimensional (one label per row), got shape {np.shape(y)}")
    found = _plain_labels(y, n, min_classes)
    if found is not None:
        return found
    if isinstance(y, pd.Series):
        series = y
    elif isinstance(y, (np.ndarray, pd.Categorical, pd.Index)) or hasattr(y, "__array__"):
        series = pd.Series(y)
    else:  # a list: pandas keeps each label's type (numpy would turn 1 and "1" into the same string)
        series = pd.Series(list(y), dtype=object if any(isinstance(v, str) for v in y) else None)
    if series.ndim != 1 or len(series) != n:
        raise ValueError(f"y has {len(series)} labels but X has {n} rows")
    if isinstance(series.dtype, pd.CategoricalDtype):
        return _categorical_labels(series, min_classes)
    if series.dtype == object:
        series = series.infer_objects()  # numbers held as objects are numbers
    values = y if isinstance(y, np.ndarray) and y.dtype.kind in "iubU" else series.to_numpy()
    if np.iscomplexobj(values) or any(isinstance(v, complex) for v in values[:1000] if values.dtype == object):
        raise ValueError("y holds complex numbers: Unknown label type for classification")
    if series.isna().any():
        raise ValueError(f"y has {int(series.isna().sum())} missing labels; drop those rows or label them")
    if values.dtype == object and len(values) and set(map(type, values.tolist())) == {str}:
        index, classes = _text_labels(values)  # what np.unique gives, without sorting 50,000 objects
        _check_classes(classes, min_classes)
        return index, classes
    classes, index = _sorted_classes(values)
    if values.dtype.kind == "f" and np.isinf(values).any():
        raise ValueError("Unknown label type: y holds infinite values, which are not class labels")
    # integers and booleans in one dimension are binary or multiclass targets (what type_of_target says of them)
    kind = "multiclass" if values.dtype.kind in "iub" else type_of_target(values, input_name="y")
    if kind not in ("binary", "multiclass"):
        raise ValueError(
            f"Unknown label type: y is {kind!r}, not class labels (a classifier needs a finite set of labels; "
            "non-integral floats are a regression target)"
        )
    _check_classes(classes, min_classes)
    return index.astype(np.intp).ravel(), classes


def _plain_labels(y, n: int, min_classes: int) -> tuple[np.ndarray, np.ndarray] | None:
    """:func:`encode_labels` of a one-dimensional array of ``n`` integers (class codes) or of Python ``str``
    only, which hold no missing label and are class labels, read without a pandas Series (the same codes and
    classes); None for anything else."""
    if not (isinstance(y, np.ndarray) and y.ndim == 1 and len(y) == n):
        return None
    if y.dtype.kind in "iu":
        classes, index = _sorted_classes(y)
        index = index.astype(np.intp).ravel()
    elif y.dtype == object and len(y) and set(map(type, y.tolist())) == {str}:
        index, classes = _text_labels(y)
    else:
        return None
    _check_classes(classes, min_classes)
    return index, classes


def _categorical_labels(series: pd.Series, min_classes: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`encode_labels` of a Categorical: category codes -> positions among the categories present, in
    category order."""
    codes = series.array.codes
    if (codes < 0).any():
        raise ValueError(f"y has {int((codes < 0).sum())} missing labels; drop those rows or label them")
    present = np.bincount(codes, minlength=len(series.cat.categories)) > 0
    classes = series.cat.categories[present].to_numpy()
    _check_classes(classes, min_classes)
    position = np.cumsum(present) - 1
    return position[codes].astype(np.intp), classes


def _sorted_classes(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(values, return_inverse=True)``, refusing labels of types that do not sort together."""
    try:
        return np.unique(values, return_inverse=True)
    except TypeError:
        kinds = sorted({type(v).__name__ for v in values})
        raise ValueError(
            f"y mixes labels of types {kinds} that do not sort together (e.g. 1 and '1'); give every label one type"
        ) from None


def _text_labels(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(index, classes)`` of an object array of ``str`` labels: the classes sorted (Python's order of str, the
    order ``np.unique`` sorts an object array in) and each label's position among them, as ``np.unique(values,
    return_inverse=True)`` gives them, from a set and a dict instead of a sort of every label. Text labels
    are class labels (``type_of_target`` calls them binary or multiclass), so no further check is needed."""
    labels = values.tolist()
    classes = sorted(set(labels))
    position = dict(zip(classes, range(len(classes))))
    return np.fromiter(map(position.__getitem__, labels), np.intp, len(labels)), np.array(classes, dtype=object)


def label_values(y) -> np.ndarray:
    """The class labels of ``y`` as a 1-D object array of the user's own values (a Categorical's category values,
    not its codes): :func:`encode_labels`'s classes looked up by its indices, so checked as it checks them (one
    class is enough). This is what the predictions of an estimator (``classes_[indices]``, taken as objects) are
    compared with, and what a protocol takes a subset of, stratifies on or counts classes of, whatever the
    labels' dtype.

    Raises
    ------
    ValueError
        As :func:`encode_labels` (a missing label, mixed label types, a regression target).

    Examples
    --------
    >>> label_values(pd.Series(pd.Categorical(["b", "a", "b"], categories=["b", "a"]))).tolist()
    ['b', 'a', 'b']
    >>> [type(v).__name__ for v in label_values(np.array([2, 1]))]
    ['int', 'int']
    """
    codes, classes = encode_labels(y, len(y), min_classes=1)
    return classes.astype(object)[codes]


def _check_classes(classes, min_classes: int = 2) -> None:
    if len(classes) < min_classes:
        raise ValueError(
            f"y has a single class {tuple(np.asarray(classes).tolist())!r}: one class is not enough, "
            "class-conditional probabilities and classifiers need at least two"
        )
