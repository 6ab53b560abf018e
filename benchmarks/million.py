"""Exact mixed-data neighbours from 10^4 to 10^6 stored rows (issue #52 item 1), side by side in one run.

The workload of ``benchmarks/run.py`` (8 nominal attributes of 5-10 values, 8 continuous ones on scales from 1e-3
to 1e4, 2 % unknown cells in stored rows and queries alike, 3 classes), 10,000 queries, k = 10:

- lazylib's ``KNeighborsClassifier(10, metric).fit`` then ``kneighbors`` for HVDM and IVDM (fit: the probability
  tables, IVDM's curves and the stored side; query: the search);
- scikit-learn's brute-force ``KNeighborsClassifier(10, algorithm="brute")`` on a one-hot + standardised float32
  embedding of the same data (its fastest documented form: float32 input is computed in float32), query only;
- the physical reference: one float32 product of the embedding's shape (10,000 x width times width x n), in
  blocks of stored rows so that it fits in memory.

Each case runs in a process of its own, so its peak resident memory (``ru_maxrss``, the data included) is its own.
The neighbours are checked against a float64 reference: for a sample of queries, the distances to every stored
row from ``pairwise`` (float64, the metric's own formula; ``tests/`` check it against the papers' formulas term
by term) and their k smallest; the search's k distances must equal them to 1e-9 (relative) and its neighbours
must be among the rows at those distances (ties may be broken either way). The growth exponent is that of the
query time from one size to the next. Run with the BLAS threads as they are and with one (``--blas-threads 1``);
the load average is printed with the table.

    PYTHONPATH=$PWD python benchmarks/million.py [--sizes 10000 100000 1000000] [--queries 10000] [--output F]
        [--cases hvdm ivdm sklearn product] [--blas-threads 1]

``--cases`` runs some of the cases alone (``--cases ivdm --sizes 1000000``: IVDM at a million rows only); a
ratio whose anchor was not run reads "(not run)".
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import platform
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from run import cpu_model, workload  # noqa: E402

K = 10
CHECKED = 50  # queries whose neighbours are checked against the float64 reference


def embedding(X, ref, types) -> np.ndarray:
    """One-hot nominal columns and standardised continuous ones (an unknown value: no indicator, the mean)."""
    parts = []
    for a, kind in enumerate(types):
        col = X[:, a]
        if kind == "nominal":
            values = np.unique(ref[~np.isnan(ref[:, a]), a])
            parts.append((col[:, None] == values[None, :]).astype(np.float32))
        else:
            mu, sd = np.nanmean(ref[:, a]), np.nanstd(ref[:, a])
            parts.append(((np.where(np.isnan(col), mu, col) - mu) / sd).astype(np.float32)[:, None])
    return np.hstack(parts)


def _ours(metric: str, X, y, Q, types) -> dict:
    from lazylib.neighbors import KNeighborsClassifier

    t0 = time.perf_counter()
    clf = KNeighborsClassifier(K, metric).fit(X, y, types=types)
    clf.kneighbors(Q[:1])  # the stored side is built on the first query
    t1 = time.perf_counter()
    dist, ind = clf.kneighbors(Q)
    t2 = time.perf_counter()
    rng = np.random.default_rng(0)
    sample = rng.choice(len(Q), min(CHECKED, len(Q)), replace=False)
    worst, outside = 0.0, 0
    for i in sample:
        ref = clf.metric_.pairwise(Q[i : i + 1])[0]  # float64, every stored row
        kth = np.partition(ref, K - 1)[:K]
        expected = np.sort(kth)
        worst = max(worst, float(np.max(np.abs(dist[i] - expected) / np.maximum(expected, 1e-300))))
        outside += int(np.sum(ref[ind[i]] > expected[-1] * (1 + 1e-9)))
    return {"fit_s": t1 - t0, "query_s": t2 - t1, "checked": len(sample), "worst_rel": worst, "outside": outside}


def _sklearn(X, y, Q, types) -> dict:
    from sklearn.neighbors import KNeighborsClassifier as SK

    E, Eq = embedding(X, X, types), embedding(Q, X, types)
    clf = SK(n_neighbors=K, algorithm="brute").fit(E, y)
    t0 = time.perf_counter()
    clf.kneighbors(Eq)
    return {"query_s": time.perf_counter() - t0, "width": E.shape[1]}


def _product(X, y, Q, types) -> dict:
    E, Eq = embedding(X, X, types), embedding(Q, X, types)
    block = max(1, int(256 * 2**20 // (4 * len(Eq))))  # stored rows per block: 256 MiB of results
    t0 = time.perf_counter()
    for lo in range(0, len(E), block):
        Eq @ E[lo : lo + block].T
    return {"query_s": time.perf_counter() - t0, "width": E.shape[1]}


CASES = {"hvdm": lambda *a: _ours("hvdm", *a), "ivdm": lambda *a: _ours("ivdm", *a), "sklearn": _sklearn}
CASES["product"] = _product


def _child(case: str, n: int, queries: int, threads: int | None) -> dict:
    from threadpoolctl import threadpool_limits

    X, y, Q, types = workload(n, queries)
    with threadpool_limits(limits=threads, user_api="blas"):
        out = CASES[case](X, y, Q, types)
    out["peak_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return out


def _run(case, n, queries, threads) -> dict:
    cmd = [sys.executable, __file__, "--child", case, "--sizes", str(n), "--queries", str(queries)]
    if threads:
        cmd += ["--blas-threads", str(threads)]
    t0 = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, check=True)
    out = json.loads(done.stdout.strip().splitlines()[-1])
    out["wall_s"] = time.perf_counter() - t0
    return out


#: The anchors of the ratios, and the digits each ratio is shown with.
ANCHORS = (("sklearn", 2), ("product", 1))


def _ratio(r: dict, anchor: dict | None, digits: int) -> str:
    """``r``'s query time over the anchor's, or "(not run)" when the anchor was not run (``--cases``)."""
    return "(not run)" if anchor is None else f"{r['query_s'] / anchor['query_s']:.{digits}f}"


def _table(results: dict, sizes, queries, threads, load) -> str:
    lines = [
        f"Machine: {cpu_model()}, {os.cpu_count()} cores, Python {platform.python_version()}, numpy {np.__version__}; "
        f"{datetime.date.today().isoformat()}; BLAS threads {'as they are' if not threads else threads}; {queries:,} "
        f"queries, k = {K}; load average (1 min) {load[0]:.1f} at the start, {load[1]:.1f} at the end.",
        "",
        "| stored rows | case | fit s | query s | fit + query s | peak MiB | query / sklearn | query / product | "
        "growth | exact |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for case in [c for c in CASES if any((c, n) in results for n in sizes)]:
        previous = None
        for n in [n for n in sizes if (case, n) in results]:
            r = results[case, n]
            fit = r.get("fit_s", 0.0)
            growth = f"n^{math.log(r['query_s'] / previous[1]) / math.log(n / previous[0]):.2f}" if previous else ""
            previous = (n, r["query_s"])
            ratio_sk, ratio_p = (_ratio(r, results.get((anchor, n)), digits) for anchor, digits in ANCHORS)
            exact = (
                f"{r['checked']} checked, worst rel. {r['worst_rel']:.1e}, {r['outside']} outside"
                if "checked" in r
                else ""
            )
            lines.append(
                f"| {n:,} | {case} | {fit:.2f} | {r['query_s']:.2f} | {fit + r['query_s']:.2f} | "
                f"{r['peak_mib']:.0f} | {ratio_sk} | {ratio_p} | {growth} | {exact} |"
            )
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--queries", type=int, default=10_000)
    parser.add_argument("--blas-threads", type=int, default=None)
    parser.add_argument("--cases", nargs="+", default=list(CASES))
    parser.add_argument("--output")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(_child(args.child, args.sizes[0], args.queries, args.blas_threads)))
        return 0
    load = [os.getloadavg()[0]]
    results = {}
    for n in args.sizes:
        for case in args.cases:
            results[case, n] = _run(case, n, args.queries, args.blas_threads)
            print(json.dumps({"case": case, "n": n, **results[case, n]}), flush=True)  # a partial run says what it got
    load.append(os.getloadavg()[0])
    text = _table(results, args.sizes, args.queries, args.blas_threads, load)
    print(text)
    if args.output:
        Path(args.output).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
