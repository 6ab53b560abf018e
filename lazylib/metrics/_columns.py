"""Per-column statistics of the known (non-missing) training values.

A column with no known value in the training data is allowed: every metric then applies its rule for unknown
values to it (distance 1 under HEOM, HVDM and the Minkowski family, "another value" under the VDM family), so its
statistics are set to 0 here (origin 0, scale 0: the column's known query values all embed to 0) instead of NaN
with a numpy warning.
"""

from __future__ import annotations

import numpy as np


def _known(Z: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    known = ~np.isnan(Z)
    return known, known.sum(axis=0)


def known_range(Z: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(lo, hi)`` per column over known values; 0 and 0 for a column with none."""
    known, count = _known(Z)
    lo = np.where(count > 0, np.min(np.where(known, Z, np.inf), axis=0), 0.0)
    hi = np.where(count > 0, np.max(np.where(known, Z, -np.inf), axis=0), 0.0)
    return lo, hi


def known_mean_std(Z: np.ndarray, ddof: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """``(mean, std)`` per column over known values; the mean is 0 for a column with no known value and the
    standard deviation 0 when fewer than ``ddof + 1`` values are known."""
    known, count = _known(Z)
    filled = np.where(known, Z, 0.0)
    mean = filled.sum(axis=0) / np.maximum(count, 1)
    dev = np.where(known, Z - mean, 0.0)
    var = (dev * dev).sum(axis=0) / np.maximum(count - ddof, 1)
    return mean, np.where(count > ddof, np.sqrt(var), 0.0)
