"""k-nearest-neighbour classification with any metric of :mod:`lazylib.metrics`, three documented tie rules, and
leave-one-out choice of k.

Ties decide a surprising share of 1-NN results on overlap-style metrics, where many stored instances share the
nearest distance. The tie rules are owned by :mod:`lazylib.search` (which finds the tied instances) and
applied by :mod:`lazylib.voting` (which every part of lazylib that votes among nearest neighbours calls); they
read as follows. For each query, the stored instances split into those *strictly nearer* than the k-th
smallest distance (fewer than k), and those *tied* with it (at least one, within ``tie_tolerance``):

``ties="all"`` (the default)
    1. every stored instance whose distance equals the k-th smallest distance votes (so more than k may vote);
    2. a tied vote goes to the class more frequent in the training data, then to the lowest class index.
``ties="first"``
    exactly k neighbours vote: the strictly nearer ones and the tied ones with the lowest stored indices (file
    order); a tied vote goes to the lowest class index (scikit-learn's behaviour).
``ties="random"``
    exactly k neighbours vote: the strictly nearer ones and a uniformly random subset of the tied ones (for
    k = 1: one of the tied nearest, each with the same probability); a tied vote goes to one of the top
    classes, uniformly at random. Draws come from ``random_state``. The *expected* accuracy over these
    draws is computed exactly (:meth:`KNeighborsClassifier.predict_distribution`, ``score(...,
    expected=True)``): the number of tied voters of each class is multivariate hypergeometric, and the
    probability of each winner is summed over it (:func:`lazylib.voting.class_probabilities`).

Class order and file order: under "all" a tied vote goes to the more frequent class, then to the lower class
index, so reversing the class order can change predictions on equal votes between equally frequent classes;
under "first" both the file order (which tied instances vote) and the class order (who wins an equal vote)
matter: a data set stored sorted by class gives the first class every tie. "random" depends on neither: its
expected accuracy is invariant to both orders, and its draws only through the random stream.

Sums (distances before their root) within ``tie_tolerance`` of the k-th, relative to it (1e-9 by default),
count as equal: BLAS can round one distance differently from an identical one. The tolerance is relative
only, so rescaling the data changes no neighbour and no vote; sums near zero are recomputed from direct
differences, and identical instances are at exactly 0 (:mod:`lazylib.metrics`). Every rule sees the
same tied set. :meth:`KNeighborsClassifier.kneighbors` lists tied neighbours in stored order under every
rule, the same for a query alone or in a batch.
"""

from __future__ import annotations

import copy

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context

from lazylib._docs import fill_doc
from lazylib._validation import Boolean, Choice, Integer, Real, Seed, check, check_random_state, validate_params
from lazylib.encoding import check_query, fit_input
from lazylib.labels import encode_labels
from lazylib.metrics import Metric, make_metric
from lazylib.search import (
    TIE_RULES,
    TIE_TOLERANCE,
    check_ties,
)
from lazylib.voting import (
    Neighbourhood,
    block_neighbourhood,
    block_neighbourhoods,
    class_probabilities,
    decide,
    first_k,
    vote_priority,
)


