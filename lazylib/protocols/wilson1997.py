"""Many data sets x many distance functions on shared folds, and the marking rules of Wilson & Martinez (1997).

:func:`run` evaluates k-NN with every metric on every data set, all metrics of a data set on the very same
folds, spread over worker processes, and returns one tidy table (``dataset``, ``metric``, ``fold``,
``accuracy``). The other functions read that table the way the paper's Tables 2, 3 and 6-8 are read:

- :func:`mean_table`: mean accuracy, data set x metric;
- :func:`wins`: how often each metric has the highest mean accuracy, ties counted for every tied metric;
- :func:`marks`: two-tailed paired t-test marks against a baseline at 90 % (``"*"`` higher, ``"<"`` lower);
- :func:`head_to_head`: the counts of Tables 6 and 7 (higher on how many, significantly on how many);
- :func:`over_next`: the best metric of each data set and whether it leads the next by more than 1 %;
- :func:`attribute_kinds`: the data sets grouped by their attribute kinds (nominal, continuous, integer);
- :func:`average_attribute_distance`: the per-attribute average distance of Table 1.

>>> from lazylib.protocols.wilson1997 import run, mean_table
>>> res = run(["iris"], {"HVDM": "hvdm", "HEOM": "heom"}, n_splits=5, random_state=0)
>>> list(res.columns)
['dataset', 'metric', 'fold', 'accuracy', 'n_train', 'n_test']
>>> mean_table(res).shape
(1, 2)
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
import pandas as pd

from lazylib import datasets as _datasets
from lazylib._validation import Integer, Real, check
from lazylib.encoding import Encoded, encode, label_values
from lazylib.evaluation import paired_ttest, parallel_map, stratified_kfold
from lazylib.metrics import Metric, make_metric
from lazylib.neighbors import KNeighborsClassifier, accuracy_by_rule
from lazylib.report.verdicts import Claim, all_of, share_rule, tiers
from lazylib.search import TIE_RULES, TIE_TOLERANCE

#: Columns of the tidy table returned by :func:`run`.
COLUMNS = ["dataset", "metric", "fold", "accuracy", "n_train", "n_test"]

#: Tolerance within which two mean accuracies count as tied (fold means of identical predictions can differ
#: in the last bits of floating point).


def dataset_seed(name: str, random_state: int) -> int:
    """The seed of data set ``name``'s folds: fixed by ``random_state`` and the name alone, so adding or
    removing other data sets never changes a data set's folds.

    Parameters
    ----------
    name : str
        The data set's name.
    random_state : int
        The experiment's seed (an int only: each data set's seed is derived from it and the data set's name
        by :func:`dataset_seed`, so it cannot be a Generator).

    Examples
    --------
    >>> dataset_seed("iris", 0) == dataset_seed("iris", 0) != dataset_seed("glass", 0)
    True
    """
    random_state = check("random_state", random_state, Integer(low=0))
    return int(np.random.SeedSequence([random_state, zlib.crc32(name.encode())]).generate_state(1)[0])


def prepare(name: str, data=None, *, max_instances: int | None = None, random_state: int = 0):
    """One data set ready for :func:`run`: ``(X, y, types, n_total)``.

    ``data`` is ``None`` (load the vendored data set ``name``), a :class:`lazylib.datasets.Dataset`, or a tuple
    ``(X, y)`` or ``(X, y, types)``. Rows without a class are dropped. With ``max_instances`` a larger data set
    is cut to a stratified random subset of that size (seeded by :func:`dataset_seed`); ``n_total`` is the size
    before the cut.

    Parameters
    ----------
    random_state : int
        The experiment's seed (an int only: each data set's seed is derived from it and the data set's name
        by :func:`dataset_seed`, so it cannot be a Generator).
    """
    if data is None:
        data = _datasets.load(name)
    if isinstance(data, _datasets.Dataset):
        X, y, types = data.X, data.y, dict(data.types)
    elif isinstance(data, tuple) and len(data) in (2, 3):
        X, y = data[0], data[1]
        types = data[2] if len(data) == 3 else None
    else:
        raise ValueError(
            f"data set {name!r}: expected None, a Dataset or a tuple (X, y[, types]), got {type(data).__name__}"
        )
    y = y if isinstance(y, pd.Series) else pd.Series(np.asarray(y, dtype=object))
    keep = np.flatnonzero(y.notna().to_numpy())
    n_total = len(keep)
    if max_instances is not None:
        max_instances = check("max_instances", max_instances, Integer(low=2))
        if n_total > max_instances:
            rng = np.random.default_rng(dataset_seed(name, random_state) + 1)
            # stratified: take the same fraction of every class (at least one of each)
            labels = label_values(y.iloc[keep])
            chosen = []
            for cls in sorted(set(labels), key=str):
                members = keep[labels == cls]
                size = max(1, int(round(len(members) * max_instances / n_total)))
                chosen.append(rng.choice(members, size=min(size, len(members)), replace=False))
            keep = np.sort(np.concatenate(chosen))
    X = X.iloc[keep].reset_index(drop=True) if isinstance(X, pd.DataFrame) else np.asarray(X)[keep]
    y = y.iloc[keep].reset_index(drop=True)
    if isinstance(y.dtype, pd.CategoricalDtype):
        y = y.cat.remove_unused_categories()
    return X, y, types, n_total


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
        Worker processes (:func:`lazylib.evaluation.parallel_map`: -1 = every core, None = joblib's setting, so
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
    label : str
        Progress-bar text (:func:`lazylib.evaluation.parallel_map`).

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
    rules, fractions, seeds = _check_settings(ties, also_ties, train_fractions, random_state)
    repeated = not isinstance(random_state, (int, np.integer))
    if not isinstance(metrics, dict) or not metrics:
        raise ValueError("metrics must be a non-empty dict of display name -> metric")
    makers = {name: _factory(name, spec) for name, spec in metrics.items()}
    reuse_rules = _reuse_rules(reuse, makers)
    specs = datasets if isinstance(datasets, dict) else {name: None for name in datasets}
    if not specs:
        raise ValueError("datasets is empty")
    data = _prepare_all(specs, seeds, n_splits, max_instances, reuse_rules)
    jobs = [
        Job(name, metric, f, fr, seed)
        for seed in seeds
        for name in specs
        for fr in fractions
        for metric in makers
        for f in range(n_splits)
    ]
    order = _largest_first(jobs, data)

    def one(job: Job):
        Z, y = data.prepared[job.dataset, job.seed]
        train, test = _training_part(data, job), data.folds[job.dataset, job.seed][job.fold][1]
        clf = KNeighborsClassifier(n_neighbors, makers[job.metric](), ties=ties)
        clf.fit(Z.take(train), y.iloc[train])
        return _tie_scores(clf, Z.take(test), label_values(y.iloc[test]), rules), len(train)

    scores = parallel_map(one, [jobs[i] for i in order], n_jobs=n_jobs, label=label)
    accuracy, used = _gather(jobs, order, scores, len(rules), data.copied)
    extra = (
        [f"accuracy_{rule}" for rule in rules[1:]]
        + (["fraction"] if train_fractions is not None else [])
        + (["seed"] if repeated else [])
        + (["reused"] if reuse_rules else [])
    )
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
        row.update({"fraction": fr, "seed": s, "reused": (n, m) in data.copied})
        rows.append({key: row[key] for key in COLUMNS + extra})
    out = pd.DataFrame(rows, columns=COLUMNS + extra)
    out.attrs["subsampled"] = data.subsampled
    out.attrs["ties"] = ties
    return out


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
    it cut (name -> (used, total)), and the metrics whose folds are copied from another's ((name, metric) ->
    the metric computed)."""

    prepared: dict = field(default_factory=dict)
    folds: dict = field(default_factory=dict)
    subsampled: dict = field(default_factory=dict)
    copied: dict = field(default_factory=dict)


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


