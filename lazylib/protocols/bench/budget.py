"""The budget of a bench run on a user's table: the smooth rule for the training sample of a large table
(:func:`training_size`, replacing the cliff of the catalogue's stored run at 10,000 instances), a one-fold pilot
that times every method (:func:`estimate`), the fold seeds and training sample that fit a budget of minutes
(:func:`choose`), and the protocol chosen, said in one sentence (:func:`describe`).

The cost model is stated before any run: a job (one fold, every method) costs what the pilot's fold cost, times
``(rows / pilot rows) ** exponent``, with the exponent that errs on the side of the budget in each direction.
Scaled up to more rows than the pilot's (a pilot on a sample of a large table, ``pilot_train``) the exponent is
:data:`EXPONENT`, 2, the steepest growth of the bench's learners (1-NN WOM's ``n ** 2.0``; the others ``n ** 1.5``
to ``n ** 1.9``, issue #52). Cut to fewer rows (:func:`choose` shrinking the training sample to fit a budget) it
is :data:`CUT_EXPONENT`, 1: a job shrinks no faster than linearly, since its test fold stays whole and its fits
grow at least linearly (measured: a 100,000-row table's job grew as ``n ** 1.2`` from a 2,000-row pilot to its
21,213-row sample, ``benchmarks/large_table.md``; with the exponent 2, a cut of that table to fit 15 minutes
would have run 1.3 to 1.8 times over). A job growing between linearly and quadratically thus costs at most what
is predicted either way. The jobs share ``n_jobs`` workers evenly, and the pilot's wall seconds over its
processor seconds carry the machine's load into the prediction.

The repetitions follow the same knee (:func:`fold_seeds`): every fold seed up to it, above it fold seeds in
inverse proportion to the training part (at least one), so each fold seed predicting every instance once, the
test predictions summed over fold seeds stay near those of a table at the knee; with the sample's square-root
growth a large table then costs about what a table at the knee costs until one fold seed is left, and from there
grows at most linearly.

>>> [training_size(n) for n in (1_000, 10_000)]
[1000, 7071]
>>> [fold_seeds(n, 5) for n in (5_000, 5_791, 7_311, 18_000, 90_000)]
[5, 4, 3, 1, 1]
"""

from __future__ import annotations

import dataclasses
import math
import time
from dataclasses import dataclass

import numpy as np
import pandas as pd

from lazylib._validation import Integer, Real, check

#: The rules of the training sample of large data sets (``large_rule`` of
#: :class:`lazylib.protocols.bench.protocol.Config`).
LARGE_RULES = ("cliff", "smooth")
#: The growth exponent of a job's cost in its training rows above the pilot's rows (the steepest growth).
EXPONENT = 2.0
#: The growth exponent of a job's cost below the pilot's rows, when :func:`choose` cuts a sample (the flattest).
CUT_EXPONENT = 1.0


