"""Güvenir (1998), section 2: the sample data set of Figures 1-3, counts and votes computed by hand.

The paper's Figure 1 survives only as a caption: two linear features f1 and f2, 3 instances of class A, 4 of
class B, 9 intervals per feature. The toy set below has that shape: on each feature the four class end points
are distinct, giving 4 point intervals, 3 inner ranges and 2 unbounded ranges.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from lazylib.vfi import VFI5Classifier

# (f1, f2, class)
TOY = pd.DataFrame({"f1": [1.0, 3.0, 5.0, 2.0, 4.0, 6.0, 7.0], "f2": [4.0, 6.0, 7.0, 1.0, 3.0, 5.0, 8.0]})
TOY_Y = pd.Series(["A", "A", "A", "B", "B", "B", "B"])


@pytest.fixture(scope="module")
def toy():
    return VFI5Classifier().fit(TOY, TOY_Y)


def test_nine_intervals_per_feature(toy):
    assert toy.n_intervals_.tolist() == [9, 9]
    assert toy.intervals_["f1"]["lower"].tolist() == [-np.inf, 1, 1, 2, 2, 5, 5, 7, 7]
    assert toy.intervals_["f1"]["closed"].tolist() == ["open", "both"] * 4 + ["open"]
    assert toy.intervals_["f2"]["upper"].tolist() == [1, 1, 4, 4, 7, 7, 8, 8, np.inf]


def test_class_counts_by_hand(toy):
    # f1: A end points 1 and 5, B end points 2 and 7
    #   (-inf,1) [1] (1,2) [2] (2,5) [5] (5,7) [7] (7,inf)
    f1 = toy.intervals_["f1"]
    assert f1["count A"].tolist() == [0, 1, 0, 0, 1, 1, 0, 0, 0]
    assert f1["count B"].tolist() == [0, 0, 0, 1, 1, 0, 1, 1, 0]
    # f2: B end points 1 and 8, A end points 4 and 7
    #   (-inf,1) [1] (1,4) [4] (4,7) [7] (7,8) [8] (8,inf)
    f2 = toy.intervals_["f2"]
    assert f2["count A"].tolist() == [0, 0, 0, 1, 1, 1, 0, 0, 0]
    assert f2["count B"].tolist() == [0, 1, 1, 0, 1, 0, 0, 1, 0]


def test_votes_by_hand(toy):
    # the range (2, 5) of f1 holds one A (of 3) and one B (of 4): 1/3 and 1/4, normalised 4/7 and 3/7
    f1 = toy.intervals_["f1"]
    np.testing.assert_allclose(f1["vote A"], [0, 1, 0, 0, 4 / 7, 1, 0, 0, 0])
    np.testing.assert_allclose(f1["vote B"], [0, 0, 0, 1, 3 / 7, 0, 1, 1, 0])
    f2 = toy.intervals_["f2"]
    np.testing.assert_allclose(f2["vote A"], [0, 0, 0, 1, 4 / 7, 1, 0, 0, 0])
    # every interval holding a training value votes 1 in all; empty ones abstain
    votes = f1[["vote A", "vote B"]].sum(axis=1)
    np.testing.assert_allclose(votes, np.where(f1[["count A", "count B"]].sum(axis=1) > 0, 1.0, 0.0))


def test_classification_by_hand(toy):
    # (3.5, 5.5): f1 in (2,5) -> A 4/7, B 3/7; f2 in (4,7) -> A 4/7, B 3/7: A wins with 8/7
    # (6.5, 2.0): f1 in (5,7) -> B 1; f2 in (1,4) -> B 1: B with 2
    # (0.0, 9.0): both values beyond every end point: every feature abstains, the more frequent class B wins
    q = pd.DataFrame({"f1": [3.5, 6.5, 0.0], "f2": [5.5, 2.0, 9.0]})
    np.testing.assert_allclose(toy.class_votes(q), [[8 / 7, 6 / 7], [0, 2], [0, 0]])
    assert toy.predict(q).tolist() == ["A", "B", "B"]
