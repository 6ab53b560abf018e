"""A reproduction report per Part, from the chapters' records: scope, claims, published numbers, readings.

Reviewers of reproductions (ReScience C, the ML Reproducibility Challenge) ask the same questions of every paper:
what was reproduced and what was not, claim by claim; where each published number stands; what was easy, what
was difficult, and which unstated readings had to be chosen; how the paper's data and ours differ.
:func:`part_report` answers them for one Part from the records the chapters write
(:mod:`lazylib.report.scorecard`), the same records the scorecard counts, so its counts are the scorecard's
(:meth:`PartReport.counts`; ``tests/unit/test_reproduction.py`` checks them against
:func:`lazylib.report.headline.summary`). What the records do not hold comes from the chapters' own sources (the
items of their "Deviations from the paper" boxes, :func:`lazylib.report.book_files.chapter_deviations`) and from
the typed notes of :mod:`lazylib.report.part_notes`.

**Claims.** A claim's status is its reported verdict read through :data:`STATUS`, one fixed mapping: *supported*
is *reproduced*, *partly supported* is *partly reproduced*, *not supported* is *not reproduced*, *not testable*
stays *not testable*; an *unstable* verdict (the primary reading's verdict is not the most common one over the
conditions) *depends on the reading*, and a descriptive *finding* (a best average rank, no test behind it) is
*described, not tested*. A verdict outside the mapping raises, so a new verdict word cannot be reported silently
under an old status.

**Numbers.** A published number is *inside the band*, *outside* with its typed note (explained, readings tested,
untested: :data:`lazylib.report.verdicts.NOTE_KINDS`), or *ruled out by a proven bound*
(:data:`NUMBER_STATUS`).

>>> from lazylib.report.scorecard import Chapter
>>> from lazylib.report.verdicts import judge, share_rule
>>> card = Chapter(part="I", paper="payne1998", chapter="payne1998_vdm/03_uci_table2")
>>> _ = card.cell(source="Table 2", cell="zoo / OM", published=96.09, digits=2, runs=[96.1, 95.8, 96.3, 96.0, 96.2])
>>> j = judge(lambda same: share_rule(same, supported=1.0, partly=0.5), {("random",): [True, True],
...           ("all",): [True, False]}, primary=("random",), factors=("ties",))
>>> card.claim(claim="H1", judgement=j, evidence="2 of 2")
>>> report = part_report(*card.frames(), "I", root=False)
>>> report.claims[["claim", "status"]].values.tolist()
[['H1', 'reproduced']]
>>> report.numbers["status"].tolist()
['inside the band']
>>> report.readings[["reading", "how"]].values.tolist()
[['ties', 'judged under random, all (1 claim)']]
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from lazylib._validation import Boolean, check
from lazylib.papers import PARTS, Paper, part_of
from lazylib.report.book_files import book_root, chapter_deviations, chapter_title, toc_chapters, toc_parts
from lazylib.report.headline import SUMMARY_COLUMNS, summary
from lazylib.report.part_notes import PartNotes, notes_of
from lazylib.report.verdicts import NOTE_KINDS

#: A claim's reported verdict -> its status in the reproduction report. Every verdict the scorecard can report
#: (:data:`lazylib.report.verdicts.REPORTED`) has one; ``"finding"`` is the verdict of a descriptive claim (a best
#: average rank with no test behind it) where the verdict rules give it.
STATUS: dict[str, str] = {
    "supported": "reproduced",
    "partly supported": "partly reproduced",
    "not supported": "not reproduced",
    "not testable": "not testable",
    "unstable": "depends on the reading",
    "finding": "described, not tested",
}

#: The statuses of claims, in the report's order.
STATUSES: tuple[str, ...] = tuple(STATUS.values())

#: A published number's note type (:data:`lazylib.report.verdicts.NOTE_KINDS`) -> its status when outside.
OUTSIDE = {"explained": "outside, explained", "tested": "outside, readings tested", "untested": "outside, untested"}

#: The statuses of published numbers, in the report's order.
NUMBER_STATUS: tuple[str, ...] = ("inside the band", *OUTSIDE.values(), "ruled out by a proven bound")

#: How a claim record's kind is counted: as the paper's evidence, on our collection (a stand-in), or apart.
COUNTED = {"published": "the paper's claim", "stand-in": "on our collection"}

#: The columns of a report's claims (its ``claims`` attribute).
CLAIM_REPORT = ["chapter", "claim", "counted as", "status", "verdict", "evidence", "stability"]
#: The columns of a report's published numbers (its ``numbers`` attribute).
NUMBER_REPORT = ["chapter", "source", "cell", "published", "reproduced", "low", "high", "status", "note"]
#: The columns of a report's readings (its ``readings`` attribute).
READING_REPORT = ["reading", "chapter", "how"]


def claim_status(verdict: str) -> str:
    """The reproduction status of a claim's reported verdict (:data:`STATUS`).

    Parameters
    ----------
    verdict : str
        The verdict as the scorecard reports it (one of :data:`lazylib.report.verdicts.REPORTED`).

    Returns
    -------
    str
        One of :data:`STATUSES`.

    Raises
    ------
    ValueError
        For a verdict the mapping does not name: a new verdict word needs its status in :data:`STATUS`.

    Examples
    --------
    >>> claim_status("partly supported")
    'partly reproduced'
    """
    try:
        return STATUS[str(verdict)]
    except KeyError:
        raise ValueError(
            f"verdict {verdict!r} has no reproduction status: add it to lazylib.report.reproduction.STATUS "
            f"(it maps {sorted(STATUS)})"
        ) from None


def number_status(kind: str, inside: bool, note_kind: str | None) -> str:
    """The status of one published number's record (:data:`NUMBER_STATUS`).

    Parameters
    ----------
    kind : str
        The record's kind: ``"published"`` or ``"ruled out"``.
    inside : bool
        Whether the published value lies in its band.
    note_kind : str or None
        The type of the note of a number outside its band (:data:`lazylib.report.verdicts.NOTE_KINDS`).

    Returns
    -------
    str
        One of :data:`NUMBER_STATUS`.

    Raises
    ------
    ValueError
        For another kind, or an outside published number without a known note type.

    Examples
    --------
    >>> number_status("published", False, "tested")
    'outside, readings tested'
    """
    inside = check("inside", inside, Boolean())
    if kind == "ruled out":
        return NUMBER_STATUS[-1]
    if kind != "published":
        raise ValueError(f"only published and ruled-out numbers have a status, got kind {kind!r}")
    if inside:
        return NUMBER_STATUS[0]
    if note_kind not in OUTSIDE:
        raise ValueError(f"a published number outside its band needs a note type of {NOTE_KINDS}, got {note_kind!r}")
    return OUTSIDE[note_kind]


@dataclass(frozen=True)
class PartReport:
    """One Part's reproduction report (:func:`part_report`).

    Attributes
    ----------
    paper : Paper
        The Part's entry of :data:`lazylib.papers.PARTS`.
    chapters : DataFrame
        Its chapters in the book's order: ``chapter``, ``title``, ``published numbers``, ``inside``, ``claims``.
    claims : DataFrame
        Every judged claim (columns :data:`CLAIM_REPORT`).
    numbers : DataFrame
        Every published number (columns :data:`NUMBER_REPORT`).
    readings : DataFrame
        Every reading the Part judged its claims under (from the records) and every deviation its chapters state
        (columns :data:`READING_REPORT`).
    notes : PartNotes
        What was easy, what was difficult, how the data differ (:mod:`lazylib.report.part_notes`).
    other_records : int
        The records of other kinds (constructed examples, stand-in numbers, properties, findings, derived numbers).
    """

    paper: Paper
    chapters: pd.DataFrame
    claims: pd.DataFrame
    numbers: pd.DataFrame
    readings: pd.DataFrame
    notes: PartNotes
    other_records: int

    def claim_counts(self) -> pd.DataFrame:
        """Claims per status (columns :data:`STATUSES`), one row per way of counting (:data:`COUNTED`, then the
        other kinds)."""
        order = [*COUNTED.values(), *sorted(set(self.claims["counted as"]) - set(COUNTED.values()))]
        return _crosstab(self.claims, "counted as", order, STATUSES)

    def number_counts(self) -> pd.DataFrame:
        """Published numbers per status (columns :data:`NUMBER_STATUS`), one row per source (table or figure)."""
        return _crosstab(self.numbers, "source", list(dict.fromkeys(self.numbers["source"])), NUMBER_STATUS)

    def counts(self) -> pd.Series:
        """The report's totals under the scorecard's names (:data:`lazylib.report.headline.SUMMARY_COLUMNS`):
        published numbers, inside, ruled out, the paper's claims and the claims on our collection per reported
        verdict, other records."""
        numbers = self.numbers["status"]
        out = {
            "published numbers": len(numbers),
            "inside": int((numbers == NUMBER_STATUS[0]).sum()),
            "ruled out": int((numbers == NUMBER_STATUS[-1]).sum()),
        }
        claims = self.claim_counts()
        for verdict, status in STATUS.items():
            out[verdict] = int(claims.loc[COUNTED["published"], status])
            out[f"on our collection: {verdict}"] = int(claims.loc[COUNTED["stand-in"], status])
        out["other records"] = self.other_records
        return pd.Series(out, name=self.paper.part)

    def scope_markdown(self) -> str:
        """The paper, its question and the Part's chapters with their counts, as Markdown."""
        p = self.paper
        head = f"**{p.label}**, *{p.title}*" if p.citation else f"**{p.heading}**"
        lines = [f"{head}. {p.question}", "", "| chapter | published numbers inside | claims judged |", "|---|---|---|"]
        for _, title, numbers, inside, claims in self.chapters.itertuples(index=False, name=None):
            lines.append(f"| {title} | {inside} of {numbers} | {claims} |")
        return "\n".join(lines)

    def notes_markdown(self) -> str:
        """What was easy, what was difficult, and how the data differ, as Markdown (each item with its chapter)."""
        titles = dict(zip(self.chapters["chapter"].map(lambda c: c.split("/")[-1]), self.chapters["title"]))

        def items(notes):
            return [f"- {n.text} ({titles.get(n.chapter, n.chapter)})" for n in notes]

        return "\n".join(
            ["**Easy.**", "", *items(self.notes.easy), "", "**Difficult.**", "", *items(self.notes.difficult)]
            + ["", f"**Data.** {self.notes.data}"]
        )


