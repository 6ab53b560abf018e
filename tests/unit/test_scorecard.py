import json

import pandas as pd
import pytest

from lazylib.report import book_files, headline, scorecard, scorecard_html
from lazylib.report.verdicts import all_of, judge

RUNS = [88.6, 89.4, 89.1, 88.8, 89.3]


def judged(holds=True):
    return judge(lambda ok: all_of(ok), [({"seed": 0}, holds)], primary={"seed": 0})


def test_inside_means_published_within_the_prediction_band():
    card = scorecard.Chapter(part="II", paper="payne2000", chapter="payne2000_subspace/03_tables")
    band = card.cell(source="Table 2", cell="a", published=89.0, runs=RUNS, digits=1)
    card.cell(
        source="Table 2",
        cell="b",
        published=band.high + 0.01,
        runs=RUNS,
        digits=1,
        deviation="unexplained",
        note_kind="untested",
    )
    card.cell(source="Table 2", cell="c", published=0.38, runs=[0.384], digits=2, deterministic=True)
    cells, _ = card.frames()
    assert cells["inside"].tolist() == [True, False, True]
    assert cells["runs"].tolist() == [5, 5, 1] and cells["digits"].tolist() == [1, 1, 2]
    assert cells.loc[0, "reproduced"] == pytest.approx(sum(RUNS) / 5)
    assert "prediction interval" in cells.loc[0, "band"] and "deterministic" in cells.loc[2, "band"]


def test_a_typed_verdict_or_a_hand_made_band_is_refused():
    card = scorecard.Chapter(part="II", paper="payne2000", chapter="payne2000_subspace/03_tables")
    with pytest.raises(TypeError):
        card.cell(source="Table 2", cell="a", published=90.0, reproduced=89.0, low=88.0, high=90.0)
    with pytest.raises(ValueError, match="runs"):
        card.cell(source="Table 2", cell="a", published=90.0, runs=None, digits=1)
    with pytest.raises(TypeError):
        card.claim(claim="typed", verdict="supported")
    with pytest.raises(ValueError, match="Judgement"):
        card.claim(claim="typed", judgement="supported")


def test_save_and_load_round_trip_one_file_per_chapter(tmp_path):
    card = scorecard.Chapter(part="IV", paper="wilson1997", chapter="wilson1997_hdf/05_table8")
    card.cells(
        pd.DataFrame(
            {
                "source": ["Table 8"],
                "cell": ["average / IVDM"],
                "published": [83.8],
                "runs": [[82.6, 83.0, 82.9, 82.7, 82.8]],
                "digits": [1],
                "deviation": ["unexplained"],
                "note_kind": ["untested"],
            }
        )
    )
    card.claim(claim="IVDM has the highest average", judgement=judged(True), evidence="83.1 vs 82.0")
    path = card.save(tmp_path)
    assert path.name == "wilson1997_hdf__05_table8.json"
    card.save(tmp_path)  # re-executing a chapter replaces its record
    other = scorecard.Chapter(part="I", paper="payne1998", chapter="payne1998_vdm/03_uci_table2")
    other.claim(claim="H1", judgement=judged(False))
    other.claim(claim="by construction", judgement=judged(True), kind="property")
    other.save(tmp_path)
    cells, claims = scorecard.load(tmp_path)
    assert len(cells) == 1 and len(claims) == 3
    assert json.loads(path.read_text())["cells"][0]["inside"] is False
    summary = headline.summary(cells, claims)
    assert summary.index.tolist() == ["I", "IV"]
    assert summary.loc["IV", "published numbers"] == 1 and summary.loc["IV", "inside"] == 0
    assert summary.loc["I", "not supported"] == 1 and summary.loc["IV", "supported"] == 1
    assert summary.loc["I", "supported"] == 0 and summary.loc["I", "other records"] == 1  # property: apart
    head = headline.headline(cells, claims)
    assert head.loc["all", "published numbers inside their band"] == "0 / 1 (0%)"
    assert head.loc["I", "claims: supported / partly / not / not testable / unstable"] == "0 / 0 / 1 / 0 / 0"
    assert headline.headline_markdown(cells, claims).splitlines()[0].startswith("| Part |")


def test_readme_block_is_written_between_markers_and_checked(tmp_path):
    card = scorecard.Chapter(part="I", paper="p", chapter="c")
    card.claim(claim="x", judgement=judged(True))
    cells, claims = card.frames()
    readme = tmp_path / "README.md"
    start, end = headline.README_MARKERS
    readme.write_text(f"# R\n\n{start}\nold\n{end}\n\nmore\n")
    with pytest.raises(AssertionError, match="not what the records give"):
        headline.check_readme(readme, cells, claims)
    assert headline.write_readme(readme, headline.headline_markdown(cells, claims))
    headline.check_readme(readme, cells, claims)
    assert readme.read_text().endswith(f"{end}\n\nmore\n")
    assert not headline.write_readme(readme, headline.headline_markdown(cells, claims))


