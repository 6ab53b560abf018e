"""lazylib.report.display in a notebook: every DataFrame a chapter shows goes through the book's table style."""

from __future__ import annotations

import pandas as pd
import pytest


def test_frames_as_tables_styles_what_a_notebook_displays(monkeypatch):
    import IPython
    from IPython.core.interactiveshell import InteractiveShell

    from lazylib.report.display import frames_as_tables

    shell = InteractiveShell.instance()
    monkeypatch.setattr(IPython, "get_ipython", lambda: shell)
    frames_as_tables()
    frame = pd.DataFrame(
        {"accuracy": [96.08, float("nan")], "inside": [True, False], "evidence": ["a long sentence " * 8, "short"]}
    )
    html = shell.display_formatter.format(frame)[0]["text/html"]
    assert "96.08" in html and "yes" in html and "no" in html and "nan" not in html.lower()
    assert "a long sentence " * 7 in html  # nothing cut
    duplicated = pd.DataFrame([[1, 2]], columns=["a", "a"])  # a Styler needs unique labels: pandas' own table
    assert "<table" in shell.display_formatter.format(duplicated)[0]["text/html"]


def test_table_escapes_cell_text_index_and_headers():
    from lazylib.report.display import table

    html = table(pd.DataFrame({"<a>": ["<b>x</b> & y", "z"], "n": [1.0, 2.5]}, index=["<unseen>", "j"])).to_html()
    assert "&lt;b&gt;x&lt;/b&gt; &amp; y" in html and "&lt;a&gt;" in html and "&lt;unseen&gt;" in html
    assert "<b>x" not in html and "<unseen>" not in html


def test_printed_keeps_the_papers_decimals_and_never_shows_minus_zero():
    from lazylib.report.display import printed

    assert printed(68.0, 1) == "68.0" and printed(-0.0001, 2) == "0.00" and printed(-0.04, 1) == "0.0"
    assert printed(-1.25, 1) == "-1.2" and printed(0.123456, None) == "0.1235" and printed(2.0, float("nan")) == "2"
    assert printed(12.5, -1) == "12.5"


def test_frame_html_hides_the_index_keeps_numbers_on_one_line_and_notes_are_escaped():
    from lazylib.report.display import frame_html, notes_html

    text = frame_html(pd.DataFrame({"cell": ["a"], "published": ["1.0"]}, index=["hidden-row"]), "Cap <b>")
    assert "hidden-row" not in text and "Cap <b>" in text and "white-space: nowrap" in text
    assert "white-space" not in frame_html(pd.DataFrame({"claim": ["x"]}), "c")
    assert notes_html(["x", "y & z"]) == '<ol style="font-size: 85%"><li>x</li><li>y &amp; z</li></ol>'
    assert notes_html([]) == ""


def test_band_text_merges_two_bound_columns():
    from lazylib.report.display import MISSING, band_text

    assert band_text(pd.Series([83.14, 0.0]), [86.36, 100.0]) == ["83.1-86.4", "0.0-100.0"]
    assert band_text([1.0], [float("nan")]) == [MISSING]
    assert band_text([1.234], [2.0], digits=2) == ["1.23-2.00"]
    with pytest.raises(ValueError, match="same length"):
        band_text([1.0, 2.0], [3.0])
