"""Plots of benchmark results: cactus, scatter and scaling figures, and saving them.

Plots need matplotlib (the optional extra ``plot``), imported only when a plot is drawn, with the
non-interactive Agg canvas; the figure functions return the figure so it can be inspected.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .bench_statistics import PuzzleOutcome, percentile, puzzle_outcomes
from .errors import PlotError, PlotUnavailableError, ResultsFileError
from .results_log.reader import RunRow

if TYPE_CHECKING:  # annotations only: matplotlib is optional and imported when a plot is drawn
    from matplotlib.figure import Figure

PLOT_SUFFIXES = (".png", ".svg", ".pdf")
PLOT_KINDS = ("cactus", "scatter", "scaling")
SCALING_AXES = ("size", "givens")
MATPLOTLIB_MISSING = "matplotlib is not installed: pip install 'sudoku-cp[plot]'"


def _figure_class() -> type[Figure]:
    """matplotlib's Figure, imported on first use (a canvas-free, non-interactive figure)."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise PlotUnavailableError(MATPLOTLIB_MISSING) from None
    return Figure


LINE_STYLES = ("-", "--", ":", "-.")
MARKERS = ("o", "^", "s", "D")


def _series_styles(keys: Iterable[tuple[str, str, str]]) -> dict[tuple[str, str], dict[str, Any]]:
    """Per (backend, mode): a label, a colour per backend and a line style per mode, so that a
    backend looks the same in every panel and modes can share one plot."""
    keys = list(keys)
    backends = list(dict.fromkeys(backend for _, _, backend in keys))
    modes = list(dict.fromkeys(mode for _, mode, _ in keys))
    return {
        (backend, mode): {
            "label": f"{backend} ({mode})" if len(modes) > 1 else backend,
            "color": backend_colour(backends.index(backend), len(backends)),
            "linestyle": LINE_STYLES[modes.index(mode) % len(LINE_STYLES)],
        }
        for _, mode, backend in keys
    }


def backend_colour(number: int, count: int) -> Any:
    """Ten backends or fewer: the default cycle (C0..C9); more (a grid of configurations): the
    20 colours of tab20, then a gradient, so that no two series share a colour."""
    if count <= 10:
        return f"C{number}"
    try:
        import matplotlib
    except ImportError:  # more than 10 configurations reach here before any figure is made
        raise PlotUnavailableError(MATPLOTLIB_MISSING) from None
    if count <= 20:
        return matplotlib.colormaps["tab20"](number)
    return matplotlib.colormaps["turbo"](number / max(count - 1, 1))


