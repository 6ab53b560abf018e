"""Mean difference weighting (Howe & Cardie, Eqs. 1-6) and information-gain weighting (Daelemans et al. 1994).

MDW needs only the expected difference of each feature between two sets of instances (Eq. 1), estimated from
the training data (Eq. 2). This module computes it exactly and fast for the usual feature kinds:

- *numeric* features, ``delta = |x - y|``: sort one sample and take prefix sums, ``O(n log n)``;
- *symbolic* features, ``delta`` = overlap (or any table of value differences, such as MVDM's): count the
  values of each sample, then sum over pairs of values, ``O(n + m^2)`` for ``m`` values;
- *set* features, ``delta`` = the smallest vector difference between members (Eq. 6): no shortcut is known, so
  every pair of sets is compared (:func:`~lazylib.weighting.set_difference`).

The weights are then the scaling weights (``1 /`` mean difference over the training set) times per-class
significance weights (Eqs. 3-5), one vector per class, used with the class of the *stored* instance; every
metric of :mod:`lazylib.metrics` accepts such per-class weights (``weights=`` a ``(C, m)`` array or a DataFrame
indexed by class). :class:`~lazylib.weighting.FeatureDifference`, :class:`~lazylib.weighting.IGWeighted`,
:class:`~lazylib.weighting.MDW` and :class:`MDWMVDM` are the distances of Howe & Cardie's Tables 1 and 2.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from lazylib._validation import Boolean, Choice, Real, check
from lazylib.column_stats import column_values, is_known_set
from lazylib.encoding import SET
from lazylib.labels import encode_labels
from lazylib.metrics import WORKING_MEMORY
from lazylib.metrics.vdm import MVDM
from lazylib.weighting.feature_difference import FeatureDifference, LearnedWeights
from lazylib.weighting.kinds import KINDS, feature_kinds, known_values, set_difference

FALLBACKS = ("uniform", "zero")
#: The stages of MDW that :class:`~lazylib.weighting.MDW` applies: both (the method), or one of them alone (an
#: ablation).
STAGES = ("both", "scaling", "significance")


# ---------------------------------------------------------------------------------------------- mean differences
def _numeric_sum(a: np.ndarray, b: np.ndarray) -> float:
    """``sum_i sum_j |a_i - b_j|`` in ``O((n_a + n_b) log n_b)``: with ``b`` sorted and ``P`` its prefix sums,
    the ``j`` values of ``b`` below ``a_i`` contribute ``j a_i - P_j`` and the rest ``(P_n - P_j) - (n - j) a_i``."""
    b = np.sort(b)
    prefix = np.concatenate([[0.0], np.cumsum(b)])
    j = np.searchsorted(b, a, side="left")
    below = j * a - prefix[j]
    above = (prefix[-1] - prefix[j]) - (len(b) - j) * a
    return float(below.sum() + above.sum())


class _ValueDifferences:
    """MVDM's (V, V) table of squared value differences ``T[u, v] = sum_c (P_uc - P_vc)^2`` of one feature,
    never built whole: :meth:`quadratic` computes ``c_a^T T c_b`` a block of rows at a time, each block within
    ``max_bytes`` (the form :class:`MDWMVDM` takes for a feature whose table would not fit in its
    ``working_memory``: an ID-like column, one value per instance).

    Examples
    --------
    >>> P = np.array([[1.0, 0.0], [0.5, 0.5], [0.0, 1.0]])
    >>> float(_ValueDifferences(P, max_bytes=64).quadratic(np.array([1.0, 0, 0]), np.array([0, 1.0, 1.0])))
    2.5
    """

    def __init__(self, P: np.ndarray, max_bytes: float):
        self.P, self.max_bytes = P, max_bytes
        self.sq = (P * P).sum(1)

    def __len__(self) -> int:
        return len(self.P)

    def rows(self, block: slice) -> np.ndarray:
        """The rows ``block`` of the table, ``max(|P_u|^2 + |P_v|^2 - 2 P_u . P_v, 0)`` as :class:`MDWMVDM`
        builds the whole one."""
        return np.maximum(self.sq[block, None] + self.sq[None, :] - 2.0 * self.P[block] @ self.P.T, 0.0)

    def quadratic(self, ca: np.ndarray, cb: np.ndarray) -> float:
        """``c_a^T T c_b``, the rows of ``T`` where ``c_a`` is not 0 only, a block of them at a time (a block
        and its two temporaries of ``V`` floats a row within ``max_bytes``)."""
        step = max(1, int(self.max_bytes // (24 * max(len(self.P), 1))))
        total = 0.0
        for lo in range(0, len(self.P), step):
            block = slice(lo, lo + step)
            if ca[block].any():
                total += float(ca[block] @ (self.rows(block) @ cb))
        return total


def _symbolic_sum(a: np.ndarray, b: np.ndarray, table=None) -> float:
    """``sum_i sum_j delta(a_i, b_j)`` from value counts: ``n_a n_b - sum_v c_a(v) c_b(v)`` for overlap, or
    ``c_a^T T c_b`` for a table ``T`` of value differences indexed by integer codes (an array, or a
    :class:`_ValueDifferences` computed a block at a time)."""
    if table is None:
        values, inverse = np.unique(np.concatenate([a, b]), return_inverse=True)
        ca = np.bincount(inverse[: len(a)], minlength=len(values))
        cb = np.bincount(inverse[len(a) :], minlength=len(values))
        return float(len(a) * len(b) - ca @ cb)
    T = table if isinstance(table, _ValueDifferences) else np.asarray(table, dtype=np.float64)
    ca = np.bincount(a.astype(np.intp), minlength=len(T)).astype(np.float64)
    cb = np.bincount(b.astype(np.intp), minlength=len(T)).astype(np.float64)
    if isinstance(T, _ValueDifferences):
        return T.quadratic(ca, cb)
    return float(ca @ T @ cb)


def _known_sets(x) -> list:
    return [np.atleast_2d(np.asarray(s, dtype=np.float64)) for s in x if is_known_set(s)]


def difference_sum(a, b, kind: str = "numeric", *, table=None) -> tuple[float, int]:
    """``(sum of delta(a_i, b_j) over all pairs, number of pairs)`` for two samples of one feature; unknown
    values (NaN, or None / empty for sets) are left out. See :func:`mean_difference`."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    if kind == "set":
        A, B = _known_sets(a), _known_sets(b)
        if not A or not B:
            return 0.0, 0
        return float(set_difference(A, B).sum()), len(A) * len(B)
    a, b = known_values(a), known_values(b)
    if len(a) == 0 or len(b) == 0:
        return 0.0, 0
    if kind == "numeric":
        return _numeric_sum(a, b), len(a) * len(b)
    return _symbolic_sum(a, b, table), len(a) * len(b)


