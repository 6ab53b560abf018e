"""A user's own table on the bench: every applicable method of the five papers on repeated stratified folds of the
table (:func:`lazylib.protocols.bench.protocol.run`), the statistics made for one table
(:func:`lazylib.protocols.bench.table_stats.one_table`), the catalogue's view of it
(:mod:`lazylib.protocols.bench.catalogue_advice`) and its provenance, in one :class:`TableResult` that writes the report
folder (``index.html``, ``results.csv``, ``summary.json``). The command line ``lazylib bench`` (:mod:`lazylib.cli`)
calls :func:`bench_table`.
"""

from __future__ import annotations

import json
import os
import platform
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

#: The columns of a :class:`TableResult`'s ``rows``, in order.
ROW_COLUMNS = ("method", "seed", "fold", "accuracy", "fit_s", "predict_s", "total_s", "status", "message")

#: The budget (minutes of wall time) when neither seeds nor a budget are given.
DEFAULT_BUDGET = 15.0

#: The catalogue's nearest data sets shown and used for its advice.
NEAREST = 5


@dataclass(frozen=True)
class TableResult:
    """A table on the bench: what :func:`bench_table` returns.

    Attributes
    ----------
    table : lazylib.datasets.frame.Table
        The table as read (schema, classes, sha256).
    rows : DataFrame
        One row per method, fold seed and fold (:data:`ROW_COLUMNS`): ``accuracy`` (percent, NaN unless
        ``status`` is "ok"), ``fit_s``, ``predict_s``, ``total_s`` (processor seconds), ``status`` ("ok",
        "refused", "failed") and ``message`` (the refusal or the error, "" when ok).
    statistics : lazylib.protocols.bench.table_stats.TableStatistics
        The statistics for one table.
    catalogue : dict or None
        The catalogue's view (:func:`lazylib.protocols.bench.catalogue_advice.catalogue_view` with ``hit_rate``), or
        None (not asked for, or the stored full run is not in this installation: ``provenance`` says which).
    provenance : dict
        lazylib's version and commit, the table's sha256, the fold seeds, the command, the machine, the dates.
    config : lazylib.protocols.bench.protocol.Config
        The run's configuration.
    """

    table: object
    rows: pd.DataFrame
    statistics: object
    catalogue: dict | None
    provenance: dict
    config: object = field(repr=False, default=None)

    def methods(self) -> list[dict]:
        """Per method: ``name``, ``status`` ("ok", "refused", "failed" or "partial": failed on some folds),
        ``mean_accuracy`` (None without a result on every fold), its interval, ``wins``, ``time_s`` and
        ``message``.

        Returns
        -------
        list of dict
            In the order of the accuracy table (best first), refused methods last.
        """
        summary = self.statistics.summary
        out = []
        for name, rows in self.rows.groupby("method", sort=False):
            statuses = set(rows["status"])
            status = statuses.pop() if len(statuses) == 1 else "partial"
            message = next((m for m in rows["message"] if m), "")
            entry = {"name": name, "status": status, "message": message}
            s = summary.loc[name] if name in summary.index else None
            ran = s is not None and s["status"] == "ok"
            for key, column in (("mean_accuracy", "mean"), ("ci_low", "ci_low"), ("ci_high", "ci_high")):
                entry[key] = _number(s[column]) if ran else None
            entry["wins"] = _number(s["wins"]) if ran else None
            entry["time_s"] = _number(s["time_s"]) if s is not None else None
            out.append(entry)
        rank = {m: i for i, m in enumerate(summary.index)}
        return sorted(out, key=lambda e: (e["mean_accuracy"] is None, rank.get(e["name"], len(rank))))

    def summary(self) -> dict:
        """What ``summary.json`` holds: ``provenance`` (with ``data_sha256``), ``data`` (the table as read, with
        ``rows_dropped_missing_target`` and ``columns``: name -> type), ``protocol``, ``methods``
        (:meth:`methods`), ``recommended`` (``method``, ``reason``), ``tests`` (the statistics) and
        ``catalogue`` (``nearest``: the catalogue data sets most like the table, and the advice's hit rate), as
        plain JSON types.

        Returns
        -------
        dict
        """
        st = self.statistics
        catalogue = None
        if self.catalogue is not None:
            view = self.catalogue
            catalogue = {
                "nearest": [d["dataset"] for d in view["nearest"]],
                "distances": [d["distance"] for d in view["nearest"]],
                "recommended": view["recommended"],
                "hit_rate": {k: _number(v) for k, v in view["hit_rate"].items() if k != "picks"},
            }
        return {
            "provenance": dict(self.provenance),
            "data": self.table.to_dict(),
            "methods": self.methods(),
            "recommended": {"method": st.recommended, "reason": st.reason, "best": st.best},
            "tests": st.to_dict(),
            "catalogue": catalogue,
        }

    def to_html(self, path) -> Path:
        """Write the report page (:func:`lazylib.report.table_report.render`) to ``path``, atomically.

        Parameters
        ----------
        path : str or Path
            The HTML file.

        Returns
        -------
        Path
        """
        from lazylib.report.table_report import render

        path = Path(path)
        write_atomic(path, render(self))
        return path

    def write(self, folder) -> Path:
        """Write the report folder: ``index.html``, ``results.csv`` (:attr:`rows`) and ``summary.json``
        (:meth:`summary`), each to a temporary name first, then renamed (a file is always whole).

        Parameters
        ----------
        folder : str or Path
            Created when missing.

        Returns
        -------
        Path
            The folder.
        """
        folder = check_writable(folder)
        write_atomic(folder / "results.csv", self.rows.to_csv(index=False))
        write_atomic(folder / "summary.json", json.dumps(self.summary(), indent=1, allow_nan=False))
        self.to_html(folder / "index.html")
        return folder


