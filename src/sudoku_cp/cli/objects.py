"""The library's objects that the shared options stand for: the solve settings, the
configurations (with the shorthand flags, an old flag read with a notice), the executor, the
puzzle stream; and the lines a run prints about its input and about resuming."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from .output import fail
from .signals import quiet_echo


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
    from ..judging import SolveSettings

    if (certify or keep_proofs is not None) and mode == "count":
        from ..certify.certifier import COUNT_CAP

        if limit > COUNT_CAP:
            fail(
                f"--count-limit {limit} with --certify: certify enumerates at most {COUNT_CAP} "
                f"completions, so a count above that could not be certified"
            )
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
    """The puzzles of FILES (standard input when none), read lazily; set names are fetched.
    Standard input that is a terminal gets a line saying it is read (else the command seems to
    hang, waiting for a file that never comes)."""
    from ..inputs import puzzle_stream as stream

    puzzles = stream(files, layout=input_format, box=box, download=not no_download, first=first)
    if "-" in puzzles.paths and _is_terminal(sys.stdin):
        quiet_echo("Reading puzzles from standard input (Ctrl-D to end).")
    return puzzles


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # no stdin, or a closed one
        return False


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
    "configurations",
    "flags_given",
    "make_executor",
    "puzzle_stream",
    "report_input_errors",
    "resume_hint",
    "solve_settings",
]
