"""The metric contract: what an attribute term and a metric provide to the engine (:mod:`lazylib.metrics._engine`)
and the search (:mod:`lazylib.search`), declared once as two :class:`typing.Protocol` classes.

:class:`lazylib.metrics.Metric` and ``lazylib.metrics.extend.AttributeTerm`` implement them with defaults,
so a new metric overrides only what it changes (``tests/unit/test_extend.py`` checks that both bases satisfy
the protocols and that the engine and the search read no private name of a metric that is not declared here).
Import them from ``lazylib.metrics.extend``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class TermContract(Protocol):
    """One fitted attribute's term ``t(x, y)``, as the engine asks for it.

    A *bilinear* term is ``t(x, y) = alpha(x) + beta(y) + psi(x) . chi(y)`` and gives the two sides of that
    product (:meth:`pair`, each side a ``lazylib.metrics.extend.Half``); it is then computed for all
    pairs at once by one matrix product. Any other term gives its (nq, ns) matrix (:meth:`direct`). A
    query-side value weight ``u(x)`` (the VDM's) multiplies the term when the metric sets ``query_weighted``.
    """

    #: ``alpha(x) + beta(y) + psi(x) . chi(y)`` (give :meth:`pair`), else give :meth:`direct`.
    bilinear: bool
    #: Each side of the bilinear form can be computed without the other (give :meth:`half`): the training
    #: data's stored side is then built once per fit.
    separable: bool
    #: A non-bilinear term that is the square of a non-negative bilinear one ``r`` (give :meth:`root_half` and
    #: :meth:`direct_pairs`): the engine then searches it through a lower bound from ``r``.
    squares_bilinear: bool

    def pair(self, xq: np.ndarray, xs: np.ndarray):
        """``(query Half, stored Half)`` of a bilinear term, for a column of queries and one of stored values."""
        ...

    def half(self, x: np.ndarray, side: str):
        """One side (``"query"`` or ``"stored"``) of a separable term, as a ``Half``."""
        ...

    def direct(self, xq: np.ndarray, xs: np.ndarray) -> np.ndarray:
        """The (len(xq), len(xs)) matrix of a non-bilinear term."""
        ...

    def direct_pairs(self, xq: np.ndarray, xs: np.ndarray) -> np.ndarray:
        """The terms of the pairs ``(xq[i], xs[i])``, equal to :meth:`direct`'s to the last bit
        (``squares_bilinear`` terms)."""
        ...

    def root_half(self, x: np.ndarray, side: str):
        """One side of the bilinear ``r`` whose square the term is (``squares_bilinear`` terms)."""
        ...

    def fit_shift(self, x: np.ndarray) -> None:
        """Centre a squared-difference term on the training column ``x`` (no change of any distance)."""
        ...

    def query_weights(self, xq: np.ndarray) -> np.ndarray:
        """The weight ``u(x)`` of each query value (ones unless the term has a value weight)."""
        ...

    def operand(self, x: np.ndarray) -> np.ndarray:
        """The column as the term reads it (``x`` itself, or a coarser form: DVDM's ranges); values with equal
        operands have equal terms against everything."""
        ...


@runtime_checkable
class MetricContract(Protocol):
    """What the engine and the search read from a fitted metric.

    Public, set by :meth:`lazylib.metrics.Metric.fit`: the training data and their classes, the schema every
    later input is encoded with, the fitted weights, the root and the memory bound. Private: the hooks below,
    each with a default in :class:`lazylib.metrics.Metric` (an :class:`lazylib.metrics.AttributeMetric` builds
    them all from its ``attributes_``, so a metric made of terms overrides none of them).

    Two families of metric: ``uses_engine`` True (the sums come from :meth:`_bilinear` and
    :meth:`_direct_terms`, which an attribute-wise metric derives from its terms) or False (the metric gives each
    block of distances itself by :meth:`_block`, after :meth:`_check_operands`; it is searched by whole rows).
    """

    #: The schema of the training data, which every later input is encoded with
    #: (:func:`lazylib.encoding.fit_input`).
    schema_: object
    #: The encoded training data (the stored instances when no ``B`` is given).
    X_: np.ndarray
    #: Class codes of the training data (None without labels).
    y_: np.ndarray | None
    #: The training data's set tables (None: no set-valued column).
    sets_: tuple | None
    #: The fitted weights, (m,) or (C, m), or None (all ones).
    weights_: np.ndarray | None
    #: ``D = S ** (1 / root_)``.
    root_: float
    #: Bound, in MiB, on the temporaries of one chunk.
    working_memory: float
    #: Whether the sums come from the engine's product (else from :meth:`_block`).
    uses_engine: bool

    def _check_fitted(self) -> None:
        """Raise ``NotFittedError`` before ``fit``."""
        ...

    def _bilinear(self, Zq: np.ndarray, Zs: np.ndarray, stored=None):
        """The query and stored sides (a ``BilinearPair``) of every bilinear attribute, or None."""
        ...

    def _separable(self) -> bool:
        """Whether the stored side of :meth:`_bilinear` can be computed without the queries."""
        ...

    def _training_stored_terms(self):
        """The stored side of the bilinear terms for the training data (separable metrics)."""
        ...

    def _direct_attributes(self):
        """The attributes whose term is not bilinear."""
        ...

    def _direct_terms(self, Zq: np.ndarray, Zs: np.ndarray, sets=None) -> Iterator[tuple[int, np.ndarray]]:
        """``(a, term)`` of each attribute of :meth:`_direct_attributes`, ``term`` of shape (nq, ns)."""
        ...

    def _root_terms(self):
        """``[(a, term)]`` when every direct term ``squares_bilinear``, else None."""
        ...

    def _query_weights(self, Zq: np.ndarray) -> np.ndarray | None:
        """Query-side weights ``u`` of shape (nq, m), or None for all ones."""
        ...

    def _operand_rows(self, Z: np.ndarray) -> np.ndarray:
        """The rows of ``Z`` as the metric reads them (``Z`` itself, or a coarser form): rows equal here are at
        equal distances from everything, so the engine finds distinct rows on them."""
        ...

    def _norm_order(self) -> float | None:
        """``r`` when the distance is the ``r``-norm of :meth:`_differences`, computed pair by pair, else None."""
        ...

    def _differences(self, Zq: np.ndarray, Zs: np.ndarray) -> Iterator[tuple[int, np.ndarray]]:
        """``(a, d)``: the (nq, ns) differences whose ``r``-th powers are the terms (with :meth:`_norm_order`)."""
        ...

    def _finish(self, S: np.ndarray, nonnegative: bool = False) -> np.ndarray:
        """Distances from sums, in place: ``S ** (1 / root_)``."""
        ...

    def _chunk_rows(self, n_stored: int, width: int, sets=None) -> int:
        """Query rows per chunk within ``working_memory``."""
        ...

    def _check_operands(self, Zq: np.ndarray, Zs: np.ndarray) -> None:
        """Refuse operands outside the metric's domain (``uses_engine`` False; called before :meth:`_block`)."""
        ...

    def _block(self, Zq: np.ndarray, Zs: np.ndarray) -> np.ndarray:
        """The (nq, ns) distances of one chunk (``uses_engine`` False)."""
        ...


#: The private names of a metric the engine and the search may read: the hooks of :class:`MetricContract`
#: and the engine's own cache of the training data's stored side (emptied when ``weights_`` is set).
ENGINE_HOOKS = frozenset(
    name for name, value in vars(MetricContract).items() if callable(value) and re.fullmatch(r"_[a-z]\w*", name)
) | {"_training_sides"}
