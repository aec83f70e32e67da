"""engine: the plan, the executors (inline and a process pool), the answers judged as they come
(the judging itself is tested in test_judging.py).

Results come in input order; a backend that raises is an error for that puzzle and backend only,
and is rebuilt; a worker that dies is replaced and its puzzles retried, and one that keeps dying
is isolated and named; the pool reads its input lazily; `--resume` runs the errors again.
"""

from __future__ import annotations

import json
import multiprocessing
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from sudoku_cp.backends import registered
from sudoku_cp.cli import main
from sudoku_cp.configurations import Configuration
from sudoku_cp.engine import WarmBackends, execute
from sudoku_cp.errors import ExecutorError
from sudoku_cp.executors import make_executor
from sudoku_cp.executors.base import IN_FLIGHT_PER_WORKER, WORKER_RETRIES
from sudoku_cp.executors.inline import InlineExecutor
from sudoku_cp.executors.local import LocalExecutor
from sudoku_cp.formats import InputPuzzle
from sudoku_cp.judging import SkippedLine, SolveSettings
from sudoku_cp.result import Mode, Status

from .conftest import BAEKJOON_2239, multi, records
from .wrong_backends import KillOnceBackend, ProcessKillerBackend, wrong_backends  # noqa: F401 (a fixture)

pytestmark = pytest.mark.usefixtures("wrong_backends")

DIES = "9" + "0" * 80  # the killer backend ends its worker on a first value of 9
RAISES = "8" + "0" * 80  # ... and raises on a first value of 8


def executor(jobs: int, chunk_size: int = 2) -> InlineExecutor | LocalExecutor:
    return InlineExecutor() if jobs == 1 else LocalExecutor(jobs, chunk_size=chunk_size)


DFS_AND_KILLER = [Configuration("dfs"), Configuration("killer")]


