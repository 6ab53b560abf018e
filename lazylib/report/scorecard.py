"""The replication scorecard: every published number beside ours, and every claim with its verdict.

Each chapter that reproduces published numbers or judges a claim registers them here while it executes, and the
book's scorecard appendix, its front page and its Part pages read every chapter's record back. Nothing is typed
twice: the chapter hands over the runs it has just computed and the :class:`~lazylib.report.verdicts.Judgement`
its rule gave.

>>> from lazylib.report.verdicts import judge, share_rule
>>> card = Chapter(part="I", paper="payne1998", chapter="payne1998_vdm/03_uci_table2")
>>> band = card.cell(source="Table 2", cell="zoo / OM", published=96.09, digits=2,
...                  runs=[96.1, 95.8, 96.3, 96.0, 96.2, 95.9, 96.1, 96.0, 96.4, 95.7])
>>> h1 = judge(lambda same: share_rule(same, supported=1.0, partly=0.75),
...            {("random",): [True] * 8, ("all",): [True] * 7 + [False]}, primary=("random",), factors=("ties",))
>>> card.claim(claim="H1: VDM and MVDM perform alike", judgement=h1, evidence="no significant difference")
>>> card.frames()[0][["cell", "published", "reproduced", "inside"]]
       cell  published  reproduced  inside
0  zoo / OM      96.09       96.05    True
>>> card.frames()[1][["verdict", "stability"]].iloc[0].tolist()
['supported', 'supported in 1 of 2 conditions; partly supported under ties=all']

A cell is *inside* when the published value lies in its band (:func:`lazylib.report.verdicts.prediction_band`:
the prediction interval for one new run of our protocol, widened by half a unit of the published last digit).
Every record has a kind (:data:`~lazylib.report.verdicts.KINDS`); only ``"published"`` records count in
:func:`summary`.

Records are JSON files, one per chapter, in :func:`records_dir`: ``$LAZYLIB_SCORECARD_DIR`` if set, else the
``.scorecard`` folder at the root of the book (the nearest folder above the working directory holding
``_toc.yml``), else ``.scorecard`` in the working directory.

A record is only as good as the run that wrote it. Each one carries a fingerprint of what its numbers depend on
(:func:`inputs_fingerprint`: lazylib's sources and data, the published CSVs, the versions of Python and the
numerical libraries) and the sha256 of its chapter's source. Inside a book, :func:`load` shows only the records
of chapters listed in ``_toc.yml`` (a deleted chapter's record is ignored) and refuses, with
:class:`StaleRecords`, records whose fingerprint no longer matches, and chapters that use this module but have
left no record: a scorecard is never drawn from an old run.

Run as ``python -m lazylib.report.scorecard --markdown`` it prints the per-Part headline as a Markdown table
(``--readme README.md`` writes it between the README's scorecard markers).
"""

from __future__ import annotations

import hashlib
import html
import json
import math
import os
import platform
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

import numpy as np
import pandas as pd

from lazylib._validation import Boolean, check
from lazylib.papers import part_of
from lazylib.report.display import frame_html, notes_html, printed
from lazylib.report.verdicts import (
    NOTE_KINDS,
    PERCENT,
    REPORTED,
    VERDICTS,  # noqa: F401  (re-exported: the scorecard page reads scorecard.VERDICTS)
    Band,
    Claim,
    Judgement,
    check_kind,
    prediction_band,
    rounding,
)

CELL_COLUMNS = [
    "part",
    "paper",
    "chapter",
    "source",
    "cell",
    "kind",
    "published",
    "digits",
    "reproduced",
    "low",
    "high",
    "runs",
    "deterministic",
    "band",
    "inside",
    "deviation",
    "values",
    "averaged",
    "bounds",
    "bound_changed",
    "half_width",
    "note_kind",
]
CLAIM_COLUMNS = [
    "part",
    "paper",
    "chapter",
    "claim",
    "kind",
    "verdict",
    "stability",
    "conditions",
    "note",
    "evidence",
    "primary_verdict",
    "counts",
]

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


def toc_parts(root: str | os.PathLike) -> dict[str, str]:
    """Chapter name -> the Roman numeral of its Part, from the ``caption: "Part N. ..."`` lines of ``_toc.yml``."""
    parts, current = {}, None
    for line in (Path(root) / "_toc.yml").read_text(encoding="utf-8").splitlines():
        caption = re.match(r"^\s*-?\s*caption:\s*['\"]?Part\s+([IVX]+)\b", line)
        if caption:
            current = caption.group(1)
        elif re.match(r"^\s*-?\s*caption:", line):
            current = None
        entry = re.match(r"^\s*(?:-\s*)?file:\s*['\"]?([^'\"\s#]+)", line)
        if entry and current:
            parts[entry.group(1).removeprefix("book/").removesuffix(".md")] = current
    return parts


