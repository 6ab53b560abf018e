"""The experiment protocol of Payne & Edwards (2000), Part II of the book: cross-validated sweeps of CA and CACP
over the number of components :math:`K`, the paper's rule for choosing :math:`K`, 1-NN on chosen attributes, and
the MC and FNN selections run fold by fold.

The estimators themselves are reusable and live elsewhere (:class:`lazylib.subspace.SubspaceMapping`,
:class:`lazylib.selection.MonteCarloSelector`, :class:`lazylib.trees.C45Classifier`); this module holds what only
Part II runs: the per-fold normalisation readings (:func:`scale_fold`), the sweep over every :math:`K` in one
nearest-neighbour pass per fold (:func:`cv_sweep`), the paper's choice of :math:`K` (:func:`paper_rule`) and the
selections' cross-validation (:func:`cv_selection`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from lazylib._validation import Choice, check, check_random_state
from lazylib.evaluation import check_folds
from lazylib.labels import encode_labels
from lazylib.parallel import parallel_map
from lazylib.report.bands import PERCENT, reading_note
from lazylib.selection import MonteCarloSelector, c45_attributes
from lazylib.subspace import SubspaceMapping, accuracy_by_width, nn_accuracy, numeric_matrix

#: Readings of the attribute normalisation the paper does not state (see :func:`scale_fold`).
SCALINGS = ("none", "range", "sd")
#: The eleven UCI data sets of Table 1: the paper's short name -> the name :func:`lazylib.datasets.load` knows.
DATASETS = {
    "bupa": "liver-disorders",
    "ionosp": "ionosphere",
    "pima": "pima-indians-diabetes",
    "sonar": "sonar",
    "wiscon": "breast-cancer-wisconsin",
    "wdbc": "wdbc",
    "wpbc": "wpbc",
    "balance": "balance-scale",
    "glass": "glass",
    "iris": "iris",
    "wine": "wine",
}
#: Completions of CACP's basis beyond its rank that :func:`fold_sweep` knows: the mapping's own
#: (:data:`lazylib.subspace.NULL_SPACES`) and ``"prefix"`` (:func:`prefix_completion`).
COMPLETIONS = ("svd", "ca", "none", "prefix")


def text_ordered_labels(y, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Class codes in the order of the labels' text (:func:`lazylib.labels.encode_labels`, then reordered): the
    class order this chapter's numbers were computed with. It decides the vote's last resort between equally
    frequent classes and the row order of CACP's prototypes, whose completion beyond their rank depends on it."""
    codes, classes = encode_labels(y, n)
    order = np.argsort([str(c) for c in classes.tolist()], kind="stable")
    return np.argsort(order)[codes], classes[order]


def scale_fold(train, test=None, scaling: str = "none"):
    """Impute and normalise a fold with statistics of its training part only.

    Missing values (NaN) are replaced by the training mean of their attribute. Then ``"range"`` maps each
    attribute to ``(x - min) / (max - min)`` and ``"sd"`` to ``(x - mean) / sd`` (training min, max, mean,
    population sd); an attribute constant in training becomes 0. ``"none"`` leaves the values as they are.

    Returns
    -------
    (train, test) as float arrays (``test`` is None when not given).

    Examples
    --------
    >>> tr, te = scale_fold([[0.0, 1.0], [2.0, np.nan]], [[1.0, 3.0]], "range")
    >>> tr.tolist(), te.tolist()
    ([[0.0, 0.0], [1.0, 0.0]], [[0.5, 0.0]])
    """
    check("scaling", scaling, Choice(SCALINGS))
    train = numeric_matrix(train).copy()
    test = None if test is None else numeric_matrix(test).copy()
    with np.errstate(all="ignore"):
        mean = np.nanmean(train, axis=0) if np.isnan(train).any() else train.mean(axis=0)
    mean = np.where(np.isnan(mean), 0.0, mean)  # an all-missing column
    for M in (train, test):
        if M is not None and np.isnan(M).any():
            rows, cols = np.nonzero(np.isnan(M))
            M[rows, cols] = mean[cols]
    if scaling == "none":
        return train, test
    if scaling == "range":
        shift, spread = train.min(axis=0), np.ptp(train, axis=0)
    else:
        shift, spread = train.mean(axis=0), train.std(axis=0)
    inv = np.divide(1.0, spread, out=np.zeros_like(spread), where=spread > 0)
    return (train - shift) * inv, None if test is None else (test - shift) * inv


