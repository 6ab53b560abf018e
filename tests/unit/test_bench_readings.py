"""The code-order rows of the Euclidean baselines (lazylib.protocols.bench.readings): read back only when they
belong to the full run they are compared with, and the two readings shown side by side."""

import gzip

import pandas as pd
import pytest

from lazylib.protocols.bench import readings
from lazylib.protocols.bench.protocol import CLIFF


def _run(accuracy=(80.0, 70.0, 90.0, 60.0, 75.0, 65.0)):
    rows = []
    for i, (dataset, kind) in enumerate((("a", "nominal"), ("b", "mixed"), ("c", "continuous"))):
        for j, method in enumerate(readings.BASELINES):
            rows.append(
                {
                    "dataset": dataset,
                    "kind": kind,
                    "seed": 7,
                    "fold": 0,
                    "method": method,
                    "accuracy": accuracy[2 * i + j],
                    "total_s": 0.1,
                    "refused": "",
                }
            )
    rows.append(
        {
            "dataset": "a",
            "kind": "nominal",
            "seed": 7,
            "fold": 0,
            "method": "1-NN HVDM",
            "accuracy": 85.0,
            "total_s": 0.1,
            "refused": "",
        }
    )
    return pd.DataFrame(rows)


def _write(rows, path):
    with gzip.open(path, "wt") as fh:
        rows.to_csv(fh, index=False)
    return path


def test_code_order_rows_are_read_and_compared(tmp_path):
    full = _run()
    codes = full[full["method"].isin(readings.BASELINES)].assign(accuracy=[75.0, 70.0, 95.0, 50.0, 70.0, 65.0])
    back = readings.load_code_order(full, _write(codes, tmp_path / "codes.csv.gz"))
    assert back["accuracy"].tolist() == codes["accuracy"].tolist()
    swapped = readings.with_code_order(full, back)
    assert len(swapped) == len(full) and swapped.loc[swapped["method"].eq("1-NN HVDM"), "accuracy"].item() == 85.0
    diff = readings.reading_difference(full, back)
    assert diff.loc["1-NN Euclidean"].to_dict() == {
        "data sets": 2,
        "mean, codes": 85.0,
        "mean, one-hot": 85.0,
        "largest change": 5.0,
        "one-hot higher": 1,
        "equal": 0,
        "one-hot lower": 1,
    }
    assert diff.loc["k-NN Euclidean", ["one-hot higher", "equal", "one-hot lower"]].tolist() == [1, 1, 0]


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda r: r.drop(columns="accuracy"), "lacks the columns"),
        (lambda r: r.assign(method="1-NN HVDM"), "only"),
        (lambda r: r.iloc[1:], "another run"),
        (lambda r: pd.concat([r, r.iloc[:1]]), "another run"),
        (lambda r: r.assign(seed=8), "another run"),
    ],
)
def test_rows_of_another_run_are_refused(tmp_path, damage, message):
    full = _run()
    codes = damage(full[full["method"].isin(readings.BASELINES)])
    with pytest.raises(ValueError, match=message):
        readings.load_code_order(full, _write(codes, tmp_path / "codes.csv.gz"))


def test_a_missing_file_names_itself(tmp_path):
    with pytest.raises(FileNotFoundError, match="codes.csv.gz is missing"):
        readings.load_code_order(_run(), tmp_path / "codes.csv.gz")


def _cliff_rows(name="iris", n=150):
    """Every row the cliff gives a data set of ``n`` instances (iris: five fold seeds of ten folds)."""
    seeds = CLIFF.seeds()[: CLIFF.fold_seeds_of(n)]
    keys = [(name, s, f, m) for s in seeds for f in range(CLIFF.n_splits) for m in CLIFF.methods]
    rows = pd.DataFrame(keys, columns=["dataset", "seed", "fold", "method"])
    return rows.assign(kind="continuous", accuracy=90.0, total_s=0.1, refused="", error="")


def _full_with(name="iris"):
    return pd.DataFrame(
        {"dataset": [name, "wine"], "kind": "continuous", "seed": 1, "fold": 0, "method": "1-NN HEOM",
         "accuracy": [50.0, 60.0], "total_s": 0.1, "refused": "", "error": ""}
    )  # fmt: skip


def test_the_cliffs_rows_are_read_back_and_replace_their_data_sets(tmp_path):
    cliff = _cliff_rows()
    back = readings.load_cliff_rows(_full_with(), _write(cliff, tmp_path / "cliff.csv.gz"))
    assert len(back) == 5 * 10 * len(CLIFF.methods) and back["refused"].eq("").all()
    swapped = readings.with_cliff(_full_with(), back)
    assert swapped.groupby("dataset")["accuracy"].mean().to_dict() == {"iris": 90.0, "wine": 60.0}


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda r: r.drop(columns="accuracy"), "lacks the columns"),
        (lambda r: r.iloc[1:], "once each"),
        (lambda r: pd.concat([r, r.iloc[:1]]), "once each"),
        (lambda r: r.assign(seed=r["seed"] + 1), "once each"),
        (lambda r: r.assign(dataset="glass"), "does not have"),
    ],
)
def test_the_cliffs_rows_of_another_run_are_refused(tmp_path, damage, message):
    with pytest.raises(ValueError, match=message):
        readings.load_cliff_rows(_full_with(), _write(damage(_cliff_rows()), tmp_path / "cliff.csv.gz"))
    with pytest.raises(FileNotFoundError, match="cliff.csv.gz is missing"):
        readings.load_cliff_rows(_full_with(), tmp_path / "none" / "cliff.csv.gz")
