"""Each Part's reproduction report (lazylib.report.reproduction) counts what the scorecard counts, from the same
records; its status words come from one explicit mapping that refuses a verdict it does not name; its typed notes
(lazylib.report.part_notes) name pages of their own Part; every Part's page shows it and the front page links it."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest

from lazylib import papers
from lazylib.report import book_files, headline, part_notes, reproduction, scorecard
from lazylib.report.verdicts import NOTE_KINDS, REPORTED, judge, share_rule, threshold_rule

ROOT = Path(__file__).resolve().parents[2]
RUNS = [88.6, 89.4, 89.1, 88.8, 89.3]


def _judged(shares, primary=0):
    """A Judgement over seeds from one share per seed (0.9: supported, 0.6: partly, 0.1: not)."""
    rule = lambda share: threshold_rule(share, supported=0.8, partly=0.5)  # noqa: E731
    return judge(rule, {(seed,): s for seed, s in enumerate(shares)}, primary=(primary,), factors=("seed",))


def _records():
    """Hand-made records of two Parts with every status of a number and of a claim, and records of other kinds."""
    one = scorecard.Chapter(part="I", paper="payne1998", chapter="payne1998_vdm/03_uci_table2")
    band = one.cell(source="Table 2", cell="inside", published=89.0, runs=RUNS, digits=1)
    for i, note in enumerate(NOTE_KINDS):
        one.cell(source="Table 2", cell=f"out {i}", published=band.high + 1 + i, runs=RUNS, digits=1,
                 deviation="why", note_kind=note)  # fmt: skip
    one.cell(source="Fig. 3", cell="bound", published=95.0, runs=RUNS, digits=1, proven_max=90.0, deviation="Bayes")
    one.cell(
        source="Table 3", cell="derived", published=50.0, runs=[50.0], digits=1, kind="derived", deterministic=True
    )
    one.claim(claim="supported", judgement=_judged([0.9, 0.9]))
    one.claim(claim="partly", judgement=_judged([0.6, 0.6, 0.9]))
    one.claim(claim="unstable", judgement=_judged([0.9, 0.1, 0.1]))
    one.claim(claim="on ours", judgement=_judged([0.1]), kind="stand-in")
    one.claim(claim="by construction", judgement=_judged([0.9]), kind="property")
    two = scorecard.Chapter(part="IV", paper="wilson1997", chapter="wilson1997_hdf/03_accuracy")
    two.cell(source="Table 6", cell="a", published=89.1, runs=RUNS, digits=1)
    ties = judge(lambda a: share_rule(a, supported=1.0, partly=0.5), {("all",): [True], ("random",): [False]},
                 primary=("all",), factors=("ties",))  # fmt: skip
    two.claim(claim="ties", judgement=ties)
    two.claim(claim="none", judgement=judge(lambda _: threshold_rule(float("nan"), supported=1, partly=0),
                                            [({"seed": 0}, None)], primary={"seed": 0}))  # fmt: skip
    frames = [card.frames() for card in (one, two)]
    return pd.concat([f[0] for f in frames], ignore_index=True), pd.concat([f[1] for f in frames], ignore_index=True)


def test_every_verdict_the_scorecard_reports_has_one_status_and_an_unknown_one_fails():
    assert set(REPORTED) <= set(reproduction.STATUS)
    assert len(set(reproduction.STATUS.values())) == len(reproduction.STATUS)  # one status per verdict
    assert reproduction.claim_status("not supported") == "not reproduced"
    with pytest.raises(ValueError, match="no reproduction status: add it to lazylib.report.reproduction.STATUS"):
        reproduction.claim_status("mostly supported")


def test_every_note_type_has_an_outside_status_and_other_kinds_have_none():
    assert set(reproduction.OUTSIDE) == set(NOTE_KINDS)
    assert reproduction.number_status("ruled out", False, None) == "ruled out by a proven bound"
    assert reproduction.number_status("published", True, None) == "inside the band"
    with pytest.raises(ValueError, match="needs a note type"):
        reproduction.number_status("published", False, None)
    with pytest.raises(ValueError, match="only published and ruled-out numbers"):
        reproduction.number_status("derived", True, None)


@pytest.mark.parametrize("part", ["I", "IV"])
def test_the_report_counts_what_the_scorecard_counts(part):
    cells, claims = _records()
    expected = headline.summary(cells, claims).loc[part]
    report = reproduction.part_report(cells, claims, part, root=False)
    counts = report.counts()
    shared = [c for c in headline.SUMMARY_COLUMNS if c not in ("share inside", "within 1 unit", "median half-width")]
    assert shared == reproduction.SHARED
    assert {c: int(counts[c]) for c in shared} == {c: int(expected[c]) for c in shared}
    assert int(counts["published numbers"]) > 0 and reproduction.differences(report, cells, claims) == {}
    fewer = claims.drop(index=claims.index[(claims["part"] == part)][:1])  # the scorecard one claim short
    assert reproduction.differences(report, cells, fewer) != {}


def test_the_report_gives_each_number_and_claim_its_status():
    cells, claims = _records()
    report = reproduction.part_report(cells, claims, "I", root=False)
    assert report.numbers.set_index("cell")["status"].to_dict() == {
        "inside": "inside the band",
        "out 0": "outside, explained",
        "out 1": "outside, readings tested",
        "out 2": "outside, untested",
        "bound": "ruled out by a proven bound",
    }
    statuses = report.claims.set_index("claim")[["counted as", "status"]].to_dict("index")
    assert statuses["supported"] == {"counted as": "the paper's claim", "status": "reproduced"}
    assert statuses["partly"]["status"] == "partly reproduced"
    assert statuses["unstable"]["status"] == "depends on the reading"
    assert statuses["on ours"] == {"counted as": "on our collection", "status": "not reproduced"}
    assert statuses["by construction"]["counted as"] == "property"
    assert report.other_records == 2  # the derived number and the property
    assert report.number_counts().loc["Table 2"].tolist() == [1, 1, 1, 1, 0]
    assert report.claim_counts().loc["the paper's claim", "reproduced"] == 1


def test_the_records_keep_the_conditions_and_the_report_lists_them_as_readings():
    cells, claims = _records()
    assert claims.set_index("claim").loc["ties", "factors"] == {"ties": ["all", "random"]}
    readings = reproduction.part_report(cells, claims, "IV", root=False).readings
    assert readings["how"].tolist() == ["judged under all, random (1 claim)", "judged under 0 (1 claim)"]
    many = reproduction.part_report(cells, claims, "I", root=False).readings
    assert many.set_index("reading").loc["seed", "how"] == "judged under 0, 1, 2 (5 claims)"


def test_inside_the_book_the_report_has_every_chapter_title_and_stated_deviation():
    cells, claims = _records()
    report = reproduction.part_report(cells, claims, "I", root=ROOT)
    of_part = book_files.toc_parts(ROOT)
    pages = [c for c in book_files.toc_chapters(ROOT) if of_part.get(c) == "I"]
    assert report.chapters["chapter"].tolist() == pages[1:] and pages[0] == "payne1998_vdm/index"
    stated = report.readings[report.readings["how"] == "stated in its deviations"]
    assert {"Ties", "Folds", "Unexplained gaps"} <= set(stated["reading"])
    assert "Table 2" in report.scope_markdown() and papers.part_of("I").title in report.scope_markdown()
    assert "**Difficult.**" in report.notes_markdown() and part_notes.notes_of("I").data in report.notes_markdown()
    with pytest.raises(ValueError, match="no Part named"):
        reproduction.part_report(cells, claims, "XI", root=False)


def test_deviations_are_read_from_the_box_and_from_tables_of_readings(tmp_path):
    (tmp_path / "book" / "p").mkdir(parents=True)
    (tmp_path / "book" / "p" / "c.md").write_text(
        "# C\n\n| choice | ours |\n|---|---|\n| ties | all |\n| folds | ten |\n\n"
        ":::{admonition} Deviations from the paper\n:class: note\n\n- **Seeds.** ten\n- **k** one\n:::\n"
        "- **Not in the box.** no\n",
        encoding="utf-8",
    )
    assert book_files.chapter_deviations("p/c", tmp_path) == ["Seeds", "k", "ties", "folds"]


def test_the_typed_notes_cover_every_part_and_name_pages_of_their_own_part():
    assert [n.part for n in part_notes.NOTES] == [p.part for p in papers.PARTS]
    chapters = book_files.toc_chapters(ROOT)
    texts = []
    for notes in part_notes.NOTES:
        folder = papers.part_of(notes.part).folder
        assert notes.easy and notes.difficult and notes.data.strip(), notes.part
        for note in (*notes.easy, *notes.difficult):
            assert f"{folder}/{note.chapter}" in chapters, (notes.part, note.chapter)
            texts.append(note.text)
    assert len(texts) == len(set(texts))
    with pytest.raises(ValueError, match="no notes for Part"):
        part_notes.notes_of("VII")


def test_every_part_page_shows_its_report_and_the_front_page_links_them():
    intro = (ROOT / "book" / "intro.md").read_text(encoding="utf-8")
    assert reproduction.intro_links() in intro, "paste lazylib.report.reproduction.intro_links() into book/intro.md"
    for paper in papers.PARTS:
        text = (ROOT / "book" / paper.folder / "index.md").read_text(encoding="utf-8")
        assert f"(report-{paper.key})=" in text, paper.folder
        assert re.search(rf"reproduction\.part_report\(cells, claims, \"{paper.part}\"\)", text), paper.folder
