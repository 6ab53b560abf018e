"""k-nearest-neighbour classification of nominal files without scikit-learn or pandas: the engine of ``lazylib
classify`` (:mod:`lazylib.cli`), TiMBL's job (train on one file, classify another) in a process that starts fast.

Every column is read as nominal (as TiMBL reads features by default), ``?`` and empty cells as unknown. The
distances are the ones :class:`lazylib.neighbors.KNeighborsClassifier` computes for such data, and so are the
predictions (held by ``tests/unit/test_classify.py`` against it on tables with unknown and unseen values):

``"mvdm"``
    :class:`lazylib.metrics.MVDM`: ``sum_a sum_c (P(c|x_a) - P(c|y_a))^2``; an unknown value is one more value
    (the class distribution of the training rows where it is unknown), a value never seen in training has
    ``P = 0``.
``"ig"``
    :class:`lazylib.weighting.IGWeighted` (IB1-IG, TiMBL's ``-mO -w2``): overlap weighted by each attribute's
    information gain (an unknown value counted as one more value); an unknown value differs from everything.
``"overlap"``
    :class:`lazylib.metrics.Overlap`: the number of attributes on which two rows differ; an unknown value is one
    more value (equal to another unknown).

The vote is ``ties="all"``: every stored row whose distance is within the relative tie tolerance (1e-9) of the
k-th smallest votes; equal votes go to the class more frequent in training, then to the class first in sorted
order. A test value never seen in training is *unseen* (``P = 0``, or a mismatch), as the classifier reads a
code outside the training values; an unknown one (``?``) follows the metric's rule for unknowns.

Each metric is a table per attribute, ``T_a[x, y]``, and the distance ``sum_a T_a[x_a, y_a]``, added in another
order than the estimator's engine adds it (the sums may differ in their last bits; ties are decided within the
relative tolerance, far above that). The search is exact (:mod:`lazylib.table_search`, which the estimator's
engine shares): the stored rows are grouped by their values on the attributes whose terms are largest; the sum
over those attributes, computed once per query and group, plus the least the other attributes can add, bounds
every member's distance from below, and only the members of the groups whose bound lies within the tolerance of
an upper bound of the k-th smallest distance (the k-th smallest among the k most promising groups) are computed,
and those whose sum does vote. Where the bound
does not prune (fewer than :data:`DENSE_ROWS` stored rows, no key, or more candidates than ``working_memory``
allows) a block of queries is computed against every stored row (one product of the tables' rows with the stored
one-hot columns).

>>> model = fit([["a", "a", "b"], ["x", "y", "y"]], ["k1", "k1", "k2"], metric="overlap")  # two attributes
>>> predict(model, [["b", "a"], ["y", "?"]]).tolist()
['k2', 'k1']
"""

from __future__ import annotations

import csv
import os
from dataclasses import dataclass

import numpy as np

from lazylib.table_search import TableGroups, bounded_pairs, bundle_tails, floors

__all__ = [
    "InputError",
    "METRICS",
    "MISSING",
    "Model",
    "TIE_TOLERANCE",
    "Table",
    "WORKING_MEMORY",
    "fit",
    "predict",
    "predict_codes",
    "query_codes",
    "read_table",
    "write_lines",
]

#: The metrics of :func:`fit`.
METRICS = ("mvdm", "ig", "overlap")
#: Cells read as unknown values.
MISSING = ("?", "")
#: Relative tolerance within which distances count as tied (``lazylib.search.TIE_TOLERANCE``).
TIE_TOLERANCE = 1e-9
#: Default bound, in MiB, on the temporaries of one block (``lazylib.metrics.WORKING_MEMORY``).
WORKING_MEMORY = 64
#: Below this many stored rows no grouping (every stored row is computed).
DENSE_ROWS = 4096
#: Relative rounding margin of the bound (sums of up to a few hundred non-negative terms in another order).
BOUND_MARGIN = 1e-12


class InputError(ValueError):
    """A file or argument that cannot be classified: the message names it and says what to do."""


