"""The generators reproduce their defining statistics, and identical seeds give identical data."""

from __future__ import annotations

import numpy as np
import pytest

from lazylib import synthetic


def test_led_flip_rate_balance_and_irrelevant():
    X, y = synthetic.led(40000, noise=0.10, n_irrelevant=17, random_state=0)
    assert X.shape == (40000, 24)
    digits = y.cat.codes.to_numpy()
    segments = X.iloc[:, :7].apply(lambda c: c.cat.codes).to_numpy()
    flips = segments != synthetic.LED_SEGMENTS[digits]
    assert flips.mean() == pytest.approx(0.10, abs=0.003)
    assert np.bincount(digits, minlength=10) / 40000 == pytest.approx(np.full(10, 0.1), abs=0.006)
    extra = X.iloc[:, 7:].apply(lambda c: c.cat.codes).to_numpy()
    assert extra.mean() == pytest.approx(0.5, abs=0.005)
    # irrelevant attributes are independent of the class
    for d in range(10):
        assert extra[digits == d].mean() == pytest.approx(0.5, abs=0.02)


def test_led_is_deterministic_and_noise_free_when_asked():
    a = synthetic.led(50, random_state=3)
    b = synthetic.led(50, random_state=3)
    assert a[0].equals(b[0]) and a[1].equals(b[1])
    X, y = synthetic.led(200, noise=0.0, random_state=1)
    codes = X.apply(lambda c: c.cat.codes).to_numpy()
    np.testing.assert_array_equal(codes, synthetic.LED_SEGMENTS[y.cat.codes.to_numpy()])


def test_waveform_means_and_noise_attributes():
    X, y = synthetic.waveform(30000, n_noise=19, random_state=0)
    assert X.shape == (30000, 40)
    cls = y.cat.codes.to_numpy()
    for k, (i, j) in enumerate(synthetic.WAVE_PAIRS):
        expected = 0.5 * synthetic.WAVES[i] + 0.5 * synthetic.WAVES[j]
        np.testing.assert_allclose(X.iloc[:, :21].to_numpy()[cls == k].mean(0), expected, atol=0.06)
    noise = X.iloc[:, 21:].to_numpy()
    assert noise.mean() == pytest.approx(0, abs=0.01) and noise.std() == pytest.approx(1, abs=0.01)
    assert np.bincount(cls) / 30000 == pytest.approx(np.full(3, 1 / 3), abs=0.01)


def test_r_n_regions_have_equal_volume_and_counts():
    for n in range(1, 7):
        X, y = synthetic.r_n(n, random_state=n)
        assert X.shape == (100, n)
        side = X.sum(axis=1).to_numpy() < n / 2
        np.testing.assert_array_equal(side, y.cat.codes.to_numpy() == 0)
        assert ((X >= 0) & (X <= 1)).all().all()
    big = np.random.default_rng(0).random((200000, 4))
    assert (big.sum(1) < 2).mean() == pytest.approx(0.5, abs=0.005)  # the cut halves the cube


@pytest.mark.parametrize("split", synthetic.R_N_SPLITS)
def test_r_n_splits_halve_the_cube_and_label_by_region(split):
    big = np.random.default_rng(0).random((200000, 6))
    for n in range(1, 7):
        region = synthetic.r_n_region(big[:, :n], split)
        assert region.mean() == pytest.approx(0.5, abs=0.005)
        X, y = synthetic.r_n(n, split=split, random_state=n)
        np.testing.assert_array_equal(synthetic.r_n_region(X, split), y.cat.codes.to_numpy())
        assert y.value_counts().tolist() == [50, 50]
    # the three readings differ from n = 2 on, and agree for n = 1 (the cut at 0.5)
    pts = np.array([[0.6, 0.6], [0.9, 0.2], [0.2, 0.2]])
    assert {s: synthetic.r_n_region(pts, s).tolist() for s in synthetic.R_N_SPLITS}[split] == {
        "oblique": [1, 1, 0],
        "corner": [1, 0, 0],
        "parity": [0, 1, 0],
    }[split]
    np.testing.assert_array_equal(synthetic.r_n_region(big[:, :1], split), big[:, 0] >= 0.5)


