"""Howe & Cardie's protocol: k by leave-one-out, McNemar / paired t marks, the tasks."""

import numpy as np
import pandas as pd
import pytest

from lazylib.neighbors import loo_accuracy_by_k
from lazylib.protocols.howe_cardie import claims as PC
from lazylib.protocols.howe_cardie import protocol as P
from lazylib.protocols.howe_cardie import readings as PR
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
    seeds = PC.per_seed(results)
    assert list(seeds) == [0, 1, 2] and all(sorted(g.task) == ["A", "B"] for g in seeds.values())


def _results():
    rows = [
        ("LED-7", "MDW", rep, fold, acc)
        for rep, accs in enumerate([[70.0, 72.0], [69.0, 71.0]])
        for fold, acc in enumerate(accs)
    ]
    rows += [("Waveform-21", "IG", 0, 0, 74.0), ("Waveform-21", "IG", 1, 0, 75.0)]
    return pd.DataFrame(rows, columns=["task", "method", "rep", "fold", "accuracy"])


def test_runs_of_pools_the_folds_of_each_repetition():
    assert P.runs_of(_results(), "LED-7", "MDW").tolist() == [71.0, 70.0]
    assert len(P.runs_of(_results(), "LED-7", "IG")) == 0


def test_led_run_above_is_the_binomial_tail_at_the_bayes_bound():
    from scipy import stats

    from lazylib.synthetic import led_bayes_accuracy

    assert PR.led_run_above(78.4) == pytest.approx(stats.binom.sf(195, 250, led_bayes_accuracy(0.10)))
    assert PR.led_run_above(60.0) > 0.999 and PR.led_run_above(90.0) < 1e-9
    assert PR.led_run_above(78.4, noise=0.08) > PR.led_run_above(78.4)


def test_table1_readings_and_notes():
    by_size = _results().assign(reading="small")
    alternative = _results()
    readings = PR.table1_readings(
        "Waveform-21", "IG", alternative=alternative, by_size=by_size, numeric_tasks=["Waveform-21"]
    )
    assert list(readings) == ["IG weights only", "sizes small"]
    assert readings["IG weights only"].tolist() == [74.0, 75.0]
    assert list(
        PR.table1_readings("LED-7", "MDW", alternative=alternative, by_size=by_size, numeric_tasks=["Waveform-21"])
    ) == ["sizes small"]
    as_value = _results().assign(accuracy=lambda r: r.accuracy + 1.0)
    with_values = PR.table1_readings(
        "Waveform-21", "IG", alternative=alternative, by_size=by_size, numeric_tasks=[], as_value=as_value
    )
    assert list(with_values) == ["sizes small", "unknowns as a value"]
    assert with_values["unknowns as a value"].tolist() == [75.0, 76.0]
    # a reading that puts the published value inside its band explains the cell; none does: tested
    note, kind = PR.table1_note("Waveform-21", "IG", 74.5, readings, diagnosis=None, deviations={}, deterministic=False)
    assert kind == "explained" and "IG weights only" in note
    note, kind = PR.table1_note("Waveform-21", "IG", 95.0, readings, diagnosis=None, deviations={}, deterministic=False)
    assert kind == "tested" and "unexplained" in note
    diagnosis = pd.DataFrame(
        {"mean": [80.0, 60.0]}, index=pd.MultiIndex.from_tuples([(8, "LED-7", "MDW"), (12, "LED-7", "MDW")])
    )
    note, kind = PR.table1_note("LED-7", "MDW", 95.0, {}, diagnosis=diagnosis, deviations={}, deterministic=False)
    assert "no noise level fits the six LED cells (means at 8 % noise 80.0, 12 % noise 60.0)" in note
    note, kind = PR.table1_note(
        "Soybean", "MDW", 90.4, {}, diagnosis=None, deviations={"Soybean": "unknown values"}, deterministic=True
    )
    assert (note, kind) == ("explained: unknown values", "explained")


def test_loo_gain_and_the_images_claims():
    D = np.array([[0, 1, 5, 5], [1, 0, 5, 5], [5, 5, 0, 1], [5, 5, 1, 0]], dtype=float)
    wrong = np.array([[0, 5, 1, 5], [5, 0, 5, 1], [1, 5, 0, 5], [5, 1, 5, 0]], dtype=float)  # nearest: other class
    y = ["a", "a", "b", "b"]
    facts = PC.loo_gain(D, wrong, y, 1, 1)
    assert (facts["MDW"], facts["unweighted"], facts["gain"]) == (100.0, 0.0, 100.0)
    assert facts["p"] == pytest.approx(P.mcnemar_p(np.ones(4, bool), np.zeros(4, bool)))
    paper, standin = PC.IMAGES_CLAIMS
    assert str(paper.rule(None)) == "not testable" and standin.kind == "stand-in"
    assert str(standin.rule(facts)) == "partly supported"  # higher, but four instances cannot reach p < 0.01
    assert standin.evidence(facts) == (
        "satellite stand-in (an illustration, other data): leave-one-out 0.0 % unweighted (k = 1) vs 100.0 % with "
        f"MDW (k = 1; a gain, McNemar p = {facts['p']:.2g})"
    )
    assert "a loss" in standin.evidence(PC.loo_gain(wrong, D, y, 1, 1))


def test_cell_readings_are_the_table2_chapters_former_size_readings_then_the_alternatives():
    rng = np.random.default_rng(0)
    rows = [
        {"reading": size, "task": t, "method": m, "rep": r, "fold": f, "accuracy": float(rng.uniform(60, 90))}
        for size in ("train 100", "train 500")
        for t in ("LED-7", "Waveform-21")
        for m in ("MVDM", "VDM")
        for r in range(3)
        for f in range(2)
    ]
    by_size = pd.DataFrame(rows)
    for d, m in [("LED-7", "VDM"), ("Waveform-21", "MVDM"), ("Soybean", "VDM")]:
        former = {  # the chapter's former expression, verbatim
            f"sizes {size}": g[(g.task == d) & (g.method == m)].groupby("rep")["accuracy"].mean().to_numpy()
            for size, g in by_size.groupby("reading", sort=False)
            if d in set(g.task)
        }
        new = PR.cell_readings(d, m, by_size=by_size)
        assert list(new) == list(former) and all(np.array_equal(new[k], former[k]) for k in former)
    soy = pd.DataFrame({"task": "Soybean", "method": "VDM", "rep": [0], "fold": [0], "accuracy": [92.5]})
    alternatives = {"unseen values uniform": soy, "5 bins": soy.assign(task="Ionosphere")}
    readings = PR.cell_readings("Soybean", "VDM", by_size=by_size, alternatives=alternatives)
    assert {k: v.tolist() for k, v in readings.items()} == {"unseen values uniform": [92.5]}
    assert list(PR.cell_readings("LED-7", "VDM", by_size=by_size, alternatives=alternatives)) == [
        "sizes train 100",
        "sizes train 500",
    ]
