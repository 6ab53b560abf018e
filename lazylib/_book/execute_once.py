"""Execute every chapter once per CI run, in ``_toc.yml`` order, and build the book from those outputs.

CI runs ``make test`` (pytest with nbval executes every chapter) and then ``make book``. Instead of executing
every chapter a second time, the book reuses what nbval produced, but only when that is provably current:

1. ``conftest.py`` orders nbval's items by :func:`toc_notebooks` (``_toc.yml`` order, the pages that read the
   records last, so the front page, the Part pages and the scorecard appendix run after every chapter has written
   its record) and, after a session in which *every* page of the book executed without a failing cell,
   stores each executed notebook (nbval keeps each cell's outputs in ``IPyNbCell.test_outputs``) in the
   jupyter-cache that Jupyter Book reads (``_build/.jupyter_cache``), then writes :data:`STAMP` with
   :func:`book_input_parts` as they were when the session started (and still are).
2. ``make book`` runs Sphinx with ``execute_notebooks: cache``. Before Sphinx reads a page, this extension checks
   the cache (``config-inited``): if :data:`STAMP` matches the current :func:`book_input_parts` and every page is in
   the cache, the build uses it as it is. Otherwise it empties the cache and executes every page itself, in
   ``_toc.yml`` order, into the cache, and only then lets Sphinx read. So ``make book`` alone on a clean clone
   executes everything once, and never shows outputs of other sources.

:func:`book_input_parts` hashes everything an output can depend on: lazylib's sources and data, the published CSVs,
the versions of Python and the numerical libraries (:func:`lazylib.report.book_files.inputs_fingerprint`), every page of
the book, ``_toc.yml``, ``_config.yml``, ``conftest.py``, the measured CSVs of ``benchmarks/`` that chapters read, and
the source revision printed on the front page
(:func:`lazylib.build_info`). The book's extensions (this module among them) are lazylib sources.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from pathlib import Path

#: Where the executed pages live, below the book's root (the folder holding ``_toc.yml``).
CACHE = Path("_build") / ".jupyter_cache"
#: The stamp declaring the cache current, next to it.
STAMP = Path("_build") / ".jupyter_cache.stamp.json"


def is_notebook(path: Path) -> bool:
    """True for a Markdown file that jupytext and myst-nb read as a notebook (it declares a kernel in its front
    matter)."""
    if path.suffix != ".md" or not path.is_file():
        return False
    head = path.read_text(encoding="utf-8")[:2000]
    return head.startswith("---") and "kernelspec:" in head.split("\n---", 1)[0]


def toc_notebooks(root: Path) -> list[Path]:
    """The book's notebooks in the order they execute: ``_toc.yml`` order, except that the pages reading the
    chapters' records (the front page, Part pages with their headline, the scorecard appendix:
    :func:`lazylib.report.scorecard.reads_records`) come after every other page, in ``_toc.yml`` order among
    themselves, so they see every chapter's record."""
    from lazylib.report.book_files import toc_chapters
    from lazylib.report.scorecard import reads_records

    pages = [p for p in (root / "book" / f"{c}.md" for c in toc_chapters(root)) if is_notebook(p)]
    return sorted(pages, key=reads_records)  # stable: each group keeps the _toc.yml order


def book_input_parts(root: Path) -> dict[str, str]:
    """What the executed pages' outputs can depend on (see the module docstring), part by part: the library with
    its data, the published numbers and the versions (one sha256), each page and configuration file (its sha256),
    and the source revision (as printed)."""
    import lazylib
    from lazylib.report.book_files import inputs_fingerprint

    parts = {"lazylib, published numbers, library versions": inputs_fingerprint(root)}
    files = [*sorted((root / "book").rglob("*.md")), root / "_toc.yml", root / "_config.yml", root / "conftest.py"]
    files += sorted((root / "benchmarks").glob("*.csv"))  # measured once outside the book, read by chapters
    files += sorted((root / "benchmarks").glob("*.json"))  # what such a measurement ran on (hierarchical.json)
    files += sorted((root / "benchmarks" / "full_run").glob("*"))  # the bench's full run, which Part VI ranks
    for path in files:
        parts[str(path.relative_to(root))] = hashlib.sha256(path.read_bytes()).hexdigest()
    parts["source revision"] = json.dumps(lazylib.build_info(), sort_keys=True)
    return parts


def changed_parts(before: dict[str, str], now: dict[str, str]) -> list[str]:
    """The parts of :func:`book_input_parts` that differ, were added or are gone, in sorted order.

    Examples
    --------
    >>> changed_parts({"a": "1", "b": "2"}, {"a": "1", "b": "3", "c": "4"})
    ['b', 'c']
    """
    return sorted(k for k in before.keys() | now.keys() if before.get(k) != now.get(k))


def read_notebook(path: Path):
    """The notebook exactly as myst-nb reads it for the build (so the cache's hashes match)."""
    from myst_nb.core.read import read_myst_markdown_notebook
    from myst_parser.config.main import MdParserConfig

    return read_myst_markdown_notebook(
        path.read_text(encoding="utf-8"), MdParserConfig(), add_source_map=True, path=path
    )


def open_cache(cache_dir: Path):
    from jupyter_cache import get_cache

    return get_cache(str(cache_dir))


def reset(cache_dir: Path, stamp: Path) -> None:
    """Forget every cached output (the stamp first, so an interrupted reset leaves no valid-looking cache)."""
    stamp.unlink(missing_ok=True)
    shutil.rmtree(cache_dir, ignore_errors=True)


def store(notebook, path: Path, seconds: float, cache_dir: Path) -> None:
    """Put one executed notebook into the cache."""
    from jupyter_cache.base import CacheBundleIn

    open_cache(cache_dir).cache_notebook_bundle(
        CacheBundleIn(notebook, str(path), data={"execution_seconds": seconds}), check_validity=False, overwrite=True
    )


