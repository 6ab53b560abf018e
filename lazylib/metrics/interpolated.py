"""Value difference metrics for continuous attributes: DVDM, IVDM and WVDM (Wilson & Martinez 1997,
sections 2.5, 4 and 5, Eqs. 17-26, Figures 5, 9 and 10)."""

from __future__ import annotations

from functools import partial

import numpy as np

from lazylib._validation import Boolean, Choice, Integer, check
from lazylib.metrics._attributes import CurveAttribute, ProbabilityAttribute
from lazylib.metrics._base import WORKING_MEMORY, AttributeMetric
from lazylib.metrics._probabilities import (
    Discretizer,
    WindowProbabilities,
    class_counts,
    conditional_probabilities,
    interpolate_ranges,
    probability_table,
)
from lazylib.metrics.vdm import UNSEEN, column_index

MIDPOINTS = ("centre", "printed")


class DVDM(AttributeMetric):
    """Discretised value difference metric (Eqs. 17-20): continuous attributes are cut into ``s`` equal-width
    ranges learnt from the training data and compared with the VDM of their range numbers.

    ``DVDM(x, y) = sqrt(sum_a vdm_a(discretize_a(x_a), discretize_a(y_a))^2)`` with
    ``vdm_a = sqrt(sum_c |P_a,u,c - P_a,v,c|^2)`` (the erratum's corrected Eqs. 19-20).

    Parameters
    ----------
    s : int, optional
        Number of ranges; ``max(5, C)`` by default (section 2.5). At most the number of training instances
        (or that default, if larger): more ranges would leave most of them empty.
    erratum : bool
        True (default): the corrected equations. False: the equations as printed, ``sum_a vdm_a^2`` with
        ``vdm_a = sum_c |dP|^2`` (no square roots). With one attribute the two forms are monotone in each other
        and rank neighbours alike; with several they do not: the printed form adds *squared* sums of squares,
        so one large attribute difference outweighs several moderate ones, and the nearest neighbour can
        change (on a hepatitis test fold 2 of 16 queries, on horse-colic 16 of 37, get another nearest
        instance). The erratum says the experiments added the un-rooted sums, i.e. the corrected form.
    unseen : {"zero", "uniform"}
        Probabilities of a value (or range) with no training instance: 0 (Figure 5), or ``1/C``.
    integer : {"discrete", "continuous"}
        Whether integer (linear discrete) attributes are compared value by value like nominal ones (Eq. 18:
        ``discretize(x) = x`` for discrete attributes) or discretised like continuous ones.
    weights : array-like, optional
        Attribute weights multiplying each squared attribute distance.
    working_memory : float
        Bound, in MiB, on the temporaries of one chunk (as for :class:`lazylib.metrics.Metric`).

    Attributes
    ----------
    s_ : int
        The number of ranges used (``s``, or its default ``max(5, C)``).
    discretizers_ : dict
        Column name -> ``Discretizer`` of each discretised attribute (continuous, non-constant in training).

    See Also
    --------
    lazylib.metrics.terms.value_difference : The attribute term pair by pair, as the paper prints it.

    Notes
    -----
    Unknown values are one more discrete value with its own probabilities (section 4.2, after Domingos 1995).
    Test values outside ``[min_a, max_a]`` fall in ranges below 1 or above ``s``, which have no training
    instance and so probability 0. A continuous attribute that is constant in training is compared value by
    value. Range boundaries are computed with a tolerance of 1e-9 (see ``Discretizer``).

    References
    ----------
    Wilson, D. R. and Martinez, T. R. (1997), section 2.5 and 4.2, Eqs. 17-20, Figure 5; erratum (2000).

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([[1.0], [1.5], [2.0], [4.0], [4.5], [5.0]])
    >>> d = DVDM(s=2).fit(x, [0, 0, 0, 1, 1, 1], types=["continuous"])
    >>> d.pairwise(np.array([[1.2]]), np.array([[2.9], [3.1]])).round(4)
    array([[0.    , 1.4142]])
    """

    needs_labels = True
    interpolate = False

    def __init__(
        self,
        *,
        s: int | None = None,
        erratum: bool = True,
        unseen: str = "zero",
        integer: str = "discrete",
        weights=None,
        working_memory: float = WORKING_MEMORY,
    ):
        super().__init__(weights=weights, working_memory=working_memory)
        self.s = s
        self.erratum = erratum
        self.unseen = unseen
        self.integer = integer

    def _continuous(self, kind: str) -> bool:
        return kind == "continuous" or (kind == "integer" and self.integer == "continuous")

    _parameter_constraints: dict = {
        **AttributeMetric._parameter_constraints,
        "s": [Integer(low=1), None],  # at most max(5, C, n), checked in fit
        "erratum": [Boolean()],
        "unseen": [Choice(UNSEEN)],
        "integer": [Choice(("discrete", "continuous"))],
    }

    def _root(self) -> float:
        return 2.0 if self.erratum else 1.0

    def _fit(self, Z, y):
        C = len(self.classes_)
        default = max(5, C)
        # more ranges than training instances leaves most of them empty, and s = 10**8 would allocate gigabytes
        self.s_ = check("s", self.s, Integer(low=1, high=max(default, len(Z))), optional=True) or default
        form = "sq" if self.erratum else "sqsq"
        self.discretizers_ = {}
        self.attributes_ = []
        for a, kind in enumerate(self.kinds_):
            x = Z[:, a]
            present = x[~np.isnan(x)]
            if self._continuous(kind) and len(present) and present.max() > present.min():
                try:
                    disc = Discretizer(present.min(), present.max(), self.s_)
                except ValueError as exc:
                    raise ValueError(f"column {self.columns_[a]!r}: {exc}") from None
                self.discretizers_[self.columns_[a]] = disc
                self.attributes_.append(self._continuous_attribute(x, y, C, disc, form))
            else:
                table, P = probability_table(x, y, C, self.unseen)
                self.attributes_.append(ProbabilityAttribute(table, P, form=form, missing="value"))

    def _continuous_attribute(self, x, y, C, disc, form):
        table, P = probability_table(_discretize_keep_nan(disc, x), y, C, self.unseen)
        return ProbabilityAttribute(
            table,
            P,
            form=form,
            missing="value",
            transform=partial(_discretize_keep_nan, disc),  # a partial, not a lambda: picklable
        )

    def range_probabilities(self, column) -> np.ndarray:
        """``P_a,u,c`` of a discretised attribute: array (s, C), row ``u - 1`` for range ``u`` (Figure 5).

        Parameters
        ----------
        column : str or int
            A column name, or its position.

        Returns
        -------
        ndarray of shape (``s_``, C)
            Row ``u - 1``: the class probabilities of range ``u``.
        """
        a = column_index(self, column)
        if self.columns_[a] not in self.discretizers_:
            raise ValueError(
                f"column {self.columns_[a]!r} is not discretised (it is {self.kinds_[a]}, or constant "
                f"in training); discretised columns: {list(self.discretizers_)}"
            )
        return _range_probabilities(self.discretizers_[self.columns_[a]], self.X_[:, a], self.y_, len(self.classes_))


