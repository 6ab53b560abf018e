"""Part VI of the book, beyond the papers: every classifier of the five papers on one bench, ranked with the
field's statistics.

Each paper compares its own method with two or three rivals, on its own data sets, under its own protocol. The
bench runs all of them on the same stratified folds of every data set of the catalogue that a method accepts, and
records the test accuracy and the processor time of every fold:

- **1-NN and k-NN** (k by leave-one-out on the training part, among Howe & Cardie's odd k from 1 to 75, the one
  Part whose protocol chooses k) under the distances of Part I (OM, WOM with learnt weights, VDM, MVDM, OMVW),
  Part IV (HEOM, HVDM with N2, DVDM, IVDM, WVDM) and the normalised Euclidean distance Part IV compares them with;
- **MDW and IG** weighting and the unweighted feature difference **FD** they improve on (Part V, Howe &
  Cardie's "k-NN"), k by leave-one-out as in their paper;
- **NN, CA and CACP** with the number of components chosen inside each training part (nested), **MC** and
  **FNN** (Part II), through Part II's own per-fold functions;
- **VFI5** (Part III) and **C4.5** (:class:`lazylib.trees.C45Classifier`) as the eager reference.

Every method is built by the code its Part uses (:func:`methods`); a method refuses a data set when fitting it
raises the library's :class:`ValueError` (for instance the sub-space mapping on nominal attributes), and the
refusal and its message are part of the results (:func:`refusals`). The statistics follow Demsar (2006) and
Benavoli et al. (2017): average ranks, the Friedman test, Nemenyi's post-hoc comparison and its critical
difference diagram (:mod:`scikit_posthocs`), and the Bayesian signed-rank test with a region of practical
equivalence (:mod:`baycomp`).

Run the whole bench from the command line (every data set, every seed; ``--help`` for the options)::

    python -m lazylib.protocols.bench --full
"""

from __future__ import annotations

import argparse
import hashlib
import pickle
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats
from sklearn.base import BaseEstimator, ClassifierMixin

from lazylib import datasets as _datasets
from lazylib import papers
from lazylib._validation import Choice, Integer, check, check_random_state
from lazylib.encoding import encode, label_values
from lazylib.evaluation import parallel_map, stratified_kfold
from lazylib.metrics import Metric, make_metric
from lazylib.neighbors import KNeighborsClassifier, loo_accuracy_by_k
from lazylib.protocols import payne2000
from lazylib.protocols.howe_cardie import K_RANGE
from lazylib.protocols.wilson1997 import dataset_seed, prepare
from lazylib.trees import C45Classifier
from lazylib.vfi import VFI5Classifier
from lazylib.weighting import MDW, FeatureDifference, IGWeighted, LearnedWOM
from lazylib.weighting.mdw import equal_width_bins

#: The distances of Parts I and IV (and the normalised Euclidean distance of Part IV), as the Parts build them.
DISTANCES = {
    "OM": "overlap",
    "WOM": LearnedWOM,
    "VDM": "vdm",
    "MVDM": "mvdm",
    "OMVW": "omvw",
    "HEOM": "heom",
    "HVDM": "hvdm",
    "DVDM": "dvdm",
    "IVDM": "ivdm",
    "WVDM": "wvdm",
    "Euclidean": ("euclidean", {"normalize": "std"}),
}
_LABEL = {paper.key: paper.label for paper in papers.PAPERS}
#: Payne & Edwards' (1998) distances are defined on symbols: a continuous attribute reaches them in bins.
SYMBOLIC = ("OM", "WOM", "VDM", "MVDM", "OMVW")
#: The paper each method comes from (its short name in :data:`lazylib.papers.PARTS`).
PAPERS = {
    **{name: _LABEL["payne1998"] for name in SYMBOLIC},
    **{name: _LABEL["wilson1997"] for name in ("HEOM", "HVDM", "DVDM", "IVDM", "WVDM", "Euclidean")},
    **{name: _LABEL["howe_cardie"] for name in ("MDW", "IG", "FD")},
    **{name: _LABEL["payne2000"] for name in ("NN", "CA", "CACP", "MC", "FNN")},
    "VFI5": _LABEL["guvenir1998"],
    "C4.5": "Quinlan (1993), reference",
}
#: The three kinds of data set (:func:`data_kind`).
KINDS = ("nominal", "continuous", "mixed")


def _make_distance(spec):
    if isinstance(spec, tuple):
        return make_metric(spec[0], **spec[1])
    if isinstance(spec, str):
        return make_metric(spec)
    return spec()


