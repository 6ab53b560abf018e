"""Where Part IV's study spends its time, and what a tree search would gain on its dominant data set (issue 27).

1. **Cost per data set and metric.** One fold (fold 0 of fold seed 1997) of every data set of the Table 8 study
   (``book/wilson1997_hdf/03_accuracy.md``: the vendored data sets, LED and Waveform), every metric that the
   study searches (those copied by its ``reuse`` rules are skipped, as the study skips them): CPU seconds of
   fitting the 1-NN classifier and scoring the test fold under the three tie rules from one search
   (``wilson1997._tie_scores``). The study runs every such job 10 folds x 5 seeds = 50 times; the folds of a data
   set have nearly equal sizes, so 50 x the one fold estimates its share.
2. **Tree search on shuttle.** On shuttle (58,000 instances, 9 integer attributes, no unknown values: Euclid.
   and HOEM are plain Euclidean distances on a rescaled copy of the data), lazylib's exact search (fit + the
   three tie rules) beside scikit-learn's ``KDTree`` and ``BallTree`` (build, the nearest distance, then every
   stored instance within it: the candidate step only, before any exact re-computation of the tied sums that
   identity with lazylib's tie groups would still need), on folds 0-2.

CPU time (``time.process_time``), one process; the machine is shared, so wall time would mean little.

    python benchmarks/part4_cost.py [--output benchmarks/part4_cost.md]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.neighbors import BallTree, KDTree

from lazylib import datasets, synthetic
from lazylib.encoding import encode
from lazylib.evaluation import stratified_kfold
from lazylib.neighbors import KNeighborsClassifier
from lazylib.protocols import shared
from lazylib.protocols.wilson1997 import protocol as ex

SEED = 1997
METRICS = {
    "Euclid.": ("euclidean", {"normalize": "std"}),
    "HOEM": "heom",
    "HVDM": "hvdm",
    "DVDM": "dvdm",
    "IVDM": "ivdm",
    "WVDM": "wvdm",
}
REUSE = {
    "IVDM": [ex.only_discrete],
    "WVDM": [ex.only_discrete],
    "HVDM": [ex.linear_complete, ex.nominal_complete],
}
RULES = ["all", "random", "first"]


def study_data() -> dict:
    """The data of the Table 8 study, made as the chapter makes them."""
    rng = np.random.default_rng(SEED)
    data = {name: None for name in datasets.list_datasets()}
    data["led"] = synthetic.led(1000, random_state=rng.integers(2**31))
    data["waveform"] = synthetic.waveform(1000, random_state=rng.integers(2**31))
    return data


def one_job(Z, y, train, test, metric) -> tuple[float, np.ndarray]:
    """CPU seconds of one job of the study (fit, then the three tie rules from one search), and its accuracies."""
    start = time.process_time()
    clf = KNeighborsClassifier(1, ex._factory("m", metric)(), ties="all").fit(Z.take(train), y.iloc[train])
    acc = ex._tie_scores(clf, Z.take(test), np.asarray(y.iloc[test], dtype=object), RULES)
    return time.process_time() - start, acc


def cost_table() -> pd.DataFrame:
    rows = []
    for name, spec in study_data().items():
        X, y, types, _ = shared.prepare(name, spec)
        Z = encode(X, types)
        train, test = stratified_kfold(y, 10, random_state=shared.dataset_seed(name, SEED))[0]
        for metric, params in METRICS.items():
            if any(rule(Z) for rule in REUSE.get(metric, [])):
                continue
            seconds, _ = one_job(Z, y, train, test, params)
            rows.append({"data set": name, "metric": metric, "instances": len(y), "CPU s (one fold)": seconds})
    table = pd.DataFrame(rows)
    table["CPU s (x 50)"] = 50 * table["CPU s (one fold)"]
    return table


def tree_table(folds=(0, 1, 2)) -> pd.DataFrame:
    X, y, types, _ = shared.prepare("shuttle", None)
    Z, A = encode(X, types), np.asarray(X, dtype=float)
    rows = []
    for f in folds:
        train, test = stratified_kfold(y, 10, random_state=shared.dataset_seed("shuttle", SEED))[f]
        scales = {"Euclid.": A[train].std(axis=0, ddof=1), "HOEM": np.ptp(A[train], axis=0)}
        for metric, scale in scales.items():
            row = {"fold": f, "metric": metric, "lazylib": one_job(Z, y, train, test, METRICS[metric])[0]}
            for Tree in (KDTree, BallTree):
                start = time.process_time()
                R = A / scale
                tree = Tree(R[train])
                d, _ = tree.query(R[test], k=1)
                tree.query_radius(R[test], d[:, 0] * (1 + 1e-6) + 1e-12)
                row[Tree.__name__] = time.process_time() - start
            rows.append(row)
    return pd.DataFrame(rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", default=None)
    args = parser.parse_args()
    cost = cost_table()
    total = cost["CPU s (x 50)"].sum()
    by_data = cost.groupby("data set")["CPU s (x 50)"].sum().sort_values(ascending=False)
    trees = tree_table()
    lines = [
        "# Part IV's study: cost per data set and metric, and tree search on shuttle",
        "",
        "See the docstring of `benchmarks/part4_cost.py`. CPU seconds, one process, a shared machine.",
        "",
        f"Estimated CPU of the Table 8 study (50 x one fold of every searched job): {total:.0f} s.",
        "",
        "## The ten costliest jobs",
        "",
        cost.sort_values("CPU s (x 50)", ascending=False).head(10).round(3).to_markdown(index=False),
        "",
        "## Share per data set (the five costliest)",
        "",
        (100 * by_data / total).head(5).round(1).rename("% of the study").to_frame().to_markdown(),
        "",
        "## Shuttle: lazylib's exact search against a tree's candidate step (CPU seconds per fold)",
        "",
        trees.round(3).to_markdown(index=False),
        "",
    ]
    text = "\n".join(lines)
    print(text)
    if args.output:
        Path(args.output).write_text(text)


if __name__ == "__main__":
    main()
