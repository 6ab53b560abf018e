"""Heterogeneous distances for mixed data: HEOM and HVDM (Wilson & Martinez 1997, Eqs. 3-7 and 11-16)."""

from __future__ import annotations

from lazylib._validation import Choice
from lazylib.column_stats import column_exponents, from_units, in_units, known_mean_std, known_range
from lazylib.encoding import NOMINAL
from lazylib.metrics._attributes import LinearAttribute, OverlapAttribute, ProbabilityAttribute
from lazylib.metrics._base import WORKING_MEMORY, AttributeMetric
from lazylib.metrics._probabilities import probability_table

HVDM_NORMALIZATIONS = ("N1", "N2", "N3")


class HEOM(AttributeMetric):
    """Heterogeneous Euclidean-overlap metric (Wilson & Martinez Eqs. 3-7):
    ``HEOM(x, y) = sqrt(sum_a d_a(x_a, y_a)^2)`` with overlap for nominal attributes, ``|x - y| / range_a``
    for linear ones, and 1 when either value is unknown.

    Parameters
    ----------
    weights : array-like, optional
        Attribute weights, one vector or one per class of the stored instance (as for
        :class:`lazylib.metrics.Metric`).
    working_memory : float
        Bound, in MiB, on the temporaries of one chunk (as for :class:`lazylib.metrics.Metric`).

    Attributes
    ----------
    range_ : ndarray of shape (``n_features_in_``,)
        ``max_a - min_a`` of each attribute's known training values (Eq. 7; used by the linear attributes only).

    See Also
    --------
    lazylib.metrics.terms.overlap : The attribute term pair by pair, as the paper prints it.
    lazylib.metrics.terms.linear_difference : The attribute term pair by pair, as the paper prints it.

    Notes
    -----
    ``range_a = max_a - min_a`` over the training data; test values outside it can give attribute distances
    above 1, which the paper accepts (no clipping). A constant attribute contributes nothing. The paper spells
    it HOEM in its tables; ``make_metric("hoem")`` is an alias.

    References
    ----------
    Wilson, D. R. and Martinez, T. R. (1997), section 2.3, Eqs. 3-7.

    Examples
    --------
    >>> import pandas as pd
    >>> X = pd.DataFrame({"colour": pd.Categorical(["red", "blue"]), "size": [1.0, 3.0]})
    >>> HEOM().fit(X).pairwise(X).round(4)
    array([[0.    , 1.4142],
           [1.4142, 0.    ]])
    """

    _fixed_root = 2.0
    unknown_is_one = True  # Wilson & Martinez Eq. 3: d_a = 1 if x or y is unknown

    def _fit(self, Z, y):
        e = column_exponents(Z)  # each linear column in its unit (exact): its range finite near 1.7e308
        lo, hi = known_range(in_units(Z, e), self.columns_)
        self.range_ = from_units(hi - lo, e)
        self.attributes_ = [
            OverlapAttribute("one") if kind == NOMINAL else LinearAttribute(lo[a], hi[a] - lo[a], int(e[a]))
            for a, kind in enumerate(self.kinds_)
        ]


class HVDM(AttributeMetric):
    """Heterogeneous value difference metric (Wilson & Martinez Eqs. 11-16):
    ``HVDM(x, y) = sqrt(sum_a d_a(x_a, y_a)^2)`` with ``d_a = 1`` for an unknown value, a normalised VDM for
    nominal attributes and ``|x - y| / (4 sigma_a)`` for linear ones (Eq. 13).

    Parameters
    ----------
    normalization : {"N2", "N1", "N3"}
        The nominal distance: N1 ``sum_c |P_xc - P_yc|`` (Eq. 14), N2 ``sqrt(sum_c |P_xc - P_yc|^2)`` (Eq. 15,
        the paper's choice), N3 ``sqrt(C sum_c |P_xc - P_yc|^2)`` (Eq. 16).
    unseen : {"zero", "uniform"}
        Probabilities of a nominal value never seen in training (section 2.4): 0, or ``1/C``.
    weights : array-like, optional
        Attribute weights multiplying each ``d_a^2``.
    working_memory : float
        Bound, in MiB, on the temporaries of one chunk (as for :class:`lazylib.metrics.Metric`).

    Attributes
    ----------
    sigma_ : ndarray of shape (``n_features_in_``,)
        Standard deviation of each attribute's known training values (Eq. 13).

    See Also
    --------
    lazylib.metrics.terms.value_difference : The attribute term pair by pair, as the paper prints it.
    lazylib.metrics.terms.linear_difference : The attribute term pair by pair, as the paper prints it.

    Notes
    -----
    ``sigma_a`` is the sample standard deviation (``ddof=1``) of the training values; the paper does not say
    which. A constant linear attribute contributes nothing. On purely linear data HVDM is the standard-deviation
    normalised Euclidean distance divided by 4.

    References
    ----------
    Wilson, D. R. and Martinez, T. R. (1997), section 3, Eqs. 11-16, and the 2000 erratum (square root in Eq. 15).

    Examples
    --------
    >>> import pandas as pd
    >>> X = pd.DataFrame({"colour": pd.Categorical(["red", "red", "blue", "blue"]), "size": [1.0, 2.0, 3.0, 4.0]})
    >>> HVDM().fit(X, ["a", "a", "b", "b"]).pairwise(X[:1]).round(4)
    array([[0.    , 0.1936, 1.4663, 1.5289]])
    """

    _fixed_root = 2.0
    unknown_is_one = True  # Wilson & Martinez Eq. 12: d_a = 1 if x or y is unknown
    needs_labels = True

    def __init__(
        self, *, normalization: str = "N2", unseen: str = "zero", weights=None, working_memory: float = WORKING_MEMORY
    ):
        super().__init__(weights=weights, working_memory=working_memory)
        self.normalization = normalization
        self.unseen = unseen

    _parameter_constraints: dict = {
        **AttributeMetric._parameter_constraints,
        "normalization": [Choice(HVDM_NORMALIZATIONS)],
        "unseen": [Choice(("zero", "uniform"))],
    }

    def _fit(self, Z, y):
        C = len(self.classes_)
        form, scale = {"N1": ("l1sq", 1.0), "N2": ("sq", 1.0), "N3": ("sq", float(C))}[self.normalization]
        e = column_exponents(Z)  # each linear column in its unit (exact): scale-free down to 2**-1074
        mean, sigma = known_mean_std(in_units(Z, e), columns=self.columns_)
        self.sigma_ = from_units(sigma, e)
        self.attributes_ = []
        for a, kind in enumerate(self.kinds_):
            if kind == NOMINAL:
                table, P = probability_table(Z[:, a], y, C, self.unseen)
                self.attributes_.append(ProbabilityAttribute(table, P, form=form, missing="one", scale=scale))
            else:
                self.attributes_.append(LinearAttribute(mean[a], 4.0 * sigma[a], int(e[a])))
