"""How the bench's learners grow with the training size (issue #52 item 4): one fold's fit + predict, processor
seconds, per learner, on stratified training samples of 1,000 to 20,000 rows of a large data set, through the
bench's own fold function (``bench._fold_rows``, the full run's protocol: symbolic learners on 8 equal-width
bins, Part II's learners under range scaling), one BLAS thread, then the growth exponent between consecutive
sizes, ``log(t2 / t1) / log(n2 / n1)``.

Every case has a test part of the same 1,000 rows held out of every training sample. A case is skipped, and
marked so, when the time of the size before it, grown at the larger of its last exponent and 1, would pass
``--cap`` seconds. The machine's load average is written beside every row.

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 python benchmarks/learners.py --dataset shuttle --cap 60 \\
        --out benchmarks/learners.csv
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import math
import os
import time

import numpy as np
from sklearn.model_selection import train_test_split
from threadpoolctl import threadpool_limits

from lazylib.protocols.bench import protocol as bench

#: The learners of issue #52 item 4 (and FD, the anchor of MDW's goal).
LEARNERS = ("FD", "MDW", "IG", "1-NN WOM", "k-NN WOM", "CA", "CACP", "NN", "FNN", "MC")
SIZES = (1000, 2000, 5000, 10000, 20000)
TEST = 1000
COLUMNS = ["dataset", "method", "n_train", "accuracy", "fit_s", "predict_s", "total_s", "exponent", "load", "note"]


def folds(y, sizes, seed: int = 52):
    """(size, (train, test)): the same ``TEST`` held-out rows for every size, each training part a stratified
    sample of the other rows (scikit-learn's ``train_test_split``), in increasing order."""
    rest, test = train_test_split(np.arange(len(y)), test_size=TEST, stratify=y, random_state=seed)
    for n in sizes:
        if n > len(rest):
            yield n, None
            continue
        train = (
            rest
            if n == len(rest)
            else train_test_split(rest, train_size=n, stratify=y.iloc[rest], random_state=seed)[0]
        )
        yield n, (np.sort(train), np.sort(test))


def main(dataset: str, learners, sizes, cap: float, out: str) -> None:
    data = bench._prepared(dataset)
    seed = bench.FULL.seeds()[0]
    new = not os.path.exists(out)
    with open(out, "a", newline="") as fh, threadpool_limits(1):
        writer = csv.writer(fh)
        if new:
            writer.writerow(COLUMNS)
        for method in learners:
            config = dataclasses.replace(bench.FULL, datasets=(dataset,), n_seeds=1, methods=(method,))
            last = None  # (n, seconds, exponent)
            for n, fold in folds(data["y"], sizes):
                load = os.getloadavg()[0]
                row = [dataset, method, n]
                if fold is None:
                    writer.writerow(row + [""] * 5 + [f"{load:.2f}", f"the data set has fewer than {n + TEST} rows"])
                    continue
                if last is not None:
                    grown = last[1] * (n / last[0]) ** max(last[2] or 1.0, 1.0)
                    if grown > cap:
                        writer.writerow(
                            row + [""] * 5 + [f"{load:.2f}", f"skipped: about {grown:.0f} s > cap {cap:g} s"]
                        )
                        fh.flush()
                        continue
                t0 = time.perf_counter()
                r = bench._fold_rows(config, dataset, data, seed, 0, fold)[0]
                wall = time.perf_counter() - t0
                total = r["total_s"]
                exponent = None if last is None else math.log(total / last[1]) / math.log(n / last[0])
                note = r["refused"] or r["error"] or f"wall {wall:.1f} s"
                writer.writerow(
                    row
                    + [r["accuracy"], r["fit_s"], r["predict_s"], total, "" if exponent is None else f"{exponent:.2f}"]
                    + [f"{load:.2f}", note]
                )
                fh.flush()
                print(method, n, f"{total:.2f} s", "" if exponent is None else f"n^{exponent:.2f}", f"load {load:.2f}")
                if r["refused"] or r["error"]:
                    break
                last = (n, total, exponent)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default="shuttle")
    parser.add_argument("--learners", nargs="*", default=list(LEARNERS))
    parser.add_argument("--sizes", nargs="*", type=int, default=list(SIZES))
    parser.add_argument("--cap", type=float, default=60.0, help="seconds a case may be expected to take")
    parser.add_argument("--out", default="benchmarks/learners.csv")
    args = parser.parse_args()
    main(args.dataset, args.learners, args.sizes, args.cap, args.out)
