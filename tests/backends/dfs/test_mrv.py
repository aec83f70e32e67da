import random
from itertools import islice

import pytest

from sudoku_cp.backends.dfs.tables import cell_choices, most_constrained

from ...conftest import random_multi_solution
from .conftest import parts


def _reference_completions(propagation, candidates):
    """The MRV search with values ascending, each child propagated by `assume` (the scanning
    singles): the order that the bit-parallel plain search must keep."""
    stack = [candidates]
    while stack:
        node = stack.pop()
        cell = most_constrained(node)
        if cell < 0:
            yield node
            continue
        # cell_choices lists the largest value first: pushed in that order, the smallest is
        # popped first.
        for _, bit in cell_choices(cell, node[cell]):
            child = propagation.assume(node, cell, bit)
            if child is not None:
                stack.append(child)


@pytest.mark.parametrize("seed", range(30))
def test_plain_search_keeps_the_scanning_search_order(seed):
    # `any` must keep its completion (the generated data sets depend on it), and count its
    # completions in the same order: the bit-parallel `settle` must reach the fixpoint of
    # `singles` at every node that has a completion.
    rng = random.Random(seed)
    size, box = rng.choice([(4, (2, 2)), (6, (2, 3)), (9, (3, 3)), (9, (3, 3)), (12, (3, 4))])
    puzzle = random_multi_solution(size, rng.randint(size, size * size // 3), seed, box=box)
    found = parts(puzzle)
    candidates = found.propagation.initial_candidates()
    assert candidates is not None
    expected = list(islice(_reference_completions(found.propagation, candidates), 25))
    assert list(islice(found.search.completions(candidates), 25)) == expected
