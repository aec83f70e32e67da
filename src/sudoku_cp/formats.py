"""Reading and writing puzzles, kept apart from the model.

Layouts:
    grid    N lines of N symbols, no spaces (Baekjoon 2239): ``103000509`` ...
    spaced  N lines of N space-separated integers (Baekjoon 2580); holds values >= 10 as numbers.
    line    one puzzle per line, N*N symbols, '0' or '.' blank, 1-9 then A.. (G = 16, P = 25).
    jsonl   output only: one JSON object per puzzle.
Blank lines and lines starting with '#' are skipped in every layout, except one: a comment
``# box: RxC`` declares the box shape (R rows by C columns) of the puzzles after it, as the files
sudoku-cp writes for shapes other than the size's default do (a 6x6 with 3x2 boxes); `--box` may
repeat it, never contradict it. A grid or spaced input may hold several puzzles, one block of N
rows after another.

Errors carry where they are (source, line, column). In the line layout a bad line does not stop the
batch: it becomes a record with an error, and the caller reports it and goes on.
"""

from __future__ import annotations

import enum
import itertools
import json
import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from .box_directives import BoxDirectives, content_lines
from .errors import GridParseError, GridShapeError
from .grid import (
    MAX_SIZE,
    SYMBOL_SIZE,
    SYMBOLS,
    Grid,
    Shape,
    default_box,
    symbol_value,
    value_symbol,
)
from .text import article, excerpt
from .textio import decode_input


class Layout(str, enum.Enum):
    GRID = "grid"
    SPACED = "spaced"
    LINE = "line"

    def __str__(self) -> str:
        return self.value


OUTPUT_FORMATS = ("grid", "spaced", "line", "jsonl")


@dataclass(frozen=True)
class InputPuzzle:
    """One puzzle read from a source: the grid, or the error that kept it from being one."""

    index: int  # 0-based position in the run
    source: str  # file name or '<stdin>'
    line: int  # 1-based line where the puzzle starts
    text: str  # the puzzle as written in the line layout (or the raw bad line)
    grid: Grid | None
    error: str | None = None
    number: int = 0  # 0-based position in its source

    @property
    def where(self) -> str:
        return f"{self.source}:{self.line}"


def _is_size(length: int) -> bool:
    try:
        default_box(length)
    except GridShapeError:
        return False
    return True


def _is_square_of_size(length: int) -> bool:
    root = math.isqrt(length)
    return root * root == length and _is_size(root)


Line = tuple[int, str]  # (1-based line number, stripped content)


def _has_row_repeat(line: str) -> bool:
    """Whether a row of symbols repeats a non-blank value (no row of a puzzle grid does)."""
    values = [symbol_value(symbol) for symbol in line]
    filled = [value for value in values if value]
    return len(set(filled)) != len(filled)


def detect_layout(lines: Sequence[Line]) -> Layout:
    """Guess the layout from the first content lines (at least the first `len(first line)`).

    Several tokens: spaced. A first line of length L that is a grid size N and not a square of
    one: grid. A length L = k*k with k a size is a k x k puzzle per line, unless the first L lines
    all have L symbols and form a plausible L x L block (no row repeats a value): then it is one
    grid (or, for an unsupported L, an error that says so) - one square block is never split into
    many puzzles. Otherwise line. `--input-format` overrides.
    """
    first = lines[0][1]
    if len(first.split()) > 1:
        return Layout.SPACED
    if "," in first:
        return Layout.LINE  # numbers joined by commas: one puzzle per line
    length = len(first)
    square_block = (
        len(lines) >= length
        and length >= 2
        and all(len(line) == length for _, line in lines[:length])
    )
    if _is_square_of_size(length):
        plausible = square_block and not any(_has_row_repeat(line) for _, line in lines[:length])
        return Layout.GRID if plausible else Layout.LINE
    if _is_size(length):
        return Layout.GRID
    # Neither a size nor a square of one: rows of a grid with no box shape (7 rows of 7 symbols)
    # read as a grid so that the error can say so; anything else as (bad) lines.
    return Layout.GRID if square_block else Layout.LINE


