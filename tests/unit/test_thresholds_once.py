"""Thresholds typed once (issue #50 item 2): a claim renders its thresholds' words from its rule, the chapters glue
them, and nothing types them a second time.

- Every :class:`~lazylib.report.verdicts.Claim` of every Part's claim tables has thresholds; where its rule is
  declarative (:class:`~lazylib.report.verdicts.Share`, :class:`~lazylib.report.verdicts.Threshold`, the paired
  :class:`~lazylib.report.paired.Equivalent` and :class:`~lazylib.report.paired.Beats`) they are its rule's words,
  and the words say what the rule does: read back, the numbers and comparisons they state give the rule's verdict
  on every value tried.
- A chapter that judges a claim table with rendered thresholds glues them (``thresholds_glue``), every
  ``{glue:text}`...-thresholds``` names a claim's glue key, and its prose types no threshold ("supported if ...",
  "partly supported if ...") outside a glued value.
"""

from __future__ import annotations

import ast
import importlib
import math
import pkgutil
import re
from pathlib import Path

import jupytext
import pytest

import lazylib.protocols
from lazylib.report.paired import Beats, Equivalent, equivalent
from lazylib.report.verdicts import Claim, Reads, Share, Threshold, thresholds_glue, tiers

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted((ROOT / "book").rglob("*.md"))


