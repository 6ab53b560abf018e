"""The bench's workers (issue #53 item 2): loky's workers end with a killed run (SIGKILL), and a Dask cluster
whose workers run another lazylib is refused before any task is submitted."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from lazylib import parallel
from lazylib.protocols.bench import protocol as bench

#: Loaded at the start of every interpreter under the test's PYTHONPATH: in loky's workers only, each job marks
#: its worker's pid and sleeps (a slow job), so the run is still going when it is killed.
SLOW = """
import os, pathlib, sys, time
if "popen_loky_posix" in " ".join(sys.orig_argv):
    import lazylib.protocols.bench.protocol as _bench

    def _slow(*args, **kwargs):
        pathlib.Path(os.environ["LAZYLIB_TEST_MARKS"], str(os.getpid())).write_text("")
        time.sleep(600)

    _bench._fold_rows = _slow
"""
RUN = """
from lazylib.protocols.bench import protocol as bench
bench.run(bench.Config(datasets=("iris",), n_seeds=1, n_splits=3, methods=("1-NN Euclidean",)), n_jobs=2)
"""


def _alive(pid: int) -> bool:
    psutil = pytest.importorskip("psutil")
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


@pytest.mark.skipif(sys.platform != "linux", reason="a parent's death read from getppid, on Linux")
def test_a_killed_run_leaves_no_worker_behind(tmp_path):
    psutil = pytest.importorskip("psutil")
    (tmp_path / "sitecustomize.py").write_text(SLOW)
    marks = tmp_path / "marks"
    marks.mkdir()
    path = os.pathsep.join([str(tmp_path), *sys.path])
    env = {**os.environ, "PYTHONPATH": path, "LAZYLIB_TEST_MARKS": str(marks)}
    run = subprocess.Popen([sys.executable, "-c", RUN], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    children = []
    try:
        deadline = time.monotonic() + 180
        while len(list(marks.iterdir())) < 2 and time.monotonic() < deadline and run.poll() is None:
            time.sleep(0.2)
        workers = sorted(int(p.name) for p in marks.iterdir())
        children = [c.pid for c in psutil.Process(run.pid).children(recursive=True)]
        assert len(workers) == 2 and set(workers) <= set(children)  # two jobs running, one on each worker
        os.kill(run.pid, signal.SIGKILL)
        run.wait()
        deadline = time.monotonic() + 20
        while any(_alive(pid) for pid in children) and time.monotonic() < deadline:
            time.sleep(0.25)
        assert [pid for pid in children if _alive(pid)] == []  # workers and resource trackers alike
    finally:
        for pid in [run.pid, *children]:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)


def test_watch_parent_does_nothing_in_the_parent_or_without_one():
    before = set(parallel._WATCHED)
    parallel.watch_parent(None)
    parallel.watch_parent(os.getpid())
    parallel.watch_parent(os.getppid() + 1 if os.getppid() > 1 else 2)  # not this process's parent
    assert parallel._WATCHED == before


def test_a_dask_worker_running_other_code_is_refused_before_any_task(monkeypatch):
    distributed = pytest.importorskip("distributed")
    config = bench.Config(datasets=("lenses",), n_seeds=1, n_splits=3, methods=("1-NN OM",))
    with distributed.LocalCluster(n_workers=1, processes=False, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            parallel.check_workers(client)  # the same code: accepted
            assert set(client.run(parallel.source_fingerprint).values()) == {parallel.source_fingerprint()}
            real = client.run
            monkeypatch.setattr(client, "run", lambda f: {w: f"other {v}" for w, v in real(f).items()})
            submitted = []
            monkeypatch.setattr(client, "submit", lambda *a, **k: submitted.append(a))
            with pytest.raises(ValueError, match="run another lazylib than this process"):
                bench.run(config, client=client)
            assert submitted == []
