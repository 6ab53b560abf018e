"""What every metric does with awkward input, found out by asking it: the input policy table of the book's
"Robustness" appendix.

Each column of :func:`policy_table` is a small probe run against the library (fit on a few instances, then
look at a distance or at the error raised), so the table cannot drift from the code.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from lazylib.metrics import REGISTRY, available, make_metric

#: Parameters a metric cannot be made without (the quadratic distance needs its matrix).
REQUIRED = {"quadratic": {"Q": np.eye(2)}, "wom": {"weights": [1.0, 1.0]}}


def _metric(name: str):
    return make_metric(name, **REQUIRED.get(name, {}))


def _probe_data(name: str) -> tuple[pd.DataFrame, np.ndarray]:
    """Four instances of two classes: a nominal and a linear attribute for metrics that take every kind, two
    linear ones for the others."""
    X = pd.DataFrame({"a": [0.5, 1.0, 2.0, 4.0], "b": [3.0, 1.0, 2.0, 0.5]})
    if REGISTRY[name].accepts is None:
        X["a"] = pd.Categorical(["u", "v", "u", "w"])  # u seen with both classes, v and w with one
    return X, np.array([0, 0, 1, 1])


def _refused(call) -> bool:
    try:
        call()
    except ValueError:
        return True
    return False


def _unknown_rule(name: str) -> str:
    X, y = _probe_data(name)
    X.iloc[0, 0] = np.nan
    metric = _metric(name)
    if _refused(lambda: metric.fit(X, y)):
        return "refused"
    d_self = metric.pairwise(X.iloc[:1], X.iloc[:1])[0, 0]
    return "a value of its own" if d_self == 0 else "distance 1 to anything"


def _unseen_rule(name: str) -> str:
    X, y = _probe_data(name)
    if not isinstance(X["a"].dtype, pd.CategoricalDtype):
        return "-"
    X = X.assign(a=X["a"].cat.add_categories(["z"]))  # a declared value no training row has
    metric = _metric(name).fit(X, y)
    d = metric.pairwise(X.assign(a=pd.Categorical(["z"] * 4, categories=X["a"].cat.categories)))
    return "finite distance" if np.isfinite(d).all() else "non-finite"


def _infinite(name: str) -> str:
    X, y = _probe_data(name)
    X.iloc[1, 1] = np.inf
    return "refused" if _refused(lambda: _metric(name).fit(X, y)) else "accepted"


def _all_missing(name: str) -> str:
    X, y = _probe_data(name)
    X["b"] = np.nan
    metric = _metric(name)
    if _refused(lambda: metric.fit(X, y)):
        return "refused"
    return "unknown everywhere" if np.isfinite(metric.pairwise(X)).all() else "non-finite"


def _single_class(name: str) -> str:
    X, _ = _probe_data(name)
    return "refused" if _refused(lambda: _metric(name).fit(X, np.zeros(len(X), int))) else "allowed"


def _symmetric(name: str) -> str:
    X, y = _probe_data(name)
    D = _metric(name).fit(X, y).pairwise(X)
    return "yes" if np.allclose(D, D.T) else "no"


def _names(names) -> list[str]:
    """``names`` checked: None for every registered metric, one name, or a non-empty list of names."""
    from lazylib._validation import suggest

    if names is None:
        return available()
    names = [names] if isinstance(names, str) else list(names)
    if not names:
        raise ValueError("no metric names given: pass None for every registered metric")
    for name in names:
        if name not in REGISTRY:
            raise ValueError(
                f"unknown metric {name!r}{suggest(name, available())} (available: {', '.join(available())})"
            )
    return names


def policy_table(names=None) -> pd.DataFrame:
    """One row per metric name (``names``: one name, a list of names, or None for every name of
    :func:`lazylib.metrics.available`), with what it
    accepts and what it does with unknown, unseen, infinite and all-missing values, a single training class,
    and whether it is symmetric. Every cell comes from running the metric.

    Examples
    --------
    >>> table = policy_table(["hvdm", "vdm"])
    >>> table["unknown value"].to_dict()
    {'hvdm': 'distance 1 to anything', 'vdm': 'a value of its own'}
    >>> table["symmetric"].to_dict()
    {'hvdm': 'yes', 'vdm': 'no'}
    """
    rows = {}
    for name in _names(names):
        accepts = REGISTRY[name].accepts
        rows[name] = {
            # accepts None: every kind but set-valued (which only FeatureDifference and MDW take)
            "attribute kinds": ", ".join(sorted(set(accepts or ("nominal", "continuous", "integer")))),
            "class labels": "needed" if REGISTRY[name].needs_labels else "not needed",
            "unknown value": _unknown_rule(name),
            "unseen nominal value": _unseen_rule(name),
            "infinite value": _infinite(name),
            "all-missing training column": _all_missing(name),
            "one training class": _single_class(name),
            "symmetric": _symmetric(name),
        }
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("metric")


# What every estimator does with awkward input (the classes of bad input of the one input path).


def _estimator_makers() -> dict:
    from lazylib.neighbors import KNeighborsClassifier
    from lazylib.selection import FNNSelector, MonteCarloSelector
    from lazylib.subspace import SubspaceMapping
    from lazylib.trees import C45Classifier
    from lazylib.vfi import VFI5Classifier
    from lazylib.weighting.sets import DifferenceKNN

    return {
        "KNeighborsClassifier": lambda: KNeighborsClassifier(1, "hvdm"),
        "C45Classifier": lambda: C45Classifier(min_cases=1),
        "VFI5Classifier": VFI5Classifier,
        "DifferenceKNN": DifferenceKNN,
        "SubspaceMapping": lambda: SubspaceMapping("cacp"),
        "MonteCarloSelector": lambda: MonteCarloSelector(n_subsets=3, random_state=0),
        "FNNSelector": lambda: FNNSelector({"min_cases": 1}),
    }


def _estimator_data(numeric: bool) -> tuple[pd.DataFrame, np.ndarray]:
    """Six instances of two classes: a nominal and a linear attribute, or (``numeric``) two linear ones."""
    X = pd.DataFrame({"a": [0.0, 0.2, 0.1, 1.0, 1.2, 1.1], "b": [3.0, 2.0, 3.5, 0.5, 1.0, 0.2]})
    if not numeric:
        X["a"] = pd.Categorical(["u", "u", "v", "w", "w", "v"])
    return X, np.array(["p", "p", "p", "q", "q", "q"])


def _outcome(call) -> str:
    try:
        call()
    except ValueError:
        return "refused"
    return "accepted"


def _query(est, X):
    return est.predict(X) if hasattr(est, "predict") else est.transform(X)


def estimator_table() -> pd.DataFrame:
    """One row per estimator of lazylib, with what it does with each class of awkward input of the one input
    path (:func:`lazylib.encoding.fit_input` / ``query_input``): every cell comes from running the estimator on
    six instances (numeric ones for the mapping and the selectors, a nominal and a linear attribute for the
    others).

    Examples
    --------
    >>> row = estimator_table().loc["VFI5Classifier"]
    >>> row["columns reordered"], row["label 1 and '1'"], row["fitted types reused"]
    ('refused', 'refused', 'yes')
    """
    rows = {name: _estimator_row(name, make) for name, make in _estimator_makers().items()}
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("estimator")


def _estimator_row(name: str, make) -> dict:
    import pickle

    numeric = name in ("SubspaceMapping", "MonteCarloSelector", "FNNSelector")
    X, y = _estimator_data(numeric)
    est = make().fit(X, y)
    other = None if numeric else X.assign(a=X["a"].cat.reorder_categories(["w", "v", "u"]))
    reused = "-"  # numeric attributes only: no types to declare
    if not numeric:  # fitted with the types a loader gives (b "integer"), then asked about the same frame
        typed = make().fit(X, y, types={"a": "nominal", "b": "integer"})
        reused = "yes" if np.array_equal(_query(typed, X), _query(est, X)) else "no"
    garbage = np.array([[0.0, "x"], [1.0, 2.0], [2.0, 1.0], [3.0, 0.0], [4.0, 1.0], [5.0, 2.0]], dtype=object)
    return {
        "columns reordered": _outcome(lambda: _query(est, X[["b", "a"]])),
        "columns renamed": _outcome(lambda: _query(est, X.rename(columns={"b": "c"}))),
        "category list in another order": "-" if numeric else _outcome(lambda: _query(est, other)),
        "NaN label": _outcome(lambda: make().fit(X, np.array(["p", "p", None, "q", "q", "q"], dtype=object))),
        "single class": _outcome(lambda: make().fit(X, np.array(["p"] * 6))),
        "label 1 and '1'": _outcome(lambda: make().fit(X, np.array([1, 1, 1, "1", "1", "1"], dtype=object))),
        "complex values": _outcome(lambda: make().fit(X.assign(b=X["b"] + 1j), y)),
        "text in a numeric array": _outcome(lambda: make().fit(garbage, y)),
        "fitted types reused": reused,
        "pickled": "same output"
        if np.array_equal(_query(pickle.loads(pickle.dumps(est)), X), _query(est, X))
        else "differs",
    }
