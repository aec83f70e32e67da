"""The backend contract suite, published so that a plugin author checks a backend in one line.

Every backend keeps one contract (see `sudoku_cp.backends.Backend`) for every mode, size and
option value. Run it on a registry name (a plugin's entry-point name) or on a Backend class:

    from sudoku_cp.testing import contract_tests
    test_contract = contract_tests("naive")          # in a pytest module: one test per case

    from sudoku_cp.testing import assert_backend, check_backend
    assert_backend("naive")                          # raises AssertionError listing failures
    failures = check_backend(MyBackend, sizes=(4, 9)) # the failures as lines ([] when all pass)

It runs on the backend's defaults, then on each declared value of each option with the others at
their defaults, then on the `combinations` given (`"model=integer,counts=on|off"`); options given
by keyword hold throughout (`every_value=False`: that one configuration). Every configuration
runs the core cases, one after the other on a warm backend of its own: exact lex-min answers
(known ones, and the naive row-major DFS's), givens kept in every mode, counts against a
brute-force count, contradictions UNSATISFIABLE in every mode, a solved grid answering itself,
a time limit giving TIMEOUT or a right answer, plain JSON stats. The defaults alone also run
what costs seconds or belongs to the class, not to an option value: the declarations, the 16x16
answers, the puzzle built against naive backtracking, and a batch answered warm and by fresh
backends (a new backend per puzzle and mode); a warm state leaking from one puzzle into the next
shows on every configuration anyway, in the core cases that follow one another.

`sizes` chooses the grid sizes (a backend meant for small grids leaves out 16); `quick=True`
leaves out the cases that need a real solver on hard 9x9 puzzles (the grid built against naive
backtracking, a 17-clue puzzle counted to the end) and the 25x25 time limit.
Importing this package does not import pytest; `contract_tests` does.
"""

from __future__ import annotations

from .cases import ContractCase, contract_cases
from .options import contract_configurations
from .puzzles import (
    ANTI_BACKTRACK,
    BAEKJOON_2239,
    BAEKJOON_2239_ANSWER,
    COUNT_LIMIT,
    EMPTY_4_LEXMIN,
    EMPTY_6_LEXMIN,
    EMPTY_9_LEXMIN,
    EMPTY_16_LEXMIN_ROWS_1_2,
    G17,
    KNOWN_COUNTS,
    UNSOLVABLE_4,
    brute_force_count,
    count_batch,
    full_grid,
    naive_lexmin,
    random_multi_solution,
)
from .suite import assert_backend, check_backend, contract_tests

__all__ = [
    "ANTI_BACKTRACK",
    "BAEKJOON_2239",
    "BAEKJOON_2239_ANSWER",
    "COUNT_LIMIT",
    "ContractCase",
    "EMPTY_16_LEXMIN_ROWS_1_2",
    "EMPTY_4_LEXMIN",
    "EMPTY_6_LEXMIN",
    "EMPTY_9_LEXMIN",
    "G17",
    "KNOWN_COUNTS",
    "UNSOLVABLE_4",
    "assert_backend",
    "brute_force_count",
    "check_backend",
    "contract_cases",
    "contract_configurations",
    "contract_tests",
    "count_batch",
    "full_grid",
    "naive_lexmin",
    "random_multi_solution",
]
