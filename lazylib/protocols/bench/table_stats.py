"""Statistics for one table: how sure a user can be which method is best on their own data, from repeated
stratified k-fold cross-validation (the user's-table bench, :mod:`lazylib.protocols.bench.user_table`).

The folds of one table are not independent samples: every training part shares most of its instances with every
other, so the variance of per-fold differences underestimates the variance of the mean difference, and the tests
made for many data sets (Friedman, Nemenyi, the Wilcoxon signed-rank test over data sets; Demsar 2006) do not
apply to folds: their "blocks" would be folds, far from independent, and their p-values far too small. The tests
made for one table correct that variance:

- the corrected resampled t-test of Nadeau & Bengio (2003), Weka's Experimenter's test: the variance of the ``J``
  per-fold differences times ``1 / J + n_test / n_train``, Student's t with ``J - 1`` degrees of freedom;
- the Bayesian correlated t-test of Corani & Benavoli (2015), the same corrected variance in a Student posterior of
  the mean difference, read against a region of practical equivalence (ROPE): the probabilities that one method is
  practically better, that the two are practically equivalent, and that the other is (baycomp's
  :class:`baycomp.CorrelatedTTest`, Orange's Test & Score).

Accuracies are in percent; ROPEs are in accuracy points.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import stats

from lazylib._validation import Real, check
from lazylib.report.paired import holm

#: ROPEs (accuracy points) of the Bayesian correlated t-test, the middle one the recommendation's.
ROPES = (0.5, 1.0, 2.0)

#: Accuracies closer than this are equal (a tie on a fold seed, a zero variance).
EPS = 1e-9

_NEEDED = ("method", "seed", "fold", "accuracy")


@dataclass(frozen=True)
class TableStatistics:
    """The statistics of :func:`one_table`.

    Attributes
    ----------
    summary : DataFrame
        Per method (index): ``status`` ("ok", "partial": some folds without a result, "no result"), ``n_folds``,
        ``mean``, ``ci_low``, ``ci_high`` (the corrected interval), ``sd`` (of the per-fold accuracies),
        ``time_s`` (mean ``total_s`` of a fold, NaN when not given), ``wins`` (share of fold seeds it is best on),
        sorted by mean accuracy, best first.
    against_baseline, against_best : DataFrame
        The corrected resampled t-test of each method against the baseline and against the best (index: method):
        ``difference`` (method minus the other, points), ``t``, ``p``, ``p_holm``, ``n_folds`` (paired folds),
        ``note`` (why a test is degenerate, or that folds were left out).
    bayes : DataFrame
        The Bayesian correlated t-test of the best against each other method, one row per method and ROPE:
        ``method``, ``rope``, ``p_best_better``, ``p_equivalent``, ``p_other_better``, ``n_folds``.
    best, baseline, recommended : str or None
    reason : str
        Why ``recommended`` is recommended, in words.
    test_share : float
        ``n_test / n_train`` of a fold, the correction's factor.
    notes : tuple of str
        What the statistics could not do (a missing baseline, one fold seed, methods without results).
    """

    summary: pd.DataFrame
    against_baseline: pd.DataFrame
    against_best: pd.DataFrame
    bayes: pd.DataFrame
    best: str
    baseline: str | None
    recommended: str
    reason: str
    test_share: float
    level: float
    alpha: float
    ropes: tuple
    notes: tuple = field(default_factory=tuple)

    def to_dict(self) -> dict:
        """Everything as plain JSON types (NaN and infinities as None)."""

        def frame(table: pd.DataFrame, index: bool = True) -> list:
            table = table.reset_index() if index else table
            return [{k: _plain(v) for k, v in row.items()} for row in table.to_dict("records")]

        return {
            "best": self.best,
            "baseline": self.baseline,
            "recommended": self.recommended,
            "reason": self.reason,
            "test_share": self.test_share,
            "level": self.level,
            "alpha": self.alpha,
            "ropes": list(self.ropes),
            "notes": list(self.notes),
            "summary": frame(self.summary),
            "against_baseline": frame(self.against_baseline),
            "against_best": frame(self.against_best),
            "bayes": frame(self.bayes, index=False),
        }


def _plain(value):
    """A JSON value: numpy scalars as Python ones, NaN and infinities as None."""
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        value = float(value)
        return value if math.isfinite(value) else None
    if isinstance(value, np.bool_):
        return bool(value)
    return value


def _folds(results: pd.DataFrame) -> pd.DataFrame:
    """The accuracies as a (seed, fold) x method table, NaN where a method has no result."""
    missing = [c for c in _NEEDED if c not in results.columns]
    if missing:
        raise ValueError(f"the results lack the columns {missing} (one row per method, seed and fold is needed)")
    if results.duplicated(["method", "seed", "fold"]).any():
        raise ValueError("the results hold a method's (seed, fold) twice: one row per method, seed and fold")
    return results.pivot(index=["seed", "fold"], columns="method", values="accuracy").astype(float)


def corrected_ttest(a, b, test_share: float) -> dict:
    """The corrected resampled t-test of Nadeau & Bengio (2003) on paired per-fold accuracies.

    Parameters
    ----------
    a, b : array-like of float
        The two methods' accuracies on the same ``J`` folds (of repeated cross-validation); NaN pairs are left out.
    test_share : float
        ``n_test / n_train`` of a fold (``1 / (k - 1)`` for k-fold cross-validation).

    Returns
    -------
    dict with ``difference`` (mean of ``a - b``), ``t``, ``p`` (two-sided), ``n_folds``, ``se`` (the corrected
    standard error) and ``note`` ("" unless the test is degenerate: the same accuracies on every fold give p = 1,
    "no difference to test"; the same non-zero difference on every fold gives p = 0).

    Examples
    --------
    >>> r = corrected_ttest([80, 82, 81, 83], [79, 80, 80, 81], test_share=1 / 9)
    >>> round(r["difference"], 2), round(r["p"], 3)
    (1.5, 0.023)
    """
    check("test_share", test_share, Real(low=0, open_low=True))
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    keep = ~(np.isnan(a) | np.isnan(b))
    d = a[keep] - b[keep]
    J = len(d)
    if J < 2:
        raise ValueError(f"the corrected t-test needs at least two folds where both methods have results, got {J}")
    mean, var = float(d.mean()), float(d.var(ddof=1))
    se = math.sqrt(var * (1 / J + test_share))
    out = {"difference": mean, "n_folds": J, "se": se, "note": ""}
    if se <= EPS:
        if abs(mean) <= EPS:
            return out | {"t": 0.0, "p": 1.0, "note": "the same accuracy on every fold: no difference to test"}
        return out | {"t": math.copysign(math.inf, mean), "p": 0.0, "note": "the same difference on every fold"}
    t = mean / se
    return out | {"t": t, "p": float(2 * stats.t.sf(abs(t), J - 1))}


def correlated_bayes(a, b, test_share: float, rope: float) -> dict:
    """The Bayesian correlated t-test (Corani & Benavoli 2015) of ``a`` against ``b``: the posterior of the mean
    difference ``a - b`` is Student's t with ``J - 1`` degrees of freedom, centred on the mean per-fold difference,
    scaled by the corrected standard error of :func:`corrected_ttest`. Its probabilities are those of
    :class:`baycomp.CorrelatedTTest` with ``runs`` repetitions of k-fold when ``test_share = 1 / (k - 1)``.

    Parameters
    ----------
    a, b : array-like of float
        Paired per-fold accuracies (NaN pairs left out).
    test_share : float
        ``n_test / n_train`` of a fold.
    rope : float
        The half-width of the region of practical equivalence, in points (> 0).

    Returns
    -------
    dict with ``p_a`` (``a`` practically better: the difference above ``rope``), ``p_rope`` and ``p_b``.
    """
    check("rope", rope, Real(low=0, open_low=True))
    r = corrected_ttest(a, b, test_share)
    mean, se, df = r["difference"], r["se"], r["n_folds"] - 1
    if se <= EPS:
        p_b, p_a = float(mean < -rope), float(mean > rope)
    else:
        p_b = float(stats.t.cdf(-rope, df, mean, se))
        p_a = float(stats.t.sf(rope, df, mean, se))
    return {"p_a": p_a, "p_rope": 1.0 - p_a - p_b, "p_b": p_b}


def _interval(values: np.ndarray, test_share: float, level: float) -> tuple[float, float, float]:
    """Mean with its corrected interval: Student's t over the folds with the Nadeau-Bengio variance."""
    values = values[~np.isnan(values)]
    mean = float(values.mean())
    if len(values) < 2:
        return mean, math.nan, math.nan
    half = stats.t.ppf(0.5 + level / 2, len(values) - 1) * math.sqrt(
        values.var(ddof=1) * (1 / len(values) + test_share)
    )
    return mean, mean - half, mean + half


