"""The `isolated` executor: `IsolatedExecutor`, each configuration in a worker process of its own.

Each part of the job (each configuration) gets one worker process, and the parts run one after
the other on each chunk: timings stay sequential (one solve at a time, as inline), and each
part's peak memory is its own process's. The pools are the local executor's `WorkerPool`s, so a
worker that dies is replaced and the part that killed it named, as there.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from .base import CHUNK_SIZE, Executor, Job, chunks
from .local import WorkerPool


class IsolatedExecutor(Executor):
    """Each part of the job in a worker process of its own, run one after the other."""

    name = "isolated"

    def __init__(self, *, chunk_size: int = CHUNK_SIZE) -> None:
        self.chunk_size = max(1, chunk_size)

    def map(self, items: Iterable[Any], job: Job) -> Iterator[Any]:
        from concurrent.futures.process import BrokenProcessPool

        pools = {part: WorkerPool(job.only(part), 1) for part in job.parts}
        finished = False
        try:
            for chunk in chunks(items, self.chunk_size, growing=True):
                outputs: list[list[Any]] = [[] for _ in chunk]
                for pool in pools.values():
                    try:
                        answers = pool.submit(chunk).result()
                    except BrokenProcessPool:
                        answers = pool.isolate(chunk)
                    for collected, answer in zip(outputs, answers, strict=True):
                        collected.append(answer)
                yield from (
                    job.merge(item, parts) for item, parts in zip(chunk, outputs, strict=True)
                )
            finished = True
        finally:
            for pool in pools.values():
                if finished:
                    pool.close()
                else:
                    pool.stop()


__all__ = ["IsolatedExecutor"]
