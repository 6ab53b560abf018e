"""A bench run's stored results: the results folder of :func:`lazylib.protocols.bench.run` (``results``: every
finished job written as it ends, so that an interrupted run resumes where it stopped and ends with the same rows),
the full run's artifact that Part VI ranks (:func:`write_artifact`, :func:`load_full_run`), the check that a
re-executed subset still gives the artifact's rows (:func:`differing_rows`), and the hierarchical test's results
computed from the artifact by hand (:func:`load_hierarchical`)."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import numpy as np
import pandas as pd

#: The columns of a job's rows, in order (:func:`lazylib.protocols.bench.run`'s result).
COLUMNS = ("dataset", "kind", "seed", "fold", "method", "accuracy", "fit_s", "predict_s", "total_s", "refused", "error")


class ResultsFolder:
    """A results folder of :func:`lazylib.protocols.bench.run`: ``config.json`` (the configuration it belongs to, with
    :func:`lazylib.report.scorecard.inputs_fingerprint` of the code that writes it) and one CSV file per
    finished job in ``jobs/`` (``DATASET__SEED__FOLD.csv``), each written whole (to a temporary name, then
    renamed) as soon as its job ends, so an interrupted run keeps every finished job and a rerun skips them.
    Numbers are written in full precision: read back, they are the same bits.

    Parameters
    ----------
    path : path
        The folder (created when missing).
    config : lazylib.protocols.bench.Config
        The run's configuration: a folder holding another one's jobs, or written by other code, is refused.
    """

    def __init__(self, path, config):
        self.path = Path(path)
        self.jobs = self.path / "jobs"
        self.jobs.mkdir(parents=True, exist_ok=True)
        meta = self.path / "config.json"
        from lazylib.report.scorecard import inputs_fingerprint

        record = {"key": config.key(), "inputs": inputs_fingerprint(), "config": asdict(config)}
        if meta.is_file():
            found = json.loads(meta.read_text())
            if found.get("key") != record["key"]:
                raise ValueError(
                    f"the results folder {self.path} holds another configuration ({found.get('config')}); "
                    "name a new folder for this one"
                )
            if found.get("inputs") != record["inputs"]:
                raise ValueError(
                    f"the results folder {self.path} was written by another lazylib or other numerical libraries "
                    f"(inputs fingerprint {found.get('inputs')}, now {record['inputs']}): its rows could differ "
                    "from this code's; name a new folder"
                )
        else:
            meta.write_text(json.dumps(record, indent=1, default=list))

    def _file(self, job: tuple) -> Path:
        name, seed, f = job
        return self.jobs / f"{name}__{seed}__{f}.csv"

    def finished(self, jobs) -> set:
        """The jobs among ``jobs`` whose file is there.

        Parameters
        ----------
        jobs : iterable of tuple
            ``(data set, fold seed, fold)`` of each job.

        Returns
        -------
        set of tuple
            Those already written.
        """
        return {job for job in jobs if self._file(job).is_file()}

    def save(self, job: tuple, rows: list[dict]) -> None:
        """Write a finished job's rows (to a temporary file, then renamed: a file is always whole).

        Parameters
        ----------
        job : tuple
            ``(data set, fold seed, fold)``.
        rows : list of dict
            The job's rows, with the keys of :data:`COLUMNS`.
        """
        tmp = self._file(job).with_suffix(".tmp")
        pd.DataFrame(rows, columns=list(COLUMNS)).to_csv(tmp, index=False)
        tmp.replace(self._file(job))

    def load(self, job: tuple) -> list[dict]:
        """Read a finished job's rows back, the same values as written.

        Parameters
        ----------
        job : tuple
            One of the jobs :meth:`finished` returns.

        Returns
        -------
        list of dict
            Its rows, as :meth:`save` was given them.
        """
        text = {"dataset": str, "kind": str, "method": str, "refused": str, "error": str}
        frame = pd.read_csv(
            self._file(job),
            dtype=text,
            keep_default_na=False,
            na_values={c: [""] for c in COLUMNS if c not in text},
        )
        return frame.to_dict("records")


def _machine() -> str:
    """The processor's model name (Linux), its number of cores and the Python version."""
    import os
    import platform

    model = platform.processor() or "unknown processor"
    try:
        with open("/proc/cpuinfo") as fh:
            model = next((line.split(":", 1)[1].strip() for line in fh if line.startswith("model name")), model)
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores, Python {platform.python_version()}"


