"""inputs: several sources read as one lazy stream of input puzzles (one line per puzzle read
in the line layout, numbered across sources, errors located and the rest read on), and the count
of a file's puzzles that a progress line shows (bounded memory, whatever the file)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from sudoku_cp.formats import Layout
from sudoku_cp.grid import Grid
from sudoku_cp.inputs import PuzzleStream, count_puzzles, load_puzzles

from .conftest import BAEKJOON_2239


class Pipe:
    """A binary standard input that hands out its lines one at a time and counts them."""

    def __init__(self, lines: Iterable[str]) -> None:
        self.lines = [f"{line}\n".encode() for line in lines]
        self.read = 0

    def readline(self, limit: int = -1) -> bytes:
        if self.read == len(self.lines):
            return b""
        self.read += 1
        return self.lines[self.read - 1]


def test_the_stream_reads_one_line_per_puzzle_in_the_line_layout() -> None:
    pipe = Pipe([BAEKJOON_2239, "0" * 16, BAEKJOON_2239])
    stream = iter(PuzzleStream(["-"], layout=Layout.LINE, stdin=pipe))
    assert next(stream).grid == Grid.parse(BAEKJOON_2239)
    assert pipe.read == 1
    assert next(stream).grid == Grid.empty(4)
    assert pipe.read == 2


def test_a_detected_line_layout_needs_no_lookahead_when_the_first_line_rules_out_a_grid() -> None:
    pipe = Pipe([BAEKJOON_2239] * 100)
    stream = PuzzleStream(["-"], stdin=pipe)
    assert next(iter(stream)).grid == Grid.parse(BAEKJOON_2239)
    assert pipe.read == 1
    assert stream.layouts == {"<stdin>": Layout.LINE}


def test_puzzles_of_several_sources_are_numbered_across_all(tmp_path: Path) -> None:
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    first.write_text(f"# a\n{BAEKJOON_2239}\n{'0' * 16}\n")
    second.write_text("\n".join(BAEKJOON_2239[r * 9 : (r + 1) * 9] for r in range(9)) + "\n")
    stream = PuzzleStream([str(first), str(tmp_path / "missing.txt"), str(second)])
    found = [(r.index, r.number, Path(r.source).name, r.line) for r in stream]
    assert found == [(0, 0, "a.txt", 2), (1, 1, "a.txt", 3), (2, 0, "b.txt", 1)]
    assert stream.layouts == {str(first): Layout.LINE, str(second): Layout.GRID}
    assert stream.errors == [f"{tmp_path / 'missing.txt'}: cannot read: No such file or directory"]
    assert (stream.read, stream.bad, stream.nothing_read) == (3, 0, False)


def test_first_takes_the_first_puzzles_of_each_source(tmp_path: Path) -> None:
    path = tmp_path / "many.txt"
    path.write_text("\n".join([BAEKJOON_2239] * 5 + ["bad"]) + "\n")
    stream = PuzzleStream([str(path), str(path)], first=2)
    assert [(r.index, r.number) for r in stream] == [(0, 0), (1, 1), (2, 0), (3, 1)]


def test_a_block_that_breaks_off_keeps_the_puzzles_before_it(tmp_path: Path) -> None:
    rows = [BAEKJOON_2239[r * 9 : (r + 1) * 9] for r in range(9)]
    path = tmp_path / "grids.txt"
    path.write_text("\n".join(rows + rows[:4] + ["12345678"]) + "\n")
    stream = PuzzleStream([str(path)])
    assert [r.line for r in stream] == [1]
    assert stream.errors == [f"{path}:14: expected 9 values in this row like the first, got 8"]
    assert not stream.nothing_read


def test_binary_data_met_midway_is_located(tmp_path: Path) -> None:
    path = tmp_path / "mixed.txt"
    path.write_bytes(f"{BAEKJOON_2239}\n".encode() + b"12\xff\n")
    stream = PuzzleStream([str(path)])
    assert len(list(stream)) == 1
    assert stream.errors == [
        f"{path}:2: binary data, not a puzzle (byte 0xff at offset 84 is not UTF-8 text)"
    ]


def test_nothing_read_when_every_source_fails(tmp_path: Path) -> None:
    stream = PuzzleStream([str(tmp_path)])
    assert list(stream) == []
    assert stream.nothing_read and stream.errors == [f"{tmp_path}: cannot read: is a directory"]


def test_unreadable_file_is_reported_and_others_go_on(tmp_path: Path) -> None:
    good = tmp_path / "good.txt"
    good.write_text(BAEKJOON_2239 + "\n")
    loaded = load_puzzles([str(tmp_path / "missing.txt"), str(good)])
    assert loaded.errors == [f"{tmp_path / 'missing.txt'}: cannot read: No such file or directory"]
    assert [r.source for r in loaded.records] == [str(good)]


def test_count_puzzles_counts_a_file_s_puzzles_and_refuses_what_it_cannot_count(
    tmp_path: Path,
) -> None:
    lines = tmp_path / "lines.txt"
    lines.write_text(f"# two\n{BAEKJOON_2239}\n\n{BAEKJOON_2239}\n")
    assert count_puzzles(str(lines)) == 2
    rows = [BAEKJOON_2239[r * 9 : (r + 1) * 9] for r in range(9)]
    grids = tmp_path / "grids.txt"
    grids.write_text("\n".join(rows * 3) + "\n")
    assert count_puzzles(str(grids)) == 3
    assert count_puzzles("-") is None
    assert count_puzzles(str(tmp_path / "missing.txt")) is None
    assert count_puzzles("/dev/zero") is None  # a device: never read (it has no end)
    endless = tmp_path / "one-long-line.txt"
    endless.write_bytes(b"0" * (3 << 20))  # no newline: not read whole into memory
    assert count_puzzles(str(endless)) is None
