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

import functools
import io
import json
import os
import shutil
import tempfile
import time
import tokenize
from collections import defaultdict
from pathlib import Path
from unittest import mock

import jupytext
import nbformat
import nbval.plugin
import pytest

from lazylib._book import execute_once
from lazylib.report import scorecard

# No progress bar under pytest, in the tests or in the kernels nbval starts (they inherit the environment):
# tqdm's own switch, which lazylib.evaluation.parallel_map honours.
os.environ["TQDM_DISABLE"] = "1"

ROOT = Path(__file__).parent
BOOK = ROOT / "book"
CACHE, STAMP = ROOT / execute_once.CACHE, ROOT / execute_once.STAMP
#: How long a page reading the records waits for the other worker's chapters (pytest-xdist), in seconds.
WAIT_FOR_CHAPTERS = 3600


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


#: Under pytest-xdist (``make test``) the chapters of these Parts (folders of ``book/``) run on one worker while
#: the other chapters run on the other, each group in ``_toc.yml`` order: by the pages' execution times (the README's
#: time table) about 1,110 s against 920 s, the second group also taking what is left of the unit tests. A Part not
#: named here joins the first group (a test checks that every name is a Part of the book).
SECOND_GROUP = ("guvenir1998_vfi5", "wilson1997_hdf", "howe_cardie_mdw")
#: The scope of the pages that read every chapter's record (front page, Part pages, scorecard appendix).
READERS = "the pages reading the records"


@functools.lru_cache(maxsize=None)
def scope_of_page(relative: str) -> str:
    """The pytest-xdist unit of work of a page (its path relative to the book's root, ``book/...md``): one of the
    two groups of chapters, or the pages reading the records, which run after every chapter (see
    :meth:`_ExecutionRecorder.pytest_runtest_setup`)."""
    if scorecard.reads_records(ROOT / relative):
        return READERS
    parts = Path(relative).parts
    return "chapters, second group" if len(parts) > 2 and parts[1] in SECOND_GROUP else "chapters, first group"


def pytest_collection_modifyitems(session, config, items):
    """Chapters after everything else, in execution order (``_toc.yml``, pages reading the records last; cells of
    one chapter stay together, in order).

    Under pytest-xdist (``make test``: ``-n 2 --dist loadscope``) the two groups of chapters come first, then the
    tests, then the pages reading the records; with :func:`pytest_xdist_make_scheduler`, each worker starts with one
    group of chapters (their own parallel parts use both cores; their serial parts leave one free) and takes tests
    when it is done, and the pages reading the records come last."""
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
            return (0, 0) if not distributed else (2, 0)
        position = order.get(notebook.resolve(), len(order) + first[notebook])
        if not distributed:
            return (1, position)
        scope = scope_of_page(notebook.resolve().relative_to(ROOT.resolve()).as_posix())
        return ({"chapters, first group": 0, "chapters, second group": 1}.get(scope, 3), position)

    items.sort(key=key)  # stable: the order within each group is kept


