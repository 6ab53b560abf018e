"""The book's table of contents and its files agree, and every chapter follows the chapter rules."""

from __future__ import annotations

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def toc_files():
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    files = [toc["root"]]
    for part in toc["parts"]:
        for chapter in part["chapters"]:
            files += [chapter["file"]] + [section["file"] for section in chapter.get("sections", [])]
    return toc, files


def test_every_toc_entry_exists():
    _, files = toc_files()
    for entry in files:
        assert (ROOT / f"{entry}.md").is_file(), f"_toc.yml lists {entry}, which has no .md file"


def test_every_book_page_is_in_the_toc():
    _, files = toc_files()
    listed = {f"{f}.md" for f in files}
    pages = {str(p.relative_to(ROOT)) for p in (ROOT / "book").rglob("*.md")}
    assert pages == listed, f"pages not in _toc.yml: {sorted(pages - listed)}"


def test_one_part_per_registry_entry_in_its_order_plus_appendix():
    from lazylib.papers import PARTS

    toc, _ = toc_files()
    captions = [part["caption"] for part in toc["parts"]]
    assert len(captions) == len(PARTS) + 1 and captions[-1] == "Appendix"
    firsts = [part["chapters"][0]["file"] for part in toc["parts"][:-1]]
    assert firsts == [f"book/{paper.folder}/index" for paper in PARTS]


def test_chapters_have_deviation_box_and_single_kernel():
    from conftest import is_chapter

    for page in (ROOT / "book").rglob("*.md"):
        if not is_chapter(page):
            continue
        text = page.read_text()
        assert "name: python3" in text and "jupytext_version" not in text, page
        if page.name != "index.md" and "appendix" not in page.parts and page.name != "intro.md":
            assert "Deviations from the paper" in text, f"{page} has no 'Deviations from the paper' box"


def test_published_numbers_are_csv():
    for path in (ROOT / "book" / "published").glob("*"):
        assert path.suffix == ".csv", path
