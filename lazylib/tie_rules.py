"""One fitted k-NN classifier scored under every tie rule of :mod:`lazylib.neighbors` from a single search.

The tie rule plays no part in fitting, and every rule sees the same set of stored instances tied at the k-th
distance, so the accuracy under ``"all"``, ``"first"`` and the *expected* accuracy under ``"random"`` all follow
from one call of :meth:`lazylib.metrics.Metric.nearest_chunks`. Experiments that compare the rules (Payne &
Edwards 1998, Part I of the book) use this instead of three classifiers, three searches and, for metrics that
learn (WOM), three fits.

>>> from lazylib.datasets import load
>>> from lazylib.neighbors import KNeighborsClassifier
>>> ttt = load("tic-tac-toe")
>>> clf = KNeighborsClassifier(1, "overlap").fit(ttt.X.iloc[::2], ttt.y.iloc[::2])
>>> {rule: round(a, 3) for rule, a in accuracy_by_rule(clf, ttt.X.iloc[1::2], ttt.y.iloc[1::2]).items()}
{'all': 0.985, 'first': 0.687, 'random': 0.819}
"""

from __future__ import annotations

import numpy as np

from lazylib.neighbors import TIE_RULES, KNeighborsClassifier, _labels, check_ties, class_probabilities, neighbourhood


def accuracy_by_rule(clf: KNeighborsClassifier, X, y, rules=TIE_RULES) -> dict:
    """Accuracy of the fitted ``clf`` on ``(X, y)`` under each tie rule in ``rules`` (``clf.ties`` is ignored).

    ``"random"`` gives the exact expected accuracy over the random choice, as ``clf.score(X, y,
    expected=True)`` would with ``ties="random"``; for k = 1 it is the share of each query's tied nearest
    instances that carry its class. The other rules give the plain accuracy.

    Returns
    -------
    dict rule -> accuracy (a fraction), in the order of ``rules``.
    """
    rules = [check_ties(rule) for rule in rules]
    clf._check()
    truth = _labels(y)
    if len(truth) != len(X):
        raise ValueError(f"y has {len(truth)} labels for {len(X)} rows of X")
    lookup = {c: i for i, c in enumerate(clf.classes_)}
    index = np.array([lookup.get(t, -1) for t in truth])  # -1: a class the training data never had
    k, C = clf.n_neighbors, len(clf.classes_)
    hits = {rule: np.zeros(len(truth)) for rule in rules}
    for start, stop, rows, cols, sums in clf.metric_.nearest_chunks(X, k, clf.tie_tolerance):
        nb = neighbourhood(rows - start, cols, sums, stop - start, clf.y_, C, k, clf.tie_tolerance,
                           first="first" in rules)
        t = index[start:stop]
        known, q = t >= 0, np.arange(stop - start)
        for rule in rules:
            if rule == "random" and k == 1:  # one tied instance drawn uniformly: P(class) = its share
                P_true = nb.tied[q, np.maximum(t, 0)] / nb.tied.sum(axis=1)
            else:
                P_true = class_probabilities(nb, k, clf.priority_, rule)[q, np.maximum(t, 0)]
            hits[rule][start:stop] = np.where(known, P_true, 0.0)
    return {rule: float(hits[rule].mean()) for rule in rules}
