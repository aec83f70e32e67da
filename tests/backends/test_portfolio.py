"""The portfolio backend (backends/portfolio.py): members race in child processes, the first
answer the verifier accepts wins, the others are killed with nothing left behind; lex-min answers
come only from members that guarantee it; bad member lists are refused in one line."""

from __future__ import annotations

import os
import time

import psutil
import pytest

from sudoku_cp.backends import get_backend
from sudoku_cp.backends.portfolio import PortfolioBackend, parse_members
from sudoku_cp.errors import BackendFailure, BackendOptionError
from sudoku_cp.grid import Grid
from sudoku_cp.result import Mode, Status
from sudoku_cp.verify import check_completion

from ..conftest import EMPTY_9_LEXMIN
from ..wrong_backends import wrong_backends  # noqa: F401 - a fixture

pytestmark = pytest.mark.usefixtures("wrong_backends")

# Four completions; notlexmin answers the one after the lex-min.
FOUR = Grid.parse("1234341200000000")


def _children() -> set[int]:
    return {child.pid for child in psutil.Process().children(recursive=True)}


def _alive(pid: int) -> bool:
    """Running (a zombie, killed and not waited for, counts as left behind too)."""
    try:
        return psutil.Process(pid).status() is not None
    except psutil.NoSuchProcess:
        return False


