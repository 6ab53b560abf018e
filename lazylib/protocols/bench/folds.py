"""Which folds the bench's accuracy tables average: the folds every method has (paired), never a method's mean over
the folds it happened to finish.

A method that fails on some folds of a data set (an error on a fold; a refusal is of the whole data set) would
otherwise get the mean of its other folds, compared with the other methods' means over every fold: unpaired and
unflagged. :func:`paired_folds` sets aside, for every method of that data set, the folds some method lacks, so
that every mean of the data set's row is over the same folds; :func:`fold_failures` lists what was set aside and
why, for the chapter to show. A method with no result on any fold of a data set (a refusal, or a failure on every
fold) takes no part in the pairing: it is left out of that data set's row (NaN), with its reason in the rows.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

#: The columns of :func:`fold_failures`.
FAILURE_COLUMNS = ["dataset", "method", "failed folds", "folds", "error", "set aside for every method"]

_FOLD = ["dataset", "seed", "fold"]


def _lacking(results: pd.DataFrame) -> pd.Series:
    """True on the rows of a method that has a result on some fold of its data set but none on this one."""
    ran = results["accuracy"].notna().groupby([results["dataset"], results["method"]]).transform("any")
    return ran & results["accuracy"].isna()


def paired_folds(results: pd.DataFrame) -> pd.DataFrame:
    """``results`` with every method's accuracy set aside (NaN) on the folds of a data set that some method of it
    lacks, so that the means of one data set are all over the same folds.

    Parameters
    ----------
    results : DataFrame
        A bench run's rows (:func:`lazylib.protocols.bench.protocol.run`): ``dataset``, ``seed``, ``fold``, ``method``,
        ``accuracy``.

    Returns
    -------
    DataFrame
        A copy, with ``attrs["fold failures"]`` the table of :func:`fold_failures`.

    Examples
    --------
    >>> rows = pd.DataFrame({"dataset": "d", "seed": 0, "fold": [0, 1, 0, 1], "method": ["A", "A", "B", "B"],
    ...                      "accuracy": [90.0, 70.0, 80.0, np.nan], "error": ["", "", "", "MemoryError: x"]})
    >>> paired_folds(rows)["accuracy"].tolist()  # A's fold 1 set aside with B's: A 90 vs B 80, not A 80 vs B 80
    [90.0, nan, 80.0, nan]
    """
    lacking = _lacking(results)
    aside = lacking.groupby([results[c] for c in _FOLD]).transform("any")
    out = results.copy()
    out.loc[aside, "accuracy"] = np.nan
    out.attrs["fold failures"] = fold_failures(results)
    return out


def fold_failures(results: pd.DataFrame) -> pd.DataFrame:
    """The methods that lack a result on some folds of a data set but not all: one row per (data set, method),
    with how many folds failed of how many, the first error recorded, and how many folds of the data set
    :func:`paired_folds` sets aside for every method (:data:`FAILURE_COLUMNS`).

    Examples
    --------
    >>> rows = pd.DataFrame({"dataset": "d", "seed": 0, "fold": [0, 1, 0, 1], "method": ["A", "A", "B", "B"],
    ...                      "accuracy": [90.0, 70.0, 80.0, np.nan], "error": ["", "", "", "MemoryError: x"]})
    >>> fold_failures(rows).iloc[0].astype(str).tolist()
    ['d', 'B', '1', '2', 'MemoryError: x', '1']
    """
    lacking = _lacking(results)
    if not lacking.any():
        return pd.DataFrame(columns=FAILURE_COLUMNS)
    error = results["error"] if "error" in results.columns else pd.Series("", index=results.index)
    error = error.fillna("").astype(str)
    aside = results.loc[lacking, _FOLD].drop_duplicates().groupby("dataset").size()
    rows = []
    for (dataset, method), group in results[lacking].groupby(["dataset", "method"], sort=True):
        folds = results[(results["dataset"] == dataset) & (results["method"] == method)]
        messages = [m for m in error[group.index] if m]
        rows.append(
            {
                "dataset": dataset,
                "method": method,
                "failed folds": len(group),
                "folds": len(folds),
                "error": messages[0] if messages else "no result recorded",
                "set aside for every method": int(aside[dataset]),
            }
        )
    return pd.DataFrame(rows, columns=FAILURE_COLUMNS)
