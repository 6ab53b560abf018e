"""Part VI's statistics: the bench's results (:func:`lazylib.protocols.bench.run`) ranked with the field's
statistics, and the five papers' headline claims judged on them.

Average ranks, the Friedman test, Nemenyi's post-hoc comparison and its critical difference diagram follow
Demsar (2006) (:mod:`scikit_posthocs`); the Bayesian signed-rank test with a region of practical equivalence follows
Benavoli et al. (2017) (:mod:`baycomp`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import stats

from lazylib._validation import check_random_state
from lazylib.protocols.bench import KINDS, accuracy_table, kinds_of


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
    Davenport), ``N`` data sets and ``k`` methods.
    """
    N, k = table.shape
    if k < 3 or N < 2:
        raise ValueError(f"the Friedman test needs at least 3 methods and 2 data sets, got {k} and {N}")
    chi2, p = stats.friedmanchisquare(*[table[c].to_numpy() for c in table.columns])
    F = (N - 1) * chi2 / (N * (k - 1) - chi2) if N * (k - 1) > chi2 else np.inf
    p_F = float(stats.f.sf(F, k - 1, (k - 1) * (N - 1))) if np.isfinite(F) else 0.0
    return {"chi2": float(chi2), "p": float(p), "F": float(F), "p_F": p_F, "N": N, "k": k}


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
    """
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
    of practical equivalence of ``rope`` accuracy points, from :class:`baycomp.SignedRankTest`.

    Parameters
    ----------
    a, b : array-like of float
        The two methods' accuracies, one per data set.
    rope : float
        The half-width of the region of practical equivalence, in the accuracies' units.
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
    """
    import baycomp

    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.shape != b.shape or a.ndim != 1 or len(a) < 2 or np.isnan(a).any() or np.isnan(b).any():
        raise ValueError("bayes_signed_rank needs two equal-length vectors of at least two finite accuracies")
    seed = int(check_random_state(random_state).integers(2**31 - 1))
    p_a, p_rope, p_b = baycomp.SignedRankTest.probs(a, b, rope=rope, nsamples=nsamples, random_state=seed)
    return {"p_a": float(p_a), "p_rope": float(p_rope), "p_b": float(p_b)}


#: The region of practical equivalence, in accuracy points: two accuracies closer than this are "about the same".
ROPE = 1.0


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


def leading_pairs(block: pd.DataFrame, *, top: int = 5, rope: float = ROPE, random_state=0) -> pd.DataFrame:
    """The best-ranked method of ``block`` against each of the next ``top - 1``: mean difference and the
    Bayesian signed-rank posterior (:func:`bayes_signed_rank`), read as "better", "practically equivalent" or
    "undecided" at 0.95.

    Parameters
    ----------
    block : DataFrame
        Accuracies, data sets x methods (a complete block).
    top : int
        How many of the best-ranked methods take part.
    rope : float
        As for :func:`bayes_signed_rank`.
    random_state : int, Generator or None
        Seed or generator of every pair's posterior samples (an int seeds a fresh generator (the same draws at
        every call), a Generator is used as it is (its stream continues), None draws fresh entropy); the same
        int gives every pair the same seed.
    """
    ranks = average_ranks(block)
    best = ranks.index[0]
    rows = []
    for other in ranks.index[1:top]:
        p = bayes_signed_rank(block[best], block[other], rope=rope, random_state=random_state)
        reading = (
            f"{best} practically better"
            if p["p_a"] >= 0.95
            else "practically equivalent"
            if p["p_rope"] >= 0.95
            else f"{other} practically better"
            if p["p_b"] >= 0.95
            else "undecided"
        )
        rows.append(
            {
                "pair": f"{best} vs {other}",
                "mean difference": float((block[best] - block[other]).mean()),
                f"P({best} better)": p["p_a"],
                "P(equivalent)": p["p_rope"],
                "P(other better)": p["p_b"],
                "reading": reading,
            }
        )
    return pd.DataFrame(rows).set_index("pair")


def value_for_time(results: pd.DataFrame, ranked: dict, *, alpha: float = 0.05) -> pd.DataFrame:
    """Accuracy rank against processor time on the data sets of one ranking (:func:`ranking`): each method's
    average rank, its median processor seconds per fold (fit and predict), whether no other method is both
    faster and better ranked (``pareto``), and whether Nemenyi's test tells it from the best (``below best``).
    The best value is the fastest method not significantly below the best."""
    names = list(ranked["block"].index)
    ok = results[results["dataset"].isin(names) & results["refused"].eq("")]
    seconds = ok.groupby("method")["total_s"].median()
    out = pd.DataFrame({"average rank": ranked["ranks"], "seconds per fold": seconds.reindex(ranked["ranks"].index)})
    out["below best"] = [ranked["nemenyi"].loc[ranked["best"], m] <= alpha for m in out.index]
    faster = out["seconds per fold"].to_numpy()[:, None] > out["seconds per fold"].to_numpy()[None, :]
    better = out["average rank"].to_numpy()[:, None] > out["average rank"].to_numpy()[None, :]
    out["pareto"] = ~(faster & better).any(axis=1)
    return out


