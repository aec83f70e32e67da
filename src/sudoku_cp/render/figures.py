"""What every figure of `plots` shares: matplotlib imported on first use, times in milliseconds
(the tables' unit) on log axes labelled in plain numbers, a colour per configuration and a line
style per mode, one legend across the panels; and saving a figure.

matplotlib's own log axis labels its minor ticks when the data span less than a decade or two,
in scientific notation, and on a narrow range those labels run into each other; `plain_log_axis`
sets a short list of ticks at round values instead, each written as a table writes a number.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import PlotError, PlotUnavailableError, ResultsFileError

if TYPE_CHECKING:  # annotations only: matplotlib is optional and imported when a plot is drawn
    from matplotlib.figure import Figure

PLOT_SUFFIXES = (".png", ".svg", ".pdf")
MATPLOTLIB_MISSING = (
    "matplotlib is not installed: pip install '.[plot]' from a sudoku-cp checkout "
    "(or pip install matplotlib)"
)
MILLISECONDS = 1000.0  # per second: the figures show times in ms, as the tables do


def figure_class() -> type[Figure]:
    """matplotlib's Figure, imported on first use (a canvas-free, non-interactive figure)."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise PlotUnavailableError(MATPLOTLIB_MISSING) from None
    return Figure


LINE_STYLES = ("-", "--", ":", "-.")
MARKERS = ("o", "^", "s", "D")


def series_styles(
    keys: Iterable[tuple[str, str, str]], names: Mapping[str, str]
) -> dict[tuple[str, str], dict[str, Any]]:
    """Per (backend, mode): a label (its name in `names`, else the backend), a colour per
    backend and a line style per mode, so that a backend looks the same in every panel and
    modes can share one plot."""
    keys = list(keys)
    backends = list(dict.fromkeys(backend for _, _, backend in keys))
    modes = list(dict.fromkeys(mode for _, mode, _ in keys))
    return {
        (backend, mode): {
            "label": with_mode(names.get(backend, backend), mode, len(modes) > 1),
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


def legend_columns(labels: Sequence[str], width_inches: float) -> int:
    """Columns for a legend row across the figure: up to 6, as many as fit the figure's width.

    Constrained layout makes room above or beside the axes for a legend, but never narrows
    one, so a row of configuration labels (sat[solver=cadical195], ...) wider than the figure
    ran off both edges. An entry is about 0.65 em per character plus 4 em for the handle and
    the gaps, at the legend's default 10 pt.
    """
    entry_points = 10 * (0.65 * max((len(label) for label in labels), default=1) + 4)
    return max(1, min(len(labels), 6, int(width_inches * 72 // entry_points)))


def with_mode(name: str, mode: str, several_modes: bool) -> str:
    """A series' name, with its mode when the figure shows several."""
    return f"{name} ({mode})" if several_modes else name


def milliseconds(seconds: float | None) -> float | None:
    """Seconds in the figures' unit (None stays None)."""
    return None if seconds is None else seconds * MILLISECONDS


def shared_legend(figure: Any, panels: Iterable[Any]) -> None:
    """One legend for all panels, above them: inside a panel it hides the steps it explains."""
    legend: dict[str, Any] = {}
    for axes in panels:
        for handle, label in zip(*axes.get_legend_handles_labels(), strict=True):
            legend.setdefault(label, handle)
    figure.legend(
        list(legend.values()),
        list(legend),
        loc="outside upper center",
        ncols=legend_columns(list(legend), figure.get_figwidth()),
    )


MOST_TICKS = 6  # labelled ticks on a log axis, at most
# The multiples of each power of ten that may carry a tick, coarsest first: the first that gives
# at least three ticks in view (and not more than MOST_TICKS) is used.
MULTIPLES = ((1,), (1, 3), (1, 2, 5), (1, 2, 3, 4, 5, 6, 7, 8, 9))


def _round_values(low: float, high: float, multiples: tuple[int, ...]) -> list[float]:
    """Every multiple x power of ten from `low` to `high`, written as decimals (0.3, not
    0.30000000000000004)."""
    first, last = math.floor(math.log10(low)), math.ceil(math.log10(high))
    values = (
        float(f"{multiple}e{power}") for power in range(first, last + 1) for multiple in multiples
    )
    return [value for value in values if low <= value <= high]


def log_ticks(low: float, high: float, *, most: int = MOST_TICKS) -> list[float]:
    """Tick values for a log axis showing `low` to `high`: at least two where the range allows,
    at most `most`, at round values."""
    if not (0 < low < high and math.isfinite(high)):
        return []
    decades = _round_values(low, high, (1,))
    if len(decades) > most:  # every second (third, ...) power of ten
        return decades[:: math.ceil(len(decades) / most)]
    chosen = decades
    for multiples in MULTIPLES[1:]:
        if len(chosen) >= 3:
            break
        finer = _round_values(low, high, multiples)
        if len(finer) > most:
            break
        chosen = finer
    if len(chosen) < 2:  # a range inside one step of the finest multiples: two significant digits
        chosen = sorted({_significant(low + (high - low) * part) for part in (0.2, 0.8)})
    return chosen


def _significant(value: float, digits: int = 2) -> float:
    return float(f"{value:.{digits - 1}e}")


def plain_number(value: float) -> str:
    """A tick value as a table writes it: '0.002', '0.5', '3', '20', '1,000'."""
    text = f"{value:.10f}".rstrip("0").rstrip(".")
    whole, _, fraction = text.partition(".")
    return f"{int(whole):,}" + (f".{fraction}" if fraction else "")


def plain_log_axis(axis: Any) -> None:
    """Give a matplotlib log axis (`axes.xaxis`, `axes.yaxis`) the ticks of `log_ticks` for
    its current view, labelled by `plain_number`, and unlabelled minor ticks. Call it once the
    axis shows its final range."""
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter

    low, high = sorted(axis.get_view_interval())
    axis.set_major_locator(FixedLocator(log_ticks(low, high)))
    axis.set_major_formatter(FuncFormatter(lambda value, _: plain_number(value)))
    axis.set_minor_formatter(NullFormatter())


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
        with warnings.catch_warnings():  # the layout's giving up is handled: not the user's
            warnings.filterwarnings("ignore", "constrained_layout not applied", UserWarning)
            figure.savefig(path, dpi=150, bbox_inches="tight")
    except OSError as error:
        raise ResultsFileError(f"{path}: cannot write: {error.strerror or error}") from None


__all__ = [
    "LINE_STYLES",
    "MARKERS",
    "MATPLOTLIB_MISSING",
    "MILLISECONDS",
    "MOST_TICKS",
    "PLOT_SUFFIXES",
    "backend_colour",
    "check_plot_path",
    "figure_class",
    "legend_columns",
    "log_ticks",
    "milliseconds",
    "plain_log_axis",
    "plain_number",
    "save_figure",
    "series_styles",
    "shared_legend",
    "with_mode",
]
