"""Cross-validation: run several backends on the same puzzles, verify every answer, compare.

Each backend's answer is first put to the one checker (`Grid.why_not_solution_of`); only answers
that pass are compared, per mode:

    lexmin  every solution identical, `unsatisfiable` verdicts identical. The smallest valid
            completion is the reference: it *proves* any larger answer is not the lex-min, and any
            valid completion proves `unsatisfiable` wrong, so the wrong side is named, not guessed.
    any     solutions may differ; the solvable / unsolvable verdicts must agree (a valid
            completion proves `unsatisfiable` wrong).
    count   counts identical (each is capped at the limit). Counts cannot be proved here, so the
            most common count is the reference; on a tie every backend is marked as disagreeing.

A puzzle's verdict is its worst finding, most severe first: `invalid` (an answer breaks a rule,
changes a given, or a count-mode completion is wrong), `disagree`, `error` (a backend crashed),
`timeout` (reported as such, never as a disagreement), `agree`.

Verdicts are JSON-ready dicts, so the results file, `--format jsonl`, the summary and the text
rendering all work from the same records, whether they were computed now or read back on resume.
Nothing here prints; the results file is written here because keeping it valid is the logic.
"""

from __future__ import annotations

import collections
import os
import statistics
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from .errors import ResultsFileError, SudokuError
from .formats import PuzzleRecord, read_records, to_json_line
from .grid import BLANK, Grid, Shape, default_box, symbol_value, value_symbol
from .result import Mode, SolveResult, Status
from .runner import PuzzleRun

RESULTS_FORMAT = "sudoku-cp crosscheck results"
RESULTS_VERSION = 1

# Verdicts, most severe first: the order findings are listed in.
INVALID, DISAGREE, ERROR, TIMEOUT, AGREE = "invalid", "disagree", "error", "timeout", "agree"
VERDICTS = (INVALID, DISAGREE, ERROR, TIMEOUT, AGREE)
PROBLEMS = (INVALID, DISAGREE, ERROR)  # what makes the run fail (exit 1)
TIMEOUTS_SHOWN = 20

# Per-backend statuses in a verdict record: our Status values, plus the checker's and crashes.
SOLVED, UNSATISFIABLE, TIMED_OUT = (str(Status.SOLVED), str(Status.UNSATISFIABLE),
                                    str(Status.TIMEOUT))
BACKEND_INVALID, BACKEND_ERROR = "invalid", "error"


# -- verdicts ------------------------------------------------------------------------------------

def settings_record(*, mode: Mode, limit: int, time_limit: float | None, backends: Sequence[str],
                    options: Mapping[str, Any]) -> dict[str, Any]:
    """The header of a results file: what was asked, so a resume can refuse other settings.

    The limit is kept in count mode only, where it changes the answers.
    """
    return {"format": RESULTS_FORMAT, "version": RESULTS_VERSION, "mode": str(mode),
            "limit": limit if mode is Mode.COUNT else None, "time_limit": time_limit,
            "backends": list(backends),
            "options": dict(sorted(options.items()))}


def judge(run: PuzzleRun, *, backends: Sequence[str], mode: Mode) -> dict[str, Any]:
    """The verdict record of one puzzle: each backend's answer verified, then compared."""
    record = run.record
    assert record.grid is not None, "the runner only runs records with a grid"
    puzzle = record.grid
    checked: dict[Grid, str | None] = {}  # backends that agree share one check of their grid
    entries = {name: _entry(run, name, puzzle, mode, checked) for name in backends}
    findings = [f"{name}: invalid answer: {entry['reason']}"
                for name, entry in entries.items() if entry["status"] == BACKEND_INVALID]
    findings += _compare(entries, mode)
    findings += [f"{name}: error: {entry['error']}"
                 for name, entry in entries.items() if entry["status"] == BACKEND_ERROR]
    findings += [f"{name}: timeout" + (f" ({entry['reason']})" if entry.get("reason") else "")
                 for name, entry in entries.items() if entry["status"] == TIMED_OUT]
    statuses = {entry["status"] for entry in entries.values()}
    if BACKEND_INVALID in statuses:
        verdict = INVALID
    elif any(entry["disagrees"] for entry in entries.values()):
        verdict = DISAGREE
    elif BACKEND_ERROR in statuses:
        verdict = ERROR
    elif TIMED_OUT in statuses:
        verdict = TIMEOUT
    else:
        verdict = AGREE
    data: dict[str, Any] = {"index": record.index, "source": record.source, "line": record.line,
                            "puzzle": record.text}
    if puzzle.box != default_box(puzzle.size):
        data["box"] = f"{puzzle.box[0]}x{puzzle.box[1]}"  # needed to read the grids back
    data.update(verdict=verdict, findings=findings, backends=entries)
    return data


