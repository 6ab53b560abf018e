"""FD, IG and MDW through the engine's matrix product (issue #38): numeric features with few distinct values are
compared through tables of their differences (``lazylib.weighting.feature_difference.AbsoluteTable``); the
distances, the k chosen by leave-one-out and the predictions equal those of the direct term-by-term path."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from lazylib import datasets
from lazylib.protocols.bench.methods import LooKNeighbors
from lazylib.weighting import MDW, FeatureDifference, IGWeighted, feature_difference


def _data():
    rng = np.random.default_rng(4)
    y = pd.Series(rng.choice(list("abc"), 300))
    X = pd.DataFrame({f"x{j}": rng.integers(0, 6, 300).astype(float) + (y == "a") * (j % 2) for j in range(5)})
    X.iloc[rng.integers(0, 300, 20), 1] = np.nan  # unknown values: difference 1
    X["colour"] = pd.Categorical(rng.choice(["r", "g"], 300))
    letter = datasets.load("letter")
    return [(X, y), (letter.X.iloc[:700], letter.y.iloc[:700])]


@pytest.mark.parametrize("cls", [FeatureDifference, IGWeighted, MDW])
def test_tables_equal_the_direct_path(cls, monkeypatch):
    for X, y in _data():
        test = np.arange(1, len(X), 3)
        train = np.setdiff1d(np.arange(len(X)), test)
        tabled = LooKNeighbors(cls, ks=(1, 3, 5, 7)).fit(X.iloc[train], y.iloc[train])
        assert all(isinstance(t, feature_difference.AbsoluteTable) for t in tabled.knn_.metric_.attributes_[:5])
        monkeypatch.setattr(feature_difference, "TABLE_VALUES", 0)
        direct = LooKNeighbors(cls, ks=(1, 3, 5, 7)).fit(X.iloc[train], y.iloc[train])
        monkeypatch.undo()
        assert not any(isinstance(t, feature_difference.AbsoluteTable) for t in direct.knn_.metric_.attributes_)
        pd.testing.assert_series_equal(tabled.loo_, direct.loo_)
        assert tabled.k_ == direct.k_
        np.testing.assert_array_equal(tabled.predict(X.iloc[test]), direct.predict(X.iloc[test]))
        np.testing.assert_allclose(
            tabled.knn_.metric_.pairwise(X.iloc[test]), direct.knn_.metric_.pairwise(X.iloc[test]), rtol=1e-12
        )


def test_a_many_valued_feature_keeps_every_feature_direct():
    X = pd.DataFrame({"few": np.arange(100) % 3, "many": np.arange(100) / 7.0})
    metric = FeatureDifference().fit(X)
    assert not any(isinstance(t, feature_difference.AbsoluteTable) for t in metric.attributes_)
