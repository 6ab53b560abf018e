"""Overlap distances: OM and WOM (Payne & Edwards 1998, Eqs. 1-2 with r = 1)."""

from __future__ import annotations

from lazylib._validation import Choice
from lazylib.metrics._attributes import OverlapAttribute
from lazylib.metrics._base import WORKING_MEMORY, AttributeMetric


class Overlap(AttributeMetric):
    """Overlap metric OM: the number of attributes on which two instances differ.

    ``D(i, j) = sum_a delta(i_a, j_a)`` with ``delta = 0`` for equal values and 1 otherwise (Payne & Edwards 1998,
    Eqs. 1-2 with ``r = 1``).

    Parameters
    ----------
    missing : {"value", "one"}
        ``"value"`` (default): an unknown value is one more symbol, equal to another unknown; ``"one"``: an
        unknown value differs from everything (the rule of HEOM).
    weights : array-like, optional
        Attribute weights multiplying each attribute's overlap (see :class:`WeightedOverlap`).
    working_memory : float
        Bound, in MiB, on the temporaries of one chunk (as for :class:`lazylib.metrics.Metric`).

    See Also
    --------
    lazylib.metrics.terms.overlap : The attribute term pair by pair, as the paper prints it.

    Notes
    -----
    Payne & Edwards do not say how unknown values were compared; treating them as one more symbol is our choice.
    Linear attributes are compared for equality too, as symbols.

    References
    ----------
    Payne, T. R. and Edwards, P. (1998), section 2, Eqs. 1-2.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0, 1, 2], [0, 2, 2], [1, 2, 0]])
    >>> Overlap().fit(X, types=["nominal"] * 3).pairwise(X)
    array([[0., 1., 3.],
           [1., 0., 2.],
           [3., 2., 0.]])
    """

    _fixed_root = 1.0

    def __init__(self, *, missing: str = "value", weights=None, working_memory: float = WORKING_MEMORY):
        super().__init__(weights=weights, working_memory=working_memory)
        self.missing = missing

    _parameter_constraints: dict = {**AttributeMetric._parameter_constraints, "missing": [Choice(("value", "one"))]}

    def _fit(self, Z, y):
        self.attributes_ = [OverlapAttribute(self.missing) for _ in range(Z.shape[1])]


class WeightedOverlap(Overlap):
    """WOM: the overlap metric with one weight per attribute, ``D = sum_a w_a delta(i_a, j_a)``.

    The weights are given (learn them with :func:`lazylib.weighting.wom_weights`, Eq. 7 of Payne & Edwards).

    Parameters
    ----------
    weights : array-like
        The attribute weights (required), one vector or one per class of the stored instance.
    missing : {"value", "one"}
        As for :class:`Overlap`.
    working_memory : float
        Bound, in MiB, on the temporaries of one chunk (as for :class:`lazylib.metrics.Metric`).

    See Also
    --------
    lazylib.metrics.terms.overlap : The attribute term pair by pair, as the paper prints it.

    References
    ----------
    Payne, T. R. and Edwards, P. (1998), sections 3-4.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0, 1], [1, 1], [1, 0]])
    >>> WeightedOverlap(weights=[2.0, 0.5]).fit(X, types=["nominal"] * 2).pairwise(X[:1])
    array([[0. , 2. , 2.5]])
    """

    required_params = ("weights",)

    def __init__(self, *, weights=None, missing: str = "value", working_memory: float = WORKING_MEMORY):
        super().__init__(missing=missing, weights=weights, working_memory=working_memory)

    def _fit(self, Z, y):
        if self.weights is None:
            raise ValueError("WOM needs attribute weights: WeightedOverlap(weights=...)")
        super()._fit(Z, y)
