"""lazylib.protocols.wilson1997.protocol: the many-data-sets runner and the marking rules of Wilson & Martinez
(1997)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from lazylib.datasets import load
from lazylib.evaluation import stratified_kfold
from lazylib.metrics import HVDM
from lazylib.neighbors import KNeighborsClassifier
from lazylib.protocols import shared
from lazylib.protocols.wilson1997 import facts as exf
from lazylib.protocols.wilson1997 import marks as exm
from lazylib.protocols.wilson1997 import protocol as ex

METRICS = {"HVDM": "hvdm", "HEOM": "heom", "HVDM-N1": ("hvdm", {"normalization": "N1"})}


@pytest.fixture(scope="module")
def small_run():
    return ex.run(["iris", "zoo"], METRICS, n_splits=5, random_state=3)


def test_run_returns_tidy_table_with_every_cell(small_run):
    assert list(small_run.columns) == ex.COLUMNS
    assert len(small_run) == 2 * 3 * 5
    assert small_run.groupby(["dataset", "metric"]).size().eq(5).all()
    assert small_run["accuracy"].between(0, 1).all()
    # every metric of a data set sees the same folds
    sizes = small_run.groupby(["dataset", "fold"])["n_test"].nunique()
    assert sizes.eq(1).all()
    assert small_run.query("dataset == 'iris'").groupby("metric")["n_test"].sum().eq(150).all()


def test_run_matches_a_direct_cross_validation(small_run):
    ds = load("zoo")
    folds = stratified_kfold(ds.y, 5, random_state=shared.dataset_seed("zoo", 3))
    direct = []
    for train, test in folds:
        clf = KNeighborsClassifier(1, "heom").fit(ds.X.iloc[train], ds.y.iloc[train])
        direct.append(clf.score(ds.X.iloc[test], ds.y.iloc[test]))
    ours = small_run.query("dataset == 'zoo' and metric == 'HEOM'").sort_values("fold")["accuracy"]
    np.testing.assert_allclose(ours.to_numpy(), direct)


def test_run_in_parallel_is_identical(small_run):
    again = ex.run(["iris", "zoo"], METRICS, n_splits=5, random_state=3, n_jobs=2)
    pd.testing.assert_frame_equal(again, small_run)


def test_folds_of_a_data_set_do_not_depend_on_the_others(small_run):
    alone = ex.run(["zoo"], {"HEOM": "heom"}, n_splits=5, random_state=3)
    together = small_run.query("dataset == 'zoo' and metric == 'HEOM'").reset_index(drop=True)
    np.testing.assert_array_equal(alone["accuracy"].to_numpy(), together["accuracy"].to_numpy())


def test_different_seed_gives_different_folds():
    a = ex.run(["iris"], {"HEOM": "heom"}, n_splits=5, random_state=0)
    b = ex.run(["iris"], {"HEOM": "heom"}, n_splits=5, random_state=1)
    assert not np.array_equal(a["accuracy"].to_numpy(), b["accuracy"].to_numpy())


def test_run_accepts_arrays_and_callables():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 2))
    y = (X[:, 0] > 0).astype(int)
    res = ex.run(
        {"toy": (X, y, ["continuous", "continuous"])}, {"H": HVDM, "E": ("euclidean", {})}, n_splits=3, random_state=0
    )
    assert set(res["metric"]) == {"H", "E"}
    assert res["accuracy"].mean() > 0.8


def test_max_instances_cuts_a_stratified_subset_and_says_so():
    res = ex.run(["iris", "zoo"], {"HEOM": "heom"}, n_splits=3, random_state=0, max_instances={"iris": 60})
    assert res.attrs["subsampled"] == {"iris": (60, 150)}
    assert res.query("dataset == 'iris'").groupby("fold")["n_test"].first().sum() == 60
    X, y, _, n = shared.prepare("iris", max_instances=60, random_state=0)
    assert n == 150 and len(X) == 60 and y.value_counts().tolist() == [20, 20, 20]


def test_rows_without_class_are_dropped():
    ds = load("echocardiogram")
    X, y, _, n = shared.prepare("echocardiogram")
    assert n == len(X) == int(ds.y.notna().sum()) < len(ds.y)


@pytest.mark.parametrize(
    "bad, message",
    [
        ({}, "non-empty"),
        ({"x": "no-such-metric"}, "unknown metric"),
        ({"x": 3}, "metric 'x'"),
        ({"x": ("hvdm", {"normalization": "N1", "nope": 1})}, "does not take"),
    ],
)
def test_bad_metric_specs_are_named(bad, message):
    with pytest.raises(ValueError, match=message):
        ex.run(["iris"], bad, n_splits=3)


def test_bad_data_spec_is_named():
    with pytest.raises(ValueError, match="data set 'x'"):
        ex.run({"x": [1, 2, 3]}, {"H": "hvdm"}, n_splits=3)
    with pytest.raises(ValueError, match="n_splits"):
        ex.run(["iris"], {"H": "hvdm"}, n_splits=1)


# ---------------------------------------------------------------- marking rules on hand-made results
def _results(table: dict) -> pd.DataFrame:
    """{dataset: {metric: [fold accuracies]}} -> tidy table."""
    rows = [
        {"dataset": d, "metric": m, "fold": f, "accuracy": a}
        for d, by_metric in table.items()
        for m, accs in by_metric.items()
        for f, a in enumerate(accs)
    ]
    return pd.DataFrame(rows)


HAND = _results(
    {
        "x": {"A": [0.9, 0.8, 0.9, 0.85], "B": [0.7, 0.6, 0.75, 0.7], "C": [0.9, 0.8, 0.9, 0.85]},
        "y": {"A": [0.5, 0.6, 0.55, 0.5], "B": [0.6, 0.58, 0.7, 0.66], "C": [0.52, 0.61, 0.5, 0.55]},
        "z": {"A": [0.8, 0.7, 0.9, 0.6], "B": [0.7, 0.8, 0.6, 0.9], "C": [0.1, 0.2, 0.3, 0.4]},
    }
)


def test_mean_table_and_wins_count_ties_for_each():
    means = ex.mean_table(HAND)
    assert list(means.index) == ["x", "y", "z"] and list(means.columns) == ["A", "B", "C"]
    assert means.loc["x", "A"] == pytest.approx(0.8625)
    assert exm.wins(means).to_dict() == {"A": 2, "B": 2, "C": 1}  # x: A and C tie; z: A and B tie (0.75)


def test_pvalues_are_scipys_two_tailed_paired_test():
    p = exm.pvalues(HAND, "B")
    expected = stats.ttest_rel([0.5, 0.6, 0.55, 0.5], [0.6, 0.58, 0.7, 0.66]).pvalue
    assert p.loc["y", "A"] == pytest.approx(expected)
    assert (p["B"] == 1).all()


def test_marks_star_higher_and_less_than_lower():
    m = exm.marks(HAND, "B")
    assert m.loc["x", "A"] == "*" and m.loc["x", "C"] == "*"
    assert m.loc["z", "C"] == "<"
    assert m.loc["z", "A"] == ""  # equal means
    assert (m["B"] == "").all()
    # at a stricter level fewer marks survive
    assert (exm.marks(HAND, "B", alpha=1e-6) == "").all().all()


def test_head_to_head_counts():
    h = exf.head_to_head(HAND, "A", "B")
    assert h["A higher"] == 1 and h["B higher"] == 1 and h["ties"] == 1 and h["datasets"] == 3
    assert h["A significant"] == 1
    assert h["A average"] == pytest.approx(ex.mean_table(HAND)["A"].mean())
    with pytest.raises(ValueError, match="'Q'"):
        exf.head_to_head(HAND, "A", "Q")


def test_over_next_marks_leads_over_one_percent():
    means = pd.DataFrame(
        {"N1": [0.80, 0.90, 0.70], "N2": [0.82, 0.90, 0.705], "N3": [0.805, 0.85, 0.60]}, index=["a", "b", "c"]
    )
    out = exm.over_next(means)
    assert out["best"].tolist() == ["N2", "N1", "N2"]
    assert out["lead"].tolist() == pytest.approx([0.015, 0.0, 0.005])
    assert out["marked"].tolist() == [True, False, False]


def test_results_without_the_columns_are_refused():
    with pytest.raises(ValueError, match="accuracy"):
        ex.mean_table(pd.DataFrame({"dataset": ["x"], "metric": ["A"], "fold": [0]}))


# ---------------------------------------------------------------- kinds and Table 1's average distances
def test_attribute_kinds_and_groups():
    kinds = ex.attribute_kinds(["iris", "zoo", "crx"])
    assert kinds.loc["crx", ["continuous", "nominal", "classes", "instances"]].tolist() == [6, 9, 2, 690]
    assert kinds.loc["zoo", "linear"] == 1
    means = pd.DataFrame({"A": [0.9, 0.8, 0.7], "B": [0.5, 0.6, 0.7]}, index=["iris", "zoo", "crx"])
    g = exf.group_means(means, kinds)
    assert g.loc["no continuous", "datasets"] == 1 and g.loc["no continuous", "A"] == pytest.approx(0.8)
    assert g.loc["no nominal", "A"] == pytest.approx(0.9)
    assert g.loc["all", "B"] == pytest.approx(0.6)
    assert g.loc["both", "datasets"] == 1 and g.loc["both", "A"] == pytest.approx(0.7)  # crx
    with pytest.raises(ValueError, match="wine"):
        exf.group_means(pd.DataFrame({"A": [1.0]}, index=["wine"]), kinds)


@pytest.mark.parametrize("norm", ["N1", "N2", "N3"])
def test_average_attribute_distance_matches_a_per_pair_loop(norm):
    """The oracle: HVDM's attribute distances written out pair by pair (Eqs. 13-16)."""
    rng = np.random.default_rng(5)
    n = 40
    X = pd.DataFrame({"num": rng.normal(size=n), "nom": pd.Categorical(rng.choice(list("abc"), n))})
    X.loc[3, "num"] = np.nan
    y = rng.integers(0, 3, n)
    folds = stratified_kfold(y, 4, random_state=0)
    got = exf.average_attribute_distance(lambda: HVDM(normalization=norm), X, y, folds)
    total = np.zeros(2)
    pairs = 0
    for train, test in folds:
        num = X["num"].to_numpy()
        sigma = np.nanstd(num[train], ddof=1)
        nom = X["nom"].astype(str).to_numpy()
        P = {v: np.bincount(y[train][nom[train] == v], minlength=3) / max((nom[train] == v).sum(), 1) for v in "abc"}
        for i in test:
            for j in train:
                pairs += 1
                a, b = num[i], num[j]
                total[0] += 1.0 if np.isnan(a) or np.isnan(b) else abs(a - b) / (4 * sigma)
                diff = P[nom[i]] - P[nom[j]]
                total[1] += {
                    "N1": np.abs(diff).sum(),
                    "N2": np.sqrt((diff**2).sum()),
                    "N3": np.sqrt(3 * (diff**2).sum()),
                }[norm]
    np.testing.assert_allclose(got["average"].to_numpy(), total / pairs, rtol=1e-10)
    assert got["kind"].tolist() == ["linear", "nominal"]


