"""A reviewer's table of bad and extreme inputs across the public API of the metrics, the generators, the data
loader, the policy table, the plots and the C4.5 tree: each row is one call and what it must do, either a clear
error (its type and a phrase the message must contain) or a correct value.

Rows whose remaining failure lies in a file another part of the project owns are marked ``xfail`` with that
file's name (they are listed in the report of the robustness work); they turn into passes when it is fixed.
:func:`outcome` classifies what a call actually did, so ``python tests/unit/test_validation_probes.py`` prints
the table with the class of every row (correct answer, clear error, silent wrong answer, crash from deep inside
numpy/pandas, memory blow-up).
"""

from __future__ import annotations

import json
import shutil
import traceback
import warnings
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from lazylib import evaluation, synthetic
from lazylib._validation import Choice, Integer, Real, check
from lazylib.c45_builder import entropy, extra_errors, normal_deviate
from lazylib.column_stats import known_mean_std, known_range
from lazylib.datasets import load, papers_using
from lazylib.metrics import Discretizer, NotFittedError, make_metric, minimum_value_weight, value_weight, vdm_delta
from lazylib.neighbors import KNeighborsClassifier, loo_accuracy_by_k
from lazylib.report.robustness import policy_table
from lazylib.trees import C45Classifier

NUM2 = ["continuous"] * 2
X2 = np.array([[0.0, 0.0], [1.0, 2.0], [3.0, 1.0], [2.0, 2.5], [0.5, 3.0]])
Y2 = np.array([0, 0, 1, 1, 1])
FRAME = pd.DataFrame({"c": pd.Categorical(["u", "v", "u", "w", "v"]), "x": [0.5, 1.0, 2.0, 4.0, 3.0]})


@dataclass(frozen=True)
class Err:
    """The call must raise ``exc`` with ``phrase`` in its message."""

    exc: type
    phrase: str


@dataclass(frozen=True)
class Ok:
    """The call must return a value for which ``test(value)`` is true (``what`` says what is checked)."""

    test: object
    what: str = ""


@dataclass(frozen=True)
class Case:
    id: str
    call: object
    expect: object
    owner: str | None = None  # a file owned by another part of the project, where the remaining failure is


def fitted(name, X=X2, y=Y2, types=NUM2, **params):
    return make_metric(name, **params).fit(X, y, types=types)


def diag_exact_zero(name, X, y, types=None, **params):
    if name == "quadratic":
        params["Q"] = np.diag([2.0, 1.0, 0.5])
    D = make_metric(name, **params).fit(X, y, types=types).pairwise(X)
    return np.diag(D)


def _sets(cells, *, arrays=True):
    """A one-column frame ``s`` of set values (``(members, d)`` arrays, None for unknown)."""
    values = [c if c is None or not arrays else np.asarray(c, dtype=float) for c in cells]
    return pd.DataFrame({"s": pd.Series(values, dtype=object)})


def _feature_difference(**params):
    from lazylib.weighting import FeatureDifference

    return FeatureDifference(**params)


def _mdw(**params):
    from lazylib.weighting import MDW

    return MDW(**params)


def _ig(**params):
    from lazylib.weighting import IGWeighted

    return IGWeighted(**params)


def _iris():
    return load("iris")


def _copy_dataset(tmp, name="iris"):
    from lazylib.datasets import _loader

    schema = json.loads((_loader.DATA_DIR / f"{name}.schema.json").read_text())
    for f in (f"{name}.schema.json", schema["file"], "MANIFEST.md"):
        shutil.copy(_loader.DATA_DIR / f, tmp / f)
    return schema


def _with_schema(tmp, change, name="iris"):
    """A copy of a vendored data set whose schema is edited by ``change(schema)``; returns the folder."""
    schema = _copy_dataset(tmp, name)
    change(schema)
    (tmp / f"{name}.schema.json").write_text(json.dumps(schema))
    return tmp


def _with_csv(tmp, edit, name="iris"):
    """A copy whose CSV text is edited by ``edit(text)`` and whose manifest records the new sha256."""
    import hashlib

    schema = _copy_dataset(tmp, name)
    path = tmp / schema["file"]
    old = hashlib.sha256(path.read_bytes()).hexdigest()
    path.write_text(edit(path.read_text()))
    new = hashlib.sha256(path.read_bytes()).hexdigest()
    manifest = tmp / "MANIFEST.md"
    manifest.write_text(manifest.read_text().replace(old, new))
    return tmp


def _tmp():
    """A fresh folder, removed when the interpreter exits."""
    import atexit
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="lazylib-probe-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


def _tree(X=FRAME, y=Y2, **params):
    return C45Classifier(**params).fit(X, y)


def _all_close(expected, rtol=1e-12, atol=0.0):
    return Ok(lambda v: np.allclose(v, expected, rtol=rtol, atol=atol), f"== {expected!r}")


def _finite_positive_off_diagonal(D):
    off = ~np.eye(len(D), dtype=bool)
    return bool(np.isfinite(D).all() and (D[off] > 0).all())


def _zero_data(name):
    """Training data with repeated rows for the exact-zero probe: mixed with unknowns where the metric has a
    rule for them (a row with a distance-one unknown is left complete), linear for the Figure 1 distances."""
    from lazylib.metrics import REGISTRY

    rng = np.random.default_rng(7)
    y = np.arange(30) % 3
    if REGISTRY[name].accepts is not None:
        X = rng.random((30, 3)) * 10 + 1
        return np.vstack([X, X[:5]]), np.append(y, y[:5]), ["continuous"] * 3
    X = pd.DataFrame(
        {"c": pd.Categorical(rng.choice(list("abcd"), 30)), "x": rng.random(30) * 1e3, "z": rng.normal(size=30)}
    )
    return pd.concat([X, X.iloc[:5]], ignore_index=True), np.append(y, y[:5]), None


def _duplicate_values(schema):
    col = next(c for c in schema["columns"] if c["type"] == "nominal")
    col["values"] = col["values"] + col["values"][:1]


def _string_values(schema):
    col = next(c for c in schema["columns"] if c["type"] == "nominal")
    col["values"] = "".join(col["values"])


def _bad_split(schema):
    schema["split"] = [{"first_row": 1, "last_row": 100}, {"first_row": 101, "last_row": 400}]


def _with_csv_unrecorded(tmp):
    schema = _copy_dataset(tmp)
    path = tmp / schema["file"]
    path.write_text(path.read_text().replace("5.1,3.5", "5.2,3.5", 1))
    return tmp


def _without_csv(tmp):
    schema = _copy_dataset(tmp)
    (tmp / schema["file"]).unlink()
    return tmp


def _without_manifest(tmp):
    _copy_dataset(tmp)
    (tmp / "MANIFEST.md").unlink()
    return tmp


def _axes(n):
    import matplotlib.pyplot as plt

    return list(np.atleast_1d(plt.subplots(1, n)[1]))


def _plot(draw):
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    from lazylib.report import plotting

    try:
        return draw(plotting)
    finally:
        plt.close("all")


def _read_only(a):
    a = np.array(a)
    a.flags.writeable = False
    return a


ALL_ZERO = Ok(lambda v: bool(np.all(np.asarray(v) == 0.0)), "exactly 0")

