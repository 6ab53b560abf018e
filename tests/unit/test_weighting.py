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
