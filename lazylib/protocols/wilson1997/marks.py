"""The marking rules of Wilson & Martinez (1997), read from :func:`lazylib.protocols.wilson1997.protocol.run`'s table.

- :func:`best`, :func:`wins`: the highest mean accuracy of each data set (the paper's bold) and how often each
  metric has it, ties counted for every tied metric;
- :func:`pvalues`, :func:`marks`: two-tailed paired t-tests over the folds against a baseline, and the marks at
  90 % (``"*"`` higher, ``"<"`` lower);
- :func:`over_next`: the best metric of each data set and whether it leads the next by more than 1 %.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from lazylib._validation import Real, check
from lazylib.evaluation import paired_ttest
from lazylib.protocols.wilson1997.protocol import fold_table, mean_table
from lazylib.search import TIE_TOLERANCE


def best(means: pd.DataFrame, tolerance: float = TIE_TOLERANCE) -> pd.DataFrame:
    """Boolean frame: True where a metric has the highest mean accuracy of its data set (the paper's bold),
    every tied metric included."""
    return means.ge(means.max(axis=1) - tolerance, axis=0)


def wins(means: pd.DataFrame, tolerance: float = TIE_TOLERANCE) -> pd.Series:
    """How many data sets each metric has the highest mean accuracy on, ties counted for every tied metric
    (Wilson & Martinez, section 6: "as high or higher").

    Examples
    --------
    >>> means = pd.DataFrame({"A": [0.9, 0.8, 0.7], "B": [0.9, 0.85, 0.6]}, index=["x", "y", "z"])
    >>> wins(means).to_dict()
    {'A': 2, 'B': 2}
    """
    return best(means, tolerance).sum().astype(int).rename("wins")


def pvalues(results: pd.DataFrame, baseline: str) -> pd.DataFrame:
    """Two-tailed paired t-test p-values of every metric against ``baseline`` over the folds: data set x
    metric (the baseline's own column is 1)."""
    folds = fold_table(results)
    if baseline not in folds.columns:
        raise ValueError(f"baseline {baseline!r} is not among the metrics {list(folds.columns)}")
    rows = {}
    for name, block in folds.groupby(level="dataset", sort=False):
        rows[name] = {
            m: paired_ttest(block[m].to_numpy(), block[baseline].to_numpy(), "two-sided") for m in folds.columns
        }
    return pd.DataFrame.from_dict(rows, orient="index")[list(folds.columns)]


def marks(results: pd.DataFrame, baseline: str, *, alpha: float = 0.10) -> pd.DataFrame:
    """The paper's marks against ``baseline`` (Table 3): ``"*"`` where a metric is significantly higher,
    ``"<"`` where significantly lower, by a two-tailed paired t-test at level ``alpha`` (0.10: "90 % or
    higher confidence"); ``""`` otherwise and in the baseline's column."""
    check("alpha", alpha, Real(low=0, high=1, open_low=True, open_high=True))
    p = pvalues(results, baseline)
    diff = mean_table(results).loc[p.index, p.columns].sub(mean_table(results).loc[p.index, baseline], axis=0)
    out = pd.DataFrame("", index=p.index, columns=p.columns)
    out[(p < alpha) & (diff > 0)] = "*"
    out[(p < alpha) & (diff < 0)] = "<"
    out[baseline] = ""
    return out


def over_next(means: pd.DataFrame, margin: float = 0.01, tolerance: float = TIE_TOLERANCE) -> pd.DataFrame:
    """For every data set, the metric with the highest mean accuracy, its lead over the next highest, and
    whether that lead exceeds ``margin`` (Table 2's asterisk: "more than 1 % over the next highest"; accuracies
    as fractions, so 1 % is 0.01). A tie for the highest gives lead 0 and the first tied metric.

    Examples
    --------
    >>> means = pd.DataFrame({"N1": [0.80, 0.9], "N2": [0.83, 0.9], "N3": [0.825, 0.85]}, index=["x", "y"])
    >>> over_next(means)
      best   lead  marked
    x   N2  0.005   False
    y   N1  0.000   False
    """
    check("margin", margin, Real(low=0))
    if means.shape[1] < 2:
        raise ValueError("over_next needs at least two metrics")
    values = means.to_numpy(dtype=float)
    top = np.sort(values, axis=1)[:, ::-1]
    lead = top[:, 0] - top[:, 1]
    lead[lead <= tolerance] = 0.0
    first = np.argmax(values >= values.max(axis=1, keepdims=True) - tolerance, axis=1)
    return pd.DataFrame(
        {"best": means.columns[first], "lead": lead.round(12), "marked": lead > margin + tolerance}, index=means.index
    )


__all__ = ["best", "marks", "over_next", "pvalues", "wins"]