def _crosstab(frame: pd.DataFrame, rows: str, order: list, statuses) -> pd.DataFrame:
    """How many rows of ``frame`` have each status, per value of its column ``rows`` (zeros where none)."""
    table = pd.DataFrame(0, index=pd.Index(order, name=rows), columns=list(statuses))
    for (row, status), n in frame.groupby([rows, "status"]).size().items():
        table.loc[row, status] = int(n)
    return table


def part_report(
    cells: pd.DataFrame,
    claims: pd.DataFrame,
    part: str,
    *,
    root: str | os.PathLike | bool | None = None,
) -> PartReport:
    """The reproduction report of one Part, from the scorecard's records.

    Parameters
    ----------
    cells, claims : DataFrame
        The records as :func:`lazylib.report.scorecard.load` returns them (every Part's, or this Part's).
    part : str
        The Part: its Roman numeral, key or folder (:func:`lazylib.papers.part_of`).
    root : path or bool, optional
        The book's root folder, for the chapters' titles and deviations; default the book around the working
        directory; ``False`` for none (the chapters are then the records' alone, without titles or deviations).

    Returns
    -------
    PartReport
        Its scope, claims, numbers, readings and notes.

    Raises
    ------
    ValueError
        For an unknown Part, or a record whose verdict or number has no status (:func:`claim_status`,
        :func:`number_status`).
    """
    paper = part_of(part)
    root = (book_root() if root is None or root is True else Path(root)) if root is not False else None
    cells = cells[cells["part"] == paper.part]
    claims = claims[claims["part"] == paper.part]
    published = cells[cells["kind"].isin(["published", "ruled out"])]
    numbers = _numbers(published)
    judged = _claims(claims)
    chapters = _chapters(paper, root, cells, claims, numbers)
    other = len(cells) - len(published) + int((~claims["kind"].isin(list(COUNTED))).sum())
    readings = _readings(claims, chapters, root)
    titles = dict(zip(chapters["chapter"], chapters["title"]))
    for frame in (judged, numbers):
        frame["chapter"] = frame["chapter"].map(lambda c: titles.get(c, c))
    return PartReport(paper, chapters, judged, numbers, readings, notes_of(paper.part), int(other))


