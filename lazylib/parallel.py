"""Parallel work, the library's one path: a list of jobs run here, on joblib's worker processes or on a Dask
cluster, their results in order or as they end (:func:`run_jobs`, and :func:`parallel_map` for a list in order),
with a progress bar (:func:`progress_bar`).

Every protocol (through :func:`parallel_map`) and the bench (through :func:`run_jobs`) run their jobs here, on
one mechanism for each place:

- *here*, one by one, when one worker is asked for (``n_jobs=1``, or joblib's setting of one) or there is one job;
- *joblib's workers* (loky's fresh processes, or any backend :func:`joblib.parallel_config` names), each batch of
  jobs a task; every worker ends once the process that started it is gone (:func:`watch_parent`), so a killed
  run leaves none behind;
- *a Dask cluster*: a ``distributed.Client`` given as ``client``, or the cluster of an active
  ``joblib.parallel_config(backend="dask")`` (its client, so both ways are the same): the workers' lazylib is
  checked against the caller's first (:func:`check_workers`), each batch is one task submitted to the client,
  results are taken with ``distributed.as_completed``, and a task lost with its worker is handed to
  ``on_error``. :func:`connect` makes the client of a scheduler's address (the command lines').

``distributed`` is imported only on a cluster's path: the library imports and runs without Dask installed (the
``dask`` extra). A job's result does not depend on where it ran: seed each job from its item, never from a
generator shared across jobs.
"""

from __future__ import annotations

import functools
import hashlib
import numbers
import os
import sys
import threading
import time
import uuid
from pathlib import Path

#: Batches of jobs per worker in :func:`parallel_map` (more: a finer progress bar, more pickling).
CHUNKS_PER_WORKER = 4


# ---------------------------------------------------------------------------------------------------- progress
def progress_bar(total: int, label: str, progress: bool | None):
    """A :mod:`tqdm.auto` bar of ``total`` steps labelled ``label``, or a disabled one (tqdm is imported only to
    draw): ``progress`` True or False forces it; None shows it in a notebook or on a terminal unless
    ``TQDM_DISABLE`` is set.

    Parameters
    ----------
    total : int
        The number of steps.
    label : str
        The bar's text.
    progress : bool or None
        Draw it (True), never (False), or where someone sees it (None).

    Returns
    -------
    tqdm.tqdm
        The bar (a context manager; ``update()`` moves it).
    """
    if progress is None:
        progress = os.environ.get("TQDM_DISABLE", "").strip().lower() in ("", "0", "false", "no", "off") and (
            _in_notebook() or (hasattr(sys.stderr, "isatty") and sys.stderr.isatty())
        )
    if not progress:
        from tqdm.std import tqdm

        return tqdm(total=total, disable=True)
    from tqdm.auto import tqdm

    # tqdm hides itself when its output is not a terminal unless told otherwise; a notebook's never is one
    return tqdm(total=total, desc=label, disable=False)


def _in_notebook() -> bool:
    """True inside a Jupyter kernel (where tqdm.auto draws a widget)."""
    return "ipykernel" in sys.modules


# ---------------------------------------------------------------------------------------------------- workers
@functools.lru_cache(maxsize=1)
def source_fingerprint() -> str:
    """The sha256 of lazylib's Python sources (every ``.py`` file under the package, by relative path): what a worker
    of a cluster must share with the caller for its results to be the caller's code's.

    Returns
    -------
    str
        Hexadecimal digest.
    """
    root = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def check_workers(client) -> None:
    """Refuse a Dask cluster whose workers run another lazylib than the caller (:func:`source_fingerprint`
    compared on every worker through ``client.run``), before any task is submitted.

    Parameters
    ----------
    client : distributed.Client
        The cluster's client.

    Raises
    ------
    ValueError
        Naming the workers whose code differs.
    """
    here = source_fingerprint()
    found = client.run(source_fingerprint)
    if not found:
        raise ValueError("the Dask cluster has no worker: start workers or run without --scheduler")
    other = sorted(worker for worker, fingerprint in found.items() if fingerprint != here)
    if other:
        raise ValueError(
            f"the Dask workers {other} run another lazylib than this process (source fingerprint "
            f"{found[other[0]][:12]}, here {here[:12]}): install this lazylib on them, or restart them from it"
        )