def mean_difference(a, b, kind: str = "numeric", *, table=None) -> float:
    """``Delta(S1, S2) = 1 / (|S1| |S2|) sum_{s1 in S1} sum_{s2 in S2} delta(s1, s2)`` (Eq. 1), exactly.

    Parameters
    ----------
    a, b : array-like
        Two samples of one feature (pass the same sample twice for a set's mean difference with itself: every
        ordered pair is counted, self-pairs included, as Eq. 1 is written).
    kind : {"numeric", "symbolic", "set"}
        ``delta = |x - y|`` (sort and prefix sums, ``O(n log n)``); overlap, 0 for equal values and 1 otherwise
        (value counts, ``O(n + m^2)``); or Eq. 6 for sets of vectors (every pair of sets compared).
    table : array-like of shape (V, V), optional
        Symbolic only: ``delta(u, v) = table[u, v]`` for integer codes ``u, v`` (e.g. MVDM's value differences)
        instead of overlap.

    Returns
    -------
    float
        The mean difference, NaN when either sample has no known value.

    Notes
    -----
    Unknown values (NaN; None or an empty set) are left out of the pairs: the difference to an unknown value
    is undefined, and its expectation is what Eq. 2 estimates from the known ones.

    References
    ----------
    Howe, N. and Cardie, C., section 2, Eqs. 1-2 and the exact algorithms of the scaling paragraph.

    Examples
    --------
    >>> mean_difference([0.0, 1.0, 3.0], [1.0, 2.0], "numeric")  # (1+2 + 0+1 + 2+1) / 6
    1.1666666666666667
    >>> mean_difference([0, 0, 1], [0, 1], "symbolic")  # three unequal pairs of six
    0.5
    """
    total, pairs = difference_sum(a, b, kind, table=table)
    return total / pairs if pairs else float("nan")


