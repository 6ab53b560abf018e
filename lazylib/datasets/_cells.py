"""Cells as text, the way :func:`lazylib.datasets.frame.from_frame` reads them: one text per cell, numbers
written one way, and the declared order of nominal values."""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd

#: A number as a cell may write it (no ``inf`` or ``nan``: those are tokens, see ``missing``).
NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


def value_key(value: str) -> tuple:
    """The declared order of nominal values and class labels: numbers by numeric value, then text by code point.

    Parameters
    ----------
    value : str
        A value as text.

    Returns
    -------
    tuple
        A sort key.
    """
    if NUMBER.fullmatch(value):
        return (0, float(value), value)
    return (1, 0.0, value)


def number_text(x: float) -> str:
    """A number as a nominal value's text: an integral number without its fraction (``1.0`` -> ``"1"``), any other
    as Python's shortest round-trip form.

    Parameters
    ----------
    x : float
        The number.

    Returns
    -------
    str
    """
    x = float(x)
    if math.isfinite(x) and x.is_integer() and abs(x) < 2**53:
        return str(int(x))
    return repr(x)


def cell_text(value):
    """One cell of an object column as text (NaN for an unknown cell)."""
    if value is None or value is pd.NA or value is pd.NaT:
        return np.nan
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, (int, float, np.integer, np.floating)):
        return np.nan if np.isnan(float(value)) else number_text(value)
    return str(value)


def is_number_dtype(dtype) -> bool:
    """Whether ``dtype`` holds numbers (NumPy's or pandas' nullable integers and floats; not bool, not category)."""
    return not isinstance(dtype, pd.CategoricalDtype) and dtype.kind in "iuf"


def texts(values: pd.Series, missing: frozenset) -> pd.Series:
    """A column's cells as text (object dtype, stripped), NaN where unknown or a ``missing`` token (a token written
    as a number also where a cell is that number).

    Parameters
    ----------
    values : pandas.Series
        The column, of any dtype :func:`from_frame` takes.
    missing : frozenset of str
        The tokens meaning "unknown".

    Returns
    -------
    pandas.Series
    """
    if is_number_dtype(values.dtype):
        numbers = pd.Series(values.to_numpy(dtype="float64", na_value=np.nan))
        text = numbers.map({x: number_text(x) for x in numbers.dropna().unique()}).astype(object)
    else:
        cells = values.astype(object).reset_index(drop=True)
        if pd.api.types.infer_dtype(cells, skipna=True) in ("string", "empty"):
            text = cells.where(cells.notna(), np.nan)
        else:
            text = cells.map(cell_text)
        text = text.astype(object).str.strip()
    text = text.reset_index(drop=True)
    unknown = text.isin(missing) | text.isna()
    tokens = numeric_tokens(missing)
    if tokens:  # a token written as a number matches the number however a cell writes it ("-999.0", "-999")
        numbers = text.where(text.str.fullmatch(NUMBER).fillna(False).astype(bool))
        unknown |= pd.to_numeric(numbers, errors="coerce").isin(tokens)
    return text.mask(unknown).astype(object)


def numeric_tokens(missing) -> list[float]:
    """The missing tokens written as numbers, as numbers (``"-999"`` -> ``-999.0``)."""
    return [float(m) for m in missing if NUMBER.fullmatch(m)]


def numbers_canonical(text: pd.Series) -> pd.Series:
    """Text whose every known value is a number, written as :func:`number_text` writes it, when no two texts name
    the same number; any other text as it is."""
    present = pd.Series(text.dropna().unique(), dtype=object)
    if len(present) == 0 or not present.str.fullmatch(NUMBER).all():
        return text
    canonical = {v: number_text(float(v)) for v in present}
    if len(set(canonical.values())) < len(canonical):
        return text
    return text.map(canonical, na_action="ignore").astype(object)