def _legend_columns(labels: Sequence[str], width_inches: float) -> int:
    """Columns for a legend row across the figure: up to 6, as many as fit the figure's width.

    Constrained layout makes room above or beside the axes for a legend, but never narrows
    one, so a row of configuration labels (sat[solver=cadical195], ...) wider than the figure
    ran off both edges. An entry is about 0.65 em per character plus 4 em for the handle and
    the gaps, at the legend's default 10 pt.
    """
    entry_points = 10 * (0.65 * max((len(label) for label in labels), default=1) + 4)
    return max(1, min(len(labels), 6, int(width_inches * 72 // entry_points)))


def _with_mode(name: str, mode: str, several_modes: bool) -> str:
    return f"{name} ({mode})" if several_modes else name


def cactus_figure(rows: Iterable[RunRow], *, time_limit: float | None = None) -> Figure:
    """One panel per set; in each, one line per backend: puzzles solved within a time (log x).

    Per set rather than pooled, because a 16x16 set and a 9x9 set differ by orders of magnitude.
    """
    outcomes = puzzle_outcomes(rows)
    sets = list(dict.fromkeys(name for name, _, _ in outcomes))
    styles = _series_styles(outcomes)
    columns = min(len(sets), 2)
    panel_rows = math.ceil(len(sets) / columns)
    figure = _figure_class()(figsize=(6.4 * columns, 4.4 * panel_rows), layout="constrained")
    axes_list = figure.subplots(panel_rows, columns, squeeze=False).flatten()
    for axes, name in zip(axes_list, sets, strict=False):
        _cactus_panel(axes, name, outcomes, styles, time_limit)
    for axes in axes_list[len(sets) :]:
        axes.set_visible(False)
    _shared_legend(figure, axes_list[: len(sets)])
    return figure


def _cactus_panel(
    axes: Any,
    name: str,
    outcomes: Mapping[tuple[str, str, str], Mapping[int, PuzzleOutcome]],
    styles: Mapping[tuple[str, str], Mapping[str, Any]],
    time_limit: float | None,
) -> None:
    """One set's panel of the cactus figure: a step line per configuration."""
    series = {
        (backend, mode): by_puzzle
        for (set_name, mode, backend), by_puzzle in outcomes.items()
        if set_name == name
    }
    puzzles = max(len(by_puzzle) for by_puzzle in series.values())
    solved_times = {
        key: sorted(
            outcome.seconds
            for outcome in by_puzzle.values()
            if outcome.answered and outcome.seconds is not None
        )
        for key, by_puzzle in series.items()
    }
    slowest = max((times[-1] for times in solved_times.values() if times), default=1.0)
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
    axes.set_xlabel("time per puzzle (s)")
    axes.set_ylabel("puzzles solved")
    axes.set_title(f"{name} ({puzzles} puzzle{'s' if puzzles != 1 else ''})")
    axes.grid(True, which="major", alpha=0.3)


def _shared_legend(figure: Any, panels: Iterable[Any]) -> None:
    """One legend for all panels, above them: inside a panel it hides the steps it explains."""
    legend: dict[str, Any] = {}
    for axes in panels:
        for handle, label in zip(*axes.get_legend_handles_labels(), strict=True):
            legend.setdefault(label, handle)
    figure.legend(
        list(legend.values()),
        list(legend),
        loc="outside upper center",
        ncols=_legend_columns(list(legend), figure.get_figwidth()),
    )


def _backends_in(outcomes: Mapping[tuple[str, str, str], Any]) -> list[str]:
    return list(dict.fromkeys(backend for _, _, backend in outcomes))


def scatter_figure(
    rows: Iterable[RunRow],
    *,
    x: str | None = None,
    y: str | None = None,
    time_limit: float | None = None,
) -> Figure:
    """Per puzzle, backend `y`'s time against backend `x`'s, log-log, with the diagonal.

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
    penalty = 2 * time_limit if time_limit is not None else 2 * max(every_time, default=1.0)
    # "compressed": the constrained layout made for fixed-aspect axes. The plain one sized the
    # margins for the axes before its equal aspect shrank it, and with a wide legend (the
    # penalty series appears when a backend timed out) it pushed the y tick labels, the y
    # label and the legend past the edges of the canvas.
    figure = _figure_class()(figsize=(8.0, 6.0), layout="compressed")
    axes = figure.subplots()
    _scatter_points(axes, pairs, one_sided, penalty, sets, modes)
    if one_sided:
        every_time.append(penalty)
    _scatter_frame(
        axes, x, y, min(every_time, default=1e-4) / 1.5, max(every_time, default=1.0) * 1.5
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
            label=_with_mode(name, mode, len(modes) > 1),
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
    """Equal log axes from `low` to `high`, the diagonal, the labels and the title."""
    axes.plot(
        [low, high], [low, high], color="black", linewidth=0.8, linestyle="--", label="_diagonal"
    )
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlim(low, high)
    axes.set_ylim(low, high)
    axes.set_aspect("equal")
    axes.set_xlabel(f"{x}: time per puzzle (s)")
    axes.set_ylabel(f"{y}: time per puzzle (s)")
    # Two lines: configuration labels such as sat[solver=cadical195] make one line too wide.
    axes.set_title(f"{y} vs {x}\n(below the diagonal: {y} faster)")
    axes.grid(True, which="major", alpha=0.3)


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
    return outcome.seconds if outcome.answered else None


def scaling_figure(rows: Iterable[RunRow], *, by: str | None = None) -> Figure:
    """Time against grid size or number of givens: per backend, the median line and a p10-p90
    band over the puzzles solved at each x (all sets pooled).

    By givens, each size has its own line (a colour per backend, a marker per size): 30 givens
    on a 9x9 and on a 16x16 grid are different puzzles, and one line through both would zigzag
    between sizes. `by` defaults to 'size' when the results hold several sizes, else 'givens'.

    Raises:
        PlotError: for an axis other than 'size' or 'givens'.
    """
    outcomes = puzzle_outcomes(rows)
    sizes = sorted(
        {outcome.size for by_puzzle in outcomes.values() for outcome in by_puzzle.values()}
    )
    if by is None:
        by = "size" if len(sizes) > 1 else "givens"
    if by not in SCALING_AXES:
        raise PlotError(f"scaling by {by!r}: choose size or givens")
    styles = _series_styles(outcomes)
    per_size = by == "givens" and len(sizes) > 1
    series = _scaling_series(outcomes, by, per_size)
    figure = _figure_class()(figsize=(7.0, 4.6), layout="constrained")
    axes = figure.subplots()
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
    axes.set_yscale("log")
    axes.set_xlabel("grid size N" if by == "size" else "number of givens")
    axes.set_ylabel("time per puzzle (s): median, p10-p90")
    axes.set_title(f"time vs {'grid size' if by == 'size' else 'givens'}")
    if by == "size":
        axes.set_xticks(sorted({value for points in series.values() for value in points}))
    axes.grid(True, which="major", alpha=0.3)
    if series:
        # Outside the axes, as in the other plots: with a line per backend and size, a legend
        # inside would hide the lines it names.
        figure.legend(
            *axes.get_legend_handles_labels(), loc="outside right upper", fontsize="small"
        )
    return figure


def _scaling_series(
    outcomes: Mapping[tuple[str, str, str], Mapping[int, PuzzleOutcome]], by: str, per_size: bool
) -> dict[tuple[str, str, int | None], dict[int, list[float]]]:
    """(backend, mode, size or None) -> x -> the times of the puzzles solved at that x."""
    series: dict[tuple[str, str, int | None], dict[int, list[float]]] = {}
    for (_, mode, backend), by_puzzle in outcomes.items():
        for outcome in by_puzzle.values():
            if outcome.answered and outcome.seconds is not None:
                key = (backend, mode, outcome.size if per_size else None)
                x = outcome.givens if by == "givens" else outcome.size
                series.setdefault(key, {}).setdefault(x, []).append(outcome.seconds)
    return series


def plot_figure(
    rows: Sequence[RunRow],
    kind: str,
    *,
    time_limit: float | None = None,
    x: str | None = None,
    y: str | None = None,
    by: str | None = None,
) -> Figure:
    """The figure of one plot kind: cactus, scatter or scaling.

    Raises:
        PlotError: for an unknown kind, or a plot the results cannot make.
        PlotUnavailableError: when matplotlib is not installed.
    """
    if kind == "cactus":
        return cactus_figure(rows, time_limit=time_limit)
    if kind == "scatter":
        return scatter_figure(rows, x=x, y=y, time_limit=time_limit)
    if kind == "scaling":
        return scaling_figure(rows, by=by)
    raise PlotError(f"unknown plot kind {kind!r} (choose from {', '.join(PLOT_KINDS)})")


def check_plot_path(path: str | Path) -> None:
    """Refuse an image name matplotlib would not write as we mean.

    Raises:
        PlotError: for a suffix other than .png, .svg or .pdf.
    """
    suffix = Path(path).suffix.lower()
    if suffix not in PLOT_SUFFIXES:
        found = f"not {suffix}" if suffix else "and this name has no suffix"
        raise PlotError(f"{path}: plots are written as .png, .svg or .pdf, {found}")


def save_figure(figure: Figure, path: str | Path) -> None:
    """Write a figure with the Agg canvas (PNG at 150 dpi; SVG and PDF as vectors), cropped
    to what is drawn.

    Raises:
        PlotError: for an unsupported suffix.
        ResultsFileError: when the file cannot be written.
    """
    check_plot_path(path)
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(figure)  # never a GUI canvas, whatever MPLBACKEND says
    try:
        # The layout keeps every text inside the canvas; "tight" is the safety net for a
        # layout that gives up (constrained layout does when the axes would shrink to nothing)
        # and trims the blank margin around a fixed-aspect scatter.
        figure.savefig(path, dpi=150, bbox_inches="tight")
    except OSError as error:
        raise ResultsFileError(f"{path}: cannot write: {error.strerror or error}") from None
