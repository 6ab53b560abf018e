"""C4.5 (lazylib.trees): gain ratios and trees on Quinlan's golf data checked against hand computation, the MDL
correction of a threshold, fractional cases for unknown values, error-based pruning on Quinlan's worked example,
and the API (validation, arrays vs frames, unseen values)."""

from __future__ import annotations

import time

import numpy as np
import pandas as pd
import pytest

from lazylib import datasets
from lazylib.c45_builder import entropy, extra_errors, normal_deviate
from lazylib.datasets import load
from lazylib.metrics import NotFittedError
from lazylib.trees import C45Classifier, candidate_splits

# Quinlan (1993), Table 1-1: outlook, temperature, humidity, windy -> play
GOLF = [
    ("sunny", 85, 85, "false", "no"),
    ("sunny", 80, 90, "true", "no"),
    ("overcast", 83, 78, "false", "play"),
    ("rain", 70, 96, "false", "play"),
    ("rain", 68, 80, "false", "play"),
    ("rain", 65, 70, "true", "no"),
    ("overcast", 64, 65, "true", "play"),
    ("sunny", 72, 95, "false", "no"),
    ("sunny", 69, 70, "false", "play"),
    ("rain", 75, 80, "false", "play"),
    ("sunny", 75, 70, "true", "play"),
    ("overcast", 72, 90, "true", "play"),
    ("overcast", 81, 75, "false", "play"),
    ("rain", 71, 80, "true", "no"),
]
TEXTBOOK_TREE = """\
outlook = sunny:
|   humidity <= 75: play (2.0)
|   humidity > 75: no (3.0)
outlook = overcast: play (4.0)
outlook = rain:
|   windy = false: play (3.0)
|   windy = true: no (2.0)"""


def golf():
    frame = pd.DataFrame(GOLF, columns=["outlook", "temperature", "humidity", "windy", "play"])
    X = pd.DataFrame(
        {
            "outlook": pd.Categorical(frame.outlook, categories=["sunny", "overcast", "rain"]),
            "temperature": frame.temperature.astype(float),
            "humidity": frame.humidity.astype(float),
            "windy": pd.Categorical(frame.windy, categories=["false", "true"]),
        }
    )
    return X, frame.play


def H(*counts):
    """Entropy in bits, written out by hand."""
    p = np.array(counts, dtype=float) / sum(counts)
    p = p[p > 0]
    return float(-(p * np.log2(p)).sum())


# ---------------------------------------------------------------------------------------------------- gains
def test_golf_outlook_gain_split_info_and_gain_ratio_as_printed():
    X, y = golf()
    row = candidate_splits(X, y).loc["outlook"]
    # Quinlan 1993, section 2.2: gain 0.246 bits, split info 1.577, gain ratio 0.156
    assert row.info_gain == pytest.approx(0.246, abs=1e-3)
    assert row.split_info == pytest.approx(1.577, abs=1e-3)
    assert row.gain_ratio == pytest.approx(0.156, abs=1e-3)
    by_hand = H(9, 5) - (5 / 14 * H(2, 3) + 4 / 14 * H(4, 0) + 5 / 14 * H(3, 2))
    assert row.info_gain == pytest.approx(by_hand, abs=1e-12)
    assert row.split_info == pytest.approx(H(5, 4, 5), abs=1e-12)


def test_golf_windy_gain_and_the_average_gain_condition():
    X, y = golf()
    table = candidate_splits(X, y)
    windy = table.loc["windy"]
    assert windy.info_gain == pytest.approx(H(9, 5) - (8 / 14 * H(6, 2) + 6 / 14 * H(3, 3)), abs=1e-12)
    assert windy.info_gain == pytest.approx(0.048, abs=1e-3)
    # the continuous attributes' corrected gains are negative: only outlook and windy propose a test, the
    # average of their gains is (0.2467 + 0.0481) / 2 and only outlook reaches it
    assert table.possible.tolist() == [True, False, False, True]
    assert table.above_average.tolist() == [True, False, False, False]
    assert table.chosen.tolist() == [True, False, False, False]


