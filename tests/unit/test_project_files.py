"""Files a research package is expected to carry: citation metadata, contribution rules, a generated time table."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

import lazylib
from lazylib._book import times

ROOT = Path(__file__).resolve().parents[2]


def test_citation_file_names_this_version():
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert citation["cff-version"] == "1.2.0" and citation["version"] == lazylib.__version__
    # its references are the papers of lazylib.papers: tests/unit/test_papers.py


def test_zenodo_metadata_is_the_citation_file_at_this_version():
    """A release's DOI record (.zenodo.json) says what CITATION.cff says, at the version pyproject builds."""
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    zenodo = json.loads((ROOT / ".zenodo.json").read_text())
    assert set(zenodo) >= {"title", "description", "creators", "license", "keywords", "version", "upload_type"}
    assert re.search(r'^version = \{ attr = "lazylib.__version__" \}', (ROOT / "pyproject.toml").read_text(), re.M)
    assert zenodo["version"] == citation["version"] == lazylib.__version__
    assert zenodo["title"] == citation["title"] and zenodo["description"] == citation["abstract"].strip()
    assert [c["name"] for c in zenodo["creators"]] == [a["name"] for a in citation["authors"]]
    assert zenodo["license"] == citation["license"] and zenodo["keywords"] == citation["keywords"]
    assert zenodo["upload_type"] == citation["type"] == "software"


def test_the_front_page_prints_the_version_it_was_built_from():
    text = (ROOT / "book" / "intro.md").read_text(encoding="utf-8")
    cells = re.findall(r"^```\{code-cell\}[^\n]*\n(.*?)^```", text, flags=re.M | re.S)
    shown = [c for c in cells if "lazylib.build_info()" in c and "remove-cell" not in c]
    assert shown and "info['version']" in shown[0], "book/intro.md must print lazylib.build_info()'s version"
    assert lazylib.build_info()["version"] == lazylib.__version__


def test_contributing_points_at_files_that_exist():
    text = (ROOT / "CONTRIBUTING.md").read_text()
    paths = set(re.findall(r"`((?:lazylib|tests|book|benchmarks)/[\w./<>-]+?)`", text))
    concrete = [p for p in paths if "<" not in p and "*" not in p]
    assert len(concrete) >= 8
    assert [p for p in concrete if not (ROOT / p).exists()] == []
    assert "CONTRIBUTING.md" in (ROOT / "README.md").read_text()


def _readme_section(title: str) -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def test_the_readme_is_short_with_the_two_commands_on_its_first_screen():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.encode()) <= 12_500, "README.md is over about 12 KB: measurements go to benchmarks/README.md"
    first_screen = "\n".join(text.splitlines()[:40])
    assert "make book" in first_screen and "make test" in first_screen
    assert "## Adding a chapter" not in text, "the chapter recipe lives in CONTRIBUTING.md only"
    assert (ROOT / "CHANGELOG.md").is_file() and (ROOT / "benchmarks" / "README.md").is_file()


