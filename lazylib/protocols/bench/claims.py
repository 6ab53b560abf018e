"""Part VI's claims: the five papers' headline claims as paired tests on the bench's accuracy tables
(:data:`CLAIMS`: the sign test for "beats", equivalence by two one-sided tests for "alike", Holm's correction over
the page, :func:`claim_verdicts`), the conditions they are judged under (every fold seed pooled, and each seed
alone) and the judging of the papers' claims and of the bench's own findings (:func:`judge_claims`,
:func:`judge_best`, :func:`judge_best_value`, :func:`judge_equivalent`), on the statistics of
:mod:`lazylib.protocols.bench.stats`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from lazylib.protocols.bench.methods import KINDS, kinds_of
from lazylib.protocols.bench.protocol import accuracy_table
from lazylib.protocols.bench.stats import ROPE, bayes_signed_rank, best_value, ranking, value_for_time
from lazylib.report.paired import TestedVerdict, beats, conjunction, equivalent, finding, holm_verdicts
from lazylib.report.verdicts import judge, threshold_rule, tiers

#: The level of every test of a claim on this page, family-wise over the page's tests (Holm's correction).
ALPHA = 0.05
#: Two mean accuracies closer than this (points) are a tie: equal up to the rounding of floating point.
TIE = 1e-9
#: The relations a part of a claim can state: "beats" (a paired two-sided sign test on the data sets where the
#: two differ, :func:`lazylib.report.paired.beats`), "alike" (equivalence within :data:`ROPE` by two one-sided
#: t-tests, :func:`lazylib.report.paired.equivalent`) and "not worse" (non-inferiority: not below by more than
#: :data:`ROPE`, the lower of those tests).
RELATIONS = ("beats", "alike", "not worse")


@dataclass(frozen=True)
class Claim:
    """One paper's headline claim as tests on an accuracy table (data sets x methods): ``parts`` are ``(relation,
    a, b)`` triples (:data:`RELATIONS`), each judged by a paired test on the data sets of ``kinds`` where every
    method of ``methods`` ran; a claim of several parts is a conjunction, judged and shown part by part."""

    part: str
    claim: str
    kinds: tuple
    methods: tuple
    parts: tuple = field(repr=False)

    def __post_init__(self):
        bad = [p for p in self.parts if p[0] not in RELATIONS or not {p[1], p[2]} <= set(self.methods)]
        if not self.parts or bad:
            raise ValueError(f"claim {self.claim!r}: each part is (relation in {RELATIONS}, a, b) of its methods")

    def datasets(self, table: pd.DataFrame, kinds: pd.Series) -> list:
        """The data sets of ``table`` of this claim's kinds on which every one of its methods ran."""
        return [d for d in table.index if kinds[d] in self.kinds and table.loc[d, list(self.methods)].notna().all()]

    def test(self, table: pd.DataFrame, kinds: pd.Series) -> TestedVerdict:
        """The claim's unadjusted verdict on ``table``: one paired test per part, a conjunction for several."""
        t = table.loc[self.datasets(table, kinds)]
        verdicts = {}
        for relation, a, b in self.parts:
            if relation == "beats":
                verdict = beats(t[a], t[b], names=(a, b), tolerance=TIE, alpha=ALPHA)
            else:
                sides = "both" if relation == "alike" else "lower"
                verdict = equivalent(t[a], t[b], names=(a, b), rope=ROPE, alpha=ALPHA, sides=sides)
            verdicts[f"{a} {relation} {b}"] = verdict
        return next(iter(verdicts.values())) if len(verdicts) == 1 else conjunction(verdicts)


#: Each paper's headline claims. "Beats" is a paired sign test over the data sets (ties set aside); "about the
#: same" an equivalence test within :data:`~lazylib.protocols.bench.stats.ROPE`; both at :data:`ALPHA`.
CLAIMS = (
    Claim(
        "I",
        "H1: VDM and MVDM perform alike (1-NN)",
        KINDS,
        ("1-NN VDM", "1-NN MVDM"),
        (("alike", "1-NN VDM", "1-NN MVDM"),),
    ),
    Claim(
        "I",
        "H2: OMVW performs about as well as WOM (1-NN)",
        KINDS,
        ("1-NN OMVW", "1-NN WOM"),
        (("alike", "1-NN OMVW", "1-NN WOM"),),
    ),
    Claim(
        "I",
        "H2: OMVW and WOM both beat OM (1-NN)",
        KINDS,
        ("1-NN OMVW", "1-NN WOM", "1-NN OM"),
        (("beats", "1-NN OMVW", "1-NN OM"), ("beats", "1-NN WOM", "1-NN OM")),
    ),
    Claim(
        "II",
        "CA and CACP both raise NN's accuracy",
        ("continuous",),
        ("CA", "CACP", "NN"),
        (("beats", "CA", "NN"), ("beats", "CACP", "NN")),
    ),
    Claim(
        "III",
        "VFI5 about as accurate as k-NN (HEOM, k by leave-one-out)",
        KINDS,
        ("VFI5", "k-NN HEOM"),
        (("alike", "VFI5", "k-NN HEOM"),),
    ),
    Claim(
        "IV",
        "HVDM beats Euclidean and HEOM on data with nominal attributes (1-NN)",
        ("nominal", "mixed"),
        ("1-NN HVDM", "1-NN Euclidean", "1-NN HEOM"),
        (("beats", "1-NN HVDM", "1-NN Euclidean"), ("beats", "1-NN HVDM", "1-NN HEOM")),
    ),
    Claim(
        "IV",
        "IVDM beats DVDM on data with continuous attributes (1-NN)",
        ("continuous", "mixed"),
        ("1-NN IVDM", "1-NN DVDM"),
        (("beats", "1-NN IVDM", "1-NN DVDM"),),
    ),
    Claim(
        "V",
        "MDW performs as well as IG (not below it by more than the ROPE)",
        KINDS,
        ("MDW", "IG"),
        (("not worse", "MDW", "IG"),),
    ),
    Claim("V", "MDW outperforms unweighted k-NN (FD)", KINDS, ("MDW", "FD"), (("beats", "MDW", "FD"),)),
)


