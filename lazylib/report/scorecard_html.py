"""The scorecard page's HTML: one collapsible box per Part, each chapter under its title with its cells and its
claims (:func:`part_html`)."""

from __future__ import annotations

import html
import os

import pandas as pd

from lazylib.papers import part_of
from lazylib.report.book_files import chapter_title
from lazylib.report.display import MISSING, frame_html, notes_html, printed
from lazylib.report.headline import headline
from lazylib.report.trace import chapter_anchor


def cells_html(rows: pd.DataFrame) -> str:
    """A chapter's recorded cells (rows of :func:`~lazylib.report.scorecard.load`'s first frame) as HTML: one table per
    source and band definition, a row per cell on one line (published, reproduced and band with the decimals the paper
    printed),
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
                    RECORD: record_cell(r),
                }
            )
        frame = pd.DataFrame(shown)
        if (frame["kind"] == "published").all():
            frame = frame.drop(columns="kind")
        runs = group["runs"].dropna()
        count = f"; {int(runs.iloc[0])} runs" if len(runs) and runs.nunique() == 1 and runs.iloc[0] > 1 else ""
        caption = f"{html.escape(source)}. Band: {html.escape(definition)}{count}.{_computed_by(group)}"
        out.append(frame_html(frame, caption) + notes_html(notes))
    return "".join(out)


#: The column of :func:`cells_html` naming each cell's record: its id (the row's anchor) and its inputs' fingerprint.
RECORD = "record · inputs"


def record_cell(row) -> str:
    """A cell's record id as the anchor of its row (``<span id=...>``), with the first eight hex digits of its
    inputs' fingerprint (:mod:`lazylib.report.trace`); a dash for a record written before records had ids.

    >>> record_cell({"id": "r-0bfc1ff403", "fingerprint": "5d41402abc4b2a76b9719d911017c592"})
    '<span id="r-0bfc1ff403">r-0bfc1ff403</span> · 5d41402a'
    """
    rid, inputs = row.get("id"), row.get("fingerprint")
    if not isinstance(rid, str) or not isinstance(inputs, str):
        return MISSING
    return f'<span id="{html.escape(rid)}">{html.escape(rid)}</span> · {html.escape(inputs[:8])}'


def _computed_by(group: pd.DataFrame) -> str:
    """The caption's sentence naming the function that computed the reproduced values from the runs."""
    functions = sorted({f for f in group["function"] if isinstance(f, str)})
    if not functions:
        return ""
    return (
        f" Reproduced and band: <code>{'</code>, <code>'.join(html.escape(f) for f in functions)}</code> of the runs."
    )


def claims_html(rows: pd.DataFrame) -> str:
    """A chapter's recorded claims (rows of :func:`~lazylib.report.scorecard.load`'s second frame) as HTML: a table of
    claim, verdict (the primary reading's next to an unstable one) and stability, the evidence as numbered notes below.

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
    Part): its title gives the Part's :func:`~lazylib.report.headline.headline` counts, and each chapter (under its
    first heading) shows its :func:`cells_html` and :func:`claims_html`.

    Parameters
    ----------
    cells, claims : DataFrame
        What :func:`~lazylib.report.scorecard.load` returns (every Part's records; this Part's are picked out).
    part : str
        The Part's Roman numeral (its name comes from :data:`lazylib.papers.PARTS`).
    root : path, optional
        The book's root folder, where the chapters' headings are read; default
        :func:`~lazylib.report.book_files.book_root`.

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
            body += f'<h4 id="{chapter_anchor(chapter)}">{html.escape(chapter_title(chapter, root))}</h4>'
            rows = mine_cells[mine_cells["chapter"] == chapter]
            if not rows.empty:
                body += cells_html(rows)
            said = mine_claims[mine_claims["chapter"] == chapter]
            if not said.empty:
                body += claims_html(said)
    return f"<details><summary><b>{html.escape(title)}</b></summary>{body}</details>{OPEN_LINKED}"


#: A link from a chapter page to a record (``scorecard.html#r-...``) opens the Part's box that holds the record's row
#: and scrolls to it (a closed ``<details>`` hides its anchors); inline, loading nothing.
OPEN_LINKED = (
    "<script>(function(){function o(){var t=location.hash&&document.getElementById(decodeURIComponent("
    "location.hash.slice(1)));if(!t)return;for(var e=t;e;e=e.parentElement)if(e.tagName==='DETAILS')e.open=true;"
    "t.scrollIntoView();}addEventListener('hashchange',o);addEventListener('DOMContentLoaded',o);})();</script>"
)
