"""The running half of the bench (issue #38): one metric fit per k-NN, failures recorded per job, results written
job by job and resumed, the same rows serially and on a Dask LocalCluster."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest

from lazylib import datasets
from lazylib.encoding import encode
from lazylib.evaluation import stratified_kfold
from lazylib.neighbors import KNeighborsClassifier, loo_accuracy_by_k
from lazylib.protocols.bench import cli as bench_cli
from lazylib.protocols.bench import methods as bench_methods
from lazylib.protocols.bench import protocol as bench
from lazylib.protocols.bench import results as bench_results
from lazylib.trees import C45Classifier
from lazylib.weighting import LearnedWOM

TINY = bench.Config(
    datasets=("lenses", "iris"), n_seeds=1, n_splits=3, methods=("1-NN OM", "k-NN WOM", "MC", "C4.5"), ks=(1, 3)
)
#: What a rerun must reproduce (the times differ from run to run).
SAME = ["dataset", "kind", "seed", "fold", "method", "accuracy", "refused", "error"]


@pytest.fixture(scope="module")
def serial():
    return bench.run(TINY, n_jobs=1)


def test_loo_kneighbors_fits_its_metric_once_with_the_same_choice(monkeypatch):
    ds = datasets.load("zoo")
    Z = encode(ds.X)
    train, test = stratified_kfold(ds.y, 5, random_state=1)[0]
    Xtr, ytr = Z.take(train), ds.y.iloc[train]
    loo = loo_accuracy_by_k(Xtr, ytr, (1, 3, 5), LearnedWOM())  # the two fits of before
    before = KNeighborsClassifier(int(loo.idxmax()), LearnedWOM()).fit(Xtr, ytr).predict(Z.take(test))
    fits = []
    original = LearnedWOM.fit
    monkeypatch.setattr(LearnedWOM, "fit", lambda self, *a, **k: fits.append(1) or original(self, *a, **k))
    clf = bench_methods.LooKNeighbors(LearnedWOM, ks=(1, 3, 5)).fit(Xtr, ytr)
    assert len(fits) == 1
    pd.testing.assert_series_equal(clf.loo_, loo)
    assert clf.k_ == int(loo.idxmax()) and clf.knn_.n_neighbors == clf.k_
    np.testing.assert_array_equal(clf.predict(Z.take(test)), before)


def test_a_failing_method_is_recorded_and_the_run_goes_on(monkeypatch, serial):
    original = C45Classifier.fit

    def fit(self, X, y, *args, **kwargs):
        if len(X) > 50:
            raise MemoryError("Unable to allocate 38.6 GiB")
        return original(self, X, y, *args, **kwargs)

    monkeypatch.setattr(C45Classifier, "fit", fit)
    res = bench.run(TINY, n_jobs=1)
    failed = res["error"].ne("")
    assert (res.loc[failed, "method"] == "C4.5").all() and (res.loc[failed, "dataset"] == "iris").all()
    assert failed.sum() == 3 and res.loc[failed, "error"].eq("MemoryError: Unable to allocate 38.6 GiB").all()
    assert res.loc[failed, "refused"].eq("").all() and res.loc[failed, "accuracy"].isna().all()  # never a refusal
    pd.testing.assert_frame_equal(res.loc[~failed, SAME], serial.loc[~failed, SAME])
    assert list(res.columns) == [*bench_results.COLUMNS[:-1], "error"]


def test_a_refusal_on_some_folds_only_is_an_error_not_a_refusal():
    rows = pd.DataFrame(
        {"dataset": "d", "method": "m", "refused": ["no", "", ""], "error": "", "accuracy": [np.nan, 90.0, 80.0]}
    )
    with pytest.warns(UserWarning, match="some folds only"):
        out = bench._check_refusals(rows)
    assert out["refused"].eq("").all() and out["error"].tolist() == ["refused on some folds only: no", "", ""]


class _Interrupt(BaseException):
    """Stands for a killed process (KeyboardInterrupt, SIGTERM): not an Exception, so no job records it."""


def _interrupting_save(monkeypatch, after: int):
    original, saved = bench_results.ResultsFolder.save, []

    def save(self, job, rows):
        if len(saved) == after:
            raise _Interrupt
        saved.append(job)
        original(self, job, rows)

    monkeypatch.setattr(bench_results.ResultsFolder, "save", save)
    return saved


def test_an_interrupted_run_resumes_with_the_same_rows(monkeypatch, tmp_path, serial):
    saved = _interrupting_save(monkeypatch, after=2)
    with pytest.raises(_Interrupt):
        bench.run(TINY, n_jobs=1, results=tmp_path)
    monkeypatch.undo()
    assert len(list((tmp_path / "jobs").glob("*.csv"))) == 2 == len(saved)
    ran = []
    original = bench._job
    monkeypatch.setattr(bench, "_job", lambda config, job, *a: ran.append(job) or original(config, job, *a))
    resumed = bench.run(TINY, n_jobs=1, results=tmp_path)
    assert len(ran) == 4 and not set(ran) & set(saved)  # the finished jobs are read back, not run again
    pd.testing.assert_frame_equal(resumed[SAME], serial[SAME])
    again = bench.run(TINY, n_jobs=1, results=tmp_path)  # everything read back: the same bits
    pd.testing.assert_frame_equal(again, resumed)
    with pytest.raises(ValueError, match="another configuration"):
        bench.run(bench.Config(datasets=("lenses",), n_seeds=1, n_splits=3, methods=("C4.5",)), results=tmp_path)
    monkeypatch.setattr("lazylib.report.book_files.inputs_fingerprint", lambda: "other code")
    with pytest.raises(ValueError, match="another lazylib"):
        bench.run(TINY, n_jobs=1, results=tmp_path)


def test_a_local_cluster_interrupted_and_resumed_gives_the_serial_rows(monkeypatch, tmp_path, serial):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            _interrupting_save(monkeypatch, after=3)
            with pytest.raises(_Interrupt):
                bench.run(TINY, client=client, results=tmp_path)
            monkeypatch.undo()
            assert len(list((tmp_path / "jobs").glob("*.csv"))) == 3
            resumed = bench.run(TINY, client=client, results=tmp_path)
            # each worker loaded the data sets by name (the tasks carry none): at most once per worker
            loaded = client.run(lambda: bench._prepared.cache_info().misses)
    pd.testing.assert_frame_equal(resumed[SAME], serial[SAME])
    assert all(0 < n <= len(TINY.datasets) for n in loaded.values())


def test_a_sample_of_folds_gives_those_rows_of_the_whole_run(serial):
    sample = bench.run(TINY, n_jobs=1, folds=[2])
    pd.testing.assert_frame_equal(sample[SAME], serial.loc[serial["fold"] == 2, SAME].reset_index(drop=True))
    with pytest.raises(ValueError, match="n_splits"):
        bench.run(TINY, n_jobs=1, folds=[3])


def test_the_command_line_runs_its_jobs_on_workers(tmp_path):
    """``python -m`` runs the module as ``__main__``: its jobs must still reach loky's workers by reference."""
    import os
    import subprocess
    import sys

    out = tmp_path / "rows.csv"
    args = ["--datasets", "lenses", "--seeds", "1", "--methods", "1-NN OM", "C4.5", "--n-jobs", "2"]
    args += ["--folds", "0", "1", "--results", str(tmp_path / "run"), "--output", str(out)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    subprocess.run([sys.executable, "-m", "lazylib.protocols.bench", *args], check=True, env=env, capture_output=True)
    rows = pd.read_csv(out, keep_default_na=False)
    assert len(rows) == 4 and rows["error"].eq("").all() and len(list((tmp_path / "run" / "jobs").glob("*.csv"))) == 2


def test_the_largest_data_sets_follow_their_stated_protocol():
    """A data set over ``large`` instances: only the first ``large_seeds`` fold seeds, each training part a
    stratified sample of ``large_train`` instances (the same sample at every call), the test fold whole; the others
    keep the full protocol."""
    config = bench.Config(datasets=("iris", "wine"), n_seeds=2, methods=("1-NN HEOM",), large=160, large_train=40)
    assert config.is_large(178) and not config.is_large(150)
    res = bench.run(config, n_jobs=1)
    per_seed = res.groupby("dataset")["seed"].nunique()
    assert per_seed["wine"] == 1 and per_seed["iris"] == 2
    assert len(res[res.dataset == "wine"]) == config.n_splits and res["accuracy"].notna().all()
    y = pd.Series(["a"] * 100 + ["b"] * 78)
    train = np.arange(0, 178, 2)
    part = bench.training_part(config, train, y, 7)
    assert len(part) == 40 and set(part) <= set(train) and np.all(np.diff(part) > 0)
    assert np.array_equal(part, bench.training_part(config, train, y, 7))
    assert abs((y[part] == "a").sum() - 40 * (y[train] == "a").mean()) <= 1
    assert np.array_equal(bench.training_part(config, train[:30], y, 7), train[:30])  # already small enough
    with pytest.raises(ValueError, match="large_train"):
        bench.Config(datasets=("iris",), large=10, large_train=1)


def test_the_command_line_stores_an_artifact_that_part_vi_reads_back(tmp_path, serial, capsys):
    from lazylib.protocols.bench import results as bench_results

    argv = ["--datasets", "lenses", "iris", "--seeds", "1", "--methods", "1-NN OM", "k-NN WOM", "MC", "C4.5"]
    argv += ["--n-jobs", "1", "--output", str(tmp_path / "rows.csv"), "--artifact", str(tmp_path / "art")]
    config = dataclasses.replace(bench.BOOK, datasets=("lenses", "iris"), n_seeds=1, methods=TINY.methods)
    bench_cli.main(argv)
    assert "2 data sets (lenses, iris) x 4 methods x 1 seeds x 10 folds: 20 jobs (20 run," in capsys.readouterr().out
    stored = bench_results.load_full_run(tmp_path / "art" / "full_run.csv.gz")
    rows = bench.run(config, n_jobs=1)
    assert bench_results.differing_rows(rows, stored).empty and len(stored) == len(rows)
    meta = stored.attrs["run"]
    assert meta["command"] == "python -m lazylib.protocols.bench " + " ".join(argv)
    assert meta["config"]["datasets"] == ["lenses", "iris"] and meta["rows"] == len(rows)
    assert meta["refused_rows"] == int(rows["refused"].ne("").sum()) and meta["errors"] == 0
    assert meta["started"] <= meta["ended"] and meta["wall_s"] >= 0 and "cores" in meta["machine"]
    cost = pd.read_csv(tmp_path / "art" / "cost_by_dataset.csv", index_col="dataset")
    assert list(cost.index) == ["lenses", "iris"] and cost["processor_s"].sum() > 0