def _number(value):
    """A JSON number: numpy scalars as Python ones, NaN and infinities as None."""
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return float(value) if np.isfinite(value) else None
    return value


def write_atomic(path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder, then :func:`os.replace`.

    Parameters
    ----------
    path : str or Path
        The file.
    text : str
        Its contents (UTF-8).
    """
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def check_writable(folder) -> Path:
    """``folder`` created when missing and checked writable (a file created and removed there), before any work.

    Parameters
    ----------
    folder : str or Path
        The report or results folder.

    Returns
    -------
    Path

    Raises
    ------
    OSError
        Naming the folder, the reason and the fix.
    """
    folder = Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / f".lazylib-write-check-{os.getpid()}"
        probe.write_text("")
        probe.unlink()
    except OSError as err:
        reason = err.strerror or type(err).__name__
        raise OSError(
            f"cannot write to the report folder {folder} ({reason}): name a folder you can write to"
        ) from None
    return folder


def rows_of_run(run: pd.DataFrame) -> pd.DataFrame:
    """The ``rows`` of a :class:`TableResult` from those of :func:`lazylib.protocols.bench.protocol.run` (one table):
    ``status`` "refused" where the library refused the table, "failed" where a method raised anything else.

    Parameters
    ----------
    run : DataFrame
        Rows of :func:`lazylib.protocols.bench.protocol.run`.

    Returns
    -------
    DataFrame
        With the columns :data:`ROW_COLUMNS`, sorted by method (the bench's order), seed and fold.
    """
    refused = run["refused"].fillna("").astype(str)
    error = run["error"].fillna("").astype(str)
    status = np.where(refused.ne(""), "refused", np.where(error.ne(""), "failed", "ok"))
    rows = run.assign(status=status, message=np.where(refused.ne(""), refused, error))
    rows.loc[rows["status"] != "ok", "accuracy"] = np.nan
    rows = rows[list(ROW_COLUMNS)].reset_index(drop=True)
    return rows


def _full_run():
    """The stored full run, looked for under the book's root and the checkout holding lazylib (None if absent)."""
    import lazylib
    from lazylib.protocols.bench.results import FULL_RUN, load_full_run

    found = load_full_run()
    if found is None:
        path = Path(lazylib.__file__).resolve().parents[1] / FULL_RUN
        found = load_full_run(path) if path.is_file() else None
    return found


def catalogue_of(table, statistics, methods) -> tuple[dict | None, str]:
    """The catalogue's view of ``table`` (its :data:`NEAREST` nearest data sets of the stored full run, their
    advice, the table ranked among them) with the advice's measured hit rate, or None and the reason.

    Parameters
    ----------
    table : lazylib.datasets.frame.Table
    statistics : lazylib.protocols.bench.table_stats.TableStatistics
    methods : sequence of str
        The methods run on the table.

    Returns
    -------
    (dict or None, str)
        The view (:func:`lazylib.protocols.bench.catalogue_advice.catalogue_view`, with ``hit_rate``: its dict plus
        ``plain``, the plain advice most often given) and "" or the reason there is none.
    """
    from lazylib.protocols.bench import catalogue_advice
    from lazylib.protocols.bench.guard import StaleArtifact

    try:
        full = _full_run()
    except StaleArtifact as err:  # the book's guard: its rows may not be this code's, so no view is built on them
        return None, f"the stored full run is not read: {err}"
    if full is None:
        return None, "the stored full run (benchmarks/full_run/full_run.csv.gz) is not in this installation"
    profiles = catalogue_advice.catalogue_profiles(sorted(full["dataset"].unique()))
    summary = statistics.summary
    ran = summary.index[summary["status"] == "ok"]
    target = catalogue_advice.profile(table.X, table.y, table.types)
    view = catalogue_advice.catalogue_view(
        target, full, summary.loc[ran, "mean"], k=NEAREST, profiles=profiles, methods=[m for m in methods if m in ran]
    )
    rate = catalogue_advice.hit_rate(full, profiles, k=NEAREST)
    rate["plain"] = rate["picks"]["baseline"].mode().iloc[0]
    view["hit_rate"] = rate
    return view, ""


def machine() -> str:
    """The platform, the processor's cores and the Python version of this machine, in words.

    Returns
    -------
    str
    """
    return f"{platform.platform()}, {os.cpu_count()} cores, Python {platform.python_version()}"


def utc_now() -> str:
    """The time now, UTC, to the second (ISO 8601).

    Returns
    -------
    str
    """
    import datetime

    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def provenance(table, config, *, command: str, started: str, wall_s: float, target: str, protocol: str) -> dict:
    """Where a table's results come from: lazylib's version and commit, the table's sha256, the fold seeds, the
    command, the machine and the dates.

    Parameters
    ----------
    table : lazylib.datasets.frame.Table
    config : lazylib.protocols.bench.protocol.Config
    command : str
        The command line (or the Python call).
    started : str
        When the run started (UTC, ISO 8601).
    wall_s : float
        Its wall-clock seconds.
    target : str
        The class column.
    protocol : str
        The protocol in words.

    Returns
    -------
    dict
    """
    import lazylib
    from lazylib._validation import Real, check

    wall_s = check("wall_s", wall_s, Real(low=0))
    info = lazylib.build_info()
    return {
        "lazylib_version": info["version"],
        "lazylib_commit": info["commit"],
        "data_sha256": table.sha256,
        "data_source": table.source,
        "target": target,
        "seeds": config.seeds(),
        "n_splits": config.n_splits,
        "random_state": config.random_state,
        "protocol": protocol,
        "command": command,
        "machine": machine(),
        "started_utc": started,
        "ended_utc": utc_now(),
        "wall_s": round(float(wall_s), 1),
    }


def _as_table(X, y, target, types, missing):
    """The table to bench: ``X`` itself when it is a :class:`~lazylib.datasets.frame.Table`, else read by
    :func:`~lazylib.datasets.frame.from_frame` (with ``y`` joined as the class column when given)."""
    from lazylib.datasets.frame import Table, from_frame

    if isinstance(X, Table):
        if y is not None or types is not None:
            raise ValueError("X is already a Table (its classes and types are read): give neither y nor types")
        return X, target or str(X.y.name)
    if not isinstance(X, pd.DataFrame):
        raise ValueError(f"X must be a pandas DataFrame or a lazylib Table, got {type(X).__name__}")
    if y is None:
        if target is None:
            raise ValueError("name the class column (target=...) or give the classes (y=...)")
        return from_frame(X, target, types, missing=missing), target
    target = target or (getattr(y, "name", None) or "class")
    if target in X.columns:
        raise ValueError(f"X already has a column {target!r}: give the classes as y or as target, not both")
    if len(y) != len(X):
        raise ValueError(f"y has {len(y)} values but X has {len(X)} rows")
    frame = X.reset_index(drop=True).assign(**{target: np.asarray(y, dtype=object)})
    return from_frame(frame, target, types, missing=missing), target


def _check_results_folder(results, config) -> None:
    """Refuse a results folder that holds another table's or configuration's jobs, saying which differs."""
    meta = Path(results) / "config.json"
    if not meta.is_file():
        return
    try:
        found = json.loads(meta.read_text())
    except (OSError, ValueError) as err:
        raise ValueError(f"{meta} is not a results folder's record ({err}): name a new --report folder") from None
    if found.get("key") == config.key():
        return
    old, new = found.get("config", {}), json.loads(json.dumps(config_dict(config), default=list))
    differs = sorted(k for k in set(old) | set(new) if old.get(k) != new.get(k))
    what = "another table" if "tables" in differs else "another configuration"
    raise ValueError(
        f"the folder {results} holds the results of {what} (differs in: {', '.join(differs) or 'its key'}): "
        "name a new --report folder, or remove that one"
    )


def config_dict(config) -> dict:
    """A configuration as a plain dict (:func:`dataclasses.asdict`).

    Parameters
    ----------
    config : lazylib.protocols.bench.protocol.Config

    Returns
    -------
    dict
    """
    from dataclasses import asdict

    return asdict(config)


def default_command(**arguments) -> str:
    """The Python call of :func:`bench_table` in words (the provenance's ``command`` outside the command line).

    Parameters
    ----------
    **arguments
        The call's arguments that are not their defaults.

    Returns
    -------
    str
    """
    shown = ", ".join(f"{k}={v!r}" for k, v in arguments.items() if v is not None)
    return f"lazylib.protocols.bench.user_table.bench_table({shown})"


def _log(log, text: str) -> None:
    if log is not None:
        log(text)


def _earlier_choice(results, base) -> dict | None:
    """``n_seeds`` and ``max_train`` of the run a results folder holds, if it is ``base`` but for those two."""
    meta = None if results is None else Path(results) / "config.json"
    if meta is None or not meta.is_file():
        return None
    try:
        found = json.loads(meta.read_text()).get("config", {})
    except (OSError, ValueError):
        return None  # refused, with its reason, by _check_results_folder
    now = json.loads(json.dumps(config_dict(base), default=list))
    same = all(found.get(k) == v for k, v in now.items() if k not in ("n_seeds", "max_train"))
    return {"n_seeds": found["n_seeds"], "max_train": found.get("max_train")} if same and "n_seeds" in found else None


def _configure(table, *, methods, seeds, budget, n_jobs, random_state, progress, log, results=None):
    """The run's configuration: ``seeds`` fold seeds when given, else the fold seeds (and, for a large table, the
    training sample) that :func:`lazylib.protocols.bench.budget.choose` fits in ``budget`` minutes after a
    one-fold pilot (:func:`~lazylib.protocols.bench.budget.estimate`, said through ``log``); with the protocol in
    words. A user's table always follows the smooth rule of the training sample (no cliff)."""
    import dataclasses

    from lazylib.protocols.bench import budget as bench_budget
    from lazylib.protocols.bench.protocol import Config

    chosen = {"methods": tuple(methods)} if methods else {}
    tables = {table.name: table}
    base = Config(
        datasets=(), tables=((table.name, table.sha256),), random_state=random_state, large_rule="smooth", **chosen
    )
    earlier = _earlier_choice(results, base)
    if seeds is not None:
        config = dataclasses.replace(base, n_seeds=seeds)
    elif earlier is not None:  # resuming: the budget's choice of the folder's first run, not a new pilot's
        config = dataclasses.replace(base, **earlier)
        _log(log, f"resuming the run in {results}: {earlier['n_seeds']} fold seed(s), as its budget chose them")
    else:
        estimate = bench_budget.estimate(base, tables, progress=progress)
        _log(log, estimate.text(n_jobs))
        config = bench_budget.choose(estimate, DEFAULT_BUDGET if budget is None else budget, n_jobs)
    words = bench_budget.describe(config, tables)
    _log(log, words)
    return config, words


def fold_test_share(config, table) -> float:
    """``n_test / n_train`` of a fold of ``table`` under ``config`` (the corrected t-test's factor): the first fold
    of the first fold seed, its training part as the run samples it
    (:func:`lazylib.protocols.bench.protocol.training_part`).

    Parameters
    ----------
    config : lazylib.protocols.bench.protocol.Config
    table : lazylib.datasets.frame.Table

    Returns
    -------
    float
    """
    from lazylib.evaluation import stratified_kfold
    from lazylib.protocols.bench.protocol import training_part
    from lazylib.protocols.shared import dataset_seed

    base = dataset_seed(table.sha256, config.seeds()[0])
    train, test = stratified_kfold(table.y, config.n_splits, random_state=base)[0]
    return len(test) / len(training_part(config, train, table.y, base))


def bench_table(
    X,
    y=None,
    *,
    target=None,
    types=None,
    methods=None,
    seeds=None,
    budget=None,
    n_jobs=1,
    client=None,
    results=None,
    baseline="1-NN Euclidean",
    with_catalogue=True,
    random_state=2026,
    progress=None,
    missing=("?", ""),
    command=None,
    log=print,
) -> TableResult:
    """Every applicable method of the bench on one table, with the statistics made for one table.

    The folds are drawn from the table's content (its sha256), so a renamed file, or the same data as a CSV or a
    Parquet file, gets the same folds and the same rows. A method that refuses the table or fails keeps its rows
    with the reason, and the run goes on.

    Parameters
    ----------
    X : DataFrame or lazylib.datasets.frame.Table
        The attributes (with the class column when ``target`` names it and ``y`` is None), or a table already
        read (:func:`lazylib.datasets.frame.read_table`).
    y : array-like, optional
        The classes.
    target : str, optional
        The class column of ``X`` (or the name given to ``y``).
    types : dict, optional
        Column -> "nominal", "integer" or "continuous", for the columns whose reading should not be inferred.
    methods : sequence of str, optional
        Methods of :data:`lazylib.protocols.bench.methods.METHOD_NAMES` (default: all).
    seeds : int, optional
        Fold seeds of ten-fold cross-validation; None: chosen from ``budget``.
    budget : float, optional
        Wall-clock minutes (default :data:`DEFAULT_BUDGET`), from a one-fold pilot; ignored with ``seeds``.
    n_jobs : int
        Worker processes.
    client : distributed.Client, optional
        A Dask cluster to run the jobs on.
    results : path, optional
        A results folder: every job written as it ends; a rerun with the same folder resumes. Checked writable
        before anything runs, and refused when it holds another table's or configuration's jobs.
    baseline : str
        The method the others are tested against.
    with_catalogue : bool
        Add the catalogue's view (:func:`catalogue_of`).
    random_state : int
        The seed of the fold seeds (an int, so that it names the run); each fold seed's folds come from
        :func:`~lazylib.protocols.shared.dataset_seed` of the table's sha256 and that fold seed.
    progress : bool, optional
        Show a progress bar (None: on a terminal or in a notebook).
    missing : sequence of str
        Cells read as unknown.
    command : str, optional
        The command line, for the provenance (default: this call in words).
    log : callable or None
        Where the schema read and the protocol chosen are said (``print``; None: nowhere).

    Returns
    -------
    TableResult
    """
    from lazylib.protocols.bench import protocol as bench
    from lazylib.protocols.bench.table_stats import one_table

    if results is not None:
        results = check_writable(results)
    table, target = _as_table(X, y, target, types, missing)
    _log(log, table.schema_text())
    config, protocol = _configure(
        table, methods=methods, seeds=seeds, budget=budget, n_jobs=n_jobs, random_state=random_state,
        progress=progress, log=log, results=results,
    )  # fmt: skip
    if results is not None:
        _check_results_folder(results, config)
    started, t0 = utc_now(), time.perf_counter()
    run = bench.run(
        config, tables={table.name: table}, n_jobs=n_jobs, client=client, results=results, progress=progress
    )
    wall = time.perf_counter() - t0
    rows = rows_of_run(run)
    statistics = one_table(rows, baseline=baseline, test_share=fold_test_share(config, table))
    catalogue, note = catalogue_of(table, statistics, config.methods) if with_catalogue else (None, "")
    command = command or default_command(target=target, methods=methods, seeds=seeds, budget=budget)
    record = provenance(table, config, command=command, started=started, wall_s=wall, target=target, protocol=protocol)
    record["catalogue_note"] = note or ("" if with_catalogue else "not asked for (--no-catalogue)")
    return TableResult(table, rows, statistics, catalogue, record, config)
