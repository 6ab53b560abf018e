"""The public extension point of :mod:`lazylib.metrics`: everything a metric defined outside the package builds
on, and the contract it follows (``CONTRIBUTING.md``, "Adding a metric").

A distance here is ``D(x, y) = (sum_a u_a(x) v_a(y) t_a(x_a, y_a)) ** (1 / root_)``. A new attribute-wise metric
subclasses :class:`AttributeMetric` and, in its ``_fit``, sets ``self.attributes_`` to one fitted term per
column: one of the terms here (overlap, squared differences of values or of probability vectors, a power of a
difference, a set-valued term) or a new subclass of :class:`AttributeTerm`. A *bilinear* term
``alpha(x) + beta(y) + psi(x) . chi(y)`` gives its two sides as :class:`Half` objects and is computed by one
matrix product for all pairs; any other term gives its matrix by ``direct``. What the engine and the search
ask of a term and of a metric is declared once, in :class:`TermContract` and :class:`MetricContract` (``fit``
reads them into one record, ``lazylib.metrics._declaration.Declaration``, which is all the engine reads); the
bases implement every member with a default. :func:`register_metric` gives the class a name for
:func:`lazylib.metrics.make_metric` and the estimators' ``metric=``. :mod:`lazylib.weighting.mdw` defines mean
difference weighting this way. A metric's parameters are declared in its ``_parameter_constraints`` with the
constraint types of ``lazylib._validation`` (``Real``, ``Integer``, ``Choice``, ``Boolean``), checked by ``fit``;
its properties are class tags (``symmetric``, ``unknown_is_one``, ``zero_on_self``, ``accepts``) that the
package's property tests read. ``fit`` checks the terms against the contract
(:func:`lazylib.metrics._contract.check_terms`).

A worked example: the squared difference of a linear attribute as a new bilinear term
(``(x - y)^2 = x^2 + y^2 - 2 x y``, an unknown value at distance 1), overlap for nominal attributes, and the
square root of the sum.

>>> import numpy as np
>>> from lazylib.metrics.extend import AttributeMetric, AttributeTerm, Half, OverlapAttribute, register_metric
>>> class SquaredTerm(AttributeTerm):
...     bilinear = True  # declared: x^2 + y^2 + (-2 x) . y (fit refuses a term that does not say)
...     separable = True  # each side is computed alone (the training data's side once per fit)
...
...     def half(self, x, side):
...         unknown = np.isnan(x)
...         v = np.where(unknown, 0.0, x)
...         emb = -2.0 * v if side == "query" else v
...         return Half(v**2, emb[:, None], unknown, squared=True)
>>> class Mixed(AttributeMetric):
...     _fixed_root = 2.0
...
...     def _fit(self, Z, y):
...         self.attributes_ = [OverlapAttribute("one") if k == "nominal" else SquaredTerm() for k in self.kinds_]
>>> X = np.array([[0.0, 1.0], [1.0, 0.0], [3.0, 1.0]])
>>> y = ["a", "a", "b"]
>>> metric = Mixed().fit(X, y, types=["continuous", "nominal"])
>>> metric.pairwise(X[:1]).round(3).tolist()
[[0.0, 1.414, 3.0]]
>>> from lazylib.neighbors import KNeighborsClassifier
>>> knn = KNeighborsClassifier(n_neighbors=1, metric=Mixed()).fit(X, y, types=["continuous", "nominal"])
>>> knn.predict(np.array([[2.5, 1.0]])).tolist()
['b']
>>> _ = register_metric("mixed", Mixed)
>>> KNeighborsClassifier(n_neighbors=1, metric="mixed").fit(X, y, types=["continuous", "nominal"]).score(X, y)
1.0
>>> from lazylib.metrics import REGISTRY
>>> del REGISTRY["mixed"]  # leave the registry as the package defines it
"""

from __future__ import annotations

from lazylib.metrics import WORKING_MEMORY, register_metric
from lazylib.metrics._attributes import (
    AttributeTerm,
    CurveAttribute,
    Half,
    LinearAttribute,
    OverlapAttribute,
    PowerAttribute,
    ProbabilityAttribute,
    SetAttribute,
)
from lazylib.metrics._base import AttributeMetric, Metric
from lazylib.metrics._contract import ENGINE_HOOKS, MetricContract, TermContract
from lazylib.metrics._inputs import check_weights
from lazylib.metrics._probabilities import ValueTable
from lazylib.metrics._sets import centre, min_member_distances

__all__ = [
    "ENGINE_HOOKS",
    "AttributeMetric",
    "AttributeTerm",
    "CurveAttribute",
    "Half",
    "LinearAttribute",
    "Metric",
    "MetricContract",
    "OverlapAttribute",
    "PowerAttribute",
    "ProbabilityAttribute",
    "SetAttribute",
    "TermContract",
    "ValueTable",
    "WORKING_MEMORY",
    "centre",
    "check_weights",
    "min_member_distances",
    "register_metric",
]
