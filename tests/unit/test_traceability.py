"""Every printed number traceable (issue #54, item 6): 20 records drawn at random are followed back to the function
that computed them and recomputed from the runs they store, and a tampered record is caught.

Two sets of records are traced. Records written here by :class:`lazylib.report.scorecard.Chapter` (five chapters,
every kind of band: bounded, deterministic, averaged) always; and the book's own records when a current set of them
is in the records' folder (``make test`` writes them as it executes the chapters, after the unit tests, so there the
scorecard appendix's hidden cell runs the same trace on every chapter's records; this test skips the book's part with
the reason when they are absent or stale).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from lazylib._book import record_links
from lazylib.report import book_files, scorecard, scorecard_html, trace
from lazylib.report.bands import PERCENT
from lazylib.report.display import MISSING, printed

CHAPTERS = ["p/01_a", "p/02_b", "p/03_c", "q/01_d", "q/02_e"]


def write_records(folder, rng):
    """Five chapters' records, 47 cells: accuracies from 10 noisy runs, deterministic values and averages."""
    for i, chapter in enumerate(CHAPTERS):
        card = scorecard.Chapter(part="I" if chapter.startswith("p") else "II", paper="p", chapter=chapter)
        for j in range(6):
            runs = 80 + 5 * rng.standard_normal(10)
            card.cell(
                source="Table 2",
                cell=f"set {j} / OM",
                published=float(np.mean(runs)),
                runs=runs,
                digits=2,
                bounds=PERCENT,
            )
        for j in range(2 + i % 2):
            value = float(rng.uniform(0, 1))
            card.cell(
                source="Table 3",
                cell=f"ratio {j}",
                published=round(value, 3),
                runs=[value],
                digits=3,
                deterministic=True,
                kind="constructed",
            )
        runs = rng.uniform(10, 20, size=5)
        card.cell(source="Fig. 4", cell="mean", published=float(np.mean(runs)), runs=runs, digits=1, averaged=5)
        card.save(folder)


@pytest.fixture
def records(tmp_path):
    folder = tmp_path / "records"
    write_records(folder, np.random.default_rng(20260054))
    return folder


def shown_on_the_scorecard(cells, claims) -> dict[str, str]:
    """Record id -> the reproduced value the scorecard appendix prints in the record's row."""
    root = cells.attrs.get("root")
    shown = {}
    for part in dict.fromkeys(cells["part"]):
        shown.update(trace.printed_cells(scorecard_html.part_html(cells, claims, part, root=root)))
    return shown


def test_twenty_random_records_are_recomputed_from_their_runs(records, tmp_path):
    cells, claims = scorecard.load(records)
    assert len(cells) == 47 and cells["id"].is_unique
    traced = trace.follow_sample(cells, 20, random_state=7)
    assert len(traced) == 20 and traced["id"].is_unique
    assert set(traced["function"]) == {"lazylib.report.bands.prediction_band"}
    stored = cells.set_index("id").loc[traced["id"]]
    assert np.array_equal(traced["reproduced"].to_numpy(), stored["reproduced"].to_numpy())
    assert traced["printed"].tolist() == [printed(v, d) for v, d in zip(stored["reproduced"], stored["digits"])]
    # the printed value is the one the scorecard appendix shows in the row anchored at the record's id
    for chapter in CHAPTERS:
        (tmp_path / "book" / chapter).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "book" / f"{chapter}.md").write_text(f"# Chapter {chapter}\n")
    cells.attrs["root"] = tmp_path
    shown = shown_on_the_scorecard(cells, claims)
    assert set(shown) == set(cells["id"])
    assert [shown[rid] for rid in traced["id"]] == traced["printed"].tolist()
    # a different seed draws other records, all of them tracing back as well
    assert set(trace.follow_sample(cells, 20, random_state=8)["id"]) != set(traced["id"])


def tamper(records, change):
    """Change the first cell of one record file as ``change(cell)`` does, in place."""
    path = book_files.record_file(records, "p/02_b")
    record = json.loads(path.read_text(encoding="utf-8"))
    change(record["cells"][0])
    path.write_text(json.dumps(record), encoding="utf-8")
    return record["cells"][0]["id"]


@pytest.mark.parametrize(
    ("change", "caught"),
    [
        (lambda c: c["values"].__setitem__(3, c["values"][3] + 1e-9), "fingerprint is not the one stored"),
        (lambda c: c.update(digits=1), "fingerprint is not the one stored"),
        (lambda c: c.update(reproduced=c["reproduced"] + 0.01), "gives reproduced"),
        (lambda c: c.update(high=c["high"] + 0.5), "gives high"),
        (lambda c: c.update(function="lazylib.report.bands.band_definition"), "fingerprint is not the one stored"),
        (lambda c: c.update(cell="another cell"), "its id is not the one"),
        (lambda c: c.pop("fingerprint"), "has no id, function or fingerprint"),
    ],
    ids=["a run", "the decimals", "the value", "the band", "the function", "the cell", "no fingerprint"],
)
def test_a_tampered_record_is_caught(records, change, caught):
    rid = tamper(records, change)
    cells, _ = scorecard.load(records)
    with pytest.raises(trace.Untraceable, match=caught):
        trace.follow(cells.set_index("id", drop=False).loc[rid].to_dict())
    with pytest.raises(trace.Untraceable, match=rid):
        trace.follow_sample(cells, len(cells))  # a sample holding the tampered record fails, naming it


