"""Distinct rows computed once (issue 39): ``pairwise`` computes between distinct queries and distinct stored
instances and gathers, the search hands each distinct query's candidates to its copies and groups identical
stored rows; the results are those of the computation over every row (the engine with ``distinct_rows``
switched off), and of the per-pair loops."""

from __future__ import annotations

from unittest import mock

import numpy as np
import pytest
from test_metric_loops import loop_matrix, ref_overlap, ref_vdm

from lazylib.metrics import _engine, _plan, make_metric
from lazylib.neighbors import KNeighborsClassifier


def duplicate_rich(seed: int, n: int = 300, n_nom: int = 3, n_lin: int = 1, levels: int = 3):
    """Few distinct rows: nominal codes 0-2 and a continuous column on ``levels`` values, 2 % unknown."""
    rng = np.random.default_rng(seed)
    X = np.hstack([rng.integers(0, 3, (n, n_nom)), rng.integers(0, levels, (n, n_lin)) * 0.37]).astype(float)
    X[rng.random(X.shape) < 0.02] = np.nan
    y = rng.integers(0, 3, n)
    return X, y, ["nominal"] * n_nom + ["continuous"] * n_lin


def data_for(name: str, seed: int, n: int = 300):
    """:func:`duplicate_rich` data, numeric and complete for the statistical metrics (linear values only)."""
    X, y, types = duplicate_rich(seed, n)
    if name in ("camberra", "chebychev"):
        return np.nan_to_num(X), y, ["continuous"] * X.shape[1]
    return X, y, types


def every_row():
    """The engine without distinct rows (each row computed on its own; every caller of ``distinct_rows`` is in
    ``_engine``)."""
    return mock.patch.object(_engine, "distinct_rows", return_value=None)


METRICS = [
    ("overlap", {}),
    ("wom", {"weights": [0.3, 1.7, 0.9, 0.2]}),
    ("omvw", {}),
    ("vdm", {}),
    ("mvdm", {}),
    ("hvdm", {}),
    ("heom", {}),
    ("dvdm", {}),
    ("ivdm", {}),
    ("ivdm", {"erratum": False}),
    ("manhattan", {}),
    ("camberra", {}),
]


@pytest.mark.parametrize(("name", "params"), METRICS, ids=[f"{n}{p or ''}" for n, p in METRICS])
def test_pairwise_over_distinct_rows_equals_every_row(name, params):
    X, y, types = data_for(name, 0)
    assert _engine.distinct_rows(X) is not None  # the data exercise the distinct path
    metric = make_metric(name, **params).fit(X, y, types=types)
    got = metric.pairwise(X[:120])
    with every_row():
        want = metric.pairwise(X[:120])
    np.testing.assert_allclose(got, want, rtol=_plan.ACCURACY, atol=0)
    assert np.array_equal(got == 0, want == 0)
    np.testing.assert_allclose(metric.pairwise(X[:50], X[100:200], y_B=y[100:200]), want[:50, 100:200], rtol=1e-9)


def test_pairwise_over_distinct_rows_equals_the_per_pair_loops():
    X, y, types = duplicate_rich(1, n_lin=0)
    np.testing.assert_array_equal(
        make_metric("overlap").fit(X, y, types=types).pairwise(X), loop_matrix(ref_overlap(X, y, types), X, X)
    )
    np.testing.assert_allclose(
        make_metric("vdm").fit(X, y, types=types).pairwise(X),
        loop_matrix(ref_vdm(X, y, types, weighted=True), X, X),
        rtol=1e-12,
        atol=1e-12,
    )


def test_per_class_weights_tell_identical_rows_of_different_classes_apart():
    X, y, types = duplicate_rich(2)
    W = np.random.default_rng(0).uniform(0.1, 2.0, (3, X.shape[1]))
    metric = make_metric("hvdm", weights=W).fit(X, y, types=types)
    got = metric.pairwise(X)
    with every_row():
        np.testing.assert_allclose(got, metric.pairwise(X), rtol=_plan.ACCURACY, atol=0)


def assert_same_votes(got, want):
    """``(neighbourhood, predict, kneighbors, predict_loo)`` alike: the same neighbours, ties and votes, the
    distances within ``ACCURACY``."""
    np.testing.assert_array_equal(got[0].strict, want[0].strict)
    np.testing.assert_array_equal(got[0].tied, want[0].tied)
    np.testing.assert_array_equal(got[1], want[1])
    np.testing.assert_array_equal(got[2][1], want[2][1])
    np.testing.assert_allclose(got[2][0], want[2][0], rtol=_plan.ACCURACY)
    np.testing.assert_array_equal(got[3], want[3])