def judge_runs(runs: Iterable[PuzzleRun], *, backends: Sequence[str],
               mode: Mode) -> Iterator[dict[str, Any]]:
    """The verdict record of every run, in the order the runs come."""
    for run in runs:
        yield judge(run, backends=backends, mode=mode)


def _entry(run: PuzzleRun, name: str, puzzle: Grid, mode: Mode,
           checked: dict[Grid, str | None]) -> dict[str, Any]:
    """One backend's answer on one puzzle, with the checker's word on it."""
    result = run.result(name)
    if name in run.errors or result is None:
        message = run.errors.get(name, "no result")
        entry: dict[str, Any] = {"status": BACKEND_ERROR, "solution": None}
        if mode is Mode.COUNT:
            entry.update(count=None, limit_reached=False)
        entry.update(seconds=None, disagrees=False, error=message)
        return entry
    status = str(result.status)
    reason = _why_wrong(result, puzzle, mode, checked)
    if reason is not None:
        status = BACKEND_INVALID
    else:
        reason = result.reason
    entry = {"status": status,
             "solution": result.solution.to_line() if result.solution is not None else None}
    if mode is Mode.COUNT:
        entry.update(count=result.count, limit_reached=result.limit_reached)
    entry.update(seconds=round(result.seconds, 6), disagrees=False)
    if reason:
        entry["reason"] = reason
    return entry


def _why_wrong(result: SolveResult, puzzle: Grid, mode: Mode,
               checked: dict[Grid, str | None]) -> str | None:
    """Why an answer is invalid on its own (before any comparison), or None."""
    if result.status is Status.INVALID:
        return "answered 'invalid' for a well-formed puzzle"
    if mode is Mode.COUNT and result.status is not Status.TIMEOUT:
        count, limit = result.count, result.limit
        if count is None or count < 0 or (limit is not None and count > limit):
            return f"count {count} is outside 0..{limit}"
        if (count > 0) != (result.status is Status.SOLVED):
            return f"count {count} does not fit the status {result.status}"
    if result.status is not Status.SOLVED:
        return None
    if result.solution is None:
        if mode is Mode.COUNT:
            return None  # a count without its first completion cannot be checked further
        return "claims a solution but gives no grid"
    if result.solution not in checked:
        checked[result.solution] = result.solution.why_not_solution_of(puzzle)
    problem = checked[result.solution]
    if problem is None:
        return None
    return f"its first completion {problem}" if mode is Mode.COUNT else problem


def _compare(entries: dict[str, dict[str, Any]], mode: Mode) -> list[str]:
    """Mark the valid answers that disagree (sets `disagrees`); returns what was found."""
    answered = {name: entry for name, entry in entries.items()
                if entry["status"] in (SOLVED, UNSATISFIABLE)}
    if mode is Mode.COUNT:
        return _compare_counts(answered)
    solved = {name: entry for name, entry in answered.items() if entry["status"] == SOLVED}
    if not solved:
        return []  # every answer is 'unsatisfiable' (or there is no answer): they agree
    if mode is Mode.LEXMIN:
        # No completion is smaller than the lex-min, so the smallest valid answer is the
        # lex-min whenever anyone found it, and it proves every larger answer wrong.
        best_name = min(solved, key=lambda name: _values(solved[name]["solution"]))
    else:
        best_name = next(iter(solved))
    best = solved[best_name]["solution"]
    findings = []
    for name, entry in answered.items():
        if entry["status"] == UNSATISFIABLE:
            entry["disagrees"] = True
            findings.append(f"{name}: says unsatisfiable, but {best_name}'s completion is valid")
        elif mode is Mode.LEXMIN and entry["solution"] != best:
            entry["disagrees"] = True
            findings.append(f"{name}: not the lex-min: {best_name}'s completion is smaller "
                            f"(first difference at {_first_difference(entry['solution'], best)})")
    return findings