def hoeffding_pairs(epsilon: float, delta: float, bound: float = 1.0) -> int:
    """The number of pairs, drawn uniformly and independently, after which a sampled mean difference lies
    within ``epsilon`` of the exact one with probability at least ``1 - delta``, for differences in
    ``[0, bound]``: ``ceil(bound^2 ln(2 / delta) / (2 epsilon^2))`` (Hoeffding's inequality, a Chernoff bound).

    Parameters
    ----------
    epsilon : float
        Largest acceptable error, in the units of the differences (> 0).
    delta : float
        Largest acceptable probability of a larger error, in (0, 1).
    bound : float
        Upper bound on a difference (1 for overlap and for range-normalised numeric differences).

    Returns
    -------
    int
        The number of sampled pairs.

    References
    ----------
    Howe, N. and Cardie, C., section 2 (the randomised approximation and its footnote); Hoeffding, W. (1963).

    Examples
    --------
    >>> hoeffding_pairs(0.02, 0.05)
    4612
    """
    epsilon = check("epsilon", epsilon, Real(0, open_low=True))
    delta = check("delta", delta, Real(0, 1, open_low=True, open_high=True))
    bound = check("bound", bound, Real(0, open_low=True))
    with np.errstate(over="ignore", under="ignore", divide="ignore"):
        n = np.ceil(bound**2 * np.log(2 / delta) / (2 * epsilon**2))
    if not np.isfinite(n):
        raise ValueError(
            f"epsilon = {epsilon!r} and bound = {bound!r} need more pairs than a float can count "
            f"(bound^2 ln(2 / delta) / (2 epsilon^2) overflows): give a larger epsilon relative to bound"
        )
    return int(n)


# ---------------------------------------------------------------------------------------------------- MDW weights
@dataclass(frozen=True)
class MDWResult:
    """Every stage of :func:`mdw_components`: the ``scaling`` weights (Series by feature), mean ``in_class`` and
    ``out_class`` differences (Eqs. 3-4, DataFrames by class x feature, calibrated when the weights are), the
    normalised ``significance`` weights (Eq. 5, rows summing to 1) and the final ``weights`` (their product)."""

    scaling: pd.Series
    in_class: pd.DataFrame
    out_class: pd.DataFrame
    significance: pd.DataFrame
    weights: pd.DataFrame


