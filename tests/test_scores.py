"""scores: solved within the limit, PAR-2, MiniZinc's Borda, exclusion on a wrong answer, the
virtual best and unique solves, each computed by hand on a small log and compared."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sudoku_cp.bench_statistics import PuzzleOutcome, puzzle_outcomes
from sudoku_cp.results_log.reader import load_results
from sudoku_cp.scores import score

from .bench_helpers import bench_header, puzzle_record, write_log

# Set "s", time limit 1 s, three puzzles. a answers puzzle 1 wrong (excluded); b times out on
# puzzle 1; c times out on puzzle 2.
RUNS = {
    0: [("a", "solved", 0.1), ("b", "solved", 0.2), ("c", "solved", 0.2)],
    1: [("a", "wrong", 0.1), ("b", "timeout", 1.0), ("c", "solved", 0.5)],
    2: [("a", "solved", 0.2), ("b", "solved", 0.4), ("c", "timeout", 1.0)],
}


@pytest.fixture
def scores(tmp_path: Path):
    records = [
        puzzle_record(
            "s",
            number,
            [
                {"backend": name, "status": status, "seconds": seconds}
                for name, status, seconds in runs
            ],
        )
        for number, runs in RUNS.items()
    ]
    log = write_log(
        tmp_path / "r.jsonl", bench_header(backends=("a", "b", "c"), time_limit=1.0), records
    )
    results = load_results(log)
    return score(puzzle_outcomes(results.rows()), time_limit=results.time_limit)


def test_par2_borda_unique_and_exclusion_by_hand(scores) -> None:
    a, b, c = scores.configurations
    assert (a.backend, a.excluded, a.wrong, a.borda, a.unique) == ("a", True, 1, None, 0)
    assert (b.solved, b.timeouts, c.solved, c.timeouts) == (2, 1, 2, 1)
    assert b.par2 == pytest.approx((0.2 + 2.0 + 0.4) / 3)
    assert c.par2 == pytest.approx((0.2 + 0.5 + 2.0) / 3)
    # b against c: puzzle 0 both in 0.2 s (0.5 each), puzzle 1 only c (c 1), puzzle 2 only b.
    assert (b.borda, c.borda) == (pytest.approx(1.5), pytest.approx(1.5))
    assert (b.unique, c.unique) == (1, 1)  # a's answers do not count: it is excluded
    (best,) = scores.virtual_best
    assert (best.members, best.solved) == (("b", "c"), 3)
    assert best.par2 == pytest.approx((0.2 + 0.5 + 0.4) / 3)
    assert [row.backend for row in scores.ranking("s", "lexmin")] == ["b", "c", "a"]


def test_the_scores_json_names_its_time_and_limit(scores) -> None:
    data = json.loads(json.dumps(scores.to_json()))
    assert (data["format"], data["version"], data["time_limit"]) == ("sudoku-cp scores", 1, 1.0)
    assert "wall-clock" in data["time"]
    assert [row["backend"] for row in data["configurations"]] == ["a", "b", "c"]
    assert data["virtual_best"][0]["members"] == ["b", "c"]


def test_an_answer_after_the_limit_is_not_solved() -> None:
    late = PuzzleOutcome("solved", 1.2, 9, 30)
    assert not late.solved_within(1.0) and late.solved_within(None)
    assert not PuzzleOutcome("wrong", 0.1, 9, 30).solved_within(1.0)
    assert PuzzleOutcome("unsatisfiable", 0.1, 9, 30).solved_within(1.0)


def test_a_portfolio_is_followed_by_the_virtual_best_of_its_members(tmp_path: Path) -> None:
    from sudoku_cp.scores import is_virtual, scored_summary

    members = {"members": "b+c"}
    runs = {  # p's runs name its members; b, c and d ran too; d is no member
        0: [("p", 0.3, members), ("b", 0.2, {}), ("c", 0.1, {}), ("d", 0.05, {})],
        1: [("p", 0.4, members), ("b", 0.6, {}), ("c", 0.5, {}), ("d", 0.05, {})],
    }
    records = [
        puzzle_record(
            "s",
            number,
            [
                {"backend": name, "status": "solved", "seconds": seconds, "stats": stats}
                for name, seconds, stats in puzzle
            ],
        )
        for number, puzzle in runs.items()
    ]
    header = bench_header(backends=("p", "b", "c", "d"), time_limit=1.0)
    results = load_results(write_log(tmp_path / "r.jsonl", header, records))
    rows = scored_summary(results.rows(), time_limit=1.0, baseline=None)
    assert [row.backend for row in rows] == ["p", "VBS(b+c)", "b", "c", "d", "VBS"]
    members_best = rows[1]
    assert (members_best.solved, members_best.median) == (2, pytest.approx((0.1 + 0.5) / 2))
    assert members_best.par2 == pytest.approx(0.3)
    assert rows[-1].median == pytest.approx(0.05)  # the set's VBS has d
    assert is_virtual("VBS(b+c)") and is_virtual("VBS") and not is_virtual("p")
    # without its members in the run, a portfolio has no such row
    alone = [row for row in results.rows() if row.backend in ("p", "d")]
    shown = [row.backend for row in scored_summary(alone, time_limit=1.0, baseline=None)]
    assert shown == ["p", "d", "VBS"]
