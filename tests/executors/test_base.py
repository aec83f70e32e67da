"""executors.base: chunks, growing from one so that early results come early."""

from __future__ import annotations

from sudoku_cp.executors.base import chunks


def test_growing_chunks_start_at_one_and_double() -> None:
    sizes = [len(chunk) for chunk in chunks(range(100), 16, growing=True)]
    assert sizes == [1, 2, 4, 8, 16, 16, 16, 16, 16, 5]
    assert [len(chunk) for chunk in chunks(range(20), 16)] == [16, 4]