def _pair_means(x, groups: np.ndarray, n_classes: int, kind: str, table, self_pairs: bool, D=None, missing="left out"):
    """Mean difference over the whole sample, and per class in-class and out-of-class (Eqs. 2-4); ``D``: the
    feature's precomputed difference matrix among the instances (sets only); ``missing``: as for
    :func:`mdw_components`."""
    if kind == "set":
        # one naive matrix, then block sums (no shortcut for Eq. 6)
        keep = np.array([is_known_set(s) for s in x])
        if D is None:
            D = np.zeros((len(x), len(x)))
            if keep.any():
                idx = np.flatnonzero(keep)
                D[np.ix_(idx, idx)] = set_difference([x[i] for i in idx])
        onehot = np.zeros((len(x), n_classes))
        onehot[keep, groups[keep]] = 1.0
        block = onehot.T @ D @ onehot
        counts = onehot.sum(0)
        total, n_all = block.sum(), counts.sum()
        pair_in = counts * counts - (0 if self_pairs else counts)
        within = np.diag(block)
        out_sum = block.sum(1) - within
        pair_out = counts * (n_all - counts)
        overall_pairs = n_all * n_all - (0 if self_pairs else n_all)
        with np.errstate(invalid="ignore", divide="ignore"):
            return (total / overall_pairs if overall_pairs else np.nan, within / pair_in, out_sum / pair_out)
    x = np.asarray(x, dtype=np.float64)
    as_value = missing == "value"
    if as_value and kind == "symbolic":  # one more value: overlap counts it like any other
        x = np.where(np.isnan(x), np.nanmax(x, initial=-1.0) + 1.0, x)

    def mean(a, b, same):
        total, pairs = difference_sum(a, b, kind, table=table)
        if as_value and kind == "numeric":  # difference 1 from every known value, 0 from another unknown
            ua, ub = int(np.isnan(a).sum()), int(np.isnan(b).sum())
            ka, kb = len(a) - ua, len(b) - ub
            total += ua * kb + ka * ub
            pairs = len(a) * len(b)
            if same and not self_pairs:
                pairs -= len(a)
            return total / pairs if pairs > 0 else np.nan
        if same and not self_pairs:
            pairs -= int((~np.isnan(a)).sum())
        return total / pairs if pairs > 0 else np.nan

    overall = mean(x, x, True)
    d_in, d_out = np.full(n_classes, np.nan), np.full(n_classes, np.nan)
    for c in range(n_classes):
        inside = groups == c
        d_in[c] = mean(x[inside], x[inside], True)
        d_out[c] = mean(x[inside], x[~inside], False)
    return overall, d_in, d_out


def mdw_components(
    X,
    y,
    types=None,
    *,
    calibrated: bool = True,
    self_pairs: bool = True,
    fallback: str = "uniform",
    tables=None,
    differences=None,
    missing: str = "left out",
) -> MDWResult:
    """Every stage of mean difference weighting; :func:`mdw_weights` returns the final weights. Parameters as
    there, plus ``differences``: set column name -> its precomputed ``(n, n)`` matrix of Eq. 6 among the rows
    of ``X`` (e.g. from :func:`lazylib.weighting.sets.feature_differences`), so it is computed once, and
    ``missing``: ``"left out"`` (unknown values are left out of every mean difference, :func:`mean_difference`)
    or ``"value"`` (an unknown symbolic or numeric value is one more value of its feature, counted in every
    mean difference: a numeric one differs by 1 from every known value and by 0 from another unknown; an
    unknown set is left out either way)."""
    calibrated = check("calibrated", calibrated, Boolean())
    self_pairs = check("self_pairs", self_pairs, Boolean())
    if not isinstance(X, pd.DataFrame):
        raise ValueError("mdw_weights needs a DataFrame (use lazylib.datasets.load or build one)")
    if fallback not in FALLBACKS:
        raise ValueError(f"fallback must be one of {FALLBACKS}, got {fallback!r}")
    if missing not in ("left out", "value"):
        raise ValueError(f"missing must be 'left out' or 'value', got {missing!r}")
    columns, kinds = feature_kinds(X, types)
    groups, classes = encode_labels(y, len(X))
    C, m = len(classes), len(columns)
    tables, differences = tables or {}, differences or {}
    scale = np.zeros(m)
    d_in, d_out = np.zeros((C, m)), np.zeros((C, m))
    for f, (name, kind) in enumerate(zip(columns, kinds)):
        table = tables.get(name)
        if table is not None and kind != "symbolic":
            raise ValueError(f"a difference table only applies to a symbolic feature; {name!r} is {kind}")
        overall, d_in[:, f], d_out[:, f] = _pair_means(
            column_values(X.iloc[:, f], kind), groups, C, kind, table, self_pairs, differences.get(name), missing
        )
        scale[f] = 1.0 / overall if np.isfinite(overall) and overall > 0 else 0.0
    d_in, d_out = np.nan_to_num(d_in), np.nan_to_num(d_out)
    if calibrated:
        d_in, d_out = d_in * scale, d_out * scale
    raw = np.where(d_out > d_in, d_out - d_in, 0.0)
    raw[:, scale == 0] = 0.0
    sums = raw.sum(1, keepdims=True)
    usable = (scale > 0).astype(float)
    if fallback == "uniform":
        backup = usable / max(usable.sum(), 1.0)
    else:
        backup = np.zeros(m)
    with np.errstate(invalid="ignore", divide="ignore"):
        sig = np.where(sums > 0, raw / np.where(sums > 0, sums, 1.0), backup[None, :])
    index = pd.Index(list(classes), name="class")
    frame = lambda a: pd.DataFrame(a, index=index, columns=columns)  # noqa: E731
    return MDWResult(
        pd.Series(scale, index=columns, name="scaling"),
        frame(d_in),
        frame(d_out),
        frame(sig),
        frame(sig * scale[None, :]),
    )