def _number(value, name: str) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number, got {value!r}") from None
    if math.isnan(number):
        raise ValueError(f"{name} is NaN")
    if math.isinf(number):
        raise ValueError(f"{name} must be a finite number, got {number}")
    return number


#: A Roman numeral from I to XXXIX (the book has five Parts and appendices).
_ROMAN = re.compile(r"X{0,3}(IX|IV|V?I{0,3})")


def _check_part(part) -> str:
    if not isinstance(part, str) or not part or not _ROMAN.fullmatch(part):
        raise ValueError(f"part must be a Roman numeral such as 'II', got {part!r}")
    return part


@dataclass
class Chapter:
    """The scorecard record of one chapter: published cells and judged claims.

    Parameters
    ----------
    part : str
        The book Part as a Roman numeral ("I" ... "V").
    paper : str
        The paper's key in :data:`lazylib.papers.PARTS` (e.g. ``"payne1998"``).
    chapter : str
        The chapter's path below ``book/`` without extension (e.g. ``"payne1998_vdm/03_uci_table2"``); it names
        the record file, so a re-executed chapter replaces its own record.
    """

    part: str
    paper: str
    chapter: str
    _cells: list = field(default_factory=list, repr=False)
    _claims: list = field(default_factory=list, repr=False)

    @classmethod
    def here(cls, path: str | os.PathLike | None = None) -> Chapter:
        """The record of the chapter at ``path``: its Part and paper from its folder (:func:`lazylib.papers.part_of`),
        its name from the folder and the file's stem.

        Parameters
        ----------
        path : str or path-like, optional
            The chapter's file. Default: the notebook the kernel runs, named by ``JPY_SESSION_NAME`` (Jupyter
            Server sets it for the kernels JupyterLab starts; ``conftest.py`` under pytest and the book build do
            the same: :func:`lazylib._book.execute_once.session_of`).

        Returns
        -------
        Chapter
            An empty record.

        Raises
        ------
        RuntimeError
            When no path is given and the kernel was not started with one.
        """
        if path is None:
            path = os.environ.get("JPY_SESSION_NAME")
            if not path:
                raise RuntimeError(
                    "Chapter.here() needs the chapter's path: run the chapter through pytest, the book build or "
                    "JupyterLab (which name it in JPY_SESSION_NAME), or pass it"
                )
        path = Path(path)
        paper = part_of(path.parent.name)
        return cls(part=paper.part, paper=paper.key, chapter=f"{path.parent.name}/{path.stem}")

    def __post_init__(self):
        _check_part(self.part)
        if not self.chapter or not self.paper:
            raise ValueError("paper and chapter must be non-empty")

    def cell(
        self,
        *,
        source: str,
        cell: str,
        published,
        runs,
        digits: int,
        kind: str = "published",
        deterministic: bool = False,
        deviation: str = "",
        averaged: int = 1,
        bounds: tuple[float, float] | None = None,
        note_kind: str | None = None,
        proven_max: float | None = None,
        proven_min: float | None = None,
    ) -> Band:
        """Register one published number beside the runs of our protocol; returns its band.

        Parameters
        ----------
        source, cell : str
            Where the number is printed (``"Table 2"``) and which one it is (``"zoo / OM"``).
        published : float
            The printed value.
        runs : array-like of float
            Our protocol's value in each independent repetition (at least 10 where a run costs seconds, at least
            5 elsewhere), or the one value of a deterministic protocol. The reproduced value is their mean; the
            record keeps every value.
        digits : int
            The decimals the paper prints for this value (1 for "68.0"); they widen the band and are kept for
            display.
        kind : str, default "published"
            One of :data:`~lazylib.report.verdicts.KINDS`; only "published" cells count in :func:`summary`
            ("derived" for a number computed from other published numbers, e.g. a reduction from a count).
        deterministic : bool, default False
            The protocol has one possible run (a fixed published split, a worked example).
        deviation : str
            Why ours differs: required for a published-kind cell outside its band (the explanation, or the
            readings tried with their values).
        averaged : int, default 1
            How the paper made its number: 1 for one run, r for the average of r runs (each like one of
            ``runs``); see :func:`~lazylib.report.verdicts.prediction_band`.
        bounds : (float, float), optional
            The range the quantity cannot leave (:data:`~lazylib.report.verdicts.PERCENT` for an accuracy or a
            share): the band is computed on a scale that respects it.
        note_kind : str, optional
            The type of ``deviation`` (:data:`~lazylib.report.verdicts.NOTE_KINDS`): required for a
            published-kind cell outside its band.
        proven_max, proven_min : float, optional
            A bound the book proves for this quantity (a Bayes bound). A published value beyond it by more than
            the rounding is recorded as kind "ruled out", never inside, and ``deviation`` must say which bound.

        Raises
        ------
        ValueError
            A non-numeric or NaN value, an unknown kind or note kind, no runs, or a published-kind cell outside
            its band without a deviation and its note kind.
        """
        name = f"{source} / {cell}"
        published = _number(published, f"published value of {name}")
        check_kind(kind)
        if runs is None or digits is None:
            raise ValueError(
                f"cell {name}: give the runs of our protocol (runs=...) and the printed decimals (digits=...)"
            )
        values = np.atleast_1d(np.asarray(runs, dtype=float))
        band = prediction_band(values, digits=digits, deterministic=deterministic, averaged=averaged, bounds=bounds)
        inside = band.contains(published)
        deviation = str(deviation or "").strip()
        ruled_out = (proven_max is not None and published - rounding(digits) > float(proven_max)) or (
            proven_min is not None and published + rounding(digits) < float(proven_min)
        )
        if ruled_out:
            if kind != "published":
                raise ValueError(f"cell {name}: only a published number can be ruled out by a proven bound")
            if not deviation:
                raise ValueError(f"cell {name}: the published {published:g} lies beyond a proven bound; say which")
            kind, inside, note_kind = "ruled out", False, None
        if note_kind is not None and note_kind not in NOTE_KINDS:
            raise ValueError(f"cell {name}: note_kind must be one of {NOTE_KINDS}, got {note_kind!r}")
        if kind == "published" and not inside and (not deviation or note_kind is None):
            raise ValueError(
                f"cell {name}: the published {published:g} lies outside our band [{band.low:.4g}, {band.high:.4g}]; "
                "say why (deviation=...: the explanation, or the readings tried with their values) and type the "
                f"note (note_kind=..., one of {NOTE_KINDS})"
            )
        self._cells.append(
            {
                "source": str(source),
                "cell": str(cell),
                "kind": kind,
                "published": published,
                "reproduced": band.centre,
                "low": band.low,
                "high": band.high,
                "runs": band.n,
                "deterministic": band.deterministic,
                "band": band.definition,
                "digits": int(digits),
                "inside": bool(inside),
                "deviation": deviation,
                "values": [float(v) for v in values],
                "averaged": band.averaged,
                "bounds": list(band.bounds) if band.bounds is not None else None,
                "bound_changed": band.crossed,
                "half_width": band.half_width,
                "note_kind": note_kind if (kind == "published" and not inside) else None,
            }
        )
        return band

    def cells(self, frame: pd.DataFrame) -> None:
        """Register many cells: one row per cell, the columns named as :meth:`cell`'s parameters (``runs`` a list
        per row)."""
        missing = {"source", "cell", "published"} - set(frame.columns)
        if missing:
            raise ValueError(f"cells() needs the columns {sorted(missing)}")
        for row in frame.to_dict("records"):
            given = {k: v for k, v in row.items() if not (isinstance(v, float) and math.isnan(v)) and v is not None}
            self.cell(**given)

    def claim(
        self,
        *,
        claim: str,
        judgement: Judgement,
        evidence: str = "",
        kind: str = "published",
    ) -> None:
        """Register a claim of the paper with the :class:`~lazylib.report.verdicts.Judgement` our numbers give it.

        ``kind`` says what the claim is (:data:`~lazylib.report.verdicts.KINDS`: a claim true by construction of
        the method is a "property"). A verdict is never typed: it is the output of a rule, judged over every
        condition the chapter shows (:func:`~lazylib.report.verdicts.judge`).
        """
        check_kind(kind)
        if not isinstance(judgement, Judgement):
            raise ValueError(
                f"claim {claim!r}: judgement must be a lazylib.report.verdicts.Judgement (from judge()), "
                f"got {type(judgement).__name__}"
            )
        fields = {
            "verdict": judgement.verdict,
            "stability": judgement.stability,
            "conditions": judgement.n_conditions,
            "note": judgement.note,
        }
        extra = {"primary_verdict": judgement.primary_verdict or judgement.verdict, "counts": judgement.counts}
        self._claims.append({"claim": str(claim), "kind": kind, **fields, "evidence": str(evidence), **extra})

    def judge(
        self, claim: Claim, conditions, *, primary, factors: Iterable[str] | None = None, condition_note: str = ""
    ) -> Judgement:
        """Judge one :class:`~lazylib.report.verdicts.Claim` of a protocol's claim table under every condition and
        register it (its words, kind, verdict and the evidence under the primary condition, followed by
        ``condition_note``); returns the :class:`~lazylib.report.verdicts.Judgement`. The one call every Part's
        claim table goes through."""
        if not isinstance(claim, Claim):
            raise ValueError(f"judge needs a lazylib.report.verdicts.Claim, got {type(claim).__name__}")
        judgement, evidence = claim.judge(conditions, primary=primary, factors=factors)
        self.claim(claim=claim.words, judgement=judgement, evidence=evidence + condition_note, kind=claim.kind)
        return judgement

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
    directory: str | os.PathLike | None = None,
    *,
    book: str | os.PathLike | bool | None = None,
    parts: Iterable[str] | None = None,
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
    parts : iterable of str, optional
        Only these Parts (Roman numerals): their records are loaded and checked, the others' are not (a Part's
        own page can execute after that Part's chapters alone).

    Raises
    ------
    StaleRecords
        Inside a book: a record of a chapter listed in ``_toc.yml`` was written by other sources than the
        current ones (chapter, lazylib, data, published numbers, library versions), or a listed chapter that
        uses ``lazylib.report.scorecard`` has left no record. Records of chapters not in ``_toc.yml`` are ignored.
    """
    folder = Path(directory) if directory is not None else records_dir()
    if directory is not None and not folder.is_dir():
        raise FileNotFoundError(f"directory {str(folder)!r} (the scorecard records) does not exist or is not a folder")
    root = (book_root() if directory is None else None) if book is None or book is True else book or None
    records = [json.loads(path.read_text(encoding="utf-8")) for path in sorted(folder.glob("*.json"))]
    wanted = None if parts is None else {_check_part(p) for p in ([parts] if isinstance(parts, str) else parts)}
    if wanted is not None:
        records = [r for r in records if r["part"] in wanted]
    if root is not None:
        records = _current(records, Path(root), wanted)
    cells, claims = [], []
    for record in records:
        meta = {k: record[k] for k in ("part", "paper", "chapter")}
        cells += [{**meta, **c} for c in record["cells"]]
        claims += [{**meta, **c} for c in record["claims"]]
    return pd.DataFrame(cells, columns=CELL_COLUMNS), pd.DataFrame(claims, columns=CLAIM_COLUMNS)


def _current(records: list[dict], root: Path, parts: set | None = None) -> list[dict]:
    """The records of the chapters in ``root``'s ``_toc.yml``, in its order, checked against the current sources."""
    order = {chapter: i for i, chapter in enumerate(toc_chapters(root))}
    if parts is not None:
        of_part = toc_parts(root)
        order = {c: i for c, i in order.items() if of_part.get(c) in parts}
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
            + "execute them first (make book executes every chapter before the pages that read the records)."
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


