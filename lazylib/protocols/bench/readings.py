"""Part VI's alternative readings: the rows of the Euclidean baseline under Wilson & Martinez' reading of nominal
attributes (their category codes, :data:`lazylib.metrics.minkowski.NOMINAL_READINGS`), kept beside the full run
whose baseline reads them one-hot, so that the difference is shown once (``book/bench/03_papers.md``); and the rows
of the data sets whose protocol the smooth rule changed, as the catalogue's earlier cliff gave them
(:data:`CLIFF_ROWS`, :func:`load_cliff_rows`, shown in ``book/bench/02_ranking.md``).

The code-order rows are those of the full run stored before the baseline became order-free (issue #54): the
same folds, seeds and protocol, the same code but for the reading (:data:`CODE_ORDER`, with its provenance in
``euclidean_codes.json`` beside it). :func:`load_code_order` checks them against the full run when it reads them.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from lazylib.protocols.bench.protocol import CLIFF, accuracy_table
from lazylib.protocols.bench.results import FULL_RUN, ROW_KEY, RUN_COLUMNS
from lazylib.protocols.shared import prepare

#: The methods whose rows depend on the reading of nominal attributes: the Euclidean baselines.
BASELINES = ("1-NN Euclidean", "k-NN Euclidean")

#: The code-order rows, relative to the repository root (beside :data:`~lazylib.protocols.bench.results.FULL_RUN`).
CODE_ORDER = FULL_RUN.parent / "euclidean_codes.csv.gz"
#: The rows the cliff of :data:`lazylib.protocols.bench.protocol.CLIFF` gave the data sets whose training sample or
#: fold seeds the smooth rule of ``FULL`` changed, relative to the repository root (provenance in
#: ``cliff_rows.json`` beside it).
CLIFF_ROWS = FULL_RUN.parent / "cliff_rows.csv.gz"


def _path(path, default: Path) -> Path:
    if path is None:
        from lazylib.report.book_files import book_root

        root = book_root()
        path = (root if root is not None else Path.cwd()) / default
    return Path(path)


def _read_rows(path: Path, what: str) -> pd.DataFrame:
    """A file of bench rows kept beside the full run, refused when absent or without a run's columns."""
    if not path.is_file():
        raise FileNotFoundError(f"{path} is missing: {what}")
    rows = pd.read_csv(path, dtype={"dataset": str, "kind": str, "method": str, "refused": str, "error": str})
    missing = [c for c in RUN_COLUMNS if c not in rows.columns]
    if missing:
        raise ValueError(f"{path} lacks the columns {missing} of a bench run")
    rows["refused"] = rows["refused"].fillna("")
    return rows


def _with_provenance(rows: pd.DataFrame, path: Path) -> pd.DataFrame:
    """``rows`` with ``attrs["provenance"]``, the JSON file beside ``path`` (when there is one)."""
    meta = path.with_suffix("").with_suffix(".json")
    if meta.is_file():
        rows.attrs["provenance"] = json.loads(meta.read_text(encoding="utf-8"))
    return rows


def _keys(rows: pd.DataFrame) -> set:
    return set(map(tuple, rows[list(ROW_KEY)].astype(str).to_numpy()))


def load_cliff_rows(full: pd.DataFrame, path=None) -> pd.DataFrame:
    """The rows of the catalogue's earlier protocol (the cliff) for the data sets the smooth rule changed, checked
    against the full run ``full`` and against the cliff's own folds.

    Parameters
    ----------
    full : DataFrame
        The full run (:func:`lazylib.protocols.bench.results.load_full_run`).
    path : str or Path, optional
        The file (default: :data:`CLIFF_ROWS` under the folder holding the book's ``_toc.yml``).

    Returns
    -------
    DataFrame
        The rows, with the columns of the full run; ``attrs["provenance"]`` the JSON file beside it.

    Raises
    ------
    FileNotFoundError
        When the file is absent.
    ValueError
        When a column is missing, a data set is not one of the full run's, or the rows are not every seed, fold
        and method the cliff gives their data sets, once each (a damaged or foreign file).
    """
    path = _path(path, CLIFF_ROWS)
    rows = _read_rows(path, "the cliff's rows of the data sets the smooth rule changed")
    names = sorted(set(rows["dataset"]))
    foreign = sorted(set(names) - set(full["dataset"]))
    if foreign:
        raise ValueError(f"{path} holds rows of {foreign}, which the full run does not have")
    seeds = CLIFF.seeds()
    expected = {
        (name, str(seed), str(fold), method)
        for name in names
        for seed in seeds[: CLIFF.fold_seeds_of(len(prepare(name)[1]))]
        for fold in range(CLIFF.n_splits)
        for method in CLIFF.methods
    }
    if _keys(rows) != expected or len(rows) != len(expected):
        raise ValueError(f"{path} is not every seed, fold and method the cliff gives {names}, once each")
    return _with_provenance(rows, path)


