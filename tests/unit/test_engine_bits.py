"""The engine's faster and leaner paths give the bits of the paths they replace (issue #52 items 1 and 5).

- ``PowerAttribute.direct`` and ``difference`` (Manhattan, Gower's range-normalised differences, the Minkowski
  norms, the feature differences of the weighting methods) are computed between the distinct values of both
  sides and gathered: each entry must equal, bit for bit, the pair-by-pair arithmetic they had before (written
  out here as it was), on every numeric column of every vendored data set and on columns made to break it
  (``-0.0`` beside ``0.0``, unknowns, a zero scale, columns beyond the safe range).
- The training data's stored side holds its embedding once (a view of the product's side), its single-precision
  copy and its column maxima are built a block of rows at a time: the same arrays as the whole-matrix forms,
  and the same neighbours and distances as a stored side built without sharing.
"""

from __future__ import annotations

import numpy as np
import pytest

from lazylib import datasets, search
from lazylib.column_stats import in_units
from lazylib.metrics import Manhattan
from lazylib.metrics import _attributes as attributes
from lazylib.metrics import _engine as engine
from lazylib.metrics import _plan as plan_module
from lazylib.metrics._attributes import PowerAttribute
from lazylib.neighbors import KNeighborsClassifier


def old_direct(term: PowerAttribute, xq, xs) -> np.ndarray:
    """``PowerAttribute.direct`` before issue #52 item 5: every pair's arithmetic."""
    if term.scale == 0:
        t = np.zeros((len(xq), len(xs)))
    else:
        uq, us = in_units(xq, term.exponent), in_units(xs, term.exponent)
        t = np.abs((uq[:, None] - us[None, :]) / term.scale) ** term.r
    t[np.isnan(xq)[:, None] | np.isnan(xs)[None, :]] = 1.0
    return t


def old_difference(term: PowerAttribute, xq, xs) -> np.ndarray:
    """``PowerAttribute.difference`` before issue #52 item 5."""
    if term.scale == 0:
        d = np.zeros((len(xq), len(xs)))
    else:
        d = np.subtract.outer(in_units(xq, term.exponent), in_units(xs, term.exponent))
        np.abs(d, out=d)
        d /= term.scale
    d[np.isnan(xq)[:, None] | np.isnan(xs)[None, :]] = 1.0
    return d


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and a.dtype == b.dtype and np.array_equal(a.view(np.uint64), b.view(np.uint64))


def check_column(term: PowerAttribute, x: np.ndarray) -> None:
    for xq, xs in ((x, x[::-1]), (x[:10], x)):
        assert same_bits(term.direct(xq, xs), old_direct(term, xq, xs))
        assert same_bits(term.difference(xq, xs), old_difference(term, xq, xs))


def numeric_columns(limit: int = 600):
    for name in datasets.list_datasets():
        d = datasets.load(name)
        X = d.X.iloc[:limit]
        for column in X.columns:
            if X[column].dtype.kind == "f" or X[column].dtype.kind in "iu":
                yield name, column, X[column].to_numpy(np.float64)


def test_power_terms_between_distinct_values_are_every_pairs_bits_on_every_vendored_data_set():
    checked = 0
    for name, column, x in numeric_columns():
        known = x[~np.isnan(x)]
        lo, hi = (known.min(), known.max()) if len(known) else (0.0, 0.0)
        for r, scale in ((1.0, hi - lo), (3.0, np.nanstd(x) if len(known) > 1 else 0.0)):
            try:
                check_column(PowerAttribute(r, 0.0, float(scale)), x)
            except AssertionError:
                pytest.fail(f"{name}.{column}: r = {r}, scale = {scale}: the distinct-value path differs")
            checked += 1
    assert checked > 200  # the vendored data sets have hundreds of numeric columns


