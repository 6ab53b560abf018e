"""Howe & Cardie's protocol: k by leave-one-out, McNemar / paired t marks, the tasks."""

import numpy as np
import pandas as pd
import pytest

from lazylib.neighbors import loo_accuracy_by_k
from lazylib.protocols import howe_cardie as P
from lazylib.synthetic import waveform
from lazylib.weighting import MDW, FeatureDifference


def test_mcnemar_is_binomial_on_discordant_pairs():
    a = np.array([1, 1, 1, 1, 1, 1, 0, 1], bool)
    b = np.array([0, 0, 0, 0, 0, 0, 0, 1], bool)
    assert P.mcnemar_p(a, b) == pytest.approx(2 * 0.5**6)
    assert P.mcnemar_p(a, a) == 1.0


def test_fit_predict_chooses_the_best_loo_k():
    X, y = waveform(200, random_state=0)
    out = P.fit_predict(FeatureDifference, X.iloc[:150], y.iloc[:150], X.iloc[150:], y.iloc[150:], ks=[1, 5, 15])
    loo = loo_accuracy_by_k(X.iloc[:150], y.iloc[:150], [1, 5, 15], FeatureDifference())
    assert out["k"] == int(loo.idxmax())
    assert out["correct"].shape == (50,)


def test_run_marks_and_significance():
    X, y = waveform(120, n_noise=10, random_state=1)
    reps = [[(np.arange(80), np.arange(80, 120))]]
    cv = [[(np.setdiff1d(np.arange(120), np.arange(i, 120, 4)), np.arange(i, 120, 4)) for i in range(4)]]
    res = P.run({"split": (X, y, reps), "cv": (X, y, cv)}, {"k-NN": FeatureDifference, "MDW": MDW}, ks=[1, 3], n_jobs=1)
    assert len(res) == 2 * (1 + 4)
    tests = P.pairwise_tests(res)
    assert set(tests.test) == {"McNemar", "paired t"}
    m = P.marks(res, tests)
    assert m.any(axis=1).all()  # the best method is always marked
    s = P.summary(res, None)
    assert ((s.low <= s.reproduced) & (s.reproduced <= s.high)).all()


def test_tasks_shapes():
    t = P.tasks(3, n_reps=1, n_train=20, n_test=10)
    assert set(t) == {
        "LED-7",
        "LED-24",
        "Waveform-21",
        "Waveform-40",
        "Soybean",
        "Lymphography",
        "Promoters",
        "Ionosphere",
    }
    X, y, reps = t["Ionosphere"]
    assert len(reps[0][0][0]) == 200 and len(reps[0][0][1]) == 151
    assert t["LED-24"][0].shape == (30, 24) and t["Waveform-40"][0].shape == (30, 40)
    assert isinstance(t["Soybean"][0], pd.DataFrame)


def test_tasks_size_readings():
    t = P.tasks(3, n_reps=2, n_train={"LED": 20, "Waveform": 30}, n_test=10, which="generated")
    assert list(t) == ["LED-7", "LED-24", "Waveform-21", "Waveform-40"]
    ((tr, te),) = t["LED-7"][2][1]
    assert len(tr) == 20 and len(te) == 10 and tr[0] == 30  # the second repetition indexes its own rows
    assert len(t["Waveform-21"][2][0][0][0]) == 30
    cv = P.tasks(3, n_reps=1, cv_size=40, which="generated")
    folds = cv["Waveform-40"][2][0]
    assert len(folds) == 10 and sorted(np.concatenate([te for _, te in folds])) == list(range(40))
    # the generator seeds do not depend on the reading: the same data set under both readings
    split = P.tasks(3, n_reps=1, n_train=30, n_test=10, which="generated")
    pd.testing.assert_frame_equal(split["LED-24"][0], cv["LED-24"][0])
    assert set(P.tasks(3, n_reps=1, which="natural")) == {"Soybean", "Lymphography", "Promoters", "Ionosphere"}
    assert P.GENERATED_SIZES in P.SIZE_READINGS
    with pytest.raises(ValueError):
        P.tasks(3, which="some")


def test_reading_distances_and_verdict_helpers():
    rows = [
        {"reading": r, "task": t, "method": "k-NN", "accuracy": a}
        for r, acc in {"x": (60.0, 50.0), "y": (70.0, 58.0)}.items()
        for t, a in zip(["LED-7", "LED-24"], acc)
    ]
    published = pd.Series({("LED-7", "k-NN"): 66.8, ("LED-24", "k-NN"): 57.2})
    published.index.names = ["dataset", "method"]
    d = P.reading_distances(pd.DataFrame(rows), published, "k-NN")
    assert d.loc["x", "LED-7"] == pytest.approx(-6.8) and d.loc["y", "mean |difference|"] == pytest.approx(2.0)
    results = pd.DataFrame(
        [{"task": t, "rep": r, "method": "m", "accuracy": 1.0} for t, n in [("A", 3), ("B", 1)] for r in range(n)]
    )
    seeds = P.per_seed(results)
    assert list(seeds) == [0, 1, 2] and all(sorted(g.task) == ["A", "B"] for g in seeds.values())
