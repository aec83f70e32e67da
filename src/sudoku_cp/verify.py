"""The one definition of a correct answer, used by solve, crosscheck, bench and the Python API.

Two steps, one vocabulary:

1. `check_completion` / `check_result`: is one answer right *on its own*? A completion must keep
   every given, leave no blank and repeat no value in a row, column or box; the violations are
   structured (`Violation`: which rule, which cells) with a one-line `describe()`. A count must lie
   in 0..limit and fit the status.
2. `compare`: answers that pass on their own are compared, per mode. A valid completion *proves*
   an `unsatisfiable` answer wrong, and in lexmin mode proves every larger completion is not the
   lex-min (no completion is smaller than the lex-min), so the wrong side is named, not guessed.
   Counts cannot be proved here: differing counts are a `disagree`, with the most common count as
   the reference (on a tie every backend disagrees).

A run's status is a `RunStatus`: the backend's own `solved`, `unsatisfiable`, `timeout`, or
`wrong` (it failed a check: the reason says which) or `error` (the backend raised or its worker
died). A puzzle's `Verdict` over several runs is the worst finding.
"""

from __future__ import annotations

import collections
import enum
import operator
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .grid import BLANK, Grid, value_symbol
from .result import Mode, RunStatus, SolveResult, Status, Verdict
from .text import article


class Rule(str, enum.Enum):
    """The rules a completion can break."""

    SHAPE = "shape"  # not even a grid of the puzzle's size and box shape
    GIVEN_CHANGED = "given changed"
    BLANK_LEFT = "blank left"
    ROW_REPEAT = "row repeat"
    COLUMN_REPEAT = "column repeat"
    BOX_REPEAT = "box repeat"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Violation:
    """One broken rule: which rule, the cells involved, the value, and the unit (1-based)."""

    rule: Rule
    cells: tuple[int, ...] = ()
    value: int | None = None
    unit: int | None = None  # the row, column or box number, 1-based
    size: int = 0  # to name cells as row/column

    def describe(self) -> str:
        """One line, such as 'changes the given 5 at row 1, column 3'."""
        if self.rule is Rule.SHAPE:
            shape = f"{article(self.size)} {self.size}x{self.size}"
            return f"not {shape} grid of the puzzle's box shape"
        if self.rule is Rule.GIVEN_CHANGED:
            return f"changes the given {_symbol(self.value)} at {self._cell(self.cells[0])}"
        if self.rule is Rule.BLANK_LEFT:
            more = f" (and {len(self.cells) - 1} more blanks)" if len(self.cells) > 1 else ""
            return f"leaves {self._cell(self.cells[0])} blank{more}"
        kind = self.rule.value.split()[0]
        counts = {2: "two", 3: "three", 4: "four"}
        return (
            f"{kind} {self.unit} has {counts.get(len(self.cells), str(len(self.cells)))} "
            f"{_symbol(self.value)}s"
        )

    def _cell(self, cell: int) -> str:
        return f"row {cell // self.size + 1}, column {cell % self.size + 1}"


def _symbol(value: int | None) -> str:
    return "?" if value is None else value_symbol(value)


