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


def test_no_fragment_is_copied_out_in_the_source():
    """A docstring of lazylib uses the placeholder, never a copy of a fragment's entry, so copies cannot drift."""
    from pathlib import Path

    package = Path(lazylib.__file__).parent
    copies = [
        f"{path.relative_to(package)}: {entry[0]!r} (use {{{{{name}}}}})"
        for path in sorted(package.rglob("*.py"))
        if path.name != "_docs.py"
        for name, fragment in FRAGMENTS.items()
        for entry in _entries(fragment)
        if _copies(path.read_text(), entry)
    ]
    assert not copies, f"copies of shared fragments: {copies}"


def test_the_copy_check_finds_a_copy_at_any_indentation():
    entry = _entries(FRAGMENTS["labels"])[0]
    assert (
        _copies("def f():\n    '''S.\n\n        y : array-like of shape (n,)\n            Class labels.\n'''", entry)
        == 1
    )
    assert _copies("        y : array-like of shape (n,)\n            Class labels; required.\n", entry) == 0
