"""results_records: what a results log holds and the checks of it: the session header, resume's
comparison of every session header with this run's settings (one line naming each difference),
and every stored line checked whole (one line naming file and line, nothing cut)."""

from __future__ import annotations

from pathlib import Path

import pytest

import sudoku_cp
from sudoku_cp.errors import ResultsFileError
from sudoku_cp.results_log import ResultsLog
from sudoku_cp.results_reader import load_results
from sudoku_cp.results_records import (
    RESULTS_FORMAT,
    make_header,
    parse_line,
    puzzle_crc,
    scan_log,
)

from .bench_helpers import bench_header, hand_made, one_line, write_log

HEADER = bench_header()


# -- the session header ---------------------------------------------------------------------------


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


# -- resume compares every session header with this run's -----------------------------------------


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


def test_a_log_written_with_the_older_option_names_resumes(tmp_path: Path) -> None:
    """Before options were declared once, a header wrote `sat_solver` for `solver`: such a log
    resumes under today's name, and another value is still a difference."""

    def header(key: str, value: str) -> dict[str, object]:
        backends = [{"label": "sat", "backend": "sat", "options": {key: value}}]
        return {**HEADER, "settings": {**HEADER["settings"], "backends": backends}}

    path = write_log(tmp_path / "r.jsonl", header("sat_solver", "glucose3"), hand_made())
    with ResultsLog.open(path, header("solver", "glucose3"), resume=True) as log:
        assert log.previous_count == 3
    with pytest.raises(ResultsFileError, match="written with other settings"):
        ResultsLog.open(path, header("solver", "cadical195"), resume=True)


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
    path = write_log(tmp_path / "r.jsonl", HEADER, [hand_made()[0], {"kind": "puzzle"}])
    with pytest.raises(ResultsFileError) as raised:
        ResultsLog.open(path, HEADER, resume=True)
    assert one_line(raised) == (
        f"{path}:3: not a whole puzzle record (no source): repair or "
        f"remove that line, or choose another results file"
    )


@pytest.mark.parametrize(
    "raw, parsed",
    [(b'{"a": 1}', {"a": 1}), (b"null", None), (b"[1]", None), (b'{"a"', None), (b"\xff{}", None)],
)
def test_parse_line_gives_a_json_object_or_none(raw: bytes, parsed: object) -> None:
    assert parse_line(raw) == parsed


def test_scan_log_gives_what_is_finished_and_where_the_last_whole_line_ends(tmp_path: Path) -> None:
    records = hand_made()
    records[1]["runs"][0]["status"] = "error"
    path = write_log(tmp_path / "r.jsonl", HEADER, records)
    whole = path.read_bytes()
    path.write_bytes(whole + b'{"kind": "puz')  # a torn last line
    with open(path, "rb") as handle:
        done, end = scan_log(path, handle, HEADER)
    assert end == len(whole)
    assert done == {
        ("top.txt", number): (puzzle_crc(record["puzzle"]), number != 1)
        for number, record in enumerate(records)
    }
