"""One helper for ``random_state`` (:func:`lazylib._validation.check_random_state`), giving exactly the streams
that ``numpy.random.default_rng`` gave before every module went through it: the book's numbers depend on it."""

import re
from pathlib import Path

import numpy as np
import pytest

import lazylib
from lazylib._validation import check_random_state

SEEDS = [
    0,
    1,
    42,
    1997,
    2**31 - 2,
    2**32 + 5,
    2**63 + 1,
    np.int64(7),
    np.uint32(2**32 - 1),
    [1, 2, 3],
    (4, 5),
    [0],
    [2**40, 0, 17],
]


def _state(generator: np.random.Generator) -> dict:
    return generator.bit_generator.state


@pytest.mark.parametrize("seed", SEEDS, ids=repr)
def test_seeds_give_the_stream_of_default_rng(seed):
    ours, numpy = check_random_state(seed), np.random.default_rng(seed)
    assert _state(ours) == _state(numpy)
    np.testing.assert_array_equal(ours.integers(0, 2**32 - 1, 50), numpy.integers(0, 2**32 - 1, 50))
    np.testing.assert_array_equal(ours.permutation(100), numpy.permutation(100))


def test_a_generator_is_used_as_it_is():
    generator = np.random.default_rng(3)
    generator.random(5)  # a stream already started continues where it is
    assert check_random_state(generator) is generator


def test_seed_sequences_and_bit_generators_give_the_stream_of_default_rng():
    assert _state(check_random_state(np.random.SeedSequence(11))) == _state(
        np.random.default_rng(np.random.SeedSequence(11))
    )
    bits = np.random.PCG64(12)
    assert check_random_state(bits).bit_generator is bits


@pytest.mark.parametrize("bad", [-1, 1.5, "0", True, np.bool_(True), [1, -2], [], np.random.RandomState(0)])
def test_what_is_not_a_seed_is_refused(bad):
    with pytest.raises(ValueError, match="random_state"):
        check_random_state(bad)


def test_every_user_facing_random_state_goes_through_the_helper():
    """Outside the helper, ``default_rng`` only seeds streams from seeds the library derives itself (an int
    already validated, as in :mod:`lazylib.protocols.wilson1997.protocol`), or in examples."""
    allowed = {
        "_validation.py",  # the helper
        "search.py",  # a fixed internal stream, not user-facing
        "metrics/_engine.py",  # a fixed internal stream hashing rows to find distinct ones, not user-facing
        "protocols/bench/stats.py",  # baycomp's own draws, RandomState(seed), reproduced to equal its posterior
        "protocols/wilson1997/protocol.py",  # seeds derived from dataset_seed (random_state validated as an int there)
        "protocols/shared.py",  # prepare's subset, seeded by dataset_seed (random_state validated as an int there)
        "protocols/guvenir1998/protocol.py",  # one stream per repetition, from seeds drawn with check_random_state
    }
    root = Path(lazylib.__file__).parent
    offending = []
    for path in sorted(root.rglob("*.py")):
        name = path.relative_to(root).as_posix()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if (
                re.search(r"default_rng\(|RandomState\(", line)
                and not line.strip().startswith(">>>")
                and name not in allowed
            ):
                offending.append(f"{name}:{number}: {line.strip()}")
    assert not offending, "\n".join(offending)
