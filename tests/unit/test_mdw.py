"""Mean difference weighting: the properties Howe & Cardie state or imply, the metrics and the set-valued path."""

import numpy as np
import pandas as pd
import pytest

from lazylib.neighbors import loo_accuracy_by_k
from lazylib.synthetic import led
from lazylib.weighting import (
    MDW,
    FeatureDifference,
    IGWeighted,
    equal_width_bins,
    information_gain,
    mdw_components,
    mdw_weights,
    mean_difference,
)
from lazylib.weighting.sets import combined_distance, feature_difference, loo_accuracy


@pytest.fixture
def mixed():
    rng = np.random.default_rng(0)
    n = 60
    y = rng.integers(0, 3, n)
    X = pd.DataFrame(
        {
            "good": rng.normal(2.0 * y, 1.0),
            "noise": rng.normal(0, 5, n),
            "sym": pd.Categorical((y + (rng.random(n) < 0.3)) % 3),
            "junk": pd.Categorical(rng.integers(0, 2, n)),
        }
    )
    return X, y


def test_significance_sums_to_one_per_class(mixed):
    res = mdw_components(*mixed)
    assert np.allclose(res.significance.sum(axis=1), 1.0)
    assert (res.weights >= 0).all().all()


def test_each_scaled_feature_has_mean_difference_one(mixed):
    X, y = mixed
    scale = mdw_components(X, y).scaling
    for f in ["good", "noise"]:
        assert mean_difference(X[f] * scale[f], X[f] * scale[f]) == pytest.approx(1.0)
    codes = X["sym"].cat.codes.to_numpy(float)
    assert scale["sym"] * mean_difference(codes, codes, "symbolic") == pytest.approx(1.0)


def test_rescaling_units_changes_nothing(mixed):
    X, y = mixed
    w = mdw_weights(X, y)
    X2 = X.assign(good=X["good"] * 30.48, noise=X["noise"] - 7.0)  # feet -> cm, a shifted origin
    w2 = mdw_weights(X2, y)
    distance = lambda W, Z: combined_distance(Z, weights=W, y_B=y)  # noqa: E731
    assert np.allclose(distance(w, X), distance(w2, X2))
    assert np.allclose(w2["good"] * 30.48, w["good"])


def test_duplicated_feature_gets_double_weight(mixed):
    X, y = mixed
    w = mdw_components(X, y).significance
    w2 = mdw_components(X.assign(good_copy=X["good"]), y).significance
    ratio = w["good"] / w["sym"]
    ratio2 = (w2["good"] + w2["good_copy"]) / w2["sym"]
    assert np.allclose(ratio2, 2.0 * ratio)


def test_irrelevant_features_get_less_weight_on_led():
    X, y = led(400, n_irrelevant=17, random_state=1)
    w = mdw_weights(X, y)
    assert (w.iloc[:, :7].mean(axis=1) > 3 * w.iloc[:, 7:].mean(axis=1)).all()
    ig = information_gain(X, y)
    assert ig.iloc[:7].min() > ig.iloc[7:].max()


def test_constant_feature_and_fallback():
    X = pd.DataFrame({"c": [1.0, 1.0, 1.0, 1.0], "x": [0.0, 1.0, 0.0, 1.0]})
    res = mdw_components(X, ["a", "a", "b", "b"])
    assert res.scaling["c"] == 0.0
    assert np.allclose(res.significance["x"], 1.0)  # no raw weight anywhere: uniform over usable features
    assert np.allclose(mdw_components(X, ["a", "a", "b", "b"], fallback="zero").significance, 0.0)


def test_validation_errors(mixed):
    X, y = mixed
    with pytest.raises(ValueError, match="kind"):
        mean_difference([1.0], [2.0], "text")
    with pytest.raises(ValueError, match="fallback"):
        mdw_weights(X, y, fallback="nope")
    with pytest.raises(ValueError, match="DataFrame"):
        mdw_weights(X.to_numpy(), y)
    with pytest.raises(ValueError, match=r"'weights' parameter of \w+ must be None"):
        MDW(weights=[1, 1, 1, 1]).fit(X, y)
    assert np.isnan(mean_difference([np.nan], [1.0]))


