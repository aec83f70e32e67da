"""The HTML report of results logs: one self-contained page to browse a comparison.

`render_html_report(inputs, baseline=...)` returns the page as text: the summary table per
configuration (sortable), cactus, scatter and scaling plots (interactive: hover shows the puzzle,
a click opens it), the per-puzzle table (filtered, sorted, drawn a screenful at a time) whose rows
open the puzzle drawn as grids with the cells the verifier objects to marked and its explanation
stepped through (`explanations`), and every session's environment and exact command line.

Everything is inline (styles, scripts, data): the page opens from `file://` with no network. The
page is a Jinja2 template (`templates/report.html.j2`) with its CSS and scripts as package data
(`static/`); the data it shows is built by `payload` and `tables` from the library's own
statistics, and the plots are drawn by the page's own small canvas script (`static/plots.js`).
"""

from __future__ import annotations

from importlib import resources
from typing import Any

from .._version import __version__
from ..bench_statistics import puzzle_outcomes
from .certificates import ReportInputs, is_certify_report, load_report_inputs
from .explanations import puzzle_explanations
from .payload import (
    configuration_list,
    meta_data,
    pack,
    puzzle_columns,
    puzzle_details,
    to_json,
)
from .tables import session_list, summary_table

SCRIPTS = ("data.js", "plots.js", "puzzles.js", "page.js")  # in load order


def _static(name: str) -> str:
    text = (resources.files(__name__) / "static" / name).read_text(encoding="utf-8")
    assert "</script" not in text.lower(), f"{name} would end its <script> element"
    return text


def _template() -> Any:
    import jinja2

    environment = jinja2.Environment(
        loader=jinja2.PackageLoader(__name__, "templates"),
        autoescape=jinja2.select_autoescape(default=True),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    environment.filters["groupby_span"] = _group_spans
    return environment.get_template("report.html.j2")


def _group_spans(columns: Any) -> list[tuple[str, int]]:
    """Runs of columns under one group title, as (title, how many columns)."""
    spans: list[tuple[str, int]] = []
    for column in columns:
        if spans and spans[-1][0] == column.group and column.group:
            spans[-1] = (column.group, spans[-1][1] + 1)
        else:
            spans.append((column.group, 1))
    return spans


def render_html_report(
    inputs: ReportInputs, *, baseline: str | None = None, title: str | None = None
) -> str:
    """The whole page. `baseline` names the configuration of the ratio column and of the
    'slower than the baseline' filter (None: no ratio); `title` heads the page (default: the
    names of the results logs)."""
    results = inputs.results
    labels, shorts = configuration_list(results)
    certified = bool(inputs.certifications)
    rows = list(results.rows())
    outcomes = puzzle_outcomes(rows)  # once, for the summary and the columns
    columns = puzzle_columns(results, labels, outcomes, inputs.certifications)
    explanations = puzzle_explanations(results.entries)
    details = "\n".join(puzzle_details(results, labels, inputs.certifications, explanations))
    summary = summary_table(
        results, rows, outcomes, shorts, inputs.certifications, baseline=baseline
    )
    return str(
        _template().render(
            title=title or ", ".join(results.paths),
            tool=f"sudoku-cp {__version__}",
            meta=meta_data(results, labels, shorts, baseline=baseline, certified=certified),
            summary=summary,
            sessions=session_list(results),
            certify_reports=inputs.certify_reports,
            columns=pack(to_json(columns)),
            details=pack(details),
            css=_static("report.css"),
            scripts=[_static(name) for name in SCRIPTS],
        )
    )


__all__ = ["ReportInputs", "is_certify_report", "load_report_inputs", "render_html_report"]
