"""Information-gain weighting (Daelemans et al. 1994), the weighting Howe & Cardie compare MDW with: equal-width
bins of continuous features and the gain of each feature."""

from __future__ import annotations

import numpy as np
import pandas as pd

from lazylib._validation import Integer, check
from lazylib.encoding import LINEAR_TYPES, NOMINAL, encode
from lazylib.labels import encode_labels
from lazylib.metrics import WORKING_MEMORY
from lazylib.weighting.feature_difference import FeatureDifference, LearnedWeights


def equal_width_bins(X: pd.DataFrame, n_bins: int = 8, *, reference: pd.DataFrame | None = None) -> pd.DataFrame:
    """Numeric columns cut into ``n_bins`` equal-width intervals over the ``reference`` range (default ``X``'s
    own), as ordered Categoricals of bin numbers; values outside the range go to the end bins; NaN stays NaN;
    other columns unchanged.

    Examples
    --------
    >>> equal_width_bins(pd.DataFrame({"x": [0.0, 0.5, 1.0]}), 2)["x"].tolist()
    [0, 1, 1]
    """
    n_bins = check("n_bins", n_bins, Integer(low=1))
    reference = X if reference is None else reference
    out = X.copy()
    for c in X.columns:
        col = X[c]
        if (
            isinstance(col.dtype, pd.CategoricalDtype)
            or not pd.api.types.is_numeric_dtype(col.dtype)
            or pd.api.types.is_bool_dtype(col.dtype)
        ):
            continue
        x = col.to_numpy(dtype=np.float64, na_value=np.nan)
        ref = reference[c].to_numpy(dtype=np.float64, na_value=np.nan)
        known = ref[np.isfinite(ref)]  # an infinite value goes to an end bin, it does not stretch the range
        lo, hi = (known.min(), known.max()) if len(known) else (0.0, 0.0)
        with np.errstate(over="ignore", invalid="ignore"):
            width = (hi - lo) / n_bins
            if width == 0:
                b = np.zeros(len(x))
            elif np.isfinite(width):
                b = np.clip(np.floor((x - lo) / width), 0, n_bins - 1)
            else:  # a range beyond the float range (hi - lo overflows): positions computed in halves
                b = np.clip(np.floor((x / 2 - lo / 2) / ((hi / 2 - lo / 2) / n_bins)), 0, n_bins - 1)
        codes = np.where(np.isnan(x), -1, b).astype(int)
        # a range of bin numbers, not a list: ``n_bins`` far above the rows costs nothing (issue #53)
        out[c] = pd.Categorical.from_codes(codes, categories=pd.RangeIndex(n_bins), ordered=True)
    return out


