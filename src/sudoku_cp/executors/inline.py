"""The inline executor: everything in this process, one item after the other."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from .base import Executor, Job


class InlineExecutor(Executor):
    """Everything in this process: the simplest, and the one for timings on one core."""

    name = "inline"

    def map(self, items: Iterable[Any], job: Job) -> Iterator[Any]:
        worker = job.start()
        try:
            for item in items:
                yield worker.run(item)
        finally:
            worker.close()


__all__ = ["InlineExecutor"]