def test_golf_humidity_threshold_and_mdl_correction_by_hand():
    X, y = golf()
    hum = candidate_splits(X, y).loc["humidity"]
    # humidity <= 80: 7 play, 2 no; > 80: 2 play, 3 no
    assert hum.info_gain == pytest.approx(H(9, 5) - (9 / 14 * H(7, 2) + 5 / 14 * H(2, 3)), abs=1e-12)
    assert hum.info_gain == pytest.approx(0.102, abs=1e-3)
    # 9 distinct values, 8 cuts; the two extreme ones leave a single case on one side (< 2): 6 admissible
    assert hum.n_thresholds == 6
    assert hum.penalty == pytest.approx(np.log2(6) / 14, abs=1e-12)
    assert hum.gain == pytest.approx(hum.info_gain - np.log2(6) / 14, abs=1e-12)
    assert not hum.possible
    # the midpoint is 82.5; the largest training value not above it is 80
    assert hum.threshold == 80
    assert hum.split_info == pytest.approx(H(9, 5), abs=1e-12)
    plain = candidate_splits(X, y, mdl_correction=False).loc["humidity"]
    assert plain.possible and plain.penalty == 0 and plain.gain == pytest.approx(hum.info_gain)


def test_continuous_threshold_with_mdl_correction_by_hand():
    # x = 1..8, classes a a a a b a b b
    X = np.arange(1.0, 9.0)[:, None]
    y = list("aaaababb")
    row = candidate_splits(X, y, types=["continuous"]).loc["0"]
    # cuts with at least 2 cases a side: after 2, 3, 4, 5, 6 -> T = 5; the best is after 4 (aaaa | babb)
    assert row.n_thresholds == 5
    gain = H(5, 3) - 4 / 8 * H(1, 3)
    assert row.info_gain == pytest.approx(gain, abs=1e-12)
    assert row.info_gain == pytest.approx(0.5488, abs=1e-4)
    assert row.penalty == pytest.approx(np.log2(5) / 8, abs=1e-12)
    assert row.gain == pytest.approx(0.2586, abs=1e-4)
    assert row.split_info == pytest.approx(1.0)
    assert row.gain_ratio == pytest.approx(0.2586, abs=1e-4)
    assert row.threshold == 4.0  # midpoint 4.5 -> largest training value not above it
    tree = C45Classifier(pruning=False).fit(X, y, types=["continuous"])
    assert tree.tree_.threshold == 4.0


def test_release8_minimum_split_size():
    # 200 cases, 2 classes: each side of a cut must hold 0.1 * 200 / 2 = 10 cases
    rng = np.random.default_rng(0)
    X = rng.permutation(200).astype(float)[:, None]
    y = (X[:, 0] < 5).astype(int)  # the pure cut (5 | 195) is not admissible
    row = candidate_splits(X, y, types=["continuous"]).loc["0"]
    assert row.threshold >= 9
    assert row.n_thresholds == 199 - 2 * 9
    loose = candidate_splits(X, y, types=["continuous"], release8_min_split=False).loc["0"]
    assert loose.threshold == 4 and loose.n_thresholds == 199 - 2


def test_threshold_is_the_largest_training_value_below_the_midpoint_anywhere_in_the_training_set():
    # the node below g = p sees x in {1, 2, 3 | 10, 11, 12}: midpoint 6.5; the training set also holds 6
    # (under g = q), so the stored threshold is 6, not 3 and not 6.5
    X = pd.DataFrame({"g": pd.Categorical(list("pppppp") + list("qqqqq")), "x": [1.0, 2, 3, 10, 11, 12, 6, 4, 5, 7, 8]})
    y = list("aaabbb") + list("ccccc")
    tree = C45Classifier(pruning=False).fit(X, y)
    assert tree.export_text() == "g = p:\n|   x <= 6: a (3.0)\n|   x > 6: b (3.0)\ng = q: c (5.0)"


def test_values_closer_than_the_tolerance_are_not_separated():
    X = np.array([[1.0], [2.0], [3.0], [3.000001], [4.0], [5.0]])
    y = list("aaabbb")
    row = candidate_splits(X, y, types=["continuous"]).loc["0"]
    assert row.n_thresholds == 2 and row.threshold == 2.0  # cuts after 2 and after 3.000001 only
    exact = candidate_splits(X, y, types=["continuous"], value_tolerance=0).loc["0"]
    assert exact.n_thresholds == 3 and exact.threshold == 3.0


