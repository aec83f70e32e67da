"""Plots of benchmark results: cactus, scatter and scaling figures, and saving them.

Plots need matplotlib (the optional extra ``plot``), imported only when a plot is drawn, with the
non-interactive Agg canvas; the figure functions return the figure so it can be inspected. Times
are drawn in milliseconds, as the tables show them, on log axes labelled in plain numbers
(`render.figures`); the series are named by the short labels a table shows (`labels`), given as
`names`.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .bench_statistics import PuzzleOutcome, percentile, puzzle_outcomes
from .errors import PlotError, PlotUnavailableError
from .render.figures import (
    MARKERS,
    MATPLOTLIB_MISSING,
    MILLISECONDS,
    PLOT_SUFFIXES,
    backend_colour,
    check_plot_path,
    figure_class,
    milliseconds,
    plain_log_axis,
    save_figure,
    series_styles,
    shared_legend,
    with_mode,
)
from .results_log.reader import RunRow

if TYPE_CHECKING:  # annotations only: matplotlib is optional and imported when a plot is drawn
    from matplotlib.figure import Figure

PLOT_KINDS = ("cactus", "scatter", "scaling")
SCALING_AXES = ("size", "givens", "rating")
# Distinct x values a scaling plot needs before it shows a trend: two sizes make a line, but
# two givens counts of one set (every 17clue puzzle has 17) are a dot or two.
SCALING_LEAST = {"size": 2, "givens": 3, "rating": 2}
AXIS_NAMES = {
    "size": "grid size N",
    "givens": "number of givens",
    "rating": "explain rating (level of the hardest technique)",
}
AXIS_WORDS = {"size": "grid size", "givens": "givens", "rating": "rating"}


def cactus_figure(
    rows: Iterable[RunRow],
    *,
    time_limit: float | None = None,
    names: Mapping[str, str] | None = None,
) -> Figure:
    """One panel per set; in each, one line per backend: puzzles solved within a time (log x,
    in ms); `names`: the legend's name of each configuration label.

    Per set rather than pooled, because a 16x16 set and a 9x9 set differ by orders of magnitude.
    """
    outcomes = puzzle_outcomes(rows)
    sets = list(dict.fromkeys(name for name, _, _ in outcomes))
    styles = series_styles(outcomes, names or {})
    columns = min(len(sets), 2)
    panel_rows = math.ceil(len(sets) / columns)
    figure = figure_class()(figsize=(6.4 * columns, 4.4 * panel_rows), layout="constrained")
    axes_list = figure.subplots(panel_rows, columns, squeeze=False).flatten()
    for axes, name in zip(axes_list, sets, strict=False):
        _cactus_panel(axes, name, outcomes, styles, milliseconds(time_limit))
    for axes in axes_list[len(sets) :]:
        axes.set_visible(False)
    shared_legend(figure, axes_list[: len(sets)])
    return figure


def _cactus_panel(
    axes: Any,
    name: str,
    outcomes: Mapping[tuple[str, str, str], Mapping[int, PuzzleOutcome]],
    styles: Mapping[tuple[str, str], Mapping[str, Any]],
    time_limit: float | None,
) -> None:
    """One set's panel of the cactus figure: a step line per configuration (times and
    `time_limit` in ms)."""
    series = {
        (backend, mode): by_puzzle
        for (set_name, mode, backend), by_puzzle in outcomes.items()
        if set_name == name
    }
    puzzles = max(len(by_puzzle) for by_puzzle in series.values())
    solved_times = {
        key: sorted(
            outcome.seconds * MILLISECONDS
            for outcome in by_puzzle.values()
            if outcome.answered and outcome.seconds is not None
        )
        for key, by_puzzle in series.items()
    }
    slowest = max((times[-1] for times in solved_times.values() if times), default=MILLISECONDS)
    everything_solved = all(len(times) == puzzles for times in solved_times.values())
    # Stretch the axis to the time limit only when something missed it: it is the story then.
    shown_limit = None if everything_solved else time_limit
    right = shown_limit if shown_limit is not None else slowest * 1.5
    for key, times in solved_times.items():
        # Rise from 0 at the first time and run on to the right edge, so that even a
        # backend with one solved puzzle draws a visible step.
        xs = times[:1] + times + [max(right, slowest)]
        counts = [0, *range(1, len(times) + 1), len(times)]
        axes.plot(
            xs if times else [], counts if times else [], drawstyle="steps-post", **styles[key]
        )
    axes.axhline(puzzles, color="grey", linestyle=":", linewidth=0.8, label="_puzzles")
    axes.set_ylim(0, puzzles * 1.05)
    if shown_limit is not None:
        axes.axvline(shown_limit, color="grey", linestyle="--", linewidth=0.8, label="_time limit")
    axes.set_xscale("log")
    axes.set_xlabel("time per puzzle (ms)")
    axes.set_ylabel("puzzles solved")
    axes.set_title(f"{name} ({puzzles} puzzle{'s' if puzzles != 1 else ''})")
    axes.grid(True, which="major", alpha=0.3)
    plain_log_axis(axes.xaxis)


def _backends_in(outcomes: Mapping[tuple[str, str, str], Any]) -> list[str]:
    return list(dict.fromkeys(backend for _, _, backend in outcomes))


def scatter_figure(
    rows: Iterable[RunRow],
    *,
    x: str | None = None,
    y: str | None = None,
    time_limit: float | None = None,
    names: Mapping[str, str] | None = None,
) -> Figure:
    """Per puzzle, backend `y`'s time against backend `x`'s, log-log in ms, with the diagonal
    (`names`: how the axes name each configuration label).

    One series per set; puzzles that only one of the two solved are drawn at the penalty (twice
    the time limit, or twice the largest time without one) as a separate 'x' series.

    Raises:
        PlotError: when a backend has no results, or fewer than two backends are available.
    """
    outcomes = puzzle_outcomes(rows)
    backends = _backends_in(outcomes)
    x, y = _scatter_axes(backends, x, y)
    sets = list(dict.fromkeys(name for name, _, _ in outcomes))
    modes = list(dict.fromkeys(mode for _, mode, _ in outcomes))
    pairs, one_sided = _paired_times(outcomes, x, y)
    every_time = [value for points in pairs.values() for point in points for value in point]
    every_time += [value for point in one_sided for value in point if value is not None]
    limit = milliseconds(time_limit)
    penalty = 2 * limit if limit is not None else 2 * max(every_time, default=MILLISECONDS)
    # "compressed": the constrained layout made for fixed-aspect axes. The plain one sized the
    # margins for the axes before its equal aspect shrank it, and with a wide legend (the
    # penalty series appears when a backend timed out) it pushed the y tick labels, the y
    # label and the legend past the edges of the canvas.
    figure = figure_class()(figsize=(8.0, 6.0), layout="compressed")
    axes = figure.subplots()
    _scatter_points(axes, pairs, one_sided, penalty, sets, modes)
    if one_sided:
        every_time.append(penalty)
    shown = names or {}
    _scatter_frame(
        axes,
        shown.get(x, x),
        shown.get(y, y),
        min(every_time, default=0.1) / 1.5,
        max(every_time, default=MILLISECONDS) * 1.5,
    )
    if pairs or one_sided:
        # A figure legend placed "outside": the layout makes room for it, which it did not
        # for an axes legend anchored past the axes' edge.
        figure.legend(
            *axes.get_legend_handles_labels(), loc="outside right upper", fontsize="small"
        )
    return figure


def _scatter_points(
    axes: Any,
    pairs: Mapping[tuple[str, str], list[tuple[float, float]]],
    one_sided: list[tuple[float | None, float | None]],
    penalty: float,
    sets: list[str],
    modes: list[str],
) -> None:
    """The scatter's points: a colour per set, a marker per mode; the one-sided at the penalty."""
    for (name, mode), points in pairs.items():
        axes.scatter(
            [p[0] for p in points],
            [p[1] for p in points],
            s=12,
            alpha=0.6,
            label=with_mode(name, mode, len(modes) > 1),
            color=f"C{sets.index(name) % 10}",
            marker=MARKERS[modes.index(mode) % 4],
        )
    if one_sided:
        axes.scatter(
            [penalty if a is None else a for a, _ in one_sided],
            [penalty if b is None else b for _, b in one_sided],
            marker="x",
            color="black",
            s=20,
            label="solved by one only (other at penalty)",
        )


