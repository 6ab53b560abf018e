"""Replace some data sets' rows of the stored full run by a run of those data sets alone, keeping the old rows beside.

When the protocol changes for a few data sets only (issue #52 item 6: the smooth rule of ``bench.FULL`` replaces the
cliff of ``bench.CLIFF``, which changes the training sample or the fold seeds of satellite, mushroom, letter and
shuttle and of no other data set), those data sets are re-run under the new configuration and their rows replace
the old ones, data set by data set, in the artifact's order; a data set's rows do not depend on which other data
sets share the run. The old rows are kept as an alternative reading (``--keep-as``), and ``full_run.json`` records
every replacement. The Euclidean baselines' code-order rows (``euclidean_codes.csv.gz``,
:mod:`lazylib.protocols.bench.readings`) follow: for a data set without nominal attributes the two readings are
the same distance, so its new rows are the baselines' own; for one with nominal attributes they are computed here
(in this process, the baseline's reading switched to the category codes). Run it with the code that computed the
new rows; the declarations of ``same_numbers.json`` were for the old artifact and start anew.

Usage (what was run on 2026-12-03, the new rows computed by ``python -m lazylib.protocols.bench --full --datasets
shuttle letter mushroom satellite --n-jobs 2 --results /work/regen/results --output /work/regen/smooth4.csv``):

    python benchmarks/replace_datasets.py --new /work/regen/smooth4.csv --command "..." \\
        --keep-as benchmarks/full_run/cliff_rows.csv.gz --why "..."
"""

from __future__ import annotations

import dataclasses
import datetime
import json
from pathlib import Path

import pandas as pd
from replace_methods import FOLDER, _write_gz, arguments, earlier_run, keep_old, read_rows, rewrite_artifact

from lazylib.protocols.bench import methods as bench_methods
from lazylib.protocols.bench import protocol as bench
from lazylib.protocols.bench.readings import BASELINES, CODE_ORDER
from lazylib.protocols.bench.results import ROW_KEY


def expected_keys(config, names) -> set:
    """The (data set, seed, fold, method) of every row ``config`` gives the data sets ``names``."""
    seeds = config.seeds()
    keys = set()
    for name in names:
        n = len(bench._prepared(name)["y"])
        for seed in seeds[: config.fold_seeds_of(n)]:
            keys |= {(name, seed, f, m) for f in range(config.n_splits) for m in config.methods}
    return keys


def code_order_rows(names) -> pd.DataFrame:
    """The Euclidean baselines' rows of ``names`` under FULL with nominal attributes read as category codes."""
    spec = bench_methods.DISTANCES["Euclidean"]
    bench_methods.DISTANCES["Euclidean"] = (spec[0], spec[1] | {"nominal": "codes"})
    try:
        config = dataclasses.replace(bench.FULL, datasets=tuple(names), methods=BASELINES)
        return bench.run(config, n_jobs=1, label="code order", progress=False)
    finally:
        bench_methods.DISTANCES["Euclidean"] = spec


def _spliced(old: pd.DataFrame, new: pd.DataFrame, names) -> pd.DataFrame:
    """``old`` with the rows of ``names`` replaced by ``new``'s, data set by data set in ``old``'s order."""
    parts = []
    for name in dict.fromkeys(old["dataset"]):
        parts.append(new[new["dataset"] == name][list(old.columns)] if name in names else old[old["dataset"] == name])
    return pd.concat(parts, ignore_index=True)


def main() -> None:
    args = arguments("data sets")
    run = json.loads((FOLDER / "full_run.json").read_text())
    full, new = read_rows(FOLDER / "full_run.csv.gz"), read_rows(args.new)
    names = sorted(set(new["dataset"]))
    if set(map(tuple, new[list(ROW_KEY)].to_numpy())) != expected_keys(bench.FULL, names):
        raise SystemExit(f"the new rows are not every seed, fold and method FULL gives {names}, once each")
    if new["error"].fillna("").ne("").any():
        raise SystemExit("the new rows hold errors: run the failed jobs again before replacing")
    replaced = full["dataset"].isin(names)
    merged = _spliced(full, new, names)
    today = datetime.date.today().isoformat()
    kept = {"rows_of": names, "config": bench.CLIFF.record(), "from_run": earlier_run(run), "replaced_on": today}
    keep_old(full[replaced], args.keep_as, kept | {"why": args.why})

    codes_path = Path(CODE_ORDER)
    codes = read_rows(codes_path)
    nominal = [name for name in names if bench._prepared(name)["kind"] != "continuous"]
    recomputed = code_order_rows(nominal) if nominal else new.iloc[:0]
    own = new[new["dataset"].isin(sorted(set(names) - set(nominal))) & new["method"].isin(BASELINES)]
    _write_gz(_spliced(codes, pd.concat([own, recomputed], ignore_index=True), names), codes_path)
    codes_meta_path = codes_path.with_suffix("").with_suffix(".json")
    codes_meta = json.loads(codes_meta_path.read_text())
    codes_meta["rows_of_replaced_datasets"] = {
        "datasets": names,
        "on": today,
        "how": f"{sorted(set(names) - set(nominal))}: the baselines' rows of the new run (no nominal attribute: "
        f"one distance under either reading); {nominal}: computed by benchmarks/replace_datasets.py, nominal='codes'",
    }
    codes_meta_path.write_text(json.dumps(codes_meta, indent=1) + "\n")

    entry = {"datasets": names, "command": args.command, "why": args.why, "old_rows": args.keep_as, "on": today}
    meta = rewrite_artifact(merged, bench.FULL, run, entry)
    print(f"{int(replaced.sum())} rows of {names} replaced by {len(new)}; {len(merged)} rows; "
          f"fingerprint {meta['inputs_fingerprint'][:12]}")  # fmt: skip


if __name__ == "__main__":
    main()