def write_artifact(results: pd.DataFrame, folder, config, *, command: str, started: str, ended: str, wall_s: float):
    """Store a run as the book's artifact (what Part VI ranks, see :func:`load_full_run`): ``full_run.csv.gz``
    (every row in full precision, compressed without a time stamp, so the same rows give the same bytes),
    ``full_run.json`` (the command, the commit, :func:`lazylib.report.scorecard.inputs_fingerprint`, the
    configuration, the machine, the times and the counts of rows, refusals and errors) and ``cost_by_dataset.csv``
    (processor seconds of fitting and predicting per data set).

    Parameters
    ----------
    results : DataFrame
        The run's rows (:func:`lazylib.protocols.bench.run`).
    folder : path
        Where to write the three files (created when missing).
    config : lazylib.protocols.bench.Config
        The run's configuration.
    command, started, ended : str
        The command line and its start and end (UTC, ISO 8601).
    wall_s : float
        The run's wall-clock seconds.

    Returns
    -------
    dict
        The contents of ``full_run.json``.
    """
    import gzip

    import lazylib
    from lazylib.report.scorecard import inputs_fingerprint

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    with gzip.GzipFile(folder / "full_run.csv.gz", "wb", mtime=0) as out:
        out.write(results.to_csv(index=False).encode())
    text = {c: results[c].fillna("").astype(str) for c in ("refused", "error")}
    meta = {
        "command": command,
        "commit": lazylib.build_info()["commit"],
        "inputs_fingerprint": inputs_fingerprint(),
        "config": json.loads(json.dumps(asdict(config), default=list)),
        "machine": _machine(),
        "started": started,
        "ended": ended,
        "wall_s": round(float(wall_s), 1),
        "processor_s_fit_predict": float(results["total_s"].sum()),
        "rows": len(results),
        "errors": int(text["error"].ne("").sum()),
        "refused_rows": int(text["refused"].ne("").sum()),
    }
    (folder / "full_run.json").write_text(json.dumps(meta, indent=1))
    cost = results.groupby("dataset", sort=False).agg(
        n_rows=("method", "size"), seeds=("seed", "nunique"), folds=("fold", "nunique"), processor_s=("total_s", "sum")
    )
    cost.round(1).to_csv(folder / "cost_by_dataset.csv")
    return meta


#: Where the full run's per-fold results are kept, relative to the repository root: a gzip-compressed CSV with
#: the columns of :func:`lazylib.protocols.bench.run` (written by ``python -m lazylib.protocols.bench --full``),
#: and beside it ``full_run.json``, the run's configuration, commit, machine and times, when there is one.
FULL_RUN = Path("benchmarks") / "full_run" / "full_run.csv.gz"
#: The columns a run's rows need for the statistics of this module.
RUN_COLUMNS = ("dataset", "kind", "seed", "fold", "method", "accuracy", "total_s", "refused")


def load_full_run(path=None) -> pd.DataFrame | None:
    """The full run's rows (every data set of the catalogue), read from :data:`FULL_RUN` under the repository
    root (or from ``path``), or None when the file is absent (Part VI's pages then stop, naming the command that
    writes it).

    Parameters
    ----------
    path : str or Path, optional
        The CSV file (default: :data:`FULL_RUN` under the folder holding the book's ``_toc.yml``).

    Returns
    -------
    DataFrame or None
        One row per data set, seed, fold and method, as :func:`lazylib.protocols.bench.run` returns them
        (``refused`` is "" where the method ran); ``attrs["run"]`` holds the JSON file beside it, if any.
    """
    if path is None:
        from lazylib.report.scorecard import book_root

        root = book_root()
        if root is None:
            return None
        path = root / FULL_RUN
    path = Path(path)
    if not path.is_file():
        return None
    results = pd.read_csv(path, dtype={"dataset": str, "kind": str, "method": str, "refused": str})
    missing = [c for c in RUN_COLUMNS if c not in results.columns]
    if missing:
        raise ValueError(f"{path} lacks the columns {missing} of a bench run")
    results["refused"] = results["refused"].fillna("")
    meta = path.parent / "full_run.json"
    if meta.is_file():
        results.attrs["run"] = json.loads(meta.read_text())
    return results


#: The columns that name one row of a run: a method on one fold of one fold seed of one data set.
ROW_KEY = ("dataset", "seed", "fold", "method")


