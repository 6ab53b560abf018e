"""Experiment protocol: reproducible folds, cross-validated accuracy, paired t-tests and significance marks,
and reproduction bands over fold seeds.

All splitters return lists of ``(train_indices, test_indices)`` pairs of 0-based positions, fixed by
``random_state``, so every method compared in one table can be run on the very same folds.
"""

from __future__ import annotations

import resource
import time

import numpy as np
import pandas as pd
from scipy import stats

from lazylib._docs import fill_doc
from lazylib._validation import Boolean, Choice, Integer, Real, check, check_random_state
from lazylib.encoding import Encoded, encode
from lazylib.labels import label_values
from lazylib.parallel import parallel_map

#: The alternatives of :func:`paired_ttest` (scipy's names).
ALTERNATIVES = ("two-sided", "greater", "less")


def kfold(n: int, n_splits: int = 10, *, random_state=None, shuffle: bool = True):
    """Plain k-fold cross-validation: a (shuffled) permutation cut into ``n_splits`` folds of near-equal size.

    Parameters
    ----------
    n : int
        Number of instances.
    n_splits : int
        Number of folds.
    random_state : int, Generator or None
        Seed or generator of the shuffle: an int seeds a fresh generator (the same draws at every call), a Generator is
        used as it is (its stream continues), None draws fresh entropy.
    shuffle : bool
        Shuffle before cutting (False: consecutive folds).

    Examples
    --------
    >>> [len(test) for _, test in kfold(10, 3, random_state=0)]
    [4, 3, 3]
    """
    n = check("n", n, Integer(low=2))
    n_splits = check("n_splits", n_splits, Integer(low=2, high=n))
    shuffle = check("shuffle", shuffle, Boolean())
    order = check_random_state(random_state).permutation(n) if shuffle else np.arange(n)
    folds = np.array_split(order, n_splits)
    return [(np.sort(np.concatenate(folds[:i] + folds[i + 1 :])), np.sort(f)) for i, f in enumerate(folds)]


@fill_doc
def stratified_kfold(y, n_splits: int = 10, *, random_state=None):
    """Stratified k-fold: each class's instances are shuffled and dealt round-robin to the folds, so every fold
    keeps the class proportions to within one instance per class.

    Parameters
    ----------
    {{labels}}
    n_splits : int
        Number of folds.
    random_state : int, Generator or None
        Seed or generator of the shuffles: an int seeds a fresh generator (the same draws at every call), a Generator is
        used as it is (its stream continues), None draws fresh entropy.

    Examples
    --------
    >>> y = [0] * 6 + [1] * 4
    >>> [sorted(np.asarray(y)[test].tolist()) for _, test in stratified_kfold(y, 2, random_state=0)]
    [[0, 0, 0, 1, 1], [0, 0, 0, 1, 1]]
    """
    labels = pd.Series(np.asarray(y, dtype=object))
    if labels.isna().any():
        raise ValueError("y has missing labels; drop those rows before splitting")
    n = len(labels)
    n_splits = check("n_splits", n_splits, Integer(low=2, high=max(n, 2)))
    rng = check_random_state(random_state)
    fold_of = np.empty(n, dtype=np.intp)
    offset = 0
    for cls in sorted(labels.unique(), key=str):
        members = rng.permutation(np.flatnonzero(labels.to_numpy() == cls))
        fold_of[members] = (np.arange(len(members)) + offset) % n_splits
        offset += len(members)  # continue the round-robin so small classes do not all start in fold 0
    return [(np.flatnonzero(fold_of != f), np.flatnonzero(fold_of == f)) for f in range(n_splits)]


def repeated(splitter, n_repeats: int, *args, random_state=None, **kwargs):
    """``n_repeats`` runs of ``splitter`` with independent seeds drawn from ``random_state``: a list of fold
    lists.

    Parameters
    ----------
    splitter : callable
        A fold maker taking ``random_state`` (e.g. :func:`stratified_kfold`).
    n_repeats : int
        Number of runs.
    *args
        Passed to ``splitter``.
    random_state : int, Generator or None
        Seed or generator of the runs' seeds: an int seeds a fresh generator (the same draws at every call), a Generator
        is used as it is (its stream continues), None draws fresh entropy.
    **kwargs
        Passed to ``splitter``.
    """
    n_repeats = check("n_repeats", n_repeats, Integer(low=1))
    seeds = check_random_state(random_state).integers(0, 2**32 - 1, n_repeats)
    return [splitter(*args, random_state=int(s), **kwargs) for s in seeds]


