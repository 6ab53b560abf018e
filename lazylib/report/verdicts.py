"""One fidelity criterion for every published number, and one set of verdict rules for every claim.

Every Part of the book compares published numbers with ours and judges the papers' claims; this module is the
one place that says what "inside" means and how a claim's verdict is computed, so that the same words mean the
same thing in every Part (issue #24).

**The band.** A published number came from one run of the paper's protocol, or from the average of r runs. It is
*inside* when it lies in the range that what the paper printed would take under our protocol: the prediction
interval for one new run (or for the average of r new runs) over independent repetitions of our protocol (fold
seeds, generator seeds), widened by half a unit of the last digit the paper printed
(:func:`~lazylib.report.bands.prediction_band`). A quantity bounded to a range (an accuracy or a share,
:data:`~lazylib.report.bands.PERCENT`) gets its interval on the logit scale of that
range, so the band never crosses a bound. The band is computed in :mod:`lazylib.report.bands`, whose names this
module offers too. A protocol that is deterministic by design (a fixed published split, a
worked example) has one value, and its band is that value widened by the rounding. A published value that a bound
proven in the book rules out (a Bayes bound) is never inside: its record is of the kind ``"ruled out"``.

**Kinds.** A record says what it is (:data:`KINDS`): only ``"published"`` numbers and claims, reproducible from
the paper's own data and protocol, count as evidence in the scorecard's share inside and its verdict tallies;
``"stand-in"`` claims (a method claim judged on our collection) are counted in a column of their own.

**Verdicts.** A verdict is never typed: it is the output of a rule of this module (:func:`share_rule`,
:func:`threshold_rule`, :func:`all_of`, :func:`tiers`,
:func:`not_testable`) on our numbers, and :func:`judge` computes it under
every condition the paper leaves open (each repetition seed, each tie rule, each alternative reading the chapter
shows). The reported verdict is the primary condition's when it is also the most common one over the conditions;
otherwise it is :data:`UNSTABLE`, with its counts. A claim about methods over several data sets or cells ("A
beats B", "A about as well as B") is judged by a paired test, not a share: :mod:`lazylib.report.paired` (the sign
test or Wilcoxon's, equivalence by TOST, conjunctions part by part, Holm over a page). A share or threshold rule
stays where the paper's claim is itself a count ("on 9 of the 12 data sets"). A descriptive result (the best
average rank) gets the label :data:`FINDING` instead of a claim's verdict (:func:`lazylib.report.paired.finding`).

**Thresholds typed once.** A claim's thresholds are written in one place. A numeric rule is declarative
(:class:`Share`, :class:`Threshold`, :class:`lazylib.report.paired.Equivalent`, :class:`lazylib.report.paired.Beats`):
called on a value it gives the functional rule's verdict, and its ``words`` render its thresholds from its numbers
("supported on all 8 data sets, partly on at least 7 of 8"); ``rule.on(reads)`` applies it to the part of a
condition's facts it reads. A :class:`Claim` takes its thresholds from such a rule, and a chapter glues them
(:func:`thresholds_glue`) rather than typing them; only a rule that is a boolean condition (:func:`tiers`,
:func:`all_of`) has its thresholds typed, once, in its claim row.

>>> from lazylib.report.bands import prediction_band
>>> band = prediction_band([68.2, 67.9, 68.4, 68.1, 67.8], digits=1)
>>> band.contains(68.0), band.n
(True, 5)
>>> judgement = judge(lambda share: threshold_rule(share, supported=0.5, partly=0.25),
...                   {("random",): 0.6, ("all",): 0.4}, primary=("random",), factors=("ties",))
>>> judgement.verdict, judgement.stability
('supported', 'supported in 1 of 2 conditions; partly supported under ties=all')
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from lazylib._validation import Boolean, Real, check

#: What a record is. Only ``"published"`` counts as evidence (share inside, verdict tallies):
#:
#: - ``published``: a published number or claim, reproduced from the paper's data and protocol;
#: - ``constructed``: chosen, built or seeded to match (a worked example, not evidence);
#: - ``stand-in``: computed on other data than the paper's;
#: - ``property``: true by construction of the method, whatever the data;
#: - ``finding``: a result of this book beyond the papers;
#: - ``derived``: computed from other published numbers of the same paper (a reduction from a count), so not
#:   counted a second time;
#: - ``ruled out``: a published value that a bound proven in the book excludes (a Bayes bound): never inside.
KINDS = ("published", "constructed", "stand-in", "property", "finding", "derived", "ruled out")

#: The type of the note of a published number outside its band: ``explained`` (a computed alternative reading,
#: shown in the book, puts it inside; the note names the reading), ``tested`` (readings computed and listed with
#: their values, none puts it inside), ``untested`` (words only).
NOTE_KINDS = ("explained", "tested", "untested")

#: The verdicts a paper's claim can get, strongest first.
CLAIM_VERDICTS = ("supported", "partly supported", "not supported", "not testable")

#: The label of a descriptive result of the book (a record of the kind ``"finding"``): what a statistic shows,
#: such as the best average rank, rather than a claim tested against chance. It is neither supported nor not,
#: its note says how many methods the statistic cannot separate from the one it names, and it is never counted
#: among the claims' verdicts (:data:`TALLIED`).
FINDING = "finding"

#: Every verdict a rule can give: a claim's (:data:`CLAIM_VERDICTS`) or :data:`FINDING`.
VERDICTS = (*CLAIM_VERDICTS, FINDING)

#: The reported verdict of a claim whose primary condition's verdict is not the most common over its conditions.
UNSTABLE = "unstable"

#: What the scorecard reports for a record: one of :data:`VERDICTS`, or :data:`UNSTABLE`.
REPORTED = (*VERDICTS, UNSTABLE)

#: What the scorecard tallies for the claims (published and stand-in): :data:`REPORTED` without :data:`FINDING`,
#: which only a record of the kind ``"finding"`` may carry.
TALLIED = (*CLAIM_VERDICTS, UNSTABLE)


def check_kind(kind: str) -> str:
    """``kind`` if it is one of :data:`KINDS`, else a ``ValueError`` naming them."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    return kind