def mdw_weights(
    X, y, types=None, *, calibrated: bool = True, self_pairs: bool = True, fallback: str = "uniform", tables=None
) -> pd.DataFrame:
    """Mean difference weights ``w_c(f) = s(f) * sig_c(f)``: scaling ``s(f) = 1 / Delta_f(T, T)`` times the
    significance of Eq. 5, ``max(Delta_out - Delta_in, 0)`` normalised to sum 1 over the features of class ``c``.

    Parameters
    ----------
    X : DataFrame
        Training features: Categorical (symbolic, overlap), numeric (``|x - y|``) or object columns of
        ``(members, d)`` arrays (sets, Eq. 6). Unknown values are NaN (None for a set).
    y : array-like
        Class labels.
    types : dict or sequence, optional
        Feature kinds overriding the inferred ones ("nominal", "continuous", "integer", "set").
    calibrated : bool
        Compute the significance on scaled differences (Howe & Cardie apply it "to the calibrated features"),
        or on raw ones.
    self_pairs : bool
        Count the pairs of an instance with itself (difference 0) in the mean differences of a set with itself
        (Eq. 1 as written sums over all pairs of ``S x S``), or leave them out.
    fallback : {"uniform", "zero"}
        Significance of a class whose raw weights are all 0 (no feature differs more outside than inside the
        class): equal shares over the non-constant features, or all 0 (its stored instances then lie at
        distance 0 from every query).
    tables : dict, optional
        Column name -> ``(V, V)`` table of value differences for symbolic columns (codes as in the
        Categorical), e.g. MVDM's; overlap otherwise.

    Returns
    -------
    DataFrame
        One row per class (in the order of :func:`lazylib.labels.encode_labels`: category order, or
        sorted), one column per feature; pass it as ``weights=`` to any metric.

    Notes
    -----
    A feature constant in training (mean difference 0) gets scaling weight 0 and significance 0. Unknown values
    are left out of every mean difference (:func:`mean_difference`). Eq. 5's strict inequality is kept: a
    feature exactly as different inside as outside a class gets 0. The paper computes weights per class; other
    groupings are possible but not implemented.

    References
    ----------
    Howe, N. and Cardie, C., section 2, Eqs. 1-5.

    Examples
    --------
    Feature ``a`` separates the two classes, ``b`` does not:

    >>> X = pd.DataFrame({"a": [0.0, 0.1, 1.0, 1.1], "b": [0.0, 1.0, 0.0, 1.0]})
    >>> w = mdw_weights(X, ["x", "x", "y", "y"])
    >>> list(w.index), w.round(3).to_numpy().tolist()  # mean difference of a: 8.4 / 16, scaling 1 / 0.525
    (['x', 'y'], [[1.905, 0.0], [1.905, 0.0]])
    """
    return mdw_components(
        X, y, types, calibrated=calibrated, self_pairs=self_pairs, fallback=fallback, tables=tables
    ).weights


# ---------------------------------------------------------------------------------------------------- the metric


