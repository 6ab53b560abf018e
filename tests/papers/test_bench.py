"""Part VI, the bench: every method runs through its Part's code, the folds are shared, refusals are computed, and
the statistics of the field (Friedman, Nemenyi, Bayesian signed-rank) agree with a computation by hand."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from lazylib import datasets
from lazylib.encoding import encode
from lazylib.evaluation import stratified_kfold
from lazylib.protocols.bench import claims as bench_claims
from lazylib.protocols.bench import methods as bench_methods
from lazylib.protocols.bench import protocol as bench
from lazylib.protocols.bench import results as bench_results
from lazylib.protocols.bench import stats as bench_stats
from lazylib.protocols.bench.budget import protocol_sizes
from lazylib.protocols.howe_cardie import protocol as howe_cardie
from lazylib.protocols.payne2000 import protocol as payne2000
from lazylib.protocols.shared import dataset_seed, prepare
from lazylib.report import paired
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
    clf = bench_methods.LooKNeighbors(MDW, ks=(1, 3, 5, 7)).fit(Z.take(train), ds.y.iloc[train])
    assert clf.k_ == ref["k"]
    assert np.array_equal(
        np.asarray(clf.predict(Z.take(test))).astype(object) == ds.y.iloc[test].to_numpy(), ref["correct"]
    )


def test_part_ii_methods_are_part_ii_per_fold_functions(small_run):
    iris = datasets.load("iris")
    seed = SMALL.seeds()[0]
    folds = stratified_kfold(iris.y, SMALL.n_splits, random_state=dataset_seed("iris", seed))
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
    assert bench_methods.data_kind(datasets.load("zoo").types) == "mixed"
    assert bench_methods.data_kind(datasets.load("lenses").types) == "nominal"
    assert bench_methods.data_kind(datasets.load("iris").types) == "continuous"


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


@pytest.mark.parametrize("n, shift, rope", [(15, 1.0, 0.5), (15, 0.3, 1.0), (46, 2.0, 2.0), (5, 0.0, 1.0)])
def test_bayesian_signed_rank_is_baycomps_posterior(n, shift, rope):
    import baycomp

    rng = np.random.default_rng(n)
    a = np.round(rng.normal(80, 5, n), 1)
    b = np.round(a - rng.normal(shift, 1.0, n), 1)  # rounded: some differences on the ROPE's edge
    ours = bench_stats.bayes_signed_rank(a, b, rope=rope, random_state=3, nsamples=20000)
    seed = int(np.random.default_rng(3).integers(2**31 - 1))  # the one integer our random_state=3 hands baycomp
    ref = baycomp.SignedRankTest.probs(a, b, rope=rope, nsamples=20000, random_state=seed)
    assert [ours["p_a"], ours["p_rope"], ours["p_b"]] == pytest.approx(list(ref), abs=1e-12)
    with pytest.raises(ValueError, match="rope must be positive"):
        bench_stats.bayes_signed_rank(a, b, rope=0.0)


def test_holm_by_hand():
    p = [0.01, 0.04, 0.03, 0.005]
    # sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 -> 0.02, 0.03, 0.06, 0.04 -> running maximum 0.06 at the end
    assert paired.holm(p) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert paired.holm([0.5, 0.6]) == pytest.approx([1.0, 1.0])  # capped at 1
    with pytest.raises(ValueError, match="p-values in"):
        paired.holm([0.1, 1.2])


def test_holm_equals_statsmodels():
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    p = np.random.default_rng(1).uniform(0, 0.2, 12)
    assert paired.holm(p) == pytest.approx(multitest.multipletests(p, method="holm")[1])


BLOCK = pd.DataFrame(
    {
        "base": [80.0, 70.0, 90.0, 60.0, 75.0, 85.0, 65.0, 72.0],
        "up": [83.0, 74.0, 92.0, 61.0, 79.0, 86.5, 70.0, 75.0],  # better on every data set
        "same": [80.0, 71.0, 89.0, 60.0, 74.0, 86.0, 65.0, 73.0],  # as good, two ties
        "down": [70.0, 65.0, 80.0, 50.0, 60.0, 80.0, 55.0, 60.0],  # worse everywhere
    },
    index=[f"d{i}" for i in range(8)],
)


def test_against_baseline_is_scipys_wilcoxon_with_holm():
    out = bench_stats.against_baseline(BLOCK, "base", random_state=0)
    assert set(out.index) == {"up", "same", "down"}
    raw = {m: stats.wilcoxon(BLOCK[m], BLOCK["base"], zero_method="zsplit").pvalue for m in out.index}
    assert out["p"].to_dict() == pytest.approx(raw)
    assert out["p (Holm)"].to_numpy() == pytest.approx(paired.holm(out["p"].to_numpy()))
    # rank sums by hand for "same": differences 0, 1, -1, 0, -1, 1, 0, 1 -> |d| ranks: zeros 2 each, ones 6 each
    row = out.loc["same"]
    assert (row["wins"], row["ties"], row["losses"]) == (3, 3, 2)
    assert row["R+"] == pytest.approx(3 * 6 + 3 * 2 / 2) and row["R-"] == pytest.approx(2 * 6 + 3 * 2 / 2)
    assert out.loc["up", "reading"] == "better than base" and out.loc["down", "reading"] == "worse than base"
    assert out.loc["same", "reading"] == "not separated"
    assert out.loc["up", "median difference"] == pytest.approx(np.median(BLOCK["up"] - BLOCK["base"]))
    with pytest.raises(ValueError, match="baseline"):
        bench_stats.against_baseline(BLOCK, "nope")


def test_median_interval_is_a_percentile_bootstrap():
    d = np.array([3.0, -1.0, 2.5, 0.5, 4.0, 1.0, -0.5, 2.0, 1.5, 3.5, 0.0, 2.0])
    median, low, high = bench_stats.median_interval(d, random_state=0)
    assert median == np.median(d) and low <= median <= high
    assert (median, low, high) == bench_stats.median_interval(d, random_state=0)  # the seed fixes the draws
    # an independent percentile bootstrap (another generator): the same interval up to resampling noise
    rng = np.random.default_rng(123)
    medians = np.median(d[rng.integers(0, len(d), (20000, len(d)))], axis=1)
    assert [low, high] == pytest.approx(np.percentile(medians, [2.5, 97.5]), abs=0.26)


def test_leading_pairs_read_every_rope_from_the_posterior():
    out = bench_stats.leading_pairs(BLOCK, top=3, ropes=(0.5, 2.0), random_state=5)
    assert list(out.index.get_level_values("ROPE")) == [0.5, 2.0, 0.5, 2.0]
    best = bench_stats.average_ranks(BLOCK).index[0]
    for (pair, rope), row in out.iterrows():
        a, b = pair.split(" vs ")
        assert a == best
        p = bench_stats.bayes_signed_rank(BLOCK[a], BLOCK[b], rope=rope, random_state=5)
        assert row["P(equivalent)"] == p["p_rope"]
        expected = [k for k, v in {"practically better": p["p_a"], "equivalent": p["p_rope"]}.items() if v >= 0.95]
        assert (row["reading"] == "undecided") == (max(p.values()) < 0.95) and (
            not expected or expected[0] in row["reading"]
        )


def synthetic_run(n_datasets: int, *, seeds=(11, 22), folds: int = 3, random_state=0) -> pd.DataFrame:
    """A bench run's rows on made-up data sets: 1-NN HVDM leads, 1-NN Euclidean is the fastest and 3 points
    below it, 1-NN IVDM is 0.2 below 1-NN HVDM and faster, k-NN HVDM is as good and slowest."""
    rng = np.random.default_rng(random_state)
    rows = []
    for i in range(n_datasets):
        base = rng.uniform(60, 95)
        kind = bench_methods.KINDS[i % 3]
        for s in seeds:
            for f in range(folds):
                noise = rng.normal(0, 0.3, 4)
                acc = {
                    "1-NN HVDM": base + 1.0,
                    "1-NN IVDM": base + 0.8,
                    "k-NN HVDM": base + 1.1,
                    "1-NN Euclidean": base - 2.0,
                }
                time = {"1-NN HVDM": 2.0, "1-NN IVDM": 1.0, "k-NN HVDM": 9.0, "1-NN Euclidean": 0.1}
                for j, m in enumerate(acc):
                    rows.append(
                        {"dataset": f"d{i:02d}", "kind": kind, "seed": s, "fold": f, "method": m,
                         "accuracy": acc[m] + noise[j], "fit_s": np.nan, "predict_s": np.nan,
                         "total_s": time[m], "refused": ""}
                    )  # fmt: skip
    return pd.DataFrame(rows)


def test_the_ranking_reads_a_full_run_artifact_of_any_size(tmp_path):
    path = tmp_path / "full_run.csv.gz"
    run = synthetic_run(46)
    run.loc[(run["method"] == "k-NN HVDM") & (run["dataset"] == "d00"), ["accuracy", "total_s", "refused"]] = [
        np.nan,
        np.nan,
        "refuses d00",
    ]
    run.to_csv(path, index=False)
    (tmp_path / "full_run.json").write_text('{"commit": "abc"}')
    loaded = bench_results.load_full_run(path)
    assert loaded.attrs["run"] == {"commit": "abc"} and loaded["refused"].eq("").sum() == len(run) - 6
    table = bench.accuracy_table(loaded)
    assert table.shape == (46, 4)
    r = bench_stats.ranking(table)
    assert r["friedman"]["N"] == 46 and r["excluded"] == ["k-NN HVDM"]
    assert r["cd"] == pytest.approx(bench_stats.critical_difference(3, 46))
    pairs = bench_stats.separated_pairs(r)
    assert set(zip(pairs["better"], pairs["worse"])) == {
        (a, b) for a in r["ranks"].index for b in r["ranks"].index if r["ranks"][b] - r["ranks"][a] >= r["cd"]
    }
    assert bench_results.load_full_run(tmp_path / "absent.csv.gz") is None
    run.drop(columns="kind").to_csv(path, index=False)
    with pytest.raises(ValueError, match="kind"):
        bench_results.load_full_run(path)


def test_a_data_set_run_on_fewer_fold_seeds_is_ranked_on_the_seeds_it_has():
    run = synthetic_run(6, seeds=(0, 1, 2))
    run = run[~((run["dataset"] == "d05") & (run["seed"] > 0))]  # the stated protocol of the largest: seed 0 only
    by_seed = bench.accuracy_table(run, by_seed=True)
    assert by_seed.notna().all().all() and len(by_seed) == 6 + 5 + 5
    assert list(by_seed.loc[0].index) == [f"d0{i}" for i in range(6)] and "d05" not in by_seed.loc[1].index
    tables = bench_claims.conditions(run)
    assert [len(t) for t in tables.values()] == [6, 6, 5, 5]
    names = ["d00", "d03", "d05"]
    leader = bench_stats.ranking(bench.accuracy_table(run), names)["best"]
    best = bench_claims.judge_best(run, leader, names)
    # "ranks best" is a description of the ranking, labelled a finding (issue #54), no longer "supported"
    assert len(best.conditions) == 4 and best.primary_verdict == "finding"
    alike = bench_claims.judge_equivalent(run, "1-NN HVDM", "1-NN IVDM", names, rope=1.0)
    assert len(alike.conditions) == 4
    failed = run.copy()
    failed.loc[(failed["dataset"] == "d04") & (failed["seed"] == 1), "accuracy"] = np.nan  # a job that failed
    assert bench.accuracy_table(failed, by_seed=True).loc[(1, "d04")].isna().all()  # kept, not dropped


def test_a_re_executed_subset_must_equal_the_full_runs_rows():
    full = synthetic_run(5)
    full.loc[full.index[:4], ["accuracy", "refused"]] = [np.nan, "refuses d00"]
    subset = full[full["dataset"].isin(["d00", "d01"])].copy()
    assert bench_results.differing_rows(subset, full).empty
    moved, refused, extra = subset.index[5], subset.index[0], subset.index[7]
    subset.loc[moved, "accuracy"] = np.nextafter(subset.loc[moved, "accuracy"], 200)  # one bit
    subset.loc[refused, "refused"] = ""
    subset.loc[extra, "fold"] = 99  # a row the artifact lacks
    diff = bench_results.differing_rows(subset, full)
    assert dict(zip(diff["fold"], diff["why"])) == {
        subset.loc[moved, "fold"]: "accuracy",
        subset.loc[refused, "fold"]: "refused",
        99: "absent",
    }
    with pytest.raises(ValueError, match="twice"):
        bench_results.differing_rows(subset, pd.concat([full, full.iloc[:1]]))
    with pytest.raises(ValueError, match="accuracy"):
        bench_results.differing_rows(subset.drop(columns="accuracy"), full)


def test_the_full_run_artifact_is_the_command_lines_run():
    """The artifact in the repository (benchmarks/full_run) holds every job of FULL's configuration once, with the
    configuration it records, no error, and the book's subset is part of it."""
    from pathlib import Path

    full = bench_results.load_full_run(Path(__file__).parents[2] / bench_results.FULL_RUN)
    assert full is not None, "benchmarks/full_run/full_run.csv.gz is missing"
    recorded = full.attrs["run"]["config"]
    assert recorded == bench.FULL.record()
    assert not full.duplicated(list(bench_results.ROW_KEY)).any() and full["error"].isna().all()
    assert set(bench.BOOK.datasets) <= set(full["dataset"]) and full["dataset"].nunique() == len(bench.FULL.datasets)
    per_dataset = full.groupby("dataset")["seed"].nunique()
    sizes = protocol_sizes(bench.FULL, {name: len(prepare(name)[1]) for name in bench.FULL.datasets})
    assert per_dataset.to_dict() == sizes["fold_seeds"].to_dict()
    assert sizes.loc[["letter", "mushroom", "satellite", "shuttle"], "fold_seeds"].tolist() == [1, 3, 4, 1]
    first = full.groupby("dataset")["seed"].unique()
    assert all(set(first[name]) == set(bench.FULL.seeds()[: sizes.loc[name, "fold_seeds"]]) for name in first.index)
    assert len(full) == full.groupby(["dataset", "seed"]).ngroups * bench.FULL.n_splits * len(bench.FULL.methods)


