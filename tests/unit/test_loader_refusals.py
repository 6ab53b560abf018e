"""The loader refuses what cannot be true (issue #53 item 6): a schema whose file lies outside its folder, a file
whose instance or class counts disagree with its schema; every load error names the file."""

from __future__ import annotations

import hashlib
import json
import shutil

import pytest

from lazylib import datasets
from lazylib.datasets import _loader


@pytest.fixture
def data(tmp_path):
    target = tmp_path / "uci"
    shutil.copytree(_loader.DATA_DIR, target)
    return target


def _replace_csv(folder, file: str, raw: bytes) -> None:
    """Write ``raw`` as ``file`` and record its sha256 in the folder's MANIFEST.md (so the checksum passes and the
    later checks are reached)."""
    path = folder / file
    old = hashlib.sha256(path.read_bytes()).hexdigest()
    path.write_bytes(raw)
    manifest = folder / "MANIFEST.md"
    manifest.write_text(manifest.read_text().replace(old, hashlib.sha256(raw).hexdigest()))
    _loader.manifest.cache_clear()


def _edit_schema(folder, name: str, **changes) -> None:
    path = folder / f"{name}.schema.json"
    path.write_text(json.dumps(json.loads(path.read_text()) | changes))


@pytest.mark.parametrize("file", ["../outside.csv", "/etc/hosts", "sub/iris.csv", "..", 3, ""])
def test_a_schema_file_outside_its_folder_is_refused(data, file):
    (data.parent / "outside.csv").write_bytes((data / "iris.csv").read_bytes())
    _edit_schema(data, "iris", file=file)
    with pytest.raises(ValueError, match="iris.schema.json: file must name a file in the schema's own folder"):
        datasets.load("iris", data_dir=data)


def test_a_file_with_fewer_instances_than_its_schema_is_refused(data):
    lines = (data / "iris.csv").read_bytes().splitlines(keepends=True)
    _replace_csv(data, "iris.csv", b"".join(lines[:11]))
    with pytest.raises(ValueError, match="iris.csv: 10 instances, its schema declares 150"):
        datasets.load("iris", data_dir=data)


def test_class_counts_that_disagree_with_the_schema_are_refused(data):
    raw = (data / "iris.csv").read_bytes()
    first = raw.index(b"Iris-setosa")
    _replace_csv(data, "iris.csv", raw[:first] + b"Iris-versicolor" + raw[first + len(b"Iris-setosa") :])
    with pytest.raises(ValueError, match="iris.csv: class counts differ .*'Iris-setosa': \\(49, 50\\)"):
        datasets.load("iris", data_dir=data)
    _edit_schema(data, "iris", class_counts={"Iris-setosa": 49, "Iris-versicolor": 51, "Iris-virginica": 50})
    assert datasets.load("iris", data_dir=data).y.value_counts()["Iris-versicolor"] == 51  # the schema says so


@pytest.mark.parametrize(
    "raw",
    [b"", b"\xff\xfe\x00garbage\n\x81", b'sepal_length,"sepal_width\n5.1,"3.5\n', b"a,b\n1,2,3,4\n"],
)
def test_every_malformed_csv_is_an_error_naming_the_file(data, raw):
    _replace_csv(data, "iris.csv", raw)
    with pytest.raises(ValueError, match="iris.csv"):
        datasets.load("iris", data_dir=data)


def test_a_schema_that_is_not_text_is_an_error_naming_it(data):
    (data / "iris.schema.json").write_bytes(b"\xff\xfe{")
    with pytest.raises(ValueError, match="iris.schema.json"):
        datasets.load("iris", data_dir=data)
