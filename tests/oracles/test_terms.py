"""The engine equals the per-pair forms of :mod:`lazylib.metrics.terms`, attribute by attribute.

For each metric and each attribute ``a``, the metric is fitted with the weight vector ``e_a`` (1 on ``a``, 0
elsewhere), so its reduced sums are ``u_a(x) * t_a(x_a, y_a)`` alone; they must equal the per-pair form, looped
over every pair of a query set and the training data (and of the query set and other stored instances).
"""

from __future__ import annotations

import numpy as np
import pytest
from test_metric_loops import random_mixed

from lazylib.metrics import make_metric, terms

RTOL = 1e-12
ATOL = 1e-12

CASES = [
    ("overlap", {}),
    ("heom", {}),
    ("hvdm", {}),
    ("hvdm", {"normalization": "N1"}),
    ("hvdm", {"normalization": "N3"}),
    ("vdm", {}),
    ("mvdm", {}),
    ("omvw", {}),
    ("dvdm", {}),
    ("dvdm", {"erratum": False}),
    ("ivdm", {}),
    ("ivdm", {"erratum": False}),
    ("wvdm", {}),
    ("euclidean", {}),
    ("manhattan", {}),
    ("minkowski", {"r": 3}),
]


def reduced(metric, A, B=None):
    return np.vstack([block for _, _, block in metric.pairwise_chunks(A, B, reduced=True)])


def sums(metric, A, B=None):
    """The weighted sums of the terms: the reduced sums, or for a metric computed pair by pair as the r-norm of
    its differences (Minkowski with r other than 1 and 2), the r-th powers of its distances."""
    r = metric._norm_order()
    return reduced(metric, A, B) if r is None else metric.pairwise(A, B) ** r


@pytest.mark.parametrize("name,params", CASES, ids=[f"{n}-{p}" if p else n for n, p in CASES])
def test_engine_equals_the_per_pair_form_of_every_term(name, params):
    X, y, types = random_mixed(11, n=45)
    if name in ("overlap", "vdm", "mvdm", "omvw"):
        X, types = X[:, :3], types[:3]  # nominal only
    if name in ("euclidean", "manhattan", "minkowski"):
        X, types = X[:, 3:], types[3:]  # linear only
    Q, S = X[:12], X[30:]
    m = X.shape[1]
    for a in range(m):
        metric = make_metric(name, weights=np.eye(m)[a], **params).fit(X[:30], y[:30], types=types)
        att = metric.attributes_[a]
        for stored, engine in ((X[:30], sums(metric, Q)), (S, sums(metric, Q, S))):
            u = att.query_weights(Q[:, a]) if metric.query_weighted else np.ones(len(Q))
            loop = np.array(
                [[u[i] * terms.term(att, Q[i, a], stored[j, a]) for j in range(len(stored))] for i in range(len(Q))]
            )
            np.testing.assert_allclose(engine, loop, rtol=RTOL, atol=ATOL, err_msg=f"{name} attribute {a}")


@pytest.mark.parametrize("scale", ["range", "raw"])
def test_engine_equals_the_per_pair_form_of_the_set_term(scale):
    from test_set_metrics import random_sets

    from lazylib.weighting import FeatureDifference

    X, y = random_sets(12, n=40)
    train, Q = X.iloc[:26], X.iloc[26:]
    m = X.shape[1]
    for a, name in enumerate(X.columns):
        metric = FeatureDifference(scale=scale, weights=np.eye(m)[a]).fit(train, y[:26])
        att = metric.attributes_[a]
        for stored, engine in ((train, reduced(metric, Q)), (Q, reduced(metric, Q, Q))):
            loop = np.array([[terms.term(att, *_values(metric, a, q, s)) for s in stored[name]] for q in Q[name]])
            np.testing.assert_allclose(engine, loop, rtol=RTOL, atol=ATOL, err_msg=f"{name} ({scale})")


def _values(metric, a, q, s):
    """The per-pair form's values: members for a set column (as they are), codes / numbers otherwise."""
    if metric.kinds_[a] == "set":
        return q, s
    if metric.kinds_[a] == "nominal":
        cats = list(metric.categories_[a])
        return tuple(
            np.nan if v is None or (isinstance(v, float) and np.isnan(v)) else float(cats.index(v)) for v in (q, s)
        )
    return float(q), float(s)