def test_average_attribute_distance_accepts_an_unfitted_metric_object():
    ds = load("iris")
    folds = stratified_kfold(ds.y, 5, random_state=0)
    a = exf.average_attribute_distance(HVDM(), ds.X, ds.y, folds)
    b = exf.average_attribute_distance(lambda: HVDM(), ds.X, ds.y, folds)
    pd.testing.assert_frame_equal(a, b)
    assert (a["kind"] == "linear").all() and a["average"].between(0.1, 0.5).all()


def test_also_ties_scores_other_rules_from_the_same_search():
    res = ex.run(["tic-tac-toe"], {"HOEM": "heom"}, n_splits=3, random_state=0, also_ties=("random", "first"))
    ds = load("tic-tac-toe")
    folds = stratified_kfold(ds.y, 3, random_state=shared.dataset_seed("tic-tac-toe", 0))
    for rule, column in [("random", "accuracy_random"), ("first", "accuracy_first"), ("all", "accuracy")]:
        direct = []
        for train, test in folds:
            clf = KNeighborsClassifier(1, "heom", ties=rule).fit(ds.X.iloc[train], ds.y.iloc[train])
            direct.append(clf.score(ds.X.iloc[test], ds.y.iloc[test], expected=True))
        np.testing.assert_allclose(res[column].to_numpy(), direct, rtol=1e-12)
        np.testing.assert_allclose(ex.under_ties(res, rule)["accuracy"].to_numpy(), direct, rtol=1e-12)
    with pytest.raises(ValueError, match="ties='first'"):
        ex.under_ties(res.drop(columns="accuracy_first"), "first")
    with pytest.raises(ValueError, match="tie rules"):
        ex.run(["iris"], {"HOEM": "heom"}, also_ties=("nearest",))


