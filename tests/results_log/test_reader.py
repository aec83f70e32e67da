"""results_log.reader: the one reader of a log (every line that is not a whole record refused in
one line naming file and line, hostile lines included; a torn last line left out), and logs read
back (load_results: the headers and the last entry of each puzzle, several files as one;
to_pandas)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import sudoku_cp
from sudoku_cp.errors import ResultsFileError
from sudoku_cp.grid import Grid
from sudoku_cp.results_log.reader import load_results, parse_json, read_log
from sudoku_cp.results_log.records import Header
from sudoku_cp.results_log.writer import ResultsLog
from sudoku_cp.verify import check_completion

from ..bench_helpers import bench_header, entries, hand_made, one_line, puzzle_record, write_log
from ..conftest import BAEKJOON_2239, EMPTY_4_LEXMIN

HEADER = bench_header()


# -- lines that are not records -------------------------------------------------------------------


@pytest.mark.parametrize(
    "bad", [b"null", b"[1, 2]", b'"text"', b'{"kind":"puzzle"\xff}', b"\xff\xfe{}"]
)
def test_a_line_that_is_not_a_json_object_names_file_and_line(tmp_path: Path, bad: bytes) -> None:
    path = write_log(tmp_path / "r.jsonl", HEADER, hand_made())
    whole = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(whole[:2]) + bad + b"\n" + b"".join(whole[2:]))
    before = path.read_bytes()
    with pytest.raises(ResultsFileError) as raised:
        load_results(path)
    assert one_line(raised) == f"{path}:3: not a results record (not a JSON object)"
    with pytest.raises(ResultsFileError) as raised:
        ResultsLog.open(path, HEADER, resume=True)
    assert one_line(raised).startswith(f"{path}:3: not a results record")
    assert path.read_bytes() == before  # nothing cut, nothing appended


def test_a_whole_bad_last_line_is_refused_on_resume_not_cut(tmp_path: Path) -> None:
    path = write_log(tmp_path / "r.jsonl", HEADER, hand_made())
    with open(path, "ab") as handle:
        handle.write(b"null\n")  # a kill cannot leave this: a write ends with its newline
    with pytest.raises(ResultsFileError, match=r":5: not a results record"):
        load_results(path)
    before = path.read_bytes()
    with pytest.raises(ResultsFileError, match=r":5: not a results record"):
        ResultsLog.open(path, HEADER, resume=True)
    assert path.read_bytes() == before


def test_a_puzzle_record_without_its_fields_names_file_and_line(tmp_path: Path) -> None:
    path = write_log(tmp_path / "r.jsonl", HEADER, hand_made()[:1])
    with open(path, "ab") as handle:
        handle.write(b'{"kind":"puzzle"}\n')
    with pytest.raises(ResultsFileError) as raised:
        ResultsLog.open(path, HEADER, resume=True)
    assert one_line(raised) == (
        f"{path}:3: not a whole puzzle record (no source): repair or "
        f"remove that line, or choose another results file"
    )


@pytest.mark.parametrize(
    "raw, parsed",
    [(b'{"a": 1}', {"a": 1}), (b"null", None), (b'{"a"', None), (b"\xff{}", None)],
)
def test_parse_json_gives_a_json_value_or_none(raw: bytes, parsed: object) -> None:
    assert parse_json(raw) == parsed


# -- hostile and damaged lines: one line naming file and line, never a traceback -----------------


def _with_line(tmp_path: Path, line: bytes) -> Path:
    path = write_log(tmp_path / "r.jsonl", HEADER, hand_made()[:1])
    with open(path, "ab") as handle:
        handle.write(line + b"\n")
    return path


def _run_json(**change: object) -> bytes:
    record = hand_made()[1]
    record["runs"][0].update(change)
    return json.dumps(record).encode()


@pytest.mark.parametrize(
    "line, why",
    [
        (b"[" * 50_000 + b"]" * 50_000, "not a results record (not a JSON object)"),
        (b'{"kind":"puzzle","number":' + b"9" * 5000 + b"}", "not a results record"),
        (json.dumps({**hand_made()[1], "number": None}).encode(), "(number is null)"),
        (json.dumps({**hand_made()[1], "puzzle": 7}).encode(), "(puzzle is not text: 7)"),
        (_run_json(seconds="fast"), "(seconds is not a number: 'fast')"),
        (_run_json(status="weird"), "(status 'weird' is none of solved, unsatisfiable"),
        (_run_json(count=-1), "(count is negative: -1)"),
        (_run_json(seconds=float("nan")), "(seconds is not a finite number: NaN)"),
        (json.dumps({k: v for k, v in hand_made()[1].items() if k != "puzzle"}).encode(),
         "(no puzzle)"),
        (json.dumps({**hand_made()[1], "runs": []}).encode(), "(no runs)"),
        (json.dumps({**hand_made()[1], "runs": [7]}).encode(), "(a run is not a JSON object)"),
        (b'{"kind":"weird"}', "(kind 'weird' is neither header nor puzzle)"),
    ],
)  # fmt: skip
def test_a_hostile_or_damaged_line_is_one_error_naming_file_and_line(
    tmp_path: Path, line: bytes, why: str
) -> None:
    path = _with_line(tmp_path, line)
    for read in (lambda: load_results(path), lambda: list(read_log(path))):
        with pytest.raises(ResultsFileError) as raised:
            read()
        message = one_line(raised)
        assert message.startswith(f"{path}:3: ") and why in message, message


def test_a_header_of_another_version_is_refused_by_name(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps({**HEADER.to_json(), "version": 99}) + "\n")
    with pytest.raises(ResultsFileError) as raised:
        load_results(path)
    assert one_line(raised) == (
        f"{path} is not a sudoku-cp results log that this release reads (line 1: version 99, "
        f"which this release cannot read): choose another results file"
    )


def test_read_log_yields_typed_records_with_their_lines_and_ends(tmp_path: Path) -> None:
    path = write_log(tmp_path / "r.jsonl", HEADER, hand_made())
    lines = list(read_log(path))
    assert [line.number for line in lines] == [1, 2, 3, 4]
    assert isinstance(lines[0].record, Header)
    assert [line.record for line in lines[1:]] == entries(hand_made())
    assert lines[-1].end == path.stat().st_size


def test_load_results_reads_headers_and_the_last_record_of_each_puzzle(tmp_path: Path) -> None:
    path = write_log(tmp_path / "r.jsonl", HEADER, hand_made())
    with ResultsLog.open(path, HEADER, resume=True) as log:
        log.append(entries(hand_made())[0])
    loaded = load_results(path)
    assert [header.to_json() for header in loaded.headers] == [
        HEADER.to_json(),
        {**HEADER.to_json(), "resumed": True},
    ]
    assert loaded.header_paths == [str(path)] * 2 and loaded.paths == [str(path)]
    assert loaded.entries == entries(hand_made())
    assert (loaded.time_limit, loaded.repeat, loaded.labels()) == (10.0, 1, ["a", "b"])
    runs = list(loaded.runs())
    assert len(runs) == 6
    assert runs[0]["set"] == "top" and runs[0]["backend"] == "a" and runs[0]["seconds"] == 0.001


def test_load_results_refuses_what_is_not_a_results_log(tmp_path: Path) -> None:
    solve_output = tmp_path / "solve.jsonl"
    solve_output.write_text('{"index":0,"source":"x","status":"solved"}\n')
    with pytest.raises(ResultsFileError) as raised:
        load_results(solve_output)
    assert one_line(raised).startswith(f"{solve_output} is not a sudoku-cp results log")
    missing = tmp_path / "missing.jsonl"
    with pytest.raises(ResultsFileError) as raised:
        load_results(missing)
    assert one_line(raised) == f"{missing}: cannot read: No such file or directory"
    headers_only = tmp_path / "empty.jsonl"
    headers_only.write_text(json.dumps(HEADER.to_json()) + "\n")
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
    assert len(both.entries) == 6 and both.paths == [str(first), str(modes)]
    assert both.header_paths == [str(first), str(modes)]


def test_bench_logs_keep_solutions_so_a_log_can_be_verified_again(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    sudoku_cp.bench(f"{BAEKJOON_2239}\n{'0' * 16}\n", backends=["dfs", "sat"], results=path)
    loaded = load_results(path)
    checked = 0
    for entry in loaded.entries:
        puzzle_grid = Grid.parse(entry.puzzle)
        for run in entry.runs:
            assert run.status == "solved" and run.solution is not None
            assert check_completion(puzzle_grid, Grid.parse(run.solution)).ok
            checked += 1
    assert checked == 4
    assert loaded.entries[1].runs[0].solution == EMPTY_4_LEXMIN


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


# -- every command reads through it: a damaged log is one line and exit 2 in a real process --------


def _damaged(record: dict[str, object], **change: object) -> bytes:
    """The record with its puzzle fields changed, or its first run's (`run_` names)."""
    changed = json.loads(json.dumps(record))
    for name, value in change.items():
        if name.startswith("run_"):
            changed["runs"][0][name[4:]] = value
        elif value is _DROP:
            del changed[name]
        else:
            changed[name] = value
    return json.dumps(changed).encode()


