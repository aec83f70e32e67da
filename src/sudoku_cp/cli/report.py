"""`sudoku-cp plot` and `sudoku-cp report`: figures and reports of results logs."""

from __future__ import annotations

from typing import Any

import click

from .options import LazyChoice, option
from .output import fail, output_file, run_command
from .signals import quiet_echo


def _plot_kinds() -> list[str]:
    from ..plots import PLOT_KINDS

    return list(PLOT_KINDS)


def _scaling_axes() -> list[str]:
    from ..plots import SCALING_AXES

    return list(SCALING_AXES)


@click.command(
    epilog="""Examples:

\b
  sudoku-cp plot r.jsonl --kind cactus -o cactus.png
  sudoku-cp plot r.jsonl --kind scatter --x-backend dfs --y-backend sat \\
      -o s.png"""
)
@click.argument(
    "results_files", metavar="RESULTS...", nargs=-1, required=True, type=click.Path(dir_okay=False)
)
@option(
    "--kind",
    type=LazyChoice(_plot_kinds),
    default="cactus",
    help="cactus: puzzles solved vs time, per set; scatter: two backends per "
    "puzzle, log-log; scaling: time vs grid size or givens.",
)
@option(
    "-o",
    "--output",
    required=True,
    type=click.Path(dir_okay=False),
    help="Image file: .png, .svg or .pdf.",
)
@option(
    "--x-backend",
    "--x",
    "x_backend",
    metavar="BACKEND",
    default=None,
    show_default="the first",
    help="scatter: the x axis.",
)
@option(
    "--y-backend",
    "--y",
    "y_backend",
    metavar="BACKEND",
    default=None,
    show_default="the next",
    help="scatter: the y axis.",
)
@option(
    "--by",
    type=LazyChoice(_scaling_axes),
    default=None,
    show_default="size when there are several",
    help="scaling: the x axis.",
)
@run_command
def plot(
    results_files: tuple[str, ...],
    kind: str,
    output: str,
    x_backend: str | None,
    y_backend: str | None,
    by: str | None,
) -> None:
    """Plot results logs written by `bench` or `crosscheck --results` (needs matplotlib).

    Several files (one per mode, say) are plotted together, a line style per mode. Times are in
    ms; configurations are named by their short labels, listed with the full ones.
    """
    from ..labels import short_texts_of
    from ..plots import check_plot_path, plot_figure, save_figure
    from ..render.text import label_legend
    from ..results_log.reader import load_results

    check_plot_path(output)
    results = load_results(*results_files)
    names = short_texts_of(results)
    figure = plot_figure(
        list(results.rows()),
        kind,
        time_limit=results.time_limit,
        x=x_backend,
        y=y_backend,
        by=by,
        names=names,
    )
    save_figure(figure, output)
    quiet_echo("\n".join([f"Wrote {output}", *label_legend(names)]))


REPORT_FORMATS = {
    ".md": "md",
    ".markdown": "md",
    ".tex": "tex",
    ".csv": "csv",
    ".html": "html",
    ".htm": "html",
    ".json": "json",
}


@click.command(
    epilog="""Examples:

\b
  sudoku-cp report r.jsonl -o report.md     # Markdown, with plots next to it
  sudoku-cp report r.jsonl -o report.html   # a self-contained page to browse
  sudoku-cp report r.jsonl -o table.tex     # LaTeX (booktabs) summary table
  sudoku-cp report r.jsonl -o summary.csv   # the summary as CSV
  sudoku-cp report r.jsonl -o scores.json   # solved, PAR-2, Borda, VBS"""
)
@click.argument(
    "results_files", metavar="RESULTS...", nargs=-1, required=True, type=click.Path(dir_okay=False)
)
@option(
    "-o",
    "--output",
    required=True,
    type=click.Path(dir_okay=False),
    help="report.md (with plots STEM-cactus.png, ... next to it), .html, .tex, .csv, or "
    ".json (the scores).",
)
@option(
    "--format",
    "report_format",
    type=click.Choice(["md", "html", "tex", "csv", "json"]),
    default=None,
    show_default="from the suffix of --output",
    help="The kind of report, whatever the file is called.",
)
@option(
    "--baseline",
    metavar="BACKEND",
    default=None,
    show_default="the run's",
    help="Configuration of the ratio column.",
)
@option(
    "--plots/--no-plots",
    "with_plots",
    default=True,
    help="Draw the plots of a Markdown report (they need matplotlib).",
)
@run_command
def report(
    results_files: tuple[str, ...],
    output: str,
    report_format: str | None,
    baseline: str | None,
    with_plots: bool,
) -> None:
    """Write a report of results logs: Markdown (environment, tables and plots), an HTML page
    to browse (tables, interactive plots, every puzzle), a LaTeX table, the summary as CSV, or
    the scores as JSON. Several files (one per mode, say) make one report; an HTML report also
    takes the reports of `certify --report` beside the logs they certify."""
    from pathlib import Path

    target = Path(output)
    kind = report_format or REPORT_FORMATS.get(target.suffix.lower())
    if kind is None:
        fail(
            f"{output}: name the report .md (Markdown), .html, .tex (LaTeX), .csv or .json "
            f"(the scores), or choose with --format"
        )
    folder = target.parent
    if not folder.is_dir():  # before the plots beside it, which would be blamed instead
        fail(f"{output}: cannot write: the folder {folder} does not exist")
    if kind != "html":
        _no_certify_reports(results_files)
    written: list[str] = []
    text = _html(results_files, baseline) if kind == "html" else None
    if text is None:
        text = _document(results_files, kind, target, baseline, with_plots, written)
    with output_file(output) as handle:
        handle.write(text)
    if output != "-":
        quiet_echo(f"Wrote {output}" + (f" and {', '.join(written)}" if written else ""))


