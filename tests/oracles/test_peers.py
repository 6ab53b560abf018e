"""lazylib's distances against outside implementations (issue 39), each aligned to the paper's definition.

The peers are optional test dependencies (``pip install ".[peers]"``): each test is skipped when its package
is not installed. The alignments, where the peers differ from the papers:

- distython (0.0.3) treats the value 0 as missing (``nan_equivalents=[np.nan, 0]``): we pass
  ``nan_equivalents=[np.nan]``. Its HEOM and HVDM return the sum of squares (no square root): we compare with
  the square of ours. Its HVDM compares nominal values with N1 (``sum_c |P_xc - P_yc|``: ours with
  ``normalization="N1"``) and divides linear differences by 4 times the *variance* (Wilson & Martinez's Eq. 13
  has 4 standard deviations): we set its divisor to ``4 * sigma`` (ours, ``ddof=1``). It reads the class as
  one more column of ``X`` and compares it as a linear attribute: we give that column an infinite divisor.
- imbalanced-learn's ``ValueDifferenceMetric`` (0.14) computes ``sum_f ||P_x - P_y||_k^r`` (no final root,
  whatever its docstring says): with ``k=2, r=2`` it is Payne & Edwards' MVDM. It takes ordinal codes; an
  unknown value is one more code there, one more value (``missing="value"``) here.
- gower (0.1.2) averages over the attributes (ours: overlap on the nominal ones plus range-normalised Manhattan
  on the linear ones, divided by their number) and returns NaN for a pair with a missing continuous value (we
  compare pairs without one), computes in float32 (we compare to 1e-6).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from lazylib.metrics import HEOM, HVDM, MVDM, Manhattan, Overlap


def mixed(seed: int, n: int = 80, missing: float = 0.0):
    """Nominal codes 0-3 (0 included: distython must not read it as missing) and linear values."""
    rng = np.random.default_rng(seed)
    nom = rng.integers(0, 4, (n, 3)).astype(float)
    lin = rng.normal(size=(n, 3)) * [1.0, 10.0, 0.1] + [0.0, 5.0, -2.0]
    X = np.hstack([nom, lin])
    if missing:
        X[:, 3:][rng.random((n, 3)) < missing] = np.nan
    y = rng.integers(0, 3, n)
    y[:3] = np.arange(3)
    return X, y, ["nominal"] * 3 + ["continuous"] * 3


def loop(dist, A, B):
    return np.array([[dist(a, b) for b in B] for a in A])


def test_heom_equals_distython():
    distython = pytest.importorskip("distython")
    X, y, types = mixed(0, missing=0.05)
    peer = distython.HEOM(X, [0, 1, 2], nan_equivalents=[np.nan])
    ours = HEOM().fit(X, types=types).pairwise(X[:20]) ** 2
    np.testing.assert_allclose(ours, loop(peer.heom, X[:20], X), rtol=1e-12, atol=1e-12)


def test_hvdm_equals_distython_with_the_papers_divisor():
    distython = pytest.importorskip("distython")
    X, y, types = mixed(1)
    metric = HVDM(normalization="N1").fit(X, y, types=types)
    Xy = np.hstack([X, y[:, None]])
    peer = distython.HVDM(Xy, [X.shape[1]], [0, 1, 2], nan_equivalents=[np.nan])
    # Eq. 13: 4 sigma; the class column (distython reads it as one more linear attribute) made to count 0
    peer.range = np.concatenate([np.ones(3), 4.0 * np.std(X[:, 3:], axis=0, ddof=1), [np.inf]])
    np.testing.assert_allclose(metric.sigma_[3:], np.std(X[:, 3:], axis=0, ddof=1))
    want = loop(peer.hvdm, Xy[:20], Xy)
    np.testing.assert_allclose(metric.pairwise(X[:20]) ** 2, want, rtol=1e-12, atol=1e-12)


def test_mvdm_equals_imbalanced_learns_value_difference_metric():
    pairwise = pytest.importorskip("imblearn.metrics.pairwise")
    rng = np.random.default_rng(2)
    codes = rng.integers(0, 4, (120, 5))
    y = rng.integers(0, 3, 120)
    peer = pairwise.ValueDifferenceMetric(n_categories=np.full(5, 4), k=2, r=2).fit(codes, y)
    ours = MVDM().fit(codes.astype(float), y, types=["nominal"] * 5).pairwise(codes.astype(float))
    np.testing.assert_allclose(ours, peer.pairwise(codes), rtol=1e-12, atol=1e-12)


def test_overlap_plus_range_manhattan_equals_gower():
    gower = pytest.importorskip("gower")
    X, y, types = mixed(3, missing=0.05)
    frame = pd.DataFrame(X, columns=[f"c{i}" for i in range(6)])
    for c in frame.columns[:3]:
        frame[c] = frame[c].astype(int).astype(str)  # object columns: gower's categorical ones
    want = gower.gower_matrix(frame, cat_features=np.array([True] * 3 + [False] * 3))
    ours = (
        Overlap().fit(X[:, :3], types=types[:3]).pairwise(X[:, :3])
        + Manhattan(normalize="range").fit(X[:, 3:], types=types[3:]).pairwise(X[:, 3:])
    ) / 6
    complete = ~np.isnan(X[:, 3:]).any(axis=1)
    pairs = np.ix_(complete, complete)  # gower: NaN for a missing continuous value; ours: distance 1
    assert np.isnan(want[~complete]).all()
    np.testing.assert_allclose(ours[pairs], want[pairs], rtol=1e-6, atol=1e-6)