def check_verdict(verdict: str) -> str:
    """``verdict`` if it is one of :data:`VERDICTS`, else a ``ValueError`` naming them."""
    if verdict not in VERDICTS:
        raise ValueError(f"verdict must be one of {VERDICTS}, got {verdict!r}")
    return str(verdict)


# ------------------------------------------------------------------------------------------------------ rules


class Verdict(str):
    """A verdict (one of :data:`VERDICTS`) with a note on how close it came to another one."""

    note: str

    def __new__(cls, verdict: str, note: str = ""):
        obj = super().__new__(cls, check_verdict(verdict))
        obj.note = str(note)
        return obj


def _grade(score: float, supported: float, partly: float, higher: bool) -> str:
    if higher:
        return "supported" if score >= supported else "partly supported" if score >= partly else "not supported"
    return "supported" if score <= supported else "partly supported" if score <= partly else "not supported"


def _thresholds(supported, partly, higher, spec=None):
    spec = Real() if spec is None else spec
    supported, partly = check("supported", supported, spec), check("partly", partly, spec)
    higher = check("higher", higher, Boolean())
    if (higher and partly > supported) or (not higher and partly < supported):
        raise ValueError(
            f"the 'partly' threshold {partly} must lie on the weaker side of the 'supported' "
            f"threshold {supported} (higher={higher})"
        )
    return supported, partly


