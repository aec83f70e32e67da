"""The `sudoku-cp` command line: parse options, call the library, render, echo.

Exit codes: 0 every puzzle solved (or counted); 1 some puzzle has no solution, timed out, or a
backend answered wrongly, disagreed or failed; 2 bad usage, unreadable input or a file that
cannot be written; 130 interrupted by Ctrl-C, 143 stopped by SIGTERM (results kept either way).
"""

from __future__ import annotations

import contextlib
import functools
import logging
import math
import shlex
import signal
import textwrap
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any, NoReturn, TextIO

import click

from . import __version__
from .backends import backend_class, backend_names
from .engine import (BackendSpec, Executor, PuzzleResult, SolveSettings, default_jobs, execute,
                     make_executor)
from .errors import SudokuError
from .formats import (OUTPUT_FORMATS, Layout, PuzzleRecord, PuzzleStream, format_answer,
                      result_record, to_json_line)
from .grid import Shape, parse_box
from .progress import Progress
from .result import Mode

EXIT_OK, EXIT_UNSOLVED, EXIT_USAGE, EXIT_INTERRUPTED, EXIT_TERMINATED = 0, 1, 2, 130, 143
CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 80, "show_default": True}


class UsageFailure(click.ClickException):
    """A one-line error for bad usage or input: 'Error: ...' on stderr, exit 2."""

    exit_code = EXIT_USAGE


class Terminated(KeyboardInterrupt):
    """SIGTERM, handled like Ctrl-C: results kept, a summary, exit 143."""


def fail(message: str) -> NoReturn:
    raise UsageFailure(message)


def _on_sigterm(signum: int, frame: Any) -> None:
    raise Terminated()


def _interrupt_code(error: BaseException) -> int:
    return EXIT_TERMINATED if isinstance(error, Terminated) else EXIT_INTERRUPTED


