"""lazylib against TiMBL, whole process against whole process (issue 52 item 3): MVDM and IB1-IG on one nominal
table of 50,000 stored instances and 1,000 queries, k = 1.

The table is generated here (seeded): twelve nominal attributes of 2 to 12 values, four classes decided by the
first four attributes, one class in ten replaced by a random one. Both programs read the same files, written in
TiMBL's C4.5 format (comma-separated values, the class last, no header):

- TiMBL 6.5 (Debian's ``timbl`` package): ``timbl -F C4.5 -f train.data -t test.data -k1 -mM -w0`` (MVDM, no
  feature weights: TiMBL weights by gain ratio unless told) and ``... -mO -w2`` (IB1-IG: overlap weighted by
  information gain; ``-w1`` is gain ratio in 6.5), each writing its predictions with ``-o``. TiMBL's MVDM sums
  absolute differences of the class probabilities (Cost and Salzberg); lazylib's ``"mvdm"`` sums their squares
  (Payne and Edwards' Eqs. 3-4): the same cost, not the same distance, so their predictions differ on some
  queries; IB1-IG is the same distance in both.
- lazylib: a fresh ``python`` process that imports lazylib, reads the files with pandas (every column nominal),
  fits :class:`lazylib.neighbors.KNeighborsClassifier` (``n_neighbors=1``, ``ties="all"``: every neighbour at the
  nearest distance votes, as TiMBL's k = 1 does) with the metric ``"mvdm"`` or
  :class:`lazylib.weighting.infogain.IGWeighted`, predicts, and writes its predictions. The process reports where
  its time goes (import, read, fit, predict, write).

The runs alternate (TiMBL, lazylib as is, lazylib with one BLAS thread) ``--repeats`` times, so both see the same
load; the table gives the median wall time of each, the ratio TiMBL / lazylib, where lazylib's time goes, and how
often the two programs predict the same class (ties between classes are broken differently: TiMBL by its own rule,
lazylib by the class order of ``ties="all"``'s vote).

    python benchmarks/timbl.py [--repeats 5] [--out benchmarks/timbl.md]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
N_TRAIN, N_TEST = 50_000, 1_000
CARDINALITIES = (2, 3, 4, 5, 6, 8, 10, 12, 3, 4, 5, 6)
METHODS = {"MVDM": ["-mM", "-w0"], "IB1-IG": ["-mO", "-w2"]}

#: The lazylib side, run as its own process: argv = metric, train file, test file, predictions file.
OURS = r"""
import json, sys, time
t0 = time.perf_counter()
import pandas as pd
from lazylib.neighbors import KNeighborsClassifier
from lazylib.weighting.infogain import IGWeighted
t1 = time.perf_counter()
method, train_path, test_path, out_path = sys.argv[1:]
train = pd.read_csv(train_path, header=None, dtype=str, keep_default_na=False)
test = pd.read_csv(test_path, header=None, dtype=str, keep_default_na=False)
features = train.columns[:-1]
X = pd.DataFrame({c: pd.Categorical(train[c]) for c in features})
Q = pd.DataFrame({c: pd.Categorical(test[c], categories=X[c].cat.categories) for c in features})
y = train[train.columns[-1]].to_numpy()
t2 = time.perf_counter()
metric = "mvdm" if method == "MVDM" else IGWeighted()
knn = KNeighborsClassifier(n_neighbors=1, metric=metric, ties="all").fit(X, y)
t3 = time.perf_counter()
predicted = knn.predict(Q)
t4 = time.perf_counter()
with open(out_path, "w") as f:
    f.write("\n".join(map(str, predicted)) + "\n")
