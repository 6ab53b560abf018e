"""C4.5 decision trees (Quinlan 1993), with release 8's treatment of continuous attributes (Quinlan 1996).

A tree is grown by divide and conquer: at every node each attribute proposes one test (a branch per value of a
nominal attribute, a binary threshold on a continuous one), the test with the highest *gain ratio* among those
whose information gain reaches the average gain of all proposed tests is installed, and the cases are
partitioned among its branches. Cases whose tested value is unknown go down every branch with a fraction of
their weight. The grown tree is then pruned bottom-up by comparing pessimistic (upper confidence limit) error
estimates of each subtree, of a leaf, and of the subtree's largest branch.

The evaluation of every threshold of every continuous attribute at a node is vectorised: the node's values of
all continuous attributes are sorted once (one ``argsort`` of an n x k matrix), cumulative class weights give
the class distribution on either side of every cut, and entropies of all cuts come out of array arithmetic. No
Python loop runs over instances; loops run over nodes, branches and nominal attributes only.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import special, stats
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted

from lazylib._validation import Boolean, Choice, Real, check, validate_params
from lazylib.encoding import NOMINAL, Encoded, encode_labels, fit_input, query_input

#: C4.5's tolerance in comparisons of gains, split information and error counts (``Epsilon`` of the program).
EPSILON = 1e-3

#: Tolerance on comparisons of (possibly fractional) case weights with the minimum branch size.
TINY = 1e-9

#: Gains (of cuts) and gain ratios (of attributes) within this many bits of the best count as tied; a tie goes
#: to the first cut (lowest threshold) or the first attribute (column order). Weka's J48 compares them with the
#: same tolerance; without one, symmetric attributes (e.g. the left and right weights of balance-scale) are
#: told apart by the last bit of a sum.
GAIN_TIE = 1e-6

#: Release 8's cap on the minimum size of each side of a continuous threshold (see :class:`C45Classifier`).
MAX_MIN_SPLIT = 25.0

UPPER_LIMITS = ("c45", "normal", "exact")

# Release 8 obtains the normal deviate of a confidence level by linear interpolation in this table of one-tailed
# probabilities and standard normal deviates (its values are the standard normal quantiles, rounded).
_TAIL = np.array([0.0, 0.001, 0.005, 0.01, 0.05, 0.10, 0.20, 0.40, 1.00])
_DEVIATE = np.array([4.0, 3.09, 2.58, 2.33, 1.65, 1.28, 0.84, 0.25, 0.00])

_LN2 = np.log(2.0)


def _total_info(freq: np.ndarray) -> np.ndarray:
    """``S log2 S - sum_i f_i log2 f_i`` over the last axis (``S = sum_i f_i``): the weight times the entropy
    (bits) of the distribution ``freq``, with ``0 log 0 = 0``."""
    freq = np.maximum(freq, 0.0)
    total = freq.sum(axis=-1)
    return (special.xlogy(total, total) - special.xlogy(freq, freq).sum(axis=-1)) / _LN2


def entropy(freq) -> float:
    """Information (bits) of a class distribution, ``-sum_c p_c log2 p_c`` (Quinlan 1993, section 2.2).

    Examples
    --------
    >>> round(entropy([9, 5]), 3)
    0.94
    """
    try:
        freq = np.asarray(freq, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"freq must hold class frequencies (numbers), got {freq!r}") from None
    if freq.ndim != 1 or not np.isfinite(freq).all() or (freq < 0).any() or not (freq > 0).any():
        raise ValueError(
            f"freq must be a 1-D array of finite non-negative class frequencies with a positive "
            f"total, got {freq.tolist()!r:.80}"
        )
    freq = freq / freq.max()  # scale-free: counts near the float range neither overflow nor give NaN
    return float(_total_info(freq) / freq.sum())


def normal_deviate(confidence: float) -> float:
    """The normal deviate release 8 of C4.5 uses for a confidence level: linear interpolation between the
    rounded standard normal quantiles of its table (0.6925 for ``confidence=0.25``, where the exact quantile is
    0.6745)."""
    confidence = check("confidence", confidence, Real(low=0, high=1, open_low=True, open_high=True))
    i = int(np.searchsorted(_TAIL, confidence, side="left"))
    i = min(max(i, 1), len(_TAIL) - 1)
    lo, hi = _TAIL[i - 1], _TAIL[i]
    return float(_DEVIATE[i - 1] + (_DEVIATE[i] - _DEVIATE[i - 1]) * (confidence - lo) / (hi - lo))


def extra_errors(n: float, e: float, confidence: float = 0.25, method: str = "c45") -> float:
    """Pessimistic extra errors of a leaf holding ``n`` cases of which ``e`` are misclassified:
    ``n U_CF(e, n) - e``, with ``U_CF`` the upper limit of the binomial error rate at confidence ``CF``
    (Quinlan 1993, section 4.2).

    Parameters
    ----------
    n, e : float
        Weight of the cases at the leaf and of those not of the leaf's class (fractional with missing values).
    confidence : float
        The confidence factor ``CF`` in (0, 1).
    method : {"c45", "normal", "exact"}
        ``"exact"``: ``U_CF`` solves ``P(X <= e) = CF`` for ``X ~ Binomial(n, U)``, i.e. the ``1 - CF``
        quantile of ``Beta(e + 1, n - e)`` (Clopper-Pearson, continuous in fractional ``e`` and ``n``).
        ``"c45"``: the approximation the C4.5 program computes: for ``e = 0`` the exact ``1 - CF^(1/n)``; for
        ``0 < e < 1`` linear interpolation between ``e = 0`` and ``e = 1``; for ``e + 0.5 >= n`` the constant
        ``0.67 (n - e)`` extra errors; otherwise the upper Wilson score limit with continuity correction 0.5,
        ``(e + 0.5 + z^2/2 + z sqrt((e + 0.5)(1 - (e + 0.5)/n) + z^2/4)) / (n + z^2)``, with ``z`` from
        :func:`normal_deviate`. ``"normal"``: the same with ``z`` the exact standard normal quantile
        ``Phi^-1(1 - CF)`` (0.6745 at ``CF = 0.25``), which is what Weka's J48 uses.

    References
    ----------
    Quinlan, J. R. (1993), *C4.5: Programs for Machine Learning*, section 4.2 (bib key ``quinlan1993``).

    Examples
    --------
    Quinlan's worked example (section 4.2): the upper limits for leaves of 6, 9 and 1 cases with no error, and
    for one leaf of 16 cases with one error.

    >>> [round((extra_errors(n, e) + e) / n, 3) for n, e in [(6, 0), (9, 0), (1, 0), (16, 1)]]
    [0.206, 0.143, 0.75, 0.157]
    """
    n, e = check("n", n, Real(low=0)), check("e", e, Real())
    if e < -TINY:
        raise ValueError(f"e must be a non-negative number of errors, got {e}")
    if e > n + TINY * max(1.0, n):
        raise ValueError(f"e must be at most n (the errors are among the leaf's cases), got e = {e} for n = {n}")
    e = max(e, 0.0)
    confidence = check("confidence", confidence, Real(low=0, high=1, open_low=True, open_high=True))
    method = check("method", method, Choice(UPPER_LIMITS))
    return _extra_errors(n, e, confidence, method)


def _extra_errors(n: float, e: float, confidence: float, method: str) -> float:
    """:func:`extra_errors` on checked arguments (its interpolation below one error asks for ``e = 1`` also
    where ``n < 1``)."""
    if n <= 0:
        return 0.0
    if method == "exact":
        if e >= n - TINY:
            return 0.0
        return float(n * stats.beta.ppf(1.0 - confidence, e + 1.0, n - e) - e)
    if method not in UPPER_LIMITS:
        raise ValueError(f"method must be one of {UPPER_LIMITS}, got {method!r}")
    if e < 1e-6:
        return float(n * (1.0 - np.exp(np.log(confidence) / n)))
    if e < 0.9999:
        zero = n * (1.0 - np.exp(np.log(confidence) / n))
        return float(zero + e * (_extra_errors(n, 1.0, confidence, method) - zero))
    if e + 0.5 >= n:
        return 0.67 * (n - e)
    z = normal_deviate(confidence) if method == "c45" else float(stats.norm.isf(confidence))
    z2 = z * z
    upper = (e + 0.5 + z2 / 2 + np.sqrt(z2 * ((e + 0.5) * (1 - (e + 0.5) / n) + z2 / 4))) / (n + z2)
    return float(n * upper - e)


@dataclass(eq=False)
class C45Node:
    """One node of a C4.5 tree.

    ``distribution`` holds the class weights of the training cases that reached the node (after pruning: that
    the pruning pass routed there), ``n`` their sum, ``label`` the index of the node's class. An internal node
    tests ``attribute`` (a column index): a nominal attribute has one child per value, a continuous one two
    children, ``value <= threshold`` then ``value > threshold``. ``errors`` are the training errors of the
    node or its subtree as grown, the pessimistic estimate after pruning.
    """

    distribution: np.ndarray
    n: float
    label: int
    errors: float
    attribute: int | None = None
    threshold: float | None = None
    children: list["C45Node"] = field(default_factory=list)

    @property
    def is_leaf(self) -> bool:
        """Whether the node is a leaf (tests no attribute)."""
        return self.attribute is None

    def walk(self):
        """This node and all nodes below it, depth first.

        Yields
        ------
        C45Node
            Each node, this one first.
        """
        yield self
        for child in self.children:
            yield from child.walk()


class _Builder:
    """The training data of one fit and the per-node computations shared by growing, pruning and
    :func:`candidate_splits`."""

    def __init__(
        self,
        Z,
        y,
        C,
        nominal,
        n_values,
        train_values,
        *,
        min_cases,
        mdl_correction,
        release8_min_split,
        value_tolerance,
        relative_tolerance=True,
    ):
        self.Z, self.y, self.C = Z, y, C
        self.value_tolerance = value_tolerance
        self.relative_tolerance = relative_tolerance
        self.nominal = nominal
        self.n_values = n_values
        self.train_values = train_values
        self.min_cases = float(min_cases)
        self.mdl_correction = mdl_correction
        self.release8_min_split = release8_min_split
        self.continuous_columns = np.flatnonzero(~nominal)
        self.nominal_columns = np.flatnonzero(nominal)
        # the tolerance is relative to each attribute's training range below 1 (J48's absolute 1e-5 at or above
        # it), so rescaling an attribute of small range rescales its cuts instead of merging its values
        spans = [np.ptp(train_values[a]) if len(train_values[a]) else 0.0 for a in self.continuous_columns]
        scale = np.minimum(1.0, np.asarray(spans, dtype=float)) if relative_tolerance else np.ones(len(spans))
        self.value_tolerances = value_tolerance * scale

    # -------------------------------------------------------------- evaluating the tests of one node
    def evaluate(self, rows, w, tested=frozenset()) -> dict:
        """Gain, split information and threshold of the best test on every attribute at a node.

        Returns arrays over all attributes: ``possible`` (the attribute proposes a test), ``info_gain``
        (before the MDL correction), ``penalty`` (the correction), ``gain`` (after it), ``split_info``,
        ``threshold`` (NaN for nominal attributes) and ``tries`` (admissible thresholds).
        """
        m = self.Z.shape[1]
        out = {
            "possible": np.zeros(m, dtype=bool),
            "info_gain": np.full(m, np.nan),
            "penalty": np.zeros(m),
            "gain": np.full(m, np.nan),
            "split_info": np.full(m, np.nan),
            "threshold": np.full(m, np.nan),
            "tries": np.zeros(m, dtype=np.intp),
        }
        items = w.sum()
        yr = self.y[rows]
        for a in self.nominal_columns:
            if a in tested:
                continue
            self._nominal(a, rows, w, yr, items, out)
        if len(self.continuous_columns):
            self._continuous(rows, w, yr, items, out)
        return out

    def _nominal(self, a, rows, w, yr, items, out):
        v = self.Z[rows, a]
        known = ~np.isnan(v)
        nv, C = self.n_values[a], self.C
        F = np.bincount(v[known].astype(np.intp) * C + yr[known], weights=w[known], minlength=nv * C).reshape(nv, C)
        sizes = F.sum(axis=1)
        K = sizes.sum()
        if K <= TINY or (sizes >= self.min_cases - TINY).sum() < 2:
            return
        gain = (_total_info(F.sum(axis=0)) - _total_info(F).sum()) / items
        out["possible"][a] = True
        out["info_gain"][a] = out["gain"][a] = gain
        out["split_info"][a] = _total_info(np.concatenate([[items - K], sizes])) / items

    def _continuous(self, rows, w, yr, items, out):
        cols = self.continuous_columns
        V = self.Z[np.ix_(rows, cols)]
        n, k = V.shape
        if n < 2:
            return
        C = self.C
        Y = np.zeros((n, C))
        Y[np.arange(n), yr] = w
        order = np.argsort(V, axis=0, kind="stable")  # NaN (unknown) sorts last
        Vs = np.take_along_axis(V, order, axis=0)
        cum = np.cumsum(Y[order], axis=0)  # (n, k, C): class weights of the first i + 1 sorted cases
        n_known = (~np.isnan(V)).sum(axis=0)
        known_freq = cum[np.maximum(n_known - 1, 0), np.arange(k)]
        known_freq[n_known == 0] = 0.0
        K = known_freq.sum(axis=1)
        if self.release8_min_split:
            share = 0.1 * K / C
            min_split = np.where(share <= self.min_cases, self.min_cases, np.minimum(share, MAX_MIN_SPLIT))
        else:
            min_split = np.full(k, self.min_cases)
        low = cum[:-1]  # cut after sorted position i = 0 .. n - 2
        L = low.sum(axis=2)
        H = K[None, :] - L
        valid = (
            (np.arange(n - 1)[:, None] < (n_known - 1)[None, :])
            & (Vs[1:] > Vs[:-1] + self.value_tolerances[None, :])
            & (L >= min_split - TINY)
            & (H >= min_split - TINY)
        )
        tries = valid.sum(axis=0)
        # (K / items) (info(known) - info(split)) = (TI(known) - TI(low) - TI(high)) / items
        gain = (_total_info(known_freq)[None, :] - _total_info(low) - _total_info(known_freq[None, :, :] - low)) / items
        gain = np.where(valid, gain, -np.inf)
        best = np.argmax(gain >= gain.max(axis=0) - GAIN_TIE, axis=0)  # first (lowest) cut among tied gains
        idx = np.arange(k)
        best_gain = gain[best, idx]
        penalty = (
            np.where(tries > 0, np.log2(np.maximum(tries, 1)) / items, 0.0) if self.mdl_correction else np.zeros(k)
        )
        corrected = best_gain - penalty
        possible = (tries > 0) & (corrected > 0)
        Lb, Hb = L[best, idx], H[best, idx]
        split_info = _total_info(np.stack([items - K, Lb, Hb], axis=1)) / items
        for j in np.flatnonzero(tries > 0):
            a = cols[j]
            out["tries"][a] = tries[j]
            out["info_gain"][a] = best_gain[j]
            out["penalty"][a] = penalty[j]
            out["gain"][a] = corrected[j]
            out["split_info"][a] = split_info[j]
            out["threshold"][a] = self._threshold(a, Vs[best[j], j], Vs[best[j] + 1, j])
            out["possible"][a] = possible[j]

    def _threshold(self, a, below, above) -> float:
        """The largest training value of attribute ``a`` not exceeding the midpoint of the cut (release 8)."""
        values = self.train_values[a]
        mid = (below + above) / 2.0
        t = values[np.searchsorted(values, mid, side="right") - 1]
        return float(t if below <= t < above else below)

    @staticmethod
    def choose(table) -> int | None:
        """Quinlan's criterion: the highest gain ratio among the tests whose gain is at least the average gain
        of all proposed tests (within ``EPSILON``) and whose split information exceeds ``EPSILON``."""
        possible = table["possible"]
        if not possible.any():
            return None
        gain = np.where(possible, table["gain"], -np.inf)
        average = table["gain"][possible].mean()
        info = table["split_info"]
        eligible = possible & (gain >= average - EPSILON) & (np.nan_to_num(info) > EPSILON)
        ratio = np.where(eligible, gain / np.where(eligible, info, 1.0), -np.inf)
        top = ratio.max()
        if not top > 0:
            return None
        return int(np.argmax(ratio >= top - GAIN_TIE))  # the first attribute among tied gain ratios

    # -------------------------------------------------------------- partitioning cases among branches
    def branches(self, node: C45Node, Z, rows, w, factors=None):
        """Cases (rows, weights) of each branch of ``node``'s test and the known weight per branch. Unknown
        values go down every branch with their weight times ``factors`` (default: the branches' shares of
        the known weight among these cases)."""
        a = node.attribute
        v = Z[rows, a]
        known = ~np.isnan(v)
        if self.nominal[a]:
            nb = self.n_values[a]
            branch = v[known].astype(np.intp)
        else:
            nb = 2
            branch = (v[known] > node.threshold).astype(np.intp)
        rk, wk = rows[known], w[known]
        known_w = np.bincount(branch, weights=wk, minlength=nb)
        if factors is None:
            total = known_w.sum()
            factors = known_w / total if total > 0 else np.zeros(nb)
        ru, wu = rows[~known], w[~known]
        parts = []
        for b in range(nb):
            sel = branch == b
            parts.append((np.concatenate([rk[sel], ru]), np.concatenate([wk[sel], wu * factors[b]])))
        return parts, known_w

    # -------------------------------------------------------------- growing
    def grow(self, rows, w, tested=frozenset()) -> C45Node:
        dist = np.bincount(self.y[rows], weights=w, minlength=self.C)
        cases = float(dist.sum())
        best = int(np.argmax(dist))
        node = C45Node(dist, cases, best, cases - dist[best])
        if dist[best] >= cases - TINY or cases < 2 * self.min_cases - TINY:
            return node
        table = self.evaluate(rows, w, tested)
        a = self.choose(table)
        if a is None:
            return node
        test = C45Node(
            dist, cases, best, 0.0, attribute=a, threshold=None if self.nominal[a] else float(table["threshold"][a])
        )
        below = tested | {a} if self.nominal[a] else tested
        parts, known_w = self.branches(test, self.Z, rows, w)
        for (r, ww), kw in zip(parts, known_w):
            if kw > TINY:
                test.children.append(self.grow(r, ww, below))
            else:  # an empty branch: a leaf of the parent's class holding no case
                test.children.append(C45Node(np.zeros(self.C), 0.0, best, 0.0))
        test.errors = float(sum(c.errors for c in test.children))
        if test.errors >= node.errors - EPSILON:  # no fewer training errors than a leaf: keep the leaf
            return node
        return test

    # -------------------------------------------------------------- pruning
    def estimate(self, node: C45Node, rows, w, update: bool, prune: dict) -> float:
        """Pessimistic errors of ``node``'s subtree on the cases ``(rows, w)``; with ``update``, record the
        cases' distribution at every node and prune bottom-up (Quinlan 1993, section 4.2)."""
        if rows.size == 0:
            return 0.0
        dist = np.bincount(self.y[rows], weights=w, minlength=self.C)
        cases = float(dist.sum())
        best = node.label if dist[node.label] >= dist.max() else int(np.argmax(dist))
        leaf_errors = cases - dist[best]
        leaf_total = leaf_errors + extra_errors(cases, leaf_errors, prune["confidence"], prune["upper_limit"])
        if update:
            node.distribution, node.n, node.label = dist, cases, best
        if node.is_leaf:
            if update:
                node.errors = leaf_total
            return leaf_total
        parts, known_w = self.branches(node, self.Z, rows, w)
        total = known_w.sum()
        tree_errors, largest, largest_share = 0.0, None, 0.0
        for b, (r, ww) in enumerate(parts):
            if known_w[b] > 0:
                share = known_w[b] / total
                if share >= largest_share:
                    largest, largest_share = b, share
                tree_errors += self.estimate(node.children[b], r, ww, update, prune)
        if not update:
            return tree_errors
        if prune["subtree_raising"] and largest is not None:
            branch_errors = self.estimate(node.children[largest], rows, w, False, prune)
        else:
            branch_errors = np.inf
        if leaf_total <= branch_errors + 0.1 and leaf_total <= tree_errors + 0.1:
            node.attribute, node.threshold, node.children = None, None, []
            node.errors = leaf_total
        elif branch_errors <= tree_errors + 0.1:  # subtree raising: the largest branch replaces the node
            raised = node.children[largest]
            self.estimate(raised, rows, w, True, prune)
            node.distribution, node.n, node.label = raised.distribution, raised.n, raised.label
            node.errors, node.attribute = raised.errors, raised.attribute
            node.threshold, node.children = raised.threshold, raised.children
        else:
            node.errors = tree_errors
        return node.errors


