"""The time table of ``benchmarks/README.md``, written from the last run's measurements instead of typed.

Two sources, both written by the run itself:

* ``.ci/last_run.tsv``: one line per step of ``bash .ci/run`` (``make lint``, ``make test``, ``make book``): the
  command, its wall-clock seconds, and pytest's closing summary line when the step ran pytest.
* The book's execution cache (``_build/.jupyter_cache``): the seconds each page took to execute, as stored by the
  nbval run of ``make test`` or by the book build (:mod:`lazylib._book.execute_once`).

``python -m lazylib._book.times`` (``make times``) rewrites the part of :data:`PAGE` (``benchmarks/README.md``,
where the project's timings and their machines live) between the markers :data:`BEGIN` and :data:`END`.
"""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

BEGIN = "<!-- times: written by `make times` from the last CI run; do not edit by hand -->"
END = "<!-- /times -->"
RUNS = Path(".ci") / "last_run.tsv"
PAGE = Path("benchmarks") / "README.md"


def format_seconds(seconds: float) -> str:
    """``"27 s"``, ``"10 min 48 s"``.

    Examples
    --------
    >>> format_seconds(27.4), format_seconds(648)
    ('27 s', '10 min 48 s')
    """
    total = int(round(seconds))
    return f"{total} s" if total < 60 else f"{total // 60} min {total % 60} s"


def read_steps(path: Path) -> list[tuple[str, float, str]]:
    """``(command, seconds, pytest summary or "")`` per line of ``.ci/last_run.tsv``."""
    steps = []
    for line in path.read_text().splitlines():
        if line.strip():
            command, seconds, *summary = line.split("\t")
            steps.append((command, float(seconds), summary[0] if summary else ""))
    return steps


def page_seconds(root: Path) -> dict[str, float]:
    """Execution seconds of every page in the cache, by source path relative to ``root``."""
    from jupyter_cache import get_cache

    cache = get_cache(str(root / "_build" / ".jupyter_cache"))
    out = {}
    for record in cache.list_cache_records():
        seconds = record.data.get("execution_seconds")
        if seconds is not None:
            out[Path(record.uri).resolve().relative_to(root.resolve()).as_posix()] = float(seconds)
    return out


def part_of_page(root: Path) -> dict[str, str]:
    """``book/x/y.md`` -> the caption of its Part in ``_toc.yml`` (cut at the first full stop), or "front page"."""
    import yaml

    toc = yaml.safe_load((root / "_toc.yml").read_text())
    parts = {f"{toc['root']}.md": "front page"}
    for part in toc.get("parts", []):
        caption = part["caption"].split(".")[0]
        for chapter in part.get("chapters", []):
            parts[f"{chapter['file']}.md"] = caption
    return parts


def table(steps, pages: dict[str, float], parts: dict[str, str], when: str) -> str:
    """The Markdown block between the markers."""
    lines = [
        f"Measured by the last CI run (`bash .ci/run` on a fresh clone, {when}):",
        "",
        "| step | time |",
        "|---|---|",
    ]
    for command, seconds, summary in steps:
        tests = re.search(r"(\d[\d,]*) passed", summary)
        note = f" ({tests.group(1)} tests passed)" if tests else ""
        lines.append(f"| `{command}`{note} | {format_seconds(seconds)} |")
    lines.append(f"| all of `bash .ci/run` | {format_seconds(sum(s for _, s, _ in steps))} |")
    if pages:
        by_part: dict[str, float] = {}
        for page, seconds in pages.items():
            key = parts.get(page, "other pages")
            by_part[key] = by_part.get(key, 0.0) + seconds
        slowest = max(pages, key=pages.get)
        lines += [
            "",
            f"Executing the {len(pages)} pages took {format_seconds(sum(pages.values()))}: "
            + ", ".join(f"{part} {format_seconds(s)}" for part, s in by_part.items())
            + f"; the slowest page, `{slowest}`, {format_seconds(pages[slowest])}. Each page's time is also in"
            " the book's appendix (*Execution times*) and under its title.",
        ]
    return "\n".join(lines)


def rewrite(readme: Path, block: str) -> None:
    """Replace what stands between the markers in ``readme`` by ``block``."""
    text = readme.read_text()
    if BEGIN not in text or END not in text:
        raise ValueError(f"{readme} has no block between {BEGIN!r} and {END!r}")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    readme.write_text(f"{head}{BEGIN}\n{block}\n{END}{tail}")


def main(root: Path = Path(".")) -> None:
    runs = root / RUNS
    if not runs.is_file():
        raise SystemExit(f"no {RUNS}: run `bash .ci/run` first (it records each step's time there)")
    when = time.strftime("%Y-%m-%d", time.gmtime(runs.stat().st_mtime))
    block = table(read_steps(runs), page_seconds(root), part_of_page(root), when)
    rewrite(root / PAGE, block)
    print(block)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("."))