_WATCHED: set = set()


def watch_parent(parent: int | None, *, every: float = 1.0) -> None:
    """In a worker process started by ``parent``: end this process (``os._exit``) once ``parent`` is gone, so
    that a killed run (SIGKILL) leaves no worker behind. A thread checks every ``every`` seconds; nothing is done
    in ``parent`` itself, in a process ``parent`` did not start, or a second time.

    Parameters
    ----------
    parent : int or None
        The process id of the run (None: nothing to watch).
    every : float
        Seconds between checks.
    """
    if parent is None or parent == os.getpid() or os.getppid() != parent or parent in _WATCHED:
        return
    _WATCHED.add(parent)

    def watch():
        while os.getppid() == parent:
            time.sleep(every)
        os._exit(1)

    threading.Thread(target=watch, name="lazylib-parent-watch", daemon=True).start()


def connect(address: str, *, timeout: float | None = None):
    """A Dask client of the scheduler at ``address``, refused with the fix when Dask is missing or the scheduler
    does not answer (within ``timeout`` seconds; None: distributed's own setting).

    Parameters
    ----------
    address : str
        The scheduler's address (``tcp://host:8786``).
    timeout : float, optional
        Seconds to wait for it.

    Returns
    -------
    distributed.Client
        The client (close it when done).

    Raises
    ------
    ImportError
        Without Dask (the ``dask`` extra).
    OSError
        When the scheduler does not answer.
    """
    try:
        from distributed import Client
    except ImportError:
        raise ImportError("a Dask scheduler needs Dask (not installed): pip install lazylib[dask]") from None
    try:
        return Client(address, **({} if timeout is None else {"timeout": f"{timeout}s"}))
    except Exception as err:  # distributed raises OSError, TimeoutError or ValueError (a malformed address)
        said = " ".join(str(err).split()) or type(err).__name__
        raise OSError(
            f"the Dask scheduler at {address} does not answer ({said}): start it (dask scheduler) or check --scheduler"
        ) from None


# ---------------------------------------------------------------------------------------------------- running jobs
_NONE = object()  # the extra argument of a job without shared data


class _Batch:
    """A batch of jobs as a worker runs it: the parent watched (:func:`watch_parent`), then ``func(item)`` or
    ``func(item, extra)`` for each, an exception turned into ``on_error(item, exception)`` when it is given."""

    def __init__(self, func, on_error, parent: int | None):
        self.func, self.on_error, self.parent = func, on_error, parent

    def __call__(self, calls: list, extras: list | None = None) -> list:
        watch_parent(self.parent)
        out = []
        for k, (position, item) in enumerate(calls):
            extra = _NONE if extras is None else extras[k]
            try:
                result = self.func(item) if extra is _NONE else self.func(item, extra)
            except Exception as err:
                if self.on_error is None:
                    raise
                result = self.on_error(item, err)
            out.append((position, result))
        return out


def _check_n_jobs(n_jobs) -> None:
    if n_jobs is not None and (isinstance(n_jobs, bool) or not isinstance(n_jobs, numbers.Integral) or n_jobs == 0):
        raise ValueError(f"n_jobs must be None or a non-zero integer (-1: every core), got {n_jobs!r}")


def _joblib_dask_client():
    """The client of an active ``joblib.parallel_config(backend="dask")``, else None."""
    from joblib.parallel import get_active_backend

    backend, _ = get_active_backend()
    return getattr(backend, "client", None) if type(backend).__name__ == "DaskDistributedBackend" else None


