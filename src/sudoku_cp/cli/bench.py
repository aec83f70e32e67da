"""`sudoku-cp bench`: time configurations over puzzle sets (the session is the library's
`BenchSession`) and print the summary table."""

from __future__ import annotations

import sys
from typing import Any, NoReturn

import click

from .objects import (
    configurations,
    make_executor,
    puzzle_stream,
    report_input_errors,
    resume_hint,
    solve_settings,
)
from .options import (
    executor_options,
    first_option,
    input_options,
    option,
    renamed,
    results_options,
    solve_options,
)
from .output import echo, fail, run_command, stdout_closed
from .signals import EXIT_OK, EXIT_UNSOLVED, check_stop, quiet_echo, signal_word, stop_with


@click.command(
    epilog="""Examples:

\b
  sudoku-cp bench top95 --backends dfs,cpsat,sat --results r.jsonl
  sudoku-cp bench 17clue --first 1000 --repeat 3 --time-limit 10 \\
      --results r.jsonl
  sudoku-cp report r.jsonl -o report.html"""
)
@input_options
@option(
    "--backends",
    "-b",
    "backend_list",
    default="dfs,cpsat,sat",
    help="Comma-separated backends or configurations to time.",
)
@solve_options
@option(
    "--repeat",
    type=click.IntRange(min=1),
    default=1,
    help="Timed solves per (puzzle, backend); a puzzle's time is their median.",
)
@option(
    "--warmup",
    type=click.IntRange(min=0),
    default=0,
    help="Untimed solves of each puzzle before its timed ones.",
)
@option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    default=1,
    help="Worker processes. Keep 1 for timings: parallel runs compete for cores and caches.",
)
@executor_options
@results_options
@renamed("--out", "--results", "results", type=click.Path(dir_okay=False))
@option(
    "--baseline",
    metavar="BACKEND",
    default=None,
    show_default="the first",
    help="Configuration of the ratio column.",
)
@first_option
@renamed("--limit-puzzles", "--first", "first", type=click.IntRange(min=1))
@option(
    "--setup/--no-setup",
    "measure_setup",
    default=True,
    help="First measure imports and first-solve costs in fresh interpreters.",
)
@option(
    "--isolate/--no-isolate",
    default=True,
    help="With -j 1 and the local executor: each configuration in a worker process of "
    "its own (--executor isolated), so that its peak memory is its own.",
)
@option(
    "--rating",
    is_flag=True,
    default=False,
    help="Store each puzzle's explain rating in the log (rated after its runs, not timed).",
)
@run_command
def bench(
    files: tuple[str, ...],
    input_format: str | None,
    box: str | None,
    no_download: bool,
    backend_list: str,
    mode: str,
    limit: int,
    time_limit: float | None,
    certify: bool,
    keep_proofs: str | None,
    repeat: int,
    warmup: int,
    jobs: int,
    executor: str,
    scheduler: str | None,
    results: str | None,
    resume: bool,
    baseline: str | None,
    first: int | None,
    measure_setup: bool,
    isolate: bool,
    rating: bool,
    **given: Any,
) -> None:
    """Time backends over puzzle sets (one set per file) and print the summary table.

    \b
    Every timed answer is verified; a wrong one is counted, never timed. Imports
    and one-off set-up are measured apart, in fresh interpreters, and kept out of
    the times. PAR-2 needs --time-limit. Progress goes to stderr.
    Exit: 0 every answer right (timeouts included), 1 a wrong answer or a backend
    error, 2 bad usage or input, 130/143 interrupted (continue with --resume).
    """
    from ..sessions import BenchSession

    chosen = configurations([backend_list], given)
    baseline = _baseline(chosen, baseline)
    if resume and not results:
        fail("--resume needs --results FILE (the results log of the run to continue)")
    puzzles = _read_sets(files, input_format, box, no_download, first)
    if executor == "local" and jobs == 1 and isolate:
        executor = "isolated"
    session = BenchSession(
        puzzles,
        chosen,
        solve_settings(
            mode, limit, time_limit, certify, keep_proofs, warmup=warmup, repeat=repeat, prime=True
        ),
        inputs=list(files) or ["-"],
        results=results,
        resume=resume,
        executor=make_executor(executor, jobs, scheduler),
        jobs=jobs,
        extra_settings={"baseline": baseline, "first": first},
        rating=rating,
    )
    _end(session, baseline, _measure(session, measure_setup, results))


