"""The layout's import rules, held by a test (the architecture stays visible from the tree):

1. no module outside ``lazylib/metrics`` imports a private module of it (``lazylib.metrics._*``): the engine's
   public fronts are ``lazylib.metrics``, ``lazylib.metrics.extend`` (to define a metric), ``lazylib.encoding``
   and ``lazylib.search``;
2. the reusable library (estimators, metrics, weighting, encoding, search, evaluation) and the reader tools
   (``lazylib.report``) never import ``lazylib.protocols`` (what one Part runs builds on them, not the reverse);
   the command line (``lazylib/cli.py``, ``lazylib/__main__.py``) is the front end that runs them;
3. chapters import only public names (no ``_private`` module or name of lazylib) and read no private attribute
   (``X._name``) of a module or object they import from lazylib;
4. no module of lazylib uses a private name (``_name``) of another module, by import or as an attribute of an
   imported module: a helper two modules share is public where it belongs. A package's private submodules
   (``lazylib.metrics._engine``) are names of that package, for its own modules to import;
5. every import names the module that defines the name (no "kept importable from here" re-exports), in the
   library, the tests, the benchmarks and the chapters, by import or as an attribute of an imported module; a
   package's ``__init__`` and ``lazylib.metrics.extend`` are the fronts that gather names on purpose;
6. the engine (the modules of :data:`ENGINE_MODULES`) and the search (``lazylib/search.py``) read a metric's
   declaration, never the metric: they import no ``Metric`` (nor ``lazylib.metrics._base``); no module of
   ``lazylib/metrics`` and not ``lazylib/search.py`` imports inside a function or under ``TYPE_CHECKING`` (every
   dependency is a plain import at the top, so the import graph has no hidden circle).
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


#: The command line (``lazylib bench``) is the package's front end: it runs a protocol, as a chapter does.
FRONT_END = (PACKAGE / "cli.py", PACKAGE / "__main__.py")
REUSABLE = [p for p in LIBRARY if not p.is_relative_to(PACKAGE / "protocols") and p not in FRONT_END]


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


def _private_attributes_read(cells) -> list[str]:
    """``X._name`` for every private attribute that the code cells ``cells`` read of a name ``X`` they import from
    lazylib (a module, a class, a function or any other object: ``from lazylib.protocols import howe_cardie as P``
    then ``P._rows``; ``import lazylib.x as y`` then ``y._z``)."""
    from lazylib._book.api_links import python_source

    trees = [ast.parse(python_source(cell)) for cell in cells]
    imported = set()
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "lazylib":
                imported |= {alias.asname or alias.name for alias in node.names}
            elif isinstance(node, ast.Import):
                imported |= {
                    alias.asname or alias.name.split(".")[0]
                    for alias in node.names
                    if alias.name.split(".")[0] == "lazylib"
                }
    return [
        f"{node.value.id}.{node.attr}"
        for tree in trees
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id in imported
        and node.attr.startswith("_")
        and not node.attr.startswith("__")
    ]


NOTEBOOKS = [p for p in CHAPTERS if p.read_text(encoding="utf-8").startswith("---\nfile_format: mystnb")]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT)))
def test_chapters_read_no_private_attribute_of_lazylib(path):
    from lazylib._book.api_links import code_cells

    read = _private_attributes_read(code_cells(path))
    assert not read, f"{path.relative_to(ROOT)} reads private attributes of lazylib: {read}"


def _private_names_used(path: Path, module: str | None = None) -> list[str]:
    """``module._name`` for every private name of another lazylib module that the file at ``path`` imports
    (``from module import _name``) or reads (``module._name`` after ``import module`` / ``from package import
    module``); a private submodule imported from within its own package is allowed."""
    import importlib.util

    tree = ast.parse(path.read_text(encoding="utf-8"))
    module = module or _module_name(path)
    own_package = module.rsplit(".", 1)[0] if path.name != "__init__.py" else module
    modules, found = {}, []

    def is_module(name: str) -> bool:
        try:
            return importlib.util.find_spec(name) is not None
        except ModuleNotFoundError:
            return False

    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("lazylib") and node.level == 0:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                if is_module(full):
                    modules[alias.asname or alias.name] = full
                    if alias.name.startswith("_") and node.module != own_package:
                        found.append(full)
                elif alias.name.startswith("_") and not alias.name.startswith("__"):
                    found.append(full)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("lazylib") and alias.asname:
                    modules[alias.asname] = alias.name
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in modules
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
            and not is_module(f"{modules[node.value.id]}.{node.attr}")
        ):
            found.append(f"{modules[node.value.id]}.{node.attr}")
    return found


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: _module_name(p))
def test_no_module_uses_a_private_name_of_another(path):
    used = _private_names_used(path)
    assert not used, f"{_module_name(path)} uses private names of other modules: {used}"


def test_the_rules_catch_a_violation(tmp_path):
    """The checks can fail: a file importing a private module and a protocol is caught."""
    bad = tmp_path / "bad.py"
    bad.write_text("from lazylib.metrics._engine import Plan\nimport lazylib.protocols.wilson1997.protocol\n")
    imported = _imports(bad)
    assert any(re.match(r"lazylib\.metrics\._", m) for m in imported)
    assert "lazylib.protocols.wilson1997.protocol" in imported
    assert PRIVATE_NAME.findall("from lazylib.metrics import _base\nimport lazylib.metrics._engine")
    other = tmp_path / "other.py"
    other.write_text("from lazylib.weighting.mdw import _numeric_sum\nfrom lazylib import neighbors\nneighbors._x\n")
    used = _private_names_used(other, "lazylib.weighting.other")
    assert used == ["lazylib.weighting.mdw._numeric_sum", "lazylib.neighbors._x"]
    cells = [
        "from lazylib.protocols import howe_cardie as P\nfrom lazylib.report.scorecard import Chapter",
        "import lazylib.weighting as W\nP._rows(1, 2)\nChapter._cells\nW._x\nP.__doc__\nP.fold_rows",
        "other = object()\nother._private",
    ]
    assert sorted(_private_attributes_read(cells)) == ["Chapter._cells", "P._rows", "W._x"]


#: Modules that gather names defined elsewhere on purpose: a package's ``__init__`` is its front (scikit-learn's
#: way), and ``lazylib.metrics.extend`` is the one module a metric defined elsewhere imports.
FRONTS = ("lazylib.metrics.extend",)


def _defines(module: str, name: str) -> bool:
    """Whether ``module`` defines ``name`` itself (or is a front that may gather it): a class or function whose
    ``__module__`` is ``module``, a submodule, or a constant assigned at the module's top level."""
    import importlib
    import inspect

    if module in FRONTS:
        return True
    mod = importlib.import_module(module)
    if hasattr(mod, "__path__") or not hasattr(mod, name):
        return True  # a package's front; a missing name fails at import, elsewhere
    obj = getattr(mod, name)
    if inspect.ismodule(obj):
        return True
    if inspect.isclass(obj) or inspect.isfunction(obj):  # a name from outside lazylib is another project's to place
        return obj.__module__ == module or not obj.__module__.startswith("lazylib")
    tree = ast.parse(Path(mod.__file__).read_text(encoding="utf-8"))
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            return True
        if isinstance(node, ast.ImportFrom) and any((a.asname or a.name) == name for a in node.names):
            return False
    return True


