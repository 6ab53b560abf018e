"""WOM attribute weights by the leave-one-out update of Payne & Edwards (1998), Eq. 7."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from lazylib._docs import fill_doc
from lazylib._validation import Choice, Integer, Real, Seed, check, check_random_state
from lazylib.encoding import encode
from lazylib.labels import encode_labels
from lazylib.metrics import WORKING_MEMORY
from lazylib.metrics.overlap import Overlap
from lazylib.search import TIE_RULES, TIE_TOLERANCE, check_ties, tolerance
from lazylib.voting import vote_priority

#: Code standing for an unknown value (compared as one more symbol, as in the overlap metric).
_UNKNOWN = -1.0


@dataclass(frozen=True)
class WOMWeights:
    """Result of :func:`wom_weights`: final ``weights`` (Series by column, mean 1) and their ``history``
    (DataFrame, one row per update, row 0 = the initial weights), plus ``loo_accuracy`` of each pass."""

    weights: pd.Series
    history: pd.DataFrame
    loo_accuracy: list[float]


#: The visiting orders of :func:`wom_weights`.
ORDERS = ("data", "shuffle")

#: :func:`wom_weights` rescales its weights when their mean leaves ``[2**-_DRIFT, 2**_DRIFT]``.
_DRIFT = 32


def _renormalised(w: np.ndarray) -> np.ndarray:
    """``w`` times a power of two bringing its mean back to [1, 2) when the mean has drifted beyond
    ``2**+-_DRIFT``: an exact rescaling (only the exponents change), so long runs neither over- nor underflow
    and the weights of shorter runs are untouched bit for bit."""
    exponent = np.frexp(w.mean())[1] - 1
    return np.ldexp(w, -exponent) if abs(exponent) > _DRIFT else w


def wom_weights(
    X,
    y,
    *,
    mu: float = 0.02,
    n_passes: int = 1,
    order: str = "data",
    ties: str = "all",
    random_state=None,
    types=None,
    tie_tolerance: float = TIE_TOLERANCE,
) -> WOMWeights:
    """Learn WOM's per-attribute weights with Eq. 7 of Payne & Edwards by leave-one-out over the training data.

    All weights start at 1. Each training instance ``i`` in turn is classified by its nearest neighbour among
    the other instances under the current weighted overlap. Then, with ``j`` that neighbour,
    ``w_a <- w_a (1 + mu)`` where ``i_a = j_a`` and ``w_a (1 - mu)`` where ``i_a != j_a`` if the prediction was
    correct, and the opposite (``mu`` negated) if it was wrong: attributes that agree with a correct neighbour
    or disagree with a wrong one gain weight.

    Parameters
    ----------
    mu : float
        The step, 0.02 in the paper.
    n_passes : int
        Passes over the training data (the paper describes one).
    order : {"data", "shuffle"}
        Visit instances in data order, or in a fresh random order each pass (seeded by ``random_state``).
    ties : {"all", "first", "random"}
        How the leave-one-out step settles a tie for the nearest neighbour (see Notes).
    random_state : int, Generator or None
        Seed or generator of the shuffles of ``order="shuffle"`` and of the draws of ``ties="random"``: an int
        seeds a fresh generator (the same draws at every call), a Generator is used as it is (its stream
        continues), None draws fresh entropy.

    Notes
    -----
    Choices the paper leaves open, and ours:

    - *Passes*: one, as the paper describes each instance being evaluated once.
    - *Order*: data order by default; a seeded shuffle is available.
    - *Normalisation*: none is needed for classification, because multiplying every weight by one constant
      multiplies every distance by it and changes no neighbour; reported weights are rescaled to mean 1. So
      that long runs neither over- nor underflow, weights whose mean drifts beyond 2**32 (or below 2**-32) are
      multiplied by the power of two that brings it back to [1, 2), an exact rescaling.
    - *Ties for the nearest neighbour* (``ties``), the rules of :mod:`lazylib.neighbors`: ``"all"`` (default),
      all instances tied at the smallest distance vote and ``j`` is the first tied instance (in data order) of
      the predicted class; ``"first"``, ``j`` is the first tied instance; ``"random"``, ``j`` is drawn
      uniformly among the tied instances. Under the last two, ``j``'s class is the prediction.
    - *Unknown values* are one more symbol, as in the overlap metric.

    References
    ----------
    Payne, T. R. and Edwards, P. (1998), section 3, Eq. 7.

    Examples
    --------
    On LED digits with 10 irrelevant attributes, the seven segments end up with the larger weights:

    >>> from lazylib.synthetic import led
    >>> X, y = led(300, n_irrelevant=10, random_state=0)
    >>> w = wom_weights(X, y).weights
    >>> bool(w.iloc[:7].mean() > w.iloc[7:].mean())
    True
    """
    mu = check("mu", mu, Real(0, 1, open_low=True, open_high=True))
    n_passes = check("n_passes", n_passes, Integer(low=1))
    order = check("order", order, Choice(ORDERS))
    tie_tolerance = check("tie_tolerance", tie_tolerance, Real(0, 1, open_high=True))
    ties = check_ties(ties)
    enc = encode(X, types)
    Z = np.where(np.isnan(enc.values), _UNKNOWN, enc.values)
    labels, _ = encode_labels(y, len(Z))
    n, m = Z.shape
    if n < 2:
        raise ValueError("leave-one-out needs at least two training instances")
    counts = np.bincount(labels)
    C = len(counts)
    priority = vote_priority(counts)
    rng = check_random_state(random_state)
    w = np.ones(m)
    history = np.empty((n_passes * n + 1, m))
    history[0] = w
    step_no = 0
    accuracy = []
    for _ in range(n_passes):
        visit = rng.permutation(n) if order == "shuffle" else np.arange(n)
        correct_count = 0
        for i in visit:
            differs = Z != Z[i]
            d = differs @ w
            d[i] = np.inf
            nearest = np.flatnonzero(d <= d.min() + tolerance(d.min(), tie_tolerance, floor=1.0))
            if len(nearest) == 1 or ties != "all":
                j = nearest[0] if len(nearest) == 1 or ties == "first" else nearest[rng.integers(len(nearest))]
                predicted = labels[j]
            else:
                votes = np.bincount(labels[nearest], minlength=C) + priority
                predicted = int(np.argmax(votes))
                j = nearest[labels[nearest] == predicted][0]
            correct = predicted == labels[i]
            correct_count += correct
            step = mu if correct else -mu  # Eq. 7: w_a (1 + mu) where i_a = j_a, w_a (1 - mu) where they differ
            w = w * np.where(differs[j], 1.0 - step, 1.0 + step)
            w = _renormalised(w)
            step_no += 1
            history[step_no] = w
        accuracy.append(correct_count / n)
    hist = history / history.mean(axis=1, keepdims=True)
    columns = list(enc.columns)
    return WOMWeights(pd.Series(hist[-1], index=columns, name="weight"), pd.DataFrame(hist, columns=columns), accuracy)


@fill_doc
class LearnedWOM(Overlap):
    """WOM as one metric: ``fit`` learns the attribute weights with :func:`wom_weights` on the training data,
    then measures the weighted overlap ``sum_a w_a overlap(i_a, j_a)``.

    Parameters are those of :func:`wom_weights`; the learnt result is in ``learned_``.

    Parameters
    ----------
    mu : float
        As for :func:`wom_weights`.
    n_passes : int
        As for :func:`wom_weights`.
    order : {"data", "shuffle"}
        As for :func:`wom_weights`.
    ties : {"all", "first", "random"}
        As for :func:`wom_weights`: the tie rule of the weight learning's own leave-one-out steps.
    random_state : int, Generator or None
        Seed or generator of the shuffles of ``order="shuffle"`` and of the draws of ``ties="random"``: an int
        seeds a fresh generator (the same draws at every call), a Generator is used as it is (its stream
        continues), None draws fresh entropy.
    working_memory : float
        Bound, in MiB, on the temporaries of one chunk (as for :class:`lazylib.metrics.Metric`).

    Attributes
    ----------
    learned_ : WOMWeights
        The result of :func:`wom_weights`; its ``weights`` become ``weights_``.

    Examples
    --------
    >>> from lazylib.synthetic import led
    >>> X, y = led(100, n_irrelevant=3, random_state=0)
    >>> m = LearnedWOM().fit(X, y)
    >>> m.pairwise(X.iloc[:1]).shape
    (1, 100)
    """

    needs_labels = True

    def __init__(
        self,
        *,
        mu: float = 0.02,
        n_passes: int = 1,
        order: str = "data",
        ties: str = "all",
        random_state=None,
        working_memory: float = WORKING_MEMORY,
    ):
        super().__init__(missing="value", working_memory=working_memory)
        self.mu, self.n_passes, self.order, self.ties, self.random_state = mu, n_passes, order, ties, random_state

    _parameter_constraints: dict = {
        "mu": [Real(0, 1, open_low=True, open_high=True)],
        "n_passes": [Integer(low=1)],
        "order": [Choice(ORDERS)],
        "ties": [Choice(TIE_RULES)],
        "random_state": [Seed()],
        "working_memory": [Real(0, open_low=True)],
    }

    def fit(self, X, y=None, *, types=None):
        """Learn the weights with :func:`wom_weights` on ``X, y``, then fit the weighted overlap on them.

        Parameters
        ----------
        {{fit_X}}
        {{labels}}
        types : sequence or dict, optional
            Attribute types, required when ``X`` is an array (see :func:`lazylib.metrics.encode`).

        Returns
        -------
        LearnedWOM
            The fitted estimator itself.
        """
        self._validate_params()
        self.learned_ = wom_weights(
            X,
            y,
            mu=self.mu,
            n_passes=self.n_passes,
            order=self.order,
            ties=self.ties,
            random_state=self.random_state,
            types=types,
        )
        super().fit(X, y, types=types)
        self.weights_ = self.learned_.weights.to_numpy()
        return self
