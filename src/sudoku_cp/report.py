"""The Markdown report of results logs: every session's environment and set-up, the summary
table with its legend, and the plots (drawn by `plots.py`). Pure: returns text."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .render import format_milliseconds, render_summary_markdown, summary_legend
from .results_reader import Results
from .timings import summarize


def _options(options: Any) -> str:
    if not options:
        return ""
    return "[" + ",".join(f"{key}={value}" for key, value in dict(options).items()) + "]"


def environment_rows(session: Mapping[str, Any]) -> list[tuple[str, str]]:
    """A session header as (name, value) rows: date, command line, versions, machine, the
    configurations, the settings and the inputs (empty for no header)."""
    if not session:
        return []
    settings = session.get("settings", {})
    header = {
        **session.get("environment", {}),
        **{k: v for k, v in session.items() if k not in ("environment", "settings")},
    }
    versions = ", ".join(
        f"{name} {version}" for name, version in header.get("versions", {}).items()
    )
    load = header.get("load_average")
    time_limit = settings.get("time_limit")
    backends = ", ".join(
        f"{item.get('label')}"
        + (
            f" = {item.get('backend')}{_options(item.get('options'))}"
            if item.get("options") or item.get("label") != item.get("backend")
            else ""
        )
        for item in settings.get("backends", [])
        if isinstance(item, dict)
    )
    rows = [
        ("date", header.get("date", "")),
        ("command", command_line(session)),
        ("tool", header.get("tool", "")),
        ("Python", header.get("python", "")),
        ("packages", versions),
        ("platform", header.get("platform", "")),
        (
            "CPU",
            f"{header.get('cpu', '')}, {header.get('cores', '?')} cores "
            f"({header.get('usable_cores', '?')} usable)",
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
            f"{header.get('jobs')}"
            + (f", first {settings['first']} puzzles of each set" if settings.get("first") else "")
            + (" (a resumed session)" if header.get("resumed") else ""),
        ),
        ("inputs", ", ".join(str(path) for path in _inputs(session))),
    ]
    return [(name, str(value)) for name, value in rows]


def command_line(session: Mapping[str, Any]) -> str:
    """The exact command line of a session (`argv`, as the CLI records it), else its command."""
    environment = session.get("environment", {})
    return str(environment.get("argv") or session.get("argv") or session.get("command", ""))


def _inputs(session: Mapping[str, Any]) -> list[Any]:
    found = session.get("inputs", session.get("environment", {}).get("inputs", []))
    return list(found or [])


def render_environment_markdown(session: Mapping[str, Any]) -> str:
    """A session header as a two-column Markdown table."""
    rows = environment_rows(session)
    if not rows:
        return "_No header: the environment was not recorded._"
    lines = ["| | |", "|:---|:---|"]
    for name, value in rows:
        if name == "command":
            value = f"`{value}`"
        elif name == "inputs":  # each path as code
            value = ", ".join(f"`{path}`" for path in _inputs(session))
        lines.append(f"| {name} | {value.replace('|', '/')} |")
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
    lines += ["| " + " | ".join(row) + " |" for row in setup_rows(setup)]
    return "\n".join(lines)


def sessions_of(results: Results) -> list[tuple[str, dict[str, Any]]]:
    """(file, header) of every session, in order; a bench session's set-up header (written
    after its session header) is folded into that session as its `setup`."""
    sessions: list[tuple[str, dict[str, Any]]] = []
    for path, header in zip(results.header_paths, results.headers, strict=True):
        if header.get("setup_of") == "session" and sessions and sessions[-1][0] == path:
            sessions[-1] = (path, {**sessions[-1][1], "setup": header.get("setup")})
        else:
            sessions.append((path, header))
    return sessions


def render_markdown_report(
    results: Results, plots: Mapping[str, str], *, baseline: str | None = None
) -> str:
    """The whole report: every session's environment and one-off set-up, the summary table,
    its legend and the plots. `plots` maps a plot kind to the image's path relative to the
    report."""
    settings = results.settings
    time_limit = results.time_limit
    rows = summarize(
        results.runs(), time_limit=time_limit, baseline=baseline, intervals=results.repeat > 1
    )
    parts = ["# sudoku-cp benchmark", ""]
    sessions = sessions_of(results)
    for path, header in sessions:
        title = "## Environment" + (
            f": `{path}`" + (" (resumed)" if header.get("resumed") else "")
            if len(sessions) > 1
            else ""
        )
        parts += [title, "", render_environment_markdown(header), ""]
        if header.get("setup"):
            parts += [
                "### One-off set-up (not in the timings)",
                "",
                "Measured in a fresh interpreter per configuration: importing the solver "
                "package, creating the backend, and per grid shape the first solve of one "
                "puzzle against a second, warm solve of the same puzzle.",
                "",
                render_setup_markdown(header["setup"]),
                "",
            ]
    parts += [
        "## Results",
        "",
        render_summary_markdown(rows, baseline=baseline),
        "",
        summary_legend(
            baseline=baseline, time_limit=time_limit, repeat=int(settings.get("repeat") or 1)
        ),
        "",
    ]
    if plots:
        parts += ["## Plots", ""]
        captions = {
            "cactus": "Cactus plot: puzzles solved within a given time per puzzle.",
            "scatter": "Per-puzzle times of two backends, log-log; the dashed line is "
            "the diagonal.",
            "scaling": "Time per puzzle against the grid size or number of givens.",
        }
        for kind, path in plots.items():
            parts += [f"![{kind}]({path})", "", captions.get(kind, ""), ""]
    return "\n".join(parts).rstrip() + "\n"


__all__ = [
    "SETUP_COLUMNS",
    "command_line",
    "environment_rows",
    "render_environment_markdown",
    "render_markdown_report",
    "render_setup_markdown",
    "sessions_of",
    "setup_rows",
]
