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
from scipy.stats import spearmanr

from lazylib._validation import check_random_state
from lazylib.encoding import encode_labels, known_range
from lazylib.evaluation import parallel_map
from lazylib.metrics import encode
from lazylib.report.plotting import PUBLISHED
from lazylib.report.verdicts import Claim, share_rule, threshold_rule, tiers
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
    for f, (train, test) in enumerate(folds):
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
    for train, test in folds:
        train, test = np.asarray(train), np.asarray(test)
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


#: The properties section 2 states, judged on random data (kind "property": true by construction of the method).
SECTION2_CLAIMS = (
    Claim(
        key="bound",
        words="A linear feature gets at most 4C + 1 intervals (section 2)",
        measure="random data sets whose features all have at most 4C + 1 intervals",
        thresholds="supported on all, partly on half",
        rule=lambda b: share_rule(b["most intervals"] <= 4 * b["C"] + 1, supported=1.0, partly=0.5, what="data sets"),
        evidence=lambda b: f"{len(b)} random data sets of 2-6 classes; the bound is reached by distinct end points",
        kind="property",
    ),
    Claim(
        key="scale",
        words="VFI5 needs no normalisation of feature values (section 2)",
        measure="strictly increasing rescalings that leave every prediction unchanged",
        thresholds="supported for all, partly for half",
        rule=lambda inv: share_rule(inv, supported=1.0, partly=0.5, what="rescalings"),
        evidence=lambda inv: "identical predictions on R_3 + 5 irrelevant under " + ", ".join(inv.index),
        kind="property",
    ),
)


# --- Figure 6: the claims on R_n ---------------------------------------------------------------------------------

#: The k-NN classifiers of Figures 6 and 7.
KNN = ("1-NN", "3-NN", "5-NN")


def floor3(value) -> str:
    """Three decimals, rounded down (so 0.9496 is not shown as 0.950 against a 0.95 threshold).

    Examples
    --------
    >>> floor3(0.9496)
    '0.949'
    """
    return f"{np.floor(value * 1000) / 1000:.3f}"


def line_fits(mean: pd.DataFrame) -> pd.DataFrame:
    """A straight line through each mean curve of Figure 6: its slope, :math:`R^2`, and the curve's loss.

    Parameters
    ----------
    mean : DataFrame
        Indexed by (relevant, classifier), one column per number of irrelevant features, 0, 1, 2, ...: the mean
        accuracy (%).

    Returns
    -------
    DataFrame
        Indexed like ``mean``; columns ``slope (points per feature)``, ``R^2`` (of the least-squares line) and
        ``loss 0 to 20`` (the accuracy at the first column minus that at the last).

    Examples
    --------
    >>> mean = pd.DataFrame([[90.0, 80.0, 70.0]], index=pd.MultiIndex.from_tuples([(1, "1-NN")]))
    >>> line_fits(mean).round(6).to_dict("records")
    [{'slope (points per feature)': -10.0, 'R^2': 1.0, 'loss 0 to 20': 20.0}]
    """
    x = np.asarray(mean.columns)
    rows = []
    for (n, method), acc in mean.iterrows():
        slope, intercept = np.polyfit(x, acc.to_numpy(), 1)
        r2 = 1 - np.sum((acc - (slope * x + intercept)) ** 2) / np.sum((acc - acc.mean()) ** 2)
        rows.append(
            {
                "relevant": n,
                "classifier": method,
                "slope (points per feature)": slope,
                "R^2": r2,
                "loss 0 to 20": acc[x[0]] - acc[x[-1]],
            }
        )
    return pd.DataFrame(rows).set_index(["relevant", "classifier"])