def _hold_signals() -> None:
    """After the first Ctrl-C or SIGTERM, more of them must not break the clean-up into a
    traceback: the run is already stopping."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


def handle_errors(command: Callable[..., Any]) -> Callable[..., Any]:
    """Library errors and unwritable files become one line and exit 2; Ctrl-C exit 130;
    SIGTERM exit 143."""
    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        previous_int = signal.getsignal(signal.SIGINT)
        previous_term = signal.signal(signal.SIGTERM, _on_sigterm)
        try:
            return command(*args, **kwargs)
        except SudokuError as error:
            raise UsageFailure(str(error)) from None
        except KeyboardInterrupt as error:
            _hold_signals()
            _quiet_echo("Interrupted." if not isinstance(error, Terminated) else "Terminated.")
            sys.exit(_interrupt_code(error))
        finally:
            # A caller in the same process (a test) gets its handlers back, unless the command
            # was interrupted: then the process is exiting, and a second Ctrl-C must not kill it
            # halfway through its clean-up.
            if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
                signal.signal(signal.SIGINT, previous_int)
                signal.signal(signal.SIGTERM, previous_term)
    return wrapper


def _quiet_echo(message: str) -> None:
    with contextlib.suppress(OSError, ValueError):
        click.echo(message, err=True)


# -- shared options ------------------------------------------------------------------------------

class Option(click.Option):
    """An option whose described default ('the machine's cores') is shown like a value:
    '[default: the machine's cores]', the one way every default is shown.

    `lazy_help` builds the help text when help is shown: a text that lists the backends would
    otherwise read every installed package's entry points (the plugins) on every start.
    """

    def __init__(self, *args: Any, lazy_help: Callable[[], str] | None = None,
                 **attributes: Any) -> None:
        super().__init__(*args, **attributes)
        self._lazy_help = lazy_help

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        if self._lazy_help is not None:
            self.help, self._lazy_help = self._lazy_help(), None
        return super().get_help_record(ctx)

    def get_help_extra(self, ctx: click.Context) -> Any:
        extra = super().get_help_extra(ctx)
        if isinstance(self.show_default, str) and "default" in extra:
            extra["default"] = self.show_default
        return extra


def option(*names: str, **attributes: Any) -> Callable[..., Any]:
    return click.option(*names, cls=Option, **attributes)


class LazyChoice(click.Choice):  # type: ignore[type-arg,unused-ignore]
    """A Choice whose values come from the library, loaded only when needed (parsing, help),
    so that defining the commands imports no backend, plot or generator module."""

    def __init__(self, load: Callable[[], Iterable[str]]) -> None:
        self._load = load
        self._loaded: tuple[str, ...] | None = None
        super().__init__([])

    @property  # type: ignore[override,unused-ignore]
    def choices(self) -> tuple[str, ...]:
        if self._loaded is None:
            self._loaded = tuple(self._load())
        return self._loaded

    @choices.setter
    def choices(self, value: Any) -> None:
        pass  # set by click.Choice.__init__; the loader is the source


class Seconds(click.ParamType):  # type: ignore[type-arg,unused-ignore]
    """A time limit in seconds: positive; 'inf' (or more than 1e9) means none; NaN refused."""

    name = "SECONDS"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> float | None:
        if value is None or isinstance(value, float):
            number = value
        else:
            try:
                number = float(value)
            except ValueError:
                self.fail(f"{value!r} is not a number of seconds", param, ctx)
        if number is None:
            return None
        if math.isnan(number) or number <= 0:
            self.fail(f"{value!r} is not a positive number of seconds (use inf for no limit)",
                      param, ctx)
        return None if math.isinf(number) or number > 1e9 else number


def _options(*decorators: Callable[..., Any]) -> Callable[..., Any]:
    def apply(command: Callable[..., Any]) -> Callable[..., Any]:
        for decorator in reversed(decorators):
            command = decorator(command)
        return command
    return apply


input_options = _options(
    click.argument("files", nargs=-1, metavar="[FILE|SET]..."),
    option("--input-format", type=click.Choice([str(x) for x in Layout]),
                 default=None, show_default="detected", help="Input layout."),
    option("--box", metavar="RxC", default=None, show_default="square, else squarest",
                 help="Box shape, e.g. 2x3 for 6x6."),
    option("--no-download", is_flag=True, default=False, show_default=False,
                 help="Never fetch a puzzle set by name; use the cache or SUDOKU_CP_DATA."),
)


def _encodings() -> list[str]:
    from .backends.sat import ENCODINGS
    return list(ENCODINGS)


def _amo_encodings() -> list[str]:
    from .backends.sat import AMO_ENCODINGS
    return list(AMO_ENCODINGS)


def _cpsat_strategies() -> list[str]:
    from .backends.cpsat import STRATEGIES
    return list(STRATEGIES)


solve_options = _options(
    option("--mode", type=click.Choice([str(m) for m in Mode]), default="lexmin",
                 help="lexmin: smallest completion row by row; any: some completion; count: "
                      "completions up to --count-limit."),
    option("--count-limit", "--limit", "limit", type=click.IntRange(min=1), default=2,
                 help="Count mode: stop counting at this many completions."),
    option("--time-limit", type=Seconds(), default=None, show_default="none",
                 help="Seconds per puzzle (inf: none); past it the puzzle is a timeout."),
    option("--workers", type=click.IntRange(min=1), default=None, show_default="1",
                 help="cpsat: search workers (shorthand for cpsat[workers=N])."),
    option("--cpsat-strategy", type=LazyChoice(_cpsat_strategies), default=None,
                 show_default="auto", help="cpsat lexmin: the staged objective, the fixed "
                 "row-major search, or auto (objective below 26x26, search from there)."),
    option("--sat-solver", default=None, show_default="glucose3",
                 help="sat: python-sat solver name."),
    option("--encoding", type=LazyChoice(_encodings), default=None, show_default="extended",
                 help="sat: CNF encoding."),
    option("--amo", type=LazyChoice(_amo_encodings), default=None,
                 show_default="pairwise", metavar="NAME", help="sat: at-most-one encoding "
                 "(pairwise, seqcounter, ladder, ...: see 'sudoku-cp backends sat')."),
)

executor_options = _options(
    option("--executor", type=click.Choice(["local", "dask"]), default="local",
                 help="local: worker processes alongside this one; dask: a Dask cluster "
                      "(pip install 'sudoku-cp[dask]')."),
    option("--scheduler", metavar="ADDRESS", default=None, show_default="a local cluster",
                 help="dask: the scheduler to attach to, e.g. tcp://host:8786 or tls://..."),
)

results_options = _options(
    option("--results", "results", type=click.Path(dir_okay=False), default=None,
                 help="Append every puzzle's record to this JSON Lines log as it completes."),
    option("--resume", is_flag=True, default=False, show_default=False,
                 help="Continue the run in --results: skip its finished puzzles, retry errors."),
)

SHORTHANDS = ("workers", "cpsat_strategy", "sat_solver", "encoding", "amo")


def _shorthands(given: dict[str, Any]) -> dict[str, Any]:
    return {key: given.pop(key) for key in SHORTHANDS if key in given}


def _box(box: str | None) -> Shape | None:
    if box is None:
        return None
    try:
        return parse_box(box)
    except SudokuError as error:
        fail(str(error))


def _stream(files: tuple[str, ...], input_format: str | None, box: str | None,
            no_download: bool, *, first: int | None = None) -> PuzzleStream:
    """The puzzles of FILES (standard input when none), read lazily; set names are fetched."""
    paths = [_resolve(path, download=not no_download) for path in files] or ["-"]
    return PuzzleStream(paths, layout=Layout(input_format) if input_format else None,
                        box=_box(box), first=first)


def _resolve(path: str, *, download: bool) -> str:
    import os

    if path == "-" or os.path.exists(path):
        return path  # a file: no need to load the set registry
    from .datasets import resolve_source
    return resolve_source(path, download=download)


def _report_input_errors(stream: PuzzleStream, reported: int) -> int:
    """Echo the source errors not yet shown; returns how many are shown now."""
    for error in stream.errors[reported:]:
        click.echo(f"Error: {error}", err=True)
    return len(stream.errors)


def _configurations(items: Iterable[str], shorthands: dict[str, Any]) -> list[BackendSpec]:
    """Configurations, each built once so that a missing solver or a refused option fails here,
    before any puzzle, in one line."""
    from .backends import get_backend
    from .configs import parse_configurations

    specs = parse_configurations(list(items), shorthands=shorthands)
    for spec in specs:
        get_backend(spec.name, **dict(spec.options)).close()
    return specs


def _executor(kind: str, jobs: int, scheduler: str | None) -> Executor:
    if scheduler and kind not in ("dask",):
        fail("--scheduler needs --executor dask")
    return make_executor(kind, jobs=jobs, scheduler=scheduler)


@contextlib.contextmanager
def _output(path: str) -> Iterator[TextIO]:
    """A text file to write ('-' is standard output); failures are one line, exit 2."""
    if path == "-":
        yield sys.stdout
        return
    try:
        handle = open(path, "w", encoding="utf-8")
    except OSError as error:
        fail(f"{path}: cannot write: {error.strerror or error}")
    try:
        yield handle
        handle.flush()
    except OSError as error:
        fail(f"{path}: cannot write: {error.strerror or error}")
    finally:
        with contextlib.suppress(OSError):
            handle.close()


def _stdout_guard(command: Callable[..., Any]) -> Callable[..., Any]:
    """Standard output that cannot be written (a full disk): one line, exit 2."""
    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except BrokenPipeError:
            sys.stderr.close()
            sys.exit(EXIT_OK)
        except OSError as error:
            if error.filename is not None:
                raise
            fail(f"standard output: cannot write: {error.strerror or error}")
    return wrapper


# -- the group -------------------------------------------------------------------------------------

class _StderrHandler(logging.StreamHandler):  # type: ignore[type-arg,unused-ignore]
    """Writes to whatever sys.stderr is at the time of the record (click's test runner swaps
    it), never to a stream that has since been closed."""

    @property  # type: ignore[override,unused-ignore]
    def stream(self) -> Any:
        return sys.stderr

    @stream.setter
    def stream(self, value: Any) -> None:
        pass


def _log_warnings() -> None:
    """The library's warnings as 'warning: ...' on stderr, through sudoku_cp's logger only, so
    that other libraries (Dask) keep their own logging."""
    logger = logging.getLogger("sudoku_cp")
    if not any(isinstance(handler, _StderrHandler) for handler in logger.handlers):
        handler = _StderrHandler()
        handler.setFormatter(logging.Formatter("warning: %(message)s"))
        handler.setLevel(logging.WARNING)
        logger.addHandler(handler)


class OneLineErrors(click.Group):
    """A group whose usage errors are one line ('Error: ... (see COMMAND --help)'), exit 2."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), "data"})

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name == "data" and name not in self.commands:
            from .cli_data import data  # loaded on use: it is the only user of pooch
            self.add_command(data)
        return super().get_command(ctx, name)

    def main(self, *args: Any, **kwargs: Any) -> Any:
        kwargs["standalone_mode"] = False
        try:
            return super().main(*args, **kwargs)
        except click.UsageError as error:
            path = error.ctx.command_path.split()[1:] if error.ctx is not None else []
            where = " ".join(["sudoku-cp", *path])
            _quiet_echo(f"Error: {error.format_message()} (see {where} --help)")
            sys.exit(EXIT_USAGE)
        except click.ClickException as error:
            error.show()
            sys.exit(error.exit_code)
        except click.exceptions.Abort:
            _quiet_echo("Aborted.")
            sys.exit(EXIT_INTERRUPTED)
        except click.exceptions.Exit as error:
            sys.exit(error.exit_code)


