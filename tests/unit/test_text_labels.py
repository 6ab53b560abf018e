"""Text labels take a path of their own in :func:`lazylib.labels.encode_labels` (a set and a dict instead of
sorting every label, issue #52 item 3): it gives what ``np.unique`` gives, to the element and the dtype."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from lazylib.labels import encode_labels

LABELS = {
    "short": ["b", "a", "b", "c"],
    "numbers as text": ["10", "9", "2", "10", "1"],
    "unicode and case": ["é", "e", "E", "z", "É", "e"],
    "many": [f"k{i % 7}" for i in np.random.default_rng(0).integers(0, 1000, 5000)],
    "blanks": [" a", "a", "a ", "a"],
}


@pytest.mark.parametrize("name", sorted(LABELS))
@pytest.mark.parametrize("form", ["list", "object array", "series"])
def test_text_labels_are_encoded_as_np_unique_encodes_them(name, form):
    labels = LABELS[name]
    y = {"list": labels, "object array": np.array(labels, dtype=object), "series": pd.Series(labels)}[form]
    index, classes = encode_labels(y, len(labels), min_classes=1)
    expected_classes, expected_index = np.unique(np.array(labels, dtype=object), return_inverse=True)
    assert classes.dtype == expected_classes.dtype == object and classes.tolist() == expected_classes.tolist()
    assert index.dtype == np.intp and index.tolist() == expected_index.ravel().tolist()


def test_the_text_path_keeps_the_checks():
    with pytest.raises(ValueError, match="single class"):
        encode_labels(np.array(["a", "a"], dtype=object), 2)
    with pytest.raises(ValueError, match="missing labels"):
        encode_labels(np.array(["a", None, "b"], dtype=object), 3)
    with pytest.raises(ValueError, match="do not sort together"):
        encode_labels(np.array(["a", 1, "b"], dtype=object), 3)