def claim_verdicts(table: pd.DataFrame, kinds: pd.Series) -> dict:
    """Every claim of :data:`CLAIMS` whose methods ``table`` holds, judged on it and Holm-adjusted over the page's
    tests together (every part of a conjunction is one test): ``{claim: (unadjusted, adjusted)}``."""
    raw = {c: c.test(table, kinds) for c in CLAIMS if set(c.methods) <= set(table.columns)}
    adjusted = holm_verdicts(raw, alpha=ALPHA)
    return {c: (raw[c], adjusted[c]) for c in raw}


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


def _evidence(verdict) -> str:
    """A claim's tests in a few words: wins / losses / ties of a "beats" part, the mean difference of the others."""
    parts = verdict.parts or {"": verdict}
    out = []
    for v in parts.values():
        t = v.test
        if t is None:
            out.append(str(v))
        elif hasattr(t, "wins"):
            out.append(f"{t.wins} / {t.losses} / {t.ties}, p = {t.p:.2g}")
        else:
            out.append(f"mean {t.mean:+.2f} over {t.n}, p = {t.p:.2g}")
    return "; ".join(out)


def judge_claims(results: pd.DataFrame) -> pd.DataFrame:
    """Every claim of :data:`CLAIMS` judged on the bench by paired tests (:meth:`Claim.test`) at :data:`ALPHA`,
    Holm-adjusted over the page's tests (:func:`claim_verdicts`), on every fold seed pooled (the verdict) and on
    each alone (its stability).

    The data sets are treated as independent items, which they are not (several share a domain): the p-values
    say how surprising the wins and losses would be if the methods were exchangeable on these data sets
    (:mod:`lazylib.report.paired`).

    Returns
    -------
    DataFrame indexed by (part, claim): ``data sets``, ``wins / losses / ties`` (of each "beats" part; the mean
    difference of the others) with the unadjusted p, ``unadjusted`` (the verdict before Holm's correction),
    ``verdict``, ``reading`` (which side a failure falls on, part by part), ``stability``, ``judgement`` (the
    :class:`~lazylib.report.verdicts.Judgement`).
    """
    kinds = kinds_of(results)
    tables = conditions(results)
    judged = {key: claim_verdicts(t, kinds) for key, t in tables.items()}
    rows = {}
    for c, (raw, adjusted) in judged[POOLED].items():
        judgement = judge(
            lambda verdict: verdict,
            {key: verdicts[c][1] for key, verdicts in judged.items() if c in verdicts},
            primary=POOLED,
            factors=(FACTOR,),
        )
        rows[c.part, c.claim] = {
            "data sets": len(c.datasets(tables[POOLED], kinds)),
            "wins / losses / ties": _evidence(raw),
            "unadjusted": str(raw),
            "verdict": judgement.verdict,
            "reading": adjusted.reading,
            "stability": judgement.stability,
            "judgement": judgement,
        }
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis(["Part", "claim"])


def _ran(table: pd.DataFrame, datasets) -> list:
    """The data sets of ``datasets`` (all by default) that ``table`` holds: a fold seed alone lacks the data sets
    run under fewer seeds (the stated protocol of the largest, :class:`~lazylib.protocols.bench.protocol.Config`)."""
    return list(table.index) if datasets is None else [d for d in datasets if d in table.index]


def judge_best(results: pd.DataFrame, method: str, datasets=None, *, alpha: float = 0.05):
    """The finding "``method`` ranks best on ``datasets``" on every fold seed pooled and on each alone (over the data
    sets it ran): labelled ``"finding"`` where it has the best average rank (a description, not a test:
    :func:`lazylib.report.paired.finding`), ``"not supported"`` where another method ranks best; the note says how
    many other methods Nemenyi's test (the critical difference) cannot tell from it, and which methods the ranking
    leaves out (those refusing one of the data sets)."""

    def rule(t):
        r = ranking(t, _ran(t, datasets), alpha=alpha)
        left_out = f"; {len(r['excluded'])} methods left out (they refuse a data set)" if r["excluded"] else ""
        return finding(
            f"best: {r['best']}; {method} ranks {r['ranks'][method]:.2f} of {len(r['ranks'])} methods{left_out}",
            holds=bool(r["best"] == method),
            inseparable=len(r["group"]) - 1 if method == r["best"] else None,
            statistic=f"Nemenyi's test at {alpha:g} (critical difference {r['cd']:.2f})",
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

    def rule(t):
        t = t.loc[_ran(t, datasets)]
        p = bayes_signed_rank(t[a], t[b], rope=rope, random_state=random_state)
        return threshold_rule(p["p_rope"], supported=0.95, partly=0.5, what="P(equivalent)")

    return judge(rule, conditions(results), primary=POOLED, factors=(FACTOR,))
