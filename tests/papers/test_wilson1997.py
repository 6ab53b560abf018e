"""Wilson & Martinez (1997): the worked Iris example (sections 2.5, 4.1-4.2) and the equivalences of section 6."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from lazylib.datasets import load
from lazylib.metrics import Discretizer, make_metric

# Ranges 1 and 2 of sepal length in the paper's split (Figure 6, recovered as counts 26/3/1 and 16/15/2);
# ranges 3-5 are not recovered: any distribution unlike range 1 serves the qualitative claim.
COUNTS = {1: (26, 3, 1), 2: (16, 15, 2), 3: (5, 17, 12), 4: (0, 10, 20), 5: (0, 1, 9)}
EDGES = {1: 4.3, 2: 5.1, 3: 5.8, 4: 6.5, 5: 7.2}


def iris_like_attribute():
    """One sepal-length-like attribute with min 4.3, max 7.9 and the range probabilities above."""
    values, labels = [], []
    for u, counts in COUNTS.items():
        for c, k in enumerate(counts):
            values += [EDGES[u] + 0.01 * i for i in range(k)]
            labels += [c] * k
    values[-1] = 7.9
    return np.array(values)[:, None], np.array(labels)


def test_eq17_width_is_0_72():
    assert Discretizer(4.3, 7.9, 5).width == pytest.approx(0.72)


def test_eq18_sepal_length_in_5_74_to_6_46_discretizes_to_3():
    d = Discretizer(4.3, 7.9, 5)
    assert d.discretize(np.array([5.74, 5.9, 6.1, 6.45, 6.4599])).tolist() == [3] * 5
    assert d.discretize(np.array([5.73, 6.46])).tolist() == [2, 4]
    assert d.discretize(np.array([4.3, 7.9, 7.18])).tolist() == [1, 5, 5]


def test_table4_discretized_values_of_a_b_y():
    assert Discretizer(4.3, 7.9, 5).discretize(np.array([5.0, 5.7, 5.1])).tolist() == [1, 2, 2]


def test_dvdm_attribute_distance_is_0_273():
    """The paper sums squared differences of the probabilities rounded to 3 decimals (.273); from the exact
    counts 26/3/1 of 30 and 16/15/2 of 33 the same sum is 0.27223, which also rounds to .27 (.273 - 0.0008)."""
    from lazylib.metrics import vdm_delta

    assert round(float(vdm_delta([0.867, 0.1, 0.033], [0.485, 0.455, 0.061])), 3) == 0.273
    X, y = iris_like_attribute()
    dvdm = make_metric("dvdm").fit(X, y, types=["continuous"])
    P = dvdm.range_probabilities("0")
    np.testing.assert_allclose(P[:2].round(3), [[0.867, 0.1, 0.033], [0.485, 0.455, 0.061]])
    A, y_new = np.array([[5.0]]), np.array([[5.1]])
    # erratum form: vdm_a = sqrt(sum_c dP^2), so the squared distance is the paper's un-rooted .273
    exact = vdm_delta([26 / 30, 3 / 30, 1 / 30], [16 / 33, 15 / 33, 2 / 33])
    assert dvdm.pairwise(A, y_new)[0, 0] ** 2 == pytest.approx(exact, rel=1e-12)
    assert round(float(exact), 2) == round(0.273, 2)
    printed = make_metric("dvdm", erratum=False).fit(X, y, types=["continuous"])
    assert printed.pairwise(A, y_new)[0, 0] == pytest.approx(exact**2, rel=1e-12)


def test_ivdm_puts_y_nearer_a_while_dvdm_puts_it_nearer_b():
    X, y = iris_like_attribute()
    queries, stored = np.array([[5.1]]), np.array([[5.0], [5.7]])  # y; A, B
    ivdm = make_metric("ivdm").fit(X, y, types=["continuous"]).pairwise(queries, stored)[0]
    dvdm = make_metric("dvdm").fit(X, y, types=["continuous"]).pairwise(queries, stored)[0]
    assert ivdm[0] < ivdm[1]
    assert dvdm[1] < dvdm[0] and dvdm[1] == 0.0


def test_ivdm_midpoints_are_range_centres():
    X, y = iris_like_attribute()
    ivdm = make_metric("ivdm").fit(X, y, types=["continuous"])
    P = ivdm.range_probabilities("0")
    mids = 4.3 + 0.72 * (np.arange(1, 6) - 0.5)
    np.testing.assert_allclose(mids, [4.66, 5.38, 6.10, 6.82, 7.54])
    np.testing.assert_allclose(ivdm.probabilities("0", mids), P, atol=1e-12)
    # the Table 5 row of A = 5.0 (derived from ranges 1 and 2)
    np.testing.assert_allclose(ivdm.probabilities("0", [5.0])[0], [0.6866, 0.2676, 0.0462], atol=5e-4)
    # half-way outside the data the probabilities have fallen to 0; at max they are half of range 5's
    np.testing.assert_allclose(ivdm.probabilities("0", [4.3 - 0.36, 7.9 + 0.36]), 0.0, atol=1e-12)
    np.testing.assert_allclose(ivdm.probabilities("0", [7.9])[0], P[4] / 2, atol=1e-12)


def test_hvdm_is_euclid_over_4_on_linear_data():
    iris = load("iris")
    hvdm = make_metric("hvdm").fit(iris.X, iris.y).pairwise(iris.X)
    euclid = make_metric("euclidean", normalize="std").fit(iris.X, iris.y).pairwise(iris.X)
    np.testing.assert_allclose(hvdm, euclid / 4, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", ["dvdm", "ivdm", "wvdm"])
def test_vdm_family_coincides_on_nominal_data(name):
    votes = load("house-votes-84")
    X = votes.X.iloc[:120]
    y = votes.y.iloc[:120]
    # HVDM gives unknowns distance 1; the others treat them as a value, so compare on complete rows
    complete = X.notna().all(axis=1).to_numpy()
    hvdm = make_metric("hvdm").fit(X, y).pairwise(X[complete])
    other = make_metric(name).fit(X, y).pairwise(X[complete])
    np.testing.assert_allclose(other[:, complete], hvdm[:, complete], rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", ["vdm", "mvdm", "hvdm", "dvdm", "ivdm", "wvdm", "omvw"])
def test_vdm_distances_unchanged_by_relabelling_nominal_values(name):
    ds = load("lymphography")
    X = ds.X.copy()
    relabelled = X.copy()
    rng = np.random.default_rng(1)
    for col in X.columns:
        if isinstance(X[col].dtype, pd.CategoricalDtype):
            cats = list(X[col].cat.categories)
            perm = [cats[i] for i in rng.permutation(len(cats))]
            relabelled[col] = X[col].cat.rename_categories(dict(zip(cats, perm))).cat.reorder_categories(sorted(perm))
    a = make_metric(name).fit(X, ds.y).pairwise(X.iloc[:30])
    b = make_metric(name).fit(relabelled, ds.y).pairwise(relabelled.iloc[:30])
    np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)


def test_published_prose_numbers_are_typed_once_with_their_sentence():
    from pathlib import Path

    prose = pd.read_csv(Path(__file__).parents[2] / "book" / "published" / "wilson1997_prose.csv")
    assert list(prose.columns) == ["key", "source", "quantity", "value", "sentence"]
    assert prose["key"].is_unique and prose["sentence"].str.len().gt(10).all()
    values = prose.set_index("key")["value"]
    # the counts of Tables 6 and 7 add up as the prose says (2 ties in Table 6, none in Table 7)
    assert values["t6_ivdm_higher"] + values["t6_dvdm_higher"] == values["t6_n"] - 2
    assert values["t7_wvdm_higher"] + values["t7_dvdm_higher"] == values["t6_n"]
    assert values[[f"t8_wins_{m}" for m in ("euclid", "hoem", "hvdm", "dvdm", "ivdm", "wvdm")]].sum() >= values["t8_n"]


@pytest.mark.parametrize("name", ["dvdm", "ivdm", "wvdm"])
def test_printed_and_corrected_forms_rank_neighbours_differently(name):
    """The erratum's square roots are not a monotone change once there are two attributes: the corrected form
    adds the attributes' sums of squares, the printed one adds their squares. Query (a, a) against stored
    (b, b) (sums 0.5 and 0.5) and (e, a) (sums 0.98 and 0): corrected 1.0 > 0.98, printed 0.5 < 0.9604."""
    rows = [("b", "b", 0), ("b", "b", 1)] + [("e", "a", 0)] * 3 + [("e", "z", 1)] * 7 + [("a", "a", 0)] * 2
    X = pd.DataFrame({"p": pd.Categorical([r[0] for r in rows]), "q": pd.Categorical([r[1] for r in rows])})
    y = [r[2] for r in rows]
    query = pd.DataFrame(
        {
            "p": pd.Categorical(["a"], categories=X["p"].cat.categories),
            "q": pd.Categorical(["a"], categories=X["q"].cat.categories),
        }
    )
    stored = X.iloc[[0, 2]]  # (b, b) and (e, a)
    corrected = make_metric(name).fit(X, y).pairwise(query, stored)[0]
    printed = make_metric(name, erratum=False).fit(X, y).pairwise(query, stored)[0]
    np.testing.assert_allclose(corrected**2, [1.0, 0.98], rtol=1e-12)
    np.testing.assert_allclose(printed, [0.5, 0.9604], rtol=1e-12)
    assert corrected[1] < corrected[0] and printed[0] < printed[1]


def test_printed_form_gives_other_nearest_neighbours_on_hepatitis():
    from lazylib.evaluation import stratified_kfold

    ds = load("hepatitis")
    train, test = stratified_kfold(ds.y, 10, random_state=0)[0]
    other = 0
    for erratum in (True, False):
        D = make_metric("dvdm", erratum=erratum).fit(ds.X.iloc[train], ds.y.iloc[train]).pairwise(ds.X.iloc[test])
        nearest = D == D.min(axis=1, keepdims=True)
        if erratum:
            first = nearest
        else:
            other = int((nearest != first).any(axis=1).sum())
    assert other >= 1
