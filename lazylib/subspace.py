"""Sub-space mapping for nearest-neighbour learning: CA and CACP (Payne & Edwards 2000, section 3).

The mapping is the paper's five steps (section 3, Figure 1):

1. the centroid :math:`\\bar y` of the training matrix :math:`Y`;
2. the centred matrix :math:`X = Y - 1 \\bar y^\\top`;
3. the singular value decomposition :math:`X = L D R^\\top` (CA), or that of the class-prototype matrix
   :math:`P` whose rows are the class centroids of :math:`X` (CACP);
4. the :math:`K` columns :math:`R_{(K)}` of :math:`R` with the largest singular values;
5. every instance, training or query, is projected as :math:`(y - \\bar y)^\\top R_{(K)}`, with the *training*
   centroid and no scaling by :math:`D`.

A Euclidean 1-NN classifier then works on the projected coordinates. Because the projection keeps the leading
columns of one orthonormal basis, the squared distance on :math:`K` components is the squared distance on
:math:`K - 1` components plus one term: one cumulative sum over the projected columns gives the 1-NN result for
every :math:`K` at once (:func:`accuracy_by_width`), and the paper's search over :math:`K = 1 \\dots n` costs
about one nearest-neighbour pass per fold (:func:`lazylib.protocols.payne2000.protocol.cv_sweep`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, TransformerMixin, _fit_context

from lazylib._docs import fill_doc
from lazylib._validation import Choice, Integer, Real, check, check_class_indices, validate_params
from lazylib.column_stats import in_units, safe_exponents
from lazylib.encoding import LINEAR_TYPES, fit_input, query_input
from lazylib.labels import encode_labels
from lazylib.search import TIE_RULES, TIE_TOLERANCE
from lazylib.voting import correct, vote_priority

#: The two learners of the paper.
METHODS = ("ca", "cacp")
#: How the basis is completed beyond the rank of the decomposed matrix (see :class:`SubspaceMapping`).
NULL_SPACES = ("svd", "ca", "none")
#: Float64 numbers of the (queries x stored) distances that :func:`correct_by_width` accumulates column by column
#: and votes on at each width (two such arrays: the sums and one column's squares).
WIDTH_BLOCK_ELEMENTS = 1 << 18


def in_safe_units(*arrays) -> tuple[list, float]:
    """The arrays divided by one power of two ``unit`` (returned with them) that brings their largest absolute
    value near 1, when it lies outside :data:`lazylib.column_stats.SAFE_RANGE`; else the arrays unchanged and
    ``unit = 1``.

    Euclidean nearest neighbours, a centred basis and their ties are unchanged by a common scale, and dividing by
    a power of two is exact, so data multiplied by 1e-170 or 1e160 give the same neighbours as the data
    themselves, where their squared differences would otherwise under- or overflow (the k-NN's metrics do the
    same, in :class:`lazylib.metrics.Minkowski`).

    Examples
    --------
    >>> (a, b), unit = in_safe_units(np.array([3e-170, 0.0]), np.array([1e-170]))
    >>> a.tolist(), unit == 2.0**-563
    ([0.90575098195717, 0.0], True)
    """
    arrays = [np.asarray(a, dtype=np.float64) for a in arrays]
    top = max((float(np.nanmax(np.abs(a), initial=0.0)) for a in arrays if a.size), default=0.0)
    exponent = int(safe_exponents(top))
    if exponent == 0:
        return arrays, 1.0
    return [in_units(a, exponent) for a in arrays], float(np.ldexp(1.0, exponent))


def numeric_matrix(X) -> np.ndarray:
    """``X`` (DataFrame of numeric columns or array) as a float64 matrix; NaN marks a missing value."""
    if isinstance(X, pd.DataFrame):
        bad = [c for c in X.columns if not pd.api.types.is_numeric_dtype(X[c].dtype)]
        if bad:
            raise ValueError(f"sub-space mapping needs numeric attributes; {bad} are not")
        X = X.to_numpy(dtype=float)
    X = np.asarray(X, dtype=float)
    if X.ndim != 2:
        raise ValueError(f"X must be two-dimensional, got shape {X.shape}")
    if np.isinf(X).any():
        raise ValueError("X contains infinities")
    return X


def fit_numeric(estimator, X) -> np.ndarray:
    """Training data of a mapping or selector through the one input path (:func:`lazylib.encoding.fit_input`):
    numeric attributes only, no missing value."""
    enc = fit_input(estimator, X)
    _refuse_nominal(enc.columns, enc.kinds)
    _refuse_missing(enc.values)
    return enc.values


def query_numeric(estimator, X) -> np.ndarray:
    """Queries of a fitted mapping or selector through its fitted schema (:func:`lazylib.encoding.query_input`):
    same columns in the same order, no missing value."""
    values = query_input(estimator, X)
    _refuse_missing(values)
    return values


def _refuse_nominal(columns, kinds) -> None:
    bad = [c for c, k in zip(columns, kinds) if k not in LINEAR_TYPES]
    if bad:
        raise ValueError(f"sub-space mapping and attribute selection need numeric attributes; {bad} are not")


def _refuse_missing(values: np.ndarray) -> None:
    if np.isnan(values).any():
        raise ValueError(
            "X has missing values (NaN); impute them first (e.g. lazylib.protocols.payne2000.protocol.scale_fold)"
        )


@fill_doc
class SubspaceMapping(TransformerMixin, BaseEstimator):
    """Project onto the rank-K sub-space of the centred training data (CA) or of its class prototypes (CACP):
    :math:`z = (y - \\bar y)^\\top R_{(K)}` (Payne & Edwards 2000, section 3, steps 1-5).

    Parameters
    ----------
    method : {"ca", "cacp"}
        ``"ca"`` decomposes the centred training matrix :math:`X` (``generate_mapping`` of Figure 1);
        ``"cacp"`` decomposes the matrix :math:`P` of class prototypes, the class centroids of :math:`X`
        (``generate_cpmapping``).
    n_components : int, optional
        :math:`K`, the number of columns of :math:`R` kept; all available columns when None.
    null_space : {"svd", "ca", "none"}
        How the basis continues beyond the rank :math:`r` of the decomposed matrix (see Notes).
    rank_tolerance : float
        Singular values at most this fraction of the largest count as zero when the rank is determined.

    Attributes
    ----------
    {{fitted_input}}
    centroid_ : ndarray (J,)
        The training centroid :math:`\\bar y`.
    basis_ : ndarray (J, J_avail)
        Every available column of :math:`R`, by decreasing singular value.
    singular_values_ : ndarray (J_avail,)
        The matching diagonal of :math:`D` (zeros beyond the rank).
    rank_ : int
        The numerical rank :math:`r` of the decomposed matrix.
    components_ : ndarray (J, K)
        :math:`R_{(K)}`, the first ``n_components`` columns of ``basis_``.

    Notes
    -----
    *Null space.* The prototype matrix of CACP has one row per class and its rows, weighted by class sizes, sum
    to zero (they are centroids of centred data), so its rank is at most :math:`C - 1`: one for a two-class
    problem. The paper nevertheless lets :math:`K` run from 1 to the number of attributes and reports CACP with
    up to 60 dimensions on two-class data. Columns of :math:`R` beyond the rank have zero singular value; an SVD
    routine returns *some* orthonormal completion, fixed by its Householder reflections rather than by the data's
    geometry. ``null_space="svd"`` keeps that completion (LAPACK's, through ``numpy.linalg.svd`` with
    ``full_matrices=True``), our closest reading of the paper, taken from the ``r`` directions of the rank alone
    (the SVD of the ``J x r`` matrix of those directions): the SVD of the whole prototype matrix would build it
    from a Householder reflection of the numerically zero residual of its last row, so that its directions would
    be set by rounding, and they did differ between processors (AVX-512 or not). ``"ca"`` orders the complement
    by the training data's own principal directions inside it (CA of the residual); ``"none"`` stops at the
    rank, so :math:`K \\le r`. CA has the same issue when its centred data have lower rank than the attributes
    (fewer training instances than attributes, or an attribute constant on the training part).

    No scaling by :math:`D`: step 5 multiplies by :math:`R_{(K)}` alone, so the mapping is a rotation followed by
    dropping coordinates, and full-rank CA gives the same Euclidean distances as the original space.

    References
    ----------
    Payne, T. R. and Edwards, P. (2000). Dimensionality reduction through sub-space mapping for nearest
    neighbour algorithms. ECML 2000, section 3 and Figure 1.

    Examples
    --------
    >>> Y = np.array([[1.0, 2.0], [3.0, 2.0], [2.0, 2.5], [2.0, 1.5]])
    >>> m = SubspaceMapping("ca", n_components=1).fit(Y)
    >>> m.centroid_.tolist(), m.singular_values_.round(3).tolist()
    ([2.0, 2.0], [1.414, 0.707])
    >>> np.abs(m.transform([[4.0, 2.0]])).tolist()
    [[2.0]]
    >>> SubspaceMapping("cacp").fit(Y, ["a", "b", "a", "b"]).rank_
    1
    """

    def __init__(
        self,
        method: str = "ca",
        n_components: int | None = None,
        null_space: str = "svd",
        rank_tolerance: float = 1e-10,
    ):
        self.method = method
        self.n_components = n_components
        self.null_space = null_space
        self.rank_tolerance = rank_tolerance

    _parameter_constraints: dict = {
        "method": [Choice(METHODS)],
        "n_components": [Integer(low=1), None],  # at most the basis's dimension, checked in fit
        "null_space": [Choice(NULL_SPACES)],
        "rank_tolerance": [Real(low=0, high=1)],
    }
    _validate_params = validate_params

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Learn the centroid and the basis from training data ``X`` (and labels ``y`` for CACP).

        Parameters
        ----------
        X : DataFrame or array of shape (n, J)
            Numeric training attributes (no missing values).
        y : array-like of shape (n,), optional
            Class labels (required by CACP).

        Returns
        -------
        SubspaceMapping
            The fitted estimator itself.
        """
        tol = float(self.rank_tolerance)
        Y = fit_numeric(self, X)
        if len(Y) < 2:
            raise ValueError(f"SubspaceMapping needs at least two training instances, got {len(Y)} sample")
        J = Y.shape[1]
        self.centroid_ = Y.mean(axis=0)
        (Xc,), unit = in_safe_units(Y - self.centroid_)  # exact: no under- or overflow at any scale
        if self.method == "ca":
            M = Xc
        else:
            if y is None:
                raise ValueError("CACP needs the class labels y")
            codes, classes = encode_labels(y, len(Y), column=True)
            # prototypes stacked in the order of the labels' text (as this reproduction always has): the basis
            # beyond the rank of the prototypes (null_space="svd") is any orthonormal completion, and LAPACK's
            # depends on the row order, so another order changes the projections for K > rank
            text_order = np.argsort([str(c) for c in classes.tolist()], kind="stable")
            codes = np.argsort(text_order)[codes]
            M = np.stack([Xc[codes == c].mean(axis=0) for c in range(codes.max() + 1)])
        _, d, Vt = np.linalg.svd(M, full_matrices=False)
        rank = int((d > tol * d[0]).sum()) if d.size and d[0] > 0 else 0
        basis = Vt.T
        if self.null_space == "none":
            basis = basis[:, : max(rank, 1)]
        elif rank < J:  # only the first `rank` columns are the data's; the rest is a completion
            leading = basis[:, :rank]
            rest = _complement_directions(Xc, leading) if self.null_space == "ca" else _complement(leading)
            basis = np.hstack([leading, rest])
        values = np.zeros(basis.shape[1])
        values[: min(len(d), len(values))] = d[: len(values)]
        values[rank:] = 0.0
        self.basis_, self.singular_values_, self.rank_ = basis, values * unit, rank
        K = (
            basis.shape[1]
            if self.n_components is None
            else check("n_components", self.n_components, Integer(low=1, high=basis.shape[1]))
        )
        self.components_ = basis[:, :K]
        return self

    def transform(self, X) -> np.ndarray:
        """Project instances: :math:`(y - \\bar y)^\\top R_{(K)}` (step 5), shape (n, K).

        Parameters
        ----------
        X : DataFrame or array of shape (n, J)
            Numeric attributes (no missing values).

        Returns
        -------
        ndarray of shape (n, K)
            The projected instances.
        """
        return (query_numeric(self, X) - self.centroid_) @ self.components_

    def fit_transform(self, X, y=None) -> np.ndarray:
        """:meth:`fit` on ``X`` (and ``y``), then :meth:`transform` of ``X``.

        Parameters
        ----------
        {{fit_numeric}}
        {{fit_y_cacp}}

        Returns
        -------
        ndarray of shape (n, K)
            The projected training instances.
        """
        return self.fit(X, y).transform(X)