def test_r_n_corner_reading_each_feature_alone_informative_parity_none():
    # the readings differ in what one feature tells: class means of a feature differ under "corner", not "parity"
    X, y = synthetic.r_n(4, split="corner", n_per_region=2000, random_state=0)
    gap = X[y == "1"].mean() - X[y == "0"].mean()
    assert (gap > 0.1).all()
    X, y = synthetic.r_n(4, split="parity", n_per_region=2000, random_state=0)
    gap = X[y == "1"].mean() - X[y == "0"].mean()
    assert (gap.abs() < 0.03).all()


def test_payne_problems():
    X, y = synthetic.payne_separable(random_state=0)
    assert len(X) == 100 and ((X["x1"] < 0.5) == (y == "0")).all()
    X, y = synthetic.payne_inseparable(random_state=0)
    xor = (X["x1"] >= 0.5) ^ (X["x2"] >= 0.5)
    assert len(X) == 100 and (xor == (y == "1")).all() and y.value_counts().tolist() == [50, 50]


def test_payne_inseparable_margin_reading():
    """margin=0 draws what the generator drew before it had the parameter; a margin empties strips around 0.5."""
    rng = np.random.default_rng(3)
    parts = [
        np.column_stack([rng.uniform(lx, lx + 0.5, 25), rng.uniform(ly, ly + 0.5, 25)])
        for lx, ly in ((0, 0), (0.5, 0.5), (0, 0.5), (0.5, 0))
    ]  # the former draws, verbatim
    X, y = synthetic.payne_inseparable(random_state=3)
    assert np.array_equal(X.to_numpy(), np.vstack(parts))
    X, y = synthetic.payne_inseparable(margin=0.1, random_state=0)
    assert ((X - 0.5).abs() > 0.05).all().all() and X.to_numpy().min() >= 0 and X.to_numpy().max() <= 1
    assert (((X["x1"] >= 0.5) ^ (X["x2"] >= 0.5)) == (y == "1")).all()
    with pytest.raises(ValueError, match="margin"):
        synthetic.payne_inseparable(margin=0.7)


def test_payne_separable_readings():
    """The alternatives of the separable problem's reading: a margin between the classes, a diagonal boundary."""
    X, y = synthetic.payne_separable(margin=0.2, random_state=0)
    assert (X["x1"][y == "0"] < 0.4).all() and (X["x1"][y == "1"] > 0.6).all()
    X, y = synthetic.payne_separable(boundary="diagonal", margin=0.1, random_state=0)
    side = (X["x1"] + X["x2"] - 1) / np.sqrt(2)
    assert len(X) == 100 and (side[y == "0"] < -0.05).all() and (side[y == "1"] > 0.05).all()
    assert X.to_numpy().min() >= 0 and X.to_numpy().max() <= 1
    with pytest.raises(ValueError, match="boundary"):
        synthetic.payne_separable(boundary="circle")


def test_irrelevant_and_redundant_attributes():
    X, y = synthetic.payne_separable(random_state=0)
    wide = synthetic.add_irrelevant(X, 5, kind="uniform", random_state=1)
    assert wide.shape == (100, 7) and wide.iloc[:, :2].equals(X)
    nom = synthetic.add_irrelevant(X, 3, kind="nominal", n_values=4, random_state=1)
    assert list(nom.iloc[:, 2].cat.categories) == ["0", "1", "2", "3"]
    red = synthetic.add_redundant(X, 6, delta=0.05, random_state=2)
    np.testing.assert_allclose(red["copy1_x1"], X["x1"])
    np.testing.assert_allclose(red["inverted2_x1"], 1 - X["x1"])
    ratio = red["perturbed3_x1"] / X["x1"]
    assert ((ratio > 0.95) & (ratio < 1.05)).all() and not np.allclose(ratio, 1)
    with pytest.raises(ValueError, match="kind"):
        synthetic.add_irrelevant(X, 1, kind="gaussian")
