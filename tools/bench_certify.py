"""What a certificate costs: encode / solve / check, CPU seconds, per puzzle set and variant.

    python tools/bench_certify.py [--serg N] [--hex N] [--unsat N] [--variants A,B,...]

Sets (answers made beforehand by the sat backend, not timed): `serg` lex-min answers of N puzzles
spread over ../shared/data/serg_benchmark.txt (9x9, two or more completions each); `hex` lex-min
answers of N puzzles of ../shared/data/16x16_3000.txt; `unsat` the unsatisfiable 9x9 puzzles of
data/generated/unsat-9x9.txt; `hard` the lex-min answers of the empty 9x9 and 16x16 grids and of the
first N puzzles of data/generated/unique-25x25.txt (without `probe`, whose pure-Python check of
750,000-clause formulas is out of reach). Every claim is certified by a fresh `Certifier` (no
cache), through `Certifier.certify`, so the figures are those of `sudoku-cp certify`: the library's
CPU seconds per phase (`Certification.cpu`). Variants, run one after another on each puzzle in an
order that rotates from puzzle to puzzle so they see the same machine load:

- `library`: the certificate encoding (candidates, extended clauses, lexicographic chain),
  glucose4, dratify's native engine (cdclkit-native);
- `python`: the same, dratify's pure-Python engine;
- `minimal`: no cell at-most-one and no unit at-least-one clauses (still sound: fewer clauses);
- `cadical195`, `lingeling`: another proof solver;
- `probe`: the encoding of the issue's probe (every value of every cell, givens as unit
  clauses, one selector per blank fixing every earlier blank) with the pure-Python engine: the
  starting point (~330 ms per 9x9 lex-min in the issue).

Every certification must succeed (the script stops otherwise). Markdown to stdout: per set and
variant, the medians of encode, solve, check and total CPU milliseconds, the median proof lines
and clauses, and the total against `library`.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from unittest import mock

from sudoku_cp.backends import get_backend
from sudoku_cp.certify import Certifier, Claim, LexminClaim, UnsatClaim, encoding
from sudoku_cp.certify import certifier as certifier_module
from sudoku_cp.grid import Grid

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"
VARIANTS = ("library", "python", "minimal", "cadical195", "lingeling", "probe")


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def lines_of(path: Path, count: int, *, spread: bool) -> list[str]:
    if count <= 0:
        return []
    lines = [line for line in path.read_text().splitlines() if line and line[0] not in "#"]
    step = max(1, len(lines) // count) if spread else 1
    return lines[::step][:count]


def lexmin_claims(path: Path, count: int) -> list[Claim]:
    backend = get_backend("sat")
    claims: list[Claim] = []
    for line in lines_of(path, count, spread=True):
        puzzle = Grid.parse(line)
        result = backend.solve(puzzle)
        assert result.solution is not None, line
        claims.append(LexminClaim(puzzle, result.solution))
    return claims


def hard_claims(count: int) -> list[Claim]:
    if count <= 0:
        return []
    backend = get_backend("sat")
    puzzles = [Grid.empty(9), Grid.empty(16)] + [
        Grid.parse(line)
        for line in lines_of(ROOT / "data/generated/unique-25x25.txt", count, spread=False)
    ]
    claims: list[Claim] = []
    for puzzle in puzzles:
        result = backend.solve(puzzle)
        assert result.solution is not None
        claims.append(LexminClaim(puzzle, result.solution))
    return claims


# -- the variants' encodings (the bench swaps them in; the library has one) ------------------------


def minimal_clauses(puzzle: Grid, cands: list[tuple[int, ...]]) -> list[list[int]]:
    """Cells hold a candidate; no value twice in a unit (no cell AMO, no unit ALO)."""
    size = puzzle.size
    clauses = [[cell * size + value for value in values] for cell, values in enumerate(cands)]
    allowed = [set(values) for values in cands]
    for unit in puzzle.geometry.units:
        for value in range(1, size + 1):
            literals = [cell * size + value for cell in unit if value in allowed[cell]]
            clauses += [[-a, -b] for i, a in enumerate(literals) for b in literals[i + 1 :]]
    return clauses


def probe_candidates(puzzle: Grid) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(range(1, puzzle.size + 1)) for _ in puzzle.values)


def probe_completion(puzzle: Grid) -> encoding.Formula:
    cands = probe_candidates(puzzle)
    size = puzzle.size
    clauses = encoding.completion_clauses(puzzle, cands)
    clauses += [[cell * size + value] for cell, value in enumerate(puzzle.values) if value]
    return encoding.Formula(puzzle, cands, size**3, clauses, "probe: no completion")


def probe_lexmin(puzzle: Grid, solution: Grid) -> encoding.Formula:
    base = probe_completion(puzzle)
    size = puzzle.size
    clauses, selectors, free = list(base.clauses), [], size**3 + 1
    blanks = puzzle.blanks()
    for position, cell in enumerate(blanks):
        value = solution.values[cell]
        if value == 1:
            continue
        selector, free = free, free + 1
        selectors.append(selector)
        clauses.append([-selector] + [cell * size + smaller for smaller in range(1, value)])
        clauses += [
            [-selector, earlier * size + solution.values[earlier]] for earlier in blanks[:position]
        ]
    clauses.append(selectors)
    return encoding.Formula(puzzle, base.candidates, free - 1, clauses, "probe: smaller")


@contextlib.contextmanager
def variant(name: str) -> Iterator[Certifier]:
    """A fresh certifier for the variant, with its encoding swapped in."""
    solver = name if name in ("cadical195", "lingeling") else "glucose4"
    engine = "python" if name in ("python", "probe") else "native"
    patches: list[contextlib.AbstractContextManager[object]] = []
    if name == "minimal":
        patches.append(mock.patch.object(encoding, "completion_clauses", minimal_clauses))
    if name == "probe":
        patches += [
            mock.patch.object(certifier_module, "lexmin_formula", probe_lexmin),
            mock.patch.object(certifier_module, "completion_formula", probe_completion),
        ]
    with contextlib.ExitStack() as stack:
        for patch in patches:
            stack.enter_context(patch)
        yield Certifier(solver=solver, engine=engine, cache_size=0)


Row = dict[str, float]


def measure(claims: list[Claim], names: list[str]) -> dict[str, list[Row]]:
    rows: dict[str, list[Row]] = {name: [] for name in names}
    for index, claim in enumerate(claims):
        turn = index % len(names)
        for name in names[turn:] + names[:turn]:
            with variant(name) as certifier:
                certification = certifier.certify(claim)
            if not certification.certified:
                raise AssertionError(f"{name}: {claim.puzzle.to_line()}: {certification.reason}")
            certificate = certification.certificate
            assert certificate is not None
            cpu = certification.cpu
            rows[name].append(
                {
                    **cpu,
                    "total": sum(cpu.values()),
                    "lines": certificate.proof_lines,
                    "clauses": certificate.cnf_clauses,
                }
            )
    return rows


def report(title: str, rows: dict[str, list[Row]]) -> None:
    def median(name: str, key: str) -> float:
        return statistics.median(row[key] for row in rows[name])

    print(f"\n### {title} ({len(next(iter(rows.values())))} claims)\n")
    print(
        "| variant | encode ms | solve ms | check ms | total ms | x library | proof lines "
        "| clauses |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    base = median("library", "total") if "library" in rows else None
    for name in rows:
        total = median(name, "total")
        ratio = f"{total / base:.2f}" if base else "-"
        print(
            f"| {name} | {median(name, 'encode') * 1e3:.2f} | {median(name, 'solve') * 1e3:.2f}"
            f" | {median(name, 'check') * 1e3:.2f} | {total * 1e3:.2f} | {ratio} | "
            f"{median(name, 'lines'):.0f} | {median(name, 'clauses'):.0f} |"
        )
    count = len(next(iter(rows.values())))
    if count <= 5:  # a few hard claims: each one's total, not only the median
        print(
            "\n| variant | "
            + " | ".join(f"#{i + 1} total ms (proof lines)" for i in range(count))
            + " |"
        )
        print("|---|" + "---:|" * count)
        for name, found in rows.items():
            print(
                f"| {name} | "
                + " | ".join(f"{row['total'] * 1e3:.1f} ({row['lines']:.0f})" for row in found)
                + " |"
            )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--serg", type=int, default=200)
    parser.add_argument("--hex", type=int, default=30)
    parser.add_argument("--unsat", type=int, default=100)
    parser.add_argument("--hard", type=int, default=2, help="unique-25x25 puzzles (0: no hard set)")
    parser.add_argument("--variants", default=",".join(VARIANTS))
    options = parser.parse_args(argv)
    names = options.variants.split(",")
    sets: list[tuple[str, Callable[[], list[Claim]]]] = [
        (
            "serg_benchmark 9x9 lex-min",
            lambda: lexmin_claims(SHARED / "serg_benchmark.txt", options.serg),
        ),
        ("16x16_3000 lex-min", lambda: lexmin_claims(SHARED / "16x16_3000.txt", options.hex)),
        (
            "unsat-9x9",
            lambda: [
                UnsatClaim(Grid.parse(line))
                for line in lines_of(
                    ROOT / "data/generated/unsat-9x9.txt", options.unsat, spread=False
                )
            ],
        ),
        ("hard: empty 9x9, empty 16x16, unique-25x25", lambda: hard_claims(options.hard)),
    ]
    for title, make in sets:
        progress(f"{title}: solving...")
        claims = make()
        if not claims:
            continue
        progress(f"{title}: certifying {len(claims)} claims x {len(names)} variants...")
        report(
            title,
            measure(
                claims,
                [name for name in names if not (name == "probe" and title.startswith("hard"))],
            ),
        )


if __name__ == "__main__":
    main()
