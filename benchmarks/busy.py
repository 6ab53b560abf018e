"""Speed that holds on a busy machine (issue 52 item 2): every case timed with the BLAS threads as they are and on
one thread, alternated in one run, while the machine is loaded to at least twice its cores.

The load: ``--loaders`` processes (default: twice the cores, less one for this process), each spinning in a
Python loop, started before the first case; the run waits until the load average of the last minute reaches
twice the cores less a half (at most ``--settle`` seconds; with twice the cores busy it approaches that from
below) and notes it at every measurement. Other sessions on a shared machine add to it; the table gives the
load seen.

The cases (the workload of ``benchmarks/run.py``: 8 nominal attributes of 5-10 values and 8 continuous ones, 2 %
unknown cells, 3 classes):

- HVDM 10-NN, 100,000 stored, 10,000 queries (``kneighbors``; the case of the issue: 31-37 s as is against
  8.1-8.7 s on one thread at a load of 4-6 before the engine chose its threads by the load);
- HVDM and IVDM 1-NN ``predict``, 50,000 stored, 1,000 queries;
- the full HVDM ``pairwise``, 1,000 x 50,000, and one float64 product of its plan's shape (the goal: within 3
  products under either setting), and a small ``pairwise`` (2,000 x 500);
- HVDM's fit on 100,000 rows;
- for reference, two that do not choose their threads: scikit-learn's brute-force 10-NN on a one-hot +
  standardised float32 embedding (its fastest documented form), 10,000 queries against 100,000, and one float32
  product of that embedding's shape (the physical reference of ``benchmarks/million.py``).

Each case runs once untimed, then ``--repeats`` times in each setting (a fast case more often, about
``MIN_SECONDS`` in each), the two settings alternated (which goes first alternates too); the table gives the
median and the fastest of each, and judges the goal (as is at most 1.25 times one thread) on the medians.

    PYTHONPATH=$PWD python benchmarks/busy.py [--repeats 3] [--loaders N] [--output benchmarks/busy.md]
"""

from __future__ import annotations

import argparse
import datetime
import multiprocessing
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from million import embedding  # noqa: E402
from run import cpu_model, workload  # noqa: E402

#: The goal of item 2: with the threads as they are, at most this times the one-thread time.
GOAL = 1.25
#: The goal for the full ``pairwise``: within this many float64 products of its plan's shape.
PRODUCTS = 3.0
K = 10
#: A case faster than this runs more than ``--repeats`` times, up to MAX_REPEATS, so that each setting takes
#: about this many seconds.
MIN_SECONDS, MAX_REPEATS = 8.0, 15


def _spin() -> None:  # a loader: one busy core
    x = 0
    while True:
        x += 1


def cases() -> dict:
    """name -> (callable timed, kind): kind "ours" (lazylib, the goal applies), "product" (the float64 product
    the full pairwise is judged against) or "reference" (an anchor that does not choose its threads)."""
    from sklearn.neighbors import KNeighborsClassifier as SkKNN

    from lazylib.metrics import make_metric
    from lazylib.neighbors import KNeighborsClassifier

    out = {}
    X, y, Q, types = workload(100_000, 10_000)
    clf10 = KNeighborsClassifier(K, "hvdm").fit(X, y, types=types)
    clf10.kneighbors(Q[:1])  # the stored side is built on the first query
    out["HVDM 10-NN, 100,000 stored, 10,000 queries"] = (lambda: clf10.kneighbors(Q), "ours")
    out["HVDM fit, 100,000 rows"] = (lambda: KNeighborsClassifier(K, "hvdm").fit(X, y, types=types), "ours")
    E = embedding(X, X, types)
    EQ = embedding(Q, X, types)
    sk = SkKNN(K, algorithm="brute").fit(E, y)
    out["sklearn brute 10-NN (float32 one-hot), same shape"] = (lambda: sk.kneighbors(EQ), "reference")
    block = 10_000

    def product32():
        for lo in range(0, len(E), block):
            EQ @ E[lo : lo + block].T

    out["one float32 product of that shape"] = (product32, "reference")

    X, y, Q, types = workload(50_000)
    for name in ("hvdm", "ivdm"):
        clf = KNeighborsClassifier(1, name).fit(X, y, types=types)
        clf.predict(Q[:50])
        out[f"{name.upper()} 1-NN predict, 50,000 stored, 1,000 queries"] = (lambda clf=clf: clf.predict(Q), "ours")
    hvdm = make_metric("hvdm").fit(X, y, types=types)
    hvdm.pairwise(Q[:10])
    p = hvdm._plan(hvdm._encode_like_fit(Q, "A"), hvdm.X_, hvdm.y_, training=True)
    left, right = np.ascontiguousarray(p.left), np.ascontiguousarray(p.right)
    out["HVDM pairwise, 1,000 x 50,000"] = (lambda: hvdm.pairwise(Q), "ours")
    out["one float64 product of its plan"] = (lambda: left @ right.T, "product")
    Xs, ys, Qs, ts = workload(2000, 500)
    small = make_metric("hvdm").fit(Xs, ys, types=ts)
    small.pairwise(Qs[:10])
    out["HVDM pairwise, small: 500 x 2,000"] = (lambda: small.pairwise(Qs), "ours")
    return out


