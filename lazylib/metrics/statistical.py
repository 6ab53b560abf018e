"""The other distance functions of Wilson & Martinez' Figure 1, for linear attributes only.

Chebychev comes from scipy, whose definition is the paper's. Camberra, Mahalanobis (with the paper's
``det(V)^(1/m)`` factor and no square root), quadratic, correlation, chi-square and Kendall's rank correlation
differ from scipy's versions in their normalisation, so they are written here. Figure 1 did not survive in our
copy of the paper; the forms are the textbook ones the recovered notes give, marked uncertain there.
"""

from __future__ import annotations

import numpy as np
from scipy.spatial.distance import cdist

from lazylib._validation import Real
from lazylib.column_stats import from_units, in_units, known_mean_std, safe_exponents
from lazylib.encoding import LINEAR_TYPES
from lazylib.metrics._base import WORKING_MEMORY, Metric
from lazylib.metrics._plan import CANCELLATION


class _NumericMetric(Metric):
    """A metric over linear attributes with no rule for unknown values: ``_block(Aq, Bs)`` per chunk, which the
    engine asks for chunk by chunk within ``working_memory`` (:func:`lazylib.metrics._engine.chunks`)."""

    accepts = LINEAR_TYPES

    def __init__(self, *, working_memory: float = WORKING_MEMORY):
        super().__init__(weights=None, working_memory=working_memory)

    uses_engine = False

    def _check_operands(self, Zq, Zs) -> None:
        """Refuse queries ``A`` or stored instances ``B`` with unknown values or values outside the domain (the
        engine calls it before asking for the blocks)."""
        for name, Z in (("A", Zq), ("B", Zs)):
            self._check_known(Z, name)
            self._check_values(Z, name)

    _parameter_constraints: dict = {"working_memory": [Real(0, open_low=True)]}

    def _fit(self, Z, y):
        self._check_known(Z, "X")
        self._check_values(Z, "X")

    def _check_known(self, Z, what: str) -> None:
        if np.isnan(Z).any():
            column = self.columns_[int(np.flatnonzero(np.isnan(Z).any(axis=0))[0])]
            raise ValueError(
                f"{type(self).__name__} has no rule for unknown values, and column {column!r} of {what} has some"
            )

    def _check_values(self, Z, what: str) -> None:
        """Refuse values outside the metric's domain (see Camberra, ChiSquare)."""


#: Mahalanobis: a covariance matrix whose smallest eigenvalue is below this fraction of its largest is singular.
RANK_TOLERANCE = 1e-12


def _check_non_negative(metric, Z, what: str, distance: str) -> None:
    if (Z < 0).any():
        column = metric.columns_[int(np.flatnonzero((Z < 0).any(axis=0))[0])]
        raise ValueError(
            f"the {distance} distance is for non-negative values; column {column!r} of {what} has a negative value"
        )


def _sq_euclidean(P, Q):
    """``||p - q||^2`` for all pairs as one product; sums that cancel to near zero are recomputed from direct
    differences (see ``lazylib.metrics._plan.CANCELLATION``), so identical rows are at exactly 0."""
    p2, q2 = (P * P).sum(1), (Q * Q).sum(1)
    S = p2[:, None] + q2[None, :] - 2.0 * P @ Q.T
    near = np.nonzero(S <= CANCELLATION * (p2[:, None] + q2[None, :]))
    if len(near[0]):
        S[near] = ((P[near[0]] - Q[near[1]]) ** 2).sum(1)
    return np.maximum(S, 0.0, out=S)


class Chebychev(_NumericMetric):
    """``D(x, y) = max_a |x_a - y_a|`` (scipy's ``chebyshev``).

    Parameters
    ----------
    working_memory : float
        Bound, in MiB, on the temporaries of one chunk (as for :class:`lazylib.metrics.Metric`).

    Examples
    --------
    >>> import numpy as np
    >>> Chebychev().fit(np.array([[0.0, 0.0]]), types=["continuous"] * 2).pairwise(np.array([[1.0, -3.0]]))
    array([[3.]])
    """

    def _block(self, A, B):
        return cdist(A, B, "chebyshev")


