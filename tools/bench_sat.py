"""Issue 4 performance figures for the `sat` backend, measured in one run on this machine.

    python tools/bench_sat.py [--data ../shared/data] [--limit-puzzles N] [--cap 10]
                                   [--cap-25 20] [--skip-comparison] [--quick]
    python tools/bench_sat.py --against OLD_SAT_PY [--lexmin-puzzles 1000] [--rounds 2]

`--against` only compares this sat backend with another version (a sat.py from before the
package, e.g. `git show REV:src/sudoku_cp/backends/sat.py > /tmp/sat_old.py`, or a copy of a
sat/ package directory, e.g. `git archive REV src/sudoku_cp/backends/sat | tar -x -C /tmp`) on
17clue and serg_benchmark lex-min, puzzle by puzzle in one process, alternating which goes
first, in CPU seconds.

Per-puzzle times are `SolveResult.seconds` (in-process, model building included, parsing and
verification excluded); every answer is verified with `solution.is_solution_of(puzzle)`.
Progress goes to stderr, Markdown tables to stdout.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from sudoku_cp.backends.sat import (
    AMO_ENCODINGS,
    DEFAULT_AMO,
    DEFAULT_ENCODING,
    DEFAULT_SOLVER,
    ENCODINGS,
    SatBackend,
    accepted_solvers,
    base_cnf,
)
from sudoku_cp.bench_statistics import percentile
from sudoku_cp.grid import Grid
from sudoku_cp.result import Mode, SolveResult, Status

ROOT = Path(__file__).resolve().parent.parent
LEXMIN_SETS = [("top95.txt", None), ("17clue.txt", 1000), ("serg_benchmark.txt", 1000)]


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def read_puzzles(data: Path, name: str, count: int | None = None) -> list[Grid] | None:
    """The first `count` puzzles of a one-per-line file, or None when the file is absent."""
    path = data / name
    if not path.exists():
        return None
    return [Grid.parse(line) for line in path.read_text().split()[:count]]


def verified(puzzle: Grid, result: SolveResult) -> SolveResult:
    """The result, after checking a returned solution really completes the puzzle."""
    if result.solution is not None and not result.solution.is_solution_of(puzzle):
        raise AssertionError(f"wrong answer from {dict(result.stats)} for {puzzle.to_line()}")
    return result


def milliseconds(seconds: float) -> str:
    return f"{seconds * 1e3:.2f}"


def sparse_nines(data: Path, count: int = 20) -> list[Grid]:
    """Sparse 9x9 puzzles with many completions: 17-clue puzzles cut to their first 8-12 givens,
    plus the empty grid (lex-min bugs and slow tightening show on these, not on unique ones)."""
    source = read_puzzles(data, "17clue.txt", count) or read_puzzles(data, "top95.txt", count) or []
    puzzles = [Grid.empty(9)]
    for index, puzzle in enumerate(source):
        keep = set(list(puzzle.givens())[: 8 + index % 5])
        dropped = {cell: 0 for cell in puzzle.givens() if cell not in keep}
        puzzles.append(puzzle.with_values(dropped))
    return puzzles


def random_puzzle(size: int, givens: int, rng: random.Random) -> Grid:
    """A random puzzle with `givens` clues of a random full grid (the pattern grid, values
    relabelled, rows shuffled within bands and bands, the same for columns)."""
    box_rows, box_cols = Grid.empty(size).box
    bands = rng.sample(range(size // box_rows), size // box_rows)
    rows = [b * box_rows + r for b in bands for r in rng.sample(range(box_rows), box_rows)]
    stacks = rng.sample(range(size // box_cols), size // box_cols)
    columns = [t * box_cols + c for t in stacks for c in rng.sample(range(box_cols), box_cols)]
    labels = rng.sample(range(1, size + 1), size)
    full = [
        labels[(box_cols * (r % box_rows) + r // box_rows + c) % size]
        for r in rows
        for c in columns
    ]
    kept = set(rng.sample(range(size * size), givens))
    return Grid.from_values([v if cell in kept else 0 for cell, v in enumerate(full)])


def random_25s(count: int = 5, seed: int = 25) -> list[Grid]:
    """Random 25x25 puzzles with 20-60 % givens (usually many completions)."""
    rng = random.Random(seed)
    return [random_puzzle(25, rng.randint(125, 375), rng) for _ in range(count)]


# -- the figures of the issue ----------------------------------------------------------------------


def bench_build() -> None:
    """CNF build and solver load, default encoding, by size."""
    from pysat.solvers import Solver

    print(
        f"\n### CNF build and solver load ({DEFAULT_ENCODING} + {DEFAULT_AMO}, {DEFAULT_SOLVER})\n"
    )
    print("| size | variables | clauses | CNF build ms | solver load ms |")
    print("|---|---:|---:|---:|---:|")
    for size in (4, 6, 9, 16, 25):
        box = Grid.empty(size).box
        base_cnf.cache_clear()
        start = time.perf_counter()
        cnf = base_cnf(size, box, DEFAULT_ENCODING, DEFAULT_AMO)
        built = time.perf_counter() - start
        start = time.perf_counter()
        with Solver(name=DEFAULT_SOLVER) as solver:
            solver.append_formula(cnf.clauses)
            loaded = time.perf_counter() - start
        print(
            f"| {size}x{size} | {cnf.variables:,} | {len(cnf.clauses):,} | "
            f"{milliseconds(built)} | {milliseconds(loaded)} |"
        )


def bench_lexmin_sets(data: Path, count: int) -> None:
    """Lex-min per puzzle with one reused solver, on the public 9x9 sets."""
    print(
        f"\n### lexmin, one reused solver ({DEFAULT_SOLVER}, {DEFAULT_ENCODING} + {DEFAULT_AMO})\n"
    )
    print(
        "| set | puzzles | median ms | mean ms | p99 ms | max ms | median SAT calls | "
        "first puzzle ms (build) |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, limit in LEXMIN_SETS:
        puzzles = read_puzzles(data, name, min(limit or count, count))
        if puzzles is None:
            print(f"| {name} | absent | | | | | | |")
            continue
        progress(f"lexmin {name}")
        with SatBackend() as backend:
            results = [verified(p, backend.solve(p)) for p in puzzles]
        assert all(r.status is Status.SOLVED for r in results)
        times = [r.seconds for r in results[1:]] or [results[0].seconds]
        calls = [r.stats["sat_calls"] for r in results]
        print(
            f"| {name} | {len(results)} | {milliseconds(statistics.median(times))} | "
            f"{milliseconds(statistics.mean(times))} | {milliseconds(percentile(times, 99))} | "
            f"{milliseconds(max(times))} | {statistics.median(calls):g} | "
            f"{milliseconds(results[0].seconds)} |"
        )


def bench_any_throughput(data: Path, limit: int | None) -> None:
    """`any` over 17clue with one reused solver, in puzzles per second."""
    puzzles = read_puzzles(data, "17clue.txt", limit)
    print("\n### any, one reused solver, 17clue\n")
    if puzzles is None:
        print("17clue.txt absent")
        return
    progress(f"any over {len(puzzles)} puzzles of 17clue")
    with SatBackend() as backend:
        backend.solve(Grid.empty(9), mode=Mode.ANY)  # build outside the timed loop
        start = time.perf_counter()
        results = [backend.solve(p, mode=Mode.ANY) for p in puzzles]
        elapsed = time.perf_counter() - start
    for puzzle, result in zip(puzzles, results, strict=True):
        assert result.status is Status.SOLVED
        verified(puzzle, result)
    solve_only = sum(r.seconds for r in results)
    print(
        "| puzzles | wall s | puzzles/s (wall, all of Backend.solve) | "
        "mean ms (SolveResult.seconds) | median SAT conflicts |"
    )
    print("|---:|---:|---:|---:|---:|")
    print(
        f"| {len(puzzles):,} | {elapsed:.2f} | {len(puzzles) / elapsed:,.0f} | "
        f"{milliseconds(solve_only / len(puzzles))} | "
        f"{statistics.median(r.stats.get('conflicts', 0) for r in results):g} |"
    )


def bench_empty_grids(cap: float) -> None:
    """Empty 16x16 and 25x25 lex-min, fresh backend (build included)."""
    print(
        f"\n### lexmin of the empty grids, fresh backend ({DEFAULT_SOLVER}, time limit {cap:g} s)\n"
    )
    print("| grid | status | total s | build s | solve s | SAT calls | conflicts |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for size in (16, 25):
        progress(f"empty {size}x{size}")
        result = solve_fresh(SatBackend, Grid.empty(size), Mode.LEXMIN, cap)
        stats = result.stats
        print(
            f"| empty {size}x{size} | {result.status} | {result.seconds:.3f} | "
            f"{stats['build_seconds']:.3f} | {stats['solve_seconds']:.3f} | "
            f"{stats['sat_calls']} | {stats.get('conflicts', '')} |"
        )


def solve_fresh(
    factory: Callable[[], SatBackend], puzzle: Grid, mode: Mode, time_limit: float | None = None
) -> SolveResult:
    with factory() as backend:
        return verified(puzzle, backend.solve(puzzle, mode=mode, time_limit=time_limit))


def bench_reuse(data: Path) -> None:
    """The kept solver against a new solver per puzzle (CNF cached) and a new CNF + solver."""
    print(
        f"\n### reused solver vs fresh per puzzle ({DEFAULT_SOLVER}, {DEFAULT_ENCODING} + "
        f"{DEFAULT_AMO}), mean ms per puzzle\n"
    )
    cases = [
        ("lexmin", "top95.txt", None, Mode.LEXMIN),
        ("lexmin", "serg_benchmark.txt", 200, Mode.LEXMIN),
        ("any", "17clue.txt", 500, Mode.ANY),
        ("count (limit 2)", "17clue.txt", 200, Mode.COUNT),
    ]
    print("| mode | set | puzzles | reused | new solver, cached CNF | new CNF + new solver |")
    print("|---|---|---:|---:|---:|---:|")
    for label, name, count, mode in cases:
        puzzles = read_puzzles(data, name, count)
        if puzzles is None:
            continue
        progress(f"reuse vs fresh: {label} {name}")
        with SatBackend() as backend:
            backend.solve(Grid.empty(9), mode=mode)
            reused = [verified(p, backend.solve(p, mode=mode)).seconds for p in puzzles]
        fresh = [solve_fresh(SatBackend, p, mode).seconds for p in puzzles]
        rebuilt = []
        for puzzle in puzzles:
            base_cnf.cache_clear()
            rebuilt.append(solve_fresh(SatBackend, puzzle, mode).seconds)
        means = " | ".join(
            milliseconds(statistics.mean(times)) for times in (reused, fresh, rebuilt)
        )
        print(f"| {label} | {name} | {len(puzzles)} | {means} |")


# -- the comparison that chose the defaults --------------------------------------------------------


@dataclass
class Trial:
    """One configuration's figures; None where the run hit its cap."""

    solver: str
    encoding: str
    amo: str
    sparse_median: float | None = None
    sparse_mean: float | None = None
    any_mean: float | None = None
    empty_16: float | None = None
    empty_25: float | None = None
    random_25: float | None = None  # total over random_25s(), only for the best solvers

    def label(self) -> str:
        return f"{self.solver} / {self.encoding} / {self.amo}"