def _end(session: Any, baseline: str, stopped: str | None) -> NoReturn:
    """The summary and the exit code; after a signal (`stopped`: its line), the summary of
    what was measured, if anything was, then that line and 130/143."""
    if stopped is not None:
        if session.rows:
            _show(session, baseline, interrupted=True)
        stop_with(stopped)
    _show(session, baseline)
    sys.exit(EXIT_UNSOLVED if session.failed else EXIT_OK)


def _baseline(chosen: list[Any], baseline: str | None) -> str:
    """The configuration the others are compared with: the one named, else the first."""
    labels = [configuration.label for configuration in chosen]
    if baseline and baseline not in labels:
        fail(f"--baseline {baseline} is not one of --backends {','.join(labels)}")
    return baseline or labels[0]


def _read_sets(
    files: tuple[str, ...],
    input_format: str | None,
    box: str | None,
    no_download: bool,
    first: int | None,
) -> list[Any]:
    """The puzzle sets, read whole (broken data would mislead a benchmark): input errors are
    reported, and exit 2 unless the broken lines are kept as records of their own."""
    stream = puzzle_stream(files, input_format, box, no_download, first=first)
    puzzles = list(stream)
    report_input_errors(stream, 0)
    if stream.errors and not any(record.grid is None for record in puzzles):
        sys.exit(2)
    return puzzles


def _measure(session: Any, measure_setup: bool, results: str | None) -> str | None:
    """Run the session: replay, set-up, the timed runs, with progress on stderr. After a
    signal, the line that says where it stopped and how to resume (None: the run finished)."""
    from ..judging import SkippedLine
    from ..progress import Progress
    from ..text import plural

    progress = Progress(None)
    try:
        with session:
            for _ in session.replay():
                pass
            todo = session.remaining()
            if session.resumed:
                quiet_echo(
                    f"Resumed {results}: {session.resumed} of "
                    f"{plural(session.total, 'puzzle')} were already measured."
                )
            if measure_setup and todo:
                session.measure_setup(
                    todo,
                    starting=lambda configuration: progress.relabel(
                        f"bench set-up: {configuration.label} ", total=None
                    ),
                )
            progress.relabel("bench ", total=len(todo))
            for checked in session.run():
                assert not isinstance(checked, SkippedLine)  # a bench's input is checked first
                for answer in checked.answers:
                    if answer.status in ("wrong", "error"):
                        quiet_echo(
                            f"{checked.input.where}: {answer.label} {answer.status}: "
                            f"{answer.reason}"
                        )
                progress.advance()
                check_stop()
    except KeyboardInterrupt:
        progress.close()
        return (
            f"{signal_word()} after {session.kept()} of "
            f"{plural(session.total - session.resumed, 'puzzle')}; "
            f"{resume_hint(results)}."
        )
    except BrokenPipeError:
        progress.close()
        stdout_closed()
    progress.close()
    return None


def _show(session: Any, baseline: str, *, interrupted: bool = False) -> None:
    """The summary tables, their legend, and the one-off set-up; after an interrupt, the
    summary of the puzzles measured so far, marked `(interrupted)`."""
    from ..bench_statistics import statistics_available
    from ..render.bench import render_setup_text, render_summary_text, summary_legend
    from ..render.text import certified_line, fitted_labels, wrapped

    repeat = session.settings.repeat
    intervals = repeat > 1 and statistics_available()
    rows = session.summary(baseline)
    shorts = fitted_labels(
        lambda shown: render_summary_text(rows, baseline=baseline, shorts=shown),
        session.short_labels(),
    )
    if interrupted:
        echo("Summary so far (interrupted):")
    echo(render_summary_text(rows, baseline=baseline, shorts=shorts))
    if session.settings.certifier is not None:
        claims = [row.run.certified for row in session.rows if row.run.certified is not None]
        echo(certified_line(sum(claims), len(claims)))
    echo()
    legend = summary_legend(
        baseline=shorts.get(baseline, baseline),
        time_limit=session.settings.time_limit,
        repeat=repeat,
        intervals=intervals,
        ratio_name="ratio",
    )
    echo(wrapped(legend))
    if repeat > 1 and not intervals:
        quiet_echo(
            "Note: the 95% intervals and the Wilcoxon test need scipy, which is not "
            "installed: pip install '.[stats]' from a sudoku-cp checkout (or pip install scipy)"
        )
    if session.setup:
        echo()
        echo("One-off set-up, not in the times above:")
        echo(render_setup_text(session.setup))


__all__ = ["bench"]
