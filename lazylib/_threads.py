"""BLAS threads that fit the work (issue 39, item 4).

A matrix product of a few million multiply-adds is over before a second BLAS thread has paid for its start and
its synchronisation, and on a busy machine (other processes, or the workers of a parallel run) extra threads only
compete for the same cores. The engine (:mod:`lazylib.metrics._engine`) and the search (:mod:`lazylib.search`)
therefore run each block of products of fewer than :data:`SMALL_WORK` multiply-adds on one BLAS thread
(:func:`threads_for`), and a larger block too when the machine has no idle core for a second thread (the load
average of the last minute, less this process's own share, :func:`spare_cores`, leaves less than two of this
process's cores free: measured on the shared 2-core machine at a load of 4-6 in issue 52, HVDM's 10-NN search
took 31-37 s with the threads as they are and 8.1-8.7 s on one). Only a large block on an idle machine keeps
the BLAS library's own setting.
The search's results (which instances, their distances) do not depend on the number of threads: it decides on
sums computed again outside BLAS. A ``pairwise`` matrix's entries can differ in their last bits, since BLAS may
add in another order with another number of threads (on the development machine of 2026-11-28, 30 of 30,000 HVDM
distances by one unit in the last place), so its last bits may follow the machine's load; near-zero sums are
recomputed from direct differences either way.

The workers of :func:`lazylib.parallel.parallel_map` are already limited by joblib (``cpu_count() // n_jobs``
threads each), so nothing changes there; single-process work (a notebook, a script, the tests) stops spending
processor time on threads that do not pay. The limit is the process's (BLAS has one setting per process): code
that runs lazylib in several threads of one process at once may see another thread's limit for a moment, which
changes its speed, never its results.
"""

from __future__ import annotations

import os
from contextlib import contextmanager, nullcontext
from functools import lru_cache

#: Blocks of products with fewer multiply-adds than this run on one BLAS thread (2**27: about 0.1 s on one core
#: of the development machine). On the 2-core development machine one thread was faster in wall time even for
#: HVDM's ``pairwise`` of 50,000 x 1,000 under load (README, issue 39), so the cut is where a many-core machine
#: could still gain from threads.
SMALL_WORK = 2**27


@lru_cache(maxsize=1)
def _controller():
    from threadpoolctl import ThreadpoolController  # comes with scikit-learn

    return ThreadpoolController()


#: Runnable threads of the load average that are taken to be this process's own: a process that has been
#: computing for the last minute counts about one in it, and its own work does not compete with a second BLAS
#: thread for the cores it is about to use (measured in issue 52: with ``cores - load``, a 2-core machine whose
#: only load was this process kept every product on one thread, a full HVDM ``pairwise`` in 3.4 float64 products
#: where two threads gave the product itself).
OWN_LOAD = 1.0


def spare_cores() -> float:
    """Cores of this process (its CPU affinity) that the load average of the last minute leaves idle, this
    process's own share of that load (:data:`OWN_LOAD`) not counted; the number of cores where the platform reports
    no load average.

    Examples
    --------
    >>> 0 <= spare_cores() <= (os.cpu_count() or 1)
    True
    """
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # Windows: no load average
        return float(cores)
    return min(float(cores), max(0.0, cores - max(0.0, load - OWN_LOAD)))


def threads_for(work: float):
    """A context in which BLAS uses one thread when ``work`` (multiply-adds of the block of products about to
    run) is below :data:`SMALL_WORK` or when fewer than two cores are idle (:func:`spare_cores`), and its own
    setting otherwise. The load is read once per block (one system call).

    Examples
    --------
    >>> from threadpoolctl import threadpool_info
    >>> with threads_for(1_000):
    ...     {pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"} <= {1}
    True
    """
    return _one_thread() if work < SMALL_WORK or spare_cores() < 2 else nullcontext()


@contextmanager
def _one_thread():
    with _controller().limit(limits=1, user_api="blas"):
        yield
