"""executors.local: the worker pool (which the isolated executor runs too): idle workers exit by
themselves after a finished run, and a run stopped early terminates them."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import pytest

from sudoku_cp.executors import local as local_module
from sudoku_cp.executors.base import Executor, Job, JobWorker
from sudoku_cp.executors.isolated import IsolatedExecutor
from sudoku_cp.executors.local import LocalExecutor


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