#: The columns of :func:`lazylib.report.headline.summary` that :meth:`PartReport.counts` gives too (the others
#: are shares and widths, not counts).
SHARED = [c for c in SUMMARY_COLUMNS if c not in ("share inside", "within 1 unit", "median half-width")]


def differences(report: PartReport, cells: pd.DataFrame, claims: pd.DataFrame) -> dict[str, tuple[int, int]]:
    """Where the report's counts differ from the scorecard's on the same records: column -> (report, scorecard).

    Parameters
    ----------
    report : PartReport
        A Part's report.
    cells, claims : DataFrame
        The records it was made from.

    Returns
    -------
    dict
        Empty when every count of :data:`SHARED` agrees (a Part page asserts it).
    """
    counted = summary(cells, claims)
    expected = counted.loc[report.paper.part] if report.paper.part in counted.index else pd.Series(0, index=SHARED)
    mine = report.counts()
    return {c: (int(mine[c]), int(expected[c])) for c in SHARED if int(mine[c]) != int(expected[c])}


def _numbers(published: pd.DataFrame) -> pd.DataFrame:
    rows = [
        {
            **{k: r[k] for k in ("chapter", "source", "cell", "published", "reproduced", "low", "high")},
            "status": number_status(r["kind"], r["inside"], r["note_kind"] if pd.notna(r["note_kind"]) else None),
            "note": r["deviation"] or "",
        }
        for _, r in published.iterrows()
    ]
    return pd.DataFrame(rows, columns=NUMBER_REPORT)


