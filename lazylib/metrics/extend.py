"""The public extension point of :mod:`lazylib.metrics`: what a metric defined outside this package builds on.

A new attribute-wise metric subclasses :class:`lazylib.metrics.AttributeMetric` and, in its ``_fit``, sets
``self.attributes_`` to one fitted term per column, built from the term classes here (an overlap, a power of a
scaled difference, a set-valued term; the other terms of the package follow the same protocol); the engine turns
them into its bilinear product, chunks and searches (``lazylib/metrics/README.md``).
:mod:`lazylib.weighting.mdw` defines mean difference weighting this way. The classes live in private modules of
the package; import them from here, which is what stays stable.

>>> from lazylib.metrics.extend import AttributeMetric, OverlapAttribute
>>> issubclass(AttributeMetric, object) and callable(OverlapAttribute)
True
"""

from __future__ import annotations

from lazylib.metrics._attributes import Half, OverlapAttribute, PowerAttribute, SetAttribute
from lazylib.metrics._base import AttributeMetric
from lazylib.metrics._inputs import check_weights
from lazylib.metrics._sets import centre, min_member_distances

__all__ = [
    "AttributeMetric",
    "Half",
    "OverlapAttribute",
    "PowerAttribute",
    "SetAttribute",
    "centre",
    "check_weights",
    "min_member_distances",
]