t5 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "read": t2 - t1, "fit": t3 - t2, "predict": t4 - t3, "write": t5 - t4}))
"""


def table(random_state: int = 52) -> pd.DataFrame:
    """The nominal table: ``N_TRAIN + N_TEST`` rows, attributes ``a1..a12`` and the class ``c``."""
    rng = np.random.default_rng(random_state)
    n = N_TRAIN + N_TEST
    codes = np.column_stack([rng.integers(0, v, n) for v in CARDINALITIES])
    label = (codes[:, 0] + codes[:, 1] * codes[:, 2] + (codes[:, 3] > 2)) % 4
    noisy = rng.random(n) < 0.1
    label[noisy] = rng.integers(0, 4, noisy.sum())
    frame = pd.DataFrame({f"a{j + 1}": [f"v{c}" for c in codes[:, j]] for j in range(len(CARDINALITIES))})
    return frame.assign(c=[f"k{c}" for c in label])


def _timbl(method: str, work: Path) -> tuple[float, list[str]]:
    out = work / f"timbl_{method}.out"
    command = ["timbl", "-F", "C4.5", "-f", "train.data", "-t", "test.data", "-k1", *METHODS[method], "-o", str(out)]
    t0 = time.perf_counter()
    done = subprocess.run(command, cwd=work, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if done.returncode != 0:
        raise SystemExit(f"timbl failed: {done.stderr[-2000:]}")
    return wall, [line.rsplit(",", 1)[1] for line in out.read_text().splitlines() if line]


def _ours(method: str, work: Path, one_thread: bool) -> tuple[float, list[str], dict]:
    out = work / f"lazylib_{method}.out"
    env = dict(os.environ)
    if one_thread:
        env |= {v: "1" for v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")}
    command = [sys.executable, "-c", OURS, method, "train.data", "test.data", str(out)]
    t0 = time.perf_counter()
    done = subprocess.run(command, cwd=work, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t0
    if done.returncode != 0:
        raise SystemExit(f"lazylib failed: {done.stderr[-2000:]}")
    return wall, out.read_text().split(), json.loads(done.stdout.strip().splitlines()[-1])


def measure(work: Path, repeats: int) -> dict:
    """Alternate the three runs of each method ``repeats`` times; medians, phases and agreement."""
    frame = table()
    frame.iloc[:N_TRAIN].to_csv(work / "train.data", header=False, index=False)
    frame.iloc[N_TRAIN:].to_csv(work / "test.data", header=False, index=False)
    truth = frame["c"].iloc[N_TRAIN:].tolist()
    result = {}
    for method in METHODS:
        walls = {"timbl": [], "as is": [], "one thread": []}
        phases = []
        for _ in range(repeats):
            wall, theirs = _timbl(method, work)
            walls["timbl"].append(wall)
            for label, one in (("as is", False), ("one thread", True)):
                wall, ours, phase = _ours(method, work, one)
                walls[label].append(wall)
                if not one:
                    phases.append(phase)
        result[method] = {
            "median_s": {k: statistics.median(v) for k, v in walls.items()},
            "phases_s": {k: statistics.median(p[k] for p in phases) for k in phases[0]},
            "agreement": float(np.mean(np.array(theirs) == np.array(ours))),
            "accuracy": {
                "timbl": float(np.mean(np.array(theirs) == np.array(truth))),
                "lazylib": float(np.mean(np.array(ours) == np.array(truth))),
            },
        }
    return result


def _load() -> str:
    return ", ".join(f"{x:.1f}" for x in os.getloadavg())


def report(result: dict, repeats: int, load_before: str, load_after: str, started: str) -> str:
    import lazylib

    version = subprocess.run(["timbl", "-V"], capture_output=True, text=True).stdout.strip().splitlines()
    lines = [
        "# lazylib against TiMBL, whole process (issue 52 item 3)",
        "",
        f"Written by `python benchmarks/timbl.py --repeats {repeats}` (its docstring says what is run). "
        f"{N_TRAIN:,} stored instances, {N_TEST:,} queries, {len(CARDINALITIES)} nominal attributes, k = 1.",
        "",
        "| what | value |",
        "|---|---|",
        f"| date (UTC) | {started} |",
        f"| lazylib | {lazylib.__version__}, commit {lazylib.build_info()['commit']} |",
        f"| TiMBL | {version[0] if version else 'timbl'} (Debian package `timbl`) |",
        f"| machine | {platform.platform()}, {os.cpu_count()} cores, Python {platform.python_version()} |",
        f"| load average before / after (1, 5, 15 min) | {load_before} / {load_after} |",
        "",
        "| method | TiMBL (s) | lazylib as is (s) | lazylib one thread (s) | TiMBL / lazylib as is | TiMBL / lazylib "
        "one thread | lazylib: import, read, fit, predict, write (s) | same prediction | accuracy TiMBL / lazylib |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for method, r in result.items():
        m, p = r["median_s"], r["phases_s"]
        phases = ", ".join(f"{p[k]:.3f}" for k in ("import", "read", "fit", "predict", "write"))
        lines.append(
            f"| {method} | {m['timbl']:.2f} | {m['as is']:.2f} | {m['one thread']:.2f} | "
            f"{m['timbl'] / m['as is']:.2f} | {m['timbl'] / m['one thread']:.2f} | {phases} | "
            f"{100 * r['agreement']:.1f} % | {100 * r['accuracy']['timbl']:.1f} / "
            f"{100 * r['accuracy']['lazylib']:.1f} % |"
        )
    lines += [
        "",
        "Medians over the repeats; each repeat runs TiMBL, then lazylib as is, then lazylib with one BLAS thread. "
        "The lazylib process's wall time includes starting Python; its phases do not.",
    ]
    return "\n".join(lines) + "\n"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--out", default=str(HERE / "timbl.md"))
    args = parser.parse_args(argv)
    if shutil.which("timbl") is None:
        raise SystemExit("timbl is not installed: apt-get install timbl (Debian) and run again")
    work = Path(tempfile.mkdtemp(prefix="lazylib-timbl-"))
    load_before = _load()
    started = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    result = measure(work, args.repeats)
    text = report(result, args.repeats, load_before, _load(), started)
    Path(args.out).write_text(text, encoding="utf-8")
    print(text)
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