class Camberra(_NumericMetric):
    """``D(x, y) = sum_a |x_a - y_a| / |x_a + y_a|``, with 0/0 taken as 0, for non-negative values (for values of
    opposite sign the denominator can vanish while the numerator does not: the distance would be infinite, so
    negative values are refused; scipy's canberra divides by ``|x_a| + |y_a|`` instead).

    Parameters
    ----------
    working_memory : float
        Bound, in MiB, on the temporaries of one chunk (as for :class:`lazylib.metrics.Metric`).

    Examples
    --------
    >>> import numpy as np
    >>> Camberra().fit(np.array([[1.0, 0.0]]), types=["continuous"] * 2).pairwise(np.array([[3.0, 0.0]]))
    array([[0.5]])
    """

    def _check_values(self, Z, what):
        _check_non_negative(self, Z, what, "Camberra")

    def _block(self, A, B):
        out = np.zeros((len(A), len(B)))
        for a in range(A.shape[1]):
            num = np.abs(A[:, a, None] - B[None, :, a])
            den = np.abs(A[:, a, None] + B[None, :, a])
            with np.errstate(divide="ignore", invalid="ignore"):
                out += np.where(num == 0, 0.0, num / den)
        return out


class Mahalanobis(_NumericMetric):
    """``D(x, y) = det(V)^(1/m) (x - y)^T V^-1 (x - y)`` with ``V`` the training covariance matrix.

    Parameters
    ----------
    working_memory : float
        Bound, in MiB, on the temporaries of one chunk (as for :class:`lazylib.metrics.Metric`).

    Attributes
    ----------
    factor_ : float
        ``det(V)^(1/m)``, the factor of the distance.
    whiten_ : ndarray of shape (``n_features_in_``, ``n_features_in_``)
        A matrix ``L`` with ``L L^T = V^-1``: the distance is ``factor_ ||(x - y) L||^2``.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0, 0.0], [2.0, 0.0], [0.0, 1.0], [2.0, 1.0]])
    >>> float(Mahalanobis().fit(X, types=["continuous"] * 2).pairwise(X[:1], X[1:2])[0, 0].round(4))
    2.0
    """

    def _fit(self, Z, y):
        super()._fit(Z, y)
        n, m = Z.shape
        if n <= m:
            raise ValueError(
                f"Mahalanobis distance needs more training instances than attributes "
                f"(n = {n}, m = {m}): the covariance matrix is singular"
            )
        # the covariance of the columns scaled by powers of 2 (exact): V = S C S, so the rank test, the inverse
        # and the determinant hold at any magnitude of the data, and det(V)^(1/m) = det(C)^(1/m) prod(S)^(2/m)
        top = np.abs(Z).max(axis=0)
        S = np.ldexp(1.0, np.frexp(np.where(top > 0, top, 1.0))[1])
        C = np.atleast_2d(np.cov(Z / S, rowvar=False))
        eig = np.linalg.eigvalsh(C)
        if eig[0] <= RANK_TOLERANCE * max(eig[-1], np.finfo(float).tiny):
            raise ValueError(
                f"the training covariance matrix is singular or nearly so (eigenvalues, columns scaled "
                f"to 1: {eig[0]:.3g} to {eig[-1]:.3g}): some attribute is constant or a linear "
                "combination of others, and Mahalanobis distance is undefined"
            )
        with np.errstate(over="ignore", under="ignore"):
            self.factor_ = float(np.exp((np.log(eig).sum() + 2.0 * np.log(S).sum()) / m))
        if not np.finfo(float).tiny <= self.factor_ < np.inf:
            raise ValueError(
                "Mahalanobis distances grow as the square of the data, and at this magnitude "
                f"(columns up to {top.max():.3g}) they are beyond the float range: rescale the data"
            )
        self.whiten_ = np.linalg.cholesky(np.linalg.inv(C)) / S[:, None]

    def _block(self, A, B):
        return self.factor_ * _sq_euclidean(A @ self.whiten_, B @ self.whiten_)