def _batches(n: int, workers: int, batched: bool) -> list[list[int]]:
    """Positions of the jobs of each task: one job a task, or :data:`CHUNKS_PER_WORKER` interleaved batches per
    worker (a batch's jobs spread over the list, so batches of jobs sorted by cost are even)."""
    if not batched:
        return [[i] for i in range(n)]
    n_chunks = min(n, workers * CHUNKS_PER_WORKER)
    return [list(range(c, n, n_chunks)) for c in range(n_chunks)]


def _in_order(stream, n: int):
    """``(position, result)`` of ``stream`` (any order) yielded in the order of the positions ``0 .. n - 1``."""
    waiting, expected = {}, 0
    for position, result in stream:
        waiting[position] = result
        while expected in waiting:
            yield expected, waiting.pop(expected)
            expected += 1


def run_jobs(
    func,
    items,
    *,
    n_jobs: int | None = None,
    client=None,
    ordered: bool = True,
    batched: bool = False,
    shared: dict | None = None,
    key=None,
    on_error=None,
    label: str = "jobs",
):
    """Yield ``(position, func(item))`` for every item of ``items``, run here, on joblib's workers or on a Dask
    cluster (see the module's docstring), in the order of ``items`` or as the jobs end.

    Parameters
    ----------
    func : callable
        Called once per item (pickled with cloudpickle to the workers: a lambda or a notebook's function works).
    items : iterable
        The jobs' items.
    n_jobs : int or None
        The worker processes of joblib; 1 runs here, -1 uses every core. None: joblib's setting (1 unless
        :func:`joblib.parallel_config` says otherwise; its ``"dask"`` backend runs on that cluster's client).
    client : distributed.Client, optional
        Run on this Dask cluster (``n_jobs`` is then ignored).
    ordered : bool
        Yield in the order of ``items`` (True) or as the jobs end (False).
    batched : bool
        Send the jobs in a few interleaved batches per worker (``func`` pickled once per batch, not per job:
        small jobs), or each job as its own task (False: a result as soon as its job ends).
    shared : dict, optional
        Large objects some jobs need (a user's table), by name: ``func(item, shared.get(key(item)))`` is called
        instead, the object scattered once to a cluster, passed with its jobs elsewhere.
    key : callable, optional
        The name in ``shared`` of an item's object (with ``shared``).
    on_error : callable, optional
        ``on_error(item, exception)`` is the result of a job whose ``func`` raised, or whose task was lost with its
        worker on a cluster. None: the exception propagates.
    label : str
        The name of the cluster's tasks (``label-<run>-<batch>``).

    Returns
    -------
    iterator of tuple
        ``(position, result)``: the item's position in ``items`` and its result, one per item (the jobs start
        when it is first read; ``n_jobs`` is checked at once).

    Examples
    --------
    >>> sorted(run_jobs(lambda x: x * x, [3, 1, 2], n_jobs=2, ordered=False))
    [(0, 9), (1, 1), (2, 4)]
    """
    from joblib import effective_n_jobs

    items = list(items)
    _check_n_jobs(n_jobs)
    extras = None if shared is None else [shared.get(key(item)) for item in items]
    client = client if client is not None else _joblib_dask_client()
    if client is None and (len(items) <= 1 or effective_n_jobs(n_jobs) == 1):
        return _here(_Batch(func, on_error, None), items, extras)
    if client is not None:
        batches = _batches(len(items), len(client.scheduler_info()["workers"]) or 1, batched)
        stream = _on_cluster(_Batch(func, on_error, None), items, batches, extras, client, label)
    else:
        batches = _batches(len(items), effective_n_jobs(n_jobs), batched)
        stream = _on_joblib(_Batch(func, on_error, os.getpid()), items, batches, extras, n_jobs)
    return _in_order(stream, len(items)) if ordered else stream


def _here(batch: _Batch, items: list, extras: list | None):
    for i, item in enumerate(items):
        yield from batch([(i, item)], None if extras is None else [extras[i]])


