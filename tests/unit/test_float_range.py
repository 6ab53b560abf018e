"""Input that float64 cannot hold is reported (issue #53, item 5): integers beyond 2**53 lose their last digits
when converted, so distinct values may become equal."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from lazylib.encoding import encode
from lazylib.metrics import make_metric


def test_uint64_beyond_2_53_warns_in_a_frame_and_in_an_array():
    big = np.array([2**63, 2**63 + 1, 2**63 + 2, 5], dtype=np.uint64)
    assert len(np.unique(big.astype(np.float64))) == 2  # what the warning is about: three values became one
    with pytest.warns(UserWarning, match=r"column 'x' holds integers beyond 2\*\*53 \(such as 9223372036854775810\)"):
        encode(pd.DataFrame({"x": big}))
    with pytest.warns(UserWarning, match="beyond 2\\*\\*53"):
        make_metric("euclidean").fit(big[:, None])


def test_integers_float64_holds_exactly_pass_silently():
    values = np.array([-(2**53), 0, 2**53], dtype=np.int64)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        Z = encode(pd.DataFrame({"x": values, "y": pd.array([1, None, 3], dtype="Int64")})).values
        make_metric("euclidean").fit(values[:, None])
    assert Z[:, 0].tolist() == [-(2.0**53), 0.0, 2.0**53] and np.isnan(Z[1, 1])