def _compare_counts(answered: dict[str, dict[str, Any]]) -> list[str]:
    counts = {name: entry["count"] or 0 for name, entry in answered.items()}
    tally = collections.Counter(counts.values()).most_common()
    if len(tally) <= 1:
        return []
    reference = tally[0][0] if tally[0][1] > tally[1][1] else None
    for name, count in counts.items():
        answered[name]["disagrees"] = count != reference
    shown = ", ".join(f"{name} {_count_text(answered[name])}" for name in counts)
    return [f"counts differ: {shown}"]


def _values(line: str) -> tuple[int, ...]:
    """Row-major values of a solution line (symbols compare by value, not by character)."""
    return tuple(symbol_value(symbol) or 0 for symbol in line)


def _first_difference(line: str, other: str) -> str:
    size = round(len(line) ** 0.5)
    cell = next(cell for cell, (a, b) in enumerate(zip(line, other)) if a != b)
    return f"row {cell // size + 1}, column {cell % size + 1}"


def _count_text(entry: Mapping[str, Any]) -> str:
    if entry.get("count") is None:
        return str(entry["status"])
    return f"{entry['count']}+" if entry.get("limit_reached") else str(entry["count"])


# -- the summary ---------------------------------------------------------------------------------

@dataclass
class BackendSummary:
    """One backend's tallies over a run."""

    name: str
    solved: int = 0
    unsatisfiable: int = 0
    timeouts: int = 0
    invalid: int = 0
    disagreements: int = 0
    errors: int = 0
    total_seconds: float = 0.0
    median_seconds: float | None = None


@dataclass
class Summary:
    """What a crosscheck run found, over old (resumed) and new records together."""

    mode: Mode
    backends: list[BackendSummary]
    verdicts: dict[str, int]       # verdict -> puzzles
    puzzles: int
    resumed: int = 0               # records read back from the results file
    wall_seconds: float | None = None  # this session only: older sessions' time is not known
    interrupted: bool = False
    bad_input: int = 0             # input lines that are not puzzles (reported, not run)

    @property
    def agreements(self) -> int:
        return self.verdicts.get(AGREE, 0)

    @property
    def problems(self) -> int:
        """Puzzles with an invalid answer, a disagreement or a crash."""
        return sum(self.verdicts.get(verdict, 0) for verdict in PROBLEMS)

    @property
    def session_puzzles(self) -> int:
        return self.puzzles - self.resumed

    @property
    def puzzles_per_second(self) -> float | None:
        """This session's throughput (wall clock), None when unknown."""
        if not self.wall_seconds or not self.session_puzzles:
            return None
        return self.session_puzzles / self.wall_seconds

    def share(self, name: str) -> float | None:
        """The fraction of all backends' solve time that this backend took."""
        total = sum(backend.total_seconds for backend in self.backends)
        mine = next(backend.total_seconds for backend in self.backends if backend.name == name)
        return mine / total if total > 0 else None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (scripts and benchmarks read it)."""
        return {
            "mode": str(self.mode), "puzzles": self.puzzles, "resumed": self.resumed,
            "verdicts": dict(self.verdicts), "agreements": self.agreements,
            "wall_seconds": self.wall_seconds, "puzzles_per_second": self.puzzles_per_second,
            "interrupted": self.interrupted, "bad_input": self.bad_input,
            "backends": [dict(vars(backend), share=self.share(backend.name))
                         for backend in self.backends],
        }


def summarize(records: Iterable[Mapping[str, Any]], *, backends: Sequence[str], mode: Mode,
              resumed: int = 0, wall_seconds: float | None = None, interrupted: bool = False,
              bad_input: int = 0) -> Summary:
    """Tally verdict records per backend and per verdict."""
    tallies = {name: BackendSummary(name) for name in backends}
    seconds: dict[str, list[float]] = {name: [] for name in backends}
    verdicts = {verdict: 0 for verdict in VERDICTS}
    puzzles = 0
    status_field = {SOLVED: "solved", UNSATISFIABLE: "unsatisfiable", TIMED_OUT: "timeouts",
                    BACKEND_INVALID: "invalid", BACKEND_ERROR: "errors"}
    for record in records:
        puzzles += 1
        verdicts[record["verdict"]] = verdicts.get(record["verdict"], 0) + 1
        for name, entry in record["backends"].items():
            if name not in tallies:
                continue
            tally = tallies[name]
            attribute = status_field.get(entry["status"])
            if attribute:
                setattr(tally, attribute, getattr(tally, attribute) + 1)
            tally.disagreements += bool(entry.get("disagrees"))
            if entry.get("seconds") is not None:
                seconds[name].append(entry["seconds"])
    for name, tally in tallies.items():
        tally.total_seconds = sum(seconds[name])
        tally.median_seconds = statistics.median(seconds[name]) if seconds[name] else None
    return Summary(mode, list(tallies.values()), verdicts, puzzles, resumed, wall_seconds,
                   interrupted, bad_input)


def progress_note(verdicts: Mapping[str, int]) -> str:
    """The progress line's tail: disagreements so far, and the other findings once there are any."""
    parts = [f"{verdicts.get(verdict, 0)} {verdict}" for verdict in (INVALID, DISAGREE, ERROR,
                                                                     TIMEOUT)
             if verdicts.get(verdict) or verdict == DISAGREE]
    return ", ".join(parts)


