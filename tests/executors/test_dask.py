"""The Dask executor on a real LocalCluster of 2 worker processes (issue 14).

One cluster serves the module (starting one costs ~3 s). Test backends reach the spawned workers
through a worker plugin, which Dask also runs on the workers that replace killed ones.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import tempfile
import time
from pathlib import Path

import pytest

distributed = pytest.importorskip("distributed")  # the `test` extra installs it: CI runs these

from click.testing import CliRunner

from sudoku_cp.backends import register_backend, registered
from sudoku_cp.backends.base import Deadline, Outcome
from sudoku_cp.backends.dfs import DfsBackend
from sudoku_cp.cli import main
from sudoku_cp.configurations import Configuration
from sudoku_cp.engine import SolveJob, execute
from sudoku_cp.errors import ExecutorError
from sudoku_cp.executors import dask as executors_dask
from sudoku_cp.executors import make_executor
from sudoku_cp.executors.dask import DaskExecutor
from sudoku_cp.executors.inline import InlineExecutor
from sudoku_cp.grid import Grid
from sudoku_cp.judging import SolveSettings
from sudoku_cp.result import Mode

from ..conftest import G17, UNSOLVABLE_4, random_multi_solution
from .dask_helpers import puzzle_lines, records_of, verdicts, wait_until

SOLVE_PAUSE = 0.05  # seconds each `slowlog` solve sleeps: chunks last long enough to be hit
# Where `slowlog` notes its solves; set before the cluster starts, so its workers inherit it.
# The workers import this module too: they keep the driver's file.
if "SUDOKU_CP_TEST_SOLVES_LOG" not in os.environ:
    os.environ["SUDOKU_CP_TEST_SOLVES_LOG"] = str(
        Path(tempfile.mkdtemp(prefix="sudoku-cp-dask-")) / "solves.log"
    )
SOLVES_LOG = Path(os.environ["SUDOKU_CP_TEST_SOLVES_LOG"])


class SlowLogBackend(DfsBackend):
    """dfs that sleeps a little and notes `pid puzzle` in SOLVES_LOG for every solve."""

    name = "slowlog"

    def _solve(self, grid: Grid, *, mode: Mode, limit: int, deadline: Deadline) -> Outcome:
        time.sleep(SOLVE_PAUSE)
        with open(os.environ["SUDOKU_CP_TEST_SOLVES_LOG"], "a", encoding="utf-8") as handle:
            handle.write(f"{os.getpid()} {grid.to_line()}\n")
        return super()._solve(grid, mode=mode, limit=limit, deadline=deadline)


def solves(lines: list[str]) -> list[tuple[int, str]]:
    """(pid, puzzle) of every `slowlog` solve of these puzzles so far (each test has its own)."""
    wanted = set(lines)
    if not SOLVES_LOG.exists():
        return []
    noted = [line.split() for line in SOLVES_LOG.read_text().splitlines()]
    return [(int(pid), puzzle) for pid, puzzle in noted if puzzle in wanted]


class WorkerKillerBackend(DfsBackend):
    """Ends its Dask worker process on puzzles whose first cell is 9 (a native solver abort)."""

    name = "workerkiller"

    def _solve(self, grid: Grid, *, mode: Mode, limit: int, deadline: Deadline) -> Outcome:
        if grid.values[0] == 9:
            distributed.get_worker()  # raises outside a worker: never ends pytest itself
            os._exit(3)
        return super()._solve(grid, mode=mode, limit=limit, deadline=deadline)


class RegisterTestBackends(distributed.WorkerPlugin):
    """Registers this module's backends in every worker, the replacements of killed ones too."""

    def setup(self, worker: object) -> None:
        register_backend("slowlog", __name__, "SlowLogBackend")
        register_backend("workerkiller", __name__, "WorkerKillerBackend")


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address="127.0.0.1:0",
        worker_dashboard_address="127.0.0.1:0",
    ) as local_cluster:
        yield local_cluster
    shutil.rmtree(SOLVES_LOG.parent, ignore_errors=True)


@pytest.fixture(scope="module")
def client(cluster):
    with distributed.Client(cluster, set_as_default=False) as dask_client:
        dask_client.register_plugin(RegisterTestBackends())
        yield dask_client


@pytest.fixture(autouse=True)
def test_backends():
    """The same backends in this process, for the length of each test only."""
    with (
        registered("slowlog", __name__, "SlowLogBackend"),
        registered("workerkiller", __name__, "WorkerKillerBackend"),
    ):
        yield


def starting_with_9() -> str:
    """A valid puzzle whose first cell is a given 9 (what `workerkiller` dies on)."""
    return next(
        line
        for seed in range(1000)
        for line in [random_multi_solution(9, 30, seed).to_line()]
        if line.startswith("9")
    )


