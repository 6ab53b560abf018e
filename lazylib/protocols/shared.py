"""What two Parts' protocols share: a data set's fold seed, a data set made ready for a run, and the k range.

Part IV's protocol (:mod:`lazylib.protocols.wilson1997.protocol`) introduced :func:`dataset_seed` and
:func:`prepare`, and Part V's (:mod:`lazylib.protocols.howe_cardie.protocol`) the k range :data:`K_RANGE`; Part
VI's bench (:mod:`lazylib.protocols.bench.protocol`, :mod:`lazylib.protocols.bench.methods`) runs every data set
and method with them too, so they live here, where every protocol imports them from.
"""

from __future__ import annotations

import zlib

import numpy as np
import pandas as pd

from lazylib import datasets as _datasets
from lazylib._validation import Integer, check
from lazylib.labels import label_values

#: Odd k from 1 to 75 (Howe & Cardie's range, the bench's too): wide enough for the large k that Waveform's noise
#: attributes call for.
K_RANGE = tuple(range(1, 76, 2))


def dataset_seed(name: str, random_state: int) -> int:
    """The seed of data set ``name``'s folds: fixed by ``random_state`` and the name alone, so adding or
    removing other data sets never changes a data set's folds.

    Parameters
    ----------
    name : str
        The data set's name.
    random_state : int
        The experiment's seed (an int only: each data set's seed is derived from it and the data set's name
        by :func:`dataset_seed`, so it cannot be a Generator).

    Examples
    --------
    >>> dataset_seed("iris", 0) == dataset_seed("iris", 0) != dataset_seed("glass", 0)
    True
    """
    random_state = check("random_state", random_state, Integer(low=0))
    return int(np.random.SeedSequence([random_state, zlib.crc32(name.encode())]).generate_state(1)[0])


def prepare(name: str, data=None, *, max_instances: int | None = None, random_state: int = 0):
    """One data set ready for a run: ``(X, y, types, n_total)`` (:func:`lazylib.protocols.wilson1997.protocol.run`
    and the bench's runs read it).

    ``data`` is ``None`` (load the vendored data set ``name``), a :class:`lazylib.datasets.Dataset`, or a tuple
    ``(X, y)`` or ``(X, y, types)``. Rows without a class are dropped. With ``max_instances`` a larger data set
    is cut to a stratified random subset of that size (seeded by :func:`dataset_seed`); ``n_total`` is the size
    before the cut.

    Parameters
    ----------
    random_state : int
        The experiment's seed (an int only: each data set's seed is derived from it and the data set's name
        by :func:`dataset_seed`, so it cannot be a Generator).
    """
    if data is None:
        data = _datasets.load(name)
    if isinstance(data, _datasets.Dataset):
        X, y, types = data.X, data.y, dict(data.types)
    elif isinstance(data, tuple) and len(data) in (2, 3):
        X, y = data[0], data[1]
        types = data[2] if len(data) == 3 else None
    else:
        raise ValueError(
            f"data set {name!r}: expected None, a Dataset or a tuple (X, y[, types]), got {type(data).__name__}"
        )
    y = y if isinstance(y, pd.Series) else pd.Series(np.asarray(y, dtype=object))
    keep = np.flatnonzero(y.notna().to_numpy())
    n_total = len(keep)
    if max_instances is not None:
        max_instances = check("max_instances", max_instances, Integer(low=2))
        if n_total > max_instances:
            rng = np.random.default_rng(dataset_seed(name, random_state) + 1)
            # stratified: take the same fraction of every class (at least one of each)
            labels = label_values(y.iloc[keep])
            chosen = []
            for cls in sorted(set(labels), key=str):
                members = keep[labels == cls]
                size = max(1, int(round(len(members) * max_instances / n_total)))
                chosen.append(rng.choice(members, size=min(size, len(members)), replace=False))
            keep = np.sort(np.concatenate(chosen))
    X = X.iloc[keep].reset_index(drop=True) if isinstance(X, pd.DataFrame) else np.asarray(X)[keep]
    y = y.iloc[keep].reset_index(drop=True)
    if isinstance(y.dtype, pd.CategoricalDtype):
        y = y.cat.remove_unused_categories()
    return X, y, types, n_total
