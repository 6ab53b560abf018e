"""Part VI's methods: every classifier of the five papers as the bench builds it (:func:`methods`, each by the code
its Part uses, with :class:`LooKNeighbors` for the k-NN whose k is chosen by leave-one-out), the table that
describes them (:func:`method_table`), and the kinds of data set the bench reports by (:data:`KINDS`,
:func:`data_kind`). The bench that runs them is :mod:`lazylib.protocols.bench.protocol`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin

from lazylib import papers
from lazylib._docs import fill_doc
from lazylib._validation import Choice, check
from lazylib.metrics import Metric, make_metric
from lazylib.neighbors import KNeighborsClassifier, loo_accuracy_fitted
from lazylib.protocols.payne2000 import protocol as payne2000
from lazylib.protocols.shared import K_RANGE
from lazylib.trees import C45Classifier
from lazylib.vfi import VFI5Classifier
from lazylib.weighting import MDW, FeatureDifference, IGWeighted, LearnedWOM

#: The distances of Parts I and IV, as the Parts build them, and the baseline: the Euclidean distance normalised by
#: standard deviation, its nominal attributes read one-hot (order-free, as a scikit-learn user's ``OneHotEncoder``
#: would give them; Part IV's own chapters keep Wilson & Martinez' reading of their category codes, whose
#: distances depend on the order of the categories: :data:`lazylib.metrics.minkowski.NOMINAL_READINGS`).
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
    "Euclidean": ("euclidean", {"normalize": "std", "nominal": "one-hot"}),
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


@fill_doc
class LooKNeighbors(ClassifierMixin, BaseEstimator):
    """A k-NN whose k is the smallest of the best by leave-one-out on the training data: Howe & Cardie's
    protocol (:func:`lazylib.protocols.howe_cardie.protocol.fit_predict`) as a fit/predict estimator, so that fitting
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
        {{labels}}
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
        # the metric is fitted once (WOM learns its weights once): the leave-one-out search and the classifier
        # share it, n_neighbors set to the chosen k afterwards (nothing fitted depends on it)
        knn = KNeighborsClassifier(1, _make_distance(self.metric)).fit(X, y, types=types)
        self.loo_ = loo_accuracy_fitted(knn, sorted(set(ks)))
        self.k_ = int(self.loo_.idxmax())
        self.knn_ = knn.set_params(n_neighbors=self.k_)
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
        (:func:`lazylib.protocols.payne2000.protocol.scale_fold`); the bench takes "range", the normalisation of HEOM,
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
        metric = partial(cls, missing="value")  # unknown values read as Part V reads them (one more value)
        out[name] = Method(name, PAPERS[name], "weighting", "estimator", lambda m=metric: LooKNeighbors(m, ks))

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


def data_kind(types) -> str:
    """``"nominal"`` (every attribute nominal), ``"continuous"`` (none nominal) or ``"mixed"``.

    >>> data_kind({"a": "nominal", "b": "integer"}), data_kind(["continuous"]), data_kind(["nominal"])
    ('mixed', 'continuous', 'nominal')
    """
    kinds = list(types.values()) if isinstance(types, dict) else list(types)
    nominal = sum(k == "nominal" for k in kinds)
    return "nominal" if nominal == len(kinds) else "continuous" if nominal == 0 else "mixed"


def kinds_of(results: pd.DataFrame) -> pd.Series:
    """The kind (:func:`data_kind`) of every data set of a run."""
    return results.drop_duplicates("dataset").set_index("dataset")["kind"]