def _borrowed_names(tree: ast.AST) -> list[str]:
    """``module.name (defined in other)`` for every name the code imports from, or reads as an attribute of, a
    lazylib module that does not define it (:func:`_defines`): every import names the module that defines the
    name, so a reader finds each name in one place."""
    import importlib
    import importlib.util

    def is_module(name: str) -> bool:
        try:
            return importlib.util.find_spec(name) is not None
        except ModuleNotFoundError:
            return False

    def where(module: str, name: str) -> str:
        obj = getattr(importlib.import_module(module), name)
        return f"{module}.{name} (defined in {getattr(obj, '__module__', None) or 'another module'})"

    modules, found = {}, []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("lazylib") and node.level == 0:
            for alias in node.names:
                if is_module(f"{node.module}.{alias.name}"):
                    modules[alias.asname or alias.name] = f"{node.module}.{alias.name}"
                elif alias.name != "*" and not _defines(node.module, alias.name):
                    found.append(where(node.module, alias.name))
        elif isinstance(node, ast.Import):
            modules |= {a.asname: a.name for a in node.names if a.name.startswith("lazylib") and a.asname}
    patched = {  # mock.patch.object(module, "name", ...) replaces a name where it is used: that module is right
        id(n)
        for call in ast.walk(tree)
        if isinstance(call, ast.Call) and ast.unparse(call.func).endswith("patch.object")
        for n in ast.walk(call)
    }
    for node in ast.walk(tree):
        if id(node) in patched:
            continue
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in modules:
            module = modules[node.value.id]
            if not is_module(f"{module}.{node.attr}") and not _defines(module, node.attr):
                found.append(where(module, node.attr))
    return sorted(set(found))


