"""The shared numpydoc fragments (``lazylib/_docs.py``, issue #36 item 4): filled in place at import, indented as
their placeholder, an unknown name refused, and no docstring of lazylib left with a placeholder."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

import lazylib
from lazylib._docs import FRAGMENTS, fill, fill_doc


def test_a_placeholder_line_becomes_the_fragment_indented_as_it():
    doc = "Summary.\n\n    Parameters\n    ----------\n    {{queries}}\n    k : int\n        Neighbours.\n"
    lines = fill(doc).splitlines()
    assert lines[4:6] == ["    " + line for line in FRAGMENTS["queries"].splitlines()]
    assert lines[6:] == ["    k : int", "        Neighbours."]
    assert fill("No placeholder {{here}} in a sentence.") == "No placeholder {{here}} in a sentence."


def test_an_unknown_fragment_is_refused():
    with pytest.raises(KeyError):
        fill("Summary.\n\n    {{no_such_fragment}}\n")


def test_a_class_and_its_methods_are_filled():
    @fill_doc
    class Estimator:
        """Summary.

        Attributes
        ----------
        {{fitted_input}}
        """

        def predict(self, X):
            """Predict.

            Parameters
            ----------
            {{queries}}
            """

    assert "\n        n_features_in_ : int\n            Number of attributes seen in ``fit``." in Estimator.__doc__
    assert "            X : DataFrame or array of shape (n, m)\n" in Estimator.predict.__doc__


def _docstrings():
    for info in pkgutil.walk_packages(lazylib.__path__, "lazylib."):
        module = importlib.import_module(info.name)
        yield info.name, module.__doc__
        for name, obj in vars(module).items():
            if getattr(obj, "__module__", None) != info.name:
                continue
            yield f"{info.name}.{name}", getattr(obj, "__doc__", None)
            if inspect.isclass(obj):
                for attribute, member in vars(obj).items():
                    yield f"{info.name}.{name}.{attribute}", getattr(member, "__doc__", None)


def test_no_docstring_of_lazylib_keeps_a_placeholder():
    import re

    placeholder = re.compile(r"^\s*\{\{\w+\}\}\s*$", flags=re.M)
    left = [name for name, doc in _docstrings() if isinstance(doc, str) and placeholder.search(doc)]
    assert not left, f"placeholders not filled (decorate with lazylib._docs.fill_doc): {left}"


def test_the_tree_shows_the_full_text():
    from lazylib.trees import C45Classifier

    assert FRAGMENTS["fit_types"].splitlines()[1].strip() in C45Classifier.fit.__doc__
    assert "schema_ : lazylib.encoding.Schema" in C45Classifier.__doc__


def _entries(fragment: str) -> list[list[str]]:
    """The entries of a fragment (a ``name : type`` line and its indented description), each as its lines."""
    entries: list[list[str]] = []
    for line in fragment.splitlines():
        if line.startswith(" "):
            entries[-1].append(line.strip())
        else:
            entries.append([line.strip()])
    return entries


def _copies(source: str, entry: list[str]) -> int:
    """How many times ``entry`` is written out in ``source``, at any indentation."""
    lines = [line.strip() for line in source.splitlines()]
    return sum(lines[i : i + len(entry)] == entry for i in range(len(lines)))


def _shown_in_chapters(package) -> dict[str, set[str]]:
    """The functions and methods whose source a chapter shows (``literalinclude`` with ``:pyobject:``), by file of
    the package: ``{"vfi.py": {"VFI5Classifier.fit"}, ...}``."""
    import re
    from pathlib import Path

    shown: dict[str, set[str]] = {}
    book = Path(package).parent / "book"
    pattern = re.compile(r"```\{literalinclude\} [./]*lazylib/(\S+)\n:pyobject: (\S+)")
    for page in book.rglob("*.md"):
        for file, name in pattern.findall(page.read_text(encoding="utf-8")):
            shown.setdefault(file, set()).add(name)
    return shown


def _without_shown(source: str, names: set[str]) -> str:
    """``source`` without the docstrings of the functions ``names`` (``Class.method`` or ``function``)."""
    import ast

    lines = source.splitlines()
    tree = ast.parse(source)
    for node in ast.walk(tree):
        for child in node.body if isinstance(getattr(node, "body", None), list) else []:
            if not isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            name = child.name if isinstance(node, ast.Module) else f"{getattr(node, 'name', '')}.{child.name}"
            if name in names and ast.get_docstring(child) is not None:
                doc = child.body[0]
                lines[doc.lineno - 1 : doc.end_lineno] = [""] * (doc.end_lineno - doc.lineno + 1)
    return "\n".join(lines)


def test_no_fragment_is_copied_out_in_the_source():
    """A docstring of lazylib uses the placeholder, never a copy of a fragment's entry, so copies cannot drift;
    except the docstring of a function a chapter shows as source (a placeholder would show there as it is): it is
    written out, and must read exactly as the placeholders would fill it."""
    from pathlib import Path

    package = Path(lazylib.__file__).parent
    shown = _shown_in_chapters(package)
    copies = [
        f"{path.relative_to(package)}: {entry[0]!r} (use {{{{{name}}}}})"
        for path in sorted(package.rglob("*.py"))
        if path.name != "_docs.py"
        for name, fragment in FRAGMENTS.items()
        for entry in _entries(fragment)
        if _copies(_without_shown(path.read_text(), shown.get(path.relative_to(package).as_posix(), set())), entry)
    ]
    assert not copies, f"copies of shared fragments: {copies}"


@pytest.mark.parametrize("obj", ["lazylib.vfi.VFI5Classifier.fit", "lazylib.subspace.SubspaceMapping.fit"])
def test_a_docstring_a_chapter_shows_reads_as_its_fragments_would(obj):
    """The written-out docstrings of shown functions: putting the placeholders back and filling them gives the
    same text, so they have not drifted from the fragments."""
    module, cls, method = obj.rsplit(".", 2)
    doc = getattr(getattr(importlib.import_module(module), cls), method).__doc__
    assert "{{" not in doc
    used = [name for name, fragment in FRAGMENTS.items() if all(_copies(doc, entry) for entry in _entries(fragment))]
    assert used, f"{obj} writes out no fragment"
    for name in used:
        indent = next(line[: len(line) - len(line.lstrip())] for line in doc.splitlines() if line.strip())
        filled = fill(f"Summary.\n\n{indent}{{{{{name}}}}}\n")
        assert all(line.strip() in [d.strip() for d in doc.splitlines()] for line in filled.splitlines()[2:])


def test_the_shown_functions_are_found():
    from pathlib import Path

    shown = _shown_in_chapters(Path(lazylib.__file__).parent)
    assert "VFI5Classifier.fit" in shown["vfi.py"] and "SubspaceMapping.fit" in shown["subspace.py"]


def test_the_copy_check_finds_a_copy_at_any_indentation():
    entry = _entries(FRAGMENTS["labels"])[0]
    assert (
        _copies("def f():\n    '''S.\n\n        y : array-like of shape (n,)\n            Class labels.\n'''", entry)
        == 1
    )
    assert _copies("        y : array-like of shape (n,)\n            Class labels; required.\n", entry) == 0
