"""The cpsat backend on big grids (25x25 to 64x64): Boolean vs integer model, lexmin and any.

Each (grid, model, mode) runs in a fresh interpreter, one at a time, under the backend's own time
limit (`--limit`, default 300 s): set-up (import, model build) happens in `prepare`, outside the
puzzle's clock and outside the CPU figure, which is `time.process_time()` around `Backend.solve`
(the machine is shared, so CPU seconds are the figure to compare; wall seconds are given beside).
Every answer is checked with `is_solution_of`; lex-min answers of the two models must agree when
both finish. The stats columns (stages, branches, conflicts) are CP-SAT's, summed over the calls.

    python tools/bench_cpsat_big.py                                # empty 25..64, both models
    python tools/bench_cpsat_big.py --sizes 25 36 --limit 60       # a shorter run
    python tools/bench_cpsat_big.py --puzzle data/generated/x.txt  # first puzzle of a file
    python tools/bench_cpsat_big.py --no-empty --multi 36:0.5:0 --multi 64:0.5:0:pattern
    python tools/bench_cpsat_big.py --models integer --modes lexmin --counts on off \
        --sizes 30 35 36                                  # the row counts, side by side

`--counts auto|on|off ...` (default auto) is the backend's `counts` option: the implied row counts
of the lex-min integer model (`add_row_counts` in the backend); the "counts" column gives the
option and, in brackets, whether the model had them.

`--multi SIZE:FRACTION:SEED[:pattern]` makes a puzzle with two completions or more the way
`sudoku-cp generate --kind multi` does (a completed grid, a smallest swap cycle blanked, givens
drawn from the other cells), without its count of up to 1,000 completions, which did not finish
at 36x36 in 10 minutes when these figures were taken (generate is fast above 25x25 since commit
4173c78); `pattern` takes a shuffled pattern grid instead of generate's random fill.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

SIZES = (25, 30, 36, 42, 49, 56, 64)
CHILD = r"""
import json, sys, time
from sudoku_cp.backends import get_backend
from sudoku_cp.grid import Grid
size, model, strategy, mode, limit, line, counts = json.loads(sys.argv[1])
grid = Grid.empty(size) if line is None else Grid.parse(line)
backend = get_backend("cpsat", model=model, lexmin=strategy, counts=counts)
start = time.perf_counter()
backend.prepare(grid)
setup = time.perf_counter() - start
cpu = time.process_time()
result = backend.solve(grid, mode=mode, time_limit=limit)
cpu = time.process_time() - cpu
ok = result.solution is not None and result.solution.is_solution_of(grid)
print(json.dumps({"status": str(result.status), "cpu": cpu, "wall": result.seconds,
                  "setup": setup, "valid": ok, "stats": dict(result.stats),
                  "solution": None if result.solution is None else list(result.solution.values),
                  "reason": result.reason}))
