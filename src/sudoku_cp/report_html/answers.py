"""The answers of one puzzle entry as the HTML report draws them: each distinct grid once, the
reference among them, and the cells to highlight, found by the one verifier (`verify`).

A cell is marked for what is wrong with it: a rule the answer breaks there (a changed given, a
blank left, a value repeated in a row, column or box: `verify.check_completion`), else a
difference from the reference answer (the smallest valid completion in lexmin mode, the most
common valid one otherwise). Entries whose runs all gave one answer and were all judged
right are not checked again: there is nothing to mark.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..errors import SudokuError
from ..grid import Grid
from ..result import Mode, RunStatus
from ..results_log.records import PuzzleEntry, Run
from ..verify import Rule, check_completion

# The mark of a cell, by code: 0 a difference from the reference, then the verifier's rules.
MARKS: tuple[str, ...] = (
    "differs",
    str(Rule.GIVEN_CHANGED),
    str(Rule.BLANK_LEFT),
    str(Rule.ROW_REPEAT),
    str(Rule.COLUMN_REPEAT),
    str(Rule.BOX_REPEAT),
    str(Rule.SHAPE),
)
DIFFERS = 0


@dataclass
class Answers:
    """The distinct answer grids of an entry (as written in the log), which one is the
    reference (None when no run's answer is a valid completion), and per answer the marked
    cells as (cell, mark code) pairs and the verifier's findings, one line each."""

    grids: list[str] = field(default_factory=list)
    reference: int | None = None
    marks: list[list[tuple[int, int]]] = field(default_factory=list)
    problems: list[list[str]] = field(default_factory=list)

    def index(self, line: str | None) -> int | None:
        """The position of an answer grid among the distinct ones (None for no grid)."""
        return None if line is None else self.grids.index(line)


def answers_of(entry: PuzzleEntry) -> Answers:
    """The answers of one results-log puzzle entry, checked and marked."""
    runs = entry.runs
    grids = list(dict.fromkeys(run.grid_text for run in runs if run.grid_text))
    found = Answers(grids, marks=[[] for _ in grids], problems=[[] for _ in grids])
    if not grids:
        return found
    found.reference = _reference(runs, grids, entry.mode)
    all_right = all(run.status is not RunStatus.WRONG for run in runs)
    if len(grids) == 1 and all_right:
        return found  # one answer, judged right: nothing to mark
    try:
        box = entry.shape()
        puzzle = Grid.parse(entry.puzzle, box=box)
        parsed = [Grid.parse(line, box=box) for line in grids]
    except SudokuError as error:  # a hand-edited log: show the grids as they are, unmarked
        found.problems[0].append(f"cannot be checked: {error}")
        return found
    reference = None if found.reference is None else parsed[found.reference]
    for number, grid in enumerate(parsed):
        found.marks[number], found.problems[number] = _marks(puzzle, grid, reference)
    return found


def _reference(runs: Sequence[Run], grids: Sequence[str], mode: Mode) -> int | None:
    """The answer the others are compared with: among the solved runs' answers, the smallest
    (lexmin: the lex-min when anyone found it), else the most common (first on a tie)."""
    solved = [run.solution for run in runs if run.status is RunStatus.SOLVED and run.solution]
    if not solved:
        return None
    if len(set(solved)) == 1:
        return grids.index(solved[0])
    lexmin = mode is Mode.LEXMIN
    best = min(solved, key=_values) if lexmin else Counter(solved).most_common(1)[0][0]
    return grids.index(best)


def _values(line: str) -> tuple[int, ...]:
    try:
        return Grid.parse(line).values
    except SudokuError:
        return ()


def _marks(
    puzzle: Grid, answer: Grid, reference: Grid | None
) -> tuple[list[tuple[int, int]], list[str]]:
    """The marked cells of one answer (a broken rule wins over a difference) and the
    verifier's findings."""
    check = check_completion(puzzle, answer)
    marks: dict[int, int] = {}
    for violation in check.violations:
        code = MARKS.index(str(violation.rule))
        for cell in violation.cells:
            marks.setdefault(cell, code)
    if reference is not None and reference.size == answer.size and reference != answer:
        for cell, (mine, theirs) in enumerate(zip(answer.values, reference.values, strict=True)):
            if mine != theirs:
                marks.setdefault(cell, DIFFERS)
    return sorted(marks.items()), [violation.describe() for violation in check.violations]


__all__ = ["DIFFERS", "MARKS", "Answers", "answers_of"]
