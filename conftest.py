"""Let plain ``pytest`` execute every book chapter through nbval.

Chapters are jupytext MyST-Markdown notebooks (``book/**/*.md`` whose front matter has a ``kernelspec``); no
``.ipynb`` is committed. nbval reads notebooks with ``nbformat.read``; here that reader also accepts the
Markdown chapters by handing them to jupytext, and the collection hook below offers them to nbval.
"""

from __future__ import annotations

from pathlib import Path

import jupytext
import nbformat
import nbval.plugin

ROOT = Path(__file__).parent
BOOK = ROOT / "book"


def is_chapter(path: Path) -> bool:
    """True for a Markdown file under ``book/`` that jupytext reads as a notebook (it declares a kernel)."""
    if path.suffix != ".md" or BOOK not in path.resolve().parents:
        return False
    head = path.read_text(encoding="utf-8")[:2000]
    return head.startswith("---") and "kernelspec:" in head.split("\n---", 1)[0]


class _NotebookReader:
    """``nbformat`` as nbval sees it, reading MyST chapters through jupytext."""

    def __getattr__(self, name):
        return getattr(nbformat, name)

    @staticmethod
    def read(fp, as_version, **kwargs):
        if str(fp).endswith(".md"):
            return jupytext.read(fp, fmt="md:myst")
        return nbformat.read(fp, as_version, **kwargs)


nbval.plugin.nbformat = _NotebookReader()


def pytest_collect_file(file_path: Path, parent):
    if is_chapter(file_path) and (parent.config.option.nbval or parent.config.option.nbval_lax):
        return nbval.plugin.IPyNbFile.from_parent(parent, path=file_path)
    return None
