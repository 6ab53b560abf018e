"""Every page of the book opens in JupyterLab as a notebook, and saving it without an edit leaves the file byte for
byte as it was: each page goes through jupytext's contents manager (what ``make lab`` serves, with the repository's
``jupytext.toml``), gets the metadata a running kernel adds (``language_info``), and is saved back.

No server and no kernel start: about 20 s for every page.
"""

from __future__ import annotations

import difflib
import shutil
from pathlib import Path

import pytest

pytest.importorskip("jupyter_server")
from jupytext import TextFileContentsManager  # noqa: E402  (defined only where jupyter_server imports)

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "book").rglob("*.md"))
LANGUAGE_INFO = {"name": "python", "version": "3.11.2", "mimetype": "text/x-python", "file_extension": ".py"}


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """A contents manager over a copy of the book and the repository's jupytext configuration."""
    root = tmp_path_factory.mktemp("lab")
    shutil.copy(ROOT / "jupytext.toml", root / "jupytext.toml")
    shutil.copytree(ROOT / "book", root / "book")
    return TextFileContentsManager(root_dir=str(root)), root


@pytest.mark.parametrize("page", PAGES)
def test_a_page_opens_as_a_notebook_and_saves_unchanged(lab, page):
    manager, root = lab
    before = (root / page).read_text(encoding="utf-8")
    model = manager.get(page, type="notebook")
    assert model["type"] == "notebook" and model["content"]["cells"]
    notebook = model["content"]
    notebook.metadata["language_info"] = LANGUAGE_INFO  # what the lab's kernel adds when it starts
    manager.save({"type": "notebook", "format": "json", "content": notebook}, page)
    after = (root / page).read_text(encoding="utf-8")
    diff = "\n".join(difflib.unified_diff(before.splitlines(), after.splitlines(), "before", "after", lineterm=""))
    assert after == before, f"saving {page} unedited changes it (write it as jupytext does, see jupytext.toml):\n{diff}"


def test_the_check_sees_a_header_jupytext_would_rewrite(lab, tmp_path):
    manager, root = lab
    page = root / "book" / "churn.md"
    kernel = "kernelspec:\n  display_name: Python 3\n  language: python\n  name: python3\n"
    page.write_text(f"---\njupytext:\n  text_representation:\n    format_name: myst\n{kernel}---\n\n# A\n")
    model = manager.get("book/churn.md", type="notebook")
    manager.save({"type": "notebook", "format": "json", "content": model["content"]}, "book/churn.md")
    assert page.read_text() == f"---\n{kernel}---\n\n# A\n"  # the round trip above would fail on this page
