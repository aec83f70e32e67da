import random
from itertools import islice

import pytest

from sudoku_cp.backends import get_backend
from sudoku_cp.backends.base import Deadline
from sudoku_cp.backends.dfs.lookahead import LookAhead
from sudoku_cp.grid import Grid

from ...conftest import random_multi_solution
from .conftest import generated, parts


@pytest.mark.parametrize("seed", range(25))
def test_look_ahead_keeps_every_completion(seed):
    # The look-ahead removes failed sides and what neither side of a choice keeps (the dilemma
    # rule): no completion may lose a value it uses.
    rng = random.Random(2000 + seed)
    size, box = rng.choice([(4, (2, 2)), (6, (2, 3)), (6, (3, 2))])
    # 6x6 grids with a few givens have millions of completions: the first 3,000 are checked.
    puzzle = random_multi_solution(
        size, rng.randint(size * size // 4, size * size // 2), seed, box=box
    )
    plain = parts(puzzle)
    start = plain.propagation.initial_candidates()
    assert start is not None
    completions = list(islice(plain.search.completions(start[:]), 3000))
    strong = parts(puzzle, strong=True)
    strong.propagation.matching = (
        True  # all-different consistency too, though these grids are small
    )
    candidates = strong.propagation.initial_candidates()
    assert candidates is not None
    choices = LookAhead(strong.propagation, Deadline(None)).branch(candidates)
    assert choices != []  # the puzzle has completions: the look-ahead must not refute it
    for completion in completions:
        assert all(mask & bit for mask, bit in zip(candidates, completion, strict=True))


def test_look_ahead_cuts_the_uniqueness_proof():
    # unique-16x16 #37: the singles search needs thousands of nodes, the strong one a handful.
    line = generated("unique-16x16.txt")[36]
    singles, strong = get_backend("dfs", lexmin="singles"), get_backend("dfs", lexmin="strong")
    many, few = singles.solve(Grid.parse(line)), strong.solve(Grid.parse(line))
    assert few.solution == many.solution
    assert few.stats["nodes"] * 5 < many.stats["nodes"]
