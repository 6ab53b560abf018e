"""Checks of public parameters, declared once: an integer in a range, a real number in a range, a bool, one of
a set of choices (with close-match suggestions for mistyped strings), a random state, a size bound. Every message
names the parameter and says what was expected and what was given. Numpy scalars count as the Python numbers
they hold; bools are not integers or reals here (``k=True`` is refused, not read as 1).

>>> check("n_splits", 10.5, Integer(low=2))
Traceback (most recent call last):
...
ValueError: n_splits must be an integer >= 2, got 10.5
>>> check("noise", 0.1, Real(low=0, high=1))
0.1
>>> check("normalization", "n2", Choice(("N1", "N2", "N3")))
Traceback (most recent call last):
...
ValueError: normalization must be one of 'N1', 'N2', 'N3', got 'n2'; did you mean 'N2'?
"""

from __future__ import annotations

import difflib
import math
import numbers

import numpy as np
from sklearn.utils._param_validation import Interval, InvalidParameterError, Options, make_constraint


def _check_bounds(self) -> None:
    """Interval's own check refuses ``low == high``, a range this module allows (a single admissible value)."""
    if self.left is not None and self.right is not None and self.right < self.left:
        raise ValueError(f"the high bound {self.right!r} is below the low bound {self.left!r}")


class Integer(Interval):
    """A whole number (not a bool, not a float, even an integral one) within ``[low, high]``.

    Also a scikit-learn parameter constraint (an ``Interval`` of integers that refuses bools), for an estimator's
    ``_parameter_constraints``."""

    def __init__(self, low: int | None = None, high: int | None = None):
        super().__init__(numbers.Integral, low, high, closed=_closed(low is None, high is None))

    low = property(lambda self: self.left)
    high = property(lambda self: self.right)

    def describe(self) -> str:
        return "an integer" + _bounds(self.low, self.high)

    def accepts(self, value) -> bool:
        return isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_)) and _within(value, self)

    def convert(self, value) -> int:
        return int(value)

    is_satisfied_by = accepts
    __str__ = describe
    _check_params = _check_bounds

    def __repr__(self) -> str:
        return f"Integer(low={self.low!r}, high={self.high!r})"


class Real(Interval):
    """A finite real number (not a bool) within ``[low, high]``; ``open_low``/``open_high`` exclude the bound.

    Also a scikit-learn parameter constraint (an ``Interval`` of reals that refuses bools, NaN and infinities),
    for an estimator's ``_parameter_constraints``."""

    def __init__(
        self, low: float | None = None, high: float | None = None, open_low: bool = False, open_high: bool = False
    ):
        closed = _closed(open_low or low is None, open_high or high is None)
        super().__init__(numbers.Real, low, high, closed=closed)
        self.open_low, self.open_high = bool(open_low), bool(open_high)

    low = property(lambda self: self.left)
    high = property(lambda self: self.right)

    def describe(self) -> str:
        return "a finite number" + _bounds(self.low, self.high, self.open_low, self.open_high)

    def accepts(self, value) -> bool:
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
            return False
        try:
            if not math.isfinite(value):
                return False
        except OverflowError:  # an int beyond the float range
            return False
        if self.open_low and self.low is not None and value <= self.low:
            return False
        if self.open_high and self.high is not None and value >= self.high:
            return False
        return _within(value, self)

    def convert(self, value) -> float:
        return float(value)

    is_satisfied_by = accepts
    __str__ = describe
    _check_params = _check_bounds

    def __repr__(self) -> str:
        return f"Real(low={self.low!r}, high={self.high!r}, open_low={self.open_low}, open_high={self.open_high})"


def _closed(open_low: bool, open_high: bool) -> str:
    """scikit-learn's ``closed`` of an Interval with these open sides (an absent bound is open)."""
    return {(False, False): "both", (True, False): "right", (False, True): "left", (True, True): "neither"}[
        bool(open_low), bool(open_high)
    ]


_NO_MATCH = object()


