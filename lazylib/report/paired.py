"""Verdict rules with the semantics of a test: paired comparisons of two methods over items (data sets, cells).

A claim that one method *beats* another, or performs *about as well as* it, speaks of the methods over several
items. The rules of :mod:`lazylib.report.verdicts` judge such a claim by a share of items on which it holds, a
count that treats ties as failures and reads as inference without being one. The rules here judge it by a test on
the paired results:

- :func:`beats`: on the items where the two methods differ by more than a stated ``tolerance`` (the ties set
  aside and reported beside the result), the exact two-sided sign test (the binomial test of wins against losses)
  or, stated, the Wilcoxon signed-rank test on the differences, at a stated level. *Supported* when significant in
  the claimed direction; *not supported* otherwise, its reading saying whether the other method is significantly
  better or no difference is shown.
- :func:`equivalent`: two one-sided tests (TOST) of the paired differences against a stated region of practical
  equivalence (``rope``, e.g. one accuracy point): *supported* when both reject, else *not supported*, its reading
  naming the side the failure falls on. ``sides="lower"`` tests non-inferiority (not worse by more than ``rope``).
- :func:`conjunction`: a claim made of several parts ("A beats B and C") judged part by part, every part's
  reading in the note.
- :func:`finding`: a descriptive result (the best average rank), labelled ``"finding"`` rather than supported.
- :func:`holm` and :func:`holm_verdicts`: Holm's step-down correction over the tested claims of one page.

Every verdict carries its ``reading`` (``"not supported: B better"``), its ``p`` (NaN for no test) and its
``parts``, so that a page can adjust its family of tests together.

**Independence.** The tests treat the items as independent replicates. Data sets are not a random sample of any
population (several share one domain, such as the three MONK's problems or the versions of one breast-cancer
collection), and cells of one table share their data sets. A p-value here measures how surprising the
wins and losses would be if the methods were exchangeable on these items; it does not generalise to data sets at
large.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from lazylib._validation import Boolean, Choice, Integer, Real, check
from lazylib.report.verdicts import Reads, Verdict

__all__ = [
    "BEATS_TESTS",
    "EQUIVALENCE_TESTS",
    "Beats",
    "Equivalence",
    "Equivalent",
    "SignComparison",
    "TestedVerdict",
    "beats",
    "compare",
    "conjunction",
    "equivalence",
    "equivalent",
    "finding",
    "holm",
    "holm_verdicts",
]

#: The paired tests :func:`beats` can use: the exact sign test on wins and losses, or the Wilcoxon signed-rank
#: test on the differences of the items that differ.
BEATS_TESTS = ("sign", "wilcoxon")
#: The one-sided tests of :func:`equivalent`: Student's t on the mean difference, or the Wilcoxon signed-rank test.
EQUIVALENCE_TESTS = ("t", "wilcoxon")


class TestedVerdict(Verdict):
    """A :class:`~lazylib.report.verdicts.Verdict` with the test behind it.

    Attributes
    ----------
    reading : str
        The verdict in words, with its side: ``"supported"``, ``"not supported: B better"``, ``"not supported: no
        difference shown"``.
    p : float
        The test's p-value (adjusted, when the verdict came from :func:`holm_verdicts`); NaN without a test.
    test : SignComparison, Equivalence or None
        The comparison it was graded from (None for a conjunction).
    parts : dict
        A conjunction's parts (label -> TestedVerdict); empty otherwise.
    """

    __test__ = False  # not a pytest class

    def __new__(cls, verdict: str, note: str = "", *, reading: str = "", p: float = math.nan, test=None, parts=None):
        obj = super().__new__(cls, verdict, note)
        obj.reading = str(reading or verdict)
        obj.p = float(p)
        obj.test = test
        obj.parts = dict(parts or {})
        return obj


def _paired(a, b, names) -> tuple[pd.Series, int]:
    """The paired values of ``a`` and ``b`` (aligned by index when both are Series) with NaN pairs dropped, and
    how many items were dropped."""
    if isinstance(a, pd.Series) and isinstance(b, pd.Series):
        a, b = a.align(b, join="outer")
    index = a.index if isinstance(a, pd.Series) else None
    a, b = np.asarray(a, dtype=float).ravel(), np.asarray(b, dtype=float).ravel()
    if len(a) != len(b):
        raise ValueError(f"{names[0]} and {names[1]} need one value per item each, got {len(a)} and {len(b)}")
    a, b = pd.Series(a, index=index), pd.Series(b, index=index)
    both = a.notna() & b.notna()
    return (a - b)[both], int((~both).sum())


@dataclass(frozen=True)
class SignComparison:
    """Two methods compared item by item: wins, losses and ties (within ``tolerance``), and the paired test.

    Attributes
    ----------
    names : tuple of str
        The two methods, the claimed winner first.
    wins, losses, ties : int
        Items where the first is higher, lower, or within ``tolerance`` of the second.
    missing : int
        Items set aside because one of the methods has no value there.
    tolerance : float
        Differences of at most this size are ties.
    test : str
        One of :data:`BEATS_TESTS`.
    p : float
        The two-sided p-value on the items that differ (1 when none does).
    favours : str
        The method the test's statistic favours (the first on a tie).
    """

    names: tuple
    wins: int
    losses: int
    ties: int
    missing: int
    tolerance: float
    test: str
    p: float
    favours: str

    @property
    def evidence(self) -> str:
        """Wins, losses and ties in words, with the test and its p-value."""
        a, b = self.names
        name = "sign test" if self.test == "sign" else "Wilcoxon signed-rank test"
        text = (
            f"{a} vs {b}: {self.wins} wins, {self.losses} losses, {self.ties} ties (within {self.tolerance:g}); "
            f"two-sided {name} p = {self.p:.2g}"
        )
        return text + (f"; {self.missing} items without both" if self.missing else "")

    def verdict(self, alpha: float = 0.05, p: float | None = None, family: int = 0) -> TestedVerdict:
        """The "beats" verdict at level ``alpha``; on ``p`` instead of the test's own when given (Holm-adjusted
        over ``family`` tests, said in the note)."""
        alpha = check("alpha", alpha, Real(low=0, high=1, open_low=True, open_high=True))
        p = self.p if p is None else float(p)
        if self.wins + self.losses + self.ties == 0:
            return TestedVerdict("not testable", f"{self.evidence}: no item has both", test=self)
        note = f"{self.evidence} (level {alpha:g}" + (f"; Holm over {family} tests: p = {p:.2g})" if family else ")")
        if p <= alpha and self.favours == self.names[0]:
            return TestedVerdict("supported", note, reading="supported", p=p, test=self)
        reading = f"not supported: {self.names[1]} better" if p <= alpha else "not supported: no difference shown"
        return TestedVerdict("not supported", f"{reading}; {note}", reading=reading, p=p, test=self)


def compare(a, b, *, names=("A", "B"), tolerance: float = 0.0, test: str = "sign") -> SignComparison:
    """Wins, losses and ties of ``a`` over ``b`` item by item, and the paired two-sided test on the items that differ.

    Parameters
    ----------
    a, b : Series or array-like of float
        One value per item (data set, cell); Series are aligned by their index. Items where either is NaN are
        set aside and counted (``missing``).
    names : pair of str
        The methods' names, for the notes.
    tolerance : float
        A difference of at most this size is a tie (set aside, reported beside the test).
    test : str
        ``"sign"`` (the exact binomial test of wins against losses, :func:`scipy.stats.binomtest`) or
        ``"wilcoxon"`` (:func:`scipy.stats.wilcoxon` on the differences beyond the tolerance).

    Returns
    -------
    SignComparison

    Notes
    -----
    See the module's note on independence: data sets are not independent samples of anything.

    References
    ----------
    Demsar, J. (2006). Statistical comparisons of classifiers over multiple data sets. JMLR 7, 1-30, section 3.1.3
    (the sign test counting wins, ties split there, set aside here and reported).

    Examples
    --------
    >>> c = compare([80, 82, 85, 90, 70], [78, 82, 80, 85, 69], names=("IVDM", "DVDM"))
    >>> c.wins, c.losses, c.ties, round(c.p, 3)
    (4, 0, 1, 0.125)
    """
    tolerance = check("tolerance", tolerance, Real(low=0))
    test = check("test", test, Choice(BEATS_TESTS))
    names = tuple(str(n) for n in names)
    d, missing = _paired(a, b, names)
    differ = d[d.abs() > tolerance]
    wins, losses = int((differ > 0).sum()), int((differ < 0).sum())
    if wins + losses == 0:
        p, favours = 1.0, names[0]
    elif test == "sign":
        p = float(stats.binomtest(wins, wins + losses, 0.5).pvalue)
        favours = names[0] if wins >= losses else names[1]
    else:
        ranks = stats.rankdata(differ.abs())
        plus, minus = ranks[differ.to_numpy() > 0].sum(), ranks[differ.to_numpy() < 0].sum()
        p = float(stats.wilcoxon(differ.to_numpy()).pvalue)
        favours = names[0] if plus >= minus else names[1]
    return SignComparison(names, wins, losses, len(d) - wins - losses, missing, tolerance, test, p, favours)


def beats(a, b, *, names=("A", "B"), tolerance: float = 0.0, alpha: float = 0.05, test: str = "sign") -> TestedVerdict:
    """The verdict of "``names[0]`` beats ``names[1]``" by a paired test over the items (:func:`compare`).

    Parameters
    ----------
    a, b : Series or array-like of float
        One value per item; as for :func:`compare`.
    names : pair of str
        The claimed winner, then the other method.
    tolerance : float
        Differences of at most this size are ties, set aside and reported.
    alpha : float
        The test's level (two-sided).
    test : str
        One of :data:`BEATS_TESTS`.

    Returns
    -------
    TestedVerdict
        ``"supported"`` when the test is significant at ``alpha`` and favours the claimed winner; ``"not
        supported"`` otherwise, its reading ``"not supported: <other> better"`` when significant the other way,
        ``"not supported: no difference shown"`` when not significant; ``"not testable"`` without paired items.
        The note gives wins, losses, ties and p.

    Notes
    -----
    The items are treated as independent, which data sets are not (module docstring). A page judging several
    claims adjusts them together with :func:`holm_verdicts`.

    References
    ----------
    Demsar, J. (2006). Statistical comparisons of classifiers over multiple data sets. JMLR 7, 1-30, sections
    3.1.2-3.1.3.

    Examples
    --------
    >>> v = beats([80, 82, 85, 90, 70, 75, 88], [78, 82, 80, 85, 69, 70, 80], names=("IVDM", "DVDM"))
    >>> str(v), v.note
    ('supported', 'IVDM vs DVDM: 6 wins, 0 losses, 1 ties (within 0); two-sided sign test p = 0.031 (level 0.05)')
    """
    return compare(a, b, names=names, tolerance=tolerance, test=test).verdict(alpha)


@dataclass(frozen=True)
class Equivalence:
    """Two one-sided tests of the paired differences ``a - b`` against ``[-rope, rope]`` (or ``-rope`` alone).

    Attributes
    ----------
    names : tuple of str
        The two methods.
    n : int
        Paired items.
    missing : int
        Items set aside because one method has no value there.
    mean : float
        The mean difference ``a - b``.
    rope : float
        The half-width of the region of practical equivalence.
    sides : str
        ``"both"`` (equivalence) or ``"lower"`` (non-inferiority of ``a``).
    test : str
        One of :data:`EQUIVALENCE_TESTS`.
    p_lower, p_upper : float
        The one-sided p-values of "difference above -rope" and "difference below rope" (NaN when not tested).
    """

    names: tuple
    n: int
    missing: int
    mean: float
    rope: float
    sides: str
    test: str
    p_lower: float
    p_upper: float

    @property
    def p(self) -> float:
        """The TOST p-value: the larger of the one-sided ones tested."""
        return self.p_lower if self.sides == "lower" else max(self.p_lower, self.p_upper)

    @property
    def evidence(self) -> str:
        """The mean difference, the ROPE and the test in words."""
        a, b = self.names
        what = "equivalence (TOST)" if self.sides == "both" else "non-inferiority"
        text = (
            f"{a} - {b}: mean {self.mean:+.2f} over {self.n} items; {what} within {self.rope:g}, "
            f"{'t' if self.test == 't' else 'Wilcoxon'} p = {self.p:.2g}"
        )
        return text + (f"; {self.missing} items without both" if self.missing else "")

    def verdict(self, alpha: float = 0.05, p: float | None = None, family: int = 0) -> TestedVerdict:
        """The "about as well as" verdict at level ``alpha``; on ``p`` instead of the test's own when given
        (Holm-adjusted over ``family`` tests, said in the note)."""
        alpha = check("alpha", alpha, Real(low=0, high=1, open_low=True, open_high=True))
        p = self.p if p is None else float(p)
        if self.n < 2:
            return TestedVerdict("not testable", f"{self.evidence}: fewer than 2 paired items", test=self)
        note = f"{self.evidence} (level {alpha:g}" + (f"; Holm over {family} tests: p = {p:.2g})" if family else ")")
        if p <= alpha:
            return TestedVerdict("supported", note, reading="supported", p=p, test=self)
        a, b = self.names
        lower_fails = self.sides == "lower" or self.p_lower >= self.p_upper
        reading = f"not supported: {b if lower_fails else a} better"
        bound = f"above -{self.rope:g}" if lower_fails else f"below +{self.rope:g}"
        note = f"{reading} (the difference is not shown to lie {bound}); {note}"
        return TestedVerdict("not supported", note, reading=reading, p=p, test=self)


def equivalence(a, b, *, names=("A", "B"), rope: float = 1.0, sides: str = "both", test: str = "t") -> Equivalence:
    """The two one-sided tests of the paired differences ``a - b`` against the ROPE (:class:`Equivalence`).

    Parameters
    ----------
    a, b : Series or array-like of float
        One value per item; as for :func:`compare`.
    names : pair of str
        The two methods.
    rope : float
        Half-width of the region of practical equivalence (in the values' unit: accuracy points).
    sides : str
        ``"both"`` (equivalence) or ``"lower"`` (``a`` not worse than ``b`` by more than ``rope``).
    test : str
        ``"t"`` (one-sample t-tests of the differences, :func:`scipy.stats.ttest_1samp`) or ``"wilcoxon"``
        (signed-rank tests of the shifted differences, :func:`scipy.stats.wilcoxon`).

    Returns
    -------
    Equivalence

    References
    ----------
    Schuirmann, D. J. (1987). A comparison of the two one-sided tests procedure and the power approach for
    assessing the equivalence of average bioavailability. J. Pharmacokinet. Biopharm. 15, 657-680.

    Examples
    --------
    >>> e = equivalence([80.2, 81.0, 79.5, 90.1, 70.3], [80.0, 81.2, 79.9, 90.0, 70.0], rope=1.0)
    >>> e.n, abs(e.mean) < 0.1, e.p < 0.05
    (5, True, True)
    """
    rope = check("rope", rope, Real(low=0, open_low=True))
    sides = check("sides", sides, Choice(("both", "lower")))
    test = check("test", test, Choice(EQUIVALENCE_TESTS))
    names = tuple(str(n) for n in names)
    d, missing = _paired(a, b, names)
    x = d.to_numpy()
    p_lower = p_upper = math.nan
    if len(x) >= 2:
        if test == "t":
            p_lower = stats.ttest_1samp(x, -rope, alternative="greater").pvalue
            p_upper = stats.ttest_1samp(x, rope, alternative="less").pvalue
        else:
            p_lower = stats.wilcoxon(x + rope, alternative="greater").pvalue
            p_upper = stats.wilcoxon(x - rope, alternative="less").pvalue
        p_lower, p_upper = (1.0 if math.isnan(v) else float(v) for v in (p_lower, p_upper))
    mean = float(x.mean()) if len(x) else math.nan
    return Equivalence(names, len(x), missing, mean, rope, sides, test, p_lower, p_upper)


def equivalent(
    a, b, *, names=("A", "B"), rope: float = 1.0, alpha: float = 0.05, sides: str = "both", test: str = "t"
) -> TestedVerdict:
    """The verdict of "``names[0]`` performs about as well as ``names[1]``" by equivalence (:func:`equivalence`).

    Parameters
    ----------
    a, b : Series or array-like of float
        One value per item; as for :func:`compare`.
    names : pair of str
        The two methods.
    rope : float
        Half-width of the region of practical equivalence (e.g. 1 accuracy point), stated with the claim.
    alpha : float
        The level of each one-sided test.
    sides : str
        ``"both"`` (equivalence), ``"lower"`` (non-inferiority).
    test : str
        One of :data:`EQUIVALENCE_TESTS`.

    Returns
    -------
    TestedVerdict
        ``"supported"`` when the tests reject (the mean difference is shown to lie within the ROPE); else ``"not
        supported"``, its reading naming the side the failure falls on (``"not supported: A better"`` when the
        difference is not shown to lie below ``+rope``); ``"not testable"`` with fewer than two paired items.

    Notes
    -----
    The items are treated as independent, which data sets are not (module docstring).

    References
    ----------
    Schuirmann, D. J. (1987). J. Pharmacokinet. Biopharm. 15, 657-680 (the two one-sided tests).

    Examples
    --------
    >>> v = equivalent([83, 85, 80, 90, 75], [80, 81, 78, 86, 73], names=("OMVW", "WOM"), rope=1.0)
    >>> v.reading
    'not supported: OMVW better'
    """
    return equivalence(a, b, names=names, rope=rope, sides=sides, test=test).verdict(alpha)


@dataclass(frozen=True)
class Beats:
    """:func:`beats` as data: called on a pair ``(a, b)`` it gives the verdict; :attr:`words` say its test and level.

    A :class:`~lazylib.report.verdicts.Claim` renders its thresholds from :attr:`words` (typed once, here).

    Examples
    --------
    >>> rule = Beats(names=("IVDM", "DVDM"))
    >>> str(rule(([80, 82, 85, 90, 70, 75, 88], [78, 82, 80, 85, 69, 70, 80]))), rule.words
    ('supported', 'supported if the two-sided sign test at level 0.05 finds IVDM above DVDM, not supported otherwise')
    """

    names: tuple = ("A", "B")
    tolerance: float = 0.0
    alpha: float = 0.05
    test: str = "sign"

    def __post_init__(self):
        check("tolerance", self.tolerance, Real(low=0))
        check("alpha", self.alpha, Real(low=0, high=1, open_low=True, open_high=True))
        check("test", self.test, Choice(BEATS_TESTS))

    def __call__(self, pair) -> TestedVerdict:
        a, b = pair
        return beats(a, b, names=self.names, tolerance=self.tolerance, alpha=self.alpha, test=self.test)

    @property
    def words(self) -> str:
        """The test, its level and the tolerance in words, from the numbers."""
        name = "sign test" if self.test == "sign" else "Wilcoxon signed-rank test"
        ties = f" (differences within {self.tolerance:g} set aside as ties)" if self.tolerance else ""
        a, b = self.names
        found = f"the two-sided {name} at level {self.alpha:g} finds {a} above {b}{ties}"
        return f"supported if {found}, not supported otherwise"

    def on(self, reads) -> Reads:
        """This rule applied to ``reads(facts)``, a pair ``(a, b)``: a claim's rule."""
        return Reads(self, reads)


