"""Processor seconds of one fold of the bench, per method (the first fold seed of the full run, fold 0), through
the bench's own job function under the full run's protocol (``bench.FULL``: letter and shuttle with their training
parts sampled), one method at a time, appended row by row to a CSV (README, "Measured costs").

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 python benchmarks/bench_fold_cost.py out.csv segment letter ...
"""

import csv
import dataclasses
import os
import sys
import time

from lazylib.protocols.bench import protocol as bench
from lazylib.protocols.bench.methods import METHOD_NAMES

#: Methods that cost the most on large data sets, measured last.
SLOW_LAST = ("MC", "k-NN OM", "k-NN WOM", "k-NN OMVW", "1-NN OM", "1-NN WOM", "1-NN OMVW")
COLUMNS = ["dataset", "method", "accuracy", "fit_s", "predict_s", "total_s", "job_cpu_s", "wall_s", "refused", "error"]


def main(out: str, names: list[str]) -> None:
    seed = bench.FULL.seeds()[0]
    order = [m for m in METHOD_NAMES if m not in SLOW_LAST] + list(SLOW_LAST)
    new = not os.path.exists(out)
    with open(out, "a", newline="") as fh:
        writer = csv.writer(fh)
        if new:
            writer.writerow(COLUMNS)
        for name in names:
            for method in order:
                config = dataclasses.replace(bench.FULL, datasets=(name,), n_seeds=1, methods=(method,))
                t0, c0 = time.perf_counter(), time.process_time()
                _, rows = bench._job(config, (name, seed, 0))
                r = rows[0]
                cpu, wall = time.process_time() - c0, time.perf_counter() - t0
                writer.writerow([name, method, r["accuracy"], r["fit_s"], r["predict_s"], r["total_s"], cpu, wall,
                                 r["refused"], r["error"]])  # fmt: skip
                fh.flush()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