#: A page that calls one of these reads the records, so executes after every chapter (see :func:`reads_records`).
READERS = ("load", "headline", "headline_markdown", "check_readme", "summary_figure")


def reads_records(path: str | os.PathLike) -> bool:
    """True for a page that reads the chapters' records (it calls ``scorecard.load``, ``scorecard.headline``...):
    the book executes such pages after every chapter (``lazylib._book.execute_once.execution_order``)."""
    path = Path(path)
    if not path.is_file():
        return False
    pattern = r"\bscorecard\.(" + "|".join(READERS) + r")\("
    return re.search(pattern, path.read_text(encoding="utf-8")) is not None


#: The per-Part counts of :func:`summary`.
SUMMARY_COLUMNS = [
    "published numbers",
    "inside",
    "share inside",
    "within 1 unit",
    "median half-width",
    "ruled out",
    *REPORTED,
    *(f"on our collection: {v}" for v in REPORTED),
    "other records",
]

#: The columns of :func:`details` that say how the bands were made (the scorecard page's first details table).
BAND_DETAILS = [
    "median runs",
    "printed as averages",
    "bands the bound changed",
    "inside decisions the bound changed",
]
#: The columns of :func:`details` that count the outside notes by type and the numbers counted apart (its second).
NOTE_DETAILS = [*(f"notes {k}" for k in NOTE_KINDS), "derived", "ruled out"]
#: The per-Part details of :func:`details`, shown on the scorecard page in two tables (each fits the text column).
DETAILS_COLUMNS = [*BAND_DETAILS, *NOTE_DETAILS]


