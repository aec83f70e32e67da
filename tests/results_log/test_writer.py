"""results_log.writer: the writer (header + puzzle entries, one locked writer, resume, torn
lines cut in place, only regular files, no file left by a run that wrote nothing). What a log
holds is tested in test_records.py, the resume checks in test_resume.py, reading logs back in
test_reader.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import sudoku_cp
from sudoku_cp import results_log
from sudoku_cp.errors import ResultsFileError
from sudoku_cp.results_log import reader, records, resume
from sudoku_cp.results_log.reader import load_results
from sudoku_cp.results_log.records import RESULTS_FORMAT
from sudoku_cp.results_log.writer import ResultsLog

from ..bench_helpers import bench_header, entries, hand_made, lines_of, one_line, write_log
from ..conftest import BAEKJOON_2239, ROOT

HEADER = bench_header()


def test_the_public_names_are_importable_from_results_log() -> None:
    """The API reference documents `sudoku_cp.results_log`: its names are the modules' own."""
    assert results_log.load_results is reader.load_results is sudoku_cp.load_results
    assert results_log.Results is reader.Results is sudoku_cp.Results
    assert results_log.RUN_COLUMNS is reader.RUN_COLUMNS
    assert results_log.make_header is resume.make_header
    assert results_log.ResultsLog is ResultsLog
    assert results_log.PuzzleEntry is records.PuzzleEntry
    assert results_log.RESULTS_FORMAT == records.RESULTS_FORMAT == "sudoku-cp results"
    assert "ResultsLog" in dir(results_log)
    with pytest.raises(AttributeError, match="no attribute 'Nothing'"):
        results_log.Nothing  # noqa: B018


# -- writing ---------------------------------------------------------------------------------------


def test_a_log_is_a_header_then_one_record_per_puzzle(tmp_path: Path) -> None:
    path = write_log(tmp_path / "r.jsonl", HEADER, hand_made())
    header, *stored = lines_of(path)
    assert header == HEADER.to_json()
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
    assert entries(stored) == entries(hand_made())
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
    made = hand_made()
    made[1]["runs"][1]["status"] = "error"
    path = write_log(tmp_path / "r.jsonl", HEADER, made)
    with ResultsLog.open(path, HEADER, resume=True) as log:
        assert log.resumed and log.previous_count == 2
        assert [log.is_done("top.txt", n, record["puzzle"]) for n, record in enumerate(made)] == [
            True,
            False,
            True,
        ]
        assert log.is_done("top.txt", 3, "0" * 81) is False  # not in the log yet
        assert [(line, entry.number) for line, entry in log.previous()] == [
            (2, 0),
            (4, 2),
        ]  # not the error; with their line numbers
        (rerun,) = entries(hand_made()[1:2])
        log.append(rerun)
    lines = lines_of(path)
    assert [line["kind"] for line in lines] == ["header"] + ["puzzle"] * 3 + ["header", "puzzle"]
    assert lines[4] == {**HEADER.to_json(), "resumed": True}
    old = entries(made)
    assert load_results(path).entries == [old[0], rerun, old[2]]  # the re-run wins


def test_resume_refuses_a_different_input(tmp_path: Path) -> None:
    path = write_log(tmp_path / "r.jsonl", HEADER, hand_made())
    with (
        ResultsLog.open(path, HEADER, resume=True) as log,
        pytest.raises(ResultsFileError) as raised,
    ):
        log.is_done("top.txt", 1, BAEKJOON_2239)
    assert one_line(raised) == (
        f"{path} comes from a different input: puzzle 2 of top.txt "
        f"differs; resume with the same input, or choose another results "
        f"file"
    )


# -- one writer at a time --------------------------------------------------------------------------


