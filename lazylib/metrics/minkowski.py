"""Minkowski distances: Euclidean, Manhattan and any ``r`` (Payne & Edwards Eqs. 1-2; Wilson & Martinez
Eqs. 1-2 and their normalised "Euclid.")."""

from __future__ import annotations

import numbers

import numpy as np

from lazylib._validation import Choice, InvalidParameterError, Real, validate_params
from lazylib.column_stats import column_exponents, from_units, in_units, known_mean_std, known_range
from lazylib.encoding import NOMINAL
from lazylib.metrics._attributes import LinearAttribute, OverlapAttribute, PowerAttribute
from lazylib.metrics._base import WORKING_MEMORY, AttributeMetric

NORMALIZATIONS = (None, "std", "range")

#: How a nominal attribute enters a Minkowski distance: ``"codes"`` its category codes as numbers (Wilson &
#: Martinez' "Euclid.", which depends on the order of the categories), ``"one-hot"`` one indicator column per
#: value, unscaled (what a scikit-learn user's ``OneHotEncoder`` gives: order-free).
NOMINAL_READINGS = ("codes", "one-hot")

#: Widest training spread (in the units of the normalisation) for which r = 2 uses the bilinear form (squares of
#: the values): beyond it, squared values would overflow or underflow, and each pair is computed in its own unit.
SAFE_SPREAD = (1e-100, 1e100)


class Minkowski(AttributeMetric):
    """``D(x, y) = (sum_a |x_a - y_a|^r / scale_a^r)^(1/r)``.

    Parameters
    ----------
    r : float
        The exponent (``r = 2`` Euclidean, ``r = 1`` Manhattan).
    normalize : {None, "std", "range"}
        Divide each attribute's difference by its training standard deviation (Wilson & Martinez' "Euclid.") or
        range (``max - min``), or not at all.
    nominal : {"codes", "one-hot"}
        A nominal attribute's reading (:data:`NOMINAL_READINGS`): its category codes, normalised as the
        continuous ones (Wilson & Martinez), or a one-hot embedding of unscaled indicators, whose two different
        values add 2 to the sum of ``|x_a - y_a|^r`` whatever ``r`` (order-free; needs ``r`` 1 or 2 and a
        training spread within ``SAFE_SPREAD``).
    weights : array-like, optional
        Attribute weights multiplying each ``|x_a - y_a|^r``.
    working_memory : float
        Bound, in MiB, on the temporaries of one chunk (as for :class:`lazylib.metrics.Metric`).

    Attributes
    ----------
    center_ : ndarray of shape (``n_features_in_``,)
        Training mean of each attribute (known values).
    scale_ : ndarray of shape (``n_features_in_``,)
        Divisor of each attribute's difference: its standard deviation, range, or 1 (``normalize``). With
        ``normalize``, the terms read each column in its unit (a power of two, 1 within
        :data:`lazylib.column_stats.SAFE_RANGE`), so the distances are the same for data multiplied by a power of
        two down to the subnormal range and up to the largest float.
    root_ : float
        ``r`` when the distances are roots of sums of terms (``r = 1``, and ``r = 2`` within ``SAFE_SPREAD``),
        else 1: each pair's distance is then computed in the pair's own unit, and the reduced sums of
        :meth:`pairwise_chunks` are the distances.

    See Also
    --------
    lazylib.metrics.terms.linear_difference : The attribute term pair by pair, as the paper prints it.
    lazylib.metrics.terms.power_difference : The attribute term pair by pair, as the paper prints it.

    Notes
    -----
    By default nominal attributes enter as their numeric codes, as Wilson & Martinez did for "Euclid."
    ("normalised by standard deviation on all attributes, including nominal"): the distances then depend on the
    order of the categories; ``nominal="one-hot"`` does not. An unknown value gives the attribute distance 1
    (the papers do not say; 1 is HEOM's and HVDM's rule). An attribute constant in training (zero spread)
    contributes nothing. Standard deviations use ``ddof=1``. For ``r`` other than 1 and 2 (and for ``r = 2`` when
    the training spread is beyond ``SAFE_SPREAD``) each pair's distance is computed in the pair's own unit, its
    largest difference ``M``: ``D = M (sum_a (|x_a - y_a| / (scale_a M))^r)^(1/r)`` (weights enter as
    ``w_a^(1/r)`` inside the differences), so ``|d|^r`` neither overflows nor underflows at any ``r`` and any
    scale of the data (:func:`lazylib.metrics._engine.norm_block`).

    References
    ----------
    Payne, T. R. and Edwards, P. (1998), Eqs. 1-2; Wilson, D. R. and Martinez, T. R. (1997), Eqs. 1-2 and
    section 3.3.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0, 0.0], [3.0, 4.0]])
    >>> Minkowski(r=2).fit(X, types=["continuous"] * 2).pairwise(X[:1])
    array([[0., 5.]])
    >>> Minkowski(r=1).fit(X, types=["continuous"] * 2).pairwise(X[:1])
    array([[0., 7.]])
    """

    unknown_is_one = True  # HEOM's rule (the paper leaves the Euclidean's open): d_a = 1 for an unknown value

    def __init__(
        self,
        r: float = 2.0,
        *,
        normalize: str | None = None,
        nominal: str = "codes",
        weights=None,
        working_memory: float = WORKING_MEMORY,
    ):
        super().__init__(weights=weights, working_memory=working_memory)
        self.r = r
        self.normalize = normalize
        self.nominal = nominal

    _parameter_constraints: dict = {
        **AttributeMetric._parameter_constraints,
        "r": [Real(low=1)],
        "normalize": [Choice(NORMALIZATIONS)],
        "nominal": [Choice(NOMINAL_READINGS)],
    }

    def _validate_params(self) -> None:
        r = getattr(self, "r", None)
        if isinstance(r, numbers.Real) and not isinstance(r, (bool, np.bool_)) and r == float("inf"):
            raise InvalidParameterError(
                "The 'r' parameter of Minkowski must be a finite number >= 1. Got inf instead: r = inf is the "
                "Chebychev distance, make_metric('chebychev')"
            )
        validate_params(self)

    def _root(self) -> float:
        return float(self.r)

    def _fit(self, Z, y):
        self._pair_norm = None
        # normalised distances are scale-free: each column read in its unit (a power of 2, exact), so data at
        # 2**-1074 or near 1.7e308 keep every digit of their deviations and ranges
        e = column_exponents(Z) if self.normalize else np.zeros(Z.shape[1], np.int64)
        U = in_units(Z, e)
        center, std = known_mean_std(U, columns=self.columns_)
        lo, hi = known_range(U, self.columns_)
        if self.normalize == "std":
            scale = std
        elif self.normalize == "range":
            scale = hi - lo
        else:
            scale = np.ones(Z.shape[1])
        self.center_, self.scale_ = from_units(center, e), from_units(scale, e)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            spread = np.where(scale > 0, (hi - lo) / scale, 0.0)
        widest = spread.max(initial=0.0)
        terms = list(zip(center, scale, e.tolist()))
        if self.root_ == 2 and (widest == 0 or SAFE_SPREAD[0] <= widest <= SAFE_SPREAD[1]):
            self.attributes_ = self._one_hot([LinearAttribute(c, s, k) for c, s, k in terms])
            return
        if self.root_ == 1:
            self.attributes_ = self._one_hot([PowerAttribute(1.0, c, s, k) for c, s, k in terms])
            return
        if self.nominal == "one-hot" and NOMINAL in self.kinds_:
            raise ValueError(
                f"nominal='one-hot' needs r = 1 or 2 with a training spread within {SAFE_SPREAD} (got r = "
                f"{self.r}, widest spread {widest:.3g} in the units of normalize={self.normalize!r}): use "
                "nominal='codes', or make_metric('heom') for an overlap of the nominal attributes"
            )
        self.attributes_ = [PowerAttribute(self.root_, c, s, k) for c, s, k in terms]
        if self.root_ != 1:
            # the sum of |d|^r leaves the float range for large r (or r = 2 with spreads beyond SAFE_SPREAD):
            # each pair is computed in its own unit, and the reduced sums are the distances themselves
            self._pair_norm, self.root_ = self.root_, 1.0

    def _one_hot(self, terms: list) -> list:
        """``terms`` with each nominal attribute's read one-hot (an overlap whose mismatch costs 2) under
        ``nominal="one-hot"``."""
        if self.nominal == "codes":
            return terms
        return [OverlapAttribute("one", mismatch=2.0) if kind == NOMINAL else t for t, kind in zip(terms, self.kinds_)]

    def _norm_order(self) -> float | None:
        return self._pair_norm


