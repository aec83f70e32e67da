"""report_html/tables.py: the summary per configuration (the library's statistics, each cell with
its text and its sort key) and every session's environment, command line and set-up."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sudoku_cp.bench_statistics import puzzle_outcomes
from sudoku_cp.report_html.certificates import RunCertification
from sudoku_cp.report_html.payload import configuration_list
from sudoku_cp.report_html.tables import session_list, summary_table
from sudoku_cp.results_log.reader import Results, load_results
from sudoku_cp.results_log.records import Header
from sudoku_cp.scores import scored_summary

from ..bench_helpers import bench_header, hand_made, puzzle_record, write_log


def table_of(
    results: Results,
    baseline: str | None = "a",
    certifications: dict[Any, RunCertification] | None = None,
) -> dict[str, Any]:
    _, shorts = configuration_list(results)
    runs = list(results.rows())
    return summary_table(
        results, runs, puzzle_outcomes(runs), shorts, certifications or {}, baseline=baseline
    )


def column(table: dict[str, Any], title: str, group: str = "") -> list[Any]:
    index = next(
        number
        for number, found in enumerate(table["columns"])
        if found.title == title and found.group == group
    )
    return [row["cells"][index] for row in table["rows"]]


def test_the_summary_is_the_librarys_with_sort_keys(tmp_path: Path) -> None:
    results = load_results(write_log(tmp_path / "r.jsonl", bench_header(), hand_made()))
    table = table_of(results)
    titles = [found.title for found in table["columns"]]
    assert titles[:11] == [
        "set",
        "configuration",
        "puzzles",
        "solved",
        "timeouts",
        "wrong",
        "errors",
        "PAR-2",
        "Borda",
        "unique",
        "mean",
    ]
    assert "CPU ms" not in {found.group for found in table["columns"]}  # none recorded
    expected = scored_summary(results.rows(), time_limit=10.0, baseline="a")
    assert [row.backend for row in expected] == ["a", "b", "VBS"]
    solved = column(table, "solved")
    assert [cell["sort"] for cell in solved] == [row.solved for row in expected]
    medians = column(table, "median", "wall ms")
    assert [cell["sort"] for cell in medians] == [row.median for row in expected]
    assert [cell["text"] for cell in medians] == ["2.50", "2.00", "1.00"]
    assert [cell["text"] for cell in column(table, "Borda")] == ["0.9", "2.1", "-"]
    ratios = column(table, "t / baseline")
    assert ratios[0]["text"] == "1.00" and ratios[1]["sort"] == pytest.approx(0.5**0.5)
    assert [row["configuration"] for row in table["rows"]] == [0, 1, -1]  # the VBS is none
    assert table["rows"][0]["baseline"] and not table["rows"][1]["baseline"]
    assert "t / baseline (a): geometric mean" in table["legend"]


def test_cpu_intervals_and_certificates_get_their_columns(tmp_path: Path) -> None:
    pytest.importorskip("scipy")
    records = []
    for number in range(6):
        runs = [
            {"backend": name, "repeat": repeat, "status": "solved", "seconds": scale * (number + 1)}
            for name, scale in (("a", 0.001), ("b", 0.003))
            for repeat in (0, 1)
        ]
        for run in runs:
            run["cpu_seconds"] = run["seconds"] / 2
        records.append(puzzle_record("top", number, runs))
    results = load_results(write_log(tmp_path / "r.jsonl", bench_header(repeat=2), records))
    table = table_of(results, certifications={(0, "b", 1): RunCertification(False, "no")})
    groups = [(found.group, found.title) for found in table["columns"]]
    assert ("CPU ms", "mean") in groups and ("CPU ms", "p90") in groups
    assert ("wall ms", "median 95% CI") in groups and ("", "Wilcoxon p") in groups
    assert [cell["text"] for cell in column(table, "mean", "CPU ms")] == ["1.75", "5.25", "-"]
    assert [cell["sort"] for cell in column(table, "not certified")] == [0, 1, 0]


def test_every_session_with_its_command_line_and_setup(tmp_path: Path) -> None:
    log = tmp_path / "r.jsonl"
    header = bench_header()
    setup = Header(
        "bench",
        header.settings,
        header.configurations,
        setup_of="session",
        setup={"a": {"error": "ImportError: no solver"}},
    )
    write_log(log, header, hand_made())
    with log.open("a") as handle:  # a set-up header as bench writes it, after its session's
        handle.write(json.dumps(setup.to_json()) + "\n")
    sessions = session_list(load_results(log))
    assert len(sessions) == 1
    session = sessions[0]
    assert session["argv"] == "sudoku-cp bench x" and session["command"] == "bench"
    assert ("CPU", "Test CPU, 2 cores (2 usable)") in session["rows"]
    assert session["setup"] == [("a", "-", "-", "not measured: ImportError: no solver", "-", "-")]
