"""Modules by role, functions in named steps (issue #36 item 3, issue #50 item 1).

A module is one role, and its docstring's first line says which: every module of lazylib has a docstring that
starts on its opening line with that statement, not with where the module's code came from ("moved out of",
"split off", "kept importable from here"): a module is named by what it is, never by what was moved. Its size
is no longer a rule: ruff's complexity caps (``C901``, ``PLR0912``, ``PLR0915`` in ``pyproject.toml``) hold each
function, and a module over 800 lines gets a warning (:class:`ModuleSizeWarning`, shown in pytest's summary, not
a failure) as a prompt to see whether it holds two roles. Lines are counted as ``wc -l`` counts them.

A function (or method, nested or not) that grows past 60 lines of code is split into named steps, as
``datasets/uci/validate_schemas.check`` was. Its lines of code are the lines of its body after its docstring that
hold code: blank lines, comment-only lines, the signature, the decorators and the docstring do not count; every
line of a multi-line statement or string does. A nested function's lines count in the function that holds it too.
There is no allow-list.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "lazylib"
#: Lines past which a module gets a :class:`ModuleSizeWarning` (a prompt to look, not a failure).
WARN_LINES = 800


class ModuleSizeWarning(UserWarning):
    """A module of lazylib is over :data:`WARN_LINES` lines: see whether it holds more than one role."""


def _lines(path: Path) -> int:
    return path.read_bytes().count(b"\n")


MODULES = sorted(PACKAGE.rglob("*.py"))

#: A first line that tells a module's history instead of its role.
HISTORY = re.compile(
    r"\b(moved (out|from|here)|split (off|out|from)|kept importable|formerly|continued from|the rest of)\b", re.I
)


def _role_line_problem(source: str) -> str | None:
    """What is wrong with the role statement of a module with this ``source`` (None: nothing)."""
    tree = ast.parse(source)
    doc = ast.get_docstring(tree, clean=False)
    if doc is None:
        return "has no docstring: its first line states the module's role"
    first = doc.split("\n", 1)[0].strip()
    if not first:
        return "has a docstring whose first line is blank: start it with the module's role"
    if len(first.split()) < 4:
        return f"states its role in too few words ({first!r}): say what the module is for"
    if HISTORY.search(first):
        return f"names its history, not its role ({first!r}): say what the module holds"
    return None


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_every_module_states_its_role_on_its_docstring_s_first_line(path):
    problem = _role_line_problem(path.read_text(encoding="utf-8"))
    assert problem is None, f"lazylib/{path.relative_to(PACKAGE)} {problem}"


def test_the_role_check_can_fail():
    """No docstring, a blank first line, two words and a history all fail; a role statement passes."""
    assert "no docstring" in _role_line_problem("x = 1\n")
    assert "blank" in _role_line_problem('"""\nThe votes among neighbours."""\n')
    assert "too few words" in _role_line_problem('"""Helpers."""\n')
    assert "history" in _role_line_problem('"""What was split off the bench to stay short."""\n')
    assert _role_line_problem('"""Votes among the nearest neighbours under the tie rules."""\n') is None


def _warn_if_long(path: Path, package: Path = PACKAGE) -> None:
    """Warn (:class:`ModuleSizeWarning`) when the module at ``path`` is over :data:`WARN_LINES` lines."""
    n = _lines(path)
    if n > WARN_LINES:
        warnings.warn(
            f"lazylib/{path.relative_to(package)} has {n} lines (over {WARN_LINES}): see whether it holds two roles",
            ModuleSizeWarning,
            stacklevel=2,
        )


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_a_module_over_800_lines_gets_a_warning_not_a_failure(path):
    _warn_if_long(path)


def test_the_size_warning_can_fire(tmp_path):
    """A module of 801 lines is warned about, one of 800 is not, and neither fails."""
    module = tmp_path / "m.py"
    for n, expected in ((801, [ModuleSizeWarning]), (800, [])):
        module.write_text("x = 1\n" * n)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            _warn_if_long(module, tmp_path)
        assert [w.category for w in caught] == expected


def test_the_count_is_wc_l(tmp_path):
    """The count is the number of newlines, as ``wc -l`` gives it."""
    module = tmp_path / "m.py"
    module.write_text("a = 1\nb = 2\n")
    assert _lines(module) == 2


FUNCTION_LIMIT = 60

#: Tokens that hold no code: a line made only of these is blank or comment-only.
_NOT_CODE = {
    tokenize.COMMENT,
    tokenize.NL,
    tokenize.NEWLINE,
    tokenize.INDENT,
    tokenize.DEDENT,
    tokenize.ENDMARKER,
}


def _code_lines(source: str) -> set[int]:
    """The numbers of the lines of ``source`` that hold code (every line a token spans, comments aside)."""
    lines: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type not in _NOT_CODE:
            lines.update(range(token.start[0], token.end[0] + 1))
    return lines


def _function_sizes(source: str) -> dict[str, int]:
    """Lines of code of every function and method of ``source``, by qualified name (``Class.method``)."""
    code = _code_lines(source)
    sizes: dict[str, int] = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            name = f"{prefix}{getattr(child, 'name', '')}"
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                body = child.body[1:] if ast.get_docstring(child, clean=False) is not None else child.body
                if body:
                    first = body[0]
                    start = min([first.lineno] + [d.lineno for d in getattr(first, "decorator_list", [])])
                    sizes[name] = sum(1 for line in code if start <= line <= child.end_lineno)
                else:
                    sizes[name] = 0
                visit(child, f"{name}.")
            elif isinstance(child, ast.ClassDef):
                visit(child, f"{name}.")
            else:
                visit(child, prefix)

    visit(ast.parse(source), "")
    return sizes


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_function_is_over_the_limit(path):
    over = {name: n for name, n in _function_sizes(path.read_text()).items() if n > FUNCTION_LIMIT}
    assert not over, (
        f"lazylib/{path.relative_to(PACKAGE)}: {over} lines of code (limit {FUNCTION_LIMIT}): split into named steps"
    )


def _synthetic_function(n_code: int) -> str:
    """A function with ``n_code`` lines of code, a long docstring, comments and blank lines around them."""
    docstring = '    """A long docstring.\n\n' + "    Text that is not code.\n" * 30 + '    """\n'
    body = ""
    for i in range(n_code - 1):
        body += f"    # comment {i}\n\n    x{i} = {i}  # trailing comment\n"
    return "@decorator\ndef f(\n    a,\n    b,\n):\n" + docstring + body + "    return a\n"


def test_a_function_of_61_lines_of_code_fails_and_one_of_60_passes():
    """The counter leaves docstrings, comments and blank lines out, so the rule can fail and only on code."""
    assert _function_sizes(_synthetic_function(60)) == {"f": 60}
    assert _function_sizes(_synthetic_function(61)) == {"f": 61}
    assert (
        _function_sizes(_synthetic_function(61))["f"] > FUNCTION_LIMIT >= _function_sizes(_synthetic_function(60))["f"]
    )


def test_the_counter_counts_multi_line_statements_methods_and_nested_functions():
    source = (
        "class C:\n"
        "    def m(self):\n"
        '        """Doc."""\n'
        "        x = [\n"
        "            1,  # one\n"
        "            # a comment inside\n"
        "            2,\n"
        "        ]\n"
        '        s = """two\n'
        "\n"
        'lines"""\n'
        "\n"
        "        @decorator\n"
        "        def inner():\n"
        "            return x\n"
        "        return inner\n"
    )
    assert _function_sizes(source) == {"C.m": 11, "C.m.inner": 1}
