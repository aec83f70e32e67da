"""bench_statistics: nearest-rank percentiles, PAR-2, the geometric mean ratio and the summary rows
on hand-made runs; confidence intervals, the Wilcoxon test and per-configuration memory (these
need scipy), measured for real."""

from __future__ import annotations

import importlib.util
import math

import pytest

from sudoku_cp.bench_statistics import (
    PuzzleOutcome,
    bootstrap_interval,
    geometric_mean_ratio,
    has_failures,
    par2,
    percentile,
    puzzle_outcomes,
    summarize,
    wilcoxon_p,
)
from sudoku_cp.configurations import Configuration
from sudoku_cp.engine import execute
from sudoku_cp.executors.isolated import IsolatedExecutor
from sudoku_cp.formats import read_puzzles
from sudoku_cp.judging import SolveSettings
from sudoku_cp.render.bench import render_summary_text
from sudoku_cp.results_log.reader import RunRow

from .bench_helpers import hand_made_rows, rows_of, run_row
from .conftest import BAEKJOON_2239, G17

# The intervals and the Wilcoxon test need scipy (the `stats` extra); the rest does not.
needs_scipy = pytest.mark.skipif(
    importlib.util.find_spec("scipy") is None, reason="could not import 'scipy'"
)


@needs_scipy
def test_the_bootstrap_interval_holds_the_median_and_narrows_with_more_data():
    few = [1.0, 2.0, 3.0, 4.0, 100.0]
    many = few * 40
    low, high = bootstrap_interval(few)
    assert low <= 3.0 <= high
    narrow = bootstrap_interval(many)
    assert narrow[1] - narrow[0] < high - low
    assert bootstrap_interval([1.0]) is None
    assert bootstrap_interval(few) == bootstrap_interval(few)  # a fixed seed: reproducible


@needs_scipy
def test_wilcoxon_tells_a_shifted_configuration_from_noise():
    base = [0.001 * (1 + i % 7) for i in range(30)]
    slower = [(t * 2, t) for t in base]
    assert wilcoxon_p(slower) < 0.001
    mixed = [(t + (0.0001 if i % 2 else -0.0001), t) for i, t in enumerate(base)]
    assert wilcoxon_p(mixed) > 0.05
    assert wilcoxon_p([(1.0, 1.0), (2.0, 2.0)]) is None  # every difference zero


def run_rows(label: str, times: list[float]) -> list[RunRow]:
    return [
        run_row("s", i, label, "solved", t, cpu_seconds=t, max_rss_mb=40.0)
        for i, t in enumerate(times)
    ]


@needs_scipy
def test_summary_rows_carry_intervals_and_p_values_only_when_asked():
    times = [0.001 * (1 + i % 5) for i in range(20)]
    rows = run_rows("a", times) + run_rows("b", [t * 3 for t in times])
    plain = summarize(rows, time_limit=None, baseline="a")
    assert all(row.median_ci is None and row.p_value is None for row in plain)
    a, b = summarize(rows, time_limit=None, baseline="a", intervals=True)
    assert a.ratio_ci is None and a.p_value is None  # the baseline against itself: nothing
    assert b.ratio_ci[0] - 1e-9 <= 3.0 <= b.ratio_ci[1] + 1e-9 and b.p_value < 0.001
    assert b.median_ci[0] <= b.median <= b.median_ci[1]
    text = render_summary_text([a, b], baseline="a")
    assert "median 95% CI" in text and "Wilcoxon p" in text and "<0.001" in text


@needs_scipy
def test_each_configuration_runs_in_its_own_process_with_its_own_peak_memory():
    _, records = read_puzzles(f"{BAEKJOON_2239}\n{G17}\n")
    specs = [Configuration("dfs"), Configuration("sat")]
    results = list(execute(records, specs, SolveSettings(), executor=IsolatedExecutor()))
    assert [result.verdict for result in results] == ["agree", "agree"]
    for result in results:
        dfs, sat = result.answer("dfs"), result.answer("sat")
        assert dfs.max_rss_mb and sat.max_rss_mb and dfs.cpu_seconds is not None
    # sat's process loaded pysat and built a CNF; dfs's did not: their peaks differ.
    assert results[-1].answer("sat").max_rss_mb != results[-1].answer("dfs").max_rss_mb


def test_percentile_is_nearest_rank() -> None:
    values = [float(value) for value in range(10, 0, -1)]  # unsorted on purpose
    assert [percentile(values, p) for p in (10, 50, 90, 99, 100)] == [1, 5, 9, 10, 10]
    assert percentile([5.0, 1.0, 3.0], 90) == 5.0  # rank ceil(2.7) = 3
    assert percentile(values, 91) == 10 and percentile([1.0, 2.0, 3.0, 4.0], 30) == 2.0  # up
    assert percentile([4.0], 99) == 4.0
    # 0.07 * 100 is 7.000000000000001 in floating point: the rank must still be 7, not 8.
    assert percentile([float(value) for value in range(1, 101)], 7) == 7
    with pytest.raises(ValueError):
        percentile([], 50)
    with pytest.raises(ValueError):
        percentile([1.0], 0)