def test_the_readme_example_on_your_own_data_runs_and_prints_what_it_says(tmp_path):
    """The first Python block of "Using lazylib on your own data", run as a user would paste it: each ``print``
    line ends with a comment holding what it prints."""
    import subprocess
    import sys

    block = re.search(r"```python\n(.*?)```", _readme_section("Using lazylib on your own data"), flags=re.S).group(1)
    assert len(block.splitlines()) <= 14
    expected = [line.rsplit("# ", 1)[1] for line in block.splitlines() if line.startswith("print(")]
    assert expected, "the example prints nothing to compare"
    done = subprocess.run([sys.executable, "-c", block], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == expected


def test_the_readme_time_table_is_written_between_its_markers(tmp_path):
    runs = tmp_path / "last_run.tsv"
    runs.write_text(
        "make lint\t27\t\nmake test\t648\t====== 1,767 passed, 2 skipped in 640.12s (0:10:40) ======\nmake book\t8\t\n"
    )
    steps = times.read_steps(runs)
    pages = {"book/intro.md": 3.0, "book/p1/01_a.md": 70.6, "book/appendix/scorecard.md": 1.2}
    parts = {"book/intro.md": "front page", "book/p1/01_a.md": "Part I", "book/appendix/scorecard.md": "Appendix"}
    block = times.table(steps, pages, parts, "2026-11-25")
    assert "| `make test` (1,767 tests passed) | 10 min 48 s |" in block
    assert "| all of `bash .ci/run` | 11 min 23 s |" in block
    assert "Executing the 3 pages took 1 min 15 s: front page 3 s, Part I 1 min 11 s, Appendix 1 s" in block
    readme = tmp_path / "README.md"
    readme.write_text(f"# x\n\n{times.BEGIN}\nold table\n{times.END}\n\nafter\n")
    times.rewrite(readme, block)
    text = readme.read_text()
    assert "old table" not in text and block in text and text.endswith(f"{times.END}\n\nafter\n")
    with pytest.raises(ValueError, match="no block between"):
        times.rewrite(runs, block)


def test_the_real_benchmarks_page_and_toc_have_what_make_times_needs():
    """The time table moved from the README to benchmarks/README.md (with the other timings and their machines)."""
    text = (ROOT / times.PAGE).read_text()
    assert text.count(times.BEGIN) == 1 and text.count(times.END) == 1
    parts = times.part_of_page(ROOT)
    assert parts["book/intro.md"] == "front page" and parts["book/wilson1997_hdf/03_accuracy.md"] == "Part IV"


def test_the_api_reference_renders_every_public_module():
    """The API reference (book/appendix/api.md and its pages book/appendix/api/*.md) has one automodule per public
    module of lazylib (the walk of the docstring test), so a new module cannot be left out of the reference; every
    page is in the table of contents."""
    import pkgutil

    public = sorted(
        ["lazylib"]
        + [
            info.name
            for info in pkgutil.walk_packages(lazylib.__path__, "lazylib.")
            if not any(part.startswith("_") for part in info.name.split(".")[1:])
        ]
    )
    pages = [ROOT / "book" / "appendix" / "api.md", *sorted((ROOT / "book" / "appendix" / "api").glob("*.md"))]
    documented = [m for page in pages for m in re.findall(r"^\.\. automodule:: (\S+)$", page.read_text(), flags=re.M)]
    assert sorted(documented) == public
    toc = (ROOT / "_toc.yml").read_text()
    assert all(f"file: {page.relative_to(ROOT).with_suffix('')}\n" in toc for page in pages)


def test_make_times_rewrites_the_readme_from_a_ci_log_and_an_execution_cache(tmp_path):
    """`python -m lazylib._book.times ROOT` end to end: .ci/last_run.tsv as `.ci/run` writes it (command, seconds,
    pytest's closing line or nothing) and a jupyter-cache holding two executed pages with their seconds."""
    import subprocess
    import sys

    import nbformat

    from lazylib._book import execute_once

    (tmp_path / ".ci").mkdir()
    (tmp_path / ".ci" / "last_run.tsv").write_text(
        "make lint\t59\t\n"
        "make test\t2036\t===== 2,720 passed, 16 skipped, 6 xfailed in 2030.55s (0:33:50) =====\n"
        "make book\t95\t\n"
    )
    (tmp_path / "_toc.yml").write_text(
        "format: jb-book\nroot: book/intro\nparts:\n  - caption: Part I. A paper\n"
        "    chapters:\n      - file: book/p1/01_a\n"
    )
    (tmp_path / "benchmarks").mkdir()
    (tmp_path / times.PAGE).write_text(f"# x\n\n{times.BEGIN}\ntyped by hand\n{times.END}\n")
    cache = tmp_path / execute_once.CACHE
    for page, seconds, source in (("book/intro.md", 4.2, "1 + 1"), ("book/p1/01_a.md", 125.4, "2 + 2")):
        path = tmp_path / page
        path.parent.mkdir(parents=True, exist_ok=True)
        notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source)])
        execute_once.store(notebook, path, seconds, cache)
    done = subprocess.run(
        [sys.executable, "-m", "lazylib._book.times", str(tmp_path)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    text = (tmp_path / times.PAGE).read_text()
    assert "typed by hand" not in text and done.stdout.strip() in text
    assert "| `make test` (2,720 tests passed) | 33 min 56 s |" in text
    assert "| `make lint` | 59 s |" in text and "| all of `bash .ci/run` | 36 min 30 s |" in text
    assert "Executing the 2 pages took 2 min 10 s: front page 4 s, Part I 2 min 5 s" in text
    assert "the slowest page, `book/p1/01_a.md`, 2 min 5 s" in text

    (tmp_path / ".ci" / "last_run.tsv").unlink()
    missing = subprocess.run(
        [sys.executable, "-m", "lazylib._book.times", str(tmp_path)], capture_output=True, text=True
    )
    assert missing.returncode != 0 and "run `bash .ci/run` first" in missing.stderr
