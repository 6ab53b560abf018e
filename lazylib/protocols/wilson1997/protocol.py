"""Many data sets x many distance functions on shared folds (Wilson & Martinez 1997), and the tables read from them.

:func:`run` evaluates k-NN with every metric on every data set, all metrics of a data set on the very same
folds, spread over worker processes, and returns one tidy table (``dataset``, ``metric``, ``fold``,
``accuracy``). The other functions read that table the way the paper's Tables 2, 3 and 6-8 are read:

- :func:`mean_table`: mean accuracy, data set x metric;
- :func:`attribute_kinds`: the data sets grouped by their attribute kinds (nominal, continuous, integer);
- the paper's marking rules (highest, wins, t-test marks, lead over the next) in
  :mod:`lazylib.protocols.wilson1997.marks`, and the counts of Tables 6 and 7 in
  :func:`lazylib.protocols.wilson1997.facts.head_to_head`.

What the chapters' claims read from these tables is computed in :mod:`lazylib.protocols.wilson1997.facts`, and
the claims themselves are the tables of :mod:`lazylib.protocols.wilson1997.claims`.

>>> from lazylib.protocols.wilson1997.protocol import run, mean_table
>>> res = run(["iris"], {"HVDM": "hvdm", "HEOM": "heom"}, n_splits=5, random_state=0)
>>> list(res.columns)
['dataset', 'metric', 'fold', 'accuracy', 'n_train', 'n_test']
>>> mean_table(res).shape
(1, 2)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import NamedTuple

import numpy as np
import pandas as pd

from lazylib._validation import Integer, Real, check
from lazylib.encoding import Encoded, encode
from lazylib.evaluation import stratified_kfold
from lazylib.labels import label_values
from lazylib.metrics import Metric, make_metric
from lazylib.neighbors import KNeighborsClassifier, accuracy_by_rule
from lazylib.parallel import parallel_map
from lazylib.protocols.shared import dataset_seed, prepare
from lazylib.search import TIE_RULES

#: Columns of the tidy table returned by :func:`run`.
COLUMNS = ["dataset", "metric", "fold", "accuracy", "n_train", "n_test"]


def _factory(name: str, spec):
    """A function returning a fresh unfitted metric from a metric spec (name, (name, params) or callable)."""
    if isinstance(spec, str):
        make_metric(spec)  # fail now, naming the problem, rather than in a worker
        return lambda: make_metric(spec)
    if isinstance(spec, tuple) and len(spec) == 2 and isinstance(spec[0], str) and isinstance(spec[1], dict):
        make_metric(spec[0], **spec[1])
        return lambda: make_metric(spec[0], **spec[1])
    if callable(spec) and not isinstance(spec, Metric):
        return spec
    raise ValueError(
        f"metric {name!r}: expected a metric name, a (name, params) pair or a callable returning a "
        f"fresh metric, got {spec!r}"
    )


def only_discrete(enc: Encoded) -> bool:
    """True when no attribute is continuous: DVDM, IVDM and WVDM are then the same function (they differ only
    in how they treat continuous attributes; Wilson & Martinez 1997, section 4.2)."""
    return "continuous" not in enc.kinds


def linear_complete(enc: Encoded) -> bool:
    """True when every attribute is linear and no value is unknown: HVDM is then Euclid. (normalised by the
    standard deviation) divided by 4, which ranks neighbours the same (section 6)."""
    return "nominal" not in enc.kinds and not np.isnan(enc.values).any()


def nominal_complete(enc: Encoded) -> bool:
    """True when every attribute is nominal and no value is unknown: HVDM and DVDM are then the same function
    (N2's VDM on every attribute; section 6)."""
    return all(kind == "nominal" for kind in enc.kinds) and not np.isnan(enc.values).any()


def _reuse_rules(reuse, makers) -> dict:
    rules = {}
    for name, spec in (reuse or {}).items():
        options = spec if isinstance(spec, list) else [spec]
        for option in options:
            if not (isinstance(option, tuple) and len(option) == 2 and callable(option[1])):
                raise ValueError(f"reuse[{name!r}]: expected (metric, predicate) or a list of them, got {option!r}")
            if name not in makers or option[0] not in makers:
                raise ValueError(f"reuse[{name!r}] = {option!r}: both metrics must be among {list(makers)}")
            if option[0] == name:
                raise ValueError(f"reuse[{name!r}]: a metric cannot reuse itself")
        rules[name] = options
    return rules


def run(
    datasets,
    metrics: dict,
    *,
    n_splits: int = 10,
    n_neighbors: int = 1,
    ties: str = "all",
    also_ties=(),
    train_fractions=None,
    random_state=0,
    n_jobs: int | None = None,
    max_instances: int | dict | None = None,
    reuse: dict | None = None,
    repeat_up_to: int | None = None,
    label: str = "experiments",
) -> pd.DataFrame:
    """Cross-validated k-NN accuracy of every metric on every data set, all metrics on the same folds.

    Parameters
    ----------
    datasets : list of str or dict
        Names of vendored data sets, or a dict name -> ``None`` / Dataset / ``(X, y[, types])``.
    metrics : dict
        Display name -> metric name (``"hvdm"``), ``(name, params)`` (``("hvdm", {"normalization": "N1"})``)
        or a callable returning a fresh unfitted metric.
    n_splits : int
        Folds of the stratified cross-validation (:func:`lazylib.evaluation.stratified_kfold`); each data set's
        folds are seeded by :func:`dataset_seed`.
    n_neighbors : int
        Passed to :class:`lazylib.neighbors.KNeighborsClassifier` (Wilson & Martinez use k = 1).
    ties : {"all", "first", "random"}
        Passed to :class:`lazylib.neighbors.KNeighborsClassifier`.
    also_ties : sequence of {"all", "first", "random"}
        Further tie rules scored from the same nearest-neighbour search: one column ``accuracy_<rule>`` each
        (for "random" the exact expected accuracy over its random choices). ``results.assign(accuracy=
        results["accuracy_random"])`` reads the table under that rule.
    train_fractions : sequence of float, optional
        Learning curve (Wilson & Martinez, Figure 13): train on a random fraction of each training fold
        (seeded by the data set, fold and fraction; at least two instances of two different classes, since
        the VDM family needs class probabilities) and test on the whole test fold. Adds a column
        ``fraction`` and one row per fraction.
    random_state : int or sequence of int
        The experiment's seed (an int only: each data set's seed is derived from it and the data set's name
        by :func:`dataset_seed`, so it cannot be a Generator). A sequence of seeds repeats the whole
        experiment once per seed (other folds, other training subsets) in one pool of workers and adds a
        column ``seed``.
    n_jobs : int or None
        Worker processes (:func:`lazylib.parallel.parallel_map`: -1 = every core, None = joblib's setting, so
        ``joblib.parallel_config(backend="dask")`` sends the jobs to a Dask cluster). Results are identical to
        ``n_jobs=1``.
    max_instances : int or dict, optional
        Cut larger data sets to a stratified subset of this size (one number for all, or per name); the
        returned table's ``attrs["subsampled"]`` lists every data set that was cut, as ``{name: (used, total)}``.
    reuse : dict, optional
        Display name -> ``(other, predicate)`` or a list of them: on a data set whose encoded attributes
        satisfy ``predicate`` (e.g. :func:`only_discrete`), the metric is the same function as ``other``, so
        its folds are not searched again but copied from ``other``'s. Adds a boolean column ``reused``. Only
        for metrics that rank neighbours identically there (``tests/unit`` checks each predicate of this
        module against a full run).
    repeat_up_to : int, optional
        With several seeds: a data set of more instances than this (after ``max_instances``) is cross-validated
        under the first seed only; under every other seed it keeps the first seed's data and folds, so its rows
        there are copies of the first seed's. Adds a boolean column ``repeated`` (True on the copies), and
        ``attrs["repeated"]`` lists those data sets as ``{name: instances}``. Their spread over seeds is then not
        in the table: measure it apart (``benchmarks/seed_spread_large.py`` does for Part IV). ``None``: every
        data set under every seed.
    label : str
        Progress-bar text (:func:`lazylib.parallel.parallel_map`).

    Returns
    -------
    DataFrame with columns :data:`COLUMNS` (then ``accuracy_<rule>``, ``fraction``, ``seed``, ``reused`` as
    asked), one row per seed, data set, metric and fold, in the order given.

    Notes
    -----
    Every fold of every data set (and seed) is one job per metric, so a big data set's folds are spread over
    the workers; the jobs start with the largest, which keeps both workers busy to the end.
    """
    n_splits = check("n_splits", n_splits, Integer(low=2))
    if repeat_up_to is not None:
        repeat_up_to = check("repeat_up_to", repeat_up_to, Integer(low=1))
    rules, fractions, seeds = _check_settings(ties, also_ties, train_fractions, random_state)
    makers, reuse_rules, specs = _check_inputs(datasets, metrics, reuse)
    data = _prepare_all(specs, seeds, n_splits, max_instances, reuse_rules, repeat_up_to)
    jobs = [
        Job(name, metric, f, fr, seed)
        for seed in seeds
        for name in specs
        for fr in fractions
        for metric in makers
        for f in range(n_splits)
    ]
    order = _largest_first(jobs, data)
    score = partial(_score_job, data=data, makers=makers, n_neighbors=n_neighbors, ties=ties, rules=rules)
    scores = parallel_map(score, [jobs[i] for i in order], n_jobs=n_jobs, label=label)
    accuracy, used = _gather(jobs, order, scores, len(rules), data)
    extra = (
        [f"accuracy_{rule}" for rule in rules[1:]]
        + (["fraction"] if train_fractions is not None else [])
        + (["seed"] if not isinstance(random_state, (int, np.integer)) else [])
        + (["reused"] if reuse_rules else [])
        + (["repeated"] if repeat_up_to is not None else [])
    )
    out = _results_table(jobs, accuracy, used, rules, data, COLUMNS + extra)
    out.attrs["subsampled"] = data.subsampled
    out.attrs["repeated"] = data.repeated
    out.attrs["ties"] = ties
    return out


def _check_inputs(datasets, metrics, reuse) -> tuple[dict, dict, dict]:
    """The metrics' factories, the reuse rules and the data sets' specs of :func:`run`, checked."""
    if not isinstance(metrics, dict) or not metrics:
        raise ValueError("metrics must be a non-empty dict of display name -> metric")
    makers = {name: _factory(name, spec) for name, spec in metrics.items()}
    reuse_rules = _reuse_rules(reuse, makers)
    specs = datasets if isinstance(datasets, dict) else {name: None for name in datasets}
    if not specs:
        raise ValueError("datasets is empty")
    return makers, reuse_rules, specs


def _score_job(job, *, data, makers, n_neighbors, ties, rules):
    """One job of :func:`run`: fit k-NN on the job's training part, score its test fold under every tie rule."""
    Z, y = data.prepared[job.dataset, job.seed]
    train, test = _training_part(data, job), data.folds[job.dataset, job.seed][job.fold][1]
    clf = KNeighborsClassifier(n_neighbors, makers[job.metric](), ties=ties)
    clf.fit(Z.take(train), y.iloc[train])
    return _tie_scores(clf, Z.take(test), label_values(y.iloc[test]), rules), len(train)


def _results_table(jobs, accuracy, used, rules, data, columns) -> pd.DataFrame:
    """:func:`run`'s tidy table: one row per job, the columns asked for."""
    rows = []
    for job, a, u in zip(jobs, accuracy, used):
        n, m, f, fr, s = job
        row = {
            "dataset": n,
            "metric": m,
            "fold": f,
            "accuracy": a[0],
            "n_train": u,
            "n_test": len(data.folds[n, s][f][1]),
        }
        row.update({f"accuracy_{rule}": value for rule, value in zip(rules[1:], a[1:])})
        row.update({"fraction": fr, "seed": s, "reused": (n, m) in data.copied, "repeated": _repeats(data, n, s)})
        rows.append({key: row[key] for key in columns})
    return pd.DataFrame(rows, columns=columns)


class Job(NamedTuple):
    """One job of :func:`run`: k-NN with one metric on one fold of one data set (at one training fraction, under
    one seed)."""

    dataset: str
    metric: str
    fold: int
    fraction: float | None
    seed: int


@dataclass
class Prepared:
    """What :func:`run` prepares before its jobs: each data set's encoded data and folds per seed, the data sets
    it cut (name -> (used, total)), the metrics whose folds are copied from another's ((name, metric) ->
    the metric computed), and the data sets run under the first seed only (name -> instances)."""

    prepared: dict = field(default_factory=dict)
    folds: dict = field(default_factory=dict)
    subsampled: dict = field(default_factory=dict)
    copied: dict = field(default_factory=dict)
    repeated: dict = field(default_factory=dict)
    first_seed: int | None = None


def _repeats(data: Prepared, name: str, seed: int) -> bool:
    """Whether the rows of data set ``name`` under ``seed`` are copies of the first seed's (``repeat_up_to``)."""
    return name in data.repeated and seed != data.first_seed


def _check_settings(ties, also_ties, train_fractions, random_state) -> tuple[list, list, list]:
    """The tie rules (the primary first), the training fractions (``[None]``: whole folds) and the seeds of
    :func:`run`, checked."""
    rules = [ties, *[r for r in also_ties if r != ties]]
    for rule in rules:
        if rule not in TIE_RULES:
            raise ValueError(f"tie rules must be among {TIE_RULES}, got {rule!r}")
    fractions = (
        [None]
        if train_fractions is None
        else [check("train_fractions", f, Real(low=0, high=1, open_low=True)) for f in train_fractions]
    )
    if not fractions:
        raise ValueError("train_fractions is empty")
    seeds = [random_state] if isinstance(random_state, (int, np.integer)) else list(random_state)
    if not seeds:
        raise ValueError("random_state is an empty sequence of seeds")
    seeds = [check("random_state", s, Integer(low=0)) for s in seeds]
    if len(set(seeds)) < len(seeds):
        raise ValueError(f"random_state repeats a seed: {seeds}")
    return rules, fractions, seeds


def _prepare_all(
    specs: dict, seeds: list, n_splits: int, max_instances, reuse_rules: dict, repeat_up_to: int | None = None
) -> Prepared:
    """Every data set encoded and split into folds under every seed (prepared once when no cap makes the data
    depend on the seed; data and folds of the first seed for every seed where the data set has more than
    ``repeat_up_to`` instances), and the metrics whose reuse rule holds on every encoding of a data set."""
    out = Prepared(first_seed=seeds[0])
    for name, data in specs.items():
        cap = max_instances.get(name) if isinstance(max_instances, dict) else max_instances
        for seed in seeds:
            first = out.prepared.get((name, seeds[0]))
            if first is not None and repeat_up_to is not None and len(first[1]) > repeat_up_to:
                out.repeated[name] = len(first[1])  # the first seed's data and folds, copied below
                out.prepared[name, seed], out.folds[name, seed] = first, out.folds[name, seeds[0]]
                continue
            if cap is None and seed != seeds[0]:  # the same data for every seed: prepared once
                out.prepared[name, seed] = out.prepared[name, seeds[0]]
            else:
                X, y, types, n_total = prepare(name, data, max_instances=cap, random_state=seed)
                if len(y) < n_total:
                    out.subsampled[name] = (len(y), n_total)
                out.prepared[name, seed] = (encode(X, types), y)
            out.folds[name, seed] = stratified_kfold(
                out.prepared[name, seed][1], n_splits, random_state=dataset_seed(name, seed)
            )
        encodings = [out.prepared[name, seed][0] for seed in seeds]
        for metric, options in reuse_rules.items():
            source = next((other for other, predicate in options if all(predicate(e) for e in encodings)), None)
            if source is not None:
                out.copied[name, metric] = source
    # a metric copied from one that is itself copied takes the first computed one
    for key, source in list(out.copied.items()):
        seen = {key[1]}
        while (key[0], source) in out.copied and source not in seen:
            seen.add(source)
            source = out.copied[key[0], source]
        out.copied[key] = source
    return out


def _largest_first(jobs: list[Job], data: Prepared) -> list[int]:
    """Indices of the jobs to compute (not copied), the largest (training x test size) first."""
    computed = [
        i
        for i, job in enumerate(jobs)
        if (job.dataset, job.metric) not in data.copied and not _repeats(data, job.dataset, job.seed)
    ]
    cost = [
        len(data.folds[n, s][f][0]) * (fr or 1.0) * len(data.folds[n, s][f][1])
        for n, _, f, fr, s in (jobs[i] for i in computed)
    ]
    return [computed[i] for i in np.argsort(cost, kind="stable")[::-1]]


def _training_part(data: Prepared, job: Job) -> np.ndarray:
    """The training rows of a job: its fold's, or a seeded random fraction of them holding two classes."""
    name, _, f, fraction, seed = job
    train = data.folds[name, seed][f][0]
    if fraction is None:
        return train
    rng_seed = [dataset_seed(name, seed), f, int(round(fraction * 1e6))]
    size = max(2, int(round(fraction * len(train))))
    shuffled = np.random.default_rng(rng_seed).permutation(train)
    labels = label_values(data.prepared[name, seed][1].iloc[shuffled])
    chosen = list(shuffled[:size])
    if len(set(labels[:size])) < 2:  # the metrics learn class probabilities: two classes at least
        other = np.flatnonzero(labels != labels[0])
        if len(other):
            chosen[-1] = shuffled[other[0]]
    return np.sort(np.asarray(chosen))


def _gather(jobs: list[Job], order: list[int], scores: list, n_rules: int, data: Prepared):
    """``(accuracy, used)`` per job, shape (len(jobs), n_rules) and (len(jobs),): the computed jobs' scores
    (in ``order``), then the copied jobs' from the job they copy (another metric's, :attr:`Prepared.copied`; the
    first seed's, :attr:`Prepared.repeated`; or both)."""
    accuracy = np.full((len(jobs), n_rules), np.nan)
    used = np.zeros(len(jobs), dtype=int)
    for i, (hits, n_used) in zip(order, scores):
        accuracy[i], used[i] = hits, n_used
    position = {job: i for i, job in enumerate(jobs)}
    for i, (n, m, f, fr, s) in enumerate(jobs):
        source = Job(n, data.copied.get((n, m), m), f, fr, data.first_seed if _repeats(data, n, s) else s)
        if source != jobs[i]:
            j = position[source]
            accuracy[i], used[i] = accuracy[j], used[j]
    return accuracy, used


def _tie_scores(clf: KNeighborsClassifier, Z, truth: np.ndarray, rules) -> np.ndarray:
    """Accuracy of a fitted classifier on ``(Z, truth)`` under every tie rule of ``rules``, from one search
    (:func:`lazylib.neighbors.accuracy_by_rule`; for "random": the exact expected accuracy)."""
    return np.array(list(accuracy_by_rule(clf, Z, truth, rules).values()))


def under_ties(results: pd.DataFrame, rule: str) -> pd.DataFrame:
    """The table of :func:`run` read under another tie rule scored with ``also_ties`` (its ``accuracy_<rule>``
    column becomes ``accuracy``)."""
    column = f"accuracy_{rule}"
    if column in results.columns:
        return results.assign(accuracy=results[column])
    if results.attrs.get("ties") == rule:
        return results
    raise ValueError(f"the results hold no accuracy under ties={rule!r} (run(..., also_ties=[{rule!r}]))")


def _check_results(results: pd.DataFrame) -> None:
    missing = {"dataset", "metric", "fold", "accuracy"} - set(results.columns)
    if missing:
        raise ValueError(f"results need the columns {sorted(missing)} (the table wilson1997.run returns)")


def fold_table(results: pd.DataFrame) -> pd.DataFrame:
    """Accuracy per fold: index (dataset, fold), one column per metric (in the order first seen)."""
    _check_results(results)
    order = list(dict.fromkeys(results["metric"]))
    wide = results.pivot_table(index=["dataset", "fold"], columns="metric", values="accuracy", sort=False)
    return wide[order]


def mean_table(results: pd.DataFrame) -> pd.DataFrame:
    """Mean accuracy over folds: data set x metric, data sets and metrics in the order first seen."""
    _check_results(results)
    order = list(dict.fromkeys(results["metric"]))
    means = results.groupby(["dataset", "metric"], sort=False)["accuracy"].mean().unstack("metric")
    return means.loc[list(dict.fromkeys(results["dataset"])), order]


def attribute_kinds(names, data: dict | None = None) -> pd.DataFrame:
    """Attribute kinds of data sets, for grouping them as the paper does: counts of ``continuous``,
    ``integer`` (linear discrete) and ``nominal`` attributes, ``linear`` (continuous + integer), ``classes``
    and ``instances`` (rows with a class), one row per data set.

    ``data`` may map a name to a Dataset or ``(X, y, types)`` for data sets that are not vendored.

    Examples
    --------
    >>> kinds = attribute_kinds(["iris", "zoo"])
    >>> kinds[["continuous", "integer", "nominal", "classes"]]  # doctest: +NORMALIZE_WHITESPACE
             continuous  integer  nominal  classes
    dataset
    iris              4        0        0        3
    zoo               0        1       15        7
    """
    rows = []
    for name in names:
        spec = (data or {}).get(name)
        X, y, types, n = prepare(name, spec)
        kinds = list(encode(X, types).kinds)
        rows.append(
            {
                "dataset": name,
                "instances": n,
                "continuous": kinds.count("continuous"),
                "integer": kinds.count("integer"),
                "nominal": kinds.count("nominal"),
                "linear": kinds.count("continuous") + kinds.count("integer"),
                "classes": len(set(label_values(y))),
            }
        )
    return pd.DataFrame(rows).set_index("dataset")


__all__ = [
    "COLUMNS",
    "attribute_kinds",
    "dataset_seed",
    "fold_table",
    "linear_complete",
    "mean_table",
    "nominal_complete",
    "only_discrete",
    "prepare",
    "run",
    "under_ties",
]
