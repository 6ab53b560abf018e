"""Sphinx extension: every executed page says how to run it, how long it took, and offers its executed notebook.

* A "Run this chapter" note goes under the title of every page that runs code (on the front page, which opens with
  its results, after them, before its first section): the commands that open it as a notebook (``make lab``) or
  execute it from a terminal, and how long its last execution took. The time is the one myst-nb read from the
  execution cache with the outputs (``exec_data``'s ``runtime``: the seconds the nbval run of ``make test`` or
  :mod:`lazylib._book.execute_once` measured), never a typed number.
* A link to the executed notebook, with the ``download`` attribute (the browser saves it rather than showing its
  JSON): when the build finishes, each executed page's notebook is written into the HTML output
  (``_notebooks/<page>.ipynb``) with the outputs of the execution cache the page shows, so the link works offline,
  from the built folder alone. (myst-nb's own copies in ``_build/jupyter_execute`` carry no outputs when the outputs
  come from the cache, as they always do here.)

The note is added to the doctree as it is read, so no chapter carries it in its source (chapters stay what their
authors wrote). The appendix's execution-time table is myst-nb's own ``nb-exec-table``, from the same data.
"""

from __future__ import annotations

import posixpath
from pathlib import Path

import nbformat
from docutils import nodes

from lazylib._book.times import format_seconds

#: Folder of the executed notebooks inside the HTML output.
NOTEBOOKS = "_notebooks"


def _literal(text: str) -> nodes.literal:
    return nodes.literal(text, text)


def run_note(source: str, notebook_uri: str, runtime: float | None) -> nodes.admonition:
    """The "Run this chapter" admonition of the page whose source is ``source`` (relative to the book root)."""
    note = nodes.admonition(classes=["tip", "run-this-chapter"])
    note += nodes.title("Run this chapter", "Run this chapter")
    opening = nodes.paragraph()
    opening += nodes.Text("As a notebook: ")
    opening += _literal("make lab")
    opening += nodes.Text(" (JupyterLab, with every chapter opening as a notebook), then open ")
    opening += _literal(source)
    opening += nodes.Text(". From a terminal: ")
    opening += _literal(f".venv/bin/pytest --nbval-lax --nbval-current-env {source}")
    opening += nodes.Text(".")
    note += opening
    timing = nodes.paragraph()
    if runtime is not None:
        timing += nodes.Text(
            f"Its last execution, for this build, took {format_seconds(runtime)} on the machine that built it. "
        )
    link = download_link("", refuri=notebook_uri, classes=["download-notebook"])
    link += nodes.Text("Download the executed notebook")
    timing += link
    timing += nodes.Text(" (.ipynb, with the outputs shown here).")
    note += timing
    return note


class download_link(nodes.Inline, nodes.TextElement):  # noqa: N801 (docutils names node classes in lower case)
    """A link the browser saves instead of opening: ``<a download>`` (a notebook's JSON would otherwise open as text
    in the tab)."""


def _visit_download_link(self, node) -> None:
    href = node["refuri"]
    self.body.append(self.starttag(node, "a", "", href=href, download=posixpath.basename(href)))


def _depart_download_link(self, node) -> None:
    self.body.append("</a>")


def _exec_data(env, docname: str):
    from myst_nb.sphinx_ import NbMetadataCollector

    return NbMetadataCollector.get_exec_data(env, docname)


def notebook_uri(docname: str) -> str:
    """Link from the page ``docname`` to its executed notebook in the HTML output."""
    return posixpath.relpath(f"{NOTEBOOKS}/{docname}.ipynb", posixpath.dirname(docname) or ".")


def _add_note(app, doctree) -> None:
    docname = app.env.docname
    data = _exec_data(app.env, docname)
    if not data:
        return  # a page without code: nothing to run
    section = next(iter(doctree.findall(nodes.section)), None)
    if section is None:
        return
    source = Path(app.env.doc2path(docname, base=False)).as_posix()
    note = run_note(source, notebook_uri(docname), data.get("runtime"))
    if docname == app.config.root_doc:  # the front page opens with its results: the note goes before its first section
        first = next((i for i, child in enumerate(section.children) if isinstance(child, nodes.section)), None)
        section.insert(len(section.children) if first is None else first, note)
        return
    title = next((i for i, child in enumerate(section.children) if isinstance(child, nodes.title)), None)
    section.insert(0 if title is None else title + 1, note)


def _write_notebooks(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    from lazylib._book import execute_once

    cache = execute_once.open_cache(Path(app.outdir).parent / ".jupyter_cache")
    for docname in sorted(app.env.found_docs):
        if not _exec_data(app.env, docname):
            continue
        _, executed = cache.merge_match_into_notebook(execute_once.read_notebook(Path(app.env.doc2path(docname))))
        target = Path(app.outdir) / NOTEBOOKS / f"{docname}.ipynb"
        target.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(executed, target)


def setup(app):
    app.add_node(download_link, html=(_visit_download_link, _depart_download_link))
    app.connect("doctree-read", _add_note)
    app.connect("build-finished", _write_notebooks)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
