"""lazylib: the nearest-neighbour ("lazy") learning library behind the Lazy Learning compendium.

Every distance function, weighting scheme and experiment protocol used by the book lives here;
the chapters only import it.

Sub-packages:

- ``datasets``: the vendored UCI files and their loader (:func:`lazylib.datasets.load`);
- ``metrics``: every distance function and the engine they share;
- ``weighting``: learnt feature weights (WOM, mean difference weighting, information gain);
- ``protocols``: each paper's experiment protocol (what only one Part of the book runs);
- ``report``: reader tools: the fidelity band and verdict rules, the replication scorecard, tables, plots, the
  input-policy table.
"""

__version__ = "0.1.0"

from lazylib._build_info import build_info, module_map  # noqa: E402

__all__ = ["__version__", "build_info", "module_map"]
