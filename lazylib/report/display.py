"""Tables for the reader: a DataFrame styled to fit the book's text column, showing no NaN, True or False.

>>> import pandas as pd
>>> frame = pd.DataFrame({"data set": ["zoo", "iris"], "accuracy": [96.08, float("nan")], "inside": [True, False]})
>>> html = table(frame, precision=1).to_html()
>>> "96.1" in html and "yes" in html and "no" in html and "nan" not in html.lower()
True
"""

from __future__ import annotations

import html
import itertools
import math
import numbers
import re

import numpy as np
import pandas as pd

from lazylib._validation import Boolean, Integer, check

#: Shown for a missing value.
MISSING = "–"

#: Text columns with a token longer than this (characters) may break it anywhere.
LONG_TOKEN = 16

#: Numbers the tables of one process in order, so re-executing a page gives byte-identical HTML (pandas would
#: draw a random id for each table's CSS).
_TABLE_IDS = itertools.count()

#: The book's table style: compact, wrapping text, no horizontal overflow of the text column.
TABLE_STYLES = [
    {
        "selector": "",
        "props": "font-size: 0.82em; border-collapse: collapse; margin: 0.5em 0 1em 0; max-width: 100%; width: auto;",
    },
    {
        "selector": "th, td",
        "props": "padding: 0.2em 0.55em; white-space: normal; vertical-align: top; "
        "border-bottom: 1px solid rgba(128, 128, 128, 0.25);",
    },
    {
        "selector": "thead th",
        "props": "text-align: left; font-weight: 600; border-bottom: 1px solid rgba(128, 128, 128, 0.6);",
    },
    {"selector": "caption", "props": "caption-side: top; text-align: left; font-style: italic; padding: 0.3em 0;"},
]


def _is_missing(value) -> bool:
    if value is None or value is pd.NA or value is pd.NaT:
        return True
    return isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_)) and math.isnan(value)


def formatter(precision: int | None = 2, *, yes: str = "yes", no: str = "no", missing: str = MISSING):
    """The function :func:`table` applies to every cell: booleans as ``yes``/``no``, missing values as
    ``missing``, real numbers with ``precision`` decimals (``None``: as they are, up to six significant digits;
    integers without decimals), anything else as text."""
    precision = check("precision", precision, Integer(low=0), optional=True)

    def show(value) -> str:
        if _is_missing(value):
            return missing
        if isinstance(value, (bool, np.bool_)):
            return yes if value else no
        if isinstance(value, numbers.Integral):
            return f"{int(value):,}".replace(",", "\u2009") if abs(int(value)) >= 10_000 else str(int(value))
        if isinstance(value, numbers.Real):
            return f"{float(value):.{precision}f}" if precision is not None else f"{float(value):.6g}"
        return str(value)

    return show


