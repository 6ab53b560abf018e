"""Part VI of the book, beyond the papers: every classifier of the five papers on one bench, ranked with the
field's statistics.

Each paper compares its own method with two or three rivals, on its own data sets, under its own protocol. The
bench runs all of them on the same stratified folds of every data set of the catalogue that a method accepts, and
records the test accuracy and the processor time of every fold:

- **1-NN and k-NN** (k by leave-one-out on the training part, among Howe & Cardie's odd k from 1 to 75, the one
  Part whose protocol chooses k) under the distances of Part I (OM, WOM with learnt weights, VDM, MVDM, OMVW),
  Part IV (HEOM, HVDM with N2, DVDM, IVDM, WVDM) and the normalised Euclidean distance Part IV compares them with;
- **MDW and IG** weighting and the unweighted feature difference **FD** they improve on (Part V, Howe &
  Cardie's "k-NN"), k by leave-one-out as in their paper, an unknown value read as one more value of its
  feature (``missing="value"``, Part V's reading of unknowns);
- **NN, CA and CACP** with the number of components chosen inside each training part (nested), **MC** and
  **FNN** (Part II), through Part II's own per-fold functions;
- **VFI5** (Part III) and **C4.5** (:class:`lazylib.trees.C45Classifier`) as the eager reference.

Every method is built by the code its Part uses (:func:`~lazylib.protocols.bench.methods.methods`, in
:mod:`lazylib.protocols.bench.methods`); a method refuses a data set when fitting it raises the library's
:class:`ValueError` (for instance the sub-space mapping on nominal attributes), and the refusal and its message are
part of the results (:func:`refusals`). The statistics follow Demsar (2006) and
Benavoli et al. (2017): average ranks, the Friedman test, Nemenyi's post-hoc comparison and its critical
difference diagram (:mod:`scikit_posthocs`), and the Bayesian signed-rank test with a region of practical
equivalence (:mod:`baycomp`), in :mod:`lazylib.protocols.bench.stats`.

A user's own tables (:class:`lazylib.datasets.frame.Table`) run beside or instead of the catalogue's (``tables``
of :class:`Config` and :func:`run`), their folds seeded from their content; the budget of such a run, its pilot
and the smooth rule for the training sample of a large table are in :mod:`lazylib.protocols.bench.budget`.

Run the whole bench from the command line (every data set, every seed; ``--help`` for the options;
:mod:`lazylib.protocols.bench.cli`)::

    python -m lazylib.protocols.bench --full
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import time
import warnings
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from lazylib import datasets as _datasets
from lazylib._validation import Integer, check, check_random_state
from lazylib.encoding import encode
from lazylib.evaluation import stratified_kfold
from lazylib.labels import label_values
from lazylib.parallel import progress_bar, run_jobs
from lazylib.protocols.bench import checks as bench_checks
from lazylib.protocols.bench.budget import LARGE_RULES, fold_seeds, training_size
from lazylib.protocols.bench.folds import paired_folds
from lazylib.protocols.bench.methods import METHOD_NAMES, data_kind, methods
from lazylib.protocols.bench.results import COLUMNS, ResultsFolder, cache_folder
from lazylib.protocols.shared import K_RANGE, dataset_seed, prepare
from lazylib.weighting.infogain import equal_width_bins


@dataclass(frozen=True)
class Config:
    """What one bench run covers: the data sets, the fold seeds and the protocol's open choices.

    Parameters
    ----------
    datasets : tuple of str
        Names of :func:`lazylib.datasets.list_datasets`.
    n_seeds : int
        Fold seeds: each gives one stratified ``n_splits``-fold cross-validation of every data set.
    random_state : int
        The seed of the fold seeds (an int, so a configuration names its run); each data set's folds under one
        fold seed come from :func:`lazylib.protocols.shared.dataset_seed`.
    n_splits : int
        Folds per cross-validation.
    methods : tuple of str
        Names of :func:`~lazylib.protocols.bench.methods.methods` to run.
    n_bins : int or None
        Equal-width bins of each continuous attribute (over the training part's range) for the symbolic
        distances of Part I, as Howe & Cardie bin for the VDM family; None hands them the raw values, each a
        symbol of its own.
    ks : tuple of int
        As for :func:`~lazylib.protocols.bench.methods.methods`.
    scaling : {"none", "range", "sd"}
        As for :func:`~lazylib.protocols.bench.methods.methods`.
    mc_subsets : int
        As for :func:`~lazylib.protocols.bench.methods.methods`.
    large : int or None
        The stated protocol of the largest data sets: one with more than ``large`` instances runs under the first
        ``large_seeds`` fold seeds only, and each of its training parts is a stratified sample of ``large_train``
        instances (:func:`training_part`; the test fold stays whole). None: every data set under the same
        protocol.
    large_seeds, large_train : int
        See ``large``; ``large_train`` is also the knee of the smooth rule (``large_rule``).
    tables : tuple of (str, str)
        A user's tables, ``(name, sha256)`` of each :class:`lazylib.datasets.frame.Table` that :func:`run` is given:
        the name labels its rows, the content's sha256 seeds its folds and names the run.
    large_rule : {"cliff", "smooth"}
        The training sample of a large data set. ``"cliff"``: the stated protocol of the largest above ``large``
        instances (the catalogue's run until 2026-12-03). ``"smooth"`` (the full run's and a user's table's):
        each training part of ``n`` instances whole up to ``large_train`` and above that a stratified sample of
        :func:`training_size` instances, which grows with the table without a jump, and the first
        :func:`~lazylib.protocols.bench.budget.fold_seeds` of the fold seeds (all of them up to ``large_train``
        training instances, fewer in proportion above it; :meth:`fold_seeds_of`); ``large`` and ``large_seeds``
        then unused.
    max_train : int or None
        At most this many training instances per fold (a stratified sample), the cap a budget chooses
        (:func:`lazylib.protocols.bench.budget.choose`); None: no cap.
    """

    datasets: tuple
    n_seeds: int = 5
    random_state: int = 2026
    n_splits: int = 10
    methods: tuple = METHOD_NAMES
    n_bins: int | None = 8
    ks: tuple = K_RANGE
    scaling: str = "range"
    mc_subsets: int = 100
    large: int | None = None
    large_seeds: int = 1
    large_train: int = 5000
    tables: tuple = ()
    large_rule: str = "cliff"
    max_train: int | None = None

    def __post_init__(self):
        known = set(_datasets.list_datasets())
        unknown = [d for d in self.datasets if d not in known]
        if unknown or not (self.datasets or self.tables):
            raise ValueError(f"unknown or no data sets: {unknown or list(self.datasets)} (and no tables)")
        object.__setattr__(self, "tables", _check_tables(self.tables, self.datasets))
        if self.large_rule not in LARGE_RULES:
            raise ValueError(f"large_rule must be one of {list(LARGE_RULES)}, got {self.large_rule!r}")
        check("max_train", self.max_train, Integer(low=2), optional=True)
        bad = [m for m in self.methods if m not in METHOD_NAMES]
        if bad or not self.methods:
            raise ValueError(f"unknown or no methods: {bad or list(self.methods)} (known: {list(METHOD_NAMES)})")
        check("n_seeds", self.n_seeds, Integer(low=1))
        check("n_splits", self.n_splits, Integer(low=2))
        if self.n_bins is not None:
            check("n_bins", self.n_bins, Integer(low=2))
        check("large", self.large, Integer(low=1), optional=True)
        check("large_seeds", self.large_seeds, Integer(low=1))
        check("large_train", self.large_train, Integer(low=2))
        bench_checks.check_config(self)

    def seeds(self) -> list[int]:
        """The fold seeds, drawn from ``random_state``."""
        return [int(s) for s in check_random_state(self.random_state).integers(0, 2**31 - 1, self.n_seeds)]

    def is_large(self, n: int) -> bool:
        """Whether a data set of ``n`` instances follows the stated protocol of the largest (``large``, under
        ``large_rule="cliff"``)."""
        return self.large_rule == "cliff" and self.large is not None and n > self.large

    def fold_seeds_of(self, n: int) -> int:
        """How many of the fold seeds a data set of ``n`` instances runs under (its first ones): ``large_seeds`` for
        the largest under the cliff (:meth:`is_large`), the smooth rule's repetitions
        (:func:`lazylib.protocols.bench.budget.fold_seeds`, on a training part of ``n - ceil(n / n_splits)``)
        under ``large_rule="smooth"``, else all of them."""
        if self.large_rule == "smooth":
            return fold_seeds(n - math.ceil(n / self.n_splits), self.n_seeds, knee=self.large_train)
        return min(self.n_seeds, self.large_seeds) if self.is_large(n) else self.n_seeds

    def key(self) -> str:
        """A short hash of the configuration (with the library's inputs fingerprint, the name of a cached run).
        The fields added with the user's tables count only when they differ from their defaults, so a run of the
        catalogue keeps the key it had before them."""
        return hashlib.sha256(repr(sorted(self._fields().items())).encode()).hexdigest()[:16]

    def record(self) -> dict:
        """The configuration as a full run's metadata records it (JSON-ready: tuples as lists), the fields added
        with the user's tables left out at their defaults, as in :meth:`key`: a run of the catalogue
        records what it recorded before them."""
        return json.loads(json.dumps(self._fields(), default=list))

    def _fields(self) -> dict:
        fields = asdict(self)
        for name, default in _LATER_FIELDS.items():
            if fields[name] == default:
                del fields[name]
        return fields


#: Fields of :class:`Config` added after runs were stored, with their defaults: left out of :meth:`Config.key` at
#: their default, so the stored runs keep their keys.
_LATER_FIELDS = {"tables": (), "large_rule": "cliff", "max_train": None}


def _check_tables(tables, datasets) -> tuple:
    """``tables`` as a tuple of ``(name, sha256)`` pairs, names unique and none a data set of ``datasets``."""
    pairs = tuple(tuple(t) for t in tables)
    for pair in pairs:
        if len(pair) != 2 or not isinstance(pair[0], str) or not pair[0] or not isinstance(pair[1], str):
            raise ValueError(f"tables holds (name, sha256) pairs of Table objects, got {pair!r}")
        if len(pair[1]) != 64 or any(c not in "0123456789abcdef" for c in pair[1]):
            raise ValueError(f"table {pair[0]!r}: {pair[1]!r} is not a sha256 (64 hex digits): pass Table.sha256")
        if any(c in pair[0] for c in "/\\") or pair[0] in (".", ".."):
            raise ValueError(f"table name {pair[0]!r} names a path: give the table a plain name")
    names = [name for name, _ in pairs]
    clash = sorted({n for n in names if names.count(n) > 1} | (set(names) & set(datasets)))
    if clash:
        raise ValueError(f"table names {clash} are given twice or are data sets of the run: rename the tables")
    return pairs


#: Messages of numpy's own allocation errors (a ValueError, not a refusal by the library).
_ALLOCATION_ERRORS = ("array is too big", "Maximum allowed size exceeded", "maximum supported dimension")


def _first_line(err: BaseException) -> str:
    text = str(err).strip()
    return text.splitlines()[0] if text else ""


def _fold_rows(config: Config, name: str, data: dict, seed: int, f: int, fold) -> list[dict]:
    """Every method of ``config`` on one fold of one data set: accuracy (percent) and processor seconds. A
    method's :class:`ValueError` is its refusal of the data set (``refused``); any other exception (a
    MemoryError included) is recorded in ``error`` as ``"Type: message"``, and the next method runs."""
    X, y, types, Z = data["X"], data["y"], data["types"], data["Z"]
    train, test = fold
    truth = label_values(y.iloc[test])
    table = methods(ks=config.ks, scaling=config.scaling, mc_subsets=config.mc_subsets)
    binned = None
    rows = []
    for mname in config.methods:
        method = table[mname]
        row = {"dataset": name, "kind": data["kind"], "seed": seed, "fold": f, "method": mname}
        row.update(accuracy=np.nan, fit_s=np.nan, predict_s=np.nan, total_s=np.nan, refused="", error="")
        try:
            if method.runner == "protocol":
                t0 = time.process_time()
                accuracy = method.make(X, y, types, fold, [seed, f])
                row["total_s"] = time.process_time() - t0
            else:
                if method.symbolic and config.n_bins is not None:
                    if binned is None:
                        tr = equal_width_bins(X.iloc[train], config.n_bins)
                        te = equal_width_bins(X.iloc[test], config.n_bins, reference=X.iloc[train])
                        binned = encode(tr), encode(te)
                    Xtr, Xte = binned
                elif method.family in ("VFI5", "C4.5"):
                    Xtr, Xte = X.iloc[train], X.iloc[test]
                else:
                    Xtr, Xte = Z.take(train), Z.take(test)
                t0 = time.process_time()
                clf = method.make().fit(Xtr, y.iloc[train])
                t1 = time.process_time()
                predicted = clf.predict(Xte)
                t2 = time.process_time()
                accuracy = float(np.mean(np.asarray(predicted).astype(object) == truth))
                row.update(fit_s=t1 - t0, predict_s=t2 - t1, total_s=t2 - t0)
        except ValueError as err:
            if any(text in str(err) for text in _ALLOCATION_ERRORS):
                row["error"] = f"{type(err).__name__}: {_first_line(err)}"
            else:
                row["refused"] = _first_line(err)
            rows.append(row)
            continue
        except Exception as err:  # recorded for this method and fold; the run goes on
            row["error"] = f"{type(err).__name__}: {_first_line(err)}"
            rows.append(row)
            continue
        row["accuracy"] = 100 * accuracy
        rows.append(row)
    return rows


def training_part(config: Config, train: np.ndarray, y: pd.Series, random_state: int) -> np.ndarray:
    """The training part a fold uses: ``train`` itself, or a stratified sample of :func:`training_size` of its
    instances under ``config.large_rule`` (the stated protocol of the largest, ``large`` of :class:`Config`, or
    the smooth rule), at most ``config.max_train`` (:func:`sklearn.model_selection.train_test_split`), in
    increasing order.

    Parameters
    ----------
    config : Config
    train : array of int
        The fold's training indices.
    y : Series
        The whole data set's classes.
    random_state : int
        The seed of the sample (:func:`run` passes :func:`~lazylib.protocols.shared.dataset_seed` of the data
        set and fold seed, plus the fold).

    Returns
    -------
    array of int

    Examples
    --------
    >>> config = Config(datasets=("iris",), large=100, large_train=30)
    >>> y = pd.Series(np.repeat(["a", "b", "c"], 50))
    >>> part = training_part(config, np.arange(150), y, 0)
    >>> len(part), sorted(pd.Series(y[part]).value_counts())
    (30, [10, 10, 10])
    """
    large = config.large if config.large_rule == "cliff" else None
    size = training_size(len(train), config.large_rule, knee=config.large_train, large=large, n_total=len(y))
    if config.max_train is not None:
        size = min(size, config.max_train)
    if size >= len(train):
        return train
    from sklearn.model_selection import train_test_split

    part, _ = train_test_split(train, train_size=size, stratify=y.iloc[train].to_numpy(), random_state=random_state)
    return np.sort(part)


@functools.lru_cache(maxsize=None)
def _prepared(name: str) -> dict:
    """A data set as the bench uses it, loaded once per process (each worker of a cluster loads it by name)."""
    X, y, types, _ = prepare(name)
    types = dict(types) if types is not None else None
    return {"X": X, "y": y, "types": types, "Z": encode(X, types), "kind": data_kind(types), "seed_name": name}


def _table_data(table) -> dict:
    """A user's table as the bench uses it, the same fields as :func:`_prepared`; its folds are seeded from its
    content's sha256, never from its name."""
    types = dict(table.types)
    Z = encode(table.X, types)
    return {"X": table.X, "y": table.y, "types": types, "Z": Z, "kind": data_kind(types), "seed_name": table.sha256}


def _job(config: Config, job: tuple, blas_threads: int | None = 1, data=None) -> tuple:
    """One job, ``(data set, fold seed, fold)``: its rows, every method of ``config`` on that fold. A catalogue
    job carries only names: the data set is loaded by name where the job runs (once per process); a user's
    table's job carries the table's ``data`` (:func:`_table_data`). The folds are drawn where the job runs. An
    exception outside the methods (loading the data set) is recorded on every method's row. ``blas_threads``
    limits the BLAS thread pools while it runs (None: as they are)."""
    from threadpoolctl import threadpool_limits

    name, seed, f = job
    with threadpool_limits(limits=blas_threads, user_api="blas"):
        try:
            data = _prepared(name) if data is None else data
            base = dataset_seed(data["seed_name"], seed)
            train, test = stratified_kfold(data["y"], config.n_splits, random_state=base)[f]
            train = training_part(config, train, data["y"], base + f)
            return job, _fold_rows(config, name, data, seed, f, (train, test))
        except Exception as err:
            return job, _failed_rows(config, job, err)


@dataclass(frozen=True)
class _Jobs:
    """What a worker runs for one job and its data (:func:`lazylib.parallel.run_jobs`): :func:`_job`, looked up
    when called, with the run's configuration and BLAS threads."""

    config: Config
    blas_threads: int | None

    def __call__(self, job: tuple, data) -> tuple:
        return _job(self.config, job, self.blas_threads, data)


def _lost(config: Config, job: tuple, err: BaseException) -> tuple:
    """The result of a job whose task was lost (with its worker, on a cluster): its rows, ``error`` on each."""
    return job, _failed_rows(config, job, err)


def _failed_rows(config: Config, job: tuple, err: BaseException) -> list[dict]:
    """The rows of a job that failed as a whole (its data set, or its worker): ``error`` on every method."""
    name, seed, f = job
    message = f"{type(err).__name__}: {_first_line(err)}"
    return [
        {"dataset": name, "kind": "", "seed": seed, "fold": f, "method": m, "accuracy": np.nan, "fit_s": np.nan}
        | {"predict_s": np.nan, "total_s": np.nan, "refused": "", "error": message}
        for m in config.methods
    ]


def _execute(config: Config, jobs: list, *, n_jobs: int, client, blas_threads, data: dict):
    """Yield ``(job, rows)`` as jobs end, one task a job, through the library's one path
    (:func:`lazylib.parallel.run_jobs`): here one by one (``n_jobs=1``), on joblib's workers (which end with
    this process), or on the Dask ``client``'s cluster (its workers' code checked first; a task lost with its
    worker is recorded as that job's error). ``data`` holds the user's tables' data by name (sent with their
    jobs; scattered once to a cluster)."""
    done = run_jobs(
        _Jobs(config, blas_threads),
        jobs,
        n_jobs=n_jobs,
        client=client,
        ordered=False,
        shared=data,
        key=lambda job: job[0],
        on_error=functools.partial(_lost, config),
        label="bench",
    )
    for _, result in done:
        yield result


def run(
    config: Config,
    *,
    tables: dict | None = None,
    n_jobs: int = 2,
    cache_dir=None,
    label: str = "bench",
    results=None,
    client=None,
    blas_threads: int | None = 1,
    folds=None,
    largest_first: bool = True,
    progress: bool | None = None,
    keep_failed: bool = False,
) -> pd.DataFrame:
    """Every method of ``config`` on every fold of every seed of every data set and table.

    One job per data set, fold seed and fold (all methods of that fold), the largest data sets first. A job
    carries names only: the data set is loaded by name where it runs, once per process. A method's exception is
    recorded on its row (``refused`` for the library's ValueError, ``error`` for anything else, a MemoryError
    included) and the run goes on. A user's table's job carries the table's data instead; its folds are
    seeded from its content (:func:`~lazylib.protocols.shared.dataset_seed` of its sha256 and the fold seed),
    so a renamed table draws the same folds, and its rows carry its name.

    Parameters
    ----------
    config : Config
    tables : dict of str to lazylib.datasets.frame.Table, optional
        The tables ``config.tables`` names, by name (required when it names any). Refused before any job: a
        table whose content is not the one named, or with a class of fewer members than ``config.n_splits``.
    n_jobs : int
        Worker processes of joblib (its active backend: loky, or a Dask cluster under
        ``joblib.parallel_config("dask")``); 1 runs here. The results do not depend on it.
    cache_dir : path, optional
        Keep the results in this folder, as a results folder (``results``, data only: CSV and JSON) named by the
        configuration and :func:`lazylib.report.book_files.inputs_fingerprint` (lazylib's sources and data and the
        versions of the numerical libraries) (:func:`~lazylib.protocols.bench.results.cache_folder`), reused only
        while both are unchanged: the chapters of Part VI share one run. Ignored when ``results`` is given.
    label : str
        Text of the progress bar.
    results : path, optional
        A results folder (:class:`ResultsFolder`): every job's rows are written there as soon as it ends, and
        the jobs already there are read back instead of run again, so an interrupted run resumes where it
        stopped and ends with the same rows.
    client : distributed.Client, optional
        Run the jobs on this Dask cluster (one task per job; ``n_jobs`` is then ignored).
    blas_threads : int or None
        BLAS threads while a job runs (``threadpoolctl.threadpool_limits``; threadpoolctl comes with scikit-learn):
        one by default, since the bench's products are small and the parallelism is across jobs; None leaves the
        pools as they are.
    folds : sequence of int, optional
        Run only these folds of each cross-validation (a sample of the run, e.g. to measure its cost); the
        cache is then not used.
    largest_first : bool
        Start the jobs of the largest data sets first (the best balance of workers), or the smallest first (the
        most jobs finished early, for a results folder read while the run goes on). The rows do not depend on it.
    progress : bool or None
        Draw the progress bar (None: on a terminal or in a notebook, :func:`lazylib.parallel.progress_bar`).
    keep_failed : bool
        Read back the failed jobs of a results folder (a row with an ``error``) instead of running them again.

    Returns
    -------
    DataFrame with one row per data set, seed, fold and method: ``accuracy`` (percent, NaN when refused or
    failed), ``fit_s``, ``predict_s`` (processor seconds of fitting and predicting; NaN for Part II's per-fold
    functions, which do both), ``total_s``, ``refused`` (the refusal's message, or ""), the data set's ``kind``
    and ``error`` (``"Type: message"`` of a failure, or "").
    """
    tables = bench_checks.check_tables(config, tables)
    if cache_dir is not None and folds is None and results is None:
        results = cache_folder(cache_dir, config)
    seeds = config.seeds()
    chosen = range(config.n_splits) if folds is None else sorted({check("fold", f, Integer(low=0)) for f in folds})
    if chosen and chosen[-1] >= config.n_splits:
        raise ValueError(f"folds must be below n_splits = {config.n_splits}, got {list(folds)}")
    size = {name: len(_prepared(name)["y"]) for name in config.datasets} | {n: len(t.y) for n, t in tables.items()}
    data = {name: _table_data(table) for name, table in tables.items()}
    jobs = [(name, s, f) for name in size for s in seeds[: config.fold_seeds_of(size[name])] for f in chosen]
    order = np.argsort([size[name] for name, _, _ in jobs], kind="stable")
    if largest_first:
        order = order[::-1]
    folder = ResultsFolder(results, config) if results is not None else None
    by_job = folder.resume(jobs, keep_failed=keep_failed) if folder is not None else {}
    todo = [jobs[i] for i in order if jobs[i] not in by_job]
    with progress_bar(len(todo), label, progress) as bar:
        for job, rows in _execute(config, todo, n_jobs=n_jobs, client=client, blas_threads=blas_threads, data=data):
            if folder is not None:
                folder.save(job, rows)
            by_job[job] = rows
            bar.update()
    frame = pd.DataFrame([row for job in jobs for row in by_job[job]], columns=list(COLUMNS))
    frame = frame[[c for c in COLUMNS if c != "error"] + ["error"]]
    frame = _check_refusals(frame)
    frame.attrs["config"] = asdict(config)
    failed = sum(any(row["error"] for row in by_job[job]) for job in jobs)
    frame.attrs["jobs"] = {"run": len(todo), "resumed": len(jobs) - len(todo), "failed": failed}
    return frame


def _check_refusals(results: pd.DataFrame) -> pd.DataFrame:
    """A method refuses a data set on every fold or on none: a refusal on some folds only is a failure, moved
    from ``refused`` to ``error`` (with a warning) so that it never counts as a refusal."""
    refused = results["refused"].ne("")
    partial = refused.groupby([results["dataset"], results["method"]]).transform(lambda s: 0 < s.sum() < len(s))
    if partial.any():
        bad = sorted(set(zip(results.loc[partial, "dataset"], results.loc[partial, "method"])))
        warnings.warn(f"methods failed on some folds only (not a refusal of the data set): {bad}", stacklevel=2)
        results = results.copy()
        moved = partial & refused
        results.loc[moved, "error"] = "refused on some folds only: " + results.loc[moved, "refused"]
        results.loc[moved, "refused"] = ""
    return results


def refusals(results: pd.DataFrame) -> pd.DataFrame:
    """The data sets each method refuses, with the library's reason: one row per (method, reason)."""
    ref = results[results["refused"].ne("")].drop_duplicates(["dataset", "method"])
    if ref.empty:
        return pd.DataFrame(columns=["method", "reason", "data sets", "refused"])
    reason = ref["refused"].str.replace(r";.*", "", regex=True)
    out = (
        ref.assign(reason=reason)
        .groupby(["method", "reason"], sort=False)["dataset"]
        .agg(lambda s: ", ".join(sorted(s)))
        .rename("data sets")
        .reset_index()
    )
    out["refused"] = out["data sets"].str.count(",") + 1
    return out


def accuracy_table(results: pd.DataFrame, *, by_seed: bool = False) -> pd.DataFrame:
    """Mean test accuracy (percent) by data set (rows) and method (columns), over folds and seeds, or over
    folds only with ``by_seed`` (rows: seed, data set, only the pairs the run holds: a data set under the stated
    protocol of the largest has its first fold seeds only). NaN where the method refuses the data set (or fails on
    all its folds). Paired: a data set's means are all over the folds every method of it has
    (:func:`~lazylib.protocols.bench.folds.paired_folds`); ``attrs["fold failures"]`` lists what was set aside."""
    index = ["seed", "dataset"] if by_seed else ["dataset"]
    paired = paired_folds(results)
    table = paired.pivot_table(index=index, columns="method", values="accuracy", aggfunc="mean", dropna=False)
    if by_seed:  # pivot_table(dropna=False) adds every seed to every data set: keep the pairs that ran
        table = table.loc[pd.MultiIndex.from_frame(results[index].drop_duplicates()).sort_values()]
    table = table.reindex(columns=[m for m in METHOD_NAMES if m in table.columns])
    table.attrs["fold failures"] = paired.attrs["fold failures"]
    return table


def time_table(results: pd.DataFrame) -> pd.DataFrame:
    """Processor seconds per fold, by method: median fit, predict and total over every fold of every data set
    the method accepts, and the total over the whole run."""
    ok = results[results["refused"].eq("")]
    out = ok.groupby("method").agg(
        fit=("fit_s", "median"), predict=("predict_s", "median"), total=("total_s", "median"), run=("total_s", "sum")
    )
    return out.reindex([m for m in METHOD_NAMES if m in out.index])


def default_cache_dir() -> Path | None:
    """Where the book's chapters share one run: ``_build/.bench`` at the root of the book (None outside one)."""
    from lazylib.report.book_files import book_root

    root = book_root()
    return None if root is None else root / "_build" / ".bench"


#: Every data set of the catalogue, five fold seeds: the full run of the command line, under the smooth rule of a
#: user's table (``large_rule="smooth"``, issue #52 item 6): a training part of more than 5,000 instances is a
#: stratified sample of sqrt(5,000 x n) of its n, and a data set of more than 5,000 training instances runs under
#: fewer fold seeds in proportion (satellite 4, mushroom 3, letter and shuttle 1: ``budget.fold_seeds``). Until
#: 2026-12-03 the catalogue's run had a cliff instead: letter and shuttle (over ``large=10_000``) one fold seed of
#: 5,000-instance training parts, every other data set five fold seeds of whole training parts.
FULL = Config(datasets=tuple(_datasets.list_datasets()), n_seeds=5, large_rule="smooth")
#: The catalogue's run until 2026-12-03 (the cliff at 10,000 instances): its rows of the four data sets the smooth
#: rule changes are kept beside the stored run as the alternative reading (``benchmarks/full_run/cliff_rows.csv.gz``).
CLIFF = Config(datasets=tuple(_datasets.list_datasets()), n_seeds=5, large=10_000)
#: The book's run: five data sets of each kind, small enough for Part VI to execute within its time budget under
#: five fold seeds (the full run adds the other data sets of the catalogue).
BOOK = Config(
    datasets=(
        "lung-cancer",
        "promoters",
        "breast-cancer",
        "primary-tumor",
        "house-votes-84",  # nominal
        "iris",
        "wine",
        "glass",
        "new-thyroid",
        "sonar",  # continuous
        "labor",
        "zoo",
        "lymphography",
        "hepatitis",
        "heart-disease-cleveland",  # mixed
    ),
    n_seeds=5,
)