def threshold_rule(value, *, supported: float, partly: float, higher: bool = True, what: str = "value") -> Verdict:
    """Supported when ``value`` reaches ``supported``, partly when it reaches ``partly``, else not supported.

    ``higher=False`` reverses the direction (a value at most ``supported`` is supported). The returned
    :class:`Verdict` carries a ``note`` with the distance to the nearest threshold and the verdict on its other
    side, so a verdict inside the noise of its threshold says so. A NaN value is ``"not testable"``.

    Examples
    --------
    >>> v = threshold_rule(0.508, supported=0.5, partly=0.25, what="loss ratio")
    >>> str(v), v.note
    ('supported', 'loss ratio 0.508; nearest threshold 0.5 (supported), 0.008 away; beyond it: partly supported')
    """
    supported, partly = _thresholds(supported, partly, higher)
    value = float(value)
    if math.isnan(value):
        return Verdict("not testable", f"{what} is undefined (NaN)")
    verdict = _grade(value, supported, partly, higher)
    nearest = min((supported, partly), key=lambda t: abs(value - t))
    label = "supported" if nearest == supported else "partly"
    step = 1e-9 * max(1.0, abs(nearest))
    beyond = nearest - step if value >= nearest else nearest + step
    other = _grade(beyond, supported, partly, higher)
    if other == verdict:  # the value sits exactly on the threshold: the other side is the other verdict
        other = _grade(nearest + step if value >= nearest else nearest - step, supported, partly, higher)
    note = (
        f"{what} {value:.3g}; nearest threshold {nearest:g} ({label}), {abs(value - nearest):.3g} away; "
        f"beyond it: {other}"
    )
    return Verdict(verdict, note)


def _booleans(agree) -> np.ndarray:
    if isinstance(agree, Mapping):
        agree = list(agree.values())
    values = np.asarray(agree if not isinstance(agree, pd.Series) else agree.to_numpy(), dtype=object).ravel()
    if not all(isinstance(v, (bool, np.bool_)) for v in values):
        raise ValueError(
            "share_rule and all_of need one boolean per item (e.g. 'same data set, same sign'), not counts"
        )
    return values.astype(bool)


def share_rule(agree, *, supported: float, partly: float, what: str = "items") -> Verdict:
    """Judge a claim item by item: the share of items (data sets, cells) on which our numbers agree with it.

    Parameters
    ----------
    agree : sequence, Series or mapping of bool
        One boolean per item the claim names, True when our result agrees with the claim *on that item*,
        direction included (same data set, same sign): pass identities, not counts.
    supported, partly : float
        The shares (0-1) from which the claim is supported and partly supported.

    Returns
    -------
    Verdict
        With a note giving the share and the nearest threshold; ``"not testable"`` when there is no item.

    Examples
    --------
    >>> str(share_rule([True, True, False, True], supported=1.0, partly=0.5))
    'partly supported'
    """
    _thresholds(supported, partly, True, Real(low=0, high=1))
    values = _booleans(agree)
    if values.size == 0:
        return Verdict("not testable", f"no {what} to judge")
    k, n = int(values.sum()), values.size
    inner = threshold_rule(k / n, supported=supported, partly=partly, what="share")
    return Verdict(inner, f"{k} of {n} {what} agree; {inner.note}")


def all_of(*conditions: bool) -> Verdict:
    """Supported when every condition holds, partly supported when some do, not supported when none does.

    Examples
    --------
    >>> str(all_of(True, False, True))
    'partly supported'
    """
    values = _booleans(list(conditions))
    if values.size == 0:
        raise ValueError("all_of needs at least one condition")
    k = int(values.sum())
    verdict = "supported" if k == values.size else "partly supported" if k else "not supported"
    return Verdict(verdict, f"{k} of {values.size} conditions hold")


def tiers(*, supported: bool, partly: bool, note: str = "") -> Verdict:
    """Supported when the claim's full condition holds, partly supported when only its weaker condition does.

    For claims whose weaker reading is not a share or a threshold (e.g. "none degrades; else each degrades less
    than OM").

    Examples
    --------
    >>> str(tiers(supported=False, partly=True))
    'partly supported'
    """
    supported, partly = check("supported", supported, Boolean()), check("partly", partly, Boolean())
    verdict = "supported" if supported else "partly supported" if partly else "not supported"
    return Verdict(verdict, note)


def not_testable(reason: str) -> Verdict:
    """The verdict of a claim our data or protocol cannot test, with the reason (required)."""
    if not str(reason).strip():
        raise ValueError("not_testable needs the reason the claim cannot be tested")
    return Verdict("not testable", str(reason))


