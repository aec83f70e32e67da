"""Rendering benchmark results: summary tables, CSV and JSON Lines files, plots, a Markdown report.

Results files hold a header (the environment and settings, see `bench.environment`) and one
record per timed run, with the fields `bench.RUN_COLUMNS`:

- JSON Lines: the header is the first line, an object with ``"kind": "header"``; each run is an
  object with exactly the run fields, ``stats`` a nested object. A resumed run appends another
  header (with ``"resumed": true``) before its records.
- CSV: the header is a comment line ``# {json}`` first (``pandas.read_csv(path, comment="#")``
  skips it), then the fixed column row `RUN_COLUMNS`; ``stats`` is one column holding a JSON
  object, since backends have different counters; empty cells are nulls.

Plots need matplotlib (the optional extra ``plot``), imported only when a plot is drawn, with the
non-interactive Agg canvas; the figure functions return the figure so it can be inspected.
"""

from __future__ import annotations

import csv
import io
import json
import math
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from .bench import (RUN_COLUMNS, PuzzleOutcome, Record, SummaryRow, percentile, puzzle_outcomes,
                    summarize)
from .errors import ResultsFileError, SudokuError
from .formats import read_records, to_json_line

if TYPE_CHECKING:  # annotations only: matplotlib is optional and imported when a plot is drawn
    from matplotlib.figure import Figure

RESULT_SUFFIXES = (".jsonl", ".csv")
PLOT_SUFFIXES = (".png", ".svg", ".pdf")
PLOT_KINDS = ("cactus", "scatter", "scaling")
SCALING_AXES = ("size", "givens")
REQUIRED_FIELDS = ("set", "index", "puzzle", "size", "givens", "backend", "mode", "repeat",
                   "status", "seconds")
_INTEGER_COLUMNS = frozenset({"index", "line", "size", "givens", "repeat", "count"})
_FLOAT_COLUMNS = frozenset({"seconds", "build_seconds", "solve_seconds"})
MATPLOTLIB_MISSING = "matplotlib is not installed: pip install 'sudoku-cp[plot]'"


class PlotError(SudokuError, ValueError):
    """A plot that the results cannot make (a scatter of a backend that is not there)."""


class PlotUnavailableError(SudokuError):
    """matplotlib, the optional extra `plot`, is not installed."""


# -- the summary table -----------------------------------------------------------------------------

def format_milliseconds(seconds: float | None) -> str:
    """Seconds as milliseconds with about three significant digits ('-' for none)."""
    if seconds is None:
        return "-"
    milliseconds = seconds * 1000
    decimals = 3 if milliseconds < 1 else 2 if milliseconds < 10 else 1 if milliseconds < 100 else 0
    return f"{milliseconds:.{decimals}f}"


def format_ratio(ratio: float | None) -> str:
    if ratio is None:
        return "-"
    return f"{ratio:.2f}" if ratio < 10 else f"{ratio:.1f}" if ratio < 100 else f"{ratio:.0f}"


def summary_cells(rows: Sequence[SummaryRow], *, baseline: str | None
                  ) -> tuple[list[str], list[list[str]]]:
    """The table's column names and cells; the mode column only when several modes are shown."""
    several_modes = len({row.mode for row in rows}) > 1
    names = ["set"] + (["mode"] if several_modes else []) + [
        "backend", "puzzles", "solved", "timeout", "wrong", "error", "PAR-2", "mean", "median",
        "p90", "p99", "max"] + ([f"t/{baseline}"] if baseline else [])
    cells = []
    for row in rows:
        cells.append([row.set] + ([row.mode] if several_modes else []) + [
            row.backend, str(row.puzzles), str(row.solved), str(row.timeouts), str(row.wrong),
            str(row.errors), format_milliseconds(row.par2), format_milliseconds(row.mean),
            format_milliseconds(row.median), format_milliseconds(row.p90),
            format_milliseconds(row.p99), format_milliseconds(row.max)]
            + ([format_ratio(row.ratio)] if baseline else []))
    return names, cells


def _text_columns(names: Sequence[str]) -> int:
    """How many leading columns hold text (left-aligned); the rest are numbers."""
    return 1 + ("mode" in names) + 1