def figure6_facts(mean: pd.DataFrame) -> dict:
    """What the claims of Figure 6 (:data:`FIGURE6_CLAIMS`) read, from one condition's mean curves.

    Parameters
    ----------
    mean : DataFrame
        Indexed by (relevant, classifier) for VFI5 and :data:`KNN`, one column per number of irrelevant features
        from 0 (as :func:`line_fits`).

    Returns
    -------
    dict
        ``fits`` (:func:`line_fits`), ``r2`` (the k-NN lines' :math:`R^2`), ``bend`` (what the first half of the
        irrelevant features costs over what the second half costs, per k-NN curve) and ``half``, ``steep`` (the
        k-NN slopes' magnitudes by relevant features), ``monotone`` and ``rho`` (whether, and the Spearman
        correlation with which, they fall with the relevant features), ``loss`` (per classifier),
        ``vfi_ratio`` (VFI5's loss over the best k-NN's) and ``ordered`` (1-NN loses more than 3-NN, 3-NN more
        than 5-NN).

    Examples
    --------
    >>> curves = {(1, "VFI5"): [99, 98, 97], (1, "1-NN"): [99, 80, 70], (1, "3-NN"): [99, 85, 75],
    ...           (1, "5-NN"): [99, 88, 80], (2, "VFI5"): [90, 89, 88], (2, "1-NN"): [95, 85, 80],
    ...           (2, "3-NN"): [95, 88, 83], (2, "5-NN"): [95, 90, 86]}
    >>> mean = pd.DataFrame.from_dict(curves, orient="index").astype(float)
    >>> mean.index = pd.MultiIndex.from_tuples(mean.index, names=["relevant", "classifier"])
    >>> facts = figure6_facts(mean)
    >>> facts["ordered"].tolist(), facts["vfi_ratio"].round(3).tolist()
    ([True, True], [0.105, 0.222])
    """
    knn = list(KNN)
    fits = line_fits(mean)
    r2 = fits.loc[(slice(None), knn), "R^2"]
    knn_mean = mean.loc[(slice(None), knn), :]
    columns = np.asarray(mean.columns)
    half = columns[-1] // 2
    bend = (knn_mean[columns[0]] - knn_mean[half]) / (knn_mean[half] - knn_mean[columns[-1]])
    steep = fits["slope (points per feature)"].abs().unstack("classifier")[knn]
    loss = fits["loss 0 to 20"].unstack("classifier")
    return {
        "fits": fits,
        "r2": r2,
        "bend": bend,
        "half": int(half),
        "steep": steep,
        "monotone": {k: bool((np.diff(steep[k].to_numpy()) < 0).all()) for k in knn},
        "rho": {k: spearmanr(list(steep.index), steep[k].to_numpy())[0] for k in knn},
        "loss": loss,
        "vfi_ratio": loss["VFI5"] / loss[knn].min(axis=1),
        "ordered": (loss["1-NN"] > loss["3-NN"]) & (loss["3-NN"] > loss["5-NN"]),
    }


def _linear_evidence(f):
    r2, bend, half = f["r2"], f["bend"], f["half"]
    return (
        f"R^2 of a straight line >= 0.95 on {int((r2 >= 0.95).sum())} of {len(r2)} k-NN curves "
        f"(R^2 {floor3(r2.min())} to {floor3(r2.max())}); the first {half} irrelevant features "
        f"cost {bend.min():.1f} to {bend.max():.1f} times as much as the last {half}"
    )


def _vfi_evidence(f):
    loss, ratio, best = f["loss"], f["vfi_ratio"], f["loss"][list(KNN)].min(axis=1)
    return (
        f"VFI5 loses at most half of the best k-NN's loss on {int((ratio <= 0.5).sum())} of {len(ratio)} R_n "
        f"(ratios {ratio.min():.3f} to {ratio.max():.3f}); losses 0 to 20: VFI5 "
        f"{loss['VFI5'].min():.1f} to {loss['VFI5'].max():.1f}, best k-NN "
        f"{best.min():.1f} to {best.max():.1f} points"
    )


def _larger_k_evidence(loss, ordered, where):
    n = len(ordered)
    return (
        f"loss 1-NN > 3-NN > 5-NN on {int(ordered.sum())} of {n} {where}; 5-NN < 1-NN on "
        f"{int((loss['5-NN'] < loss['1-NN']).sum())} of {n}"
    )


def _larger_k_rule(loss, ordered):
    return tiers(supported=bool(ordered.all()), partly=bool((loss["5-NN"] < loss["1-NN"]).all()))