def _entropy(counts: np.ndarray) -> np.ndarray:
    """Entropy in bits of each row of class counts (0 for an empty row)."""
    totals = counts.sum(-1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(totals > 0, counts / np.where(totals > 0, totals, 1), 0.0)
        return -(np.where(p > 0, p * np.log2(np.where(p > 0, p, 1.0)), 0.0)).sum(-1)


def information_gain(X, y, n_bins: int = 8, *, types=None) -> pd.Series:
    """``IG(f) = H(C) - sum_v P(v) H(C | v)`` in bits for every feature, continuous ones in ``n_bins``
    equal-width bins (Daelemans et al. 1994, as used by Howe & Cardie).

    Parameters
    ----------
    X : DataFrame, or array with ``types``
    y : array-like
    n_bins : int
        Bins of equal width between the training minimum and maximum, for numeric features (eight in the paper).

    Notes
    -----
    An unknown value counts as one more value. Howe & Cardie do not say how a continuous feature's range is
    split beyond "eight discrete bins of equal size": we read "size" as width.

    References
    ----------
    Howe, N. and Cardie, C., section 3; Daelemans, W., Durieux, G. and Gillis, S. (1994).

    Examples
    --------
    A feature equal to the class carries its whole entropy, one bit; an unrelated one none:

    >>> X = pd.DataFrame({"same": pd.Categorical(list("abab")), "noise": pd.Categorical(list("aabb"))})
    >>> information_gain(X, list("abab")).tolist()
    [1.0, 0.0]
    """
    n_bins = check("n_bins", n_bins, Integer(low=1))
    if not isinstance(X, pd.DataFrame):
        enc = encode(X, types)
        X = pd.DataFrame(
            {c: (pd.Categorical(v) if k == NOMINAL else v) for c, k, v in zip(enc.columns, enc.kinds, enc.values.T)}
        )
    groups, classes = encode_labels(y, len(X))
    C = len(classes)
    binned = equal_width_bins(X, n_bins)
    h = float(_entropy(np.bincount(groups, minlength=C).astype(float)))
    gains = []
    for c in binned.columns:
        col = binned[c]
        if isinstance(col.dtype, pd.CategoricalDtype):
            codes = col.array.codes.astype(np.intp)
        elif pd.api.types.is_bool_dtype(col.dtype):
            codes = col.to_numpy().astype(np.intp)
        else:
            raise ValueError(f"column {c!r}: information gain needs symbolic or numeric features")
        codes = np.where(codes < 0, codes.max() + 1 if len(codes) else 0, codes)  # unknown: one more value
        V = int(codes.max()) + 1 if len(codes) else 0
        if V > len(codes):  # more values than rows (bins far above the rows): count the values present only
            _, codes = np.unique(codes, return_inverse=True)
            codes, V = codes.reshape(-1), int(codes.max()) + 1
        counts = np.bincount(codes * C + groups, minlength=V * C).reshape(V, C).astype(float)
        p_v = counts.sum(1) / len(groups)
        gains.append(h - float(p_v @ _entropy(counts)))
    return pd.Series(np.maximum(gains, 0.0), index=[str(c) for c in X.columns], name="information_gain")


class IGWeighted(LearnedWeights, FeatureDifference):
    """:class:`~lazylib.weighting.FeatureDifference` with every feature weighted by its information gain
    (:func:`~lazylib.weighting.information_gain`, continuous features in ``n_bins`` equal-width bins): Howe & Cardie's
    "IG". Set-valued features are refused: information gain needs values that can be counted.

    Parameters
    ----------
    n_bins : int
        Equal-width bins of a continuous feature for its information gain.
    scale : {"range", "raw"}
        As for :class:`~lazylib.weighting.FeatureDifference`.
    weights : None
        Must be None: the weights are learnt.
    working_memory : float
        Bound, in MiB, on the temporaries of one chunk (as for :class:`lazylib.metrics.Metric`).
    missing : {"one", "value"}
        As for :class:`~lazylib.weighting.FeatureDifference` (the gain counts an unknown value as one more value under
        both).

    Attributes
    ----------
    learned_ : ndarray of shape (``n_features_in_``,)
        Information gain of each feature, which ``fit`` sets as ``weights_``.

    Examples
    --------
    >>> X = pd.DataFrame({"a": [0.0, 0.1, 1.0, 1.1], "b": pd.Categorical(list("pqpq"))})
    >>> IGWeighted().fit(X, list("xxyy")).weights_.tolist()
    [1.0, 0.0]
    """

    needs_labels = True
    accepts = (NOMINAL, *LINEAR_TYPES)

    def __init__(
        self,
        *,
        n_bins: int = 8,
        scale: str = "range",
        weights=None,
        working_memory: float = WORKING_MEMORY,
        missing: str = "one",
    ):
        super().__init__(scale=scale, weights=weights, working_memory=working_memory, missing=missing)
        self.n_bins = n_bins

    _parameter_constraints: dict = {
        **FeatureDifference._parameter_constraints,
        "n_bins": [Integer(low=1)],
        "weights": [None],
    }

    def _fit(self, Z, y):
        super()._fit(Z, y)
        frame = self._frame(Z)
        self.learned_ = information_gain(frame, y, self.n_bins).to_numpy()


__all__ = [
    "equal_width_bins",
    "information_gain",
    "IGWeighted",
]