def unit(row) -> float:
    """The distance counted as "within one unit" of our mean: 1 point for a percentage (a quantity bounded to
    :data:`~lazylib.report.verdicts.PERCENT`), else one unit of the last printed digit."""
    bounds = row["bounds"]
    if isinstance(bounds, (list, tuple)) and tuple(float(b) for b in bounds) == PERCENT:
        return 1.0
    return 10.0 ** -int(row["digits"])


def _published(cells: pd.DataFrame) -> pd.DataFrame:
    """The cells that stand for a published number (the ones ruled out by a proven bound included)."""
    return cells[cells["kind"].isin(["published", "ruled out"])]


def _within(cells: pd.DataFrame) -> pd.Series:
    if cells.empty:
        return pd.Series(dtype=bool)
    return pd.Series(
        [abs(r["published"] - r["reproduced"]) <= unit(r) + 1e-9 for _, r in cells.iterrows()], index=cells.index
    )


def _percent(cells: pd.DataFrame) -> pd.DataFrame:
    mask = [isinstance(b, (list, tuple)) and tuple(map(float, b)) == PERCENT for b in cells["bounds"]]
    return cells.loc[np.asarray(mask, dtype=bool)]


def summary(cells: pd.DataFrame, claims: pd.DataFrame) -> pd.DataFrame:
    """One row per Part: the published numbers (the ones a proven bound rules out included, never inside), how
    many lie inside their band and the share, how many lie within one unit of our mean (:func:`unit`), the median
    half-width of the bands of percentages, the published claims per reported verdict
    (:data:`~lazylib.report.verdicts.REPORTED`), the method claims judged on our collection ("stand-in" claims)
    per verdict, and how many records of the other kinds the Part shows apart."""
    parts = sorted(set(cells["part"]) | set(claims["part"]), key=_roman)
    rows = []
    for part in parts:
        c, v = cells[cells["part"] == part], claims[claims["part"] == part]
        pc, pv, sv = _published(c), v[v["kind"] == "published"], v[v["kind"] == "stand-in"]
        half = _percent(pc)["half_width"].astype(float)
        rows.append(
            {
                "part": part,
                "published numbers": len(pc),
                "inside": int(pc["inside"].sum()),
                "share inside": pc["inside"].mean() if len(pc) else float("nan"),
                "within 1 unit": int(_within(pc).sum()),
                "median half-width": float(half.median()) if len(half) else float("nan"),
                "ruled out": int((pc["kind"] == "ruled out").sum()),
                **{verdict: int((pv["verdict"] == verdict).sum()) for verdict in REPORTED},
                **{f"on our collection: {verdict}": int((sv["verdict"] == verdict).sum()) for verdict in REPORTED},
                "other records": int(len(c) - len(pc) + len(v) - len(pv) - len(sv)),
            }
        )
    return pd.DataFrame(rows, columns=["part", *SUMMARY_COLUMNS]).set_index("part")


