"""The numeric form of mixed data, public: what every part of lazylib reads data through.

Mixed data are held as a float64 matrix (:class:`Encoded`): nominal values as numbers (the category codes of a
pandas ``Categorical``, or whatever numbers an array holds), linear values as themselves, missing values as NaN,
with one type per column. A set-valued column (each value a set of vectors; ``encode(..., sets=True)``) holds
the index of each value's set in a side table of that column (:class:`SetTable`). Class labels become indices
``0..C-1`` (:func:`encode_labels`). The implementation lives in :mod:`lazylib.metrics._encode` and
:mod:`lazylib.metrics._columns`; import from here.

>>> import pandas as pd
>>> enc = encode(pd.DataFrame({"colour": pd.Categorical(["red", None, "blue"]), "size": [1.0, 2.0, None]}))
>>> enc.kinds, enc.values.tolist()
(('nominal', 'continuous'), [[1.0, 1.0], [nan, 2.0], [0.0, nan]])
>>> encode_labels(["b", "a", "b"], 3)
(array([1, 0, 1]), ('a', 'b'))
"""

from __future__ import annotations

from lazylib.metrics._columns import known_mean_std, known_range
from lazylib.metrics._encode import (
    LINEAR_TYPES,
    NOMINAL,
    SET,
    TYPES,
    Encoded,
    SetTable,
    check_finite,
    encode,
    encode_labels,
)

__all__ = ["LINEAR_TYPES", "NOMINAL", "SET", "TYPES", "Encoded", "SetTable", "check_finite", "encode",
           "encode_labels", "known_mean_std", "known_range"]
