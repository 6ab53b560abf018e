"""lazylib.subspace: the mapping of Payne & Edwards (2000), its K sweep, and 1-NN on projected data."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.exceptions import NotFittedError

from lazylib import datasets, evaluation
from lazylib.neighbors import KNeighborsClassifier
from lazylib.protocols.payne2000.protocol import cv_nn, cv_sweep, paper_rule, scale_fold
from lazylib.subspace import SubspaceMapping, accuracy_by_width, nn_accuracy


def _data(seed=0, n=60, J=5, C=3):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, C, n)
    X = rng.normal(size=(n, J)) + y[:, None] * rng.normal(size=J)
    return X, y


@pytest.mark.parametrize("method", ["ca", "cacp"])
def test_shapes_and_orthonormal_basis(method):
    X, y = _data()
    m = SubspaceMapping(method, n_components=3).fit(X, y)
    assert m.transform(X[:7]).shape == (7, 3)
    assert m.basis_.shape == (5, 5)
    np.testing.assert_allclose(m.basis_.T @ m.basis_, np.eye(5), atol=1e-12)
    assert np.all(np.diff(m.singular_values_) <= 1e-12)


def test_ca_is_the_svd_of_the_centred_data():
    X, y = _data(1)
    m = SubspaceMapping("ca").fit(X)
    _, d, Vt = np.linalg.svd(X - X.mean(axis=0), full_matrices=False)
    np.testing.assert_allclose(m.singular_values_, d)
    np.testing.assert_allclose(np.abs(m.basis_), np.abs(Vt.T), atol=1e-12)
    # queries use the training centroid
    np.testing.assert_allclose(m.transform(X[:1] + 1.0), (X[:1] + 1.0 - X.mean(axis=0)) @ m.components_)


@pytest.mark.parametrize("C", [2, 3, 4])
def test_cacp_rank_is_at_most_c_minus_one(C):
    X, y = _data(2, J=6, C=C)
    m = SubspaceMapping("cacp").fit(X, y)
    assert m.rank_ == C - 1
    assert np.all(m.singular_values_[C - 1 :] == 0)
    # the leading directions span the class prototypes of the centred data
    Xc = X - X.mean(axis=0)
    P = np.stack([Xc[y == c].mean(axis=0) for c in range(C)])
    B = m.basis_[:, : C - 1]
    np.testing.assert_allclose(P @ B @ B.T, P, atol=1e-10)


@pytest.mark.parametrize("null_space", ["svd", "ca", "none"])
def test_null_space_choices(null_space):
    X, y = _data(3, J=6, C=2)
    m = SubspaceMapping("cacp", null_space=null_space).fit(X, y)
    assert m.rank_ == 1
    if null_space == "none":
        assert m.basis_.shape == (6, 1)
        with pytest.raises(ValueError, match="n_components"):
            SubspaceMapping("cacp", n_components=2, null_space="none").fit(X, y)
    else:
        assert m.basis_.shape == (6, 6)
        np.testing.assert_allclose(m.basis_.T @ m.basis_, np.eye(6), atol=1e-10)
    if null_space == "ca":  # the complement is ordered by the data's variance inside it
        Z = (X - X.mean(axis=0)) @ m.basis_[:, 1:]
        assert np.all(np.diff(Z.var(axis=0)) <= 1e-12)


def test_full_rank_ca_is_a_rotation_so_1nn_is_unchanged():
    ds = datasets.load("iris")
    X, y = ds.X.to_numpy(float), pd.factorize(ds.y)[0]
    folds = evaluation.stratified_kfold(y, 5, random_state=0)
    for train, test in folds:
        m = SubspaceMapping("ca").fit(X[train])
        plain = nn_accuracy(X[train], y[train], X[test], y[test])
        full = nn_accuracy(m.transform(X[train]), y[train], m.transform(X[test]), y[test])
        assert plain == full
        D0 = ((X[test, None] - X[None, train]) ** 2).sum(-1)
        D1 = ((m.transform(X[test])[:, None] - m.transform(X[train])[None]) ** 2).sum(-1)
        np.testing.assert_allclose(D0, D1, rtol=1e-9, atol=1e-9)


def test_nn_matches_the_library_classifier():
    ds = datasets.load("wine")
    X = ds.X.to_numpy(float)
    codes, classes = pd.factorize(ds.y, sort=True)
    for train, test in evaluation.stratified_kfold(codes, 4, random_state=1):
        ours = nn_accuracy(X[train], codes[train], X[test], codes[test])
        knn = KNeighborsClassifier(1, "euclidean").fit(ds.X.iloc[train], ds.y.iloc[train])
        assert ours == pytest.approx(knn.score(ds.X.iloc[test], ds.y.iloc[test]))


@pytest.mark.parametrize("ties", ["all", "first", "random"])
@pytest.mark.parametrize("method", ["ca", "cacp"])
def test_sweep_equals_fitting_each_k(method, ties):
    """Oracle: the one-pass sweep against a separate fit and a plain per-pair 1-NN loop for every K."""
    X, y = _data(4, n=40, J=5, C=3)
    X[::7, 2] = X[1, 2]  # shared values
    X[5] = X[6]  # a duplicate instance: an exact distance tie
    folds = evaluation.kfold(len(X), 4, random_state=0)
    res = cv_sweep(X, y, folds, method=method, nested=True, ties=ties)
    for f, (train, test) in enumerate(folds):
        counts = np.bincount(y[train], minlength=3)
        for K in range(1, 6):
            m = SubspaceMapping(method, n_components=K).fit(X[train], y[train])
            Ztr, Zte = m.transform(X[train]), m.transform(X[test])
            correct = 0
            for q, truth in zip(Zte, y[test]):
                d = ((Ztr - q) ** 2).sum(axis=1)
                tied = d <= d.min() * (1 + 1e-9) + 1e-9
                if ties == "first":
                    correct += y[train][np.flatnonzero(tied)[0]] == truth
                elif ties == "random":
                    correct += np.mean(y[train][tied] == truth)
                else:
                    votes = np.bincount(y[train][tied], minlength=3).astype(float)
                    best = np.flatnonzero(votes == votes.max())
                    pred = best[np.argmax(counts[best])]  # then the more frequent class, then the lower index
                    correct += pred == truth
            assert res["by_k"].loc[f, K] == pytest.approx(correct / len(test))
    k, acc = paper_rule(res["by_k"].mean())
    assert (res["k"], res["accuracy"]) == (k, acc)
    assert len(res["nested_accuracy"]) == len(folds)


def test_loo_excludes_self():
    X, y = _data(5, n=30, J=3, C=2)
    loo = accuracy_by_width(X, y)
    for w in range(1, 4):
        correct = 0
        for i in range(len(X)):
            d = ((X[:, :w] - X[i, :w]) ** 2).sum(axis=1)
            d[i] = np.inf
            correct += y[np.argmin(d)] == y[i]
        assert loo[w - 1] == pytest.approx(correct / len(X))


def test_scale_fold_uses_training_statistics_only():
    tr, te = scale_fold([[1.0, 5.0], [3.0, np.nan], [5.0, 5.0]], [[7.0, np.nan]], "sd")
    np.testing.assert_allclose(tr[:, 0], [-1.224744871, 0.0, 1.224744871])
    assert te[0, 0] == pytest.approx(2.449489743)
    assert tr[1, 1] == 0.0 and te[0, 1] == 0.0  # imputed with the training mean; constant column -> 0


def test_cv_nn_with_empty_subset_votes_the_majority():
    X, y = _data(6, n=30, J=3, C=2)
    folds = evaluation.kfold(30, 3, random_state=0)
    acc = cv_nn(X, y, folds, attributes=[np.zeros(3, bool)] * 3)
    major = [np.bincount(y[tr]).argmax() for tr, _ in folds]
    assert acc.tolist() == [np.mean(y[te] == m) for (_, te), m in zip(folds, major)]


def test_validation():
    with pytest.raises(ValueError, match="method"):
        SubspaceMapping("pca").fit(np.ones((3, 2)))
    with pytest.raises(ValueError, match="labels"):
        SubspaceMapping("cacp").fit(np.ones((3, 2)))
    with pytest.raises(ValueError, match="missing"):
        SubspaceMapping().fit([[1.0, np.nan], [2.0, 3.0]])
    with pytest.raises(NotFittedError, match="fitted"):
        SubspaceMapping().transform(np.ones((2, 2)))


@pytest.mark.parametrize(
    "labels, n_classes, message",
    [
        ([0.5, 1.0] * 10, 2, r"y_train must hold class indices 0\.\.1 \(n_classes = 2\), got 0\.5"),
        ([0, 1, 2, 3] * 5, 3, r"y_train must hold class indices 0\.\.2 \(n_classes = 3\), got 3"),
        ([-1, 0] * 10, None, r"y_train must hold class indices whole numbers from 0, got -1"),
        (["a", "b"] * 10, None, "y_train must hold class indices"),
    ],
)
def test_accuracy_by_width_refuses_labels_that_are_not_class_indices(labels, n_classes, message):
    """Issue #40: float labels were truncated (0.5 and 0.7 one class), labels beyond n_classes counted as classes
    of their own, and negative labels failed in np.bincount."""
    Z = np.random.default_rng(0).random((20, 2))
    with pytest.raises(ValueError, match=message):
        accuracy_by_width(Z, np.array(labels), n_classes=n_classes)
    assert accuracy_by_width(Z, np.arange(20) % 2 * 1.0, n_classes=2).shape == (2,)  # integral floats are fine


def test_the_svd_completion_is_set_by_the_data_not_by_rounding():
    # CACP's prototype matrix has C rows but rank C - 1: a completion built from the SVD of the whole matrix
    # takes a Householder reflection of its numerically zero last row, whose direction is set by rounding (it
    # differed between AVX-512 and AVX2 code paths). Built from the C - 1 class directions alone, a perturbation
    # of the data at the level of rounding moves no distance in any number of dimensions by more than rounding.
    from lazylib.datasets import load

    ds = load("wine")
    X = ds.X.to_numpy(float)
    X = (X - X.min(0)) / np.ptp(X, 0)
    rng = np.random.default_rng(0)
    nudged = X * (1 + 4e-16 * rng.choice([-1.0, 1.0], size=X.shape))
    for null_space in ("svd", "ca"):
        distances = []
        for data in (X, nudged):
            Z = SubspaceMapping("cacp", null_space=null_space).fit(data, ds.y).transform(X)
            distances.append(np.cumsum((Z[:40, None, :] - Z[None, :, :]) ** 2, axis=2))  # every K at once
        np.testing.assert_allclose(distances[0], distances[1], rtol=0, atol=1e-9)
