"""The command line ``lazylib`` (also ``python -m lazylib``): ``lazylib bench TABLE --target COLUMN --report DIR``
puts every applicable method of the five papers on a user's own table, with the statistics made for one table,
and writes an offline report (:mod:`lazylib.protocols.bench.user_table`, :mod:`lazylib.report.table_report`);
``lazylib classify --train FILE --test FILE`` classifies the rows of one nominal file by their nearest
neighbours in another, as TiMBL does (:mod:`lazylib.classify`: numpy only, no scikit-learn, scipy or pandas).

Bad input ends with one line on standard error naming the problem and what to do, and exit status 2 (never a
traceback). The heavy modules are imported only when a command runs, so ``lazylib --help`` answers at once.
"""

from __future__ import annotations

import argparse
import sys

#: Exit status of a refused input (argparse's own for a bad option).
BAD_INPUT = 2
#: The metrics and the default working memory (MiB) of ``lazylib classify``: those of :mod:`lazylib.classify`
#: (``METRICS``, ``WORKING_MEMORY``; a test holds them equal), named here so that ``--help`` imports no numpy.
CLASSIFY_METRICS = ("mvdm", "ig", "overlap")
CLASSIFY_MEMORY = 64
#: Seconds a Dask scheduler (``--scheduler``) has to answer before the command gives up.
SCHEDULER_TIMEOUT = 10


def _names(text: str) -> tuple:
    """A comma-separated list of names (column or method names), blanks around each removed."""
    names = tuple(n.strip() for n in text.split(",") if n.strip())
    if not names:
        raise argparse.ArgumentTypeError(f"expected comma-separated names, got {text!r}")
    return names


def parser() -> argparse.ArgumentParser:
    """The arguments of the command line (:func:`main`).

    Returns
    -------
    argparse.ArgumentParser
    """
    top = argparse.ArgumentParser(prog="lazylib", description=__doc__.split("\n\n")[0])
    commands = top.add_subparsers(dest="command", metavar="COMMAND")
    bench = commands.add_parser(
        "bench",
        help="rank every method of the five papers on your own table",
        description="Rank every applicable method of the five papers on your own table(s) by repeated stratified "
        "ten-fold cross-validation, with the statistics made for one table, and write DIR/index.html (offline), "
        "DIR/results.csv and DIR/summary.json. A rerun into the same DIR resumes.",
    )
    bench.add_argument(
        "tables", nargs="+", metavar="TABLE", help="a CSV (delimiter sniffed), TSV, ARFF or Parquet file"
    )
    bench.add_argument(
        "--target", action="append", required=True, metavar="COLUMN",
        help="the class column (once for every table, or once per table in their order)",
    )  # fmt: skip
    bench.add_argument("--report", required=True, metavar="DIR", help="the report folder (created; a rerun resumes)")
    bench.add_argument("--nominal", type=_names, default=(), metavar="A,B", help="columns read as nominal")
    bench.add_argument("--numeric", type=_names, default=(), metavar="C,D", help="columns read as numbers")
    bench.add_argument(
        "--missing", action="append", default=None, metavar="TOKEN",
        help="a cell meaning 'unknown' (repeatable; default: ? and empty cells; empty cells always are)",
    )  # fmt: skip
    bench.add_argument("--methods", type=_names, default=None, metavar="M1,M2", help="bench methods (default: all)")
    bench.add_argument("--seeds", type=int, default=None, metavar="N", help="fold seeds (default: from --budget)")
    bench.add_argument(
        "--budget", type=float, default=None, metavar="MINUTES",
        help="wall-clock minutes the run may take, from a one-fold pilot (default: 15; ignored with --seeds)",
    )  # fmt: skip
    bench.add_argument("--n-jobs", type=int, default=1, metavar="N", help="worker processes (default: 1)")
    bench.add_argument("--scheduler", default=None, metavar="ADDRESS", help="run on this Dask scheduler")
    catalogue = bench.add_mutually_exclusive_group()
    catalogue.add_argument(
        "--with-catalogue", dest="with_catalogue", action="store_true", default=True,
        help="compare the table with the catalogue's data sets of the stored full run (the default)",
    )  # fmt: skip
    catalogue.add_argument("--no-catalogue", dest="with_catalogue", action="store_false", help="leave that out")
    bench.add_argument("--random-state", type=int, default=2026, metavar="SEED", help="the seed of the fold seeds")
    _classify_parser(commands)
    return top