def write_stamp(parts: dict[str, str], notebooks: list[Path], how: str, stamp: Path) -> None:
    """Declare the cache current for the inputs ``parts`` (:func:`book_input_parts`; call only after every page is
    stored). The parts are kept so that a stale cache can say what changed."""
    stamp.parent.mkdir(parents=True, exist_ok=True)
    record = {"executed by": how, "written": time.time(), "pages": [p.name for p in notebooks], "parts": parts}
    stamp.write_text(json.dumps(record, indent=1))


def missing_from_cache(notebooks: list[Path], cache_dir: Path) -> list[Path]:
    """The notebooks whose current code has no executed copy in the cache."""
    if not cache_dir.is_dir():
        return list(notebooks)
    cache, missing = open_cache(cache_dir), []
    for path in notebooks:
        try:
            cache.match_cache_notebook(read_notebook(path))
        except KeyError:
            missing.append(path)
    return missing


def current(root: Path, cache_dir: Path, stamp: Path) -> tuple[bool, str]:
    """Whether the cache holds current outputs of every page, and why not."""
    if not stamp.is_file():
        return False, "no test run has stored a clean execution of every page"
    recorded, parts = json.loads(stamp.read_text()), book_input_parts(root)
    if recorded.get("parts") != parts:
        changed = changed_parts(recorded.get("parts", {}), parts)
        shown = ", ".join(changed[:3]) + (f" and {len(changed) - 3} more" if len(changed) > 3 else "")
        return False, f"changed since the pages were executed: {shown}"
    missing = missing_from_cache(toc_notebooks(root), cache_dir)
    if missing:
        return False, f"{len(missing)} page(s) not in the cache, e.g. {missing[0].relative_to(root)}"
    return True, f"executed by {recorded.get('executed by', '?')}"


#: One thread for the numerical libraries of a page's kernel (OpenBLAS, MKL, OpenMP). The pages spread their heavy
#: work over processes (``n_jobs=2``; joblib already gives each worker one thread); their serial parts multiply
#: blocks too small for threads to pay, and under ``make test`` two pages run at once (conftest.py's two
#: chains). With one thread, Part I's Table 2 page took 113 s instead of 128 s alone on the 2-core machine.
ONE_THREAD = {name: "1" for name in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "OMP_NUM_THREADS")}


def session_of(path: Path):
    """The environment under which a kernel runs the page at ``path``: ``JPY_SESSION_NAME`` names it, as Jupyter
    Server names the notebook of every kernel it starts (JupyterLab, ``make lab``), so a page finds its own path
    however it runs (:meth:`lazylib.report.scorecard.Chapter.here`), and the numerical libraries use one thread
    (:data:`ONE_THREAD`). A context manager: the kernel started inside it inherits the variables, the process gets
    its environment back on exit."""
    from unittest import mock

    return mock.patch.dict(os.environ, {"JPY_SESSION_NAME": str(Path(path).resolve()), **ONE_THREAD})


def execute_all(root: Path, cache_dir: Path, stamp: Path, timeout: int = 900, log=print) -> None:
    """Execute every page in ``_toc.yml`` order into an emptied cache; raise on the first failing cell."""
    from jupyter_cache.executors.utils import single_nb_execution

    parts, notebooks = book_input_parts(root), toc_notebooks(root)
    os.environ["TQDM_DISABLE"] = "1"  # the kernels inherit it: no progress bar in the book's outputs
    reset(cache_dir, stamp)
    for path in notebooks:
        notebook = read_notebook(path)
        log(f"executing {path.relative_to(root)}")
        with session_of(path):
            result = single_nb_execution(notebook, cwd=str(path.parent), timeout=timeout, allow_errors=False)
        if result.err is not None:
            raise RuntimeError(f"executing {path.relative_to(root)} failed:\n{result.exc_string}")
        log(f"  {result.time:.1f} s")
        store(notebook, path, result.time, cache_dir)
    write_stamp(parts, notebooks, "the book build", stamp)


def _ensure_cache(app, config) -> None:
    from sphinx.util import logging

    logger = logging.getLogger(__name__)
    if config.nb_execution_mode != "cache":
        return
    root = Path(app.srcdir)
    if not (root / "_toc.yml").exists():  # a single page (jupyter-book's page mode): myst-nb executes it alone
        logger.info("[execute_once] no _toc.yml in the source folder (one page): left to myst-nb")
        return
    cache_dir = Path(app.outdir).parent / ".jupyter_cache"
    stamp = cache_dir.with_name(STAMP.name)
    ok, why = current(root, cache_dir, stamp)
    if ok:
        logger.info(f"[execute_once] every page's outputs are current ({why}): not executing again")
    else:
        logger.info(f"[execute_once] executing every page in _toc.yml order ({why})")
        started = time.perf_counter()
        execute_all(root, cache_dir, stamp, timeout=int(config.nb_execution_timeout or 900), log=logger.info)
        logger.info(f"[execute_once] done in {time.perf_counter() - started:.0f} s")
    app.execute_once_stamp = stamp.read_text()


def _reread_after_new_outputs(app, env, added, changed, removed):
    """Sphinx re-reads only pages whose source changed; when the cache was filled anew (by nbval or above), every
    page must be read again, or an incremental build would keep old outputs (the scorecard's above all)."""
    stamp = getattr(app, "execute_once_stamp", None)
    if stamp is None or getattr(env, "execute_once_stamp", None) == stamp:
        return []
    env.execute_once_stamp = stamp
    return sorted(env.found_docs - added - changed)


def setup(app):
    app.connect("config-inited", _ensure_cache)
    app.connect("env-get-outdated", _reread_after_new_outputs)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
