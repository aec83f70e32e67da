"""Rendering, pure (returns text or JSON-ready data): answers as `solve` prints them, and the
text, Markdown and LaTeX tables of crosscheck and bench.

Plots are in `plots.py`; the Markdown report document in `report.py`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .agreement import Summary, Tally
from .errors import SudokuError
from .formats import Layout, PuzzleRecord, format_grid
from .grid import BLANK, Grid, Shape, default_box, symbol_value, value_symbol
from .result import Mode, RunStatus, SolveResult, Status, Verdict
from .runs import Answer, record_box
from .text import plural
from .timings import SummaryRow

# -- answers ---------------------------------------------------------------------------------------

INVALID = "invalid"  # what a text layout shows in place of an input line that is not a puzzle


def format_count(result: SolveResult) -> str:
    """'3', or '2+' when the count stopped at the limit."""
    return f"{result.count}+" if result.limit_reached else str(result.count)


def format_answer(answer: Answer, layout: Layout | str) -> str:
    """What stdout shows for one answer in a text layout: the solution, the count, or the status
    (a wrong answer is shown as 'wrong', never as a solution)."""
    result = answer.result
    if answer.status in (RunStatus.WRONG, RunStatus.ERROR) or result is None:
        return str(answer.status)
    if result.mode is Mode.COUNT and result.status is not Status.TIMEOUT:
        return format_count(result)
    if answer.solution is not None:
        return format_grid(answer.solution, layout)
    return str(answer.status)


def answer_record(answer: Answer, *, mode: Mode) -> dict[str, Any]:
    """The JSON Lines object of one answer for `solve --format jsonl`: a wrong answer has status
    'wrong', the reason, and its grid under `answer` (never under `solution`)."""
    record, result, status = answer.record, answer.result, answer.status
    solution = result.solution.to_line() if result is not None and result.solution else None
    data: dict[str, Any] = {
        "index": record.index,
        "source": record.source,
        "line": record.line,
        "puzzle": record.text,
        "status": str(status),
        "solution": solution if status is RunStatus.SOLVED else None,
        "backend": answer.label,
        "mode": str(mode),
        "seconds": round(result.seconds, 6) if result is not None else None,
        "stats": dict(result.stats) if result is not None else {},
    }
    grid = record.grid
    if grid is not None and grid.box != default_box(grid.size):
        data["box"] = f"{grid.box[0]}x{grid.box[1]}"  # needed to read the grids back
    if status is RunStatus.WRONG and solution is not None:
        data["answer"] = solution  # the wrong grid, to audit
    if mode is Mode.COUNT:
        data["count"] = (
            result.count if result is not None and status is not RunStatus.WRONG else None
        )
        data["limit_reached"] = result.limit_reached if result is not None else False
    if answer.reason:
        data["reason"] = answer.reason
    if answer.certification is not None:  # --certify
        data["certified"] = answer.certification.certified
        certificate = answer.certification.certificate
        data["certificate"] = None if certificate is None else certificate.to_dict()
    return data


def invalid_record(record: PuzzleRecord, *, backend: str, mode: Mode) -> dict[str, Any]:
    """The JSON Lines object of an input line that is not a puzzle (`solve --format jsonl`):
    status 'invalid input' and why."""
    return {
        "index": record.index,
        "source": record.source,
        "line": record.line,
        "puzzle": record.text,
        "status": "invalid input",
        "solution": None,
        "backend": backend,
        "mode": str(mode),
        "seconds": None,
        "stats": {},
        "reason": record.error,
    }


# -- crosscheck ------------------------------------------------------------------------------------


def render_crosscheck_summary(summary: Summary) -> str:
    """The summary table: per backend tallies and times, then the totals."""
    header = (
        "backend",
        "solved",
        "unsat",
        "timeouts",
        "wrong",
        "disagree",
        "errors",
        "total s",
        "median ms",
        "share",
    )
    rows = [header]
    for backend in summary.backends:
        share = summary.share(backend.name)
        rows.append(
            (
                backend.name,
                str(backend.solved),
                str(backend.unsatisfiable),
                str(backend.timeouts),
                str(backend.wrong),
                str(backend.disagreements),
                str(backend.errors),
                f"{backend.total_seconds:.3f}",
                "-" if backend.median_seconds is None else f"{1000 * backend.median_seconds:.2f}",
                "-" if share is None else f"{100 * share:.1f}%",
            )
        )
    widths = [max(len(row[column]) for row in rows) for column in range(len(header))]
    lines = [
        f"crosscheck --mode {summary.mode}: {', '.join(b.name for b in summary.backends)}"
        + (" (interrupted)" if summary.interrupted else "")
    ]
    for row in rows:
        cells = [row[0].ljust(widths[0])] + [
            cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True)
        ]
        lines.append("  ".join(cells).rstrip())
    counts = ", ".join(f"{summary.verdicts.get(verdict, 0)} {verdict}" for verdict in Verdict)
    lines.append(f"{plural(summary.puzzles, 'puzzle')}: {counts}")
    if summary.bad_input:
        lines.append(
            f"{plural(summary.bad_input, 'input line')} "
            f"{'is' if summary.bad_input == 1 else 'are'} not a puzzle (not run)"
        )
    session = plural(summary.session_puzzles, "puzzle")
    if summary.resumed:
        lines.append(f"resumed: {plural(summary.resumed, 'puzzle')} from the results log")
        session = f"this session: {session}"
    rate = summary.puzzles_per_second
    if summary.wall_seconds is not None:
        speed = f", {rate:.1f} puzzles/s" if rate is not None else ""
        lines.append(f"{session} in {summary.wall_seconds:.1f} s{speed}")
    return "\n".join(lines)


def render_findings(records: Iterable[Mapping[str, Any]], *, hidden_timeouts: int = 0) -> str:
    """Every puzzle that did not simply agree, most severe first, disagreements side by side.

    Wrong answers and disagreements are drawn in full, with a legend; errors and timeouts take
    a few lines each; `hidden_timeouts` more timeouts were not kept (a tight time limit on a big
    set would bury everything else).
    """
    groups: dict[Verdict, list[Mapping[str, Any]]] = {verdict: [] for verdict in Verdict}
    for record in records:
        groups[Verdict(record["verdict"])].append(record)
    blocks = [
        render_side_by_side(record)
        for verdict in (Verdict.WRONG, Verdict.DISAGREE)
        for record in groups[verdict]
    ]
    if blocks:
        blocks.insert(
            0,
            "'*' marks a cell that breaks a rule or changes a given, or (lexmin) "
            "that differs from the smallest valid completion.",
        )
    for verdict in (Verdict.ERROR, Verdict.TIMEOUT):
        for record in groups[verdict]:
            blocks.append(
                f"{verdict.value.upper()}  {_where(record)}\n"
                + "\n".join(f"  {finding}" for finding in record["findings"])
            )
    if hidden_timeouts:
        blocks.append(
            f"... and {hidden_timeouts} more timeouts (every verdict is in "
            f"--results FILE or --format jsonl)"
        )
    return "\n\n".join(blocks)


def render_crosscheck(tally: Tally, summary: Summary) -> str:
    """The whole text output: the summary table, then the findings."""
    table = render_crosscheck_summary(summary)
    findings = render_findings(tally.shown, hidden_timeouts=tally.hidden_timeouts)
    return f"{table}\n\n{findings}" if findings else table


def render_side_by_side(record: Mapping[str, Any]) -> str:
    """One puzzle and every backend's answer as grids next to each other, odd cells marked '*'."""
    box = record_box(record)
    puzzle = Grid.parse(record["puzzle"], box=box)
    entries = {_run_name(run): run for run in record["runs"]}
    reference = _reference_solution(entries)
    columns = [_column("puzzle", f"{len(puzzle.givens())} givens", puzzle, set())]
    for name, entry in entries.items():
        flag = " (disagrees)" if entry.get("disagrees") else ""
        grid = _parse_or_none(entry.get("solution"), box)
        marked: set[int] = set()
        if grid is not None and entry["status"] == RunStatus.WRONG:
            marked = _broken_cells(grid, puzzle)
            if not marked and reference is not None and "count" not in entry:
                # A valid completion proven wrong: not the lex-min (or 'unsatisfiable' denied).
                marked = {
                    cell
                    for cell, (a, b) in enumerate(zip(entry["solution"], reference, strict=True))
                    if a != b
                }
        columns.append(_column(name + flag, _entry_text(entry), grid, marked))
    height = max(len(column) for column in columns)
    widths = [max(len(line) for line in column) for column in columns]
    lines = [f"{record['verdict'].upper()}  {_where(record)}"]
    lines += [f"  {finding}" for finding in record["findings"]]
    for row in range(height):
        cells = [
            (column[row] if row < len(column) else "").ljust(width)
            for column, width in zip(columns, widths, strict=True)
        ]
        lines.append(("  " + "   ".join(cells)).rstrip())
    return "\n".join(lines)


