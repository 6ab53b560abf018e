"""The public side of every metric: :class:`Metric` (fit, ``pairwise``, the search entry points) and
:class:`AttributeMetric` (one fitted attribute term per column, turned into the two sides of the engine's
product). The computation itself is in :mod:`lazylib.metrics._engine` (the bilinear plan and its exactness) and
:mod:`lazylib.search` (the exact k-nearest search); what a fitted metric accepts is checked in
:mod:`lazylib.metrics._inputs`.

A one-page overview of the engine, with a diagram from data to the vote: ``lazylib/metrics/README.md``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.exceptions import NotFittedError  # noqa: F401  (re-exported by lazylib.metrics)
from sklearn.utils.validation import check_is_fitted

from lazylib.encoding import SetTable, encode, encode_labels
from lazylib.metrics._attributes import SetAttribute
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
from lazylib.metrics._inputs import Schema, check_accepted, check_k, check_weights, stored_classes
from lazylib.metrics._sets import member_pair_bytes
from lazylib.search import TIE_TOLERANCE

#: Default bound on the temporary memory of one chunk of a distance computation, in MiB.
WORKING_MEMORY = 64


class SetSides(NamedTuple):
    """The set tables of the queries and of the stored instances, one entry per column (None where the column
    is not set-valued): what a set-valued attribute term needs besides the encoded set indices."""

    query: tuple[SetTable | None, ...]
    stored: tuple[SetTable | None, ...]


class Metric(BaseEstimator):
    """Base class: a fitted distance with ``fit(X, y)`` and ``pairwise(A, B)``.

    Subclasses describe one attribute at a time; this class checks input (:mod:`lazylib.metrics._inputs`),
    applies weights, chunks the work and combines the terms.

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
    X_ : ndarray of shape (n, ``n_features_in_``)
        The encoded training data (nominal values as codes, unknown values as NaN, set-valued values as indices
        into ``sets_``): the stored instances when ``pairwise`` is given no ``B``.
    sets_ : tuple or None
        The training data's :class:`lazylib.encoding.SetTable` of each set-valued column (None for the other
        columns), or None when no column holds sets.
    y_ : ndarray of shape (n,) or None
        Class codes ``0..C-1`` of the training instances (None when fitted without labels).
    classes_ : tuple or None
        The class labels, in the order of their codes (None when fitted without labels).
    weights_ : ndarray of shape (``n_features_in_``,) or (C, ``n_features_in_``), or None
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
    #: Attribute types the metric accepts (None: all but set-valued ones, which a metric accepts only by naming
    #: ``"set"`` here and giving such columns a term).
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
            Training attributes (see :func:`lazylib.encoding.encode`).
        y : array-like of shape (n,), optional
            Class labels; required by the metrics that use class-conditional probabilities.
        types : sequence or dict, optional
            Attribute types, required when ``X`` is an array.

        Returns
        -------
        Metric
            The fitted metric itself.
        """
        enc = encode(X, types, sets=True)
        check_accepted(type(self).__name__, self.accepts, enc)
        self._schema = Schema.of(enc)
        self.columns_ = enc.columns
        self.kinds_ = enc.kinds
        self.categories_ = enc.categories
        self.n_features_in_ = len(enc.columns)
        self.sets_ = enc.sets  # the training data's set tables (None: no set-valued column)
        if y is not None or self.needs_labels:
            self.y_, self.classes_ = encode_labels(y, enc.values.shape[0], min_classes=2 if self.needs_labels else 1)
        else:
            self.y_, self.classes_ = None, None
        self.root_ = self._root()
        self._fit(enc.values, self.y_)
        self._center(enc.values)
        self.X_ = enc.values
        self.weights_ = check_weights(self.weights, self.columns_, self.classes_)
        self.fitted_ = True
        return self

    def pairwise(self, A, B=None, *, y_B=None) -> np.ndarray:
        """Distances from every row of ``A`` (queries) to every row of ``B`` (stored instances).

        ``B`` defaults to the training data (whose classes are then known). Per-class weights need the classes
        of ``B``: pass ``y_B`` when ``B`` is given.

        Parameters
        ----------
        A : DataFrame or array of shape (n_A, ``n_features_in_``)
            Queries, encoded as in :meth:`fit`.
        B : DataFrame or array of shape (n_B, ``n_features_in_``), optional
            Stored instances (default: the training data).
        y_B : array-like of shape (n_B,), optional
            Classes of ``B``, for per-class weights.

        Returns
        -------
        ndarray of shape (len(A), len(B))
            ``D[i, j]``, the distance from query ``i`` to stored instance ``j``.
        """
        Zq, Zs, cls, training, sets = self._prepare(A, B, y_B)
        out = np.empty((Zq.shape[0], Zs.shape[0]))
        if self.uses_engine:  # the engine writes each chunk in place
            for _ in self._chunks(Zq, Zs, cls, training=training, out=out, sets=sets):
                pass
            return out
        for start, stop, block in self._chunks(Zq, Zs, cls, training=training, sets=sets):
            out[start:stop] = block
        return out

    def pairwise_chunks(self, A, B=None, *, y_B=None, reduced: bool = False):
        """Yield ``(start, stop, D[start:stop])`` over row chunks of ``A``; memory stays bounded by
        ``working_memory`` whatever ``len(A)``.

        With ``reduced=True`` the chunks hold the weighted sums ``S`` before the final root (``D = S^(1/root_)``,
        see :meth:`from_reduced`): the same order of neighbours, without the cost of the root.

        Parameters
        ----------
        A : DataFrame or array of shape (n_A, ``n_features_in_``)
            Queries, as for :meth:`pairwise`.
        B : DataFrame or array of shape (n_B, ``n_features_in_``), optional
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
        Zq, Zs, cls, training, sets = self._prepare(A, B, y_B)
        yield from self._chunks(Zq, Zs, cls, reduced=reduced, training=training, sets=sets)

    def nearest_chunks(self, A, k: int, tie_tolerance: float = TIE_TOLERANCE, *, leave_one_out: bool = False):
        """Yield, over blocks of queries, the training instances nearest to each query: those whose reduced sum
        ``S`` (see :meth:`pairwise_chunks`) is within ``tie_tolerance`` (relative to it, whatever the scale of the
        data) of the query's k-th smallest, so the k nearest and every instance tied with the k-th.

        Yields ``(start, stop, rows, cols, sums)``: query indices (from 0 for the first row of ``A``), training
        indices and their sums, sorted by row, then sum, then column. Metrics made of bilinear terms only
        search exactly through a single-precision filter (:mod:`lazylib.search`); the others scan
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
        lazylib.search.Nearest
            ``(start, stop, rows, cols, sums)`` for the queries ``start:stop``, a named tuple.
        """
        from lazylib import search

        for start, stop, rows, cols, sums, groups in self.nearest_groups(
            A, k, tie_tolerance, leave_one_out=leave_one_out
        ):
            rows, cols, sums = groups.expand(rows, cols, sums)
            if leave_one_out:
                keep = cols != rows
                rows, cols, sums = search.within(
                    rows[keep] - start, cols[keep], sums[keep], stop - start, k, tie_tolerance
                )
                rows = rows + start
            yield search.Nearest(start, stop, rows, cols, sums)

    def nearest_groups(self, A, k: int, tie_tolerance: float = TIE_TOLERANCE, *, leave_one_out: bool = False):
        """:meth:`nearest_chunks` over groups of training instances with identical stored sides (identical
        sums against every query; :class:`lazylib.search.Groups`): yields :class:`lazylib.search.Candidates`
        ``(start, stop, rows, cols, sums, groups)`` where ``cols`` index the groups of ``groups`` and the k-th
        smallest sum counts each group once per member. Massive ties among identical instances then cost one
        pair per group.

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
        lazylib.search.Candidates
            ``(start, stop, rows, cols, sums, groups)`` for the queries ``start:stop``, a named tuple (``cols``
            index the groups of ``groups``).
        """
        from lazylib import search

        if leave_one_out:
            if A is not None:
                raise ValueError("leave_one_out searches the training data: pass A=None")
            self._check_fitted()
            Zq, Zs, cls = self.X_, self.X_, self.y_
            sets = None if self.sets_ is None else SetSides(self.sets_, self.sets_)
            k = check_k(k, len(Zs), leave_one_out=True) + 1
        else:
            Zq, Zs, cls, _, sets = self._prepare(A, None, None)
            k = check_k(k, len(Zs))
        plan = self._plan(Zq, Zs, cls, training=True) if self._searchable() else None
        if plan is not None and plan.left is not None:
            plan, groups = search.group_plan(plan)
            size = None if groups.trivial else groups.size
            for block in search.search(self, plan, k, tie_tolerance, size):
                yield search.Candidates(*block, groups)
            return
        groups = search.Groups.identity(len(Zs))
        for start, stop, S in self._chunks(Zq, Zs, cls, reduced=True, training=True, sets=sets):
            yield search.Candidates(start, stop, *search.select(S, k, tie_tolerance, start), groups)

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

    def _bilinear(
        self, Zq: np.ndarray, Zs: np.ndarray, stored: Bilinear | None = None
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

    def _direct_terms(self, Zq: np.ndarray, Zs: np.ndarray, sets: SetSides | None = None):
        """Yield ``(a, term)`` for attributes whose term is not bilinear: ``term`` (len(Zq), len(Zs));
        ``sets``: the set tables of both sides, which the set indices of set-valued columns point into."""
        return iter(())

    def _query_weights(self, Zq: np.ndarray) -> np.ndarray | None:
        """Query-side weights ``u`` (nq, m), or None for all ones."""
        return None

    def _finish(self, S: np.ndarray, nonnegative: bool = False) -> np.ndarray:
        """Distances from sums, in place: ``S ** (1 / root_)``; ``nonnegative``: ``S`` holds no negative
        rounding (else it is clipped at 0 first)."""
        if not nonnegative:
            np.maximum(S, 0.0, out=S)  # rounding can leave -1e-16 where the distance is 0
        if self.root_ == 2.0:
            np.sqrt(S, out=S)
        elif self.root_ != 1.0:
            np.power(S, 1.0 / self.root_, out=S)
        return S

    # ------------------------------------------------------------------ machinery
    def _check_fitted(self) -> None:
        check_is_fitted(self, "fitted_", msg="%(name)s is not fitted: call fit(X, y) first")

    def _encode_like_fit(self, X, what: str) -> np.ndarray:
        """``X`` encoded as the training data were (:meth:`lazylib.metrics._inputs.Schema.encode`)."""
        return self._schema.encode(X, what)

    def _prepare(self, A, B, y_B):
        """Encoded queries, stored instances and their classes, and whether the stored instances are the
        training data (``B`` None)."""
        self._check_fitted()
        Zq, sets_q = self._schema.encode_with_sets(A, "A")
        if B is None:
            Zs, cls, sets_s = self.X_, self.y_, self.sets_
        else:
            Zs, sets_s = self._schema.encode_with_sets(B, "B")
            cls = None if y_B is None else stored_classes(y_B, len(Zs), self.classes_)
        if self.weights_ is not None and self.weights_.ndim == 2 and cls is None:
            raise ValueError("per-class weights apply to the class of each stored instance: pass y_B with B")
        return Zq, Zs, cls, B is None, None if self.sets_ is None else SetSides(sets_q, sets_s)

    def _stored_weights(self, n: int, cls) -> np.ndarray | None:
        W = self.weights_
        if W is None:
            return None
        if W.ndim == 1:
            return np.broadcast_to(W, (n, W.shape[0]))
        return W[cls]

    def _chunk_rows(self, n_stored: int, width: int, sets: SetSides | None = None) -> int:
        per_row = 8 * (n_stored * 3 + width)  # distances, a temporary, direct terms + the row's embedding
        if sets is not None:  # a set term's member-pair temporaries (one set column at a time: the largest)
            per_row += max(
                (member_pair_bytes(q.sizes, len(s.members)) for q, s in zip(*sets) if q is not None), default=0
            )
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

    def _chunks(self, Zq, Zs, cls, reduced: bool = False, *, training: bool = False, out=None, sets=None):
        """Yield ``(start, stop, block)``: the distances (``reduced``: the sums) of the queries ``start:stop``
        against every stored instance, ``block`` a view of ``out`` when given (filled in place); ``sets``: the
        set tables of both sides (:class:`SetSides`), for set-valued columns."""
        plan = self._plan(Zq, Zs, cls, training=training)
        pair, left, right, U, V = plan.pair, plan.left, plan.right, plan.U, plan.V
        step = self._chunk_rows(len(Zs), 0 if left is None else left.shape[1], sets)
        # sums near zero have lost their relative precision (and a root amplifies that): recomputed, so that
        # identical instances are at exactly 0 and ties among near-zero sums are decided on exact values
        if pair is not None:
            scale_q, scale_s = plan.cancelling_scales
            scale_s_max = scale_s.max(initial=0.0)
        for start in range(0, len(Zq), step):
            stop = min(start + step, len(Zq))
            S = None if out is None else out[start:stop]
            if left is not None:
                S = np.matmul(left[start:stop], right.T, out=S)
                plan.add_fills(S, start, stop)
                _refine_near_zero(plan, S, start, scale_q, scale_s, scale_s_max)
            elif S is None:
                S = np.zeros((stop - start, len(Zs)))
            else:
                S[:] = 0.0
            for a, term in self._direct_terms(Zq[start:stop], Zs, sets):
                if U is not None:
                    term *= U[start:stop, a][:, None]
                if V is not None:
                    term *= V[:, a][None, :]
                S += term
            # refined sums are exact and the others above a positive bound: no negative rounding left to clip
            yield start, stop, (S if reduced else self._finish(S, nonnegative=left is not None))

    def _direct_attributes(self):
        return ()

    def __repr__(self) -> str:
        params = ", ".join(f"{k}={v!r}" for k, v in self.get_params().items() if v is not None)
        return f"{type(self).__name__}({params})"


def _refine_near_zero(plan: Plan, S: np.ndarray, start: int, scale_q, scale_s, scale_s_max: float) -> None:
    """Recompute in place the sums of the block ``S`` (queries ``start:``) that lie below ``CANCELLATION``
    times their cancelling scales (:meth:`Plan.refine`): near zero the product has lost its relative precision.

    Most rows of a block hold no such sum: their minimum (one pass, no temporary) is compared first with the
    row's largest possible threshold, and only the rows below it are searched pair by pair. Every negative
    rounding is below its threshold, so the block comes out non-negative.
    """
    bound = CANCELLATION * (scale_q[start : start + len(S)] + scale_s_max)
    rows = np.flatnonzero(S.min(axis=1) <= bound)
    if not len(rows):
        return
    block = S if len(rows) == len(S) else S[rows]
    r, c = np.nonzero(block <= bound[rows][:, None])
    r = rows[r]
    keep = S[r, c] <= CANCELLATION * (scale_q[start + r] + scale_s[c])
    r, c = r[keep], c[keep]
    if len(r):
        S[r, c] = plan.refine(r + start, c, S[r, c])


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
        it keeps the rounding of the product small, see :func:`lazylib.metrics._attributes._squared_half`)."""
        for a, att in enumerate(self.attributes_):
            if att.bilinear:
                att.fit_shift(Z[:, a])

    def _bilinear_attributes(self) -> list[int]:
        return [a for a, att in enumerate(self.attributes_) if att.bilinear]

    def _separable(self) -> bool:
        idx = self._bilinear_attributes()
        return bool(idx) and all(self.attributes_[a].separable for a in idx)

    def _side(self, Z: np.ndarray, side: str) -> Bilinear:
        """One side (``"query"`` or ``"stored"``) of the bilinear terms of a separable metric."""
        idx = self._bilinear_attributes()
        n, m = len(Z), len(self.attributes_)
        alpha, unknown_one = np.zeros((n, m)), np.zeros((n, m), bool)
        emb, block, squared = [], [], []
        for a in idx:
            h = self.attributes_[a].half(Z[:, a], side)
            alpha[:, a], unknown_one[:, a] = h.alpha, h.unknown_one
            emb.append(h.emb)
            block.append(np.full(h.emb.shape[1], a))
            squared.append(np.full(h.emb.shape[1], h.squared))
        return Bilinear(alpha, np.hstack(emb), np.concatenate(block), unknown_one, np.concatenate(squared))

    def _training_stored_terms(self):
        return self._side(self.X_, "stored")

    def _bilinear(self, Zq, Zs, stored=None):
        idx = self._bilinear_attributes()
        if not idx:
            return None
        if self._separable():
            if stored is not None:  # the training data's, built once
                return self._side(Zq, "query"), stored
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

    def _direct_terms(self, Zq, Zs, sets=None):
        for a in self._direct_attributes():
            att = self.attributes_[a]
            if isinstance(att, SetAttribute):  # set indices point into the tables of each side
                yield (
                    a,
                    att.direct(
                        Zq[:, a], Zs[:, a], sets.query[a], sets.stored[a], max_bytes=self.working_memory * 2**20
                    ),
                )
            else:
                yield a, att.direct(Zq[:, a], Zs[:, a])

    def _query_weights(self, Zq):
        if not self.query_weighted:
            return None
        U = np.ones((len(Zq), len(self.attributes_)))
        for a, att in enumerate(self.attributes_):
            U[:, a] = att.query_weights(Zq[:, a])
        return U


#: The former private names.
_Plan = Plan
