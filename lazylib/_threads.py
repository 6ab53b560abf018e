"""BLAS threads that fit the work (issue 39, item 4).

A matrix product of a few million multiply-adds is over before a second BLAS thread has paid for its start and
its synchronisation, and on a busy machine (other processes, or the workers of a parallel run) extra threads only
compete for the same cores. The engine (:mod:`lazylib.metrics._engine`) and the search (:mod:`lazylib.search`)
therefore run each block of products of fewer than :data:`SMALL_WORK` multiply-adds on one BLAS thread
(:func:`threads_for`) and leave larger blocks to the BLAS library's own setting. The search's results (which
instances, their distances) do not depend on the number of threads: it decides on sums computed again outside
BLAS. A ``pairwise`` matrix's entries can differ in their last bits, since BLAS may add in another order with
another number of threads (on the development machine of 2026-11-28, 30 of 30,000 HVDM distances by one unit in
the last place); near-zero sums are recomputed from direct differences either way.

The workers of :func:`lazylib.evaluation.parallel_map` are already limited by joblib (``cpu_count() // n_jobs``
threads each), so nothing changes there; single-process work (a notebook, a script, the tests) stops spending
processor time on threads that do not pay. The limit is the process's (BLAS has one setting per process): code
that runs lazylib in several threads of one process at once may see another thread's limit for a moment, which
changes its speed, never its results.
"""

from __future__ import annotations

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


def threads_for(work: float):
    """A context in which BLAS uses one thread when ``work`` (multiply-adds of the block of products about to
    run) is below :data:`SMALL_WORK`, and its own setting otherwise.

    Examples
    --------
    >>> from threadpoolctl import threadpool_info
    >>> with threads_for(1_000):
    ...     {pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"} <= {1}
    True
    """
    return _one_thread() if work < SMALL_WORK else nullcontext()


@contextmanager
def _one_thread():
    with _controller().limit(limits=1, user_api="blas"):
        yield
