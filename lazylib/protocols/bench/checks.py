"""What the bench checks before its first job (:mod:`lazylib.protocols.bench.protocol`): a configuration's counts and
names (:func:`check_config`, from :class:`~lazylib.protocols.bench.protocol.Config` itself) and that the command
line's output can be written (:func:`check_output`). A configuration error is an error naming the parameter and the
fix, never a method's refusal of a data set; and :func:`summary` says what a run ran. (That the workers of a Dask
cluster run the caller's code, and that a worker process ends with the process that started it, the library's one
path of parallel work checks for every run: :func:`lazylib.parallel.check_workers`,
:func:`lazylib.parallel.watch_parent`.)"""

from __future__ import annotations

import argparse
import os
from collections import Counter
from pathlib import Path

from lazylib._validation import Integer, check


def _duplicates(values) -> list:
    return sorted(v for v, n in Counter(values).items() if n > 1)


def check_config(config) -> None:
    """Refuse a bench configuration that cannot mean what it says, before any job runs: a data set or method
    named twice, an empty or non-positive ``ks``, a count below its least value (``n_seeds``, ``n_splits``,
    ``mc_subsets``).

    Parameters
    ----------
    config : lazylib.protocols.bench.protocol.Config
        The configuration (its own ``__post_init__`` calls this).

    Raises
    ------
    ValueError
        Naming the parameter, what it holds and the fix.
    """
    for field in ("datasets", "methods"):
        twice = _duplicates(getattr(config, field))
        if twice:
            raise ValueError(
                f"{field} names {twice} more than once: name each once (each would run and be stored twice)"
            )
    tables = [t[0] if isinstance(t, tuple) else t for t in getattr(config, "tables", ())]
    twice = _duplicates([*config.datasets, *tables])
    if twice:
        raise ValueError(f"the data sets and tables name {twice} more than once: give each table a name of its own")
    check("n_seeds", config.n_seeds, Integer(low=1))
    check("n_splits", config.n_splits, Integer(low=2))
    check("mc_subsets", config.mc_subsets, Integer(low=1))
    check("random_state", config.random_state, Integer(low=0))
    ks = tuple(config.ks) if isinstance(config.ks, (tuple, list, range)) else None
    if not ks:
        raise ValueError(f"ks must be a non-empty tuple of neighbour counts (k >= 1), got {config.ks!r}")
    for k in ks:
        check("each k of ks", k, Integer(low=1))
    if _duplicates(ks):
        raise ValueError(f"ks names {_duplicates(ks)} more than once: name each k once")


def check_output(path, *, what: str = "--output") -> Path:
    """Refuse an output file that cannot be written, before any job runs: its folder must exist and take a
    file (a probe written and removed).

    Parameters
    ----------
    path : path
        The file the command line will write once the run ends.
    what : str
        The option that names it, for the message.

    Returns
    -------
    Path
        ``path``.
    """
    path = Path(path)
    folder = path.parent
    if not folder.is_dir():
        raise ValueError(f"{what} {path}: its folder {folder} does not exist; create it or name another file")
    if path.is_dir():
        raise ValueError(f"{what} {path} is a folder; name a file")
    probe = folder / f".{path.name}.{os.getpid()}.probe"
    try:
        probe.write_text("")
        probe.unlink()
    except OSError as err:
        raise ValueError(f"{what} {path} cannot be written ({type(err).__name__}: {err}); name another file") from None
    return path


def positive_int(text: str) -> int:
    """An argparse ``type``: a whole number of at least 1 (``--seeds 0`` is refused, not read as the default).

    Parameters
    ----------
    text : str
        The argument.

    Returns
    -------
    int
    """
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not a positive count (at least 1)")
    return value