def summary_legend(*, baseline: str | None, time_limit: float | None, repeat: int = 1) -> str:
    """What the columns mean, in one paragraph."""
    repeats = (f"the median of its {repeat} timed repeats" if repeat > 1
               else "its one timed run")
    penalty = (f"PAR-2: mean per puzzle, an unsolved puzzle (timeout, wrong, error) counting "
               f"2 x {time_limit:g} s" if time_limit is not None
               else "PAR-2: '-', since without --time-limit there is no penalty to give")
    ratio = (f" t/{baseline}: geometric mean, over the puzzles both solved, of the time divided "
             f"by {baseline}'s." if baseline else "")
    return (f"Times in ms per puzzle (a puzzle's time is {repeats}), over the puzzles solved; "
            f"solved counts unsatisfiable answers no other run contradicted. Median: the middle "
            f"value (mean of the two middle ones); p90, p99: nearest rank. {penalty}.{ratio}")


def render_summary_text(rows: Sequence[SummaryRow], *, baseline: str | None) -> str:
    """The summary as an aligned plain-text table."""
    names, cells = summary_cells(rows, baseline=baseline)
    widths = [max(len(line[column]) for line in [names, *cells]) for column in range(len(names))]
    text_columns = _text_columns(names)
    lines = []
    for line in [names, *cells]:
        lines.append("  ".join(value.ljust(width) if column < text_columns else value.rjust(width)
                               for column, (value, width) in enumerate(zip(line, widths)))
                     .rstrip())
    return "\n".join(lines)


def render_summary_markdown(rows: Sequence[SummaryRow], *, baseline: str | None) -> str:
    """The summary as a Markdown table, numbers right-aligned."""
    names, cells = summary_cells(rows, baseline=baseline)
    text_columns = _text_columns(names)
    rule = [":---" if column < text_columns else "---:" for column in range(len(names))]
    return "\n".join("| " + " | ".join(line) + " |" for line in [names, rule, *cells])


def render_setup_text(setup: Mapping[str, Any]) -> str:
    """One line per backend: its one-off costs, which no timed run includes."""
    lines = []
    for backend, measured in setup.items():
        if "error" in measured:
            lines.append(f"{backend}: set-up not measured ({measured['error']})")
            continue
        shapes = ", ".join(
            f"{shape['set']} first solve {format_milliseconds(shape['first_seconds'])} ms "
            f"(warm {format_milliseconds(shape['warm_seconds'])} ms)"
            for shape in measured.get("shapes", []))
        imported = (f"import {format_milliseconds(measured['import_seconds'])} ms, "
                    if measured.get("import_seconds") is not None else "")
        lines.append(f"{backend}: {imported}create "
                     f"{format_milliseconds(measured['create_seconds'])} ms"
                     + (f"; {shapes}" if shapes else ""))
    return "\n".join(lines)


# -- results files ---------------------------------------------------------------------------------

def results_format(path: str | Path) -> str:
    """'jsonl' or 'csv', from the file name.

    Raises:
        ResultsFileError: for any other suffix.
    """
    suffix = Path(path).suffix.lower()
    if suffix not in RESULT_SUFFIXES:
        raise ResultsFileError(f"{path}: results files end in .jsonl or .csv, not "
                               f"{suffix or 'no suffix'}")
    return suffix[1:]


def jsonl_text(records: Iterable[Mapping[str, Any]]) -> str:
    """Run records (or a header) as JSON Lines, each line ending in a newline."""
    return "".join(to_json_line({**record}) + "\n" for record in records)


def csv_header_text(header: Mapping[str, Any], *, with_columns: bool) -> str:
    """The header as a '# {json}' comment line, then the column row for a new file."""
    text = "# " + to_json_line({**header}) + "\n"
    if with_columns:
        text += ",".join(RUN_COLUMNS) + "\n"
    return text