def test_tied_attributes_and_cuts_go_to_the_first():
    # two mirror-image attributes: equal gain ratios -> the first column; two equally good cuts -> the lowest
    x = np.array([1.0, 2, 3, 4, 5, 6, 7, 8])
    y = list("aabbbbaa")
    table = candidate_splits(np.column_stack([x, -x]), y, types=["continuous"] * 2)
    assert table.gain_ratio.iloc[0] == pytest.approx(table.gain_ratio.iloc[1])
    assert table.chosen.tolist() == [True, False]
    assert table.threshold.iloc[0] == 2.0  # cut after 2 (aa | bbbbaa) ties with the cut after 6


# ---------------------------------------------------------------------------------------------------- trees
@pytest.mark.parametrize("pruning", [False, True])
def test_golf_gives_the_textbook_tree(pruning):
    X, y = golf()
    tree = C45Classifier(pruning=pruning).fit(X, y)
    assert tree.export_text() == TEXTBOOK_TREE
    assert str(tree) == TEXTBOOK_TREE
    assert tree.used_attributes_ == ("outlook", "humidity", "windy")
    assert tree.n_leaves_ == 5 and tree.depth_ == 2
    assert (tree.predict(X) == y.to_numpy()).all()


def test_golf_with_an_unknown_outlook_gives_quinlans_fractional_tree():
    # Quinlan 1993, chapter 3: case 12 (overcast, 72, 90, true, play) with outlook unknown
    X, y = golf()
    X.loc[11, "outlook"] = np.nan
    row = candidate_splits(X, y).loc["outlook"]
    known_gain = H(8, 5) - (5 / 13 * H(2, 3) + 3 / 13 * H(3, 0) + 5 / 13 * H(3, 2))
    assert row.info_gain == pytest.approx(13 / 14 * known_gain, abs=1e-12)
    assert row.info_gain == pytest.approx(0.199, abs=1e-3)
    assert row.split_info == pytest.approx(H(5, 3, 5, 1), abs=1e-12)
    assert row.split_info == pytest.approx(1.809, abs=1e-3)
    tree = C45Classifier().fit(X, y)
    # the case goes down sunny, overcast, rain with weights 5/13, 3/13, 5/13
    sizes = [child.n for child in tree.tree_.children]
    np.testing.assert_allclose(sizes, [5 + 5 / 13, 3 + 3 / 13, 5 + 5 / 13])
    assert (
        tree.export_text()
        == """\
outlook = sunny:
|   humidity <= 75: play (2.0)
|   humidity > 75: no (3.4/0.4)
outlook = overcast: play (3.2)
outlook = rain:
|   windy = false: play (3.0)
|   windy = true: no (2.4/0.4)"""
    )
    # classifying a sunny day of unknown humidity: 2/5.4 of the weight reaches "play (2.0)", 3.4/5.4 reaches
    # the leaf holding 3 "no" and 0.4 "play": P(play) = 2/5.4 + 3.4/5.4 * 0.4/3.4 = 0.44 (the book's 44 %)
    query = pd.DataFrame(
        {
            "outlook": pd.Categorical(["sunny"], categories=["sunny", "overcast", "rain"]),
            "temperature": [75.0],
            "humidity": [np.nan],
            "windy": pd.Categorical(["false"], categories=["false", "true"]),
        }
    )
    proba = tree.predict_proba(query)[0]
    assert tree.classes_.tolist() == ["no", "play"]
    assert proba[1] == pytest.approx(2 / (5 + 5 / 13) + (5 / 13) / (5 + 5 / 13), abs=1e-12)
    assert proba[1] == pytest.approx(0.44, abs=0.005)
    assert tree.predict(query)[0] == "no"


def test_missing_value_weights_follow_the_branch_sizes_with_four_five_five():
    # outlook sunny : overcast : rain = 4 : 5 : 5 known cases, one unknown -> weights 4/14, 5/14, 5/14
    X = pd.DataFrame({"o": pd.Categorical(["s"] * 4 + ["o"] * 5 + ["r"] * 5 + [None], categories=["s", "o", "r"])})
    y = ["no"] * 4 + ["yes"] * 5 + ["maybe"] * 4 + ["no"] + ["yes"]
    tree = C45Classifier(pruning=False).fit(X, y)
    np.testing.assert_allclose([c.n for c in tree.tree_.children], [4 + 4 / 14, 5 + 5 / 14, 5 + 5 / 14])
    np.testing.assert_allclose(tree.tree_.children[1].distribution, [0, 0, 5 + 5 / 14])  # maybe, no, yes
    # a query of unknown o: the three leaves' distributions weighted 4.29 : 5.36 : 5.36 (training weights)
    proba = tree.predict_proba(X.iloc[[14]])[0]
    expected = (
        np.array([0, 4, 4 / 14]) / (4 + 4 / 14) * (4 + 4 / 14)
        + np.array([0, 0, 5 + 5 / 14]) / (5 + 5 / 14) * (5 + 5 / 14)
        + np.array([4, 1, 5 / 14]) / (5 + 5 / 14) * (5 + 5 / 14)
    ) / 15
    np.testing.assert_allclose(proba, expected)
    np.testing.assert_allclose(proba.sum(), 1.0)


