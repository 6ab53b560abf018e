"""The full run's cost with the current code, estimated from one fold per data set, beside the stored run's.

``benchmarks/bench_fold_cost.py`` times fold 0 of the first fold seed of every data set, every method, under
``bench.FULL``; each data set's fold is multiplied by its number of folds under the protocol (ten per fold seed,
``budget.protocol_sizes``). The stored run (``full_run/full_run.csv.gz``) was timed on other days, under other
loads: the anchor (C4.5 and VFI5, whose code neither run changed) is compared fold 0 against fold 0 for each part
of the stored run (the four data sets re-run under the smooth rule, and the others), so that its ratio says how much
of a difference is the machine's.

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 python benchmarks/bench_fold_cost.py rows.csv <every data set>
    python benchmarks/full_run_estimate.py rows.csv
"""

from __future__ import annotations

import sys

import pandas as pd

from lazylib.protocols.bench import budget
from lazylib.protocols.bench import protocol as bench

ANCHOR = ("C4.5", "VFI5")
#: The data sets of the stored run re-run under the smooth rule on 2026-12-03 (the others are from 2026-11-29).
RERUN = ("satellite", "mushroom", "letter", "shuttle")


def main(path: str) -> None:
    now = pd.read_csv(path)
    stored = pd.read_csv("benchmarks/full_run/full_run.csv.gz")
    sizes = {name: len(bench._prepared(name)["y"]) for name in now["dataset"].unique()}
    folds = budget.protocol_sizes(bench.FULL, sizes)["fold_seeds"] * bench.FULL.n_splits
    fold = now.groupby("dataset")["total_s"].sum()
    table = pd.DataFrame({"fold 0 (s)": fold, "folds": folds.reindex(fold.index)})
    table["estimate (s)"] = table["fold 0 (s)"] * table["folds"]
    table["stored (s)"] = stored.groupby("dataset")["total_s"].sum().reindex(fold.index)
    print(table.sort_values("stored (s)", ascending=False).head(8).round(1).to_markdown())
    total, old = table["estimate (s)"].sum() / 3600, table["stored (s)"].sum() / 3600
    print(f"\nestimate {total:.2f} processor-hours; the stored run's rows {old:.2f}")
    first = stored[(stored["seed"] == bench.FULL.seeds()[0]) & (stored["fold"] == 0)]
    pairs = first.merge(now, on=["dataset", "method"], suffixes=("_stored", "_now"))
    same_conditions = 0.0
    for part, rows in pairs.groupby(pairs["dataset"].isin(RERUN)):
        anchor = rows[rows["method"].isin(ANCHOR)]
        ratio = anchor["total_s_now"].sum() / anchor["total_s_stored"].sum()
        names = set(rows["dataset"])
        part_stored = stored.loc[stored["dataset"].isin(names), "total_s"].sum() / 3600
        same_conditions += part_stored * ratio
        label = "re-run 2026-12-03" if part else "run 2026-11-29"
        print(f"{label} ({len(names)} data sets): anchor now / stored {ratio:.2f}; stored {part_stored:.2f} h")
    print(f"the stored run's code in today's conditions (its rows times the anchor's ratios): {same_conditions:.2f} h")
    by_method = now.assign(s=now["total_s"] * now["dataset"].map(table["folds"])).groupby("method")["s"].sum() / 3600
    top = by_method.sort_values(ascending=False).head(8)
    print("by method (h):", ", ".join(f"{m} {h:.3f}" for m, h in top.items()))


if __name__ == "__main__":
    main(sys.argv[1])
