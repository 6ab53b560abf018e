"""k-nearest-neighbour classification with any metric of :mod:`lazylib.metrics`, one documented tie rule, and
leave-one-out choice of k from a single training distance matrix.

Ties decide a surprising share of 1-NN results on overlap-style metrics, where many stored instances share the
nearest distance. The default rule, ``ties="all"``:

1. every stored instance whose distance equals the k-th smallest distance votes (so more than k may vote);
2. a tied vote goes to the class more frequent in the training data, then to the lowest class index.

``ties="first"`` keeps exactly k neighbours, breaking distance ties by stored order, and a tied vote goes to
the lowest class index (scikit-learn's behaviour), for comparison. Distances within ``tie_tolerance`` (relative,
1e-9 by default) of the k-th count as equal: BLAS can round one distance differently from an identical one.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from lazylib.metrics import Metric, make_metric
from lazylib.metrics._encode import encode_labels
from lazylib.metrics._search import row_starts, select, tolerance

TIE_RULES = ("all", "first")


class KNeighborsClassifier:
    """k-NN classifier (scikit-learn conventions: parameters in ``__init__``, fitted attributes end in ``_``).

    Parameters
    ----------
    n_neighbors : int
        k.
    metric : str or Metric
        A name of :func:`lazylib.metrics.available` or an unfitted metric object.
    metric_params : dict, optional
        Parameters for :func:`lazylib.metrics.make_metric`.
    ties : {"all", "first"}
        The tie rule (module docstring).
    tie_tolerance : float
        Relative tolerance within which distances count as tied.

    Examples
    --------
    >>> from lazylib.datasets import load
    >>> iris = load("iris")
    >>> knn = KNeighborsClassifier(n_neighbors=1, metric="euclidean").fit(iris.X, iris.y)
    >>> knn.score(iris.X, iris.y)
    1.0
    """

    def __init__(self, n_neighbors: int = 1, metric="hvdm", metric_params=None, ties: str = "all",
                 tie_tolerance: float = 1e-9):
        self.n_neighbors = n_neighbors
        self.metric = metric
        self.metric_params = metric_params
        self.ties = ties
        self.tie_tolerance = tie_tolerance

    def fit(self, X, y, *, types=None):
        """Store the training data and fit the metric on it."""
        if self.ties not in TIE_RULES:
            raise ValueError(f"ties must be one of {TIE_RULES}, got {self.ties!r}")
        n = len(X)
        if not (isinstance(self.n_neighbors, (int, np.integer)) and self.n_neighbors >= 1):
            raise ValueError(f"n_neighbors must be a positive integer, got {self.n_neighbors!r}")
        if self.n_neighbors > n:
            raise ValueError(f"n_neighbors={self.n_neighbors} is larger than the training set ({n} instances)")
        self.y_, self.classes_ = encode_labels(y, n)
        self.metric_ = self._make_metric().fit(X, self.y_, types=types)
        self.class_counts_ = np.bincount(self.y_, minlength=len(self.classes_))
        self.priority_ = vote_priority(self.class_counts_)
        return self

    def _make_metric(self) -> Metric:
        if isinstance(self.metric, Metric):
            if self.metric_params:
                raise ValueError("metric_params only apply when metric is given by name")
            return self.metric
        return make_metric(self.metric, **(self.metric_params or {}))

    def _check(self):
        if not hasattr(self, "metric_"):
            from lazylib.metrics import NotFittedError

            raise NotFittedError("KNeighborsClassifier is not fitted: call fit(X, y) first")

    def kneighbors(self, X, n_neighbors: int | None = None, return_distance: bool = True):
        """Indices (and distances) of the ``n_neighbors`` nearest stored instances of each query, nearest
        first; distances tied within ``tie_tolerance`` with the k-th are taken in stored order."""
        self._check()
        k = self.n_neighbors if n_neighbors is None else n_neighbors
        if k > len(self.y_):
            raise ValueError(f"n_neighbors={k} is larger than the training set ({len(self.y_)} instances)")
        dist, idx = [], []
        for start, stop, rows, cols, sums in self.metric_.nearest_chunks(X, k, self.tie_tolerance):
            i, d = first_k(rows - start, cols, sums, stop - start, k, self.tie_tolerance)
            idx.append(i)
            dist.append(d)
        idx = np.vstack(idx)
        return (self.metric_.from_reduced(np.vstack(dist)), idx) if return_distance else idx

    def predict(self, X) -> np.ndarray:
        """Predicted class labels."""
        self._check()
        k = self.n_neighbors
        out = [vote_nearest(rows - start, cols, sums, stop - start, self.y_, k, self.priority_, self.ties,
                            self.tie_tolerance)
               for start, stop, rows, cols, sums in self.metric_.nearest_chunks(X, k, self.tie_tolerance)]
        return np.asarray(list(self.classes_))[np.concatenate(out)]

    def score(self, X, y) -> float:
        """Accuracy on ``(X, y)``."""
        truth = np.asarray(list(y.astype(object)) if isinstance(y, pd.Series) else y, dtype=object)
        return float(np.mean(self.predict(X).astype(object) == truth))


def knn_makers(metrics: dict, n_neighbors: int = 1, **params) -> dict:
    """One factory of fresh :class:`KNeighborsClassifier` per entry of ``metrics``, for
    :func:`lazylib.evaluation.compare`.

    Parameters
    ----------
    metrics : dict
        Display name -> a metric name of :func:`lazylib.metrics.available`, or a callable (such as a metric
        class) returning a fresh unfitted metric, so no fitted state is shared between folds.
    n_neighbors, **params
        Passed to every classifier (e.g. ``ties="first"``).

    Examples
    --------
    >>> from lazylib.weighting import LearnedWOM
    >>> makers = knn_makers({"OM": "overlap", "WOM": LearnedWOM}, ties="first")
    >>> clf = makers["WOM"]()
    >>> type(clf.metric).__name__, clf.ties
    ('LearnedWOM', 'first')
    """
    def factory(metric):
        if isinstance(metric, str):
            return lambda: KNeighborsClassifier(n_neighbors, metric, **params)
        if callable(metric) and not isinstance(metric, Metric):
            return lambda: KNeighborsClassifier(n_neighbors, metric(), **params)
        raise ValueError(f"metrics values must be metric names or callables returning a metric, got {metric!r}")

    return {name: factory(metric) for name, metric in metrics.items()}


def vote_priority(class_counts: np.ndarray) -> np.ndarray:
    """Fractional tie-breaker in (0, 1): higher for classes more frequent in training, then lower index."""
    C = len(class_counts)
    order = np.lexsort((np.arange(C), -class_counts))  # most frequent first, then lowest index
    rank = np.empty(C)
    rank[order] = np.arange(C)
    return (C - rank) / (C + 1)


def vote(D: np.ndarray, y: np.ndarray, k: int, priority: np.ndarray, ties: str = "all",
         tie_tolerance: float = 1e-9) -> np.ndarray:
    """Class indices voted by the k nearest columns of each row of ``D`` under a tie rule (module docstring)."""
    if ties not in TIE_RULES:
        raise ValueError(f"ties must be one of {TIE_RULES}, got {ties!r}")
    rows, cols, sums = select(D, k, tie_tolerance)
    return vote_nearest(rows, cols, sums, len(D), y, k, priority, ties, tie_tolerance)


def vote_nearest(rows, cols, sums, n: int, y: np.ndarray, k: int, priority: np.ndarray, ties: str = "all",
                 tie_tolerance: float = 1e-9) -> np.ndarray:
    """Class indices voted for ``n`` queries from their nearest stored instances as
    :meth:`lazylib.metrics.Metric.nearest_chunks` gives them: ``(rows, cols, sums)`` sorted by row, then sum,
    then column, holding each row's k nearest and everything tied with the k-th."""
    C = len(priority)
    if ties == "all":
        votes = np.bincount(rows * C + y[cols], minlength=n * C).reshape(n, C)
        return np.argmax(votes + priority, axis=1)
    if ties == "first":
        idx, _ = first_k(rows, cols, sums, n, k, tie_tolerance)
        votes = np.zeros((n, C))
        np.add.at(votes, (np.repeat(np.arange(n), k), y[idx].ravel()), 1.0)
        return np.argmax(votes, axis=1)  # argmax takes the lowest index among equal counts
    raise ValueError(f"ties must be one of {TIE_RULES}, got {ties!r}")


