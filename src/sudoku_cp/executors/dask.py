"""The Dask executor: chunks of a job's items on a Dask cluster (`--executor dask`).

Without a scheduler address it starts a `LocalCluster` of `jobs` single-threaded worker
processes that listens on 127.0.0.1 only (scheduler, workers, nannies and dashboard); with one
(`tcp://host:8786`, `tls://host:8786`) it attaches to a running scheduler with the user's Dask
configuration (`distributed.comm.tls.*` for TLS); or it uses a `distributed.Client` it is given.

- Tasks are chunks of puzzles sized to take about `TASK_SECONDS` of solving each (from the
  solve times of the answers so far; `chunk_size` fixes it), a bounded number in flight per
  worker thread, yielded in submission order, so output order is kept and memory stays flat
  however long the input.
- Each worker thread keeps its job's state warm across tasks (`Job.start()` in a thread-local
  cache keyed by the job): one kept SAT solver per shape, OR-Tools imported once per worker
  process.
- A worker that dies mid-chunk: the scheduler runs the chunk again elsewhere (Dask keeps the
  task until it has a result), so nothing is lost or duplicated. A chunk that keeps killing its
  workers (Dask's `KilledWorker`) is run again one (item, part) at a time, so that the
  culprit is named and the others still get their answers.
- The scheduler gone: `ExecutorError` with one line; every result yielded before it is kept by the
  caller (the results log), and `--resume` continues on either executor.
- Closing the iterator (Ctrl-C) cancels every future still pending; a chunk already running
  stops at its next puzzle, so nothing is left running on the cluster.

The cluster or connection the executor made itself is released when `map`'s iterator ends (or on
`close()`); call `start()` first (or pass a `client`) to keep one cluster across several runs.
Reaching the scheduler, starting the local cluster and letting either go are `dask_cluster`'s.
"""

from __future__ import annotations

import collections
import hashlib
import itertools
import logging
import pickle
import threading
import time
import uuid
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from ..errors import ExecutorError
from ..text import one_line
from .base import IN_FLIGHT_PER_WORKER, Executor, Job, JobWorker
from .dask_cluster import (
    INSTALL_HINT,
    QuietClusterLogs,
    QuietSchedulerLoss,
    close_client,
    connect,
    import_distributed,
    quietly,
    start_local_cluster,
    wait_idle,
)

LOGGER = logging.getLogger(__name__)

# Seconds of solving a task aims at. A Dask task costs more than a local pool's (scheduler round
# trips, the worker's event loop), so tasks are made long enough to hide that, and no longer:
# long tasks delay the first answers, balance the workers worse at the end and lose more work to
# a worker that dies (the measurement that chose it: docs/decisions.md, the Dask section).
TASK_SECONDS = 0.5
FIRST_CHUNK_SIZE = 16  # puzzles per task until answers tell how long a puzzle takes
MAX_CHUNK_SIZE = 256
WORKERS_REFRESH = 2.0  # seconds between looks at the cluster's size (adaptive clusters grow)
CANCEL_GRACE = 2.0  # seconds a closing run waits for its cancelled chunks to stop
TASK_PREFIX = "sudoku-cp-chunk"


# -- in the worker ---------------------------------------------------------------------------------

_LOCAL = threading.local()  # per worker thread: (job key, JobWorker)


def _worker_state(key: str, job: Job) -> JobWorker:
    """This thread's state for a job, built on its first chunk.

    A thread (not a process) owns it: a worker with several threads runs several chunks at
    once, and a kept solver must not be shared between two of them."""
    cached: tuple[str, JobWorker] | None = getattr(_LOCAL, "state", None)
    if cached is not None and cached[0] == key:
        return cached[1]
    if cached is not None:
        cached[1].close()
    state = job.start()
    _LOCAL.state = (key, state)
    return state


def _still_wanted() -> bool:
    """False once this task was cancelled (the driver closed its run): stop between items."""
    try:
        from distributed import get_worker

        worker = get_worker()
        task = worker.state.tasks.get(worker.get_current_task())
    except (ImportError, AttributeError, KeyError, ValueError):  # not in a task: run on
        return True
    return task is not None and task.state not in ("cancelled", "released", "forgotten")


def _run_chunk(key: str, job: Job, chunk: Sequence[Any], part: str | None = None) -> list[Any]:
    """The task: every item of a chunk (or only one part of each)."""
    state = _worker_state(key, job)
    outputs: list[Any] = []
    for item in chunk:
        if outputs and not _still_wanted():
            break  # cancelled: nobody reads the output
        outputs.append(state.run(item, part))
    return outputs


def _job_key(job: Job) -> str:
    """Equal for equal jobs, so a second run reuses the workers' warm state."""
    return hashlib.sha256(pickle.dumps(job)).hexdigest()[:16]


# -- in the driver ---------------------------------------------------------------------------------