CASES = [
    # ------------------------------------------------------------ the declared checks themselves
    Case("check-int-bool", lambda: check("k", True, Integer(low=1)), Err(ValueError, "k must be an integer")),
    Case(
        "check-int-numpy-bool",
        lambda: check("k", np.bool_(True), Integer(low=1)),
        Err(ValueError, "k must be an integer >= 1"),
    ),
    Case("check-int-float", lambda: check("k", 3.0, Integer()), Err(ValueError, "k must be an integer, got 3.0")),
    Case("check-int-numpy", lambda: check("k", np.int16(3), Integer(low=1)), Ok(lambda v: v == 3 and type(v) is int)),
    Case("check-int-string", lambda: check("k", "3", Integer()), Err(ValueError, "got '3'")),
    Case("check-real-nan", lambda: check("x", float("nan"), Real()), Err(ValueError, "x must be a finite number")),
    Case("check-real-huge-int", lambda: check("x", 10**400, Real(low=0)), Err(ValueError, "x must be a finite")),
    Case("check-real-fraction", lambda: check("x", Fraction(1, 2), Real(low=0)), Ok(lambda v: v == 0.5)),
    Case("check-real-complex", lambda: check("x", 1 + 0j, Real()), Err(ValueError, "x must be a finite number")),
    Case("check-real-numpy-array", lambda: check("x", np.array([0.5]), Real()), Err(ValueError, "x must be a")),
    Case("check-choice-numpy-str", lambda: check("m", np.str_("N2"), Choice(("N1", "N2"))), Ok(lambda v: v == "N2")),
    Case(
        "check-choice-close-match",
        lambda: check("m", "n2", Choice(("N1", "N2", "N3"))),
        Err(ValueError, "did you mean 'N2'"),
    ),
    Case("check-choice-unhashable", lambda: check("m", ["N1"], Choice(("N1",))), Err(ValueError, "m must be one of")),
    # ------------------------------------------------------------ metric names and parameters
    Case("metric-name-typo", lambda: make_metric("euclidian"), Err(ValueError, "did you mean 'euclidean'")),
    Case("metric-name-case", lambda: make_metric("HVDM"), Ok(lambda m: type(m).__name__ == "HVDM")),
    Case("metric-name-none", lambda: make_metric(None), Err(ValueError, "unknown metric None")),
    Case("metric-name-int", lambda: make_metric(3), Err(ValueError, "unknown metric 3")),
    Case(
        "metric-param-typo",
        lambda: make_metric("hvdm", normalisation="N1"),
        Err(ValueError, "did you mean 'normalization'"),
    ),
    Case("metric-param-foreign", lambda: make_metric("euclidean", r=3), Err(ValueError, "does not take")),
    Case("hvdm-normalization-case", lambda: fitted("hvdm", normalization="n2"), Err(ValueError, "did you mean 'N2'")),
    Case(
        "hvdm-unseen-bogus",
        lambda: fitted("hvdm", unseen="Zero"),
        Err(ValueError, "'unseen' parameter of HVDM must be"),
    ),
    Case(
        "mvdm-unseen-bogus", lambda: fitted("mvdm", unseen=None), Err(ValueError, "'unseen' parameter of MVDM must be")
    ),
    Case(
        "overlap-missing-bogus",
        lambda: fitted("overlap", missing="ignore"),
        Err(ValueError, "'missing' parameter of Overlap must be"),
    ),
    Case("dvdm-s-float", lambda: fitted("dvdm", s=2.7), Err(ValueError, "'s' parameter of DVDM must be an integer")),
    Case("dvdm-s-bool", lambda: fitted("dvdm", s=True), Err(ValueError, "'s' parameter of DVDM must be an integer")),
    Case("dvdm-s-zero", lambda: fitted("dvdm", s=0), Err(ValueError, "'s' parameter of DVDM must be an integer >= 1")),
    Case("ivdm-s-huge", lambda: fitted("ivdm", s=10**8), Err(ValueError, "s must be an integer >= 1 and <= 5")),
    Case("ivdm-s-numpy", lambda: fitted("ivdm", s=np.int64(3)).s_, Ok(lambda v: v == 3)),
    Case(
        "dvdm-erratum-string",
        lambda: fitted("dvdm", erratum="no"),
        Err(ValueError, "'erratum' parameter of DVDM must be one of"),
    ),
    Case("dvdm-erratum-numpy-bool", lambda: fitted("dvdm", erratum=np.bool_(False)).root_, Ok(lambda v: v == 1.0)),
    Case(
        "dvdm-integer-bogus-all-nominal",
        lambda: make_metric("dvdm", integer="float").fit(FRAME[["c"]], Y2),
        Err(ValueError, "'integer' parameter of DVDM must be"),
    ),
    Case("ivdm-midpoints-bogus", lambda: fitted("ivdm", midpoints="center"), Err(ValueError, "did you mean 'centre'")),
    Case("wvdm-midpoints-foreign", lambda: make_metric("wvdm", midpoints="centre"), Err(ValueError, "does not take")),
    Case("minkowski-r-inf", lambda: fitted("minkowski", r=float("inf")), Err(ValueError, "chebychev")),
    Case(
        "minkowski-r-half",
        lambda: fitted("minkowski", r=0.5),
        Err(ValueError, "'r' parameter of Minkowski must be a finite number >= 1"),
    ),
    Case(
        "minkowski-r-bool",
        lambda: fitted("minkowski", r=True),
        Err(ValueError, "'r' parameter of Minkowski must be a finite number"),
    ),
    Case(
        "minkowski-r-string",
        lambda: fitted("minkowski", r="2"),
        Err(ValueError, "'r' parameter of Minkowski must be a finite number"),
    ),
    Case(
        "minkowski-r-nan",
        lambda: fitted("minkowski", r=float("nan")),
        Err(ValueError, "'r' parameter of Minkowski must be a finite"),
    ),
    Case(
        "minkowski-r-3", lambda: fitted("minkowski", r=3).pairwise(X2[:1], X2[1:2]), _all_close([[(1 + 8) ** (1 / 3)]])
    ),
    Case(
        "minkowski-r-60-tiny-scale",
        lambda: fitted("minkowski", X=X2 * 1e-8, r=60).pairwise(X2[:2] * 1e-8, X2[:2] * 1e-8),
        Ok(_finite_positive_off_diagonal, "finite, nonzero between distinct rows"),
    ),
    Case(
        "minkowski-r-60-large-scale",
        lambda: fitted("minkowski", X=X2 * 1e8, r=60).pairwise(X2[:2] * 1e8, X2[:2] * 1e8),
        Ok(_finite_positive_off_diagonal, "finite, nonzero between distinct rows"),
    ),
    Case(
        "euclidean-normalize-bogus",
        lambda: fitted("euclidean", normalize="max"),
        Err(ValueError, "'normalize' parameter of Euclidean must"),
    ),
    Case(
        "euclidean-normalize-close",
        lambda: fitted("euclidean", normalize="Range"),
        Err(ValueError, "did you mean 'range'"),
    ),
    Case(
        "working-memory-string",
        lambda: fitted("euclidean", working_memory="64"),
        Err(ValueError, "'working_memory' parameter of Euclidean must be a finite number > 0"),
    ),
    Case(
        "working-memory-zero",
        lambda: fitted("hvdm", working_memory=0),
        Err(ValueError, "'working_memory' parameter of HVDM must be a finite number > 0"),
    ),
    Case(
        "working-memory-nan",
        lambda: fitted("chebychev", working_memory=float("nan")),
        Err(ValueError, "'working_memory' parameter of Chebychev must be"),
    ),
    Case(
        "working-memory-inf",
        lambda: fitted("mvdm", working_memory=float("inf")),
        Err(ValueError, "'working_memory' parameter of MVDM must be"),
    ),
    Case("wom-no-weights", lambda: fitted("wom"), Err(ValueError, "WOM needs attribute weights")),
    Case(
        "weights-wrong-length",
        lambda: fitted("euclidean", weights=[1.0, 2.0, 3.0]),
        Err(ValueError, "weights must have shape (2,)"),
    ),
    Case("weights-nan", lambda: fitted("hvdm", weights=[np.nan, 1.0]), Err(ValueError, "weights must be finite")),
    Case("weights-inf", lambda: fitted("manhattan", weights=[np.inf, 1.0]), Err(ValueError, "weights must be finite")),
    Case("weights-negative", lambda: fitted("heom", weights=[-1.0, 1.0]), Err(ValueError, "non-negative")),
    Case("weights-strings", lambda: fitted("euclidean", weights=["a", "b"]), Err(ValueError, "weights must")),
    Case("weights-dict", lambda: fitted("euclidean", weights={"0": 1.0, "1": 2.0}), Err(ValueError, "weights must")),
    Case(
        "weights-per-class-shape",
        lambda: fitted("hvdm", weights=np.ones((3, 2))),
        Err(ValueError, "weights must have shape (2,) or (2, 2)"),
    ),
    # ------------------------------------------------------------ data given to fit
    Case(
        "fit-1d",
        lambda: make_metric("euclidean").fit(np.zeros(4), types=["continuous"]),
        Err(ValueError, "2-dimensional"),
    ),
    Case(
        "fit-3d",
        lambda: make_metric("euclidean").fit(np.zeros((2, 2, 2)), types=NUM2),
        Err(ValueError, "2-dimensional"),
    ),
    Case(
        "fit-empty-rows",
        lambda: make_metric("euclidean").fit(np.zeros((0, 2)), types=NUM2),
        Err(ValueError, "X is empty"),
    ),
    Case(
        "fit-empty-columns",
        lambda: make_metric("overlap").fit(np.zeros((3, 0)), types=[]),
        Err(ValueError, "X is empty"),
    ),
    Case("fit-empty-frame", lambda: make_metric("heom").fit(pd.DataFrame()), Err(ValueError, "X is empty")),
    Case(
        "fit-types-short",
        lambda: make_metric("euclidean").fit(X2, types=["continuous"]),
        Err(ValueError, "types has 1 entries but X has 2 columns"),
    ),
    Case(
        "fit-types-unknown",
        lambda: make_metric("euclidean").fit(X2, types=["numeric", "continuous"]),
        Err(ValueError, "unknown attribute type 'numeric'"),
    ),
    Case(
        "fit-types-dict-array",
        lambda: make_metric("euclidean").fit(X2, types={"0": "continuous"}),
        Err(ValueError, "types must be a sequence"),
    ),
    Case(
        "fit-types-dict-missing-key",
        lambda: make_metric("heom").fit(FRAME, types={"c": "nominal"}),
        Err(ValueError, "types has no entry for columns ['x']"),
    ),
    Case(
        "fit-string-array",
        lambda: make_metric("overlap").fit(np.array([["a", "b"], ["c", "d"]]), types=["nominal"] * 2),
        Err(ValueError, "must hold numbers"),
    ),
    Case(
        "fit-object-none",
        lambda: (
            make_metric("overlap")
            .fit(np.array([[None, 1.0], [2.0, 1.0]], dtype=object), types=["nominal"] * 2)
            .pairwise(np.array([[np.nan, 1.0]]))
        ),
        _all_close([[0.0, 1.0]]),
    ),
    Case("fit-complex", lambda: make_metric("euclidean").fit(X2 + 1j, types=NUM2), Err(ValueError, "complex")),
    Case(
        "fit-bool-array-nominal",
        lambda: make_metric("overlap").fit(np.array([[True], [False]]), types=["nominal"]).pairwise(np.array([[1.0]])),
        _all_close([[0.0, 1.0]]),
    ),
    Case(
        "fit-float32",
        lambda: fitted("euclidean", X=X2.astype(np.float32)).pairwise(X2[:1]),
        _all_close(np.sqrt(((X2 - X2[0]) ** 2).sum(1))[None, :], rtol=1e-6),
    ),
    Case(
        "fit-int-array",
        lambda: fitted("manhattan", X=X2.astype(int)).pairwise(X2[:1].astype(int)),
        _all_close(np.abs(X2.astype(int) - X2[0].astype(int)).sum(1)[None, :]),
    ),
    Case(
        "fit-read-only",
        lambda: fitted("hvdm", X=_read_only(X2)).pairwise(_read_only(X2[:1]))[0, 0],
        Ok(lambda v: v == 0.0),
    ),
    Case(
        "fit-read-only-statistical",
        lambda: fitted("mahalanobis", X=_read_only(X2)).pairwise(_read_only(X2))[1, 1],
        Ok(lambda v: v == 0.0),
    ),
    Case(
        "fit-single-row-euclidean",
        lambda: fitted("euclidean", X=X2[:1], y=None, normalize="std").pairwise(X2[:2]),
        Ok(lambda v: v.shape == (2, 1) and v[0, 0] == 0.0 and np.isfinite(v).all(), "constant columns add 0"),
    ),
    Case("fit-single-row-heom", lambda: fitted("heom", X=X2[:1], y=None).pairwise(X2[:2]), _all_close([[0.0], [0.0]])),
    Case("fit-single-row-hvdm", lambda: fitted("hvdm", X=X2[:1], y=Y2[:1]), Err(ValueError, "single class")),
    Case(
        "fit-single-row-mahalanobis",
        lambda: fitted("mahalanobis", X=X2[:1], y=None),
        Err(ValueError, "more training instances than attributes"),
    ),
    Case(
        "fit-single-row-chisquare",
        lambda: fitted("chisquare", X=X2[1:2], y=None).pairwise(X2[1:3]),
        Ok(lambda v: v[0, 0] == 0.0 and v[1, 0] > 0),
    ),
    Case("fit-single-row-kendall", lambda: fitted("kendall", X=X2[1:2], y=None).pairwise(X2[2:3]), _all_close([[2.0]])),
    Case(
        "y-infinite-label",
        lambda: fitted("mvdm", y=[0.0, np.inf, 0.0, np.inf, 0.0]).classes_,
        Err(ValueError, "infinite values, which are not class labels"),
    ),
    Case(
        "fit-non-contiguous",
        lambda: fitted("euclidean", X=np.repeat(X2, 2, axis=1)[:, ::2]).pairwise(X2[:1]),
        _all_close(np.sqrt(((X2 - X2[0]) ** 2).sum(1))[None, :]),
    ),
    Case("fit-fortran", lambda: fitted("heom", X=np.asfortranarray(X2)).pairwise(X2)[1, 1], Ok(lambda v: v == 0.0)),
    Case(
        "fit-inf",
        lambda: fitted("euclidean", X=np.array([[0.0, np.inf], [1.0, 1.0]]), y=None),
        Err(ValueError, "column '1' holds an infinite value"),
    ),
    Case(
        "fit-minus-inf-frame",
        lambda: make_metric("hvdm").fit(FRAME.assign(x=[0, -np.inf, 1, 2, 3]), Y2),
        Err(ValueError, "column 'x' holds an infinite value"),
    ),
    Case(
        "fit-all-nan-column",
        lambda: np.isfinite(fitted("hvdm", X=np.column_stack([X2[:, 0], [np.nan] * 5])).pairwise(X2)).all(),
        Ok(bool),
    ),
    Case(
        "fit-text-column",
        lambda: make_metric("heom").fit(FRAME.assign(c=["u", "v", "u", "w", "v"])),
        Err(ValueError, "column 'c' has dtype"),
    ),
    Case(
        "fit-string-dtype-column",
        lambda: make_metric("heom").fit(FRAME.assign(c=FRAME.c.astype("string"))),
        Err(ValueError, "column 'c' has dtype string"),
    ),
    Case(
        "fit-datetime-column",
        lambda: make_metric("heom").fit(FRAME.assign(x=pd.date_range("2000", periods=5))),
        Err(ValueError, "column 'x' has dtype datetime64"),
    ),
    Case(
        "fit-numbers-in-text-column",
        lambda: make_metric("heom").fit(FRAME.assign(x=["1", "2", "3", "4", "5"])),
        Err(ValueError, "column 'x' has dtype"),
    ),
    Case(
        "fit-nullable-int",
        lambda: (
            make_metric("heom")
            .fit(FRAME.assign(x=pd.array([1, None, 3, 4, 5], dtype="Int64")))
            .pairwise(FRAME.assign(x=pd.array([1, None, 3, 4, 5], dtype="Int64")))[1, 1]
        ),
        Ok(lambda v: v == 1.0, "unknown: 1"),
    ),
    Case(
        "fit-nullable-float",
        lambda: (
            make_metric("euclidean")
            .fit(pd.DataFrame({"a": pd.array([1.0, None, 2.0], dtype="Float64")}))
            .pairwise(pd.DataFrame({"a": pd.array([1.0], dtype="Float64")}))
        ),
        _all_close([[0.0, 1.0, 1.0]]),
    ),
    Case(
        "fit-nullable-boolean",
        lambda: (
            make_metric("overlap")
            .fit(pd.DataFrame({"b": pd.array([True, None, False], dtype="boolean")}))
            .pairwise(pd.DataFrame({"b": pd.array([True, None, False], dtype="boolean")}))
        ),
        _all_close(1 - np.eye(3)),
    ),
    Case(
        "fit-bool-frame-column",
        lambda: (
            make_metric("overlap").fit(pd.DataFrame({"b": [True, False, True]})).pairwise(pd.DataFrame({"b": [True]}))
        ),
        _all_close([[0.0, 1.0, 0.0]]),
    ),
    Case(
        "fit-duplicate-columns",
        lambda: make_metric("heom").fit(pd.DataFrame([[1.0, 2.0]], columns=["a", "a"])),
        Err(ValueError, "duplicate column names"),
    ),
    Case(
        "fit-int-and-str-column-names",
        lambda: make_metric("heom").fit(pd.DataFrame([[1.0, 2.0]], columns=[1, "1"])),
        Err(ValueError, "duplicate column names"),
    ),
    Case(
        "fit-categorical-typed-continuous",
        lambda: make_metric("heom").fit(FRAME, types={"c": "continuous", "x": "continuous"}),
        Err(ValueError, "column 'c' is categorical but its type is 'continuous'"),
    ),
    Case(
        "fit-numeric-typed-nominal",
        lambda: make_metric("heom").fit(FRAME, types={"c": "nominal", "x": "nominal"}).pairwise(FRAME.iloc[:1])[0, 1],
        Ok(lambda v: v == np.sqrt(2), "numbers compared as symbols"),
    ),
    Case(
        "fit-statistical-nominal",
        lambda: make_metric("chebychev").fit(FRAME),
        Err(ValueError, "accepts only ('continuous', 'integer') attributes"),
    ),
    # labels
    Case("y-wrong-length", lambda: fitted("hvdm", y=Y2[:3]), Err(ValueError, "y has 3 labels but X has 5 rows")),
    Case("y-none-needed", lambda: fitted("vdm", y=None), Err(ValueError, "call fit(X, y)")),
    Case("y-nan", lambda: fitted("mvdm", y=[0, 1, np.nan, 1, 0]), Err(ValueError, "missing labels")),
    Case("y-single-class", lambda: fitted("ivdm", y=[1] * 5), Err(ValueError, "single class")),
    Case("y-2d-column", lambda: fitted("hvdm", y=Y2[:, None]), Err(ValueError, "y must be one-dimensional")),
    Case(
        "y-categorical-unused-category",
        lambda: fitted("mvdm", y=pd.Categorical(["a", "b", "a", "b", "a"], categories=["a", "z", "b"])).classes_,
        Ok(lambda v: v.tolist() == ["a", "b"]),
    ),
    Case(
        "y-single-class-label-free-metric",
        lambda: fitted("euclidean", y=[0] * 5).pairwise(X2[:1])[0, 0],
        Ok(lambda v: v == 0.0),
    ),
    # ------------------------------------------------------------ set-valued attributes (Howe & Cardie, Eq. 6)
    Case(
        "sets-ragged-dimensions",
        lambda: _feature_difference().fit(_sets([[[0.0, 1.0]], [[0.0, 1.0, 2.0]]])),
        Err(ValueError, "set column 's', row 1: members have dimension 3"),
    ),
    Case(
        "sets-inf-member",
        lambda: _feature_difference().fit(_sets([[[0.0, 1.0]], [[np.inf, 1.0]]])),
        Err(ValueError, "set column 's', row 1: a member holds a NaN or infinite"),
    ),
    Case(
        "sets-nan-member",
        lambda: _feature_difference().fit(_sets([[[np.nan, 1.0]], [[0.0, 1.0]]])),
        Err(ValueError, "row 0: a member holds a NaN"),
    ),
    Case(
        "sets-one-dimensional",
        lambda: _feature_difference().fit(_sets([np.array([0.0, 1.0])])),
        Err(ValueError, "a set is a (members, d) array"),
    ),
    Case(
        "sets-string-cell",
        lambda: _feature_difference().fit(_sets([[[0.0, 1.0]], "ab"], arrays=False), types={"s": "set"}),
        Err(ValueError, "column 's' holds a str in row 1"),
    ),
    Case(
        "sets-string-cell-inferred",
        lambda: _feature_difference().fit(_sets([np.zeros((1, 2)), "ab"], arrays=False)),
        Err(ValueError, "or an object column of (members, d) arrays"),
    ),
    Case(
        "sets-given-to-hvdm",
        lambda: make_metric("hvdm").fit(_sets([[[0.0, 1.0]], [[1.0, 1.0]]]), [0, 1]),
        Err(ValueError, "HVDM has no term for set-valued attributes, and columns ['s']"),
    ),
    Case(
        "sets-given-to-euclidean",
        lambda: make_metric("euclidean").fit(_sets([[[0.0, 1.0]], [[1.0, 1.0]]])),
        Err(ValueError, "columns ['s'] hold sets"),
    ),
    Case(
        "sets-given-to-ig",
        lambda: _ig().fit(_sets([[[0.0, 1.0]], [[1.0, 1.0]]]), [0, 1]),
        Err(ValueError, "IGWeighted has no term for set-valued"),
    ),
    Case(
        "sets-given-to-c45",
        lambda: C45Classifier().fit(_sets([[[0.0, 1.0]], [[1.0, 1.0]]]), [0, 1]),
        Err(ValueError, "columns ['s'] hold sets of vectors: only metrics with a term for them"),
    ),
    Case(
        "sets-encoded-once-for-c45",
        lambda: evaluation.cross_validate(
            C45Classifier,
            _sets([[[0.0, 1.0]], [[1.0, 1.0]], [[0.0, 2.0]], [[3.0, 1.0]]]),
            [0, 1, 0, 1],
            [([0, 1], [2, 3])],
        ),
        Err(ValueError, "hold sets of vectors"),
    ),
    Case(
        "sets-array-claims-set",
        lambda: make_metric("heom").fit(X2, Y2, types=["continuous", "set"]),
        Err(ValueError, "column 1 of the array X is said to be of type 'set'"),
    ),
    Case(
        "sets-array-query",
        lambda: _feature_difference().fit(_sets([[[0.0, 1.0]], [[1.0, 1.0]]])).pairwise(np.array([[0.0]])),
        Err(ValueError, "A is an array but the metric was fitted with set-valued columns"),
    ),
    Case(
        "sets-query-dimension",
        lambda: _feature_difference().fit(_sets([[[0.0, 1.0]], [[1.0, 1.0]]])).pairwise(_sets([[[0.0, 1.0, 2.0]]])),
        Err(ValueError, "A set column 's' has members of dimension 3, fitted with 2"),
    ),
    Case(
        "sets-all-unknown",
        lambda: _feature_difference().fit(_sets([None, None]), types={"s": "set"}).pairwise(_sets([[[0.0]]])),
        _all_close([[1.0, 1.0]]),
    ),
    Case(
        "sets-one-set",
        lambda: _feature_difference().fit(_sets([[[0.0, 1.0], [2.0, 2.0]]])).pairwise(_sets([[[5.0, 5.0]]])),
        _all_close([[0.0]]),
    ),
    Case(
        "sets-knn-mdw",
        lambda: (
            KNeighborsClassifier(1, _mdw())
            .fit(_sets([[[0.0, 0.0]], [[0.1, 0.0]], [[5.0, 5.0]], [[5.0, 4.0]]]), list("aabb"))
            .predict(_sets([[[0.2, 0.1]], [[4.0, 4.0]], None]))
            .tolist()
        ),
        Ok(lambda v: v == ["a", "b", "a"]),
    ),
    # ------------------------------------------------------------ queries
    Case("query-not-fitted", lambda: make_metric("hvdm").pairwise(X2), Err(NotFittedError, "not fitted")),
    Case(
        "query-wrong-width",
        lambda: fitted("euclidean").pairwise(np.zeros((1, 3))),
        Err(ValueError, "A must have shape (n, 2), got (1, 3)"),
    ),
    Case("query-1d", lambda: fitted("euclidean").pairwise(np.zeros(2)), Err(ValueError, "A must have shape (n, 2)")),
    Case("query-empty", lambda: fitted("euclidean").pairwise(np.zeros((0, 2))), Err(ValueError, "A is empty")),
    Case(
        "query-strings",
        lambda: fitted("euclidean").pairwise(np.array([["a", "b"]])),
        Err(ValueError, "must hold numbers"),
    ),
    Case(
        "query-inf",
        lambda: fitted("hvdm").pairwise(np.array([[0.0, np.inf]])),
        Err(ValueError, "column '1' holds an infinite value"),
    ),
    Case(
        "query-array-after-categorical-fit",
        lambda: make_metric("hvdm").fit(FRAME, Y2).pairwise(np.zeros((1, 2))),
        Err(ValueError, "array but the metric was fitted on a DataFrame with categorical"),
    ),
    Case(
        "query-frame-after-array-fit",
        lambda: fitted("heom").pairwise(pd.DataFrame(X2)),
        Err(ValueError, "DataFrame but the metric was fitted on an array"),
    ),
    Case(
        "query-columns-reordered",
        lambda: make_metric("heom").fit(FRAME).pairwise(FRAME[["x", "c"]]),
        Err(ValueError, "columns ['x', 'c'] differ from the fitted columns ['c', 'x']"),
    ),
    Case(
        "query-unseen-category",
        lambda: make_metric("vdm").fit(FRAME, Y2).pairwise(FRAME.assign(c=pd.Categorical(["z"] * 5))),
        Err(ValueError, "column 'c' has categories"),
    ),
    Case(
        "query-series",
        lambda: make_metric("heom").fit(FRAME).pairwise(FRAME.iloc[0]),
        Err(ValueError, "A is an array but the metric was fitted on a DataFrame"),
    ),
    Case("query-nan-heom", lambda: fitted("heom").pairwise(np.array([[np.nan, 0.0]]), X2[:1]), _all_close([[1.0]])),
    Case(
        "query-out-of-range-heom", lambda: fitted("heom").pairwise(np.array([[6.0, 0.0]]), X2[:1]), _all_close([[2.0]])
    ),
    Case(
        "query-B-y_B-unknown-class",
        lambda: fitted("hvdm", weights=np.ones((2, 2))).pairwise(X2, X2, y_B=[5] * 5),
        Err(ValueError, "not seen in fit"),
    ),
    Case(
        "query-B-per-class-without-y_B",
        lambda: fitted("hvdm", weights=np.ones((2, 2))).pairwise(X2, X2),
        Err(ValueError, "pass y_B with B"),
    ),
    Case("query-y_B-wrong-length", lambda: fitted("hvdm").pairwise(X2, X2, y_B=[0]), Err(ValueError, "y_B has 1")),
    # ------------------------------------------------------------ extreme magnitudes (the per-column statistics)
    Case(
        "columns-std-of-huge-values",
        lambda: known_mean_std(np.array([[1e200], [3e200]]))[1],
        _all_close([np.sqrt(2) * 1e200], rtol=1e-12),
    ),
    Case(
        "columns-std-of-tiny-values",
        lambda: known_mean_std(np.array([[1e-200], [3e-200]]))[1],
        _all_close([np.sqrt(2) * 1e-200], rtol=1e-12),
    ),
    Case(
        "columns-range-overflow",
        lambda: known_range(np.array([[-1.5e308], [1.5e308]])),
        Err(ValueError, "column 0 spans"),
    ),
    Case(
        "hvdm-huge-values",
        lambda: fitted("hvdm", X=X2 * 1e200).pairwise(X2[:1] * 1e200, X2[1:2] * 1e200),
        _all_close(fitted("hvdm").pairwise(X2[:1], X2[1:2]), rtol=1e-9),
    ),
    Case(
        "hvdm-tiny-values",
        lambda: fitted("hvdm", X=X2 * 1e-200).pairwise(X2[:1] * 1e-200, X2[1:2] * 1e-200),
        _all_close(fitted("hvdm").pairwise(X2[:1], X2[1:2]), rtol=1e-9),
    ),
    Case(
        "euclidean-std-huge-values",
        lambda: fitted("euclidean", X=X2 * 1e300, normalize="std").pairwise(X2[:1] * 1e300, X2[1:2] * 1e300),
        _all_close(fitted("euclidean", normalize="std").pairwise(X2[:1], X2[1:2]), rtol=1e-9),
    ),
    Case(
        "euclidean-huge-values",
        lambda: fitted("euclidean", X=X2 * 1e200).pairwise(X2[:2] * 1e200, X2 * 1e200),
        _all_close(fitted("euclidean").pairwise(X2[:2], X2) * 1e200, rtol=1e-9),
    ),
    Case(
        "euclidean-tiny-values",
        lambda: fitted("euclidean", X=X2 * 1e-200).pairwise(X2[:2] * 1e-200, X2 * 1e-200),
        _all_close(fitted("euclidean").pairwise(X2[:2], X2) * 1e-200, rtol=1e-9),
    ),
    Case(
        "euclidean-huge-values-unknown",
        lambda: fitted("euclidean", X=X2 * 1e200).pairwise(np.array([[np.nan, 0.0]]), X2[:1] * 1e200),
        _all_close([[1.0]]),
    ),
    Case(
        "minkowski-r3-unknown-tiny",
        lambda: fitted("minkowski", X=X2 * 1e-8, r=3).pairwise(np.array([[np.nan, 0.0]]), X2[:1] * 1e-8),
        _all_close([[1.0]]),
    ),
    Case(
        "minkowski-r60-unknown-tiny",
        lambda: fitted("minkowski", X=X2 * 1e-8, r=60).pairwise(np.array([[np.nan, 0.0]]), X2[:1] * 1e-8),
        _all_close([[1.0]]),
    ),
    Case(
        "correlation-huge-values",
        lambda: fitted("correlation", X=X2 * 1e307, y=None).pairwise(X2[:2] * 1e307),
        _all_close(fitted("correlation", y=None).pairwise(X2[:2]), rtol=1e-9, atol=1e-12),
    ),
    *[
        Case(
            f"{name}-values-at-{scale:g}",
            lambda name=name, scale=scale: fitted(name, X=X2 * scale).pairwise(X2 * scale),
            _all_close(fitted(name).pairwise(X2), rtol=1e-9, atol=1e-12),
        )
        for name in ("ivdm", "wvdm", "dvdm", "hvdm", "heom")
        for scale in (1e-300, 1e300)
    ],
    Case(
        "dvdm-range-of-extreme-values",  # the range exceeds the largest float, the distance does not (issue #53)
        lambda: fitted("dvdm", X=np.array([[-1.5e308, 0.0], [1.5e308, 1.0]]), y=[0, 1]).pairwise(
            np.array([[-1.5e308, 0.0], [1.5e308, 1.0]])
        ),
        _all_close(
            fitted("dvdm", X=np.array([[-1.5, 0.0], [1.5, 1.0]]), y=[0, 1]).pairwise(
                np.array([[-1.5, 0.0], [1.5, 1.0]])
            )
        ),
    ),
    Case(
        "heom-range-of-extreme-values",
        lambda: fitted("heom", X=np.array([[-1.5e308, 0.0], [1.5e308, 1.0]]), y=None).pairwise(
            np.array([[-1.5e308, 0.0], [1.5e308, 1.0]])
        ),
        _all_close([[0.0, np.sqrt(2.0)], [np.sqrt(2.0), 0.0]]),
    ),
    # ------------------------------------------------------------ Wilson & Martinez' Figure 1 distances
    Case(
        "kendall-one-attribute",
        lambda: fitted("kendall", X=X2[:, :1], types=["continuous"]),
        Err(ValueError, "at least two attributes"),
    ),
    Case(
        "camberra-opposite-signs",
        lambda: fitted("camberra").pairwise(np.array([[-1.0, -2.0]])),
        Err(ValueError, "non-negative"),
    ),
    Case("camberra-negative-training", lambda: fitted("camberra", X=X2 - 1.0), Err(ValueError, "non-negative")),
    Case("camberra-zeros", lambda: fitted("camberra").pairwise(np.zeros((1, 2)), np.zeros((1, 2))), ALL_ZERO),
    Case(
        "chisquare-zero-total-column",
        lambda: fitted("chisquare", X=np.column_stack([X2[:, 0], np.zeros(5)])),
        Err(ValueError, "column '1'"),
    ),
    Case(
        "chisquare-negative-query",
        lambda: fitted("chisquare").pairwise(np.array([[1.0, -2.0]])),
        Err(ValueError, "negative"),
    ),
    Case("chisquare-zero-query", lambda: fitted("chisquare").pairwise(np.zeros((1, 2))), Err(ValueError, "all-zero")),
    Case(
        "chebychev-nan-names-column",
        lambda: fitted("chebychev").pairwise(np.array([[0.0, np.nan]])),
        Err(ValueError, "column '1'"),
    ),
    Case(
        "mahalanobis-nan-training",
        lambda: fitted("mahalanobis", X=np.vstack([X2, [[np.nan, 1.0]]]), y=np.append(Y2, 0)),
        Err(ValueError, "unknown values"),
    ),
    Case(
        "mahalanobis-too-few",
        lambda: fitted("mahalanobis", X=X2[:2], y=None),
        Err(ValueError, "more training instances"),
    ),
    Case(
        "mahalanobis-constant-column",
        lambda: fitted("mahalanobis", X=np.column_stack([X2[:, 0], np.ones(5)])),
        Err(ValueError, "singular"),
    ),
    Case(
        "mahalanobis-huge-values",
        lambda: fitted("mahalanobis", X=X2 * 1e100).pairwise(X2[:1] * 1e100, X2[1:2] * 1e100),
        _all_close(fitted("mahalanobis").pairwise(X2[:1], X2[1:2]) * 1e200, rtol=1e-9),
    ),
    Case(
        "mahalanobis-tiny-values",
        lambda: fitted("mahalanobis", X=X2 * 1e-100).pairwise(X2[:1] * 1e-100, X2[1:2] * 1e-100),
        _all_close(fitted("mahalanobis").pairwise(X2[:1], X2[1:2]) * 1e-200, rtol=1e-9),
    ),
    Case(
        "mahalanobis-beyond-float-range",
        lambda: fitted("mahalanobis", X=X2 * 1e-300),
        Err(ValueError, "beyond the float range"),
    ),
    Case(
        "mahalanobis-huge-beyond-float-range",
        lambda: fitted("mahalanobis", X=X2 * 1e200),
        Err(ValueError, "beyond the float range"),
    ),
    Case("quadratic-no-Q", lambda: fitted("quadratic"), Err(ValueError, "needs its matrix")),
    Case(
        "quadratic-Q-strings",
        lambda: fitted("quadratic", Q=[["a", "b"], ["c", "d"]]),
        Err(ValueError, "Q must be a square matrix of numbers"),
    ),
    Case("quadratic-Q-shape", lambda: fitted("quadratic", Q=np.eye(3)), Err(ValueError, "Q must have shape (2, 2)")),
    Case("quadratic-Q-nan", lambda: fitted("quadratic", Q=[[np.nan, 0], [0, 1]]), Err(ValueError, "finite")),
    Case(
        "quadratic-Q-asymmetric", lambda: fitted("quadratic", Q=[[2.0, 1.0], [0.0, 1.0]]), Err(ValueError, "symmetric")
    ),
    Case(
        "quadratic-Q-indefinite",
        lambda: fitted("quadratic", Q=[[1.0, 0.0], [0.0, -1.0]]),
        Err(ValueError, "positive definite"),
    ),
    Case("quadratic-Q-ragged", lambda: fitted("quadratic", Q=[[1.0], [0.0, 1.0]]), Err(ValueError, "Q must be")),
    Case("statistical-weights", lambda: make_metric("chebychev", weights=[1, 2]), Err(ValueError, "does not take")),
    Case(
        "correlation-at-mean",
        lambda: fitted("correlation", X=np.array([[1.0, 2.0], [3.0, 4.0], [2.0, 3.0]]), y=None).pairwise(
            np.array([[2.0, 3.0]])
        )[0],
        _all_close([1.0, 1.0, 0.0]),
    ),
    # ------------------------------------------------------------ identical instances are at distance exactly 0
    *[
        Case(f"self-distance-{name}", lambda name=name: diag_exact_zero(name, *_zero_data(name)), ALL_ZERO)
        for name in (
            "euclidean",
            "manhattan",
            "minkowski",
            "heom",
            "hvdm",
            "overlap",
            "mvdm",
            "vdm",
            "omvw",
            "dvdm",
            "ivdm",
            "wvdm",
            "chebychev",
            "camberra",
            "mahalanobis",
            "quadratic",
            "correlation",
            "chisquare",
        )
    ],
    *[
        Case(
            f"self-distance-explicit-B-{name}",
            lambda name=name: np.diag(
                make_metric(name)
                .fit(*_zero_data(name)[:2], types=_zero_data(name)[2])
                .pairwise(_zero_data(name)[0], _zero_data(name)[0])
            ),
            ALL_ZERO,
        )
        for name in ("hvdm", "mvdm", "vdm", "dvdm", "ivdm", "wvdm")
    ],
    # ------------------------------------------------------------ probability helpers
    Case("value-weight-strings", lambda: value_weight(["a", "b"]), Err(ValueError, "probabilities")),
    Case(
        "vdm-delta-lengths", lambda: vdm_delta([0.5, 0.5], [1.0, 0.0, 0.0]), Err(ValueError, "same number of classes")
    ),
    Case(
        "vdm-delta-power-negative",
        lambda: vdm_delta([0.5, 0.5], [0.5, 0.5], power=-1),
        Err(ValueError, "power must be a finite number > 0"),
    ),
    Case(
        "minimum-value-weight-float", lambda: minimum_value_weight(2.5), Err(ValueError, "n_classes must be an integer")
    ),
    Case("minimum-value-weight-bool", lambda: minimum_value_weight(True), Err(ValueError, "n_classes must be")),
    Case("minimum-value-weight-zero", lambda: minimum_value_weight(0), Err(ValueError, "n_classes must be")),
    Case("discretizer-s-zero", lambda: Discretizer(0.0, 1.0, 0), Err(ValueError, "s must be an integer >= 1")),
    Case("discretizer-s-float", lambda: Discretizer(0.0, 1.0, 2.5), Err(ValueError, "s must be an integer")),
    Case("discretizer-nan-bound", lambda: Discretizer(np.nan, 1.0, 5), Err(ValueError, "lo must be a finite number")),
    Case("discretizer-constant", lambda: Discretizer(1.0, 1.0, 5), Err(ValueError, "constant attribute")),
    Case("discretizer-inf-width", lambda: Discretizer(-1.5e308, 1.5e308, 1), Err(ValueError, "wider than the largest")),
    Case(
        "discretizer-span-beyond-the-largest-float",
        lambda: Discretizer(-1.5e308, 1.5e308, 5).discretize([-1.5e308, 0.0, 1.5e308]),
        Ok(lambda v: v.tolist() == [1, 3, 5], "read in its unit, the range beyond the largest float is fine"),
    ),
    Case("discretize-strings", lambda: Discretizer(0.0, 1.0, 5).discretize(["a"]), Err(ValueError, "x must hold")),
    Case(
        "discretize-nan-and-outside",
        lambda: Discretizer(0.0, 1.0, 5).discretize([np.nan, -0.5, 1.0, 1.5]),
        Ok(lambda v: np.isnan(v[0]) and v[1:].tolist() == [-2.0, 5.0, 8.0], "NaN kept, outside not clipped"),
    ),
    Case(
        "mvdm-unseen-code",
        lambda: fitted("mvdm", X=np.array([[0.0], [0.0], [1.0], [1.0]]), y=[0, 1, 1, 1], types=["nominal"]).pairwise(
            np.array([[9.0]]), np.array([[0.0]])
        ),
        _all_close([[0.5]]),
    ),
    Case(
        "mvdm-unseen-uniform",
        lambda: fitted(
            "mvdm", X=np.array([[0.0], [0.0], [1.0], [1.0]]), y=[0, 1, 1, 1], types=["nominal"], unseen="uniform"
        ).pairwise(np.array([[9.0]]), np.array([[0.0]])),
        _all_close([[0.0]], atol=1e-15),
    ),
    Case(
        "dvdm-one-range",
        lambda: fitted("dvdm", X=np.array([[0.0], [1.0], [2.0]]), y=[0, 1, 1], types=["continuous"], s=1).pairwise(
            np.array([[0.5]]), np.array([[1.5]])
        ),
        _all_close([[0.0]]),
    ),
    Case(
        "ivdm-unknown-query", lambda: np.isfinite(fitted("ivdm").pairwise(np.array([[np.nan, np.nan]]))).all(), Ok(bool)
    ),
    Case(
        "correlation-one-training-row",
        lambda: fitted("correlation", X=np.array([[1.0, 2.0]]), y=None).pairwise(np.array([[1.0, 2.0], [3.0, 1.0]])),
        _all_close([[0.0], [1.0]]),
    ),
    Case(
        "add-irrelevant-n-values-bool",
        lambda: synthetic.add_irrelevant(FRAME, 1, kind="nominal", n_values=True),
        Err(ValueError, "n_values must be an integer"),
    ),
    Case(
        "add-redundant-empty-frame",
        lambda: synthetic.add_redundant(pd.DataFrame({"a": []}, dtype=float), 2).shape,
        Ok(lambda v: v == (0, 3)),
    ),
    Case("r_n-one", lambda: synthetic.r_n(1, n_per_region=3, random_state=0)[0].shape, Ok(lambda v: v == (6, 1))),
    Case(
        "payne-inseparable-multiple-of-4-unchanged",
        lambda: synthetic.payne_inseparable(n=8, random_state=0)[1].value_counts().tolist(),
        Ok(lambda v: v == [4, 4]),
    ),
    Case(
        "mvdm-probabilities-unknown-column", lambda: fitted("mvdm").probabilities("z"), Err(ValueError, "no column 'z'")
    ),
    Case(
        "mvdm-probabilities-unfitted", lambda: make_metric("mvdm").probabilities("0"), Err(NotFittedError, "not fitted")
    ),
    Case(
        "dvdm-range-probabilities-nominal",
        lambda: make_metric("dvdm").fit(FRAME, Y2).range_probabilities("c"),
        Err(ValueError, "column 'c' is not discretised"),
    ),
    Case(
        "ivdm-probabilities-strings",
        lambda: make_metric("ivdm").fit(FRAME, Y2).probabilities("x", ["a"]),
        Err(ValueError, "values must be numbers"),
    ),
    Case(
        "ivdm-probabilities-values",
        lambda: make_metric("ivdm").fit(FRAME, Y2).probabilities("x", [0.5]).shape,
        Ok(lambda v: v == (1, 2)),
    ),
    # ------------------------------------------------------------ generators
    Case("led-n-float", lambda: synthetic.led(2.5), Err(ValueError, "n must be an integer >= 1")),
    Case("led-n-bool", lambda: synthetic.led(True), Err(ValueError, "n must be an integer")),
    Case("led-n-zero", lambda: synthetic.led(0), Err(ValueError, "n must be an integer >= 1")),
    Case("led-n-numpy", lambda: synthetic.led(np.int32(4), random_state=0)[0].shape, Ok(lambda v: v == (4, 7))),
    Case("led-noise-nan", lambda: synthetic.led(5, noise=np.nan), Err(ValueError, "noise must be a finite number")),
    Case("led-noise-above-one", lambda: synthetic.led(5, noise=1.5), Err(ValueError, "noise must be")),
    Case("led-noise-string", lambda: synthetic.led(5, noise="0.1"), Err(ValueError, "noise must be")),
    Case("led-irrelevant-negative", lambda: synthetic.led(5, n_irrelevant=-1), Err(ValueError, "n_irrelevant must")),
    Case("led-huge-n", lambda: synthetic.led(10**12), Err(ValueError, "would need")),
    Case("led-n-beyond-float", lambda: synthetic.led(10**400), Err(ValueError, "would need")),
    Case(
        "waveform-numpy-ints",
        lambda: synthetic.waveform(np.int64(3), n_noise=np.int8(2), random_state=0)[0].shape,
        Ok(lambda v: v == (3, 23)),
    ),
    Case(
        "led-random-state-string",
        lambda: synthetic.led(5, random_state="seed"),
        Err(ValueError, "random_state must be"),
    ),
    Case("led-random-state-negative", lambda: synthetic.led(5, random_state=-1), Err(ValueError, "random_state must")),
    Case("led-random-state-float", lambda: synthetic.led(5, random_state=1.5), Err(ValueError, "random_state must")),
    Case("led-random-state-bool", lambda: synthetic.led(5, random_state=True), Err(ValueError, "random_state must")),
    Case(
        "led-random-state-legacy",
        lambda: synthetic.led(5, random_state=np.random.RandomState(0)),
        Err(ValueError, "random_state must"),
    ),
    Case(
        "led-random-state-generator",
        lambda: synthetic.led(3, random_state=np.random.default_rng(0))[0].shape,
        Ok(lambda v: v == (3, 7)),
    ),
    Case(
        "led-reproducible",
        lambda: synthetic.led(20, random_state=3)[0].equals(synthetic.led(20, random_state=3)[0]),
        Ok(bool),
    ),
    Case("waveform-n-noise-float", lambda: synthetic.waveform(5, n_noise=1.0), Err(ValueError, "n_noise must")),
    Case("waveform-huge", lambda: synthetic.waveform(10**6, n_noise=10**6), Err(ValueError, "would need")),
    Case("r_n-zero", lambda: synthetic.r_n(0), Err(ValueError, "n_relevant must be an integer >= 1")),
    Case("r_n-huge", lambda: synthetic.r_n(10**7), Err(ValueError, "would need")),
    Case("r_n-per-region-float", lambda: synthetic.r_n(2, n_per_region=2.5), Err(ValueError, "n_per_region must")),
    Case("payne-separable-odd", lambda: len(synthetic.payne_separable(n=7, random_state=0)[0]), Ok(lambda v: v == 7)),
    Case("payne-separable-one", lambda: synthetic.payne_separable(n=1), Err(ValueError, "n must be an integer >= 2")),
    Case(
        "payne-inseparable-not-multiple-of-4",
        lambda: len(synthetic.payne_inseparable(n=7, random_state=0)[1]),
        Ok(lambda v: v == 7, "n rows"),
    ),
    Case("add-irrelevant-array", lambda: synthetic.add_irrelevant(X2, 2), Err(ValueError, "X must be a DataFrame")),
    Case(
        "add-irrelevant-kind",
        lambda: synthetic.add_irrelevant(FRAME, 2, kind="gaussian"),
        Err(ValueError, "kind must be one of"),
    ),
    Case(
        "add-irrelevant-kind-close",
        lambda: synthetic.add_irrelevant(FRAME, 2, kind="Uniform"),
        Err(ValueError, "did you mean 'uniform'"),
    ),
    Case(
        "add-irrelevant-n-values-one",
        lambda: synthetic.add_irrelevant(FRAME, 2, kind="nominal", n_values=1),
        Err(ValueError, "n_values must be an integer >= 2"),
    ),
    Case(
        "add-irrelevant-twice",
        lambda: (
            synthetic.add_irrelevant(
                synthetic.add_irrelevant(FRAME, 2, random_state=0), 2, random_state=1
            ).columns.is_unique
        ),
        Ok(bool),
    ),
    Case("add-irrelevant-zero", lambda: synthetic.add_irrelevant(FRAME, 0).equals(FRAME), Ok(bool)),
    Case("add-redundant-array", lambda: synthetic.add_redundant(X2, 2), Err(ValueError, "X must be a DataFrame")),
    Case("add-redundant-no-linear", lambda: synthetic.add_redundant(FRAME[["c"]], 2), Err(ValueError, "linear")),
    Case(
        "add-redundant-bool-is-not-linear",
        lambda: synthetic.add_redundant(pd.DataFrame({"b": [True, False]}), 1),
        Err(ValueError, "linear"),
    ),
    Case(
        "add-redundant-nullable",
        lambda: (
            synthetic.add_redundant(pd.DataFrame({"a": pd.array([1, None], dtype="Int64")}), 1)["copy1_a"]
            .isna()
            .tolist()
        ),
        Ok(lambda v: v == [False, True]),
    ),
    Case(
        "add-redundant-twice",
        lambda: (
            synthetic.add_redundant(
                synthetic.add_redundant(FRAME, 2, random_state=0), 2, random_state=1
            ).columns.is_unique
        ),
        Ok(bool),
    ),
    Case("add-redundant-delta", lambda: synthetic.add_redundant(FRAME, 2, delta=-0.1), Err(ValueError, "delta must")),
    # ------------------------------------------------------------ data sets
    Case("load-typo", lambda: load("irsi"), Err(ValueError, "did you mean 'iris'")),
    Case("load-case", lambda: load("Iris"), Err(ValueError, "did you mean 'iris'")),
    Case("load-none", lambda: load(None), Err(ValueError, "no data set named None")),
    Case("load-list", lambda: load(["iris"]), Err(ValueError, "name must be a string")),
    Case("load-monks-part", lambda: load("monks-1.train"), Err(ValueError, "did you mean 'monks-1'")),
    Case(
        "load-missing-folder", lambda: load("iris", data_dir="/nonexistent/folder"), Err(ValueError, "does not exist")
    ),
    Case("load-data-dir-int", lambda: load("iris", data_dir=3), Err(ValueError, "data_dir must be a path")),
    Case(
        "load-csv-inf",
        lambda: load("iris", data_dir=_with_csv(_tmp(), lambda t: t.replace("5.1,3.5", "inf,3.5", 1))),
        Err(ValueError, "column 'sepal length' holds a non-finite number 'inf' in row 1"),
    ),
    Case(
        "load-csv-text-in-number",
        lambda: load("iris", data_dir=_with_csv(_tmp(), lambda t: t.replace("5.1,3.5", "5.1x,3.5", 1))),
        Err(ValueError, "column 'sepal length' is numeric but row 1 holds '5.1x'"),
    ),
    Case(
        "load-csv-short-row",
        lambda: load(
            "iris",
            data_dir=_with_csv(_tmp(), lambda t: t.replace("5.1,3.5,1.4,0.2,Iris-setosa", "5.1,3.5,Iris-setosa", 1)),
        ),
        Err(ValueError, "row 1 has 3 cells"),
    ),
    Case("load-csv-altered", lambda: load("iris", data_dir=_with_csv_unrecorded(_tmp())), Err(ValueError, "sha256")),
    Case(
        "load-csv-missing-file",
        lambda: load("iris", data_dir=_without_csv(_tmp())),
        Err(ValueError, "names the file iris.csv, which is not in"),
    ),
    Case(
        "load-without-manifest",
        lambda: load("iris", data_dir=_without_manifest(_tmp())),
        Err(ValueError, "has no MANIFEST.md"),
    ),
    Case(
        "load-schema-duplicate-values",
        lambda: load("zoo", data_dir=_with_schema(_tmp(), _duplicate_values, "zoo")),
        Err(ValueError, "declares the value"),
    ),
    Case(
        "load-schema-values-not-list",
        lambda: load("zoo", data_dir=_with_schema(_tmp(), _string_values, "zoo")),
        Err(ValueError, "must be a list of strings"),
    ),
    Case(
        "load-schema-bad-split",
        lambda: load("iris", data_dir=_with_schema(_tmp(), _bad_split)),
        Err(ValueError, "split"),
    ),
    Case(
        "load-schema-columns-not-list",
        lambda: load("iris", data_dir=_with_schema(_tmp(), lambda s: s.update(columns={"a": 1}))),
        Err(ValueError, "columns must be a list"),
    ),
    Case(
        "load-schema-unknown-type",
        lambda: load("iris", data_dir=_with_schema(_tmp(), lambda s: s["columns"][0].update(type="numeric"))),
        Err(ValueError, "unknown type 'numeric'"),
    ),
    Case("train-test-without-split", lambda: _iris().train_test(), Err(ValueError, "has no official train/test split")),
    Case("papers-using-unknown", lambda: papers_using("Iris"), Err(ValueError, "did you mean 'iris'")),
    Case("papers-using-known", lambda: papers_using("iris"), Ok(lambda v: v == ["payne2000", "wilson1997"])),
    # ------------------------------------------------------------ the policy table
    Case("policy-table-string", lambda: policy_table("hvdm").index.tolist(), Ok(lambda v: v == ["hvdm"])),
    Case("policy-table-unknown", lambda: policy_table(["hvmd"]), Err(ValueError, "did you mean 'hvdm'")),
    Case("policy-table-empty", lambda: policy_table([]), Err(ValueError, "no metric names")),
    # ------------------------------------------------------------ plots
    Case(
        "bars-empty",
        lambda: _plot(lambda p: p.class_distribution_bars(pd.DataFrame())),
        Err(ValueError, "no rows to plot"),
    ),
    Case(
        "bars-series",
        lambda: _plot(lambda p: p.class_distribution_bars(pd.Series([0.5, 0.5]))),
        Err(ValueError, "a DataFrame"),
    ),
    Case(
        "bars-too-few-axes",
        lambda: _plot(lambda p: p.class_distribution_bars(pd.DataFrame(np.full((3, 2), 0.5)), axes=_axes(2))),
        Err(ValueError, "3 rows but 2 axes"),
    ),
    Case(
        "difference-bars-mismatch",
        lambda: _plot(
            lambda p: p.difference_bars(
                pd.Series([0.5, 0.5], index=["a", "b"]), pd.Series([0.5, 0.5], index=["a", "c"]), ax=_axes(1)[0]
            )
        ),
        Err(ValueError, "same classes"),
    ),
    # ------------------------------------------------------------ the C4.5 tree
    Case(
        "tree-min-cases-bool",
        lambda: _tree(min_cases=True),
        Err(ValueError, "'min_cases' parameter of C45Classifier must be"),
    ),
    Case("tree-min-cases-numpy", lambda: _tree(min_cases=np.int64(2)).n_leaves_, Ok(lambda v: v >= 1)),
    Case(
        "tree-min-cases-inf",
        lambda: _tree(min_cases=np.inf),
        Err(ValueError, "'min_cases' parameter of C45Classifier must be"),
    ),
    Case("tree-confidence-numpy", lambda: _tree(confidence=np.float32(0.25)).n_leaves_, Ok(lambda v: v >= 1)),
    Case(
        "tree-confidence-one",
        lambda: _tree(confidence=1.0),
        Err(ValueError, "'confidence' parameter of C45Classifier must be"),
    ),
    Case(
        "tree-value-tolerance-inf",
        lambda: _tree(value_tolerance=np.inf),
        Err(ValueError, "'value_tolerance' parameter of C45Classifier must"),
    ),
    Case(
        "tree-pruning-string",
        lambda: _tree(pruning="no"),
        Err(ValueError, "'pruning' parameter of C45Classifier must be"),
    ),
    Case("tree-upper-limit-close", lambda: _tree(upper_limit="Normal"), Err(ValueError, "did you mean 'normal'")),
    Case("tree-y-wrong-length", lambda: _tree(y=Y2[:2]), Err(ValueError, "y has 2 labels but X has 5 rows")),
    Case("tree-predict-unfitted", lambda: C45Classifier().predict(FRAME), Err(NotFittedError, "not fitted")),
    Case(
        "tree-predict-wrong-width",
        lambda: _tree().predict(FRAME[["c"]]),
        Err(ValueError, "Feature names seen at fit time, yet now missing"),
    ),
    Case(
        "tree-predict-array-after-categorical-fit",
        lambda: _tree().predict(np.zeros((1, 2))),
        Err(ValueError, "fitted on a DataFrame with categorical columns"),
    ),
    Case(
        "tree-score-wrong-length",
        lambda: _tree().score(FRAME, Y2[:1]),
        Err(ValueError, "inconsistent numbers of samples: [1, 5]"),
    ),
    Case(
        "tree-predict-columns-reordered",
        lambda: _tree(X=FRAME.assign(z=FRAME.x * 2)).predict(FRAME.assign(z=FRAME.x * 2)[["c", "z", "x"]]),
        Err(ValueError, "Feature names must be in the same order as they were in fit"),
    ),
    Case(
        "tree-predict-columns-renamed",
        lambda: _tree().predict(FRAME.rename(columns={"x": "size"})),
        Err(ValueError, "Feature names unseen at fit time:\n- size"),
    ),
    Case("tree-predict-inf", lambda: _tree().predict(FRAME.assign(x=[np.inf] * 5)), Err(ValueError, "infinite")),
    Case("tree-predict-nan", lambda: len(_tree().predict(FRAME.assign(x=[np.nan] * 5))), Ok(lambda v: v == 5)),
    Case(
        "extra-errors-confidence-above-one",
        lambda: extra_errors(10, 2, confidence=1.5),
        Err(ValueError, "confidence must be"),
    ),
    Case("extra-errors-e-negative", lambda: extra_errors(2, -1), Err(ValueError, "e must be")),
    Case("extra-errors-method", lambda: extra_errors(10, 2, method="exakt"), Err(ValueError, "did you mean 'exact'")),
    Case("normal-deviate-out-of-range", lambda: normal_deviate(2.0), Err(ValueError, "confidence must be")),
    Case("entropy-empty", lambda: entropy([]), Err(ValueError, "freq")),
    Case("entropy-negative", lambda: entropy([-1.0, 2.0]), Err(ValueError, "freq")),
    Case("entropy-zero-total", lambda: entropy([0.0, 0.0]), Err(ValueError, "freq")),
    Case("entropy-correct", lambda: entropy([9, 5]), Ok(lambda v: abs(v - 0.940286) < 1e-6)),
    # ------------------------------------------------------------ k-NN and evaluation parameters
    Case(
        "knn-k-bool",
        lambda: KNeighborsClassifier(True, "euclidean").fit(X2, Y2, types=NUM2),
        Err(ValueError, "'n_neighbors' parameter of KNeighborsClassifier must be an integer"),
    ),
    Case(
        "loo-k-float",
        lambda: loo_accuracy_by_k(X2, Y2, [1, 2.5], "euclidean", types=NUM2),
        Err(ValueError, "k must be an integer"),
    ),
    Case(
        "kfold-random-state-string",
        lambda: evaluation.kfold(10, 2, random_state="x"),
        Err(ValueError, "random_state must be"),
    ),
    Case(
        "knn-random-state-string",
        lambda: (
            KNeighborsClassifier(1, "euclidean", ties="random", random_state="x").fit(X2, Y2, types=NUM2).predict(X2)
        ),
        Err(ValueError, "'random_state' parameter of KNeighborsClassifier must be"),
    ),
]


