"""The layout's import rules, held by a test (the architecture stays visible from the tree):

1. no module outside ``lazylib/metrics`` imports a private module of it (``lazylib.metrics._*``): the engine's
   public fronts are ``lazylib.metrics``, ``lazylib.metrics.extend`` (to define a metric), ``lazylib.encoding``
   and ``lazylib.search``;
2. the reusable library (estimators, metrics, weighting, encoding, search, evaluation) and the reader tools
   (``lazylib.report``) never import ``lazylib.protocols`` (what one Part runs builds on them, not the reverse);
3. chapters import only public names (no ``_private`` module or name of lazylib).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "lazylib"


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> list[str]:
    """Every module (and ``module.name`` for ``from module import name``) imported by the file at ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append(node.module)
            found += [f"{node.module}.{alias.name}" for alias in node.names]
    return found


LIBRARY = sorted(p for p in PACKAGE.rglob("*.py") if "_book" not in p.parts)


@pytest.mark.parametrize("path", LIBRARY, ids=lambda p: _module_name(p))
def test_private_metric_modules_are_imported_only_inside_metrics(path):
    if path.is_relative_to(PACKAGE / "metrics"):
        return
    private = [m for m in _imports(path) if re.match(r"lazylib\.metrics\._", m)]
    assert not private, f"{_module_name(path)} imports private modules of lazylib.metrics: {private}"


REUSABLE = [p for p in LIBRARY if not p.is_relative_to(PACKAGE / "protocols")]


@pytest.mark.parametrize("path", REUSABLE, ids=lambda p: _module_name(p))
def test_library_and_report_never_import_a_protocol(path):
    protocols = [m for m in _imports(path) if m == "lazylib.protocols" or m.startswith("lazylib.protocols.")]
    assert not protocols, f"{_module_name(path)} imports {protocols}"


CHAPTERS = sorted((ROOT / "book").rglob("*.md"))
PRIVATE_NAME = re.compile(r"\blazylib(?:\.\w+)*\._\w+|from\s+lazylib[\w.]*\s+import\s+(?:\([^)]*\b_\w+|[^\n]*\b_\w+)")


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: str(p.relative_to(ROOT)))
def test_chapters_import_only_public_names(path):
    text = path.read_text(encoding="utf-8")
    code = "\n".join(re.findall(r"```\{code-cell\}[^\n]*\n(.*?)```", text, flags=re.S))
    hits = PRIVATE_NAME.findall(code)
    assert not hits, f"{path.relative_to(ROOT)} uses private names of lazylib: {hits}"


def test_the_rules_catch_a_violation(tmp_path):
    """The checks can fail: a file importing a private module and a protocol is caught."""
    bad = tmp_path / "bad.py"
    bad.write_text("from lazylib.metrics._engine import Plan\nimport lazylib.protocols.wilson1997\n")
    imported = _imports(bad)
    assert any(re.match(r"lazylib\.metrics\._", m) for m in imported)
    assert "lazylib.protocols.wilson1997" in imported
    assert PRIVATE_NAME.findall("from lazylib.metrics import _base\nimport lazylib.metrics._engine")
