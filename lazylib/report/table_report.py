"""The report of a user's table on the bench: one HTML page that opens offline (no request to another host: the
figures are PNG images inline, the style is in the page), written by
:meth:`lazylib.protocols.bench.user_table.TableResult.to_html`.

The page reads a result object (duck-typed, so that this reader tool imports no protocol): ``table`` (the table
as read: ``to_dict()``), ``rows`` (one row per method, seed and fold), ``statistics`` (the one-table statistics:
``summary``, ``against_baseline``, ``against_best``, ``bayes``, ``best``, ``baseline``, ``recommended``,
``reason``, ``notes``, ``level``, ``alpha``, ``ropes``), ``catalogue`` (the catalogue's view, or None) and
``provenance`` (a dict). Every string that comes from the user's table or command line is escaped
(:func:`html.escape`).
"""

from __future__ import annotations

import base64
import html
import io
import math

import numpy as np
import pandas as pd

#: The sections of the page, in order: (id, heading).
SECTIONS = (
    ("data", "The table as read"),
    ("refusals", "Methods that refused or failed"),
    ("accuracy", "Accuracy per method"),
    ("folds", "Accuracy by fold"),
    ("tests", "Corrected resampled t-tests"),
    ("bayes", "Bayesian correlated t-test"),
    ("time", "Time per method"),
    ("recommendation", "Recommendation"),
    ("catalogue", "The table among the catalogue"),
    ("provenance", "Provenance"),
)

_STYLE = """
body { font-family: system-ui, sans-serif; max-width: 72rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
table { border-collapse: collapse; margin: 0.5rem 0 1rem; font-size: 0.9rem; }
th, td { border-bottom: 1px solid #ddd; padding: 0.2rem 0.6rem; text-align: right; }
th:first-child, td:first-child { text-align: left; }
.note { color: #555; font-size: 0.9rem; }
.verdict { background: #eef5fb; padding: 0.6rem 1rem; border-left: 4px solid #1b6ca8; }
"""


def _e(value) -> str:
    """Any value as escaped HTML text."""
    return html.escape(str(value), quote=True)