def test_records_dir_is_the_book_root(tmp_path, monkeypatch):
    (tmp_path / "_toc.yml").write_text("format: jb-book\n")
    (tmp_path / "book" / "part").mkdir(parents=True)
    monkeypatch.delenv("LAZYLIB_SCORECARD_DIR", raising=False)
    monkeypatch.chdir(tmp_path / "book" / "part")
    assert book_files.records_dir() == (tmp_path / ".scorecard").resolve()
    monkeypatch.setenv("LAZYLIB_SCORECARD_DIR", str(tmp_path / "elsewhere"))
    assert book_files.records_dir() == tmp_path / "elsewhere"


def test_empty_directory_loads_empty_frames(tmp_path):
    cells, claims = scorecard.load(tmp_path)
    assert cells.empty and claims.empty and list(cells.columns) == scorecard.CELL_COLUMNS


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"published": "n/a"}, "published value"),
        ({"published": float("nan")}, "NaN"),
        ({"runs": None}, "runs"),
        ({"digits": None}, "digits"),
        ({"kind": "guess"}, "kind"),
        ({"runs": [1.0, float("inf")]}, "finite"),
    ],
)
def test_bad_cells_are_refused_with_a_message(kwargs, message):
    card = scorecard.Chapter(part="I", paper="p", chapter="c")
    args = {"source": "T", "cell": "x", "published": 1.0, "runs": [1.0, 1.0], "digits": 1, **kwargs}
    with pytest.raises(ValueError, match=message):
        card.cell(**args)


def test_bad_claims_and_parts_are_refused():
    card = scorecard.Chapter(part="I", paper="p", chapter="c")
    with pytest.raises(ValueError, match="Judgement"):
        card.claim(claim="x", judgement="supported")
    with pytest.raises(TypeError, match="judgement"):
        card.claim(claim="x")
    with pytest.raises(ValueError, match="kind"):
        card.claim(claim="x", judgement=judged(), kind="guess")
    with pytest.raises(ValueError, match="Roman"):
        scorecard.Chapter(part="2", paper="p", chapter="c")


def test_an_average_of_r_runs_gets_the_band_of_an_average_and_the_record_keeps_the_runs():
    card = scorecard.Chapter(part="II", paper="p", chapter="c")
    one = card.cell(source="T", cell="one run", published=89.0, runs=RUNS, digits=1)
    mean = card.cell(source="T", cell="mean of 15", published=89.0, runs=RUNS, digits=1, averaged=15)
    assert mean.high - mean.low < one.high - one.low and mean.averaged == 15
    cells, _ = card.frames()
    assert cells.loc[1, "values"] == RUNS and cells.loc[1, "averaged"] == 15
    assert "average of 15 new runs" in cells.loc[1, "band"]
    assert cells.loc[1, "half_width"] == pytest.approx((mean.high - mean.low) / 2)
    recomputed = headline.recompute_bands(cells)
    assert recomputed["low"].tolist() == pytest.approx(cells["low"].tolist(), abs=1e-12)
    assert recomputed["high"].tolist() == pytest.approx(cells["high"].tolist(), abs=1e-12)


def test_a_bounded_band_never_crosses_its_bound_and_the_change_is_counted():
    card = scorecard.Chapter(part="V", paper="p", chapter="c")
    runs = [100.0, 93.3, 100.0, 86.7, 100.0, 93.3, 100.0, 100.0]
    band = card.cell(source="T", cell="iris", published=99.0, runs=runs, digits=1, bounds=(0, 100))
    assert 0 <= band.low and band.high <= 100 and band.crossed
    assert "logit" in band.definition
    cells, claims = card.frames()
    assert headline.details(cells).loc["V", "bands the bound changed"] == 1
    with pytest.raises(ValueError, match="outside the bounds"):
        card.cell(source="T", cell="x", published=50.0, runs=[101.0, 99.0], digits=1, bounds=(0, 100))


def test_a_value_a_proven_bound_rules_out_is_never_inside_and_counted_apart():
    card = scorecard.Chapter(part="V", paper="p", chapter="c")
    wide = [60.0, 80.0, 70.0, 75.0, 65.0]
    with pytest.raises(ValueError, match="proven bound"):
        card.cell(source="T", cell="LED", published=78.4, runs=wide, digits=1, proven_max=74.0)
    band = card.cell(
        source="T",
        cell="LED",
        published=78.4,
        runs=wide,
        digits=1,
        proven_max=74.0,
        deviation="above the Bayes bound 74.0 %",
    )
    assert band.contains(78.4)  # the band alone would hold it
    card.cell(source="T", cell="LED-7", published=73.9, runs=wide, digits=1, proven_max=74.0)
    cells, claims = card.frames()
    assert cells["kind"].tolist() == ["ruled out", "published"] and cells["inside"].tolist() == [False, True]
    row = headline.summary(cells, claims).loc["V"]
    assert (row["published numbers"], row["inside"], row["ruled out"]) == (2, 1, 1)
    assert "1 ruled out" in headline.headline(cells, claims).loc["V", "published numbers inside their band"]