def leave_one_out(n: int):
    """Leave-one-out: ``n`` folds with one test instance each."""
    n = check("n", n, Integer(low=2))
    everything = np.arange(n)
    return [(np.delete(everything, i), np.array([i])) for i in range(n)]


def fixed_split(split: dict):
    """The official split of a :class:`lazylib.datasets.Dataset` as a one-fold list."""
    return [(np.asarray(split["train"]), np.asarray(split["test"]))]


def cross_validate(
    make_classifier,
    X,
    y,
    folds,
    *,
    types=None,
    n_jobs: int | None = None,
    label: str = "folds",
    encode_once: bool = True,
    expected: bool = False,
):
    """Test accuracy of ``make_classifier()`` on every fold (fitted on the fold's training part).

    Parameters
    ----------
    make_classifier : callable
        Returns a fresh unfitted classifier with ``fit(X, y, types=...)`` and ``predict``.
    folds : list of (train, test) index arrays
    n_jobs : int or None
        Processes to spread the folds over (:func:`lazylib.parallel.parallel_map`: ``make_classifier`` may be a
        lambda; None takes joblib's setting). Results are identical to ``n_jobs=1``: each fold is computed the
        same way, only elsewhere.
    label : str
        Text of the progress bar (:func:`lazylib.parallel.parallel_map`; never in the book or under pytest).
    encode_once : bool
        Convert a DataFrame ``X`` to lazylib's numeric form once (:func:`lazylib.metrics.encode`) and hand each
        fold its rows in that form, which every lazylib estimator accepts; the declared category order makes
        this identical to encoding each fold's rows. Set False for estimators that need the DataFrame.
    expected : bool
        Report each fold's *expected* accuracy over the classifier's random choices,
        ``clf.score(X_test, y_test, expected=True)`` (exact and deterministic for
        :class:`lazylib.neighbors.KNeighborsClassifier` with ``ties="random"``; the plain accuracy for the other
        rules).

    Returns
    -------
    ndarray of fold accuracies
    """
    folds = check_folds(folds, len(y))
    if encode_once and isinstance(X, pd.DataFrame):
        X = encode(X, types, sets=True)  # an estimator without a term for sets refuses them when given the folds
    job = (make_classifier, X, y, folds, types, label_values(y), expected)
    scores = parallel_map(lambda i: _fold_accuracy(job, i), range(len(folds)), n_jobs=n_jobs, label=label)
    return np.array(scores)


def check_folds(folds, n: int) -> list:
    """``folds`` checked against ``n`` instances and returned as a list of ``(train, test)`` integer index arrays.

    Every function of lazylib that takes cross-validation folds from its caller checks them here first.

    Parameters
    ----------
    folds : iterable of (train, test) pairs of index arrays
        The folds, e.g. from :func:`kfold` or :func:`stratified_kfold`.
    n : int
        The number of instances the indices point into.

    Returns
    -------
    list of tuple of ndarray
        One ``(train, test)`` pair of ``intp`` arrays per fold, with the given values in the given order.

    Raises
    ------
    ValueError
        Naming the fold and its offending indices, for a fold that is not a pair, indices that are not integers or
        lie outside ``[0, n - 1]``, an empty side, a test index that repeats (a test case would count twice in the
        accuracy), or an index in both train and test.

    Examples
    --------
    >>> check_folds([([0, 1], [2, 3])], 4)
    [(array([0, 1]), array([2, 3]))]
    >>> check_folds([([0, 1], [2, 3, 2])], 4)
    Traceback (most recent call last):
    ...
    ValueError: folds[0] test indices repeat [2]: a test case would count more than once in the accuracy
    """
    n = check("n", n, Integer(low=1))
    out = []
    for i, fold in enumerate(folds):
        try:
            train, test = fold
        except (TypeError, ValueError):
            raise ValueError(f"folds[{i}] must be a (train, test) pair of index arrays, got {fold!r:.80}") from None
        pair = [_fold_indices(idx, i, name, n) for name, idx in (("train", train), ("test", test))]
        values, counts = np.unique(pair[1], return_counts=True)
        repeated = values[counts > 1]
        if repeated.size:
            raise ValueError(
                f"folds[{i}] test indices repeat {repeated[:5].tolist()}{' ...' if repeated.size > 5 else ''}: a "
                "test case would count more than once in the accuracy"
            )
        shared = np.intersect1d(*pair)
        if shared.size:  # a test case among the stored instances is its own nearest neighbour: accuracy inflated
            raise ValueError(
                f"folds[{i}] has {shared.size} indices in both train and test ({shared[:5].tolist()}"
                f"{' ...' if shared.size > 5 else ''}): a test case must not be a training case"
            )
        out.append(tuple(pair))
    return out