def _classify_parser(commands) -> None:
    """The arguments of ``lazylib classify`` (:func:`classify`)."""
    c = commands.add_parser(
        "classify",
        help="classify a file's rows by their nearest neighbours in a training file (as TiMBL does)",
        description="Classify every row of TEST by its k nearest rows of TRAIN (every column nominal, ? or an "
        "empty cell unknown, the class in the last column unless --target) and write one predicted class per "
        "line. Equal votes go to the class more frequent in TRAIN. The predictions are those of "
        "lazylib.neighbors.KNeighborsClassifier(k, metric, ties='all').",
    )
    c.add_argument("--train", required=True, metavar="FILE", help="the training file (C4.5 .data or CSV)")
    c.add_argument(
        "--test", required=True, metavar="FILE",
        help="the rows to classify: with the class column (the accuracy is reported) or without it",
    )  # fmt: skip
    c.add_argument(
        "--metric", choices=CLASSIFY_METRICS, default="ig",
        help="mvdm (Payne & Edwards' MVDM), ig (overlap weighted by information gain: TiMBL's IB1-IG), overlap "
        "(default: ig)",
    )  # fmt: skip
    c.add_argument("-k", type=int, default=1, metavar="K", help="neighbours (default: 1)")
    c.add_argument(
        "--output", default="-", metavar="FILE",
        help="where the predictions go, one per line, written atomically (default: - for standard output)",
    )  # fmt: skip
    c.add_argument(
        "--target", default=None, metavar="COLUMN",
        help="the class column: its number from 1, or its name with --header (default: the last column)",
    )  # fmt: skip
    c.add_argument("--header", action="store_true", help="the first row of each file names the columns")
    c.add_argument("--delimiter", default=",", metavar="CHAR", help="the cell separator (default: ,)")
    c.add_argument(
        "--working-memory", type=float, default=CLASSIFY_MEMORY, metavar="MIB",
        help=f"bound, in MiB, on one block's temporaries (default: {CLASSIFY_MEMORY})",
    )  # fmt: skip


def _one_line(err: BaseException) -> str:
    text = " ".join(str(err).split())
    return text or type(err).__name__


def _client(address: str | None):
    """A Dask client on ``address`` (None without one), refused with the fix when Dask is missing or the scheduler
    does not answer within :data:`SCHEDULER_TIMEOUT` seconds (:func:`lazylib.parallel.connect`)."""
    if not address:
        return None
    from lazylib.parallel import connect  # here: the command's help imports nothing heavy

    return connect(address, timeout=SCHEDULER_TIMEOUT)


def _targets(args) -> list:
    if len(args.target) not in (1, len(args.tables)):
        raise ValueError(
            f"{len(args.target)} --target for {len(args.tables)} tables: give --target once (the same column in "
            "every table) or once per table"
        )
    return args.target * len(args.tables) if len(args.target) == 1 else list(args.target)


def _said(result, folder) -> None:
    st = result.statistics
    print(
        f"{result.table.name}: best {st.best} ({st.summary.at[st.best, 'mean']:.2f} %), recommended "
        f"{st.recommended}; report in {folder / 'index.html'}"
    )


def bench(args, command: str) -> int:
    """Run ``lazylib bench`` on parsed arguments (:func:`parser`).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed arguments.
    command : str
        The command line, for the report's provenance.

    Returns
    -------
    int
        The exit status (0).
    """
    from pathlib import Path

    from lazylib.datasets.frame import read_table
    from lazylib.protocols.bench.user_table import bench_table, check_writable
    from lazylib.protocols.bench.user_tables import bench_tables, unique_names

    check_writable(args.report)
    for name, value, low in (("--seeds", args.seeds, 1), ("--n-jobs", args.n_jobs, 1)):
        if value is not None and value < low:
            raise ValueError(f"{name} must be at least {low}, got {value}")
    if args.budget is not None and not args.budget > 0:
        raise ValueError(f"--budget must be a positive number of minutes, got {args.budget}")
    missing = ("", *args.missing) if args.missing else ("?", "")
    targets = _targets(args)
    tables = [
        read_table(path, target, nominal=args.nominal, numeric=args.numeric, missing=missing)
        for path, target in zip(args.tables, targets)
    ]
    client = _client(args.scheduler)
    options = {
        "methods": args.methods, "seeds": args.seeds, "budget": args.budget, "n_jobs": args.n_jobs,
        "client": client, "with_catalogue": args.with_catalogue, "random_state": args.random_state,
        "command": command, "log": print,
    }  # fmt: skip
    try:
        if len(tables) == 1:
            result = bench_table(tables[0], target=targets[0], results=args.report, **options)
            result.write(args.report)
            _said(result, Path(args.report))
        else:
            named = unique_names(tables)
            several = bench_tables(named, results=args.report, **options)
            several.write(args.report)
            for name, result in several.results.items():
                _said(result, Path(args.report) / name)
            print(f"the tables compared: {Path(args.report) / 'index.html'}")
    finally:
        if client is not None:
            client.close()
    return 0


