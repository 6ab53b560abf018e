"""The other distance functions of Wilson & Martinez' Figure 1, for linear attributes only.

Chebychev comes from scipy, whose definition is the paper's. Camberra, Mahalanobis (with the paper's
``det(V)^(1/m)`` factor and no square root), quadratic, correlation, chi-square and Kendall's rank correlation
differ from scipy's versions in their normalisation, so they are written here. Figure 1 did not survive in our
copy of the paper; the forms are the textbook ones the recovered notes give, marked uncertain there.
"""

from __future__ import annotations

import numpy as np
from scipy.spatial.distance import cdist

from lazylib.metrics._base import WORKING_MEMORY, Metric
from lazylib.metrics._encode import LINEAR_TYPES


class _NumericMetric(Metric):
    """A metric over linear attributes with no rule for unknown values: ``_block(Aq, Bs)`` per chunk."""

    accepts = LINEAR_TYPES

    def __init__(self, *, working_memory: float = WORKING_MEMORY):
        super().__init__(weights=None, working_memory=working_memory)

    def _chunks(self, Zq, Zs, cls, reduced: bool = False):
        for name, Z in (("A", Zq), ("B", Zs)):
            if np.isnan(Z).any():
                raise ValueError(f"{type(self).__name__} has no rule for unknown values, and {name} has some")
        step = self._chunk_rows(len(Zs), Zq.shape[1])
        for start in range(0, len(Zq), step):
            stop = min(start + step, len(Zq))
            yield start, stop, self._block(Zq[start:stop], Zs)

    def _fit(self, Z, y):
        if np.isnan(Z).any():
            raise ValueError(f"{type(self).__name__} has no rule for unknown values, and X has some")


def _sq_euclidean(P, Q):
    S = (P * P).sum(1)[:, None] + (Q * Q).sum(1)[None, :] - 2.0 * P @ Q.T
    return np.maximum(S, 0.0, out=S)


class Chebychev(_NumericMetric):
    """``D(x, y) = max_a |x_a - y_a|`` (scipy's ``chebyshev``).

    Examples
    --------
    >>> import numpy as np
    >>> Chebychev().fit(np.array([[0.0, 0.0]]), types=["continuous"] * 2).pairwise(np.array([[1.0, -3.0]]))
    array([[3.]])
    """

    def _block(self, A, B):
        return cdist(A, B, "chebyshev")


class Camberra(_NumericMetric):
    """``D(x, y) = sum_a |x_a - y_a| / |x_a + y_a|``, with 0/0 taken as 0 (scipy's canberra divides by
    ``|x_a| + |y_a|`` instead, which differs for values of opposite sign).

    Examples
    --------
    >>> import numpy as np
    >>> Camberra().fit(np.array([[1.0, 0.0]]), types=["continuous"] * 2).pairwise(np.array([[3.0, 0.0]]))
    array([[0.5]])
    """

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

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0, 0.0], [2.0, 0.0], [0.0, 1.0], [2.0, 1.0]])
    >>> float(Mahalanobis().fit(X, types=["continuous"] * 2).pairwise(X[:1], X[1:2])[0, 0].round(4))
    2.0
    """

    def _fit(self, Z, y):
        super()._fit(Z, y)
        V = np.atleast_2d(np.cov(Z, rowvar=False))
        sign, logdet = np.linalg.slogdet(V)
        if sign <= 0:
            raise ValueError("the training covariance matrix is singular: Mahalanobis distance is undefined")
        self.factor_ = float(np.exp(logdet / V.shape[0]))
        self.whiten_ = np.linalg.cholesky(np.linalg.inv(V))

    def _block(self, A, B):
        return self.factor_ * _sq_euclidean(A @ self.whiten_, B @ self.whiten_)


class Quadratic(_NumericMetric):
    """``D(x, y) = (x - y)^T Q (x - y)`` for a given positive-definite matrix ``Q``.

    Examples
    --------
    >>> import numpy as np
    >>> q = Quadratic(Q=[[2.0, 0.0], [0.0, 1.0]]).fit(np.zeros((1, 2)), types=["continuous"] * 2)
    >>> q.pairwise(np.array([[1.0, 1.0]]), np.zeros((1, 2)))
    array([[3.]])
    """

    def __init__(self, Q=None, *, working_memory: float = WORKING_MEMORY):
        super().__init__(working_memory=working_memory)
        self.Q = Q

    def _fit(self, Z, y):
        super()._fit(Z, y)
        if self.Q is None:
            raise ValueError("the quadratic distance needs its matrix: Quadratic(Q=...)")
        Q = np.asarray(self.Q, dtype=np.float64)
        if Q.shape != (Z.shape[1], Z.shape[1]):
            raise ValueError(f"Q must have shape {(Z.shape[1], Z.shape[1])}, got {Q.shape}")
        try:
            self.factor_ = np.linalg.cholesky(Q)
        except np.linalg.LinAlgError as exc:
            raise ValueError("Q must be symmetric positive definite") from exc

    def _block(self, A, B):
        return _sq_euclidean(A @ self.factor_, B @ self.factor_)


class Correlation(_NumericMetric):
    """``D(x, y) = 1 - r(x, y)`` with ``r`` the correlation of Figure 1, centred on the training mean of each
    attribute (not on each vector's own mean, as scipy's ``correlation`` is). Returning ``1 - r`` makes it a
    distance (0 for identical vectors); Figure 1 gives ``r`` itself.

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
        self.mean_ = Z.mean(axis=0)

    def _block(self, A, B):
        P, Q = A - self.mean_, B - self.mean_
        num = P @ Q.T
        den = np.sqrt((P * P).sum(1))[:, None] * np.sqrt((Q * Q).sum(1))[None, :]
        with np.errstate(divide="ignore", invalid="ignore"):
            r = np.where(den > 0, num / den, 0.0)
        return 1.0 - r


class ChiSquare(_NumericMetric):
    """``D(x, y) = sum_a (1 / sum_a) (x_a / size_x - y_a / size_y)^2`` with ``sum_a`` the training total of
    attribute ``a`` and ``size_x`` the total of the entries of ``x`` (meant for non-negative counts).

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
            raise ValueError("chi-square distance needs positive attribute totals")

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

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1.0, 2.0, 3.0], [3.0, 2.0, 1.0]])
    >>> Kendall().fit(X, types=["continuous"] * 3).pairwise(X)
    array([[0., 2.],
           [2., 0.]])
    """

    def _signs(self, Z):
        i, j = np.triu_indices(Z.shape[1], k=1)
        return np.sign(Z[:, i] - Z[:, j])

    def _block(self, A, B):
        m = A.shape[1]
        if m < 2:
            raise ValueError("Kendall's rank correlation needs at least two attributes")
        return 1.0 - 2.0 / (m * (m - 1)) * (self._signs(A) @ self._signs(B).T)
