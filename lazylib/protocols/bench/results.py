"""A bench run's stored results: the results folder of :func:`lazylib.protocols.bench.protocol.run` (``results``: every
finished job written as it ends, so that an interrupted run resumes where it stopped and ends with the same rows),
the full run's artifact that Part VI ranks (:func:`write_artifact`, :func:`load_full_run`), the check that a
re-executed subset still gives the artifact's rows (:func:`differing_rows`), and the hierarchical test's results
computed from the artifact by hand (:func:`load_hierarchical`)."""

from __future__ import annotations

import hashlib
import io
import json
import os
import warnings
from dataclasses import asdict
from pathlib import Path

import numpy as np
import pandas as pd

from lazylib.protocols.bench.guard import check_artifact

#: The columns of a job's rows, in order (:func:`lazylib.protocols.bench.protocol.run`'s result).
COLUMNS = ("dataset", "kind", "seed", "fold", "method", "accuracy", "fit_s", "predict_s", "total_s", "refused", "error")


class DamagedJobFile(UserWarning):
    """A job file of a results folder that does not hold what its name says (cut, emptied, another job's rows,
    a value that is not a number, a checksum that does not match): named in the warning, its job run again."""


#: The first line of a job file: this marker, then the JSON that identifies the job and its rows.
JOB_HEADER = "# lazylib-job "
#: The columns of a job's rows that hold numbers (NaN written as an empty field).
_NUMBERS = ("seed", "fold", "accuracy", "fit_s", "predict_s", "total_s")
#: The columns of a job's rows that hold text.
_TEXT = {"dataset": str, "kind": str, "method": str, "refused": str, "error": str}