class MDW(LearnedWeights, FeatureDifference):
    """:class:`~lazylib.weighting.FeatureDifference` with mean difference weights
    (:func:`~lazylib.weighting.mdw_weights`), one vector per class of the stored instance; parameters ``calibrated``,
    ``self_pairs``, ``fallback`` as there, ``scale`` as in
    :class:`~lazylib.weighting.FeatureDifference`.

    Parameters
    ----------
    calibrated, self_pairs : bool
        As for :func:`~lazylib.weighting.mdw_weights`.
    fallback : {"uniform", "zero"}
        As for :func:`~lazylib.weighting.mdw_weights`.
    scale : {"range", "raw"}
        As for :class:`~lazylib.weighting.FeatureDifference`.
    stages : {"both", "scaling", "significance"}
        Apply both stages (MDW), only the scaling weights (one vector for every class), or only the per-class
        significance weights (on ``scale``'s differences, without the scaling weights; pass
        ``calibrated=False`` so that the scaling takes no part in them either): the ablation of the two stages.
    weights : None
        Must be None: the weights are learnt.
    working_memory : float
        Bound, in MiB, on the temporaries of one chunk (as for :class:`lazylib.metrics.Metric`).
    missing : {"one", "value"}
        As for :class:`~lazylib.weighting.FeatureDifference`: ``"one"`` leaves unknown values out of the mean
        differences (then an unknown value's difference 1 is weighted by the inverse of a mean difference it took no
        part in), ``"value"`` counts them as one more value (``missing="value"`` of
        :func:`~lazylib.weighting.mdw_components`).

    Attributes
    ----------
    components_ : MDWResult
        The mean differences and significances behind the weights (:func:`~lazylib.weighting.mdw_components`).
    learned_ : ndarray of shape (C, ``n_features_in_``)
        The learnt per-class weights, which ``fit`` sets as ``weights_``.

    Notes
    -----
    Set-valued features are weighted as the others, from the (n, n) matrix of their training differences
    (Eq. 6), computed once at ``fit`` for both their scale and their mean differences. With ``calibrated=True``
    (the default) the distances between known values do not depend on ``scale``: a feature's scaling weight is
    the inverse of its mean difference in whatever units (an unknown value's difference 1 is in the unit of
    ``scale``, so it does).

    Examples
    --------
    >>> X = pd.DataFrame({"a": [0.0, 0.1, 1.0, 1.1], "b": [0.0, 1.0, 0.0, 1.0]})
    >>> MDW().fit(X, list("xxyy")).weights_.round(3).tolist()  # a divided by its range 1.1 first
    [[2.095, 0.0], [2.095, 0.0]]
    """

    needs_labels = True

    def __init__(
        self,
        *,
        calibrated: bool = True,
        self_pairs: bool = True,
        fallback: str = "uniform",
        scale: str = "range",
        stages: str = "both",
        weights=None,
        working_memory: float = WORKING_MEMORY,
        missing: str = "one",
    ):
        super().__init__(scale=scale, weights=weights, working_memory=working_memory, missing=missing)
        self.calibrated, self.self_pairs, self.fallback = calibrated, self_pairs, fallback
        self.stages = stages

    _parameter_constraints: dict = {
        **FeatureDifference._parameter_constraints,
        "calibrated": [Boolean()],
        "self_pairs": [Boolean()],
        "fallback": [Choice(FALLBACKS)],
        "stages": [Choice(STAGES)],
        "weights": [None],
    }

    def _fit(self, Z, y):
        differences = self._set_differences(Z)
        self._fit_terms(Z, differences)
        scaled = {
            self.columns_[a]: np.nan_to_num(D) / (self.scales_[a] if self.scales_[a] > 0 else np.inf)
            for a, D in differences.items()
        }
        kinds = ["set" if k == SET else k for k in self.kinds_]
        self.components_ = mdw_components(
            self._frame(Z),
            y,
            kinds,
            calibrated=self.calibrated,
            self_pairs=self.self_pairs,
            fallback=self.fallback,
            differences=scaled,
            missing="value" if self.missing == "value" else "left out",
        )
        comp = self.components_
        learned = {
            "both": comp.weights.to_numpy(),
            "scaling": np.broadcast_to(comp.scaling.to_numpy(), comp.weights.shape).copy(),
            "significance": comp.significance.to_numpy(),
        }
        self.learned_ = learned[self.stages]


