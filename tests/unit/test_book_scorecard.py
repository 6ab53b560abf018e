"""The scorecard page reads only current records of the chapters in ``_toc.yml``."""

from __future__ import annotations

import pytest

from lazylib.report import book_files, scorecard
from lazylib.report.verdicts import all_of, judge

FRONT = "---\nkernelspec:\n  name: python3\n---\n"


@pytest.fixture
def book(tmp_path, monkeypatch):
    """A book with two chapters that use the scorecard and an index page, working directory inside it."""
    (tmp_path / "_toc.yml").write_text(
        "format: jb-book\nroot: book/intro\nparts:\n  - caption: Part I. p\n    chapters:\n"
        "      - file: book/p/index\n      - file: book/p/02_b\n"
        "      - file: book/p/01_a\n  - caption: Part II. q\n    chapters:\n      - file: book/q/01_c\n"
    )
    (tmp_path / "book" / "p").mkdir(parents=True)
    (tmp_path / "book" / "intro.md").write_text("# Intro\n")
    (tmp_path / "book" / "p" / "index.md").write_text("# Part\n")
    (tmp_path / "book" / "q").mkdir(parents=True)
    (tmp_path / "book" / "q" / "01_c.md").write_text(f"{FRONT}# c\n")  # uses no scorecard (until a test says so)
    for name in ("p/01_a", "p/02_b"):
        (tmp_path / "book" / f"{name}.md").write_text(
            f"{FRONT}# {name}\n\n```{{code-cell}}\nfrom lazylib import scorecard\n```\n"
        )
    monkeypatch.delenv("LAZYLIB_SCORECARD_DIR", raising=False)
    monkeypatch.chdir(tmp_path / "book" / "p")
    return tmp_path


def record(chapter, published=1.0):
    card = scorecard.Chapter(part="I", paper="p", chapter=chapter)
    card.cell(source="T", cell=chapter, published=published, runs=[1.0], digits=0, deterministic=True)
    card.claim(
        claim=f"claim of {chapter}", judgement=judge(lambda ok: all_of(ok), [({"seed": 0}, True)], primary={"seed": 0})
    )
    return card.save()


def test_records_come_back_in_toc_order(book):
    record("p/01_a")
    record("p/02_b")
    cells, claims = scorecard.load()
    assert cells["chapter"].tolist() == ["p/02_b", "p/01_a"] == claims["chapter"].tolist()


def test_a_record_of_a_chapter_not_in_the_toc_is_ignored(book):
    record("p/01_a")
    record("p/02_b")
    record("p/03_deleted")
    cells, _ = scorecard.load()
    assert "p/03_deleted" not in set(cells["chapter"])
    assert len(scorecard.load(book=False)[0]) == 3  # still on disk, just not shown


def test_a_record_older_than_its_chapter_is_refused(book):
    record("p/01_a")
    record("p/02_b")
    (book / "book" / "p" / "01_a.md").write_text((book / "book" / "p" / "01_a.md").read_text() + "\nedited\n")
    with pytest.raises(scorecard.StaleRecords, match="older sources: p/01_a"):
        scorecard.load()


def test_a_record_older_than_the_published_numbers_is_refused(book):
    record("p/01_a")
    record("p/02_b")
    (book / "book" / "published").mkdir()
    (book / "book" / "published" / "t.csv").write_text("a\n1\n")
    with pytest.raises(scorecard.StaleRecords, match="p/02_b, p/01_a"):
        scorecard.load()


def test_a_chapter_that_left_no_record_is_reported(book):
    record("p/01_a")
    with pytest.raises(scorecard.StaleRecords, match="left no record: p/02_b"):
        scorecard.load()


def test_the_fingerprint_covers_the_published_numbers(book):
    before = book_files.inputs_fingerprint(book)
    (book / "book" / "published").mkdir()
    (book / "book" / "published" / "t.csv").write_text("a\n1\n")
    assert book_files.inputs_fingerprint(book) != before
    assert book_files.inputs_fingerprint(book) == book_files.inputs_fingerprint(book)


def test_toc_chapters_of_the_real_book_include_the_scorecard_page():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    chapters = book_files.toc_chapters(root)
    assert chapters[0] == "intro" and "appendix/scorecard" in chapters
    assert all((root / "book" / f"{c}.md").is_file() for c in chapters)


def test_one_part_is_loaded_and_checked_alone(book):
    record("p/01_a")
    record("p/02_b")
    (book / "book" / "q" / "01_c.md").write_text(
        f"{FRONT}# c\n\n```{{code-cell}}\nfrom lazylib import scorecard\n```\n"
    )
    with pytest.raises(scorecard.StaleRecords, match="left no record: q/01_c"):
        scorecard.load()
    cells, _ = scorecard.load(parts=["I"])  # Part II's missing record does not stop Part I's page
    assert set(cells["chapter"]) == {"p/01_a", "p/02_b"}
    assert book_files.toc_parts(book) == {"p/index": "I", "p/02_b": "I", "p/01_a": "I", "q/01_c": "II"}


def test_pages_reading_the_records_execute_after_every_chapter(book):
    from lazylib._book import execute_once

    (book / "book" / "intro.md").write_text(f"{FRONT}# Intro\n\n```{{code-cell}}\nheadline.headline(c, v)\n```\n")
    (book / "book" / "p" / "index.md").write_text(
        f"{FRONT}# Part\n\n```{{code-cell}}\nscorecard.load(parts=['I'])\n```\n"
    )
    order = [str(p.relative_to(book / "book")) for p in execute_once.toc_notebooks(book)]
    assert order == ["p/02_b.md", "p/01_a.md", "q/01_c.md", "intro.md", "p/index.md"]