class LooKNeighbors(ClassifierMixin, BaseEstimator):
    """A k-NN whose k is the smallest of the best by leave-one-out on the training data: Howe & Cardie's
    protocol (:func:`lazylib.protocols.howe_cardie.fit_predict`) as a fit/predict estimator, so that fitting
    (the choice of k included) and predicting can be timed apart.

    Parameters
    ----------
    metric : str, tuple or callable
        A metric name, a ``(name, params)`` pair, or a callable returning a fresh unfitted metric.
    ks : sequence of int
        The candidate k (those below the training size are used).

    Attributes
    ----------
    k_ : int
        The chosen k.
    loo_ : Series
        Leave-one-out accuracy by k.
    knn_ : KNeighborsClassifier
        The fitted classifier with ``k_`` neighbours.
    classes_ : ndarray
        The class labels (those of ``knn_``).

    Examples
    --------
    >>> from lazylib.datasets import load
    >>> iris = load("iris")
    >>> clf = LooKNeighbors("hvdm", ks=(1, 3, 5)).fit(iris.X, iris.y)
    >>> clf.loo_.round(3).tolist(), clf.k_  # three k tie on leave-one-out accuracy: the smallest is kept
    ([0.947, 0.947, 0.947], 1)
    """

    def __init__(self, metric="hvdm", ks=K_RANGE):
        self.metric = metric
        self.ks = ks

    def fit(self, X, y, *, types=None):
        """Choose k by leave-one-out on ``X, y`` and fit the k-NN classifier with it.

        Parameters
        ----------
        X : DataFrame, Encoded or array of shape (n, m)
            Training attributes (nominal as Categorical columns, or codes with ``types``; NaN unknown).
        y : array-like of shape (n,)
            Class labels.
        types : sequence or dict, optional
            Attribute types, required when ``X`` is an array (see :func:`lazylib.encoding.encode`).

        Returns
        -------
        LooKNeighbors
            The fitted estimator itself.
        """
        ks = [k for k in self.ks if k < len(X)]
        if not ks:
            raise ValueError(f"no candidate k below the training size {len(X)}: ks={self.ks}")
        self.loo_ = loo_accuracy_by_k(X, y, ks, _make_distance(self.metric), types=types)
        self.k_ = int(self.loo_.idxmax())
        self.knn_ = KNeighborsClassifier(self.k_, _make_distance(self.metric)).fit(X, y, types=types)
        self.classes_ = self.knn_.classes_
        return self

    def predict(self, X) -> np.ndarray:
        """The k-NN prediction with the chosen k.

        Parameters
        ----------
        X : DataFrame, Encoded or array of shape (n, m)
            Query attributes, in the form ``fit`` was given.

        Returns
        -------
        ndarray of shape (n,)
            The predicted class labels.
        """
        return self.knn_.predict(X)


@dataclass(frozen=True)
class Method:
    """One classifier of the bench: its name, paper and family, and how it runs one fold."""

    name: str
    paper: str
    family: str
    runner: str  # "estimator" (fit and predict timed apart) or "protocol" (Part II's per-fold functions)
    make: object = field(repr=False)  # estimator factory, or a function (X, y, types, fold, seed) -> accuracy
    symbolic: bool = False


def methods(*, ks=K_RANGE, scaling: str = "range", mc_subsets: int = 100) -> dict:
    """Every method of the bench by name, each built as its Part builds it.

    Parameters
    ----------
    ks : sequence of int
        Candidate k of every k-NN whose k is chosen by leave-one-out (Howe & Cardie's by default).
    scaling : {"none", "range", "sd"}
        Part II's normalisation of the attributes before the Euclidean 1-NN of NN, CA, CACP, MC and FNN
        (:func:`lazylib.protocols.payne2000.scale_fold`); the bench takes "range", the normalisation of HEOM,
        MDW and IG, rather than the reading Part II fits to its paper.
    mc_subsets : int
        MC's budget of attribute subsets (Part II's 100).
    """
    check("scaling", scaling, Choice(payne2000.SCALINGS))
    out = {}
    for name, spec in DISTANCES.items():
        paper, symbolic = PAPERS[name], name in SYMBOLIC
        out[f"1-NN {name}"] = Method(
            f"1-NN {name}",
            paper,
            "1-NN",
            "estimator",
            lambda s=spec: KNeighborsClassifier(1, _make_distance(s)),
            symbolic,
        )
        out[f"k-NN {name}"] = Method(
            f"k-NN {name}", paper, "k-NN", "estimator", lambda s=spec: LooKNeighbors(s, ks), symbolic
        )
    for name, cls in (("MDW", MDW), ("IG", IGWeighted), ("FD", FeatureDifference)):
        out[name] = Method(name, PAPERS[name], "weighting", "estimator", lambda c=cls: LooKNeighbors(c, ks))

    def subspace(method):
        def run(X, y, types, fold, seed):
            res = payne2000.cv_sweep(X, y, [fold], method=method, scaling=scaling, nested=True)
            return float(res["nested_accuracy"].iloc[0])

        return run

    def selection(method):
        def run(X, y, types, fold, seed):
            res = payne2000.cv_selection(
                X, y, [fold], method=method, scaling=scaling, types=types, n_subsets=mc_subsets, random_state=seed
            )
            return float(res["fold_accuracy"].iloc[0])

        return run

    def nn(X, y, types, fold, seed):
        return float(payne2000.cv_nn(X, y, [fold], scaling=scaling).iloc[0])

    out["NN"] = Method("NN", PAPERS["NN"], "sub-space", "protocol", nn)
    out["CA"] = Method("CA", PAPERS["CA"], "sub-space", "protocol", subspace("ca"))
    out["CACP"] = Method("CACP", PAPERS["CACP"], "sub-space", "protocol", subspace("cacp"))
    out["MC"] = Method("MC", PAPERS["MC"], "selection", "protocol", selection("mc"))
    out["FNN"] = Method("FNN", PAPERS["FNN"], "selection", "protocol", selection("fnn"))
    out["VFI5"] = Method("VFI5", PAPERS["VFI5"], "VFI5", "estimator", VFI5Classifier)
    out["C4.5"] = Method("C4.5", PAPERS["C4.5"], "C4.5", "estimator", C45Classifier)
    return out


