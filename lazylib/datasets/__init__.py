"""The vendored UCI data sets and their loader.

The files in ``lazylib/datasets/uci/`` are byte-for-byte copies of the staged UCI files (one CSV with the class
last and one ``.schema.json`` per file, plus ``MANIFEST.md`` with every file's origin and sha256). They ship with
the package, so nothing is downloaded or cached anywhere else. A table of one's own is typed by
:func:`lazylib.datasets.frame.from_frame` (a DataFrame) or :func:`lazylib.datasets.frame.read_table` (a file).

>>> from lazylib import datasets
>>> ds = datasets.load("iris")
>>> ds.X.shape, list(ds.y.cat.categories)
((150, 4), ['Iris-setosa', 'Iris-versicolor', 'Iris-virginica'])
"""

from lazylib.datasets._loader import (
    ChecksumError,
    Dataset,
    UnknownDatasetError,
    list_datasets,
    load,
    manifest,
    papers_using,
    summary_table,
)
from lazylib.datasets.frame import Table, TableError, from_frame, read_table
from lazylib.papers import PAPER_DATASETS

__all__ = [
    "ChecksumError",
    "Dataset",
    "PAPER_DATASETS",
    "Table",
    "TableError",
    "UnknownDatasetError",
    "from_frame",
    "list_datasets",
    "load",
    "manifest",
    "papers_using",
    "read_table",
    "summary_table",
]