@dataclass(frozen=True)
class CompletionCheck:
    """What the checker found in one answer: no violation means a correct completion."""

    violations: tuple[Violation, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.violations

    def __bool__(self) -> bool:
        return self.ok

    def describe(self) -> str:
        """One line: the first violation, and how many more there are."""
        if not self.violations:
            return "a correct completion"
        first = self.violations[0].describe()
        more = len(self.violations) - 1
        return f"{first} (and {more} more violation{'s' if more > 1 else ''})" if more else first


def check_completion(puzzle: Grid, answer: Grid) -> CompletionCheck:
    """Every rule `answer` breaks as a completion of `puzzle`: givens, blanks, repeats."""
    size = puzzle.size
    if answer.size != size or answer.box != puzzle.box:
        return CompletionCheck((Violation(Rule.SHAPE, size=size),))
    kept = list(map(operator.mul, map(bool, puzzle.values), answer.values))  # C-level loops
    violations = (
        []
        if kept == list(puzzle.values)
        else [
            Violation(Rule.GIVEN_CHANGED, (cell,), value, size=size)
            for cell, value in enumerate(puzzle.values)
            if value != BLANK and answer.values[cell] != value
        ]
    )
    blanks = (
        ()
        if BLANK not in answer.values
        else tuple(cell for cell, value in enumerate(answer.values) if value == BLANK)
    )
    if blanks:
        violations.append(Violation(Rule.BLANK_LEFT, blanks, size=size))
    geo = answer.geometry
    rules = (Rule.ROW_REPEAT, Rule.COLUMN_REPEAT, Rule.BOX_REPEAT)
    for unit_index, (unit, values_of) in enumerate(zip(geo.units, geo.unit_getters, strict=True)):
        values = (
            [value for value in values_of(answer.values) if value != BLANK]
            if blanks
            else values_of(answer.values)
        )
        if len(set(values)) == len(values):
            continue  # the common case: one set per unit, no detailed scan
        seen: dict[int, list[int]] = {}
        for cell in unit:
            if answer.values[cell] != BLANK:
                seen.setdefault(answer.values[cell], []).append(cell)
        kind, number = divmod(unit_index, size)
        for value, cells in seen.items():
            if len(cells) > 1:
                violations.append(Violation(rules[kind], tuple(cells), value, number + 1, size))
    return CompletionCheck(tuple(violations))


def check_result(
    puzzle: Grid, result: SolveResult, completions: dict[Grid, CompletionCheck] | None = None
) -> str | None:
    """Why one backend's answer is wrong on its own, or None when it passes every check.

    `completions` caches `check_completion` by grid, for runs that share an answer.
    """
    if result.mode is Mode.COUNT and result.status is not Status.TIMEOUT:
        count, limit = result.count, result.limit
        if count is None or count < 0 or (limit is not None and count > limit):
            return f"count {count} is outside 0..{limit}"
        if (count > 0) != (result.status is Status.SOLVED):
            return f"count {count} does not fit the status {result.status}"
    if result.status is not Status.SOLVED:
        return None
    if result.solution is None:
        return None if result.mode is Mode.COUNT else "reported solved without a completion"
    if completions is None:
        check = check_completion(puzzle, result.solution)
    else:
        if result.solution not in completions:
            completions[result.solution] = check_completion(puzzle, result.solution)
        check = completions[result.solution]
    if check.ok:
        return None
    return (
        f"its first completion {check.describe()}"
        if result.mode is Mode.COUNT
        else check.describe()
    )


@dataclass
class Comparison:
    """What `compare` found for one puzzle: each run's status and reason by name, the runs
    whose count differs from the reference, the findings (one line each, worst first) and the
    puzzle's verdict."""

    statuses: dict[str, RunStatus]
    reasons: dict[str, str | None]
    disagreeing: set[str] = field(default_factory=set)
    findings: list[str] = field(default_factory=list)
    verdict: Verdict = Verdict.AGREE

    def mark_wrong(self, name: str, reason: str) -> None:
        self.statuses[name] = RunStatus.WRONG
        self.reasons[name] = reason
        self.findings.append(f"{name}: wrong: {reason}")

    def named(self, status: RunStatus) -> list[str]:
        return [name for name, found in self.statuses.items() if found is status]


def compare(
    results: Mapping[str, SolveResult | None],
    puzzle: Grid,
    mode: Mode,
    errors: Mapping[str, str] | None = None,
    *,
    uncertified: Mapping[str, str] | None = None,
) -> Comparison:
    """Check every run on its own, then against each other.

    `results` maps a run's name (a backend label, with a repeat suffix when repeated) to its
    result, None when the backend failed (`errors` says why). `uncertified` names the runs
    whose answer a proof checker refused (`--certify`), with why: each is wrong, whatever the
    verifier says of its grid (a valid completion that is not the smallest, say).
    """
    errors = errors or {}
    uncertified = uncertified or {}
    found = Comparison({}, {})
    completions: dict[Grid, CompletionCheck] = {}  # runs that agree share one check of their grid
    for name, result in results.items():
        if result is None:
            found.statuses[name], found.reasons[name] = (
                RunStatus.ERROR,
                errors.get(name, "no result"),
            )
            continue
        own = check_result(puzzle, result, completions) or uncertified.get(name)
        found.statuses[name] = RunStatus.WRONG if own else RunStatus(result.status.value)
        found.reasons[name] = own or result.reason
    found.findings += [
        f"{name}: wrong: {found.reasons[name]}" for name in found.named(RunStatus.WRONG)
    ]
    valid = {
        name: result
        for name, result in results.items()
        if result is not None and found.statuses[name].answered
    }
    if mode is Mode.COUNT:
        # A valid completion refutes 'unsatisfiable' (count 0) whatever the counts say.
        _refute_unsatisfiable(valid, found)
        _compare_counts(
            {name: result for name, result in valid.items() if found.statuses[name].answered}, found
        )
    else:
        _compare_answers(valid, found, mode)
    found.findings += [
        f"{name}: error: {found.reasons[name]}" for name in found.named(RunStatus.ERROR)
    ]
    found.findings += [
        f"{name}: timeout" + (f" ({found.reasons[name]})" if found.reasons[name] else "")
        for name in found.named(RunStatus.TIMEOUT)
    ]
    found.verdict = _verdict(found)
    return found


def _verdict(found: Comparison) -> Verdict:
    statuses = set(found.statuses.values())
    if RunStatus.WRONG in statuses:
        return Verdict.WRONG
    if found.disagreeing:
        return Verdict.DISAGREE
    if RunStatus.ERROR in statuses:
        return Verdict.ERROR
    if RunStatus.TIMEOUT in statuses:
        return Verdict.TIMEOUT
    return Verdict.AGREE


def _compare_answers(valid: Mapping[str, SolveResult], found: Comparison, mode: Mode) -> None:
    """A valid completion proves `unsatisfiable` wrong and, in lexmin, every larger one."""
    solved = {
        name: result
        for name, result in valid.items()
        if result.status is Status.SOLVED and result.solution is not None
    }
    if not solved:
        return
    best_name = (
        min(solved, key=lambda name: _values(solved[name]))
        if mode is Mode.LEXMIN
        else next(iter(solved))
    )
    best = _values(solved[best_name])
    for name, result in valid.items():
        if result.status is Status.UNSATISFIABLE:
            found.mark_wrong(name, f"says unsatisfiable, but {best_name}'s completion is valid")
        elif mode is Mode.LEXMIN and _values(result) != best:
            found.mark_wrong(
                name,
                f"not the lex-min: {best_name}'s completion is smaller (first "
                f"difference at {_first_difference(_values(result), best, result)})",
            )


def _refute_unsatisfiable(valid: Mapping[str, SolveResult], found: Comparison) -> None:
    witness = next(
        (
            name
            for name, result in valid.items()
            if result.status is Status.SOLVED and result.solution is not None
        ),
        None,
    )
    if witness is None:
        return
    for name, result in valid.items():
        if result.status is Status.UNSATISFIABLE:
            found.mark_wrong(name, f"says unsatisfiable, but {witness}'s completion is valid")


def _values(result: SolveResult) -> tuple[int, ...]:
    assert result.solution is not None
    return result.solution.values


def _first_difference(values: Sequence[int], other: Sequence[int], result: SolveResult) -> str:
    assert result.solution is not None
    size = result.solution.size
    cell = next(cell for cell, (a, b) in enumerate(zip(values, other, strict=True)) if a != b)
    return f"row {cell // size + 1}, column {cell % size + 1}"


def _compare_counts(valid: Mapping[str, SolveResult], found: Comparison) -> None:
    counts = {name: result.count or 0 for name, result in valid.items()}
    tally = collections.Counter(counts.values()).most_common()
    if len(tally) <= 1:
        return
    reference = tally[0][0] if tally[0][1] > tally[1][1] else None
    found.disagreeing |= {name for name, count in counts.items() if count != reference}
    shown = ", ".join(
        f"{name} {count}{'+' if valid[name].limit_reached else ''}"
        for name, count in counts.items()
    )
    found.findings.append(f"counts differ: {shown}")


# Worst first: a puzzle's outcome over its repeats is the worst of their statuses.
WORST_FIRST = (
    RunStatus.WRONG,
    RunStatus.ERROR,
    RunStatus.TIMEOUT,
    RunStatus.UNSATISFIABLE,
    RunStatus.SOLVED,
)


def worst(statuses: Sequence[RunStatus | str]) -> RunStatus:
    """The worst of several run statuses (a puzzle's outcome over its repeats)."""
    return min((RunStatus(status) for status in statuses), key=WORST_FIRST.index)


__all__ = [
    "WORST_FIRST",
    "CompletionCheck",
    "Comparison",
    "Rule",
    "Violation",
    "check_completion",
    "check_result",
    "compare",
    "worst",
]
