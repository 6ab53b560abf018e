"""Numpydoc fragments shared by the docstrings of the estimators, so that the copies of a repeated parameter or
fitted attribute cannot drift apart (issue #36, item 4).

A docstring names a fragment by a line that holds only ``{{name}}`` (indented as the entry would be); the
decorator :func:`fill_doc` replaces that line with the fragment of :data:`FRAGMENTS`, indented as the placeholder,
when the module is imported. ``help()``, :mod:`inspect`, numpydoc's validation and Sphinx's autodoc therefore see the
full text, as with the docstring templates of scikit-learn, pandas (``Substitution``) and MNE (``fill_doc``). An
unknown name fails at import.

>>> @fill_doc
... def predict(X):
...     '''Predicted classes.
...
...     Parameters
...     ----------
...     {{queries}}
...     '''
>>> print(predict.__doc__.splitlines()[4])
    X : DataFrame or array of shape (n, m)
"""

from __future__ import annotations

import re

#: The shared fragments, by name, each written without indentation.
FRAGMENTS = {
    # the queries of predict, predict_proba and the like
    "queries": """\
X : DataFrame or array of shape (n, m)
    Queries, with the columns and types of the training data.""",
    # the training data of fit, for the estimators and metrics of mixed data
    "fit_X": """\
X : DataFrame or array of shape (n, m)
    Training attributes (nominal as Categorical columns, or codes with ``types``; NaN unknown).""",
    # the training data of fit, for the estimators of numeric data (sub-space mapping, Monte-Carlo selection)
    "fit_numeric": """\
X : DataFrame or array of shape (n, J)
    Numeric training attributes (no missing values).""",
    # the class labels, of fit and the like
    "labels": """\
y : array-like of shape (n,)
    Class labels.""",
    # the labels of SubspaceMapping's fit and fit_transform
    "fit_y_cacp": """\
y : array-like of shape (n,), optional
    Class labels (required by CACP).""",
    # the types of X at fit
    "fit_types": """\
types : sequence or dict, optional
    Attribute types, one per column (a dict keyed by column name for a DataFrame): required for the nominal
    codes of an array ``X``, whose columns are otherwise all continuous (:func:`lazylib.encoding.fit_input`); a
    DataFrame's types default to its dtypes.""",
    # what lazylib.encoding.fit_input sets on every estimator and metric
    "fitted_input": """\
n_features_in_ : int
    Number of attributes seen in ``fit``.
feature_names_in_ : ndarray of str
    The column names, when ``fit`` was given a DataFrame (scikit-learn's attribute; absent otherwise).
schema_ : lazylib.encoding.Schema
    The fitted columns, types, category lists and set dimensions (:func:`lazylib.encoding.fit_input`), which
    every later input must match.""",
    # the training labels as codes, kept by the estimators that vote (k-NN, VFI5)
    "fitted_labels": """\
y_ : ndarray of shape (n,)
    Class codes ``0..C-1`` of the training instances.""",
    # the categories of the nominal columns, as encoded
    "fitted_categories": """\
categories_ : tuple
    Categories of each nominal column of a DataFrame (None for the other columns).""",
}

_PLACEHOLDER = re.compile(r"^(?P<indent>[ ]*)\{\{(?P<name>\w+)\}\}[ ]*$", flags=re.M)


def fill(doc: str) -> str:
    """``doc`` with every placeholder line ``{{name}}`` replaced by the fragment ``name``, indented as the line.

    Parameters
    ----------
    doc : str
        A docstring.

    Returns
    -------
    str
        The docstring with its fragments in place (unchanged when it has no placeholder).

    Raises
    ------
    KeyError
        For a placeholder that names no fragment.
    """

    def indented(match: re.Match) -> str:
        indent = match.group("indent")
        return "\n".join(indent + line if line else line for line in FRAGMENTS[match.group("name")].splitlines())

    return _PLACEHOLDER.sub(indented, doc)


def fill_doc(obj):
    """Decorator: fill the placeholders of a function's docstring, or of a class's and of the methods it defines.

    Parameters
    ----------
    obj : function or class
        What to fill, in place.

    Returns
    -------
    function or class
        ``obj`` itself.
    """
    targets = [obj]
    if isinstance(obj, type):
        targets += [member for member in vars(obj).values() if callable(member) or isinstance(member, property)]
    for target in targets:
        doc = getattr(target, "__doc__", None)
        if doc and fill(doc) != doc:
            target.__doc__ = fill(doc)
    return obj
