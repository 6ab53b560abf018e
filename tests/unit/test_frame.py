"""A user's table typed honestly (issue #51 item 2): :func:`lazylib.datasets.frame.from_frame` and
:func:`lazylib.datasets.frame.read_table`.

Measured: a catalogue data set written to CSV, TSV, ARFF and Parquet reads back with the types, values and
category order of :func:`from_frame` on its frame, and the same sha256 under another file name; shuffling the rows
and a ``category`` dtype's categories leaves the category order (and so every row's codes) unchanged; integers
that may be codes and text that is mostly numbers are refused unless declared; every bad input gets its message.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lazylib.datasets import load
from lazylib.datasets._cells import value_key
from lazylib.datasets.frame import FEW_INTEGERS, TableError, from_frame, read_table


@pytest.fixture(scope="module")
def crx() -> pd.DataFrame:
    ds = load("crx")
    frame = ds.X.copy()
    frame["class"] = ds.y
    return frame


def _write_arff(path, frame: pd.DataFrame, target: str) -> None:
    """An ARFF file of ``frame``: its nominal columns' categories in a scrambled order (the reader must not keep
    it), values quoted when they hold a space, a comma or a quote."""

    def quote(v) -> str:
        text = str(v)
        return "'" + text.replace("'", "\\'") + "'" if any(c in text for c in " ,'\"{}%") else text

    lines = ["@relation test"]
    for column in frame.columns:
        values = frame[column]
        if isinstance(values.dtype, pd.CategoricalDtype):
            domain = ",".join(quote(v) for v in reversed(list(values.cat.categories)))
            lines.append(f"@attribute {quote(column)} {{{domain}}}")
        else:
            lines.append(f"@attribute {quote(column)} numeric")
    lines.append("@data")
    for row in frame.itertuples(index=False):
        cells = ["?" if pd.isna(v) else (quote(v) if isinstance(v, str) else repr(float(v))) for v in row]
        lines.append(",".join(cells))
    path.write_text("\n".join(lines) + "\n")


def _same_table(a, b) -> None:
    assert a.types == b.types
    assert list(a.X.columns) == list(b.X.columns)
    for column, kind in a.types.items():
        if kind == "nominal":
            assert list(a.X[column].cat.categories) == list(b.X[column].cat.categories), column
            np.testing.assert_array_equal(a.X[column].cat.codes, b.X[column].cat.codes)
        else:
            np.testing.assert_array_equal(a.X[column].to_numpy(), b.X[column].to_numpy())
    assert a.y.tolist() == b.y.tolist()
    assert a.sha256 == b.sha256


def test_crx_through_csv_tsv_and_arff_reads_as_its_frame_does(crx, tmp_path):
    from_df = from_frame(crx, "class", name="crx")
    kinds = load("crx").types
    assert {c: k == "nominal" for c, k in from_df.types.items()} == {c: k == "nominal" for c, k in kinds.items()}
    for column, kind in from_df.types.items():
        if kind == "nominal":
            assert list(from_df.X[column].cat.categories) == sorted(crx[column].dropna().unique())  # observed values
        else:
            np.testing.assert_array_equal(from_df.X[column].to_numpy(), crx[column].to_numpy())
    assert from_df.y.dtype == object and from_df.y.tolist() == crx["class"].astype(str).tolist()
    crx.to_csv(tmp_path / "mine.csv", index=False)
    crx.to_csv(tmp_path / "mine.tsv", index=False, sep="\t")
    crx.to_csv(tmp_path / "semicolons.txt", index=False, sep=";", lineterminator="\r\n")
    _write_arff(tmp_path / "mine.arff", crx, "class")
    for file in ("mine.csv", "mine.tsv", "semicolons.txt", "mine.arff"):
        table = read_table(tmp_path / file, "class")
        _same_table(table, from_df)
        assert table.name == file.split(".")[0] and table.source == str(tmp_path / file)


def test_a_renamed_file_has_the_same_sha256_and_a_changed_value_another(crx, tmp_path):
    crx.to_csv(tmp_path / "a.csv", index=False)
    (tmp_path / "a.csv").rename(tmp_path / "b_renamed.csv")
    first = read_table(tmp_path / "b_renamed.csv", "class", name="one")
    second = from_frame(crx, "class", name="two")
    assert first.sha256 == second.sha256 and first.name != second.name
    changed = crx.copy()
    changed.loc[5, "A2"] = changed.loc[5, "A2"] + 0.01
    assert from_frame(changed, "class").sha256 != first.sha256


def test_parquet_reads_as_the_csv_does(crx, tmp_path):
    pytest.importorskip("pyarrow")
    crx.to_parquet(tmp_path / "mine.parquet")
    crx.to_csv(tmp_path / "mine.csv", index=False)
    _same_table(read_table(tmp_path / "mine.parquet", "class"), read_table(tmp_path / "mine.csv", "class"))


def test_parquet_without_pyarrow_names_the_extra(tmp_path, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "pyarrow", None)  # import pyarrow now raises ImportError
    (tmp_path / "t.parquet").write_bytes(b"PAR1")
    with pytest.raises(TableError, match=r"pip install lazylib\[bench\]"):
        read_table(tmp_path / "t.parquet", "class")


@pytest.mark.parametrize("seed", range(5))
def test_shuffled_rows_and_categories_keep_the_category_order_and_codes(crx, seed):
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(crx))
    shuffled = crx.iloc[order].reset_index(drop=True)
    for column in shuffled.columns:
        if isinstance(shuffled[column].dtype, pd.CategoricalDtype):
            cats = list(shuffled[column].cat.categories)
            shuffled[column] = shuffled[column].cat.reorder_categories([cats[i] for i in rng.permutation(len(cats))])
    before, after = from_frame(crx, "class"), from_frame(shuffled, "class")
    assert after.types == before.types
    for column, kind in before.types.items():
        if kind == "nominal":
            assert list(after.X[column].cat.categories) == list(before.X[column].cat.categories)
            np.testing.assert_array_equal(after.X[column].cat.codes, before.X[column].cat.codes.to_numpy()[order])
    # the sha256 is of the content in row order: the same rows in the same order give it back
    assert after.sha256 != before.sha256
    back = shuffled.iloc[np.argsort(order)].reset_index(drop=True)
    assert from_frame(back, "class").sha256 == before.sha256


def test_numbers_read_as_nominal_only_when_declared_and_ordered_by_value(tmp_path):
    rng = np.random.default_rng(7)
    codes = rng.integers(1, 5, size=60)
    frame = pd.DataFrame({"grade": codes, "size": rng.normal(size=60), "class": rng.choice(["x", "y"], 60)})
    for attempt in (lambda: from_frame(frame, "class"), lambda: read_table(tmp_path / "g.csv", "class")):
        frame.to_csv(tmp_path / "g.csv", index=False)
        with pytest.raises(TableError, match="'grade'") as info:
            attempt()
        message = str(info.value)
        assert "--nominal grade" in message and "--numeric grade" in message
        assert "types={'grade': 'nominal'}" in message
    declared = from_frame(frame, "class", types={"grade": "nominal"})
    assert declared.types["grade"] == "nominal" and list(declared.X["grade"].cat.categories) == ["1", "2", "3", "4"]
    assert read_table(tmp_path / "g.csv", "class", nominal="grade").sha256 == declared.sha256
    assert from_frame(frame, "class", types={"grade": "numeric"}).types["grade"] == "integer"
    many = pd.DataFrame({"code": [str(v) for v in range(1, 13)] * 2, "class": ["a", "b"] * 12})
    table = from_frame(many, "class", types={"code": "nominal"})
    assert list(table.X["code"].cat.categories) == [str(v) for v in range(1, 13)]  # 10 after 9, not after 1


def test_the_few_integers_boundary_is_the_stated_one():
    few = pd.DataFrame({"n": list(range(FEW_INTEGERS)) * 3, "class": ["a", "b", "c"] * FEW_INTEGERS})
    with pytest.raises(TableError, match="distinct integers"):
        from_frame(few, "class")
    more = pd.DataFrame({"n": list(range(FEW_INTEGERS + 1)) * 2, "class": ["a", "b"] * (FEW_INTEGERS + 1)})
    assert from_frame(more, "class").types == {"n": "integer"}
    halves = more.assign(n=more["n"] / 2)
    assert from_frame(halves.head(6), "class").types == {"n": "continuous"}  # few values, but not integers


def test_text_that_is_mostly_numbers_is_refused_unless_its_token_is_missing():
    frame = pd.DataFrame({"w": ["1.5", "2.25", "NA", "3", "4.5", "NA"], "class": ["a", "b"] * 3})
    with pytest.raises(TableError, match=r"mostly numbers.*'NA' \(2x\).*--missing TOKEN"):
        from_frame(frame, "class")
    table = from_frame(frame, "class", missing=("?", "", "NA"))
    assert table.types == {"w": "continuous"} and table.X["w"].isna().sum() == 2
    words = pd.DataFrame({"w": ["red", "blue", "3", "green"], "class": ["a", "b"] * 2})
    assert from_frame(words, "class").types == {"w": "nominal"}


def test_every_pandas_dtype_reads_and_its_csv_reads_the_same(tmp_path):
    n = 40
    rng = np.random.default_rng(3)
    frame = pd.DataFrame(
        {
            "text": pd.Series(rng.choice(["p", "q", "r"], n), dtype="str"),
            "object": pd.Series(rng.choice(["u", "v"], n), dtype=object),
            "category": pd.Categorical(rng.choice(["z", "k"], n), categories=["z", "k"]),
            "bool": rng.random(n) > 0.5,
            "boolean": pd.array([True, False, None, True] * (n // 4), dtype="boolean"),
            "Int64": pd.array(list(range(n - 1)) + [None], dtype="Int64"),
            "Float64": pd.array([0.5 * i for i in range(n - 1)] + [None], dtype="Float64"),
            "float": rng.normal(size=n),
            "class": pd.Series(rng.choice(["yes", "no"], n), dtype="str"),
        }
    )
    table = from_frame(frame, "class")
    assert table.types == {
        "text": "nominal",
        "object": "nominal",
        "category": "nominal",
        "bool": "nominal",
        "boolean": "nominal",
        "Int64": "integer",
        "Float64": "continuous",
        "float": "continuous",
    }
    assert list(table.X["category"].cat.categories) == ["k", "z"]
    assert list(table.X["boolean"].cat.categories) == ["False", "True"] and table.X["boolean"].isna().sum() == 10
    assert table.X["Int64"].dtype == np.float64 and np.isnan(table.X["Int64"].iloc[-1])
    frame.to_csv(tmp_path / "dtypes.csv", index=False)
    _same_table(read_table(tmp_path / "dtypes.csv", "class"), table)


def test_a_float_column_of_codes_declared_nominal_matches_its_csv(tmp_path):
    frame = pd.DataFrame({"c": [1.0, 2.0, np.nan, 10.0, 2.0, 1.0], "class": ["a", "b"] * 3})
    table = from_frame(frame, "class", types={"c": "nominal"})
    assert list(table.X["c"].cat.categories) == ["1", "2", "10"]
    frame.to_csv(tmp_path / "c.csv", index=False)  # written as 1.0, 2.0, 10.0
    assert read_table(tmp_path / "c.csv", "class", nominal=["c"]).sha256 == table.sha256


def test_rows_without_a_class_are_left_out_and_counted():
    frame = pd.DataFrame({"a": ["x", "y", "x", "y", "z"], "class": ["1", "?", "2", None, "1"]}, index=[9, 8, 7, 6, 5])
    table = from_frame(frame, "class")
    assert table.rows_dropped_missing_target == 2 and len(table.X) == 3
    assert list(table.y.index) == [0, 1, 2] and list(table.X.index) == [0, 1, 2]
    assert table.y.tolist() == ["1", "2", "1"] and table.y.dtype == object
    assert table.X["a"].tolist() == ["x", "x", "z"]


def test_to_dict_and_schema_text_say_what_was_read():
    frame = pd.DataFrame({"a": ["x", "?", "y", "x"], "b": [0.5, 1.5, np.nan, 2.0], "class": ["p", "q", "p", None]})
    table = from_frame(frame, "class", name="mine")
    record = json.loads(json.dumps(table.to_dict()))
    assert record == {
        "name": "mine",
        "rows": 3,
        "columns": {"a": "nominal", "b": "continuous"},
        "missing": {"a": 1, "b": 1},
        "classes": {"p": 2, "q": 1},
        "rows_dropped_missing_target": 1,
        "sha256": table.sha256,
        "source": None,
    }
    text = table.schema_text()
    assert "mine: 3 rows, 2 attributes" in text and "rows left out (class missing): 1" in text
    assert any(line.split()[:3] == ["a", "nominal", "1"] for line in text.splitlines())
    assert any(line.split()[:3] == ["b", "continuous", "1"] for line in text.splitlines())


def test_value_key_orders_numbers_by_value_then_text():
    assert sorted(["b", "10", "2", "a", "-1.5"], key=value_key) == ["-1.5", "2", "10", "a", "b"]


# --- bad input: each with a message naming the problem, the file and the fix -------------------------------------


def _csv(tmp_path, text: str, name: str = "t.csv"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_a_target_that_is_not_a_column_lists_close_names(tmp_path):
    path = _csv(tmp_path, "colour,class\nred,a\nblue,b\n")
    with pytest.raises(TableError, match=r"t\.csv: no column named 'clas'; did you mean 'class'\?.*--target"):
        read_table(path, "clas")
    with pytest.raises(TableError, match=r"no column named 'label'; the columns are \['colour', 'class'\]"):
        read_table(path, "label")


def test_one_class_is_refused(tmp_path):
    with pytest.raises(TableError, match=r"t\.csv: the class 'class' has one value \('a'\).*--target"):
        read_table(_csv(tmp_path, "colour,class\nred,a\nblue,a\ngreen,?\n"), "class")


def test_a_file_that_is_not_a_table_is_refused(tmp_path):
    garbage = tmp_path / "data.csv"
    garbage.write_bytes(np.random.default_rng(0).integers(0, 256, 4096, dtype=np.uint8).tobytes())
    with pytest.raises(TableError, match=r"data\.csv: not a text table.*save it as UTF-8 CSV"):
        read_table(garbage, "class")
    latin = tmp_path / "latin.csv"
    latin.write_bytes("a,class\ncaf\xe9,x\n".encode("latin-1"))
    with pytest.raises(TableError, match=r"latin\.csv: not UTF-8 text.*save it as UTF-8 CSV"):
        read_table(latin, "class")
    zipped = tmp_path / "sheet.csv"
    zipped.write_bytes(b"PK\x03\x04" + b"\x01" * 100)
    with pytest.raises(TableError, match="spreadsheet"):
        read_table(zipped, "class")
    ragged = _csv(tmp_path, "a,b,class\n1,2,x\n3,y\n", "ragged.csv")
    with pytest.raises(
        TableError, match=r"ragged\.csv: row 3 \(the header is row 1, blank lines skipped\) has 2 cells, the header 3"
    ):
        read_table(ragged, "class")


def test_an_empty_file_and_a_missing_file_are_refused(tmp_path):
    with pytest.raises(TableError, match=r"empty\.csv: the file is empty"):
        read_table(_csv(tmp_path, "", "empty.csv"), "class")
    with pytest.raises(TableError, match=r"blank\.tsv: the file is empty"):
        read_table(_csv(tmp_path, "\n  \n", "blank.tsv"), "class")
    with pytest.raises(TableError, match=r"nowhere\.csv: no such file"):
        read_table(tmp_path / "nowhere.csv", "class")


def test_a_column_all_missing_is_refused(tmp_path):
    path = _csv(tmp_path, "a,gone,class\nx,?,p\ny,,q\nx,?,p\n")
    with pytest.raises(TableError, match=r"t\.csv: column 'gone' has no known value.*leave the column out"):
        read_table(path, "class")
    frame = pd.DataFrame({"a": ["x", "y"], "gone": [np.nan, np.nan], "class": ["p", "q"]})
    with pytest.raises(TableError, match="column 'gone' has no known value"):
        from_frame(frame, "class")


def test_duplicated_column_names_are_refused(tmp_path):
    with pytest.raises(TableError, match=r"t\.csv: duplicated column names \['a'\].*its own name"):
        read_table(_csv(tmp_path, "a,b,a,class\n1,2,3,x\n4,5,6,y\n"), "class")
    frame = pd.DataFrame([[1, 2, "x"], [3, 4, "y"]], columns=["a", "a", "class"])
    with pytest.raises(TableError, match=r"duplicated column names \['a'\]"):
        from_frame(frame, "class")
    arff = tmp_path / "d.arff"
    arff.write_text("@relation r\n@attribute a numeric\n@attribute a numeric\n@attribute c {x,y}\n@data\n1,2,x\n")
    with pytest.raises(TableError, match=r"d\.arff: duplicated attribute names \['a'\]"):
        read_table(arff, "c")


def test_a_header_only_file_is_refused(tmp_path):
    with pytest.raises(TableError, match=r"t\.csv: the file has a header but no rows"):
        read_table(_csv(tmp_path, "a,b,class\n"), "class")
    with pytest.raises(TableError, match="a header but no rows"):
        from_frame(pd.DataFrame({"a": [], "class": []}), "class")
    arff = tmp_path / "h.arff"
    arff.write_text("@relation r\n@attribute a numeric\n@attribute c {x,y}\n@data\n")
    with pytest.raises(TableError, match=r"h\.arff: the file has a header but no rows"):
        read_table(arff, "c")


def test_unknown_or_doubly_declared_names_are_refused(tmp_path):
    path = _csv(tmp_path, "colour,size,class\nred,1,a\nblue,2,b\n")
    with pytest.raises(TableError, match=r"t\.csv: --nominal names 'colur'.*did you mean 'colour'\?"):
        read_table(path, "class", nominal=["colur"])
    with pytest.raises(TableError, match=r"--numeric names 'weight', which is not a column.*\['colour', 'size'"):
        read_table(path, "class", numeric="weight")
    with pytest.raises(TableError, match=r"\['size'\] are declared both --nominal and --numeric"):
        read_table(path, "class", nominal="size", numeric="size")
    with pytest.raises(TableError, match="a type is declared for 'siz', which is not a column; did you mean 'size'"):
        from_frame(pd.read_csv(path), "class", types={"siz": "nominal"})
    with pytest.raises(TableError, match=r"unknown type 'categorical'; one of \['nominal', 'numeric'"):
        from_frame(pd.read_csv(path), "class", types={"size": "categorical"})
    with pytest.raises(TableError, match="'class' is the class column"):
        read_table(path, "class", nominal="class")


def test_a_value_the_declared_type_cannot_hold_is_refused():
    frame = pd.DataFrame({"n": ["1", "2", "x", "4"], "m": [1.0, 2.5, 3.0, 4.0], "class": ["a", "b"] * 2})
    with pytest.raises(TableError, match=r"column 'n' is numeric but row 3 holds 'x'.*--nominal n"):
        from_frame(frame, "class", types={"n": "numeric", "m": "numeric"})
    with pytest.raises(TableError, match=r"column 'm' is declared integer but holds 2\.5"):
        from_frame(frame, "class", types={"n": "nominal", "m": "integer"})
    infinite = pd.DataFrame({"v": [1.5, np.inf, 2.5, 3.5], "class": ["a", "b"] * 2})
    with pytest.raises(TableError, match="non-finite number"):
        from_frame(infinite, "class")
    dates = pd.DataFrame({"d": pd.date_range("2020-01-01", periods=4), "class": ["a", "b"] * 2})
    with pytest.raises(TableError, match="column 'd' has dtype datetime64.*convert it"):
        from_frame(dates, "class")


def test_a_numeric_missing_token_means_unknown_in_a_frame_and_in_its_csv(tmp_path):
    frame = pd.DataFrame({"v": [1.5, -999.0, 2.5, 3.25, 4.0, -999.0], "class": ["a", "b"] * 3})
    table = from_frame(frame, "class", missing=("?", "", "-999"))
    assert table.X["v"].isna().sum() == 2
    frame.to_csv(tmp_path / "v.csv", index=False)  # written as -999.0, which reads as the number -999
    assert read_table(tmp_path / "v.csv", "class", missing=("-999",)).sha256 == table.sha256


@st.composite
def _mixed_frames(draw):
    """A small mixed table: text, codes, integers and floats with unknown cells, a class of two or three labels."""
    n = draw(st.integers(4, 30))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    columns = {}
    for j in range(draw(st.integers(1, 5))):
        kind = draw(st.sampled_from(["text", "codes", "integers", "floats"]))
        if kind == "text":
            values = pd.Series(rng.choice(["a", "b b", "c,d", 'e"f', "Zeta", "éa"], n), dtype=object)
        elif kind == "codes":
            values = pd.Series(rng.integers(0, 4, n))
        elif kind == "integers":
            values = pd.Series(rng.integers(-50, 50, n) * 1000 + np.arange(n), dtype=float)
        else:
            values = pd.Series(rng.normal(size=n) * 10.0 ** rng.integers(-8, 8))
        blanks = rng.random(n) < draw(st.sampled_from([0.0, 0.2]))
        blanks[0] = False
        columns[f"c{j}"] = values.mask(blanks)
    columns["class"] = rng.choice(["x", "y", "z"][: draw(st.integers(2, 3))], n)
    columns["class"][:2] = ["x", "y"]
    return pd.DataFrame(columns)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(frame=_mixed_frames())
def test_a_frame_and_its_csv_type_alike_or_refuse_alike(frame, tmp_path):
    """Property: from_frame and read_table of the frame's CSV give the same Table, or refuse the same column."""
    path = tmp_path / "p.csv"
    frame.to_csv(path, index=False)
    try:
        table = from_frame(frame, "class")
    except TableError as error:
        column = str(error).split("column ")[1].split()[0]
        with pytest.raises(TableError, match=f"column {column}"):
            read_table(path, "class")
        return
    _same_table(read_table(path, "class"), table)
    codes = [c for c in frame.columns if frame[c].dtype.kind == "i"]
    assert not codes, f"integer codes {codes} were typed {[table.types[c] for c in codes]} instead of refused"