# ---------------------------------------------------------------------------------------------------- pruning
def test_upper_limits_of_quinlans_worked_example():
    # Quinlan 1993, section 4.2: U_0.25(0, 6) = 0.206, U(0, 9) = 0.143, U(0, 1) = 0.750, U(1, 16) = 0.157
    for n, e, printed in [(6, 0, 0.206), (9, 0, 0.143), (1, 0, 0.750), (16, 1, 0.157)]:
        assert (extra_errors(n, e, 0.25) + e) / n == pytest.approx(printed, abs=5e-4)
    # the exact binomial limit agrees where there is no error (1 - CF^(1/n)) but gives 0.160 for 1 error in
    # 16: the printed 0.157 is the program's normal approximation
    for n, e, printed in [(6, 0, 0.206), (9, 0, 0.143), (1, 0, 0.750), (16, 1, 0.160)]:
        assert (extra_errors(n, e, 0.25, "exact") + e) / n == pytest.approx(printed, abs=5e-4)


def test_upper_limit_formulas_by_hand():
    z = 0.84 + (0.25 - 0.84) * (0.25 - 0.20) / (0.40 - 0.20)
    assert normal_deviate(0.25) == pytest.approx(z)
    n, e = 30.0, 4.0
    z2 = z * z
    upper = (e + 0.5 + z2 / 2 + np.sqrt(z2 * ((e + 0.5) * (1 - (e + 0.5) / n) + z2 / 4))) / (n + z2)
    assert extra_errors(n, e) == pytest.approx(n * upper - e)
    # exact: the binomial probability of at most e errors at the upper limit is CF
    from scipy import stats

    u = (extra_errors(n, e, method="exact") + e) / n
    assert stats.binom.cdf(e, int(n), u) == pytest.approx(0.25)
    # interpolation for 0 < e < 1 and the near-total case
    zero, one = extra_errors(10, 0), extra_errors(10, 1)
    assert extra_errors(10, 0.3) == pytest.approx(zero + 0.3 * (one - zero))
    assert extra_errors(3, 2.6) == pytest.approx(0.67 * 0.4)
    # "normal": the same formula with the exact normal quantile (Weka's J48)
    z = stats.norm.isf(0.25)
    upper = (e + 0.5 + z * z / 2 + z * np.sqrt((e + 0.5) * (1 - (e + 0.5) / n) + z * z / 4)) / (n + z * z)
    assert extra_errors(n, e, method="normal") == pytest.approx(n * upper - e)
    assert z == pytest.approx(0.6745, abs=1e-4)
    # a smaller CF is more pessimistic
    assert extra_errors(20, 2, 0.1) > extra_errors(20, 2, 0.25) > extra_errors(20, 2, 0.5)


def _program_extra_errors(n, e, confidence, method):
    """The C4.5 program's arithmetic for ``extra_errors`` (c45 and normal), as it was before the rescaled forms:
    the oracle the library must match to the last bit on ordinary leaves."""
    from scipy import stats

    if n <= 0:
        return 0.0
    if e < 1e-6:
        return float(n * (1.0 - np.exp(np.log(confidence) / n)))
    if e < 0.9999:
        zero = n * (1.0 - np.exp(np.log(confidence) / n))
        return float(zero + e * (_program_extra_errors(n, 1.0, confidence, method) - zero))
    if e + 0.5 >= n:
        return 0.67 * (n - e)
    z = normal_deviate(confidence) if method == "c45" else float(stats.norm.isf(confidence))
    z2 = z * z
    upper = (e + 0.5 + z2 / 2 + np.sqrt(z2 * ((e + 0.5) * (1 - (e + 0.5) / n) + z2 / 4))) / (n + z2)
    return float(n * upper - e)