def our_tasks(client) -> list[str]:
    """The sudoku-cp tasks the scheduler still knows."""

    def keys(dask_scheduler):
        return [str(key) for key in dask_scheduler.tasks]

    return [
        key for key in client.run_on_scheduler(keys) if key.startswith(executors_dask.TASK_PREFIX)
    ]


def test_same_verdicts_and_order_as_inline(client):
    lines = [G17, *puzzle_lines(9), "this is not a puzzle", UNSOLVABLE_4, *puzzle_lines(4, seed=1)]
    specs = [Configuration("dfs"), Configuration("cpsat"), Configuration("sat")]
    settings = SolveSettings(Mode.LEXMIN)
    inline = verdicts(execute(records_of(lines), specs, settings, executor=InlineExecutor()))
    dask = verdicts(
        execute(
            records_of(lines), specs, settings, executor=DaskExecutor(client=client, chunk_size=3)
        )
    )
    assert dask == inline
    assert [index for index, _, _ in dask] == list(range(len(lines)))
    assert [verdict for _, verdict, _ in dask].count("agree") == len(lines) - 1
    assert dask[10][1] is None  # the bad line comes back, unjudged, in its place
    assert wait_until(lambda: not our_tasks(client))  # released (asynchronously)


def test_tasks_are_sized_to_take_about_half_a_second(client):
    lines = puzzle_lines(60, seed=13)
    executor = DaskExecutor(client=client, in_flight_per_worker=1)
    runs = list(
        executor.map(records_of(lines), SolveJob([Configuration("slowlog")], SolveSettings()))
    )
    assert [run.input.index for run in runs] == list(range(60))
    sizes = executor.chunk_sizes
    assert sum(sizes) == 60
    assert sizes[:2] == [executors_dask.FIRST_CHUNK_SIZE] * 2  # sent before any answer
    per_task = round(executors_dask.TASK_SECONDS / SOLVE_PAUSE)  # 10 puzzles of 50 ms
    assert all(per_task // 2 <= size <= per_task for size in sizes[2:-1]), sizes
    fixed = DaskExecutor(client=client, chunk_size=7)
    assert (
        len(
            list(
                fixed.map(records_of(lines[:20]), SolveJob([Configuration("dfs")], SolveSettings()))
            )
        )
        == 20
    )
    assert fixed.chunk_sizes == [7, 7, 6]


def test_count_mode_through_make_executor_with_a_client(client):
    lines = puzzle_lines(5, seed=2)
    specs = [Configuration("dfs"), Configuration("sat")]
    settings = SolveSettings(Mode.COUNT, limit=3)
    runner = make_executor("dask", client=client)
    dask = verdicts(execute(records_of(lines), specs, settings, executor=runner))
    assert dask == verdicts(execute(records_of(lines), specs, settings))
    assert client.status == "running"  # a client passed in is the caller's: left open


def test_a_worker_killed_mid_chunk_loses_and_repeats_nothing(client):
    lines = puzzle_lines(80, seed=3)
    specs = [Configuration("slowlog")]
    expected = verdicts(
        execute(records_of(lines), [Configuration("dfs", label="slowlog")], SolveSettings())
    )
    victim = next(iter(client.run(os.getpid).values()))
    outcomes = execute(
        records_of(lines),
        specs,
        SolveSettings(),
        executor=DaskExecutor(client=client, chunk_size=4),
    )
    got = [next(outcomes)]

    def victim_in_a_chunk() -> bool:  # its last solve is not the last of its chunk of 4
        mine = [lines.index(puzzle) for pid, puzzle in solves(lines) if pid == victim]
        return bool(mine) and mine[-1] % 4 != 3 and mine[-1] >= 4

    assert wait_until(victim_in_a_chunk, timeout=3)
    os.kill(victim, signal.SIGKILL)
    got.extend(outcomes)
    assert verdicts(got) == expected  # every puzzle once, in order, right
    by_victim = {puzzle for pid, puzzle in solves(lines) if pid == victim}
    rerun = {puzzle for pid, puzzle in solves(lines) if pid != victim} & by_victim
    assert rerun, "the killed worker's chunk ran again elsewhere"
    assert victim not in client.run(os.getpid).values()
    assert wait_until(lambda: len(client.scheduler_info()["workers"]) == 2)


def test_a_chunk_that_keeps_killing_workers_names_the_culprit(client, cluster):
    lines = puzzle_lines(3, seed=4) + [starting_with_9()] + puzzle_lines(2, seed=6)
    specs = [Configuration("dfs"), Configuration("workerkiller")]
    allowed = cluster.scheduler.allowed_failures
    cluster.scheduler.allowed_failures = 0  # the first death of a task is a KilledWorker
    try:
        outcomes = list(
            execute(
                records_of(lines),
                specs,
                SolveSettings(),
                executor=DaskExecutor(client=client, chunk_size=6),
            )
        )
    finally:
        cluster.scheduler.allowed_failures = allowed
    assert [outcome.input.index for outcome in outcomes] == list(range(6))
    assert [outcome.verdict for outcome in outcomes] == ["agree"] * 3 + ["error"] + ["agree"] * 2
    culprit = outcomes[3]
    assert culprit.answer("dfs").status == "solved"
    assert culprit.answer("workerkiller").status == "error"
    assert "worker process died while running workerkiller" in culprit.answer("workerkiller").reason
    assert wait_until(lambda: len(client.scheduler_info()["workers"]) == 2)


def test_closing_the_iterator_cancels_everything(client):
    lines = puzzle_lines(64, seed=7)
    outcomes = execute(
        records_of(lines),
        [Configuration("slowlog")],
        SolveSettings(),
        executor=DaskExecutor(client=client, chunk_size=4),
    )
    assert [outcome.input.index for outcome in (next(outcomes), next(outcomes))] == [0, 1]
    assert our_tasks(client)
    outcomes.close()
    assert wait_until(lambda: not our_tasks(client)), client.run_on_scheduler(
        lambda dask_scheduler: [
            (str(k), t.state, [str(w) for w in t.who_wants])
            for k, t in dask_scheduler.tasks.items()
        ]
    )

    def idle() -> bool:
        return not any(client.run(lambda dask_worker: dask_worker.state.executing_count).values())

    assert wait_until(idle, timeout=5)
    solved = len(solves(lines))
    time.sleep(4 * SOLVE_PAUSE)
    assert len(solves(lines)) == solved < len(lines)  # nothing runs any more


def test_the_executors_own_cluster_ends_with_its_run():
    psutil = pytest.importorskip("psutil")
    executor = DaskExecutor(jobs=1)
    runs = executor.map(
        records_of(puzzle_lines(3, seed=9)), SolveJob([Configuration("dfs")], SolveSettings())
    )
    assert next(runs).input.index == 0
    workers = list(executor.client.run(os.getpid).values())
    assert [run.input.index for run in runs] == [1, 2]
    assert executor.client is None and executor.cluster is None
    assert wait_until(lambda: not any(psutil.pid_exists(pid) for pid in workers))


def test_the_scheduler_gone_mid_run_is_one_line_and_keeps_the_results():
    lines = puzzle_lines(40, seed=10)
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as doomed:
        address = doomed.scheduler_address
        outcomes = execute(
            records_of(lines),
            [Configuration("dfs")],
            SolveSettings(),
            executor=DaskExecutor(scheduler=address, chunk_size=2),
        )
        got = [next(outcomes), next(outcomes)]
        doomed.close()
        with pytest.raises(ExecutorError) as raised:
            got.extend(outcomes)
    assert str(raised.value) == (
        f"the Dask scheduler at {address} is gone: the results so far "
        f"are kept; continue with --resume"
    )
    assert [outcome.input.index for outcome in got] == list(range(len(got)))
    assert all(outcome.verdict == "agree" for outcome in got)


def test_resume_across_executors(cluster, tmp_path):
    puzzles = tmp_path / "p.txt"
    lines = puzzle_lines(10, seed=11) + [G17]
    puzzles.write_text("\n".join(lines) + "\n")
    results = tmp_path / "r.jsonl"
    command = [
        "crosscheck",
        str(puzzles),
        "-b",
        "dfs,sat",
        "--results",
        str(results),
        "--format",
        "jsonl",
    ]

    def interrupt_after(kept: int) -> None:
        """Leave the log as a run killed after `kept` puzzles would: a torn last line."""
        log = results.read_text().splitlines(keepends=True)
        headers = [line for line in log if json.loads(line)["kind"] == "header"]
        done = [line for line in log if json.loads(line)["kind"] == "puzzle"][:kept]
        results.write_text("".join(headers + done) + '{"kind": "puzzle", "ind')

    first = CliRunner().invoke(
        main, [*command, "--executor", "dask", "--scheduler", cluster.scheduler_address]
    )
    assert first.exit_code == 0, first.output
    interrupt_after(4)
    second = CliRunner().invoke(main, [*command, "--resume", "--executor", "local", "-j", "2"])
    assert second.exit_code == 0, second.output
    interrupt_after(7)
    third = CliRunner().invoke(main, [*command, "--resume", "--executor", "dask", "-j", "2"])
    assert third.exit_code == 0, third.output
    records = [json.loads(line) for line in results.read_text().splitlines()]
    done = [record for record in records if record["kind"] == "puzzle"]
    assert sorted(record["number"] for record in done) == list(range(len(lines)))
    assert all(record["verdict"] == "agree" for record in done)
    fresh = [json.loads(line) for line in first.stdout.splitlines()]
    assert {record["number"]: [run["solution"] for run in record["runs"]] for record in done} == {
        record["number"]: [run["solution"] for run in record["runs"]] for record in fresh
    }