def _prepare_all(specs: dict, seeds: list, n_splits: int, max_instances, reuse_rules: dict) -> Prepared:
    """Every data set encoded and split into folds under every seed (prepared once when no cap makes the data
    depend on the seed), and the metrics whose reuse rule holds on every encoding of a data set."""
    out = Prepared()
    for name, data in specs.items():
        cap = max_instances.get(name) if isinstance(max_instances, dict) else max_instances
        for seed in seeds:
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
    computed = [i for i, job in enumerate(jobs) if (job.dataset, job.metric) not in data.copied]
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


def _gather(jobs: list[Job], order: list[int], scores: list, n_rules: int, copied: dict):
    """``(accuracy, used)`` per job, shape (len(jobs), n_rules) and (len(jobs),): the computed jobs' scores
    (in ``order``), then the copied jobs' from the job they copy."""
    accuracy = np.full((len(jobs), n_rules), np.nan)
    used = np.zeros(len(jobs), dtype=int)
    for i, (hits, n_used) in zip(order, scores):
        accuracy[i], used[i] = hits, n_used
    position = {job[:1] + job[2:]: {} for job in jobs}
    for i, job in enumerate(jobs):
        position[job[:1] + job[2:]][job[1]] = i
    for i, (n, m, f, fr, s) in enumerate(jobs):
        if (n, m) in copied:
            j = position[(n, f, fr, s)][copied[n, m]]
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


def best(means: pd.DataFrame, tolerance: float = TIE_TOLERANCE) -> pd.DataFrame:
    """Boolean frame: True where a metric has the highest mean accuracy of its data set (the paper's bold),
    every tied metric included."""
    return means.ge(means.max(axis=1) - tolerance, axis=0)


def wins(means: pd.DataFrame, tolerance: float = TIE_TOLERANCE) -> pd.Series:
    """How many data sets each metric has the highest mean accuracy on, ties counted for every tied metric
    (Wilson & Martinez, section 6: "as high or higher").

    Examples
    --------
    >>> means = pd.DataFrame({"A": [0.9, 0.8, 0.7], "B": [0.9, 0.85, 0.6]}, index=["x", "y", "z"])
    >>> wins(means).to_dict()
    {'A': 2, 'B': 2}
    """
    return best(means, tolerance).sum().astype(int).rename("wins")


def pvalues(results: pd.DataFrame, baseline: str) -> pd.DataFrame:
    """Two-tailed paired t-test p-values of every metric against ``baseline`` over the folds: data set x
    metric (the baseline's own column is 1)."""
    folds = fold_table(results)
    if baseline not in folds.columns:
        raise ValueError(f"baseline {baseline!r} is not among the metrics {list(folds.columns)}")
    rows = {}
    for name, block in folds.groupby(level="dataset", sort=False):
        rows[name] = {
            m: paired_ttest(block[m].to_numpy(), block[baseline].to_numpy(), "two-sided") for m in folds.columns
        }
    return pd.DataFrame.from_dict(rows, orient="index")[list(folds.columns)]


