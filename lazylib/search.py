"""Selection of the nearest stored instances and their ties, public: what every vote among neighbours uses.

A search yields, per query, the stored instances whose sum ``S`` (the distance before its root) is within the
tie tolerance of the query's k-th smallest, as ``(rows, cols, sums)`` sorted by row, then sum, then column
(:meth:`lazylib.metrics.Metric.nearest_chunks`). These helpers select such pairs from a matrix
(:func:`select`), narrow candidate pairs down to them (:func:`within`), locate each row's k-th smallest
(:func:`kth_position`, :func:`row_starts`), and count groups of identical stored instances once
(:class:`Groups`). The relative tie rule is :func:`tolerance`. The implementation, with the exact
single-precision filter, lives in :mod:`lazylib.metrics._search`; import from here.

>>> import numpy as np
>>> S = np.array([[3.0, 1.0, 1.0, 2.0]])
>>> rows, cols, sums = select(S, k=1, tie_tolerance=1e-9)
>>> cols.tolist(), sums.tolist()
([1, 2], [1.0, 1.0])
"""

from __future__ import annotations

from lazylib.metrics._search import Groups, kth_position, kth_smallest, row_starts, select, tolerance, within

__all__ = ["Groups", "kth_position", "kth_smallest", "row_starts", "select", "tolerance", "within"]
