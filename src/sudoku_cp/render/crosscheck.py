"""Crosscheck as text (pure: returns text): the summary table, and every puzzle that did not
simply agree, the answers of a wrong or disagreeing one drawn side by side."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..agreement import CrosscheckTally, Summary
from ..errors import SudokuError
from ..grid import BLANK, Grid, Shape, symbol_value, value_symbol
from ..result import RunStatus, Verdict
from ..results_log.records import PuzzleEntry, Run
from ..text import plural
from .text import aligned, certified_line, label_legend, wrapped


def render_crosscheck_summary(summary: Summary, shorts: Mapping[str, str] | None = None) -> str:
    """The summary table (configurations by their short labels, `shorts`, with a legend when one
    differs from the full label): per configuration its tallies and times, then the totals."""
    shorts = shorts or {}
    rows: list[tuple[str, ...]] = [("backend", "", "total s", "median ms")]
    tallies: list[tuple[str, ...]] = [("solved", "unsat", "timeout", "wrong", "disagree", "error")]
    for backend in summary.backends:
        tallied = (
            backend.solved,
            backend.unsatisfiable,
            backend.timeouts,
            backend.wrong,
            backend.disagreements,
            backend.errors,
        )
        tallies.append(tuple(str(count) for count in tallied))
        median = backend.median_seconds
        rows.append(
            (
                shorts.get(backend.name, backend.name),
                "",
                f"{backend.total_seconds:.3f}",
                "-" if median is None else f"{1000 * median:.2f}",
            )
        )
    counted = aligned(tallies, text_columns=0, gap=" ")
    table = [(row[0], tally, *row[2:]) for row, tally in zip(rows, counted, strict=True)]
    names = ", ".join(shorts.get(backend.name, backend.name) for backend in summary.backends)
    lines = [
        wrapped(
            f"crosscheck --mode {summary.mode}: {names}"
            + (" (interrupted)" if summary.interrupted else "")
        )
    ]
    lines += aligned(table)
    lines += label_legend(
        {backend.name: shorts.get(backend.name, backend.name) for backend in summary.backends}
    )
    lines.append("median ms: over the answered runs, never a timeout; total s: every run")
    counts = ", ".join(f"{summary.verdicts.get(verdict, 0)} {verdict}" for verdict in Verdict)
    lines.append(f"{plural(summary.puzzles, 'puzzle')}: {counts}")
    if summary.certifying or summary.claims:
        lines.append(certified_line(summary.certified, summary.claims))
    if summary.bad_input:
        lines.append(
            f"{plural(summary.bad_input, 'input line')} "
            f"{'is' if summary.bad_input == 1 else 'are'} not a puzzle (not run)"
        )
    session = plural(summary.session_puzzles, "puzzle")
    if summary.resumed:
        lines.append(f"resumed: {plural(summary.resumed, 'puzzle')} from the results log")
        session = f"this session: {session}"
    rate = summary.puzzles_per_second
    if summary.wall_seconds is not None:
        speed = f", {rate:.1f} puzzles/s" if rate is not None else ""
        lines.append(f"{session} in {summary.wall_seconds:.1f} s{speed}")
    return "\n".join(lines)


def render_findings(entries: Iterable[PuzzleEntry], *, hidden_timeouts: int = 0) -> str:
    """Every puzzle that did not simply agree, most severe first, disagreements side by side.

    Wrong answers and disagreements are drawn in full, with a legend; errors and timeouts take
    a few lines each; `hidden_timeouts` more timeouts were not kept (a tight time limit on a big
    set would bury everything else).
    """
    groups: dict[Verdict, list[PuzzleEntry]] = {verdict: [] for verdict in Verdict}
    for entry in entries:
        groups[entry.verdict].append(entry)
    blocks = [
        render_side_by_side(entry)
        for verdict in (Verdict.WRONG, Verdict.DISAGREE)
        for entry in groups[verdict]
    ]
    if blocks:
        blocks.insert(
            0,
            "'*' marks a cell that breaks a rule or changes a given, or (lexmin) "
            "that differs from the smallest valid completion.",
        )
    for verdict in (Verdict.ERROR, Verdict.TIMEOUT):
        for entry in groups[verdict]:
            blocks.append(
                f"{verdict.value.upper()}  {_where(entry)}\n"
                + "\n".join(f"  {finding}" for finding in entry.findings)
            )
    if hidden_timeouts:
        blocks.append(
            f"... and {hidden_timeouts} more timeouts (every verdict is in "
            f"--results FILE or --format jsonl)"
        )
    return "\n\n".join(blocks)


def render_crosscheck(
    tally: CrosscheckTally, summary: Summary, shorts: Mapping[str, str] | None = None
) -> str:
    """The whole text output: the summary table, then the findings."""
    table = render_crosscheck_summary(summary, shorts)
    findings = render_findings(tally.shown, hidden_timeouts=tally.hidden_timeouts)
    return f"{table}\n\n{findings}" if findings else table


def render_side_by_side(entry: PuzzleEntry) -> str:
    """One puzzle and every backend's answer as grids next to each other, odd cells marked '*'."""
    box = entry.shape()
    puzzle = Grid.parse(entry.puzzle, box=box)
    reference = _reference_solution(entry.runs)
    columns = [_column("puzzle", f"{len(puzzle.givens())} givens", puzzle, set())]
    for run in entry.runs:
        flag = " (disagrees)" if run.disagrees else ""
        grid = _parse_or_none(run.grid_text, box)
        marked: set[int] = set()
        if grid is not None and run.status is RunStatus.WRONG:
            marked = _broken_cells(grid, puzzle)
            if not marked and reference is not None and run.count is None:
                # A valid completion proven wrong: not the lex-min (or 'unsatisfiable' denied).
                marked = {
                    cell
                    for cell, (a, b) in enumerate(zip(grid.to_line(), reference, strict=True))
                    if a != b
                }
        columns.append(_column(run.name + flag, _run_text(run), grid, marked))
    height = max(len(column) for column in columns)
    widths = [max(len(line) for line in column) for column in columns]
    lines = [f"{entry.verdict.value.upper()}  {_where(entry)}"]
    lines += [f"  {finding}" for finding in entry.findings]
    for row in range(height):
        cells = [
            (column[row] if row < len(column) else "").ljust(width)
            for column, width in zip(columns, widths, strict=True)
        ]
        lines.append(("  " + "   ".join(cells)).rstrip())
    return "\n".join(lines)


