"""Eq. 6 of Howe & Cardie for sets held in :class:`lazylib.encoding.SetTable`: the smallest Euclidean
distance between a member of one set and a member of the other, for every pair of a block of query sets and
a block of stored sets, without a Python loop over pairs.

All members of a block of query sets are compared with all members of a block of stored sets in one matrix
product (``||a||^2 + ||b||^2 - 2 a.b``), then the minimum is taken per pair of owners with
``np.minimum.reduceat`` along both axes (first over the stored members, then over the query members). Blocks
are cut at set boundaries so that the member-pair matrix stays within ``max_bytes``. As in the engine
(:mod:`lazylib.metrics._engine`), members are centred (:func:`centre`) and the pairs of sets whose smallest
squared distance has lost its relative precision to cancellation are recomputed from direct differences, so
identical members are at exactly 0.
"""

from __future__ import annotations

import numpy as np

from lazylib.encoding import SetTable

#: Smallest squared member distances below this fraction of the squared norms of their sets' members are
#: recomputed from direct differences. Above it the product's relative rounding is at most about
#: ``4e-16 / CANCELLATION``, and half that on the distance: far inside the tie tolerance (1e-9) of the search.
#: Smaller than the engine's (1e-3) because pixel-like data have many nearly equal members, whose pairs of sets
#: would all be recomputed.
CANCELLATION = 1e-6


def _blocks(sizes: np.ndarray, limit: float) -> list[tuple[int, int]]:
    """Consecutive ranges ``(lo, hi)`` of sets whose members add up to at most ``limit`` (one set at least)."""
    out, lo, ends = [], 0, np.cumsum(sizes)
    while lo < len(sizes):
        base = ends[lo - 1] if lo else 0
        hi = max(lo + 1, int(np.searchsorted(ends, base + limit, side="right")))
        out.append((lo, hi))
        lo = hi
    return out


def centre(members: np.ndarray) -> np.ndarray | None:
    """A shift for the members of a set column: their mean rounded to 8 significant bits of the largest
    absolute mean (so subtracting it is exact on data of few significant digits, such as integer pixels), or
    None for a column without members."""
    if not len(members):
        return None
    mean = members.mean(axis=0)
    top = np.abs(mean).max()
    if top == 0 or not np.isfinite(top):
        return None
    exponent = np.frexp(top)[1] - 8
    return np.ldexp(np.round(np.ldexp(mean, -exponent)), exponent)


def member_pair_bytes(query_sizes: np.ndarray, stored_members: int) -> int:
    """Bytes of the temporaries of one query row: its member-pair matrix against every stored member (the
    largest query set counted)."""
    return 8 * int(query_sizes.max(initial=0)) * stored_members


def min_member_distances(
    tq: SetTable, iq: np.ndarray, ts: SetTable, is_: np.ndarray, *, shift=None, max_bytes: float = 64 * 2**20
) -> np.ndarray:
    """``D[i, j] = min_{u in tq[iq[i]], v in ts[is_[j]]} ||u - v||`` (Eq. 6), NaN where either index is NaN.

    Parameters
    ----------
    tq : SetTable
        The query set table.
    iq : ndarray of float
        Set indices into ``tq`` (an encoded set column), NaN for unknown.
    ts : SetTable
        The stored set table (of the same dimension as ``tq``).
    is_ : ndarray of float
        Set indices into ``ts``, NaN for unknown.
    shift : ndarray of shape (d,), optional
        Subtracted from every member on both sides (the training mean: differences unchanged, cancelling terms
        smaller).
    max_bytes : float
        Bound on the member-pair temporaries of one block.
    """
    out = np.full((len(iq), len(is_)), np.nan)
    kq, ks = np.flatnonzero(~np.isnan(iq)), np.flatnonzero(~np.isnan(is_))
    if not len(kq) or not len(ks):
        return out
    idq, ids = iq[kq].astype(np.intp), is_[ks].astype(np.intp)
    size_q, size_s = tq.sizes[idq], ts.sizes[ids]
    stored_limit = max(max_bytes / (8 * max(int(size_q.max()), 1)), 1)
    for slo, shi in _blocks(size_s, stored_limit):
        Mb, starts_b = _members(ts, ids[slo:shi], shift)
        nb = (Mb * Mb).sum(1)
        right = np.hstack([Mb, nb[:, None]])  # [v, ||v||^2]
        for qlo, qhi in _blocks(size_q, max(max_bytes / (8 * len(Mb)), 1)):
            Ma, starts_a = _members(tq, idq[qlo:qhi], shift)
            na = (Ma * Ma).sum(1)
            # min over u, v of ||u||^2 + ||v||^2 - 2 u.v: one product gives ||v||^2 - 2 u.v ([-2u, 1] . [v,
            # ||v||^2]); ||u||^2 is constant along v, so added after the minimum over the stored members
            low = _smallest_products(np.hstack([-2.0 * Ma, np.ones((len(Ma), 1))]), right, starts_b, max_bytes)
            low += na[:, None]
            low = np.minimum.reduceat(low, starts_a, axis=0)
            # near zero the product has lost its relative precision: those pairs of sets are recomputed from
            # direct differences of their members (against their largest squared norms, a bound on the terms
            # that cancelled)
            big_a, big_b = np.maximum.reduceat(na, starts_a), np.maximum.reduceat(nb, starts_b)
            r, c = np.nonzero(low <= CANCELLATION * (big_a[:, None] + big_b.max()))
            keep = low[r, c] <= CANCELLATION * (big_a[r] + big_b[c])
            if keep.any():
                low[r[keep], c[keep]] = _exact(
                    Ma, starts_a, size_q[qlo:qhi], Mb, starts_b, size_s[slo:shi], r[keep], c[keep], max_bytes
                )
            np.maximum(low, 0.0, out=low)
            out[np.ix_(kq[qlo:qhi], ks[slo:shi])] = np.sqrt(low)
    return out


