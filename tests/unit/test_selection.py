"""lazylib.selection: the MC wrapper and the C4.5 filter of Payne & Edwards (2000, section 4)."""

from __future__ import annotations

import sys
import types as pytypes

import numpy as np
import pandas as pd
import pytest

from lazylib import evaluation
from lazylib.protocols.payne2000.protocol import cv_selection
from lazylib.selection import MonteCarloSelector, c45_attributes, loo_subset_accuracy, random_subsets


def _loo_loop(X, y, mask, ties="all"):
    """Independent leave-one-out 1-NN. ties="all": every instance at the nearest distance votes, then the class
    more frequent in y, then the lower index; "first": the first tied instance; "random": the expected
    correctness of a uniform choice among the tied."""
    counts = np.bincount(y)
    correct = 0
    for i in range(len(X)):
        d = ((X[:, mask] - X[i, mask]) ** 2).sum(axis=1)
        d[i] = np.inf
        tied = d <= d.min() * (1 + 1e-9) + 1e-9
        if ties == "first":
            correct += y[np.flatnonzero(tied)[0]] == y[i]
            continue
        if ties == "random":
            correct += np.mean(y[tied] == y[i])
            continue
        votes = np.bincount(y[tied], minlength=len(counts))
        best = np.flatnonzero(votes == votes.max())
        correct += best[np.argmax(counts[best])] == y[i]
    return correct / len(X)