def _table(frame: pd.DataFrame, digits: int = 2, index: bool = True) -> str:
    """A DataFrame as an HTML table, every cell and label escaped, numbers rounded to ``digits``."""
    if frame is None or len(frame) == 0:
        return '<p class="note">(none)</p>'
    shown = frame.reset_index() if index else frame
    head = "".join(f"<th>{_e(c)}</th>" for c in shown.columns)
    body = []
    for row in shown.itertuples(index=False):
        body.append("<tr>" + "".join(f"<td>{_cell(v, digits)}</td>" for v in row) + "</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _cell(value, digits: int) -> str:
    if isinstance(value, (bool, np.bool_)):
        return _e(bool(value))
    if isinstance(value, (int, np.integer)):
        return _e(int(value))
    if isinstance(value, (float, np.floating)):
        value = float(value)
        if math.isnan(value):
            return "–"
        if math.isinf(value):
            return "∞" if value > 0 else "−∞"
        if value != 0 and abs(value) < 10 ** (-digits):
            return _e(f"{value:.1e}")
        return _e(f"{value:.{digits}f}")
    return _e(value)


def _png(fig) -> str:
    """A matplotlib figure as an inline ``<img>`` (base64 PNG): the page needs no other file and no host."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=100, bbox_inches="tight")
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    return f'<img alt="figure" src="data:image/png;base64,{data}">'


def _figure(width: float, height: float):
    """A figure drawn by the Agg canvas without pyplot (no backend or global state of the caller's is touched)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height))
    FigureCanvasAgg(fig)
    return fig


def fold_plot(rows: pd.DataFrame, order) -> str:
    """Accuracy of every fold of every fold seed per method (a point each, a colour per seed), with the mean.

    Parameters
    ----------
    rows : DataFrame
        ``method``, ``seed``, ``accuracy`` (NaN rows are left out).
    order : sequence of str
        The methods drawn, top to bottom.

    Returns
    -------
    str
        An ``<img>`` element with the PNG inline.
    """
    order = [m for m in order if rows.loc[rows["method"] == m, "accuracy"].notna().any()]
    fig = _figure(7.0, 0.28 * len(order) + 1.0)
    ax = fig.add_subplot()
    seeds = sorted(rows["seed"].unique())
    for i, seed in enumerate(seeds):
        part = rows[(rows["seed"] == seed) & rows["accuracy"].notna()]
        y = [len(order) - 1 - order.index(m) for m in part["method"] if m in order]
        x = part.loc[part["method"].isin(order), "accuracy"]
        jitter = (i - (len(seeds) - 1) / 2) * 0.12
        ax.plot(x, np.asarray(y) + jitter, "o", ms=3, alpha=0.6, label=f"seed {i + 1}")
    means = [rows.loc[rows["method"] == m, "accuracy"].mean() for m in order]
    ax.plot(means, range(len(order) - 1, -1, -1), "k|", ms=12, mew=2, label="mean")
    ax.set_yticks(range(len(order) - 1, -1, -1), order)
    ax.set_xlabel("test accuracy of a fold (%)")
    ax.grid(axis="x", alpha=0.3)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False)
    return _png(fig)


def time_plot(summary: pd.DataFrame) -> str:
    """Mean processor seconds of a fold per method (fitting and predicting), on a log scale.

    Parameters
    ----------
    summary : DataFrame
        Per method (index): ``time_s``.

    Returns
    -------
    str
        An ``<img>`` element with the PNG inline.
    """
    times = summary["time_s"].dropna()
    times = times[times > 0].sort_values()
    fig = _figure(7.0, 0.28 * len(times) + 1.0)
    ax = fig.add_subplot()
    ax.barh(range(len(times)), times.to_numpy(), color="#1b6ca8")
    ax.set_yticks(range(len(times)), list(times.index))
    ax.set_xscale("log")
    ax.set_xlabel("processor seconds per fold (fit + predict)")
    ax.grid(axis="x", alpha=0.3)
    return _png(fig)


def _data_section(result) -> str:
    info = result.table.to_dict()
    columns = pd.DataFrame(
        {"type": pd.Series(info["columns"]), "missing": pd.Series(info.get("missing", {}))}, dtype=object
    ).fillna(0)
    columns.index.name = "column"
    classes = pd.Series(info["classes"], name="rows").to_frame()
    classes.index.name = "class"
    classes["share (%)"] = 100 * classes["rows"] / classes["rows"].sum()
    dropped = info["rows_dropped_missing_target"]
    return (
        f"<p>{_e(info['rows'])} rows, {_e(len(info['columns']))} attributes, target column "
        f"<code>{_e(result.provenance.get('target', ''))}</code>; {_e(dropped)} rows without a class left out. "
        f"Source: <code>{_e(info.get('source') or 'a DataFrame')}</code>.</p>"
        f"<h3>Columns</h3>{_table(columns)}<h3>Class balance</h3>{_table(classes, 1)}"
        f"<h3>As the command printed it</h3><pre>{_e(result.table.schema_text())}</pre>"
    )


def _refusals_section(rows: pd.DataFrame) -> str:
    bad = rows[rows["status"] != "ok"]
    if bad.empty:
        return "<p>Every method ran on every fold.</p>"
    table = (
        bad.groupby(["method", "status", "message"], sort=False)
        .size()
        .rename("folds")
        .reset_index()
        .set_index("method")
    )
    return (
        "<p>A method refuses a table when the library rejects it (a refused method is left out of the tests); a "
        "failure is any other error, kept with its message.</p>" + _table(table)
    )


def _accuracy_section(st) -> str:
    s = st.summary.copy()
    s["wins (%)"] = 100 * s.pop("wins")
    shown = s[["status", "n_folds", "mean", "ci_low", "ci_high", "sd", "wins (%)", "time_s"]]
    return (
        f"<p>Mean test accuracy (%) over every fold of every fold seed, with its {100 * st.level:g} % interval "
        "from the corrected variance of Nadeau &amp; Bengio (2003) (the folds share their training data, so the "
        "plain interval would be too narrow); <em>wins</em> is the share of fold seeds on which the method has the "
        "best mean accuracy.</p>" + _table(shown)
    )


def _tests_section(st) -> str:
    alpha = st.alpha
    parts = []
    for title, table, other in (
        ("Against the baseline", st.against_baseline, st.baseline),
        ("Against the best", st.against_best, st.best),
    ):
        if other is None:
            parts.append(f"<h3>{_e(title)}</h3><p class='note'>No baseline with results: no tests against it.</p>")
            continue
        shown = table.assign(significant=table["p_holm"] <= alpha)
        parts.append(
            f"<h3>{_e(title)} ({_e(other)})</h3>"
            f"<p>Difference in points (method minus {_e(other)}); Holm's correction over the family; significant "
            f"at {alpha:g}.</p>" + _table(shown, 3)
        )
    return (
        "<p>The corrected resampled t-test (Nadeau &amp; Bengio 2003, Weka's Experimenter): the variance of the "
        "per-fold differences is multiplied by 1/J + n<sub>test</sub>/n<sub>train</sub>. Friedman's and "
        "Nemenyi's tests are not used: their blocks must be independent, and the folds of one table are "
        "not.</p>" + "".join(parts)
    )


def _bayes_section(st) -> str:
    wide = st.bayes.pivot(index="method", columns="rope", values=["p_best_better", "p_equivalent", "p_other_better"])
    wide.columns = [f"{name} (ROPE {rope:g})" for name, rope in wide.columns]
    wide = wide[sorted(wide.columns, key=lambda c: (float(c.split("ROPE ")[1][:-1]), c))]
    return (
        f"<p>The best method, {_e(st.best)}, against each other (Corani &amp; Benavoli 2015; baycomp's "
        "CorrelatedTTest): the probabilities that the best is practically better, that the two are practically "
        "equivalent (within the region of practical equivalence, ROPE, in accuracy points) and that the other is "
        f"better, at ROPEs of {', '.join(f'{r:g}' for r in st.ropes)} points.</p>" + _table(wide, 3)
    )


def _recommendation_section(st) -> str:
    notes = "".join(f"<li>{_e(n)}</li>" for n in st.notes)
    return f"<p class='verdict'><strong>{_e(st.recommended)}</strong>: {_e(st.reason)}.</p>" + (
        f"<p>Notes:</p><ul>{notes}</ul>" if notes else ""
    )


def _catalogue_section(result) -> str:
    view = result.catalogue
    if view is None:
        reason = result.provenance.get("catalogue_note", "not asked for (--no-catalogue)")
        return f"<p class='note'>No catalogue view: {_e(reason)}.</p>"
    near = pd.DataFrame(view["nearest"]).set_index("dataset")
    rate = view["hit_rate"]
    plain_better = rate["baseline_hits"] >= rate["hits"]
    verdict = (
        "the neighbours do not beat that plain advice: read this view as context, not as a recommendation"
        if plain_better
        else "the neighbours' advice does better than the plain advice"
    )
    text = (
        f"<p>The {_e(len(near))} catalogue data sets most like this table (size, attributes, share of nominal "
        "attributes, of missing values, classes), and how the methods ranked on them in the stored full run: they "
        f"recommend <strong>{_e(view['recommended'])}</strong>.</p>{_table(near, 3)}{_table(view['ranks'])}"
        f"<p><strong>How good is this advice?</strong> Leaving each of the {_e(rate['n'])} catalogue data sets "
        f"out in turn, the method recommended by its {_e(rate['k'])} nearest was within {rate['within']:g} point "
        f"of that data set's best on {_e(rate['hits'])} of {_e(rate['n'])} ({100 * rate['rate']:.0f} %); always "
        f"recommending the catalogue's best method ({_e(rate['plain'])}) was on {_e(rate['baseline_hits'])} of "
        f"{_e(rate['n'])} ({100 * rate['baseline_rate']:.0f} %): {verdict}.</p>"
    )
    if "overall" in view:
        text += (
            f"<h3>Your table ranked among the catalogue</h3><p>Each method's mean rank over the "
            f"{_e(view['n_catalogue'])} catalogue data sets on which every compared method ran, then with your "
            "table added, and its rank on your table alone.</p>" + _table(view["overall"])
        )
    return text


def _provenance_section(provenance: dict) -> str:
    shown = {
        k: ", ".join(map(str, v)) if isinstance(v, (list, tuple)) else str(v)
        for k, v in provenance.items()
        if v not in (None, "") and not isinstance(v, dict)
    }
    table = pd.Series(shown, name="value").to_frame()
    table.index.name = "what"
    return _table(table)


def render(result) -> str:
    """The report page of ``result`` as one HTML document (module docstring).

    Parameters
    ----------
    result : lazylib.protocols.bench.user_table.TableResult
        The bench of one table.

    Returns
    -------
    str
        The page, offline: no request to another host.
    """
    st = result.statistics
    order = list(st.summary.index)
    body = {
        "data": _data_section(result),
        "refusals": _refusals_section(result.rows),
        "accuracy": _accuracy_section(st),
        "folds": fold_plot(result.rows, order),
        "tests": _tests_section(st),
        "bayes": _bayes_section(st),
        "time": time_plot(st.summary) + _table(_time_table(result.rows), 3),
        "recommendation": _recommendation_section(st),
        "catalogue": _catalogue_section(result),
        "provenance": _provenance_section(result.provenance),
    }
    name = result.table.to_dict()["name"]
    sections = "".join(f'<section id="{key}"><h2>{_e(title)}</h2>{body[key]}</section>' for key, title in SECTIONS)
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f"<title>lazylib bench: {_e(name)}</title><style>{_STYLE}</style></head><body>"
        f"<h1>lazylib bench: {_e(name)}</h1>"
        f"<p>{_e(result.provenance.get('protocol', ''))}</p>{sections}</body></html>"
    )