@dataclass(frozen=True)
class Equivalent:
    """:func:`equivalent` as data: called on a pair ``(a, b)`` it gives the verdict; :attr:`words` say its ROPE, test
    and level.

    Examples
    --------
    >>> rule = Equivalent(names=("VFI5", "1-NN"), rope=3.0)
    >>> rule.words
    'supported if both one-sided t-tests at level 0.05 put the mean of VFI5 - 1-NN within ±3, not supported otherwise'
    """

    names: tuple = ("A", "B")
    rope: float = 1.0
    alpha: float = 0.05
    sides: str = "both"
    test: str = "t"

    def __post_init__(self):
        check("rope", self.rope, Real(low=0, open_low=True))
        check("alpha", self.alpha, Real(low=0, high=1, open_low=True, open_high=True))
        check("sides", self.sides, Choice(("both", "lower")))
        check("test", self.test, Choice(EQUIVALENCE_TESTS))

    def __call__(self, pair) -> TestedVerdict:
        a, b = pair
        return equivalent(a, b, names=self.names, rope=self.rope, alpha=self.alpha, sides=self.sides, test=self.test)

    @property
    def words(self) -> str:
        """The ROPE, the tests and their level in words, from the numbers."""
        name = "t-test" if self.test == "t" else "Wilcoxon signed-rank test"
        a, b = self.names
        if self.sides == "lower":
            tested = f"the one-sided {name} at level {self.alpha:g} puts the mean of {a} - {b} above -{self.rope:g}"
        else:
            tested = f"both one-sided {name}s at level {self.alpha:g} put the mean of {a} - {b} within ±{self.rope:g}"
        return f"supported if {tested}, not supported otherwise"

    def on(self, reads) -> Reads:
        """This rule applied to ``reads(facts)``, a pair ``(a, b)``: a claim's rule."""
        return Reads(self, reads)