def pytest_xdist_make_scheduler(config, log):
    """pytest-xdist's ``--dist loadscope`` with the chapters in two units of work (:func:`scope_of_page`) and the
    pages reading the records in a third, handed out in the collection order above (not xdist's largest-first
    order): each chapter's cells in one kernel, each group in ``_toc.yml`` order. (xdist's ``xdist_group`` marks
    would say the same, but pytest-xdist 3.8 writes the group into ``item._nodeid``, which pytest 9.2 no longer
    reads.)"""
    if config.getvalue("dist") != "loadscope":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ChaptersInTwoGroups(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            if path.startswith("book/") and path.endswith(".md"):
                return scope_of_page(path)
            return super()._split_scope(nodeid)

        def schedule(self) -> None:
            self.config.option.loadscopereorder = False
            super().schedule()

    return ChaptersInTwoGroups(config, log)


def _distributed(config) -> bool:
    """Whether pytest-xdist spreads this session over workers (this process may be one of them)."""
    # (a worker has ``workerinput``; PYTEST_XDIST_WORKER alone would also mark a pytest a test starts as a child)
    return hasattr(config, "workerinput") or getattr(config.option, "numprocesses", None) not in (None, 0)


def _marker(folder: Path, page: Path) -> Path:
    return folder / (page.resolve().relative_to(ROOT.resolve()).as_posix().replace("/", "__") + ".done")


class _ExecutionRecorder:
    """Collects which notebook cells passed and hands complete runs to the book's execution cache.

    In one process it does so at the end of the session. Under pytest-xdist each worker writes the pages it
    executed (or why one cannot be used) into a folder the controller made, and marks each page done when its last
    cell has run; a worker waits for every chapter's mark before a page reading the records starts; the controller
    fills the cache from that folder once every worker has finished."""

    def __init__(self, config):
        self.message = None
        self.inputs = execute_once.book_inputs(ROOT)
        self.passed, self.failed, self.seconds = set(), set(), defaultdict(float)
        self.first_cell, self.last_cell, self.chapters = {}, {}, []
        self.controller = not hasattr(config, "workerinput") and _distributed(config)
        shared = getattr(config, "workerinput", {}).get("lazylib executed pages")
        self.folder = Path(tempfile.mkdtemp(prefix="lazylib-pages-")) if self.controller else shared and Path(shared)

    @pytest.hookimpl(optionalhook=True)
    def pytest_configure_node(self, node):
        """pytest-xdist's controller: tell each worker where to write its executed pages."""
        node.workerinput["lazylib executed pages"] = str(self.folder)

    def pytest_collection_finish(self, session):
        cells = defaultdict(list)
        for item in session.items:
            if _notebook_of(item) is not None:
                cells[_notebook_of(item).resolve()].append(item.nodeid)
        self.first_cell = {ids[0]: page for page, ids in cells.items()}
        self.last_cell = {ids[-1]: page for page, ids in cells.items()}
        self.chapters = [page for page in cells if not scorecard.reads_records(page)]

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_setup(self, item):
        """Under pytest-xdist, a page reading the records starts once every chapter collected has run (on either
        worker), so it reads this session's records."""
        page = self.first_cell.get(item.nodeid)
        if self.folder is None or page is None or not scorecard.reads_records(page):
            return
        deadline = time.monotonic() + WAIT_FOR_CHAPTERS
        while missing := [c for c in self.chapters if not _marker(self.folder, c).exists()]:
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"{page.name} reads every chapter's record, but after {WAIT_FOR_CHAPTERS} s "
                    f"{len(missing)} chapter(s) had not finished, e.g. {missing[0].relative_to(ROOT)}"
                )
            time.sleep(1)

    def pytest_runtest_logreport(self, report):
        if report.failed or report.skipped:
            self.failed.add(report.nodeid)
        elif report.when == "call":
            self.passed.add(report.nodeid)
        self.seconds[report.nodeid.split("::")[0]] += report.duration
        page = self.last_cell.get(report.nodeid)
        if page is not None and report.when == "teardown" and self.folder is not None and not self.controller:
            _marker(self.folder, page).touch()

    def pytest_sessionfinish(self, session, exitstatus):
        if self.controller:
            self.message = self._fill(*self._read_folder()) if any(self.folder.glob("*.json")) else None
            shutil.rmtree(self.folder, ignore_errors=True)
            return
        ran = self.passed | self.failed
        if not any(_notebook_of(item) is not None and item.nodeid in ran for item in session.items):
            return
        executed, problems = self._executed(session)
        if self.folder is None:
            self.message = self._fill(executed, problems)
        else:
            self._write_folder(executed, problems)

    def pytest_terminal_summary(self, terminalreporter):
        if self.message:
            terminalreporter.write_line(f"book execution cache: {self.message}")

    def _executed(self, session):
        """The pages this process executed, as notebooks with their outputs (``{page: (notebook, seconds)}``), and
        why any page it executed cannot be used (``{page: reason}``)."""
        cells = defaultdict(list)
        for item in session.items:
            if _notebook_of(item) is not None:
                cells[_notebook_of(item).resolve()].append(item)
        ran = self.passed | self.failed
        executed, problems = {}, {}
        for path, items in cells.items():
            if not any(i.nodeid in ran for i in items):
                continue
            if any(i.nodeid in self.failed or i.nodeid not in self.passed or i.test_outputs is None for i in items):
                problems[path] = f"{path.relative_to(ROOT)} did not run cleanly"
                continue
            notebook = execute_once.read_notebook(path)
            code = [cell for cell in notebook.cells if cell.cell_type == "code"]
            if [c.source.strip() for c in code] != [i.cell.source.strip() for i in items]:
                problems[path] = f"myst-nb and jupytext read the code cells of {path.name} differently"
                continue
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
            executed[path] = (notebook, self.seconds[items[0].nodeid.split("::")[0]])
        return executed, problems

    def _write_folder(self, executed, problems) -> None:
        for path in {**executed, **problems}:
            stem = _marker(self.folder, path).with_suffix("")
            entry = {"page": str(path), "problem": problems.get(path)}
            if path in executed:
                notebook, entry["seconds"] = executed[path]
                stem.with_suffix(".ipynb").write_text(nbformat.writes(notebook), encoding="utf-8")
            stem.with_suffix(".json").write_text(json.dumps(entry), encoding="utf-8")

    def _read_folder(self):
        executed, problems = {}, {}
        for entry_file in sorted(self.folder.glob("*.json")):
            entry = json.loads(entry_file.read_text(encoding="utf-8"))
            path = Path(entry["page"])
            if entry["problem"] is not None:
                problems[path] = entry["problem"]
            else:
                notebook = nbformat.reads(entry_file.with_suffix(".ipynb").read_text(encoding="utf-8"), as_version=4)
                executed[path] = (notebook, entry["seconds"])
        return executed, problems

    def _fill(self, executed, problems) -> str:
        """Fill the cache with every page of the book, if this session executed each of them cleanly."""
        pages = execute_once.toc_notebooks(ROOT)
        missing = [p for p in pages if p.resolve() not in executed and p.resolve() not in problems]
        if missing:
            return f"not filled: this session did not execute every page (e.g. {missing[0].relative_to(ROOT)})"
        broken = [p for p in pages if p.resolve() in problems]
        if broken:
            return f"not filled: {problems[broken[0].resolve()]}"
        if execute_once.book_inputs(ROOT) != self.inputs:
            return "not filled: sources changed while the tests ran"
        execute_once.reset(CACHE, STAMP)
        for path in pages:
            notebook, seconds = executed[path.resolve()]
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
        config.pluginmanager.register(_ExecutionRecorder(config), "lazylib-execution-recorder")