def read_puzzles(
    text: str,
    *,
    source: str = "<stdin>",
    layout: Layout | None = None,
    box: Shape | None = None,
    start_index: int = 0,
) -> tuple[Layout, list[InputPuzzle]]:
    """Parse every puzzle of a text; returns the layout used and the records.

    Raises:
        GridParseError: for input with no puzzle, and for any error in the grid or spaced
            layouts (a single bad row spoils its whole block). Bad lines of the line layout are
            returned as records with an `error` instead.
    """
    chosen, records = read_source(
        enumerate(text.splitlines(), start=1),
        source=source,
        layout=layout,
        box=box,
        start_index=start_index,
    )
    return chosen, list(records)


def read_source(
    lines: Iterable[tuple[int, str]],
    *,
    source: str,
    layout: Layout | None = None,
    box: Shape | None = None,
    start_index: int = 0,
    first: int | None = None,
) -> tuple[Layout, Iterator[InputPuzzle]]:
    """The layout of one source's numbered lines and a lazy stream of its puzzles (`# box:`
    lines and comments read as they come; at most `first` puzzles).

    Raises:
        GridParseError: for a source with no puzzle; the stream raises it for a bad grid row
            or a box shape that does not fit.
    """
    boxes = BoxDirectives(box, source)
    return _records(
        content_lines(lines, boxes),
        source=source,
        layout=layout,
        boxes=boxes,
        start_index=start_index,
        first=first,
    )


def _records(
    lines: Iterator[Line],
    *,
    source: str,
    layout: Layout | None,
    boxes: BoxDirectives,
    start_index: int,
    first: int | None = None,
) -> tuple[Layout, Iterator[InputPuzzle]]:
    """The layout of a source and a lazy stream of its records.

    Only as many lines are read ahead as layout detection needs (one grid block at most).

    Raises:
        GridParseError: for a source with no puzzle; the stream raises it for a bad grid row.
    """
    head = list(itertools.islice(lines, 1))
    if not head:
        raise GridParseError("empty input: no puzzle found", source=source)
    if layout is None:
        head += _block_lookahead(head[0][1], lines)
        layout = detect_layout(head)
    every = itertools.chain(head, lines)
    if layout is Layout.LINE:
        stream = _read_lines(every, source=source, boxes=boxes, start_index=start_index)
    else:
        stream = _read_blocks(
            every, layout=layout, source=source, boxes=boxes, start_index=start_index
        )
    return layout, itertools.islice(stream, first) if first is not None else stream


MAX_LOOKAHEAD = 100  # rows read ahead, at most, to tell one big grid from one-line puzzles


def _block_lookahead(first: str, lines: Iterator[Line]) -> list[Line]:
    """The lines after `first` that layout detection needs, read one at a time and only while
    they could still be rows of one square block (so a slow pipe is not waited on for long)."""
    length = len(first)
    if (
        len(first.split()) > 1
        or length > MAX_LOOKAHEAD
        or _has_row_repeat(first)
        or not (_is_square_of_size(length) or not _is_size(length))
    ):
        return []
    more: list[Line] = []
    for line in lines:
        more.append(line)
        if len(more) + 1 >= length or len(line[1]) != length or _has_row_repeat(line[1]):
            break
    return more


def _read_lines(
    lines: Iterable[Line], *, source: str, boxes: BoxDirectives, start_index: int
) -> Iterator[InputPuzzle]:
    for offset, (number, line) in enumerate(lines):
        index = start_index + offset
        try:
            grid = Grid.parse(line, box=boxes.shape_at(number))
        except (GridParseError, GridShapeError) as error:
            boxes.check_fits(line, number, error)  # a shape that fits nothing: one error
            located = GridParseError(
                getattr(error, "message", str(error)),
                source=source,
                line=number,
                column=getattr(error, "column", None),
            )
            yield InputPuzzle(index, source, number, line, None, located.located(), number=offset)
        else:
            yield InputPuzzle(index, source, number, grid.to_line(), grid, number=offset)