SOURCES = sorted(
    p
    for folder in ("lazylib", "tests", "benchmarks")
    for p in (ROOT / folder).rglob("*.py")
    if "fixtures" not in p.parts
)


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_import_names_the_module_that_defines_the_name(path):
    borrowed = _borrowed_names(ast.parse(path.read_text(encoding="utf-8")))
    assert not borrowed, f"{path.relative_to(ROOT)} imports names from a module that only re-exports them: {borrowed}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT)))
def test_chapters_import_each_name_from_the_module_that_defines_it(path):
    from lazylib._book.api_links import code_cells, python_source

    source = "\n".join(python_source(cell) for cell in code_cells(path))
    borrowed = _borrowed_names(ast.parse(source))
    assert not borrowed, f"{path.relative_to(ROOT)} imports names from a module that only re-exports them: {borrowed}"


def test_the_re_export_rule_catches_a_facade():
    """The check can fail: ``vote`` is defined in lazylib.voting, so importing it from lazylib.neighbors, or reading
    it as ``neighbors.vote``, is caught, while a name a module defines, a submodule and a package's front pass."""
    code = (
        "from lazylib.trees import C45Classifier\nfrom lazylib.metrics import HVDM\nfrom lazylib.report import bands\n"
        "from lazylib import neighbors\nneighbors.KNeighborsClassifier\n"
    )
    assert _borrowed_names(ast.parse(code)) == []
    bad = "from lazylib.neighbors import Neighbourhood, TIE_RULES\nfrom lazylib import neighbors\n"
    bad += "neighbors.vote_priority\n"
    assert _borrowed_names(ast.parse(bad)) == [
        "lazylib.neighbors.Neighbourhood (defined in lazylib.voting)",
        "lazylib.neighbors.TIE_RULES (defined in another module)",
        "lazylib.neighbors.vote_priority (defined in lazylib.voting)",
    ]


HEAVY = ("sklearn", "scipy.stats", "pandas")


def _heavy_modules_after(statement: str) -> list[str]:
    """The heavy third-party modules (``HEAVY``) a fresh interpreter holds after running ``statement``."""
    import subprocess
    import sys

    probe = f"import sys\n{statement}\nprint(' '.join(m for m in {HEAVY!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True)
    return out.stdout.split()


def test_import_lazylib_is_light():
    """``import lazylib`` loads no scikit-learn, scipy.stats or pandas: submodules are imported when used."""
    assert _heavy_modules_after("import lazylib") == []


def test_the_light_import_check_can_fail():
    """The probe sees a heavy import: ``lazylib.neighbors`` subclasses scikit-learn's estimators."""
    assert "sklearn" in _heavy_modules_after("import lazylib.neighbors")


