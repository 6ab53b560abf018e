"""The one-pass protocol of Figures 6 and 7 against fitting VFI5 and k-NN on every width separately."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from lazylib import evaluation, synthetic
from lazylib.encoding import encode
from lazylib.metrics import make_metric
from lazylib.neighbors import KNeighborsClassifier
from lazylib.protocols.guvenir1998.protocol import (
    VOTE_KINDS,
    prefix_accuracy,
    range_euclidean_terms,
    repeated_prefix_accuracy,
    vote_decomposition,
)
from lazylib.vfi import VFI5Classifier


def _mixed(seed):
    rng = np.random.default_rng(seed)
    X, y = synthetic.r_n(2, n_per_region=30, random_state=rng)
    X = synthetic.add_irrelevant(X, 4, kind="uniform", random_state=rng)
    X["rounded"] = np.round(X["f1"] * 3)  # shared values: distance and vote ties
    X.loc[rng.random(len(X)) < 0.1, "irrelevant2"] = np.nan
    X["constant"] = 1.0
    y = pd.Series(np.where(rng.random(len(X)) < 0.1, "2", y.astype(str)))  # a third, rare class
    return X, y


@pytest.mark.parametrize("ties", ["all", "first"])
@pytest.mark.parametrize("seed", [0, 1])
def test_prefix_accuracy_equals_fitting_each_width(seed, ties):
    X, y = _mixed(seed)
    folds = evaluation.kfold(len(X), 5, random_state=seed)
    widths = [1, 2, 4, 7, 8]
    got = prefix_accuracy(X, y, folds, widths, ks=(1, 3, 5), ties=ties).set_index(["fold", "width", "classifier"])
    for w in widths:
        makers = {
            "VFI5": VFI5Classifier,
            **{
                f"{k}-NN": (lambda k=k: KNeighborsClassifier(k, "euclidean", {"normalize": "range"}, ties=ties))
                for k in (1, 3, 5)
            },
        }
        for name, make in makers.items():
            expected = evaluation.cross_validate(make, X.iloc[:, :w], y, folds)
            observed = [got.loc[(f, w, name), "accuracy"] for f in range(len(folds))]
            np.testing.assert_allclose(observed, expected, err_msg=f"{name}, width {w}")


def test_distance_terms_match_the_library_metric():
    X, _ = _mixed(3)
    Z = X.to_numpy(dtype=float)
    S = range_euclidean_terms(Z[:50], Z[50:])
    for w in (1, 5, 8):
        metric = make_metric("euclidean", normalize="range").fit(X.iloc[:50, :w])
        np.testing.assert_allclose(np.sqrt(S[:, :, w - 1]), metric.pairwise(X.iloc[50:, :w]), atol=1e-12)


def test_nominal_features_make_the_distance_heom():
    rng = np.random.default_rng(5)
    X, y = _mixed(5)
    X["colour"] = pd.Categorical(rng.choice(["red", "green", "blue"], len(X)))
    X.loc[rng.random(len(X)) < 0.1, "colour"] = None
    data = encode(X)
    nominal = data.nominal
    S = range_euclidean_terms(data.values[:50], data.values[50:], nominal)
    metric = make_metric("heom").fit(X.iloc[:50], y.iloc[:50])
    np.testing.assert_allclose(np.sqrt(S[:, :, -1]), metric.pairwise(X.iloc[50:]), atol=1e-12)
    # and the one-pass protocol on such data equals fitting k-NN with HEOM on every width
    folds = evaluation.kfold(len(X), 5, random_state=5)
    widths = [3, data.values.shape[1]]
    got = prefix_accuracy(X, y, folds, widths, ks=(1, 3)).set_index(["fold", "width", "classifier"])
    for w in widths:
        for k in (1, 3):
            expected = evaluation.cross_validate(lambda k=k: KNeighborsClassifier(k, "heom"), X.iloc[:, :w], y, folds)
            observed = [got.loc[(f, w, f"{k}-NN"), "accuracy"] for f in range(len(folds))]
            np.testing.assert_allclose(observed, expected, err_msg=f"{k}-NN, width {w}")


def test_repetitions_do_not_depend_on_n_jobs():
    def make(rng):
        X, y = synthetic.r_n(1, n_per_region=20, random_state=rng)
        return synthetic.add_irrelevant(X, 2, kind="uniform", random_state=rng), y

    one = repeated_prefix_accuracy(make, 3, [1, 3], random_state=5)
    two = repeated_prefix_accuracy(make, 3, [1, 3], random_state=5, n_jobs=2)
    pd.testing.assert_frame_equal(one, two)
    assert set(one["classifier"]) == {"VFI5", "1-NN", "3-NN", "5-NN"} and len(one) == 3 * 4 * 2


def test_width_validation():
    X, y = _mixed(0)
    with pytest.raises(ValueError, match="between 1 and the number of features"):
        prefix_accuracy(X, y, evaluation.kfold(len(X), 5, random_state=0), [0, 3])


def test_vfi_alone_with_weka_options_equals_fitting_each_width():
    X, y = _mixed(4)
    folds = evaluation.kfold(len(X), 5, random_state=4)
    params = {"point_intervals": False, "confidence_bias": 0.6}
    got = prefix_accuracy(X, y, folds, [2, 5, 8], ks=(), vfi_params=params)
    assert set(got["classifier"]) == {"VFI5"}
    for w in (2, 5, 8):
        expected = evaluation.cross_validate(lambda: VFI5Classifier(**params), X.iloc[:, :w], y, folds)
        np.testing.assert_allclose(got[got["width"] == w].sort_values("fold")["accuracy"], expected)


def test_random_ties_give_the_expected_accuracy_of_fitting_each_width():
    X, y = _mixed(5)
    X = X[["rounded", "constant", "f1", "irrelevant1"]]  # the rounded feature first: many exact ties
    folds = evaluation.kfold(len(X), 5, random_state=5)
    got = prefix_accuracy(X, y, folds, [1, 2, 4], ks=(1, 3, 5), ties="random").set_index(
        ["fold", "width", "classifier"]
    )
    for w in (1, 2, 4):
        for k in (1, 3, 5):
            for f, (train, test) in enumerate(folds):
                knn = KNeighborsClassifier(k, "euclidean", {"normalize": "range"}, ties="random")
                knn.fit(X.iloc[train, :w], y.iloc[train])
                expected = knn.score(X.iloc[test, :w], y.iloc[test], expected=True)
                np.testing.assert_allclose(
                    got.loc[(f, w, f"{k}-NN"), "accuracy"], expected, atol=1e-12, err_msg=f"{k}-NN, width {w}, fold {f}"
                )


def test_vote_decomposition_counts_against_a_loop():
    X, y = _mixed(7)
    folds = evaluation.kfold(len(X), 4, random_state=7)
    names = ["irrelevant1", "irrelevant2", "irrelevant3", "irrelevant4"]
    got = vote_decomposition(X, y, folds, names, near=0.1)
    np.testing.assert_allclose(got[list(VOTE_KINDS)].sum(axis=1), 1.0)
    expected_acc = evaluation.cross_validate(VFI5Classifier, X, y, folds)
    np.testing.assert_allclose(1 - got["errors"] / got["queries"], expected_acc)
    for f, (train, test) in enumerate(folds):
        clf = VFI5Classifier().fit(X.iloc[train], y.iloc[train])
        votes = clf.feature_votes(X.iloc[test])
        cols = [list(X.columns).index(n) for n in names]
        kinds = {kind: 0 for kind in VOTE_KINDS}
        for q in range(len(test)):
            for j in cols:
                v = votes[q, j]
                if v.sum() == 0:
                    kinds["abstains"] += 1
                elif v.max() >= 1 - 1e-12:
                    kinds["pure"] += 1
                elif max(abs(v - 1 / len(v))) <= 0.1:
                    kinds["about equal"] += 1
                else:
                    kinds["in between"] += 1
        for kind, count in kinds.items():
            assert got.loc[f, kind] == pytest.approx(count / (len(test) * len(cols)))
        assert got.loc[f, "errors with a wrong pure vote"] <= got.loc[f, "errors"]
    with pytest.raises(ValueError, match="does not have"):
        vote_decomposition(X, y, folds, ["nope"])
