"""The statistics for one table (lazylib.protocols.bench.table_stats) against baycomp and an independent computation."""

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from lazylib.protocols.bench.table_stats import corrected_ttest, correlated_bayes, one_table

K = 10  # folds per cross-validation in these tests
SHARE = 1 / (K - 1)


def _results(effects: dict, *, seeds=3, sd=1.0, times=None, rng=0) -> pd.DataFrame:
    rng = np.random.default_rng(rng)
    base = rng.normal(80, 2, size=(seeds, K))  # a fold's difficulty, shared by every method (paired folds)
    rows = []
    for m, effect in effects.items():
        noise = rng.normal(0, sd, size=(seeds, K))
        for s in range(seeds):
            for f in range(K):
                acc = base[s, f] + effect + noise[s, f]
                rows.append({"method": m, "seed": s, "fold": f, "accuracy": acc, "total_s": (times or {}).get(m, 1.0)})
    return pd.DataFrame(rows)


def _nadeau_bengio(x, y, n_test_over_n_train):
    """Nadeau & Bengio (2003), eq. for the corrected resampled t: t = mean(d) / sqrt((1/J + n2/n1) * s^2)."""
    d = [xi - yi for xi, yi in zip(x, y)]
    J = len(d)
    mean = sum(d) / J
    s2 = sum((di - mean) ** 2 for di in d) / (J - 1)
    t = mean / math.sqrt((1 / J + n_test_over_n_train) * s2)
    p = 2 * (1 - stats.t.cdf(abs(t), J - 1))
    return t, p


def test_corrected_ttest_equals_an_independent_computation():
    rng = np.random.default_rng(1)
    x, y = rng.normal(81, 2, 30), rng.normal(80, 2, 30)
    t, p = _nadeau_bengio(list(x), list(y), SHARE)
    r = corrected_ttest(x, y, SHARE)
    assert r["t"] == pytest.approx(t, rel=1e-12)
    assert r["p"] == pytest.approx(p, rel=1e-9, abs=1e-12)
    assert r["n_folds"] == 30


@pytest.mark.parametrize("rope", [0.5, 1.0, 2.0])
def test_correlated_bayes_equals_baycomp(rope):
    baycomp = pytest.importorskip("baycomp")
    rng = np.random.default_rng(2)
    x, y = rng.normal(80, 2, 30), rng.normal(80.8, 2, 30)
    ours = correlated_bayes(y, x, SHARE, rope)  # y against x: p_a = P(y better)
    left, middle, right = baycomp.CorrelatedTTest.probs(x, y, rope=rope, runs=3)  # differences y - x
    assert (ours["p_b"], ours["p_rope"], ours["p_a"]) == pytest.approx((left, middle, right), abs=1e-12)


def test_one_table_bayes_rows_equal_baycomp():
    baycomp = pytest.importorskip("baycomp")
    results = _results({"A": 2.0, "B": 0.0, "C": 1.5})
    st = one_table(results, baseline="B", test_share=SHARE)
    table = results.pivot(index=["seed", "fold"], columns="method", values="accuracy")
    for _, row in st.bayes.iterrows():
        left, middle, right = baycomp.CorrelatedTTest.probs(
            table[row["method"]].to_numpy(), table[st.best].to_numpy(), rope=row["rope"], runs=3
        )
        assert (row["p_other_better"], row["p_equivalent"], row["p_best_better"]) == pytest.approx(
            (left, middle, right), abs=1e-12
        )


def test_a_real_difference_is_found_and_holm_applied():
    results = _results({"A": 3.0, "B": 0.0, "C": 0.0, "D": 0.2})
    st = one_table(results, baseline="B", test_share=SHARE)
    assert st.best == "A"
    vs = st.against_baseline
    assert vs.loc["A", "p_holm"] < 0.01
    assert vs.loc["C", "p_holm"] > 0.05
    # Holm by hand over the family of three tests against the baseline
    p = vs["p"].sort_values()
    by_hand = np.minimum(1, np.maximum.accumulate([(3 - i) * v for i, v in enumerate(p)]))
    assert vs.loc[p.index, "p_holm"].to_numpy() == pytest.approx(by_hand)
    assert st.summary.loc["A", "ci_low"] < st.summary.loc["A", "mean"] < st.summary.loc["A", "ci_high"]
    assert st.summary["wins"].sum() == pytest.approx(1.0)


def test_no_difference_between_equal_methods():
    results = _results({"A": 1.0, "B": 0.0})
    twin = results[results["method"] == "A"].assign(method="A2")
    st = one_table(pd.concat([results, twin]), baseline="B", test_share=SHARE)
    row = st.against_best.loc["A2" if st.best == "A" else "A"]
    assert row["p"] == 1.0 and "no difference" in row["note"]
    assert st.summary.loc["A", "wins"] == st.summary.loc["A2", "wins"] == 0.5  # ties shared on every seed


def test_a_cheaper_equivalent_method_is_recommended():
    results = _results({"slow": 0.1, "fast": 0.0}, seeds=5, sd=0.05, times={"slow": 10.0, "fast": 0.1})
    st = one_table(results, baseline=None, test_share=SHARE)
    assert st.best == "slow"
    assert st.recommended == "fast" and "at most 1 point worse" in st.reason
    far = _results({"slow": 5.0, "fast": 0.0}, seeds=5, sd=0.05, times={"slow": 10.0, "fast": 0.1})
    assert one_table(far, baseline=None, test_share=SHARE).recommended == "slow"


def test_partial_failures_are_paired_and_flagged():
    results = _results({"A": 2.0, "B": 0.0, "C": 1.0})
    results.loc[(results["method"] == "C") & (results["fold"] < 3), "accuracy"] = np.nan
    st = one_table(results, baseline="B", test_share=SHARE)
    assert st.summary.loc["C", "status"] == "partial"
    assert st.against_baseline.loc["C", "n_folds"] == 3 * (K - 3)
    assert "paired on the 21 folds" in st.against_baseline.loc["C", "note"]
    assert not np.isnan(st.against_baseline["p"]).any()


def test_degenerate_input_is_refused_by_name():
    one = _results({"A": 0.0})
    with pytest.raises(ValueError, match="at least two methods"):
        one_table(one, test_share=SHARE)
    nan = _results({"A": 0.0, "B": 0.0})
    nan.loc[nan["method"] == "B", "accuracy"] = np.nan
    with pytest.raises(ValueError, match="at least two methods"):
        one_table(nan, test_share=SHARE)
    with pytest.raises(ValueError, match="columns"):
        one_table(nan.drop(columns="fold"), test_share=SHARE)
    with pytest.raises(ValueError, match="twice"):
        one_table(pd.concat([nan, nan]), test_share=SHARE)
    with pytest.raises(ValueError, match="test_share"):
        one_table(_results({"A": 0.0, "B": 1.0}), test_share=0)


def test_missing_baseline_and_one_seed_are_said():
    st = one_table(_results({"A": 1.0, "B": 0.0}, seeds=1), baseline="1-NN Euclidean", test_share=SHARE)
    assert st.baseline is None and st.against_baseline.empty
    assert any("baseline" in n for n in st.notes) and any("one fold seed" in n for n in st.notes)


def test_to_dict_is_json_without_nan():
    import json

    results = _results({"A": 1.0, "B": 0.0})
    results.loc[(results["method"] == "B") & (results["fold"] == 0), "accuracy"] = np.nan
    d = one_table(results, baseline="B", test_share=SHARE).to_dict()
    text = json.dumps(d, allow_nan=False)
    assert '"best": "A"' in text
