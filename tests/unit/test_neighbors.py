"""k-NN: agreement with scikit-learn, the tie rule, leave-one-out choice of k, validation."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.exceptions import NotFittedError

from lazylib.datasets import load
from lazylib.neighbors import KNeighborsClassifier, loo_accuracy_by_k, select_k_loo


@pytest.mark.parametrize("k", [1, 3, 5])
def test_euclidean_knn_agrees_with_scikit_learn(k):
    from sklearn.neighbors import KNeighborsClassifier as SK

    rng = np.random.default_rng(k)
    X = rng.normal(size=(300, 4))  # continuous: no distance ties
    y = rng.integers(0, 3, 300)
    Xq = rng.normal(size=(200, 4))
    ours = KNeighborsClassifier(k, "euclidean").fit(X, y, types=["continuous"] * 4)
    theirs = SK(n_neighbors=k, algorithm="brute").fit(X, y)
    d_ours, i_ours = ours.kneighbors(Xq)
    d_theirs, i_theirs = theirs.kneighbors(Xq)
    np.testing.assert_array_equal(i_ours, i_theirs)
    np.testing.assert_allclose(d_ours, d_theirs, rtol=1e-12)
    votes = np.apply_along_axis(np.bincount, 1, y[i_ours], minlength=3)
    clear = np.sort(votes, axis=1)[:, -1] > np.sort(votes, axis=1)[:, -2]  # no vote tie
    np.testing.assert_array_equal(ours.predict(Xq)[clear], theirs.predict(Xq)[clear])


def test_tie_rule_all_tied_neighbours_vote_then_frequency_then_index():
    # stored: two of class 'b' and one of class 'a' all at distance 1 from the query; one 'a' at distance 0.5
    X = np.array([[0.5], [1.0], [-1.0], [1.0], [3.0]])
    y = np.array(["a", "b", "b", "a", "a"])
    q = np.array([[0.0]])
    # k = 1: the single nearest ('a' at 0.5) decides
    assert KNeighborsClassifier(1, "manhattan").fit(X, y, types=["continuous"]).predict(q)[0] == "a"
    # k = 2: the k-th distance is 1, so all three at distance 1 vote with the nearest: a=2, b=2 -> tie; 'a' is
    # more frequent in training (3 vs 2) and wins
    assert KNeighborsClassifier(2, "manhattan").fit(X, y, types=["continuous"]).predict(q)[0] == "a"
    # "first" keeps exactly k = 2 neighbours in stored order: 'a' (0.5) and 'b' (1.0, index 1): tie -> lowest
    # class index ('a' < 'b')
    first = KNeighborsClassifier(2, "manhattan", ties="first").fit(X, y, types=["continuous"])
    assert first.predict(q)[0] == "a"
    # equal class frequencies: the lowest class index wins a vote tie
    X2 = np.array([[1.0], [-1.0]])
    assert KNeighborsClassifier(1, "manhattan").fit(X2, ["b", "a"], types=["continuous"]).predict(q)[0] == "a"


def test_tie_rule_counts_all_ties_on_overlap():
    # three stored instances tie at overlap distance 1; two of class 1
    X = np.array([[0, 1], [1, 0], [0, 5], [5, 5]], dtype=float)
    y = np.array([0, 1, 1, 0])
    pred = KNeighborsClassifier(1, "overlap").fit(X, y, types=["nominal"] * 2).predict(np.array([[0.0, 0.0]]))
    assert pred[0] == 1  # votes: class 0 once (row 0), class 1 twice (rows 1, 2)


def test_loo_from_one_matrix_equals_brute_force_refits():
    ds = load("lymphography")
    X, y = ds.X.iloc[:70], ds.y.iloc[:70]
    ks = [1, 2, 3, 5, 7]
    fast = loo_accuracy_by_k(X, y, ks, metric="hvdm")
    # brute force: for each k and each instance, one distance row and a vote among the other instances, with
    # the metric fitted once on the whole training set (the metric is part of the fitted model; the metric
    # itself is checked against per-pair loops in tests/oracles)
    metric = KNeighborsClassifier(1, "hvdm").fit(X, y).metric_
    codes = y.cat.codes.to_numpy()
    counts = np.bincount(codes)
    for k in ks:
        hits = 0
        for i in range(len(X)):
            d = metric.pairwise(X.iloc[[i]], X)[0]
            d[i] = np.inf
            kth = np.sort(d)[k - 1]
            votes = np.bincount(codes[d <= kth * (1 + 1e-9)], minlength=len(counts))
            best = [c for c in range(len(counts)) if votes[c] == votes.max()]
            winner = sorted(best, key=lambda c: (-counts[c], c))[0]
            hits += winner == codes[i]
        assert fast[k] == pytest.approx(hits / len(X)), k
    assert select_k_loo(X, y, ks, metric="hvdm") == int(fast.idxmax())


def test_validation():
    X = np.zeros((3, 1))
    with pytest.raises(ValueError, match="larger than the training set"):
        KNeighborsClassifier(5, "overlap").fit(X, [0, 1, 0], types=["nominal"])
    with pytest.raises(ValueError, match="ties"):
        KNeighborsClassifier(1, "overlap", ties="bogus").fit(X, [0, 1, 0], types=["nominal"])
    with pytest.raises(ValueError, match="unknown metric"):
        KNeighborsClassifier(1, "nope").fit(X, [0, 1, 0], types=["nominal"])
    with pytest.raises(NotFittedError, match="not fitted"):
        KNeighborsClassifier().predict(X)


def test_bounded_memory_chunks_give_same_predictions():
    ds = load("house-votes-84")
    a = KNeighborsClassifier(3, "vdm").fit(ds.X, ds.y).predict(ds.X)
    b = KNeighborsClassifier(3, "vdm", metric_params={"working_memory": 0.01}).fit(ds.X, ds.y).predict(ds.X)
    np.testing.assert_array_equal(a, b)


def test_knn_makers_give_fresh_classifiers_and_reject_shared_metric_objects():
    from lazylib.metrics import make_metric
    from lazylib.neighbors import knn_makers
    from lazylib.weighting import LearnedWOM

    makers = knn_makers({"MVDM": "mvdm", "WOM": LearnedWOM}, n_neighbors=3, ties="first")
    a, b = makers["WOM"](), makers["WOM"]()
    assert a.metric is not b.metric and a.n_neighbors == 3 and a.ties == "first"
    assert makers["MVDM"]().metric == "mvdm"
    with pytest.raises(ValueError, match="metric names or callables"):
        knn_makers({"MVDM": make_metric("mvdm")})


@pytest.mark.parametrize("metric", ["overlap", "mvdm", "hvdm"])
def test_neighbourhood_counts_the_instances_at_the_kth_distance(metric):
    ds = load("lymphography")
    train, test = np.arange(0, len(ds.y), 2), np.arange(1, len(ds.y), 2)
    clf = KNeighborsClassifier(1, metric).fit(ds.X.iloc[train], ds.y.iloc[train])
    nb = clf.neighbourhood(ds.X.iloc[test])
    D = clf.metric_.pairwise(ds.X.iloc[test])
    nearest = D <= D.min(axis=1, keepdims=True) * (1 + 1e-9)
    expected = np.stack([(nearest & (clf.y_ == c)).sum(axis=1) for c in range(len(clf.classes_))], axis=1)
    np.testing.assert_array_equal(nb.tied, expected)
    assert (nb.strict == 0).all()