class C45Classifier(ClassifierMixin, BaseEstimator):
    """C4.5 decision tree (Quinlan 1993, release 8 for continuous attributes): the test of highest gain ratio
    ``GainRatio(X) = Gain(X) / SplitInfo(X)`` among tests of at least average gain, then error-based pruning.

    Parameters
    ----------
    min_cases : float
        C4.5's ``-m``: a test is only considered if at least two of its branches receive this many (weighted)
        known cases; a node with fewer than ``2 min_cases`` cases is a leaf.
    confidence : float
        The confidence factor ``CF`` of the pessimistic error estimate (C4.5's ``-c``, 0.25 by default).
    pruning : bool
        Prune the grown tree (error-based pruning, section 4.2 of Quinlan 1993).
    subtree_raising : bool
        While pruning, also consider replacing a subtree by its largest branch (release 8).
    upper_limit : {"c45", "normal", "exact"}
        How the upper confidence limit of the error rate is computed: the approximation of the C4.5 program,
        the same with the exact normal quantile (as Weka's J48), or the exact binomial limit (see
        :func:`extra_errors`).
    mdl_correction : bool
        Subtract ``log2(T) / |D|`` from the gain of a continuous attribute's best threshold, ``T`` the number
        of admissible thresholds, ``|D|`` the weight of the cases at the node (Quinlan 1996).
    release8_min_split : bool
        Release 8's minimum size of each side of a threshold: ``0.1 K / C`` (``K`` the known weight at the
        node, ``C`` the number of classes), raised to ``min_cases`` if below it, else capped at 25. With
        ``False`` it is ``min_cases``.
    value_tolerance : float
        Two values of a continuous attribute closer than this times ``min(1, range)`` (its training range) are
        not separated by a cut (1e-5 as in Weka's J48, a port of release 8, which applies it absolutely; 0
        separates any two distinct values).
    relative_tolerance : bool
        True: the tolerance is scaled by ``min(1, range)``, so rescaled data grow the same tree. False: the
        program's absolute tolerance (release 8 and J48), which merges values of attributes of small range
        (wdbc, wpbc and glass hold such values 1e-5 apart); Part II's FNN filter uses it, as the paper's C4.5 did.

    Attributes
    ----------
    n_features_in_ : int
        Number of attributes seen in ``fit``.
    feature_names_in_ : ndarray of str
        The column names, when ``fit`` was given a DataFrame (scikit-learn's attribute; absent otherwise).
    schema_ : lazylib.encoding.Schema
        The fitted columns, types and category lists, applied to every query (:func:`lazylib.encoding.query_input`).
    tree_ : C45Node
        The root of the final tree.
    classes_ : ndarray of shape (C,)
        The classes, in order (the columns of :meth:`predict_proba`).
    columns_, kinds_ : tuple
        Attribute names and types as fitted.
    used_attributes_ : tuple of str
        Names of the attributes tested somewhere in the final tree, in column order.
    n_leaves_, depth_ : int
        Leaves of the final tree and its depth (a single leaf has depth 0).
    domains_ : dict
        Column index -> the categories of each nominal attribute, as fitted (queries must have the same).

    Notes
    -----
    Quinlan (1993) describes the algorithm and its program; release 8 (Quinlan 1996) changed how continuous
    attributes are handled. Our choices, where the descriptions leave room:

    - *Gains with missing values.* The gain of a test is computed on the cases whose tested value is known
      and multiplied by their weight fraction; the split information treats the unknown cases as one more
      branch. Both use the (possibly fractional) case weights.
    - *Average-gain condition.* The average is over every attribute that proposes a test at the node
      (continuous gains after the MDL correction); a test qualifies when its gain is at least the average minus
      ``EPSILON`` = 0.001 and its split information exceeds ``EPSILON``. Release 8 leaves nominal attributes
      with very many values out of the average; we do not. The best qualifying gain ratio must be positive.
      Gain ratios within ``GAIN_TIE`` = 1e-6 of the best tie, and a tie goes to the first column.
    - *Nominal attributes* get one branch per value of their domain (all categories of a pandas
      ``Categorical``, or the distinct training values of an array column), including values no training case
      at the node has: such a branch is a leaf of the parent's class holding no case. A nominal attribute is
      not tested again below a node testing it. A value outside the domain is treated as unknown.
    - *Continuous attributes.* Cuts are evaluated between consecutive known values more than
      ``value_tolerance`` times ``min(1, range)`` apart, ``range`` the attribute's training range (the program's
      rule, J48's absolute 1e-5, for attributes whose range is at least 1; relative below, so that data
      rescaled by 1e-6 grow the same tree instead of a single leaf; Quinlan 1996 speaks of distinct values). A cut is
      admissible when each side holds at least the minimum split weight (``release8_min_split``). The cut of
      highest gain wins (the lowest one among gains within ``GAIN_TIE``), then the MDL penalty ``log2(T) / |D|`` is
      subtracted, where ``T`` is the number of admissible cuts (release 8 counts tried cuts; Quinlan 1996
      writes ``N - 1`` for ``N`` distinct values, which is the same when every cut is admissible) and ``|D|``
      the weight of all cases at the node, unknowns included. The attribute proposes a test only when the
      corrected gain is positive. The threshold stored is the largest value of the attribute in the whole
      training set that does not exceed the midpoint of the cut (release 8), so ``value <= threshold`` goes
      left.
    - *Growing* stops at a node whose cases all have one class or weigh less than ``2 min_cases``, or where
      no test qualifies. After the subtrees of a test are grown, the node becomes a leaf again when their
      training errors are not fewer than the node's as a leaf (by at least ``EPSILON``), as the program does.
      The leaf class is the first class of largest weight.
    - *Missing values.* Cases with an unknown tested value go down every branch with their weight multiplied
      by the branch's share of the known weight at the node (when growing and pruning) or the branch's share
      of the training weight (when classifying); classification adds the class distributions of all leaves
      reached, each weighted by the product of the shares along its path. A leaf holding no case contributes
      its class with all the weight.
    - *Pruning* follows the program's bottom-up pass: at each node, after its branches are pruned, the
      estimated errors (``e + extra_errors(n, e)``) of a leaf, of the subtree, and (``subtree_raising``) of the
      subtree's largest branch evaluated on all the node's cases are compared; a leaf wins if it is within 0.1
      of both others, otherwise the largest branch replaces the node if within 0.1 of the subtree, and the
      raised branch is then re-pruned with all the node's cases. The largest branch is the last of those with
      the largest known weight.
    - :meth:`predict` returns the class of largest summed probability, the first class in ``classes_`` order
      on ties.

    Not implemented: grouping of nominal values into subsets (C4.5's ``-s``), windowing, and the rule
    generator (C4.5rules).

    Checked by hand against Weka 3.6's J48 (``-C 0.25 -M 2``), which is not a dependency: with
    ``upper_limit="normal"`` the trees have the same size and the same training and 5-fold test accuracy on
    17 UCI data sets (the eleven of Payne and Edwards 2000, and six with nominal attributes and unknown values).
    The default ``"c45"`` differs from it only through the normal deviate (0.6925 against 0.6745), which
    leaves slightly larger trees on pima, breast-cancer-wisconsin and balance-scale (same test accuracy).

    References
    ----------
    Quinlan, J. R. (1993), *C4.5: Programs for Machine Learning*, Morgan Kaufmann: chapter 2 (gain ratio,
    continuous attributes), chapter 3 (unknown values), chapter 4 (pruning) (bib key ``quinlan1993``).
    Quinlan, J. R. (1996), Improved use of continuous attributes in C4.5, *Journal of Artificial Intelligence
    Research* 4, 77-90 (bib key ``quinlan1996``).

    Examples
    --------
    Quinlan's (1993) golf data, section 1.3: the textbook tree.

    >>> import pandas as pd
    >>> X = pd.DataFrame({
    ...     "outlook": pd.Categorical(["sunny"] * 5 + ["overcast"] * 4 + ["rain"] * 5,
    ...                               categories=["sunny", "overcast", "rain"]),
    ...     "temperature": [75.0, 80, 85, 72, 69, 72, 83, 64, 81, 71, 65, 75, 68, 70],
    ...     "humidity": [70.0, 90, 85, 95, 70, 90, 78, 65, 75, 80, 70, 80, 80, 96],
    ...     "windy": pd.Categorical(["true", "true", "false", "false", "false", "true", "false", "true", "false",
    ...                              "true", "true", "false", "false", "false"])})
    >>> y = ["play", "no", "no", "no", "play"] + ["play"] * 4 + ["no", "no", "play", "play", "play"]
    >>> clf = C45Classifier().fit(X, y)
    >>> print(clf.export_text())
    outlook = sunny:
    |   humidity <= 75: play (2.0)
    |   humidity > 75: no (3.0)
    outlook = overcast: play (4.0)
    outlook = rain:
    |   windy = false: play (3.0)
    |   windy = true: no (2.0)
    >>> clf.used_attributes_
    ('outlook', 'humidity', 'windy')

    A sunny day of unknown humidity goes down both branches of the humidity test, with weights 2/5 and 3/5:

    >>> query = X.iloc[[0]].assign(humidity=float("nan"))
    >>> clf.predict_proba(query).round(2).tolist()
    [[0.6, 0.4]]
    """

    def __init__(
        self,
        *,
        min_cases: float = 2,
        confidence: float = 0.25,
        pruning: bool = True,
        subtree_raising: bool = True,
        upper_limit: str = "c45",
        mdl_correction: bool = True,
        release8_min_split: bool = True,
        value_tolerance: float = 1e-5,
        relative_tolerance: bool = True,
    ):
        self.min_cases = min_cases
        self.confidence = confidence
        self.pruning = pruning
        self.subtree_raising = subtree_raising
        self.upper_limit = upper_limit
        self.mdl_correction = mdl_correction
        self.release8_min_split = release8_min_split
        self.value_tolerance = value_tolerance
        self.relative_tolerance = relative_tolerance

    _parameter_constraints: dict = {
        "min_cases": [Real(low=0, open_low=True)],
        "confidence": [Real(low=0, high=1, open_low=True, open_high=True)],
        "pruning": [Boolean()],
        "subtree_raising": [Boolean()],
        "upper_limit": [Choice(UPPER_LIMITS)],
        "mdl_correction": [Boolean()],
        "release8_min_split": [Boolean()],
        "value_tolerance": [Real(low=0)],
        "relative_tolerance": [Boolean()],
    }
    _validate_params = validate_params

    # -------------------------------------------------------------- fitting
    def _validate(self):
        self._validate_params()  # the constraints above (scikit-learn's InvalidParameterError, a ValueError)

    def fit(self, X, y, types=None):
        """Grow the tree on ``(X, y)`` and prune it.

        Parameters
        ----------
        X : DataFrame, Encoded or array of shape (n, m)
            Nominal attributes as pandas ``Categorical`` columns (or numeric codes with ``types``), continuous
            ones numeric; NaN is an unknown value.
        y : array-like of length n
            Class labels.
        types : sequence or dict, optional
            Attribute types of an array ``X`` (default: every column continuous; :func:`lazylib.encoding.fit_input`).

        Returns
        -------
        C45Classifier
            The fitted estimator itself.
        """
        self._validate()
        data = fit_input(self, X, types)
        self.columns_, self.kinds_ = data.columns, data.kinds
        y_idx, self.classes_ = encode_labels(y, len(data), column=True)
        self._builder = self._make_builder(data, y_idx)
        n = len(data)
        root = self._builder.grow(np.arange(n), np.ones(n))
        if self.pruning:
            prune = {
                "confidence": self.confidence,
                "upper_limit": self.upper_limit,
                "subtree_raising": self.subtree_raising,
            }
            self._builder.estimate(root, np.arange(n), np.ones(n), True, prune)
        self.tree_ = root
        used = {node.attribute for node in root.walk() if not node.is_leaf}
        self.used_attributes_ = tuple(self.columns_[a] for a in sorted(used))
        self.n_leaves_ = sum(node.is_leaf for node in root.walk())
        self.depth_ = _depth(root)
        return self

    def _make_builder(self, data: Encoded, y_idx) -> _Builder:
        nominal = data.nominal
        Z, self.domains_ = self._codes(data.values, data.categories, nominal, fit=True)
        n_values = {a: len(self.domains_[a]) for a in np.flatnonzero(nominal)}
        train_values = {a: np.unique(Z[~np.isnan(Z[:, a]), a]) for a in np.flatnonzero(~nominal)}
        return _Builder(
            Z,
            y_idx,
            len(self.classes_),
            nominal,
            n_values,
            train_values,
            min_cases=self.min_cases,
            mdl_correction=self.mdl_correction,
            release8_min_split=self.release8_min_split,
            value_tolerance=self.value_tolerance,
            relative_tolerance=self.relative_tolerance,
        )

    def _codes(self, values, categories, nominal, fit=False):
        """Nominal columns as branch indices 0..k-1 of their domain (NaN when unknown or outside it). The
        domain is a ``Categorical``'s categories (numbers: its codes) or an array column's distinct training
        values."""
        Z = values.copy()
        if fit:
            self._value_codes = {}
            domains = {}
            for a in np.flatnonzero(nominal):
                known = values[~np.isnan(values[:, a]), a]
                if categories[a] is not None:
                    domains[a] = tuple(categories[a])
                    self._value_codes[a] = np.arange(len(categories[a]), dtype=float)
                else:
                    self._value_codes[a] = np.unique(known)
                    domains[a] = tuple(self._value_codes[a].tolist())
        else:
            domains = self.domains_
        for a in np.flatnonzero(nominal):
            dom, col = self._value_codes[a], values[:, a]
            pos = np.minimum(np.searchsorted(dom, col), len(dom) - 1)
            hit = ~np.isnan(col) & (dom[pos] == col) if len(dom) else np.zeros(len(col), dtype=bool)
            Z[:, a] = np.where(hit, pos, np.nan)
        return Z, domains

    # -------------------------------------------------------------- prediction
    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True  # an unknown value goes down every branch, weighted
        tags.input_tags.categorical = True  # nominal attributes as pandas Categorical columns
        return tags

    def _encode_queries(self, X) -> np.ndarray:
        values = query_input(self, X)  # the fitted schema: same columns, types and category lists
        Z, _ = self._codes(values, self.schema_.categories, self.schema_.nominal)
        return Z

    def predict_proba(self, X) -> np.ndarray:
        """Class probabilities, shape (n, classes): the leaf class distributions reached by each query, summed
        with the weights of the branches followed (all branches of a test whose value is unknown).

        Parameters
        ----------
        X : DataFrame or array of shape (n, m)
            Queries, with the columns and types of the training data.

        Returns
        -------
        ndarray of shape (n, len(``classes_``))
            The class probabilities of each query.
        """
        Z = self._encode_queries(X)
        n = len(Z)
        out = np.zeros((n, len(self.classes_)))
        self._route(self.tree_, Z, np.arange(n), np.ones(n), out)
        return out

    def _route(self, node, Z, rows, w, out):
        if rows.size == 0:
            return
        if node.is_leaf:
            if node.n > 0:
                out[rows] += w[:, None] * (node.distribution / node.n)[None, :]
            else:
                out[rows, node.label] += w
            return
        sizes = np.array([c.n for c in node.children])
        factors = sizes / sizes.sum()
        parts, _ = self._builder.branches(node, Z, rows, w, factors)
        for child, (r, ww) in zip(node.children, parts):
            self._route(child, Z, r, ww, out)

    def predict_indices(self, X) -> np.ndarray:
        """Indices into ``classes_`` of the predicted classes.

        Parameters
        ----------
        X : DataFrame or array of shape (n, m)
            Queries, with the columns and types of the training data.

        Returns
        -------
        ndarray of shape (n,)
            Indices into ``classes_``.
        """
        return np.argmax(self.predict_proba(X), axis=1)

    def predict(self, X) -> np.ndarray:
        """Predicted class labels (the class of largest probability; the first one on ties).

        Parameters
        ----------
        X : DataFrame or array of shape (n, m)
            Queries, with the columns and types of the training data.

        Returns
        -------
        ndarray of shape (n,)
            The predicted class label of each query.
        """
        indices = self.predict_indices(X)
        return self.classes_[indices]

    def _value_name(self, a: int, b: int) -> str:
        value = self.domains_[a][b]
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        return str(value)

    def export_text(self) -> str:
        """The tree in C4.5's indented layout: one line per branch, ``attribute = value`` or
        ``attribute <= threshold`` / ``> threshold``; a leaf shows its class and ``(n)`` or ``(n/errors)``, the
        weight of the training cases reaching it and of those not of its class.

        Returns
        -------
        str
            The tree, one line per branch.
        """
        check_is_fitted(self)
        lines: list[str] = []

        def leaf(node):
            errors = node.n - node.distribution[node.label] if node.n > 0 else 0.0
            tail = f"({node.n:.1f})" if errors < 0.05 else f"({node.n:.1f}/{errors:.1f})"
            return f"{self.classes_[node.label]} {tail}"

        def walk(node, depth):
            name = self.columns_[node.attribute]
            for b, child in enumerate(node.children):
                if self.kinds_[node.attribute] == NOMINAL:
                    test = f"{name} = {self._value_name(node.attribute, b)}"
                else:
                    test = f"{name} {'<=' if b == 0 else '>'} {node.threshold:g}"
                prefix = "|   " * depth
                if child.is_leaf:
                    lines.append(f"{prefix}{test}: {leaf(child)}")
                else:
                    lines.append(f"{prefix}{test}:")
                    walk(child, depth + 1)

        if self.tree_.is_leaf:
            return leaf(self.tree_)
        walk(self.tree_, 0)
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.export_text() if hasattr(self, "tree_") else repr(self)

    def __repr__(self) -> str:
        return (
            f"C45Classifier(min_cases={self.min_cases}, confidence={self.confidence}, "
            f"pruning={self.pruning}, subtree_raising={self.subtree_raising}, "
            f"upper_limit={self.upper_limit!r}, mdl_correction={self.mdl_correction}, "
            f"release8_min_split={self.release8_min_split}, value_tolerance={self.value_tolerance})"
        )


