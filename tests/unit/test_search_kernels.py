"""The public kernels of :mod:`lazylib.search` (``select``, ``within``, ``kth_smallest``, ``kth_position``,
``row_starts``, ``tolerance``) refuse inputs that used to give a silent wrong answer (issue #40): a negative or
boolean ``k``, a row with fewer candidates than ``k`` (its k-th smallest was read from the next row), ``k`` beyond
the stored instances counted with their sizes, row indices beyond ``n``, a negative ``row_offset``, a NaN or
negative tolerance (an IndexError before). Their scalar parameters are walked in ``test_parameter_walk.py``."""

from __future__ import annotations

import numpy as np
import pytest

from lazylib import search
from lazylib.search import kth_position, kth_smallest, row_starts, select, tolerance, within

S = np.array([[3.0, 1.0, 2.0], [0.5, 4.0, 4.0]])


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(k=-1, tie_tolerance=1e-9), "k must be an integer >= 1, got -1"),
        (dict(k=True, tie_tolerance=1e-9), "k must be an integer >= 1, got True"),
        (dict(k=4, tie_tolerance=1e-9), "k must be at most the number of stored instances (3), got k = 4"),
        (dict(k=1, tie_tolerance=float("nan")), "tie_tolerance must be a finite number"),
        (dict(k=1, tie_tolerance=-0.5), "tie_tolerance must be a finite number >= 0 and < 1, got -0.5"),
        (dict(k=1, tie_tolerance=1e-9, row_offset=-3), "row_offset must be an integer >= 0, got -3"),
    ],
)
def test_select_refuses_what_it_used_to_answer_silently(kwargs, message):
    with pytest.raises(ValueError) as info:
        select(S, **kwargs)
    assert message in str(info.value)


def test_select_answers_as_before_on_valid_input():
    rows, cols, sums = select(S, k=2, tie_tolerance=1e-9, row_offset=5)
    assert rows.tolist() == [5, 5, 6, 6, 6] and cols.tolist() == [1, 2, 0, 1, 2]
    assert sums.tolist() == [1.0, 2.0, 0.5, 4.0, 4.0]


def test_kth_smallest_refuses_k_beyond_the_weighted_stored_instances():
    assert kth_smallest(S, 3, size=np.array([1, 1, 1])).tolist() == [3.0, 4.0]
    with pytest.raises(ValueError, match=r"at most the number of stored instances \(3\), got k = 5"):
        kth_smallest(S, 5, size=np.array([1, 1, 1]))  # was the largest column, silently


def test_within_refuses_a_row_with_fewer_candidates_than_k():
    rows, cols, sums = np.array([0, 1, 1]), np.array([0, 0, 1]), np.array([1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="got k = 2 where row 0 has 1"):
        within(rows, cols, sums, 2, 2, 1e-9)  # row 0 kept everything up to row 1's second sum
    assert [a.tolist() for a in within(rows, cols, sums, 2, 1, 1e-9)] == [[0, 1], [0, 0], [1.0, 2.0]]
    with pytest.raises(ValueError, match="got k = 3 where row 0 has 2"):
        within(rows, cols, sums, 2, 3, 1e-9, size=np.array([2, 1]))


def test_row_starts_and_kth_position_refuse_rows_beyond_n_and_short_rows():
    assert row_starts(np.array([0, 0, 1]), 2).tolist() == [0, 2]
    with pytest.raises(ValueError, match=r"n must exceed every row index, got n = 2 for rows 0..2"):
        row_starts(np.array([0, 1, 2]), 2)  # gave three starts for two rows
    with pytest.raises(ValueError, match="got k = 2 where row 0 has 1"):
        kth_position(np.array([0, 1, 1]), np.array([1, 1, 1]), np.array([0, 1]), 2, 2)  # read row 1's entry
    assert kth_position(np.array([0, 0, 1, 1]), np.array([1, 2, 1, 1]), np.array([0, 2]), 2, 2).tolist() == [1, 3]


def test_tolerance_refuses_nan_and_a_negative_floor():
    assert tolerance(np.array([0.5]), 1e-9, floor=1.0).tolist() == [1e-9]
    with pytest.raises(ValueError, match="tie_tolerance must be a finite number"):
        tolerance(np.array([0.5]), float("nan"))
    with pytest.raises(ValueError, match="floor must be a finite number >= 0, got -1.0"):
        tolerance(np.array([0.5]), 1e-9, floor=-1.0)


@pytest.mark.parametrize("kind", ["continuous", "ties", "nan", "inf", "descending", "float32"])
def test_kth_smallest_of_long_rows_below_a_sampled_bound_is_the_partition_s(kind):
    """Rows long enough (``BOUND_STRIDE * BOUND_SAMPLE * k`` entries) take their k-th smallest among the entries
    below a bound sampled from their columns; the values equal partitioning the whole row, also where the bound
    leaves too few entries (NaN in the sample) or too many (ties, infinities: those rows partitioned whole)."""
    rng = np.random.default_rng(7)
    k = 12
    S = rng.random((40, search.BOUND_STRIDE * search.BOUND_SAMPLE * k + 37))
    if kind == "ties":
        S = np.round(S * 6)
    elif kind == "nan":
        S[rng.random(S.shape) < 0.4] = np.nan
        S[0, :: search.BOUND_STRIDE] = np.nan  # a whole sample unknown: no bound
    elif kind == "inf":
        S[rng.random(S.shape) < 0.6] = np.inf
    elif kind == "descending":  # the sampled columns the row's largest
        S = np.sort(S, axis=1)[:, ::-1]
    elif kind == "float32":
        S = S.astype(np.float32)
    got = kth_smallest(S, k)
    assert got.dtype == S.dtype
    np.testing.assert_array_equal(got, np.partition(S, k - 1, axis=1)[:, k - 1])
