"""judging: every answer checked by the one verifier into a run of its status (a wrong one
`wrong`, with its finding), a puzzle's verdict, the entry a results log keeps, and the set a
source names."""

from __future__ import annotations

import json

import pytest

from sudoku_cp.configurations import Configuration
from sudoku_cp.engine import execute
from sudoku_cp.formats import read_puzzles
from sudoku_cp.grid import Grid
from sudoku_cp.judging import PuzzleRuns, SolveSettings, judge, set_of
from sudoku_cp.result import Mode

from .conftest import EMPTY_4_LEXMIN, multi, records
from .wrong_backends import wrong_backends  # noqa: F401 (a fixture)

pytestmark = pytest.mark.usefixtures("wrong_backends")


def test_judge_turns_wrong_answers_into_wrong_runs() -> None:
    specs = [Configuration("dfs"), Configuration("givenchanger"), Configuration("notlexmin")]
    outcome = next(execute(records(multi(0)), specs, SolveSettings()))
    assert outcome.verdict == "wrong"
    assert [(run.label, run.status) for run in outcome.answers] == [
        ("dfs", "solved"),
        ("givenchanger", "wrong"),
        ("notlexmin", "wrong"),
    ]
    assert [finding.split(":")[0] for finding in outcome.findings] == ["givenchanger", "notlexmin"]


def test_to_entry_holds_what_a_results_log_needs() -> None:
    settings = SolveSettings(Mode.COUNT, limit=2)
    six = "0" * 36
    outcome = next(
        execute(
            read_puzzles(six + "\n", source="data/six.txt", box=(3, 2))[1],
            [Configuration("dfs"), Configuration("crasher")],
            settings,
        )
    )
    record = json.loads(json.dumps(outcome.to_entry().to_json()))
    runs = record.pop("runs")
    assert record == {
        "kind": "puzzle",
        "index": 0,
        "set": "six",
        "number": 0,
        "source": "data/six.txt",
        "line": 1,
        "puzzle": six,
        "box": "3x2",
        "size": 6,
        "givens": 0,
        "mode": "count",
        "verdict": "error",
        "findings": ["crasher: error: RuntimeError: boom"],
    }
    assert [
        (run["backend"], run["status"], run["count"], run["limit_reached"]) for run in runs[:1]
    ] == [("dfs", "solved", 2, True)]
    assert Grid.parse(runs[0]["solution"], box=(3, 2)).is_solution_of(Grid.empty(6, box=(3, 2)))
    failed = {
        "backend": "crasher",
        "repeat": 0,
        "status": "error",
        "seconds": None,
        "cpu_seconds": None,
        "max_rss_mb": None,
        "build_seconds": None,
        "solve_seconds": None,
        "solution": None,
        "reason": "RuntimeError: boom",
        "stats": {},
    }
    assert {key: runs[1].get(key) for key in failed} == failed
    plain = next(execute(records(EMPTY_4_LEXMIN), [Configuration("dfs")], SolveSettings()))
    assert "box" not in plain.to_entry().to_json()


def test_input_that_is_not_a_puzzle_is_never_judged() -> None:
    bad = records("x" * 81)[0]
    with pytest.raises(AssertionError, match="only puzzles are judged"):
        judge(PuzzleRuns(bad), [Configuration("dfs")], Mode.LEXMIN)


@pytest.mark.parametrize(
    "source, name",
    [
        ("../shared/data/top95.txt", "top95"),
        ("<stdin>", "stdin"),
        ("dir/puzzles", "puzzles"),
        (".hidden", ".hidden"),
        ("a.b.txt", "a.b"),
    ],
)
def test_set_of_a_source(source: str, name: str) -> None:
    assert set_of(source) == name


def test_certifying_a_count_past_the_certifiers_cap_is_refused() -> None:
    # Every count claim above the cap would fail to certify and be counted as wrong.
    pytest.importorskip("dratify")
    from sudoku_cp.certify.certifier import COUNT_CAP
    from sudoku_cp.errors import ArgumentError

    with pytest.raises(ArgumentError, match=f"^limit must be at most {COUNT_CAP} when certify"):
        SolveSettings.of(Mode.COUNT, COUNT_CAP + 1, certify=True)
    assert SolveSettings.of(Mode.COUNT, COUNT_CAP, certify=True).certifier is not None
    assert SolveSettings.of(Mode.COUNT, COUNT_CAP + 1).certifier is None
    assert SolveSettings.of(Mode.LEXMIN, COUNT_CAP + 1, certify=True).certifier is not None