"""


def multi_puzzle(spec: str) -> tuple[str, str]:
    """(label, line) of a --multi puzzle: SIZE:FRACTION:SEED[:pattern]."""
    import random

    from sudoku_cp import generate
    from sudoku_cp.grid import BLANK, Grid

    size_text, fraction_text, seed_text, *fill = spec.split(":")
    size, fraction, seed = int(size_text), float(fraction_text), int(seed_text)
    rng = random.Random(seed)
    box = Grid.empty(size).box
    if fill == ["pattern"]:
        solution = generate.shuffle_grid(generate.pattern_grid(size, box=box), rng)
    else:
        solution = generate.random_completed_grid(rng, size, box=box)
    cycle = set(generate.smallest_swap_cycle(solution, rng))
    outside = [cell for cell in solution.geometry.cells if cell not in cycle]
    kept = set(rng.sample(outside, int(fraction * size * size)))
    puzzle = Grid(
        tuple(value if cell in kept else BLANK for cell, value in enumerate(solution.values)), box
    )
    return f"multi {spec} ({len(kept)} givens)", puzzle.to_line()


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def run_one(
    size: int,
    model: str,
    strategy: str,
    mode: str,
    limit: float,
    line: str | None,
    counts: str = "auto",
) -> dict:
    """One solve in a fresh interpreter; its JSON record."""
    argument = json.dumps([size, model, strategy, mode, limit, line, counts])
    done = subprocess.run(
        [sys.executable, "-c", CHILD, argument],
        capture_output=True,
        text=True,
        timeout=limit * 3 + 120,
    )
    if done.returncode != 0:
        return {"status": f"error {done.returncode}", "reason": done.stderr.strip()[-300:]}
    record: dict = json.loads(done.stdout.strip().splitlines()[-1])
    return record


def row(
    label: str, model: str, strategy: str, mode: str, record: dict, counts: str = "auto"
) -> str:
    stats = record.get("stats", {})
    cpu = record.get("cpu")
    used = {True: " (yes)", False: " (no)"}.get(stats.get("row_counts"), "")
    return (
        f"| {label} | {model} | {counts}{used} | {mode} | {stats.get('strategy', strategy)} | "
        f"{record['status']} | {'-' if cpu is None else f'{cpu:.2f}'} | "
        f"{record.get('wall', 0.0):.2f} | {record.get('setup', 0.0):.2f} | "
        f"{stats.get('stages', '-')} | {stats.get('branches', '-')} | "
        f"{stats.get('conflicts', '-')} | {'yes' if record.get('valid') else 'no'} |"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--models", nargs="+", default=["boolean", "integer"])
    parser.add_argument("--modes", nargs="+", default=["lexmin", "any"])
    parser.add_argument(
        "--strategy", default="search", help="lex-min strategy (default search; auto, objective)"
    )
    parser.add_argument("--limit", type=float, default=300.0, help="seconds per solve")
    parser.add_argument(
        "--puzzle",
        type=Path,
        action="append",
        default=[],
        help="also the first puzzle of this file (repeatable)",
    )
    parser.add_argument(
        "--multi",
        action="append",
        default=[],
        metavar="N:FRACTION:SEED",
        help="also a made multi puzzle (see above; repeatable)",
    )
    parser.add_argument("--no-empty", action="store_true", help="only the --puzzle/--multi ones")
    parser.add_argument(
        "--counts",
        nargs="+",
        default=["auto"],
        choices=["auto", "on", "off"],
        help="the backend's counts option(s), each run in turn (default auto)",
    )
    args = parser.parse_args(argv)
    cases: list[tuple[str, int, str | None]] = []
    if not args.no_empty:
        cases += [(f"empty {size}x{size}", size, None) for size in args.sizes]
    for path in args.puzzle:
        from sudoku_cp.grid import Grid

        line = next(
            text.strip()
            for text in path.read_text().splitlines()
            if text.strip() and not text.startswith("#")
        )
        grid = Grid.parse(line)
        cases.append((f"{path.name} ({len(grid.givens())} givens)", grid.size, line))
    for spec in args.multi:
        label, line = multi_puzzle(spec)
        cases.append((label, int(spec.split(":")[0]), line))
    print(
        f"load average before: {', '.join(f'{x:.2f}' for x in os.getloadavg())}; "
        f"limit {args.limit:g} s\n"
    )
    print(
        "| grid | model | counts | mode | strategy | status | CPU s | wall s | set-up s | "
        "stages | branches | conflicts | valid |"
    )
    print("|---|---|---|---|---|---|---:|---:|---:|---:|---:|---:|---|")
    started = time.perf_counter()
    for label, size, line in cases:
        for mode in args.modes:
            answers = {}
            for model in args.models:
                for counts in args.counts:
                    progress(f"{label} {model} counts={counts} {mode}")
                    record = run_one(size, model, args.strategy, mode, args.limit, line, counts)
                    print(row(label, model, args.strategy, mode, record, counts), flush=True)
                    if record.get("solution") is not None:
                        answers[model, counts] = record["solution"]
            if mode == "lexmin" and len(set(map(tuple, answers.values()))) > 1:
                print(
                    f"\n**lex-min answers differ between models or counts on {label}**\n",
                    flush=True,
                )
    print(
        f"\nload average after: {', '.join(f'{x:.2f}' for x in os.getloadavg())}; "
        f"total {time.perf_counter() - started:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