def paper_rule(accuracy_by_k: pd.Series) -> tuple[int, float]:
    """The paper's choice of K (section 5): the highest accuracy, then the fewest dimensions.

    Examples
    --------
    >>> paper_rule(pd.Series([0.8, 0.9, 0.9], index=[1, 2, 3]))
    (2, 0.9)
    """
    acc = accuracy_by_k.dropna()
    best = acc.max()
    k = int(acc.index[acc.to_numpy() >= best][0])
    return k, float(acc.loc[k])


def prefix_completion(leading: np.ndarray) -> np.ndarray:
    """Complete ``r`` orthonormal columns to a basis with the attributes ``r + 1, ..., J`` in file order.

    The basis is the QR (Gram-Schmidt) orthonormalisation of ``[leading, e_{r+1}, ..., e_J]``: its first ``r``
    columns span the ``leading`` ones and column ``k > r`` is attribute ``k`` made orthogonal to the columns
    before it. This is the "keep a prefix of the attributes" reading of CACP beyond its rank: it makes explicit
    what LAPACK's null-space completion nearly is (:func:`completion_loadings`).

    Parameters
    ----------
    leading : ndarray (J, r)
        Orthonormal columns (the decomposition's basis up to its rank).

    Returns
    -------
    ndarray (J, J)
        Orthonormal columns; the first ``r`` span those of ``leading`` (up to sign).

    Examples
    --------
    >>> v = np.array([[0.6], [0.8], [0.0]])
    >>> (prefix_completion(v).round(2) + 0.0).tolist()
    [[0.6, -0.8, 0.0], [0.8, 0.6, 0.0], [0.0, 0.0, 1.0]]
    """
    leading = np.asarray(leading, dtype=float)
    J, r = leading.shape
    if r > J:
        raise ValueError(f"{r} leading columns for {J} attributes")
    Q, R = np.linalg.qr(np.hstack([leading, np.eye(J)[:, r:]]))
    return Q * np.where(np.diag(R) < 0, -1.0, 1.0)  # the sign of each column as Gram-Schmidt gives it


def completion_loadings(mapping: SubspaceMapping, columns=None) -> pd.DataFrame:
    """What a fitted mapping's columns beyond its rank are: for each, the attribute it loads on most.

    Parameters
    ----------
    mapping : SubspaceMapping
        A fitted mapping (CACP, or CA with fewer instances than attributes).
    columns : sequence of str, optional
        Attribute names (default ``x1 ... xJ``).

    Returns
    -------
    DataFrame
        One row per basis column ``K = rank + 1 ... J``: ``attribute`` (the largest absolute loading),
        ``loading`` (its absolute value), ``same position`` (whether it is attribute number ``K`` in file
        order), and ``rest`` (the norm of the column's other loadings).

    Examples
    --------
    A two-class CACP mapping has rank one: the other five columns are the completion (which attribute each
    loads on most depends on the SVD routine, see the chapter on the mapping).

    >>> rng = np.random.default_rng(0)
    >>> X, y = rng.normal(size=(40, 6)), np.repeat([0, 1], 20)
    >>> table = completion_loadings(SubspaceMapping("cacp").fit(X, y))
    >>> table.index.tolist(), table.columns.tolist()
    ([2, 3, 4, 5, 6], ['attribute', 'loading', 'same position', 'rest'])
    """
    if not hasattr(mapping, "basis_"):
        raise ValueError("completion_loadings needs a fitted SubspaceMapping")
    B = mapping.basis_
    J = B.shape[0]
    names = [f"x{j + 1}" for j in range(J)] if columns is None else [str(c) for c in columns]
    if len(names) != J:
        raise ValueError(f"{len(names)} column names for {J} attributes")
    rows = {}
    for k in range(mapping.rank_, B.shape[1]):
        col = np.abs(B[:, k])
        top = int(col.argmax())
        rows[k + 1] = {
            "attribute": names[top],
            "loading": float(col[top]),
            "same position": top == k,
            "rest": float(np.sqrt(max(0.0, 1.0 - col[top] ** 2))),
        }
    out = pd.DataFrame(rows).T
    out.index.name = "K"
    return out.astype({"loading": float, "same position": bool, "rest": float})


