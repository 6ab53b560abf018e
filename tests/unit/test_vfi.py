"""VFI5: the 4C + 1 bound, invariance to increasing rescaling, missing and unseen values, absent classes,
tie rule and validation."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from lazylib.metrics import NotFittedError
from lazylib.vfi import VFI5Classifier


def _data(n=120, m=4, C=3, seed=0):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, m)) + np.arange(m), rng.integers(0, C, n)


@pytest.mark.parametrize("C", [2, 3, 5])
def test_at_most_4c_plus_1_intervals_reached_when_end_points_distinct(C):
    X, y = _data(300, 3, C, seed=C)
    clf = VFI5Classifier().fit(X, y, types=["continuous"] * 3)
    # continuous values: the 2C end points are distinct, so the bound is reached
    assert clf.n_intervals_.tolist() == [4 * C + 1] * 3
    Xi = np.round(X)  # many shared values: end points coincide, fewer intervals
    clf = VFI5Classifier().fit(Xi, y, types=["integer"] * 3)
    assert (clf.n_intervals_ <= 4 * C + 1).all()
    for name, table in clf.intervals_.items():
        assert len(table) == clf.n_intervals_[int(name)]
        assert (np.diff(table["lower"]) >= 0).all()


def test_every_training_value_counted_once():
    X, y = _data()
    X[::7, 1] = np.nan
    clf = VFI5Classifier().fit(X, y, types=["continuous"] * 4)
    for f, table in enumerate(clf.intervals_.values()):
        counts = table.filter(like="count").to_numpy()
        assert counts.sum() == np.isfinite(X[:, f]).sum()


@pytest.mark.parametrize("transform", [np.exp, lambda x: x**3, lambda x: 5 * x - 2, np.arctan])
def test_predictions_invariant_under_increasing_rescaling(transform):
    X, y = _data(seed=3)
    Xq = _data(50, seed=4)[0]
    types = ["continuous"] * 4
    base = VFI5Classifier().fit(X, y, types=types)
    moved = VFI5Classifier().fit(transform(X), y, types=types)
    np.testing.assert_allclose(moved.class_votes(transform(Xq)), base.class_votes(Xq))
    np.testing.assert_array_equal(moved.predict(transform(Xq)), base.predict(Xq))


def test_missing_value_abstains_at_classification_and_is_skipped_in_training():
    X, y = _data(seed=5)
    X[::5, 2] = np.nan
    types = ["continuous"] * 4
    clf = VFI5Classifier().fit(X, y, types=types)
    q = _data(30, seed=6)[0]
    q[:, 2] = np.nan
    without = VFI5Classifier().fit(np.delete(X, 2, axis=1), y, types=types[:3])
    np.testing.assert_allclose(clf.class_votes(q), without.class_votes(np.delete(q, 2, axis=1)))
    assert (clf.feature_votes(q)[:, 2] == 0).all()
    # training: feature 2's end points are those of the known values only
    lo = min(np.nanmin(X[y == c, 2]) for c in range(3))
    assert clf.intervals_["2"]["lower"].iloc[1] == lo


def test_unseen_nominal_value_abstains():
    X = pd.DataFrame(
        {"colour": pd.Categorical(["r", "g", "r", "b"], categories=["r", "g", "b", "w"]), "size": [1.0, 2.0, 3.0, 4.0]}
    )
    y = ["x", "y", "x", "y"]
    clf = VFI5Classifier().fit(X.iloc[:3], y[:3])  # "b" and "w" unseen in training
    table = clf.intervals_["colour"]
    assert table["value"].tolist() == ["r", "g"] and (table["closed"] == "both").all()
    q = pd.DataFrame(
        {"colour": pd.Categorical(["b", "w", "g"], categories=["r", "g", "b", "w"]), "size": [10.0, 10.0, 10.0]}
    )
    fv = clf.feature_votes(q)
    assert (fv[:2, 0] == 0).all() and fv[2, 0].tolist() == [0.0, 1.0]


def test_nominal_codes_are_labels_not_numbers():
    # relabelling the values of a nominal feature changes nothing
    rng = np.random.default_rng(7)
    codes = rng.integers(0, 5, 80).astype(float)
    y = (codes % 2 == 0).astype(int) ^ (rng.random(80) < 0.2)
    perm = np.array([3.0, 0.0, 4.0, 1.0, 2.0])
    a = VFI5Classifier().fit(codes[:, None], y, types=["nominal"])
    b = VFI5Classifier().fit(perm[codes.astype(int)][:, None], y, types=["nominal"])
    q = np.arange(5.0)[:, None]
    np.testing.assert_allclose(a.class_votes(q), b.class_votes(perm[:, None]))


def test_class_absent_from_training_fold():
    X, y = _data(seed=8)
    labels = pd.Series(pd.Categorical(np.array(["p", "q", "r"])[y], categories=["p", "q", "r", "s"]))
    train = labels != "q"
    clf = VFI5Classifier().fit(X[train.to_numpy()], labels[train], types=["continuous"] * 4)
    assert clf.classes_.tolist() == ["p", "r"]
    assert set(clf.predict(X)) <= {"p", "r"}
    assert 0 < clf.score(X, labels) < 1


def test_tie_goes_to_more_frequent_class_then_lowest_index():
    X = np.array([[0.0], [0.0], [0.0], [1.0], [1.0]])
    clf = VFI5Classifier().fit(X, ["a", "b", "b", "a", "b"], types=["continuous"])
    # every query value beyond the end points: all abstain -> b (3 of 5 in training)
    assert clf.predict(np.array([[5.0]])).tolist() == ["b"]
    clf = VFI5Classifier().fit(X[[0, 1, 3, 4]], ["a", "b", "a", "b"], types=["continuous"])
    # equal class sizes and equal votes on both points -> the lowest class index, "a"
    assert clf.predict(np.array([[0.0], [1.0]])).tolist() == ["a", "a"]


def test_validation_errors():
    X, y = _data()
    with pytest.raises(NotFittedError, match="not fitted"):
        VFI5Classifier().predict(X)
    clf = VFI5Classifier().fit(X, y, types=["continuous"] * 4)
    with pytest.raises(ValueError, match="X has 3 features, but VFI5Classifier is expecting 4"):
        clf.predict(X[:, :3])
    with pytest.raises(ValueError, match="tie_tolerance"):
        VFI5Classifier(tie_tolerance=-1).fit(X, y, types=["continuous"] * 4)
    # an array without types is read as scikit-learn reads one: every column continuous
    np.testing.assert_array_equal(VFI5Classifier().fit(X, y).predict(X), clf.predict(X))
    with pytest.raises(ValueError, match="at least two|two classes|classes"):
        VFI5Classifier().fit(X, np.zeros(len(X)), types=["continuous"] * 4)


@pytest.mark.parametrize("params", [{}, {"point_intervals": False, "confidence_bias": 0.6}])
def test_a_chunk_of_one_row_gives_the_same_bits(params):
    # 1e-4 MiB is 104 bytes, less than one row's temporaries: training and classification go one row at a time
    X, y = _data(seed=9)
    X[::7, 1] = np.nan
    X[:, 3] = np.round(X[:, 3])  # a nominal feature
    types = ["continuous"] * 3 + ["nominal"]
    whole = VFI5Classifier(**params).fit(X, y, types=types)
    rows = VFI5Classifier(**params, working_memory=1e-4).fit(X, y, types=types)
    np.testing.assert_array_equal(rows.counts_, whole.counts_)
    np.testing.assert_array_equal(rows.votes_, whole.votes_)
    np.testing.assert_array_equal(rows.feature_votes(X), whole.feature_votes(X))
    np.testing.assert_array_equal(rows.class_votes(X), whole.class_votes(X))
    np.testing.assert_array_equal(rows.predict(X), whole.predict(X))
    np.testing.assert_allclose(whole.class_votes(X), whole.feature_votes(X).sum(axis=1))
    for bad in (0, -1.0, float("inf"), "64", True):
        with pytest.raises(ValueError, match="working_memory"):
            VFI5Classifier(working_memory=bad).fit(X, y, types=types)


def test_tables_and_classification_stay_within_working_memory():
    """One nominal feature with 20,000 values beside 199 binary ones: tables padded to the widest feature took
    200 x 40,001 slots per class (fit peaked near 600 MiB on 30 MiB of data, predict near 330 MiB); unpadded,
    the tables hold 2 P + m slots and each chunk of instances stays within ``working_memory``."""
    import tracemalloc

    rng = np.random.default_rng(0)
    n, m = 20_000, 200
    X = rng.integers(0, 2, (n, m)).astype(float)
    X[:, 0] = rng.permutation(n)
    y = rng.integers(0, 2, n)
    types = ["nominal"] + ["continuous"] * (m - 1)
    bound = 4 * 2**20
    queries = X[:2000].copy()
    tracemalloc.start()
    clf = VFI5Classifier(working_memory=bound / 2**20).fit(X, y, types=types)
    fit_peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.reset_peak()
    votes = clf.class_votes(queries)
    predict_peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert clf.counts_.shape == (2 * (n + 2 * (m - 1)) + m, 2)
    assert fit_peak < 3 * X.nbytes + 2 * bound
    assert predict_peak < 2 * queries.nbytes + 2 * bound
    np.testing.assert_allclose(votes[:5], clf.feature_votes(queries[:5]).sum(axis=1))


def test_votes_sum_to_one_or_abstain_and_outer_ranges_are_empty():
    X, y = _data(seed=10)
    X[::6, 0] = np.nan
    clf = VFI5Classifier().fit(np.round(X, 1), y, types=["continuous"] * 4)
    for table in clf.intervals_.values():
        votes = table.filter(like="vote").sum(axis=1).to_numpy()
        held = table.filter(like="count").sum(axis=1).to_numpy()
        np.testing.assert_allclose(votes, np.where(held > 0, 1.0, 0.0))
        # the two unbounded ranges lie beyond every end point, so no training value falls there
        assert held[0] == 0 and held[-1] == 0
        assert np.isinf(table["lower"].iloc[0]) and np.isinf(table["upper"].iloc[-1])


def test_vote_divides_by_the_whole_class_size_missing_values_included():
    # class a: 4 instances, 2 of them missing on the feature; class b: 2 instances
    X = np.array([[1.0], [1.0], [np.nan], [np.nan], [1.0], [2.0]])
    clf = VFI5Classifier().fit(X, ["a", "a", "a", "a", "b", "b"], types=["continuous"])
    point = clf.intervals_["0"].query("lower == 1 and upper == 1")
    # counts 2 of a (of 4) and 1 of b (of 2): 1/2 and 1/2 before normalising
    assert point[["count a", "count b"]].to_numpy().tolist() == [[2, 1]]
    np.testing.assert_allclose(point[["vote a", "vote b"]].to_numpy(), [[0.5, 0.5]])


def test_class_votes_columns_follow_classes():
    X, y = _data(seed=11)
    names = np.array(["zeta", "alpha", "mid"])[y]
    clf = VFI5Classifier().fit(X, names, types=["continuous"] * 4)
    scores = clf.class_votes(X)
    assert scores.shape == (len(X), len(clf.classes_))
    picked = np.asarray(clf.classes_, dtype=object)[scores.argmax(axis=1)]
    clear = np.sort(scores, axis=1)[:, -1] - np.sort(scores, axis=1)[:, -2] > 1e-6
    np.testing.assert_array_equal(clf.predict(X)[clear], picked[clear])
    # relabelling the classes permutes the columns, nothing else
    other = VFI5Classifier().fit(
        X, pd.Series(names).map({"zeta": "z", "alpha": "a", "mid": "m"}), types=["continuous"] * 4
    )
    order = [list(other.classes_).index({"zeta": "z", "alpha": "a", "mid": "m"}[c]) for c in clf.classes_]
    np.testing.assert_allclose(other.class_votes(X)[:, order], scores)


def test_value_inside_a_range_and_on_an_end_point():
    X = np.array([[0.0], [2.0], [1.0], [3.0]])
    clf = VFI5Classifier().fit(X, ["a", "a", "b", "b"], types=["continuous"])
    # end points 0, 2 (a) and 1, 3 (b): (1, 2) holds no training value; [1] holds one b; (0, 1) none
    fv = clf.feature_votes(np.array([[1.5], [1.0], [0.5], [2.0]]))[:, 0]
    np.testing.assert_allclose(fv, [[0, 0], [0, 1], [0, 0], [1, 0]])


def test_weka_option_validation():
    X, y = _data()
    types = ["continuous"] * 4
    for bad in (0, -1.0, float("inf"), "0.6", True):
        with pytest.raises(ValueError, match="confidence_bias"):
            VFI5Classifier(confidence_bias=bad).fit(X, y, types=types)
    with pytest.raises(ValueError, match="point_intervals"):
        VFI5Classifier(point_intervals="no").fit(X, y, types=types)


def test_weka_half_counts_on_a_small_example():
    # end points 0, 2 (a) and 1, 3 (b); the value 1.5 of class a lies inside (1, 2)
    X = np.array([[0.0], [1.5], [2.0], [1.0], [3.0]])
    clf = VFI5Classifier(point_intervals=False).fit(X, ["a", "a", "a", "b", "b"], types=["continuous"])
    table = clf.intervals_["0"]
    assert table["closed"].tolist() == ["open"] * 5 and clf.n_intervals_.tolist() == [5]
    # ranges (-inf,0) (0,1) (1,2) (2,3) (3,inf): halves of the end-point values either side
    np.testing.assert_allclose(table["count a"], [0.5, 0.5, 1.5, 0.5, 0.0])
    np.testing.assert_allclose(table["count b"], [0.0, 0.5, 0.5, 0.5, 0.5])
    # a query on the end point 1 gets the mean of (0,1) and (1,2): a 1.0, b 0.5 -> shares 1/3 and 1/4
    np.testing.assert_allclose(clf.feature_votes(np.array([[1.0]]))[0, 0], [4 / 7, 3 / 7])


def test_weka_tie_break_gives_a_tie_to_the_lowest_index():
    X = np.array([[0.0], [0.0], [0.0], [1.0], [1.0]])
    y = ["a", "b", "b", "a", "b"]
    # every feature abstains beyond the end points: "frequent" -> b (3 of 5), "first" -> a (index 0)
    assert VFI5Classifier().fit(X, y, types=["continuous"]).predict(np.array([[5.0]])).tolist() == ["b"]
    first = VFI5Classifier(tie_break="first").fit(X, y, types=["continuous"])
    assert first.predict(np.array([[5.0]])).tolist() == ["a"]
    with pytest.raises(ValueError, match="tie_break"):
        VFI5Classifier(tie_break="random").fit(X, y, types=["continuous"])


def test_predict_proba_is_the_normalised_vote():
    X, y = _data(seed=3)
    types = ["continuous"] * 4
    clf = VFI5Classifier().fit(X, y, types=types)
    Xq = np.vstack([X[:20], np.full((1, 4), 1e9)])  # the last query lies beyond every end point: all abstain
    proba = clf.predict_proba(Xq)
    votes = clf.class_votes(Xq)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    np.testing.assert_allclose(proba[:-1], votes[:-1] / votes[:-1].sum(axis=1, keepdims=True))
    np.testing.assert_allclose(proba[-1], 1 / 3)  # no feature votes: uniform
    # with every feature voting once, the summed votes are (known features) x proba
    np.testing.assert_allclose(votes[:20], 4 * proba[:20])
    assert (np.argmax(proba[:-1], axis=1) == clf.predict_indices(Xq[:-1])).all()


def test_weka_empty_intervals_vote_instead_of_abstaining():
    # nominal feature 1: value 2 never seen in training; class sizes 1 (a) and 3 (b)
    X = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 1.0], [3.0, 0.0]])
    y = ["a", "b", "b", "b"]
    types = ["continuous", "nominal"]
    q = np.array([[np.nan, 2.0]])
    assert VFI5Classifier().fit(X, y, types=types).class_votes(q).tolist() == [[0.0, 0.0]]  # abstains
    plain = VFI5Classifier(point_intervals=False).fit(X, y, types=types)
    np.testing.assert_allclose(plain.class_votes(q), [[0.5, 0.5]])  # Weka -C: 1/C each
    weighted = VFI5Classifier(point_intervals=False, confidence_bias=0.6).fit(X, y, types=types)
    tiny = 1e-11
    share = np.array([tiny / (1 + tiny), tiny / (3 + tiny)])
    p = share / share.sum()  # 3/4 and 1/4: towards the smaller class
    entropy = -(p * np.log2(p)).sum()
    np.testing.assert_allclose(weighted.class_votes(q), [p * max(1.0, entropy**-0.6)])
    assert weighted.predict(q).tolist() == ["a"]


def test_feature_weights_multiply_each_feature_vote():
    X, y = _data(seed=4)
    types = ["continuous"] * 4
    w = np.array([2.0, 0.0, 1.0, 0.5])
    plain = VFI5Classifier().fit(X, y, types=types)
    weighted = VFI5Classifier(feature_weights=w).fit(X, y, types=types)
    np.testing.assert_allclose(weighted.feature_votes(X), plain.feature_votes(X) * w[None, :, None])
    np.testing.assert_allclose(weighted.class_votes(X), (plain.feature_votes(X) * w[None, :, None]).sum(1))
    # a zero weight is the same as leaving the feature out
    dropped = VFI5Classifier().fit(X[:, [0, 2, 3]], y, types=types[:3])
    np.testing.assert_allclose(
        VFI5Classifier(feature_weights=[1, 0, 1, 1]).fit(X, y, types=types).class_votes(X),
        dropped.class_votes(X[:, [0, 2, 3]]),
    )
    for bad in ([1.0, 2.0], [1, -1, 1, 1], [1, np.nan, 1, 1]):
        with pytest.raises(ValueError, match="feature_weights"):
            VFI5Classifier(feature_weights=bad).fit(X, y, types=types)


def test_decision_function_is_one_column_for_two_classes_and_class_votes_for_more():
    """scikit-learn's convention: two classes give the votes of classes_[1] minus those of classes_[0]; a
    positive score predicts classes_[1]. More classes give every class's summed votes."""
    X, y = _data(seed=3)
    two = VFI5Classifier().fit(X, np.where(y == 0, "no", "yes"), types=["continuous"] * 4)
    votes = two.class_votes(X)
    score = two.decision_function(X)
    assert score.shape == (len(X),)
    np.testing.assert_allclose(score, votes[:, 1] - votes[:, 0])
    clear = np.abs(score) > 1e-6
    np.testing.assert_array_equal(two.predict(X)[clear], two.classes_[(score[clear] > 0).astype(int)])
    three = VFI5Classifier().fit(X, y, types=["continuous"] * 4)
    np.testing.assert_array_equal(three.decision_function(X), three.class_votes(X))


