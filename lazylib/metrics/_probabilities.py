"""Class-conditional probabilities, value weights, discretisation and interpolation (the VDM family's tables).

Everything here works on one attribute at a time and on whole columns at once: counting is a ``bincount``,
lookups are fancy indexing, interpolation is arithmetic on arrays.
"""

from __future__ import annotations

import numpy as np

from lazylib._validation import Integer, Real, check
from lazylib.column_stats import from_units, in_units, safe_exponents

#: Ratios within this distance of a whole number count as that number when discretising (Eq. 18), so a value
#: lying on a range boundary in exact arithmetic falls in the range it begins despite floating-point error.
BOUNDARY_TOLERANCE = 1e-9


def class_counts(rows: np.ndarray, n_rows: int, y: np.ndarray, n_classes: int) -> np.ndarray:
    """Counts ``N[v, c]`` of training instances with table row ``v`` and class ``c``."""
    # counted in floats directly (exact below 2**53): no integer table to convert
    flat = np.bincount(rows * n_classes + y, weights=np.ones(len(rows)), minlength=n_rows * n_classes)
    return flat.reshape(n_rows, n_classes)


def conditional_probabilities(counts: np.ndarray) -> np.ndarray:
    """``P[v, c] = N[v, c] / N[v]`` (Eq. 9 of Wilson & Martinez), 0 where ``N[v] = 0``."""
    totals = counts.sum(axis=1, keepdims=True)
    empty = totals == 0
    P = counts / np.where(empty, 1.0, totals)  # one (V, C) table: the rows of no instance are all 0 already
    return P


def value_weight(p) -> np.ndarray:
    """VDM value weight ``w(v) = sqrt(sum_c P(c|v)^2)`` (Eq. 5 of Payne & Edwards 1998).

    Examples
    --------
    >>> float(value_weight([0.7, 0.0, 0.3]).round(4))
    0.7616
    """
    p = _probabilities(p, "p")
    return np.sqrt((p * p).sum(axis=-1))