# -- text rendering ------------------------------------------------------------------------------

def render_summary(summary: Summary) -> str:
    """The summary table: per backend tallies and times, then the totals."""
    header = ("backend", "solved", "unsat", "timeouts", "invalid", "disagree", "errors",
              "total s", "median ms", "share")
    rows = [header]
    for backend in summary.backends:
        share = summary.share(backend.name)
        rows.append((
            backend.name, str(backend.solved), str(backend.unsatisfiable), str(backend.timeouts),
            str(backend.invalid), str(backend.disagreements), str(backend.errors),
            f"{backend.total_seconds:.3f}",
            "-" if backend.median_seconds is None else f"{1000 * backend.median_seconds:.2f}",
            "-" if share is None else f"{100 * share:.1f}%"))
    widths = [max(len(row[column]) for row in rows) for column in range(len(header))]
    lines = [f"crosscheck --mode {summary.mode}: {', '.join(b.name for b in summary.backends)}"
             + (" (interrupted)" if summary.interrupted else "")]
    for row in rows:
        cells = [row[0].ljust(widths[0])] + [cell.rjust(width)
                                             for cell, width in zip(row[1:], widths[1:])]
        lines.append("  ".join(cells).rstrip())
    counts = ", ".join(f"{summary.verdicts.get(verdict, 0)} {verdict}" for verdict in VERDICTS)
    lines.append(f"{summary.puzzles} puzzles: {counts}")
    if summary.bad_input:
        lines.append(f"{summary.bad_input} input lines are not puzzles (not run)")
    session = f"{summary.session_puzzles} puzzles"
    if summary.resumed:
        lines.append(f"resumed: {summary.resumed} puzzles from the results file")
        session = f"this session: {session}"
    rate = summary.puzzles_per_second
    if summary.wall_seconds is not None:
        speed = f", {rate:.1f} puzzles/s" if rate is not None else ""
        lines.append(f"{session} in {summary.wall_seconds:.1f} s{speed}")
    return "\n".join(lines)


def render_findings(records: Iterable[Mapping[str, Any]], *,
                    timeouts_shown: int = TIMEOUTS_SHOWN) -> str:
    """Every puzzle that did not simply agree, most severe first, disagreements side by side.

    Invalid answers and disagreements are drawn in full, with a legend; errors and timeouts take
    a few lines each, and only the first `timeouts_shown` timeouts are listed (a tight time
    limit on a big set would bury everything else).
    """
    groups: dict[str, list[Mapping[str, Any]]] = {verdict: [] for verdict in VERDICTS}
    for record in records:
        groups.setdefault(record["verdict"], []).append(record)
    blocks = [render_side_by_side(record) for verdict in (INVALID, DISAGREE)
              for record in groups[verdict]]
    if blocks:
        blocks.insert(0, "'*' marks a cell that breaks a rule or changes a given, or (lexmin) "
                         "that differs from the smallest valid completion.")
    for verdict in (ERROR, TIMEOUT):
        shown = groups[verdict] if verdict == ERROR else groups[verdict][:timeouts_shown]
        for record in shown:
            blocks.append(f"{verdict.upper()}  {_where(record)}\n"
                          + "\n".join(f"  {finding}" for finding in record["findings"]))
        if len(groups[verdict]) > len(shown):
            blocks.append(f"... and {len(groups[verdict]) - len(shown)} more timeouts "
                          f"(every verdict is in --results FILE or --format jsonl)")
    return "\n\n".join(blocks)


