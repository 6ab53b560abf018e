"""The engine's input: a fitted metric's declaration, one record of its terms built once per fit
(:class:`Declaration`), and the operands of one computation (:class:`Operands`, :class:`SetSides`).

A metric hands the engine (:mod:`lazylib.metrics._engine` and the modules it maps) and the search
(:mod:`lazylib.search`) this record and nothing else: its attribute terms and which of them are bilinear, direct
or squares of bilinear ones, whether the bilinear stored side is separable, its query-side value weights, its
stored-side weights, its root, its memory bound and the training data whose stored side is built once. The
engine reads the record; it never calls back into the metric. What the record derives from the terms (both
sides of the bilinear product, :class:`Bilinear`; the direct terms; the rows as the terms read them) is
computed here, from the terms alone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import NamedTuple

import numpy as np

from lazylib.encoding import SetTable
from lazylib.metrics._attributes import SetAttribute


# ---------------------------------------------------------------------------------------------- the sides
@dataclass(frozen=True)
class Bilinear:
    """Bilinear attribute terms of one side: ``alpha`` (n, m) per-attribute scalars, ``psi`` (n, K) blocks.

    ``block[k]`` is the attribute of column ``k`` of ``psi``. On the stored side the same fields hold ``beta``
    and ``chi``. ``unknown_one`` (n, m) marks values whose attribute
    distance is 1 whatever the other value (HEOM/HVDM's rule for unknowns); their alpha and psi are 0.
    """

    alpha: np.ndarray
    psi: np.ndarray
    block: np.ndarray
    unknown_one: np.ndarray | None = None
    squared: np.ndarray | None = None  # (K,) columns of squared-difference terms (psi = -2 phi, chi = phi)


class BilinearPair(NamedTuple):
    """The bilinear terms of both sides, as :meth:`Declaration.sides` gives them: ``query`` (alpha, psi) and
    ``stored`` (beta, chi)."""

    query: Bilinear
    stored: Bilinear


# ---------------------------------------------------------------------------------------------- the operands
class SetSides(NamedTuple):
    """The set tables of the queries and of the stored instances, one entry per column (None where the column
    is not set-valued): what a set-valued attribute term needs besides the encoded set indices."""

    query: tuple[SetTable | None, ...]
    stored: tuple[SetTable | None, ...]


class Operands(NamedTuple):
    """One computation's input, encoded as the training data were: the queries ``Zq`` (rows of the result), the
    stored instances ``Zs`` (its columns), their class codes ``classes`` (None when unknown), whether the stored
    instances are the training data (``training``: their stored side is built once per fit) and the set tables
    of both sides (``sets``, None without set-valued columns)."""

    Zq: np.ndarray
    Zs: np.ndarray
    classes: np.ndarray | None
    training: bool
    sets: SetSides | None


# ---------------------------------------------------------------------------------------------- the record
@dataclass(frozen=True)
class Declaration:
    """What a fitted metric declares to the engine, built once per fit (:meth:`of`; again, with an empty
    cache, when its weights are set: :meth:`with_weights`).

    ``terms``: one fitted attribute term per column (``lazylib.metrics.extend.TermContract``; none for a metric
    that gives its blocks itself); ``root``: ``D = S ** (1 / root)``; ``weights``: the fitted attribute weights,
    (m,) or (C, m), or None; ``working_memory``: the bound, in MiB, on one chunk's temporaries; ``training``: the
    encoded training data, whose stored side is built once (:attr:`training_sides`); ``query_weighted``: the
    terms' query-side value weights multiply them (the VDM, OMVW); ``norm_order``: ``r`` when the distance is the
    ``r``-norm of the terms' differences, computed pair by pair (else None); ``block`` and ``check_operands``:
    for a metric outside the engine, ``block(Zq, Zs)`` gives each chunk's distances after ``check_operands(Zq,
    Zs)``. Derived from the terms by :meth:`of`: the attributes whose term is bilinear
    (``bilinear_attributes``) or not (``direct_attributes``), whether every bilinear term is ``separable``, and
    ``root_terms``, the ``(a, term)`` of the direct terms when every one squares a bilinear one (else None).
    """

    terms: tuple
    root: float
    weights: np.ndarray | None
    working_memory: float
    training: np.ndarray | None = None
    query_weighted: bool = False
    norm_order: float | None = None
    block: Callable | None = None
    check_operands: Callable | None = None
    bilinear_attributes: tuple[int, ...] = ()
    direct_attributes: tuple[int, ...] = ()
    separable: bool = False
    root_terms: tuple | None = None
    #: The training data's stored sides, built at the first search that needs one
    #: (:func:`lazylib.metrics._plan.training_stored_side`), one per value of ``no_query_weights``.
    training_sides: dict = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def of(cls, terms, **given) -> Declaration:
        """The record of the fitted ``terms`` and the metric's other declarations ``given`` (the fields above
        but the derived ones)."""
        terms = tuple(terms)
        bilinear = tuple(a for a, term in enumerate(terms) if term.bilinear)
        direct = tuple(a for a, term in enumerate(terms) if not term.bilinear)
        roots = tuple((a, terms[a]) for a in direct)
        return cls(
            terms,
            bilinear_attributes=bilinear,
            direct_attributes=direct,
            separable=bool(bilinear) and all(terms[a].separable for a in bilinear),
            root_terms=roots if roots and all(term.squares_bilinear for _, term in roots) else None,
            **given,
        )

    def with_weights(self, weights: np.ndarray | None) -> Declaration:
        """The same record with other fitted weights, its training data's stored sides (which depend on them)
        to be built again."""
        return replace(self, weights=weights, training_sides={})

    @property
    def uses_engine(self) -> bool:
        """Whether the sums come from the engine's product and the direct terms (else from :attr:`block`)."""
        return self.block is None

    @property
    def searchable(self) -> bool:
        """Whether the sums are the bilinear product alone (no direct terms), so that
        :func:`lazylib.search.search` can search them through the single-precision filter."""
        return self.uses_engine and not self.direct_attributes

    # ------------------------------------------------------------------ what the terms give
    def side(self, Z: np.ndarray, side: str) -> Bilinear:
        """One side (``"query"`` or ``"stored"``) of the bilinear terms of a separable metric."""
        n, m = len(Z), len(self.terms)
        alpha, unknown_one = np.zeros((n, m)), np.zeros((n, m), bool)
        emb, block, squared = [], [], []
        for a in self.bilinear_attributes:
            h = self.terms[a].half(Z[:, a], side)
            alpha[:, a], unknown_one[:, a] = h.alpha, h.unknown_one
            emb.append(h.emb)
            block.append(np.full(h.emb.shape[1], a))
            squared.append(np.full(h.emb.shape[1], h.squared))
        return Bilinear(alpha, np.hstack(emb), np.concatenate(block), unknown_one, np.concatenate(squared))

    def training_terms(self) -> Bilinear:
        """The stored side of the bilinear terms for the training data (separable metrics only)."""
        return self.side(self.training, "stored")

    def sides(self, Zq: np.ndarray, Zs: np.ndarray, stored: Bilinear | None = None) -> BilinearPair | None:
        """Query-side and stored-side bilinear terms of all bilinear attributes, or None. ``stored``: the
        stored side already computed (only for a separable metric, the training data's, built once)."""
        if not self.bilinear_attributes:
            return None
        if self.separable:
            if stored is not None:
                return BilinearPair(self.side(Zq, "query"), stored)
            return BilinearPair(self.side(Zq, "query"), self.side(Zs, "stored"))
        m = len(self.terms)
        nq, ns = len(Zq), len(Zs)
        aq, as_ = np.zeros((nq, m)), np.zeros((ns, m))
        mq, ms = np.zeros((nq, m), bool), np.zeros((ns, m), bool)
        psi, chi, block, squared = [], [], [], []
        for a in self.bilinear_attributes:
            q, s = self.terms[a].pair(Zq[:, a], Zs[:, a])
            aq[:, a], as_[:, a], mq[:, a], ms[:, a] = q.alpha, s.alpha, q.unknown_one, s.unknown_one
            psi.append(q.emb)
            chi.append(s.emb)
            block.append(np.full(q.emb.shape[1], a))
            squared.append(np.full(q.emb.shape[1], q.squared))
        block, squared = np.concatenate(block), np.concatenate(squared)
        return BilinearPair(
            Bilinear(aq, np.hstack(psi), block, mq, squared), Bilinear(as_, np.hstack(chi), block, ms, squared)
        )

    def direct_terms(self, Zq: np.ndarray, Zs: np.ndarray, sets: SetSides | None = None, *, rows: bool = False):
        """Yield ``(a, term)`` for the attributes whose term is not bilinear: ``term`` (len(Zq), len(Zs));
        ``sets``: the set tables of both sides, which the set indices of set-valued columns point into. With
        ``rows``, a term that gives one yields a :class:`~lazylib.metrics._attributes.RowTable` instead
        (``table[rows]`` is the matrix, to the last bit: :meth:`AttributeTerm.direct_rows
        <lazylib.metrics._attributes.AttributeTerm.direct_rows>`)."""
        for a in self.direct_attributes:
            term = self.terms[a]
            as_rows = getattr(term, "direct_rows", None) if rows and not isinstance(term, SetAttribute) else None
            table = None if as_rows is None else as_rows(Zq[:, a], Zs[:, a])
            if table is not None:
                yield a, table
                continue
            if isinstance(term, SetAttribute):  # set indices point into the tables of each side
                yield (
                    a,
                    term.direct(
                        Zq[:, a], Zs[:, a], sets.query[a], sets.stored[a], max_bytes=self.working_memory * 2**20
                    ),
                )
            else:
                yield a, term.direct(Zq[:, a], Zs[:, a])

    def differences(self, Zq: np.ndarray, Zs: np.ndarray):
        """Yield ``(a, d)``: the (len(Zq), len(Zs)) non-negative differences of each attribute whose ``r``-th
        powers are its terms (with a :attr:`norm_order`)."""
        for a in self.direct_attributes:
            yield a, self.terms[a].difference(Zq[:, a], Zs[:, a])

    def operand_rows(self, Z: np.ndarray) -> np.ndarray:
        """The encoded rows ``Z`` as the terms read them (each column replaced by its term's ``operand``, a
        copy only where a term reads a coarser form, DVDM's ranges): rows equal here (NaN equal to NaN) are at
        equal distances from everything (:func:`lazylib.metrics._engine.distinct_rows`)."""
        out = Z
        for a, term in enumerate(self.terms):
            column = Z[:, a]
            read = term.operand(column)
            if read is not column:
                out = np.array(Z, dtype=np.float64) if out is Z else out
                out[:, a] = read
        return out

    def query_weights(self, Zq: np.ndarray) -> np.ndarray | None:
        """Query-side weights ``u`` (nq, m), or None for all ones (a metric not ``query_weighted``)."""
        if not self.query_weighted:
            return None
        U = np.ones((len(Zq), len(self.terms)))
        for a, term in enumerate(self.terms):
            U[:, a] = term.query_weights(Zq[:, a])
        return U

    def finish(self, S: np.ndarray, nonnegative: bool = False) -> np.ndarray:
        """Distances from sums, in place: ``S ** (1 / root)``; ``nonnegative``: ``S`` holds no negative
        rounding (else it is clipped at 0 first)."""
        if not nonnegative:
            np.maximum(S, 0.0, out=S)  # rounding can leave -1e-16 where the distance is 0
        if self.root == 2.0:
            np.sqrt(S, out=S)
        elif self.root != 1.0:
            np.power(S, 1.0 / self.root, out=S)
        return S