def test_train_fractions_train_on_seeded_subsets_of_two_classes_at_least():
    res = ex.run(["iris"], {"HOEM": "heom"}, n_splits=5, random_state=0, train_fractions=[0.01, 0.5, 1.0])
    assert list(res.columns) == ex.COLUMNS + ["fraction"]
    n_train = res.groupby("fraction")["n_train"].unique()
    assert list(n_train[0.01]) == [2] and list(n_train[0.5]) == [60] and list(n_train[1.0]) == [120]
    full = ex.run(["iris"], {"HOEM": "heom"}, n_splits=5, random_state=0)
    np.testing.assert_array_equal(res.query("fraction == 1.0")["accuracy"].to_numpy(), full["accuracy"].to_numpy())
    again = ex.run(["iris"], {"HOEM": "heom"}, n_splits=5, random_state=0, train_fractions=[0.01, 0.5, 1.0], n_jobs=2)
    pd.testing.assert_frame_equal(res, again)
    with pytest.raises(ValueError):
        ex.run(["iris"], {"HOEM": "heom"}, train_fractions=[0.0])


def test_seeds_repeat_the_run_once_per_seed_in_one_pool():
    both = ex.run(["iris", "zoo"], METRICS, n_splits=5, random_state=[3, 8], n_jobs=2)
    assert list(both.columns) == [*ex.COLUMNS, "seed"] and set(both["seed"]) == {3, 8}
    for seed in (3, 8):
        alone = ex.run(["iris", "zoo"], METRICS, n_splits=5, random_state=seed)
        mine = both[both["seed"] == seed].drop(columns="seed").reset_index(drop=True)
        pd.testing.assert_frame_equal(mine, alone)
    with pytest.raises(ValueError, match="repeats a seed"):
        ex.run(["iris"], METRICS, random_state=[1, 1])
    with pytest.raises(ValueError, match="empty sequence"):
        ex.run(["iris"], METRICS, random_state=[])