ORDINARY_N = [0.3, 0.5, 1.0, 1.5, 2.0, 2.7, 3.0, 5.0, 6.0, 9.0, 16.0, 16.4, 40.0, 123.25, 1e3, 4321.5, 2e4, 1e5]
ORDINARY_CF = [0.001, 0.01, 0.05, 0.1, 0.25, 0.4, 0.5, 0.75, 0.9]


@pytest.mark.parametrize("method", ["c45", "normal"])
def test_extra_errors_keep_the_programs_arithmetic_to_the_last_bit_on_ordinary_leaves(method):
    """Leaves of up to 1e5 cases, at every error count from none to all (fractional ones too), at confidence
    levels from 0.001 to 0.9: the same float as the program's formula, so C4.5's pruning (and the J48 fixtures)
    cannot move."""
    checked = 0
    for n in ORDINARY_N:
        errors = sorted({0.0, 1e-7, 0.3, 0.9999, 1.0, 1.7, 2.0, n / 3, n / 2, n - 0.6, n - 0.5, n - 0.2, n})
        for e in (e for e in errors if 0 <= e <= n):
            for cf in ORDINARY_CF:
                assert extra_errors(n, e, cf, method) == _program_extra_errors(n, e, cf, method), (n, e, cf)
                checked += 1
    assert checked > 1500


def _reference_extra_errors(n, e, confidence, method):
    """``extra_errors`` (c45 and normal) in 360-digit decimal arithmetic, from the same deviate ``z``: enough
    digits for ``n U - e`` to keep 20 significant digits at any float ``n`` and ``e``."""
    from decimal import Decimal, localcontext

    from scipy import stats

    z = normal_deviate(confidence) if method == "c45" else float(stats.norm.isf(confidence))
    with localcontext() as context:
        context.prec = 360
        D, half = Decimal, Decimal("0.5")
        n, e, z2 = D(n), D(e), D(z) * D(z)

        def no_error():
            return n * (1 - (D(confidence).ln() / n).exp())

        if e < D("1e-6"):
            return no_error()
        if e < D("0.9999"):
            one = D(_reference_extra_errors(float(n), 1.0, confidence, method))
            return no_error() + e * (one - no_error())
        if e + half >= n:
            return D("0.67") * (n - e)
        upper = (e + half + z2 / 2 + (z2 * ((e + half) * (1 - (e + half) / n) + z2 / 4)).sqrt()) / (n + z2)
        return n * upper - e


@pytest.mark.parametrize("method", ["c45", "normal"])
@pytest.mark.parametrize("confidence", [1e-10, 0.001, 0.25, 0.5, 0.9])
def test_extra_errors_are_finite_and_accurate_at_any_scale(method, confidence):
    """From one case to the largest floats, with no error, a fraction of one, a few, a share of ``n`` or all
    but a few: within 1e-9 of a 360-digit reference (1e-12 where the rescaled forms take over), where the
    program's formula gave 0 (``n = 1e308, e = 1e300``), was off in the fifth digit (``n = 1e12, e = 0``) or
    overflowed."""
    for n in [1.0, 7.5, 1e3, 1e6, 1e7, 1e9, 1e12, 1e17, 1e50, 1e150, 1e300, 1e308, 1.7e308]:
        for e in sorted({0.0, 0.5, 1.0, 5.0, 1e3, 2.0**20, 2.0**20 + 1, n * 1e-8, n / 100, n / 2, n * 0.99, n - 1}):
            if not 0 <= e <= n:
                continue
            got = extra_errors(n, e, confidence, method)
            reference = _reference_extra_errors(n, e, confidence, method)
            assert np.isfinite(got) and got >= 0, (n, e)
            rescaled = e > 2.0**20 if e >= 0.9999 else abs(np.log(confidence) / n) < 2.0**-23
            assert abs(got - float(reference)) <= (1e-12 if rescaled else 1e-9) * float(reference), (n, e, got)
    assert extra_errors(1e308, 1e300) == pytest.approx(0.6925 * 1e150, rel=1e-4)


def test_the_exact_limit_refuses_leaves_beyond_its_accurate_range():
    """scipy's beta quantile gives NaN for e = 1e290 of n = 1e300: "exact" refuses such leaves with a message
    naming the limit and the methods that answer, and still answers at the limit."""
    assert np.isfinite(extra_errors(1e15, 1e3, method="exact"))
    with pytest.raises(ValueError, match=r"method='exact'.*1e\+15.*n = 1e\+300.*'normal'"):
        extra_errors(1e300, 1e290, method="exact")
    assert np.isfinite(extra_errors(1e300, 1e290, method="normal"))


