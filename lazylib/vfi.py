"""VFI5, classification by voting feature intervals (Güvenir 1998, section 2, Figures 4 and 5).

Every feature is learnt on its own. On a linear feature the per-class lowest and highest training values (the
*end points*) cut the line into point intervals (one per distinct end point) and open range intervals (between
consecutive end points, plus the two unbounded ends); a nominal feature has one point interval per value seen
in training. Each interval counts the training instances of every class falling into it; divided by the class
sizes and normalised to sum to one, the counts are the interval's votes. A query is classified by adding up,
over its known features, the votes of the interval each value falls into.

The whole of training and classification is vectorised over features and instances, and its memory is bounded.
The end points are stored unpadded, sorted by feature then value, with each feature's offset; the intervals
likewise, one flat table of counts and votes. The end points of every feature are also merged into one sorted
grid, so that a value's rank in the grid, offset by its feature, is a key that increases with (feature, value):
finding the interval of every value of every feature is two ``numpy.searchsorted`` calls and an addition, however
many end points the features have. Training counts and classifies the instances a chunk at a time, each chunk's
temporaries within ``working_memory``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context
from sklearn.utils.validation import check_is_fitted

from lazylib._docs import fill_doc
from lazylib._validation import Boolean, Choice, Real, check, check_working_memory, validate_params
from lazylib.encoding import fit_input, query_input
from lazylib.labels import encode_labels
from lazylib.metrics import WORKING_MEMORY
from lazylib.search import TIE_TOLERANCE
from lazylib.voting import vote_priority

#: The constant Weka's VFI adds to interval counts and class sizes when it weights votes by confidence, which
#: keeps the entropy of a pure interval above zero and its weight finite.
WEKA_TINY = 1e-11

#: The rules for a tie of summed votes (``tie_break``): the class more frequent in training, or the lowest index.
TIE_BREAKS = ("frequent", "first")

#: Bytes of temporaries per (instance, feature) value besides its class votes, when classifying or counting a
#: chunk of instances (the grid rank, the combined key, the point index, the slot and their masks).
_BYTES_PER_VALUE = 64

#: Above this natural logarithm of an interval weight (about 1e260), a query's votes are computed relative to its
#: largest weight, so that the summed votes of many features stay finite.
_LOG_WEIGHT_LIMIT = 600.0


@fill_doc
class VFI5Classifier(ClassifierMixin, BaseEstimator):
    """Voting feature intervals (VFI5), scikit-learn conventions (fitted attributes end in ``_``).

    Parameters
    ----------
    tie_tolerance : float
        Relative tolerance within which summed class votes count as tied.
    point_intervals : bool
        True (the paper's VFI5): every end point of a linear feature is a point interval. False: Weka's ``VFI``
        reading, with range intervals only; a training value on an end point counts half in each of the two
        adjoining ranges, and a query value on an end point gets the mean of their counts.
    confidence_bias : float or None
        None (the paper's VFI5): every feature's vote vector weighs the same. A number ``b > 0``: Weka's
        confidence weighting, each interval's votes multiplied by ``max(1, H ** -b)`` with ``H`` the entropy (in
        bits) of its vote vector, computed from counts shifted by :data:`WEKA_TINY` as Weka does (Weka's
        default bias is 0.6).
    tie_break : {"frequent", "first"}
        Which class wins a tie of summed votes: ``"frequent"`` (the library's rule) the class more frequent in
        training, then the lowest class index; ``"first"`` (Weka's) the lowest index in ``classes_`` order.
    feature_weights : array-like of shape (m,) or None
        None (the paper's VFI5): every feature's votes count once. Otherwise a non-negative weight per feature
        multiplying its vote vectors at classification (the paper's "unless otherwise specified", section 2).
    working_memory : float
        Bound, in MiB, on the temporaries of one chunk of instances when counting (:meth:`fit`) and classifying
        (:meth:`feature_votes`, :meth:`class_votes`, :meth:`predict` ...), as for the metrics
        (:data:`lazylib.metrics.WORKING_MEMORY` by default). The fitted tables take memory proportional to the
        number of intervals, not to features times the most end points of any feature.

    Attributes
    ----------
    {{fitted_input}}
    classes_ : ndarray of shape (C,)
        The classes of the training labels, in order (the columns of :meth:`class_votes`).
    class_counts_ : ndarray
        Training instances per class (the ``class_count[c]`` of Figure 4).
    columns_, kinds_ : tuple
        Feature names and types (``"nominal"`` or linear) as fitted.
    n_intervals_ : ndarray
        Intervals formed on each feature (at most ``4C + 1`` on a linear feature).
    intervals_ : dict
        Feature name -> DataFrame of its intervals: bounds, whether they are closed, the class counts and the
        class votes (built on demand from the fitted arrays).
    {{fitted_categories}}
    nominal_ : bool ndarray of shape (m,)
        Whether each feature is nominal.
    {{fitted_labels}}
    priority_ : ndarray of shape (C,)
        Rank of each class in a tie of summed votes, by the ``tie_break`` rule
        (:func:`lazylib.voting.vote_priority`).
    feature_weights_ : ndarray of shape (m,)
        The weight of each feature's votes (all ones without ``feature_weights``).
    grid_ : ndarray of shape (G,)
        Every distinct end point over all features, sorted.
    points_ : ndarray of shape (P,)
        The end points of every feature, unpadded: sorted by feature, then by value (feature ``f``'s are
        ``points_[point_offsets_[f]:point_offsets_[f + 1]]``).
    point_offsets_ : ndarray of shape (m + 1,)
        Where each feature's end points start in ``points_`` (the last entry is P).
    point_keys_ : ndarray of shape (P,)
        The increasing key of every end point, ``f (G + 1) + r`` with ``r`` its rank in ``grid_``.
    n_points_ : ndarray of shape (m,)
        End points of each feature.
    slot_offsets_ : ndarray of shape (m + 1,)
        Where each feature's interval slots start in ``counts_`` and ``votes_``: feature ``f`` has
        ``2 n_points_[f] + 1`` slots, local slot ``2 j`` the open range below its ``j``-th end point and
        ``2 j + 1`` that end point (the last entry is the number of slots, ``2 P + m``).
    counts_ : ndarray of shape (``slot_offsets_[-1]``, C)
        Training values of each class in each interval slot.
    votes_ : ndarray of shape (``slot_offsets_[-1]``, C)
        The class votes of each interval slot (normalised, times ``weights_`` with a confidence bias).
    weights_ : ndarray of shape (``slot_offsets_[-1]``,), or None
        Weka's confidence weight of each interval slot (None without ``confidence_bias``); infinite where it
        exceeds the float range (a nearly pure interval under a bias of about 40 or more).
    log_weights_ : ndarray of shape (``slot_offsets_[-1]``,), or None
        The natural logarithm of each weight, always finite: a query whose largest weight exceeds ``exp(600)`` is
        classified from these, its votes divided by that largest weight (which changes neither its winner nor
        :meth:`predict_proba`; :meth:`feature_votes` and :meth:`class_votes` then return the divided votes).
    shares_ : ndarray of shape (``slot_offsets_[-1]``, C), or None
        The normalised votes of each interval slot before weighting (None without ``confidence_bias``).

    Notes
    -----
    Figures 4 and 5 of the paper leave these details open; our readings:

    - A linear feature's end points are the per-class minimum and maximum of its *known* training values. Each
      distinct end point is a point interval ``[p, p]``; between consecutive end points lies an open range
      ``(p, q)``, and below the lowest and above the highest lie ``(-inf, p)`` and ``(q, +inf)``. With at most
      ``2C`` distinct end points that is at most ``4C + 1`` intervals, the paper's bound.
    - A training value equal to an end point counts in that point interval, any other in the open range holding
      it (so the two unbounded ranges never hold a training value).
    - ``vote = count / class_count``, with ``class_count`` the class's training instances (missing values
      included, as in Figure 4), then normalised so an interval's votes sum to 1. An interval holding no training
      value has all votes 0: a query value falling there leaves the vote unchanged (the feature abstains).
    - A nominal feature has a point interval per value seen in training; an unseen value abstains.
    - A missing value is skipped when counting and abstains at classification (Figure 5).
    - The class with the largest total vote wins; totals within ``tie_tolerance`` (relative) of the largest
      tie, and a tie goes to the class more frequent in training, then to the lowest class index (the rule of
      :class:`lazylib.neighbors.KNeighborsClassifier`; ``tie_break="first"`` gives it to the lowest index, as
      Weka does). A query on which every feature abstains therefore gets the most frequent training class.
    - :meth:`predict_proba` is the summed votes divided by their sum (each class's share of the total vote),
      uniform where every feature abstains: a normalised vote, not a calibrated probability.

    Feature values are never normalised: only their order matters, so predictions are unchanged by any
    strictly increasing transformation of a linear feature.

    With ``point_intervals=False, tie_break="first"`` and ``confidence_bias=None`` (Weka's ``-C``) or a number
    ``b`` (Weka's ``-B b``), :meth:`predict_proba` and :meth:`predict` reproduce Weka 3.6's
    ``weka.classifiers.misc.VFI``: checked against Weka's own output on four data sets in
    ``tests/oracles/test_weka_vfi.py``. Under either Weka option an interval holding no training value (and a
    nominal value unseen in training) votes what Weka's formula gives it instead of abstaining: ``1/C`` for every
    class without weighting (which changes no prediction), and with weighting the normalised
    ``WEKA_TINY / (N_c + WEKA_TINY)``, a vote leaning towards the smaller classes, weighted like any other
    interval (which can change a prediction). The entropy is computed in Weka's order of operations, so the
    weights of nearly pure intervals (entropy near 1e-10) agree to the last digits. Not reproduced: a class
    declared to Weka but absent from the training data (Weka then reuses the previous feature's vote for it;
    here it is not a class at all).

    References
    ----------
    Güvenir, H. A. (1998), section 2, Figures 4 and 5; Demiröz, G. and Güvenir, H. A. (1997).

    Examples
    --------
    Two classes on one linear feature: class "a" has end points 1 and 3, class "b" 3 and 5, so the end points
    1, 3, 5 give 3 point and 4 range intervals.

    >>> X = np.array([[1.0], [2.0], [3.0], [3.0], [4.0], [5.0]])
    >>> y = ["a", "a", "a", "b", "b", "b"]
    >>> clf = VFI5Classifier().fit(X, y, types=["continuous"])
    >>> clf.intervals_["0"][["lower", "upper", "closed", "count a", "count b", "vote a"]]
       lower  upper closed  count a  count b  vote a
    0   -inf    1.0   open        0        0     0.0
    1    1.0    1.0   both        1        0     1.0
    2    1.0    3.0   open        1        0     1.0
    3    3.0    3.0   both        1        1     0.5
    4    3.0    5.0   open        0        1     0.0
    5    5.0    5.0   both        0        1     0.0
    6    5.0    inf   open        0        0     0.0
    >>> clf.predict(np.array([[2.5], [3.0], [4.5]])).tolist()
    ['a', 'a', 'b']
    """

    def __init__(
        self,
        tie_tolerance: float = TIE_TOLERANCE,
        *,
        point_intervals: bool = True,
        confidence_bias: float | None = None,
        tie_break: str = "frequent",
        feature_weights=None,
        working_memory: float = WORKING_MEMORY,
    ):
        self.tie_tolerance = tie_tolerance
        self.point_intervals = point_intervals
        self.confidence_bias = confidence_bias
        self.tie_break = tie_break
        self.feature_weights = feature_weights
        self.working_memory = working_memory

    _parameter_constraints: dict = {
        "tie_tolerance": [Real(0, 1, open_high=True)],
        "point_intervals": [Boolean()],
        "confidence_bias": [Real(0, open_low=True), None],
        "tie_break": [Choice(TIE_BREAKS)],
        "feature_weights": ["array-like", None],
        "working_memory": [Real(0, open_low=True)],
    }
    _validate_params = validate_params

    # ------------------------------------------------------------------ training (Figure 4)
    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, *, types=None):
        """Learn the intervals of every feature and their class votes.

        Parameters
        ----------
        X : DataFrame or array of shape (n, m)
            Training attributes (nominal as Categorical columns, or codes with ``types``; NaN unknown).
        y : array-like of shape (n,)
            Class labels.
        types : sequence or dict, optional
            Attribute types, one per column (a dict keyed by column name for a DataFrame): required for the nominal
            codes of an array ``X``, whose columns are otherwise all continuous (:func:`lazylib.encoding.fit_input`); a
            DataFrame's types default to its dtypes.

        Returns
        -------
        VFI5Classifier
            The fitted estimator itself.
        """
        data = fit_input(self, X, types)
        Z = data.values
        n, m = Z.shape
        self.y_, self.classes_ = encode_labels(y, n, column=True)
        C = len(self.classes_)
        self.columns_, self.kinds_ = data.columns, data.kinds
        self.categories_ = data.categories
        self.nominal_ = data.nominal
        self.class_counts_ = np.bincount(self.y_, minlength=C)
        self.priority_ = vote_priority(self.class_counts_ if self.tie_break == "frequent" else np.zeros(C))
        self.feature_weights_ = self._check_feature_weights(m)

        feature, point = self._points(Z, self.y_, C)  # sorted by feature, then value
        self.grid_ = np.unique(point)
        self.points_ = point
        self.n_points_ = np.bincount(feature, minlength=m)
        self.point_offsets_ = np.concatenate([[0], np.cumsum(self.n_points_)]).astype(np.intp)
        self.point_keys_ = feature * (len(self.grid_) + 1) + np.searchsorted(self.grid_, point)
        self.slot_offsets_ = 2 * self.point_offsets_ + np.arange(m + 1)
        n_slots = int(self.slot_offsets_[-1])

        counts = np.zeros(n_slots * C, dtype=np.intp)
        for rows in self._chunks(n, m, 0):
            slot, known = self._slots(Z[rows])
            key = slot[known] * C + np.broadcast_to(self.y_[rows, None], known.shape)[known]
            counts += np.bincount(key, minlength=n_slots * C)
        counts = counts.reshape(n_slots, C)
        if not self.point_intervals:
            counts = self._half_counts(counts, feature)
        self.counts_ = counts
        share = counts / self.class_counts_
        total = share.sum(axis=1, keepdims=True)
        self.votes_ = np.divide(share, total, out=np.zeros_like(share), where=total > 0)
        self.weights_ = self.log_weights_ = self.shares_ = None
        if self.confidence_bias is not None:
            self.shares_, self.log_weights_ = self._confidence(counts)
            with np.errstate(over="ignore"):
                self.weights_ = np.exp(self.log_weights_)  # infinite beyond 1e308 (bias >= 40 on pure intervals)
            self.votes_ = self.shares_ * self.weights_[:, None]
        elif not self.point_intervals:  # Weka without weighting: an empty interval votes 1/C for every class
            self.votes_[total[:, 0] == 0] = 1.0 / C
        self.n_intervals_ = np.where(
            self.nominal_, self.n_points_, 2 * self.n_points_ + 1 if self.point_intervals else self.n_points_ + 1
        )
        return self

    def _half_counts(self, counts, feature):
        """Weka's counts on linear features: range ``j`` (slot ``2 j``) keeps its own values plus half of those
        on the end points at either side; an end point (slot ``2 j + 1``) holds the mean of its two ranges.
        ``feature`` is the feature of each end point; the range below end point ``p`` is range ``p + feature[p]``
        (feature ``f`` has ``n_points_[f] + 1`` ranges), whose slot is ``2 r - f``."""
        counts = counts.astype(float)
        m = len(self.n_points_)
        range_feature = np.repeat(np.arange(m), self.n_points_ + 1)
        range_slot = 2 * np.arange(len(range_feature)) - range_feature
        below = np.arange(len(feature)) + feature  # the range below each end point; the one above is below + 1
        points = counts[2 * np.arange(len(feature)) + feature + 1]
        moved = counts[range_slot]
        moved[below] += points / 2
        moved[below + 1] += points / 2
        on_point = (moved[below] + moved[below + 1]) / 2
        linear_range, linear_point = ~self.nominal_[range_feature], ~self.nominal_[feature]
        counts[range_slot[linear_range]] = moved[linear_range]
        counts[(2 * np.arange(len(feature)) + feature + 1)[linear_point]] = on_point[linear_point]
        return counts

    def _confidence(self, counts):
        """Weka's votes and the natural logarithm of the weight of every interval: the normalised
        ``(count + tiny) / (class size + tiny)`` with ``tiny`` = :data:`WEKA_TINY`, and ``max(1, H ** -bias)``,
        ``H`` the entropy in bits of those votes (kept as a logarithm, ``max(0, -bias ln H)``, which cannot
        overflow however large the bias).
        An interval holding no training value gets the same formula on zero counts, as in Weka. Sums run in
        Weka's order (class by class) and the entropy is Weka's ``(sum(-p ln p) + t ln t) / (t ln 2)``, ``t``
        the sum of the ``p``, so that the huge weights of nearly pure intervals match Weka's."""
        share = (counts + WEKA_TINY) / (self.class_counts_ + WEKA_TINY)
        p = share / np.cumsum(share, axis=1)[:, -1:]
        with np.errstate(divide="ignore", invalid="ignore"):
            plogp = np.where(p > 0, p * np.log(p), 0.0)
            t = np.cumsum(p, axis=1)[:, -1]
            entropy = (-np.cumsum(plogp, axis=1)[:, -1] + t * np.log(t)) / (t * np.log(2.0))
        entropy = np.maximum(entropy, np.finfo(float).tiny)
        return p, np.maximum(0.0, -float(self.confidence_bias) * np.log(entropy))

    def _check_feature_weights(self, m: int) -> np.ndarray:
        """``feature_weights`` as an array of m finite non-negative numbers (ones when None)."""
        if self.feature_weights is None:
            return np.ones(m)
        w = np.asarray(self.feature_weights, dtype=float)
        if w.shape != (m,):
            raise ValueError(f"feature_weights must hold one weight per feature ({m}), got shape {w.shape}")
        if not (np.isfinite(w).all() and (w >= 0).all()):
            raise ValueError(f"feature_weights must be finite and non-negative, got {w.tolist()}")
        return w

    def _points(self, Z, y, C):
        """``(feature, value)`` of every point interval: the distinct per-class end points of linear features,
        the distinct known values of nominal ones."""
        known = ~np.isnan(Z)
        ends = []
        for c in range(C):
            rows = y == c
            ends.append(np.min(np.where(known[rows], Z[rows], np.inf), axis=0))
            ends.append(np.max(np.where(known[rows], Z[rows], -np.inf), axis=0))
        ends = np.array(ends)  # (2C, m); +-inf where a class has no known value
        linear = ~self.nominal_
        f_lin = np.broadcast_to(np.arange(Z.shape[1]), ends.shape)[:, linear].ravel()
        v_lin = ends[:, linear].ravel()
        f_nom = np.broadcast_to(np.arange(Z.shape[1]), Z.shape)[:, self.nominal_].ravel()
        v_nom = Z[:, self.nominal_].ravel()
        feature = np.concatenate([f_lin, f_nom])
        value = np.concatenate([v_lin, v_nom])
        keep = np.isfinite(value)
        pairs = np.unique(np.stack([feature[keep].astype(float), value[keep]], axis=1), axis=0)
        return pairs[:, 0].astype(np.intp), pairs[:, 1]

    # ------------------------------------------------------------------ classification (Figure 5)
    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True  # an unknown value abstains
        tags.input_tags.categorical = True  # nominal attributes as pandas Categorical columns
        return tags

    def _encode_queries(self, X) -> np.ndarray:
        return query_input(self, X)

    def _chunks(self, n: int, m: int, C: int):
        """Slices of at most as many rows as keep one chunk's temporaries (``C`` votes and the look-up
        temporaries of each of ``m`` values per row) within ``working_memory``."""
        per_row = max(1, m * (8 * C + _BYTES_PER_VALUE))
        step = max(1, int(check_working_memory(self.working_memory) * 2**20 // per_row))
        return [slice(start, start + step) for start in range(0, n, step)]

    def _slots(self, Z):
        """Slot in ``counts_``/``votes_`` of every value (the feature's ``slot_offsets_`` plus ``2 j`` for the
        open range below its ``j``-th end point, ``2 j + 1`` for that end point), and whether the value is
        known (an unknown value gets its feature's last slot, to be masked by the caller)."""
        known = ~np.isnan(Z)
        m = Z.shape[1]
        G = len(self.grid_)
        if G == 0:
            return np.broadcast_to(self.slot_offsets_[:m], Z.shape).copy(), known
        r = np.searchsorted(self.grid_, np.where(known, Z, np.inf))  # rank in the grid, G above it
        on_grid = self.grid_[np.minimum(r, G - 1)] == Z
        r += np.arange(m) * (G + 1)  # the key of (feature, value), increasing like point_keys_
        p = np.searchsorted(self.point_keys_, r)  # first end point of the feature at or above the value
        hit = on_grid & (self.point_keys_[np.minimum(p, len(self.point_keys_) - 1)] == r)
        p -= self.point_offsets_[:m]  # end points of the feature below the value
        return self.slot_offsets_[:m] + 2 * p + hit, known

    def feature_votes(self, X) -> np.ndarray:
        """The vote vector of every feature for every query, shape (n, features, classes): row ``f`` of a
        query is ``feature_vote[f, :]`` of Figure 5 (all zero where the feature abstains). The result itself
        takes ``8 n m C`` bytes; it is filled a chunk of queries at a time, with temporaries within
        ``working_memory``.

        Parameters
        ----------
        {{queries}}

        Returns
        -------
        ndarray of shape (n, m, len(``classes_``))
            The vote vector of each feature for each query.
        """
        Z = self._encode_queries(X)
        n, m = Z.shape
        C = len(self.classes_)
        out = np.empty((n, m, C))
        for rows in self._chunks(n, m, C):
            out[rows] = self._chunk_votes(Z[rows])
        return out

    def _chunk_votes(self, Z) -> np.ndarray:
        """The weighted vote vectors (len(Z), m, C) of a chunk of encoded queries, zero where unknown."""
        slot, known = self._slots(Z)
        v = self.votes_[slot]
        if self.log_weights_ is not None:
            self._rescale(v, slot, known)
        np.multiply(v, self.feature_weights_[:, None], out=v)
        v[~known] = 0.0
        return v

    def class_votes(self, X) -> np.ndarray:
        """The summed feature votes of every query for every class, shape (n, classes), columns in ``classes_``
        order (the ``vote`` totals of Figure 5), computed a chunk of queries at a time within ``working_memory``.

        Parameters
        ----------
        {{queries}}

        Returns
        -------
        ndarray of shape (n, len(``classes_``))
            The summed votes of each query, one column per class also for two classes.
        """
        Z = self._encode_queries(X)
        n, m = Z.shape
        C = len(self.classes_)
        total = np.empty((n, C))
        for rows in self._chunks(n, m, C):
            total[rows] = self._chunk_votes(Z[rows]).sum(axis=1)
        return total

    def _rescale(self, v, slot, known) -> None:
        """With a confidence bias, the vote vectors ``v`` (n, m, C) of every query whose largest interval weight
        exceeds ``exp(_LOG_WEIGHT_LIMIT)`` recomputed from the logarithms of the weights, divided by that largest
        weight: a positive factor per query, which changes neither its winner nor its vote shares, where the
        weights themselves would overflow (every vote infinite and tied)."""
        log_w = np.where(known, self.log_weights_[slot], -np.inf)
        top = log_w.max(axis=1)
        big = top > _LOG_WEIGHT_LIMIT
        if big.any():
            v[big] = self.shares_[slot[big]] * np.exp(log_w[big] - top[big, None])[:, :, None]

    def decision_function(self, X) -> np.ndarray:
        """Confidence scores on scikit-learn's convention: for two classes one column, the summed votes of
        ``classes_[1]`` minus those of ``classes_[0]`` (positive favours ``classes_[1]``, as scikit-learn's linear
        models); for more classes the summed votes of every class, :meth:`class_votes`.

        Parameters
        ----------
        {{queries}}

        Returns
        -------
        ndarray of shape (n,) for two classes, else (n, len(``classes_``))
            The difference of the two classes' votes, or the summed votes of each class. A difference of 0 (or
            within ``tie_tolerance``) is a tie, decided by ``tie_break`` (see the class Notes).
        """
        votes = self.class_votes(X)
        return votes[:, 1] - votes[:, 0] if votes.shape[1] == 2 else votes

    def predict_proba(self, X) -> np.ndarray:
        """Each class's share of the summed votes (rows sum to 1; uniform where no feature votes).

        Parameters
        ----------
        {{queries}}

        Returns
        -------
        ndarray of shape (n, len(``classes_``))
            :meth:`class_votes` divided by its row sums, columns in ``classes_`` order (Weka's VFI returns
            the same normalisation as its class distribution).
        """
        return normalise_votes(self.class_votes(X))

    def predict_indices(self, X) -> np.ndarray:
        """Indices into ``classes_`` of the predicted classes.

        Parameters
        ----------
        {{queries}}

        Returns
        -------
        ndarray of shape (n,)
            Indices into ``classes_``.
        """
        return winners(self.class_votes(X), self.priority_, self.tie_tolerance)

    def predict(self, X) -> np.ndarray:
        """Predicted class labels: the class with the largest total vote (ties as in the class Notes).

        Parameters
        ----------
        {{queries}}

        Returns
        -------
        ndarray of shape (n,)
            The predicted class label of each query.
        """
        indices = self.predict_indices(X)
        return self.classes_[indices]

    # ------------------------------------------------------------------ readable intervals
    @property
    def intervals_(self) -> dict:
        """Feature name -> DataFrame of its intervals (see the class's Attributes)."""
        check_is_fitted(self)
        return {name: self._interval_table(f) for f, name in enumerate(self.columns_)}

    def _interval_table(self, f: int) -> pd.DataFrame:
        points = self.points_[self.point_offsets_[f] : self.point_offsets_[f + 1]]
        k = len(points)
        slots = np.arange(2 * k + 1)
        if self.nominal_[f]:
            slots = slots[1::2]
        elif not self.point_intervals:
            slots = slots[0::2]  # Weka: ranges only (a query on an end point averages its two ranges)
        j = slots // 2
        is_pt = slots % 2 == 1
        padded = np.concatenate([[-np.inf], points, [np.inf]])
        lower = np.where(is_pt, padded[j + 1], padded[j])
        upper = np.where(is_pt, padded[j + 1], padded[j + 1])
        table = {"lower": lower, "upper": upper, "closed": np.where(is_pt, "both", "open")}
        cats = self.categories_[f]
        if self.nominal_[f] and cats is not None:
            table = {"value": [cats[int(v)] for v in points], **table}
        slots = slots + self.slot_offsets_[f]
        for c, label in enumerate(self.classes_):
            table[f"count {label}"] = self.counts_[slots, c]
        for c, label in enumerate(self.classes_):
            table[f"vote {label}"] = self.votes_[slots, c]
        if self.weights_ is not None:
            table["weight"] = self.weights_[slots]
        return pd.DataFrame(table)


def normalise_votes(votes: np.ndarray) -> np.ndarray:
    """Rows of summed votes (n, C) divided by their sums (summed class by class, as Weka does); a row summing
    to 0 becomes uniform, ``1/C`` each.

    Examples
    --------
    >>> normalise_votes(np.array([[3.0, 1.0], [0.0, 0.0]])).tolist()
    [[0.75, 0.25], [0.5, 0.5]]
    """
    votes = np.asarray(votes, dtype=float)
    total = np.cumsum(votes, axis=1)[:, -1:]
    return np.divide(votes, total, out=np.full_like(votes, 1.0 / votes.shape[1]), where=total > 0)


def winners(votes: np.ndarray, priority: np.ndarray, tie_tolerance: float = TIE_TOLERANCE) -> np.ndarray:
    """Index of the winning class of each row of ``votes`` (n, C): the largest, with totals within
    ``tie_tolerance`` (relative) of it tied, and a tie going to the highest ``priority`` (see
    :func:`lazylib.voting.vote_priority`).

    Examples
    --------
    >>> winners(np.array([[0.5, 0.5], [0.2, 0.8]]), np.array([1 / 3, 2 / 3])).tolist()
    [1, 1]
    """
    tie_tolerance = check("tie_tolerance", tie_tolerance, Real(0, 1, open_high=True))
    votes, priority = np.asarray(votes, dtype=np.float64), np.asarray(priority, dtype=np.float64)
    if votes.ndim != 2 or priority.shape != (votes.shape[1],):
        raise ValueError(
            f"votes must be (n, C) and priority one number per class (C,), got shapes {votes.shape} and "
            f"{priority.shape}"
        )
    if not (np.isfinite(votes).all() and np.isfinite(priority).all()):
        raise ValueError("votes and priority must be finite (a NaN vote made its row's winner class 0)")
    best = votes.max(axis=1, keepdims=True)
    tied = votes >= best - tie_tolerance * np.maximum(np.abs(best), 1.0)
    return np.argmax(np.where(tied, priority[None, :], -np.inf), axis=1)