def fold_sweep(
    train,
    y_train,
    test,
    y_test,
    *,
    method: str = "ca",
    null_space: str = "svd",
    n_classes: int | None = None,
    nested: bool = True,
    ties: str = "all",
) -> dict:
    """One fold of the K sweep on prepared (imputed, scaled) matrices with class-index labels.

    Returns
    -------
    dict with ``test`` (test accuracy for K = 1..J_avail), and when ``nested`` also ``loo`` (leave-one-out
    accuracy of the same K on the training part, from the same mapping).
    """
    check("null_space", null_space, Choice(COMPLETIONS))
    mapping = SubspaceMapping(method, null_space="svd" if null_space == "prefix" else null_space)
    mapping.fit(train, y_train)
    if null_space == "prefix":
        basis = prefix_completion(mapping.basis_[:, : mapping.rank_])
        Z_train, Z_test = (train - mapping.centroid_) @ basis, (test - mapping.centroid_) @ basis
    else:
        Z_train, Z_test = mapping.transform(train), mapping.transform(test)
    out = {
        "test": accuracy_by_width(Z_train, y_train, Z_test, y_test, n_classes=n_classes, ties=ties),
        "rank": mapping.rank_,
    }
    if nested:
        out["loo"] = accuracy_by_width(Z_train, y_train, n_classes=n_classes, ties=ties)
    return out


def cv_sweep(
    X,
    y,
    folds,
    *,
    method: str = "ca",
    scaling: str = "none",
    null_space: str = "svd",
    nested: bool = True,
    ties: str = "all",
    n_jobs: int | None = None,
) -> dict:
    """Cross-validated 1-NN accuracy of CA or CACP for every K, the paper's choice of K, and a nested choice.

    Parameters
    ----------
    X : DataFrame or array of numeric attributes (NaN = missing)
    y : labels
    folds : list of (train, test) index arrays
    method : see :class:`SubspaceMapping`
    null_space : {"svd", "ca", "none", "prefix"}
        How CACP's basis continues beyond its rank: :class:`SubspaceMapping`'s readings, or ``"prefix"``
        (:func:`prefix_completion`, the attributes in file order).
    scaling : see :func:`scale_fold` (imputation and normalisation from each training part)
    ties : see :func:`correct_by_width`
    nested : bool
        Also choose K inside each training part by leave-one-out 1-NN accuracy (highest, then fewest), and
        score the test part with that K: an honest estimate, free of the optimism of choosing K on the test
        folds as the paper does.

    Returns
    -------
    dict with ``by_k`` (DataFrame fold x K of test accuracies, fractions), ``k`` and ``accuracy`` (the
    paper's rule applied to the mean over folds), ``fold_accuracy`` (the folds' accuracies at that K), and when
    ``nested``: ``nested_k`` and ``nested_accuracy`` (Series over folds).

    Examples
    --------
    >>> from lazylib import datasets, evaluation
    >>> iris = datasets.load("iris")
    >>> folds = evaluation.stratified_kfold(iris.y, 5, random_state=0)
    >>> res = cv_sweep(iris.X, iris.y, folds, method="ca")
    >>> res["by_k"].shape, res["k"]
    ((5, 4), 3)
    """
    X = numeric_matrix(X)
    codes, classes = text_ordered_labels(y, len(X))
    C = len(classes)
    folds = check_folds(folds, len(X))

    def one(f):
        train, test = folds[f]
        tr, te = scale_fold(X[train], X[test], scaling)
        return fold_sweep(
            tr,
            codes[train],
            te,
            codes[test],
            method=method,
            null_space=null_space,
            n_classes=C,
            nested=nested,
            ties=ties,
        )

    results = parallel_map(one, range(len(folds)), n_jobs=n_jobs, label=method)
    width = max(len(r["test"]) for r in results)
    by_k = pd.DataFrame(
        [np.pad(r["test"], (0, width - len(r["test"])), constant_values=np.nan) for r in results],
        columns=pd.RangeIndex(1, width + 1, name="K"),
    )
    by_k.index.name = "fold"
    k, acc = paper_rule(by_k.mean(axis=0))
    out = {
        "by_k": by_k,
        "k": k,
        "accuracy": acc,
        "fold_accuracy": by_k[k],
        "rank": pd.Series([r["rank"] for r in results]),
    }
    if nested:
        ks = [paper_rule(pd.Series(r["loo"], index=range(1, len(r["loo"]) + 1)))[0] for r in results]
        out["nested_k"] = pd.Series(ks, name="K")
        out["nested_accuracy"] = pd.Series([by_k.loc[f, k_f] for f, k_f in enumerate(ks)], name="accuracy")
    return out


