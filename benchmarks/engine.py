"""The engine's goals of issue 39, each measured side by side with its anchor in one run.

Every anchor is timed in its fastest documented form, and the table says which (issue #52 item 5, "peers at their
best"):

1. Overlap + range-normalised Manhattan (Gower's distance) on hypothyroid, 2,000 x 2,000: lazylib (``Overlap``
   on the nominal columns plus ``Manhattan(normalize="range")`` on the linear ones, divided by the number of
   columns) against the ``gower`` package's ``gower_matrix`` in its documented fast form (one float array, the
   nominal values as codes, ``cat_features``; the goal is judged against it) and, for reference, on a DataFrame of
   object columns (its slow path). Goal: at most 1/3 of the fast form's time.
2. MVDM on hypothyroid's nominal columns, 2,000 x 2,000, against imbalanced-learn's ``ValueDifferenceMetric``
   (``k=2, r=2``: Payne & Edwards' MVDM, see ``tests/oracles/test_peers.py``) on its encoded input (one integer
   code per value, ``n_categories`` given: the input its documentation asks for). Goal: at least 20 times faster.
3. Full ``pairwise`` (HVDM, the workload of ``benchmarks/run.py``, 50,000 stored instances, 1,000 new queries)
   against one float64 product of the same shape (queries x columns of the plan, times columns x stored; both
   operands contiguous, one BLAS call). Goal: within 3 products, with the BLAS threads as they are and on one.
4. HVDM and IVDM 1-NN among 50,000 stored instances (1,000 queries) against scikit-learn's brute-force
   Euclidean 1-NN on a one-hot + standardised float32 embedding of the same data (float32 input is computed in
   float32: its fastest documented form; ``benchmarks/million.py``'s embedding). Goal: at most 0.5 of its time.
5. Processor time and wall time of a small and a large HVDM ``pairwise`` and 1-NN ``predict`` (item 4 of the
   issue), BLAS threads as they are and limited to one (threadpoolctl).

Every row is measured twice, with the threads as they are and limited to one (both sides under the same limit:
threadpoolctl's limit on every pool, BLAS and OpenMP, since scikit-learn's brute-force search on float32 runs
its own OpenMP threads beside BLAS), and the load average is printed with the table (the machine is shared). On
a machine with fewer than two idle cores lazylib runs its products on one BLAS thread whatever the limit
(``lazylib/_threads.py``), while an anchor takes every core it finds: "as is" then compares one thread with
what the anchor gets. Each figure is the fastest of ``--repeats`` runs (wall seconds; the machine is shared, the
fastest run is the least disturbed), both sides measured in the same run, alternated.

    PYTHONPATH=$PWD python benchmarks/engine.py [--repeats 5] [--output benchmarks/engine.md]
"""

from __future__ import annotations

import argparse
import datetime
import functools
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from million import embedding  # noqa: E402
from run import cpu_model, workload  # noqa: E402

from lazylib import datasets  # noqa: E402
from lazylib.metrics import MVDM, Manhattan, Overlap, make_metric  # noqa: E402
from lazylib.neighbors import KNeighborsClassifier  # noqa: E402


def best(funcs: dict, repeats: int) -> dict:
    """Fastest wall seconds of each function, the functions alternated ``repeats`` times."""
    out = dict.fromkeys(funcs, np.inf)
    for _ in range(repeats):
        for name, func in funcs.items():
            t0 = time.perf_counter()
            func()
            out[name] = min(out[name], time.perf_counter() - t0)
    return out


def times(func, repeats: int) -> tuple[float, float]:
    """Fastest (wall, processor) seconds of ``repeats`` runs."""
    wall, cpu = np.inf, np.inf
    for _ in range(repeats):
        w0, c0 = time.perf_counter(), time.process_time()
        func()
        wall, cpu = min(wall, time.perf_counter() - w0), min(cpu, time.process_time() - c0)
    return wall, cpu


def hypothyroid(rows: int = 2000):
    d = datasets.load("hypothyroid")
    X, y = d.X.iloc[:rows], np.asarray(d.y)[:rows]
    nominal = [c for c in X.columns if isinstance(X[c].dtype, __import__("pandas").CategoricalDtype)]
    linear = [c for c in X.columns if c not in nominal]
    return X, y, nominal, linear