def _wins(table: pd.DataFrame) -> pd.Series:
    """Share of fold seeds on which each method has the best mean accuracy, ties shared (complete methods)."""
    by_seed = table.groupby(level="seed").mean()
    wins = pd.Series(0.0, index=table.columns)
    for _, row in by_seed.iterrows():
        top = row.index[row >= row.max() - EPS]
        wins[top] += 1 / len(top)
    return wins / len(by_seed)


def _summary(table: pd.DataFrame, times: pd.Series, test_share: float, level: float) -> pd.DataFrame:
    rows = {}
    complete = [m for m in table.columns if table[m].notna().all()]
    wins = _wins(table[complete]) if complete else pd.Series(dtype=float)
    for m in table.columns:
        values = table[m].to_numpy()
        n = int(np.isfinite(values).sum())
        status = "ok" if n == len(values) else ("no result" if n == 0 else "partial")
        mean, lo, hi = _interval(values, test_share, level) if n else (math.nan, math.nan, math.nan)
        sd = float(np.nanstd(values, ddof=1)) if n > 1 else math.nan
        rows[m] = {"status": status, "n_folds": n, "mean": mean, "ci_low": lo, "ci_high": hi, "sd": sd}
        rows[m] |= {"time_s": float(times.get(m, math.nan)), "wins": float(wins.get(m, 0.0))}
    summary = pd.DataFrame.from_dict(rows, orient="index")
    summary.index.name = "method"
    return summary.sort_values(["mean", "time_s"], ascending=[False, True], na_position="last", kind="stable")


