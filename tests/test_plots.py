"""plots.py: every text of every plot inside the figure, scaling lines per size when by givens,
configuration labels as backend names, saving."""

from __future__ import annotations

import re
import sys
from dataclasses import replace
from typing import Any

import pytest

from sudoku_cp.plots import (
    MATPLOTLIB_MISSING,
    PLOT_KINDS,
    PlotError,
    PlotUnavailableError,
    cactus_figure,
    plot_figure,
    save_figure,
    scaling_figure,
    scaling_shortfall,
    scatter_figure,
)
from sudoku_cp.results_log.reader import RunRow

from .bench_helpers import rows_of


def run_record(
    set_name: str,
    index: int,
    backend: str,
    status: str,
    seconds: float,
    *,
    mode: str = "lexmin",
    size: int = 9,
    givens: int = 30,
) -> RunRow:
    """One run as `Results.rows()` yields it, with its puzzle entry."""
    flat = {
        "set": set_name,
        "number": index + 1,
        "index": index,
        "source": f"{set_name}.txt",
        "line": index + 1,
        "puzzle": f"p{index}",
        "size": size,
        "givens": givens,
        "mode": mode,
        "verdict": "agree",
        "backend": backend,
        "repeat": 0,
        "status": status,
        "seconds": seconds,
        "cpu_seconds": None,
        "build_seconds": None,
        "solve_seconds": None,
        "count": None,
        "reason": None,
        "solution": None,
    }
    (row,) = rows_of([flat])
    return row


# Two configurations of one backend, as `--backends "sat[solver=...]"` will label them.
GLUCOSE = "sat[solver=glucose3]"
CADICAL = "sat[solver=cadical195]"


@pytest.fixture
def matplotlib() -> Any:
    return pytest.importorskip("matplotlib")


def with_timeouts() -> list[dict[str, Any]]:
    """The records of `sudoku-cp bench data/generated/unique-25x25.txt --mode any --time-limit 1
    --backends dfs,sat`, as measured: both time out on puzzles 0 and 4, only sat solves 1."""
    runs = [
        (0, "dfs", "timeout", 1.001),
        (0, "sat", "timeout", 1.102),
        (1, "dfs", "timeout", 1.035),
        (1, "sat", "solved", 0.618),
        (2, "dfs", "solved", 0.0169),
        (2, "sat", "solved", 0.0090),
        (3, "dfs", "solved", 0.682),
        (3, "sat", "solved", 0.0390),
        (4, "dfs", "timeout", 1.027),
        (4, "sat", "timeout", 1.074),
    ]
    return [
        run_record(
            "unique-25x25", index, backend, status, seconds, mode="any", size=25, givens=300 + index
        )
        for index, backend, status, seconds in runs
    ]


def two_sizes_by_givens() -> list[dict[str, Any]]:
    """Sets of 9x9 and 16x16 puzzles whose givens overlap (30 and 32 are in both)."""
    records = []
    for set_name, size, givens in (("nine", 9, (28, 30, 32)), ("sixteen", 16, (30, 32, 90))):
        for index, count in enumerate(givens):
            for number, backend in enumerate(("dfs", "sat")):
                records.append(
                    run_record(
                        set_name,
                        index,
                        backend,
                        "solved",
                        0.001 * (number + 1) * size * (index + 1),
                        size=size,
                        givens=count,
                    )
                )
    return records


def relabelled(row: RunRow, backend: str, seconds: float | None = None) -> RunRow:
    """A run under another configuration label (and time)."""
    seconds = row.run.seconds if seconds is None else seconds
    return replace(row, run=replace(row.run, backend=backend, seconds=seconds))


def configurations() -> list[RunRow]:
    """with_timeouts() with the two backends renamed to two configuration labels."""
    rename = {"dfs": GLUCOSE, "sat": CADICAL}
    return [relabelled(row, rename[row.backend]) for row in with_timeouts()]


def six_configurations() -> list[RunRow]:
    """sat's runs of with_timeouts() under six configuration labels, each a little slower."""
    solvers = ("glucose3", "cadical195", "minisat22", "lingeling", "maplechrono", "glucose4")
    return [
        relabelled(row, f"sat[solver={solver}]", (row.seconds or 0.0) * (1 + n / 5))
        for n, solver in enumerate(solvers)
        for row in with_timeouts()
        if row.backend == "sat"
    ]


