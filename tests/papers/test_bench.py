"""Part VI, the bench: every method runs through its Part's code, the folds are shared, refusals are computed, and
the statistics of the field (Friedman, Nemenyi, Bayesian signed-rank) agree with a computation by hand."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from lazylib import datasets
from lazylib.encoding import encode
from lazylib.evaluation import stratified_kfold
from lazylib.protocols import bench, bench_stats, howe_cardie, payne2000
from lazylib.weighting import MDW

SMALL = bench.Config(
    datasets=("lenses", "iris"),
    n_seeds=2,
    n_splits=3,
    methods=("1-NN OM", "k-NN HVDM", "MDW", "CA", "MC", "VFI5", "C4.5"),
    ks=(1, 3, 5),
)


@pytest.fixture(scope="module")
def small_run():
    return bench.run(SMALL, n_jobs=1)


def test_loo_kneighbors_is_howe_and_cardies_fit_predict():
    ds = datasets.load("breast-cancer")
    Z = encode(ds.X)
    train, test = stratified_kfold(ds.y, 5, random_state=3)[0]
    ref = howe_cardie.fit_predict(MDW, Z.take(train), ds.y.iloc[train], Z.take(test), ds.y.iloc[test], ks=(1, 3, 5, 7))
    clf = bench.LooKNeighbors(MDW, ks=(1, 3, 5, 7)).fit(Z.take(train), ds.y.iloc[train])
    assert clf.k_ == ref["k"]
    assert np.array_equal(
        np.asarray(clf.predict(Z.take(test))).astype(object) == ds.y.iloc[test].to_numpy(), ref["correct"]
    )


def test_part_ii_methods_are_part_ii_per_fold_functions(small_run):
    iris = datasets.load("iris")
    seed = SMALL.seeds()[0]
    folds = stratified_kfold(iris.y, SMALL.n_splits, random_state=bench.dataset_seed("iris", seed))
    ca = payne2000.cv_sweep(iris.X, iris.y, folds, method="ca", scaling="range", nested=True)["nested_accuracy"]
    ours = small_run.query("dataset == 'iris' and method == 'CA' and seed == @seed").sort_values("fold")
    assert np.allclose(ours["accuracy"].to_numpy(), 100 * ca.to_numpy())


def test_every_method_sees_the_same_folds_and_the_run_is_reproducible(small_run):
    again = bench.run(SMALL, n_jobs=2)
    pd.testing.assert_series_equal(small_run["accuracy"], again["accuracy"])
    assert small_run.groupby(["dataset", "seed", "fold"])["method"].nunique().eq(len(SMALL.methods)).all()


def test_refusals_are_the_librarys_errors(small_run):
    ref = bench.refusals(small_run)
    assert set(ref["method"]) == {"CA", "MC"}  # nominal lenses: the sub-space mapping needs numbers
    assert ref["reason"].str.contains("numeric attributes").all()
    assert (ref["data sets"] == "lenses").all()
    table = bench.accuracy_table(small_run)
    assert table.loc["lenses", "CA"] != table.loc["lenses", "CA"]  # NaN
    assert list(bench_stats.complete_block(table).columns) == ["1-NN OM", "k-NN HVDM", "MDW", "VFI5", "C4.5"]


def test_times_are_recorded(small_run):
    ok = small_run[small_run["refused"].eq("")]
    assert (ok["total_s"] >= 0).all()
    est = ok[~ok["method"].isin(["CA", "MC"])]
    assert np.allclose(est["fit_s"] + est["predict_s"], est["total_s"])
    assert ok.loc[ok["method"].isin(["CA", "MC"]), "fit_s"].isna().all()


def test_data_kinds():
    assert bench.data_kind(datasets.load("zoo").types) == "mixed"
    assert bench.data_kind(datasets.load("lenses").types) == "nominal"
    assert bench.data_kind(datasets.load("iris").types) == "continuous"


def test_config_checks_its_input():
    with pytest.raises(ValueError, match="unknown or no data sets"):
        bench.Config(datasets=("irs",))
    with pytest.raises(ValueError, match="unknown or no methods"):
        bench.Config(datasets=("iris",), methods=("1-NN HVMD",))
    assert bench.Config(datasets=("iris",)).seeds() == bench.Config(datasets=("iris",)).seeds()


TABLE = pd.DataFrame(
    {
        "a": [90.0, 80.0, 70.0, 85.0, 60.0, 75.0],
        "b": [88.0, 82.0, 65.0, 80.0, 58.0, 75.0],
        "c": [70.0, 60.0, 66.0, 70.0, 50.0, 60.0],
        "d": [91.0, 79.0, 71.0, 86.0, 61.0, 74.0],
    },
    index=[f"d{i}" for i in range(6)],
)


def test_average_ranks_by_hand():
    ranks = bench_stats.average_ranks(TABLE)
    # d5: a and b tie for first (75 = 75 > 74), each 1.5; c last but on d2 (66 > 65)
    assert ranks["c"] == pytest.approx((4 + 4 + 3 + 4 + 4 + 4) / 6)
    assert ranks["d"] == pytest.approx((1 + 3 + 1 + 1 + 1 + 3) / 6)
    assert ranks["a"] == pytest.approx((2 + 2 + 2 + 2 + 2 + 1.5) / 6)
    assert list(ranks.index) == ["d", "a", "b", "c"]
    with pytest.raises(ValueError, match="complete block"):
        bench_stats.average_ranks(TABLE.assign(a=[np.nan, 1, 2, 3, 4, 5]))


def test_friedman_p_value_by_hand():
    N, k = TABLE.shape
    R = TABLE.rank(axis=1, ascending=False).mean()
    chi2 = 12 * N / (k * (k + 1)) * (np.sum(R**2) - k * (k + 1) ** 2 / 4)  # Demsar (2006), Eq. 3
    ties = TABLE.rank(axis=1).apply(lambda r: (r.value_counts() ** 3 - r.value_counts()).sum(), axis=1).sum()
    chi2 /= 1 - ties / (N * (k**3 - k))  # scipy corrects for ties
    res = bench_stats.friedman(TABLE)
    assert res["chi2"] == pytest.approx(chi2)
    assert res["p"] == pytest.approx(stats.chi2.sf(chi2, k - 1))
    F = (N - 1) * chi2 / (N * (k - 1) - chi2)  # Iman and Davenport, Demsar's Eq. 4
    assert res["p_F"] == pytest.approx(stats.f.sf(F, k - 1, (k - 1) * (N - 1)))


def test_nemenyi_p_value_and_critical_difference_by_hand():
    N, k = TABLE.shape
    R = TABLE.rank(axis=1, ascending=False).mean()
    z = abs(R["c"] - R["d"]) / np.sqrt(k * (k + 1) / (6 * N))
    assert bench_stats.nemenyi(TABLE).loc["c", "d"] == pytest.approx(
        stats.studentized_range.sf(z * np.sqrt(2), k, np.inf)
    )
    cd = bench_stats.critical_difference(k, N)
    assert cd == pytest.approx(2.569 * np.sqrt(k * (k + 1) / (6 * N)), abs=2e-3)  # Demsar's q_0.05 for k = 4
    p = bench_stats.nemenyi(TABLE)
    for x in TABLE.columns:
        for y in TABLE.columns:
            if x != y:
                assert (abs(R[x] - R[y]) >= cd) == (p.loc[x, y] <= 0.05)


def test_bayesian_signed_rank_posterior_by_hand():
    rng = np.random.default_rng(0)
    a = rng.normal(80, 5, 12)
    b = a - rng.normal(1.5, 1.0, 12)
    ours = bench_stats.bayes_signed_rank(a, b, rope=1.0, random_state=7, nsamples=4000)
    # Benavoli et al. (2017): Dirichlet(0.5, 1, ..., 1) weights on (0, z_1, ..., z_n), z = b - a; a sample's
    # probability that b is better is the weight of pairs whose mean (z_i + z_j) / 2 exceeds the rope
    z = np.concatenate([[0.0], b - a])
    pair = z[:, None] + z[None, :]
    seed = int(np.random.default_rng(7).integers(2**31 - 1))  # the one integer our random_state=7 hands baycomp
    w = np.random.RandomState(seed).dirichlet(np.r_[0.5, np.ones(12)], 4000)
    below = (pair < -2.0) + 0.5 * (pair == -2.0)
    above = (pair > 2.0) + 0.5 * (pair == 2.0)
    p_below = np.einsum("si,ij,sj->s", w, below, w)
    p_above = np.einsum("si,ij,sj->s", w, above, w)
    samples = np.column_stack([p_below, 1 - p_below - p_above, p_above])
    winner = samples.argmax(axis=1)
    assert ours["p_a"] == pytest.approx(np.mean(winner == 0))
    assert ours["p_rope"] == pytest.approx(np.mean(winner == 1))
    assert ours["p_b"] == pytest.approx(np.mean(winner == 2))
    assert ours["p_a"] > 0.5  # a is better by 1.5 points on average


def test_bayesian_signed_rank_refuses_bad_input():
    with pytest.raises(ValueError, match="equal-length"):
        bench_stats.bayes_signed_rank([1.0, 2.0], [1.0])