@click.group(cls=OneLineErrors, context_settings=CONTEXT, invoke_without_command=True,
             epilog="Examples:\n\n\b\n  sudoku-cp solve data/examples/baekjoon2239.txt\n"
                    "  sudoku-cp crosscheck top95 --backends dfs,sat\n"
                    "  sudoku-cp COMMAND --help")
@click.version_option(__version__, prog_name="sudoku-cp")
@click.pass_context
def main(ctx: click.Context) -> None:
    """Lexicographically smallest Sudoku completions by search, CP-SAT and SAT."""
    _log_warnings()
    if ctx.invoked_subcommand is None:
        click.echo(ctx.get_help())


# -- solve -------------------------------------------------------------------------------------------

@main.command(epilog="""Examples:

\b
  sudoku-cp solve data/examples/baekjoon2239.txt
  sudoku-cp solve -b sat --mode count --count-limit 10 puzzles.txt
  sudoku-cp solve top95 -b 'cpsat[strategy=search]' --format jsonl -j 2""")
@input_options
@option("--backend", "-b", default="dfs",
        lazy_help=lambda: f"Backend or configuration: {', '.join(backend_names())}, or e.g. "
                          f"'sat[solver=cadical195]'.")
@solve_options
@option("--format", "output_format", type=click.Choice(OUTPUT_FORMATS), default=None,
              show_default="the input's layout", help="Output layout.")
@option("--jobs", "-j", type=click.IntRange(min=1), default=1,
              help="Worker processes; answers stay in input order.")
