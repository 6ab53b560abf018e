"""Sphinx extension: every number a chapter puts beside the paper's, and every figure of it, links to its record.

A chapter registers each published number it reproduces on a :class:`lazylib.report.scorecard.Chapter`, whose record
file keeps, for each, a stable id, the function that computed our value and the fingerprint of its inputs
(:mod:`lazylib.report.trace`). The scorecard appendix (:data:`SCORECARD`) anchors each record's row at its id and each
chapter's records at its heading (:func:`lazylib.report.trace.chapter_anchor`). As Sphinx reads a chapter that has
a record, this extension adds, once for every page and without the chapter's source saying anything:

* at the end of the page, a note "Where this page's numbers come from" (:func:`records_note`): each source
  (``Table 2``) with its cells, each cell's name a link to its record's row on the scorecard appendix (id, function,
  fingerprint, runs);
* at the end of every figure's caption: "Records: this page's N records", a link to the chapter's records there
  (:func:`link_figures`): a figure draws on the runs those records keep.

A page without a record file (no published number nor claim) is left as it is. The record is read from the records'
folder (:func:`lazylib.report.book_files.records_dir`), which ``make test`` or the book's own execution
(:mod:`lazylib._book.execute_once`) fills before Sphinx reads a page. Only links are added: no printed number moves.
"""

from __future__ import annotations

import json
import posixpath
from pathlib import Path

from docutils import nodes

from lazylib.report.book_files import record_file, records_dir
from lazylib.report.trace import chapter_anchor

#: The scorecard appendix's docname, where the records' anchors are.
SCORECARD = "book/appendix/scorecard"
#: Class of the note added at the end of a page.
CLASS = "page-records"


def chapter_of(docname: str) -> str | None:
    """The chapter name a record uses for the page ``docname`` (its path below ``book/``), or None outside it."""
    return docname.removeprefix("book/") if docname.startswith("book/") else None


def scorecard_uri(docname: str) -> str:
    """The relative address of the scorecard appendix's HTML page from the page ``docname``."""
    return posixpath.relpath(f"{SCORECARD}.html", posixpath.dirname(docname) or ".")


def read_record(folder: str | Path, chapter: str) -> dict | None:
    """The record of ``chapter`` in ``folder`` (a chapter's JSON), or None when it has none or it is unreadable
    (the scorecard appendix itself refuses a damaged or stale record, with the command that renews it)."""
    path = record_file(folder, chapter)
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return record if isinstance(record, dict) and record.get("chapter") == chapter else None


def _link(text: str, uri: str) -> nodes.reference:
    return nodes.reference(text, text, refuri=uri, internal=True)


def records_note(record: dict, uri: str) -> nodes.admonition | None:
    """The note listing a chapter's published numbers, each linked to its record's row at ``uri`` (the scorecard
    appendix's address); None when the record has no cell with an id."""
    cells = [c for c in record.get("cells", []) if isinstance(c.get("id"), str)]
    if not cells:
        return None
    note = nodes.admonition(classes=["note", CLASS])
    title = "Where this page's numbers come from"
    note += nodes.title(title, title)
    intro = nodes.paragraph()
    numbers = f"{len(cells)} number{'s' if len(cells) != 1 else ''}"
    intro += nodes.Text(f"This page puts {numbers} beside the paper's, each a record of the ")
    intro += _link("scorecard", f"{uri}#{chapter_anchor(record['chapter'])}")
    functions = ", ".join(sorted({str(c.get("function")) for c in cells}))
    intro += nodes.Text(
        "; each name below links to its record's row there: its id, its inputs' fingerprint and its runs. Our value "
        f"is {functions} of those runs, which lazylib.report.trace.follow recomputes from the record."
    )
    note += intro
    for source in dict.fromkeys(c["source"] for c in cells):
        line = nodes.paragraph()
        line += nodes.strong(f"{source}: ", f"{source}: ")
        for i, c in enumerate(c for c in cells if c["source"] == source):
            if i:
                line += nodes.Text(", ")
            line += _link(str(c["cell"]), f"{uri}#{c['id']}")
        note += line
    return note


def link_figures(doctree: nodes.Node, record: dict, uri: str) -> int:
    """Append "Records: this page's N records" (a link to the chapter's records at ``uri``) to every figure's
    caption; returns the number of captions extended."""
    count = len(record.get("cells", [])) + len(record.get("claims", []))
    if not count:
        return 0
    extended = 0
    for figure in doctree.findall(nodes.figure):
        caption = next(iter(figure.findall(nodes.caption)), None)
        if caption is None:
            continue
        caption += nodes.Text(" Records: ")
        caption += _link(f"this page's {count} records", f"{uri}#{chapter_anchor(record['chapter'])}")
        caption += nodes.Text(".")
        extended += 1
    return extended


def add_links(doctree: nodes.Node, docname: str, record: dict) -> None:
    """The note at the end of the page's first section and the figures' links, for the page ``docname``."""
    uri = scorecard_uri(docname)
    link_figures(doctree, record, uri)
    note = records_note(record, uri)
    section = next(iter(doctree.findall(nodes.section)), None)
    if note is not None and section is not None:
        section += note


def _on_doctree_read(app, doctree) -> None:
    chapter = chapter_of(app.env.docname)
    if chapter is None or app.env.docname == SCORECARD:
        return
    record = read_record(records_dir(app.srcdir), chapter)
    if record is not None:
        add_links(doctree, app.env.docname, record)


def setup(app):
    app.connect("doctree-read", _on_doctree_read)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