def _depth(node: C45Node) -> int:
    return 0 if node.is_leaf else 1 + max(_depth(c) for c in node.children)


def candidate_splits(
    X,
    y,
    types=None,
    *,
    min_cases: float = 2,
    mdl_correction: bool = True,
    release8_min_split: bool = True,
    value_tolerance: float = 1e-5,
) -> pd.DataFrame:
    """The test each attribute proposes at the root of a C4.5 tree on ``(X, y)``, with its gain, split
    information and gain ratio, and the test C4.5 chooses (Quinlan 1993, section 2.2; Quinlan 1996).

    Returns
    -------
    DataFrame
        One row per attribute: ``kind``, ``info_gain`` (bits, scaled by the known fraction), ``penalty`` (the
        MDL correction of a continuous attribute), ``gain`` (``info_gain - penalty``), ``split_info``,
        ``gain_ratio``, ``threshold`` (continuous attributes), ``n_thresholds`` (admissible cuts),
        ``possible`` (the attribute proposes a test), ``above_average`` (its gain reaches the average) and
        ``chosen``.

    References
    ----------
    Quinlan (1993), section 2.2 (bib key ``quinlan1993``); Quinlan (1996), section 3 (bib key ``quinlan1996``).

    Examples
    --------
    >>> import pandas as pd
    >>> X = pd.DataFrame({"outlook": pd.Categorical(["sunny"] * 5 + ["overcast"] * 4 + ["rain"] * 5)})
    >>> y = ["no", "no", "no", "yes", "yes"] + ["yes"] * 4 + ["yes", "yes", "yes", "no", "no"]
    >>> row = candidate_splits(X, y).loc["outlook"]
    >>> [round(float(row[k]), 4) for k in ("info_gain", "split_info", "gain_ratio")]
    [0.2467, 1.5774, 0.1564]
    """
    clf = C45Classifier(
        min_cases=min_cases,
        mdl_correction=mdl_correction,
        release8_min_split=release8_min_split,
        value_tolerance=value_tolerance,
    )
    clf._validate()
    data = fit_input(clf, X, types)
    clf.columns_, clf.kinds_ = data.columns, data.kinds
    y_idx, clf.classes_ = encode_labels(y, len(data))
    builder = clf._make_builder(data, y_idx)
    n = len(data)
    table = builder.evaluate(np.arange(n), np.ones(n))
    possible = table["possible"]
    average = table["gain"][possible].mean() if possible.any() else np.nan
    chosen = builder.choose(table)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(possible, table["gain"] / table["split_info"], np.nan)
    return pd.DataFrame(
        {
            "kind": list(data.kinds),
            "info_gain": table["info_gain"],
            "penalty": table["penalty"],
            "gain": table["gain"],
            "split_info": table["split_info"],
            "gain_ratio": ratio,
            "threshold": table["threshold"],
            "n_thresholds": table["tries"],
            "possible": possible,
            "above_average": possible & (table["gain"] >= average - EPSILON),
            "chosen": np.arange(len(possible)) == (chosen if chosen is not None else -1),
        },
        index=pd.Index(data.columns, name="attribute"),
    )