def marks(results: pd.DataFrame, baseline: str, *, alpha: float = 0.10) -> pd.DataFrame:
    """The paper's marks against ``baseline`` (Table 3): ``"*"`` where a metric is significantly higher,
    ``"<"`` where significantly lower, by a two-tailed paired t-test at level ``alpha`` (0.10: "90 % or
    higher confidence"); ``""`` otherwise and in the baseline's column."""
    check("alpha", alpha, Real(low=0, high=1, open_low=True, open_high=True))
    p = pvalues(results, baseline)
    diff = mean_table(results).loc[p.index, p.columns].sub(mean_table(results).loc[p.index, baseline], axis=0)
    out = pd.DataFrame("", index=p.index, columns=p.columns)
    out[(p < alpha) & (diff > 0)] = "*"
    out[(p < alpha) & (diff < 0)] = "<"
    out[baseline] = ""
    return out


def head_to_head(
    results: pd.DataFrame, a: str, b: str, *, alpha: float = 0.10, tolerance: float = TIE_TOLERANCE
) -> pd.Series:
    """The counts of Tables 6 and 7 for metric ``a`` against ``b``: on how many data sets each has the higher
    mean accuracy, how many of those differences are significant (two-tailed paired t-test at ``alpha``), how
    many are tied, and the average accuracy of each.

    Examples
    --------
    >>> res = pd.DataFrame({"dataset": ["x"] * 4 + ["y"] * 4, "metric": ["A", "A", "B", "B"] * 2,
    ...                     "fold": [0, 1, 0, 1] * 2, "accuracy": [0.9, 0.8, 0.7, 0.6, 0.5, 0.5, 0.5, 0.5]})
    >>> head_to_head(res, "A", "B")[["A higher", "A significant", "B higher", "ties"]].to_dict()
    {'A higher': 1, 'A significant': 1, 'B higher': 0, 'ties': 1}
    """
    means = mean_table(results)
    for m in (a, b):
        if m not in means.columns:
            raise ValueError(f"metric {m!r} is not among {list(means.columns)}")
    p = pvalues(results, b)[a]
    diff = means[a] - means[b]
    higher_a, higher_b = diff > tolerance, diff < -tolerance
    return pd.Series(
        {
            "datasets": len(diff),
            f"{a} higher": int(higher_a.sum()),
            f"{a} significant": int((higher_a & (p < alpha)).sum()),
            f"{b} higher": int(higher_b.sum()),
            f"{b} significant": int((higher_b & (p < alpha)).sum()),
            "ties": int((~higher_a & ~higher_b).sum()),
            f"{a} average": float(means[a].mean()),
            f"{b} average": float(means[b].mean()),
        },
        dtype=object,
    )


def over_next(means: pd.DataFrame, margin: float = 0.01, tolerance: float = TIE_TOLERANCE) -> pd.DataFrame:
    """For every data set, the metric with the highest mean accuracy, its lead over the next highest, and
    whether that lead exceeds ``margin`` (Table 2's asterisk: "more than 1 % over the next highest"; accuracies
    as fractions, so 1 % is 0.01). A tie for the highest gives lead 0 and the first tied metric.

    Examples
    --------
    >>> means = pd.DataFrame({"N1": [0.80, 0.9], "N2": [0.83, 0.9], "N3": [0.825, 0.85]}, index=["x", "y"])
    >>> over_next(means)
      best   lead  marked
    x   N2  0.005   False
    y   N1  0.000   False
    """
    check("margin", margin, Real(low=0))
    if means.shape[1] < 2:
        raise ValueError("over_next needs at least two metrics")
    values = means.to_numpy(dtype=float)
    top = np.sort(values, axis=1)[:, ::-1]
    lead = top[:, 0] - top[:, 1]
    lead[lead <= tolerance] = 0.0
    first = np.argmax(values >= values.max(axis=1, keepdims=True) - tolerance, axis=1)
    return pd.DataFrame(
        {"best": means.columns[first], "lead": lead.round(12), "marked": lead > margin + tolerance}, index=means.index
    )


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


def average_attribute_distance(metric, X, y, folds, *, types=None) -> pd.DataFrame:
    """Average distance of every attribute between test and training instances (Wilson & Martinez, Table 1):
    the sum of the attribute's distances over every (test, training) pair of every fold, divided by the
    number of pairs.

    Parameters
    ----------
    metric : Metric or callable
        An unfitted attribute-wise metric, or a function returning one (e.g.
        ``lambda: HVDM(normalization="N1")``). It is fitted on each fold's training part *of one attribute at a
        time*: the attribute distance of HEOM, HVDM, DVDM, IVDM and WVDM depends on that attribute alone, and
        with one attribute and the rooted forms the metric's distance is the attribute distance itself.
    folds : list of (train, test) index arrays

    Returns
    -------
    DataFrame indexed by attribute with its ``kind`` and ``average`` distance. Unknown values score as the
    metric defines (1 for HVDM).

    Examples
    --------
    >>> from lazylib.metrics import HVDM
    >>> from lazylib.evaluation import kfold
    >>> X = pd.DataFrame({"size": [1.0, 2.0, 3.0, 4.0], "colour": pd.Categorical(list("rbrb"))})
    >>> folds = kfold(4, 2, shuffle=False)
    >>> average_attribute_distance(HVDM(), X, [0, 1, 0, 1], folds).round(4)  # doctest: +NORMALIZE_WHITESPACE
                  kind  average
    attribute
    size        linear   0.7071
    colour     nominal   0.7071

    (With training rows 3, 4 the linear scale is 4 sigma = 2.828 and the four test differences average 2; the
    colours' class distributions are (1, 0) and (0, 1), N2 distance sqrt(2), on half of the pairs.)
    """
    make = (
        metric if callable(metric) and not isinstance(metric, Metric) else (lambda: type(metric)(**metric.get_params()))
    )
    enc = encode(X, types)
    labels = label_values(y)
    totals = np.zeros(len(enc.columns))
    pairs = 0
    for train, test in folds:
        train, test = np.asarray(train), np.asarray(test)
        pairs += len(train) * len(test)
        for a, (column, kind) in enumerate(zip(enc.columns, enc.kinds)):
            one = Encoded(enc.values[:, [a]], (column,), (kind,), (enc.categories[a],), enc.from_frame)
            m = make().fit(one.take(train), labels[train])
            for _, _, block in m.pairwise_chunks(one.take(test)):
                totals[a] += block.sum()
    kinds = ["nominal" if k == "nominal" else "linear" for k in enc.kinds]
    return pd.DataFrame({"kind": kinds, "average": totals / pairs}, index=pd.Index(enc.columns, name="attribute"))


