"""How much Part IV's two largest data sets move between fold seeds, measured once, outside the book.

Part IV's Table 8 study (``book/wilson1997_hdf/03_accuracy.md``) repeats its ten-fold cross-validation under five
fold seeds, except on the data sets of more than ``REPEAT_UP_TO`` instances (letter, 20,000; shuttle, 58,000), which
it cross-validates under the first seed only (``wilson1997.run(repeat_up_to=...)``): those two cost about 60 % of
a seed's processor time. This script runs exactly what the study would have run for them under all five seeds
(the study's six metrics, ``reuse`` rules, 1-NN, the three tie rules from one search) and writes each seed's
ten-fold mean accuracy:

- ``benchmarks/seed_spread_large.csv``: ``dataset, metric, rule, seed, accuracy`` (percent, full precision);
- ``benchmarks/seed_spread_large.md``: when, on which commit and machine, and how long it took.

The chapter reads the CSV, shows each spread, and checks that the first seed's rows equal its own run, so a
change of the library that moves them fails the chapter until this script is run again.

    python benchmarks/seed_spread_large.py [--n-jobs 2]    # about 13 processor-minutes
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from datetime import datetime, timezone
from pathlib import Path

import pandas as pd

import lazylib
from lazylib.protocols.wilson1997 import facts as exf
from lazylib.protocols.wilson1997 import protocol as ex

HERE = Path(__file__).resolve().parent
SEEDS = (1997, 1998, 1999, 2000, 2001)  # the study's fold seeds
LARGE = ["letter", "shuttle"]
RULES = ("all", "random", "first")
METRICS = {
    "Euclid.": ("euclidean", {"normalize": "std"}),
    "HOEM": "heom",
    "HVDM": "hvdm",
    "DVDM": "dvdm",
    "IVDM": "ivdm",
    "WVDM": "wvdm",
}
REUSE = {
    "IVDM": ("DVDM", ex.only_discrete),
    "WVDM": ("DVDM", ex.only_discrete),
    "HVDM": [("Euclid.", ex.linear_complete), ("DVDM", ex.nominal_complete)],
}


def spread_table(n_jobs: int = 2) -> pd.DataFrame:
    """Each seed's ten-fold mean accuracy (percent) of every metric on letter and shuttle, under each tie rule."""
    runs = ex.run(
        LARGE, METRICS, n_splits=10, ties="all", also_ties=RULES[1:], random_state=list(SEEDS), reuse=REUSE,
        n_jobs=n_jobs, label="seed spread",
    )  # fmt: skip
    rows = []
    for seed in SEEDS:
        for rule in RULES:
            means = 100 * ex.mean_table(ex.under_ties(runs[runs["seed"] == seed].drop(columns="seed"), rule))
            for (name, metric), value in means.stack().items():
                rows.append({"dataset": name, "metric": metric, "rule": rule, "seed": seed, "accuracy": value})
    return pd.DataFrame(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-jobs", type=int, default=2)
    args = parser.parse_args()
    assert SEEDS[0] == exf.PRIMARY_SEED
    wall, cpu = time.time(), time.process_time()
    table = spread_table(args.n_jobs)
    wall = time.time() - wall
    table.to_csv(HERE / "seed_spread_large.csv", index=False, float_format="%.17g")
    info = lazylib.build_info()
    (HERE / "seed_spread_large.md").write_text(
        "# Seed spread of letter and shuttle in Part IV's Table 8 study\n\n"
        "Written by `benchmarks/seed_spread_large.py` (see its docstring); read by "
        "`book/wilson1997_hdf/03_accuracy.md`.\n\n"
        f"- date: {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC\n"
        f"- lazylib: {info}\n"
        f"- machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}\n"
        f"- n_jobs: {args.n_jobs}; wall {wall:.0f} s (the parent process: {time.process_time() - cpu:.0f} "
        "processor-seconds; the workers' are not counted)\n",
        encoding="utf-8",
    )
    print(table.pivot_table(index=["dataset", "metric", "rule"], columns="seed", values="accuracy").round(2))


if __name__ == "__main__":
    main()
