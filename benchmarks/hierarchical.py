"""The Bayesian hierarchical test (Benavoli et al. 2017) on Part VI's headline pairs, from the full run's folds.

Part VI (``book/bench/02_ranking.md``) compares the best-ranked method with the next five by the Bayesian
signed-rank test on each data set's mean accuracy. This script reads the same artifact
(``benchmarks/full_run/full_run.csv.gz``, through :func:`lazylib.protocols.bench.results.load_full_run`), forms the same
pairs (:func:`~lazylib.protocols.bench.stats.leading_pairs` with ``top=6``), adds the best method against
:data:`~lazylib.protocols.bench.stats.BASELINE` and against ``k-NN HVDM`` when they are not among them, and runs
baycomp's ``HierarchicalTest`` on every pair's fold-by-fold accuracy differences under each ROPE of
:data:`~lazylib.protocols.bench.stats.ROPES`, in two readings:

- ``first seed``: the fold seed every data set has (the only one of letter and shuttle under the smooth rule of
  the full run), every data set, ten folds each, ``runs=1``;
- ``all seeds``: the five fold seeds of the data sets that have them (all but the four that run under fewer:
  letter, mushroom, satellite, shuttle), fifty folds each, ``runs=5`` (baycomp's correlation between folds
  stays ``1 / 10``).

Accuracies go to baycomp in percent and the ROPE in accuracy points: baycomp divides both the differences and the
ROPE by the mean within-data-set standard deviation of the differences, so the units do not change the model.

baycomp does not pass a seed to Stan, and it caches its last posterior in ``last-sample.pickle`` in the working
directory under a key that holds neither the ROPE nor a seed. This script calls baycomp unchanged, but with
``stan.build`` given ``random_seed`` (``--stan-seed``) for the duration of each call, and from a fresh temporary
directory, so that every (pair, ROPE, reading) gets its own Stan fit and nothing is written into the repository
(httpstan also compiles the model under ``build/`` in the working directory; the compiled model and every fit's
draws are kept in httpstan's cache, ``~/.cache/httpstan``, about 1.5 GB for one run of this script).
``random_state`` goes to baycomp too: it seeds the symmetric noise baycomp puts in place of the differences of a
data set on which they do not vary (the ``constant`` column counts such data sets).

It writes ``--output`` (default ``benchmarks/hierarchical.csv``: one row per pair, ROPE and reading) and a JSON file
beside it with the same stem (the artifact's sha256, the versions, the seed, the chains and draws, the machine, the
date and the wall time).

It needs baycomp and pystan 3 (Stan compiles a C++ model at run time, so this is not part of CI nor of the
project's extras); run it from a separate virtual environment with the repository on ``PYTHONPATH``::

    python3.11 -m venv /tmp/hvenv
    /tmp/hvenv/bin/pip install numpy scipy pandas scikit-learn scikit-posthocs baycomp pystan
    PYTHONPATH=. /tmp/hvenv/bin/python benchmarks/hierarchical.py --output benchmarks/hierarchical.csv
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import hashlib
import json
import os
import platform
import tempfile
import time
from datetime import datetime, timezone
from importlib.metadata import version
from pathlib import Path

import numpy as np
import pandas as pd

from lazylib.protocols.bench import protocol as bench
from lazylib.protocols.bench import results as bench_results
from lazylib.protocols.bench import stats as bench_stats

HERE = Path(__file__).resolve().parent
ARTIFACT = HERE / "full_run" / "full_run.csv.gz"
EXTRA = ("k-NN HVDM",)  # compared with the best besides the leading pairs and the baseline
STAN_SEED = 2017
#: Stan chains and draws per chain (after pystan's 1,000 warm-up iterations) of each reading: baycomp's default,
#: 4 chains of 10,000 (or 50,000 through ``HierarchicalTest(...)``), takes minutes a fit on two cores, and the
#: model of fifty folds costs five times that of ten.
SAMPLING = {"first seed": (4, 2_000), "all seeds": (2, 1_000)}


def headline_pairs(full: pd.DataFrame) -> tuple[str, list[str]]:
    """The best-ranked method and the methods it is compared with, in the page's order."""
    overall = bench_stats.ranking(bench.accuracy_table(full))
    pairs = bench_stats.leading_pairs(overall["block"], top=6, ropes=bench_stats.ROPES, random_state=0)
    best = overall["best"]
    others = [p.split(" vs ", 1)[1] for p in pairs.index.get_level_values("pair").unique()]
    for name in (bench_stats.BASELINE, *EXTRA):
        if name not in others and name != best:
            others.append(name)
    return best, others


