"""The file readers of :func:`lazylib.datasets.frame.read_table`: CSV (delimiter sniffed), TSV, ARFF and Parquet.

Each returns the table as a DataFrame and the types the file declares (ARFF's; none for the others). Text files
are read cell by cell as text (Python's ``csv`` module), so no number is typed here, every row is checked to have
as many cells as the header, and duplicated names are seen before anything renames them.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import numpy as np
import pandas as pd

from lazylib.datasets.frame import TableError

#: Bytes read to sniff a text file's delimiter.
SAMPLE = 1 << 16
#: The delimiters the sniffer chooses among.
DELIMITERS = ",;\t|"
#: Magic numbers of files that are not text tables, and what to do with them.
NOT_TEXT = {
    b"PAR1": "a Parquet file: name it .parquet",
    b"PK\x03\x04": "a zip archive or a spreadsheet (.xlsx): export the sheet as CSV",
    b"\xd0\xcf\x11\xe0": "an old Excel or Office file: export the sheet as CSV",
    b"%PDF": "a PDF document: a table must be CSV, TSV, ARFF or Parquet",
    b"\x1f\x8b": "a gzip archive: decompress it first",
}


def read(path: Path) -> tuple[pd.DataFrame, dict[str, str]]:
    """The table at ``path`` and the types its file declares, by the file's suffix."""
    if not path.exists():
        raise TableError(f"{path}: no such file")
    if not path.is_file():
        raise TableError(f"{path}: not a file (a folder?): give the path of a CSV, TSV, ARFF or Parquet file")
    suffix = path.suffix.lower()
    if suffix in (".parquet", ".pq"):
        return _parquet(path), {}
    raw = path.read_bytes()
    text = _text(raw, path)
    if suffix == ".arff":
        return _arff(text, path)
    return _delimited(text, path, "\t" if suffix in (".tsv", ".tab") else None), {}


def _text(raw: bytes, path: Path) -> str:
    if not raw.strip():
        raise TableError(f"{path}: the file is empty: a table needs a header row and at least one row")
    for magic, what in NOT_TEXT.items():
        if raw.startswith(magic):
            raise TableError(f"{path}: not a text table but {what}")
    if b"\x00" in raw[:SAMPLE]:
        raise TableError(
            f"{path}: not a text table (it holds NUL bytes: binary data, or UTF-16 text): save it as UTF-8 CSV"
        )
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise TableError(
            f"{path}: not UTF-8 text (byte {exc.start} is {raw[exc.start : exc.start + 1]!r}): a binary file, or "
            "text in another encoding; save it as UTF-8 CSV"
        ) from None


def _dialect(text: str, delimiter: str | None):
    if delimiter is not None:
        return csv.excel_tab if delimiter == "\t" else csv.excel
    sample = text[:SAMPLE]
    if len(text) > SAMPLE and "\n" in sample:
        sample = sample[: sample.rindex("\n")]
    try:
        return csv.Sniffer().sniff(sample, delimiters=DELIMITERS)
    except csv.Error:
        return csv.excel


def _rows(text: str, dialect, path: Path) -> list[list[str]]:
    try:
        return [row for row in csv.reader(io.StringIO(text, newline=""), dialect) if row]
    except csv.Error as exc:
        raise TableError(f"{path}: not a readable delimited table ({exc}); save it as CSV") from None


def _ragged(rows: list[list[str]]) -> int | None:
    """The index of the first row whose length differs from the header's, or None."""
    return next((i for i, row in enumerate(rows) if len(row) != len(rows[0])), None)


def _delimited(text: str, path: Path, delimiter: str | None) -> pd.DataFrame:
    dialect = _dialect(text, delimiter)
    rows = _rows(text, dialect, path)
    if _ragged(rows) is not None and delimiter is None and dialect.delimiter != ",":
        commas = _rows(text, csv.excel, path)  # the sniffer guessed wrong where a comma reads a whole table
        if _ragged(commas) is None and len(commas[0]) > 1:
            rows, dialect = commas, csv.excel
    header = [name.strip() for name in rows[0]]
    repeated = sorted({n for n in header if header.count(n) > 1})
    if repeated:
        raise TableError(f"{path}: duplicated column names {repeated}: give every column its own name")
    if len(rows) == 1:
        raise TableError(f"{path}: the file has a header but no rows: nothing to read")
    bad = _ragged(rows)
    if bad is not None:
        raise TableError(
            f"{path}: row {bad + 1} (the header is row 1, blank lines skipped) has {len(rows[bad])} cells, the "
            f"header {len(header)} (delimiter read as {dialect.delimiter!r}): is it a table? Quote cells that "
            "hold the delimiter, or give the file a .tsv name if it is tab-separated"
        )
    columns = zip(*rows[1:])
    return pd.DataFrame({name: pd.Series(cells, dtype=object) for name, cells in zip(header, columns)})


