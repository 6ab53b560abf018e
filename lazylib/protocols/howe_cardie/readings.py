"""Part V's other readings of a published cell: the runs of a Table 1 or Table 2 cell under the readings the
paper leaves open (:func:`table1_readings`, :func:`cell_readings`), the note of a cell outside its band
(:func:`table1_note`), and how likely the Bayes-optimal classifier's one LED run reaches a printed value
(:func:`led_run_above`). The protocol itself is :mod:`lazylib.protocols.howe_cardie.protocol`.
"""

from __future__ import annotations

import pandas as pd
from scipy import stats

from lazylib import synthetic
from lazylib.protocols.howe_cardie.protocol import runs_of
from lazylib.report.bands import PERCENT, reading_note


def led_run_above(published: float, noise: float = 0.10, n_test: int = 250) -> float:
    """The probability that the Bayes-optimal classifier's one run on ``n_test`` LED test instances scores
    ``published`` % or more (binomially, around :func:`lazylib.synthetic.led_bayes_accuracy`).

    References
    ----------
    Howe, N. and Cardie, C. Examining locally varying weights for nearest neighbor algorithms, Table 1 (LED-24's
    IG, 78.4 %, above the Bayes bound at 10 % noise).

    Examples
    --------
    >>> round(led_run_above(78.4), 2)
    0.06
    """
    bound = synthetic.led_bayes_accuracy(noise)
    return float(stats.binom.sf(round(n_test / 100 * published) - 1, n_test, bound))


def table1_readings(
    task: str,
    method: str,
    *,
    alternative: pd.DataFrame,
    by_size: pd.DataFrame,
    numeric_tasks,
    as_value: pd.DataFrame | None = None,
) -> dict:
    """The runs of one Table 1 cell under the chapter's other readings: IG's second reading (``alternative``, for IG
    on the tasks with numeric features), each other size of the generated tasks (``by_size``, its column
    ``reading`` naming the size) and, for the tasks ``as_value`` holds, unknown values read as a value of their own
    (:func:`~lazylib.protocols.howe_cardie.protocol.unknown_as_value`); reading name -> one accuracy per repetition
    (:func:`~lazylib.protocols.howe_cardie.protocol.runs_of`)."""
    readings = {}
    if method == "IG" and task in numeric_tasks:
        readings["IG weights only"] = runs_of(alternative, task, "IG")
    for size, g in by_size.groupby("reading", sort=False):
        if task in set(g.task):
            readings[f"sizes {size}"] = runs_of(g, task, method)
    if as_value is not None and task in set(as_value.task):
        readings["unknowns as a value"] = runs_of(as_value, task, method)
    return readings


def cell_readings(task: str, method: str, *, by_size: pd.DataFrame | None = None, alternatives=None) -> dict:
    """The runs of one cell under the chapter's other readings: each size of the generated tasks (``by_size``, its
    column ``reading`` naming the size, from :func:`~lazylib.protocols.howe_cardie.protocol.run_readings`) and each
    alternative reading that was run on the cell's task and method (``alternatives``: reading name ->
    :func:`~lazylib.protocols.howe_cardie.protocol.run`'s results under it).

    Parameters
    ----------
    task, method : str
        The cell.
    by_size : DataFrame, optional
        :func:`~lazylib.protocols.howe_cardie.protocol.run_readings`'s results.
    alternatives : dict, optional
        Reading name -> results of :func:`~lazylib.protocols.howe_cardie.protocol.run`; a reading whose results do not
        hold
        the cell is left out.

    Returns
    -------
    dict
        Reading name (``"sizes <reading>"`` first, then the alternatives in order) -> one accuracy per repetition
        (:func:`~lazylib.protocols.howe_cardie.protocol.runs_of`), as :func:`lazylib.report.bands.reading_note` takes
        them.

    Examples
    --------
    >>> r = pd.DataFrame({"task": ["Soybean"] * 2, "method": ["VDM"] * 2, "rep": [0, 0], "accuracy": [90.0, 92.0]})
    >>> {k: v.tolist() for k, v in cell_readings("Soybean", "VDM", alternatives={"5 bins": r, "x": r[:0]}).items()}
    {'5 bins': [91.0]}
    """
    readings = {}
    if by_size is not None:
        for size, g in by_size.groupby("reading", sort=False):
            if task in set(g.task):
                readings[f"sizes {size}"] = runs_of(g, task, method)
    for name, results in (alternatives or {}).items():
        if ((results.task == task) & (results.method == method)).any():
            readings[name] = runs_of(results, task, method)
    return readings


def table1_note(
    task: str,
    method: str,
    published: float,
    readings: dict,
    *,
    diagnosis: pd.DataFrame,
    deviations: dict,
    deterministic,
) -> tuple[str, str]:
    """The note of a Table 1 cell outside its band and its type, from the readings the chapter computed.

    Parameters
    ----------
    task, method : str
        The cell.
    published : float
        The paper's accuracy (%).
    readings : dict
        Reading name -> runs (:func:`table1_readings`).
    diagnosis : DataFrame
        The LED diagnosis, indexed by (noise %, dataset, method) with a column ``mean``: the means at 8 and 12 %
        noise name the LED cells' note.
    deviations : dict
        Task -> the words of a known deviation (default "unexplained").
    deterministic : bool
        Whether the task has one fixed split (one possible run).

    Returns
    -------
    (str, str)
        The note and its kind, as :func:`lazylib.report.bands.reading_note`; soybean's MDW is "explained"
        (the ionosphere chapter computes the reading that gives the published value, and asserts it).
    """
    words = deviations.get(task, "unexplained")
    if task.startswith("LED"):
        levels = ", ".join(f"{n} % noise {diagnosis.loc[(n, task, method), 'mean']:.1f}" for n in (8, 12))
        words = f"no noise level fits the six LED cells (means at {levels})"
    if task == "Soybean" and method == "MDW":
        return f"explained: {words}", "explained"
    return reading_note(published, readings, digits=1, words=words, deterministic=deterministic, bounds=PERCENT)


__all__ = [
    "cell_readings",
    "led_run_above",
    "table1_note",
    "table1_readings",
]
