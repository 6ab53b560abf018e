"""What the smooth rule makes of a large table (issue #52 item 6): fold seeds, training sample and predicted cost of a
bench of every method, from 10,000 to 1,000,000 rows, with one job run whole to check the prediction.

The table is ``benchmarks/user_table.py``'s (CART's waveform, 21 attributes, the first six cut into four named
levels, one cell in twenty unknown), drawn at each size. For each size the run a user's table gets
(``lazylib bench``: ``Config(large_rule="smooth")``, five fold seeds before the rule) is described by
:func:`lazylib.protocols.bench.budget.protocol_sizes` and priced by the budget's own pilot
(:func:`~lazylib.protocols.bench.budget.estimate` with ``pilot_train``: one fold of every method on a stratified
sample of the training part, the test fold whole, scaled to the planned sample by the stated cost model,
exponent 2); the prediction is the budget's, not a fit to this table. ``--check`` sizes also run one job (fold 0
of the first fold seed, every method) at its planned sample and compare its processor seconds with the
prediction. Nothing here is cached; the load average is written beside the numbers.

    python benchmarks/large_table.py [--sizes 10000 20000 100000 1000000] [--check 20000] [--pilot-train 2000]
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import pandas as pd

from lazylib.datasets.frame import from_frame
from lazylib.protocols.bench import budget
from lazylib.protocols.bench.protocol import Config, run

sys.path.insert(0, str(Path(__file__).resolve().parent))

from user_table import mixed_frame, provenance_rows  # noqa: E402

HERE = Path(__file__).resolve().parent


def table(rows: int):
    """The mixed waveform table of ``rows`` instances (``user_table.mixed_frame``), as a Table."""
    return from_frame(mixed_frame(rows), "wave", name=f"waveform_{rows}")


def measure(rows: int, pilot_train: int, check: bool, cuts=()) -> tuple[dict, list]:
    """The rule's protocol for a table of ``rows``, the pilot's prediction and, with ``check``, one job measured;
    then that job with its training sample cut to each of ``cuts`` rows, beside what the budget's cut model
    predicts from the whole job (``budget.CUT_EXPONENT``) and what the n^2 model it replaced predicted."""
    t = table(rows)
    config = Config(datasets=(), tables=((t.name, t.sha256),), n_seeds=5, large_rule="smooth")
    sizes = budget.protocol_sizes(config, {t.name: rows}).iloc[0]
    start = time.perf_counter()
    est = budget.estimate(config, {t.name: t}, pilot_train=pilot_train, progress=False)
    out = {
        "rows": rows,
        "fold seeds": int(sizes["fold_seeds"]),
        "training sample": int(sizes["training_instances"]),
        "pilot wall s": round(time.perf_counter() - start, 1),
        "predicted job s": round(float(est.job_seconds().iloc[0]), 1),
        "predicted wall h, 1 worker": round(float(est.wall(1)) / 3600, 2),
        "predicted wall h, 2 workers": round(float(est.wall(2)) / 3600, 2),
        "predicted wall h, 64 workers": round(float(est.wall(64)) / 3600, 2),
        "pilot load": round(est.load, 2),
    }
    if check:
        start = time.perf_counter()
        one = run(dataclasses.replace(config, n_seeds=1), tables={t.name: t}, n_jobs=1, folds=[0], progress=False)
        out["measured job s"] = round(float(one["total_s"].sum()), 1)
        out["measured job wall s"] = round(time.perf_counter() - start, 1)
        out["measured / predicted"] = round(out["measured job s"] / (out["predicted job s"] / est.load), 2)
    cut_rows = []
    for cap in cuts if check else ():
        cut = dataclasses.replace(config, n_seeds=1, max_train=cap)
        one = run(cut, tables={t.name: t}, n_jobs=1, folds=[0], progress=False)
        share = cap / out["training sample"]
        cut_rows.append({
            "rows": rows, "training rows": cap, "measured job s": round(float(one["total_s"].sum()), 1),
            "cut model (n^1)": round(out["measured job s"] * share**budget.CUT_EXPONENT, 1),
            "n^2 model (before)": round(out["measured job s"] * share**2, 1),
        })  # fmt: skip
    return out, cut_rows


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 20_000, 100_000, 1_000_000])
    parser.add_argument("--check", type=int, nargs="*", default=[20_000], help="sizes whose one job is also run")
    parser.add_argument("--pilot-train", type=int, default=2000)
    parser.add_argument("--cuts", type=int, nargs="*", default=[], help="training rows of cut jobs of --check sizes")
    parser.add_argument("--out", default=str(HERE / "large_table.md"))
    args = parser.parse_args(argv)
    load_before = os.getloadavg()
    started = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    measured = [measure(n, args.pilot_train, n in args.check, args.cuts) for n in args.sizes]
    found, cuts = [m[0] for m in measured], [row for m in measured for row in m[1]]
    load_after = os.getloadavg()
    frame = pd.DataFrame(found).fillna("")
    lines = [
        "# A large table under the smooth rule: fold seeds, training sample, predicted cost",
        "",
        f"Written by `python benchmarks/large_table.py --sizes {' '.join(map(str, args.sizes))} --check "
        f"{' '.join(map(str, args.check))} --pilot-train {args.pilot_train}"
        + (f" --cuts {' '.join(map(str, args.cuts))}" if args.cuts else "")
        + "` (its docstring says what is run).",
        "",
        *provenance_rows(started, load_before, load_after),
        "",
        frame.to_markdown(index=False),
        "",
        "A job is one fold of every method; the predicted walls are the run's jobs on one worker or "
        "shared evenly by 2 or 64 workers (never less than the longest job). `pilot load` is "
        "the pilot's wall over its processor seconds (the machine's load), carried into the predictions; "
        "`measured / predicted` compares processor seconds, the load taken out.",
        "",
    ]
    if cuts:
        lines += [
            "The checked jobs cut to fewer training rows, as the budget of `lazylib bench` cuts a sample to fit its "
            "minutes, beside the processor seconds the budget's cut model predicts from the whole job (a job "
            "shrinking linearly, `budget.CUT_EXPONENT`) and those the n^2 model before it predicted:",
            "",
            pd.DataFrame(cuts).to_markdown(index=False),
            "",
        ]
    Path(args.out).write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
