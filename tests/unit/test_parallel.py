"""lazylib.parallel (parallel_map, run_jobs): joblib workers (spawned, not forked), progress bars, BLAS threads,
Dask."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pandas as pd
import pytest

from lazylib import parallel, synthetic
from lazylib.protocols.guvenir1998.protocol import repeated_prefix_accuracy


def test_progress_is_silent_under_pytest_and_shown_when_asked(capsys):
    assert os.environ.get("TQDM_DISABLE") == "1"  # conftest.py: pytest and the kernels nbval starts
    assert parallel.parallel_map(abs, [-1, 2], label="quiet") == [1, 2]
    assert capsys.readouterr().err == ""
    assert parallel.parallel_map(abs, [-1, 2], label="shown", progress=True) == [1, 2]
    err = capsys.readouterr().err
    assert "shown" in err and "2/2" in err


def test_n_jobs_is_checked():
    for bad in (0, 1.5, True, "2"):
        with pytest.raises(ValueError, match="n_jobs"):
            parallel.parallel_map(abs, [1], n_jobs=bad)


def test_order_and_results_with_more_items_than_chunks():
    items = list(range(37))  # 2 workers x 4 chunks: interleaved chunks put back in order
    assert parallel.parallel_map(lambda i: i * i, items, n_jobs=2) == [i * i for i in items]


def _blas_threads(_):
    from threadpoolctl import threadpool_info

    return os.getpid(), [pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"]


def test_workers_are_other_processes_with_limited_blas_threads():
    out = parallel.parallel_map(_blas_threads, range(8), n_jobs=2)
    assert os.getpid() not in {pid for pid, _ in out}
    limit = max(1, (os.cpu_count() or 1) // 2)
    assert all(threads and max(threads) <= limit for _, threads in out), out


def test_small_products_run_on_one_blas_thread_and_the_setting_comes_back():
    from unittest import mock

    from threadpoolctl import threadpool_limits

    from lazylib import _threads

    with threadpool_limits(limits=2, user_api="blas"):
        before = _blas_threads(None)[1]
        with _threads.threads_for(_threads.SMALL_WORK - 1):
            assert set(_blas_threads(None)[1]) <= {1}
        assert _blas_threads(None)[1] == before
        with mock.patch("lazylib._threads.spare_cores", lambda: 2.0), _threads.threads_for(_threads.SMALL_WORK):
            assert _blas_threads(None)[1] == before  # a large block on an idle machine: the library's setting
        with mock.patch("lazylib._threads.spare_cores", lambda: 1.5), _threads.threads_for(_threads.SMALL_WORK):
            assert set(_blas_threads(None)[1]) <= {1}  # a large block on a busy machine: one thread
        assert _blas_threads(None)[1] == before


def test_spare_cores_leaves_this_processs_own_load_out():
    from unittest import mock

    from lazylib import _threads

    cores = len(os.sched_getaffinity(0))
    for load, spare in ((0.0, cores), (_threads.OWN_LOAD, cores), (_threads.OWN_LOAD + 0.5, cores - 0.5),
                        (2.0 * cores + 1, 0.0)):  # fmt: skip
        with mock.patch("os.getloadavg", lambda load=load: (load, load, load)):
            assert _threads.spare_cores() == spare, load
    if cores == 2:  # the machine of issue 52: its own process alone keeps two threads, twice its cores in load not
        with mock.patch("os.getloadavg", lambda: (1.0, 1.0, 1.0)):
            assert _threads.spare_cores() >= 2
        with mock.patch("os.getloadavg", lambda: (4.0, 4.0, 4.0)):
            assert _threads.spare_cores() < 2


def test_the_search_and_the_matrix_give_the_same_results_on_one_thread_and_on_two():
    from threadpoolctl import threadpool_limits

    from lazylib import _threads
    from lazylib.metrics import make_metric

    X, y = synthetic.waveform(400, random_state=3)
    metric = make_metric("hvdm").fit(X.iloc[:300], y.iloc[:300])
    with threadpool_limits(limits=2, user_api="blas"):
        one = metric.pairwise(X.iloc[300:]), list(metric.nearest_chunks(X.iloc[300:], 3))
    with mock_small_work(0), mock_spare_cores(2.0), threadpool_limits(limits=2, user_api="blas"):
        assert _threads.SMALL_WORK == 0  # every block keeps the library's two threads
        two = metric.pairwise(X.iloc[300:]), list(metric.nearest_chunks(X.iloc[300:], 3))
    # the matrix's sums come from BLAS, whose blocking (and so the order of its additions) may depend on the
    # threads and the processor: its entries agree to the last bits (on the 2026-11-28 machine 30 of 30,000
    # differed by one unit); the search decides on sums computed again outside BLAS, so its results are identical
    np.testing.assert_array_max_ulp(one[0], two[0], maxulp=4)
    for a, b in zip(one[1], two[1]):
        for x, z in zip(a, b):
            np.testing.assert_array_equal(x, z)


def mock_small_work(value):
    from unittest import mock

    return mock.patch("lazylib._threads.SMALL_WORK", value)


def mock_spare_cores(value):
    from unittest import mock

    return mock.patch("lazylib._threads.spare_cores", lambda: value)


SPAWN_SCRIPT = textwrap.dedent(
    """
    import multiprocessing

    import numpy as np

    from lazylib import parallel

    SEEN = "module level"


    def main():
        global SEEN
        SEEN = "set at run time"  # a forked worker would see this; a spawned one imports the module afresh
        data = np.arange(12.0)
        draw = lambda seed: (SEEN, float(np.random.default_rng(seed).permutation(data)[:3] @ data[:3]))
        serial = parallel.parallel_map(draw, range(10), n_jobs=1)
        spread = parallel.parallel_map(draw, range(10), n_jobs=2)
        assert [v for _, v in serial] == [v for _, v in spread], (serial, spread)
        print(multiprocessing.get_start_method(), sorted({s for s, _ in spread}))


    if __name__ == "__main__":
        multiprocessing.set_start_method("spawn", force=True)
        main()
    """
)


def test_works_under_the_spawn_start_method(tmp_path):
    script = tmp_path / "spawned.py"
    script.write_text(SPAWN_SCRIPT)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    # the closure's globals travel with it by value (cloudpickle), as they were when parallel_map was called
    assert done.stdout.split() == ["spawn", "['set", "at", "run", "time']"]


def _make(rng):
    X, y = synthetic.r_n(1, n_per_region=20, random_state=rng)
    return synthetic.add_irrelevant(X, 2, kind="uniform", random_state=rng), y


def test_a_protocol_on_a_dask_cluster_gives_the_results_of_one_process():
    distributed = pytest.importorskip("distributed", reason="the dask extra: pip install -e '.[dask]'")
    import joblib

    from conftest import restored_environment

    one = repeated_prefix_accuracy(_make, 4, [1, 3], random_state=5, n_jobs=1)
    before = dict(os.environ)
    with restored_environment():
        cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
        with cluster, distributed.Client(cluster) as client, joblib.parallel_config(backend="dask"):
            on_cluster = repeated_prefix_accuracy(_make, 4, [1, 3], random_state=5)
            assert len(client.scheduler_info()["workers"]) == 2
        os.environ.pop("TQDM_DISABLE")  # a change of our own besides the cluster's (conftest.py sets it)
        changed = {k for k in set(os.environ) | set(before) if os.environ.get(k) != before.get(k)}
    assert "TQDM_DISABLE" in changed
    # the chapters nbval runs after this test start in the environment the session began with
    assert dict(os.environ) == before
    pd.testing.assert_frame_equal(one, on_cluster)
    assert np.isfinite(one["accuracy"]).all() and len(one) == 4 * 4 * 2


def _square_or_fail(x):
    if x == 3:
        raise ValueError("three")
    return x * x


def _with_table(x, table):
    return x + (0 if table is None else len(table))


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_run_jobs_in_order_or_as_they_end_with_errors_and_shared_data(n_jobs):
    items = list(range(9))
    ordered = list(parallel.run_jobs(abs, items, n_jobs=n_jobs, batched=True))
    assert ordered == [(i, i) for i in items]  # batches interleave: put back in order
    done = list(parallel.run_jobs(abs, items, n_jobs=n_jobs, ordered=False))
    assert sorted(done) == ordered
    caught = dict(parallel.run_jobs(_square_or_fail, items, n_jobs=n_jobs, on_error=lambda item, err: str(err)))
    assert caught[3] == "three" and caught[4] == 16
    with pytest.raises(ValueError, match="three"):
        list(parallel.run_jobs(_square_or_fail, items, n_jobs=n_jobs))
    shared = {"big": list(range(100))}
    got = dict(
        parallel.run_jobs(_with_table, items, n_jobs=n_jobs, shared=shared, key=lambda x: "big" if x % 2 else None)
    )
    assert got == {i: i + (100 if i % 2 else 0) for i in items}


def test_run_jobs_checks_n_jobs_at_once():
    with pytest.raises(ValueError, match="n_jobs"):
        parallel.run_jobs(abs, [1, 2], n_jobs=0)  # before the first result is read


def test_run_jobs_on_a_dask_client_and_under_joblibs_dask_backend():
    distributed = pytest.importorskip("distributed", reason="the dask extra: pip install -e '.[dask]'")
    import joblib

    from conftest import restored_environment

    items = list(range(7))
    shared = {"t": [1, 2, 3]}
    with restored_environment():
        with distributed.Client(processes=False, n_workers=2, threads_per_worker=1, dashboard_address=None) as client:
            got = dict(parallel.run_jobs(_with_table, items, client=client, shared=shared, key=lambda x: "t"))
            caught = dict(parallel.run_jobs(_square_or_fail, items, client=client, on_error=lambda i, e: -1))
            with joblib.parallel_config(backend="dask"):  # the same path: the backend's client
                mapped = parallel.parallel_map(_square_or_fail, [0, 1, 2, 4])
    assert got == {i: i + 3 for i in items} and caught[3] == -1 and caught[5] == 25
    assert mapped == [0, 1, 4, 16]


def test_the_library_and_the_bench_run_without_dask(tmp_path):
    probe = textwrap.dedent(
        """
        import sys
        sys.modules["distributed"] = None  # as if Dask were not installed
        sys.modules["dask"] = None
        from lazylib import parallel
        from lazylib.protocols.bench import protocol as bench
        assert parallel.parallel_map(abs, [-1, -2, 3], n_jobs=2) == [1, 2, 3]
        try:
            parallel.connect("tcp://127.0.0.1:9")
        except ImportError as err:
            print(err)
        """
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "needs Dask (not installed): pip install lazylib[dask]" in done.stdout
