"""The report of a user's table (lazylib.report.table_report, TableResult.write of lazylib.protocols.bench.user_table):
offline, every section there with the statistics' numbers, user strings escaped, files written whole."""

from __future__ import annotations

import json
from html.parser import HTMLParser

import numpy as np
import pandas as pd
import pytest

from lazylib.datasets.frame import from_frame
from lazylib.protocols.bench.table_stats import one_table
from lazylib.protocols.bench.user_table import ROW_COLUMNS, TableResult, check_writable, provenance, rows_of_run
from lazylib.report.table_report import SECTIONS

K = 10


class _Page(HTMLParser):
    """Every tag's attributes, the ids of the sections, and the text of each section."""

    def __init__(self):
        super().__init__()
        self.links, self.ids, self.text, self.tags = [], [], {}, []
        self._section = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append(tag)
        self.links += [attrs[a] for a in ("src", "href") if a in attrs]
        if tag == "section":
            self._section = attrs.get("id")
            self.ids.append(self._section)

    def handle_data(self, data):
        if self._section:
            self.text[self._section] = self.text.get(self._section, "") + data


def _run_rows(rng=0) -> pd.DataFrame:
    """Rows shaped as lazylib.protocols.bench.protocol.run returns them: three methods that ran, one refused."""
    rng = np.random.default_rng(rng)
    base = rng.normal(80, 2, size=(2, K))
    rows = []
    for method, effect, cost in (("k-NN IVDM", 3.0, 2.0), ("1-NN Euclidean", 0.0, 0.1), ("MDW", 2.8, 0.5)):
        for s, seed in enumerate((11, 22)):
            for f in range(K):
                acc = base[s, f] + effect + rng.normal(0, 0.5)
                rows.append({"dataset": "t", "kind": "mixed", "seed": seed, "fold": f, "method": method})
                rows[-1] |= {"accuracy": acc, "fit_s": cost / 2, "predict_s": cost / 2, "total_s": cost}
                rows[-1] |= {"refused": "", "error": ""}
    for seed in (11, 22):
        for f in range(K):
            rows.append({"dataset": "t", "kind": "mixed", "seed": seed, "fold": f, "method": "CA", "accuracy": np.nan})
            rows[-1] |= {"fit_s": np.nan, "predict_s": np.nan, "total_s": np.nan, "error": ""}
            rows[-1]["refused"] = "the sub-space mapping needs numeric attributes <b>"
    return pd.DataFrame(rows)


class _Config:
    """The fields of lazylib.protocols.bench.protocol.Config that the provenance reads."""

    n_splits = K
    random_state = 2026

    @staticmethod
    def seeds():
        return [11, 22]


def _result(column="colour", rng=0) -> TableResult:
    frame = pd.DataFrame(
        {
            column: pd.Categorical(list("rgbrgbrgbr") * 3),
            "size": np.r_[np.arange(29.0), np.nan],
            "label": ["a&b", "<i>c</i>"] * 15,
        }
    )
    table = from_frame(frame, "label", {column: "nominal", "size": "continuous"}, name="<script>x</script>")
    rows = rows_of_run(_run_rows(rng))
    st = one_table(rows, baseline="1-NN Euclidean", test_share=1 / (K - 1))
    record = provenance(
        table, _Config, command="lazylib bench t.csv", started="2026-12-02T00:00:00Z", wall_s=1.0, target="label",
        protocol="2 fold seeds of stratified 10-fold cross-validation",
    )  # fmt: skip
    record["catalogue_note"] = "not asked for (--no-catalogue)"
    return TableResult(table, rows, st, None, record)


def test_rows_of_a_run_say_ok_refused_or_failed():
    run = _run_rows()
    run.loc[0, ["error", "accuracy"]] = ["MemoryError: ", np.nan]
    rows = rows_of_run(run)
    assert tuple(rows.columns) == ROW_COLUMNS
    assert rows["status"].value_counts().to_dict() == {"ok": 59, "refused": 20, "failed": 1}
    assert rows.loc[0, "message"] == "MemoryError: " and rows.loc[rows["method"] == "CA", "accuracy"].isna().all()