def details(cells: pd.DataFrame) -> pd.DataFrame:
    """One row per Part: the median number of runs behind a published number's band, how many published numbers
    were printed as averages of several runs, how many bands the quantity's bounds changed (the interval on the
    linear scale would have crossed a bound) and how many inside/outside decisions that changed, the outside
    notes per type (:data:`~lazylib.report.verdicts.NOTE_KINDS`), the derived numbers and the ruled-out ones."""
    rows = []
    for part in sorted(set(cells["part"]), key=_roman):
        c = cells[cells["part"] == part]
        pc = _published(c)
        recomputed = recompute_bands(pc) if len(pc) else pc.assign(linear_inside=[])
        changed = (recomputed["linear_inside"] != pc["inside"]) & (pc["kind"] == "published")
        rows.append(
            {
                "part": part,
                "median runs": float(pc["runs"].median()) if len(pc) else float("nan"),
                "printed as averages": int((pc["averaged"].fillna(1) > 1).sum()),
                "bands the bound changed": int(pc["bound_changed"].fillna(False).astype(bool).sum()),
                "inside decisions the bound changed": int(changed.sum()),
                **{f"notes {k}": int((pc["note_kind"] == k).sum()) for k in NOTE_KINDS},
                "derived": int((c["kind"] == "derived").sum()),
                "ruled out": int((pc["kind"] == "ruled out").sum()),
            }
        )
    return pd.DataFrame(rows, columns=["part", *DETAILS_COLUMNS]).set_index("part")


def recompute_bands(cells: pd.DataFrame) -> pd.DataFrame:
    """Every cell's band computed again from the run values its record keeps: columns ``low``, ``high``,
    ``inside`` (ruled-out numbers never inside) and ``linear_inside`` (the same band without the bounds), indexed
    like ``cells``. The scorecard page checks them against the recorded bands."""
    rows = []
    for _, r in cells.iterrows():
        bounds = tuple(r["bounds"]) if isinstance(r["bounds"], (list, tuple)) else None
        args = {"digits": int(r["digits"]), "deterministic": bool(r["deterministic"])}
        args["averaged"] = int(r["averaged"]) if pd.notna(r["averaged"]) else 1
        band = prediction_band(r["values"], bounds=bounds, **args)
        linear = prediction_band(r["values"], **args)
        ruled_out = r["kind"] == "ruled out"
        rows.append(
            {
                "low": band.low,
                "high": band.high,
                "inside": band.contains(r["published"]) and not ruled_out,
                "linear_inside": linear.contains(r["published"]) and not ruled_out,
            }
        )
    return pd.DataFrame(rows, index=cells.index, columns=["low", "high", "inside", "linear_inside"])


