"""The vendored UCI files load exactly as their schemas and MANIFEST describe them."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pandas as pd
import pytest

from lazylib import datasets
from lazylib.datasets._loader import DATA_DIR

NAMES = datasets.list_datasets()


def schemas_of(name):
    """The raw schema file(s) behind one loader name."""
    stems = [f"{name}.train", f"{name}.test"] if name.startswith("monks-") else [name]
    return [json.loads((DATA_DIR / f"{s}.schema.json").read_text()) for s in stems]


def test_list_is_sorted_and_complete():
    assert NAMES == sorted(NAMES)
    assert len(NAMES) == 46  # 49 files, the three MONK's problems as one data set each
    assert {"monks-1", "monks-2", "monks-3", "iris", "zoo", "house-votes-84"} <= set(NAMES)
    assert not any(n.endswith((".train", ".test")) for n in NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_round_trip_matches_schema(name):
    ds = datasets.load(name)
    schemas = schemas_of(name)
    first = schemas[0]
    attributes = [c for c in first["columns"] if c["type"] != "identifier"]
    # rows and columns
    assert len(ds.X) == len(ds.y) == sum(s["instances"] for s in schemas)
    assert list(ds.X.columns) == [c["name"] for c in attributes]
    # types and their counts
    assert ds.types == {c["name"]: c["type"] for c in attributes}
    for kind in ("continuous", "integer", "nominal"):
        assert sum(t == kind for t in ds.types.values()) == first["counts"][kind]
    for col in attributes:
        series = ds.X[col["name"]]
        if col["type"] == "nominal":
            assert isinstance(series.dtype, pd.CategoricalDtype)
            assert list(series.cat.categories) == col["values"]
        else:
            assert series.dtype == np.float64
            if series.notna().any():
                assert series.min() == pytest.approx(col["min"]) and series.max() == pytest.approx(col["max"])
        assert series.isna().sum() == sum(
            next(c for c in s["columns"] if c["name"] == col["name"])["missing"] for s in schemas
        )
    # classes, their order and counts
    assert ds.classes == first["classes"]
    counts = ds.y.value_counts()
    for label in first["classes"]:
        assert counts[label] == sum(s["class_counts"].get(label, 0) for s in schemas)
    assert ds.y.isna().sum() == sum(s["missing_class"] for s in schemas)
    # provenance
    assert ds.source["package"] and ds.source["version"]
    files = [s["file"] for s in schemas]
    shas = [datasets.manifest()[f]["sha256"] for f in files]
    assert ds.source["sha256"] == (shas[0] if len(shas) == 1 else tuple(shas))


def test_identifiers_are_dropped():
    for name, ident in [("zoo", "name"), ("glass", "Id"), ("monks-2", "instance"), ("vowel", "TrainOrTest")]:
        ds = datasets.load(name)
        declared = [c["name"] for c in schemas_of(name)[0]["columns"] if c["type"] == "identifier"]
        assert ident in declared, name
        assert not set(declared) & set(ds.X.columns), name
    assert "name" not in datasets.load("zoo").X.columns


def test_declared_category_order_not_alphabetical():
    lymph = datasets.load("lymphography")
    assert list(lymph.X["lymphatics"].cat.categories) == ["normal", "arched", "deformed", "displaced"]
    assert lymph.classes == ["normal", "metastases", "malign lymph", "fibrosis"]
    assert datasets.load("house-votes-84").classes == ["republican", "democrat"]
    assert not lymph.X["lymphatics"].cat.ordered


def test_missing_values_are_nan_not_dropped():
    votes = datasets.load("house-votes-84")
    assert len(votes.X) == 435 and votes.X.isna().to_numpy().sum() == 392
    echo = datasets.load("echocardiogram")
    assert len(echo.y) == 132 and echo.y.isna().sum() == 58


def test_official_splits():
    monks = datasets.load("monks-1")
    assert monks.split == {"train": range(0, 124), "test": range(124, 556)}
    X_tr, y_tr, X_te, y_te = monks.train_test()
    assert len(X_tr) == 124 and len(X_te) == 432
    assert y_tr.value_counts().to_dict() == {"0": 62, "1": 62}
    assert datasets.load("shuttle").split == {"train": range(0, 43500), "test": range(43500, 58000)}
    assert datasets.load("iris").split is None
    with pytest.raises(ValueError, match="no official train/test split"):
        datasets.load("iris").train_test()


def test_unknown_name_lists_close_matches():
    with pytest.raises(datasets.UnknownDatasetError, match="'iris'"):
        datasets.load("irs")
    with pytest.raises(KeyError, match="monks-1"):
        datasets.load("monks-1.train")
    with pytest.raises(ValueError, match="list_datasets"):
        datasets.load("no-such-thing-at-all")


@pytest.fixture
def copy_of_data(tmp_path):
    target = tmp_path / "uci"
    shutil.copytree(DATA_DIR, target)
    return target


def test_checksum_failure_names_the_file(copy_of_data):
    assert len(datasets.load("iris", data_dir=copy_of_data).X) == 150  # the copy itself is fine
    path = copy_of_data / "iris.csv"
    text = path.read_text()
    path.write_text(text.replace("5.1,3.5,1.4,0.2", "5.1,3.5,1.4,0.3", 1))
    with pytest.raises(datasets.ChecksumError, match=r"iris\.csv"):
        datasets.load("iris", data_dir=copy_of_data)


def test_checksum_failure_in_monks_test_part(copy_of_data):
    path = copy_of_data / "monks-3.test.csv"
    path.write_bytes(path.read_bytes() + b"\n")
    with pytest.raises(datasets.ChecksumError, match=r"monks-3\.test\.csv"):
        datasets.load("monks-3", data_dir=copy_of_data)


def test_value_outside_schema_is_an_error(copy_of_data):
    schema_path = copy_of_data / "lenses.schema.json"
    schema = json.loads(schema_path.read_text())
    schema["columns"][0]["values"] = schema["columns"][0]["values"][:-1]
    schema_path.write_text(json.dumps(schema))
    with pytest.raises(ValueError, match="not among the schema's declared values"):
        datasets.load("lenses", data_dir=copy_of_data)


def test_vendored_files_are_the_staged_ones():
    """Every vendored CSV matches MANIFEST (so nothing was edited when vendoring)."""
    rows = datasets.manifest()
    assert len(rows) == 49
    assert sorted(rows) == sorted(p.name for p in DATA_DIR.glob("*.csv"))


def test_summary_table_covers_everything():
    table = datasets.summary_table()
    assert list(table.index) == NAMES
    assert table.loc["payne1998" and "zoo", "used_by"] == "payne1998"
    assert table.loc["lymphography", "used_by"] == "payne1998, howe_cardie"
