"""Part IV's facts: what the claims of Wilson & Martinez (1997) read, computed from the chapters' results.

Every count the chapters show over the fold seeds and tie rules is computed here: a facts function reads one
condition (:func:`lazylib.protocols.wilson1997.protocol.run`'s table under one seed and tie rule, or a worked example's
numbers), and each claim of :mod:`lazylib.protocols.wilson1997.claims` is a rule on those facts.

- :func:`average_attribute_distance` and :func:`table1_facts`: Table 1 (chapter 02);
- :func:`table2_facts`, :func:`table3_counts`, :func:`head_to_head`, :func:`head_to_head_counts`, :func:`summary8`,
  :func:`subgroup_numbers`, :func:`equivalence_numbers`: Tables 2, 3 and 6-8 and section 6 (chapters 02, 03);
- :func:`level_and_gain`: Figure 13 (chapter 04);
- :func:`worked_distances` and :func:`peak_facts`: the Iris example (chapter 01);
- :func:`slope_conditions` and :func:`storage_conditions`: section 6.2's costs (chapter 05).

>>> from lazylib.protocols.wilson1997.facts import SIX
>>> SIX[:3]
('Euclid.', 'HOEM', 'HVDM')
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from lazylib.encoding import Encoded, encode
from lazylib.evaluation import check_folds
from lazylib.labels import label_values
from lazylib.metrics import Metric
from lazylib.protocols.wilson1997.marks import marks, over_next, pvalues, wins
from lazylib.protocols.wilson1997.protocol import mean_table
from lazylib.search import TIE_TOLERANCE


def average_attribute_distance(metric, X, y, folds, *, types=None) -> pd.DataFrame:
    """Average distance of every attribute between test and training instances (Wilson & Martinez, Table 1):
    the sum of the attribute's distances over every (test, training) pair of every fold, divided by the
    number of pairs.

    Parameters
    ----------
    metric : Metric or callable
        An unfitted attribute-wise metric, or a function returning one (e.g.
        ``lambda: HVDM(normalization="N1")``). It is fitted on each fold's training part *of one attribute at a
        time*: the attribute distance of HEOM, HVDM, DVDM, IVDM and WVDM depends on that attribute alone, and
        with one attribute and the rooted forms the metric's distance is the attribute distance itself.
    folds : list of (train, test) index arrays

    Returns
    -------
    DataFrame indexed by attribute with its ``kind`` and ``average`` distance. Unknown values score as the
    metric defines (1 for HVDM).

    Examples
    --------
    >>> from lazylib.metrics import HVDM
    >>> from lazylib.evaluation import kfold
    >>> X = pd.DataFrame({"size": [1.0, 2.0, 3.0, 4.0], "colour": pd.Categorical(list("rbrb"))})
    >>> folds = kfold(4, 2, shuffle=False)
    >>> average_attribute_distance(HVDM(), X, [0, 1, 0, 1], folds).round(4)  # doctest: +NORMALIZE_WHITESPACE
                  kind  average
    attribute
    size        linear   0.7071
    colour     nominal   0.7071

    (With training rows 3, 4 the linear scale is 4 sigma = 2.828 and the four test differences average 2; the
    colours' class distributions are (1, 0) and (0, 1), N2 distance sqrt(2), on half of the pairs.)
    """
    make = (
        metric if callable(metric) and not isinstance(metric, Metric) else (lambda: type(metric)(**metric.get_params()))
    )
    enc = encode(X, types)
    labels = label_values(y)
    totals = np.zeros(len(enc.columns))
    pairs = 0
    for train, test in check_folds(folds, len(enc)):
        pairs += len(train) * len(test)
        for a, (column, kind) in enumerate(zip(enc.columns, enc.kinds)):
            one = Encoded(enc.values[:, [a]], (column,), (kind,), (enc.categories[a],), enc.from_frame)
            m = make().fit(one.take(train), labels[train])
            for _, _, block in m.pairwise_chunks(one.take(test)):
                totals[a] += block.sum()
    kinds = ["nominal" if k == "nominal" else "linear" for k in enc.kinds]
    return pd.DataFrame({"kind": kinds, "average": totals / pairs}, index=pd.Index(enc.columns, name="attribute"))


def group_means(means: pd.DataFrame, kinds: pd.DataFrame) -> pd.DataFrame:
    """Average accuracy of every metric over the paper's groups of data sets: ``all``, ``no continuous``
    (no continuous attribute), ``no nominal``, ``nominal`` (at least one nominal), ``continuous`` (at least
    one continuous) and ``both`` (at least one of each), with the number of data sets in each."""
    k = kinds.reindex(means.index)
    if k.isna().any().any():
        raise ValueError(f"kinds lack the data sets {list(k.index[k.isna().any(axis=1)])}")
    groups = {
        "all": np.ones(len(k), bool),
        "no continuous": k["continuous"].to_numpy() == 0,
        "no nominal": k["nominal"].to_numpy() == 0,
        "nominal": k["nominal"].to_numpy() > 0,
        "continuous": k["continuous"].to_numpy() > 0,
        "both": (k["continuous"].to_numpy() > 0) & (k["nominal"].to_numpy() > 0),
    }
    rows = {g: {"datasets": int(sel.sum()), **means[sel].mean().to_dict()} for g, sel in groups.items()}
    return pd.DataFrame.from_dict(rows, orient="index")


#: The fold seed of the per-data-set tables and of every claim's primary condition (chapters 02 and 03).
PRIMARY_SEED = 1997

#: The tie rules every count and verdict is computed under, the primary reading first.
RULES = ("all", "random", "first")

#: The six distance functions of Tables 8 and 9, in the paper's order.
SIX = ("Euclid.", "HOEM", "HVDM", "DVDM", "IVDM", "WVDM")

#: The four VDM-based functions among :data:`SIX`.
VDM_BASED = ("HVDM", "DVDM", "IVDM", "WVDM")


def table2_counts(results: pd.DataFrame) -> pd.Series:
    """The counts of the paper's Table 2 (HVDM under the normalisations N1, N2 and N3) from one condition's
    results: how often each normalisation is highest or leads the next by over 1 %, and the best average.

    Parameters
    ----------
    results : DataFrame
        :func:`~lazylib.protocols.wilson1997.protocol.run`'s table with the metrics ``N1``, ``N2``, ``N3``.

    Returns
    -------
    Series
        ``N2 highest``, ``N3 highest``, ``N2 over 1 %``, ``N1 over 1 %``, ``N3 above both``, ``best average``.
    """
    m = mean_table(results)
    lead = over_next(m)
    w = wins(m)
    return pd.Series(
        {
            "N2 highest": w["N2"],
            "N3 highest": w["N3"],
            "N2 over 1 %": int((lead["marked"] & (lead["best"] == "N2")).sum()),
            "N1 over 1 %": int((lead["marked"] & (lead["best"] == "N1")).sum()),
            "N3 above both": int(((lead["best"] == "N3") & (lead["lead"] > 0)).sum()),
            "best average": m.mean().idxmax(),
        }
    )


def table2_facts(results: pd.DataFrame) -> dict:
    """What the Table 2 claim reads from one condition's results: ``counts`` (:func:`table2_counts`) and
    ``averages`` (each normalisation's average accuracy in %)."""
    return {"counts": table2_counts(results), "averages": (100 * mean_table(results)).mean()}


def table3(results: pd.DataFrame, nominal) -> tuple[pd.DataFrame, pd.DataFrame, pd.Series]:
    """The paper's Table 3 from one condition's results: Euclid., HOEM and HVDM on the data sets ``nominal``
    (those with nominal attributes).

    Returns
    -------
    means : DataFrame
        Mean accuracy (%), data set x metric.
    marks : DataFrame
        :func:`~lazylib.protocols.wilson1997.marks.marks` against HVDM (``"*"`` significantly above HVDM, ``"<"``
        below; two-tailed, 90 %).
    wins : Series
        :func:`~lazylib.protocols.wilson1997.marks.wins` of each metric.
    """
    sub = results[results["dataset"].isin(nominal) & results["metric"].isin(["Euclid.", "HOEM", "HVDM"])]
    m = 100 * mean_table(sub)
    return m, marks(sub, "HVDM"), wins(m / 100)


def table3_counts(results: pd.DataFrame, nominal) -> pd.Series:
    """The counts of Table 3 (:func:`table3`) that the paper's text reads: wins, significant differences of
    HVDM against Euclid. and HOEM, and HVDM's average minus the better of the other two (points)."""
    m, mk, w = table3(results, nominal)
    return pd.Series(
        {
            "HVDM as high or higher": int(w["HVDM"]),
            "Euclid. highest": int(w["Euclid."]),
            "HOEM highest": int(w["HOEM"]),
            "HVDM sig. above Euclid.": int((mk["Euclid."] == "<").sum()),
            "HVDM sig. below Euclid.": int((mk["Euclid."] == "*").sum()),
            "HVDM sig. above HOEM": int((mk["HOEM"] == "<").sum()),
            "HVDM sig. below HOEM": int((mk["HOEM"] == "*").sum()),
            "HVDM average minus the better other": float(m["HVDM"].mean() - m[["Euclid.", "HOEM"]].mean().max()),
        }
    )


def head_to_head(
    results: pd.DataFrame, a: str, b: str, *, alpha: float = 0.10, tolerance: float = TIE_TOLERANCE
) -> pd.Series:
    """The counts of Tables 6 and 7 for metric ``a`` against ``b``: on how many data sets each has the higher
    mean accuracy, how many of those differences are significant (two-tailed paired t-test at ``alpha``), how
    many are tied, and the average accuracy of each.

    Examples
    --------
    >>> res = pd.DataFrame({"dataset": ["x"] * 4 + ["y"] * 4, "metric": ["A", "A", "B", "B"] * 2,
    ...                     "fold": [0, 1, 0, 1] * 2, "accuracy": [0.9, 0.8, 0.7, 0.6, 0.5, 0.5, 0.5, 0.5]})
    >>> head_to_head(res, "A", "B")[["A higher", "A significant", "B higher", "ties"]].to_dict()
    {'A higher': 1, 'A significant': 1, 'B higher': 0, 'ties': 1}
    """
    means = mean_table(results)
    for m in (a, b):
        if m not in means.columns:
            raise ValueError(f"metric {m!r} is not among {list(means.columns)}")
    p = pvalues(results, b)[a]
    diff = means[a] - means[b]
    higher_a, higher_b = diff > tolerance, diff < -tolerance
    return pd.Series(
        {
            "datasets": len(diff),
            f"{a} higher": int(higher_a.sum()),
            f"{a} significant": int((higher_a & (p < alpha)).sum()),
            f"{b} higher": int(higher_b.sum()),
            f"{b} significant": int((higher_b & (p < alpha)).sum()),
            "ties": int((~higher_a & ~higher_b).sum()),
            f"{a} average": float(means[a].mean()),
            f"{b} average": float(means[b].mean()),
        },
        dtype=object,
    )


def head_to_head_counts(results: pd.DataFrame, sets) -> pd.Series:
    """The counts of Tables 6 and 7 on the data sets ``sets``: IVDM and WVDM each against DVDM
    (:func:`head_to_head`), indexed by (function, count); the average gain is in points."""
    sub = results[results["dataset"].isin(sets)]
    out = {}
    for new in ("IVDM", "WVDM"):
        h = head_to_head(sub, new, "DVDM")
        out[(new, "new higher")] = h[f"{new} higher"]
        out[(new, "new significant")] = h[f"{new} significant"]
        out[(new, "DVDM higher")] = h["DVDM higher"]
        out[(new, "DVDM significant")] = h["DVDM significant"]
        out[(new, "ties")] = h["ties"]
        out[(new, "average gain")] = 100 * (h[f"{new} average"] - h["DVDM average"])
    return pd.Series(out)


def summary8(results: pd.DataFrame) -> pd.Series:
    """Table 8's summary from one condition's results: each function's average accuracy (%) and wins,
    indexed by (``"average"`` or ``"wins"``, function)."""
    m = 100 * mean_table(results)
    return pd.concat({"average": m.mean(), "wins": wins(m / 100).astype(float)})


def subgroup_numbers(results: pd.DataFrame, kinds: pd.DataFrame, metrics=SIX) -> pd.Series:
    """The averages of section 6's subgroups of data sets (:func:`group_means`) that the paper's text reads,
    from one condition's results.

    Parameters
    ----------
    results : DataFrame
        :func:`~lazylib.protocols.wilson1997.protocol.run`'s table with the six functions of :data:`SIX`.
    kinds : DataFrame
        :func:`~lazylib.protocols.wilson1997.protocol.attribute_kinds` of the data sets.
    metrics : sequence of str
        The functions, in the order of the ``both:`` rows.

    Returns
    -------
    Series
        Average accuracies (%) without continuous attributes, the gap of DVDM and of Euclid. to HOEM without
        nominal ones (points; ``DVDM lowest`` is 1.0 or 0.0), and each function's average with both kinds.
    """
    g = group_means(100 * mean_table(results), kinds)
    nocont, nonom, both = g.loc["no continuous"], g.loc["no nominal"], g.loc["both"]
    others = [m for m in metrics if m != "DVDM"]
    return pd.Series(
        {
            "no continuous: VDM-based": float(nocont[list(VDM_BASED)].mean()),
            "no continuous: HOEM": nocont["HOEM"],
            "no continuous: Euclid.": nocont["Euclid."],
            "no nominal: DVDM below the others' mean": float(nonom[others].mean() - nonom["DVDM"]),
            "no nominal: DVDM lowest": float(nonom["DVDM"] == nonom[list(metrics)].min()),
            "no nominal: Euclid. minus HOEM": nonom["Euclid."] - nonom["HOEM"],
            **{f"both: {m}": both[m] for m in metrics},
        }
    )


def equivalence_numbers(results: pd.DataFrame, nocont_sets, nonom_sets) -> pd.Series:
    """Where section 6's equivalences fail in one condition's results: per data set without continuous
    attributes whether HVDM's mean accuracy differs from DVDM's (``nocont``), per data set without nominal ones
    whether Euclid.'s differs from HVDM's (``nonom``); two boolean Series."""
    m = 100 * mean_table(results)
    return pd.Series(
        {
            "nocont": (m.loc[nocont_sets, "HVDM"] - m.loc[nocont_sets, "DVDM"]).abs().gt(1e-9),
            "nonom": (m.loc[nonom_sets, "Euclid."] - m.loc[nonom_sets, "HVDM"]).abs().gt(1e-9),
        }
    )


def level_and_gain(averages: pd.DataFrame) -> dict:
    """What Figure 13's claims read from the average accuracy of the six functions per training fraction.

    Parameters
    ----------
    averages : DataFrame
        One row per fraction of the training fold (ascending), one column per function of :data:`SIX`.

    Returns
    -------
    dict
        ``level``: per fraction, the VDM-based mean at least the mean of Euclid. and HOEM; ``gain``: per fraction
        after the smallest, the VDM-based functions' gain since the smallest at least the linear ones'; ``top``:
        IVDM and WVDM both above HVDM and DVDM; ``paired``: also HVDM and DVDM above Euclid. and HOEM; ``gap_1pc``:
        the VDM-based mean minus the linear mean at the smallest fraction.

    Examples
    --------
    >>> a = pd.DataFrame({"Euclid.": [70, 80], "HOEM": [70, 80], "HVDM": [75, 85], "DVDM": [75, 85],
    ...                   "IVDM": [80, 90], "WVDM": [80, 90]}, index=[0.1, 1.0])
    >>> f = level_and_gain(a)
    >>> f["level"].tolist(), f["gain"].tolist(), f["paired"].tolist(), f["gap_1pc"]
    ([True, True], [True], [True, True], 7.5)
    """
    vdm_based = averages[list(VDM_BASED)].mean(axis=1)
    linear = averages[["Euclid.", "HOEM"]].mean(axis=1)
    gain = (vdm_based - vdm_based.iloc[0]) >= (linear - linear.iloc[0])
    top = averages[["IVDM", "WVDM"]].min(axis=1) > averages[["HVDM", "DVDM"]].max(axis=1)
    middle = averages[["HVDM", "DVDM"]].min(axis=1) > averages[["Euclid.", "HOEM"]].max(axis=1)
    return {
        "level": vdm_based >= linear,
        "gain": gain.iloc[1:],
        "paired": top & middle,
        "top": top,
        "gap_1pc": float(vdm_based.iloc[0] - linear.iloc[0]),
    }


# --- Table 1 (chapter 02) --------------------------------------------------------------------------------------


def table1_facts(table1: pd.DataFrame) -> dict:
    """What the Table 1 claims read: the gap between the nominal and the linear average attribute distance under
    each normalisation, and how N3's and N2's gaps follow the number of classes.

    Parameters
    ----------
    table1 : DataFrame
        One row per data set with columns ``#C`` (classes), ``avgLin`` (the linear attributes' average distance)
        and ``N1``, ``N2``, ``N3`` (the nominal attributes' under each normalisation).

    Returns
    -------
    dict
        ``gap``: absolute nominal minus linear distance, data set x normalisation; ``rho`` and ``p``: Spearman's
        correlation of the number of classes with N3's gap and its p value; ``rho N2``: the same for N2's gap.

    Examples
    --------
    >>> t = pd.DataFrame({"#C": [2.0, 3.0, 5.0], "avgLin": [0.2, 0.2, 0.2], "N1": [0.3, 0.3, 0.3],
    ...                   "N2": [0.25, 0.2, 0.25], "N3": [0.3, 0.4, 0.6]})
    >>> f = table1_facts(t)
    >>> f["gap"].mean().idxmin(), float(f["rho"])
    ('N2', 1.0)
    """
    gap = table1[["N1", "N2", "N3"]].sub(table1["avgLin"], axis=0).abs()
    rho, p_rho = stats.spearmanr(table1["#C"], gap["N3"])
    return {"gap": gap, "rho": rho, "p": p_rho, "rho N2": stats.spearmanr(table1["#C"], gap["N2"])[0]}


# --- The Iris example (chapter 01) -----------------------------------------------------------------------------


def worked_distances(metrics: dict, query: pd.DataFrame, instances: dict) -> pd.DataFrame:
    """The squared distance (the sum of squares of the attribute distances) from ``query`` to each instance under
    each fitted metric: the numbers of the paper's worked example (section 4.2).

    Parameters
    ----------
    metrics : dict
        Name -> fitted metric.
    query : DataFrame
        One row.
    instances : dict
        Label -> one-row DataFrame.

    Returns
    -------
    DataFrame
        One row per instance label, one column ``"<name> (sum of squares)"`` per metric.

    Examples
    --------
    >>> from lazylib.metrics import HVDM
    >>> X = pd.DataFrame({"x": [0.0, 1.0, 2.0, 3.0]})
    >>> m = HVDM().fit(X, ["a", "a", "b", "b"])
    >>> one = lambda v: pd.DataFrame({"x": [v]})
    >>> worked_distances({"HVDM": m}, one(0.0), {"to 0": one(0.0)}).to_dict()
    {'HVDM (sum of squares)': {'to 0': 0.0}}
    """
    return pd.DataFrame(
        {
            f"{name} (sum of squares)": [float(m.pairwise(query, other)[0, 0] ** 2) for other in instances.values()]
            for name, m in metrics.items()
        },
        index=list(instances),
    )


def peak_facts(grid, p_ivdm, p_wvdm, *, published: float, window=(5.4, 6.2), tolerance: float = 0.15, column=1):
    """Where WVDM's probability of one class peaks inside ``window``, whether that is within ``tolerance`` of the
    published peak, and whether IVDM's curve varies less there (Figure 11's claim).

    Parameters
    ----------
    grid : ndarray
        The attribute values the probabilities are evaluated at.
    p_ivdm, p_wvdm : ndarray (len(grid), classes)
        IVDM's and WVDM's class probabilities on ``grid``.
    published : float
        The paper's peak.
    window : (float, float)
        The range searched for the peak.
    tolerance : float
        How far from ``published`` the peak may lie.
    column : int
        The class (column of the probabilities).

    Returns
    -------
    dict
        ``peak``, ``published``, ``tolerance``, ``near`` (within the tolerance) and ``ivdm flatter`` (IVDM's
        range of probabilities in the window is smaller than WVDM's).

    Examples
    --------
    >>> grid = np.array([5.4, 5.8, 6.2])
    >>> flat, peaked = np.full((3, 2), 0.5), np.array([[0.5, 0.4], [0.2, 0.8], [0.5, 0.4]])
    >>> f = peak_facts(grid, flat, peaked, published=5.75)
    >>> f["peak"], f["near"], f["ivdm flatter"]
    (5.8, True, True)
    """
    grid = np.asarray(grid)
    inside = (grid >= window[0]) & (grid <= window[1])
    peak = float(grid[inside][np.argmax(p_wvdm[inside, column])])
    return {
        "peak": peak,
        "published": published,
        "tolerance": tolerance,
        "near": bool(abs(peak - published) <= tolerance),
        "ivdm flatter": bool(np.ptp(p_ivdm[inside, column]) < np.ptp(p_wvdm[inside, column])),
    }


# --- Section 6.2's costs (chapter 05) --------------------------------------------------------------------------


def slope_conditions(slopes: pd.DataFrame, data, columns=("fit slope", "query slope")) -> dict:
    """The conditions of the complexity claim: one per data set, its log-log slopes of ``columns``.

    Parameters
    ----------
    slopes : DataFrame
        Indexed by (data set, function), one column per timed step (log-log slope of time against n).
    data : sequence of str
        The data sets, in order.
    columns : sequence of str
        The slopes the claim reads.

    Returns
    -------
    dict
        ``(data set,)`` -> ``{"slopes": that data set's slopes of columns, "table": slopes}`` (the whole table
        is the evidence).

    Examples
    --------
    >>> s = pd.DataFrame({"fit slope": [1.0, 0.9], "query slope": [0.8, 1.1]},
    ...                  index=pd.MultiIndex.from_tuples([("a", "HVDM"), ("b", "HVDM")]))
    >>> {k: float(f["slopes"].to_numpy().max()) for k, f in slope_conditions(s, ["a", "b"]).items()}
    {('a',): 1.0, ('b',): 1.1}
    """
    return {(d,): {"slopes": slopes.loc[d, list(columns)], "table": slopes} for d in data}


def storage_ratio(storage: pd.DataFrame) -> pd.Series:
    """WVDM's total storage over the largest of the other functions', per row of ``storage`` (bytes, one column
    per function, rows (data set, n)).

    Examples
    --------
    >>> s = pd.DataFrame({"HVDM": [10.0, 20.0], "WVDM": [30.0, 30.0]})
    >>> storage_ratio(s).tolist()
    [3.0, 1.5]
    """
    return storage["WVDM"] / storage.drop(columns="WVDM").max(axis=1)


def storage_conditions(storage: pd.DataFrame, data) -> dict:
    """The conditions of the storage claim: one per data set, WVDM's :func:`storage_ratio` at its largest n.

    Parameters
    ----------
    storage : DataFrame
        Total bytes, indexed by (data set, n) in ascending n, one column per function.
    data : sequence of str
        The data sets, in order.

    Returns
    -------
    dict
        ``(data set,)`` -> ``{"ratio": that data set's ratio, "ratios": every data set's}``.

    Examples
    --------
    >>> s = pd.DataFrame({"HVDM": [10.0, 10.0], "WVDM": [15.0, 40.0]},
    ...                  index=pd.MultiIndex.from_tuples([("a", 1), ("a", 2)]))
    >>> storage_conditions(s, ["a"])[("a",)]["ratio"]
    4.0
    """
    ratio = storage_ratio(storage)
    last = {d: float(ratio.loc[d].iloc[-1]) for d in data}
    return {(d,): {"ratio": last[d], "ratios": last} for d in data}


__all__ = [
    "PRIMARY_SEED",
    "RULES",
    "SIX",
    "VDM_BASED",
    "average_attribute_distance",
    "equivalence_numbers",
    "group_means",
    "head_to_head",
    "head_to_head_counts",
    "level_and_gain",
    "peak_facts",
    "slope_conditions",
    "storage_conditions",
    "storage_ratio",
    "subgroup_numbers",
    "summary8",
    "table1_facts",
    "table2_counts",
    "table2_facts",
    "table3",
    "table3_counts",
    "worked_distances",
]