def measure(func, repeats: int) -> dict:
    """Wall seconds and the load of each run, both settings alternated."""
    from threadpoolctl import threadpool_limits

    seen = {None: [], 1: []}
    loads = []
    t0 = time.perf_counter()
    func()  # warm: first allocations and caches, so that neither setting pays them
    # a fast case runs more often (about MIN_SECONDS in each setting): one run disturbed by the load moves a
    # median of four
    repeats = max(repeats, min(MAX_REPEATS, int(MIN_SECONDS / max(time.perf_counter() - t0, 1e-3))))
    for r in range(repeats):
        for threads in (None, 1) if r % 2 == 0 else (1, None):
            loads.append(os.getloadavg()[0])
            with threadpool_limits(limits=threads):  # every pool: BLAS and OpenMP (scikit-learn float32)
                t0 = time.perf_counter()
                func()
                seen[threads].append(time.perf_counter() - t0)
    return {"as_is": seen[None], "one": seen[1], "loads": loads}


def _commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    except OSError:
        return "unknown"


def table(results: dict, kinds: dict) -> list[str]:
    lines = [
        "| case | as is: median s | one thread: median s | as is / one thread | fastest: as is / one | load seen | "
        "goal (as is <= 1.25 x one) |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, r in results.items():
        a, o = statistics.median(r["as_is"]), statistics.median(r["one"])
        ratio = a / o
        goal = {"ours": "met" if ratio <= GOAL else "missed", "product": "(anchor)", "reference": "(reference)"}
        lines.append(
            f"| {name} | {a:.3f} | {o:.3f} | {ratio:.2f} | {min(r['as_is']):.3f} / {min(r['one']):.3f} | "
            f"{min(r['loads']):.1f}-{max(r['loads']):.1f} | {goal[kinds[name]]} |"
        )
    return lines


def products_line(results: dict) -> str:
    ours, prod = results["HVDM pairwise, 1,000 x 50,000"], results["one float64 product of its plan"]
    parts = []
    for key, label in (("as_is", "as is"), ("one", "one thread")):
        ratio = statistics.median(ours[key]) / statistics.median(prod[key])
        parts.append(f"{label} {ratio:.2f} products ({'met' if ratio <= PRODUCTS else 'missed'})")
    return "The full HVDM `pairwise` in float64 products of its plan's shape (medians; goal <= 3): " + ", ".join(parts)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    cores = len(os.sched_getaffinity(0))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--loaders", type=int, default=2 * cores - 1, help="spinning processes (default 2 x cores - 1)")
    parser.add_argument("--settle", type=float, default=240.0, help="seconds to wait for the load to build")
    parser.add_argument("--output")
    args = parser.parse_args(argv)

    load_before = os.getloadavg()
    started = datetime.datetime.now(datetime.timezone.utc)
    loaders = [multiprocessing.Process(target=_spin, daemon=True) for _ in range(args.loaders)]
    for p in loaders:
        p.start()
    try:
        built = cases()  # the data and fitted models, built while the load rises
        t0 = time.perf_counter()
        while os.getloadavg()[0] < 2 * cores - 0.5 and time.perf_counter() - t0 < args.settle:
            time.sleep(2)
        results = {}
        for name, (func, _) in built.items():
            results[name] = measure(func, args.repeats)
            print(name, {k: [round(v, 3) for v in vals] for k, vals in results[name].items()}, flush=True)
    finally:
        for p in loaders:
            p.terminate()
    kinds = {name: kind for name, (_, kind) in built.items()}
    import threadpoolctl

    blas = [f"{p['internal_api']} {p['num_threads']} threads" for p in threadpoolctl.threadpool_info()]
    head = (
        f"Machine: {cpu_model()}, {cores} cores ({platform.machine()}), Python {platform.python_version()}, numpy "
        f"{np.__version__}, BLAS {', '.join(blas)} as is; commit {_commit()}; {started:%Y-%m-%d %H:%M} UTC; "
        f"{args.loaders} spinning loaders; load average (1 min) {load_before[0]:.1f} before they started; "
        f"`python benchmarks/busy.py --repeats {args.repeats}`."
    )
    lines = [head, "", *table(results, kinds), "", products_line(results) + "."]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.output:
        path = Path(args.output)
        body = path.read_text() if path.exists() else ""
        marker = "<!-- measured -->"
        body = body.split(marker)[0] if marker in body else body
        tmp = path.with_suffix(".tmp")
        tmp.write_text(body + marker + "\n" + text)
        os.replace(tmp, path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
