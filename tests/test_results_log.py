"""results_log: the one results log (header + puzzle records, one locked writer, resume, torn
lines cut in place, only regular files) and reading logs back (load_results, to_pandas)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import sudoku_cp
from sudoku_cp.errors import ResultsFileError
from sudoku_cp.formats import PuzzleRecord
from sudoku_cp.grid import Grid
from sudoku_cp.results_log import RESULTS_FORMAT, ResultsLog, load_results, make_header
from sudoku_cp.verify import check_completion

from .bench_helpers import bench_header, hand_made, lines_of, puzzle_record, write_log
from .conftest import BAEKJOON_2239, EMPTY_4_LEXMIN, ROOT

HEADER = bench_header()


def one_line(error: pytest.ExceptionInfo[ResultsFileError]) -> str:
    message = str(error.value)
    assert "\n" not in message
    return message


def puzzle(number: int, text: str) -> PuzzleRecord:
    """The input record that a results record of `hand_made` stands for."""
    return PuzzleRecord(number, "top.txt", number + 1, text, Grid.parse(text), number=number)


# -- writing ---------------------------------------------------------------------------------------


def test_a_log_is_a_header_then_one_record_per_puzzle(tmp_path: Path) -> None:
    path = write_log(tmp_path / "r.jsonl", HEADER, hand_made())
    header, *records = lines_of(path)
    assert header == json.loads(json.dumps(HEADER))
    assert (header["kind"], header["format"], header["command"]) == (
        "header",
        RESULTS_FORMAT,
        "bench",
    )
    assert [record["settings"]["backends"] for record in [header]] == [
        [
            {"label": "a", "backend": "a", "options": {}},
            {"label": "b", "backend": "b", "options": {}},
        ]
    ]
    assert records == hand_made()
    assert path.read_bytes().endswith(b"}\n")  # every record is a whole line
    assert not (tmp_path / ".r.jsonl.pid").exists()  # the lock's pid file goes with the lock


def test_a_log_already_holding_results_needs_resume(tmp_path: Path) -> None:
    path = write_log(tmp_path / "r.jsonl", HEADER, hand_made())
    with pytest.raises(ResultsFileError) as raised:
        ResultsLog.open(path, HEADER)
    assert one_line(raised) == (
        f"{path} already holds results: pass --resume to continue that "
        f"run, or choose another results file"
    )


def test_resume_skips_finished_puzzles_and_retries_errors(tmp_path: Path) -> None:
    records = hand_made()
    records[1]["runs"][1]["status"] = "error"
    path = write_log(tmp_path / "r.jsonl", HEADER, records)
    with ResultsLog.open(path, HEADER, resume=True) as log:
        assert log.resumed and log.previous_count == 2
        assert [log.is_done(puzzle(n, record["puzzle"])) for n, record in enumerate(records)] == [
            True,
            False,
            True,
        ]
        assert log.is_done(puzzle(3, "0" * 81)) is False  # not in the log yet
        assert [(line, record["number"]) for line, record in log.previous()] == [
            (2, 0),
            (4, 2),
        ]  # not the error; with their line numbers
        rerun = hand_made()[1]
        log.append(rerun)
    lines = lines_of(path)
    assert [line["kind"] for line in lines] == ["header"] + ["puzzle"] * 3 + ["header", "puzzle"]
    assert lines[4] == {**json.loads(json.dumps(HEADER)), "resumed": True}
    assert load_results(path).records == [records[0], rerun, records[2]]  # the re-run wins


def test_resume_refuses_a_different_input(tmp_path: Path) -> None:
    path = write_log(tmp_path / "r.jsonl", HEADER, hand_made())
    with (
        ResultsLog.open(path, HEADER, resume=True) as log,
        pytest.raises(ResultsFileError) as raised,
    ):
        log.is_done(puzzle(1, BAEKJOON_2239))
    assert one_line(raised) == (
        f"{path} comes from a different input: puzzle 2 of top.txt "
        f"differs; resume with the same input, or choose another results "
        f"file"
    )


@pytest.mark.parametrize(
    "change, difference",
    [
        ({"time_limit": 2.0}, "time_limit 10.0 in the file, 2.0 now"),
        ({"mode": "any"}, "mode lexmin in the file, any now"),
        ({"repeat": 3, "warmup": 1}, "repeat 1 in the file, 3 now; warmup 0 in the file, 1 now"),
    ],
)
def test_resume_refuses_other_settings_naming_each_difference(
    tmp_path: Path, change: dict[str, object], difference: str
) -> None:
    path = write_log(tmp_path / "r.jsonl", HEADER, hand_made())
    before = path.read_bytes()
    other = {**HEADER, "settings": {**HEADER["settings"], **change}}
    with pytest.raises(ResultsFileError) as raised:
        ResultsLog.open(path, other, resume=True)
    assert one_line(raised) == (
        f"{path} was written with other settings ({difference}): resume "
        f"with the same settings, or choose another results file"
    )
    assert path.read_bytes() == before


def test_resume_refuses_other_configurations(tmp_path: Path) -> None:
    path = write_log(tmp_path / "r.jsonl", HEADER, hand_made())
    other = bench_header(backends=("a", "c"))
    with pytest.raises(ResultsFileError, match=r"\(backends a,b in the file, a,c now\)"):
        ResultsLog.open(path, other, resume=True)
    # Settings that do not change the answers or the times may differ: the baseline, say.
    with ResultsLog.open(path, bench_header(baseline="b"), resume=True) as log:
        assert log.previous_count == 3


def test_resume_refuses_a_file_that_is_not_a_results_log(tmp_path: Path) -> None:
    path = tmp_path / "solve.jsonl"
    path.write_text('{"index":0,"source":"x","status":"solved"}\n')
    with pytest.raises(ResultsFileError) as raised:
        ResultsLog.open(path, HEADER, resume=True)
    assert one_line(raised) == (
        f"{path} is not a sudoku-cp results log (line 1 is not a "
        f"results header): choose another results file"
    )


# -- one writer at a time --------------------------------------------------------------------------


def test_a_second_open_while_the_first_holds_the_lock_names_its_pid(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    with ResultsLog.open(path, HEADER) as log:
        log.append(hand_made()[0])
        with pytest.raises(ResultsFileError) as raised:
            ResultsLog.open(path, HEADER, resume=True)
        assert one_line(raised) == (
            f"{path} is in use by another run (pid {os.getpid()}): wait "
            f"for it to finish, or choose another results file"
        )
        log.append(hand_made()[1])  # the refused open left the holder's file alone
    assert [line["kind"] for line in lines_of(path)] == ["header", "puzzle", "puzzle"]
    with ResultsLog.open(path, HEADER, resume=True) as log:  # free again once closed
        assert log.previous_count == 2


def test_a_refused_open_leaves_the_holders_pid_for_the_next_one(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    with ResultsLog.open(path, HEADER):
        for _ in range(2):
            with pytest.raises(
                ResultsFileError, match=f"in use by another run \\(pid {os.getpid()}\\)"
            ):
                ResultsLog.open(path, HEADER, resume=True)


HOLDER = textwrap.dedent("""
    import json, sys
    from sudoku_cp.results_log import ResultsLog
    log = ResultsLog.open(sys.argv[1], json.loads(sys.argv[2]))
    print("locked", flush=True)
    sys.stdin.read()  # hold the lock until the test closes our standard input
    log.close()
