"""The `sudoku-cp` command line: parse options, call the library, render, echo.

Exit codes: 0 every puzzle solved (or counted); 1 some puzzle has no solution, timed out, or a
backend disagreed / answered wrongly; 2 bad usage or unreadable input; 130 interrupted.
"""

from __future__ import annotations

import functools
import logging
import sys
from collections.abc import Callable
from typing import Any, NoReturn

import click

from . import __version__
from .backends import applicable_options, backend_class, backend_names, get_backend
from .errors import BackendFailure, SudokuError
from .formats import (OUTPUT_FORMATS, Layout, Loaded, format_answer, load_puzzles, result_record,
                      to_json_line)
from .grid import Shape, parse_box
from .progress import Progress
from .result import Mode, Status

EXIT_OK, EXIT_UNSOLVED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


class UsageFailure(click.ClickException):
    """A one-line error for bad usage or input: 'Error: ...' on stderr, exit 2."""

    exit_code = EXIT_USAGE


def fail(message: str) -> NoReturn:
    raise UsageFailure(message)


# -- shared options ------------------------------------------------------------------------------

def input_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """FILES, --input-format and --box: how puzzles are read, the same for every command."""
    command = click.option("--box", metavar="RxC",
                           help="Box shape, e.g. 2x3 for 6x6 (default: square, or the "
                                "squarest rectangle).")(command)
    command = click.option("--input-format", type=click.Choice([str(x) for x in Layout]),
                           help="Input layout (default: detected).")(command)
    return click.argument("files", nargs=-1, type=click.Path(dir_okay=False, allow_dash=True))(
        command)