def capped(value: float | None, cap: float, *, in_ms: bool = False) -> str:
    """A figure in seconds (or ms), or the cap it ran into."""
    if value is None:
        return f"> {cap:g} s (cap)"
    return milliseconds(value) if in_ms else f"{value:.3f}"


def run_sparse(trial: Trial, puzzles: list[Grid], cap: float) -> None:
    """Lex-min median over the sparse 9x9 set with one reused solver; stops at the first cap."""
    with SatBackend(solver=trial.solver, encoding=trial.encoding, amo=trial.amo) as backend:
        times = []
        for puzzle in puzzles:
            result = verified(puzzle, backend.solve(puzzle, time_limit=cap))
            if result.status is not Status.SOLVED:
                return
            times.append(result.seconds)
    trial.sparse_median = statistics.median(times[1:])
    trial.sparse_mean = statistics.mean(times[1:])


def run_any(trial: Trial, puzzles: list[Grid], cap: float) -> None:
    with SatBackend(solver=trial.solver, encoding=trial.encoding, amo=trial.amo) as backend:
        backend.solve(Grid.empty(9), mode=Mode.ANY)
        times = []
        for puzzle in puzzles:
            result = verified(puzzle, backend.solve(puzzle, mode=Mode.ANY, time_limit=cap))
            if result.status is not Status.SOLVED:
                return
            times.append(result.seconds)
    trial.any_mean = statistics.mean(times)