@pytest.mark.parametrize(
    "x",
    [
        np.array([0.0, -0.0, 1.5, -0.0, np.nan, 0.0, 1.5, np.nan, -2.25] * 30),
        np.round(np.random.default_rng(0).normal(size=400), 1),
        np.random.default_rng(1).normal(size=300),  # all distinct: the pair-by-pair path
        np.full(200, np.nan),
        np.ldexp(np.round(np.random.default_rng(2).normal(size=300), 1), 1000),  # beyond the safe range
    ],
)
@pytest.mark.parametrize("scale", [0.0, 0.7, 3.0])
def test_power_terms_between_distinct_values_keep_zeros_unknowns_and_units(x, scale):
    exponent = 1000 if np.nanmax(np.abs(x), initial=0.0) > 1e200 else 0
    for r in (1.0, 2.0, 3.0):
        check_column(PowerAttribute(r, 0.0, scale, exponent), x)


def test_a_repeated_column_is_computed_between_its_distinct_values(monkeypatch):
    """The path is taken (a test of the bits alone would pass without it): hypothyroid's columns repeat."""
    shapes = []
    direct = PowerAttribute._direct
    monkeypatch.setattr(
        PowerAttribute, "_direct", lambda self, uq, us: shapes.append((len(uq), len(us))) or direct(self, uq, us)
    )
    x = datasets.load("hypothyroid").X["TSH"].to_numpy(np.float64)[:2000]
    PowerAttribute(1.0, 0.0, float(np.nanmax(x) - np.nanmin(x))).direct(x, x)
    assert len(shapes) == 1 and shapes[0][0] < 400 and shapes[0][0] == shapes[0][1]
    assert attributes.DISTINCT_SIDE > 1


def test_gowers_distance_on_hypothyroid_is_the_pair_by_pair_sum():
    """The whole Manhattan of the Gower benchmark: each pair's sum of the old terms, added in the same order."""
    X = datasets.load("hypothyroid").X.iloc[:700]
    linear = [c for c in X.columns if X[c].dtype.kind == "f"]
    metric = Manhattan(normalize="range").fit(X[linear])
    Z = X[linear].to_numpy(np.float64)
    S = np.zeros((len(Z), len(Z)))
    for a, term in enumerate(metric.attributes_):
        S += old_direct(term, Z[:, a], Z[:, a])
    assert same_bits(metric.pairwise(X[linear]), S)


def test_blocked_single_precision_and_column_maxima_are_the_whole_arrays(monkeypatch):
    rng = np.random.default_rng(3)
    right = rng.normal(size=(5000, 7)) * np.array([1, 10, 1e-3, 1e5, 2, 3, 1])
    right[rng.random(5000) < 0.2, -2:] = 0.0
    right[:, -2:] = (right[:, -2:] != 0).astype(float)
    monkeypatch.setattr(search, "SINGLE_BLOCK_BYTES", 8 * 7 * 333)  # many blocks, the last one short
    monkeypatch.setattr(plan_module, "COLUMN_BLOCK_BYTES", 8 * 7 * 41)
    parts = search.SingleParts.of(right, 2)
    has_unknown = right[:, -2:].any(axis=1)
    for part, cols, width in zip(parts.narrow, (np.flatnonzero(~has_unknown), np.flatnonzero(has_unknown)), (5, 7)):
        sub = right[cols, :width]
        assert np.array_equal(part.cols, cols)
        assert same_bits(part.right_max, np.abs(sub).max(axis=0, initial=0.0))
        assert part.right32.dtype == np.float32 and np.array_equal(part.right32, sub.astype(np.float32))
    assert same_bits(plan_module._column_max(right), np.abs(right).max(axis=0, initial=0.0))
    view = right[:, :4]
    assert np.array_equal(plan_module._head(view, 10), np.ravel(view, order="K")[:10])
    assert np.array_equal(plan_module._head(right, 9), np.ravel(right, order="K")[:9])


