"""Bad input gets a clear error naming the problem; the policies for unknown and non-finite values."""

from __future__ import annotations

import json
import shutil
import warnings

import numpy as np
import pandas as pd
import pytest

from lazylib import evaluation, synthetic
from lazylib._validation import Choice, Integer, Real, check
from lazylib.datasets import load
from lazylib.metrics import available, make_metric

NUMERIC = ["continuous"] * 2


# ---------------------------------------------------------------- declared parameter checks
@pytest.mark.parametrize(
    "value, spec, message",
    [
        (True, Integer(low=1), "n must be an integer >= 1, got True"),
        (2.0, Integer(), "n must be an integer, got 2.0"),
        (0, Integer(low=1, high=5), "n must be an integer >= 1 and <= 5, got 0"),
        (float("inf"), Real(low=0), "n must be a finite number >= 0, got inf"),
        (0.0, Real(low=0, open_low=True), "n must be a finite number > 0, got 0.0"),
        ("bogus", Choice(("a", "b")), "n must be one of 'a', 'b', got 'bogus'"),
    ],
)
def test_check_names_the_parameter_and_what_was_expected(value, spec, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        check("n", value, spec)


def test_check_converts_numpy_scalars_and_lets_optional_none_through():
    assert check("k", np.int64(3), Integer(low=1)) == 3 and type(check("k", np.int64(3), Integer())) is int
    assert check("x", np.float32(0.5), Real(low=0, high=1)) == 0.5
    assert check("s", None, Integer(low=1), optional=True) is None


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: evaluation.kfold(100, 10.5), "n_splits must be an integer"),
        (lambda: evaluation.kfold(10, 11), "n_splits must be an integer >= 2 and <= 10"),
        (lambda: evaluation.stratified_kfold([0, 1] * 5, True), "n_splits must be an integer"),
        (lambda: evaluation.paired_ttest([1, 2, 3], [1, 2, 4], alternative="bogus"), "alternative must be one of"),
        (lambda: evaluation.paired_ttest([1, 2], [1, np.nan]), "finite fold scores"),
        (lambda: evaluation.significance_mark([1, 2], [1, 2], style="bold"), "style must be one of"),
        (lambda: evaluation.significance_mark([1, 2], [1, 2], alpha=5), "alpha must be a finite number > 0"),
        (lambda: synthetic.led(2.5), "n must be an integer >= 1"),
        (lambda: synthetic.led(10, noise=1.5), "noise must be a finite number >= 0 and <= 1"),
        (lambda: synthetic.waveform(10, n_noise=-1), "n_noise must be an integer >= 0"),
        (lambda: synthetic.r_n(0), "n_relevant must be an integer >= 1"),
        (lambda: synthetic.add_irrelevant(synthetic.led(5)[0], 2, kind="gaussian"), "kind must be one of"),
        (lambda: synthetic.payne_inseparable(n=3), "n must be an integer >= 4"),
    ],
)
def test_protocol_and_generator_parameters_are_checked(call, message):
    with pytest.raises(ValueError, match=message):
        call()


# ---------------------------------------------------------------- metric parameters
def test_dvdm_s_must_be_a_whole_number_of_ranges_within_reason():
    iris = load("iris")
    with pytest.raises(ValueError, match="'s' parameter of DVDM must be an integer"):
        make_metric("dvdm", s=2.7).fit(iris.X, iris.y)
    with pytest.raises(ValueError, match=r"s must be an integer >= 1 and <= 150"):
        make_metric("ivdm", s=10**8).fit(iris.X, iris.y)
    assert make_metric("ivdm", s=150).fit(iris.X, iris.y).s_ == 150