def with_cliff(full: pd.DataFrame, cliff: pd.DataFrame) -> pd.DataFrame:
    """The full run with the rows of the data sets in ``cliff`` (:func:`load_cliff_rows`) as the cliff gave them."""
    kept = full[~full["dataset"].isin(set(cliff["dataset"]))]
    return pd.concat([kept, cliff[full.columns.intersection(cliff.columns)]], ignore_index=True)


def load_code_order(full: pd.DataFrame, path=None) -> pd.DataFrame:
    """The Euclidean baselines' rows under the code-order reading, checked against the full run ``full``.

    Parameters
    ----------
    full : DataFrame
        The full run (:func:`lazylib.protocols.bench.results.load_full_run`).
    path : str or Path, optional
        The file (default: :data:`CODE_ORDER` under the folder holding the book's ``_toc.yml``).

    Returns
    -------
    DataFrame
        The rows, with the columns of the full run; ``attrs["provenance"]`` the JSON file beside it.

    Raises
    ------
    FileNotFoundError
        When the file is absent.
    ValueError
        When a column is missing, a method other than :data:`BASELINES` is there, or the rows do not name the
        same data sets, seeds and folds as the full run's baselines (a damaged or foreign file).
    """
    path = _path(path, CODE_ORDER)
    rows = _read_rows(path, "the code-order rows of the Euclidean baselines (see its module)")
    other = sorted(set(rows["method"]) - set(BASELINES))
    if other:
        raise ValueError(f"{path} holds rows of {other}: only {list(BASELINES)} have a code-order reading")
    key = list(ROW_KEY)
    theirs = set(map(tuple, rows[key].astype(str).to_numpy()))
    ours = set(map(tuple, full.loc[full["method"].isin(BASELINES), key].astype(str).to_numpy()))
    if theirs != ours or len(theirs) != len(rows):
        raise ValueError(
            f"{path} does not name the data sets, seeds, folds and methods of the full run's baselines, once each: "
            "it belongs to another run"
        )
    return _with_provenance(rows, path)


def with_code_order(full: pd.DataFrame, codes: pd.DataFrame) -> pd.DataFrame:
    """The full run with its Euclidean baselines' rows replaced by the code-order ones (:func:`load_code_order`)."""
    kept = full[~full["method"].isin(BASELINES)]
    return pd.concat([kept, codes[full.columns.intersection(codes.columns)]], ignore_index=True)


def reading_difference(full: pd.DataFrame, codes: pd.DataFrame) -> pd.DataFrame:
    """The two readings side by side on the data sets with nominal attributes, one row per baseline: the mean
    accuracy over those data sets under each reading, the largest change on one data set, and on how many data
    sets the one-hot reading is higher, equal and lower (equal: the same mean to 1e-9 points).

    >>> rows = pd.DataFrame({"dataset": ["a", "a", "b", "b"], "kind": ["nominal", "nominal", "mixed", "mixed"],
    ...     "seed": 1, "fold": 0, "method": list(BASELINES) * 2, "accuracy": [80.0, 70.0, 60.0, 90.0],
    ...     "total_s": 0.1, "refused": ""})
    >>> codes = rows.assign(accuracy=[75.0, 70.0, 65.0, 80.0])
    >>> reading_difference(rows, codes)[["one-hot higher", "equal", "one-hot lower"]].to_dict("list")
    {'one-hot higher': [1, 1], 'equal': [0, 1], 'one-hot lower': [1, 0]}
    """
    nominal = full.loc[full["kind"].isin(("nominal", "mixed")), "dataset"].unique()
    one_hot = accuracy_table(full[full["dataset"].isin(nominal)])
    code = accuracy_table(with_code_order(full, codes).query("dataset in @nominal"))
    out = {}
    for method in BASELINES:
        diff = (one_hot[method] - code[method]).dropna()
        out[method] = {
            "data sets": len(diff),
            "mean, codes": code[method].mean(),
            "mean, one-hot": one_hot[method].mean(),
            "largest change": diff.abs().max(),
            "one-hot higher": int((diff > 1e-9).sum()),
            "equal": int((diff.abs() <= 1e-9).sum()),
            "one-hot lower": int((diff < -1e-9).sum()),
        }
    return pd.DataFrame.from_dict(out, orient="index")
