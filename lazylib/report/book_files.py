"""The book's files as the scorecard reads them: the book's root and table of contents, each chapter's file and title,
the folder of the records, and the fingerprint of what a record's numbers depend on."""

from __future__ import annotations

import hashlib
import os
import platform
import re
from importlib import metadata
from pathlib import Path

#: The libraries whose version can change a chapter's numbers (with Python's and lazylib's own).
NUMERICAL_LIBRARIES = ("numpy", "scipy", "pandas", "matplotlib")


def book_root() -> Path | None:
    """The nearest folder above the working directory holding ``_toc.yml`` (``None`` outside a book)."""
    here = Path.cwd().resolve()
    return next((folder for folder in (here, *here.parents) if (folder / "_toc.yml").is_file()), None)


def records_dir(root: str | os.PathLike | None = None) -> Path:
    """Where chapters write their records and the scorecard page reads them: ``$LAZYLIB_SCORECARD_DIR`` if set,
    else ``.scorecard`` in the book's root folder (``root``, default :func:`book_root`), else in the working
    directory."""
    if os.environ.get("LAZYLIB_SCORECARD_DIR"):
        return Path(os.environ["LAZYLIB_SCORECARD_DIR"])
    root = Path(root) if root is not None else book_root()
    return (root if root is not None else Path.cwd().resolve()) / ".scorecard"


def record_file(folder: str | os.PathLike, chapter: str) -> Path:
    """The file of ``chapter``'s record in the records' ``folder`` (its name with ``/`` as ``__``, ``.json``)."""
    return Path(folder) / (chapter.replace("/", "__") + ".json")


def _hash_files(digest, root: Path, files) -> None:
    for path in sorted(files):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")


def inputs_fingerprint(root: str | os.PathLike | None = None) -> str:
    """The sha256 of what every chapter's numbers depend on, besides the chapter itself.

    Covers every file of the ``lazylib`` package (sources and vendored data, caches excluded), the published
    numbers (``book/published/``) when ``root`` (the book's root folder) is given, and the versions of Python,
    lazylib and :data:`NUMERICAL_LIBRARIES`.
    """
    import lazylib

    digest = hashlib.sha256()
    package = Path(lazylib.__file__).resolve().parent
    _hash_files(
        digest,
        package.parent,
        (p for p in package.rglob("*") if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"),
    )
    if root is not None:
        published = Path(root) / "book" / "published"
        _hash_files(digest, Path(root), (p for p in published.rglob("*") if p.is_file()))
    versions = [f"python=={platform.python_version()}", f"lazylib=={lazylib.__version__}"]
    for name in NUMERICAL_LIBRARIES:
        try:
            versions.append(f"{name}=={metadata.version(name)}")
        except metadata.PackageNotFoundError:
            versions.append(f"{name} missing")
    digest.update("\n".join(versions).encode())
    return digest.hexdigest()


def chapter_file(root: Path, chapter: str) -> Path:
    """The Markdown file of ``chapter`` (its path below ``book/``, without ``.md``) in the book at ``root``."""
    return Path(root) / "book" / f"{chapter}.md"


def toc_chapters(root: str | os.PathLike) -> list[str]:
    """The book's pages in ``_toc.yml`` order, as chapter names (path below ``book/``, no extension)."""
    text = (Path(root) / "_toc.yml").read_text(encoding="utf-8")
    entries = re.findall(r"^\s*(?:-\s*)?(?:file|root):\s*['\"]?([^'\"\s#]+)", text, flags=re.M)
    return [e.removeprefix("book/").removesuffix(".md") for e in entries]


def toc_parts(root: str | os.PathLike) -> dict[str, str]:
    """Chapter name -> the Roman numeral of its Part, from the ``caption: "Part N. ..."`` lines of ``_toc.yml``."""
    parts, current = {}, None
    for line in (Path(root) / "_toc.yml").read_text(encoding="utf-8").splitlines():
        caption = re.match(r"^\s*-?\s*caption:\s*['\"]?Part\s+([IVX]+)\b", line)
        if caption:
            current = caption.group(1)
        elif re.match(r"^\s*-?\s*caption:", line):
            current = None
        entry = re.match(r"^\s*(?:-\s*)?file:\s*['\"]?([^'\"\s#]+)", line)
        if entry and current:
            parts[entry.group(1).removeprefix("book/").removesuffix(".md")] = current
    return parts


def chapter_title(chapter: str, root: str | os.PathLike | None = None) -> str:
    """The first heading (``# ...``) of a chapter's source, as the book's table of contents shows it.

    Parameters
    ----------
    chapter : str
        The chapter's name (path below ``book/``, no extension), as its record names it.
    root : path, optional
        The book's root folder; default :func:`book_root`.

    Returns
    -------
    str
        The heading's text.
    """
    root = Path(root) if root is not None else book_root()
    text = chapter_file(root, chapter).read_text(encoding="utf-8")
    return re.search(r"^# (.+)$", text, flags=re.M).group(1).strip()


def chapter_deviations(chapter: str, root: str | os.PathLike | None = None) -> list[str]:
    """The headings of the deviations and readings a chapter states: the bold opening of each item of its
    "Deviations from the paper" box (``- **Ties.** ...``), then the first cell of each row of its tables of
    readings (Markdown tables whose first header is "question" or "choice", as on the Parts' pages of
    deviations), in the chapter's order.

    Parameters
    ----------
    chapter : str
        The chapter's name (path below ``book/``, no extension).
    root : path, optional
        The book's root folder; default :func:`book_root`.

    Returns
    -------
    list of str
        The headings without their closing full stop; empty for a chapter without such a box, or whose box is
        prose without bold items.
    """
    root = Path(root) if root is not None else book_root()
    text = chapter_file(root, chapter).read_text(encoding="utf-8")
    box = re.search(r"^(:{3,})\{admonition\} Deviations from the papers?\s*$(.*?)^\1\s*$", text, flags=re.M | re.S)
    items = re.findall(r"^- \*\*(.+?)\*\*", box.group(2), flags=re.M) if box else []
    for rows in re.findall(r"^\| *(?:question|choice) *\|.*\n\|[-| ]+\|\n((?:\|.*\n?)+)", text, flags=re.M):
        items += [row.split("|")[1] for row in rows.splitlines()]
    return [h.strip().rstrip(".").strip() for h in items]