def drawn_extents(figure: Any) -> list[tuple[str, Any]]:
    """Draw the figure on an Agg canvas, as save_figure does, and return the window extent of
    every text and legend actually drawn (tick labels outside the view limits are not)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.legend import Legend
    from matplotlib.text import Text

    extents: list[tuple[str, Any]] = []
    draw_text, draw_legend = Text.draw, Legend.draw

    def text_spy(text: Text, renderer: Any) -> None:
        draw_text(text, renderer)
        if text.get_visible() and text.get_text():
            extents.append((text.get_text(), text.get_window_extent(renderer)))

    def legend_spy(legend: Legend, renderer: Any) -> None:
        draw_legend(legend, renderer)
        if legend.get_visible():
            extents.append(("legend", legend.get_window_extent(renderer)))

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Text, "draw", text_spy)
        patch.setattr(Legend, "draw", legend_spy)
        FigureCanvasAgg(figure)
        figure.canvas.draw()
    return extents


def outside(figure: Any) -> list[str]:
    """Every text and legend drawn that reaches past the figure's edges (1 px slack)."""
    extents = drawn_extents(figure)
    assert len(extents) > 8  # title, axis labels, ticks, legend: the check has work to do
    renderer = figure.canvas.get_renderer()
    width, height = renderer.width, renderer.height
    return [
        f"{name!r} at x {box.x0:.0f}..{box.x1:.0f} of {width:.0f}, "
        f"y {box.y0:.0f}..{box.y1:.0f} of {height:.0f}"
        for name, box in extents
        if box.x0 < -1 or box.y0 < -1 or box.x1 > width + 1 or box.y1 > height + 1
    ]


def line_labels(axes: Any) -> list[str]:
    return [line.get_label() for line in axes.get_lines() if not line.get_label().startswith("_")]


# -- every text inside the figure ------------------------------------------------------------------


@pytest.mark.parametrize("kind", PLOT_KINDS)
@pytest.mark.parametrize(
    "records", [with_timeouts, configurations, six_configurations, two_sizes_by_givens]
)
def test_every_text_lies_inside_the_figure(matplotlib, kind, records):
    assert outside(plot_figure(records(), kind, time_limit=1.0)) == []


def test_the_scatter_with_timeouts_keeps_its_labels_and_legend(matplotlib):
    figure = scatter_figure(with_timeouts(), time_limit=1.0)
    assert outside(figure) == []
    (axes,) = [axes for axes in figure.axes if axes.get_visible()]
    assert axes.get_xlabel() == "dfs: time per puzzle (ms)"
    assert axes.get_ylabel() == "sat: time per puzzle (ms)"
    one_sided = [c for c in axes.collections if c.get_label().startswith("solved by one only")]
    # Puzzle 1: sat in 618 ms, dfs timed out, drawn at the penalty 2 x 1 s.
    assert [list(point) for point in one_sided[0].get_offsets()] == [[2000.0, 618.0]]
    legend = axes.get_legend() or figure.legends[0]
    assert [text.get_text() for text in legend.get_texts()] == [
        "unique-25x25",
        "solved by one only (other at penalty)",
    ]


# -- scaling by givens: one line per size ----------------------------------------------------------


def test_scaling_by_givens_draws_one_line_per_backend_and_size(matplotlib):
    (axes,) = scaling_figure(two_sizes_by_givens(), by="givens").axes
    lines = {
        line.get_label(): list(line.get_xdata())
        for line in axes.get_lines()
        if not line.get_label().startswith("_")
    }
    assert lines == {
        "dfs, 9x9": [28, 30, 32],
        "sat, 9x9": [28, 30, 32],
        "dfs, 16x16": [30, 32, 90],
        "sat, 16x16": [30, 32, 90],
    }
    assert len(axes.collections) == 4  # a p10-p90 band per line
    by_size = {line.get_label(): line for line in axes.get_lines()}
    # One colour per backend, one marker per size: a backend reads the same across sizes.
    assert by_size["dfs, 9x9"].get_color() == by_size["dfs, 16x16"].get_color()
    assert by_size["dfs, 9x9"].get_marker() != by_size["dfs, 16x16"].get_marker()
    # The medians stay with their size: 9x9 dfs at 30 givens took 2 x 9 ms, 16x16 2 x 16 ms.
    assert list(by_size["dfs, 9x9"].get_ydata()) == pytest.approx([9, 18, 27])
    assert list(by_size["dfs, 16x16"].get_ydata()) == pytest.approx([16, 32, 48])


def test_scaling_by_givens_of_one_size_keeps_the_backend_labels(matplotlib):
    nine = [row for row in two_sizes_by_givens() if row.entry.size == 9]
    (axes,) = scaling_figure(nine).axes  # one size: by givens is the default
    assert line_labels(axes) == ["dfs", "sat"]
    assert list(axes.get_lines()[0].get_xdata()) == [28, 30, 32]


