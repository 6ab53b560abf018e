"""The replication scorecard: every published number beside ours, and every claim with its verdict.

Each chapter that reproduces published numbers or judges a claim registers them here while it executes, and the
book's scorecard appendix reads every chapter's record back. Nothing is typed twice: the chapter hands over the
numbers it has just computed and asserted.

>>> card = Chapter(part="I", paper="payne1998", chapter="payne1998_vdm/03_uci_table2")
>>> card.cell(source="Table 2", cell="zoo / OM", published=96.09, reproduced=96.08, low=95.1, high=97.0,
...           tolerance=0.005)
>>> card.claim(claim="H1: VDM and MVDM perform alike", verdict="supported", evidence="0 of 8 significant")
>>> card.frames()[0][["cell", "published", "reproduced", "inside"]]
       cell  published  reproduced  inside
0  zoo / OM      96.09       96.08    True

A cell is *inside* when the published value lies within ``[low - tolerance, high + tolerance]``, the band of
values our runs produced (over fold seeds, generator seeds...) widened by the published rounding (half a unit of
the last printed digit). Without a band (``low``/``high`` omitted) the band is the reproduced value itself.

Records are JSON files, one per chapter, in :func:`records_dir`: ``$LAZYLIB_SCORECARD_DIR`` if set, else the
``.scorecard`` folder at the root of the book (the nearest folder above the working directory holding
``_toc.yml``), else ``.scorecard`` in the working directory.

A record is only as good as the run that wrote it. Each one carries a fingerprint of what its numbers depend on
(:func:`inputs_fingerprint`: lazylib's sources and data, the published CSVs, the versions of Python and the
numerical libraries) and the sha256 of its chapter's source. Inside a book, :func:`load` shows only the records
of chapters listed in ``_toc.yml`` (a deleted chapter's record is ignored) and refuses, with
:class:`StaleRecords`, records whose fingerprint no longer matches, and chapters that use this module but have
left no record: a scorecard is never drawn from an old run.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import platform
import re
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

import pandas as pd

#: The verdicts a claim can get, strongest first.
VERDICTS = ("supported", "partly supported", "not supported")

CELL_COLUMNS = [
    "part",
    "paper",
    "chapter",
    "source",
    "cell",
    "published",
    "reproduced",
    "low",
    "high",
    "tolerance",
    "inside",
    "deviation",
]
CLAIM_COLUMNS = ["part", "paper", "chapter", "claim", "verdict", "evidence"]


#: The libraries whose version can change a chapter's numbers (with Python's and lazylib's own).
NUMERICAL_LIBRARIES = ("numpy", "scipy", "pandas", "matplotlib")


class StaleRecords(RuntimeError):
    """Some records do not come from the current sources, or some chapters have not left theirs."""


def book_root() -> Path | None:
    """The nearest folder above the working directory holding ``_toc.yml`` (``None`` outside a book)."""
    here = Path.cwd().resolve()
    return next((folder for folder in (here, *here.parents) if (folder / "_toc.yml").is_file()), None)


def records_dir() -> Path:
    """Where chapters write their records and the scorecard page reads them."""
    if os.environ.get("LAZYLIB_SCORECARD_DIR"):
        return Path(os.environ["LAZYLIB_SCORECARD_DIR"])
    root = book_root()
    return (root if root is not None else Path.cwd().resolve()) / ".scorecard"


def _hash_files(digest, root: Path, files) -> None:
    for path in sorted(files):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")


def inputs_fingerprint(root: str | os.PathLike | None = None) -> str:
    """The sha256 of what every chapter's numbers depend on, besides the chapter itself.

    Covers every file of the ``lazylib`` package (sources and vendored data, caches excluded), the published
    numbers (``book/published/``) when ``root`` (the book's root folder) is given, and the versions of Python,
    lazylib and :data:`NUMERICAL_LIBRARIES`.
    """
    import lazylib

    digest = hashlib.sha256()
    package = Path(lazylib.__file__).resolve().parent
    _hash_files(
        digest,
        package.parent,
        (p for p in package.rglob("*") if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"),
    )
    if root is not None:
        published = Path(root) / "book" / "published"
        _hash_files(digest, Path(root), (p for p in published.rglob("*") if p.is_file()))
    versions = [f"python=={platform.python_version()}", f"lazylib=={lazylib.__version__}"]
    for name in NUMERICAL_LIBRARIES:
        try:
            versions.append(f"{name}=={metadata.version(name)}")
        except metadata.PackageNotFoundError:
            versions.append(f"{name} missing")
    digest.update("\n".join(versions).encode())
    return digest.hexdigest()


def _chapter_file(root: Path, chapter: str) -> Path:
    return Path(root) / "book" / f"{chapter}.md"


def _sha256(path: Path) -> str | None:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None


def toc_chapters(root: str | os.PathLike) -> list[str]:
    """The book's pages in ``_toc.yml`` order, as chapter names (path below ``book/``, no extension)."""
    text = (Path(root) / "_toc.yml").read_text(encoding="utf-8")
    entries = re.findall(r"^\s*(?:-\s*)?(?:file|root):\s*['\"]?([^'\"\s#]+)", text, flags=re.M)
    return [e.removeprefix("book/").removesuffix(".md") for e in entries]


def _number(value, name: str) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number, got {value!r}") from None
    if math.isnan(number):
        raise ValueError(f"{name} is NaN")
    return number


@dataclass
class Chapter:
    """The scorecard record of one chapter: published cells and judged claims.

    Parameters
    ----------
    part : str
        The book Part as a Roman numeral ("I" ... "V").
    paper : str
        The paper's citation key in ``book/references.bib`` (e.g. ``"payne1998"``).
    chapter : str
        The chapter's path below ``book/`` without extension (e.g. ``"payne1998_vdm/03_uci_table2"``); it names
        the record file, so a re-executed chapter replaces its own record.
    """

    part: str
    paper: str
    chapter: str
    _cells: list = field(default_factory=list, repr=False)
    _claims: list = field(default_factory=list, repr=False)

    def __post_init__(self):
        if not isinstance(self.part, str) or not self.part or set(self.part) - set("IVX"):
            raise ValueError(f"part must be a Roman numeral such as 'II', got {self.part!r}")
        if not self.chapter or not self.paper:
            raise ValueError("paper and chapter must be non-empty")

    def cell(
        self,
        *,
        source: str,
        cell: str,
        published,
        reproduced,
        low=None,
        high=None,
        tolerance: float = 0.0,
        deviation: str = "",
    ) -> None:
        """Register one published number and ours (``low``/``high``: the band of our runs; ``deviation``: why
        they differ, for a cell outside the band)."""
        published = _number(published, f"published value of {source} / {cell}")
        reproduced = _number(reproduced, f"reproduced value of {source} / {cell}")
        low = reproduced if low is None else _number(low, f"band low of {source} / {cell}")
        high = reproduced if high is None else _number(high, f"band high of {source} / {cell}")
        if low > high:
            raise ValueError(f"band of {source} / {cell} is empty: low {low} > high {high}")
        tolerance = _number(tolerance, "tolerance")
        if tolerance < 0:
            raise ValueError(f"tolerance must be non-negative, got {tolerance}")
        inside = low - tolerance <= published <= high + tolerance
        self._cells.append(
            {
                "source": str(source),
                "cell": str(cell),
                "published": published,
                "reproduced": reproduced,
                "low": low,
                "high": high,
                "tolerance": tolerance,
                "inside": bool(inside),
                "deviation": str(deviation or ""),
            }
        )

    def cells(self, frame: pd.DataFrame) -> None:
        """Register many cells: a DataFrame with columns ``source``, ``cell``, ``published``, ``reproduced`` and
        optionally ``low``, ``high``, ``tolerance``, ``deviation``."""
        missing = {"source", "cell", "published", "reproduced"} - set(frame.columns)
        if missing:
            raise ValueError(f"cells() needs the columns {sorted(missing)}")
        for row in frame.to_dict("records"):
            optional = {
                k: row[k]
                for k in ("low", "high", "tolerance", "deviation")
                if k in row and not (isinstance(row[k], float) and math.isnan(row[k]))
            }
            self.cell(
                source=row["source"],
                cell=row["cell"],
                published=row["published"],
                reproduced=row["reproduced"],
                **optional,
            )

    def claim(self, *, claim: str, verdict: str, evidence: str = "") -> None:
        """Register a claim of the paper with the verdict our numbers give it (one of :data:`VERDICTS`)."""
        if verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}, got {verdict!r}")
        self._claims.append({"claim": str(claim), "verdict": verdict, "evidence": str(evidence)})

    def frames(self) -> tuple[pd.DataFrame, pd.DataFrame]:
        """This chapter's cells and claims as two DataFrames (columns :data:`CELL_COLUMNS`,
        :data:`CLAIM_COLUMNS`)."""
        meta = {"part": self.part, "paper": self.paper, "chapter": self.chapter}
        cells = pd.DataFrame([{**meta, **c} for c in self._cells], columns=CELL_COLUMNS)
        claims = pd.DataFrame([{**meta, **c} for c in self._claims], columns=CLAIM_COLUMNS)
        return cells, claims

    def save(self, directory: str | os.PathLike | None = None) -> Path:
        """Write the record (replacing this chapter's previous one), stamped with :func:`inputs_fingerprint` and
        the sha256 of the chapter's source when it runs inside a book; returns the file written."""
        folder = Path(directory) if directory is not None else records_dir()
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / (self.chapter.replace("/", "__") + ".json")
        root = book_root()
        record = {
            "part": self.part,
            "paper": self.paper,
            "chapter": self.chapter,
            "inputs": inputs_fingerprint(root),
            "source": _sha256(_chapter_file(root, self.chapter)) if root is not None else None,
            "cells": self._cells,
            "claims": self._claims,
        }
        path.write_text(json.dumps(record, indent=1, ensure_ascii=False), encoding="utf-8")
        return path