#: The claims read off Figure 6 (section 3) and section 4's on larger k, judged on the mean curves
#: (:func:`figure6_facts`) under every reading of the split and seed.
FIGURE6_CLAIMS = (
    Claim(
        key="f6_linear",
        words="k-NN accuracy falls almost linearly with irrelevant features (Fig. 6)",
        measure="k-NN curves whose least-squares line has R^2 >= 0.95",
        thresholds="supported on all 18, partly on half",
        rule=lambda f: share_rule(f["r2"] >= 0.95, supported=1.0, partly=0.5, what="k-NN curves"),
        evidence=_linear_evidence,
    ),
    Claim(
        key="f6_flattens",
        words="k-NN's fall is less steep with more relevant features (Fig. 6)",
        measure="the magnitude of each k-NN line's slope against the number of relevant features",
        thresholds="supported if it falls at every step for each k, partly if Spearman <= -0.8 for each k",
        rule=lambda f: tiers(supported=all(f["monotone"].values()), partly=all(r <= -0.8 for r in f["rho"].values())),
        evidence=lambda f: (
            "|slope| from R_1 to R_6: "
            + "; ".join(
                f"{k} {f['steep'][k].iloc[0]:.2f} to {f['steep'][k].iloc[-1]:.2f} (Spearman {f['rho'][k]:.2f})"
                for k in KNN
            )
        ),
    ),
    Claim(
        key="f6_vfi",
        words="VFI5 is much less affected by irrelevant features than k-NN (Fig. 6)",
        measure="R_n on which VFI5 loses at most half of the best k-NN's loss from 0 to 20 irrelevant features",
        thresholds="supported on all 6, partly on half",
        rule=lambda f: share_rule(f["vfi_ratio"] <= 0.5, supported=1.0, partly=0.5, what="R_n"),
        evidence=_vfi_evidence,
    ),
    Claim(
        key="f6_larger_k",
        words="Larger k makes k-NN more robust to irrelevant features (R_n)",
        measure="R_n on which the loss shrinks from 1-NN to 3-NN to 5-NN",
        thresholds="supported on all 6, partly if 5-NN loses less than 1-NN on all 6",
        rule=lambda f: _larger_k_rule(f["loss"], f["ordered"]),
        evidence=lambda f: _larger_k_evidence(f["loss"], f["ordered"], "R_n"),
    ),
)


# --- Figure 7: the claims on UCI data ---------------------------------------------------------------------------


def figure7_facts(start: pd.DataFrame, at20: pd.DataFrame, tie_shift: pd.DataFrame | None = None) -> dict:
    """What the claims of Figure 7 (:data:`FIGURE7_CLAIMS`) read, under one k-NN tie rule.

    Parameters
    ----------
    start, at20 : DataFrame
        Data sets x classifiers (VFI5 and :data:`KNN`): the mean accuracies (%) with no and with 20 irrelevant
        features.
    tie_shift : DataFrame, optional
        Data sets x k-NN: what another tie rule adds to k-NN's accuracies without irrelevant features (its
        difference from the curves' rule). With 20 continuous irrelevant features no distance ties, so only the
        accuracies at 0 depend on the rule.

    Returns
    -------
    dict
        ``at0`` and ``lost`` (accuracies at 0, losses 0 to 20), ``gap`` (VFI5 minus the k-NN mean at 0),
        ``same`` (gap within 3 points), ``level`` (VFI5 loses at most 5 points and the best k-NN at least twice
        as much), ``ordered`` (1-NN loses more than 3-NN, 3-NN more than 5-NN).

    Examples
    --------
    >>> start = pd.DataFrame({"VFI5": [95.0], "1-NN": [96.0], "3-NN": [96.0], "5-NN": [95.0]}, index=["iris"])
    >>> at20 = pd.DataFrame({"VFI5": [93.0], "1-NN": [70.0], "3-NN": [75.0], "5-NN": [80.0]}, index=["iris"])
    >>> facts = figure7_facts(start, at20)
    >>> bool(facts["same"]["iris"]), bool(facts["level"]["iris"]), bool(facts["ordered"]["iris"])
    (True, True, True)
    """
    knn = list(KNN)
    at0 = start.copy()
    if tie_shift is not None:
        at0[knn] = start[knn] + tie_shift[knn]
    lost = at0 - at20
    gap = at0["VFI5"] - at0[knn].mean(axis=1)
    return {
        "at0": at0,
        "lost": lost,
        "gap": gap,
        "same": gap.abs() <= 3,
        "level": (lost["VFI5"] <= 5) & (lost[knn].min(axis=1) >= 2 * lost["VFI5"]),
        "ordered": (lost["1-NN"] > lost["3-NN"]) & (lost["3-NN"] > lost["5-NN"]),
    }


