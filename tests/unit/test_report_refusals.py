"""The report layer refuses what cannot be true (issue #53 item 6): a bounded published value outside its
bounds, a second registration of one cell, a NaN published value; records are written whole and a damaged one
is named."""

from __future__ import annotations

import math

import pytest

from lazylib.report import scorecard
from lazylib.report.bands import PERCENT, reading_note
from lazylib.report.scorecard import Chapter

RUNS = [70.1, 69.8, 70.4, 70.0, 69.9]


def _card() -> Chapter:
    return Chapter(part="I", paper="payne1998", chapter="payne1998_vdm/99_test")


def test_a_bounded_published_value_outside_its_bounds_is_refused():
    card = _card()
    with pytest.raises(ValueError, match="published value 150 lies outside its bounds \\[0, 100\\]"):
        card.cell(source="Table 2", cell="zoo / OM", published=150, runs=RUNS, digits=1, bounds=PERCENT)
    with pytest.raises(ValueError, match="outside its bounds"):
        card.cell(source="Table 2", cell="zoo / OM", published=-0.5, runs=RUNS, digits=1, bounds=PERCENT)
    assert card.frames()[0].empty
    card.cell(source="Table 2", cell="zoo / OM", published=70.0, runs=RUNS, digits=1, bounds=PERCENT)
    assert len(card.frames()[0]) == 1


def test_a_cell_registered_twice_is_refused_not_counted_twice():
    card = _card()
    card.cell(source="Table 2", cell="zoo / OM", published=70.0, runs=RUNS, digits=1)
    with pytest.raises(ValueError, match="registered twice"):
        card.cell(source="Table 2", cell="zoo / OM", published=70.2, runs=RUNS, digits=1)
    card.cell(source="Table 2", cell="zoo / VDM", published=70.0, runs=RUNS, digits=1)  # another cell
    card.cell(source="Table 3", cell="zoo / OM", published=70.0, runs=RUNS, digits=1)  # another source
    assert len(card.frames()[0]) == 3


@pytest.mark.parametrize("value", [math.nan, "nan", None, math.inf])
def test_a_nan_published_value_is_refused(value):
    with pytest.raises(ValueError, match="published value of Table 2 / zoo"):
        _card().cell(source="Table 2", cell="zoo / OM", published=value, runs=RUNS, digits=1)


def test_a_nan_published_value_gets_no_note():
    with pytest.raises(ValueError, match="finite published value"):
        reading_note(math.nan, {"ties first": [65.0, 65.2, 64.9]}, digits=1)
    assert reading_note(80.0, {"ties first": [65.0, 65.2, 64.9]}, digits=1)[1] == "tested"


def test_a_record_is_written_whole_and_a_damaged_one_is_named(tmp_path):
    card = _card()
    card.cell(source="Table 2", cell="zoo / OM", published=70.0, runs=RUNS, digits=1)
    path = card.save(tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == [path.name]
    assert len(scorecard.load(tmp_path, book=False)[0]) == 1
    path.write_text('{"chapter": "x", "cel')
    with pytest.raises(ValueError, match=f"record {path} is damaged"):
        scorecard.load(tmp_path, book=False)