def csv_text(records: Iterable[Mapping[str, Any]]) -> str:
    """Run records as CSV rows in `RUN_COLUMNS` order (no column row)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    for record in records:
        writer.writerow([_csv_cell(record.get(column)) for column in RUN_COLUMNS])
    return buffer.getvalue()


def _csv_cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, dict):
        return json.dumps(value, separators=(",", ":"))
    if isinstance(value, str):
        return " ".join(value.splitlines())  # one physical line per row keeps files greppable
    return str(value)


@dataclass
class Results:
    """A results file read back: its headers (one per session) and its run records."""

    headers: list[Record] = field(default_factory=list)
    records: list[Record] = field(default_factory=list)

    @property
    def header(self) -> Record:
        """The first session's header (empty when the file has none)."""
        return self.headers[0] if self.headers else {}

    @property
    def settings(self) -> Mapping[str, Any]:
        return self.header.get("settings", {})

    @property
    def time_limit(self) -> float | None:
        return self.settings.get("time_limit")

    @property
    def repeat(self) -> int:
        return int(self.settings.get("repeat") or 1)

    def combined_header(self) -> Record:
        """The first header, naming every session's command and every mode measured."""
        header = dict(self.header)
        commands = list(dict.fromkeys(h.get("command", "") for h in self.headers if h))
        if len(commands) > 1:
            header["command"] = " ; ".join(commands)
        modes = list(dict.fromkeys(record["mode"] for record in self.records))
        if header and modes:
            header["settings"] = {**header.get("settings", {}), "mode": ", ".join(modes)}
        return header

    def baseline(self, chosen: str | None = None) -> str | None:
        """The chosen baseline, else the header's, else the first backend in the records."""
        backends = list(dict.fromkeys(record["backend"] for record in self.records))
        if chosen is not None:
            if chosen not in backends:
                raise PlotError(f"no results for baseline {chosen!r} (the results hold "
                                f"{', '.join(backends)})")
            return chosen
        named = self.settings.get("baseline")
        return named if named in backends else (backends[0] if backends else None)


