"""Chapters import their logic from lazylib: no function or class is defined in a cell the reader cannot see.

A hidden cell (tagged ``remove-cell``, ``remove-input``, ``hide-input`` or ``hide-cell``) that defines a function
holds logic no unit test covers and no reader is shown; it belongs in the library, tested, and is shown where the
text discusses it (``CONTRIBUTING.md``, "Writing a chapter")."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import jupytext
import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted((ROOT / "book").rglob("*.md"))
HIDDEN = {"remove-cell", "remove-input", "hide-input", "hide-cell"}
#: The fallback for a cell ast cannot parse (an IPython magic or shell line).
DEFINITION = re.compile(r"^\s*(?:async\s+def|def|class)\s+(\w+)", re.MULTILINE)


def definitions(source: str) -> list[str]:
    """Names of the functions and classes a cell's code defines, at any depth (lambdas are expressions)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return DEFINITION.findall(source)
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    return [node.name for node in ast.walk(tree) if isinstance(node, kinds)]


def hidden_definitions(page: Path) -> list[tuple[int, list[str]]]:
    """(cell index, names) for every hidden code cell of ``page`` that defines a function or class."""
    notebook = jupytext.read(page, fmt="md:myst")
    found = []
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type == "code" and HIDDEN & set(cell.metadata.get("tags", [])):
            names = definitions(cell.source)
            if names:
                found.append((index, names))
    return found


def test_a_definition_in_a_hidden_cell_is_found_and_a_visible_one_or_a_lambda_is_not(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "---\nfile_format: mystnb\nkernelspec:\n  display_name: Python 3\n  language: python\n  name: python3\n---\n\n"
        "```{code-cell} ipython3\n:tags: [remove-cell]\n\nrule = lambda x: x\n```\n\n"
        "```{code-cell} ipython3\n:tags: [hide-input]\n\n%matplotlib inline\ndef helper():\n    pass\n```\n\n"
        "```{code-cell} ipython3\ndef shown():\n    pass\n```\n\n"
        "```{code-cell} ipython3\n:tags: [remove-input]\n\nif True:\n"
        "    class Inner:\n        def method(self): ...\n```\n"
    )
    assert hidden_definitions(page) == [(1, ["helper"]), (3, ["Inner", "method"])]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT / "book")))
def test_no_hidden_cell_defines_a_function(page):
    assert not hidden_definitions(page), f"{page.name}: functions defined in hidden cells: {hidden_definitions(page)}"
