"""Part II's Table 2 claims as data (lazylib.protocols.payne2000.claims): one task's run, the facts of a fold seed,
the paper's facts read from the typed-in table, and every claim's rule on facts whose verdict is known."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from lazylib import datasets
from lazylib.protocols.payne2000.claims import (
    METHODS,
    TABLE2_CLAIMS,
    fold_scores,
    mark,
    paper_facts,
    seed_facts,
    table2_task,
)
from lazylib.protocols.payne2000.protocol import DATASETS

PUBLISHED = Path(__file__).resolve().parents[2] / "book" / "published"
N_ATTRIBUTES = pd.Series({"bupa": 6, "ionosp": 34, "pima": 8, "sonar": 60, "wiscon": 9, "wdbc": 30, "wpbc": 33,
                          "balance": 4, "glass": 9, "iris": 4, "wine": 13})  # fmt: skip


def _published():
    return pd.read_csv(PUBLISHED / "payne2000_table2.csv", keep_default_na=False).set_index(["dataset", "method"])


def _paper():
    return paper_facts(_published(), N_ATTRIBUTES)


def _facts_as_published(**changes) -> dict:
    """Facts of one seed equal to the paper's numbers, with ``changes`` (name -> function of the facts)."""
    paper = _paper()
    pub = _published()
    marks = paper["marks"][list(METHODS[1:])].copy()
    for d in marks.index:  # our marks always carry an arrow; the paper prints one only with a dagger
        for m in marks.columns:
            if not marks.loc[d, m]:
                diff = pub.loc[(d, m), "accuracy"] - pub.loc[(d, "NN"), "accuracy"]
                marks.loc[d, m] = "↑" if diff > 0 else "↓" if diff < 0 else ""
    dims = paper["dims"][list(METHODS[1:])].astype(float)
    f = {
        "acc": paper["acc"].astype(float), "dims": dims, "marks": marks,
        "nested": paper["acc"][["CA", "CACP"]].astype(float) + 1.0,
        "reduction": (100 * (1 - dims.div(N_ATTRIBUTES, axis=0))).mean(),
        "petal_folds": 20, "all_folds": pd.Series(20, index=N_ATTRIBUTES.index), "n_folds": 20,
        "n_attributes": N_ATTRIBUTES, "paper": paper,
    }  # fmt: skip
    for name, change in changes.items():
        f[name] = change(f)
    return f


def _verdicts(f: dict) -> dict:
    return {c.key: c.rule(f) for c in TABLE2_CLAIMS}


def test_paper_facts_read_the_typed_in_table():
    paper = _paper()
    assert paper["acc"].loc["iris", "MC"] == pytest.approx(98.13)
    assert paper["marks"].loc["iris", "MC"].endswith(("†", "‡")) and paper["marks"].loc["bupa", "NN"] == ""
    assert list(paper["acc"].index) == list(DATASETS)


def test_the_paper_s_own_numbers_support_the_claims_about_them():
    """On facts equal to the published table the claims that compare with the table hold."""
    v = _verdicts(_facts_as_published())
    for key in ("mc_reduces", "mc_marks", "fnn_five", "ca_six", "ca_beat"):
        assert v[key] == "supported", key


@pytest.mark.parametrize(
    ("key", "change", "expected"),
    [
        ("mc_reduces", {"dims": lambda f: f["dims"].assign(MC=N_ATTRIBUTES.astype(float))}, "not supported"),
        ("mc_half", {"dims": lambda f: f["dims"].assign(MC=N_ATTRIBUTES.astype(float))}, "not supported"),
        ("mc_marks", {"marks": lambda f: f["marks"].assign(MC="↑†")}, "not supported"),
        ("fnn_five", {"acc": lambda f: f["acc"].assign(FNN=f["acc"]["NN"] - 1)}, "partly supported"),
        ("fnn_drops", {"marks": lambda f: f["marks"].assign(FNN="↓†")}, "not supported"),
        ("fnn_no_effect", {"marks": lambda f: f["marks"].assign(FNN="↑‡")}, "not supported"),
        ("c45_iris", {"petal_folds": lambda f: 5}, "not supported"),
        ("c45_iris", {"petal_folds": lambda f: 12}, "partly supported"),
        ("c45_all", {"all_folds": lambda f: f["all_folds"] * 0}, "not supported"),
        ("ca_fail", {"dims": lambda f: f["dims"].assign(CA=1.0, CACP=1.0)}, "not supported"),
        ("ca_up", {"acc": lambda f: f["acc"].assign(CA=f["acc"]["NN"], CACP=f["acc"]["NN"])}, "not supported"),
        ("ca_up_nested", {"nested": lambda f: f["nested"] * 0}, "not supported"),
        ("ca_up_nested", {}, "supported"),
        ("reduction_order", {"reduction": lambda f: pd.Series({"MC": 10.0, "FNN": 10.0, "CA": 50.0, "CACP": 50.0})},
         "not supported"),
        ("reduction_order", {"reduction": lambda f: pd.Series({"MC": 60.0, "FNN": 20.0, "CA": 30.0, "CACP": 30.0})},
         "partly supported"),
        ("reduced_up", {"acc": lambda f: f["acc"].assign(CA=0.0, CACP=0.0)}, "not supported"),
    ],
)  # fmt: skip
def test_each_rule_can_fail(key, change, expected):
    claim = next(c for c in TABLE2_CLAIMS if c.key == key)
    f = _facts_as_published(**change)
    assert claim.rule(f) == expected
    assert isinstance(claim.evidence(f), str) and claim.evidence(f)


def test_mark_is_the_arrow_then_the_dagger():
    a, b = np.array([90.0, 92.0, 91.0, 93.0, 92.0]), np.array([80.0, 81.0, 80.5, 82.0, 81.0])
    assert mark(a, b) == "↑†" and mark(b, a).startswith("↓") and mark(a, a) == ""


def test_one_task_and_the_facts_of_a_seed_on_iris_and_wine():
    """table2_task's runs feed fold_scores and seed_facts: accuracies in per cent, dimensions within the attribute
    count, one mark per learner, the petal folds among iris's folds."""
    results = {}
    for short in ("iris", "wine"):
        ds = datasets.load(DATASETS[short])
        results[short] = table2_task(ds, 1, 2, n_folds=3, mc_budget=4, scaling="range", ties="first")
    acc, dims = fold_scores(results["iris"], "NN")
    assert len(acc) == 3 and dims is None and np.all((acc >= 0) & (acc <= 100))
    assert set(results["iris"]) == {"NN", "MC", "FNN", "CA", "CACP", "CACP, K <= C-1"}
    n = N_ATTRIBUTES[["iris", "wine"]]
    petal = np.array(["petal" in c for c in datasets.load("iris").X.columns])
    f = seed_facts(results, n, petal)
    assert list(f["acc"].columns) == list(METHODS) and f["n_folds"] == 3
    assert (f["dims"].le(n, axis=0) & f["dims"].ge(1)).all().all()
    assert 0 <= f["petal_folds"] <= 3 and f["all_folds"].between(0, 3).all()
    assert f["marks"].map(lambda s: s[:1] in ("↑", "↓", "")).all().all()
    assert f["reduction"].between(0, 100).all()
