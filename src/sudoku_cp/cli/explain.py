"""`sudoku-cp explain`: how a person would solve each puzzle, step by step, with its rating; every
step checked on request (`--check`), and a minimal core of givens for a puzzle with no
completion (`--why-unsat`). Exit 0, 1 when a step fails its check, 2 for bad input."""

from __future__ import annotations

from typing import Any

import click

from .objects import puzzle_stream, report_input_errors
from .options import input_options, option
from .output import echo, fail, run_command
from .signals import check_stop, quiet_echo

EXIT_WRONG = 1
EXIT_USAGE = 2

EPILOG = """\b
Examples:
  sudoku-cp explain puzzle.txt
  sudoku-cp explain top1465 --format jsonl --check > explained.jsonl
  sudoku-cp explain hard.txt --complete --step 0
  sudoku-cp explain puzzle.txt --techniques singles,pointing,claiming
  sudoku-cp explain broken.txt --why-unsat

\b
Techniques, easiest first (level): hidden single, naked single (1); pointing,
claiming (2); naked/hidden pair (3), triple (4), quad (5); x-wing (6),
swordfish (7), jellyfish (8); xy-wing (9), xyz-wing (10); contradiction (11).
Groups: singles, locked candidates, pairs, triples, quads, fish, wings."""


@click.command(name="explain", epilog=EPILOG)
@input_options
@option(
    "--techniques",
    metavar="LIST",
    default=None,
    show_default="all",
    help="The techniques a step may use: names or groups, comma-separated.",
)
@option(
    "--complete",
    is_flag=True,
    default=False,
    help="When stuck, go on by the smallest proof by contradiction found.",
)
@option(
    "--step",
    type=click.IntRange(min=0),
    default=None,
    show_default="the last",
    help="Draw the grid with pencil marks after this many steps (0: the start).",
)
@option("--check", is_flag=True, default=False, help="Check every step against the completions.")
@option(
    "--why-unsat",
    is_flag=True,
    default=False,
    help="For a puzzle with no completion: a minimal set of givens with none.",
)
@option(
    "--certify",
    is_flag=True,
    default=False,
    help="With --why-unsat: certify each core (a checked DRAT proof, a verified completion "
    "without each given).",
)
@option(
    "--format",
    "output_format",
    type=click.Choice(["text", "jsonl"]),
    default="text",
    help="text: steps and a grid; jsonl: one record per puzzle (docs/commands/explain.md).",
)
@run_command
def explain(
    files: tuple[str, ...],
    input_format: str | None,
    box: str | None,
    no_download: bool,
    techniques: str | None,
    complete: bool,
    step: int | None,
    check: bool,
    why_unsat: bool,
    certify: bool,
    output_format: str,
) -> None:
    """Explain the puzzles of FILES or puzzle SETs (standard input when none, or '-').

    Each step applies the easiest technique that makes progress, and names the
    cells and values it reasons from and what it places or eliminates. The
    rating is the level of the hardest technique needed; when the techniques
    get stuck, the top level (proof by contradiction).
    """
    from ..explain import TECHNIQUES, parse_techniques
    from ..explain.job import ExplainJob

    if certify and not why_unsat:
        fail("--certify certifies unsatisfiable cores: it needs --why-unsat")
    chosen = parse_techniques(techniques) if techniques is not None else tuple(TECHNIQUES)
    stream = puzzle_stream(files, input_format, box, no_download)
    job = ExplainJob(chosen, complete=complete, check=check, why_unsat=why_unsat, certify=certify)
    shown = 0
    wrong = bad = 0
    with job:
        for record in stream:
            shown = report_input_errors(stream, shown)
            if record.grid is None:
                quiet_echo(f"Error: {record.error}")
                bad += 1
                continue
            conflicts = record.grid.conflicts()
            if conflicts:
                quiet_echo(f"Error: {record.where}: not a valid puzzle: {conflicts[0].describe()}")
                bad += 1
                continue
            outcome = job.run(record.grid)
            wrong += _print(record, outcome, output_format, step)
            check_stop()
    shown = report_input_errors(stream, shown)
    if bad or shown:
        raise SystemExit(EXIT_USAGE)
    if wrong:
        raise SystemExit(EXIT_WRONG)


def _print(record: Any, outcome: Any, output_format: str, step: int | None) -> int:
    """Print one puzzle's explanation; 1 when a step failed its check, else 0."""
    from ..formats import to_json_line
    from ..render import explain as render
    from ..render.text import wrapped

    failed = outcome.check is not None and not outcome.check.sound
    failed = failed or outcome.certified is False
    if output_format == "jsonl":
        echo(to_json_line({"source": record.where, **outcome.to_dict()}))
        return int(failed)
    grid, explanation = outcome.grid, outcome.explanation
    if step is not None and step > len(explanation.steps):
        fail(f"--step {step}: {record.where} has {len(explanation.steps)} steps")
    echo(wrapped(f"{record.where}: {render.headline(explanation)}"))
    for line in render.step_lines(explanation.steps, grid.size):
        echo(line)
    shown = len(explanation.steps) if step is None else step
    echo(f"after step {shown}:" if shown else "the start:")
    echo(render.pencil_marks(render.board_after(grid, explanation.steps[:shown])))
    if outcome.check is not None:
        for failure in outcome.check.failures:
            echo(f"{record.where}: wrong: {failure}")
        if not failed:
            completions = outcome.check.completions
            echo(f"check: {outcome.check.steps} steps sound ({completions} completion)")
    if outcome.core is not None:
        echo(render.core_picture(outcome.core.grid(grid), len(grid.givens())))
        echo(f"minimal: {'checked' if outcome.core.minimal else 'NOT minimal'}")
        if outcome.certified is not None:
            refused = outcome.core_refused
            echo("certified" if refused is None else f"{record.where}: not certified: {refused}")
            failed = failed or refused is not None
    return int(failed)
