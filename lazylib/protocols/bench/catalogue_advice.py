"""The catalogue's advice for a new table: which of the stored full run's 46 data sets are most like it, how each
method ranked on them, and how good that advice has been (each catalogue data set left out in turn).

A table is described by its profile (:func:`profile`): its size, its number of attributes, the share of nominal
attributes, the share of missing cells and its number of classes. The features compared are ``log10`` of the size,
of the attributes and of the classes, and the two shares, each standardised over the catalogue (mean 0, standard
deviation 1; a feature constant over the catalogue is left unscaled); the nearest data sets are those at the
smallest Euclidean distance in that space. The advice is the method with the best mean rank (1 = most accurate) on
the nearest data sets, among the methods that ran on all of them and that the new table admits.
"""

from __future__ import annotations

import functools

import numpy as np
import pandas as pd

from lazylib._validation import Integer, Real, check
from lazylib.protocols.bench.stats import average_ranks, complete_block

#: The profile's features compared, in order (:func:`features`).
FEATURES = ("log_rows", "log_attributes", "nominal_share", "missing_share", "log_classes")


def profile(X: pd.DataFrame, y, types=None) -> dict:
    """What the advice compares of a table: ``rows``, ``attributes``, ``nominal_share`` (of the attributes),
    ``missing_share`` (of the cells of ``X``) and ``classes``.

    Parameters
    ----------
    X : DataFrame
        The attributes (missing cells NaN).
    y : array-like
        The classes (rows without a class already left out).
    types : dict, optional
        Column name -> ``"nominal"`` or ``"continuous"`` (as :func:`lazylib.protocols.shared.prepare`
        returns
        them); None: every attribute is continuous.

    Returns
    -------
    dict

    Examples
    --------
    >>> X = pd.DataFrame({"a": [1.0, np.nan, 3.0, 4.0], "b": list("xyxy")})
    >>> profile(X, ["p", "q", "p", "q"], {"a": "continuous", "b": "nominal"})
    {'rows': 4, 'attributes': 2, 'nominal_share': 0.5, 'missing_share': 0.125, 'classes': 2}
    """
    X = pd.DataFrame(X)
    if X.shape[0] == 0 or X.shape[1] == 0:
        raise ValueError(f"a profile needs rows and attributes, got a table of shape {X.shape}")
    nominal = sum(1 for c in X.columns if (types or {}).get(c) == "nominal")
    return {
        "rows": int(X.shape[0]),
        "attributes": int(X.shape[1]),
        "nominal_share": nominal / X.shape[1],
        "missing_share": float(X.isna().to_numpy().mean()),
        "classes": int(pd.Series(np.asarray(y, dtype=object)).nunique()),
    }


def features(profiles: pd.DataFrame) -> pd.DataFrame:
    """The compared features (:data:`FEATURES`) of one profile per row (columns of :func:`profile`)."""
    return pd.DataFrame(
        {
            "log_rows": np.log10(profiles["rows"].astype(float)),
            "log_attributes": np.log10(profiles["attributes"].astype(float)),
            "nominal_share": profiles["nominal_share"].astype(float),
            "missing_share": profiles["missing_share"].astype(float),
            "log_classes": np.log10(profiles["classes"].astype(float)),
        },
        index=profiles.index,
    )


@functools.lru_cache(maxsize=1)
def _catalogue_profiles(names: tuple) -> pd.DataFrame:
    from lazylib.protocols.shared import prepare

    rows = {}
    for name in names:
        X, y, types, _ = prepare(name)
        rows[name] = profile(X, y, types)
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = "dataset"
    return table


def catalogue_profiles(names=None) -> pd.DataFrame:
    """The profiles (:func:`profile`) of the catalogue's data sets, one row each (index ``dataset``), as the bench
    reads them (rows without a class left out). Loaded once per process.

    Parameters
    ----------
    names : sequence of str, optional
        Data set names (default: every data set of :func:`lazylib.datasets.list_datasets`).

    Returns
    -------
    DataFrame
    """
    if names is None:
        from lazylib import datasets

        names = datasets.list_datasets()
    return _catalogue_profiles(tuple(names)).copy()


def nearest(target: dict, profiles: pd.DataFrame, k: int = 5) -> pd.Series:
    """The ``k`` profiles nearest ``target`` (module docstring: standardised features, Euclidean distance).

    Parameters
    ----------
    target : dict
        A :func:`profile`.
    profiles : DataFrame
        The candidates, one per row (:func:`catalogue_profiles`); the standardisation is over them.
    k : int
        How many.

    Returns
    -------
    Series
        Distance of each of the nearest (index: their names), nearest first (ties by name).
    """
    k = check("k", k, Integer(low=1))
    if len(profiles) < k:
        raise ValueError(f"k = {k} nearest data sets asked among {len(profiles)}")
    space = features(profiles)
    centre, scale = space.mean(), space.std(ddof=0).replace(0.0, 1.0)
    point = (features(pd.DataFrame([target])).iloc[0] - centre) / scale
    distance = np.sqrt((((space - centre) / scale - point) ** 2).sum(axis=1))
    distance = distance.rename("distance").sort_index(kind="stable")
    return distance.sort_values(kind="stable").iloc[:k]


def accuracy_block(full_run: pd.DataFrame) -> pd.DataFrame:
    """Mean accuracy of each method (columns) on each data set (index) of a bench run; NaN where it refused or has
    a fold without a result (never a mean of the folds that ran)."""
    complete = full_run.groupby(["dataset", "method"])["accuracy"].agg(
        lambda a: a.mean() if a.notna().all() else np.nan
    )
    return complete.unstack("method")


