"""Puzzle generation: unique, multi, unsat and adversarial puzzles of any size, from a seed.

Reproducible: the puzzles are a function of (kind, size, box, givens range, seed, index) and of the
package version. Every random choice is drawn from `random.Random` objects seeded from `seed`
(never the global generator), and every solver call asks an exact question with no time limit
(how many completions, up to a limit), so which counting backend answers changes the speed only.
Puzzle i depends on the seed and i alone, never on how many puzzles are asked for, so a run with
`count=5` yields the first five puzzles of a run with `count=50`. A later version may change the
algorithms and so the puzzles; `data/README.md` names the version that made each data file.

The kinds:
    unique       exactly one completion: a random completed grid, then givens removed in random
                 order while the completion stays unique, down to a target drawn from the givens
                 range (or until every given left is needed: a minimal puzzle).
    multi        at least two completions, counted up to `solution_limit`: the cells of a random
                 "swap cycle" of the completed grid (two values that can trade places) are blanked,
                 so a second completion exists whatever else is kept. Above 25x25 the limit is 2,
                 which the construction itself proves, so no solver is called (see
                 `multi_solution_limit`).
    unsat        no completion, yet no two equal givens in any unit: a unique puzzle with one given
                 changed to a value none of its peers hold, checked to have no completion.
    adversarial  a unique puzzle on which the naive row-major DFS needs many nodes: its values are
                 relabelled so that the solution's first row reads N..1, the blanks of the top
                 rows then cost the naive search the most backtracking; of several symmetric
                 variants the one with the most naive nodes is kept (counted up to `node_limit`).

The modules, along a run: `request` (what is asked), `filling` (completed grids), `counting`
(the exact questions), `uniqueness` (the removal's questions on a kept SAT solver), `removal`
(the unique kind), `kinds` (the other kinds and the run) and `output` (writing the puzzles).
"""

from __future__ import annotations

from ..errors import GenerateError
from .counting import (
    PHASES,
    SAT_COUNTS_FROM_SIZE,
    CompletionCounter,
    Effort,
    counting_backend_name,
    sat_backend_usable,
)
from .filling import (
    FILL_ATTEMPTS,
    FILL_TIME_LIMIT,
    PATTERN_FILL_ABOVE_SIZE,
    SWAP_WALK_STEPS_PER_VALUE,
    pattern_grid,
    random_completed_grid,
    random_first_row_and_column,
    relabel_first_row_descending,
    shuffle_grid,
    smallest_swap_cycle,
    swap_cycles,
    swap_walk,
    swapped,
    transpose,
)
from .kinds import (
    UNSAT_ATTEMPTS,
    adversarial_puzzle,
    changed_given_without_completion,
    generate,
    generate_one,
    multi_puzzle,
    puzzle_rngs,
    symmetric_variant,
    unsat_puzzle,
)
from .output import (
    KIND_DESCRIPTIONS,
    command_line,
    fact_comment,
    header_lines,
    interrupted_line,
    json_record,
    slow_note,
    summary_line,
    why_outside,
)
from .removal import (
    EXCHANGE_FROM_SIZE,
    EXCHANGE_MOVES_PER_CELL,
    UNIQUE_ATTEMPTS,
    exchange_givens,
    is_forced,
    remove_givens_while_unique,
    unique_puzzle,
)
from .request import (
    ADVERSARIAL_VARIANTS,
    DEFAULT_GIVENS,
    FULL_COUNT_UP_TO_SIZE,
    NAIVE_NODE_LIMIT,
    SLOW_FROM_SIZE,
    SOLUTION_LIMIT,
    GeneratedPuzzle,
    GivensRange,
    Kind,
    Request,
    default_givens,
    make_request,
    most_multi_givens,
    multi_solution_limit,
    parse_givens_range,
)
from .uniqueness import UNIQUENESS_SOLVER, UniquenessChecks, Witness

__all__ = [
    "ADVERSARIAL_VARIANTS",
    "CompletionCounter",
    "DEFAULT_GIVENS",
    "EXCHANGE_FROM_SIZE",
    "EXCHANGE_MOVES_PER_CELL",
    "Effort",
    "FILL_ATTEMPTS",
    "FILL_TIME_LIMIT",
    "FULL_COUNT_UP_TO_SIZE",
    "GenerateError",
    "GeneratedPuzzle",
    "GivensRange",
    "KIND_DESCRIPTIONS",
    "Kind",
    "NAIVE_NODE_LIMIT",
    "PATTERN_FILL_ABOVE_SIZE",
    "PHASES",
    "Request",
    "SAT_COUNTS_FROM_SIZE",
    "SLOW_FROM_SIZE",
    "SOLUTION_LIMIT",
    "SWAP_WALK_STEPS_PER_VALUE",
    "UNIQUENESS_SOLVER",
    "UNIQUE_ATTEMPTS",
    "UNSAT_ATTEMPTS",
    "UniquenessChecks",
    "Witness",
    "adversarial_puzzle",
    "changed_given_without_completion",
    "command_line",
    "counting_backend_name",
    "default_givens",
    "exchange_givens",
    "fact_comment",
    "generate",
    "generate_one",
    "header_lines",
    "interrupted_line",
    "is_forced",
    "json_record",
    "make_request",
    "most_multi_givens",
    "multi_puzzle",
    "multi_solution_limit",
    "parse_givens_range",
    "pattern_grid",
    "puzzle_rngs",
    "random_completed_grid",
    "random_first_row_and_column",
    "relabel_first_row_descending",
    "remove_givens_while_unique",
    "sat_backend_usable",
    "shuffle_grid",
    "slow_note",
    "smallest_swap_cycle",
    "summary_line",
    "swap_cycles",
    "swap_walk",
    "swapped",
    "symmetric_variant",
    "transpose",
    "unique_puzzle",
    "unsat_puzzle",
    "why_outside",
]