@pytest.mark.parametrize("bias", [40, 100.0, np.float32(60)])
def test_a_large_confidence_bias_keeps_votes_finite_and_untied(bias):
    """Weights of nearly pure intervals (entropy about 1e-10) pass 1e308 for a bias of 40 or more: the votes
    are then computed relative to each query's largest weight: finite, and not all tied."""
    X, y = _data(seed=5)
    big = VFI5Classifier(confidence_bias=bias).fit(X, y, types=["continuous"] * 4)
    assert np.isfinite(big.log_weights_).all() and not np.isfinite(big.weights_).all()
    votes = big.class_votes(X)
    assert np.isfinite(votes).all() and np.isfinite(big.predict_proba(X)).all()
    tied = np.sort(votes, axis=1)[:, -1] - np.sort(votes, axis=1)[:, -2] <= 1e-9 * votes.max(axis=1)
    assert not tied.any()


def test_votes_relative_to_the_largest_weight_give_the_same_predictions_and_shares(monkeypatch):
    """The rescaled path (every query, when the limit is 0) agrees with the direct weights where both are finite."""
    import lazylib.vfi as vfi

    X, y = _data(seed=5)
    X = X + 1.5 * y[:, None]  # classes apart: pure intervals, weights above 1
    clf = VFI5Classifier(confidence_bias=0.6).fit(X, y, types=["continuous"] * 4)
    direct = clf.class_votes(X), clf.predict_proba(X), clf.predict(X)
    monkeypatch.setattr(vfi, "_LOG_WEIGHT_LIMIT", -1.0)
    np.testing.assert_allclose(clf.predict_proba(X), direct[1], rtol=1e-12)
    np.testing.assert_array_equal(clf.predict(X), direct[2])
    assert not np.allclose(clf.class_votes(X), direct[0])  # the rescaled path did run