@fill_doc
class KNeighborsClassifier(ClassifierMixin, BaseEstimator):
    """The k-NN classifier (scikit-learn conventions: parameters in ``__init__``, ``get_params``/``set_params``,
    fitted attributes end in ``_``).

    Parameters
    ----------
    n_neighbors : int
        The number of neighbours k.
    metric : str or Metric
        A name of :func:`lazylib.metrics.available` or a metric object; ``fit`` fits a copy (``metric_``), so one
        object can serve several classifiers.
    metric_params : dict, optional
        Parameters for :func:`lazylib.metrics.make_metric`.
    ties : {"all", "first", "random"}
        The tie rule (module docstring).
    tie_tolerance : float
        Relative tolerance within which distances count as tied.
    random_state : int, Generator or None
        Seed or generator of the draws of ``ties="random"``: an int seeds a fresh generator (the same draws at
        every call of ``predict``), a Generator is used as it is (its stream continues), None draws fresh
        entropy. Ignored by the other rules and by the expected accuracy.

    Attributes
    ----------
    {{fitted_input}}
    classes_ : ndarray of shape (C,)
        The class labels, in the order of their codes (the columns of :meth:`predict_distribution`).
    {{fitted_labels}}
    metric_ : Metric
        The fitted copy of ``metric``.
    class_counts_ : ndarray of shape (C,)
        Training instances per class.
    priority_ : ndarray of shape (C,)
        Rank of each class in the vote's last resort (:func:`lazylib.voting.vote_priority`: the most frequent
        class first).

    Examples
    --------
    >>> from lazylib.datasets import load
    >>> iris = load("iris")
    >>> knn = KNeighborsClassifier(n_neighbors=1, metric="euclidean").fit(iris.X, iris.y)
    >>> knn.score(iris.X, iris.y)
    1.0

    Tic-tac-toe is stored sorted by class, and under the overlap metric most boards have several nearest
    neighbours: the rules differ by 35 points on one test fold, and the expected accuracy of random ties lies
    between the other two:

    >>> from lazylib.evaluation import kfold
    >>> ttt = load("tic-tac-toe")
    >>> train, test = kfold(len(ttt.y), 10, random_state=1)[0]
    >>> {ties: round(KNeighborsClassifier(1, "overlap", ties=ties).fit(ttt.X.iloc[train], ttt.y.iloc[train])
    ...              .score(ttt.X.iloc[test], ttt.y.iloc[test], expected=True), 4)
    ...  for ties in ("first", "random", "all")}
    {'first': 0.6354, 'random': 0.8054, 'all': 0.9896}
    """

    def __init__(
        self,
        n_neighbors: int = 1,
        metric="hvdm",
        metric_params=None,
        ties: str = "all",
        tie_tolerance: float = TIE_TOLERANCE,
        random_state=None,
    ):
        self.n_neighbors = n_neighbors
        self.metric = metric
        self.metric_params = metric_params
        self.ties = ties
        self.tie_tolerance = tie_tolerance
        self.random_state = random_state

    _parameter_constraints: dict = {
        "n_neighbors": [Integer(low=1)],
        "metric": [str, Metric],
        "metric_params": [dict, None],
        "ties": [Choice(TIE_RULES)],
        "tie_tolerance": [Real(0, 1, open_high=True)],
        "random_state": [Seed()],
    }
    _validate_params = validate_params

    @_fit_context(prefer_skip_nested_validation=False)  # the metric object it holds validates its own
    def fit(self, X, y, *, types=None):
        """Store the training data and fit the metric on it.

        Parameters
        ----------
        {{fit_X}}
        {{labels}}
        {{fit_types}}

        Returns
        -------
        KNeighborsClassifier
            The fitted estimator itself.
        """
        enc = fit_input(self, X, types, sets=True)
        n = len(enc)
        if self.n_neighbors > n:
            raise ValueError(
                f"n_neighbors={self.n_neighbors} is larger than the training set ({n} instances, n_samples = {n})"
            )
        self.y_, self.classes_ = encode_labels(y, n, column=True)
        self.metric_ = self._make_metric().fit(enc, self.y_)
        self.class_counts_ = np.bincount(self.y_, minlength=len(self.classes_))
        self.priority_ = vote_priority(self.class_counts_)
        return self

    def _make_metric(self) -> Metric:
        if isinstance(self.metric, Metric):
            if self.metric_params:
                raise ValueError("metric_params only apply when metric is given by name")
            return copy.deepcopy(self.metric)  # fitted here: a metric object given to two classifiers is not shared
        return make_metric(self.metric, **(self.metric_params or {}))

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True  # an unknown value has the metric's own rule
        tags.input_tags.categorical = True  # nominal attributes as pandas Categorical columns
        return tags

    def _check(self, X=None):
        return check_query(self, X)

    def kneighbors(self, X, n_neighbors: int | None = None, return_distance: bool = True):
        """Indices (and distances) of the ``n_neighbors`` nearest stored instances of each query, nearest
        first; distances tied within ``tie_tolerance`` with the k-th are taken in stored order (whatever the
        tie rule).

        Parameters
        ----------
        {{queries}}
        n_neighbors : int, optional
            How many neighbours (default: the classifier's ``n_neighbors``).
        return_distance : bool
            Also return the distances.

        Returns
        -------
        distances : ndarray of shape (n, n_neighbors)
            Distances to the neighbours (only with ``return_distance``).
        indices : ndarray of shape (n, n_neighbors)
            Their indices among the stored instances.
        """
        X = self._check(X)
        k = self.n_neighbors if n_neighbors is None else n_neighbors
        if k > len(self.y_):
            raise ValueError(f"n_neighbors={k} is larger than the training set ({len(self.y_)} instances)")
        dist, idx = [], []
        for block in self.metric_.nearest_groups(X, k, self.tie_tolerance):
            # each group's first k members are enough: the k nearest take at most k of any group
            rows, cols, sums = block.groups.expand(block.rows, block.cols, block.sums, limit=k)
            i, d = first_k(rows - block.start, cols, sums, block.stop - block.start, k, self.tie_tolerance)
            idx.append(i)
            dist.append(d)
        idx = np.vstack(idx)
        return (self.metric_.from_reduced(np.vstack(dist)), idx) if return_distance else idx

    def _neighbourhoods(self, X, k: int | None = None, leave_one_out: bool = False):
        """:class:`lazylib.voting.Neighbourhood` of each block of queries (``leave_one_out``: the training
        instances, each among the others)."""
        k = self.n_neighbors if k is None else k
        for block in self.metric_.nearest_groups(X, k, self.tie_tolerance, leave_one_out=leave_one_out):
            nb = block_neighbourhood(
                block,
                self.y_,
                len(self.classes_),
                k,
                self.tie_tolerance,
                first=self.ties == "first",
                leave_one_out=leave_one_out,
            )
            yield block.start, block.stop, nb

    def predict(self, X) -> np.ndarray:
        """Predicted class labels (``ties="random"``: one draw, from ``random_state``).

        Parameters
        ----------
        {{queries}}

        Returns
        -------
        ndarray of shape (n,)
            The predicted class label of each query.
        """
        X = self._check(X)
        rng = check_random_state(self.random_state) if self.ties == "random" else None
        out = [decide(nb, self.n_neighbors, self.priority_, self.ties, rng) for *_, nb in self._neighbourhoods(X)]
        return self.classes_[np.concatenate(out)]

    def predict_loo(self) -> np.ndarray:
        """Leave-one-out predicted class labels of the training instances: each is classified by the others (its
        own stored row excluded, the metric's fitted statistics kept), with the tie rule, as in
        :func:`loo_accuracy_by_k` (whose accuracy for ``k = n_neighbors`` is ``mean(predict_loo() == y)``).

        Returns
        -------
        ndarray of shape (n,)
            The predicted class label of each training instance.
        """
        self._check()
        rng = check_random_state(self.random_state) if self.ties == "random" else None
        out = [
            decide(nb, self.n_neighbors, self.priority_, self.ties, rng)
            for *_, nb in self._neighbourhoods(None, leave_one_out=True)
        ]
        return self.classes_[np.concatenate(out)]

    def neighbourhood(self, X) -> Neighbourhood:
        """The class counts every tie rule decides from, for each query: ``strict`` (n, C) stored instances
        strictly nearer than the k-th smallest distance and ``tied`` (n, C) those tied with it (within
        ``tie_tolerance``), columns in ``classes_`` order. ``tied.sum(axis=1)`` is how many stored instances share
        the k-th distance, the quantity that decides how much the tie rule matters.

        >>> from lazylib.datasets import load
        >>> ttt = load("tic-tac-toe")
        >>> clf = KNeighborsClassifier(1, "overlap").fit(ttt.X.iloc[::2], ttt.y.iloc[::2])
        >>> clf.neighbourhood(ttt.X.iloc[1:2]).tied  # stored instances at the nearest distance, by class
        array([[9, 5]])

        Parameters
        ----------
        {{queries}}

        Returns
        -------
        Neighbourhood
            The ``strict`` and ``tied`` class counts of each query.
        """
        X = self._check(X)
        parts = [nb for *_, nb in self._neighbourhoods(X)]
        return Neighbourhood(np.vstack([nb.strict for nb in parts]), np.vstack([nb.tied for nb in parts]))

    def predict_distribution(self, X) -> np.ndarray:
        """(n, C): the probability that :meth:`predict` returns each class of ``classes_`` for each query,
        over the draws of ``ties="random"`` (exact, deterministic). Rows are one-hot for "all" and "first".

        Parameters
        ----------
        {{queries}}

        Returns
        -------
        ndarray of shape (n, C)
            The probability of each class being predicted, for each query.
        """
        X = self._check(X)
        return np.vstack(
            [class_probabilities(nb, self.n_neighbors, self.priority_, self.ties) for *_, nb in self._neighbourhoods(X)]
        )

    def score(self, X, y, sample_weight=None, *, expected: bool = False) -> float:
        """Accuracy on ``(X, y)`` (scikit-learn's ``accuracy_score``); with ``expected=True``, its exact
        expectation over the random choices of ``ties="random"`` (the mean over queries of the probability of
        predicting the true class; the same as the plain accuracy for the deterministic rules).

        Parameters
        ----------
        {{queries}}
        y : array-like of shape (n,)
            The true classes.
        sample_weight : array-like of shape (n,), optional
            Weights of the queries in the mean.
        expected : bool
            Score the exact expectation over the draws of ``ties="random"``.

        Returns
        -------
        float
            The fraction of queries whose predicted class is ``y``.
        """
        if not expected:
            return super().score(X, y, sample_weight)
        index = _class_index(self.classes_, y, len(X))
        P = self.predict_distribution(X)
        hit = np.where(index >= 0, P[np.arange(len(index)), np.maximum(index, 0)], 0.0)
        return float(np.average(hit, weights=sample_weight))