def _atomic_write(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole: to a temporary name beside it, then renamed over it."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text)
    tmp.replace(path)


def _job_text(key: str, job: tuple, methods, rows: list[dict]) -> str:
    """A job file: the header line (key, job, methods, row count, sha256 of the body), then the rows' CSV."""
    body = pd.DataFrame(rows, columns=list(COLUMNS)).to_csv(index=False)
    name, seed, f = job
    head = {"key": key, "dataset": name, "seed": int(seed), "fold": int(f), "methods": list(methods)}
    head |= {"rows": len(rows), "sha256": hashlib.sha256(body.encode()).hexdigest()}
    return JOB_HEADER + json.dumps(head) + "\n" + body


def _job_rows(text: str, key: str, job: tuple, methods) -> list[dict]:
    """The rows of a job file, or ValueError saying what does not match the job it should hold."""
    head_line, sep, body = text.partition("\n")
    if not head_line.startswith(JOB_HEADER) or not sep:
        raise ValueError("no lazylib-job header line")
    try:
        head = json.loads(head_line[len(JOB_HEADER) :])
    except json.JSONDecodeError as err:
        raise ValueError(f"its header is not JSON ({err})") from None
    name, seed, f = job
    want = {"key": key, "dataset": name, "seed": int(seed), "fold": int(f), "methods": list(methods)}
    wrong = [field for field, value in want.items() if not isinstance(head, dict) or head.get(field) != value]
    if wrong:
        raise ValueError(f"its header names another {', '.join(wrong)}")
    if hashlib.sha256(body.encode()).hexdigest() != head.get("sha256"):
        raise ValueError("its rows do not match the header's sha256 checksum (cut or changed)")
    try:
        frame = pd.read_csv(io.StringIO(body), dtype=_TEXT, keep_default_na=False,
                            na_values={c: [""] for c in _NUMBERS})  # fmt: skip
    except (pd.errors.ParserError, pd.errors.EmptyDataError, ValueError) as err:
        raise ValueError(f"its rows are not a CSV table ({_first_line(err)})") from None
    if list(frame.columns) != list(COLUMNS):
        raise ValueError(f"its columns are {list(frame.columns)}, not {list(COLUMNS)}")
    if len(frame) != head.get("rows") or len(frame) != len(want["methods"]):
        raise ValueError(f"it holds {len(frame)} rows, its header says {head.get('rows')}, the job has "
                         f"{len(want['methods'])} methods")  # fmt: skip
    text_numbers = [c for c in _NUMBERS if not pd.api.types.is_numeric_dtype(frame[c])]
    if text_numbers:
        raise ValueError(f"its columns {text_numbers} hold text where numbers belong")
    if (frame["dataset"].ne(name) | frame["seed"].ne(seed) | frame["fold"].ne(f)).any():
        raise ValueError("it holds rows of another job")
    if frame["method"].tolist() != want["methods"]:
        raise ValueError(f"its methods are {frame['method'].tolist()}, not {want['methods']}")
    return frame.to_dict("records")


def _first_line(err: BaseException) -> str:
    text = str(err).strip()
    return text.splitlines()[0] if text else type(err).__name__


class ResultsFolder:
    """A results folder of :func:`lazylib.protocols.bench.protocol.run`: ``config.json`` (the configuration it
    belongs to, with
    :func:`lazylib.report.book_files.inputs_fingerprint` of the code that writes it) and one file per finished job
    in ``jobs/`` (``DATASET__SEED__FOLD.csv``), each written whole (to a temporary name, then renamed) as soon as
    its job ends, so an interrupted run keeps every finished job and a rerun skips them. A job file's first line
    (``# lazylib-job {...}``) names what it holds: the configuration's key, the data set, fold seed and fold, the
    methods, the number of rows and the sha256 checksum of the rows' CSV below it. Read back, a file that does not
    match its job is named in a :class:`DamagedJobFile` warning and its job runs again; it is never read as rows.
    Numbers are written in full precision: read back, they are the same bits.

    Parameters
    ----------
    path : path
        The folder (created when missing; refused when it cannot be written, before any job runs).
    config : lazylib.protocols.bench.protocol.Config
        The run's configuration: a folder holding another one's jobs, or written by other code, is refused.
    """

    def __init__(self, path, config):
        self.path = Path(path)
        self.jobs = self.path / "jobs"
        self.key, self.methods = config.key(), list(config.methods)
        try:
            self.jobs.mkdir(parents=True, exist_ok=True)
            probe = self.jobs / f".probe.{os.getpid()}.tmp"
            probe.write_text("")
            probe.unlink()
        except OSError as err:
            raise ValueError(
                f"the results folder {self.path} cannot be written ({type(err).__name__}: {err}); name a folder "
                "this process may write"
            ) from None
        from lazylib.report.book_files import inputs_fingerprint

        record = {"key": self.key, "inputs": inputs_fingerprint(), "config": asdict(config)}
        meta = self.path / "config.json"
        if meta.is_file():
            self._check_record(meta, record)
        else:
            _atomic_write(meta, json.dumps(record, indent=1, default=list))

    def _check_record(self, meta: Path, record: dict) -> None:
        """Refuse a folder whose ``config.json`` is damaged or belongs to another configuration or code."""
        try:
            found = json.loads(meta.read_text())
        except (json.JSONDecodeError, UnicodeDecodeError) as err:
            raise ValueError(f"{meta} is not the JSON of a results folder ({err}); name a new folder") from None
        if not isinstance(found, dict) or found.get("key") != record["key"]:
            config = found.get("config") if isinstance(found, dict) else found
            raise ValueError(
                f"the results folder {self.path} holds another configuration ({config}); name a new folder for this one"
            )
        if found.get("inputs") != record["inputs"]:
            raise ValueError(
                f"the results folder {self.path} was written by another lazylib or other numerical libraries "
                f"(inputs fingerprint {found.get('inputs')}, now {record['inputs']}): its rows could differ "
                "from this code's; name a new folder"
            )

    def _file(self, job: tuple) -> Path:
        name, seed, f = job
        return self.jobs / f"{name}__{seed}__{f}.csv"

    def _read(self, job: tuple) -> list[dict]:
        """A job file's rows, or ValueError naming the file and what is wrong with it."""
        path = self._file(job)
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError as err:
            raise ValueError(f"the job file {path} is damaged: it is not UTF-8 text ({err.reason})") from None
        try:
            return _job_rows(text, self.key, job, self.methods)
        except ValueError as err:
            raise ValueError(f"the job file {path} is damaged: {err}") from None

    def resume(self, jobs, *, keep_failed: bool = False) -> dict:
        """The rows of the jobs among ``jobs`` already in the folder, read back and checked.

        Parameters
        ----------
        jobs : iterable of tuple
            ``(data set, fold seed, fold)`` of each job.
        keep_failed : bool
            Keep the jobs that failed (a row with an ``error``); by default they are left out, to run again.

        Returns
        -------
        dict
            ``job -> rows`` of every job whose file is there and whole; a damaged file is named in a
            :class:`DamagedJobFile` warning and left out (its job runs again).
        """
        found = {}
        for job in jobs:
            if not self._file(job).is_file():
                continue
            try:
                rows = self._read(job)
            except ValueError as err:
                warnings.warn(f"{err}; its job runs again", DamagedJobFile, stacklevel=2)
                continue
            if keep_failed or not any(row["error"] for row in rows):
                found[job] = rows
        return found

    def finished(self, jobs) -> set:
        """The jobs among ``jobs`` whose file is there and whole (see :meth:`resume`), failed ones included.

        Parameters
        ----------
        jobs : iterable of tuple
            ``(data set, fold seed, fold)`` of each job.

        Returns
        -------
        set of tuple
            Those already written.
        """
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DamagedJobFile)
            return set(self.resume(jobs, keep_failed=True))

    def save(self, job: tuple, rows: list[dict]) -> None:
        """Write a finished job's rows under their header (to a temporary file, then renamed: a file is always
        whole).

        Parameters
        ----------
        job : tuple
            ``(data set, fold seed, fold)``.
        rows : list of dict
            The job's rows, with the keys of :data:`COLUMNS`, one per method of the configuration.
        """
        _atomic_write(self._file(job), _job_text(self.key, job, self.methods, rows))

    def load(self, job: tuple) -> list[dict]:
        """Read a finished job's rows back, the same values as written.

        Parameters
        ----------
        job : tuple
            One of the jobs :meth:`finished` returns.

        Returns
        -------
        list of dict
            Its rows, as :meth:`save` was given them (ValueError naming the file when it is damaged).
        """
        return self._read(job)