def _claim_tables() -> dict[str, tuple[Claim, ...]]:
    """Every module-level claim table (a tuple or list of Claims, or one Claim) of ``lazylib.protocols``, by name."""
    tables = {}
    for info in pkgutil.walk_packages(lazylib.protocols.__path__, "lazylib.protocols."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if isinstance(value, Claim):
                value = (value,)
            elif isinstance(value, dict):  # a table keyed by what it compares (Part III's INTERPOLATION_CLAIMS)
                value = tuple(value.values())
            if isinstance(value, tuple | list) and value and all(isinstance(c, Claim) for c in value):
                tables.setdefault(name, ())
                tables[name] = tuple(dict.fromkeys((*tables[name], *value)))
    return tables


TABLES = _claim_tables()
CLAIMS = [c for table in TABLES.values() for c in table]
RENDERED = [c for c in CLAIMS if getattr(c.rule, "words", None) is not None]


def test_the_claim_tables_are_found_and_most_numeric_rules_render_their_words():
    assert {"TABLE2_CLAIMS", "LED_CLAIMS", "FIGURE6_CLAIMS", "METHOD_CLAIMS", "EFFICIENCY_CLAIMS"} <= set(TABLES)
    assert len(CLAIMS) >= 90 and len(RENDERED) >= 40


@pytest.mark.parametrize("claim", CLAIMS, ids=lambda c: c.key)
def test_every_claim_states_its_thresholds(claim):
    assert claim.thresholds.strip(), f"claim {claim.key!r} has no thresholds"
    rendered = getattr(claim.rule, "words", None)
    assert rendered is None or claim.thresholds == rendered


# --------------------------------------------------------------------------- the words say what the rule does

OPS = {"≥": float.__ge__, "≤": float.__le__, ">": float.__gt__, "<": float.__lt__}
CONDITION = re.compile(r"(supported|partly) if (?:.*? )?([≥≤<>]) (-?[\d.e+-]+)")


def read_threshold_words(words: str):
    """The verdict a reader of ``words`` (``Threshold.words``) gives a value: each tier's comparison, read back."""
    tiers_ = [(tier, OPS[op], float(num)) for tier, op, num in CONDITION.findall(words)]
    assert tiers_ and tiers_[0][0] == "supported", f"no 'supported if <what> <op> <number>' in {words!r}"
    assert len(tiers_) == 2 or "not supported otherwise" in words, words

    def verdict(value: float) -> str:
        for tier, op, num in tiers_:
            if op(float(value), num):
                return "supported" if tier == "supported" else "partly supported"
        return "not supported"

    return verdict, [num for _, _, num in tiers_]


def read_share_words(words: str, n_items: int):
    """The verdict a reader of ``words`` (``Share.words``) gives ``k`` agreeing items of ``n_items``."""
    counts = r"all(?: \d+)?|at least (\d+) of (\d+)|at least half|at least ([\d.]+) %"
    found = re.findall(rf"(supported|partly) on ({counts})", words)
    assert found and found[0][0] == "supported", words

    def least(phrase, k_of, _n, percent):
        if phrase.startswith("all"):
            return n_items
        if k_of:
            return int(k_of)
        share = 0.5 if phrase == "at least half" else float(percent) / 100
        return math.ceil(share * n_items - 1e-9)

    bars = [(tier, least(*rest)) for tier, *rest in found]
    return lambda k: next(("supported" if t == "supported" else "partly supported" for t, bar in bars if k >= bar),
                          "not supported")  # fmt: skip


def _probe(rule: Threshold, numbers) -> list[float]:
    out = []
    for num in (rule.supported, rule.partly, *numbers):
        step = 1e-6 * max(1.0, abs(num))
        out += [num - 10 * step, num - step / 100, num, num + step / 100, num + 10 * step]
    return [*out, -1e9, 1e9]


def check_words(rule) -> None:
    """Raise AssertionError when a declarative rule's words do not say what it does."""
    rule = rule.rule if isinstance(rule, Reads) else rule
    if isinstance(rule, Threshold):
        reader, numbers = read_threshold_words(rule.words)
        for value in _probe(rule, numbers):
            assert reader(value) == str(rule(value)), f"{rule.words!r} at {value!r}: rule says {rule(value)}"
    elif isinstance(rule, Share):
        for n_items in [rule.n] if rule.n else range(1, 13):
            reader = read_share_words(rule.words, n_items)
            for k in range(n_items + 1):
                agree = [True] * k + [False] * (n_items - k)
                assert reader(k) == str(rule(agree)), f"{rule.words!r} on {k} of {n_items}: rule says {rule(agree)}"
    elif isinstance(rule, Equivalent):
        assert f"±{rule.rope:g}" in rule.words or f"-{rule.rope:g}" in rule.words, rule.words
        assert f"level {rule.alpha:g}" in rule.words and all(name in rule.words for name in rule.names), rule.words
    elif isinstance(rule, Beats):
        assert f"level {rule.alpha:g}" in rule.words and all(name in rule.words for name in rule.names), rule.words
    else:
        raise AssertionError(f"no check of the words of {type(rule).__name__}")


@pytest.mark.parametrize("claim", RENDERED, ids=lambda c: c.key)
def test_a_claims_rendered_words_say_what_its_rule_does(claim):
    check_words(claim.rule)


def test_words_that_disagree_with_the_rule_fail_the_check():
    class Wrong(Threshold):
        @property
        def words(self):  # typed by hand, one number off
            return "supported if lead ≥ 10, partly if ≥ 3"

    check_words(Threshold(supported=10, partly=2, what="lead"))
    with pytest.raises(AssertionError):
        check_words(Wrong(supported=10, partly=2, what="lead"))

    class WrongShare(Share):
        @property
        def words(self):
            return "supported on all 8 data sets, partly on at least 7 of 8"

    check_words(Share(supported=1.0, partly=0.75, what="data sets", n=8))
    with pytest.raises(AssertionError):
        check_words(WrongShare(supported=1.0, partly=0.75, what="data sets", n=8))


def test_the_words_of_each_rule_from_its_numbers():
    assert Share(supported=1.0, partly=7 / 8, what="data sets", n=8).words == (
        "supported on all 8 data sets, partly on at least 7 of 8"
    )
    assert Share(supported=6 / 8, partly=4 / 8, what="tasks", n=8).words == (
        "supported on at least 6 of 8 tasks, partly on at least 4 of 8"
    )
    assert Share(supported=1.0, partly=0.5, what="cells").words == "supported on all cells, partly on at least half"
    assert Threshold(supported=2, partly=1e-9, what="rise (points)").words == (
        "supported if rise (points) ≥ 2, partly if > 0"
    )
    assert Threshold(supported=1, partly=1, what="folds that differ").words == (
        "supported if folds that differ ≥ 1, not supported otherwise"
    )
    assert Threshold(supported=60, partly=70, higher=False, what="NN (%)").words == (
        "supported if NN (%) ≤ 60, partly if ≤ 70"
    )
    assert "within ±3" in Equivalent(names=("VFI5", "1-NN"), rope=3.0).words
    assert "above -1" in Equivalent(names=("A", "B"), rope=1.0, sides="lower").words
    assert "sign test at level 0.05 finds A above B" in Beats(names=("A", "B")).words


def test_a_declarative_rule_gives_the_functional_rules_verdict():
    a, b = [80.2, 81.0, 79.5, 90.1, 70.3], [80.0, 81.2, 79.9, 90.0, 70.0]
    rule = Equivalent(names=("A", "B"), rope=1.0)
    assert rule((a, b)).note == equivalent(a, b, names=("A", "B"), rope=1.0).note
    reads = Share(supported=1.0, partly=0.5, what="data sets").on(lambda f: f["agree"])
    assert str(reads({"agree": [True, False]})) == "partly supported" and reads.words.startswith("supported on all")
    assert str(Threshold(supported=2, partly=1e-9)(0.0)) == "not supported"


def test_a_claim_refuses_thresholds_typed_twice_or_not_at_all():
    share = Share(supported=1.0, partly=0.5, what="data sets")
    with pytest.raises(ValueError, match="typed once"):
        Claim("k", "w", "m", "supported on all, partly on half", rule=share, evidence=str)
    with pytest.raises(ValueError, match="type its thresholds once"):
        Claim("k", "w", "m", rule=lambda f: tiers(supported=f, partly=f), evidence=str)
    with pytest.raises(ValueError, match="rule"):
        Claim("k", "w", "m", "typed")
    with pytest.raises(ValueError, match="glue key"):
        thresholds_glue([Claim("H 1", "w", "m", rule=share, evidence=str), Claim("h-1", "w", "m", rule=share,
                                                                                 evidence=str)])  # fmt: skip
    with pytest.raises(ValueError, match="positive int"):
        Share(supported=1.0, partly=0.5, n=0)


# ------------------------------------------------------------------------------------------ the chapters glue them

#: A threshold typed in prose: a verdict followed by its condition, or a condition followed by its verdict
#: ("on all 18 curves: supported; on at least half: partly supported").
TYPED = re.compile(
    r"\b(?:partly supported|supported|partly) (?:if|when|on all|on at least|from|up to|for|in every|at most|above)\b"
    r"|: (?:partly )?supported[;,]",
    re.IGNORECASE,
)
ROLE = re.compile(r"\{glue(?::\w+)?\}`[^`]*`")
GLUED = re.compile(r"\{glue(?::\w+)?\}`([^`:]+-thresholds)`")

#: Pages whose prose still types its claims' thresholds: Part VI's pages, whose claims are
#: ``lazylib.protocols.bench.claims.Claim`` rows (paired tests without a thresholds field, not yet the shared type).
NOT_YET = {"bench/02_ranking.md", "bench/03_papers.md", "bench/index.md"}


def typed_thresholds(source: str) -> list[str]:
    """The prose passages of a page (MyST Markdown) that type a threshold rather than glue it."""
    notebook = jupytext.reads(source, fmt="md:myst")
    found = []
    for cell in notebook.cells:
        if cell.cell_type != "markdown":
            continue
        text = ROLE.sub("GLUED", re.sub(r"\s+", " ", cell.source))
        found += [text[max(0, m.start() - 60) : m.end() + 60] for m in TYPED.finditer(text)]
    return found


def _code(source: str) -> str:
    """A page's code cells, their magics and shell lines left out."""
    notebook = jupytext.reads(source, fmt="md:myst")
    cells = [cell.source for cell in notebook.cells if cell.cell_type == "code"]
    return "\n".join(line for cell in cells for line in cell.split("\n") if not line.lstrip().startswith(("%", "!")))


#: Each claim's glue key, with the tables that hold the claim.
KEYS: dict[str, set[str]] = {}
for _name, _table in TABLES.items():
    for _claim in _table:
        KEYS.setdefault(_claim.glue_key, set()).add(_name)


def unglued_keys(source: str) -> list[str]:
    """The ``...-thresholds`` keys a page's prose reads that no claim renders, or whose claim table the page's code
    does not glue (``thresholds_glue(<table>)``)."""
    calls = [
        ast.unparse(node)
        for node in ast.walk(ast.parse(_code(source)))
        if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "thresholds_glue"
    ]
    glued = {name for call in calls for name in re.findall(r"\b([A-Z0-9_]+_CLAIMS?)\b", call)}
    return sorted(k for k in set(GLUED.findall(source)) if not KEYS.get(k, set()) & glued)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT / "book")))
