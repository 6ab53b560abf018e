"""The scorecard's summaries of the records: the per-Part counts (:func:`summary`), the band details of the cells
(:func:`details`), the headline table of the front page, the Part pages and the README (:func:`headline`,
:func:`headline_markdown`, and the README's block between its markers), and the summary figure."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

import numpy as np
import pandas as pd

from lazylib._validation import Boolean, check
from lazylib.report.bands import PERCENT, prediction_band
from lazylib.report.verdicts import NOTE_KINDS, TALLIED

#: The per-Part counts of :func:`summary`.
SUMMARY_COLUMNS = [
    "published numbers",
    "inside",
    "share inside",
    "within 1 unit",
    "median half-width",
    "ruled out",
    *TALLIED,
    *(f"on our collection: {v}" for v in TALLIED),
    "other records",
]


#: The columns of :func:`details` that say how the bands were made (the scorecard page's first details table).
BAND_DETAILS = [
    "median runs",
    "printed as averages",
    "bands the bound changed",
    "inside decisions the bound changed",
]


#: The columns of :func:`details` that count the outside notes by type and the numbers counted apart (its second).
NOTE_DETAILS = [*(f"notes {k}" for k in NOTE_KINDS), "derived", "ruled out"]


#: The per-Part details of :func:`details`, shown on the scorecard page in two tables (each fits the text column).
DETAILS_COLUMNS = [*BAND_DETAILS, *NOTE_DETAILS]


def unit(row) -> float:
    """The distance counted as "within one unit" of our mean: 1 point for a percentage (a quantity bounded to
    :data:`~lazylib.report.bands.PERCENT`), else one unit of the last printed digit."""
    bounds = row["bounds"]
    if isinstance(bounds, (list, tuple)) and tuple(float(b) for b in bounds) == PERCENT:
        return 1.0
    return 10.0 ** -int(row["digits"])


def _published(cells: pd.DataFrame) -> pd.DataFrame:
    """The cells that stand for a published number (the ones ruled out by a proven bound included)."""
    return cells[cells["kind"].isin(["published", "ruled out"])]


def _within(cells: pd.DataFrame) -> pd.Series:
    if cells.empty:
        return pd.Series(dtype=bool)
    return pd.Series(
        [abs(r["published"] - r["reproduced"]) <= unit(r) + 1e-9 for _, r in cells.iterrows()], index=cells.index
    )


def _percent(cells: pd.DataFrame) -> pd.DataFrame:
    mask = [isinstance(b, (list, tuple)) and tuple(map(float, b)) == PERCENT for b in cells["bounds"]]
    return cells.loc[np.asarray(mask, dtype=bool)]


def summary(cells: pd.DataFrame, claims: pd.DataFrame) -> pd.DataFrame:
    """One row per Part: the published numbers (the ones a proven bound rules out included, never inside), how
    many lie inside their band and the share, how many lie within one unit of our mean (:func:`unit`), the median
    half-width of the bands of percentages, the published claims per reported verdict
    (:data:`~lazylib.report.verdicts.TALLIED`: findings are never tallied), the method claims judged on our
    collection ("stand-in" claims) per verdict, and how many records of the other kinds the Part shows apart."""
    parts = sorted(set(cells["part"]) | set(claims["part"]), key=_roman)
    rows = []
    for part in parts:
        c, v = cells[cells["part"] == part], claims[claims["part"] == part]
        pc, pv, sv = _published(c), v[v["kind"] == "published"], v[v["kind"] == "stand-in"]
        half = _percent(pc)["half_width"].astype(float)
        rows.append(
            {
                "part": part,
                "published numbers": len(pc),
                "inside": int(pc["inside"].sum()),
                "share inside": pc["inside"].mean() if len(pc) else float("nan"),
                "within 1 unit": int(_within(pc).sum()),
                "median half-width": float(half.median()) if len(half) else float("nan"),
                "ruled out": int((pc["kind"] == "ruled out").sum()),
                **{verdict: int((pv["verdict"] == verdict).sum()) for verdict in TALLIED},
                **{f"on our collection: {verdict}": int((sv["verdict"] == verdict).sum()) for verdict in TALLIED},
                "other records": int(len(c) - len(pc) + len(v) - len(pv) - len(sv)),
            }
        )
    return pd.DataFrame(rows, columns=["part", *SUMMARY_COLUMNS]).set_index("part")


def details(cells: pd.DataFrame) -> pd.DataFrame:
    """One row per Part: the median number of runs behind a published number's band, how many published numbers
    were printed as averages of several runs, how many bands the quantity's bounds changed (the interval on the
    linear scale would have crossed a bound) and how many inside/outside decisions that changed, the outside
    notes per type (:data:`~lazylib.report.verdicts.NOTE_KINDS`), the derived numbers and the ruled-out ones."""
    rows = []
    for part in sorted(set(cells["part"]), key=_roman):
        c = cells[cells["part"] == part]
        pc = _published(c)
        recomputed = recompute_bands(pc) if len(pc) else pc.assign(linear_inside=[])
        changed = (recomputed["linear_inside"] != pc["inside"]) & (pc["kind"] == "published")
        rows.append(
            {
                "part": part,
                "median runs": float(pc["runs"].median()) if len(pc) else float("nan"),
                "printed as averages": int((pc["averaged"].fillna(1) > 1).sum()),
                "bands the bound changed": int(pc["bound_changed"].fillna(False).astype(bool).sum()),
                "inside decisions the bound changed": int(changed.sum()),
                **{f"notes {k}": int((pc["note_kind"] == k).sum()) for k in NOTE_KINDS},
                "derived": int((c["kind"] == "derived").sum()),
                "ruled out": int((pc["kind"] == "ruled out").sum()),
            }
        )
    return pd.DataFrame(rows, columns=["part", *DETAILS_COLUMNS]).set_index("part")


def recompute_bands(cells: pd.DataFrame) -> pd.DataFrame:
    """Every cell's band computed again from the run values its record keeps: columns ``low``, ``high``,
    ``inside`` (ruled-out numbers never inside) and ``linear_inside`` (the same band without the bounds), indexed
    like ``cells``. The scorecard page checks them against the recorded bands."""
    rows = []
    for _, r in cells.iterrows():
        bounds = tuple(r["bounds"]) if isinstance(r["bounds"], (list, tuple)) else None
        args = {"digits": int(r["digits"]), "deterministic": bool(r["deterministic"])}
        args["averaged"] = int(r["averaged"]) if pd.notna(r["averaged"]) else 1
        band = prediction_band(r["values"], bounds=bounds, **args)
        linear = prediction_band(r["values"], **args)
        ruled_out = r["kind"] == "ruled out"
        rows.append(
            {
                "low": band.low,
                "high": band.high,
                "inside": band.contains(r["published"]) and not ruled_out,
                "linear_inside": linear.contains(r["published"]) and not ruled_out,
            }
        )
    return pd.DataFrame(rows, index=cells.index, columns=["low", "high", "inside", "linear_inside"])


def _roman(numeral: str) -> int:
    values = {"I": 1, "V": 5, "X": 10}
    total = 0
    for a, b in zip(numeral, numeral[1:] + " "):
        total += -values[a] if values.get(b, 0) > values[a] else values[a]
    return total


def _tally(row, prefix: str = "") -> str:
    return " / ".join(str(int(row[f"{prefix}{v}"])) for v in TALLIED)


#: The headline's columns (the README block, the scorecard page and the front page all show them).
HEADLINE_COLUMNS = [
    "published numbers inside their band",
    "within 1 point of our mean",
    "median band half-width (points)",
    "claims: supported / partly / not / not testable / unstable",
    "method claims on our collection",
    "other records",
]


def headline(
    cells: pd.DataFrame, claims: pd.DataFrame, *, parts: Iterable[str] | None = None, total: bool = True
) -> pd.DataFrame:
    """The book's headline, one row per Part (and a total), as display strings (:data:`HEADLINE_COLUMNS`):
    published numbers inside their band over all (numbers a proven bound rules out count, never inside), those
    within one point (or one printed unit) of our mean, the median half-width of the bands of percentages, the
    verdicts of the published claims (supported / partly / not / not testable / unstable), the method claims
    judged on our collection rather than the paper's, and the other records."""
    total = check("total", total, Boolean())
    table = summary(cells, claims)
    if parts is not None:
        table = table.reindex(list(parts), fill_value=0)
        table["median half-width"] = summary(cells, claims)["median half-width"].reindex(table.index)
    if total and len(table) > 1:
        sums = table.drop(columns=["share inside", "median half-width"]).sum().astype(float)
        sums["share inside"] = sums["inside"] / sums["published numbers"] if sums["published numbers"] else np.nan
        half = _percent(_published(cells))["half_width"].astype(float)
        sums["median half-width"] = float(half.median()) if len(half) else np.nan
        table.loc["all"] = sums
    out = pd.DataFrame(index=table.index)
    out[HEADLINE_COLUMNS[0]] = [
        f"{int(r['inside'])} / {int(r['published numbers'])}"
        + (f" ({r['inside'] / r['published numbers']:.0%})" if r["published numbers"] else "")
        + (f"; {int(r['ruled out'])} ruled out by a proven bound" if r["ruled out"] else "")
        for _, r in table.iterrows()
    ]
    out[HEADLINE_COLUMNS[1]] = [
        f"{int(r['within 1 unit'])} ({r['within 1 unit'] / r['published numbers']:.0%})"
        if r["published numbers"]
        else "–"
        for _, r in table.iterrows()
    ]
    out[HEADLINE_COLUMNS[2]] = [
        f"± {r['median half-width']:.1f}" if pd.notna(r["median half-width"]) else "–" for _, r in table.iterrows()
    ]
    out[HEADLINE_COLUMNS[3]] = [_tally(r) for _, r in table.iterrows()]
    out[HEADLINE_COLUMNS[4]] = [_tally(r, "on our collection: ") for _, r in table.iterrows()]
    out[HEADLINE_COLUMNS[5]] = table["other records"].astype(int)
    out.index.name = "Part"
    return out