def group_means(means: pd.DataFrame, kinds: pd.DataFrame) -> pd.DataFrame:
    """Average accuracy of every metric over the paper's groups of data sets: ``all``, ``no continuous``
    (no continuous attribute), ``no nominal``, ``nominal`` (at least one nominal), ``continuous`` (at least
    one continuous) and ``both`` (at least one of each), with the number of data sets in each."""
    k = kinds.reindex(means.index)
    if k.isna().any().any():
        raise ValueError(f"kinds lack the data sets {list(k.index[k.isna().any(axis=1)])}")
    groups = {
        "all": np.ones(len(k), bool),
        "no continuous": k["continuous"].to_numpy() == 0,
        "no nominal": k["nominal"].to_numpy() == 0,
        "nominal": k["nominal"].to_numpy() > 0,
        "continuous": k["continuous"].to_numpy() > 0,
        "both": (k["continuous"].to_numpy() > 0) & (k["nominal"].to_numpy() > 0),
    }
    rows = {g: {"datasets": int(sel.sum()), **means[sel].mean().to_dict()} for g, sel in groups.items()}
    return pd.DataFrame.from_dict(rows, orient="index")


# --- The chapters' counts and claims (Part IV) -------------------------------------------------------------------
#
# Every count the chapters show over the fold seeds and tie rules, and every claim they judge, is computed here:
# a facts function reads the results of one condition (:func:`run`'s table under one seed and tie rule), and each
# claim of the claim tables below is a :class:`~lazylib.report.verdicts.Claim` whose rule reads those facts.

#: The fold seed of the per-data-set tables and of every claim's primary condition (chapters 02 and 03).
PRIMARY_SEED = 1997

#: The tie rules every count and verdict is computed under, the primary reading first.
RULES = ("all", "random", "first")

#: The six distance functions of Tables 8 and 9, in the paper's order.
SIX = ("Euclid.", "HOEM", "HVDM", "DVDM", "IVDM", "WVDM")

#: The four VDM-based functions among :data:`SIX`.
VDM_BASED = ("HVDM", "DVDM", "IVDM", "WVDM")

#: The condition whose verdict each claim reports (for conditions labelled by :func:`labelled_conditions`).
PRIMARY_CONDITION = {"seed": PRIMARY_SEED, "ties": "all", "reading": "primary"}


def spread(values, digits: int = 2) -> str:
    """Mean ± sample standard deviation of ``values`` (over the fold seeds), as text.

    Parameters
    ----------
    values : array-like of float
        One value per fold seed.
    digits : int, default 2
        Decimals of both numbers.

    Returns
    -------
    str
        ``"mean ± sd"``.

    Examples
    --------
    >>> spread([1, 2, 3])
    '2.00 ± 1.00'
    """
    values = np.asarray(values, dtype=float)
    return f"{values.mean():.{digits}f} ± {values.std(ddof=1):.{digits}f}"


def over_conditions(func, conditions: dict) -> pd.DataFrame:
    """``func(results)`` for every condition: one column per key of ``conditions`` ((seed, tie rule) -> the
    results of :func:`run` read under that condition).

    Parameters
    ----------
    func : callable
        ``func(results) -> Series``: the counts of one condition.
    conditions : dict
        (seed, tie rule) -> results.

    Returns
    -------
    DataFrame
        One row per count, one column per condition (a (seed, tie rule) MultiIndex), in the order of
        ``conditions``.
    """
    return pd.DataFrame({key: func(res) for key, res in conditions.items()})


def by_rule(table: pd.DataFrame, digits: int = 2, rules=RULES) -> pd.DataFrame:
    """One column per tie rule: each row of ``table`` (columns (seed, tie rule), as :func:`over_conditions`
    returns) as :func:`spread` over the seeds.

    Parameters
    ----------
    table : DataFrame
        Counts with (seed, tie rule) columns.
    digits : int, default 2
        Decimals of :func:`spread`.
    rules : sequence of str
        The tie rules, in the order of the columns returned.

    Returns
    -------
    DataFrame
        The rows of ``table``, one text column per tie rule.
    """
    return pd.DataFrame(
        {rule: table.xs(rule, axis=1, level=1).apply(lambda r: spread(r, digits), axis=1) for rule in rules}
    )