def first_k(rows, cols, sums, n: int, k: int, tie_tolerance: float = 1e-9):
    """Exactly k neighbours per row from :func:`vote_nearest`'s candidates: those nearer than the k-th (beyond
    the tolerance), then the lowest stored indices among those tied with it. Returns ``(idx, sums)``, each
    (n, k), nearest first (equal sums in stored order)."""
    starts = row_starts(rows, n)
    kth = sums[starts + k - 1]
    tied = sums >= (kth - tolerance(kth, tie_tolerance))[rows]
    # within a row: the nearer ones by sum, then the tied ones by stored index
    order = np.lexsort((cols, np.where(tied, 0.0, sums), tied, rows))
    take = order[(starts[:, None] + np.arange(k)).ravel()]
    idx, near = cols[take].reshape(n, k), sums[take].reshape(n, k)
    by_distance = np.lexsort((idx, near))
    return np.take_along_axis(idx, by_distance, axis=1), np.take_along_axis(near, by_distance, axis=1)


def loo_accuracy_by_k(X, y, ks, metric="hvdm", metric_params=None, *, types=None, ties: str = "all",
                      tie_tolerance: float = 1e-9) -> pd.Series:
    """Leave-one-out accuracy on the training data for every k in ``ks``, from one distance matrix.

    Each instance is classified by the others (its own column is excluded), with the same tie rule as
    :class:`KNeighborsClassifier`. The distance matrix is computed once, in chunks of rows. The metric's
    statistics (probabilities, deviations) are those of the whole training set: only the neighbour itself is
    left out, as when the fitted classifier is asked about one of its own stored instances.

    Returns
    -------
    Series of accuracies indexed by k.
    """
    ks = sorted(set(int(k) for k in ks))
    n = len(X)
    if not ks or ks[0] < 1 or ks[-1] > n - 1:
        raise ValueError(f"every k must be between 1 and n - 1 = {n - 1} for leave-one-out, got {ks}")
    clf = KNeighborsClassifier(1, metric, metric_params, ties, tie_tolerance).fit(X, y, types=types)
    correct = np.zeros(len(ks))
    for start, stop, D in clf.metric_.pairwise_chunks(X, reduced=True):
        D[np.arange(stop - start), np.arange(start, stop)] = np.inf
        for i, k in enumerate(ks):
            pred = vote(D, clf.y_, k, clf.priority_, ties, tie_tolerance)
            correct[i] += (pred == clf.y_[start:stop]).sum()
    return pd.Series(correct / n, index=pd.Index(ks, name="k"), name="loo_accuracy")


def select_k_loo(X, y, ks=(1, 3, 5, 7, 9, 11, 13, 15), metric="hvdm", metric_params=None, *, types=None,
                 ties: str = "all") -> int:
    """The k with the best leave-one-out training accuracy (the smallest such k on ties), as Howe & Cardie
    chose k for every fold."""
    acc = loo_accuracy_by_k(X, y, [k for k in ks if k < len(X)], metric, metric_params, types=types, ties=ties)
    return int(acc.idxmax())