def cv_nn(X, y, folds, *, scaling: str = "none", attributes=None, ties: str = "all") -> pd.Series:
    """Cross-validated Euclidean 1-NN accuracy per fold (the paper's NN), optionally on a subset of attributes
    per fold (``attributes[f]`` a boolean mask or index list, as MC and FNN produce)."""
    X = numeric_matrix(X)
    codes, classes = text_ordered_labels(y, len(X))
    acc = []
    for f, (train, test) in enumerate(check_folds(folds, len(X))):
        tr, te = scale_fold(X[train], X[test], scaling)
        if attributes is not None:
            cols = np.asarray(attributes[f])
            cols = np.flatnonzero(cols) if cols.dtype == bool else cols.astype(np.intp)
            tr, te = tr[:, cols], te[:, cols]
            if not len(cols):  # nothing selected: every stored instance is tied, the vote rule decides
                tr, te = np.zeros((len(tr), 1)), np.zeros((len(te), 1))
        acc.append(nn_accuracy(tr, codes[train], te, codes[test], n_classes=len(classes), ties=ties))
    return pd.Series(acc, name="accuracy")


def sample_accuracies(X, y, folds, *, ties: str = "random", ranks: bool = False) -> dict:
    """One sample of the section-5 experiments: NN's, CA's and CACP's cross-validated accuracy (%) and the
    number of dimensions K each chose by the paper's rule (:func:`cv_sweep`, K on the test folds).

    Parameters
    ----------
    X : DataFrame
        The sample's attributes (numeric).
    y : array-like
        Its classes.
    folds : list of (train, test) pairs
        The sample's folds.
    ties : {"random", "all", "first"}, default "random"
        The 1-NN tie rule (:mod:`lazylib.neighbors`).
    ranks : bool, default False
        Also return each method's mean rank of its mapping over the folds (``"CA rank"``, ``"CACP rank"``).

    Returns
    -------
    dict
        ``NN``, ``CA``, ``CA K``, ``CACP``, ``CACP K`` (and the ranks).

    References
    ----------
    Payne, T. R. and Edwards, P. (2000), section 5 (irrelevant and redundant attributes, fifteen samples).

    Examples
    --------
    >>> from lazylib import evaluation, synthetic
    >>> X, y = synthetic.payne_separable(n=40, random_state=0)
    >>> out = sample_accuracies(X, y, evaluation.kfold(40, 5, random_state=0))
    >>> sorted(out)
    ['CA', 'CA K', 'CACP', 'CACP K', 'NN']
    """
    out = {"NN": 100 * cv_nn(X, y, folds, ties=ties).mean()}
    for method in ("CA", "CACP"):
        res = cv_sweep(X, y, folds, method=method.lower(), nested=False, ties=ties)
        out[method], out[f"{method} K"] = 100 * res["accuracy"], res["k"]
        if ranks:
            out[f"{method} rank"] = float(res["rank"].mean())
    return out