@executor_options
@handle_errors
@_stdout_guard
def solve(files: tuple[str, ...], input_format: str | None, box: str | None, no_download: bool,
          backend: str, mode: str, limit: int, time_limit: float | None,
          output_format: str | None, jobs: int, executor: str, scheduler: str | None,
          **given: Any) -> None:
    """Solve the puzzles of FILES or puzzle SETs (standard input when none, or '-').

    \b
    Input layouts, detected: 'grid' (N rows of N symbols), 'spaced' (N rows of N
    numbers), 'line' (one puzzle of N*N symbols per line, 0 or . blank, A=10 ..).
    Each answer is verified before it is printed; one that fails is 'wrong'.
    """
    specs = _configurations([backend], _shorthands(given))
    if len(specs) != 1:
        fail(f"--backend names {len(specs)} configurations; solve runs one (use crosscheck)")
    stream = _stream(files, input_format, box, no_download)
    settings = SolveSettings(Mode(mode), limit, time_limit)
    exit_code = EXIT_OK
    progress = Progress(None, label="solve ")
    written = shown = 0
    runner = _executor(executor, jobs, scheduler)
    outcomes = execute(stream, specs, settings, executor=runner)
    try:
        for outcome in outcomes:
            shown = _report_input_errors(stream, shown)
            layout = output_format or str(stream.layouts.get(outcome.record.source, "line"))
            exit_code = max(exit_code, _print_answer(outcome, specs[0], layout, written))
            written += 1
            progress.advance()
    except KeyboardInterrupt as error:
        _hold_signals()
        outcomes.close()
        progress.close()
        _quiet_echo(f"{'Terminated' if isinstance(error, Terminated) else 'Interrupted'} after "
                    f"{_plural(written, 'puzzle')}.")
        sys.exit(_interrupt_code(error))
    finally:
        outcomes.close()
        runner.close()
    progress.close()
    _report_input_errors(stream, shown)
    if stream.errors:
        sys.exit(EXIT_USAGE)
    sys.exit(EXIT_USAGE if stream.bad and exit_code == EXIT_OK else exit_code)


def _print_answer(outcome: PuzzleResult, spec: BackendSpec, layout: str, written: int) -> int:
    """Echo one answer (never a wrong one as solved); report what is not solved on stderr."""
    record = outcome.record
    run = outcome.runs[0] if outcome.runs else None
    if record.grid is None:
        click.echo(f"{record.error}", err=True)
        code = EXIT_USAGE
    elif run is None or run.status != "solved":
        status = run.status if run is not None else "error"
        reason = f": {run.reason}" if run is not None and run.reason else ""
        click.echo(f"{record.where}: {spec.label} {status}{reason}" if status in ("wrong", "error")
                   else f"{record.where}: {status}{reason}", err=True)
        code = EXIT_UNSOLVED
    else:
        code = EXIT_OK
    if layout == "jsonl":
        click.echo(to_json_line(result_record(record, run, backend=spec.label,
                                              mode=outcome.mode)))
    else:
        if written and layout != "line":
            click.echo()
        click.echo(format_answer(record, run, layout))
    return code


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


# -- backends, encode ------------------------------------------------------------------------------

@main.command(name="backends", epilog="Example:\n\n\b\n  sudoku-cp backends\n"
                                      "  sudoku-cp backends sat")
@click.argument("names", nargs=-1, metavar="[BACKEND]...")
@handle_errors
def list_backends(names: tuple[str, ...]) -> None:
    """List the backends, whether each is available, what it is, and its options; a plugin
    that fails to load is listed as broken, with the reason."""
    from .backends import backend_problems
    from .configs import option_names
    from .errors import BackendUnavailableError

    problems = backend_problems()
    shown = names or tuple(backend_names())
    ignored = [] if names else [name for name in problems if name not in backend_names()]
    width = max(6, *(len(name) for name in (*shown, *ignored)))  # plugins may have long names
    for name in shown:
        try:
            cls = backend_class(name)
        except BackendUnavailableError:  # a plugin that fails to load
            click.echo(f"{name:<{width}} {'broken':<10} {problems.get(name, '')}")
            continue
        state = "available" if cls.is_available() else "missing " + ",".join(cls.requires)
        click.echo(f"{name:<{width}} {state:<10} {cls.description}")
        options = option_names(name)
        if options:
            click.echo(f"{'':<{width}} options: {', '.join(options)}")
        if names:  # one backend asked for: each option in full, as the backend declares it
            for option in cls.options:
                for number, line in enumerate(textwrap.wrap(option.describe(), 80 - width - 3)):
                    click.echo(f"{'':<{width}} {'  ' if number else '- '}{line}")
            choices = [(option.name, option.choice_list()) for option in cls.options]
            for option_name, values in choices:
                if values and len(values) > 6:
                    click.echo(textwrap.fill(
                        f"{option_name}: {', '.join(values)}", 80,
                        initial_indent=" " * (width + 1),
                        subsequent_indent=" " * (width + 3)))
        if name in problems:  # a plugin that took this backend's name, ignored
            click.echo(f"{'':<{width}} {problems[name]}")
    for name in ignored:
        click.echo(f"{name:<{width}} {'ignored':<10} {problems[name]}")


@main.command(epilog="""Examples:

\b
  sudoku-cp encode data/examples/baekjoon2239.txt -o puzzle.cnf
  sudoku-cp encode puzzles.txt --index 3 --encoding minimal --amo seqcounter""")
@input_options
@option("--index", type=click.IntRange(min=0), default=0,
              help="Which puzzle of the input to encode (0-based).")
@option("--encoding", type=LazyChoice(_encodings), default="extended",
              help="CNF encoding.")
@option("--amo", type=LazyChoice(_amo_encodings), default="pairwise", metavar="NAME",
              help="At-most-one encoding (see 'sudoku-cp backends sat').")
