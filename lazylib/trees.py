"""C4.5 decision trees (Quinlan 1993), with release 8's treatment of continuous attributes (Quinlan 1996).

A tree is grown by divide and conquer: at every node each attribute proposes one test (a branch per value of a
nominal attribute, a binary threshold on a continuous one), the test with the highest *gain ratio* among those
whose information gain reaches the average gain of all proposed tests is installed, and the cases are
partitioned among its branches. Cases whose tested value is unknown go down every branch with a fraction of
their weight. The grown tree is then pruned bottom-up by comparing pessimistic (upper confidence limit) error
estimates of each subtree, of a leaf, and of the subtree's largest branch.

The measures, the node and the builder that grows and prunes the tree are in :mod:`lazylib.c45_builder`; this
module holds the estimator and :func:`candidate_splits`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted

from lazylib._docs import fill_doc
from lazylib._validation import Boolean, Choice, Real, validate_params
from lazylib.c45_builder import (
    EPSILON,
    UPPER_LIMITS,
    C45Builder,
    C45Node,
)
from lazylib.encoding import NOMINAL, Encoded, fit_input, query_input
from lazylib.labels import encode_labels
from lazylib.metrics import WORKING_MEMORY


@fill_doc
class C45Classifier(ClassifierMixin, BaseEstimator):
    """C4.5 decision tree (Quinlan 1993, release 8 for continuous attributes): the test of highest gain ratio
    ``GainRatio(X) = Gain(X) / SplitInfo(X)`` among tests of at least average gain, then error-based pruning.

    Parameters
    ----------
    min_cases : float
        C4.5's ``-m``: a test is only considered if at least two of its branches receive this many (weighted)
        known cases; a node with fewer than ``2 min_cases`` cases is a leaf.
    confidence : float
        The confidence factor ``CF`` of the pessimistic error estimate (C4.5's ``-c``, 0.25 by default).
    pruning : bool
        Prune the grown tree (error-based pruning, section 4.2 of Quinlan 1993).
    subtree_raising : bool
        While pruning, also consider replacing a subtree by its largest branch (release 8).
    upper_limit : {"c45", "normal", "exact"}
        How the upper confidence limit of the error rate is computed: the approximation of the C4.5 program,
        the same with the exact normal quantile (as Weka's J48), or the exact binomial limit (see
        :func:`extra_errors`).
    mdl_correction : bool
        Subtract ``log2(T) / |D|`` from the gain of a continuous attribute's best threshold, ``T`` the number
        of admissible thresholds, ``|D|`` the weight of the cases at the node (Quinlan 1996).
    release8_min_split : bool
        Release 8's minimum size of each side of a threshold: ``0.1 K / C`` (``K`` the known weight at the
        node, ``C`` the number of classes), raised to ``min_cases`` if below it, else capped at 25. With
        ``False`` it is ``min_cases``.
    value_tolerance : float
        Two values of a continuous attribute closer than this times ``min(1, range)`` (its training range) are
        not separated by a cut (1e-5 as in Weka's J48, a port of release 8, which applies it absolutely; 0
        separates any two distinct values).
    relative_tolerance : bool
        True: the tolerance is scaled by ``min(1, range)``, so rescaled data grow the same tree. False: the
        program's absolute tolerance (release 8 and J48), which merges values of attributes of small range
        (wdbc, wpbc and glass hold such values 1e-5 apart); Part II's FNN filter uses it, as the paper's C4.5 did.
    working_memory : float
        Bound, in MiB, on the temporaries of the search for the best cut at a node (as for the metrics,
        :data:`lazylib.metrics.WORKING_MEMORY` by default): the class weights of the cases sorted by each
        continuous attribute, cumulated, ``48`` bytes a case, attribute and class
        (:data:`lazylib.c45_builder.BYTES_PER_CELL`), are built for a block of attributes, and of cases, at a
        time, so 250 classes or 100,000 cases cost one block, not ``n x k x C`` floats. Beside them the tree
        holds the encoded data (``n x m``), a node's cut table (``n x k``) and its nominal counts (values x
        classes). The tree is the same at any value, bit for bit.

    Attributes
    ----------
    {{fitted_input}}
    tree_ : C45Node
        The root of the final tree.
    classes_ : ndarray of shape (C,)
        The classes, in order (the columns of :meth:`predict_proba`).
    columns_, kinds_ : tuple
        Attribute names and types as fitted.
    used_attributes_ : tuple of str
        Names of the attributes tested somewhere in the final tree, in column order.
    n_leaves_, depth_ : int
        Leaves of the final tree and its depth (a single leaf has depth 0).
    domains_ : dict
        Column index -> the categories of each nominal attribute, as fitted (queries must have the same).

    Notes
    -----
    Quinlan (1993) describes the algorithm and its program; release 8 (Quinlan 1996) changed how continuous
    attributes are handled. Our choices, where the descriptions leave room:

    - *Gains with missing values.* The gain of a test is computed on the cases whose tested value is known
      and multiplied by their weight fraction; the split information treats the unknown cases as one more
      branch. Both use the (possibly fractional) case weights.
    - *Average-gain condition.* The average is over every attribute that proposes a test at the node
      (continuous gains after the MDL correction); a test qualifies when its gain is at least the average minus
      ``EPSILON`` = 0.001 and its split information exceeds ``EPSILON``. Release 8 leaves nominal attributes
      with very many values out of the average; we do not. The best qualifying gain ratio must be positive.
      Gain ratios within ``GAIN_TIE`` = 1e-6 of the best tie, and a tie goes to the first column.
    - *Nominal attributes* get one branch per value of their domain (all categories of a pandas
      ``Categorical``, or the distinct training values of an array column), including values no training case
      at the node has: such a branch is a leaf of the parent's class holding no case. A nominal attribute is
      not tested again below a node testing it. A value outside the domain is treated as unknown.
    - *Continuous attributes.* Cuts are evaluated between consecutive known values more than
      ``value_tolerance`` times ``min(1, range)`` apart, ``range`` the attribute's training range (the program's
      rule, J48's absolute 1e-5, for attributes whose range is at least 1; relative below, so that data
      rescaled by 1e-6 grow the same tree instead of a single leaf; Quinlan 1996 speaks of distinct values). A cut is
      admissible when each side holds at least the minimum split weight (``release8_min_split``). The cut of
      highest gain wins (the lowest one among gains within ``GAIN_TIE``), then the MDL penalty ``log2(T) / |D|`` is
      subtracted, where ``T`` is the number of admissible cuts (release 8 counts tried cuts; Quinlan 1996
      writes ``N - 1`` for ``N`` distinct values, which is the same when every cut is admissible) and ``|D|``
      the weight of all cases at the node, unknowns included. The attribute proposes a test only when the
      corrected gain is positive. The threshold stored is the largest value of the attribute in the whole
      training set that does not exceed the midpoint of the cut (release 8), so ``value <= threshold`` goes
      left.
    - *Growing* stops at a node whose cases all have one class or weigh less than ``2 min_cases``, or where
      no test qualifies. After the subtrees of a test are grown, the node becomes a leaf again when their
      training errors are not fewer than the node's as a leaf (by at least ``EPSILON``), as the program does.
      The leaf class is the first class of largest weight.
    - *Missing values.* Cases with an unknown tested value go down every branch with their weight multiplied
      by the branch's share of the known weight at the node (when growing and pruning) or the branch's share
      of the training weight (when classifying); classification adds the class distributions of all leaves
      reached, each weighted by the product of the shares along its path. A leaf holding no case contributes
      its class with all the weight.
    - *Pruning* follows the program's bottom-up pass: at each node, after its branches are pruned, the
      estimated errors (``e + extra_errors(n, e)``) of a leaf, of the subtree, and (``subtree_raising``) of the
      subtree's largest branch evaluated on all the node's cases are compared; a leaf wins if it is within 0.1
      of both others, otherwise the largest branch replaces the node if within 0.1 of the subtree, and the
      raised branch is then re-pruned with all the node's cases. The largest branch is the last of those with
      the largest known weight.
    - :meth:`predict` returns the class of largest summed probability, the first class in ``classes_`` order
      on ties.

    Not implemented: grouping of nominal values into subsets (C4.5's ``-s``), windowing, and the rule
    generator (C4.5rules).

    Checked by hand against Weka 3.6's J48 (``-C 0.25 -M 2``), which is not a dependency: with
    ``upper_limit="normal"`` the trees have the same size and the same training and 5-fold test accuracy on
    17 UCI data sets (the eleven of Payne and Edwards 2000, and six with nominal attributes and unknown values).
    The default ``"c45"`` differs from it only through the normal deviate (0.6925 against 0.6745), which
    leaves slightly larger trees on pima, breast-cancer-wisconsin and balance-scale (same test accuracy).

    References
    ----------
    Quinlan, J. R. (1993), *C4.5: Programs for Machine Learning*, Morgan Kaufmann: chapter 2 (gain ratio,
    continuous attributes), chapter 3 (unknown values), chapter 4 (pruning) (bib key ``quinlan1993``).
    Quinlan, J. R. (1996), Improved use of continuous attributes in C4.5, *Journal of Artificial Intelligence
    Research* 4, 77-90 (bib key ``quinlan1996``).

    Examples
    --------
    Quinlan's (1993) golf data, section 1.3: the textbook tree.

    >>> import pandas as pd
    >>> X = pd.DataFrame({
    ...     "outlook": pd.Categorical(["sunny"] * 5 + ["overcast"] * 4 + ["rain"] * 5,
    ...                               categories=["sunny", "overcast", "rain"]),
    ...     "temperature": [75.0, 80, 85, 72, 69, 72, 83, 64, 81, 71, 65, 75, 68, 70],
    ...     "humidity": [70.0, 90, 85, 95, 70, 90, 78, 65, 75, 80, 70, 80, 80, 96],
    ...     "windy": pd.Categorical(["true", "true", "false", "false", "false", "true", "false", "true", "false",
    ...                              "true", "true", "false", "false", "false"])})
    >>> y = ["play", "no", "no", "no", "play"] + ["play"] * 4 + ["no", "no", "play", "play", "play"]
    >>> clf = C45Classifier().fit(X, y)
    >>> print(clf.export_text())
    outlook = sunny:
    |   humidity <= 75: play (2.0)
    |   humidity > 75: no (3.0)
    outlook = overcast: play (4.0)
    outlook = rain:
    |   windy = false: play (3.0)
    |   windy = true: no (2.0)
    >>> clf.used_attributes_
    ('outlook', 'humidity', 'windy')

    A sunny day of unknown humidity goes down both branches of the humidity test, with weights 2/5 and 3/5:

    >>> query = X.iloc[[0]].assign(humidity=float("nan"))
    >>> clf.predict_proba(query).round(2).tolist()
    [[0.6, 0.4]]
    """

    def __init__(
        self,
        *,
        min_cases: float = 2,
        confidence: float = 0.25,
        pruning: bool = True,
        subtree_raising: bool = True,
        upper_limit: str = "c45",
        mdl_correction: bool = True,
        release8_min_split: bool = True,
        value_tolerance: float = 1e-5,
        relative_tolerance: bool = True,
        working_memory: float = WORKING_MEMORY,
    ):
        self.min_cases = min_cases
        self.confidence = confidence
        self.pruning = pruning
        self.subtree_raising = subtree_raising
        self.upper_limit = upper_limit
        self.mdl_correction = mdl_correction
        self.release8_min_split = release8_min_split
        self.value_tolerance = value_tolerance
        self.relative_tolerance = relative_tolerance
        self.working_memory = working_memory

    _parameter_constraints: dict = {
        "min_cases": [Real(low=0, open_low=True)],
        "confidence": [Real(low=0, high=1, open_low=True, open_high=True)],
        "pruning": [Boolean()],
        "subtree_raising": [Boolean()],
        "upper_limit": [Choice(UPPER_LIMITS)],
        "mdl_correction": [Boolean()],
        "release8_min_split": [Boolean()],
        "value_tolerance": [Real(low=0)],
        "relative_tolerance": [Boolean()],
        "working_memory": [Real(0, open_low=True)],
    }
    _validate_params = validate_params

    # -------------------------------------------------------------- fitting
    def _validate(self):
        self._validate_params()  # the constraints above (scikit-learn's InvalidParameterError, a ValueError)

    def fit(self, X, y, types=None):
        """Grow the tree on ``(X, y)`` and prune it.

        Parameters
        ----------
        X : DataFrame, Encoded or array of shape (n, m)
            Nominal attributes as pandas ``Categorical`` columns (or numeric codes with ``types``), continuous
            ones numeric; NaN is an unknown value.
        y : array-like of length n
            Class labels.
        {{fit_types}}

        Returns
        -------
        C45Classifier
            The fitted estimator itself.
        """
        self._validate()
        data = fit_input(self, X, types)
        self.columns_, self.kinds_ = data.columns, data.kinds
        y_idx, self.classes_ = encode_labels(y, len(data), column=True)
        self._builder = self._make_builder(data, y_idx)
        n = len(data)
        root = self._builder.grow(np.arange(n), np.ones(n))
        if self.pruning:
            prune = {
                "confidence": self.confidence,
                "upper_limit": self.upper_limit,
                "subtree_raising": self.subtree_raising,
            }
            self._builder.estimate(root, np.arange(n), np.ones(n), True, prune)
        self.tree_ = root
        used = {node.attribute for node in root.walk() if not node.is_leaf}
        self.used_attributes_ = tuple(self.columns_[a] for a in sorted(used))
        self.n_leaves_ = sum(node.is_leaf for node in root.walk())
        self.depth_ = _depth(root)
        return self

    def _make_builder(self, data: Encoded, y_idx) -> C45Builder:
        nominal = data.nominal
        Z, self.domains_ = self._codes(data.values, data.categories, nominal, fit=True)
        n_values = {a: len(self.domains_[a]) for a in np.flatnonzero(nominal)}
        train_values = {a: np.unique(Z[~np.isnan(Z[:, a]), a]) for a in np.flatnonzero(~nominal)}
        return C45Builder(
            Z,
            y_idx,
            len(self.classes_),
            nominal,
            n_values,
            train_values,
            min_cases=self.min_cases,
            mdl_correction=self.mdl_correction,
            release8_min_split=self.release8_min_split,
            value_tolerance=self.value_tolerance,
            relative_tolerance=self.relative_tolerance,
            max_bytes=self.working_memory * 2**20,
        )

    def _codes(self, values, categories, nominal, fit=False):
        """Nominal columns as branch indices 0..k-1 of their domain (NaN when unknown or outside it). The
        domain is a ``Categorical``'s categories (numbers: its codes) or an array column's distinct training
        values."""
        Z = values.copy()
        if fit:
            self._value_codes = {}
            domains = {}
            for a in np.flatnonzero(nominal):
                known = values[~np.isnan(values[:, a]), a]
                if categories[a] is not None:
                    domains[a] = tuple(categories[a])
                    self._value_codes[a] = np.arange(len(categories[a]), dtype=float)
                else:
                    self._value_codes[a] = np.unique(known)
                    domains[a] = tuple(self._value_codes[a].tolist())
        else:
            domains = self.domains_
        for a in np.flatnonzero(nominal):
            dom, col = self._value_codes[a], values[:, a]
            pos = np.minimum(np.searchsorted(dom, col), len(dom) - 1)
            hit = ~np.isnan(col) & (dom[pos] == col) if len(dom) else np.zeros(len(col), dtype=bool)
            Z[:, a] = np.where(hit, pos, np.nan)
        return Z, domains

    # -------------------------------------------------------------- prediction
    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True  # an unknown value goes down every branch, weighted
        tags.input_tags.categorical = True  # nominal attributes as pandas Categorical columns
        return tags

    def _encode_queries(self, X) -> np.ndarray:
        values = query_input(self, X)  # the fitted schema: same columns, types and category lists
        Z, _ = self._codes(values, self.schema_.categories, self.schema_.nominal)
        return Z

    def predict_proba(self, X) -> np.ndarray:
        """Class probabilities, shape (n, classes): the leaf class distributions reached by each query, summed
        with the weights of the branches followed (all branches of a test whose value is unknown).

        Parameters
        ----------
        {{queries}}

        Returns
        -------
        ndarray of shape (n, len(``classes_``))
            The class probabilities of each query.
        """
        Z = self._encode_queries(X)
        n = len(Z)
        out = np.zeros((n, len(self.classes_)))
        self._route(self.tree_, Z, np.arange(n), np.ones(n), out)
        return out

    def _route(self, node, Z, rows, w, out):
        if rows.size == 0:
            return
        if node.is_leaf:
            if node.n > 0:
                out[rows] += w[:, None] * (node.distribution / node.n)[None, :]
            else:
                out[rows, node.label] += w
            return
        sizes = np.array([c.n for c in node.children])
        factors = sizes / sizes.sum()
        parts, _ = self._builder.branches(node, Z, rows, w, factors)
        for child, (r, ww) in zip(node.children, parts):
            self._route(child, Z, r, ww, out)

    def predict_indices(self, X) -> np.ndarray:
        """Indices into ``classes_`` of the predicted classes.

        Parameters
        ----------
        {{queries}}

        Returns
        -------
        ndarray of shape (n,)
            Indices into ``classes_``.
        """
        return np.argmax(self.predict_proba(X), axis=1)

    def predict(self, X) -> np.ndarray:
        """Predicted class labels (the class of largest probability; the first one on ties).

        Parameters
        ----------
        {{queries}}

        Returns
        -------
        ndarray of shape (n,)
            The predicted class label of each query.
        """
        indices = self.predict_indices(X)
        return self.classes_[indices]

    def _value_name(self, a: int, b: int) -> str:
        value = self.domains_[a][b]
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        return str(value)

    def export_text(self) -> str:
        """The tree in C4.5's indented layout: one line per branch, ``attribute = value`` or
        ``attribute <= threshold`` / ``> threshold``; a leaf shows its class and ``(n)`` or ``(n/errors)``, the
        weight of the training cases reaching it and of those not of its class.

        Returns
        -------
        str
            The tree, one line per branch.
        """
        check_is_fitted(self)
        lines: list[str] = []

        def leaf(node):
            errors = node.n - node.distribution[node.label] if node.n > 0 else 0.0
            tail = f"({node.n:.1f})" if errors < 0.05 else f"({node.n:.1f}/{errors:.1f})"
            return f"{self.classes_[node.label]} {tail}"

        def walk(node, depth):
            name = self.columns_[node.attribute]
            for b, child in enumerate(node.children):
                if self.kinds_[node.attribute] == NOMINAL:
                    test = f"{name} = {self._value_name(node.attribute, b)}"
                else:
                    test = f"{name} {'<=' if b == 0 else '>'} {node.threshold:g}"
                prefix = "|   " * depth
                if child.is_leaf:
                    lines.append(f"{prefix}{test}: {leaf(child)}")
                else:
                    lines.append(f"{prefix}{test}:")
                    walk(child, depth + 1)

        if self.tree_.is_leaf:
            return leaf(self.tree_)
        walk(self.tree_, 0)
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.export_text() if hasattr(self, "tree_") else repr(self)

    def __repr__(self) -> str:
        return (
            f"C45Classifier(min_cases={self.min_cases}, confidence={self.confidence}, "
            f"pruning={self.pruning}, subtree_raising={self.subtree_raising}, "
            f"upper_limit={self.upper_limit!r}, mdl_correction={self.mdl_correction}, "
            f"release8_min_split={self.release8_min_split}, value_tolerance={self.value_tolerance})"
        )


def _depth(node: C45Node) -> int:
    return 0 if node.is_leaf else 1 + max(_depth(c) for c in node.children)


def candidate_splits(
    X,
    y,
    types=None,
    *,
    min_cases: float = 2,
    mdl_correction: bool = True,
    release8_min_split: bool = True,
    value_tolerance: float = 1e-5,
) -> pd.DataFrame:
    """The test each attribute proposes at the root of a C4.5 tree on ``(X, y)``, with its gain, split
    information and gain ratio, and the test C4.5 chooses (Quinlan 1993, section 2.2; Quinlan 1996).

    Returns
    -------
    DataFrame
        One row per attribute: ``kind``, ``info_gain`` (bits, scaled by the known fraction), ``penalty`` (the
        MDL correction of a continuous attribute), ``gain`` (``info_gain - penalty``), ``split_info``,
        ``gain_ratio``, ``threshold`` (continuous attributes), ``n_thresholds`` (admissible cuts),
        ``possible`` (the attribute proposes a test), ``above_average`` (its gain reaches the average) and
        ``chosen``.

    References
    ----------
    Quinlan (1993), section 2.2 (bib key ``quinlan1993``); Quinlan (1996), section 3 (bib key ``quinlan1996``).

    Examples
    --------
    >>> import pandas as pd
    >>> X = pd.DataFrame({"outlook": pd.Categorical(["sunny"] * 5 + ["overcast"] * 4 + ["rain"] * 5)})
    >>> y = ["no", "no", "no", "yes", "yes"] + ["yes"] * 4 + ["yes", "yes", "yes", "no", "no"]
    >>> row = candidate_splits(X, y).loc["outlook"]
    >>> [round(float(row[k]), 4) for k in ("info_gain", "split_info", "gain_ratio")]
    [0.2467, 1.5774, 0.1564]
    """
    clf = C45Classifier(
        min_cases=min_cases,
        mdl_correction=mdl_correction,
        release8_min_split=release8_min_split,
        value_tolerance=value_tolerance,
    )
    clf._validate()
    data = fit_input(clf, X, types)
    clf.columns_, clf.kinds_ = data.columns, data.kinds
    y_idx, clf.classes_ = encode_labels(y, len(data))
    builder = clf._make_builder(data, y_idx)
    n = len(data)
    table = builder.evaluate(np.arange(n), np.ones(n))
    possible = table["possible"]
    average = table["gain"][possible].mean() if possible.any() else np.nan
    chosen = builder.choose(table)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(possible, table["gain"] / table["split_info"], np.nan)
    return pd.DataFrame(
        {
            "kind": list(data.kinds),
            "info_gain": table["info_gain"],
            "penalty": table["penalty"],
            "gain": table["gain"],
            "split_info": table["split_info"],
            "gain_ratio": ratio,
            "threshold": table["threshold"],
            "n_thresholds": table["tries"],
            "possible": possible,
            "above_average": possible & (table["gain"] >= average - EPSILON),
            "chosen": np.arange(len(possible)) == (chosen if chosen is not None else -1),
        },
        index=pd.Index(data.columns, name="attribute"),
    )
