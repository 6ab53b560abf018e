"""The metric contract: what an attribute term and a metric provide to the engine (:mod:`lazylib.metrics._engine`)
and the search (:mod:`lazylib.search`), through the record ``fit`` builds of them
(:class:`lazylib.metrics._declaration.Declaration`), declared once as two :class:`typing.Protocol` classes.

:class:`lazylib.metrics.Metric` and ``lazylib.metrics.extend.AttributeTerm`` implement them with defaults,
so a new metric overrides only what it changes (``tests/unit/test_extend.py`` checks that both bases satisfy
the protocols, and that the engine and the search read nothing of a metric but its declaration).
Import them from ``lazylib.metrics.extend``.

The contract checks itself: :func:`check_terms`, run by every :class:`lazylib.metrics.AttributeMetric`'s ``fit``,
refuses a metric whose ``attributes_`` are not one term per column, a term that does not declare ``bilinear`` or
lacks the method its declaration promises, and a term that is negative or not finite on a sample of the training
values, each time naming the column, the term and the fix.
"""

from __future__ import annotations

import re
from typing import Protocol, runtime_checkable

import numpy as np

from lazylib._threads import threads_for
from lazylib.metrics._attributes import AttributeTerm
from lazylib.metrics._probabilities import known_values


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


#: The methods every term gives (:class:`TermContract`'s; :class:`AttributeTerm` has a default for each).
_TERM_METHODS = ("pair", "half", "direct", "direct_pairs", "root_half", "fit_shift", "query_weights", "operand")


@runtime_checkable
class MetricContract(Protocol):
    """What a fitted metric declares, read once by ``fit`` into the record the engine and the search read
    (:class:`lazylib.metrics._declaration.Declaration`, the metric's ``_declaration``): they never call back
    into the metric.

    Public, set by :meth:`lazylib.metrics.Metric.fit`: the training data and their classes, the schema every
    later input is encoded with, the fitted weights, the root and the memory bound. Private: the methods below,
    each with a default in :class:`lazylib.metrics.Metric` (an :class:`lazylib.metrics.AttributeMetric` hands
    its ``attributes_`` as its terms, so a metric made of terms overrides none of them).

    Two families of metric: ``uses_engine`` True (the sums come from the terms of :meth:`_terms`: one matrix
    product for the bilinear ones, the others added as matrices) or False (the metric gives each block of
    distances itself by :meth:`_block`, after :meth:`_check_operands`; it is searched by whole rows).
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
    #: Whether the terms' query-side value weights multiply them.
    query_weighted: bool

    def _check_fitted(self) -> None:
        """Raise ``NotFittedError`` before ``fit``."""
        ...

    def _terms(self) -> tuple:
        """The fitted attribute terms, one per column (:class:`TermContract`), or none."""
        ...

    def _norm_order(self) -> float | None:
        """``r`` when the distance is the ``r``-norm of its terms' differences, computed pair by pair, else None."""
        ...

    def _check_operands(self, Zq: np.ndarray, Zs: np.ndarray) -> None:
        """Refuse operands outside the metric's domain (``uses_engine`` False; called before :meth:`_block`)."""
        ...

    def _block(self, Zq: np.ndarray, Zs: np.ndarray) -> np.ndarray:
        """The (nq, ns) distances of one chunk (``uses_engine`` False)."""
        ...

    def _declare(self):
        """The :class:`lazylib.metrics._declaration.Declaration` of all the above, which ``fit`` keeps as
        ``_declaration``."""
        ...


#: The private names of a metric that the package reads outside the metric's own class: the methods of
#: :class:`MetricContract` (read once per fit into the declaration) and the declaration itself.
ENGINE_HOOKS = frozenset(
    name for name, value in vars(MetricContract).items() if callable(value) and re.fullmatch(r"_[a-z]\w*", name)
) | {"_declaration"}


#: How many known training values of each column :func:`check_terms` evaluates the term on between every two of
#: them (the smallest, the largest and evenly spaced ranks between), plus an unknown value.
TERM_SAMPLE = 8
#: Distinct training values of a column :func:`check_terms` evaluates against the sample at once (both ways):
#: every distinct value is checked, in blocks of this many (a term whose sides are computed apart, or a direct
#: term: its tables grow with the block only), or of :data:`PAIR_BLOCK` (a bilinear term whose sides are built
#: together, as the overlap's one-hot table of both sides' values, which grows with the block squared).
CHECK_BLOCK = 4096
PAIR_BLOCK = 128

_BILINEAR_FIX = (
    "declare it on the term's class: bilinear = True for alpha(x) + beta(y) + psi(x) . chi(y) (give pair, or half "
    "with separable = True), bilinear = False for any other term (give direct)"
)


def _overrides(term, name: str) -> bool:
    """Whether the term's class gives its own ``name`` (not :class:`AttributeTerm`'s default, which raises)."""
    return not isinstance(term, AttributeTerm) or getattr(type(term), name) is not getattr(AttributeTerm, name)