def test_a_page_glues_its_claims_thresholds_and_types_none(page):
    source = page.read_text()
    unglued = unglued_keys(source)
    assert not unglued, f"{page.name} reads {unglued}: no claim table the page glues (thresholds_glue) holds them"
    if str(page.relative_to(ROOT / "book")) in NOT_YET:
        return
    typed = typed_thresholds(source)
    assert not typed, f"{page.name} types thresholds a claim row states; glue them instead:\n" + "\n".join(typed)


def test_a_page_that_types_a_threshold_or_glues_an_unknown_key_fails():
    typed = "Prose.\n\n- **H1**, alike: the share of data sets; supported if all eight, partly supported if seven.\n"
    assert typed_thresholds("- **linear**: on all 18 curves: supported; on at least half: partly supported.\n")
    glued = "Prose.\n\n- **H1**, alike: the share of data sets; {glue:text}`h1-thresholds`.\n"
    code = "\n```{code-cell} ipython3\nfor k, w in thresholds_glue(P1_claims.TABLE2_CLAIMS).items():\n"
    code += "    glue(k, w)\n```\n"
    assert typed_thresholds(typed) and not typed_thresholds(glued + code)
    assert not unglued_keys(glued + code) and unglued_keys(glued) == ["h1-thresholds"]
    assert unglued_keys(glued.replace("h1-", "h9-") + code) == ["h9-thresholds"]
    assert unglued_keys(glued + code.replace("TABLE2_CLAIMS", "LED_CLAIMS")) == ["h1-thresholds"]
