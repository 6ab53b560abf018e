"""Several of a user's tables on the bench at once (``lazylib bench a.csv b.csv ...``): each table benched and
reported as one (:func:`lazylib.protocols.bench.user_table.bench_table`), then the tables compared as Part VI compares
the catalogue's data sets (:mod:`lazylib.protocols.bench.stats`): the tables are the independent blocks, so
average ranks, Friedman's test, Nemenyi's comparison, the Wilcoxon signed-rank test against the baseline with
Holm's correction and the Bayesian signed-rank test apply (they do not apply to the folds of one table).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd


@dataclass(frozen=True)
class TablesResult:
    """What :func:`bench_tables` returns.

    Attributes
    ----------
    results : dict
        Table name -> :class:`lazylib.protocols.bench.user_table.TableResult`.
    across : dict or None
        :func:`across_tables` (None with fewer than two tables).
    """

    results: dict
    across: dict | None

    def summary(self) -> dict:
        """The across-tables statistics as plain JSON types (``summary.json`` of the folder above the tables).

        Returns
        -------
        dict
        """
        a = self.across
        if a is None:
            return {"tables": list(self.results), "across": None}

        def records(frame):
            if frame is None:
                return None
            flat = frame.reset_index()
            return json.loads(flat.to_json(orient="records"))

        ranking = a["ranking"]
        return {
            "tables": list(self.results),
            "block": json.loads(a["block"].to_json(orient="index")),
            "ranks": None if ranking is None else json.loads(ranking["ranks"].to_json()),
            "friedman": None if ranking is None else ranking["friedman"],
            "nemenyi_group": None if ranking is None else ranking["group"],
            "against_baseline": records(a["against_baseline"]),
            "leading_pairs": records(a["leading_pairs"]),
            "notes": list(a["notes"]),
        }

    def write(self, folder) -> Path:
        """Write each table's report folder under ``folder`` (its name as the sub-folder), then ``index.html``
        (the across-tables page, linking to each) and ``summary.json`` (:meth:`summary`).

        Parameters
        ----------
        folder : str or Path

        Returns
        -------
        Path
        """
        from lazylib.protocols.bench.user_table import check_writable, write_atomic
        from lazylib.report.table_report import render_across

        folder = check_writable(folder)
        for name, result in self.results.items():
            result.write(folder / name)
        write_atomic(folder / "summary.json", json.dumps(self.summary(), indent=1))
        write_atomic(folder / "index.html", render_across(self))
        return folder


def accuracy_block(results: dict) -> pd.DataFrame:
    """Mean accuracy of each method (columns) on each table (index), NaN where it lacks a result on some fold.

    Parameters
    ----------
    results : dict
        Table name -> :class:`~lazylib.protocols.bench.user_table.TableResult`.

    Returns
    -------
    DataFrame
    """
    rows = {}
    for name, result in results.items():
        acc = result.rows.groupby("method", sort=False)["accuracy"]
        rows[name] = acc.agg(lambda a: a.mean() if a.notna().all() else np.nan)
    return pd.DataFrame(rows).T


def across_tables(results: dict, *, baseline: str = "1-NN Euclidean", alpha: float = 0.05, random_state=0) -> dict:
    """Part VI's statistics over the tables of ``results`` (each table one block).

    Parameters
    ----------
    results : dict
        Table name -> :class:`~lazylib.protocols.bench.user_table.TableResult` (two or more).
    baseline : str
        The control of the Wilcoxon signed-rank tests.
    alpha : float
        Level of Nemenyi's and the Holm-corrected tests.
    random_state : int, Generator or None
        Seed or generator of the bootstrap and of the Bayesian posterior's samples: an int seeds a fresh
        generator (the same draws at every call), a Generator is used as it is (its stream continues), None
        draws fresh entropy.

    Returns
    -------
    dict with ``block`` (:func:`accuracy_block`), ``ranking`` (:func:`lazylib.protocols.bench.stats.ranking`, or
    None with fewer than three methods on every table), ``against_baseline`` and ``leading_pairs`` (or None) and
    ``notes``.
    """
    from lazylib._validation import Real, check, check_random_state
    from lazylib.protocols.bench import stats as bench_stats

    check("alpha", alpha, Real(low=0, high=1, open_low=True, open_high=True))
    if len(results) < 2:
        raise ValueError(f"across-table statistics need at least two tables, got {len(results)}")
    rng = check_random_state(random_state)
    block = accuracy_block(results)
    complete = bench_stats.complete_block(block)
    notes = [f"{m}: left out (no result on every fold of every table)" for m in block.columns if m not in complete]
    out = {"block": block, "ranking": None, "against_baseline": None, "leading_pairs": None}
    if complete.shape[1] < 3:
        notes.append(f"{complete.shape[1]} methods ran on every table: Friedman's test needs three or more")
    else:
        out["ranking"] = bench_stats.ranking(complete, alpha=alpha)
        out["leading_pairs"] = bench_stats.leading_pairs(complete, random_state=int(rng.integers(2**31 - 1)))
    if baseline in complete.columns and complete.shape[1] >= 2:
        out["against_baseline"] = bench_stats.against_baseline(complete, baseline, alpha=alpha, random_state=rng)
    else:
        notes.append(f"the baseline {baseline!r} has no result on every table: no tests against it")
    if len(results) < 6:
        notes.append(
            f"{len(results)} tables: the Wilcoxon signed-rank test cannot reach p < 0.05 with fewer than six, and "
            "Friedman's and Nemenyi's tests separate little; read the ranks as descriptive"
        )
    out["notes"] = notes
    return out


def bench_tables(tables, *, results=None, baseline: str = "1-NN Euclidean", **options) -> TablesResult:
    """Bench each of ``tables`` (:func:`~lazylib.protocols.bench.user_table.bench_table`, the same options for each),
    then compare them (:func:`across_tables`).

    Parameters
    ----------
    tables : dict or sequence
        Table name -> :class:`lazylib.datasets.frame.Table`, or tables (named by their ``name``; a repeated name
        gets ``-2``, ``-3``, ...).
    results : path, optional
        A folder: each table's results folder is its sub-folder (a rerun resumes each).
    baseline : str
        As for :func:`~lazylib.protocols.bench.user_table.bench_table` and :func:`across_tables`.
    **options
        Passed to :func:`~lazylib.protocols.bench.user_table.bench_table`.

    Returns
    -------
    TablesResult
    """
    from lazylib.protocols.bench.user_table import bench_table, check_writable

    if results is not None:
        check_writable(results)
    named = tables if isinstance(tables, dict) else unique_names(tables)
    if not named:
        raise ValueError("no tables to bench")
    done = {}
    for name, table in named.items():
        folder = None if results is None else Path(results) / name
        done[name] = bench_table(table, results=folder, baseline=baseline, **options)
    across = across_tables(done, baseline=baseline) if len(done) >= 2 else None
    return TablesResult(done, across)


def unique_names(tables) -> dict:
    """Tables by name, a repeated name numbered (``name-2``, ...).

    Parameters
    ----------
    tables : sequence of lazylib.datasets.frame.Table

    Returns
    -------
    dict
    """
    named = {}
    for table in tables:
        name, i = table.name, 1
        while name in named:
            i += 1
            name = f"{table.name}-{i}"
        named[name] = table
    return named