# ---------------------------------------------------------------------------------------------- files
@dataclass(frozen=True)
class Cells:
    """The cells of a table as codes: ``strings[codes[i, j]]`` is the cell of row ``i``, column ``j``
    (``codes`` (n, width), column-major); every distinct cell coded once for the whole table."""

    strings: tuple
    codes: np.ndarray

    @classmethod
    def of(cls, columns) -> Cells:
        """The cells of ``columns`` (one sequence of str per column, all as long)."""
        columns = [list(c) for c in columns]
        n = len(columns[0]) if columns else 0
        if any(len(c) != n for c in columns):
            raise InputError(f"the columns have {sorted({len(c) for c in columns})} rows: give every one {n}")
        return cls._coded([c for column in columns for c in column], len(columns), n, column_major=True)

    @classmethod
    def _coded(cls, flat: list, width: int, n: int, column_major: bool = False) -> Cells:
        strings = tuple(dict.fromkeys(flat))
        codes = np.fromiter(map(dict(zip(strings, range(len(strings)))).__getitem__, flat), np.intp, len(flat))
        codes = codes.reshape(width, n).T if column_major else np.asfortranarray(codes.reshape(n, width))
        return cls(strings, codes)

    @property
    def n_rows(self) -> int:
        return self.codes.shape[0]

    def column(self, j: int) -> list:
        """The cells of column ``j``, as str."""
        return [self.strings[c] for c in self.codes[:, j].tolist()]

    def take(self, columns) -> Cells:
        """The cells of the columns ``columns`` (indices)."""
        return Cells(self.strings, np.asfortranarray(self.codes[:, list(columns)]))


@dataclass(frozen=True)
class Table:
    """A file read by :func:`read_table`: its column names (None without a header) and its :class:`Cells`."""

    names: list | None
    cells: Cells

    @property
    def columns(self) -> list:
        """One list of str cells per column."""
        return [self.cells.column(j) for j in range(self.cells.codes.shape[1])]


def read_table(path: str, *, delimiter: str = ",", header: bool = False) -> Table:
    """The :class:`Table` of a delimited text file (C4.5 ``.data``, CSV): cells stripped of surrounding blanks,
    blank lines skipped, every row as wide as the first (an :class:`InputError` names the first that is not).
    Quoted cells are read as the ``csv`` module reads them; a file without quotes is split directly (faster).

    Parameters
    ----------
    path : str
        The file.
    delimiter : str
        One character between cells.
    header : bool
        The first row names the columns.

    Returns
    -------
    Table
    """
    if not isinstance(header, bool):
        raise InputError(f"header must be True or False, got {header!r}")
    if not (isinstance(delimiter, str) and len(delimiter) == 1 and delimiter not in "\r\n\"'"):
        raise InputError(f"delimiter must be one character (not a quote or a line break), got {delimiter!r}")
    try:
        with open(path, encoding="utf-8", newline="") as f:
            text = f.read()
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: a folder, not a file") from None
    except UnicodeDecodeError as err:
        raise InputError(f"{path}: not a UTF-8 text file ({err.reason} at byte {err.start})") from None
    lines = text.splitlines()
    blanks = " " in text or "\t" in text
    if not all(lines) or blanks:
        lines = [line for line in lines if line.strip()]
    if '"' in text:
        try:
            rows = [r for r in csv.reader(lines, delimiter=delimiter, skipinitialspace=True)]
        except csv.Error as err:
            raise InputError(f"{path}: not a delimited text file ({err})") from None
    else:
        rows = None
    names = None
    if header and lines:
        names = [c.strip() for c in (rows.pop(0) if rows is not None else lines.pop(0).split(delimiter))]
    n = len(rows if rows is not None else lines)
    if not n:
        raise InputError(f"{path}: no rows to read (an empty file{' after its header' if header else ''})")
    width = len(names) if names is not None else len(rows[0] if rows is not None else lines[0].split(delimiter))
    cells = [c for r in rows for c in r] if rows is not None else delimiter.join(lines).split(delimiter)
    if len(cells) != n * width or rows is not None:
        _check_widths(path, text, delimiter, width, header)
    if blanks:
        cells = [c.strip() for c in cells]
    return Table(names, Cells._coded(cells, width, n))


def _check_widths(path: str, text: str, delimiter: str, width: int, header: bool) -> None:
    """An :class:`InputError` naming the first line of ``text`` (blank lines skipped) not ``width`` cells wide."""
    numbered = [(i + 1, line) for i, line in enumerate(text.splitlines()) if line.strip()]
    rows = csv.reader([line for _, line in numbered], delimiter=delimiter, skipinitialspace=True)
    for (number, _), row in zip(numbered[header:], list(rows)[header:]):
        if len(row) != width:
            raise InputError(
                f"{path}: line {number} has {len(row)} cells where the first row has {width}: every row needs one "
                "value per column (? for an unknown one)"
            )


