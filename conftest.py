"""Let plain ``pytest`` execute every book chapter through nbval, once, and hand the outputs to the book build.

Chapters are jupytext MyST-Markdown notebooks (``book/**/*.md`` whose front matter has a ``kernelspec``); no
``.ipynb`` is committed. nbval reads notebooks with ``nbformat.read``; here that reader also accepts the
Markdown chapters by handing them to jupytext, and the collection hook below offers them to nbval.

Chapters run in ``_toc.yml`` order (after the unit tests), except the pages that read the chapters' records
(front page, Part pages, scorecard appendix), which run last (``execute_once.toc_notebooks``). Under
pytest-xdist (``make test``) they run in two chains, one per worker (:data:`SECOND_CHAIN`), and the pages that
read the records wait until every other page of the session has run. When a session has executed every page of
the book without a failing cell, the executed notebooks go into the book's execution cache, so ``make book`` does
not execute them again (see ``lazylib/_book/execute_once.py`` for when that cache counts as current).
"""

from __future__ import annotations

import functools
import io
import json
import os
import shutil
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
from lazylib.report.scorecard import reads_records

# No progress bar under pytest, in the tests or in the kernels nbval starts (they inherit the environment):
# tqdm's own switch, which lazylib.parallel.progress_bar honours.
os.environ["TQDM_DISABLE"] = "1"

#: The chapters executed by the second chain under pytest-xdist (``make test``): folders under ``book/``, or pages
#: (``folder/page``, no suffix), chosen so that the unit tests plus these take about as long as the first chain
#: (every other chapter). In CI's clean-clone run of stop 57 (c910678, a machine about twice as slow as the
#: development one) the second chain reached the pages reading the records 451 s before the first chain was done;
#: Part IV's 04_sparse_data and 05_efficiency (about 200 s together there) moved to the second chain for it. Parts I
#: and II, the rest of Part IV and the appendix on the first chain; the unit tests, those two pages and Parts III, V
#: and VI on the second. The pages reading the records run last on the second chain.
SECOND_CHAIN = (
    "wilson1997_hdf/04_sparse_data",
    "wilson1997_hdf/05_efficiency",
    "guvenir1998_vfi5",
    "howe_cardie_mdw",
    "bench",
)
#: How long a page reading the records waits for the other chain's pages before it fails (seconds).
CHAIN_WAIT = float(os.environ.get("LAZYLIB_CHAIN_WAIT", 5400))

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
    (:func:`lazylib._book.execute_once.session_of`). On a pytest-xdist worker, a page that reads the records first
    waits until every other page of the session has run (:class:`_Chains`)."""

    def setup(self):
        chains = self.config.stash.get(_CHAINS, None)
        if chains is not None and reads_records(self.path):
            chains.wait_for_the_others()
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

    Under pytest-xdist (``make test``: ``-n 2 --dist loadscope``) the chapters form two chains instead, each one
    unit of work (:func:`pytest_xdist_make_scheduler`): the first chain comes first, so one worker executes it
    from the start, the unit tests next and the second chain (:data:`SECOND_CHAIN`, then the pages reading the
    records) last, so the other worker runs the unit tests and then that chain. A chapter's own parallel parts
    use both cores and its serial parts one; two chains keep both busy."""
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
            return (1 if distributed else 0, 0)
        position = order.get(notebook.resolve(), len(order) + first[notebook])
        if not distributed:
            return (1, position)
        return (2 if chain_of(notebook) == "second" else 0, position)

    items.sort(key=key)  # stable: the order within each group is kept
    if hasattr(config, "workerinput"):
        config.stash[_CHAINS] = _Chains(config.workerinput["testrunuid"], items)


@functools.lru_cache(maxsize=None)
def chain_of(notebook: Path) -> str:
    """``"first"`` or ``"second"``: which worker's chain executes this page under pytest-xdist. The pages reading the
    records end the second chain (they wait for the first, :class:`_Chains`)."""
    page = notebook.resolve().relative_to(BOOK).with_suffix("")
    second = page.parts[0] in SECOND_CHAIN or page.as_posix() in SECOND_CHAIN
    return "second" if reads_records(notebook) or second else "first"


class _Chains:
    """How the two chains of a pytest-xdist run know each other's progress: after the last cell of a page that does
    not read the records, the worker leaves a mark in ``_build/.chains/<run id>/``; a page reading the records
    waits until every such page collected in this run has its mark (at most :data:`CHAIN_WAIT` seconds)."""

    def __init__(self, run_id: str, items):
        self.folder = ROOT / "_build" / ".chains" / run_id
        last = {}
        for item in items:
            notebook = _notebook_of(item)
            if notebook is not None and not reads_records(notebook):
                last[notebook.resolve()] = item.nodeid
        self.last_cell = {nodeid: notebook for notebook, nodeid in last.items()}

    def mark(self, nodeid: str) -> None:
        notebook = self.last_cell.get(nodeid)
        if notebook is not None:
            self.folder.mkdir(parents=True, exist_ok=True)
            (self.folder / _mark_name(notebook)).touch()

    def wait_for_the_others(self) -> None:
        started = time.monotonic()
        while True:
            missing = [n for n in self.last_cell.values() if not (self.folder / _mark_name(n)).exists()]
            if not missing:
                return
            if time.monotonic() - started > CHAIN_WAIT:
                raise RuntimeError(
                    f"waited {CHAIN_WAIT:.0f} s for the other chain's pages to finish; still missing: "
                    + ", ".join(str(n.relative_to(ROOT)) for n in missing[:5])
                )
            time.sleep(2)


