"""generate.output: the command line, the header, the fact comments and the summary line of
generated puzzles (the whole output, and its JSON Lines, in tests/cli/test_generate.py)."""

from __future__ import annotations

from sudoku_cp.generate import GivensRange, Kind, Request, command_line
from sudoku_cp.generate.output import (
    fact_comment,
    header_lines,
    interrupted_line,
    slow_note,
    summary_line,
)
from sudoku_cp.generate.request import GeneratedPuzzle
from sudoku_cp.grid import Grid

from ..conftest import EMPTY_4_LEXMIN


def test_command_line_names_a_non_default_box_only():
    assert command_line(Request(Kind.UNSAT, 6, (3, 2), GivensRange(9, 16), 3, 2)) == (
        "sudoku-cp generate --kind unsat --size 6 --box 3x2 --count 2 --givens 9..16 --seed 3"
    )
    assert "--box" not in command_line(Request(Kind.UNSAT, 6, (2, 3), GivensRange(9, 16), 3))


def test_the_header_declares_a_non_default_box_and_the_limits_of_its_kind():
    multi = Request(Kind.MULTI, 6, (3, 2), GivensRange(9, 16), 3, solution_limit=7)
    lines = header_lines(multi, version="9.9")
    assert lines[0] == "# " + command_line(multi)
    assert lines[1] == "# sudoku-cp 9.9: the same command and version give the same puzzles"
    assert lines[2].startswith("# multi: ") and lines[2].endswith(" (counted up to 7)")
    assert lines[-1] == "# box: 3x2"  # read back with this shape, not the default 2x3
    unique = Request(Kind.UNIQUE, 6, (2, 3), GivensRange(9, 16), 3)
    assert not any(line.startswith("# box:") for line in header_lines(unique, version="9.9"))


def test_a_fact_comment_marks_a_capped_count_and_a_lower_bound_of_nodes():
    puzzle = Grid.parse(EMPTY_4_LEXMIN[:8] + "0" * 8)
    multi = GeneratedPuzzle(2, Kind.MULTI, puzzle, None, 1000, completions_capped=True)
    assert fact_comment(multi) == "# 3: givens=8 completions=1000+"
    solution = Grid.parse(EMPTY_4_LEXMIN)
    exact = GeneratedPuzzle(
        0, Kind.ADVERSARIAL, puzzle, solution, 1, naive_nodes=40, naive_finished=True
    )
    assert fact_comment(exact) == "# 1: givens=8 completions=1 naive_nodes=40"
    bound = GeneratedPuzzle(
        0, Kind.ADVERSARIAL, puzzle, solution, 1, naive_nodes=40, naive_finished=False
    )
    assert fact_comment(bound) == "# 1: givens=8 completions=1 naive_nodes>=40"


def test_the_summary_counts_the_puzzles_outside_the_range():
    request = Request(Kind.UNIQUE, 4, (2, 2), GivensRange(4, 6), 0)
    puzzles = [
        GeneratedPuzzle(0, Kind.UNIQUE, Grid.parse(EMPTY_4_LEXMIN[:n] + "0" * (16 - n)), None, 1)
        for n in (5, 8)
    ]
    assert summary_line(puzzles[:1], request) == "# 1 puzzle, givens 5..5 (mean 5.0)"
    assert summary_line(puzzles, request) == (
        "# 2 puzzles, givens 5..8 (mean 6.5), 1 outside 4..6 (stopped at a minimal puzzle)"
    )


def test_a_multi_puzzle_outside_the_range_says_its_swap_cycle_stays_blank():
    # A multi puzzle with fewer givens than asked did not stop at a minimal puzzle: the cells
    # of its swap cycle are blank whatever the range asked.
    request = Request(Kind.MULTI, 4, (2, 2), GivensRange(12, 12), 0)
    puzzle = GeneratedPuzzle(0, Kind.MULTI, Grid.parse(EMPTY_4_LEXMIN[:10] + "0" * 6), None, 2)
    assert summary_line([puzzle], request) == (
        "# 1 puzzle, givens 10..10 (mean 10.0), 1 outside 12..12 "
        "(the cells of a swap cycle stay blank)"
    )


def test_an_interrupted_run_closes_with_what_it_holds():
    request = Request(Kind.UNIQUE, 9, (3, 3), GivensRange(22, 32), 0, count=5)
    assert interrupted_line(2, request, "Interrupted") == (
        "# Interrupted after 2 of 5 puzzles: these 2 puzzles are those of --count 2"
    )
    assert interrupted_line(0, request, "Terminated") == (
        "# Terminated before the first puzzle of 5"
    )


def test_a_big_grid_run_says_it_takes_minutes_before_it_waits():
    # generate at 26x26 and 64x64 printed nothing for minutes: a kind that must be unique says
    # so as it starts; multi (no uniqueness question) and the sizes up to 25x25 say nothing.
    note = slow_note(Request(Kind.UNIQUE, 26, (2, 13), GivensRange(300, 400), 0))
    assert note is not None and note.startswith("Note: a unique 26x26 puzzle takes many minutes")
    assert "'Big grids'" in note
    assert slow_note(Request(Kind.UNSAT, 64, (8, 8), GivensRange(2000, 3000), 0)) is not None
    assert slow_note(Request(Kind.MULTI, 64, (8, 8), GivensRange(2000, 3000), 0)) is None
    assert slow_note(Request(Kind.UNIQUE, 25, (5, 5), GivensRange(265, 280), 0)) is None