def table(
    frame: pd.DataFrame | pd.Series,
    *,
    precision: int | None = 2,
    formats: dict | None = None,
    index: bool = True,
    caption: str | None = None,
    nowrap=(),
    yes: str = "yes",
    no: str = "no",
    missing: str = MISSING,
    html_columns=(),
):
    """Style ``frame`` for the book: a compact table that wraps its text instead of overflowing the page.

    Parameters
    ----------
    frame : DataFrame or Series
    precision : int or None
        Decimals of real numbers (columns in ``formats`` excepted); ``None`` shows them as they are (up to six
        significant digits), for frames a chapter has already rounded.
    formats : dict, optional
        Column name to a format string (``"{:.3f}"``) or a function of the value, for columns that need their
        own (missing values still show as ``missing``).
    index : bool
        Show the index (as the first column) or hide it.
    caption : str, optional
        A caption above the table.
    nowrap : sequence of column names
        Text columns kept on one line (short codes such as ``"6 / 3 / 29"``).
    yes, no, missing : str
        What booleans and missing values (NaN, None, NA) show as.
    html_columns : sequence, optional
        Columns whose cells are HTML already (built by :func:`md` or :func:`rest_to_html`); every other cell, the
        index and the headers are escaped, so text such as ``<unseen>`` shows as itself.

    Returns
    -------
    pandas.io.formats.style.Styler
        Display it as a cell's last expression. Numeric columns are right-aligned, text columns left-aligned
        and wrapped.
    """
    index = check("index", index, Boolean())
    if isinstance(frame, pd.Series):
        frame = frame.to_frame()
    show = formatter(precision, yes=yes, no=no, missing=missing)

    def guarded(fmt):
        render = fmt.format if isinstance(fmt, str) else fmt
        return lambda value: missing if _is_missing(value) else render(value)

    per_column = {column: guarded(fmt) for column, fmt in (formats or {}).items()}
    # cell text is escaped: a label such as "<unseen>" shows as itself instead of vanishing as an HTML tag
    plain = [c for c in frame.columns if c not in set(html_columns)]
    styler = frame.style.format({c: per_column.get(c, show) for c in plain}, subset=plain, escape="html")
    if len(plain) < len(frame.columns):
        styler = styler.format({c: per_column.get(c, show) for c in html_columns}, subset=list(html_columns))
    styler = styler.format_index(show, axis=0, escape="html").format_index(axis=1, escape="html")
    styler = styler.set_table_styles(TABLE_STYLES, overwrite=True)
    styler = styler.set_uuid(f"lazylib{next(_TABLE_IDS)}")
    numeric = [
        c for c in frame.columns if pd.api.types.is_numeric_dtype(frame[c]) and not pd.api.types.is_bool_dtype(frame[c])
    ]
    text = [c for c in frame.columns if c not in numeric]
    if numeric:
        styler = styler.set_properties(subset=numeric, **{"text-align": "right", "white-space": "nowrap"})
    if text:
        styler = styler.set_properties(subset=text, **{"text-align": "left"})
    # Long tokens (file names, identifiers) may break anywhere, so the table never outgrows the text column; in
    # other columns words stay whole.
    long_tokens = [
        c
        for c in text
        if max((len(token) for value in frame[c] if not _is_missing(value) for token in str(value).split()), default=0)
        > LONG_TOKEN
    ]
    if long_tokens:
        styler = styler.set_properties(subset=long_tokens, **{"overflow-wrap": "anywhere"})
    if len(nowrap):
        styler = styler.set_properties(subset=list(nowrap), **{"white-space": "nowrap", "overflow-wrap": "normal"})
    if not index:
        styler = styler.hide(axis="index")
    if caption:
        styler = styler.set_caption(caption)
    return styler


def band_text(low, high, *, digits: int = 1) -> list[str]:
    """Two columns of bounds as one column of text, ``"low-high"`` with ``digits`` decimals (a dash where either
    is missing): a band in one column, so that a published-vs-reproduced table fits the text column.

    Parameters
    ----------
    low, high : array-like of float
        The bounds, pairwise.
    digits : int
        Decimals shown.

    Returns
    -------
    list of str

    Examples
    --------
    >>> band_text([83.14, 90.0], [86.36, float("nan")])
    ['83.1-86.4', '–']
    """
    digits = check("digits", digits, Integer(low=0))
    low, high = list(low), list(high)
    if len(low) != len(high):
        raise ValueError(f"low and high must have the same length, got {len(low)} and {len(high)}")
    return [
        MISSING if _is_missing(a) or _is_missing(b) else f"{float(a):.{digits}f}-{float(b):.{digits}f}"
        for a, b in zip(low, high)
    ]


_ROLE = re.compile(r":(?:py:)?(?:mod|func|class|meth|attr|data|obj|exc):`~?([^`]+)`")


def rest_to_html(text: str) -> str:
    """Inline reStructuredText of a docstring as HTML: ````code```` and roles (``:mod:`x```, with ``~`` showing
    the last name only) become ``<code>``, ``*text*`` becomes ``<em>``; everything else is escaped.

    >>> rest_to_html("with ``fit(X, y)`` and :func:`~lazylib.metrics.get` & *more*")
    'with <code>fit(X, y)</code> and <code>get</code> &amp; <em>more</em>'
    """

    def role(match):
        target = match.group(1)
        shown = target.rsplit(".", 1)[-1] if match.group(0).split("`")[1].startswith("~") else target
        return f"``{shown}``"

    text = html.escape(_ROLE.sub(role, text), quote=False)
    text = re.sub(r"``(.+?)``", r"<code>\1</code>", text)
    return re.sub(r"(?<![\w*])\*(?!\s)([^*]+?)(?<!\s)\*(?![\w*])", r"<em>\1</em>", text)


def docstring_summary(doc: str | None) -> str:
    """The summary of a numpydoc docstring: its first paragraph, on one line (empty for no docstring)."""
    paragraph = (doc or "").strip().split("\n\n", 1)[0]
    return " ".join(line.strip() for line in paragraph.splitlines())