def _tally(row, prefix: str = "") -> str:
    return " / ".join(str(int(row[f"{prefix}{v}"])) for v in REPORTED)


#: The headline's columns (the README block, the scorecard page and the front page all show them).
HEADLINE_COLUMNS = [
    "published numbers inside their band",
    "within 1 point of our mean",
    "median band half-width (points)",
    "claims: supported / partly / not / not testable / unstable",
    "method claims on our collection",
    "other records",
]


def headline(
    cells: pd.DataFrame, claims: pd.DataFrame, *, parts: Iterable[str] | None = None, total: bool = True
) -> pd.DataFrame:
    """The book's headline, one row per Part (and a total), as display strings (:data:`HEADLINE_COLUMNS`):
    published numbers inside their band over all (numbers a proven bound rules out count, never inside), those
    within one point (or one printed unit) of our mean, the median half-width of the bands of percentages, the
    verdicts of the published claims (supported / partly / not / not testable / unstable), the method claims
    judged on our collection rather than the paper's, and the other records."""
    total = check("total", total, Boolean())
    table = summary(cells, claims)
    if parts is not None:
        table = table.reindex(list(parts), fill_value=0)
        table["median half-width"] = summary(cells, claims)["median half-width"].reindex(table.index)
    if total and len(table) > 1:
        sums = table.drop(columns=["share inside", "median half-width"]).sum().astype(float)
        sums["share inside"] = sums["inside"] / sums["published numbers"] if sums["published numbers"] else np.nan
        half = _percent(_published(cells))["half_width"].astype(float)
        sums["median half-width"] = float(half.median()) if len(half) else np.nan
        table.loc["all"] = sums
    out = pd.DataFrame(index=table.index)
    out[HEADLINE_COLUMNS[0]] = [
        f"{int(r['inside'])} / {int(r['published numbers'])}"
        + (f" ({r['inside'] / r['published numbers']:.0%})" if r["published numbers"] else "")
        + (f"; {int(r['ruled out'])} ruled out by a proven bound" if r["ruled out"] else "")
        for _, r in table.iterrows()
    ]
    out[HEADLINE_COLUMNS[1]] = [
        f"{int(r['within 1 unit'])} ({r['within 1 unit'] / r['published numbers']:.0%})"
        if r["published numbers"]
        else "–"
        for _, r in table.iterrows()
    ]
    out[HEADLINE_COLUMNS[2]] = [
        f"± {r['median half-width']:.1f}" if pd.notna(r["median half-width"]) else "–" for _, r in table.iterrows()
    ]
    out[HEADLINE_COLUMNS[3]] = [_tally(r) for _, r in table.iterrows()]
    out[HEADLINE_COLUMNS[4]] = [_tally(r, "on our collection: ") for _, r in table.iterrows()]
    out[HEADLINE_COLUMNS[5]] = table["other records"].astype(int)
    out.index.name = "Part"
    return out


def headline_markdown(cells: pd.DataFrame, claims: pd.DataFrame, **kwargs) -> str:
    """:func:`headline` as a Markdown table (the README's block)."""
    table = headline(cells, claims, **kwargs).reset_index()
    lines = ["| " + " | ".join(table.columns) + " |", "|" + "---|" * len(table.columns)]
    lines += ["| " + " | ".join(str(v) for v in row) + " |" for row in table.itertuples(index=False)]
    return "\n".join(lines)


#: The README's scorecard block lies between these two lines.
README_MARKERS = (
    "<!-- scorecard:start (python -m lazylib.report.scorecard --readme README.md) -->",
    "<!-- scorecard:end -->",
)


def readme_block(text: str) -> str | None:
    """The text between the README's :data:`README_MARKERS` (``None`` when they are missing)."""
    start, end = README_MARKERS
    if start not in text or end not in text:
        return None
    return text.split(start, 1)[1].split(end, 1)[0].strip()


def write_readme(path: str | os.PathLike, markdown: str) -> bool:
    """Put ``markdown`` between the README's markers; returns whether the file changed."""
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    start, end = README_MARKERS
    if readme_block(text) is None:
        raise ValueError(f"{path} has no scorecard markers: add the two lines {start!r} and {end!r}")
    before, rest = text.split(start, 1)
    after = rest.split(end, 1)[1]
    new = f"{before}{start}\n{markdown.strip()}\n{end}{after}"
    path.write_text(new, encoding="utf-8")
    return new != text