def figure7_summary(facts: dict) -> pd.DataFrame:
    """The numbers behind the claims of Figure 7, one row per data set: accuracies at 0, losses 0 to 20, and
    whether each claim's condition holds there (from :func:`figure7_facts`)."""
    at0, lost, knn = facts["at0"], facts["lost"], list(KNN)
    return pd.DataFrame(
        {
            "VFI5 at 0": at0["VFI5"],
            "k-NN mean at 0": at0[knn].mean(axis=1),
            "VFI5 loss": lost["VFI5"],
            "smallest k-NN loss": lost[knn].min(axis=1),
            "1-NN loss": lost["1-NN"],
            "3-NN loss": lost["3-NN"],
            "5-NN loss": lost["5-NN"],
            "same at 0": facts["same"],
            "VFI5 level, k-NN drops": facts["level"],
            "1 > 3 > 5": facts["ordered"],
        }
    )


def _level_evidence(f):
    lost = f["lost"]
    pairs = zip(lost.index, lost["VFI5"], lost[list(KNN)].min(axis=1))
    return f"holds on {int(f['level'].sum())} of {len(lost)}; losses 0 to 20 (VFI5 / smallest k-NN): " + ", ".join(
        f"{n} {v:.1f} / {k:.1f}" for n, v, k in pairs
    )


#: The claims of section 4 on Figure 7, judged on our six UCI data sets (kind "stand-in": the paper's are not
#: named) under each k-NN tie rule.
FIGURE7_CLAIMS = (
    Claim(
        key="f7_same",
        words="VFI5 and k-NN reach about the same accuracy without irrelevant features (Fig. 7)",
        measure="data sets where VFI5 is within 3 points of the mean of the three k-NN",
        thresholds="supported on all 6, partly on half",
        rule=lambda f: share_rule(f["same"], supported=1.0, partly=0.5, what="data sets"),
        evidence=lambda f: (
            f"VFI5 within 3 points of the k-NN mean on {int(f['same'].sum())} of {len(f['same'])} data sets "
            f"(VFI5 minus k-NN mean: {', '.join(f'{n} {g:+.1f}' for n, g in f['gap'].items())})"
        ),
        kind="stand-in",
    ),
    Claim(
        key="f7_level",
        words="VFI5 stays about level while k-NN drops as irrelevant features are added (Fig. 7)",
        measure="data sets where VFI5 loses at most 5 points and the best k-NN at least twice as much",
        thresholds="supported on all 6, partly on half",
        rule=lambda f: share_rule(f["level"], supported=1.0, partly=0.5, what="data sets"),
        evidence=_level_evidence,
        kind="stand-in",
    ),
    Claim(
        key="f7_larger_k",
        words="Larger k makes k-NN more robust to irrelevant features (UCI data, section 4)",
        measure="data sets on which the loss shrinks from 1-NN to 3-NN to 5-NN",
        thresholds="supported on all 6, partly if 5-NN loses less than 1-NN on all 6",
        rule=lambda f: _larger_k_rule(f["lost"], f["ordered"]),
        evidence=lambda f: _larger_k_evidence(f["lost"], f["ordered"], "data sets"),
        kind="stand-in",
    ),
)


# --- When and why: the claims of the explanation -----------------------------------------------------------------


def equal_vote_facts(decomposition: pd.DataFrame, *, near: float) -> dict:
    """Per (instances, repetition) of a :func:`vote_decomposition` study: the facts the claim that an irrelevant
    feature votes about equally reads (:data:`WHEN_WHY_CLAIMS`).

    Parameters
    ----------
    decomposition : DataFrame
        One row per (instances, repetition): the shares of :data:`VOTE_KINDS` over its folds.
    near : float
        The threshold of "about equal" the decomposition used (for the evidence).

    Returns
    -------
    dict
        ``(instances, repetition) -> facts``: that repetition's share ``about equal``, with the mean shares
        ``equal by size`` and ``pure by size`` over repetitions and ``near``.

    Examples
    --------
    >>> d = pd.DataFrame({"instances": [100, 100], "repetition": [0, 1], "about equal": [0.9, 0.8],
    ...                   "pure": [0.05, 0.1]})
    >>> facts = equal_vote_facts(d, near=0.1)
    >>> round(facts[100, 1]["about equal"], 2), round(float(facts[100, 1]["equal by size"][100]), 2)
    (0.8, 0.85)
    """
    common = {
        "equal by size": decomposition.groupby("instances")["about equal"].mean(),
        "pure by size": decomposition.groupby("instances")["pure"].mean(),
        "near": near,
    }
    return {
        (n, r): {"about equal": v, **common}
        for n, r, v in zip(decomposition["instances"], decomposition["repetition"], decomposition["about equal"])
    }


