"""The Sudoku grid: geometry computed once per shape, and the immutable `Grid`.

Glossary (Norvig's vocabulary, with integer cells):
    size      N, the number of rows, columns, boxes and values (4, 6, 8, 9, 12, 16, 25, ...).
    box       a box_rows x box_cols block; box_rows * box_cols == N (3x3 for 9, 2x3 for 6).
    cell      an index 0 .. N*N-1, row-major: cell = row * N + column.
    value     1 .. N; 0 is a blank. Written as a symbol: 1-9, then A=10 .. P=25 (up to Z=35).
    unit      a row, a column or a box: N cells that must hold every value once.
    peers     of a cell: the other cells of its three units.
    given     a filled cell of the puzzle.
    completion  a full grid that keeps every given and has no repeated value in any unit.
    lex-min   the completion whose row-major sequence of values is smallest.
"""

from __future__ import annotations

import functools
import math
import operator
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from .errors import GridParseError, GridShapeError
from .text import article, excerpt

BLANK = 0
SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
SYMBOL_SIZE = len(SYMBOLS)  # the largest size whose values all have a one-character symbol
MAX_SIZE = 64  # the largest size supported; above SYMBOL_SIZE values are written as numbers
BLANK_SYMBOLS = "0."
UNIT_KINDS = ("row", "column", "box")

Shape = tuple[int, int]  # (box_rows, box_cols)


_SYMBOL_OF_VALUE = ("0", *SYMBOLS)
_ALL_SYMBOLS = {
    **{symbol: value for value, symbol in enumerate(SYMBOLS, start=1)},
    **{symbol.lower(): value for value, symbol in enumerate(SYMBOLS, start=1)},
    "0": BLANK,
    ".": BLANK,
}
_VALUE_OF_SYMBOL: dict[int, dict[str, int]] = {}  # per size: the symbols a puzzle may use


def value_symbol(value: int) -> str:
    """The symbol of a value: 0 for blank, 1-9, then A..Z (35); above 35, the number itself."""
    if value == BLANK:
        return "0"
    return SYMBOLS[value - 1] if value <= SYMBOL_SIZE else str(value)


def symbol_value(symbol: str) -> int | None:
    """The value of a symbol ('0'/'.' blank, '1'-'9', 'A'/'a' = 10 ...), or None if unknown."""
    if symbol in BLANK_SYMBOLS:
        return BLANK
    index = SYMBOLS.find(symbol.upper())
    return index + 1 if index >= 0 else None


def default_box(size: int) -> Shape:
    """Square boxes when N is a square, else the squarest rectangle with fewer rows (6 -> 2x3).

    Raises:
        GridShapeError: for a size that no box tiles (a prime such as 7, or N < 4).
    """
    if size < 4 or size > MAX_SIZE:
        raise GridShapeError(f"unsupported size {size}: sizes run from 4 to {MAX_SIZE}")
    for box_rows in range(math.isqrt(size), 1, -1):
        if size % box_rows == 0:
            return box_rows, size // box_rows
    raise GridShapeError(f"no box shape fits size {size} (it is prime)")


def parse_box(text: str) -> Shape:
    """Parse a box shape written 'RxC' (e.g. '2x3').

    Raises:
        GridShapeError: when the text is not two positive integers joined by 'x'.
    """
    rows, sep, cols = text.lower().partition("x")
    if not sep or not rows.strip().isdigit() or not cols.strip().isdigit():
        raise GridShapeError(f"expected a box shape like 2x3, got {text!r}")
    return int(rows), int(cols)


