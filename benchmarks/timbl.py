"""lazylib against TiMBL, whole process against whole process (issue 52 item 3): MVDM and IB1-IG on one nominal
table of 50,000 stored instances and 1,000 queries, k = 1.

The table is generated here (seeded): twelve nominal attributes of 2 to 12 values, four classes decided by the
first four attributes, one class in ten replaced by a random one. Every program reads the same files, written in
TiMBL's C4.5 format (comma-separated values, the class last, no header):

- TiMBL 6.5 (Debian's ``timbl`` package): ``timbl -F C4.5 -f train.data -t test.data -k1 -mM -w0`` (MVDM, no
  feature weights: TiMBL weights by gain ratio unless told) and ``... -mO -w2`` (IB1-IG: overlap weighted by
  information gain; ``-w1`` is gain ratio in 6.5), each writing its predictions with ``-o``. TiMBL's MVDM sums
  absolute differences of the class probabilities (Cost and Salzberg); lazylib's ``"mvdm"`` sums their squares
  (Payne and Edwards' Eqs. 3-4): the same cost, not the same distance, so their predictions differ on some
  queries; IB1-IG is the same distance in both.
- ``lazylib classify`` (:mod:`lazylib.classify`, numpy only), the whole command from the shell:
  ``python -m lazylib classify --train train.data --test test.data --metric mvdm|ig --output FILE``. Where its
  time goes is measured by a second process that runs the command's steps with a clock between them (import,
  read, fit, predict, write); the interpreter's own start (``python -c pass``) is timed on its own.
- The library's estimator: a fresh ``python`` process that imports lazylib, reads the files with pandas (every
  column nominal), fits :class:`lazylib.neighbors.KNeighborsClassifier` (``n_neighbors=1``, ``ties="all"``:
  every neighbour at the nearest distance votes, as TiMBL's k = 1 does) with the metric ``"mvdm"`` or
  :class:`lazylib.weighting.IGWeighted`, predicts, writes, and reports its phases. Its fit + predict is the
  in-process time of item 3's first goal.

The runs alternate (TiMBL; the command; its phases; the estimator's process; then the three lazylib ones with one
BLAS thread) ``--repeats`` times, so all see the same load; the tables give medians, the ratios against the goals
(fit + predict at most a third of TiMBL's whole process; the whole command no slower than TiMBL's), where each
millisecond goes, and how often the programs predict the same class.

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


#: The command's steps with a clock between them (argv = metric, train file, test file, predictions file).
COMMAND_PHASES = r"""
import json, sys, time
t0 = time.perf_counter()
from lazylib import cli
from lazylib import classify as knn
t1 = time.perf_counter()
metric, train_path, test_path, out_path = sys.argv[1:]
train = knn.read_table(train_path)
test = knn.read_table(test_path)
t2 = time.perf_counter()
m = train.cells.codes.shape[1] - 1
model = knn.fit(train.cells.take(range(m)), train.cells.take([m]), metric=metric)
t3 = time.perf_counter()
predicted = knn.predict(model, test.cells.take(range(m)))
t4 = time.perf_counter()
knn.write_lines(out_path, predicted.tolist())
t5 = time.perf_counter()
heavy = sorted(m for m in ("sklearn", "scipy.stats", "pandas") if m in sys.modules)
print(json.dumps({"import": t1 - t0, "read": t2 - t1, "fit": t3 - t2, "predict": t4 - t3, "write": t5 - t4,
                  "heavy": heavy}))