def test_outside_notes_are_typed_and_counted_per_type():
    card = scorecard.Chapter(part="I", paper="p", chapter="c")
    with pytest.raises(ValueError, match="note_kind"):
        card.cell(source="T", cell="x", published=95.0, runs=RUNS, digits=1, deviation="tie rule")
    with pytest.raises(ValueError, match="note_kind must be one of"):
        card.cell(source="T", cell="x", published=95.0, runs=RUNS, digits=1, deviation="t", note_kind="guess")
    card.cell(
        source="T", cell="x", published=95.0, runs=RUNS, digits=1, deviation="all vote: 95.1", note_kind="explained"
    )
    card.cell(
        source="T", cell="y", published=80.0, runs=RUNS, digits=1, deviation="tried: 85.1, 86.0", note_kind="tested"
    )
    card.cell(source="T", cell="z", published=89.0, runs=RUNS, digits=1, note_kind="tested")  # inside: no note
    card.cell(source="T", cell="r", published=50.0, runs=RUNS, digits=1, kind="derived")
    cells, claims = card.frames()
    row = headline.details(cells).loc["I"]
    assert (row["notes explained"], row["notes tested"], row["notes untested"], row["derived"]) == (1, 1, 0, 1)
    assert cells["note_kind"].iloc[2:].isna().all()
    assert headline.summary(cells, claims).loc["I", "published numbers"] == 3
    assert headline.summary(cells, claims).loc["I", "within 1 unit"] == 1  # 89.0 against 89.04 only


def test_unstable_and_stand_in_claims_are_tallied_apart():
    card = scorecard.Chapter(part="IV", paper="p", chapter="c")
    flip = judge(lambda ok: all_of(ok), [({"seed": s}, s == 0) for s in range(3)], primary={"seed": 0})
    card.claim(claim="minority", judgement=flip)
    card.claim(claim="method", judgement=judged(True), kind="stand-in")
    cells, claims = card.frames()
    assert claims.loc[0, "verdict"] == "unstable" and claims.loc[0, "primary_verdict"] == "supported"
    assert claims.loc[0, "counts"] == {"not supported": 2, "supported": 1}
    head = headline.headline(cells, claims).loc["IV"]
    assert head["claims: supported / partly / not / not testable / unstable"] == "0 / 0 / 0 / 0 / 1"
    assert head["method claims on our collection"] == "1 / 0 / 0 / 0 / 0" and head["other records"] == 0


def test_part_html_shows_every_record_of_its_part_under_its_chapters_heading(tmp_path):
    (tmp_path / "book" / "part").mkdir(parents=True)
    (tmp_path / "book" / "part" / "c.md").write_text("---\nx: 1\n---\n\n(sec-c)=\n# The <first> heading\n\n# no\n")
    card = scorecard.Chapter(part="I", paper="payne1998", chapter="part/c")
    card.cell(source="Table 2", cell="zoo / OM", published=89.0, runs=RUNS, digits=1)
    card.cell(
        source="Table 2", cell="lung / VDM", published=95.0, runs=RUNS, digits=1, deviation="a < b", note_kind="tested"
    )
    card.claim(claim="H1", judgement=judged(True), evidence="all alike")
    other = scorecard.Chapter(part="II", paper="payne2000", chapter="part/d")
    other.claim(claim="elsewhere", judgement=judged(False))
    cells, claims = (pd.concat([a, b], ignore_index=True) for a, b in zip(card.frames(), other.frames()))
    assert book_files.chapter_title("part/c", tmp_path) == "The <first> heading"
    box = scorecard_html.part_html(cells, claims, "I", root=tmp_path)
    assert box.startswith("<details><summary><b>Part I: Payne &amp; Edwards (1998) (published numbers inside: 1 / 2")
    assert '<h4 id="records-part-c">The &lt;first&gt; heading</h4>' in box and "elsewhere" not in box
    assert "zoo / OM" in box and "89.0" in box and "no [1] (tested)" in box and "<li>a &lt; b</li>" in box
    assert ">kind<" not in box  # every record is of the published kind: no kind column
    assert "supported [1]" in box and "<li>all alike (" in box
    assert "5 runs" in scorecard_html.cells_html(cells[cells["part"] == "I"])
    assert "has not recorded" in scorecard_html.part_html(cells, claims, "III", root=tmp_path)


def test_claims_html_names_the_primary_verdict_of_an_unstable_claim_and_the_kind_when_mixed():
    card = scorecard.Chapter(part="IV", paper="p", chapter="c")
    flip = judge(lambda ok: all_of(ok), [({"seed": s}, s == 0) for s in range(3)], primary={"seed": 0})
    card.claim(claim="minority", judgement=flip, evidence="e")
    card.claim(claim="method", judgement=judged(True), kind="stand-in", evidence="f")
    text = scorecard_html.claims_html(card.frames()[1])
    assert (
        "unstable [1] (primary: supported)" in text
        and ">stand-in<" in text
        and "<li>f (1 of 1 conditions hold)</li>" in text
    )


def test_the_details_split_in_two_tables_that_fit_the_text_column():
    assert headline.DETAILS_COLUMNS == [*headline.BAND_DETAILS, *headline.NOTE_DETAILS]
    assert max(len(headline.BAND_DETAILS), len(headline.NOTE_DETAILS)) + 1 <= 9  # the Part's column included
