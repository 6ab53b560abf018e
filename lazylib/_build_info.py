"""Version and source revision of the running lazylib, for the book's front page."""

from __future__ import annotations

import subprocess
from pathlib import Path

from lazylib import __version__


def build_info() -> dict[str, str]:
    """Return lazylib's ``version`` and the git ``commit`` of its checkout (``"unknown"`` outside one).

    A ``+dirty`` suffix marks a work tree with uncommitted changes, so a rebuilt book says whether its numbers
    come from committed code.
    """
    root = Path(__file__).resolve().parent.parent

    def git(*args: str) -> str:
        try:
            out = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, timeout=10, check=True)
        except (OSError, subprocess.SubprocessError):
            return ""
        return out.stdout.strip()

    commit = git("rev-parse", "--short=12", "HEAD") or "unknown"
    if commit != "unknown" and git("status", "--porcelain", "--untracked-files=no"):
        commit += "+dirty"
    return {"version": __version__, "commit": commit}


def module_map() -> list[tuple[str, str]]:
    """Public modules of lazylib with the first line of each docstring, in import-path order."""
    import importlib
    import pkgutil

    import lazylib

    rows = [("lazylib", (lazylib.__doc__ or "").strip().splitlines()[0])]
    for info in pkgutil.walk_packages(lazylib.__path__, "lazylib."):
        if any(part.startswith("_") for part in info.name.split(".")[1:]):
            continue
        module = importlib.import_module(info.name)
        rows.append((info.name, (module.__doc__ or "").strip().splitlines()[0]))
    return sorted(rows)
