"""report_html/explanations.py: the explanation of each puzzle, for the puzzle view's
step-through, within the bounds on the grid size and the count of puzzles."""

from __future__ import annotations

import json
from pathlib import Path

from sudoku_cp.explain import explain
from sudoku_cp.grid import Grid
from sudoku_cp.report_html.explanations import explanation_of, puzzle_explanations
from sudoku_cp.report_html.payload import configuration_list, puzzle_details
from sudoku_cp.results_log.reader import load_results

from ..bench_helpers import bench_header, puzzle_record, write_log

EXAMPLE = Path(__file__).parents[2] / "data" / "examples" / "baekjoon2239.txt"
RUNS = [{"backend": "a", "status": "solved", "seconds": 0.001}]


def example() -> str:
    return "".join(EXAMPLE.read_text().split())


def test_the_known_puzzle_is_solved_in_51_steps_of_singles() -> None:
    grid = Grid.parse(example())
    data = explanation_of(grid)
    assert data["st"] == "solved" and len(data["s"]) == 51 and "why" not in data
    steps = explain(grid).steps
    assert [text for text, _, _ in data["s"]] == [step.describe(9) for step in steps]
    assert all(text.startswith(("hidden single", "naked single")) for text, _, _ in data["s"])
    text, placements, eliminations = data["s"][0]
    cell, value = steps[0].placements[0]
    assert placements == [cell, value] and eliminations == []
    assert f"r{cell // 9 + 1}c{cell % 9 + 1}={value}" in text  # 1-based in the text
    values = list(grid.values)
    for _, placed, _ in data["s"]:
        for at in range(0, len(placed), 2):
            assert values[placed[at]] == 0  # each cell is placed once, never a given
            values[placed[at]] = placed[at + 1]
    solved = Grid.from_values(values)
    assert 0 not in values and not solved.conflicts()


def test_a_stuck_puzzle_shows_its_steps_until_stuck() -> None:
    empty = Grid.empty(9)  # many completions: no deduction settles it
    data = explanation_of(empty)
    assert data["st"] == "stuck" and data["s"] == []


def test_an_invalid_puzzle_has_no_explanation_and_says_why() -> None:
    line = "11" + "0" * 79
    assert explanation_of(Grid.parse(line))["none"].startswith("not a valid puzzle")


def test_the_bounds_on_size_and_count(tmp_path: Path) -> None:
    records = [
        puzzle_record("s", 0, RUNS, puzzle=example()),
        puzzle_record("s", 1, RUNS, puzzle="0" * 81),
        puzzle_record("s", 2, RUNS, puzzle=example()),  # the same puzzle again
        puzzle_record("s", 3, RUNS, puzzle="0" * 256, size=16),
    ]
    results = load_results(write_log(tmp_path / "r.jsonl", bench_header(), records))
    found = puzzle_explanations(results.entries, max_puzzles=1)
    assert len(found[0]["s"]) == 51 and found[2] is found[0]  # explained once, within the bound
    assert found[1] == {"none": "only the first 1 distinct puzzles are explained"}
    assert puzzle_explanations(results.entries, max_size=9)[3] == {
        "none": "grids over 9x9 are not explained"
    }
    assert puzzle_explanations(results.entries)[3]["st"] == "stuck"  # 16x16 is explained
    labels, _ = configuration_list(results)
    details = [json.loads(text) for text in puzzle_details(results, labels, {}, found)]
    assert [detail["ex"] for detail in details] == found
    assert all("ex" not in json.loads(text) for text in puzzle_details(results, labels, {}))