def test_arff_reads_comments_case_and_double_quotes_and_refuses_what_it_cannot_read(tmp_path):
    arff = tmp_path / "w.arff"
    arff.write_text(
        '% a comment\n@RELATION w\n\n@ATTRIBUTE "the colour" {"dark red",blue}\n'
        "@attribute n REAL\n@attribute class {yes,no}\n@DATA\n% rows\n"
        '"dark red",1.5,yes\nblue,?,no\n?,2.5,yes\n'
    )
    table = read_table(arff, "class")
    assert table.types == {"the colour": "nominal", "n": "continuous"}
    assert list(table.X["the colour"].cat.categories) == ["blue", "dark red"]
    assert table.X["the colour"].isna().sum() == 1 and table.X["n"].isna().sum() == 1
    for spec, message in (("string", "only nominal and numeric"), ("date 'yyyy'", "only nominal and numeric")):
        arff.write_text(f"@relation w\n@attribute s {spec}\n@attribute class {{a,b}}\n@data\nx,a\n")
        with pytest.raises(TableError, match=message):
            read_table(arff, "class")
    arff.write_text("@relation w\n@attribute s numeric\n@attribute class {a,b}\n@data\n{0 1, 1 a}\n")
    with pytest.raises(TableError, match="sparse ARFF"):
        read_table(arff, "class")
    arff.write_text("@relation w\n@attribute s {p,q}\n@attribute class {a,b}\n@data\nr,a\np,b\n")
    with pytest.raises(TableError, match=r"attribute 's' holds \['r'\], not among its declared values"):
        read_table(arff, "class")
    arff.write_text("a,b,class\n1,2,x\n")
    with pytest.raises(TableError, match=r"w\.arff: line 1 is not ARFF"):
        read_table(arff, "class")


def test_a_wrong_sniff_falls_back_to_commas(tmp_path, monkeypatch):
    """The sniffer guesses from a sample; where its delimiter leaves rows of unequal length and a comma reads every
    row alike, the comma is taken (the wrong guess is forced here: the sniffer seldom makes it on small files)."""
    import csv

    class Semicolon(csv.excel):
        delimiter = ";"

    path = _csv(tmp_path, "name,note,class\nann,a;b;c,x\nbob,d,y\ncy,e;f,x\n")
    monkeypatch.setattr(csv.Sniffer, "sniff", lambda self, sample, delimiters=None: Semicolon)
    table = read_table(path, "class")
    assert list(table.X.columns) == ["name", "note"] and table.X["note"].tolist() == ["a;b;c", "d", "e;f"]
    ragged = _csv(tmp_path, "a;b;class\n1;2;x\n3;y\n", "semi.csv")  # no comma reading either: refused
    with pytest.raises(TableError, match=r"semi\.csv: row 3 .* \(delimiter read as ';'\)"):
        read_table(ragged, "class")
