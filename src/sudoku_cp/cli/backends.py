"""`sudoku-cp backends` (what is installed, and the options) and `sudoku-cp encode` (one
puzzle as an instance file: DIMACS, OPB, LP, MiniZinc or XCSP3)."""

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
    from ..backends import KNOWN_PLUGINS, backend_names, backend_problems

    problems = backend_problems()
    shown = names or tuple(backend_names())
    ignored = [] if names else [name for name in problems if name not in backend_names()]
    absent = [] if names else [name for name in KNOWN_PLUGINS if name not in backend_names()]
    width = max(6, *(len(name) for name in (*shown, *ignored, *absent)))  # long plugin names
    for name in shown:
        _describe(name, width, problems, in_full=bool(names))
    for name in absent:  # a plugin of this repository that is not installed
        _row(name, "missing", f"plugin not installed: {KNOWN_PLUGINS[name]}", width)
    for name in ignored:
        _row(name, "ignored", problems[name], width)


def _row(name: str, state: str, text: str, width: int) -> None:
    """A backend's first line (its name, its state, the text after them) or, with an empty
    name and state, a line under it; wrapped to the terminal's 80 columns under the text."""
    from ..render.text import WIDTH

    lead = f"{name:<{width}} {state:<10} " if name or state else " " * (width + 1)
    echo(
        textwrap.fill(
            text,
            WIDTH,
            initial_indent=lead,
            subsequent_indent=" " * (width + (12 if state else 3)),
            break_long_words=False,
            break_on_hyphens=False,
        )
    )


def _describe(name: str, width: int, problems: dict[str, str], *, in_full: bool) -> None:
    """One backend: its state and description, its install line when missing, its options (in
    full when `in_full`: each as the backend declares it, and the long lists of choices)."""
    from ..backends import backend_class, install_hint
    from ..errors import BackendUnavailableError

    try:
        cls = backend_class(name)
    except BackendUnavailableError:  # a plugin that fails to load
        _row(name, "broken", problems.get(name, ""), width)
        return
    state = "available" if cls.is_available() else "missing " + ",".join(cls.requires)
    _row(name, state, cls.description, width)
    if not cls.is_available():
        _row("", "", f"install: {install_hint(cls)}", width)
    options = cls.option_names()
    if options:
        _row("", "", f"options: {', '.join(options)}", width)
    if in_full:
        if cls.lexmin_reason:
            _row("", "", f"lex-min: {cls.lexmin_reason}", width)
        for option in cls.options:
            _row("", "", f"- {option.describe()}", width)
        for option in cls.options:
            values = option.choice_list()
            if values and len(values) > 6:
                _row("", "", f"{option.name}: {', '.join(values)}", width)
    if name in problems:  # a plugin that took this backend's name, ignored
        _row("", "", problems[name], width)


def _instance_formats() -> list[str]:
    from ..instances import FORMATS

    return list(FORMATS)


@click.command(
    epilog="""Examples:

\b
  sudoku-cp encode data/examples/baekjoon2239.txt -o puzzle.cnf
  sudoku-cp encode puzzles.txt --index 3 --encoding minimal --amo seqcounter
  sudoku-cp encode data/examples/baekjoon2239.txt -o puzzle.lp
  sudoku-cp encode data/examples/baekjoon2239.txt --format xcsp3 -o puzzle.xml"""
)
@input_options
@option(
    "--index",
    type=click.IntRange(min=0),
    default=0,
    help="Which puzzle of the input to encode (0-based).",
)
@option(
    "--format",
    "instance_format",
    type=LazyChoice(_instance_formats),
    default=None,
    help="dimacs: CNF; opb: pseudo-Boolean; lp: 0-1 integer program (CPLEX LP); mzn: the "
    "MiniZinc model; dzn: the puzzle as MiniZinc data; xcsp3: XCSP3 XML.  "
    "[default: from the -o suffix (.cnf .opb .lp .mzn .dzn .xml), else dimacs]",
)
@option(
    "--encoding",
    type=LazyChoice(_encodings),
    default="extended",
    help="dimacs: CNF encoding.",
)
@option(
    "--amo",
    type=LazyChoice(_amo_encodings),
    default="pairwise",
    metavar="NAME",
    help="dimacs: at-most-one encoding (see 'sudoku-cp backends sat').",
)
@option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, allow_dash=True),
    default="-",
    help="Where to write the instance.",
)
@run_command
def encode(
    files: tuple[str, ...],
    input_format: str | None,
    box: str | None,
    no_download: bool,
    index: int,
    instance_format: str | None,
    encoding: str,
    amo: str,
    output: str,
) -> None:
    """Write one puzzle as an instance file for a solver sudoku-cp does not wrap: CNF for a SAT
    solver, OPB for a pseudo-Boolean one, LP for a MIP solver, MiniZinc, or XCSP3."""
    from ..instances import format_of_suffix, write_instance

    instance_format = instance_format or format_of_suffix(output) or "dimacs"
    if instance_format != "dimacs":
        context = click.get_current_context()
        given = [
            "--" + name
            for name in ("encoding", "amo")
            if context.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT
        ]
        if given:
            verb = "apply" if len(given) > 1 else "applies"
            fail(f"{' and '.join(given)} {verb} to --format dimacs only, not {instance_format}")
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
        write_instance(record.grid, handle, instance_format, encoding=encoding, amo=amo)


__all__ = ["encode", "list_backends"]
