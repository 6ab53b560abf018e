"""C4.5's builder (Quinlan 1993, with release 8's treatment of continuous attributes, Quinlan 1996): the measures a
tree is grown and pruned by (:func:`entropy`, the pessimistic error estimates :func:`normal_deviate` and
:func:`extra_errors`), the tree's node (:class:`C45Node`) and :class:`C45Builder`, which evaluates every test of a
node, grows the tree and prunes it, for :class:`lazylib.trees.C45Classifier`.

The evaluation of every threshold of every continuous attribute at a node is vectorised: the node's values of
all continuous attributes are sorted once (one ``argsort`` of an n x k matrix), cumulative class weights give
the class distribution on either side of every cut, and entropies of all cuts come out of array arithmetic. No
Python loop runs over instances; loops run over nodes, branches and nominal attributes only.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy import special, stats

from lazylib._validation import Choice, Real, check

#: C4.5's tolerance in comparisons of gains, split information and error counts (``Epsilon`` of the program).
EPSILON = 1e-3


#: Tolerance on comparisons of (possibly fractional) case weights with the minimum branch size.
TINY = 1e-9


#: Gains (of cuts) and gain ratios (of attributes) within this many bits of the best count as tied; a tie goes
#: to the first cut (lowest threshold) or the first attribute (column order). Weka's J48 compares them with the
#: same tolerance; without one, symmetric attributes (e.g. the left and right weights of balance-scale) are
#: told apart by the last bit of a sum.
GAIN_TIE = 1e-6

#: Bytes the search for the best cut holds per case, continuous attribute and class (the class weights in the
#: attributes' orders, cumulated in place, and the temporaries of the two entropies of every cut, five arrays of
#: floats at once, with one to spare): :meth:`C45Builder._continuous` takes attributes and cases in blocks of at
#: most ``max_bytes`` by it.
BYTES_PER_CELL = 48


#: Release 8's cap on the minimum size of each side of a continuous threshold (see
#: :class:`lazylib.trees.C45Classifier`).
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

    Notes
    -----
    ``"c45"`` and ``"normal"`` are finite and accurate at any scale: where the program's arithmetic would lose
    precision (more than ``2^20`` errors, where ``n U - e`` cancels; ``|log(CF) / n|`` below ``2^-23``, where
    ``1 - CF^(1/n)`` does) or overflow, the same quantities are computed in a rescaled form (the Wilson limit
    without the cancellation, in units of ``n``; ``expm1``); every leaf of ordinary data gets the program's float
    to the last bit, so pruning is unchanged. ``"exact"`` relies on scipy's beta quantile, which loses accuracy
    (and gives NaN) on larger leaves: it refuses ``n`` above :data:`EXACT_MAX_N` with a ValueError.

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
    if method == "exact" and n > EXACT_MAX_N:
        raise ValueError(
            f"method='exact' is accurate for leaves of at most {EXACT_MAX_N:g} cases (scipy's beta quantile), got "
            f"n = {n:g}: use method='normal' or 'c45', finite and accurate at any scale"
        )
    return _extra_errors(n, e, confidence, method)


#: The largest leaf weight ``n`` for which ``extra_errors(..., method="exact")`` answers (scipy's beta quantile
#: is accurate to it; beyond it gives NaN or wrong values at large ``e``).
EXACT_MAX_N = 1e15


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
        return _no_error_extra(n, confidence)
    if e < 0.9999:
        zero = _no_error_extra(n, confidence)
        return float(zero + e * (_extra_errors(n, 1.0, confidence, method) - zero))
    if e + 0.5 >= n:
        return 0.67 * (n - e)
    z = normal_deviate(confidence) if method == "c45" else float(stats.norm.isf(confidence))
    z2 = z * z
    if e > _RESCALE_ERRORS:
        return _wilson_extra_rescaled(n, e, z)
    upper = (e + 0.5 + z2 / 2 + np.sqrt(z2 * ((e + 0.5) * (1 - (e + 0.5) / n) + z2 / 4))) / (n + z2)
    return float(n * upper - e)


#: Above this many errors the program's ``n U - e`` cancels more than 20 bits (its absolute error is a few ulps
#: of ``e``, the extra errors at least 0.5), and :func:`_wilson_extra_rescaled` takes over. No leaf of ordinary
#: data holds that many errors, so pruning on them keeps the program's arithmetic to the last bit.
_RESCALE_ERRORS = 2.0**20


#: Below this ``|log(CF) / n|``, ``1 - exp(log(CF) / n)`` keeps fewer than about 30 significant bits (its
#: absolute error is half an ulp of 1), and :func:`_no_error_extra` takes ``expm1`` instead.
_RESCALE_EXPONENT = 2.0**-23


def _no_error_extra(n: float, confidence: float) -> float:
    """Extra errors of a leaf without error, ``n (1 - CF^(1/n))``: the program's arithmetic, or ``-n expm1(log(CF)
    / n)`` where it would lose precision (``n`` in the tens of millions and more; at ``n = 1e12`` it is off in
    the fifth digit, at ``n = 1e17`` it gives 0 instead of ``-log(CF)``)."""
    exponent = np.log(confidence) / n
    if abs(exponent) < _RESCALE_EXPONENT:
        return float(-n * np.expm1(exponent))
    return float(n * (1.0 - np.exp(exponent)))


def _wilson_extra_rescaled(n: float, e: float, z: float) -> float:
    """``n U - e`` of the continuity-corrected Wilson limit ``U`` with deviate ``z``, written without the
    cancellation and in units of ``n``: ``(1/2 + z^2/2 + s - z^2 e/n) / (1 + z^2/n)``, ``s = |z| sqrt((e + 1/2)
    (n - e - 1/2)/n + z^2/4)``. Accurate to a few ulps and finite up to the largest floats (the program's form
    gives 0 at ``n = 1e308, e = 1e300``, and overflows when ``z^2 n`` does)."""
    z2 = z * z
    s = abs(z) * np.sqrt((e + 0.5) * ((n - e - 0.5) / n) + z2 / 4)
    return float((0.5 + z2 / 2 + s - z2 * (e / n)) / (1.0 + z2 / n))


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


class C45Builder:
    """The training data of one fit and the per-node computations shared by growing, pruning and
    :func:`lazylib.trees.candidate_splits`."""

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
        max_bytes=64 * 2**20,
    ):
        self.Z, self.y, self.C = Z, y, C
        self.max_bytes = max_bytes
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
        """The best cut of every continuous attribute, :data:`BYTES_PER_CELL` bytes a case, attribute and class
        at a time: a block of attributes, and of cases (:meth:`_cumulated`), within ``max_bytes``."""
        cols = self.continuous_columns
        if len(rows) < 2:
            return
        step = max(1, int(self.max_bytes // (BYTES_PER_CELL * (self.C + 2) * len(rows))))
        for lo in range(0, len(cols), step):
            self._continuous_block(cols[lo : lo + step], rows, w, yr, items, out)

    def _cumulated(self, order, w, yr, n_rows: int):
        """``(lo, cum)``: the rows ``lo .. lo + len(cum) - 1`` of the class weights of the first ``i + 1`` sorted
        cases, ``cumsum`` of the (n, k, C) weights in the attributes' orders, ``n_rows`` cases at a time (each
        block starts from the last row of the one before: the same additions, the same bits as all at once)."""
        n, k = order.shape
        running = None
        for lo in range(0, n, n_rows):
            part = np.zeros((min(n_rows, n - lo), k, self.C))
            o = order[lo : lo + n_rows]
            np.put_along_axis(part, yr[o][:, :, None], w[o][:, :, None], axis=2)
            if running is not None:
                part[0] += running
            np.cumsum(part, axis=0, out=part)
            running = part[-1].copy()
            yield lo, part

    def _continuous_block(self, cols, rows, w, yr, items, out):
        V = self.Z[np.ix_(rows, cols)]
        n, k = V.shape
        C = self.C
        order = np.argsort(V, axis=0, kind="stable")  # NaN (unknown) sorts last
        Vs = np.take_along_axis(V, order, axis=0)
        n_known = (~np.isnan(V)).sum(axis=0)
        n_rows = max(2, int(self.max_bytes // (BYTES_PER_CELL * (C + 2) * k)))
        parts = list(self._cumulated(order, w, yr, n)) if n_rows >= n else None  # one block: computed once
        known_freq = np.zeros((k, C))
        for lo, cum in parts or self._cumulated(order, w, yr, n_rows):
            last = n_known - 1 - lo  # the row of the last known case of each attribute, if in this block
            here = (n_known > 0) & (last >= 0) & (last < len(cum))
            known_freq[here] = cum[last[here], np.flatnonzero(here)]
        K = known_freq.sum(axis=1)
        if self.release8_min_split:
            share = 0.1 * K / C
            min_split = np.where(share <= self.min_cases, self.min_cases, np.minimum(share, MAX_MIN_SPLIT))
        else:
            min_split = np.full(k, self.min_cases)
        L, gain = np.empty((n - 1, k)), np.empty((n - 1, k))
        for lo, cum in parts or self._cumulated(order, w, yr, n_rows):
            low = cum[: n - 1 - lo]  # cut after sorted position i = lo .. (n - 2)
            cut = slice(lo, lo + len(low))
            L[cut] = low.sum(axis=2)
            # (K / items) (info(known) - info(split)) = (TI(known) - TI(low) - TI(high)) / items
            gain[cut] = _total_info(known_freq)[None, :] - _total_info(low) - _total_info(known_freq[None, :, :] - low)
        gain /= items
        H = K[None, :] - L
        valid = (
            (np.arange(n - 1)[:, None] < (n_known - 1)[None, :])
            & (Vs[1:] > Vs[:-1] + self.value_tolerances[np.searchsorted(self.continuous_columns, cols)][None, :])
            & (L >= min_split - TINY)
            & (H >= min_split - TINY)
        )
        self._record_best(cols, valid, gain, L, H, K, Vs, items, out)

    def _record_best(self, cols, valid, gain, L, H, K, Vs, items, out):
        """The first cut of largest gain of each attribute of the block, and its figures, into ``out``."""
        k = len(cols)
        tries = valid.sum(axis=0)
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
        """The tree grown from the cases ``(rows, w)`` by divide and conquer, the attributes of ``tested`` (nominal
        ones already tested above) left out."""
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
