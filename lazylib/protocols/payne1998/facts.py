"""Part I's facts: what the rules of Payne & Edwards' (1998) claims read, computed from the runs.

:func:`table2_facts` computes them from the fold accuracies of one tie rule and fold seed of Table 2 (and
:func:`paper_facts` the same from the paper's printed table); :func:`led_facts` from the points of Figure 3, the LED
problem with irrelevant attributes. The claims that read them are :mod:`lazylib.protocols.payne1998.claims`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from lazylib import evaluation
from lazylib.protocols.payne1998.protocol import ALPHA


def classes(mean: pd.DataFrame, bold: pd.DataFrame, metric: str) -> pd.Series:
    """Per data set: ``"significant"`` (above OM significantly), ``"higher"`` (not significantly) or
    ``"not higher"``, for one metric, from the mean accuracies and the significance marks against OM."""
    return pd.Series(
        np.where(bold[metric], "significant", np.where(mean[metric] > mean["OM"], "higher", "not higher")),
        index=mean.index,
    )


def paper_facts(published: pd.DataFrame) -> dict:
    """What the paper's Table 2 says, as the claims' rules compare it: the classes of VDM and OMVW against OM
    and where WOM and OMVW are both bold. ``published`` is indexed by (dataset, metric) with ``accuracy`` and
    ``mark`` (``"bold"`` where the paper marks a significant gain over OM)."""
    mean = published["accuracy"].unstack()
    bold = published["mark"].unstack() == "bold"
    return {
        "classes": {m: classes(mean, bold, m) for m in ("VDM", "OMVW")},
        "both": bold["WOM"] & bold["OMVW"],
    }


def table2_facts(folds: pd.DataFrame, paper: dict) -> dict:
    """Everything the Table 2 claims read, from the fold accuracies of one tie rule and fold seed.

    Parameters
    ----------
    folds : DataFrame
        Indexed by (dataset, fold), one column per metric (OM, WOM, OMVW, MVDM, VDM): accuracy per fold.
    paper : dict
        :func:`paper_facts` of the published table.

    Returns
    -------
    dict
        The per-data-set means, the significance tests the claims need (one-tailed paired t-tests at
        :data:`ALPHA`, as the paper's), and the paper's classes.
    """
    datasets = list(dict.fromkeys(folds.index.get_level_values(0)))
    mean = folds.groupby(level=0).mean().reindex(datasets)

    def p(d, a, b, alternative):
        return evaluation.paired_ttest(folds.loc[d][a], folds.loc[d][b], alternative)

    bold = pd.DataFrame({m: [p(d, m, "OM", "greater") < ALPHA for d in datasets] for m in folds.columns}, datasets)
    below = pd.DataFrame({m: [p(d, m, "OM", "less") < ALPHA for d in datasets] for m in ("VDM", "MVDM")}, datasets)
    return {
        "datasets": datasets,
        "mean": mean,
        "bold": bold,
        "below": below,
        "alike": pd.Series([p(d, "MVDM", "VDM", "two-sided") >= ALPHA for d in datasets], index=datasets),
        "classes": {m: classes(mean, bold, m) for m in ("VDM", "OMVW")},
        "votes_p": p("house-votes-84", "MVDM", "OM", "greater"),
        "both_below": [d for d in datasets if below.loc[d].all()],
        "over_wom": {d for d in datasets if p(d, "MVDM", "WOM", "greater") < ALPHA},
        "worse_than_wom": [d for d in datasets if p(d, "OMVW", "WOM", "less") < ALPHA],
        "paper": paper,
    }


#: The number of irrelevant attributes from which the paper sees OMVW significantly above OM on LED.
LED_FROM = 3


#: The metrics whose loss from the first to the last point H3 tests (the probability-based ones).
LED_H3 = ("VDM", "MVDM", "OMVW")


def first_from(flags) -> int | None:
    """The position from which every flag of ``flags`` is true (None if the last is false).

    Examples
    --------
    >>> first_from([True, False, True, True]), first_from([True, False]), first_from([True, True])
    (2, None, 0)
    """
    flags = list(map(bool, flags))
    return next((i for i in range(len(flags)) if all(flags[i:])), None)


def led_facts(points: pd.Series, ties: str, repetitions, *, condition: str = "") -> dict:
    """Everything the LED claims read, for one tie rule and one set of repetitions.

    Parameters
    ----------
    points : Series
        :func:`led_points` of the results (metrics OM, WOM, OMVW, VDM and MVDM).
    ties : str
        The tie rule.
    repetitions : sequence of int
        The repetitions the tests use (all, or all but one).
    condition : str, default ""
        The condition in words, for the evidence of the claims that have no numbers of their own.

    Returns
    -------
    dict
        ``ks`` (the numbers of irrelevant attributes), ``degrades`` (per metric: significantly less accurate at
        the last point than at the first), ``above_om`` (per metric: significantly above OM at each point),
        ``first_above`` (the first number of irrelevant attributes from which it stays so, or None),
        ``from_on`` (above OM at every point from :data:`LED_FROM`), ``below_wom`` (the points where OMVW is
        significantly below WOM, two-tailed), ``loss`` (per metric, first point minus last, per repetition),
        ``degrading`` (those of :data:`LED_H3` that degrade), ``milder`` (each of them loses significantly less
        than OM) and ``condition``.

    Notes
    -----
    Every test is a paired t-test over the repetitions at p = :data:`ALPHA` (a repetition's points share its data
    and folds), one-tailed but for OMVW against WOM (:func:`lazylib.evaluation.paired_ttest`).

    References
    ----------
    Payne & Edwards (1998), section 4, Figure 3.
    """
    reps = list(repetitions)
    metrics = list(dict.fromkeys(points.index.get_level_values("metric")))
    ks = sorted(set(points.loc[ties].index.get_level_values("irrelevant")))

    def at(metric, k):
        return points.loc[(ties, metric, k)].loc[reps].to_numpy()

    def significant(a, b, alternative):
        return evaluation.paired_ttest(a, b, alternative) < ALPHA

    loss = {m: at(m, ks[0]) - at(m, ks[-1]) for m in metrics}
    degrades = {m: significant(at(m, ks[-1]), at(m, ks[0]), "less") for m in metrics}
    above = {m: [significant(at(m, k), at("OM", k), "greater") for k in ks] for m in metrics if m != "OM"}
    first = {m: first_from(flags) for m, flags in above.items()}
    start = ks.index(LED_FROM)
    below_wom = [
        k
        for k in ks
        if significant(at("OMVW", k), at("WOM", k), "two-sided") and at("OMVW", k).mean() < at("WOM", k).mean()
    ]
    degrading = [m for m in LED_H3 if degrades[m]]
    return {
        "ks": ks,
        "degrades": degrades,
        "above_om": above,
        "first_above": {m: None if i is None else ks[i] for m, i in first.items()},
        "from_on": {m: all(flags[start:]) for m, flags in above.items()},
        "below_wom": below_wom,
        "loss": loss,
        "degrading": degrading,
        "milder": all(significant(loss[m], loss["OM"], "less") for m in degrading),
        "condition": condition,
    }


__all__ = [
    "LED_FROM",
    "LED_H3",
    "classes",
    "first_from",
    "led_facts",
    "paper_facts",
    "table2_facts",
]