def test_confidence_bias_accepts_numpy_reals_and_refuses_bad_values_naming_them():
    X, y = _data(seed=5)
    a = VFI5Classifier(confidence_bias=np.float32(0.6)).fit(X, y, types=["continuous"] * 4)
    b = VFI5Classifier(confidence_bias=float(np.float32(0.6))).fit(X, y, types=["continuous"] * 4)
    np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))
    for bad in (0, -0.5, np.nan, np.inf, True, "0.6"):
        with pytest.raises(ValueError, match=r"'confidence_bias' parameter of VFI5Classifier must be a finite "):
            VFI5Classifier(confidence_bias=bad).fit(X, y, types=["continuous"] * 4)


def test_winners_refuses_votes_and_priorities_that_do_not_match():
    """Issue #40: a priority shorter than the classes was read as it was (classes beyond it never won a tie), and
    a NaN vote made its row's winner class 0."""
    from lazylib.vfi import winners

    votes = np.array([[0.2, 0.8, 0.0], [0.5, 0.5, 0.0]])
    with pytest.raises(ValueError, match=r"priority one number per class \(C,\), got shapes \(2, 3\) and \(2,\)"):
        winners(votes, np.array([0.5, 0.25]))
    with pytest.raises(ValueError, match="votes and priority must be finite"):
        winners(np.array([[np.nan, 1.0, 0.0]]), np.array([0.5, 0.3, 0.2]))
    assert winners(votes, np.array([0.2, 0.5, 0.3])).tolist() == [1, 1]