def _smallest_products(left: np.ndarray, right: np.ndarray, starts: np.ndarray, max_bytes: float) -> np.ndarray:
    """``(len(left), len(starts))``: for each row of ``left``, the smallest product with a row of ``right`` in
    each segment of ``right``'s rows (the segments consecutive, from ``starts``).

    The product of the whole blocks when it fits in ``max_bytes``; otherwise (one set with more member pairs
    than that: the blocks of :func:`min_member_distances` hold one set at least) a block of rows and a block of
    columns at a time, each block's minima per segment (a segment cut by a block boundary in parts) merged
    into the result, so the temporaries stay within about twice ``max_bytes`` whatever the sets' sizes."""
    n, m = len(left), len(right)
    if 8 * n * m <= max_bytes:
        return np.minimum.reduceat(left @ right.T, starts, axis=1)
    owner = np.repeat(np.arange(len(starts)), np.diff(np.append(starts, m)))
    out = np.full((n, len(starts)), np.inf)
    cols = int(min(m, max(1, max_bytes // 8)))
    rows = max(1, int(max_bytes // (8 * cols)))
    for j0 in range(0, m, cols):
        own = owner[j0 : j0 + cols]
        local = np.flatnonzero(np.concatenate(([True], own[1:] != own[:-1])))
        first, last = own[0], own[-1] + 1  # the segments of this block of columns: consecutive
        for i0 in range(0, n, rows):
            part = np.minimum.reduceat(left[i0 : i0 + rows] @ right[j0 : j0 + cols].T, local, axis=1)
            view = out[i0 : i0 + rows, first:last]
            np.minimum(view, part, out=view)
    return out


def _members(table: SetTable, ids: np.ndarray, shift) -> tuple[np.ndarray, np.ndarray]:
    members, starts = table.gather(ids)
    return (members if shift is None else members - shift), starts


def _exact(Ma, starts_a, sizes_a, Mb, starts_b, sizes_b, r, c, max_bytes: float = 64 * 2**20) -> np.ndarray:
    """Smallest squared member distance of the set pairs ``(r[k], c[k])``, from direct differences, a block of set
    pairs at a time so that their member pairs stay within ``max_bytes`` (pixel-like data can put most pairs of
    sets near zero, and all their member pairs at once would need gigabytes); a single pair of sets with more
    member pairs than that is itself compared a block of members at a time (:func:`_exact_one`)."""
    pairs = sizes_a[r] * sizes_b[c]
    per_pair = 8 * (Ma.shape[1] + 6)  # a member pair's difference row and its index temporaries
    limit = max(max_bytes / per_pair, 1)
    out = np.empty(len(r))
    for k in np.flatnonzero(pairs > limit):
        a, b = starts_a[r[k]], starts_b[c[k]]
        out[k] = _exact_one(Ma[a : a + sizes_a[r[k]]], Mb[b : b + sizes_b[c[k]]], limit)
    small = np.flatnonzero(pairs <= limit)
    for lo, hi in _blocks(pairs[small], limit):
        rr, cc, pp = r[small[lo:hi]], c[small[lo:hi]], pairs[small[lo:hi]]
        nb = sizes_b[cc]
        owner = np.repeat(np.arange(len(rr)), pp)
        within = np.arange(pp.sum()) - np.repeat(np.cumsum(pp) - pp, pp)
        u = starts_a[rr][owner] + within // nb[owner]
        v = starts_b[cc][owner] + within % nb[owner]
        sq = ((Ma[u] - Mb[v]) ** 2).sum(1)
        out[small[lo:hi]] = np.minimum.reduceat(sq, np.cumsum(pp) - pp)
    return out


def _exact_one(A: np.ndarray, B: np.ndarray, limit: float) -> float:
    """Smallest squared distance between a row of ``A`` and a row of ``B`` from direct differences, at most
    ``limit`` member pairs at a time."""
    step_b = int(min(len(B), max(limit, 1)))
    step_a = max(1, int(limit // step_b))
    best = np.inf
    for i in range(0, len(A), step_a):
        for j in range(0, len(B), step_b):
            diff = A[i : i + step_a, None, :] - B[None, j : j + step_b, :]
            best = min(best, float(np.einsum("ijk,ijk->ij", diff, diff).min()))
    return best
