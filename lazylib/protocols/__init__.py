"""What only one Part of the book runs: each paper's experiment protocol, one package per Part, all of one shape.

The estimators, metrics and weightings these protocols use are reusable and live in the rest of :mod:`lazylib`;
a Part's package holds the paper-specific part: ``protocol.py`` (the runs: how folds, sweeps and repetitions are
run and how the paper chooses its parameters), ``facts.py`` (what the claims' rules read, where the Part has them)
and ``claims.py`` (its claims, a table of :class:`lazylib.report.verdicts.Claim` rows judged and recorded by
:meth:`lazylib.report.scorecard.Chapter.judge`), and further modules only under the shared role names
(``marks.py``: how a table is marked; ``readings.py``: the readings compared; ``figure_claims.py`` and
``method_claims.py``: the claims about the figures and the method, where a Part has many). Part VI's package,
``lazylib/protocols/bench/``, adds the bench's command line, budget, checks, methods, results, statistics and
the runs on a user's table. Which package serves which Part is :data:`lazylib.papers.PARTS`'s ``protocol``; what
two Parts' protocols share (a data set's fold seed, a data set made ready, the k range) is
:mod:`lazylib.protocols.shared`.
"""

from lazylib import papers as _papers


def _table() -> str:
    rows = [(f"``{p.protocol}``", p.heading, f"{p.part} (``book/{p.folder}``)") for p in _papers.PARTS if p.protocol]
    rows.append(("(none)", ", ".join(p.label for p in _papers.PARTS if not p.protocol), "public API alone"))
    widths = [max(len(row[i]) for row in [("package", "paper", "Part (book folder)"), *rows]) for i in range(3)]
    rule = "  ".join("=" * w for w in widths)
    head = "  ".join(h.ljust(w) for h, w in zip(("package", "paper", "Part (book folder)"), widths)).rstrip()
    lines = [rule, head, rule]
    lines += ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in rows]
    return "\n".join([*lines, rule])


__doc__ += "\n" + _table() + "\n"
