"""Tables for the reader: a DataFrame styled to fit the book's text column, showing no NaN, True or False.

>>> import pandas as pd
>>> frame = pd.DataFrame({"data set": ["zoo", "iris"], "accuracy": [96.08, float("nan")], "inside": [True, False]})
>>> html = table(frame, precision=1).to_html()
>>> "96.1" in html and "yes" in html and "no" in html and "nan" not in html.lower()
True
"""

from __future__ import annotations

import math
import numbers

import numpy as np
import pandas as pd

#: Shown for a missing value.
MISSING = "–"

#: The book's table style: compact, wrapping text, no horizontal overflow of the text column.
TABLE_STYLES = [
    {"selector": "", "props": "font-size: 0.82em; border-collapse: collapse; margin: 0.5em 0 1em 0; "
                              "max-width: 100%; width: auto;"},
    {"selector": "th, td", "props": "padding: 0.2em 0.55em; white-space: normal; vertical-align: top; "
                                    "border-bottom: 1px solid rgba(128, 128, 128, 0.25);"},
    {"selector": "thead th", "props": "text-align: left; font-weight: 600; "
                                      "border-bottom: 1px solid rgba(128, 128, 128, 0.6);"},
    {"selector": "caption", "props": "caption-side: top; text-align: left; font-style: italic; padding: 0.3em 0;"},
]


def _is_missing(value) -> bool:
    if value is None or value is pd.NA or value is pd.NaT:
        return True
    return isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_)) and math.isnan(value)


def formatter(precision: int = 2, *, yes: str = "yes", no: str = "no", missing: str = MISSING):
    """The function :func:`table` applies to every cell: booleans as ``yes``/``no``, missing values as
    ``missing``, real numbers with ``precision`` decimals (integers without), anything else as text."""

    def show(value) -> str:
        if _is_missing(value):
            return missing
        if isinstance(value, (bool, np.bool_)):
            return yes if value else no
        if isinstance(value, numbers.Integral):
            return f"{int(value):,}".replace(",", "\u2009") if abs(int(value)) >= 10_000 else str(int(value))
        if isinstance(value, numbers.Real):
            return f"{float(value):.{precision}f}"
        return str(value)

    return show


def table(frame: pd.DataFrame | pd.Series, *, precision: int = 2, formats: dict | None = None, index: bool = True,
          caption: str | None = None, yes: str = "yes", no: str = "no", missing: str = MISSING):
    """Style ``frame`` for the book: a compact table that wraps its text instead of overflowing the page.

    Parameters
    ----------
    frame : DataFrame or Series
    precision : int
        Decimals of real numbers (columns in ``formats`` excepted).
    formats : dict, optional
        Column name to a format string (``"{:.3f}"``) or a function of the value, for columns that need their
        own (missing values still show as ``missing``).
    index : bool
        Show the index (as the first column) or hide it.
    caption : str, optional
        A caption above the table.
    yes, no, missing : str
        What booleans and missing values (NaN, None, NA) show as.

    Returns
    -------
    pandas.io.formats.style.Styler
        Display it as a cell's last expression. Numeric columns are right-aligned, text columns left-aligned
        and wrapped.
    """
    if isinstance(frame, pd.Series):
        frame = frame.to_frame()
    show = formatter(precision, yes=yes, no=no, missing=missing)
    per_column = {}
    for column, fmt in (formats or {}).items():
        render = fmt.format if isinstance(fmt, str) else fmt
        per_column[column] = (lambda render: lambda v: missing if _is_missing(v) else render(v))(render)
    styler = frame.style.format({column: per_column.get(column, show) for column in frame.columns})
    styler = styler.format_index(show, axis=0).set_table_styles(TABLE_STYLES, overwrite=True)
    numeric = [c for c in frame.columns
               if pd.api.types.is_numeric_dtype(frame[c]) and not pd.api.types.is_bool_dtype(frame[c])]
    text = [c for c in frame.columns if c not in numeric]
    if numeric:
        styler = styler.set_properties(subset=numeric, **{"text-align": "right", "white-space": "nowrap"})
    if text:
        styler = styler.set_properties(subset=text, **{"text-align": "left"})
    if not index:
        styler = styler.hide(axis="index")
    if caption:
        styler = styler.set_caption(caption)
    return styler
