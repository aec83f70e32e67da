from __future__ import annotations

from sudoku_cp.explain import TECHNIQUES
from sudoku_cp.explain.job import ExplainJob
from sudoku_cp.grid import Grid

from ..conftest import BAEKJOON_2239, UNSOLVABLE_4


def test_the_record_holds_what_was_asked_for() -> None:
    with ExplainJob(TECHNIQUES, complete=False, check=True, why_unsat=True) as job:
        solved = job.run(Grid.parse(BAEKJOON_2239)).to_dict()
        unsat = job.run(Grid.parse(UNSOLVABLE_4)).to_dict()
        assert len(job.oracles) == 2  # one per shape
    assert solved["status"] == "solved" and solved["rating"] == {
        "level": 1,
        "technique": "hidden single",
    }
    assert solved["check"]["sound"] and "unsat_core" not in solved
    assert solved["steps"][0]["placements"][0][2] in range(1, 10)
    assert unsat["status"] == "unsatisfiable"
    assert unsat["contradiction"] == "r1c1 has no candidate left"
    assert unsat["unsat_core"] == [[1, 2, 1], [1, 3, 2], [2, 1, 3], [3, 1, 4]]
    assert unsat["unsat_core_minimal"] is True


def test_without_check_or_core_the_record_has_neither() -> None:
    with ExplainJob(TECHNIQUES, complete=False, check=False, why_unsat=False) as job:
        record = job.run(Grid.parse(UNSOLVABLE_4)).to_dict()
    assert "check" not in record and "unsat_core" not in record
