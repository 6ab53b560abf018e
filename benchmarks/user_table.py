"""`lazylib bench` on a 4,500-row mixed table with missing values, timed once, outside the book (issue 51's goal:
within 15 minutes wall on the 2-core machine with ``--n-jobs 2`` and the default budget).

The table is built by lazylib code and written to a CSV file, as a user's would be: CART's waveform problem
(:func:`lazylib.synthetic.waveform`, 4,500 instances, 21 continuous attributes, 3 classes) with its first six
attributes cut into four named levels each (nominal, relevant), and one cell in twenty unknown. The command runs
as a user runs it (a subprocess), every method of the bench, the default budget; the load average before and
after is written beside the wall time, since on a shared machine it says what the number means.

    python benchmarks/user_table.py [--n-jobs 2] [--out benchmarks/user_table.md]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pandas as pd

import lazylib
from lazylib import synthetic

HERE = Path(__file__).resolve().parent
ROWS = 4500
LEVELS = ["low", "lower", "upper", "high"]


def mixed_frame(rows: int) -> pd.DataFrame:
    """CART's waveform of ``rows`` instances, its first six attributes cut into four named levels, one cell in
    twenty unknown, the class in column ``wave``."""
    X, y = synthetic.waveform(rows, random_state=51)
    for column in X.columns[:6]:
        X[column] = pd.qcut(X[column], 4, labels=LEVELS).astype(object)
    X = X.mask(np.random.default_rng(52).random(X.shape) < 0.05)
    return X.assign(wave=y.astype(str))


def table(path: Path) -> Path:
    """Write the mixed table with missing values to ``path`` (CSV)."""
    mixed_frame(ROWS).to_csv(path, index=False)
    return path


def provenance_rows(started: str, load_before, load_after) -> list[str]:
    """The first rows of a measurement's table: when, which lazylib, which machine, and its load."""
    return [
        "| what | value |",
        "|---|---|",
        f"| date (UTC) | {started} |",
        f"| lazylib | {lazylib.__version__}, commit {lazylib.build_info()['commit']} |",
        f"| machine | {platform.platform()}, {os.cpu_count()} cores (shared), Python {platform.python_version()} |",
        f"| load average before / after (1, 5, 15 min) | {_load(load_before)} / {_load(load_after)} |",
    ]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n-jobs", type=int, default=2)
    parser.add_argument("--out", default=str(HERE / "user_table.md"))
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="lazylib-user-table-"))
    csv = table(work / "waveform_mixed.csv")
    command = [sys.executable, "-m", "lazylib", "bench", str(csv), "--target", "wave", "--report", str(work / "r")]
    command += ["--nominal", ",".join(f"x{i}" for i in range(1, 7)), "--n-jobs", str(args.n_jobs)]
    load_before = os.getloadavg()
    started = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    t0 = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    load_after = os.getloadavg()
    if done.returncode != 0:
        raise SystemExit(f"lazylib bench failed ({done.returncode}): {done.stderr[-2000:]}")
    summary = json.loads((work / "r" / "summary.json").read_text())
    methods = summary["methods"]
    ran = [m for m in methods if m["status"] == "ok"]
    lines = [
        "# `lazylib bench` on a 4,500-row mixed table with missing values",
        "",
        f"Written by `python benchmarks/user_table.py --n-jobs {args.n_jobs}` (its docstring says what the table is).",
        "",
        *provenance_rows(started, load_before, load_after),
        f"| command | `lazylib bench waveform_mixed.csv --target wave --nominal x1,...,x6 --n-jobs {args.n_jobs}` |",
        f"| protocol chosen by the default budget | {summary['provenance']['protocol']} |",
        f"| fold seeds | {len(summary['provenance']['seeds'])} |",
        f"| wall time of the command | {wall / 60:.1f} min ({wall:.0f} s) |",
        f"| methods that ran / refused or failed | {len(ran)} / {len(methods) - len(ran)} |",
        f"| best, recommended | {summary['recommended']['best']}, {summary['recommended']['method']} |",
        "",
        "The command's own output:",
        "",
        "```",
        done.stdout.strip()[-3000:],
        "```",
        "",
    ]
    Path(args.out).write_text("\n".join(lines))
    print("\n".join(lines))


def _load(values) -> str:
    return ", ".join(f"{v:.2f}" for v in values)


if __name__ == "__main__":
    main()
