"""lazylib.protocols.howe_cardie_claims: the claims of Part V's chapters 01 and 04 as data.

Each claim's rule, note and evidence are checked against the rules the chapters defined before the claims moved
to the library (kept here verbatim as the reference), on facts that reach every verdict; the facts functions are
checked against the chapters' former computations.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from lazylib.protocols import howe_cardie_claims as PC
from lazylib.report.verdicts import Claim, judge, share_rule, tiers


def assert_same(claim: Claim, old_rule, facts: list, old_evidence, kind: str):
    """The claim gives the old rule's verdict and note on every facts, the chapter's evidence, and its kind."""
    assert isinstance(claim, Claim) and claim.kind == kind
    verdicts = set()
    for new_facts, old_facts in facts:
        new, old = claim.rule(new_facts), old_rule(old_facts)
        assert str(new) == str(old) and new.note == old.note
        if old_evidence is not None:
            assert claim.evidence(new_facts) == old_evidence(old_facts)
        verdicts.add(str(old))
    return verdicts


# --- chapter 01 -----------------------------------------------------------------------------------------------


def old_complexity_rule(m):
    return tiers(
        supported=bool(m[0] < 1e-10 and m[1] < 1.6 and m[2] > 1.8),
        partly=bool(m[0] < 1e-10),
        note=f"agreement {m[0]:.0e}, slopes {m[1]:.2f} (fast) and {m[2]:.2f} (naive)",
    )


def old_timing(timing):
    """The chapter's former computation, verbatim."""
    big = timing.loc[[1000, 256000]]
    fast_slope = float(np.log(big["numeric, fast"].iloc[1] / big["numeric, fast"].iloc[0]) / np.log(256))
    small = timing.loc[[1000, 4000]]
    naive_slope = float(np.log(small["numeric, naive"].iloc[1] / small["numeric, naive"].iloc[0]) / np.log(4))
    speedup = float(timing.loc[4000, "numeric, naive"] / timing.loc[4000, "numeric, fast"])
    max_err = float(timing["max relative error"].max())
    return max_err, fast_slope, naive_slope, speedup


def timing_table(fast_exponent, naive_exponent, err, seed=0):
    rng = np.random.default_rng(seed)
    n = np.array([250, 500, 1000, 2000, 4000, 16000, 64000, 256000])
    fast = 1e-6 * n**fast_exponent * rng.uniform(0.9, 1.1, len(n))
    naive = np.where(n <= 4000, 1e-8 * n**naive_exponent * rng.uniform(0.9, 1.1, len(n)), np.nan)
    errors = np.where(n <= 4000, err, np.nan)
    return pd.DataFrame(
        {"numeric, fast": fast, "numeric, naive": naive, "max relative error": errors}, index=pd.Index(n, name="n")
    )


def test_timing_facts_match_the_chapters_computation_and_the_complexity_claim_its_rule():
    tables = [timing_table(1.1, 2.0, 4e-16), timing_table(1.1, 1.5, 4e-16, 1), timing_table(1.1, 2.0, 1e-6, 2)]
    pairs = []
    for t in tables:
        f = PC.timing_facts(t, fast=(1000, 256000), naive=(1000, 4000))
        max_err, fast_slope, naive_slope, speedup = old_timing(t)
        assert (f["max_err"], f["fast_slope"], f["naive_slope"], f["speedup"]) == (
            max_err,
            fast_slope,
            naive_slope,
            speedup,
        )
        pairs.append((f, (max_err, fast_slope, naive_slope)))
    claim = PC.METHOD_CLAIMS[0]
    verdicts = assert_same(
        claim,
        old_complexity_rule,
        pairs,
        lambda m: (
            f"fast = naive to {m[0]:.0e}; time grows as n^{m[1]:.2f} (fast, 1,000-256,000) "
            f"vs n^{m[2]:.2f} (naive, 1,000-4,000)"
        ),
        kind="property",  # timed: never a method claim counted in the headline
    )
    assert verdicts == {"supported", "partly supported", "not supported"}


def old_duplicate_rule(r):
    return tiers(
        supported=bool(np.allclose(r, 2.0)),
        partly=bool((r > 1).all()),
        note=f"duplicated / single ratio {float(r.min()):.3f}-{float(r.max()):.3f}",
    )


def test_duplicate_claim_matches_the_chapters_rule():
    once = pd.Series({"a": 6.61, "b": 3.2})
    pairs = []
    for factor in (2.0, 1.5, 0.8):
        twice = once * factor
        f = PC.duplicate_facts(once, twice, "length", "colour")
        pairs.append((f, (twice / once).to_numpy()))
    verdicts = assert_same(PC.METHOD_CLAIMS[1], old_duplicate_rule, pairs, None, kind="property")
    assert verdicts == {"supported", "partly supported", "not supported"}
    for f, _ in pairs:
        old = (
            f"length/colour weight ratio {float(once.iloc[0]):.2f} alone, "
            f"{float((once * f['ratio'][0]).iloc[0]):.2f} with length duplicated (class a)"
        )
        assert PC.METHOD_CLAIMS[1].evidence(f) == old


def approximation_table(shares):
    return pd.DataFrame(
        {
            "epsilon": [0.05, 0.05, 0.02, 0.02, 0.01, 0.01],
            "delta": [0.1, 0.1, 0.05, 0.05, 0.01, 0.01],
            "feature": ["numeric", "symbolic"] * 3,
            "share missing by more than epsilon": shares,
            "largest error": [0.04, 0.05, 0.02, 0.03, 0.06, 0.01],
        }
    )