def labelled_conditions(table, extra: dict | None = None, *, seed: int = PRIMARY_SEED) -> list:
    """The conditions a claim of this Part is judged under, labelled by seed, tie rule and reading.

    Parameters
    ----------
    table : DataFrame or dict
        (seed, tie rule) -> the facts of that condition (the columns of :func:`over_conditions`, or a dict).
    extra : DataFrame or dict, optional
        (reading, tie rule) -> facts of another reading of the paper (e.g. the printed form), run at ``seed``.
    seed : int
        The fold seed of the extra readings.

    Returns
    -------
    list of (dict, facts)
        For :meth:`lazylib.report.scorecard.Chapter.judge` with ``primary=PRIMARY_CONDITION``.
    """
    conditions = [({"seed": s, "ties": rule, "reading": "primary"}, facts) for (s, rule), facts in table.items()]
    conditions += [
        ({"seed": seed, "ties": t, "reading": r}, facts)
        for (r, t), facts in (extra.items() if extra is not None else ())
    ]
    return conditions


def table2_counts(results: pd.DataFrame) -> pd.Series:
    """The counts of the paper's Table 2 (HVDM under the normalisations N1, N2 and N3) from one condition's
    results: how often each normalisation is highest or leads the next by over 1 %, and the best average.

    Parameters
    ----------
    results : DataFrame
        :func:`run`'s table with the metrics ``N1``, ``N2``, ``N3``.

    Returns
    -------
    Series
        ``N2 highest``, ``N3 highest``, ``N2 over 1 %``, ``N1 over 1 %``, ``N3 above both``, ``best average``.
    """
    m = mean_table(results)
    lead = over_next(m)
    w = wins(m)
    return pd.Series(
        {
            "N2 highest": w["N2"],
            "N3 highest": w["N3"],
            "N2 over 1 %": int((lead["marked"] & (lead["best"] == "N2")).sum()),
            "N1 over 1 %": int((lead["marked"] & (lead["best"] == "N1")).sum()),
            "N3 above both": int(((lead["best"] == "N3") & (lead["lead"] > 0)).sum()),
            "best average": m.mean().idxmax(),
        }
    )


def table2_facts(results: pd.DataFrame) -> dict:
    """What the Table 2 claim reads from one condition's results: ``counts`` (:func:`table2_counts`) and
    ``averages`` (each normalisation's average accuracy in %)."""
    return {"counts": table2_counts(results), "averages": (100 * mean_table(results)).mean()}


def table3(results: pd.DataFrame, nominal) -> tuple[pd.DataFrame, pd.DataFrame, pd.Series]:
    """The paper's Table 3 from one condition's results: Euclid., HOEM and HVDM on the data sets ``nominal``
    (those with nominal attributes).

    Returns
    -------
    means : DataFrame
        Mean accuracy (%), data set x metric.
    marks : DataFrame
        :func:`marks` against HVDM (``"*"`` significantly above HVDM, ``"<"`` below; two-tailed, 90 %).
    wins : Series
        :func:`wins` of each metric.
    """
    sub = results[results["dataset"].isin(nominal) & results["metric"].isin(["Euclid.", "HOEM", "HVDM"])]
    m = 100 * mean_table(sub)
    return m, marks(sub, "HVDM"), wins(m / 100)


def table3_counts(results: pd.DataFrame, nominal) -> pd.Series:
    """The counts of Table 3 (:func:`table3`) that the paper's text reads: wins, significant differences of
    HVDM against Euclid. and HOEM, and HVDM's average minus the better of the other two (points)."""
    m, mk, w = table3(results, nominal)
    return pd.Series(
        {
            "HVDM as high or higher": int(w["HVDM"]),
            "Euclid. highest": int(w["Euclid."]),
            "HOEM highest": int(w["HOEM"]),
            "HVDM sig. above Euclid.": int((mk["Euclid."] == "<").sum()),
            "HVDM sig. below Euclid.": int((mk["Euclid."] == "*").sum()),
            "HVDM sig. above HOEM": int((mk["HOEM"] == "<").sum()),
            "HVDM sig. below HOEM": int((mk["HOEM"] == "*").sum()),
            "HVDM average minus the better other": float(m["HVDM"].mean() - m[["Euclid.", "HOEM"]].mean().max()),
        }
    )


def head_to_head_counts(results: pd.DataFrame, sets) -> pd.Series:
    """The counts of Tables 6 and 7 on the data sets ``sets``: IVDM and WVDM each against DVDM
    (:func:`head_to_head`), indexed by (function, count); the average gain is in points."""
    sub = results[results["dataset"].isin(sets)]
    out = {}
    for new in ("IVDM", "WVDM"):
        h = head_to_head(sub, new, "DVDM")
        out[(new, "new higher")] = h[f"{new} higher"]
        out[(new, "new significant")] = h[f"{new} significant"]
        out[(new, "DVDM higher")] = h["DVDM higher"]
        out[(new, "DVDM significant")] = h["DVDM significant"]
        out[(new, "ties")] = h["ties"]
        out[(new, "average gain")] = 100 * (h[f"{new} average"] - h["DVDM average"])
    return pd.Series(out)


def summary8(results: pd.DataFrame) -> pd.Series:
    """Table 8's summary from one condition's results: each function's average accuracy (%) and wins,
    indexed by (``"average"`` or ``"wins"``, function)."""
    m = 100 * mean_table(results)
    return pd.concat({"average": m.mean(), "wins": wins(m / 100).astype(float)})