def cache_folder(cache_dir, config) -> Path:
    """The results folder (:class:`ResultsFolder`) that keeps ``config``'s run in ``cache_dir``
    (``run(cache_dir=...)``): ``bench-DIGEST``, the digest of the configuration's key and
    :func:`lazylib.report.book_files.inputs_fingerprint`, so that other code or another configuration gets another
    folder. The cache holds data only (CSV and JSON, checked when read back), never a pickle.

    Parameters
    ----------
    cache_dir : path
        The cache's folder.
    config : lazylib.protocols.bench.protocol.Config
        The run's configuration.

    Returns
    -------
    Path
    """
    from lazylib.report.book_files import inputs_fingerprint

    digest = hashlib.sha256((config.key() + inputs_fingerprint()).encode()).hexdigest()[:20]
    return Path(cache_dir) / f"bench-{digest}"


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
    ``full_run.json`` (the command, the commit, :func:`lazylib.report.book_files.inputs_fingerprint`, the
    configuration, the machine, the times and the counts of rows, refusals and errors) and ``cost_by_dataset.csv``
    (processor seconds of fitting and predicting per data set).

    Parameters
    ----------
    results : DataFrame
        The run's rows (:func:`lazylib.protocols.bench.protocol.run`).
    folder : path
        Where to write the three files (created when missing).
    config : lazylib.protocols.bench.protocol.Config
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
    from lazylib.report.book_files import inputs_fingerprint

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / f".full_run.csv.gz.{os.getpid()}.tmp"
    with open(tmp, "wb") as fh, gzip.GzipFile("full_run.csv.gz", "wb", fileobj=fh, mtime=0) as out:
        out.write(results.to_csv(index=False).encode())  # the header names full_run.csv, as it always did
    tmp.replace(folder / "full_run.csv.gz")
    text = {c: results[c].fillna("").astype(str) for c in ("refused", "error")}
    meta = {
        "command": command,
        "commit": lazylib.build_info()["commit"],
        "inputs_fingerprint": inputs_fingerprint(),
        "config": config.record(),
        "machine": _machine(),
        "started": started,
        "ended": ended,
        "wall_s": round(float(wall_s), 1),
        "processor_s_fit_predict": float(results["total_s"].sum()),
        "rows": len(results),
        "errors": int(text["error"].ne("").sum()),
        "refused_rows": int(text["refused"].ne("").sum()),
    }
    _atomic_write(folder / "full_run.json", json.dumps(meta, indent=1))
    cost = results.groupby("dataset", sort=False).agg(
        n_rows=("method", "size"), seeds=("seed", "nunique"), folds=("fold", "nunique"), processor_s=("total_s", "sum")
    )
    _atomic_write(folder / "cost_by_dataset.csv", cost.round(1).to_csv())
    return meta