def running(pid: int | None) -> bool:
    """Whether a process is running (not gone, not a zombie)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


def running_children(before: set[int | None]) -> list[int | None]:
    """Child processes started since `before` that still run. (A child reaped by a pool's own
    manager thread can look alive to `multiprocessing.active_children()` for ever after.)"""
    return [
        child.pid
        for child in multiprocessing.active_children()
        if child.pid not in before and running(child.pid)
    ]


def children() -> set[int | None]:
    return {child.pid for child in multiprocessing.active_children()}


# -- order, bad input, errors ----------------------------------------------------------------------


@pytest.mark.parametrize("jobs", [1, 2])
def test_results_come_in_input_order_and_bad_input_passes_through(jobs: int) -> None:
    lines = [multi(seed) for seed in range(12)]
    lines.insert(5, "bad line")
    outcomes = list(
        execute(records(*lines), [Configuration("dfs")], SolveSettings(), executor=executor(jobs))
    )
    assert [outcome.input.index for outcome in outcomes] == list(range(13))
    bad = outcomes.pop(5)
    assert isinstance(bad, SkippedLine) and bad.input.grid is None and "bad line" in bad.reason
    assert [outcome.verdict for outcome in outcomes] == ["agree"] * 12
    for outcome in outcomes:
        run, puzzle = outcome.answer("dfs"), outcome.input.grid
        assert run is not None and run.result is not None and run.result.solution is not None
        assert puzzle is not None
        assert run.status == "solved" and run.result.solution.is_solution_of(puzzle)


@pytest.mark.parametrize("jobs", [1, 2])
def test_an_exception_is_an_error_for_that_puzzle_and_backend_only(jobs: int) -> None:
    outcomes = list(
        execute(
            records(multi(0), RAISES, multi(1), multi(2)),
            DFS_AND_KILLER,
            SolveSettings(),
            executor=executor(jobs),
        )
    )
    assert [outcome.verdict for outcome in outcomes] == ["agree", "error", "agree", "agree"]
    failed = outcomes[1].answer("killer")
    assert failed is not None
    assert (failed.status, failed.result, failed.reason) == ("error", None, "RuntimeError: boom")
    assert outcomes[1].findings == ["killer: error: RuntimeError: boom"]
    dfs = outcomes[1].answer("dfs")
    assert dfs is not None and dfs.status == "solved"
    assert outcomes[3].answer("killer") is not None


def test_a_backend_that_raised_is_rebuilt_and_one_that_did_not_is_kept() -> None:
    warm = WarmBackends([Configuration("dfs"), Configuration("crasher")], SolveSettings())
    dfs, crasher = warm.backends["dfs"], warm.backends["crasher"]
    fine, raises = records(BAEKJOON_2239, multi(0))  # the crasher raises on a blank first cell
    run = warm.run(fine)
    assert run.errors == {} and warm.backends["crasher"] is crasher
    run = warm.run(raises)
    assert run.errors == {"crasher": "RuntimeError: boom"}
    assert warm.backends["crasher"] is not crasher  # a fresh one for the next puzzle
    assert warm.backends["dfs"] is dfs
    assert warm.run(fine).results["crasher"][0].status is Status.SOLVED
    warm.close()


# -- worker death ----------------------------------------------------------------------------------


def test_a_worker_that_keeps_dying_is_isolated_and_the_culprit_named() -> None:
    before = children()
    lines = [multi(0), multi(1), DIES, multi(2), multi(3), multi(4), DIES, multi(5)]
    outcomes = list(
        execute(
            records(*lines),
            DFS_AND_KILLER,
            SolveSettings(),
            executor=LocalExecutor(2, chunk_size=3),
        )
    )
    assert [outcome.input.index for outcome in outcomes] == list(range(8))
    assert [outcome.verdict for outcome in outcomes] == [
        "error" if line == DIES else "agree" for line in lines
    ]
    for outcome in (outcomes[2], outcomes[6]):
        killer, dfs = outcome.answer("killer"), outcome.answer("dfs")
        assert killer is not None and dfs is not None
        assert killer.status == "error"
        assert killer.reason is not None and killer.reason.startswith(
            "worker process died while running killer on this puzzle"
        )
        assert dfs.status == "solved"  # the other backend of that puzzle still answers
    assert running_children(before) == []


def test_the_tries_named_for_a_culprit_are_the_tries_made(tmp_path: Path) -> None:
    deaths = tmp_path / "deaths.txt"
    ProcessKillerBackend.deaths = str(deaths)
    outcome = next(
        execute(
            records(DIES),
            [Configuration("killer")],
            SolveSettings(),
            executor=LocalExecutor(2, chunk_size=1),
        )
    )
    killer = outcome.answer("killer")
    assert killer is not None and killer.reason is not None
    tries = len(deaths.read_text().splitlines())
    assert tries == 1 + WORKER_RETRIES + 2
    assert killer.reason.endswith(f"on this puzzle ({tries} tries)")


def test_a_worker_death_that_a_retry_cures_ends_solved(tmp_path: Path) -> None:
    KillOnceBackend.flag = str(tmp_path / "killed-once")
    lines = [multi(seed) for seed in range(6)]
    outcomes = list(
        execute(
            records(*lines),
            [Configuration("dfs"), Configuration("killonce")],
            SolveSettings(),
            executor=LocalExecutor(2, chunk_size=2),
        )
    )
    assert (tmp_path / "killed-once").exists()  # a worker did die
    assert [outcome.verdict for outcome in outcomes] == ["agree"] * 6
    assert all(run.status == "solved" for outcome in outcomes for run in outcome.answers)


def test_killing_backends_refuse_to_end_the_test_process() -> None:
    outcome = next(execute(records(DIES), DFS_AND_KILLER, SolveSettings()))
    killer = outcome.answer("killer")
    assert killer is not None and killer.status == "error"
    assert killer.reason == (
        "RuntimeError: refusing to end the test process itself (run me in a worker)"
    )


# -- lazy input ------------------------------------------------------------------------------------


class Counted:
    """An endless-looking input that records how many records were pulled from it."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.pulled = 0
        self.template = records(multi(0))[0]

    def __iter__(self) -> Iterator[InputPuzzle]:
        for index in range(self.total):
            self.pulled += 1
            yield InputPuzzle(
                index, "gen", index + 1, self.template.text, self.template.grid, number=index
            )


@pytest.mark.parametrize("jobs, chunk_size", [(1, 1), (2, 3)])
def test_the_pool_reads_its_input_lazily_and_stops_on_close(jobs: int, chunk_size: int) -> None:
    before = children()
    source = Counted(10_000)
    outcomes = execute(
        source,
        [Configuration("dfs")],
        SolveSettings(),
        executor=LocalExecutor(jobs, chunk_size=chunk_size),
    )
    first = next(outcomes)
    assert first.input.index == 0 and first.verdict == "agree"
    in_flight = jobs * IN_FLIGHT_PER_WORKER * chunk_size
    assert 0 < source.pulled <= in_flight + chunk_size
    second = next(outcomes)
    assert second.input.index == 1 and source.pulled <= in_flight + 2 * chunk_size
    outcomes.close()
    pulled = source.pulled
    assert running_children(before) == []  # the workers are gone
    assert source.pulled == pulled < 100


def test_the_inline_executor_reads_one_record_per_answer() -> None:
    source = Counted(10_000)
    outcomes = execute(source, [Configuration("dfs")], SolveSettings())
    next(outcomes)
    assert source.pulled == 1
    next(outcomes)
    assert source.pulled == 2
    outcomes.close()


# -- repeats, judging, records ---------------------------------------------------------------------


