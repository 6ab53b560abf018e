"""Loader for the vendored UCI files: schema-typed DataFrames, checksums, official splits."""

from __future__ import annotations

import difflib
import functools
import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from lazylib._validation import suggest
from lazylib.papers import PAPER_DATASETS

DATA_DIR = Path(__file__).parent / "uci"

#: Attribute types a schema may declare, besides ``identifier`` (dropped on load).
ATTRIBUTE_TYPES = ("nominal", "continuous", "integer")

_MONKS = re.compile(r"^(monks-\d)\.(train|test)$")


class UnknownDatasetError(KeyError, ValueError):
    """Raised by :func:`load` for a name that is not vendored; the message lists close matches."""

    def __str__(self) -> str:  # KeyError would quote the whole message
        return str(self.args[0])


class ChecksumError(ValueError):
    """Raised when a vendored CSV does not have the sha256 recorded in ``MANIFEST.md``."""


@dataclass(frozen=True, eq=False)
class Dataset:
    """One UCI data set, typed by its schema.

    Attributes
    ----------
    name : str
        The name :func:`load` was called with.
    X : pandas.DataFrame
        Attributes only, in file order (identifier columns dropped). Nominal columns are unordered
        ``Categorical`` with the schema's declared value order; continuous and integer columns are float64;
        missing values are NaN.
    y : pandas.Series
        The class, ``Categorical`` with the schema's class order. NaN where the file has no class.
    types : dict
        Column name -> ``"nominal"``, ``"continuous"`` or ``"integer"``.
    split : dict or None
        Official ``{"train": range, "test": range}`` of 0-based row positions in ``X``, or None.
    source : dict
        ``registry``, ``package``, ``version``, ``file`` and ``sha256`` of the file(s) from ``MANIFEST.md``;
        for the MONK's problems ``file`` and ``sha256`` are (train, test) tuples.
    schema : dict
        The parsed ``.schema.json`` (for the MONK's problems, the train schema with combined counts and both
        parts under ``"parts"``).
    """

    name: str
    X: pd.DataFrame
    y: pd.Series
    types: dict[str, str]
    split: dict[str, range] | None
    source: dict[str, Any]
    schema: dict[str, Any] = field(repr=False)

    @property
    def classes(self) -> list[str]:
        """Class labels in the schema's order."""
        return list(self.y.cat.categories)

    def train_test(self) -> tuple[pd.DataFrame, pd.Series, pd.DataFrame, pd.Series]:
        """Return ``X_train, y_train, X_test, y_test`` of the official split.

        Raises
        ------
        ValueError
            If the data set has no official split.
        """
        if self.split is None:
            raise ValueError(f"data set {self.name!r} has no official train/test split")
        tr, te = list(self.split["train"]), list(self.split["test"])
        return self.X.iloc[tr], self.y.iloc[tr], self.X.iloc[te], self.y.iloc[te]

    def __repr__(self) -> str:
        counts = {t: sum(v == t for v in self.types.values()) for t in ATTRIBUTE_TYPES}
        return (
            f"Dataset({self.name!r}, instances={len(self.X)}, continuous={counts['continuous']}, "
            f"integer={counts['integer']}, nominal={counts['nominal']}, classes={len(self.classes)})"
        )


