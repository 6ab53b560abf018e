"""Every page is executed once per CI run, in ``_toc.yml`` order (``conftest.py``, ``lazylib/_book/execute_once.py``).

The end-to-end test builds a three-page book in a temporary folder with this repository's ``conftest.py``,
``_config.yml``, extensions and scorecard page: the nbval run fills the execution cache, the book build uses it
without executing anything, and after a chapter changes the build executes every page itself, in order, so the
scorecard shows the chapter's new numbers.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from lazylib._book import execute_once, times
from lazylib.report import trace

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent

FRONT = """---
jupytext:
  text_representation:
    extension: .md
    format_name: myst
    format_version: 0.13
kernelspec:
  display_name: Python 3
  language: python
  name: python3
---
"""
CHAPTER = (
    FRONT
    + """
# Chapter A

```{code-cell} ipython3
import time

from lazylib.report import scorecard
from lazylib.report.verdicts import all_of, judge

card = scorecard.Chapter(part="I", paper="payne1998", chapter="p1/01_a")
card.cell(source="Table 2", cell="zoo / OM", published=96.09, runs=[REPRODUCED], digits=2, deterministic=True,
          deviation="a test chapter", note_kind="untested")
card.claim(claim="H1", judgement=judge(lambda ok: all_of(ok), [({"seed": 0}, True)], primary={"seed": 0}))
time.sleep(6)  # a page reading the records must wait for this one, even on the other worker
card.save()
print("chapter A executed")
```
"""
)


#: The arguments ``make test`` gives pytest (Makefile): two pytest-xdist workers execute the chapters in two chains
#: (conftest.py's scheduler), and the pages executed on both reach the cache through the controller.
MAKE_TEST_ARGS = ("-n", "2", "--dist", "loadscope", "--durations=30")


def test_make_test_runs_pytest_with_these_arguments():
    assert f"$(BIN)/pytest {' '.join(MAKE_TEST_ARGS)}\n" in (ROOT / "Makefile").read_text()


def test_a_chain_takes_folders_and_single_pages(monkeypatch):
    import conftest  # the repository's, which pytest has already imported

    page, other = ROOT / "book/guvenir1998_vfi5/02_figure6.md", ROOT / "book/guvenir1998_vfi5/03_figure7.md"
    conftest.chain_of.cache_clear()
    try:
        monkeypatch.setattr(conftest, "SECOND_CHAIN", ("guvenir1998_vfi5",))
        assert conftest.chain_of(page) == conftest.chain_of(other) == "second"
        conftest.chain_of.cache_clear()
        monkeypatch.setattr(conftest, "SECOND_CHAIN", ("guvenir1998_vfi5/03_figure7",))
        assert (conftest.chain_of(page), conftest.chain_of(other)) == ("first", "second")
        assert conftest.chain_of(ROOT / "book/intro.md") == "second"  # reads the records: always last
    finally:
        conftest.chain_of.cache_clear()


def run(args, cwd):
    return subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True, timeout=600)


def test_chapters_run_after_the_tests_in_toc_order():
    out = run(
        [
            BIN / "python",
            "-m",
            "pytest",
            "--collect-only",
            "-q",
            "-p",
            "no:cacheprovider",
            "tests/unit/test_book_toc.py",
            "book",
        ],
        ROOT,
    )
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    files = [line.split("::")[0] for line in out.stdout.splitlines() if "::" in line]
    notebooks = [f for f in dict.fromkeys(files) if f.endswith(".md")]
    toc = [str(p.relative_to(ROOT)) for p in execute_once.toc_notebooks(ROOT)]
    assert notebooks == toc
    assert files.index(notebooks[0]) > max(i for i, f in enumerate(files) if f.endswith(".py"))


@pytest.fixture
def small_book(tmp_path):
    for name in ("conftest.py", "_config.yml"):
        shutil.copy(ROOT / name, tmp_path / name)
    (tmp_path / "lazylib").symlink_to(ROOT / "lazylib")  # the pages show the library's source (literalinclude)
    (tmp_path / "book").mkdir()
    shutil.copy(ROOT / "book" / "references.bib", tmp_path / "book")
    (tmp_path / "book" / "appendix").mkdir()
    for name in ("scorecard.md", "glossary.md", "execution.md", "api.md", "references.md"):
        shutil.copy(ROOT / "book" / "appendix" / name, tmp_path / "book" / "appendix" / name)
    shutil.copytree(ROOT / "book" / "appendix" / "api", tmp_path / "book" / "appendix" / "api")
    api_pages = "".join(
        f"          - file: book/appendix/api/{page.stem}\n"
        for page in sorted((tmp_path / "book" / "appendix" / "api").glob("*.md"))
    )
    (tmp_path / "book" / "p1").mkdir()
    (tmp_path / "book" / "intro.md").write_text(FRONT + "\n# A small book\n\n```{code-cell} ipython3\n1 + 1\n```\n")
    (tmp_path / "book" / "p1" / "01_a.md").write_text(CHAPTER.replace("REPRODUCED", "96.08"))
    (tmp_path / "_toc.yml").write_text(
        "format: jb-book\nroot: book/intro\nparts:\n  - caption: Part I\n"
        "    chapters:\n      - file: book/p1/01_a\n  - caption: Appendix\n"
        "    chapters:\n      - file: book/appendix/scorecard\n"
        "      - file: book/appendix/glossary\n"
        "      - file: book/appendix/execution\n"
        "      - file: book/appendix/api\n        sections:\n" + api_pages + "      - file: book/appendix/references\n"
    )
    (tmp_path / "pytest.ini").write_text(
        "[pytest]\ntestpaths = book\nnorecursedirs = .* _build\n"
        "addopts = --nbval-lax --nbval-current-env -p no:cacheprovider\n"
    )
    return tmp_path


@pytest.mark.book_build
def test_the_nbval_run_fills_the_cache_the_build_uses_and_a_change_reexecutes_in_order(small_book):
    cache, stamp = small_book / "_build" / ".jupyter_cache", small_book / "_build" / execute_once.STAMP.name
    tested = run([BIN / "pytest", *MAKE_TEST_ARGS, "-v"], small_book)  # as `make test` runs it: on two workers
    assert tested.returncode == 0, tested.stdout[-3000:]
    assert "book execution cache: filled with the 3 pages" in tested.stdout
    # two chains (conftest.py): the chapter on one worker, the pages reading the records on the other, after it
    workers = {line.split()[0] for line in tested.stdout.splitlines() if "PASSED book/" in line}
    assert workers == {"[gw0]", "[gw1]"}, tested.stdout[-3000:]
    assert not list((small_book / "_build" / ".chains").glob("*/*"))  # the run's marks are removed at its end
    assert json.loads(stamp.read_text())["executed by"] == "pytest (nbval)"
    assert execute_once.current(small_book, cache, stamp)[0]

    build = [BIN / "jupyter-book", "build", ".", "-n", "-W", "--keep-going"]
    built = run(build, small_book)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    assert "outputs are current (executed by pytest (nbval))" in built.stdout
    assert built.stdout.count("Using cached notebook") == 3 and "Executing notebook" not in built.stdout
    page = (small_book / "_build" / "html" / "book" / "appendix" / "scorecard.html").read_text()
    assert "96.09" in page and "96.08" in page
    # lazylib/_book/notebooks.py: how to run each page, its measured time, its executed notebook for download
    chapter = (small_book / "_build" / "html" / "book" / "p1" / "01_a.html").read_text()
    record = next(r for r in execute_once.open_cache(cache).list_cache_records() if r.uri.endswith("01_a.md"))
    seconds = record.data["execution_seconds"]
    assert "Run this chapter" in chapter and "book/p1/01_a.md" in chapter
    assert f"took {times.format_seconds(seconds)}" in chapter
    assert 'download="01_a.ipynb" href="../../_notebooks/book/p1/01_a.ipynb"' in chapter  # saved, not shown
    # lazylib/_book/record_links.py: the chapter's number links to its record's row, anchored on the scorecard page
    rid = trace.record_id("p1/01_a", "Table 2", "zoo / OM")
    assert f'href="../appendix/scorecard.html#{rid}"' in chapter and "Where this page" in chapter
    assert f'<span id="{rid}">{rid}</span>' in page and 'id="records-p1-01_a"' in page
    # lazylib/_book/api_links.py: the names the chapter's code uses, linked into the API reference
    assert 'class="lazylib-on-this-page"' in chapter
    for api_page, anchor in (
        ("report", "module-lazylib.report.scorecard"),
        ("report", "lazylib.report.scorecard.Chapter"),
        ("report_verdicts", "lazylib.report.verdicts.judge"),
    ):
        assert f'href="../appendix/api/{api_page}.html#{anchor}"' in chapter
    executed = json.loads((small_book / "_build" / "html" / "_notebooks" / "book" / "p1" / "01_a.ipynb").read_text())
    assert any("chapter A executed" in str(cell.get("outputs")) for cell in executed["cells"])
    table = (small_book / "_build" / "html" / "book" / "appendix" / "execution.html").read_text()
    assert "01_a" in table and f"{round(seconds, 2)}" in table  # myst-nb's table, from the same cache

    (small_book / "book" / "p1" / "01_a.md").write_text(CHAPTER.replace("REPRODUCED", "95.5"))
    assert execute_once.current(small_book, cache, stamp) == (
        False,
        "changed since the pages were executed: book/p1/01_a.md",
    )
    # An incremental build (the environment of the first build kept) must still show the new outputs.
    rebuilt = run(build, small_book)
    assert rebuilt.returncode == 0, rebuilt.stdout[-3000:] + rebuilt.stderr[-3000:]
    order = [line.split()[-1] for line in rebuilt.stdout.splitlines() if line.startswith("executing ")]
    assert order == ["book/intro.md", "book/p1/01_a.md", "book/appendix/scorecard.md"]
    assert json.loads(stamp.read_text())["executed by"] == "the book build"
    page = (small_book / "_build" / "html" / "book" / "appendix" / "scorecard.html").read_text()
    assert "95.50" in page and "96.08" not in page


@pytest.mark.parametrize(
    "source, quiet",
    [
        ("a;", True),
        ("f(x);  # comment\n\n", True),
        ("x = 1", False),
        ("a;\nb", False),
        ("s = 'a;'", False),
        ("(", False),
    ],
)
def test_a_trailing_semicolon_hides_the_result_as_ipython_does(source, quiet):
    from conftest import _ends_with_semicolon

    assert _ends_with_semicolon(source) is quiet
