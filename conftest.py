"""Let plain ``pytest`` execute every book chapter through nbval, once, and hand the outputs to the book build.

Chapters are jupytext MyST-Markdown notebooks (``book/**/*.md`` whose front matter has a ``kernelspec``); no
``.ipynb`` is committed. nbval reads notebooks with ``nbformat.read``; here that reader also accepts the
Markdown chapters by handing them to jupytext, and the collection hook below offers them to nbval.

Chapters run in ``_toc.yml`` order (after the unit tests), except the pages that read the chapters' records
(front page, Part pages, scorecard appendix), which run last (``execute_once.toc_notebooks``). When a session
has executed every page of the book without a failing cell, the executed notebooks go into the book's execution
cache, so ``make book`` does not execute them again (see
``lazylib/_book/execute_once.py`` for when that cache counts as current).
"""

from __future__ import annotations

import io
import os
import tokenize
from collections import defaultdict
from pathlib import Path
from unittest import mock

import jupytext
import nbformat
import nbval.plugin
import pytest

from lazylib._book import execute_once

# No progress bar under pytest, in the tests or in the kernels nbval starts (they inherit the environment):
# tqdm's own switch, which lazylib.evaluation.parallel_map honours.
os.environ["TQDM_DISABLE"] = "1"

ROOT = Path(__file__).parent
BOOK = ROOT / "book"
CACHE, STAMP = ROOT / execute_once.CACHE, ROOT / execute_once.STAMP


def restored_environment():
    """``os.environ`` as it was on entry, again on exit. The chapter kernels nbval starts inherit the environment
    of this process: a test that changes it for good changes how every later chapter runs. Starting a Dask
    cluster does (distributed 2024-2025 sets ``MALLOC_TRIM_THRESHOLD_=65536``, ``OMP_NUM_THREADS``,
    ``MKL_NUM_THREADS``, ``OPENBLAS_NUM_THREADS`` = 1 and ``PYTHONHASHSEED`` in ``os.environ``): with that trim
    threshold glibc maps and unmaps every large temporary, and Part IV's Table 8 study spent half its time in
    the kernel (353 s after the unit tests, 183 s alone). ``mock.patch.dict`` restores the contents on exit."""
    return mock.patch.dict(os.environ)


@pytest.fixture(autouse=True)
def _environment_of_later_chapters():
    """Every test leaves the process environment as it found it (see :func:`restored_environment`)."""
    with restored_environment():
        yield


def is_chapter(path: Path) -> bool:
    """True for a Markdown file under ``book/`` that jupytext reads as a notebook (it declares a kernel)."""
    return BOOK in path.resolve().parents and execute_once.is_notebook(path)


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


class _Chapter(nbval.plugin.IPyNbFile):
    """nbval's notebook, its kernel started with the chapter's path in ``JPY_SESSION_NAME``
    (:func:`lazylib._book.execute_once.session_of`)."""

    def setup(self):
        with execute_once.session_of(self.path):
            super().setup()


def pytest_collect_file(file_path: Path, parent):
    if is_chapter(file_path) and (parent.config.option.nbval or parent.config.option.nbval_lax):
        return _Chapter.from_parent(parent, path=file_path)
    return None


def _notebook_of(item) -> Path | None:
    return Path(item.parent.path) if isinstance(item, nbval.plugin.IPyNbCell) else None


def pytest_collection_modifyitems(session, config, items):
    """Chapters after everything else, in execution order (``_toc.yml``, pages reading the records last; cells of
    one chapter stay together, in order).

    Under pytest-xdist (``make test``: ``-n 2 --dist loadscope``) the chapters come first instead, and they are
    one unit of work (:func:`pytest_xdist_make_scheduler`), so one worker executes every chapter in that order
    from the start while the other runs the unit tests (the chapters' own parallel parts use both cores; their
    serial parts leave one free)."""
    distributed = _distributed(config)
    order = {path.resolve(): i for i, path in enumerate(execute_once.toc_notebooks(ROOT))}
    first = {}
    for position, item in enumerate(items):
        notebook = _notebook_of(item)
        if notebook is not None:
            first.setdefault(notebook, position)

    def key(item):
        notebook = _notebook_of(item)
        if notebook is None:
            return (0 if not distributed else 2, 0, 0)
        return (1, order.get(notebook.resolve(), len(order) + first[notebook]), 0)

    items.sort(key=key)  # stable: the order within each group is kept


