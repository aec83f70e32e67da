"""The Markdown report of results logs: every session's environment and set-up, the summary
table with its legends, and the plots (drawn by `plots.py`). Pure: returns text. Every string
taken from a log is escaped (`render.markup`): a label or a file name shows as itself, never as
HTML, a table cell's end, code or a link."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from .labels import ShortLabel, described, labels_of
from .render.bench import format_milliseconds, render_summary_markdown, summary_legend
from .render.markup import markdown_code, markdown_text
from .results_log.reader import Results
from .results_log.records import Header
from .scores import scored_summary


def environment_rows(header: Header | None) -> list[tuple[str, str]]:
    """A session header as (name, value) rows: date, command line, versions, machine, the
    configurations, the settings and the inputs (empty for no header)."""
    if header is None:
        return []
    settings = header.settings
    machine: Mapping[str, Any] = header.environment or {}
    versions = ", ".join(
        f"{name} {version}" for name, version in machine.get("versions", {}).items()
    )
    load = machine.get("load_average")
    time_limit = header.time_limit
    backends = ", ".join(described(item) for item in header.configurations)
    rows = [
        ("date", machine.get("date", "")),
        ("command", command_line(header)),
        ("tool", machine.get("tool", "")),
        ("Python", machine.get("python", "")),
        ("packages", versions),
        ("platform", machine.get("platform", "")),
        (
            "CPU",
            f"{machine.get('cpu', '')}, {machine.get('cores', '?')} cores "
            f"({machine.get('usable_cores', '?')} usable)",
        ),
        (
            "load average at start",
            " / ".join(f"{value:g}" for value in load) + " (1/5/15 min)" if load else "unknown",
        ),
        ("backends", backends),
        (
            "settings",
            f"mode {settings.get('mode')}, time limit "
            f"{f'{time_limit:g} s' if time_limit is not None else 'none'}, warm-up "
            f"{settings.get('warmup')}, repeat {settings.get('repeat')}, jobs "
            f"{machine.get('jobs')}"
            + (f", first {settings['first']} puzzles of each set" if settings.get("first") else "")
            + (" (a resumed session)" if header.resumed else ""),
        ),
        ("inputs", ", ".join(inputs_of(header))),
    ]
    return [(name, str(value)) for name, value in rows]


def command_line(header: Header) -> str:
    """The exact command line of a session (`argv`, as the CLI records it), else its command."""
    return str((header.environment or {}).get("argv") or header.command)


def inputs_of(header: Header) -> list[str]:
    """The session's inputs: the files or set names as given."""
    found = header.inputs or (header.environment or {}).get("inputs") or []
    return [str(path) for path in found]


def render_environment_markdown(header: Header | None) -> str:
    """A session header as a two-column Markdown table."""
    if header is None:
        return "_No header: the environment was not recorded._"
    rows = environment_rows(header)
    lines = ["| | |", "|:---|:---|"]
    for name, value in rows:
        if name == "command":
            value = markdown_code(value)
        elif name == "inputs":  # each path as code
            value = ", ".join(markdown_code(path) for path in inputs_of(header))
        else:
            value = markdown_text(value)
        lines.append(f"| {name} | {value} |")
    return "\n".join(lines)


SETUP_COLUMNS = (
    "backend",
    "import (ms)",
    "create (ms)",
    "set",
    "first solve (ms)",
    "warm solve (ms)",
)


def setup_rows(setup: Mapping[str, Any]) -> list[tuple[str, ...]]:
    """One-off costs per backend and grid shape, one row each in the order of `SETUP_COLUMNS`
    (a backend whose set-up could not be measured: one row saying why)."""
    rows: list[tuple[str, ...]] = []
    for backend, measured in setup.items():
        if "error" in measured:
            rows.append((backend, "-", "-", f"not measured: {measured['error']}", "-", "-"))
            continue
        imported = format_milliseconds(measured.get("import_seconds"))
        created = format_milliseconds(measured["create_seconds"])
        for shape in measured.get("shapes", []) or [{}]:
            first = format_milliseconds(shape.get("first_seconds"))
            if shape.get("first_status") == "timeout":
                first += " (timed out)"
            rows.append(
                (
                    backend,
                    imported,
                    created,
                    str(shape.get("set", "-")),
                    first,
                    format_milliseconds(shape.get("warm_seconds")),
                )
            )
    return rows


def render_setup_markdown(setup: Mapping[str, Any]) -> str:
    """One-off costs per backend and grid shape, as a Markdown table."""
    lines = ["| " + " | ".join(SETUP_COLUMNS) + " |", "|:---|---:|---:|:---|---:|---:|"]
    lines += ["| " + " | ".join(map(markdown_text, row)) + " |" for row in setup_rows(setup)]
    return "\n".join(lines)