def _declaration_problem(term) -> str | None:
    """What the term's declaration lacks, with the fix, or None."""
    bilinear = getattr(term, "bilinear", None)
    if not isinstance(bilinear, (bool, np.bool_)):
        return f"declares no bilinear (got {bilinear!r}): {_BILINEAR_FIX}"
    missing = [name for name in ("separable", "squares_bilinear", *_TERM_METHODS) if not hasattr(term, name)]
    if missing:
        return f"lacks {', '.join(missing)} of lazylib.metrics.extend.TermContract: subclass AttributeTerm"
    if bilinear and term.separable and not _overrides(term, "half"):
        return "is bilinear and separable but gives no half(x, side): give it, or set separable = False and give pair"
    if bilinear and not (_overrides(term, "pair") or _overrides(term, "half")):
        return "is bilinear but gives neither pair(xq, xs) nor half(x, side): give one, or set bilinear = False"
    if not bilinear and not _overrides(term, "direct"):
        return "is not bilinear but gives no direct(xq, xs): give it, or set bilinear = True and give pair"
    if term.squares_bilinear and (bilinear or not (_overrides(term, "root_half") and _overrides(term, "direct_pairs"))):
        return "squares_bilinear needs bilinear = False with root_half(x, side) and direct_pairs(xq, xs)"
    return None


def _samples(Z: np.ndarray) -> np.ndarray:
    """(:data:`TERM_SAMPLE` + 1, m): in each column, known training values from the smallest to the largest at
    evenly spaced ranks (a column without known values: NaN throughout), then an unknown value (NaN), which any
    query may hold."""
    known = np.maximum((~np.isnan(Z)).sum(axis=0) - 1, 0)
    ranks = np.rint(np.linspace(0.0, 1.0, TERM_SAMPLE)[:, None] * known[None, :]).astype(np.intp)
    picked = np.full((TERM_SAMPLE, Z.shape[1]), np.nan)
    if len(Z):
        for a in range(Z.shape[1]):
            picked[:, a] = _at_ranks(Z[:, a], ranks[:, a])
    return np.vstack([picked, np.full((1, Z.shape[1]), np.nan)])


def _at_ranks(x: np.ndarray, ranks: np.ndarray) -> np.ndarray:
    """``np.sort(x)[ranks]`` (NaN last): read from the counts of the values when they are the distinct values'
    codes (:func:`lazylib.metrics._probabilities.known_values`' whole numbers), which name each rank's value."""
    values = known_values(x)
    if len(values) and np.array_equal(values, np.arange(len(values))) and not np.isnan(x).any():
        counts = np.bincount(x.astype(np.intp), minlength=len(values))
        return np.searchsorted(np.cumsum(counts), ranks, side="right").astype(np.float64)
    return np.sort(x)[ranks]


def _term_matrix(term, vq: np.ndarray, vs: np.ndarray, norm: bool) -> tuple[np.ndarray, float]:
    """The term between every query value of ``vq`` and stored value of ``vs``, and the rounding a bilinear form
    may leave in it (``norm``: the metric is the ``r``-norm of its terms' ``difference``, computed in the pair's
    own unit, so the difference is what must be finite)."""
    if norm:
        return np.asarray(term.difference(vq, vs), dtype=np.float64), 0.0
    if not term.bilinear:
        return np.asarray(term.direct(vq, vs), dtype=np.float64), 0.0
    q, s = term.pair(vq, vs)
    T = q.alpha[:, None] + s.alpha[None, :] + np.asarray(q.emb) @ np.asarray(s.emb).T
    T[np.asarray(q.unknown_one, bool)[:, None] | np.asarray(s.unknown_one, bool)[None, :]] = 1.0
    scale = 1.0 + np.abs(q.alpha).max(initial=0.0) + np.abs(s.alpha).max(initial=0.0)
    scale += float(np.abs(q.emb).sum(axis=1).max(initial=0.0) * np.abs(s.emb).max(initial=0.0))
    return T, 1e-9 * scale


def _shown(value, categories) -> str:
    """A sampled (encoded) value as a message shows it: a nominal code by its category (``categories``, the
    column's, or None)."""
    if np.isnan(value):
        return "an unknown value"
    if categories is not None and float(value).is_integer() and 0 <= value < len(categories):
        return repr(categories[int(value)])
    return repr(float(value))


def _between(vq: np.ndarray, vs: np.ndarray, i: int, j: int, categories) -> str:
    """``between <vq[i]> and <vs[j]>``, as a message shows a pair of checked values."""
    return f"between {_shown(vq[i], categories)} and {_shown(vs[j], categories)}"


