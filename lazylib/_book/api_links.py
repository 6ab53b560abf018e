"""Sphinx extension: each executed page links the ``lazylib`` names its code uses to the API reference.

For every page that is a notebook, the code cells (read exactly as myst-nb reads them for the build) are parsed
with :mod:`ast`, never searched with patterns, and every public ``lazylib`` name the code uses is found:

* ``from lazylib.x import a, b as c`` (the imported names; a submodule imported this way is a module used),
  ``from lazylib.x import *`` (the module's ``__all__``);
* ``import lazylib.x`` and ``import lazylib.x as y``, then ``y.f(...)``, ``y.C`` or ``lazylib.x.f`` in full;
* ``from lazylib.protocols import wilson1997 as ex`` then ``ex.run(...)``: attribute chains are followed through
  modules down to the first name that is not a module (a class's own attributes link to the class).

Names are taken in the order the code first uses them, and grouped by the module they are used from (as the page
imports them: ``from lazylib.metrics import HVDM`` links ``lazylib.metrics.HVDM``). Names with a part starting
with an underscore are skipped. A name rebound by the code (an assignment, a ``for`` or ``with`` target, a
function or class definition, a function's parameter within that function) stops counting from there on.

Limits, by design: only static uses count (``getattr(module, "name")`` or a name reached through a returned object,
``ex.prepare(...).x``, is not seen); control flow is not followed (a rebinding inside an ``if`` is taken as made);
``global`` and ``match`` statements are not modelled.

The page gets one line, "lazylib on this page", at the end of its "Run this chapter" note
(:mod:`lazylib._book.notebooks`), or under its title when it has none. Every entry is a Sphinx cross-reference
(``py:mod`` for a module, ``py:obj`` for the rest) resolved against what autodoc registered on the API reference
(``book/appendix/api.md`` and its pages ``book/appendix/api/*.md``, one per group of modules). When the name as
the page uses it is not registered, the name where the object is defined (``__module__`` and ``__qualname__``) is
tried; when neither is, the build warns (``-n -W`` fails), so a name missing from the reference cannot become a dead
link. A package's entry leaves a member to the public submodule defining it (:func:`_skip_documented_elsewhere`), so
each object is described once.

The other direction: on the API reference's pages, under each module's heading, "Used in:" links the pages whose
line lists that module, in the book's order (the modules as the pages use them: a page importing ``HVDM`` from
``lazylib.metrics`` is listed under ``lazylib.metrics``).
"""

from __future__ import annotations

import ast
import importlib
import types
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from docutils import nodes

PACKAGE = "lazylib"
#: Class of the paragraph added to each page.
CLASS = "lazylib-on-this-page"


@dataclass(frozen=True)
class Use:
    """One public ``lazylib`` name used by a page.

    Attributes
    ----------
    name : str
        The dotted name as the page uses it, e.g. ``"lazylib.metrics.HVDM"``.
    module : str
        The module it is used from (``name`` itself for a module).
    is_module : bool
        Whether ``name`` is a module.
    canonical : str or None
        Where the object is defined, when that differs from ``name`` (tried when ``name`` is not in the reference).
    """

    name: str
    module: str
    is_module: bool
    canonical: str | None = None


def _private(dotted: str) -> bool:
    return any(part.startswith("_") for part in dotted.split("."))


def _import_module(name: str) -> types.ModuleType | None:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def resolve(dotted: str) -> Use | None:
    """What the dotted name ``dotted`` (starting with ``lazylib``) refers to: the longest prefix that is a module,
    then the one name that follows it; ``None`` for a private name.

    A name that does not exist is kept as it is written, so the build reports it rather than dropping it.
    """
    parts = dotted.split(".")
    if parts[0] != PACKAGE:
        raise ValueError(f"not a {PACKAGE} name: {dotted!r}")
    module, obj = parts[0], _import_module(parts[0])
    for part in parts[1:]:
        attribute = getattr(obj, part, None)
        if attribute is None and _import_module(f"{module}.{part}") is not None:  # a submodule not yet imported
            attribute = importlib.import_module(f"{module}.{part}")
        if isinstance(attribute, types.ModuleType):
            module, obj = f"{module}.{part}", attribute
            continue
        name = f"{module}.{part}"
        if _private(name):
            return None
        canonical = None
        if attribute is not None:
            home, qualname = getattr(attribute, "__module__", None), getattr(attribute, "__qualname__", None)
            if isinstance(home, str) and isinstance(qualname, str) and home.split(".")[0] == PACKAGE:
                canonical = f"{home}.{qualname}" if f"{home}.{qualname}" != name else None
        return Use(name, module, False, canonical)
    return None if _private(module) else Use(module, module, True)