def training_size(n_train: int, rule: str = "smooth", *, knee: int = 5000, large=None, n_total=None) -> int:
    """How many of a fold's ``n_train`` training instances the fold learns from, under ``rule``.

    ``"smooth"`` (stated before any run): the whole training part up to ``knee`` instances, above it
    ``sqrt(knee * n_train)`` (that is ``knee * sqrt(n_train / knee)``), rounded. The size is continuous in the
    table's size (no jump) and grows as its square root above the knee, so a learner whose cost grows as
    ``n ** a`` costs ``n ** (a / 2)`` there: the bench's learners grow as ``n ** 1.5`` to ``n ** 2.0`` between
    2,500 and 5,000 training rows (issue #52, measured on letter), so the cost of a fold grows at most linearly
    with the table above the knee, and a 100,000-row table (90,000 training rows, a sample of 21,213) costs
    about 15 times a 5,000-row one, not 300. ``"cliff"``: the catalogue's stored protocol, ``knee`` instances
    for a data set of more than ``large`` instances (``n_total``), the whole part otherwise.

    Parameters
    ----------
    n_train : int
        The fold's training instances.
    rule : {"smooth", "cliff"}
        The rule (``large_rule`` of :class:`~lazylib.protocols.bench.protocol.Config`).
    knee : int
        ``large_train`` of :class:`Config`.
    large : int or None
        ``"cliff"`` only: the size above which the sample is taken (None: never).
    n_total : int or None
        ``"cliff"`` only: the data set's instances (required with ``large``).

    Returns
    -------
    int
        At most ``n_train``.

    Examples
    --------
    >>> [training_size(n) for n in (4_000, 5_000, 5_001, 10_000, 90_000)]
    [4000, 5000, 5000, 7071, 21213]
    >>> training_size(9_000, "cliff", large=10_000, n_total=10_001), training_size(9_000, "cliff")
    (5000, 9000)
    """
    n_train = check("n_train", n_train, Integer(low=0))
    knee = check("knee", knee, Integer(low=2))
    if rule == "smooth":
        return n_train if n_train <= knee else min(n_train, int(round(np.sqrt(float(knee) * n_train))))
    if rule != "cliff":
        raise ValueError(f"rule must be one of {list(LARGE_RULES)}, got {rule!r}")
    if large is None:
        return n_train
    if n_total is None:
        raise ValueError("the cliff rule needs n_total, the data set's instances, with large")
    return min(n_train, knee) if n_total > large else n_train