def write_lines(path: str, lines) -> None:
    """Write ``lines`` (one str each) to ``path`` atomically: a temporary file in the same folder, renamed over
    ``path`` once complete, so a reader never sees half a file and a failed run leaves the old one."""
    import tempfile  # here: only a write to a file needs it (7 ms of the command's import otherwise)

    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".lazylib-", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write("\n".join(lines) + "\n")
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


# ---------------------------------------------------------------------------------------------- the model
@dataclass(frozen=True)
class Model:
    """A fitted classifier: the training rows' codes ``Z`` (n, m), column-major (value ``v`` of attribute ``a``
    its rank among the attribute's sorted known values, an unknown one ``V_a + 1``), each attribute's values
    ``values`` and term table ``tables[a]`` ((V_a + 2, V_a + 2): rows and columns the known values, then unseen,
    then unknown), the class codes ``y`` and sorted ``classes``, the vote's ``priority`` and ``k``."""

    metric: str
    k: int
    Z: np.ndarray
    values: tuple
    tables: tuple
    y: np.ndarray
    classes: np.ndarray
    priority: np.ndarray
    working_memory: float = WORKING_MEMORY


def _index(values: tuple) -> dict:
    """Cell -> code: the rank of a known value, ``len(values) + 1`` for an unknown cell."""
    index = dict(zip(values, range(len(values))))
    index.update(dict.fromkeys(MISSING, len(values) + 1))
    return index


def _attribute_codes(strings: tuple, column: np.ndarray) -> tuple[tuple, np.ndarray]:
    """The sorted known values of a training column (cell codes ``column`` into ``strings``) and its codes (an
    unknown cell ``len(values) + 1``)."""
    present = np.flatnonzero(np.bincount(column, minlength=len(strings)))
    known = sorted((strings[i], i) for i in present.tolist() if strings[i] not in MISSING)
    lookup = np.full(len(strings), len(known) + 1, np.intp)
    lookup[[i for _, i in known]] = np.arange(len(known))
    return tuple(v for v, _ in known), lookup[column]


def _cells(columns) -> Cells:
    return columns if isinstance(columns, Cells) else Cells.of(columns)


def query_codes(model: Model, columns) -> np.ndarray:
    """(n, m) codes, column-major, of query ``columns`` (:class:`Cells`, or one sequence of str per attribute)
    in the model's tables: an unseen value ``V_a``, an unknown one ``V_a + 1``."""
    cells, m = _cells(columns), len(model.values)
    if cells.codes.shape[1] != m:
        raise InputError(f"the queries have {cells.codes.shape[1]} attributes, the training data {m}")
    Q = np.empty(cells.codes.shape, np.intp, order="F")
    for a, values in enumerate(model.values):
        index = _index(values)
        lookup = np.array([index.get(c, len(values)) for c in cells.strings], np.intp)
        Q[:, a] = lookup[cells.codes[:, a]]
    return Q


def vote_priority(class_counts: np.ndarray) -> np.ndarray:
    """Fractional tie-breaker in (0, 1): higher for classes more frequent in training, then lower index (the
    rule of :func:`lazylib.voting.vote_priority`)."""
    C = len(class_counts)
    order = np.lexsort((np.arange(C), -class_counts))
    rank = np.empty(C)
    rank[order] = np.arange(C)
    return (C - rank) / (C + 1)


