"""The staged data's checker (``lazylib/datasets/uci/validate_schemas.py``) on copies of two staged files.

The checker is a standalone script (standard library only) kept beside the files it checks; these tests load it by
path, check that two staged files pass, and that a schema edited in each of the checker's steps (keys, rows,
columns, classes, split) is reported with the step's message.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path

import pytest

UCI = Path(__file__).resolve().parents[2] / "lazylib" / "datasets" / "uci"


@pytest.fixture(scope="module")
def checker():
    spec = importlib.util.spec_from_file_location("validate_schemas", UCI / "validate_schemas.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _staged(tmp_path, name, edit=None):
    """Copy one staged CSV and its schema to ``tmp_path``, the schema edited by ``edit``; the schema's file name."""
    schema = json.loads((UCI / f"{name}.schema.json").read_text())
    if edit is not None:
        edit(schema)
    (tmp_path / f"{name}.schema.json").write_text(json.dumps(schema))
    shutil.copy(UCI / f"{name}.csv", tmp_path / f"{name}.csv")
    return f"{name}.schema.json"


@pytest.mark.parametrize("name", ["iris", "zoo"])
def test_a_staged_file_passes(checker, tmp_path, name):
    schema, errors = checker.check(tmp_path, _staged(tmp_path, name))
    assert errors == []
    assert schema["name"] == name


def _column(schema, name):
    return next(c for c in schema["columns"] if c["name"] == name)


EDITS = {
    "file": (lambda s: s.update(file="other.csv"), ["schema names file 'other.csv', expected zoo.csv"]),
    "keys": (lambda s: s.pop("notes"), ["missing key notes"]),
    "rows": (lambda s: s.update(instances=100), ["instances 100 != 101 rows"]),
    "nominal": (lambda s: _column(s, "hair")["values"].remove("1"), ["hair: values not declared: ['1']"]),
    "no values": (lambda s: _column(s, "hair").pop("values"), ["hair: nominal without values"]),
    "type": (
        lambda s: _column(s, "hair").update(type="ordinal"),
        [
            "hair: bad type 'ordinal'",
            "counts {'continuous': 0, 'integer': 1, 'nominal': 15, 'identifier': 1} != "
            "{'continuous': 0, 'integer': 1, 'nominal': 14, 'identifier': 1}",
        ],
    ),
    "integer": (lambda s: _column(s, "legs").update(min=1), ["legs: min/max 1/8 != 0.0/8.0"]),
    "classes": (lambda s: s["class_counts"].update(bird=2), ["class_counts mismatch"]),
    "split": (
        lambda s: s.update(split=[{"part": 0, "first_row": 1, "last_row": 50}]),
        ["split ends at row 50, file has 101"],
    ),
}


@pytest.mark.parametrize("step", sorted(EDITS))
def test_an_edited_schema_is_reported_by_its_step(checker, tmp_path, step):
    edit, expected = EDITS[step]
    _, errors = checker.check(tmp_path, _staged(tmp_path, "zoo", edit))
    assert errors == expected