def _parquet(path: Path) -> pd.DataFrame:
    try:
        import pyarrow  # noqa: F401  (pandas reads Parquet through it)
    except ImportError:
        raise TableError(
            f"{path}: reading Parquet needs pyarrow, which is not installed: pip install lazylib[bench] "
            "(or save the table as CSV)"
        ) from None
    try:
        return pd.read_parquet(path)
    except Exception as exc:  # pyarrow's errors (ArrowInvalid, OSError) have no common base of their own
        raise TableError(f"{path}: not a readable Parquet file ({type(exc).__name__}: {exc})") from None


def _split_arff(line: str, path: Path, number: int) -> list[str]:
    """The comma-separated values of an ARFF line, unquoted (``'...'`` or ``"..."``, backslash escapes), stripped;
    an unquoted ``?`` stays ``"?"`` and a quoted one is returned as ``"\\0?"`` so that it is not unknown."""
    values, current, quote, quoted, i = [], [], None, False, 0
    while i < len(line):
        ch = line[i]
        if quote:
            if ch == "\\" and i + 1 < len(line):
                current.append(line[i + 1])
                i += 1
            elif ch == quote:
                quote = None
            else:
                current.append(ch)
        elif ch in "'\"":
            quote, quoted = ch, True
        elif ch == ",":
            values.append(_arff_value(current, quoted))
            current, quoted = [], False
        else:
            current.append(ch)
        i += 1
    if quote:
        raise TableError(f"{path}: line {number} opens a quote {quote} it does not close: is it an ARFF file?")
    values.append(_arff_value(current, quoted))
    return values


def _arff_value(chars: list[str], quoted: bool) -> str:
    value = "".join(chars).strip()
    return "\0" + value if quoted and value == "?" else value


def _arff_header(lines: list[str], path: Path) -> tuple[list[tuple[str, list[str] | None]], int]:
    """The attributes (name, declared nominal values or None for numeric) and the index of the ``@data`` line."""
    attributes = []
    for number, line in enumerate(lines):
        stripped = line.strip()
        lowered = stripped.lower()
        if not stripped or stripped.startswith("%") or lowered.startswith("@relation"):
            continue
        if lowered == "@data":
            return attributes, number
        if not lowered.startswith("@attribute"):
            raise TableError(f"{path}: line {number + 1} is not ARFF ({stripped[:40]!r}): save the table as CSV")
        rest = stripped[len("@attribute") :].strip()
        if rest[:1] in "'\"":
            end = rest.index(rest[0], 1)
            name, spec = rest[1:end], rest[end + 1 :].strip()
        else:
            name, _, spec = rest.partition(" ") if " " in rest else rest.partition("\t")
            spec = spec.strip()
        if spec.startswith("{") and spec.endswith("}"):
            attributes.append((name, [v.lstrip("\0") for v in _split_arff(spec[1:-1], path, number + 1)]))
        elif spec.lower() in ("numeric", "real", "integer"):
            attributes.append((name, None))
        else:
            raise TableError(
                f"{path}: attribute {name!r} has type {spec[:30]!r}; only nominal and numeric attributes are read "
                "(convert it, or save the table as CSV)"
            )
    raise TableError(f"{path}: no @data line: not an ARFF file (a CSV? name it .csv)")


def _arff(text: str, path: Path) -> tuple[pd.DataFrame, dict[str, str]]:
    lines = text.splitlines()
    attributes, start = _arff_header(lines, path)
    names = [name for name, _ in attributes]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise TableError(f"{path}: duplicated attribute names {repeated}: give every attribute its own name")
    rows = []
    for number, line in enumerate(lines[start + 1 :], start=start + 2):
        if not line.strip() or line.strip().startswith("%"):
            continue
        if line.strip().startswith("{"):
            raise TableError(f"{path}: line {number} is sparse ARFF, which is not read: save the table as CSV")
        row = _split_arff(line, path, number)
        if len(row) != len(names):
            raise TableError(f"{path}: line {number} has {len(row)} values, the header {len(names)} attributes")
        rows.append(row)
    if not rows:
        raise TableError(f"{path}: the file has a header but no rows: nothing to read")
    columns = {}
    for (name, domain), cells in zip(attributes, zip(*rows)):
        column = pd.Series([np.nan if c == "?" else c.lstrip("\0") for c in cells], dtype=object)
        outside = sorted(set(column.dropna()) - set(domain)) if domain is not None else []
        if outside:
            raise TableError(f"{path}: attribute {name!r} holds {outside[:5]}, not among its declared values")
        columns[name] = column
    declared = {name: "nominal" if domain is not None else "numeric" for name, domain in attributes}
    return pd.DataFrame(columns), declared
