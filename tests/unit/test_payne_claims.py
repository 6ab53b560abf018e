"""The claim tables of Parts I and II as data: the LED claims of ``lazylib.protocols.payne1998.claims`` and the
claims of
``lazylib.protocols.payne2000.figure_claims``, each rule on small synthetic facts whose verdict is known, where it
is supported and where it is not."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from lazylib.protocols.payne1998 import claims as P1_claims
from lazylib.protocols.payne1998 import facts as P1_facts
from lazylib.protocols.payne1998 import protocol as P1
from lazylib.protocols.payne2000 import figure_claims as P2F
from lazylib.report.scorecard import Chapter

LED_METRICS = ("OM", "WOM", "OMVW", "VDM", "MVDM")
KS = range(6)
REPS = range(5)


def led_results(curves: dict) -> pd.DataFrame:
    """LED results under the random rule: ``curves[metric](k, r)`` is the accuracy at k irrelevant attributes."""
    rows = [(r, "random", k, m, float(curves[m](k, r))) for r in REPS for k in KS for m in LED_METRICS]
    return pd.DataFrame(rows, columns=["repetition", "ties", "irrelevant", "metric", "accuracy"])


def led_verdicts(curves: dict, repetitions=REPS) -> dict:
    facts = P1_facts.led_facts(P1.led_points(led_results(curves)), "random", list(repetitions), condition="random")
    return {claim.key: str(claim.rule(facts)) for claim in P1_claims.LED_CLAIMS}, facts


def noise(r):
    return (-1.0, 1.0, -0.5, 0.5, 0.0)[r]


def test_led_claims_all_supported_when_om_falls_and_the_others_stay_flat():
    flat = lambda k, r: 70 + noise(r)  # noqa: E731
    verdicts, facts = led_verdicts(
        {"OM": lambda k, r: 60 - 3 * k + noise(r), "WOM": flat, "OMVW": flat, "VDM": flat, "MVDM": flat}
    )
    assert set(verdicts.values()) == {"supported"}
    assert facts["ks"] == list(KS) and facts["first_above"]["OMVW"] == 0 and facts["degrading"] == []
    assert np.allclose(facts["loss"]["OM"], 15)


def test_led_claims_not_supported_when_nothing_behaves_as_the_paper_says():
    om = lambda k, r: 70 + noise(r)  # noqa: E731
    verdicts, facts = led_verdicts(
        {
            "OM": om,
            "WOM": lambda k, r: 70 - noise(r),
            "OMVW": lambda k, r: 60 + noise(r),
            "VDM": lambda k, r: 70 - 4 * k + noise(r),
            "MVDM": lambda k, r: 70 - 4 * k,
        }
    )
    assert set(verdicts.values()) == {"not supported"}
    assert facts["below_wom"] == list(KS) and facts["first_above"]["OMVW"] is None
    assert facts["degrading"] == ["VDM", "MVDM"] and not facts["milder"]


def test_led_h3_partly_when_the_probability_metrics_lose_less_than_om():
    verdicts, facts = led_verdicts(
        {
            "OM": lambda k, r: 70 - 4 * k + noise(r),
            "WOM": lambda k, r: 75,
            "OMVW": lambda k, r: 75 - k,
            "VDM": lambda k, r: 75 - k + noise(r),
            "MVDM": lambda k, r: 75,
        }
    )
    assert verdicts["H3"] == "partly supported" and facts["degrading"] == ["VDM", "OMVW"] and facts["milder"]
    assert verdicts["no degradation"] == "partly supported"


def test_led_facts_read_only_the_repetitions_asked_for():
    curves = {m: (lambda k, r: 70.0 + r) for m in LED_METRICS}
    curves["OM"] = lambda k, r: 60.0 - (10 * k if r == 4 else 0) + r
    _, every = led_verdicts(curves)
    _, without = led_verdicts(curves, repetitions=range(4))
    assert np.allclose(every["loss"]["OM"], [0, 0, 0, 0, 50]) and np.allclose(without["loss"]["OM"], 0)
    assert P1_claims.LED_CLAIMS[0].evidence(without) == "random: fails"


def test_first_from():
    assert P1_facts.first_from([False, True, True]) == 1 and P1_facts.first_from([]) is None


def figure_runs(curves: dict, ks: dict, problems=("separable", "inseparable"), reading="paper") -> pd.DataFrame:
    """Two samples per point: ``curves[problem][learner](m)`` and ``ks[learner](m)``."""
    rows = []
    for p in problems:
        for m in range(51):
            for r in range(2):
                accuracies = {learner: float(f(m)) + r for learner, f in curves[p].items()}
                rows.append(
                    {
                        "reading": reading,
                        "problem": p,
                        "m": m,
                        "rep": r,
                        **accuracies,
                        "CA K": ks["CA K"](m),
                        "CACP K": ks["CACP K"](m),
                    }
                )
    return pd.DataFrame(rows)


def figure_verdicts(runs, reading="paper"):
    facts = P2F.irrelevant_facts(runs, reading)
    claims = P2F.FIGURE3_CLAIMS + (P2F.FIGURE4_CLAIMS if "inseparable" in facts["problems"] else ())
    return {c.key: str(c.rule(facts)) for c in claims}, facts


def test_figure_claims_supported_on_curves_drawn_as_the_paper_describes():
    separable = {"NN": lambda m: 100 - 0.9 * m, "CA": lambda m: 101 - 0.9 * m, "CACP": lambda m: 100 - 0.2 * m}
    inseparable = {
        "NN": lambda m: max(50, 80 - 3 * m),
        "CA": lambda m: 70 - 0.5 * m,
        "CACP": lambda m: 90 - 0.1 * m + (5 if 5 <= m <= 14 else 0),
    }
    ks = {"CA K": lambda m: 8 if m < 50 else 29, "CACP K": lambda m: 4}
    verdicts, facts = figure_verdicts(figure_runs({"separable": separable, "inseparable": inseparable}, ks))
    assert set(verdicts.values()) == {"supported"}, verdicts
    assert facts["falls"] == pytest.approx([45, 45, 10]) and facts["nn11"] == pytest.approx(50.5)
    assert P2F.FIGURE4_CLAIMS[-1].evidence(facts) == "slower on 2 of 2 problems"


def test_figure_claims_not_supported_on_flat_equal_curves():
    flat = {learner: (lambda m: 80.0) for learner in P2F.LEARNERS}
    ks = {"CA K": lambda m: 2, "CACP K": lambda m: 1}
    verdicts, facts = figure_verdicts(figure_runs({"separable": flat, "inseparable": flat}, ks))
    assert set(verdicts.values()) == {"not supported"}, verdicts
    assert facts["ca_nn_share"] == 0 and facts["rise"] == 0 and facts["slower"] == [False, False]


def test_irrelevant_facts_of_a_reading_without_the_inseparable_problem():
    flat = {learner: (lambda m: 80.0) for learner in P2F.LEARNERS}
    runs = pd.concat(
        [
            figure_runs(
                {"separable": flat},
                {"CA K": lambda m: 2, "CACP K": lambda m: 4},
                problems=("separable",),
                reading="diagonal",
            ),
            figure_runs({"separable": flat, "inseparable": flat}, {"CA K": lambda m: 2, "CACP K": lambda m: 1}),
        ]
    )
    verdicts, facts = figure_verdicts(runs, "diagonal")
    assert "ahead" not in facts and facts["problems"] == ["separable"]
    assert verdicts["fig3_cacp_k"] == "supported" and verdicts["fig3_falls"] == "not supported"


def redundant_runs(accuracy: dict, ca_k: int, cacp_k: int, two: dict) -> pd.DataFrame:
    rows = [
        {
            "problem": p,
            "NN": accuracy[p],
            "CA": accuracy[p],
            "CACP": accuracy[p],
            "NN, two attributes": two[p],
            "CA K": ca_k,
            "CACP K": cacp_k,
        }
        for p in ("separable", "inseparable")
        for _ in range(3)
    ]
    return pd.DataFrame(rows)


def test_redundant_claims_supported_and_not_supported():
    good = P2F.redundant_facts(
        redundant_runs({"separable": 100.0, "inseparable": 96.0}, 2, 2, {"separable": 100.0, "inseparable": 96.5})
    )
    bad = P2F.redundant_facts(
        redundant_runs({"separable": 80.0, "inseparable": 60.0}, 5, 6, {"separable": 100.0, "inseparable": 96.0})
    )
    assert {str(c.rule(good)) for c in P2F.REDUNDANT_CLAIMS} == {"supported"}
    assert {str(c.rule(bad)) for c in P2F.REDUNDANT_CLAIMS} == {"not supported"}
    assert good["drop"] == pytest.approx(0.25) and bad["ca_two"] == 0
    assert P2F.REDUNDANT_CLAIMS[0].evidence(good) == "K = 2 in 100 % of runs (K from 2 to 2)"


def test_distortion_claim_through_chapter_judge():
    index = pd.MultiIndex.from_product(
        [["iris", "balance-scale"], ["all", "first", "random"]], names=["data set", "tie rule"]
    )
    distortion = P2F.MAPPING_CLAIMS[0]
    card = Chapter(part="II", paper="payne2000", chapter="x")
    same = card.judge(
        distortion,
        P2F.distortion_facts(pd.DataFrame({"folds that differ": 0}, index), 1e-15),
        primary=("random",),
        factors=("ties",),
    )
    differ = P2F.distortion_facts(pd.DataFrame({"folds that differ": [0, 0, 0, 0, 0, 2]}, index), 1e-15)
    assert same.verdict == "not supported"
    assert str(distortion.rule(differ["random",])) == "supported" and str(distortion.rule(differ["all",])) == (
        "not supported"
    )
    assert card.frames()[1].loc[0, "evidence"].startswith("full-rank CA = NN on all folds")
    assert distortion.evidence(differ["all",]).startswith("full-rank CA differs from NN on 2 folds")


def test_rank_claim_and_rank_excess():
    rng = np.random.default_rng(0)
    X, y = rng.random((30, 4)), pd.Series(np.repeat(["a", "b", "c"], 10))
    assert P2F.rank_excess(X, y) == 0  # three class prototypes have rank two
    rank = P2F.MAPPING_CLAIMS[1]
    assert str(rank.rule(0)) == "not supported" and str(rank.rule(3)) == "supported"
    assert rank.evidence(3) == "the prototype matrix has rank 3 above C - 1"
