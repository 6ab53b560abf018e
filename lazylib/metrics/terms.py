"""Every attribute term written pair by pair, as the papers print it: the form a chapter shows.

A metric of :mod:`lazylib.metrics` holds one fitted term per attribute (``metric.attributes_``; classes of
:mod:`lazylib.metrics._attributes`). The engine never evaluates a term one pair at a time: it turns the terms into
one matrix product (:mod:`lazylib.metrics._engine`). The functions here compute the same term for one pair of
values ``x`` (the query's) and ``y`` (the stored instance's), from the same fitted state (probability tables,
ranges, standard deviations), with nothing but the formula; ``tests/oracles/test_terms.py`` checks that the
engine's sums equal them for every metric and attribute. Unknown values are NaN. The value of a set-valued
attribute is its ``(members, d)`` array (None when unknown): the encoded matrix holds the set's index in its
column's table, ``SetTable.get`` turns one into the other.

The whole distance is ``D(x, y) = (sum_a u_a(x) v_a t_a(x_a, y_a)) ** (1 / root)``: :func:`term` gives
``t_a``, ``u_a`` is the term's ``query_weights`` in the metrics with ``query_weighted = True`` (the VDM value
weight of the VDM and OMVW) and 1 in the others, and ``v_a`` the attribute weight.

>>> import numpy as np, pandas as pd
>>> from lazylib.metrics import HVDM
>>> X = pd.DataFrame({"colour": pd.Categorical(["red", "red", "blue", "blue"]), "size": [1.0, 2.0, 3.0, 4.0]})
>>> hvdm = HVDM().fit(X, ["a", "a", "b", "b"])
>>> colour, size = hvdm.attributes_
>>> round(value_difference(colour, 1.0, 0.0) + linear_difference(size, 1.0, 3.0), 6)  # red vs blue, 1 vs 3
2.15
>>> round(float(hvdm.pairwise(X[:1], X[2:3])[0, 0] ** 2), 6)
2.15
"""

from __future__ import annotations

import math

import numpy as np

from lazylib.metrics._attributes import (
    AttributeTerm,
    CurveAttribute,
    LinearAttribute,
    OverlapAttribute,
    PowerAttribute,
    ProbabilityAttribute,
    SetAttribute,
)


def overlap(term: OverlapAttribute, x: float, y: float) -> float:
    """``overlap(x, y) = 0 if x = y else 1`` (Eq. 2 of Payne & Edwards, Eq. 4 of Wilson & Martinez); ``else
    term.mismatch`` in general (2 for the one-hot reading of the Minkowski family).

    With ``term.missing == "one"`` (HEOM) an unknown value is at distance 1 from everything, itself included;
    with ``"value"`` it is one more value, equal to another unknown.
    """
    if math.isnan(x) or math.isnan(y):
        if term.missing == "one":
            return 1.0
        return 0.0 if math.isnan(x) and math.isnan(y) else term.mismatch
    return 0.0 if x == y else term.mismatch


def value_difference(term: ProbabilityAttribute, x: float, y: float) -> float:
    """The value difference of two nominal (or discretised) values from their class probabilities
    ``P(c | x)`` (Eq. 4 of Payne & Edwards; Eqs. 9-16 of Wilson & Martinez; DVDM, Eq. 18).

    ``term.form``: ``"sq"`` ``scale * sum_c (P(c|x) - P(c|y))^2`` (the MVDM, HVDM's N2 squared and N3 squared
    with ``scale = C``), ``"l1"`` ``sum_c |P(c|x) - P(c|y)|``, ``"l1sq"`` its square (HVDM's N1 squared),
    ``"sqsq"`` ``(sum_c (P(c|x) - P(c|y))^2)^2`` (the printed, squared-again DVDM). With ``term.missing ==
    "one"`` (HVDM) an unknown value is at distance 1; otherwise it has the probabilities of the training rows
    where the value is unknown.
    """
    if term.missing == "one" and (math.isnan(x) or math.isnan(y)):
        return 1.0
    p, q = term.probabilities(np.array([x, y]))
    diff = p - q
    if term.form == "sq":
        return term.scale * float(np.sum(diff**2))
    if term.form == "l1":
        return float(np.sum(np.abs(diff)))
    if term.form == "l1sq":
        return float(np.sum(np.abs(diff))) ** 2
    return float(np.sum(diff**2)) ** 2  # "sqsq"