def differing_rows(subset: pd.DataFrame, full: pd.DataFrame) -> pd.DataFrame:
    """The rows of a re-executed run ``subset`` that the full run ``full`` does not hold with the same result:
    absent from it, another accuracy (compared exactly: the artifact keeps every bit), or refused differently.
    Empty when the library still gives the artifact's numbers on the subset; a change of the library that moves
    any of them shows here until the artifact is regenerated (``python -m lazylib.protocols.bench --full``).

    Parameters
    ----------
    subset, full : DataFrame
        Rows of :func:`lazylib.protocols.bench.run` (``full`` as :func:`load_full_run` reads it).

    Returns
    -------
    DataFrame
        One row per differing row of ``subset``: its key (:data:`ROW_KEY`), ``accuracy`` and ``refused`` in each
        run (``_full`` for the artifact's; NaN where it lacks the row) and ``why``.

    Examples
    --------
    >>> a = pd.DataFrame({"dataset": ["d", "d"], "seed": 0, "fold": [0, 1], "method": "m",
    ...                   "accuracy": [90.0, 80.0], "refused": ""})
    >>> b = a.assign(accuracy=[90.0, 80.0 + 1e-12])
    >>> differing_rows(a, b)[["fold", "why"]].to_dict("records")
    [{'fold': 1, 'why': 'accuracy'}]
    """
    key = list(ROW_KEY)
    for name, frame in (("subset", subset), ("full", full)):
        missing = [c for c in (*key, "accuracy", "refused") if c not in frame.columns]
        if missing:
            raise ValueError(f"the {name} run lacks the columns {missing}")
    if full.duplicated(key).any():
        raise ValueError("the full run holds a row twice (same data set, seed, fold and method)")
    columns = [*key, "accuracy", "refused"]
    both = subset[columns].merge(full[columns], on=key, how="left", suffixes=("", "_full"), indicator=True)
    absent = both["_merge"].eq("left_only").to_numpy()
    a, b = both["accuracy"].to_numpy(float), both["accuracy_full"].to_numpy(float)
    accuracy = ~((a == b) | (np.isnan(a) & np.isnan(b)))
    refused = both["refused"].fillna("").to_numpy(str) != both["refused_full"].fillna("").to_numpy(str)
    why = np.where(absent, "absent", np.where(accuracy, "accuracy", np.where(refused, "refused", "")))
    return both.drop(columns="_merge").assign(why=why)[why != ""].reset_index(drop=True)


#: The Bayesian hierarchical test's results on the full run (``benchmarks/hierarchical.py``, run by hand: baycomp's
#: ``HierarchicalTest`` needs pystan), relative to the repository root, with its run's record beside it (``.json``).
HIERARCHICAL = Path("benchmarks") / "hierarchical.csv"


def load_hierarchical(path=None, artifact=None) -> pd.DataFrame:
    """The hierarchical test's posterior probabilities for the headline pairs, refused unless they were computed
    from the full run's artifact as it is now (its sha256, recorded beside them, must match).

    Parameters
    ----------
    path : str or Path, optional
        The CSV file (default: :data:`HIERARCHICAL` under the folder holding the book's ``_toc.yml``).
    artifact : str or Path, optional
        The full run's artifact (default: :data:`FULL_RUN` under the same folder).

    Returns
    -------
    DataFrame
        One row per pair, ROPE and reading (``pair``, ``rope``, ``reading``, ``p_best_better``, ``p_equivalent``,
        ``p_other_better``, ...); ``attrs["run"]`` holds the record beside it.
    """
    import hashlib

    if path is None or artifact is None:
        from lazylib.report.scorecard import book_root

        root = book_root() or Path.cwd()
        path = root / HIERARCHICAL if path is None else path
        artifact = root / FULL_RUN if artifact is None else artifact
    path, artifact = Path(path), Path(artifact)
    meta = json.loads(path.with_suffix(".json").read_text())
    now = hashlib.sha256(artifact.read_bytes()).hexdigest()
    if meta.get("artifact_sha256") != now:
        raise ValueError(
            f"{path} was computed from another full run than {artifact} (sha256 {meta.get('artifact_sha256')}, now "
            f"{now}): run benchmarks/hierarchical.py again"
        )
    table = pd.read_csv(path)
    missing = [c for c in ("pair", "rope", "reading", "p_best_better", "p_equivalent", "p_other_better")
               if c not in table.columns]  # fmt: skip
    if missing:
        raise ValueError(f"{path} lacks the columns {missing}")
    table.attrs["run"] = meta
    return table