def test_par2_counts_twice_the_limit_for_every_unsolved_puzzle() -> None:
    outcomes = [
        PuzzleOutcome("solved", 1.0, 9, 30),
        PuzzleOutcome("timeout", None, 9, 30),
        PuzzleOutcome("wrong", None, 9, 30),
        PuzzleOutcome("error", None, 9, 30),
        PuzzleOutcome("unsatisfiable", 3.0, 9, 30),
    ]
    assert par2(outcomes, time_limit=10.0) == pytest.approx((1 + 20 + 20 + 20 + 3) / 5)
    assert par2(outcomes, time_limit=None) is None  # no limit, no penalty: refused, not guessed


def test_geometric_mean_ratio_over_puzzles_both_solved() -> None:
    mine = {
        0: PuzzleOutcome("solved", 2.0, 9, 30),
        1: PuzzleOutcome("solved", 8.0, 9, 30),
        2: PuzzleOutcome("solved", 1.0, 9, 30),
        3: PuzzleOutcome("solved", 5.0, 9, 30),
        4: PuzzleOutcome("timeout", None, 9, 30),
    }
    base = {
        0: PuzzleOutcome("solved", 1.0, 9, 30),
        1: PuzzleOutcome("solved", 2.0, 9, 30),
        2: PuzzleOutcome("solved", 4.0, 9, 30),
        3: PuzzleOutcome("timeout", None, 9, 30),
        4: PuzzleOutcome("solved", 1.0, 9, 30),
    }
    ratio, puzzles = geometric_mean_ratio(mine, base)
    assert puzzles == 3  # puzzles 3 and 4 were not solved by both
    assert ratio == pytest.approx((2 * 4 * 0.25) ** (1 / 3))
    assert geometric_mean_ratio(mine, {}) == (None, 0)


def test_summary_by_hand() -> None:
    a, b = summarize(hand_made_rows(), time_limit=10.0, baseline="a")
    assert (a.set, a.mode, a.backend) == ("top", "lexmin", "a")
    assert (a.puzzles, a.solved, a.timeouts, a.wrong, a.errors) == (3, 2, 1, 0, 0)
    assert a.par2 == pytest.approx((0.001 + 0.004 + 20) / 3)
    assert (a.mean, a.median, a.p90, a.p99, a.max) == pytest.approx(
        (0.0025, 0.0025, 0.004, 0.004, 0.004)
    )
    assert a.ratio == pytest.approx(1.0) and a.ratio_puzzles == 2
    assert b.par2 == pytest.approx((0.002 + 0.001 + 0.5) / 3) == b.mean
    assert (b.median, b.p90, b.p99, b.max) == pytest.approx((0.002, 0.5, 0.5, 0.5))
    assert b.ratio == pytest.approx(math.sqrt(2 * 0.25))  # only puzzles 0 and 1: a timed out on 2
    assert b.ratio_puzzles == 2


def test_repeats_median_time_and_worst_status() -> None:
    runs = [
        run_row("s", 0, "a", "solved", seconds, repeat=repeat)
        for repeat, seconds in enumerate([0.3, 0.1, 0.2])
    ]
    runs += [
        run_row("s", 1, "a", "solved", 0.1, repeat=0),
        run_row("s", 1, "a", "timeout", 1.0, repeat=1),
        run_row("s", 1, "a", "solved", 0.1, repeat=2),
    ]
    runs += [
        run_row("s", 2, "a", "error", None, repeat=0),
        run_row("s", 2, "a", "wrong", 0.1, repeat=1),
    ]
    outcomes = puzzle_outcomes(runs)[("s", "lexmin", "a")]
    assert outcomes[0] == PuzzleOutcome("solved", 0.2, 9, 30)
    assert outcomes[1] == PuzzleOutcome("timeout", None, 9, 30)
    assert outcomes[2] == PuzzleOutcome("wrong", None, 9, 30)  # wrong is worse than error


def test_runs_written_twice_count_once_last_wins() -> None:
    runs = [run_row("s", 0, "a", "timeout", 1.0), run_row("s", 0, "a", "solved", 0.5)]
    (row,) = summarize(rows_of(runs), time_limit=1.0, baseline=None)
    assert (row.puzzles, row.solved, row.timeouts, row.mean) == (1, 1, 0, 0.5)


def test_rows_follow_sets_then_modes_then_backends_in_order_of_appearance() -> None:
    runs = [
        run_row("s2", 0, "b", "solved", 0.1),
        run_row("s1", 0, "a", "solved", 0.1),
        run_row("s2", 0, "a", "solved", 0.1),
        run_row("s1", 0, "b", "solved", 0.1),
        run_row("s2", 0, "a", "solved", 0.1, mode="any"),
    ]
    rows = summarize(rows_of(runs), time_limit=None, baseline="a")
    assert [(row.set, row.mode, row.backend) for row in rows] == [
        ("s2", "lexmin", "b"),
        ("s2", "lexmin", "a"),
        ("s2", "any", "a"),
        ("s1", "lexmin", "a"),
        ("s1", "lexmin", "b"),
    ]
    assert all(row.par2 is None for row in rows)


def test_wrong_and_error_runs_are_failures_timeouts_are_not() -> None:
    assert not has_failures(
        [run_row("s", 0, "a", "solved", 0.1), run_row("s", 1, "a", "timeout", 1.0)]
    )
    assert has_failures([run_row("s", 0, "a", "wrong", 0.1)])
    assert has_failures([run_row("s", 0, "a", "error", None)])