def _fold_indices(idx, i: int, name: str, n: int) -> np.ndarray:
    """One side (``name``: train or test) of fold ``i`` as an ``intp`` array, or a ValueError naming its bad
    indices."""
    idx = np.asarray(idx)
    if idx.dtype == bool or (idx.size and not np.issubdtype(idx.dtype, np.integer)):
        raise ValueError(f"folds[{i}] {name} indices must be integers, got dtype {idx.dtype}")
    if idx.ndim != 1:
        raise ValueError(f"folds[{i}] {name} indices must be one-dimensional, got shape {idx.shape}")
    bad = idx[(idx < 0) | (idx >= n)]
    if bad.size:
        raise ValueError(
            f"folds[{i}] {name} indices must lie in [0, {n - 1}] for the {n} instances, got "
            f"{bad[:5].tolist()}{' ...' if bad.size > 5 else ''}"
        )
    if not idx.size:
        raise ValueError(f"folds[{i}] has no {name} indices: every fold needs training and test cases")
    return idx.astype(np.intp, copy=False)


def _fold_accuracy(job, i: int) -> float:
    make_classifier, X, y, folds, types, labels, expected = job
    train, test = folds[i]
    y_train = y.iloc[train] if isinstance(y, pd.Series) else np.asarray(y)[train]
    clf = make_classifier().fit(_rows(X, train), y_train, types=types)
    truth = labels[test]
    if expected:
        return float(clf.score(_rows(X, test), truth, expected=True))
    return float(np.mean(clf.predict(_rows(X, test)).astype(object) == truth))


def learning_curve(make_classifier, X, y, folds, fractions, *, random_state=None, types=None) -> pd.DataFrame:
    """Accuracy when only a fraction of each training fold is used (Wilson & Martinez, Figure 13).

    For every fold and fraction ``f``, ``max(1, round(f * len(train)))`` training instances are drawn without
    replacement (seeded by ``random_state``; the same subsets for every classifier given the same seed) and the
    classifier is tested on the whole test fold.

    Parameters
    ----------
    random_state : int, Generator or None
        Seed or generator of the training subsets: an int seeds a fresh generator (the same draws at every call), a
        Generator is used as it is (its stream continues), None draws fresh entropy.

    Returns
    -------
    DataFrame with one row per fraction: ``mean`` accuracy over folds, ``std`` and ``n_train`` (mean size).
    """
    rng = check_random_state(random_state)
    truth = label_values(y)
    folds = check_folds(folds, len(truth))
    rows = []
    for f in fractions:
        if not 0 < f <= 1:
            raise ValueError(f"fractions must be in (0, 1], got {f}")
        scores, sizes = [], []
        for train, test in folds:
            size = max(1, int(round(f * len(train))))
            sub = np.sort(rng.choice(train, size=size, replace=False))
            y_sub = y.iloc[sub] if isinstance(y, pd.Series) else np.asarray(y)[sub]
            if len(set(label_values(y_sub))) < 2:  # a metric of class probabilities needs two classes
                extra = train[np.flatnonzero(truth[train] != truth[sub[0]])[:1]]
                sub = np.sort(np.concatenate([sub, extra]))
                y_sub = y.iloc[sub] if isinstance(y, pd.Series) else np.asarray(y)[sub]
            clf = make_classifier().fit(_rows(X, sub), y_sub, types=types)
            scores.append(float(np.mean(clf.predict(_rows(X, test)).astype(object) == truth[test])))
            sizes.append(len(sub))
        rows.append(
            {
                "fraction": f,
                "mean": np.mean(scores),
                "std": np.std(scores, ddof=1) if len(scores) > 1 else 0.0,
                "n_train": float(np.mean(sizes)),
            }
        )
    return pd.DataFrame(rows).set_index("fraction")


