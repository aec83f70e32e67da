"""generate.counting: which backend counts completions (the speed only, never the puzzles), the
progress hook per count, and the effort note."""

from __future__ import annotations

import pytest

from sudoku_cp.generate import Effort, counting_backend_name, generate, make_request

from .conftest import usable


def test_on_count_reports_each_completion_count_and_changes_nothing():
    # The progress hook within a puzzle: called after every count with the running total.
    request = make_request("unique", size=9, givens="22..28", seed=2, count=2)
    calls: list[int] = []
    reported = list(generate(request, counter_name="dfs", on_count=calls.append))
    assert reported == list(generate(request, counter_name="dfs"))
    assert len(calls) > 20 and calls == list(range(1, len(calls) + 1))


def test_the_counting_backend_changes_nothing_but_speed():
    if not usable("sat"):
        pytest.skip("need python-sat")
    request = make_request("unique", size=9, givens="22..28", seed=2, count=3)
    assert list(generate(request, counter_name="dfs")) == list(
        generate(request, counter_name="sat")
    )


def test_counting_backend_per_size():
    assert counting_backend_name(9) == "dfs"
    assert counting_backend_name(16) == ("sat" if usable("sat") else "dfs")


def test_counting_falls_back_to_dfs_without_sat(monkeypatch, caplog):
    monkeypatch.setattr("sudoku_cp.generate.counting.sat_backend_usable", lambda: False)
    assert counting_backend_name(25) == "dfs"
    assert "counting 25x25 completions with dfs" in caplog.text


def test_effort_names_the_phase_and_the_time_spent():
    effort = Effort()
    effort.enter("removing", givens=300)
    effort.questions, effort.question_seconds = 3, 1.25
    assert effort.note() == "removing givens, 300 left; 3 questions, 1.2 s"
