"""executors: found by name in one registry (the CLI's --executor choices), capped to what the
machine can use, and first chunks that grow so early results come early."""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from typing import Any

import pytest
from click.testing import CliRunner

from sudoku_cp.cli import main
from sudoku_cp.errors import ExecutorError
from sudoku_cp.executors import EXECUTORS, default_jobs, make_executor, usable_jobs
from sudoku_cp.executors import local as local_module
from sudoku_cp.executors.base import Executor, Job, JobWorker, chunks
from sudoku_cp.executors.inline import InlineExecutor
from sudoku_cp.executors.isolated import IsolatedExecutor
from sudoku_cp.executors.local import LocalExecutor

from ..conftest import BAEKJOON_2239, BAEKJOON_2239_ANSWER


def test_every_executor_is_found_by_name() -> None:
    assert list(EXECUTORS) == ["local", "inline", "isolated", "dask"]
    assert isinstance(make_executor("inline"), InlineExecutor)
    assert isinstance(make_executor("isolated"), IsolatedExecutor)
    assert isinstance(make_executor("local", jobs=1), InlineExecutor)
    assert isinstance(make_executor("local", jobs=2), LocalExecutor)
    with pytest.raises(
        ExecutorError,
        match=r"unknown executor 'cloud' \(choose from local, "
        r"inline, isolated, dask\)",
    ):
        make_executor("cloud")


def test_the_command_line_offers_the_registry() -> None:
    result = CliRunner().invoke(main, ["solve", "--help"])
    assert "local: worker processes" in result.stdout and "isolated:" in result.stdout
    solved = CliRunner().invoke(
        main, ["solve", "--executor", "isolated", "--format", "line"], input=BAEKJOON_2239 + "\n"
    )
    assert (solved.exit_code, solved.stdout) == (0, BAEKJOON_2239_ANSWER + "\n")


def test_too_many_jobs_are_capped_with_one_line(caplog: pytest.LogCaptureFixture) -> None:
    most = 4 * default_jobs()
    with caplog.at_level(logging.WARNING, logger="sudoku_cp"):
        assert usable_jobs(1000) == most
        assert usable_jobs(2) == 2
        executor = make_executor("local", jobs=1000)
    assert isinstance(executor, LocalExecutor) and executor.jobs == most
    assert (
        caplog.messages
        == [
            f"-j 1000 is more worker processes than this machine can use: "
            f"running {most} (4 per core)"
        ]
        * 2
    )


def test_the_cli_says_so_and_solves(tmp_path) -> None:
    result = CliRunner().invoke(
        main, ["solve", "-j", "1000", "--format", "line"], input=BAEKJOON_2239 + "\n"
    )
    assert result.exit_code == 0 and result.stdout == BAEKJOON_2239_ANSWER + "\n"
    assert result.stderr.startswith("warning: -j 1000 is more worker processes than")


def test_growing_chunks_start_at_one_and_double() -> None:
    sizes = [len(chunk) for chunk in chunks(range(100), 16, growing=True)]
    assert sizes == [1, 2, 4, 8, 16, 16, 16, 16, 16, 5]
    assert [len(chunk) for chunk in chunks(range(20), 16)] == [16, 4]


class _PidWorker(JobWorker):
    def run(self, item: Any, part: str | None = None) -> Any:
        return os.getpid()


class PidJob(Job):
    """Each item's output is the pid of the worker that ran it."""

    parts = ("pid",)

    def start(self) -> JobWorker:
        return _PidWorker()

    def only(self, part: str) -> Job:
        return self

    def failed(self, item: Any, part: str, reason: str) -> Any:
        return reason

    def merge(self, item: Any, outputs: Sequence[Any]) -> Any:
        return outputs[0]


@pytest.mark.parametrize(
    "executor", [LocalExecutor(2), IsolatedExecutor()], ids=["local", "isolated"]
)
def test_a_finished_run_lets_its_idle_workers_exit_by_themselves(
    executor: Executor, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Terminating idle workers raced the pool's threads still sending them their exit
    sentinels (an EBADF traceback from the queue's feeder thread at the end of a normal run):
    after the last output the workers are told to exit and waited for, and only an interrupted
    or failed run terminates them."""
    stopped: list[object] = []
    real_stop = local_module.WorkerPool.stop
    monkeypatch.setattr(
        local_module.WorkerPool, "stop", lambda self: (stopped.append(self), real_stop(self))
    )
    exits: list[int | None] = []
    real_close = local_module.WorkerPool.close

    def close(self: Any) -> None:
        processes = list(self.executor._processes.values())
        real_close(self)
        exits.extend(process.exitcode for process in processes)

    monkeypatch.setattr(local_module.WorkerPool, "close", close)
    assert len(list(executor.map(range(40), PidJob()))) == 40
    assert stopped == [] and exits and set(exits) == {0}


def test_a_run_stopped_early_terminates_its_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    stopped: list[object] = []
    real_stop = local_module.WorkerPool.stop
    monkeypatch.setattr(
        local_module.WorkerPool, "stop", lambda self: (stopped.append(self), real_stop(self))
    )
    outputs = LocalExecutor(2).map(range(1000), PidJob())
    next(outputs)
    outputs.close()  # what an interrupt does to the generator
    assert len(stopped) == 1
