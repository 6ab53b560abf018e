"""The replication scorecard: every published number beside ours, and every claim with its verdict.

Each chapter that reproduces published numbers or judges a claim registers them here while it executes, and the
book's scorecard appendix reads every chapter's record back. Nothing is typed twice: the chapter hands over the
numbers it has just computed and asserted.

>>> card = Chapter(part="I", paper="payne1998", chapter="payne1998_vdm/03_uci_table2")
>>> card.cell(source="Table 2", cell="zoo / OM", published=96.09, reproduced=96.08, low=95.1, high=97.0,
...           tolerance=0.005)
>>> card.claim(claim="H1: VDM and MVDM perform alike", verdict="supported", evidence="0 of 8 significant")
>>> card.frames()[0][["cell", "published", "reproduced", "inside"]]
       cell  published  reproduced  inside
0  zoo / OM      96.09       96.08    True

A cell is *inside* when the published value lies within ``[low - tolerance, high + tolerance]``, the band of
values our runs produced (over fold seeds, generator seeds...) widened by the published rounding (half a unit of
the last printed digit). Without a band (``low``/``high`` omitted) the band is the reproduced value itself.

Records are JSON files, one per chapter, in :func:`records_dir`: ``$LAZYLIB_SCORECARD_DIR`` if set, else the
``.scorecard`` folder at the root of the book (the nearest folder above the working directory holding
``_toc.yml``), else ``.scorecard`` in the working directory.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

#: The verdicts a claim can get, strongest first.
VERDICTS = ("supported", "partly supported", "not supported")

CELL_COLUMNS = ["part", "paper", "chapter", "source", "cell", "published", "reproduced", "low", "high", "tolerance",
                "inside", "deviation"]
CLAIM_COLUMNS = ["part", "paper", "chapter", "claim", "verdict", "evidence"]


def records_dir() -> Path:
    """Where chapters write their records and the scorecard page reads them."""
    if os.environ.get("LAZYLIB_SCORECARD_DIR"):
        return Path(os.environ["LAZYLIB_SCORECARD_DIR"])
    here = Path.cwd().resolve()
    for folder in (here, *here.parents):
        if (folder / "_toc.yml").is_file():
            return folder / ".scorecard"
    return here / ".scorecard"


def _number(value, name: str) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number, got {value!r}") from None
    if math.isnan(number):
        raise ValueError(f"{name} is NaN")
    return number


@dataclass
class Chapter:
    """The scorecard record of one chapter: published cells and judged claims.

    Parameters
    ----------
    part : str
        The book Part as a Roman numeral ("I" ... "V").
    paper : str
        The paper's citation key in ``book/references.bib`` (e.g. ``"payne1998"``).
    chapter : str
        The chapter's path below ``book/`` without extension (e.g. ``"payne1998_vdm/03_uci_table2"``); it names
        the record file, so a re-executed chapter replaces its own record.
    """

    part: str
    paper: str
    chapter: str
    _cells: list = field(default_factory=list, repr=False)
    _claims: list = field(default_factory=list, repr=False)

    def __post_init__(self):
        if not isinstance(self.part, str) or not self.part or set(self.part) - set("IVX"):
            raise ValueError(f"part must be a Roman numeral such as 'II', got {self.part!r}")
        if not self.chapter or not self.paper:
            raise ValueError("paper and chapter must be non-empty")

    def cell(self, *, source: str, cell: str, published, reproduced, low=None, high=None, tolerance: float = 0.0,
             deviation: str = "") -> None:
        """Register one published number and ours (``low``/``high``: the band of our runs; ``deviation``: why
        they differ, for a cell outside the band)."""
        published = _number(published, f"published value of {source} / {cell}")
        reproduced = _number(reproduced, f"reproduced value of {source} / {cell}")
        low = reproduced if low is None else _number(low, f"band low of {source} / {cell}")
        high = reproduced if high is None else _number(high, f"band high of {source} / {cell}")
        if low > high:
            raise ValueError(f"band of {source} / {cell} is empty: low {low} > high {high}")
        tolerance = _number(tolerance, "tolerance")
        if tolerance < 0:
            raise ValueError(f"tolerance must be non-negative, got {tolerance}")
        inside = low - tolerance <= published <= high + tolerance
        self._cells.append({"source": str(source), "cell": str(cell), "published": published,
                            "reproduced": reproduced, "low": low, "high": high, "tolerance": tolerance,
                            "inside": bool(inside), "deviation": str(deviation or "")})

    def cells(self, frame: pd.DataFrame) -> None:
        """Register many cells: a DataFrame with columns ``source``, ``cell``, ``published``, ``reproduced`` and
        optionally ``low``, ``high``, ``tolerance``, ``deviation``."""
        missing = {"source", "cell", "published", "reproduced"} - set(frame.columns)
        if missing:
            raise ValueError(f"cells() needs the columns {sorted(missing)}")
        for row in frame.to_dict("records"):
            optional = {k: row[k] for k in ("low", "high", "tolerance", "deviation")
                        if k in row and not (isinstance(row[k], float) and math.isnan(row[k]))}
            self.cell(source=row["source"], cell=row["cell"], published=row["published"],
                      reproduced=row["reproduced"], **optional)

    def claim(self, *, claim: str, verdict: str, evidence: str = "") -> None:
        """Register a claim of the paper with the verdict our numbers give it (one of :data:`VERDICTS`)."""
        if verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}, got {verdict!r}")
        self._claims.append({"claim": str(claim), "verdict": verdict, "evidence": str(evidence)})

    def frames(self) -> tuple[pd.DataFrame, pd.DataFrame]:
        """This chapter's cells and claims as two DataFrames (columns :data:`CELL_COLUMNS`,
        :data:`CLAIM_COLUMNS`)."""
        meta = {"part": self.part, "paper": self.paper, "chapter": self.chapter}
        cells = pd.DataFrame([{**meta, **c} for c in self._cells], columns=CELL_COLUMNS)
        claims = pd.DataFrame([{**meta, **c} for c in self._claims], columns=CLAIM_COLUMNS)
        return cells, claims

    def save(self, directory: str | os.PathLike | None = None) -> Path:
        """Write the record (replacing this chapter's previous one); returns the file written."""
        folder = Path(directory) if directory is not None else records_dir()
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / (self.chapter.replace("/", "__") + ".json")
        record = {"part": self.part, "paper": self.paper, "chapter": self.chapter,
                  "cells": self._cells, "claims": self._claims}
        path.write_text(json.dumps(record, indent=1, ensure_ascii=False), encoding="utf-8")
        return path


def load(directory: str | os.PathLike | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Every recorded cell and claim: two DataFrames (columns :data:`CELL_COLUMNS`, :data:`CLAIM_COLUMNS`),
    empty when nothing has been recorded."""
    folder = Path(directory) if directory is not None else records_dir()
    cells, claims = [], []
    for path in sorted(folder.glob("*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        meta = {k: record[k] for k in ("part", "paper", "chapter")}
        cells += [{**meta, **c} for c in record["cells"]]
        claims += [{**meta, **c} for c in record["claims"]]
    return pd.DataFrame(cells, columns=CELL_COLUMNS), pd.DataFrame(claims, columns=CLAIM_COLUMNS)


def summary(cells: pd.DataFrame, claims: pd.DataFrame) -> pd.DataFrame:
    """One row per Part: published cells, how many lie inside our band, and the claims per verdict."""
    parts = sorted(set(cells["part"]) | set(claims["part"]), key=_roman)
    rows = []
    for part in parts:
        c, v = cells[cells["part"] == part], claims[claims["part"] == part]
        rows.append({"part": part, "cells": len(c), "inside band": int(c["inside"].sum()),
                     **{verdict: int((v["verdict"] == verdict).sum()) for verdict in VERDICTS}})
    return pd.DataFrame(rows, columns=["part", "cells", "inside band", *VERDICTS]).set_index("part")


def _roman(numeral: str) -> int:
    values = {"I": 1, "V": 5, "X": 10}
    total = 0
    for a, b in zip(numeral, numeral[1:] + " "):
        total += -values[a] if values.get(b, 0) > values[a] else values[a]
    return total