def test_mdw_metric_uses_weights_of_range_scaled_features(mixed):
    X, y = mixed
    m = MDW().fit(X, y)
    scaled = X.assign(good=X["good"] / np.ptp(X["good"]), noise=X["noise"] / np.ptp(X["noise"]))
    assert np.allclose(m.weights_, mdw_weights(scaled, y).to_numpy())
    # pairwise: the weights of each stored instance's class times range-scaled differences
    expected = combined_distance(scaled, weights=mdw_weights(scaled, y), y_B=y)
    assert np.allclose(m.pairwise(X), expected)
    ig = IGWeighted().fit(X, y)
    assert np.allclose(ig.pairwise(X), combined_distance(scaled, weights=information_gain(scaled, y), y_B=y))


def test_set_path_agrees_with_the_engine_on_ordinary_features(mixed):
    X, y = mixed
    scaled = X.assign(good=X["good"] / np.ptp(X["good"]), noise=X["noise"] / np.ptp(X["noise"]))
    D = combined_distance(scaled)
    assert np.allclose(D, FeatureDifference().fit(X).pairwise(X))
    ks = [1, 3, 5]
    assert np.allclose(loo_accuracy(D, y, ks), loo_accuracy_by_k(X, y, ks, FeatureDifference()))


def test_feature_difference_of_sets_and_unknowns():
    a = [np.array([[0.0, 0.0]]), None]
    b = [np.array([[3.0, 4.0], [0.0, 1.0]])]
    assert feature_difference(a, b, "set").tolist() == [[1.0], [0.0]]
    with pytest.raises(ValueError, match="y_B"):
        combined_distance(pd.DataFrame({"x": [0.0, 1.0]}), weights=pd.DataFrame({"x": [1.0]}, index=["a"]))


def test_equal_width_bins_use_reference_range():
    train = pd.DataFrame({"x": [0.0, 8.0]})
    test = pd.DataFrame({"x": [-1.0, 3.9, 9.0, np.nan]})
    codes = equal_width_bins(test, 8, reference=train)["x"].cat.codes.tolist()
    assert codes == [0, 3, 7, -1]


def test_precomputed_set_differences_change_nothing():
    from lazylib.weighting.sets import feature_differences

    rng = np.random.default_rng(2)
    y = rng.integers(0, 2, 25)
    X = pd.DataFrame({"x": rng.normal(y, 1.0), "s": [rng.normal(c, 1.0, size=(3, 2)) for c in y]})
    diffs = feature_differences(X)
    assert set(diffs) == {"s"}
    w = mdw_weights(X, y)
    assert np.allclose(mdw_components(X, y, differences=diffs).weights, w)
    assert np.allclose(
        combined_distance(X, weights=w, y_B=y, differences=diffs), combined_distance(X, weights=w, y_B=y)
    )
    with pytest.raises(ValueError, match="leave B out"):
        combined_distance(X, X.copy(), differences=diffs)


def test_difference_knn_predicts_like_loo_path():
    from lazylib.weighting.sets import DifferenceKNN

    rng = np.random.default_rng(4)
    y = np.repeat(["p", "q"], 15)
    X = pd.DataFrame({"x": rng.normal(0, 1, 30), "s": [rng.normal(c == "q", 0.5, size=(3, 2)) for c in y]})
    clf = DifferenceKNN(3, weighting="mdw").fit(X.iloc[:20], y[:20])
    D = combined_distance(
        X.iloc[20:].reset_index(drop=True), X.iloc[:20], weights=mdw_weights(X.iloc[:20], y[:20]), y_B=y[:20]
    )
    from lazylib.voting import vote, vote_priority

    codes = (y[:20] == "q").astype(int)
    expected = np.array(["p", "q"])[vote(D, codes, 3, vote_priority(np.bincount(codes)))]
    assert (clf.predict(X.iloc[20:].reset_index(drop=True)) == expected).all()
    with pytest.raises(ValueError, match="weighting"):
        DifferenceKNN(weighting="ig").fit(X, y)