def best_value(value: pd.DataFrame) -> str:
    """The fastest method that Nemenyi's test does not tell from the best (:func:`value_for_time`)."""
    return str(value[~value["below best"]]["seconds per fold"].idxmin())


def _beats(t, a, *others):
    return np.logical_and.reduce([t[a] > t[o] for o in others])


def _alike(t, a, b, rope=ROPE):
    return (t[a] - t[b]).abs() <= rope


@dataclass(frozen=True)
class Claim:
    """One paper's headline claim as a test on one seed's accuracy table (data sets x methods): ``test`` gives
    one boolean per data set of ``kinds`` (those where every method of ``methods`` ran)."""

    part: str
    claim: str
    kinds: tuple
    methods: tuple
    test: object = field(repr=False)


#: Each paper's headline claims. "Beats" is a higher accuracy on the data set; "about the same" is within
#: :data:`ROPE`.
CLAIMS = (
    Claim(
        "I",
        "H1: VDM and MVDM perform alike (1-NN)",
        KINDS,
        ("1-NN VDM", "1-NN MVDM"),
        lambda t: _alike(t, "1-NN VDM", "1-NN MVDM"),
    ),
    Claim(
        "I",
        "H2: OMVW performs about as well as WOM (1-NN)",
        KINDS,
        ("1-NN OMVW", "1-NN WOM"),
        lambda t: _alike(t, "1-NN OMVW", "1-NN WOM"),
    ),
    Claim(
        "I",
        "H2: OMVW and WOM both beat OM (1-NN)",
        KINDS,
        ("1-NN OMVW", "1-NN WOM", "1-NN OM"),
        lambda t: _beats(t, "1-NN OMVW", "1-NN OM") & _beats(t, "1-NN WOM", "1-NN OM"),
    ),
    Claim(
        "II",
        "CA and CACP both raise NN's accuracy",
        ("continuous",),
        ("CA", "CACP", "NN"),
        lambda t: _beats(t, "CA", "NN") & _beats(t, "CACP", "NN"),
    ),
    Claim(
        "III",
        "VFI5 about as accurate as k-NN (HEOM, k by leave-one-out)",
        KINDS,
        ("VFI5", "k-NN HEOM"),
        lambda t: _alike(t, "VFI5", "k-NN HEOM"),
    ),
    Claim(
        "IV",
        "HVDM beats Euclidean and HEOM on data with nominal attributes (1-NN)",
        ("nominal", "mixed"),
        ("1-NN HVDM", "1-NN Euclidean", "1-NN HEOM"),
        lambda t: _beats(t, "1-NN HVDM", "1-NN Euclidean", "1-NN HEOM"),
    ),
    Claim(
        "IV",
        "IVDM beats DVDM on data with continuous attributes (1-NN)",
        ("continuous", "mixed"),
        ("1-NN IVDM", "1-NN DVDM"),
        lambda t: _beats(t, "1-NN IVDM", "1-NN DVDM"),
    ),
    Claim(
        "V",
        "MDW performs as well as IG (not below it by more than the ROPE)",
        KINDS,
        ("MDW", "IG"),
        lambda t: t["MDW"] >= t["IG"] - ROPE,
    ),
    Claim("V", "MDW outperforms unweighted k-NN (FD)", KINDS, ("MDW", "FD"), lambda t: _beats(t, "MDW", "FD")),
)


def claim_evidence(results: pd.DataFrame) -> dict:
    """For every claim of :data:`CLAIMS` whose methods the run includes and every fold seed, one boolean per
    data set it is judged on: ``{claim: {seed: Series indexed by data set}}``."""
    by_seed = accuracy_table(results, by_seed=True)
    kinds = kinds_of(results)
    out = {}
    for c in CLAIMS:
        if not set(c.methods) <= set(by_seed.columns):
            continue
        per_seed = {}
        for seed, table in by_seed.groupby(level="seed"):
            t = table.droplevel("seed")
            t = t.loc[[d for d in t.index if kinds[d] in c.kinds and t.loc[d, list(c.methods)].notna().all()]]
            per_seed[int(seed)] = pd.Series(np.asarray(c.test(t), dtype=bool), index=t.index)
        out[c] = per_seed
    return out


#: The shares of data sets on which a paper's claim must hold to be supported and partly supported on the
#: bench, fixed before any run: three in four, and a majority.
CLAIM_SHARES = {"supported": 0.75, "partly": 0.5}