def _matrix_problem(term, vq: np.ndarray, vs: np.ndarray, norm: bool, categories) -> str | None:
    """What is wrong with the term between ``vq`` and ``vs`` (shape, sign, finiteness), or None."""
    T, rounding = _term_matrix(term, vq, vs, norm)
    if T.shape != (len(vq), len(vs)):
        return f"gives a matrix of shape {T.shape} for {len(vq)} x {len(vs)} values: give one row per query value"
    if not np.isfinite(T).all():
        i, j = np.argwhere(~np.isfinite(T))[0]
        return f"is {T[i, j]} {_between(vq, vs, i, j, categories)}: a term is a finite number (1 for unknowns)"
    if T.size and T.min() < -rounding:
        i, j = np.unravel_index(np.argmin(T), T.shape)
        return (
            f"is negative ({T[i, j]:.6g}) {_between(vq, vs, i, j, categories)}: a term is a non-negative "
            "difference (square it or take its absolute value); the sum would be clipped at 0, a wrong distance"
        )
    return None


def _every_value_problem(term, x: np.ndarray, v: np.ndarray, norm: bool, categories) -> str | None:
    """:func:`_matrix_problem` of every distinct known value of the training column ``x`` against the sample
    ``v``, as query and as stored value, :data:`CHECK_BLOCK` (or :data:`PAIR_BLOCK`) values at a time (about
    ``18 V`` terms for ``V`` distinct values, not ``V**2``)."""
    distinct = known_values(x)
    step = PAIR_BLOCK if term.bilinear and not term.separable else CHECK_BLOCK
    for lo in range(0, len(distinct), step):
        block = distinct[lo : lo + step]
        problem = _matrix_problem(term, block, v, norm, categories) or _matrix_problem(term, v, block, norm, categories)
        if problem is not None:
            return problem
    return None


def _value_problem(term, v: np.ndarray, query_weighted: bool, norm: bool, categories=None) -> str | None:
    """What is wrong with the term's values on the sample ``v`` (shape, sign, finiteness, query weights), or None;
    a value is shown by its category where the column has ``categories``."""
    problem = _matrix_problem(term, v, v, norm, categories)
    if problem is not None:
        return problem
    u = np.asarray(term.query_weights(v), dtype=np.float64) if query_weighted else np.ones(len(v))
    if u.shape != (len(v),) or not (np.isfinite(u).all() and (u >= 0).all()):
        return "gives query_weights that are not one finite non-negative number per value"
    return None


def check_terms(metric, Z: np.ndarray) -> None:
    """Refuse a fitted attribute-wise metric that breaks the term contract, naming the column, the term and the fix.

    Checks that ``metric.attributes_`` holds one term per column of the encoded training matrix ``Z``, that each
    term declares ``bilinear`` (and gives the methods its declaration promises, :class:`TermContract`), and that
    each term of a column that is not set-valued is finite and non-negative between every pair of a sample of
    the column's training values (:data:`TERM_SAMPLE` of them, and an unknown value), and between every distinct
    training value of the column and that sample, both ways (a term negative for one value only is found).

    Parameters
    ----------
    metric : lazylib.metrics.AttributeMetric
        The metric, after its ``_fit`` (and the centring of its terms).
    Z : ndarray of shape (n, m)
        The encoded training matrix ``_fit`` was given.

    Raises
    ------
    ValueError
        For a wrong number of terms, a term without its declaration, or a negative or non-finite term.
    """
    name = type(metric).__name__
    terms = getattr(metric, "attributes_", None)
    if not isinstance(terms, (list, tuple)) or len(terms) != Z.shape[1]:
        count = f"{len(terms)} term{'' if len(terms) == 1 else 's'}" if isinstance(terms, (list, tuple)) else None
        got = count or repr(type(terms).__name__)
        short = count is not None and len(terms) < Z.shape[1]
        first = f" (none from column {metric.columns_[len(terms)]!r}, index {len(terms)}, on)" if short else ""
        raise ValueError(
            f"{name}.attributes_ holds {got} for {Z.shape[1]} columns{first}: _fit must set self.attributes_ to a "
            "list of one fitted term per column of Z (in the columns' order)"
        )
    samples = _samples(Z)
    with threads_for(0):  # small products only: one BLAS thread (lazylib._threads)
        for a, term in enumerate(terms):
            _check_term(metric, name, a, term, Z, samples)


def _check_term(metric, name: str, a: int, term, Z: np.ndarray, samples: np.ndarray) -> None:
    """:func:`check_terms` for the term of column ``a``."""
    where = f"{name}: the {type(term).__name__} term of column {metric.columns_[a]!r} (index {a})"
    problem = _declaration_problem(term)
    if problem is None and metric.kinds_[a] != "set":
        norm = metric._norm_order() is not None and not term.bilinear
        categories = metric.categories_[a] if metric.kinds_[a] == "nominal" else None
        problem = _value_problem(term, samples[:, a], metric.query_weighted, norm, categories)
        problem = problem or _every_value_problem(term, Z[:, a], samples[:, a], norm, categories)
    if problem is not None:
        raise ValueError(f"{where} {problem}")
