"""The learners sped up by issue #52 item 4 give the bits they gave before (lazylib at commit db5ef50, recorded in
``tests/fixtures/learners_oracle.json`` by ``tests/fixtures/learners_oracle.py``, which says how): the bench's rows
of CA, CACP, NN, MC, FNN, MDW, IG, FD and WOM on the first folds of a few data sets, and the exact bytes of their
intermediate results; and the column-by-column squared distances of the sub-space sweep equal the cumulative sum
they replaced."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from lazylib.subspace import width_distances

FIXTURES = Path(__file__).parents[1] / "fixtures"
sys.path.insert(0, str(FIXTURES))
import learners_oracle  # noqa: E402

ORACLE = json.loads((FIXTURES / "learners_oracle.json").read_text())


def _cumulative(Q, S, widths):
    """The computation :func:`width_distances` replaced: every column's squared differences at once, one
    cumulative sum, the widths gathered, width-major."""
    diff = Q[:, None, :] - S[None, :, :]
    return np.moveaxis(np.cumsum(diff * diff, axis=2)[:, :, np.asarray(widths) - 1], 2, 0)


@pytest.mark.parametrize("seed", range(4))
def test_width_distances_are_the_bits_of_the_cumulative_sum(seed):
    rng = np.random.default_rng(seed)
    J = (1, 5, 13, 36)[seed]
    Q = rng.normal(size=(17, J)) * 10.0 ** rng.integers(-3, 4, J)
    S = np.vstack([Q[:5], rng.normal(size=(40, J))])  # some identical pairs (distance exactly 0)
    for widths in (np.arange(1, J + 1), [J], [J, 1, 1], sorted({1, J // 2 + 1, J})):
        got, want = width_distances(Q, S, widths), _cumulative(Q, S, widths)
        assert got.shape == want.shape
        assert got.tobytes() == want.tobytes(), (seed, widths)


def test_width_distances_of_no_width_are_empty():
    assert width_distances(np.zeros((3, 2)), np.zeros((4, 2)), []).shape == (0, 3, 4)


def test_bench_rows_are_the_recorded_bits():
    got = learners_oracle.bench_rows()
    assert got.keys() == ORACLE["rows"].keys()
    differ = {key: (got[key], want) for key, want in ORACLE["rows"].items() if got[key] != want}
    assert not differ


def test_intermediate_results_are_the_recorded_bytes():
    got = learners_oracle.intermediates()
    assert got == ORACLE["intermediates"]
