"""`sudoku-cp crosscheck`: several configurations on the same puzzles, every answer checked and
compared (the session is the library's `CrosscheckSession`)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

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
from .signals import EXIT_UNSOLVED, EXIT_USAGE, check_stop, quiet_echo, signal_word, stop_with

if TYPE_CHECKING:  # loaded when the command runs: --help stays fast
    from ..sessions import CrosscheckSession


@click.command(
    epilog="""Examples:

\b
  sudoku-cp crosscheck top95 --backends dfs,cpsat,sat
  sudoku-cp crosscheck 17clue -b dfs,sat --results r.jsonl   # then --resume
  sudoku-cp crosscheck puzzles.txt -b 'sat[solver=glucose3|cadical195]'"""
)
@input_options
@option(
    "--backends",
    "-b",
    "backend_list",
    default="dfs,cpsat,sat",
    help="Comma-separated backends or configurations to run and compare.",
)
@solve_options
@option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    default=None,
    show_default="the machine's cores",
    help="Worker processes, each keeping its backends warm.",
)
@first_option
@executor_options
@results_options
@renamed("--out", "--results", "results", type=click.Path(dir_okay=False))
@option(
    "--format",
    "output_format",
    type=click.Choice(["text", "jsonl"]),
    default="text",
    help="text: summary table and findings; jsonl: one record per puzzle (the summary "
    "goes to stderr).",
)
@run_command
def crosscheck(
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
    first: int | None,
    jobs: int | None,
    executor: str,
    scheduler: str | None,
    results: str | None,
    resume: bool,
    output_format: str,
    **given: Any,
) -> None:
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
    from ..executors import default_jobs
    from ..sessions import CrosscheckSession

    chosen = configurations([backend_list], given)
    if resume and not results:
        fail("--resume needs --results FILE (the results log of the run to continue)")
    jobs = jobs or default_jobs()
    stream = puzzle_stream(files, input_format, box, no_download, first=first)
    session = CrosscheckSession(
        stream,
        chosen,
        solve_settings(mode, limit, time_limit, certify, keep_proofs),
        inputs=list(files) or ["-"],
        results=results,
        resume=resume,
        executor=make_executor(executor, jobs, scheduler),
        jobs=jobs,
    )
    watch = _Watch(session, stream, output_format, _total(stream.paths, first))
    _run(session, watch, results)
    report_input_errors(stream, watch.shown)
    if stream.nothing_read and not session.new and not session.resumed:
        sys.exit(EXIT_USAGE)  # nothing could be read: the error lines say it all
    watch.finish()
    if stream.errors or session.invalid:
        sys.exit(EXIT_USAGE)
    sys.exit(EXIT_UNSOLVED if session.summary().problems else 0)


def _run(session: CrosscheckSession, watch: _Watch, results: str | None) -> None:
    """Run the session under its watch; an interrupt or a closed stdout stops with one line
    (the results so far kept, and how to resume)."""
    try:
        with session:
            watch.replay()
            watch.run()
    except KeyboardInterrupt:
        watch.close()
        watch.finish()
        stop_with(f"{signal_word()} after {_puzzles(session.kept())}: {resume_hint(results)}.")
    except BrokenPipeError:
        watch.close()
        stdout_closed()
    watch.close()


def _puzzles(count: int) -> str:
    from ..text import plural

    return plural(count, "puzzle")


def _total(paths: list[str], first: int | None) -> int | None:
    """The number of puzzles the input holds, when every source is a file (a progress total)."""
    from ..inputs import count_puzzles

    counts = [count_puzzles(path) for path in paths]
    if first is not None:
        counts = [None if count is None else min(count, first) for count in counts]
    return (
        None
        if any(count is None for count in counts)
        else sum(count for count in counts if count is not None)
    )


class _Watch:
    """What the terminal shows of a session: jsonl records, progress, input errors, the table."""

    def __init__(self, session: Any, stream: Any, output_format: str, total: int | None) -> None:
        from ..progress import Progress

        self.session = session
        self.stream = stream
        self.jsonl = output_format == "jsonl"
        self.shown = 0
        self.progress = Progress(total, label="crosscheck ")

    def replay(self) -> None:
        from ..formats import to_json_line

        for entry in self.session.replay():
            self.progress.advance(note=self.session.tally.note(), earlier=True)
            if self.jsonl:
                echo(to_json_line(entry.to_json()))

    def run(self) -> None:
        from ..formats import to_json_line
        from ..judging import SkippedLine

        for item in self.session.run():
            self.shown = report_input_errors(self.stream, self.shown)
            if isinstance(item, SkippedLine):
                quiet_echo(item.reason)
            elif self.jsonl:
                echo(to_json_line(item.to_entry().to_json()))
            self.progress.advance(note=self.session.tally.note())
            check_stop()

    def close(self) -> None:
        self.progress.close()

    def finish(self) -> None:
        """The summary table (and the findings): on stdout, or on stderr beside jsonl."""
        from ..render.crosscheck import render_crosscheck, render_crosscheck_summary
        from ..render.text import fitted_labels

        summary = self.session.summary()
        shorts = fitted_labels(
            lambda shown: render_crosscheck_summary(summary, shown), self.session.short_labels()
        )
        if self.jsonl:
            quiet_echo(render_crosscheck_summary(summary, shorts))
        else:
            echo(render_crosscheck(self.session.tally, summary, shorts))


__all__ = ["crosscheck"]