#: Every method name, in the order of the tables.
METHOD_NAMES = tuple(methods())


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
        fold seed come from :func:`lazylib.protocols.wilson1997.dataset_seed`.
    n_splits : int
        Folds per cross-validation.
    methods : tuple of str
        Names of :func:`methods` to run.
    n_bins : int or None
        Equal-width bins of each continuous attribute (over the training part's range) for the symbolic
        distances of Part I, as Howe & Cardie bin for the VDM family; None hands them the raw values, each a
        symbol of its own.
    ks : tuple of int
        As for :func:`methods`.
    scaling : {"none", "range", "sd"}
        As for :func:`methods`.
    mc_subsets : int
        As for :func:`methods`.
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

    def __post_init__(self):
        known = set(_datasets.list_datasets())
        unknown = [d for d in self.datasets if d not in known]
        if unknown or not self.datasets:
            raise ValueError(f"unknown or no data sets: {unknown or list(self.datasets)}")
        bad = [m for m in self.methods if m not in METHOD_NAMES]
        if bad or not self.methods:
            raise ValueError(f"unknown or no methods: {bad or list(self.methods)} (known: {list(METHOD_NAMES)})")
        check("n_seeds", self.n_seeds, Integer(low=1))
        check("n_splits", self.n_splits, Integer(low=2))
        if self.n_bins is not None:
            check("n_bins", self.n_bins, Integer(low=2))

    def seeds(self) -> list[int]:
        """The fold seeds, drawn from ``random_state``."""
        return [int(s) for s in check_random_state(self.random_state).integers(0, 2**31 - 1, self.n_seeds)]

    def key(self) -> str:
        """A short hash of the configuration (with the library's inputs fingerprint, the name of a cached run)."""
        return hashlib.sha256(repr(sorted(asdict(self).items())).encode()).hexdigest()[:16]


def data_kind(types) -> str:
    """``"nominal"`` (every attribute nominal), ``"continuous"`` (none nominal) or ``"mixed"``.

    >>> data_kind({"a": "nominal", "b": "integer"}), data_kind(["continuous"]), data_kind(["nominal"])
    ('mixed', 'continuous', 'nominal')
    """
    kinds = list(types.values()) if isinstance(types, dict) else list(types)
    nominal = sum(k == "nominal" for k in kinds)
    return "nominal" if nominal == len(kinds) else "continuous" if nominal == 0 else "mixed"


def _fold_rows(config: Config, name: str, data: dict, seed: int, f: int, fold) -> list[dict]:
    """Every method of ``config`` on one fold of one data set: accuracy (percent) and processor seconds."""
    X, y, types, Z = data["X"], data["y"], data["types"], data["Z"]
    train, test = fold
    truth = label_values(y.iloc[test])
    table = methods(ks=config.ks, scaling=config.scaling, mc_subsets=config.mc_subsets)
    binned = None
    rows = []
    for mname in config.methods:
        method = table[mname]
        row = {"dataset": name, "kind": data["kind"], "seed": seed, "fold": f, "method": mname}
        row.update(accuracy=np.nan, fit_s=np.nan, predict_s=np.nan, total_s=np.nan, refused="")
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
            row["refused"] = str(err).splitlines()[0]
            rows.append(row)
            continue
        row["accuracy"] = 100 * accuracy
        rows.append(row)
    return rows


def _prepared(name: str) -> dict:
    X, y, types, _ = prepare(name)
    types = dict(types) if types is not None else None
    return {"X": X, "y": y, "types": types, "Z": encode(X, types), "kind": data_kind(types)}


def run(config: Config, *, n_jobs: int = 2, cache_dir=None, label: str = "bench") -> pd.DataFrame:
    """Every method of ``config`` on every fold of every seed of every data set.

    Parameters
    ----------
    config : Config
    n_jobs : int
        Worker processes of :func:`lazylib.evaluation.parallel_map` (one job per data set, seed and fold, the
        largest first); the results do not depend on it.
    cache_dir : path, optional
        Keep the results in this folder under a name made of the configuration and
        :func:`lazylib.report.scorecard.inputs_fingerprint` (lazylib's sources and data and the versions of the
        numerical libraries), and reuse them only while both are unchanged: the chapters of Part VI share one
        run.

    Returns
    -------
    DataFrame with one row per data set, seed, fold and method: ``accuracy`` (percent, NaN when refused),
    ``fit_s``, ``predict_s`` (processor seconds of fitting and predicting; NaN for Part II's per-fold functions,
    which do both), ``total_s``, ``refused`` (the error message, or "") and the data set's ``kind``.
    """
    path = None
    if cache_dir is not None:
        from lazylib.report.scorecard import inputs_fingerprint

        digest = hashlib.sha256((config.key() + inputs_fingerprint()).encode()).hexdigest()[:20]
        path = Path(cache_dir) / f"bench-{digest}.pkl"
        if path.is_file():
            return pd.read_pickle(path)
    data = {name: _prepared(name) for name in config.datasets}
    seeds = config.seeds()
    folds = {
        (name, s): stratified_kfold(data[name]["y"], config.n_splits, random_state=dataset_seed(name, s))
        for name in config.datasets
        for s in seeds
    }
    jobs = [(name, s, f) for name in config.datasets for s in seeds for f in range(config.n_splits)]
    cost = [len(data[name]["y"]) ** 2 for name, _, _ in jobs]
    order = np.argsort(cost, kind="stable")[::-1]

    def one(job):
        name, s, f = job
        return _fold_rows(config, name, data[name], s, f, folds[name, s][f])

    done = parallel_map(one, [jobs[i] for i in order], n_jobs=n_jobs, label=label)
    by_job = dict(zip((jobs[i] for i in order), done))
    rows = [row for job in jobs for row in by_job[job]]
    results = pd.DataFrame(rows)
    _check_refusals(results)
    results.attrs["config"] = asdict(config)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        with open(tmp, "wb") as fh:
            pickle.dump(results, fh)
        tmp.replace(path)
    return results


def _check_refusals(results: pd.DataFrame) -> None:
    """A method refuses a data set on every fold or on none: a refusal on some folds only is a failure."""
    refused = results["refused"].ne("")
    partial = refused.groupby([results["dataset"], results["method"]]).agg(lambda s: 0 < s.sum() < len(s))
    if partial.any():
        bad = partial[partial].index.tolist()
        raise RuntimeError(f"methods failed on some folds only (not a refusal of the data set): {bad}")


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
    folds only with ``by_seed`` (rows: seed, data set). NaN where the method refuses the data set."""
    index = ["seed", "dataset"] if by_seed else ["dataset"]
    table = results.pivot_table(index=index, columns="method", values="accuracy", aggfunc="mean", dropna=False)
    return table.reindex(columns=[m for m in METHOD_NAMES if m in table.columns])


def time_table(results: pd.DataFrame) -> pd.DataFrame:
    """Processor seconds per fold, by method: median fit, predict and total over every fold of every data set
    the method accepts, and the total over the whole run."""
    ok = results[results["refused"].eq("")]
    out = ok.groupby("method").agg(
        fit=("fit_s", "median"), predict=("predict_s", "median"), total=("total_s", "median"), run=("total_s", "sum")
    )
    return out.reindex([m for m in METHOD_NAMES if m in out.index])


def complete_block(table: pd.DataFrame, datasets=None) -> pd.DataFrame:
    """The accuracy table restricted to ``datasets`` (all by default) and to the methods that accept every one
    of them: the complete block that ranks and the Friedman test need."""
    sub = table if datasets is None else table.loc[list(datasets)]
    return sub.loc[:, sub.notna().all(axis=0)]


def average_ranks(table: pd.DataFrame) -> pd.Series:
    """Average rank of each method over the data sets (rows), 1 for the most accurate, ties sharing the mean
    rank (Demsar 2006, section 3.2.2), sorted best first."""
    if table.isna().any().any():
        raise ValueError("ranks need a complete block (see complete_block): the table has missing accuracies")
    return table.rank(axis=1, ascending=False, method="average").mean().sort_values().rename("average rank")


def friedman(table: pd.DataFrame) -> dict:
    """Friedman's test that all methods (columns) rank alike over the data sets (rows), with Iman and
    Davenport's F form that Demsar (2006) recommends.

    Returns
    -------
    dict with ``chi2`` and ``p`` (scipy's :func:`scipy.stats.friedmanchisquare`), ``F`` and ``p_F`` (Iman and
    Davenport), ``N`` data sets and ``k`` methods.
    """
    N, k = table.shape
    if k < 3 or N < 2:
        raise ValueError(f"the Friedman test needs at least 3 methods and 2 data sets, got {k} and {N}")
    chi2, p = stats.friedmanchisquare(*[table[c].to_numpy() for c in table.columns])
    F = (N - 1) * chi2 / (N * (k - 1) - chi2) if N * (k - 1) > chi2 else np.inf
    p_F = float(stats.f.sf(F, k - 1, (k - 1) * (N - 1))) if np.isfinite(F) else 0.0
    return {"chi2": float(chi2), "p": float(p), "F": float(F), "p_F": p_F, "N": N, "k": k}


def nemenyi(table: pd.DataFrame) -> pd.DataFrame:
    """Nemenyi's post-hoc p-values for every pair of methods (columns) over the data sets (rows), from
    :func:`scikit_posthocs.posthoc_nemenyi_friedman`."""
    import scikit_posthocs as sp

    return sp.posthoc_nemenyi_friedman(table.to_numpy()).set_axis(table.columns, axis=0).set_axis(table.columns, axis=1)


def critical_difference(k: int, N: int, alpha: float = 0.05) -> float:
    """Nemenyi's critical difference of average ranks, :math:`q_\\alpha \\sqrt{k(k+1)/(6N)}` with
    :math:`q_\\alpha` the studentized range quantile divided by :math:`\\sqrt 2` (Demsar 2006, Eq. 5).

    >>> round(critical_difference(10, 30), 3)  # Demsar's Table 5a: q_0.05 = 3.164 for k = 10
    2.473
    """
    q = stats.studentized_range.ppf(1 - alpha, k, np.inf) / np.sqrt(2)
    return float(q * np.sqrt(k * (k + 1) / (6 * N)))


def cd_diagram(table: pd.DataFrame, *, ax=None, alpha: float = 0.05):
    """The critical difference diagram of the methods (columns) over the data sets (rows): average ranks on an
    axis, methods joined by a bar when Nemenyi's test does not tell them apart
    (:func:`scikit_posthocs.critical_difference_diagram`)."""
    import matplotlib.pyplot as plt
    import scikit_posthocs as sp

    if ax is None:
        _, ax = plt.subplots(figsize=(9, 0.25 * table.shape[1] + 1.5))
    ranks = table.rank(axis=1, ascending=False, method="average").mean()
    sp.critical_difference_diagram(
        ranks,
        nemenyi(table),
        ax=ax,
        alpha=alpha,
        label_fmt_left="{label} ({rank:.1f})",
        label_fmt_right="({rank:.1f}) {label}",
    )
    return ax


def bayes_signed_rank(a, b, *, rope: float = 1.0, random_state=0, nsamples: int = 50000) -> dict:
    """Bayesian signed-rank test of two methods' accuracies over data sets (Benavoli et al. 2017), with a region
    of practical equivalence of ``rope`` accuracy points, from :class:`baycomp.SignedRankTest`.

    Parameters
    ----------
    a, b : array-like of float
        The two methods' accuracies, one per data set.
    rope : float
        The half-width of the region of practical equivalence, in the accuracies' units.
    random_state : int, Generator or None
        Seed or generator of the posterior's samples (one integer drawn from it seeds baycomp's sampler): an int
        seeds a fresh generator (the same draws at every call), a Generator is used as it is (its stream
        continues), None draws fresh entropy.
    nsamples : int
        Samples of the posterior.

    Returns
    -------
    dict with ``p_a`` (the posterior probability that ``a`` is practically better), ``p_rope`` (practically
    equivalent) and ``p_b`` (``b`` practically better).
    """
    import baycomp

    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.shape != b.shape or a.ndim != 1 or len(a) < 2 or np.isnan(a).any() or np.isnan(b).any():
        raise ValueError("bayes_signed_rank needs two equal-length vectors of at least two finite accuracies")
    seed = int(check_random_state(random_state).integers(2**31 - 1))
    p_a, p_rope, p_b = baycomp.SignedRankTest.probs(a, b, rope=rope, nsamples=nsamples, random_state=seed)
    return {"p_a": float(p_a), "p_rope": float(p_rope), "p_b": float(p_b)}


#: The region of practical equivalence, in accuracy points: two accuracies closer than this are "about the same".
ROPE = 1.0


def ranking(table: pd.DataFrame, datasets=None, *, alpha: float = 0.05) -> dict:
    """Average ranks, Friedman's test and Nemenyi's comparison over the complete block of ``datasets``.

    Returns
    -------
    dict with ``block`` (the accuracy table ranked), ``ranks`` (best first), ``friedman`` (:func:`friedman`),
    ``nemenyi`` (p-values), ``cd`` (the critical difference), ``best``, ``group`` (the methods Nemenyi's test
    does not tell from the best at ``alpha``, the best included) and ``excluded`` (methods left out because
    they refuse one of the data sets).
    """
    block = complete_block(table, datasets)
    ranks = average_ranks(block)
    p = nemenyi(block)
    best = ranks.index[0]
    return {
        "block": block,
        "ranks": ranks,
        "friedman": friedman(block),
        "nemenyi": p,
        "cd": critical_difference(block.shape[1], block.shape[0], alpha),
        "best": best,
        "group": [m for m in ranks.index if p.loc[best, m] > alpha],
        "excluded": [m for m in table.columns if m not in block.columns],
    }


def by_kind(table: pd.DataFrame, kinds: pd.Series, *, alpha: float = 0.05) -> pd.DataFrame:
    """The ranking of every data set together and of each kind of data set apart (:func:`ranking`): one row
    each, with the best method, its average rank, the runner-up, Friedman's p-value and the methods Nemenyi's
    test does not tell from the best."""
    rows = {}
    groups = {"all": list(table.index), **{k: [d for d in table.index if kinds[d] == k] for k in KINDS}}
    for kind, names in groups.items():
        if len(names) < 2:
            continue
        r = ranking(table, names, alpha=alpha)
        rows[kind] = {
            "data sets": len(names),
            "methods": r["block"].shape[1],
            "best": r["best"],
            "rank": r["ranks"].iloc[0],
            "runner-up": r["ranks"].index[1],
            "its rank": r["ranks"].iloc[1],
            "Friedman p": r["friedman"]["p"],
            "not significantly below the best": len(r["group"]),
        }
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("data sets of kind")


def leading_pairs(block: pd.DataFrame, *, top: int = 5, rope: float = ROPE, random_state=0) -> pd.DataFrame:
    """The best-ranked method of ``block`` against each of the next ``top - 1``: mean difference and the
    Bayesian signed-rank posterior (:func:`bayes_signed_rank`), read as "better", "practically equivalent" or
    "undecided" at 0.95.

    Parameters
    ----------
    block : DataFrame
        Accuracies, data sets x methods (a complete block).
    top : int
        How many of the best-ranked methods take part.
    rope : float
        As for :func:`bayes_signed_rank`.
    random_state : int, Generator or None
        Seed or generator of every pair's posterior samples (an int seeds a fresh generator (the same draws at
        every call), a Generator is used as it is (its stream continues), None draws fresh entropy); the same
        int gives every pair the same seed.
    """
    ranks = average_ranks(block)
    best = ranks.index[0]
    rows = []
    for other in ranks.index[1:top]:
        p = bayes_signed_rank(block[best], block[other], rope=rope, random_state=random_state)
        reading = (
            f"{best} practically better"
            if p["p_a"] >= 0.95
            else "practically equivalent"
            if p["p_rope"] >= 0.95
            else f"{other} practically better"
            if p["p_b"] >= 0.95
            else "undecided"
        )
        rows.append(
            {
                "pair": f"{best} vs {other}",
                "mean difference": float((block[best] - block[other]).mean()),
                f"P({best} better)": p["p_a"],
                "P(equivalent)": p["p_rope"],
                "P(other better)": p["p_b"],
                "reading": reading,
            }
        )
    return pd.DataFrame(rows).set_index("pair")


def value_for_time(results: pd.DataFrame, ranked: dict, *, alpha: float = 0.05) -> pd.DataFrame:
    """Accuracy rank against processor time on the data sets of one ranking (:func:`ranking`): each method's
    average rank, its median processor seconds per fold (fit and predict), whether no other method is both
    faster and better ranked (``pareto``), and whether Nemenyi's test tells it from the best (``below best``).
    The best value is the fastest method not significantly below the best."""
    names = list(ranked["block"].index)
    ok = results[results["dataset"].isin(names) & results["refused"].eq("")]
    seconds = ok.groupby("method")["total_s"].median()
    out = pd.DataFrame({"average rank": ranked["ranks"], "seconds per fold": seconds.reindex(ranked["ranks"].index)})
    out["below best"] = [ranked["nemenyi"].loc[ranked["best"], m] <= alpha for m in out.index]
    faster = out["seconds per fold"].to_numpy()[:, None] > out["seconds per fold"].to_numpy()[None, :]
    better = out["average rank"].to_numpy()[:, None] > out["average rank"].to_numpy()[None, :]
    out["pareto"] = ~(faster & better).any(axis=1)
    return out


def best_value(value: pd.DataFrame) -> str:
    """The fastest method that Nemenyi's test does not tell from the best (:func:`value_for_time`)."""
    return str(value[~value["below best"]]["seconds per fold"].idxmin())


