"""Writing generated puzzles: the header and fact comments of the line format, the JSON Lines
record, and the canonical command that remakes a request."""

from __future__ import annotations

from typing import Any

from ..box_directives import box_directive
from ..grid import geometry
from .request import SLOW_FROM_SIZE, GeneratedPuzzle, Kind, Request

# -- writing --------------------------------------------------------------------------------------

KIND_DESCRIPTIONS = {
    Kind.UNIQUE: "exactly one completion; givens removed at random while it stays unique",
    Kind.MULTI: "two or more completions; the cells of a swap cycle are left blank",
    Kind.UNSAT: "no completion and no two equal givens in a unit; a unique puzzle with one given "
    "changed",
    Kind.ADVERSARIAL: "one completion, first row N..1: costly for the naive row-major DFS",
}


def command_line(request: Request) -> str:
    """The canonical `sudoku-cp generate` command that reproduces a request."""
    parts = ["sudoku-cp generate", f"--kind {request.kind}", f"--size {request.size}"]
    if request.box != geometry(request.size).box_shape:
        parts.append(f"--box {request.box[0]}x{request.box[1]}")
    parts += [f"--count {request.count}", f"--givens {request.givens}", f"--seed {request.seed}"]
    return " ".join(parts)


def header_lines(request: Request, *, version: str) -> list[str]:
    """The comment lines that open a generated file in the line format."""
    limits = {
        Kind.MULTI: f" (counted up to {request.solution_limit})",
        Kind.ADVERSARIAL: f" (nodes counted up to {request.node_limit}, best of "
        f"{request.variants} variants)",
    }
    lines = [
        f"# {command_line(request)}",
        f"# sudoku-cp {version}: the same command and version give the same puzzles",
        f"# {request.kind}: {KIND_DESCRIPTIONS[request.kind]}{limits.get(request.kind, '')}",
        "# each puzzle line (N*N symbols, 0 blank) follows a comment with its facts",
    ]
    if request.box != geometry(request.size).box_shape:
        lines.append(box_directive(request.box))  # read back with this shape, not the default
    return lines


def fact_comment(generated: GeneratedPuzzle) -> str:
    """'# 3: givens=24 completions=1' (with '1000+' for a capped count, '>=' for capped nodes)."""
    completions = (
        f"{generated.completions}+" if generated.completions_capped else str(generated.completions)
    )
    text = f"# {generated.index + 1}: givens={generated.givens} completions={completions}"
    if generated.naive_nodes is not None:
        relation = "=" if generated.naive_finished else ">="
        text += f" naive_nodes{relation}{generated.naive_nodes}"
    return text


def summary_line(puzzles: list[GeneratedPuzzle], request: Request) -> str:
    """The closing comment: how many puzzles, their givens, and how many missed the range."""
    givens = [generated.givens for generated in puzzles]
    noun = "puzzle" if len(puzzles) == 1 else "puzzles"
    text = (
        f"# {len(puzzles)} {noun}, givens {min(givens)}..{max(givens)} "
        f"(mean {sum(givens) / len(givens):.1f})"
    )
    outside = sum(1 for count in givens if count not in request.givens)
    if outside:
        text += f", {outside} outside {request.givens} ({why_outside(request.kind)})"
    return text


def why_outside(kind: Kind) -> str:
    """Why a puzzle of this kind ends outside its givens range: a multi puzzle's swap cycle
    blanked more cells than the range leaves; the other kinds stopped at a minimal puzzle
    above it."""
    if kind is Kind.MULTI:
        return "the cells of a swap cycle stay blank"
    return "stopped at a minimal puzzle"


def slow_note(request: Request) -> str | None:
    """What a run on a big grid should know before it waits: None where puzzles come quickly."""
    if request.size < SLOW_FROM_SIZE or request.kind is Kind.MULTI:
        return None
    return (
        f"Note: a {request.kind} {request.size}x{request.size} puzzle takes many minutes to make "
        f"(its uniqueness questions on a SAT solver), and on the largest grids gigabytes of "
        f"memory: see 'Big grids' in the generate docs."
    )


def interrupted_line(made: int, request: Request, why: str) -> str:
    """The closing comment of a run stopped by a signal: the puzzles made are the first ones
    of the request, and the command that makes just those."""
    if not made:
        return f"# {why} before the first puzzle of {request.count}"
    noun = "puzzle" if made == 1 else "puzzles"
    return (
        f"# {why} after {made} of {request.count} puzzles: these {made} {noun} are those of "
        f"--count {made}"
    )


def json_record(generated: GeneratedPuzzle, request: Request, *, version: str) -> dict[str, Any]:
    """The JSON Lines object of one generated puzzle."""
    return {
        "index": generated.index,
        "kind": str(generated.kind),
        "size": request.size,
        "box": f"{request.box[0]}x{request.box[1]}",
        "seed": request.seed,
        "puzzle": generated.puzzle.to_line(),
        "solution": generated.solution.to_line() if generated.solution else None,
        **generated.facts(),
        "version": version,
        "command": command_line(request),
    }
