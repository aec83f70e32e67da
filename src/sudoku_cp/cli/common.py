"""What every command shares: exit codes, the one-line errors, output guards, option types and
the option groups (input, solving, executors, results log). Signals are `signals.py`'s."""

from __future__ import annotations

import contextlib
import functools
import logging
import math
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, NoReturn, TextIO

import click

from .signals import (
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_TERMINATED,
    EXIT_UNSOLVED,
    EXIT_USAGE,
    STOP,
    Interrupted,
    check_stop,
    quiet_echo,
    signal_word,
    stop_with,
)

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 80, "show_default": True}


# -- errors and output -----------------------------------------------------------------------------


class UsageFailure(click.ClickException):
    """A one-line error for bad usage or input: 'Error: ...' on stderr, exit 2."""

    exit_code = EXIT_USAGE


def fail(message: str) -> NoReturn:
    raise UsageFailure(message)


def run_command(command: Callable[..., Any]) -> Callable[..., Any]:
    """A command's errors as one line and an exit code: library errors and unwritable files 2;
    a closed standard output 2 (results kept); Ctrl-C 130; SIGTERM 143, also when the signal's
    exception was swallowed on its way."""
    from ..errors import SudokuError

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            result = command(*args, **kwargs)
        except SudokuError as error:
            if STOP.signum is not None:
                stop_with()
            raise UsageFailure(str(error)) from None
        except KeyboardInterrupt:
            stop_with()
        except BrokenPipeError:
            stdout_closed()
        except SystemExit:
            if STOP.signum is not None:
                stop_with()
            raise
        if STOP.signum is not None:
            stop_with()
        return result

    return wrapper


def stdout_closed(done: str = "") -> NoReturn:
    """Standard output closed under us: one line on stderr, exit 2. `done` says what was
    finished and kept ('after 11 puzzles; the results so far are in r.jsonl ...')."""
    with contextlib.suppress(OSError, ValueError):  # no "Exception ignored" at exit
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    quiet_echo(
        f"Error: standard output was closed (the reading end of the pipe ended)"
        f"{', ' + done if done else ''}."
    )
    sys.exit(EXIT_USAGE)


def echo(text: str = "") -> None:
    """A line on standard output; a closed pipe raises `BrokenPipeError` for `run_command`,
    another write failure (a full disk) is one line and exit 2."""
    try:
        click.echo(text)
    except BrokenPipeError:
        raise
    except OSError as error:
        fail(f"standard output: cannot write: {error.strerror or error}")


@contextlib.contextmanager
def output_file(path: str) -> Iterator[TextIO]:
    """A text file to write ('-' is standard output); failures are one line, exit 2."""
    if path == "-":
        yield sys.stdout
        return
    try:
        handle = open(path, "w", encoding="utf-8")  # noqa: SIM115 (the caller closes it)
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


class StderrHandler(logging.StreamHandler):  # type: ignore[type-arg,unused-ignore]
    """Writes to whatever sys.stderr is at the time of the record (click's test runner swaps
    it), never to a stream that has since been closed."""

    @property  # type: ignore[override,unused-ignore]
    def stream(self) -> Any:
        return sys.stderr

    @stream.setter
    def stream(self, value: Any) -> None:
        pass


def log_warnings() -> None:
    """The library's warnings as 'warning: ...' on stderr, through sudoku_cp's logger only, so
    that other libraries (Dask) keep their own logging."""
    logger = logging.getLogger("sudoku_cp")
    if not any(isinstance(handler, StderrHandler) for handler in logger.handlers):
        handler = StderrHandler()
        handler.setFormatter(logging.Formatter("warning: %(message)s"))
        handler.setLevel(logging.WARNING)
        logger.addHandler(handler)


# -- option types ----------------------------------------------------------------------------------


class Option(click.Option):
    """An option whose described default ('the machine's cores') is shown like a value:
    '[default: the machine's cores]', the one way every default is shown.

    `lazy_help` builds the help text when help is shown: a text that lists the backends would
    otherwise read every installed package's entry points (the plugins) on every start.
    """

    def __init__(
        self, *args: Any, lazy_help: Callable[[], str] | None = None, **attributes: Any
    ) -> None:
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
    """A Choice whose values come from the library, loaded only when needed (parsing, help)."""

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

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> float | None:
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
            self.fail(
                f"{value!r} is not a positive number of seconds (use inf for no limit)", param, ctx
            )
        return None if math.isinf(number) or number > 1e9 else number


