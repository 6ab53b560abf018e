"""The results folder of a bench run (:func:`lazylib.protocols.bench.run`'s ``results``): every finished job
written as it ends, so that an interrupted run resumes where it stopped and ends with the same rows."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

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
    """Store a run as the book's artifact (what Part VI ranks, see
    :func:`lazylib.protocols.bench_stats.load_full_run`): ``full_run.csv.gz`` (every row in full precision,
    compressed without a time stamp, so the same rows give the same bytes), ``full_run.json`` (the command, the
    commit, :func:`lazylib.report.scorecard.inputs_fingerprint`, the configuration, the machine, the times and the
    counts of rows, refusals and errors) and ``cost_by_dataset.csv`` (processor seconds of fitting and predicting
    per data set).

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
