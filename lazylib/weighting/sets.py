"""k-NN over features of any kind, set-valued ones included (Howe & Cardie's image task), feature by feature:
a second path, kept as a cross-check of the metrics.

The metrics accept set-valued columns themselves (:class:`lazylib.weighting.FeatureDifference` and
:class:`lazylib.weighting.MDW`, searched by :class:`lazylib.neighbors.KNeighborsClassifier`): use them. This
module computes the same kind of distance matrix another way, feature by feature, ``D(q, s) = sum_f w_{c(s)}(f)
delta_f(q_f, s_f)`` with ``delta_f`` = ``|x - y|`` (numeric), overlap (symbolic) or
:func:`lazylib.weighting.kinds.set_difference` (sets), and ``w_{c(s)}`` the weights of the stored instance's class
(:func:`lazylib.weighting.mdw_weights`); votes follow the tie rule of :mod:`lazylib.neighbors`
(:func:`lazylib.voting.vote`). It equals ``FeatureDifference(scale="raw")`` (and MDW's weights) on data
without unknown values; an unknown value is at difference 0 here and 1 in the metrics
(``tests/oracles/test_set_metrics.py`` checks both). Memory is ``O(C n_q n_s)``: meant for data sets of about a
thousand instances, as the paper's.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context

from lazylib._docs import fill_doc
from lazylib._validation import Boolean, Choice, Integer, check, validate_params
from lazylib.column_stats import column_values, is_known_set
from lazylib.encoding import as_numbers, check_query, fit_input
from lazylib.labels import encode_labels
from lazylib.voting import vote, vote_priority
from lazylib.weighting.kinds import feature_kinds, set_difference
from lazylib.weighting.mdw import mdw_weights


def feature_difference(a, b, kind: str) -> np.ndarray:
    """The ``(len(a), len(b))`` matrix of one feature's intrinsic differences: ``|x - y|``, overlap or Eq. 6.

    An unknown value (NaN, or None for a set) is at difference 0 from everything, so it adds nothing to the
    distance (the weights of MDW are calibrated on known values; the paper does not say).

    Examples
    --------
    >>> feature_difference(np.array([0.0, 2.0]), np.array([1.0, np.nan]), "numeric")
    array([[1., 0.],
           [1., 0.]])
    """
    if kind == "set":
        out = np.zeros((len(a), len(b)))
        ia = np.flatnonzero([is_known_set(s) for s in a])
        ib = np.flatnonzero([is_known_set(s) for s in b])
        if len(ia) and len(ib):
            out[np.ix_(ia, ib)] = set_difference([a[i] for i in ia], [b[j] for j in ib])
        return out
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if kind == "numeric":
        d = np.abs(a[:, None] - b[None, :])
    elif kind == "symbolic":
        d = (a[:, None] != b[None, :]).astype(np.float64)
    else:
        raise ValueError(f"unknown feature kind {kind!r}")
    d[np.isnan(a)[:, None] | np.isnan(b)[None, :]] = 0.0
    return d


def feature_differences(X: pd.DataFrame, *, types=None, kinds=("set",)) -> dict:
    """Column name -> the ``(n, n)`` matrix of that feature's differences among the rows of ``X``, for the
    columns of the given kinds (sets by default: the costly ones), to compute once and pass to
    :func:`combined_distance` and :func:`lazylib.weighting.mdw_components` (``differences=``)."""
    columns, found = feature_kinds(X, types)
    return {
        c: feature_difference(column_values(X.iloc[:, f], k), column_values(X.iloc[:, f], k), k)
        for f, (c, k) in enumerate(zip(columns, found))
        if k in kinds
    }


def combined_distance(
    A: pd.DataFrame, B: pd.DataFrame | None = None, *, weights=None, y_B=None, types=None, differences=None
) -> np.ndarray:
    """``D[q, s] = sum_f w(f) delta_f(A_q, B_s)`` for every query ``q`` of ``A`` and stored instance ``s`` of
    ``B`` (default ``A``).

    Parameters
    ----------
    A, B : DataFrame
        Same columns; numeric, Categorical or object columns of ``(members, d)`` arrays (sets).
    weights : Series or DataFrame, optional
        One weight per feature, or one row per class (as :func:`lazylib.weighting.mdw_weights` returns), used
        with the class of the stored instance; all ones by default.
    y_B : array-like, optional
        Classes of ``B`` (required with per-class weights).
    differences : dict, optional
        Precomputed matrices of some features (:func:`feature_differences`), used instead of recomputing them;
        only valid when ``B`` is ``A``.

    References
    ----------
    Howe, N. and Cardie, C., sections 2-3, Eq. 6.

    Examples
    --------
    >>> X = pd.DataFrame({"x": [0.0, 1.0], "s": [np.array([[0.0, 0.0]]), np.array([[3.0, 4.0], [9.0, 9.0]])]})
    >>> combined_distance(X)
    array([[0., 6.],
           [6., 0.]])
    """
    if differences and B is not None and B is not A:
        raise ValueError("precomputed differences are among the rows of A: leave B out")
    B = A if B is None else B
    differences = differences or {}
    columns, kinds = feature_kinds(A, types)
    if [str(c) for c in B.columns] != columns:
        raise ValueError("A and B must have the same columns")
    if weights is None:
        W, rows = np.ones((1, len(columns))), np.zeros(len(B), dtype=np.intp)
    elif isinstance(weights, pd.DataFrame):
        if y_B is None:
            raise ValueError("per-class weights apply to the class of each stored instance: pass y_B")
        labels = list(weights.index)
        y_B = list(y_B)
        unknown = set(y_B) - set(labels)
        if unknown:
            raise ValueError(f"classes {sorted(map(str, unknown))} of y_B have no weights")
        W = weights[columns].to_numpy(dtype=np.float64)
        rows = np.array([labels.index(c) for c in y_B], dtype=np.intp)
    else:
        W = (
            pd.Series(weights, index=columns).to_numpy(dtype=np.float64)[None, :]
            if not isinstance(weights, pd.Series)
            else weights[columns].to_numpy(dtype=np.float64)[None, :]
        )
        rows = np.zeros(len(B), dtype=np.intp)
    D = np.zeros((len(A), len(B)))
    for f, kind in enumerate(kinds):
        w = W[rows, f]
        if not w.any():
            continue
        d = differences.get(columns[f])
        if d is None:
            d = feature_difference(column_values(A.iloc[:, f], kind), column_values(B.iloc[:, f], kind), kind)
        D += d * w[None, :]
    return D


def mdw_loo_distances(
    X: pd.DataFrame,
    y,
    *,
    types=None,
    differences=None,
    self_pairs: bool = True,
    fallback: str = "uniform",
    stages: str = "both",
) -> np.ndarray:
    """``D[i, j] = sum_f w^(i)_{c(j)}(f) delta_f(x_i, x_j)`` with ``w^(i)`` the mean difference weights learnt
    *without* instance ``i``: the distance matrix of an honest leave-one-out test of MDW, in which the held-out
    instance takes no part in the weights that classify it.

    Parameters
    ----------
    X : DataFrame
        Numeric, Categorical or set-valued columns, without unknown values.
    y : array-like
        Class labels.
    types : dict or sequence, optional
        Feature kinds, as for :func:`lazylib.weighting.mdw_weights`.
    differences : dict, optional
        Precomputed ``(n, n)`` matrices of some features (:func:`feature_differences`).
    self_pairs : bool
        As for :func:`lazylib.weighting.mdw_weights`.
    fallback : {"uniform", "zero"}
        As for :func:`lazylib.weighting.mdw_weights`.
    stages : {"both", "scaling"}
        MDW's weights, or its scaling weights alone (one vector for every class), learnt without instance ``i``.

    Returns
    -------
    ndarray of shape (n, n)
        Row ``i``: the distances from instance ``i`` to every instance, under the weights learnt without it (the
        diagonal is 0; :func:`loo_accuracy` leaves it out).

    Notes
    -----
    Relearning the weights ``n`` times would cost ``n`` fits. Every mean difference of Eqs. 1-4 is a block sum
    of a feature's difference matrix divided by a count of pairs, so leaving instance ``i`` out subtracts its row
    sums by class from the blocks of its own class (twice from the within-class block: its row and its column)
    and one from the counts: all ``n`` sets of weights come from one pass over each matrix, ``O(n^2 F)``. The
    significance is computed on calibrated differences (MDW's default). ``tests/oracles/test_mdw_naive.py``
    checks the result against refitting :func:`lazylib.weighting.mdw_components` without each instance.
    Unknown values are refused: this path counts them as difference 0 where MDW's weights leave them out.

    References
    ----------
    Howe, N. and Cardie, C., sections 2-3 (Eqs. 1-5; the leave-one-out test of the image task).

    Examples
    --------
    >>> X = pd.DataFrame({"a": [0.0, 0.1, 1.0, 1.1, 0.5], "b": [0.0, 1.0, 0.0, 1.0, 0.5]})
    >>> D = mdw_loo_distances(X, list("xxyyy"))
    >>> D.shape, bool(np.all(np.diag(D) == 0))
    ((5, 5), True)
    """
    self_pairs = check("self_pairs", self_pairs, Boolean())
    if fallback not in ("uniform", "zero"):
        raise ValueError(f"fallback must be 'uniform' or 'zero', got {fallback!r}")
    if stages not in ("both", "scaling"):
        raise ValueError(f"stages must be 'both' or 'scaling', got {stages!r}")
    columns, kinds = feature_kinds(X, types)
    for f, (c, k) in enumerate(zip(columns, kinds)):
        values = column_values(X.iloc[:, f], k)
        unknown = not all(is_known_set(s) for s in values) if k == "set" else bool(np.isnan(values).any())
        if unknown:
            raise ValueError(f"column {c!r} has unknown values: mdw_loo_distances needs complete data")
    given = differences or {}
    matrices = []
    for f, (c, k) in enumerate(zip(columns, kinds)):
        values = column_values(X.iloc[:, f], k)
        matrices.append(given[c] if c in given else feature_difference(values, values, k))
    codes, classes = encode_labels(y, len(X))
    n, C = len(codes), len(classes)
    if n < 3:
        raise ValueError("mdw_loo_distances needs at least three instances")
    onehot = np.eye(C)[codes]
    counts = onehot.sum(0)
    cnt = counts[None, :] - onehot  # (n, C): class sizes without instance i
    n1 = n - 1
    weights = np.zeros((n, C, len(columns)))
    scales = np.zeros((n, len(columns)))
    for f, D in enumerate(matrices):
        D = np.asarray(D, dtype=np.float64)
        R = D @ onehot  # (n, C): R[i, c] = sum of D[i, j] over the instances j of class c
        B = onehot.T @ R  # (C, C): block sums
        total = B.sum() - 2 * R.sum(1)  # (n,)
        own = R[np.arange(n), codes]  # R[i, c(i)]
        within = np.diag(B)[None, :] - 2 * onehot * own[:, None]  # (n, C)
        rows = B.sum(1)[None, :] - onehot * R.sum(1)[:, None] - R  # (n, C): sum over c' of the blocks of c
        with np.errstate(invalid="ignore", divide="ignore"):
            overall = total / (n1 * n1 - (0 if self_pairs else n1))
            d_in = within / (cnt * cnt - (0 if self_pairs else cnt))
            d_out = (rows - within) / (cnt * (n1 - cnt))
        scale = np.where(np.isfinite(overall) & (overall > 0), 1.0 / overall, 0.0)
        d_in, d_out = np.nan_to_num(d_in) * scale[:, None], np.nan_to_num(d_out) * scale[:, None]
        weights[:, :, f] = np.where(d_out > d_in, d_out - d_in, 0.0) * (scale > 0)[:, None]  # Eq. 5, raw
        scales[:, f] = scale
    sums = weights.sum(-1, keepdims=True)
    usable = (scales > 0).astype(float)
    backup = usable / np.maximum(usable.sum(-1, keepdims=True), 1.0) if fallback == "uniform" else 0 * usable
    with np.errstate(invalid="ignore", divide="ignore"):
        sig = np.where(sums > 0, weights / np.where(sums > 0, sums, 1.0), backup[:, None, :])
    W = sig * scales[:, None, :] if stages == "both" else np.broadcast_to(scales[:, None, :], sig.shape)
    out = np.zeros((n, n))
    for f, D in enumerate(matrices):
        out += W[:, codes, f] * np.asarray(D, dtype=np.float64)
    return out


def loo_accuracy(D: np.ndarray, y, ks=(1,), *, ties: str = "all") -> pd.Series:
    """Leave-one-out accuracy of k-NN for every k from a square distance matrix of the training data (each
    instance is classified by the others), with the tie rule of :mod:`lazylib.neighbors`.

    Examples
    --------
    >>> D = np.array([[0.0, 1.0, 5.0], [1.0, 0.0, 5.0], [5.0, 5.0, 0.0]])
    >>> loo_accuracy(D, ["a", "a", "b"]).tolist()
    [0.6666666666666666]
    """
    D = np.array(D, dtype=np.float64)
    if D.ndim != 2 or D.shape[0] != D.shape[1]:
        raise ValueError(f"D must be square, got shape {D.shape}")
    codes, classes = encode_labels(y, len(D))
    np.fill_diagonal(D, np.inf)
    priority = vote_priority(np.bincount(codes, minlength=len(classes)))
    ks = sorted(set(int(k) for k in ks))
    acc = [float(np.mean(vote(D, codes, k, priority, ties) == codes)) for k in ks]
    return pd.Series(acc, index=pd.Index(ks, name="k"), name="loo_accuracy")


def loo_predictions(D: np.ndarray, y, k: int = 1, *, ties: str = "all") -> np.ndarray:
    """Leave-one-out predicted class indices (in the order of ``encode_labels(y)``) from a square training
    distance matrix; compare with ``encode_labels(y)[0]`` for per-instance correctness."""
    k = check("k", k, Integer(low=1))
    D = np.array(D, dtype=np.float64)
    if D.ndim != 2 or D.shape[0] != D.shape[1] or len(D) < 2:
        raise ValueError(f"D must be the square (n, n) matrix of the training distances, n >= 2, got shape {D.shape}")
    k = check("k", k, Integer(low=1, high=len(D) - 1))  # each instance's neighbours are among the n - 1 others
    codes, classes = encode_labels(y, len(D))
    np.fill_diagonal(D, np.inf)
    return vote(D, codes, k, vote_priority(np.bincount(codes, minlength=len(classes))), ties)


@fill_doc
class DifferenceKNN(ClassifierMixin, BaseEstimator):
    """The k-NN classifier over :func:`combined_distance`, for data with set-valued features.

    Parameters
    ----------
    n_neighbors : int
        The number of neighbours k.
    weighting : {None, "mdw"}
        No weights (the raw sum), or mean difference weights learnt in ``fit`` (:func:`mdw_weights`).
    ties : {"all", "first"}
        The tie rule of :mod:`lazylib.neighbors` (its ``"random"`` rule needs a ``random_state``: use
        :class:`lazylib.neighbors.KNeighborsClassifier` for it).

    Attributes
    ----------
    {{fitted_input}}
    X_ : DataFrame
        The training data (the stored instances).
    types_ : dict or sequence, or None
        The ``types`` given to ``fit``.
    {{fitted_labels}}
    classes_ : ndarray of shape (C,)
        The class labels, in the order of their codes.
    weights_ : DataFrame or None
        The per-class mean difference weights (``weighting="mdw"``), or None.
    priority_ : ndarray of shape (C,)
        Rank of each class in the vote's last resort (:func:`lazylib.voting.vote_priority`).

    Examples
    --------
    >>> X = pd.DataFrame({"s": [np.array([[0.0, 0.0]]), np.array([[0.1, 0.0]]), np.array([[5.0, 5.0]]),
    ...                         np.array([[5.0, 4.0]])]})
    >>> DifferenceKNN(weighting="mdw").fit(X, list("aabb")).predict(X).tolist()
    ['a', 'a', 'b', 'b']
    """

    def __init__(self, n_neighbors: int = 1, weighting: str | None = None, ties: str = "all"):
        self.n_neighbors, self.weighting, self.ties = n_neighbors, weighting, ties

    _parameter_constraints: dict = {
        "n_neighbors": [Integer(low=1)],
        "weighting": [Choice(("mdw",)), None],
        "ties": [Choice(("all", "first"))],
    }
    _validate_params = validate_params

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X: pd.DataFrame, y, *, types=None):
        """Store the training data and learn the weights (``weighting="mdw"``).

        Parameters
        ----------
        X : DataFrame
            Training features (set-valued columns hold ``(members, d)`` arrays).
        {{labels}}
        types : dict or sequence, optional
            Feature kinds, as for :func:`combined_distance`.

        Returns
        -------
        DifferenceKNN
            The fitted estimator itself.
        """
        enc = fit_input(self, X, types, sets=True)  # the schema every query must match
        if self.n_neighbors > len(enc):
            raise ValueError(
                f"n_neighbors={self.n_neighbors} is larger than the training set ({len(enc)} instances, "
                f"n_samples = {len(enc)})"
            )
        self.X_, self.types_ = self._frame(X), enc.kinds
        self.y_, self.classes_ = encode_labels(y, len(enc), column=True)
        self.weights_ = (
            None if self.weighting is None else mdw_weights(X, self.y_, types).set_axis(list(range(len(self.classes_))))
        )
        self.priority_ = vote_priority(np.bincount(self.y_, minlength=len(self.classes_)))
        return self

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True  # an unknown value differs by 0 from anything (feature_difference)
        tags.input_tags.categorical = True  # symbolic features as pandas Categorical columns
        return tags

    def _frame(self, X) -> pd.DataFrame:
        """A DataFrame as it is; an array (numbers only) as a DataFrame with the fitted column names."""
        if isinstance(X, pd.DataFrame):
            return X
        return pd.DataFrame(as_numbers(X), columns=list(self.schema_.columns))

    def predict(self, X: pd.DataFrame) -> np.ndarray:
        """Predicted class labels of the rows of ``X``.

        Parameters
        ----------
        X : DataFrame
            Queries, with the training data's columns.

        Returns
        -------
        ndarray of shape (n,)
            The predicted class label of each query.
        """
        X = check_query(self, X)
        self.schema_.encode_with_sets(X, "X")  # same columns, types, categories and set dimensions as in fit
        X = self._frame(X)
        D = combined_distance(X, self.X_, weights=self.weights_, y_B=self.y_, types=self.types_)
        return self.classes_[vote(D, self.y_, self.n_neighbors, self.priority_, self.ties)]


#: Pixel positions of the Statlog satellite 3 x 3 window (row-major, 0 = top-left, 4 = centre).
EDGE_PIXELS = (1, 3, 5, 7)
CORNER_PIXELS = (0, 2, 6, 8)


def satellite_window_features(X: pd.DataFrame) -> pd.DataFrame:
    """A stand-in for Howe & Cardie's image features, with set-valued features, from the Statlog satellite data.

    Each instance of ``lazylib.datasets.load("satellite")`` is a 3 x 3 window of pixels with 4 spectral bands
    (36 values, pixel by pixel, band within pixel). We describe it by 12 numeric features, the centre pixel's 4
    bands and the window's mean and standard deviation per band, and 3 set features whose members are 4-band
    pixel vectors: the whole window (9 members), the 4 edge neighbours and the 4 corner neighbours. The sets
    forget where each pixel lies, which is what makes them sets.

    Examples
    --------
    >>> X = pd.DataFrame(np.arange(72.0).reshape(2, 36), columns=[f"x{i + 1}" for i in range(36)])
    >>> F = satellite_window_features(X)
    >>> F.shape, F["window"].iloc[0].shape, F["centre_b1"].tolist()
    ((2, 15), (9, 4), [16.0, 52.0])
    """
    if X.shape[1] != 36:
        raise ValueError(f"expected the 36 satellite attributes, got {X.shape[1]}")
    pixels = X.to_numpy(dtype=np.float64).reshape(len(X), 9, 4)
    out = {}
    for b in range(4):
        out[f"centre_b{b + 1}"] = pixels[:, 4, b]
    for b in range(4):
        out[f"mean_b{b + 1}"] = pixels[:, :, b].mean(axis=1)
    for b in range(4):
        out[f"std_b{b + 1}"] = pixels[:, :, b].std(axis=1)
    frame = pd.DataFrame(out)
    frame["window"] = list(pixels)
    frame["edges"] = list(pixels[:, list(EDGE_PIXELS)])
    frame["corners"] = list(pixels[:, list(CORNER_PIXELS)])
    return frame


__all__ = [
    "CORNER_PIXELS",
    "DifferenceKNN",
    "EDGE_PIXELS",
    "satellite_window_features",
    "combined_distance",
    "feature_differences",
    "feature_difference",
    "loo_accuracy",
    "loo_predictions",
    "mdw_loo_distances",
]