def _beats(t, a, *others):
    return np.logical_and.reduce([t[a] > t[o] for o in others])


def _alike(t, a, b, rope=ROPE):
    return (t[a] - t[b]).abs() <= rope


@dataclass(frozen=True)
class Claim:
    """One paper's headline claim as a test on one seed's accuracy table (data sets x methods): ``test`` gives
    one boolean per data set of ``kinds`` (those where every method of ``methods`` ran)."""

    part: str
    claim: str
    kinds: tuple
    methods: tuple
    test: object = field(repr=False)


#: Each paper's headline claims. "Beats" is a higher accuracy on the data set; "about the same" is within
#: :data:`ROPE`.
CLAIMS = (
    Claim(
        "I",
        "H1: VDM and MVDM perform alike (1-NN)",
        KINDS,
        ("1-NN VDM", "1-NN MVDM"),
        lambda t: _alike(t, "1-NN VDM", "1-NN MVDM"),
    ),
    Claim(
        "I",
        "H2: OMVW performs about as well as WOM (1-NN)",
        KINDS,
        ("1-NN OMVW", "1-NN WOM"),
        lambda t: _alike(t, "1-NN OMVW", "1-NN WOM"),
    ),
    Claim(
        "I",
        "H2: OMVW and WOM both beat OM (1-NN)",
        KINDS,
        ("1-NN OMVW", "1-NN WOM", "1-NN OM"),
        lambda t: _beats(t, "1-NN OMVW", "1-NN OM") & _beats(t, "1-NN WOM", "1-NN OM"),
    ),
    Claim(
        "II",
        "CA and CACP both raise NN's accuracy",
        ("continuous",),
        ("CA", "CACP", "NN"),
        lambda t: _beats(t, "CA", "NN") & _beats(t, "CACP", "NN"),
    ),
    Claim(
        "III",
        "VFI5 about as accurate as k-NN (HEOM, k by leave-one-out)",
        KINDS,
        ("VFI5", "k-NN HEOM"),
        lambda t: _alike(t, "VFI5", "k-NN HEOM"),
    ),
    Claim(
        "IV",
        "HVDM beats Euclidean and HEOM on data with nominal attributes (1-NN)",
        ("nominal", "mixed"),
        ("1-NN HVDM", "1-NN Euclidean", "1-NN HEOM"),
        lambda t: _beats(t, "1-NN HVDM", "1-NN Euclidean", "1-NN HEOM"),
    ),
    Claim(
        "IV",
        "IVDM beats DVDM on data with continuous attributes (1-NN)",
        ("continuous", "mixed"),
        ("1-NN IVDM", "1-NN DVDM"),
        lambda t: _beats(t, "1-NN IVDM", "1-NN DVDM"),
    ),
    Claim(
        "V",
        "MDW performs as well as IG (not below it by more than the ROPE)",
        KINDS,
        ("MDW", "IG"),
        lambda t: t["MDW"] >= t["IG"] - ROPE,
    ),
    Claim("V", "MDW outperforms unweighted k-NN (FD)", KINDS, ("MDW", "FD"), lambda t: _beats(t, "MDW", "FD")),
)


