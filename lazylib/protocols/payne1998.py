"""Part I's protocol: the claims of Payne & Edwards (1998) Table 2 as data, and what their rules read.

Each claim of the paper's section 4 on Table 2 is a row of :data:`TABLE2_CLAIMS`
(:class:`lazylib.report.verdicts.Claim`: its words, what it measures, its rule and thresholds, its kind). Their
rules read the facts :func:`table2_facts` computes from the fold accuracies of one tie rule and fold seed, so the
chapter judges every claim the same way under each condition (:meth:`lazylib.report.scorecard.Chapter.judge`).
The claims of section 4 on Figure 3, the LED problem with irrelevant attributes, are the rows of
:data:`LED_CLAIMS`, whose rules read :func:`led_facts`.

>>> [c.key for c in TABLE2_CLAIMS][:2]
['H1', 'VDM classes']
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from lazylib import evaluation, metrics
from lazylib._validation import Choice, check
from lazylib.neighbors import KNeighborsClassifier, accuracy_by_rule
from lazylib.report.bands import PERCENT, prediction_band
from lazylib.report.verdicts import Claim, all_of, share_rule, tiers

#: The three data sets on which the paper reports MVDM significantly above WOM.
MVDM_OVER_WOM = frozenset({"lung-cancer", "promoters", "tic-tac-toe"})

#: The significance level of the paper's one-tailed paired t-tests.
ALPHA = 0.05


def classes(mean: pd.DataFrame, bold: pd.DataFrame, metric: str) -> pd.Series:
    """Per data set: ``"significant"`` (above OM significantly), ``"higher"`` (not significantly) or
    ``"not higher"``, for one metric, from the mean accuracies and the significance marks against OM."""
    return pd.Series(
        np.where(bold[metric], "significant", np.where(mean[metric] > mean["OM"], "higher", "not higher")),
        index=mean.index,
    )


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
        What :func:`table2_facts` and :func:`significance_marks` read.

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


def _listed(names) -> str:
    return ", ".join(names) or "none"


def _classes_agree(f, metric):
    ours = f["classes"][metric]
    return ours == f["paper"]["classes"][metric].reindex(ours.index)


def _class_evidence(f, metric):
    ours = f["classes"][metric]
    return (
        f"significantly on {int((ours == 'significant').sum())}, higher on {int((ours == 'higher').sum())} "
        f"more; in the paper's class: {int(_classes_agree(f, metric).sum())} of {len(ours)}"
    )


def _both(f):
    both = f["bold"]["WOM"] & f["bold"]["OMVW"]
    return both


def _h2(f):
    mean, n = f["mean"], len(f["datasets"])
    omvw, wom = int((mean["OMVW"] > mean["OM"]).sum()), int((mean["WOM"] > mean["OM"]).sum())
    return omvw > n / 2, not f["worse_than_wom"], wom > n / 2, omvw, wom


#: The claims of section 4 on Table 2, each judged under every tie rule and fold seed.
TABLE2_CLAIMS = (
    Claim(
        key="H1",
        words="H1: MVDM and VDM perform alike",
        measure="data sets without a significant MVDM/VDM difference (two-tailed paired t-test)",
        thresholds="supported on all 8, partly on 7",
        rule=lambda f: share_rule(f["alike"], supported=1.0, partly=7 / 8, what="data sets"),
        evidence=lambda f: (
            f"significant MVDM/VDM difference on {int((~f['alike']).sum())} of {len(f['alike'])}: "
            f"{_listed(list(f['alike'].index[~f['alike']]))}"
        ),
    ),
    Claim(
        key="VDM classes",
        words="VDM above OM on 4 data sets (significantly), higher on 2 more",
        measure="data sets where VDM falls in the paper's class (significant / higher / not higher)",
        thresholds="supported on all 8, partly on 6",
        rule=lambda f: share_rule(_classes_agree(f, "VDM"), supported=1.0, partly=0.75, what="data sets"),
        evidence=lambda f: _class_evidence(f, "VDM"),
    ),
    Claim(
        key="votes",
        words="votes: MVDM above OM at p = 0.054",
        measure="one-tailed p of MVDM over OM on house-votes-84",
        thresholds="supported for 0.05 <= p < 0.10, partly for p < 0.05",
        rule=lambda f: tiers(supported=bool(0.05 <= f["votes_p"] < 0.10), partly=bool(f["votes_p"] < 0.05)),
        evidence=lambda f: f"one-tailed p = {f['votes_p']:.3f}",
    ),
    Claim(
        key="breast-cancer",
        words="VDM and MVDM below OM only on breast-cancer",
        measure="data sets where both are significantly below OM",
        thresholds="supported if exactly breast-cancer; partly if none significantly, both lower there",
        rule=lambda f: tiers(
            supported=f["both_below"] == ["breast-cancer"],
            partly=bool(
                not f["below"].any().any()
                and (f["mean"].loc["breast-cancer", ["VDM", "MVDM"]] < f["mean"].loc["breast-cancer", "OM"]).all()
            ),
        ),
        evidence=lambda f: f"both significantly below OM on: {_listed(f['both_below'])}",
    ),
    Claim(
        key="MVDM over WOM",
        words="MVDM above WOM on lung-cancer, promoters, tic-tac-toe",
        measure="data sets where MVDM is significantly above WOM",
        thresholds="supported if exactly those three, partly if two of them",
        rule=lambda f: tiers(
            supported=f["over_wom"] == set(MVDM_OVER_WOM), partly=len(MVDM_OVER_WOM & f["over_wom"]) >= 2
        ),
        evidence=lambda f: f"significantly on: {_listed([d for d in f['datasets'] if d in f['over_wom']])}",
    ),
    Claim(
        key="OMVW classes",
        words="OMVW higher than OM on 6 data sets, significantly on 3",
        measure="data sets where OMVW falls in the paper's class",
        thresholds="supported on all 8, partly on 6",
        rule=lambda f: share_rule(_classes_agree(f, "OMVW"), supported=1.0, partly=0.75, what="data sets"),
        evidence=lambda f: (
            f"higher on {int((f['classes']['OMVW'] != 'not higher').sum())}, significantly on "
            f"{int((f['classes']['OMVW'] == 'significant').sum())}; in the paper's class: "
            f"{int(_classes_agree(f, 'OMVW').sum())} of {len(f['datasets'])}"
        ),
    ),
    Claim(
        key="WOM and OMVW",
        words="WOM significantly above OM on 2 of OMVW's 3",
        measure="data sets where 'WOM and OMVW both significantly above OM' agrees with the paper's marks",
        thresholds="supported on all 8, partly on 6",
        rule=lambda f: share_rule(
            _both(f) == f["paper"]["both"].reindex(f["datasets"]),
            supported=1.0,
            partly=0.75,
            what="data sets",
        ),
        evidence=lambda f: f"WOM and OMVW both significantly above OM on: {_listed(list(_both(f).index[_both(f)]))}",
    ),
    Claim(
        key="H2",
        words="H2 on Table 2: value weights help the overlap metric",
        measure="OMVW above OM on most data sets; OMVW never significantly below WOM; WOM above OM on most",
        thresholds="supported if all three hold, partly if one or two",
        rule=lambda f: all_of(*_h2(f)[:3]),
        evidence=lambda f: (
            f"OMVW above OM on {_h2(f)[3]} of {len(f['datasets'])}; significantly below WOM on "
            f"{len(f['worse_than_wom'])} ({_listed(f['worse_than_wom'])}); WOM above OM on {_h2(f)[4]}"
        ),
    ),
)


# --- Figure 3: the LED problem with irrelevant attributes ---------------------------------------------------------

#: The number of irrelevant attributes from which the paper sees OMVW significantly above OM on LED.
LED_FROM = 3

#: The metrics whose loss from the first to the last point H3 tests (the probability-based ones).
LED_H3 = ("VDM", "MVDM", "OMVW")


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


def _holds(f, holds: bool) -> str:
    return f"{f['condition']}: {'holds' if holds else 'fails'}"


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def _h2_led(f):
    return f["from_on"]["OMVW"], f["from_on"]["WOM"], len(f["below_wom"]) <= len(f["ks"]) / 2


#: The claims of section 4 on Figure 3 (LED with 0 to 17 irrelevant attributes), each judged under every tie rule
#: on all repetitions and on each set with one left out.
LED_CLAIMS = (
    Claim(
        key="OM falls",
        words="LED: OM falls as irrelevant attributes are added",
        measure="OM significantly less accurate at the last point than at the first (one-tailed paired t-test)",
        thresholds="supported if so, not supported otherwise",
        rule=lambda f: all_of(f["degrades"]["OM"]),
        evidence=lambda f: _holds(f, f["degrades"]["OM"]),
    ),
    Claim(
        key="OMVW above OM",
        words="LED: OMVW significantly above OM from 3 irrelevant attributes on",
        measure="OMVW significantly above OM at every point from 3 irrelevant attributes (one-tailed)",
        thresholds="supported if so, not supported otherwise",
        rule=lambda f: all_of(f["from_on"]["OMVW"]),
        evidence=lambda f: _holds(f, f["from_on"]["OMVW"]),
    ),
    Claim(
        key="no degradation",
        words="LED: VDM and MVDM show no degradation",
        measure="VDM and MVDM not significantly less accurate at the last point than at the first",
        thresholds="supported if both hold, partly if one does",
        rule=lambda f: all_of(not f["degrades"]["VDM"], not f["degrades"]["MVDM"]),
        evidence=lambda f: _holds(f, not (f["degrades"]["VDM"] or f["degrades"]["MVDM"])),
    ),
    Claim(
        key="H2 on LED",
        words="H2 on LED",
        measure=(
            "OMVW and WOM significantly above OM at every point from 3; OMVW significantly below WOM "
            "(two-tailed) at no more than half of the points"
        ),
        thresholds="supported if all three hold, partly if one or two",
        rule=lambda f: all_of(*_h2_led(f)),
        evidence=lambda f: (
            f"OMVW above OM at every point from 3: {_yes(f['from_on']['OMVW'])}; WOM too: "
            f"{_yes(f['from_on']['WOM'])}; OMVW significantly below WOM at {len(f['below_wom'])} of "
            f"{len(f['ks'])} points"
        ),
    ),
    Claim(
        key="H3",
        words="H3",
        measure=(
            "VDM, MVDM and OMVW significantly less accurate at the last point than at the first; the losses of "
            "those that are, against OM's (one-tailed paired t-test)"
        ),
        thresholds="supported if none degrades; partly if each that does loses significantly less than OM",
        rule=lambda f: tiers(supported=not f["degrading"], partly=f["milder"]),
        evidence=lambda f: (
            f"significant loss from {f['ks'][0]} to {f['ks'][-1]} irrelevant attributes: "
            f"{', '.join(f['degrading']) or 'none'}; mean loss (points): "
            + ", ".join(f"{m} {f['loss'][m].mean():.1f}" for m in (*LED_H3, "OM"))
        ),
    ),
)

__all__ = [
    "ALPHA",
    "LED_CLAIMS",
    "LED_FROM",
    "LED_H3",
    "MVDM_OVER_WOM",
    "PROTOCOL_VARIANTS",
    "TABLE2_CLAIMS",
    "accuracy_bands",
    "classes",
    "first_from",
    "fold_table",
    "led_facts",
    "led_points",
    "paper_facts",
    "significance_marks",
    "table2_facts",
    "variant_accuracy",
]
