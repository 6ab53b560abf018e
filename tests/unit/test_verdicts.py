import math

import numpy as np
import pytest
from scipy import stats

from lazylib import evaluation
from lazylib.report import headline, scorecard, verdicts
from lazylib.report.bands import prediction_band
from lazylib.report.verdicts import all_of, judge, not_testable, share_rule, threshold_rule, tiers


def test_band_is_the_prediction_interval_for_one_run_widened_by_the_rounding():
    runs = np.array([67.1, 68.3, 66.8, 67.9, 68.8, 67.4, 66.9, 68.1, 67.6, 68.0])
    band = prediction_band(runs, digits=1)
    n, mean, sd = len(runs), runs.mean(), runs.std(ddof=1)
    half = stats.t.ppf(0.975, n - 1) * sd * math.sqrt(1 + 1 / n)  # by hand, from scipy's t quantile
    assert band.low == pytest.approx(mean - half - 0.05, abs=1e-12)
    assert band.high == pytest.approx(mean + half + 0.05, abs=1e-12)
    assert band.centre == pytest.approx(mean) and band.n == 10 and not band.deterministic
    assert "10 independent runs" in band.definition and "0.05" in band.definition
    narrower = prediction_band(runs, digits=1, level=0.5)
    assert narrower.high - narrower.low < band.high - band.low


@pytest.mark.parametrize("exponent", [-1060, -600, 600, 1000])
def test_band_is_scale_free_near_the_ends_of_the_float_range(exponent):
    """Runs multiplied by a power of two give the band multiplied by it (the rounding widening aside), near
    1.7e308 too, where the runs' sum and their spread would overflow (issue #53: infinities were returned)."""
    runs = np.array([1.25, 1.5, 1.375, 1.4375])
    base, scaled = prediction_band(runs, digits=0), prediction_band(np.ldexp(runs, exponent), digits=0)
    factor = 2.0**exponent
    assert scaled.centre == pytest.approx(base.centre * factor, rel=1e-14)
    assert scaled.sd == pytest.approx(base.sd * factor, rel=1e-14)
    if exponent > 0:  # the half unit of rounding is lost beside numbers of 1e180 and more
        assert scaled.low == pytest.approx((base.low + 0.5) * factor, rel=1e-12)
        assert scaled.high == pytest.approx((base.high - 0.5) * factor, rel=1e-12)
    assert math.isfinite(scaled.low) and math.isfinite(scaled.high)


def test_band_near_the_largest_float_is_finite_or_refused():
    band = prediction_band([1.7e308, 1.69e308, 1.68e308], digits=1)
    assert math.isfinite(band.low) and math.isfinite(band.high) and band.low < 1.69e308 < band.high
    assert band.centre == pytest.approx(1.69e308) and band.sd == pytest.approx(1e306)
    with pytest.raises(ValueError, match="beyond the largest float.*rescale the runs"):
        prediction_band([1.79e308, 1.0e308, 1.7e308], digits=1)


def test_deterministic_band_is_the_value_widened_by_the_rounding():
    band = prediction_band([0.38], digits=2, deterministic=True)
    assert (band.low, band.high) == pytest.approx((0.375, 0.385)) and band.deterministic
    assert band.contains(0.38) and not band.contains(0.386)
    assert "deterministic" in band.definition


@pytest.mark.parametrize(
    "runs, kwargs, message",
    [
        ([1.0], {"digits": 1}, "at least two"),
        ([1.0, 2.0], {"digits": 1, "deterministic": True}, "one run"),
        ([1.0, float("nan")], {"digits": 1}, "finite"),
        ([1.0, 2.0], {"digits": 1.5}, "digits"),
        ([1.0, 2.0], {"digits": 1, "level": 1.0}, "level"),
    ],
)
def test_band_refuses_bad_input(runs, kwargs, message):
    with pytest.raises(ValueError, match=message):
        prediction_band(runs, **kwargs)


def test_share_rule_counts_identity_and_direction_not_counts():
    assert share_rule([True, True, True], supported=1.0, partly=0.5) == "supported"
    assert share_rule([True, False, False, True], supported=1.0, partly=0.5) == "partly supported"
    assert share_rule([False, False, True], supported=1.0, partly=0.5) == "not supported"
    assert share_rule([], supported=1.0, partly=0.5) == "not testable"
    with pytest.raises(ValueError, match="boolean per item"):
        share_rule([3, 2], supported=1.0, partly=0.5)  # counts are refused


def test_threshold_rule_direction_and_the_nearest_threshold():
    assert threshold_rule(0.6, supported=0.5, partly=0.25) == "supported"
    assert threshold_rule(0.3, supported=0.5, partly=0.25) == "partly supported"
    assert threshold_rule(0.1, supported=0.5, partly=0.25) == "not supported"
    lower = threshold_rule(2.56, supported=3.0, partly=5.0, higher=False, what="gap")
    assert lower == "supported" and "beyond it: partly supported" in lower.note
    near = threshold_rule(0.508, supported=0.5, partly=0.25)
    assert near == "supported" and "0.008 away" in near.note and "partly supported" in near.note
    assert threshold_rule(float("nan"), supported=0.5, partly=0.25) == "not testable"
    with pytest.raises(ValueError, match="weaker side"):
        threshold_rule(0.5, supported=0.25, partly=0.5)


def test_all_of_and_not_testable():
    assert all_of(True, True) == "supported" and all_of(True, False) == "partly supported"
    assert all_of(False, False) == "not supported"
    assert not_testable("no such data") == "not testable"
    assert (
        tiers(supported=True, partly=False) == "supported" and tiers(supported=False, partly=False) == "not supported"
    )
    with pytest.raises(ValueError, match="reason"):
        not_testable(" ")


