"""report_html/certificates.py: certify reports told apart from results logs and joined to the
runs they certify, by file and line; runs certified while they ran count too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sudoku_cp.errors import ResultsFileError
from sudoku_cp.report_html.certificates import (
    RunCertification,
    is_certify_report,
    load_report_inputs,
)

from ..bench_helpers import bench_header, hand_made, invoke, write_log
from .logs import disagreement_log


def certify_line(file: Path | str, line: int, backend: str, certified: bool) -> str:
    return json.dumps(
        {
            "file": str(file),
            "line": line,
            "backend": backend,
            "status": "solved",
            "claim": "lex-min",
            "certified": certified,
            "reason": "checked" if certified else "not the lex-min",
            "certificate": None,
            "witness": None,
        }
    )


@pytest.fixture
def log(tmp_path: Path) -> Path:
    return write_log(tmp_path / "r.jsonl", bench_header(), hand_made())  # lines 2, 3, 4


def test_a_certify_report_is_told_from_a_results_log(log: Path, tmp_path: Path) -> None:
    report = tmp_path / "cert.jsonl"
    report.write_text(certify_line(log, 2, "a", True) + "\n")
    assert is_certify_report(report) and not is_certify_report(log)
    assert not is_certify_report(tmp_path / "missing.jsonl")
    (tmp_path / "empty.jsonl").write_text("")
    assert not is_certify_report(tmp_path / "empty.jsonl")


def test_certifications_are_joined_by_file_line_and_repeat(log: Path, tmp_path: Path) -> None:
    report = tmp_path / "cert.jsonl"
    report.write_text(
        "\n".join(
            [
                certify_line(log, 2, "a", True),
                certify_line(log.name, 3, "b#2", False),  # the second timed repeat; by name
            ]
        )
        + "\n"
    )
    inputs = load_report_inputs([report, log])  # any order
    assert inputs.certify_reports == [str(report)]
    assert inputs.certifications == {
        (0, "a", 0): RunCertification(True, "checked"),
        (1, "b", 1): RunCertification(False, "not the lex-min"),
    }


def test_runs_certified_while_they_ran_count(tmp_path: Path) -> None:
    records = hand_made()
    records[0]["runs"][1].update(certified=False, reason="not certified: no proof")
    log = write_log(tmp_path / "r.jsonl", bench_header(), records)
    inputs = load_report_inputs([log])
    assert inputs.certifications == {
        (0, "b", 0): RunCertification(False, "not certified: no proof")
    }


def test_a_certify_report_alone_or_of_another_log_is_refused(log: Path, tmp_path: Path) -> None:
    report = tmp_path / "cert.jsonl"
    report.write_text(certify_line(tmp_path / "other.jsonl", 2, "a", True) + "\n")
    with pytest.raises(ResultsFileError, match="name the results log it certifies too"):
        load_report_inputs([report])
    with pytest.raises(
        ResultsFileError,
        match=r"cert.jsonl:1: certifies .*other.jsonl, which is not among the results logs given",
    ):
        load_report_inputs([log, report])
    report.write_text(certify_line(log, 9, "a", True) + "\n")
    with pytest.raises(ResultsFileError, match="has no puzzle record at line 9"):
        load_report_inputs([log, report])
    report.write_text(certify_line(log, 2, "a", True) + "\n[1, 2]\n")
    with pytest.raises(ResultsFileError, match=r"cert.jsonl:2: not a line of sudoku-cp certify"):
        load_report_inputs([log, report])


def test_a_real_certify_report_of_a_crosscheck(tmp_path: Path) -> None:
    pytest.importorskip("dratify")
    log = disagreement_log(tmp_path)
    report = tmp_path / "cert.jsonl"
    result = invoke("certify", log, "--report", report)
    assert result.exit_code == 1  # notlexmin's answers are not the lex-min
    inputs = load_report_inputs([log, report])
    refused = {key[1] for key, found in inputs.certifications.items() if not found.certified}
    assert refused == {"notlexmin"}
    assert len(inputs.certifications) == 4 * len(inputs.results.entries)