#: The engine: the declaration it reads, its plan and its computation (lazylib/metrics/README.md).
ENGINE_MODULES = tuple(PACKAGE / "metrics" / f"_{role}.py" for role in ("declaration", "plan", "engine"))
SEARCH = PACKAGE / "search.py"
#: The names of the metric classes, which the engine and the search never import.
METRIC_CLASSES = ("Metric", "AttributeMetric")


def _metric_imports(tree: ast.AST) -> list[str]:
    """Every import of the metric classes (:data:`METRIC_CLASSES`, from any module) or of the module that
    defines them (``lazylib.metrics._base``), as ``module.name``."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            found += [
                f"{node.module}.{alias.name}"
                for alias in node.names
                if alias.name in METRIC_CLASSES or f"{node.module}.{alias.name}" == "lazylib.metrics._base"
            ]
            if node.module == "lazylib.metrics._base":
                found.append(node.module)
        elif isinstance(node, ast.Import):
            found += [alias.name for alias in node.names if alias.name == "lazylib.metrics._base"]
    return sorted(set(found))


def _hidden_imports(tree: ast.AST) -> list[str]:
    """``line N: ...`` for every import inside a function (or method) and every ``if TYPE_CHECKING:`` block: a
    dependency the module's top does not show."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found += [
                f"line {inner.lineno}: {ast.unparse(inner)} (inside {node.name})"
                for inner in ast.walk(node)
                if isinstance(inner, (ast.Import, ast.ImportFrom))
            ]
        elif isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            found.append(f"line {node.lineno}: if {ast.unparse(node.test)}")
    return sorted(set(found), key=lambda line: int(line.split(":")[0].split()[1]))


@pytest.mark.parametrize("path", [*ENGINE_MODULES, SEARCH], ids=lambda p: _module_name(p))
def test_the_engine_and_the_search_import_no_metric(path):
    imported = _metric_imports(ast.parse(path.read_text(encoding="utf-8")))
    assert not imported, f"{_module_name(path)} imports {imported}: the engine reads the metric's declaration"


HIDDEN_RULE = sorted((PACKAGE / "metrics").rglob("*.py")) + [SEARCH]


@pytest.mark.parametrize("path", HIDDEN_RULE, ids=lambda p: _module_name(p))
def test_no_import_inside_a_function_or_under_type_checking(path):
    hidden = _hidden_imports(ast.parse(path.read_text(encoding="utf-8")))
    assert not hidden, f"{_module_name(path)} imports out of sight of its top: {hidden}"


def test_the_engine_rules_catch_a_violation():
    """The checks can fail: the engine importing the metric class (from its module or a front), a module
    importing inside a function or a method, and a ``TYPE_CHECKING`` block are caught; top-level imports pass."""
    bad = (
        "from typing import TYPE_CHECKING\nfrom lazylib.metrics import Metric\nimport lazylib.metrics._base\n"
        "from lazylib.metrics import _base\nif TYPE_CHECKING:\n    from lazylib.metrics._base import AttributeMetric\n"
        "def f():\n    from lazylib import search\n    return search\n"
        "class C:\n    def g(self):\n        import numpy\n"
    )
    tree = ast.parse(bad)
    assert _metric_imports(tree) == [
        "lazylib.metrics.Metric",
        "lazylib.metrics._base",
        "lazylib.metrics._base.AttributeMetric",
    ]
    assert _hidden_imports(tree) == [
        "line 5: if TYPE_CHECKING",
        "line 8: from lazylib import search (inside f)",
        "line 12: import numpy (inside g)",
    ]
    good = "import numpy as np\nfrom lazylib import search\nfrom lazylib.metrics._declaration import Declaration\n"
    assert _metric_imports(ast.parse(good)) == [] and _hidden_imports(ast.parse(good)) == []