def test_the_hierarchical_tests_results_are_refused_for_another_full_run(tmp_path):
    import hashlib
    import json

    artifact, path = tmp_path / "full_run.csv.gz", tmp_path / "hierarchical.csv"
    artifact.write_bytes(b"the rows of one run")
    table = pd.DataFrame({"pair": ["a vs b"], "rope": [1.0], "reading": ["first seed"], "p_best_better": [0.1],
                          "p_equivalent": [0.85], "p_other_better": [0.05]})  # fmt: skip
    table.to_csv(path, index=False)
    sha = hashlib.sha256(artifact.read_bytes()).hexdigest()
    path.with_suffix(".json").write_text(json.dumps({"artifact_sha256": sha, "stan_seed": 2017}))
    loaded = bench_results.load_hierarchical(path, artifact)
    pd.testing.assert_frame_equal(loaded, table)
    assert loaded.attrs["run"]["stan_seed"] == 2017
    artifact.write_bytes(b"the rows of another run")
    with pytest.raises(ValueError, match="another full run"):
        bench_results.load_hierarchical(path, artifact)
    artifact.write_bytes(b"the rows of one run")
    table.drop(columns="p_equivalent").to_csv(path, index=False)
    with pytest.raises(ValueError, match="p_equivalent"):
        bench_results.load_hierarchical(path, artifact)