def check_readme(path: str | os.PathLike, cells: pd.DataFrame, claims: pd.DataFrame) -> None:
    """Raise ``AssertionError`` when the README's scorecard block differs from what the records give."""
    expected = headline_markdown(cells, claims)
    found = readme_block(Path(path).read_text(encoding="utf-8"))
    if found != expected.strip():
        raise AssertionError(
            f"the scorecard block of {path} is not what the records give; after executing the book, run "
            f"`python -m lazylib.report.scorecard --readme {Path(path).name}` at the book's root.\nExpected:\n"
            f"{expected}\nFound:\n{found}"
        )


def summary_figure(cells: pd.DataFrame, *, parts: Iterable[str] | None = None, ax=None):
    """Every published-kind number (horizontal) against ours (vertical), one colour per Part: a vertical line
    spans the band, a filled marker lies inside it, an open one outside. Returns the figure."""
    import matplotlib.pyplot as plt

    from lazylib.report import plotting

    if ax is None:
        fig, ax = plt.subplots(figsize=(5.2, 4.4))
    else:
        fig = ax.figure
    shown = cells[cells["kind"] == "published"]
    parts = list(parts) if parts is not None else sorted(set(shown["part"]), key=_roman)
    if shown.empty:
        ax.text(0.5, 0.5, "no published number recorded yet", ha="center", va="center", transform=ax.transAxes)
        return fig
    values = pd.concat([shown["published"], shown["low"], shown["high"]])
    if (values > 0).all() and values.max() / values.min() > 100:
        ax.set_xscale("log")
        ax.set_yscale("log")
    for i, part in enumerate(parts):
        mine = shown[shown["part"] == part]
        if mine.empty:
            continue
        colour = plotting.PALETTE[i % len(plotting.PALETTE)]
        ax.vlines(mine["published"], mine["low"], mine["high"], color=colour, alpha=0.5, lw=1)
        inside = mine["inside"].astype(bool)
        ax.scatter(
            mine.loc[inside, "published"],
            mine.loc[inside, "reproduced"],
            s=18,
            color=colour,
            zorder=3,
            label=f"Part {part} ({int(inside.sum())} of {len(mine)} inside)",
        )
        ax.scatter(
            mine.loc[~inside, "published"],
            mine.loc[~inside, "reproduced"],
            s=18,
            facecolor="white",
            edgecolor=colour,
            zorder=3,
        )
    low, high = values.min(), values.max()
    ax.plot([low, high], [low, high], color=plotting.PUBLISHED, lw=0.8, zorder=1)
    ax.set_xlabel("published number, as the paper prints it (accuracies in %)")
    ax.set_ylabel("ours: mean of our runs (same quantity, same unit)")
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    return fig


def chapter_title(chapter: str, root: str | os.PathLike | None = None) -> str:
    """The first heading (``# ...``) of a chapter's source, as the book's table of contents shows it.

    Parameters
    ----------
    chapter : str
        The chapter's name (path below ``book/``, no extension), as its record names it.
    root : path, optional
        The book's root folder; default :func:`book_root`.

    Returns
    -------
    str
        The heading's text.
    """
    root = Path(root) if root is not None else book_root()
    text = _chapter_file(root, chapter).read_text(encoding="utf-8")
    return re.search(r"^# (.+)$", text, flags=re.M).group(1).strip()


def cells_html(rows: pd.DataFrame) -> str:
    """A chapter's recorded cells (rows of :func:`load`'s first frame) as HTML: one table per source and band
    definition, a row per cell on one line (published, reproduced and band with the decimals the paper printed),
    and the deviations as numbered notes below.

    Parameters
    ----------
    rows : DataFrame
        Cells of one chapter (columns :data:`CELL_COLUMNS`).

    Returns
    -------
    str
        The tables and their notes (the ``kind`` column only where some cell is not of the published kind).
    """
    out = []
    for (source, definition), group in rows.groupby(["source", "band"], sort=False):
        notes, shown = [], []
        for _, r in group.iterrows():
            digits = r["digits"]
            mark = ""
            if r["deviation"]:
                notes.append(r["deviation"])
                mark = f" [{len(notes)}]"
            shown.append(
                {
                    "cell": r["cell"],
                    "kind": r["kind"],
                    "published": printed(r["published"], digits),
                    "reproduced": printed(r["reproduced"], digits),
                    "band": f"{printed(r['low'], digits)} – {printed(r['high'], digits)}",
                    "inside": ("yes" if r["inside"] else "no")
                    + mark
                    + (f" ({r['note_kind']})" if isinstance(r["note_kind"], str) else ""),
                }
            )
        frame = pd.DataFrame(shown)
        if (frame["kind"] == "published").all():
            frame = frame.drop(columns="kind")
        runs = group["runs"].dropna()
        count = f"; {int(runs.iloc[0])} runs" if len(runs) and runs.nunique() == 1 and runs.iloc[0] > 1 else ""
        out.append(
            frame_html(frame, f"{html.escape(source)}. Band: {html.escape(definition)}{count}.") + notes_html(notes)
        )
    return "".join(out)