def fit(columns, labels, *, metric: str = "ig", k: int = 1, working_memory: float = WORKING_MEMORY) -> Model:
    """Fit ``metric`` on training ``columns`` (one sequence of str per attribute, every one nominal) with class
    ``labels`` (str).

    Parameters
    ----------
    columns : Cells or list of sequences of str
        The training data, one column per attribute (``Table.cells.take(...)``, or one sequence of str each);
        ``?`` and empty cells are unknown.
    labels : Cells or sequence of str
        One class per row (a one-column :class:`Cells`, or str; none unknown; at least two classes).
    metric : {"mvdm", "ig", "overlap"}
        The distance (module docstring).
    k : int
        Neighbours.
    working_memory : float
        Bound, in MiB, on the temporaries of one block of queries.

    Returns
    -------
    Model
    """
    if metric not in METRICS:
        raise InputError(f"metric must be one of {', '.join(METRICS)}, got {metric!r}")
    cells, labels = _cells(columns), _cells([labels]) if not isinstance(labels, Cells) else labels
    n, m = cells.codes.shape
    if not n or not m:
        raise InputError("the training data hold no rows or no attributes")
    if labels.n_rows != n:
        raise InputError(f"{labels.n_rows} labels for {n} training rows: give one class per row")
    if not (isinstance(k, int) and not isinstance(k, bool) and 1 <= k <= n):
        raise InputError(f"k must be a whole number from 1 to the {n} training rows, got {k!r}")
    if isinstance(working_memory, bool) or not (isinstance(working_memory, (int, float)) and working_memory > 0):
        raise InputError(f"working_memory must be a positive number of MiB, got {working_memory!r}")
    y_codes = labels.codes[:, 0]
    unknown = np.flatnonzero(np.array([c in MISSING for c in labels.strings], bool)[y_codes])
    if len(unknown):
        raise InputError(
            f"{len(unknown)} training rows have no class (the first: row {unknown[0] + 1}); label or drop them"
        )
    classes, y = _attribute_codes(labels.strings, y_codes)
    if len(classes) < 2:
        raise InputError(f"the training data have a single class {classes[0]!r}: a classifier needs two")
    Z = np.empty((n, m), np.intp, order="F")
    values = []
    for a in range(m):
        v, Z[:, a] = _attribute_codes(cells.strings, cells.codes[:, a])
        values.append(v)
    tables = _tables(metric, Z, y, len(classes), [len(v) for v in values])
    counts = np.bincount(y, minlength=len(classes))
    return Model(metric, k, Z, tuple(values), tables, y, np.array(classes, dtype=object), vote_priority(counts),
                 working_memory)  # fmt: skip


def _tables(metric: str, Z: np.ndarray, y: np.ndarray, C: int, sizes) -> tuple:
    """The (V_a + 2, V_a + 2) term table of every attribute."""
    if metric == "mvdm":
        return tuple(_mvdm_table(Z[:, a], y, C, V) for a, V in enumerate(sizes))
    weights = information_gain(Z, y, C, sizes) if metric == "ig" else np.ones(len(sizes))
    out = []
    for w, V in zip(weights, sizes):
        T = np.ones((V + 2, V + 2))
        np.fill_diagonal(T, 0.0)
        T[V, V] = 1.0  # an unseen value is a query's only: it matches nothing
        if metric == "ig":  # IB1-IG: an unknown value differs from everything (FeatureDifference's "one")
            T[V + 1, :] = T[:, V + 1] = 1.0
            T *= w
        out.append(T)
    return tuple(out)


def _mvdm_table(x: np.ndarray, y: np.ndarray, C: int, V: int) -> np.ndarray:
    """MVDM's table of one attribute: ``sum_c (P_xc - P_yc)^2`` over its probability rows (known values, unseen
    at 0, unknown: the class distribution of the training rows where it is unknown)."""
    counts = np.bincount(x * C + y, weights=np.ones(len(x)), minlength=(V + 2) * C).reshape(V + 2, C)
    totals = counts.sum(axis=1, keepdims=True)
    P = counts / np.where(totals == 0, 1.0, totals)
    return np.square(P[:, None, :] - P[None, :, :]).sum(-1)


