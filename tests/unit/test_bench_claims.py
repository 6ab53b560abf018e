"""Part VI's claims judged by paired tests (issue #54): ties set aside, not counted as failures; conjunctions part
by part; Holm over the page's tests; the descriptive "ranks best" labelled a finding."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from lazylib.protocols.bench import claims as bench_claims
from lazylib.report.verdicts import share_rule


def _run(diffs: dict, *, kind: str = "continuous", seeds=(0, 1), base: str = "1-NN DVDM") -> pd.DataFrame:
    """Rows of a run on len(diffs[m]) data sets: ``base`` at 80 + i on data set i, each other method m at that
    plus diffs[m][i], on every fold of every seed."""
    n = len(next(iter(diffs.values())))
    rows = []
    for i in range(n):
        for seed in seeds:
            for fold in range(2):
                acc = {base: 70.0 + i, **{m: 70.0 + i + d[i] for m, d in diffs.items()}}
                for method, value in acc.items():
                    rows.append({"dataset": f"d{i:02d}", "kind": kind, "seed": seed, "fold": fold,
                                 "method": method, "accuracy": value, "refused": "", "error": ""})  # fmt: skip
    return pd.DataFrame(rows)


def test_ivdm_beats_dvdm_is_judged_by_the_sign_test_on_the_data_sets_where_they_differ():
    diffs = np.r_[np.full(21, 1.5), np.full(6, -1.0), np.zeros(6)]  # the 21 wins, 6 losses, 6 ties
    judged = bench_claims.judge_claims(_run({"1-NN IVDM": diffs}))
    row = judged.loc[("IV", "IVDM beats DVDM on data with continuous attributes (1-NN)")]
    assert row["data sets"] == 33 and row["wins / losses / ties"] == "21 / 6 / 6, p = 0.0059"
    # the former share rule counted the 6 ties as failures: 21 of 33 = 0.64, "partly supported"; the sign test on
    # the 27 data sets where they differ is significant (p = 0.006): the better judgement, and the one a test gives
    assert str(share_rule(diffs > 0, supported=0.75, partly=0.5)) == "partly supported"
    assert row["verdict"] == "supported" and row["stability"] == "stable (3 conditions)"
    assert "Holm over 1 tests" in row["judgement"].note


def test_a_conjunction_shows_each_part_and_holm_adjusts_across_the_page():
    n = 28
    over_euclidean = np.r_[np.full(22, 2.0), np.full(5, -1.0), np.zeros(1)]  # p = 0.0015
    over_heom = np.r_[np.full(15, 1.0), np.full(12, -1.0), np.zeros(1)]  # p = 0.70
    run = _run(
        {"1-NN HVDM": np.zeros(n), "1-NN Euclidean": -over_euclidean, "1-NN HEOM": -over_heom},
        kind="nominal",
        base="1-NN VDM",
    )
    judged = bench_claims.judge_claims(run)
    row = judged.loc[("IV", "HVDM beats Euclidean and HEOM on data with nominal attributes (1-NN)")]
    assert row["verdict"] == "partly supported" and row["unadjusted"] == "partly supported"
    assert row["reading"] == (
        "partly supported (1-NN HVDM beats 1-NN Euclidean: supported; "
        "1-NN HVDM beats 1-NN HEOM: not supported: no difference shown)"
    )
    assert row["wins / losses / ties"] == "22 / 5 / 1, p = 0.0015; 15 / 12 / 1, p = 0.7"
    p = stats.binomtest(22, 27).pvalue
    assert f"Holm over 2 tests: p = {2 * p:.2g}" in row["judgement"].note


def test_an_about_as_well_claim_failing_says_which_side():
    rng = np.random.default_rng(3)
    run = _run({"1-NN OMVW": 2.0 + rng.normal(0, 0.5, 46)}, kind="mixed", base="1-NN WOM")
    row = bench_claims.judge_claims(run).loc[("I", "H2: OMVW performs about as well as WOM (1-NN)")]
    assert row["verdict"] == "not supported" and row["reading"] == "not supported: 1-NN OMVW better"


def test_a_claim_part_must_name_its_methods():
    with pytest.raises(ValueError, match="relation"):
        bench_claims.Claim("I", "x", ("nominal",), ("A", "B"), (("beats", "A", "C"),))
    with pytest.raises(ValueError, match="relation"):
        bench_claims.Claim("I", "x", ("nominal",), ("A", "B"), (("better", "A", "B"),))
