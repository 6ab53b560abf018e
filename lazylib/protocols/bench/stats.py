"""Part VI's statistics: the bench's results (:func:`lazylib.protocols.bench.protocol.run`) ranked with the field's
statistics (the five papers' headline claims judged on them are in :mod:`lazylib.protocols.bench.claims`).

Average ranks, the Friedman test, Nemenyi's post-hoc comparison and its critical difference diagram follow
Demsar (2006) (:mod:`scikit_posthocs`); the Bayesian signed-rank test with a region of practical equivalence follows
Benavoli et al. (2017) (:mod:`baycomp`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from lazylib._validation import Integer, Real, check, check_random_state
from lazylib.protocols.bench.methods import KINDS
from lazylib.report.paired import holm


def complete_block(table: pd.DataFrame, datasets=None) -> pd.DataFrame:
    """The accuracy table restricted to ``datasets`` (all by default) and to the methods that accept every one
    of them: the complete block that ranks and the Friedman test need."""
    sub = table if datasets is None else table.loc[list(datasets)]
    return sub.loc[:, sub.notna().all(axis=0)]


def average_ranks(table: pd.DataFrame) -> pd.Series:
    """Average rank of each method over the data sets (rows), 1 for the most accurate, ties sharing the mean
    rank (Demsar 2006, section 3.2.2), sorted best first."""
    if table.isna().any().any():
        raise ValueError("ranks need a complete block (see complete_block): the table has missing accuracies")
    return table.rank(axis=1, ascending=False, method="average").mean().sort_values().rename("average rank")


def friedman(table: pd.DataFrame) -> dict:
    """Friedman's test that all methods (columns) rank alike over the data sets (rows), with Iman and
    Davenport's F form that Demsar (2006) recommends.

    Returns
    -------
    dict with ``chi2`` and ``p`` (scipy's :func:`scipy.stats.friedmanchisquare`), ``F`` and ``p_F`` (Iman and
    Davenport), ``N`` data sets, ``k`` methods and ``note``: "" or, when every data set ties every method (the
    ranks are all equal, scipy's statistic 0/0), "no difference to test", with ``p = p_F = 1``.
    """
    _enough(table, "the Friedman test", methods=3)
    N, k = table.shape
    values = table.to_numpy(dtype=float)
    if (values == values[:, :1]).all():
        return {"chi2": 0.0, "p": 1.0, "F": 0.0, "p_F": 1.0, "N": N, "k": k, "note": "no difference to test"}
    chi2, p = stats.friedmanchisquare(*[table[c].to_numpy() for c in table.columns])
    F = (N - 1) * chi2 / (N * (k - 1) - chi2) if N * (k - 1) > chi2 else np.inf
    p_F = float(stats.f.sf(F, k - 1, (k - 1) * (N - 1))) if np.isfinite(F) else 0.0
    return {"chi2": float(chi2), "p": float(p), "F": float(F), "p_F": p_F, "N": N, "k": k, "note": ""}


def _enough(table: pd.DataFrame, what: str, *, methods: int) -> None:
    """Refuse a table of fewer than ``methods`` methods (columns), fewer than two data sets (rows) or a missing
    accuracy, naming ``what`` needs them."""
    N, k = table.shape
    if k < methods:
        raise ValueError(f"{what} needs at least {methods} methods (columns), got {k}: {list(table.columns)}")
    if N < 2:
        raise ValueError(f"{what} needs at least 2 data sets (rows), got {N}: {list(table.index)}")
    if table.isna().any().any():
        raise ValueError(f"{what} needs a complete block (see complete_block): the table has missing accuracies")


def nemenyi(table: pd.DataFrame) -> pd.DataFrame:
    """Nemenyi's post-hoc p-values for every pair of methods (columns) over the data sets (rows), from
    :func:`scikit_posthocs.posthoc_nemenyi_friedman`."""
    import scikit_posthocs as sp

    return sp.posthoc_nemenyi_friedman(table.to_numpy()).set_axis(table.columns, axis=0).set_axis(table.columns, axis=1)


def critical_difference(k: int, N: int, alpha: float = 0.05) -> float:
    """Nemenyi's critical difference of average ranks, :math:`q_\\alpha \\sqrt{k(k+1)/(6N)}` with
    :math:`q_\\alpha` the studentized range quantile divided by :math:`\\sqrt 2` (Demsar 2006, Eq. 5).

    >>> round(critical_difference(10, 30), 3)  # Demsar's Table 5a: q_0.05 = 3.164 for k = 10
    2.473

    ``k`` (methods) and ``N`` (data sets) must be whole numbers of at least 2, ``alpha`` in (0, 1).
    """
    k = check("k (methods)", k, Integer(low=2))
    N = check("N (data sets)", N, Integer(low=2))
    alpha = check("alpha", alpha, Real(low=0, high=1, open_low=True, open_high=True))
    q = stats.studentized_range.ppf(1 - alpha, k, np.inf) / np.sqrt(2)
    return float(q * np.sqrt(k * (k + 1) / (6 * N)))


def cd_diagram(table: pd.DataFrame, *, ax=None, alpha: float = 0.05):
    """The critical difference diagram of the methods (columns) over the data sets (rows): average ranks on an
    axis, methods joined by a bar when Nemenyi's test does not tell them apart
    (:func:`scikit_posthocs.critical_difference_diagram`)."""
    import matplotlib.pyplot as plt
    import scikit_posthocs as sp

    if ax is None:
        _, ax = plt.subplots(figsize=(9, 0.25 * table.shape[1] + 1.5))
    ranks = table.rank(axis=1, ascending=False, method="average").mean()
    sp.critical_difference_diagram(
        ranks,
        nemenyi(table),
        ax=ax,
        alpha=alpha,
        label_fmt_left="{label} ({rank:.1f})",
        label_fmt_right="({rank:.1f}) {label}",
    )
    return ax


def bayes_signed_rank(a, b, *, rope: float = 1.0, random_state=0, nsamples: int = 50000) -> dict:
    """Bayesian signed-rank test of two methods' accuracies over data sets (Benavoli et al. 2017), with a region
    of practical equivalence of ``rope`` accuracy points: the posterior of :class:`baycomp.SignedRankTest`.

    Parameters
    ----------
    a, b : array-like of float
        The two methods' accuracies, one per data set.
    rope : float
        The half-width of the region of practical equivalence, in the accuracies' units (> 0).
    random_state : int, Generator or None
        Seed or generator of the posterior's samples (one integer drawn from it seeds baycomp's sampler): an int
        seeds a fresh generator (the same draws at every call), a Generator is used as it is (its stream
        continues), None draws fresh entropy.
    nsamples : int
        Samples of the posterior.

    Returns
    -------
    dict with ``p_a`` (the posterior probability that ``a`` is practically better), ``p_rope`` (practically
    equivalent) and ``p_b`` (``b`` practically better).

    Notes
    -----
    baycomp's sampler draws the Dirichlet weights of every sample at once and then sums each sample's weighted
    pairs in a Python loop (seconds per pair of methods); the same draws (``numpy.random.RandomState(seed)``,
    the prior's pseudo-observation 0 with weight 0.5) are summed here in two matrix products, so the
    probabilities are baycomp's (``tests/papers/test_bench.py`` compares them) at a hundredth of the cost.
    """
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.shape != b.shape or a.ndim != 1 or len(a) < 2 or np.isnan(a).any() or np.isnan(b).any():
        raise ValueError("bayes_signed_rank needs two equal-length vectors of at least two finite accuracies")
    if not rope > 0:
        raise ValueError(f"rope must be positive, got {rope!r}")
    seed = int(check_random_state(random_state).integers(2**31 - 1))
    z = np.concatenate([[0.0], b - a])  # baycomp's y - x, after the prior's pseudo-observation
    sums = z[:, None] + z[None, :]
    below = (sums < -2 * rope) + 0.5 * (sums == -2 * rope)
    above = (sums > 2 * rope) + 0.5 * (sums == 2 * rope)
    w = np.random.RandomState(seed).dirichlet(np.r_[0.5, np.ones(len(a))], nsamples)
    samples = np.column_stack([((w @ below) * w).sum(1), np.zeros(nsamples), ((w @ above) * w).sum(1)])
    samples[:, 1] = 1 - samples[:, 0] - samples[:, 2]
    p_a, p_rope, p_b = np.bincount(samples.argmax(axis=1), minlength=3) / nsamples
    return {"p_a": float(p_a), "p_rope": float(p_rope), "p_b": float(p_b)}


#: The region of practical equivalence, in accuracy points: two accuracies closer than this are "about the same".
ROPE = 1.0
#: The baseline every method is compared with (:func:`against_baseline`): the normalised Euclidean 1-NN, the
#: default a practitioner reaches for first.
BASELINE = "1-NN Euclidean"
#: The regions of practical equivalence shown, in accuracy points (the findings are read under each).
ROPES = (0.5, 1.0, 2.0)


def ranking(table: pd.DataFrame, datasets=None, *, alpha: float = 0.05) -> dict:
    """Average ranks, Friedman's test and Nemenyi's comparison over the complete block of ``datasets``.

    Returns
    -------
    dict with ``block`` (the accuracy table ranked), ``ranks`` (best first), ``friedman`` (:func:`friedman`),
    ``nemenyi`` (p-values), ``cd`` (the critical difference), ``best``, ``group`` (the methods Nemenyi's test
    does not tell from the best at ``alpha``, the best included) and ``excluded`` (methods left out because
    they refuse one of the data sets).
    """
    block = complete_block(table, datasets)
    _enough(block, "ranking the methods (Friedman's test on the methods that accept every data set)", methods=3)
    ranks = average_ranks(block)
    p = nemenyi(block)
    best = ranks.index[0]
    return {
        "block": block,
        "ranks": ranks,
        "friedman": friedman(block),
        "nemenyi": p,
        "cd": critical_difference(block.shape[1], block.shape[0], alpha),
        "best": best,
        "group": [m for m in ranks.index if p.loc[best, m] > alpha],
        "excluded": [m for m in table.columns if m not in block.columns],
    }


def by_kind(table: pd.DataFrame, kinds: pd.Series, *, alpha: float = 0.05) -> pd.DataFrame:
    """The ranking of every data set together and of each kind of data set apart (:func:`ranking`): one row
    each, with the best method, its average rank, the runner-up, Friedman's p-value and the methods Nemenyi's
    test does not tell from the best."""
    rows = {}
    groups = {"all": list(table.index), **{k: [d for d in table.index if kinds[d] == k] for k in KINDS}}
    for kind, names in groups.items():
        if len(names) < 2:
            continue
        r = ranking(table, names, alpha=alpha)
        rows[kind] = {
            "data sets": len(names),
            "methods": r["block"].shape[1],
            "best": r["best"],
            "rank": r["ranks"].iloc[0],
            "runner-up": r["ranks"].index[1],
            "its rank": r["ranks"].iloc[1],
            "Friedman p": r["friedman"]["p"],
            "not significantly below the best": len(r["group"]),
        }
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("data sets of kind")


def _reading(p: dict, a: str, b: str, *, level: float = 0.95) -> str:
    """The Bayesian signed-rank posterior ``p`` of ``a`` against ``b`` read at ``level``."""
    if p["p_a"] >= level:
        return f"{a} practically better"
    if p["p_rope"] >= level:
        return "practically equivalent"
    if p["p_b"] >= level:
        return f"{b} practically better"
    return "undecided"


def leading_pairs(block: pd.DataFrame, *, top: int = 5, ropes=ROPES, random_state=0) -> pd.DataFrame:
    """The best-ranked method of ``block`` against each of the next ``top - 1``, under each region of practical
    equivalence of ``ropes``: mean difference and the Bayesian signed-rank posterior (:func:`bayes_signed_rank`),
    read as "better", "practically equivalent" or "undecided" at 0.95.

    Parameters
    ----------
    block : DataFrame
        Accuracies, data sets x methods (a complete block).
    top : int
        How many of the best-ranked methods take part.
    ropes : sequence of float
        Half-widths of the region of practical equivalence, each as for :func:`bayes_signed_rank`.
    random_state : int, Generator or None
        Seed or generator of every pair's posterior samples (an int seeds a fresh generator (the same draws at
        every call), a Generator is used as it is (its stream continues), None draws fresh entropy); the same
        int gives every pair the same seed.

    Returns
    -------
    DataFrame indexed by (``pair``, ``ROPE``): ``mean difference``, ``P(best better)``, ``P(equivalent)``,
    ``P(other better)`` and ``reading``.
    """
    ranks = average_ranks(block)
    best = ranks.index[0]
    rows = []
    for other in ranks.index[1:top]:
        for rope in ropes:
            p = bayes_signed_rank(block[best], block[other], rope=rope, random_state=random_state)
            rows.append(
                {
                    "pair": f"{best} vs {other}",
                    "ROPE": float(rope),
                    "mean difference": float((block[best] - block[other]).mean()),
                    "P(best better)": p["p_a"],
                    "P(equivalent)": p["p_rope"],
                    "P(other better)": p["p_b"],
                    "reading": _reading(p, best, other),
                }
            )
    return pd.DataFrame(rows).set_index(["pair", "ROPE"])


def median_interval(differences, *, level: float = 0.95, n_resamples: int = 9999, random_state=0) -> tuple:
    """The median of ``differences`` with a percentile bootstrap interval over them
    (:func:`scipy.stats.bootstrap`, the data sets resampled with replacement).

    Parameters
    ----------
    differences : array-like of float
        One accuracy difference per data set.
    level : float
        The interval's confidence level.
    n_resamples : int
        Bootstrap resamples.
    random_state : int, Generator or None
        Seed or generator of the resamples: an int seeds a fresh generator (the same draws at every call), a
        Generator is used as it is (its stream continues), None draws fresh entropy.

    Returns
    -------
    tuple of float
        ``(median, low, high)``.

    Notes
    -----
    The percentile interval rather than scipy's default BCa: a median of a few data sets has many tied
    resamples, on which the BCa's acceleration is undefined.
    """
    d = np.asarray(differences, dtype=float)
    if d.ndim != 1 or len(d) < 2 or np.isnan(d).any():
        raise ValueError("median_interval needs at least two finite differences")
    res = stats.bootstrap(
        (d,),
        np.median,
        confidence_level=level,
        n_resamples=n_resamples,
        method="percentile",
        vectorized=True,
        rng=check_random_state(random_state),
    )
    return float(np.median(d)), float(res.confidence_interval.low), float(res.confidence_interval.high)


def against_baseline(
    block: pd.DataFrame, baseline: str = BASELINE, *, alpha: float = 0.05, level: float = 0.95, random_state=0
) -> pd.DataFrame:
    """Every method of ``block`` against ``baseline``: the Wilcoxon signed-rank test over the data sets
    (:func:`scipy.stats.wilcoxon`, two-sided) with Holm's correction over the methods (:func:`holm`), and the
    median accuracy difference with a bootstrap interval (:func:`median_interval`), Demsar's (2006, section
    3.2.2) comparison of several classifiers with a control.

    Parameters
    ----------
    block : DataFrame
        Accuracies, data sets x methods (a complete block).
    baseline : str
        The control method, a column of ``block``.
    alpha : float
        The family-wise level of the Holm-corrected tests.
    level : float
        The confidence level of the intervals.
    random_state : int, Generator or None
        Seed or generator of the bootstrap resamples: an int seeds a fresh generator (the same draws at every
        call), a Generator is used as it is (its stream continues), None draws fresh entropy.

    Returns
    -------
    DataFrame indexed by method (best average rank first): ``wins``, ``ties``, ``losses`` (data sets where the
    method is more accurate than, as accurate as, less accurate than the baseline), ``median difference``
    (method minus baseline, points) and its interval ``low``, ``high``; ``R+``, ``R-`` (rank sums of the
    differences for and against the method, zero differences split between them), ``p`` (Wilcoxon, two-sided)
    and ``p (Holm)``; ``reading``: better or worse than the baseline at ``alpha``, or not separated.

    Notes
    -----
    Zero differences are ranked and split evenly between ``R+`` and ``R-`` (Demsar's reading; scipy's
    ``zero_method="zsplit"``); the p-value is scipy's (exact for few data sets, else the normal approximation).
    """
    if baseline not in block.columns:
        raise ValueError(f"the baseline {baseline!r} is not a method of the block: {list(block.columns)}")
    if block.isna().any().any():
        raise ValueError("against_baseline needs a complete block (see complete_block)")
    rng = check_random_state(random_state)
    rows = {}
    for method in average_ranks(block).index.drop(baseline):
        d = (block[method] - block[baseline]).to_numpy()
        ranks = stats.rankdata(np.abs(d))
        r_plus = ranks[d > 0].sum() + ranks[d == 0].sum() / 2
        r_minus = ranks[d < 0].sum() + ranks[d == 0].sum() / 2
        test = stats.wilcoxon(block[method], block[baseline], zero_method="zsplit")
        median, low, high = median_interval(d, level=level, random_state=rng)
        rows[method] = {
            "wins": int((d > 0).sum()),
            "ties": int((d == 0).sum()),
            "losses": int((d < 0).sum()),
            "median difference": median,
            "low": low,
            "high": high,
            "R+": float(r_plus),
            "R-": float(r_minus),
            "p": float(test.pvalue),
        }
    out = pd.DataFrame.from_dict(rows, orient="index").rename_axis("method")
    out["p (Holm)"] = holm(out["p"].to_numpy())
    out["reading"] = np.where(
        out["p (Holm)"] > alpha,
        "not separated",
        np.where(out["R+"] > out["R-"], f"better than {baseline}", f"worse than {baseline}"),
    )
    return out


def separated_pairs(ranked: dict, *, alpha: float = 0.05) -> pd.DataFrame:
    """The pairs of methods that Nemenyi's test separates at ``alpha`` in one ranking (:func:`ranking`): the
    better-ranked method, the other, the difference of their average ranks and the p-value, largest difference
    first."""
    ranks, p = ranked["ranks"], ranked["nemenyi"]
    rows = [
        {"better": a, "worse": b, "rank difference": float(ranks[b] - ranks[a]), "p": float(p.loc[a, b])}
        for i, a in enumerate(ranks.index)
        for b in ranks.index[i + 1 :]
        if p.loc[a, b] <= alpha
    ]
    columns = ["better", "worse", "rank difference", "p"]
    return pd.DataFrame(rows, columns=columns).sort_values("rank difference", ascending=False, ignore_index=True)


def value_for_time(
    results: pd.DataFrame, ranked: dict, *, alpha: float = 0.05, rope: float = ROPE, random_state=0
) -> pd.DataFrame:
    """Accuracy rank against processor time on the data sets of one ranking (:func:`ranking`): each method's
    average rank, its median processor seconds per fold (fit and predict), whether no other method is both
    faster and better ranked (``pareto``), whether Nemenyi's test tells it from the best (``below best``), and
    the Bayesian signed-rank posterior of the best-ranked method against it (:func:`bayes_signed_rank` at
    ``rope``): ``P(best practically better)`` and ``P(not practically worse)`` (the probability of the ROPE
    plus that of the method being practically better).

    Parameters
    ----------
    results : DataFrame
        A run's rows (:func:`lazylib.protocols.bench.protocol.run`), for the times.
    ranked : dict
        One ranking of its accuracies (:func:`ranking`).
    alpha : float
        Nemenyi's level.
    rope : float
        As for :func:`bayes_signed_rank`.
    random_state : int, Generator or None
        Seed or generator of every posterior's samples (an int seeds a fresh generator (the same draws at every
        call), a Generator is used as it is (its stream continues), None draws fresh entropy).

    Returns
    -------
    DataFrame indexed by method (best average rank first).
    """
    names = list(ranked["block"].index)
    ok = results[results["dataset"].isin(names) & results["refused"].eq("")]
    seconds = ok.groupby("method")["total_s"].median()
    out = pd.DataFrame({"average rank": ranked["ranks"], "seconds per fold": seconds.reindex(ranked["ranks"].index)})
    out["below best"] = [ranked["nemenyi"].loc[ranked["best"], m] <= alpha for m in out.index]
    faster = out["seconds per fold"].to_numpy()[:, None] > out["seconds per fold"].to_numpy()[None, :]
    better = out["average rank"].to_numpy()[:, None] > out["average rank"].to_numpy()[None, :]
    out["pareto"] = ~(faster & better).any(axis=1)
    block, best = ranked["block"], ranked["best"]
    posterior = {
        m: bayes_signed_rank(block[best], block[m], rope=rope, random_state=random_state)
        if m != best
        else {"p_a": 0.0, "p_rope": 1.0, "p_b": 0.0}  # the best against itself: every difference 0
        for m in out.index
    }
    out["P(best practically better)"] = [posterior[m]["p_a"] for m in out.index]
    out["P(not practically worse)"] = [posterior[m]["p_rope"] + posterior[m]["p_b"] for m in out.index]
    return out


def best_value(value: pd.DataFrame, *, level: float = 0.95) -> str:
    """The fastest method that the Bayesian signed-rank test finds, with probability at least ``level``, not
    practically worse than the best-ranked one (:func:`value_for_time`): the best itself when no faster method
    is. The decision rests on the posterior it cites, never on a test failing to separate two methods."""
    return str(value[value["P(not practically worse)"] >= level]["seconds per fold"].idxmin())