def test_judgement_reports_the_primary_verdict_and_its_stability():
    data = {
        (seed, ties): 0.6 if (seed < 7 and ties != "first") else 0.3
        for seed in range(10)
        for ties in ("random", "all", "first")
    }
    rule = lambda value: threshold_rule(value, supported=0.5, partly=0.25)
    j = judge(rule, data, primary=(0, "random"), factors=("seed", "ties"))
    # the primary condition says supported, but partly supported is the most common verdict (16 of 30)
    assert j.primary_verdict == "supported" and j.n_conditions == 30 and not j.stable
    assert j.verdict == "unstable" and j.unstable and j.counts == {"partly supported": 16, "supported": 14}
    assert j.stability == (
        "supported in 14 of 30 conditions: unstable; partly supported under seed=7, 8, 9; partly supported under "
        "ties=first"
    )
    majority = judge(rule, {k: 0.6 if k[0] < 9 else 0.3 for k in data}, primary=(0, "random"), factors=("seed", "ties"))
    assert majority.verdict == majority.primary_verdict == "supported" and not majority.stable
    assert j.by("ties")["first"] == "partly supported"
    stable = judge(rule, [({"seed": s}, 0.7) for s in range(3)], primary={"seed": 0})
    assert stable.stability == "stable (3 conditions)" and stable.stable
    seeds = judge(rule, [({"seed": s}, 0.6 if s < 7 else 0.3) for s in range(10)], primary={"seed": 9})
    assert seeds.primary_verdict == "partly supported" and seeds.verdict == "unstable"
    assert seeds.stability.startswith("partly supported in 3 of 10 seeds: unstable")
    tied = judge(rule, [({"seed": s}, 0.6 if s < 5 else 0.3) for s in range(10)], primary={"seed": 9})
    assert tied.verdict == "partly supported"  # a tie for the most common keeps the primary verdict
    with pytest.raises(ValueError, match="primary"):
        judge(rule, data, primary=(99, "random"), factors=("seed", "ties"))
    with pytest.raises(ValueError, match="factors"):
        judge(rule, data, primary=(0, "random"))
    with pytest.raises(ValueError, match="verdict must be one of"):
        judge(lambda _: "maybe", data, primary=(0, "random"), factors=("seed", "ties"))


def test_cell_refuses_an_unexplained_published_cell_outside_its_band():
    card = scorecard.Chapter(part="I", paper="p", chapter="c")
    runs = [80.0, 80.5, 79.5, 80.2, 79.8]
    with pytest.raises(ValueError, match="deviation"):
        card.cell(source="T", cell="x", published=90.0, runs=runs, digits=1)
    band = card.cell(
        source="T",
        cell="x",
        published=90.0,
        runs=runs,
        digits=1,
        deviation="unexplained; readings tried: unstratified folds",
        note_kind="untested",
    )
    assert not band.contains(90.0)
    card.cell(source="T", cell="y", published=90.0, runs=runs, digits=1, kind="stand-in")  # not evidence: allowed
    card.cell(source="T", cell="z", published=80.1, runs=runs, digits=1)
    cells, _ = card.frames()
    assert cells["inside"].tolist() == [False, False, True]
    assert cells["kind"].tolist() == ["published", "stand-in", "published"]
    with pytest.raises(ValueError, match="kind"):
        card.cell(source="T", cell="w", published=1.0, runs=runs, digits=1, kind="guess")


def test_claim_takes_a_judgement_and_summary_counts_only_published_records(tmp_path):
    card = scorecard.Chapter(part="III", paper="p", chapter="c")
    rule = lambda ok: all_of(*ok)
    card.claim(claim="a", judgement=judge(rule, [({"seed": 0}, [True])], primary={"seed": 0}))
    card.claim(claim="b", judgement=judge(rule, [({"seed": 0}, [False])], primary={"seed": 0}), kind="property")
    card.claim(
        claim="c", judgement=judge(lambda _: not_testable("stand-in data"), [({"seed": 0}, None)], primary={"seed": 0})
    )
    with pytest.raises(ValueError, match="Judgement"):
        card.claim(claim="d", judgement="supported")
    card.cell(source="T", cell="x", published=1.0, runs=[1.0], digits=0, deterministic=True, kind="constructed")
    card.cell(source="T", cell="y", published=1.0, runs=[1.0, 1.2, 0.9], digits=1)
    card.save(tmp_path)
    cells, claims = scorecard.load(tmp_path)
    row = headline.summary(cells, claims).loc["III"]
    assert row["published numbers"] == 1 and row["inside"] == 1 and row["supported"] == 1
    assert row["not supported"] == 0 and row["not testable"] == 1 and row["other records"] == 2
    assert set(verdicts.VERDICTS) >= set(claims["verdict"])


def test_paired_ttest_treats_rounding_noise_as_no_difference():
    a = np.array([0.81, 0.79, 0.84, 0.80, 0.83, 0.78, 0.82, 0.80, 0.81, 0.79])
    noise = np.array([1e-16, -1e-16, 0, 1e-16, 0, -1e-16, 1e-16, 0, 0, -1e-16])
    for alternative in ("two-sided", "greater", "less"):
        p = evaluation.paired_ttest(a + noise, a, alternative)
        assert p == 1.0
        assert evaluation.paired_ttest(a + noise[0], a, alternative) == 1.0  # a constant rounding offset too
    assert evaluation.significance_mark(a + noise, a, style="dagger") == ""
    assert evaluation.paired_ttest(a + 0.01, a, "greater") == 0.0  # a real constant improvement stays significant
    b = a + np.linspace(-0.01, 0.03, len(a))
    assert evaluation.paired_ttest(b, a) == pytest.approx(stats.ttest_rel(b, a).pvalue)