def _probabilities(p, name: str) -> np.ndarray:
    """``p`` as a float array of finite numbers (class probabilities along the last axis), or a ValueError."""
    try:
        p = np.asarray(p, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must hold class probabilities (numbers), got {p!r}") from None
    if not np.isfinite(p).all():
        raise ValueError(f"{name} must hold finite class probabilities")
    return p


def minimum_value_weight(n_classes: int) -> float:
    """Smallest possible value weight, ``|C|^-0.5``, reached by a uniform class distribution (Eq. 6).

    Examples
    --------
    >>> minimum_value_weight(4)
    0.5
    """
    return float(check("n_classes", n_classes, Integer(low=1))) ** -0.5


def vdm_delta(p, q, power: float = 2.0) -> np.ndarray:
    """VDM value difference ``sum_c |P(c|p) - P(c|q)|^power`` (Eq. 4 of Payne & Edwards with power 2).

    Examples
    --------
    The values 'X' and 'Y' of Payne & Edwards' Table 1:

    >>> float(vdm_delta([0.7, 0.0, 0.3], [0.4, 0.5, 0.1]).round(10))
    0.38
    """
    p, q = _probabilities(p, "p"), _probabilities(q, "q")
    if p.shape[-1:] != q.shape[-1:]:
        raise ValueError(f"p and q must have the same number of classes, got {p.shape[-1:]} and {q.shape[-1:]}")
    power = check("power", power, Real(low=0, open_low=True))
    return (np.abs(p - q) ** power).sum(axis=-1)


#: :func:`known_values` counts the values of a column of at least this many whole numbers in ``[0, COUNTED)``
#: instead of sorting them.
COUNTED = 4096


def known_values(x: np.ndarray) -> np.ndarray:
    """``np.unique(x[~np.isnan(x)])``, the sorted distinct known values of a column: counted rather than sorted
    when they are at least :data:`COUNTED // 16` whole numbers in ``[0, COUNTED)`` (a nominal column's codes),
    the same array either way.

    >>> known_values(np.array([2.0, np.nan, 0.0, 2.0])).tolist()
    [0.0, 2.0]
    """
    known = x[~np.isnan(x)]
    if known.dtype == np.float64 and len(known) >= COUNTED // 16:
        low, high = known.min(), known.max()
        if 0.0 <= low and high < COUNTED and not np.signbit(low):  # -0.0 among them: the sort decides which zero
            whole = known.astype(np.intp)
            if np.array_equal(whole, known) and not np.signbit(known).any():
                return np.flatnonzero(np.bincount(whole)).astype(np.float64)
    return np.unique(known)


class ValueTable:
    """Row lookup for one nominal (or discretised) attribute: known values, then *unseen*, then *missing*.

    Parameters
    ----------
    known : ndarray
        Sorted distinct non-missing training values.
    """

    def __init__(self, known: np.ndarray):
        self.known = known
        self.unseen = len(known)
        self.missing = len(known) + 1
        self.size = len(known) + 2
        # the values are the codes 0 .. V - 1 (a nominal column whose every category occurs): a value's row is itself
        self.codes = bool(len(known)) and bool(np.array_equal(known, np.arange(len(known))))

    def rows(self, x: np.ndarray) -> np.ndarray:
        """Table row of every value of ``x`` (NaN -> missing row, values not seen in training -> unseen row)."""
        if self.codes:  # the rows of a binary search, without it: a whole number in range is its own row
            x = np.asarray(x)
            hit = (x >= 0) & (x < self.unseen) & (x == np.floor(x))  # False for NaN
            out = np.where(hit, x, self.unseen).astype(np.intp)
            out[np.isnan(x)] = self.missing
            return out
        out = np.full(x.shape, self.unseen, dtype=np.intp)
        present = ~np.isnan(x)
        if len(self.known):
            pos = np.searchsorted(self.known, x[present])
            pos_clipped = np.minimum(pos, len(self.known) - 1)
            hit = self.known[pos_clipped] == x[present]
            out[present] = np.where(hit, pos_clipped, self.unseen)
        out[~present] = self.missing
        return out


def probability_table(x: np.ndarray, y: np.ndarray, n_classes: int, unseen: str = "zero"):
    """Fit a :class:`ValueTable` and its class-probability rows for one nominal column.

    ``unseen="zero"`` gives values never seen in training ``P = 0`` (Wilson & Martinez, section 2.4);
    ``"uniform"`` gives them ``1/C``. The missing row holds the distribution of training rows whose value is
    missing (all zero if there were none).
    """
    table = ValueTable(known_values(x))
    counts = class_counts(table.rows(x), table.size, y, n_classes)
    P = conditional_probabilities(counts)
    if unseen == "uniform":
        P[table.unseen] = 1.0 / n_classes
        if counts[table.missing].sum() == 0:
            P[table.missing] = 1.0 / n_classes
    elif unseen != "zero":
        raise ValueError(f"unseen must be 'zero' or 'uniform', got {unseen!r}")
    return table, P


class Discretizer:
    """Equal-width discretisation of one continuous attribute (Eqs. 17-18 of Wilson & Martinez).

    ``s`` ranges of width ``w = (max - min) / s`` learnt from training values; ``discretize(max) = s`` and
    values outside ``[min, max]`` map below 1 or above ``s`` (not clipped). Values beyond
    :data:`lazylib.column_stats.SAFE_RANGE` are read in the attribute's unit, a power of two ``2**exponent``
    (exact), so data at 2**-1074 or near 1.7e308 fall in the ranges of the same data at unit scale.

    Examples
    --------
    Sepal length in the paper's Iris split: min 4.3, max 7.9, s = 5.

    >>> d = Discretizer(4.3, 7.9, 5)
    >>> round(d.width, 2), d.discretize(np.array([5.0, 5.1, 5.74, 6.4, 7.9])).tolist()
    (0.72, [1, 2, 3, 3, 5])
    """

    def __init__(self, lo: float, hi: float, s: int):
        lo, hi = check("lo", lo, Real()), check("hi", hi, Real())
        s = check("s", s, Integer(low=1))
        if not hi > lo:
            raise ValueError(
                f"cannot discretise a constant attribute (min = max = {lo})"
                if hi == lo
                else f"hi must be above lo, got lo = {lo}, hi = {hi}"
            )
        self.exponent = int(safe_exponents(max(abs(lo), abs(hi))))
        self.lo_unit = in_units(lo, self.exponent)
        self.width_unit = (in_units(hi, self.exponent) - self.lo_unit) / s
        self.width = float(from_units(self.width_unit, self.exponent))
        if not np.isfinite(self.width):
            raise ValueError(
                f"the attribute spans {lo:.3g} to {hi:.3g}: {s} ranges would be wider than the largest float, "
                "use more ranges (s) or rescale it"
            )
        self.lo, self.hi, self.s = lo, hi, s

    def units(self, x: np.ndarray) -> np.ndarray:
        """``x`` in the attribute's unit ``2**exponent``, as :attr:`lo_unit` and :attr:`width_unit` are."""
        return in_units(x, self.exponent)

    def discretize(self, x: np.ndarray) -> np.ndarray:
        """Range number of each value (Eq. 18); NaN stays NaN (as a float array) if present."""
        try:
            x = np.asarray(x, dtype=np.float64)
        except (TypeError, ValueError):
            raise ValueError(f"x must hold numbers (NaN for unknown), got {x!r:.80}") from None
        t = (self.units(x) - self.lo_unit) / self.width_unit
        near = np.round(t)
        t = np.where(np.abs(t - near) <= BOUNDARY_TOLERANCE * np.maximum(1.0, np.abs(t)), near, t)
        v = np.floor(t) + 1
        v = np.where(x == self.hi, self.s, v)
        if np.isnan(v).any():
            return v
        return v.astype(np.intp)

    def midpoint(self, u: np.ndarray, convention: str = "centre") -> np.ndarray:
        """``mid_u``: the centre of range ``u`` (``min + w (u - 1/2)``) or the printed Eq. 24 (``u + 1/2``)."""
        return from_units(self.midpoint_unit(u, convention), self.exponent)

    def midpoint_unit(self, u: np.ndarray, convention: str = "centre") -> np.ndarray:
        """:meth:`midpoint` in the attribute's unit (:meth:`units`)."""
        offset = {"centre": -0.5, "printed": 0.5}[convention]
        return self.lo_unit + self.width_unit * (np.asarray(u, dtype=np.float64) + offset)


def interpolate_ranges(x: np.ndarray, disc: Discretizer, P_ranges: np.ndarray, convention: str = "centre"):
    """IVDM's interpolated probabilities ``p_{a,c}(x)`` (Eq. 23), for non-missing ``x``.

    ``P_ranges[u - 1]`` holds range ``u``'s probabilities; ranges outside ``1..s`` have probability 0.
    ``u`` is ``discretize(x)``, less 1 when ``x`` lies below ``mid_u``, and ``p`` is the straight line between
    ``(mid_u, P_u)`` and ``(mid_{u+1}, P_{u+1})``.
    """
    s, C = P_ranges.shape
    u = disc.discretize(x).astype(np.intp)
    x = disc.units(x)  # the midpoints and the width in the attribute's unit: scale-free at any magnitude
    u = u - (x < disc.midpoint_unit(u, convention))
    padded = np.vstack([np.zeros((1, C)), P_ranges, np.zeros((1, C))])  # rows 0 and s+1 are zero
    inside_lo = (u >= 0) & (u <= s)
    inside_hi = (u + 1 >= 0) & (u + 1 <= s + 1)
    lo = np.where(inside_lo[:, None], padded[np.clip(u, 0, s + 1)], 0.0)
    hi = np.where(inside_hi[:, None], padded[np.clip(u + 1, 0, s + 1)], 0.0)
    t = (x - disc.midpoint_unit(u, convention)) / disc.width_unit
    return lo + t[:, None] * (hi - lo)


class WindowProbabilities:
    """WVDM's probability landscape for one continuous attribute (Figures 9-10 of Wilson & Martinez).

    For each distinct training value ``v`` the class distribution of the training instances inside the closed
    window ``[v - w/2, v + w/2]``; between two stored values each class probability is interpolated linearly;
    below the smallest and above the largest value it falls linearly to 0 over half a window. ``x`` and
    ``width`` are in the attribute's unit ``2**exponent``, and the values it is called on are read in it.
    """

    def __init__(self, x: np.ndarray, y: np.ndarray, n_classes: int, width: float, exponent: int = 0):
        self.exponent = exponent
        if not width > 0:
            raise ValueError("the WVDM window width must be positive (is the attribute constant?)")
        # class counts per distinct value (V, C), cumulated over the sorted values: the instances of the window
        # of v are those of the values in it (whole counts, so exact); never one row per instance
        self.values, of = np.unique(x, return_inverse=True)
        cum = np.cumsum(class_counts(of.reshape(-1), len(self.values), y, n_classes), axis=0)
        cum = np.vstack([np.zeros((1, n_classes)), cum])
        lo = np.searchsorted(self.values, self.values - width / 2, side="left")
        hi = np.searchsorted(self.values, self.values + width / 2, side="right")
        counts = cum[hi] - cum[lo]
        self.P = counts / counts.sum(axis=1, keepdims=True)
        self.width = width
        self._xp = np.concatenate([[self.values[0] - width / 2], self.values, [self.values[-1] + width / 2]])
        self._fp = np.vstack([np.zeros((1, n_classes)), self.P, np.zeros((1, n_classes))])

    def __call__(self, x: np.ndarray) -> np.ndarray:
        """Interpolated ``P_{a,x,c}`` for non-missing values ``x``, shape (len(x), C)."""
        x = in_units(x, self.exponent)
        return np.column_stack(
            [np.interp(x, self._xp, self._fp[:, c], left=0.0, right=0.0) for c in range(self._fp.shape[1])]
        )
