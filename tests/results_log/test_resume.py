"""results_log.resume: the session header, resume's comparison of every session header with
this run's settings (one line naming each difference, option names of an earlier release read in
today's words), and the scan of what a log has finished."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

import sudoku_cp
from sudoku_cp.errors import ResultsFileError
from sudoku_cp.results_log.records import RESULTS_FORMAT, ConfigurationEntry, Header
from sudoku_cp.results_log.resume import make_header, puzzle_crc, scan_log
from sudoku_cp.results_log.writer import ResultsLog

from ..bench_helpers import bench_header, hand_made, one_line, write_log

HEADER = bench_header()


# -- the session header ---------------------------------------------------------------------------


def test_make_header_records_settings_and_configurations() -> None:
    header = make_header(
        command="crosscheck",
        settings={"mode": "any", "time_limit": None},
        backends=[ConfigurationEntry("x", "dfs")],
        inputs=["a.txt"],
    ).to_json()
    assert (header["kind"], header["format"], header["command"], header["inputs"]) == (
        "header",
        RESULTS_FORMAT,
        "crosscheck",
        ["a.txt"],
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
    other = replace(HEADER, settings={**HEADER.settings, **change})
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

    def header(key: str, value: str) -> Header:
        return replace(HEADER, configurations=(ConfigurationEntry("sat", "sat", {key: value}),))

    path = write_log(tmp_path / "r.jsonl", header("sat_solver", "glucose3"), hand_made())
    with ResultsLog.open(path, header("solver", "glucose3"), resume=True) as log:
        assert log.previous_count == 3
    with pytest.raises(ResultsFileError, match="written with other settings"):
        ResultsLog.open(path, header("solver", "cadical195"), resume=True)


def test_scan_log_gives_what_is_finished_and_where_the_last_whole_line_ends(tmp_path: Path) -> None:
    records = hand_made()
    records[1]["runs"][0]["status"] = "error"
    path = write_log(tmp_path / "r.jsonl", HEADER, records)
    whole = path.read_bytes()
    path.write_bytes(whole + b'{"kind": "puz')  # a torn last line
    with open(path, "rb") as handle:
        scanned = scan_log(path, handle, HEADER)
    assert scanned.end == len(whole)
    assert scanned.done == {
        ("top.txt", number): (puzzle_crc(record["puzzle"]), number != 1)
        for number, record in enumerate(records)
    }
