"""One puzzle as an instance file for a solver the toolkit does not wrap (`sudoku-cp encode`).

    dimacs  CNF, the `sat` backend's encoding (`backends.sat.write_dimacs`): any SAT solver
    opb     pseudo-Boolean constraints, OPB (the PB competitions' format): Exact, RoundingSat
    lp      a 0-1 integer program, CPLEX LP format: HiGHS, CBC, SCIP, Gurobi, CPLEX
    mzn     the MiniZinc model that the `minizinc` backend runs (the same for every puzzle)
    dzn     the puzzle as MiniZinc data for that model
    xcsp3   XCSP3 XML: an integer per cell, allDifferent per unit: ACE, Choco, CPMpy

opb and lp hold the `sat` backend's Boolean model as linear equalities: x(cell, value) is 1 when
the cell holds the value, numbered cell * N + value as in DIMACS (`x1` ... `x{N^3}`); each cell
holds exactly one value, each unit holds each value exactly once, and each given is fixed (in
lp a row `x = 1`; in opb the given's cell says N x(given) + its other x = N, since OPB readers
such as CPMpy's refuse a constraint of one term). The files ask for a completion, not for the
lex-min (the MiniZinc model's search finds it: its first solution is the lex-min).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TextIO

from .errors import ArgumentError
from .grid import Grid, geometry

FORMATS: dict[str, str] = {  # name -> the file's usual suffix
    "dimacs": ".cnf",
    "opb": ".opb",
    "lp": ".lp",
    "mzn": ".mzn",
    "dzn": ".dzn",
    "xcsp3": ".xml",
}
LP_TERMS_PER_LINE = 16  # LP readers limit a line's length; an expression may go on


def format_of_suffix(path: str) -> str | None:
    """The format a file name's suffix names ('puzzle.lp' -> 'lp'), or None."""
    for name, suffix in FORMATS.items():
        if path.lower().endswith(suffix):
            return name
    return None


def write_instance(grid: Grid, handle: TextIO, instance_format: str, **dimacs: str) -> None:
    """Write the puzzle in `instance_format` (see `FORMATS`); `dimacs` takes the CNF's
    `encoding` and `amo`.

    Raises:
        ArgumentError: for an unknown format.
        BackendOptionError: for an encoding or at-most-one the CNF does not take.
    """
    if instance_format == "dimacs":
        from .backends.sat import write_dimacs

        write_dimacs(grid, handle, **dimacs)
    elif instance_format in ("mzn", "dzn"):
        from .backends.minizinc.model import data_text, model_text

        handle.write(model_text() if instance_format == "mzn" else data_text(grid))
    elif instance_format in WRITERS:
        handle.writelines(WRITERS[instance_format](grid))
    else:
        raise ArgumentError(
            f"unknown instance format {instance_format!r} (choose from {', '.join(FORMATS)})"
        )


def _title(grid: Grid) -> str:
    size, (rows, columns) = grid.size, grid.box
    return f"sudoku-cp {size}x{size} puzzle, boxes {rows}x{columns}: {grid.to_line()}"


def exactly_one_groups(grid: Grid) -> Iterator[tuple[str, list[int]]]:
    """The Boolean model's equalities 'exactly one of these variables is 1', named: one per
    cell, one per unit and value, then one per given (a group of one)."""
    size = grid.size
    for cell in range(size * size):
        yield f"cell{cell}", [cell * size + value for value in range(1, size + 1)]
    kinds = ("row", "column", "box")
    for number, unit in enumerate(geometry(size, grid.box).units):
        kind, index = kinds[number // size], number % size
        for value in range(1, size + 1):
            yield f"{kind}{index}_{value}", [cell * size + value for cell in unit]
    for cell, value in sorted(grid.givens().items()):
        yield f"given{cell}", [cell * size + value]


def _opb(grid: Grid) -> Iterator[str]:
    size = grid.size
    givens = grid.givens()
    groups = [group for group in exactly_one_groups(grid) if not group[0].startswith("given")]
    yield f"* #variable= {size**3} #constraint= {len(groups)}\n"
    yield f"* {_title(grid)}\n"
    yield f"* x(k) = 1: cell (k - 1) div {size} holds value (k - 1) mod {size} + 1\n"
    yield f"* a given g: {size} x(g) + the other x of its cell = {size}, so x(g) = 1\n"
    for cell, (_, variables) in enumerate(groups):
        given = givens.get(cell) if cell < size * size else None
        if given is None:
            yield " ".join(f"+1 x{variable}" for variable in variables) + " = 1 ;\n"
        else:
            fixed = cell * size + given
            terms = [f"+{size if variable == fixed else 1} x{variable}" for variable in variables]
            yield " ".join(terms) + f" = {size} ;\n"


def _lp(grid: Grid) -> Iterator[str]:
    size = grid.size
    yield f"\\ {_title(grid)}\n"
    yield f"\\ x(k) = 1: cell (k - 1) div {size} holds value (k - 1) mod {size} + 1\n"
    yield "Minimize\n obj:\nSubject To\n"
    for name, variables in exactly_one_groups(grid):
        terms = [f"x{variable}" for variable in variables]
        lines = [
            " + ".join(terms[start : start + LP_TERMS_PER_LINE])
            for start in range(0, len(terms), LP_TERMS_PER_LINE)
        ]
        yield f" {name}: " + "\n   + ".join(lines) + " = 1\n"
    yield "Binary\n"
    names = [f"x{variable}" for variable in range(1, size**3 + 1)]
    for start in range(0, len(names), LP_TERMS_PER_LINE):
        yield " " + " ".join(names[start : start + LP_TERMS_PER_LINE]) + "\n"
    yield "End\n"


def _xcsp3(grid: Grid) -> Iterator[str]:
    size, (box_rows, box_columns) = grid.size, grid.box
    yield '<instance format="XCSP3" type="CSP">\n'
    yield f"  <!-- {_title(grid)} -->\n"
    yield "  <variables>\n"
    yield f'    <array id="x" note="x[row][column]" size="[{size}][{size}]"> 1..{size} </array>\n'
    yield "  </variables>\n  <constraints>\n"
    for row in range(size):
        yield f"    <allDifferent> x[{row}][] </allDifferent>\n"
    for column in range(size):
        yield f"    <allDifferent> x[][{column}] </allDifferent>\n"
    for top in range(0, size, box_rows):
        for left in range(0, size, box_columns):
            bottom, right = top + box_rows - 1, left + box_columns - 1
            yield f"    <allDifferent> x[{top}..{bottom}][{left}..{right}] </allDifferent>\n"
    givens = sorted(grid.givens().items())
    if givens:  # an instantiation of nothing is not XCSP3
        cells = " ".join(f"x[{cell // size}][{cell % size}]" for cell, _ in givens)
        values = " ".join(str(value) for _, value in givens)
        yield "    <instantiation>\n"
        yield f"      <list> {cells} </list>\n"
        yield f"      <values> {values} </values>\n"
        yield "    </instantiation>\n"
    yield "  </constraints>\n</instance>\n"


WRITERS = {"opb": _opb, "lp": _lp, "xcsp3": _xcsp3}

__all__ = ["FORMATS", "exactly_one_groups", "format_of_suffix", "write_instance"]