def test_approximation_claim_matches_the_chapters_rule():
    pairs = []
    for shares in ([0.0] * 6, [0.0, 0.0, 0.0, 0.2, 0.2, 0.2], [0.5] * 6):
        a = approximation_table(shares)
        holds = a["share missing by more than epsilon"] <= a["delta"]
        pairs.append((PC.approximation_facts(a), (holds, a)))
    verdicts = assert_same(
        PC.METHOD_CLAIMS[2],
        lambda old: share_rule(old[0].to_list(), supported=1.0, partly=0.5, what="(epsilon, delta, feature) settings"),
        pairs,
        lambda old: (
            f"share of estimates missing by more than epsilon <= delta in {int(old[0].sum())} of "
            f"{len(old[0])} settings; largest error {old[1]['largest error'].max():.4f} "
            f"(epsilon down to {old[1]['epsilon'].min()})"
        ),
        kind="published",
    )
    assert verdicts == {"supported", "partly supported", "not supported"}


# --- chapter 04 -----------------------------------------------------------------------------------------------


def old_zero_rule(r):
    return tiers(
        supported=bool(r[0] >= 0.8 and r[1] <= 0.2),
        partly=bool(r[0] >= 0.5),
        note=f"zero shares {r[0]:.0%} and {r[1]:.0%}",
    )


def test_ionosphere_claim_matches_the_chapters_rule():
    predicted = np.array(["b", "g", "b", "g", "b", "g"])
    truth = np.array(["b", "g", "g", "g", "g", "g"])
    pairs = []
    for zeros in ({"b": 28, "g": 0}, {"b": 20, "g": 3}, {"b": 10, "g": 12}):
        z = pd.Series(zeros)
        ratios = tuple(sorted([z[c] / 33 for c in z.index], reverse=True))
        pairs.append((PC.zero_share_facts(z, 33, predicted, truth), (ratios, z)))
    claim = PC.IONOSPHERE_CLAIMS[0]
    verdicts = assert_same(claim, lambda old: old_zero_rule(old[0]), pairs, None, kind="published")
    assert verdicts == {"supported", "partly supported", "not supported"}
    # the chapter's evidence, verbatim, with its variables
    zeros = pd.Series({"b": 28, "g": 0})
    sparse_class, other, n_usable = zeros.idxmax(), "g", 33
    share_sparse = 100 * float(np.mean(predicted == sparse_class))
    true_sparse = 100 * float(np.mean(truth == sparse_class))
    evidence = (
        f"class '{sparse_class}': {zeros[sparse_class]} of {n_usable} weights zero; class '{other}': "
        f"{zeros[other]}; MDW predicts '{sparse_class}' for {share_sparse:.1f} % of the test set (true share "
        f"{true_sparse:.1f} %)"
    )
    assert claim.evidence(PC.zero_share_facts(zeros, 33, predicted, truth)) == evidence


def old_imbalance(shares):
    per_task = shares.groupby("task", sort=False)["zero share (%)"]
    out = pd.DataFrame({"largest zero share (%)": per_task.max(), "smallest zero share (%)": per_task.min()})
    out["class with the largest"] = shares.loc[per_task.idxmax(), "class"].to_numpy()
    out["its training instances"] = shares.loc[per_task.idxmax(), "training instances"].to_numpy()
    out["imbalance"] = (out["largest zero share (%)"] >= 80) & (out["smallest zero share (%)"] <= 20)
    return out


def shares_table(imbalanced: int):
    tasks = ["Ionosphere"] + [f"task {i}" for i in range(7)]
    rows = []
    for i, task in enumerate(tasks):
        high = 90.0 if task == "Ionosphere" or i <= imbalanced else 50.0
        rows += [
            {"task": task, "class": "x", "training instances": 5, "zero share (%)": high},
            {"task": task, "class": "y", "training instances": 9, "zero share (%)": 10.0},
        ]
    return pd.DataFrame(rows)


def test_imbalance_and_the_others_claim_match_the_chapters_rule():
    claim = PC.IONOSPHERE_CLAIMS[1]
    pairs = []
    for imbalanced in (0, 1, 3):
        shares = shares_table(imbalanced)
        table = old_imbalance(shares)
        pd.testing.assert_frame_equal(PC.imbalance(shares), table)
        pairs.append(({"table": PC.imbalance(shares), "reading": "unknown values left out"}, table))
    others = [f"task {i}" for i in range(7)]

    def old_rule(table):
        return share_rule((~table.loc[others, "imbalance"]).to_dict(), supported=1.0, partly=6 / 7, what="other tasks")

    def old_evidence(table):
        imbalanced = [t for t in others if table.loc[t, "imbalance"]]
        return (
            f"other tasks with a class >= 80 % zero weights and one <= 20 %: {', '.join(imbalanced) or 'none'}"
            f" (unknown values left out)"
        )

    verdicts = assert_same(claim, old_rule, pairs, old_evidence, kind="published")
    assert verdicts == {"supported", "partly supported", "not supported"}
    # judged over the readings of unknown values, the stability the chapter appends to the evidence
    conditions = [({"unknown values": n}, f) for n, (f, _) in zip(["left out", "as a value"], pairs[:2])]
    j, evidence = claim.judge(conditions, primary={"unknown values": "left out"})
    old = judge(old_rule, [(label, t) for (label, _), (_, t) in zip(conditions, pairs[:2])], primary=j.primary)
    assert (j.verdict, j.stability) == (old.verdict, old.stability) and evidence == old_evidence(pairs[0][1])
