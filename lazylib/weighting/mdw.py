"""Mean difference weighting (Howe & Cardie, Eqs. 1-6) and information-gain weighting (Daelemans et al. 1994).

MDW needs only the expected difference of each feature between two sets of instances (Eq. 1), estimated from
the training data (Eq. 2). This module computes it exactly and fast for the usual feature kinds:

- *numeric* features, ``delta = |x - y|``: sort one sample and take prefix sums, ``O(n log n)``;
- *symbolic* features, ``delta`` = overlap (or any table of value differences, such as MVDM's): count the
  values of each sample, then sum over pairs of values, ``O(n + m^2)`` for ``m`` values;
- *set* features, ``delta`` = the smallest vector difference between members (Eq. 6): no shortcut is known, so
  every pair of sets is compared (:func:`set_difference`).

The weights are then the scaling weights (``1 /`` mean difference over the training set) times per-class
significance weights (Eqs. 3-5), one vector per class, used with the class of the *stored* instance; every
metric of :mod:`lazylib.metrics` accepts such per-class weights (``weights=`` a ``(C, m)`` array or a DataFrame
indexed by class). :class:`FeatureDifference`, :class:`IGWeighted`, :class:`MDW` and :class:`MDWMVDM` are the
distances of Howe & Cardie's Tables 1 and 2.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from lazylib._validation import Boolean, Choice, Integer, Real, check, check_random_state
from lazylib.encoding import (
    LINEAR_TYPES,
    NOMINAL,
    SET,
    TYPES,
    SetTable,
    column_values,
    encode,
    encode_labels,
    is_known_set,
    is_set_column,
    known_range,
)
from lazylib.metrics import WORKING_MEMORY, AttributeMetric
from lazylib.metrics.extend import (
    Half,
    OverlapAttribute,
    PowerAttribute,
    SetAttribute,
    centre,
    check_weights,
    min_member_distances,
)
from lazylib.metrics.vdm import MVDM

#: Feature kinds of :func:`mean_difference`.
KINDS = ("numeric", "symbolic", "set")
FALLBACKS = ("uniform", "zero")
#: How :class:`FeatureDifference` scales numeric and set differences.
SCALES = ("range", "raw")
#: When every numeric feature has at most this many distinct training values (and none is set-valued), they are
#: compared through tables of their differences (:class:`AbsoluteTable`): the whole distance is then the engine's
#: matrix product and goes through its search. Otherwise term by term (a product beside direct terms costs more
#: than it saves: segment's leave-one-out 1.3 s -> 5.7 s with its few-valued features alone in tables).
TABLE_VALUES = 32
#: The stages of MDW that :class:`MDW` applies: both (the method), or one of them alone (an ablation).
STAGES = ("both", "scaling", "significance")
#: Readings of an unknown value by :class:`FeatureDifference`, :class:`IGWeighted` and :class:`MDW` (``missing``).
MISSING = ("one", "value")


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


def _symbolic_sum(a: np.ndarray, b: np.ndarray, table=None) -> float:
    """``sum_i sum_j delta(a_i, b_j)`` from value counts: ``n_a n_b - sum_v c_a(v) c_b(v)`` for overlap, or
    ``c_a^T T c_b`` for a table ``T`` of value differences indexed by integer codes."""
    if table is None:
        values, inverse = np.unique(np.concatenate([a, b]), return_inverse=True)
        ca = np.bincount(inverse[: len(a)], minlength=len(values))
        cb = np.bincount(inverse[len(a) :], minlength=len(values))
        return float(len(a) * len(b) - ca @ cb)
    T = np.asarray(table, dtype=np.float64)
    ca = np.bincount(a.astype(np.intp), minlength=len(T)).astype(np.float64)
    cb = np.bincount(b.astype(np.intp), minlength=len(T)).astype(np.float64)
    return float(ca @ T @ cb)


def _known_values(x) -> np.ndarray:
    x = np.asarray(x, dtype=np.float64).ravel()
    return x[~np.isnan(x)]


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
    a, b = _known_values(a), _known_values(b)
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


def sampled_mean_difference(a, b, n_pairs: int, kind: str = "numeric", *, n_estimates: int = 1, random_state=None):
    """Estimates of ``Delta(S1, S2)`` (Eq. 1) from ``n_pairs`` pairs drawn uniformly with replacement: the
    randomised approximation the paper offers for large training sets.

    Parameters
    ----------
    a, b : array-like
        Two samples of one feature (unknown values are left out first).
    n_pairs : int
        Pairs per estimate (:func:`hoeffding_pairs` gives a number with a guarantee).
    kind : {"numeric", "symbolic"}
        ``|x - y|`` or overlap.
    n_estimates : int
        Independent estimates to return.
    random_state : int, Generator or None
        Seed or generator of the draws: an int seeds a fresh generator (the same draws at every call), a Generator
        is used as it is (its stream continues), None draws fresh entropy.

    Returns
    -------
    ndarray of shape (n_estimates,)

    Notes
    -----
    The draws are made block by block (about a million pairs at a time), so memory stays bounded whatever
    ``n_estimates``.

    References
    ----------
    Howe, N. and Cardie, C., section 2 (scaling algorithm).

    Examples
    --------
    >>> est = sampled_mean_difference([0.0, 1.0], [0.0, 1.0], 10_000, random_state=0)
    >>> abs(float(est[0]) - 0.5) < 0.02
    True
    """
    if kind not in ("numeric", "symbolic"):
        raise ValueError(f"kind must be 'numeric' or 'symbolic' (sets have no sampled form here), got {kind!r}")
    n_pairs = check("n_pairs", n_pairs, Integer(low=1))
    n_estimates = check("n_estimates", n_estimates, Integer(low=1))
    a, b = _known_values(a), _known_values(b)
    if len(a) == 0 or len(b) == 0:
        raise ValueError("both samples need a known value")
    rng = check_random_state(random_state)
    out = np.empty(n_estimates)
    block = max(1, 2**20 // n_pairs)  # estimates per block: about 8 MiB of draws at a time
    for start in range(0, n_estimates, block):
        rows = min(block, n_estimates - start)
        i = rng.integers(0, len(a), (rows, n_pairs))
        j = rng.integers(0, len(b), (rows, n_pairs))
        d = np.abs(a[i] - b[j]) if kind == "numeric" else (a[i] != b[j]).astype(np.float64)
        out[start : start + rows] = d.mean(axis=1)
    return out


def set_difference(A, B=None, *, block: int = 256) -> np.ndarray:
    """``delta(S1, S2) = min_{v1 in S1, v2 in S2} ||v1 - v2||`` (Eq. 6) for every pair of sets.

    Parameters
    ----------
    A, B : sequence of arrays of shape (members, d), or one array of shape (n, members, d)
        Sets of d-dimensional vectors (sizes may differ between sets). ``B`` defaults to ``A``.

    Returns
    -------
    ndarray of shape (len(A), len(B))

    Notes
    -----
    "The ordinary vector difference" is read as the Euclidean distance between members. The sets go into
    :class:`lazylib.encoding.SetTable` form and through the kernel of the metrics' set term
    (:func:`lazylib.metrics._sets.min_member_distances`): all members of a block of sets of ``A`` against all
    members of ``B`` in one product, the minimum per pair of owners by ``np.minimum.reduceat``, so no Python loop
    runs over pairs. ``block``: sets of ``A`` per block (at most; fewer when the block's member-pair matrix would
    exceed the default working memory of the metrics). Members are centred on their mean first (differences
    unchanged), and squared distances near zero recomputed from direct differences, so identical members are at
    exactly 0.

    References
    ----------
    Howe, N. and Cardie, C., section 3, Eq. 6.

    Examples
    --------
    >>> A = [np.array([[0.0, 0.0], [5.0, 5.0]]), np.array([[3.0, 4.0]])]
    >>> set_difference(A)
    array([[0.        , 2.23606798],
           [2.23606798, 0.        ]])
    """
    block = check("block", block, Integer(low=1))
    A = [np.atleast_2d(np.asarray(s, dtype=np.float64)) for s in A]
    B = A if B is None else [np.atleast_2d(np.asarray(s, dtype=np.float64)) for s in B]
    if any(len(s) == 0 for s in A) or any(len(s) == 0 for s in B):
        raise ValueError("every set needs at least one member")
    ta, tb = SetTable.from_sets(A), SetTable.from_sets(B)
    shift = centre(np.vstack([ta.members, tb.members]))  # centred: fewer sums near cancellation
    budget = min(8 * block * int(ta.sizes.max()) * len(tb.members), WORKING_MEMORY * 2**20)
    return min_member_distances(
        ta, np.arange(len(A), dtype=np.float64), tb, np.arange(len(B), dtype=np.float64), shift=shift, max_bytes=budget
    )


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


def feature_kinds(X, types=None) -> tuple[list[str], list[str]]:
    """``(columns, kinds)`` of a DataFrame for :func:`mdw_weights`: Categorical / bool columns are symbolic,
    numeric ones numeric, object columns holding arrays are sets; ``types`` (dict or sequence of
    "nominal" / "continuous" / "integer" / "set", or the kinds of :data:`KINDS`) overrides."""
    columns = [str(c) for c in X.columns]
    if types is None:
        kinds = []
        for c in X.columns:
            col = X[c]
            if isinstance(col.dtype, pd.CategoricalDtype) or pd.api.types.is_bool_dtype(col.dtype):
                kinds.append("symbolic")
            elif pd.api.types.is_numeric_dtype(col.dtype):
                kinds.append("numeric")
            elif is_set_column(col):  # arrays, with None or NaN for an unknown set
                kinds.append("set")
            else:
                raise ValueError(f"column {c!r} has dtype {col.dtype}: use Categorical, numbers or arrays (sets)")
    else:
        given = [types[c] for c in X.columns] if isinstance(types, dict) else list(types)
        if len(given) != len(columns):
            raise ValueError(f"types has {len(given)} entries but X has {len(columns)} columns")
        alias = {"nominal": "symbolic", "continuous": "numeric", "integer": "numeric"}
        kinds = [alias.get(t, t) for t in given]
        bad = [t for t in kinds if t not in KINDS]
        if bad:
            raise ValueError(f"unknown feature types {bad}; expected nominal, continuous, integer or set")
    return columns, kinds


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
        One row per class (in the order of :func:`lazylib.encoding.encode_labels`: category order, or
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


# ---------------------------------------------------------------------------------------------- information gain
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
        out[c] = pd.Categorical.from_codes(codes, categories=list(range(n_bins)), ordered=True)
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
        V = int(codes.max()) + 1
        counts = np.bincount(codes * C + groups, minlength=V * C).reshape(V, C).astype(float)
        p_v = counts.sum(1) / len(groups)
        gains.append(h - float(p_v @ _entropy(counts)))
    return pd.Series(np.maximum(gains, 0.0), index=[str(c) for c in X.columns], name="information_gain")


# ---------------------------------------------------------------------------------------------------- the metrics
class _UnknownAsValue(PowerAttribute):
    """``|x - y| / scale`` with an unknown value one more value: 1 from every known value, 0 from another
    unknown (``missing="value"`` of :class:`FeatureDifference`)."""

    def direct(self, xq, xs) -> np.ndarray:
        """The (len(xq), len(xs)) matrix of terms (1 against an unknown value, 0 between two unknowns)."""
        term = super().direct(xq, xs)
        term[np.isnan(xq)[:, None] & np.isnan(xs)[None, :]] = 0.0
        return term


class AbsoluteTable(PowerAttribute):
    """``|x - y| / scale`` of a numeric feature (unknown values at difference 1), as :class:`PowerAttribute` with
    ``r = 1``, written as a table lookup over the distinct stored values ``v_j``: the query's row
    ``psi(x) = (|x - v_j| / scale)_j`` (1 for an unknown stored value, all 1 for an unknown query), the stored
    value's one-hot column ``chi(y)``. The term is then bilinear, so the engine's matrix product and search
    take it; each entry is the term of the direct path, computed by the same expression. With
    ``missing="value"`` two unknown values are at difference 0 (an unknown value is one more value, the reading
    of ``missing="value"`` of issue #38's item 6); with ``"one"`` at 1, as :class:`PowerAttribute`.

    >>> t = AbsoluteTable(0.0, 2.0)
    >>> q, s = t.pair(np.array([0.0, np.nan]), np.array([1.0, 3.0, np.nan]))
    >>> (q.emb @ s.emb.T).tolist() == t.direct(np.array([0.0, np.nan]), np.array([1.0, 3.0, np.nan])).tolist()
    True
    >>> q, s = AbsoluteTable(0.0, 2.0, missing="value").pair(np.array([np.nan]), np.array([1.0, np.nan]))
    >>> (q.emb @ s.emb.T).tolist()
    [[1.0, 0.0]]
    """

    bilinear = True
    separable = False  # the table's columns are the stored side's values

    def __init__(self, center: float = 0.0, scale: float = 1.0, missing: str = "one"):
        super().__init__(1.0, center, scale)
        self.missing = missing

    def direct(self, xq, xs) -> np.ndarray:
        """The (len(xq), len(xs)) matrix of terms, as the table gives them (two unknown values at 0 under
        ``missing="value"``)."""
        term = super().direct(xq, xs)
        if self.missing == "value":
            term[np.isnan(xq)[:, None] & np.isnan(xs)[None, :]] = 0.0
        return term

    def pair(self, xq, xs) -> tuple[Half, Half]:
        """Query and stored halves: rows of the difference table and one-hot columns of the stored values.

        Parameters
        ----------
        xq, xs : ndarray
            A column of query values and one of stored values (NaN unknown).

        Returns
        -------
        tuple of Half
            The query's and the stored side's.
        """
        known = ~np.isnan(xs)
        values, rows = np.unique(xs[known], return_inverse=True)
        width = len(values) + 1  # the last column: an unknown stored value
        psi = np.ones((len(xq), width))
        psi[:, :-1] = self.direct(xq, values)
        if self.missing == "value":
            psi[np.isnan(xq), -1] = 0.0
        chi = np.zeros((len(xs), width))
        chi[np.flatnonzero(known), rows] = 1.0
        chi[~known, -1] = 1.0
        unknown = np.zeros(len(xq), bool), np.zeros(len(xs), bool)
        return Half(np.zeros(len(xq)), psi, unknown[0]), Half(np.zeros(len(xs)), chi, unknown[1])


class FeatureDifference(AttributeMetric):
    """``D(x, y) = sum_f w_f delta_f(x_f, y_f)`` with ``delta_f = |x - y| / range_f`` for numeric features,
    overlap for symbolic ones and Eq. 6 (the smallest Euclidean distance between members) divided by the largest
    training set difference for set-valued ones: the intrinsic differences and sum combination of Howe &
    Cardie's Tables 1 and 2 and of their image task.

    Parameters
    ----------
    scale : {"range", "raw"}
        ``"range"``: each numeric and set difference is divided by the largest difference between two training
        values of its feature (for a numeric feature its range), so every training difference lies in [0, 1]
        as overlap does; ``"raw"``: differences in the data's units.
    weights : array-like or DataFrame, optional
        One vector, or one per class of the stored instance (as :func:`mdw_weights` gives).
    working_memory : float
        Bound, in MiB, on the temporaries of one chunk (as for :class:`lazylib.metrics.Metric`).
    missing : {"one", "value"}
        The reading of an unknown symbolic or numeric value: ``"one"`` (HEOM's rule: it differs by 1 from
        everything, another unknown included; :class:`MDW` leaves it out of its mean differences), or
        ``"value"`` (Part V's reading of unknowns, :func:`lazylib.protocols.howe_cardie.unknown_as_value`,
        extended to numbers: one more value of its feature, differing by 1 from every known value and by 0
        from another unknown, and counted as a value in :class:`MDW`'s mean differences and
        :class:`IGWeighted`'s gain). An unknown set differs by 1 from everything under both.

    Attributes
    ----------
    range_ : ndarray of shape (``n_features_in_``,)
        Training range of each feature (NaN for a set-valued one).
    scales_ : ndarray of shape (``n_features_in_``,)
        The divisor of each feature's difference: its range, or for a set-valued feature its largest training
        difference, under ``scale="range"``; 1 under ``"raw"`` and for symbolic features.

    Notes
    -----
    The paper names the intrinsic differences only for its set features; we take ``|x - y|`` and Eq. 6 divided
    by their largest training value (so the unweighted k-NN baseline is not dominated by units; ``scale="raw"``
    keeps the units, the reading of :mod:`lazylib.weighting.sets`) and overlap, combined by a sum (Eq. 1
    averages the differences themselves, so weights calibrated by MDW are meant for a sum, and MDW's distances
    between known values are the same under either ``scale``: its scaling weights undo any unit). The largest
    set difference is exact, every pair of training sets compared at ``fit``: the analogue of a range, for as
    much work as one leave-one-out pass. An unknown value (NaN; None or an empty array for a set) gives the
    feature difference 1, as in HEOM, whatever ``scale`` (:mod:`lazylib.weighting.sets` reads it as 0 instead).
    A feature constant in training contributes nothing.

    References
    ----------
    Howe, N. and Cardie, C., sections 1-3, Eq. 6; Wilson, D. R. and Martinez, T. R. (1997), Eqs. 3-7 (HEOM).

    Examples
    --------
    >>> X = pd.DataFrame({"colour": pd.Categorical(["red", "blue"]), "size": [1.0, 3.0]})
    >>> FeatureDifference().fit(X).pairwise(X)
    array([[0., 2.],
           [2., 0.]])

    A set-valued column holds ``(members, d)`` arrays; the largest training set difference here is 5:

    >>> S = pd.DataFrame({"s": [np.array([[0.0, 0.0], [9.0, 9.0]]), np.array([[3.0, 4.0]]), None]})
    >>> FeatureDifference().fit(S).pairwise(S)
    array([[0., 1., 1.],
           [1., 0., 1.],
           [1., 1., 1.]])
    """

    _fixed_root = 1.0
    accepts = TYPES

    def __init__(
        self, *, scale: str = "range", weights=None, working_memory: float = WORKING_MEMORY, missing: str = "one"
    ):
        super().__init__(weights=weights, working_memory=working_memory)
        self.scale = scale
        self.missing = missing

    _parameter_constraints: dict = {
        **AttributeMetric._parameter_constraints,
        "scale": [Choice(SCALES)],
        "missing": [Choice(MISSING)],
    }

    def _fit(self, Z, y):
        self._fit_terms(Z, self._set_differences(Z, full=False) if self.scale == "range" else {})

    def _fit_terms(self, Z, differences: dict):
        """One term per feature; ``differences``: set column index -> its largest training difference, or its
        (n, n) matrix of training differences (``"range"`` only)."""
        lo, hi = known_range(Z)
        self.range_ = np.where(np.asarray(self.kinds_) == SET, np.nan, hi - lo)
        self.scales_ = np.ones(len(self.kinds_))
        self.attributes_ = []
        kinds = np.asarray(self.kinds_)
        tabled = not (kinds == SET).any() and all(
            len(np.unique(Z[:, a][~np.isnan(Z[:, a])])) <= TABLE_VALUES for a in np.flatnonzero(kinds != NOMINAL)
        )
        for a, kind in enumerate(self.kinds_):
            if kind == NOMINAL:
                self.attributes_.append(OverlapAttribute(self.missing))
                continue
            if self.scale == "range":
                self.scales_[a] = self.range_[a] if kind != SET else float(np.nanmax(differences[a], initial=0.0))
            if kind == SET:
                table = self.sets_[a]
                shift = centre(table.members)
                self.attributes_.append(SetAttribute(self.scales_[a], shift, unknown=1.0))
            elif tabled:
                self.attributes_.append(AbsoluteTable(lo[a], self.scales_[a], missing=self.missing))
            else:
                term = _UnknownAsValue if self.missing == "value" else PowerAttribute
                self.attributes_.append(term(1.0, lo[a], self.scales_[a]))

    def _set_differences(self, Z, full: bool = True) -> dict:
        """Set column index -> the (n, n) matrix of Eq. 6 among the training rows (NaN where a set is unknown),
        or with ``full=False`` only its largest value (computed block by block)."""
        out = {}
        budget = self.working_memory * 2**20
        for a in np.flatnonzero(np.asarray(self.kinds_) == SET):
            table, x = self.sets_[a], Z[:, a]
            if full:
                out[a] = min_member_distances(table, x, table, x, max_bytes=budget)
                continue
            step = max(1, int(budget // max(8 * (len(table.members) + 1) * int(table.sizes.max(initial=1)), 1)))
            out[a] = max(
                (
                    float(
                        np.nanmax(min_member_distances(table, x[i : i + step], table, x, max_bytes=budget), initial=0.0)
                    )
                    for i in range(0, len(x), step)
                ),
                default=0.0,
            )
        return out

    def _frame(self, Z) -> pd.DataFrame:
        """The training data as a DataFrame of the intrinsic scale: numeric columns and set members divided by
        the column's scale (see ``scale``), sets as (members, d) arrays (None when unknown)."""
        cols = {}
        for a, (name, kind) in enumerate(zip(self.columns_, self.kinds_)):
            scale = self.scales_[a] if self.scales_[a] > 0 else np.inf
            if kind == NOMINAL:
                cols[name] = pd.Categorical.from_codes(
                    np.nan_to_num(Z[:, a], nan=-1).astype(int), categories=range(int(np.nanmax(Z[:, a], initial=0)) + 1)
                )
            elif kind == SET:
                cols[name] = pd.Series(
                    [None if s is None else s / scale for s in map(self.sets_[a].get, Z[:, a])], dtype=object
                )
            else:  # a constant feature: all 0, its unknown values included (as IG and MDW have always seen it)
                cols[name] = Z[:, a] / scale if self.scales_[a] > 0 else np.zeros(len(Z))
        return pd.DataFrame(cols)


class _Learned:
    """Mixin: weights learnt in ``_fit`` (``self.learned_``) replace the ``weights`` parameter."""

    def fit(self, X, y=None, *, types=None):
        self._validate_params()  # weights: None only, the weights are learnt
        super().fit(X, y, types=types)
        self.weights_ = check_weights(self.learned_, self.columns_, self.classes_)
        return self


class IGWeighted(_Learned, FeatureDifference):
    """:class:`FeatureDifference` with every feature weighted by its information gain
    (:func:`information_gain`, continuous features in ``n_bins`` equal-width bins): Howe & Cardie's "IG".
    Set-valued features are refused: information gain needs values that can be counted.

    Parameters
    ----------
    n_bins : int
        Equal-width bins of a continuous feature for its information gain.
    scale : {"range", "raw"}
        As for :class:`FeatureDifference`.
    weights : None
        Must be None: the weights are learnt.
    working_memory : float
        Bound, in MiB, on the temporaries of one chunk (as for :class:`lazylib.metrics.Metric`).
    missing : {"one", "value"}
        As for :class:`FeatureDifference` (the gain counts an unknown value as one more value under both).

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


class MDW(_Learned, FeatureDifference):
    """:class:`FeatureDifference` with mean difference weights (:func:`mdw_weights`), one vector per class of
    the stored instance; parameters ``calibrated``, ``self_pairs``, ``fallback`` as there, ``scale`` as in
    :class:`FeatureDifference`.

    Parameters
    ----------
    calibrated, self_pairs : bool
        As for :func:`mdw_weights`.
    fallback : {"uniform", "zero"}
        As for :func:`mdw_weights`.
    scale : {"range", "raw"}
        As for :class:`FeatureDifference`.
    stages : {"both", "scaling", "significance"}
        Apply both stages (MDW), only the scaling weights (one vector for every class), or only the per-class
        significance weights (on ``scale``'s differences, without the scaling weights; pass
        ``calibrated=False`` so that the scaling takes no part in them either): the ablation of the two stages.
    weights : None
        Must be None: the weights are learnt.
    working_memory : float
        Bound, in MiB, on the temporaries of one chunk (as for :class:`lazylib.metrics.Metric`).
    missing : {"one", "value"}
        As for :class:`FeatureDifference`: ``"one"`` leaves unknown values out of the mean differences (then an
        unknown value's difference 1 is weighted by the inverse of a mean difference it took no part in),
        ``"value"`` counts them as one more value (``missing="value"`` of :func:`mdw_components`).

    Attributes
    ----------
    components_ : MDWResult
        The mean differences and significances behind the weights (:func:`mdw_components`).
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


class MDWMVDM(_Learned, MVDM):
    """MVDM (:class:`lazylib.metrics.MVDM`) with mean difference weights computed on MVDM's own value
    differences (Howe & Cardie's "MDW+MVDM", Table 2): each feature's mean differences are those of the table
    ``T[u, v] = sum_c (P(c|u) - P(c|v))^2`` over the training values (value counts, ``O(n + m^2)``).

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
        cols, tables = {}, {}
        for a, (name, att) in enumerate(zip(self.columns_, self.attributes_)):
            rows = att.rows(Z[:, a])
            P = att.P * np.sqrt(att.scale)
            sq = (P * P).sum(1)
            tables[name] = np.maximum(sq[:, None] + sq[None, :] - 2.0 * P @ P.T, 0.0)
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


__all__ = [
    "STAGES",
    "hoeffding_pairs",
    "sampled_mean_difference",
    "FeatureDifference",
    "IGWeighted",
    "KINDS",
    "MDW",
    "MDWMVDM",
    "MDWResult",
    "SCALES",
    "difference_sum",
    "equal_width_bins",
    "feature_kinds",
    "information_gain",
    "mdw_components",
    "mdw_weights",
    "mean_difference",
    "set_difference",
]