def _row_values(line: str, number: int, layout: Layout, source: str, size: int) -> list[int]:
    """The values of one grid or spaced row (no check against N yet)."""
    if layout is Layout.GRID:
        if len(line.split()) > 1:
            raise GridParseError(
                f"expected a row of symbols with no spaces, got {excerpt(line)}",
                source=source,
                line=number,
            )
        values = []
        for column, symbol in enumerate(line, start=1):
            value = symbol_value(symbol)
            if value is None or value > size:
                alphabet = SYMBOLS[: min(max(size, 1), SYMBOL_SIZE)]
                expected = (
                    f"0 or . for blank, {alphabet[0]}-{alphabet[-1]}"
                    if size >= 4
                    else "0 or . for blank, 1-9, A-Z"
                )
                raise GridParseError(
                    f"unknown symbol {symbol!r} for {article(size)} {size}x{size} grid "
                    f"(expected {expected})",
                    source=source,
                    line=number,
                    column=column,
                )
            values.append(value)
        return values
    values = []
    column = 1
    for token in line.split():
        column = line.index(token, column - 1) + 1
        if token == ".":
            values.append(0)
        elif token.isascii() and token.isdigit() and len(token) <= 3:
            values.append(int(token))  # isascii: '²' and '₀' pass isdigit but not int()
        else:
            raise GridParseError(
                f"expected a number, got {excerpt(token)}",
                source=source,
                line=number,
                column=column,
            )
        column += len(token)
    return values


def _read_blocks(
    lines: Iterable[Line], *, layout: Layout, source: str, boxes: BoxDirectives, start_index: int
) -> Iterator[InputPuzzle]:
    """Group rows into N-row puzzles; N is the number of values in the first row.

    Raises:
        GridParseError: at the first bad row (the puzzles before it have been yielded).
    """
    size = 0
    block: list[tuple[int, list[int]]] = []
    offset = 0
    for number, line in lines:
        if not size:
            size = len(line) if layout is Layout.GRID else len(line.split())
            _check_size(size, boxes.shape_at(number), source=source, line=number)
        values = _row_values(line, number, layout, source, size)
        if len(values) != size:
            raise GridParseError(
                f"expected {size} values in this row like the first, got {len(values)}",
                source=source,
                line=number,
            )
        for column, value in enumerate(values, start=1):
            if value > size:
                raise GridParseError(
                    f"value {value} is above {size} ({article(size)} {size}x{size} grid holds "
                    f"1-{size})",
                    source=source,
                    line=number,
                    column=column,
                )
        block.append((number, values))
        if len(block) == size:
            try:
                grid = Grid.from_values(
                    [v for _, row in block for v in row], box=boxes.shape_at(block[0][0])
                )
            except GridShapeError as error:
                raise GridParseError(str(error), source=source, line=block[0][0]) from None
            yield InputPuzzle(
                start_index + offset, source, block[0][0], grid.to_line(), grid, number=offset
            )
            offset += 1
            block = []
    if block:
        raise GridParseError(
            f"expected {size} rows for {article(size)} {size}x{size} puzzle, got {len(block)} from "
            f"this line on",
            source=source,
            line=block[0][0],
        )


def _check_size(size: int, box: Shape | None, *, source: str, line: int) -> None:
    if _is_size(size) or box is not None:
        return
    hint = " (it is prime)" if size > 3 and all(size % d for d in range(2, size)) else ""
    above = f" ({size} is above the largest size, {MAX_SIZE})" if size > MAX_SIZE else hint
    raise GridParseError(
        f"no Sudoku has rows of {size} values{above}: sizes are 4, 6, 8, 9, "
        f"10, 12, 16, 25, ... up to {MAX_SIZE}",
        source=source,
        line=line,
    )


# -- writing -------------------------------------------------------------------------------------


def format_grid(grid: Grid, layout: Layout | str) -> str:
    """A grid in one of the text layouts (no trailing newline)."""
    layout = Layout(layout)
    if layout is Layout.LINE:
        return grid.to_line()
    if layout is Layout.GRID and grid.size <= SYMBOL_SIZE:
        return "\n".join("".join(value_symbol(v) for v in row) for row in grid.rows())
    return "\n".join(" ".join(str(v) for v in row) for row in grid.rows())


def to_json_line(data: dict[str, Any]) -> str:
    return json.dumps(data, separators=(",", ":"))


__all__ = [
    "Layout",
    "OUTPUT_FORMATS",
    "InputPuzzle",
    "decode_input",
    "detect_layout",
    "format_grid",
    "read_puzzles",
    "read_source",
    "to_json_line",
]