@dataclass(frozen=True, eq=False)
class Geometry:
    """Everything about an N x N Sudoku that does not depend on the values: units and peers."""

    size: int
    box_rows: int
    box_cols: int
    rows: tuple[tuple[int, ...], ...]
    columns: tuple[tuple[int, ...], ...]
    boxes: tuple[tuple[int, ...], ...]
    units_of: tuple[tuple[tuple[int, ...], ...], ...] = field(repr=False)
    peers: tuple[tuple[int, ...], ...] = field(repr=False)

    @property
    def cells(self) -> range:
        """All cells, row-major."""
        return range(self.size * self.size)

    @functools.cached_property
    def units(self) -> tuple[tuple[int, ...], ...]:
        """Rows, then columns, then boxes."""
        return self.rows + self.columns + self.boxes

    @functools.cached_property
    def unit_getters(self) -> tuple[Callable[[Sequence[int]], tuple[int, ...]], ...]:
        """Per unit (in `units` order), a C-level getter of its cells' values: the checks run
        on every puzzle and every answer."""
        return tuple(operator.itemgetter(*unit) for unit in self.units)

    @functools.cached_property
    def peer_getters(self) -> tuple[Callable[[Sequence[int]], tuple[int, ...]], ...]:
        """Per cell, a C-level getter of its peers' values."""
        return tuple(operator.itemgetter(*peers) for peers in self.peers)

    @property
    def box_shape(self) -> Shape:
        return self.box_rows, self.box_cols

    def row_of(self, cell: int) -> int:
        return cell // self.size

    def column_of(self, cell: int) -> int:
        return cell % self.size

    def box_of(self, cell: int) -> int:
        row, column = divmod(cell, self.size)
        return (row // self.box_rows) * (self.size // self.box_cols) + column // self.box_cols

    def name_unit(self, unit_index: int) -> str:
        """'row 3', 'column 5' or 'box 7' (1-based) for an index into `units`."""
        kind, number = divmod(unit_index, self.size)
        return f"{UNIT_KINDS[kind]} {number + 1}"


def geometry(size: int, box: Shape | None = None) -> Geometry:
    """The geometry of an N x N grid with the given box shape (default: `default_box(size)`).

    Raises:
        GridShapeError: when the size is unsupported or the boxes do not tile the grid.
    """
    return _geometry(size, tuple(box) if box is not None else default_box(size))


@functools.cache
def _geometry(size: int, box: Shape) -> Geometry:
    box_rows, box_cols = box
    if size < 4 or size > MAX_SIZE:
        raise GridShapeError(f"unsupported size {size}: sizes run from 4 to {MAX_SIZE}")
    if box_rows < 2 or box_cols < 2 or box_rows * box_cols != size:
        raise GridShapeError(
            f"{article(box_rows)} {box_rows}x{box_cols} box does not fit "
            f"{article(size)} {size}x{size} grid"
        )
    n = size
    rows = tuple(tuple(r * n + c for c in range(n)) for r in range(n))
    columns = tuple(tuple(r * n + c for r in range(n)) for c in range(n))
    boxes = tuple(
        tuple((band + r) * n + stack + c for r in range(box_rows) for c in range(box_cols))
        for band in range(0, n, box_rows)
        for stack in range(0, n, box_cols)
    )
    units_of_cell: list[list[tuple[int, ...]]] = [[] for _ in range(n * n)]
    for unit in rows + columns + boxes:
        for cell in unit:
            units_of_cell[cell].append(unit)
    peers = tuple(
        tuple(sorted(set().union(*units_of_cell[cell]) - {cell})) for cell in range(n * n)
    )
    return Geometry(
        n, box_rows, box_cols, rows, columns, boxes, tuple(tuple(u) for u in units_of_cell), peers
    )


@dataclass(frozen=True)
class Conflict:
    """Two or more equal givens in one unit: which unit, which value, which cells."""

    unit: str  # 'row 3', 'column 5', 'box 7' (1-based)
    value: int
    cells: tuple[int, ...]

    def describe(self) -> str:
        """A sentence such as 'row 3 has two 5s'."""
        counts = {2: "two", 3: "three", 4: "four"}
        how_many = counts.get(len(self.cells), str(len(self.cells)))
        return f"{self.unit} has {how_many} {self.value}s"


@dataclass(frozen=True)
class Grid:
    """An immutable N x N Sudoku: values row-major, 0 for a blank.

    `Grid.parse(line)` and `grid.to_line()` are inverse; `repr` rebuilds the grid; `str` is a
    picture with box separators. The values are checked to lie in 0..N; repeated givens are not an
    error here but data (`conflicts()`).
    """

    values: tuple[int, ...]
    box: Shape

    def __post_init__(self) -> None:
        size = math.isqrt(len(self.values))
        if size * size != len(self.values):
            raise GridShapeError(f"{len(self.values)} cells do not make a square grid")
        geometry(size, self.box)  # validates the shape
        if self.values and (min(self.values) < 0 or max(self.values) > size):
            bad = next(v for v in self.values if not 0 <= v <= size)
            raise GridShapeError(
                f"value {bad} does not fit {article(size)} {size}x{size} grid (1..{size})"
            )

    # -- construction ---------------------------------------------------------------------------

    @classmethod
    def from_values(cls, values: Iterable[int], *, box: Shape | None = None) -> Grid:
        """A grid from N*N values (0 for blank), with the default box for its size unless given."""
        values = tuple(values)
        size = math.isqrt(len(values))
        return cls(values, box if box is not None else default_box(size))

    @classmethod
    def empty(cls, size: int, *, box: Shape | None = None) -> Grid:
        """The blank N x N grid."""
        return cls.from_values([BLANK] * (size * size), box=box)

    @classmethod
    def parse(cls, line: str, *, box: Shape | None = None) -> Grid:
        """Parse one puzzle written as N*N symbols ('0' or '.' blank, 1-9, A..; any case), or
        as N*N numbers separated by commas (any N; the only way above 35, see `to_line`).

        Raises:
            GridParseError: when the length is not N*N for a supported N, or a symbol is
                unknown or above N; the column is 1-based.
        """
        text = line.strip()
        if "," in text:
            return cls._parse_numbers(text, box)
        size = math.isqrt(len(text))
        if size * size != len(text) or size < 4:
            raise GridParseError(
                f"expected N*N symbols for a puzzle (16, 36, 64, 81, 144, 256, 625, ...), "
                f"got {len(text)}: {excerpt(text)}"
            )
        try:
            shape = box if box is not None else default_box(size)
            geometry(size, shape)
        except GridShapeError as error:
            raise GridParseError(f"{error} ({len(text)} symbols)") from None
        fast = _VALUE_OF_SYMBOL.get(size)
        if fast is None:
            fast = _VALUE_OF_SYMBOL[size] = {
                symbol: value for symbol, value in _ALL_SYMBOLS.items() if value <= size
            }
        try:  # the common case, a well-formed line, in one C-level pass
            return cls(tuple(map(fast.__getitem__, text)), shape)
        except KeyError:
            pass  # find the bad symbol and say where it is
        values = []
        for column, symbol in enumerate(text, start=1):
            value = symbol_value(symbol)
            if value is None or value > size:
                alphabet = f"0 or . for blank and {SYMBOLS[0]}-{SYMBOLS[size - 1]}"
                if value is None or (size <= 9 and not symbol.isdigit()):
                    problem = f"unknown symbol {symbol!r}"
                else:
                    problem = f"symbol {symbol!r}: value {value} is above {size}"
                raise GridParseError(
                    f"{problem} ({article(size)} {size}x{size} puzzle uses {alphabet})",
                    column=column,
                )
            values.append(value)
        return cls(tuple(values), shape)

    @classmethod
    def _parse_numbers(cls, text: str, box: Shape | None) -> Grid:
        tokens = [token.strip() for token in text.split(",")]
        size = math.isqrt(len(tokens))
        if size * size != len(tokens) or size < 4:
            raise GridParseError(
                f"expected N*N comma-separated numbers for a puzzle, got "
                f"{len(tokens)}: {excerpt(text)}"
            )
        values = []
        for column, token in enumerate(tokens, start=1):
            if token == ".":
                token = "0"
            if not (token.isascii() and token.isdigit()) or int(token) > size:
                raise GridParseError(
                    f"value {token!r} is not a number from 0 to {size} "
                    f"(number {column} of the line)"
                )
            values.append(int(token))
        try:
            return cls.from_values(values, box=box)
        except GridShapeError as error:
            raise GridParseError(f"{error} ({len(tokens)} numbers)") from None

    # -- views ----------------------------------------------------------------------------------

    @property
    def size(self) -> int:
        return math.isqrt(len(self.values))

    @property
    def geometry(self) -> Geometry:
        return geometry(self.size, self.box)

    def rows(self) -> list[tuple[int, ...]]:
        """The values row by row."""
        n = self.size
        return [self.values[r * n : (r + 1) * n] for r in range(n)]

    def givens(self) -> dict[int, int]:
        """Filled cells: {cell: value}."""
        return {cell: value for cell, value in enumerate(self.values) if value != BLANK}

    def blanks(self) -> list[int]:
        """Blank cells, row-major."""
        return [cell for cell, value in enumerate(self.values) if value == BLANK]

    def is_complete(self) -> bool:
        return BLANK not in self.values

    def with_values(self, changes: dict[int, int]) -> Grid:
        """A copy with some cells set (0 blanks a cell)."""
        values = list(self.values)
        for cell, value in changes.items():
            values[cell] = value
        return Grid(tuple(values), self.box)

    def to_line(self) -> str:
        """The puzzle as N*N symbols, '0' for blank (above 35: N*N numbers joined by commas):
        the inverse of `Grid.parse`."""
        if self.size > SYMBOL_SIZE:
            return ",".join(str(v) for v in self.values)
        return "".join(map(_SYMBOL_OF_VALUE.__getitem__, self.values))

    def to_text(self) -> str:
        """The grid layout the CLI prints: one row of symbols per line, '0' for blank (above
        35, the spaced layout: numbers separated by spaces)."""
        if self.size > SYMBOL_SIZE:
            return "\n".join(" ".join(str(v) for v in row) for row in self.rows())
        return "\n".join("".join(value_symbol(v) for v in row) for row in self.rows())

    def picture(self) -> str:
        """A human picture: rows of symbols with '.' blanks and box separators."""
        geo = self.geometry
        lines = []
        for r, row in enumerate(self.rows()):
            if r and r % geo.box_rows == 0:
                lines.append(
                    "-+-".join(
                        "-" * (2 * geo.box_cols - 1) for _ in range(self.size // geo.box_cols)
                    )
                )
            chunks = [
                " ".join("." if v == BLANK else value_symbol(v) for v in row[c : c + geo.box_cols])
                for c in range(0, self.size, geo.box_cols)
            ]
            lines.append(" | ".join(chunks))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.picture()

    def __repr__(self) -> str:
        box = "" if self.box == default_box(self.size) else f", box={self.box!r}"
        return f"Grid.parse({self.to_line()!r}{box})"

    # -- rules ----------------------------------------------------------------------------------

    def conflicts(self) -> list[Conflict]:
        """Every unit holding a value more than once, in unit order (rows, columns, boxes)."""
        geo = self.geometry
        values = self.values
        found: list[Conflict] = []
        for index, (unit, values_of) in enumerate(zip(geo.units, geo.unit_getters, strict=True)):
            in_unit = values_of(values)
            if len(set(in_unit)) + in_unit.count(BLANK) - (BLANK in in_unit) == len(in_unit):
                continue  # the common case, checked cheaply: this runs on every puzzle
            seen: dict[int, list[int]] = {}
            for cell in unit:
                if self.values[cell] != BLANK:
                    seen.setdefault(self.values[cell], []).append(cell)
            for value in sorted(seen):
                if len(seen[value]) > 1:
                    found.append(Conflict(geo.name_unit(index), value, tuple(seen[value])))
        return found

    def why_not_solution_of(self, puzzle: Grid) -> str | None:
        """None when this grid is a completion of `puzzle`, else the first reason it is not."""
        if self.size != puzzle.size or self.box != puzzle.box:
            return (
                f"{article(self.size)} {self.size}x{self.size} grid cannot complete "
                f"{article(puzzle.size)} {puzzle.size}x{puzzle.size} puzzle"
            )
        for cell, value in enumerate(puzzle.values):
            if value != BLANK and self.values[cell] != value:
                return (
                    f"changes the given {value_symbol(value)} at row "
                    f"{cell // self.size + 1}, column {cell % self.size + 1}"
                )
        if BLANK in self.values:
            cell = self.values.index(BLANK)
            return f"leaves row {cell // self.size + 1}, column {cell % self.size + 1} blank"
        conflicts = self.conflicts()
        if conflicts:
            return conflicts[0].describe()
        return None

    def is_solution_of(self, puzzle: Grid) -> bool:
        """The one definition of correct: full, every unit valid, every given of `puzzle` kept."""
        return self.why_not_solution_of(puzzle) is None


def grids_from_lines(lines: Sequence[str], *, box: Shape | None = None) -> list[Grid]:
    """Parse several one-line puzzles (a convenience for tests and scripts)."""
    return [Grid.parse(line, box=box) for line in lines]
