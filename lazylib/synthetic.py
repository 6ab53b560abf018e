"""The papers' synthetic data: LED display, Waveform, Güvenir's R_n, Payne & Edwards' two 2-D problems, and
irrelevant or redundant attributes appended to any data set.

Every generator takes ``random_state`` (an int, None or a ``numpy.random.Generator``) and returns
``(X, y)``: a DataFrame typed like :func:`lazylib.datasets.load`'s (nominal columns Categorical, linear ones
float64) and a categorical Series.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from lazylib._validation import Choice, Integer, Real, check, check_random_state, check_size

#: Aha's led-creator segment table (attributes a1..a7: top, upper-left, upper-right, middle, lower-left,
#: lower-right, bottom), one row per digit 0-9.
LED_SEGMENTS = np.array(
    [
        [1, 1, 1, 0, 1, 1, 1],
        [0, 0, 1, 0, 0, 1, 0],
        [1, 0, 1, 1, 1, 0, 1],
        [1, 0, 1, 1, 0, 1, 1],
        [0, 1, 1, 1, 0, 1, 0],
        [1, 1, 0, 1, 0, 1, 1],
        [1, 1, 0, 1, 1, 1, 1],
        [1, 0, 1, 0, 0, 1, 0],
        [1, 1, 1, 1, 1, 1, 1],
        [1, 1, 1, 1, 0, 1, 1],
    ]
)


def _check_frame(X) -> pd.DataFrame:
    if not isinstance(X, pd.DataFrame):
        raise ValueError(
            f"X must be a DataFrame (as lazylib.datasets.load or a generator gives), got {type(X).__name__}"
        )
    return X


def _fresh(names: list[str], taken) -> list[str]:
    """``names`` made distinct from the column names ``taken``: a clash gets the next free number (``irrelevant3``
    after ``irrelevant1``, ``irrelevant2``), so calling a generator twice appends new columns."""
    taken = {str(c) for c in taken}
    out = []
    for name in names:
        stem, number = name.rstrip("0123456789"), name[len(name.rstrip("0123456789")) :]
        candidate, k = name, int(number or 1)
        while candidate in taken:
            k += 1
            candidate = f"{stem}{k}" if number else f"{name}_{k}"
        taken.add(candidate)
        out.append(candidate)
    return out


def _binary_frame(bits: np.ndarray, names) -> pd.DataFrame:
    dtype = pd.CategoricalDtype(["0", "1"])
    return pd.DataFrame(
        {n: pd.Categorical.from_codes(bits[:, j].astype(int), dtype=dtype) for j, n in enumerate(names)}
    )


def _labels(codes: np.ndarray, classes) -> pd.Series:
    return pd.Series(pd.Categorical.from_codes(codes, dtype=pd.CategoricalDtype(list(classes))), name="class")


def led(n: int, *, noise: float = 0.10, n_irrelevant: int = 0, random_state=None):
    """LED display digits (Breiman et al. 1984; Aha's led-creator, as in Payne & Edwards 1998, section 4).

    The class is a digit drawn uniformly from 0-9; the seven segment attributes are the digit's segments, each
    inverted independently with probability ``noise``; ``n_irrelevant`` further binary attributes are uniform
    0/1, independent of the class and not noised (``n_irrelevant=17`` is LED-24).

    Parameters
    ----------
    random_state : int, Generator or None
        Seed or generator of the digits, the noise and the irrelevant attributes: an int seeds a fresh generator (the
        same draws at every call), a Generator is used as it is (its stream continues), None draws fresh entropy.

    Notes
    -----
    Aha's program draws noise as ``1 + random() % 100 <= percent``, so with a whole-number percentage our
    ``uniform() < noise`` has the same probability. The Bayes-optimal accuracy with 10% noise is 74%.

    References
    ----------
    Breiman, Friedman, Olshen & Stone (1984), pp. 43-49; Payne, T. R. and Edwards, P. (1998), section 4;
    Howe & Cardie, section 3.

    Examples
    --------
    >>> X, y = led(5, random_state=0)
    >>> X.shape, list(y.cat.categories)[:3]
    ((5, 7), ['0', '1', '2'])
    """
    n = check("n", n, Integer(low=1))
    n_irrelevant = check("n_irrelevant", n_irrelevant, Integer(low=0))
    noise = check("noise", noise, Real(low=0, high=1))
    check_size("led data", n * (8 + 7 + n_irrelevant), 8)
    rng = check_random_state(random_state)
    digits = rng.integers(0, 10, n)
    segments = LED_SEGMENTS[digits] ^ (rng.random((n, 7)) < noise)
    extra = rng.integers(0, 2, (n, n_irrelevant))
    names = [f"a{j + 1}" for j in range(7 + n_irrelevant)]
    return _binary_frame(np.hstack([segments, extra]), names), _labels(digits, [str(d) for d in range(10)])


def led_bayes_accuracy(noise: float = 0.10) -> float:
    """The Bayes-optimal accuracy on :func:`led` data: the best any classifier can reach, whatever its training set.

    With the ten digits equally likely and each of the seven segments inverted independently with probability
    ``noise``, the Bayes classifier labels a pattern with a digit whose segments are nearest to it (for
    ``noise < 0.5``), and its accuracy is ``sum over the 128 patterns of max_d P(pattern | d) / 10``. Irrelevant
    attributes (LED-24) are independent of the class and change nothing.

    Parameters
    ----------
    noise : float
        Probability that a segment is inverted, in [0, 1].

    Returns
    -------
    float
        The Bayes-optimal accuracy, a probability.

    References
    ----------
    Breiman, Friedman, Olshen & Stone (1984), pp. 43-49 (74 % at 10 % noise).

    Examples
    --------
    >>> round(led_bayes_accuracy(0.10), 4)
    0.74
    >>> led_bayes_accuracy(0.0)
    1.0
    """
    noise = check("noise", noise, Real(low=0, high=1))
    patterns = (np.arange(128)[:, None] >> np.arange(7)) & 1
    flips = (patterns[:, None, :] != LED_SEGMENTS[None, :, :]).sum(-1)  # (128 patterns, 10 digits)
    likelihood = noise**flips * (1 - noise) ** (7 - flips)
    return float(likelihood.max(axis=1).sum() / 10)


#: Bytes one category of a nominal attribute of :func:`add_irrelevant` takes at its peak (its string, the list
#: entry and pandas' index of the categories: 161 MB for a million, measured with tracemalloc).
CATEGORY_BYTES = 200

#: The three base waves of CART's waveform problem, positions m = 1..21 (peaks at 7, 15 and 11).
WAVES = {
    "A": np.maximum(6 - np.abs(np.arange(1, 22) - 7), 0).astype(float),
    "B": np.maximum(6 - np.abs(np.arange(1, 22) - 15), 0).astype(float),
    "C": np.maximum(6 - np.abs(np.arange(1, 22) - 11), 0).astype(float),
}
WAVE_PAIRS = (("A", "B"), ("A", "C"), ("B", "C"))


def waveform(n: int, *, n_noise: int = 0, random_state=None):
    """CART's waveform problem: 21 continuous attributes, 3 classes (Waveform-21; ``n_noise=19`` gives the
    40-attribute version with pure N(0, 1) noise attributes).

    Class ``k`` (uniform over 0, 1, 2) mixes the base waves of pair ``WAVE_PAIRS[k]``:
    ``x_m = u h_i(m) + (1 - u) h_j(m) + e_m`` with ``u ~ U(0, 1)`` once per instance and ``e_m ~ N(0, 1)``.

    Parameters
    ----------
    random_state : int, Generator or None
        Seed or generator of the instances: an int seeds a fresh generator (the same draws at every call), a Generator
        is used as it is (its stream continues), None draws fresh entropy.

    Notes
    -----
    The class numbering (which pair is class 0) is a naming choice; CART's own labels were not available.

    References
    ----------
    Breiman, Friedman, Olshen & Stone (1984), pp. 49-55; Howe & Cardie, section 3.

    Examples
    --------
    >>> X, y = waveform(4, n_noise=19, random_state=1)
    >>> X.shape
    (4, 40)
    """
    n = check("n", n, Integer(low=1))
    n_noise = check("n_noise", n_noise, Integer(low=0))
    check_size("waveform data", n * (21 * 3 + n_noise), 8)
    rng = check_random_state(random_state)
    cls = rng.integers(0, 3, n)
    u = rng.random(n)[:, None]
    first = np.array([WAVES[WAVE_PAIRS[k][0]] for k in cls])
    second = np.array([WAVES[WAVE_PAIRS[k][1]] for k in cls])
    X = u * first + (1 - u) * second + rng.normal(size=(n, 21))
    X = np.hstack([X, rng.normal(size=(n, n_noise))])
    frame = pd.DataFrame(X, columns=[f"x{j + 1}" for j in range(X.shape[1])])
    return frame, _labels(cls, ["0", "1", "2"])


def add_irrelevant(X: pd.DataFrame, n: int, *, kind: str = "binary", n_values: int = 2, random_state=None):
    """Append ``n`` attributes independent of the class: ``"binary"`` (uniform 0/1, nominal), ``"nominal"``
    (uniform over ``n_values`` symbols) or ``"uniform"`` (continuous U(0, 1)).

    Parameters
    ----------
    random_state : int, Generator or None
        Seed or generator of the added attributes: an int seeds a fresh generator (the same draws at every call), a
        Generator is used as it is (its stream continues), None draws fresh entropy.

    Examples
    --------
    >>> X, y = led(3, random_state=0)
    >>> add_irrelevant(X, 2, kind="uniform", random_state=0).shape
    (3, 9)
    """
    X = _check_frame(X)
    n = check("n", n, Integer(low=0))
    check("kind", kind, Choice(("binary", "nominal", "uniform")))
    n_values = check("n_values", n_values, Integer(low=2))
    check_size("the irrelevant attributes", len(X) * n, 8)
    if kind == "nominal":  # its categories are strings, built before any code is drawn
        check_size(f"the {n_values} categories of n_values", n_values, CATEGORY_BYTES, fix="ask for a smaller n_values")
    rng = check_random_state(random_state)
    rows = len(X)
    names = _fresh([f"irrelevant{j + 1}" for j in range(n)], X.columns)
    if kind == "uniform":
        extra = pd.DataFrame(rng.random((rows, n)), columns=names, index=X.index)
    elif kind in ("binary", "nominal"):
        k = 2 if kind == "binary" else n_values
        dtype = pd.CategoricalDtype([str(v) for v in range(k)])
        codes = rng.integers(0, k, (rows, n))
        extra = pd.DataFrame(
            {nm: pd.Categorical.from_codes(codes[:, j], dtype=dtype) for j, nm in enumerate(names)}, index=X.index
        )
    else:
        raise ValueError(f"kind must be 'binary', 'nominal' or 'uniform', got {kind!r}")
    return pd.concat([X, extra], axis=1)


def add_redundant(X: pd.DataFrame, n: int, *, delta: float = 0.05, random_state=None):
    """Append ``n`` redundant copies of X's linear attributes, cycling through copies ``x``, inversions
    ``1 - x`` and perturbed copies ``x (1 +/- rnd(delta))`` with ``rnd(delta)`` uniform in [0, delta) and a
    random sign (Payne & Edwards 2000, section 5).

    Parameters
    ----------
    random_state : int, Generator or None
        Seed or generator of the perturbations: an int seeds a fresh generator (the same draws at every call), a
        Generator is used as it is (its stream continues), None draws fresh entropy.

    Examples
    --------
    >>> X = pd.DataFrame({"a": [0.2, 0.4]})
    >>> add_redundant(X, 2, random_state=0)[["copy1_a", "inverted2_a"]].to_numpy().tolist()
    [[0.2, 0.8], [0.4, 0.6]]
    """
    X = _check_frame(X)
    n = check("n", n, Integer(low=0))
    delta = check("delta", delta, Real(low=0, high=1))
    check_size("the redundant attributes", len(X) * n, 8)
    rng = check_random_state(random_state)
    # bool columns are nominal (as lazylib.metrics.encode reads them), not linear
    linear = [
        c for c in X.columns if pd.api.types.is_numeric_dtype(X[c].dtype) and not pd.api.types.is_bool_dtype(X[c].dtype)
    ]
    if not linear:
        raise ValueError("add_redundant needs at least one linear (numeric, not bool) attribute to copy")
    out = {}
    names = _fresh(
        [f"{('copy', 'inverted', 'perturbed')[j % 3]}{j + 1}_{linear[(j // 3) % len(linear)]}" for j in range(n)],
        X.columns,
    )
    for j, name in zip(range(n), names):
        src = linear[(j // 3) % len(linear)]
        x = X[src].to_numpy(dtype=float, na_value=np.nan)
        kind = ("copy", "inverted", "perturbed")[j % 3]
        if kind == "copy":
            value = x.copy()
        elif kind == "inverted":
            value = 1.0 - x
        else:
            value = x * (1.0 + rng.choice([-1.0, 1.0], len(x)) * rng.uniform(0, delta, len(x)))
        out[name] = value
    return pd.concat([X, pd.DataFrame(out, index=X.index)], axis=1)


#: Readings of how R_n's cube is split into two regions of equal volume (:func:`r_n`).
R_N_SPLITS = ("oblique", "corner", "parity")


def r_n_region(X, split: str = "oblique") -> np.ndarray:
    """Region (0 or 1) of each point of the unit cube under one reading of R_n's split (see :func:`r_n`).

    Examples
    --------
    >>> r_n_region(np.array([[0.1, 0.2], [0.9, 0.8], [0.9, 0.2]]), "parity").tolist()
    [0, 0, 1]
    """
    split = check("split", split, Choice(R_N_SPLITS))
    X = np.asarray(X, dtype=np.float64)
    n = X.shape[1]
    if split == "oblique":
        return (X.sum(axis=1) >= n / 2).astype(np.intp)
    if split == "corner":
        return (X > 1.0 - 0.5 ** (1.0 / n)).all(axis=1).astype(np.intp)
    return ((X >= 0.5).sum(axis=1) % 2).astype(np.intp)


def r_n(n_relevant: int, *, n_per_region: int = 50, split: str = "oblique", random_state=None):
    """Güvenir's R_n (1998, section 3): ``n_relevant`` features in [0, 1], two classes, the cube split into two
    regions of equal volume with ``n_per_region`` uniform instances in each.

    Parameters
    ----------
    n_relevant : int
        Number of features, all relevant.
    n_per_region : int
        Instances drawn uniformly in each region (the paper: 50).
    split : {"oblique", "corner", "parity"}
        How the cube is split (the paper does not say; see Notes).
    random_state : int, Generator or None
        Seed or generator of the instances: an int seeds a fresh generator (the same draws at every call), a Generator
        is used as it is (its stream continues), None draws fresh entropy.

    Notes
    -----
    The paper does not say how the space is split. Every reading below halves the volume of the cube and makes
    every feature relevant; they differ in what a single feature tells about the class:

    - ``"oblique"`` (default): the hyperplane through the centre, ``sum_i x_i = n / 2``, whose two halves have
      equal volume by symmetry (for n = 1, at x = 0.5). Each feature alone separates the classes weakly.
    - ``"corner"``: class 1 is the corner cube ``x_i > t`` for every ``i``, with ``t = 1 - 2^(-1/n)`` so that it
      holds half the volume; a boundary along the axes, each feature alone informative.
    - ``"parity"``: class 1 where an odd number of features exceed 0.5 (a checkerboard, XOR for n = 2): no
      feature alone tells anything about the class.

    For n = 1 all three are the cut at x = 0.5. Instances are drawn uniformly in each region by rejection.

    Examples
    --------
    >>> X, y = r_n(2, random_state=0)
    >>> X.shape, y.value_counts().tolist()
    ((100, 2), [50, 50])
    """
    n_relevant = check("n_relevant", n_relevant, Integer(low=1))
    n_per_region = check("n_per_region", n_per_region, Integer(low=1))
    split = check("split", split, Choice(R_N_SPLITS))
    check_size("R_n data", 4 * n_per_region * n_relevant, 8)
    rng = check_random_state(random_state)
    parts, labels = [], []
    for cls in (0, 1):
        got = np.empty((0, n_relevant))
        while len(got) < n_per_region:
            cand = rng.random((4 * n_per_region, n_relevant))
            got = np.vstack([got, cand[r_n_region(cand, split) == cls]])
        parts.append(got[:n_per_region])
        labels += [cls] * n_per_region
    X = pd.DataFrame(np.vstack(parts), columns=[f"f{j + 1}" for j in range(n_relevant)])
    return X, _labels(np.array(labels), ["0", "1"])


def payne_separable(*, n: int = 100, margin: float = 0.0, boundary: str = "x1", random_state=None):
    """Payne & Edwards (2000, section 5), first problem: two attributes in [0, 1], two linearly separable
    halves (class by ``x1 < 0.5``), ``n / 2`` uniform instances in each.

    Parameters
    ----------
    n : int
        Number of instances (``n // 2`` in class 0).
    margin : float
        Width of an empty strip between the classes, centred on the boundary (0: the classes touch).
    boundary : {"x1", "diagonal"}
        ``"x1"``: class 0 where ``x1 < 0.5`` (only the first attribute carries the class); ``"diagonal"``: class 0
        where ``x1 + x2 < 1`` (both attributes do), drawn uniformly in each triangle minus the strip.
    random_state : int, Generator or None
        Seed or generator of the instances: an int seeds a fresh generator (the same draws at every call), a Generator
        is used as it is (its stream continues), None draws fresh entropy.

    Notes
    -----
    The paper gives no generator; halves split on the first attribute, touching, are our reading, and
    ``margin`` and ``boundary`` the alternatives its description leaves open.

    Examples
    --------
    >>> X, y = payne_separable(n=6, margin=0.2, random_state=0)
    >>> bool((X["x1"][y == "0"] < 0.4).all() and (X["x1"][y == "1"] > 0.6).all())
    True
    """
    n = check("n", n, Integer(low=2))
    margin = check("margin", margin, Real(low=0, high=0.5))
    check("boundary", boundary, Choice(("x1", "diagonal")))
    check_size("the data", 3 * n, 8)
    rng = check_random_state(random_state)
    half = n // 2
    if boundary == "x1":
        a = np.column_stack([rng.uniform(0.0, 0.5 - margin / 2, half), rng.random(half)])
        b = np.column_stack([rng.uniform(0.5 + margin / 2, 1.0, n - half), rng.random(n - half)])
    else:
        parts = []
        for side, size in [(-1.0, half), (1.0, n - half)]:
            kept = np.empty((0, 2))
            while len(kept) < size:  # rejection: uniform in the square, keep the class's side beyond the strip
                cand = rng.random((2 * size + 8, 2))
                signed = (cand.sum(axis=1) - 1.0) / np.sqrt(2.0)
                kept = np.vstack([kept, cand[side * signed > margin / 2]])
            parts.append(kept[:size])
        a, b = parts
    X = pd.DataFrame(np.vstack([a, b]), columns=["x1", "x2"])
    return X, _labels(np.repeat([0, 1], [half, n - half]), ["0", "1"])


def payne_inseparable(*, n: int = 100, margin: float = 0.0, random_state=None):
    """Payne & Edwards (2000, section 5), second problem: two attributes in [0, 1] split into four quadrants,
    two per class on the diagonals (an XOR), ``n / 4`` uniform instances in each (when ``n`` is not a multiple
    of 4, the first ``n % 4`` quadrants in the order (0, 0), (0.5, 0.5), (0, 0.5), (0.5, 0) get one more).

    Parameters
    ----------
    n : int
        Number of instances.
    margin : float
        Width of the empty strips between the quadrants, centred on ``x1 = 0.5`` and ``x2 = 0.5`` (0: the
        quadrants touch; the same draws as without the parameter).
    random_state : int, Generator or None
        Seed or generator of the instances: an int seeds a fresh generator (the same draws at every call), a Generator
        is used as it is (its stream continues), None draws fresh entropy.

    Notes
    -----
    The paper gives no generator; quadrants with diagonal classes are our reading of "four linearly
    inseparable partitions, two per class", touching (``margin`` is the alternative it leaves open).

    Examples
    --------
    >>> X, y = payne_inseparable(n=8, margin=0.2, random_state=0)
    >>> bool(((X - 0.5).abs() > 0.1).all().all())
    True
    """
    n = check("n", n, Integer(low=4))
    margin = check("margin", margin, Real(low=0, high=0.5))
    check_size("the data", 3 * n, 8)
    rng = check_random_state(random_state)
    sizes = [n // 4 + (i < n % 4) for i in range(4)]  # n not a multiple of 4: the first quadrants get one more
    parts, labels = [], []
    quadrants = (((0, 0), 0), ((0.5, 0.5), 0), ((0, 0.5), 1), ((0.5, 0), 1))

    def side(low, q):  # the half [0, 0.5) or [0.5, 1] less half the strip (margin 0: exactly the half)
        return rng.uniform(low + (margin / 2 if low else 0), low + 0.5 - (0 if low else margin / 2), q)

    for ((lx, ly), cls), q in zip(quadrants, sizes):
        parts.append(np.column_stack([side(lx, q), side(ly, q)]))
        labels += [cls] * q
    X = pd.DataFrame(np.vstack(parts), columns=["x1", "x2"])
    return X, _labels(np.array(labels), ["0", "1"])
