"""Attribute selection for nearest-neighbour learning, the two rivals of CA and CACP in Payne & Edwards (2000,
section 4): a Monte-Carlo wrapper (MC) and a C4.5 filter (FNN).

Both choose attributes on the training part of a fold only; a Euclidean 1-NN classifier then uses the chosen
attributes (:func:`lazylib.protocols.payne2000.protocol.cv_nn`). The wrapper's leave-one-out 1-NN accuracy of a subset
is a
sum over its attributes of per-attribute squared differences: those are computed once per block of queries, and many
subsets are scored by one matrix product (:func:`loo_subset_accuracy`), within ``working_memory``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, TransformerMixin, _fit_context
from sklearn.utils.validation import check_is_fitted

from lazylib._docs import fill_doc
from lazylib._validation import (
    Choice,
    Integer,
    Real,
    Seed,
    check,
    check_class_indices,
    check_random_state,
    check_working_memory,
    validate_params,
)
from lazylib.encoding import fit_input, query_input
from lazylib.labels import encode_labels
from lazylib.metrics import WORKING_MEMORY
from lazylib.search import TIE_RULES, TIE_TOLERANCE, tolerance
from lazylib.subspace import fit_numeric, in_safe_units, numeric_matrix, query_numeric
from lazylib.voting import tied_vote, vote_priority

#: Bytes counted per candidate subset by :func:`random_subsets`: its row of J booleans, its score, and its key in the
#: set of those already drawn (a bytes object of J bytes and its slot, about 100 bytes).
SUBSET_OVERHEAD = 100


#: Bytes of one block's distances and squared differences, kept within the processor's cache (and within
#: ``working_memory`` when that is smaller): the product writes the block's distances and the per-class minima read
#: them back at once. On the 2-core development machine (1 MiB of L2 cache per core, 32 MiB of L3 shared), one
#: fold of MC (100 subsets) took 2.6 s with blocks of 8 MiB against 4.6 s with blocks of 64 MiB on 5,000 of
#: shuttle's rows, 1.2 against 2.4 s on breast-cancer-wisconsin's 20 folds (the same accuracies; 16 MiB as fast,
#: 1 and 32 MiB slower).
CACHE_BLOCK_BYTES = 2**23


def _block_sizes(n: int, J: int, S: int, max_bytes: float) -> tuple[int, int]:
    """(subsets, queries) per block so that one block's temporaries stay within ``max_bytes`` (and within
    :data:`CACHE_BLOCK_BYTES`): per query row, its squared differences to every stored row on every attribute
    (J n floats) and the distances under a block of subsets (S n floats, and as much again for the rows the
    tie rule reads). Never below one of each."""
    limit = min(max_bytes, CACHE_BLOCK_BYTES)
    subsets = S
    while subsets > 1 and (J + 2 * subsets) * n * 8 > limit:
        subsets = (subsets + 1) // 2
    return subsets, max(1, int(limit // ((J + 2 * subsets) * n * 8)))


def _loo_blocks(X, y, masks, ties, tie_tolerance, max_bytes):
    """The work of :func:`loo_subset_accuracy`, one block of subsets and queries at a time: yields
    ``(subset slice, query indices, correctness (subsets, queries))``, the queries indexed in class order."""
    n, J = X.shape
    C = int(y.max()) + 1
    priority = vote_priority(np.bincount(y, minlength=C))
    order = np.argsort(y, kind="stable")  # stored instances grouped by class: one slice per class
    X, y = X[order], y[order]
    bounds = np.searchsorted(y, np.arange(C + 1))
    step_s, step_q = _block_sizes(n, J, len(masks), max_bytes)
    floats = masks.astype(float)
    columns = np.ascontiguousarray(X.T)  # (J, n): one attribute a row
    for q0 in range(0, n, step_q):
        q = np.arange(q0, min(q0 + step_q, n))
        T = np.empty((J, len(q), n))  # T[attribute, query, stored]: squared differences of the block's pairs
        np.subtract(columns[:, q, None], columns[:, None, :], out=T)
        np.multiply(T, T, out=T)
        T = T.reshape(J, len(q) * n)
        for s0 in range(0, len(masks), step_s):
            M = floats[s0 : s0 + step_s]
            D = (M @ T).reshape(len(M), len(q), n)  # D[subset, query, stored]
            D[:, np.arange(len(q)), q] = np.inf
            yield slice(s0, s0 + len(M)), q, _block_correct(D, y, q, bounds, order, priority, ties, tie_tolerance)
            del D
        del T  # before the next block's table is allocated


def _block_correct(D, y, q, bounds, order, priority, ties, tie_tolerance) -> np.ndarray:
    """Whether the 1-NN vote of each query ``q`` (indices of the class-sorted rows) is right under each subset of
    ``D``: (subsets, queries), fractions under the "random" rule. ``order[p]``: the stored instance's own index
    of class-sorted row ``p`` (the "first" rule's order)."""
    # nearest distance to each class (one reduction over the class-sorted columns; an empty class at infinity);
    # the nearest class wins unless several classes tie at the minimum
    near = np.minimum.reduceat(D, bounds[:-1], axis=2)  # (subsets, queries, C)
    empty = bounds[1:] == bounds[:-1]
    if empty.any():
        near[:, :, empty] = np.inf
    dmin = near.min(axis=2)
    limit = dmin + tolerance(dmin, tie_tolerance)
    tied_classes = near <= limit[:, :, None]
    right = (np.argmax(tied_classes, axis=2) == y[q][None, :]).astype(float)
    several = np.nonzero(tied_classes.sum(axis=2) > 1)
    if len(several[0]):  # several classes tie at the nearest distance (rare): apply the tie rule
        s, i = several
        right[s, i] = tied_vote(D[s, i, :] <= limit[s, i][:, None], y, y[q[i]], priority, ties, order)
    return right


def loo_subset_accuracy(
    X,
    y,
    masks,
    *,
    ties: str = "all",
    tie_tolerance: float = TIE_TOLERANCE,
    working_memory: float = WORKING_MEMORY,
) -> np.ndarray:
    """Leave-one-out Euclidean 1-NN accuracy on ``X`` using each attribute subset (rows of boolean ``masks``).

    Each instance is classified by all others with Euclidean 1-NN under the tie rule ``ties`` (see
    :func:`lazylib.subspace.correct_by_width`; ``"random"`` gives the expected accuracy). For a block of queries,
    the squared difference to every stored instance on every attribute is computed once; a subset's squared
    distances are their sum over its attributes, a matrix product shared by a block of subsets. The blocks are
    sized so that their temporaries stay within ``working_memory`` MiB (one query and one subset at the least):
    the n x n x J table of every pair is never held, and the accuracies do not depend on the block sizes. Under
    the "random" rule the expected correctness of every query is kept (S x n floats) and averaged at the end, as
    the whole-table computation did; under "all" and "first" only the counts are.

    Parameters
    ----------
    X : ndarray (n, J), complete (impute first)
    y : class indices (n,)
    masks : bool ndarray (S, J)
    ties : {"all", "first", "random"}
    tie_tolerance : float
    working_memory : float
        MiB of the temporaries of one block (:data:`lazylib.metrics.WORKING_MEMORY` by default).

    Returns
    -------
    ndarray (S,) of accuracies (fractions).

    Examples
    --------
    >>> X = np.array([[0.0, 5.0], [0.1, 0.0], [1.0, 5.1], [1.1, 0.1]])
    >>> loo_subset_accuracy(X, np.array([0, 0, 1, 1]), np.array([[True, False], [False, True]])).tolist()
    [1.0, 0.0]
    """
    tie_tolerance = check("tie_tolerance", tie_tolerance, Real(0, 1, open_high=True))
    check("ties", ties, Choice(TIE_RULES))
    max_bytes = check_working_memory(working_memory) * 2**20
    (X,), _ = in_safe_units(numeric_matrix(X))  # squared differences neither under- nor overflow at any scale
    y = check_class_indices("y", y)
    masks = np.atleast_2d(np.asarray(masks))
    if masks.dtype != bool and not np.isin(masks, (0, 1)).all():
        raise ValueError(
            "masks must be boolean rows (one True or False per attribute), got values "
            f"{np.unique(masks)[:5].tolist()}: an index list such as [0, 2] is not a mask"
        )
    masks = masks.astype(bool)
    n, J = X.shape
    if len(y) != n:
        raise ValueError(f"y must hold one class index per row of X ({n}), got {len(y)}")
    if masks.shape[1] != J:
        raise ValueError(f"masks have {masks.shape[1]} columns for {J} attributes")
    if ties == "random":  # fractions: kept per query, averaged in class order as before
        right = np.zeros((len(masks), n))
        for block, q, hits in _loo_blocks(X, y, masks, ties, tie_tolerance, max_bytes):
            right[block, q] = hits
        return right.mean(axis=1)
    counts = np.zeros(len(masks))  # whole numbers: their sum is exact in any order
    for block, _, hits in _loo_blocks(X, y, masks, ties, tie_tolerance, max_bytes):
        counts[block] += hits.sum(axis=1)
    return counts / n


def random_subsets(n_attributes: int, n_subsets: int, rng, *, working_memory: float = WORKING_MEMORY) -> np.ndarray:
    """The candidate subsets of the MC wrapper: the full set first, then distinct random non-empty subsets
    (each attribute in with probability 1/2), ``n_subsets`` in all; every non-empty subset when there are no
    more than ``n_subsets`` of them. Boolean array (S, J).

    The subsets, their scores and the record of those drawn must fit in ``working_memory`` MiB (about
    ``2 J + 100`` bytes a subset, :data:`SUBSET_OVERHEAD`): a larger request is refused with a ValueError
    before anything is allocated; the random draws are made in blocks within the same bound.

    >>> random_subsets(3, 10, np.random.default_rng(0)).sum(axis=1).tolist()
    [3, 2, 2, 1, 2, 1, 1]
    """
    J = check("n_attributes", n_attributes, Integer(low=1))
    n_subsets = check("n_subsets", n_subsets, Integer(low=1))
    max_bytes = check_working_memory(working_memory) * 2**20
    S = min(n_subsets, 2**J - 1)
    if S * (2 * J + SUBSET_OVERHEAD) > max_bytes:
        raise ValueError(
            f"n_subsets={n_subsets} of {J} attributes need about {S * (2 * J + SUBSET_OVERHEAD) / 2**20:.0f} MiB, "
            f"more than working_memory={working_memory} MiB: ask for fewer subsets or more working memory"
        )
    if 2**J - 1 <= n_subsets:
        codes = np.arange(2**J - 1, 0, -1)  # the full set first
        return (codes[:, None] >> np.arange(J)[::-1]) & 1 == 1
    seen = {np.ones(J, bool).tobytes(): None}  # the subsets drawn, in order (a dict keeps insertion order)
    batch = max(1, int(max_bytes // (9 * J)))  # rows of random doubles (and their booleans) drawn at once
    while len(seen) < n_subsets:
        left = 2 * n_subsets  # rows drawn per pass (all of them, used or not, so the generator's stream is fixed)
        while left:
            block = rng.random((min(left, batch), J)) < 0.5
            left -= len(block)
            for row in block:
                if len(seen) == n_subsets:
                    break
                if row.any():
                    seen.setdefault(row.tobytes(), None)
    return np.frombuffer(b"".join(seen), dtype=bool).reshape(-1, J).copy()


@fill_doc
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
    working_memory : float
        MiB of the temporaries of the leave-one-out scoring and of the candidate subsets
        (:func:`loo_subset_accuracy`, :func:`random_subsets`); the choice does not depend on it.

    Attributes
    ----------
    {{fitted_input}}
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

    def __init__(
        self, n_subsets: int = 100, random_state=None, ties: str = "all", working_memory: float = WORKING_MEMORY
    ):
        self.n_subsets = n_subsets
        self.random_state = random_state
        self.ties = ties
        self.working_memory = working_memory

    _parameter_constraints: dict = {
        "n_subsets": [Integer(low=1)],
        "random_state": [Seed()],
        "ties": [Choice(TIE_RULES)],
        "working_memory": [Real(0, open_low=True)],
    }
    _validate_params = validate_params

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Score the random subsets on training data ``X, y`` and keep the best (``support_``).

        Parameters
        ----------
        {{fit_numeric}}
        {{labels}}

        Returns
        -------
        MonteCarloSelector
            The fitted estimator itself.
        """
        n_subsets = int(self.n_subsets)
        X = fit_numeric(self, X)
        codes, _ = encode_labels(y, len(X), column=True)
        rng = check_random_state(self.random_state)
        memory = check_working_memory(self.working_memory)
        self.subsets_ = random_subsets(X.shape[1], n_subsets, rng, working_memory=memory)
        self.scores_ = loo_subset_accuracy(X, codes, self.subsets_, ties=self.ties, working_memory=memory)
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


@fill_doc
class FNNSelector(TransformerMixin, BaseEstimator):
    """FNN's filter as a transformer: keep the attributes the pruned C4.5 tree grown on the training data tests
    (Payne & Edwards 2000, section 4, after Cardie 1993); a Euclidean 1-NN then uses them.

    Parameters
    ----------
    tree_params : dict, optional
        Parameters of the :class:`lazylib.trees.C45Classifier` (its defaults: release 8 with pruning).

    Attributes
    ----------
    {{fitted_input}}
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

    _parameter_constraints: dict = {"tree_params": [dict, None]}  # the tree checks its own parameters
    _validate_params = validate_params

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True  # C4.5 sends an unknown value down every branch
        tags.input_tags.categorical = True
        return tags

    def fit(self, X, y, *, types=None):
        """Grow and prune the tree on ``X, y`` and keep the attributes it tests.

        Parameters
        ----------
        {{fit_X}}
        {{labels}}
        {{fit_types}}

        Returns
        -------
        FNNSelector
            The fitted selector itself.
        """
        from lazylib.trees import C45Classifier

        self._validate_params()
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