def first_seed(full: pd.DataFrame) -> int:
    """The fold seed that every data set has (the only one of the largest)."""
    common = set.intersection(*(set(s) for s in full.groupby("dataset")["seed"].unique()))
    if len(common) != 1:
        raise ValueError(f"expected exactly one fold seed common to every data set, found {sorted(common)}")
    return int(common.pop())


def fold_matrix(full: pd.DataFrame, method: str, datasets: list[str], seeds: list[int]) -> np.ndarray:
    """Accuracies (percent) of ``method``: one row per data set, one column per (seed, fold)."""
    rows = full[(full["method"] == method) & full["dataset"].isin(datasets) & full["seed"].isin(seeds)]
    bad = rows[(rows["refused"] != "") | rows["accuracy"].isna()]
    if len(bad):
        raise ValueError(f"{method} has {len(bad)} refused or missing folds, e.g.\n{bad.head()}")
    if rows.duplicated(["dataset", "seed", "fold"]).any():
        raise ValueError(f"{method} has more than one row for a fold")
    table = rows.pivot(index="dataset", columns=["seed", "fold"], values="accuracy")
    table = table.reindex(index=datasets).sort_index(axis=1)
    folds = rows.groupby("dataset").size()
    if table.isna().any().any() or folds.nunique() != 1 or table.shape[1] != folds.iloc[0]:
        raise ValueError(f"{method} lacks folds on {sorted(folds[folds != folds.max()].index)}")
    return table.to_numpy(dtype=float)


@contextlib.contextmanager
def seeded_stan(seed: int):
    """baycomp's ``HierarchicalTest`` run in a fresh temporary directory (its ``last-sample.pickle`` cache goes
    there and is thrown away) with ``stan.build`` given ``random_seed=seed``."""
    import stan

    build, cwd = stan.build, os.getcwd()
    with tempfile.TemporaryDirectory(prefix="hierarchical-") as tmp:
        stan.build = functools.partial(build, random_seed=seed)
        os.chdir(tmp)
        try:
            yield
        finally:
            os.chdir(cwd)
            stan.build = build


def hierarchical(x, y, rope: float, runs: int, *, seed: int, chains: int, nsamples: int) -> tuple:
    """baycomp's posterior probabilities (left, rope, right) of ``y - x`` for one pair and one ROPE."""
    import baycomp

    with seeded_stan(seed):
        posterior = baycomp.HierarchicalTest(x, y, rope, runs=runs, chains=chains, nsamples=nsamples, random_state=seed)
    return tuple(float(p) for p in posterior.probs(with_rope=True))


def readings(full: pd.DataFrame) -> dict:
    """Each reading's (data sets, seeds, runs)."""
    seed0 = first_seed(full)
    seeds = full.groupby("dataset")["seed"].nunique()
    every = sorted(int(s) for s in full["seed"].unique())
    return {
        "first seed": (sorted(seeds.index), [seed0], 1),
        "all seeds": (sorted(seeds[seeds == len(every)].index), every, len(every)),
    }


def table(full: pd.DataFrame, *, seed: int, sampling=SAMPLING, which=None, only=None, log=print) -> pd.DataFrame:
    """One row per pair, ROPE and reading (every reading, or those named in ``which``; every pair, or those of
    the methods named in ``only``), each reading sampled with ``sampling[reading]`` chains and draws per chain."""
    best, others = headline_pairs(full)
    if only:
        unknown = sorted(set(only) - set(others))
        if unknown:
            raise ValueError(f"{unknown} are not compared with {best}: the pairs are with {others}")
        others = [o for o in others if o in only]
    rows = []
    for reading, (datasets, seeds, runs) in readings(full).items():
        if which and reading not in which:
            continue
        chains, nsamples = sampling[reading]
        x = fold_matrix(full, best, datasets, seeds)
        for other in others:
            y = fold_matrix(full, other, datasets, seeds)
            constant = int((np.std(y - x, axis=1) == 0).sum())
            for rope in bench_stats.ROPES:
                start = time.time()
                left, equivalent, right = hierarchical(
                    x, y, float(rope), runs, seed=seed, chains=chains, nsamples=nsamples
                )
                rows.append(
                    {
                        "pair": f"{best} vs {other}",
                        "rope": float(rope),
                        "reading": reading,
                        "n_datasets": x.shape[0],
                        "folds_per_dataset": x.shape[1],
                        "runs": runs,
                        "chains": chains,
                        "draws_per_chain": nsamples,
                        "constant": constant,
                        "mean_difference": float((x - y).mean()),
                        "p_best_better": left,
                        "p_equivalent": equivalent,
                        "p_other_better": right,
                    }
                )
                log(f"{reading}, {best} vs {other}, ROPE {rope}: {left:.4f} / {equivalent:.4f} / {right:.4f} "
                    f"({time.time() - start:.0f} s)")  # fmt: skip
    return pd.DataFrame(rows)


