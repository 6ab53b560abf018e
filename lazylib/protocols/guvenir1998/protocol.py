"""The protocol of Güvenir's (1998) Figures 6 and 7: cross-validated accuracy of VFI5 and of k-NN as irrelevant
features are appended to a data set.

Both classifiers are *additive over features*: VFI5's total vote is the sum of its features' votes, and the
squared range-normalised Euclidean distance is the sum of one term per feature. So on one fold, the results for
every number of leading features ("widths") follow from a single pass: VFI5 is fitted once on all features and
its per-feature votes are summed cumulatively; the k-NN distance terms are summed cumulatively and every width's
distance matrix is voted with the library's k-NN rule (:func:`lazylib.voting.vote`). The results are those
of fitting :class:`lazylib.vfi.VFI5Classifier` and :class:`lazylib.neighbors.KNeighborsClassifier` (metric
``"euclidean"``, ``normalize="range"``; ``"heom"`` when some features are nominal) on each width separately
(``tests/oracles/test_irrelevance.py``), at a fraction of the cost.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from lazylib._validation import check_random_state
from lazylib.column_stats import known_range
from lazylib.evaluation import check_folds
from lazylib.labels import encode_labels
from lazylib.metrics import encode
from lazylib.parallel import parallel_map
from lazylib.report.plotting import PUBLISHED
from lazylib.search import TIE_RULES, TIE_TOLERANCE, select
from lazylib.vfi import VFI5Classifier, winners
from lazylib.voting import class_probabilities, neighbourhood, vote, vote_priority

#: Float64 numbers of the (test x train x features) difference array computed at once.
CHUNK_ELEMENTS = 1 << 22


def range_euclidean_terms(train: np.ndarray, test: np.ndarray, nominal=None) -> np.ndarray:
    """Cumulative squared range-normalised Euclidean distance, shape (n_test, n_train, features): entry
    ``[:, :, w - 1]`` is the squared distance on the first ``w`` features.

    Each feature's difference is divided by its range over the known training values; an unknown value on
    either side contributes 1, and a feature constant in training contributes 0 (the rules of
    :class:`lazylib.metrics.Minkowski` with ``normalize="range"``). A feature marked in the boolean mask
    ``nominal`` contributes 0 for equal values and 1 for different ones (overlap), which makes the distance
    HEOM (:class:`lazylib.metrics.HEOM`); on two-valued codes 0 and 1 seen in training both rules agree.
    """
    lo, hi = known_range(train)
    scale = hi - lo
    nominal = np.zeros(train.shape[1], bool) if nominal is None else np.asarray(nominal, bool)
    scale[nominal] = 1.0
    inv = np.divide(1.0, scale, out=np.zeros_like(scale), where=scale > 0)
    m = train.shape[1]
    out = np.empty((len(test), len(train), m))
    step = max(1, CHUNK_ELEMENTS // max(1, len(train) * m))
    for start in range(0, len(test), step):
        diff = (test[start : start + step, None, :] - train[None, :, :]) * inv
        if nominal.any():
            diff[..., nominal] = diff[..., nominal] != 0
        term = diff * diff
        term[np.isnan(term)] = 1.0
        np.cumsum(term, axis=2, out=out[start : start + step])
    return out


def fold_accuracies(
    Z: np.ndarray,
    y_idx: np.ndarray,
    train: np.ndarray,
    test: np.ndarray,
    widths,
    *,
    kinds,
    ks=(1, 3, 5),
    ties: str = "all",
    tie_tolerance: float = TIE_TOLERANCE,
    vfi_params: dict | None = None,
) -> dict:
    """Accuracy of VFI5 and of k-NN for every ``k`` in ``ks`` on one fold, for every width.

    Parameters
    ----------
    Z : ndarray (n, m)
        The data in lazylib's numeric form (:func:`lazylib.metrics.encode`), features in the order they are
        added.
    y_idx : ndarray of int
        Class indices.
    train, test : index arrays
    widths : sequence of int
        Numbers of leading features to evaluate (each in 1..m).
    kinds : tuple
        Feature types (``Encoded.kinds``).
    ks : sequence of int
        The k of every k-NN to evaluate; empty for VFI5 alone (no distances are computed).
    vfi_params : dict, optional
        Keyword parameters of :class:`lazylib.vfi.VFI5Classifier` (e.g. Weka's options).

    ties : {"all", "first", "random"}
        k-NN's tie rule (:mod:`lazylib.neighbors`); for ``"random"`` the accuracy is its exact expectation over
        the random choices, not one draw.

    Returns
    -------
    dict mapping ``"VFI5"`` and ``"k-NN"`` names (``"1-NN"``, ...) to arrays of accuracies, one per width.
    """
    widths = np.asarray(widths, dtype=np.intp)
    y_tr, y_te = y_idx[train], y_idx[test]
    # class indices as the training fold sees them (a class may be absent from it)
    y_fit, classes = encode_labels(pd.Series(y_tr), len(y_tr))
    classes = np.asarray(classes)
    out = {}
    vfi = VFI5Classifier(**(vfi_params or {})).fit(Z[train], y_tr, types=kinds)
    cum = np.cumsum(vfi.feature_votes(Z[test]), axis=1)[:, widths - 1]  # (n_test, widths, C)
    n_te, n_w, C = cum.shape
    pred = winners(cum.reshape(n_te * n_w, C), vfi.priority_, vfi.tie_tolerance).reshape(n_te, n_w)
    out["VFI5"] = (classes[pred] == y_te[:, None]).mean(axis=0)
    if not len(ks):
        return out
    nominal = np.array([kind == "nominal" for kind in kinds], dtype=bool)
    S = range_euclidean_terms(Z[train], Z[test], nominal)[:, :, widths - 1]  # (n_test, n_train, widths)
    stacked = np.moveaxis(S, 2, 0).reshape(n_w * n_te, len(train))
    priority = vote_priority(np.bincount(y_fit, minlength=len(classes)))
    for k in ks:
        if ties == "random":  # the exact expected accuracy over the random tie draws
            rows, cols, sums = select(stacked, k, tie_tolerance)
            nb = neighbourhood(rows, cols, sums, len(stacked), y_fit, len(classes), k, tie_tolerance)
            P = class_probabilities(nb, k, priority, "random")
            truth = np.tile(y_te, n_w)
            hit = (classes[None, :] == truth[:, None]) * P  # zero where the class is absent from the fold
            out[f"{k}-NN"] = hit.sum(axis=1).reshape(n_w, n_te).mean(axis=1)
            continue
        pred = vote(stacked, y_fit, k, priority, ties, tie_tolerance).reshape(n_w, n_te)
        out[f"{k}-NN"] = (classes[pred] == y_te[None, :]).mean(axis=1)
    return out


def prefix_accuracy(
    X, y, folds, widths, *, types=None, ks=(1, 3, 5), ties: str = "all", vfi_params: dict | None = None
) -> pd.DataFrame:
    """Accuracy of VFI5 and k-NN (range-normalised Euclidean) on every fold, using the first ``w`` features of
    ``X`` for every ``w`` in ``widths`` (``ks`` and ``vfi_params`` as in :func:`fold_accuracies`).

    Returns
    -------
    DataFrame with columns ``fold``, ``width``, ``classifier``, ``accuracy`` (a fraction).

    Examples
    --------
    >>> from lazylib import evaluation, synthetic
    >>> X, y = synthetic.r_n(2, random_state=0)
    >>> X = synthetic.add_irrelevant(X, 3, kind="uniform", random_state=1)
    >>> res = prefix_accuracy(X, y, evaluation.kfold(100, 5, random_state=2), [2, 5], ks=(1,))
    >>> res.groupby(["classifier", "width"])["accuracy"].mean().round(2).to_dict()
    {('1-NN', 2): 0.96, ('1-NN', 5): 0.78, ('VFI5', 2): 0.8, ('VFI5', 5): 0.78}
    """
    if ties not in TIE_RULES:
        raise ValueError(f"ties must be one of {TIE_RULES}, got {ties!r}")
    data = encode(X, types)
    m = data.values.shape[1]
    widths = [int(w) for w in widths]
    if not widths or min(widths) < 1 or max(widths) > m:
        raise ValueError(f"every width must be between 1 and the number of features ({m}), got {widths}")
    y_idx, _ = encode_labels(y, len(data))
    rows = []
    for f, (train, test) in enumerate(check_folds(folds, len(data))):
        acc = fold_accuracies(
            data.values,
            y_idx,
            np.asarray(train),
            np.asarray(test),
            widths,
            kinds=data.kinds,
            ks=ks,
            ties=ties,
            vfi_params=vfi_params,
        )
        rows += [
            {"fold": f, "width": w, "classifier": name, "accuracy": float(a[i])}
            for name, a in acc.items()
            for i, w in enumerate(widths)
        ]
    return pd.DataFrame(rows)


def repeated_prefix_accuracy(
    make_data,
    n_repeats: int,
    widths,
    *,
    n_splits: int = 5,
    ks=(1, 3, 5),
    ties: str = "all",
    vfi_params: dict | None = None,
    random_state=None,
    n_jobs: int | None = None,
) -> pd.DataFrame:
    """:func:`prefix_accuracy` repeated ``n_repeats`` times, each repetition with its own data and folds.

    Parameters
    ----------
    make_data : callable
        ``make_data(rng)`` returns ``(X, y)`` for one repetition, drawing everything random from the
        ``numpy.random.Generator`` it is given (e.g. a fresh R_n sample, or a UCI set with new irrelevant
        features).
    n_splits : int
        Folds of each repetition's cross-validation (shuffled k-fold, :func:`lazylib.evaluation.kfold`).
    random_state : int, Generator or None
        Seed or generator of every repetition's seed (results do not depend on ``n_jobs``): an int seeds a fresh
        generator (the same draws at every call), a Generator is used as it is (its stream continues), None draws fresh
        entropy.

    Returns
    -------
    DataFrame with columns ``repetition``, ``classifier``, ``width`` and ``accuracy``: the cross-validated
    accuracy (%) of each repetition, the mean over its folds weighted by fold size (= pooled accuracy).
    """
    from lazylib.evaluation import kfold

    seeds = check_random_state(random_state).integers(0, 2**32 - 1, n_repeats)

    def one(r):
        rng = np.random.default_rng(int(seeds[r]))
        X, y = make_data(rng)
        folds = kfold(len(X), n_splits, random_state=rng)
        res = prefix_accuracy(X, y, folds, widths, ks=ks, ties=ties, vfi_params=vfi_params)
        size = np.array([len(t) for _, t in folds], dtype=float)
        res["weight"] = size[res["fold"]] / size.sum()
        res["accuracy"] *= res["weight"]
        acc = 100 * res.groupby(["classifier", "width"])["accuracy"].sum()
        return acc.rename("accuracy").reset_index().assign(repetition=r)

    parts = parallel_map(one, range(n_repeats), n_jobs=n_jobs, label="repetitions")
    return pd.concat(parts, ignore_index=True)[["repetition", "classifier", "width", "accuracy"]]


#: The kinds of vote an irrelevant feature can cast (:func:`vote_decomposition`).
VOTE_KINDS = ("abstains", "about equal", "pure", "in between")


def vote_decomposition(X, y, folds, irrelevant, *, near: float = 0.1, types=None, vfi_params: dict | None = None):
    """What the irrelevant features of a data set vote, query by query, and how often they decide an error.

    On every fold VFI5 is fitted on all features and every test query's vote vector from each feature in
    ``irrelevant`` is sorted into one of :data:`VOTE_KINDS`: ``"abstains"`` (the value falls in an interval
    holding no training value), ``"about equal"`` (every class within ``near`` of ``1/C``, the paper's
    mechanism), ``"pure"`` (the whole vote to one class) or ``"in between"``.

    Parameters
    ----------
    X : DataFrame
        The data, irrelevant features included.
    y : array-like
        Class labels.
    folds : list of (train, test) index arrays
    irrelevant : sequence of str
        Names of the irrelevant features.
    near : float
        Largest deviation from ``1/C`` of a vote counted as about equal.

    Returns
    -------
    DataFrame
        One row per fold: the share of the irrelevant features' votes of each kind (columns ``VOTE_KINDS``),
        ``errors`` (VFI5's misclassified test queries), ``errors with a wrong pure vote`` (those on which at least
        one irrelevant feature cast a pure vote for another class than the true one) and ``queries``.

    Examples
    --------
    >>> from lazylib import evaluation, synthetic
    >>> X, y = synthetic.r_n(1, random_state=0)
    >>> X = synthetic.add_irrelevant(X, 5, kind="uniform", random_state=1)
    >>> names = [f"irrelevant{j}" for j in range(1, 6)]
    >>> res = vote_decomposition(X, y, evaluation.kfold(100, 5, random_state=2), names)
    >>> round(float(res["about equal"].mean()), 2), round(float(res["pure"].mean()), 2)
    (0.92, 0.04)
    """
    if not 0 <= near < 1:
        raise ValueError(f"near must be in [0, 1), got {near!r}")
    data = encode(X, types)
    missing = sorted(set(irrelevant) - set(data.columns))
    if missing:
        raise ValueError(f"irrelevant names features X does not have: {missing}")
    cols = np.array([data.columns.index(name) for name in irrelevant], dtype=np.intp)
    y_idx, _ = encode_labels(y, len(data))
    rows = []
    for train, test in check_folds(folds, len(data)):
        vfi = VFI5Classifier(**(vfi_params or {})).fit(data.values[train], y_idx[train], types=data.kinds)
        votes = vfi.feature_votes(data.values[test])  # (n_test, m, C)
        classes = np.asarray(vfi.classes_)
        truth = y_idx[test]
        wrong = classes[winners(votes.sum(axis=1), vfi.priority_, vfi.tie_tolerance)] != truth
        v = votes[:, cols, :]
        C = v.shape[2]
        total = v.sum(axis=2)
        abstains = total == 0
        deviation = np.abs(v - 1.0 / C).max(axis=2)
        pure = ~abstains & (v.max(axis=2) >= 1.0 - 1e-12)
        equal = ~abstains & ~pure & (deviation <= near)
        between = ~abstains & ~pure & ~equal
        pure_for = np.where(pure, v.argmax(axis=2), -1)  # the class a pure vote goes to
        pure_wrong = ((pure_for >= 0) & (classes[np.maximum(pure_for, 0)] != truth[:, None])).any(axis=1)
        n_votes = abstains.size
        rows.append(
            {
                "abstains": abstains.sum() / n_votes,
                "about equal": equal.sum() / n_votes,
                "pure": pure.sum() / n_votes,
                "in between": between.sum() / n_votes,
                "errors": int(wrong.sum()),
                "errors with a wrong pure vote": int((wrong & pure_wrong).sum()),
                "queries": len(test),
            }
        )
    return pd.DataFrame(rows)


# --- Figures 1-3: the sample set's intervals, drawn -------------------------------------------------------------


def interval_label(row) -> str:
    """An interval of :attr:`lazylib.vfi.VFI5Classifier.intervals_` as text: ``[v]`` for a point interval,
    ``(lower, upper)`` for a range (``∞`` for an unbounded end).

    Examples
    --------
    >>> interval_label({"closed": "both", "lower": 2.0, "upper": 2.0})
    '[2]'
    >>> interval_label({"closed": "open", "lower": 7.0, "upper": float("inf")})
    '(7, ∞)'
    """
    if row["closed"] == "both":
        return f"[{row['lower']:g}]"
    return f"({row['lower']:g}, {row['upper']:g})".replace("inf", "∞")


def draw_intervals(ax, table, name, *, values, lo=0.0, hi=9.0) -> None:
    """One feature's intervals as a number line (Güvenir's Figure 2): point intervals as dots labelled above,
    range intervals as grey segments labelled below, the labels given by ``values(row)``.

    Parameters
    ----------
    ax : matplotlib Axes
    table : DataFrame
        One feature's interval table (:attr:`lazylib.vfi.VFI5Classifier.intervals_`).
    name : str
        The feature's name, two characters such as ``"f1"`` (drawn as :math:`f_1`).
    values : callable
        ``values(row) -> str``: the label of an interval.
    lo, hi : float
        The drawn part of the line; unbounded ranges are cut there.
    """
    for _, row in table.iterrows():
        if row["closed"] == "both":
            x = row["lower"]
            ax.plot([x], [0], "o", color="black", ms=5, zorder=3)
            ax.text(x, 0.35, values(row), ha="center", va="bottom", fontsize=7.5)
        else:
            a, b = max(row["lower"], lo), min(row["upper"], hi)
            ax.plot([a, b], [0, 0], color=PUBLISHED, lw=2)
            ax.text((a + b) / 2, -0.35, values(row), ha="center", va="top", fontsize=7.5)
    ax.set(xlim=(lo, hi), ylim=(-1.4, 1.4), yticks=[], xlabel=f"${name[0]}_{name[1]}$")
    ax.grid(False)
    ax.spines["left"].set_visible(False)


def same_class_neighbours(data: dict, params: dict | None = None) -> pd.DataFrame:
    """Per data set: neighbouring intervals of VFI5's linear features that both hold training values, and those
    of them that hold the same set of classes (section 2 says two neighbouring intervals never do).

    Parameters
    ----------
    data : dict
        Name -> ``(X, y)``.
    params : dict, optional
        Keyword parameters of :class:`lazylib.vfi.VFI5Classifier` (e.g. ``{"point_intervals": False}`` for
        Weka's reading).

    Returns
    -------
    DataFrame
        Indexed by ``data``; columns ``neighbouring pairs holding values``, ``same set of classes`` and
        ``share`` (the second over the first).

    Examples
    --------
    >>> X = pd.DataFrame({"f1": [1.0, 3.0, 5.0, 2.0, 4.0, 6.0, 7.0], "f2": [4.0, 6.0, 7.0, 1.0, 3.0, 5.0, 8.0]})
    >>> y = pd.Series(["A", "A", "A", "B", "B", "B", "B"])
    >>> same_class_neighbours({"sample": (X, y)}).loc["sample"].round(3).tolist()
    [8.0, 2.0, 0.25]
    """
    rows = []
    for name, (X, y) in data.items():
        fitted = VFI5Classifier(**(params or {})).fit(X, y)
        pairs = same = 0
        for f, table in enumerate(fitted.intervals_.values()):
            if fitted.nominal_[f]:
                continue
            held = table.filter(like="count ").to_numpy() > 0  # which classes each interval holds
            both = held.any(axis=1)[:-1] & held.any(axis=1)[1:]
            pairs += int(both.sum())
            same += int((both & (held[:-1] == held[1:]).all(axis=1)).sum())
        rows.append(
            {
                "data": name,
                "neighbouring pairs holding values": pairs,
                "same set of classes": same,
                "share": same / pairs,
            }
        )
    return pd.DataFrame(rows).set_index("data")
