"""The static tables of the HTML report: the summary per configuration and the sessions
(pure: returns data for the template).

The summary is `bench_statistics.summarize` (with `bench_statistics.cpu_statistics` for the CPU
mean and p90), shown with the formatters of `render`; each cell carries its text and the number it
sorts by.
A session is its header's environment rows (`report.environment_rows`), its exact command line
and its one-off set-up (`report.setup_rows`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..bench_statistics import GroupKey, PuzzleOutcome, SummaryRow, cpu_statistics
from ..labels import ShortLabel
from ..render.bench import (
    format_interval,
    format_milliseconds,
    format_p_value,
    format_ratio,
    summary_legend,
)
from ..report import SETUP_COLUMNS, command_line, environment_rows, sessions_of, setup_rows
from ..results_log.reader import Results, RunRow
from ..scores import VIRTUAL_BEST, is_virtual, scored_summary
from .certificates import RunCertification, RunKey


@dataclass(frozen=True)
class Column:
    """A summary column: its title, the group over it ('' for none), how a row shows it and
    the number it sorts by (None sorts last)."""

    title: str
    group: str
    text: Callable[[SummaryRow, Mapping[str, Any]], str]
    sort: Callable[[SummaryRow, Mapping[str, Any]], float | str | None]
    numeric: bool = True
    hint: str = ""


def _ms(name: str) -> Callable[[SummaryRow, Mapping[str, Any]], str]:
    return lambda row, extra: format_milliseconds(_value(row, extra, name))


def _raw(name: str) -> Callable[[SummaryRow, Mapping[str, Any]], Any]:
    return lambda row, extra: _value(row, extra, name)


def _value(row: SummaryRow, extra: Mapping[str, Any], name: str) -> Any:
    return extra[name] if name in extra else getattr(row, name)


def _count(name: str) -> Callable[[SummaryRow, Mapping[str, Any]], str]:
    return lambda row, extra: str(_value(row, extra, name))


def summary_columns(
    rows: Sequence[SummaryRow], *, baseline: str | None, several_modes: bool, certified: bool
) -> list[Column]:
    """The columns the rows have data for: the counts, PAR-2, wall and CPU times, memory,
    the ratio to the baseline and, with repeats, the intervals and the paired test."""
    with_ci = any(row.median_ci is not None for row in rows)
    with_cpu = any(row.cpu_median is not None for row in rows)
    columns = [
        Column("set", "", lambda row, _: row.set, lambda row, _: row.set, numeric=False),
        *(
            [Column("mode", "", lambda r, _: r.mode, lambda r, _: r.mode, numeric=False)]
            if several_modes
            else []
        ),
        Column("configuration", "", lambda row, extra: extra["short"], _raw("short"), False),
        Column("puzzles", "", _count("puzzles"), _raw("puzzles")),
        Column("solved", "", _count("solved"), _raw("solved")),
        Column("timeouts", "", _count("timeouts"), _raw("timeouts")),
        Column("wrong", "", _count("wrong"), _raw("wrong")),
        Column("errors", "", _count("errors"), _raw("errors")),
        Column("PAR-2", "", _ms("par2"), _raw("par2"), hint="ms"),
        *(_score_columns() if any(row.borda is not None for row in rows) else []),
        Column("mean", "wall ms", _ms("mean"), _raw("mean")),
        Column("median", "wall ms", _ms("median"), _raw("median")),
    ]
    if with_ci:
        columns.append(
            Column(
                "median 95% CI",
                "wall ms",
                lambda row, _: format_interval(row.median_ci, format_milliseconds),
                lambda row, _: row.median_ci[0] if row.median_ci else None,
            )
        )
    columns += [Column(name, "wall ms", _ms(name), _raw(name)) for name in ("p90", "p99", "max")]
    if with_cpu:
        columns += [
            Column(title, "CPU ms", _ms(name), _raw(name))
            for title, name in (("mean", "cpu_mean"), ("median", "cpu_median"), ("p90", "cpu_p90"))
        ]
    if any(row.max_rss_mb is not None for row in rows):
        columns.append(Column("peak MB", "", _peak, _raw("max_rss_mb")))
    if baseline:
        columns += _baseline_columns(with_ci)
    if certified:
        columns.append(Column("not certified", "", _count("refused"), _raw("refused")))
    return columns


def _score_columns() -> list[Column]:
    """Borda (MiniZinc's complete score) and unique solves: '-' on the virtual best's row and
    on a configuration excluded for a wrong answer."""
    return [
        Column(
            "Borda",
            "",
            lambda row, _: "-" if row.borda is None else f"{row.borda:.1f}",
            lambda row, _: row.borda,
            hint="MiniZinc's complete score, summed over puzzles and opponents",
        ),
        Column(
            "unique",
            "",
            lambda row, _: "-" if row.unique is None else str(row.unique),
            lambda row, _: row.unique,
            hint="puzzles no other configuration solved",
        ),
    ]


def _peak(row: SummaryRow, extra: Mapping[str, Any]) -> str:
    return "-" if row.max_rss_mb is None else f"{row.max_rss_mb:.0f}"


def _baseline_columns(with_ci: bool) -> list[Column]:
    columns = [
        Column(
            "t / baseline",
            "",
            lambda row, _: format_ratio(row.ratio),
            lambda row, _: row.ratio,
            hint="geometric mean over the puzzles both solved",
        )
    ]
    if with_ci:
        columns += [
            Column(
                "ratio 95% CI",
                "",
                lambda row, _: format_interval(row.ratio_ci, format_ratio),
                lambda row, _: row.ratio_ci[0] if row.ratio_ci else None,
            ),
            Column(
                "Wilcoxon p",
                "",
                lambda row, _: format_p_value(row.p_value),
                lambda row, _: row.p_value,
            ),
        ]
    return columns


def summary_table(
    results: Results,
    rows: Sequence[RunRow],
    outcomes: Mapping[GroupKey, Mapping[int, PuzzleOutcome]],
    shorts: Mapping[str, ShortLabel],
    certifications: Mapping[RunKey, RunCertification],
    *,
    baseline: str | None,
) -> dict[str, Any]:
    """The summary as the template draws it: column titles and groups, and per row the
    configuration's index, its full label, and each cell's text and sort key. `rows` are
    `results.rows()`, `outcomes` their `bench_statistics.puzzle_outcomes`."""
    labels = list(shorts)  # short_labels keeps the order of the configurations
    summary = scored_summary(
        rows, time_limit=results.time_limit, baseline=baseline, intervals=results.repeat > 1
    )
    cpu = cpu_statistics(rows)
    refused = _refused(results, certifications)
    columns = summary_columns(
        summary,
        baseline=baseline,
        several_modes=len({row.mode for row in summary}) > 1,
        certified=bool(certifications),
    )
    shown = []
    for row in summary:
        key = (row.set, row.mode, row.backend)
        mean, _, p90 = cpu.get(key, (None, None, None))
        short = shorts.get(row.backend)
        text = short.text if short else row.backend
        extra = {
            "short": f"{text} (excluded)" if row.excluded else text,
            "cpu_mean": mean,
            "cpu_p90": p90,
            "refused": refused.get(key, 0),
        }
        shown.append(
            {
                "configuration": labels.index(row.backend) if row.backend in labels else -1,
                "full": _full(row, short),
                "baseline": row.backend == baseline,
                "cells": [
                    {"text": column.text(row, extra), "sort": column.sort(row, extra)}
                    for column in columns
                ],
            }
        )
    return {"columns": columns, "rows": shown, "legend": _legend(results, baseline, shorts)}


def _full(row: SummaryRow, short: ShortLabel | None) -> str:
    """What hovering a row's configuration says."""
    if row.backend == VIRTUAL_BEST:
        return "the virtual best solver: on each puzzle, the fastest configuration not excluded"
    if is_virtual(row.backend):
        return "the virtual best of the portfolio's members: on each puzzle, the fastest of them"
    full = short.full if short else row.backend
    return (
        f"{full}: excluded from this set's Borda scores and its VBS (a wrong answer)"
        if (row.excluded)
        else full
    )


def _refused(
    results: Results, certifications: Mapping[RunKey, RunCertification]
) -> dict[tuple[str, str, str], int]:
    """Per (set, mode, configuration): the runs a proof checker refused."""
    found: dict[tuple[str, str, str], int] = {}
    for (index, label, _), certification in certifications.items():
        if not certification.certified:
            entry = results.entries[index]
            key = (entry.set, str(entry.mode), label)
            found[key] = found.get(key, 0) + 1
    return found


def _legend(results: Results, baseline: str | None, shorts: Mapping[str, ShortLabel]) -> str:
    text = summary_legend(
        baseline=baseline,
        time_limit=results.time_limit,
        repeat=results.repeat,
        ratio_name=f"t / baseline ({baseline})",
    )
    return (
        text + " CPU mean, median, p90: over the answered runs that recorded CPU time."
        " Sort by any column with a click on its title."
    )


def session_list(results: Results) -> list[dict[str, Any]]:
    """Every session: its file, whether it resumed, its environment rows, its exact command
    line and its set-up rows (None when it measured none)."""
    sessions = []
    for path, header in sessions_of(results):
        setup = header.setup
        sessions.append(
            {
                "path": path,
                "command": header.command,
                "resumed": header.resumed,
                "argv": command_line(header),
                "rows": [row for row in environment_rows(header) if row[0] != "command"],
                "setup": setup_rows(setup) if setup else None,
                "setup_columns": SETUP_COLUMNS,
            }
        )
    return sessions


__all__ = ["Column", "session_list", "summary_columns", "summary_table"]
