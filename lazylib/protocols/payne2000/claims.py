"""Part II's runs and claims on Tables 2 and 3 of Payne & Edwards (2000), section 5, as data.

One fold seed's run of the five learners on one data set is :func:`table2_task`; :func:`seed_facts` reads a fold
seed's runs of all eleven data sets as what the claims compare (accuracies, dimensions kept, significance marks
against NN, the attributes C4.5 kept, the nested choice of :math:`K`), and :func:`paper_facts` reads the same from
the published tables. Each claim of section 5 is a row of :data:`TABLE2_CLAIMS`
(:class:`lazylib.report.verdicts.Claim`), whose rule reads one seed's facts, so the chapter judges every claim
under every fold seed the same way (:meth:`lazylib.report.scorecard.Chapter.judge`).

>>> [c.key for c in TABLE2_CLAIMS][:3]
['mc_reduces', 'mc_half', 'mc_marks']
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from lazylib import evaluation
from lazylib.protocols.payne2000.protocol import cv_nn, cv_selection, cv_sweep
from lazylib.report.verdicts import Claim, Share, Threshold, tiers

#: The learners of Table 2, NN first (every mark compares a learner with NN).
METHODS = ("NN", "MC", "FNN", "CA", "CACP")
#: The data sets on which the paper's FNN does not improve on NN (section 5).
FNN_REST = ("ionosp", "sonar", "wiscon", "wdbc", "wpbc", "glass", "wine")
#: The cells (method, data set) where section 5 says CA or CACP keep every dimension.
KEEP_ALL = (("CA", "balance"), ("CA", "iris"), ("CA", "bupa"), ("CA", "pima"), ("CACP", "sonar"), ("CACP", "bupa"),
            ("CACP", "pima"))  # fmt: skip
#: Differences below this are read as ties (accuracies in %, numbers of dimensions).
EPS = 1e-9


def table2_task(ds, fold_seed: int, mc_seed: int, *, n_folds: int, mc_budget: int, scaling: str, ties: str,
                completions: bool = False) -> dict:  # fmt: skip
    """The five learners of Table 2 on one data set under one fold seed, on the very same stratified folds.

    Parameters
    ----------
    ds : Dataset
        From :func:`lazylib.datasets.load`.
    fold_seed, mc_seed : int
        The seed of the folds and of MC's random subsets.
    n_folds, mc_budget : int
        Folds of the cross-validation; attribute subsets MC scores per training fold.
    scaling, ties : str
        The normalisation and the tie rule of every learner (:func:`lazylib.protocols.payne2000.protocol.cv_nn`).
    completions : bool
        Also run CACP with the CA completion and the prefix reading of the null space (the chapter does so under
        the first seed).

    Returns
    -------
    dict
        ``"NN"``: fold accuracies; ``"MC"``, ``"FNN"``: :func:`~lazylib.protocols.payne2000.protocol.cv_selection`'s
        results; ``"CA"``, ``"CACP"``: :func:`~lazylib.protocols.payne2000.protocol.cv_sweep` with the nested choice of
        :math:`K`; ``"CACP, K <= C-1"`` (and with ``completions`` ``"CACP, CA completion"``, ``"CACP, prefix"``):
        sweeps under those null-space readings.
    """
    folds = evaluation.stratified_kfold(ds.y, n_folds, random_state=fold_seed)
    common = {"scaling": scaling, "ties": ties}
    out = {
        "NN": cv_nn(ds.X, ds.y, folds, **common),
        "MC": cv_selection(ds.X, ds.y, folds, method="mc", n_subsets=mc_budget, random_state=mc_seed, **common),
        "FNN": cv_selection(ds.X, ds.y, folds, method="fnn", types=ds.types, **common),
    }
    for method in ("CA", "CACP"):
        out[method] = cv_sweep(ds.X, ds.y, folds, method=method.lower(), nested=True, **common)
    out["CACP, K <= C-1"] = cv_sweep(ds.X, ds.y, folds, method="cacp", null_space="none", nested=False, **common)
    if completions:
        for label, null_space in (("CACP, CA completion", "ca"), ("CACP, prefix", "prefix")):
            out[label] = cv_sweep(ds.X, ds.y, folds, method="cacp", null_space=null_space, nested=False, **common)
    return out


def fold_scores(result: dict, method: str) -> tuple[np.ndarray, float | None]:
    """(fold accuracies in %, dimensions) of one method in one :func:`table2_task` result: for MC and FNN the
    mean number of attributes kept over the folds, for CA and CACP the :math:`K` of the paper's rule, for NN None.
    """
    r = result[method]
    if method == "NN":
        return 100 * np.asarray(r), None
    if method in ("MC", "FNN"):
        return 100 * np.asarray(r["fold_accuracy"]), float(r["n_attributes"].mean())
    return 100 * np.asarray(r["fold_accuracy"]), float(r["k"])


def mark(a: np.ndarray, b: np.ndarray) -> str:
    """The paper's mark of fold accuracies ``a`` against NN's ``b``: the arrow of the mean difference, then the
    dagger of a one-tailed paired t-test († at 5 %, ‡ at 10 %; :func:`lazylib.evaluation.significance_mark`)."""
    diff = np.mean(a) - np.mean(b)
    arrow = "↑" if diff > EPS else "↓" if diff < -EPS else ""
    return arrow + evaluation.significance_mark(a, b, style="dagger")


def seed_facts(results: dict, n_attributes: pd.Series, petal: np.ndarray) -> dict:
    """What the claims of :data:`TABLE2_CLAIMS` read of one fold seed's runs.

    Parameters
    ----------
    results : dict
        Data set -> its :func:`table2_task` result under this seed.
    n_attributes : Series
        Data set -> its number of attributes.
    petal : array of bool
        Which of iris's attributes are the petal measurements.

    Returns
    -------
    dict
        ``acc`` (data set x method, %), ``dims`` and ``marks`` (data set x MC, FNN, CA, CACP), ``nested`` (data
        set x CA, CACP: accuracy with :math:`K` chosen inside each training part), ``reduction`` (the mean over
        the data sets of :math:`100 (n - k) / n` per method), ``petal_folds`` (folds in which C4.5 kept exactly
        iris's petal attributes), ``all_folds`` (per data set, folds in which it kept every attribute),
        ``n_folds`` and ``n_attributes``.
    """
    names = list(results)
    scores = {(d, m): fold_scores(results[d], m) for d in names for m in METHODS}
    acc = pd.DataFrame({m: {d: scores[d, m][0].mean() for d in names} for m in METHODS})
    dims = pd.DataFrame({m: {d: scores[d, m][1] or float(n_attributes[d]) for d in names} for m in METHODS[1:]})
    marks = pd.DataFrame({m: {d: mark(scores[d, m][0], scores[d, "NN"][0]) for d in names} for m in METHODS[1:]})
    nested = pd.DataFrame(
        {m: {d: 100 * results[d][m]["nested_accuracy"].mean() for d in names} for m in ("CA", "CACP")}
    )
    masks = {d: results[d]["FNN"]["masks"] for d in names}
    return {
        "acc": acc, "dims": dims, "marks": marks, "nested": nested,
        "reduction": (100 * (1 - dims.div(n_attributes[names], axis=0))).mean(),
        "petal_folds": sum(bool((m == petal).all()) for m in masks.get("iris", [])),
        "all_folds": pd.Series({d: sum(bool(np.all(m)) for m in masks[d]) for d in names}),
        "n_folds": len(next(iter(masks.values()))), "n_attributes": n_attributes[names],
    }  # fmt: skip


def paper_facts(published: pd.DataFrame, n_attributes: pd.Series) -> dict:
    """What the claims compare with, read from the published Table 2 (indexed by data set and method, columns
    ``accuracy``, ``dimensions``, ``arrow`` and ``mark``): ``acc`` and ``dims`` (data set x method) and
    ``marks`` (the arrow and dagger where the paper prints a dagger, else empty)."""
    names = list(n_attributes.index)
    marked = published["arrow"].where(published["mark"] != "", "") + published["mark"]
    return {
        "acc": published["accuracy"].unstack().loc[names],
        "dims": published["dimensions"].unstack().loc[names],
        "marks": marked.unstack().loc[names],
    }


def _significant(marks: pd.Series) -> pd.Series:
    return marks.where(marks.str.endswith(("†", "‡")), "")


def _significant_drop(mark: str) -> bool:
    return mark.startswith("↓") and mark.endswith(("†", "‡"))


def _agree(ours: pd.Series, paper: pd.Series) -> list:
    return (ours == paper).tolist()


def _listed(marks: pd.Series) -> str:
    return ", ".join(f"{d} {m}" for d, m in marks.items() if m) or "none"


def _beats(f: dict) -> pd.Series:
    acc = f["acc"]
    return acc[["CA", "CACP"]].min(axis=1) > acc[["MC", "FNN"]].max(axis=1) + EPS


def _shares(f: dict, table: str) -> tuple:
    return tuple(float((f[table][m] > f["acc"]["NN"] + EPS).mean()) for m in ("CA", "CACP"))


def _not_up(f: dict) -> tuple[list, int]:
    """(the reduced CA/CACP cells not above NN, the number of reduced cells)."""
    reduced = [
        (d, m) for m in ("CA", "CACP") for d in f["dims"].index if f["dims"].loc[d, m] < f["n_attributes"][d] - EPS
    ]
    return [f"{d} ({m})" for d, m in reduced if f["acc"].loc[d, m] <= f["acc"].loc[d, "NN"] + EPS], len(reduced)


def _reduced(f: dict, m: str) -> pd.Series:
    return f["dims"][m] < f["n_attributes"] - EPS


def _share(what: str) -> Share:
    """The share rule of most claims of section 5: supported on all the items named, partly on at least half."""
    return Share(supported=1.0, partly=0.5, what=what)


def _claim(key, words, measure, rule, evidence, kind="published", thresholds="") -> Claim:
    return Claim(key, words, measure, thresholds, rule=rule, evidence=evidence, kind=kind)


#: The thresholds of the two claims that CA and CACP raise accuracy over NN on most data sets.
_UP = "supported if both above half, partly if one"


def _up_rule(v) -> object:
    return tiers(supported=bool(min(v) > 0.5), partly=bool(max(v) > 0.5))


#: The claims of section 5 (Tables 2 and 3) and of the Conclusions on them; each rule reads :func:`seed_facts`
#: of one fold seed merged with ``paper`` (:func:`paper_facts`). Thresholds were declared with the claims.
TABLE2_CLAIMS = (
    _claim("mc_reduces", "MC reduces the number of attributes on ten of the eleven data sets (all but balance)",
           "data sets where MC's reduction (or none) is the paper's",
           _share("data sets").on(lambda f: _agree(_reduced(f, "MC"), f["paper"]["dims"]["MC"] < f["n_attributes"])),
           lambda f: f"ours reduced (seed 1): {int(_reduced(f, 'MC').sum())} of {len(f['dims'])}"),
    _claim("mc_half", "MC typically keeps about half of the attributes", "median share of attributes MC keeps",
           lambda f: tiers(supported=bool(0.4 <= (r := float((f["dims"]["MC"] / f["n_attributes"]).median())) <= 0.6),
                           partly=bool(0.3 <= r <= 0.7)),
           lambda f: f"median share kept (seed 1) {(f['dims']['MC'] / f['n_attributes']).median():.2f}; MC's random "
           "subsets hold each attribute with probability 1/2, so about half is what its sampling proposes",
           kind="property", thresholds="supported in 0.4-0.6, partly in 0.3-0.7"),
    _claim("mc_marks", "MC differs significantly from NN on iris and ionosp (up) and pima and wiscon (down) only",
           "data sets where MC's significant difference (or none) and its direction are the paper's",
           _share("data sets").on(lambda f:
               [(o != "") == (p != "") and o[:1] == p[:1]
                for o, p in zip(_significant(f["marks"]["MC"]), f["paper"]["marks"]["MC"])]),
           lambda f: "ours (seed 1): " + _listed(_significant(f["marks"]["MC"]))),
    _claim("fnn_five", "FNN improves on NN for five of the eleven data sets (ionosp, wdbc, wpbc, iris, wine)",
           "data sets where FNN above NN (or not) as in the paper",
           _share("data sets").on(lambda f: _agree(f["acc"]["FNN"] > f["acc"]["NN"] + EPS,
                                                    f["paper"]["acc"]["FNN"] > f["paper"]["acc"]["NN"])),
           lambda f: "ours higher (seed 1): " + ", ".join(f["acc"].index[f["acc"]["FNN"] > f["acc"]["NN"] + EPS])),
    _claim("fnn_drops", "Where FNN loses accuracy on the remaining data sets, the loss is not significant",
           "data sets of the remaining seven without a significant drop of FNN",
           _share("data sets").on(lambda f: [not _significant_drop(f["marks"].loc[d, "FNN"]) for d in FNN_REST]),
           lambda f: "our drops (seed 1): " + (", ".join(f"{d} {f['marks'].loc[d, 'FNN']}" for d in FNN_REST
                                                         if f["marks"].loc[d, "FNN"].startswith("↓")) or "none")),
    _claim("fnn_no_effect", "Rejecting attributes has no effect on wiscon and glass",
           "of wiscon and glass, those without a significant FNN/NN difference",
           _share("data sets").on(lambda f: [not f["marks"].loc[d, "FNN"].endswith(("†", "‡"))
                                               for d in ("wiscon", "glass")]),
           lambda f: "FNN minus NN (seed 1): " + ", ".join(f"{d} {f['acc'].loc[d, 'FNN'] - f['acc'].loc[d, 'NN']:+.2f}"
                                                           for d in ("wiscon", "glass"))),
    _claim("c45_iris", "C4.5 uses only the two petal attributes of iris",
           "share of iris's folds whose tree keeps exactly the petal attributes",
           Threshold(supported=1.0, partly=0.5, what="share of folds").on(lambda f: f["petal_folds"] / f["n_folds"]),
           lambda f: f"petal attributes only in {f['petal_folds']} of {f['n_folds']} folds (seed 1)"),
    _claim("c45_all", "The C4.5 trees use every attribute of bupa, pima and balance",
           "of bupa, pima and balance, those whose every fold's tree keeps every attribute",
           _share("data sets").on(lambda f: [bool(f["all_folds"][d] == f["n_folds"])
                                               for d in ("bupa", "pima", "balance")]),
           lambda f: "; ".join(f"{d}: {f['all_folds'][d]} of {f['n_folds']} folds (seed 1)"
                               for d in ("bupa", "pima", "balance"))),
    _claim("ca_six", "CA and CACP reduce the dimensions of the data sets Table 3 says (the text says six each)",
           "cells (CA, CACP x data set) where the reduction (or none) is Table 3's",
           _share("cells").on(lambda f: [bool(r) for m in ("CA", "CACP") for r in (
               _reduced(f, m) == (f["paper"]["dims"][m] < f["n_attributes"] - EPS))]),
           lambda f: f"ours reduced (seed 1): CA {int(_reduced(f, 'CA').sum())}, CACP {int(_reduced(f, 'CACP').sum())}"
           "; Table 3: 7 and 8"),
    _claim("ca_fail", "CA keeps all dimensions of balance, iris, bupa and pima; CACP of sonar, bupa and pima",
           "of those seven cells, the ones where every dimension is kept",
           _share("cells").on(lambda f: [bool(f["dims"].loc[d, m] >= f["n_attributes"][d]) for m, d in KEEP_ALL]),
           lambda f: "ours without reduction (seed 1): " + "; ".join(
               f"{m} " + ", ".join(d for d in f["dims"].index if f["dims"].loc[d, m] >= f["n_attributes"][d])
               for m in ("CA", "CACP"))),
    _claim("ca_up", "CA and CACP raise accuracy over NN on most data sets (K chosen on the test folds)",
           "share of data sets where each is above NN",
           lambda f: _up_rule(_shares(f, "acc")),
           lambda f: "higher than NN (seed 1): CA {}, CACP {} of {}; under the paper's rule neither can score below NN "
           "(full rank is NN)".format(*(round(len(f["acc"]) * s) for s in _shares(f, "acc")), len(f["acc"])),
           kind="property", thresholds=_UP),
    _claim("ca_up_nested", "With K chosen inside the training folds, CA and CACP still raise accuracy over NN on "
           "most data sets", "share of data sets where each (nested K) is above NN",
           lambda f: _up_rule(_shares(f, "nested")),
           lambda f: "higher than NN (seed 1): CA {}, CACP {} of {}".format(
               *(round(len(f["acc"]) * s) for s in _shares(f, "nested")), len(f["acc"])), kind="finding",
           thresholds=_UP),
    _claim("ca_beat", "CA and CACP both beat MC and FNN on six data sets",
           "data sets where both beat both (or not) as in the paper",
           _share("data sets").on(lambda f: _agree(_beats(f), _beats(f["paper"]))),
           lambda f: "ours (seed 1): " + ", ".join(f["acc"].index[_beats(f)])),
    _claim("reduction_order", "MC and FNN remove more dimensions than CA and CACP (44.4 and 39.2 % against 30.4 and "
           "36.4 %)", "mean reductions over the eleven data sets",
           lambda f: tiers(supported=bool(min(f["reduction"]["MC"], f["reduction"]["FNN"])
                                          > max(f["reduction"]["CA"], f["reduction"]["CACP"])),
                           partly=bool(f["reduction"][["MC", "FNN"]].mean() > f["reduction"][["CA", "CACP"]].mean())),
           lambda f: ", ".join(f"{m} {v:.1f} %" for m, v in f["reduction"].items()) + " (seed 1)",
           thresholds="supported if both MC and FNN above both CA and CACP, partly if their means are"),
    _claim("reduced_up", "Where CA or CACP reduce the dimensions, accuracy rises in all cases but one (Conclusions)",
           "reduced CA/CACP cells not above NN",
           lambda f: tiers(supported=len(_not_up(f)[0]) <= 1, partly=len(_not_up(f)[0]) <= _not_up(f)[1] / 2),
           lambda f: "not higher than NN (seed 1): {} of {} ({})".format(
               len(_not_up(f)[0]), _not_up(f)[1], ", ".join(_not_up(f)[0]) or "none"),
           thresholds="supported if at most one, partly if at most half"),
)  # fmt: skip