def gower_inputs(X, nominal: list) -> tuple:
    """gower's two input forms of the same table: a DataFrame with object columns for the nominal attributes
    (what a user holding a DataFrame passes) and its documented fast form, one float array (nominal values as
    their codes, an unknown value NaN) with ``cat_features``."""
    frame = X.copy()
    for c in nominal:  # gower reads object columns as categorical
        frame[c] = frame[c].astype(object)
    codes = {c: X[c].cat.codes.to_numpy().astype(float) for c in nominal}
    array = np.column_stack(
        [np.where(codes[c] < 0, np.nan, codes[c]) if c in nominal else X[c].to_numpy(float) for c in X.columns]
    )
    return frame, array, np.array([c in nominal for c in X.columns])


def gower_row(repeats: int) -> list[tuple]:
    """Both of gower's input forms; the goal is judged against the fast one. On the rows without an unknown
    value the fast form's distances are lazylib's (float32: to 1e-6)."""
    import gower

    X, y, nominal, linear = hypothyroid()
    overlap, manhattan = Overlap().fit(X[nominal]), Manhattan(normalize="range").fit(X[linear])
    m = X.shape[1]

    def ours():
        return (overlap.pairwise(X[nominal]) + manhattan.pairwise(X[linear])) / m

    frame, array, cat = gower_inputs(X, nominal)
    complete = np.flatnonzero(~np.isnan(array).any(axis=1))
    theirs = gower.gower_matrix(array, cat_features=cat)[np.ix_(complete, complete)]
    gap = float(np.abs(theirs - ours()[np.ix_(complete, complete)]).max())
    assert gap < 1e-5, f"gower's fast form and lazylib disagree by {gap} on complete rows"
    t = best(
        {
            "ours": ours,
            "peer": lambda: gower.gower_matrix(array, cat_features=cat),
            "slow": lambda: gower.gower_matrix(frame, cat_features=cat),
        },
        repeats,
    )
    what = "Gower (overlap + range Manhattan), hypothyroid 2,000 x 2,000"
    return [
        (what, "gower.gower_matrix, float array (fast form)", t, "<= 1/3"),
        (what, "gower.gower_matrix, DataFrame of object columns", {"ours": t["ours"], "peer": t["slow"]}, "(none)"),
    ]


def mvdm_row(repeats: int) -> tuple:
    from imblearn.metrics.pairwise import ValueDifferenceMetric

    X, y, nominal, _ = hypothyroid()
    Xn = X[nominal]
    codes = np.column_stack([Xn[c].cat.codes.to_numpy() for c in nominal])  # unknown: one more code
    codes = np.where(codes < 0, codes.max(axis=0) + 1, codes)
    vdm = ValueDifferenceMetric(n_categories=codes.max(axis=0) + 1, k=2, r=2).fit(codes, y)
    ours = MVDM().fit(Xn, y)
    t = best({"ours": lambda: ours.pairwise(Xn), "peer": lambda: vdm.pairwise(codes)}, repeats)
    anchor = "imblearn ValueDifferenceMetric, integer codes (its encoded input)"
    return "MVDM, hypothyroid nominal 2,000 x 2,000", anchor, t, ">= 20x faster"


def product_row(repeats: int) -> tuple:
    X, y, Q, types = workload(50_000)
    hvdm = make_metric("hvdm").fit(X, y, types=types)
    hvdm.pairwise(Q[:10])  # builds the stored side
    p = hvdm._plan(hvdm._encode_like_fit(Q, "A"), hvdm.X_, hvdm.y_, training=True)
    left, right = np.ascontiguousarray(p.left), np.ascontiguousarray(p.right)
    t = best({"ours": lambda: hvdm.pairwise(Q), "peer": lambda: left @ right.T}, repeats)
    return "full pairwise (HVDM), 1,000 x 50,000", "one float64 product (contiguous, one BLAS call)", t, "<= 3 products"