def _scatter_frame(axes: Any, x: str, y: str, low: float, high: float) -> None:
    """Equal log axes from `low` to `high` (ms), the diagonal, the labels and the title."""
    axes.plot(
        [low, high], [low, high], color="black", linewidth=0.8, linestyle="--", label="_diagonal"
    )
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlim(low, high)
    axes.set_ylim(low, high)
    axes.set_aspect("equal")
    axes.set_xlabel(f"{x}: time per puzzle (ms)")
    axes.set_ylabel(f"{y}: time per puzzle (ms)")
    # Two lines: configuration labels such as sat[solver=cadical195] make one line too wide.
    axes.set_title(f"{y} vs {x}\n(below the diagonal: {y} faster)")
    axes.grid(True, which="major", alpha=0.3)
    plain_log_axis(axes.xaxis)
    plain_log_axis(axes.yaxis)


def _scatter_axes(backends: Sequence[str], x: str | None, y: str | None) -> tuple[str, str]:
    """The two configurations of a scatter: the ones asked for, else the first two."""
    x = x or next((name for name in backends if name != y), None)
    y = y or next((name for name in backends if name != x), None)
    for chosen in (x, y):
        if chosen is not None and chosen not in backends:
            raise PlotError(
                f"scatter: no results for backend {chosen!r} (the results hold "
                f"{', '.join(backends)})"
            )
    if x is None or y is None or x == y:
        raise PlotError(
            f"scatter needs two different backends; the results hold {', '.join(backends)}"
        )
    return x, y