def headline_markdown(cells: pd.DataFrame, claims: pd.DataFrame, **kwargs) -> str:
    """:func:`headline` as a Markdown table (the README's block)."""
    table = headline(cells, claims, **kwargs).reset_index()
    lines = ["| " + " | ".join(table.columns) + " |", "|" + "---|" * len(table.columns)]
    lines += ["| " + " | ".join(str(v) for v in row) + " |" for row in table.itertuples(index=False)]
    return "\n".join(lines)


#: The README's scorecard block lies between these two lines.
README_MARKERS = (
    "<!-- scorecard:start (python -m lazylib.report.scorecard --readme README.md) -->",
    "<!-- scorecard:end -->",
)


def readme_block(text: str) -> str | None:
    """The text between the README's :data:`README_MARKERS` (``None`` when they are missing)."""
    start, end = README_MARKERS
    if start not in text or end not in text:
        return None
    return text.split(start, 1)[1].split(end, 1)[0].strip()


def write_readme(path: str | os.PathLike, markdown: str) -> bool:
    """Put ``markdown`` between the README's markers; returns whether the file changed."""
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    start, end = README_MARKERS
    if readme_block(text) is None:
        raise ValueError(f"{path} has no scorecard markers: add the two lines {start!r} and {end!r}")
    before, rest = text.split(start, 1)
    after = rest.split(end, 1)[1]
    new = f"{before}{start}\n{markdown.strip()}\n{end}{after}"
    path.write_text(new, encoding="utf-8")
    return new != text