def _where(record: Mapping[str, Any]) -> str:
    return f"{record['source']}:{record['line']} (puzzle {record['number'] + 1})"


def _run_name(run: Mapping[str, Any]) -> str:
    return str(run["backend"]) + (f"#{run['repeat']}" if run.get("repeat") else "")


def _parse_or_none(line: str | None, box: Shape | None) -> Grid | None:
    if not line:
        return None
    try:
        return Grid.parse(line, box=box)
    except SudokuError:  # a malformed answer is shown by its status alone
        return None


def _reference_solution(entries: Mapping[str, Mapping[str, Any]]) -> str | None:
    """The smallest valid completion among the answers (the lex-min when anyone found it)."""
    solved = [
        entry["solution"]
        for entry in entries.values()
        if entry["status"] == RunStatus.SOLVED and entry.get("solution")
    ]
    return min(solved, key=_values) if solved else None


def _broken_cells(grid: Grid, puzzle: Grid) -> set[int]:
    """Cells of an answer that change a given, stay blank, or repeat a value in a unit."""
    if grid.size != puzzle.size:
        return set()
    cells = {cell for cell, value in puzzle.givens().items() if grid.values[cell] != value}
    cells |= set(grid.blanks())
    for conflict in grid.conflicts():
        cells |= set(conflict.cells)
    return cells