class DaskExecutor(Executor):
    """Chunks of puzzles on a Dask cluster: a `client`, a `scheduler` address, or a new
    `LocalCluster` of `jobs` worker processes bound to 127.0.0.1.

    Raises:
        ExecutorError: when `distributed` is not installed (the install hint); from `start` or
            `map`, when the scheduler cannot be reached or goes away during the run.
    """

    name = "dask"

    def __init__(
        self,
        *,
        jobs: int = 1,
        scheduler: str | None = None,
        client: Any = None,
        chunk_size: int | None = None,
        in_flight_per_worker: int = IN_FLIGHT_PER_WORKER,
    ) -> None:
        self.distributed = import_distributed()
        self.jobs = max(1, jobs)
        self.scheduler = scheduler
        self.chunk_size = None if chunk_size is None else max(1, chunk_size)
        self.chunk_sizes: list[int] = []  # the puzzles in each task of the last run, in order
        self.in_flight_per_worker = max(1, in_flight_per_worker)
        self.client: Any = client
        self.cluster: Any = None
        self._owns_client = client is None
        self._quiet_logs = QuietClusterLogs()  # while a local cluster of ours runs

    @property
    def where(self) -> str:
        """The scheduler's address as the messages show it."""
        if self.scheduler:
            return self.scheduler
        try:
            return str(self.client.scheduler.address)
        except AttributeError:
            return "(local cluster)"

    def start(self) -> Any:
        """The client, connecting or starting the local cluster on first use.

        Raises:
            ExecutorError: the scheduler cannot be reached, or the local cluster not started.
        """
        if self.client is not None:
            return self.client
        if self.scheduler:
            self.client = connect(self.distributed, self.scheduler)
            return self.client
        self._quiet_logs.hold()
        try:
            self.cluster, self.client = start_local_cluster(self.distributed, self.jobs)
        except ExecutorError:
            self.close()
            raise
        return self.client

    def close(self) -> None:
        """Disconnect, and stop the local cluster this executor started (never a client it was
        given)."""
        client, cluster = self.client, self.cluster
        if self._owns_client:
            self.client = None
            if client is not None:
                close_client(client)
        self.cluster = None
        if cluster is not None:
            quietly(cluster.close)
        self._quiet_logs.restore()

    def map(self, items: Iterable[Any], job: Job) -> Iterator[Any]:
        started_here = self.client is None
        client = self.start()
        key = _job_key(job)
        sizer = _ChunkSizer(self.chunk_size, job)
        self.chunk_sizes = sizer.sizes
        chunks = _sized_chunks(items, sizer)
        run = uuid.uuid4().hex[:8]
        numbers = itertools.count()
        pending: collections.deque[tuple[list[Any], Any]] = collections.deque()
        window = _Window(client, self.in_flight_per_worker, self.jobs)

        def submit(chunk: list[Any]) -> None:
            future = client.submit(
                _run_chunk, key, job, chunk, key=f"{TASK_PREFIX}-{run}-{next(numbers)}", pure=False
            )
            pending.append((chunk, future))

        quiet = QuietSchedulerLoss()
        client_log = logging.getLogger("distributed.client")
        client_log.addFilter(quiet)
        try:
            self._fill(pending, chunks, window, submit)
            while pending:
                chunk, future = pending[0]
                outputs = self._outputs(client, future, chunk, key, job)
                pending.popleft()
                sizer.observe(outputs)
                yield from outputs
                self._fill(pending, chunks, window, submit)
        finally:
            # Stopped early (Ctrl-C, an error, the caller closing the iterator): the scheduler's
            # complaints about the tasks cancelled ("Couldn't gather keys") are not news.
            dask_log = logging.getLogger("distributed")
            level = dask_log.level
            if pending:
                dask_log.setLevel(logging.CRITICAL)
            try:
                cancelled = self._cancel(client, [future for _, future in pending])
                if started_here:
                    if cancelled:  # let the running chunks stop at their next puzzle first
                        wait_idle(client, CANCEL_GRACE)
                    self.close()
            finally:
                if dask_log.level == logging.CRITICAL:  # close() restored it otherwise
                    dask_log.setLevel(level)
                client_log.removeFilter(quiet)

    def _fill(
        self,
        pending: collections.deque[tuple[list[Any], Any]],
        chunks: Iterator[list[Any]],
        window: _Window,
        submit: Any,
    ) -> None:
        """Submit chunks until the window of chunks in flight is full or the input ends."""
        while len(pending) < window.size():
            chunk = next(chunks, None)
            if chunk is None:
                return
            submit(chunk)

    def _outputs(self, client: Any, future: Any, chunk: list[Any], key: str, job: Job) -> list[Any]:
        outputs, error = _fetch(future)
        if isinstance(error, self.distributed.KilledWorker):
            LOGGER.warning(
                "a chunk of %d puzzles kept killing its workers: running it one "
                "puzzle and configuration at a time",
                len(chunk),
            )
            return self._isolate(client, chunk, key, job)
        if error is not None:
            raise self._failed(client, error) from error
        assert outputs is not None
        if len(outputs) != len(chunk):  # only a cancelled task stops early
            raise self._gone(client, RuntimeError("a chunk came back incomplete"))
        return outputs

    def _isolate(self, client: Any, chunk: list[Any], key: str, job: Job) -> list[Any]:
        """Each (item, part) of a chunk as its own task, one after the other: the part that
        kills its workers is named, the others answer."""
        outputs = []
        for item in chunk:
            parts = []
            for part in job.parts:
                future = client.submit(_run_chunk, key, job, [item], part, pure=False)
                try:
                    one, error = _fetch(future)
                except BaseException:  # Ctrl-C: leave nothing running
                    self._cancel(client, [future])
                    raise
                if isinstance(error, self.distributed.KilledWorker):
                    where = getattr(item, "where", item)
                    LOGGER.warning("%s killed its workers on %s", part, where)
                    parts.append(
                        job.failed(
                            item,
                            part,
                            f"worker process died while running "
                            f"{part} on this puzzle (Dask "
                            f"KilledWorker)",
                        )
                    )
                    continue
                if error is not None:
                    raise self._failed(client, error) from error
                assert one is not None
                parts.append(one[0])
            outputs.append(job.merge(item, parts))
        return outputs

    def _failed(self, client: Any, error: BaseException) -> ExecutorError:
        """The one line for a chunk that raised: the scheduler gone, or a worker that cannot
        run sudoku-cp (not installed there, a solver missing)."""
        if isinstance(error, (self.distributed.CancelledError, OSError, TimeoutError)):
            return self._gone(client, error)
        return ExecutorError(
            f"a Dask worker could not run sudoku-cp: {type(error).__name__}: "
            f"{one_line(error)} (every worker needs the same sudoku-cp and "
            f"solvers as this machine)"
        )

    def _gone(self, client: Any, error: BaseException) -> ExecutorError:
        LOGGER.debug(
            "Dask run ended by %r (client status %s)", error, getattr(client, "status", "?")
        )
        return ExecutorError(
            f"the Dask scheduler at {self.where} is gone: the results so far "
            f"are kept; continue with --resume"
        )

    @staticmethod
    def _cancel(client: Any, futures: list[Any]) -> bool:
        """Cancel what is still pending (a chunk already running stops at its next puzzle);
        True when there was something to cancel."""
        if not futures or getattr(client, "status", None) != "running":
            return False
        quietly(lambda: client.cancel(futures, force=True))
        return True