@option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True), default="-",
              help="Where to write the DIMACS CNF.")
@handle_errors
@_stdout_guard
def encode(files: tuple[str, ...], input_format: str | None, box: str | None, no_download: bool,
           index: int, encoding: str, amo: str, output: str) -> None:
    """Write one puzzle's CNF in DIMACS, to run any SAT solver on it."""
    from .backends.sat import write_dimacs

    stream = _stream(files, input_format, box, no_download)
    record = next((record for record in stream if record.index == index), None)
    _report_input_errors(stream, 0)
    if stream.errors:
        sys.exit(EXIT_USAGE)
    if record is None:
        fail(f"--index {index} is past the last puzzle (the input has "
             f"{_plural(stream.read, 'puzzle')})")
    if record.grid is None:
        fail(str(record.error))
    with _output(output) as handle:
        write_dimacs(record.grid, handle, encoding=encoding, amo=amo)


# -- crosscheck --------------------------------------------------------------------------------------

@main.command(epilog="""Examples:

\b
  sudoku-cp crosscheck top95 --backends dfs,cpsat,sat
  sudoku-cp crosscheck 17clue -b dfs,sat --results r.jsonl   # then --resume
  sudoku-cp crosscheck puzzles.txt -b 'sat[solver=glucose3|cadical195]'""")
@input_options
@option("--backends", "-b", "backend_list", default="dfs,cpsat,sat",
              help="Comma-separated backends or configurations to run and compare.")
@solve_options
@option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              show_default="the machine's cores",
              help="Worker processes, each keeping its backends warm.")
@executor_options
@results_options
@option("--format", "output_format", type=click.Choice(["text", "jsonl"]), default="text",
              help="text: summary table and findings; jsonl: one record per puzzle (the "
                   "summary goes to stderr).")
@handle_errors
@_stdout_guard
def crosscheck(files: tuple[str, ...], input_format: str | None, box: str | None,
               no_download: bool, backend_list: str, mode: str, limit: int,
               time_limit: float | None, jobs: int | None, executor: str, scheduler: str | None,
               results: str | None, resume: bool, output_format: str, **given: Any) -> None:
    """Run several backends on the same puzzles, verify every answer and compare them.

    \b
    Every answer is verified, then compared:
      lexmin  identical solutions and unsatisfiable verdicts
      count   identical counts (capped at --count-limit)
      any     every completion valid, solvable/unsolvable verdicts identical
    Exit: 0 all agree (timeouts are reported, not held against); 1 a wrong
    answer, a disagreement or a backend error; 2 bad usage or input;
    130 Ctrl-C, 143 SIGTERM (with --results, continue with --resume).
    """
    from .tally import Tally
    from .render import render_crosscheck, render_crosscheck_summary
    from .results import ResultsLog, make_header

    specs = _configurations([backend_list], _shorthands(given))
    if resume and not results:
        fail("--resume needs --results FILE (the results log of the run to continue)")
    settings = SolveSettings(Mode(mode), limit, time_limit)
    stream = _stream(files, input_format, box, no_download)
    tally = Tally([spec.label for spec in specs], settings.mode)
    from .measure import environment

    runner = _executor(executor, jobs or default_jobs(), scheduler)
    log = (ResultsLog.open(results, make_header(
        command="crosscheck", settings=settings.to_dict(),
        backends=[spec.describe() for spec in specs],
        environment=environment(specs=specs, jobs=jobs or default_jobs(), argv=_argv()),
        inputs=list(files) or ["-"]), resume=resume)
        if results else None)
    interrupted: BaseException | None = None
    start = time.perf_counter()
    progress = Progress(None, label="crosscheck ")
    shown = 0
    try:
        todo: Iterable[PuzzleRecord] = stream
        if log is not None:
            for record in log.previous():
                tally.add(record, resumed=True)
                if output_format == "jsonl":
                    click.echo(to_json_line(record))
            todo = (record for record in stream if not log.is_done(record))
        outcomes = execute(todo, specs, settings, executor=runner,
                           log=(lambda outcome: log.append(outcome.to_record()))
                           if log is not None else None)
        try:
            for outcome in outcomes:
                shown = _report_input_errors(stream, shown)
                if outcome.verdict is None:
                    click.echo(f"{outcome.record.error}", err=True)
                    tally.bad_input += 1
                    continue
                record = outcome.to_record()
                tally.add(record)
                if output_format == "jsonl":
                    click.echo(to_json_line(record))
                progress.advance(note=tally.note())
        finally:
            outcomes.close()
    except KeyboardInterrupt as error:
        _hold_signals()
        interrupted = error
    finally:
        progress.close()
        runner.close()
        if log is not None:
            log.close()
    _report_input_errors(stream, shown)
    if stream.nothing_read and not tally.puzzles and interrupted is None:
        sys.exit(EXIT_USAGE)  # nothing could be read: the error lines say it all
    summary = tally.summary(wall_seconds=time.perf_counter() - start,
                            interrupted=interrupted is not None)
    if output_format == "jsonl":
        click.echo(render_crosscheck_summary(summary), err=True)
    else:
        click.echo(render_crosscheck(tally, summary))
    if interrupted is not None:
        where = (f"the results so far are in {results}; to continue, run the same command "
                 f"with --resume" if results else "pass --results FILE to be able to resume")
        _quiet_echo(f"{'Terminated' if isinstance(interrupted, Terminated) else 'Interrupted'} "
                    f"after {_plural(summary.session_puzzles, 'puzzle')}: {where}.")
        sys.exit(_interrupt_code(interrupted))
    if stream.errors or tally.bad_input:
        sys.exit(EXIT_USAGE)
    sys.exit(EXIT_UNSOLVED if summary.problems else EXIT_OK)


