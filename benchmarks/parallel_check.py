"""The bench's parallel paths, checked by hand (not in CI; it wants many cores): the book's bench for one fold seed
run serially, on N loky workers and on an N-worker Dask LocalCluster through ``bench.run(client=...)``; the rows
(everything but the times) must be identical. Prints wall time and the jobs' processor time (sum of ``total_s``).

    python benchmarks/parallel_check.py [N]      # N workers, default 16; needs the dask extra

Results of the runs made so far are in ``benchmarks/parallel_check.md``."""

import dataclasses
import os
import resource
import sys
import time

import joblib
import numpy as np
import pandas as pd
import sklearn

from lazylib.protocols.bench import protocol as bench

cfg = dataclasses.replace(bench.BOOK, n_seeds=1)
KEY = ["dataset", "method", "seed", "fold"]
WORKERS = int(sys.argv[1]) if len(sys.argv) > 1 else 16


def cpu():
    a, b = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return a.ru_utime + a.ru_stime + b.ru_utime + b.ru_stime


def timed(label, **kw):
    t0, c0 = time.perf_counter(), cpu()
    r = bench.run(cfg, **kw).sort_values(KEY).reset_index(drop=True)
    wall, processor = time.perf_counter() - t0, cpu() - c0
    jobs = r["total_s"].sum()
    errors = (r["error"] != "").sum()
    print(f"{label}: wall {wall:.1f} s, processor (this process + reaped children) {processor:.1f} s,", flush=True)
    print(f"  jobs' processor s (sum of total_s) {jobs:.1f}, rows {len(r)}, errors {errors}", flush=True)
    return r


def main():
    print(
        "python",
        sys.version.split()[0],
        "numpy",
        np.__version__,
        "pandas",
        pd.__version__,
        "sklearn",
        sklearn.__version__,
        "joblib",
        joblib.__version__,
        "cpus",
        os.cpu_count(),
        flush=True,
    )
    loky = timed(f"loky {WORKERS} workers", n_jobs=WORKERS)
    from dask.distributed import Client, LocalCluster

    with (
        LocalCluster(n_workers=WORKERS, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
        Client(cluster) as client,
    ):
        dask = timed(f"dask LocalCluster {WORKERS} workers", client=client, n_jobs=WORKERS)
    serial = timed("serial n_jobs=1", n_jobs=1)
    cols = [c for c in serial.columns if not c.endswith("_s")]
    for name, other in (("loky", loky), ("dask", dask)):
        same = serial[cols].equals(other[cols])
        print(f"{name} rows identical to serial (columns {cols}): {same}")
        if not same:
            diff = (serial[cols] != other[cols]).any(axis=1)
            print(serial[cols][diff].head(), other[cols][diff].head())


if __name__ == "__main__":
    main()