def load(
    directory: str | os.PathLike | None = None, *, book: str | os.PathLike | bool | None = None
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Every recorded cell and claim: two DataFrames (columns :data:`CELL_COLUMNS`, :data:`CLAIM_COLUMNS`),
    empty when nothing has been recorded, in the book's ``_toc.yml`` order.

    Parameters
    ----------
    directory : path, optional
        Where the records are; default :func:`records_dir`.
    book : path or bool, optional
        The book's root folder. By default the book around the working directory when ``directory`` is not given
        (no book, no checks), none when it is; ``False`` turns the checks off.

    Raises
    ------
    StaleRecords
        Inside a book: a record of a chapter listed in ``_toc.yml`` was written by other sources than the
        current ones (chapter, lazylib, data, published numbers, library versions), or a listed chapter that
        uses ``lazylib.report.scorecard`` has left no record. Records of chapters not in ``_toc.yml`` are ignored.
    """
    folder = Path(directory) if directory is not None else records_dir()
    root = (book_root() if directory is None else None) if book is None or book is True else book or None
    records = [json.loads(path.read_text(encoding="utf-8")) for path in sorted(folder.glob("*.json"))]
    if root is not None:
        records = _current(records, Path(root))
    cells, claims = [], []
    for record in records:
        meta = {k: record[k] for k in ("part", "paper", "chapter")}
        cells += [{**meta, **c} for c in record["cells"]]
        claims += [{**meta, **c} for c in record["claims"]]
    return pd.DataFrame(cells, columns=CELL_COLUMNS), pd.DataFrame(claims, columns=CLAIM_COLUMNS)


def _current(records: list[dict], root: Path) -> list[dict]:
    """The records of the chapters in ``root``'s ``_toc.yml``, in its order, checked against the current sources."""
    order = {chapter: i for i, chapter in enumerate(toc_chapters(root))}
    records = sorted((r for r in records if r["chapter"] in order), key=lambda r: order[r["chapter"]])
    inputs = inputs_fingerprint(root)
    stale = [
        r["chapter"]
        for r in records
        if r.get("inputs") != inputs or r.get("source") != _sha256(_chapter_file(root, r["chapter"]))
    ]
    recorded = {r["chapter"] for r in records}
    missing = [c for c in order if c not in recorded and _uses_scorecard(_chapter_file(root, c))]
    if stale or missing:
        raise StaleRecords(
            "The scorecard needs a current record of every chapter: "
            + (f"these records come from older sources: {', '.join(stale)}; " if stale else "")
            + (f"these chapters left no record: {', '.join(missing)}; " if missing else "")
            + "execute them first (make book executes every chapter in _toc.yml order before this page)."
        )
    return records


def _uses_scorecard(path: Path) -> bool:
    """A chapter (not an appendix page) that imports this module, so should leave a record when executed."""
    if not path.is_file() or "appendix" in path.parts or path.stem in ("intro", "index"):
        return False
    pattern = (
        r"^\s*(from lazylib(\.report)?(\.scorecard)? import .*\bscorecard\b"
        r"|from lazylib\.report\.scorecard import|import lazylib\.report\.scorecard)"
    )
    return re.search(pattern, path.read_text(encoding="utf-8"), flags=re.M) is not None


def summary(cells: pd.DataFrame, claims: pd.DataFrame) -> pd.DataFrame:
    """One row per Part: published cells, how many lie inside our band, and the claims per verdict."""
    parts = sorted(set(cells["part"]) | set(claims["part"]), key=_roman)
    rows = []
    for part in parts:
        c, v = cells[cells["part"] == part], claims[claims["part"] == part]
        rows.append(
            {
                "part": part,
                "cells": len(c),
                "inside band": int(c["inside"].sum()),
                **{verdict: int((v["verdict"] == verdict).sum()) for verdict in VERDICTS},
            }
        )
    return pd.DataFrame(rows, columns=["part", "cells", "inside band", *VERDICTS]).set_index("part")


def _roman(numeral: str) -> int:
    values = {"I": 1, "V": 5, "X": 10}
    total = 0
    for a, b in zip(numeral, numeral[1:] + " "):
        total += -values[a] if values.get(b, 0) > values[a] else values[a]
    return total