def check_readme(path: str | os.PathLike, cells: pd.DataFrame, claims: pd.DataFrame) -> None:
    """Raise ``AssertionError`` when the README's scorecard block differs from what the records give."""
    expected = headline_markdown(cells, claims)
    found = readme_block(Path(path).read_text(encoding="utf-8"))
    if found != expected.strip():
        raise AssertionError(
            f"the scorecard block of {path} is not what the records give; after executing the book, run "
            f"`python -m lazylib.report.scorecard --readme {Path(path).name}` at the book's root.\nExpected:\n"
            f"{expected}\nFound:\n{found}"
        )


def summary_figure(cells: pd.DataFrame, *, parts: Iterable[str] | None = None, ax=None):
    """Every published-kind number (horizontal) against ours (vertical), one colour per Part: a vertical line
    spans the band, a filled marker lies inside it, an open one outside. Returns the figure."""
    import matplotlib.pyplot as plt

    from lazylib.report import plotting

    if ax is None:
        fig, ax = plt.subplots(figsize=(5.2, 4.4))
    else:
        fig = ax.figure
    shown = cells[cells["kind"] == "published"]
    parts = list(parts) if parts is not None else sorted(set(shown["part"]), key=_roman)
    if shown.empty:
        ax.text(0.5, 0.5, "no published number recorded yet", ha="center", va="center", transform=ax.transAxes)
        return fig
    values = pd.concat([shown["published"], shown["low"], shown["high"]])
    if (values > 0).all() and values.max() / values.min() > 100:
        ax.set_xscale("log")
        ax.set_yscale("log")
    for i, part in enumerate(parts):
        mine = shown[shown["part"] == part]
        if mine.empty:
            continue
        colour = plotting.PALETTE[i % len(plotting.PALETTE)]
        ax.vlines(mine["published"], mine["low"], mine["high"], color=colour, alpha=0.5, lw=1)
        inside = mine["inside"].astype(bool)
        ax.scatter(
            mine.loc[inside, "published"],
            mine.loc[inside, "reproduced"],
            s=18,
            color=colour,
            zorder=3,
            label=f"Part {part} ({int(inside.sum())} of {len(mine)} inside)",
        )
        ax.scatter(
            mine.loc[~inside, "published"],
            mine.loc[~inside, "reproduced"],
            s=18,
            facecolor="white",
            edgecolor=colour,
            zorder=3,
        )
    low, high = values.min(), values.max()
    ax.plot([low, high], [low, high], color=plotting.PUBLISHED, lw=0.8, zorder=1)
    ax.set_xlabel("published number, as the paper prints it (accuracies in %)")
    ax.set_ylabel("ours: mean of our runs (same quantity, same unit)")
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    return fig
