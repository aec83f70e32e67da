"""agreement: crosscheck's tally, per configuration and per verdict, what it keeps to show, and
the summary (its median over the answered runs only, its JSON form). The text the summary is
printed as is tested in render/test_crosscheck.py."""

from __future__ import annotations

import json

import pytest

from sudoku_cp.agreement import summarize
from sudoku_cp.result import Mode

from .bench_helpers import answered_and_timed_out, resumed_count_summary, timeouts_tally


def test_tally_counts_per_backend_and_verdict_and_keeps_only_what_is_shown() -> None:
    tally = timeouts_tally()
    summary = tally.summary(wall_seconds=2.0)
    assert summary.verdicts == {"wrong": 0, "disagree": 0, "error": 1, "timeout": 5, "agree": 1}
    assert (summary.puzzles, summary.resumed, summary.session_puzzles) == (7, 1, 6)
    assert (summary.problems, summary.agreements, summary.puzzles_per_second) == (1, 1, 3.0)
    a, b = summary.backends
    assert (a.solved, a.unsatisfiable, a.timeouts, a.errors) == (6, 1, 0, 0)
    assert (b.solved, b.timeouts, b.errors) == (1, 5, 1)
    assert a.median_seconds == 0.001 and b.total_seconds == pytest.approx(5.004)
    assert summary.share("b") == pytest.approx(5.004 / (5.004 + 0.010))
    assert [kept.number for kept in tally.shown] == [1, 2, 6]
    assert tally.hidden_timeouts == 3
    assert tally.note() == "0 wrong, 1 error, 5 timeout"


def test_the_median_is_over_the_answered_runs() -> None:
    """A configuration's timeouts count in its total time, never in its median (as in bench
    and report): 0.002 s and 0.004 s solved, two timeouts of 1 s, median 3 ms."""
    summary = summarize(answered_and_timed_out(), backends=["a"], mode=Mode.LEXMIN)
    (a,) = summary.backends
    assert a.median_seconds == pytest.approx(0.003) and a.total_seconds == pytest.approx(2.006)


def test_summary_dict() -> None:
    data = resumed_count_summary().to_dict()
    assert (data["mode"], data["puzzles"], data["resumed"], data["agreements"]) == (
        "count",
        1,
        1,
        1,
    )
    assert data["backends"][0]["share"] == 1.0 and data["puzzles_per_second"] is None
    assert json.loads(json.dumps(data)) == data