def module_table(package: str = "lazylib"):
    """The public modules of ``package`` (no part of the name starting with ``_``) with each one's docstring
    summary, as a styled table: the map of lazylib on the book's front page, generated from what exists."""
    import importlib
    import pkgutil

    root = importlib.import_module(package)
    names = [package] + [
        info.name
        for info in pkgutil.walk_packages(root.__path__, f"{package}.")
        if not any(part.startswith("_") for part in info.name.split(".")[1:])
    ]
    rows = [
        (f"<code>{name}</code>", rest_to_html(docstring_summary(importlib.import_module(name).__doc__)))
        for name in sorted(names)
    ]
    frame = pd.DataFrame(rows, columns=["module", "what it holds"])
    return table(frame, index=False, html_columns=list(frame.columns)).set_properties(
        subset=["module"], **{"white-space": "nowrap"}
    )


def frames_as_tables() -> None:
    """Show every DataFrame that the running notebook displays through :func:`table` (with ``precision=None``,
    so a chapter's own rounding stands): booleans as yes/no, missing values as a dash, text wrapped and never cut.

    A chapter calls it once, in a hidden cell at the top. Outside IPython it does nothing.
    """
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython is there whenever a notebook runs
        return
    shell = get_ipython()
    if shell is None:
        return

    def as_table(frame: pd.DataFrame) -> str:
        if not (frame.index.is_unique and frame.columns.is_unique):  # a Styler needs unique labels
            return frame._repr_html_()
        return table(frame, precision=None).to_html()

    shell.display_formatter.formatters["text/html"].for_type(pd.DataFrame, as_table)


def printed(number: float, digits) -> str:
    """``number`` with the decimals a paper printed (``digits``; missing or negative: four significant digits),
    never ``-0``.

    Parameters
    ----------
    number : float
        The value to show.
    digits : int or None
        Decimals the paper printed; ``None``, NaN or a negative count show four significant digits.

    Returns
    -------
    str
        The number as text.

    Examples
    --------
    >>> printed(68.0, 1), printed(-0.0001, 2), printed(1234.5678, None)
    ('68.0', '0.00', '1235')
    """
    if digits is None or pd.isna(digits) or digits < 0:
        text = f"{number:.4g}"
    else:
        text = f"{number:.{int(digits)}f}"
    return text[1:] if re.fullmatch(r"-0(\.0*)?", text) else text


#: Columns of :func:`frame_html` kept on one line (numbers and short codes); the other columns wrap.
FRAME_NOWRAP = ("published", "reproduced", "band", "inside", "kind")


def frame_html(frame: pd.DataFrame, caption: str) -> str:
    """``frame`` as an HTML table that fits the text column, without its index: the columns of
    :data:`FRAME_NOWRAP` on one line, words (cell names, claims, stability) wrapped.

    Parameters
    ----------
    frame : DataFrame
        The rows to show, already as display strings.
    caption : str
        The caption above the table (HTML: escape it first).

    Returns
    -------
    str
        The table in a horizontally scrollable ``<div>``.

    Examples
    --------
    >>> text = frame_html(pd.DataFrame({"cell": ["zoo / OM"], "inside": ["yes"]}), "Table 2.")
    >>> text.startswith('<div style="overflow-x: auto">') and "zoo / OM" in text and "Table 2." in text
    True
    """
    styled = (
        frame.style.hide(axis="index")
        .set_caption(caption)
        .set_table_styles(
            [
                {"selector": "td, th", "props": "padding: 1px 8px; text-align: left; vertical-align: top"},
                {"selector": "caption", "props": "text-align: left; font-size: 90%"},
            ]
        )
    )
    numbers = [c for c in frame.columns if c in FRAME_NOWRAP]
    if numbers:
        styled = styled.set_properties(subset=numbers, **{"white-space": "nowrap"})
    return f'<div style="overflow-x: auto">{styled.to_html()}</div>'


def notes_html(notes) -> str:
    """Numbered notes below a table, as an HTML ordered list (empty for no notes).

    Parameters
    ----------
    notes : sequence of str
        The notes' text (escaped here), numbered from 1 in order.

    Returns
    -------
    str
        An ``<ol>``, or ``""``.

    Examples
    --------
    >>> notes_html(["a < b"])
    '<ol style="font-size: 85%"><li>a &lt; b</li></ol>'
    >>> notes_html([])
    ''
    """
    if not notes:
        return ""
    items = "".join(f"<li>{html.escape(text)}</li>" for text in notes)
    return f'<ol style="font-size: 85%">{items}</ol>'