def conjunction(parts: Mapping) -> TestedVerdict:
    """A claim made of several tested parts, judged and shown part by part.

    Parameters
    ----------
    parts : mapping of str to TestedVerdict
        Each part's label and verdict (from :func:`beats` or :func:`equivalent`).

    Returns
    -------
    TestedVerdict
        ``"supported"`` when every part is, ``"partly supported"`` when some are, ``"not supported"`` when none
        is (``"not testable"`` when no part is testable); the note lists each part's reading and evidence.

    Examples
    --------
    >>> v = conjunction({"vs OM": beats([3, 4, 5, 6, 7, 8], [1, 2, 3, 4, 5, 6]), "vs VDM": beats([1, 2], [2, 1])})
    >>> str(v), v.reading
    ('partly supported', 'partly supported (vs OM: supported; vs VDM: not supported: no difference shown)')
    """
    if not parts:
        raise ValueError("conjunction needs at least one part (label -> verdict)")
    verdicts = [str(v) for v in parts.values()]
    tested = [v for v in verdicts if v != "not testable"]
    k = sum(v == "supported" for v in tested)
    verdict = (
        "not testable"
        if not tested
        else "supported"
        if k == len(verdicts)
        else "partly supported"
        if k
        else "not supported"
    )
    readings, notes = [], []
    for label, v in parts.items():
        reading, note = getattr(v, "reading", str(v)), getattr(v, "note", "")
        readings.append(f"{label}: {reading}")
        notes.append(f"{label}: {note if note.startswith(reading) else f'{reading}; {note}'}")
    return TestedVerdict(verdict, " | ".join(notes), reading=f"{verdict} ({'; '.join(readings)})", parts=parts)