def claims_html(rows: pd.DataFrame) -> str:
    """A chapter's recorded claims (rows of :func:`load`'s second frame) as HTML: a table of claim, verdict
    (the primary reading's next to an unstable one) and stability, the evidence as numbered notes below.

    Parameters
    ----------
    rows : DataFrame
        Claims of one chapter (columns :data:`CLAIM_COLUMNS`).

    Returns
    -------
    str
        The table and its notes (the ``kind`` column only where some claim is not of the published kind).
    """
    notes = []
    shown = []
    for _, r in rows.iterrows():
        notes.append(r["evidence"] + (f" ({r['note']})" if r["note"] else ""))
        shown.append(
            {
                "claim": r["claim"],
                "kind": r["kind"],
                "verdict": f"{r['verdict']} [{len(notes)}]"
                + (f" (primary: {r['primary_verdict']})" if r["verdict"] == "unstable" else ""),
                "stability": r["stability"],
            }
        )
    frame = pd.DataFrame(shown)
    if (frame["kind"] == "published").all():
        frame = frame.drop(columns="kind")
    return frame_html(frame, "Claims; the evidence for each verdict in the numbered notes.") + notes_html(notes)


def part_html(cells: pd.DataFrame, claims: pd.DataFrame, part: str, root: str | os.PathLike | None = None) -> str:
    """Every recorded number and claim of one Part in a box the reader opens (the scorecard page's Part by
    Part): its title gives the Part's :func:`headline` counts, and each chapter (under its first heading) shows
    its :func:`cells_html` and :func:`claims_html`.

    Parameters
    ----------
    cells, claims : DataFrame
        What :func:`load` returns (every Part's records; this Part's are picked out).
    part : str
        The Part's Roman numeral (its name comes from :data:`lazylib.papers.PARTS`).
    root : path, optional
        The book's root folder, where the chapters' headings are read; default :func:`book_root`.

    Returns
    -------
    str
        A ``<details>`` element.
    """
    mine_cells, mine_claims = cells[cells["part"] == part], claims[claims["part"] == part]
    head = headline(mine_cells, mine_claims, total=False)
    title = f"Part {part}: {part_of(part).heading}"
    if head.empty:
        body = f"<p>Part {part} has not recorded any published number or claim yet.</p>"
    else:
        row = head.iloc[0]
        title += (
            f" (published numbers inside: {row.iloc[0]}; claims supported / partly / not / not testable / "
            f"unstable: {row.iloc[3]}; on our collection: {row.iloc[4]})"
        )
        body = ""
        for chapter in dict.fromkeys([*mine_cells["chapter"], *mine_claims["chapter"]]):
            body += f"<h4>{html.escape(chapter_title(chapter, root))}</h4>"
            rows = mine_cells[mine_cells["chapter"] == chapter]
            if not rows.empty:
                body += cells_html(rows)
            said = mine_claims[mine_claims["chapter"] == chapter]
            if not said.empty:
                body += claims_html(said)
    return f"<details><summary><b>{html.escape(title)}</b></summary>{body}</details>"


def _roman(numeral: str) -> int:
    values = {"I": 1, "V": 5, "X": 10}
    total = 0
    for a, b in zip(numeral, numeral[1:] + " "):
        total += -values[a] if values.get(b, 0) > values[a] else values[a]
    return total


def main(argv: list[str] | None = None) -> int:
    """``python -m lazylib.report.scorecard [--markdown] [--readme README.md]``: the headline from the records."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m lazylib.report.scorecard", description=main.__doc__)
    parser.add_argument("--markdown", action="store_true", help="print the per-Part headline as Markdown")
    parser.add_argument("--readme", help="write the headline between the scorecard markers of this file")
    args = parser.parse_args(argv)
    cells, claims = load()
    markdown = headline_markdown(cells, claims)
    if args.readme:
        changed = write_readme(args.readme, markdown)
        print(f"{args.readme}: {'updated' if changed else 'already current'}")
    if args.markdown or not args.readme:
        print(markdown)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