def test_warmup_and_repeats_are_each_judged_and_numbered() -> None:
    settings = SolveSettings(mode=Mode.ANY, warmup=1, repeat=3)
    outcomes = list(execute(records(multi(0), multi(1)), [Configuration("dfs")], settings))
    for outcome in outcomes:
        assert [(run.label, run.repeat, run.status) for run in outcome.answers] == [
            ("dfs", 0, "solved"),
            ("dfs", 1, "solved"),
            ("dfs", 2, "solved"),
        ]
        assert all(run.cpu_seconds is not None for run in outcome.answers)


def test_make_executor_by_name() -> None:
    assert isinstance(make_executor("local", jobs=1), InlineExecutor)
    assert isinstance(make_executor(None, jobs=2), LocalExecutor)
    assert isinstance(make_executor("inline", jobs=4), InlineExecutor)
    mine = InlineExecutor()
    assert make_executor(mine) is mine
    with pytest.raises(ExecutorError, match="unknown executor 'ray'"):
        make_executor("ray")


# -- resume runs the errors again ------------------------------------------------------------------


def test_resume_runs_again_the_puzzles_that_ended_in_an_error(tmp_path: Path) -> None:
    """The first session's 'flaky' backend raises on blank first cells; on resume the same
    label is a working backend: only the error puzzles run again, and then agree."""
    puzzles = tmp_path / "p.txt"
    puzzles.write_text("\n".join([BAEKJOON_2239, multi(0), BAEKJOON_2239, multi(1)]) + "\n")
    log = tmp_path / "r.jsonl"
    args = [
        "crosscheck",
        str(puzzles),
        "-b",
        "dfs,flaky",
        "--jobs",
        "1",
        "--results",
        str(log),
        "--format",
        "jsonl",
    ]
    with registered("flaky", "tests.wrong_backends", "CrashingBackend"):
        first = CliRunner().invoke(main, args)
    assert first.exit_code == 1
    assert [json.loads(line)["verdict"] for line in first.stdout.splitlines()] == [
        "agree",
        "error",
        "agree",
        "error",
    ]
    with registered("flaky", "sudoku_cp.backends.dfs", "DfsBackend"):
        again = CliRunner().invoke(main, [*args, "--resume"])
    assert again.exit_code == 0, again.output
    shown = [json.loads(line) for line in again.stdout.splitlines()]
    assert [(record["number"], record["verdict"]) for record in shown] == [
        (0, "agree"),
        (2, "agree"),
        (1, "agree"),
        (3, "agree"),
    ]  # the resumed ones first
    assert "resumed: 2 puzzles from the results log" in again.stderr
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert [line["kind"] for line in lines] == ["header"] + ["puzzle"] * 4 + ["header"] + [
        "puzzle"
    ] * 2
    assert [line["number"] for line in lines[6:]] == [1, 3]


@pytest.mark.parametrize("executor", ["inline", "fresh"])
def test_stop_at_timeout_ends_a_series_at_its_first_timeout(
    tmp_path: Path, register, executor: str
) -> None:
    """sleepy times out on a puzzle whose first cell is blank: on the empty 9x9 here. Its later
    puzzles of size 9 or more are timeouts not run, until a smaller one starts a new series (the
    next kind of input, from its smallest size); dfs runs all."""
    from .bench_helpers import invoke, puzzles_of, register_wrong

    register_wrong(register, "sleepy")
    solvable_4 = "1" + "0" * 15
    puzzles = [solvable_4, "0" * 81, BAEKJOON_2239, "0" * 256, solvable_4, BAEKJOON_2239]
    path, log = tmp_path / "p.txt", tmp_path / "r.jsonl"
    path.write_text("\n".join(puzzles) + "\n")
    result = invoke(
        "bench", path, "-b", "sleepy,dfs", "--executor", executor, "--stop-at-timeout",
        "--time-limit", 5, "--no-setup", "--results", log,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    sleepy = [record["runs"][0] for record in puzzles_of(log)]
    assert [run["status"] for run in sleepy] == [
        "solved", "timeout", "timeout", "timeout", "solved", "solved",
    ]  # fmt: skip
    assert [run["reason"] for run in sleepy[1:4]] == [
        "no answer within 0.001 s",
        "not run: stopped after a timeout at 9x9",
        "not run: stopped after a timeout at 9x9",
    ]
    dfs = [record["runs"][1]["status"] for record in puzzles_of(log)]
    assert dfs[:3] == ["solved"] * 3 and dfs[4:] == ["solved"] * 2


def test_stop_at_timeout_needs_workers_that_learn_of_the_timeouts() -> None:
    from .bench_helpers import invoke

    result = invoke("bench", "x.txt", "--stop-at-timeout", "-j", 2)
    assert result.exit_code == 2
    assert result.stderr == (
        "Error: --stop-at-timeout needs --executor fresh or inline (with --executor local -j 2, "
        "workers take puzzles ahead of the timeouts)\n"
    )
    isolated = invoke("bench", "x.txt", "--stop-at-timeout")
    assert "(with --executor isolated, workers" in isolated.stderr