def finding(description: str, *, holds: bool = True, inseparable: int | None = None, statistic: str = "") -> Verdict:
    """A descriptive result of the book, labelled ``"finding"`` (never ``"supported"``): it states what a statistic
    shows (the best average rank), not a claim tested against chance.

    Parameters
    ----------
    description : str
        What the statistic shows under this condition.
    holds : bool
        Whether the description holds under this condition; ``"not supported"`` when it does not (a condition
        where another method ranks best).
    inseparable : int, optional
        How many other methods the statistic cannot tell from the one described (the critical difference's
        group, less the method itself).
    statistic : str
        The statistic that cannot separate them (e.g. "Nemenyi's test at 0.05").

    Examples
    --------
    >>> v = finding("best average rank: IVDM (4.1)", inseparable=12, statistic="Nemenyi's test")
    >>> str(v), v.note
    ('finding', "best average rank: IVDM (4.1); Nemenyi's test cannot tell 12 other methods from it")
    """
    holds = check("holds", holds, Boolean())
    if inseparable is not None:
        inseparable = check("inseparable", inseparable, Integer(low=0))
    note = str(description)
    if inseparable is not None:
        by = statistic or "the statistic"
        note += f"; {by} cannot tell {int(inseparable)} other method{'s' if inseparable != 1 else ''} from it"
    return Verdict("finding" if holds else "not supported", note)