class Choice(Options):
    """One of a fixed set of values (compared with ``==``; strings are not case-folded). Also a scikit-learn
    parameter constraint."""

    def __init__(self, options: tuple):
        super().__init__(object, set())
        self.options = tuple(options)

    def describe(self) -> str:
        return "one of " + ", ".join(repr(o) for o in self.options)

    def accepts(self, value) -> bool:
        return self._match(value) is not _NO_MATCH

    def _match(self, value):
        for o in self.options:
            same_kind = type(value) is type(o) or (isinstance(o, str) and isinstance(value, str))
            try:
                if same_kind and bool(value == o):
                    return o
            except (TypeError, ValueError):
                continue
        return _NO_MATCH

    def convert(self, value):
        return self._match(value)

    def hint(self, value) -> str:
        """``; did you mean 'x'?`` for a string close to one of the string options (case and spelling)."""
        return suggest(value, [o for o in self.options if isinstance(o, str)])

    is_satisfied_by = accepts
    __str__ = describe

    def __repr__(self) -> str:
        return f"Choice({self.options!r})"


class Boolean(Options):
    """True or False (Python or numpy bools; not 0/1, not strings such as "no"). Also a scikit-learn parameter
    constraint."""

    def __init__(self):
        super().__init__(object, set())

    def describe(self) -> str:
        return "one of True, False"

    def accepts(self, value) -> bool:
        return isinstance(value, (bool, np.bool_))

    def convert(self, value) -> bool:
        return bool(value)

    is_satisfied_by = accepts
    __str__ = describe

    def __repr__(self) -> str:
        return "Boolean()"


class Seed(Options):
    """What :func:`check_random_state` accepts: None, a non-negative integer seed (not a bool) or a list of them,
    a ``numpy.random.SeedSequence``, ``BitGenerator`` or ``Generator``. A scikit-learn parameter constraint."""

    def __init__(self):
        super().__init__(object, set())

    def describe(self) -> str:
        return "None, a non-negative integer seed or a numpy.random.Generator"

    def accepts(self, value) -> bool:
        if value is None or isinstance(value, (np.random.Generator, np.random.SeedSequence, np.random.BitGenerator)):
            return True
        if _seed(value):
            return True
        return isinstance(value, (list, tuple)) and bool(value) and all(_seed(v) for v in value)

    def convert(self, value):
        return value

    is_satisfied_by = accepts
    __str__ = describe

    def __repr__(self) -> str:
        return "Seed()"


def _seed(v) -> bool:
    return isinstance(v, numbers.Integral) and not isinstance(v, (bool, np.bool_)) and v >= 0


def check(name: str, value, spec, *, optional: bool = False):
    """``value`` converted by ``spec`` (:class:`Integer`, :class:`Real` or :class:`Choice`), or a ValueError
    naming ``name``. ``optional=True`` lets None through unchanged."""
    if optional and value is None:
        return None
    if not spec.accepts(value):
        hint = spec.hint(value) if hasattr(spec, "hint") else ""
        raise ValueError(f"{name} must be {spec.describe()}{' or None' if optional else ''}, got {_short(value)}{hint}")
    return spec.convert(value)


def validate_params(estimator) -> None:
    """Check an estimator's parameters against its ``_parameter_constraints`` (scikit-learn's mechanism: the
    ``_validate_params`` of the estimators of lazylib, called at the start of ``fit``). Raises scikit-learn's
    ``InvalidParameterError`` (a ValueError and a TypeError) with its message, naming the parameter, the
    estimator, what is allowed and the value given, plus a close match for a mistyped string option."""
    params = estimator.get_params(deep=False)
    for name, constraints in estimator._parameter_constraints.items():
        if constraints == "no_validation" or name not in params:
            continue
        value = params[name]
        made = [make_constraint(c) for c in constraints]
        if any(c.is_satisfied_by(value) for c in made):
            continue
        shown = [str(c) for c in made if not c.hidden]
        allowed = shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} or {shown[-1]}"
        hint = "".join(c.hint(value) for c in made if hasattr(c, "hint"))
        raise InvalidParameterError(
            f"The {name!r} parameter of {type(estimator).__name__} must be {allowed}. Got {_short(value)} instead"
            + (hint if hint else ".")
        )


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def suggest(value, options) -> str:
    """``"; did you mean 'a', 'b'?"`` naming the options closest to ``value`` (case-insensitive), or ``""``."""
    if not isinstance(value, str):
        return ""
    lowered = {str(o).lower(): o for o in options}
    close = difflib.get_close_matches(value.lower(), list(lowered), n=3, cutoff=0.6)
    return f"; did you mean {', '.join(repr(lowered[c]) for c in close)}?" if close else ""


