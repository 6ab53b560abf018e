"""The registry of Parts (:mod:`lazylib.papers`) is the one list: the README's and the front page's tables are
what it renders, CITATION.cff and the bibliography hold its papers, the book has its folders, the protocols
package its modules, and every chapter's record takes its Part from it."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest
import yaml

from lazylib import papers
from lazylib.report.scorecard import Chapter

ROOT = Path(__file__).resolve().parents[2]


def test_the_readme_and_the_front_page_hold_the_tables_the_registry_renders():
    for path, table in (("README.md", papers.readme_table()), ("book/intro.md", papers.intro_table())):
        assert table in (ROOT / path).read_text(encoding="utf-8"), (
            f"{path}'s table of Parts is not what lazylib.papers renders: paste `python -m lazylib.papers`"
        )


def test_citation_and_the_bibliography_hold_the_registry_papers():
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert [ref["title"] for ref in citation["references"]] == [p.title for p in papers.PAPERS]
    bib = (ROOT / "book" / "references.bib").read_text(encoding="utf-8")
    for paper in papers.PAPERS:
        entry = re.search(rf"@\w+\{{{paper.citation},(.*?)\n\}}", bib, flags=re.S)
        assert entry and f"{{{paper.title}}}" in entry.group(1), paper.citation
        # a DOI, where the paper has one, is the same in both (Payne & Edwards 1998 and 2000 and Howe & Cardie: none
        # found; ECAI-98 and the Cornell manuscript have none)
        reference = next(ref for ref in citation["references"] if ref["title"] == paper.title)
        doi = re.search(r"\bdoi\s*=\s*\{([^}]*)\}", entry.group(1))
        assert (doi.group(1) if doi else None) == reference.get("doi"), paper.citation


def test_every_part_has_its_folder_protocol_and_paper_tests_and_the_book_no_other_part():
    for p in papers.PARTS:
        assert (ROOT / "book" / p.folder / "index.md").exists(), p.folder
        if p.protocol:
            importlib.import_module(f"lazylib.protocols.{p.protocol}")
        assert (ROOT / "tests" / "papers" / f"test_{p.key}.py").exists(), p.key
    folders = {path.parent.name for path in (ROOT / "book").glob("*/index.md")}
    assert folders == {p.folder for p in papers.PARTS}
    assert len({p.key for p in papers.PARTS}) == len({p.part for p in papers.PARTS}) == len(papers.PARTS)


def test_every_chapter_record_takes_its_part_from_its_path():
    chapters = sorted(p for p in (ROOT / "book").glob("*/*.md") if "Chapter.here()" in p.read_text(encoding="utf-8"))
    assert len(chapters) >= 20
    card = Chapter.here(ROOT / "book" / "howe_cardie_mdw" / "03_table2.md")
    assert (card.part, card.paper, card.chapter) == ("V", "howe_cardie", "howe_cardie_mdw/03_table2")
    with pytest.raises(ValueError, match="no Part named 'appendix'"):
        Chapter.here(ROOT / "book" / "appendix" / "scorecard.md")


def test_here_without_a_path_reads_the_session_name(monkeypatch):
    monkeypatch.setenv("JPY_SESSION_NAME", "book/wilson1997_hdf/03_accuracy.md")
    assert Chapter.here().chapter == "wilson1997_hdf/03_accuracy"
    monkeypatch.delenv("JPY_SESSION_NAME")
    with pytest.raises(RuntimeError, match="needs the chapter's path"):
        Chapter.here()