"""
PHASES = ("import", "read", "fit", "predict", "write")
ONE_THREAD = {v: "1" for v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")}


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


def _process(command: list, work: Path, one_thread: bool) -> tuple[float, str]:
    """Wall time and standard output of ``command`` run in ``work`` (one BLAS thread if asked)."""
    env = dict(os.environ) | ({**ONE_THREAD} if one_thread else {})
    env["PYTHONPATH"] = str(HERE.parent)
    t0 = time.perf_counter()
    done = subprocess.run(command, cwd=work, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t0
    if done.returncode != 0:
        raise SystemExit(f"{command[:4]} failed: {done.stderr[-2000:]}")
    return wall, done.stdout


def _estimator(method: str, work: Path, one_thread: bool) -> tuple[float, list[str], dict]:
    out = work / f"lazylib_{method}.out"
    wall, stdout = _process([sys.executable, "-c", OURS, method, "train.data", "test.data", str(out)], work, one_thread)
    return wall, out.read_text().split(), json.loads(stdout.strip().splitlines()[-1])


def _command(method: str, work: Path, one_thread: bool) -> tuple[float, list[str]]:
    out = work / f"classify_{method}.out"
    metric = {"MVDM": "mvdm", "IB1-IG": "ig"}[method]
    argv = ["classify", "--train", "train.data", "--test", "test.data", "--metric", metric, "--output", str(out)]
    wall, _ = _process([sys.executable, "-m", "lazylib", *argv], work, one_thread)
    return wall, out.read_text().split()


def _command_phases(method: str, work: Path, one_thread: bool) -> dict:
    metric = {"MVDM": "mvdm", "IB1-IG": "ig"}[method]
    command = [sys.executable, "-c", COMMAND_PHASES, metric, "train.data", "test.data", str(work / "phases.out")]
    return json.loads(_process(command, work, one_thread)[1].strip().splitlines()[-1])


def _median_phases(phases: list) -> dict:
    return {k: statistics.median(p[k] for p in phases) for k in PHASES}


def _one_repeat(method: str, work: Path, walls: dict, phases: dict) -> dict:
    """One alternation of every run of ``method``; the predictions of the last runs."""
    wall, theirs = _timbl(method, work)
    walls["timbl"].append(wall)
    walls["python start"].append(_process([sys.executable, "-c", "pass"], work, False)[0])
    for one in (False, True):
        tag = "one thread" if one else "as is"
        wall, command = _command(method, work, one)
        walls[f"command {tag}"].append(wall)
        phases[f"command {tag}"].append(_command_phases(method, work, one))
        wall, ours, phase = _estimator(method, work, one)
        walls[f"estimator {tag}"].append(wall)
        phases[f"estimator {tag}"].append(phase)
    return {"timbl": theirs, "command": command, "estimator": ours}


def measure(work: Path, repeats: int) -> dict:
    """Alternate every run of each method ``repeats`` times; medians, phases and agreement."""
    frame = table()
    frame.iloc[:N_TRAIN].to_csv(work / "train.data", header=False, index=False)
    frame.iloc[N_TRAIN:].to_csv(work / "test.data", header=False, index=False)
    truth = np.array(frame["c"].iloc[N_TRAIN:].tolist())
    result = {}
    for method in METHODS:
        walls = {k: [] for k in ("timbl", "python start", "command as is", "command one thread", "estimator as is",
                                 "estimator one thread")}  # fmt: skip
        phases = {k: [] for k in ("command as is", "command one thread", "estimator as is", "estimator one thread")}
        for _ in range(repeats):
            predicted = {k: np.array(v) for k, v in _one_repeat(method, work, walls, phases).items()}
        result[method] = {
            "median_s": {k: statistics.median(v) for k, v in walls.items()},
            "phases_s": {k: _median_phases(v) for k, v in phases.items()},
            "heavy": sorted({m for p in phases["command as is"] for m in p["heavy"]}),
            "command = estimator": float(np.mean(predicted["command"] == predicted["estimator"])),
            "agreement": float(np.mean(predicted["timbl"] == predicted["command"])),
            "accuracy": {k: float(np.mean(v == truth)) for k, v in predicted.items()},
        }
    return result


def _load() -> str:
    return ", ".join(f"{x:.1f}" for x in os.getloadavg())


def _fit_predict(p: dict) -> float:
    return p["fit"] + p["predict"]


def _ms(p: dict) -> str:
    return ", ".join(f"{1000 * p[k]:.0f}" for k in PHASES)


def _reading(result: dict) -> list:
    """Where the whole command's time goes, and what keeps the estimator from its goal, from the numbers."""
    out = []
    for method, r in result.items():
        m, c, e = r["median_s"], r["phases_s"]["command as is"], r["phases_s"]["estimator as is"]
        out.append(
            f"- {method}: the command's {1000 * m['command as is']:.0f} ms are the interpreter's start and exit "
            f"(about {1000 * m['python start']:.0f} ms), importing numpy and lazylib.cli/lazylib.classify "
            f"({1000 * c['import']:.0f} ms), reading and coding both files ({1000 * c['read']:.0f} ms), the fit "
            f"({1000 * c['fit']:.0f} ms: tables and weights), the search and vote ({1000 * c['predict']:.0f} ms) and "
            f"the write ({1000 * c['write']:.0f} ms). The estimator's fit + predict is "
            f"{1000 * _fit_predict(e):.0f} ms ({1000 * e['fit']:.0f} + {1000 * e['predict']:.0f}), its import "
            f"{1000 * e['import']:.0f} ms (scikit-learn's base with scipy.stats, and pandas)."
        )
    out.append(
        "- The estimator's fit is validation (scikit-learn's feature names, whose first call in a process loads "
        "narwhals' entry points), the labels and the metric's fit (probability tables or information gains, its "
        "term contract, on one BLAS thread: threadpoolctl's scan of the loaded libraries at its first use, and the "
        "centred embeddings); its predict searches through one table per attribute (lazylib/metrics/_tables.py: "
        "the groups' bound of lazylib/table_search.py, which `lazylib classify` shares, in place of the "
        "single-precision filter over every stored row), builds the stored side of the candidates only and "
        "decides on the engine's own sums, so its neighbours and votes are the filter's to the last bit."
    )
    return out


