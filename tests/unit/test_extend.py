"""CONTRIBUTING's recipe "Adding a metric", followed step by step by a newcomer's metric defined here, outside the
package, with nothing but :mod:`lazylib.metrics.extend`; then run through the k-NN, ``pairwise`` and
:func:`lazylib.evaluation.cross_validate`. Also: the contract it follows is the one the engine and the search
read (no private name of a metric outside :class:`lazylib.metrics.extend.MetricContract`).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import test_parameter_walk as walk  # the house's parameter walk (a sibling test module), run on the recipe's metric

from lazylib import datasets
from lazylib._validation import Real
from lazylib.evaluation import cross_validate, stratified_kfold
from lazylib.metrics import REGISTRY, make_metric
from lazylib.metrics.extend import (
    ENGINE_HOOKS,
    WORKING_MEMORY,
    AttributeMetric,
    AttributeTerm,
    CurveAttribute,
    Half,
    LinearAttribute,
    MetricContract,
    OverlapAttribute,
    PowerAttribute,
    ProbabilityAttribute,
    SetAttribute,
    TermContract,
    ValueTable,
    register_metric,
)
from lazylib.neighbors import KNeighborsClassifier

ROOT = Path(__file__).resolve().parents[2]


# step 1 of the recipe: the term (a non-bilinear one: its (nq, ns) matrix), its bilinear declared
class RangeDifference(AttributeTerm):
    """``|x - y| / range`` of a linear attribute; an unknown value at distance ``unknown``, a constant attribute
    at 0."""

    bilinear = False

    def __init__(self, range_: float, unknown: float = 1.0):
        self.range_, self.unknown = range_, unknown

    def direct(self, xq, xs):
        if self.range_ == 0:
            term = np.zeros((len(xq), len(xs)))
        else:
            term = np.abs(xq[:, None] - xs[None, :]) / self.range_
        term[np.isnan(xq)[:, None] | np.isnan(xs)[None, :]] = self.unknown
        return term


# step 2: the metric (one fitted term per column, the root, its parameters declared, its tags)
class RangeManhattan(AttributeMetric):
    """Overlap on nominal attributes, range-scaled absolute difference on linear ones, summed (no root)."""

    _fixed_root = 1.0
    unknown_is_one = True  # tag: an unknown value is at distance 1 from everything (at the default unknown=1)

    def __init__(self, *, unknown: float = 1.0, weights=None, working_memory: float = WORKING_MEMORY):
        super().__init__(weights=weights, working_memory=working_memory)
        self.unknown = unknown

    _parameter_constraints: dict = {**AttributeMetric._parameter_constraints, "unknown": [Real(low=0)]}

    def _fit(self, Z, y):
        lo, hi = np.nanmin(Z, axis=0), np.nanmax(Z, axis=0)
        self.attributes_ = [
            OverlapAttribute("one") if kind == "nominal" else RangeDifference(float(hi[a] - lo[a]), self.unknown)
            for a, kind in enumerate(self.kinds_)
        ]


def _per_pair(metric, A, B):
    """The same distance by a plain loop over pairs (the oracle)."""
    out = np.zeros((len(A), len(B)))
    for i, a in enumerate(A):
        for j, b in enumerate(B):
            for k, (u, v) in enumerate(zip(a, b)):
                if np.isnan(u) or np.isnan(v):
                    out[i, j] += 1.0
                elif metric.kinds_[k] == "nominal":
                    out[i, j] += float(u != v)
                elif metric.attributes_[k].range_ > 0:
                    out[i, j] += abs(u - v) / metric.attributes_[k].range_
    return out


@pytest.fixture
def registered():
    register_metric("range_manhattan", RangeManhattan)  # step 3: a name for make_metric and metric=
    yield "range_manhattan"
    del REGISTRY["range_manhattan"]


def test_pairwise_equals_a_loop_over_pairs_with_mixed_and_unknown_values():
    rng = np.random.default_rng(0)
    X = np.column_stack([rng.normal(size=12), rng.integers(0, 3, 12).astype(float), rng.uniform(size=12)])
    X[[1, 5], [0, 2]] = np.nan
    metric = RangeManhattan().fit(X, types=["continuous", "nominal", "continuous"])
    np.testing.assert_allclose(metric.pairwise(X[:5], X), _per_pair(metric, X[:5], X), rtol=1e-12, atol=1e-12)
    assert metric.schema_.kinds == ("continuous", "nominal", "continuous") and metric.n_features_in_ == 3


def test_the_new_metric_runs_through_the_knn_pairwise_and_cross_validation(registered):
    iris = datasets.load("iris")
    reference = make_metric("manhattan", normalize="range").fit(iris.X, iris.y)
    ours = make_metric(registered).fit(iris.X, iris.y)
    assert isinstance(ours, RangeManhattan) and list(ours.feature_names_in_) == list(iris.X.columns)
    np.testing.assert_allclose(ours.pairwise(iris.X.iloc[:20]), reference.pairwise(iris.X.iloc[:20]), atol=1e-12)

    knn = KNeighborsClassifier(n_neighbors=3, metric=registered).fit(iris.X, iris.y)
    by_object = KNeighborsClassifier(n_neighbors=3, metric=RangeManhattan()).fit(iris.X, iris.y)
    assert (knn.predict(iris.X) == by_object.predict(iris.X)).all()

    folds = stratified_kfold(iris.y, 5, random_state=0)
    new = cross_validate(lambda: KNeighborsClassifier(n_neighbors=3, metric=registered), iris.X, iris.y, folds)
    old = cross_validate(
        lambda: KNeighborsClassifier(n_neighbors=3, metric="manhattan", metric_params={"normalize": "range"}),
        iris.X,
        iris.y,
        folds,
    )
    assert len(new) == 5 and np.array_equal(new, old) and new.mean() > 0.9


def test_register_metric_refuses_a_taken_name_and_a_class_that_is_not_a_metric(registered):
    register_metric(registered, RangeManhattan)  # the same class again: allowed (a module imported twice)
    with pytest.raises(ValueError, match="already taken by HEOM"):
        register_metric("heom", RangeManhattan)
    with pytest.raises(ValueError, match="subclass of lazylib.metrics.Metric"):
        register_metric("range_difference", RangeDifference)
    with pytest.raises(ValueError, match="non-empty string"):
        register_metric("", RangeManhattan)


def test_working_memory_is_checked_once_by_fit_for_every_metric():
    X = np.zeros((3, 2))
    for metric in (RangeManhattan(working_memory=0), make_metric("chebychev", working_memory=-1)):
        with pytest.raises(ValueError, match="working_memory"):
            metric.fit(X)


def test_the_bases_follow_the_declared_contract():
    metric = RangeManhattan().fit(np.arange(6.0).reshape(3, 2))
    assert isinstance(metric, MetricContract)
    table = ValueTable(np.array([0.0, 1.0]))
    terms = [
        RangeDifference(1.0),
        OverlapAttribute(),
        LinearAttribute(0.0, 1.0),
        PowerAttribute(1.0),
        SetAttribute(),
        ProbabilityAttribute(table, np.full((4, 2), 0.5)),
        CurveAttribute(lambda x: np.full((len(x), 2), 0.5), np.full(2, 0.5)),
    ]
    assert all(isinstance(term, TermContract) for term in terms)


ENGINE = [f"lazylib/metrics/_{role}.py" for role in ("declaration", "plan", "engine")]


def test_the_engine_and_the_search_read_the_declaration_never_the_metric():
    """The engine and the search are handed the metric's declaration (built once per fit) and read nothing of a
    metric; what reads a metric outside its class (the input checks) reads only the declared names."""
    for path in (*ENGINE, "lazylib/search.py"):
        read = re.findall(r"\bmetric_?\.(\w+)", (ROOT / path).read_text(encoding="utf-8"))
        assert not read, f"{path} reads {sorted(set(read))} of a metric"
    read = set(re.findall(r"\bmetric\.(_\w+)", (ROOT / "lazylib/metrics/_inputs.py").read_text(encoding="utf-8")))
    assert read and read <= ENGINE_HOOKS, f"undeclared hooks: {sorted(read - ENGINE_HOOKS)}"


def test_the_recipe_s_parameter_is_checked_by_fit_before_anything_else():
    with pytest.raises(ValueError, match="unknown"):
        RangeManhattan(unknown=-1.0).fit(np.zeros((3, 2)))
    X = np.array([[0.0, np.nan], [1.0, 2.0]])
    assert RangeManhattan(unknown=0.5).fit(X).pairwise(X)[0, 1] == 1.5


def test_the_metric_built_step_by_step_fits_passes_the_contract_and_is_walked(registered):
    """The recipe's steps as written above (the term, the metric with its declared parameter and tag, the name):
    the metric fits on mixed data with unknown values and its distances are the loop's; ``fit`` runs the contract
    on it (one declared term per column, each a :class:`TermContract`; one term short is refused); and the
    house's parameter walk (``tests/unit/test_parameter_walk.py``) walks it as it walks the package's estimators:
    every parameter declared, every out-of-range value refused by a message naming the parameter, the value and
    what is allowed, numpy scalars of admissible values accepted."""
    X = np.array([[0.0, 1.0, 2.5], [1.0, np.nan, 0.5], [4.0, 0.0, np.nan], [2.0, 2.0, 1.0]])
    metric = make_metric(registered).fit(X, types=["continuous", "nominal", "continuous"])
    assert len(metric.attributes_) == 3 and all(isinstance(term, TermContract) for term in metric.attributes_)
    assert [type(term).bilinear for term in metric.attributes_] == [False, True, False]
    assert isinstance(metric, MetricContract)
    np.testing.assert_allclose(metric.pairwise(X), _per_pair(metric, X, X), rtol=1e-12, atol=1e-12)

    class OneShort(RangeManhattan):  # step 2 gone wrong: fit refuses it, as it checks every metric's terms
        def _fit(self, Z, y):
            super()._fit(Z, y)
            self.attributes_ = self.attributes_[:-1]

    with pytest.raises(ValueError, match=r"OneShort.attributes_ holds 2 terms for 3 columns \(none from column '2'"):
        OneShort().fit(X, types=["continuous", "nominal", "continuous"])

    assert not walk.undeclared(RangeManhattan)
    cases = [case.values for case in walk.walk_cases(registered, RangeManhattan)]
    assert {param for _, param, _ in cases} == {"unknown", "weights", "working_memory"}
    for _, param, value in cases:
        walk.refuses_naming(RangeManhattan(), param, value)
    walk.accepts_numpy_scalars(RangeManhattan())


#: What each step of the recipe must name for this file to follow it (step 4: the tests it points to).
RECIPE_STEPS = {
    1: ("AttributeTerm", "bilinear = False", "direct(xq, xs)", "never negative"),
    2: ("AttributeMetric", "_fit(self, Z, y)", "self.attributes_", "_parameter_constraints", "never check them in"),
    3: ("register_metric(",),
    4: ("tests/oracles/test_metric_loops.py", "tests/unit/test_metric_properties.py"),
}


def test_the_recipe_names_what_this_file_does_at_each_step():
    """The steps of CONTRIBUTING's "Adding a metric" are the ones this file follows: the recipe names, step by
    step, what the definitions above use (a term declaring ``bilinear``, parameters declared in
    ``_parameter_constraints`` and never checked in ``_fit``, the tags the property tests read)."""
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    section = text[text.index("\n## Adding a metric\n") :]
    section = section[: section.index("\n## ", 1)]
    steps = dict(
        (int(number), body) for number, body in re.findall(r"\n(\d)\. \*\*(.*?)(?=\n\d\. \*\*|\Z)", section, re.S)
    )
    assert sorted(steps) == [1, 2, 3, 4]
    for number, names in RECIPE_STEPS.items():
        missing = [name for name in names if name not in " ".join(steps[number].split())]
        assert not missing, f"step {number} of the recipe no longer names {missing}"
    tags = ("symmetric", "unknown_is_one", "zero_on_self", "accepts", "required_params")
    assert all(f"`{tag}`" in steps[2] for tag in tags)


class _CheckedInFit(RangeManhattan):
    """Step 2 as the recipe once said it: ``unknown`` checked in ``_fit``, left out of ``_parameter_constraints``."""

    _parameter_constraints: dict = {**AttributeMetric._parameter_constraints}

    def _fit(self, Z, y):
        if not self.unknown >= 0:
            raise ValueError(f"unknown must be >= 0, got {self.unknown!r}")
        super()._fit(Z, y)


def test_a_parameter_checked_in_fit_instead_of_declared_fails_the_walk():
    """Why the recipe declares: the walk finds the undeclared parameter, and cannot even list its cases (the
    KeyError the old recipe's metric raised at the walk's collection)."""
    assert walk.undeclared(_CheckedInFit) == {"unknown"}
    with pytest.raises(KeyError, match="unknown"):
        list(walk.walk_cases("checked_in_fit", _CheckedInFit))


class _Bare(AttributeTerm):
    """A term that forgets to declare ``bilinear`` (and gives only ``direct``)."""

    def direct(self, xq, xs):
        return np.abs(xq[:, None] - xs[None, :])


class _Negative(RangeDifference):
    def direct(self, xq, xs):
        return -super().direct(xq, xs)


class _Promising(AttributeTerm):
    bilinear = True  # but it gives neither pair nor half


class _Terms(AttributeMetric):
    """A metric whose terms the test chooses: ``make(kinds)`` returns the list ``_fit`` sets."""

    def __init__(self, make=None):
        super().__init__()
        self.make = make

    _parameter_constraints: dict = {**AttributeMetric._parameter_constraints, "make": [callable, None]}

    def _fit(self, Z, y):
        self.attributes_ = self.make(self.kinds_)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (
            lambda kinds: [RangeDifference(1.0)],
            r"attributes_ holds 1 term for 2 columns \(none from column '1', index 1, on\): _fit must set",
        ),
        (lambda kinds: None, r"attributes_ holds 'NoneType' for 2 columns"),
        (
            lambda kinds: [RangeDifference(1.0), _Bare()],
            r"_Bare term of column '1' \(index 1\) declares no bilinear.*bilinear = False",
        ),
        (
            lambda kinds: [_Negative(1.0)] * 2,
            r"_Negative term of column '0' \(index 0\) is negative \(-2\) between 0.0 and 2.0.*non-negative",
        ),
        (
            lambda kinds: [RangeDifference(1.0), _Promising()],
            r"_Promising term of column '1' \(index 1\) is bilinear but gives neither pair",
        ),
        (lambda kinds: [RangeDifference(np.nan)] * 2, r"is nan between 0.0 and 0.0: a term is a finite number"),
    ],
)
def test_fit_refuses_a_metric_that_breaks_the_contract_naming_the_term_and_the_fix(make, message):
    X = np.array([[0.0, 1.0], [1.0, 3.0], [2.0, np.nan]])
    with pytest.raises(ValueError, match=message):
        _Terms(make).fit(X)


def test_a_negative_bilinear_term_is_refused_where_rounding_would_not_explain_it():
    class NegativeSquare(AttributeTerm):
        bilinear, separable = True, True

        def half(self, x, side):  # -(x - y)^2 = -x^2 - y^2 + 2 x y
            v = np.nan_to_num(x)
            return Half(-(v**2), (2.0 * v if side == "query" else v)[:, None], np.isnan(x))

    X = np.array([[0.0], [1.0], [3.0]])
    with pytest.raises(
        ValueError, match=r"NegativeSquare term of column '0' \(index 0\) is negative \(-9\) between 0.0 and 3.0"
    ):
        _Terms(lambda kinds: [NegativeSquare()]).fit(X)


def test_a_term_negative_for_one_value_outside_the_sample_is_refused():
    """The sample holds 8 of the column's 1,000 distinct values; the term is negative for one value it misses
    (issue #53: the check sampled only those 8)."""

    class NegativeAtOneValue(AttributeTerm):
        bilinear = False

        def direct(self, xq, xs):
            term = np.abs(xq[:, None] - xs[None, :])
            term[np.isnan(term)] = 1.0
            return np.where((xq == 500.0)[:, None] | (xs == 500.0)[None, :], -1.0, term)

    X = np.arange(1000.0)[:, None]
    assert 500.0 not in np.rint(np.linspace(0.0, 1.0, 8) * 999)  # the sampled ranks (TERM_SAMPLE of them)
    with pytest.raises(
        ValueError, match=r"NegativeAtOneValue term of column '0' \(index 0\) is negative \(-1\) between 500.0"
    ):
        _Terms(lambda kinds: [NegativeAtOneValue()]).fit(X)
    _Terms(lambda kinds: [RangeDifference(1.0)]).fit(X)  # a well-behaved term on the same column passes


def test_a_refusal_names_the_column_by_name_and_index_and_a_nominal_value_by_its_category():
    class NegativeOverlap(AttributeTerm):
        bilinear = False

        def direct(self, xq, xs):
            return -(xq[:, None] != xs[None, :]).astype(float)

    X = pd.DataFrame({"size": [1.0, 2.0, 3.0], "colour": pd.Categorical(["red", "blue", "red"])})
    message = (
        r"^_Terms: the NegativeOverlap term of column 'colour' \(index 1\) is negative \(-1\) between 'blue' and 'red'"
    )
    with pytest.raises(ValueError, match=message):
        _Terms(lambda kinds: [RangeDifference(2.0), NegativeOverlap()]).fit(X)
    with pytest.raises(ValueError, match=r"^_Terms: the _Bare term of column 'size' \(index 0\) declares no bilinear"):
        _Terms(lambda kinds: [_Bare(), OverlapAttribute()]).fit(X)
