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

import argparse
import dataclasses
import datetime
import json
from pathlib import Path

import pandas as pd
from replace_methods import FOLDER, _write_gz

from lazylib.protocols.bench import methods as bench_methods
from lazylib.protocols.bench import protocol as bench
from lazylib.protocols.bench.guard import DECLARATIONS
from lazylib.protocols.bench.readings import BASELINES, CODE_ORDER
from lazylib.protocols.bench.results import ROW_KEY, write_artifact

TEXT = {c: str for c in ("dataset", "kind", "method", "refused", "error")}


def _read(path) -> pd.DataFrame:
    """Rows as text and floats that round-trip: the rows kept are written back byte for byte."""
    return pd.read_csv(path, dtype=TEXT, float_precision="round_trip")


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
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--new", required=True, help="CSV of the re-run data sets' rows (the bench's --output)")
    parser.add_argument("--command", required=True, help="the command that computed them")
    parser.add_argument("--keep-as", required=True, help="where the replaced rows go (a .csv.gz)")
    parser.add_argument("--why", required=True, help="why the data sets' numbers moved")
    args = parser.parse_args()

    run = json.loads((FOLDER / "full_run.json").read_text())
    full, new = _read(FOLDER / "full_run.csv.gz"), _read(args.new)
    names = sorted(set(new["dataset"]))
    if set(map(tuple, new[list(ROW_KEY)].to_numpy())) != expected_keys(bench.FULL, names):
        raise SystemExit(f"the new rows are not every seed, fold and method FULL gives {names}, once each")
    if new["error"].fillna("").ne("").any():
        raise SystemExit("the new rows hold errors: run the failed jobs again before replacing")
    replaced = full["dataset"].isin(names)
    merged = _spliced(full, new, names)
    _write_gz(full[replaced].reset_index(drop=True), Path(args.keep_as))
    today = datetime.date.today().isoformat()
    from_run = {k: run[k] for k in ("command", "commit", "inputs_fingerprint", "started", "ended")}
    keep_meta = {"rows_of": names, "config": bench.CLIFF.record(), "from_run": from_run, "replaced_on": today}
    keep_meta["why"] = args.why
    Path(args.keep_as).with_suffix("").with_suffix(".json").write_text(json.dumps(keep_meta, indent=1) + "\n")

    codes_path = Path(CODE_ORDER)
    codes = _read(codes_path)
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

    meta = write_artifact(
        merged, FOLDER, bench.FULL, command=run["command"], started=run["started"], ended=run["ended"],
        wall_s=run["wall_s"],
    )  # fmt: skip
    if "summary_line" in run:
        meta["summary_line"] = run["summary_line"]
    earlier = run.get("replaced", [])
    meta["replaced"] = (earlier if isinstance(earlier, list) else [earlier]) + [
        {"datasets": names, "command": args.command, "why": args.why, "old_rows": args.keep_as, "on": today}
    ]
    meta["earlier_run"] = run.get("earlier_run", from_run)
    tmp = FOLDER / ".full_run.json.tmp"
    tmp.write_text(json.dumps(meta, indent=1))
    tmp.replace(FOLDER / "full_run.json")
    declarations = FOLDER / DECLARATIONS
    if declarations.is_file():
        declarations.unlink()  # they were for the old artifact: a new one starts with none
    print(f"{int(replaced.sum())} rows of {names} replaced by {len(new)}; {len(merged)} rows; "
          f"fingerprint {meta['inputs_fingerprint'][:12]}")  # fmt: skip


if __name__ == "__main__":
    main()