def subgroup_numbers(results: pd.DataFrame, kinds: pd.DataFrame, metrics=SIX) -> pd.Series:
    """The averages of section 6's subgroups of data sets (:func:`group_means`) that the paper's text reads,
    from one condition's results.

    Parameters
    ----------
    results : DataFrame
        :func:`run`'s table with the six functions of :data:`SIX`.
    kinds : DataFrame
        :func:`attribute_kinds` of the data sets.
    metrics : sequence of str
        The functions, in the order of the ``both:`` rows.

    Returns
    -------
    Series
        Average accuracies (%) without continuous attributes, the gap of DVDM and of Euclid. to HOEM without
        nominal ones (points; ``DVDM lowest`` is 1.0 or 0.0), and each function's average with both kinds.
    """
    g = group_means(100 * mean_table(results), kinds)
    nocont, nonom, both = g.loc["no continuous"], g.loc["no nominal"], g.loc["both"]
    others = [m for m in metrics if m != "DVDM"]
    return pd.Series(
        {
            "no continuous: VDM-based": float(nocont[list(VDM_BASED)].mean()),
            "no continuous: HOEM": nocont["HOEM"],
            "no continuous: Euclid.": nocont["Euclid."],
            "no nominal: DVDM below the others' mean": float(nonom[others].mean() - nonom["DVDM"]),
            "no nominal: DVDM lowest": float(nonom["DVDM"] == nonom[list(metrics)].min()),
            "no nominal: Euclid. minus HOEM": nonom["Euclid."] - nonom["HOEM"],
            **{f"both: {m}": both[m] for m in metrics},
        }
    )


def equivalence_numbers(results: pd.DataFrame, nocont_sets, nonom_sets) -> pd.Series:
    """Where section 6's equivalences fail in one condition's results: per data set without continuous
    attributes whether HVDM's mean accuracy differs from DVDM's (``nocont``), per data set without nominal ones
    whether Euclid.'s differs from HVDM's (``nonom``); two boolean Series."""
    m = 100 * mean_table(results)
    return pd.Series(
        {
            "nocont": (m.loc[nocont_sets, "HVDM"] - m.loc[nocont_sets, "DVDM"]).abs().gt(1e-9),
            "nonom": (m.loc[nonom_sets, "Euclid."] - m.loc[nonom_sets, "HVDM"]).abs().gt(1e-9),
        }
    )


def level_and_gain(averages: pd.DataFrame) -> dict:
    """What Figure 13's claims read from the average accuracy of the six functions per training fraction.

    Parameters
    ----------
    averages : DataFrame
        One row per fraction of the training fold (ascending), one column per function of :data:`SIX`.

    Returns
    -------
    dict
        ``level``: per fraction, the VDM-based mean at least the mean of Euclid. and HOEM; ``gain``: per fraction
        after the smallest, the VDM-based functions' gain since the smallest at least the linear ones'; ``top``:
        IVDM and WVDM both above HVDM and DVDM; ``paired``: also HVDM and DVDM above Euclid. and HOEM; ``gap_1pc``:
        the VDM-based mean minus the linear mean at the smallest fraction.

    Examples
    --------
    >>> a = pd.DataFrame({"Euclid.": [70, 80], "HOEM": [70, 80], "HVDM": [75, 85], "DVDM": [75, 85],
    ...                   "IVDM": [80, 90], "WVDM": [80, 90]}, index=[0.1, 1.0])
    >>> f = level_and_gain(a)
    >>> f["level"].tolist(), f["gain"].tolist(), f["paired"].tolist(), f["gap_1pc"]
    ([True, True], [True], [True, True], 7.5)
    """
    vdm_based = averages[list(VDM_BASED)].mean(axis=1)
    linear = averages[["Euclid.", "HOEM"]].mean(axis=1)
    gain = (vdm_based - vdm_based.iloc[0]) >= (linear - linear.iloc[0])
    top = averages[["IVDM", "WVDM"]].min(axis=1) > averages[["HVDM", "DVDM"]].max(axis=1)
    middle = averages[["HVDM", "DVDM"]].min(axis=1) > averages[["Euclid.", "HOEM"]].max(axis=1)
    return {
        "level": vdm_based >= linear,
        "gain": gain.iloc[1:],
        "paired": top & middle,
        "top": top,
        "gap_1pc": float(vdm_based.iloc[0] - linear.iloc[0]),
    }


def _counts_evidence(counts: pd.Series) -> str:
    return f"counts (all, seed {PRIMARY_SEED}) {counts.round(2).to_dict()}"


def _note(rule, default: str = ""):
    """An evidence function giving the note of ``rule``'s verdict (``default`` when it has none)."""
    return lambda facts: rule(facts).note or default


def _table2_rule(f):
    c = f["counts"]
    return all_of(bool(c["best average"] == "N2"), bool(c["N2 over 1 %"] > c["N1 over 1 %"]))


#: Chapter 02's claim on Table 2, judged on :func:`table2_facts` under every fold seed and tie rule.
TABLE2_CLAIM = Claim(
    key="v2",
    words="N2 gives HVDM the best accuracy (Table 2)",
    measure="the normalisation with the highest average; data sets where N2 or N1 leads the next by over 1 %",
    thresholds="supported when N2 has the highest average and leads by over 1 % more often than N1",
    rule=_table2_rule,
    evidence=lambda f: f"averages (seed {PRIMARY_SEED}, all) {f['averages'].round(2).to_dict()}",
    kind="stand-in",
)


def _table3_rule(c):
    return all_of(
        bool(c["HVDM sig. above Euclid."] > c["HVDM sig. below Euclid."]),
        bool(c["HVDM sig. above HOEM"] > c["HVDM sig. below HOEM"]),
        bool(c["HVDM average minus the better other"] > 0),
    )