def claim_evidence(results: pd.DataFrame) -> dict:
    """For every claim of :data:`CLAIMS` whose methods the run includes and every fold seed, one boolean per
    data set it is judged on: ``{claim: {seed: Series indexed by data set}}``."""
    by_seed = accuracy_table(results, by_seed=True)
    kinds = kinds_of(results)
    out = {}
    for c in CLAIMS:
        if not set(c.methods) <= set(by_seed.columns):
            continue
        per_seed = {}
        for seed, table in by_seed.groupby(level="seed"):
            t = table.droplevel("seed")
            t = t.loc[[d for d in t.index if kinds[d] in c.kinds and t.loc[d, list(c.methods)].notna().all()]]
            per_seed[int(seed)] = pd.Series(np.asarray(c.test(t), dtype=bool), index=t.index)
        out[c] = per_seed
    return out


#: The shares of data sets on which a paper's claim must hold to be supported and partly supported on the
#: bench, fixed before any run: three in four, and a majority.
CLAIM_SHARES = {"supported": 0.75, "partly": 0.5}


def conditions(results: pd.DataFrame) -> dict:
    """The accuracy tables a finding is judged on: ``{"seed": "all"}`` (every fold of every seed, the primary
    condition) and one per fold seed alone, as ``{label: table}`` pairs for
    :func:`lazylib.report.verdicts.judge` (labels are tuples of the one factor ``seed``)."""
    out = {("all",): accuracy_table(results)}
    for seed, t in accuracy_table(results, by_seed=True).groupby(level="seed"):
        out[(int(seed),)] = t.droplevel("seed")
    return out


