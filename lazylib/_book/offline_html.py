"""Sphinx extension: the built book loads nothing from outside hosts.

* MathJax 3 is served from the book itself. Its files come from the ``sphinx-mathjax-offline`` package (MathJax
  3.2.2, installed with the ``book`` extra); this extension adds them to ``html_static_path``, so Sphinx copies
  them to ``_build/html/_static/mathjax`` and ``mathjax_path`` (``_config.yml``) points at
  ``mathjax/tex-chtml.js`` there. MathJax loads its fonts and extensions relative to that file.
* No whole-book figure numbers (see ``_no_figure_numbers``).
* Thebe (live code cells on a Binder server, which this book does not offer) is switched off: Jupyter Book always
  loads ``sphinx_thebe``, which writes the address of its script on a CDN into every page.

``tests/unit/test_book_html.py`` checks the built HTML against both rules.
"""

from __future__ import annotations

import importlib.metadata
from pathlib import Path

DISTRIBUTION = "sphinx-mathjax-offline"


def mathjax_static_dir() -> Path:
    """The folder holding ``mathjax/tex-chtml.js`` in the installed MathJax package."""
    try:
        dist = importlib.metadata.distribution(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        raise RuntimeError(f"MathJax is served from the {DISTRIBUTION} package: pip install -e '.[book]'") from None
    folder = Path(dist.locate_file("sphinx-mathjax-offline/static"))
    if not (folder / "mathjax" / "tex-chtml.js").is_file():
        raise RuntimeError(f"{DISTRIBUTION} has no mathjax/tex-chtml.js under {folder}")
    return folder


def _serve_mathjax(app, config):
    config.html_static_path.append(str(mathjax_static_dir()))


def _no_figure_numbers(app, config):
    # sphinx_jupyterbook_latex (loaded by Jupyter Book for every builder) sets numfig = True when the config is
    # read, whatever _config.yml says. Sphinx would then number figures through the whole book, and a
    # reproduction of a paper's Figure 2 could read "Fig. 7": the captions say which figure they reproduce.
    config.numfig = False


def setup(app):
    # Switch sphinx_thebe off by removing its event handlers (it is loaded before this extension).
    for listeners in app.events.listeners.values():
        listeners[:] = [lst for lst in listeners if not lst.handler.__module__.startswith("sphinx_thebe")]
    app.registry.css_files[:] = [(name, attrs) for name, attrs in app.registry.css_files if name != "sphinx-thebe.css"]
    app.connect("config-inited", _serve_mathjax)
    app.connect("config-inited", _no_figure_numbers, priority=900)  # after sphinx_jupyterbook_latex's handler
    return {"parallel_read_safe": True, "parallel_write_safe": True}
