"""scikit-learn style parameters: get_params / set_params on the classifier and the metrics, and clone."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.base import clone

from lazylib.datasets import load
from lazylib.metrics import available, make_metric
from lazylib.neighbors import KNeighborsClassifier


def test_get_params_round_trip_and_set_params():
    knn = KNeighborsClassifier(3, "vdm", ties="random", tie_tolerance=1e-8, random_state=4)
    params = knn.get_params()
    assert params == {
        "n_neighbors": 3,
        "metric": "vdm",
        "metric_params": None,
        "ties": "random",
        "tie_tolerance": 1e-8,
        "random_state": 4,
    }
    assert KNeighborsClassifier(**params).get_params() == params
    assert knn.set_params(n_neighbors=5, ties="all") is knn and knn.n_neighbors == 5 and knn.ties == "all"
    with pytest.raises(ValueError, match=r"Invalid parameter .k."):
        knn.set_params(k=3)


@pytest.mark.parametrize("name", available())
def test_every_metric_clones_with_its_parameters(name):
    metric = make_metric(name)
    copy = clone(metric)
    assert type(copy) is type(metric) and copy is not metric
    assert repr(copy) == repr(metric)
    assert not hasattr(copy, "fitted_")
    with pytest.raises(ValueError, match="Invalid parameter"):
        metric.set_params(bogus=1)


def test_clone_is_unfitted_and_shares_nothing():
    ds = load("house-votes-84")
    metric = make_metric("vdm", working_memory=8)
    knn = KNeighborsClassifier(1, metric).fit(ds.X, ds.y)
    twin = clone(knn)
    assert not hasattr(twin, "metric_") and twin.metric is not metric
    assert twin.metric.working_memory == 8
    np.testing.assert_array_equal(twin.fit(ds.X, ds.y).predict(ds.X), knn.predict(ds.X))
    with pytest.raises(TypeError, match="Cannot clone object"):
        clone(object())


def _public_estimators():
    """Every public class of lazylib with a ``fit`` method (classifiers, mappings, selectors, metrics)."""
    import importlib
    import inspect
    import pkgutil

    import lazylib

    found = {}
    for info in pkgutil.walk_packages(lazylib.__path__, "lazylib."):
        if any(part.startswith("_") for part in info.name.split(".")):
            continue
        module = importlib.import_module(info.name)
        names = getattr(module, "__all__", None) or [n for n in vars(module) if not n.startswith("_")]
        for name in names:
            obj = getattr(module, name)
            if (
                inspect.isclass(obj)
                and obj.__module__.startswith("lazylib")
                and callable(getattr(obj, "fit", None))
                and not inspect.isabstract(obj)
            ):
                found[f"{obj.__module__}.{obj.__qualname__}"] = obj
    return sorted(found.items())


ESTIMATORS = _public_estimators()


@pytest.mark.parametrize("name, cls", ESTIMATORS, ids=[n for n, _ in ESTIMATORS])
def test_every_public_estimator_has_sklearn_parameters(name, cls):
    import inspect

    names = [p for p in inspect.signature(cls.__init__).parameters if p not in ("self", "args", "kwargs")]
    try:
        estimator = cls()
    except TypeError:
        pytest.skip(f"{name} has required constructor arguments")
    params = estimator.get_params()
    assert sorted(params) == sorted(names)  # every constructor keyword, stored under its own name
    twin = clone(estimator)
    assert type(twin) is cls and twin is not estimator and twin.get_params().keys() == params.keys()
    with pytest.raises(ValueError, match="Invalid parameter"):
        estimator.set_params(not_a_parameter=1)