def _tests(table: pd.DataFrame, against: str, methods, test_share: float) -> pd.DataFrame:
    """The corrected t-test of each of ``methods`` against ``against``, Holm-adjusted over them."""
    rows = {}
    full = int(table[against].notna().sum())
    for m in methods:
        r = corrected_ttest(table[m], table[against], test_share)
        note = r["note"]
        if r["n_folds"] < full or table[m].isna().any():
            note = "; ".join(filter(None, [note, f"paired on the {r['n_folds']} folds both have"]))
        rows[m] = {"difference": r["difference"], "t": r["t"], "p": r["p"], "n_folds": r["n_folds"], "note": note}
    tests = pd.DataFrame.from_dict(rows, orient="index", columns=["difference", "t", "p", "n_folds", "note"])
    tests.index.name = "method"
    tests.insert(3, "p_holm", holm(tests["p"].to_numpy()) if len(tests) else [])
    return tests


def _bayes(table: pd.DataFrame, best: str, others, test_share: float, ropes) -> pd.DataFrame:
    rows = []
    for m in others:
        n = int((table[best].notna() & table[m].notna()).sum())
        for rope in ropes:
            p = correlated_bayes(table[best], table[m], test_share, rope)
            rows.append({"method": m, "rope": rope, "p_best_better": p["p_a"], "p_equivalent": p["p_rope"]})
            rows[-1] |= {"p_other_better": p["p_b"], "n_folds": n}
    columns = ["method", "rope", "p_best_better", "p_equivalent", "p_other_better", "n_folds"]
    return pd.DataFrame(rows, columns=columns)


def _recommend(summary: pd.DataFrame, bayes: pd.DataFrame, best: str, rope: float, level: float) -> tuple[str, str]:
    """The best method, or the cheapest complete method practically equivalent to it or better (P >= ``level``
    within ``rope``), with the reason."""
    best_time = summary.at[best, "time_s"]
    at = bayes[bayes["rope"] == rope].set_index("method")
    safe = at.index[(at["p_equivalent"] + at["p_other_better"]) >= level]
    cheaper = [m for m in safe if summary.at[m, "status"] == "ok" and summary.at[m, "time_s"] < best_time]
    words = f"{best} has the best mean accuracy ({summary.at[best, 'mean']:.2f} %)"
    if not cheaper:
        return best, words + f"; no cheaper method is within {rope:g} point of it with probability {level:g}"
    pick = min(cheaper, key=lambda m: summary.at[m, "time_s"])
    p = at.at[pick, "p_equivalent"] + at.at[pick, "p_other_better"]
    return pick, (
        f"{words}, but {pick} is at most {rope:g} point worse with probability {p:.3f} "
        f"(Bayesian correlated t-test) and costs {summary.at[pick, 'time_s']:.3g} s a fold against "
        f"{best_time:.3g} s"
    )