def _complement(B: np.ndarray) -> np.ndarray:
    """LAPACK's orthonormal completion of the orthonormal columns of ``B`` (J, r): the last J - r right singular
    vectors of ``B.T`` (``numpy.linalg.svd``, ``full_matrices=True``), built from the Householder reflections of
    ``B``'s columns alone, so that they are a function of ``B`` (up to rounding) whatever the processor."""
    J, r = B.shape
    if not r:
        return np.eye(J)
    _, _, Vt = np.linalg.svd(B.T, full_matrices=True)
    return Vt[r:].T  # (J, J - r) orthonormal, orthogonal to B


def _complement_directions(Xc: np.ndarray, B: np.ndarray) -> np.ndarray:
    """Orthonormal directions spanning the complement of the columns of ``B``, ordered by the variance of the
    centred data ``Xc`` along them (the CA basis of ``Xc`` restricted to the complement)."""
    Q = _complement(B)
    _, _, W = np.linalg.svd(Xc @ Q, full_matrices=len(Xc) < Q.shape[1])
    return Q @ W.T


def correct_by_width(
    Q: np.ndarray,
    y_query: np.ndarray,
    S: np.ndarray,
    y_stored: np.ndarray,
    priority: np.ndarray,
    *,
    widths=None,
    exclude_self: bool = False,
    ties: str = "all",
    tie_tolerance: float = TIE_TOLERANCE,
) -> np.ndarray:
    """Whether Euclidean 1-NN classifies each query right, on the first ``w`` columns for every ``w`` in
    ``widths`` (default ``1..J``): shape (n_queries, n_widths), entries in [0, 1].

    Squared distances accumulate column by column (the additions of :func:`width_distances`, so its bits), a
    block of queries at a time (:data:`WIDTH_BLOCK_ELEMENTS`), and each width's vote is taken from the running
    sums when they reach it: no array of every width's distances is held. Stored instances within the relative
    ``tie_tolerance`` of the nearest distance are tied (:func:`lazylib.search.tolerance`), and ``ties``
    decides among them:

    - ``"all"``: every tied instance votes, then the class more frequent in training, then the lower index (the
      library's rule, :func:`lazylib.voting.vote`);
    - ``"first"``: the tied instance stored first decides;
    - ``"random"``: one tied instance chosen uniformly at random decides; the entry is the *expected*
      correctness, the share of tied instances of the query's class (no random numbers are drawn).

    ``exclude_self`` leaves query ``i`` out of the stored set (``Q`` is ``S``: leave-one-out).

    Examples
    --------
    >>> S = np.array([[0.0, 0.0], [1.0, 5.0], [1.0, -5.0]])
    >>> Q, y = np.array([[0.9, 0.0]]), np.array([0, 1, 0])
    >>> correct_by_width(Q, [1], S, y, np.array([0.6, 0.3]), ties="random").tolist()
    [[0.5, 0.0]]
    """
    check("ties", ties, Choice(TIE_RULES))
    (Q, S), _ = in_safe_units(Q, S)  # squared differences neither under- nor overflow
    J = S.shape[1]
    widths = np.arange(1, J + 1) if widths is None else np.asarray(widths, dtype=np.intp)
    y_query, y_stored = np.asarray(y_query, dtype=np.intp), np.asarray(y_stored, dtype=np.intp)
    n, m = len(Q), len(S)
    out = np.empty((n, len(widths)))
    step = max(1, WIDTH_BLOCK_ELEMENTS // max(1, m))
    last = int(widths.max(initial=0))
    buffers = np.empty((2, min(step, n), m))  # the running sums and one column's squares, reused by every block
    for start in range(0, n, step):
        chunk = min(step, n - start)
        rows, truth = np.arange(chunk), y_query[start : start + chunk]
        acc, square = buffers[0, :chunk], buffers[1, :chunk]
        for j in range(last):  # the squares added column by column, as width_distances adds them
            target = acc if j == 0 else square
            np.subtract.outer(Q[start : start + chunk, j], S[:, j], out=target)
            np.multiply(target, target, out=target)
            if j:
                acc += square
            at = np.flatnonzero(widths == j + 1)
            if not len(at):
                continue
            if exclude_self:  # the query's own instance out of its vote, put back for the next column
                own = acc[rows, start + rows].copy()
                acc[rows, start + rows] = np.inf
            right = np.asarray(correct(acc, y_stored, truth, 1, priority, ties, tie_tolerance), dtype=float)
            if exclude_self:
                acc[rows, start + rows] = own
            out[start : start + chunk, at] = right[:, None]
    return out


def width_distances(Q: np.ndarray, S: np.ndarray, widths: np.ndarray) -> np.ndarray:
    """(len(widths), len(Q), len(S)): the squared Euclidean distances of every pair on the first ``w`` columns,
    for each ``w`` of ``widths`` (1-based, any order, repeats allowed).

    The squares are added column by column in column order, one pass over a (len(Q), len(S)) accumulator per
    column: the same additions, in the same order, as ``np.cumsum(diff * diff, axis=2)`` over the (len(Q),
    len(S), J) differences (so the same bits), without holding the J-deep array, its squares and its cumulative
    sums, and without gathering the widths from it (issue #52 item 4: CA's and CACP's leave-one-out sweep 2 to 3
    times faster).

    >>> Q, S = np.array([[0.0, 1.0, 2.0]]), np.array([[1.0, 1.0, 0.0], [0.0, 3.0, 2.0]])
    >>> width_distances(Q, S, np.array([3, 1])).tolist()
    [[[5.0, 4.0]], [[1.0, 0.0]]]
    """
    widths = np.asarray(widths, dtype=np.intp)
    D = np.empty((len(widths), len(Q), len(S)))
    if not len(widths):
        return D
    acc = np.empty((len(Q), len(S)))
    square = np.empty_like(acc)
    for j in range(int(widths.max())):
        if j == 0:
            np.subtract.outer(Q[:, 0], S[:, 0], out=acc)
            np.multiply(acc, acc, out=acc)
        else:
            np.subtract.outer(Q[:, j], S[:, j], out=square)
            np.multiply(square, square, out=square)
            acc += square
        D[widths == j + 1] = acc
    return D


def accuracy_by_width(
    Z_train, y_train, Z_test=None, y_test=None, *, n_classes: int | None = None, widths=None, ties: str = "all"
) -> np.ndarray:
    """1-NN accuracy for every number of leading columns: on ``Z_test`` when given, else leave-one-out on
    ``Z_train`` (:func:`correct_by_width`). Labels are class indices (``0..n_classes-1``); the vote priorities
    come from the training counts."""
    n_classes = check("n_classes", n_classes, Integer(low=1), optional=True)
    y_train = check_class_indices("y_train", y_train, n_classes)
    if y_test is not None:
        y_test = check_class_indices("y_test", y_test, n_classes)
    C = int(n_classes if n_classes is not None else y_train.max(initial=-1) + 1)
    priority = vote_priority(np.bincount(y_train, minlength=C))
    if Z_test is None:
        right = correct_by_width(
            Z_train, y_train, Z_train, y_train, priority, widths=widths, exclude_self=True, ties=ties
        )
    else:
        right = correct_by_width(Z_test, y_test, Z_train, y_train, priority, widths=widths, ties=ties)
    return right.mean(axis=0)


def nn_accuracy(Z_train, y_train, Z_test, y_test, *, n_classes: int | None = None, ties: str = "all") -> float:
    """Plain Euclidean 1-NN test accuracy on all columns (the paper's NN)."""
    n_classes = check("n_classes", n_classes, Integer(low=1), optional=True)
    J = np.asarray(Z_train).shape[1]
    return float(accuracy_by_width(Z_train, y_train, Z_test, y_test, n_classes=n_classes, widths=[J], ties=ties)[0])
