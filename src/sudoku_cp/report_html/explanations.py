"""The explanation of each puzzle of a report, for the puzzle view's step-through: `explain`
without `complete` (a stuck puzzle shows its steps until stuck), for grids up to
`EXPLAIN_MAX_SIZE` and the first `EXPLAIN_MAX_PUZZLES` distinct puzzles of the log; the others
get the reason they have none."""

from __future__ import annotations

from typing import Any

from ..errors import SudokuError
from ..explain import explain
from ..grid import Grid
from ..results_log.records import PuzzleEntry

EXPLAIN_MAX_SIZE = 16
EXPLAIN_MAX_PUZZLES = 2000


def explanation_of(grid: Grid) -> dict[str, Any]:
    """The compact explanation the page reads: `st` the status, `why` for unsatisfiable,
    `s` the steps, each `[text, placements, eliminations]` with the text as `explain` prints
    it (rows and columns 1-based) and the candidates as flat `[cell, value, ...]` (cells
    0-based, row by row)."""
    conflicts = grid.conflicts()
    if conflicts:
        return {"none": f"not a valid puzzle: {conflicts[0].describe()}"}
    explanation = explain(grid)
    data: dict[str, Any] = {
        "st": explanation.status,
        "s": [
            [
                step.describe(grid.size),
                [number for candidate in step.placements for number in candidate],
                [number for candidate in step.eliminations for number in candidate],
            ]
            for step in explanation.steps
        ],
    }
    if explanation.contradiction is not None:
        data["why"] = explanation.contradiction
    return data


def puzzle_explanations(
    entries: list[PuzzleEntry],
    *,
    max_size: int = EXPLAIN_MAX_SIZE,
    max_puzzles: int = EXPLAIN_MAX_PUZZLES,
) -> list[dict[str, Any]]:
    """One explanation per entry (the same puzzle explained once), or `{"none": reason}`."""
    known: dict[tuple[str, tuple[int, int] | None], dict[str, Any]] = {}
    found = []
    for entry in entries:
        box = entry.shape()
        key = (entry.puzzle, box)
        if key not in known:
            if entry.size > max_size:
                known[key] = {"none": f"grids over {max_size}x{max_size} are not explained"}
            elif len(known) >= max_puzzles:
                found.append(
                    {"none": f"only the first {max_puzzles:,} distinct puzzles are explained"}
                )
                continue
            else:
                try:
                    known[key] = explanation_of(Grid.parse(entry.puzzle, box=box))
                except SudokuError as error:
                    known[key] = {"none": f"not explained: {error}"}
        found.append(known[key])
    return found


__all__ = ["EXPLAIN_MAX_PUZZLES", "EXPLAIN_MAX_SIZE", "explanation_of", "puzzle_explanations"]