def module_all(module: str) -> list[str]:
    """The public names ``from module import *`` binds."""
    mod = importlib.import_module(module)
    names = getattr(mod, "__all__", None)
    if names is None:
        names = [n for n in vars(mod) if not n.startswith("_")]
    return [n for n in names if not n.startswith("_")]


class _Uses(ast.NodeVisitor):
    """Walk code in source order, tracking which local names stand for ``lazylib`` names."""

    def __init__(self):
        self.bound: dict[str, str] = {}  # local name -> dotted lazylib name
        self.found: dict[str, None] = {}  # dotted names in order of first use

    def use(self, dotted: str) -> None:
        self.found.setdefault(dotted, None)

    # -- binding ------------------------------------------------------------------------------------------------
    def unbind(self, name: str) -> None:
        self.bound.pop(name, None)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.name.split(".")[0] != PACKAGE:
                self.unbind(alias.asname or alias.name.split(".")[0])
                continue
            self.use(alias.name)
            if alias.asname:
                self.bound[alias.asname] = alias.name
            else:
                self.bound[PACKAGE] = PACKAGE

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        ours = node.level == 0 and node.module is not None and node.module.split(".")[0] == PACKAGE
        for alias in node.names:
            if alias.name == "*":
                if ours:
                    self.use(node.module)
                    for name in module_all(node.module):
                        self.bound[name] = f"{node.module}.{name}"
                continue
            local = alias.asname or alias.name
            if ours:
                self.bound[local] = f"{node.module}.{alias.name}"
                self.use(self.bound[local])
            else:
                self.unbind(local)

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Load):
            if node.id in self.bound:
                self.use(self.bound[node.id])
        else:
            self.unbind(node.id)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        chain, base = [], node
        while isinstance(base, ast.Attribute):
            chain.append(base.attr)
            base = base.value
        if isinstance(base, ast.Name) and base.id in self.bound and isinstance(node.ctx, ast.Load):
            self.use(".".join([self.bound[base.id], *reversed(chain)]))
            return
        self.generic_visit(node)

    # -- evaluation order: what is read before what is bound ---------------------------------------------------
    def _visit(self, *items) -> None:
        for item in items:
            if isinstance(item, list):
                for x in item:
                    if x is not None:  # a keyword-only parameter without a default
                        self.visit(x)
            elif item is not None:
                self.visit(item)

    def visit_Assign(self, node: ast.Assign) -> None:
        self._visit(node.value, node.targets)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self._visit(node.value)
        if isinstance(node.target, ast.Name):
            if node.target.id in self.bound:
                self.use(self.bound[node.target.id])
            self.unbind(node.target.id)
        else:
            self._visit(node.target)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self._visit(node.annotation, node.value, node.target)

    def visit_For(self, node: ast.For | ast.AsyncFor) -> None:
        self._visit(node.iter, node.target, node.body, node.orelse)

    visit_AsyncFor = visit_For

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        self._visit(node.type)
        if node.name:
            self.unbind(node.name)
        self._visit(node.body)

    # -- scopes ------------------------------------------------------------------------------------------------
    def _in_scope(self, params: Iterable[str], body) -> None:
        outer = dict(self.bound)
        for name in params:
            self.unbind(name)
        self._visit(body)
        self.bound = outer

    @staticmethod
    def _params(args: ast.arguments) -> list[str]:
        every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
        return [a.arg for a in every if a is not None]

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self._visit(node.decorator_list, node.args.defaults, node.args.kw_defaults, node.returns)
        self.unbind(node.name)
        self._in_scope(self._params(node.args), node.body)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self._visit(node.args.defaults, node.args.kw_defaults)
        self._in_scope(self._params(node.args), node.body)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self._visit(node.decorator_list, node.bases, node.keywords)
        self._in_scope([], node.body)
        self.unbind(node.name)

    def _comprehension(self, node, *results) -> None:
        outer = dict(self.bound)
        for generator in node.generators:
            self._visit(generator.iter, generator.target, generator.ifs)
        self._visit(*results)
        self.bound = outer

    def visit_ListComp(self, node):
        self._comprehension(node, node.elt)

    visit_SetComp = visit_GeneratorExp = visit_ListComp

    def visit_DictComp(self, node):
        self._comprehension(node, node.key, node.value)


def python_source(cell: str) -> str:
    """A code cell as Python: IPython's magics and shell escapes turned into the calls IPython makes of them."""
    try:
        from IPython.core.inputtransformer2 import TransformerManager
    except ImportError:  # pragma: no cover - IPython comes with the kernel the book needs
        return cell
    return TransformerManager().transform_cell(cell)


