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
    # the types of an array X at fit
    "fit_types": """\
types : sequence or dict, optional
    Attribute types of an array ``X`` (default: every column continuous; :func:`lazylib.encoding.fit_input`).""",
    # what lazylib.encoding.fit_input sets on every estimator
    "fitted_input": """\
n_features_in_ : int
    Number of attributes seen in ``fit``.
feature_names_in_ : ndarray of str
    The column names, when ``fit`` was given a DataFrame (scikit-learn's attribute; absent otherwise).
schema_ : lazylib.encoding.Schema
    The fitted columns, types and category lists, applied to every query (:func:`lazylib.encoding.query_input`).""",
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
