"""A kept SAT solver against fresh ones, on the sequence of the slowdown issue.

    python tools/bench_sat_kept.py [--allowance 2000|none] [--time-limit S] [--repeats R]
                                        [--puzzles FILE[#N,...] ...]

The sequence: the five puzzles of data/generated/unique-25x25.txt, then the empty 25x25
(data/examples/empty25.txt), all lex-min. One `SatBackend` solves them in order, keeping its
solver; a puzzle that runs past `--allowance` conflicts on it is handed to a fresh solver
(`none`: no bound, the behaviour of the issue, where the empty grid took 341.7 s). Side by side,
each puzzle also goes to a new backend (fresh solver), right after the kept one, so both see the
same machine load. Per puzzle: `SolveResult.seconds` (the clock of the time limit), the set-up
done before it (`setup_seconds`: solver builds, outside the clock), conflicts (of the abandoned
kept attempt and of the fresh solver that took over, when it fell back), and the ratio
kept / fresh. Every answer is checked with `is_solution_of`, and the kept and fresh lex-min
answers must be equal. Markdown to stdout, progress to stderr. `--puzzles` runs another sequence
(files relative to the repository, `#2,4` picks puzzles by number), for example
`--puzzles data/generated/multi-25x25.txt#2 data/examples/empty25.txt`.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from sudoku_cp.backends.sat import KEPT_CONFLICT_ALLOWANCE, SatBackend
from sudoku_cp.formats import read_puzzles
from sudoku_cp.grid import Grid
from sudoku_cp.result import SolveResult, Status

ROOT = Path(__file__).resolve().parent.parent
SEQUENCE = ["data/generated/unique-25x25.txt", "data/examples/empty25.txt"]


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def sequence(items: list[str]) -> list[tuple[str, Grid]]:
    """The puzzles of FILE[#N,...] items in order, each labelled like 'unique-25x25 #3'."""
    puzzles = []
    for item in items:
        name, _, numbers = item.partition("#")
        path = ROOT / name
        _, records = read_puzzles(path.read_text(), source=str(path))
        chosen = {int(n) for n in numbers.split(",")} if numbers else None
        label = path.name.removesuffix(".txt")
        for number, record in enumerate(records, start=1):
            if chosen is None or number in chosen:
                assert record.grid is not None, record.error
                puzzles.append((f"{label} #{number}" if len(records) > 1 else label, record.grid))
    return puzzles


@dataclass
class Run:
    """One puzzle's figures on one backend."""

    status: str
    seconds: float
    setup: float
    conflicts: int
    abandoned: int  # conflicts of a kept attempt given up on
    rebuilt: str

    @classmethod
    def of(cls, puzzle: Grid, result: SolveResult) -> Run:
        if result.solution is not None and not result.solution.is_solution_of(puzzle):
            raise AssertionError(f"wrong answer for {puzzle.to_line()}: {dict(result.stats)}")
        stats = result.stats
        return cls(
            str(result.status),
            result.seconds,
            float(stats.get("setup_seconds", 0.0)),
            int(stats.get("conflicts", 0)),
            int(stats.get("abandoned_conflicts", 0)),
            str(stats.get("rebuilt", "")),
        )

    @property
    def wall(self) -> float:
        return self.seconds + self.setup


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--allowance",
        default=str(KEPT_CONFLICT_ALLOWANCE),
        help=f"conflicts a puzzle may run on the used kept solver, or 'none' "
        f"(default {KEPT_CONFLICT_ALLOWANCE}, the backend's)",
    )
    parser.add_argument(
        "--time-limit",
        type=float,
        default=None,
        help="time limit per puzzle, kept and fresh (default: none)",
    )
    parser.add_argument(
        "--puzzles",
        nargs="+",
        default=SEQUENCE,
        help="the sequence, as FILE[#N,...] items (default: the issue's)",
    )
    parser.add_argument(
        "--repeats",
        type=int,
        default=1,
        help="run the whole sequence this many times, each on a new kept backend",
    )
    args = parser.parse_args()
    allowance = None if args.allowance == "none" else int(args.allowance)

    puzzles = sequence(args.puzzles)
    print(
        f"python-sat {SatBackend.versions()['python-sat']}; kept solver allowance "
        f"{allowance if allowance is not None else 'none'} conflicts; time limit "
        f"{args.time_limit if args.time_limit is not None else 'none'}; load average before: "
        f"{', '.join(f'{x:.2f}' for x in os.getloadavg())}\n"
    )
    print(
        "| run | puzzle | kept s | kept set-up s | kept conflicts (abandoned + final) | "
        "rebuilt | fresh s | fresh set-up s | fresh conflicts | kept / fresh (s) | "
        "kept / fresh (s + set-up) |"
    )
    print("|---:|---|---:|---:|---:|---|---:|---:|---:|---:|---:|")
    totals = {"kept": 0.0, "kept wall": 0.0, "fresh": 0.0, "fresh wall": 0.0}
    for repeat in range(1, args.repeats + 1):
        kept_backend = SatBackend()
        kept_backend.kept_allowance = allowance
        with kept_backend:
            for label, puzzle in puzzles:
                progress(f"run {repeat}: {label}")
                kept_result = kept_backend.solve(puzzle, time_limit=args.time_limit)
                kept = Run.of(puzzle, kept_result)
                with SatBackend() as fresh_backend:
                    fresh_result = fresh_backend.solve(puzzle, time_limit=args.time_limit)
                fresh = Run.of(puzzle, fresh_result)
                if Status.TIMEOUT not in (kept_result.status, fresh_result.status):
                    assert kept_result.solution == fresh_result.solution, label
                totals["kept"] += kept.seconds
                totals["kept wall"] += kept.wall
                totals["fresh"] += fresh.seconds
                totals["fresh wall"] += fresh.wall
                kept_status = "" if kept.status == "solved" else f" ({kept.status})"
                fresh_status = "" if fresh.status == "solved" else f" ({fresh.status})"
                print(
                    f"| {repeat} | {label} | {kept.seconds:.3f}{kept_status} | "
                    f"{kept.setup:.3f} | {kept.abandoned:,} + {kept.conflicts:,} | "
                    f"{kept.rebuilt or '-'} | "
                    f"{fresh.seconds:.3f}{fresh_status} | {fresh.setup:.3f} | "
                    f"{fresh.conflicts:,} | {kept.seconds / fresh.seconds:.2f} | "
                    f"{kept.wall / fresh.wall:.2f} |",
                    flush=True,
                )
    print(
        f"\ntotal: kept {totals['kept']:.2f} s ({totals['kept wall']:.2f} s with set-up), "
        f"fresh {totals['fresh']:.2f} s ({totals['fresh wall']:.2f} s with set-up); "
        f"kept / fresh {totals['kept'] / totals['fresh']:.2f} "
        f"({totals['kept wall'] / totals['fresh wall']:.2f} with set-up)"
    )
    print(f"load average after: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