@pytest.mark.parametrize(("name", "params"), METRICS[:6] + METRICS[7:], ids=lambda v: str(v))
@pytest.mark.parametrize(("k", "ties"), [(1, "all"), (25, "all"), (25, "first"), (75, "random")])
def test_votes_over_distinct_rows_equal_every_row(name, params, k, ties):
    X, y, types = data_for(name, 3, n=400)
    clf = KNeighborsClassifier(k, name, metric_params=params, ties=ties, random_state=0)
    clf.fit(X[:300], y[:300], types=types)
    Q = X[250:]  # half of them training rows, every one a copy of many others
    got = (clf.neighbourhood(Q), clf.predict(Q), clf.kneighbors(Q), clf.predict_loo())
    with every_row():
        want = (clf.neighbourhood(Q), clf.predict(Q), clf.kneighbors(Q), clf.predict_loo())
    assert_same_votes(got, want)


def test_queries_beyond_one_span_are_handed_their_candidates():
    X, y, types = duplicate_rich(4, n=200, n_lin=0)
    clf = KNeighborsClassifier(5, "overlap").fit(X, y, types=types)
    Q = np.vstack([X] * 3)
    with mock.patch.object(_engine, "QUERY_SPAN", 128):
        got = clf.neighbourhood(Q)
    with every_row():
        want = clf.neighbourhood(Q)
    np.testing.assert_array_equal(got.strict, want.strict)
    np.testing.assert_array_equal(got.tied, want.tied)


def binned_duplicates(seed: int, n: int = 400):
    """Continuous values all distinct (DVDM's ranges: few) beside one nominal column, 3 % unknown: rows differ
    in their raw values but many fall in the same ranges."""
    rng = np.random.default_rng(seed)
    X = np.hstack([rng.random((n, 2)), rng.integers(0, 3, (n, 1))]).astype(float)
    X[rng.random(X.shape) < 0.03] = np.nan
    return X, rng.integers(0, 3, n), ["continuous", "continuous", "nominal"]


DVDM_FORMS = [{}, {"erratum": False}, {"s": 3, "integer": "continuous"}, {"weights": "per class"}]


def dvdm_params(params: dict, m: int) -> dict:
    """``params`` with per-class weights drawn (identical ranges of different classes told apart by them)."""
    if params.get("weights") == "per class":
        return {"weights": np.random.default_rng(0).uniform(0.1, 2.0, (3, m))}
    return params


@pytest.mark.parametrize("params", DVDM_FORMS, ids=str)
def test_dvdm_finds_distinct_rows_on_its_ranges(params):
    """DVDM reads a continuous value only through its range (issue 39, item 1: distinct rows on the operands
    the metric uses): rows in the same ranges are computed once, with the results of every row."""
    X, y, types = binned_duplicates(0)
    metric = make_metric("dvdm", **dvdm_params(params, X.shape[1])).fit(X, y, types=types)
    assert _engine.distinct_rows(X) is None  # raw rows: all distinct
    ranges = metric._declaration.operand_rows(X)
    assert _engine.distinct_rows(ranges) is not None  # their ranges: at most half as many patterns
    np.testing.assert_array_equal(np.isnan(ranges), np.isnan(X))
    got = (metric.pairwise(X), metric.pairwise(X[:150], X[150:], y_B=y[150:]))
    with every_row():
        want = (metric.pairwise(X), metric.pairwise(X[:150], X[150:], y_B=y[150:]))
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=_plan.ACCURACY, atol=0)
        assert np.array_equal(g == 0, w == 0)


@pytest.mark.parametrize("params", DVDM_FORMS, ids=str)
@pytest.mark.parametrize(("k", "ties"), [(1, "all"), (9, "first")])
def test_dvdm_votes_over_distinct_ranges_equal_every_row(params, k, ties):
    X, y, types = binned_duplicates(1)
    clf = KNeighborsClassifier(k, "dvdm", metric_params=dvdm_params(params, X.shape[1]), ties=ties)
    clf.fit(X[:300], y[:300], types=types)
    Q = X  # three quarters training rows, in 100-odd patterns of ranges
    assert _engine.distinct_rows(clf.metric_._declaration.operand_rows(Q)) is not None
    got = (clf.neighbourhood(Q), clf.predict(Q), clf.kneighbors(Q), clf.predict_loo())
    with every_row():
        want = (clf.neighbourhood(Q), clf.predict(Q), clf.kneighbors(Q), clf.predict_loo())
    assert_same_votes(got, want)


@pytest.mark.parametrize("name", ["ivdm", "wvdm", "hvdm", "vdm", "overlap"])
def test_metrics_reading_raw_values_find_distinct_rows_on_them(name):
    """IVDM and WVDM interpolate a continuous value's probabilities between range midpoints (or training
    values), so two values of one range are not alike to them: their rows are compared as encoded, as every
    metric's that reads the values themselves."""
    X, y, types = binned_duplicates(2)
    metric = make_metric(name).fit(X, y, types=types)
    assert metric._declaration.operand_rows(X) is X