def test_the_report_folder_is_offline_with_every_section_and_the_numbers(tmp_path):
    result = _result()
    folder = result.write(tmp_path / "report")
    page = _Page()
    page.feed((folder / "index.html").read_text(encoding="utf-8"))
    assert page.ids == [key for key, _ in SECTIONS]
    remote = [link for link in page.links if link.startswith(("http://", "https://", "//"))]
    assert remote == [] and "script" not in page.tags and "link" not in page.tags
    assert all(link.startswith("data:image/png;base64,") for link in page.links) and len(page.links) == 2
    st = result.statistics
    assert st.best in page.text["accuracy"] and f"{st.summary.at[st.best, 'mean']:.2f}" in page.text["accuracy"]
    assert st.recommended in page.text["recommendation"] and st.reason in page.text["recommendation"]
    p = st.against_baseline.loc[st.best, "p_holm"]
    assert f"{p:.1e}" in page.text["tests"] or f"{p:.3f}" in page.text["tests"]
    assert "ROPE 0.5" in page.text["bayes"] and "ROPE 2" in page.text["bayes"]
    assert "sub-space mapping needs numeric attributes <b>" in page.text["refusals"]
    assert result.table.sha256 in page.text["provenance"] and "11, 22" in page.text["provenance"]
    back = pd.read_csv(folder / "results.csv", keep_default_na=False, na_values={"accuracy": [""]})
    assert back[["method", "seed", "fold", "status"]].equals(result.rows[["method", "seed", "fold", "status"]])
    np.testing.assert_array_equal(back["accuracy"].to_numpy(float), result.rows["accuracy"].to_numpy(float))
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["provenance"]["data_sha256"] == result.table.sha256
    assert summary["data"]["rows_dropped_missing_target"] == 0
    assert summary["data"]["columns"] == {"colour": "nominal", "size": "continuous"}
    assert summary["recommended"]["method"] == st.recommended and summary["catalogue"] is None
    methods = {m["name"]: m for m in summary["methods"]}
    assert methods["CA"]["status"] == "refused" and methods["CA"]["mean_accuracy"] is None
    assert methods[st.best]["mean_accuracy"] == pytest.approx(st.summary.at[st.best, "mean"])
    assert {"against_baseline", "against_best", "bayes"} <= set(summary["tests"])
    assert sorted(p.name for p in folder.iterdir()) == ["index.html", "results.csv", "summary.json"]


def test_user_strings_are_escaped(tmp_path):
    result = _result(column='<img src="http://x.test/a.png">')
    text = result.to_html(tmp_path / "page.html").read_text(encoding="utf-8")
    assert "<script>" not in text and '<img src="http' not in text and "<i>c</i>" not in text
    assert "&lt;script&gt;x&lt;/script&gt;" in text and "a&amp;b" in text
    page = _Page()
    page.feed(text)
    assert not [link for link in page.links if "x.test" in link]


def test_an_unwritable_folder_is_refused_before_any_work(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    with pytest.raises(OSError, match=r"cannot write to the report folder .*a-file/report .*name a folder you can"):
        check_writable(blocker / "report")
    with pytest.raises(OSError, match="cannot write"):
        _result().write(blocker / "report")


def test_several_tables_are_compared_as_blocks_on_a_page_of_their_own(tmp_path):
    pytest.importorskip("scikit_posthocs")
    from lazylib.protocols.bench.stats import friedman
    from lazylib.protocols.bench.user_tables import TablesResult, accuracy_block, across_tables

    results = {name: _result(rng=i) for i, name in enumerate(["a", "b", "c"])}
    block = accuracy_block(results)
    assert block.shape == (3, 4) and block["CA"].isna().all()
    across = across_tables(results, baseline="1-NN Euclidean")
    assert list(across["ranking"]["block"].columns) == ["k-NN IVDM", "1-NN Euclidean", "MDW"]
    assert across["ranking"]["friedman"] == friedman(block.drop(columns="CA"))
    assert any("CA: left out" in n for n in across["notes"]) and any("3 tables" in n for n in across["notes"])
    folder = TablesResult(results, across).write(tmp_path / "r")
    page = _Page()
    page.feed((folder / "index.html").read_text(encoding="utf-8"))
    assert page.links == ["a/index.html", "b/index.html", "c/index.html"]
    assert all((folder / n / "index.html").is_file() for n in "abc")
    assert f"p = {across['ranking']['friedman']['p']:.4f}" in page.text["ranks"]
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["tables"] == ["a", "b", "c"] and summary["friedman"]["N"] == 3
    with pytest.raises(ValueError, match="at least two tables"):
        across_tables({"a": results["a"]})