def _advice(block: pd.DataFrame, names, methods=None) -> tuple[str, pd.DataFrame]:
    """The method with the best mean rank on the data sets ``names`` among those that ran on all of them (and are
    in ``methods``), with every method's mean rank there (ranks computed among those methods)."""
    sub = complete_block(block, names)
    sub = sub[[m for m in sub.columns if methods is None or m in methods]]
    if sub.shape[1] == 0:
        raise ValueError(f"no method ran on every one of {list(names)}")
    ranks = average_ranks(sub)
    table = pd.DataFrame({"mean_rank": ranks, "mean_accuracy": sub[ranks.index].mean()})
    table.index.name = "method"
    return ranks.index[0], table


def catalogue_view(
    target: dict,
    full_run: pd.DataFrame,
    table_accuracies=None,
    *,
    k: int = 5,
    profiles: pd.DataFrame | None = None,
    methods=None,
) -> dict:
    """The catalogue's view of a new table: its nearest data sets, the methods' mean ranks on them, the method they
    recommend and, given the new table's own accuracies, the new table ranked inside the catalogue.

    Parameters
    ----------
    target : dict
        The new table's :func:`profile`.
    full_run : DataFrame
        The stored full run's rows (:func:`lazylib.protocols.bench.results.load_full_run`).
    table_accuracies : Series, optional
        The new table's mean accuracy of each method (index: method names of the bench).
    k : int
        Nearest data sets.
    profiles : DataFrame, optional
        The catalogue's profiles (default :func:`catalogue_profiles` of the run's data sets).
    methods : sequence of str, optional
        The methods the new table admits (default: every method of the run).

    Returns
    -------
    dict with ``nearest`` (list of ``{"dataset", "distance"}``), ``ranks`` (DataFrame: ``mean_rank``,
    ``mean_accuracy`` on the nearest), ``recommended`` (str), and with ``table_accuracies``: ``overall`` (DataFrame:
    each method's mean rank over the catalogue's data sets on which every compared method ran, and with the new
    table added: ``rank_catalogue``, ``rank_with_table``, ``rank_on_table``).
    """
    block = accuracy_block(full_run)
    if profiles is None:
        profiles = catalogue_profiles(tuple(block.index))
    near = nearest(target, profiles.loc[profiles.index.intersection(block.index)], k)
    recommended, ranks = _advice(block, near.index, methods)
    view = {
        "nearest": [{"dataset": d, "distance": float(v)} for d, v in near.items()],
        "ranks": ranks,
        "recommended": recommended,
    }
    if table_accuracies is not None:
        ours = pd.Series(table_accuracies, dtype=float).dropna()
        compared = [m for m in block.columns if m in ours.index]
        full = block[compared].dropna()
        with_table = pd.concat([full, ours[compared].to_frame("your table").T])
        overall = pd.DataFrame(
            {
                "rank_catalogue": average_ranks(full),
                "rank_with_table": average_ranks(with_table),
                "rank_on_table": average_ranks(with_table.loc[["your table"]]),
            }
        ).sort_values("rank_with_table", kind="stable")
        overall.index.name = "method"
        view["overall"] = overall
        view["n_catalogue"] = len(full)
    return view


def hit_rate(full_run: pd.DataFrame, profiles: pd.DataFrame | None = None, *, k: int = 5, within: float = 1.0) -> dict:
    """How good the catalogue's advice is: each data set of the run is left out in turn, the method recommended
    from its ``k`` nearest remaining data sets (among those that ran on the left-out one) is compared with the
    left-out data set's best method, and a hit is an accuracy within ``within`` points of that best. Beside it, the
    same count for always recommending the method with the best mean rank over all the remaining data sets (the
    advice without neighbours).

    Parameters
    ----------
    full_run : DataFrame
        A bench run's rows (:func:`lazylib.protocols.bench.results.load_full_run`).
    profiles : DataFrame, optional
        The data sets' profiles (default :func:`catalogue_profiles` of the run's data sets).
    k : int
        Nearest data sets.
    within : float
        Accuracy points from the best that count as a hit.

    Returns
    -------
    dict with ``rate``, ``hits``, ``n`` (data sets judged), ``baseline_rate``, ``baseline_hits``, ``k``,
    ``within`` and ``picks`` (DataFrame per data set: ``recommended``, ``baseline``, ``best``, ``loss``,
    ``baseline_loss``, the points below the best).
    """
    k = check("k", k, Integer(low=1))
    within = check("within", within, Real(low=0))
    block = accuracy_block(full_run)
    if profiles is None:
        profiles = catalogue_profiles(tuple(block.index))
    profiles = profiles.loc[profiles.index.intersection(block.index)]
    if len(profiles) < k + 1:
        raise ValueError(f"hit_rate with k = {k} needs at least {k + 1} data sets, got {len(profiles)}")
    rows = {}
    for name in profiles.index:
        rest = profiles.drop(index=name)
        ran = block.loc[name].dropna()
        target = profiles.loc[name].to_dict()
        pick, _ = _advice(block, nearest(target, rest, k).index, ran.index)
        plain, _ = _advice(block, rest.index, ran.index)
        best = ran.max()
        rows[name] = {"recommended": pick, "baseline": plain, "best": ran.idxmax()}
        rows[name] |= {"loss": best - ran[pick], "baseline_loss": best - ran[plain]}
    picks = pd.DataFrame.from_dict(rows, orient="index")
    picks.index.name = "dataset"
    hits, base = int((picks["loss"] <= within).sum()), int((picks["baseline_loss"] <= within).sum())
    n = len(picks)
    return {
        "rate": hits / n,
        "hits": hits,
        "n": n,
        "baseline_rate": base / n,
        "baseline_hits": base,
        "k": k,
        "within": within,
        "picks": picks,
    }
