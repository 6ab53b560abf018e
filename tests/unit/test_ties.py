"""The random tie rule: seeded draws, and an exact expected accuracy checked against brute-force enumeration of
every choice and against the mean of many seeded draws."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest

from lazylib import evaluation
from lazylib.datasets import load
from lazylib.neighbors import KNeighborsClassifier, loo_accuracy_by_k
from lazylib.voting import Neighbourhood, class_probabilities, decide, vote_priority


def enumerated_probabilities(a, t, k):
    """P(winner = c) by listing every subset of the tied instances (each one an individual) and splitting an
    equal vote evenly between the top classes: independent of the generating-function formula."""
    members = [c for c, count in enumerate(t) for _ in range(count)]
    r = k - sum(a)
    P = [Fraction(0)] * len(a)
    subsets = list(itertools.combinations(range(len(members)), min(r, len(members))))
    for subset in subsets:
        votes = list(a)
        for i in subset:
            votes[members[i]] += 1
        top = [c for c, v in enumerate(votes) if v == max(votes)]
        for c in top:
            P[c] += Fraction(1, len(top) * len(subsets))
    return [float(p) for p in P]


CASES = [  # (strictly nearer counts a, tied counts t, k)
    ([0, 0], [2, 3], 1),
    ([0, 0, 0], [1, 1, 1], 1),
    ([1, 0, 0], [0, 2, 3], 3),
    ([0, 1, 1], [2, 2, 1], 4),
    ([2, 0, 1], [1, 3, 2], 5),
    ([0, 0, 0, 0], [2, 2, 2, 3], 4),
    ([1, 1, 0, 0, 0], [0, 1, 2, 2, 1], 5),
    ([0, 0, 0], [4, 0, 4], 3),
    ([0, 0], [3, 3], 2),
    ([3, 0, 0], [0, 4, 4], 7),
    ([1, 1, 1], [1, 1, 1], 4),
]


@pytest.mark.parametrize(("a", "t", "k"), CASES)
def test_expected_vote_equals_enumeration_of_every_choice(a, t, k):
    nb = Neighbourhood(np.array([a]), np.array([t]))
    P = class_probabilities(nb, k, vote_priority(np.ones(len(a))), "random")[0]
    np.testing.assert_allclose(P, enumerated_probabilities(a, t, k), rtol=0, atol=1e-12)


def test_draws_follow_the_expected_probabilities():
    # every case repeated 40,000 times in one call: the frequencies of each winner within 5 standard errors
    a = np.array([c[0] + [0] * (5 - len(c[0])) for c in CASES])
    t = np.array([c[1] + [0] * (5 - len(c[1])) for c in CASES])
    ks = [c[2] for c in CASES]
    n = 40_000
    for i, k in enumerate(ks):
        nb = Neighbourhood(np.repeat(a[i : i + 1], n, 0), np.repeat(t[i : i + 1], n, 0))
        P = class_probabilities(Neighbourhood(a[i : i + 1], t[i : i + 1]), k, np.zeros(5), "random")[0]
        freq = np.bincount(decide(nb, k, np.zeros(5), "random", np.random.default_rng(i)), minlength=5) / n
        assert np.all(np.abs(freq - P) <= 5 * np.sqrt(P * (1 - P) / n) + 1e-12), (CASES[i], freq, P)


def tic_tac_toe_fold():
    ds = load("tic-tac-toe")
    train, test = evaluation.kfold(len(ds.y), 10, random_state=1)[0]
    return ds.X.iloc[train], ds.y.iloc[train], ds.X.iloc[test], ds.y.iloc[test]


@pytest.mark.parametrize("k", [1, 4])
def test_expected_accuracy_is_the_mean_of_seeded_runs(k):
    X, y, Xq, yq = tic_tac_toe_fold()
    clf = KNeighborsClassifier(k, "overlap", ties="random").fit(X, y)
    expected = clf.score(Xq, yq, expected=True)
    runs = np.array(
        [KNeighborsClassifier(k, "overlap", ties="random", random_state=s).fit(X, y).score(Xq, yq) for s in range(200)]
    )
    # the per-query probabilities give the exact standard deviation of one run's accuracy
    P = clf.predict_distribution(Xq)
    hit = P[np.arange(len(yq)), [list(clf.classes_).index(c) for c in yq]]
    sd = np.sqrt(np.sum(hit * (1 - hit))) / len(yq)
    assert sd > 0.005  # ties matter here
    assert abs(runs.mean() - expected) <= 4 * sd / np.sqrt(len(runs))
    assert runs.std() == pytest.approx(sd, rel=0.25)


def test_seeded_runs_reproduce_and_seeds_differ():
    X, y, Xq, _ = tic_tac_toe_fold()
    a = KNeighborsClassifier(1, "overlap", ties="random", random_state=7).fit(X, y)
    b = KNeighborsClassifier(1, "overlap", ties="random", random_state=7).fit(X, y)
    np.testing.assert_array_equal(a.predict(Xq), b.predict(Xq))
    np.testing.assert_array_equal(a.predict(Xq), a.predict(Xq))  # an integer seed: the same draws every call
    c = KNeighborsClassifier(1, "overlap", ties="random", random_state=8).fit(X, y)
    assert (a.predict(Xq) != c.predict(Xq)).any()


def test_without_ties_every_rule_is_plain_nearest_neighbour():
    rng = np.random.default_rng(3)
    X, y, Xq = rng.normal(size=(200, 3)), rng.integers(0, 3, 200), rng.normal(size=(100, 3))
    yq = rng.integers(0, 3, 100)
    types = ["continuous"] * 3
    plain = KNeighborsClassifier(1, "euclidean").fit(X, y, types=types)
    rand = KNeighborsClassifier(1, "euclidean", ties="random").fit(X, y, types=types)
    assert rand.score(Xq, yq, expected=True) == plain.score(Xq, yq)
    np.testing.assert_array_equal(rand.predict(Xq), plain.predict(Xq))
    P = rand.predict_distribution(Xq)
    assert set(np.unique(P)) == {0.0, 1.0}


def test_expected_accuracy_does_not_depend_on_class_or_file_order():
    X, y, Xq, yq = tic_tac_toe_fold()
    flipped = y.cat.reorder_categories(list(reversed(y.cat.categories)))
    order = np.random.default_rng(0).permutation(len(X))
    base = KNeighborsClassifier(3, "overlap", ties="random").fit(X, y).score(Xq, yq, expected=True)
    other = KNeighborsClassifier(3, "overlap", ties="random").fit(X.iloc[order], flipped.iloc[order])
    assert other.score(Xq, yq, expected=True) == pytest.approx(base, abs=1e-12)


def test_evaluation_reports_the_expected_accuracy():
    ds = load("tic-tac-toe")
    folds = evaluation.kfold(len(ds.y), 5, random_state=2)
    make = {
        "random": lambda: KNeighborsClassifier(1, "overlap", ties="random"),
        "all": lambda: KNeighborsClassifier(1, "overlap"),
    }
    table = evaluation.compare(make, ds.X, ds.y, folds, expected=True)
    for f, (train, test) in enumerate(folds):
        clf = make["random"]().fit(ds.X.iloc[train], ds.y.iloc[train])
        assert table["random"][f] == clf.score(ds.X.iloc[test], ds.y.iloc[test], expected=True)
    plain = evaluation.compare(make, ds.X, ds.y, folds)
    np.testing.assert_array_equal(table["all"], plain["all"])  # deterministic rules: expected = plain


def test_loo_expected_accuracy_matches_the_classifier_rule():
    ds = load("house-votes-84")
    X, y = ds.X.iloc[:80], ds.y.iloc[:80]
    loo = loo_accuracy_by_k(X, y, [1, 3], metric="overlap", ties="random", expected=True)
    for k in (1, 3):
        hits = 0.0
        for i in range(len(X)):
            rest = np.delete(np.arange(len(X)), i)
            # refitting on the others changes nothing for the overlap metric (no statistics are learnt)
            clf = KNeighborsClassifier(k, "overlap", ties="random").fit(X.iloc[rest], y.iloc[rest])
            hits += clf.score(X.iloc[[i]], y.iloc[[i]], expected=True)
        assert loo[k] == pytest.approx(hits / len(X), abs=1e-12)
    draws = loo_accuracy_by_k(X, y, [1, 3], metric="overlap", ties="random", random_state=0)
    assert draws.equals(loo_accuracy_by_k(X, y, [1, 3], metric="overlap", ties="random", random_state=0))


def _exact_random_tie_probabilities(a, t, k):
    """P(each class wins) under ties='random', by enumerating every draw with exact rational arithmetic."""
    import itertools
    import math
    from fractions import Fraction

    C, r = len(a), k - sum(a)
    P = [Fraction(0)] * C
    total = math.comb(sum(t), r)
    for head in itertools.product(*(range(min(tj, r) + 1) for tj in t[:-1])):
        last = r - sum(head)
        if not 0 <= last <= t[-1]:
            continue
        x = (*head, last)
        weight = Fraction(math.prod(math.comb(tj, xj) for tj, xj in zip(t, x)), total)
        votes = [aj + xj for aj, xj in zip(a, x)]
        top = [c for c, v in enumerate(votes) if v == max(votes)]
        for c in top:
            P[c] += weight / len(top)
    return [float(p) for p in P]


@pytest.mark.parametrize(
    "a, t, k",
    [([0, 0, 0], [120, 100, 90], 155), ([2, 1], [400, 390], 203), ([0, 0], [700, 700], 301), ([1, 0, 3], [5, 3, 2], 7)],
    ids=["310-tied-3-classes", "790-tied", "1400-tied", "small"],
)
def test_random_tie_probabilities_are_exact_for_hundreds_of_tied_neighbours(a, t, k):
    """The expected accuracy of ties='random' is computed in log space: it matches exact rational arithmetic
    where scaling by T^y underflowed to NaN (a few hundred tied neighbours)."""
    from lazylib.voting import Neighbourhood, class_probabilities

    got = class_probabilities(Neighbourhood(np.array([a]), np.array([t])), k, np.full(len(a), 0.5), "random")[0]
    np.testing.assert_allclose(got, _exact_random_tie_probabilities(a, t, k), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("seed", range(2))
def test_random_tie_probabilities_equal_exact_enumeration_on_random_small_cases(seed):
    """Two to six classes, a few strictly nearer and tied neighbours each, many queries at once: every path of the
    leave-one-class-out products (one, two and more other classes) against exact rational enumeration."""
    from lazylib.voting import Neighbourhood, class_probabilities

    rng = np.random.default_rng(seed)
    checked = 0
    for C in range(2, 7):
        a = rng.integers(0, 3, (12, C)) * (rng.random((12, C)) < 0.5)
        t = rng.integers(0, 4, (12, C))
        t[:, 0] += 1
        k = int(a.sum(axis=1).max()) + int(rng.integers(1, 6))
        got = class_probabilities(Neighbourhood(a, t), k, np.zeros(C), "random")
        for i in np.flatnonzero(k - a.sum(axis=1) <= t.sum(axis=1)):  # r <= T: enumerable
            exact = _exact_random_tie_probabilities(a[i].tolist(), t[i].tolist(), k)
            np.testing.assert_allclose(got[i], exact, rtol=0, atol=1e-12)
            checked += 1
    assert checked >= 30


def test_vote_checks_its_operands_against_each_other():
    """Issue #40: a (20, 5) D with 20 labels voted silently with the first 5 labels, a NaN priority made every
    vote class 0, and k beyond the columns, a NaN distance, a short y or a float y failed inside numpy."""
    from lazylib.voting import vote

    x = np.random.default_rng(0).random(20)
    D, y, priority = np.abs(np.subtract.outer(x, x)), np.arange(20) % 2, np.array([0.5, 0.25])
    cases = [
        (dict(D=D[:, :5]), r"y must hold one class per column of D \(5\), got shape \(20,\)"),
        (dict(y=y[:5]), r"y must hold one class per column of D \(20\), got shape \(5,\)"),
        (dict(y=y + 0.5), r"y must hold class indices 0\.\.1"),
        (dict(y=y + 1), r"y must hold class indices 0\.\.1"),
        (dict(priority=np.array([np.nan, 0.1])), "priority must be one finite number per class"),
        (dict(D=np.where(D > 0.5, np.nan, D)), "D must hold distances"),
        (dict(k=100), r"k must be an integer >= 1 and <= 20, got 100"),
    ]
    for change, message in cases:
        args = {"D": D, "y": y, "k": 1, "priority": priority, **change}
        with pytest.raises(ValueError, match=message):
            vote(**args)
    D_inf = D.copy()
    np.fill_diagonal(D_inf, np.inf)  # +inf: never a neighbour (leave-one-out)
    assert vote(D_inf, y, 1, priority).shape == (20,)


def _general_correct(D, y, truth, k, priority, ties, tie_tolerance=1e-9):
    """``voting.correct`` through its general path (candidates sorted, neighbourhood, class probabilities)."""
    from lazylib.search import select
    from lazylib.voting import neighbourhood

    rows, cols, sums = select(D, k, tie_tolerance)
    with np.errstate(invalid="ignore"):  # a row of only infinities: inf - inf where it locates the strictly nearer
        nb = neighbourhood(rows, cols, sums, len(D), y, len(priority), k, tie_tolerance, first=ties == "first")
    return class_probabilities(nb, k, priority, ties)[np.arange(len(D)), truth]


@pytest.mark.parametrize("ties", ["all", "first", "random"])
def test_the_one_neighbour_vote_is_the_general_vote(ties):
    """``correct`` with k = 1 counts the tied neighbours by class without sorting them: the same numbers as its
    general path, on rows with few distinct distances (many ties), infinite entries, a row of only infinities,
    tiny and huge scales, and classes absent from some rows; and a vote on another rule differs."""
    from lazylib.voting import correct

    rng = np.random.default_rng(11)
    n, C, m = 40, 3, 400
    y = rng.integers(0, C, n)
    priority = vote_priority(np.bincount(y, minlength=C))
    D = rng.integers(0, 3, (m, n)).astype(float) * np.repeat([1e-300, 1.0, 1e300], m // 3 + 1)[:m, None]
    D[rng.random((m, n)) < 0.05] = np.inf
    D[0] = np.inf
    D[1, :5] = 1e-12 * np.array([1.0, 1.0 + 1e-10, 1.0 + 1e-8, 2.0, 1.0])  # within, at and beyond the tolerance
    truth = rng.integers(0, C, m)
    got = correct(D, y, truth, 1, priority, ties)
    np.testing.assert_array_equal(got, _general_correct(D, y, truth, 1, priority, ties))
    other = {"all": "first", "first": "random", "random": "all"}[ties]
    assert not np.array_equal(got, _general_correct(D, y, truth, 1, priority, other))


def test_the_one_neighbour_vote_refuses_a_row_with_nan_as_the_general_path_does():
    from lazylib.voting import correct

    D = np.array([[1.0, np.nan, 2.0], [0.5, 1.0, 2.0]])
    for ties in ("all", "first", "random"):
        with pytest.raises(ValueError, match="candidates"):
            correct(D, np.array([0, 1, 1]), np.array([1, 0]), 1, np.array([0.6, 0.3]), ties)


@pytest.mark.parametrize("ties", ["all", "first", "random"])
def test_the_tied_vote_on_class_sorted_columns_is_the_general_vote_with_k_one(ties):
    """MC's scoring votes on class-sorted columns (``voting.tied_vote`` with the stored instances' own indices
    as ``order``): what ``voting.correct`` gives with k = 1 (by either of its paths) on the same rows in the
    stored instances' own order, on rows of few distinct distances (many ties, some classes absent from a row's
    nearest); and it can tell them apart: with the class-sorted order taken for the own order, "first" differs."""
    from lazylib.search import tolerance
    from lazylib.voting import correct, tied_vote

    rng = np.random.default_rng(5)
    n, C, m = 60, 4, 300
    y_own = rng.integers(0, C, n)
    y_own[:3] = [0, 1, 3]  # class 2 may be rare; class 3 present
    order = np.argsort(y_own, kind="stable")
    y = y_own[order]
    priority = vote_priority(np.bincount(y, minlength=C))
    rows = rng.integers(0, 4, (m, n)).astype(float) * 0.5  # class-sorted distances, four distinct values
    rows[rng.random((m, n)) < 0.02] = np.inf
    truth = rng.integers(0, C, m)
    dmin = rows.min(axis=1)
    limit = dmin + tolerance(dmin, 1e-9)
    got = tied_vote(rows <= limit[:, None], y, truth, priority, ties, order)
    back = np.argsort(order)
    expected = correct(rows[:, back], y_own, truth, 1, priority, ties, 1e-9)
    np.testing.assert_array_equal(expected, _general_correct(rows[:, back], y_own, truth, 1, priority, ties))
    np.testing.assert_array_equal(got, expected)
    if ties == "first":  # the own order matters: the class-sorted one gives other voters
        wrong = tied_vote(rows <= limit[:, None], y, truth, priority, ties, np.arange(n))
        assert not np.array_equal(wrong, expected)


@pytest.mark.parametrize("ks", [[1, 2, 4, 7, 12], [12, 1] + [3, 5, 2] * 15], ids=["five", "more-than-candidates"])
@pytest.mark.parametrize("grouped", [False, True])
@pytest.mark.parametrize("leave_one_out", [False, True])
def test_the_counts_of_every_k_from_one_pass_equal_each_k_counted_alone(grouped, leave_one_out, ks):
    """``voting.neighbourhoods`` (a leave-one-out choice of k reads every k from running counts) gives, k for k,
    the counts of :func:`~lazylib.voting.neighbourhood`: on rounded distances (ties within the tolerance at many
    k-th smallest), with groups of identical stored instances and with each query's own instance left out; with
    more values of k than a row has candidates (repeated, unordered: the boundaries found a few k at a time)."""
    from lazylib.search import Groups, select
    from lazylib.voting import neighbourhood, neighbourhoods

    rng = np.random.default_rng(11)
    n_groups, n, C = 30, 25, 3
    of = rng.integers(0, n_groups, 60) if grouped else np.arange(n_groups)
    of[:n_groups] = np.arange(n_groups)  # every group holds a member
    groups = Groups.of_labels(of, n_groups)
    y = rng.integers(0, C, len(of))
    D = np.round(rng.random((n, n_groups)) * 4) / 4
    D *= 1.0 + 1e-11 * rng.random(D.shape)  # ties within the tolerance, not exact
    exclude = None
    if leave_one_out:  # query i is stored instance i, at distance 0 from its own group
        exclude = np.arange(n)
        D[np.arange(n), of[exclude]] = 0.0
    rows, cols, sums = select(D, max(ks) + 1, 1e-9)
    if len(ks) > 5:
        assert len(rows) // n < len(ks)  # so the values of k are taken in several steps
    every = list(neighbourhoods(rows, cols, sums, n, y, C, ks, 1e-9, groups=groups, exclude=exclude))
    assert len(every) == len(ks)
    for k, got in zip(ks, every):
        one = neighbourhood(rows, cols, sums, n, y, C, k, 1e-9, groups=groups, exclude=exclude)
        np.testing.assert_array_equal(got.strict, one.strict)
        np.testing.assert_array_equal(got.tied, one.tied)


def test_the_counts_of_every_k_refuse_a_k_beyond_a_row_s_candidates():
    """A k beyond the candidates of a row is refused as :func:`~lazylib.voting.neighbourhood` refuses it (its
    k-th smallest would be read from the next row), after the counts of the smaller k."""
    from lazylib.search import select
    from lazylib.voting import neighbourhoods

    rows, cols, sums = select(np.array([[0.0, 1.0, 2.0], [2.0, 1.0, 0.5]]), 3, 1e-9)
    found = neighbourhoods(rows, cols, sums, 2, np.array([0, 1, 0]), 2, [2, 4], 1e-9)
    assert next(found).strict.tolist() == [[1, 0], [1, 0]]
    with pytest.raises(ValueError, match="k must be at most the weighted candidates of every row, got k = 4"):
        next(found)


@pytest.mark.parametrize("side", ["left", "right"])
def test_rows_bisected_together_equal_searchsorted_row_by_row(side):
    """``voting.sorted_bound`` (the tied neighbours of every k found by bisecting all rows at once) is
    :func:`numpy.searchsorted` of each row's own bound in its own slice: on tied values, empty and one-entry
    slices, infinite values, NaN last in a row, and NaN and infinite bounds."""
    from lazylib.voting import sorted_bound

    rng = np.random.default_rng(5)
    lengths = np.array([0, 1, 2, 3, 7, 40, 0, 129, 5, 16, 1, 64, 128, 255])
    values = np.concatenate([np.sort(np.round(rng.random(m) * 6) / 2) for m in lengths])
    lo = np.concatenate(([0], np.cumsum(lengths)[:-1]))
    hi = lo + lengths
    values[hi[5] - 3 : hi[5]] = np.nan  # NaN sorts last
    values[hi[7] - 1] = np.inf
    draws = [rng.integers(-1, 8, len(lengths)) / 2 for _ in range(20)]
    for bounds in draws + [np.full(len(lengths), np.nan), np.full(len(lengths), np.inf)]:
        got = sorted_bound(values, lo, hi, bounds, side)
        want = [a + np.searchsorted(values[a:b], t, side=side) if b > a else a for a, b, t in zip(lo, hi, bounds)]
        if np.isnan(bounds).all():
            want = lo  # no value compares below a NaN bound
        np.testing.assert_array_equal(got, want)
    assert sorted_bound(np.empty(0), np.zeros(2, np.intp), np.zeros(2, np.intp), np.zeros(2), side).tolist() == [0, 0]