def knn_makers(metrics: dict, n_neighbors: int = 1, **params) -> dict:
    """One factory of fresh :class:`KNeighborsClassifier` per entry of ``metrics``, for
    :func:`lazylib.evaluation.compare`.

    Parameters
    ----------
    metrics : dict
        Display name -> a metric name of :func:`lazylib.metrics.available`, or a callable (such as a metric
        class) returning a fresh unfitted metric, so no fitted state is shared between folds.
    n_neighbors : int
        Passed to every classifier.
    **params
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


def loo_accuracy_by_k(
    X,
    y,
    ks,
    metric="hvdm",
    metric_params=None,
    *,
    types=None,
    ties: str = "all",
    tie_tolerance: float = TIE_TOLERANCE,
    expected: bool = False,
    random_state=None,
) -> pd.Series:
    """Leave-one-out accuracy on the training data for every k in ``ks``, from one exact search.

    Each instance is classified by the others (its own stored row is excluded), with the same tie rule as
    :class:`KNeighborsClassifier`. One search (:meth:`lazylib.metrics.Metric.nearest_groups` with
    ``leave_one_out=True``) for the largest k gives every smaller k's neighbours too. The metric's statistics
    (probabilities, deviations) are those of the whole training set: only the neighbour itself is left out, as
    when the fitted classifier is asked about one of its own stored instances.

    Parameters
    ----------
    expected : bool
        With ``ties="random"``: the exact expected accuracy over the random choices (deterministic) instead of
        the accuracy of one draw from ``random_state``.
    random_state : int, Generator or None
        Seed or generator of the draws of ``ties="random"``: an int seeds a fresh generator (the same draws at every
        call), a Generator is used as it is (its stream continues), None draws fresh entropy.

    Returns
    -------
    Series of accuracies indexed by k.
    """
    expected = check("expected", expected, Boolean())
    tie_tolerance = check("tie_tolerance", tie_tolerance, Real(0, 1, open_high=True))
    ks = sorted(set(check("k", k, Integer(low=1)) for k in ks))
    n = len(X)
    if not ks or ks[0] < 1 or ks[-1] > n - 1:
        raise ValueError(f"every k must be between 1 and n - 1 = {n - 1} for leave-one-out, got {ks}")
    clf = KNeighborsClassifier(1, metric, metric_params, ties, tie_tolerance).fit(X, y, types=types)
    return loo_accuracy_fitted(clf, ks, expected=expected, random_state=random_state)


def loo_accuracy_fitted(clf, ks, *, expected: bool = False, random_state=None) -> pd.Series:
    """:func:`loo_accuracy_by_k` on the training data of a fitted :class:`KNeighborsClassifier` (its metric, tie
    rule and tolerance), so that a caller who keeps the classifier fits its metric once.

    Parameters
    ----------
    clf : KNeighborsClassifier
        Fitted; its ``n_neighbors`` plays no part.
    ks : sequence of int
        Sorted, distinct, between 1 and n - 1.
    expected : bool
        As for :func:`loo_accuracy_by_k`.
    random_state : int, Generator or None
        Seed or generator of the draws of ``ties="random"``: an int seeds a fresh generator (the same draws at every
        call), a Generator is used as it is (its stream continues), None draws fresh entropy.

    Returns
    -------
    Series
        Leave-one-out accuracies indexed by k.
    """
    ties, tie_tolerance, n = clf.ties, clf.tie_tolerance, len(clf.y_)
    C = len(clf.classes_)
    rng = check_random_state(random_state) if ties == "random" and not expected else None
    correct = np.zeros(len(ks))
    for block in clf.metric_.nearest_groups(None, ks[-1], tie_tolerance, leave_one_out=True):
        truth = clf.y_[block.start : block.stop]
        if ties == "first":
            found = (
                block_neighbourhood(block, clf.y_, C, k, tie_tolerance, first=True, leave_one_out=True) for k in ks
            )
        else:  # the class counts of every k from one pass over the candidates
            found = block_neighbourhoods(block, clf.y_, C, ks, tie_tolerance, leave_one_out=True)
        for i, (k, nb) in enumerate(zip(ks, found)):
            correct[i] += _hits(nb, k, clf.priority_, ties, truth, expected, rng)
    return pd.Series(correct / n, index=pd.Index(ks, name="k"), name="loo_accuracy")


def _hits(nb: Neighbourhood, k: int, priority, ties: str, truth: np.ndarray, expected: bool, rng) -> float:
    """Correct predictions among the queries of ``nb`` (their expected number with ``expected``)."""
    if expected:
        return float(class_probabilities(nb, k, priority, ties)[np.arange(len(truth)), truth].sum())
    return float((decide(nb, k, priority, ties, rng) == truth).sum())


def select_k_loo(
    X,
    y,
    ks=(1, 3, 5, 7, 9, 11, 13, 15),
    metric="hvdm",
    metric_params=None,
    *,
    types=None,
    ties: str = "all",
    expected: bool = False,
    random_state=None,
) -> int:
    """The k with the best leave-one-out training accuracy (the smallest such k on ties), as Howe & Cardie
    chose k for every fold.

    Parameters
    ----------
    random_state : int, Generator or None
        Seed or generator of the draws of ``ties="random"``: an int seeds a fresh generator (the same draws at every
        call), a Generator is used as it is (its stream continues), None draws fresh entropy.
    """
    acc = loo_accuracy_by_k(
        X,
        y,
        [k for k in ks if k < len(X)],
        metric,
        metric_params,
        types=types,
        ties=ties,
        expected=expected,
        random_state=random_state,
    )
    return int(acc.idxmax())


def accuracy_by_rule(clf: KNeighborsClassifier, X, y, rules=TIE_RULES) -> dict:
    """Accuracy of the fitted ``clf`` on ``(X, y)`` under each tie rule in ``rules`` (``clf.ties`` is ignored).

    ``"random"`` gives the exact expected accuracy over the random choice, as ``clf.score(X, y,
    expected=True)`` would with ``ties="random"``; for k = 1 it is the share of each query's tied nearest
    instances that carry its class. The other rules give the plain accuracy.

    The tie rule plays no part in fitting, and every rule sees the same stored instances tied at the k-th
    distance, so all three accuracies follow from one search (and, for metrics that learn, one fit): experiments
    that compare the rules (Parts I and IV of the book) use this instead of three classifiers. The search goes
    over groups of identical stored instances (:meth:`~lazylib.metrics.Metric.nearest_groups`), so the massive
    ties of discretised or symbolic data cost one pair per group.

    Returns
    -------
    dict rule -> accuracy (a fraction), in the order of ``rules``.

    Examples
    --------
    >>> from lazylib.datasets import load
    >>> ttt = load("tic-tac-toe")
    >>> clf = KNeighborsClassifier(1, "overlap").fit(ttt.X.iloc[::2], ttt.y.iloc[::2])
    >>> {rule: round(a, 3) for rule, a in accuracy_by_rule(clf, ttt.X.iloc[1::2], ttt.y.iloc[1::2]).items()}
    {'all': 0.985, 'first': 0.687, 'random': 0.819}
    """
    rules = [check_ties(rule) for rule in rules]
    X = clf._check(X)
    index = _class_index(clf.classes_, y, len(X))
    k, C = clf.n_neighbors, len(clf.classes_)
    hits = {rule: np.zeros(len(index)) for rule in rules}
    for block in clf.metric_.nearest_groups(X, k, clf.tie_tolerance):
        nb = block_neighbourhood(block, clf.y_, C, k, clf.tie_tolerance, first="first" in rules)
        start, stop = block.start, block.stop
        t = index[start:stop]
        known, q = t >= 0, np.arange(stop - start)
        for rule in rules:
            P_true = class_probabilities(nb, k, clf.priority_, rule)[q, np.maximum(t, 0)]
            hits[rule][start:stop] = np.where(known, P_true, 0.0)
    return {rule: float(hits[rule].mean()) for rule in rules}


def _class_index(classes: np.ndarray, y, n: int) -> np.ndarray:
    """Index of each true label ``y`` among ``classes`` (-1 for a class the training data never had)."""
    truth = np.asarray(y.astype(object) if isinstance(y, (pd.Series, pd.Index)) else y, dtype=object)
    if truth.ndim != 1 or len(truth) != n:
        raise ValueError(f"y has shape {truth.shape} for {n} rows of X")
    lookup = {c: i for i, c in enumerate(classes.tolist())}
    return np.array([lookup.get(t, -1) for t in truth.tolist()], dtype=np.intp)