def _on_joblib(batch: _Batch, items: list, batches: list, extras: list | None, n_jobs):
    """The batches as joblib tasks, their results as they end."""
    from joblib import Parallel, delayed

    def calls():
        for b in batches:
            yield delayed(batch)([(i, items[i]) for i in b], None if extras is None else [extras[i] for i in b])

    try:
        done = Parallel(n_jobs=n_jobs, return_as="generator_unordered")(calls())
    except ValueError as error:  # a backend that cannot hand results back one by one (joblib's multiprocessing)
        if "return_as" not in str(error):
            raise
        done = Parallel(n_jobs=n_jobs)(calls())
    for out in done:
        yield from out


def _on_cluster(batch: _Batch, items: list, batches: list, extras: list | None, client, label: str):
    """The batches as tasks of the Dask ``client`` (its workers checked first, ``shared``'s objects scattered
    once), their results as they end; a lost task's jobs through ``batch.on_error``."""
    from distributed import as_completed

    check_workers(client)
    sent = {}  # each shared object scattered once, whatever the number of its jobs
    for value in extras or ():
        if value is not None and id(value) not in sent:
            sent[id(value)] = client.scatter([value], broadcast=False)[0]
    run = uuid.uuid4().hex[:8]
    futures = {}
    for n, b in enumerate(batches):
        part = None if extras is None else [sent.get(id(extras[i])) for i in b]
        calls = [(i, items[i]) for i in b]
        futures[client.submit(batch, calls, part, pure=False, key=f"{label}-{run}-{n}")] = b
    for future in as_completed(futures):
        try:
            out = future.result()
        except Exception as err:
            if batch.on_error is None:
                raise
            out = [(i, batch.on_error(items[i], err)) for i in futures[future]]
        future.release()
        yield from out


def parallel_map(
    func, items, *, n_jobs: int | None = None, label: str = "jobs", progress: bool | None = None, client=None
) -> list:
    """``[func(item) for item in items]``, optionally spread over worker processes or a Dask cluster
    (:func:`run_jobs`, in batches).

    The work runs on joblib's active backend: its own worker processes (loky) by default, or whatever
    :func:`joblib.parallel_config` names; ``"dask"`` (or a ``client``) runs it on that Dask cluster. Workers are
    fresh processes (spawned, not forked), so ``func`` and the items are pickled (with cloudpickle: a lambda or a
    function defined in a notebook works; its globals and closure go along). Results come back in the order of
    ``items`` and are identical to ``n_jobs=1``, since each call is computed the same way, only elsewhere. Seed
    inside ``func`` from the item (e.g. a repetition's seed), never from a generator shared across calls. The
    items go out in a few interleaved batches per worker, so the progress bar moves a batch at a time.

    Each of loky's workers limits its BLAS and OpenMP thread pools to ``cpu_count() // n_jobs`` threads (at least
    one; joblib's own rule), so two workers on two cores do not each start two BLAS threads; Dask's workers
    start with one thread each.

    Parameters
    ----------
    func : callable
        Called once per item.
    items : iterable
        The items, in the order of the results.
    n_jobs : int or None
        Worker processes; 1 runs here, -1 uses every core. None: joblib's setting (1 unless
        :func:`joblib.parallel_config` says otherwise).
    label : str
        Text of the progress bar.
    progress : bool or None
        Show a progress bar (:func:`progress_bar`: a widget in a notebook, a bar on a terminal). None: shown in a
        notebook kernel or on an interactive terminal, unless the environment variable ``TQDM_DISABLE`` is set
        (pytest and the book's execution set it).
    client : distributed.Client, optional
        Run on this Dask cluster.

    Returns
    -------
    list
        ``func(item)`` for every item, in order.

    Examples
    --------
    >>> parallel_map(lambda x: x * x, range(5), n_jobs=2)
    [0, 1, 4, 9, 16]
    """
    items = list(items)
    results = [None] * len(items)
    with progress_bar(len(items), label, progress) as bar:
        for position, result in run_jobs(func, items, n_jobs=n_jobs, client=client, ordered=False, batched=True):
            results[position] = result
            bar.update()
    return results
