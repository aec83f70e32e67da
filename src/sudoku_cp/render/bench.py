"""Bench tables (pure: returns text): the summary as aligned text, Markdown, CSV and LaTeX, its
legend, and the one-off set-up costs."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from ..bench_statistics import SummaryRow
from ..scores import is_virtual
from .markup import latex_escape, markdown_text
from .text import aligned, label_legend, wrapped


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


def backend_cell(row: SummaryRow, shorts: Mapping[str, str] | None = None) -> str:
    """A row's configuration as a table shows it: its short label, marked when excluded."""
    shown = (shorts or {}).get(row.backend, row.backend)
    return f"{shown} (excluded)" if row.excluded else shown


def _counts(row: SummaryRow) -> list[str]:
    """timeout, wrong, error; on the virtual best's row, the puzzles no member solved, and '-'
    (its members' wrong answers and errors are theirs)."""
    if is_virtual(row.backend):
        return [str(row.timeouts), "-", "-"]
    return [str(row.timeouts), str(row.wrong), str(row.errors)]


def _score_cells(row: SummaryRow) -> list[str]:
    """Borda and unique solves ('-' where a row has none: the virtual best, an excluded one)."""
    borda = "-" if row.borda is None else f"{row.borda:.1f}"
    return [borda, "-" if row.unique is None else str(row.unique)]


def summary_cells(
    rows: Sequence[SummaryRow],
    *,
    baseline: str | None,
    shorts: Mapping[str, str] | None = None,
) -> tuple[list[str], list[list[str]]]:
    """The table's column names and cells, configurations by their short labels (`shorts`,
    else the full); the mode column only when several modes are shown, the score, CPU, memory
    and interval columns only when the results have them."""
    several_modes = len({row.mode for row in rows}) > 1
    with_scores = any(row.borda is not None for row in rows)
    with_cpu = any(row.cpu_median is not None for row in rows)
    with_memory = any(row.max_rss_mb is not None for row in rows)
    with_ci = any(row.median_ci is not None for row in rows)
    names = (
        ["set"]
        + (["mode"] if several_modes else [])
        + ["backend", "puzzles", "solved", "timeout", "wrong", "error", "PAR-2"]
        + (["Borda", "unique"] if with_scores else [])
        + ["mean", "median"]
        + (["median 95% CI"] if with_ci else [])
        + ["p90", "p99", "max"]
        + (["cpu median"] if with_cpu else [])
        + (["peak MB"] if with_memory else [])
        + ([f"t/{(shorts or {}).get(baseline, baseline)}"] if baseline else [])
        + (["ratio 95% CI", "Wilcoxon p"] if with_ci and baseline else [])
    )
    cells = []
    for row in rows:
        cells.append(
            [row.set]
            + ([row.mode] if several_modes else [])
            + [backend_cell(row, shorts), str(row.puzzles), str(row.solved), *_counts(row)]
            + [format_milliseconds(row.par2)]
            + (_score_cells(row) if with_scores else [])
            + [format_milliseconds(row.mean), format_milliseconds(row.median)]
            + ([format_interval(row.median_ci, format_milliseconds)] if with_ci else [])
            + [
                format_milliseconds(row.p90),
                format_milliseconds(row.p99),
                format_milliseconds(row.max),
            ]
            + ([format_milliseconds(row.cpu_median)] if with_cpu else [])
            + ([_megabytes(row.max_rss_mb)] if with_memory else [])
            + ([format_ratio(row.ratio)] if baseline else [])
            + (
                [format_interval(row.ratio_ci, format_ratio), format_p_value(row.p_value)]
                if with_ci and baseline
                else []
            )
        )
    return names, cells


def _megabytes(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f}"


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
    ratio_name: str | None = None,
) -> str:
    """What the columns mean, in one paragraph (`intervals`: whether the table has the 95%
    intervals and the Wilcoxon test; by default, when there are repeats; `ratio_name`: the
    ratio's column title, `t/BASELINE` by default)."""
    intervals = repeat > 1 if intervals is None else intervals
    repeats = f"the median of its {repeat} timed repeats" if repeat > 1 else "its one timed run"
    limit = f" within {time_limit:g} s" if time_limit is not None else ""
    penalty = (
        f"PAR-2: mean per puzzle, an unsolved puzzle counting 2 x {time_limit:g} s."
        if time_limit is not None
        else "PAR-2: '-', since without --time-limit there is no penalty to give."
    )
    ratio_name = ratio_name or f"t/{baseline}"
    ratio = (
        f" {ratio_name}: geometric mean, over the puzzles both answered, of the time divided "
        f"by {baseline}'s."
        if baseline
        else ""
    )
    parts = [
        f"Times in ms per puzzle, wall clock (a puzzle's time is {repeats}), over the puzzles "
        f"solved: answered{limit}, a completion or an unsatisfiable answer no other run "
        f"contradicted. Median: the middle value (mean of the two middle ones); p90, p99: "
        f"nearest rank. {penalty}",
        "Borda: the MiniZinc Challenge's complete score, summed over puzzles and opponents "
        "(1 for solving what the other did not, the other's time over both times when both "
        "solved). unique: the puzzles no other configuration solved. VBS: the virtual best "
        "solver, the fastest of the configurations on each puzzle. A configuration with a "
        "wrong answer on a set is marked excluded: it is left out of that set's Borda scores "
        "and its VBS. VBS(a+b): the virtual best of a portfolio's members a and b, under it.",
    ]
    resources = (
        " cpu median: CPU seconds (all threads), in ms. peak MB: the peak resident memory of "
        "the process that ran the configuration (its own process unless --no-isolate or -j N)."
    )
    parts.append(ratio.strip() + resources if ratio else resources.strip())
    if intervals:
        parts.append(
            "95% percentile-bootstrap intervals (scipy, 2000 resamples, over puzzles) of the "
            "median and of the ratio, and the p-value of a paired Wilcoxon signed-rank test "
            "against the baseline."
        )
    return " ".join(parts)


