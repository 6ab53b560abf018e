"""Which public ``lazylib`` names a page's code uses (``lazylib/_book/api_links.py``), on small code snippets."""

from __future__ import annotations

import pytest
from sphinx.addnodes import pending_xref

from lazylib._book.api_links import Use, grouped, links_paragraph, resolve, used_names


def names(*cells: str) -> list[str]:
    return [use.name for use in used_names(cells)]


def test_from_import_with_and_without_alias():
    assert names("from lazylib.metrics import HVDM, make_metric as mm\nmm('x')") == [
        "lazylib.metrics.HVDM",
        "lazylib.metrics.make_metric",
    ]


def test_a_module_imported_with_an_alias_then_its_attributes():
    assert names("import lazylib.evaluation as ev\nev.stratified_kfold(y, 10)") == [
        "lazylib.evaluation",
        "lazylib.evaluation.stratified_kfold",
    ]


def test_a_submodule_from_its_package_then_its_attributes():
    code = "from lazylib.protocols.wilson1997 import protocol as ex\nruns = ex.run(data)\nex.mean_table(runs)"
    assert names(code) == [
        "lazylib.protocols.wilson1997.protocol",
        "lazylib.protocols.wilson1997.protocol.run",
        "lazylib.protocols.wilson1997.protocol.mean_table",
    ]
    assert resolve("lazylib.protocols.wilson1997.protocol") == Use(
        "lazylib.protocols.wilson1997.protocol", "lazylib.protocols.wilson1997.protocol", True
    )


def test_fully_qualified_names_after_a_plain_import():
    code = "import lazylib.report.verdicts\nlazylib.report.verdicts.judge(f, runs)\nlazylib.build_info()"
    assert names(code) == ["lazylib.report.verdicts", "lazylib.report.verdicts.judge", "lazylib.build_info"]


def test_star_import_binds_the_modules_public_names():
    assert names("from lazylib.report.verdicts import *\njudge(f, runs)") == [
        "lazylib.report.verdicts",
        "lazylib.report.verdicts.judge",
    ]


def test_an_attribute_chain_stops_at_the_first_name_that_is_not_a_module():
    code = "from lazylib.neighbors import KNeighborsClassifier\nKNeighborsClassifier.fit\nKNeighborsClassifier.predict"
    assert names(code) == ["lazylib.neighbors.KNeighborsClassifier"]
    assert names("import lazylib.report.verdicts as v\nv.VERDICTS.keys()") == [
        "lazylib.report.verdicts",
        "lazylib.report.verdicts.VERDICTS",
    ]


def test_private_names_are_skipped():
    code = "from lazylib.protocols.wilson1997 import protocol as ex\nex._private_helper()\n"
    code += "import lazylib\nlazylib.__version__"
    assert names(code) == ["lazylib.protocols.wilson1997.protocol", "lazylib"]
    assert names("from lazylib.metrics._engine import something") == []


def test_a_name_rebound_by_the_code_stops_counting():
    code = (
        "from lazylib.report import plotting\n"
        "plotting.PALETTE\n"
        "plotting = object()\n"
        "plotting.figure\n"  # not lazylib's any more
    )
    assert names(code) == ["lazylib.report.plotting", "lazylib.report.plotting.PALETTE"]
    # the value is read before the target is bound
    assert "lazylib.report.plotting.PALETTE" in names("from lazylib.report import plotting as p\np = p.PALETTE")
    for rebinding in (
        "for p in range(3): pass",
        "with open(f) as p: pass",
        "def p(): pass",
        "class p: pass",
        "from numpy import p",
        "import numpy as p",
    ):
        assert names(f"from lazylib.report import plotting as p\n{rebinding}\np.PALETTE") == [
            "lazylib.report.plotting"
        ], rebinding


def test_a_parameter_shadows_only_inside_its_function():
    code = (
        "from lazylib.report import plotting as p\n"
        "def f(p):\n    return p.PALETTE\n"
        "g = lambda p: p.PUBLISHED\n"
        "[p.NOT_COUNTED for p in range(2)]\n"
        "p.STYLE\n"
    )
    assert names(code) == ["lazylib.report.plotting", "lazylib.report.plotting.STYLE"]