def summary(results, config, *, folds=None) -> str:
    """What a run ran, in one line: its data sets, methods, fold seeds and folds, and its jobs run, resumed from a
    results folder and failed (``results.attrs["jobs"]`` as :func:`lazylib.protocols.bench.protocol.run` sets it).

    Parameters
    ----------
    results : DataFrame
        The run's rows.
    config : lazylib.protocols.bench.protocol.Config
        Its configuration.
    folds : sequence of int, optional
        The folds it ran, when not all of them.

    Returns
    -------
    str
    """
    names = list(dict.fromkeys(results["dataset"])) if len(results) else list(config.datasets)
    shown = ", ".join(names) if len(names) <= 6 else f"{', '.join(names[:5])}, ... ({len(names) - 5} more)"
    seeds = results.groupby("dataset")["seed"].nunique()
    seed_text = f"{config.n_seeds}" if seeds.empty or seeds.eq(config.n_seeds).all() else f"{seeds.min()}-{seeds.max()}"
    fold_text = (
        f"{config.n_splits}" if folds is None else f"{len(set(folds))} of {config.n_splits} ({sorted(set(folds))})"
    )
    jobs = results.attrs.get("jobs", {})
    job_text = ", ".join(f"{jobs.get(k, 0)} {k}" for k in ("run", "resumed", "failed"))
    return (
        f"{len(names)} data sets ({shown}) x {len(config.methods)} methods x {seed_text} seeds x {fold_text} folds: "
        f"{sum(jobs.get(k, 0) for k in ('run', 'resumed'))} jobs ({job_text})"
    )


def check_command_line(args, parser: argparse.ArgumentParser) -> None:
    """The command line's checks before any job runs (``parser.error`` names the option): ``--datasets``,
    ``--methods`` or ``--folds`` given with no value, and an ``--output`` file or ``--artifact`` folder that cannot
    be written (found now, not after every job ran).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed arguments of :func:`lazylib.protocols.bench.cli.main`.
    parser : argparse.ArgumentParser
        Their parser.
    """
    for option in ("datasets", "methods", "folds"):
        if getattr(args, option) == []:
            parser.error(f"--{option} was given no value: name at least one, or leave the option out")
    try:
        check_output(args.output)
        if args.artifact:
            folder = Path(args.artifact)
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as err:
                raise ValueError(f"--artifact {folder} cannot be created ({type(err).__name__}: {err})") from None
            check_output(folder / "full_run.json", what="--artifact")
    except ValueError as err:
        parser.error(str(err))


def check_tables(config, tables) -> dict:
    """The tables of ``config`` from ``tables`` (name -> :class:`~lazylib.datasets.frame.Table`), each with the
    content ``config`` names, and each class with at least one member per fold: checked before any job.

    Parameters
    ----------
    config : lazylib.protocols.bench.protocol.Config
    tables : dict or None
        Name -> Table, exactly the configuration's tables.

    Returns
    -------
    dict
        ``tables`` as a dict (empty for a catalogue run).
    """
    import pandas as pd

    tables = dict(tables or {})
    expected = dict(config.tables)
    if set(tables) != set(expected):
        raise ValueError(
            f"the configuration names the tables {sorted(expected)}, run was given {sorted(tables)}: pass "
            "tables={name: Table} for exactly the configuration's tables (Config(tables=((name, table.sha256), ...)))"
        )
    for name, table in tables.items():
        if table.sha256 != expected[name]:
            raise ValueError(
                f"table {name!r}: its content (sha256 {table.sha256[:12]}...) is not the one the configuration "
                f"names ({expected[name][:12]}...): build the Config from this table"
            )
        counts = pd.Series(table.y).value_counts()
        small = counts[counts < config.n_splits]
        if len(small):
            cls, count = small.index[-1], int(small.iloc[-1])
            fix = f"use at most {count} folds (n_splits={count}, --folds {count})" if count >= 2 else "leave it out"
            raise ValueError(
                f"table {name!r}: class {cls!r} has {count} row{'s' * (count != 1)}, fewer than the "
                f"{config.n_splits} folds of each cross-validation (every test fold needs one of each class): "
                f"{fix}, or merge the class with another"
            )
    return tables