def _mark_name(notebook: Path) -> str:
    return "__".join(notebook.resolve().relative_to(BOOK).parts)


_CHAINS = pytest.StashKey[_Chains]()
_RUN_ID = pytest.StashKey[str]()


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    """pytest-xdist's controller: the run's id, to remove its marks at the end (pytest_sessionfinish)."""
    node.config.stash[_RUN_ID] = node.workerinput["testrunuid"]


def pytest_sessionfinish(session, exitstatus):
    run_id = session.config.stash.get(_RUN_ID, None)
    if run_id is not None:
        shutil.rmtree(ROOT / "_build" / ".chains" / run_id, ignore_errors=True)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    """A worker marks a page done once its last cell is torn down (its kernel stopped), passed or not."""
    try:
        return (yield)
    finally:
        chains = item.config.stash.get(_CHAINS, None)
        if chains is not None:
            chains.mark(item.nodeid)


def pytest_xdist_make_scheduler(config, log):
    """pytest-xdist's ``--dist loadscope`` with each chain's chapter cells in one scope: each chain runs on one
    worker, in the collection order above, each chapter's cells in one kernel. (xdist's ``xdist_group`` marks would say
    the same, but pytest-xdist 3.8 writes the group into ``item._nodeid``, which pytest 9.2 no longer reads.)"""
    if config.getvalue("dist") != "loadscope":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ChaptersTogether(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            if path.startswith("book/") and path.endswith(".md"):
                return f"the book's chapters, {chain_of(ROOT / path)} chain"
            return super()._split_scope(nodeid)

    return ChaptersTogether(config, log)


def _distributed(config) -> bool:
    """Whether pytest-xdist spreads this session over workers (this process may be one of them)."""
    # (a worker has ``workerinput``; PYTEST_XDIST_WORKER alone would also mark a pytest a test starts as a child)
    return hasattr(config, "workerinput") or getattr(config.option, "numprocesses", None) not in (None, 0)


class _ExecutionRecorder:
    """Collects which notebook cells passed and hands complete runs to the book's execution cache.

    Under pytest-xdist each worker sends the pages it executed (every cell's source and outputs) to the controller,
    which sees every cell's report, and the controller fills the cache once both chains are done."""

    def __init__(self):
        self.message = None
        self.inputs = execute_once.book_input_parts(ROOT)
        self.passed, self.failed, self.seconds = set(), set(), defaultdict(float)
        self.executed = {}  # page (resolved path) -> its cells: [{"nodeid", "source", "outputs"}]

    def pytest_runtest_logreport(self, report):
        if report.failed or report.skipped:
            self.failed.add(report.nodeid)
        elif report.when == "call":
            self.passed.add(report.nodeid)
        self.seconds[report.nodeid.split("::")[0]] += report.duration

    def pytest_sessionfinish(self, session, exitstatus):
        executed = self._executed_here(session)
        workeroutput = getattr(session.config, "workeroutput", None)
        if workeroutput is not None:  # a pytest-xdist worker: the controller stores
            workeroutput["executed pages"] = json.dumps(executed)
            return
        self.executed.update(executed)
        if self.executed:
            self.message = self._store()

    def _executed_here(self, session) -> dict:
        ran = self.passed | self.failed
        pages = defaultdict(list)
        for item in session.items:
            notebook = _notebook_of(item)
            if notebook is not None:
                pages[str(notebook.resolve())].append(
                    {"nodeid": item.nodeid, "source": item.cell.source, "outputs": item.test_outputs}
                )
        return {page: cells for page, cells in pages.items() if any(c["nodeid"] in ran for c in cells)}

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node, error):
        """pytest-xdist's controller: the pages a worker executed."""
        self.executed.update(json.loads(getattr(node, "workeroutput", {}).get("executed pages", "{}")))

    def pytest_terminal_summary(self, terminalreporter):
        if self.message:
            terminalreporter.write_line(f"book execution cache: {self.message}")

    def _store(self) -> str:
        pages = execute_once.toc_notebooks(ROOT)
        missing = [p for p in pages if str(p.resolve()) not in self.executed]
        if missing:
            return f"not filled: this session did not execute every page (e.g. {missing[0].relative_to(ROOT)})"
        broken = [
            p
            for p in pages
            if any(
                c["nodeid"] in self.failed or c["nodeid"] not in self.passed or c["outputs"] is None
                for c in self.executed[str(p.resolve())]
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
            cells = self.executed[str(path.resolve())]
            if [c.source.strip() for c in code] != [c["source"].strip() for c in cells]:
                return f"not filled: myst-nb and jupytext read the code cells of {path.name} differently"
            for count, (cell, executed) in enumerate(zip(code, cells), start=1):
                cell.execution_count = count
                quiet = _ends_with_semicolon(cell.source)
                cell.outputs = [
                    nbformat.from_dict(dict(output))
                    for output in executed["outputs"]
                    if not (quiet and output["output_type"] == "execute_result")
                ]
                for output in cell.outputs:
                    if output.output_type == "execute_result":
                        output.execution_count = count
            notebooks.append((notebook, path, self.seconds[cells[0]["nodeid"].split("::")[0]]))
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
