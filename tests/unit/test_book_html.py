"""The built book works offline: no page loads anything from another host, and the maths renders from the book.

The rule, checked on every page of ``_build/html`` (skipped when the book has not been built: ``make book``):

* Nothing a browser *loads* when it opens a page comes from another host: ``<script src>``, ``<link href>``
  (stylesheets, preloads, icons), ``<img>``/``<source>``/``<video>``/``<audio>``/``<iframe>``/``<embed>``/
  ``<object>`` sources, ``url(...)`` and ``@import`` in ``<style>`` blocks, ``style=`` attributes and the book's
  own stylesheets, and any absolute address inside an inline ``<script>``. Addresses are relative or ``data:``.
* Plain hyperlinks (``<a href>``) may point anywhere: a link to a paper's DOI or a data set's home page is text
  for the reader, not something the page loads.
* MathJax 3 is served from the book: every page with maths loads ``_static/mathjax/tex-chtml.js`` by a relative
  address, and the file and its fonts are there. Where Chromium is installed, a page with maths is also opened
  headless with every host name unresolvable, and MathJax must have typeset it.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urldefrag, urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
HTML = ROOT / "_build" / "html"
MATHJAX = HTML / "_static" / "mathjax" / "tex-chtml.js"

pytestmark = pytest.mark.skipif(
    not (HTML / "index.html").is_file(),
    reason="the book is not built (_build/html/index.html missing): run `make book`",
)

#: Attributes through which an element makes the browser fetch something.
LOADING = {
    "script": ("src",),
    "link": ("href",),
    "img": ("src", "srcset"),
    "source": ("src", "srcset"),
    "video": ("src", "poster"),
    "audio": ("src",),
    "iframe": ("src",),
    "embed": ("src",),
    "object": ("data",),
    "input": ("src",),
    "track": ("src",),
}
ABSOLUTE = re.compile(r"^\s*(?:[a-z][a-z0-9+.-]*:)?//", re.I)
ANY_URL = re.compile(r"(?:https?:)?//[a-z0-9-]+(?:\.[a-z0-9-]+)+", re.I)
CSS_URL = re.compile(r"""url\(\s*['"]?([^'")]+)|@import\s+['"]([^'"]+)""", re.I)


class Page(HTMLParser):
    """What one page loads: (tag, attribute, address) triples, inline script and style text, maths present."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.loads, self.inline_scripts, self.styles, self.has_math = [], [], [], False
        self._in = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for name in LOADING.get(tag, ()):
            for value in (attrs.get(name) or "").split(","):
                if value.strip():
                    self.loads.append((tag, name, value.strip().split()[0]))
        if attrs.get("style"):
            self.styles.append(attrs["style"])
        if "math" in (attrs.get("class") or "").split():
            self.has_math = True
        if tag == "script" and not attrs.get("src"):
            self._in = "script"
            self.inline_scripts.append("")
        elif tag == "style":
            self._in = "style"
            self.styles.append("")

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self._in = None

    def handle_data(self, data):
        if self._in == "script":
            self.inline_scripts[-1] += data
        elif self._in == "style":
            self.styles[-1] += data


def pages():
    return sorted(p for p in HTML.rglob("*.html") if "_static" not in p.relative_to(HTML).parts)


def parse(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def local_file(page: Path, address: str) -> Path:
    """The file a relative address of ``page`` points at (query and fragment dropped)."""
    return (page.parent / urlsplit(urldefrag(address)[0]).path).resolve()


def css_addresses(text: str):
    return [a or b for a, b in CSS_URL.findall(text)]


def test_the_book_has_pages():
    assert len(pages()) > 5


def test_no_page_loads_anything_from_another_host():
    outside = []
    for path in pages():
        page = parse(path)
        name = path.relative_to(HTML)
        outside += [f"{name}: <{tag} {attr}={address}>" for tag, attr, address in page.loads if ABSOLUTE.match(address)]
        outside += [f"{name}: inline script mentions {m}" for s in page.inline_scripts for m in ANY_URL.findall(s)]
        outside += [f"{name}: style loads {a}" for s in page.styles for a in css_addresses(s) if ABSOLUTE.match(a)]
    assert not outside, "\n".join(outside[:40])


def test_the_books_stylesheets_load_nothing_from_another_host():
    sheets = {
        local_file(path, address)
        for path in pages()
        for tag, _, address in parse(path).loads
        if tag == "link" and address.split("?")[0].endswith(".css")
    }
    assert sheets, "no page links a stylesheet"
    outside = []
    for sheet in sorted(sheets):
        assert sheet.is_file(), f"a page links the missing stylesheet {sheet}"
        text = re.sub(r"/\*.*?\*/", "", sheet.read_text(encoding="utf-8"), flags=re.S)  # licence comments
        outside += [f"{sheet.relative_to(HTML)}: {a}" for a in css_addresses(text) if ABSOLUTE.match(a)]
    assert not outside, "\n".join(outside)


def test_every_page_with_maths_loads_the_books_own_mathjax():
    assert MATHJAX.is_file(), "MathJax is not in _static/mathjax"
    fonts = MATHJAX.parent / "output" / "chtml" / "fonts" / "woff-v2"
    assert len(list(fonts.glob("*.woff"))) > 10, f"MathJax's fonts are missing from {fonts}"
    assert 'VERSION="3.' in MATHJAX.read_text(encoding="utf-8")[:2_000_000], "not MathJax 3"
    with_math = []
    for path in pages():
        page = parse(path)
        if not page.has_math:
            continue
        with_math.append(path)
        scripts = [local_file(path, a) for tag, _, a in page.loads if tag == "script" and "mathjax" in a.lower()]
        assert scripts == [MATHJAX.resolve()], f"{path.relative_to(HTML)} loads MathJax from {scripts}"
    assert with_math, "no page has maths: the check would prove nothing"


def _chromium():
    return shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


@pytest.mark.skipif(_chromium() is None, reason="Chromium is not installed (apt-get install chromium)")
def test_maths_is_typeset_offline_in_headless_chromium():
    page = next((p for p in pages() if parse(p).has_math and "payne1998_vdm" in p.parts), None) or next(
        p for p in pages() if parse(p).has_math
    )
    with tempfile.TemporaryDirectory() as profile:
        dom = subprocess.run(
            [
                _chromium(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                f"--user-data-dir={profile}",
                "--host-resolver-rules=MAP * ~NOTFOUND",
                "--allow-file-access-from-files",
                "--virtual-time-budget=15000",
                "--dump-dom",
                page.as_uri(),
            ],
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        ).stdout
    typeset = dom.count("<mjx-container")
    assert typeset > 0, f"MathJax typeset nothing on {page.relative_to(HTML)}"
    assert "\\(" not in re.sub(r"<script.*?</script>", "", dom, flags=re.S), "raw TeX left on the page"


def test_no_figure_carries_a_whole_book_number():
    # A caption says which paper figure it reproduces; a Sphinx number ("Fig. 7") would contradict it.
    numbered = [
        str(path.relative_to(HTML)) for path in pages() if 'class="caption-number"' in path.read_text(encoding="utf-8")
    ]
    assert not numbered, f"figures numbered through the book on {numbered}"


def test_the_readme_scorecard_table_is_the_one_the_records_give():
    """After the book is built (``make book`` runs this file), the chapters' records are current, and the README's
    scorecard block must be what they give: `python -m lazylib.report.scorecard --readme README.md` writes it."""
    import os

    from lazylib.report import headline, scorecard

    os.environ.pop("LAZYLIB_SCORECARD_DIR", None)
    try:
        cells, claims = scorecard.load(ROOT / ".scorecard", book=ROOT)
    except scorecard.StaleRecords as stale:
        pytest.skip(f"the records are not current (execute the book first): {stale}")
    headline.check_readme(ROOT / "README.md", cells, claims)


class Tables(HTMLParser):
    """The text of every cell of every ``<table>`` of a page, row by row."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tables, self._cell = [], None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.tables[-1].append([])
        elif tag in ("td", "th") and self.tables and self.tables[-1]:
            self._cell = ""

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.tables[-1][-1].append(" ".join(self._cell.split()))
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell += data


def tables(path: Path) -> list[list[list[str]]]:
    parser = Tables()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser.tables


def test_the_front_page_and_the_scorecard_open_with_the_readmes_headline():
    """One function (``headline.headline_markdown``) renders the README's block, the front page's first table and
    the scorecard's: the three show the same rows."""
    from lazylib.report import headline

    block = headline.readme_block((ROOT / "README.md").read_text(encoding="utf-8"))
    rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in block.splitlines()]
    expected = [rows[0], *rows[2:]]  # the Markdown rule line left out
    for page in (HTML / "book" / "intro.html", HTML / "book" / "appendix" / "scorecard.html"):
        assert tables(page)[0] == expected, f"{page.relative_to(HTML)} does not open with the README's table"


#: Most columns a built table may have (its row names included): about 90 px each in the 784-px text column at
#: 1400 px. A wider table is split or turned long; _static/lazylib.css lets any table scroll inside its own box, with
#: its first column fixed, where the screen is narrower.
MAX_COLUMNS = 9


def test_every_built_table_fits_the_text_column():
    wide = []
    for page in pages():
        for i, rows in enumerate(tables(page)):
            columns = max((len(row) for row in rows), default=0)
            if columns > MAX_COLUMNS:
                wide.append(f"{page.relative_to(HTML)} table {i + 1}: {columns} columns ({' | '.join(rows[0])[:80]})")
    assert not wide, f"tables wider than {MAX_COLUMNS} columns:\n" + "\n".join(wide)


class Links(HTMLParser):
    """Every ``<a href>`` of a page, every ``id`` it defines, and the links of its "Used in" lines by the id of the
    section holding each line."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.hrefs, self.ids, self.used_in = [], set(), {}
        self._section, self._in_used_in = None, False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "a" and attrs.get("href"):
            self.hrefs.append(attrs["href"])
            if self._in_used_in:
                self.used_in.setdefault(self._section, []).append(attrs["href"])
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        if tag == "section":
            self._section = attrs.get("id")
        if tag == "p" and "lazylib-used-in" in (attrs.get("class") or "").split():
            self._in_used_in = True

    def handle_endtag(self, tag):
        if tag == "p":
            self._in_used_in = False


def _links(path: Path) -> Links:
    links = Links()
    links.feed(path.read_text(encoding="utf-8"))
    return links


def _imports_lazylib(path: Path) -> bool:
    """Whether a code cell of the page imports lazylib (read with ast, independently of lazylib/_book/api_links.py)."""
    import ast

    from lazylib._book.api_links import code_cells, python_source

    for cell in code_cells(path):
        for node in ast.walk(ast.parse(python_source(cell))):
            if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "lazylib" for a in node.names):
                return True
            if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] == "lazylib":
                return True
    return False


def test_every_page_importing_lazylib_links_the_names_it_uses_into_the_api_reference():
    """lazylib/_book/api_links.py: each executed page that imports lazylib has a "lazylib on this page" line whose
    entries are links into the API reference, and every such link's anchor is defined on the API page."""
    from lazylib._book.execute_once import toc_notebooks

    api = api_pages()
    anchors = {page.resolve(): _links(page).ids for page in api}
    checked, without, dead, uses = 0, [], [], set()
    for source in toc_notebooks(ROOT):
        if not _imports_lazylib(source):
            continue
        page = HTML / source.relative_to(ROOT).with_suffix(".html")
        into_api = [
            (local_file(page, href), urldefrag(href)[1])
            for href in _links(page).hrefs
            if "#" in href and not ABSOLUTE.match(href) and local_file(page, href) in anchors
        ]
        ours = [(target, anchor) for target, anchor in into_api if anchor.startswith(("lazylib", "module-lazylib"))]
        if not ours:
            without.append(str(source.relative_to(ROOT)))
        dead += [f"{source.relative_to(ROOT)}: #{anchor}" for target, anchor in ours if anchor not in anchors[target]]
        uses |= {(anchor, page.resolve()) for _, anchor in ours if anchor.startswith("module-")}
        checked += 1
    assert checked > 20
    assert not without, f"pages importing lazylib without a link into the API reference: {without}"
    assert not dead, f"links to anchors the API pages do not define: {dead}"
    # the other direction: under each module of the reference, "Used in" links exactly the pages whose line lists it
    back = {
        (section, local_file(page, href))
        for page in api
        for section, hrefs in _links(page).used_in.items()
        for href in hrefs
    }
    assert back == uses


def api_pages() -> list[Path]:
    """The API reference: its front page and one page per group of modules."""
    return [HTML / "book" / "appendix" / "api.html", *sorted((HTML / "book" / "appendix" / "api").glob("*.html"))]


#: Largest size of one built page of the API reference (the whole reference on one page was 1.8 MB, 2-3.6 s per link).
API_PAGE_BYTES = 200_000


def test_the_api_reference_is_split_into_pages_of_under_200_kb():
    sizes = {page.name: page.stat().st_size for page in api_pages()}
    assert len(sizes) > 10
    assert max(sizes.values()) < API_PAGE_BYTES, f"API pages over {API_PAGE_BYTES} bytes: {sizes}"


def test_no_page_prints_the_build_folder_path():
    """A default computed from the build machine's files (``Path(__file__)``) would print its folder in a
    signature; the book shows what a user writes (``None``, documented)."""
    printed = [str(page.relative_to(HTML)) for page in pages() if str(ROOT) in page.read_text(encoding="utf-8")]
    assert not printed, f"pages printing the build folder {ROOT}: {printed}"
