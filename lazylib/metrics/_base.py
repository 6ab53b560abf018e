"""The public side of every metric: :class:`Metric` (fit, validation, ``pairwise``, the search entry points) and
:class:`AttributeMetric` (one fitted attribute term per column, turned into the two sides of the engine's
product). The computation itself is in :mod:`lazylib.metrics._engine` (the bilinear plan and its exactness) and
:mod:`lazylib.metrics._search` (the exact k-nearest search).

A one-page overview of the engine, with a diagram from data to the vote: ``lazylib/metrics/README.md``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from lazylib.metrics._encode import Encoded, check_finite, encode, encode_labels
from lazylib.metrics._engine import (  # noqa: F401  (the names kept importable from here)
    CANCELLATION,
    SNAP,
    Bilinear,
    Plan,
    StoredSide,
    _assemble_left,
    _assemble_right,
    _exact_pairs,
    _unknown_one_fill,
    sq_attributes,
)
from lazylib.params import Params

#: Default bound on the temporary memory of one chunk of a distance computation, in MiB.
WORKING_MEMORY = 64


class NotFittedError(RuntimeError):
    """A metric was used before ``fit``."""


class Metric(Params):
    """Base class: a fitted distance with ``fit(X, y)`` and ``pairwise(A, B)``.

    Subclasses describe one attribute at a time; this class validates input, applies weights, chunks the work
    and combines the terms.

    Parameters
    ----------
    weights : array-like, optional
        Attribute weights multiplying each attribute's term: shape (m,) for one global vector, or (C, m) for one
        vector per class, applied to the class of the *stored* instance (the column of ``pairwise``), as in Howe
        and Cardie's mean difference weighting. A Series/DataFrame is aligned on column names (and classes).
    working_memory : float
        Bound, in MiB, on the temporaries of one chunk.

    Attributes
    ----------
    columns_ : tuple of str
        Attribute names (a DataFrame's columns; ``"0"``, ``"1"``... for an array).
    kinds_ : tuple of str
        Type of each attribute (``"nominal"``, ``"continuous"``, ...), as encoded.
    categories_ : tuple
        Categories of each nominal column of a DataFrame (None for the other columns).
    n_features_in_ : int
        Number of attributes seen in ``fit``.
    X_ : ndarray of shape (n, n_features_in_)
        The encoded training data (nominal values as codes, unknown values as NaN): the stored instances when
        ``pairwise`` is given no ``B``.
    y_ : ndarray of shape (n,) or None
        Class codes ``0..C-1`` of the training instances (None when fitted without labels).
    classes_ : tuple or None
        The class labels, in the order of their codes (None when fitted without labels).
    weights_ : ndarray of shape (n_features_in_,) or (C, n_features_in_), or None
        The fitted attribute weights (None: all ones).
    root_ : float
        The exponent of the final root, ``D = S ** (1 / root_)`` (2 for HEOM, HVDM; ``r`` for Minkowski).
    fitted_ : bool
        True once ``fit`` has run.
    """

    #: The exponent of the final root, ``D = S ** (1 / root_)`` where ``S`` is the weighted sum of attribute
    #: terms, for a metric whose exponent is fixed; :meth:`_root` gives the fitted ``root_`` (overridden where
    #: the exponent depends on a parameter, e.g. Minkowski's ``r``).
    _fixed_root: float = 1.0
    #: Whether ``fit`` needs class labels.
    needs_labels: bool = False
    #: Attribute types the metric accepts (None: all).
    accepts: tuple[str, ...] | None = None
    #: Whether the sums come from the engine (:meth:`_plan` and :meth:`_direct_terms`); a metric that computes
    #: its blocks otherwise sets it False and overrides :meth:`_chunks` (it is then searched by whole rows).
    uses_engine: bool = True

    @property
    def weights_(self) -> np.ndarray | None:
        """The fitted attribute weights (None: all ones). Setting them (a metric that learns its weights sets
        them after ``fit``) drops the training data's stored side, which depends on them."""
        return self._weights

    @weights_.setter
    def weights_(self, W) -> None:
        self._weights = W
        self._training_sides = {}

    def __init__(self, *, weights=None, working_memory: float = WORKING_MEMORY):
        self.weights = weights
        self.working_memory = working_memory

    # ------------------------------------------------------------------ public API
    def fit(self, X, y=None, *, types=None):
        """Learn what the metric needs from training data only (probabilities, ranges, deviations...).

        Parameters
        ----------
        X : DataFrame or array of shape (n, m)
            Training attributes (see :func:`lazylib.metrics._encode.encode`).
        y : array-like of shape (n,), optional
            Class labels; required by the metrics that use class-conditional probabilities.
        types : sequence or dict, optional
            Attribute types, required when ``X`` is an array.

        Returns
        -------
        Metric
            The fitted metric itself.
        """
        enc = encode(X, types)
        if self.accepts is not None:
            bad = [c for c, k in zip(enc.columns, enc.kinds) if k not in self.accepts]
            if bad:
                raise ValueError(f"{type(self).__name__} accepts only {self.accepts} attributes; {bad} are not")
        self.columns_ = enc.columns
        self.kinds_ = enc.kinds
        self.categories_ = enc.categories
        self.n_features_in_ = len(enc.columns)
        self._from_frame = enc.from_frame
        if y is not None or self.needs_labels:
            self.y_, self.classes_ = encode_labels(y, enc.values.shape[0],
                                                   min_classes=2 if self.needs_labels else 1)
        else:
            self.y_, self.classes_ = None, None
        self._training_halves = {}
        self.root_ = self._root()
        self._fit(enc.values, self.y_)
        self._center(enc.values)
        self.X_ = enc.values
        self.weights_ = self._check_weights(self.weights)
        self.fitted_ = True
        return self

    def pairwise(self, A, B=None, *, y_B=None) -> np.ndarray:
        """Distances from every row of ``A`` (queries) to every row of ``B`` (stored instances).

        ``B`` defaults to the training data (whose classes are then known). Per-class weights need the classes
        of ``B``: pass ``y_B`` when ``B`` is given.

        Parameters
        ----------
        A : DataFrame or array of shape (n_A, n_features_in_)
            Queries, encoded as in :meth:`fit`.
        B : DataFrame or array of shape (n_B, n_features_in_), optional
            Stored instances (default: the training data).
        y_B : array-like of shape (n_B,), optional
            Classes of ``B``, for per-class weights.

        Returns
        -------
        ndarray of shape (len(A), len(B))
            ``D[i, j]``, the distance from query ``i`` to stored instance ``j``.
        """
        Zq, Zs, cls, training = self._prepare(A, B, y_B)
        out = np.empty((Zq.shape[0], Zs.shape[0]))
        if self.uses_engine:  # the engine writes each chunk in place
            for _ in self._chunks(Zq, Zs, cls, training=training, out=out):
                pass
            return out
        for start, stop, block in self._chunks(Zq, Zs, cls, training=training):
            out[start:stop] = block
        return out

    def pairwise_chunks(self, A, B=None, *, y_B=None, reduced: bool = False):
        """Yield ``(start, stop, D[start:stop])`` over row chunks of ``A``; memory stays bounded by
        ``working_memory`` whatever ``len(A)``.

        With ``reduced=True`` the chunks hold the weighted sums ``S`` before the final root (``D = S^(1/root_)``,
        see :meth:`from_reduced`): the same order of neighbours, without the cost of the root.

        Parameters
        ----------
        A : DataFrame or array of shape (n_A, n_features_in_)
            Queries, as for :meth:`pairwise`.
        B : DataFrame or array of shape (n_B, n_features_in_), optional
            Stored instances, as for :meth:`pairwise`.
        y_B : array-like of shape (n_B,), optional
            Classes of ``B``, as for :meth:`pairwise`.
        reduced : bool
            Yield the sums ``S`` instead of the distances.

        Yields
        ------
        tuple of (int, int, ndarray)
            ``(start, stop, block)``: the rows ``start:stop`` of ``D`` (or of ``S``).
        """
        Zq, Zs, cls, training = self._prepare(A, B, y_B)
        yield from self._chunks(Zq, Zs, cls, reduced=reduced, training=training)

    def nearest_chunks(self, A, k: int, tie_tolerance: float = 1e-9, *, leave_one_out: bool = False):
        """Yield, over blocks of queries, the training instances nearest to each query: those whose reduced sum
        ``S`` (see :meth:`pairwise_chunks`) is within ``tie_tolerance`` (relative to it, whatever the scale of the
        data) of the query's k-th smallest, so the k nearest and every instance tied with the k-th.

        Yields ``(start, stop, rows, cols, sums)``: query indices (from 0 for the first row of ``A``), training
        indices and their sums, sorted by row, then sum, then column. Metrics made of bilinear terms only
        search exactly through a single-precision filter (:mod:`lazylib.metrics._search`); the others scan
        whole rows of :meth:`pairwise_chunks`. With ``leave_one_out=True`` (and ``A=None``) the queries are the
        training instances, each searched among the others (its own row excluded).

        Parameters
        ----------
        A : DataFrame or array, or None
            Queries (None with ``leave_one_out``).
        k : int
            Number of nearest neighbours.
        tie_tolerance : float
            Relative tolerance within which sums count as tied with the k-th smallest.
        leave_one_out : bool
            Search the training instances among the others.

        Yields
        ------
        tuple of (int, int, ndarray, ndarray, ndarray)
            ``(start, stop, rows, cols, sums)`` for the queries ``start:stop``.
        """
        from lazylib.metrics import _search

        for start, stop, rows, cols, sums, groups in self.nearest_groups(A, k, tie_tolerance,
                                                                         leave_one_out=leave_one_out):
            rows, cols, sums = groups.expand(rows, cols, sums)
            if leave_one_out:
                keep = cols != rows
                rows, cols, sums = _search.within(rows[keep] - start, cols[keep], sums[keep], stop - start, k,
                                                  tie_tolerance)
                rows = rows + start
            yield start, stop, rows, cols, sums

    def nearest_groups(self, A, k: int, tie_tolerance: float = 1e-9, *, leave_one_out: bool = False):
        """:meth:`nearest_chunks` over groups of training instances with identical stored sides (identical
        sums against every query; :class:`lazylib.metrics._search.Groups`): yields ``(start, stop, rows,
        groups, sums, grouping)`` where ``groups`` index ``grouping``'s groups and the k-th smallest sum counts
        each group once per member. Massive ties among identical instances then cost one pair per group.

        With ``leave_one_out=True`` (``A=None``), the search is made for ``k + 1`` among all training
        instances, each query's own instance included: removing it (one member of its group) leaves a superset
        of the pairs within the tolerance of the k-th smallest among the others.

        Parameters
        ----------
        A : DataFrame or array, or None
            Queries, as for :meth:`nearest_chunks`.
        k : int
            Number of nearest neighbours.
        tie_tolerance : float
            As for :meth:`nearest_chunks`.
        leave_one_out : bool
            As for :meth:`nearest_chunks`.

        Yields
        ------
        tuple
            ``(start, stop, rows, groups, sums, grouping)`` for the queries ``start:stop``.
        """
        from lazylib.metrics import _search

        if leave_one_out:
            if A is not None:
                raise ValueError("leave_one_out searches the training data: pass A=None")
            self._check_fitted()
            Zq, Zs, cls = self.X_, self.X_, self.y_
            if not (isinstance(k, (int, np.integer)) and 1 <= k <= len(Zs) - 1):
                raise ValueError(f"k must be an integer between 1 and n - 1 = {len(Zs) - 1} for leave-one-out, "
                                 f"got {k!r}")
            k = int(k) + 1
        else:
            Zq, Zs, cls, _ = self._prepare(A, None, None)
            if not (isinstance(k, (int, np.integer)) and 1 <= k <= len(Zs)):
                raise ValueError(f"k must be an integer between 1 and the training set size {len(Zs)}, got {k!r}")
            k = int(k)
        plan = self._plan(Zq, Zs, cls, training=True) if self._searchable() else None
        if plan is not None and plan.left is not None:
            plan, groups = _search.group_plan(plan)
            size = None if groups.trivial else groups.size
            for block in _search.search(self, plan, k, tie_tolerance, size):
                yield (*block, groups)
            return
        groups = _search.Groups.identity(len(Zs))
        for start, stop, S in self._chunks(Zq, Zs, cls, reduced=True, training=True):
            yield (start, stop, *_search.select(S, k, tie_tolerance, start), groups)

    def from_reduced(self, S: np.ndarray) -> np.ndarray:
        """Distances from the reduced sums of ``pairwise_chunks(..., reduced=True)``.

        Parameters
        ----------
        S : array-like
            Reduced sums, as :meth:`pairwise_chunks` yields them with ``reduced=True``.

        Returns
        -------
        ndarray
            ``S ** (1 / root_)`` (negative rounding errors set to 0).
        """
        self._check_fitted()
        return self._finish(np.array(S, dtype=np.float64))

    # ------------------------------------------------------------------ for subclasses
    def _root(self) -> float:
        """The exponent ``root_`` of ``D = S ** (1 / root_)``, set by :meth:`fit` before :meth:`_fit` (validating
        the parameters it depends on)."""
        return self._fixed_root

    def _fit(self, Z: np.ndarray, y: np.ndarray | None) -> None:
        """Learn per-attribute state from the encoded training matrix."""

    def _center(self, Z: np.ndarray) -> None:
        """After ``_fit``: anything fitted that depends on the training values as a whole."""

    def _bilinear(self, Zq: np.ndarray, Zs: np.ndarray, stored: Bilinear | None = None
                  ) -> tuple[Bilinear, Bilinear] | None:
        """Query-side and stored-side bilinear terms of all bilinear attributes, or None. ``stored``: the
        stored side already computed (only for a separable metric, see :meth:`_separable`)."""
        return None

    def _searchable(self) -> bool:
        """Whether the sums are the bilinear product of :meth:`_plan` alone (for :meth:`nearest_chunks`)."""
        return self.uses_engine and not self._direct_attributes()

    def _separable(self) -> bool:
        """Whether the stored side of the bilinear terms can be computed without the queries."""
        return False

    def _training_stored_terms(self) -> Bilinear:
        """The stored side of the bilinear terms for the training data (separable metrics only)."""
        raise NotImplementedError

    def _training_stored_side(self, V, no_query_weights: bool) -> StoredSide:
        """The stored side for the training data, built once per fit and per weights (one per value of
        ``no_query_weights``, on which the assembled right-hand matrix depends)."""
        side = self._training_sides.get(no_query_weights)
        if side is None:
            terms = self._training_stored_terms()
            right, tail_attributes = _assemble_right(terms, V, no_query_weights)
            side = self._training_sides[no_query_weights] = StoredSide(terms, right, tail_attributes, V)
        return side

    def _direct_terms(self, Zq: np.ndarray, Zs: np.ndarray):
        """Yield ``(a, term)`` for attributes whose term is not bilinear: ``term`` (len(Zq), len(Zs))."""
        return iter(())

    def _query_weights(self, Zq: np.ndarray) -> np.ndarray | None:
        """Query-side weights ``u`` (nq, m), or None for all ones."""
        return None

    def _finish(self, S: np.ndarray) -> np.ndarray:
        np.maximum(S, 0.0, out=S)  # rounding can leave -1e-16 where the distance is 0
        if self.root_ == 2.0:
            np.sqrt(S, out=S)
        elif self.root_ != 1.0:
            np.power(S, 1.0 / self.root_, out=S)
        return S

    # ------------------------------------------------------------------ machinery
    def _check_fitted(self) -> None:
        if not getattr(self, "fitted_", False):
            raise NotFittedError(f"{type(self).__name__} is not fitted: call fit(X, y) first")

    def _check_weights(self, weights):
        if weights is None:
            return None
        m = self.n_features_in_
        if isinstance(weights, pd.DataFrame):
            if self.classes_ is None:
                raise ValueError("per-class weights need the metric to be fitted with class labels")
            weights = weights.reindex(index=list(self.classes_), columns=list(self.columns_)).to_numpy(float)
        elif isinstance(weights, pd.Series):
            weights = weights.reindex(list(self.columns_)).to_numpy(float)
        if isinstance(weights, (dict, str, bytes)):
            raise ValueError(f"weights must be an array of numbers (or a pandas Series/DataFrame indexed by "
                             f"attribute), got a {type(weights).__name__}")
        try:
            W = np.asarray(weights, dtype=np.float64)
        except (TypeError, ValueError):
            raise ValueError(f"weights must be numbers, got {weights!r}") from None
        if W.ndim == 1 and W.shape == (m,):
            pass
        elif W.ndim == 2 and W.shape[1] == m and self.classes_ is not None and W.shape[0] == len(self.classes_):
            pass
        else:
            expected = f"({m},)" + (f" or ({len(self.classes_)}, {m})" if self.classes_ is not None else "")
            raise ValueError(f"weights must have shape {expected}, got {W.shape}")
        if not np.isfinite(W).all() or (W < 0).any():
            raise ValueError("weights must be finite non-negative numbers (no NaN, no inf)")
        return W

    def _encode_like_fit(self, X, what: str) -> np.ndarray:
        if isinstance(X, pd.DataFrame):
            if not self._from_frame:
                raise ValueError(f"{what} is a DataFrame but the metric was fitted on an array")
            cols = tuple(str(c) for c in X.columns)
            if cols != self.columns_:
                raise ValueError(f"{what} columns {list(cols)} differ from the fitted columns {list(self.columns_)}")
            enc = encode(X, dict(zip(self.columns_, self.kinds_)))
            for name, fitted, now in zip(self.columns_, self.categories_, enc.categories):
                if fitted != now:
                    raise ValueError(f"{what} column {name!r} has categories {now}, fitted with {fitted}")
            return enc.values
        if isinstance(X, Encoded):
            if X.columns != self.columns_ or X.categories != self.categories_:
                raise ValueError(f"{what} was encoded with columns or categories other than the fitted ones")
        elif self._from_frame and any(c is not None for c in self.categories_):
            named = [n for n, c in zip(self.columns_, self.categories_) if c is not None]
            raise ValueError(f"{what} is an array but the metric was fitted on a DataFrame with categorical columns "
                             f"{named[:5]}{'...' if len(named) > 5 else ''}: pass a DataFrame with the same columns "
                             "(an array's numbers would be read as category codes)")
        try:
            values = np.asarray(X, dtype=np.float64) if not isinstance(X, Encoded) else X.values
        except (TypeError, ValueError):
            raise ValueError(f"{what} must hold numbers (nominal values as codes, missing as NaN)") from None
        if values.ndim != 2 or values.shape[1] != self.n_features_in_:
            raise ValueError(f"{what} must have shape (n, {self.n_features_in_}), got {values.shape}")
        if values.shape[0] == 0:
            raise ValueError(f"{what} is empty")
        if not isinstance(X, Encoded):
            check_finite(values, self.columns_)
        return values

    def _prepare(self, A, B, y_B):
        """Encoded queries, stored instances and their classes, and whether the stored instances are the
        training data (``B`` None)."""
        self._check_fitted()
        Zq = self._encode_like_fit(A, "A")
        if B is None:
            Zs, cls = self.X_, self.y_
        else:
            Zs = self._encode_like_fit(B, "B")
            cls = None
            if y_B is not None:
                labels = pd.Series(np.asarray(y_B))
                if len(labels) != len(Zs):
                    raise ValueError(f"y_B has {len(labels)} labels for {len(Zs)} rows of B")
                lookup = {c: i for i, c in enumerate(self.classes_ or ())}
                unknown = set(labels) - set(lookup)
                if unknown:
                    raise ValueError(f"y_B holds classes {sorted(map(str, unknown))} not seen in fit")
                cls = labels.map(lookup).to_numpy(np.intp)
        if self.weights_ is not None and self.weights_.ndim == 2 and cls is None:
            raise ValueError("per-class weights apply to the class of each stored instance: pass y_B with B")
        return Zq, Zs, cls, B is None

    def _stored_weights(self, n: int, cls) -> np.ndarray | None:
        W = self.weights_
        if W is None:
            return None
        if W.ndim == 1:
            return np.broadcast_to(W, (n, W.shape[0]))
        return W[cls]

    def _chunk_rows(self, n_stored: int, width: int) -> int:
        per_row = 8 * (n_stored * 3 + width)  # distances, a temporary, direct terms + the row's embedding
        return max(1, int(self.working_memory * 2**20 // max(per_row, 1)))

    def _plan(self, Zq, Zs, cls, *, training: bool = False) -> Plan:
        """The bilinear product of a search, set up once: both sides, the weights and the unknown-value fills.
        ``training``: the stored instances are the training data (``Zs`` is ``X_``), whose stored side is
        built once per fit."""
        V = self._stored_weights(len(Zs), cls)
        U = self._query_weights(Zq)
        stored = self._training_stored_side(V, U is None) if training and self._separable() else None
        pair = self._bilinear(Zq, Zs, stored=None if stored is None else stored.side)
        if pair is None:
            return Plan(pair, U, V, stored)
        if stored is not None:
            right, tail_attributes = stored.right, stored.tail_attributes
        else:
            right, tail_attributes = _assemble_right(pair[1], V, U is None)
        left = _assemble_left(pair[0], U, V is None, tail_attributes)
        unknown_one = fill = None
        if pair[0].unknown_one is not None and pair[0].unknown_one.any():
            unknown_one = pair[0].unknown_one
            fill = stored.fill if stored is not None else np.asfortranarray(_unknown_one_fill(pair[1], V))
        return Plan(pair, U, V, stored, left, right, len(tail_attributes), unknown_one, fill)

    def _chunks(self, Zq, Zs, cls, reduced: bool = False, *, training: bool = False, out=None):
        """Yield ``(start, stop, block)``: the distances (``reduced``: the sums) of the queries ``start:stop``
        against every stored instance, ``block`` a view of ``out`` when given (filled in place)."""
        plan = self._plan(Zq, Zs, cls, training=training)
        pair, left, right, U, V = plan.pair, plan.left, plan.right, plan.U, plan.V
        step = self._chunk_rows(len(Zs), 0 if left is None else left.shape[1])
        # sums near zero have lost their relative precision (and a root amplifies that): recomputed, so that
        # identical instances are at exactly 0 and ties among near-zero sums are decided on exact values
        if pair is not None:
            scale_q, scale_s = plan.cancelling_scales()
            scale_s_max = scale_s.max(initial=0.0)
        for start in range(0, len(Zq), step):
            stop = min(start + step, len(Zq))
            S = None if out is None else out[start:stop]
            if left is not None:
                S = np.matmul(left[start:stop], right.T, out=S)
                plan.add_fills(S, start, stop)
                # near = S <= CANCELLATION * (scale_q + scale_s) pair by pair; first against the largest
                # scale_s of the row (a superset, found without a temporary of the chunk's size)
                r, c = np.nonzero(S <= CANCELLATION * (scale_q[start:stop] + scale_s_max)[:, None])
                keep = S[r, c] <= CANCELLATION * (scale_q[start + r] + scale_s[c])
                near = r[keep], c[keep]
                if len(near[0]):
                    S[near] = plan.refine(near[0] + start, near[1], S[near])
            elif S is None:
                S = np.zeros((stop - start, len(Zs)))
            else:
                S[:] = 0.0
            for a, term in self._direct_terms(Zq[start:stop], Zs):
                if U is not None:
                    term *= U[start:stop, a][:, None]
                if V is not None:
                    term *= V[:, a][None, :]
                S += term
            yield start, stop, (S if reduced else self._finish(S))

    def _direct_attributes(self):
        return ()

    def __repr__(self) -> str:
        params = ", ".join(f"{k}={v!r}" for k, v in self.get_params().items() if v is not None)
        return f"{type(self).__name__}({params})"




class AttributeMetric(Metric):
    """A metric made of one fitted attribute term per column (see :mod:`lazylib.metrics._attributes`).

    Subclasses set ``self.attributes_`` in ``_fit``, and ``self.query_weighted_`` to the attributes whose
    value weight multiplies their term (the VDM and OMVW).

    Parameters
    ----------
    weights : array-like, optional
        Attribute weights, one vector or one per class of the stored instance (as for
        :class:`lazylib.metrics.Metric`).
    working_memory : float
        Bound, in MiB, on the temporaries of one chunk (as for :class:`lazylib.metrics.Metric`).

    Attributes
    ----------
    attributes_ : list
        One fitted attribute term per column (:mod:`lazylib.metrics._attributes`).
    """

    query_weighted: bool = False

    def _center(self, Z):
        """Center the embeddings of squared-difference terms on their training means (exact for every distance;
        it keeps the rounding of the product small, see :func:`lazylib.metrics._attributes._squared_half`), and
        keep the stored side of the training data that this computes."""
        halves = {}
        for a, att in enumerate(self.attributes_):
            if att.bilinear:
                half = att.fit_shift(Z[:, a])
                if half is not None:
                    halves[a] = half
        self._training_halves = halves

    def _bilinear_attributes(self) -> list[int]:
        return [a for a, att in enumerate(self.attributes_) if att.bilinear]

    def _separable(self) -> bool:
        idx = self._bilinear_attributes()
        return bool(idx) and all(self.attributes_[a].separable for a in idx)

    def _side(self, Z: np.ndarray, side: str, training: bool = False) -> Bilinear:
        """One side of the bilinear terms of a separable metric; ``training``: against the training data, whose
        stored side was computed (and projected where it can be) in ``_center``."""
        idx = self._bilinear_attributes()
        n, m = len(Z), len(self.attributes_)
        alpha, unknown_one, rest = np.zeros((n, m)), np.zeros((n, m), bool), np.zeros((n, m))
        emb, block, squared = [], [], []
        known = self._training_halves if training and side == "stored" else {}
        for a in idx:
            att = self.attributes_[a]
            h = known.get(a) or att.half(Z[:, a], side, training)
            alpha[:, a], unknown_one[:, a] = h.alpha, h.unknown_one
            if h.rest is not None:
                rest[:, a] = h.rest
            emb.append(h.emb)
            block.append(np.full(h.emb.shape[1], a))
            squared.append(np.full(h.emb.shape[1], h.squared))
        return Bilinear(alpha, np.hstack(emb), np.concatenate(block), unknown_one, np.concatenate(squared), rest)

    def _training_stored_terms(self):
        return self._side(self.X_, "stored", training=True)

    def _bilinear(self, Zq, Zs, stored=None):
        idx = self._bilinear_attributes()
        if not idx:
            return None
        if self._separable():
            if stored is not None:  # the training data's, built once
                return self._side(Zq, "query", training=True), stored
            return self._side(Zq, "query"), self._side(Zs, "stored")
        m = len(self.attributes_)
        nq, ns = len(Zq), len(Zs)
        aq, as_ = np.zeros((nq, m)), np.zeros((ns, m))
        mq, ms = np.zeros((nq, m), bool), np.zeros((ns, m), bool)
        psi, chi, block, squared = [], [], [], []
        for a in idx:
            q, s = self.attributes_[a].pair(Zq[:, a], Zs[:, a])
            aq[:, a], as_[:, a], mq[:, a], ms[:, a] = q.alpha, s.alpha, q.unknown_one, s.unknown_one
            psi.append(q.emb)
            chi.append(s.emb)
            block.append(np.full(q.emb.shape[1], a))
            squared.append(np.full(q.emb.shape[1], q.squared))
        block, squared = np.concatenate(block), np.concatenate(squared)
        return (Bilinear(aq, np.hstack(psi), block, mq, squared), Bilinear(as_, np.hstack(chi), block, ms, squared))

    def _direct_attributes(self):
        return [a for a, att in enumerate(self.attributes_) if not att.bilinear]

    def _direct_terms(self, Zq, Zs):
        for a in self._direct_attributes():
            yield a, self.attributes_[a].direct(Zq[:, a], Zs[:, a])

    def _query_weights(self, Zq):
        if not self.query_weighted:
            return None
        U = np.ones((len(Zq), len(self.attributes_)))
        for a, att in enumerate(self.attributes_):
            U[:, a] = att.query_weights(Zq[:, a])
        return U


#: The former private names.
_Plan = Plan