def _time_table(rows: pd.DataFrame) -> pd.DataFrame:
    """Median processor seconds of fitting, predicting and both per fold, and the total, per method."""
    ok = rows[rows["status"] == "ok"]
    out = ok.groupby("method").agg(
        fit=("fit_s", "median"), predict=("predict_s", "median"), total=("total_s", "median"), run=("total_s", "sum")
    )
    return out.sort_values("total")


def render_across(tables) -> str:
    """The page comparing several tables (:class:`lazylib.protocols.bench.user_tables.TablesResult`): each table's
    mean accuracies, average ranks, Friedman's test, the methods Nemenyi's test does not tell from the best, the
    Wilcoxon signed-rank tests against the baseline with Holm's correction, the Bayesian signed-rank test of the
    leading pairs, and a link to each table's own page (a relative link, in the same folder).

    Parameters
    ----------
    tables : lazylib.protocols.bench.user_tables.TablesResult

    Returns
    -------
    str
    """
    a = tables.across
    links = "".join(f'<li><a href="{_e(name)}/index.html">{_e(name)}</a></li>' for name in tables.results)
    parts = [f"<section id='tables'><h2>The tables</h2><ul>{links}</ul>"]
    if a is None:
        parts.append("<p class='note'>One table: no comparison across tables.</p></section>")
    else:
        parts.append(f"<h3>Mean accuracy (%)</h3>{_table(a['block'].T)}</section>")
        ranking = a["ranking"]
        if ranking is not None:
            f = ranking["friedman"]
            parts.append(
                "<section id='ranks'><h2>Average ranks</h2>"
                f"<p>Friedman's test over {_e(f['N'])} tables and {_e(f['k'])} methods: p = {_cell(f['p'], 4)} "
                f"(Iman and Davenport's F: p = {_cell(f['p_F'], 4)}). Nemenyi's test does not tell "
                f"{_e(', '.join(ranking['group']))} from the best (critical difference {ranking['cd']:.2f}).</p>"
                f"{_table(ranking['ranks'].rename('average rank').to_frame())}</section>"
            )
        for key, title in (("against_baseline", "Against the baseline"), ("leading_pairs", "Leading pairs")):
            if a[key] is not None:
                parts.append(f"<section id='{key}'><h2>{_e(title)}</h2>{_table(a[key], 3)}</section>")
        notes = "".join(f"<li>{_e(n)}</li>" for n in a["notes"])
        parts.append(f"<section id='notes'><h2>Notes</h2><ul>{notes}</ul></section>")
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>lazylib bench: several tables</title>'
        f"<style>{_STYLE}</style></head><body><h1>lazylib bench: {_e(len(tables.results))} tables</h1>"
        + "".join(parts)
        + "</body></html>"
    )