class Quadratic(_NumericMetric):
    """``D(x, y) = (x - y)^T Q (x - y)`` for a given positive-definite matrix ``Q``.

    Parameters
    ----------
    Q : array-like of shape (m, m)
        The symmetric positive-definite matrix of the quadratic form (required).
    working_memory : float
        Bound, in MiB, on the temporaries of one chunk (as for :class:`lazylib.metrics.Metric`).

    Attributes
    ----------
    factor_ : ndarray of shape (``n_features_in_``, ``n_features_in_``)
        The Cholesky factor ``L`` of ``Q`` (``Q = L L^T``).

    Examples
    --------
    >>> import numpy as np
    >>> q = Quadratic(Q=[[2.0, 0.0], [0.0, 1.0]]).fit(np.zeros((1, 2)), types=["continuous"] * 2)
    >>> q.pairwise(np.array([[1.0, 1.0]]), np.zeros((1, 2)))
    array([[3.]])
    """

    _parameter_constraints: dict = {**_NumericMetric._parameter_constraints, "Q": ["array-like", None]}

    def __init__(self, Q=None, *, working_memory: float = WORKING_MEMORY):
        super().__init__(working_memory=working_memory)
        self.Q = Q

    def _fit(self, Z, y):
        super()._fit(Z, y)
        if self.Q is None:
            raise ValueError("the quadratic distance needs its matrix: Quadratic(Q=...)")
        try:
            Q = np.asarray(self.Q, dtype=np.float64)
        except (TypeError, ValueError):
            raise ValueError("Q must be a square matrix of numbers") from None
        if Q.shape != (Z.shape[1], Z.shape[1]):
            raise ValueError(f"Q must have shape {(Z.shape[1], Z.shape[1])}, got {Q.shape}")
        if not np.isfinite(Q).all():
            raise ValueError("Q must hold finite numbers")
        if not np.allclose(Q, Q.T, rtol=1e-12, atol=0.0):
            raise ValueError("Q must be symmetric (the quadratic form reads both triangles of it)")
        try:
            self.factor_ = np.linalg.cholesky(Q)
        except np.linalg.LinAlgError as exc:
            raise ValueError("Q must be symmetric positive definite") from exc

    def _block(self, A, B):
        return _sq_euclidean(A @ self.factor_, B @ self.factor_)


class Correlation(_NumericMetric):
    """``D(x, y) = 1 - r(x, y)`` with ``r`` the correlation of Figure 1, centred on the training mean of each
    attribute (not on each vector's own mean, as scipy's ``correlation`` is). Returning ``1 - r`` makes it a
    distance (0 for identical vectors); Figure 1 gives ``r`` itself. ``r`` is undefined for an instance equal
    to the training mean: it is taken as 0 (distance 1) against any other instance, and two such instances
    are at distance 0.

    Parameters
    ----------
    working_memory : float
        Bound, in MiB, on the temporaries of one chunk (as for :class:`lazylib.metrics.Metric`).

    Attributes
    ----------
    mean_ : ndarray of shape (``n_features_in_``,)
        Training mean of each attribute.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1.0, 2.0], [3.0, 4.0]])
    >>> Correlation().fit(X, types=["continuous"] * 2).pairwise(X).round(4)
    array([[0., 2.],
           [2., 0.]])
    """

    def _fit(self, Z, y):
        super()._fit(Z, y)
        # r is unchanged by a common scale: the data read in one power-of-two unit (exact) keep every digit of
        # their mean in the subnormal range (1 within lazylib.column_stats.SAFE_RANGE: nothing recomputed)
        self._exponent = int(safe_exponents(np.max(np.abs(Z), initial=0.0)))
        self._mean_unit = known_mean_std(in_units(Z, self._exponent), columns=self.columns_)[0]
        self.mean_ = from_units(self._mean_unit, self._exponent)

    def _block(self, A, B):
        # 1 - r = ||u - v||^2 / 2 for the unit vectors u, v of the centred instances: identical instances are at
        # exactly 0 (the near-zero sums are recomputed from direct differences)
        U, V = self._unit(A), self._unit(B)
        D = _sq_euclidean(U, V) / 2.0
        # r is undefined for an instance at the training mean: taken as 0 (distance 1) against any other
        # instance; two such instances are identical: distance 0
        at_mean_a, at_mean_b = ~(U != 0).any(1), ~(V != 0).any(1)
        D[at_mean_a, :] = 1.0
        D[:, at_mean_b] = 1.0
        D[np.ix_(at_mean_a, at_mean_b)] = 0.0
        return D

    def _unit(self, Z):
        P = in_units(Z, self._exponent) - self._mean_unit
        top = np.abs(P).max(axis=1, keepdims=True)
        P = np.divide(P, top, out=np.zeros_like(P), where=top > 0)  # no overflow or underflow in the norm
        norm = np.sqrt((P * P).sum(1, keepdims=True))
        return np.divide(P, norm, out=np.zeros_like(P), where=norm > 0)


