"""What a fitted metric stores besides the training instances themselves (Wilson & Martinez, section 6.2.1)."""

from __future__ import annotations

import functools
import types

import numpy as np
import pandas as pd

#: The stored instances: O(nm) for every metric, so left out of the comparison the paper makes.
TRAINING_DATA = ("X_", "y_", "sets_")
#: The engine's record of the fitted metric (its terms, already counted, and the training data's stored side,
#: derived from the training data to speed the search up and rebuilt on demand): not part of the model.
CACHES = ("_declaration",)


def fitted_bytes(metric) -> int:
    """Bytes of the arrays a fitted metric keeps beyond its stored instances: probability tables, ranges,
    interpolation points, weights...: the storage each distance function needs on top of the ``O(nm)`` training
    set (Wilson & Martinez 1997, section 6.2.1, Table 9).

    Parameters
    ----------
    metric : lazylib.metrics.Metric
        A fitted metric.

    Returns
    -------
    int
        The bytes of every numpy array (and pandas object) reachable from the metric's fitted attributes, its
        attribute terms and the closures they hold, each counted once; the training instances ``X_``, ``y_``,
        ``sets_`` and the engine's caches are not counted.

    Examples
    --------
    A standardised Euclidean distance keeps each attribute's mean and deviation, and each term's centring shift:

    >>> from lazylib.metrics import make_metric
    >>> X = np.arange(12.0).reshape(6, 2)
    >>> fitted_bytes(make_metric("euclidean", normalize="std").fit(X, types=["continuous"] * 2))  # 3 x 2 floats
    48
    """
    metric._check_fitted()
    seen: set[int] = set()
    for name in TRAINING_DATA:
        value = getattr(metric, name, None)
        if isinstance(value, np.ndarray):
            seen.add(id(value))
            if value.base is not None:
                seen.add(id(value.base))
    state = {k: v for k, v in vars(metric).items() if k not in TRAINING_DATA + CACHES}
    return _walk(state, seen)


def _walk(obj, seen: set[int]) -> int:
    if id(obj) in seen or obj is None or isinstance(obj, (str, bytes, bool, int, float, complex, np.generic, type)):
        return 0
    seen.add(id(obj))
    if isinstance(obj, np.ndarray):
        return obj.nbytes if obj.base is None else _walk(obj.base, seen)
    if isinstance(obj, (pd.Series, pd.DataFrame, pd.Index)):
        return int(np.sum(obj.memory_usage(index=True, deep=False)))
    if isinstance(obj, dict):
        return sum(_walk(k, seen) + _walk(v, seen) for k, v in obj.items())
    if isinstance(obj, (list, tuple, set, frozenset)):
        return sum(_walk(x, seen) for x in obj)
    if isinstance(obj, functools.partial):
        return _walk(obj.func, seen) + _walk(obj.args, seen) + _walk(obj.keywords, seen)
    if isinstance(obj, types.FunctionType):
        cells = [c.cell_contents for c in obj.__closure__ or () if c.cell_contents is not None]
        return _walk(cells, seen) + _walk(obj.__defaults__, seen)
    if isinstance(obj, types.MethodType):
        return _walk(obj.__self__, seen)
    if hasattr(obj, "__dict__") and type(obj).__module__.startswith("lazylib"):
        return _walk(vars(obj), seen)
    return 0
