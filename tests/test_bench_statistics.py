"""bench_statistics: confidence intervals, the Wilcoxon test and per-configuration memory, measured
for real."""

from __future__ import annotations

import pytest

from sudoku_cp.bench_statistics import bootstrap_interval, summarize, wilcoxon_p
from sudoku_cp.configurations import Configuration
from sudoku_cp.engine import execute
from sudoku_cp.executors.isolated import IsolatedExecutor
from sudoku_cp.formats import read_puzzles
from sudoku_cp.judging import SolveSettings
from sudoku_cp.render.bench import render_summary_text
from sudoku_cp.results_log.reader import RunRow

from .bench_helpers import run_row
from .conftest import BAEKJOON_2239, G17

pytest.importorskip("scipy")


def test_the_bootstrap_interval_holds_the_median_and_narrows_with_more_data():
    few = [1.0, 2.0, 3.0, 4.0, 100.0]
    many = few * 40
    low, high = bootstrap_interval(few)
    assert low <= 3.0 <= high
    narrow = bootstrap_interval(many)
    assert narrow[1] - narrow[0] < high - low
    assert bootstrap_interval([1.0]) is None
    assert bootstrap_interval(few) == bootstrap_interval(few)  # a fixed seed: reproducible


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