# ------------------------------------------------------------------ classification
OUTCOMES = ("correct answer", "clear error", "silent wrong answer", "deep crash", "memory blow-up")


def outcome(case: Case) -> tuple[str, str]:
    """What the call did: one of :data:`OUTCOMES`, and a short detail (the message or the value)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            value = case.call()
    except MemoryError as exc:
        return "memory blow-up", str(exc)[:120]
    except Exception as exc:  # noqa: BLE001 - classifying is the point
        message = f"{type(exc).__name__}: {exc}"
        frames = traceback.extract_tb(exc.__traceback__)
        last = frames[-1]
        raised_here = (
            "lazylib" in last.filename and "raise" in (last.line or "") and "test_validation" not in last.filename
        )
        if isinstance(case.expect, Err):
            if isinstance(exc, case.expect.exc) and case.expect.phrase in str(exc):
                return "clear error", message[:160]
        if raised_here and isinstance(exc, (ValueError, TypeError, KeyError, RuntimeError)):
            return "clear error", message[:160]
        return "deep crash", f"{message[:120]} (at {Path(last.filename).name}:{last.lineno})"
    if isinstance(case.expect, Ok) and case.expect.test(value):
        return "correct answer", repr(value)[:80]
    return "silent wrong answer", repr(value)[:80]


@pytest.mark.parametrize(
    "case",
    [
        pytest.param(c, id=c.id, marks=pytest.mark.xfail(reason=f"in {c.owner}"))
        if c.owner
        else pytest.param(c, id=c.id)
        for c in CASES
    ],
)
def test_probe(case):
    if isinstance(case.expect, Err):
        with pytest.raises(case.expect.exc) as info:
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                case.call()
        assert case.expect.phrase in str(info.value), str(info.value)
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            value = case.call()
        assert case.expect.test(value), (case.expect.what, value)


def test_the_table_is_wide():
    assert len(CASES) >= 150 and len({c.id for c in CASES}) == len(CASES)


if __name__ == "__main__":  # print the classified table
    import collections
    import resource
    import sys

    resource.setrlimit(resource.RLIMIT_AS, (6 * 2**30, 6 * 2**30))
    counts = collections.Counter()
    for case in CASES:
        kind, detail = outcome(case)
        counts[kind] += 1
        if kind not in ("correct answer", "clear error") or "-v" in sys.argv:
            print(f"{kind:20s} {case.id:42s} {detail}")
    print(dict(counts), "total", len(CASES))