def _paired_times(
    outcomes: Mapping[tuple[str, str, str], Mapping[int, PuzzleOutcome]], x: str, y: str
) -> tuple[
    dict[tuple[str, str], list[tuple[float, float]]], list[tuple[float | None, float | None]]
]:
    """Per (set, mode), the (x time, y time) of each puzzle both solved; and the puzzles only
    one of them solved (None for the other)."""
    pairs: dict[tuple[str, str], list[tuple[float, float]]] = {}
    one_sided: list[tuple[float | None, float | None]] = []
    for (name, mode, backend), by_puzzle in outcomes.items():
        if backend != x or (name, mode, y) not in outcomes:
            continue
        other = outcomes[(name, mode, y)]
        for index, outcome in by_puzzle.items():
            if index not in other:
                continue
            mine, theirs = _time(outcome), _time(other[index])
            if mine is not None and theirs is not None:
                pairs.setdefault((name, mode), []).append((mine, theirs))
            elif mine is not None or theirs is not None:
                one_sided.append((mine, theirs))
    return pairs, one_sided


def _time(outcome: PuzzleOutcome) -> float | None:
    """A puzzle's time in ms when it was answered, else None."""
    return milliseconds(outcome.seconds) if outcome.answered else None


def scaling_figure(
    rows: Iterable[RunRow], *, by: str | None = None, names: Mapping[str, str] | None = None
) -> Figure:
    """Time (ms) against grid size or number of givens: per backend, the median line and a
    p10-p90 band over the puzzles solved at each x (all sets pooled); `names`: the legend's
    name of each configuration label.

    By givens, each size has its own line (a colour per backend, a marker per size): 30 givens
    on a 9x9 and on a 16x16 grid are different puzzles, and one line through both would zigzag
    between sizes. `by` defaults to 'size' when the results hold several sizes, else 'givens'.

    Raises:
        PlotError: for an axis other than 'size' or 'givens', or results that would draw no
            trend along it (`scaling_shortfall`).
    """
    outcomes = puzzle_outcomes(rows)
    by, sizes, series = _scaling_series(outcomes, by)
    shortfall = _shortfall(by, series)
    if shortfall is not None:
        raise PlotError(f"no scaling plot by {by}: {shortfall}")
    styles = series_styles(outcomes, names or {})
    figure = figure_class()(figsize=(7.0, 4.6), layout="constrained")
    axes = figure.subplots()
    _scaling_lines(axes, series, styles, sizes)
    axes.set_yscale("log")
    axes.set_xlabel(AXIS_NAMES[by])
    axes.set_ylabel("time per puzzle (ms): median, p10-p90")
    axes.set_title(f"time vs {AXIS_WORDS[by]}")
    if by == "size":
        axes.set_xticks(sorted({value for points in series.values() for value in points}))
    else:
        from matplotlib.ticker import MaxNLocator

        axes.xaxis.set_major_locator(MaxNLocator(integer=True))  # a count of givens
    axes.grid(True, which="major", alpha=0.3)
    plain_log_axis(axes.yaxis)
    # Outside the axes, as in the other plots: with a line per backend and size, a legend
    # inside would hide the lines it names.
    figure.legend(*axes.get_legend_handles_labels(), loc="outside right upper", fontsize="small")
    return figure