def options(*decorators: Callable[..., Any]) -> Callable[..., Any]:
    """Several option decorators as one."""

    def apply(command: Callable[..., Any]) -> Callable[..., Any]:
        for decorator in reversed(decorators):
            command = decorator(command)
        return command

    return apply


# -- option groups ---------------------------------------------------------------------------------


def _layouts() -> list[str]:
    from ..formats import Layout

    return [str(layout) for layout in Layout]


input_options = options(
    click.argument("files", nargs=-1, metavar="[FILE|SET]..."),
    option(
        "--input-format",
        type=LazyChoice(_layouts),
        default=None,
        show_default="detected",
        help="Input layout.",
    ),
    option(
        "--box",
        metavar="RxC",
        default=None,
        show_default="square, else squarest",
        help="Box shape, e.g. 2x3 for 6x6.",
    ),
    option(
        "--no-download",
        is_flag=True,
        default=False,
        show_default=False,
        help="Never fetch a puzzle set by name; use the cache or SUDOKU_CP_DATA.",
    ),
)


def shorthand_flag_options() -> list[Callable[..., Any]]:
    """One click option per built-in backend option that declares a shorthand flag
    (`BackendOption.flag`): its help, choices and bounds come from the declaration."""
    from ..backends import shorthand_flags

    made = []
    for flag, (backend, declared) in shorthand_flags().items():
        kind: Any = None
        metavar: str | None = "NAME"
        if declared.kind is int:
            kind, metavar = click.IntRange(min=declared.minimum), "N"
        elif isinstance(declared.choices, tuple):
            kind = click.Choice(declared.choices)
            metavar = None if len(declared.choices) <= 4 else "NAME"  # else listed in help
        made.append(
            option(
                flag,
                f"flag_{declared.name}_{backend}",
                type=kind,
                default=None,
                show_default=str(declared.default),
                metavar=metavar,
                help=f"{backend}: {declared.help} (shorthand for {backend}[{declared.name}=...]).",
            )
        )
        made += [  # earlier names of the flag: still read, with a notice (`flags_given`)
            option(old, f"flag_{declared.name}_{backend}_{index}", default=None, hidden=True)
            for index, old in enumerate(declared.old_flags)
        ]
    return made


def _modes() -> list[str]:
    from ..result import Mode

    return [str(mode) for mode in Mode]


solve_options = options(
    option(
        "--mode",
        type=LazyChoice(_modes),
        default="lexmin",
        help="lexmin: smallest completion row by row; any: some completion; count: "
        "completions up to --count-limit.",
    ),
    option(
        "--count-limit",
        "--limit",
        "limit",
        type=click.IntRange(min=1),
        default=2,
        help="Count mode: stop counting at this many completions.",
    ),
    option(
        "--time-limit",
        type=Seconds(),
        default=None,
        show_default="none",
        help="Seconds per puzzle (inf: none); past it the puzzle is a timeout.",
    ),
    option(
        "--certify",
        is_flag=True,
        default=False,
        show_default=False,
        help="Certify each answer as it comes (a checked proof for lex-min, "
        "unsatisfiable and counts); an answer that fails is wrong.",
    ),
    option(
        "--keep-proofs",
        type=click.Path(file_okay=False),
        metavar="DIR",
        default=None,
        help="With --certify (implied): write each CNF and proof there.",
    ),
    *shorthand_flag_options(),
)


def solve_settings(
    mode: str,
    limit: int,
    time_limit: float | None,
    certify: bool,
    keep_proofs: str | None,
    **more: Any,
) -> Any:
    """The `SolveSettings` of the solve options; with --certify, its certifier (a missing
    checker is one line, exit 2, before any puzzle)."""
    from ..runs import SolveSettings

    return SolveSettings.of(
        mode, limit, time_limit, certify=certify, keep_proofs=keep_proofs, **more
    )


