"""The catalogue's advice for a new table (lazylib.protocols.bench.catalogue_advice)."""

import numpy as np
import pandas as pd
import pytest

from lazylib.protocols.bench import catalogue_advice as ca


def _run(accuracy: dict) -> pd.DataFrame:
    """A bench run with two folds per data set: accuracy[dataset][method] on both (None: refused)."""
    rows = []
    for d, by_method in accuracy.items():
        for m, a in by_method.items():
            for f in range(2):
                rows.append({"dataset": d, "seed": 0, "fold": f, "method": m, "accuracy": np.nan if a is None else a})
    return pd.DataFrame(rows)


def _profiles(sizes: dict, nominal: dict) -> pd.DataFrame:
    rows = {
        d: {"rows": n, "attributes": 5, "nominal_share": nominal[d], "missing_share": 0.0, "classes": 2}
        for d, n in sizes.items()
    }
    return pd.DataFrame.from_dict(rows, orient="index")


# Two families: small nominal data sets where A is best, large continuous ones where B is best.
ACC = {
    "n1": {"A": 90, "B": 80, "C": 85},
    "n2": {"A": 91, "B": 81, "C": 86},
    "n3": {"A": 92, "B": 82, "C": 87},
    "c1": {"A": 70, "B": 90, "C": 85},
    "c2": {"A": 71, "B": 91, "C": 86},
    "c3": {"A": 72, "B": 92, "C": 87},
    "c4": {"A": 73, "B": 93, "C": 88},
    "c5": {"A": 74, "B": 94, "C": 89},
}
PROFILES = _profiles(
    {"n1": 100, "n2": 120, "n3": 140, "c1": 10_000, "c2": 12_000, "c3": 14_000, "c4": 16_000, "c5": 18_000},
    {"n1": 1, "n2": 1, "n3": 1, "c1": 0, "c2": 0, "c3": 0, "c4": 0, "c5": 0},
)


def test_profile_counts_what_it_says():
    X = pd.DataFrame({"a": [1.0, np.nan, 3.0, 4.0], "b": list("xyxy"), "c": [0.0] * 4})
    p = ca.profile(X, ["p", "q", "p", "r"], {"a": "continuous", "b": "nominal", "c": "continuous"})
    assert p == {"rows": 4, "attributes": 3, "nominal_share": 1 / 3, "missing_share": 1 / 12, "classes": 3}
    with pytest.raises(ValueError, match="rows and attributes"):
        ca.profile(pd.DataFrame(), [])


def test_nearest_and_view_follow_the_families():
    target = {"rows": 110, "attributes": 5, "nominal_share": 1.0, "missing_share": 0.0, "classes": 2}
    near = ca.nearest(target, PROFILES, k=3)
    assert set(near.index) == {"n1", "n2", "n3"}
    view = ca.catalogue_view(target, _run(ACC), k=3, profiles=PROFILES)
    assert view["recommended"] == "A"
    big = dict(target, rows=13_000, nominal_share=0.0)
    assert ca.catalogue_view(big, _run(ACC), k=3, profiles=PROFILES)["recommended"] == "B"
    with pytest.raises(ValueError, match="k = 9"):
        ca.nearest(target, PROFILES, k=9)


def test_view_ranks_the_table_among_the_catalogue():
    target = {"rows": 110, "attributes": 5, "nominal_share": 1.0, "missing_share": 0.0, "classes": 2}
    view = ca.catalogue_view(target, _run(ACC), {"A": 60, "B": 99, "C": 70}, k=3, profiles=PROFILES)
    overall = view["overall"]
    assert overall.loc["B", "rank_on_table"] == 1 and overall.loc["A", "rank_on_table"] == 3
    assert overall.loc["B", "rank_catalogue"] == pytest.approx((3 * 3 + 5 * 1) / 8)
    assert overall.loc["B", "rank_with_table"] == pytest.approx((3 * 3 + 5 * 1 + 1) / 9)
    assert view["n_catalogue"] == 8


def test_hit_rate_beats_the_plain_advice_when_neighbours_matter():
    r = ca.hit_rate(_run(ACC), PROFILES, k=2, within=1.0)
    assert r["n"] == 8 and r["hits"] == 8 and r["rate"] == 1.0
    # the plain advice (the best mean rank over the other seven: B) misses the three nominal data sets
    assert r["baseline_hits"] == 5
    assert r["picks"].loc["n1", "recommended"] == "A" and r["picks"].loc["n1", "baseline"] == "B"


def test_a_refusing_method_is_neither_ranked_nor_averaged():
    acc = {d: dict(m, D=None if d.startswith("n") else 99) for d, m in ACC.items()}
    block = ca.accuracy_block(_run(acc))
    assert np.isnan(block.loc["n1", "D"]) and block.loc["c1", "D"] == 99
    r = ca.hit_rate(_run(acc), PROFILES, k=2)
    assert (r["picks"].loc[["n1", "n2", "n3"], "recommended"] != "D").all()
    assert (r["picks"].loc[["c1", "c2"], "recommended"] == "D").all()


def test_partial_failures_make_no_mean():
    run = _run(ACC)
    run.loc[(run["dataset"] == "c1") & (run["method"] == "B") & (run["fold"] == 0), "accuracy"] = np.nan
    assert np.isnan(ca.accuracy_block(run).loc["c1", "B"])


def test_on_the_stored_full_run():
    from lazylib.protocols.bench.results import load_full_run

    full = load_full_run()
    if full is None:
        pytest.skip("the stored full run is not in this checkout")
    profiles = ca.catalogue_profiles(sorted(full["dataset"].unique()))
    assert len(profiles) == 46
    r = ca.hit_rate(full, profiles, k=5)
    assert r["n"] == 46 and 0 <= r["rate"] <= 1 and r["hits"] == round(r["rate"] * 46)
    view = ca.catalogue_view(profiles.loc["crx"].to_dict(), full, k=5, profiles=profiles)
    assert view["nearest"][0]["dataset"] == "crx" and len(view["nearest"]) == 5
