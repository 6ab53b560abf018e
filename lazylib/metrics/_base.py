"""What a metric *is*: :class:`Metric` (its parameters, ``fit``, the terms, weights and root a subclass
declares, and the public methods, each a short call into the engine) and :class:`AttributeMetric` (one fitted
attribute term per column, declared as the two sides of the engine's product). The computation itself, from
the plan to the chunks and the exactness near zero, is :mod:`lazylib.metrics._engine` and the modules it maps; the
exact k-nearest search is :mod:`lazylib.search`; what a fitted metric accepts is checked in
:mod:`lazylib.metrics._inputs`, which also encodes its operands.

A one-page overview of the engine, with a diagram from data to the vote: ``lazylib/metrics/README.md``.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.utils.validation import check_is_fitted

from lazylib._docs import fill_doc
from lazylib._validation import Real, validate_params
from lazylib.encoding import fit_input
from lazylib.labels import encode_labels
from lazylib.metrics import _engine
from lazylib.metrics._contract import check_terms
from lazylib.metrics._declaration import Declaration
from lazylib.metrics._inputs import (
    check_accepted,
    check_k,
    check_tie_tolerance,
    check_weights,
    operands,
    training_operands,
)
from lazylib.metrics._plan import Plan, plan
from lazylib.search import TIE_TOLERANCE

#: Default bound on the temporary memory of one chunk of a distance computation, in MiB.
WORKING_MEMORY = 64


@fill_doc
class Metric(BaseEstimator):
    """Base class: a fitted distance with ``fit(X, y)`` and ``pairwise(A, B)``.

    Subclasses describe one attribute at a time; this class holds the parameters and what ``fit`` learns, and
    hands every computation to the engine (:mod:`lazylib.metrics._engine`: weights, chunks, the product and its
    exactness) with one record of what the metric declares, built once per fit
    (:class:`lazylib.metrics._declaration.Declaration`), its input checked by :mod:`lazylib.metrics._inputs`.

    Parameters
    ----------
    weights : array-like, optional
        Attribute weights multiplying each attribute's term: shape (m,) for one global vector, or (C, m) for one
        vector per class, applied to the class of the *stored* instance (the column of ``pairwise``), as in Howe
        and Cardie's mean difference weighting. A Series/DataFrame is aligned on column names (and classes).
    working_memory : float
        Bound, in MiB, on the temporaries of one chunk (a number above 0, checked by :meth:`fit`).

    Attributes
    ----------
    {{fitted_input}}
    columns_ : tuple of str
        Attribute names (a DataFrame's columns; ``"0"``, ``"1"``... for an array).
    kinds_ : tuple of str
        Type of each attribute (``"nominal"``, ``"continuous"``, ...), as encoded.
    {{fitted_categories}}
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
    #: Whether the sums come from the engine's product and direct terms (the fitted terms of :meth:`_terms`); a
    #: metric that computes its blocks otherwise sets it False and gives them by ``_block(Zq, Zs)`` (it is then
    #: searched by whole rows).
    uses_engine: bool = True
    #: Whether the terms' query-side value weights (``AttributeTerm.query_weights``) multiply them (the VDM and
    #: OMVW).
    query_weighted: bool = False
    # Tags: what the metric promises under its default parameters. The property tests read them over the
    # registry (tests/unit/test_metric_properties.py), so a new metric declares them instead of being added to
    # lists in the tests.
    #: ``D(x, y) == D(y, x)`` (False for the VDM's and OMVW's query-side value weights).
    symmetric: bool = True
    #: An unknown value is at distance 1 from every value, itself included (HEOM, HVDM, Minkowski): a row with an
    #: unknown value is not at distance 0 from itself.
    unknown_is_one: bool = False
    #: Identical rows without unknown values (or, unless ``unknown_is_one``, with them) are at distance 0.
    zero_on_self: bool = True
    #: Parameters ``fit`` cannot do without (WOM's ``weights``).
    required_params: tuple[str, ...] = ()

    @property
    def weights_(self) -> np.ndarray | None:
        """The fitted attribute weights (None: all ones). Setting them (a metric that learns its weights sets
        them after ``fit``) gives the engine a declaration with them, without the training data's stored side
        built for the old ones."""
        return self._weights

    @weights_.setter
    def weights_(self, W) -> None:
        self._weights = W
        declared = getattr(self, "_declaration", None)
        if declared is not None:
            self._declaration = declared.with_weights(W)

    def __init__(self, *, weights=None, working_memory: float = WORKING_MEMORY):
        self.weights = weights
        self.working_memory = working_memory

    #: Each parameter's admissible values, checked at the start of ``fit`` (scikit-learn's mechanism); a
    #: subclass extends it with its own parameters.
    _parameter_constraints: dict = {"weights": ["array-like", None], "working_memory": [Real(0, open_low=True)]}
    _validate_params = validate_params

    # ------------------------------------------------------------------ public API
    def fit(self, X, y=None, *, types=None):
        """Learn what the metric needs from training data only (probabilities, ranges, deviations...).

        Parameters
        ----------
        {{fit_X}}
        y : array-like of shape (n,), optional
            Class labels; required by the metrics that use class-conditional probabilities.
        {{fit_types}}

        Returns
        -------
        Metric
            The fitted metric itself.
        """
        self._validate_params()
        enc = fit_input(self, X, types, sets=True)  # sets schema_, n_features_in_, feature_names_in_
        check_accepted(type(self).__name__, self.accepts, enc)
        self.columns_ = enc.columns
        self.kinds_ = enc.kinds
        self.categories_ = enc.categories
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
        self._declaration = self._declare()
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
        ops = operands(self, A, B, y_B)
        return _engine.pairwise(self._declaration, ops)

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
        ops = operands(self, A, B, y_B)
        yield from _engine.chunks(self._declaration, ops, reduced=reduced)

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
        candidates = self.nearest_groups(A, k, tie_tolerance, leave_one_out=leave_one_out)
        yield from _engine.nearest(candidates, k, tie_tolerance, leave_one_out=leave_one_out)

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
        tie_tolerance = check_tie_tolerance(tie_tolerance)
        if leave_one_out:
            if A is not None:
                raise ValueError("leave_one_out searches the training data: pass A=None")
            ops = training_operands(self)
            k = check_k(k, len(ops.Zs), leave_one_out=True) + 1
        else:
            ops = operands(self, A)
            k = check_k(k, len(ops.Zs))
        yield from _engine.nearest_groups(self._declaration, ops, k, tie_tolerance)

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
        return self._declaration.finish(np.array(S, dtype=np.float64))

    # ------------------------------------------------------------------ for subclasses
    def _root(self) -> float:
        """The exponent ``root_`` of ``D = S ** (1 / root_)``, set by :meth:`fit` before :meth:`_fit` (validating
        the parameters it depends on)."""
        return self._fixed_root

    def _fit(self, Z: np.ndarray, y: np.ndarray | None) -> None:
        """Learn per-attribute state from the encoded training matrix."""

    def _center(self, Z: np.ndarray) -> None:
        """After ``_fit``: anything fitted that depends on the training values as a whole."""

    def _terms(self) -> tuple:
        """The fitted attribute terms the engine computes with, one per column (none here: a metric with terms
        is an :class:`AttributeMetric`)."""
        return ()

    def _declare(self) -> Declaration:
        """The record of everything the engine reads of this fitted metric, built once by :meth:`fit` (setting
        ``weights_`` later gives a copy with the new weights, :meth:`Declaration.with_weights
        <lazylib.metrics._declaration.Declaration.with_weights>`): its terms, root, weights, memory bound and
        training data, and for a metric outside the engine (``uses_engine`` False) its ``_block`` and
        ``_check_operands``."""
        outside = not self.uses_engine
        return Declaration.of(
            self._terms(),
            root=self.root_,
            weights=self.weights_,
            working_memory=self.working_memory,
            training=self.X_,
            query_weighted=self.query_weighted,
            norm_order=self._norm_order(),
            block=self._block if outside else None,
            check_operands=self._check_operands if outside else None,
        )

    def _norm_order(self) -> float | None:
        """``r`` when the distance is the ``r``-norm of the differences of its direct terms (each term's
        ``difference``), computed pair by pair in the pair's own unit
        (:func:`lazylib.metrics._engine.norm_block`; the reduced sums are then the distances, ``root_`` 1), else
        None (the sums of the terms)."""
        return None

    def _check_operands(self, Zq: np.ndarray, Zs: np.ndarray) -> None:
        """Refuse queries or stored instances outside the metric's domain (``uses_engine`` False: the engine
        calls it before asking for the blocks)."""

    def _block(self, Zq: np.ndarray, Zs: np.ndarray) -> np.ndarray:
        """The (len(Zq), len(Zs)) distances of one chunk, for a metric with ``uses_engine`` False."""
        raise NotImplementedError(f"{type(self).__name__} computes its distances through the engine (uses_engine)")

    # ------------------------------------------------------------------ machinery
    def _check_fitted(self) -> None:
        check_is_fitted(self, "fitted_", msg="%(name)s is not fitted: call fit(X, y) first")

    def _encode_like_fit(self, X, what: str) -> np.ndarray:
        """``X`` encoded as the training data were (:meth:`lazylib.encoding.Schema.encode`)."""
        return self.schema_.encode(X, what)

    def _plan(self, Zq, Zs, cls, *, training: bool = False) -> Plan:
        """The engine's plan of a computation for this metric (:func:`lazylib.metrics._plan.plan`), for tests
        and benchmarks that inspect it; no method of the metric goes through it."""
        return plan(self._declaration, Zq, Zs, cls, training=training)

    def __repr__(self) -> str:
        params = ", ".join(f"{k}={v!r}" for k, v in self.get_params().items() if v is not None)
        return f"{type(self).__name__}({params})"


#: How many times the training data's own size (8 bytes a value) the stored side of a metric's bilinear terms may
#: take beyond ``working_memory`` before its widest terms switch to their direct form
#: (:meth:`AttributeMetric._size_terms`): a probability embedding of a few classes, or a squared difference's
#: three columns, is a few times the data.
STORED_SIDE = 4


class AttributeMetric(Metric):
    """A metric made of one fitted attribute term per column (see :mod:`lazylib.metrics._attributes`).

    Subclasses set ``self.attributes_`` in ``_fit`` (one term per column, following
    ``lazylib.metrics.extend.TermContract``), and the class flag ``query_weighted`` to True when the
    terms' query-side value weights (``AttributeTerm.query_weights``) multiply them (the VDM and OMVW).

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

    def _center(self, Z):
        """Check the terms against the contract (:func:`lazylib.metrics._contract.check_terms`: one per column,
        each declared, none negative), then center the embeddings of squared-difference terms on their training
        means (exact for every distance; it keeps the rounding of the product small, see
        :func:`lazylib.metrics._attributes._squared_half`)."""
        check_terms(self, Z)
        self._size_terms(Z)
        for a, att in enumerate(self.attributes_):
            if att.bilinear or att.squares_bilinear:
                att.fit_shift(Z[:, a])

    def _size_terms(self, Z: np.ndarray) -> None:
        """Size every term by ``working_memory`` (issue #53): each term gets a quarter of it as its ``max_bytes``
        (its block tables and temporaries, beside a chunk's distances),
        and while the stored side of the bilinear terms for the training data (``8 n`` bytes a column, one
        column per class of a probability embedding, per distinct value of a one-hot side) would exceed
        ``working_memory`` plus :data:`STORED_SIDE` times the training data's own size, the widest term that has
        a direct form switches to it (:meth:`AttributeTerm.to_direct`): an ID-like column, a continuous column
        under overlap, or thousands of classes then cost one block of the distances, not one column per value or
        class for every instance, while a stored side a few columns wide per attribute, which grows with the
        data as the data itself does, stays bilinear at any number of rows (issue #52: at a million rows the
        data alone are beyond the default budget)."""
        budget = self.working_memory * 2**20
        stored_budget = budget + STORED_SIDE * 8.0 * Z.size
        widths = []
        for a, att in enumerate(self.attributes_):
            att.max_bytes = budget / 4  # a term's tables and temporaries beside the chunk's distances
            if att.bilinear:
                widths.append((att.stored_width(Z[:, a]), a))
        total = 8.0 * len(Z) * sum(1 if w is None else w for w, _ in widths)
        for w, a in sorted((w, a) for w, a in widths if w is not None)[::-1]:
            if total <= stored_budget:
                break
            self.attributes_[a].to_direct()
            total -= 8.0 * len(Z) * w

    def _terms(self) -> tuple:
        return tuple(self.attributes_)