def _argv() -> str:
    return shlex.join(["sudoku-cp", *sys.argv[1:]])


# -- bench, plot, report ---------------------------------------------------------------------------
# bench.py, render.py, plots.py and matplotlib are imported inside the commands: `solve` never
# loads them.

@main.command(epilog="""Examples:

\b
  sudoku-cp bench top95 --backends dfs,cpsat,sat --results r.jsonl
  sudoku-cp bench 17clue --first 1000 --repeat 3 --time-limit 10 \\
      --results r.jsonl
  sudoku-cp report r.jsonl -o report.md""")
@input_options
@option("--backends", "-b", "backend_list", default="dfs,cpsat,sat",
              help="Comma-separated backends or configurations to time.")
@solve_options
@option("--repeat", type=click.IntRange(min=1), default=1,
              help="Timed solves per (puzzle, backend); a puzzle's time is their median.")
@option("--warmup", type=click.IntRange(min=0), default=0,
              help="Untimed solves of each puzzle before its timed ones.")
@option("--jobs", "-j", type=click.IntRange(min=1), default=1,
              help="Worker processes. Keep 1 for timings: parallel runs compete for cores "
                   "and caches.")
@executor_options
@results_options
@option("--out", "out", type=click.Path(dir_okay=False), default=None, hidden=True)
@option("--baseline", metavar="BACKEND", default=None, show_default="the first",
              help="Configuration of the ratio column.")
@option("--first", "--limit-puzzles", "first", type=click.IntRange(min=1), metavar="K",
              default=None, show_default="all", help="Only the first K puzzles of each file.")
@option("--setup/--no-setup", "measure_setup", default=True,
              help="First measure imports and first-solve costs in fresh interpreters.")
@option("--isolate/--no-isolate", default=True,
        help="With -j 1: each configuration in a worker process of its own, run one after "
             "the other, so that its peak memory is its own.")
@handle_errors
@_stdout_guard
def bench(files: tuple[str, ...], input_format: str | None, box: str | None, no_download: bool,
          backend_list: str, mode: str, limit: int, time_limit: float | None, repeat: int,
          warmup: int, jobs: int, executor: str, scheduler: str | None, results: str | None,
          resume: bool, out: str | None, baseline: str | None, first: int | None,
          measure_setup: bool, isolate: bool, **given: Any) -> None:
    """Time backends over puzzle sets (one set per file) and print the summary table.

    \b
    Every timed answer is verified; a wrong one is counted, never timed. Imports
    and one-off set-up are measured apart, in fresh interpreters, and kept out of
    the times. PAR-2 needs --time-limit. Progress goes to stderr.
    Exit: 0 every answer right (timeouts included), 1 a wrong answer or a backend
    error, 2 bad usage or input, 130/143 interrupted (continue with --resume).
    """
    from . import measure as measuring
    from .render import render_setup_text, render_summary_text, summary_legend
    from .results import ResultsLog, make_header

    results = results or out
    specs = _configurations([backend_list], _shorthands(given))
    labels = [spec.label for spec in specs]
    baseline = baseline or labels[0]
    if baseline not in labels:
        fail(f"--baseline {baseline} is not one of --backends {','.join(labels)}")
    if resume and not results:
        fail("--resume needs --results FILE (the results log of the run to continue)")
    measuring.check_set_names(list(files) or ["-"])
    settings = SolveSettings(Mode(mode), limit, time_limit, warmup, repeat, prime=True)
    stream = _stream(files, input_format, box, no_download, first=first)
    puzzles = list(stream)  # a benchmark reads its sets whole: broken data would mislead
    _report_input_errors(stream, 0)
    bad = next((record for record in puzzles if record.grid is None), None)
    if bad is not None:
        fail(f"{bad.error} (a benchmark needs clean puzzles)")
    if stream.errors:
        sys.exit(EXIT_USAGE)
    isolated = isolate and jobs == 1 and executor == "local"
    runner = _executor("isolated" if isolated else executor, jobs, scheduler)
    settings_record = {**settings.to_dict(), "baseline": baseline, "first": first}
    header = make_header(command="bench", settings=settings_record,
                         backends=[spec.describe() for spec in specs],
                         environment=measuring.environment(specs=specs, jobs=jobs,
                                                           argv=_argv()),
                         inputs=list(files) or ["-"])
    log = ResultsLog.open(results, header, resume=resume) if results else None
    runs: list[dict[str, Any]] = []
    try:
        todo = puzzles
        if log is not None:
            for record in log.previous():
                runs.extend(_flat_runs(record))
            todo = [record for record in puzzles if not log.is_done(record)]
        setup = (measuring.measure_setup(specs, measuring.first_of_each_shape(todo), settings)
                 if measure_setup and todo else {})
        if log is not None and setup:
            log.append({"kind": "header", "format": header["format"], "command": "bench",
                        "settings": header["settings"], "setup": setup, "setup_of": "session"})
        measuring.import_solvers(specs)
        progress = Progress(len(todo), label="bench ")
        outcomes = execute(todo, specs, settings, executor=runner,
                           log=(lambda outcome: log.append(outcome.to_record()))
                           if log is not None else None)
        try:
            for outcome in outcomes:
                record = outcome.to_record()
                runs.extend(_flat_runs(record))
                for run in outcome.runs:
                    if run.status in ("wrong", "error"):
                        click.echo(f"{outcome.record.where}: {run.label} {run.status}: "
                                   f"{run.reason}", err=True)
                progress.advance()
        except KeyboardInterrupt as error:
            _hold_signals()
            progress.close()
            where = (f"the finished ones are in {results}: run the same command with --resume "
                     f"to continue" if results else "pass --results FILE to be able to resume")
            _quiet_echo(f"{'Terminated' if isinstance(error, Terminated) else 'Interrupted'} "
                        f"after {progress.done} of {_plural(len(todo), 'puzzle')}; {where}.")
            sys.exit(_interrupt_code(error))
        finally:
            outcomes.close()
        progress.close()
    finally:
        runner.close()
        if log is not None:
            log.close()
    if len(todo) < len(puzzles):
        click.echo(f"Resumed {results}: {len(puzzles) - len(todo)} of "
                   f"{_plural(len(puzzles), 'puzzle')} were already measured.", err=True)
    rows = measuring.summarize(runs, time_limit=time_limit, baseline=baseline,
                               intervals=repeat > 1)
    click.echo(render_summary_text(rows, baseline=baseline))
    click.echo()
    click.echo(summary_legend(baseline=baseline, time_limit=time_limit, repeat=repeat))
    if setup:
        click.echo()
        click.echo("One-off set-up, not in the times above:")
        click.echo(render_setup_text(setup))
    sys.exit(EXIT_UNSOLVED if measuring.has_failures(runs) else EXIT_OK)