def test_mdw_stages_ablation(mixed):
    X, y = mixed
    full = MDW().fit(X, y)
    comp = full.components_
    scaling = MDW(stages="scaling").fit(X, y).weights_
    assert np.allclose(scaling, np.broadcast_to(comp.scaling.to_numpy(), scaling.shape))
    sig = MDW(stages="significance", calibrated=False).fit(X, y)
    assert np.allclose(sig.weights_, sig.components_.significance.to_numpy())
    assert np.allclose(sig.weights_.sum(axis=1), 1.0)
    with pytest.raises(ValueError, match="'stages' parameter of MDW must be one of"):
        MDW(stages="neither").fit(X, y)


def test_hoeffding_pairs_and_the_sampled_estimate_honour_the_bound():
    from lazylib.weighting import hoeffding_pairs, sampled_mean_difference

    assert hoeffding_pairs(0.1, 0.05) == int(np.ceil(np.log(40) / 0.02))
    x = np.random.default_rng(1).random(500)
    n = hoeffding_pairs(0.05, 0.1)
    est = sampled_mean_difference(x, x, n, n_estimates=400, random_state=2)
    assert np.mean(np.abs(est - mean_difference(x, x)) > 0.05) <= 0.1
    s = np.array([0.0, 1.0, 1.0, 2.0])
    assert abs(float(sampled_mean_difference(s, s, 20_000, "symbolic", random_state=0)[0]) - 0.625) < 0.02
    for bad in [dict(epsilon=0), dict(delta=1.5), dict(bound=-1)]:
        with pytest.raises(ValueError, match="must be a finite number"):
            hoeffding_pairs(**{"epsilon": 0.1, "delta": 0.1, **bad})
    with pytest.raises(ValueError, match="sets have no sampled form"):
        sampled_mean_difference(x, x, 10, "set")
    with pytest.raises(ValueError, match="n_pairs must be an integer >= 1"):
        sampled_mean_difference(x, x, 0)


def test_mdw_loo_distances_refuse_unknown_values():
    from lazylib.weighting.sets import mdw_loo_distances

    X = pd.DataFrame({"a": [0.0, np.nan, 1.0, 2.0]})
    with pytest.raises(ValueError, match="unknown values"):
        mdw_loo_distances(X, list("xxyy"))


def test_unknown_as_value_and_zero_weight_shares():
    from lazylib.protocols.howe_cardie.protocol import unknown_as_value, zero_weight_shares

    X = pd.DataFrame({"a": pd.Categorical(["x", None, "y", "x"]), "b": [0.0, 1.0, 0.0, 1.0]})
    assert unknown_as_value(X)["a"].tolist() == ["x", "?", "y", "x"]
    with pytest.raises(ValueError, match="already has a value"):
        unknown_as_value(X.assign(a=pd.Categorical(["?", None, "y", "x"])))
    y = pd.Series(list("ppqq"))
    shares = zero_weight_shares({"t": (X, y, [[(np.arange(4), np.arange(4))]])})
    assert list(shares["class"]) == ["p", "q"] and (shares["varying features"] == 2).all()


UNKNOWNS = pd.DataFrame(
    {"c": pd.Categorical(["r", None, "b", None, "r", "b"]), "x": [0.0, np.nan, 2.0, np.nan, 1.0, 0.5]}
)


def test_feature_difference_reads_an_unknown_as_a_value_through_the_table_of_distinct_values():
    """``missing="value"`` keeps the direct term's table of distinct values (``direct_rows``: a small table and a
    gather, not a mask over every pair, issue #52 item 4), and every term is the pair's: the range-scaled
    difference, 1 against an unknown value, 0 between two unknowns."""
    rng = np.random.default_rng(0)
    x = rng.integers(0, 80, 300).astype(float)  # more values than a table of differences takes (TABLE_VALUES)
    x[rng.random(300) < 0.2] = np.nan
    metric = FeatureDifference(missing="value").fit(pd.DataFrame({"x": x}))
    term = metric.attributes_[0]
    rows = term.direct_rows(x, x)
    assert rows is not None
    gathered = rows.table.take(rows.rows, axis=0)
    unknown = np.isnan(x)
    expected = np.abs(x[:, None] - x[None, :]) / metric.scales_[0]
    expected[unknown[:, None] ^ unknown[None, :]] = 1.0
    expected[unknown[:, None] & unknown[None, :]] = 0.0
    assert np.array_equal(gathered, expected) and np.array_equal(term.direct(x, x), expected)
    assert np.array_equal(metric.pairwise(pd.DataFrame({"x": x})), expected)