# ---------------------------------------------------------------------------------------- declarative rules


def _compare(value: float, higher: bool) -> str:
    """The condition a threshold sets, in symbols ("≥ 10", "≤ 60"; "> 0" for a hair above 0)."""
    whole = round(value)
    if value != whole and abs(value - whole) < 1e-6:  # set a hair off a whole number: strictly beyond it
        return f"{'>' if higher else '<'} {whole:g}"
    return f"{'≥' if higher else '≤'} {value:g}"


@dataclass(frozen=True)
class Threshold:
    """:func:`threshold_rule` as data: called on a value it gives the verdict; its :attr:`words` say its thresholds.

    Parameters are :func:`threshold_rule`'s. A claim's thresholds are typed once, here: :class:`Claim` renders
    its ``thresholds`` from :attr:`words`, and the chapter glues them (:func:`thresholds_glue`).

    Examples
    --------
    >>> rule = Threshold(supported=10, partly=2, what="CACP's lead (points)")
    >>> str(rule(4.2)), rule.words
    ('partly supported', "supported if CACP's lead (points) ≥ 10, partly if ≥ 2")
    >>> Threshold(supported=60, partly=70, higher=False, what="NN at 11 (%)").words
    'supported if NN at 11 (%) ≤ 60, partly if ≤ 70'
    """

    supported: float
    partly: float
    higher: bool = True
    what: str = "value"

    def __post_init__(self):
        _thresholds(self.supported, self.partly, self.higher)

    def __call__(self, value) -> Verdict:
        return threshold_rule(value, supported=self.supported, partly=self.partly, higher=self.higher, what=self.what)

    @property
    def words(self) -> str:
        """The thresholds in words, from the numbers."""
        head = f"supported if {self.what} {_compare(self.supported, self.higher)}"
        if self.partly == self.supported:
            return f"{head}, not supported otherwise"
        return f"{head}, partly if {_compare(self.partly, self.higher)}"

    def on(self, reads: Callable) -> Reads:
        """This rule applied to ``reads(facts)``: the rule of a :class:`Claim` whose facts hold more than the value."""
        return Reads(self, reads)


def _count(share: float, n: int | None) -> str:
    """The least count of ``n`` items whose share reaches ``share``, in words ("all 8", "at least 7 of 8")."""
    if n is None:
        if share == 1:
            return "all"
        return "at least half" if share == 0.5 else f"at least {100 * share:g} %"
    k = math.ceil(share * n - 1e-9)
    return f"all {n}" if k == n else "any number" if k <= 0 else f"at least {k} of {n}"


@dataclass(frozen=True)
class Share:
    """:func:`share_rule` as data: called on one boolean per item it gives the verdict; :attr:`words` say its
    thresholds as counts.

    Parameters
    ----------
    supported, partly : float
        The shares (0-1), as for :func:`share_rule`.
    what : str
        The items, plural ("data sets").
    n : int, optional
        How many items the claim names, for the words only ("all 8", "at least 7 of 8"): the rule itself reads
        the share of whatever items it is given. Without it the words give the shares ("all", "at least half").

    Examples
    --------
    >>> rule = Share(supported=1.0, partly=7 / 8, what="data sets", n=8)
    >>> str(rule([True] * 7 + [False])), rule.words
    ('partly supported', 'supported on all 8 data sets, partly on at least 7 of 8')
    >>> Share(supported=1.0, partly=0.5, what="data sets").words
    'supported on all data sets, partly on at least half'
    """

    supported: float
    partly: float
    what: str = "items"
    n: int | None = None

    def __post_init__(self):
        _thresholds(self.supported, self.partly, True, Real(low=0, high=1))
        if self.n is not None and (not isinstance(self.n, int) or self.n < 1):
            raise ValueError(f"Share(n=...) is the number of items the claim names, a positive int; got {self.n!r}")

    def __call__(self, agree) -> Verdict:
        return share_rule(agree, supported=self.supported, partly=self.partly, what=self.what)

    @property
    def words(self) -> str:
        """The thresholds in words, from the numbers (and the count of items the claim names)."""
        head = f"supported on {_count(self.supported, self.n)} {self.what}"
        if self.partly == self.supported:
            return f"{head}, not supported otherwise"
        return f"{head}, partly on {_count(self.partly, self.n)}"

    def on(self, reads: Callable) -> Reads:
        """This rule applied to ``reads(facts)`` (the booleans of the facts): a :class:`Claim`'s rule."""
        return Reads(self, reads)


