"""WOM weight learning (Payne & Edwards Eq. 7)."""

from __future__ import annotations

import numpy as np
import pytest

from lazylib.synthetic import led
from lazylib.weighting import wom_weights


def test_eq7_single_update_by_hand():
    # instance 0's nearest neighbour is instance 1 (differs only in attribute 2), same class: correct
    X = np.array([[0, 0, 0], [0, 0, 1], [1, 1, 1]], dtype=float)
    y = np.array([0, 0, 1])
    res = wom_weights(X[:, :], y, types=["nominal"] * 3, n_passes=1)
    raw = np.array([1.02, 1.02, 0.98])  # history rows are rescaled to mean 1
    np.testing.assert_allclose(res.history.iloc[1].to_numpy(), raw / raw.mean())


def test_irrelevant_led_attributes_lose_weight():
    X, y = led(300, n_irrelevant=10, random_state=0)
    res = wom_weights(X, y, n_passes=2, order="shuffle", random_state=1)
    assert res.weights.iloc[:7].mean() > 1.5 * res.weights.iloc[7:].mean()
    assert len(res.history) == 1 + 2 * 300 and len(res.loo_accuracy) == 2
    np.testing.assert_allclose(res.history.mean(axis=1), 1.0)


def test_deterministic_given_seed_and_validates():
    X, y = led(80, n_irrelevant=3, random_state=2)
    a = wom_weights(X, y, order="shuffle", random_state=5).weights
    b = wom_weights(X, y, order="shuffle", random_state=5).weights
    assert a.equals(b)
    with pytest.raises(ValueError, match="mu"):
        wom_weights(X, y, mu=1.5)


def test_wom_learning_tie_rules():
    # tic-tac-toe under the overlap metric: many tied nearest neighbours in the leave-one-out steps
    from lazylib.datasets import load

    ds = load("tic-tac-toe")
    X, y = ds.X.iloc[::5], ds.y.iloc[::5]  # the file is sorted by class
    default = wom_weights(X, y)
    assert default.weights.equals(wom_weights(X, y, ties="all").weights)
    first = wom_weights(X, y, ties="first").weights
    drawn = [wom_weights(X, y, ties="random", random_state=s).weights for s in (0, 0, 1)]
    assert drawn[0].equals(drawn[1]) and not drawn[0].equals(drawn[2])  # seeded draws
    assert not drawn[0].equals(first)  # the steps meet ties here, which the rules settle differently
    with pytest.raises(ValueError, match="ties must be one of"):
        wom_weights(X, y, ties="nearest")


def test_loo_predictions_refuses_a_matrix_that_is_not_square_and_a_k_beyond_the_others():
    """Issue #40: a (20, 5) matrix was taken as the training distances (each row voted among 5 columns with the
    labels of the first 5 rows), and k = 50 of 20 instances failed in numpy's argpartition."""
    from lazylib.weighting.sets import loo_predictions

    rng = np.random.default_rng(0)
    x = rng.random(20)
    D, y = np.abs(np.subtract.outer(x, x)), np.arange(20) % 2
    with pytest.raises(ValueError, match=r"D must be the square \(n, n\) matrix .* got shape \(20, 5\)"):
        loo_predictions(D[:, :5], y)
    with pytest.raises(ValueError, match=r"k must be an integer >= 1 and <= 19, got 50"):
        loo_predictions(D, y, k=50)
    assert loo_predictions(D, y, k=19).shape == (20,)