def _no_certify_reports(results_files: tuple[str, ...]) -> None:
    """A certify report given to a report other than HTML: one line saying where it goes."""
    from ..report_html import is_certify_report

    for path in results_files:
        if is_certify_report(path):
            fail(
                f"{path} is a certify report: certify reports go in HTML reports "
                f"(-o report.html, beside the logs they certify)"
            )


def _html(results_files: tuple[str, ...], baseline: str | None) -> str:
    from ..report_html import load_report_inputs, render_html_report

    inputs = load_report_inputs(results_files)
    return render_html_report(inputs, baseline=_baseline(inputs.results, baseline))


def _document(
    results_files: tuple[str, ...],
    kind: str,
    target: Any,
    baseline: str | None,
    with_plots: bool,
    written: list[str],
) -> str:
    """The Markdown report (its plots' files added to `written`), the LaTeX table, the CSV
    summary, or the scores as JSON."""
    from ..render.bench import render_summary_csv, render_summary_latex
    from ..report import render_markdown_report
    from ..results_log.reader import load_results
    from ..scores import scored_summary

    results = load_results(*results_files)
    chosen = _baseline(results, baseline)
    if kind == "md":
        missing: dict[str, str] = {}
        plots = _report_plots(results, target, missing) if with_plots else {}
        written += [str(target.with_name(name)) for name in plots.values()]
        return render_markdown_report(results, plots, baseline=chosen, missing=missing)
    if kind == "json":
        import json

        from ..bench_statistics import puzzle_outcomes
        from ..scores import score

        scores = score(puzzle_outcomes(results.rows()), time_limit=results.time_limit)
        return json.dumps(scores.to_json(), indent=1) + "\n"
    rows = scored_summary(
        results.rows(), time_limit=results.time_limit, baseline=chosen, intervals=results.repeat > 1
    )
    return (
        render_summary_latex(rows, baseline=chosen) if kind == "tex" else render_summary_csv(rows)
    )


def _baseline(results: Any, chosen: str | None) -> str | None:
    labels = results.labels()
    if chosen is not None:
        if chosen not in labels:
            fail(f"no results for baseline {chosen!r} (the results hold {', '.join(labels)})")
        return chosen
    named = results.header.settings.get("baseline") if results.header else None
    return named if named in labels else (labels[0] if labels else None)


def _report_plots(results: Any, target: Any, missing: dict[str, str]) -> dict[str, str]:
    """The plots of a Markdown report, drawn beside it: kind -> the image's name; a plot the
    results cannot show (a scaling plot of one givens count) goes to `missing`, with why."""
    from ..errors import PlotUnavailableError
    from ..labels import short_texts_of
    from ..plots import PLOT_KINDS, plot_figure, save_figure, scaling_shortfall

    plots: dict[str, str] = {}
    runs = list(results.rows())
    names = short_texts_of(results)
    try:
        for kind in PLOT_KINDS:
            if kind == "scatter" and len(results.labels()) < 2:
                continue  # a scatter compares two backends
            shortfall = scaling_shortfall(runs) if kind == "scaling" else None
            if shortfall is not None:
                missing[kind] = shortfall
                continue
            image = target.with_name(f"{target.stem}-{kind}.png")
            figure = plot_figure(runs, kind, time_limit=results.time_limit, names=names)
            save_figure(figure, image)
            plots[kind] = image.name  # relative: the report and its images move together
        if any(row.entry.rating for row in runs):  # bench --rating: time against rating
            shortfall = scaling_shortfall(runs, by="rating")
            if shortfall is not None:
                missing["rating"] = shortfall
            else:
                image = target.with_name(f"{target.stem}-rating.png")
                save_figure(plot_figure(runs, "scaling", by="rating", names=names), image)
                plots["rating"] = image.name
    except PlotUnavailableError as error:
        quiet_echo(f"Warning: {error}; the report has no plots.")
    return plots


__all__ = ["plot", "report"]
