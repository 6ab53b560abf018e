"""The record a fitted metric hands the engine (:class:`lazylib.metrics._declaration.Declaration`, issue #50 item 3):
built once per fit, read by every computation, rebuilt (its training data's stored side dropped) when the weights
are set; its derived facts are those of the terms."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from lazylib.metrics import make_metric
from lazylib.metrics._declaration import Declaration


def _data(seed: int = 0, n: int = 60):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(
        {
            "a": pd.Categorical(rng.choice(["x", "y", "z"], n)),
            "b": rng.normal(size=n),
            "c": rng.normal(size=n) * 10.0,
        }
    )
    X.loc[rng.random(n) < 0.1, "b"] = np.nan
    return X, rng.choice(["p", "q"], n)


def test_the_declaration_is_built_once_per_fit_and_kept_by_every_computation():
    X, y = _data()
    metric = make_metric("hvdm").fit(X, y)
    declared = metric._declaration
    D = metric.pairwise(X)
    list(metric.nearest_chunks(X, 3))
    list(metric.nearest_chunks(None, 3, leave_one_out=True))
    assert metric._declaration is declared
    assert set(declared.training_sides) == {True}  # the training data's stored side, built once and kept
    metric.fit(X, y)
    assert metric._declaration is not declared  # a new fit, a new record
    np.testing.assert_array_equal(metric.pairwise(X), D)


def test_setting_the_weights_gives_a_new_declaration_without_the_old_stored_side():
    X, y = _data(1)
    metric = make_metric("hvdm").fit(X, y)
    D = metric.pairwise(X[:5])
    declared = metric._declaration
    assert declared.training_sides
    metric.weights_ = np.full(3, 4.0)
    assert metric._declaration is not declared and metric._declaration.training_sides == {}
    assert metric._declaration.weights is metric.weights_ and declared.weights is None
    np.testing.assert_allclose(metric.pairwise(X[:5]), 2.0 * D, rtol=1e-12)


@pytest.mark.parametrize(
    ("name", "params", "bilinear", "direct", "separable", "roots"),
    [
        ("hvdm", {}, (0, 1, 2), (), True, False),
        ("heom", {}, (0, 1, 2), (), False, False),  # overlap's value table spans both sides: not separable
        ("ivdm", {"erratum": False}, (0,), (1, 2), True, True),
        ("manhattan", {}, (), (0, 1, 2), False, False),
    ],
)
def test_the_declared_facts_are_the_terms(name, params, bilinear, direct, separable, roots):
    X, y = _data(2)
    X = X.assign(a=X["a"].cat.codes.astype(float)) if name == "manhattan" else X
    metric = make_metric(name, **params).fit(X, y)
    declared = metric._declaration
    assert isinstance(declared, Declaration) and declared.terms == tuple(metric.attributes_)
    assert (declared.bilinear_attributes, declared.direct_attributes) == (bilinear, direct)
    assert declared.separable == separable and (declared.root_terms is not None) == roots
    assert declared.searchable == (not direct)
    assert declared.root == metric.root_ and declared.working_memory == metric.working_memory
    assert declared.uses_engine and declared.block is None


def test_a_metric_outside_the_engine_declares_its_blocks():
    X = np.random.default_rng(3).normal(size=(20, 3))
    metric = make_metric("chebychev").fit(X)
    declared = metric._declaration
    assert not declared.uses_engine and declared.terms == () and declared.block == metric._block
    np.testing.assert_allclose(metric.pairwise(X[:4]), np.abs(X[:4, None] - X[None]).max(axis=2))
