"""The data of the HTML report, built once from the results (pure: returns data).

Three parts, each built by the library's own code:

- the page's static tables (`summary_table`, `session_list`): `bench_statistics.summarize` and
  `bench_statistics.cpu_statistics`, the formatters and legend of `render`, the environment rows of
  `report`; drawn by the template, sortable in the page;
- `columns`: one array per field with one entry per puzzle record (set, number, line, shape,
  givens, mode, verdict, the puzzle; per configuration its status, time and CPU time from
  `bench_statistics.puzzle_outcomes`): what the tables, filters and plots of the page read;
- `details`: one compact JSON text per record (the answers, the marks of `answers.answers_of`,
  every run's figures), parsed by the page only when a puzzle is opened.

`columns` and `details` are packed (`pack`: JSON, gzip, base64), which keeps a page of 50,000
records near a few megabytes; the page unpacks them with the browser's DecompressionStream.
Times are integers in units of `TIME_UNIT` seconds (the log's own rounding), -1 for none.
"""

from __future__ import annotations

import base64
import gzip
import json
import statistics
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeVar

from ..bench_statistics import GroupKey, PuzzleOutcome
from ..grid import Shape, default_box
from ..labels import ShortLabel, labels_of
from ..result import RunStatus, Verdict
from ..results_log.reader import Results
from ..results_log.records import PuzzleEntry, Run
from .answers import MARKS, answers_of
from .certificates import RunCertification, RunKey

TIME_UNIT = 1e-7
STATUSES: tuple[str, ...] = tuple(status.value for status in RunStatus)
VERDICTS: tuple[str, ...] = tuple(verdict.value for verdict in Verdict)
NONE = -1  # no status, no time
T = TypeVar("T")


def to_json(data: Any) -> str:
    """Compact JSON, ASCII only (so that a newline only ever separates records)."""
    return json.dumps(data, separators=(",", ":"), ensure_ascii=True)


def pack(text: str) -> str:
    """ASCII text gzipped (no time stamp: the same results make the same page), as base64."""
    return base64.b64encode(gzip.compress(text.encode("ascii"), 6, mtime=0)).decode("ascii")


def units(seconds: float | None) -> int:
    """Seconds as an integer number of `TIME_UNIT`s; `NONE` for no time."""
    return NONE if seconds is None else round(float(seconds) / TIME_UNIT)


def configuration_list(results: Results) -> tuple[list[str], dict[str, ShortLabel]]:
    """The configuration labels in order, and the short label of each."""
    return results.labels(), labels_of(results)


def meta_data(
    results: Results,
    labels: Sequence[str],
    shorts: Mapping[str, ShortLabel],
    *,
    baseline: str | None,
    certified: bool,
) -> dict[str, Any]:
    """What the page knows before it unpacks anything: the configurations, the vocabularies
    that the packed columns index into, the time limit and the sizes."""
    return {
        "records": len(results.entries),
        "configurations": [
            {
                "label": label,
                "short": shorts[label].text,
                "backend": shorts[label].backend,
                "values": list(shorts[label].values),
                "full": shorts[label].full,
            }
            for label in labels
        ],
        "baseline": labels.index(baseline) if baseline in labels else None,
        "sets": _in_order(entry.set for entry in results.entries),
        "modes": _in_order(str(entry.mode) for entry in results.entries),
        "shapes": [list(shape) for shape in _shapes(results)],
        "statuses": list(STATUSES),
        "verdicts": list(VERDICTS),
        "marks": list(MARKS),
        "time_limit": results.time_limit,
        "time_unit": TIME_UNIT,
        "certified": certified,
        "ratings": sorted({entry.rating["level"] for entry in results.entries if entry.rating}),
    }


def _in_order(values: Iterable[T]) -> list[T]:
    return list(dict.fromkeys(values))


def _shape(entry: PuzzleEntry) -> tuple[int, int, int]:
    box: Shape = entry.shape() or default_box(entry.size)
    return entry.size, box[0], box[1]


def _shapes(results: Results) -> list[tuple[int, int, int]]:
    return _in_order(_shape(entry) for entry in results.entries)