def _entry_text(entry: Mapping[str, Any]) -> str:
    """A backend's status under its name: 'solved 2.1 ms', 'count 2+', 'WRONG', 'error'."""
    status = (
        "count " + _count_text(entry)
        if "count" in entry and entry["status"] in (RunStatus.SOLVED, RunStatus.UNSATISFIABLE)
        else entry["status"]
    )
    if status == RunStatus.WRONG:
        status = "WRONG" + (f" (count {_count_text(entry)})" if "count" in entry else "")
    if entry.get("seconds") is not None:
        status += f" {1000 * entry['seconds']:.1f} ms"
    return status


def _column(title: str, subtitle: str, grid: Grid | None, marked: set[int]) -> list[str]:
    """A grid drawn two characters a cell (symbol, then '*' or ' '), under a title."""
    lines = [title, subtitle]
    if grid is None:
        return lines
    geo = grid.geometry
    for row in range(grid.size):
        if row and row % geo.box_rows == 0:
            boxes_across = grid.size // geo.box_cols
            lines.append("+-".join("-" * (2 * geo.box_cols) for _ in range(boxes_across)))
        parts = []
        for column in range(grid.size):
            if column and column % geo.box_cols == 0:
                parts.append("| ")
            cell = row * grid.size + column
            value = grid.values[cell]
            parts.append(
                ("." if value == BLANK else value_symbol(value)) + ("*" if cell in marked else " ")
            )
        lines.append("".join(parts))
    return lines


def _values(line: str) -> tuple[int, ...]:
    """Row-major values of a solution line (symbols compare by value, not by character)."""
    return tuple(symbol_value(symbol) or 0 for symbol in line)


def _count_text(entry: Mapping[str, Any]) -> str:
    if entry.get("count") is None:
        return str(entry["status"])
    return f"{entry['count']}+" if entry.get("limit_reached") else str(entry["count"])


# -- bench -----------------------------------------------------------------------------------------


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