def test_feature_difference_reads_an_unknown_as_one_more_value():
    X = UNKNOWNS.iloc[:4]
    one = FeatureDifference().fit(X).pairwise(X)
    value = FeatureDifference(missing="value").fit(X).pairwise(X)
    # rows 1 and 3 are unknown on both features: 1 + 1 under HEOM's rule, 0 + 0 as one more value
    assert one[1, 3] == 2.0 and one[1, 1] == 2.0 and value[1, 3] == 0.0 and value[1, 1] == 0.0
    known = [0, 2]
    assert np.array_equal(one[np.ix_(known, [0, 1, 2, 3])], value[np.ix_(known, [0, 1, 2, 3])])
    with pytest.raises(ValueError, match="missing"):
        FeatureDifference(missing="zero").fit(X)


def test_mdw_unknowns_as_a_value_are_part_vs_unknown_as_value_for_nominal_features():
    from lazylib.protocols.howe_cardie.protocol import unknown_as_value

    y = list("ppqqpq")
    X = UNKNOWNS[["c"]]
    ours = MDW(missing="value").fit(X, y).components_
    ref = mdw_components(unknown_as_value(X), y)  # Part V's reading: the unknown a category of its own
    assert np.allclose(ours.weights.to_numpy(), ref.weights.to_numpy())
    assert np.allclose(ours.in_class.to_numpy(), ref.in_class.to_numpy())
    assert not np.allclose(MDW().fit(X, y).components_.scaling, ref.scaling)  # today's reading leaves it out


def test_mdw_unknowns_as_a_value_by_a_loop_over_pairs():
    y = np.array(list("ppqqpq"))
    x = UNKNOWNS["x"].to_numpy()  # mdw_components takes the differences in the data's units: an unknown's is 1

    def delta(a, b):
        if np.isnan(a) and np.isnan(b):
            return 0.0
        return 1.0 if np.isnan(a) or np.isnan(b) else abs(a - b)

    def mean(rows, cols):
        return np.mean([delta(x[i], x[j]) for i in rows for j in cols])

    everyone = range(len(x))
    res = mdw_components(UNKNOWNS[["x"]], y, calibrated=False, missing="value")
    assert res.scaling["x"] == pytest.approx(1 / mean(everyone, everyone))
    p, q = np.flatnonzero(y == "p"), np.flatnonzero(y == "q")
    assert res.in_class.loc["p", "x"] == pytest.approx(mean(p, p))
    assert res.out_class.loc["q", "x"] == pytest.approx(mean(q, p))
    with pytest.raises(ValueError, match="missing must be"):
        mdw_components(UNKNOWNS, y, missing="one")


def test_equal_width_bins_put_infinite_values_in_the_end_bins_and_take_any_range():
    """Issue #40: an infinite value stretched the range to infinity (every bin position NaN, then a pandas error
    on the codes), and so did a range beyond the float range (1.5e308 - (-1.5e308) overflows)."""
    from lazylib.weighting.infogain import equal_width_bins

    x = pd.DataFrame({"a": [0.0, np.inf, 1.0, -np.inf, 0.5, np.nan]})
    binned = equal_width_bins(x, n_bins=2)["a"]
    assert binned[:5].tolist() == [0, 1, 1, 0, 1] and pd.isna(binned[5])
    assert equal_width_bins(pd.DataFrame({"a": [-1.5e308, 1.5e308, 1.0]}), n_bins=3)["a"].tolist() == [0, 2, 1]


def test_hoeffding_pairs_refuses_an_epsilon_whose_count_overflows():
    """Issue #40: epsilon = 1e-200 failed with an OverflowError from int(inf)."""
    from lazylib.weighting.mdw import hoeffding_pairs

    with pytest.raises(ValueError, match="epsilon = 1e-200 and bound = 1.0 need more pairs than a float can count"):
        hoeffding_pairs(epsilon=1e-200, delta=0.05)
    assert hoeffding_pairs(0.02, 0.05) == 4612
