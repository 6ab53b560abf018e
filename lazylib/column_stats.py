"""Per-column statistics of the known (non-missing) training values (:func:`known_range`, :func:`known_mean_std`), the
known values of a column (:func:`column_values`) and the test of a known set (:func:`is_known_set`).

A column with no known value in the training data is allowed: its statistics are set to 0 (origin 0, scale 0) instead
of NaN with a numpy warning. The statistics hold at every magnitude a float can: the mean and the standard deviation
are computed on values divided by the column's largest absolute value (a power of 2, so exactly). A column whose range
itself exceeds the largest float is refused, naming it.

The scale-free terms (a difference divided by a deviation or a range, equal-width ranges) read a column in its
*unit* (:func:`safe_exponents`, :func:`in_units`): a column whose largest absolute value lies outside
:data:`SAFE_RANGE` is divided by the power of two that brings it near 1 (exact), so that its statistics keep
every digit in the subnormal range (a deviation of 2**-1074-scale data is itself subnormal: a few bits) and its
range stays finite near 1.7e308. Within :data:`SAFE_RANGE` the unit is 1 and nothing is recomputed.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

#: Largest absolute values within which data are used as they are; data beyond are first divided by a power of
#: two (:func:`safe_exponents`): the metrics' scale-free terms and the sub-space learners' squared differences
#: (:func:`lazylib.subspace.in_safe_units`).
SAFE_RANGE = (1e-100, 1e100)


def safe_exponents(top) -> np.ndarray:
    """Per entry of ``top`` (largest absolute values), the exponent ``e`` of the power of two ``2**e`` to divide
    by: 0 within :data:`SAFE_RANGE` (and for 0 or a non-finite top), else the one bringing the top into
    ``[0.5, 1)``.

    Examples
    --------
    >>> safe_exponents([3.0, 2.0**-1074, 1.7e308, 0.0]).tolist()
    [0, -1073, 1024, 0]
    """
    top = np.asarray(top, dtype=np.float64)
    usable = np.isfinite(top) & (top > 0)
    exponent = np.frexp(np.where(usable, top, 1.0))[1]
    inside = (top >= SAFE_RANGE[0]) & (top <= SAFE_RANGE[1])
    return np.where(usable & ~inside, exponent, 0).astype(np.int64)


def column_exponents(Z: np.ndarray) -> np.ndarray:
    """:func:`safe_exponents` of each column's largest absolute known value (NaN unknown)."""
    return safe_exponents(np.max(np.where(np.isnan(Z), 0.0, np.abs(Z)), axis=0, initial=0.0))


def in_units(x: np.ndarray, exponent) -> np.ndarray:
    """``x * 2**-exponent`` (exact; ``exponent`` one integer, or one per column of ``x``); ``x`` itself when
    every exponent is 0."""
    exponent = np.asarray(exponent)
    return x if not exponent.any() else np.ldexp(x, -exponent)


def from_units(v: np.ndarray, exponent) -> np.ndarray:
    """``v * 2**exponent``, a statistic in a column's unit back in the data's (infinite where it exceeds the
    largest float)."""
    with np.errstate(over="ignore"):
        return np.ldexp(v, np.asarray(exponent))


def _known(Z: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    known = ~np.isnan(Z)
    return known, known.sum(axis=0)


def _name(columns, j: int) -> str:
    return f"column {j}" if columns is None else f"column {columns[j]!r}"


def _power_of_two_scale(Z: np.ndarray, known: np.ndarray) -> np.ndarray:
    """Per column, a power of 2 at least the largest absolute known value (1 for a column of zeros)."""
    top = np.max(np.where(known, np.abs(Z), 0.0), axis=0, initial=0.0)
    exponent = np.frexp(np.where(top > 0, top, 1.0))[1]
    return np.ldexp(1.0, exponent)


def is_known_set(s) -> bool:
    """Whether the cell ``s`` of a set-valued column holds a set (None, NaN and an empty array are unknown)."""
    return s is not None and not (isinstance(s, float) and np.isnan(s)) and np.size(s) > 0


def column_values(col: pd.Series, kind: str):
    """The values of a DataFrame column as a feature kind of :data:`lazylib.weighting.kinds.KINDS` reads them: a
    list of cells for ``"set"``, category codes (NaN unknown) for a categorical column, else floats (NaN unknown)."""
    if kind == "set":
        return list(col)
    if isinstance(col.dtype, pd.CategoricalDtype):
        codes = col.array.codes.astype(np.float64)
        codes[codes < 0] = np.nan
        return codes
    return col.to_numpy(dtype=np.float64, na_value=np.nan)


def known_range(Z: np.ndarray, columns=None) -> tuple[np.ndarray, np.ndarray]:
    """``(lo, hi)`` per column over known values; 0 and 0 for a column with none.

    Raises
    ------
    ValueError
        If ``hi - lo`` of a column exceeds the largest float (the message names the column: ``columns`` holds the
        names, by default the positions).
    """
    known, count = _known(Z)
    lo = np.where(count > 0, np.min(np.where(known, Z, np.inf), axis=0, initial=np.inf), 0.0)
    hi = np.where(count > 0, np.max(np.where(known, Z, -np.inf), axis=0, initial=-np.inf), 0.0)
    with np.errstate(over="ignore"):
        spread = hi - lo
    if np.isinf(spread).any():
        j = int(np.flatnonzero(np.isinf(spread))[0])
        raise ValueError(
            f"{_name(columns, j)} spans {lo[j]:.3g} to {hi[j]:.3g}, a range beyond the largest float: rescale it"
        )
    return lo, hi


def known_mean_std(Z: np.ndarray, ddof: int = 1, columns=None) -> tuple[np.ndarray, np.ndarray]:
    """``(mean, std)`` per column over known values; the mean is 0 for a column with no known value and the
    standard deviation 0 when fewer than ``ddof + 1`` values are known.

    Raises
    ------
    ValueError
        If a column's standard deviation exceeds the largest float (the message names the column).
    """
    known, count = _known(Z)
    scale = _power_of_two_scale(Z, known)
    U = np.where(known, Z / scale, 0.0)  # |U| <= 1: no overflow, and no underflow of tiny values' squares
    mean_u = U.sum(axis=0) / np.maximum(count, 1)
    dev = np.where(known, U - mean_u, 0.0)
    var_u = (dev * dev).sum(axis=0) / np.maximum(count - ddof, 1)
    with np.errstate(over="ignore"):
        std = np.where(count > ddof, np.sqrt(var_u) * scale, 0.0)
    if np.isinf(std).any():
        j = int(np.flatnonzero(np.isinf(std))[0])
        raise ValueError(f"{_name(columns, j)} has a standard deviation beyond the largest float: rescale it")
    return mean_u * scale, std