#: Chapter 03's claim on Table 3, judged on :func:`table3_counts`.
TABLE3_CLAIM = Claim(
    key="v3",
    words="HVDM is more accurate than Euclid. and HOEM on data with nominal attributes (Table 3)",
    measure="HVDM's significant wins and losses against Euclid. and HOEM; its average minus the better other's",
    thresholds="supported when HVDM is significantly better more often than worse against both and higher on average",
    rule=_table3_rule,
    evidence=_counts_evidence,
    kind="stand-in",
)


def _interpolation_claim(new: str) -> Claim:
    def rule(c):
        return all_of(
            bool(c[(new, "new higher")] > c[(new, "DVDM higher")]),
            bool(c[(new, "new significant")] > c[(new, "DVDM significant")]),
            bool(c[(new, "average gain")] > 0),
        )

    return Claim(
        key=f"v_{new}",
        words=f"{new} is more accurate than DVDM on data with continuous attributes "
        f"(Table {6 if new == 'IVDM' else 7})",
        measure=f"data sets where {new} or DVDM is higher (significantly or not); {new}'s average gain",
        thresholds=f"supported when {new} is higher more often, significantly higher more often, and higher on average",
        rule=rule,
        evidence=lambda c: _counts_evidence(c.loc[new]),
        kind="stand-in",
    )


#: Chapter 03's claims on Tables 6 (IVDM) and 7 (WVDM), judged on :func:`head_to_head_counts`.
INTERPOLATION_CLAIMS = {new: _interpolation_claim(new) for new in ("IVDM", "WVDM")}


def _table8_rule(c):
    avg = c["average"]
    return all_of(bool(avg.idxmax() == "IVDM"), bool(avg[["IVDM", "WVDM"]].min() > avg[["Euclid.", "HOEM"]].max()))


def _vdm_family_rule(c):
    avg = c["average"]
    return all_of(*[bool(avg[v] > avg[["Euclid.", "HOEM"]].max()) for v in VDM_BASED])


def _dvdm_hvdm_rule(c):  # "slightly": under 1 point, the paper's own gloss of a slight difference (section 6)
    d = c["average"]["DVDM"] - c["average"]["HVDM"]
    return tiers(supported=bool(0 < d < 1), partly=bool(d > 0), note=f"DVDM - HVDM {d:.2f}")


def _ivdm_euclid_rule(c):  # "almost 5 %": from 4 up to 5 points
    d = c["average"]["IVDM"] - c["average"]["Euclid."]
    return tiers(supported=bool(4 <= d < 5), partly=bool(d > 0), note=f"IVDM - Euclid. {d:.2f}")


def _averages_claim(key, words, measure, thresholds, rule) -> Claim:
    return Claim(key, words, measure, thresholds, rule, _note(rule, "averages"), kind="stand-in")


#: Chapter 03's claims on Table 8's averages, judged on :func:`summary8`.
TABLE8_CLAIMS = (
    _averages_claim(
        "v8",
        "IVDM has the highest average of the six; IVDM and WVDM beat Euclid. and HOEM (Table 8)",
        "the function with the highest average; IVDM's and WVDM's against Euclid.'s and HOEM's",
        "supported when both hold",
        _table8_rule,
    ),
    _averages_claim(
        "v8b",
        "All four VDM-based functions average above Euclid. and HOEM (Table 8)",
        "each VDM-based function's average against the higher of Euclid.'s and HOEM's",
        "supported when all four are above",
        _vdm_family_rule,
    ),
    _averages_claim(
        "v8c",
        "DVDM is slightly (under 1 point) above HVDM on average (Table 8)",
        "DVDM's average minus HVDM's (points)",
        "supported from 0 to 1 point, partly above 1",
        _dvdm_hvdm_rule,
    ),
    _averages_claim(
        "v8d",
        "IVDM is almost 5 % above Euclid. on average (Table 8)",
        "IVDM's average minus Euclid.'s (points)",
        "supported from 4 up to 5 points, partly for any other lead",
        _ivdm_euclid_rule,
    ),
)


def _nocont_rule(c):
    lead = c["no continuous: VDM-based"] - max(c["no continuous: HOEM"], c["no continuous: Euclid."])
    return tiers(supported=bool(lead > 2), partly=bool(lead > 0), note=f"lead {lead:.2f} points")


def _nonom_rule(c):  # "about 4 %": 3 to 5 points
    gap, lowest = c["no nominal: DVDM below the others' mean"], bool(c["no nominal: DVDM lowest"])
    return tiers(supported=lowest and bool(3 <= gap <= 5), partly=lowest, note=f"gap {gap:.2f} points")


def _euclid_hoem_rule(c):  # "slightly, under 1 %"
    d = c["no nominal: Euclid. minus HOEM"]
    return tiers(supported=bool(0 < d < 1), partly=bool(d >= 1), note=f"Euclid. - HOEM {d:.2f}")


def _both_rule(c):
    b = {m: c[f"both: {m}"] for m in SIX}
    return all_of(
        bool(b["HVDM"] > b["Euclid."]),
        bool(b["Euclid."] > b["HOEM"]),
        *[bool(b[m] > b["Euclid."]) for m in ("DVDM", "IVDM", "WVDM")],
        bool(max(b, key=b.get) == "IVDM"),
    )


def _subgroup_claim(key, words, measure, thresholds, rule) -> Claim:
    return Claim(key, words, measure, thresholds, rule, _note(rule), kind="stand-in")


