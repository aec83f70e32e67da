"""The `fresh` executor: `FreshExecutor`, a new child process for every (puzzle, configuration),
killed at its deadline.

Each child is forked, builds the one configuration's state (`Job.only(part).start()`), runs the
one item and sends its output back; nothing is kept from one puzzle to the next, so one run's
memory, learnt clauses or stuck native solver cannot touch the next. A child still running at
`Job.deadline()` seconds is killed with its whole process group (a solver's helper processes
too) and the part's output is the job's `timed_out` one; a child that dies is the job's
`failed` one. One child at a time, so timings stay sequential, as inline.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterable, Iterator
from typing import Any

from .base import Executor, Job

KILL_WAIT = 5.0  # seconds a killed child's group is given to be gone
PR_SET_PDEATHSIG = 1


def _child(job: Job, item: Any, connection: Any) -> None:
    os.setpgrp()  # its own group: the kill at the deadline takes its helpers too
    _die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the driver's to handle
    try:
        worker = job.start()
        output = worker.run(item)
        worker.close()
    except BaseException as error:  # noqa: BLE001 - a child never lets anything through
        output = job.failed(item, job.parts[0], f"{type(error).__name__}: {error}")
    connection.send(output)
    connection.close()


class FreshExecutor(Executor):
    """Every (item, part) in a child process of its own, killed at the job's deadline."""

    name = "fresh"

    def map(self, items: Iterable[Any], job: Job) -> Iterator[Any]:
        for item in items:
            yield job.merge(item, [self.run_part(job, item, part) for part in job.parts])

    def run_part(self, job: Job, item: Any, part: str) -> Any:
        """One part of one item in a new child: its output, or why it has none."""
        import multiprocessing

        context = multiprocessing.get_context("fork")  # inherits the registry (plugins, tests)
        receiving, sending = context.Pipe(duplex=False)
        single = job.only(part).cold()
        child = context.Process(target=_child, args=(single, item, sending), daemon=True)
        child.start()
        sending.close()
        deadline = single.deadline()
        try:
            if receiving.poll(deadline):
                try:
                    return receiving.recv()
                except EOFError:
                    pass  # the child died before it sent anything
            else:
                _kill_group(child)
                return job.timed_out(item, part, deadline or 0.0)
            child.join(KILL_WAIT)
            return job.failed(item, part, f"child process died (exit code {child.exitcode})")
        finally:
            _kill_group(child)  # an interrupt, or helpers the child left behind
            receiving.close()


def _die_with_parent() -> None:
    """Ask Linux to kill this child when the driver dies (a driver killed by SIGKILL)."""
    import ctypes

    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def _kill_group(child: Any) -> None:
    """Kill the child and every process of its group; wait for the child to be gone."""
    if child.pid is None:
        return
    try:
        os.killpg(child.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    if child.is_alive():  # killed before it made its own group
        child.kill()
    child.join(KILL_WAIT)


__all__ = ["FreshExecutor"]
