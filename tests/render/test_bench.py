"""render.bench: bench's summary as text, Markdown, LaTeX (booktabs) and CSV, exact; the scored
summary's columns, the legend, the set-up line per backend."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from sudoku_cp.bench_statistics import summarize
from sudoku_cp.render.bench import (
    latex_escape,
    render_setup_text,
    render_summary_csv,
    render_summary_latex,
    render_summary_markdown,
    render_summary_text,
    summary_legend,
)
from sudoku_cp.results_log.reader import RunRow
from sudoku_cp.scores import scored_summary

from ..bench_helpers import (
    FAILURES,
    SETUP,
    Record,
    bench_table,
    entries,
    failures_records,
    hand_made_rows,
    run_row,
)


def rows_of(
    records: list[Record] | None = None,
    *,
    time_limit: float | None = 10.0,
    baseline: str | None = "a",
) -> Any:
    return summarize(
        records if records is not None else hand_made_rows(),
        time_limit=time_limit,
        baseline=baseline,
    )


def test_summary_text_table_exact() -> None:
    assert render_summary_text(rows_of(), baseline="a").splitlines() == [
        "top: 3 puzzles",
        "  backend  solved  timeout wrong error  PAR-2  median   max  ratio",
        "  a             2        1     0     0   6668    2.50  4.00   1.00",
        "  b             3        0     0     0    168    2.00   500   0.71",
        "  backend  mean   p90   p99",
        "  a        2.50  4.00  4.00",
        "  b         168   500   500",
    ]


def test_the_scored_summary_adds_borda_unique_and_the_virtual_best() -> None:
    """Borda by hand: a 2/3 + 1/5 + 0, b 1/3 + 4/5 + 1 (a times out on the third puzzle)."""
    rows = scored_summary(hand_made_rows(), time_limit=10.0, baseline="a")
    assert [(row.backend, row.solved, row.unique) for row in rows] == [
        ("a", 2, 0),
        ("b", 3, 1),
        ("VBS", 3, None),
    ]
    assert rows[0].borda == pytest.approx(2 / 3 + 1 / 5)
    assert rows[1].borda == pytest.approx(1 / 3 + 4 / 5 + 1)
    assert rows[2].median == pytest.approx(0.001) and rows[2].timeouts == 0
    lines = render_summary_text(rows, baseline="a", shorts={"a": "a", "b": "b"}).splitlines()
    assert lines[1].split() == ["backend", "solved", "timeout", "wrong", "error", "PAR-2"] + [
        "Borda",
        "median",
        "max",
        "ratio",
    ]
    assert lines[4].split() == ["VBS", "3", "0", "-", "-", "167", "-", "1.00", "500", "-"]
    assert max(len(line) for line in lines) <= 80


def test_summary_markdown_table_exact() -> None:
    assert render_summary_markdown(rows_of(), baseline=None).splitlines() == [
        "| set | backend | puzzles | solved | timeout | wrong | error | PAR-2 | mean | median | "
        "p90 | p99 | max |",
        "| :--- | :--- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | "
        "---: |",
        "| top | a | 3 | 2 | 1 | 0 | 0 | 6668 | 2.50 | 2.50 | 4.00 | 4.00 | 4.00 |",
        "| top | b | 3 | 3 | 0 | 0 | 0 | 168 | 168 | 2.00 | 500 | 500 | 500 |",
    ]


def test_a_mode_column_appears_only_with_several_modes() -> None:
    records = hand_made_rows() + [run_row("top", 0, "a", "solved", 0.001, mode="any")]
    rows = rows_of(records, time_limit=None, baseline=None)
    assert render_summary_text(rows, baseline=None).splitlines()[0] == "top, lexmin: 3 puzzles"
    assert [(row.mode, row.backend) for row in rows] == [
        ("lexmin", "a"),
        ("lexmin", "b"),
        ("any", "a"),
    ]
    assert (
        render_summary_markdown(rows, baseline=None)
        .splitlines()[1]
        .startswith("| :--- | :--- | :--- | ---: |")
    )  # set, mode and backend are text, left-aligned
    assert render_summary_text(rows_of(), baseline="a").splitlines()[0] == "top: 3 puzzles"


def test_latex_table_uses_booktabs_rules_and_escapes_text() -> None:
    records = hand_made_rows() + [run_row("x_y", 0, "a", "solved", 0.002)]
    assert render_summary_latex(rows_of(records), baseline="a").splitlines() == [
        r"\begin{tabular}{llrrrrrrrrrrrr}",
        r"\toprule",
        r"set & backend & puzzles & solved & timeout & wrong & error & PAR-2 & mean & median & "
        r"p90 & p99 & max & t/a \\",
        r"\midrule",
        r"top & a & 3 & 2 & 1 & 0 & 0 & 6668 & 2.50 & 2.50 & 4.00 & 4.00 & 4.00 & 1.00 \\",
        r"top & b & 3 & 3 & 0 & 0 & 0 & 168 & 168 & 2.00 & 500 & 500 & 500 & 0.71 \\",
        r"\midrule",  # between sets
        r"x\_y & a & 1 & 1 & 0 & 0 & 0 & 2.00 & 2.00 & 2.00 & 2.00 & 2.00 & 2.00 & 1.00 \\",
        r"\bottomrule",
        r"\end{tabular}",
    ]
    assert latex_escape("50% of a_b & {c} #1 $x ~^\\") == (
        r"50\% of a\_b \& \{c\} \#1 \$x \textasciitilde{}\textasciicircum{}\textbackslash{}"
    )


def test_csv_summary_has_one_row_per_set_mode_and_backend_in_seconds() -> None:
    text = render_summary_csv(rows_of())
    table = list(csv.reader(io.StringIO(text)))
    assert table[0] == [
        "set",
        "mode",
        "backend",
        "puzzles",
        "solved",
        "timeouts",
        "wrong",
        "errors",
        "par2",
        "mean",
        "median",
        "p90",
        "p99",
        "max",
        "ratio",
        "ratio_puzzles",
        "cpu_median",
        "max_rss_mb",
        "median_ci",
        "ratio_ci",
        "p_value",
        "borda",
        "unique",
        "excluded",
    ]
    a, b = table[1:]
    assert a[:8] == ["top", "lexmin", "a", "3", "2", "1", "0", "0"]
    assert [float(value) for value in a[8:15]] == pytest.approx(
        [(0.001 + 0.004 + 20) / 3, 0.0025, 0.0025, 0.004, 0.004, 0.004, 1.0]
    )
    assert float(b[14]) == pytest.approx(0.5**0.5) and b[15] == "2"
    empty = list(
        csv.reader(io.StringIO(render_summary_csv(rows_of(time_limit=None, baseline=None))))
    )
    assert empty[1][8] == "" and empty[1][14] == ""  # no limit, no baseline: empty, not "None"


def test_legend_says_what_the_columns_mean() -> None:
    legend = summary_legend(baseline="a", time_limit=10.0, repeat=3)
    assert "the median of its 3 timed repeats" in legend
    assert "counting 2 x 10 s" in legend and "t/a: geometric mean" in legend
    assert "p90, p99: nearest rank" in legend
    none = summary_legend(baseline=None, time_limit=None)
    assert "its one timed run" in none and "PAR-2: '-'" in none and "t/" not in none


def test_setup_text_one_line_per_backend() -> None:
    assert render_setup_text(SETUP).splitlines() == [
        "a: import 500 ms, create 1.00 ms; top first solve 20.0 ms (warm 2.00 ms)",
        "b: set-up not measured (ImportError: no solver)",
    ]


def test_the_text_table_counts_timeouts_wrong_and_errors_in_their_own_columns() -> None:
    """Each configuration has distinct non-zero counts: swapping two columns shows."""
    rows = [RunRow(entry, run) for entry in entries(failures_records()) for run in entry.runs]
    text = render_summary_text(scored_summary(rows, time_limit=10.0, baseline="a"), baseline="a")
    found = {
        label.split()[0]: {SAME_COLUMN.get(name, name): int(cells[name]) for name in COUNTED}
        for (_, label), cells in bench_table(text).items()
        if label.split()[0] in FAILURES
    }
    assert found == FAILURES


COUNTED = ("solved", "timeout", "wrong", "error")
SAME_COLUMN = {"timeout": "timeouts", "error": "errors"}
