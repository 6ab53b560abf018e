"""Votes among the nearest neighbours under the tie rules of :mod:`lazylib.search`, for every estimator that votes
(k-NN, VFI5, sub-space mapping, selection, weighting) without importing the k-NN estimator: the neighbourhood of
each query by class (:class:`Neighbourhood`), the decision under a tie rule (:func:`decide`), the exact
probability of each class winning under ``ties="random"`` (:func:`class_probabilities`), and the votes of rows of
distances (:func:`vote`, :func:`vote_nearest`, :func:`correct`). The rules themselves are described in
:mod:`lazylib.neighbors`; the search that finds the tied instances is :mod:`lazylib.search`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from lazylib._validation import Integer, Real, check, check_random_state
from lazylib.search import (
    TIE_RULES,
    TIE_TOLERANCE,
    Candidates,
    Groups,
    Nearest,
    check_ties,
    kth_position,
    row_starts,
    select,
    tolerance,
    within,
)


def vote_priority(class_counts: np.ndarray) -> np.ndarray:
    """Fractional tie-breaker in (0, 1): higher for classes more frequent in training, then lower index."""
    C = len(class_counts)
    order = np.lexsort((np.arange(C), -class_counts))  # most frequent first, then lowest index
    rank = np.empty(C)
    rank[order] = np.arange(C)
    return (C - rank) / (C + 1)


@dataclass
class Neighbourhood:
    """What a tie rule needs to know of each query's nearest stored instances, by class.

    ``strict`` (n, C): how many stored instances of each class are strictly nearer than the k-th smallest
    distance (beyond the tolerance; fewer than k in all); ``tied`` (n, C): how many are tied with it (at least
    one); ``first`` (n, C), for the "first" rule only: the classes of its k voters (the strictly nearer ones and
    the tied ones with the lowest stored indices).
    """

    strict: np.ndarray
    tied: np.ndarray
    first: np.ndarray | None = None


def neighbourhood(
    rows,
    cols,
    sums,
    n: int,
    y: np.ndarray,
    C: int,
    k: int,
    tie_tolerance: float = TIE_TOLERANCE,
    *,
    first: bool = False,
    groups: Groups | None = None,
    exclude: np.ndarray | None = None,
) -> Neighbourhood:
    """:class:`Neighbourhood` of ``n`` queries from the candidates of
    :meth:`lazylib.metrics.Metric.nearest_chunks` (``(rows, cols, sums)`` sorted by row, then sum, then column,
    holding at least each row's k nearest and everything tied with the k-th, e.g. from a search for a larger k;
    ``rows`` from 0).

    With ``groups`` (from :meth:`~lazylib.metrics.Metric.nearest_groups`), ``cols`` index groups of identical
    stored instances, counted by class without listing their members. ``exclude`` (n,): a stored instance
    left out of each query's neighbours (leave-one-out: the query itself; the candidates must then come from a
    search for k + 1).
    """
    groups = Groups.identity(len(y)) if groups is None else groups
    size = groups.size[cols]
    if exclude is not None:
        own = cols == groups.of[exclude][rows]  # the pair holding the query's own instance
        size = size - own
    starts = row_starts(rows, n)
    kth = sums[kth_position(rows, size, starts, n, k)]
    tol = tolerance(kth, tie_tolerance)[rows]
    nearer = sums < kth[rows] - tol
    near = sums <= kth[rows] + tol
    if groups.trivial:
        key = rows * C + y[cols]
        weight = size.astype(np.float64)
        strict = np.bincount(key[nearer], weight[nearer], minlength=n * C).reshape(n, C)
        tied = np.bincount(key[near & ~nearer], weight[near & ~nearer], minlength=n * C).reshape(n, C)
    else:
        per_group = groups.class_counts(y, C)
        strict, tied = np.zeros((n, C)), np.zeros((n, C))
        for c in range(C):
            strict[:, c] = np.bincount(rows[nearer], per_group[cols[nearer], c], minlength=n)
            tied[:, c] = np.bincount(rows[near & ~nearer], per_group[cols[near & ~nearer], c], minlength=n)
        if exclude is not None:  # the query's own instance: one member of its class in its group
            me = np.flatnonzero(own & near)
            mine, cls, closer = rows[me], y[exclude[rows[me]]], nearer[me]
            np.subtract.at(strict, (mine[closer], cls[closer]), 1.0)
            np.subtract.at(tied, (mine[~closer], cls[~closer]), 1.0)
    voters = None
    if first:
        r, c, v = groups.expand(rows, cols, sums, limit=None if groups.trivial else k + 1)
        keep = np.ones(len(r), bool) if exclude is None else c != exclude[r]
        r, c, v = within(r[keep], c[keep], v[keep], n, k, tie_tolerance)  # the candidates may be a superset
        idx, _ = first_k(r, c, v, n, k, tie_tolerance)
        voters = np.bincount((np.arange(n)[:, None] * C + y[idx]).ravel(), minlength=n * C).reshape(n, C)
    return Neighbourhood(strict.astype(np.int64), tied.astype(np.int64), voters)


#: Bytes of the per-class running counts that :func:`neighbourhoods` holds for one block of candidates (one row
#: of C counts per candidate); a block that would need more is counted k by k (:func:`neighbourhood`).
SWEEP_BYTES = 2**26


def neighbourhoods(
    rows,
    cols,
    sums,
    n: int,
    y: np.ndarray,
    C: int,
    ks,
    tie_tolerance: float = TIE_TOLERANCE,
    *,
    groups: Groups | None = None,
    exclude: np.ndarray | None = None,
):
    """Yield :func:`neighbourhood` (``first=False``) of the same candidates for every k of ``ks`` in turn, the
    class counts of each k read from running counts taken once.

    The candidates of a row are sorted by sum, so the stored instances strictly nearer than its k-th smallest,
    and those within the tolerance of it, are the first entries of the row: the counts per class of a row's
    first ``j`` entries (one cumulative sum over the candidates, their group sizes as weights, the query's own
    instance taken out) give both by two differences, where the search for one k counted every candidate again
    (the bench's leave-one-out choice among 38 values of k on satellite: 0.34 -> 0.21 s of a fold's counting;
    mushroom's k-NN OM fold 2.3 -> 1.8 s). The same whole-number
    counts; where the running counts would pass :data:`SWEEP_BYTES`, each k is counted as
    :func:`neighbourhood` counts it.

    Yields
    ------
    Neighbourhood
        One per k of ``ks``, in their order.
    """
    ks = [int(k) for k in ks]
    whole = Groups.identity(len(y)) if groups is None else groups
    size = whole.size[cols]
    own = None if exclude is None else cols == whole.of[exclude][rows]  # the pair holding the query's own instance
    if own is not None:
        size = size - own
    in_row = np.bincount(rows, weights=size, minlength=n)
    if (len(rows) + 1) * C * 8 > SWEEP_BYTES or (n and ks and in_row.min() < max(ks)):
        for k in ks:  # counted k by k (and a k beyond a row's candidates refused as neighbourhood refuses it)
            yield neighbourhood(rows, cols, sums, n, y, C, k, tie_tolerance, groups=groups, exclude=exclude)
        return
    groups = whole
    counts = np.zeros((len(rows) + 1, C), np.int64)  # counts[i + 1]: the members of each class of candidate i
    if groups.trivial:
        counts[np.arange(1, len(rows) + 1), y[cols]] = size
    else:
        counts[1:] = groups.class_counts(y, C)[cols]
        if own is not None:
            mine = np.flatnonzero(own)
            counts[mine + 1, y[exclude[rows[mine]]]] -= 1
    np.cumsum(counts, axis=0, out=counts)  # counts[i]: members of each class among candidates 0..i-1
    starts = row_starts(rows, n)
    total = np.cumsum(size)
    before = total[starts] - size[starts]  # weight of the rows above each row
    low = counts[starts]  # each row's counts before its first candidate
    stops = np.append(starts[1:], len(rows))
    step = max(1, len(rows) // max(n, 1))  # values of k at a time: (k, row) entries no more than the candidates
    for lo in range(0, len(ks), step):
        for nearer, near in zip(*_boundaries(sums, starts, stops, total, before, ks[lo : lo + step], tie_tolerance)):
            yield Neighbourhood(counts[nearer] - low, counts[near] - counts[nearer])


def _boundaries(sums, starts, stops, total, before, ks, tie_tolerance):
    """``(nearer, near)``, each (len(ks), n): for every k and row (candidates ``starts[r]:stops[r]`` sorted by
    sum), the first candidate not below the k-th smallest minus the tolerance and the first above it plus the
    tolerance, every k at once (one numpy pass for all of them rather than one per k: 38 values of k over
    small blocks were a k-NN fold's overhead), bisected (:func:`sorted_bound`) only where the candidate before
    or after the k-th is within the tolerance too."""
    n = len(starts)
    first, last = np.tile(starts, len(ks)), np.tile(stops, len(ks))
    at = np.searchsorted(total, (before + np.array(ks, np.intp)[:, None]).ravel())  # running weight reaches k
    kth = sums[at]
    tol = tolerance(kth, tie_tolerance)
    low_bound, high_bound = kth - tol, kth + tol
    nearer = at.copy()
    tied = (at > first) & ~(sums[np.maximum(at - 1, 0)] < low_bound)
    nearer[tied] = sorted_bound(sums, first[tied], at[tied], low_bound[tied], side="left")
    near = np.where(high_bound >= kth, at + 1, nearer)  # entries up to the k-th are within (unless NaN)
    tied = (near < last) & ~(sums[np.minimum(near, len(sums) - 1)] > high_bound)
    near[tied] = sorted_bound(sums, near[tied], last[tied], high_bound[tied], side="right")
    return nearer.reshape(len(ks), n), near.reshape(len(ks), n)


def sorted_bound(values: np.ndarray, lo: np.ndarray, hi: np.ndarray, bound: np.ndarray, side: str) -> np.ndarray:
    """For each row r, :func:`numpy.searchsorted` of ``bound[r]`` in ``values[lo[r]:hi[r]]`` (a non-decreasing
    slice, NaN last), as an index of ``values``: all rows bisected together, ``log2`` of the longest slice steps
    over the rows rather than one comparison per value (the k-th smallest's ties of 38 values of k, each counted
    over every candidate, were 40 % of a k-NN fold on segment). ``side="left"``: the first index whose value is
    not below the bound; ``"right"``: the first above it. A NaN bound gives ``lo`` (no value compares below it)."""
    lo, hi = lo.astype(np.intp, copy=True), hi.astype(np.intp, copy=True)
    if len(values) == 0:
        return lo
    below = np.less if side == "left" else np.less_equal
    for _ in range(int((hi - lo).max(initial=0)).bit_length()):
        mid = (lo + hi) >> 1
        go = below(values[np.minimum(mid, len(values) - 1)], bound) & (lo < hi)
        lo = np.where(go, mid + 1, lo)
        hi = np.where(go, hi, mid)
    return lo


def block_neighbourhoods(
    block: Candidates | Nearest, y: np.ndarray, C: int, ks, tie_tolerance: float = TIE_TOLERANCE, *, leave_one_out=False
):
    """:func:`neighbourhoods` of the queries of one block of a search, as :func:`block_neighbourhood` reads it.

    Yields
    ------
    Neighbourhood
        One per k of ``ks``, in their order.
    """
    yield from neighbourhoods(
        block.rows - block.start,
        block.cols,
        block.sums,
        block.stop - block.start,
        y,
        C,
        ks,
        tie_tolerance,
        groups=getattr(block, "groups", None),
        exclude=np.arange(block.start, block.stop) if leave_one_out else None,
    )


def block_neighbourhood(
    block: Candidates | Nearest,
    y: np.ndarray,
    C: int,
    k: int,
    tie_tolerance: float = TIE_TOLERANCE,
    *,
    first: bool = False,
    leave_one_out: bool = False,
) -> Neighbourhood:
    """:func:`neighbourhood` of the queries of one block of a search (:meth:`lazylib.metrics.Metric.nearest_groups`
    or ``nearest_chunks``), its fields read by name; ``leave_one_out``: the queries are the training instances
    ``start:stop``, each left out of its own neighbours."""
    n = block.stop - block.start
    return neighbourhood(
        block.rows - block.start,
        block.cols,
        block.sums,
        n,
        y,
        C,
        k,
        tie_tolerance,
        first=first,
        groups=getattr(block, "groups", None),
        exclude=np.arange(block.start, block.stop) if leave_one_out else None,
    )


def decide(nb: Neighbourhood, k: int, priority: np.ndarray, ties: str = "all", rng=None) -> np.ndarray:
    """Class index voted for each query of ``nb`` under a tie rule (module docstring); ``rng`` (a
    ``numpy.random.Generator``) draws the choices of ``ties="random"``."""
    if ties == "all":
        return np.argmax(nb.strict + nb.tied + priority, axis=1)
    if ties == "first":
        return np.argmax(nb.first, axis=1)  # argmax takes the lowest index among equal counts
    if ties == "random":
        rng = check_random_state(rng)
        votes = nb.strict.copy()
        remaining = nb.tied.astype(np.int64)
        draws = k - votes.sum(axis=1)
        rows = np.arange(len(votes))
        for d in range(int(draws.max(initial=0))):  # one tied neighbour at a time, without replacement
            active = rows[draws > d]
            cum = np.cumsum(remaining[active], axis=1)
            u = rng.random(len(active)) * cum[:, -1]
            pick = np.argmax(cum > u[:, None], axis=1)
            votes[active, pick] += 1
            remaining[active, pick] -= 1
        # equal votes: uniform noise below 1 picks one of the top classes with equal probability
        return np.argmax(votes + 0.5 * rng.random(votes.shape), axis=1)
    raise ValueError(f"ties must be one of {TIE_RULES}, got {ties!r}")


def class_probabilities(nb: Neighbourhood, k: int, priority: np.ndarray, ties: str = "all") -> np.ndarray:
    """(n, C): the probability that :func:`decide` returns each class, over its random draws.

    One-hot for "all" and "first". For "random", with ``a`` the strictly nearer counts, ``t`` the tied counts
    (total ``T``) and ``r = k - sum(a)`` tied voters to draw, the drawn counts ``x`` are multivariate
    hypergeometric, ``P(x) = prod_j C(t_j, x_j) / C(T, r)``, and class ``c`` wins with probability
    ``1 / (1 + e)`` when ``a_c + x_c`` ties ``e`` other classes at the top. That probability is
    ``integral_0^1 u^e du``, so

        P(c) = sum_x P(x) [a_c + x_c is the maximum] integral_0^1 u^(number of other classes equal to it) du,

    computed per final vote ``v`` of ``c`` as the coefficient of ``z^(r - x_c)`` in the product over the other
    classes of ``sum_y C(t_j, y) z^y [a_j + y < v or u if a_j + y = v]``, integrated over ``u`` exactly by
    Gauss-Legendre quadrature (the integrand is a polynomial of degree below C).

    Only that one coefficient of the product is formed, as a dot product of the products of the classes before
    ``c`` and after it, so with ``r`` drawn the cost is ``O(r)`` per final vote for two classes and
    ``O(C r^2)`` for more (``2 (C - 2)`` products of polynomials of ``r`` terms), over at most ``r`` final votes;
    forming every product in full, as this function did before, took ``O(C r^2)`` per final vote even for two
    classes (two classes of 600 tied neighbours each, 600 drawn: 4.3 s of processor time before, 0.04 s now).
    """
    n, C = nb.strict.shape
    P = np.zeros((n, C))
    if ties != "random":
        P[np.arange(n), decide(nb, k, priority, ties)] = 1.0
        return P
    a, t = nb.strict.astype(np.int64), nb.tied.astype(np.int64)
    r = k - a.sum(axis=1)
    T = t.sum(axis=1)
    one = (r == 1) & (a.sum(axis=1) == 0)  # k = 1: one tied instance drawn uniformly, each class its share
    P[one] = t[one] / T[one, None]
    full = (r >= T) & ~one  # every tied neighbour votes: only an equal vote is random
    if full.any():
        votes = a[full] + t[full]
        top = votes == votes.max(axis=1, keepdims=True)
        P[full] = top / top.sum(axis=1, keepdims=True)
    some = np.flatnonzero(~full & ~one)
    if len(some):
        P[some] = _hypergeometric_win(a[some], t[some], r[some])
    return P


def _hypergeometric_win(a: np.ndarray, t: np.ndarray, r: np.ndarray) -> np.ndarray:
    """:func:`class_probabilities` for queries drawing ``0 < r < T`` of their tied neighbours."""
    from scipy.special import gammaln

    n, C = a.shape
    R = int(r.max())
    T = t.sum(axis=1)
    y = np.arange(R + 1)
    # In log space, C(t_j, y) p^y (1 - p)^(t_j - y) with p = r / T (0 where y > t_j): binomial probabilities, so
    # every factor is at most 1, and their product over the classes where the draws add up to r, C(T, r)
    # p^r (1 - p)^(T - r) (norm), is about 1 / sqrt(T): nothing overflows, and nothing that matters underflows
    # however many neighbours tie (scaling by T^y instead underflowed to 0/0 from a few hundred).
    logc = gammaln(t[:, :, None] + 1.0) - gammaln(y + 1.0) - gammaln(np.maximum(t[:, :, None] - y, 0) + 1.0)
    lp, lq = np.log(r / T), np.log1p(-r / T)
    logb = logc + y * lp[:, None, None] + (t[:, :, None] - y) * lq[:, None, None]
    base = np.where(y <= t[:, :, None], np.exp(np.minimum(logb, 0.0)), 0.0)  # (n, C, R + 1)
    norm = np.exp(gammaln(T + 1.0) - gammaln(r + 1.0) - gammaln(T - r + 1.0) + r * lp + (T - r) * lq)
    nodes, weights = np.polynomial.legendre.leggauss(C // 2 + 1)
    nodes, weights = (nodes + 1.0) / 2.0, weights / 2.0
    rows = np.arange(n)
    P = np.zeros((n, C))
    unit = np.zeros((n, R + 1))
    unit[:, 0] = 1.0  # the polynomial 1
    lowest = int(((a.sum(axis=1) + r + C - 1) // C).min())  # the winner has at least the mean vote, k / C
    for v in range(lowest, int((a + np.minimum(t, r[:, None])).max()) + 1):  # the winner's final vote
        final = a[:, :, None] + y  # (n, C, R + 1)
        x = v - a  # (n, C): each class's drawn count if it is the winner
        ok = (x >= 0) & (x <= np.minimum(t, r[:, None]))
        if not ok.any():
            continue
        xs = np.clip(x, 0, R)
        rest = np.clip(r[:, None] - xs, 0, R)  # the coefficient of the others' product that is needed
        for u, w in zip(nodes, weights):
            g = base * np.where(final < v, 1.0, np.where(final == v, u, 0.0))
            # the product of every class's polynomial but the winner's, truncated at z^R: prefix products of
            # the classes before it times suffix products of those after it; of that product only the
            # coefficient of z^(r - x) counts, a dot product (no multiplication by the polynomial 1, and none
            # for C = 2, where each prefix or suffix is a single class's polynomial)
            prefix = [unit, g[:, 0]]
            for j in range(1, C - 1):
                prefix.append(_poly_mul(prefix[-1], g[:, j]))
            suffix = unit
            for c in range(C - 1, -1, -1):
                if ok[:, c].any():
                    others = _coefficient(prefix[c], suffix, rest[:, c])
                    P[ok[:, c], c] += w * (base[rows, c, xs[:, c]] * others)[ok[:, c]]
                if c > 0:
                    suffix = g[:, c] if c == C - 1 else _poly_mul(suffix, g[:, c])
    return P / norm[:, None]


def _coefficient(p: np.ndarray, q: np.ndarray, d: np.ndarray) -> np.ndarray:
    """Row ``i``'s coefficient of ``z^d[i]`` in the product of the polynomials ``p[i]`` and ``q[i]``
    (coefficients by increasing degree, ``0 <= d < p.shape[1]``)."""
    j = np.arange(p.shape[1])
    lag = d[:, None] - j
    return np.where(lag >= 0, p * np.take_along_axis(q, np.maximum(lag, 0), axis=1), 0.0).sum(axis=1)


def _poly_mul(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Row-wise product of polynomials (coefficients by increasing degree), truncated to their length: a
    vectorised shift-and-add over the degrees for many short rows, ``numpy.convolve`` row by row for few long
    ones (fewer numpy calls either way)."""
    n, length = p.shape
    if n < length:
        return np.array([np.convolve(pi, qi)[:length] for pi, qi in zip(p, q)]).reshape(n, length)
    out = np.zeros_like(p)
    for d in range(length):
        out[:, d:] += p[:, d : d + 1] * q[:, : length - d]
    return out


def vote(
    D: np.ndarray,
    y: np.ndarray,
    k: int,
    priority: np.ndarray,
    ties: str = "all",
    tie_tolerance: float = TIE_TOLERANCE,
    *,
    random_state=None,
) -> np.ndarray:
    """Class indices voted by the k nearest columns of each row of ``D`` under a tie rule (module docstring).

    Parameters
    ----------
    random_state : int, Generator or None
        Seed or generator of the draws of ``ties="random"``: an int seeds a fresh generator (the same draws at every
        call), a Generator is used as it is (its stream continues), None draws fresh entropy.
    """
    tie_tolerance = check("tie_tolerance", tie_tolerance, Real(0, 1, open_high=True))
    check_ties(ties)
    D, y, k, priority = _vote_inputs(D, y, k, priority)
    rows, cols, sums = select(D, k, tie_tolerance)
    return vote_nearest(rows, cols, sums, len(D), y, k, priority, ties, tie_tolerance, random_state=random_state)


def _vote_inputs(D, y, k, priority):
    """The operands of :func:`vote` checked against each other, each error naming what is wrong: ``D`` (queries x
    stored instances) without NaN or -inf (+inf, "never a neighbour", is allowed), one class index ``0..C-1``
    per column for ``C = len(priority)`` finite priorities, and ``k`` at most the number of columns."""
    D = np.asarray(D, dtype=np.float64)
    if D.ndim != 2:
        raise ValueError(f"D must be a 2-D matrix (queries x stored instances), got shape {D.shape}")
    if np.isnan(D).any() or np.isneginf(D).any():
        raise ValueError("D must hold distances (no NaN or -inf; +inf marks a pair that is never a neighbour)")
    priority = np.asarray(priority, dtype=np.float64)
    if priority.ndim != 1 or not len(priority) or not np.isfinite(priority).all():
        raise ValueError(f"priority must be one finite number per class, got {priority!r}")
    y = np.asarray(y)
    if y.shape != (D.shape[1],):
        raise ValueError(f"y must hold one class per column of D ({D.shape[1]}), got shape {y.shape}")
    if y.dtype.kind not in "iu" or (len(y) and (y.min() < 0 or y.max() >= len(priority))):
        raise ValueError(
            f"y must hold class indices 0..{len(priority) - 1} (one per class of priority), got "
            f"{y.dtype} values {np.unique(y)[:5].tolist()}"
        )
    k = check("k", k, Integer(low=1, high=max(D.shape[1], 1)))
    return D, y, k, priority


def vote_nearest(
    rows,
    cols,
    sums,
    n: int,
    y: np.ndarray,
    k: int,
    priority: np.ndarray,
    ties: str = "all",
    tie_tolerance: float = TIE_TOLERANCE,
    *,
    random_state=None,
) -> np.ndarray:
    """Class indices voted for ``n`` queries from their nearest stored instances as
    :meth:`lazylib.metrics.Metric.nearest_chunks` gives them: ``(rows, cols, sums)`` sorted by row, then sum,
    then column, holding each row's k nearest and everything tied with the k-th.

    Parameters
    ----------
    random_state : int, Generator or None
        Seed or generator of the draws of ``ties="random"``: an int seeds a fresh generator (the same draws at every
        call), a Generator is used as it is (its stream continues), None draws fresh entropy.
    """
    check_ties(ties)
    nb = neighbourhood(rows, cols, sums, n, y, len(priority), k, tie_tolerance, first=ties == "first")
    return decide(nb, k, priority, ties, check_random_state(random_state) if ties == "random" else None)


def correct(
    D: np.ndarray,
    y: np.ndarray,
    truth: np.ndarray,
    k: int,
    priority: np.ndarray,
    ties: str = "all",
    tie_tolerance: float = TIE_TOLERANCE,
) -> np.ndarray:
    """Whether the k nearest columns of each row of ``D`` vote for the class ``truth`` of that row, under a tie
    rule: 1 or 0 for "all" and "first", the exact probability over the draws for "random" (so its mean is the
    expected accuracy). What every leave-one-out or width sweep outside this module scores with.

    Examples
    --------
    >>> D = np.array([[1.0, 1.0, 2.0]])
    >>> [correct(D, np.array([0, 1, 1]), np.array([1]), 1, np.array([0.6, 0.3]), ties).item()
    ...  for ties in ("all", "first", "random")]
    [0.0, 0.0, 0.5]
    """
    check_ties(ties)
    if k == 1 and D.ndim == 2 and D.shape[1]:
        fast = _correct_nearest(D, y, truth, priority, ties, tie_tolerance)
        if fast is not None:
            return fast
    rows, cols, sums = select(D, k, tie_tolerance)
    nb = neighbourhood(rows, cols, sums, len(D), y, len(priority), k, tie_tolerance, first=ties == "first")
    return class_probabilities(nb, k, priority, ties)[np.arange(len(D)), np.asarray(truth, dtype=np.intp)]


def _correct_nearest(D, y, truth, priority, ties: str, tie_tolerance: float) -> np.ndarray:
    """:func:`correct` with k = 1, without sorting the candidates (:func:`tied_vote` of the columns within the
    tolerance of each row's smallest): the same numbers as the general path (:func:`select`,
    :func:`neighbourhood`, :func:`class_probabilities`), which sorts every candidate; a leave-one-out 1-NN sweep on
    data with many equal distances spent most of its vote there. None where a row's smallest is NaN (the general
    path then refuses the row)."""
    nearest = D.min(axis=1)
    if np.isnan(nearest).any():
        return None
    return tied_vote(D <= (nearest + tolerance(nearest, tie_tolerance))[:, None], y, truth, priority, ties)


def tied_vote(tied, y, truth, priority, ties: str, order=None) -> np.ndarray:
    """Whether a 1-NN vote is right, from ``tied`` (n, m), each row's stored instances within the tolerance of its
    nearest: those are all tied neighbours and none is strictly nearer, so "all" needs how many of each class
    are tied (the most win, then the class ``priority`` prefers), "random" each class's share of them (one is
    drawn) and "first" the tied one stored first: the lowest ``order`` (the stored instances' own indices of the
    columns; None: the columns' order). ``y`` (m,): the columns' classes; ``truth`` (n,): each row's class."""
    n, C = len(tied), len(priority)
    y, truth = np.asarray(y, dtype=np.intp), np.asarray(truth, dtype=np.intp)
    if ties == "first":
        first = np.argmax(tied, axis=1) if order is None else np.where(tied, order, len(order)).argmin(axis=1)
        return (y[first] == truth).astype(float)
    rows, cols = np.divmod(np.flatnonzero(tied), tied.shape[1])
    counts = np.bincount(rows * C + y[cols], minlength=n * C).reshape(n, C)
    if ties == "random":
        return counts[np.arange(n), truth] / counts.sum(axis=1)
    return (np.argmax(counts + priority, axis=1) == truth).astype(float)


def first_k(rows, cols, sums, n: int, k: int, tie_tolerance: float = TIE_TOLERANCE):
    """Exactly k neighbours per row from :func:`vote_nearest`'s candidates: those nearer than the k-th (beyond
    the tolerance), then the lowest stored indices among those tied with it. Returns ``(idx, sums)``, each
    (n, k), nearest first (equal sums in stored order)."""
    starts = row_starts(rows, n)
    kth = sums[starts + k - 1]
    tied = sums >= (kth - tolerance(kth, tie_tolerance))[rows]
    # within a row: the nearer ones by sum, then the tied ones by stored index
    order = np.lexsort((cols, np.where(tied, 0.0, sums), tied, rows))
    take = order[(starts[:, None] + np.arange(k)).ravel()]
    idx, near = cols[take].reshape(n, k), sums[take].reshape(n, k)
    by_distance = np.lexsort((idx, near))
    return np.take_along_axis(idx, by_distance, axis=1), np.take_along_axis(near, by_distance, axis=1)