def pytest_xdist_make_scheduler(config, log):
    """pytest-xdist's ``--dist loadscope`` with every chapter cell in one scope: the chapters run on one worker,
    in the collection order above, each chapter's cells in one kernel. (xdist's ``xdist_group`` marks would say
    the same, but pytest-xdist 3.8 writes the group into ``item._nodeid``, which pytest 9.2 no longer reads.)"""
    if config.getvalue("dist") != "loadscope":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ChaptersTogether(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            if path.startswith("book/") and path.endswith(".md"):
                return "the book's chapters"
            return super()._split_scope(nodeid)

    return ChaptersTogether(config, log)


def _distributed(config) -> bool:
    """Whether pytest-xdist spreads this session over workers (this process may be one of them)."""
    # (a worker has ``workerinput``; PYTEST_XDIST_WORKER alone would also mark a pytest a test starts as a child)
    return hasattr(config, "workerinput") or getattr(config.option, "numprocesses", None) not in (None, 0)


class _ExecutionRecorder:
    """Collects which notebook cells passed and hands complete runs to the book's execution cache."""

    def __init__(self):
        self.message = None
        self.inputs = execute_once.book_input_parts(ROOT)
        self.passed, self.failed, self.seconds = set(), set(), defaultdict(float)

    def pytest_runtest_logreport(self, report):
        if report.failed or report.skipped:
            self.failed.add(report.nodeid)
        elif report.when == "call":
            self.passed.add(report.nodeid)
        self.seconds[report.nodeid.split("::")[0]] += report.duration

    def pytest_sessionfinish(self, session, exitstatus):
        ran = self.passed | self.failed
        ran_pages = any(_notebook_of(item) is not None and item.nodeid in ran for item in session.items)
        if ran_pages:  # (otherwise keep what a worker reported, pytest_testnodedown)
            self.message = self._store(session)
        workeroutput = getattr(session.config, "workeroutput", None)  # a pytest-xdist worker: tell the controller
        if workeroutput is not None and self.message:
            workeroutput["book execution cache"] = self.message

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node, error):
        """pytest-xdist's controller: the message of the worker that executed the chapters."""
        self.message = getattr(node, "workeroutput", {}).get("book execution cache", self.message)

    def pytest_terminal_summary(self, terminalreporter):
        if self.message:
            terminalreporter.write_line(f"book execution cache: {self.message}")

    def _store(self, session) -> str:
        cells = defaultdict(list)
        for item in session.items:
            if _notebook_of(item) is not None:
                cells[_notebook_of(item).resolve()].append(item)
        pages = execute_once.toc_notebooks(ROOT)
        missing = [p for p in pages if p.resolve() not in cells]
        if missing:
            return f"not filled: this session did not execute every page (e.g. {missing[0].relative_to(ROOT)})"
        broken = [
            p
            for p in pages
            if any(
                i.nodeid in self.failed or i.nodeid not in self.passed or i.test_outputs is None
                for i in cells[p.resolve()]
            )
        ]
        if broken:
            return f"not filled: {broken[0].relative_to(ROOT)} did not run cleanly"
        changed = execute_once.changed_parts(self.inputs, execute_once.book_input_parts(ROOT))
        if changed:
            return f"not filled: changed while the tests ran: {', '.join(changed[:3])}"
        notebooks = []
        for path in pages:
            notebook = execute_once.read_notebook(path)
            code = [cell for cell in notebook.cells if cell.cell_type == "code"]
            items = cells[path.resolve()]
            if [c.source.strip() for c in code] != [i.cell.source.strip() for i in items]:
                return f"not filled: myst-nb and jupytext read the code cells of {path.name} differently"
            for count, (cell, item) in enumerate(zip(code, items), start=1):
                cell.execution_count = count
                quiet = _ends_with_semicolon(cell.source)
                cell.outputs = [
                    nbformat.from_dict(dict(output))
                    for output in item.test_outputs
                    if not (quiet and output["output_type"] == "execute_result")
                ]
                for output in cell.outputs:
                    if output.output_type == "execute_result":
                        output.execution_count = count
            notebooks.append((notebook, path, self.seconds[items[0].nodeid.split("::")[0]]))
        execute_once.reset(CACHE, STAMP)
        for notebook, path, seconds in notebooks:
            execute_once.store(notebook, path, seconds, CACHE)
        execute_once.write_stamp(self.inputs, pages, "pytest (nbval)", STAMP)
        return f"filled with the {len(pages)} pages just executed: `make book` will not execute them again"


def _ends_with_semicolon(source: str) -> bool:
    """True when a cell's last token is ``;``: IPython then shows no result. nbval runs cells without storing them
    in the kernel's history, where IPython looks for that ``;``, so its outputs keep the result; the book's own
    execution would not, and a figure cell with two outputs would get its figure name twice."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError):
        return False
    skip = (tokenize.ENDMARKER, tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT)
    last = next((t for t in reversed(tokens) if t.type not in skip), None)
    return last is not None and last.type == tokenize.OP and last.string == ";"


def pytest_configure(config):
    if config.option.nbval or config.option.nbval_lax:
        config.pluginmanager.register(_ExecutionRecorder(), "lazylib-execution-recorder")