def _entropy(counts: np.ndarray) -> np.ndarray:
    """Entropy in bits of each row of class counts (0 for an empty row), computed as
    :func:`lazylib.weighting.information_gain` computes it (the same weights to the last bit)."""
    totals = counts.sum(-1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(totals > 0, counts / np.where(totals > 0, totals, 1), 0.0)
        return -(np.where(p > 0, p * np.log2(np.where(p > 0, p, 1.0)), 0.0)).sum(-1)


def information_gain(Z: np.ndarray, y: np.ndarray, C: int, sizes) -> np.ndarray:
    """Each attribute's information gain in bits, an unknown value counted as one more value (Daelemans et al.
    1994; :func:`lazylib.weighting.information_gain`), clipped at 0."""
    h = float(_entropy(np.bincount(y, minlength=C).astype(float)))
    gains = []
    for a, V in enumerate(sizes):
        codes = Z[:, a]
        unknown = codes == V + 1
        present = int(codes[~unknown].max()) + 1 if (~unknown).any() else 0
        codes = np.where(unknown, present, codes)  # unknown: the value after the largest present
        values = present + bool(unknown.any())
        counts = np.bincount(codes * C + y, minlength=values * C).reshape(values, C).astype(float)
        p_v = counts.sum(1) / len(y)
        gains.append(h - float(p_v @ _entropy(counts)))
    return np.maximum(gains, 0.0)


# ---------------------------------------------------------------------------------------------- the search
def _groups(model: Model) -> TableGroups | None:
    """The :class:`lazylib.table_search.TableGroups` of the stored rows (None below :data:`DENSE_ROWS` rows or
    without a key)."""
    if len(model.Z) < DENSE_ROWS:
        return None
    return TableGroups.of(model.Z, model.tables)


def _votes(model: Model, rows: np.ndarray, labels: np.ndarray, sums: np.ndarray, n: int) -> np.ndarray:
    """The class voted for by each of ``n`` queries from candidate pairs (query ``rows``, sorted; the stored
    row's class ``labels``; their distance ``sums``) holding its k nearest and every stored row tied with the
    k-th (``ties="all"``)."""
    starts = np.concatenate(([0], np.cumsum(np.bincount(rows, minlength=n))[:-1]))
    if model.k == 1:
        kth = np.minimum.reduceat(sums, starts)
    else:
        kth = sums[np.lexsort((sums, rows))][starts + model.k - 1]
    voters = sums <= (kth + TIE_TOLERANCE * np.abs(kth))[rows]
    C = len(model.classes)
    counts = np.bincount(rows[voters] * C + labels[voters], minlength=n * C).reshape(n, C)
    return np.argmax(counts + model.priority, axis=1)


def _dense_block(model: Model, Q: np.ndarray, onehot: np.ndarray) -> np.ndarray:
    """Votes of the queries ``Q`` against every stored row: their tables' rows times the stored one-hot columns."""
    left = np.hstack([T[Q[:, a]] for a, T in enumerate(model.tables)])
    S = left @ onehot.T
    k = model.k
    kth = S.min(axis=1) if k == 1 else np.partition(S, k - 1, axis=1)[:, k - 1]
    rows, cols = np.nonzero(S <= (kth + TIE_TOLERANCE * np.abs(kth))[:, None])
    return _votes(model, rows, model.y[cols], S[rows, cols], len(Q))


def _limit(upper: np.ndarray) -> np.ndarray:
    """The groups' bound below which members are candidates: the tie tolerance of ``upper`` and a rounding
    margin (the tables' sums are added in other orders)."""
    return (upper + TIE_TOLERANCE * np.abs(upper)) * (1.0 + BOUND_MARGIN)


def _bounded_block(model: Model, groups: TableGroups, Q: np.ndarray, low: np.ndarray, cap: int) -> np.ndarray | None:
    """Votes of the queries ``Q`` through the groups' bound (:func:`lazylib.table_search.bounded_pairs`), or None
    when the candidates would exceed ``cap`` pairs. ``low``: per query, the least the attributes outside the key
    can add."""
    tails = bundle_tails(model.tables, groups, model.Z, Q)
    found = bounded_pairs(model.tables, groups, Q, low, model.k, cap, _limit, tails)
    if found is None:
        return None
    rows, positions, sums = found
    return _votes(model, rows, model.y[groups.members[positions]], sums, len(Q))


def predict_codes(model: Model, Q: np.ndarray) -> np.ndarray:
    """Class codes of the queries ``Q`` (codes of :func:`query_codes`)."""
    ns, budget = len(model.Z), model.working_memory * 2**20
    groups = _groups(model)
    out = np.empty(len(Q), np.intp)
    lo = 0
    if groups is not None:
        low = floors(model.Z, model.tables, groups, Q)
        step = max(1, int(budget // (8 * 2 * len(groups.ptr))))
        cap = max(int(budget // 64), ns)
        for lo in range(0, len(Q), step):
            voted = _bounded_block(model, groups, Q[lo : lo + step], low[lo : lo + step], cap)
            if voted is None:
                break
            out[lo : lo + step] = voted
        else:
            return out
    widths = np.array([len(T) for T in model.tables])
    onehot = np.zeros((ns, int(widths.sum())))
    onehot[np.arange(ns)[:, None], np.concatenate(([0], np.cumsum(widths)[:-1])) + model.Z] = 1.0
    step = max(1, int(budget // (8 * 3 * ns)))
    for start in range(lo, len(Q), step):
        out[start : start + step] = _dense_block(model, Q[start : start + step], onehot)
    return out


def predict(model: Model, columns) -> np.ndarray:
    """Predicted classes (str) of queries given as ``columns`` (one sequence of str per attribute, ``?``
    unknown).

    Parameters
    ----------
    model : Model
        From :func:`fit`.
    columns : Cells or list of sequences of str
        The queries, one column per attribute.

    Returns
    -------
    ndarray of object
        The predicted class of each query.
    """
    return model.classes[predict_codes(model, query_codes(model, columns))]
