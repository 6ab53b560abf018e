"""What each speed-up of the metric engine gains, in one run (issue 10); see ``lazylib/metrics/README.md``.

Workload: that of ``benchmarks/run.py`` (8 nominal + 8 continuous attributes, 2% missing, 3 classes), ``n``
stored instances and 1,000 queries, HVDM unless said otherwise. Each row times the engine with one speed-up
and without it (switched off by patching the engine, results unchanged), the fastest of 3 runs, wall and CPU
seconds (the machine is shared: CPU time is the fairer figure). The last two rows put ``pairwise`` beside one
float64 matrix product of the same shape (queries x columns of the plan, times columns x stored instances), for
new queries and for training instances as queries (each then has a sum near zero to recompute exactly).

    python benchmarks/speedups.py [--n 20000] [--output benchmarks/speedups.md]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from unittest import mock

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from run import workload  # noqa: E402

from lazylib import search as _search  # noqa: E402
from lazylib.metrics import make_metric

REPEATS = 3


def best_of(func, repeats: int = REPEATS) -> tuple[float, float]:
    """Fastest (wall, CPU) seconds of ``repeats`` runs."""
    wall, cpu = [], []
    for _ in range(repeats):
        w0, c0 = time.perf_counter(), time.process_time()
        func()
        wall.append(time.perf_counter() - w0)
        cpu.append(time.process_time() - c0)
    return min(wall), min(cpu)


def search(metric, Q, k: int = 1):
    for _ in metric.nearest_groups(Q, k):
        pass


def rows(n: int) -> list[tuple[str, str, tuple[float, float], tuple[float, float]]]:
    X, y, Q, types = workload(n)
    out = []
    hvdm = make_metric("hvdm").fit(X, y, types=types)
    search(hvdm, Q[:10])  # builds the stored side

    # 1. the bilinear product against one term matrix per attribute
    plan = hvdm._plan(hvdm._encode_like_fit(Q, "A"), hvdm.X_, hvdm.y_)
    q, s = plan.query, plan.stored

    def per_attribute():
        S = np.zeros((len(Q), len(X)))
        for a in range(q.alpha.shape[1]):
            cols = q.block == a
            S += q.alpha[:, a][:, None] + s.alpha[:, a][None, :] + q.psi[:, cols] @ s.psi[:, cols].T
        return S

    out.append(
        (
            "bilinear product (pairwise, no refinement)",
            "one term matrix per attribute",
            best_of(lambda: plan.left @ plan.right.T),
            best_of(per_attribute),
        )
    )

    # 2. the training data's stored side built once
    out.append(
        (
            "stored side built once (pairwise against the training data)",
            "rebuilt at each call",
            best_of(lambda: hvdm.pairwise(Q)),
            best_of(lambda: hvdm.pairwise(Q, X)),
        )
    )

    # 3. the single-precision filter of the search
    with mock.patch.object(_search, "_single_precision", lambda plan: None):
        rows_only = best_of(lambda: search(hvdm, Q))
    out.append(
        (
            "single-precision filter (1-NN search)",
            "whole rows in double precision",
            best_of(lambda: search(hvdm, Q)),
            rows_only,
        )
    )

    # 4. grouping identical stored sides (DVDM on rounded data: many identical stored instances)
    #    on 3 nominal attributes and 1 continuous one, discretised: a few thousand distinct stored sides)
    keep = [0, 1, 2, 8]
    Xc, Qc, tc = X[:, keep], Q[:, keep], [types[a] for a in keep]
    grouped = make_metric("dvdm").fit(Xc, y, types=tc)
    search(grouped, Qc[:10])
    with mock.patch.object(_search, "find_groups", lambda stored: None):
        plain = make_metric("dvdm").fit(Xc, y, types=tc)
        search(plain, Qc[:10])
        ungrouped = best_of(lambda: search(plain, Qc))
    n_groups = (
        "?"
        if grouped._declaration.training_sides[True].grouped is None
        else len(grouped._declaration.training_sides[True].grouped[0])
    )
    out.append(
        (
            f"groups of identical stored sides (DVDM 1-NN, {n_groups} groups)",
            "every stored instance",
            best_of(lambda: search(grouped, Qc)),
            ungrouped,
        )
    )

    # 5. pairwise beside one float64 product of the same shape
    A = np.random.default_rng(0).random(plan.left.shape)
    B = np.random.default_rng(1).random(plan.right.shape)
    out.append(
        (
            f"one float64 product ({A.shape[1]} wide)",
            "pairwise (HVDM, 1,000 queries, training data)",
            best_of(lambda: A @ B.T),
            best_of(lambda: hvdm.pairwise(Q)),
        )
    )
    # every query at distance 0 from its own stored instance: each row holds a sum recomputed near zero
    own = X[: len(Q)].copy()
    out.append(
        (
            f"one float64 product ({A.shape[1]} wide)",
            "pairwise (HVDM, 1,000 training instances as queries)",
            best_of(lambda: A @ B.T),
            best_of(lambda: hvdm.pairwise(own)),
        )
    )
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=20000)
    parser.add_argument("--output", default=None)
    args = parser.parse_args()
    lines = [
        f"# Speed-ups of the metric engine ({args.n} stored instances, 1,000 queries)",
        "",
        "Fastest of 3 runs; wall and CPU seconds; gain = CPU without / CPU with. The last two rows are the cost",
        "of `pairwise` in float64 products of the same shape (issue 10's target: at most 3).",
        "",
        "| with | without | wall with | CPU with | wall without | CPU without | gain (CPU) |",
        "|---|---|---|---|---|---|---|",
    ]
    for with_, without, (w1, c1), (w0, c0) in rows(args.n):
        lines.append(f"| {with_} | {without} | {w1:.3f} | {c1:.3f} | {w0:.3f} | {c0:.3f} | {c0 / max(c1, 1e-9):.2f} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.output:
        Path(args.output).write_text(text)


if __name__ == "__main__":
    main()
