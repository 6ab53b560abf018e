"""Reader-facing tables: nothing truncated, no NaN/True/False, no raw reST on the front page's map."""

from __future__ import annotations

import importlib
import pkgutil
import re

import numpy as np
import pandas as pd

import lazylib
from lazylib.report.display import docstring_summary, module_table, rest_to_html, table


def cells_of(html: str) -> list[str]:
    return [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", html, flags=re.S)]


def test_booleans_and_missing_values_are_words_and_dashes():
    frame = pd.DataFrame(
        {
            "flag": [True, False, None],
            "x": [1.5, np.nan, 2.0],
            "name": ["a", None, pd.NA],
            "n": pd.array([1, None, 3], dtype="Int64"),
        }
    )
    shown = cells_of(table(frame).to_html())
    assert not {"True", "False", "nan", "NaN", "None", "<NA>"} & set(shown)
    assert shown.count("–") == 5 and "yes" in shown and "no" in shown and "1.50" in shown


def test_long_text_is_never_truncated():
    text = "word " * 200
    assert text.strip() in cells_of(table(pd.DataFrame({"notes": [text]})).to_html())[-1]


def test_formats_apply_per_column_and_keep_the_missing_dash():
    shown = cells_of(table(pd.DataFrame({"p": [0.5, None], "q": [0.25, 0.75]}), formats={"p": "{:.0%}"}).to_html())
    assert "50%" in shown and "–" in shown and "0.25" in shown


def test_rest_roles_and_literals_become_html():
    expected = "<code>a &lt; b</code> with <code>lazylib.metrics</code>"
    assert rest_to_html("``a < b`` with :mod:`lazylib.metrics`") == expected
    assert rest_to_html(":class:`~lazylib.neighbors.KNeighborsClassifier`") == "<code>KNeighborsClassifier</code>"
    assert rest_to_html("R_n and 2*3") == "R_n and 2*3"


def test_summary_is_the_whole_first_paragraph():
    doc = """First line of the summary,
    continued here.

    Details."""
    assert docstring_summary(doc) == "First line of the summary, continued here."


def test_module_map_lists_every_public_module_with_its_full_summary_and_no_raw_rest():
    html = module_table().to_html()
    public = {"lazylib"} | {
        i.name
        for i in pkgutil.walk_packages(lazylib.__path__, "lazylib.")
        if not any(p.startswith("_") for p in i.name.split(".")[1:])
    }
    shown = cells_of(html)
    for name in public:
        assert name in shown, name
        summary = re.sub(r"<[^>]+>", "", rest_to_html(docstring_summary(importlib.import_module(name).__doc__)))
        assert summary.replace("&amp;", "&") in [s.replace("&amp;", "&") for s in shown], name
    assert "``" not in html and not re.search(r":(mod|func|class):`", html)
