"""Minkowski distances: Euclidean, Manhattan and any ``r`` (Payne & Edwards Eqs. 1-2; Wilson & Martinez
Eqs. 1-2 and their normalised "Euclid.")."""

from __future__ import annotations

import numpy as np

from lazylib._validation import Choice, Real, check
from lazylib.encoding import known_mean_std, known_range
from lazylib.metrics._attributes import LinearAttribute, PowerAttribute
from lazylib.metrics._base import WORKING_MEMORY, AttributeMetric

NORMALIZATIONS = (None, "std", "range")

#: Widest training spread (in the units of the normalisation) for which r = 2 uses the bilinear form (squares of
#: the values): beyond it, squared values would overflow or underflow, and the terms are computed in a unit.
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
    weights : array-like, optional
        Attribute weights multiplying each ``|x_a - y_a|^r``.
    working_memory : float
        Bound, in MiB, on the temporaries of one chunk (as for :class:`lazylib.metrics.Metric`).

    Attributes
    ----------
    center_ : ndarray of shape (``n_features_in_``,)
        Training mean of each attribute (known values).
    scale_ : ndarray of shape (``n_features_in_``,)
        Divisor of each attribute's difference: its standard deviation, range, or 1 (``normalize``).
    unit_ : float
        Unit (a power of 2) in which the terms are computed; 1 unless ``r`` is neither 1 nor 2 or the spread
        is beyond ``SAFE_SPREAD``.

    See Also
    --------
    lazylib.metrics.terms.linear_difference : The attribute term pair by pair, as the paper prints it.
    lazylib.metrics.terms.power_difference : The attribute term pair by pair, as the paper prints it.

    Notes
    -----
    Nominal attributes enter as their numeric codes, as Wilson & Martinez did for "Euclid." ("normalised by
    standard deviation on all attributes, including nominal"). An unknown value gives the attribute distance 1
    (the papers do not say; 1 is HEOM's and HVDM's rule). An attribute constant in training (zero spread)
    contributes nothing. Standard deviations use ``ddof=1``. For ``r`` other than 1 and 2 the terms are computed
    in a unit near the widest training spread (a power of 2) and the distance converted back, so ``|d|^r``
    neither overflows nor underflows for large ``r`` at any scale of the data; an unknown value's term ``1``
    then becomes ``unit^-r``, which underflows to 0 only when it is negligible beside any known difference.

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

    def __init__(
        self, r: float = 2.0, *, normalize: str | None = None, weights=None, working_memory: float = WORKING_MEMORY
    ):
        super().__init__(weights=weights, working_memory=working_memory)
        self.r = r
        self.normalize = normalize

    def _root(self) -> float:
        if isinstance(self.r, (int, float)) and not isinstance(self.r, bool) and self.r == float("inf"):
            raise ValueError("r = inf is the Chebychev distance: use make_metric('chebychev')")
        return check("r", self.r, Real(low=1))

    def _fit(self, Z, y):
        check("normalize", self.normalize, Choice(NORMALIZATIONS))
        self.center_, std = known_mean_std(Z, columns=self.columns_)
        lo, hi = known_range(Z, self.columns_)
        if self.normalize == "std":
            self.scale_ = std
        elif self.normalize == "range":
            self.scale_ = hi - lo
        else:
            self.scale_ = np.ones(Z.shape[1])
        self.unit_ = 1.0
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            spread = np.where(self.scale_ > 0, (hi - lo) / self.scale_, 0.0)
        widest = spread.max(initial=0.0)
        if self.root_ == 2 and (widest == 0 or SAFE_SPREAD[0] <= widest <= SAFE_SPREAD[1]):
            self.attributes_ = [LinearAttribute(c, s) for c, s in zip(self.center_, self.scale_)]
            return
        if self.root_ != 1 and widest > 0:
            # |d|^r leaves the float range for large r (or r = 2 with spreads beyond SAFE_SPREAD) unless the
            # differences are near 1: measure them in a unit (a power of 2) near the widest training spread, and
            # give the distance back in the data's units
            self.unit_ = float(np.ldexp(1.0, int(np.frexp(widest)[1])))
        self.attributes_ = [_PowerInUnits(self.root_, c, s, self.unit_) for c, s in zip(self.center_, self.scale_)]

    def _finish(self, S, nonnegative=False):
        S = super()._finish(S, nonnegative)
        if self.unit_ != 1.0:
            S *= self.unit_
        return S


class _PowerInUnits(PowerAttribute):
    """``|x - y|^r / scale^r`` computed as ``(|x - y| / (scale unit))^r``; the metric multiplies the root of
    the sum by ``unit``. An unknown value keeps its distance 1 in the data's units (``unit^-r`` here), or is
    refused when that is beyond the float range."""

    def __init__(self, r: float, center: float, scale: float, unit: float):
        super().__init__(r, center, scale * unit)
        with np.errstate(over="ignore", under="ignore"):
            unknown = np.float64(unit) ** -r
        self.unit, self.unknown = unit, (float(unknown) if 0 < unknown < np.inf else None)

    def direct(self, xq, xs):
        term = super().direct(xq, xs)
        if self.unknown != 1.0:
            unknown = np.isnan(xq)[:, None] | np.isnan(xs)[None, :]
            if self.unknown is None and unknown.any():
                raise ValueError(
                    f"the known differences are computed in a unit of {self.unit:.3g} (r = {self.r:g}), "
                    "in which an unknown value's term 1 is beyond the float range: normalize the "
                    "data (normalize='range' or 'std'), fill the unknown values, or use a smaller r"
                )
            term[unknown] = self.unknown
        return term


class Euclidean(Minkowski):
    """Euclidean distance (``r = 2``), optionally normalised by standard deviation or range.

    See :class:`Minkowski`. ``normalize="std"`` is Wilson & Martinez' "Euclid." column.

    Parameters
    ----------
    normalize : {None, "std", "range"}
        As for :class:`Minkowski`.
    weights : array-like, optional
        Attribute weights, one vector or one per class of the stored instance (as for
        :class:`lazylib.metrics.Metric`).
    working_memory : float
        Bound, in MiB, on the temporaries of one chunk (as for :class:`lazylib.metrics.Metric`).
    """

    def __init__(self, *, normalize: str | None = None, weights=None, working_memory: float = WORKING_MEMORY):
        super().__init__(2.0, normalize=normalize, weights=weights, working_memory=working_memory)


class Manhattan(Minkowski):
    """Manhattan (city-block) distance (``r = 1``). See :class:`Minkowski`.

    Parameters
    ----------
    normalize : {None, "std", "range"}
        As for :class:`Minkowski`.
    weights : array-like, optional
        Attribute weights, one vector or one per class of the stored instance (as for
        :class:`lazylib.metrics.Metric`).
    working_memory : float
        Bound, in MiB, on the temporaries of one chunk (as for :class:`lazylib.metrics.Metric`).
    """

    def __init__(self, *, normalize: str | None = None, weights=None, working_memory: float = WORKING_MEMORY):
        super().__init__(1.0, normalize=normalize, weights=weights, working_memory=working_memory)