def test_minkowski_r_must_be_finite_and_at_least_one():
    X = np.array([[0.0, 0.0], [3.0, 4.0]])
    with pytest.raises(ValueError, match="chebychev"):
        make_metric("minkowski", r=float("inf")).fit(X, types=NUMERIC)
    with pytest.raises(ValueError, match="'r' parameter of Minkowski must be a finite number >= 1"):
        make_metric("minkowski", r=0.5).fit(X, types=NUMERIC)
    with pytest.raises(ValueError, match="'normalize' parameter of Euclidean must be one of"):
        make_metric("euclidean", normalize="max").fit(X, types=NUMERIC)


# ---------------------------------------------------------------- Wilson & Martinez' Figure 1 functions
def test_quadratic_needs_a_symmetric_finite_matrix():
    X = np.zeros((3, 2))
    with pytest.raises(ValueError, match="symmetric"):
        make_metric("quadratic", Q=[[2.0, 1.0], [0.0, 1.0]]).fit(X, types=NUMERIC)
    with pytest.raises(ValueError, match="finite"):
        make_metric("quadratic", Q=[[np.inf, 0.0], [0.0, 1.0]]).fit(X, types=NUMERIC)


def test_mahalanobis_needs_more_instances_than_attributes_and_full_rank():
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="more training instances than attributes"):
        make_metric("mahalanobis").fit(rng.random((3, 3)), types=["continuous"] * 3)
    x = rng.random(20)
    collinear = np.column_stack([x, 2 * x + 1e-15 * rng.random(20)])  # determinant positive by rounding only
    with pytest.raises(ValueError, match="singular"):
        make_metric("mahalanobis").fit(collinear, types=NUMERIC)


def test_correlation_is_zero_between_identical_instances_at_the_training_mean():
    X = np.array([[1.0, 2.0], [3.0, 4.0], [2.0, 3.0]])  # the third row is the mean
    D = make_metric("correlation").fit(X, types=NUMERIC).pairwise(X)
    assert D[2, 2] == 0.0 and D[2, 0] == 1.0


def test_chi_square_refuses_negative_values():
    with pytest.raises(ValueError, match="non-negative values; column '1' of X"):
        make_metric("chisquare").fit(np.array([[1.0, -1.0], [1.0, 3.0]]), types=NUMERIC)
    m = make_metric("chisquare").fit(np.array([[1.0, 1.0], [1.0, 3.0]]), types=NUMERIC)
    with pytest.raises(ValueError, match="negative"):
        m.pairwise(np.array([[1.0, -2.0]]))


# ---------------------------------------------------------------- non-finite and unknown values
@pytest.mark.parametrize("name", ["hvdm", "euclidean", "overlap", "ivdm"])
def test_an_infinity_is_refused_naming_the_column(name):
    X = pd.DataFrame({"a": [0.0, 1.0, 2.0, 3.0], "b": [1.0, np.inf, 0.0, 2.0]})
    y = [0, 0, 1, 1]
    if name == "overlap":
        X = X.assign(a=pd.Categorical(["u", "v", "u", "v"]))
    with pytest.raises(ValueError, match="column 'b' holds an infinite value"):
        make_metric(name).fit(X, y)
    fitted = make_metric(name).fit(X.assign(b=[1.0, 2.0, 0.0, 2.0]), y)
    with pytest.raises(ValueError, match="column 'b' holds an infinite value"):
        fitted.pairwise(X)


def test_infinite_or_nan_weights_are_refused():
    X = np.array([[0.0, 0.0], [1.0, 1.0]])
    for w in ([np.inf, 1.0], [np.nan, 1.0], [-1.0, 1.0]):
        with pytest.raises(ValueError, match="weights must be finite non-negative"):
            make_metric("euclidean", weights=w).fit(X, types=NUMERIC)


