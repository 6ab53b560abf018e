"""Statistics that say when they cannot judge (issue #53 item 4): identical methods have no difference to test,
too few methods or data sets are refused by name."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from lazylib.protocols.bench import stats as bench_stats


def test_statistics_say_when_they_cannot_judge():
    same = pd.DataFrame(np.repeat([[80.0], [90.0], [70.0]], 3, axis=1), columns=["a", "b", "c"])
    result = bench_stats.friedman(same)
    assert result["p"] == result["p_F"] == 1.0 and result["note"] == "no difference to test"
    differ = same.assign(c=[70.0, 80.0, 60.0])
    assert bench_stats.friedman(differ)["p_F"] < 1 and bench_stats.friedman(differ)["note"] == ""
    with pytest.raises(ValueError, match="at least 3 methods"):
        bench_stats.friedman(same[["a", "b"]])
    with pytest.raises(ValueError, match="at least 2 data sets"):
        bench_stats.friedman(same.iloc[:1])
    with pytest.raises(ValueError, match="at least 3 methods"):
        bench_stats.ranking(same.assign(b=np.nan, c=np.nan))
    for k, N, named in ((1, 10, "k \\(methods\\)"), (2.5, 10, "k \\(methods\\)"), (3, 1, "N \\(data sets\\)")):
        with pytest.raises(ValueError, match=named):
            bench_stats.critical_difference(k, N)
    with pytest.raises(ValueError, match="alpha"):
        bench_stats.critical_difference(3, 10, alpha=1.5)
    assert bench_stats.critical_difference(2, 2) > 0