def linear_difference(term: LinearAttribute, x: float, y: float) -> float:
    """``((x - y) / scale)^2`` for a linear attribute: the square of HEOM's range-normalised difference
    (``scale`` the range, Eq. 6 of Wilson & Martinez), of HVDM's ``|x - y| / (4 sigma)`` (Eq. 14), of the
    standardised Euclidean distance. An unknown value is at distance 1; a constant attribute contributes 0.
    """
    if math.isnan(x) or math.isnan(y):
        return 1.0
    if term.scale == 0:
        return 0.0
    return float((x - y) / term.scale) ** 2


def power_difference(term: PowerAttribute, x: float, y: float) -> float:
    """``|x - y|^r / scale^r``: one attribute of the Minkowski distance of any order ``r`` (Eq. 1 of Wilson &
    Martinez), in the data's units; an unknown value is at distance 1, a constant attribute contributes 0. For
    ``r`` other than 1 and 2 the engine computes each pair's distance in the pair's own unit
    (:func:`lazylib.metrics._engine.norm_block`), so its distances are the ``r``-th roots of sums of these
    terms where such sums are within the float range."""
    if math.isnan(x) or math.isnan(y):
        return 1.0
    if term.scale == 0:
        return 0.0
    return abs(float((x - y) / term.scale)) ** term.r


def interpolated_difference(term: CurveAttribute, x: float, y: float) -> float:
    """``sum_c (P(c|x) - P(c|y))^2`` over interpolated class probabilities of continuous values (IVDM, Eqs.
    19-20 of Wilson & Martinez as corrected by the erratum; WVDM the same over its sliding window), or its square
    (``term.form == "sqsq"``, the printed equations). An unknown value has the class distribution of the training
    rows where the value is unknown.
    """
    p, q = term.probabilities(np.array([x, y]))
    sq = float(np.sum((p - q) ** 2))
    return sq if term.form == "sq" else sq * sq


def minimum_difference(term: SetAttribute, x, y) -> float:
    """``min_{u in x, v in y} ||u - v|| / scale``: the smallest Euclidean distance between a member of the set
    ``x`` and a member of the set ``y`` (Eq. 6 of Howe & Cardie), divided by the term's scale (the largest
    training set difference under ``FeatureDifference(scale="range")``, 1 under ``"raw"``). ``x`` and ``y`` are
    ``(members, d)`` arrays; an unknown set (None) is at ``term.unknown`` (1) from everything, itself included;
    a scale of 0 (every training set the same) makes the term 0 between known sets.
    """
    if x is None or y is None:
        return term.unknown
    if term.scale == 0:
        return 0.0
    return min(math.dist(u, v) for u in x for v in y) / term.scale


#: The per-pair form of each kind of attribute term (the first matching class wins).
FORMS = (
    (OverlapAttribute, overlap),
    (ProbabilityAttribute, value_difference),
    (LinearAttribute, linear_difference),
    (PowerAttribute, power_difference),
    (CurveAttribute, interpolated_difference),
    (SetAttribute, minimum_difference),
)


def term(att: AttributeTerm, x: float, y: float) -> float:
    """``t_a(x, y)`` of the fitted attribute term ``att`` for one pair of values (of sets: their members), by
    its per-pair form."""
    for kind, form in FORMS:
        if isinstance(att, kind):
            return form(att, x, y)
    raise TypeError(f"no per-pair form for {type(att).__name__}")
