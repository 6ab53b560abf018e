"""Allocations stay within working_memory (issue #40): each routine is run under tracemalloc on inputs sized so
that an unbounded version would exceed the limit many times over."""

from __future__ import annotations

import tracemalloc

import numpy as np

from lazylib.metrics._sets import _exact
from lazylib.vfi import VFI5Classifier


def _peak(call) -> int:
    tracemalloc.start()
    try:
        call()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_the_set_kernels_exact_path_blocks_one_pair_of_large_sets():
    """Two sets of 1,500 identical-ish members: their 2.25 million member pairs (144 MB of differences at
    once) are compared within a 1 MiB budget, and the minimum is the one found by brute force on a sample."""
    rng = np.random.default_rng(0)
    A = rng.integers(0, 50, size=(1500, 2)).astype(float)
    B = np.vstack([A[::-1] + 0.5, A[:1] + 0.25])
    starts, sizes_a, sizes_b = np.array([0]), np.array([len(A)]), np.array([len(B)])
    budget = 2**20
    got = []
    peak = _peak(
        lambda: got.append(_exact(A, starts, sizes_a, B, starts, sizes_b, np.array([0]), np.array([0]), budget))
    )
    assert peak < 3 * budget, peak
    assert got[0][0] == 0.25**2 * 2
    assert got[0][0] == min(((A[:, None, :] - B[None, ::7, :]) ** 2).sum(2).min(), got[0][0])


def test_vfi5_classifies_within_working_memory():
    rng = np.random.default_rng(1)
    X, y = rng.normal(size=(20_000, 10)), rng.integers(0, 4, 20_000)
    clf = VFI5Classifier(working_memory=0.25).fit(X[:2000], y[:2000], types=["continuous"] * 10)
    out = []
    peak = _peak(lambda: out.append(clf.predict(X)))
    # the result (20,000 labels) and the encoded queries (1.6 MB) plus one chunk of 0.25 MiB
    assert peak < X.nbytes + 2**20, peak
    assert len(out[0]) == len(X)


def test_the_table_of_value_differences_is_built_in_blocks():
    """HVDM's N1 and the printed DVDM take a (V, V) table of value differences: it was built from all (V, V, C)
    differences at once (1.4 GB for 3,000 values and 20 classes); now a block of rows at a time, with the same
    bits as all at once."""
    from lazylib.metrics._attributes import value_differences

    rng = np.random.default_rng(0)
    P = rng.dirichlet(np.ones(30), size=600)  # 600 values, 30 classes: 86 MB of differences at once
    budget = 2**20
    for form in ("l1", "l1sq", "sqsq"):
        peak = _peak(lambda form=form: value_differences(P, form, max_bytes=budget))
        assert peak < budget + 3 * 600 * 600 * 8, (form, peak)
    diff = np.abs(P[:, None, :] - P[None, :, :])
    assert np.array_equal(value_differences(P, "l1", max_bytes=budget), diff.sum(-1))
    assert np.array_equal(value_differences(P, "l1sq", max_bytes=budget), diff.sum(-1) ** 2)
    assert np.array_equal(value_differences(P, "sqsq", max_bytes=budget), ((diff**2).sum(-1)) ** 2)
