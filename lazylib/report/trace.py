"""Every printed number traced back to what made it: a record's id, the function that computed it and the fingerprint
of its inputs (:func:`provenance`), and the check that recomputes it from the record (:func:`follow`).

A published number's record (:meth:`lazylib.report.scorecard.Chapter.cell`) keeps the runs of our protocol; the
reproduced value the book prints, and the band beside it, are computed from those runs by one library function
(:data:`FUNCTION`, :func:`lazylib.report.bands.prediction_band`) under the parameters the record also keeps (the
printed decimals, the averaging, the bounds, whether the protocol is deterministic). The record stores

* ``id``: a stable name, from the chapter, the source and the cell alone (:func:`record_id`), so a link to it
  survives re-running the chapter; the scorecard appendix gives each record's row this id as its anchor, and every
  chapter page lists its records with a link to that row (``lazylib._book.record_links``);
* ``function``: the qualified name of the function that computed the printed value;
* ``fingerprint``: the sha256 of the function's name, the runs' exact values and the parameters
  (:func:`fingerprint`).

:func:`follow` imports the named function, calls it on the stored runs and parameters, and checks that the
fingerprint and the values the record holds (and prints) are what it gives: a record edited after it was written,
or one whose runs no longer give its numbers, fails with the field that differs.

>>> from lazylib.report.bands import prediction_band
>>> runs = [96.1, 95.8, 96.3, 96.0, 96.2]
>>> band = prediction_band(runs, digits=2)
>>> record = {"chapter": "payne1998_vdm/03_uci_table2", "source": "Table 2", "cell": "zoo / OM", "values": runs,
...           "digits": 2, "deterministic": False, "averaged": 1, "bounds": None, "reproduced": band.centre,
...           "low": band.low, "high": band.high}
>>> record.update(provenance(record))
>>> record["id"], record["function"]
('r-0bfc1ff403', 'lazylib.report.bands.prediction_band')
>>> follow(record)["printed"]
'96.08'
>>> follow({**record, "values": runs[:-1] + [96.3]})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
lazylib.report.trace.Untraceable: record r-0bfc1ff403 (...): its inputs' fingerprint is not the one stored: ...
"""

from __future__ import annotations

import hashlib
import importlib
import json
import math
import re
from collections.abc import Callable, Mapping
from html.parser import HTMLParser

import numpy as np
import pandas as pd

from lazylib._validation import Integer, check, check_random_state
from lazylib.report.bands import prediction_band
from lazylib.report.display import printed

#: The function that computes a published number's reproduced value (and its band) from the record's runs.
FUNCTION = f"{prediction_band.__module__}.{prediction_band.__qualname__}"

#: The parameters of :data:`FUNCTION` a record keeps beside its runs (``values``), in the order they are hashed.
PARAMETERS = ("digits", "deterministic", "averaged", "bounds")

#: The recomputed fields compared with the record's (the printed value is ``reproduced`` with ``digits`` decimals).
COMPARED = ("reproduced", "low", "high")

#: How many random records :func:`follow_sample` traces by default, and the seed it draws them with.
SAMPLE, SEED = 20, 54


class Untraceable(ValueError):
    """A record whose number cannot be recomputed from what it stores, or whose stored inputs were changed."""


def record_id(chapter: str, source: str, cell: str) -> str:
    """The stable id of a chapter's record of one published number: ``"r-"`` and ten hex digits of the sha256 of
    the chapter, the source and the cell (unchanged when the chapter is re-run, different for every cell).

    >>> record_id("payne1998_vdm/03_uci_table2", "Table 2", "zoo / OM")
    'r-0bfc1ff403'
    """
    key = "\0".join(str(part) for part in (chapter, source, cell))
    return "r-" + hashlib.sha256(key.encode("utf-8")).hexdigest()[:10]


def chapter_anchor(chapter: str) -> str:
    """The anchor of a chapter's records on the scorecard appendix (its heading there): ``"records-"`` and the
    chapter's name with every character but letters, digits, ``-`` and ``_`` as ``-``.

    >>> chapter_anchor("payne1998_vdm/03_uci_table2")
    'records-payne1998_vdm-03_uci_table2'
    """
    return "records-" + re.sub(r"[^A-Za-z0-9_-]", "-", str(chapter))


