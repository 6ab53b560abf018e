"""Which built pages scroll sideways in a phone-wide window (issue 41), measured in headless Chromium by hand.

Headless Chromium will not open a window narrower than about 485 px, so each page is loaded into a 412-px-wide
``<iframe>`` of a small probe page written next to the built book, and the probe reports the page's
``scrollWidth`` against its ``clientWidth`` (a page scrolls sideways when the first is larger), with the first
elements that stick out of the window outside any box of their own that scrolls. Run it after ``make book``::

    .venv/bin/python -m lazylib._book.phone_check            # every page of _build/html, 412 px
    .venv/bin/python -m lazylib._book.phone_check --width 360

It prints one line per page that scrolls and a summary, and exits with 1 when any page does. It is not part of
``make test`` or ``make book`` (Chromium is not a dependency of the project); the README keeps its last figures.
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
  document.getElementById("out").textContent = "RESULT " + w + " " + cw + " " + wide.slice(0, 4).join(",");
}, 1500);
f.src = page;
</script></body></html>
"""
RESULT = re.compile(r"RESULT (\d+) (\d+) ?([^<]*)")


def measure(html: Path, page: Path, width: int, chromium: str) -> tuple[int, int, str]:
    """``(scrollWidth, clientWidth, elements sticking out)`` of ``page`` (relative to ``html``) at ``width``."""
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
    return int(found.group(1)), int(found.group(2)), found.group(3)


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
    scrolling = 0
    try:
        for page in pages:
            scroll, client, wide = measure(args.html, page, args.width, chromium)
            if scroll > client:
                scrolling += 1
                print(f"{page}: {scroll} px wide in a {client}-px window ({wide})")
    finally:
        (args.html / "_phone_probe.html").unlink(missing_ok=True)
    print(f"{scrolling} of {len(pages)} pages scroll sideways at {args.width} px")
    return 1 if scrolling else 0


if __name__ == "__main__":
    sys.exit(main())
