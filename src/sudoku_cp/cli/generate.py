"""`sudoku-cp generate`: puzzles made from a seed (unique, multi, unsat, adversarial)."""

from __future__ import annotations

import contextlib
import os
from typing import Any, NoReturn, TextIO

import click

from .._version import __version__
from ..formats import to_json_line
from ..inputs import box_shape
from ..progress import Progress
from ..text import plural
from .options import LazyChoice, option
from .output import output_file, run_command
from .signals import check_stop, quiet_echo, signal_word, signals_held, stop_with


def _kinds() -> list[str]:
    from ..generate import Kind

    return [str(kind) for kind in Kind]


@click.command(
    name="generate",
    epilog="""Examples:

\b
  sudoku-cp generate --size 9 --count 10 --kind unique -o unique9.txt
  sudoku-cp generate --size 6 --box 2x3 --kind multi --seed 7""",
)
@option("--size", type=click.IntRange(min=4), default=9, help="Grid size N: 4, 6, 9, 16, 25, ...")
@option(
    "--box",
    metavar="RxC",
    default=None,
    show_default="square, else squarest",
    help="Box shape, e.g. 2x3 for 6x6.",
)
@option("--count", type=click.IntRange(min=1), default=1, help="How many puzzles.")
@option(
    "--givens",
    metavar="A..B",
    default=None,
    show_default="by size",
    help="Givens per puzzle, a target drawn from A..B (e.g. 22..32 for 9x9); "
    "unique, unsat and adversarial may stop above it at a minimal puzzle.",
)
@option(
    "--kind",
    type=LazyChoice(_kinds),
    default="unique",
    help="unique: one completion; multi: two or more; unsat: none, with no repeated "
    "given; adversarial: one, and costly for the naive row-major DFS.",
)
@option(
    "--seed",
    type=click.IntRange(min=0),
    default=0,
    help="Random seed, 0 or more: the same seed and version give the same puzzles.",
)
@option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, allow_dash=True),
    default="-",
    help="Where to write the puzzles.",
)
@option(
    "--format",
    "output_format",
    type=click.Choice(["line", "jsonl"]),
    default="line",
    help="line: one puzzle per line after '#' comments with the command and each "
    "puzzle's facts; jsonl: one object each.",
)
@run_command
def generate_command(
    size: int,
    box: str | None,
    count: int,
    givens: str | None,
    kind: str,
    seed: int,
    output: str,
    output_format: str,
) -> None:
    """Make puzzles from a seed: unique, multi, unsat or adversarial.

    The same command and version give the same puzzles on any machine.
    """
    from .. import generate as generation

    request = generation.make_request(
        kind, size=size, box=box_shape(box), givens=givens, seed=seed, count=count
    )
    slow = generation.slow_note(request)
    if slow is not None:
        quiet_echo(slow)
    progress = Progress(count if count > 1 else None, label="generate ")
    made: list[Any] = []

    def progressed(effort: Any) -> None:  # keeps the display alive within a slow puzzle
        progress.advance(0, note=effort.note())

    with output_file(output) as handle:
        if output_format == "line":
            handle.write("\n".join(generation.header_lines(request, version=__version__)) + "\n")
        try:
            for generated in generation.generate(request, on_progress=progressed):
                with signals_held():  # the file and the count agree on what was written
                    _write(handle, generated, request, output_format)
                    made.append(generated)
                progress.advance(note=f"givens {generated.givens}")
                check_stop()
        except KeyboardInterrupt:
            progress.close()
            _stopped(handle, output, made, request, output_format)
        finally:
            progress.close()
        if output_format == "line":
            handle.write(generation.summary_line(made, request) + "\n")
    outside = sum(1 for generated in made if generated.givens not in request.givens)
    if outside:
        quiet_echo(
            f"Note: {outside} of {plural(count, 'puzzle')} ended outside --givens "
            f"{request.givens}: {generation.why_outside(request.kind)}."
        )


def _write(handle: TextIO, generated: Any, request: Any, output_format: str) -> None:
    """One puzzle, flushed at once: a run stopped later keeps it."""
    from .. import generate as generation

    if output_format == "line":
        handle.write(f"{generation.fact_comment(generated)}\n{generated.puzzle.to_line()}\n")
    else:
        record = generation.json_record(generated, request, version=__version__)
        handle.write(to_json_line(record) + "\n")
    handle.flush()


def _stopped(
    handle: TextIO, output: str, made: list[Any], request: Any, output_format: str
) -> NoReturn:
    """After Ctrl-C or SIGTERM: no file when no puzzle was made; else the puzzles made, which
    are the first ones of the request, and in the line format a closing comment that says the
    run was stopped. Then the one line, and exit 130 or 143."""
    from .. import generate as generation

    where = "standard output" if output == "-" else output
    if not made and output != "-" and os.path.isfile(output):
        with contextlib.suppress(OSError):
            handle.close()
            os.remove(output)  # only the header was written: no file claims puzzles it lacks
        stop_with(f"{signal_word()} before the first puzzle: {output} not written.")
    if output_format == "line":
        with contextlib.suppress(OSError):
            if made:
                handle.write(generation.summary_line(made, request) + "\n")
            handle.write(generation.interrupted_line(len(made), request, signal_word()) + "\n")
            handle.flush()
    stop_with(
        f"{signal_word()} after {len(made)} of {plural(request.count, 'puzzle')} (in {where})."
    )


__all__ = ["generate_command"]
