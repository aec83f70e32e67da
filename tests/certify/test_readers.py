"""certify.readers: results logs and solve --format jsonl read into entries with their claims;
unreadable input as one line with its place."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sudoku_cp.certify import AnyClaim, LexminClaim
from sudoku_cp.certify.readers import read_entries
from sudoku_cp.errors import ResultsFileError

pytest.importorskip("dratify")


def test_solve_output_and_log_records_become_entries(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    header = {"kind": "header", "format": "sudoku-cp results", "version": 3}
    header.update(command="crosscheck", settings={"mode": "lexmin", "backends": []})
    entry = {
        "kind": "puzzle",
        "source": "p.txt",
        "number": 0,
        "puzzle": "0" * 16,
        "mode": "lexmin",
        "verdict": "timeout",
        "runs": [
            {"backend": "dfs", "repeat": 0, "status": "solved", "solution": "1234341221434321"},
            {"backend": "dfs", "repeat": 1, "status": "timeout", "solution": None},
        ],
    }
    log.write_text(json.dumps(header) + "\n" + json.dumps(entry) + "\n" + '{"torn')
    solved = tmp_path / "solve.jsonl"
    lines = [
        {
            "index": 0,
            "source": "p.txt",
            "puzzle": "0" * 16,
            "status": "wrong",
            "solution": None,
            "answer": "1234341221434321",
            "backend": "x",
            "mode": "any",
        },
        {"index": 1, "source": "p.txt", "puzzle": "00", "status": "invalid", "backend": "x"},
    ]
    solved.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    entries = list(read_entries(str(log))) + list(read_entries(str(solved)))
    assert [(entry.line, entry.label, entry.status) for entry in entries] == [
        (2, "dfs", "solved"),
        (2, "dfs#2", "timeout"),
        (1, "x", "wrong"),
        (2, "x", "invalid"),
    ]
    assert isinstance(entries[0].claim, LexminClaim) and entries[1].claim is None
    assert isinstance(entries[2].claim, AnyClaim) and entries[3].claim is None


@pytest.mark.parametrize(
    "text,message",
    [
        ("not json\n{}\n", r"bad\.jsonl:1: not a JSON object: certify reads results logs"),
        ('{"kind": "other"}\n', r"bad\.jsonl:1: neither a results log nor a line of solve"),
        (
            '{"puzzle": "123", "backend": "x", "status": "solved", "mode": "lexmin"}\n',
            r"bad\.jsonl:1: the puzzle is not a grid",
        ),
        (
            '{"puzzle": "' + "0" * 16 + '", "status": "solved", "mode": "fast"}\n',
            r"bad\.jsonl:1: not a whole line of solve --format jsonl \(mode 'fast' is none of",
        ),
        ("\n\n", r"bad\.jsonl: holds no puzzle to certify"),
    ],
)
def test_unreadable_input_is_one_line_with_its_place(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(text)
    with pytest.raises(ResultsFileError, match=message):
        list(read_entries(str(path)))


def test_a_missing_file_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ResultsFileError, match="cannot read"):
        list(read_entries(str(tmp_path / "nothing.jsonl")))