def test_repeat_up_to_runs_larger_data_sets_under_the_first_seed_only():
    # iris 150, zoo 101: with repeat_up_to=120 iris runs once, zoo under both seeds
    both = ex.run(["iris", "zoo"], METRICS, n_splits=5, random_state=[3, 8], reuse=None, repeat_up_to=120)
    assert list(both.columns) == [*ex.COLUMNS, "seed", "repeated"] and both.attrs["repeated"] == {"iris": 150}
    assert set(both.loc[both["repeated"], "dataset"]) == {"iris"} and set(both.loc[both["repeated"], "seed"]) == {8}
    full = ex.run(["iris", "zoo"], METRICS, n_splits=5, random_state=[3, 8])
    for (name, seed), part in both.groupby(["dataset", "seed"]):
        first = full[(full["dataset"] == name) & (full["seed"] == (3 if name == "iris" else seed))]
        np.testing.assert_array_equal(part[["accuracy", "n_train", "n_test"]], first[["accuracy", "n_train", "n_test"]])
    # iris under seed 8 differs from its copy when it is run (the copy is not what seed 8 gives)
    iris = full[full["dataset"] == "iris"]
    assert not np.array_equal(iris[iris["seed"] == 3]["accuracy"], iris[iris["seed"] == 8]["accuracy"])
    # nothing above the limit: the column is there, all False, identical to the run without it
    none = ex.run(["iris", "zoo"], METRICS, n_splits=5, random_state=[3, 8], repeat_up_to=150)
    assert not none["repeated"].any() and none.attrs["repeated"] == {}
    pd.testing.assert_frame_equal(none.drop(columns="repeated"), full)


@pytest.mark.parametrize("bad", [0, -5, 1.5, True, "10"])
def test_bad_repeat_up_to_is_named(bad):
    with pytest.raises((ValueError, TypeError), match="repeat_up_to"):
        ex.run(["iris"], METRICS, random_state=[1, 2], repeat_up_to=bad)


SIX = {
    "Euclid.": ("euclidean", {"normalize": "std"}),
    "HVDM": "hvdm",
    "DVDM": "dvdm",
    "IVDM": "ivdm",
    "WVDM": "wvdm",
}
REUSE = {
    "IVDM": ("DVDM", ex.only_discrete),
    "WVDM": ("DVDM", ex.only_discrete),
    "HVDM": [("Euclid.", ex.linear_complete), ("DVDM", ex.nominal_complete)],
}


def test_reuse_copies_only_where_the_functions_coincide_and_changes_no_accuracy():
    names = ["iris", "monks-1", "zoo", "hepatitis", "lymphography"]
    rules = ("random", "first")
    full = ex.run(names, SIX, n_splits=5, random_state=2, also_ties=rules)
    short = ex.run(names, SIX, n_splits=5, random_state=[2], also_ties=rules, reuse=REUSE)
    columns = ["accuracy", "accuracy_random", "accuracy_first", "n_train", "n_test"]
    np.testing.assert_allclose(short[columns].to_numpy(float), full[columns].to_numpy(float), rtol=0, atol=1e-12)
    reused = set(short.loc[short["reused"], ["dataset", "metric"]].itertuples(index=False, name=None))
    # iris: linear, complete (HVDM = Euclid./4); monks-1: nominal, complete (HVDM = DVDM); zoo, lymphography:
    # no continuous attribute (IVDM = WVDM = DVDM); hepatitis: continuous attributes and unknowns, nothing copied
    assert reused == {
        ("iris", "HVDM"),
        ("monks-1", "HVDM"),
        ("monks-1", "IVDM"),
        ("monks-1", "WVDM"),
        ("zoo", "IVDM"),
        ("zoo", "WVDM"),
        ("lymphography", "IVDM"),
        ("lymphography", "WVDM"),
    }


@pytest.mark.parametrize(
    "reuse, message",
    [
        ({"IVDM": ("DVDM", "no")}, "expected"),
        ({"IVDM": ("HOEM", ex.only_discrete)}, "must be among"),
        ({"IVDM": ("IVDM", ex.only_discrete)}, "itself"),
    ],
)
def test_bad_reuse_is_named(reuse, message):
    with pytest.raises(ValueError, match=message):
        ex.run(["iris"], SIX, reuse=reuse)
