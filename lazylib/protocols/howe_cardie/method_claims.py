"""Part V's claims on the method (chapter 01) and on ionosphere's weights (chapter 04), as data, and the facts
their rules read (the claims on Tables 1 and 2 and the images are in
:mod:`lazylib.protocols.howe_cardie.claims`).

- :data:`METHOD_CLAIMS`: section 2's claims on the method (chapter 01), on :func:`timing_facts`,
  :func:`duplicate_facts` and :func:`approximation_facts`;
- :data:`IONOSPHERE_CLAIMS`: section 3's ionosphere observation (chapter 04), on :func:`zero_share_facts` and
  :func:`imbalance`.

Each claim table is a sequence of :class:`lazylib.report.verdicts.Claim`, judged and recorded with
:meth:`lazylib.report.scorecard.Chapter.judge`.

>>> [c.key for c in METHOD_CLAIMS]
['complexity', 'duplicate', 'approximation']
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from lazylib.report.verdicts import Claim, Share, tiers

# --- Section 2: the method (chapter 01) ------------------------------------------------------------------------


def timing_facts(timing: pd.DataFrame, fast=(1000, 256000), naive=(1000, 4000)) -> dict:
    """What the complexity claim reads from the timings of one mean difference, fast against naive.

    Parameters
    ----------
    timing : DataFrame
        Indexed by n, columns ``numeric, fast``, ``numeric, naive`` (seconds) and ``max relative error`` (of the
        fast result against the naive one, where both ran).
    fast, naive : (int, int)
        The sizes between which each algorithm's growth exponent is measured.

    Returns
    -------
    dict
        ``max_err``, ``fast_slope`` and ``naive_slope`` (log-log slopes of time against n between the two sizes),
        ``speedup`` (naive over fast time at the naive's largest size) and the two size ranges.

    Examples
    --------
    >>> t = pd.DataFrame({"numeric, fast": [1.0, 4.0, 256.0], "numeric, naive": [1.0, 16.0, None],
    ...                   "max relative error": [0.0, 1e-16, None]}, index=[1000, 4000, 256000])
    >>> f = timing_facts(t)
    >>> f["fast_slope"], f["naive_slope"], f["speedup"]
    (1.0, 2.0, 4.0)
    """
    fast_slope = np.log(timing.loc[fast[1], "numeric, fast"] / timing.loc[fast[0], "numeric, fast"])
    naive_slope = np.log(timing.loc[naive[1], "numeric, naive"] / timing.loc[naive[0], "numeric, naive"])
    return {
        "max_err": float(timing["max relative error"].max()),
        "fast_slope": float(fast_slope / np.log(fast[1] / fast[0])),
        "naive_slope": float(naive_slope / np.log(naive[1] / naive[0])),
        "speedup": float(timing.loc[naive[1], "numeric, naive"] / timing.loc[naive[1], "numeric, fast"]),
        "fast range": fast,
        "naive range": naive,
    }


def duplicate_facts(once: pd.Series, twice: pd.Series, feature: str = "length", against: str = "colour") -> dict:
    """What the duplicated-feature claim reads: per class, the weight ratio of ``feature`` (both copies together)
    to ``against`` with the feature duplicated, over the same ratio with it once.

    Parameters
    ----------
    once, twice : Series
        Per class, the ratio of the significance weights without and with the duplicate.
    feature, against : str
        The names the evidence gives them.

    Returns
    -------
    dict
        ``ratio`` (twice / once per class), ``once`` and ``twice`` (the first class's ratios), ``class`` (that
        class) and the two names.

    Examples
    --------
    >>> f = duplicate_facts(pd.Series({"a": 3.0, "b": 2.0}), pd.Series({"a": 6.0, "b": 4.0}))
    >>> f["ratio"].tolist(), f["class"]
    ([2.0, 2.0], 'a')
    """
    return {
        "ratio": (twice / once).to_numpy(),
        "once": float(once.iloc[0]),
        "twice": float(twice.iloc[0]),
        "class": once.index[0],
        "feature": feature,
        "against": against,
    }


def approximation_facts(approximation: pd.DataFrame) -> dict:
    """What the approximation claim reads from the sampled estimates: per (epsilon, delta, feature) setting
    whether the share of estimates missing by more than epsilon stays within delta.

    Parameters
    ----------
    approximation : DataFrame
        One row per setting: ``epsilon``, ``delta``, ``share missing by more than epsilon`` and ``largest error``.

    Returns
    -------
    dict
        ``holds`` (one bool per setting), ``largest`` (the largest error of any estimate) and ``epsilon`` (the
        smallest epsilon tried).

    Examples
    --------
    >>> a = pd.DataFrame({"epsilon": [0.05, 0.01], "delta": [0.1, 0.01],
    ...                   "share missing by more than epsilon": [0.0, 0.02], "largest error": [0.03, 0.02]})
    >>> approximation_facts(a)["holds"]
    [True, False]
    """
    holds = approximation["share missing by more than epsilon"] <= approximation["delta"]
    return {
        "holds": holds.to_list(),
        "largest": approximation["largest error"].max(),
        "epsilon": approximation["epsilon"].min(),
    }


def _complexity_rule(f):
    err, fast, naive = f["max_err"], f["fast_slope"], f["naive_slope"]
    return tiers(
        supported=bool(err < 1e-10 and fast < 1.6 and naive > 1.8),
        partly=bool(err < 1e-10),
        note=f"agreement {err:.0e}, slopes {fast:.2f} (fast) and {naive:.2f} (naive)",
    )


def _complexity_evidence(f):
    (f0, f1), (n0, n1) = f["fast range"], f["naive range"]
    return (
        f"fast = naive to {f['max_err']:.0e}; time grows as n^{f['fast_slope']:.2f} (fast, {f0:,}-{f1:,}) "
        f"vs n^{f['naive_slope']:.2f} (naive, {n0:,}-{n1:,})"
    )


def _duplicate_rule(f):
    r = f["ratio"]
    return tiers(
        supported=bool(np.allclose(r, 2.0)),
        partly=bool((r > 1).all()),
        note=f"duplicated / single ratio {float(r.min()):.3f}-{float(r.max()):.3f}",
    )


#: Section 2's claims on the method (chapter 01), in the order the chapter records them. The first two follow
#: from the method's definition (properties; the timings illustrate the first and move with the machine, so they
#: count for nothing in the headline); the third is the paper's claim on its randomised approximation.
METHOD_CLAIMS = (
    Claim(
        key="complexity",
        words="Exact O(n log n) numeric and O(n + m^2) symbolic mean differences",
        measure="agreement of the fast and naive results; growth exponents of their times (:func:`timing_facts`)",
        thresholds="supported when fast and naive agree to 1e-10, the fast time grows more slowly than n^1.6 and "
        "the naive one faster than n^1.8; partly supported when only the agreement holds",
        rule=_complexity_rule,
        evidence=_complexity_evidence,
        kind="property",
    ),
    Claim(
        key="duplicate",
        words="A duplicated feature receives twice the weight",
        measure="per class, the duplicated feature's weight ratio with its copy over without (:func:`duplicate_facts`)",
        thresholds="supported when 2 in every class, partly when above 1",
        rule=_duplicate_rule,
        evidence=lambda f: (
            f"{f['feature']}/{f['against']} weight ratio {f['once']:.2f} alone, {f['twice']:.2f} with "
            f"{f['feature']} duplicated (class {f['class']})"
        ),
        kind="property",
    ),
    Claim(
        key="approximation",
        words="A randomised approximation estimates a mean difference accurately with high probability "
        "(bounded differences)",
        measure="settings where the share of estimates missing by more than epsilon is at most delta "
        "(:func:`approximation_facts`)",
        rule=Share(supported=1.0, partly=0.5, what="(epsilon, delta, feature) settings").on(lambda f: f["holds"]),
        evidence=lambda f: (
            f"share of estimates missing by more than epsilon <= delta in {int(sum(f['holds']))} of "
            f"{len(f['holds'])} settings; largest error {f['largest']:.4f} (epsilon down to {f['epsilon']})"
        ),
    ),
)


# --- Section 3: ionosphere's zero weights (chapter 04) ---------------------------------------------------------


def zero_share_facts(zero_weights, n_usable: int, predicted=None, truth=None) -> dict:
    """What the ionosphere claim reads: each class's share of zero significance weights, largest first, and for
    the evidence the class with most zeros and how often MDW predicts it.

    Parameters
    ----------
    zero_weights : mapping or Series
        Class -> the number of its significance weights that are 0 (among the varying features).
    n_usable : int
        The number of features that vary in training.
    predicted, truth : array-like, optional
        MDW's test predictions and the true classes (the evidence's shares; the primary condition needs them).

    Returns
    -------
    dict
        ``shares`` (sorted, largest first), ``zeros``, ``n_usable``, ``sparse`` (the class with most zeros),
        ``other`` (the first other class), and with predictions ``predicted share`` and ``true share`` (%).

    Examples
    --------
    >>> f = zero_share_facts({"b": 28, "g": 0}, 33, ["b", "g", "b", "g"], ["b", "g", "g", "g"])
    >>> [round(s, 3) for s in f["shares"]], f["sparse"], f["predicted share"], f["true share"]
    ([0.848, 0.0], 'b', 50.0, 25.0)
    """
    zeros = pd.Series(zero_weights)
    sparse = zeros.idxmax()
    facts = {
        "shares": tuple(sorted([z / n_usable for z in zeros], reverse=True)),
        "zeros": zeros,
        "n_usable": n_usable,
        "sparse": sparse,
        "other": [c for c in zeros.index if c != sparse][0],
    }
    if predicted is not None:
        facts["predicted share"] = 100 * float(np.mean(np.asarray(predicted) == sparse))
        facts["true share"] = 100 * float(np.mean(np.asarray(truth) == sparse))
    return facts


def imbalance(shares: pd.DataFrame) -> pd.DataFrame:
    """Per task, the largest and smallest share of zero weights over its classes, the class with the largest and
    its training instances, and whether the task shows an imbalance (one class at least 80 %, another at most
    20 %).

    Parameters
    ----------
    shares : DataFrame
        :func:`lazylib.protocols.howe_cardie.protocol.zero_weight_shares`.

    Returns
    -------
    DataFrame
        One row per task.

    Examples
    --------
    >>> s = pd.DataFrame({"task": ["t", "t"], "class": ["x", "y"], "training instances": [5, 9],
    ...                   "zero share (%)": [90.0, 10.0]})
    >>> imbalance(s)[["class with the largest", "imbalance"]].to_dict("records")
    [{'class with the largest': 'x', 'imbalance': True}]
    """
    per_task = shares.groupby("task", sort=False)["zero share (%)"]
    out = pd.DataFrame({"largest zero share (%)": per_task.max(), "smallest zero share (%)": per_task.min()})
    out["class with the largest"] = shares.loc[per_task.idxmax(), "class"].to_numpy()
    out["its training instances"] = shares.loc[per_task.idxmax(), "training instances"].to_numpy()
    out["imbalance"] = (out["largest zero share (%)"] >= 80) & (out["smallest zero share (%)"] <= 20)
    return out


def _zero_rule(f):
    r = f["shares"]
    return tiers(
        supported=bool(r[0] >= 0.8 and r[1] <= 0.2),
        partly=bool(r[0] >= 0.5),
        note=f"zero shares {r[0]:.0%} and {r[1]:.0%}",
    )


def _zero_evidence(f):
    sparse, other, zeros = f["sparse"], f["other"], f["zeros"]
    return (
        f"class '{sparse}': {zeros[sparse]} of {f['n_usable']} weights zero; class '{other}': {zeros[other]}; MDW "
        f"predicts '{sparse}' for {f['predicted share']:.1f} % of the test set (true share {f['true share']:.1f} %)"
    )


def _others(f):
    table = f["table"]
    return [t for t in table.index if t != "Ionosphere"]


def _others_evidence(f):
    imbalanced = [t for t in _others(f) if f["table"].loc[t, "imbalance"]]
    return (
        f"other tasks with a class >= 80 % zero weights and one <= 20 %: {', '.join(imbalanced) or 'none'} "
        f"({f['reading']})"
    )


#: Section 3's claims on ionosphere's zero weights (chapter 04): judged on :func:`zero_share_facts` under every
#: reading of MDW, and on :func:`imbalance` (facts ``{"table": imbalance(shares), "reading": words}``) under
#: each treatment of unknown values.
IONOSPHERE_CLAIMS = (
    Claim(
        key="ionosphere",
        words="Ionosphere: for one class nearly all MDW weights are zero",
        measure="the classes' shares of zero significance weights among the varying features",
        thresholds="supported if one class has at least 80 % of its weights zero and the other at most 20 %, partly "
        "supported if the first holds at 50 %",
        rule=_zero_rule,
        evidence=_zero_evidence,
    ),
    Claim(
        key="others",
        words="No other data set shows such an imbalance of zero weights",
        measure="the other tasks of Table 1 without an imbalance (a class >= 80 % zero weights, another <= 20 %)",
        rule=Share(supported=1.0, partly=6 / 7, what="other tasks", n=7).on(
            lambda f: (~f["table"].loc[_others(f), "imbalance"]).to_dict()
        ),
        evidence=_others_evidence,
    ),
)


__all__ = [
    "IONOSPHERE_CLAIMS",
    "METHOD_CLAIMS",
    "approximation_facts",
    "duplicate_facts",
    "imbalance",
    "timing_facts",
    "zero_share_facts",
]