def test_best_value_follows_the_bayesian_posterior():
    run = synthetic_run(15)
    r = bench_stats.ranking(bench.accuracy_table(run))
    value = bench_stats.value_for_time(run, r, random_state=0)
    # "1-NN Euclidean" is 3 points below the best on every data set: the posterior says so, whatever Nemenyi says
    assert value.loc["1-NN Euclidean", "P(best practically better)"] >= 0.95
    assert bench_stats.best_value(value) == "1-NN IVDM"  # the fastest the posterior finds not practically worse
    assert value.loc["1-NN IVDM", "P(not practically worse)"] >= 0.95
    judged = bench_claims.judge_best_value(run, "1-NN IVDM", random_state=0)
    assert judged.verdict == "supported"
    assert bench_claims.judge_best_value(run, "1-NN Euclidean", random_state=0).verdict == "not supported"


def test_conditions_pool_the_seeds_and_count_each_seed_once():
    run = synthetic_run(6)
    cond = bench_claims.conditions(run)
    assert list(cond) == [bench_claims.POOLED, (11,), (22,)]
    judged = bench_claims.judge_best(run, "k-NN HVDM")
    assert len(judged.conditions) == 3  # the pooled run and the two seeds, not three seeds
    assert "seeds" not in judged.stability or judged.stability.startswith("stable")