def _target_index(target: str | None, names, width: int, path: str) -> int:
    """The 0-based index of the class column ``target`` (a number from 1, or a header name; None: the last)."""
    if target is None:
        return width - 1
    if names is not None and target in names:
        return names.index(target)
    if target.isdigit() and 1 <= int(target) <= width:
        return int(target) - 1
    named = f" or a name of its header ({', '.join(names[:8])})" if names is not None else ""
    raise ValueError(f"--target {target!r}: {path} has {width} columns; give a number from 1 to {width}{named}")


def classify(args) -> int:
    """Run ``lazylib classify`` on parsed arguments (:func:`parser`).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed arguments.

    Returns
    -------
    int
        The exit status (0).
    """
    from lazylib import classify as knn

    if len(args.delimiter) != 1:
        raise ValueError(f"--delimiter must be one character, got {args.delimiter!r}")
    if args.output != "-":
        import os

        folder = os.path.dirname(os.path.abspath(args.output))
        if os.path.isdir(args.output) or not os.access(folder, os.W_OK):
            raise ValueError(f"--output {args.output}: cannot write there; name a file in a folder you can write to")
    read = {"delimiter": args.delimiter, "header": args.header}
    train = knn.read_table(args.train, **read)
    width = train.cells.codes.shape[1]
    if width < 2:
        raise ValueError(f"{args.train} has one column: it needs at least one attribute and the class")
    t = _target_index(args.target, train.names, width, args.train)
    features = [j for j in range(width) if j != t]
    model = knn.fit(train.cells.take(features), train.cells.take([t]), metric=args.metric, k=args.k,
                    working_memory=args.working_memory)  # fmt: skip
    test = knn.read_table(args.test, **read)
    if test.cells.codes.shape[1] not in (width, width - 1):
        raise ValueError(
            f"{args.test} has {test.cells.codes.shape[1]} columns, {args.train} {width}: give the test rows the "
            "training file's columns, with or without the class"
        )
    labelled = test.cells.codes.shape[1] == width
    predicted = knn.predict(model, test.cells.take(features) if labelled else test.cells)
    if args.output == "-":
        sys.stdout.write("\n".join(predicted.tolist()) + "\n")
    else:
        knn.write_lines(args.output, predicted.tolist())
    where = "standard output" if args.output == "-" else args.output
    said = f"{len(predicted)} predictions ({args.metric}, k = {args.k}) to {where}"
    if labelled:
        hits = sum(p == c for p, c in zip(predicted.tolist(), test.cells.column(t)))
        said += (
            f"; accuracy {100 * hits / len(predicted):.2f} % ({hits} of {len(predicted)}) on the test file's classes"
        )
    print(f"lazylib classify: {said}", file=sys.stderr)
    return 0


def main(argv=None) -> int:
    """The command line's entry point (``lazylib``, ``python -m lazylib``).

    Parameters
    ----------
    argv : list of str, optional
        The arguments (default: the command line's).

    Returns
    -------
    int
        The exit status: 0 when done, 2 for a refused input (with one line on standard error), 130 when
        interrupted.
    """
    args = parser().parse_args(argv)
    if args.command is None:
        parser().print_help()
        return BAD_INPUT
    command = " ".join(["lazylib", *(sys.argv[1:] if argv is None else argv)])
    try:
        return classify(args) if args.command == "classify" else bench(args, command)
    except KeyboardInterrupt:
        resume = "; the same command resumes from the finished folds" if args.command == "bench" else ""
        print(f"lazylib {args.command}: interrupted{resume}", file=sys.stderr)
        return 130
    except (ValueError, OSError, ImportError) as err:  # TableError, lazylib.classify.InputError: ValueErrors
        print(f"lazylib {args.command}: error: {_one_line(err)}", file=sys.stderr)
        return BAD_INPUT