def test_a_fingerprint_consistent_forgery_is_caught_by_the_recomputation(records):
    """Runs and fingerprint both rewritten, the reproduced value left: the function's result exposes it."""

    def forge(c):
        c["values"] = [v + 1.0 for v in c["values"]]
        c["fingerprint"] = trace.fingerprint(c["values"], c["function"], **{k: c[k] for k in trace.PARAMETERS})

    rid = tamper(records, forge)
    cells, _ = scorecard.load(records)
    with pytest.raises(trace.Untraceable, match="gives reproduced"):
        trace.follow(cells.set_index("id", drop=False).loc[rid].to_dict())


def test_the_named_function_must_be_a_lazylib_function(records):
    def elsewhere(c):
        c["function"] = "os.system"
        c["fingerprint"] = trace.fingerprint(c["values"], c["function"], **{k: c[k] for k in trace.PARAMETERS})

    rid = tamper(records, elsewhere)
    cells, _ = scorecard.load(records)
    with pytest.raises(trace.Untraceable, match="not a lazylib function"):
        trace.follow(cells.set_index("id", drop=False).loc[rid].to_dict())


def test_an_old_record_without_provenance_says_to_re_execute_it(tmp_path):
    with pytest.raises(trace.Untraceable, match="re-execute"):
        trace.follow({"id": None, "chapter": "x", "source": "T", "cell": "c"})
    with pytest.raises(ValueError, match="execute the chapters first"):
        trace.follow_sample(scorecard.load(tmp_path, book=False)[0])


def test_ids_are_stable_and_fingerprints_follow_the_runs(tmp_path):
    first, second = tmp_path / "one", tmp_path / "two"
    write_records(first, np.random.default_rng(1))
    write_records(second, np.random.default_rng(2))  # other runs, same cells
    a, b = scorecard.load(first)[0], scorecard.load(second)[0]
    assert a["id"].tolist() == b["id"].tolist()  # a link to a record survives re-running its chapter
    assert not set(a["fingerprint"]) & set(b["fingerprint"])


def test_every_chapter_page_links_its_numbers_and_figures_to_their_records(records):
    from docutils import nodes
    from docutils.frontend import get_default_settings
    from docutils.parsers.rst import Parser
    from docutils.utils import new_document

    doctree = new_document("page", get_default_settings(Parser))
    section = nodes.section()
    section += nodes.title("Table 2", "Table 2")
    figure = nodes.figure()
    figure += nodes.caption("Reproduces Fig. 2.", "Reproduces Fig. 2.")
    section += figure
    doctree += section
    record = record_links.read_record(records, "p/02_b")
    record_links.add_links(doctree, "book/p/02_b", record)
    refs = [r["refuri"] for r in doctree.findall(nodes.reference)]
    assert refs[0] == "../appendix/scorecard.html#records-p-02_b"  # the figure's caption
    assert figure.astext().endswith("Records: this page's 10 records.")
    ids = [c["id"] for c in record["cells"]]
    assert refs[-len(ids) :] == [f"../appendix/scorecard.html#{rid}" for rid in ids]  # every cell, in order
    note = next(doctree.findall(nodes.admonition))
    assert (
        "puts 10 numbers beside the paper's" in note.astext()
        and "lazylib.report.bands.prediction_band" in note.astext()
    )
    assert record_links.read_record(records, "p/09_none") is None
    assert record_links.chapter_of("book/appendix/scorecard") == "appendix/scorecard"
    assert record_links.scorecard_uri("intro") == "book/appendix/scorecard.html"


def test_the_book_records_trace_back():
    """The book's own records, when ``make test`` (or the book's execution) has left a current set of them."""
    try:
        cells, claims = scorecard.load()
    except scorecard.StaleRecords as stale:
        pytest.skip(f"the book's records are not current: execute every chapter first (make test); {str(stale)[:240]}")
    if cells.empty:
        pytest.skip(
            f"no records in {book_files.records_dir()}: the chapters write them as they execute (make test executes "
            "them after the unit tests, and the scorecard appendix then traces 20 of them)"
        )
    traced = trace.follow_sample(cells)
    shown = shown_on_the_scorecard(cells, claims)
    assert [shown[rid] for rid in traced["id"]] == traced["printed"].tolist()


def test_a_record_from_before_the_ids_shows_a_dash_and_no_function(records):
    cells, _ = scorecard.load(records)
    old = cells[cells["chapter"] == "p/01_a"].copy()
    old[["id", "function", "fingerprint"]] = np.nan  # as load() fills the columns of an older record's cells
    box = scorecard_html.cells_html(old)
    assert "<span id=" not in box and "prediction_band" not in box
    assert box.count(f">{MISSING}</td>") == len(old)  # the record column: a dash in every row
    assert trace.printed_cells(box) == {}
    with pytest.raises(trace.Untraceable, match="re-execute its chapter"):
        trace.follow_sample(old)