def in_page_order(rows: pd.DataFrame, full: pd.DataFrame) -> pd.DataFrame:
    """``rows`` in the order :func:`table` writes them: reading, then the pairs as the page lists them, then ROPE."""
    best, others = headline_pairs(full)
    rank = {
        "reading": {r: i for i, r in enumerate(readings(full))},
        "pair": {f"{best} vs {o}": i for i, o in enumerate(others)},
    }
    key = lambda c: c.map(rank[c.name]) if c.name in rank else c  # noqa: E731
    return rows.sort_values(["reading", "pair", "rope"], key=key, kind="stable").reset_index(drop=True)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=HERE / "hierarchical.csv")
    parser.add_argument("--artifact", type=Path, default=ARTIFACT)
    parser.add_argument("--stan-seed", type=int, default=STAN_SEED)
    parser.add_argument("--chains", type=int, help="Stan chains of every reading (default: SAMPLING)")
    parser.add_argument("--nsamples", type=int, help="draws per chain after warm-up (default: SAMPLING)")
    parser.add_argument("--reading", action="append", choices=["first seed", "all seeds"], help="(default: both)")
    parser.add_argument("--only", action="append", help="only the pair of the best with this method (repeatable)")
    parser.add_argument(
        "--update", action="store_true", help="replace only these pairs' rows of --output, keeping the others"
    )
    args = parser.parse_args(argv)
    full = bench_results.load_full_run(args.artifact)
    if full is None:
        raise FileNotFoundError(args.artifact)
    started, wall = datetime.now(timezone.utc), time.time()
    sampling = {r: (args.chains or c, args.nsamples or n) for r, (c, n) in SAMPLING.items()}
    out = table(full, seed=args.stan_seed, sampling=sampling, which=args.reading, only=args.only)
    wall = time.time() - wall
    updated = None
    if args.update:  # the other pairs' rows stay, valid while their methods' rows are unchanged (rows_sha256)
        kept = pd.read_csv(args.output)
        kept = kept[~kept["pair"].isin(out["pair"].unique())]
        updated = {"pairs": sorted(out["pair"].unique()), "date": f"{started:%Y-%m-%d %H:%M} UTC", "wall_s": wall}
        out = in_page_order(pd.concat([kept, out], ignore_index=True), full)
    out.to_csv(args.output, index=False, float_format="%.6g")
    methods = sorted({m for pair in out["pair"] for m in pair.split(" vs ")})
    earlier = json.loads(args.output.with_suffix(".json").read_text()) if args.update else {}
    now = bench_results.method_rows_sha256(full, methods)
    moved = sorted(m for m, sha in earlier.get("rows_sha256", {}).items() if now.get(m) != sha)
    if args.update and (moved or "rows_sha256" not in earlier):
        print(f"kept pairs read rows that changed since ({moved})" if moved else
              "the kept pairs' record has no rows_sha256: their methods' rows are taken as unchanged")  # fmt: skip
        if moved:
            raise SystemExit("run those pairs again (--only) rather than keep them")
    meta = {
        "written_by": "benchmarks/hierarchical.py",
        "artifact": str(args.artifact.resolve().relative_to(HERE.parent)),
        "artifact_sha256": hashlib.sha256(args.artifact.read_bytes()).hexdigest(),
        "rows_sha256": now,
        "versions": {p: version(p) for p in ("baycomp", "pystan", "httpstan", "numpy", "scipy", "pandas")},
        "stan_seed": args.stan_seed,
        "chains_and_draws_per_chain": sampling,
        "warmup_per_chain": 1000,  # pystan's default: baycomp sets none
        "test": "baycomp.HierarchicalTest, default priors; probabilities from the argmax of each draw",
        "first_seed": first_seed(full),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
        "date": f"{started:%Y-%m-%d %H:%M} UTC",
        "wall_s": round(wall, 1),
    }
    if updated:
        meta |= {"date": earlier.get("date"), "wall_s": earlier.get("wall_s"), "updated": updated}
    args.output.with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    print(out.to_string())


if __name__ == "__main__":
    main()
