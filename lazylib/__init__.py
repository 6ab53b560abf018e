"""lazylib: the nearest-neighbour ("lazy") learning library behind the Lazy Learning compendium.

Every distance function, weighting scheme and experiment protocol used by the book lives here;
the chapters only import it.

Sub-packages
------------
datasets    the vendored UCI files and their loader (:func:`lazylib.datasets.load`)
robustness  the input policy of every metric, found by probing it (the book's Robustness appendix)
scorecard   the replication scorecard: chapters register published numbers, ours, and verdicts
"""

__version__ = "0.1.0"

from lazylib._build_info import build_info, module_map  # noqa: E402

__all__ = ["__version__", "build_info", "module_map"]
