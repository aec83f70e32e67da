"""The Markdown report of results logs: every session's environment and set-up, the summary
table with its legend, and the plots (drawn by `plots.py`). Pure: returns text."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .render import format_milliseconds, render_summary_markdown, summary_legend
from .results_log import Results
from .timings import summarize


def _options(options: Any) -> str:
    if not options:
        return ""
    return "[" + ",".join(f"{key}={value}" for key, value in dict(options).items()) + "]"


def render_environment_markdown(session: Mapping[str, Any]) -> str:
    """A session header as a two-column Markdown table."""
    if not session:
        return "_No header: the environment was not recorded._"
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
        ("command", f"`{header.get('argv') or header.get('command', '')}`"),
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
        ("inputs", ", ".join(f"`{path}`" for path in header.get("inputs", []))),
    ]
    lines = ["| | |", "|:---|:---|"]
    lines += [f"| {name} | {str(value).replace('|', '/')} |" for name, value in rows]
    return "\n".join(lines)


def render_setup_markdown(setup: Mapping[str, Any]) -> str:
    """One-off costs per backend and grid shape, as a Markdown table."""
    lines = [
        "| backend | import (ms) | create (ms) | set | first solve (ms) | warm solve (ms) |",
        "|:---|---:|---:|:---|---:|---:|",
    ]
    for backend, measured in setup.items():
        if "error" in measured:
            lines.append(f"| {backend} | - | - | not measured: {measured['error']} | - | - |")
            continue
        timed_out = [
            shape for shape in measured.get("shapes", []) if shape.get("first_status") == "timeout"
        ]
        imported = format_milliseconds(measured.get("import_seconds"))
        created = format_milliseconds(measured["create_seconds"])
        for shape in measured.get("shapes", []) or [{}]:
            first = format_milliseconds(shape.get("first_seconds"))
            if shape in timed_out:
                first += " (timed out)"
            lines.append(
                f"| {backend} | {imported} | {created} | {shape.get('set', '-')} | "
                f"{first} | {format_milliseconds(shape.get('warm_seconds'))} |"
            )
    return "\n".join(lines)


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
    sessions: list[tuple[str, dict[str, Any]]] = []
    for path, header in zip(results.header_paths, results.headers, strict=True):
        if header.get("setup_of") == "session" and sessions and sessions[-1][0] == path:
            sessions[-1] = (path, {**sessions[-1][1], "setup": header.get("setup")})
        else:
            sessions.append((path, header))
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


__all__ = ["render_environment_markdown", "render_markdown_report", "render_setup_markdown"]