def _where(entry: PuzzleEntry) -> str:
    return f"{entry.where} (puzzle {entry.number + 1})"


def _parse_or_none(line: str | None, box: Shape | None) -> Grid | None:
    if not line:
        return None
    try:
        return Grid.parse(line, box=box)
    except SudokuError:  # a malformed answer is shown by its status alone
        return None


def _reference_solution(runs: Iterable[Run]) -> str | None:
    """The smallest valid completion among the answers (the lex-min when anyone found it)."""
    solved = [run.solution for run in runs if run.status is RunStatus.SOLVED and run.solution]
    return min(solved, key=_values) if solved else None


def _broken_cells(grid: Grid, puzzle: Grid) -> set[int]:
    """Cells of an answer that change a given, stay blank, or repeat a value in a unit."""
    if grid.size != puzzle.size:
        return set()
    cells = {cell for cell, value in puzzle.givens().items() if grid.values[cell] != value}
    cells |= set(grid.blanks())
    for conflict in grid.conflicts():
        cells |= set(conflict.cells)
    return cells


def _run_text(run: Run) -> str:
    """A backend's status under its name: 'solved 2.1 ms', 'count 2+', 'WRONG', 'error'."""
    counted = run.count is not None or run.limit_reached is not None
    status = (
        "count " + _count_text(run)
        if counted and run.status.answered
        else "WRONG" + (f" (count {_count_text(run)})" if counted else "")
        if run.status is RunStatus.WRONG
        else str(run.status)
    )
    if run.seconds is not None:
        status += f" {1000 * run.seconds:.1f} ms"
    return status


def _column(title: str, subtitle: str, grid: Grid | None, marked: set[int]) -> list[str]:
    """A grid drawn two characters a cell (symbol, then '*' or ' '), under a title."""
    lines = [title, subtitle]
    if grid is None:
        return lines
    geo = grid.geometry
    for row in range(grid.size):
        if row and row % geo.box_rows == 0:
            boxes_across = grid.size // geo.box_cols
            lines.append("+-".join("-" * (2 * geo.box_cols) for _ in range(boxes_across)))
        parts = []
        for column in range(grid.size):
            if column and column % geo.box_cols == 0:
                parts.append("| ")
            cell = row * grid.size + column
            value = grid.values[cell]
            parts.append(
                ("." if value == BLANK else value_symbol(value)) + ("*" if cell in marked else " ")
            )
        lines.append("".join(parts))
    return lines


def _values(line: str) -> tuple[int, ...]:
    """Row-major values of a solution line (symbols compare by value, not by character)."""
    return tuple(symbol_value(symbol) or 0 for symbol in line)


def _count_text(run: Run) -> str:
    if run.count is None:
        return str(run.status)
    return f"{run.count}+" if run.limit_reached else str(run.count)


__all__ = [
    "render_crosscheck",
    "render_crosscheck_summary",
    "render_findings",
    "render_side_by_side",
]