_DROP = object()
_DEEP = b"[" * 50_000 + b"]" * 50_000
# The cases: each raised a traceback in one command or more (KeyError, RecursionError,
# ValueError, TypeError); a digit string longer than Python converts (4,300 digits by default).
DAMAGE = {
    "no puzzle": lambda record: _damaged(record, puzzle=_DROP),
    "nested list": lambda record: _DEEP,
    "nested in a run": lambda record: _damaged(record, run_stats=0).replace(b'"stats": 0', _DEEP),
    "huge integer": lambda record: _damaged(record, number=0).replace(
        b'"number": 0', b'"number": ' + b"9" * 5000
    ),
    "number null": lambda record: _damaged(record, number=None),
    "seconds fast": lambda record: _damaged(record, run_seconds="fast"),
    "status weird": lambda record: _damaged(record, run_status="weird"),
}
READERS = {
    "certify": lambda log, out, puzzles: ["certify", log],
    "report": lambda log, out, puzzles: ["report", log, "-o", f"{out}.md", "--no-plots"],
    "plot": lambda log, out, puzzles: ["plot", log, "-o", f"{out}.png"],
    "crosscheck --resume": lambda log, out, puzzles: [
        "crosscheck", puzzles, "-b", "dfs", "--results", log, "--resume"
    ],
}  # fmt: skip