def holm(pvalues) -> np.ndarray:
    """Holm's step-down adjustment of ``m`` p-values: the i-th smallest becomes ``max_{j <= i} min(1, (m - j + 1)
    p_(j))``, so that rejecting every adjusted p-value at or below ``alpha`` keeps the family-wise error rate at
    ``alpha``.

    Parameters
    ----------
    pvalues : array-like of float
        The unadjusted p-values, in any order.

    Returns
    -------
    ndarray
        The adjusted p-values, in the order given.

    References
    ----------
    Holm, S. (1979). A simple sequentially rejective multiple test procedure. Scand. J. Statist. 6, 65-70;
    Demsar (2006), section 3.2.2.

    Examples
    --------
    >>> holm([0.01, 0.04, 0.03, 0.005]).round(3).tolist()  # 4 x 0.005, 3 x 0.01, max(2 x 0.03, .), 0.04
    [0.03, 0.06, 0.06, 0.02]
    """
    p = np.asarray(pvalues, dtype=float)
    if p.ndim != 1 or np.isnan(p).any() or (p < 0).any() or (p > 1).any():
        raise ValueError("holm needs a vector of p-values in [0, 1]")
    m = len(p)
    order = np.argsort(p, kind="stable")
    adjusted = np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * p[order]))
    out = np.empty(m)
    out[order] = adjusted
    return out