def voting_example():
    """Quinlan's pruning example: 16 cases, 15 of class A; a test whose three branches hold 6 A, 9 A and 1 B."""
    X = pd.DataFrame({"education": pd.Categorical(["n"] * 6 + ["y"] * 9 + ["u"], categories=["n", "y", "u"])})
    y = ["A"] * 15 + ["B"]
    return X, y


@pytest.mark.parametrize("method, leaf_estimate", [("c45", 2.507), ("exact", 2.554)])
def test_subtree_whose_estimated_errors_exceed_a_leafs_is_pruned(method, leaf_estimate):
    X, y = voting_example()
    grown = C45Classifier(pruning=False).fit(X, y)
    assert grown.export_text() == "education = n: A (6.0)\neducation = y: A (9.0)\neducation = u: B (1.0)"
    # subtree: 6 x 0.206 + 9 x 0.143 + 1 x 0.750 = 3.273; leaf: 16 x 0.157 = 2.512 -> the leaf wins
    subtree = sum(extra_errors(n, 0, 0.25, method) for n in (6, 9, 1))
    assert subtree == pytest.approx(3.273, abs=2e-3)
    pruned = C45Classifier(upper_limit=method).fit(X, y)
    assert pruned.tree_.is_leaf
    assert pruned.export_text() == "A (16.0/1.0)"
    assert pruned.tree_.errors == pytest.approx(leaf_estimate, abs=1e-3)
    assert pruned.used_attributes_ == ()


def test_subtree_kept_when_its_estimate_is_lower():
    # 40 cases: the test separates 20 A from 20 B perfectly; a leaf would err 20 times
    X = pd.DataFrame({"t": pd.Categorical(["p"] * 20 + ["q"] * 20)})
    y = ["A"] * 20 + ["B"] * 20
    tree = C45Classifier().fit(X, y)
    assert not tree.tree_.is_leaf
    assert tree.tree_.errors == pytest.approx(2 * extra_errors(20, 0))


def test_grown_subtree_collapses_when_it_does_not_reduce_training_errors():
    # the split leaves the same majority in both branches: 2 errors either way -> a leaf, even unpruned
    X = np.array([[0.0]] * 5 + [[1.0]] * 5)
    y = ["A", "A", "A", "A", "B", "A", "A", "A", "A", "B"]
    tree = C45Classifier(pruning=False).fit(X, y, types=["nominal"])
    assert tree.tree_.is_leaf


def test_subtree_raising_replaces_a_node_by_its_largest_branch_somewhere():
    ds = datasets.load("liver-disorders")
    raised = C45Classifier().fit(ds.X, ds.y, ds.types)
    plain = C45Classifier(subtree_raising=False).fit(ds.X, ds.y, ds.types)
    assert raised.export_text() != plain.export_text()
    grown = C45Classifier(pruning=False).fit(ds.X, ds.y, ds.types)
    # without raising, pruning only cuts: every pruned tree's internal test also sits in the grown tree
    tests = lambda t: {(n.attribute, n.threshold) for n in t.tree_.walk() if not n.is_leaf}  # noqa: E731
    assert tests(plain) <= tests(grown)
    # training weights are preserved by both: the root holds all cases
    assert raised.tree_.n == plain.tree_.n == len(ds.X)


# ---------------------------------------------------------------------------------------------------- iris
def test_iris_full_data_uses_the_two_petal_attributes():
    ds = datasets.load("iris")
    tree = C45Classifier().fit(ds.X, ds.y, ds.types)
    assert tree.used_attributes_ == ("petal length", "petal width")
    assert tree.n_leaves_ == 5


# ---------------------------------------------------------------------------------------------------- API
def test_arrays_with_nominal_codes_give_the_same_tree_as_frames():
    X, y = golf()
    codes = np.column_stack([X.outlook.cat.codes * 10.0 + 3, X.temperature, X.humidity, X.windy.cat.codes])
    types = ["nominal", "continuous", "continuous", "nominal"]
    a = C45Classifier().fit(codes, y, types=types)
    b = C45Classifier().fit(X, y)
    np.testing.assert_allclose(a.predict_proba(codes), b.predict_proba(X))
    assert a.used_attributes_ == ("0", "2", "3")
    assert "0 = 3:" in a.export_text()