def load_results(path: str | Path) -> Results:
    """Read a .jsonl or .csv results file written by `sudoku-cp bench`.

    Raises:
        ResultsFileError: when the file cannot be read, is not a bench results file, or holds
            no run record.
    """
    kind = results_format(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise ResultsFileError(f"{path}: cannot read: {reason}") from None
    results = _load_jsonl(text) if kind == "jsonl" else _load_csv(text, path)
    for number, record in enumerate(results.records, start=1):
        missing = next((name for name in REQUIRED_FIELDS if name not in record), None)
        if missing is not None:
            raise ResultsFileError(f"{path}: not a bench results file (record {number} has no "
                                   f"{missing!r}); write one with sudoku-cp bench --out")
    if not results.records:
        raise ResultsFileError(f"{path}: no run records")
    return results


def load_many(paths: Sequence[str | Path]) -> Results:
    """Several results files as one (say one per mode), refusing different time limits.

    Raises:
        ResultsFileError: as `load_results`, or when the files' time limits differ (PAR-2
            scores would not compare).
    """
    merged = Results()
    for path in paths:
        results = load_results(path)
        if merged.headers and results.headers and results.time_limit != merged.time_limit:
            raise ResultsFileError(f"{path}: measured with time limit {results.time_limit}, "
                                   f"not {merged.time_limit} like {paths[0]}")
        merged.headers += results.headers
        merged.records += results.records
    return merged


def _load_jsonl(text: str) -> Results:
    results = Results()
    for data in read_records(text.splitlines()):
        if not isinstance(data, dict):
            continue
        (results.headers if data.get("kind") == "header" else results.records).append(data)
    return results


def _load_csv(text: str, path: str | Path) -> Results:
    results = Results()
    rows: list[str] = []
    for line in text.splitlines():
        if line.startswith("#"):
            try:
                header = json.loads(line[1:])
            except json.JSONDecodeError:
                continue
            if isinstance(header, dict) and header.get("kind") == "header":
                results.headers.append(header)
        elif line.strip():
            rows.append(line)
    if not rows:
        return results
    reader = csv.reader(rows)
    columns = next(reader)
    if tuple(columns) != RUN_COLUMNS:
        raise ResultsFileError(f"{path}: not a bench results file (the columns are not "
                               f"{','.join(RUN_COLUMNS)})")
    for cells in reader:
        if len(cells) != len(RUN_COLUMNS):  # a row torn by a killed run
            continue
        try:
            results.records.append({column: _csv_value(column, cell)
                                    for column, cell in zip(RUN_COLUMNS, cells)})
        except (ValueError, json.JSONDecodeError):
            continue
    return results


def _csv_value(column: str, cell: str) -> Any:
    if column == "stats":
        return json.loads(cell) if cell else {}
    if cell == "":
        return None
    if column in _INTEGER_COLUMNS:
        return int(cell)
    if column in _FLOAT_COLUMNS:
        return float(cell)
    return cell


class ResultsWriter:
    """Appends a session (its header, then records puzzle by puzzle) to a results file.

    Each `write` is flushed, so a run that is killed keeps every puzzle it finished; a line torn
    by the kill is closed with a newline first, and the readers skip it.
    """

    def __init__(self, path: str | Path, header: Mapping[str, Any]) -> None:
        self.path = Path(path)
        self.kind = results_format(path)
        try:
            existing = self.path.stat().st_size if self.path.exists() else 0
            self.handle: TextIO = open(self.path, "a", encoding="utf-8", newline="")
        except OSError as error:
            raise ResultsFileError(f"{path}: cannot write: {error.strerror or error}") from None
        if existing and not _ends_with_newline(self.path):
            self.handle.write("\n")
        if self.kind == "jsonl":
            self.handle.write(jsonl_text([header]))
        else:
            self.handle.write(csv_header_text(header, with_columns=not existing))
        self.handle.flush()

    def write(self, records: Sequence[Mapping[str, Any]]) -> None:
        """Append the records of one puzzle and flush them."""
        self.handle.write(jsonl_text(records) if self.kind == "jsonl" else csv_text(records))
        self.handle.flush()

    def close(self) -> None:
        self.handle.close()

    def __enter__(self) -> ResultsWriter:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _ends_with_newline(path: Path) -> bool:
    with open(path, "rb") as handle:
        handle.seek(-1, io.SEEK_END)
        return handle.read(1) == b"\n"


# -- plots -----------------------------------------------------------------------------------------

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
    return {(backend, mode): {
        "label": f"{backend} ({mode})" if len(modes) > 1 else backend,
        "color": f"C{backends.index(backend) % 10}",
        "linestyle": LINE_STYLES[modes.index(mode) % len(LINE_STYLES)],
    } for _, mode, backend in keys}


def _with_mode(name: str, mode: str, several_modes: bool) -> str:
    return f"{name} ({mode})" if several_modes else name


def cactus_figure(records: Iterable[Mapping[str, Any]], *,
                  time_limit: float | None = None) -> Figure:
    """One panel per set; in each, one line per backend: puzzles solved within a time (log x).

    Per set rather than pooled, because a 16x16 set and a 9x9 set differ by orders of magnitude.
    """
    outcomes = puzzle_outcomes(records)
    sets = list(dict.fromkeys(name for name, _, _ in outcomes))
    styles = _series_styles(outcomes)
    columns = min(len(sets), 2)
    rows = math.ceil(len(sets) / columns)
    figure = _figure_class()(figsize=(6.4 * columns, 4.4 * rows), layout="constrained")
    axes_list = figure.subplots(rows, columns, squeeze=False).flatten()
    for axes, name in zip(axes_list, sets):
        series = {(backend, mode): by_puzzle
                  for (set_name, mode, backend), by_puzzle in outcomes.items() if set_name == name}
        puzzles = max(len(by_puzzle) for by_puzzle in series.values())
        solved_times = {key: sorted(outcome.seconds for outcome in by_puzzle.values()
                                    if outcome.answered and outcome.seconds is not None)
                        for key, by_puzzle in series.items()}
        slowest = max((times[-1] for times in solved_times.values() if times), default=1.0)
        everything_solved = all(len(times) == puzzles for times in solved_times.values())
        # Stretch the axis to the time limit only when something missed it: it is the story then.
        show_limit = time_limit is not None and not everything_solved
        right = time_limit if show_limit else slowest * 1.5
        for key, times in solved_times.items():
            # Rise from 0 at the first time and run on to the right edge, so that even a
            # backend with one solved puzzle draws a visible step.
            xs = times[:1] + times + [max(right, slowest)]
            counts = [0, *range(1, len(times) + 1), len(times)]
            axes.plot(xs if times else [], counts if times else [], drawstyle="steps-post",
                      **styles[key])
        axes.axhline(puzzles, color="grey", linestyle=":", linewidth=0.8, label="_puzzles")
        axes.set_ylim(0, puzzles * 1.05)
        if show_limit:
            axes.axvline(time_limit, color="grey", linestyle="--", linewidth=0.8,
                         label="_time limit")
        axes.set_xscale("log")
        axes.set_xlabel("time per puzzle (s)")
        axes.set_ylabel("puzzles solved")
        axes.set_title(f"{name} ({puzzles} puzzle{'s' if puzzles != 1 else ''})")
        axes.grid(True, which="major", alpha=0.3)
    for axes in axes_list[len(sets):]:
        axes.set_visible(False)
    # One legend for all panels, above them: inside a panel it hides the steps it explains.
    legend: dict[str, Any] = {}
    for axes in axes_list[:len(sets)]:
        for handle, label in zip(*axes.get_legend_handles_labels()):
            legend.setdefault(label, handle)
    figure.legend(list(legend.values()), list(legend), loc="outside upper center",
                  ncols=min(len(legend), 6))
    return figure


def _backends_in(outcomes: Mapping[tuple[str, str, str], Any]) -> list[str]:
    return list(dict.fromkeys(backend for _, _, backend in outcomes))


def scatter_figure(records: Iterable[Mapping[str, Any]], *, x: str | None = None,
                   y: str | None = None, time_limit: float | None = None) -> Figure:
    """Per puzzle, backend `y`'s time against backend `x`'s, log-log, with the diagonal.

    One series per set; puzzles that only one of the two solved are drawn at the penalty (twice
    the time limit, or twice the largest time without one) as a separate 'x' series.

    Raises:
        PlotError: when a backend has no results, or fewer than two backends are available.
    """
    outcomes = puzzle_outcomes(records)
    backends = _backends_in(outcomes)
    x = x or next((name for name in backends if name != y), None)
    y = y or next((name for name in backends if name != x), None)
    for chosen in (x, y):
        if chosen is not None and chosen not in backends:
            raise PlotError(f"scatter: no results for backend {chosen!r} (the results hold "
                            f"{', '.join(backends)})")
    if x is None or y is None or x == y:
        raise PlotError(f"scatter needs two different backends; the results hold "
                        f"{', '.join(backends)}")
    sets = list(dict.fromkeys(name for name, _, _ in outcomes))
    modes = list(dict.fromkeys(mode for _, mode, _ in outcomes))
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
    every_time = [value for points in pairs.values() for point in points for value in point]
    every_time += [value for point in one_sided for value in point if value is not None]
    penalty = 2 * time_limit if time_limit is not None else 2 * max(every_time, default=1.0)
    figure = _figure_class()(figsize=(8.0, 6.0), layout="constrained")
    axes = figure.subplots()
    for (name, mode), points in pairs.items():
        # A colour per set, a marker per mode.
        axes.scatter([p[0] for p in points], [p[1] for p in points], s=12, alpha=0.6,
                     label=_with_mode(name, mode, len(modes) > 1),
                     color=f"C{sets.index(name) % 10}", marker=MARKERS[modes.index(mode) % 4])
    if one_sided:
        axes.scatter([penalty if a is None else a for a, _ in one_sided],
                     [penalty if b is None else b for _, b in one_sided], marker="x",
                     color="black", s=20, label="solved by one only (other at penalty)")
        every_time.append(penalty)
    low = min(every_time, default=1e-4) / 1.5
    high = max(every_time, default=1.0) * 1.5
    axes.plot([low, high], [low, high], color="black", linewidth=0.8, linestyle="--",
              label="_diagonal")
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlim(low, high)
    axes.set_ylim(low, high)
    axes.set_aspect("equal")
    axes.set_xlabel(f"{x}: time per puzzle (s)")
    axes.set_ylabel(f"{y}: time per puzzle (s)")
    axes.set_title(f"{y} vs {x} (below the diagonal: {y} faster)")
    axes.grid(True, which="major", alpha=0.3)
    if pairs or one_sided:
        axes.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize="small")
    return figure


