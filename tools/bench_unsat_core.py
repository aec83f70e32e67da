"""What a minimal unsatisfiable core over the givens costs: `explain --why-unsat` against
CPMpy's `mus` (OR-Tools), on the same puzzles.

    python tools/bench_unsat_core.py [--nine N] [--sixteen N] [--cpmpy-first K]
                                          [--skip-cpmpy]

Puzzles (unsatisfiable, no repeated given): half generated (data/generated/unsat-9x9.txt and
unsat-16x16.txt), half public puzzles with one given changed (the sets top1465 and 16x16_3000,
by name: a given takes another value that no given peer holds, kept when the puzzle then
has no completion, one change per puzzle, in file order). Per puzzle:

- `ours`: `sudoku_cp.explain.core.unsat_core` with the oracle of its shape kept across puzzles,
  as `sudoku-cp explain --why-unsat` runs; `ours cold` builds the oracle for the puzzle alone;
- `cpmpy`: `cpmpy.tools.explain.mus` over one `cell == value` constraint per given, with the
  rows, columns and boxes as AllDifferent hard constraints, solver "ortools" (model building
  not timed).

Each core is checked minimal by `is_minimal` (one solver call per given; not timed), and CPMpy's
core is checked the same way. `--cpmpy-first K` runs CPMpy on the first K puzzles of each size
only (a 16x16 takes it minutes); the ratio is then taken on those K, and the table says so.
Markdown to stdout: per size, the medians and the ratio, and the core sizes (pip install cpmpy:
the extra `compare-mus`).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from sudoku_cp.datasets import resolve_source
from sudoku_cp.explain.core import is_minimal, unsat_core
from sudoku_cp.explain.oracle import Oracle
from sudoku_cp.grid import Grid

ROOT = Path(__file__).resolve().parent.parent


def lines(path: Path) -> list[str]:
    return [line.strip() for line in path.read_text().splitlines() if line.strip()[:1] not in "#"]


def changed(path: Path, count: int, oracle: Oracle) -> list[Grid]:
    """Public puzzles with one given changed so that no completion is left."""
    found = []
    for line in lines(path):
        grid = Grid.parse(line)
        for cell, value in grid.givens().items():
            seen = {grid.values[peer] for peer in grid.geometry.peers[cell]}
            free = [v for v in range(1, grid.size + 1) if v != value and v not in seen]
            if not free:
                continue
            trial = grid.with_values({cell: free[0]})
            if not oracle.satisfiable(oracle.literals(trial.givens().items())):
                found.append(trial)
                break
        if len(found) == count:
            break
    return found


def puzzles(size: int, count: int) -> list[Grid]:
    generated = ROOT / "data" / "generated" / f"unsat-{size}x{size}.txt"
    public = Path(resolve_source("top1465" if size == 9 else "16x16_3000"))
    half = count // 2
    made = [Grid.parse(line) for line in lines(generated)[:half]]
    with Oracle(size, made[0].box) as oracle:
        return made + changed(public, count - len(made), oracle)


def ours(grids: list[Grid], *, cold: bool) -> tuple[list[float], list[int]]:
    seconds, sizes = [], []
    kept = Oracle(grids[0].size, grids[0].box)
    for grid in grids:
        started = time.perf_counter()
        oracle = Oracle(grid.size, grid.box) if cold else kept
        core = unsat_core(grid, oracle)
        seconds.append(time.perf_counter() - started)
        assert core is not None and core.minimal, grid.to_line()
        if cold:
            oracle.close()
        sizes.append(len(core.givens))
    kept.close()
    return seconds, sizes


def cpmpy_mus(grids: list[Grid]) -> tuple[list[float], list[int]]:
    import cpmpy as cp
    from cpmpy.tools.explain import mus

    seconds, sizes = [], []
    with Oracle(grids[0].size, grids[0].box) as oracle:
        for grid in grids:
            n, geo = grid.size, grid.geometry
            cells = cp.intvar(1, n, shape=n * n, name="cell")
            hard = [cp.AllDifferent([cells[c] for c in unit]) for unit in geo.units]
            soft = [cells[cell] == value for cell, value in grid.givens().items()]
            where = {
                str(constraint): cell for constraint, cell in zip(soft, grid.givens(), strict=True)
            }
            started = time.perf_counter()
            core = mus(soft=soft, hard=hard, solver="ortools")
            seconds.append(time.perf_counter() - started)
            givens = [(where[str(c)], grid.values[where[str(c)]]) for c in core]
            assert is_minimal(oracle.literals(givens), oracle), grid.to_line()
            sizes.append(len(core))
            progress(f"cpmpy {n}x{n}: {len(seconds)}/{len(grids)}: {seconds[-1] * 1000:.0f} ms")
    return seconds, sizes


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--nine", type=int, default=200)
    parser.add_argument("--sixteen", type=int, default=50)
    parser.add_argument("--cpmpy-first", type=int, default=None)
    parser.add_argument("--skip-cpmpy", action="store_true")
    args = parser.parse_args()
    print(
        "| size | puzzles | ours ms (median) | ours cold ms | cpmpy mus ms | cpmpy / ours "
        "| core givens (median, ours / cpmpy) |"
    )
    print("|---|---|---|---|---|---|---|")
    for size, count in ((9, args.nine), (16, args.sixteen)):
        if not count:
            continue
        grids = puzzles(size, count)
        progress(f"{size}x{size}: {len(grids)} puzzles")
        kept, core_sizes = ours(grids, cold=False)
        cold, _ = ours(grids, cold=True)
        row = [
            f"{size}x{size}",
            str(len(grids)),
            f"{statistics.median(kept) * 1000:.1f}",
            f"{statistics.median(cold) * 1000:.1f}",
        ]
        if args.skip_cpmpy:
            row += ["-", "-", f"{statistics.median(core_sizes):g} / -"]
        else:
            first = len(grids) if args.cpmpy_first is None else args.cpmpy_first
            theirs, their_sizes = cpmpy_mus(grids[:first])
            same = statistics.median(kept[: len(theirs)])
            row += [
                f"{statistics.median(theirs) * 1000:.1f} (first {len(theirs)})",
                f"{statistics.median(theirs) / same:.0f}x (ours {same * 1000:.1f} ms there)",
                f"{statistics.median(core_sizes[: len(theirs)]):g} / "
                f"{statistics.median(their_sizes):g}",
            ]
        print("| " + " | ".join(row) + " |", flush=True)


if __name__ == "__main__":
    main()