def conditions(results: pd.DataFrame) -> dict:
    """The accuracy tables a finding is judged on: ``{"seed": "all"}`` (every fold of every seed, the primary
    condition) and one per fold seed alone, as ``{label: table}`` pairs for
    :func:`lazylib.report.verdicts.judge` (labels are tuples of the one factor ``seed``)."""
    out = {("all",): accuracy_table(results)}
    for seed, t in accuracy_table(results, by_seed=True).groupby(level="seed"):
        out[(int(seed),)] = t.droplevel("seed")
    return out


def judge_claims(results: pd.DataFrame) -> pd.DataFrame:
    """Every claim of :data:`CLAIMS` judged on the bench by :func:`lazylib.report.verdicts.share_rule` (the
    share of its data sets on which it holds, :data:`CLAIM_SHARES`), on every fold seed pooled (the verdict) and
    on each alone (its stability).

    Returns
    -------
    DataFrame indexed by (part, claim): ``data sets``, ``holds on`` (pooled), ``verdict``, ``stability``,
    ``judgement`` (the :class:`~lazylib.report.verdicts.Judgement`).
    """
    from lazylib.report.verdicts import judge, share_rule

    kinds = kinds_of(results)
    tables = conditions(results)
    rows = {}
    for c in CLAIMS:
        if not set(c.methods) <= set(tables["all",].columns):
            continue

        def agree(t, c=c):
            t = t.loc[[d for d in t.index if kinds[d] in c.kinds and t.loc[d, list(c.methods)].notna().all()]]
            return pd.Series(np.asarray(c.test(t), dtype=bool), index=t.index)

        judgement = judge(
            lambda t, agree=agree: share_rule(agree(t), **CLAIM_SHARES, what="data sets"),
            {key: t for key, t in tables.items()},
            primary=("all",),
            factors=("seed",),
        )
        pooled = agree(tables["all",])
        rows[c.part, c.claim] = {
            "data sets": len(pooled),
            "holds on": int(pooled.sum()),
            "verdict": judgement.verdict,
            "stability": judgement.stability,
            "judgement": judgement,
        }
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis(["Part", "claim"])


def judge_best(results: pd.DataFrame, method: str, datasets=None, *, alpha: float = 0.05):
    """The finding "``method`` ranks best on ``datasets``" judged on every fold seed pooled and on each alone:
    supported where it has the best average rank, partly supported where Nemenyi's test does not tell it from
    the best (:func:`lazylib.report.verdicts.tiers`)."""
    from lazylib.report.verdicts import judge, tiers

    def rule(t):
        r = ranking(t, datasets, alpha=alpha)
        return tiers(
            supported=bool(r["best"] == method),
            partly=bool(method in r["group"]),
            note=f"best: {r['best']}; {method} ranks {r['ranks'][method]:.2f}",
        )

    return judge(rule, conditions(results), primary=("all",), factors=("seed",))


def judge_best_value(results: pd.DataFrame, method: str, *, alpha: float = 0.05):
    """The finding "``method`` is the best value for its time" (:func:`best_value` over every data set the
    whole block accepts) judged on every fold seed pooled and on each alone: supported where it is the fastest
    method not significantly below the best, partly supported where it is at least not significantly below the
    best."""
    from lazylib.report.verdicts import judge, tiers

    def rule(t):
        r = ranking(t, alpha=alpha)
        value = value_for_time(results, r, alpha=alpha)
        return tiers(supported=best_value(value) == method, partly=bool(method in r["group"]))

    return judge(rule, conditions(results), primary=("all",), factors=("seed",))


def judge_equivalent(results: pd.DataFrame, a: str, b: str, datasets=None, *, rope: float = ROPE, random_state=0):
    """The finding "``a`` and ``b`` are practically equivalent" judged by the Bayesian signed-rank posterior
    probability of the ROPE (:func:`bayes_signed_rank`): supported from 0.95, partly supported from 0.5
    (:func:`lazylib.report.verdicts.threshold_rule`), on every fold seed pooled and on each alone.

    Parameters
    ----------
    results : DataFrame
        A run's rows (:func:`lazylib.protocols.bench.run`).
    a, b : str
        The two methods.
    datasets : list of str, optional
        The data sets judged (default: all of the run's).
    rope : float
        As for :func:`bayes_signed_rank`.
    random_state : int, Generator or None
        Seed or generator of the posterior samples under each condition: an int seeds a fresh generator (the same
        draws at every call), a Generator is used as it is (its stream continues), None draws fresh entropy.
    """
    from lazylib.report.verdicts import judge, threshold_rule

    def rule(t):
        t = t if datasets is None else t.loc[list(datasets)]
        p = bayes_signed_rank(t[a], t[b], rope=rope, random_state=random_state)
        return threshold_rule(p["p_rope"], supported=0.95, partly=0.5, what="P(equivalent)")

    return judge(rule, conditions(results), primary=("all",), factors=("seed",))