def _fetch(future: Any) -> tuple[list[Any] | None, Exception | None]:
    """A future's outputs, or the error it ended with.

    The error's traceback is dropped: the future keeps its error, and a traceback through the
    frame that holds the future would be a reference cycle keeping the task on the cluster."""
    try:
        outputs: list[Any] = future.result()
    except Exception as error:
        error.__traceback__ = None
        return None, error
    return outputs, None


class _ChunkSizer:
    """How many items the next task gets: a fixed number, or enough for `TASK_SECONDS` of work
    at the mean work time of the outputs so far (`Job.seconds`: set-up and warm-up not
    counted)."""

    def __init__(self, fixed: int | None, job: Job) -> None:
        self.fixed = fixed
        self.job = job
        self.puzzles = 0
        self.seconds = 0.0
        self.sizes: list[int] = []  # what was handed out, for the benchmark and the tests

    def observe(self, outputs: Sequence[Any]) -> None:
        for output in outputs:
            seconds = self.job.seconds(output)
            if seconds > 0:
                self.puzzles += 1
                self.seconds += seconds

    def size(self) -> int:
        if self.fixed is not None:
            size = self.fixed
        elif not self.puzzles:
            size = FIRST_CHUNK_SIZE
        else:
            per_puzzle = self.seconds / self.puzzles
            size = (
                MAX_CHUNK_SIZE
                if per_puzzle <= 0
                else max(1, min(MAX_CHUNK_SIZE, round(TASK_SECONDS / per_puzzle)))
            )
        return size


def _sized_chunks(items: Iterable[Any], sizer: _ChunkSizer) -> Iterator[list[Any]]:
    """The items in lists, each as long as the sizer says when it is made."""
    iterator = iter(items)
    while chunk := list(itertools.islice(iterator, sizer.size())):
        sizer.sizes.append(len(chunk))
        yield chunk


class _Window:
    """How many chunks to keep in flight: `per_worker` per worker thread of the cluster, looked
    at again every few seconds (an adaptive or batch-system cluster grows while it runs)."""

    def __init__(self, client: Any, per_worker: int, jobs: int) -> None:
        self.client = client
        self.per_worker = per_worker
        self.threads = jobs
        self.checked = -WORKERS_REFRESH

    def size(self) -> int:
        now = time.monotonic()
        if now - self.checked >= WORKERS_REFRESH:
            self.checked = now
            try:
                self.threads = max(1, sum(self.client.nthreads().values()))
            except Exception:  # an unreachable scheduler shows up at the next result
                pass
        return self.threads * self.per_worker


__all__ = ["DaskExecutor", "INSTALL_HINT", "TASK_SECONDS"]
