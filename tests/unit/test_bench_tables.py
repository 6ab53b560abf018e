"""A user's tables on the bench (issue #51 items 3 and 7): folds seeded from the table's content, rows under the
table's name, a results folder that resumes, the same rows on one worker or two, a class too small for the folds
refused before any job; the smooth rule of the training sample, the pilot and the budget's arithmetic."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest

from lazylib import datasets
from lazylib.datasets.frame import from_frame
from lazylib.protocols.bench import protocol as bench
from lazylib.protocols.bench.budget import (
    Estimate,
    choose,
    describe,
    estimate,
    fold_seeds,
    protocol_sizes,
    training_size,
)

#: What a rerun must reproduce (the times differ from run to run).
SAME = ["dataset", "kind", "seed", "fold", "method", "accuracy", "refused", "error"]
METHODS = ("1-NN HEOM", "C4.5")


def _table(name: str, source: str = "iris"):
    ds = datasets.load(source)
    frame = ds.X.copy()
    frame["class"] = ds.y.astype(str).to_numpy()
    return from_frame(frame, "class", name=name)


def _config(*tables, **kwargs) -> bench.Config:
    fields = {"datasets": (), "n_seeds": 1, "n_splits": 3, "methods": METHODS, "large_rule": "smooth"} | kwargs
    return bench.Config(tables=tuple((t.name, t.sha256) for t in tables), **fields)


@pytest.fixture(scope="module")
def mine():
    return _table("mine")


@pytest.fixture(scope="module")
def serial(mine):
    return bench.run(_config(mine), tables={"mine": mine}, n_jobs=1, progress=False)


def test_the_stored_runs_keep_their_keys():
    """Computed at main before the tables came (commit b6f4317): the new fields at their defaults leave key()."""
    assert bench.CLIFF.key() == "2cca0c0d4af7f7b2"  # the catalogue's run until 2026-12-03
    assert bench.BOOK.key() == "be9cb909938fa6da"
    assert bench.FULL == dataclasses.replace(bench.CLIFF, large=None, large_rule="smooth")
    assert bench.FULL.key() != bench.CLIFF.key()
    assert dataclasses.replace(bench.CLIFF, max_train=1000).key() != bench.CLIFF.key()


def test_a_renamed_table_draws_the_same_folds_and_its_rows_carry_its_name(mine, serial):
    other = _table("other")
    assert other.sha256 == mine.sha256 and _config(other).key() != _config(mine).key()
    rows = bench.run(_config(other), tables={"other": other}, n_jobs=1, progress=False)
    assert serial["dataset"].eq("mine").all() and rows["dataset"].eq("other").all()
    assert len(serial) == 3 * len(METHODS) and serial["error"].eq("").all() and serial["refused"].eq("").all()
    pd.testing.assert_frame_equal(rows[SAME].drop(columns="dataset"), serial[SAME].drop(columns="dataset"))
    assert serial["accuracy"].between(80, 100).all()
    # beside the catalogue's iris in one run: its own rows unchanged, the catalogue's under its name
    both = bench.run(_config(other, datasets=("iris",)), tables={"other": other}, n_jobs=1, progress=False)
    pd.testing.assert_frame_equal(both[both["dataset"].eq("other")][SAME].reset_index(drop=True), rows[SAME])
    assert set(both["dataset"]) == {"iris", "other"}


def test_a_results_folder_resumes(tmp_path, mine, serial, monkeypatch):
    config, folder = _config(mine), tmp_path / "results"
    first = bench.run(config, tables={"mine": mine}, n_jobs=1, results=folder, progress=False)
    pd.testing.assert_frame_equal(first[SAME], serial[SAME])
    files = sorted((folder / "jobs").glob("*.csv"))
    assert len(files) == 3
    files[1].unlink()
    ran = []
    original = bench._job
    monkeypatch.setattr(bench, "_job", lambda *a, **k: ran.append(a[1]) or original(*a, **k))
    again = bench.run(config, tables={"mine": mine}, n_jobs=1, results=folder, progress=False)
    assert ran == [("mine", config.seeds()[0], 1)]
    pd.testing.assert_frame_equal(again[SAME], serial[SAME])
    with pytest.raises(ValueError, match="another configuration"):
        bench.run(_config(_table("renamed")), tables={"renamed": _table("renamed")}, results=folder, n_jobs=1)


def test_one_worker_or_two_give_the_same_rows(mine, serial):
    two = bench.run(_config(mine), tables={"mine": mine}, n_jobs=2, progress=False)
    pd.testing.assert_frame_equal(two[SAME], serial[SAME])


def test_a_class_smaller_than_the_folds_is_refused_before_any_job(monkeypatch):
    ds = datasets.load("iris")
    keep = np.r_[0:50, 50:52, 100:150]  # two of versicolor
    frame = ds.X.iloc[keep].reset_index(drop=True)
    frame["class"] = ds.y.astype(str).to_numpy()[keep]
    small = from_frame(frame, "class", name="small")
    monkeypatch.setattr(bench, "_job", lambda *a, **k: pytest.fail("a job ran"))
    with pytest.raises(ValueError, match=r"class 'Iris-versicolor' has 2 rows, fewer than the 3 folds.*n_splits=2"):
        bench.run(_config(small), tables={"small": small}, n_jobs=1)


def test_the_tables_given_must_be_the_configurations(mine):
    with pytest.raises(ValueError, match="exactly the configuration's tables"):
        bench.run(_config(mine), n_jobs=1)
    wine = _table("mine", "wine")
    with pytest.raises(ValueError, match="build the Config from this table"):
        bench.run(_config(mine), tables={"mine": wine}, n_jobs=1)
    with pytest.raises(ValueError, match="not a sha256"):
        bench.Config(datasets=(), tables=(("t", "abc"),))
    with pytest.raises(ValueError, match="given twice or are data sets"):
        bench.Config(datasets=("iris",), tables=(("iris", mine.sha256),))
    with pytest.raises(ValueError, match="large_rule"):
        bench.Config(datasets=("iris",), large_rule="steep")
    with pytest.raises(ValueError, match="no data sets"):
        bench.Config(datasets=())


def test_the_smooth_rule_has_no_cliff():
    n = np.arange(1, 120_001)
    sizes = np.array([training_size(int(k)) for k in n])
    assert np.array_equal(sizes[:5000], n[:5000])  # whole up to the knee
    assert np.all(np.diff(sizes) >= 0) and np.all(np.diff(sizes) <= 1)  # grows, never jumps
    assert sizes[9_999] == round(np.sqrt(5000 * 10_000)) == 7071 and sizes[89_999] == 21213
    assert training_size(20_000, knee=1000) == round(np.sqrt(1000 * 20_000))
    # the cliff it replaces: 9,000 training rows whole at 10,000 instances, 5,000 at 10,001
    assert training_size(9_000, "cliff", large=10_000, n_total=10_000) == 9_000
    assert training_size(9_000, "cliff", large=10_000, n_total=10_001) == 5_000
    with pytest.raises(ValueError, match="rule must be one of"):
        training_size(10, "steep")


def test_the_smooth_rule_cuts_the_fold_seeds_in_proportion_above_the_knee():
    """All fold seeds up to the knee, floor(n_seeds x knee / n_train) above it, never none, never more as the table
    grows; the test predictions summed over fold seeds never exceed those at the knee."""
    n_train = np.arange(1, 200_001)
    seeds = np.array([fold_seeds(int(n), 5) for n in n_train[::97]])
    assert seeds[n_train[::97] <= 5000].tolist() == [5] * int((n_train[::97] <= 5000).sum())
    assert np.all(np.diff(seeds) <= 0) and seeds.min() == 1
    assert np.all(seeds * n_train[::97] <= np.maximum(5 * 5000, n_train[::97]))
    edges = (5_000, 5_001, 6_250, 6_251, 8_333, 8_334, 12_500, 12_501)
    assert [fold_seeds(n, 5) for n in edges] == [5, 4, 4, 3, 3, 2, 2, 1]
    assert fold_seeds(60_000, 10, knee=30_000) == 5 and fold_seeds(10, 3, knee=2) == 1
    with pytest.raises(ValueError, match="n_seeds"):
        fold_seeds(100, 0)


def test_a_large_table_runs_under_the_first_fold_seeds_of_the_rule():
    """Under the smooth rule a table of 150 instances with a knee of 30 trains on 135 per fold: floor(4 x 30 / 135)
    = 0, so one fold seed, the first of the four; the cliff and the whole protocol keep all four."""
    config = bench.Config(datasets=("iris",), n_seeds=4, methods=("1-NN HEOM",), large_rule="smooth", large_train=30)
    assert config.fold_seeds_of(150) == 1 and config.fold_seeds_of(33) == 4 and config.fold_seeds_of(40) == 3
    assert dataclasses.replace(config, large_rule="cliff").fold_seeds_of(150) == 4
    rows = bench.run(config, n_jobs=1, progress=False)
    assert rows["seed"].unique().tolist() == config.seeds()[:1] and len(rows) == config.n_splits
    sizes = protocol_sizes(config, {"iris": 150, "tiny": 33})
    assert sizes.to_dict("index") == {
        "iris": {"instances": 150, "fold_seeds": 1, "training_instances": round(np.sqrt(30 * 135))},
        "tiny": {"instances": 33, "fold_seeds": 4, "training_instances": 29},
    }
    assert "iris 150 rows, training parts of about 64 under 1 fold seed" in describe(config, {"iris": _table("iris")})


def test_the_smooth_rule_samples_a_large_table():
    config = bench.Config(datasets=("iris",), n_seeds=3, large=100, large_rule="smooth", large_train=30)
    y = pd.Series(np.repeat(["a", "b", "c"], 50))
    part = bench.training_part(config, np.arange(120), y, 0)
    assert len(part) == round(np.sqrt(30 * 120)) == 60 and not config.is_large(150)
    capped = bench.training_part(dataclasses.replace(config, max_train=45), np.arange(150), y, 0)
    assert len(capped) == 45 and sorted(pd.Series(y[capped]).value_counts()) == [15, 15, 15]


def _fake(per_job: float, planned: int, *, n_splits: int = 10, pilot_wall: float = 0.0, seeds: int = 5) -> Estimate:
    """An estimate of one table whose job costs ``per_job`` seconds at ``planned`` training rows (no timing)."""
    config = bench.Config(
        datasets=(), tables=(("t", "0" * 64),), n_seeds=seeds, n_splits=n_splits, methods=METHODS, large_rule="smooth"
    )
    seconds = pd.DataFrame({"1-NN HEOM": [per_job / 4], "C4.5": [3 * per_job / 4]}, index=["t"])
    return Estimate(config, seconds, {"t": 10 * planned // 9}, {"t": planned}, {"t": planned}, pilot_wall, 1.0, None)


def test_the_budget_chooses_the_seeds_by_arithmetic():
    fake = _fake(10.0, 4500, pilot_wall=10.0)  # a fold seed: 10 jobs x 10 s on 2 workers = 50 s wall
    assert fake.wall(2, 1) == 50.0 and fake.wall(1, 3) == 300.0 and fake.wall(20, 1) == 10.0
    assert choose(fake, 15.0, 2).n_seeds == 5  # 250 s of 890
    assert choose(fake, 3.0, 2).n_seeds == 3  # 170 s left after the pilot: 3 x 50
    assert choose(fake, 3.0, 1).n_seeds == 1 and choose(fake, 3.0, 1).max_train is None  # 100 s fits one seed
    assert choose(fake, 15.0, 2, max_seeds=2).n_seeds == 2


def test_the_budget_cuts_the_training_sample_when_one_seed_does_not_fit():
    fake = _fake(60.0, 8000)  # a fold seed: 300 s wall on 2 workers
    chosen = choose(fake, 2.5, 2)  # 150 s: a cut job shrinks at most linearly, c / 8000 <= 1/2
    assert (chosen.n_seeds, chosen.max_train) == (1, 4000)
    assert fake.wall(2, 1, 4000) <= 150 < fake.wall(2, 1, 4001)
    assert choose(fake, 0.01, 2).max_train == 1000  # never below min_train: the overrun is said, not hidden
    assert "at most 4,000 training rows" in describe(chosen)


def test_the_cost_model_errs_on_the_side_of_the_budget_both_ways():
    """Above the pilot's rows a job grows as n^2 (the steepest), below them it shrinks as n (the flattest): a job
    growing as n^1.2 (a 100,000-row table's, benchmarks/large_table.md) costs at most what is predicted either
    way, which the n^2 model did not give for a cut."""
    fake = _fake(60.0, 8000)
    actual = {c: 60.0 * (c / 8000) ** 1.2 for c in (1000, 2000, 4000, 7999)}
    for c, seconds in actual.items():
        assert fake.job_seconds(c)["t"] >= seconds
        assert fake.job_seconds(c, cut_exponent=2.0)["t"] < seconds  # the model it replaces: too optimistic
    sampled = Estimate(fake.config, fake.seconds, fake.rows, {"t": 2000}, {"t": 8000}, 1.0, 1.0, None)
    scaled = sampled.job_seconds()["t"]
    assert scaled == pytest.approx(60.0 * 16) and scaled >= 60.0 * 4**1.2  # scaled up as n^2


def test_the_pilot_times_one_fold_of_every_method(mine):
    config = _config(mine, n_seeds=4)
    found = estimate(config, {"mine": mine}, progress=False)
    assert list(found.seconds.columns) == list(METHODS) and list(found.seconds.index) == ["mine"]
    assert (found.seconds.to_numpy() > 0).all() and np.isfinite(found.seconds.to_numpy()).all()
    assert found.rows == {"mine": 150} and found.planned_train == found.pilot_train == {"mine": 100}
    assert len(found.results) == len(METHODS) and found.results["fold"].eq(0).all() and found.load >= 1
    assert found.wall_s >= found.seconds.to_numpy().sum()
    assert found.wall(1) == pytest.approx(4 * 3 * found.job_seconds()["mine"])
    sampled = estimate(config, {"mine": mine}, pilot_train=40, progress=False)
    assert sampled.pilot_train == {"mine": 40} and sampled.planned_train == {"mine": 100}
    assert "4 fold seed(s) x 3 folds" in found.text(1)
    sentence = describe(choose(found, 15.0, 2), {"mine": mine})
    assert sentence.count(".") == 1 and "under 5 fold seeds" in sentence and "mine 150 rows" in sentence


def test_a_dask_cluster_gets_the_tables_data_and_gives_the_same_rows(mine, serial):
    distributed = pytest.importorskip("distributed")
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=1, dashboard_address=None) as client:
        rows = bench.run(_config(mine), tables={"mine": mine}, client=client, progress=False)
    pd.testing.assert_frame_equal(rows[SAME], serial[SAME])