def check_random_state(random_state) -> np.random.Generator:
    """A ``numpy.random.Generator`` from ``random_state``: None (fresh entropy), a non-negative int (a seed) or a
    list of them, a ``SeedSequence``/``BitGenerator`` or a Generator (used as it is, so draws continue its stream)."""
    if isinstance(random_state, np.random.Generator):
        return random_state
    if random_state is None or isinstance(random_state, (np.random.SeedSequence, np.random.BitGenerator)):
        return np.random.default_rng(random_state)
    if _seed(random_state):
        return np.random.default_rng(int(random_state))
    if isinstance(random_state, (list, tuple)) and random_state and all(_seed(v) for v in random_state):
        return np.random.default_rng([int(v) for v in random_state])  # SeedSequence entropy
    raise ValueError(
        "random_state must be None, a non-negative integer seed or a numpy.random.Generator, got "
        f"{random_state!r}"
        + (
            " (a legacy RandomState: pass np.random.default_rng(seed))"
            if isinstance(random_state, np.random.RandomState)
            else ""
        )
    )


#: Largest array (in bytes) a generator builds before refusing: far beyond any experiment of the papers, and
#: below what would make the machine swap.
MAX_BYTES = 2**33


def check_size(
    what: str, n_cells: int, bytes_per_cell: int = 8, *, fix: str = "ask for fewer rows or attributes"
) -> None:
    """Refuse to build ``what`` when its ``n_cells`` values would need more than :data:`MAX_BYTES` (``fix`` says
    what to ask for instead, naming the parameter)."""
    need = int(n_cells) * bytes_per_cell
    if need > MAX_BYTES:
        size = f"{need / 2**30:.3g}" if need < 2**1000 else "astronomically many"
        raise ValueError(
            f"{what} would need {size} GiB (more than the {MAX_BYTES / 2**30:.0f} GiB "
            f"limit of lazylib._validation.MAX_BYTES): {fix}"
        )


def _within(value, spec) -> bool:
    return (spec.low is None or value >= spec.low) and (spec.high is None or value <= spec.high)


def _bounds(low, high, open_low: bool = False, open_high: bool = False) -> str:
    parts = []
    if low is not None:
        parts.append(f"{'>' if open_low else '>='} {low}")
    if high is not None:
        parts.append(f"{'<' if open_high else '<='} {high}")
    return (" " + " and ".join(parts)) if parts else ""


def check_working_memory(value) -> float:
    """The ``working_memory`` of a metric: a finite number of MiB above 0."""
    return check("working_memory", value, Real(low=0, open_low=True))


def check_class_indices(name: str, y, n_classes: int | None = None) -> np.ndarray:
    """The labels ``y`` as class indices (``np.intp``), or a ValueError naming ``name``: whole numbers from 0
    (integral floats too), below ``n_classes`` when it is given. A float label such as 0.5 was truncated to a
    class it does not belong to, and a label at or above ``n_classes`` was counted as a class of its own.

    >>> check_class_indices("y", [0.0, 2.0, 1.0])
    array([0, 2, 1])
    >>> check_class_indices("y", [0, 3], n_classes=3)
    Traceback (most recent call last):
    ...
    ValueError: y must hold class indices 0..2 (n_classes = 3), got 3
    """
    a = np.asarray(y)
    if a.ndim != 1:
        raise ValueError(f"{name} must be one label per row (1-D), got an array of shape {a.shape}")
    if a.dtype.kind not in "iuf":
        raise ValueError(f"{name} must hold class indices (whole numbers from 0), got dtype {a.dtype}")
    high = None if n_classes is None else n_classes - 1
    with np.errstate(invalid="ignore"):
        bad = ~np.isfinite(a) | (a != np.round(a)) | (a < 0) if a.dtype.kind == "f" else a < 0
    if high is not None:
        bad = bad | (a > high)
    if bad.any():
        allowed = "whole numbers from 0" if high is None else f"0..{high} (n_classes = {n_classes})"
        raise ValueError(f"{name} must hold class indices {allowed}, got {a[bad][0].item()!r}")
    return a.astype(np.intp)
