"""Old engine against new, over every vendored data set and every registered metric (issue 39).

The old engine is a copy of ``lazylib`` from another commit (``git archive <commit> lazylib | tar -x -C DIR``);
for each data set a subprocess runs it (``PYTHONPATH=DIR``) and stores its results in a temporary file, the new
engine (the ``lazylib`` this script imports) computes the same in this process, and the two are compared before
the next data set. Per data set (its first ``--rows`` rows after a seeded shuffle; the first half trains):

- ``pairwise`` of the first ``--queries`` training rows against the training data, and of held-out rows against
  those training rows given as ``B`` (distances);
- k-NN predictions of the held-out rows for k = 1 (tie rule "all") and 7 ("first") and leave-one-out
  predictions for k = 3.

Distances must be bit-equal where the arithmetic is the same, otherwise within the tie tolerance (relative,
``TIE_TOLERANCE``; zeros exactly zero in both); predictions identical. An error (a metric refusing the data) must
be the same error in both. ``WOM`` gets fixed seeded weights (it has no default).

    git archive 43869b4 lazylib | tar -x -C /tmp/base
    PYTHONPATH=$PWD python benchmarks/compare_engine.py --old /tmp/base [--rows 2000] [--datasets iris zoo] \
        [--metrics dvdm]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

#: The tie tolerance of lazylib (relative), within which distances computed by different arithmetic must agree.
TOLERANCE = 1e-9
KNN = ((1, "all"), (7, "first"))
LOO_K = 3


def metric_names() -> list[str]:
    from lazylib.metrics import REGISTRY

    seen, names = set(), []
    for name, cls in REGISTRY.items():  # aliases (hoem) once
        if cls not in seen:
            seen.add(cls)
            names.append(name)
    return names


def params(name: str, m: int) -> dict:
    if name == "wom":
        return {"weights": np.random.default_rng(0).uniform(0.1, 2.0, m)}
    if name == "quadratic":
        return {"Q": np.eye(m) + 0.1}
    return {}


def split(name: str, rows: int, queries: int):
    from lazylib import datasets

    d = datasets.load(name)
    order = np.random.default_rng(0).permutation(len(d.X))[:rows]
    X, y = d.X.iloc[order].reset_index(drop=True), np.asarray(d.y)[order]
    half = len(X) // 2
    return X.iloc[:half], y[:half], X.iloc[half:].iloc[:queries], X.iloc[: min(half, queries)]


def compute(name: str, rows: int, queries: int, metrics: list[str] | None = None) -> dict:
    """Every result of one data set: ``{"metric.what": array}``, ``{"metric.error": message}`` on failure."""
    from lazylib.metrics import make_metric
    from lazylib.neighbors import KNeighborsClassifier

    Xtr, ytr, Xte, Xq = split(name, rows, queries)
    out = {}
    for metric in metrics or metric_names():
        p = params(metric, Xtr.shape[1])
        try:
            m = make_metric(metric, **p).fit(Xtr, ytr)
            out[f"{metric}.train"] = m.pairwise(Xq)
            out[f"{metric}.given"] = m.pairwise(Xte, Xq, y_B=ytr[: len(Xq)])
            for k, ties in KNN:
                clf = KNeighborsClassifier(k, metric, metric_params=p, ties=ties).fit(Xtr, ytr)
                out[f"{metric}.knn{k}{ties}"] = np.asarray(clf.predict(Xte)).astype(str)
            clf = KNeighborsClassifier(LOO_K, metric, metric_params=p).fit(Xtr, ytr)
            out[f"{metric}.loo"] = np.asarray(clf.predict_loo()).astype(str)
        except Exception as exc:  # noqa: BLE001  (a refusal must be the same in both)
            out = {k: v for k, v in out.items() if not k.startswith(f"{metric}.")}
            out[f"{metric}.error"] = np.array(f"{type(exc).__name__}: {exc}")
    return out


def compare(old: dict, new: dict) -> list[tuple[str, str]]:
    """``(key, verdict)`` for every result: "bit-equal", "within tolerance (max rel. diff ...)", "DIFFERENT ..."."""
    verdicts = []
    for key in sorted(set(old) | set(new)):
        if key not in old or key not in new:
            verdicts.append((key, f"DIFFERENT: only in {'new' if key not in old else 'old'}"))
            continue
        a, b = old[key], new[key]
        if a.dtype.kind in "US" or b.dtype.kind in "US":
            same = a.shape == b.shape and bool(np.all(a == b))
            verdicts.append((key, "bit-equal" if same else f"DIFFERENT: {int(np.sum(a != b))} of {a.size}"))
            continue
        if a.shape == b.shape and np.array_equal(a.view(np.uint64), b.view(np.uint64)):
            verdicts.append((key, "bit-equal"))
            continue
        zero_mismatch = int(np.sum((a == 0) != (b == 0)))
        rel = np.abs(a - b) / np.maximum(np.maximum(np.abs(a), np.abs(b)), 1e-300)
        worst = float(rel.max(initial=0.0))
        if zero_mismatch or worst > TOLERANCE:
            verdicts.append((key, f"DIFFERENT: max rel. diff {worst:.2e}, {zero_mismatch} zeros differ"))
        else:
            verdicts.append((key, f"within tolerance (max rel. diff {worst:.1e}, {int(np.sum(a != b))} entries)"))
    return verdicts


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--old", help="directory holding the old lazylib package")
    parser.add_argument("--rows", type=int, default=2000)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--datasets", nargs="*")
    parser.add_argument("--metrics", nargs="*", help="registered names (default: every metric)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)  # internal: write one data set's results here
    args = parser.parse_args(argv)
    if args.worker:
        np.savez(args.worker, **compute(args.datasets[0], args.rows, args.queries, args.metrics))
        return 0
    from lazylib import datasets

    names = args.datasets or datasets.list_datasets()
    counts: dict[str, int] = {}
    failures = []
    for name in names:
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "old.npz")
            env = dict(os.environ, PYTHONPATH=args.old)
            t0 = time.perf_counter()
            cmd = [sys.executable, __file__, "--worker", path, "--datasets", name]
            cmd += ["--rows", str(args.rows), "--queries", str(args.queries)]
            cmd += ["--metrics", *args.metrics] if args.metrics else []
            subprocess.run(cmd, env=env, check=True, cwd=tmp)
            t1 = time.perf_counter()
            new = compute(name, args.rows, args.queries, args.metrics)
            t2 = time.perf_counter()
            with np.load(path) as f:
                old = dict(f)
        verdicts = compare(old, new)
        for key, verdict in verdicts:
            kind = verdict.split(" (")[0].split(":")[0]
            counts[kind] = counts.get(kind, 0) + 1
            if kind == "DIFFERENT":
                failures.append(f"{name} {key}: {verdict}")
            elif kind == "within tolerance":
                print(f"  {name} {key}: {verdict}")
        errors = sum(key.endswith(".error") for key in new)
        timing = f"old {t1 - t0:.1f} s, new {t2 - t1:.1f} s"
        print(f"{name}: {len(verdicts)} results, {errors} refused, {timing}", flush=True)
    print("\nsummary:", ", ".join(f"{v} {k}" for k, v in sorted(counts.items())))
    for line in failures:
        print(line)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.exit(main())