def flags_given(given: dict[str, Any]) -> dict[str, Any]:
    """The shorthand flags among a command's keyword arguments (taken out of them), by flag."""
    from ..backends import shorthand_flags
    from ..backends.base import renamed_notice

    found = {}
    for flag, (backend, declared) in shorthand_flags().items():
        value = given.pop(f"flag_{declared.name}_{backend}", None)
        for index, old in enumerate(declared.old_flags):
            earlier = given.pop(f"flag_{declared.name}_{backend}_{index}", None)
            if earlier is not None:
                renamed_notice(f"{old} is now {flag}")
                value = earlier if value is None else value
        if value is not None:
            found[flag] = value
    return found


def _executor_names() -> list[str]:
    from ..executors import EXECUTORS

    return list(EXECUTORS)


def _executor_help() -> str:
    from ..executors import EXECUTORS

    return "; ".join(f"{name}: {help_text}" for name, (_, _, help_text) in EXECUTORS.items())


executor_options = options(
    option(
        "--executor",
        type=LazyChoice(_executor_names),
        default="local",
        lazy_help=lambda: f"Where the puzzles run: {_executor_help()}.",
    ),
    option(
        "--scheduler",
        metavar="ADDRESS",
        default=None,
        show_default="a local cluster",
        help="dask: the scheduler to attach to, e.g. tcp://host:8786 or tls://...",
    ),
)

results_options = options(
    option(
        "--results",
        "results",
        type=click.Path(dir_okay=False),
        default=None,
        help="Append every puzzle's record to this JSON Lines log as it completes.",
    ),
    option(
        "--resume",
        is_flag=True,
        default=False,
        show_default=False,
        help="Continue the run in --results: skip its finished puzzles, retry errors.",
    ),
)


# -- what the options mean -------------------------------------------------------------------------


def configurations(items: Sequence[str], given: dict[str, Any]) -> list[Any]:
    """The configurations of `--backend(s)` and the shorthand flags, each built once so that a
    missing solver or a refused option fails here, before any puzzle, in one line."""
    from ..configurations import parse_configurations

    chosen = parse_configurations(list(items), flags=flags_given(given))
    for configuration in chosen:
        configuration.build().close()
    return chosen


def make_executor(kind: str, jobs: int, scheduler: str | None) -> Any:
    """The executor the options name (`--executor`, `-j`, `--scheduler`)."""
    from ..executors import make_executor as build

    if scheduler and kind != "dask":
        fail("--scheduler needs --executor dask")
    return build(kind, jobs=jobs, scheduler=scheduler)


def puzzle_stream(
    files: Sequence[str],
    input_format: str | None,
    box: str | None,
    no_download: bool,
    *,
    first: int | None = None,
) -> Any:
    """The puzzles of FILES (standard input when none), read lazily; set names are fetched."""
    from ..inputs import puzzle_stream as stream

    return stream(files, layout=input_format, box=box, download=not no_download, first=first)


def report_input_errors(stream: Any, reported: int) -> int:
    """Echo the source errors not yet shown; returns how many are shown now."""
    for error in stream.errors[reported:]:
        quiet_echo(f"Error: {error}")
    return len(stream.errors)


def resume_hint(results: str | None) -> str:
    """Where an interrupted run's results are, and how to continue it."""
    if results:
        return (
            f"the results so far are in {results}; to continue, run the same command with --resume"
        )
    return "pass --results FILE to be able to resume"


__all__ = [
    "CONTEXT",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_TERMINATED",
    "EXIT_UNSOLVED",
    "EXIT_USAGE",
    "Interrupted",
    "LazyChoice",
    "Option",
    "STOP",
    "Seconds",
    "UsageFailure",
    "check_stop",
    "configurations",
    "echo",
    "executor_options",
    "fail",
    "flags_given",
    "input_options",
    "log_warnings",
    "make_executor",
    "option",
    "options",
    "output_file",
    "puzzle_stream",
    "quiet_echo",
    "report_input_errors",
    "results_options",
    "resume_hint",
    "run_command",
    "signal_word",
    "solve_options",
    "stdout_closed",
    "stop_with",
]
