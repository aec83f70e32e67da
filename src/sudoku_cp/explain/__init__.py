"""How a person would solve a puzzle, checked by machine: a step-wise explanation by human
techniques (easiest first), a rating, a check of every step against the puzzle's completions,
and a minimal set of givens with no completion (an unsatisfiable core).

    from sudoku_cp.explain import explain
    explanation = explain(grid, complete=True)
    explanation.status, explanation.rating, explanation.steps
"""

from __future__ import annotations

from .board import Board
from .path import explain
from .steps import (
    CONTRADICTION,
    CONTRADICTION_LEVEL,
    SUBSETS_LEVEL,
    TECHNIQUES,
    Explanation,
    Rating,
    Step,
    parse_techniques,
)

__all__ = [
    "CONTRADICTION",
    "CONTRADICTION_LEVEL",
    "SUBSETS_LEVEL",
    "TECHNIQUES",
    "Board",
    "Explanation",
    "Rating",
    "Step",
    "explain",
    "parse_techniques",
]