@functools.lru_cache(maxsize=4)
def manifest(data_dir: Path | str | None = None) -> dict[str, dict[str, str]]:
    """Parse the file table of ``MANIFEST.md`` in ``data_dir`` (``None``: the data shipped with lazylib): file name
    -> its row (origin, fidelity, sha256).

    Keys of each row: ``registry``, ``package``, ``version``, ``package_detail``, ``path``, ``faithful``,
    ``notes``, ``licence``, ``sha256``.
    """
    rows: dict[str, dict[str, str]] = {}
    path = _check_data_dir(data_dir) / "MANIFEST.md"
    if not path.is_file():
        raise ValueError(f"{path.parent} has no MANIFEST.md: the sha256 of every data file is recorded there")
    text = path.read_text(encoding="utf-8")
    for line in text.splitlines():
        if not line.startswith("| ") or line.startswith("| file") or line.startswith("|---"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if len(cells) != 11 or not cells[0].endswith(".csv"):
            continue
        file, package, path, _n, _attrs, _missing, _dist, faithful, notes, licence, sha = cells
        origin = re.match(r"^(\S+) `([^`]+)` (\S+)\s*(.*)$", package)
        if origin is None:
            raise ValueError(f"MANIFEST.md: cannot read the source package of {file}: {package!r}")
        rows[file] = {
            "registry": origin.group(1),
            "package": origin.group(2),
            "version": origin.group(3),
            "package_detail": origin.group(4).strip("() "),
            "path": path,
            "faithful": faithful,
            "notes": notes,
            "licence": licence,
            "sha256": sha.strip("`"),
        }
    return rows


@functools.lru_cache(maxsize=4)
def _schema_names(data_dir: Path = DATA_DIR) -> tuple[str, ...]:
    return tuple(sorted(p.name[: -len(".schema.json")] for p in Path(data_dir).glob("*.schema.json")))


def _check_data_dir(data_dir) -> Path:
    """The data folder: ``None`` is the data shipped with lazylib (``DATA_DIR``)."""
    if data_dir is None:
        return DATA_DIR
    if not isinstance(data_dir, (str, Path)):
        raise ValueError(f"data_dir must be a path (str or pathlib.Path), got {type(data_dir).__name__}")
    path = Path(data_dir)
    if not path.is_dir():
        raise ValueError(f"data_dir {str(path)!r} does not exist or is not a folder")
    return path


def list_datasets(data_dir: Path | str | None = None) -> list[str]:
    """Sorted names accepted by :func:`load` (the MONK's problems as ``monks-1``, ``monks-2``, ``monks-3``), in
    ``data_dir`` (``None``: the data shipped with lazylib)."""
    names = {(_MONKS.match(n).group(1) if _MONKS.match(n) else n) for n in _schema_names(_check_data_dir(data_dir))}
    return sorted(names)


def load(name: str, *, data_dir: Path | str | None = None) -> Dataset:
    """Load one vendored UCI data set, typed by its schema and checked against its sha256.

    Parameters
    ----------
    name : str
        One of :func:`list_datasets`.
    data_dir : path or None, optional
        Folder holding the CSV, schema and ``MANIFEST.md`` files; ``None`` (the default): the copy shipped with
        lazylib (``lazylib/datasets/uci``).

    Returns
    -------
    Dataset

    Raises
    ------
    UnknownDatasetError
        If ``name`` is not vendored (the message lists close matches).
    ChecksumError
        If a CSV's sha256 differs from ``MANIFEST.md`` (the message names the file).
    ValueError
        If a value is outside the schema's declared values or a type is unknown.

    Notes
    -----
    Nothing is imputed and no row is dropped: rows whose class is missing keep ``y = NaN``. The MONK's
    problems are the official training file followed by the official test file, with ``split`` marking both.

    Examples
    --------
    >>> ds = load("monks-2")
    >>> len(ds.split["train"]), len(ds.split["test"])
    (169, 432)
    """
    data_dir = _check_data_dir(data_dir)
    names = list_datasets(data_dir)
    if not isinstance(name, str) and name is not None:
        raise UnknownDatasetError(f"name must be a string (one of list_datasets()), got {type(name).__name__} {name!r}")
    if name not in names:
        close = difflib.get_close_matches(str(name), names, n=5, cutoff=0.4)
        hint = f"; did you mean {', '.join(map(repr, close))}?" if close else ""
        raise UnknownDatasetError(f"no data set named {name!r} in {data_dir}{hint} (see list_datasets())")
    if name.startswith("monks-"):
        return _load_monks(name, data_dir)
    schema = _read_schema(data_dir, name)
    frame, sha = _read_csv(data_dir, schema["file"])
    X, y, types = _typed(frame, schema)
    split = None
    if schema.get("split"):
        parts = schema["split"]
        split = {key: range(p["first_row"] - 1, p["last_row"]) for key, p in zip(("train", "test"), parts)}
        rows = [r for part in split.values() for r in (part.start, part.stop)]
        if (
            len(parts) != 2
            or min(rows) < 0
            or max(rows) > len(X)
            or any(len(r) == 0 for r in split.values())
            or split["train"].stop > split["test"].start
        ):
            raise ValueError(
                f"{schema['file']}: the schema's split {parts} does not cut its {len(X)} rows into a "
                "train part followed by a test part"
            )
    return Dataset(name, X, y, types, split, _source(data_dir, [schema["file"]], [sha]), schema)


def _load_monks(name: str, data_dir: Path) -> Dataset:
    schemas = [_read_schema(data_dir, f"{name}.{part}") for part in ("train", "test")]
    frames, shas, typed = [], [], []
    for schema in schemas:
        frame, sha = _read_csv(data_dir, schema["file"])
        frames.append(frame)
        shas.append(sha)
        typed.append(_typed(frame, schema))
    if [c.get("values") for c in schemas[0]["columns"]] != [c.get("values") for c in schemas[1]["columns"]]:
        raise ValueError(f"{name}: train and test schemas declare different attribute values")
    X = pd.concat([t[0] for t in typed], ignore_index=True)
    y = pd.concat([t[1] for t in typed], ignore_index=True).astype(typed[0][1].dtype)
    n_train = len(frames[0])
    split = {"train": range(0, n_train), "test": range(n_train, len(X))}
    combined = dict(schemas[0])
    counts = {
        c: schemas[0]["class_counts"].get(c, 0) + schemas[1]["class_counts"].get(c, 0) for c in schemas[0]["classes"]
    }
    combined.update(
        name=name,
        file=None,
        instances=len(X),
        class_counts=counts,
        missing=schemas[0]["missing"] + schemas[1]["missing"],
        split=[
            {"part": schemas[0]["name"], "first_row": 1, "last_row": n_train},
            {"part": schemas[1]["name"], "first_row": n_train + 1, "last_row": len(X)},
        ],
        parts={"train": schemas[0], "test": schemas[1]},
    )
    combined.pop("companion_file", None)
    source = _source(data_dir, [s["file"] for s in schemas], shas)
    return Dataset(name, X, y, typed[0][2], split, source, combined)


#: Keys every schema must have, and every column entry of it.
SCHEMA_KEYS = ("file", "columns", "class_column", "classes")
COLUMN_KEYS = ("name", "type")


def _read_schema(data_dir: Path, stem: str) -> dict[str, Any]:
    path = data_dir / f"{stem}.schema.json"
    try:
        schema = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ValueError(
            f"{path.name}: not valid JSON ({exc.msg} at line {exc.lineno}); is the file truncated?"
        ) from None
    if not isinstance(schema, dict):
        raise ValueError(f"{path.name}: a schema must be a JSON object, got {type(schema).__name__}")
    missing = [k for k in SCHEMA_KEYS if k not in schema]
    if missing:
        raise ValueError(f"{path.name}: the schema lacks the keys {missing}")
    if not isinstance(schema["columns"], list):
        got = type(schema["columns"]).__name__
        raise ValueError(f"{path.name}: columns must be a list of column entries, got {got}")
    for i, col in enumerate(schema["columns"]):
        lacking = [k for k in COLUMN_KEYS if not isinstance(col, dict) or k not in col]
        if lacking or (col["type"] == "nominal" and "values" not in col):
            raise ValueError(f"{path.name}: column entry {i} lacks {lacking or ['values']}")
        if col["type"] == "nominal":
            _check_values(path.name, f"column {col['name']!r}", col["values"])
    _check_values(path.name, "the class", schema["classes"])
    return schema


def _check_values(file: str, what: str, values) -> None:
    """Declared nominal values (or classes): a list of distinct strings."""
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise ValueError(f"{file}: the values of {what} must be a list of strings, got {values!r:.80}")
    seen = set()
    for v in values:
        if v in seen:
            raise ValueError(f"{file}: {what} declares the value {v!r} twice")
        seen.add(v)


def _read_csv(data_dir: Path, file: str) -> tuple[pd.DataFrame, str]:
    """Read a CSV as strings (empty cell = missing) after checking its sha256 against the manifest."""
    path = data_dir / file
    if not path.is_file():
        raise ValueError(f"the schema names the file {file}, which is not in {data_dir}")
    raw = path.read_bytes()
    sha = hashlib.sha256(raw).hexdigest()
    expected = manifest(data_dir).get(file, {}).get("sha256")
    if expected is None:
        raise ChecksumError(f"{file}: no sha256 recorded in {data_dir / 'MANIFEST.md'}")
    if sha != expected:
        raise ChecksumError(f"{file}: sha256 is {sha}, MANIFEST.md records {expected}; the file has been altered")
    frame = pd.read_csv(path, dtype=str, keep_default_na=False, na_filter=False)
    _check_row_lengths(raw, file, frame.shape[1])
    return frame.replace("", np.nan), sha


def _check_row_lengths(raw: bytes, file: str, width: int) -> None:
    """Every data row has as many cells as the header (pandas fills a short row with missing values silently)."""
    import csv
    import io

    for number, row in enumerate(csv.reader(io.StringIO(raw.decode("utf-8"))), start=0):
        if row and len(row) != width:
            raise ValueError(f"{file}: row {number} has {len(row)} cells, the header {width}")


def _typed(frame: pd.DataFrame, schema: dict[str, Any]) -> tuple[pd.DataFrame, pd.Series, dict[str, str]]:
    declared = [c["name"] for c in schema["columns"]] + [schema["class_column"]]
    if list(frame.columns) != declared:
        extra = [c for c in frame.columns if c not in declared]
        absent = [c for c in declared if c not in frame.columns]
        raise ValueError(
            f"{schema['file']}: CSV header does not match the schema's columns (in the file only: "
            f"{extra}; in the schema only: {absent}; or a different order)"
        )
    columns: dict[str, pd.Series] = {}
    types: dict[str, str] = {}
    for col in schema["columns"]:
        kind = col["type"]
        if kind == "identifier":
            continue
        if kind == "nominal":
            columns[col["name"]] = categorical_column(
                frame[col["name"]], col["values"], f"{schema['file']}:{col['name']}"
            )
        elif kind in ("continuous", "integer"):
            columns[col["name"]] = numeric_column(frame[col["name"]], f"{schema['file']}: column {col['name']!r}")
        else:
            raise ValueError(f"{schema['file']}: column {col['name']!r} has unknown type {kind!r}")
        types[col["name"]] = kind
    X = pd.DataFrame(columns, index=pd.RangeIndex(len(frame)))
    y = categorical_column(frame[schema["class_column"]], schema["classes"], f"{schema['file']}:class")
    return X, y.rename("class"), types


def numeric_column(values: pd.Series, where: str) -> pd.Series:
    """``values`` (text or numbers, NaN unknown) as float64; a ValueError naming ``where`` and the first row for a
    cell that is not a number or is not finite (shared with :mod:`lazylib.datasets.frame`)."""
    numbers = pd.to_numeric(values, errors="coerce").astype("float64")
    bad = numbers.isna() & values.notna()
    if bad.any():
        row = int(np.flatnonzero(bad.to_numpy())[0])
        raise ValueError(
            f"{where} is numeric but row {row + 1} holds {values.iloc[row]!r} ({int(bad.sum())} such cells)"
        )
    infinite = np.isinf(numbers.to_numpy())
    if infinite.any():
        row = int(np.flatnonzero(infinite)[0])
        raise ValueError(
            f"{where} holds a non-finite number {values.iloc[row]!r} in row {row + 1} "
            f"({int(infinite.sum())} such cells); leave a cell empty for an unknown value"
        )
    return numbers


def categorical_column(values: pd.Series, categories: list[str], where: str) -> pd.Series:
    """``values`` (text, NaN unknown) as an unordered Categorical of ``categories`` in their order; a ValueError
    naming ``where`` for a value outside them (shared with :mod:`lazylib.datasets.frame`)."""
    present = set(values.dropna().unique())
    unknown = sorted(present - set(categories))
    if unknown:
        raise ValueError(f"{where}: values {unknown} are not among the schema's declared values {categories}")
    dtype = pd.CategoricalDtype(categories=list(categories), ordered=False)
    return pd.Series(pd.Categorical(values, dtype=dtype), index=pd.RangeIndex(len(values)), name=values.name)


def _source(data_dir: Path, files: list[str], shas: list[str]) -> dict[str, Any]:
    row = manifest(data_dir)[files[0]]
    single = len(files) == 1
    return {
        "registry": row["registry"],
        "package": row["package"],
        "version": row["version"],
        "file": files[0] if single else tuple(files),
        "sha256": shas[0] if single else tuple(shas),
        "faithful": row["faithful"],
        "notes": " / ".join(dict.fromkeys(manifest(data_dir)[f]["notes"] for f in files)),
    }


def papers_using(name: str) -> list[str]:
    """Paper keys (:data:`lazylib.papers.PARTS`) whose experiments name the data set ``name`` (one of
    :func:`list_datasets`).

    Raises
    ------
    UnknownDatasetError
        For a name that is not vendored (the message suggests close ones).
    """
    names = list_datasets()
    if name not in names:
        raise UnknownDatasetError(f"no data set named {name!r}{suggest(name, names)} (see list_datasets())")
    return [paper for paper, names in PAPER_DATASETS.items() if name in names]


def summary_table(data_dir: Path | str | None = None) -> pd.DataFrame:
    """One row per data set of ``data_dir`` (``None``: the data shipped with lazylib): size, attribute types,
    classes, missing cells, origin and fidelity.

    ``missing`` counts empty attribute cells (identifier columns excluded) and ``missing_class`` the rows
    without a class, both as loaded.
    """
    rows = []
    for name in list_datasets(data_dir):
        ds = load(name, data_dir=data_dir)
        kinds = list(ds.types.values())
        rows.append(
            {
                "dataset": name,
                "instances": len(ds.X),
                "continuous": kinds.count("continuous"),
                "integer": kinds.count("integer"),
                "nominal": kinds.count("nominal"),
                "classes": len(ds.classes),
                "missing": int(ds.X.isna().to_numpy().sum()),
                "missing_class": int(ds.y.isna().sum()),
                "split": "train/test" if ds.split else "",
                "source": f"{ds.source['registry']} {ds.source['package']} {ds.source['version']}",
                "faithful": ds.source["faithful"],
                "used_by": ", ".join(papers_using(name)),
            }
        )
    return pd.DataFrame(rows).set_index("dataset")
