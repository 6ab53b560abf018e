"""A minimal progress bar: shown on an interactive terminal, silent in the book, under pytest and in pipes."""

from __future__ import annotations

import os
import sys
import time


def interactive() -> bool:
    """True when progress should be drawn: stderr is a terminal and we are not inside pytest or a kernel."""
    if "PYTEST_CURRENT_TEST" in os.environ or "ipykernel" in sys.modules:
        return False
    return hasattr(sys.stderr, "isatty") and sys.stderr.isatty()


class Progress:
    """``with Progress(total, "label") as bar: ... bar.update()``; draws nothing unless :func:`interactive`."""

    def __init__(self, total: int, label: str = "", enabled: bool | None = None):
        self.total, self.label, self.done = total, label, 0
        self.enabled = interactive() if enabled is None else enabled
        self._start = time.perf_counter()

    def __enter__(self):
        return self

    def update(self, n: int = 1) -> None:
        self.done += n
        if self.enabled:
            width = 30
            filled = int(width * self.done / max(self.total, 1))
            elapsed = time.perf_counter() - self._start
            sys.stderr.write(
                f"\r{self.label} [{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} {elapsed:.0f}s"
            )
            sys.stderr.flush()

    def __exit__(self, *exc):
        if self.enabled:
            sys.stderr.write("\n")
        return False
