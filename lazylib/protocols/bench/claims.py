"""Part VI's claims: the five papers' headline claims as tests on the bench's accuracy tables (:data:`CLAIMS`), the
conditions they are judged under (every fold seed pooled, and each seed alone) and the judging of the papers' claims
and of the bench's own findings (:func:`judge_claims`, :func:`judge_best`, :func:`judge_best_value`,
:func:`judge_equivalent`), on the statistics of :mod:`lazylib.protocols.bench.stats`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from lazylib.protocols.bench.methods import KINDS, kinds_of
from lazylib.protocols.bench.protocol import accuracy_table
from lazylib.protocols.bench.stats import ROPE, bayes_signed_rank, best_value, ranking, value_for_time


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
#: :data:`~lazylib.protocols.bench.stats.ROPE`.
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


#: The factor of :func:`conditions` and the label of its primary condition, every fold seed pooled (the pooled
#: result is not a seed: a stability counts it as one condition beside each seed).
FACTOR = "fold seed"


POOLED = ("pooled",)


def conditions(results: pd.DataFrame) -> dict:
    """The accuracy tables a finding is judged on: every fold of every seed pooled (the primary condition,
    labelled :data:`POOLED`) and each fold seed alone, as ``{label: table}`` pairs for
    :func:`lazylib.report.verdicts.judge` (labels are tuples of the one factor :data:`FACTOR`)."""
    out = {POOLED: accuracy_table(results)}
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
        if not set(c.methods) <= set(tables[POOLED].columns):
            continue

        def agree(t, c=c):
            t = t.loc[[d for d in t.index if kinds[d] in c.kinds and t.loc[d, list(c.methods)].notna().all()]]
            return pd.Series(np.asarray(c.test(t), dtype=bool), index=t.index)

        judgement = judge(
            lambda t, agree=agree: share_rule(agree(t), **CLAIM_SHARES, what="data sets"),
            {key: t for key, t in tables.items()},
            primary=POOLED,
            factors=(FACTOR,),
        )
        pooled = agree(tables[POOLED])
        rows[c.part, c.claim] = {
            "data sets": len(pooled),
            "holds on": int(pooled.sum()),
            "verdict": judgement.verdict,
            "stability": judgement.stability,
            "judgement": judgement,
        }
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis(["Part", "claim"])


def _ran(table: pd.DataFrame, datasets) -> list:
    """The data sets of ``datasets`` (all by default) that ``table`` holds: a fold seed alone lacks the data sets
    run under fewer seeds (the stated protocol of the largest, :class:`~lazylib.protocols.bench.protocol.Config`)."""
    return list(table.index) if datasets is None else [d for d in datasets if d in table.index]


def judge_best(results: pd.DataFrame, method: str, datasets=None, *, alpha: float = 0.05):
    """The finding "``method`` ranks best on ``datasets``" judged on every fold seed pooled and on each alone (over
    the data sets it ran): supported where it has the best average rank, partly supported where Nemenyi's test does
    not tell it from the best (:func:`lazylib.report.verdicts.tiers`)."""
    from lazylib.report.verdicts import judge, tiers

    def rule(t):
        r = ranking(t, _ran(t, datasets), alpha=alpha)
        return tiers(
            supported=bool(r["best"] == method),
            partly=bool(method in r["group"]),
            note=f"best: {r['best']}; {method} ranks {r['ranks'][method]:.2f}",
        )

    return judge(rule, conditions(results), primary=POOLED, factors=(FACTOR,))


def judge_best_value(results: pd.DataFrame, method: str, *, alpha: float = 0.05, rope: float = ROPE, random_state=0):
    """The finding "``method`` is the best value for its time" (:func:`~lazylib.protocols.bench.stats.best_value` over
    every data set the whole block accepts) judged on every fold seed pooled and on each alone: supported where it is
    the fastest
    method that the Bayesian signed-rank test finds not practically worse than the best with probability 0.95,
    partly supported where the test does not find it practically worse (P(best practically better) < 0.95).

    Parameters
    ----------
    results : DataFrame
        A run's rows (:func:`lazylib.protocols.bench.protocol.run`).
    method : str
        The method.
    alpha : float
        Nemenyi's level (the ranking's table).
    rope : float
        As for :func:`~lazylib.protocols.bench.stats.bayes_signed_rank`.
    random_state : int, Generator or None
        Seed or generator of the posterior samples under each condition: an int seeds a fresh generator (the same
        draws at every call), a Generator is used as it is (its stream continues), None draws fresh entropy.
    """
    from lazylib.report.verdicts import judge, tiers

    def rule(t):
        r = ranking(t, alpha=alpha)
        value = value_for_time(results, r, alpha=alpha, rope=rope, random_state=random_state)
        worse = value.loc[method, "P(best practically better)"]
        return tiers(
            supported=best_value(value) == method,
            partly=bool(worse < 0.95),
            note=f"best value: {best_value(value)}; P({r['best']} practically better than {method}) = {worse:.3f}",
        )

    return judge(rule, conditions(results), primary=POOLED, factors=(FACTOR,))


def judge_equivalent(results: pd.DataFrame, a: str, b: str, datasets=None, *, rope: float = ROPE, random_state=0):
    """The finding "``a`` and ``b`` are practically equivalent" judged by the Bayesian signed-rank posterior
    probability of the ROPE (:func:`~lazylib.protocols.bench.stats.bayes_signed_rank`): supported from 0.95, partly
    supported from 0.5 (:func:`lazylib.report.verdicts.threshold_rule`), on every fold seed pooled and on each alone.

    Parameters
    ----------
    results : DataFrame
        A run's rows (:func:`lazylib.protocols.bench.protocol.run`).
    a, b : str
        The two methods.
    datasets : list of str, optional
        The data sets judged (default: all of the run's).
    rope : float
        As for :func:`~lazylib.protocols.bench.stats.bayes_signed_rank`.
    random_state : int, Generator or None
        Seed or generator of the posterior samples under each condition: an int seeds a fresh generator (the same
        draws at every call), a Generator is used as it is (its stream continues), None draws fresh entropy.
    """
    from lazylib.report.verdicts import judge, threshold_rule

    def rule(t):
        t = t.loc[_ran(t, datasets)]
        p = bayes_signed_rank(t[a], t[b], rope=rope, random_state=random_state)
        return threshold_rule(p["p_rope"], supported=0.95, partly=0.5, what="P(equivalent)")

    return judge(rule, conditions(results), primary=POOLED, factors=(FACTOR,))