def cv_selection(
    X: pd.DataFrame,
    y,
    folds,
    *,
    method: str = "mc",
    scaling: str = "none",
    types=None,
    n_subsets: int = 100,
    random_state=None,
    ties: str = "all",
) -> dict:
    """Cross-validated 1-NN accuracy after MC or FNN attribute selection on each training part.

    Parameters
    ----------
    random_state : int, Generator or None
        Seed or generator of each fold's MC seed: an int seeds a fresh generator (the same draws at every call), a
        Generator is used as it is (its stream continues), None draws fresh entropy.

    Returns
    -------
    dict with ``fold_accuracy`` (Series over folds, fractions), ``n_attributes`` (Series over folds) and
    ``masks`` (list of boolean masks, one per fold).
    """
    if method not in ("mc", "fnn"):
        raise ValueError(f"method must be 'mc' or 'fnn', got {method!r}")
    Xn = numeric_matrix(X)
    codes, _ = text_ordered_labels(y, len(Xn))
    folds = check_folds(folds, len(Xn))
    seeds = check_random_state(random_state).integers(0, 2**32 - 1, len(folds))
    masks = []
    for f, (train, _) in enumerate(folds):
        if method == "mc":
            tr, _ = scale_fold(Xn[train], None, scaling)
            masks.append(MonteCarloSelector(n_subsets, int(seeds[f]), ties).fit(tr, codes[train]).support_)
        else:
            y_train = y.iloc[train] if isinstance(y, pd.Series) else np.asarray(y)[train]
            # the program's absolute value tolerance, as the paper's C4.5
            masks.append(c45_attributes(X.iloc[train], y_train, types=types, relative_tolerance=False))
    acc = cv_nn(Xn, codes, folds, scaling=scaling, attributes=masks, ties=ties)
    return {"fold_accuracy": acc, "n_attributes": pd.Series([int(m.sum()) for m in masks]), "masks": masks}


#: The note of an outside Table 2 accuracy of a learner other than NN for which no hypothesis was tested.
UNTESTED_NOTE = (
    "unexplained; readings computed for the NN column only (normalisation none / range / sd, ties all / "
    "first / random), first fold seed",
    "untested",
)


def table2_note(
    dataset: str,
    method: str,
    *,
    tested: dict,
    readings: pd.DataFrame,
    published: float | None = None,
    other: dict | None = None,
) -> tuple[str, str]:
    """The note of a Table 2 accuracy outside its band, and its type
    (:data:`lazylib.report.verdicts.NOTE_KINDS`).

    Parameters
    ----------
    dataset, method : str
        The cell (the paper's short data set name, the learner).
    tested : dict
        (dataset, method) -> (note, type) for the cells whose hypotheses the chapter tested.
    readings : DataFrame
        The NN column's accuracies (%) under every reading: (scaling, ties) rows, one column per data set.
    published : float, optional
        The paper's accuracy (%): needed with ``other``.
    other : dict, optional
        The cell's other readings, reading name -> accuracy (%) per fold seed (:func:`table2_readings`), for a
        learner other than NN without a tested hypothesis: typed by :func:`lazylib.report.bands.reading_note`.

    Returns
    -------
    tuple of str
        The hypotheses tested for this cell if any; for NN the readings of the NN column ("tested": none puts
        it inside); else the cell's ``other`` readings ("explained" when one's band holds the published value,
        otherwise "tested"); otherwise :data:`UNTESTED_NOTE`.

    Examples
    --------
    >>> readings = pd.DataFrame({"iris": [95.0, 96.0]}, index=pd.MultiIndex.from_tuples([("sd", "all"),
    ...                                                                                  ("range", "first")]))
    >>> table2_note("iris", "NN", tested={}, readings=readings)
    ('unexplained; readings computed (NN, first fold seed; scaling/ties): sd/all 95.00, range/first 96.00', 'tested')
    >>> table2_note("iris", "MC", tested={("iris", "MC"): ("petal only: 98.0", "tested")}, readings=readings)
    ('petal only: 98.0', 'tested')
    >>> table2_note("iris", "CA", tested={}, readings=readings)[1]
    'untested'
    >>> table2_note("iris", "CA", tested={}, readings=readings, published=96.0, other={"nested": [90.1, 90.3, 89.9]})
    ('unexplained; readings computed, none holds it: nested 90.10', 'tested')
    """
    if (dataset, method) in tested:
        return tested[dataset, method]
    if method == "NN":
        listed = ", ".join(f"{sc}/{ti} {v:.2f}" for (sc, ti), v in readings[dataset].items())
        return f"unexplained; readings computed (NN, first fold seed; scaling/ties): {listed}", "tested"
    if other:
        if published is None:
            raise ValueError("table2_note: give the published value with the other readings")
        note, kind = reading_note(published, other, digits=2, bounds=PERCENT)
        return (note if kind == "explained" else f"unexplained; {note}"), kind
    return UNTESTED_NOTE