#: Where the full run's per-fold results are kept, relative to the repository root: a gzip-compressed CSV with
#: the columns of :func:`lazylib.protocols.bench.protocol.run` (written by ``python -m lazylib.protocols.bench
#: --full``),
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
        One row per data set, seed, fold and method, as :func:`lazylib.protocols.bench.protocol.run` returns them
        (``refused`` is "" where the method ran); ``attrs["run"]`` holds the JSON file beside it, if any, and
        ``attrs["guard"]`` what :func:`lazylib.protocols.bench.guard.check_artifact` found.

    Raises
    ------
    lazylib.protocols.bench.guard.StaleArtifact
        When the JSON file records the fingerprint of other code than the current one and no declaration beside
        it says the changes move no number (the message names the command that regenerates the run).
    """
    if path is None:
        from lazylib.report.book_files import book_root

        root = book_root()
        if root is None:
            return None
        path = root / FULL_RUN
    path = Path(path)
    if not path.is_file():
        return None
    results = read_run(path)
    if "inputs_fingerprint" in results.attrs.get("run", {}):
        results.attrs["guard"] = check_artifact(results.attrs["run"], path.parent)
    return results


def read_run(path: str | os.PathLike) -> pd.DataFrame:
    """A stored run's rows and its ``full_run.json`` (in ``attrs["run"]``), unchecked: :func:`load_full_run` is
    the reader that checks the run against the code; this one is for the check itself.

    Parameters
    ----------
    path : str or Path
        The CSV file.

    Returns
    -------
    DataFrame
        As :func:`load_full_run` returns it, without ``attrs["guard"]``.
    """
    path = Path(path)
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
        Rows of :func:`lazylib.protocols.bench.protocol.run` (``full`` as :func:`load_full_run` reads it).

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


def method_rows_sha256(full: pd.DataFrame, methods) -> dict:
    """The sha256 of each method's rows of a run (its key columns and accuracies, as CSV text): what a result
    computed from those methods' rows alone depends on, so that it outlives changes to other methods' rows.

    >>> run = pd.DataFrame({"dataset": ["d", "d"], "seed": 1, "fold": 0, "method": ["a", "b"],
    ...                     "accuracy": [90.0, 80.0]})
    >>> sha = method_rows_sha256(run, ["a", "b"])
    >>> sha == method_rows_sha256(run.assign(accuracy=[90.0, 70.0]), ["a", "b"]), sorted(sha)
    (False, ['a', 'b'])
    >>> sha["a"] == method_rows_sha256(run.assign(accuracy=[90.0, 70.0]), ["a"])["a"]
    True
    """
    out = {}
    for method in methods:
        rows = full.loc[full["method"] == method, [*ROW_KEY, "accuracy"]]
        if rows.empty:
            raise ValueError(f"the run has no rows of {method!r}")
        text = rows.sort_values(list(ROW_KEY)).to_csv(index=False, float_format="%.17g")
        out[method] = hashlib.sha256(text.encode()).hexdigest()
    return out


def load_hierarchical(path=None, artifact=None) -> pd.DataFrame:
    """The hierarchical test's posterior probabilities for the headline pairs, refused unless they were computed
    from the full run's rows as they are now: the sha256 of each method's rows (:func:`method_rows_sha256`,
    recorded beside them as ``rows_sha256``) must match, or, for a record without it, the artifact file's sha256.

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

    if path is None or artifact is None:
        from lazylib.report.book_files import book_root

        root = book_root() or Path.cwd()
        path = root / HIERARCHICAL if path is None else path
        artifact = root / FULL_RUN if artifact is None else artifact
    path, artifact = Path(path), Path(artifact)
    meta = json.loads(path.with_suffix(".json").read_text())
    if "rows_sha256" in meta:
        now = method_rows_sha256(read_run(artifact), meta["rows_sha256"])
        moved = sorted(m for m, sha in meta["rows_sha256"].items() if now[m] != sha)
        if moved:
            raise ValueError(
                f"{path} was computed from another full run than {artifact}: the rows of {moved} changed since; run "
                "benchmarks/hierarchical.py again (--only OTHER --update for the pairs of those methods)"
            )
    else:
        now = hashlib.sha256(artifact.read_bytes()).hexdigest()
        if meta.get("artifact_sha256") != now:
            raise ValueError(
                f"{path} was computed from another full run than {artifact} (sha256 {meta.get('artifact_sha256')}, "
                f"now {now}): run benchmarks/hierarchical.py again"
            )
    table = pd.read_csv(path)
    missing = [c for c in ("pair", "rope", "reading", "p_best_better", "p_equivalent", "p_other_better")
               if c not in table.columns]  # fmt: skip
    if missing:
        raise ValueError(f"{path} lacks the columns {missing}")
    table.attrs["run"] = meta
    return table
