"""certify.files: files certified claim by claim, in file order, and the tally of what was
found: certified, failed, runs without an answer, claims certified afresh, the proofs' cost."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sudoku_cp.certify import Certifier
from sudoku_cp.certify.files import ClaimTally, certify_files

from .conftest import SMALL_PUZZLES, completions

pytest.importorskip("dratify")


def solve_output(path: Path, *runs: tuple[str, str | None]) -> Path:
    """A `solve --format jsonl` file of lex-min answers (status, solution) to one 4x4 puzzle."""
    puzzle = SMALL_PUZZLES[2].to_line()
    lines = [
        {"index": index, "source": "p.txt", "puzzle": puzzle, "status": status}
        | {"solution": solution, "backend": "dfs", "mode": "lexmin"}
        for index, (status, solution) in enumerate(runs)
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def test_every_run_in_file_order_and_the_tally_of_what_was_found(tmp_path: Path) -> None:
    lexmin, second = (grid.to_line() for grid in completions(SMALL_PUZZLES[2])[:2])
    first = solve_output(tmp_path / "a.jsonl", ("solved", lexmin), ("timeout", None))
    other = solve_output(tmp_path / "b.jsonl", ("solved", second), ("solved", lexmin))
    tally = ClaimTally()
    found = list(certify_files([str(first), str(other)], Certifier(), tally))
    assert [(entry.file, entry.line) for entry, _ in found] == [
        (str(first), 1),
        (str(first), 2),
        (str(other), 1),
        (str(other), 2),
    ]
    outcomes = [None if done is None else done.certified for _, done in found]
    assert outcomes == [True, None, False, True]
    assert (tally.files, tally.claims, tally.certified, tally.failed, tally.unanswered) == (
        2,
        3,
        2,
        1,
        1,
    )
    assert tally.distinct == 2 and found[3][1].cached  # the same claim again: from the cache
    assert sum(tally.kinds.values()) == 3 and not tally.ok
    assert tally.checker is not None and tally.checker.startswith("dratify ")
    assert len(tally.proof_checks) == len(tally.proof_lines) == 1  # the one proof made
    assert tally.median_check_ms() == pytest.approx(tally.proof_checks[0] * 1e3)


def test_an_empty_tally_is_ok_and_has_no_median() -> None:
    assert ClaimTally().ok and ClaimTally().median_check_ms() is None
