"""The paired verdict rules of lazylib.report.paired (issue #54): the sign test and Wilcoxon's on the items that
differ, equivalence by TOST with its side, conjunctions part by part, findings, Holm over a page."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from lazylib.report import paired
from lazylib.report.headline import summary
from lazylib.report.scorecard import Chapter
from lazylib.report.verdicts import judge


def _pairs(wins: int, losses: int, ties: int, *, step: float = 2.0) -> tuple[pd.Series, pd.Series]:
    """Accuracies of A and B on wins + losses + ties data sets, A ahead by ``step`` on its wins."""
    n = wins + losses + ties
    b = pd.Series(70.0 + np.arange(n), index=[f"d{i:02d}" for i in range(n)])
    a = b.copy()
    a.iloc[:wins] += step
    a.iloc[wins : wins + losses] -= step
    return a, b


def test_the_issue_s_ivdm_dvdm_counts_give_the_sign_test_p_of_0_006_and_a_supported_verdict():
    # Part VI 03: IVDM wins 21 of the 27 data sets where it differs from DVDM (6 losses, 6 ties); the share rule
    # (21 of 33 >= DVDM) called it "partly supported"
    a, b = _pairs(21, 6, 6)
    c = paired.compare(a, b, names=("IVDM", "DVDM"))
    assert (c.wins, c.losses, c.ties, c.missing) == (21, 6, 6, 0)
    assert c.p == pytest.approx(stats.binomtest(21, 27).pvalue) and round(c.p, 3) == 0.006
    v = paired.beats(a, b, names=("IVDM", "DVDM"))
    assert str(v) == "supported" and v.reading == "supported" and v.p == pytest.approx(c.p)
    assert "21 wins, 6 losses, 6 ties" in v.note and "sign test p = 0.0059" in v.note


def test_a_significant_loss_reads_other_better_and_no_significance_reads_no_difference_shown():
    a, b = _pairs(1, 12, 3)
    v = paired.beats(a, b, names=("HVDM", "HEOM"))
    assert str(v) == "not supported" and v.reading == "not supported: HEOM better"
    assert v.note.startswith("not supported: HEOM better; HVDM vs HEOM: 1 wins, 12 losses")
    a, b = _pairs(15, 12, 1)  # the issue's HVDM vs HEOM: p = 0.70
    v = paired.beats(a, b, names=("HVDM", "HEOM"))
    assert v.reading == "not supported: no difference shown" and round(v.p, 2) == 0.70


def test_ties_within_the_tolerance_are_set_aside_and_missing_items_counted():
    a, b = _pairs(8, 0, 0, step=0.4)
    assert paired.compare(a, b, tolerance=0.5).ties == 8
    assert str(paired.beats(a, b, tolerance=0.5)) == "not supported"  # no item differs: p = 1
    assert str(paired.beats(a, b)) == "supported"  # 8 of 8: p = 0.0078
    a.iloc[0] = np.nan
    c = paired.compare(a, b)
    assert (c.wins, c.missing) == (7, 1) and "1 items without both" in c.evidence
    assert str(paired.beats([np.nan], [1.0])) == "not testable"


def test_series_are_paired_by_their_index_not_their_order():
    a, b = _pairs(6, 0, 0)
    c = paired.compare(a, b.iloc[::-1])
    assert (c.wins, c.losses) == (6, 0)


def test_wilcoxon_weighs_the_sizes_of_the_differences():
    b = pd.Series(np.full(10, 70.0))
    a = b + np.r_[np.full(7, 5.0), np.full(3, -0.5)]  # 7 large wins, 3 small losses
    sign, wilcoxon = paired.compare(a, b), paired.compare(a, b, test="wilcoxon")
    assert sign.p == pytest.approx(stats.binomtest(7, 10).pvalue) and sign.p > 0.05
    assert wilcoxon.p == pytest.approx(stats.wilcoxon((a - b).to_numpy()).pvalue) and wilcoxon.p < 0.05
    assert str(paired.beats(a, b, test="wilcoxon")) == "supported"
    assert "Wilcoxon signed-rank test" in paired.beats(a, b, test="wilcoxon").note


def test_equivalence_is_supported_inside_the_rope_and_a_failure_names_its_side():
    rng = np.random.default_rng(0)
    b = pd.Series(rng.uniform(60, 90, 40))
    close = b + rng.normal(0, 0.3, 40)
    v = paired.equivalent(close, b, names=("VDM", "MVDM"), rope=1.0)
    assert str(v) == "supported" and "equivalence (TOST) within 1" in v.note
    better = b + 2.0 + rng.normal(0, 0.3, 40)
    v = paired.equivalent(better, b, names=("OMVW", "WOM"), rope=1.0)
    assert str(v) == "not supported" and v.reading == "not supported: OMVW better"
    assert "not shown to lie below +1" in v.note
    v = paired.equivalent(b, better, names=("OMVW", "WOM"), rope=1.0)
    assert v.reading == "not supported: WOM better"
    # TOST's p is the larger one-sided p-value, each the t-test scipy gives
    e = paired.equivalence(close, b, rope=1.0)
    d = (close - b).to_numpy()
    assert e.p_lower == pytest.approx(stats.ttest_1samp(d, -1.0, alternative="greater").pvalue)
    assert e.p == pytest.approx(max(e.p_lower, stats.ttest_1samp(d, 1.0, alternative="less").pvalue))


def test_non_inferiority_tests_the_lower_side_only():
    rng = np.random.default_rng(1)
    b = pd.Series(rng.uniform(60, 90, 30))
    better = b + 3.0 + rng.normal(0, 0.3, 30)
    assert str(paired.equivalent(better, b, sides="lower")) == "supported"  # far better is not worse
    assert paired.equivalent(b, better, sides="lower").reading == "not supported: B better"
    assert str(paired.equivalent([1.0], [1.0])) == "not testable"


def test_a_conjunction_is_judged_and_shown_part_by_part():
    a, b = _pairs(22, 5, 1)
    c, d = _pairs(15, 12, 1)
    v = paired.conjunction({"vs Euclidean": paired.beats(a, b), "vs HEOM": paired.beats(c, d)})
    assert str(v) == "partly supported"
    assert v.reading == "partly supported (vs Euclidean: supported; vs HEOM: not supported: no difference shown)"
    assert "22 wins, 5 losses" in v.note and "15 wins, 12 losses" in v.note
    both = paired.conjunction({"x": paired.beats(a, b), "y": paired.beats(a, b)})
    none = paired.conjunction({"x": paired.beats(c, d), "y": paired.beats(d, c)})
    assert (str(both), str(none)) == ("supported", "not supported")
    with pytest.raises(ValueError, match="at least one part"):
        paired.conjunction({})


def test_holm_adjusts_a_page_s_tests_together_parts_of_conjunctions_included():
    assert paired.holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    with pytest.raises(ValueError, match="p-values in"):
        paired.holm([0.1, 1.2])
    strong, marginal = _pairs(10, 0, 0), _pairs(7, 0, 0)  # p = 0.002 and 0.016
    page = {
        "one": paired.beats(*strong),
        "two": paired.conjunction({"x": paired.beats(*marginal), "y": paired.beats(*strong)}),
    }
    assert str(page["two"]) == "supported"
    adjusted = paired.holm_verdicts(page, alpha=0.05)
    p = paired.holm([page["one"].p, page["two"].parts["x"].p, page["two"].parts["y"].p])
    assert adjusted["one"].p == pytest.approx(p[0]) and str(adjusted["one"]) == "supported"
    assert adjusted["two"].parts["x"].p == pytest.approx(p[1])
    assert str(adjusted["two"]) == ("supported" if p[1] <= 0.05 else "partly supported")
    assert str(paired.holm_verdicts(page, alpha=0.01)["two"]) == "partly supported"  # 3 x 0.016 > 0.01
    assert "Holm over 3 tests: p = 0.016" in adjusted["two"].parts["x"].note


def test_a_finding_is_labelled_finding_and_says_what_the_statistic_cannot_separate():
    v = paired.finding("best average rank: k-NN IVDM", inseparable=13, statistic="the critical difference")
    assert str(v) == "finding" and v.note.endswith("the critical difference cannot tell 13 other methods from it")
    assert str(paired.finding("best: X", holds=False)) == "not supported"
    j = judge(
        lambda holds: paired.finding("best", holds=holds),
        {("a",): True, ("b",): False},
        primary=("a",),
        factors=("seed",),
    )
    assert j.verdict == "finding" and j.stability.startswith("finding in 1 of 2")


def test_findings_are_never_tallied_as_claims_and_a_published_claim_cannot_be_one():
    card = Chapter(part="VI", paper="bench", chapter="x")
    j = judge(lambda _: paired.finding("best"), {("a",): None}, primary=("a",), factors=("seed",))
    with pytest.raises(ValueError, match="kind='finding'"):
        card.claim(claim="X ranks best", judgement=j, kind="published")
    card.claim(claim="X ranks best", judgement=j, kind="finding")
    cells, claims = card.frames()
    table = summary(cells.assign(part="VI"), claims.assign(part="VI"))
    assert "finding" not in table.columns and table.loc["VI", "other records"] == 1


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: paired.compare([1.0], [1.0, 2.0]), "one value per item"),
        (lambda: paired.compare([1.0], [1.0], test="t"), "test"),
        (lambda: paired.compare([1.0], [1.0], tolerance=-1.0), "tolerance"),
        (lambda: paired.equivalent([1.0, 2.0], [1.0, 2.0], rope=0.0), "rope"),
        (lambda: paired.equivalent([1.0, 2.0], [1.0, 2.0], sides="upper"), "sides"),
        (lambda: paired.beats([1.0, 2.0], [1.0, 2.0], alpha=1.0), "alpha"),
    ],
)
def test_bad_parameters_are_refused_by_name(call, match):
    with pytest.raises(ValueError, match=match):
        call()