def fold_seeds(n_train: int, n_seeds: int, *, knee: int = 5000) -> int:
    """How many of ``n_seeds`` fold seeds a data set runs under when its folds train on ``n_train`` instances: the
    repetitions of the smooth rule (``large_rule="smooth"`` of
    :class:`~lazylib.protocols.bench.protocol.Config`, with :func:`training_size`).

    Stated before any run: all ``n_seeds`` up to ``knee`` training instances, above it
    ``floor(n_seeds * knee / n_train)``, at least one. Each fold seed tests every instance once, so above the
    knee the predictions summed over fold seeds never exceed those of a table at the knee under all its fold
    seeds; the spread between fold seeds, which the repetitions average, narrows as the table grows. The first
    fold seeds are kept (a smaller run's seeds are a prefix of a larger one's).

    Parameters
    ----------
    n_train : int
        Training instances of a fold (the data set's instances less one test fold).
    n_seeds : int
        The fold seeds of the configuration.
    knee : int
        ``large_train`` of :class:`~lazylib.protocols.bench.protocol.Config`.

    Returns
    -------
    int
        Between 1 and ``n_seeds``.

    Examples
    --------
    >>> fold_seeds(4_000, 5), fold_seeds(6_000, 5), fold_seeds(20_000, 5), fold_seeds(12_500, 10)
    (5, 4, 1, 4)
    """
    n_train = check("n_train", n_train, Integer(low=0))
    n_seeds = check("n_seeds", n_seeds, Integer(low=1))
    knee = check("knee", knee, Integer(low=2))
    if n_train <= knee:
        return n_seeds
    return max(1, min(n_seeds, (n_seeds * knee) // n_train))


def protocol_sizes(config, sizes: dict) -> pd.DataFrame:
    """What each data set's folds are under ``config``: its instances, fold seeds and training instances per fold
    (those of a training part of ``n - ceil(n / n_splits)`` instances, the smallest a stratified fold gives).

    Parameters
    ----------
    config : lazylib.protocols.bench.protocol.Config
        The run.
    sizes : dict of str to int
        Data set -> its instances.

    Returns
    -------
    pandas.DataFrame
        Indexed by data set: ``instances``, ``fold_seeds``, ``training_instances``.

    Examples
    --------
    >>> from lazylib.protocols.bench.protocol import Config
    >>> config = Config(datasets=("iris",), large_rule="smooth")
    >>> protocol_sizes(config, {"iris": 150, "big": 100_000}).to_dict("index")["big"]
    {'instances': 100000, 'fold_seeds': 1, 'training_instances': 21213}
    """
    rows = {}
    for name, n in sizes.items():
        n_train = int(n) - math.ceil(int(n) / config.n_splits)
        large = config.large if config.large_rule == "cliff" else None
        size = training_size(n_train, config.large_rule, knee=config.large_train, large=large, n_total=int(n))
        size = min(size, config.max_train or size)
        rows[name] = {"instances": int(n), "fold_seeds": config.fold_seeds_of(int(n)), "training_instances": size}
    return pd.DataFrame.from_dict(rows, orient="index", columns=["instances", "fold_seeds", "training_instances"])


@dataclass(frozen=True)
class Estimate:
    """What the pilot measured (:func:`estimate`): enough to predict any run of the same data sets and methods.

    Attributes
    ----------
    config : lazylib.protocols.bench.protocol.Config
        The run estimated.
    seconds : pandas.DataFrame
        Processor seconds of the pilot's fold, data set (rows) by method (columns); 0 where the method refused
        the data set or failed.
    rows : dict
        Data set -> its instances.
    pilot_train : dict
        Data set -> the training instances of the pilot's fold.
    planned_train : dict
        Data set -> the training instances of a fold of the run (``config``'s rule and cap).
    wall_s : float
        Wall seconds the pilot took.
    load : float
        The pilot's wall seconds over its methods' processor seconds: the machine's load and what a job does
        besides fitting and predicting, carried into :meth:`wall`.
    results : pandas.DataFrame
        The pilot's rows (:func:`lazylib.protocols.bench.protocol.run`), its refusals and failures included.
    """

    config: object
    seconds: pd.DataFrame
    rows: dict
    pilot_train: dict
    planned_train: dict
    wall_s: float
    load: float
    results: pd.DataFrame

    def job_seconds(
        self, max_train: int | None = None, exponent: float = EXPONENT, cut_exponent: float = CUT_EXPONENT
    ) -> pd.Series:
        """Predicted wall seconds of one job (one fold, every method) of each data set.

        Parameters
        ----------
        max_train : int or None
            A cap on the training rows (None: the planned ones).
        exponent : float
            Growth of a job's cost in its training rows above the pilot's rows.
        cut_exponent : float
            Growth of a job's cost below the pilot's rows.

        Returns
        -------
        pandas.Series
            Seconds by data set.
        """
        out = {}
        for name, total in self.seconds.sum(axis=1).items():
            target = self.planned_train[name] if max_train is None else min(self.planned_train[name], max_train)
            ratio = target / max(self.pilot_train[name], 1)
            out[name] = float(total) * self.load * ratio ** (exponent if ratio > 1 else cut_exponent)
        return pd.Series(out, dtype=float)

    def wall(self, n_jobs: int = 1, n_seeds: int | None = None, max_train=None, exponent: float = EXPONENT) -> float:
        """Predicted wall seconds of the run on ``n_jobs`` workers: its jobs' seconds shared evenly, and never less
        than its longest job.

        Parameters
        ----------
        n_jobs : int
            Workers.
        n_seeds : int or None
            Fold seeds (None: the configuration's).
        max_train : int or None
            A cap on the training rows (None: the configuration's).
        exponent : float
            Growth of a job's cost in its training rows.

        Returns
        -------
        float
        """
        n_jobs = check("n_jobs", n_jobs, Integer(low=1))
        n_seeds = self.config.n_seeds if n_seeds is None else check("n_seeds", n_seeds, Integer(low=1))
        cap = self.config.max_train if max_train is None else max_train
        per_job = self.job_seconds(cap, exponent)
        total = 0.0
        seeded = dataclasses.replace(self.config, n_seeds=n_seeds)
        for name, seconds in per_job.items():
            seeds = seeded.fold_seeds_of(self.rows[name])
            total += seeds * self.config.n_splits * seconds
        return max(total / n_jobs, float(per_job.max()) if len(per_job) else 0.0)

    def text(self, n_jobs: int = 1) -> str:
        """The estimate in words, as the command prints it before the run.

        Parameters
        ----------
        n_jobs : int
            Workers of the run.

        Returns
        -------
        str
        """
        per_job = self.job_seconds()
        jobs = ", ".join(f"{name} {seconds:.1f} s" for name, seconds in per_job.items())
        return (
            f"pilot (one fold of the first fold seed, every method) in {self.wall_s:.1f} s wall; a job (one fold): "
            f"{jobs}; the run ({self.config.n_seeds} fold seed(s) x {self.config.n_splits} folds) on {n_jobs} "
            f"worker{'s' * (n_jobs != 1)}: about {self.wall(n_jobs) / 60:.1f} minutes wall"
        )


def estimate(config, tables=None, *, pilot_train: int | None = None, blas_threads: int | None = 1, progress=None):
    """The one-fold pilot: the first fold of the first fold seed of every data set and table of ``config``,
    here, every method timed.

    Parameters
    ----------
    config : lazylib.protocols.bench.protocol.Config
        The run to estimate.
    tables : dict of str to lazylib.datasets.frame.Table, optional
        Its tables, as :func:`lazylib.protocols.bench.protocol.run` takes them.
    pilot_train : int or None
        Time the pilot on a stratified sample of at most this many training rows, and scale it to the planned
        rows by :data:`EXPONENT` (for a table too large to pilot whole); None: the planned training part.
    blas_threads : int or None
        As for :func:`lazylib.protocols.bench.protocol.run`.
    progress : bool or None
        As for :func:`lazylib.protocols.bench.protocol.run`.

    Returns
    -------
    Estimate
    """
    from lazylib.protocols.bench.protocol import run

    check("pilot_train", pilot_train, Integer(low=2), optional=True)
    cap = config.max_train if pilot_train is None else min(pilot_train, config.max_train or pilot_train)
    pilot = dataclasses.replace(config, n_seeds=1, max_train=cap)
    start, cpu = time.perf_counter(), time.process_time()
    results = run(
        pilot, tables=tables, n_jobs=1, folds=[0], label="pilot", blas_threads=blas_threads, progress=progress
    )
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    seconds = results.pivot_table(index="dataset", columns="method", values="total_s", aggfunc="sum", sort=False)
    seconds = seconds.reindex(index=list(dict.fromkeys(results["dataset"])), columns=list(config.methods)).fillna(0.0)
    rows, pilot_train_rows, planned = _training_rows(config, pilot, tables)
    spent = float(seconds.to_numpy().sum())
    load = max(wall / spent, 1.0) if spent > 0 else 1.0
    return Estimate(config, seconds, rows, pilot_train_rows, planned, wall, load, results)


def _training_rows(config, pilot, tables) -> tuple[dict, dict, dict]:
    """Each data set's instances, and the training instances of its pilot's fold and of the run's folds."""
    from lazylib.evaluation import stratified_kfold
    from lazylib.protocols.bench.protocol import training_part
    from lazylib.protocols.shared import dataset_seed, prepare

    seed = config.seeds()[0]
    labels = {name: prepare(name)[1] for name in config.datasets}
    labels |= {name: table.y for name, table in (tables or {}).items()}
    seeded = {name: name for name in config.datasets} | {name: table.sha256 for name, table in (tables or {}).items()}
    rows, pilot_rows, planned = {}, {}, {}
    for name, y in labels.items():
        base = dataset_seed(seeded[name], seed)
        train = stratified_kfold(y, config.n_splits, random_state=base)[0][0]
        rows[name] = len(y)
        pilot_rows[name] = len(training_part(pilot, train, y, base))
        planned[name] = len(training_part(config, train, y, base))
    return rows, pilot_rows, planned


def choose(estimate: Estimate, budget_minutes: float = 15.0, n_jobs: int = 1, *, max_seeds: int = 5, min_train=1000):
    """The run that fits the budget: the most fold seeds (1 to ``max_seeds``) whose predicted wall, with the
    pilot's, stays within ``budget_minutes``; when one fold seed does not fit, one fold seed and the largest
    training sample that fits (``max_train``, never below ``min_train``: a run that cannot fit is said, not cut
    further).

    Parameters
    ----------
    estimate : Estimate
        The pilot's (:func:`estimate`).
    budget_minutes : float
        Wall minutes for the pilot and the run together.
    n_jobs : int
        Workers of the run.
    max_seeds : int
        The most fold seeds worth running.
    min_train : int
        The smallest training sample the budget may choose.

    Returns
    -------
    lazylib.protocols.bench.protocol.Config
        ``estimate.config`` with the chosen ``n_seeds`` (and ``max_train``).
    """
    budget = check("budget_minutes", budget_minutes, Real(low=0, open_low=True)) * 60 - estimate.wall_s
    max_seeds = check("max_seeds", max_seeds, Integer(low=1))
    min_train = check("min_train", min_train, Integer(low=2))
    config = estimate.config
    for seeds in range(max_seeds, 0, -1):
        if estimate.wall(n_jobs, seeds) <= budget:
            return dataclasses.replace(config, n_seeds=seeds)
    low, high = min_train, max(estimate.planned_train.values())
    if config.max_train is not None:
        high = min(high, config.max_train)
    while low < high:  # the largest cap in [min_train, high] that fits (the wall grows with the cap)
        middle = (low + high + 1) // 2
        low, high = (middle, high) if estimate.wall(n_jobs, 1, middle) <= budget else (low, middle - 1)
    return dataclasses.replace(config, n_seeds=1, max_train=max(low, min_train))


def describe(config, tables=None) -> str:
    """The protocol of a run, in one sentence (for the report).

    Parameters
    ----------
    config : lazylib.protocols.bench.protocol.Config
        The run.
    tables : dict of str to lazylib.datasets.frame.Table, optional
        Its tables: the sentence then says each one's training rows.

    Returns
    -------
    str

    Examples
    --------
    >>> from lazylib.protocols.bench.protocol import Config
    >>> print(describe(Config(datasets=("iris",), n_seeds=3, large_rule="smooth"))[:89])
    Stratified 10-fold cross-validation under 3 fold seeds (each data set's folds seeded from
    """
    seeds = f"{config.n_seeds} fold seed{'s' * (config.n_seeds != 1)}"
    head = (
        f"Stratified {config.n_splits}-fold cross-validation under {seeds} (each data set's folds seeded from its "
        "name, a user's table's from its content), every method on the same folds"
    )
    knee = f"{config.large_train:,}"
    if config.large_rule == "smooth":
        rule = (
            f"each training part whole up to {knee} rows, above that a stratified sample of sqrt({knee} x n) of its n "
            f"and the first floor({config.n_seeds} x {knee} / n) of the fold seeds (at least one)"
        )
    elif config.large is None:
        rule = "each training part whole"
    else:
        rule = (
            f"a data set of more than {config.large:,} rows under its first {config.large_seeds} fold seed(s) only, "
            f"each of its training parts a stratified sample of {knee} rows"
        )
    cap = (
        f", at most {config.max_train:,} training rows (a stratified sample, chosen by the budget)"
        if config.max_train
        else ""
    )
    sizes = ""
    if tables:
        parts = []
        for name, table in tables.items():
            n_train = len(table.y) - math.ceil(len(table.y) / config.n_splits)
            size = training_size(
                n_train, config.large_rule, knee=config.large_train, large=config.large, n_total=len(table.y)
            )
            size = min(size, config.max_train or size)
            seeds = config.fold_seeds_of(len(table.y))
            part = f"{name} {len(table.y):,} rows, training parts of about {size:,}"
            parts.append(part if seeds == config.n_seeds else f"{part} under {seeds} fold seed{'s' * (seeds != 1)}")
        sizes = f" ({'; '.join(parts)})"
    return f"{head}, {rule}{cap}, the test folds whole{sizes}."
