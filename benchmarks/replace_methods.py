"""Replace some methods' rows of the stored full run by a run of those methods alone, keeping the old rows beside.

When a change moves the numbers of a few methods only (issue #54's order-free Euclidean baseline: 4,440 of
71,040 rows, 0.04 of 1.9 processor-hours), those methods are re-run on the full configuration (the same data
sets, seeds, folds and protocol; a method's rows do not depend on which other methods share its job) and their
rows replace the old ones; the old rows are kept as an alternative reading (``--keep-as``), and the artifact's
``full_run.json`` records both runs. Run it with the code that computed the new rows (its inputs fingerprint is
the artifact's); the declarations of ``same_numbers.json`` were for the old artifact and start anew.

Usage (what was run on 2026-12-02, the new rows computed by ``python -m lazylib.protocols.bench --full --n-jobs 2
--methods "1-NN Euclidean" "k-NN Euclidean" --results /work/regen/results --output /work/regen/euclid.csv``):

    python benchmarks/replace_methods.py --new /work/regen/euclid.csv --command "..." \\
        --keep-as benchmarks/full_run/euclidean_codes.csv.gz --why "..."
"""

from __future__ import annotations

import argparse
import datetime
import gzip
import json
from pathlib import Path

import pandas as pd

from lazylib.protocols.bench.guard import DECLARATIONS
from lazylib.protocols.bench.protocol import FULL
from lazylib.protocols.bench.results import ROW_KEY, write_artifact

FOLDER = Path("benchmarks") / "full_run"


#: The columns read as text; every other column is a float read so that it round-trips.
TEXT = {c: str for c in ("dataset", "kind", "method", "refused", "error")}


def _write_gz(rows: pd.DataFrame, path: Path) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "wb") as fh, gzip.GzipFile(path.name.removesuffix(".gz"), "wb", fileobj=fh, mtime=0) as out:
        out.write(rows.to_csv(index=False).encode())
    tmp.replace(path)


def read_rows(path) -> pd.DataFrame:
    """Rows as text and floats that round-trip: the rows kept are written back byte for byte."""
    return pd.read_csv(path, dtype=TEXT, float_precision="round_trip")


def arguments(what: str) -> argparse.Namespace:
    """The command line both replacements take; ``what`` names what was re-run ("methods", "data sets")."""
    parser = argparse.ArgumentParser(description=f"Replace some {what}' rows of the stored full run.")
    parser.add_argument("--new", required=True, help=f"CSV of the re-run {what}' rows (the bench's --output)")
    parser.add_argument("--command", required=True, help="the command that computed them")
    parser.add_argument("--keep-as", required=True, help="where the replaced rows go (a .csv.gz)")
    parser.add_argument("--why", required=True, help=f"why the {what}' numbers moved")
    return parser.parse_args()


def earlier_run(run: dict) -> dict:
    """What identifies the run whose rows are replaced: its command, commit, fingerprint and times."""
    return {k: run[k] for k in ("command", "commit", "inputs_fingerprint", "started", "ended")}


def keep_old(rows: pd.DataFrame, keep_as: str, meta: dict) -> None:
    """The replaced rows to ``keep_as`` (a .csv.gz) and what they are (``meta``) to the .json beside it."""
    _write_gz(rows.reset_index(drop=True), Path(keep_as))
    Path(keep_as).with_suffix("").with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n")


def rewrite_artifact(merged: pd.DataFrame, config, run: dict, replaced: dict) -> dict:
    """The artifact rewritten with ``merged``'s rows under ``config`` (the current code's fingerprint), its run's
    command and times kept, this replacement (``replaced``) added to those recorded; the declarations of
    ``same_numbers.json`` removed (they were for the old artifact). Returns the new ``full_run.json``."""
    meta = write_artifact(
        merged, FOLDER, config, command=run["command"], started=run["started"], ended=run["ended"],
        wall_s=run["wall_s"],
    )  # fmt: skip
    if "summary_line" in run:
        meta["summary_line"] = run["summary_line"]
    earlier = run.get("replaced", [])
    meta["replaced"] = (earlier if isinstance(earlier, list) else [earlier]) + [replaced]
    meta["earlier_run"] = run.get("earlier_run", earlier_run(run))
    tmp = FOLDER / ".full_run.json.tmp"
    tmp.write_text(json.dumps(meta, indent=1))
    tmp.replace(FOLDER / "full_run.json")
    declarations = FOLDER / DECLARATIONS
    if declarations.is_file():
        declarations.unlink()
    return meta


def main() -> None:
    args = arguments("methods")
    run = json.loads((FOLDER / "full_run.json").read_text())
    full = read_rows(FOLDER / "full_run.csv.gz")
    new = read_rows(args.new)[list(full.columns)]
    methods = sorted(set(new["method"]))
    replaced = full["method"].isin(methods)
    key = list(ROW_KEY)
    if set(map(tuple, new[key].to_numpy())) != set(map(tuple, full.loc[replaced, key].to_numpy())):
        raise SystemExit("the new rows do not cover the same data sets, seeds, folds and methods as the old ones")
    # in place, row for row: the artifact keeps its order, and only the replaced rows change
    aligned = new.set_index(key).loc[pd.MultiIndex.from_frame(full.loc[replaced, key])].reset_index()
    merged = full.copy()
    for column in full.columns:
        merged.loc[replaced, column] = aligned[column].to_numpy()
    today = datetime.date.today().isoformat()
    keep_old(full[replaced], args.keep_as,
             {"rows_of": methods, "from_run": earlier_run(run), "replaced_on": today, "why": args.why})  # fmt: skip
    entry = {"methods": methods, "command": args.command, "why": args.why, "old_rows": args.keep_as, "on": today}
    meta = rewrite_artifact(merged, FULL, run, entry)
    fingerprint = meta["inputs_fingerprint"][:12]
    print(f"{int(replaced.sum())} rows of {methods} replaced; {len(merged)} rows; fingerprint {fingerprint}")


if __name__ == "__main__":
    main()
