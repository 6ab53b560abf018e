"""Attribute terms: what one attribute contributes to a distance, in the bilinear form of ``_engine``.

Each class describes one fitted attribute and follows :class:`AttributeTerm`: ``pair(xq, xs)`` returns the query
and stored :class:`Half` of a bilinear term for a column of queries and a column of stored values;
``direct(xq, xs)`` (for the non-bilinear ones) returns the (nq, ns) term matrix. *Separable* attributes also give
each side alone, ``half(x, "query")`` and ``half(x, "stored")``, so the stored side can be built once for the
training data. ``unknown_one`` always marks values under the rule "an unknown value is at distance 1 from
everything" (``missing="one"``; HEOM, HVDM, the Minkowski family). The same terms written pair by pair, as the
papers print them, are in :mod:`lazylib.metrics.terms`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from lazylib.column_stats import in_units
from lazylib.metrics._probabilities import ValueTable, known_values, value_weight
from lazylib.metrics._sets import min_member_distances

#: Bound, in bytes, on the (rows, values, classes) temporary of :func:`value_differences` (the default
#: ``working_memory`` of a metric, 64 MiB).
TABLE_BYTES = 64 * 2**20


#: Each form of :func:`value_differences` from the absolute differences (rows, columns, classes), which it may
#: overwrite.
_FORMS = {
    "l1": lambda diff: diff.sum(-1),
    "l1sq": lambda diff: diff.sum(-1) ** 2,
    "sqsq": lambda diff: np.square(diff, out=diff).sum(-1) ** 2,
    "sq": lambda diff: np.square(diff, out=diff).sum(-1),
}


def value_differences(
    P: np.ndarray, form: str, max_bytes: float = TABLE_BYTES, Q: np.ndarray | None = None
) -> np.ndarray:
    """The (V, V) table of a probability attribute's term between every two of its values (rows of ``P``, (V,
    C)): ``"l1"`` ``sum_c |P_xc - P_yc|``, ``"l1sq"`` its square, ``"sqsq"`` ``(sum_c (P_xc - P_yc)^2)^2``,
    ``"sq"`` ``sum_c (P_xc - P_yc)^2``; with ``Q`` (W, C), the (V, W) table between the rows of ``P`` and those
    of ``Q``.

    Computed a block of rows (and, when one row's differences exceed ``max_bytes``, of columns) at a time, so
    that the (rows, columns, C) differences stay within ``max_bytes`` (all at once, a nominal attribute of 3,000
    values and 20 classes took 1.4 GB for a table of 72 MB); each entry is the same sum over the classes as all
    at once, to the last bit.

    >>> value_differences(np.array([[1.0, 0.0], [0.25, 0.75]]), "l1")
    array([[0. , 1.5],
           [1.5, 0. ]])
    """
    if form not in _FORMS:
        raise ValueError(
            f"form must be one of {', '.join(map(repr, _FORMS))} for a table of value differences, got {form!r}"
        )
    Q = P if Q is None else Q
    V, C = P.shape
    out = np.empty((V, len(Q)))
    width = min(len(Q), max(1, int(max_bytes // (8 * max(C, 1)))))  # rows of Q per block (all when they fit)
    step = max(1, int(max_bytes // (8 * max(width * C, 1))))
    for lo in range(0, V, step):
        for c0 in range(0, len(Q), width):
            diff = P[lo : lo + step, None, :] - Q[None, c0 : c0 + width, :]
            np.abs(diff, out=diff)
            out[lo : lo + step, c0 : c0 + width] = _FORMS[form](diff)
            del diff  # before the next block's differences are made
    return out


def _onehot(rows: np.ndarray, width: int) -> np.ndarray:
    out = np.zeros((len(rows), width))
    out[np.arange(len(rows)), rows] = 1.0
    return out


@dataclass(frozen=True)
class Half:
    """One side of a bilinear term ``t(x, y) = alpha(x) + beta(y) + psi(x) . chi(y)``: ``alpha`` (query) or
    ``beta`` (stored), the embedding ``psi`` or ``chi`` (``emb``), the distance-one unknowns ``unknown_one``, and
    whether the term is a squared difference (``psi = -2 phi(x)``, ``chi = phi(y)``: recomputed as a direct
    difference near zero)."""

    alpha: np.ndarray
    emb: np.ndarray
    unknown_one: np.ndarray
    squared: bool = False


class AttributeTerm:
    """What one fitted attribute contributes to a distance; the engine (:mod:`lazylib.metrics._engine`) asks
    nothing else of it.

    A *bilinear* term implements :meth:`pair` (and, if *separable*, :meth:`half`); the others implement
    :meth:`direct`. A term with a query-side value weight (the VDM's) overrides :meth:`query_weights`; a
    squared-difference term centres its embedding in :meth:`fit_shift`.
    """

    #: Whether the term is ``alpha(x) + beta(y) + psi(x) . chi(y)`` (:meth:`pair`), else :meth:`direct`. No
    #: default: every term class declares it (``fit`` refuses a term that does not,
    #: :func:`lazylib.metrics._contract.check_terms`).
    bilinear: bool
    #: Whether each side of the bilinear form can be computed without the other (:meth:`half`).
    separable: bool = False
    #: Whether a non-bilinear term is the square of a non-negative bilinear one, ``t(x, y) = r(x, y)^2`` with
    #: ``r`` given by :meth:`root_half`: the engine then searches it through a lower bound from ``r``
    #: (:func:`lazylib.metrics._engine.bounded_groups`) and computes candidates with :meth:`direct_pairs`.
    squares_bilinear: bool = False
    #: Bound, in bytes, on the tables and temporaries the term builds for one block (set from the metric's
    #: ``working_memory`` at fit: :meth:`lazylib.metrics._base.AttributeMetric._size_terms`).
    max_bytes: float = TABLE_BYTES

    def stored_width(self, x: np.ndarray) -> int | None:
        """Columns of the stored side of the bilinear form for the training column ``x``, or None for a term
        without a direct form to switch to (:meth:`to_direct`); the metric sizes its terms by it at fit."""
        return None

    def to_direct(self) -> None:
        """Give the term by :meth:`direct` from now on (a term whose :meth:`stored_width` is not None): its
        bilinear side would not fit in the metric's ``working_memory``."""
        self.bilinear = False

    def pair(self, xq: np.ndarray, xs: np.ndarray) -> tuple[Half, Half]:
        """Query and stored halves of the bilinear term for a column of queries and one of stored values."""
        return self.half(xq, "query"), self.half(xs, "stored")

    def half(self, x: np.ndarray, side: str) -> Half:
        """One side (``"query"`` or ``"stored"``) of a separable term."""
        raise NotImplementedError(f"{type(self).__name__} is not separable")

    def direct(self, xq: np.ndarray, xs: np.ndarray) -> np.ndarray:
        """The (len(xq), len(xs)) matrix of terms of a non-bilinear attribute."""
        raise NotImplementedError(f"{type(self).__name__} is bilinear: use pair")

    def direct_rows(self, xq: np.ndarray, xs: np.ndarray) -> RowTable | None:
        """:meth:`direct` as a :class:`RowTable` (``table[rows]`` equal to it to the last bit), or None (the
        default): the engine then adds the term a block of query rows at a time, each block's gathered rows
        staying in the processor's cache (:func:`lazylib.metrics._engine.add_direct`)."""
        return None

    def direct_pairs(self, xq: np.ndarray, xs: np.ndarray) -> np.ndarray:
        """The terms of the pairs ``(xq[i], xs[i])``, equal to the entries of :meth:`direct` to the last bit
        (``squares_bilinear`` terms)."""
        raise NotImplementedError(f"{type(self).__name__} has no pair-by-pair form")

    def root_half(self, x: np.ndarray, side: str) -> Half:
        """One side of the bilinear term ``r`` whose square this term is (``squares_bilinear`` terms)."""
        raise NotImplementedError(f"{type(self).__name__} is not the square of a bilinear term")

    def fit_shift(self, x: np.ndarray) -> None:
        """Centre the term on the training column ``x`` (squared differences only)."""

    def query_weights(self, xq: np.ndarray) -> np.ndarray:
        """Weight ``u(x)`` multiplying the term of each query value (1 unless overridden)."""
        return np.ones(len(xq))

    def operand(self, x: np.ndarray) -> np.ndarray:
        """The column ``x`` as the term reads it: two values with equal operands (NaN equal to NaN) have equal
        terms against every value, and equal query weights. ``x`` itself unless the term reads a coarser form
        of it (DVDM's ranges): the engine finds distinct rows on the operands."""
        return x


def _squared_half(phi, unknown_one, side: str, shift=None) -> Half:
    """Half of ``||phi(x) - phi(y)||^2``: alpha = ||phi||^2 and psi = -2 phi (query) or chi = phi (stored), with
    the rows of distance-one unknowns zeroed.

    ``shift`` (subtracted from ``phi`` on both sides) leaves every difference as it is, but centred
    embeddings keep the cancelling terms ``alpha + beta`` small, and with them the rounding of the product.
    """
    if shift is not None:
        phi = phi - shift
    if unknown_one.any():
        phi = np.where(unknown_one[:, None], 0.0, phi)
    return Half((phi**2).sum(1), -2.0 * phi if side == "query" else phi, unknown_one, squared=True)


class _Squared(AttributeTerm):
    """Mixin for terms ``||phi(x) - phi(y)||^2``: subclasses give ``embedding(x) -> (phi, unknown_one)``; ``fit_shift``
    sets the shift to the mean embedding of the training values (see :func:`_squared_half`)."""

    shift = None

    def fit_shift(self, x) -> None:
        """Set the shift from the training column ``x``: the mean of its known embeddings."""
        phi, unknown_one = self.embedding(x)
        known = phi[~unknown_one] if unknown_one.any() else phi  # the same rows, no copy without unknowns
        if len(known):
            self.shift = known.mean(axis=0)

    def half(self, x, side: str) -> Half:
        """The query (``side="query"``) or stored side of the term for a column of values."""
        phi, unknown_one = self.embedding(x)
        return _squared_half(phi, unknown_one, side, self.shift)


class OverlapAttribute(AttributeTerm):
    """Overlap (Eq. 2 of Payne & Edwards, Eq. 4 of Wilson & Martinez): 0 for equal values, 1 otherwise.

    Per-pair form: :func:`lazylib.metrics.terms.overlap`.

    ``missing="value"``: an unknown value is one more value (two unknowns are equal); ``"one"``: an unknown value
    is at distance 1 from everything (HEOM). ``mismatch``: the term of two different known values (1; 2 for a
    one-hot embedding's squared or absolute differences, which differ in two indicator columns: the order-free
    reading of a nominal attribute in the Minkowski family, :class:`lazylib.metrics.minkowski.Minkowski`).
    """

    bilinear = True
    separable = False  # the value table is built from both columns

    def __init__(self, missing: str = "value", mismatch: float = 1.0):
        self.missing = missing
        self.mismatch = float(mismatch)

    def pair(self, xq, xs) -> tuple[Half, Half]:
        """Query and stored halves: one-hot rows of a value table holding the values of both sides."""
        both = np.concatenate([xq, xs])
        values = known_values(both)
        table = ValueTable(values)
        rq, rs = table.rows(xq), table.rows(xs)  # every value is known here: rows < len(values), NaN -> missing
        width = table.size
        mq, ms = np.isnan(xq), np.isnan(xs)
        m = self.mismatch
        if self.missing == "value":
            return (
                Half(np.full(len(xq), m), -m * _onehot(rq, width), np.zeros_like(mq)),
                Half(np.zeros(len(xs)), _onehot(rs, width), np.zeros_like(ms)),
            )
        alpha = np.where(mq, 0.0, m)
        psi = -m * _onehot(rq, width)
        psi[mq] = 0.0
        chi = _onehot(rs, width)
        chi[ms] = 0.0
        return Half(alpha, psi, mq), Half(np.zeros(len(xs)), chi, ms)

    def stored_width(self, x) -> int:
        """One one-hot column per distinct known training value, and one for the values only queries hold."""
        return len(known_values(x)) + 1

    def direct(self, xq, xs) -> np.ndarray:
        """The (len(xq), len(xs)) matrix of overlaps, compared value by value (no value table): what the
        one-hot product gives, for a column of too many distinct values (:meth:`to_direct`)."""
        term = np.not_equal.outer(xq, xs).astype(np.float64)  # NaN differs from everything, itself included
        mq, ms = np.isnan(xq), np.isnan(xs)
        if self.mismatch != 1.0:
            term *= self.mismatch
            if self.missing == "one":  # an unknown value is at distance 1, whatever a mismatch costs
                term[mq, :] = 1.0
                term[:, ms] = 1.0
        if self.missing == "value" and mq.any() and ms.any():  # an unknown value is one more value
            term[np.ix_(mq, ms)] = 0.0
        return term


class ProbabilityAttribute(_Squared):
    """A value difference over class-conditional probabilities of a nominal (or discretised) attribute.

    Per-pair form: :func:`lazylib.metrics.terms.value_difference`.

    Parameters
    ----------
    table : ValueTable
        The attribute's table of values.
    P : ndarray
        Its probability rows: one per known value, then the unseen and the missing rows.
    form : str
        ``"sq"``: ``scale * sum_c (P_xc - P_yc)^2`` (bilinear); ``"l1"``: ``sum_c |P_xc - P_yc|``;
        ``"l1sq"``: its square; ``"sqsq"``: ``(sum_c (P_xc - P_yc)^2)^2``. The last three are table lookups.
    missing : str
        ``"value"``: unknown is a value with its own probabilities; ``"one"``: distance 1 (HVDM).
    transform : callable, optional
        Applied to the raw column before the table lookup (the discretisation of DVDM).
    """

    bilinear = True

    def __init__(
        self,
        table: ValueTable,
        P: np.ndarray,
        form: str = "sq",
        missing: str = "value",
        scale: float = 1.0,
        transform=None,
    ):
        self.table, self.P, self.form, self.missing, self.scale = table, P, form, missing, scale
        self.transform = transform
        if form != "sq" and 8 * len(P) ** 2 <= TABLE_BYTES:  # else built when first read (:attr:`T`)
            self._T = value_differences(P, form)

    @property
    def T(self) -> np.ndarray:
        """The (V, V) table of the term between every two rows of ``P`` (forms other than ``"sq"``)."""
        if getattr(self, "_T", None) is None:
            self._T = value_differences(self.P, self.form, self.max_bytes)
        return self._T

    def stored_width(self, x) -> int:
        """One column per class (form ``"sq"``) or per row of the value table (the lookups)."""
        return self.P.shape[1] if self.form == "sq" else self.table.size

    def to_direct(self) -> None:
        """Give the term by :meth:`direct`, and drop the (V, V) table (never read in that form)."""
        self.bilinear = False
        self._T = None

    def _value_rows(self, x) -> tuple[np.ndarray, np.ndarray]:
        """``(P', rows)``: the probability rows of the distinct value rows of ``x`` (the whole table, not a copy,
        when they are most of it) and the row of ``P'`` of each entry of ``x``."""
        rows = self.rows(x)
        distinct, of = np.unique(rows, return_inverse=True)
        if 2 * len(distinct) > len(self.P):
            return self.P, rows
        return self.P[distinct], of.reshape(-1)

    def direct(self, xq, xs) -> np.ndarray:
        """The (len(xq), len(xs)) matrix of terms, computed between the distinct value rows of both sides from
        the probability rows (within :attr:`max_bytes` a block) and gathered: the form for an attribute whose
        bilinear side would not fit in ``working_memory`` (:meth:`to_direct`)."""
        (pq, iq), (ps, is_) = self._value_rows(xq), self._value_rows(xs)
        table = value_differences(pq, self.form, self.max_bytes, Q=ps)
        if self.form == "sq" and self.scale != 1.0:
            table *= self.scale
        term = table.take(iq, axis=0).take(is_, axis=1)
        if self.missing == "one":
            term[np.isnan(xq)[:, None] | np.isnan(xs)[None, :]] = 1.0
        return term

    def rows(self, x):
        """The row of ``P`` of every value of ``x`` (after ``transform``)."""
        return self.table.rows(x if self.transform is None else self.transform(x))

    def probabilities(self, x) -> np.ndarray:
        """Class-probability vector of every value of ``x`` (unknown: the missing row)."""
        return self.P[self.rows(x)]

    def query_weights(self, xq) -> np.ndarray:
        """VDM value weight ``w(x)`` of each query value (Eq. 5 of Payne & Edwards)."""
        return value_weight(self.probabilities(xq))

    def operand(self, x) -> np.ndarray:
        """``x`` after ``transform`` (DVDM: the range of each value, NaN kept): all the term reads of a value
        (its probability row, and whether it is unknown)."""
        return x if self.transform is None else self.transform(x)

    separable = True

    def embedding(self, x):
        """``(phi, unknown_one)`` of form ``"sq"``: the (scaled) probability vectors and the distance-one unknowns."""
        unknown_one = np.isnan(x) if self.missing == "one" else np.zeros(len(x), bool)
        P = self.P[self.rows(x)]
        return (P if self.scale == 1.0 else np.sqrt(self.scale) * P), unknown_one

    def fit_shift(self, x) -> None:
        """Centre form ``"sq"`` on the training column ``x`` (the lookups of the other forms need no shift)."""
        if self.form == "sq":
            _Squared.fit_shift(self, x)

    def half(self, x, side: str) -> Half:
        """The query (``side="query"``) or stored side of the term for a column of values."""
        if self.form == "sq":
            return _Squared.half(self, x, side)
        r = self.rows(x)
        unknown_one = np.isnan(x) if self.missing == "one" else np.zeros(len(x), bool)
        emb = self.T[r] if side == "query" else _onehot(r, self.table.size)
        emb[unknown_one] = 0.0
        return Half(np.zeros(len(x)), emb, unknown_one)


class LinearAttribute(_Squared):
    """``((x - y) / scale)^2`` for a linear attribute; unknown values at distance 1 (``missing="one"``).

    Per-pair form: :func:`lazylib.metrics.terms.linear_difference`.

    ``origin`` and ``scale`` are in the column's unit ``2**exponent`` (:func:`lazylib.column_stats.in_units`:
    1 unless the column lies beyond :data:`lazylib.column_stats.SAFE_RANGE`), and the values are read in it, so
    subnormal or huge columns keep every digit of ``(x - origin) / scale``.
    """

    bilinear = True

    def __init__(self, origin: float, scale: float, exponent: int = 0):
        self.origin = origin
        self.scale = scale
        self.exponent = exponent

    separable = True

    def embedding(self, x):
        """``(phi, unknown_one)``: the scaled values (all 0 for an attribute constant in training) and the unknowns."""
        if self.scale == 0:
            return np.zeros((len(x), 1)), np.isnan(x)
        return ((in_units(x, self.exponent) - self.origin) / self.scale)[:, None], np.isnan(x)


class CurveAttribute(_Squared):
    """Continuous attribute compared through interpolated class probabilities (IVDM, WVDM).

    Per-pair form: :func:`lazylib.metrics.terms.interpolated_difference`.

    ``curve(x)`` gives the probability vectors of non-missing values; unknown values use ``P_missing`` (the
    distribution of training rows with the value unknown: "another discrete value"). ``form="sq"`` is the
    erratum's squared Euclidean difference (bilinear); ``"sqsq"`` the printed equations' squared sum of squares.
    """

    def __init__(self, curve, P_missing: np.ndarray, form: str = "sq"):
        self.curve, self.P_missing, self.form = curve, P_missing, form
        self.bilinear = form == "sq"
        self.squares_bilinear = form == "sqsq"

    def probabilities(self, x) -> np.ndarray:
        """Interpolated class-probability vector of every value of ``x`` (unknown: ``P_missing``)."""
        out = np.tile(self.P_missing, (len(x), 1))
        present = ~np.isnan(x)
        if present.any():
            out[present] = self.curve(x[present])
        return out

    separable = True

    def embedding(self, x):
        """``(phi, unknown_one)`` of form ``"sq"``: the interpolated probability vectors; no distance-one unknowns."""
        return self.probabilities(x), np.zeros(len(x), bool)

    def value_rows(self, x) -> tuple[np.ndarray, np.ndarray]:
        """``(rows, P)``: the probability vectors ``P`` of the distinct values of ``x`` (all unknowns one value)
        and the row of ``P`` of each entry of ``x``."""
        values, rows = np.unique(x, return_inverse=True)
        return rows.reshape(-1), self.probabilities(values)

    def stored_width(self, x) -> int | None:
        """One column per class (form ``"sq"``; the printed form is direct already)."""
        return len(self.P_missing) if self.form == "sq" else None

    def direct(self, xq, xs) -> np.ndarray:
        """``(sum_c (P_xc - P_yc)^2)^2`` for every pair (form ``"sqsq"``; form ``"sq"`` switched to its direct
        form, :meth:`to_direct`: the sum itself): computed between the distinct values of both sides from
        direct differences (identical values at exactly 0), then gathered."""
        rq, pq = self.value_rows(xq)
        values, rs = np.unique(xs, return_inverse=True)
        # the stored values' probabilities a block at a time: interpolating them takes a few (values, C) arrays
        step = max(1, int(self.max_bytes // (48 * max(pq.shape[1], 1))))
        sq = np.empty((len(pq), len(values)))
        for lo in range(0, len(values), step):
            sq[:, lo : lo + step] = _squared_sum(pq[:, None, :], self.probabilities(values[lo : lo + step])[None])
        return (sq * sq if self.form == "sqsq" else sq).take(rq, axis=0).take(rs.reshape(-1), axis=1)

    def direct_pairs(self, xq, xs) -> np.ndarray:
        """The terms of the pairs ``(xq[i], xs[i])``: the same operations as :meth:`direct`, pair by pair."""
        return _squared_sum_squared(self.probabilities(xq), self.probabilities(xs))

    def root_half(self, x, side: str) -> Half:
        """One side of the erratum's term ``sum_c (P_xc - P_yc)^2``, whose square is the printed one."""
        return _Squared.half(self, x, side)


def _squared_sum(pq: np.ndarray, ps: np.ndarray) -> np.ndarray:
    """``sum_c (pq_c - ps_c)^2`` over the last axis of two broadcastable arrays, the classes added one by one
    in order, so that a table between values and a list of pairs give the same bits."""
    sq = np.zeros(np.broadcast_shapes(pq.shape, ps.shape)[:-1])
    for c in range(pq.shape[-1]):
        d = pq[..., c] - ps[..., c]
        d *= d
        sq += d
    return sq


def _squared_sum_squared(pq: np.ndarray, ps: np.ndarray) -> np.ndarray:
    """``(sum_c (pq_c - ps_c)^2)^2``: the square of :func:`_squared_sum`, the same bits on every path."""
    sq = _squared_sum(pq, ps)
    return sq * sq


class PowerAttribute(AttributeTerm):
    """``|x - y|^r / scale^r`` for a linear attribute (Minkowski with any ``r``); unknown values at distance 1.

    Per-pair form: :func:`lazylib.metrics.terms.power_difference`.

    ``center`` and ``scale`` are in the column's unit ``2**exponent``, and the values are read in it (as for
    :class:`LinearAttribute`).
    """

    bilinear = False

    def __init__(self, r: float, center: float = 0.0, scale: float = 1.0, exponent: int = 0):
        self.r, self.center, self.scale, self.exponent = r, center, scale, exponent

    def difference(self, xq, xs) -> np.ndarray:
        """The (len(xq), len(xs)) matrix of ``|xq - xs| / scale`` (0 for a zero scale, 1 if unknown): the term's
        base, for a metric that is the ``r``-norm of its attributes' differences computed pair by pair
        (``Metric._norm_order``, :func:`lazylib.metrics._engine.norm_block`)."""
        return _between_values(self._difference, in_units(xq, self.exponent), in_units(xs, self.exponent))

    def _difference(self, uq, us) -> np.ndarray:
        """:meth:`difference` between the columns ``uq`` and ``us`` already in the column's unit."""
        if self.scale == 0:
            d = np.zeros((len(uq), len(us)))
        else:
            d = np.subtract.outer(uq, us)
            np.abs(d, out=d)
            d /= self.scale
        d[np.isnan(uq)[:, None] | np.isnan(us)[None, :]] = 1.0
        return d

    def direct(self, xq, xs) -> np.ndarray:
        """The (len(xq), len(xs)) matrix of ``|(xq - xs) / scale| ** r`` terms (0 for a zero scale, 1 if unknown),
        computed between the distinct values of both sides and gathered where they are few
        (:func:`_between_values`)."""
        return _between_values(self._direct, in_units(xq, self.exponent), in_units(xs, self.exponent))

    def direct_rows(self, xq, xs) -> RowTable | None:
        """:meth:`direct` as rows of a table between the distinct values (:func:`distinct_table`), or None where
        they are not few or a subclass gives :meth:`direct` otherwise."""
        if type(self).direct is not PowerAttribute.direct:
            return None
        return distinct_table(self._direct, in_units(xq, self.exponent), in_units(xs, self.exponent))

    def _direct(self, uq, us) -> np.ndarray:
        """:meth:`direct` between the columns ``uq`` and ``us`` already in the column's unit."""
        if self.scale == 0:
            term = np.zeros((len(uq), len(us)))
        else:
            term = np.abs((uq[:, None] - us[None, :]) / self.scale) ** self.r
        term[np.isnan(uq)[:, None] | np.isnan(us)[None, :]] = 1.0
        return term


#: Fewest values on each side for which :func:`distinct_table` looks for distinct values: below it the sort
#: costs about what it could save.
DISTINCT_SIDE = 64


class RowTable(NamedTuple):
    """A direct term's (nq, ns) matrix as ``table[rows]``: ``table`` (G, ns) one row per distinct query value
    against every stored value, ``rows`` (nq,) the row of each query (:meth:`AttributeTerm.direct_rows`)."""

    table: np.ndarray
    rows: np.ndarray


def distinct_table(term, uq: np.ndarray, us: np.ndarray) -> RowTable | None:
    """``term(uq, us)`` (an elementwise (len(uq), len(us)) matrix of a term of one query value and one stored
    value) as a :class:`RowTable`: computed between the distinct values of both sides (all unknowns one), the
    stored values' columns gathered; None when that would be more than half of the pairs (or a side has fewer
    than :data:`DISTINCT_SIDE` values). A column with many repeated values (hypothyroid's, Gower's distance)
    then costs a small table and a gather instead of the arithmetic on every pair. Each entry is ``term`` of
    the same two values (equal floats; ``-0.0`` may stand for ``0.0``, which ``|x - y|`` does not tell apart),
    so the same bits."""
    nq, ns = len(uq), len(us)
    if min(nq, ns) < DISTINCT_SIDE:
        return None
    vq, iq = np.unique(uq, return_inverse=True)
    vs, is_ = np.unique(us, return_inverse=True)
    if 2 * len(vq) * len(vs) > nq * ns:
        return None
    # the stored values' columns (a gather within each of the few rows); whole rows are copied from it
    return RowTable(term(vq, vs).take(is_.reshape(-1), axis=1), iq.reshape(-1))


def _between_values(term, uq: np.ndarray, us: np.ndarray) -> np.ndarray:
    """``term(uq, us)``, through :func:`distinct_table` where the distinct values are few."""
    rows = distinct_table(term, uq, us)
    return term(uq, us) if rows is None else rows.table.take(rows.rows, axis=0)


class SetAttribute(AttributeTerm):
    """``min_{u in x, v in y} ||u - v|| / scale`` for a set-valued attribute (Eq. 6 of Howe & Cardie: the
    smallest Euclidean distance between a member of one set and a member of the other); an unknown set is at
    ``unknown`` from everything (1: the rule of :class:`lazylib.weighting.FeatureDifference`).

    Per-pair form: :func:`lazylib.metrics.terms.minimum_difference`.

    Not bilinear: the encoded column holds set indices, and :meth:`direct` gets the set tables of both sides
    (:class:`lazylib.encoding.SetTable`) explicitly. ``scale`` 0 (every training set the same) makes the
    term 0 between known sets. ``shift`` (the mean training member) is subtracted from members on both sides.
    """

    bilinear = False

    def __init__(self, scale: float = 1.0, shift=None, unknown: float = 1.0):
        self.scale, self.shift, self.unknown = scale, shift, unknown

    def direct(self, xq, xs, query_table=None, stored_table=None, *, max_bytes: float = 64 * 2**20) -> np.ndarray:
        """The (len(xq), len(xs)) terms between the sets ``query_table[xq]`` and ``stored_table[xs]``."""
        if query_table is None or stored_table is None:
            raise ValueError("a set-valued attribute needs the set tables of both sides")
        if self.scale == 0:
            term = np.zeros((len(xq), len(xs)))
        else:
            term = min_member_distances(query_table, xq, stored_table, xs, shift=self.shift, max_bytes=max_bytes)
            term /= self.scale
        term[np.isnan(xq)[:, None] | np.isnan(xs)[None, :]] = self.unknown
        return term
