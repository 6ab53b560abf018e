"""One figure style for the whole book, and the few plots the chapters share."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

#: Colours by role: published numbers are drawn grey, ours in colour.
PUBLISHED = "#8c8c8c"
#: Colours of our series, in the order a figure draws them.
PALETTE = ["#1b6ca8", "#d1495b", "#edae49", "#00798c", "#66a182", "#30638e", "#8d5a97"]

STYLE = {
    "figure.dpi": 110,
    "figure.figsize": (7.0, 3.2),
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.prop_cycle": plt.cycler(color=PALETTE),
    "font.size": 9,
    "legend.frameon": False,
}


def use_style() -> None:
    """Apply the book's matplotlib style (call once, in a chapter's first cell)."""
    plt.rcParams.update(STYLE)


def class_distribution_bars(probabilities: pd.DataFrame, *, title: str = "", axes=None):
    """One bar chart per row of ``probabilities`` (values x classes), as the top of Payne & Edwards' Figure 1.

    Returns the figure.
    """
    if not isinstance(probabilities, pd.DataFrame):
        raise ValueError(f"probabilities must be a DataFrame (values x classes), got {type(probabilities).__name__}")
    n = len(probabilities)
    if n == 0 or probabilities.shape[1] == 0:
        raise ValueError(f"probabilities has no rows to plot (shape {probabilities.shape})")
    if axes is None:
        fig, axes = plt.subplots(1, n, sharey=True, figsize=(2.2 * n, 2.2))
    else:
        if len(np.atleast_1d(axes)) != n:
            raise ValueError(f"probabilities has {n} rows but {len(np.atleast_1d(axes))} axes were given")
        fig = np.atleast_1d(axes)[0].figure
    for ax, (value, row) in zip(np.atleast_1d(axes), probabilities.iterrows()):
        ax.bar(range(len(row)), row.to_numpy(), color=PALETTE[: len(row)])
        ax.set_xticks(range(len(row)), list(row.index))
        ax.set_title(f"{title}{value}")
        ax.set_ylim(0, 1)
    return fig


def difference_bars(p: pd.Series, q: pd.Series, *, ax, label: str = "") -> None:
    """Per-class differences ``p - q`` of two class distributions (bottom of Payne & Edwards' Figure 1)."""
    if not (isinstance(p, pd.Series) and isinstance(q, pd.Series)) or not p.index.equals(q.index):
        raise ValueError(
            "p and q must be Series over the same classes in the same order, got "
            f"{list(getattr(p, 'index', []))} and {list(getattr(q, 'index', []))}"
        )
    diff = (p - q).to_numpy()
    ax.bar(range(len(diff)), diff, color=PALETTE[: len(diff)])
    ax.axhline(0, color="black", lw=0.8)
    ax.set_xticks(range(len(diff)), list(p.index))
    ax.set_ylim(-1, 1)
    ax.set_title(label)