def test_the_hierarchical_results_outlive_changes_to_other_methods_rows(tmp_path):
    import json

    run = synthetic_run(6)
    artifact, path = tmp_path / "full_run.csv.gz", tmp_path / "hierarchical.csv"
    run.to_csv(artifact, index=False)
    methods = sorted(run["method"].unique())
    a, b, other = methods[0], methods[1], methods[2]
    table = pd.DataFrame({"pair": [f"{a} vs {b}"], "rope": [1.0], "reading": ["first seed"], "p_best_better": [0.1],
                          "p_equivalent": [0.85], "p_other_better": [0.05]})  # fmt: skip
    table.to_csv(path, index=False)
    sha = bench_results.method_rows_sha256(bench_results.read_run(artifact), [a, b])
    path.with_suffix(".json").write_text(json.dumps({"artifact_sha256": "not read", "rows_sha256": sha}))
    moved = run.copy()
    moved.loc[moved["method"] == other, "accuracy"] -= 1.0  # another method's rows: the results still hold
    moved.to_csv(artifact, index=False)
    pd.testing.assert_frame_equal(bench_results.load_hierarchical(path, artifact), table)
    moved.loc[moved["method"] == b, "accuracy"] -= 1.0  # a pair's method's rows: refused, naming the method
    moved.to_csv(artifact, index=False)
    with pytest.raises(ValueError, match=f"the rows of \\['{b}'\\] changed"):
        bench_results.load_hierarchical(path, artifact)
