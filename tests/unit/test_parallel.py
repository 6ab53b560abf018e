"""lazylib.evaluation.parallel_map: joblib workers (spawned, not forked), progress bars, BLAS threads, Dask."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pandas as pd
import pytest

from lazylib import evaluation, synthetic
from lazylib.protocols.guvenir1998.protocol import repeated_prefix_accuracy


def test_progress_is_silent_under_pytest_and_shown_when_asked(capsys):
    assert os.environ.get("TQDM_DISABLE") == "1"  # conftest.py: pytest and the kernels nbval starts
    assert evaluation.parallel_map(abs, [-1, 2], label="quiet") == [1, 2]
    assert capsys.readouterr().err == ""
    assert evaluation.parallel_map(abs, [-1, 2], label="shown", progress=True) == [1, 2]
    err = capsys.readouterr().err
    assert "shown" in err and "2/2" in err


def test_n_jobs_is_checked():
    for bad in (0, 1.5, True, "2"):
        with pytest.raises(ValueError, match="n_jobs"):
            evaluation.parallel_map(abs, [1], n_jobs=bad)


def test_order_and_results_with_more_items_than_chunks():
    items = list(range(37))  # 2 workers x 4 chunks: interleaved chunks put back in order
    assert evaluation.parallel_map(lambda i: i * i, items, n_jobs=2) == [i * i for i in items]


def _blas_threads(_):
    from threadpoolctl import threadpool_info

    return os.getpid(), [pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"]


def test_workers_are_other_processes_with_limited_blas_threads():
    out = evaluation.parallel_map(_blas_threads, range(8), n_jobs=2)
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

    from lazylib import evaluation

    SEEN = "module level"


    def main():
        global SEEN
        SEEN = "set at run time"  # a forked worker would see this; a spawned one imports the module afresh
        data = np.arange(12.0)
        draw = lambda seed: (SEEN, float(np.random.default_rng(seed).permutation(data)[:3] @ data[:3]))
        serial = evaluation.parallel_map(draw, range(10), n_jobs=1)
        spread = evaluation.parallel_map(draw, range(10), n_jobs=2)
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
