"""Experiment protocol: reproducible folds, cross-validated accuracy, paired t-tests and significance marks,
and reproduction bands over fold seeds.

All splitters return lists of ``(train_indices, test_indices)`` pairs of 0-based positions, fixed by
``random_state``, so every method compared in one table can be run on the very same folds.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats


def _rng(random_state) -> np.random.Generator:
    return random_state if isinstance(random_state, np.random.Generator) else np.random.default_rng(random_state)


def kfold(n: int, n_splits: int = 10, *, random_state=None, shuffle: bool = True):
    """Plain k-fold cross-validation: a (shuffled) permutation cut into ``n_splits`` folds of near-equal size.

    Examples
    --------
    >>> [len(test) for _, test in kfold(10, 3, random_state=0)]
    [4, 3, 3]
    """
    if not 2 <= n_splits <= n:
        raise ValueError(f"n_splits must be between 2 and the number of instances ({n}), got {n_splits}")
    order = _rng(random_state).permutation(n) if shuffle else np.arange(n)
    folds = np.array_split(order, n_splits)
    return [(np.sort(np.concatenate(folds[:i] + folds[i + 1:])), np.sort(f)) for i, f in enumerate(folds)]


def stratified_kfold(y, n_splits: int = 10, *, random_state=None):
    """Stratified k-fold: each class's instances are shuffled and dealt round-robin to the folds, so every fold
    keeps the class proportions to within one instance per class.

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
    if not 2 <= n_splits <= n:
        raise ValueError(f"n_splits must be between 2 and the number of instances ({n}), got {n_splits}")
    rng = _rng(random_state)
    fold_of = np.empty(n, dtype=np.intp)
    offset = 0
    for cls in sorted(labels.unique(), key=str):
        members = rng.permutation(np.flatnonzero(labels.to_numpy() == cls))
        fold_of[members] = (np.arange(len(members)) + offset) % n_splits
        offset += len(members)  # continue the round-robin so small classes do not all start in fold 0
    return [(np.flatnonzero(fold_of != f), np.flatnonzero(fold_of == f)) for f in range(n_splits)]


def repeated(splitter, n_repeats: int, *args, random_state=None, **kwargs):
    """``n_repeats`` runs of ``splitter`` with independent seeds drawn from ``random_state``: a list of fold
    lists."""
    seeds = _rng(random_state).integers(0, 2**32 - 1, n_repeats)
    return [splitter(*args, random_state=int(s), **kwargs) for s in seeds]


def leave_one_out(n: int):
    """Leave-one-out: ``n`` folds with one test instance each."""
    everything = np.arange(n)
    return [(np.delete(everything, i), np.array([i])) for i in range(n)]


def fixed_split(split: dict):
    """The official split of a :class:`lazylib.datasets.Dataset` as a one-fold list."""
    return [(np.asarray(split["train"]), np.asarray(split["test"]))]


def cross_validate(make_classifier, X, y, folds, *, types=None) -> np.ndarray:
    """Test accuracy of ``make_classifier()`` on every fold (fitted on the fold's training part).

    ``make_classifier`` is a function returning a fresh unfitted classifier with ``fit``/``predict``.
    """
    y_arr = np.asarray(list(y.astype(object)) if isinstance(y, pd.Series) else y, dtype=object)
    scores = []
    for train, test in folds:
        Xtr, Xte = _rows(X, train), _rows(X, test)
        clf = make_classifier().fit(Xtr, y.iloc[train] if isinstance(y, pd.Series) else y_arr[train], types=types)
        scores.append(float(np.mean(clf.predict(Xte).astype(object) == y_arr[test])))
    return np.array(scores)


def _rows(X, idx):
    return X.iloc[idx] if isinstance(X, pd.DataFrame) else np.asarray(X)[idx]


def paired_ttest(a, b, alternative: str = "two-sided") -> float:
    """p-value of the paired t-test of fold scores ``a`` against ``b`` (``"greater"``: a > b, one-tailed).

    Identical score vectors give p = 1 (no evidence of a difference) rather than NaN.

    Examples
    --------
    >>> round(paired_ttest([0.9, 0.8, 0.85], [0.7, 0.75, 0.8], "greater"), 4)
    0.0918
    """
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.shape != b.shape or a.ndim != 1 or len(a) < 2:
        raise ValueError("paired_ttest needs two equal-length vectors of at least two fold scores")
    diff = a - b
    if np.allclose(diff, diff[0]):
        if diff[0] == 0:
            return 1.0
        return 0.0 if (alternative == "greater" and diff[0] > 0) or (alternative == "less" and diff[0] < 0) \
            or alternative == "two-sided" else 1.0
    return float(stats.ttest_rel(a, b, alternative=alternative).pvalue)


def significance_mark(a, b, *, alpha: float = 0.05, tails: int = 1, style: str = "bold-italic") -> str:
    """The papers' marks for scores ``a`` compared with a baseline ``b``.

    ``style="bold-italic"`` (Payne & Edwards 1998): ``"bold"`` if significantly higher, ``"italic"`` if
    significantly lower, else ``""``; ``"arrow"`` gives ``"↑"``/``"↓"``; ``"star"`` gives ``"*"`` when
    significantly higher and ``"<"`` when significantly lower (Wilson & Martinez). ``tails=1`` tests each
    direction one-tailed at ``alpha``; ``tails=2`` uses the two-tailed p-value.
    """
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
    DataFrame indexed like the Series with columns ``mean``, ``std``, ``min``, ``max`` and ``runs``.
    """
    results = pd.concat([pd.Series(run(int(s))) for s in seeds], axis=1)
    return pd.DataFrame({
        "mean": results.mean(axis=1), "std": results.std(axis=1, ddof=1),
        "min": results.min(axis=1), "max": results.max(axis=1), "runs": results.shape[1],
    })


def compare_with_published(published: pd.Series, band: pd.DataFrame, *, tolerance: float = 0.0) -> pd.DataFrame:
    """Published beside reproduced: ``published``, ``reproduced`` (band mean), ``difference``, the band's
    ``min``/``max`` and ``inside band`` (published within [min - tolerance, max + tolerance])."""
    joined = band.reindex(published.index)
    out = pd.DataFrame({
        "published": published.astype(float),
        "reproduced": joined["mean"],
        "difference": joined["mean"] - published.astype(float),
        "band min": joined["min"],
        "band max": joined["max"],
    })
    out["inside band"] = (out["published"] >= out["band min"] - tolerance) & (
        out["published"] <= out["band max"] + tolerance)
    return out