def render_summary_text(
    rows: Sequence[SummaryRow], *, baseline: str | None, shorts: Mapping[str, str] | None = None
) -> str:
    """The summary as plain text that fits 80 columns: per set (and mode) a title and its
    tables (outcomes and scores; the spread of times and the resources; with repeats the 95%
    intervals), configurations by their short labels (`shorts`) with a legend of the full."""
    given = {row.backend: (shorts or {}).get(row.backend, row.backend) for row in rows}
    given = {label: short for label, short in given.items() if not is_virtual(label)}
    shorts = {row.backend: backend_cell(row, shorts) for row in rows}
    several_modes = len({row.mode for row in rows}) > 1
    blocks = []
    for key, group in itertools.groupby(rows, key=lambda row: (row.set, row.mode)):
        members = list(group)
        puzzles = max(row.puzzles for row in members)
        title = f"{key[0]}{', ' + key[1] if several_modes else ''}: {puzzles} puzzles"
        tables = [_outcome_table(members, shorts, baseline), _spread_table(members, shorts)]
        if any(row.median_ci is not None for row in members):
            tables.append(_interval_table(members, shorts, baseline))
        blocks.append("\n".join([title, *("\n".join(table) for table in tables if table)]))
    legend = label_legend(given)
    return "\n\n".join(blocks) + ("\n\n" + "\n".join(legend) if legend else "")


def _outcome_table(
    rows: Sequence[SummaryRow], shorts: Mapping[str, str], baseline: str | None
) -> list[str]:
    """backend, solved, timeout wrong error, PAR-2, Borda, median, max, ratio to the baseline."""
    with_scores = any(row.borda is not None for row in rows)
    counts = aligned(
        [("timeout", "wrong", "error"), *(_counts(row) for row in rows)], text_columns=0, gap=" "
    )
    table = [
        ["backend", "solved", counts[0], "PAR-2"]
        + (["Borda"] if with_scores else [])
        + ["median", "max"]
        + (["ratio"] if baseline else [])
    ]
    for row, tally in zip(rows, counts[1:], strict=True):
        table.append(
            [shorts[row.backend], str(row.solved), tally, format_milliseconds(row.par2)]
            + ([_score_cells(row)[0]] if with_scores else [])
            + [format_milliseconds(row.median), format_milliseconds(row.max)]
            + ([format_ratio(row.ratio)] if baseline else [])
        )
    return ["  " + line for line in aligned(table)]


def _spread_table(rows: Sequence[SummaryRow], shorts: Mapping[str, str]) -> list[str]:
    """backend, mean, p90, p99, and where recorded the CPU median, the peak memory and the
    unique solves."""
    with_cpu = any(row.cpu_median is not None for row in rows)
    with_memory = any(row.max_rss_mb is not None for row in rows)
    with_unique = any(row.unique is not None for row in rows)
    table = [
        ["backend", "mean", "p90", "p99"]
        + (["cpu median"] if with_cpu else [])
        + (["peak MB"] if with_memory else [])
        + (["unique"] if with_unique else [])
    ]
    for row in rows:
        table.append(
            [shorts[row.backend]]
            + [format_milliseconds(value) for value in (row.mean, row.p90, row.p99)]
            + ([format_milliseconds(row.cpu_median)] if with_cpu else [])
            + ([_megabytes(row.max_rss_mb)] if with_memory else [])
            + ([_score_cells(row)[1]] if with_unique else [])
        )
    return ["  " + line for line in aligned(table)]


def _interval_table(
    rows: Sequence[SummaryRow], shorts: Mapping[str, str], baseline: str | None
) -> list[str]:
    """backend, the median's 95% interval, and against the baseline the ratio's and the
    Wilcoxon test's p-value."""
    table = [["backend", "median 95% CI"] + (["ratio 95% CI", "Wilcoxon p"] if baseline else [])]
    for row in rows:
        if is_virtual(row.backend):
            continue
        table.append(
            [shorts[row.backend], format_interval(row.median_ci, format_milliseconds)]
            + (
                [format_interval(row.ratio_ci, format_ratio), format_p_value(row.p_value)]
                if baseline
                else []
            )
        )
    return ["  " + line for line in aligned(table)]


def render_summary_markdown(
    rows: Sequence[SummaryRow], *, baseline: str | None, shorts: Mapping[str, str] | None = None
) -> str:
    """The summary as a Markdown table, numbers right-aligned, configurations by their short
    labels (`shorts`); every text escaped (`markup.markdown_text`)."""
    names, cells = summary_cells(rows, baseline=baseline, shorts=shorts)
    text_columns = _text_columns(names)
    rule = [":---" if column < text_columns else "---:" for column in range(len(names))]
    names, *cells = [[markdown_text(cell) for cell in line] for line in [names, *cells]]
    return "\n".join("| " + " | ".join(line) + " |" for line in [names, rule, *cells])


def render_setup_text(setup: Mapping[str, Any]) -> str:
    """One line per backend: its one-off costs, which no timed run includes."""
    lines = []
    for backend, measured in setup.items():
        if "error" in measured:
            lines.append(
                wrapped(f"{backend}: set-up not measured ({measured['error']})", hanging="  ")
            )
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
            wrapped(
                f"{backend}: {imported}create "
                f"{format_milliseconds(measured['create_seconds'])} ms"
                + (f"; {shapes}" if shapes else ""),
                hanging="  ",
            )
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
