"""Which built pages scroll sideways, or hold a table wider than the text column, in a window of a given width
(issue 41: a 412-px phone, a 1400-px screen), measured in headless Chromium by hand.

Headless Chromium will not open a window narrower than about 485 px, so each page is loaded into an ``<iframe>`` of
the asked width in a small probe page written next to the built book. The probe reports the page's
``scrollWidth`` against its ``clientWidth`` (a page scrolls sideways when the first is larger), the first elements
that stick out of the window outside any box of their own that scrolls, and the tables wider than the article's
text column. Run it after ``make book``::

    .venv/bin/python -m lazylib._book.phone_check               # every page of _build/html, 412 px
    .venv/bin/python -m lazylib._book.phone_check --width 1400  # a desktop window

It prints one line per page that scrolls or holds a wider table and a summary, and exits with 1 when any page
does. It is not part of ``make test`` or ``make book`` (Chromium is not a dependency of the project);
``benchmarks/README.md`` keeps its last figures.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

PROBE = """<!doctype html><html><body>
<iframe id="f" width="WIDTH" height="900" style="border:0"></iframe><pre id="out">pending</pre>
<script>
const page = new URLSearchParams(location.search).get("p"), f = document.getElementById("f");
f.onload = () => setTimeout(() => {
  const d = f.contentDocument, w = d.documentElement.scrollWidth, cw = d.documentElement.clientWidth, wide = [];
  for (const el of d.body.querySelectorAll("*")) {
    const r = el.getBoundingClientRect();
    if (r.right <= cw + 1) continue;
    let p = el.parentElement, boxed = false;
    for (; p && p !== d.body; p = p.parentElement) {
      if (["auto", "scroll", "hidden"].includes(getComputedStyle(p).overflowX)) { boxed = true; break; }
    }
    if (!boxed) wide.push(el.tagName.toLowerCase() + "." + String(el.className).split(" ")[0]);
  }
  const column = (d.querySelector("article.bd-article") || d.body).getBoundingClientRect().width;
  const tables = [...d.querySelectorAll("article table")].filter(t => t.getBoundingClientRect().width > column + 1);
  document.getElementById("out").textContent = "RESULT " + w + " " + cw + " " + tables.length + " " +
    wide.slice(0, 4).join(",");
}, 1500);
f.src = page;
</script></body></html>
"""
#: From this width on a window is a screen, where every table must fit the text column.
SCREEN = 1024
RESULT = re.compile(r"RESULT (\d+) (\d+) (\d+) ?([^<]*)")


def measure(html: Path, page: Path, width: int, chromium: str) -> tuple[int, int, int, str]:
    """``(scrollWidth, clientWidth, tables wider than the text column, elements sticking out)`` of ``page``
    (relative to ``html``) in a window ``width`` CSS pixels wide."""
    probe = html.resolve() / "_phone_probe.html"
    probe.write_text(PROBE.replace("WIDTH", str(width)), encoding="utf-8")
    args = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files"]
    args += ["--virtual-time-budget=8000", "--window-size=1000,1000", "--dump-dom"]
    out = subprocess.run(
        [*args, f"{probe.as_uri()}?p={page.as_posix()}"], capture_output=True, text=True, timeout=120
    ).stdout
    found = RESULT.search(out)
    if found is None:
        raise RuntimeError(f"the probe reported nothing for {page}")
    return int(found.group(1)), int(found.group(2)), int(found.group(3)), found.group(4)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--html", type=Path, default=Path("_build/html"), help="the built book (default: %(default)s)")
    parser.add_argument("--width", type=int, default=412, help="window width in CSS pixels (default: %(default)s)")
    args = parser.parse_args(argv)
    chromium = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if chromium is None:
        parser.error("Chromium is not installed (apt-get install chromium)")
    pages = sorted(p.relative_to(args.html) for p in args.html.rglob("*.html") if not p.name.startswith("_"))
    pages = [p for p in pages if not p.parts[0].startswith("_")]
    # On a screen every table must fit the text column; on a phone a table scrolls in its own box by design.
    screen = args.width >= SCREEN
    scrolling = wider = 0
    try:
        for page in pages:
            scroll, client, tables, wide = measure(args.html, page, args.width, chromium)
            scrolling += scroll > client
            wider += screen and tables > 0
            if scroll > client or (screen and tables):
                print(f"{page}: {scroll} px wide in a {client}-px window ({wide}); {tables} tables wider than the text")
    finally:
        (args.html / "_phone_probe.html").unlink(missing_ok=True)
    print(f"{scrolling} of {len(pages)} pages scroll sideways at {args.width} px", end="")
    print(f"; {wider} hold a table wider than the text column" if screen else "")
    return 1 if scrolling or wider else 0


if __name__ == "__main__":
    sys.exit(main())
