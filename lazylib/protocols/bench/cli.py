"""The bench's command line: ``python -m lazylib.protocols.bench`` (:func:`main`) runs
:func:`lazylib.protocols.bench.protocol.run` on the catalogue (``--full``: every data set; the book's by default) and
writes
every fold's row to a CSV file, and with ``--artifact`` Part VI's stored run (``--help`` for the options)."""

from __future__ import annotations

import argparse
import dataclasses
import time

from lazylib.parallel import connect
from lazylib.protocols.bench import checks as bench_checks
from lazylib.protocols.bench import protocol as bench
from lazylib.protocols.bench.protocol import BOOK, FULL, accuracy_table, run


def _utc_now() -> str:
    """The time now, UTC, to the second (ISO 8601)."""
    import datetime

    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _parser() -> argparse.ArgumentParser:
    """The command line's arguments (:func:`main`)."""
    parser = argparse.ArgumentParser(
        prog="python -m lazylib.protocols.bench", description=bench.__doc__.split("\n\n")[0]
    )
    parser.add_argument("--full", action="store_true", help="every data set of the catalogue (default: the book's)")
    seeds_help = "fold seeds (default: FULL or BOOK's)"
    parser.add_argument("--seeds", type=bench_checks.positive_int, default=None, help=seeds_help)
    parser.add_argument("--datasets", nargs="*", default=None, help="data set names (overrides --full)")
    parser.add_argument("--n-jobs", type=int, default=2)
    parser.add_argument("--output", default="bench_results.csv", help="CSV of every fold's row")
    parser.add_argument(
        "--artifact", default=None, help="also store the run as Part VI's artifact in this folder (benchmarks/full_run "
        "for the full run: full_run.csv.gz, full_run.json, cost_by_dataset.csv)"
    )  # fmt: skip
    parser.add_argument("--methods", nargs="*", default=None, help="method names (default: every method)")
    parser.add_argument(
        "--results", default=None, help="results folder: each job written as it ends; a rerun skips finished jobs"
    )
    parser.add_argument("--folds", type=int, nargs="*", default=None, help="run only these folds (e.g. to time)")
    parser.add_argument("--smallest-first", action="store_true", help="start the smallest data sets' jobs first")
    parser.add_argument("--scheduler", default=None, help="address of a Dask scheduler to run the jobs on")
    parser.add_argument(
        "--blas-threads", type=int, default=1, help="BLAS threads while a job runs (0: leave them as they are)"
    )
    parser.add_argument(
        "--large", type=int, default=None, help="the cliff instead of the smooth rule: instances above which a data "
        "set runs one fold seed of training parts sampled to 5,000 (the catalogue's run until 2026-12-03: 10000; "
        "0: every training part whole under every fold seed; default: FULL's smooth rule, the book's whole parts)"
    )  # fmt: skip
    return parser


def main(argv=None) -> None:
    """The command line: run the bench (``--full``: every data set) and write every fold's row to a CSV file.

    Parameters
    ----------
    argv : list of str, optional
        The arguments (default: the command line's).
    """
    parser = _parser()
    args = parser.parse_args(argv)
    bench_checks.check_command_line(args, parser)
    base = FULL if args.full else BOOK
    names = tuple(args.datasets) if args.datasets is not None else base.datasets
    chosen = {"methods": tuple(args.methods)} if args.methods is not None else {}
    if args.large is not None:
        chosen |= {"large": args.large or None, "large_rule": "cliff"}
    seeds = args.seeds if args.seeds is not None else base.n_seeds
    config = dataclasses.replace(base, datasets=names, n_seeds=seeds, **chosen)
    client = connect(args.scheduler) if args.scheduler else None
    start, cpu = time.perf_counter(), time.process_time()
    started = _utc_now()
    try:
        results = run(
            config,
            n_jobs=args.n_jobs,
            label="bench",
            results=args.results,
            client=client,
            blas_threads=args.blas_threads or None,
            folds=args.folds,
            largest_first=not args.smallest_first,
        )
    finally:
        if client is not None:
            client.close()
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    results.to_csv(args.output, index=False)
    if args.artifact:
        import sys

        from lazylib.protocols.bench.results import write_artifact

        command = " ".join(["python -m lazylib.protocols.bench", *(sys.argv[1:] if argv is None else argv)])
        write_artifact(results, args.artifact, config, command=command, started=started, ended=_utc_now(), wall_s=wall)
    failed, ran = results[results["error"].ne("")], bench_checks.summary(results, config, folds=args.folds)
    print(
        f"{ran} in {wall:.0f} s wall ({results['total_s'].sum():.0f} s of processor time in fit and predict; "
        f"this process: {cpu:.0f} s, the whole run's with --n-jobs 1); rows in {args.output}"
    )
    from lazylib.protocols.bench.stats import average_ranks, complete_block

    if len(failed):
        print(f"{len(failed)} rows failed (column error):")
        print(failed.groupby(["method", "error"]).size().to_string())
    ranks = average_ranks(complete_block(accuracy_table(results)))
    print(ranks.round(2).to_string())