def _parameters(record: Mapping) -> dict:
    missing = [name for name in ("values", *PARAMETERS) if name not in record]
    if missing:
        raise Untraceable(f"the record lacks {missing}: it was written before records were traceable; re-execute it")
    bounds = record["bounds"]
    bounds = None if bounds is None or (isinstance(bounds, float) and math.isnan(bounds)) else tuple(bounds)
    return {
        "digits": int(record["digits"]),
        "deterministic": bool(record["deterministic"]),
        "averaged": int(record["averaged"]),
        "bounds": None if bounds is None else tuple(float(b) for b in bounds),
    }


def fingerprint(values, function: str = FUNCTION, **parameters) -> str:
    """The sha256 of what a printed number was computed from: the function's qualified name, the runs' exact values
    (as hexadecimal floats, so no rounding hides a change) and the parameters of :data:`PARAMETERS`.

    Parameters
    ----------
    values : array-like of float
        The runs.
    function : str
        The qualified name of the function that computed the number.
    **parameters
        ``digits``, ``deterministic``, ``averaged`` and ``bounds``, as the record keeps them.

    Returns
    -------
    str
        64 hex digits.
    """
    unknown = sorted(set(parameters) - set(PARAMETERS))
    if unknown:
        raise ValueError(f"fingerprint takes the parameters {PARAMETERS}, got also {unknown}")
    runs = [float(v).hex() for v in np.atleast_1d(np.asarray(values, dtype=float))]
    given = _parameters({"values": runs, **{name: parameters.get(name) for name in PARAMETERS}})
    payload = {"function": str(function), "values": runs, **{k: given[k] for k in PARAMETERS}}
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode("utf-8")).hexdigest()


def provenance(record: Mapping) -> dict:
    """The ``id``, ``function`` and ``fingerprint`` of a cell's record (its ``chapter``, ``source``, ``cell``,
    ``values`` and :data:`PARAMETERS`), the three fields :meth:`~lazylib.report.scorecard.Chapter.cell` stores."""
    return {
        "id": record_id(record["chapter"], record["source"], record["cell"]),
        "function": FUNCTION,
        "fingerprint": fingerprint(record["values"], FUNCTION, **_parameters(record)),
    }


def _resolve(name: str) -> Callable:
    """The function named by a qualified name ``module.function`` (a lazylib function: nothing else is imported)."""
    if not isinstance(name, str) or not name.startswith("lazylib.") or "." not in name:
        raise Untraceable(f"the record names {name!r} as its function, not a lazylib function")
    module, _, attribute = name.rpartition(".")
    try:
        found = getattr(importlib.import_module(module), attribute)
    except (ImportError, AttributeError):
        raise Untraceable(f"the record's function {name!r} does not exist in this lazylib") from None
    if not callable(found):
        raise Untraceable(f"the record's function {name!r} is not a function")
    return found


def follow(record: Mapping) -> dict:
    """Trace one record back: check its id and its inputs' fingerprint, recompute its number with the function it
    names from the runs it stores, and compare with the values it holds.

    Parameters
    ----------
    record : mapping
        A cell's record (a row of :func:`lazylib.report.scorecard.load`'s first frame, or a cell of a record file with
        its ``chapter``).

    Returns
    -------
    dict
        ``id``, ``function``, ``fingerprint``, the recomputed ``reproduced``, ``low`` and ``high``, and ``printed``
        (the reproduced value with the paper's decimals, as the book prints it).

    Raises
    ------
    Untraceable
        The id is not the chapter's, source's and cell's; the fingerprint is not the one of the stored runs and
        parameters; the named function is missing; or a recomputed value differs from the stored one.
    """
    name = f"record {record.get('id')} ({record.get('chapter')}, {record.get('source')} / {record.get('cell')})"
    if not all(isinstance(record.get(field), str) for field in ("id", "function", "fingerprint")):
        raise Untraceable(
            f"{name} has no id, function or fingerprint: it was written before records were traceable, or they were "
            "removed; re-execute its chapter"
        )
    if record.get("id") != record_id(record.get("chapter"), record.get("source"), record.get("cell")):
        raise Untraceable(f"{name}: its id is not the one of its chapter, source and cell")
    parameters = _parameters(record)
    function = record.get("function")
    if record.get("fingerprint") != fingerprint(record["values"], function, **parameters):
        raise Untraceable(
            f"{name}: its inputs' fingerprint is not the one stored: the runs or the parameters were changed after "
            "the record was written; re-execute its chapter"
        )
    band = _resolve(function)(np.asarray(record["values"], dtype=float), **parameters)
    recomputed = {"reproduced": band.centre, "low": band.low, "high": band.high}
    for field in COMPARED:
        if not math.isclose(float(record[field]), recomputed[field], rel_tol=1e-12, abs_tol=1e-12):
            raise Untraceable(
                f"{name}: {function} gives {field} = {recomputed[field]!r} from the stored runs, the record holds "
                f"{record[field]!r}"
            )
    printed_value = printed(recomputed["reproduced"], parameters["digits"])
    if printed_value != printed(float(record["reproduced"]), parameters["digits"]):
        raise Untraceable(f"{name}: prints {printed_value}, the record prints {record['reproduced']}")
    return {
        "id": record["id"],
        "function": function,
        "fingerprint": record["fingerprint"],
        **recomputed,
        "printed": printed_value,
    }


