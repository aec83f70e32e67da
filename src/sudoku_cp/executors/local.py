"""The `local` executor: `LocalExecutor`, worker processes on this machine (`-j N`).

Each worker runs the job's `start()` once and keeps that state warm (one kept SAT solver per
shape, OR-Tools imported once). Items travel in chunks, a bounded number in flight, and outputs
come back in input order, so memory stays flat however long the input. A worker that dies (a
native solver aborting, a kill) is replaced and its chunk retried; a chunk that keeps killing its
worker is run one (item, part) at a time, so the culprit is named. Workers ignore Ctrl-C (their
own process group; the driver stops them) and exit by themselves when the driver is gone.
`WorkerPool`, the replaceable process pool, also serves the `isolated` executor.
"""

from __future__ import annotations

import collections
import itertools
import logging
import os
import signal
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from .base import CHUNK_SIZE, IN_FLIGHT_PER_WORKER, WORKER_RETRIES, Executor, Job, JobWorker, chunks

if TYPE_CHECKING:  # the pool's modules load only when a pool runs (solve -j 1 stays quick)
    from concurrent.futures import Future, ProcessPoolExecutor

LOGGER = logging.getLogger(__name__)
PR_SET_PDEATHSIG = 1

_WORKER: JobWorker | None = None  # this worker process's job state
_DRIVER_PID = 0


def _start_worker(job: Job, driver: int) -> None:
    global _WORKER, _DRIVER_PID
    os.setpgrp()  # Ctrl-C in the terminal goes to the driver only
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a stray SIGINT to a worker stops nothing
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _DRIVER_PID = driver
    _die_with_parent()
    _WORKER = job.start()


def _die_with_parent() -> None:
    """Ask Linux to kill this worker when the driver dies; elsewhere the pid check suffices."""
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass
    if os.getppid() != _DRIVER_PID:  # the driver died before prctl took effect
        os._exit(1)


def _check_driver() -> None:
    if _DRIVER_PID and os.getppid() != _DRIVER_PID:
        os._exit(1)  # orphaned: nobody will read the outputs


def _run_chunk(chunk: list[Any]) -> list[Any]:
    assert _WORKER is not None
    outputs = []
    for item in chunk:
        _check_driver()
        outputs.append(_WORKER.run(item))
    return outputs


def _run_part(item: Any, part: str) -> Any:
    assert _WORKER is not None
    _check_driver()
    return _WORKER.run(item, part)


class WorkerPool:
    """A process pool that can be replaced when a worker dies."""

    def __init__(self, job: Job, jobs: int) -> None:
        self.job = job
        self.jobs = jobs
        self.executor = self._new()

    def _new(self) -> ProcessPoolExecutor:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        # fork: workers inherit the registry (test and plugin backends) and start in milliseconds.
        return ProcessPoolExecutor(
            max_workers=self.jobs,
            initializer=_start_worker,
            initargs=(self.job, os.getpid()),
            mp_context=multiprocessing.get_context("fork"),
        )

    def submit(self, chunk: list[Any]) -> Future[list[Any]]:
        """Run a chunk in a worker: the future of its outputs, in order."""
        return self.executor.submit(_run_chunk, chunk)

    def renew(self) -> None:
        self.stop()
        self.executor = self._new()

    def close(self) -> None:
        """After the last output: the workers are idle, so they are told to exit and waited
        for. Terminating idle workers instead raced the pool's own threads, which were still
        sending them their exit sentinels (now and then an EBADF traceback from the queue's
        feeder thread)."""
        self.executor.shutdown(wait=True)

    def stop(self) -> None:
        """Stop now (an interrupt, an error, a pool to renew): pending work is cancelled and the
        workers, which may be in the middle of a puzzle, are terminated."""
        processes = list(getattr(self.executor, "_processes", {}).values())
        self.executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:  # workers ignore Ctrl-C (own process group): end them here
            if process.is_alive():
                process.terminate()
        for process in processes:
            process.join(timeout=5)
            if process.is_alive():  # stuck (a queue lock left held by a killed sibling)
                process.kill()
                process.join(timeout=1)
        try:  # join the pool's manager thread now, not at interpreter exit (EBADF noise)
            self.executor.shutdown(wait=True)
        except Exception:
            pass

    def isolate(self, chunk: list[Any]) -> list[Any]:
        """Re-run a chunk whose worker kept dying one (item, part) at a time, each part given
        one more try, so that the part that kills its worker is named."""
        from concurrent.futures.process import BrokenProcessPool

        job = self.job
        outputs = []
        for item in chunk:
            parts = []
            for part in job.parts:
                for attempt in range(2):
                    try:
                        parts.append(self.executor.submit(_run_part, item, part).result())
                        break
                    except BrokenProcessPool:
                        self.renew()
                        if attempt == 1:
                            LOGGER.warning(
                                "%s killed its worker twice on %s",
                                part,
                                getattr(item, "where", item),
                            )
                            parts.append(
                                job.failed(
                                    item,
                                    part,
                                    (
                                        f"worker process died while running {part} on this puzzle "
                                        f"({WORKER_RETRIES + 3} tries)"
                                    ),
                                )
                            )
            outputs.append(job.merge(item, parts))
        return outputs


Pending = collections.deque[tuple[list[Any], "Future[list[Any]]", int]]


class LocalExecutor(Executor):
    """`jobs` worker processes on this machine, each keeping its job's state warm."""

    name = "local"

    def __init__(self, jobs: int, *, chunk_size: int = CHUNK_SIZE) -> None:
        self.jobs = max(1, jobs)
        self.chunk_size = max(1, chunk_size)

    def map(self, items: Iterable[Any], job: Job) -> Iterator[Any]:
        from concurrent.futures.process import BrokenProcessPool

        stream = chunks(items, self.chunk_size, growing=True)
        pool = WorkerPool(job, self.jobs)
        pending: Pending = collections.deque()
        finished = False
        try:
            for chunk in itertools.islice(stream, self.jobs * IN_FLIGHT_PER_WORKER):
                pending.append((chunk, pool.submit(chunk), 0))
            while pending:
                chunk, future, tries = pending.popleft()
                try:
                    outputs = future.result()
                except BrokenProcessPool:
                    recovered = self._recover(pool, chunk, tries, pending)
                    if recovered is None:
                        continue  # re-sent: it comes round again, still first in line
                    outputs = recovered
                yield from outputs
                following = next(stream, None)
                if following is not None:
                    pending.append((following, pool.submit(following), 0))
            finished = True
        finally:
            if finished:
                pool.close()
            else:
                pool.stop()

    @staticmethod
    def _recover(
        pool: WorkerPool, chunk: list[Any], tries: int, pending: Pending
    ) -> list[Any] | None:
        """A worker died: renew the pool and re-send everything in flight; a chunk that has
        killed its worker too often is run one (item, part) at a time instead."""
        pool.renew()
        queued = [(queued_chunk, queued_tries) for queued_chunk, _, queued_tries in pending]
        pending.clear()
        outputs = None
        if tries < WORKER_RETRIES:
            pending.append((chunk, pool.submit(chunk), tries + 1))
        else:
            outputs = pool.isolate(chunk)
        for queued_chunk, queued_tries in queued:  # they died with the pool: send them again
            pending.append((queued_chunk, pool.submit(queued_chunk), queued_tries))
        return outputs


__all__ = ["LocalExecutor", "WorkerPool"]
