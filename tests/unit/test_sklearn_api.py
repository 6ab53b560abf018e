"""Every estimator of lazylib is a scikit-learn estimator: ``check_estimator`` runs on each (the few checks it
fails are listed with their reason), and the tools users combine them with work: cross-validation, pipelines
with a column transformer in front, grid search, ``accuracy_score``.

Every estimator also reads its input one way (``lazylib.encoding.fit_input`` / ``query_input``): the schema
fitted on the training data is applied to every query, and bad labels are refused with a clear error.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.compose import ColumnTransformer
from sklearn.metrics import accuracy_score
from sklearn.model_selection import GridSearchCV, cross_val_score
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils.estimator_checks import parametrize_with_checks

from lazylib.datasets import load
from lazylib.neighbors import KNeighborsClassifier
from lazylib.selection import FNNSelector, MonteCarloSelector
from lazylib.subspace import SubspaceMapping
from lazylib.trees import C45Classifier
from lazylib.vfi import VFI5Classifier
from lazylib.weighting.sets import DifferenceKNN

#: The checks an estimator is known to fail, each with its reason (the fewest we could leave): only the k-NN's
#: random tie-breaking, whose draws follow the order of the queries.
RANDOM_TIES_EXCLUSIONS = {
    name: (
        "ties='random' draws from one random stream for the queries of a call in turn, so permuting or splitting "
        "the queries changes which draw breaks which tie (its exact expectation, predict_distribution, is "
        "invariant)"
    )
    for name in ("check_methods_sample_order_invariance", "check_methods_subset_invariance")
}


def _estimators():
    return [
        KNeighborsClassifier(),
        KNeighborsClassifier(3, "euclidean", ties="random", random_state=0),
        C45Classifier(),
        VFI5Classifier(),
        SubspaceMapping(),
        SubspaceMapping("cacp"),
        MonteCarloSelector(n_subsets=5, random_state=0),
        FNNSelector(),
        DifferenceKNN(),
    ]


def _expected_failures(estimator):
    if isinstance(estimator, KNeighborsClassifier) and estimator.ties == "random":
        return RANDOM_TIES_EXCLUSIONS
    return {}


@parametrize_with_checks(_estimators(), expected_failed_checks=_expected_failures)
def test_check_estimator(estimator, check):
    check(estimator)


@pytest.mark.parametrize("estimator", [KNeighborsClassifier(3, "euclidean", ties="random", random_state=0)])
def test_only_the_documented_checks_fail_and_they_still_fail(estimator):
    """The exclusions are needed: each listed check really fails (else it should be dropped)."""
    from sklearn.utils.estimator_checks import check_estimator

    results = check_estimator(estimator, on_fail=None)
    failed = {r["check_name"] for r in results if r["status"] == "failed"}
    assert failed == set(_expected_failures(estimator))


@pytest.mark.parametrize(
    "make",
    [lambda: KNeighborsClassifier(1, "hvdm"), C45Classifier, VFI5Classifier, lambda: DifferenceKNN(3)],
    ids=["knn", "c45", "vfi5", "difference-knn"],
)
def test_cross_val_score_and_accuracy_score_on_mixed_data(make):
    ds = load("zoo")
    scores = cross_val_score(make(), ds.X, ds.y, cv=3)
    assert scores.shape == (3,) and (scores > 0.6).all()
    clf = make().fit(ds.X, ds.y)
    pred = clf.predict(ds.X)
    assert pred.dtype == clf.classes_.dtype and set(pred) <= set(clf.classes_)
    assert accuracy_score(ds.y, pred) == clf.score(ds.X, ds.y)


def test_pipeline_with_a_column_transformer_in_front():
    iris = load("iris")
    cols = list(iris.X.columns)
    front = ColumnTransformer([("scale", StandardScaler(), cols[:2])], remainder="passthrough")
    for last in (KNeighborsClassifier(1, "euclidean"), C45Classifier(), VFI5Classifier()):
        pipe = Pipeline([("front", front), ("clf", last)])
        assert cross_val_score(pipe, iris.X, iris.y, cv=5).mean() > 0.9
    mapped = Pipeline([("map", SubspaceMapping("cacp", n_components=2)), ("knn", KNeighborsClassifier(1, "euclidean"))])
    assert mapped.fit(iris.X, iris.y).score(iris.X, iris.y) > 0.9


def test_grid_search_over_k_and_metric():
    ds = load("house-votes-84")
    search = GridSearchCV(
        KNeighborsClassifier(), {"n_neighbors": [1, 5], "metric": ["overlap", "vdm", "hvdm"]}, cv=3
    ).fit(ds.X, ds.y)
    assert search.best_params_["n_neighbors"] in (1, 5) and search.best_score_ > 0.85
    assert len(search.cv_results_["mean_test_score"]) == 6


def test_labels_keep_their_dtype():
    X = np.array([[0.0], [0.1], [1.0], [1.1]])
    for y in ([3, 3, 7, 7], np.array([1.0, 1.0, 2.0, 2.0]), ["a", "a", "b", "b"], [True, True, False, False]):
        expected = np.unique(np.asarray(y))
        for clf in (KNeighborsClassifier(1, "euclidean"), C45Classifier(min_cases=1), VFI5Classifier()):
            clf.fit(X, y)
            assert clf.classes_.tolist() == expected.tolist() and clf.predict(X).tolist() == list(y)


@pytest.mark.parametrize(
    "make", [KNeighborsClassifier, C45Classifier, VFI5Classifier, DifferenceKNN], ids=lambda m: m.__name__
)
@pytest.mark.parametrize(
    "y, phrase",
    [
        ([0.0, 1.0, np.nan, 1.0], "missing labels"),
        ([1, 1, 1, 1], "single class"),
        ([1, "1", 1, "1"], "do not sort together"),
        ([1 + 1j, 2, 1 + 1j, 2], "complex"),
        ([0.5, 1.5, 2.5, 3.5], "Unknown label type"),
    ],
    ids=["nan", "single-class", "int-and-str", "complex", "continuous"],
)
def test_bad_labels_are_refused(make, y, phrase):
    with pytest.raises(ValueError, match=phrase):
        make().fit(np.array([[0.0], [1.0], [2.0], [3.0]]), y)


def test_subspace_and_selection_refuse_bad_labels_too():
    X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 1.0], [3.0, 0.0]])
    with pytest.raises(ValueError, match="missing labels"):
        SubspaceMapping("cacp").fit(X, [0.0, 1.0, np.nan, 1.0])
    with pytest.raises(ValueError, match="do not sort together"):
        MonteCarloSelector(n_subsets=2, random_state=0).fit(X, [1, "1", 1, "1"])


@pytest.mark.parametrize("name", ["dermatology", "zoo"])
def test_vfi5_fitted_with_the_loaders_types_predicts_the_same_frame(name):
    ds = load(name)
    clf = VFI5Classifier().fit(ds.X, ds.y, types=ds.types)
    assert clf.score(ds.X, ds.y) == VFI5Classifier().fit(ds.X, ds.y, types=ds.types).score(ds.X, ds.y) > 0.9


@pytest.mark.parametrize(
    "make",
    [
        VFI5Classifier,
        C45Classifier,
        lambda: KNeighborsClassifier(1, "euclidean"),
        SubspaceMapping,
        lambda: MonteCarloSelector(n_subsets=3, random_state=0),
        FNNSelector,
    ],
    ids=["vfi5", "c45", "knn", "subspace", "mc", "fnn"],
)
def test_reordered_or_renamed_columns_are_refused(make):
    iris = load("iris")
    est = make().fit(iris.X, iris.y)
    call = est.predict if hasattr(est, "predict") else est.transform
    with pytest.raises(ValueError, match="same order"):
        call(iris.X[iris.X.columns[::-1]])
    with pytest.raises(ValueError, match="unseen at fit time"):
        call(iris.X.rename(columns={iris.X.columns[0]: "other"}))


@pytest.mark.parametrize("make", [VFI5Classifier, C45Classifier, KNeighborsClassifier], ids=lambda m: m.__name__)
def test_a_category_list_in_another_order_is_refused_naming_the_column(make):
    X = pd.DataFrame({"colour": pd.Categorical(["red", "blue", "red", "blue"]), "x": [0.0, 1.0, 0.0, 1.0]})
    y = ["a", "b", "a", "b"]
    est = make().fit(X, y)
    other = X.assign(colour=X.colour.cat.reorder_categories(["red", "blue"]))
    with pytest.raises(ValueError, match="'colour' has categories"):
        est.predict(other)


def test_types_are_fit_time_information():
    """Fitted on codes declared nominal, the classifier reads later arrays with the same types."""
    X = np.array([[0.0], [1.0], [2.0], [0.0], [1.0], [2.0]])
    y = ["a", "b", "c", "a", "b", "c"]
    for clf in (VFI5Classifier(), C45Classifier(min_cases=1), KNeighborsClassifier(1, "overlap")):
        clf.fit(X, y, types=["nominal"])
        assert clf.schema_.kinds == ("nominal",) and clf.predict(X).tolist() == y


@pytest.mark.parametrize("metric", ["hvdm", "ivdm", "dvdm", "wvdm", "vdm", "heom", "euclidean", "mvdm"])
def test_every_fitted_knn_is_picklable(metric):
    import pickle

    ds = load("iris")
    clf = KNeighborsClassifier(3, metric).fit(ds.X, ds.y)
    twin = pickle.loads(pickle.dumps(clf))
    np.testing.assert_array_equal(twin.predict(ds.X), clf.predict(ds.X))


@pytest.mark.parametrize("estimator", _estimators()[2:], ids=lambda e: type(e).__name__)
def test_every_fitted_estimator_is_picklable(estimator):
    import pickle

    ds = load("iris")
    fitted = estimator.fit(ds.X, ds.y)
    twin = pickle.loads(pickle.dumps(fitted))
    call = "predict" if hasattr(fitted, "predict") else "transform"
    np.testing.assert_array_equal(getattr(twin, call)(ds.X), getattr(fitted, call)(ds.X))