def follow_sample(cells: pd.DataFrame, n: int = SAMPLE, *, random_state=SEED) -> pd.DataFrame:
    """:func:`follow` ``n`` records of ``cells`` drawn at random (every record when there are fewer).

    Parameters
    ----------
    cells : DataFrame
        The cells of :func:`lazylib.report.scorecard.load`.
    n : int
        How many records to trace (all of them when there are fewer).
    random_state : int, Generator or None
        Seed or generator of the draw: an int seeds a fresh generator (the same records at every call), a
        Generator is used as it is (its stream continues), None draws fresh entropy.

    Returns
    -------
    DataFrame
        One row per traced record, the columns of :func:`follow`'s result plus ``chapter``, ``source`` and ``cell``.

    Raises
    ------
    Untraceable
        The first record of the sample that does not trace back; ValueError when ``cells`` is empty.
    """
    n = check("n", n, Integer(low=1))
    rng = check_random_state(random_state)
    if cells.empty:
        raise ValueError("no records to trace: execute the chapters first (they write their records as they run)")
    rows = rng.choice(len(cells), size=min(n, len(cells)), replace=False)
    traced = []
    for row in cells.iloc[np.sort(rows)].to_dict("records"):
        traced.append({"chapter": row["chapter"], "source": row["source"], "cell": row["cell"], **follow(row)})
    return pd.DataFrame(traced)


class _Rows(HTMLParser):
    """The rows of an HTML page's tables: each row's cell texts under its table's headers, and the ids in it."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.rows, self._headers, self._row, self._text, self._ids = [], [], None, None, []

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self._headers = []
        elif tag == "tr":
            self._row, self._ids = [], []
        elif tag in ("td", "th") and self._row is not None:
            self._text = []
        if dict(attrs).get("id") and self._row is not None and self._text is not None:
            self._ids.append(dict(attrs)["id"])

    def handle_data(self, data):
        if self._text is not None:
            self._text.append(data)

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._text is not None and self._row is not None:
            self._row.append(("".join(self._text).strip(), tag))
            self._text = None
        elif tag == "tr" and self._row is not None:
            if self._row and all(kind == "th" for _, kind in self._row):
                self._headers = [text for text, _ in self._row]
            else:
                self.rows.append((dict(zip(self._headers, (text for text, _ in self._row))), self._ids))
            self._row = None


def printed_cells(page: str, column: str = "reproduced") -> dict[str, str]:
    """What an HTML page prints for each record: record id -> the text of ``column`` in the table row anchored at
    that id (the rows of :func:`lazylib.report.scorecard_html.cells_html`).

    >>> printed_cells('<table><tr><th>cell</th><th>reproduced</th></tr>'
    ...               '<tr><td>zoo</td><td>96.08</td><td><span id="r-0bfc1ff403">r-0bfc1ff403</span></td></tr></table>')
    {'r-0bfc1ff403': '96.08'}
    """
    parser = _Rows()
    parser.feed(page)
    return {rid: row[column] for row, ids in parser.rows if column in row for rid in ids if rid.startswith("r-")}