def _flat_runs(record: dict[str, Any]) -> list[dict[str, Any]]:
    base = {key: record.get(key) for key in ("set", "number", "index", "puzzle", "size",
                                             "givens", "mode")}
    return [{**base, **run} for run in record["runs"]]


def _plot_kinds() -> list[str]:
    from .plots import PLOT_KINDS
    return list(PLOT_KINDS)


def _scaling_axes() -> list[str]:
    from .plots import SCALING_AXES
    return list(SCALING_AXES)


@main.command(epilog="""Examples:

\b
  sudoku-cp plot r.jsonl --kind cactus -o cactus.png
  sudoku-cp plot r.jsonl --kind scatter --x-backend dfs --y-backend sat \\
      -o s.png""")
@click.argument("results_files", metavar="RESULTS...", nargs=-1, required=True,
                type=click.Path(dir_okay=False))
@option("--kind", type=LazyChoice(_plot_kinds), default="cactus",
              help="cactus: puzzles solved vs time, per set; scatter: two backends per "
                   "puzzle, log-log; scaling: time vs grid size or givens.")
@option("-o", "--output", required=True, type=click.Path(dir_okay=False),
              help="Image file: .png, .svg or .pdf.")
@option("--x-backend", "--x", "x_backend", metavar="BACKEND", default=None,
              show_default="the first", help="scatter: the x axis.")
@option("--y-backend", "--y", "y_backend", metavar="BACKEND", default=None,
              show_default="the next", help="scatter: the y axis.")
@option("--by", type=LazyChoice(_scaling_axes), default=None,
              show_default="size when there are several", help="scaling: the x axis.")
@handle_errors
def plot(results_files: tuple[str, ...], kind: str, output: str, x_backend: str | None,
         y_backend: str | None, by: str | None) -> None:
    """Plot results logs written by `bench` or `crosscheck --results` (needs matplotlib).

    Several files (one per mode, say) are plotted together, a line style per mode.
    """
    from .plots import check_plot_path, plot_figure, save_figure
    from .results import load_results

    check_plot_path(output)
    results = load_results(*results_files)
    figure = plot_figure(list(results.runs()), kind, time_limit=results.time_limit,
                         x=x_backend, y=y_backend, by=by)
    save_figure(figure, output)


@main.command(epilog="""Examples:

\b
  sudoku-cp report r.jsonl -o report.md     # Markdown, with plots next to it
  sudoku-cp report r.jsonl -o table.tex     # LaTeX (booktabs) summary table
  sudoku-cp report r.jsonl -o summary.csv   # the summary as CSV""")
@click.argument("results_files", metavar="RESULTS...", nargs=-1, required=True,
                type=click.Path(dir_okay=False))
@option("-o", "--output", required=True, type=click.Path(dir_okay=False),
              help="report.md (with plots STEM-cactus.png, ... next to it), .tex or .csv.")
@option("--baseline", metavar="BACKEND", default=None, show_default="the run's",
              help="Configuration of the ratio column.")
@option("--plots/--no-plots", "with_plots", default=True,
              help="Draw the plots of a Markdown report (they need matplotlib).")