def one_table(
    results: pd.DataFrame,
    *,
    baseline: str | None = "1-NN Euclidean",
    test_share: float,
    ropes=ROPES,
    level: float = 0.95,
    alpha: float = 0.05,
    rope: float = 1.0,
) -> TableStatistics:
    """The statistics of one table's repeated cross-validation: per method the mean accuracy with its corrected
    interval, the corrected resampled t-test against ``baseline`` and against the best (Holm over each family),
    the Bayesian correlated t-test of the best against every other method at each of ``ropes``, each method's share
    of wins over the fold seeds, and a recommendation.

    Friedman's and Nemenyi's tests are not used: they need independent blocks (data sets), and the folds of one
    table are not (module docstring). A method without a result on some folds (a failure) is compared only on the
    folds both methods have (its rows say how many), is not a candidate for best, and is flagged ``partial``.

    Parameters
    ----------
    results : DataFrame
        One row per method, seed and fold: ``method``, ``seed``, ``fold``, ``accuracy`` (percent, NaN where the
        method refused or failed) and optionally ``total_s`` (processor seconds of the fold).
    baseline : str or None
        The method every other is tested against (None, or a method without results: no such tests, said in
        ``notes``).
    test_share : float
        ``n_test / n_train`` of a fold: ``1 / (k - 1)`` for k-fold cross-validation with whole training parts,
        larger when the training parts are samples.
    ropes : sequence of float
        ROPEs of the Bayesian test, in points.
    level : float
        Confidence level of the intervals and the probability the recommendation asks for.
    alpha : float
        Level of the t-tests (reported beside their p-values; the report marks p_holm <= alpha).
    rope : float
        The ROPE of the recommendation (one of ``ropes``).

    Returns
    -------
    TableStatistics

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> rows = [{"method": m, "seed": s, "fold": f, "accuracy": 80 + d + rng.normal(0, 1), "total_s": t}
    ...         for m, d, t in (("A", 3, 1.0), ("B", 0, 0.1)) for s in range(3) for f in range(10)]
    >>> st = one_table(pd.DataFrame(rows), baseline="B", test_share=1 / 9)
    >>> st.best, st.against_baseline.loc["A", "p_holm"] < 0.05
    ('A', np.True_)
    """
    test_share = check("test_share", test_share, Real(low=0, open_low=True))
    check("level", level, Real(low=0, high=1, open_low=True, open_high=True))
    check("alpha", alpha, Real(low=0, high=1, open_low=True, open_high=True))
    ropes = tuple(float(r) for r in ropes)
    if rope not in ropes:
        raise ValueError(f"rope {rope!r} must be one of ropes {ropes}")
    table = _folds(results)
    if len(table) < 2:
        raise ValueError(f"one-table statistics need at least two folds, got {len(table)}")
    times = results.groupby("method")["total_s"].mean() if "total_s" in results.columns else pd.Series(dtype=float)
    summary = _summary(table, times, test_share, level)
    ran = summary.index[summary["status"] != "no result"].tolist()
    complete = summary.index[summary["status"] == "ok"].tolist()
    notes = [f"{m}: no result on any fold" for m in summary.index if m not in ran]
    if len(ran) < 2:
        raise ValueError(f"one-table statistics need at least two methods with results, got {ran}")
    if not complete:
        raise ValueError("every method failed on some folds: no method has a result on every fold to compare")
    if table.index.get_level_values("seed").nunique() < 2:
        notes.append("one fold seed: the wins over fold seeds say nothing; rerun with --seeds 2 or more")
    best = complete[0]  # summary is sorted by mean accuracy, then time
    others = [m for m in ran if m != best]
    if baseline is not None and baseline not in ran:
        notes.append(f"baseline {baseline!r} has no results: no tests against it")
        baseline = None
    compared = [m for m in ran if m != baseline] if baseline else []
    vs_base = _tests(table, baseline or best, compared, test_share)
    vs_best = _tests(table, best, others, test_share)
    bayes = _bayes(table, best, others, test_share, ropes)
    recommended, reason = _recommend(summary, bayes, best, rope, level)
    return TableStatistics(
        summary=summary,
        against_baseline=vs_base,
        against_best=vs_best,
        bayes=bayes,
        best=best,
        baseline=baseline,
        recommended=recommended,
        reason=reason,
        test_share=float(test_share),
        level=level,
        alpha=alpha,
        ropes=ropes,
        notes=tuple(notes),
    )