def judge_claims(results: pd.DataFrame) -> pd.DataFrame:
    """Every claim of :data:`CLAIMS` judged on the bench by :func:`lazylib.report.verdicts.share_rule` (the
    share of its data sets on which it holds, :data:`CLAIM_SHARES`), on every fold seed pooled (the verdict) and
    on each alone (its stability).

    Returns
    -------
    DataFrame indexed by (part, claim): ``data sets``, ``holds on`` (pooled), ``verdict``, ``stability``,
    ``judgement`` (the :class:`~lazylib.report.verdicts.Judgement`).
    """
    from lazylib.report.verdicts import judge, share_rule

    kinds = kinds_of(results)
    tables = conditions(results)
    rows = {}
    for c in CLAIMS:
        if not set(c.methods) <= set(tables["all",].columns):
            continue

        def agree(t, c=c):
            t = t.loc[[d for d in t.index if kinds[d] in c.kinds and t.loc[d, list(c.methods)].notna().all()]]
            return pd.Series(np.asarray(c.test(t), dtype=bool), index=t.index)

        judgement = judge(
            lambda t, agree=agree: share_rule(agree(t), **CLAIM_SHARES, what="data sets"),
            {key: t for key, t in tables.items()},
            primary=("all",),
            factors=("seed",),
        )
        pooled = agree(tables["all",])
        rows[c.part, c.claim] = {
            "data sets": len(pooled),
            "holds on": int(pooled.sum()),
            "verdict": judgement.verdict,
            "stability": judgement.stability,
            "judgement": judgement,
        }
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis(["Part", "claim"])


