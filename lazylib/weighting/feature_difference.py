"""The distance of Howe & Cardie's Tables 1 and 2 before any weighting (:class:`FeatureDifference`: overlap,
range-scaled differences and Eq. 6 for sets, summed), its table form for few-valued numeric features
(:class:`AbsoluteTable`) and the mixin of the metrics whose weights are learnt (``LearnedWeights``, for the
weighting modules: not in ``__all__``, so not an estimator of its own)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from lazylib._docs import fill_doc
from lazylib._validation import Choice
from lazylib.column_stats import known_range
from lazylib.encoding import NOMINAL, SET, TYPES
from lazylib.metrics import WORKING_MEMORY, AttributeMetric
from lazylib.metrics.extend import (
    Half,
    OverlapAttribute,
    PowerAttribute,
    SetAttribute,
    centre,
    check_weights,
    min_member_distances,
)

#: How :class:`FeatureDifference` scales numeric and set differences.
SCALES = ("range", "raw")


#: When every numeric feature has at most this many distinct training values (and none is set-valued), they are
#: compared through tables of their differences (:class:`AbsoluteTable`): the whole distance is then the engine's
#: matrix product and goes through its search. Otherwise term by term (a product beside direct terms costs more
#: than it saves: segment's leave-one-out 1.3 s -> 5.7 s with its few-valued features alone in tables).
TABLE_VALUES = 32


#: Readings of an unknown value by :class:`FeatureDifference`, :class:`~lazylib.weighting.IGWeighted` and
#: :class:`~lazylib.weighting.MDW` (``missing``).
MISSING = ("one", "value")


class _UnknownAsValue(PowerAttribute):
    """``|x - y| / scale`` with an unknown value one more value: 1 from every known value, 0 from another
    unknown (``missing="value"`` of :class:`FeatureDifference`)."""

    def _direct(self, uq, us) -> np.ndarray:
        """The terms between the columns ``uq`` and ``us`` (1 against an unknown value, 0 between two unknowns).
        Overriding this rather than :meth:`direct` keeps :meth:`direct_rows`: between the distinct values of a
        column (all unknowns one value), the mask costs a small table instead of a matrix of every pair."""
        term = super()._direct(uq, us)
        term[np.isnan(uq)[:, None] & np.isnan(us)[None, :]] = 0.0
        return term


class AbsoluteTable(PowerAttribute):
    """``|x - y| / scale`` of a numeric feature (unknown values at difference 1), as :class:`PowerAttribute` with
    ``r = 1``, written as a table lookup over the distinct stored values ``v_j``: the query's row
    ``psi(x) = (|x - v_j| / scale)_j`` (1 for an unknown stored value, all 1 for an unknown query), the stored
    value's one-hot column ``chi(y)``. The term is then bilinear, so the engine's matrix product and search
    take it; each entry is the term of the direct path, computed by the same expression. With
    ``missing="value"`` two unknown values are at difference 0 (an unknown value is one more value, the reading
    of ``missing="value"`` of issue #38's item 6); with ``"one"`` at 1, as :class:`PowerAttribute`.

    >>> t = AbsoluteTable(0.0, 2.0)
    >>> q, s = t.pair(np.array([0.0, np.nan]), np.array([1.0, 3.0, np.nan]))
    >>> (q.emb @ s.emb.T).tolist() == t.direct(np.array([0.0, np.nan]), np.array([1.0, 3.0, np.nan])).tolist()
    True
    >>> q, s = AbsoluteTable(0.0, 2.0, missing="value").pair(np.array([np.nan]), np.array([1.0, np.nan]))
    >>> (q.emb @ s.emb.T).tolist()
    [[1.0, 0.0]]
    """

    bilinear = True
    separable = False  # the table's columns are the stored side's values

    def __init__(self, center: float = 0.0, scale: float = 1.0, missing: str = "one"):
        super().__init__(1.0, center, scale)
        self.missing = missing

    def direct(self, xq, xs) -> np.ndarray:
        """The (len(xq), len(xs)) matrix of terms, as the table gives them (two unknown values at 0 under
        ``missing="value"``)."""
        term = super().direct(xq, xs)
        if self.missing == "value":
            term[np.isnan(xq)[:, None] & np.isnan(xs)[None, :]] = 0.0
        return term

    def pair(self, xq, xs) -> tuple[Half, Half]:
        """Query and stored halves: rows of the difference table and one-hot columns of the stored values.

        Parameters
        ----------
        xq, xs : ndarray
            A column of query values and one of stored values (NaN unknown).

        Returns
        -------
        tuple of Half
            The query's and the stored side's.
        """
        known = ~np.isnan(xs)
        values, rows = np.unique(xs[known], return_inverse=True)
        width = len(values) + 1  # the last column: an unknown stored value
        psi = np.ones((len(xq), width))
        psi[:, :-1] = self.direct(xq, values)
        if self.missing == "value":
            psi[np.isnan(xq), -1] = 0.0
        chi = np.zeros((len(xs), width))
        chi[np.flatnonzero(known), rows] = 1.0
        chi[~known, -1] = 1.0
        unknown = np.zeros(len(xq), bool), np.zeros(len(xs), bool)
        return Half(np.zeros(len(xq)), psi, unknown[0]), Half(np.zeros(len(xs)), chi, unknown[1])


class FeatureDifference(AttributeMetric):
    """``D(x, y) = sum_f w_f delta_f(x_f, y_f)`` with ``delta_f = |x - y| / range_f`` for numeric features,
    overlap for symbolic ones and Eq. 6 (the smallest Euclidean distance between members) divided by the largest
    training set difference for set-valued ones: the intrinsic differences and sum combination of Howe &
    Cardie's Tables 1 and 2 and of their image task.

    Parameters
    ----------
    scale : {"range", "raw"}
        ``"range"``: each numeric and set difference is divided by the largest difference between two training
        values of its feature (for a numeric feature its range), so every training difference lies in [0, 1]
        as overlap does; ``"raw"``: differences in the data's units.
    weights : array-like or DataFrame, optional
        One vector, or one per class of the stored instance (as :func:`~lazylib.weighting.mdw_weights` gives).
    working_memory : float
        Bound, in MiB, on the temporaries of one chunk (as for :class:`lazylib.metrics.Metric`).
    missing : {"one", "value"}
        The reading of an unknown symbolic or numeric value: ``"one"`` (HEOM's rule: it differs by 1 from
        everything, another unknown included; :class:`~lazylib.weighting.MDW` leaves it out of its mean differences), or
        ``"value"`` (Part V's reading of unknowns, :func:`lazylib.protocols.howe_cardie.protocol.unknown_as_value`,
        extended to numbers: one more value of its feature, differing by 1 from every known value and by 0
        from another unknown, and counted as a value in :class:`~lazylib.weighting.MDW`'s mean differences and
        :class:`~lazylib.weighting.IGWeighted`'s gain). An unknown set differs by 1 from everything under both.

    Attributes
    ----------
    range_ : ndarray of shape (``n_features_in_``,)
        Training range of each feature (NaN for a set-valued one).
    scales_ : ndarray of shape (``n_features_in_``,)
        The divisor of each feature's difference: its range, or for a set-valued feature its largest training
        difference, under ``scale="range"``; 1 under ``"raw"`` and for symbolic features.

    Notes
    -----
    The paper names the intrinsic differences only for its set features; we take ``|x - y|`` and Eq. 6 divided
    by their largest training value (so the unweighted k-NN baseline is not dominated by units; ``scale="raw"``
    keeps the units, the reading of :mod:`lazylib.weighting.sets`) and overlap, combined by a sum (Eq. 1
    averages the differences themselves, so weights calibrated by MDW are meant for a sum, and MDW's distances
    between known values are the same under either ``scale``: its scaling weights undo any unit). The largest
    set difference is exact, every pair of training sets compared at ``fit``: the analogue of a range, for as
    much work as one leave-one-out pass. An unknown value (NaN; None or an empty array for a set) gives the
    feature difference 1, as in HEOM, whatever ``scale`` (:mod:`lazylib.weighting.sets` reads it as 0 instead).
    A feature constant in training contributes nothing.

    References
    ----------
    Howe, N. and Cardie, C., sections 1-3, Eq. 6; Wilson, D. R. and Martinez, T. R. (1997), Eqs. 3-7 (HEOM).

    Examples
    --------
    >>> X = pd.DataFrame({"colour": pd.Categorical(["red", "blue"]), "size": [1.0, 3.0]})
    >>> FeatureDifference().fit(X).pairwise(X)
    array([[0., 2.],
           [2., 0.]])

    A set-valued column holds ``(members, d)`` arrays; the largest training set difference here is 5:

    >>> S = pd.DataFrame({"s": [np.array([[0.0, 0.0], [9.0, 9.0]]), np.array([[3.0, 4.0]]), None]})
    >>> FeatureDifference().fit(S).pairwise(S)
    array([[0., 1., 1.],
           [1., 0., 1.],
           [1., 1., 1.]])
    """

    _fixed_root = 1.0
    accepts = TYPES

    def __init__(
        self, *, scale: str = "range", weights=None, working_memory: float = WORKING_MEMORY, missing: str = "one"
    ):
        super().__init__(weights=weights, working_memory=working_memory)
        self.scale = scale
        self.missing = missing

    _parameter_constraints: dict = {
        **AttributeMetric._parameter_constraints,
        "scale": [Choice(SCALES)],
        "missing": [Choice(MISSING)],
    }

    def _fit(self, Z, y):
        self._fit_terms(Z, self._set_differences(Z, full=False) if self.scale == "range" else {})

    def _fit_terms(self, Z, differences: dict):
        """One term per feature; ``differences``: set column index -> its largest training difference, or its
        (n, n) matrix of training differences (``"range"`` only)."""
        lo, hi = known_range(Z)
        self.range_ = np.where(np.asarray(self.kinds_) == SET, np.nan, hi - lo)
        self.scales_ = np.ones(len(self.kinds_))
        self.attributes_ = []
        kinds = np.asarray(self.kinds_)
        tabled = not (kinds == SET).any() and all(
            len(np.unique(Z[:, a][~np.isnan(Z[:, a])])) <= TABLE_VALUES for a in np.flatnonzero(kinds != NOMINAL)
        )
        for a, kind in enumerate(self.kinds_):
            if kind == NOMINAL:
                self.attributes_.append(OverlapAttribute(self.missing))
                continue
            if self.scale == "range":
                self.scales_[a] = self.range_[a] if kind != SET else float(np.nanmax(differences[a], initial=0.0))
            if kind == SET:
                table = self.sets_[a]
                shift = centre(table.members)
                self.attributes_.append(SetAttribute(self.scales_[a], shift, unknown=1.0))
            elif tabled:
                self.attributes_.append(AbsoluteTable(lo[a], self.scales_[a], missing=self.missing))
            else:
                term = _UnknownAsValue if self.missing == "value" else PowerAttribute
                self.attributes_.append(term(1.0, lo[a], self.scales_[a]))

    def _set_differences(self, Z, full: bool = True) -> dict:
        """Set column index -> the (n, n) matrix of Eq. 6 among the training rows (NaN where a set is unknown),
        or with ``full=False`` only its largest value (computed block by block)."""
        out = {}
        budget = self.working_memory * 2**20
        for a in np.flatnonzero(np.asarray(self.kinds_) == SET):
            table, x = self.sets_[a], Z[:, a]
            if full:
                out[a] = min_member_distances(table, x, table, x, max_bytes=budget)
                continue
            step = max(1, int(budget // max(8 * (len(table.members) + 1) * int(table.sizes.max(initial=1)), 1)))
            out[a] = max(
                (
                    float(
                        np.nanmax(min_member_distances(table, x[i : i + step], table, x, max_bytes=budget), initial=0.0)
                    )
                    for i in range(0, len(x), step)
                ),
                default=0.0,
            )
        return out

    def _frame(self, Z) -> pd.DataFrame:
        """The training data as a DataFrame of the intrinsic scale: numeric columns and set members divided by
        the column's scale (see ``scale``), sets as (members, d) arrays (None when unknown)."""
        cols = {}
        for a, (name, kind) in enumerate(zip(self.columns_, self.kinds_)):
            scale = self.scales_[a] if self.scales_[a] > 0 else np.inf
            if kind == NOMINAL:
                cols[name] = pd.Categorical.from_codes(
                    np.nan_to_num(Z[:, a], nan=-1).astype(int), categories=range(int(np.nanmax(Z[:, a], initial=0)) + 1)
                )
            elif kind == SET:
                cols[name] = pd.Series(
                    [None if s is None else s / scale for s in map(self.sets_[a].get, Z[:, a])], dtype=object
                )
            else:  # a constant feature: all 0, its unknown values included (as IG and MDW have always seen it)
                cols[name] = Z[:, a] / scale if self.scales_[a] > 0 else np.zeros(len(Z))
        return pd.DataFrame(cols)


@fill_doc
class LearnedWeights:
    """Mixin: weights learnt in ``_fit`` (``self.learned_``) replace the ``weights`` parameter.

    The metrics whose weights are learnt (:class:`lazylib.weighting.IGWeighted`, :class:`lazylib.weighting.MDW`,
    :class:`lazylib.weighting.MDWMVDM`) put it first among their bases: their ``_fit`` sets ``learned_``, which
    ``fit`` then checks and sets as ``weights_``.
    """

    def fit(self, X, y=None, *, types=None):
        """Fit the metric, then set its learnt weights as ``weights_``.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Training data.
        y : array-like of shape (n_samples,), optional
            Class labels.
        {{fit_types}}

        Returns
        -------
        self
            The fitted metric.
        """
        self._validate_params()  # weights: None only, the weights are learnt
        super().fit(X, y, types=types)
        self.weights_ = check_weights(self.learned_, self.columns_, self.classes_)
        return self


__all__ = [
    "SCALES",
    "AbsoluteTable",
    "FeatureDifference",
]
