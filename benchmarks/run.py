"""Speed of 1-NN search with each VDM-family metric, against scikit-learn's brute-force Euclidean 1-NN.

Workload (issue 3): 8 nominal attributes (5-10 symbols) and 8 continuous ones on very different scales,
3 classes, 2% missing values; n stored instances (1k, 10k, 50k) and 1,000 queries. A 16-nominal variant
too. Prints a Markdown table of seconds per 1,000 queries (fit excluded, nearest-neighbour search included)
and the ratio to scikit-learn's brute-force 1-NN on a one-hot + standardised embedding of the same data.

    python benchmarks/run.py [--sizes 1000 10000 50000] [--output benchmarks/results.md]

A second table (issue 16): massive ties. On shuttle (58,000 instances of small integers), DVDM's discretised
ranges leave 114 distinct stored sides, so a query ties with thousands of stored instances at the nearest
distance; the search groups identical stored instances and counts tied neighbours by class. One stratified
fold (52,200 stored, 5,800 queries), 1-NN under each tie rule, beside HVDM (almost no ties).
``--only ties`` reruns that table alone and replaces it in ``--output``.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
import tracemalloc

import numpy as np

from lazylib.neighbors import KNeighborsClassifier

METRICS = ["hvdm", "dvdm", "ivdm", "wvdm", "vdm", "mvdm"]
REPEATS = 3


def workload(n: int, n_queries: int = 1000, nominal_only: bool = False, seed: int = 0):
    rng = np.random.default_rng(seed)
    total = n + n_queries
    n_nom = 16 if nominal_only else 8
    n_con = 0 if nominal_only else 8
    y = rng.integers(0, 3, total)
    cols = []
    for _ in range(n_nom):
        k = rng.integers(5, 11)
        shift = rng.integers(0, k, 3)
        cols.append(((rng.integers(0, k, total) + (rng.random(total) < 0.3) * shift[y]) % k).astype(float))
    for _ in range(n_con):
        scale = 10.0 ** rng.uniform(-3, 4)
        cols.append((rng.normal(size=total) + 0.5 * y) * scale)
    X = np.column_stack(cols)
    X[rng.random(X.shape) < 0.02] = np.nan
    types = ["nominal"] * n_nom + ["continuous"] * n_con
    return X[:n], y[:n], X[n:], types


def sklearn_seconds(X, y, Xq, types) -> float:
    from sklearn.neighbors import KNeighborsClassifier as SK

    def embed(Z, ref):
        parts = []
        for a, kind in enumerate(types):
            col = np.nan_to_num(Z[:, a], nan=-1.0)
            if kind == "nominal":
                values = np.unique(np.nan_to_num(ref[:, a], nan=-1.0))
                parts.append((col[:, None] == values[None, :]).astype(float))
            else:
                mu, sd = np.nanmean(ref[:, a]), np.nanstd(ref[:, a])
                parts.append(((np.where(col == -1.0, mu, col) - mu) / sd)[:, None])
        return np.hstack(parts)

    E, Eq = embed(X, X), embed(Xq, X)
    clf = SK(n_neighbors=1, algorithm="brute").fit(E, y)
    return best_of(lambda: clf.predict(Eq))


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "cpu"


def best_of(func, repeats: int = REPEATS) -> float:
    """The fastest of ``repeats`` runs: the run least disturbed by other work on the machine."""
    best = np.inf
    for _ in range(repeats):
        start = time.perf_counter()
        func()
        best = min(best, time.perf_counter() - start)
    return best


def our_seconds(name, X, y, Xq, types):
    clf = KNeighborsClassifier(1, name).fit(X, y, types=types)
    clf.predict(Xq[:50])  # warm-up: builds the stored side kept with the fitted metric
    seconds = best_of(lambda: clf.predict(Xq))
    tracemalloc.start()
    clf.predict(Xq)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return seconds, peak


TIES_TITLE = "## Massive ties: 1-NN on shuttle"


def ties_lines() -> list[str]:
    """The massive-ties table: fit and search seconds of 1-NN on one shuttle fold, per metric and tie rule."""
    from lazylib.datasets import load
    from lazylib.evaluation import stratified_kfold

    ds = load("shuttle")
    train, test = stratified_kfold(ds.y, 10, random_state=0)[0]
    X, y, Xq = ds.X.iloc[train], ds.y.iloc[train], ds.X.iloc[test]
    lines = [
        TIES_TITLE,
        "",
        f"One stratified fold: {len(train)} stored, {len(test)} queries. `tied`: mean number of stored "
        "instances tied at the nearest distance per query. Fit once, then the fastest of "
        f"{REPEATS} searches (the first search also groups identical stored sides, kept with the fit).",
        "",
        "| metric | ties | tied | fit s | first search s | s / 1k queries |",
        "|---|---|---|---|---|---|",
    ]
    for name, ties in (("hvdm", "all"), ("dvdm", "all"), ("dvdm", "first"), ("dvdm", "random")):
        start = time.perf_counter()
        clf = KNeighborsClassifier(1, name, ties=ties, random_state=0).fit(X, y)
        fit = time.perf_counter() - start
        start = time.perf_counter()
        nb = list(clf._neighbourhoods(Xq))
        first = time.perf_counter() - start
        tied = np.mean(np.concatenate([b[2].tied.sum(axis=1) for b in nb]))
        sec = best_of(lambda clf=clf: clf.predict(Xq))
        lines.append(f"| {name} | {ties} | {tied:.0f} | {fit:.2f} | {first:.2f} | {sec / len(test) * 1000:.3f} |")
        print(lines[-1], flush=True)
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 50000])
    parser.add_argument("--output", default=None)
    parser.add_argument("--only", choices=["ties"], default=None)
    args = parser.parse_args()
    if args.only == "ties":
        table = "\n".join(ties_lines()) + "\n"
        old = open(args.output).read() if args.output and os.path.exists(args.output) else ""
        text = (old.split(TIES_TITLE)[0].rstrip("\n") + "\n\n" if old else "") + table
        if args.output:
            with open(args.output, "w") as fh:
                fh.write(text)
        print(table)
        return
    lines = [
        "# Benchmark: 1-NN search, seconds per 1,000 queries",
        "",
        f"Machine: {cpu_model()}, {os.cpu_count()} cores ({platform.machine()}), Python "
        f"{platform.python_version()}, numpy {np.__version__}; `python benchmarks/run.py` "
        f"({time.strftime('%Y-%m-%d')}).",
        "Fit time excluded; search includes every distance and the vote; the fastest of "
        f"{REPEATS} runs. `x sklearn`: our time divided by",
        "scikit-learn's brute-force Euclidean 1-NN on a one-hot + standardised embedding of the same data.",
        "`peak MiB`: peak memory allocated by Python during the 1,000 queries (tracemalloc; the stored side",
        "kept with the fitted metric is built before, in the warm-up).",
        "",
        "| workload | n stored | metric | s / 1k queries | x sklearn | peak MiB |",
        "|---|---|---|---|---|---|",
    ]
    for nominal_only in (False, True):
        label = "16 nominal" if nominal_only else "8 nominal + 8 continuous"
        for n in args.sizes:
            X, y, Xq, types = workload(n, nominal_only=nominal_only)
            ref = sklearn_seconds(X, y, Xq, types)
            lines.append(f"| {label} | {n} | sklearn brute (one-hot) | {ref:.3f} | 1.00 | |")
            for name in METRICS:
                sec, peak = our_seconds(name, X, y, Xq, types)
                lines.append(f"| {label} | {n} | {name} | {sec:.3f} | {sec / ref:.2f} | {peak / 2**20:.0f} |")
            print("\n".join(lines[-len(METRICS) - 1 :]), flush=True)
    text = "\n".join(lines + [""] + ties_lines()) + "\n"
    if args.output:
        with open(args.output, "w") as fh:
            fh.write(text)
    else:
        print(text)


if __name__ == "__main__":
    main()
