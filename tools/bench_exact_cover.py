"""dfs against the exact-cover C library (issue 28 item 4): CPU per puzzle, side by side.

Each puzzle is solved by the dfs backend (lex-min, lex-min with `propagation=strong`, any) and
by `exact_cover.get_exact_cover` (any: the first cover its C Algorithm X finds), in an order that
rotates from puzzle to puzzle, CPU seconds of this process. The exact-cover matrix (a row per
candidate of the puzzle, 4N^2 columns) is built outside the clock and timed apart. exact-cover is
a benchmark-only package, not a dependency of sudoku-cp: `pip install exact-cover`.

    python tools/bench_exact_cover.py ../shared/data/top95.txt
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path


def cover_matrix(grid):  # type: ignore[no-untyped-def]
    """(matrix, rows): the exact-cover rows of a puzzle's candidates (a given keeps its value)."""
    import numpy as np

    geo = grid.geometry
    n = grid.size
    rows = []
    for cell, value in enumerate(grid.values):
        for v in [value] if value else range(1, n + 1):
            rows.append((cell, v))
    matrix = np.zeros((len(rows), 4 * n * n), dtype=bool)
    for index, (cell, v) in enumerate(rows):
        row, col = divmod(cell, n)
        box = geo.box_of(cell)
        for column in (
            cell,
            n * n + row * n + v - 1,
            2 * n * n + col * n + v - 1,
            3 * n * n + box * n + v - 1,
        ):
            matrix[index, column] = True
    return matrix, rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("puzzles", type=Path)
    parser.add_argument("--limit", type=int, default=None, help="the first N puzzles only")
    args = parser.parse_args()
    try:
        import exact_cover
    except ImportError:
        print("skipped: the exact-cover package is not installed (pip install exact-cover)")
        return 0
    from sudoku_cp.backends import get_backend
    from sudoku_cp.grid import Grid
    from sudoku_cp.result import Mode
    from sudoku_cp.verify import check_completion

    lines = [line.strip() for line in args.puzzles.read_text().splitlines() if line.strip()]
    grids = [Grid.parse(line) for line in lines[: args.limit]]
    dfs = get_backend("dfs")
    strong = get_backend("dfs", lexmin="strong")  # the level `auto` takes from 16x16 on

    def by_cover(grid):  # type: ignore[no-untyped-def]
        matrix, rows = prepared[id(grid)]
        chosen = exact_cover.get_exact_cover(matrix)
        values = [0] * len(grid.values)
        for index in chosen:
            cell, value = rows[index]
            values[cell] = value
        return tuple(values)

    methods = {
        "dfs lex-min": lambda grid: dfs.solve(grid, mode=Mode.LEXMIN).solution.values,
        "dfs lex-min strong": lambda grid: strong.solve(grid, mode=Mode.LEXMIN).solution.values,
        "dfs any": lambda grid: dfs.solve(grid, mode=Mode.ANY).solution.values,
        "exact_cover any": by_cover,
    }
    seconds: dict[str, list[float]] = {name: [] for name in methods}
    build: list[float] = []
    prepared = {}
    names = list(methods)
    for number, grid in enumerate(grids):
        start = time.process_time()
        prepared[id(grid)] = cover_matrix(grid)
        build.append(time.process_time() - start)
        order = names[number % len(names) :] + names[: number % len(names)]
        for name in order:
            start = time.process_time()
            values = methods[name](grid)
            seconds[name].append(time.process_time() - start)
            verdict = check_completion(grid, Grid(tuple(values), grid.box))
            if not verdict.ok:
                print(f"puzzle {number + 1}: {name} gave a wrong answer", file=sys.stderr)
                return 1
    print(f"{len(grids)} puzzles from {args.puzzles}, CPU ms per puzzle (median / mean)")
    for name, values in seconds.items():
        median, mean = statistics.median(values) * 1e3, statistics.mean(values) * 1e3
        print(f"  {name:18} {median:8.3f} / {mean:8.3f}")
    print(f"  {'matrix build':18} {statistics.median(build) * 1e3:8.3f} (outside the clock)")
    base = statistics.median(seconds["exact_cover any"])
    for name in ("dfs lex-min", "dfs lex-min strong", "dfs any"):
        print(
            f"  {name} / exact_cover any: {statistics.median(seconds[name]) / base:.2f}x (medians)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
