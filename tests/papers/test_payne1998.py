"""Payne & Edwards (1998): the worked example of Table 1 / Figure 1 and the value-weight bounds (Eqs. 3-6)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from lazylib.metrics import make_metric, minimum_value_weight, value_weight, value_weights, vdm_delta

# Table 1: P(c | value) for the symbols 'X', 'Y', 'Z' and classes c1, c2, c3
TABLE1 = {"X": [0.7, 0.0, 0.3], "Y": [0.4, 0.5, 0.1], "Z": [0.6, 0.1, 0.3]}


def table1_data():
    """Ten instances per symbol with exactly Table 1's class proportions."""
    values, labels = [], []
    for symbol, p in TABLE1.items():
        for c, share in enumerate(p):
            k = round(share * 10)
            values += [symbol] * k
            labels += [f"c{c + 1}"] * k
    return pd.DataFrame({"a": pd.Categorical(values, categories=list(TABLE1))}), pd.Series(labels)


def test_eq4_delta_x_y_is_0_38():
    assert vdm_delta(TABLE1["X"], TABLE1["Y"]) == pytest.approx(0.38, abs=1e-12)


def test_eq4_other_pairs():
    assert vdm_delta(TABLE1["X"], TABLE1["Z"]) == pytest.approx(0.02, abs=1e-12)
    assert vdm_delta(TABLE1["Y"], TABLE1["Z"]) == pytest.approx(0.24, abs=1e-12)


def test_fitted_mvdm_reproduces_table1_distances():
    X, y = table1_data()
    m = make_metric("mvdm").fit(X, y)
    probs = m.probabilities("a")
    np.testing.assert_allclose(probs.loc[["X", "Y", "Z"]].to_numpy(), np.array(list(TABLE1.values())))
    q = pd.DataFrame({"a": pd.Categorical(["X", "Y", "Z"], categories=list(TABLE1))})
    D = m.pairwise(q, q)
    np.testing.assert_allclose(D, [[0, 0.38, 0.02], [0.38, 0, 0.24], [0.02, 0.24, 0]], atol=1e-12)


def test_vdm_is_weighted_by_the_query_value_so_not_symmetric():
    X, y = table1_data()
    q = pd.DataFrame({"a": pd.Categorical(["X", "Y"], categories=list(TABLE1))})
    D = make_metric("vdm").fit(X, y).pairwise(q, q)
    assert D[0, 1] == pytest.approx(0.38 * value_weight(TABLE1["X"]))
    assert D[1, 0] == pytest.approx(0.38 * value_weight(TABLE1["Y"]))
    assert D[0, 1] != pytest.approx(D[1, 0])


def test_eq6_minimum_weight_and_bounds():
    assert minimum_value_weight(3) == pytest.approx(3**-0.5)
    assert value_weight([1 / 3] * 3) == pytest.approx(minimum_value_weight(3))
    assert value_weight([0.0, 1.0, 0.0]) == pytest.approx(1.0)
    rng = np.random.default_rng(0)
    p = rng.dirichlet(np.ones(4), size=1000)
    w = value_weight(p)
    assert (w >= minimum_value_weight(4) - 1e-12).all() and (w <= 1 + 1e-12).all()


def test_value_weights_helper_on_table1():
    X, y = table1_data()
    weights, lowest = value_weights(X, y)
    assert lowest == pytest.approx(3**-0.5)
    for symbol, p in TABLE1.items():
        assert weights["a"][symbol] == pytest.approx(value_weight(p))


def test_eq4_delta_reaches_2_not_1():
    """Section 2 says delta lies in [0, 1]; Eq. 4 as printed reaches 2 for values seen with one different class
    each, and never exceeds it."""
    assert vdm_delta([1.0, 0.0], [0.0, 1.0]) == pytest.approx(2.0)
    rng = np.random.default_rng(1)
    p, q = rng.dirichlet(np.ones(5), size=(2, 1000))
    assert (vdm_delta(p, q) <= 2 + 1e-12).all()


