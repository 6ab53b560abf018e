"""VFI5's vectorised training and classification against a plain per-instance loop written from the paper's
Figures 4 and 5 (end points, point and range intervals, counts, normalised votes, summed feature votes)."""

from __future__ import annotations

import numpy as np
import pytest

from lazylib.vfi import VFI5Classifier


def loop_vfi5(X, y, nominal, Xq):
    """Summed votes of every query, one feature and one instance at a time."""
    classes = sorted(set(y))
    C = len(classes)
    class_count = np.array([sum(1 for v in y if v == c) for c in classes], dtype=float)
    total = np.zeros((len(Xq), C))
    for f in range(X.shape[1]):
        known = [(x, classes.index(c)) for x, c in zip(X[:, f], y) if not np.isnan(x)]
        if nominal[f]:
            points = sorted({x for x, _ in known})
        else:
            ends = set()
            for c in range(C):
                vals = [x for x, k in known if k == c]
                if vals:
                    ends |= {min(vals), max(vals)}
            points = sorted(ends)
        # intervals as (low, high, is_point); ranges only on linear features
        intervals = []
        for i, p in enumerate(points):
            if not nominal[f]:
                intervals.append((-np.inf if i == 0 else points[i - 1], p, False))
            intervals.append((p, p, True))
        if not nominal[f]:
            intervals.append((points[-1] if points else -np.inf, np.inf, False))

        def find(x, intervals=intervals):
            for i, (lo, hi, point) in enumerate(intervals):
                if (point and x == lo) or (not point and lo < x < hi):
                    return i
            return None

        counts = np.zeros((len(intervals), C))
        for x, k in known:
            counts[find(x), k] += 1
        votes = counts / class_count
        for i in range(len(intervals)):
            s = votes[i].sum()
            votes[i] = votes[i] / s if s > 0 else 0.0
        for q in range(len(Xq)):
            x = Xq[q, f]
            if np.isnan(x):
                continue
            i = find(x)
            if i is not None:
                total[q] += votes[i]
    return total


@pytest.mark.parametrize("seed", range(4))
def test_vectorised_matches_loop(seed):
    rng = np.random.default_rng(seed)
    n, C = 60, 2 + seed
    y = rng.integers(0, C, n)
    X = np.column_stack([
        rng.normal(size=n),                      # continuous: distinct end points
        rng.integers(0, 6, n).astype(float),     # integer: shared values, coinciding end points
        rng.integers(0, 4, n).astype(float),     # nominal codes
        rng.normal(size=n) + y,                  # informative
    ])
    X[rng.random(X.shape) < 0.1] = np.nan
    nominal = [False, False, True, False]
    types = ["continuous", "integer", "nominal", "continuous"]
    Xq = np.column_stack([rng.normal(size=40), rng.integers(-1, 8, 40), rng.integers(0, 6, 40),
                          rng.normal(size=40) + 1]).astype(float)
    Xq[:5] = X[:5]  # values on end points and training values
    Xq[rng.random(Xq.shape) < 0.1] = np.nan
    clf = VFI5Classifier().fit(X, y, types=types)
    expected = loop_vfi5(X, y, nominal, Xq)
    np.testing.assert_allclose(clf.decision_function(Xq), expected, atol=1e-12)
    np.testing.assert_allclose(clf.feature_votes(Xq).sum(axis=1), expected, atol=1e-12)
    # predictions: the largest total, ties to the more frequent class then the lowest index
    freq = np.bincount(y, minlength=C)
    for q, pred in enumerate(clf.predict_indices(Xq)):
        best = np.flatnonzero(np.isclose(expected[q], expected[q].max(), rtol=1e-9, atol=1e-12))
        assert pred == sorted(best, key=lambda c: (-freq[c], c))[0]