def knn_rows(repeats: int) -> list[tuple]:
    from sklearn.neighbors import KNeighborsClassifier as SK

    X, y, Q, types = workload(50_000)
    E, Eq = embedding(X, X, types), embedding(Q, X, types)  # float32
    peer = SK(n_neighbors=1, algorithm="brute").fit(E, y)
    out = []
    for name in ("hvdm", "ivdm"):
        clf = KNeighborsClassifier(1, name).fit(X, y, types=types)
        clf.predict(Q[:50])  # builds the stored side
        t = best({"ours": lambda clf=clf: clf.predict(Q), "peer": lambda: peer.predict(Eq)}, repeats)
        what = f"{name.upper()} 1-NN, 50,000 stored, 1,000 queries"
        out.append((what, "sklearn brute, one-hot + standardised float32", t, "<= 0.5"))
    return out


def thread_lines(repeats: int) -> list[str]:
    from threadpoolctl import threadpool_limits

    lines = ["| case | BLAS threads | wall s | processor s |", "|---|---|---|---|"]
    for label, n, nq in (("small: 2,000 x 500", 2000, 500), ("large: 50,000 x 1,000", 50_000, 1000)):
        X, y, Q, types = workload(n, nq)
        hvdm = make_metric("hvdm").fit(X, y, types=types)
        hvdm.pairwise(Q[:10])
        clf = KNeighborsClassifier(1, "hvdm").fit(X, y, types=types)
        clf.predict(Q[:10])
        for what, func in (
            ("`pairwise`", functools.partial(hvdm.pairwise, Q)),
            ("1-NN `predict`", functools.partial(clf.predict, Q)),
        ):
            for threads in (None, 1):
                with threadpool_limits(limits=threads, user_api="blas"):
                    wall, cpu = times(func, repeats)
                lines.append(
                    f"| {what}, {label} | {'as is' if threads is None else threads} | {wall:.3f} | {cpu:.3f} |"
                )
    return lines


def commit() -> str:
    """The checkout's commit (with ``+`` when it has uncommitted changes), or "unknown"."""
    import subprocess

    root = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True)
        dirty = subprocess.run(["git", "status", "--porcelain", "lazylib"], cwd=root, capture_output=True, text=True)
    except OSError:
        return "unknown"
    return head.stdout.strip() + ("+" if dirty.stdout.strip() else "") if head.returncode == 0 else "unknown"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--output")
    args = parser.parse_args(argv)
    from threadpoolctl import threadpool_limits

    load = [os.getloadavg()[0]]
    rows = []
    for threads in (None, 1):  # the threads as they are, then one (every pool): both sides under the same limit
        with threadpool_limits(limits=threads):
            measured = gower_row(args.repeats) + [mvdm_row(args.repeats), product_row(args.repeats)]
            measured += knn_rows(args.repeats)
        rows += [(what, anchor, t, goal, "as is" if threads is None else "1") for what, anchor, t, goal in measured]
    load.append(os.getloadavg()[0])
    lines = [
        f"Machine: {cpu_model()}, {os.cpu_count()} cores ({platform.machine()}), Python {platform.python_version()}, "
        f"numpy {np.__version__}; commit {commit()}; `python benchmarks/engine.py --repeats {args.repeats}` "
        f"({datetime.date.today().isoformat()}). Fastest of {args.repeats} alternated runs, wall seconds; load "
        f"average (1 min) {load[0]:.1f} at the start, {load[1]:.1f} at the end of the table.",
        "",
        "| benchmark | anchor | threads (BLAS, OpenMP) | lazylib s | anchor s | ratio | goal |",
        "|---|---|---|---|---|---|---|",
    ]
    for what, anchor, t, goal, threads in rows:
        ours, peer = t["ours"], t["peer"]
        ratio = f"{peer / ours:.1f}x faster" if "faster" in goal else f"{ours / peer:.2f}"
        lines.append(f"| {what} | {anchor} | {threads} | {ours:.3f} | {peer:.3f} | {ratio} | {goal} |")
    lines += ["", "Processor and wall time of HVDM `pairwise` and 1-NN (item 4):", ""] + thread_lines(args.repeats)
    text = "\n".join(lines) + "\n"
    print(text)
    if args.output:
        Path(args.output).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