def _rows(X, idx):
    if isinstance(X, Encoded):
        return X.take(idx)
    return X.iloc[idx] if isinstance(X, pd.DataFrame) else np.asarray(X)[idx]


#: Relative size below which :func:`paired_ttest` takes a difference of scores for floating-point rounding.
ROUNDING = 1e-12


def paired_ttest(a, b, alternative: str = "two-sided") -> float:
    """The p-value of the paired t-test of fold scores ``a`` against ``b`` (``"greater"``: a > b, one-tailed).

    Differences at the level of floating-point rounding (at most :data:`ROUNDING` times the scores' magnitude,
    e.g. two metrics that compute the same accuracies along different arithmetic paths) count as no difference:
    identical or rounding-equal score vectors give p = 1 rather than NaN or a spurious p = 0. A constant nonzero
    difference gives p = 0 in its direction (and two-sided), 1 against it.

    Examples
    --------
    >>> round(paired_ttest([0.9, 0.8, 0.85], [0.7, 0.75, 0.8], "greater"), 4)
    0.0918
    >>> paired_ttest([0.9, 0.8, 0.85], [0.9 + 1e-16, 0.8 - 1e-16, 0.85])
    1.0
    """
    check("alternative", alternative, Choice(ALTERNATIVES))
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.shape != b.shape or a.ndim != 1 or len(a) < 2:
        raise ValueError(
            "paired_ttest needs two equal-length vectors of at least two fold scores, got shapes "
            f"{a.shape} and {b.shape}"
        )
    if not (np.isfinite(a).all() and np.isfinite(b).all()):
        raise ValueError("paired_ttest needs finite fold scores (a NaN or inf was given)")
    tolerance = ROUNDING * max(1.0, float(np.abs(a).max()), float(np.abs(b).max()))
    diff = a - b
    diff[np.abs(diff) <= tolerance] = 0.0
    if np.ptp(diff) <= tolerance:  # no spread: the t statistic is undefined
        d = float(diff.mean())
        if d == 0:
            return 1.0
        return (
            0.0
            if (alternative == "greater" and d > 0) or (alternative == "less" and d < 0) or alternative == "two-sided"
            else 1.0
        )
    return float(stats.ttest_1samp(diff, 0.0, alternative=alternative).pvalue)


def significance_mark(a, b, *, alpha: float = 0.05, tails: int = 1, style: str = "bold-italic") -> str:
    """The papers' marks for scores ``a`` compared with a baseline ``b``.

    ``style="bold-italic"`` (Payne & Edwards 1998): ``"bold"`` if significantly higher, ``"italic"`` if
    significantly lower, else ``""``; ``"arrow"`` gives ``"↑"``/``"↓"``; ``"star"`` gives ``"*"`` when
    significantly higher and ``"<"`` when significantly lower (Wilson & Martinez). ``tails=1`` tests each
    direction one-tailed at ``alpha``; ``tails=2`` uses the two-tailed p-value.

    ``style="dagger"`` (Payne & Edwards 2000, Table 2): ``"†"`` for a difference significant at 5% and ``"‡"``
    at 10% (one-tailed, in either direction; ``alpha`` is ignored).
    """
    tails = check("tails", tails, Choice((1, 2)))
    check("style", style, Choice(("bold-italic", "arrow", "star", "dagger")))
    check("alpha", alpha, Real(low=0, high=1, open_low=True, open_high=True))
    if style == "dagger":
        p = (
            min(paired_ttest(a, b, "greater"), paired_ttest(a, b, "less"))
            if tails == 1
            else paired_ttest(a, b, "two-sided")
        )
        return "†" if p < 0.05 else "‡" if p < 0.10 else ""
    if tails == 1:
        higher = paired_ttest(a, b, "greater") < alpha
        lower = paired_ttest(a, b, "less") < alpha
    elif tails == 2:
        p = paired_ttest(a, b, "two-sided")
        higher = p < alpha and np.mean(a) > np.mean(b)
        lower = p < alpha and np.mean(a) < np.mean(b)
    else:
        raise ValueError(f"tails must be 1 or 2, got {tails}")
    marks = {"bold-italic": ("bold", "italic"), "arrow": ("↑", "↓"), "star": ("*", "<")}[style]
    return marks[0] if higher else marks[1] if lower else ""


