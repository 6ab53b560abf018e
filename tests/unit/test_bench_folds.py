"""Partial failures are never averaged away (issue #54, item 2): a method failing on some folds of a data set is
compared with the others on the folds every method has; a method with no fold at all is left out of the row."""

from __future__ import annotations

import numpy as np
import pandas as pd

from lazylib.protocols.bench import folds as bench_folds
from lazylib.protocols.bench import protocol as bench

A, B, C = "1-NN HVDM", "1-NN Euclidean", "1-NN IVDM"


def _run() -> pd.DataFrame:
    """Two data sets, two seeds of four folds; A (1-NN HVDM) is 5 points above B (1-NN Euclidean) on every fold;
    C (1-NN IVDM) is 5 above A on the folds it finishes, and fails on the two hard folds of d0, where A and B
    score high; C refuses d1."""
    rows = []
    for dataset in ("d0", "d1"):
        for seed in (0, 1):
            for fold in range(4):
                hard = dataset == "d0" and fold >= 2
                acc = {A: 95.0 if hard else 80.0, B: 90.0 if hard else 75.0, C: 60.0 if hard else 85.0}
                for method, value in acc.items():
                    refused = "refuses d1" if (method == C and dataset == "d1") else ""
                    row = {"dataset": dataset, "kind": "nominal", "seed": seed, "fold": fold, "method": method}
                    rows.append(row | {"accuracy": np.nan if refused else value, "refused": refused, "error": ""})
    run = pd.DataFrame(rows)
    fails = (run["dataset"] == "d0") & (run["method"] == C) & (run["fold"] >= 2)
    run.loc[fails, ["accuracy", "error"]] = [np.nan, "MemoryError: cannot allocate"]
    return run


def test_a_method_failing_on_some_folds_is_compared_only_on_the_folds_every_method_has():
    run = _run()
    naive = run.groupby(["dataset", "method"])["accuracy"].mean().unstack()  # pandas' NaN-skipping mean
    assert naive.loc["d0", C] < naive.loc["d0", A]  # 85 against 87.5: A looks better by the folds C lacks
    table = bench.accuracy_table(run)
    # paired on folds 0 and 1 of both seeds: A 80, B 75, C 85: every mean of the row over the same folds
    assert table.loc["d0"].to_dict() == {A: 80.0, C: 85.0, B: 75.0}
    # d1 keeps every fold: C refuses the whole data set, which pairs nothing away
    assert table.loc["d1", [A, B]].tolist() == [80.0, 75.0] and np.isnan(table.loc["d1", C])
    by_seed = bench.accuracy_table(run, by_seed=True)
    assert by_seed.loc[(0, "d0"), A] == 80.0 and by_seed.loc[(1, "d0"), C] == 85.0


def test_what_the_pairing_set_aside_is_listed_with_its_reason():
    failures = bench.accuracy_table(_run()).attrs["fold failures"]
    assert list(failures.columns) == bench_folds.FAILURE_COLUMNS
    assert failures.to_dict("records") == [
        {"dataset": "d0", "method": C, "failed folds": 4, "folds": 8, "error": "MemoryError: cannot allocate",
         "set aside for every method": 4}
    ]  # fmt: skip
    assert bench_folds.fold_failures(_run().query("dataset == 'd1'")).empty


def test_a_method_failing_on_every_fold_is_left_out_of_the_row_not_paired():
    run = _run()
    run.loc[(run["dataset"] == "d1") & (run["method"] == B), ["accuracy", "error"]] = [np.nan, "ValueError: x"]
    table = bench.accuracy_table(run)
    assert np.isnan(table.loc["d1", B]) and table.loc["d1", A] == 80.0  # A keeps its folds
    assert "d1" not in set(table.attrs["fold failures"]["dataset"])


def test_the_claims_compare_the_paired_means():
    from lazylib.protocols.bench import claims as bench_claims

    run = _run()
    tables = bench_claims.conditions(run)
    assert tables[bench_claims.POOLED].loc["d0", C] == 85.0 and tables[(0,)].loc["d0", A] == 80.0
