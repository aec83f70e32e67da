"""Reading and writing puzzles, kept apart from the model.

Layouts:
    grid    N lines of N symbols, no spaces (Baekjoon 2239): ``103000509`` ...
    spaced  N lines of N space-separated integers (Baekjoon 2580); holds values >= 10 as numbers.
    line    one puzzle per line, N*N symbols, '0' or '.' blank, 1-9 then A.. (G = 16, P = 25).
    jsonl   output only: one JSON object per puzzle.
Blank lines and lines starting with '#' are skipped in every layout. A grid or spaced input may
hold several puzzles, one block of N rows after another.

Errors carry where they are (source, line, column). In the line layout a bad line does not stop the
batch: it becomes a record with an error, and the caller reports it and goes on.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from .errors import GridParseError, GridShapeError, SudokuError
from .grid import MAX_SIZE, SYMBOLS, Grid, Shape, default_box, symbol_value, value_symbol
from .result import Mode, SolveResult, Status


class Layout(str, enum.Enum):
    GRID = "grid"
    SPACED = "spaced"
    LINE = "line"

    def __str__(self) -> str:
        return self.value


OUTPUT_FORMATS = ("grid", "spaced", "line", "jsonl")


@dataclass(frozen=True)
class PuzzleRecord:
    """One puzzle read from a source: the grid, or the error that kept it from being one."""

    index: int          # 0-based position in the run
    source: str         # file name or '<stdin>'
    line: int           # 1-based line where the puzzle starts
    text: str           # the puzzle as written in the line layout (or the raw bad line)
    grid: Grid | None
    error: str | None = None

    @property
    def where(self) -> str:
        return f"{self.source}:{self.line}"


def decode_input(data: bytes, *, source: str) -> str:
    """Bytes to text, refusing what is not text.

    Raises:
        GridParseError: for binary data (a NUL byte, or bytes that are not UTF-8) or no puzzle.
    """
    nul = data.find(b"\0")
    if nul >= 0:
        raise GridParseError(f"binary data, not a puzzle (a NUL byte at offset {nul})",
                             source=source)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise GridParseError(
            f"binary data, not a puzzle (byte 0x{data[error.start]:02x} at offset {error.start} "
            f"is not UTF-8 text)", source=source) from None
    return text


def _is_size(length: int) -> bool:
    try:
        default_box(length)
    except GridShapeError:
        return False
    return True


def _is_square_of_size(length: int) -> bool:
    root = round(length ** 0.5)
    return root * root == length and _is_size(root)


def _content_lines(text: str) -> list[tuple[int, str]]:
    """(1-based line number, stripped line) for every line that is not blank or a comment."""
    return [(number, line.strip()) for number, line in enumerate(text.splitlines(), start=1)
            if line.strip() and not line.lstrip().startswith("#")]


def detect_layout(lines: list[tuple[int, str]]) -> Layout:
    """Guess the layout from the first content line.

    Several tokens: spaced. A length that is a grid size N (and not N*N of a size): grid. Otherwise
    line. A 16-symbol first line could be a 4x4 puzzle or a 16x16 row: it is read as a grid when
    every line has 16 symbols and their number is a multiple of 16. `--input-format` overrides.
    """
    first = lines[0][1]
    if len(first.split()) > 1:
        return Layout.SPACED
    length = len(first)
    if _is_size(length) and _is_square_of_size(length):
        as_grid = len(lines) % length == 0 and all(len(line) == length for _, line in lines)
        return Layout.GRID if as_grid else Layout.LINE
    if _is_size(length):
        return Layout.GRID
    # Neither a size nor a square of one: rows of a grid with no box shape (7 rows of 7 symbols)
    # read as a grid so that the error can say so; anything else as (bad) lines.
    square_block = len(lines) >= length and all(len(line) == length for _, line in lines[:length])
    return Layout.GRID if 2 <= length <= MAX_SIZE and square_block else Layout.LINE


def read_puzzles(text: str, *, source: str = "<stdin>", layout: Layout | None = None,
                 box: Shape | None = None, start_index: int = 0) -> tuple[Layout, list[PuzzleRecord]]:
    """Parse every puzzle of a text; returns the layout used and the records.

    Raises:
        GridParseError: for input with no puzzle, and for any error in the grid or spaced
            layouts (a single bad row spoils its whole block). Bad lines of the line layout are
            returned as records with an `error` instead.
    """
    lines = _content_lines(text)
    if not lines:
        raise GridParseError("empty input: no puzzle found", source=source)
    layout = layout or detect_layout(lines)
    if layout is Layout.LINE:
        return layout, list(_read_lines(lines, source=source, box=box, start_index=start_index))
    size = len(lines[0][1]) if layout is Layout.GRID else len(lines[0][1].split())
    rows = [(number, _row_values(line, number, layout, source, size)) for number, line in lines]
    return layout, list(_read_blocks(rows, source=source, box=box, start_index=start_index))


def _read_lines(lines: list[tuple[int, str]], *, source: str, box: Shape | None,
                start_index: int) -> Iterator[PuzzleRecord]:
    for offset, (number, line) in enumerate(lines):
        index = start_index + offset
        try:
            grid = Grid.parse(line, box=box)
        except (GridParseError, GridShapeError) as error:
            located = GridParseError(getattr(error, "message", str(error)), source=source,
                                     line=number, column=getattr(error, "column", None))
            yield PuzzleRecord(index, source, number, _shorten(line), None, located.located())
        else:
            yield PuzzleRecord(index, source, number, grid.to_line(), grid)


def _row_values(line: str, number: int, layout: Layout, source: str, size: int) -> list[int]:
    """The values of one grid or spaced row (no check against N yet)."""
    if layout is Layout.GRID:
        if len(line.split()) > 1:
            raise GridParseError(f"expected a row of symbols with no spaces, got {_shorten(line)}",
                                 source=source, line=number)
        values = []
        for column, symbol in enumerate(line, start=1):
            value = symbol_value(symbol)
            if value is None or value > size:
                alphabet = SYMBOLS[:min(max(size, 1), MAX_SIZE)]
                expected = f"0 or . for blank, {alphabet[0]}-{alphabet[-1]}" if size >= 4 \
                    else "0 or . for blank, 1-9, A-Z"
                raise GridParseError(f"unknown symbol {symbol!r} for a {size}x{size} grid "
                                     f"(expected {expected})", source=source, line=number,
                                     column=column)
            values.append(value)
        return values
    values = []
    column = 1
    for token in line.split():
        column = line.index(token, column - 1) + 1
        if token == ".":
            values.append(0)
        elif token.isdigit() and len(token) <= 3:
            values.append(int(token))
        else:
            raise GridParseError(f"expected a number, got {_shorten(token)}", source=source,
                                 line=number, column=column)
        column += len(token)
    return values


def _read_blocks(rows: list[tuple[int, list[int]]], *, source: str, box: Shape | None,
                 start_index: int) -> Iterator[PuzzleRecord]:
    """Group rows into N-row puzzles; N is the length of the first row."""
    size = len(rows[0][1])
    if not _is_size(size) and box is None:
        hint = " (it is prime)" if size > 3 and all(size % d for d in range(2, size)) else ""
        raise GridParseError(f"no Sudoku has rows of {size} values{hint}: sizes are 4, 6, 8, 9, "
                             f"10, 12, 16, 25, ... up to {MAX_SIZE}", source=source,
                             line=rows[0][0])
    for number, values in rows:
        if len(values) != size:
            raise GridParseError(f"expected {size} values in this row like the first, "
                                 f"got {len(values)}", source=source, line=number)
        for column, value in enumerate(values, start=1):
            if value > size:
                raise GridParseError(f"value {value} is above {size} (a {size}x{size} grid "
                                     f"holds 1-{size})", source=source, line=number,
                                     column=column)
    if len(rows) % size:
        first = rows[len(rows) - len(rows) % size][0]
        raise GridParseError(f"expected {size} rows for a {size}x{size} puzzle, got "
                             f"{len(rows) % size} from this line on", source=source, line=first)
    for block in range(len(rows) // size):
        chunk = rows[block * size:(block + 1) * size]
        try:
            grid = Grid.from_values([v for _, values in chunk for v in values], box=box)
        except GridShapeError as error:
            raise GridParseError(str(error), source=source, line=chunk[0][0]) from None
        yield PuzzleRecord(start_index + block, source, chunk[0][0], grid.to_line(), grid)


@dataclass
class Loaded:
    """Every puzzle of several sources, with the layout of each and what could not be read."""

    records: list[PuzzleRecord]
    layouts: dict[str, Layout]  # source -> layout it was read in
    errors: list[str]           # whole-source failures, located ("file:line: ...")

    @property
    def first_layout(self) -> Layout:
        return next(iter(self.layouts.values()), Layout.LINE)


def load_puzzles(paths: Iterable[str], *, layout: Layout | None = None, box: Shape | None = None,
                 stdin: Any = None) -> Loaded:
    """Read the puzzles of files ('-' is standard input), numbering them across all sources.

    A source that cannot be read or parsed as a whole is recorded in `errors` and skipped, so one
    bad file does not stop the others.
    """
    loaded = Loaded([], {}, [])
    for path in paths:
        source = "<stdin>" if path == "-" else path
        try:
            data = _read_bytes(path, stdin)
            chosen, records = read_puzzles(decode_input(data, source=source), source=source,
                                           layout=layout, box=box,
                                           start_index=len(loaded.records))
        except GridParseError as error:
            loaded.errors.append(error.located())
            continue
        loaded.layouts[source] = chosen
        loaded.records.extend(records)
    return loaded


def _read_bytes(path: str, stdin: Any) -> bytes:
    if path == "-":
        import sys
        stream = stdin if stdin is not None else sys.stdin.buffer
        return stream.read()
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError as error:
        raise GridParseError(f"cannot read: {error.strerror or error}", source=path) from None


def _shorten(text: str, limit: int = 40) -> str:
    if len(text) <= limit:
        return repr(text)
    return repr(text[:limit]) + f"... ({len(text)} characters)"


# -- writing -------------------------------------------------------------------------------------

def format_grid(grid: Grid, layout: Layout | str) -> str:
    """A grid in one of the text layouts (no trailing newline)."""
    layout = Layout(layout)
    if layout is Layout.LINE:
        return grid.to_line()
    if layout is Layout.GRID:
        return "\n".join("".join(value_symbol(v) for v in row) for row in grid.rows())
    return "\n".join(" ".join(str(v) for v in row) for row in grid.rows())


def format_count(result: SolveResult) -> str:
    """'3', or '2+' when the count stopped at the limit."""
    return f"{result.count}+" if result.limit_reached else str(result.count)


def format_answer(record: PuzzleRecord, result: SolveResult | None, layout: Layout | str) -> str:
    """What stdout shows for one puzzle in a text layout: the solution, the count, or the status."""
    if result is None:
        return str(Status.INVALID) if record.grid is None else "error"
    if result.mode is Mode.COUNT and result.status is not Status.TIMEOUT:
        return format_count(result)
    if result.status is Status.SOLVED and result.solution is not None:
        return format_grid(result.solution, layout)
    return str(result.status)


def result_record(record: PuzzleRecord, result: SolveResult | None, *,
                  backend: str, mode: Mode, failure: str | None = None) -> dict[str, Any]:
    """The JSON Lines object of one puzzle (also used by crosscheck and bench).

    No result means the input was not a puzzle (status invalid) or, with `failure`, that the
    backend broke on it (status error).
    """
    no_result = str(Status.INVALID) if record.grid is None else "error"
    data: dict[str, Any] = {
        "index": record.index,
        "source": record.source,
        "line": record.line,
        "puzzle": record.text,
        "status": str(result.status) if result else no_result,
        "solution": result.solution.to_line() if result and result.solution else None,
        "backend": backend,
        "mode": str(mode),
        "seconds": round(result.seconds, 6) if result else 0.0,
        "stats": dict(result.stats) if result else {},
    }
    if mode is Mode.COUNT:
        data["count"] = result.count if result else None
        data["limit_reached"] = result.limit_reached if result else False
    reason = (record.error or failure) if result is None else result.reason
    if reason:
        data["reason"] = reason
    return data


def to_json_line(data: dict[str, Any]) -> str:
    return json.dumps(data, separators=(",", ":"))


def read_records(lines: Iterable[str]) -> list[dict[str, Any]]:
    """JSON Lines objects, skipping a torn last line (a run killed mid-write)."""
    records = []
    for line in lines:
        line = line.strip()
        if not line:
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return records


__all__ = ["Layout", "Loaded", "OUTPUT_FORMATS", "PuzzleRecord", "SudokuError", "decode_input",
           "load_puzzles",
           "detect_layout", "format_answer", "format_count", "format_grid", "read_puzzles",
           "read_records", "result_record", "to_json_line"]
