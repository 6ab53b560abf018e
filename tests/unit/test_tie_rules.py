"""lazylib.neighbors: every rule from one search equals the classifier's own score under that rule."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from lazylib.neighbors import KNeighborsClassifier, accuracy_by_rule


def symbolic(n, m, values, classes, seed):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({f"a{j}": pd.Categorical(rng.integers(0, values, n)) for j in range(m)})
    y = pd.Series(rng.integers(0, classes, n)).map(lambda c: f"c{c}")
    return X, y


@pytest.mark.parametrize("metric", ["overlap", "mvdm", "vdm", "omvw"])
@pytest.mark.parametrize("k", [1, 3])
def test_equals_score_of_each_rule(metric, k):
    X, y = symbolic(120, 4, 3, 3, seed=k)  # few values: many ties
    train, test = np.arange(80), np.arange(80, 120)
    ours = accuracy_by_rule(
        KNeighborsClassifier(k, metric).fit(X.iloc[train], y.iloc[train]), X.iloc[test], y.iloc[test]
    )
    for rule in ("all", "first", "random"):
        clf = KNeighborsClassifier(k, metric, ties=rule).fit(X.iloc[train], y.iloc[train])
        assert ours[rule] == pytest.approx(clf.score(X.iloc[test], y.iloc[test], expected=True), abs=1e-12)


def test_random_is_the_share_of_tied_neighbours_of_the_true_class():
    # one attribute, every stored instance tied: the expected accuracy is the class share in training
    X = pd.DataFrame({"a": pd.Categorical(["u"] * 5)})
    y = pd.Series(["p", "p", "p", "n", "n"])
    clf = KNeighborsClassifier(1, "overlap").fit(X, y)
    got = accuracy_by_rule(clf, X.iloc[:1], y.iloc[:1])
    assert got["random"] == pytest.approx(0.6)
    assert got["all"] == 1.0 and got["first"] == 1.0


def test_unknown_class_counts_as_wrong_and_rules_are_checked():
    X = pd.DataFrame({"a": pd.Categorical(["u", "v", "u"])})
    clf = KNeighborsClassifier(1, "overlap").fit(X, pd.Series(["p", "n", "p"]))
    assert accuracy_by_rule(clf, X.iloc[:1], pd.Series(["z"]))["random"] == 0.0
    with pytest.raises(ValueError):
        accuracy_by_rule(clf, X, pd.Series(["p", "n", "p"]), rules=["nearest"])
    with pytest.raises(ValueError):
        accuracy_by_rule(clf, X, pd.Series(["p"]))
