"""Bench tables (pure: returns text): the summary as aligned text, Markdown, CSV and LaTeX, its
legend, and the one-off set-up costs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..bench_statistics import SummaryRow


def format_milliseconds(seconds: float | None) -> str:
    """Seconds as milliseconds with about three significant digits ('-' for none)."""
    if seconds is None:
        return "-"
    milliseconds = seconds * 1000
    decimals = 3 if milliseconds < 1 else 2 if milliseconds < 10 else 1 if milliseconds < 100 else 0
    return f"{milliseconds:.{decimals}f}"


def format_ratio(ratio: float | None) -> str:
    if ratio is None:
        return "-"
    return f"{ratio:.2f}" if ratio < 10 else f"{ratio:.1f}" if ratio < 100 else f"{ratio:.0f}"


def summary_cells(
    rows: Sequence[SummaryRow], *, baseline: str | None
) -> tuple[list[str], list[list[str]]]:
    """The table's column names and cells; the mode column only when several modes are shown,
    the CPU, memory and interval columns only when the results have them."""
    several_modes = len({row.mode for row in rows}) > 1
    with_cpu = any(row.cpu_median is not None for row in rows)
    with_memory = any(row.max_rss_mb is not None for row in rows)
    with_ci = any(row.median_ci is not None for row in rows)
    names = (
        ["set"]
        + (["mode"] if several_modes else [])
        + ["backend", "puzzles", "solved", "timeout", "wrong", "error", "PAR-2", "mean", "median"]
        + (["median 95% CI"] if with_ci else [])
        + ["p90", "p99", "max"]
        + (["cpu median"] if with_cpu else [])
        + (["peak MB"] if with_memory else [])
        + ([f"t/{baseline}"] if baseline else [])
        + (["ratio 95% CI", "Wilcoxon p"] if with_ci and baseline else [])
    )
    cells = []
    for row in rows:
        cells.append(
            [row.set]
            + ([row.mode] if several_modes else [])
            + [
                row.backend,
                str(row.puzzles),
                str(row.solved),
                str(row.timeouts),
                str(row.wrong),
                str(row.errors),
                format_milliseconds(row.par2),
                format_milliseconds(row.mean),
                format_milliseconds(row.median),
            ]
            + ([format_interval(row.median_ci, format_milliseconds)] if with_ci else [])
            + [
                format_milliseconds(row.p90),
                format_milliseconds(row.p99),
                format_milliseconds(row.max),
            ]
            + ([format_milliseconds(row.cpu_median)] if with_cpu else [])
            + (
                [f"{row.max_rss_mb:.0f}" if row.max_rss_mb is not None else "-"]
                if with_memory
                else []
            )
            + ([format_ratio(row.ratio)] if baseline else [])
            + (
                [format_interval(row.ratio_ci, format_ratio), format_p_value(row.p_value)]
                if with_ci and baseline
                else []
            )
        )
    return names, cells


def format_interval(interval: tuple[float, float] | None, show: Any) -> str:
    """'[low, high]', each end shown by `show` ('-' for none)."""
    return "-" if interval is None else f"[{show(interval[0])}, {show(interval[1])}]"


def format_p_value(p: float | None) -> str:
    """A p-value with three decimals, '<0.001' below that ('-' for none)."""
    if p is None:
        return "-"
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def _text_columns(names: Sequence[str]) -> int:
    """How many leading columns hold text (left-aligned); the rest are numbers."""
    return 1 + ("mode" in names) + 1


def summary_legend(
    *,
    baseline: str | None,
    time_limit: float | None,
    repeat: int = 1,
    intervals: bool | None = None,
) -> str:
    """What the columns mean, in one paragraph (`intervals`: whether the table has the 95%
    intervals and the Wilcoxon test; by default, when there are repeats)."""
    intervals = repeat > 1 if intervals is None else intervals
    repeats = f"the median of its {repeat} timed repeats" if repeat > 1 else "its one timed run"
    penalty = (
        f"PAR-2: mean per puzzle, an unsolved puzzle (timeout, wrong, error) counting "
        f"2 x {time_limit:g} s"
        if time_limit is not None
        else "PAR-2: '-', since without --time-limit there is no penalty to give"
    )
    ratio = (
        f" t/{baseline}: geometric mean, over the puzzles both solved, of the time divided "
        f"by {baseline}'s."
        if baseline
        else ""
    )
    ratio += (
        " cpu median: CPU seconds (all threads), in ms. peak MB: the peak resident "
        "memory of the process that ran the configuration (its own process unless "
        "--no-isolate or -j N)."
    )
    if intervals:
        ratio += (
            " 95% percentile-bootstrap intervals (scipy, 2000 resamples, over puzzles) "
            "of the median and of the ratio, and the p-value of a paired Wilcoxon "
            "signed-rank test against the baseline."
        )
    return (
        f"Times in ms per puzzle (a puzzle's time is {repeats}), over the puzzles solved; "
        f"solved counts unsatisfiable answers no other run contradicted. Median: the middle "
        f"value (mean of the two middle ones); p90, p99: nearest rank. {penalty}.{ratio}"
    )


def render_summary_text(rows: Sequence[SummaryRow], *, baseline: str | None) -> str:
    """The summary as an aligned plain-text table."""
    names, cells = summary_cells(rows, baseline=baseline)
    widths = [max(len(line[column]) for line in [names, *cells]) for column in range(len(names))]
    text_columns = _text_columns(names)
    lines = []
    for line in [names, *cells]:
        lines.append(
            "  ".join(
                value.ljust(width) if column < text_columns else value.rjust(width)
                for column, (value, width) in enumerate(zip(line, widths, strict=True))
            ).rstrip()
        )
    return "\n".join(lines)


def render_summary_markdown(rows: Sequence[SummaryRow], *, baseline: str | None) -> str:
    """The summary as a Markdown table, numbers right-aligned."""
    names, cells = summary_cells(rows, baseline=baseline)
    text_columns = _text_columns(names)
    rule = [":---" if column < text_columns else "---:" for column in range(len(names))]
    return "\n".join("| " + " | ".join(line) + " |" for line in [names, rule, *cells])


def render_setup_text(setup: Mapping[str, Any]) -> str:
    """One line per backend: its one-off costs, which no timed run includes."""
    lines = []
    for backend, measured in setup.items():
        if "error" in measured:
            lines.append(f"{backend}: set-up not measured ({measured['error']})")
            continue
        shapes = ", ".join(
            f"{shape['set']} first solve {format_milliseconds(shape['first_seconds'])} ms"
            + (" (timed out)" if shape.get("first_status") == "timeout" else "")
            + f" (warm {format_milliseconds(shape['warm_seconds'])} ms)"
            for shape in measured.get("shapes", [])
        )
        imported = (
            f"import {format_milliseconds(measured['import_seconds'])} ms, "
            if measured.get("import_seconds") is not None
            else ""
        )
        lines.append(
            f"{backend}: {imported}create "
            f"{format_milliseconds(measured['create_seconds'])} ms"
            + (f"; {shapes}" if shapes else "")
        )
    return "\n".join(lines)


def render_summary_csv(rows: Sequence[SummaryRow]) -> str:
    """The summary as CSV, one row per (set, mode, configuration), times in seconds."""
    import csv
    import dataclasses
    import io

    buffer = io.StringIO()
    names = [field.name for field in dataclasses.fields(SummaryRow)]
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(names)
    for row in rows:
        writer.writerow(
            ["" if getattr(row, name) is None else getattr(row, name) for name in names]
        )
    return buffer.getvalue()


_LATEX_SPECIAL = {
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "\\": r"\textbackslash{}",
}


def latex_escape(text: str) -> str:
    return "".join(_LATEX_SPECIAL.get(char, char) for char in text)


def render_summary_latex(rows: Sequence[SummaryRow], *, baseline: str | None) -> str:
    """The summary as a LaTeX table with booktabs rules (\\usepackage{booktabs})."""
    names, cells = summary_cells(rows, baseline=baseline)
    text_columns = _text_columns(names)
    spec = "l" * text_columns + "r" * (len(names) - text_columns)
    lines = [
        r"\begin{tabular}{" + spec + "}",
        r"\toprule",
        " & ".join(latex_escape(name) for name in names) + r" \\",
        r"\midrule",
    ]
    previous_set = None
    for row, line in zip(rows, cells, strict=True):
        if previous_set is not None and row.set != previous_set:
            lines.append(r"\midrule")
        previous_set = row.set
        lines.append(" & ".join(latex_escape(cell) for cell in line) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}", ""]
    return "\n".join(lines)


__all__ = [
    "format_interval",
    "format_milliseconds",
    "format_p_value",
    "format_ratio",
    "latex_escape",
    "render_setup_text",
    "render_summary_csv",
    "render_summary_latex",
    "render_summary_markdown",
    "render_summary_text",
    "summary_cells",
    "summary_legend",
]
