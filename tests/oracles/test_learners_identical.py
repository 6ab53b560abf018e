"""The learners sped up by issue #52 item 4 give the bits they gave before (lazylib at commit db5ef50, recorded in
``tests/fixtures/learners_oracle.json`` by ``tests/fixtures/learners_oracle.py``, which says how): the bench's rows
of CA, CACP, NN, MC, FNN, MDW, IG, FD and WOM on the first folds of a few data sets, and the exact bytes of their
intermediate results; and the column-by-column squared distances of the sub-space sweep equal the cumulative sum
they replaced."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from lazylib.subspace import width_distances

FIXTURES = Path(__file__).parents[1] / "fixtures"
sys.path.insert(0, str(FIXTURES))
import learners_oracle  # noqa: E402

ORACLE = json.loads((FIXTURES / "learners_oracle.json").read_text())


def _cumulative(Q, S, widths):
    """The computation :func:`width_distances` replaced: every column's squared differences at once, one
    cumulative sum, the widths gathered, width-major."""
    diff = Q[:, None, :] - S[None, :, :]
    return np.moveaxis(np.cumsum(diff * diff, axis=2)[:, :, np.asarray(widths) - 1], 2, 0)


@pytest.mark.parametrize("seed", range(4))
def test_width_distances_are_the_bits_of_the_cumulative_sum(seed):
    rng = np.random.default_rng(seed)
    J = (1, 5, 13, 36)[seed]
    Q = rng.normal(size=(17, J)) * 10.0 ** rng.integers(-3, 4, J)
    S = np.vstack([Q[:5], rng.normal(size=(40, J))])  # some identical pairs (distance exactly 0)
    for widths in (np.arange(1, J + 1), [J], [J, 1, 1], sorted({1, J // 2 + 1, J})):
        got, want = width_distances(Q, S, widths), _cumulative(Q, S, widths)
        assert got.shape == want.shape
        assert got.tobytes() == want.tobytes(), (seed, widths)


def test_width_distances_of_no_width_are_empty():
    assert width_distances(np.zeros((3, 2)), np.zeros((4, 2)), []).shape == (0, 3, 4)


def test_bench_rows_are_the_recorded_bits():
    got = learners_oracle.bench_rows()
    assert got.keys() == ORACLE["rows"].keys()
    differ = {key: (got[key], want) for key, want in ORACLE["rows"].items() if got[key] != want}
    assert not differ


def test_intermediate_results_are_the_recorded_bytes():
    got = learners_oracle.intermediates()
    assert got == ORACLE["intermediates"]


@pytest.mark.parametrize("metric", ["MDW", "IGWeighted"])  # FD: its sums are never refined here
def test_refinement_by_distinct_pairs_gives_the_bits_of_every_pair(metric):
    """The near-zero refinement recomputes each distinct pair of rows once (``Plan.pair_codes``, the pairs coded
    once for both of its recomputations): the distances, and the leave-one-out search's neighbours and
    accuracies, are those of recomputing every pair."""
    from unittest import mock

    from lazylib import weighting
    from lazylib.datasets import load
    from lazylib.metrics import _plan
    from lazylib.protocols.bench.methods import LooKNeighbors

    d = load("hypothyroid")
    rows = np.random.default_rng(0).choice(len(d.X), 700, replace=False)
    X, y = d.X.iloc[rows].reset_index(drop=True), d.y.iloc[rows].reset_index(drop=True)
    X = pd.concat([X, X.iloc[:40]], ignore_index=True)  # exact duplicates besides those of the data set
    y = pd.concat([y, y.iloc[:40]], ignore_index=True)
    calls = []
    original = _plan.Plan.pair_codes

    def counted(self, r, c):
        coded = original(self, r, c)
        calls.append(0 if coded is None else len(r))
        return coded

    def run():
        m = getattr(weighting, metric)(missing="value").fit(X, y)
        clf = LooKNeighbors(lambda: getattr(weighting, metric)(missing="value")).fit(X, y)
        return m.pairwise(X), m.pairwise(X.iloc[:50], X, y_B=y), clf.loo_.to_numpy(), clf.k_

    with mock.patch.object(_plan.Plan, "pair_codes", counted):
        fast = run()
    with mock.patch.object(_plan.Plan, "pair_codes", lambda self, r, c: None):
        slow = run()
    assert calls and max(calls) > 100  # the refinement coded many pairs
    for a, b in zip(fast, slow):
        assert np.asarray(a).tobytes() == np.asarray(b).tobytes()


@pytest.mark.parametrize("dense", [0, 10**9])  # distinct pairs by sorting their codes, by a table of every code
@pytest.mark.parametrize("metric", ["MDW", "IGWeighted"])
def test_distinct_pairs_give_every_pair_its_own_value(metric, dense):
    """``Plan.distinct_pairs`` of the recomputations the refinement makes (the exact sums and the size of their
    terms), on random pairs with many repeats and distinct values, equals evaluating every pair, bit for bit."""
    from unittest import mock

    from lazylib import weighting
    from lazylib.datasets import load
    from lazylib.metrics import _plan

    d = load("hypothyroid")
    m = getattr(weighting, metric)(missing="value").fit(d.X.iloc[:900], d.y.iloc[:900])
    Zq = m._encode_like_fit(d.X.iloc[900:1300], "A")
    p = m._plan(Zq, m.X_, m.y_)
    rng = np.random.default_rng(1)
    rows, cols = rng.integers(0, len(Zq), 20000), rng.integers(0, len(m.X_), 20000)

    def exact(r, c):
        return _plan.exact_pairs(p.query, p.stored, r, c, p.U, p.V)

    kq, ks = p.row_keys
    assert len(np.unique(kq[rows] * (ks.max() + 1) + ks[cols])) < len(rows) / 2  # many pairs repeat
    for compute in (exact, p.pair_magnitude):
        want = compute(rows, cols)
        assert len(np.unique(want)) > 100
        with mock.patch.object(_plan, "DENSE_CODES", dense):
            got = p.distinct_pairs(rows, cols, compute)
        assert got.tobytes() == want.tobytes()


@pytest.mark.parametrize("dense", [0, 10**9])
@pytest.mark.parametrize("metric", ["MDW", "IGWeighted"])
def test_refine_spreads_each_distinct_pair_s_exact_sum_to_its_own_pairs(metric, dense):
    """``Plan.refine`` codes the pairs once and recomputes the exact sum of each distinct pair among those it
    keeps: on random pairs with many repeats, every sum taken as 0 (so every pair is kept and recomputed, most to
    a value that is not 0), the refined sums equal recomputing every pair, bit for bit."""
    from unittest import mock

    from lazylib import weighting
    from lazylib.datasets import load
    from lazylib.metrics import _plan

    d = load("hypothyroid")
    m = getattr(weighting, metric)(missing="value").fit(d.X.iloc[:900], d.y.iloc[:900])
    p = m._plan(m._encode_like_fit(d.X.iloc[900:1300], "A"), m.X_, m.y_)
    rng = np.random.default_rng(2)
    rows, cols = rng.integers(0, 400, 20000), rng.integers(0, len(m.X_), 20000)
    with mock.patch.object(_plan, "DENSE_CODES", dense):
        assert p.pair_codes(rows, cols) is not None  # the coded path
        got = p.refine(rows, cols, np.zeros(len(rows)))
    with mock.patch.object(_plan.Plan, "pair_codes", lambda self, r, c: None):
        want = p.refine(rows, cols, np.zeros(len(rows)))
    assert (want > 0).sum() > 1000 and len(np.unique(want)) > 100
    assert got.tobytes() == want.tobytes()
