"""results_reader: results logs read back (load_results: the headers and the last record of each
puzzle, several files as one, what is not a results log refused in one line; to_pandas)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import sudoku_cp
from sudoku_cp.errors import ResultsFileError
from sudoku_cp.grid import Grid
from sudoku_cp.results_log import ResultsLog
from sudoku_cp.results_reader import load_results
from sudoku_cp.verify import check_completion

from .bench_helpers import bench_header, hand_made, one_line, puzzle_record, write_log
from .conftest import BAEKJOON_2239, EMPTY_4_LEXMIN

HEADER = bench_header()


def test_load_results_reads_headers_and_the_last_record_of_each_puzzle(tmp_path: Path) -> None:
    path = write_log(tmp_path / "r.jsonl", HEADER, hand_made())
    with ResultsLog.open(path, {**HEADER}, resume=True) as log:
        log.append(hand_made()[0])
    loaded = load_results(path)
    assert loaded.headers == [
        json.loads(json.dumps(HEADER)),
        {**json.loads(json.dumps(HEADER)), "resumed": True},
    ]
    assert loaded.header_paths == [str(path)] * 2 and loaded.paths == [str(path)]
    assert loaded.records == hand_made()
    assert (loaded.time_limit, loaded.repeat, loaded.labels()) == (10.0, 1, ["a", "b"])
    runs = list(loaded.runs())
    assert len(runs) == 6
    assert runs[0]["set"] == "top" and runs[0]["backend"] == "a" and runs[0]["seconds"] == 0.001


def test_load_results_refuses_what_is_not_a_results_log(tmp_path: Path) -> None:
    solve_output = tmp_path / "solve.jsonl"
    solve_output.write_text('{"index":0,"source":"x","status":"solved"}\n')
    with pytest.raises(ResultsFileError) as raised:
        load_results(solve_output)
    assert one_line(raised).startswith(f"{solve_output}:1: not a results record")
    missing = tmp_path / "missing.jsonl"
    with pytest.raises(ResultsFileError) as raised:
        load_results(missing)
    assert one_line(raised) == f"{missing}: cannot read: No such file or directory"
    headers_only = write_log(tmp_path / "empty.jsonl", HEADER, [])
    with pytest.raises(ResultsFileError) as raised:
        load_results(headers_only)
    assert one_line(raised) == f"{headers_only}: no puzzle records"
    fifo = tmp_path / "fifo.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(ResultsFileError) as raised:
        load_results(fifo)
    assert one_line(raised) == f"{fifo}: not a regular file"


def test_load_results_of_several_files_refuses_different_time_limits(tmp_path: Path) -> None:
    first = write_log(tmp_path / "a.jsonl", HEADER, hand_made())
    second = write_log(tmp_path / "b.jsonl", bench_header(time_limit=1.0), hand_made())
    none = write_log(tmp_path / "c.jsonl", bench_header(time_limit=None), hand_made())
    with pytest.raises(ResultsFileError) as raised:
        load_results(first, second)
    assert one_line(raised) == (
        f"{second}: measured with a time limit of 1 s, not 10 s like {first}"
    )
    with pytest.raises(ResultsFileError, match="time limit of none, not 10 s"):
        load_results(first, none)
    modes = write_log(tmp_path / "any.jsonl", bench_header(mode="any"), hand_made("any"))
    both = load_results(first, modes)  # one time limit, two modes: one set of results
    assert len(both.records) == 6 and both.paths == [str(first), str(modes)]
    assert both.header_paths == [str(first), str(modes)]


def test_bench_logs_keep_solutions_so_a_log_can_be_verified_again(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    sudoku_cp.bench(f"{BAEKJOON_2239}\n{'0' * 16}\n", backends=["dfs", "sat"], results=path)
    loaded = load_results(path)
    checked = 0
    for record in loaded.records:
        puzzle_grid = Grid.parse(record["puzzle"])
        for run in record["runs"]:
            assert run["status"] == "solved"
            assert check_completion(puzzle_grid, Grid.parse(run["solution"])).ok
            checked += 1
    assert checked == 4
    assert loaded.records[1]["runs"][0]["solution"] == EMPTY_4_LEXMIN


def test_to_pandas_keeps_puzzles_and_solutions_as_strings(tmp_path: Path) -> None:
    import pandas  # needed: the test extra must install it

    records = [
        puzzle_record(
            "top",
            0,
            [{"backend": "a", "status": "solved", "seconds": 0.5, "solution": "0" * 3 + "1" * 78}],
            puzzle="0" * 81,
        ),
        puzzle_record(
            "top",
            1,
            [{"backend": "a", "status": "timeout", "seconds": 10.0}],
            puzzle="00" + "1" * 79,
        ),
    ]
    path = write_log(tmp_path / "r.jsonl", HEADER, records)
    frame = load_results(path).to_pandas()
    assert len(frame) == 2
    assert list(frame["puzzle"]) == ["0" * 81, "00" + "1" * 79]  # leading zeros kept
    assert frame["solution"].iloc[0] == "0" * 3 + "1" * 78
    assert frame["solution"].isna().iloc[1]  # no solution for a timeout, not a string "None"
    for column in ("puzzle", "solution", "set", "backend", "status"):
        assert pandas.api.types.is_string_dtype(frame[column]), column
    assert list(frame["seconds"]) == [0.5, 10.0]
    assert frame.attrs["headers"][0]["command"] == "bench"