def run_empty(trial: Trial, size: int, cap: float) -> float | None:
    def factory() -> SatBackend:
        return SatBackend(solver=trial.solver, encoding=trial.encoding, amo=trial.amo)

    result = solve_fresh(factory, Grid.empty(size), Mode.LEXMIN, cap)
    return result.seconds if result.status is Status.SOLVED else None


def run_random_25(trial: Trial, cap: float) -> None:
    """Total lex-min time over a few random 25x25 puzzles, one reused solver."""
    total = 0.0
    with SatBackend(solver=trial.solver, encoding=trial.encoding, amo=trial.amo) as backend:
        for puzzle in random_25s():
            result = verified(puzzle, backend.solve(puzzle, time_limit=cap))
            if result.status is not Status.SOLVED:
                return
            total += result.seconds
    trial.random_25 = total


def rank(trial: Trial) -> tuple[float, float, float]:
    """Order for choosing: the largest grids first (where configurations differ by 10-100x),
    then the 9x9 lex-min median."""
    missing = float("inf")
    return (
        trial.empty_25 if trial.empty_25 is not None else missing,
        trial.empty_16 if trial.empty_16 is not None else missing,
        trial.sparse_median if trial.sparse_median is not None else missing,
    )


def bench_solvers(
    data: Path, cap: float, cap_25: float, solvers: list[str], top: int = 4
) -> list[Trial]:
    """Every accepted solver with the default encoding."""
    sparse = sparse_nines(data)
    clue17 = read_puzzles(data, "17clue.txt", 300) or sparse
    trials = []
    for solver in solvers:
        progress(f"solver {solver}")
        trial = Trial(solver, DEFAULT_ENCODING, DEFAULT_AMO)
        run_sparse(trial, sparse, cap)
        run_any(trial, clue17, cap)
        trial.empty_16 = run_empty(trial, 16, cap)
        trial.empty_25 = run_empty(trial, 25, cap_25)
        trials.append(trial)
    ranked = sorted(trials, key=rank)
    for trial in ranked[:top]:
        progress(f"random 25x25 {trial.solver}")
        run_random_25(trial, cap_25)
    print(
        f"\n### SAT solvers ({DEFAULT_ENCODING} + {DEFAULT_AMO}); 9x9: {len(sparse)} sparse "
        f"multi-solution puzzles, reused solver; any: {len(clue17)} of 17clue; empty grids: "
        f"fresh backend, build included; random 25x25: {len(random_25s())} puzzles with "
        f"20-60 % givens, total, only for the best {top} on the empty 25x25\n"
    )
    print(
        "| solver | 9x9 sparse lexmin median ms | mean ms | 17clue any mean ms | "
        "empty 16x16 lexmin s | empty 25x25 lexmin s | random 25x25 lexmin total s |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for index, trial in enumerate(ranked):
        random_column = capped(trial.random_25, cap_25) if index < top else "not run"
        print(
            f"| {trial.solver} | {capped(trial.sparse_median, cap, in_ms=True)} | "
            f"{capped(trial.sparse_mean, cap, in_ms=True)} | "
            f"{capped(trial.any_mean, cap, in_ms=True)} | {capped(trial.empty_16, cap)} | "
            f"{capped(trial.empty_25, cap_25)} | {random_column} |"
        )
    return ranked


def bench_encodings(
    data: Path, cap: float, cap_25: float, solvers: list[str], top: int = 4
) -> list[Trial]:
    """Encoding x at-most-one for the best solvers; 25x25 only for the best few."""
    sparse = sparse_nines(data)
    trials = []
    for solver in solvers:
        for encoding in ENCODINGS:
            for amo in AMO_ENCODINGS:
                progress(f"encoding {solver} {encoding} {amo}")
                trial = Trial(solver, encoding, amo)
                run_sparse(trial, sparse, cap)
                trial.empty_16 = run_empty(trial, 16, cap)
                trials.append(trial)
    # The empty 16x16 takes one SAT call for the good configurations, so its time is mostly
    # build noise; among those under a second, the 9x9 median picks the finalists.
    fast = [
        t
        for t in trials
        if t.empty_16 is not None and t.empty_16 < 1.0 and t.sparse_median is not None
    ]
    finalists = sorted(fast, key=lambda t: t.sparse_median or 0.0)[:top]
    finalist_ids = {id(trial) for trial in finalists}
    for trial in finalists:
        progress(f"25x25 {trial.label()}")
        trial.empty_25 = run_empty(trial, 25, cap_25)
    print(
        f"\n### encoding x at-most-one (9x9: {len(sparse)} sparse puzzles, reused solver, "
        f"{cap:g} s cap per puzzle; empty 16x16: fresh backend, {cap:g} s cap; empty 25x25 only "
        f"for the best {top} 9x9 medians among those under 1 s on the 16x16, "
        f"{cap_25:g} s cap)\n"
    )
    print(
        "| solver | encoding | at-most-one | 9x9 clauses | 9x9 variables | 9x9 sparse lexmin "
        "median ms | empty 16x16 lexmin s | empty 25x25 lexmin s |"
    )
    print("|---|---|---|---:|---:|---:|---:|---:|")
    for trial in sorted(trials, key=rank):
        cnf = base_cnf(9, (3, 3), trial.encoding, trial.amo)
        print(
            f"| {trial.solver} | {trial.encoding} | {trial.amo} | {len(cnf.clauses):,} | "
            f"{cnf.variables:,} | {capped(trial.sparse_median, cap, in_ms=True)} | "
            f"{capped(trial.empty_16, cap)} | "
            f"{capped(trial.empty_25, cap_25) if id(trial) in finalist_ids else 'not run'} |"
        )
    return sorted(trials, key=rank)


def print_verdict(solvers: list[Trial], encodings: list[Trial], tie: float = 0.15) -> None:
    """Which configurations lead on the 25x25 figures (the ones that separate them), with
    everything within `tie` of the best called a tie: SAT run times vary that much run to run."""

    def leaders(trials: list[Trial], figure: Callable[[Trial], float | None]) -> str:
        done = [(value, trial) for trial in trials if (value := figure(trial)) is not None]
        if not done:
            return "none finished"
        best = min(value for value, _ in done)
        return ", ".join(
            f"{trial.label()} {value:.2f} s"
            for value, trial in sorted(done, key=lambda pair: pair[0])
            if value <= best * (1 + tie)
        )

    print(
        f"\nwithin {tie:.0%} of the best, empty 25x25: "
        f"{leaders(solvers + encodings, lambda t: t.empty_25)}"
    )
    print(f"within {tie:.0%} of the best, random 25x25: {leaders(solvers, lambda t: t.random_25)}")
    print(f"defaults: {DEFAULT_SOLVER} / {DEFAULT_ENCODING} / {DEFAULT_AMO}")


def load_other_sat(path: Path) -> type[SatBackend]:
    """The SatBackend of another version: a sat.py (before the backend was a package) or a sat/
    package directory, loaded as a sibling of this one so that its relative imports resolve."""
    name = "sudoku_cp.backends._sat_against"
    if path.is_dir():
        spec = importlib.util.spec_from_file_location(
            name, path / "__init__.py", submodule_search_locations=[str(path)]
        )
    else:
        spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    backend: type[SatBackend] = module.SatBackend
    return backend


AGAINST_SETS = ("17clue.txt", "serg_benchmark.txt")


def bench_against(other_path: Path, data: Path, count: int, rounds: int = 1) -> None:
    """Lex-min on the first `count` of 17clue and serg_benchmark: this backend and another
    version, one kept backend each, puzzle by puzzle in one process, alternating which goes
    first; CPU seconds (`time.process_time`) around each solve, and the reported seconds."""
    other_class = load_other_sat(other_path)
    print(
        f"\n### lexmin, first {count} of each set, one kept backend each, alternating, "
        f"{rounds} round(s) (other = {other_path})\n"
    )
    print(
        "| set | puzzles | this median CPU ms | other median CPU ms | this / other CPU | "
        "this / other (reported seconds) |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for name in AGAINST_SETS:
        puzzles = read_puzzles(data, name, count)
        if puzzles is None:
            raise SystemExit(f"no {name} in {data}")
        cpu: dict[str, list[float]] = {"other": [], "this": []}
        seconds: dict[str, list[float]] = {"other": [], "this": []}
        with other_class() as other, SatBackend() as this:
            backends = {"other": other, "this": this}
            for index, puzzle in enumerate(puzzles * rounds):
                answers = {}
                for version in ("other", "this") if index % 2 == 0 else ("this", "other"):
                    start = time.process_time()
                    result = verified(puzzle, backends[version].solve(puzzle))
                    cpu[version].append(time.process_time() - start)
                    seconds[version].append(result.seconds)
                    answers[version] = result.solution
                if answers["other"] != answers["this"]:
                    raise AssertionError(f"the versions disagree on {puzzle.to_line()}")
        medians = {version: statistics.median(times) for version, times in cpu.items()}
        reported = {version: statistics.median(times) for version, times in seconds.items()}
        print(
            f"| {name} | {len(puzzles)} | {milliseconds(medians['this'])} | "
            f"{milliseconds(medians['other'])} | {medians['this'] / medians['other']:.3f} | "
            f"{reported['this'] / reported['other']:.3f} |"
        )
    print("\nall answers equal")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--data",
        type=Path,
        default=ROOT.parent / "shared" / "data",
        help="directory of the puzzle files (default: ../shared/data)",
    )
    parser.add_argument(
        "--limit-puzzles",
        type=int,
        default=None,
        help="cap the 17clue `any` throughput run (default: all 49,158)",
    )
    parser.add_argument(
        "--lexmin-puzzles",
        type=int,
        default=1000,
        help="puzzles per set for the lexmin medians (default 1000)",
    )
    parser.add_argument(
        "--cap",
        type=float,
        default=10.0,
        help="time limit per run in the comparison, 9x9 and 16x16 (default 10 s)",
    )
    parser.add_argument(
        "--cap-25",
        type=float,
        default=20.0,
        help="time limit per empty 25x25 run in the comparison (default 20 s)",
    )
    parser.add_argument(
        "--skip-comparison",
        action="store_true",
        help="skip the solver and encoding comparison tables",
    )
    parser.add_argument(
        "--quick", action="store_true", help="small sets and three solvers, for a smoke run"
    )
    parser.add_argument(
        "--rounds", type=int, default=1, help="--against: passes over the puzzles (default 1)"
    )
    parser.add_argument(
        "--against",
        type=Path,
        default=None,
        help="only compare lexmin with another version (a sat.py or a sat/ package)",
    )
    args = parser.parse_args()
    if args.against is not None:
        bench_against(args.against, args.data, args.lexmin_puzzles, args.rounds)
        return
    if args.quick:
        args.limit_puzzles = args.limit_puzzles or 2000
        args.lexmin_puzzles = min(args.lexmin_puzzles, 200)
        args.cap, args.cap_25 = min(args.cap, 2.0), min(args.cap_25, 5.0)

    print(
        f"python-sat {SatBackend.versions()['python-sat']}; defaults {DEFAULT_SOLVER} / "
        f"{DEFAULT_ENCODING} / {DEFAULT_AMO}; load average before: "
        f"{', '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    bench_build()
    bench_lexmin_sets(args.data, args.lexmin_puzzles)
    bench_any_throughput(args.data, args.limit_puzzles)
    bench_empty_grids(60.0)
    bench_reuse(args.data)
    if not args.skip_comparison:
        solvers = ["glucose3", "glucose4", "minisat22"] if args.quick else accepted_solvers()
        ranked = bench_solvers(args.data, args.cap, args.cap_25, solvers)
        leaders = [trial.solver for trial in ranked]
        best_solvers = list(dict.fromkeys([DEFAULT_SOLVER, *leaders]))[:2]
        encodings = bench_encodings(args.data, args.cap, args.cap_25, best_solvers)
        print_verdict(ranked, encodings)
    print(f"\nload average after: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
