"""environment: the set names of the inputs, the one-off set-up measured in a fresh interpreter on
the first puzzle of each shape, and the machine and versions a results log records."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sudoku_cp.configurations import Configuration
from sudoku_cp.environment import check_set_names, environment, first_of_each_shape, measure_setup
from sudoku_cp.errors import BenchError
from sudoku_cp.inputs import PuzzleStream
from sudoku_cp.judging import SolveSettings

from .bench_helpers import register_wrong
from .conftest import BAEKJOON_2239, EMPTY_4


def test_two_inputs_that_would_be_one_set_are_refused(tmp_path: Path) -> None:
    check_set_names([str(tmp_path / "one.txt"), str(tmp_path / "two.txt"), "-"])
    with pytest.raises(BenchError, match="would both be set 'bad': rename one of them"):
        check_set_names([str(tmp_path / "bad.txt"), str(tmp_path / "a" / "bad.txt")])


def stream(tmp_path: Path, lines: list[str], name: str = "tiny") -> PuzzleStream:
    path = tmp_path / f"{name}.txt"
    path.write_text("\n".join(lines) + "\n")
    return PuzzleStream([str(path)])


def test_setup_is_measured_on_the_first_puzzle_of_each_shape(tmp_path: Path) -> None:
    records = list(stream(tmp_path, [BAEKJOON_2239, EMPTY_4, "0" * 81, "0" * 36]))
    assert [(name, puzzle, box) for name, puzzle, box in first_of_each_shape(records)] == [
        ("tiny", BAEKJOON_2239, (3, 3)),
        ("tiny", EMPTY_4, (2, 2)),
        ("tiny", "0" * 36, (2, 3)),
    ]


def test_setup_is_measured_in_a_fresh_interpreter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, register: Any
) -> None:
    register_wrong(register, "rulebreaker")
    puzzles = first_of_each_shape(stream(tmp_path, [BAEKJOON_2239, EMPTY_4, BAEKJOON_2239]))
    setup = measure_setup(
        [Configuration("dfs"), Configuration("rulebreaker", label="rb")], puzzles, SolveSettings()
    )
    assert list(setup) == ["dfs", "rb"]
    for measured in setup.values():  # rulebreaker lives in tests/: the child finds it too
        assert measured["import_seconds"] is None  # pure Python: nothing to import
        assert measured["create_seconds"] >= 0
        assert [shape["size"] for shape in measured["shapes"]] == [9, 4]
        assert [shape["set"] for shape in measured["shapes"]] == ["tiny", "tiny"]
        assert all(
            shape["first_seconds"] > 0 and shape["warm_seconds"] > 0 for shape in measured["shapes"]
        )


def test_a_failing_setup_is_an_error_entry_not_a_crash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, register: Any
) -> None:
    register_wrong(register, "crasher")  # raises on puzzles whose first cell is blank
    puzzles = first_of_each_shape(stream(tmp_path, [EMPTY_4]))
    setup = measure_setup([Configuration("crasher")], puzzles, SolveSettings())
    assert setup["crasher"]["error"] == "RuntimeError: boom"


def test_environment_records_machine_versions_and_command() -> None:
    found = environment(
        configurations=[Configuration("dfs"), Configuration("cpsat"), Configuration("sat")],
        jobs=1,
        argv="sudoku-cp bench x",
    )
    assert {
        "tool",
        "date",
        "argv",
        "python",
        "platform",
        "cpu",
        "cores",
        "usable_cores",
        "jobs",
        "load_average",
        "versions",
    } <= set(found)
    assert found["argv"] == "sudoku-cp bench x" and found["jobs"] == 1
    assert set(found["versions"]) == {"ortools", "python-sat"}  # what the backends declare
    assert environment(configurations=[Configuration("dfs")], jobs=1, argv="x")["versions"] == {}
