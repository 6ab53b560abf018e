"""The blocked leave-one-out subset scoring of the MC wrapper (issue #38) gives the numbers of the whole-table
implementation it replaced (recorded in ``tests/fixtures/mc_selection_oracle.json`` by
``tests/fixtures/mc_selection_oracle.py`` before the change), whatever its block sizes, and keeps its temporaries
within ``working_memory``."""

from __future__ import annotations

import json
import sys
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

from lazylib.selection import MonteCarloSelector, _loo_blocks, loo_subset_accuracy, random_subsets

FIXTURES = Path(__file__).parents[1] / "fixtures"
sys.path.insert(0, str(FIXTURES))
from mc_selection_oracle import cases  # noqa: E402

ORACLE = json.loads((FIXTURES / "mc_selection_oracle.json").read_text())


@pytest.mark.parametrize("memory", [64, 0.5, 0.0001])  # one block, a few queries per block, one query and subset
def test_blocked_scores_equal_the_whole_table_implementation(memory):
    for name, X, y, masks, ties in cases():
        if memory < 0.001 and len(X) > 60:
            continue  # a block per query and subset: the smallest case suffices
        got = loo_subset_accuracy(X, y, masks, ties=ties, working_memory=memory)
        np.testing.assert_array_equal(got, ORACLE["loo"][name], err_msg=name)


@pytest.mark.parametrize("name", ["iris", "wine"])
def test_mc_choice_equals_the_whole_table_implementation(name):
    from lazylib.datasets import load
    from lazylib.labels import encode_labels

    d = load(name)
    X = d.X.to_numpy(float)
    X = (X - X.min(axis=0)) / (X.max(axis=0) - X.min(axis=0))
    codes, _ = encode_labels(d.y, len(X), column=True)
    sel = MonteCarloSelector(n_subsets=30, random_state=7, working_memory=0.05).fit(X, codes)
    assert sel.support_.tolist() == ORACLE["mc"][name]["support"]
    np.testing.assert_array_equal(sel.scores_, ORACLE["mc"][name]["scores"])


def _peak(fn):
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_letter_sized_scoring_stays_within_working_memory():
    """20,000 x 16 (letter's size): the whole table would be 2 x 51 GB; with 16 MiB of working memory the first
    blocks of the scoring stay within it (beside the class-sorted copy of the data), and so does a whole run on
    2,000 rows."""
    rng = np.random.default_rng(0)
    n, J, memory = 20_000, 16, 16.0
    X = rng.normal(size=(n, J))
    y = rng.integers(0, 26, n)
    masks = random_subsets(J, 100, rng)
    blocks = _loo_blocks(X, y, masks, "all", 1e-9, memory * 2**20)
    peak = _peak(lambda: [next(blocks) for _ in range(3)])
    print(f"letter-sized blocks: peak {peak / 2**20:.1f} MiB")
    assert peak < memory * 2**20 + 2 * X.nbytes
    small = slice(0, 2000)
    peak = _peak(lambda: loo_subset_accuracy(X[small], y[small], masks[:4], working_memory=memory))
    print(f"2,000 rows: peak {peak / 2**20:.1f} MiB")
    assert peak < memory * 2**20 + 2 * X[small].nbytes  # the whole table: 2 x 512 MB


def test_random_subsets_refuses_what_does_not_fit():
    with pytest.raises(ValueError, match="working_memory"):
        random_subsets(40, 10**12, np.random.default_rng(0))
    peak = _peak(lambda: random_subsets(40, 20_000, np.random.default_rng(0), working_memory=4))
    print(f"20,000 subsets: peak {peak / 2**20:.1f} MiB")
    assert peak < 2 * 4 * 2**20  # the subsets within 4 MiB, the block of random draws within another 4
    with pytest.raises(ValueError, match="n_subsets"):
        random_subsets(4, 0, np.random.default_rng(0))
    with pytest.raises(ValueError, match="n_attributes"):
        random_subsets(0, 5, np.random.default_rng(0))


def test_random_subsets_draws_as_before_and_leaves_the_stream_where_it_did():
    """Drawn in blocks, the subsets and the generator's state after the call are those of one draw per pass."""
    a, b = np.random.default_rng(3), np.random.default_rng(3)
    small = random_subsets(12, 50, a, working_memory=0.01)  # blocks of a few rows
    rows, seen = [np.ones(12, bool)], {np.ones(12, bool).tobytes()}
    while len(rows) < 50:
        for row in b.random((100, 12)) < 0.5:
            if row.any() and row.tobytes() not in seen:
                seen.add(row.tobytes())
                rows.append(row)
                if len(rows) == 50:
                    break
    np.testing.assert_array_equal(small, np.array(rows))
    assert a.random() == b.random()