def solve_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """--mode, --limit, --time-limit and the backend-specific options."""
    options = [
        click.option("--mode", type=click.Choice([str(m) for m in Mode]), default="lexmin",
                     show_default=True, help="lexmin: smallest completion row by row; any: some "
                     "completion; count: number of completions up to --limit."),
        click.option("--limit", type=click.IntRange(min=1), default=2, show_default=True,
                     help="Count mode: stop counting at this many completions."),
        click.option("--time-limit", type=click.FloatRange(min=0, min_open=True),
                     help="Seconds per puzzle; past it the puzzle is reported as timeout."),
        click.option("--workers", type=click.IntRange(min=1), help="cpsat: search workers."),
        click.option("--cpsat-strategy", type=click.Choice(["objective", "search"]),
                     help="cpsat lexmin: staged objective (default) or first solution of the "
                          "fixed row-major search."),
        click.option("--sat-solver", help="sat: python-sat solver name (default glucose3)."),
        click.option("--encoding", type=click.Choice(["minimal", "extended"]),
                     help="sat: CNF encoding (default extended)."),
        click.option("--amo", help="sat: at-most-one encoding (pairwise, seqcounter, ladder, ...)."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


BACKEND_OPTION_NAMES = ("workers", "cpsat_strategy", "sat_solver", "encoding", "amo")


def backend_options(names: list[str], given: dict[str, Any]) -> dict[str, Any]:
    """The backend options the user set, refusing any that none of the chosen backends takes."""
    options = {key: given.get(key) for key in BACKEND_OPTION_NAMES if given.get(key) is not None}
    for key, takers in applicable_options(names, options).items():
        if not takers:
            flag = "--" + key.replace("_", "-")
            owners = [name for name in backend_names() if key in backend_class(name).option_names]
            owned_by = ", ".join(owners) or "no registered backend"
            fail(f"{flag} applies to {owned_by}, not to {', '.join(names)}")
    return options


def parse_box_option(box: str | None) -> Shape | None:
    if box is None:
        return None
    try:
        return parse_box(box)
    except SudokuError as error:
        fail(str(error))


def load(files: tuple[str, ...], input_format: str | None, box: str | None) -> Loaded:
    """Read the puzzles of FILES (standard input when none); a source that fails is reported,
    and when no source could be read at all there is nothing to do: exit 2 at once."""
    loaded = load_puzzles(files or ("-",), layout=Layout(input_format) if input_format else None,
                          box=parse_box_option(box))
    for error in loaded.errors:
        click.echo(f"Error: {error}", err=True)
    if loaded.errors and not loaded.records:
        sys.exit(EXIT_USAGE)
    return loaded


def handle_errors(command: Callable[..., Any]) -> Callable[..., Any]:
    """Turn library errors into one line and exit 2, and Ctrl-C into exit 130."""
    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except SudokuError as error:
            raise UsageFailure(str(error)) from None
        except KeyboardInterrupt:
            click.echo("Interrupted.", err=True)
            sys.exit(EXIT_INTERRUPTED)
    return wrapper


# -- commands ------------------------------------------------------------------------------------

@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="sudoku-cp")
def main() -> None:
    """Lexicographically smallest Sudoku completions by search, CP-SAT and SAT."""
    logging.basicConfig(level=logging.WARNING, format="warning: %(message)s")


@main.command()
@input_options
@click.option("--backend", "-b", default="dfs", show_default=True,
              help=f"Solver backend: {', '.join(backend_names())}.")
@solve_options
@click.option("--format", "output_format", type=click.Choice(OUTPUT_FORMATS),
              help="Output layout (default: the input's layout).")
@handle_errors
def solve(files: tuple[str, ...], input_format: str | None, box: str | None, backend: str,
          mode: str, limit: int, time_limit: float | None, output_format: str | None,
          **given: Any) -> None:
    """Solve the puzzles of FILES (standard input when none, or '-').

    \b
    Input layouts, detected: 'grid' (N rows of N symbols), 'spaced' (N rows of N numbers),
    'line' (one puzzle of N*N symbols per line, 0 or . blank, A=10 .. P=25).
    """
    options = backend_options([backend], given)
    solver = get_backend(backend, **options)
    loaded = load(files, input_format, box)
    chosen_mode = Mode(mode)
    exit_code = EXIT_USAGE if loaded.errors else EXIT_OK
    progress = Progress(len(loaded.records) if len(loaded.records) > 1 else None, label="solve ")
    blocks_written = 0
    try:
        for record in loaded.records:
            layout = output_format or str(loaded.layouts[record.source])
            result = failure = None
            if record.grid is None:
                exit_code = EXIT_USAGE
                click.echo(f"{record.error}", err=True)
            else:
                try:
                    result = solver.solve(record.grid, mode=chosen_mode, limit=limit,
                                          time_limit=time_limit)
                except BackendFailure as error:  # the solver broke on this puzzle: go on
                    failure = f"{backend} failed: {error}"
                    click.echo(f"{record.where}: {failure}", err=True)
                    exit_code = max(exit_code, EXIT_UNSOLVED)
                    solver.close()
                    solver = get_backend(backend, **options)
                else:
                    exit_code = max(exit_code, _check(record, result))
            if layout == "jsonl":
                click.echo(to_json_line(result_record(record, result, backend=backend,
                                                      mode=chosen_mode, failure=failure)))
            else:
                if blocks_written and layout != "line":
                    click.echo()
                click.echo(format_answer(record, result, layout))
            blocks_written += 1
            progress.advance()
    except KeyboardInterrupt:
        progress.close()
        click.echo(f"Interrupted after {blocks_written} of {len(loaded.records)} puzzles.",
                   err=True)
        sys.exit(EXIT_INTERRUPTED)
    finally:
        solver.close()
    progress.close()
    sys.exit(exit_code)


def _check(record: Any, result: Any) -> int:
    """Verify a result with the one checker; report what is not solved on stderr."""
    if result.status is Status.SOLVED:
        if result.solution is not None:
            problem = result.solution.why_not_solution_of(record.grid)
            if problem:
                click.echo(f"{record.where}: {result.backend} returned a wrong answer: {problem}",
                           err=True)
                return EXIT_UNSOLVED
        return EXIT_OK
    reason = f": {result.reason}" if result.reason else ""
    click.echo(f"{record.where}: {result.status}{reason}", err=True)
    return EXIT_UNSOLVED


@main.command(name="backends")
def list_backends() -> None:
    """List the backends, whether each is available, and what it is."""
    for name in backend_names():
        cls = backend_class(name)
        state = "available" if cls.is_available() else "missing " + ",".join(cls.requires)
        click.echo(f"{name:<6} {state:<10} {cls.description}")


@main.command()
@input_options
@click.option("--index", type=click.IntRange(min=0), default=0, show_default=True,
              help="Which puzzle of the input to encode (0-based).")
@click.option("--encoding", type=click.Choice(["minimal", "extended"]), default="extended",
              show_default=True)
@click.option("--amo", default="pairwise", show_default=True, help="At-most-one encoding.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True), default="-",
              show_default=True, help="Where to write the DIMACS CNF.")
@handle_errors
def encode(files: tuple[str, ...], input_format: str | None, box: str | None, index: int,
           encoding: str, amo: str, output: str) -> None:
    """Write one puzzle's CNF in DIMACS, to run any SAT solver on it."""
    from .backends.sat import write_dimacs

    loaded = load(files, input_format, box)
    if loaded.errors:
        sys.exit(EXIT_USAGE)
    if index >= len(loaded.records):
        fail(f"--index {index} is past the last puzzle (the input has {len(loaded.records)})")
    record = loaded.records[index]
    if record.grid is None:
        fail(str(record.error))
    with click.open_file(output, "w") as handle:
        write_dimacs(record.grid, handle, encoding=encoding, amo=amo)


@main.command()
@input_options
@click.option("--backends", "backend_list", default="dfs,cpsat,sat", show_default=True,
              help="Comma-separated backends to run and compare.")
@solve_options
@click.option("--jobs", "-j", type=click.IntRange(min=1),
              help="Worker processes, each keeping its backends warm (default: the machine's "
                   "cores).")
@click.option("--results", type=click.Path(dir_okay=False),
              help="Append every puzzle's verdict to this JSON Lines file as it completes.")
@click.option("--resume", is_flag=True,
              help="Continue the run recorded in --results, skipping the puzzles it holds.")
@click.option("--format", "output_format", type=click.Choice(["text", "jsonl"]), default="text",
              show_default=True, help="text: summary table and findings; jsonl: one verdict "
                                      "per puzzle (the summary goes to stderr).")
@handle_errors
def crosscheck(files: tuple[str, ...], input_format: str | None, box: str | None,
               backend_list: str, mode: str, limit: int, time_limit: float | None,
               jobs: int | None, results: str | None, resume: bool, output_format: str,
               **given: Any) -> None:
    """Run several backends on the same puzzles, verify every answer and compare them.

    \b
    Every answer is verified, then compared:
      lexmin  identical solutions and unsatisfiable verdicts
      count   identical counts (capped at --limit)
      any     every completion valid, solvable/unsolvable verdicts identical
    Exit: 0 all agree (timeouts are reported, not held against); 1 an invalid
    answer, a disagreement or a backend error; 2 bad usage or input;
    130 interrupted (with --results, continue with --resume).
    """
    import collections
    import time

    from . import crosscheck as cross
    from .runner import BackendSpec, SolveSettings, default_jobs, run

    names = _parse_backend_list(backend_list)
    options = backend_options(names, given)
    for name in names:  # an unavailable solver or a refused option fails here, once, not per puzzle
        get_backend(name, **options).close()
    if resume and not results:
        fail("--resume needs --results FILE (the results file of the run to continue)")
    chosen_mode = Mode(mode)
    header = cross.settings_record(mode=chosen_mode, limit=limit, time_limit=time_limit,
                                   backends=names, options=options)
    loaded = load(files, input_format, box)
    bad_input = [record for record in loaded.records if record.grid is None]
    for record in bad_input:
        click.echo(f"{record.error}", err=True)
    results_file = (cross.ResultsFile.open(results, settings=header, resume=resume,
                                           puzzles=loaded.records) if results else None)
    verdicts = list(results_file.previous) if results_file else []
    done = {verdict["index"] for verdict in verdicts}
    todo = [record for record in loaded.records
            if record.grid is not None and record.index not in done]
    if output_format == "jsonl":
        for verdict in verdicts:  # so that a resumed run prints what an uninterrupted one does
            click.echo(to_json_line(verdict))
    tally = collections.Counter(verdict["verdict"] for verdict in verdicts)
    progress = Progress(len(todo) if len(todo) > 1 else None, label="crosscheck ")
    settings = SolveSettings(mode=chosen_mode, limit=limit, time_limit=time_limit)
    runs = run(todo, [BackendSpec(name, options) for name in names], settings,
               jobs=min(jobs or default_jobs(), max(1, len(todo))))  # no idle workers to start
    start = time.perf_counter()
    interrupted = False
    try:
        for verdict in cross.judge_runs(runs, backends=names, mode=chosen_mode):
            if results_file:
                results_file.append(verdict)
            verdicts.append(verdict)
            if output_format == "jsonl":
                click.echo(to_json_line(verdict))
            tally[verdict["verdict"]] += 1
            progress.advance(note=cross.progress_note(tally))
    except KeyboardInterrupt:
        interrupted = True
    finally:
        runs.close()  # stops the worker pool whatever ended the loop
        if results_file:
            results_file.close()
        progress.close()
    summary = cross.summarize(verdicts, backends=names, mode=chosen_mode,
                              resumed=len(done), wall_seconds=time.perf_counter() - start,
                              interrupted=interrupted, bad_input=len(bad_input))
    if output_format == "jsonl":
        click.echo(cross.render_summary(summary), err=True)
    else:
        click.echo(cross.render_report(verdicts, summary))
    if interrupted:
        finished = len(verdicts) - len(done)
        where = (f"the results so far are in {results}; to continue, run the same command "
                 f"with --resume" if results else "pass --results FILE to be able to resume")
        click.echo(f"Interrupted after {finished} of {len(todo)} puzzles: {where}.", err=True)
        sys.exit(EXIT_INTERRUPTED)
    if loaded.errors or bad_input:
        sys.exit(EXIT_USAGE)
    sys.exit(EXIT_UNSOLVED if summary.problems else EXIT_OK)


def _parse_backend_list(text: str) -> list[str]:
    """Backend names from 'dfs,cpsat,sat', refusing unknown names and repeats in one line."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    if not names:
        fail("--backends needs at least one backend name")
    unknown = [name for name in names if name not in backend_names()]
    if unknown:
        fail(f"unknown backend{'s' if len(unknown) > 1 else ''} "
             f"{', '.join(repr(name) for name in unknown)} in --backends "
             f"(choose from {', '.join(backend_names())})")
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        fail(f"--backends names {', '.join(repeated)} more than once")
    return names


# -- bench, plot, report ---------------------------------------------------------------------------
# bench.py, report.py and matplotlib are imported inside the commands: `solve` never loads them.

@main.command()
@input_options
@click.option("--backends", "backend_list", default="dfs,cpsat,sat", show_default=True,
              help="Comma-separated backends to time.")
@solve_options
@click.option("--repeat", type=click.IntRange(min=1), default=1, show_default=True,
              help="Timed solves per (puzzle, backend); a puzzle's time is their median.")
@click.option("--warmup", type=click.IntRange(min=0), default=0, show_default=True,
              help="Untimed solves of each puzzle before its timed ones.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True,
              help="Worker processes. Keep 1 for timings: parallel runs on this 2-core machine "
                   "compete for cores and caches and distort them.")
@click.option("--out", type=click.Path(dir_okay=False),
              help="Write every run to this .jsonl or .csv file, flushed puzzle by puzzle.")
@click.option("--resume", is_flag=True,
              help="Continue --out: skip the (puzzle, backend) pairs it already holds.")
@click.option("--baseline", metavar="BACKEND",
              help="Backend of the ratio column (default: the first of --backends).")
@click.option("--limit-puzzles", type=click.IntRange(min=1), metavar="K",
              help="Only the first K puzzles of each file.")
@click.option("--setup/--no-setup", "measure_setup", default=True, show_default=True,
              help="First measure imports and first-solve costs in fresh interpreters.")
@handle_errors
def bench(files: tuple[str, ...], input_format: str | None, box: str | None,
          backend_list: str, mode: str, limit: int, time_limit: float | None, repeat: int,
          warmup: int, jobs: int, out: str | None, resume: bool, baseline: str | None,
          limit_puzzles: int | None, measure_setup: bool, **given: Any) -> None:
    """Time backends over puzzle sets (one set per file) and print the summary table.

    \b
    Every timed answer is verified; a wrong one is counted, never timed. Imports and
    one-off set-up are measured apart, in fresh interpreters, and kept out of the times.
    PAR-2 needs --time-limit. Progress goes to stderr.
    Exit: 0 every answer right (timeouts included), 1 a wrong answer or a backend error,
    2 bad usage or input, 130 interrupted (resume with --resume).
    """
    import shlex
    from pathlib import Path

    from . import bench as measuring
    from .report import (ResultsWriter, load_results, render_setup_text, render_summary_text,
                         results_format, summary_legend)
    from .runner import BackendSpec, SolveSettings

    names = _parse_backend_list(backend_list)
    options = backend_options(names, given)
    for name in names:  # an unavailable solver or a refused option fails here, before timing
        get_backend(name, **options).close()
    baseline = baseline or names[0]
    if baseline not in names:
        fail(f"--baseline {baseline} is not one of --backends {','.join(names)}")
    if resume and not out:
        fail("--resume needs --out FILE (the results file of the run to continue)")
    specs = [BackendSpec(name, {key: value for key, value in options.items()
                                if key in backend_class(name).option_names}) for name in names]
    settings = SolveSettings(Mode(mode), limit, time_limit, warmup, repeat)
    loaded = load_puzzles(files or ("-",), layout=Layout(input_format) if input_format else None,
                          box=parse_box_option(box))
    sets = measuring.puzzle_sets(loaded, limit_puzzles=limit_puzzles)
    command = shlex.join(["sudoku-cp", *sys.argv[1:]])

    def header(setup: dict[str, Any]) -> dict[str, Any]:
        return measuring.environment(specs=specs, settings=settings, sets=sets, jobs=jobs,
                                     baseline=baseline, command=command,
                                     limit_puzzles=limit_puzzles, setup=setup)

    previous = None
    if out:
        results_format(out)
        target = Path(out)
        if target.exists() and target.stat().st_size > 0:
            if not resume:
                fail(f"{out} already holds results: add --resume to continue it, or choose "
                     f"another --out")
            previous = load_results(out)
            measuring.check_resumable(previous.header or header({}), header({}))
    done = measuring.completed_keys(previous.records, repeat=repeat) if previous else set()
    plan = measuring.plan_runs(sets, specs, mode=settings.mode, done=done)
    setup = measuring.measure_setup(specs, sets, settings) if measure_setup and plan.total else {}
    session = {**header(setup), **({"resumed": True} if previous else {})}
    records = list(previous.records) if previous else []
    writer = ResultsWriter(out, session) if out and plan.total else None
    progress = Progress(plan.total, label="bench ")
    runs = measuring.measure(plan, settings, jobs=jobs)
    try:
        for puzzle in runs:
            records.extend(puzzle)
            if writer:
                writer.write(puzzle)
            for record in puzzle:
                if record["status"] in (measuring.WRONG, measuring.ERROR):
                    click.echo(f"{record['set']}:{record['index']}: {record['backend']} "
                               f"{record['status']}: {record['reason']}", err=True)
            progress.advance()
    except KeyboardInterrupt:
        progress.close()
        where = (f"the finished ones are in {out}: run the same command with --resume to "
                 f"continue" if out else "pass --out FILE to be able to resume")
        click.echo(f"Interrupted after {progress.done} of {plan.total} puzzles; {where}.",
                   err=True)
        sys.exit(EXIT_INTERRUPTED)
    finally:
        runs.close()
        if writer:
            writer.close()
    progress.close()
    if previous:
        puzzles = sum(len(puzzle_set.records) for puzzle_set in sets)
        click.echo(f"Resumed {out}: {puzzles - plan.total} of {puzzles} puzzles were already "
                   f"measured.", err=True)
    rows = measuring.summarize(records, time_limit=time_limit, baseline=baseline)
    click.echo(render_summary_text(rows, baseline=baseline))
    click.echo()
    click.echo(summary_legend(baseline=baseline, time_limit=time_limit, repeat=repeat))
    if setup:
        click.echo()
        click.echo("One-off set-up, not in the times above:")
        click.echo(render_setup_text(setup))
    sys.exit(EXIT_UNSOLVED if measuring.has_failures(records) else EXIT_OK)


@main.command()
@click.argument("results_files", metavar="RESULTS...", nargs=-1, required=True,
                type=click.Path(dir_okay=False))
@click.option("--kind", type=click.Choice(["cactus", "scatter", "scaling"]), default="cactus",
              show_default=True, help="cactus: puzzles solved vs time, per set; scatter: two "
              "backends per puzzle, log-log; scaling: time vs grid size or givens.")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False),
              help="Image file: .png, .svg or .pdf.")
@click.option("--x", "x_backend", metavar="BACKEND",
              help="scatter: backend on the x axis (default: the first in the results).")
@click.option("--y", "y_backend", metavar="BACKEND",
              help="scatter: backend on the y axis (default: the next one).")
@click.option("--by", type=click.Choice(["size", "givens"]),
              help="scaling: the x axis (default: size when the results hold several sizes).")
@handle_errors
def plot(results_files: tuple[str, ...], kind: str, output: str, x_backend: str | None,
         y_backend: str | None, by: str | None) -> None:
    """Plot results files written by `sudoku-cp bench --out` (needs matplotlib).

    Several files (one per mode, say) are plotted together, a line style per mode.
    """
    from .report import check_plot_path, load_many, plot_figure, save_figure

    check_plot_path(output)
    results = load_many(results_files)
    figure = plot_figure(results.records, kind, time_limit=results.time_limit, x=x_backend,
                         y=y_backend, by=by)
    save_figure(figure, output)


@main.command()
@click.argument("results_files", metavar="RESULTS...", nargs=-1, required=True,
                type=click.Path(dir_okay=False))
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False),
              help="Markdown file; the plots go next to it as STEM-cactus.png, ...")
@click.option("--baseline", metavar="BACKEND",
              help="Backend of the ratio column (default: the one the results were run with).")
@click.option("--plots/--no-plots", "with_plots", default=True, show_default=True,
              help="Draw the plots (they need matplotlib).")
@handle_errors
def report(results_files: tuple[str, ...], output: str, baseline: str | None,
           with_plots: bool) -> None:
    """Write a Markdown report of results files: environment, tables and plots.

    Several files (one per mode, say) make one report, with a mode column.
    """
    from pathlib import Path

    from .report import (PLOT_KINDS, PlotUnavailableError, ResultsFileError, load_many,
                         plot_figure, render_markdown_report, save_figure)

    results = load_many(results_files)
    chosen = results.baseline(baseline)
    target = Path(output)
    if target.suffix.lower() not in (".md", ".markdown"):
        fail(f"{output}: the report is Markdown: name it .md")
    plots: dict[str, str] = {}
    backends = {record["backend"] for record in results.records}
    if with_plots:
        try:
            for kind in PLOT_KINDS:
                if kind == "scatter" and len(backends) < 2:
                    continue  # a scatter compares two backends
                image = target.with_name(f"{target.stem}-{kind}.png")
                save_figure(plot_figure(results.records, kind, time_limit=results.time_limit),
                            image)
                plots[kind] = image.name  # relative: the report and its images move together
        except PlotUnavailableError as error:
            click.echo(f"Warning: {error}; the report has no plots.", err=True)
    text = render_markdown_report(results.records, results.combined_header(), plots,
                                  baseline=chosen)
    try:
        target.write_text(text, encoding="utf-8")
    except OSError as error:
        raise ResultsFileError(f"{output}: cannot write: {error.strerror or error}") from None


# -- generate ------------------------------------------------------------------------------------

@main.command(name="generate")
@click.option("--size", type=int, default=9, show_default=True,
              help="Grid size N: 4, 6, 9, 16, 25, ...")
@click.option("--box", metavar="RxC",
              help="Box shape, e.g. 2x3 for 6x6 (default: square, or the squarest rectangle).")
@click.option("--count", type=int, default=1, show_default=True, help="How many puzzles.")
@click.option("--givens", metavar="A..B",
              help="Givens per puzzle, a target drawn from A..B (default: by size, e.g. 22..32 "
                   "for 9x9); unique, unsat and adversarial may stop above it at a minimal "
                   "puzzle.")
@click.option("--kind", type=click.Choice(["unique", "multi", "unsat", "adversarial"]),
              default="unique", show_default=True,
              help="unique: one completion; multi: two or more; unsat: none, with no repeated "
                   "given; adversarial: one, and costly for the naive row-major DFS.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Random seed: the same seed and version give the same puzzles.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True), default="-",
              show_default=True, help="Where to write the puzzles.")
@click.option("--format", "output_format", type=click.Choice(["line", "jsonl"]), default="line",
              show_default=True, help="line: one puzzle per line after '#' comments with the "
                                      "command and each puzzle's facts; jsonl: one object each.")
@handle_errors
def generate_command(size: int, box: str | None, count: int, givens: str | None, kind: str,
                     seed: int, output: str, output_format: str) -> None:
    """Make puzzles from a seed: unique, multi, unsat or adversarial.

    The same command and version give the same puzzles on any machine.
    """
    from . import generate as generation

    if count < 1:
        fail(f"--count must be at least 1, got {count}")
    request = generation.make_request(kind, size=size, box=parse_box_option(box), givens=givens,
                                      seed=seed, count=count)
    progress = Progress(count if count > 1 else None, label=f"generate {kind} ")
    made: list[Any] = []
    with click.open_file(output, "w") as handle:
        if output_format == "line":
            handle.write("\n".join(generation.header_lines(request, version=__version__)) + "\n")
        try:
            for generated in generation.generate(request):
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
        click.echo(f"Note: {outside} of {count} puzzles stopped at a minimal puzzle outside "
                   f"--givens {request.givens}.", err=True)