def test_cells_are_read_in_order_and_first_use_orders_the_result():
    first = "from lazylib.report.verdicts import judge\nfrom lazylib import datasets"
    second = "datasets.load('iris')\njudge(f, r)\nfrom lazylib.report.verdicts import tiers\ntiers"
    assert names(first, second) == [
        "lazylib.report.verdicts.judge",
        "lazylib.datasets",
        "lazylib.datasets.load",
        "lazylib.report.verdicts.tiers",
    ]
    groups = grouped(used_names([first, second]))
    assert [(m.name, [u.name for u in members]) for m, members in groups] == [
        ("lazylib.report.verdicts", ["lazylib.report.verdicts.judge", "lazylib.report.verdicts.tiers"]),
        ("lazylib.datasets", ["lazylib.datasets.load"]),
    ]


def test_magics_are_allowed_and_code_that_is_not_python_names_its_cell():
    assert names("%matplotlib inline\n!ls\nfrom lazylib import synthetic") == ["lazylib.synthetic"]
    with pytest.raises(SyntaxError, match="code cell 2 is not Python"):
        used_names(["x = 1", "def (:"])


def test_other_libraries_and_relative_imports_are_not_counted():
    assert names("import numpy as np\nfrom sklearn.neighbors import KNeighborsClassifier\nfrom . import x") == []


def test_where_a_re_exported_name_is_defined_is_kept_and_a_missing_name_is_kept_as_written():
    assert resolve("lazylib.metrics.HVDM").canonical == "lazylib.metrics.heterogeneous.HVDM"
    assert resolve("lazylib.metrics.heterogeneous.HVDM").canonical is None
    missing = resolve("lazylib.protocols.wilson1997.protocol.no_such_name")
    assert missing == Use(
        "lazylib.protocols.wilson1997.protocol.no_such_name", "lazylib.protocols.wilson1997.protocol", False
    )
    with pytest.raises(ValueError, match="not a lazylib name"):
        resolve("numpy.mean")


def test_the_line_holds_one_cross_reference_per_module_and_name():
    line = links_paragraph(used_names(["from lazylib.metrics import HVDM\nfrom lazylib import datasets"]))
    refs = [(r["reftype"], r["reftarget"], r.astext(), r.get("lazylib_canonical")) for r in line.findall(pending_xref)]
    assert refs == [
        ("mod", "lazylib.metrics", "lazylib.metrics", None),
        ("obj", "lazylib.metrics.HVDM", "HVDM", "lazylib.metrics.heterogeneous.HVDM"),
        ("mod", "lazylib.datasets", "lazylib.datasets", None),
    ]
    assert all(r["refdomain"] == "py" and r["refwarn"] for r in line.findall(pending_xref))
    assert line.astext() == "lazylib on this page: lazylib.metrics (HVDM); lazylib.datasets."


def test_used_in_lists_each_modules_pages_in_the_books_order():
    from types import SimpleNamespace

    from lazylib._book.api_links import book_order, used_in

    env = SimpleNamespace(
        config=SimpleNamespace(root_doc="intro"),
        toctree_includes={"intro": ["p1/index", "p2/a", "appendix/api"], "p1/index": ["p1/b", "p1/a"]},
        lazylib_modules_used={
            "p2/a": ["lazylib.metrics"],
            "p1/a": ["lazylib.metrics", "lazylib.datasets"],
            "p1/b": ["lazylib.datasets"],
            "orphan": ["lazylib.metrics"],  # not in the book's tables of contents: not listed
        },
    )
    assert book_order(env) == ["intro", "p1/index", "p1/b", "p1/a", "p2/a", "appendix/api"]
    assert used_in(env) == {"lazylib.datasets": ["p1/b", "p1/a"], "lazylib.metrics": ["p1/a", "p2/a"]}
