"""The numeric form of mixed data: the one place where input data become what every metric works on.

Mixed data are held as a float64 matrix (:class:`Encoded`): nominal values as numbers (the category codes of a
pandas ``Categorical``, or whatever numbers an array holds), linear values as themselves, missing values as NaN,
with one type per column. A *set-valued* column (Howe & Cardie's set features: each value is a set of
d-dimensional vectors; ``encode(..., sets=True)``) holds the index of each value's set in a side table of that
column (:class:`SetTable`), NaN for an unknown set. Class labels become indices ``0..C-1``
(:func:`~lazylib.labels.encode_labels`, the one label encoder), or an object array of their own values for
comparisons (:func:`~lazylib.labels.label_values`): :mod:`lazylib.labels`, whose names this module offers too.

Per-column statistics of the known (non-missing) training values (:func:`~lazylib.column_stats.known_range`,
:func:`~lazylib.column_stats.known_mean_std`) are computed in :mod:`lazylib.column_stats` and offered here too. A
column with no known value in the training data is allowed: every metric then applies its rule for unknown values
to it (distance 1 under HEOM, HVDM and the Minkowski family, "another value" under the VDM
family), so its statistics are set to 0 (origin 0, scale 0: the column's known query values all embed to 0)
instead of NaN with a numpy warning. The statistics hold at every magnitude a float can: the mean and the standard
deviation are computed on values divided by the column's largest absolute value (a power of 2, so exactly), so
values near 1e300 do not overflow to an infinite deviation and values near 1e-300 do not underflow to a zero one
(which would make the column look constant). A column whose range itself exceeds the largest float is refused,
naming it.

>>> import pandas as pd
>>> enc = encode(pd.DataFrame({"colour": pd.Categorical(["red", None, "blue"]), "size": [1.0, 2.0, None]}))
>>> enc.kinds, enc.values.tolist()
(('nominal', 'continuous'), [[1.0, 1.0], [nan, 2.0], [0.0, nan]])
>>> from lazylib.labels import encode_labels
>>> encode_labels(["b", "a", "b"], 3)
(array([1, 0, 1]), array(['a', 'b'], dtype=object))
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd

# lazylib.protocols.bench.protocol (edited on another branch at the time) imports label_values from here: at the merge,
# it imports it from lazylib.labels and this line goes (issue #50 item 5).
from lazylib.labels import label_values  # noqa: F401

NOMINAL = "nominal"
LINEAR_TYPES = ("continuous", "integer")
#: A set of vectors per value (a DataFrame object column of ``(members, d)`` arrays).
SET = "set"
TYPES = (NOMINAL, *LINEAR_TYPES, SET)


@dataclass(frozen=True)
class SetTable:
    """The sets of one set-valued column: the members of every set stacked in ``members`` (M, d) float64, set
    ``i`` being ``members[offsets[i]:offsets[i + 1]]``. The encoded matrix holds ``i`` (as a float) in that
    column, NaN for an unknown set; every set has at least one member, all of the column's dimension ``d``."""

    members: np.ndarray
    offsets: np.ndarray

    @classmethod
    def from_sets(cls, sets) -> "SetTable":
        """A table of the given (members, d) arrays, in order (set ``i`` of the table is ``sets[i]``)."""
        sets = [np.asarray(s, dtype=np.float64) for s in sets]
        sizes = [len(s) for s in sets]
        members = np.vstack(sets) if sets else np.zeros((0, 0))
        offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.intp)
        members.flags.writeable = False
        offsets.flags.writeable = False
        return cls(members, offsets)

    def __len__(self) -> int:
        return len(self.offsets) - 1

    @property
    def dim(self) -> int:
        """The dimension d of every member."""
        return self.members.shape[1]

    @property
    def sizes(self) -> np.ndarray:
        """Number of members of each set."""
        return np.diff(self.offsets)

    def get(self, i) -> np.ndarray | None:
        """The members of set ``i`` (a value of the encoded column), None for an unknown value (NaN)."""
        if np.isnan(i):
            return None
        i = int(i)
        return self.members[self.offsets[i] : self.offsets[i + 1]]

    def gather(self, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(members, starts)`` of the sets ``ids`` (known ones, integers): their members stacked in order, and
        where each set starts in that stack (for ``np.minimum.reduceat``)."""
        ids = np.asarray(ids, dtype=np.intp)
        sizes = self.offsets[ids + 1] - self.offsets[ids]
        starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.intp)
        rows = np.repeat(self.offsets[ids] - starts, sizes) + np.arange(sizes.sum())
        return self.members[rows], starts


@dataclass(frozen=True)
class Encoded:
    """Numeric form of a data matrix: ``values`` (n, m) float64 with NaN for missing, one type per column."""

    values: np.ndarray
    columns: tuple[str, ...]
    kinds: tuple[str, ...]
    categories: tuple[tuple | None, ...]
    from_frame: bool
    #: One :class:`SetTable` per set-valued column (None for the others); None when no column holds sets.
    sets: tuple[SetTable | None, ...] | None = None

    @property
    def nominal(self) -> np.ndarray:
        """Whether each column is nominal (boolean array over the columns)."""
        return np.array([k == NOMINAL for k in self.kinds], dtype=bool)

    def __len__(self) -> int:
        return self.values.shape[0]

    def take(self, rows) -> "Encoded":
        """The same data restricted to ``rows`` (an index array): what a protocol hands each fold after
        encoding the whole data set once. Set tables are kept whole: the set indices still point into them."""
        return Encoded(
            self.values[np.asarray(rows)], self.columns, self.kinds, self.categories, self.from_frame, self.sets
        )


def encode(X, types=None, *, sets: bool = False) -> Encoded:
    """Convert ``X`` (DataFrame or 2-D array) to :class:`Encoded`.

    Parameters
    ----------
    X : pandas.DataFrame, Encoded or array-like of shape (n, m)
        An :class:`Encoded` input is returned as it is (after checking ``types`` against it). DataFrame columns
        that are ``Categorical`` (or bool) are nominal, numeric ones linear ("continuous"), object columns whose
        cells are ``(members, d)`` arrays (None, NaN or an empty array: unknown) set-valued; arrays need
        ``types`` and cannot hold sets.
    types : sequence or dict, optional
        Attribute types, ``"nominal"``, ``"continuous"``, ``"integer"`` or ``"set"``: one per column (a dict
        keyed by column name for DataFrames, e.g. ``Dataset.types``). Required for arrays.
    sets : bool
        Accept set-valued columns. Only estimators with a term for them pass True (the metrics, which then
        refuse them unless they declare ``"set"`` in ``accepts``); every other estimator, which would read the
        set indices as numbers, gets the default and a clear error.

    Raises
    ------
    ValueError
        On an empty or non-2-D input, an unknown type, a type list of the wrong length, a nominal DataFrame
        column that is not categorical, a text column, an infinite value, an array said to hold sets, or a set
        that is not a 2-D array of finite numbers with the column's dimension (naming column and row).

    Examples
    --------
    >>> X = pd.DataFrame({"x": [1.0, 2.0], "s": [np.array([[0.0, 0.0], [1.0, 1.0]]), None]})
    >>> enc = encode(X, sets=True)
    >>> enc.kinds, enc.values.tolist(), enc.sets[1].sizes.tolist()
    (('continuous', 'set'), [[1.0, 0.0], [2.0, nan]], [2])
    """
    if isinstance(X, pd.DataFrame):
        enc = _encode_frame(X, types)
        if not sets:
            _refuse_sets(enc)
        return enc
    if isinstance(X, Encoded):
        if not sets:
            _refuse_sets(X)
        if types is not None:
            given = tuple(types[c] for c in X.columns) if isinstance(types, dict) else tuple(types)
            if given != X.kinds:
                raise ValueError(f"types {given} differ from the types the data were encoded with {X.kinds}")
        if len(X) == 0:
            raise ValueError(f"X is empty: shape {X.values.shape}")
        return X
    _refuse_sparse(X)
    values = np.asarray(X)
    if values.ndim != 2:
        raise ValueError(
            f"X must be 2-dimensional (instances x attributes), got shape {values.shape}: Reshape your data, e.g. "
            "X.reshape(1, -1) for a single instance"
        )
    _refuse_empty(values.shape)
    if types is None:
        raise ValueError("X is an array: pass types=[...] with one of 'nominal', 'continuous', 'integer' per column")
    if isinstance(types, dict):
        raise ValueError("types must be a sequence for an array X (a dict is only meaningful for a DataFrame)")
    types = tuple(types)
    if len(types) != values.shape[1]:
        raise ValueError(f"types has {len(types)} entries but X has {values.shape[1]} columns")
    _check_types(types, [str(i) for i in range(len(types))])
    if SET in types:
        raise ValueError(
            f"column {types.index(SET)} of the array X is said to be of type 'set': an array holds one "
            "number per cell, so set-valued columns need a DataFrame whose cells are (members, d) "
            "arrays"
        )
    numeric = as_numbers(values, "X")
    columns = tuple(str(i) for i in range(values.shape[1]))
    check_finite(numeric, columns)
    return Encoded(numeric, columns, types, (None,) * len(types), from_frame=False)


def _refuse_empty(shape) -> None:
    if shape[0] == 0:
        raise ValueError(f"X is empty: 0 sample(s) (shape={tuple(shape)}) while a minimum of 1 is required.")
    if shape[1] == 0:
        raise ValueError(f"X is empty: 0 feature(s) (shape={tuple(shape)}) while a minimum of 1 is required.")


def _refuse_sparse(X) -> None:
    import scipy.sparse

    if scipy.sparse.issparse(X):
        raise TypeError(
            "X is a sparse matrix: sparse input is not supported (unknown values are NaN, which a sparse matrix "
            "cannot tell from 0); pass X.toarray()"
        )


def _refuse_sets(enc: Encoded) -> None:
    named = [c for c, k in zip(enc.columns, enc.kinds) if k == SET]
    if named:
        raise ValueError(
            f"columns {named} hold sets of vectors: only metrics with a term for them accept set-valued "
            "attributes (lazylib.weighting.FeatureDifference and MDW, e.g. through "
            "KNeighborsClassifier)"
        )


def _encode_frame(X: pd.DataFrame, types) -> Encoded:
    _refuse_empty(X.shape)
    columns = tuple(str(c) for c in X.columns)
    if len(set(columns)) != len(columns):
        raise ValueError("X has duplicate column names")
    if types is None:
        kinds = tuple(_infer(X[c], str(c)) for c in X.columns)
    elif isinstance(types, dict):
        missing = [c for c in columns if c not in types]
        if missing:
            raise ValueError(f"types has no entry for columns {missing}")
        kinds = tuple(types[c] for c in columns)
    else:
        kinds = tuple(types)
        if len(kinds) != len(columns):
            raise ValueError(f"types has {len(kinds)} entries but X has {len(columns)} columns")
    _check_types(kinds, columns)
    out = np.empty(X.shape, dtype=np.float64)
    categories: list[tuple | None] = []
    sets: list[SetTable | None] = [None] * len(columns)
    for j, (name, kind) in enumerate(zip(X.columns, kinds)):
        col = X[name]
        if kind == SET:
            out[:, j], sets[j] = _encode_sets(col, str(name))
            categories.append(None)
        elif isinstance(col.dtype, pd.CategoricalDtype):
            codes = col.array.codes.astype(np.float64)
            codes[codes < 0] = np.nan
            if kind != NOMINAL:
                raise ValueError(f"column {name!r} is categorical but its type is {kind!r}")
            out[:, j] = codes
            categories.append(tuple(col.cat.categories))
        elif kind == NOMINAL and pd.api.types.is_bool_dtype(col.dtype):
            out[:, j] = col.to_numpy(dtype=np.float64, na_value=np.nan)  # nullable booleans: NA -> unknown
            categories.append((False, True))
        elif pd.api.types.is_complex_dtype(col.dtype):
            raise NotNumbersError(
                f"column {name!r} holds complex numbers (Complex data not supported): distances need real values"
            )
        elif pd.api.types.is_numeric_dtype(col.dtype):
            if pd.api.types.is_integer_dtype(col.dtype):
                _warn_inexact_integers(np.asarray(col.dropna().to_numpy()), f"column {name!r}")
            out[:, j] = col.to_numpy(dtype=np.float64, na_value=np.nan)
            categories.append(None)
        else:
            raise ValueError(
                f"column {name!r} has dtype {col.dtype}; nominal columns must be pandas Categorical, "
                "linear ones numeric"
            )
    check_finite(out, columns)
    return Encoded(out, columns, kinds, tuple(categories), from_frame=True, sets=tuple(sets) if SET in kinds else None)


def _unknown_set(cell) -> bool:
    """None, a NaN / NA scalar or an empty array: an unknown set."""
    if cell is None or (np.ndim(cell) == 0 and pd.isna(cell)):
        return True
    return isinstance(cell, (np.ndarray, list, tuple)) and np.size(cell) == 0


def _encode_sets(col: pd.Series, name: str) -> tuple[np.ndarray, SetTable]:
    """The set indices of a set-valued column (NaN for unknown) and its :class:`SetTable`."""
    ids = np.full(len(col), np.nan)
    sets, dim = [], None
    for row, cell in enumerate(col):
        if _unknown_set(cell):
            continue
        if not isinstance(cell, (np.ndarray, list, tuple)):
            raise ValueError(
                f"set column {name!r} holds a {type(cell).__name__} in row {row}: each value must be a "
                "(members, d) array of numbers, or None for unknown"
            )
        try:
            members = np.asarray(cell, dtype=np.float64)
        except (TypeError, ValueError):
            raise ValueError(f"set column {name!r}, row {row}: the members must be numbers") from None
        if members.ndim != 2:
            raise ValueError(
                f"set column {name!r}, row {row}: a set is a (members, d) array, got shape "
                f"{members.shape} (one member of d numbers: reshape to (1, d))"
            )
        if dim is None:
            dim = members.shape[1]
        if members.shape[1] != dim:
            raise ValueError(
                f"set column {name!r}, row {row}: members have dimension {members.shape[1]}, the "
                f"column's earlier sets {dim}; every member of a column has the same dimension"
            )
        if not np.isfinite(members).all():
            raise ValueError(
                f"set column {name!r}, row {row}: a member holds a NaN or infinite number; a set is "
                "known or unknown as a whole (None), its members must be finite"
            )
        ids[row] = len(sets)
        sets.append(members)
    return ids, SetTable.from_sets(sets)


def is_set_column(col: pd.Series) -> bool:
    """True for an object column whose known cells are all arrays (at least one): a set-valued column."""
    if col.dtype != object:
        return False
    known = [c for c in col if not _unknown_set(c)]
    return bool(known) and all(isinstance(c, np.ndarray) for c in known)


class NotNumbersError(ValueError, TypeError):
    """An array that should hold numbers holds something else (text, objects, complex numbers). A ValueError like
    every other input error of lazylib, and a TypeError as numpy's own conversion error is."""


#: The largest integer magnitude below which float64 holds every integer exactly.
_EXACT_INTEGERS = 2**53


def _warn_inexact_integers(values: np.ndarray, what: str) -> None:
    """Warn when integers ``values`` (any other dtype: nothing to check) include one beyond ``2**53`` in
    magnitude: float64, the form every distance reads, rounds them, so distinct values may become equal (issue
    #53, item 5: uint64 values above 2**53 collapsed to one float without a word)."""
    if values.dtype.kind not in "iu" or not values.size:
        return
    hi, lo = int(values.max()), int(values.min())
    if hi > _EXACT_INTEGERS or lo < -_EXACT_INTEGERS:
        big = hi if hi > -lo else lo
        warnings.warn(
            f"{what} holds integers beyond 2**53 (such as {big}), which float64 cannot all tell apart: distinct "
            "values may become equal; subtract an offset, rescale them, or encode them as nominal",
            UserWarning,
            stacklevel=3,
        )


def as_numbers(X, what: str = "X") -> np.ndarray:
    """``X`` as a float64 array, refusing complex numbers (whose imaginary part a conversion would drop) and
    anything that is not a number, with :class:`NotNumbersError` naming ``what``."""
    values = np.asarray(X)
    if np.iscomplexobj(values):
        raise NotNumbersError(f"{what} holds complex numbers (Complex data not supported): distances need real values")
    _warn_inexact_integers(values, what)
    try:
        return values.astype(np.float64)
    except (TypeError, ValueError) as exc:
        raise NotNumbersError(
            f"{what} must hold numbers (nominal values as numeric codes, missing as NaN): {exc}"
        ) from exc


def check_finite(values: np.ndarray, columns) -> None:
    """Refuse infinite values, naming the first column and row that holds one (missing values are NaN, which
    every metric has a rule for; an infinity has no meaning in any distance of the papers)."""
    bad = np.isinf(values)
    if bad.any():
        row, col = np.argwhere(bad)[0]
        raise ValueError(
            f"column {columns[col]!r} holds an infinite value (row {row}, {int(bad[:, col].sum())} "
            "in that column); distances are undefined for infinities: use NaN for unknown values"
        )


def _infer(col: pd.Series, name: str) -> str:
    if isinstance(col.dtype, pd.CategoricalDtype) or pd.api.types.is_bool_dtype(col.dtype):
        return NOMINAL
    if pd.api.types.is_numeric_dtype(col.dtype):
        return "continuous"
    if is_set_column(col):
        return SET
    raise ValueError(
        f"column {name!r} has dtype {col.dtype}: make it a pandas Categorical (nominal), numeric (linear) or an "
        "object column of (members, d) arrays (set-valued)"
    )


def _check_types(kinds, columns) -> None:
    for name, kind in zip(columns, kinds):
        if kind not in TYPES:
            raise ValueError(f"unknown attribute type {kind!r} for column {name!r}; expected one of {TYPES}")


@dataclass(frozen=True)
class Schema:
    """The columns of the training data: names, types, categories of nominal columns, whether they came from a
    DataFrame, and the member dimension of each set-valued column (None for the others, and for a column whose
    training sets are all unknown). Later inputs must match it."""

    columns: tuple[str, ...]
    kinds: tuple[str, ...]
    categories: tuple[tuple | None, ...]
    from_frame: bool
    set_dims: tuple[int | None, ...] = ()

    @classmethod
    def of(cls, enc: Encoded) -> "Schema":
        dims = tuple(None if t is None or not len(t) else t.dim for t in (enc.sets or (None,) * len(enc.columns)))
        return cls(enc.columns, enc.kinds, enc.categories, enc.from_frame, dims)

    @property
    def has_sets(self) -> bool:
        """Whether a column holds sets of vectors."""
        return SET in self.kinds

    @property
    def nominal(self) -> np.ndarray:
        """Whether each column is nominal (boolean array over the columns)."""
        return np.array([k == NOMINAL for k in self.kinds], dtype=bool)

    def encode(self, X, what: str) -> np.ndarray:
        """``X`` (queries ``"A"`` or stored instances ``"B"``, named by ``what`` in errors) as the float matrix
        the training data became: same columns, same categories; an array only where the training data held
        no categories (its numbers would otherwise be read as category codes) and no sets."""
        return self.encode_with_sets(X, what)[0]

    def encode_with_sets(self, X, what: str) -> tuple[np.ndarray, tuple | None]:
        """:meth:`encode`, and the set tables of ``X`` (one per column, None for the columns without sets;
        None when the training data had no set-valued column). Sets must have the fitted member dimension."""
        if self.has_sets and not isinstance(X, (pd.DataFrame, Encoded)):
            named = [c for c, k in zip(self.columns, self.kinds) if k == SET]
            raise ValueError(
                f"{what} is an array but the metric was fitted with set-valued columns {named}: pass a "
                "DataFrame with the same columns"
            )
        if isinstance(X, pd.DataFrame):
            if not self.from_frame:
                raise ValueError(f"{what} is a DataFrame but the metric was fitted on an array")
            cols = tuple(str(c) for c in X.columns)
            if cols != self.columns:
                raise ValueError(f"{what} columns {list(cols)} differ from the fitted columns {list(self.columns)}")
            enc = encode(X, dict(zip(self.columns, self.kinds)), sets=self.has_sets)
            for name, fitted, now in zip(self.columns, self.categories, enc.categories):
                if fitted != now:
                    raise ValueError(f"{what} column {name!r} has categories {now}, fitted with {fitted}")
            return enc.values, self._check_sets(enc, what)
        if isinstance(X, Encoded):
            if X.columns != self.columns or X.categories != self.categories or X.kinds != self.kinds:
                raise ValueError(f"{what} was encoded with columns or categories (or types) other than the fitted ones")
        elif self.from_frame and any(c is not None for c in self.categories):
            named = [n for n, c in zip(self.columns, self.categories) if c is not None]
            raise ValueError(
                f"{what} is an array but the metric was fitted on a DataFrame with categorical columns "
                f"{named[:5]}{'...' if len(named) > 5 else ''}: pass a DataFrame with the same columns "
                "(an array's numbers would be read as category codes)"
            )
        values = X.values if isinstance(X, Encoded) else as_numbers(X, what)
        if values.ndim != 2 or values.shape[1] != len(self.columns):
            raise ValueError(f"{what} must have shape (n, {len(self.columns)}), got {values.shape}")
        if values.shape[0] == 0:
            raise ValueError(f"{what} is empty")
        if not isinstance(X, Encoded):
            check_finite(values, self.columns)
        return values, (self._check_sets(X, what) if isinstance(X, Encoded) else None)

    def _check_sets(self, enc: Encoded, what: str) -> tuple | None:
        if not self.has_sets:
            return None
        for name, dim, table in zip(self.columns, self.set_dims, enc.sets):
            if dim is not None and len(table) and table.dim != dim:
                raise ValueError(f"{what} set column {name!r} has members of dimension {table.dim}, fitted with {dim}")
        return enc.sets


# The one input path of every estimator (scikit-learn conventions).


def fit_input(estimator, X, types=None, *, sets: bool = False) -> Encoded:
    """Training data ``X`` of ``estimator`` encoded, its :class:`Schema` kept as ``estimator.schema_`` (applied to
    every later query by :func:`query_input`), and ``n_features_in_`` / ``feature_names_in_`` set as
    scikit-learn sets them. An array without ``types`` is read as scikit-learn reads a numeric array: every
    column continuous (pass ``types`` for nominal codes). Types are fit-time information: queries never take
    them again."""
    X = _array_or_frame(X)
    if types is None and not isinstance(X, (pd.DataFrame, Encoded)) and X.ndim == 2:
        types = ("continuous",) * X.shape[1]
    enc = encode(X, types, sets=sets)
    _set_feature_names(estimator, X, enc)
    estimator.schema_ = Schema.of(enc)
    return enc


def _set_feature_names(estimator, X, enc: Encoded) -> None:
    from sklearn.utils.validation import validate_data

    if isinstance(X, Encoded):
        estimator.n_features_in_ = len(enc.columns)
        if enc.from_frame:
            estimator.feature_names_in_ = np.asarray(enc.columns, dtype=object)
        elif hasattr(estimator, "feature_names_in_"):
            del estimator.feature_names_in_
    else:
        validate_data(estimator, X, reset=True, skip_check_array=True)


def _array_or_frame(X):
    """A DataFrame or an :class:`Encoded` as it is; anything else as a numpy array (sparse matrices refused)."""
    if X is None or isinstance(X, (pd.DataFrame, Encoded)):
        return X
    _refuse_sparse(X)
    return np.asarray(X)


def check_query(estimator, X):
    """Refuse queries to an unfitted ``estimator`` (scikit-learn's ``NotFittedError``) and queries whose number
    of columns or column names differ from the training data's (scikit-learn's messages); the schema's other
    checks (types, categories, sets) follow in :func:`query_input` or the fitted metric. Returns ``X`` (an
    array-like as a numpy array)."""
    from sklearn.utils.validation import check_is_fitted, validate_data

    check_is_fitted(estimator)
    X = _array_or_frame(X)
    if X is not None and not isinstance(X, Encoded):
        if not isinstance(X, pd.DataFrame) and X.ndim == 1:
            raise ValueError(
                f"X must be 2-dimensional (instances x attributes), got shape {np.shape(X)}: Reshape your data, "
                "e.g. X.reshape(1, -1) for a single instance"
            )
        with warnings.catch_warnings():  # an array after a DataFrame: the schema decides (refused if categorical)
            warnings.filterwarnings("ignore", message="X does not have valid feature names", category=UserWarning)
            validate_data(estimator, X, reset=False, skip_check_array=True)
    return X


def query_input(estimator, X, what: str = "X") -> np.ndarray:
    """Queries ``X`` of a fitted ``estimator`` as the float matrix its training data became, through the fitted
    schema (:func:`check_query`, then :meth:`Schema.encode`): same columns in the same order, same types, same
    category lists."""
    X = check_query(estimator, X)
    return estimator.schema_.encode(X, what)