#: The words of the note of a Table 2 number of dimensions outside its band.
DIMENSIONS_WORDS = (
    "the number kept is the result of a search on noisy accuracies (MC: random subsets; CA, CACP: the best K on "
    "the test folds)"
)


def dimensions_note(published: float, readings: dict, *, digits: int) -> tuple[str, str]:
    """The note of a Table 2 number of dimensions kept outside its band, and its type: :data:`DIMENSIONS_WORDS`
    and the dimensions kept under the cell's other readings (:func:`table2_readings`), typed by
    :func:`lazylib.report.bands.reading_note`; "untested" when no other reading was computed.

    Parameters
    ----------
    published : float
        The paper's number of dimensions.
    readings : dict
        Reading name -> the dimensions kept per fold seed under it.
    digits : int
        The decimals the paper prints.

    Returns
    -------
    tuple of str
        The note and its type.

    Examples
    --------
    >>> dimensions_note(3.0, {"nested K": [2.9, 3.1, 3.0, 2.8, 3.2]}, digits=0)[1]
    'explained'
    >>> dimensions_note(3.0, {}, digits=0)[1]
    'untested'
    """
    if not readings:
        return f"{DIMENSIONS_WORDS}; no other reading computed", "untested"
    return reading_note(published, readings, digits=digits, words=DIMENSIONS_WORDS)


def table2_readings(results: dict, seeds, dataset: str, method: str, *, dimensions: bool = False) -> dict:
    """The other readings of a Table 2 cell that the chapter's runs already hold, one value per fold seed: for CA
    and CACP, K chosen by leave-one-out inside each training part (the nested choice of :func:`cv_sweep`); for
    CACP, K capped at C - 1 (no null-space completion).

    Parameters
    ----------
    results : dict
        (dataset, seed) -> the runs of one task: per learner :func:`cv_sweep`'s output (``"CA"``, ``"CACP"`` with
        ``nested=True``, ``"CACP, K <= C-1"``).
    seeds : iterable of int
        The fold seeds.
    dataset, method : str
        The cell.
    dimensions : bool, default False
        The dimensions kept (K) instead of the accuracy (%).

    Returns
    -------
    dict
        Reading name -> one value per seed; empty for MC, FNN and NN.

    Examples
    --------
    >>> r = {"CA": {"nested_accuracy": pd.Series([0.5, 0.75]), "nested_k": pd.Series([2, 3])}}
    >>> table2_readings({("iris", 0): r}, [0], "iris", "CA")
    {'K chosen inside each training part': [62.5]}
    >>> table2_readings({("iris", 0): r}, [0], "iris", "CA", dimensions=True)
    {'K chosen inside each training part': [2.5]}
    """
    out = {}
    if method in ("CA", "CACP"):
        nested = [results[dataset, s][method] for s in seeds]
        out["K chosen inside each training part"] = [
            float(r["nested_k"].mean()) if dimensions else 100 * float(r["nested_accuracy"].mean()) for r in nested
        ]
    if method == "CACP":
        capped = [results[dataset, s]["CACP, K <= C-1"] for s in seeds]
        out["K capped at C - 1"] = [float(r["k"]) if dimensions else 100 * float(r["accuracy"]) for r in capped]
    return out
