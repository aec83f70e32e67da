"""`sudoku-cp solve`: solve the puzzles of files, sets or standard input, printing each answer as
soon as it is ready, in input order."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, NoReturn

import click

from .objects import (
    configurations,
    make_executor,
    puzzle_stream,
    report_input_errors,
    solve_settings,
)
from .options import executor_options, input_options, option, solve_options
from .output import echo, fail, run_command, stdout_closed
from .signals import (
    EXIT_OK,
    EXIT_UNSOLVED,
    EXIT_USAGE,
    check_stop,
    quiet_echo,
    signal_word,
    stop_with,
)

if TYPE_CHECKING:
    from ..grid import Grid
    from ..judging import Answer, SkippedLine

OUTPUT_FORMATS = ("grid", "spaced", "line", "jsonl")


def _backend_help() -> str:
    from ..backends import backend_names

    return (
        f"Backend or configuration: {', '.join(backend_names())}, or e.g. 'sat[solver=cadical195]'."
    )


@click.command(
    epilog="""Examples:

\b
  sudoku-cp solve data/examples/baekjoon2239.txt
  sudoku-cp solve -b sat --mode count --count-limit 10 puzzles.txt
  sudoku-cp solve top95 -b 'cpsat[lexmin=objective]' --format jsonl -j 2"""
)
@input_options
@option("--backend", "-b", default="dfs", lazy_help=_backend_help)
@solve_options
@option(
    "--format",
    "output_format",
    type=click.Choice(OUTPUT_FORMATS),
    default=None,
    show_default="the input's layout",
    help="Output layout.",
)
@option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    default=1,
    help="Worker processes; answers stay in input order.",
)
@executor_options
@run_command
def solve(
    files: tuple[str, ...],
    input_format: str | None,
    box: str | None,
    no_download: bool,
    backend: str,
    mode: str,
    limit: int,
    time_limit: float | None,
    certify: bool,
    keep_proofs: str | None,
    output_format: str | None,
    jobs: int,
    executor: str,
    scheduler: str | None,
    **given: Any,
) -> None:
    """Solve the puzzles of FILES or puzzle SETs (standard input when none, or '-').

    \b
    Input layouts, detected: 'grid' (N rows of N symbols), 'spaced' (N rows of N
    numbers), 'line' (one puzzle of N*N symbols per line, 0 or . blank, A=10 ..).
    Each answer is verified before it is printed; one that fails is 'wrong'.
    """
    from ..engine import execute
    from ..judging import SkippedLine
    from ..progress import Progress
    from ..text import plural

    chosen = configurations([backend], given)
    if len(chosen) != 1:
        fail(f"--backend names {len(chosen)} configurations; solve runs one (use crosscheck)")
    stream = puzzle_stream(files, input_format, box, no_download)
    settings = solve_settings(mode, limit, time_limit, certify, keep_proofs)
    printer = _Printer(chosen[0].label, settings.mode, output_format, stream)
    progress = Progress(None, label="solve ")
    outcomes = execute(stream, chosen, settings, executor=make_executor(executor, jobs, scheduler))
    try:
        for item in outcomes:
            printer.shown = report_input_errors(stream, printer.shown)
            printer.print(item if isinstance(item, SkippedLine) else item.answers[0])
            progress.advance()
            check_stop()
    except KeyboardInterrupt:
        outcomes.close()
        progress.close()
        stop_with(f"{signal_word()} after {plural(printer.written, 'puzzle')}.")
    except BrokenPipeError:
        outcomes.close()
        progress.close()
        stdout_closed()
    finally:
        outcomes.close()
    progress.close()
    _finish(stream, printer, certified=settings.certifier is not None)


def _finish(stream: Any, printer: _Printer, *, certified: bool) -> NoReturn:
    """After the last answer: the input errors not yet shown, --certify's tally, the exit."""
    report_input_errors(stream, printer.shown)
    if certified:
        from ..render.text import certified_line

        quiet_echo(certified_line(printer.certified, printer.claims))
    if stream.errors:
        sys.exit(EXIT_USAGE)
    sys.exit(EXIT_USAGE if stream.bad and printer.code == EXIT_OK else printer.code)


class _Printer:
    """Prints each answer in the output layout (never a wrong one as solved), reports what is
    not solved on stderr, and keeps the exit code."""

    def __init__(self, label: str, mode: Any, output_format: str | None, stream: Any) -> None:
        self.label = label
        self.mode = mode
        self.output_format = output_format
        self.stream = stream
        self.written = 0
        self.shown = 0
        self.claims = 0  # --certify: answers that claim something
        self.certified = 0  # of which certified
        self.code = EXIT_OK
        self.declared: Any = None  # the box shape the output last declared ('# box: RxC')

    def print(self, item: Answer | SkippedLine) -> None:
        from ..judging import SkippedLine
        from ..render.answers import INVALID, answer_json, format_answer, skipped_json

        layout = self.output_format or str(self.stream.layouts.get(item.input.source, "line"))
        if isinstance(item, SkippedLine):
            quiet_echo(item.reason)
            self.code = max(self.code, EXIT_USAGE)
            text = (
                _json(skipped_json(item, backend=self.label, mode=self.mode))
                if layout == "jsonl"
                else INVALID
            )
        else:
            self._report(item)
            if item.certification is not None:
                self.claims += 1
                self.certified += item.certification.certified
            text = (
                _json(answer_json(item, mode=self.mode))
                if layout == "jsonl"
                else format_answer(item, layout)
            )
        if self.written and layout not in ("line", "jsonl"):
            echo()
        shows_grid = layout != "jsonl" and str(self.mode) != "count"
        if shows_grid and not isinstance(item, SkippedLine) and item.solution is not None:
            self._declare_box(item.solution)  # say the shape of the grid printed
        echo(text)
        self.written += 1

    def _report(self, answer: Answer) -> None:
        """An answer that is not a solution, on stderr (and in the exit code)."""
        from ..result import RunStatus

        if answer.status is not RunStatus.SOLVED:
            reason = f": {answer.reason}" if answer.reason else ""
            who = f"{self.label} " if answer.status in (RunStatus.WRONG, RunStatus.ERROR) else ""
            quiet_echo(f"{answer.input.where}: {who}{answer.status}{reason}")
            self.code = max(self.code, EXIT_UNSOLVED)

    def _declare_box(self, grid: Grid) -> None:
        """Before the first answer with a box shape other than its size's default (and at each
        change), the '# box: RxC' line that makes the output read back with that shape."""
        from ..box_directives import box_directive
        from ..grid import default_box

        shape = grid.box if grid.box != default_box(grid.size) else None
        if shape != self.declared and (shape is not None or self.declared is not None):
            echo(box_directive(shape or default_box(grid.size)))
            self.declared = shape


def _json(data: dict[str, Any]) -> str:
    from ..formats import to_json_line

    return to_json_line(data)


__all__ = ["solve"]
