"""Bench statistics over the runs of results logs (pure: returns data).

What is timed: a run's time is `SolveResult.seconds`, the in-process solve time of one puzzle
(model or CNF building for that puzzle included; Python start-up, file reading and the one-off
set-up of a grid shape excluded: see `environment.measure_setup`). Every timed run is verified by
the engine with the one checker: a wrong run is recorded with status `wrong`, counted, and never
enters the time statistics. CPU time is recorded next to wall time.

Statistics are per puzzle: a puzzle's outcome is the worst of its repeats (wrong, then error,
then timeout, then answered), and its time is the median of its repeats' seconds.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .result import RunStatus
from .results_log.reader import RunRow
from .verify import worst

TINY_SECONDS = 1e-9  # a floor for ratios of times, which are never truly zero


# -- statistics ------------------------------------------------------------------------------------


def percentile(values: Sequence[float], percent: float) -> float:
    """The nearest-rank percentile: the smallest value with `percent`% of the values at or below.

    Raises:
        ValueError: for no values or a percent outside (0, 100].
    """
    if not values:
        raise ValueError("percentile of no values")
    if not 0 < percent <= 100:
        raise ValueError(f"percent must be in (0, 100], got {percent}")
    ordered = sorted(values)
    # Exact arithmetic: 0.9 * 30 in floating point could round the rank up by one.
    rank = math.ceil(Fraction(str(percent)) * len(ordered) / 100)
    return ordered[max(rank, 1) - 1]


def par2(outcomes: Iterable[PuzzleOutcome], *, time_limit: float | None) -> float | None:
    """Mean PAR-2 per puzzle: its time if solved within the limit, else twice the limit (None:
    no limit)."""
    if time_limit is None:
        return None
    scores = [
        outcome.seconds
        if outcome.solved_within(time_limit) and outcome.seconds is not None
        else 2 * time_limit
        for outcome in outcomes
    ]
    return statistics.fmean(scores) if scores else None


def paired_times(
    outcomes: Mapping[Any, PuzzleOutcome], baseline: Mapping[Any, PuzzleOutcome]
) -> list[tuple[float, float]]:
    """(time, baseline time) of every puzzle both answered."""
    pairs = []
    for key, outcome in outcomes.items():
        other = baseline.get(key)
        if (
            other is not None
            and outcome.answered
            and other.answered
            and outcome.seconds is not None
            and other.seconds is not None
        ):
            pairs.append((outcome.seconds, other.seconds))
    return pairs


def geometric_mean_ratio(
    outcomes: Mapping[Any, PuzzleOutcome], baseline: Mapping[Any, PuzzleOutcome]
) -> tuple[float | None, int]:
    """The geometric mean over puzzles both answered of time / baseline time, and their number."""
    logs = [
        math.log(max(mine, TINY_SECONDS) / max(theirs, TINY_SECONDS))
        for mine, theirs in paired_times(outcomes, baseline)
    ]
    return (math.exp(statistics.fmean(logs)), len(logs)) if logs else (None, 0)


@dataclass(frozen=True)
class PuzzleOutcome:
    """One puzzle for one backend: the worst status of its repeats, the median of their times."""

    status: RunStatus
    seconds: float | None  # median over repeats; None unless every repeat answered
    size: int
    givens: int
    rating: int | None = None  # the puzzle's explain level, when the log has it (bench --rating)

    def __post_init__(self) -> None:
        object.__setattr__(self, "status", RunStatus(self.status))

    @property
    def answered(self) -> bool:
        return self.status.answered

    def solved_within(self, time_limit: float | None) -> bool:
        """Solved, as the summary and the scores count it: answered, and within the time limit
        when there is one (an answer that came after the limit does not count)."""
        if not self.answered or self.seconds is None:
            return False
        return time_limit is None or self.seconds <= time_limit


GroupKey = tuple[str, str, str]  # (set, mode, backend)


def deduplicate(rows: Iterable[RunRow]) -> list[RunRow]:
    """One run per (set, puzzle, backend, mode, repeat), the last one written winning."""
    latest: dict[tuple[Any, ...], RunRow] = {}
    for row in rows:
        key = (row.set, row.number, row.entry.puzzle, row.backend, row.mode, row.run.repeat)
        latest[key] = row
    return list(latest.values())


def puzzle_outcomes(rows: Iterable[RunRow]) -> dict[GroupKey, dict[int, PuzzleOutcome]]:
    """Per (set, mode, backend), in order of first appearance: puzzle index -> outcome."""
    runs: dict[GroupKey, dict[int, list[RunRow]]] = {}
    for row in deduplicate(rows):
        key = (row.set, row.mode, row.backend)
        runs.setdefault(key, {}).setdefault(row.number, []).append(row)
    outcomes: dict[GroupKey, dict[int, PuzzleOutcome]] = {}
    for key, puzzles in runs.items():
        outcomes[key] = {}
        for index, repeats in puzzles.items():
            status = worst([row.status for row in repeats])
            seconds = (
                statistics.median(row.seconds or 0.0 for row in repeats)
                if status.answered
                else None
            )
            entry = repeats[0].entry
            level = entry.rating["level"] if entry.rating else None
            outcomes[key][index] = PuzzleOutcome(status, seconds, entry.size, entry.givens, level)
    return outcomes


@dataclass(frozen=True)
class SummaryRow:
    """The statistics of one backend on one set in one mode; times in seconds."""

    set: str
    mode: str
    backend: str
    puzzles: int
    solved: int  # answered within the limit (a completion, or an uncontradicted "unsatisfiable")
    timeouts: int
    wrong: int
    errors: int
    par2: float | None
    mean: float | None
    median: float | None
    p90: float | None
    p99: float | None
    max: float | None
    ratio: float | None  # geometric mean of time / baseline time over puzzles both answered
    ratio_puzzles: int
    cpu_median: float | None = None  # median CPU seconds of the answered puzzles
    max_rss_mb: float | None = None  # peak memory of the process(es) that ran it
    median_ci: tuple[float, float] | None = None  # 95% bootstrap interval of the median
    ratio_ci: tuple[float, float] | None = None  # 95% bootstrap interval of the ratio
    p_value: float | None = None  # paired Wilcoxon signed-rank test against the baseline
    borda: float | None = None  # MiniZinc's complete score (`scores`); None when excluded
    unique: int | None = None  # puzzles only this configuration solved
    excluded: bool = False  # a wrong answer on the set: out of its ranking and virtual best


def summarize(
    rows: Iterable[RunRow],
    *,
    time_limit: float | None,
    baseline: str | None,
    intervals: bool = False,
    outcomes: Mapping[GroupKey, Mapping[int, PuzzleOutcome]] | None = None,
) -> list[SummaryRow]:
    """The summary table: one row per (set, mode, backend), sets and backends in input order.

    With `intervals` (bench does it with --repeat), and scipy installed: 95% bootstrap intervals
    of each median and ratio to the baseline, and a paired Wilcoxon signed-rank test against the
    baseline on the puzzles both answered. `outcomes`: `puzzle_outcomes(rows)`, if known.
    """
    rows = list(rows)
    outcomes = puzzle_outcomes(rows) if outcomes is None else outcomes
    extra = _run_extras(rows)
    summary: list[SummaryRow] = []
    for (name, mode, backend), puzzles in outcomes.items():
        times = [
            outcome.seconds
            for outcome in puzzles.values()
            if outcome.solved_within(time_limit) and outcome.seconds is not None
        ]
        statuses = [outcome.status for outcome in puzzles.values()]
        reference = outcomes.get((name, mode, baseline)) if baseline else None
        ratio, ratio_puzzles = (
            geometric_mean_ratio(puzzles, reference) if reference is not None else (None, 0)
        )
        summary.append(
            SummaryRow(
                set=name,
                mode=mode,
                backend=backend,
                puzzles=len(puzzles),
                solved=sum(outcome.solved_within(time_limit) for outcome in puzzles.values()),
                timeouts=statuses.count(RunStatus.TIMEOUT),
                wrong=statuses.count(RunStatus.WRONG),
                errors=statuses.count(RunStatus.ERROR),
                par2=par2(puzzles.values(), time_limit=time_limit),
                mean=statistics.fmean(times) if times else None,
                median=statistics.median(times) if times else None,
                p90=percentile(times, 90) if times else None,
                p99=percentile(times, 99) if times else None,
                max=max(times) if times else None,
                ratio=ratio,
                ratio_puzzles=ratio_puzzles,
                cpu_median=extra.get((name, mode, backend), (None, None))[0],
                max_rss_mb=extra.get((name, mode, backend), (None, None))[1],
            )
        )
        if intervals and times:
            summary[-1] = _with_intervals(
                summary[-1], times, puzzles, reference, is_baseline=backend == baseline
            )
    # Sets, then modes, in order of first appearance; sorting is stable, so backends keep theirs.
    set_order = {name: number for number, name in enumerate(dict.fromkeys(k[0] for k in outcomes))}
    mode_order = {mode: number for number, mode in enumerate(dict.fromkeys(k[1] for k in outcomes))}
    summary.sort(key=lambda row: (set_order[row.set], mode_order[row.mode]))
    return summary


def _run_extras(rows: Sequence[RunRow]) -> dict[GroupKey, tuple[float | None, float | None]]:
    """Per (set, mode, backend): the median CPU seconds of answered runs, the peak memory."""
    cpu: dict[GroupKey, list[float]] = {}
    peak: dict[GroupKey, float] = {}
    for row in rows:
        key = (row.set, row.mode, row.backend)
        run = row.run
        if run.cpu_seconds is not None and run.status.answered:
            cpu.setdefault(key, []).append(run.cpu_seconds)
        if run.max_rss_mb is not None:
            peak[key] = max(peak.get(key, 0.0), run.max_rss_mb)
    keys = set(cpu) | set(peak)
    return {
        key: (statistics.median(cpu[key]) if key in cpu else None, peak.get(key)) for key in keys
    }


def cpu_statistics(rows: Iterable[RunRow]) -> dict[GroupKey, tuple[float, float, float]]:
    """Per (set, mode, backend): the mean, the median and the p90 (nearest rank) of the CPU
    seconds of its answered runs, over the runs that recorded them (the median is the summary
    row's `cpu_median`)."""
    cpu: dict[GroupKey, list[float]] = {}
    for row in rows:  # as `summarize` counts them, so the medians are the same
        if row.run.cpu_seconds is not None and row.status.answered:
            cpu.setdefault((row.set, row.mode, row.backend), []).append(row.run.cpu_seconds)
    return {
        key: (statistics.fmean(values), statistics.median(values), percentile(values, 90))
        for key, values in cpu.items()
    }


BOOTSTRAP_RESAMPLES = 2000
CONFIDENCE = 0.95


def statistics_available() -> bool:
    """Whether scipy (the optional extra `stats`) is installed."""
    import importlib.util

    return importlib.util.find_spec("scipy") is not None


def bootstrap_interval(
    values: Sequence[float], *, of: str = "median", seed: int = 0
) -> tuple[float, float] | None:
    """A 95% percentile-bootstrap interval of the median (or of the mean) of `values`, by
    scipy.stats.bootstrap with a fixed seed; None for fewer than two values or no scipy."""
    if len(values) < 2 or not statistics_available():
        return None
    import numpy
    from scipy import stats

    statistic = numpy.median if of == "median" else numpy.mean
    result = stats.bootstrap(
        (numpy.asarray(values, dtype=float),),
        statistic,
        confidence_level=CONFIDENCE,
        n_resamples=BOOTSTRAP_RESAMPLES,
        method="percentile",
        random_state=seed,
        vectorized=True,
        batch=200,
    )
    return float(result.confidence_interval.low), float(result.confidence_interval.high)


def wilcoxon_p(pairs: Sequence[tuple[float, float]]) -> float | None:
    """The two-sided p-value of a paired Wilcoxon signed-rank test (scipy.stats.wilcoxon);
    None when it cannot be computed (no scipy, too few pairs, or all differences zero)."""
    if len(pairs) < 2 or not statistics_available():
        return None
    from scipy import stats

    mine, theirs = zip(*pairs, strict=True)
    if all(a == b for a, b in pairs):
        return None  # no difference to rank: the test says nothing
    try:
        result = stats.wilcoxon(mine, theirs)
    except ValueError:
        return None
    return float(result.pvalue)


def _with_intervals(
    row: SummaryRow,
    times: Sequence[float],
    puzzles: Mapping[int, PuzzleOutcome],
    reference: Mapping[int, PuzzleOutcome] | None,
    *,
    is_baseline: bool,
) -> SummaryRow:
    from dataclasses import replace

    median_ci = bootstrap_interval(times)
    ratio_ci = p_value = None
    if reference is not None and not is_baseline:
        pairs = paired_times(puzzles, reference)
        logs = [
            math.log(max(mine, TINY_SECONDS) / max(theirs, TINY_SECONDS)) for mine, theirs in pairs
        ]
        interval = bootstrap_interval(logs, of="mean")
        ratio_ci = (math.exp(interval[0]), math.exp(interval[1])) if interval else None
        p_value = wilcoxon_p(pairs)
    return replace(row, median_ci=median_ci, ratio_ci=ratio_ci, p_value=p_value)


def has_failures(rows: Iterable[RunRow]) -> bool:
    """Whether any run was wrong or raised (what makes `bench` exit 1)."""
    return any(row.status in (RunStatus.WRONG, RunStatus.ERROR) for row in rows)
