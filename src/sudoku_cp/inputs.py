"""Where a run's puzzles come from: files, standard input ('-'), puzzle sets by name, a text or
a `Grid`, turned into one lazy stream of `InputPuzzle`s (`PuzzleStream`; both faces use this),
and how many puzzles a file holds (a progress total)."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import GridParseError
from .formats import MAX_LOOKAHEAD, InputPuzzle, Layout, detect_layout, read_puzzles, read_source
from .grid import Grid, Shape, parse_box
from .textio import decoded_lines, open_source

# The longest line a count reads: far beyond any puzzle (a 64x64 line has 4,096 symbols).
LONGEST_LINE = 1 << 20

Source = str | os.PathLike[str]
Sources = Source | Sequence[Source]


@dataclass
class Loaded:
    """Every puzzle of several sources, with the layout of each and what could not be read."""

    records: list[InputPuzzle]
    layouts: dict[str, Layout]  # source -> layout it was read in
    errors: list[str]  # whole-source failures, located ("file:line: ...")

    @property
    def first_layout(self) -> Layout:
        return next(iter(self.layouts.values()), Layout.LINE)


class PuzzleStream:
    """The puzzles of several sources ('-' is standard input), read lazily, numbered across all.

    Iterate it once. Lines are read as they are needed, so the first answer of a slow pipe can
    be printed before the input ends, and memory does not grow with the input. A source that
    cannot be read, or a grid block that breaks off, is reported in `errors` (located) and its
    remaining lines are skipped; `layouts` names the layout of each source opened so far.
    """

    def __init__(
        self,
        paths: Iterable[str],
        *,
        layout: Layout | None = None,
        box: Shape | None = None,
        stdin: Any = None,
        first: int | None = None,
    ) -> None:
        self.paths = list(paths) or ["-"]
        self.layout = layout
        self.box = box
        self.stdin = stdin
        self.first = first
        self.layouts: dict[str, Layout] = {}
        self.errors: list[str] = []
        self.read = 0  # records yielded so far
        self.bad = 0  # of which are not puzzles

    def __iter__(self) -> Iterator[InputPuzzle]:
        for path in self.paths:
            source = "<stdin>" if path == "-" else path
            try:
                with open_source(path, self.stdin) as handle:
                    chosen, records = read_source(
                        decoded_lines(handle, source),
                        source=source,
                        layout=self.layout,
                        box=self.box,
                        start_index=self.read,
                        first=self.first,
                    )
                    self.layouts[source] = chosen
                    for record in records:
                        self.read += 1
                        self.bad += record.grid is None
                        yield record
            except GridParseError as error:
                self.errors.append(error.located())

    @property
    def nothing_read(self) -> bool:
        """Every source failed before its first puzzle."""
        return bool(self.errors) and self.read == 0


def load_puzzles(
    paths: Iterable[str],
    *,
    layout: Layout | None = None,
    box: Shape | None = None,
    stdin: Any = None,
) -> Loaded:
    """Read every puzzle of files ('-' is standard input) into memory (see `PuzzleStream`)."""
    stream = PuzzleStream(paths, layout=layout, box=box, stdin=stdin)
    records = list(stream)
    return Loaded(records, stream.layouts, stream.errors)


def count_puzzles(path: str, *, layout: Layout | None = None) -> int | None:
    """How many puzzles a file holds, counted fast (content lines, nothing parsed), for a
    progress total; None for standard input or a file that cannot be read. A grid or spaced
    file counts N content lines a puzzle."""
    if path == "-":
        return None
    head: list[tuple[int, str]] = []
    count = 0
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None  # a device or a pipe: no total (and no reading it twice)
        with open(path, "rb") as handle:
            for number, raw in enumerate(iter(lambda: handle.readline(LONGEST_LINE), b""), 1):
                if len(raw) >= LONGEST_LINE:
                    return None  # no puzzle line is this long: the reader will say what it is
                stripped = raw.strip()
                if not stripped or stripped.startswith(b"#"):
                    continue
                count += 1
                if len(head) < MAX_LOOKAHEAD:
                    head.append((number, stripped.decode("utf-8", "replace")))
    except OSError:
        return None
    if not head:
        return 0
    chosen = layout or detect_layout(head)
    if chosen is Layout.LINE:
        return count
    size = len(head[0][1].split()) if chosen is Layout.SPACED else len(head[0][1])
    return count // size if size else None


def puzzle_stream(
    sources: Sequence[Source],
    *,
    layout: Layout | str | None = None,
    box: Shape | str | None = None,
    download: bool = True,
    first: int | None = None,
) -> PuzzleStream:
    """The puzzles of files and set names, read lazily (standard input when none, or '-').

    A name that is not an existing file is looked up as a puzzle set (fetched on first use
    unless `download` is False).

    Raises:
        DataSetError: for a name that is neither a file nor a set, or a set that cannot be had.
        GridShapeError: for a box shape that no Sudoku has.
    """
    paths = [resolve(os.fspath(source), download=download) for source in sources] or ["-"]
    return PuzzleStream(
        paths, layout=Layout(layout) if layout else None, box=box_shape(box), first=first
    )


def resolve(path: str, *, download: bool = True) -> str:
    """A file (or '-') as is, else the path of the puzzle set of that name."""
    if path == "-" or os.path.exists(path):
        return path  # a file: no need to load the set registry
    from .datasets import resolve_source

    return resolve_source(path, download=download)


def box_shape(box: Shape | str | None) -> Shape | None:
    """A box shape given as 'RxC' or as a pair (None: the size's default).

    Raises:
        GridShapeError: for text that is not a box shape.
    """
    return parse_box(box) if isinstance(box, str) else box


def puzzles_of(
    source: Sources | Grid | bytes,
    *,
    layout: Layout | str | None = None,
    box: Shape | str | None = None,
    first: int | None = None,
    download: bool = True,
) -> Iterable[InputPuzzle]:
    """The puzzles of what a Python caller hands over: a `Grid`, a text holding puzzles in any
    layout (`str`, or `bytes` in UTF-8), or a file, a set name or a list of them (a bad line comes
    as a record with its error; a source that cannot be read raises at the end).

    Raises:
        GridParseError: for a source that cannot be read (after its readable puzzles), or bytes
            that are not UTF-8.
    """
    if isinstance(source, bytes):
        try:
            source = source.decode("utf-8")
        except UnicodeDecodeError as error:
            raise GridParseError(f"puzzle bytes are not UTF-8 text ({error.reason})") from None
        if "\n" not in source:
            source += "\n"  # text, never a file name
    if isinstance(source, Grid):
        return [InputPuzzle(0, "<grid>", 1, source.to_line(), source)]
    if isinstance(source, str) and ("\n" in source or not _looks_like_path(source)):
        chosen = Layout(layout) if layout else None
        return read_puzzles(source, source="<text>", layout=chosen, box=box_shape(box))[1]
    paths = [source] if isinstance(source, (str, os.PathLike)) else list(source)
    return _raising(puzzle_stream(paths, layout=layout, box=box, first=first, download=download))


def _looks_like_path(text: str) -> bool:
    from .datasets import names

    return (
        os.path.exists(text)
        or "/" in text
        or text.endswith((".txt", ".sdk", ".csv"))
        or text == "-"
        or text in names()
    )


def _raising(stream: PuzzleStream) -> Iterator[InputPuzzle]:
    yield from stream
    if stream.errors:
        raise GridParseError(stream.errors[0])


__all__ = [
    "Loaded",
    "PuzzleStream",
    "Source",
    "Sources",
    "box_shape",
    "count_puzzles",
    "load_puzzles",
    "puzzle_stream",
    "puzzles_of",
    "resolve",
]
