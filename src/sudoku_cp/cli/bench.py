"""`sudoku-cp bench`: time configurations over puzzle sets (the session is the library's
`BenchSession`) and print the summary table."""

from __future__ import annotations

import sys
from typing import Any

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
    bench_solve_options,
    executor_options,
    first_option,
    input_options,
    option,
    renamed,
    results_options,
)
from .output import echo, fail, run_command, stdout_closed
from .signals import EXIT_OK, EXIT_UNSOLVED, check_stop, quiet_echo, signal_word, stop_with
from .study import study_option


@click.command(
    epilog="""Examples:

\b
  sudoku-cp bench top95 --backends dfs,cpsat,sat --results r.jsonl
  sudoku-cp bench 17clue --first 1000 --repeat 3 --time-limit 10 \\
      --results r.jsonl
  sudoku-cp report r.jsonl -o report.html
  sudoku-cp bench --config studies/families.toml --first 5 --time-limit 1"""
)
@study_option(comma_lists=("backend_list", "mode"))
@input_options
@option(
    "--backends",
    "-b",
    "backend_list",
    default="dfs,cpsat,sat",
    help="Comma-separated backends or configurations to time.",
)
@bench_solve_options
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
@option(
    "--backend-file",
    "backend_files",
    metavar="NAME=PATH:CLASS",
    multiple=True,
    help="Also a backend NAME: the Backend class CLASS of PATH (a .py file or a package "
    "folder), e.g. an older revision's copy for an A/B. May be repeated.",
)
@option(
    "--stop-at-timeout",
    is_flag=True,
    default=False,
    show_default=False,
    help="A configuration that times out on a puzzle runs no later puzzle of that size or "
    "larger (each a timeout, not run): a scaling series ends at its first timeout. Needs "
    "--executor fresh or inline.",
)
@option(
    "--report",
    "reports",
    metavar="FILE",
    multiple=True,
    help="At the end, write this report of the results logs beside them (a relative FILE is "
    "taken from their folder), as `sudoku-cp report -o FILE` does (.md, .html, .tex, .csv, "
    ".json); may be repeated. Needs --results.",
)
@run_command
def bench(
    files: tuple[str, ...],
    input_format: str | None,
    box: str | None,
    no_download: bool,
    backend_list: str,
    mode: str,
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
    reports: tuple[str, ...],
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
    _register_files(given.pop("backend_files"))
    chosen = configurations([backend_list], given)
    baseline = _baseline(chosen, baseline)
    _needs_results(results, resume=resume, reports=reports)
    modes = mode.split(",")
    logs = _mode_logs(results, modes)
    if executor == "local" and jobs == 1 and isolate:
        executor = "isolated"
    _check_stop_at_timeout(given, executor, jobs)
    puzzles = _read_sets(files, input_format, box, no_download, first)
    failed = _run_modes(
        puzzles,
        chosen,
        _mode_settings(modes, given),
        logs,
        inputs=list(files) or ["-"],
        resume=resume,
        executor=(executor, jobs, scheduler),
        extra_settings={"baseline": baseline, "first": first},
        measure_setup=measure_setup,
        baseline=baseline,
        rating=rating,
    )
    _write_reports(reports, results, [log for log in logs if log], baseline)
    sys.exit(EXIT_UNSOLVED if failed else EXIT_OK)


def _needs_results(results: str | None, *, resume: bool, reports: tuple[str, ...]) -> None:
    if resume and not results:
        fail("--resume needs --results FILE (the results log of the run to continue)")
    if reports and not results:
        fail("--report needs --results FILE (the results log the report is made of)")


def _run_modes(
    puzzles: list[Any],
    chosen: list[Any],
    settings: dict[str, Any],
    logs: list[str | None],
    **session_options: Any,
) -> bool:
    """A session per mode, one after the other, each with its log and its tables (under the
    mode's name when there are several); whether an answer was wrong or failed."""
    failed = False
    for number, (mode, log) in enumerate(zip(settings, logs, strict=True)):
        if len(settings) > 1:
            echo(("\n" if number else "") + f"Mode {mode} ({log or 'no log'}):")
        failed |= _bench_mode(puzzles, chosen, settings[mode], results=log, **session_options)
    return failed


def _mode_settings(modes: list[str], given: dict[str, Any]) -> dict[str, Any]:
    """Each mode's `SolveSettings`, from the solve options (the command's other keywords)."""
    return {
        mode: solve_settings(
            mode,
            given["limit"],
            given["time_limit"],
            given["certify"],
            given["keep_proofs"],
            warmup=given["warmup"],
            repeat=given["repeat"],
            prime=True,
            stop_at_timeout=given["stop_at_timeout"],
        )
        for mode in modes
    }


def _register_files(backend_files: tuple[str, ...]) -> None:
    """The backends of --backend-file, in the registry before the configurations are read."""
    from ..backends.from_file import register_file_backend

    for given in backend_files:
        register_file_backend(given)


def _check_stop_at_timeout(given: dict[str, Any], executor: str, jobs: int) -> None:
    """--stop-at-timeout acts on the puzzles after a timeout: the workers must learn of it
    before they take the next puzzle, which only this process and its fresh children do."""
    if given["stop_at_timeout"] and not (
        executor == "fresh" or (executor in ("inline", "local") and jobs == 1)
    ):
        fail(
            f"--stop-at-timeout needs --executor fresh or inline (with --executor {executor}"
            f"{'' if jobs == 1 else f' -j {jobs}'}, workers take puzzles ahead of the timeouts)"
        )


def _mode_logs(results: str | None, modes: list[str]) -> list[str | None]:
    """Each mode's results log: the one named, or with several modes one each beside it,
    named after its mode (r.jsonl: r-lexmin.jsonl, r-any.jsonl)."""
    from pathlib import Path

    if results is None or len(modes) == 1:
        return [results] * len(modes)
    path = Path(results)
    return [str(path.with_name(f"{path.stem}-{mode}{path.suffix}")) for mode in modes]


def _bench_mode(
    puzzles: list[Any],
    chosen: list[Any],
    settings: Any,
    *,
    executor: tuple[str, int, str | None],
    measure_setup: bool,
    baseline: str,
    **session_options: Any,
) -> bool:
    """One mode's session: run, shown; whether an answer was wrong or failed."""
    from ..sessions import BenchSession

    name, jobs, scheduler = executor
    session = BenchSession(
        puzzles,
        chosen,
        settings,
        executor=make_executor(name, jobs, scheduler),
        jobs=jobs,
        **session_options,
    )
    stopped = _measure(session, measure_setup, session_options["results"])
    if stopped is not None:  # after a signal: what was measured, if anything, then exit
        if session.rows:
            _show(session, baseline, interrupted=True)
        stop_with(stopped)
    _show(session, baseline)
    return bool(session.failed)


def _write_reports(
    reports: tuple[str, ...], results: str | None, logs: list[str], baseline: str
) -> None:
    """The reports asked for, each of every mode's log, as `sudoku-cp report` writes them,
    beside the results log (a relative path is taken from its folder)."""
    from pathlib import Path

    from .report import report

    context = click.get_current_context()
    folder = Path(results or ".").parent
    for path in reports:
        context.invoke(
            report,
            results_files=tuple(logs),
            output=str(folder / path),
            report_format=None,
            baseline=baseline,
            with_plots=True,
        )


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