@pytest.mark.parametrize("name", ["heom", "hvdm", "euclidean", "manhattan", "dvdm", "ivdm", "wvdm"])
def test_an_all_missing_training_column_is_unknown_everywhere_without_warnings(name):
    """Policy: the metric's rule for unknown values applies to every value of the column (anneal has one)."""
    rng = np.random.default_rng(1)
    X = pd.DataFrame({"a": rng.random(20), "b": np.full(20, np.nan)})
    y = np.repeat([0, 1], 10)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        metric = make_metric(name).fit(X, y)
        with_b = metric.pairwise(X.assign(b=rng.random(20)))
        without_b = make_metric(name).fit(X[["a"]], y).pairwise(X[["a"]])
    assert np.isfinite(with_b).all()
    # the column adds the same amount to every pair, so the order of neighbours is that of the other columns
    np.testing.assert_array_equal(
        np.argsort(with_b, axis=1, kind="stable")[:, :1], np.argsort(without_b, axis=1, kind="stable")[:, :1]
    )


def test_an_array_query_against_a_metric_fitted_on_categories_is_refused():
    ds = load("lymphography")
    metric = make_metric("vdm").fit(ds.X, ds.y)
    with pytest.raises(ValueError, match="array but the metric was fitted on a DataFrame with categorical"):
        metric.pairwise(ds.X.to_numpy())
    with pytest.raises(ValueError, match="must hold numbers"):
        make_metric("euclidean").fit(np.zeros((2, 2)), types=NUMERIC).pairwise(np.array([["a", "b"]]))


# ---------------------------------------------------------------- data files
@pytest.fixture()
def copy_of(tmp_path):
    from lazylib.datasets import _loader

    def make(name):
        schema = json.loads((_loader.DATA_DIR / f"{name}.schema.json").read_text())
        for f in (f"{name}.schema.json", schema["file"], "MANIFEST.md"):
            shutil.copy(_loader.DATA_DIR / f, tmp_path / f)
        return tmp_path, schema

    return make


def test_a_truncated_schema_names_the_file(copy_of):
    folder, _ = copy_of("iris")
    path = folder / "iris.schema.json"
    path.write_text(path.read_text()[:200])
    with pytest.raises(ValueError, match="iris.schema.json: not valid JSON"):
        load("iris", data_dir=folder)
    path.write_text(json.dumps({"file": "iris.csv"}))
    with pytest.raises(ValueError, match=r"iris.schema.json: the schema lacks the keys \['columns'"):
        load("iris", data_dir=folder)


def test_a_non_numeric_cell_names_file_column_and_row(copy_of):
    from lazylib.datasets import _loader

    folder, schema = copy_of("iris")
    column = schema["columns"][0]["name"]
    frame = pd.read_csv(folder / schema["file"], dtype=str)
    raw = pd.read_csv(folder / schema["file"], dtype=str, keep_default_na=False)
    raw.iloc[4, 0] = "5,1"
    text = raw.to_csv(index=False)
    (folder / schema["file"]).write_text(text)
    assert len(frame) == 150
    with pytest.raises(ValueError, match=rf"{schema['file']}: column '{column}' is numeric but row 5 holds '5,1'"):
        _loader._typed(
            _loader.pd.read_csv(folder / schema["file"], dtype=str, keep_default_na=False, na_filter=False), schema
        )


def test_every_registered_metric_refuses_an_unfitted_call():
    from lazylib.metrics import NotFittedError

    for name in available():
        metric = make_metric(name, Q=np.eye(2)) if name == "quadratic" else make_metric(name)
        with pytest.raises(NotFittedError):
            metric.pairwise(np.zeros((1, 2)))


@pytest.mark.parametrize("tie_tolerance", [-1.0, float("nan"), float("inf"), True, 1.0, "1e-9"])
def test_a_metric_search_refuses_a_bad_tie_tolerance_naming_it(tie_tolerance):
    """Issue #40: a negative tolerance was taken as given (and NaN failed with an IndexError deep in the search)."""
    X = np.random.default_rng(0).random((10, 2))
    metric = make_metric("euclidean").fit(X, types=NUMERIC)
    with pytest.raises(ValueError, match="tie_tolerance must be a finite number >= 0 and < 1"):
        list(metric.nearest_chunks(X[:2], 1, tie_tolerance=tie_tolerance))
