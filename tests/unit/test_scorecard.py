import json

import pandas as pd
import pytest

from lazylib.report import scorecard


def test_inside_means_published_within_band_widened_by_rounding():
    card = scorecard.Chapter(part="II", paper="payne2000", chapter="payne2000_subspace/03_tables")
    card.cell(source="Table 2", cell="a", published=90.004, reproduced=89.0, low=88.0, high=90.0, tolerance=0.005)
    card.cell(source="Table 2", cell="b", published=90.006, reproduced=89.0, low=88.0, high=90.0, tolerance=0.005)
    card.cell(source="Table 2", cell="c", published=89.0, reproduced=89.0)
    cells, _ = card.frames()
    assert cells["inside"].tolist() == [True, False, True]


def test_save_and_load_round_trip_one_file_per_chapter(tmp_path):
    card = scorecard.Chapter(part="IV", paper="wilson1997", chapter="wilson1997_hdf/05_table8")
    card.cells(
        pd.DataFrame(
            {
                "source": ["Table 8"],
                "cell": ["average / IVDM"],
                "published": [83.8],
                "reproduced": [83.1],
                "low": [82.5],
                "high": [83.6],
            }
        )
    )
    card.claim(claim="IVDM has the highest average", verdict="supported", evidence="83.1 vs 82.0")
    path = card.save(tmp_path)
    assert path.name == "wilson1997_hdf__05_table8.json"
    card.save(tmp_path)  # re-executing a chapter replaces its record
    other = scorecard.Chapter(part="I", paper="payne1998", chapter="payne1998_vdm/03_uci_table2")
    other.claim(claim="H1", verdict="not supported")
    other.save(tmp_path)
    cells, claims = scorecard.load(tmp_path)
    assert len(cells) == 1 and len(claims) == 2
    assert json.loads(path.read_text())["cells"][0]["inside"] is False
    summary = scorecard.summary(cells, claims)
    assert summary.index.tolist() == ["I", "IV"]
    assert summary.loc["IV", "cells"] == 1 and summary.loc["IV", "inside band"] == 0
    assert summary.loc["I", "not supported"] == 1 and summary.loc["IV", "supported"] == 1


def test_records_dir_is_the_book_root(tmp_path, monkeypatch):
    (tmp_path / "_toc.yml").write_text("format: jb-book\n")
    (tmp_path / "book" / "part").mkdir(parents=True)
    monkeypatch.delenv("LAZYLIB_SCORECARD_DIR", raising=False)
    monkeypatch.chdir(tmp_path / "book" / "part")
    assert scorecard.records_dir() == (tmp_path / ".scorecard").resolve()
    monkeypatch.setenv("LAZYLIB_SCORECARD_DIR", str(tmp_path / "elsewhere"))
    assert scorecard.records_dir() == tmp_path / "elsewhere"


def test_empty_directory_loads_empty_frames(tmp_path):
    cells, claims = scorecard.load(tmp_path)
    assert cells.empty and claims.empty and list(cells.columns) == scorecard.CELL_COLUMNS


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"published": "n/a"}, "published value"),
        ({"published": float("nan")}, "NaN"),
        ({"low": 3.0, "high": 2.0}, "empty"),
        ({"tolerance": -1}, "non-negative"),
    ],
)
def test_bad_cells_are_refused_with_a_message(kwargs, message):
    card = scorecard.Chapter(part="I", paper="p", chapter="c")
    args = {"source": "T", "cell": "x", "published": 1.0, "reproduced": 1.0, **kwargs}
    with pytest.raises(ValueError, match=message):
        card.cell(**args)


def test_bad_verdicts_and_parts_are_refused():
    with pytest.raises(ValueError, match="verdict"):
        scorecard.Chapter(part="I", paper="p", chapter="c").claim(claim="x", verdict="maybe")
    with pytest.raises(ValueError, match="Roman"):
        scorecard.Chapter(part="2", paper="p", chapter="c")