def test_scaling_by_size_pools_the_givens(matplotlib):
    (axes,) = scaling_figure(two_sizes_by_givens()).axes  # two sizes: by size is the default
    assert line_labels(axes) == ["dfs", "sat"]
    assert [list(line.get_xdata()) for line in axes.get_lines()] == [[9, 16], [9, 16]]
    with pytest.raises(PlotError, match="choose size, givens or rating"):
        scaling_figure(two_sizes_by_givens(), by="cells")


# -- configuration labels as backend names ---------------------------------------------------------


def test_configuration_labels_name_the_series(matplotlib):
    records = configurations()
    cactus = cactus_figure(records, time_limit=1.0)
    assert [text.get_text() for text in cactus.legends[0].get_texts()] == [GLUCOSE, CADICAL]
    (axes,) = scatter_figure(records, x=CADICAL, y=GLUCOSE).axes
    assert axes.get_xlabel() == f"{CADICAL}: time per puzzle (ms)"
    assert axes.get_ylabel() == f"{GLUCOSE}: time per puzzle (ms)"
    (axes,) = scaling_figure(records).axes
    assert line_labels(axes) == [GLUCOSE, CADICAL]
    with pytest.raises(
        PlotError,
        match=r"no results for backend 'sat' \(the results hold "
        r"sat\[solver=glucose3\], sat\[solver=cadical195\]\)",
    ):
        scatter_figure(records, x="sat")


# -- plot_figure and saving ------------------------------------------------------------------------


def test_plot_figure_refuses_an_unknown_kind(matplotlib):
    with pytest.raises(
        PlotError,
        match=r"unknown plot kind 'pie' \(choose from cactus, "
        r"scatter, scaling\)",
    ):
        plot_figure(with_timeouts(), "pie")


@pytest.mark.parametrize(
    "suffix, magic", [(".png", b"\x89PNG"), (".svg", b"<?xml"), (".pdf", b"%PDF")]
)
def test_save_figure_writes_each_format(matplotlib, tmp_path, suffix, magic):
    path = tmp_path / f"scatter{suffix}"
    save_figure(scatter_figure(with_timeouts(), time_limit=1.0), path)
    assert path.read_bytes().lstrip()[: len(magic)] == magic


def test_save_figure_refuses_other_suffixes(matplotlib, tmp_path):
    with pytest.raises(PlotError, match=r"plots are written as .png, .svg or .pdf, not .txt"):
        save_figure(scatter_figure(with_timeouts()), tmp_path / "plot.txt")


def test_missing_matplotlib_is_one_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)  # makes the import fail
    with pytest.raises(PlotUnavailableError) as raised:
        plot_figure(with_timeouts(), "cactus")
    assert str(raised.value) == MATPLOTLIB_MISSING


def test_many_configurations_without_matplotlib_is_one_line(monkeypatch) -> None:
    """Beyond 10 configurations the colours come from a matplotlib colour map: without
    matplotlib that is the install hint, not a traceback."""
    import sys

    from sudoku_cp.errors import PlotUnavailableError
    from sudoku_cp.plots import MATPLOTLIB_MISSING, backend_colour

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib fails
    assert backend_colour(3, 10) == "C3"
    with pytest.raises(PlotUnavailableError, match=re.escape(MATPLOTLIB_MISSING)):
        backend_colour(3, 11)


# -- log axes in plain numbers, times in ms (as the tables show them) -----------------------------


def narrow_range() -> list[RunRow]:
    """Three sets, two backends, every time between 0.3 and 1.8 ms: under a decade, where
    matplotlib's own log axis labels its minor ticks as powers of ten, and on the scatter ran
    '3x10^-4' into '4x10^-4'."""
    return [
        run_record(
            name,
            index,
            backend,
            "solved",
            0.0003 * (1 + 5 * ((index * 7 + n * 3) % 10) / 9),
            givens=25 + index % 4,
        )
        for name in ("a", "b", "c")
        for index in range(10)
        for n, backend in enumerate(("dfs", "sat"))
    ]


def tick_labels(figure: Any) -> list[list[tuple[str, Any]]]:
    """Per log axis of the drawn figure, the tick labels shown inside its view, with their
    extents."""
    drawn_extents(figure)  # draws the figure, as save_figure does
    renderer = figure.canvas.get_renderer()
    found = []
    for axes in figure.axes:
        if not axes.get_visible():
            continue
        for axis, scale in ((axes.xaxis, axes.get_xscale()), (axes.yaxis, axes.get_yscale())):
            if scale != "log":
                continue
            low, high = sorted(axis.get_view_interval())
            position = 0 if axis is axes.xaxis else 1
            found.append(
                [
                    (tick.label1.get_text(), tick.label1.get_window_extent(renderer))
                    for tick in axis.get_major_ticks() + axis.get_minor_ticks()
                    if tick.label1.get_visible()
                    and tick.label1.get_text()
                    and low <= tick.label1.get_position()[position] <= high
                ]
            )
    return found