def _claims(claims: pd.DataFrame) -> pd.DataFrame:
    rows = [
        {
            "chapter": r["chapter"],
            "claim": r["claim"],
            "counted as": COUNTED.get(r["kind"], r["kind"]),
            "status": claim_status(r["verdict"]),
            "verdict": r["verdict"],
            "evidence": r["evidence"],
            "stability": r["stability"],
        }
        for _, r in claims.iterrows()
    ]
    return pd.DataFrame(rows, columns=CLAIM_REPORT)


def _chapters(paper: Paper, root, cells, claims, numbers) -> pd.DataFrame:
    """The Part's chapters (its index page left out): from the book's table of contents when there is a book, else
    those of the records."""
    if root is not None:
        of_part = toc_parts(root)
        names = [c for c in toc_chapters(root) if of_part.get(c) == paper.part and not c.endswith("/index")]
    else:
        names = list(dict.fromkeys([*cells["chapter"], *claims["chapter"]]))
    rows = [
        {
            "chapter": name,
            "title": chapter_title(name, root) if root is not None else name,
            "published numbers": int((numbers["chapter"] == name).sum()),
            "inside": int(((numbers["chapter"] == name) & (numbers["status"] == NUMBER_STATUS[0])).sum()),
            "claims": int((claims["chapter"] == name).sum()),
        }
        for name in names
    ]
    return pd.DataFrame(rows, columns=["chapter", "title", "published numbers", "inside", "claims"])


def _readings(claims: pd.DataFrame, chapters: pd.DataFrame, root) -> pd.DataFrame:
    """The factors the records judged claims under (with their levels), then each chapter's stated deviations."""
    titles = dict(zip(chapters["chapter"], chapters["title"]))
    judged: dict[tuple[str, str], tuple[dict, int]] = {}
    for _, r in claims.iterrows():
        factors = r["factors"] if isinstance(r["factors"], dict) else {}
        for name, levels in factors.items():
            seen, n = judged.get((name, r["chapter"]), ({}, 0))
            judged[(name, r["chapter"])] = ({**seen, **dict.fromkeys(levels)}, n + 1)
    rows = [
        {"reading": name, "chapter": titles.get(chapter, chapter), "how": _judged_under(list(levels), n)}
        for (name, chapter), (levels, n) in judged.items()
    ]
    if root is not None:
        for chapter in chapters["chapter"]:
            rows += [
                {"reading": item, "chapter": titles[chapter], "how": "stated in its deviations"}
                for item in chapter_deviations(chapter, root)
            ]
    return pd.DataFrame(rows, columns=READING_REPORT)


def _judged_under(levels: list[str], claims: int) -> str:
    shown = ", ".join(levels) if len(levels) <= 6 else f"{len(levels)} levels ({', '.join(levels[:3])}, ...)"
    return f"judged under {shown} ({claims} claim{'s' if claims != 1 else ''})"


def intro_links() -> str:
    """The front page's line linking every Part's reproduction report (MyST Markdown; ``book/intro.md`` holds it,
    ``tests/unit/test_reproduction.py`` checks)."""
    links = ", ".join(f"{{ref}}`Part {p.part} <report-{p.key}>`" for p in PARTS)
    return f"Each Part's reproduction report, claim by claim and number by number: {links}."
