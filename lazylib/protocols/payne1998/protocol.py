"""Part I's protocol: the runs of Payne & Edwards (1998) Table 2 and Figure 3 and what they give (fold tables,
significance marks, reproduction bands, the protocol variants, the LED points).

What the claims' rules read is :mod:`lazylib.protocols.payne1998.facts`; the claims themselves, as data, are
:mod:`lazylib.protocols.payne1998.claims`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from lazylib import evaluation, metrics
from lazylib._validation import Choice, check
from lazylib.neighbors import KNeighborsClassifier, accuracy_by_rule
from lazylib.report.bands import PERCENT, prediction_band

#: The significance level of the paper's one-tailed paired t-tests.
ALPHA = 0.05


def accuracy_bands(cv: pd.Series, cells: pd.Index, *, digits: int) -> pd.DataFrame:
    """Mean and prediction band of each Table 2 cell's cross-validated accuracies over the fold seeds.

    Parameters
    ----------
    cv : Series
        One tie rule's accuracies (%), indexed by (dataset, metric, seed): one cross-validation per seed.
    cells : Index
        The (dataset, metric) cells, in the order of the result.
    digits : int
        Decimals the paper printed (the band is widened by half a unit of the last one).

    Returns
    -------
    DataFrame
        Indexed by ``cells``, columns ``mean``, ``low`` and ``high``: the centre and the bounds of
        :func:`lazylib.report.bands.prediction_band` on the percentage scale.

    Examples
    --------
    >>> cv = pd.Series([80.0, 82.0, 81.0], index=pd.MultiIndex.from_product([["zoo"], ["OM"], [1, 2, 3]]))
    >>> cells = pd.MultiIndex.from_tuples([("zoo", "OM")], names=["dataset", "metric"])
    >>> accuracy_bands(cv, cells, digits=2).round(2).to_dict("records")
    [{'mean': 81.0, 'low': 75.54, 'high': 85.5}]
    """
    rows = {cell: prediction_band(cv.loc[cell].to_numpy(), digits=digits, bounds=PERCENT) for cell in cells}
    return pd.DataFrame(
        {
            "mean": {c: b.centre for c, b in rows.items()},
            "low": {c: b.low for c, b in rows.items()},
            "high": {c: b.high for c, b in rows.items()},
        }
    ).reindex(cells)


def fold_table(results: pd.DataFrame, rule: str, seed: int) -> pd.DataFrame:
    """The fold accuracies of one tie rule and fold seed: (dataset, fold) rows, one column per metric.

    Parameters
    ----------
    results : DataFrame
        One row per run, columns ``seed``, ``dataset``, ``metric``, ``fold``, ``rule`` and ``accuracy``.
    rule : str
        The tie rule.
    seed : int
        The fold seed.

    Returns
    -------
    DataFrame
        What :func:`~lazylib.protocols.payne1998.facts.table2_facts` and :func:`significance_marks` read.

    Examples
    --------
    >>> results = pd.DataFrame({"seed": 1, "dataset": "zoo", "metric": ["OM", "VDM"], "fold": 0,
    ...                         "rule": "random", "accuracy": [90.0, 95.0]})
    >>> fold_table(results, "random", 1).to_dict("records")
    [{'OM': 90.0, 'VDM': 95.0}]
    """
    chosen = results[(results["rule"] == rule) & (results["seed"] == seed)]
    return chosen.pivot_table(index=["dataset", "fold"], columns="metric", values="accuracy")


def significance_marks(folds: pd.DataFrame, datasets, metrics, baseline: str = "OM") -> pd.Series:
    """The paper's marks against the overlap metric: ``"bold"`` (significantly above), ``"italic"``
    (significantly below) or ``""`` for each data set and metric, by
    :func:`lazylib.evaluation.significance_mark` on the paired fold accuracies.

    Parameters
    ----------
    folds : DataFrame
        A :func:`fold_table` (one tie rule and fold seed).
    datasets : sequence of str
        The data sets, in order.
    metrics : sequence of str
        The metrics to mark (the baseline excepted).
    baseline : str
        The metric they are compared with.

    Returns
    -------
    Series
        Indexed by (dataset, metric).
    """
    return pd.Series(
        {
            (d, m): evaluation.significance_mark(folds.loc[d][m], folds.loc[d][baseline])
            for d in datasets
            for m in metrics
        }
    )


#: The protocol variants tried on Table 2's largest gaps (:func:`variant_accuracy`).
PROTOCOL_VARIANTS = ("unseen uniform", "unstratified", "whole-data P")


def variant_accuracy(X: pd.DataFrame, y: pd.Series, metric, variant: str, fold_seeds, *, rule: str) -> float:
    """Mean 1-NN accuracy (%) over the ten folds of every fold seed of one Table 2 cell under one protocol
    variant an implementation of the paper could have used.

    Parameters
    ----------
    X, y : DataFrame, Series
        The encoded data set (:func:`lazylib.metrics.encode`) and its classes.
    metric : str or class
        The metric, as :class:`lazylib.neighbors.KNeighborsClassifier` takes it.
    variant : str
        One of :data:`PROTOCOL_VARIANTS`: values unseen in training read as uniform over the classes
        (``unseen="uniform"``), unstratified folds, or the metric's probabilities learnt from the whole data set,
        test folds included (a leak), with the random tie rule's expected accuracy.
    fold_seeds : iterable of int
        The seeds of the ten-fold cross-validations.
    rule : str
        The tie rule of the other variants (:func:`lazylib.neighbors.accuracy_by_rule`).

    Returns
    -------
    float
        The mean over every fold of every seed, in per cent.
    """
    check("variant", variant, Choice(PROTOCOL_VARIANTS))
    accuracies = []
    for seed in fold_seeds:
        if variant == "unstratified":
            folds = evaluation.kfold(len(y), 10, random_state=seed)
        else:
            folds = evaluation.stratified_kfold(y, 10, random_state=seed)
        for train, test in folds:
            if variant == "whole-data P":  # probabilities learnt from every instance, test folds included
                D = metrics.make_metric(metric).fit(X, y).pairwise(X.take(test), X.take(train))
                tied = D <= D.min(axis=1, keepdims=True) * (1 + 1e-9)
                same = y.to_numpy()[test][:, None] == y.to_numpy()[train][None, :]
                accuracies.append(np.mean((tied & same).sum(axis=1) / tied.sum(axis=1)))
                continue
            params = {"unseen": "uniform"} if variant == "unseen uniform" else {}
            clf = KNeighborsClassifier(1, metric, params).fit(X.take(train), y.iloc[train])
            accuracies.append(accuracy_by_rule(clf, X.take(test), y.iloc[test], [rule])[rule])
    return 100 * np.mean(accuracies)


def led_points(results: pd.DataFrame) -> pd.Series:
    """The LED accuracies by point: indexed by (ties, metric, irrelevant, repetition), sorted.

    Parameters
    ----------
    results : DataFrame
        One row per repetition, tie rule, number of irrelevant attributes and metric, with columns ``repetition``,
        ``ties``, ``irrelevant``, ``metric`` and ``accuracy`` (%).

    Returns
    -------
    Series
        The accuracies, what :func:`led_facts` reads.

    Examples
    --------
    >>> results = pd.DataFrame({"repetition": [1, 0], "ties": "random", "irrelevant": 0, "metric": "OM",
    ...                         "accuracy": [60.0, 58.0]})
    >>> led_points(results).tolist()
    [58.0, 60.0]
    """
    return results.set_index(["ties", "metric", "irrelevant", "repetition"])["accuracy"].sort_index()


__all__ = [
    "ALPHA",
    "PROTOCOL_VARIANTS",
    "accuracy_bands",
    "fold_table",
    "led_points",
    "significance_marks",
    "variant_accuracy",
]
