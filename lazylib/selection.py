"""Attribute selection for nearest-neighbour learning, the two rivals of CA and CACP in Payne & Edwards (2000,
section 4): a Monte-Carlo wrapper (MC) and a C4.5 filter (FNN).

Both choose attributes on the training part of a fold only; a Euclidean 1-NN classifier then uses the chosen
attributes (:func:`lazylib.protocols.payne2000.cv_nn`). The wrapper's leave-one-out 1-NN accuracy of a subset is a
sum over its attributes of per-attribute squared differences: those are computed once per fold, and many subsets are
scored by one matrix product (:func:`loo_subset_accuracy`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from lazylib._validation import Choice, Integer, check, check_random_state
from lazylib.encoding import encode_labels, fit_input, query_input
from lazylib.search import TIE_RULES, TIE_TOLERANCE, tolerance
from lazylib.subspace import fit_numeric, numeric_matrix, query_numeric
from lazylib.voting import correct, vote_priority

#: Float64 numbers of the (pairs x subsets) distance block computed at once.
CHUNK_ELEMENTS = 1 << 22


def loo_subset_accuracy(X, y, masks, *, ties: str = "all", tie_tolerance: float = TIE_TOLERANCE) -> np.ndarray:
    """Leave-one-out Euclidean 1-NN accuracy on ``X`` using each attribute subset (rows of boolean ``masks``).

    Each instance is classified by all others with Euclidean 1-NN under the tie rule ``ties`` (see
    :func:`lazylib.subspace.correct_by_width`; ``"random"`` gives the expected accuracy). The squared
    difference of every pair on every attribute is computed once; a subset's squared distances are their sum
    over its attributes, a matrix product shared by a block of subsets.

    Parameters
    ----------
    X : ndarray (n, J), complete (impute first)
    y : class indices (n,)
    masks : bool ndarray (S, J)

    Returns
    -------
    ndarray (S,) of accuracies (fractions).

    Examples
    --------
    >>> X = np.array([[0.0, 5.0], [0.1, 0.0], [1.0, 5.1], [1.1, 0.1]])
    >>> loo_subset_accuracy(X, np.array([0, 0, 1, 1]), np.array([[True, False], [False, True]])).tolist()
    [1.0, 0.0]
    """
    check("ties", ties, Choice(TIE_RULES))
    X = numeric_matrix(X)
    y = np.asarray(y, dtype=np.intp)
    masks = np.atleast_2d(np.asarray(masks, dtype=bool))
    n, J = X.shape
    if masks.shape[1] != J:
        raise ValueError(f"masks have {masks.shape[1]} columns for {J} attributes")
    C = int(y.max()) + 1
    priority = vote_priority(np.bincount(y, minlength=C))
    order = np.argsort(y, kind="stable")  # stored instances grouped by class: one slice per class
    X, y = X[order], y[order]
    bounds = np.searchsorted(y, np.arange(C + 1))
    diff = X[:, None, :] - X[None, :, :]
    T = np.ascontiguousarray((diff * diff).reshape(n * n, J).T)  # (J, pairs)
    del diff
    diag = np.arange(n)
    out = np.empty(len(masks))
    step = max(1, CHUNK_ELEMENTS // (n * n))
    for start in range(0, len(masks), step):
        M = masks[start : start + step]
        D = (M.astype(float) @ T).reshape(len(M), n, n)  # D[subset, query, stored]
        D[:, diag, diag] = np.inf
        # nearest distance to each class; the nearest class wins unless several classes tie at the minimum
        near = np.stack(
            [
                D[:, :, bounds[c] : bounds[c + 1]].min(axis=2)
                if bounds[c + 1] > bounds[c]
                else np.full((len(M), n), np.inf)
                for c in range(C)
            ]
        )  # (C, subsets, n)
        dmin = near.min(axis=0)
        tied_classes = near <= dmin + tolerance(dmin, tie_tolerance)
        right = (np.argmax(tied_classes, axis=0) == y[None, :]).astype(float)
        several = np.nonzero(tied_classes.sum(axis=0) > 1)
        if len(several[0]):  # several classes tie at the nearest distance (rare): apply the tie rule
            s, q = several
            back = np.argsort(order)  # the stored instances in their own order again (the "first" rule's order)
            right[s, q] = correct(D[s, q, :][:, back], y[back], y[q], 1, priority, ties, tie_tolerance)
        out[start : start + step] = right.mean(axis=1)
    return out


def random_subsets(n_attributes: int, n_subsets: int, rng) -> np.ndarray:
    """The candidate subsets of the MC wrapper: the full set first, then distinct random non-empty subsets
    (each attribute in with probability 1/2), ``n_subsets`` in all; every non-empty subset when there are no
    more than ``n_subsets`` of them. Boolean array (S, J)."""
    J = n_attributes
    if 2**J - 1 <= n_subsets:
        codes = np.arange(2**J - 1, 0, -1)  # the full set first
        return (codes[:, None] >> np.arange(J)[::-1]) & 1 == 1
    rows = [np.ones(J, bool)]
    seen = {rows[0].tobytes()}
    while len(rows) < n_subsets:
        for row in rng.random((2 * n_subsets, J)) < 0.5:
            if row.any() and row.tobytes() not in seen:
                seen.add(row.tobytes())
                rows.append(row)
                if len(rows) == n_subsets:
                    break
    return np.array(rows)


class MonteCarloSelector(TransformerMixin, BaseEstimator):
    """The MC wrapper: score random attribute subsets by leave-one-out 1-NN accuracy on the training data and
    keep the best (Payne & Edwards 2000, section 4, after the Monte-Carlo search of Liu & Setiono 1996).

    Parameters
    ----------
    n_subsets : int
        The budget: how many subsets are scored (the full set included).
    random_state : int, Generator or None
        Seed or generator of the subsets: an int seeds a fresh generator (the same draws at every call), a Generator is
        used as it is (its stream continues), None draws fresh entropy.
    ties : {"all", "first", "random"}
        The 1-NN tie rule of the leave-one-out evaluation (:func:`lazylib.subspace.correct_by_width`).

    Attributes
    ----------
    n_features_in_ : int
        Number of attributes seen in ``fit``.
    feature_names_in_ : ndarray of str
        The column names, when ``fit`` was given a DataFrame (scikit-learn's attribute; absent otherwise).
    schema_ : lazylib.encoding.Schema
        The fitted columns, types and category lists, applied to every query (:func:`lazylib.encoding.query_input`).
    support_ : bool ndarray (J,)
        The chosen attributes.
    score_ : float
        Their leave-one-out accuracy.
    subsets_ : bool ndarray (n_subsets, J)
        The candidate subsets, in the order drawn.
    scores_ : ndarray (n_subsets,)
        Their leave-one-out accuracies.

    Notes
    -----
    The paper names the search but not its budget, its sampling distribution, nor its tie rule. We score the
    full set and ``n_subsets - 1`` distinct random subsets drawn uniformly among all non-empty subsets (each
    attribute in with probability 1/2), or every subset when there are at most ``n_subsets``; the highest
    accuracy wins, ties going to the fewest attributes, then to the earliest drawn.

    References
    ----------
    Payne, T. R. and Edwards, P. (2000), section 4. Liu, H. and Setiono, R. (1996). A probabilistic approach to
    feature selection: a filter solution. ICML 1996.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> y = np.repeat([0, 1], 20)
    >>> X = np.column_stack([y + 0.1 * rng.random(40), rng.random(40), rng.random(40)])
    >>> MonteCarloSelector(n_subsets=10, random_state=0).fit(X, y).support_.tolist()
    [True, False, False]
    """

    def __init__(self, n_subsets: int = 100, random_state=None, ties: str = "all"):
        self.n_subsets = n_subsets
        self.random_state = random_state
        self.ties = ties

    def fit(self, X, y):
        """Score the random subsets on training data ``X, y`` and keep the best (``support_``).

        Parameters
        ----------
        X : DataFrame or array of shape (n, J)
            Numeric training attributes (no missing values).
        y : array-like of shape (n,)
            Class labels.

        Returns
        -------
        MonteCarloSelector
            The fitted estimator itself.
        """
        n_subsets = check("n_subsets", self.n_subsets, Integer(low=1))
        X = fit_numeric(self, X)
        codes, _ = encode_labels(y, len(X), column=True)
        rng = check_random_state(self.random_state)
        self.subsets_ = random_subsets(X.shape[1], n_subsets, rng)
        self.scores_ = loo_subset_accuracy(X, codes, self.subsets_, ties=self.ties)
        size = self.subsets_.sum(axis=1)
        best = np.lexsort((np.arange(len(size)), size, -self.scores_))[0]
        self.support_ = self.subsets_[best].copy()
        self.score_ = float(self.scores_[best])
        return self

    def transform(self, X) -> np.ndarray:
        """The chosen attributes of ``X`` (its columns where ``support_``).

        Parameters
        ----------
        X : DataFrame or array of shape (n, J)
            Numeric attributes.

        Returns
        -------
        ndarray of shape (n, ``support_``.sum())
            The chosen columns.
        """
        check_is_fitted(self)
        return query_numeric(self, X)[:, self.support_]


class FNNSelector(TransformerMixin, BaseEstimator):
    """FNN's filter as a transformer: keep the attributes the pruned C4.5 tree grown on the training data tests
    (Payne & Edwards 2000, section 4, after Cardie 1993); a Euclidean 1-NN then uses them.

    Parameters
    ----------
    tree_params : dict, optional
        Parameters of the :class:`lazylib.trees.C45Classifier` (its defaults: release 8 with pruning).

    Attributes
    ----------
    n_features_in_ : int
        Number of attributes seen in ``fit``.
    feature_names_in_ : ndarray of str
        The column names, when ``fit`` was given a DataFrame (scikit-learn's attribute; absent otherwise).
    schema_ : lazylib.encoding.Schema
        The fitted columns, types and category lists, applied to every query (:func:`lazylib.encoding.query_input`).
    tree_ : C45Classifier
        The fitted tree.
    support_ : bool ndarray (m,)
        The attributes the tree tests (none when the pruned tree is a single leaf).

    Examples
    --------
    >>> from lazylib.datasets import load
    >>> iris = load("iris")
    >>> FNNSelector().fit(iris.X, iris.y).support_.tolist()
    [False, False, True, True]
    """

    def __init__(self, tree_params: dict | None = None):
        self.tree_params = tree_params

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True  # C4.5 sends an unknown value down every branch
        tags.input_tags.categorical = True
        return tags

    def fit(self, X, y, *, types=None):
        """Grow and prune the tree on ``X, y`` and keep the attributes it tests.

        Parameters
        ----------
        X : DataFrame or array of shape (n, m)
            Training attributes (nominal as Categorical columns, or codes with ``types``; NaN unknown).
        y : array-like of shape (n,)
            Class labels.
        types : sequence or dict, optional
            Attribute types of an array (default: every column continuous).

        Returns
        -------
        FNNSelector
            The fitted selector itself.
        """
        from lazylib.trees import C45Classifier

        enc = fit_input(self, X, types)
        self.tree_ = C45Classifier(**(self.tree_params or {})).fit(X, y, types=types)
        used = set(self.tree_.used_attributes_)
        self.support_ = np.array([c in used for c in enc.columns])
        return self

    def transform(self, X) -> np.ndarray:
        """The chosen attributes of ``X`` (encoded as in ``fit``: nominal values as codes).

        Parameters
        ----------
        X : DataFrame or array of shape (n, m)
            Attributes with the columns of the training data.

        Returns
        -------
        ndarray of shape (n, ``support_``.sum())
            The chosen columns.
        """
        return query_input(self, X)[:, self.support_]


def c45_attributes(X: pd.DataFrame, y, *, types=None, **params) -> np.ndarray:
    """FNN's filter: the attributes used by the C4.5 tree grown (and pruned) on ``X, y``, as a boolean mask
    over ``X``'s columns (Payne & Edwards 2000, section 4, after Cardie 1993); :class:`FNNSelector`'s
    ``support_``."""
    return FNNSelector(params).fit(X, y, types=types).support_