@handle_errors
def report(results_files: tuple[str, ...], output: str, baseline: str | None,
           with_plots: bool) -> None:
    """Write a report of results logs: Markdown (environment, tables and plots), a LaTeX
    table, or the summary as CSV. Several files (one per mode, say) make one report."""
    from pathlib import Path

    from .measure import summarize
    from .render import render_summary_csv, render_summary_latex
    from .report import render_markdown_report
    from .results import load_results

    results = load_results(*results_files)
    chosen = _baseline(results, baseline)
    target = Path(output)
    suffix = target.suffix.lower()
    if suffix not in (".md", ".markdown", ".tex", ".csv"):
        fail(f"{output}: name the report .md (Markdown), .tex (LaTeX) or .csv")
    if suffix in (".tex", ".csv"):
        rows = summarize(results.runs(), time_limit=results.time_limit, baseline=chosen,
                         intervals=results.repeat > 1)
        text = (render_summary_latex(rows, baseline=chosen) if suffix == ".tex"
                else render_summary_csv(rows))
    else:
        plots = _report_plots(results, target) if with_plots else {}
        text = render_markdown_report(results, plots, baseline=chosen)
    with _output(output) as handle:
        handle.write(text)


def _baseline(results: Any, chosen: str | None) -> str | None:
    labels = results.labels()
    if chosen is not None:
        if chosen not in labels:
            fail(f"no results for baseline {chosen!r} (the results hold {', '.join(labels)})")
        return chosen
    named = results.settings.get("baseline")
    return named if named in labels else (labels[0] if labels else None)


def _report_plots(results: Any, target: Any) -> dict[str, str]:
    from .plots import PLOT_KINDS, PlotUnavailableError, plot_figure, save_figure

    plots: dict[str, str] = {}
    runs = list(results.runs())
    try:
        for kind in PLOT_KINDS:
            if kind == "scatter" and len(results.labels()) < 2:
                continue  # a scatter compares two backends
            image = target.with_name(f"{target.stem}-{kind}.png")
            save_figure(plot_figure(runs, kind, time_limit=results.time_limit), image)
            plots[kind] = image.name  # relative: the report and its images move together
    except PlotUnavailableError as error:
        click.echo(f"Warning: {error}; the report has no plots.", err=True)
    return plots


# -- generate ------------------------------------------------------------------------------------

def _kinds() -> list[str]:
    from .generate import Kind
    return [str(kind) for kind in Kind]


@main.command(name="generate", epilog="""Examples:

\b
  sudoku-cp generate --size 9 --count 10 --kind unique -o unique9.txt
  sudoku-cp generate --size 6 --box 2x3 --kind multi --seed 7""")
@option("--size", type=click.IntRange(min=4), default=9,
              help="Grid size N: 4, 6, 9, 16, 25, ...")
@option("--box", metavar="RxC", default=None, show_default="square, else squarest",
              help="Box shape, e.g. 2x3 for 6x6.")
@option("--count", type=click.IntRange(min=1), default=1, help="How many puzzles.")
@option("--givens", metavar="A..B", default=None, show_default="by size",
              help="Givens per puzzle, a target drawn from A..B (e.g. 22..32 for 9x9); "
                   "unique, unsat and adversarial may stop above it at a minimal puzzle.")
@option("--kind", type=LazyChoice(_kinds), default="unique",
              help="unique: one completion; multi: two or more; unsat: none, with no repeated "
                   "given; adversarial: one, and costly for the naive row-major DFS.")
@option("--seed", type=int, default=0,
              help="Random seed: the same seed and version give the same puzzles.")
@option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True), default="-",
              help="Where to write the puzzles.")
@option("--format", "output_format", type=click.Choice(["line", "jsonl"]), default="line",
              help="line: one puzzle per line after '#' comments with the command and each "
                   "puzzle's facts; jsonl: one object each.")
@handle_errors
@_stdout_guard
def generate_command(size: int, box: str | None, count: int, givens: str | None, kind: str,
                     seed: int, output: str, output_format: str) -> None:
    """Make puzzles from a seed: unique, multi, unsat or adversarial.

    The same command and version give the same puzzles on any machine.
    """
    from . import generate as generation

    request = generation.make_request(kind, size=size, box=_box(box), givens=givens,
                                      seed=seed, count=count)
    progress = Progress(count if count > 1 else None, label=f"generate {kind} ")
    made: list[Any] = []

    def counted(calls: int) -> None:  # keeps the display alive within a slow puzzle
        progress.advance(0, note=f"({_plural(calls, 'completion count')})")

    with _output(output) as handle:
        if output_format == "line":
            handle.write("\n".join(generation.header_lines(request, version=__version__)) + "\n")
        try:
            for generated in generation.generate(request, on_count=counted):
                made.append(generated)
                if output_format == "line":
                    handle.write(f"{generation.fact_comment(generated)}\n"
                                 f"{generated.puzzle.to_line()}\n")
                else:
                    record = generation.json_record(generated, request, version=__version__)
                    handle.write(to_json_line(record) + "\n")
                handle.flush()
                progress.advance(note=f"givens {generated.givens}")
        finally:
            progress.close()
        if output_format == "line":
            handle.write(generation.summary_line(made, request) + "\n")
    outside = sum(1 for generated in made if generated.givens not in request.givens)
    if outside:
        click.echo(f"Note: {outside} of {_plural(count, 'puzzle')} stopped at a minimal puzzle "
                   f"outside --givens {request.givens}.", err=True)

