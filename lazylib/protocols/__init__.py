"""What only one Part of the book runs: each paper's experiment protocol, one module per paper.

The estimators, metrics and weightings these protocols use are reusable and live in the rest of :mod:`lazylib`;
a protocol module holds the paper-specific part: how folds, sweeps and repetitions are run, how the paper chooses
its parameters, and how its tables are marked. Which module serves which Part is :data:`lazylib.papers.PARTS`'s
``protocol``.

Each protocol module holds its Part's claims as a table of :class:`lazylib.report.verdicts.Claim` rows, judged
and recorded by :meth:`lazylib.report.scorecard.Chapter.judge` (Part I's Table 2 claims so far; Part VI's claim
table predates the shared type).
"""

from lazylib import papers as _papers


def _table() -> str:
    rows = [(f"``{p.protocol}``", p.heading, f"{p.part} (``book/{p.folder}``)") for p in _papers.PARTS if p.protocol]
    rows.append(("(none)", ", ".join(p.label for p in _papers.PARTS if not p.protocol), "public API alone"))
    widths = [max(len(row[i]) for row in [("module", "paper", "Part (book folder)"), *rows]) for i in range(3)]
    rule = "  ".join("=" * w for w in widths)
    head = "  ".join(h.ljust(w) for h, w in zip(("module", "paper", "Part (book folder)"), widths)).rstrip()
    lines = [rule, head, rule]
    lines += ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in rows]
    return "\n".join([*lines, rule])


__doc__ += "\n" + _table() + "\n"