@pytest.mark.parametrize("ties", ["all", "first", "random"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_loo_subset_accuracy_matches_a_loop(seed, ties):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, 45)
    X = np.round(rng.normal(size=(45, 5)) + y[:, None] * 0.5, 1)  # rounded: many exact ties
    X[3] = X[4]
    masks = random_subsets(5, 31, rng)
    got = loo_subset_accuracy(X, y, masks, ties=ties)
    for mask, acc in zip(masks, got):
        assert acc == pytest.approx(_loo_loop(X, y, mask, ties))


@pytest.mark.parametrize("ties", ["all", "first", "random"])
def test_loo_subset_accuracy_with_a_class_absent_from_the_labels(ties):
    """Classes 0 and 2 only: the per-class minima are one reduction over class-sorted columns, and the empty
    class between them must stay out of every vote."""
    rng = np.random.default_rng(3)
    y = 2 * rng.integers(0, 2, 40)
    X = np.round(rng.normal(size=(40, 4)) + y[:, None] * 0.3, 1)
    masks = random_subsets(4, 15, rng)
    got = loo_subset_accuracy(X, y, masks, ties=ties)
    for mask, acc in zip(masks, got):
        assert acc == pytest.approx(_loo_loop(X, y, mask, ties))


def test_random_subsets():
    rng = np.random.default_rng(0)
    every = random_subsets(3, 10, rng)
    assert len(every) == 7 and every[0].all() and len({r.tobytes() for r in every}) == 7
    some = random_subsets(12, 50, rng)
    assert some.shape == (50, 12) and some[0].all() and some.any(axis=1).all()
    assert len({r.tobytes() for r in some}) == 50


def test_mc_prefers_fewer_attributes_on_ties_and_is_seeded():
    y = np.repeat([0, 1], 15)
    X = np.column_stack([y, y, np.zeros(30)]).astype(float)  # any subset containing attribute 0 or 1 is perfect
    sel = MonteCarloSelector(n_subsets=20, random_state=0).fit(X, y)
    assert sel.score_ == 1.0 and sel.support_.sum() == 1 and sel.support_[0]  # first of the smallest
    rng = np.random.default_rng(1)
    Z = rng.normal(size=(40, 10)) + np.repeat([0, 1], 20)[:, None] * (np.arange(10) < 2)
    a = MonteCarloSelector(30, random_state=5).fit(Z, np.repeat([0, 1], 20))
    b = MonteCarloSelector(30, random_state=5).fit(Z, np.repeat([0, 1], 20))
    assert a.support_.tolist() == b.support_.tolist()
    assert a.score_ == pytest.approx(_loo_loop(Z, np.repeat([0, 1], 20), a.support_))
    assert a.score_ == a.scores_.max()


def test_mc_rejects_missing_values():
    with pytest.raises(ValueError, match="missing"):
        MonteCarloSelector().fit([[1.0, np.nan], [0.0, 1.0]], [0, 1])


class _StubTree:
    """Stands for lazylib.trees.C45Classifier: 'uses' the attributes whose class means differ most."""

    def __init__(self, **params):
        self.params = params

    def fit(self, X, y, types=None):
        y = np.asarray(y)
        gap = (X[y == y[0]].mean() - X[y != y[0]].mean()).abs()
        self.used_attributes_ = list(gap[gap > 0.5].index)
        return self


def test_fnn_keeps_the_tree_attributes(monkeypatch):
    try:
        import lazylib.trees  # noqa: F401
    except ImportError:
        monkeypatch.setitem(sys.modules, "lazylib.trees", pytypes.SimpleNamespace(C45Classifier=_StubTree))
    else:
        monkeypatch.setattr("lazylib.trees.C45Classifier", _StubTree)
    rng = np.random.default_rng(0)
    y = pd.Series(np.repeat(["a", "b"], 20))
    X = pd.DataFrame({"good": np.repeat([0.0, 2.0], 20) + 0.1 * rng.random(40), "noise": rng.random(40)})
    assert c45_attributes(X, y).tolist() == [True, False]
    folds = evaluation.kfold(40, 4, random_state=0)
    res = cv_selection(X, y, folds, method="fnn")
    assert res["n_attributes"].tolist() == [1] * 4 and res["fold_accuracy"].tolist() == [1.0] * 4


def test_cv_selection_mc():
    rng = np.random.default_rng(3)
    y = np.repeat([0, 1], 30)
    X = pd.DataFrame(rng.normal(size=(60, 6)) + y[:, None] * (np.arange(6) < 1) * 3)
    res = cv_selection(X, y, evaluation.kfold(60, 5, random_state=0), method="mc", n_subsets=20, random_state=0)
    assert len(res["masks"]) == 5 and res["fold_accuracy"].mean() > 0.8
    assert all(m[0] for m in res["masks"])
    with pytest.raises(ValueError, match="method"):
        cv_selection(X, y, [], method="relief")


def test_loo_subset_accuracy_refuses_labels_that_are_not_class_indices_and_masks_that_are_not_masks():
    """Issue #40: labels were cast to integers (0.5 and 0.7 one class, silently), and an index list such as
    [0, 2] was read as a boolean mask (attributes 1 and 2 for 0 and 2)."""
    from lazylib.selection import loo_subset_accuracy

    X = np.random.default_rng(0).random((12, 3))
    y = np.arange(12) % 2
    with pytest.raises(ValueError, match=r"y must hold class indices whole numbers from 0, got 0\.5"):
        loo_subset_accuracy(X, y + 0.5, np.ones((1, 3), bool))
    with pytest.raises(ValueError, match=r"masks must be boolean rows .* got values \[0, 2\]"):
        loo_subset_accuracy(X, y, np.array([[0, 2, 2]]))
    with pytest.raises(ValueError, match=r"y must hold one class index per row of X \(12\), got 5"):
        loo_subset_accuracy(X, y[:5], np.ones((1, 3), bool))
    as_ints = loo_subset_accuracy(X, y, np.array([[1, 0, 1]]))
    assert as_ints.tolist() == loo_subset_accuracy(X, y, np.array([[True, False, True]])).tolist()


def test_scoring_blocks_stay_within_the_cache_bound():
    from lazylib.selection import CACHE_BLOCK_BYTES, _block_sizes

    for n, J, S in [(664, 9, 100), (5_000, 9, 100), (16_155, 9, 100), (200_000, 36, 100)]:
        subsets, queries = _block_sizes(n, J, S, 64 * 2**20)
        assert 1 <= subsets <= S and queries >= 1
        if (J + 2) * n * 8 <= CACHE_BLOCK_BYTES:  # one query and one subset fit
            assert (J + 2 * subsets) * n * 8 * queries <= CACHE_BLOCK_BYTES
    assert _block_sizes(664, 9, 100, 2**30)[1] > 1  # small data: several queries a block
