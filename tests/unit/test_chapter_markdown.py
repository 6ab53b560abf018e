"""Nothing a chapter says is silently dropped by MyST: no prose line starts with ``%`` (MyST reads it as a comment
and leaves it off the page) and every ``{glue:text}`` names a key one of the page's cells glues (an unknown key is
only a warning in some myst-nb versions, and an empty span on the page)."""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import jupytext
import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted((ROOT / "book").rglob("*.md"))

#: Fenced blocks whose content is not Markdown (code, maths, included files, raw output): a ``%`` there is code.
NOT_PROSE = re.compile(r"^$|^[\w+-]+$|^\{(code-cell|code-block|code|math|literalinclude|eval-rst|raw|bibliography)\}")
FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,}|:{3,})\s*(.*)$")
ROLE = re.compile(r"\{glue(?::\w+)?\}`([^`]+)`")
DIRECTIVE = re.compile(r"^\s{0,3}(?:`{3,}|:{3,})\{glue(?::\w+)?\}\s+(\S+)", re.MULTILINE)


def prose_lines(text: str):
    """(line number, line) of every line MyST parses as Markdown: outside front matter, fenced code, maths."""
    lines, stack, in_math = text.split("\n"), [], False
    start = lines.index("---", 1) + 1 if lines and lines[0] == "---" else 0
    for number, line in enumerate(lines[start:], start + 1):
        fence = FENCE.match(line)
        if in_math:
            in_math = line.strip() != "$$" and not line.rstrip().endswith("$$")
        elif stack and fence and fence.group(1)[0] == stack[-1][0][0] and len(fence.group(1)) >= len(stack[-1][0]):
            if not fence.group(2):  # a closing fence
                stack.pop()
            elif stack[-1][1]:  # a directive opening inside Markdown content
                stack.append((fence.group(1), bool(not NOT_PROSE.match(fence.group(2).strip()))))
        elif fence and (not stack or stack[-1][1]):
            stack.append((fence.group(1), bool(not NOT_PROSE.match(fence.group(2).strip()))))
        elif not stack or stack[-1][1]:
            if line.strip().startswith("$$") and line.strip().count("$$") == 1:
                in_math = True
            else:
                yield number, line


def test_the_scanner_sees_prose_and_skips_code_and_maths():
    text = "---\nk: 1\n---\n% a\n```{code-cell} ipython3\n%time x\n```\n$$\n% c\n$$\n:::{note}\n% b\n:::\n"
    assert [line for _, line in prose_lines(text)] == ["% a", "% b", ""]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT / "book")))
def test_no_prose_line_starts_with_a_percent_sign(page):
    bad = [f"{page.name}:{n}: {line}" for n, line in prose_lines(page.read_text()) if line.lstrip().startswith("%")]
    assert not bad, "MyST reads these lines as comments and drops them; re-wrap them:\n" + "\n".join(bad)


def _strings(node: ast.AST, bindings: dict[str, set[str]]) -> set[str]:
    """The string literals in an expression, with those the names in it were bound to."""
    found = set()
    for child in ast.walk(node):
        if isinstance(child, ast.Constant) and isinstance(child.value, str):
            found.add(child.value)
        elif isinstance(child, ast.Name):
            found |= bindings.get(child.id, set())
    return found


@functools.cache
def page_keys(page: Path) -> tuple[set[str], list[re.Pattern]]:
    return glued_keys(page.read_text())


def glued_keys(source: str) -> tuple[set[str], list[re.Pattern]]:
    """The keys a page's code cells pass to ``glue``: literal keys, patterns for f-string keys, and the literal
    strings a name passed as the key was bound to (by a loop over a literal or over a name bound to literals, or an
    assignment). A key computed otherwise (``key.lower()`` of a protocol's claim table) matches any key: the
    build (``-W``, myst-nb warns on an unknown key) is then the check."""
    notebook = jupytext.reads(source, fmt="md:myst")
    cells = "\n".join(
        "\n".join(line for line in cell.source.split("\n") if not line.lstrip().startswith(("%", "!")))
        for cell in notebook.cells
        if cell.cell_type == "code"
    )
    tree, exact, patterns = ast.parse(cells), set(), []
    bindings: dict[str, set[str]] = {}
    for _ in range(3):  # a name bound to another bound name: a few rounds reach every chain in the chapters
        for node in ast.walk(tree):
            if isinstance(node, ast.For | ast.comprehension):
                value, targets = node.iter, [node.target]
            elif isinstance(node, ast.Assign):
                value, targets = node.value, node.targets
            else:
                continue
            for name in (n for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)):
                bindings.setdefault(name.id, set()).update(_strings(value, bindings))
    for node in ast.walk(tree):
        func = getattr(node, "func", None)
        if not (isinstance(node, ast.Call) and getattr(func, "id", getattr(func, "attr", None)) == "glue"):
            continue
        key = node.args[0] if node.args else next(k.value for k in node.keywords if k.arg == "name")
        if isinstance(key, ast.Constant):
            exact.add(key.value)
        elif isinstance(key, ast.JoinedStr):
            parts = [re.escape(p.value) if isinstance(p, ast.Constant) else ".+" for p in key.values]
            patterns.append(re.compile("".join(parts)))
        elif isinstance(key, ast.Name) and bindings.get(key.id):
            exact |= bindings[key.id]
        else:
            patterns.append(re.compile(".+"))
    return exact, patterns


def test_glued_keys_are_read_from_literals_f_strings_and_loops():
    source = '```{code-cell} ipython3\nglue("a", 1)\nfor k, v in [("b", 2)]:\n    glue(k, v)\nglue(f"c_{k}", 3)\n```\n'
    exact, patterns = glued_keys(source)
    assert exact == {"a", "b"} and patterns[0].fullmatch("c_x") and not patterns[0].fullmatch("d_x")


def is_defined(key: str, page: Path) -> bool:
    """Whether ``key`` (``name``, or ``other_page.md::name`` for a key glued on another page) is glued."""
    if "::" in key:
        other, key = key.split("::", 1)
        page = page.parent / other
        if not page.is_file():
            return False
    exact, patterns = page_keys(page.resolve())
    key = key.split(":")[0].strip()  # a format spec after the key
    return key in exact or any(p.fullmatch(key) for p in patterns)


def test_a_key_no_cell_glues_is_reported(tmp_path):
    (tmp_path / "a.md").write_text('```{code-cell} ipython3\nglue("known", 1)\n```\n')
    assert is_defined("known", tmp_path / "a.md") and is_defined("a.md::known:.1f", tmp_path / "b.md")
    assert not is_defined("unknown", tmp_path / "a.md") and not is_defined("c.md::known", tmp_path / "b.md")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT / "book")))
def test_every_glue_reference_names_a_key_the_page_glues(page):
    source = page.read_text()
    unknown = sorted({k for k in ROLE.findall(source) + DIRECTIVE.findall(source) if not is_defined(k, page)})
    assert not unknown, f"{page.name} references glue keys no cell defines: {unknown}"