def puzzle_columns(
    results: Results,
    labels: Sequence[str],
    outcomes: Mapping[GroupKey, Mapping[int, PuzzleOutcome]],
    certifications: Mapping[RunKey, RunCertification],
) -> dict[str, Any]:
    """The per-entry arrays of the page (see the module's docstring); `outcomes` are
    `bench_statistics.puzzle_outcomes` of the results' runs."""
    meta_sets = _in_order(entry.set for entry in results.entries)
    modes = _in_order(str(entry.mode) for entry in results.entries)
    shapes = _shapes(results)
    columns: dict[str, Any] = {
        "set": [],
        "number": [],
        "line": [],
        "shape": [],
        "givens": [],
        "mode": [],
        "verdict": [],
        "puzzle": [],
        "status": [[] for _ in labels],
        "time": [[] for _ in labels],
        "cpu": [[] for _ in labels],
    }
    for entry in results.entries:
        columns["set"].append(meta_sets.index(entry.set))
        columns["number"].append(entry.number)
        columns["line"].append(entry.line)
        columns["shape"].append(shapes.index(_shape(entry)))
        columns["givens"].append(entry.givens)
        columns["mode"].append(modes.index(str(entry.mode)))
        columns["verdict"].append(VERDICTS.index(str(entry.verdict)))
        columns["puzzle"].append(entry.puzzle)
        cpu: dict[str, list[float]] = {}
        for run in entry.runs:
            if run.cpu_seconds is not None:
                cpu.setdefault(run.backend, []).append(run.cpu_seconds)
        for number, label in enumerate(labels):
            outcome = outcomes.get((entry.set, str(entry.mode), label), {}).get(entry.number)
            _add_outcome(columns, number, outcome, cpu.get(label, []))
    if any(entry.rating for entry in results.entries):  # bench --rating
        columns["rating"] = [
            entry.rating["level"] if entry.rating else NONE for entry in results.entries
        ]
    if certifications:
        columns["cert"] = _certificate_columns(results, labels, certifications)
    return columns


def _add_outcome(
    columns: dict[str, Any],
    number: int,
    outcome: PuzzleOutcome | None,
    cpu: Sequence[float],
) -> None:
    """One configuration's status, time and CPU time on one entry (the median of repeats)."""
    if outcome is None:
        columns["status"][number].append(NONE)
        columns["time"][number].append(NONE)
        columns["cpu"][number].append(NONE)
        return
    columns["status"][number].append(STATUSES.index(outcome.status.value))
    columns["time"][number].append(units(outcome.seconds))
    answered = outcome.answered and bool(cpu)
    columns["cpu"][number].append(units(statistics.median(cpu)) if answered else NONE)


def _certificate_columns(
    results: Results, labels: Sequence[str], certifications: Mapping[RunKey, RunCertification]
) -> list[list[int]]:
    """Per configuration and entry: 1 every certified repeat, 0 one refused, -1 none."""
    found: list[list[int]] = [[NONE] * len(results.entries) for _ in labels]
    position = {label: number for number, label in enumerate(labels)}
    for (index, label, _), certification in certifications.items():
        if label in position:
            column = found[position[label]]
            column[index] = 0 if not certification.certified or column[index] == 0 else 1
    return found


def puzzle_details(
    results: Results,
    labels: Sequence[str],
    certifications: Mapping[RunKey, RunCertification],
    explanations: Sequence[Mapping[str, Any]] | None = None,
) -> list[str]:
    """One compact JSON text per entry: its source, box, findings, distinct answers with
    their marks and findings, every run (configuration index, repeat, status index, times
    in seconds, peak memory, answer index, count, reason, stats, certification) and, when
    given, its explanation (`explanations.puzzle_explanations`)."""
    position = {label: number for number, label in enumerate(labels)}
    details = []
    for index, entry in enumerate(results.entries):
        answers = answers_of(entry)
        detail: dict[str, Any] = {"src": entry.source, "f": list(entry.findings)}
        if entry.box:
            detail["box"] = entry.box
        if answers.grids:
            detail.update(a=answers.grids, ref=answers.reference)
            if any(answers.marks) or any(answers.problems):
                detail.update(mk=answers.marks, pb=answers.problems)
        detail["r"] = [
            _run_detail(run, position, answers.index(run.grid_text), certifications, index)
            for run in entry.runs
        ]
        if explanations is not None:
            detail["ex"] = explanations[index]
        details.append(to_json(detail))
    return details


def _run_detail(
    run: Run,
    position: Mapping[str, int],
    answer: int | None,
    certifications: Mapping[RunKey, RunCertification],
    index: int,
) -> dict[str, Any]:
    detail: dict[str, Any] = {
        "c": position.get(run.backend, NONE),
        "k": run.repeat,
        "s": STATUSES.index(str(run.status)),
    }
    stored = run.to_json()
    for key, name in (
        ("t", "seconds"),
        ("cpu", "cpu_seconds"),
        ("bld", "build_seconds"),
        ("slv", "solve_seconds"),
        ("mb", "max_rss_mb"),
        ("n", "count"),
        ("why", "reason"),
    ):
        if stored.get(name) is not None:
            detail[key] = stored[name]
    if run.limit_reached:
        detail["lr"] = 1
    if answer is not None:
        detail["a"] = answer
    if run.stats:
        detail["x"] = dict(run.stats)
    certification = certifications.get((index, run.backend, run.repeat))
    if certification is not None:
        detail["cert"] = [int(certification.certified), certification.reason]
    return detail


__all__ = [
    "NONE",
    "STATUSES",
    "TIME_UNIT",
    "VERDICTS",
    "configuration_list",
    "meta_data",
    "pack",
    "puzzle_columns",
    "puzzle_details",
    "to_json",
    "units",
]
