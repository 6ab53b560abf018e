"""C4.5's vectorised node evaluation and classification against plain loops.

The references below walk over cases and candidate cuts one at a time, with fractional case weights and
unknown values, and follow the definitions in Quinlan (1993) and Quinlan (1996) directly."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from lazylib.trees import C45Classifier


def info(weights_by_class):
    total = sum(weights_by_class)
    return -sum(w / total * math.log2(w / total) for w in weights_by_class if w > 0) if total > 0 else 0.0


def loop_nominal(values, y, w, n_values, C, min_cases):
    items = sum(w)
    freq = [[0.0] * C for _ in range(n_values)]
    unknown = 0.0
    for v, c, wi in zip(values, y, w):
        if math.isnan(v):
            unknown += wi
        else:
            freq[int(v)][c] += wi
    sizes = [sum(f) for f in freq]
    known = items - unknown
    if sum(s >= min_cases for s in sizes) < 2:
        return None
    class_known = [sum(freq[v][c] for v in range(n_values)) for c in range(C)]
    gain = known / items * (info(class_known) - sum(s / known * info(f) for s, f in zip(sizes, freq)))
    split = info([unknown] + sizes)  # the unknowns as one more branch
    return {"gain": gain, "info_gain": gain, "split_info": split}


def loop_continuous(values, y, w, C, min_cases, tol):
    items = sum(w)
    cases = sorted((v, c, wi) for v, c, wi in zip(values, y, w) if not math.isnan(v))
    known = sum(wi for _, _, wi in cases)
    unknown = items - known
    class_known = [0.0] * C
    for _, c, wi in cases:
        class_known[c] += wi
    min_split = min(max(0.1 * known / C, min_cases), 25.0)
    best = None
    tries = 0
    for i in range(len(cases) - 1):
        if not cases[i + 1][0] > cases[i][0] + tol:
            continue
        low = [0.0] * C
        for _, c, wi in cases[: i + 1]:
            low[c] += wi
        high = [class_known[c] - low[c] for c in range(C)]
        L, H = sum(low), sum(high)
        if L < min_split - 1e-9 or H < min_split - 1e-9:
            continue
        tries += 1
        gain = known / items * (info(class_known) - L / known * info(low) - H / known * info(high))
        if best is None or gain > best[0] + 1e-6:
            best = (gain, cases[i][0], cases[i + 1][0], L, H)
    if best is None:
        return None
    gain, lo, hi, L, H = best
    penalty = math.log2(tries) / items
    return {
        "info_gain": gain,
        "gain": gain - penalty,
        "split_info": info([unknown, L, H]),
        "cut": (lo, hi),
        "tries": tries,
        "possible": gain - penalty > 0,
    }


def random_data(seed, n=60, C=3):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(
        {
            "c1": rng.normal(size=n).round(1),  # ties
            "c2": rng.integers(0, 6, n).astype(float),
            "n1": pd.Categorical.from_codes(rng.integers(0, 3, n), ["p", "q", "r"]),
            "c3": rng.normal(size=n),
            "n2": pd.Categorical.from_codes(rng.integers(0, 4, n), list("wxyz")),
        }
    )
    for col in X.columns:
        X.loc[rng.random(n) < 0.15, col] = np.nan
    y = rng.integers(0, C, n)
    y[X.c1.fillna(0) > 0.5] = 0  # some signal
    return X, y


@pytest.mark.parametrize("seed", range(6))
def test_node_evaluation_matches_loops_with_weights_and_unknowns(seed):
    X, y = random_data(seed)
    clf = C45Classifier()
    clf.fit(X, y)  # sets up the builder on these data
    builder = clf._builder
    rng = np.random.default_rng(100 + seed)
    rows = np.sort(rng.choice(len(X), size=45, replace=False))
    w = rng.uniform(0.2, 1.0, size=45)
    table = builder.evaluate(rows, w)
    Z = builder.Z
    for a, name in enumerate(X.columns):
        values, yy = Z[rows, a].tolist(), y[rows].tolist()
        if builder.nominal[a]:
            ref = loop_nominal(values, yy, w.tolist(), builder.n_values[a], 3, 2.0)
            assert table["possible"][a] == (ref is not None)
        else:
            ref = loop_continuous(values, yy, w.tolist(), 3, 2.0, 1e-5)
            if ref is None:
                assert table["tries"][a] == 0
                continue
            assert table["tries"][a] == ref["tries"]
            assert table["possible"][a] == ref["possible"]
            lo, hi = ref["cut"]
            assert lo <= table["threshold"][a] < hi
        if ref is None:
            continue
        for key in ("info_gain", "gain", "split_info"):
            assert table[key][a] == pytest.approx(ref[key], abs=1e-10), (name, key)


def classify_one(node, x, clf):
    """C4.5's classification of one case, recursively: a class-weight vector summing to 1."""
    C = len(clf.classes_)
    if node.is_leaf:
        if node.n > 0:
            return node.distribution / node.n
        out = np.zeros(C)
        out[node.label] = 1.0
        return out
    v = x[node.attribute]
    if math.isnan(v):
        total = sum(child.n for child in node.children)
        return sum(child.n / total * classify_one(child, x, clf) for child in node.children)
    if clf.kinds_[node.attribute] == "nominal":
        return classify_one(node.children[int(v)], x, clf)
    return classify_one(node.children[0 if v <= node.threshold else 1], x, clf)


@pytest.mark.parametrize("seed", range(4))
def test_predict_proba_matches_a_per_case_recursive_classifier(seed):
    X, y = random_data(seed, n=120)
    clf = C45Classifier(pruning=seed % 2 == 0).fit(X, y)
    Xq, _ = random_data(seed + 50, n=80)
    Zq = clf._encode_queries(Xq)
    expected = np.array([classify_one(clf.tree_, row, clf) for row in Zq])
    np.testing.assert_allclose(clf.predict_proba(Xq), expected, atol=1e-12)