class ChiSquare(_NumericMetric):
    """``D(x, y) = sum_a (1 / sum_a) (x_a / size_x - y_a / size_y)^2`` with ``sum_a`` the training total of
    attribute ``a`` and ``size_x`` the total of the entries of ``x`` (meant for non-negative counts).

    Parameters
    ----------
    working_memory : float
        Bound, in MiB, on the temporaries of one chunk (as for :class:`lazylib.metrics.Metric`).

    Attributes
    ----------
    totals_ : ndarray of shape (``n_features_in_``,)
        Training total of each attribute (the ``sum_a`` of the formula).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1.0, 1.0], [1.0, 3.0]])
    >>> float(ChiSquare().fit(X, types=["continuous"] * 2).pairwise(X[:1], X[1:])[0, 0])
    0.046875
    """

    def _fit(self, Z, y):
        super()._fit(Z, y)
        self.totals_ = Z.sum(axis=0)
        if (self.totals_ <= 0).any():
            column = self.columns_[int(np.flatnonzero(self.totals_ <= 0)[0])]
            raise ValueError(
                f"chi-square distance needs positive attribute totals; column {column!r} sums to 0 in training"
            )

    def _check_values(self, Z, what):
        _check_non_negative(self, Z, what, "chi-square")

    def _embed(self, Z):
        size = Z.sum(axis=1, keepdims=True)
        if (size == 0).any():
            raise ValueError("chi-square distance is undefined for an all-zero instance")
        return Z / size / np.sqrt(self.totals_)

    def _block(self, A, B):
        return _sq_euclidean(self._embed(A), self._embed(B))


class Kendall(_NumericMetric):
    """``D(x, y) = 1 - 2 / (m (m - 1)) sum_{i<j} sign(x_i - x_j) sign(y_i - y_j)``, one minus Kendall's rank
    correlation between the attribute values of the two instances (Figure 1, with ``m`` attributes).

    Parameters
    ----------
    working_memory : float
        Bound, in MiB, on the temporaries of one chunk (as for :class:`lazylib.metrics.Metric`).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1.0, 2.0, 3.0], [3.0, 2.0, 1.0]])
    >>> Kendall().fit(X, types=["continuous"] * 3).pairwise(X)
    array([[0., 2.],
           [2., 0.]])
    """

    #: An instance with two equal attribute values is not at distance 0 from itself (its sign products vanish).
    zero_on_self = False

    def _fit(self, Z, y):
        super()._fit(Z, y)
        if Z.shape[1] < 2:
            raise ValueError("Kendall's rank correlation needs at least two attributes")

    def _signs(self, Z):
        i, j = np.triu_indices(Z.shape[1], k=1)
        return np.sign(Z[:, i] - Z[:, j])

    def _block(self, A, B):
        m = A.shape[1]
        if m < 2:
            raise ValueError("Kendall's rank correlation needs at least two attributes")
        return 1.0 - 2.0 / (m * (m - 1)) * (self._signs(A) @ self._signs(B).T)