def test_a_second_open_while_the_first_holds_the_lock_names_its_pid(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    first, second = entries(hand_made()[:2])
    with ResultsLog.open(path, HEADER) as log:
        log.append(first)
        with pytest.raises(ResultsFileError) as raised:
            ResultsLog.open(path, HEADER, resume=True)
        assert one_line(raised) == (
            f"{path} is in use by another run (pid {os.getpid()}): wait "
            f"for it to finish, or choose another results file"
        )
        log.append(second)  # the refused open left the holder's file alone
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
    from sudoku_cp.results_log import Header, ResultsLog
    log = ResultsLog.open(sys.argv[1], Header.from_json(json.loads(sys.argv[2])))
    print("locked", flush=True)
    sys.stdin.read()  # hold the lock until the test closes our standard input
    log.close()
""")


def test_a_second_process_is_refused_while_another_holds_the_log(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    child = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(path), json.dumps(HEADER.to_json())],
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
    assert not path.exists()  # the child wrote nothing, so it left no file behind
    with ResultsLog.open(path, HEADER, resume=True) as log:  # the child is gone: free again
        assert not log.resumed


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
    first, second = entries(hand_made()[:2])
    log = ResultsLog.open(path, HEADER)
    log.append(first)
    # every write fails at once: a full disk
    full = open("/dev/full", "ab", buffering=0)  # noqa: SIM115
    real, log.handle = log.handle, full
    try:
        with pytest.raises(ResultsFileError) as raised:
            log.append(second)
        assert one_line(raised) == (
            f"{path}: cannot write: No space left on device; the results "
            f"so far are kept: continue with --resume"
        )
    finally:
        log.handle = real
        log.close()
        full.close()
    assert [line["kind"] for line in lines_of(path)] == ["header", "puzzle"]


# -- torn lines ------------------------------------------------------------------------------------


def test_a_torn_last_line_is_cut_in_place_on_resume(tmp_path: Path) -> None:
    path = write_log(tmp_path / "r.jsonl", HEADER, hand_made()[:2])
    whole = path.read_bytes()
    torn = json.dumps(hand_made()[2]).encode()[:50]
    path.write_bytes(whole + torn)  # killed in the middle of a write
    inode = os.stat(path).st_ino
    assert load_results(path).entries == entries(hand_made()[:2])  # the torn line is skipped
    with ResultsLog.open(path, HEADER, resume=True) as log:
        assert log.previous_count == 2
        assert os.stat(path).st_ino == inode  # cut in place, never rewritten through a copy
        assert path.read_bytes() == whole  # the session header waits for the first record
        log.append(entries(hand_made())[2])
    assert os.stat(path).st_ino == inode
    assert path.read_bytes().startswith(
        whole
        + json.dumps({**HEADER.to_json(), "resumed": True}, separators=(",", ":")).encode()
        + b"\n"
    )
    assert load_results(path).entries == entries(hand_made())


def test_a_run_killed_while_writing_its_header_starts_afresh(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_bytes(json.dumps(HEADER.to_json()).encode()[:30])
    with ResultsLog.open(path, HEADER, resume=True) as log:
        assert log.previous_count == 0
        log.append(entries(hand_made())[0])
    assert [line["kind"] for line in lines_of(path)] == ["header", "puzzle"]


def test_a_log_that_nothing_was_written_to_is_not_left_behind(tmp_path: Path) -> None:
    """A run that fails before its first puzzle (empty or bad input) leaves no header-only file
    that would block its corrected rerun; a file that was there before stays."""
    path = tmp_path / "r.jsonl"
    with ResultsLog.open(path, HEADER):
        assert path.exists()  # created, and locked, for the run
    assert not path.exists()
    with pytest.raises(ResultsFileError), ResultsLog.open(path, HEADER):
        raise ResultsFileError("the run failed")
    assert not path.exists()
    kept = write_log(tmp_path / "kept.jsonl", HEADER, hand_made())
    before = kept.read_bytes()
    with ResultsLog.open(kept, HEADER, resume=True):
        pass
    assert kept.read_bytes() == before


@pytest.mark.parametrize(
    "name, hint",
    [
        ("r.csv", " (for CSV: sudoku-cp report r.jsonl -o summary.csv, or "
         "sudoku_cp.load_results('r.jsonl').to_pandas())"),
        ("out.json", ""),
        ("results", ""),
    ],
)  # fmt: skip
def test_the_csv_hint_is_given_for_a_csv_name_only(tmp_path: Path, name: str, hint: str) -> None:
    path = tmp_path / name
    with pytest.raises(ResultsFileError) as raised:
        ResultsLog.open(path, HEADER)
    assert one_line(raised) == f"{path}: results logs are JSON Lines: name the file .jsonl{hint}"