def _time(outcome: PuzzleOutcome) -> float | None:
    return outcome.seconds if outcome.answered else None


def scaling_figure(records: Iterable[Mapping[str, Any]], *, by: str | None = None) -> Figure:
    """Time against grid size or number of givens: per backend, the median line and a p10-p90
    band over the puzzles solved at each x (all sets pooled).

    `by` defaults to 'size' when the results hold several sizes, else 'givens'.

    Raises:
        PlotError: for an axis other than 'size' or 'givens'.
    """
    outcomes = puzzle_outcomes(records)
    if by is None:
        sizes = {outcome.size for by_puzzle in outcomes.values() for outcome in by_puzzle.values()}
        by = "size" if len(sizes) > 1 else "givens"
    if by not in SCALING_AXES:
        raise PlotError(f"scaling by {by!r}: choose size or givens")
    styles = _series_styles(outcomes)
    series: dict[tuple[str, str], dict[int, list[float]]] = {}
    for (_, mode, backend), by_puzzle in outcomes.items():
        points = series.setdefault((backend, mode), {})
        for outcome in by_puzzle.values():
            if outcome.answered and outcome.seconds is not None:
                points.setdefault(getattr(outcome, by), []).append(outcome.seconds)
    figure = _figure_class()(figsize=(7.0, 4.6), layout="constrained")
    axes = figure.subplots()
    for key, points in series.items():
        xs = sorted(points)
        medians = [statistics.median(points[value]) for value in xs]
        axes.plot(xs, medians, marker="o", markersize=3, **styles[key])
        axes.fill_between(xs, [percentile(points[value], 10) for value in xs],
                          [percentile(points[value], 90) for value in xs],
                          color=styles[key]["color"], alpha=0.1, linewidth=0)
    axes.set_yscale("log")
    axes.set_xlabel("grid size N" if by == "size" else "number of givens")
    axes.set_ylabel("time per puzzle (s): median, p10-p90")
    axes.set_title(f"time vs {'grid size' if by == 'size' else 'givens'}")
    if by == "size":
        axes.set_xticks(sorted({value for points in series.values() for value in points}))
    axes.grid(True, which="major", alpha=0.3)
    axes.legend()
    return figure