def used_names(cells: Iterable[str]) -> list[Use]:
    """The public ``lazylib`` names the code cells ``cells`` use, in order of first use.

    Raises
    ------
    SyntaxError
        When a cell is not Python (after IPython's magics are translated); its message names the cell.
    """
    visitor = _Uses()
    for number, cell in enumerate(cells, start=1):
        try:
            tree = ast.parse(python_source(cell))
        except SyntaxError as error:
            raise SyntaxError(f"code cell {number} is not Python: {error}") from error
        visitor.visit(tree)
    uses: dict[str, Use] = {}
    for dotted in visitor.found:
        use = resolve(dotted)
        if use is not None:
            uses.setdefault(use.name, use)
    return list(uses.values())


def grouped(uses: list[Use]) -> list[tuple[Use, list[Use]]]:
    """``(module, the names used from it)`` in order of first use of the module or any of its names."""
    groups: dict[str, list[Use]] = {}
    for use in uses:
        members = groups.setdefault(use.module, [])
        if not use.is_module:
            members.append(use)
    return [(Use(module, module, True), members) for module, members in groups.items()]


# -- Sphinx ----------------------------------------------------------------------------------------------------


def _xref(use: Use, text: str):
    from sphinx.addnodes import pending_xref

    kind = "mod" if use.is_module else "obj"
    ref = pending_xref(
        "", refdomain="py", reftype=kind, reftarget=use.name, refexplicit=True, refwarn=True, lazylib_use=True
    )
    if use.canonical:
        ref["lazylib_canonical"] = use.canonical
    ref += nodes.literal(text, text, classes=["xref", "py", f"py-{kind}"])
    return ref


def links_paragraph(uses: list[Use]) -> nodes.paragraph:
    """The "lazylib on this page" line: each module used, then the names used from it, as cross-references."""
    line = nodes.paragraph(classes=[CLASS])
    line += nodes.strong("lazylib on this page:", "lazylib on this page:")
    for i, (module, members) in enumerate(grouped(uses)):
        line += nodes.Text(" " if i == 0 else "; ")
        line += _xref(module, module.name)
        if members:
            line += nodes.Text(" (")
            for j, member in enumerate(members):
                if j:
                    line += nodes.Text(", ")
                line += _xref(member, member.name[len(module.name) + 1 :])
            line += nodes.Text(")")
    line += nodes.Text(".")
    return line


def code_cells(path: Path) -> list[str]:
    """The code cells of the page at ``path`` as myst-nb reads them for the build."""
    from lazylib._book import execute_once

    notebook = execute_once.read_notebook(path)
    return [cell.source for cell in notebook.cells if cell.cell_type == "code"]


def _add_links(app, doctree) -> None:
    from sphinx.util import logging

    from lazylib._book import execute_once

    path = Path(app.env.doc2path(app.env.docname))
    if not execute_once.is_notebook(path):
        return
    try:
        uses = used_names(code_cells(path))
    except SyntaxError as error:
        logging.getLogger(__name__).warning(f"lazylib names not linked: {error}", location=app.env.docname)
        return
    if not uses:
        return
    _modules_used(app.env)[app.env.docname] = [module.name for module, _ in grouped(uses)]
    line = links_paragraph(uses)
    note = next(iter(n for n in doctree.findall(nodes.admonition) if "run-this-chapter" in n["classes"]), None)
    if note is not None:
        note += line
        return
    section = next(iter(doctree.findall(nodes.section)), None)
    if section is None:
        return
    title = next((i for i, child in enumerate(section.children) if isinstance(child, nodes.title)), None)
    section.insert(0 if title is None else title + 1, line)


def lookup(dotted: str):
    """The object the dotted name ``dotted`` names (``None`` when it names nothing)."""
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        obj = _import_module(".".join(parts[:i]))
        if obj is not None:
            for part in parts[i:]:
                obj = getattr(obj, part, None)
            return obj
    return None


def _registered_same_object(domain, name: str) -> str | None:
    """A name the reference registers for the very object ``name`` names (a constant a module re-exports has no
    ``__module__`` to say where it is defined)."""
    obj, last = lookup(name), name.rsplit(".", 1)[-1]
    if obj is None:
        return None
    for other, *_ in sorted(domain.objects.items()):
        if other.rsplit(".", 1)[-1] == last and other != name and lookup(other) is obj:
            return other
    return None