def judge_best(results: pd.DataFrame, method: str, datasets=None, *, alpha: float = 0.05):
    """The finding "``method`` ranks best on ``datasets``" judged on every fold seed pooled and on each alone:
    supported where it has the best average rank, partly supported where Nemenyi's test does not tell it from
    the best (:func:`lazylib.report.verdicts.tiers`)."""
    from lazylib.report.verdicts import judge, tiers

    def rule(t):
        r = ranking(t, datasets, alpha=alpha)
        return tiers(
            supported=bool(r["best"] == method),
            partly=bool(method in r["group"]),
            note=f"best: {r['best']}; {method} ranks {r['ranks'][method]:.2f}",
        )

    return judge(rule, conditions(results), primary=("all",), factors=("seed",))


def judge_best_value(results: pd.DataFrame, method: str, *, alpha: float = 0.05):
    """The finding "``method`` is the best value for its time" (:func:`best_value` over every data set the
    whole block accepts) judged on every fold seed pooled and on each alone: supported where it is the fastest
    method not significantly below the best, partly supported where it is at least not significantly below the
    best."""
    from lazylib.report.verdicts import judge, tiers

    def rule(t):
        r = ranking(t, alpha=alpha)
        value = value_for_time(results, r, alpha=alpha)
        return tiers(supported=best_value(value) == method, partly=bool(method in r["group"]))

    return judge(rule, conditions(results), primary=("all",), factors=("seed",))