def _fold_results():
    """Two seeds x two tie rules x ten folds of zoo and votes: VDM far above OM on zoo, far below on votes."""
    rows = []
    for seed in (1, 2):
        for rule in ("random", "all"):
            for fold in range(10):
                wobble = (fold % 3) * 0.5 + seed
                rows += [
                    (seed, "zoo", "OM", fold, rule, 80.0 + wobble),
                    (seed, "zoo", "VDM", fold, rule, 90.0 + wobble + (fold % 2)),
                    (seed, "votes", "OM", fold, rule, 90.0 + wobble),
                    (seed, "votes", "VDM", fold, rule, 85.0 + wobble - (fold % 2)),
                ]
    return pd.DataFrame(rows, columns=["seed", "dataset", "metric", "fold", "rule", "accuracy"])


def test_fold_table_and_significance_marks_read_one_rule_and_seed():
    from lazylib.protocols.payne1998 import protocol as P1

    results = _fold_results()
    folds = P1.fold_table(results, "random", 2)
    assert folds.shape == (20, 2) and list(folds.columns) == ["OM", "VDM"]
    assert folds.loc[("zoo", 0), "OM"] == 82.0 and folds.loc[("votes", 1), "VDM"] == 86.5
    marks = P1.significance_marks(folds, ["zoo", "votes"], ["VDM"])
    assert marks.to_dict() == {("zoo", "VDM"): "bold", ("votes", "VDM"): "italic"}
    same = results.assign(accuracy=80.0 + results["fold"] % 2)
    assert P1.significance_marks(P1.fold_table(same, "all", 1), ["zoo"], ["VDM"]).tolist() == [""]


def test_accuracy_bands_are_the_prediction_bands_of_each_cells_runs():
    from lazylib.protocols.payne1998 import protocol as P1
    from lazylib.report.bands import PERCENT, prediction_band

    results = _fold_results()
    cv = results.groupby(["rule", "dataset", "metric", "seed"])["accuracy"].mean()
    cells = pd.MultiIndex.from_product([["zoo", "votes"], ["OM", "VDM"]], names=["dataset", "metric"])
    bands = P1.accuracy_bands(cv["random"], cells, digits=2)
    assert list(bands.index) == list(cells) and list(bands.columns) == ["mean", "low", "high"]
    expected = prediction_band(cv["random"].loc[("votes", "VDM")].to_numpy(), digits=2, bounds=PERCENT)
    assert bands.loc[("votes", "VDM")].tolist() == [expected.centre, expected.low, expected.high]
    assert (bands["low"] < bands["mean"]).all() and (bands["high"] <= 100).all()


def test_variant_accuracy_reads_each_protocol_variant():
    """The variants of Table 2's largest gaps on lenses, where every value occurs in every training part: read
    uniform, unseen values change nothing (the same folds and rule as a direct cross-validation); every variant is
    a percentage; an unknown variant is refused by name."""
    from lazylib import datasets, evaluation, metrics
    from lazylib.neighbors import KNeighborsClassifier, accuracy_by_rule
    from lazylib.protocols.payne1998.protocol import PROTOCOL_VARIANTS, variant_accuracy

    ds = datasets.load("lenses")
    X, y = metrics.encode(ds.X), ds.y
    got = {v: variant_accuracy(X, y, "vdm", v, [1, 2], rule="random") for v in PROTOCOL_VARIANTS}
    assert all(0 <= a <= 100 for a in got.values())
    direct = [
        accuracy_by_rule(KNeighborsClassifier(1, "vdm").fit(X.take(tr), y.iloc[tr]), X.take(te), y.iloc[te],
                         ["random"])["random"]
        for seed in [1, 2] for tr, te in evaluation.stratified_kfold(y, 10, random_state=seed)
    ]  # fmt: skip
    assert got["unseen uniform"] == pytest.approx(100 * np.mean(direct), abs=1e-12)
    with pytest.raises(ValueError, match="variant"):
        variant_accuracy(X, y, "vdm", "stratified", [1], rule="random")