@pytest.fixture(scope="module")
def crosscheck_log(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[bytes]]:
    """The puzzles of a crosscheck and its whole log's lines (header, two puzzle records)."""
    from click.testing import CliRunner

    from sudoku_cp.cli import main

    folder = tmp_path_factory.mktemp("damaged")
    puzzles = folder / "p.txt"
    puzzles.write_text(f"{BAEKJOON_2239}\n{'0' * 16}\n")
    log = folder / "whole.jsonl"
    args = ["crosscheck", str(puzzles), "-b", "dfs", "--results", str(log)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    return puzzles, log.read_bytes().splitlines(keepends=True)


@pytest.mark.parametrize("command", list(READERS))
@pytest.mark.parametrize("damage", list(DAMAGE))
def test_every_command_says_one_line_of_a_damaged_log_and_exits_2(
    tmp_path: Path, crosscheck_log: tuple[Path, list[bytes]], damage: str, command: str
) -> None:
    """Line 2 is damaged, line 3 is whole: the error names line 2, whatever the command."""
    puzzles, (header, first, second) = crosscheck_log
    log = tmp_path / "r.jsonl"
    log.write_bytes(header + DAMAGE[damage](json.loads(first)) + b"\n" + second)
    before = log.read_bytes()
    args = READERS[command](str(log), str(tmp_path / "out"), str(puzzles))
    result = subprocess.run(
        [sys.executable, "-m", "sudoku_cp", *args], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith(f"Error: {log}:2: ") and result.stderr.count("\n") == 1, (
        result.stderr
    )
    assert log.read_bytes() == before  # resume refuses before it writes
