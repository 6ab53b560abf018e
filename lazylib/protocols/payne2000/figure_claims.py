"""The claims of Payne & Edwards (2000) on the mapping and on its synthetic problems, as rows of claim tables
(:class:`lazylib.report.verdicts.Claim`), with the functions that compute the facts they read: section 3's
properties of the mapping (:data:`MAPPING_CLAIMS`, :func:`distortion_facts`, :func:`rank_excess`), the claims of
Figures 3 and 4 on irrelevant attributes (:data:`FIGURE3_CLAIMS`, :data:`FIGURE4_CLAIMS`,
:func:`irrelevant_facts`) and those on redundant attributes (:data:`REDUNDANT_CLAIMS`, :func:`redundant_facts`).
The runs they read come from :mod:`lazylib.protocols.payne2000.protocol`; the chapters judge each claim under every
reading
they show with :meth:`lazylib.report.scorecard.Chapter.judge`.

>>> [c.key for c in FIGURE3_CLAIMS][:2]
['fig3_falls', 'fig3_cacp']
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from lazylib import evaluation
from lazylib.report.verdicts import Claim, Threshold, tiers
from lazylib.subspace import SubspaceMapping

# --- Section 3: the mapping ---------------------------------------------------------------------------------------


def distortion_facts(rotation: pd.DataFrame, max_change: float) -> dict:
    """What the distortion claim reads under each tie rule: the folds on which full-rank CA and NN differ.

    Parameters
    ----------
    rotation : DataFrame
        Indexed by (data set, tie rule), with a column ``folds that differ``: the folds on which full-rank CA's
        1-NN accuracy differs from plain NN's.
    max_change : float
        The largest change of a Euclidean distance under the full-rank mapping.

    Returns
    -------
    dict
        ``(tie rule,)`` -> ``{"differ": folds that differ over the data sets, "total": over every tie rule,
        "max_change": max_change}``, the tie rules in their order in ``rotation``.

    References
    ----------
    Payne & Edwards (2000), section 3 (step 5 of the mapping) and section 5 (balance, 78.12 against 78.10 %).

    Examples
    --------
    >>> rotation = pd.DataFrame({"folds that differ": [0, 1, 0, 0]}, index=pd.MultiIndex.from_product(
    ...     [["iris", "balance-scale"], ["all", "random"]], names=["data set", "tie rule"]))
    >>> distortion_facts(rotation, 1e-15)[("all",)]
    {'differ': 0, 'total': 1, 'max_change': 1e-15}
    """
    differ = rotation["folds that differ"].groupby(level="tie rule", sort=False).sum()
    total = int(differ.sum())
    return {(t,): {"differ": int(n), "total": total, "max_change": float(max_change)} for t, n in differ.items()}


def rank_excess(X, y) -> int:
    """How far CACP's rank on ``X`` exceeds the number of classes minus one (0 or less: it does not).

    Examples
    --------
    >>> X = np.array([[0.0, 1.0, 2.0], [1.0, 0.0, 2.0], [2.0, 1.0, 0.0], [0.0, 2.0, 1.0]])
    >>> rank_excess(X, pd.Series(["a", "a", "b", "b"]))
    0
    """
    return int(SubspaceMapping("cacp").fit(X, y).rank_ - (pd.Series(y).nunique() - 1))


def _distortion_evidence(f) -> str:
    same = (
        "full-rank CA = NN on all folds of iris and balance, three tie rules"
        if f["total"] == 0
        else f"full-rank CA differs from NN on {f['total']} folds of iris and balance over the tie rules"
    )
    return f"{same}; largest distance change {f['max_change']:.1e}; a rotation keeps every distance"


#: The properties of the mapping that section 3 and the Table 2 discussion state (kind "property").
MAPPING_CLAIMS = (
    Claim(
        key="distortion",
        words="A full-rank CA mapping distorts the space and so changes 1-NN accuracy (balance, 78.12 vs 78.10)",
        measure="folds of iris and balance on which full-rank CA and plain NN differ (twenty folds each)",
        rule=Threshold(supported=1, partly=1, what="folds that differ").on(lambda f: f["differ"]),
        evidence=_distortion_evidence,
        kind="property",
    ),
    Claim(
        key="rank",
        words="CACP's rank can exceed the number of classes minus one (Table 2: up to 60 dimensions on two-class data)",
        measure="CACP's rank minus (C - 1) on a range-normalised data set (rank_excess)",
        rule=Threshold(supported=1, partly=1, what="rank above C - 1"),
        evidence=lambda e: (
            "the prototype matrix has rank at most C - 1 on all eleven data sets; further dimensions are the SVD "
            "routine's completion, nearly a prefix of the attributes, which changes accuracy on sonar"
            if e <= 0
            else f"the prototype matrix has rank {e} above C - 1"
        ),
        kind="property",
    ),
)


# --- Figures 3 and 4: irrelevant attributes ------------------------------------------------------------------------

#: The learners of Figures 3 and 4.
LEARNERS = ("NN", "CA", "CACP")
#: The number of irrelevant attributes at which the paper prints its three values (Fig. 3).
ANCHOR = 49


def _inseparable(curves: pd.DataFrame) -> dict:
    c = curves.loc["inseparable"]
    later = c.loc[c.index >= 1]
    cacp = c["CACP"]
    return {
        "ahead": float((later["CACP"] > later[["CA", "NN"]].max(axis=1)).mean()),
        "nn11": float(c.loc[11, "NN"]),
        "rise": float(cacp.loc[(cacp.index >= 5) & (cacp.index <= 14)].max() - cacp.loc[4]),
    }


def irrelevant_facts(runs: pd.DataFrame, reading: str) -> dict:
    """Everything the claims of Figures 3 and 4 read, for one reading of the problems.

    Parameters
    ----------
    runs : DataFrame
        One row per sample: columns ``reading``, ``problem`` (``"separable"``, ``"inseparable"``), ``m`` (the
        number of irrelevant attributes), the accuracies (%) ``NN``, ``CA`` and ``CACP`` and the dimensions
        chosen, ``CA K`` and ``CACP K``.
    reading : str
        The reading whose samples are read.

    Returns
    -------
    dict
        ``m`` (the numbers of irrelevant attributes run), ``problems`` (in their order in ``runs``), and for the
        separable problem: ``falls`` (each learner's loss from the first to the last point), ``gap49`` (CACP's
        lead over the better of CA and NN at :data:`ANCHOR`), ``ca_nn_share`` (the share of points from 15 on
        where CA is significantly above NN, one-tailed paired t-test over the samples at 5 %), ``ca_k`` (CA's
        mean K at 9 and at the last point), ``cacp_k_share`` and ``cacp_k_median`` (the share of samples with
        CACP's K in 3..5, and its median); ``slower`` (per problem: CACP loses less than CA and than NN from the
        first to the last point); where the reading has the inseparable problem, ``ahead`` (the share of its
        points with irrelevant attributes where CACP is the best of the three), ``nn11`` (NN at 11) and
        ``rise`` (CACP's best point in 5..14 minus its value at 4).

    References
    ----------
    Payne & Edwards (2000), section 5, Figures 3 and 4, and the Conclusions.

    Examples
    --------
    >>> runs = pd.DataFrame({"reading": "paper", "problem": "separable", "m": [0, 0, 49, 49, 50, 50],
    ...                      "NN": [90.0, 90, 60, 60, 55, 55], "CA": [90.0, 90, 61, 61, 56, 56],
    ...                      "CACP": [95.0, 95, 80, 80, 78, 78], "CA K": 2, "CACP K": [1, 3, 4, 4, 6, 6]})
    >>> f = irrelevant_facts(runs, "paper")
    >>> f["falls"], f["gap49"], f["ca_nn_share"], f["cacp_k_share"], f["slower"]
    ([35.0, 34.0, 17.0], 19.0, 1.0, 0.5, [True])
    """
    one = runs[runs["reading"] == reading]
    curves = one.groupby(["problem", "m"])[["NN", "CA", "CACP", "CA K", "CACP K"]].mean()
    problems = list(dict.fromkeys(one["problem"]))
    c = curves.loc["separable"]
    first, last = c.index[0], c.index[-1]
    separable = one[one["problem"] == "separable"]
    later = separable[separable["m"] >= 15]
    significant = [evaluation.paired_ttest(g["CA"], g["NN"], "greater") < 0.05 for _, g in later.groupby("m")]
    facts = {
        "m": list(c.index),
        "problems": problems,
        "falls": [float(c.loc[first, m] - c.loc[last, m]) for m in LEARNERS],
        "gap49": float(c.loc[ANCHOR, "CACP"] - max(c.loc[ANCHOR, "CA"], c.loc[ANCHOR, "NN"])),
        "ca_nn_share": float(np.mean(significant)),
        "ca_k": (float(c.loc[9, "CA K"]), float(c.loc[last, "CA K"])) if 9 in c.index else (np.nan, np.nan),
        "cacp_k_share": float(separable["CACP K"].between(3, 5).mean()),
        "cacp_k_median": float(separable["CACP K"].median()),
        "slower": [_slower(curves.loc[p]) for p in problems],
    }
    return {**facts, **(_inseparable(curves) if "inseparable" in problems else {})}


def _slower(c: pd.DataFrame) -> bool:
    first, last = c.index[0], c.index[-1]
    loss = {m: c.loc[first, m] - c.loc[last, m] for m in LEARNERS}
    return bool(loss["CACP"] < min(loss["CA"], loss["NN"]))


def _falls_evidence(f) -> str:
    losses = ", ".join(f"{m} {v:.1f}" for m, v in zip(LEARNERS, f["falls"]))
    return f"loss from {f['m'][0]} to {f['m'][-1]}: {losses} points"


#: The claims of section 5 on Figure 3 (the separable problem), judged under every reading of it.
FIGURE3_CLAIMS = (
    Claim(
        key="fig3_falls",
        words="On the separable problem all three learners lose accuracy as irrelevant attributes are added",
        measure="each learner's loss (points) from 0 to 50 irrelevant attributes",
        thresholds="supported if all three lose more than 5 points, partly if one or two do",
        rule=lambda f: tiers(supported=all(x > 5 for x in f["falls"]), partly=any(x > 5 for x in f["falls"])),
        evidence=_falls_evidence,
    ),
    Claim(
        key="fig3_cacp",
        words="With 49 irrelevant attributes CACP is far more accurate than CA and NN (74.74 against 57.47 and "
        "55.93 %)",
        measure="CACP's lead over the better of CA and NN at 49 irrelevant attributes (points)",
        rule=Threshold(supported=10, partly=2, what="CACP's lead (points)").on(lambda f: f["gap49"]),
        evidence=lambda f: f"CACP ahead by {f['gap49']:.1f} points",
    ),
    Claim(
        key="fig3_ca_nn",
        words="Beyond 14 irrelevant attributes CA is slightly but significantly more accurate than NN "
        "(one-tailed t-test, 5 %)",
        measure="share of the points from 15 on where CA is significantly above NN over the samples",
        rule=Threshold(supported=0.8, partly=0.3, what="share of points").on(lambda f: f["ca_nn_share"]),
        evidence=lambda f: f"significant at {100 * f['ca_nn_share']:.0f} % of the points from 15 to {f['m'][-1]}",
    ),
    Claim(
        key="fig3_ca_k",
        words="CA's dimensions grow slowly from 8 to 29 once there are more than 8 irrelevant attributes",
        measure="CA's mean K at 9 and at 50 irrelevant attributes",
        thresholds="supported if within 3 of 8 and within 5 of 29, partly if K grows",
        rule=lambda f: tiers(
            supported=abs(f["ca_k"][0] - 8) <= 3 and abs(f["ca_k"][1] - 29) <= 5, partly=f["ca_k"][1] > f["ca_k"][0]
        ),
        evidence=lambda f: "ours: {:.1f} at 9 and {:.1f} at {}".format(*f["ca_k"], f["m"][-1]),
    ),
    Claim(
        key="fig3_cacp_k",
        words="CACP keeps three to five dimensions in most cases",
        measure="share of the samples where CACP's K is 3, 4 or 5",
        rule=Threshold(supported=0.5, partly=0.25, what="share of samples with K in 3..5").on(
            lambda f: f["cacp_k_share"]
        ),
        evidence=lambda f: (
            f"{100 * f['cacp_k_share']:.0f} % of samples with K in 3..5 (median K {f['cacp_k_median']:.0f}); "
            "K > 1 is the class direction plus nearly x2 and the first noise attributes"
        ),
    ),
)

#: The claims of section 5 on Figure 4 (the inseparable problem) and of the Conclusions on both problems, judged
#: under every reading that has the inseparable problem.
FIGURE4_CLAIMS = (
    Claim(
        key="fig4_cacp",
        words="CACP is also the best of the three on the inseparable problem",
        measure="share of the points with irrelevant attributes where CACP is the most accurate",
        rule=Threshold(supported=0.8, partly=0.5, what="share of points").on(lambda f: f["ahead"]),
        evidence=lambda f: f"CACP best at {100 * f['ahead']:.0f} % of the points with irrelevant attributes",
    ),
    Claim(
        key="fig4_chance",
        words="On the inseparable problem NN is little better than chance after about 11 irrelevant attributes",
        measure="NN's accuracy (%) at 11 irrelevant attributes",
        rule=Threshold(supported=60, partly=70, higher=False, what="NN at 11 (%)").on(lambda f: f["nn11"]),
        evidence=lambda f: f"NN at 11: {f['nn11']:.1f} %",
    ),
    Claim(
        key="fig4_rise",
        words="CACP's accuracy rises unusually between 5 and 14 irrelevant attributes (inseparable)",
        measure="CACP's best point in 5..14 minus its value at 4 (points)",
        rule=Threshold(supported=2, partly=1e-9, what="rise (points)").on(lambda f: f["rise"]),
        evidence=lambda f: f"best point in 5..14 minus the value at 4: {f['rise']:+.1f} points",
    ),
    Claim(
        key="slower",
        words="CACP degrades more slowly than CA or NN as irrelevant attributes are added (Conclusions)",
        measure="problems on which CACP loses less than CA and than NN from 0 to 50 irrelevant attributes",
        thresholds="supported on both problems, partly on one",
        rule=lambda f: tiers(supported=all(f["slower"]), partly=any(f["slower"])),
        evidence=lambda f: f"slower on {sum(f['slower'])} of {len(f['slower'])} problems",
    ),
)


# --- Section 5: redundant attributes -------------------------------------------------------------------------------


def redundant_facts(runs: pd.DataFrame) -> dict:
    """Everything the claims on redundant attributes read.

    Parameters
    ----------
    runs : DataFrame
        One row per sample: columns ``problem``, the accuracies (%) ``NN``, ``CA``, ``CACP`` and
        ``NN, two attributes`` (NN on the two relevant attributes alone, same folds), and ``CA K``, ``CACP K``.

    Returns
    -------
    dict
        ``ca_two`` (the share of samples where CA chose K = 2), ``ca_k_range`` (CA's smallest and largest K),
        ``cacp_mean`` (CACP's mean K per problem), ``means`` (the mean accuracies per problem and learner) and
        ``drop`` (the mean of NN on the two relevant attributes minus CA).

    References
    ----------
    Payne & Edwards (2000), section 5 (redundant attributes) and the Conclusions.

    Examples
    --------
    >>> runs = pd.DataFrame({"problem": ["separable", "inseparable"], "NN": [100.0, 95], "CA": [100.0, 96],
    ...                      "CACP": [99.0, 96], "NN, two attributes": [100.0, 96], "CA K": [2, 2],
    ...                      "CACP K": [1, 2]})
    >>> f = redundant_facts(runs)
    >>> f["ca_two"], f["drop"], f["cacp_mean"].to_dict()
    (1.0, 0.0, {'inseparable': 2.0, 'separable': 1.0})
    """
    return {
        "ca_two": float((runs["CA K"] == 2).mean()),
        "ca_k_range": (runs["CA K"].min(), runs["CA K"].max()),
        "cacp_mean": runs.groupby("problem")["CACP K"].mean(),
        "means": runs.groupby("problem")[list(LEARNERS)].mean(),
        "drop": float((runs["NN, two attributes"] - runs["CA"]).mean()),
    }


def _accuracy_rule(f):
    m = f["means"]
    return tiers(
        supported=bool((m.loc["separable"] >= 99).all() and (m.loc["inseparable"] >= 94).all()),
        partly=bool((m.loc["separable"] >= 97).all()),
    )


#: The claims of section 5 on redundant attributes, judged on the paper's reading of the problems.
REDUNDANT_CLAIMS = (
    Claim(
        key="red_ca2",
        words="With redundant attributes CA always selects rank two",
        measure="share of the samples (both problems) where CA chose K = 2",
        rule=Threshold(supported=1.0, partly=0.5, what="share of samples with K = 2").on(lambda f: f["ca_two"]),
        evidence=lambda f: "K = 2 in {:.0f} % of runs (K from {} to {})".format(100 * f["ca_two"], *f["ca_k_range"]),
    ),
    Claim(
        key="red_cacp",
        words="CACP's mean rank lies between one and four",
        measure="CACP's mean K on each problem",
        thresholds="supported if in [1, 4] on both problems, partly on one",
        rule=lambda f: tiers(
            supported=bool(f["cacp_mean"].between(1, 4).all()), partly=bool(f["cacp_mean"].between(1, 4).any())
        ),
        evidence=lambda f: (
            ", ".join(f"{p}: {v:.1f}" for p, v in f["cacp_mean"].items())
            + "; CACP's rank is one on these two-class problems, so K > 1 adds LAPACK's completion, nearly the "
            "first attributes in file order (the relevant two and their first copies)"
        ),
    ),
    Claim(
        key="red_acc",
        words="All three learners reach about 100 % (separable) and 96 % (inseparable) with redundant attributes",
        measure="the three learners' mean accuracies on each problem",
        thresholds="supported if all at least 99 % (separable) and 94 % (inseparable), partly if all at least 97 % "
        "on the separable one",
        rule=_accuracy_rule,
        evidence=lambda f: "; ".join(
            f"{p}: " + ", ".join(f"{m} {v:.1f}" for m, v in f["means"].loc[p].items()) for p in f["means"].index
        ),
    ),
    Claim(
        key="red_removed",
        words="CA and CACP remove redundant dimensions (Conclusions: redundancy is eliminated by the decomposition)",
        measure="the share of samples where CA chose K = 2, and CA's accuracy against NN on the two relevant "
        "attributes alone",
        thresholds="supported if K = 2 always and CA within 1 point of that NN, partly if K = 2 in more than half",
        rule=lambda f: tiers(supported=bool(f["ca_two"] == 1.0 and abs(f["drop"]) < 1), partly=bool(f["ca_two"] > 0.5)),
        evidence=lambda f: (
            f"CA at K = 2 in {100 * f['ca_two']:.0f} % of runs; CA minus NN on the two relevant attributes: "
            f"{-f['drop']:+.2f} points"
        ),
    ),
)

__all__ = [
    "ANCHOR",
    "FIGURE3_CLAIMS",
    "FIGURE4_CLAIMS",
    "LEARNERS",
    "MAPPING_CLAIMS",
    "REDUNDANT_CLAIMS",
    "distortion_facts",
    "irrelevant_facts",
    "rank_excess",
    "redundant_facts",
]
