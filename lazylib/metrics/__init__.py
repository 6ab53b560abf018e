"""Every distance function of the five papers, as fitted objects with ``fit(X, y)`` and ``pairwise(A, B)``.

>>> from lazylib.metrics import make_metric
>>> from lazylib import datasets
>>> iris = datasets.load("iris")
>>> m = make_metric("ivdm").fit(iris.X, iris.y)
>>> m.pairwise(iris.X.iloc[:2], iris.X.iloc[:3]).shape
(2, 3)

Rows of ``pairwise`` are queries and columns stored instances; this matters for the asymmetric VDM. Inputs
are DataFrames as :func:`lazylib.datasets.load` gives them (Categorical = nominal, float = linear, NaN =
missing), or arrays with ``types=[...]``. Object columns of ``(members, d)`` arrays are set-valued attributes,
which only the metrics that declare them accept (:class:`lazylib.weighting.FeatureDifference` and
:class:`lazylib.weighting.MDW`). ``weights=`` (one vector, or one per class of the stored instance)
applies to every attribute-wise metric.
"""

from __future__ import annotations

import inspect

from sklearn.exceptions import NotFittedError

from lazylib._validation import suggest
from lazylib.encoding import Encoded, encode
from lazylib.metrics import _base
from lazylib.metrics._base import AttributeMetric, Metric
from lazylib.metrics._probabilities import (
    Discretizer,
    minimum_value_weight,
    value_weight,
    vdm_delta,
)
from lazylib.metrics._storage import fitted_bytes
from lazylib.metrics.heterogeneous import HEOM, HVDM
from lazylib.metrics.interpolated import DVDM, IVDM, WVDM
from lazylib.metrics.minkowski import Euclidean, Manhattan, Minkowski
from lazylib.metrics.overlap import Overlap, WeightedOverlap
from lazylib.metrics.statistical import Camberra, Chebychev, ChiSquare, Correlation, Kendall, Mahalanobis, Quadratic
from lazylib.metrics.vdm import MVDM, OMVW, VDM, value_weights

#: Metric names (the papers' own) -> classes.
REGISTRY: dict[str, type[Metric]] = {
    "overlap": Overlap,
    "wom": WeightedOverlap,
    "omvw": OMVW,
    "mvdm": MVDM,
    "vdm": VDM,
    "minkowski": Minkowski,
    "euclidean": Euclidean,
    "manhattan": Manhattan,
    "heom": HEOM,
    "hoem": HEOM,
    "hvdm": HVDM,
    "dvdm": DVDM,
    "ivdm": IVDM,
    "wvdm": WVDM,
    "chebychev": Chebychev,
    "camberra": Camberra,
    "mahalanobis": Mahalanobis,
    "quadratic": Quadratic,
    "correlation": Correlation,
    "chisquare": ChiSquare,
    "kendall": Kendall,
}


def available() -> list[str]:
    """Names accepted by :func:`make_metric`, sorted."""
    return sorted(REGISTRY)


def register_metric(name: str, cls: type[Metric]) -> type[Metric]:
    """Make ``name`` a name of the metric class ``cls`` for :func:`make_metric` and every estimator's
    ``metric=`` (a metric defined outside the package: ``lazylib.metrics.extend``).

    Parameters
    ----------
    name : str
        The name, case-insensitive (stored in lower case).
    cls : type
        A subclass of :class:`Metric`.

    Returns
    -------
    type
        ``cls``, so the function also works as a class decorator's body.

    Raises
    ------
    ValueError
        For a name that is not a non-empty string, a class that is not a :class:`Metric`, or a name already
        given to another class.

    Notes
    -----
    The registry is the module-level dict :data:`REGISTRY`; registering the same class twice under one name is
    allowed, so a module that registers its metric can be re-imported.

    References
    ----------
    Not from the papers: the library's extension point (``CONTRIBUTING.md``, "Adding a metric").

    Examples
    --------
    >>> from lazylib.metrics import REGISTRY, Overlap, make_metric, register_metric
    >>> class Hamming(Overlap):
    ...     pass
    >>> register_metric("hamming", Hamming) is Hamming and type(make_metric("Hamming")).__name__
    'Hamming'
    >>> del REGISTRY["hamming"]
    """
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"a metric name must be a non-empty string, got {name!r}")
    if not (isinstance(cls, type) and issubclass(cls, Metric)):
        raise ValueError(f"register_metric takes a subclass of lazylib.metrics.Metric, got {cls!r}")
    key = name.lower()
    if REGISTRY.get(key, cls) is not cls:
        raise ValueError(f"metric name {name!r} is already taken by {REGISTRY[key].__name__}")
    REGISTRY[key] = cls
    return cls


def make_metric(name: str, **params) -> Metric:
    """An unfitted metric by name, e.g. ``make_metric("hvdm", normalization="N2")``.

    Raises
    ------
    ValueError
        For an unknown name (listing the available ones) or a parameter the metric does not take.
    """
    try:
        cls = REGISTRY[name.lower()]
    except (KeyError, AttributeError):
        raise ValueError(
            f"unknown metric {name!r}{suggest(name, available())} (available: {', '.join(available())})"
        ) from None
    takes = [p for p in inspect.signature(cls.__init__).parameters if p != "self"]
    foreign = [p for p in params if p not in takes]
    if foreign:
        hints = "".join(suggest(p, takes) for p in foreign)
        raise ValueError(f"metric {name!r} does not take parameters {foreign}{hints} (it takes {takes})")
    return cls(**params)


#: Default bound on the temporary memory of one chunk of a distance computation, in MiB: the default of every
#: ``working_memory`` parameter (the same value as the engine's, documented here where it is public).
WORKING_MEMORY = _base.WORKING_MEMORY

__all__ = [
    "AttributeMetric",
    "Camberra",
    "Chebychev",
    "ChiSquare",
    "Correlation",
    "DVDM",
    "Discretizer",
    "Euclidean",
    "Encoded",
    "HEOM",
    "HVDM",
    "IVDM",
    "Kendall",
    "MVDM",
    "Mahalanobis",
    "Manhattan",
    "Metric",
    "Minkowski",
    "NotFittedError",
    "OMVW",
    "Overlap",
    "Quadratic",
    "REGISTRY",
    "VDM",
    "WVDM",
    "WeightedOverlap",
    "available",
    "WORKING_MEMORY",
    "encode",
    "fitted_bytes",
    "make_metric",
    "register_metric",
    "minimum_value_weight",
    "value_weight",
    "value_weights",
    "vdm_delta",
]
