"""The engine's search through per-attribute tables (:mod:`lazylib.metrics._tables`, issue #52 item 3) finds what
the single-precision filter finds, to the last bit: on nominal tables large enough to take it (unknown values on
both sides, values the training data never had, duplicated stored rows), for the metrics made of tables (overlap,
IB1-IG, MVDM, VDM with its query weights, HVDM, weighted overlap), every k and tie rule, the neighbours and their
distances, the class counts, the predictions and the leave-one-out ones are those of the search with the tables
turned off; and the tables were used. The shared search of :mod:`lazylib.table_search` gives
:mod:`lazylib.classify` its predictions (``tests/unit/test_classify.py``)."""

from __future__ import annotations

import contextlib
from unittest import mock

import numpy as np
import pandas as pd
import pytest

from lazylib.metrics import _tables
from lazylib.metrics._probabilities import ValueTable, known_values
from lazylib.metrics.overlap import Overlap
from lazylib.metrics.vdm import MVDM
from lazylib.neighbors import KNeighborsClassifier
from lazylib.weighting.infogain import IGWeighted

CARDS = (2, 3, 4, 5, 6, 8, 3, 4)


def _data(n: int, seed: int, missing: float = 0.02, unseen: bool = False, duplicates: bool = False):
    """Nominal codes (NaN unknown), classes decided by the first attributes with noise."""
    rng = np.random.default_rng(seed)
    Z = np.column_stack([rng.integers(0, v, n) for v in CARDS]).astype(float)
    if duplicates:  # a third of the rows copies of a few
        Z[: n // 3] = Z[rng.integers(n // 3, n // 3 + 40, n // 3)]
    y = (Z[:, 0] + Z[:, 1] * Z[:, 2]) % 3
    flip = rng.random(n) < 0.1
    y[flip] = rng.integers(0, 3, flip.sum())
    Z[rng.random(Z.shape) < missing] = np.nan
    if unseen:
        Z[rng.random(Z.shape) < 0.03] = 9.0  # a code no training row holds
    return Z, y.astype(int)


METRICS = {
    "overlap": lambda: "overlap",
    "ig": IGWeighted,
    "mvdm": lambda: "mvdm",
    "vdm": lambda: "vdm",
    "hvdm": lambda: "hvdm",
    "weighted overlap": lambda: Overlap(weights=np.linspace(0.3, 2.0, len(CARDS))),
    "mvdm in 1 MiB": lambda: MVDM(working_memory=1.0),  # blocks of fewer queries than QUERY_BLOCK
}


def _results(clf, Q, k: int, rng_seed: int = 0):
    d, i = clf.kneighbors(Q, k)
    nb = clf.neighbourhood(Q)
    out = {"distances": d, "indices": i, "strict": nb.strict, "tied": nb.tied, "predict": clf.predict(Q)}
    for ties in ("first", "random"):
        other = KNeighborsClassifier(k, clf.metric, ties=ties, random_state=rng_seed).fit(clf.X_fit_, clf.y_fit_)
        out[f"predict {ties}"] = other.predict(Q)
    out["loo"] = clf.predict_loo()
    return out


def _fit(name: str, k: int, X, y):
    clf = KNeighborsClassifier(k, METRICS[name](), ties="all").fit(X, y, types=["nominal"] * X.shape[1])
    clf.X_fit_, clf.y_fit_ = X, y  # for the other tie rules' classifiers
    return clf


@contextlib.contextmanager
def counting_tables():
    """A list that each attempt to make the tables (``TableSearch.of``) extends while the block runs: True where
    they were made, False where the search declined them."""
    made = []
    original = _tables.TableSearch.of.__func__

    def counting(cls, *args, **kwargs):
        found = original(cls, *args, **kwargs)
        made.append(found is not None)
        return found

    with mock.patch.object(_tables.TableSearch, "of", classmethod(counting)):
        yield made


def _both(name: str, k: int, X, y, Q):
    """The results with the tables and without them (the search they replace), and how often they were used."""
    with counting_tables() as made:
        fast = _results(_fit(name, k, X, y), Q, k)
    with mock.patch.object(_tables, "TABLE_ROWS", 10**9):
        general = _results(_fit(name, k, X, y), Q, k)
    return fast, general, made


def _assert_same(fast: dict, general: dict) -> None:
    for what, value in general.items():
        got = fast[what]
        assert got.shape == value.shape, what
        if got.dtype.kind == "f":
            assert np.array_equal(got.view(np.uint64), value.view(np.uint64)), f"{what} differ in their bits"
        else:
            assert np.array_equal(got, value), f"{what} differ"


@pytest.mark.parametrize("name", list(METRICS))
@pytest.mark.parametrize("k", [1, 4])
def test_the_tables_find_the_filter_s_neighbours_to_the_last_bit(name, k):
    X, y = _data(5000, seed=k)
    Q, _ = _data(300, seed=10 + k, unseen=True)
    Q[:20] = X[:20]  # queries at distance 0 of a stored row
    fast, general, made = _both(name, k, X, y, Q)
    assert made and all(made[:1]), "the tables were not used"
    _assert_same(fast, general)


@pytest.mark.parametrize("name", ["overlap", "mvdm", "ig"])
def test_duplicated_stored_rows_and_many_unknowns_change_nothing(name):
    """Identical stored sides are grouped before the tables are made (the tables then search one row per
    group, counted by its size); a tenth of the cells unknown."""
    X, y = _data(6000, seed=5, missing=0.1, duplicates=True)
    Q, _ = _data(200, seed=6, missing=0.1, unseen=True)
    fast, general, made = _both(name, 3, X, y, Q)
    assert any(made)
    _assert_same(fast, general)


def test_numeric_columns_of_whole_numbers_or_per_class_weights_make_no_tables():
    X, y = _data(5000, seed=1)
    Q, _ = _data(50, seed=2)
    with counting_tables() as made:
        KNeighborsClassifier(1, "mvdm").fit(X + 0.5, y, types=["continuous"] * X.shape[1]).predict(Q + 0.5)
        for name in ("euclidean", "heom", "dvdm"):  # numeric attributes of whole numbers: codes, not nominal
            KNeighborsClassifier(1, name).fit(X, y, types=["continuous"] * X.shape[1]).predict(Q)
        per_class = Overlap(weights=np.ones((3, X.shape[1])))
        KNeighborsClassifier(1, per_class).fit(X, y, types=["nominal"] * X.shape[1]).predict(Q)
    assert made and not any(made)


def test_whole_codes_refuse_fractions_negative_and_large_values():
    assert _tables.whole_codes(np.array([[0.0, np.nan], [3.0, 1.0]])).tolist() == [[0, -1], [3, 1]]
    for bad in (0.5, -0.5, -1.0, -2.0, float(_tables.TABLE_CODES), np.inf, -np.inf, 1e300, -1e300):
        assert _tables.whole_codes(np.array([[bad]])) is None


def test_the_rows_of_a_table_of_codes_are_those_of_the_binary_search():
    """A value table whose values are the codes 0 .. V - 1 finds rows without its binary search: the same rows
    for codes, unknown values, fractions, negative, infinite and unseen values."""
    rng = np.random.default_rng(0)
    special = np.array([np.nan, -0.0, 0.0, -1.0, 0.5, 1.0, 2.0, 3.0, np.inf, -np.inf, 1e300])
    used = 0
    for trial in range(200):
        V = int(rng.integers(1, 12))
        known = np.arange(V, dtype=float) if trial % 3 else np.unique(rng.integers(0, V + 3, V).astype(float))
        table = ValueTable(known)
        used += table.codes
        x = np.concatenate([rng.choice(special, 50), [V - 1.0, V, V + 0.5], rng.integers(-2, V + 2, 50)])
        fast = table.rows(x)
        table.codes = False
        assert np.array_equal(fast, table.rows(x)), (known, x)
    assert used > 100


@pytest.mark.parametrize("name, refused", [("overlap", 512), ("mvdm", 512), ("mvdm", 0)])
def test_a_block_beyond_the_cap_hands_the_rest_to_the_filter(name, refused):
    """When a block's candidates would exceed the filter's cap (or cost more than its product), the engine's
    search takes over from that block, the first one too: the same results as the filter throughout."""
    X, y = _data(5000, seed=8)
    Q, _ = _data(1300, seed=9, unseen=True)
    original = _tables.TableSearch.candidates
    calls = []

    def refusing(self, start, stop, cap):
        calls.append(start)
        return None if start >= refused else original(self, start, stop, cap)

    with mock.patch.object(_tables.TableSearch, "candidates", refusing):
        clf = _fit(name, 2, X, y)
        fast = {"kneighbors": clf.kneighbors(Q), "predict": clf.predict(Q)}
    with mock.patch.object(_tables, "TABLE_ROWS", 10**9):
        clf = _fit(name, 2, X, y)
        general = {"kneighbors": clf.kneighbors(Q), "predict": clf.predict(Q)}
    assert 0 in calls and refused in calls and refused + 512 not in calls
    for (d, i), (d0, i0) in [(fast["kneighbors"], general["kneighbors"])]:
        assert np.array_equal(d.view(np.uint64), d0.view(np.uint64)) and np.array_equal(i, i0)
    assert np.array_equal(fast["predict"], general["predict"])


def test_stored_rows_the_engine_groups_go_to_its_own_search():
    """More than half the stored rows copies of others: the engine searches one row per group (its blocks), so
    the tables are not made."""
    X, y = _data(6000, seed=3)
    X[:4000] = X[4000 + np.arange(4000) % 50]
    with counting_tables() as made:
        for name in ("mvdm", "overlap"):
            KNeighborsClassifier(1, name).fit(X, y, types=["nominal"] * X.shape[1]).predict(X[:30])
    assert made and not any(made)


@pytest.mark.parametrize("name", ["ig", "mvdm", "weighted overlap"])
def test_values_only_far_stored_rows_hold_shape_the_stored_side_as_before(name):
    """The stored side is built for the candidates and one row of each code: values and unknowns that only a few
    stored rows far from every query hold still shape it (its one-hot columns, its columns for stored unknowns,
    its column maxima) as they shape the whole stored side's."""
    X, y = _data(5000, seed=12, missing=0.0)
    X[:6] = np.array(CARDS, dtype=float) + 3.0  # codes no other row and no query holds: far from every query
    X[:3, 2] = np.nan  # the only unknown values of attribute 2
    Q, _ = _data(300, seed=13, missing=0.0)
    fast, general, made = _both(name, 1, X, y, Q)
    assert made[0]
    _assert_same(fast, general)


def test_known_values_counted_are_those_np_unique_sorts():
    """Whole numbers in range are counted, anything else sorted: the same array as np.unique of the known values
    (zeros of both signs, fractions, negative and large values, unknowns, short columns)."""
    rng = np.random.default_rng(1)
    counted = 0
    for trial in range(60):
        n = int(rng.choice([10, 300, 5000]))
        x = rng.integers(0, int(rng.choice([3, 40, 5000])), n).astype(float)
        x[rng.random(n) < 0.1] = np.nan
        if trial % 5 == 1:
            x[0] = -0.0
        elif trial % 5 == 2:
            x[1] = 0.5
        elif trial % 5 == 3:
            x[2] = -3.0
        elif trial % 5 == 4:
            x[3] = 1e6
        expected = np.unique(x[~np.isnan(x)])
        got = known_values(x)
        assert got.dtype == expected.dtype and np.array_equal(got.view(np.uint64), expected.view(np.uint64))
        counted += trial % 5 == 0 and n >= 300
    assert counted > 5


def test_the_contract_s_samples_read_from_counts_are_the_sorted_columns():
    """The sampled ranks of a column of codes 0 .. V - 1 come from its counts: the values a sort of the column
    gives at those ranks (columns with unknowns, fractions or other whole numbers are sorted)."""
    from lazylib.metrics import _contract

    rng = np.random.default_rng(0)
    for trial in range(100):
        n, m = int(rng.choice([5, 300, 5000])), 3
        Z = rng.integers(0, int(rng.choice([2, 3, 7, 300])), (n, m)).astype(float)
        if trial % 4 == 1:
            Z[rng.random(Z.shape) < 0.1] = np.nan
        elif trial % 4 == 2:
            Z[:, 2] = np.where(Z[:, 2] == 1, 0.5, Z[:, 2])
        elif trial % 4 == 3:
            Z[:, 1] += 2
        known = np.maximum((~np.isnan(Z)).sum(axis=0) - 1, 0)
        ranks = np.rint(np.linspace(0, 1, _contract.TERM_SAMPLE)[:, None] * known[None, :]).astype(np.intp)
        sorted_at = np.sort(Z, axis=0)[ranks, np.arange(m)[None, :]]
        expected = np.vstack([sorted_at, np.full((1, m), np.nan)])
        assert np.array_equal(_contract._samples(Z), expected, equal_nan=True)


def test_labels_of_a_plain_array_are_those_of_the_same_labels_in_a_series():
    """An integer array, or an object array of str, is read without a pandas Series: the same codes and classes
    (values and dtype) as the Series of the same labels gives; other arrays take the Series' path."""
    from lazylib.labels import encode_labels

    rng = np.random.default_rng(3)
    for labels in (
        rng.integers(0, 4, 500),
        rng.integers(-3, 3, 500).astype(np.int32),
        np.array([f"k{c}" for c in rng.integers(0, 5, 500)], dtype=object),
        np.array(["b", "a", "b", "c"], dtype=object),
        np.array([True, False, True]),
    ):
        codes, classes = encode_labels(labels, len(labels))
        ref_codes, ref_classes = encode_labels(pd.Series(labels), len(labels))
        assert codes.dtype == ref_codes.dtype and np.array_equal(codes, ref_codes)
        assert classes.dtype == ref_classes.dtype and classes.tolist() == ref_classes.tolist()
    with pytest.raises(ValueError, match="single class"):
        encode_labels(np.array(["a", "a"], dtype=object), 2)
    with pytest.raises(ValueError, match="3 labels"):
        encode_labels(np.array([1, 2, 3]), 4)


def test_more_neighbours_than_table_k_go_to_the_filter():
    """Above ``TABLE_K`` neighbours (the bench's leave-one-out choice of k searches 75) the groups' bound lets most
    stored rows through, so no tables are made; at ``TABLE_K`` they are (for some searches), and both give the
    filter's bits."""
    X, y = _data(5000, seed=5)
    Q = X[:40]
    fast, general, made = _both("mvdm", _tables.TABLE_K, X, y, Q)
    assert any(made)
    _assert_same(fast, general)
    above = _tables.TABLE_K + 1
    fast, general, made = _both("mvdm", above, X, y, Q)
    assert made and not any(made)
    _assert_same(fast, general)
    with mock.patch.object(_tables, "TABLE_K", 10**9):  # the gate is what declines: without it, tables are made
        assert any(_both("mvdm", above, X, y, Q)[2])
