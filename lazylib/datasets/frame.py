"""A table of one's own, typed honestly: :func:`from_frame` for a DataFrame, :func:`read_table` for a file.

The catalogue's data sets are typed by their schemas (:func:`lazylib.datasets.load`); a user's table has none, so
each column's type is inferred by the rule :func:`from_frame` states, or declared, and a column the rule cannot
settle is refused with the flag that settles it. The result is a :class:`Table`: typed columns with a declared
category order that does not depend on the file, the class as text, and a sha256 of the typed content that a
renamed file, or a CSV and a Parquet of the same rows, share.

>>> import pandas as pd
>>> frame = pd.DataFrame({"colour": ["red", "blue", "red", "?"], "size": [1.5, 2.0, 0.5, 3.25],
...                       "class": ["a", "b", "a", "b"]})
>>> table = from_frame(frame, "class", name="toy")
>>> table.types, list(table.X["colour"].cat.categories)
({'colour': 'nominal', 'size': 'continuous'}, ['blue', 'red'])
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from lazylib._validation import suggest
from lazylib.datasets._cells import (
    NUMBER,
    is_number_dtype,
    number_text,
    numbers_canonical,
    numeric_tokens,
    texts,
    value_key,
)
from lazylib.datasets._loader import categorical_column, numeric_column

#: A column of integers with at most this many distinct values may be the codes of a nominal attribute or a small
#: count: :func:`from_frame` refuses to guess.
FEW_INTEGERS = 10
#: A text column whose share of values written as numbers is at least this, but not all, is refused: a numeric
#: column with a foreign missing token, or nominal codes mixed with words.
MOSTLY_NUMBERS = 0.5
#: The types a Table's columns get (the convention of the ``types`` of :class:`lazylib.datasets.Dataset`).
KINDS = ("nominal", "integer", "continuous")
#: The types one may declare: ``numeric`` is integer or continuous by the values.
DECLARABLE = ("nominal", "numeric", "integer", "continuous")


class TableError(ValueError):
    """A table that cannot be typed honestly; the message names the problem, the column or file, and the fix."""


@dataclass(frozen=True, eq=False)
class Table:
    """A user's table, typed: what :func:`from_frame` and :func:`read_table` return.

    Attributes
    ----------
    name : str
        For display only (the file's stem or the name given); it never seeds anything.
    X : pandas.DataFrame
        The attributes in the table's column order, index ``0..n-1``. Nominal columns are unordered Categorical
        with their values as text, in the declared order (numbers by numeric value first, then text by code
        point: independent of the file's row and category order); numeric columns are float64; NaN is unknown.
    y : pandas.Series
        The class labels as ``str`` (object dtype), no missing value, index ``0..n-1``, named after the target.
    types : dict
        Column name -> ``"nominal"``, ``"integer"`` or ``"continuous"``.
    sha256 : str
        Of the typed content (column names and order, types, categories, values, the class), so a renamed file,
        a CSV and a Parquet of the same rows have the same one; reordering the rows changes it.
    rows_dropped_missing_target : int
        Rows left out because their class is missing.
    source : str or None
        The path read, or None for a DataFrame.
    """

    name: str
    X: pd.DataFrame
    y: pd.Series
    types: dict[str, str]
    sha256: str
    rows_dropped_missing_target: int
    source: str | None

    def classes(self) -> dict[str, int]:
        """Class label -> number of rows, in the declared order of the labels.

        Returns
        -------
        dict
        """
        counts = self.y.value_counts()
        return {label: int(counts[label]) for label in sorted(counts.index, key=value_key)}

    def to_dict(self) -> dict:
        """The schema as read, as JSON-ready values.

        Returns
        -------
        dict
            ``name``, ``rows``, ``columns`` (name -> type), ``missing`` (name -> unknown cells), ``classes`` (label
            -> rows), ``rows_dropped_missing_target``, ``sha256`` and ``source``.
        """
        return {
            "name": self.name,
            "rows": len(self.X),
            "columns": dict(self.types),
            "missing": {c: int(self.X[c].isna().sum()) for c in self.X.columns},
            "classes": self.classes(),
            "rows_dropped_missing_target": int(self.rows_dropped_missing_target),
            "sha256": self.sha256,
            "source": self.source,
        }

    def schema_text(self) -> str:
        """What was read, one line per column (type, unknown cells, values or range), as the command prints it.

        Returns
        -------
        str
        """
        classes = ", ".join(f"{label} {n}" for label, n in self.classes().items())
        lines = [
            f"{self.name}: {len(self.X)} rows, {self.X.shape[1]} attributes, class {self.y.name!r} "
            f"({len(self.classes())} classes: {classes})",
            f"rows left out (class missing): {self.rows_dropped_missing_target}",
            f"source: {self.source or 'a DataFrame'}; sha256 {self.sha256}",
        ]
        width = max(len(str(c)) for c in self.X.columns)
        for column, kind in self.types.items():
            values = self.X[column]
            if kind == "nominal":
                cats = list(values.cat.categories)
                shown = ", ".join(cats[:6]) + (", ..." if len(cats) > 6 else "")
                detail = f"{len(cats)} values: {shown}"
            else:
                detail = f"{values.min():g} .. {values.max():g}"
            unknown = int(values.isna().sum())
            lines.append(f"  {column:<{width}}  {kind:<10}  {unknown:>6} unknown  {detail}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.schema_text()

    def __repr__(self) -> str:
        counts = {k: sum(v == k for v in self.types.values()) for k in KINDS}
        return (
            f"Table({self.name!r}, rows={len(self.X)}, nominal={counts['nominal']}, integer={counts['integer']}, "
            f"continuous={counts['continuous']}, classes={self.y.nunique()})"
        )


def from_frame(frame, target, types=None, *, name="table", missing=("?", "")) -> Table:
    """Type a DataFrame's columns honestly and return a :class:`Table`.

    Parameters
    ----------
    frame : pandas.DataFrame
        The attributes and the class column. Any index (it is dropped); pandas' ``str``, ``object``,
        ``category``, ``bool``, numeric and nullable (``Int64``, ``Float64``, ``boolean``) dtypes.
    target : str
        The class column.
    types : dict, optional
        Column -> ``"nominal"``, ``"numeric"``, ``"integer"`` or ``"continuous"``, overriding the rule below for
        those columns (``"numeric"``: integer or continuous by the values).
    name : str, default "table"
        The table's name, for display only.
    missing : sequence of str, default ("?", "")
        Text cells meaning "unknown" (compared after stripping spaces; a token written as a number also matches
        that number however it is written, ``"-999"`` matching ``-999.0``); NaN, None and pandas' NA are unknown
        too.

    Returns
    -------
    Table

    Raises
    ------
    TableError
        For a target that is not a column (close names listed), a single class, no rows, duplicated column
        names, a column with no known value, an unknown or misspelt name in ``types``, a value a declared type
        cannot hold, and a column the rule below cannot settle (the message names the column and both ways to
        settle it: ``--nominal NAME`` / ``--numeric NAME`` on the command line, ``types={"NAME": "nominal"}`` or
        ``"numeric"`` here).

    Notes
    -----
    The rule, fixed before any data was seen. Each cell is read as text (stripped; a number of a numeric dtype
    written without a fraction when it is integral); ``missing`` tokens are unknown. Then per column, unless
    ``types`` declares it:

    - a ``category`` or ``bool``/``boolean`` dtype is **nominal** (the dtype declares it);
    - a numeric dtype, or text whose every known value is a number, is **numeric**: ``integer`` when every value
      is integral, else ``continuous`` -- except integers with at most :data:`FEW_INTEGERS` distinct values,
      which may be codes of a nominal attribute or a small count, and are refused as ambiguous;
    - text of which at least :data:`MOSTLY_NUMBERS` of the known values, but not all, are numbers is refused as
      ambiguous (a numeric column with a missing token not in ``missing``, or codes mixed with words);
    - any other text is **nominal**.

    Nominal values are text; when every value of a nominal column is a number and no two texts name the same
    number, each is written one way (an integral number without its fraction: ``"1.0"``, ``"1"`` and ``1.0`` read
    as ``"1"``; any other number in Python's shortest round-trip form). Their order is declared, not read: numbers
    by numeric value, then text by code point, so the codes of ``Table.X`` (what an order-reading method such as
    the Euclidean baseline sees) do not depend on the order of the rows or of a ``category`` dtype's categories;
    only the values present are categories. Rows whose class is missing are left out and
    counted in ``rows_dropped_missing_target``; the class is text, typed as a nominal column is.

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"grade": [1, 2, 3, 1, 2], "class": ["x", "y", "x", "y", None]})
    >>> try:
    ...     from_frame(frame, "class")
    ... except TableError as error:
    ...     print(str(error)[:68])
    table: column 'grade' holds 3 distinct integers (1, 2, 3): the codes
    >>> from_frame(frame, "class", types={"grade": "nominal"}).rows_dropped_missing_target
    1
    """
    return _build(frame, target, types, name=name, missing=missing, source=None)


def _build(frame, target, types, *, name, missing, source) -> Table:
    """:func:`from_frame` with the path read (``source``) named in every message; :func:`read_table` calls it.

    Parameters
    ----------
    frame, target, types, name, missing
        As :func:`from_frame` takes them.
    source : str or None
        The file the frame was read from.

    Returns
    -------
    Table
    """
    where = source or name
    frame = _check_frame(frame, where)
    target = _check_target(frame, target, where)
    missing = _check_missing(missing)
    declared = _check_types(types, frame, target, where)
    labels = texts(frame[target], missing)
    keep = labels.notna().to_numpy()
    dropped = int((~keep).sum())
    if not keep.any():
        raise TableError(f"{where}: every row's class {target!r} is missing: is {target!r} the class column?")
    frame = frame.loc[keep].reset_index(drop=True)
    y = _labels(labels[keep].reset_index(drop=True), target, where)
    columns, kinds = {}, {}
    for column in frame.columns:
        if column == target:
            continue
        kinds[column], columns[column] = _type_column(frame[column], declared.get(column), missing, where)
    if not columns:
        raise TableError(f"{where}: the table has no column besides the class {target!r}: nothing to learn from")
    X = pd.DataFrame(columns, index=pd.RangeIndex(len(frame)))
    return Table(str(name), X, y, kinds, content_sha256(X, y, kinds), dropped, source)


def _check_frame(frame, where: str) -> pd.DataFrame:
    if not isinstance(frame, pd.DataFrame):
        raise TableError(f"{where}: expected a pandas DataFrame, got {type(frame).__name__}; pd.DataFrame(...) it")
    if isinstance(frame.columns, pd.MultiIndex):
        raise TableError(f"{where}: the columns are a MultiIndex; flatten them to one name per column")
    names = [str(c).strip() for c in frame.columns]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise TableError(f"{where}: duplicated column names {repeated}: give every column its own name")
    if "" in names:
        raise TableError(
            f"{where}: column {names.index('') + 1} has no name (a written index?): name it or leave it out"
        )
    if len(frame) == 0:
        raise TableError(f"{where}: the table has a header but no rows: nothing to read")
    frame = frame.copy()
    frame.columns = names
    return frame.reset_index(drop=True)


def _check_target(frame: pd.DataFrame, target, where: str) -> str:
    if not isinstance(target, str):
        raise TableError(f"{where}: target must be a column name (str), got {type(target).__name__} {target!r}")
    names = list(frame.columns)
    if target.strip() not in names:
        hint = suggest(target, names) or f"; the columns are {names[:12]}" + (" ..." if len(names) > 12 else "")
        raise TableError(f"{where}: no column named {target!r}{hint} (--target COLUMN names the class)")
    return target.strip()


def _check_missing(missing) -> frozenset:
    if isinstance(missing, str):
        missing = (missing,)
    if not all(isinstance(m, str) for m in missing):
        raise TableError(f"missing must be a sequence of text tokens, got {missing!r}")
    return frozenset(m.strip() for m in missing)


def _check_types(types, frame: pd.DataFrame, target: str, where: str) -> dict[str, str]:
    if types is None:
        return {}
    if not isinstance(types, dict):
        raise TableError(f"{where}: types must be a dict column -> type, got {type(types).__name__}")
    names = [c for c in frame.columns if c != target]
    declared = {}
    for column, kind in types.items():
        column = str(column).strip()
        if column == target:
            raise TableError(f"{where}: {target!r} is the class column; it takes no type (it is read as text)")
        if column not in names:
            raise TableError(
                f"{where}: a type is declared for {column!r}, which is not a column{suggest(column, names)}"
                " (--nominal/--numeric take the table's column names)"
            )
        if kind not in DECLARABLE:
            raise TableError(f"{where}: column {column!r}: unknown type {kind!r}; one of {list(DECLARABLE)}")
        declared[column] = kind
    return declared


def _labels(labels: pd.Series, target: str, where: str) -> pd.Series:
    labels = numbers_canonical(labels)
    classes = labels.unique()
    if len(classes) < 2:
        raise TableError(
            f"{where}: the class {target!r} has one value ({classes[0]!r}) in every row: there is nothing to "
            "classify; is --target the right column?"
        )
    return pd.Series(labels.to_numpy(dtype=object), dtype=object, name=target)


def _type_column(values: pd.Series, declared, missing: frozenset, where: str) -> tuple[str, pd.Series]:
    """One attribute column typed by :func:`from_frame`'s rule or its declared type.

    Parameters
    ----------
    values : pandas.Series
        The column as given.
    declared : str or None
        Its declared type (one of :data:`DECLARABLE`), or None to infer it.
    missing : frozenset of str
        The tokens meaning "unknown".
    where : str
        The table's file or name, for messages.

    Returns
    -------
    kind : str
        One of :data:`KINDS`.
    column : pandas.Series
        Categorical (nominal) or float64 (numeric).
    """
    column = str(values.name)
    if is_number_dtype(values.dtype) and declared != "nominal":
        numbers = pd.Series(values.to_numpy(dtype="float64", na_value=np.nan))
        numbers = numbers.mask(numbers.isin(numeric_tokens(missing)))  # a token "-999" means -999.0 too
        _check_known(numbers, column, missing, where)
        unique = numbers.dropna().unique()
        if declared is None and np.isfinite(unique).all():
            _check_few_integers(numbers.dropna().unique(), column, where)
        return _numeric(numbers, declared or "numeric", column, where)
    text = texts(values, missing)
    _check_known(text, column, missing, where)
    if declared is None:
        declared = _inferred(values.dtype, text.dropna(), column, where)
    if declared == "nominal":
        text = numbers_canonical(text)
        categories = sorted(text.dropna().unique(), key=value_key)
        return "nominal", categorical_column(text, categories, f"{where}: column {column!r}")
    return _numeric(text, declared, column, where)


def _check_known(values: pd.Series, column: str, missing: frozenset, where: str) -> None:
    if values.isna().all():
        raise TableError(
            f"{where}: column {column!r} has no known value (every cell is empty or a missing token "
            f"{sorted(missing)}): leave the column out"
        )


def _settle(column: str) -> str:
    return (
        f"Say which: --nominal {column} or --numeric {column} on the command line, "
        f"types={{{column!r}: 'nominal'}} or types={{{column!r}: 'numeric'}} in Python"
    )


def _check_few_integers(values: np.ndarray, column: str, where: str) -> None:
    """The rule's refusal of integers with at most :data:`FEW_INTEGERS` distinct values (``values``: distinct)."""
    if len(values) <= FEW_INTEGERS and np.all(values == np.round(values)):
        shown = ", ".join(number_text(v) for v in np.sort(values))
        raise TableError(
            f"{where}: column {column!r} holds {len(values)} distinct integers ({shown}): the codes of a "
            f"nominal attribute or a number? {_settle(column)}"
        )


def _inferred(dtype, known: pd.Series, column: str, where: str) -> str:
    """The rule of :func:`from_frame` for a column of text not declared: ``nominal`` or ``numeric``, or a
    TableError."""
    if isinstance(dtype, pd.CategoricalDtype) or pd.api.types.is_bool_dtype(dtype):
        return "nominal"
    if dtype.kind in "mMc" or isinstance(dtype, (pd.PeriodDtype, pd.IntervalDtype)):
        raise TableError(
            f"{where}: column {column!r} has dtype {dtype}, which is neither nominal nor numeric: convert it "
            "to numbers or to text, or leave it out"
        )
    counts = known.value_counts()
    numbers = pd.Series(counts.index.astype(object), dtype=object).str.fullmatch(NUMBER).to_numpy(dtype=bool)
    share = float(counts.to_numpy()[numbers].sum() / counts.sum())
    if share == 1.0:
        _check_few_integers(np.unique(counts.index.astype(float)), column, where)
        return "numeric"
    if share >= MOSTLY_NUMBERS:
        shown = ", ".join(f"{w!r} ({n}x)" for w, n in counts[~numbers].head(3).items())
        raise TableError(
            f"{where}: column {column!r} is mostly numbers ({share:.0%} of its known values) but also holds "
            f"{shown}: if those mean 'unknown', add --missing TOKEN (missing=(...) in Python); otherwise "
            f"{_settle(column)}"
        )
    return "nominal"


def _numeric(text: pd.Series, declared: str, column: str, where: str) -> tuple[str, pd.Series]:
    try:
        numbers = numeric_column(text, f"{where}: column {column!r}")
    except ValueError as exc:
        raise TableError(
            f"{exc}; declare it --nominal {column} (types={{{column!r}: 'nominal'}}) or add "
            "the token to --missing if it means 'unknown'"
        ) from None
    finite = numbers.dropna().to_numpy()
    integral = bool(np.all(finite == np.round(finite)))
    if declared == "integer" and not integral:
        value = float(finite[finite != np.round(finite)][0])
        raise TableError(
            f"{where}: column {column!r} is declared integer but holds {value!r}: declare it numeric or continuous"
        )
    kind = declared if declared in KINDS else ("integer" if integral else "continuous")
    return kind, numbers.rename(column).reset_index(drop=True)


def content_sha256(X: pd.DataFrame, y: pd.Series, types: dict[str, str]) -> str:
    """The sha256 of a table's typed content: names, order and types of the columns, categories, values in row
    order (numbers as float64, -0 as 0, every NaN alike; nominal values as codes of their categories), the class.

    Parameters
    ----------
    X : pandas.DataFrame
        The typed attributes.
    y : pandas.Series
        The class labels (text), named after the class column.
    types : dict
        Column -> type.

    Returns
    -------
    str
        64 hexadecimal digits.
    """
    classes = sorted(y.unique(), key=value_key)
    header = {
        "columns": [[c, types[c], list(X[c].cat.categories) if types[c] == "nominal" else None] for c in X.columns],
        "target": str(y.name),
        "classes": classes,
        "rows": len(X),
    }
    digest = hashlib.sha256(json.dumps(header, ensure_ascii=False).encode("utf-8"))
    for column in X.columns:
        if types[column] == "nominal":
            digest.update(X[column].cat.codes.to_numpy(dtype="<i8").tobytes())
        else:
            numbers = X[column].to_numpy(dtype="<f8") + 0.0  # -0.0 + 0.0 is 0.0
            digest.update(np.where(np.isnan(numbers), np.nan, numbers).astype("<f8").tobytes())
    codes = pd.Categorical(y, categories=classes).codes
    digest.update(np.asarray(codes, dtype="<i8").tobytes())
    return digest.hexdigest()


def read_table(path, target, *, nominal=(), numeric=(), missing=("?", ""), name=None) -> Table:
    """Read a table from a file and type it as :func:`from_frame` does.

    Parameters
    ----------
    path : str or pathlib.Path
        A CSV (its delimiter sniffed among ``, ; tab |``, else a comma), a ``.tsv``/``.tab`` file (tab), an
        ``.arff`` file (its declared nominal and numeric attributes, ``?`` unknown) or a ``.parquet`` file
        (needs pyarrow: ``pip install lazylib[bench]``). A text file is UTF-8 with a header row.
    target : str
        The class column.
    nominal, numeric : sequence of str or str, optional
        Columns declared nominal or numeric (a str is split on commas, as ``--nominal A,B`` gives it),
        overriding the inference rule and an ARFF file's declarations.
    missing : sequence of str, default ("?", "")
        Text cells meaning "unknown".
    name : str, optional
        The table's name for display; the file's stem by default.

    Returns
    -------
    Table
        With ``source`` the path read.

    Raises
    ------
    TableError
        For a file that does not exist, is empty, is not a table (binary, not UTF-8, rows of unequal length),
        has a header only, or any refusal of :func:`from_frame`; and for an unknown name in ``nominal`` or
        ``numeric`` or one in both. Every message names the file and the fix.

    Notes
    -----
    Every cell of a text file is read as text, so numbers written as text are typed by :func:`from_frame`'s
    rule, not by pandas'.
    """
    from lazylib.datasets import _readers

    path = Path(path)
    frame, declared = _readers.read(path)
    if isinstance(target, str):
        declared.pop(target.strip(), None)  # an ARFF file declares its class too; the class is read as text
    flags = {"nominal": _names(nominal, "nominal"), "numeric": _names(numeric, "numeric")}
    both = sorted(set(flags["nominal"]) & set(flags["numeric"]))
    if both:
        raise TableError(f"{path}: {both} are declared both --nominal and --numeric: declare each once")
    columns = [str(c).strip() for c in frame.columns]
    for flag, names in flags.items():
        for column in names:
            if column not in columns:
                raise TableError(
                    f"{path}: --{flag} names {column!r}, which is not a column{suggest(column, columns)}"
                    f"; the columns are {columns[:12]}" + (" ..." if len(columns) > 12 else "")
                )
            declared[column] = flag
    return _build(frame, target, declared, name=name or path.stem, missing=missing, source=str(path))


def _names(names, flag: str) -> list[str]:
    if isinstance(names, str):
        names = names.split(",")
    if not all(isinstance(n, str) for n in names):
        raise TableError(f"--{flag} takes column names, got {names!r}")
    return [n.strip() for n in names if n.strip()]