def _ends(pid: int) -> bool:
    """Whether a killed process is gone within 10 s (the kill is sent at once; the system
    takes a few milliseconds to tear the process down). A zombie has ended: only its exit
    status waits for whichever process reaps the orphan (PID 1, slower on a loaded machine)."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            if psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
                return True
        except psutil.NoSuchProcess:
            return True
        time.sleep(0.05)
    return False


def _pids(backend: PortfolioBackend) -> dict[str, int]:
    return {
        name: member.pid() for name, member in backend.processes.items() if member.pid() is not None
    }


def test_the_first_accepted_answer_wins_and_the_others_are_killed_at_once():
    before = _children()
    with get_backend("portfolio", members="dfs+stuck") as backend:
        backend.prepare(Grid.empty(9))
        stuck = _pids(backend)["stuck"]
        result = backend.solve(Grid.empty(9), time_limit=60)
        assert result.status is Status.SOLVED and result.solution.to_line() == EMPTY_9_LEXMIN
        assert result.stats["member"] == "dfs" and result.stats["stopped"] == "stuck"
        assert result.stats["members"] == "dfs+stuck"
        assert _ends(stuck)  # killed when dfs won, not left sleeping
        # a new worker, forked from the member's solver process at once, races the next puzzle
        again = backend.solve(Grid.empty(9), time_limit=60)
        assert again.stats["raced"] == "dfs+stuck" and again.stats["stopped"] == "stuck"
        assert "setup_seconds" not in again.stats
        zygotes = [member.zygote.process.pid for member in backend.processes.values()]
    assert not any(_alive(pid) for pid in zygotes)
    assert _children() == before  # close() leaves no process behind


def test_at_the_deadline_every_member_still_running_is_killed():
    before = _children()
    with get_backend("portfolio", members="stuck") as backend:
        backend.prepare(Grid.empty(4))
        stuck = _pids(backend)["stuck"]
        result = backend.solve(Grid.empty(4), time_limit=0.3)
        assert result.status is Status.TIMEOUT and result.reason == "no answer within 0.3 s"
        assert result.stats["stopped"] == "stuck" and "member" not in result.stats
        assert _ends(stuck)
    assert _children() == before


def test_a_member_killed_in_one_race_races_the_next():
    with get_backend("portfolio", members="slow+stuck") as backend:
        results = [backend.solve(Grid.empty(4), time_limit=60) for _ in range(3)]
    assert [result.stats["raced"] for result in results] == ["slow+stuck"] * 3
    assert [result.stats["stopped"] for result in results] == ["stuck"] * 3


def test_a_worker_ends_with_its_solver_process_even_in_the_middle_of_a_puzzle():
    import signal

    with get_backend("portfolio", members="stuck") as backend:
        backend.prepare(Grid.empty(4))
        member = backend.processes["stuck"]
        worker = member.pid()
        member.worker.send(("solve", "stuck", {}, Grid.empty(4).values, (2, 2), "any", 1, None))
        os.kill(member.zygote.process.pid, signal.SIGKILL)  # as when the parent is killed
        assert _ends(worker)


def test_an_answer_the_verifier_refuses_is_set_aside_and_the_race_goes_on():
    puzzle = Grid.parse("1200000000000000")
    with get_backend("portfolio", members="rulebreaker+slow") as backend:
        result = backend.solve(puzzle, time_limit=60)
    assert result.status is Status.SOLVED and check_completion(puzzle, result.solution).ok
    assert result.stats["member"] == "slow"
    assert result.stats["rejected"].startswith("rulebreaker: column ")


def test_when_every_member_is_refused_the_portfolio_fails():
    puzzle = Grid.parse("1200000000000000")
    backend = get_backend("portfolio", members="rulebreaker+givenchanger")
    refused = "no member's answer was accepted: .*rulebreaker: column "
    with backend, pytest.raises(BackendFailure, match=refused):
        backend.solve(puzzle, time_limit=60)


def test_lexmin_answers_come_only_from_members_that_guarantee_the_lexmin():
    with get_backend("portfolio", members="notlexmin+slow") as backend:
        lexmin = backend.solve(FOUR, time_limit=60)
        # notlexmin answers first, but does not guarantee the lex-min: it does not race
        assert lexmin.stats["member"] == "slow"
        assert lexmin.solution == get_backend("dfs").solve(FOUR).solution
        assert "notlexmin" not in backend.processes
        anything = backend.solve(FOUR, mode=Mode.ANY, time_limit=60)
        assert anything.stats["member"] == "notlexmin"  # any mode: every member races
    only = get_backend("portfolio", members="notlexmin")
    with only, pytest.raises(BackendOptionError, match="no member of notlexmin guarantees"):
        only.solve(FOUR)


def test_count_mode_takes_the_first_count_and_unsatisfiable_is_an_answer():
    with get_backend("portfolio", members="dfs+slow") as backend:
        counted = backend.solve(FOUR, mode=Mode.COUNT, limit=5, time_limit=60)
        assert (counted.count, counted.stats["member"]) == (4, "dfs")
        dead_end = Grid.parse("1200003400000000")  # no repeat, and no completion
        none = backend.solve(dead_end, mode=Mode.COUNT, limit=5, time_limit=60)
        assert none.status is Status.UNSATISFIABLE and none.count == 0


def test_a_member_that_fails_is_set_aside():
    puzzle = Grid.parse("8" + "0" * 80)
    with get_backend("portfolio", members="failing+slow") as backend:
        result = backend.solve(puzzle, mode=Mode.ANY, time_limit=60)
    assert result.stats["member"] == "slow" and result.status is Status.SOLVED
    assert result.stats["rejected"] == (
        "failing: the failing worker failed: BackendFailure: solver returned status 99"
    )


def test_a_member_with_a_helper_of_its_own_solves_in_its_portfolio_child():
    pytest.importorskip("z3", reason="needs z3-solver")
    with get_backend("portfolio", members="z3") as backend:
        assert backend.solve(Grid.empty(9), time_limit=60).solution.to_line() == EMPTY_9_LEXMIN
        member = backend.processes["z3"]
        assert member.zygote.options == {"process": "inline"}
        worker = psutil.Process(member.pid())
        assert worker.children() == []  # no helper of its own under the worker
        assert [child.pid for child in psutil.Process(member.zygote.process.pid).children()] == [
            worker.pid
        ]


@pytest.mark.parametrize(
    ("members", "message"),
    [
        ("", "option 'members' takes backend names joined by '+' (e.g. dfs+sat+cpsat), got ''"),
        ("dfs++sat", "option 'members' takes backend names joined by '+'"),
        ("dfs+nope", "portfolio member 'nope' is not a backend (choose from dfs, cpsat,"),
        ("dfs+portfolio", "a portfolio cannot be a member of a portfolio"),
        ("dfs+sat+dfs", "portfolio member 'dfs' is named twice"),
    ],
)
def test_bad_member_lists_are_refused(members, message):
    with pytest.raises(BackendOptionError) as caught:
        parse_members(members)
    assert str(caught.value).startswith(message) and "\n" not in str(caught.value)


def test_the_members_are_kept_as_written():
    assert parse_members("dfs+sat+cpsat") == "dfs+sat+cpsat"
    assert get_backend("portfolio").members == ("dfs", "sat", "cpsat")


def test_no_process_is_started_before_the_first_puzzle():
    before = _children()
    backend = get_backend("portfolio")
    assert _children() == before and os.getpid() not in _children()
    backend.close()


@pytest.mark.parametrize(
    ("members", "line"),
    [
        ("dfs+nope", "Error: portfolio member 'nope' is not a backend (choose from "),
        ("dfs+portfolio", "Error: a portfolio cannot be a member of a portfolio"),
        ("", "Error: 'portfolio[members=]': write options as name=value, got 'members='"),
    ],
)
def test_the_command_line_refuses_a_bad_portfolio_in_one_line(members, line):
    from click.testing import CliRunner

    from sudoku_cp.cli import main

    result = CliRunner().invoke(
        main, ["solve", "-b", f"portfolio[members={members}]", "-"], input="0" * 16 + "\n"
    )
    assert result.exit_code == 2 and result.output.startswith(line)
    assert result.output.count("\n") == 1 and "Traceback" not in result.output


def test_the_winner_is_in_the_record():
    import json

    from click.testing import CliRunner

    from sudoku_cp.cli import main

    result = CliRunner().invoke(
        main,
        ["solve", "-b", "portfolio[members=dfs+sat]", "--format", "jsonl", "-"],
        input="0" * 16 + "\n",
    )
    record = json.loads(result.output)
    assert result.exit_code == 0 and record["solution"] == "1234341221434321"
    assert record["stats"]["member"] in ("dfs", "sat") and record["stats"]["members"] == "dfs+sat"