@pytest.mark.parametrize("kind", PLOT_KINDS)
@pytest.mark.parametrize("records", [narrow_range, with_timeouts, six_configurations])
def test_log_axes_are_labelled_in_plain_numbers_that_never_collide(matplotlib, kind, records):
    axes = tick_labels(plot_figure(records(), kind, time_limit=1.0))
    assert axes  # every kind has a log axis of times
    for labels in axes:
        texts = [text for text, _ in labels]
        assert 2 <= len(texts) <= 6, texts
        assert all(text.replace(",", "").replace(".", "").isdigit() for text in texts), texts
        overlapping = [
            (first, second)
            for number, (first, box) in enumerate(labels)
            for second, other in labels[number + 1 :]
            if box.overlaps(other)
        ]
        assert overlapping == []


def test_times_are_drawn_in_milliseconds_as_the_tables_show_them(matplotlib):
    """with_timeouts(): sat solved puzzles 2, 3 and 1 in 9.0, 39.0 and 618 ms."""
    cactus = cactus_figure(with_timeouts(), time_limit=1.0)
    (axes,) = [axes for axes in cactus.axes if axes.get_visible()]
    assert axes.get_xlabel() == "time per puzzle (ms)"
    (sat,) = [line for line in axes.get_lines() if line.get_label() == "sat"]
    assert list(sat.get_xdata())[1:4] == pytest.approx([9.0, 39.0, 618.0])
    (limit,) = [line for line in axes.get_lines() if line.get_label() == "_time limit"]
    assert list(limit.get_xdata()) == [1000.0, 1000.0]
    (axes,) = scaling_figure(with_timeouts(), by="givens").axes
    assert axes.get_ylabel() == "time per puzzle (ms): median, p10-p90"
    (sat,) = [line for line in axes.get_lines() if line.get_label() == "sat"]
    assert list(sat.get_ydata()) == pytest.approx([618.0, 9.0, 39.0])


# -- a scaling plot only when it shows a trend ----------------------------------------------------


def test_a_scaling_plot_of_one_givens_count_is_refused_saying_why(matplotlib):
    """Every 17clue puzzle has 17 givens: the plot was two dots."""
    same = [replace(row, entry=replace(row.entry, givens=17)) for row in with_timeouts()]
    reason = "the solved puzzles have 1 givens count (17), and the plot needs 3 or more"
    assert scaling_shortfall(same) == reason
    with pytest.raises(PlotError, match=rf"^no scaling plot by givens: {re.escape(reason)}$"):
        scaling_figure(same)
    two = [replace(row, entry=replace(row.entry, givens=17 + row.number % 2)) for row in same]
    assert scaling_shortfall(two) == (
        "the solved puzzles have 2 givens counts (17, 18), and the plot needs 3 or more"
    )
    assert scaling_shortfall(with_timeouts()) is None  # 301, 302, 303 givens
    assert scaling_shortfall(two_sizes_by_givens()) is None  # two sizes: by size, a line


# -- short labels in legends ----------------------------------------------------------------------


def test_legends_and_axes_name_configurations_by_their_short_labels(matplotlib):
    names = {GLUCOSE: "sat glucose3", CADICAL: "sat cadical195"}
    records = configurations()
    cactus = cactus_figure(records, time_limit=1.0, names=names)
    assert [text.get_text() for text in cactus.legends[0].get_texts()] == list(names.values())
    (axes,) = scatter_figure(records, x=CADICAL, y=GLUCOSE, names=names).axes
    assert axes.get_xlabel() == "sat cadical195: time per puzzle (ms)"
    assert axes.get_title().startswith("sat glucose3 vs sat cadical195")
    (axes,) = plot_figure(records, "scaling", names=names).axes
    assert line_labels(axes) == list(names.values())


def test_scaling_by_rating_draws_time_against_the_rated_puzzles_only(matplotlib):
    rows = []
    for index, (level, seconds) in enumerate([(1, 0.001), (1, 0.003), (3, 0.01), (None, 5.0)]):
        row = run_record("s", index, "dfs", "solved", seconds)
        rating = None if level is None else {"level": level, "technique": "t"}
        rows.append(replace(row, entry=replace(row.entry, rating=rating)))
    (axes,) = scaling_figure(rows, by="rating").axes
    (line,) = axes.get_lines()
    assert list(line.get_xdata()) == [1, 3]
    assert list(line.get_ydata()) == pytest.approx([2.0, 10.0])
    assert axes.get_title() == "time vs rating"
    unrated = [replace(row, entry=replace(row.entry, rating=None)) for row in rows]
    with pytest.raises(PlotError, match="the solved puzzles have 0 ratings"):
        scaling_figure(unrated, by="rating")