def loss_facts(per_run_loss: pd.Series, mean_loss: pd.Series) -> dict:
    """Per (instances, repetition): VFI5's loss to the irrelevant features (``loss``), with the mean loss by
    training size (``mean by size``), for the claim that irrelevant features leave VFI5's outcome alone.

    Examples
    --------
    >>> runs = pd.Series([2.0, 4.0], index=pd.MultiIndex.from_tuples([(100, 0), (100, 1)]))
    >>> loss_facts(runs, runs.groupby(level=0).mean())[100, 1]["loss"]
    4.0
    """
    return {key: {"loss": value, "mean by size": mean_loss} for key, value in per_run_loss.items()}


def _sizes(series: pd.Series, sep: str = " / ") -> tuple[str, str]:
    """The values (one decimal) and the training sizes of a Series indexed by size, joined by ``sep``."""
    return sep.join(f"{v:.1f}" for v in series.to_numpy()), sep.join(f"{n:,}" for n in series.index)


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


#: The claims of the chapter "When and why": the paper's explanation of VFI5's robustness (sections 4-5), the
#: sentence on neighbouring intervals (section 2) and the abstract's comparison, each judged on its own facts.
WHEN_WHY_CLAIMS = (
    Claim(
        key="equal",
        words="An irrelevant feature gives about the same vote to all classes (section 4)",
        measure="share of an irrelevant feature's votes within 0.1 of 1/C (R_1, per repetition of five folds)",
        thresholds="supported from 0.9, partly from 0.5",
        rule=lambda f: threshold_rule(f["about equal"], supported=0.9, partly=0.5, what="share of votes about equal"),
        evidence=lambda f: (
            f"{100 * f['equal by size'][100]:.1f} % of its votes within {f['near']} of 1/C at 100 instances on "
            f"R_1, {100 * f['pure by size'][100]:.1f} % pure (per repetition of five folds; "
            f"{_sizes(f['equal by size'], ', ')[1]} instances)"
        ),
    ),
    Claim(
        key="loss",
        words="So irrelevant features have no effect on VFI5's outcome (sections 4-5)",
        measure="VFI5's loss (points) to 20 irrelevant features on R_1, per repetition of five folds",
        thresholds="supported up to 1 point, partly up to 5",
        rule=lambda f: threshold_rule(f["loss"], supported=1.0, partly=5.0, higher=False, what="VFI5's loss (points)"),
        evidence=lambda f: (
            f"VFI5 loses {_sizes(f['mean by size'])[0]} points to 20 irrelevant features at "
            f"{_sizes(f['mean by size'])[1]} instances (R_1; verdict per repetition of five folds)"
        ),
    ),
    Claim(
        key="neighbours",
        words="Two neighbouring intervals represent a different set of classes (section 2)",
        measure="data sets without neighbouring intervals that hold the same set of classes",
        thresholds="supported on all, partly on half",
        rule=lambda t: share_rule(t["same set of classes"] == 0, supported=1.0, partly=0.5, what="data sets"),
        evidence=lambda t: (
            f"neighbouring intervals holding values with the same set of classes on "
            f"{int((t['same set of classes'] > 0).sum())} of {len(t)} data sets "
            f"({100 * t['share'].min():.0f}-{100 * t['share'].max():.0f} % of such pairs), the sample set included"
        ),
    ),
    Claim(
        key="comparable",
        words="VFI5 achieves accuracy comparable to nearest-neighbour classifiers (abstract)",
        measure="data sets where VFI5 is within 3 points of 1-NN without irrelevant features",
        thresholds="supported on all, partly on half",
        rule=lambda t: share_rule(t["within 3 points"], supported=1.0, partly=0.5, what="data sets"),
        evidence=lambda t: (
            "VFI5 minus 1-NN without irrelevant features: "
            + ", ".join(f"{name} {gap:+.1f}" for name, gap in t["VFI5 minus 1-NN"].items())
        ),
        kind="stand-in",
    ),
)