#: Chapter 03's claims on section 6's subgroups of data sets, judged on :func:`subgroup_numbers`.
SUBGROUP_CLAIMS = (
    _subgroup_claim(
        "v_nocont",
        "Without continuous attributes the VDM-based functions clearly (by over 2 points) beat HOEM and Euclid.",
        "the VDM-based functions' mean minus the higher of HOEM and Euclid. (points)",
        "supported above 2 points, partly above 0",
        _nocont_rule,
    ),
    _subgroup_claim(
        "v_nonom",
        "Without nominal attributes only DVDM falls behind, by about 4 % (3 to 5 points)",
        "whether DVDM is the lowest; its gap to the others' mean (points)",
        "supported when lowest by 3 to 5 points, partly when lowest",
        _nonom_rule,
    ),
    _subgroup_claim(
        "v_eh",
        "Without nominal attributes Euclid. is slightly above HOEM (by under 1 %)",
        "Euclid. minus HOEM (points)",
        "supported from 0 to 1 point, partly from 1 point",
        _euclid_hoem_rule,
    ),
    _subgroup_claim(
        "v_both",
        "With both kinds of attribute: HVDM > Euclid. > HOEM, DVDM, IVDM and WVDM above Euclid., IVDM highest",
        "the order of the six averages on data with both kinds of attribute",
        "supported when every part holds, partly when some do",
        _both_rule,
    ),
)


def _nocont_equivalence(c):
    differ = c["nocont"]
    return tiers(
        supported=not differ.any(),
        partly=bool(not differ.all()),
        note=f"HVDM differs from DVDM on {int(differ.sum())} of {len(differ)}",
    )


def _nonom_equivalence(c):
    differ = c["nonom"]
    return tiers(
        supported=not differ.any(),
        partly=bool(not differ.all()),
        note=f"Euclid. differs from HVDM on {int(differ.sum())} of {len(differ)}",
    )


#: Chapter 03's claims on section 6's equivalences, judged on :func:`equivalence_numbers`.
EQUIVALENCE_CLAIMS = (
    Claim(
        "v_eq1",
        "HVDM, DVDM, IVDM and WVDM are equivalent without continuous attributes",
        "data sets without continuous attributes where HVDM's mean accuracy differs from DVDM's",
        "supported on none, partly when not on all",
        _nocont_equivalence,
        lambda c: _nocont_equivalence(c).note + " (integer attributes or unknowns); IVDM and WVDM equal DVDM on all",
        kind="stand-in",
    ),
    Claim(
        "v_eq2",
        "Euclid. and HVDM are equivalent without nominal attributes",
        "data sets without nominal attributes where Euclid.'s mean accuracy differs from HVDM's",
        "supported on none, partly when not on all",
        _nonom_equivalence,
        lambda c: _nonom_equivalence(c).note + ", each with unknown values",
        kind="stand-in",
    ),
)


def _fractions_rule(key):
    return lambda f: share_rule(f[key], supported=1.0, partly=0.5, what="fractions")


def _pairs_rule(f):
    return tiers(
        supported=bool(f["paired"].all()),
        partly=bool(f["paired"].any() or f["top"].any()),
        note=f"strict pair order at {int(f['paired'].sum())} of {len(f['paired'])} fractions",
    )


#: Chapter 04's claims on Figure 13, judged on :func:`level_and_gain` under every tie rule.
FIGURE13_CLAIMS = (
    Claim(
        "v_fast",
        "VDM-based functions are as accurate as Euclid. and HOEM from little data on (Figure 13: level)",
        "fractions where the VDM-based mean is at least the mean of Euclid. and HOEM",
        "supported at every fraction, partly at half",
        _fractions_rule("level"),
        _note(_fractions_rule("level")),
        kind="stand-in",
    ),
    Claim(
        "v_gain",
        "VDM-based functions gain accuracy as fast or faster than Euclid. and HOEM (Figure 13: gain)",
        "larger fractions where the VDM-based functions' gain since the smallest is at least the linear ones'",
        "supported at every fraction, partly at half",
        _fractions_rule("gain"),
        _note(_fractions_rule("gain")),
        kind="stand-in",
    ),
    Claim(
        "v_pairs",
        "The curves pair up: IVDM/WVDM above HVDM/DVDM above Euclid./HOEM (Figure 13)",
        "fractions where the three pairs are strictly ordered",
        "supported at every fraction, partly when any pair order holds somewhere",
        _pairs_rule,
        _note(_pairs_rule),
        kind="stand-in",
    ),
)

__all__ = [
    "EQUIVALENCE_CLAIMS",
    "FIGURE13_CLAIMS",
    "INTERPOLATION_CLAIMS",
    "PRIMARY_CONDITION",
    "PRIMARY_SEED",
    "RULES",
    "SIX",
    "SUBGROUP_CLAIMS",
    "TABLE2_CLAIM",
    "TABLE3_CLAIM",
    "TABLE8_CLAIMS",
    "VDM_BASED",
    "by_rule",
    "equivalence_numbers",
    "head_to_head_counts",
    "labelled_conditions",
    "level_and_gain",
    "over_conditions",
    "spread",
    "subgroup_numbers",
    "summary8",
    "table2_counts",
    "table2_facts",
    "table3",
    "table3_counts",
    "COLUMNS",
    "attribute_kinds",
    "average_attribute_distance",
    "best",
    "dataset_seed",
    "fold_table",
    "group_means",
    "head_to_head",
    "linear_complete",
    "marks",
    "mean_table",
    "nominal_complete",
    "only_discrete",
    "over_next",
    "prepare",
    "pvalues",
    "run",
    "under_ties",
    "wins",
]