""")


def test_a_second_process_is_refused_while_another_holds_the_log(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    child = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(path), json.dumps(HEADER)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    try:
        assert child.stdout is not None and child.stdout.readline() == "locked\n"
        with pytest.raises(ResultsFileError) as raised:
            ResultsLog.open(path, HEADER, resume=True)
        assert one_line(raised) == (
            f"{path} is in use by another run (pid {child.pid}): wait "
            f"for it to finish, or choose another results file"
        )
    finally:
        child.communicate("", timeout=60)
    assert child.returncode == 0
    with ResultsLog.open(path, HEADER, resume=True) as log:  # the child is gone: free again
        assert log.resumed


# -- only regular files that can be written --------------------------------------------------------


def test_a_fifo_is_refused_before_anything_is_read(tmp_path: Path) -> None:
    fifo = tmp_path / "r.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(ResultsFileError) as raised:  # opening a FIFO would block: it must not
        ResultsLog.open(fifo, HEADER)
    assert one_line(raised) == (
        f"{fifo}: not a regular file (a FIFO, terminal or device): results logs must be files"
    )


def test_a_device_is_refused(tmp_path: Path) -> None:
    full = tmp_path / "full.jsonl"
    full.symlink_to("/dev/full")
    with pytest.raises(ResultsFileError) as raised:
        ResultsLog.open(full, HEADER)
    assert one_line(raised) == (
        f"{full}: not a regular file (a FIFO, terminal or device): results logs must be files"
    )
    with pytest.raises(ResultsFileError) as raised:
        ResultsLog.open("/dev/full", HEADER)
    assert one_line(raised).startswith("/dev/full: ")


def test_a_missing_folder_or_a_folder_is_refused(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "r.jsonl"
    with pytest.raises(ResultsFileError) as raised:
        ResultsLog.open(missing, HEADER)
    assert one_line(raised) == f"{missing}: cannot write: No such file or directory"
    assert not missing.parent.exists()
    folder = tmp_path / "folder.jsonl"
    folder.mkdir()
    with pytest.raises(ResultsFileError) as raised:
        ResultsLog.open(folder, HEADER)
    assert one_line(raised) == f"{folder}: cannot write: it is a directory"


def test_a_csv_results_file_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "r.csv"
    with pytest.raises(ResultsFileError) as raised:
        ResultsLog.open(path, HEADER)
    assert one_line(raised).startswith(f"{path}: results logs are JSON Lines: name the file .jsonl")
    assert not path.exists()


def test_a_full_disk_is_one_line_and_keeps_what_was_written(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    log = ResultsLog.open(path, HEADER)
    log.append(hand_made()[0])
    # every write fails at once: a full disk
    full = open("/dev/full", "ab", buffering=0)  # noqa: SIM115
    real, log.handle = log.handle, full
    try:
        with pytest.raises(ResultsFileError) as raised:
            log.append(hand_made()[1])
        assert one_line(raised) == (
            f"{path}: cannot write: No space left on device; the results "
            f"so far are kept: continue with --resume"
        )
    finally:
        log.handle = real
        log.close()
        full.close()
    assert [line["kind"] for line in lines_of(path)] == ["header", "puzzle"]


# -- lines that are not records --------------------------------------------------------------------


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
    path = write_log(tmp_path / "r.jsonl", HEADER, [hand_made()[0], {"kind": "puzzle"}])
    with pytest.raises(ResultsFileError) as raised:
        ResultsLog.open(path, HEADER, resume=True)
    assert one_line(raised) == (
        f"{path}:3: not a whole puzzle record (no source): repair or "
        f"remove that line, or choose another results file"
    )


def test_a_torn_last_line_is_cut_in_place_on_resume(tmp_path: Path) -> None:
    path = write_log(tmp_path / "r.jsonl", HEADER, hand_made()[:2])
    whole = path.read_bytes()
    torn = json.dumps(hand_made()[2]).encode()[:50]
    path.write_bytes(whole + torn)  # killed in the middle of a write
    inode = os.stat(path).st_ino
    assert load_results(path).records == hand_made()[:2]  # read back: the torn line is skipped
    with ResultsLog.open(path, HEADER, resume=True) as log:
        assert log.previous_count == 2
        assert os.stat(path).st_ino == inode  # cut in place, never rewritten through a copy
        assert path.read_bytes() == whole  # the session header waits for the first record
        log.append(hand_made()[2])
    assert os.stat(path).st_ino == inode
    assert path.read_bytes().startswith(
        whole + json.dumps({**HEADER, "resumed": True}, separators=(",", ":")).encode() + b"\n"
    )
    assert load_results(path).records == hand_made()


def test_a_run_killed_while_writing_its_header_starts_afresh(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_bytes(json.dumps(HEADER).encode()[:30])
    with ResultsLog.open(path, HEADER, resume=True) as log:
        assert log.previous_count == 0
        log.append(hand_made()[0])
    assert [line["kind"] for line in lines_of(path)] == ["header", "puzzle"]


# -- reading back ----------------------------------------------------------------------------------


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


def test_make_header_records_settings_and_configurations() -> None:
    header = make_header(
        command="crosscheck",
        settings={"mode": "any", "time_limit": None},
        backends=[{"label": "x", "backend": "dfs", "options": {}}],
        argv="a b",
    )
    assert (header["kind"], header["format"], header["command"], header["argv"]) == (
        "header",
        RESULTS_FORMAT,
        "crosscheck",
        "a b",
    )
    assert header["settings"] == {
        "mode": "any",
        "time_limit": None,
        "backends": [{"label": "x", "backend": "dfs", "options": {}}],
    }
    assert header["sudoku_cp"] == sudoku_cp.__version__ and header["started"]