def _resolve_elsewhere(app, env, node, contnode):
    """A name as the page uses it that the reference does not register: try where the object is defined, then any
    registered name of the same object; when both fail, say so (even for a target that ``nitpick_ignore_regex``
    would let pass silently). A docstring's reference to a re-exported name (``:class:`lazylib.metrics.HVDM```) is
    resolved the same way, silently (Sphinx itself reports it when nothing matches)."""
    target = node.get("reftarget", "")
    if node.get("refdomain") != "py" or not target.startswith(f"{PACKAGE}."):
        return None
    domain = env.get_domain("py")
    if node.get("lazylib_use"):
        canonical = node.get("lazylib_canonical")
    else:
        use = resolve(target)
        canonical = use.canonical if use is not None else None
    for name in (canonical, _registered_same_object(domain, target)):
        if name:
            found = domain.resolve_xref(env, node["refdoc"], app.builder, node["reftype"], name, node, contnode)
            if found is not None:
                return found
    if not node.get("lazylib_use"):
        return None
    from sphinx.util import logging

    logging.getLogger(__name__).warning(
        f"lazylib name {node['reftarget']!r} used on this page is not in the API reference", location=node
    )
    return None


# -- the reverse direction: under each module of the API reference, the pages that use it ---------------------


def _modules_used(env) -> dict[str, list[str]]:
    """Page -> the modules its code uses (as grouped on its line), kept in the build environment."""
    if not hasattr(env, "lazylib_modules_used"):
        env.lazylib_modules_used = {}
    return env.lazylib_modules_used


def _purge(app, env, docname) -> None:
    _modules_used(env).pop(docname, None)


def _merge(app, env, docnames, other) -> None:
    _modules_used(env).update({d: m for d, m in _modules_used(other).items() if d in docnames})


def book_order(env) -> list[str]:
    """Every page reachable from the root page through the toctrees, in reading order."""
    order, stack = [], [env.config.root_doc]
    while stack:
        doc = stack.pop()
        if doc not in order:
            order.append(doc)
            stack.extend(reversed(env.toctree_includes.get(doc, [])))
    return order


def used_in(env) -> dict[str, list[str]]:
    """Module -> the pages whose code uses it, in the book's order."""
    pages: dict[str, list[str]] = {}
    used = _modules_used(env)
    for doc in book_order(env):
        for module in used.get(doc, ()):
            pages.setdefault(module, []).append(doc)
    return pages


def _add_used_in(app, doctree, docname) -> None:
    """On the page holding the API reference: under each module's heading, the pages that use it."""
    pages = used_in(app.env)
    for section in doctree.findall(nodes.section):
        module = next((i.removeprefix("module-") for i in section["ids"] if i.startswith(f"module-{PACKAGE}")), None)
        if module not in pages:
            continue
        line = nodes.paragraph(classes=["lazylib-used-in"])
        line += nodes.emphasis("Used in:", "Used in:")
        for i, page in enumerate(pages[module]):
            line += nodes.Text(" " if i == 0 else ", ")
            title = app.env.titles[page].astext()
            line += nodes.reference(title, title, internal=True, refuri=app.builder.get_relative_uri(docname, page))
        line += nodes.Text(".")
        title = next((i for i, child in enumerate(section.children) if isinstance(child, nodes.title)), -1)
        section.insert(title + 1, line)


def _read_now(app, env, docnames) -> None:
    app.lazylib_reading = set(docnames)


def _rewrite_reference(app, env) -> list[str]:
    """An incremental build that re-read a page using lazylib writes the reference's "Used in" lines again."""
    reading = getattr(app, "lazylib_reading", set())
    if not reading & set(_modules_used(env)):
        return []
    return sorted({entry.docname for entry in env.get_domain("py").modules.values()} - reading)


# -- the reference itself: a package's entry documents what no public submodule of it documents ------------------


def _skip_documented_elsewhere(app, what, name, obj, skip, options):
    """``autodoc-skip-member``: on a package's entry (``lazylib.metrics``), a member that a public submodule defines
    (``HVDM``, defined in ``lazylib.metrics.heterogeneous``) is left to that submodule's entry, so it is described
    once; a page using it as ``lazylib.metrics.HVDM`` links there through its defining name (see
    :func:`_resolve_elsewhere`). Members defined in the package or in a private module stay on the package's entry."""
    current, home = app.env.temp_data.get("autodoc:module"), getattr(obj, "__module__", None)
    if what != "module" or skip or not isinstance(current, str) or not isinstance(home, str):
        return None
    return True if home.startswith(f"{current}.") and not _private(home) else None


def setup(app):
    # After lazylib._book.notebooks (priority 500) has added the "Run this chapter" note.
    app.connect("doctree-read", _add_links, priority=600)
    app.connect("missing-reference", _resolve_elsewhere)
    app.connect("env-purge-doc", _purge)
    app.connect("env-merge-info", _merge)
    app.connect("env-before-read-docs", _read_now)
    app.connect("env-get-updated", _rewrite_reference)
    app.connect("doctree-resolved", _add_used_in)
    app.setup_extension("sphinx.ext.autodoc")  # its event, whatever the order of the extensions in _config.yml
    app.connect("autodoc-skip-member", _skip_documented_elsewhere)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