def _scaling_lines(
    axes: Any,
    series: Mapping[tuple[str, str, int | None], Mapping[int, list[float]]],
    styles: Mapping[tuple[str, str], Mapping[str, Any]],
    sizes: list[int],
) -> None:
    """Per series, the median line and the p10-p90 band; a marker per size when by givens."""
    order = list(styles)
    for key in sorted(series, key=lambda key: (order.index(key[:2]), key[2] or 0)):
        backend, mode, size = key
        points = series[key]
        style = dict(styles[(backend, mode)])
        if size is not None:
            style["label"] = f"{style['label']}, {size}x{size}"
            style["marker"] = MARKERS[sizes.index(size) % len(MARKERS)]
        xs = sorted(points)
        medians = [statistics.median(points[value]) for value in xs]
        axes.plot(xs, medians, **{"marker": "o", "markersize": 3, **style})
        axes.fill_between(
            xs,
            [percentile(points[value], 10) for value in xs],
            [percentile(points[value], 90) for value in xs],
            color=style["color"],
            alpha=0.1,
            linewidth=0,
        )


def scaling_shortfall(rows: Iterable[RunRow], *, by: str | None = None) -> str | None:
    """Why the results make no scaling plot (too few sizes or givens counts among the solved
    puzzles to show a trend), as a clause; None when they make one.

    Raises:
        PlotError: for an axis other than 'size' or 'givens'.
    """
    by, _, series = _scaling_series(puzzle_outcomes(rows), by)
    return _shortfall(by, series)


def _shortfall(by: str, series: Mapping[Any, Mapping[int, list[float]]]) -> str | None:
    values = sorted({value for points in series.values() for value in points})
    least = SCALING_LEAST[by]
    if len(values) >= least:
        return None
    what = {"size": "grid size", "givens": "givens count", "rating": "rating"}[by]
    found = f"{len(values)} {what}{'s' if len(values) != 1 else ''}"
    shown = f" ({', '.join(map(str, values))})" if values else ""
    return f"the solved puzzles have {found}{shown}, and the plot needs {least} or more"


def _scaling_series(
    outcomes: Mapping[tuple[str, str, str], Mapping[int, PuzzleOutcome]], by: str | None
) -> tuple[str, list[int], dict[tuple[str, str, int | None], dict[int, list[float]]]]:
    """The axis (`by`, or its default), the sizes, and per (backend, mode, size or None) and
    x, the times in ms of the puzzles solved at that x.

    Raises:
        PlotError: for an axis other than 'size' or 'givens'.
    """
    sizes = sorted(
        {outcome.size for by_puzzle in outcomes.values() for outcome in by_puzzle.values()}
    )
    if by is None:
        by = "size" if len(sizes) > 1 else "givens"
    if by not in SCALING_AXES:
        raise PlotError(f"scaling by {by!r}: choose size, givens or rating")
    per_size = by != "size" and len(sizes) > 1
    series: dict[tuple[str, str, int | None], dict[int, list[float]]] = {}
    for (_, mode, backend), by_puzzle in outcomes.items():
        for outcome in by_puzzle.values():
            x = {"size": outcome.size, "givens": outcome.givens, "rating": outcome.rating}[by]
            if outcome.answered and outcome.seconds is not None and x is not None:
                key = (backend, mode, outcome.size if per_size else None)
                series.setdefault(key, {}).setdefault(x, []).append(outcome.seconds * MILLISECONDS)
    return by, sizes, series


def plot_figure(
    rows: Sequence[RunRow],
    kind: str,
    *,
    time_limit: float | None = None,
    x: str | None = None,
    y: str | None = None,
    by: str | None = None,
    names: Mapping[str, str] | None = None,
) -> Figure:
    """The figure of one plot kind: cactus, scatter or scaling (`names`: the short label of
    each configuration label, `labels.short_texts`, for legends and axes).

    Raises:
        PlotError: for an unknown kind, or a plot the results cannot make.
        PlotUnavailableError: when matplotlib is not installed.
    """
    if kind == "cactus":
        return cactus_figure(rows, time_limit=time_limit, names=names)
    if kind == "scatter":
        return scatter_figure(rows, x=x, y=y, time_limit=time_limit, names=names)
    if kind == "scaling":
        return scaling_figure(rows, by=by, names=names)
    raise PlotError(f"unknown plot kind {kind!r} (choose from {', '.join(PLOT_KINDS)})")


__all__ = [
    "MATPLOTLIB_MISSING",
    "PLOT_KINDS",
    "PLOT_SUFFIXES",
    "SCALING_AXES",
    "SCALING_LEAST",
    "PlotError",
    "PlotUnavailableError",
    "backend_colour",
    "cactus_figure",
    "check_plot_path",
    "plot_figure",
    "save_figure",
    "scaling_figure",
    "scaling_shortfall",
    "scatter_figure",
]