def plot_figure(records: Sequence[Mapping[str, Any]], kind: str, *,
                time_limit: float | None = None, x: str | None = None, y: str | None = None,
                by: str | None = None) -> Figure:
    """The figure of one plot kind: cactus, scatter or scaling.

    Raises:
        PlotError: for an unknown kind, or a plot the results cannot make.
        PlotUnavailableError: when matplotlib is not installed.
    """
    if kind == "cactus":
        return cactus_figure(records, time_limit=time_limit)
    if kind == "scatter":
        return scatter_figure(records, x=x, y=y, time_limit=time_limit)
    if kind == "scaling":
        return scaling_figure(records, by=by)
    raise PlotError(f"unknown plot kind {kind!r} (choose from {', '.join(PLOT_KINDS)})")


def check_plot_path(path: str | Path) -> None:
    """Refuse an image name matplotlib would not write as we mean.

    Raises:
        PlotError: for a suffix other than .png, .svg or .pdf.
    """
    suffix = Path(path).suffix.lower()
    if suffix not in PLOT_SUFFIXES:
        raise PlotError(f"{path}: plots are written as .png, .svg or .pdf, not "
                        f"{suffix or 'no suffix'}")


def save_figure(figure: Figure, path: str | Path) -> None:
    """Write a figure with the Agg canvas (PNG at 150 dpi; SVG and PDF as vectors).

    Raises:
        PlotError: for an unsupported suffix.
        ResultsFileError: when the file cannot be written.
    """
    check_plot_path(path)
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(figure)  # never a GUI canvas, whatever MPLBACKEND says
    try:
        figure.savefig(path, dpi=150)
    except OSError as error:
        raise ResultsFileError(f"{path}: cannot write: {error.strerror or error}") from None


# -- the Markdown report ---------------------------------------------------------------------------