def holm_verdicts(verdicts: Mapping, alpha: float = 0.05) -> dict:
    """Re-grade a page's tested verdicts at Holm-adjusted p-values over all of their tests together.

    Parameters
    ----------
    verdicts : mapping of key to TestedVerdict
        The page's verdicts from :func:`beats`, :func:`equivalent` or :func:`conjunction` (every part of a
        conjunction is one test of the family). Untested verdicts (no ``test``) pass unchanged.
    alpha : float
        The family-wise level.

    Returns
    -------
    dict
        The same keys, each verdict graded on its adjusted p (its note gives both p-values).

    Examples
    --------
    >>> page = {"x": beats([3, 4, 5, 6, 7, 8], [1, 2, 3, 4, 5, 6]), "y": beats([2, 3, 4, 5, 6, 7], [1, 2, 3, 4, 5, 6])}
    >>> [str(v) for v in holm_verdicts(page).values()]
    ['not supported', 'not supported']
    """
    alpha = check("alpha", alpha, Real(low=0, high=1, open_low=True, open_high=True))
    leaves = [
        (key, label, v)
        for key, verdict in verdicts.items()
        for label, v in (verdict.parts.items() if getattr(verdict, "parts", None) else [(None, verdict)])
        if getattr(v, "test", None) is not None and not math.isnan(getattr(v, "p", math.nan))
    ]
    adjusted = holm([v.test.p for _, _, v in leaves]) if leaves else []
    graded = {
        (key, label): v.test.verdict(alpha, p=float(q), family=len(leaves))
        for (key, label, v), q in zip(leaves, adjusted)
    }
    out = {}
    for key, verdict in verdicts.items():
        if getattr(verdict, "parts", None):
            out[key] = conjunction({label: graded.get((key, label), v) for label, v in verdict.parts.items()})
        else:
            out[key] = graded.get((key, None), verdict)
    return out