class MDWMVDM(LearnedWeights, MVDM):
    """MVDM (:class:`lazylib.metrics.MVDM`) with mean difference weights computed on MVDM's own value
    differences (Howe & Cardie's "MDW+MVDM", Table 2): each feature's mean differences are those of the table
    ``T[u, v] = sum_c (P(c|u) - P(c|v))^2`` over the training values (value counts, ``O(n + m^2)``). A table
    that would not fit in ``working_memory`` (with the others) is computed a block of rows at a
    time where it is read (``_ValueDifferences``): the same weights to rounding, within the bound.

    Parameters
    ----------
    unseen : {"zero", "uniform"}
        As for :class:`lazylib.metrics.MVDM`.
    calibrated, self_pairs : bool
        As for :func:`mdw_weights`.
    fallback : {"uniform", "zero"}
        As for :func:`mdw_weights`.
    weights : None
        Must be None: the weights are learnt.
    working_memory : float
        Bound, in MiB, on the temporaries of one chunk (as for :class:`lazylib.metrics.Metric`).

    Attributes
    ----------
    components_ : MDWResult
        The mean differences and significances behind the weights (:func:`mdw_components`).
    learned_ : ndarray of shape (C, ``n_features_in_``)
        The learnt per-class weights, which ``fit`` sets as ``weights_``.

    Examples
    --------
    >>> X = pd.DataFrame({"a": pd.Categorical(list("ppqq")), "b": pd.Categorical(list("pqpq"))})
    >>> MDWMVDM().fit(X, list("xxyy")).weights_.round(3).tolist()
    [[1.0, 0.0], [1.0, 0.0]]
    """

    needs_labels = True

    def __init__(
        self,
        *,
        unseen: str = "zero",
        calibrated: bool = True,
        self_pairs: bool = True,
        fallback: str = "uniform",
        weights=None,
        working_memory: float = WORKING_MEMORY,
    ):
        super().__init__(unseen=unseen, weights=weights, working_memory=working_memory)
        self.calibrated, self.self_pairs, self.fallback = calibrated, self_pairs, fallback

    _parameter_constraints: dict = {
        **MVDM._parameter_constraints,
        "calibrated": [Boolean()],
        "self_pairs": [Boolean()],
        "fallback": [Choice(FALLBACKS)],
        "weights": [None],
    }

    def _fit(self, Z, y):
        super()._fit(Z, y)
        blocked = self._blocked_tables()
        cols, tables = {}, {}
        for a, (name, att) in enumerate(zip(self.columns_, self.attributes_)):
            rows = att.rows(Z[:, a])
            P = att.P * np.sqrt(att.scale)
            table = _ValueDifferences(P, self.working_memory * 2**20 / 4)
            tables[name] = table if a in blocked else table.rows(slice(None))
            cols[name] = pd.Categorical.from_codes(rows, categories=range(len(P)))
        self.components_ = mdw_components(
            pd.DataFrame(cols),
            y,
            calibrated=self.calibrated,
            self_pairs=self.self_pairs,
            fallback=self.fallback,
            tables=tables,
        )
        self.learned_ = self.components_.weights.to_numpy()

    def _blocked_tables(self) -> set[int]:
        """The columns whose (V, V) table of value differences is computed a block at a time
        (:class:`_ValueDifferences`): the largest, until the tables built whole fit together in
        ``working_memory`` (the bound under which they were always built whole; an ID-like column, one value per
        instance, never is)."""
        budget = self.working_memory * 2**20
        sizes = sorted(((8.0 * len(att.P) ** 2, a) for a, att in enumerate(self.attributes_)), reverse=True)
        total, blocked = sum(size for size, _ in sizes), set()
        for size, a in sizes:
            if total <= budget:
                break
            blocked.add(a)
            total -= size
        return blocked


__all__ = [
    "MDW",
    "MDWMVDM",
    "MDWResult",
    "STAGES",
    "difference_sum",
    "hoeffding_pairs",
    "mdw_components",
    "mdw_weights",
    "mean_difference",
]