def test_a_side_beyond_single_precision_is_still_refused():
    right = np.array([[1e300, 1.0], [2.0, 3.0]])
    with np.errstate(all="raise"):
        assert search.SingleParts.of(right, 0).narrow[0].right32 is None


@pytest.mark.parametrize("name", ["hvdm", "ivdm"])
def test_a_stored_side_holding_its_embedding_once_finds_the_same_neighbours(name, monkeypatch):
    """Against a stored side built as before (the embedding a copy of its own): the same distances and
    neighbours to the last bit, on a table with unknown values in both the stored rows and the queries."""
    rng = np.random.default_rng(4)
    n = 3000
    X = np.column_stack([rng.integers(0, 6, n).astype(float), rng.normal(size=n), rng.normal(size=n) * 1e3])
    y = (X[:, 0] + (X[:, 1] > 0)).astype(int) % 3
    X[rng.random(X.shape) < 0.05] = np.nan
    types = ["nominal", "continuous", "continuous"]
    Q = X[:400] + np.where(np.isnan(X[:400]), 0.0, 0.01)
    clf = KNeighborsClassifier(5, name).fit(X[400:], y[400:], types=types)
    shared = clf.kneighbors(Q)
    side = clf.metric_._declaration.training_sides[True]
    assert side.terms.psi.base is side.right  # the embedding is a view of the product's side
    original = plan_module.training_stored_side

    def copied(declared, V, no_query_weights):
        side = original(declared, V, no_query_weights)
        return plan_module.replace(side, terms=plan_module.replace(side.terms, psi=side.terms.psi.copy()))

    monkeypatch.setattr(plan_module, "training_stored_side", copied)
    again = KNeighborsClassifier(5, name).fit(X[400:], y[400:], types=types)
    apart = again.kneighbors(Q)
    assert same_bits(shared[0], apart[0]) and np.array_equal(shared[1], apart[1])
    assert same_bits(clf.metric_.pairwise(Q), again.metric_.pairwise(Q))


@pytest.mark.parametrize("per_class", [False, True])
def test_row_tables_added_a_block_at_a_time_are_the_weighted_sums_in_attribute_order(per_class, monkeypatch):
    """The engine adds runs of row tables a block of rows at a time (:func:`lazylib.metrics._engine.add_direct`):
    each sum must be the old one, every attribute's term weighted and added in the attributes' order, with an
    all-distinct column (a whole matrix) between repeated ones and the runs flushed within the size of ``S``."""
    monkeypatch.setattr(engine, "ROW_BLOCK_BYTES", 8 * 300 * 7)  # blocks of 7 rows, the last one short
    X = datasets.load("hypothyroid").X.iloc[:300]
    linear = [c for c in X.columns if X[c].dtype.kind == "f"]
    Z = X[linear].to_numpy(np.float64)
    Z = np.column_stack([Z[:, :3], np.random.default_rng(5).normal(size=len(Z)), Z[:, 3:]])
    y = np.arange(len(Z)) % 3
    m = Z.shape[1]
    W = np.random.default_rng(6).uniform(0.1, 2.0, (3, m) if per_class else m)
    metric = Manhattan(normalize="range", weights=W).fit(Z, y, types=["continuous"] * m)
    Q = Z[::2]
    S = np.zeros((len(Q), len(Z)))
    V = W[y] if per_class else np.broadcast_to(W, (len(Z), m))
    for a, term in enumerate(metric.attributes_):
        t = old_direct(term, Q[:, a], Z[:, a])
        t *= V[:, a][None, :]
        S += t
    got = np.vstack([block for _, _, block in metric.pairwise_chunks(Q, Z, y_B=y, reduced=True)])
    assert same_bits(got, S)
    held = []
    original = engine._add_rows
    monkeypatch.setattr(
        engine, "_add_rows", lambda S, run, p, start: held.append(len(run)) or original(S, run, p, start)
    )
    list(metric.pairwise_chunks(Q, Z, y_B=y, reduced=True))
    assert max(held) >= 2  # runs of several tables were added together