@dataclass(frozen=True)
class Reads:
    """A declarative rule (:class:`Share`, :class:`Threshold`, :class:`~lazylib.report.paired.Equivalent`) applied to
    the part of the facts that ``reads`` picks: ``Reads(rule, reads)(facts) == rule(reads(facts))``; its
    :attr:`words` are the rule's. Made by the rule's ``on``: ``Share(...).on(lambda f: f["alike"])``.
    """

    rule: Callable
    reads: Callable = field(repr=False)

    def __call__(self, facts) -> Verdict:
        return self.rule(self.reads(facts))

    @property
    def words(self) -> str:
        """The rule's thresholds in words."""
        return self.rule.words


def _slug(key: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", str(key).lower()).strip("-")
    if not slug:
        raise ValueError(f"claim key {key!r} has no letter or digit to name its glue key by")
    return slug


def thresholds_glue(claims: Iterable[Claim]) -> dict[str, str]:
    """Each claim's thresholds in words under its glue key (``"<key>-thresholds"``, the key lower-cased, each run of
    other characters a hyphen): a chapter glues them (``for key, words in thresholds_glue(CLAIMS).items(): glue(key,
    words, display=False)``) and its prose reads ``{glue:text}`h1-thresholds```, never typing them again.

    Examples
    --------
    >>> c = Claim("H1", "MVDM and VDM alike", "data sets alike", rule=Share(1.0, 7 / 8, "data sets", n=8).on(
    ...     lambda f: f["alike"]), evidence=str)
    >>> thresholds_glue([c])
    {'h1-thresholds': 'supported on all 8 data sets, partly on at least 7 of 8'}
    """
    out: dict[str, str] = {}
    for claim in claims:
        key = claim.glue_key
        if key in out:
            raise ValueError(f"two claims share the glue key {key!r}: give them keys that differ in letters or digits")
        out[key] = claim.thresholds
    return out


# ------------------------------------------------------------------------------------------------- judgement


@dataclass(frozen=True)
class Judgement:
    """A claim's verdict over its conditions: the primary condition's when it is also the most common one.

    Attributes
    ----------
    verdict : str
        The reported verdict: the rule's output on the primary condition when no other verdict is more common
        over the conditions, else :data:`UNSTABLE`.
    stability : str
        ``"stable (N conditions)"``, or which conditions give which other verdict; an unstable verdict's line
        starts with its counts ("supported in 1 of 30 conditions: unstable; ...").
    note : str
        The rule's note on the primary condition (e.g. the margin to the nearest threshold).
    conditions : DataFrame
        One row per condition: its factors and its ``verdict``.
    primary : dict
        The primary condition.
    primary_verdict : str
        The rule's output on the primary condition (one of :data:`VERDICTS`).
    """

    verdict: str
    stability: str
    note: str
    conditions: pd.DataFrame = field(repr=False)
    primary: dict = field(default_factory=dict)
    primary_verdict: str = ""

    def __str__(self) -> str:
        return self.verdict

    @property
    def n_conditions(self) -> int:
        """How many conditions the verdict was computed under."""
        return len(self.conditions)

    @property
    def counts(self) -> dict[str, int]:
        """How many conditions give each verdict, most common first."""
        return dict(Counter(self.conditions["verdict"]).most_common())

    @property
    def unstable(self) -> bool:
        """True when another verdict is more common over the conditions than the primary condition's."""
        return self.verdict == UNSTABLE

    @property
    def stable(self) -> bool:
        """True when every condition gives the primary verdict."""
        return bool((self.conditions["verdict"] == (self.primary_verdict or self.verdict)).all())

    def by(self, factor: str) -> pd.Series:
        """The verdicts per level of one factor, as text ("supported", or "supported 7 / partly 3")."""
        out = {}
        for level, group in self.conditions.groupby(factor, sort=False):
            counts = Counter(group["verdict"])
            out[level] = next(iter(counts)) if len(counts) == 1 else " / ".join(f"{v} {k}" for v, k in counts.items())
        return pd.Series(out, name=factor)


@dataclass(frozen=True)
class Claim:
    """One claim of a paper as data: its words, what it measures, its rule and thresholds, its kind.

    Attributes
    ----------
    key : str
        A short name (for glue keys and tables).
    words : str
        The claim as the book states it (the scorecard's text).
    measure : str
        What the rule reads, in words.
    thresholds : str
        The rule's thresholds in words (declared before the results, or said to be written after). Typed once:
        a declarative rule (one with ``words``: :class:`Share`, :class:`Threshold`, their ``on``, the paired
        rules of :mod:`lazylib.report.paired`) renders them, and typing them too is refused; a rule that is a
        plain function (a boolean condition, :func:`tiers`, :func:`all_of`) needs them typed here. A chapter
        glues them (:func:`thresholds_glue`).
    rule : callable
        ``rule(facts) -> Verdict``: a rule of this module applied to the facts of one condition, or a declarative
        rule (``Share(...).on(lambda f: f["alike"])``).
    evidence : callable
        ``evidence(facts) -> str``: the numbers behind the verdict, for the primary condition's note.
    kind : str
        One of :data:`KINDS` ("published"; "stand-in" for a method claim judged on other data).
    """

    key: str
    words: str
    measure: str
    thresholds: str = ""
    rule: Callable | None = field(default=None, repr=False)
    evidence: Callable | None = field(default=None, repr=False)
    kind: str = "published"

    def __post_init__(self):
        check_kind(self.kind)
        if not callable(self.rule) or not callable(self.evidence):
            raise ValueError(f"claim {self.key!r}: give its rule (rule=...) and its evidence (evidence=...)")
        rendered = getattr(self.rule, "words", None)
        if rendered is not None and self.thresholds:
            raise ValueError(
                f"claim {self.key!r}: its rule renders its thresholds ({rendered!r}); drop thresholds=... so they "
                "are typed once"
            )
        if rendered is None and not str(self.thresholds).strip():
            raise ValueError(
                f"claim {self.key!r}: its rule is a plain function, so type its thresholds once (thresholds=...), "
                "or give a declarative rule (Share, Threshold, ...) that renders them"
            )
        if rendered is not None:
            object.__setattr__(self, "thresholds", str(rendered))

    @property
    def glue_key(self) -> str:
        """The key a chapter glues this claim's thresholds under (:func:`thresholds_glue`): ``"h1-thresholds"``."""
        return f"{_slug(self.key)}-thresholds"

    def judge(self, conditions, *, primary, factors: Iterable[str] | None = None) -> tuple[Judgement, str]:
        """This claim's :class:`Judgement` over ``conditions`` (condition -> facts, as for :func:`judge`) and its
        evidence under the primary condition."""
        judgement = judge(self.rule, conditions, primary=primary, factors=factors)
        labelled = _labels(conditions, tuple(factors) if factors is not None else None)
        facts = next(data for label, data in labelled if label == judgement.primary)
        return judgement, str(self.evidence(facts))


def _labels(conditions, factors):
    """(label dict, data) pairs from a mapping keyed by tuples (named by ``factors``) or dicts, or pairs."""
    items = list(conditions.items()) if isinstance(conditions, Mapping) else list(conditions)
    out = []
    for key, data in items:
        if isinstance(key, Mapping):
            label = dict(key)
        else:
            key = key if isinstance(key, tuple) else (key,)
            if hasattr(key, "_fields"):
                label = dict(zip(key._fields, key))
            elif factors is None or len(factors) != len(key):
                raise ValueError(f"condition {key!r}: name its factors (factors=...) or use a dict label")
            else:
                label = dict(zip(factors, key))
        out.append((label, data))
    return out


def judge(rule: Callable, conditions, *, primary, factors: Iterable[str] | None = None) -> Judgement:
    """Apply one verdict rule under every condition; the verdict is the primary condition's if it is the most common.

    Parameters
    ----------
    rule : callable
        ``rule(data) -> verdict`` (one of :data:`VERDICTS`; usually a rule of this module applied to ``data``).
    conditions : mapping or iterable of pairs
        Condition -> the data the rule reads. A condition is a dict of named factors (``{"seed": 3, "ties":
        "random"}``, given as ``(dict, data)`` pairs), a named tuple, or a tuple whose factors ``factors`` names.
        Use every repetition seed, every tie rule the paper leaves open and every reading the chapter shows.
    primary : dict or tuple
        The condition whose verdict is reported (the chapter's a-priori reading).
    factors : sequence of str, optional
        The names of the factors of plain tuple conditions.

    Returns
    -------
    Judgement
        ``verdict`` is the primary condition's when no other verdict is more common over the conditions (a tie
        for the most common keeps it), else :data:`UNSTABLE`; ``primary_verdict`` keeps the primary condition's.
        ``stability`` is ``"stable (N conditions)"`` when every condition agrees, else e.g. ``"supported in 7 of
        10 seeds; partly supported in 3 more"`` or ``"supported in 20 of 30 conditions; partly supported under
        ties=first"``: the primary verdict's count, then each factor level
        under which every condition gives the same other verdict, then the remaining other verdicts' counts.
    """
    factors = tuple(factors) if factors is not None else None
    labelled = _labels(conditions, factors)
    if not labelled:
        raise ValueError("judge needs at least one condition")
    names = list(dict.fromkeys(name for label, _ in labelled for name in label))
    if isinstance(primary, Mapping):
        primary = dict(primary)
    else:
        primary = _labels({primary: None}, factors)[0][0]
    rows, primary_verdict = [], None
    for label, data in labelled:
        verdict = rule(data)
        check_verdict(str(verdict))
        rows.append({**{n: label.get(n) for n in names}, "verdict": str(verdict)})
        if label == primary:
            primary_verdict = verdict
    if primary_verdict is None:
        raise ValueError(f"the primary condition {primary} is not among the conditions")
    table = pd.DataFrame(rows, columns=[*names, "verdict"])
    verdict = str(primary_verdict)
    counts = Counter(table["verdict"])
    stability = _stability(table, names, verdict)
    reported = verdict
    if counts[verdict] < max(counts.values()):
        reported = UNSTABLE
        head, _, rest = stability.partition("; ")
        stability = f"{head}: unstable" + (f"; {rest}" if rest else "")
    note = getattr(primary_verdict, "note", "")
    return Judgement(reported, stability, note, table, primary, verdict)


def _stability(table: pd.DataFrame, names: list[str], verdict: str) -> str:
    n = len(table)
    if (table["verdict"] == verdict).all():
        return f"stable ({n} condition{'s' if n != 1 else ''})"
    varying = [f for f in names if table[f].nunique(dropna=False) > 1]
    unit = "seeds" if varying == ["seed"] else "conditions"
    parts = [f"{verdict} in {int((table['verdict'] == verdict).sum())} of {n} {unit}"]
    explained = pd.Series(False, index=table.index)
    for factor in varying:
        levels: dict[str, list] = {}
        for level, group in table.groupby(factor, sort=False):
            others = set(group["verdict"])
            if (
                len(others) == 1
                and verdict not in others
                and len(group) < n
                and (len(group) > 1 or table[factor].nunique(dropna=False) <= 3)
            ):
                levels.setdefault(next(iter(others)), []).append(level)
                explained |= table[factor] == level
        parts += [f"{other} under {factor}={', '.join(map(str, where))}" for other, where in levels.items()]
    rest = table[~explained & (table["verdict"] != verdict)]
    if len(rest):
        counts = Counter(rest["verdict"])
        parts.append(", ".join(f"{v} in {k} more" for v, k in counts.items()))
    return "; ".join(parts)