def reproduction_band(run, seeds) -> pd.DataFrame:
    """Run ``run(seed) -> Series`` (one accuracy per cell) for every seed and summarise each cell.

    Returns
    -------
    DataFrame indexed like the Series with columns ``mean``, ``std``, ``min``, ``max``, ``runs`` and ``values``
    (the list of the runs' values, from which :func:`compare_with_published` computes each cell's band).
    """
    results = pd.concat([pd.Series(run(int(s))) for s in seeds], axis=1)
    return pd.DataFrame(
        {
            "mean": results.mean(axis=1),
            "std": results.std(axis=1, ddof=1),
            "min": results.min(axis=1),
            "max": results.max(axis=1),
            "runs": results.shape[1],
            "values": [row.tolist() for row in results.to_numpy(dtype=float)],
        },
        index=results.index,
    )


def compare_with_published(
    published: pd.Series,
    band: pd.DataFrame,
    *,
    digits: int,
    averaged: int = 1,
    bounds: tuple[float, float] | None = None,
    published_marks: pd.Series | None = None,
    reproduced_marks: pd.Series | None = None,
) -> pd.DataFrame:
    """Published beside reproduced: ``published``, ``reproduced`` (band mean), ``difference``, ``band low`` /
    ``band high`` and ``inside band`` by the book's one band (:func:`lazylib.report.bands.prediction_band` on
    each cell's run values, with ``digits``, ``averaged`` and ``bounds`` as there) and, when given, the paper's
    significance marks beside ours."""
    from lazylib.report.bands import prediction_band

    joined = band.reindex(published.index)
    bands = [prediction_band(values, digits=digits, averaged=averaged, bounds=bounds) for values in joined["values"]]
    out = pd.DataFrame(
        {
            "published": published.astype(float),
            "reproduced": joined["mean"],
            "difference": joined["mean"] - published.astype(float),
            "band low": [b.low for b in bands],
            "band high": [b.high for b in bands],
        }
    )
    out["inside band"] = [b.contains(p) for b, p in zip(bands, out["published"])]
    if published_marks is not None:
        out["paper mark"] = published_marks.reindex(out.index).fillna("")
    if reproduced_marks is not None:
        out["our mark"] = reproduced_marks.reindex(out.index).fillna("")
    return out


def compare(
    makers: dict, X, y, folds, *, types=None, n_jobs: int | None = None, expected: bool = False
) -> pd.DataFrame:
    """Fold accuracies of several classifiers on the very same folds: DataFrame (fold x name).

    ``makers`` maps a name to a function returning a fresh unfitted classifier; ``expected`` as in
    :func:`cross_validate`.
    """
    return pd.DataFrame(
        {
            name: cross_validate(make, X, y, folds, types=types, n_jobs=n_jobs, label=name, expected=expected)
            for name, make in makers.items()
        }
    )


def cpu_seconds() -> float:
    """CPU time (s) of this process and of its finished child processes (user and system time of the workers
    :func:`lazylib.parallel.parallel_map` started and waited for), for a chapter to report what its computations cost.

    Returns
    -------
    float
        ``time.process_time()`` plus the user and system time of every terminated child that was waited for:
        increasing, so the difference of two calls is the CPU time spent between them.

    Notes
    -----
    Unix only (``resource.getrusage``). Workers still alive (a reused pool) are not counted until they end.

    Examples
    --------
    >>> start = cpu_seconds()
    >>> cpu_seconds() - start >= 0
    True
    """
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime
