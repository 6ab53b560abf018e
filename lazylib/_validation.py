"""Checks of public parameters, declared once: an integer in a range, a real number in a range, one of a set
of choices. Every message names the parameter and says what was expected and what was given.

>>> check("n_splits", 10.5, Integer(low=2))
Traceback (most recent call last):
...
ValueError: n_splits must be an integer >= 2, got 10.5
>>> check("noise", 0.1, Real(low=0, high=1))
0.1
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass


@dataclass(frozen=True)
class Integer:
    """A whole number (not a bool, not a float, even an integral one) within ``[low, high]``."""

    low: int | None = None
    high: int | None = None

    def describe(self) -> str:
        return "an integer" + _bounds(self.low, self.high)

    def accepts(self, value) -> bool:
        return isinstance(value, numbers.Integral) and not isinstance(value, bool) and _within(value, self)

    def convert(self, value) -> int:
        return int(value)


@dataclass(frozen=True)
class Real:
    """A finite real number (not a bool) within ``[low, high]``; ``open_low``/``open_high`` exclude the bound."""

    low: float | None = None
    high: float | None = None
    open_low: bool = False
    open_high: bool = False

    def describe(self) -> str:
        return "a finite number" + _bounds(self.low, self.high, self.open_low, self.open_high)

    def accepts(self, value) -> bool:
        if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
            return False
        if self.open_low and self.low is not None and value <= self.low:
            return False
        if self.open_high and self.high is not None and value >= self.high:
            return False
        return _within(value, self)

    def convert(self, value) -> float:
        return float(value)


@dataclass(frozen=True)
class Choice:
    """One of a fixed set of values (compared with ``==``; strings are not case-folded)."""

    options: tuple

    def describe(self) -> str:
        return "one of " + ", ".join(repr(o) for o in self.options)

    def accepts(self, value) -> bool:
        try:
            return any(type(value) is type(o) and value == o for o in self.options)
        except TypeError:
            return False

    def convert(self, value):
        return value


def check(name: str, value, spec, *, optional: bool = False):
    """``value`` converted by ``spec`` (:class:`Integer`, :class:`Real` or :class:`Choice`), or a ValueError
    naming ``name``. ``optional=True`` lets None through unchanged."""
    if optional and value is None:
        return None
    if not spec.accepts(value):
        raise ValueError(f"{name} must be {spec.describe()}{' or None' if optional else ''}, got {value!r}")
    return spec.convert(value)


def _within(value, spec) -> bool:
    return (spec.low is None or value >= spec.low) and (spec.high is None or value <= spec.high)


def _bounds(low, high, open_low: bool = False, open_high: bool = False) -> str:
    parts = []
    if low is not None:
        parts.append(f"{'>' if open_low else '>='} {low}")
    if high is not None:
        parts.append(f"{'<' if open_high else '<='} {high}")
    return (" " + " and ".join(parts)) if parts else ""
