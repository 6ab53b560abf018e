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

A cell is *inside* when the published value lies in its band (:func:`lazylib.report.bands.prediction_band`:
the prediction interval for one new run of our protocol, widened by half a unit of the published last digit).
Every record has a kind (:data:`~lazylib.report.verdicts.KINDS`); only ``"published"`` records count in
:func:`~lazylib.report.headline.summary`.

Records are JSON files, one per chapter, in :func:`~lazylib.report.book_files.records_dir`: ``$LAZYLIB_SCORECARD_DIR``
if set, else the ``.scorecard`` folder at the root of the book (the nearest folder above the working directory holding
``_toc.yml``), else ``.scorecard`` in the working directory.

A record is only as good as the run that wrote it. Each one carries a fingerprint of what its numbers depend on
(:func:`~lazylib.report.book_files.inputs_fingerprint`: lazylib's sources and data, the published CSVs, the versions of
Python and the numerical libraries) and the sha256 of its chapter's source. Inside a book, :func:`load` shows only the
records of chapters listed in ``_toc.yml`` (a deleted chapter's record is ignored) and refuses, with
:class:`StaleRecords`, records whose fingerprint no longer matches, and chapters that use this module but have left
no record: a scorecard is never drawn from an old run.

The book's files (:mod:`lazylib.report.book_files`), the summaries and the headline
(:mod:`lazylib.report.headline`) and the page's HTML (:mod:`lazylib.report.scorecard_html`) have their own modules,
which the pages import themselves.

Run as ``python -m lazylib.report.scorecard --markdown`` it prints the per-Part headline as a Markdown table
(``--readme README.md`` writes it between the README's scorecard markers).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from lazylib.papers import part_of
from lazylib.report.bands import Band, prediction_band, rounding
from lazylib.report.book_files import (
    book_root,
    chapter_file,
    inputs_fingerprint,
    record_file,
    records_dir,
    toc_chapters,
    toc_parts,
)
from lazylib.report.headline import headline_markdown, write_readme
from lazylib.report.trace import provenance
from lazylib.report.verdicts import (
    FINDING,
    NOTE_KINDS,
    Claim,
    Judgement,
    check_kind,
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
    "id",
    "function",
    "fingerprint",
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
    "factors",
]


class StaleRecords(RuntimeError):
    """Some records do not come from the current sources, or some chapters have not left theirs."""


def _sha256(path: Path) -> str | None:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None


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
            One of :data:`~lazylib.report.verdicts.KINDS`; only "published" cells count in
            :func:`~lazylib.report.headline.summary` ("derived" for a number computed from other published numbers, e.g.
            a reduction from a count).
        deterministic : bool, default False
            The protocol has one possible run (a fixed published split, a worked example).
        deviation : str
            Why ours differs: required for a published-kind cell outside its band (the explanation, or the
            readings tried with their values).
        averaged : int, default 1
            How the paper made its number: 1 for one run, r for the average of r runs (each like one of
            ``runs``); see :func:`~lazylib.report.bands.prediction_band`.
        bounds : (float, float), optional
            The range the quantity cannot leave (:data:`~lazylib.report.bands.PERCENT` for an accuracy or a
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
            A non-numeric or NaN value, a published value outside ``bounds``, a cell this chapter registered
            already, an unknown kind or note kind, no runs, or a published-kind cell outside its band without a
            deviation and its note kind.
        """
        name = f"{source} / {cell}"
        published = _number(published, f"published value of {name}")
        self._refuse_second(source, cell)
        check_kind(kind)
        if runs is None or digits is None:
            raise ValueError(
                f"cell {name}: give the runs of our protocol (runs=...) and the printed decimals (digits=...)"
            )
        values = np.atleast_1d(np.asarray(runs, dtype=float))
        band = prediction_band(values, digits=digits, deterministic=deterministic, averaged=averaged, bounds=bounds)
        if band.bounds is not None and not band.bounds[0] <= published <= band.bounds[1]:
            raise ValueError(
                f"cell {name}: the published value {published:g} lies outside its bounds [{band.bounds[0]:g}, "
                f"{band.bounds[1]:g}]: check the value typed (or the bounds)"
            )
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
        cell_record = {
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
        cell_record.update(provenance({"chapter": self.chapter, **cell_record}))  # id, function, fingerprint
        self._cells.append(cell_record)
        return band

    def _refuse_second(self, source, cell) -> None:
        """Refuse a cell this chapter registered already (a second registration would be counted twice)."""
        if any(c["source"] == str(source) and c["cell"] == str(cell) for c in self._cells):
            raise ValueError(
                f"cell {source} / {cell} is registered twice in chapter {self.chapter}: register each cell once (a "
                "second registration would be counted twice)"
            )

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
        condition the chapter shows (:func:`~lazylib.report.verdicts.judge`). The record keeps the factors of
        those conditions with their levels (``factors``: ``{"ties": ["random", "all", "first"]}``).
        """
        check_kind(kind)
        if not isinstance(judgement, Judgement):
            raise ValueError(
                f"claim {claim!r}: judgement must be a lazylib.report.verdicts.Judgement (from judge()), "
                f"got {type(judgement).__name__}"
            )
        if FINDING in (judgement.verdict, judgement.primary_verdict) and kind != "finding":
            raise ValueError(
                f"claim {claim!r}: the verdict {FINDING!r} labels a descriptive result of the book, which is "
                f"never evidence for a {kind!r} claim: register it with kind='finding', or judge the claim by a test"
            )
        fields = {
            "verdict": judgement.verdict,
            "stability": judgement.stability,
            "conditions": judgement.n_conditions,
            "note": judgement.note,
        }
        extra = {"primary_verdict": judgement.primary_verdict or judgement.verdict, "counts": judgement.counts}
        extra["factors"] = _factors(judgement)
        self._claims.append({"claim": str(claim), "kind": kind, **fields, "evidence": str(evidence), **extra})

    def judge(
        self,
        claim: Claim,
        conditions,
        *,
        primary,
        factors: Iterable[str] | None = None,
        condition_note: str | Callable[[Judgement], str] = "",
    ) -> Judgement:
        """Judge one :class:`~lazylib.report.verdicts.Claim` of a protocol's claim table under every condition and
        register it; the one call every Part's claim table goes through.

        Parameters
        ----------
        claim : Claim
            A row of a protocol's claim table.
        conditions : mapping or iterable of pairs
            Condition -> the facts the claim's rule reads, as for :func:`lazylib.report.verdicts.judge`.
        primary : dict or tuple
            The primary condition.
        factors : sequence of str, optional
            The names of the factors of plain tuple conditions.
        condition_note : str or callable, default ""
            Appended to the evidence under the primary condition: words, or ``condition_note(judgement) -> str``
            for a note computed from this judgement (e.g. ``lambda j: f"; {j.stability}"``), so a claim whose
            evidence names its own stability is judged once.

        Returns
        -------
        Judgement
            The claim's :class:`~lazylib.report.verdicts.Judgement`; the record keeps its words, kind, verdict and
            the evidence followed by the note.

        Examples
        --------
        >>> from lazylib.report.verdicts import share_rule
        >>> c = Claim("k", "All agree", "agreement", "all", rule=lambda a: share_rule(a, supported=1.0, partly=0.5),
        ...           evidence=lambda a: f"{sum(a)} of {len(a)} agree")
        >>> card = Chapter(part="V", paper="howe_cardie", chapter="x")
        >>> j = card.judge(c, {("a",): [True, True], ("b",): [True, False]}, primary=("a",), factors=("reading",),
        ...                condition_note=lambda j: f"; {j.stability}")
        >>> card.frames()[1].loc[0, "evidence"]
        '2 of 2 agree; supported in 1 of 2 conditions; partly supported under reading=b'
        """
        if not isinstance(claim, Claim):
            raise ValueError(f"judge needs a lazylib.report.verdicts.Claim, got {type(claim).__name__}")
        judgement, evidence = claim.judge(conditions, primary=primary, factors=factors)
        note = condition_note(judgement) if callable(condition_note) else condition_note
        self.claim(claim=claim.words, judgement=judgement, evidence=evidence + str(note), kind=claim.kind)
        return judgement

    def frames(self) -> tuple[pd.DataFrame, pd.DataFrame]:
        """This chapter's cells and claims as two DataFrames (columns :data:`CELL_COLUMNS`,
        :data:`CLAIM_COLUMNS`)."""
        meta = {"part": self.part, "paper": self.paper, "chapter": self.chapter}
        cells = pd.DataFrame([{**meta, **c} for c in self._cells], columns=CELL_COLUMNS)
        claims = pd.DataFrame([{**meta, **c} for c in self._claims], columns=CLAIM_COLUMNS)
        return cells, claims

    def save(self, directory: str | os.PathLike | None = None) -> Path:
        """Write the record (replacing this chapter's previous one), stamped with
        :func:`~lazylib.report.book_files.inputs_fingerprint` and the sha256 of the chapter's source when it runs inside
        a book; returns the file written."""
        folder = Path(directory) if directory is not None else records_dir()
        folder.mkdir(parents=True, exist_ok=True)
        path = record_file(folder, self.chapter)
        root = book_root()
        record = {
            "part": self.part,
            "paper": self.paper,
            "chapter": self.chapter,
            "inputs": inputs_fingerprint(root),
            "source": _sha256(chapter_file(root, self.chapter)) if root is not None else None,
            "cells": self._cells,
            "claims": self._claims,
        }
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(record, indent=1, ensure_ascii=False), encoding="utf-8")
        tmp.replace(path)  # whole: a reader never sees half a record
        return path


def _factors(judgement: Judgement) -> dict[str, list[str]]:
    """The factors a verdict was judged under (seed, ties, a reading...) and their levels, as the record keeps them
    (the reproduction report lists them as the readings a Part judged under)."""
    table = judgement.conditions.drop(columns="verdict")
    return {str(name): [str(level) for level in dict.fromkeys(table[name].tolist())] for name in table.columns}


def _read_record(path: Path) -> dict:
    """A chapter's record, or a ValueError naming the file when it is not a record's JSON."""
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise ValueError(f"the scorecard record {path} is damaged ({err}): re-execute its chapter") from None
    if not isinstance(record, dict) or not {"chapter", "cells", "claims"} <= set(record):
        raise ValueError(f"the scorecard record {path} lacks a chapter's fields: re-execute its chapter")
    return record


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
        Where the records are; default :func:`~lazylib.report.book_files.records_dir`.
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
    records = [_read_record(path) for path in sorted(folder.glob("*.json"))]
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
        if r.get("inputs") != inputs or r.get("source") != _sha256(chapter_file(root, r["chapter"]))
    ]
    recorded = {r["chapter"] for r in records}
    missing = [c for c in order if c not in recorded and _uses_scorecard(chapter_file(root, c))]
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


#: A page that calls one of these (``scorecard.load``, the others of :mod:`lazylib.report.headline`) reads the
#: records, so executes after every chapter (see :func:`reads_records`).
READERS = ("load", "headline", "headline_markdown", "check_readme", "summary_figure")


def reads_records(path: str | os.PathLike) -> bool:
    """True for a page that reads the chapters' records (it calls ``scorecard.load``, ``headline.headline``...):
    the book executes such pages after every chapter (``lazylib._book.execute_once.execution_order``)."""
    path = Path(path)
    if not path.is_file():
        return False
    pattern = r"\b(?:scorecard|headline)\.(" + "|".join(READERS) + r")\("
    return re.search(pattern, path.read_text(encoding="utf-8")) is not None


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