def render_labels_markdown(shorts: Mapping[str, ShortLabel]) -> str:
    """The configurations that tables and plots show by a short label, each with its full
    label and options, as a Markdown table ('' when every label is shown in full)."""
    rows = [(short.text, short.full) for short in shorts.values() if short.text != short.full]
    if not rows:
        return ""
    lines = ["| label | configuration |", "|:---|:---|"]
    lines += [f"| {markdown_text(text)} | {markdown_code(full)} |" for text, full in rows]
    return "\n".join(lines)


def sessions_of(results: Results) -> list[tuple[str, Header]]:
    """(file, header) of every session, in order; a bench session's set-up header (written
    after its session header) is folded into that session as its `setup`."""
    sessions: list[tuple[str, Header]] = []
    for path, header in zip(results.header_paths, results.headers, strict=True):
        if header.setup_of == "session" and sessions and sessions[-1][0] == path:
            sessions[-1] = (path, replace(sessions[-1][1], setup=header.setup))
        else:
            sessions.append((path, header))
    return sessions


def report_title(results: Results) -> str:
    """'sudoku-cp crosscheck', 'sudoku-cp bench', or both, by the sessions' commands."""
    commands = dict.fromkeys(header.command for header in results.headers) or {"bench": None}
    return "sudoku-cp " + " and ".join(commands)


PLOT_CAPTIONS = {
    "cactus": "Cactus plot: puzzles solved within a given time per puzzle.",
    "scatter": "Per-puzzle times of two backends, log-log; the dashed line is the diagonal.",
    "scaling": "Time per puzzle against the grid size or number of givens.",
    "rating": "Time per puzzle against its explain rating (bench --rating): median, p10-p90.",
}


def render_markdown_report(
    results: Results,
    plots: Mapping[str, str],
    *,
    baseline: str | None = None,
    missing: Mapping[str, str] | None = None,
) -> str:
    """The whole report: every session's environment and one-off set-up, the summary table,
    its legends and the plots. `plots` maps a plot kind to the image's path relative to the
    report; `missing`, a plot kind not drawn to why (a clause)."""
    time_limit = results.time_limit
    rows = scored_summary(
        results.rows(), time_limit=time_limit, baseline=baseline, intervals=results.repeat > 1
    )
    shorts = labels_of(results)
    texts = {label: short.text for label, short in shorts.items()}
    shown_baseline = None if baseline is None else markdown_text(texts.get(baseline, baseline))
    labels = render_labels_markdown(shorts)
    parts = [f"# {markdown_text(report_title(results))}", "", *_sessions_markdown(results)]
    parts += [
        "## Results",
        "",
        render_summary_markdown(rows, baseline=baseline, shorts=texts),
        "",
        *([labels, ""] if labels else []),
        summary_legend(baseline=shown_baseline, time_limit=time_limit, repeat=results.repeat),
        "",
    ]
    parts += _plots_markdown(plots, missing or {})
    return "\n".join(parts).rstrip() + "\n"


def _sessions_markdown(results: Results) -> list[str]:
    """Each session's environment and one-off set-up, as report lines."""
    parts: list[str] = []
    sessions = sessions_of(results)
    for path, header in sessions:
        title = "## Environment" + (
            f": {markdown_code(path)}" + (" (resumed)" if header.resumed else "")
            if len(sessions) > 1
            else ""
        )
        parts += [title, "", render_environment_markdown(header), ""]
        if header.setup:
            parts += [
                "### One-off set-up (not in the timings)",
                "",
                "Measured in a fresh interpreter per configuration: importing the solver "
                "package, creating the backend, and per grid shape the first solve of one "
                "puzzle against a second, warm solve of the same puzzle.",
                "",
                render_setup_markdown(header.setup),
                "",
            ]
    return parts


def _plots_markdown(plots: Mapping[str, str], missing: Mapping[str, str]) -> list[str]:
    """The plots section: each image with its caption, then each plot not drawn and why."""
    if not plots and not missing:
        return []
    parts = ["## Plots", ""]
    for kind, path in plots.items():
        parts += [f"![{kind}]({path})", "", PLOT_CAPTIONS.get(kind, ""), ""]
    for kind, why in missing.items():
        parts += [f"No {kind} plot: {markdown_text(why)}.", ""]
    return parts


__all__ = [
    "PLOT_CAPTIONS",
    "SETUP_COLUMNS",
    "command_line",
    "environment_rows",
    "inputs_of",
    "report_title",
    "render_environment_markdown",
    "render_labels_markdown",
    "render_markdown_report",
    "render_setup_markdown",
    "sessions_of",
    "setup_rows",
]
