"""`sudoku-cp backends` (what is installed, and the options) and `sudoku-cp encode` (one
puzzle's CNF in DIMACS)."""

from __future__ import annotations

import sys
import textwrap

import click

from ..text import plural
from .objects import puzzle_stream, report_input_errors
from .options import LazyChoice, input_options, option
from .output import echo, fail, output_file, run_command
from .signals import EXIT_USAGE


def _encodings() -> list[str]:
    from ..backends.sat import ENCODINGS

    return list(ENCODINGS)


def _amo_encodings() -> list[str]:
    from ..backends.sat import AMO_ENCODINGS

    return list(AMO_ENCODINGS)


@click.command(
    name="backends", epilog="Example:\n\n\b\n  sudoku-cp backends\n  sudoku-cp backends sat"
)
@click.argument("names", nargs=-1, metavar="[BACKEND]...")
@run_command
def list_backends(names: tuple[str, ...]) -> None:
    """List the backends, whether each is available, what it is, and its options; a plugin
    that fails to load is listed as broken, with the reason."""
    from ..backends import (
        KNOWN_PLUGINS,
        backend_class,
        backend_names,
        backend_problems,
        install_hint,
    )
    from ..errors import BackendUnavailableError

    problems = backend_problems()
    shown = names or tuple(backend_names())
    ignored = [] if names else [name for name in problems if name not in backend_names()]
    absent = [] if names else [name for name in KNOWN_PLUGINS if name not in backend_names()]
    width = max(6, *(len(name) for name in (*shown, *ignored, *absent)))  # long plugin names
    for name in shown:
        try:
            cls = backend_class(name)
        except BackendUnavailableError:  # a plugin that fails to load
            echo(f"{name:<{width}} {'broken':<10} {problems.get(name, '')}")
            continue
        state = "available" if cls.is_available() else "missing " + ",".join(cls.requires)
        echo(f"{name:<{width}} {state:<10} {cls.description}")
        if not cls.is_available():
            echo(f"{'':<{width}} install: {install_hint(cls)}")
        options = cls.option_names()
        if options:
            echo(f"{'':<{width}} options: {', '.join(options)}")
        if names:  # one backend asked for: each option in full, as the backend declares it
            for option in cls.options:
                for number, line in enumerate(textwrap.wrap(option.describe(), 80 - width - 3)):
                    echo(f"{'':<{width}} {'  ' if number else '- '}{line}")
            choices = [(option.name, option.choice_list()) for option in cls.options]
            for option_name, values in choices:
                if values and len(values) > 6:
                    echo(
                        textwrap.fill(
                            f"{option_name}: {', '.join(values)}",
                            80,
                            initial_indent=" " * (width + 1),
                            subsequent_indent=" " * (width + 3),
                        )
                    )
        if name in problems:  # a plugin that took this backend's name, ignored
            echo(f"{'':<{width}} {problems[name]}")
    for name in absent:  # a plugin of this repository that is not installed
        echo(f"{name:<{width}} {'missing':<10} plugin not installed: {KNOWN_PLUGINS[name]}")
    for name in ignored:
        echo(f"{name:<{width}} {'ignored':<10} {problems[name]}")


@click.command(
    epilog="""Examples:

\b
  sudoku-cp encode data/examples/baekjoon2239.txt -o puzzle.cnf
  sudoku-cp encode puzzles.txt --index 3 --encoding minimal --amo seqcounter"""
)
@input_options
@option(
    "--index",
    type=click.IntRange(min=0),
    default=0,
    help="Which puzzle of the input to encode (0-based).",
)
@option("--encoding", type=LazyChoice(_encodings), default="extended", help="CNF encoding.")
@option(
    "--amo",
    type=LazyChoice(_amo_encodings),
    default="pairwise",
    metavar="NAME",
    help="At-most-one encoding (see 'sudoku-cp backends sat').",
)
@option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, allow_dash=True),
    default="-",
    help="Where to write the DIMACS CNF.",
)
@run_command
def encode(
    files: tuple[str, ...],
    input_format: str | None,
    box: str | None,
    no_download: bool,
    index: int,
    encoding: str,
    amo: str,
    output: str,
) -> None:
    """Write one puzzle's CNF in DIMACS, to run any SAT solver on it."""
    from ..backends.sat import write_dimacs

    stream = puzzle_stream(files, input_format, box, no_download)
    record = next((record for record in stream if record.index == index), None)
    report_input_errors(stream, 0)
    if stream.errors:
        sys.exit(EXIT_USAGE)
    if record is None:
        fail(
            f"--index {index} is past the last puzzle (the input has "
            f"{plural(stream.read, 'puzzle')})"
        )
    if record.grid is None:
        fail(str(record.error))
    with output_file(output) as handle:
        write_dimacs(record.grid, handle, encoding=encoding, amo=amo)


__all__ = ["encode", "list_backends"]