def render_report(records: Sequence[Mapping[str, Any]], summary: Summary) -> str:
    """The whole text output: the summary table, then the findings."""
    findings = render_findings(records)
    return f"{render_summary(summary)}\n\n{findings}" if findings else render_summary(summary)


def render_side_by_side(record: Mapping[str, Any]) -> str:
    """One puzzle and every backend's answer as grids next to each other, odd cells marked '*'."""
    box = _box_of(record)
    puzzle = Grid.parse(record["puzzle"], box=box)
    entries = record["backends"]
    reference = _reference_solution(entries)
    columns = [_column("puzzle", f"{len(puzzle.givens())} givens", puzzle, set())]
    for name, entry in entries.items():
        flag = " (disagrees)" if entry.get("disagrees") else ""
        grid = _parse_or_none(entry.get("solution"), box)
        marked: set[int] = set()
        if grid is not None and entry["status"] == BACKEND_INVALID:
            marked = _broken_cells(grid, puzzle)
        elif grid is not None and entry.get("disagrees") and "count" not in entry \
                and reference is not None:
            marked = {cell for cell, (a, b) in enumerate(zip(entry["solution"], reference))
                      if a != b}
        columns.append(_column(name + flag, _entry_text(entry), grid, marked))
    height = max(len(column) for column in columns)
    widths = [max(len(line) for line in column) for column in columns]
    lines = [f"{record['verdict'].upper()}  {_where(record)}"]
    lines += [f"  {finding}" for finding in record["findings"]]
    for row in range(height):
        cells = [(column[row] if row < len(column) else "").ljust(width)
                 for column, width in zip(columns, widths)]
        lines.append(("  " + "   ".join(cells)).rstrip())
    return "\n".join(lines)


def _where(record: Mapping[str, Any]) -> str:
    return f"{record['source']}:{record['line']} (puzzle #{record['index']})"


def _box_of(record: Mapping[str, Any]) -> Shape | None:
    if "box" not in record:
        return None
    rows, columns = record["box"].split("x")
    return int(rows), int(columns)


def _parse_or_none(line: str | None, box: Shape | None) -> Grid | None:
    if not line:
        return None
    try:
        return Grid.parse(line, box=box)
    except SudokuError:  # a malformed answer is shown by its status alone
        return None


def _reference_solution(entries: Mapping[str, Mapping[str, Any]]) -> str | None:
    """The smallest valid completion among the answers (the lex-min when anyone found it)."""
    solved = [entry["solution"] for entry in entries.values()
              if entry["status"] == SOLVED and entry.get("solution")]
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


def _entry_text(entry: Mapping[str, Any]) -> str:
    """A backend's status under its name: 'solved 2.1 ms', 'count 2+', 'INVALID', 'error'."""
    status = "count " + _count_text(entry) if "count" in entry and entry["status"] in (
        SOLVED, UNSATISFIABLE) else entry["status"]
    if status == BACKEND_INVALID:
        status = "INVALID" + (f" (count {_count_text(entry)})" if "count" in entry else "")
    if entry.get("seconds") is not None:
        status += f" {1000 * entry['seconds']:.1f} ms"
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
            parts.append(("." if value == BLANK else value_symbol(value))
                         + ("*" if cell in marked else " "))
        lines.append("".join(parts))
    return lines


# -- the results file ----------------------------------------------------------------------------