def _range_probabilities(disc: Discretizer, x: np.ndarray, y: np.ndarray, C: int) -> np.ndarray:
    """``P_a,u,c`` of the ranges ``u = 1..s`` from the known training values (Figure 5), shape (s, C)."""
    present = ~np.isnan(x)
    return conditional_probabilities(class_counts(disc.discretize(x[present]) - 1, disc.s, y[present], C))


def _discretize_keep_nan(disc: Discretizer, x: np.ndarray) -> np.ndarray:
    return disc.discretize(x).astype(np.float64)


class IVDM(DVDM):
    """Interpolated value difference metric (Eqs. 21-24): like DVDM, but a continuous value's class
    probabilities are interpolated linearly between the midpoints of the ranges around it (Eq. 23), so nearby
    values get nearby probabilities.

    ``IVDM(x, y) = sqrt(sum_a ivdm_a(x_a, y_a)^2)``, ``ivdm_a = sqrt(sum_c |p_a,c(x) - p_a,c(y)|^2)`` for
    continuous attributes and the DVDM term for discrete ones (erratum forms).

    Parameters
    ----------
    s : int, optional
        As for :class:`DVDM`.
    midpoints : {"centre", "printed"}
        ``mid_a,u = min_a + w_a (u - 1/2)``, the range centres that the paper's own Iris example needs (default),
        or ``min_a + w_a (u + 1/2)`` as Eq. 24 is printed. With "centre" the probabilities fall linearly to 0
        between the outermost midpoints and half a range outside the data.
    erratum : bool
        As for :class:`DVDM`; with ``erratum=False`` both Eq. 21 and Eq. 22 lose their square roots.
    unseen : {"zero", "uniform"}
        As for :class:`DVDM`.
    integer : {"discrete", "continuous"}
        As for :class:`DVDM`.
    weights : array-like, optional
        As for :class:`DVDM`.
    working_memory : float
        Bound, in MiB, on the temporaries of one chunk (as for :class:`lazylib.metrics.Metric`).

    See Also
    --------
    lazylib.metrics.terms.interpolated_difference : The attribute term pair by pair, as the paper prints it.
    lazylib.metrics.terms.value_difference : The attribute term pair by pair, as the paper prints it.

    References
    ----------
    Wilson, D. R. and Martinez, T. R. (1997), section 4, Eqs. 21-24, Figures 5-8; erratum (2000).

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([[1.0], [1.5], [2.0], [4.0], [4.5], [5.0]])
    >>> d = IVDM(s=2).fit(x, [0, 0, 0, 1, 1, 1], types=["continuous"])
    >>> d.pairwise(np.array([[1.2]]), np.array([[2.9], [3.1]])).round(4)
    array([[0.4528, 0.5701]])
    """

    interpolate = True

    def __init__(
        self,
        *,
        s: int | None = None,
        midpoints: str = "centre",
        erratum: bool = True,
        unseen: str = "zero",
        integer: str = "discrete",
        weights=None,
        working_memory: float = WORKING_MEMORY,
    ):
        super().__init__(
            s=s, erratum=erratum, unseen=unseen, integer=integer, weights=weights, working_memory=working_memory
        )
        self.midpoints = midpoints

    _parameter_constraints: dict = {**DVDM._parameter_constraints, "midpoints": [Choice(MIDPOINTS)]}

    def _continuous_attribute(self, x, y, C, disc, form):
        P_ranges = _range_probabilities(disc, x, y, C)
        convention = self.midpoints
        return CurveAttribute(
            partial(interpolate_ranges, disc=disc, P_ranges=P_ranges, convention=convention),  # picklable
            _missing_row(x, y, C, self.unseen),
            form=form,
        )

    def probabilities(self, column, values) -> np.ndarray:
        """Interpolated ``p_a,c(x)`` of a continuous attribute for the given values: array (len(values), C).

        Parameters
        ----------
        column : str or int
            A column name, or its position.
        values : array-like of float
            Values of that attribute.

        Returns
        -------
        ndarray of shape (len(values), C)
            The interpolated class probabilities of each value.
        """
        a = column_index(self, column)
        try:
            values = np.asarray(values, dtype=np.float64).reshape(-1)
        except (TypeError, ValueError):
            raise ValueError(f"values must be numbers (NaN for unknown), got {values!r}") from None
        if np.isinf(values).any():
            raise ValueError("values must be finite numbers or NaN (unknown)")
        return self.attributes_[a].probabilities(values)


