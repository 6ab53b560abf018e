"""Every vectorised metric agrees with a plain per-pair loop written here from the papers' equations.

The loops below share no code with lazylib: probabilities are counted with dictionaries, ranges and
midpoints recomputed, and each distance summed attribute by attribute for one pair at a time.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from lazylib.metrics import make_metric

RTOL = 1e-12
ATOL = 1e-12


def random_mixed(seed, n=40, n_nom=3, n_lin=3, n_classes=3, missing=0.08):
    rng = np.random.default_rng(seed)
    nom = rng.integers(0, 4, size=(n, n_nom)).astype(float)
    lin = rng.normal(size=(n, n_lin)) * rng.uniform(0.1, 100, size=n_lin) + rng.uniform(-50, 50, size=n_lin)
    X = np.hstack([nom, lin])
    X[rng.random(X.shape) < missing] = np.nan
    y = rng.integers(0, n_classes, size=n)
    y[:n_classes] = np.arange(n_classes)
    types = ["nominal"] * n_nom + ["continuous"] * n_lin
    return X, y, types


# ---------------------------------------------------------------- reference pieces, one value at a time
def probs(column, y, classes, value):
    """P(c | value) by counting; value None = unknown; 0 for values never seen."""
    rows = [c for v, c in zip(column, y) if (math.isnan(v) if value is None else v == value)]
    return [rows.count(c) / len(rows) if rows else 0.0 for c in classes]


def key(v):
    return None if math.isnan(v) else v


def sd(values):
    vals = [v for v in values if not math.isnan(v)]
    mean = sum(vals) / len(vals)
    return math.sqrt(sum((v - mean) ** 2 for v in vals) / (len(vals) - 1))


def loop_matrix(dist, A, B):
    return np.array([[dist(a, b) for b in B] for a in A])


def ref_overlap(X, y, types):
    return lambda a, b: sum(0.0 if (key(p) == key(q)) else 1.0 for p, q in zip(a, b))


def ref_vdm(X, y, types, weighted, overlap=False):
    classes = sorted(set(y))

    def dist(a, b):
        total = 0.0
        for j, (p, q) in enumerate(zip(a, b)):
            pp, pq = probs(X[:, j], y, classes, key(p)), probs(X[:, j], y, classes, key(q))
            delta = (0.0 if key(p) == key(q) else 1.0) if overlap else sum((s - t) ** 2 for s, t in zip(pp, pq))
            w = math.sqrt(sum(s * s for s in pp)) if weighted else 1.0
            total += delta * w
        return total

    return dist


def ref_heom(X, y, types):
    lo = [np.nanmin(X[:, j]) for j in range(X.shape[1])]
    hi = [np.nanmax(X[:, j]) for j in range(X.shape[1])]

    def dist(a, b):
        total = 0.0
        for j, (p, q) in enumerate(zip(a, b)):
            if math.isnan(p) or math.isnan(q):
                d = 1.0
            elif types[j] == "nominal":
                d = 0.0 if p == q else 1.0
            else:
                d = abs(p - q) / (hi[j] - lo[j])
            total += d * d
        return math.sqrt(total)

    return dist


def ref_hvdm(X, y, types, normalization="N2"):
    classes = sorted(set(y))
    sds = [sd(X[:, j]) for j in range(X.shape[1])]

    def dist(a, b):
        total = 0.0
        for j, (p, q) in enumerate(zip(a, b)):
            if math.isnan(p) or math.isnan(q):
                d = 1.0
            elif types[j] == "nominal":
                pp, pq = probs(X[:, j], y, classes, p), probs(X[:, j], y, classes, q)
                if normalization == "N1":
                    d = sum(abs(s - t) for s, t in zip(pp, pq))
                elif normalization == "N2":
                    d = math.sqrt(sum((s - t) ** 2 for s, t in zip(pp, pq)))
                else:
                    d = math.sqrt(len(classes) * sum((s - t) ** 2 for s, t in zip(pp, pq)))
            else:
                d = abs(p - q) / (4 * sds[j])
            total += d * d
        return math.sqrt(total)

    return dist


def ref_euclid_std(X, y, types):
    sds = [sd(X[:, j]) for j in range(X.shape[1])]

    def dist(a, b):
        return math.sqrt(
            sum(
                1.0 if (math.isnan(p) or math.isnan(q)) else ((p - q) / sds[j]) ** 2
                for j, (p, q) in enumerate(zip(a, b))
            )
        )

    return dist


def ref_manhattan(X, y, types):
    return lambda a, b: sum(1.0 if (math.isnan(p) or math.isnan(q)) else abs(p - q) for p, q in zip(a, b))


def discretize(v, lo, hi, s):
    if v == hi:
        return s
    t = (v - lo) / ((hi - lo) / s)
    if abs(t - round(t)) <= 1e-9 * max(1.0, abs(t)):
        t = round(t)
    return math.floor(t) + 1


def ref_interpolated(X, y, types, kind, erratum=True):
    classes = sorted(set(y))
    C = len(classes)
    s = max(5, C)
    cols = []
    for j in range(X.shape[1]):
        vals = [v for v in X[:, j] if not math.isnan(v)]
        cols.append((min(vals), max(vals)))

    def range_probs(j, u):
        lo, hi = cols[j]
        rows = [c for v, c in zip(X[:, j], y) if not math.isnan(v) and discretize(v, lo, hi, s) == u]
        return [rows.count(c) / len(rows) if rows else 0.0 for c in classes]

    def p_ivdm(j, x):
        lo, hi = cols[j]
        w = (hi - lo) / s
        u = discretize(x, lo, hi, s)
        mid = lambda k: lo + w * (k - 0.5)  # noqa: E731
        if x < mid(u):
            u -= 1
        P_lo = range_probs(j, u) if 1 <= u <= s else [0.0] * C
        P_hi = range_probs(j, u + 1) if 1 <= u + 1 <= s else [0.0] * C
        return [a + (x - mid(u)) / (mid(u + 1) - mid(u)) * (b - a) for a, b in zip(P_lo, P_hi)]

    def p_wvdm(j, x):
        lo, hi = cols[j]
        w = (hi - lo) / s
        pts = sorted({v for v in X[:, j] if not math.isnan(v)})

        def at(v):
            rows = [c for t, c in zip(X[:, j], y) if not math.isnan(t) and v - w / 2 <= t <= v + w / 2]
            return [rows.count(c) / len(rows) for c in classes]

        if x in pts:
            return at(x)
        if x < pts[0]:
            left, pl, right, pr = pts[0] - w / 2, [0.0] * C, pts[0], at(pts[0])
        elif x > pts[-1]:
            left, pl, right, pr = pts[-1], at(pts[-1]), pts[-1] + w / 2, [0.0] * C
        else:
            i = max(k for k, v in enumerate(pts) if v < x)
            left, pl, right, pr = pts[i], at(pts[i]), pts[i + 1], at(pts[i + 1])
        if x <= left or x >= right:
            return [0.0] * C
        return [a + (x - left) / (right - left) * (b - a) for a, b in zip(pl, pr)]

    def vector(j, v):
        if math.isnan(v) or types[j] == "nominal":
            return probs(X[:, j], y, classes, key(v))
        if kind == "dvdm":
            lo, hi = cols[j]
            return range_probs(j, discretize(v, lo, hi, s))
        return p_ivdm(j, v) if kind == "ivdm" else p_wvdm(j, v)

    def dist(a, b):
        total = 0.0
        for j, (p, q) in enumerate(zip(a, b)):
            sq = sum((s1 - s2) ** 2 for s1, s2 in zip(vector(j, p), vector(j, q)))
            total += sq if erratum else sq * sq
        return math.sqrt(total) if erratum else total

    return dist


CASES = [
    ("overlap", {}, ref_overlap),
    ("mvdm", {}, lambda X, y, t: ref_vdm(X, y, t, weighted=False)),
    ("vdm", {}, lambda X, y, t: ref_vdm(X, y, t, weighted=True)),
    ("omvw", {}, lambda X, y, t: ref_vdm(X, y, t, weighted=True, overlap=True)),
    ("heom", {}, ref_heom),
    ("hvdm", {}, ref_hvdm),
    ("hvdm", {"normalization": "N1"}, lambda X, y, t: ref_hvdm(X, y, t, "N1")),
    ("hvdm", {"normalization": "N3"}, lambda X, y, t: ref_hvdm(X, y, t, "N3")),
    ("euclidean", {"normalize": "std"}, ref_euclid_std),
    ("manhattan", {}, ref_manhattan),
    ("dvdm", {}, lambda X, y, t: ref_interpolated(X, y, t, "dvdm")),
    ("ivdm", {}, lambda X, y, t: ref_interpolated(X, y, t, "ivdm")),
    ("wvdm", {}, lambda X, y, t: ref_interpolated(X, y, t, "wvdm")),
    ("dvdm", {"erratum": False}, lambda X, y, t: ref_interpolated(X, y, t, "dvdm", erratum=False)),
    ("ivdm", {"erratum": False}, lambda X, y, t: ref_interpolated(X, y, t, "ivdm", erratum=False)),
    ("wvdm", {"erratum": False}, lambda X, y, t: ref_interpolated(X, y, t, "wvdm", erratum=False)),
]


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize(("name", "params", "reference"), CASES, ids=[f"{c[0]}{c[1] or ''}" for c in CASES])
def test_vectorised_equals_per_pair_loop(name, params, reference, seed):
    X, y, types = random_mixed(seed)
    rng = np.random.default_rng(100 + seed)
    # queries: training rows, perturbed rows, and values outside the training ranges and unseen symbols
    Q = X[:12].copy()
    Q[6:, 3:] += rng.normal(scale=30, size=(6, 3))
    Q[9:, 0] = 7.0  # a nominal value never seen in training
    metric = make_metric(name, **params).fit(X, y, types=types)
    fast = metric.pairwise(Q, X)
    slow = loop_matrix(reference(X, y, types), Q, X)
    np.testing.assert_allclose(fast, slow, rtol=RTOL, atol=ATOL)
    # against the training data itself the stored side is built once per fit and reused: same numbers
    for _ in range(2):
        np.testing.assert_allclose(metric.pairwise(Q), slow, rtol=RTOL, atol=ATOL)


@pytest.mark.parametrize("name", ["hvdm", "ivdm", "wvdm", "vdm", "euclidean"])
def test_refit_replaces_the_cached_stored_side(name):
    X, y, types = random_mixed(6, n=50)
    metric = make_metric(name)
    first = metric.fit(X[:25], y[:25], types=types).pairwise(X[:5])
    second = metric.fit(X[25:], y[25:], types=types).pairwise(X[:5])
    fresh = make_metric(name).fit(X[25:], y[25:], types=types).pairwise(X[:5], X[25:])
    np.testing.assert_allclose(second, fresh, rtol=RTOL, atol=ATOL)
    assert not np.allclose(first, second)


@pytest.mark.parametrize("name", ["hvdm", "ivdm", "vdm", "heom"])
def test_chunking_does_not_change_results(name):
    X, y, types = random_mixed(3, n=60)
    whole = make_metric(name).fit(X, y, types=types).pairwise(X)
    tiny = make_metric(name, working_memory=0.001).fit(X, y, types=types)
    chunks = list(tiny.pairwise_chunks(X))
    assert len(chunks) > 5
    # BLAS may round differently for a different number of rows: equal to the last few bits
    np.testing.assert_allclose(np.vstack([c[2] for c in chunks]), whole, rtol=1e-13, atol=1e-14)


@pytest.mark.parametrize("name", ["hvdm", "ivdm", "overlap", "vdm", "manhattan"])
def test_weights_global_and_per_class_equal_loop(name):
    X, y, types = random_mixed(4, n=30)
    rng = np.random.default_rng(5)
    w = rng.uniform(0.1, 2.0, size=X.shape[1])
    W = rng.uniform(0.0, 2.0, size=(3, X.shape[1]))
    plain = make_metric(name).fit(X, y, types=types)
    root = plain.root_
    # the attribute terms of one pair, recovered by zeroing all weights but one
    terms = []
    for a in range(X.shape[1]):
        e = np.zeros(X.shape[1])
        e[a] = 1.0
        terms.append(make_metric(name, weights=e).fit(X, y, types=types).pairwise(X) ** root)
    terms = np.stack(terms)  # (m, n, n)
    glob = make_metric(name, weights=w).fit(X, y, types=types).pairwise(X)
    np.testing.assert_allclose(glob**root, np.einsum("a,aij->ij", w, terms), rtol=1e-10, atol=1e-10)
    per_class = make_metric(name, weights=W).fit(X, y, types=types).pairwise(X)
    expected = np.einsum("ja,aij->ij", W[y], terms)
    np.testing.assert_allclose(per_class**root, expected, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(terms.sum(0), plain.pairwise(X) ** root, rtol=1e-10, atol=1e-10)


def test_euclidean_and_manhattan_match_scipy():
    from scipy.spatial.distance import cdist

    rng = np.random.default_rng(6)
    X = rng.normal(size=(30, 5))
    for name, scipy_name in [("euclidean", "euclidean"), ("manhattan", "cityblock"), ("chebychev", "chebyshev")]:
        m = make_metric(name).fit(X, types=["continuous"] * 5)
        np.testing.assert_allclose(m.pairwise(X[:7], X), cdist(X[:7], X, scipy_name), rtol=1e-12, atol=1e-12)
    m = make_metric("minkowski", r=3).fit(X, types=["continuous"] * 5)
    np.testing.assert_allclose(m.pairwise(X, X[:4]), cdist(X, X[:4], "minkowski", p=3), rtol=1e-12)


@pytest.mark.parametrize("n_classes", [2, 4])
@pytest.mark.parametrize("name", ["hvdm", "vdm", "mvdm", "dvdm", "ivdm", "wvdm"])
def test_training_stored_side_built_once_equals_one_built_per_call(name, n_classes):
    # against the training data the stored side is built once per fit; against a copy of it (B given) it is built
    # for the call: same distances, unseen values included
    X, y, types = random_mixed(7, n=60, n_classes=n_classes)
    Q = X[:15].copy()
    Q[10:, 0] = 9.0  # unseen symbol: its probability vector (all 0) is not of sum 1
    metric = make_metric(name).fit(X, y, types=types)
    np.testing.assert_allclose(metric.pairwise(Q), metric.pairwise(Q, X.copy()), rtol=RTOL, atol=ATOL)
    # near zero (the unseen symbol's attribute weighted 1e-6, the rest equal) sums are recomputed from direct
    # differences, on both paths
    weights = np.ones(X.shape[1])
    weights[0] = 1e-6
    metric = make_metric(name, weights=weights).fit(X, y, types=types)
    Q = X[:5].copy()
    Q[:, 0] = 9.0
    np.testing.assert_allclose(metric.pairwise(Q), metric.pairwise(Q, X.copy()), rtol=RTOL, atol=ATOL)