@dataclass
class ResultsFile:
    """An append-only JSON Lines file: the settings header, then one verdict record per puzzle.

    Every record is written in one call and flushed, so a killed run leaves at most a torn last
    line, which `open` drops when the run is resumed.
    """

    path: Path
    handle: TextIO
    previous: list[dict[str, Any]] = field(default_factory=list)  # records of earlier sessions

    @classmethod
    def open(cls, path: str | os.PathLike[str], *, settings: Mapping[str, Any], resume: bool,
             puzzles: Sequence[PuzzleRecord]) -> ResultsFile:
        """Start a results file, or continue one with `resume`.

        Raises:
            ResultsFileError: when the file holds results but `resume` is off; when it was
                written with other settings, for another input, or is not a results file.
        """
        path = Path(path)
        text = path.read_text(encoding="utf-8") if path.exists() else ""
        if text.strip() and not resume:
            raise ResultsFileError(
                f"{path} already holds results: pass --resume to continue that run, or choose "
                f"another --results path")
        previous: list[dict[str, Any]] = []
        if text.strip():
            previous = _previous_records(path, text, settings, puzzles)
        clean = text.endswith("\n") and len(text.splitlines()) == 1 + len(previous) \
            and all(line.strip() for line in text.splitlines())
        if not clean:
            # Rewrite rather than append: a torn last line (even one that happens to parse, with
            # its newline missing) would otherwise run into the next record.
            lines = [to_json_line(dict(settings))] + [to_json_line(r) for r in previous]
            temporary = path.with_name(path.name + ".tmp")
            temporary.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
            os.replace(temporary, path)
        return cls(path, path.open("a", encoding="utf-8"), previous)

    def append(self, record: Mapping[str, Any]) -> None:
        """Write one record and flush it, so it survives a crash of this process."""
        self.handle.write(to_json_line(dict(record)) + "\n")
        self.handle.flush()

    def close(self) -> None:
        self.handle.close()

    def __enter__(self) -> ResultsFile:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _previous_records(path: Path, text: str, settings: Mapping[str, Any],
                      puzzles: Sequence[PuzzleRecord]) -> list[dict[str, Any]]:
    """The verdict records of a results file, checked against this run's settings and input."""
    records = read_records(text.splitlines())
    header_start = to_json_line({"format": RESULTS_FORMAT})[:-1]
    if not records and (header_start.startswith(text) or text.startswith(header_start)):
        return []  # only a torn header: the run died before its first puzzle
    header = records[0] if records else {}
    if header.get("format") != RESULTS_FORMAT:
        raise ResultsFileError(f"{path} is not a crosscheck results file (its first line is not "
                               f"the settings header): choose another --results path")
    different = [f"{key} {_show(header.get(key))} in the file, {_show(settings[key])} now"
                 for key in settings if key != "format" and header.get(key) != settings[key]]
    if different:
        raise ResultsFileError(f"{path} was written with other settings ({'; '.join(different)}): "
                               f"resume with the same settings, or choose another --results path")
    by_index = {puzzle.index: puzzle for puzzle in puzzles}
    previous: list[dict[str, Any]] = []
    seen: set[int] = set()
    for record in records[1:]:
        index = record.get("index")
        if not isinstance(index, int) or not {"puzzle", "verdict", "backends"} <= record.keys():
            raise ResultsFileError(f"{path}: a line is not a crosscheck verdict: {_show(record)}")
        puzzle = by_index.get(index)
        if puzzle is None or puzzle.text != record["puzzle"]:
            now = "no such puzzle" if puzzle is None else f"it is {puzzle.text}"
            raise ResultsFileError(
                f"{path} comes from a different input: its puzzle #{index} is "
                f"{record['puzzle']}, but in this input {now}; resume with the same input, or "
                f"choose another --results path")
        if index not in seen:  # a duplicate can only be a copy of the same verdict
            seen.add(index)
            previous.append(record)
    return previous


def _show(value: Any) -> str:
    if isinstance(value, list):
        return ",".join(map(str, value))
    text = str(value)
    return text if len(text) <= 60 else text[:60] + "..."


__all__ = ["AGREE", "DISAGREE", "ERROR", "INVALID", "TIMEOUT", "VERDICTS", "BackendSummary",
           "ResultsFile", "ResultsFileError", "Summary", "judge", "judge_runs", "progress_note",
           "render_findings", "render_report", "render_side_by_side", "render_summary",
           "settings_record", "summarize"]