def render_environment_markdown(header: Mapping[str, Any]) -> str:
    """The header as a two-column Markdown table."""
    if not header:
        return "_No header: the environment was not recorded._"
    settings = header.get("settings", {})
    versions = ", ".join(f"{name} {version}"
                         for name, version in header.get("versions", {}).items())
    load = header.get("load_average")
    time_limit = settings.get("time_limit")
    backends = ", ".join(f"{name}" + (f" ({options})" if options else "")
                         for name, options in settings.get("backends", {}).items())
    rows = [
        ("date", header.get("date", "")),
        ("command", f"`{header.get('command', '')}`"),
        ("tool", header.get("tool", "")),
        ("Python", header.get("python", "")),
        ("packages", versions),
        ("platform", header.get("platform", "")),
        ("CPU", f"{header.get('cpu', '')}, {header.get('cores', '?')} cores "
                f"({header.get('usable_cores', '?')} usable)"),
        ("load average at start", " / ".join(f"{value:g}" for value in load) + " (1/5/15 min)"
         if load else "unknown"),
        ("backends", backends),
        ("settings", f"mode {settings.get('mode')}, time limit "
                     f"{f'{time_limit:g} s' if time_limit is not None else 'none'}, warm-up "
                     f"{settings.get('warmup')}, repeat {settings.get('repeat')}, jobs "
                     f"{settings.get('jobs')}"
                     + (f", first {settings['limit_puzzles']} puzzles of each set"
                        if settings.get("limit_puzzles") else "")),
        ("sets", ", ".join(f"{name} ({data.get('puzzles')} from `{data.get('path')}`)"
                           for name, data in header.get("sets", {}).items())),
    ]
    lines = ["| | |", "|:---|:---|"]
    lines += [f"| {name} | {str(value).replace('|', '/')} |" for name, value in rows]
    return "\n".join(lines)


def render_setup_markdown(setup: Mapping[str, Any]) -> str:
    """One-off costs per backend and grid shape, as a Markdown table."""
    lines = ["| backend | import (ms) | create (ms) | set | first solve (ms) | warm solve (ms) |",
             "|:---|---:|---:|:---|---:|---:|"]
    for backend, measured in setup.items():
        if "error" in measured:
            lines.append(f"| {backend} | - | - | not measured: {measured['error']} | - | - |")
            continue
        imported = format_milliseconds(measured.get("import_seconds"))
        created = format_milliseconds(measured["create_seconds"])
        for shape in measured.get("shapes", []) or [{}]:
            lines.append(f"| {backend} | {imported} | {created} | {shape.get('set', '-')} | "
                         f"{format_milliseconds(shape.get('first_seconds'))} | "
                         f"{format_milliseconds(shape.get('warm_seconds'))} |")
    return "\n".join(lines)


def render_markdown_report(records: Sequence[Mapping[str, Any]], header: Mapping[str, Any],
                           plots: Mapping[str, str], *, baseline: str | None = None) -> str:
    """The whole report: environment, one-off set-up, summary table, legend and plots.

    `plots` maps a plot kind to the image's path relative to the report.
    """
    settings = header.get("settings", {})
    time_limit = settings.get("time_limit")
    rows = summarize(records, time_limit=time_limit, baseline=baseline)
    parts = ["# sudoku-cp benchmark", "", "## Environment", "",
             render_environment_markdown(header), ""]
    if header.get("setup"):
        parts += ["## One-off set-up (not in the timings)", "",
                  "Measured in a fresh interpreter per backend: importing the solver package, "
                  "creating the backend, and per grid shape the first solve of one puzzle "
                  "against a second, warm solve of the same puzzle.", "",
                  render_setup_markdown(header["setup"]), ""]
    parts += ["## Results", "", render_summary_markdown(rows, baseline=baseline), "",
              summary_legend(baseline=baseline, time_limit=time_limit,
                             repeat=int(settings.get("repeat") or 1)), ""]
    if plots:
        parts += ["## Plots", ""]
        captions = {"cactus": "Cactus plot: puzzles solved within a given time per puzzle.",
                    "scatter": "Per-puzzle times of two backends, log-log; the dashed line is "
                               "the diagonal.",
                    "scaling": "Time per puzzle against the grid size or number of givens."}
        for kind, path in plots.items():
            parts += [f"![{kind}]({path})", "", captions.get(kind, ""), ""]
    return "\n".join(parts).rstrip() + "\n"


__all__ = ["MATPLOTLIB_MISSING", "PLOT_KINDS", "PlotError", "PlotUnavailableError", "Results",
           "ResultsFileError", "ResultsWriter", "cactus_figure", "check_plot_path",
           "csv_header_text", "csv_text", "format_milliseconds", "format_ratio", "jsonl_text",
           "load_many", "load_results", "plot_figure", "render_markdown_report",
           "render_setup_text", "render_summary_markdown", "render_summary_text",
           "results_format", "save_figure", "scaling_figure", "scatter_figure", "summary_cells",
           "summary_legend"]