class WVDM(IVDM):
    """Windowed value difference metric (Eqs. 25-26, Figures 9-10): the class probabilities of a continuous
    value come from the training instances inside a window of width ``w_a`` (Eq. 17) centred on each training
    value, interpolated linearly between neighbouring training values.

    Parameters
    ----------
    s : int, optional
        As for :class:`DVDM`.
    erratum : bool
        As for :class:`DVDM`.
    unseen : {"zero", "uniform"}
        As for :class:`DVDM`.
    integer : {"discrete", "continuous"}
        As for :class:`DVDM`.
    weights : array-like, optional
        Attribute weights, one vector or one per class of the stored instance (as for
        :class:`lazylib.metrics.Metric`).
    working_memory : float
        Bound, in MiB, on the temporaries of one chunk (as for :class:`lazylib.metrics.Metric`).

    See Also
    --------
    lazylib.metrics.terms.interpolated_difference : The attribute term pair by pair, as the paper prints it.
    lazylib.metrics.terms.value_difference : The attribute term pair by pair, as the paper prints it.

    Notes
    -----
    The window is closed, ``[v - w_a/2, v + w_a/2]``; below the smallest and above the largest training value
    the probabilities fall linearly to 0 over half a window (the paper's "interpolating towards 0 as is done in
    IVDM"). Both are our reading of Figures 9-10, which did not survive in our copy of the paper. Unknown values
    are one more discrete value, as in IVDM.

    References
    ----------
    Wilson, D. R. and Martinez, T. R. (1997), section 5, Eqs. 25-26, Figures 9-11; erratum (2000).

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([[1.0], [1.5], [2.0], [4.0], [4.5], [5.0]])
    >>> d = WVDM(s=2).fit(x, [0, 0, 0, 1, 1, 1], types=["continuous"])
    >>> d.pairwise(np.array([[1.2]]), np.array([[2.9], [3.1]])).round(4)
    array([[0.6364, 0.7778]])
    """

    def __init__(
        self,
        *,
        s: int | None = None,
        erratum: bool = True,
        unseen: str = "zero",
        integer: str = "discrete",
        weights=None,
        working_memory: float = WORKING_MEMORY,
    ):
        super().__init__(
            s=s, erratum=erratum, unseen=unseen, integer=integer, weights=weights, working_memory=working_memory
        )

    _parameter_constraints: dict = DVDM._parameter_constraints  # no midpoints: WVDM's curve has none

    def _continuous_attribute(self, x, y, C, disc, form):
        present = ~np.isnan(x)
        window = WindowProbabilities(disc.units(x[present]), y[present], C, disc.width_unit, disc.exponent)
        return CurveAttribute(window, _missing_row(x, y, C, self.unseen), form=form)


def _missing_row(x, y, C, unseen) -> np.ndarray:
    """Class distribution of the training rows whose value is unknown (zero, or 1/C, when there are none)."""
    table, P = probability_table(np.where(np.isnan(x), np.nan, 0.0), y, C, unseen)
    return P[table.missing]