def test_unseen_nominal_value_is_treated_as_unknown():
    X, y = golf()
    codes = np.column_stack([X.outlook.cat.codes, X.temperature, X.humidity, X.windy.cat.codes]).astype(float)
    types = ["nominal", "continuous", "continuous", "nominal"]
    tree = C45Classifier().fit(codes, y, types=types)
    unseen, unknown = codes[:1].copy(), codes[:1].copy()
    unseen[0, 0], unknown[0, 0] = 7.0, np.nan
    np.testing.assert_allclose(tree.predict_proba(unseen), tree.predict_proba(unknown))


def test_predict_proba_rows_sum_to_one_and_predict_is_their_argmax():
    ds = datasets.load("breast-cancer")  # nominal attributes with missing values
    keep = ds.y.notna()
    X, y = ds.X[keep], ds.y[keep]
    tree = C45Classifier().fit(X, y, ds.types)
    proba = tree.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    assert (tree.predict(X) == np.asarray(tree.classes_, dtype=object)[proba.argmax(axis=1)]).all()
    assert 0.7 < tree.score(X, y) <= 1.0


def test_predictions_on_training_data_invariant_under_increasing_transformation():
    ds = datasets.load("pima-indians-diabetes")
    X = ds.X.astype(float)
    a = C45Classifier().fit(X, ds.y)
    b = C45Classifier().fit(np.exp(X / X.max()), ds.y)
    np.testing.assert_array_equal(a.predict(X), b.predict(np.exp(X / X.max())))
    assert a.n_leaves_ == b.n_leaves_


def test_validation_and_not_fitted():
    X, y = golf()
    with pytest.raises(NotFittedError):
        C45Classifier().predict(X)
    for bad in [
        dict(min_cases=0),
        dict(confidence=1.0),
        dict(confidence=0),
        dict(upper_limit="binomial"),
        dict(value_tolerance=-1),
    ]:
        with pytest.raises(ValueError):
            C45Classifier(**bad).fit(X, y)
    tree = C45Classifier().fit(X, y)
    with pytest.raises(ValueError, match="X has 3 features, but C45Classifier is expecting 4"):
        tree.predict(X.to_numpy()[:, :3])
    other = X.assign(outlook=X.outlook.cat.reorder_categories(["rain", "sunny", "overcast"]))
    with pytest.raises(ValueError, match="categories"):
        tree.predict(other)
    with pytest.raises(ValueError):
        C45Classifier().fit(X, ["play"] * 14)  # a single class


def test_single_leaf_text_and_repr():
    X, y = voting_example()
    tree = C45Classifier(min_cases=10).fit(X, y)
    assert str(tree) == "A (16.0/1.0)"
    assert "min_cases=10" in repr(C45Classifier(min_cases=10))
    assert entropy([9, 5]) == pytest.approx(H(9, 5))


def test_one_fit_on_sonar_takes_well_under_half_a_second_of_cpu():
    ds = datasets.load("sonar")
    start = time.process_time()
    C45Classifier().fit(ds.X, ds.y, ds.types)
    assert time.process_time() - start < 0.5


def test_min_cases_above_the_cap_of_the_minimum_split_still_holds():
    # with min_cases = 40 each side of a cut needs 40 cases even though release 8 caps 0.1 K / C at 25
    X = np.arange(100.0)[:, None]
    y = (X[:, 0] >= 30).astype(int)
    row = candidate_splits(X, y, types=["continuous"], min_cases=40).loc["0"]
    assert row.threshold == 39 and row.n_thresholds == 100 - 1 - 2 * 39


@pytest.mark.parametrize("scale", [1e-6, 1e-3, 1e6])
def test_rescaled_iris_grows_the_same_tree(scale):
    """The value tolerance is relative to an attribute's range below 1: iris x 1e-6 is not a single leaf."""
    iris = load("iris")
    tree = C45Classifier().fit(iris.X, iris.y)
    scaled = C45Classifier().fit(iris.X * scale, iris.y)
    assert (scaled.n_leaves_, scaled.depth_, scaled.used_attributes_) == (
        tree.n_leaves_,
        tree.depth_,
        tree.used_attributes_,
    )
    np.testing.assert_array_equal(scaled.predict(iris.X * scale), tree.predict(iris.X))
