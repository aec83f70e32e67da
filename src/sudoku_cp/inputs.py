"""Where a run's puzzles come from: files, standard input ('-'), puzzle sets by name, a text or
a `Grid`, turned into one lazy stream of `PuzzleRecord`s (both faces use this)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence

from .errors import GridParseError
from .formats import Layout, PuzzleRecord, PuzzleStream, read_puzzles
from .grid import Grid, Shape, parse_box

Source = str | os.PathLike[str]
Sources = Source | Sequence[Source]


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
    source: Sources | Grid,
    *,
    layout: Layout | str | None = None,
    box: Shape | str | None = None,
    first: int | None = None,
    download: bool = True,
) -> Iterable[PuzzleRecord]:
    """The puzzles of what a Python caller hands over: a `Grid`, a text holding puzzles in any
    layout, or a file, a set name or a list of them (a bad line comes as a record with its
    error; a source that cannot be read raises at the end).

    Raises:
        GridParseError: for a source that cannot be read (after its readable puzzles).
    """
    if isinstance(source, Grid):
        return [PuzzleRecord(0, "<grid>", 1, source.to_line(), source)]
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


def _raising(stream: PuzzleStream) -> Iterator[PuzzleRecord]:
    yield from stream
    if stream.errors:
        raise GridParseError(stream.errors[0])


__all__ = ["Source", "Sources", "box_shape", "puzzle_stream", "puzzles_of", "resolve"]