def report(result: dict, repeats: int, load_before: str, load_after: str, started: str) -> str:
    import lazylib

    version = subprocess.run(["timbl", "-V"], capture_output=True, text=True).stdout.strip().splitlines()
    lines = [
        "# lazylib against TiMBL, whole process (issue 52 item 3)",
        "",
        f"Written by `python benchmarks/timbl.py --repeats {repeats}` (its docstring says what is run). "
        f"{N_TRAIN:,} stored instances, {N_TEST:,} queries, {len(CARDINALITIES)} nominal attributes, k = 1. "
        "Medians over the repeats, each repeat alternating every run.",
        "",
        "| what | value |",
        "|---|---|",
        f"| date (UTC) | {started} |",
        f"| lazylib | {lazylib.__version__}, commit {lazylib.build_info()['commit']} |",
        f"| TiMBL | {version[0] if version else 'timbl'} (Debian package `timbl`) |",
        f"| machine | {platform.platform()}, {os.cpu_count()} cores (shared), Python {platform.python_version()} |",
        f"| load average before / after (1, 5, 15 min) | {load_before} / {load_after} |",
        "",
        "## The goals",
        "",
        "| method | TiMBL whole process (s) | goal | lazylib (s), as is / one thread | TiMBL / lazylib, as is / one "
        "thread | met |",
        "|---|---|---|---|---|---|",
    ]
    for method, r in result.items():
        m, p = r["median_s"], r["phases_s"]
        rows = [
            ("`lazylib classify` fit + predict", "at least 3x faster", _fit_predict(p["command as is"]),
             _fit_predict(p["command one thread"]), 3.0),
            ("`KNeighborsClassifier` fit + predict", "at least 3x faster", _fit_predict(p["estimator as is"]),
             _fit_predict(p["estimator one thread"]), 3.0),
            ("`lazylib classify`, the whole command", "no slower", m["command as is"], m["command one thread"], 1.0),
        ]  # fmt: skip
        for what, goal, as_is, one, factor in rows:
            ratio = m["timbl"] / as_is, m["timbl"] / one
            met = "yes" if min(ratio) >= factor else ("as is only" if ratio[0] >= factor else "no")
            lines.append(
                f"| {method}: {what} | {m['timbl']:.3f} | {goal} | {as_is:.3f} / {one:.3f} | "
                f"{ratio[0]:.2f} / {ratio[1]:.2f} | {met} |"
            )
    lines += [
        "",
        "## Where the milliseconds go",
        "",
        "Phases in ms (import, read, fit, predict, write), as is / one BLAS thread. `python -c pass` is the "
        "interpreter's start and exit, which the phases do not include; the rest of a whole process's wall time "
        "(the remainder) is that, Python's shutdown and process creation under load.",
        "",
        "| method | TiMBL (s) | python -c pass (ms) | command wall (s) | command phases (ms) | command remainder (ms) "
        "| estimator process wall (s) | estimator phases (ms) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for method, r in result.items():
        m, p = r["median_s"], r["phases_s"]
        rest = 1000 * (m["command as is"] - sum(p["command as is"].values()))
        lines.append(
            f"| {method} | {m['timbl']:.3f} | {1000 * m['python start']:.0f} | {m['command as is']:.3f} / "
            f"{m['command one thread']:.3f} | {_ms(p['command as is'])} / {_ms(p['command one thread'])} | "
            f"{rest:.0f} | {m['estimator as is']:.3f} / {m['estimator one thread']:.3f} | "
            f"{_ms(p['estimator as is'])} / {_ms(p['estimator one thread'])} |"
        )
    lines += [
        "",
        "## Predictions",
        "",
        "| method | command = estimator | same prediction as TiMBL | accuracy TiMBL / command / estimator | "
        "sklearn, scipy.stats, pandas loaded by the command's path |",
        "|---|---|---|---|---|",
    ]
    for method, r in result.items():
        a = r["accuracy"]
        lines.append(
            f"| {method} | {100 * r['command = estimator']:.1f} % | {100 * r['agreement']:.1f} % | "
            f"{100 * a['timbl']:.1f} / {100 * a['command']:.1f} / {100 * a['estimator']:.1f} % | "
            f"{', '.join(r['heavy']) or 'none'} |"
        )
    lines += (
        ["", "## Reading", ""]
        + _reading(result)
        + [
            "",
            "TiMBL and lazylib break ties between classes differently (TiMBL by its own rule, lazylib by the class "
            'order of `ties="all"`\'s vote), and their MVDMs are different distances (see the docstring).',
        ]
    )
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