def judge_equivalent(results: pd.DataFrame, a: str, b: str, datasets=None, *, rope: float = ROPE, random_state=0):
    """The finding "``a`` and ``b`` are practically equivalent" judged by the Bayesian signed-rank posterior
    probability of the ROPE (:func:`bayes_signed_rank`): supported from 0.95, partly supported from 0.5
    (:func:`lazylib.report.verdicts.threshold_rule`), on every fold seed pooled and on each alone.

    Parameters
    ----------
    results : DataFrame
        A run's rows (:func:`run`).
    a, b : str
        The two methods.
    datasets : list of str, optional
        The data sets judged (default: all of the run's).
    rope : float
        As for :func:`bayes_signed_rank`.
    random_state : int, Generator or None
        Seed or generator of the posterior samples under each condition: an int seeds a fresh generator (the same
        draws at every call), a Generator is used as it is (its stream continues), None draws fresh entropy.
    """
    from lazylib.report.verdicts import judge, threshold_rule

    def rule(t):
        t = t if datasets is None else t.loc[list(datasets)]
        p = bayes_signed_rank(t[a], t[b], rope=rope, random_state=random_state)
        return threshold_rule(p["p_rope"], supported=0.95, partly=0.5, what="P(equivalent)")

    return judge(rule, conditions(results), primary=("all",), factors=("seed",))


def default_cache_dir() -> Path | None:
    """Where the book's chapters share one run: ``_build/.bench`` at the root of the book (None outside one)."""
    from lazylib.report.scorecard import book_root

    root = book_root()
    return None if root is None else root / "_build" / ".bench"


def method_table() -> pd.DataFrame:
    """Every method of the bench with its paper, family and the code that builds it."""
    rows = []
    for name, m in methods().items():
        if m.runner == "protocol":
            how = {
                "NN": "payne2000.cv_nn",
                "CA": "payne2000.cv_sweep (nested K)",
                "CACP": "payne2000.cv_sweep (nested K)",
                "MC": "payne2000.cv_selection('mc')",
                "FNN": "payne2000.cv_selection('fnn')",
            }[name]
        else:
            est = m.make()
            how = type(est).__name__
            if isinstance(est, (KNeighborsClassifier, LooKNeighbors)):
                metric = est.metric if isinstance(est.metric, Metric) else _make_distance(est.metric)
                label = type(metric).__name__
                how += f" ({label})"
        rows.append(
            {
                "method": name,
                "paper": m.paper,
                "family": m.family,
                "built by": how,
                "continuous attributes": "in 8 bins" if m.symbolic else "as numbers",
            }
        )
    return pd.DataFrame(rows).set_index("method")


def kinds_of(results: pd.DataFrame) -> pd.Series:
    """The kind (:func:`data_kind`) of every data set of a run."""
    return results.drop_duplicates("dataset").set_index("dataset")["kind"]


def main(argv=None) -> None:
    """The command line: run the bench (``--full``: every data set) and write every fold's row to a CSV file.

    Parameters
    ----------
    argv : list of str, optional
        The arguments (default: the command line's).
    """
    parser = argparse.ArgumentParser(prog="python -m lazylib.protocols.bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--full", action="store_true", help="every data set of the catalogue (default: the book's)")
    parser.add_argument("--seeds", type=int, default=None, help="fold seeds (default: FULL or BOOK's)")
    parser.add_argument("--datasets", nargs="*", default=None, help="data set names (overrides --full)")
    parser.add_argument("--n-jobs", type=int, default=2)
    parser.add_argument("--output", default="bench_results.csv", help="CSV of every fold's row")
    args = parser.parse_args(argv)
    base = FULL if args.full else BOOK
    names = tuple(args.datasets) if args.datasets else base.datasets
    config = Config(datasets=names, n_seeds=args.seeds or base.n_seeds)
    start, cpu = time.perf_counter(), time.process_time()
    results = run(config, n_jobs=args.n_jobs, label="bench")
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    results.to_csv(args.output, index=False)
    print(
        f"{len(names)} data sets x {config.n_seeds} seeds x {config.n_splits} folds x {len(config.methods)} "
        f"methods in {wall:.0f} s wall ({results['total_s'].sum():.0f} s of processor time in fit and predict; "
        f"this process: {cpu:.0f} s, the whole run's with --n-jobs 1); rows in {args.output}"
    )
    ranks = average_ranks(complete_block(accuracy_table(results)))
    print(ranks.round(2).to_string())


#: Every data set of the catalogue, five fold seeds: the full run of the command line.
FULL = Config(datasets=tuple(_datasets.list_datasets()), n_seeds=5)
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

if __name__ == "__main__":
    main()
