"""The executors, found by name: where a job's items run.

| name       | where                                                                  |
|------------|------------------------------------------------------------------------|
| `inline`   | this process, one item after the other                                 |
| `local`    | a pool of `jobs` worker processes on this machine (inline for one job) |
| `isolated` | each configuration in a worker process of its own, one after the other |
| `dask`     | a Dask cluster: a local one, or a scheduler given by address           |
| `fresh`    | each puzzle and configuration in a new child process, killed at the deadline |

Each is one module; `make_executor` builds one by name, and the command line's `--executor`
choices are `EXECUTORS`'s names. Every executor runs a `Job` (see `base`) and yields each item's
output in input order.
"""

from __future__ import annotations

import importlib
import logging
import os
from typing import Any

from ..errors import ArgumentError, ExecutorError
from .base import Executor, Job, JobWorker

LOGGER = logging.getLogger(__name__)

# name -> (module, class, one line for --help)
EXECUTORS: dict[str, tuple[str, str, str]] = {
    "local": ("local", "LocalExecutor", "worker processes alongside this one (-j N)"),
    "inline": ("inline", "InlineExecutor", "this process, one puzzle after the other"),
    "isolated": (
        "isolated",
        "IsolatedExecutor",
        "each configuration in a process of its own, one after the other",
    ),
    "dask": (
        "dask",
        "DaskExecutor",
        "a Dask cluster (pip install '.[dask]' from a sudoku-cp checkout)",
    ),
    "fresh": (
        "fresh",
        "FreshExecutor",
        "each puzzle and configuration in a new process, killed at the deadline",
    ),
}
JOBS_PER_CORE = 4  # worker processes beyond this many per usable core only compete for cores


def default_jobs() -> int:
    """The machine's usable cores (what `--jobs` defaults to for crosscheck)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def usable_jobs(jobs: int) -> int:
    """`jobs` capped at what this machine can use (`JOBS_PER_CORE` per usable core), with a
    warning when capped."""
    most = JOBS_PER_CORE * default_jobs()
    if jobs > most:
        LOGGER.warning(
            "-j %d is more worker processes than this machine can use: running %d (%d per core)",
            jobs,
            most,
            JOBS_PER_CORE,
        )
        return most
    return jobs


def make_executor(
    kind: str | Executor | None = None,
    *,
    jobs: int = 1,
    scheduler: str | None = None,
    client: Any = None,
) -> Executor:
    """An executor by name (see `EXECUTORS`); an `Executor` instance is returned as is.

    `jobs` is the local pool's worker processes (capped at what the machine can use; one means
    inline) or, for a new local Dask cluster, its workers. `scheduler` and `client` are Dask's.

    Raises:
        ArgumentError: for `jobs` below 1.
        ExecutorError: for an unknown name, a scheduler without dask, or dask without its
            extra installed.
    """
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ArgumentError(f"jobs must be an integer >= 1, got {jobs!r}")
    if isinstance(kind, Executor):
        return kind
    kind = kind or "local"
    if kind not in EXECUTORS:
        raise ExecutorError(f"unknown executor {kind!r} (choose from {', '.join(EXECUTORS)})")
    if (scheduler or client is not None) and kind != "dask":
        raise ExecutorError("a Dask scheduler or client needs the dask executor (--executor dask)")
    module, name, _ = EXECUTORS[kind]
    cls = getattr(importlib.import_module(f".{module}", __name__), name)
    if kind == "local":
        jobs = usable_jobs(jobs)
        if jobs <= 1:
            from .inline import InlineExecutor

            return InlineExecutor()
        return cls(jobs)  # type: ignore[no-any-return]
    if kind == "dask":
        return cls(jobs=jobs, scheduler=scheduler, client=client)  # type: ignore[no-any-return]
    return cls()  # type: ignore[no-any-return]


__all__ = [
    "EXECUTORS",
    "Executor",
    "Job",
    "JobWorker",
    "default_jobs",
    "make_executor",
    "usable_jobs",
]