class Euclidean(Minkowski):
    """Euclidean distance (``r = 2``), optionally normalised by standard deviation or range.

    See :class:`Minkowski`. ``normalize="std"`` is Wilson & Martinez' "Euclid." column.

    Parameters
    ----------
    normalize : {None, "std", "range"}
        As for :class:`Minkowski`.
    nominal : {"codes", "one-hot"}
        As for :class:`Minkowski`.
    weights : array-like, optional
        Attribute weights, one vector or one per class of the stored instance (as for
        :class:`lazylib.metrics.Metric`).
    working_memory : float
        Bound, in MiB, on the temporaries of one chunk (as for :class:`lazylib.metrics.Metric`).
    """

    _parameter_constraints: dict = {k: v for k, v in Minkowski._parameter_constraints.items() if k != "r"}

    def __init__(
        self,
        *,
        normalize: str | None = None,
        nominal: str = "codes",
        weights=None,
        working_memory: float = WORKING_MEMORY,
    ):
        super().__init__(2.0, normalize=normalize, nominal=nominal, weights=weights, working_memory=working_memory)


class Manhattan(Minkowski):
    """Manhattan (city-block) distance (``r = 1``). See :class:`Minkowski`.

    Parameters
    ----------
    normalize : {None, "std", "range"}
        As for :class:`Minkowski`.
    nominal : {"codes", "one-hot"}
        As for :class:`Minkowski`.
    weights : array-like, optional
        Attribute weights, one vector or one per class of the stored instance (as for
        :class:`lazylib.metrics.Metric`).
    working_memory : float
        Bound, in MiB, on the temporaries of one chunk (as for :class:`lazylib.metrics.Metric`).
    """

    _parameter_constraints: dict = {k: v for k, v in Minkowski._parameter_constraints.items() if k != "r"}

    def __init__(
        self,
        *,
        normalize: str | None = None,
        nominal: str = "codes",
        weights=None,
        working_memory: float = WORKING_MEMORY,
    ):
        super().__init__(1.0, normalize=normalize, nominal=nominal, weights=weights, working_memory=working_memory)
