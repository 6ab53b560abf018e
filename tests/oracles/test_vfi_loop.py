"""VFI5's vectorised training and classification against a plain per-instance loop written from the paper's
Figures 4 and 5 (end points, point and range intervals, counts, normalised votes, summed feature votes)."""

from __future__ import annotations

import math

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


NOMINAL = [False, False, True, False]
TYPES = ["continuous", "integer", "nominal", "continuous"]


def mixed_data(rng, n, C, n_queries, n_copied):
    """Training data of the four kinds of TYPES (10 % missing), and queries, the first ``n_copied`` of them
    copies of training rows (values on end points)."""
    y = rng.integers(0, C, n)
    X = np.column_stack(
        [
            rng.normal(size=n),  # continuous: distinct end points
            rng.integers(0, 6, n).astype(float),  # integer: shared values, coinciding end points
            rng.integers(0, 4, n).astype(float),  # nominal codes
            rng.normal(size=n) + y,  # informative
        ]
    )
    X[rng.random(X.shape) < 0.1] = np.nan
    Xq = np.column_stack(
        [
            rng.normal(size=n_queries),
            rng.integers(-1, 8, n_queries),
            rng.integers(0, 6, n_queries),
            rng.normal(size=n_queries) + 1,
        ]
    ).astype(float)
    Xq[:n_copied] = X[:n_copied]
    return X, y, Xq


@pytest.mark.parametrize("seed", range(4))
def test_vectorised_matches_loop(seed):
    rng = np.random.default_rng(seed)
    C = 2 + seed
    X, y, Xq = mixed_data(rng, 60, C, 40, 5)
    Xq[rng.random(Xq.shape) < 0.1] = np.nan
    nominal, types = NOMINAL, TYPES
    clf = VFI5Classifier().fit(X, y, types=types)
    expected = loop_vfi5(X, y, nominal, Xq)
    np.testing.assert_allclose(clf.class_votes(Xq), expected, atol=1e-12)
    np.testing.assert_allclose(clf.feature_votes(Xq).sum(axis=1), expected, atol=1e-12)
    # predictions: the largest total, ties to the more frequent class then the lowest index
    freq = np.bincount(y, minlength=C)
    for q, pred in enumerate(clf.predict_indices(Xq)):
        best = np.flatnonzero(np.isclose(expected[q], expected[q].max(), rtol=1e-9, atol=1e-12))
        assert pred == sorted(best, key=lambda c: (-freq[c], c))[0]


def loop_weka_vfi(X, y, nominal, Xq, bias=None, tiny=1e-11):
    """Summed votes of every query as Weka's VFI computes them (its source, read as a procedure): bounds are
    -inf, the distinct per-class minima and maxima, +inf; a training value above bound k counts in range k, one
    equal to bound k counts half in ranges k and k-1; a query equal to bound k gets the mean of those two ranges'
    counts. Votes (count + tiny) / (class size + tiny), normalised (1/C each when they sum to 0); with a bias,
    times max(1, H ** -bias), H Weka's entropy in bits, (sum(-p ln p) + t ln t) / (t ln 2) with t the sum of p. An
    interval holding no training value, or a nominal value unseen in training, votes by the same formulas, as
    in Weka; sums run class by class, as Weka's loops do."""

    def entropy(p):
        minus = 0.0
        t = 0.0
        for v in p:
            minus -= v * math.log(v) if v > 0 else 0.0
            t += v
        return (minus + t * math.log(t)) / (t * math.log(2))

    classes = sorted(set(y))
    C = len(classes)
    size = np.array([sum(1 for v in y if v == c) for c in classes], dtype=float)
    if bias is None:
        tiny = 0.0
    total = np.zeros((len(Xq), C))
    for f in range(X.shape[1]):
        known = [(x, classes.index(c)) for x, c in zip(X[:, f], y) if not np.isnan(x)]
        if nominal[f]:
            values = sorted({x for x, _ in known})
            counts = {v: np.zeros(C) for v in values}
            for x, k in known:
                counts[x][k] += 1
        else:
            ends = {-np.inf, np.inf}
            for c in range(C):
                vals = [x for x, k in known if k == c]
                if vals:
                    ends |= {min(vals), max(vals)}
            bounds = sorted(ends)
            counts = np.zeros((len(bounds), C))
            for x, k in known:
                for b in range(len(bounds) - 1, -1, -1):
                    if x > bounds[b]:
                        counts[b, k] += 1
                        break
                    if x == bounds[b]:
                        counts[b, k] += 0.5
                        counts[b - 1, k] += 0.5
                        break
        for q in range(len(Xq)):
            x = Xq[q, f]
            if np.isnan(x):
                continue
            if nominal[f]:
                raw = counts.get(x, np.zeros(C))
            else:
                for b in range(len(bounds) - 1, -1, -1):
                    if x > bounds[b]:
                        raw = counts[b]
                        break
                    if x == bounds[b]:
                        raw = (counts[b] + counts[b - 1]) / 2
                        break
            temp = (raw + tiny) / (size + tiny)
            s = 0.0
            for v in temp:
                s += v
            temp = temp / s if s > 0 else np.full(C, 1.0 / C)
            weight = 1.0
            if bias is not None:
                weight = max(1.0, entropy(temp) ** -bias)
            total[q] += temp * weight
    return total


@pytest.mark.parametrize("bias", [None, 0.6, 1.0])
@pytest.mark.parametrize("seed", range(3))
def test_weka_options_match_loop(seed, bias):
    rng = np.random.default_rng(100 + seed)
    C = 2 + seed
    X, y, Xq = mixed_data(rng, 50, C, 30, 8)
    clf = VFI5Classifier(point_intervals=False, confidence_bias=bias).fit(X, y, types=TYPES)
    expected = loop_weka_vfi(X, y, NOMINAL, Xq, bias)
    np.testing.assert_allclose(clf.class_votes(Xq), expected, rtol=1e-9, atol=1e-12)
    if bias is None:
        assert (clf.n_intervals_[[0, 1, 3]] <= 2 * C + 1).all()


def test_confidence_weighting_alone_keeps_point_intervals():
    rng = np.random.default_rng(7)
    y = rng.integers(0, 3, 40)
    X = np.column_stack([rng.normal(size=40) + y, rng.integers(0, 3, 40).astype(float)])
    plain = VFI5Classifier().fit(X, y, types=["continuous", "integer"])
    weighted = VFI5Classifier(confidence_bias=0.6).fit(X, y, types=["continuous", "integer"])
    np.testing.assert_array_equal(plain.n_intervals_, weighted.n_intervals_)
    # every interval holding values: votes scaled by a weight of at least 1, in the same proportions
    v0, v1 = plain.votes_, weighted.votes_  # (interval slots, classes)
    held = v0.sum(axis=1) > 0
    ratio = v1.sum(axis=1)[held] / v0.sum(axis=1)[held]
    assert (ratio >= 1 - 1e-12).all()
    np.testing.assert_allclose(v1[held] / ratio[:, None], v0[held], atol=1e-9)  # up to the 1e-11 shift
