"""The scaling study of issue 16: time against N = 4 ... 64 for every backend, mode and input kind.

    python benchmarks/scaling_study.py [--results R.jsonl] [--resume] [--time-limit 300] [-j 1]
                                       [--sizes 4,6,...|all] [--kinds empty,multi50,multi25]
                                       [--modes lexmin,any] [--backends dfs,cpsat,sat]
                                       [--puzzles K] [--keep-going]
    python benchmarks/scaling_study.py --report --results R.jsonl [--out FOLDER]
                                       [--metric solve|cpu|wall]

Where it writes: a study run appends to `--results`, by default a new log
`results/scaling-<time>/scaling.jsonl`; `--report` writes `table.md` and `scaling.png` into
`--out`, by default the folder of `--results`. Neither ever writes under docs/ or data/ or over a
committed file (benchmarks/outputs.py): the committed study in docs/study/scaling/ is re-rendered
with `--report --results docs/study/scaling/scaling.jsonl --out results/scaling-report`.

A *shape* is N with its box: `--sizes` takes N (the squarest box, `sudoku-cp`'s default) or RxC
(that box), and `all` for every N from 4 to 64 that has a box.

A *series* is one (kind, mode, backend); it runs its shapes in ascending order, every puzzle in its
own child process (a fresh interpreter: one backend's memory or a stuck solver cannot touch the
next run), killed at time limit + 60 s if it has not returned. A series stops after the first N
where a puzzle timed out (or was killed, or failed): the other puzzles of that N and the larger N
are recorded as "not run: stopped at N", since a larger grid would only time out too, and each
further timeout would cost the whole limit to say so again (the study fits in an hour this way);
`--keep-going` runs every shape anyway (where each method stops is not monotone in N).

Inputs: kind `empty` is the empty grid (made in code, one puzzle per N); `multi50` and `multi25`
are the files data/generated/scaling/multi50-NxN.txt and multi25-NxN.txt (three puzzles each,
half and a quarter of the cells given; data/generated/scaling/README.md), multi50-NxN-RxC.txt for
a box that is not the default.

Every answer is checked with `sudoku_cp.verify.check_completion` here, in the parent, on top of
the check the engine already made in the child; lexmin answers of different backends on the same
puzzle must be identical (a disagreement is printed loudly on stderr and kept in the results).
Results: JSON Lines, one header line per session and one record per run, appended and flushed as
each run ends; `--resume` skips the runs already recorded (with the same time limit).

With `-j 2` two series run at once, so the wall times of that run are taken two at a time (the
header records `jobs`); CPU seconds and the peak resident memory of the child are recorded beside
them.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import math
import os
import platform
import signal
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the sibling module outputs.py
import contextlib

from outputs import ROOT, RefusedPath, fresh_folder, refuse_committed  # noqa: E402

INPUTS = ROOT / "data" / "generated" / "scaling"
SIZES = (4, 6, 9, 12, 16, 20, 25, 30, 36, 42, 49, 56, 64)
KINDS = ("empty", "multi50", "multi25")
DENSITY = {"empty": 0.0, "multi50": 0.5, "multi25": 0.25}
MODES = ("lexmin", "any")
BACKENDS = ("dfs", "cpsat", "sat")
KILL_GRACE = 60.0  # a child still running this long after its time limit is killed
STOPPING = ("timeout", "killed", "error", "wrong")  # statuses that end a series


@dataclass(frozen=True)
class Puzzle:
    kind: str
    size: int
    index: int
    line: str  # the puzzle in the line layout


@dataclass(frozen=True)
class Series:
    kind: str
    mode: str
    backend: str

    @property
    def label(self) -> str:
        return f"{self.backend} {self.mode} {self.kind}"


def run_key(record: dict[str, Any]) -> tuple[str, str, str, int, str, int]:
    return (
        record["kind"],
        record["mode"],
        record["backend"],
        record["size"],
        record.get("box") or box_text(record["size"]),
        record["puzzle_index"],
    )


Shape = tuple[int, str]  # N, and its box as RxC


def shape_of(text: str) -> Shape:
    """'36' is N = 36 with the default box; '4x9' is N = 36 with 4x9 boxes."""
    if "x" in text:
        rows, columns = (int(part) for part in text.split("x"))
        return rows * columns, f"{rows}x{columns}"
    return int(text), box_text(int(text))


def every_shape() -> list[Shape]:
    """Every N from 4 to 64 that has a box, with the squarest box."""
    from sudoku_cp.errors import GridShapeError

    shapes = []
    for size in range(4, 65):
        with contextlib.suppress(GridShapeError):
            shapes.append((size, box_text(size)))
    return shapes


# -- inputs ---------------------------------------------------------------------------------------


def puzzles_of(kind: str, size: int, inputs: Path = INPUTS, box: str | None = None) -> list[Puzzle]:
    """The puzzles of one kind and shape (the empty grid, or the lines of a generated file)."""
    from sudoku_cp.grid import Grid

    if kind == "empty":
        return [Puzzle(kind, size, 0, Grid.empty(size).to_line())]
    other = "" if box in (None, box_text(size)) else f"-{box}"
    path = inputs / f"{kind}-{size}x{size}{other}.txt"
    lines = [
        line.strip()
        for line in path.read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    return [Puzzle(kind, size, index, line) for index, line in enumerate(lines)]


# -- one run, in a child process ------------------------------------------------------------------


def child_main() -> None:
    """Solve the puzzle described on stdin with the library; print one JSON object."""
    spec = json.loads(sys.stdin.read())
    import resource

    import sudoku_cp

    cpu = time.process_time()
    answer = sudoku_cp.solve(
        spec["puzzle"],
        backend=spec["backend"],
        mode=spec["mode"],
        time_limit=spec["time_limit"],
        layout="line",
        box=spec.get("box"),
    )
    cpu = time.process_time() - cpu
    stats = dict(answer.result.stats) if answer.result is not None else {}
    print(
        json.dumps(
            {
                "status": answer.status,
                "solve_seconds": answer.seconds,
                "call_cpu_seconds": cpu,
                "setup_seconds": stats.get("setup_seconds"),
                "reason": answer.reason,
                "answer": answer.solution.to_line() if answer.solution is not None else None,
                "child_cpu_seconds": time.process_time(),  # the whole child: imports, set-up, solve
                # the child's peak resident memory (Linux: kB), and its own children's (a helper)
                "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
                "helper_peak_rss_mb": round(
                    resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, 1
                ),
                "stats": {
                    key: value
                    for key, value in stats.items()
                    if isinstance(value, (int, float, str, bool)) or value is None
                },
            }
        )
    )


def run_child(
    spec: dict[str, Any], *, kill_after: float, command: Sequence[str] | None = None
) -> dict[str, Any]:
    """Run one spec in a fresh interpreter; wall and CPU seconds of the child, and its answer.

    The child is killed (its whole process group) when it runs `kill_after` seconds.
    """
    command = list(command or [sys.executable, str(Path(__file__).resolve()), "--child"])
    start = time.perf_counter()
    with open(os.devnull, "wb") as null:
        process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=null,
            start_new_session=True,
        )
    timer = threading.Timer(kill_after, _kill_group, args=(process.pid,))
    timer.start()
    try:
        output, _ = process.communicate(json.dumps(spec).encode())
    finally:
        timer.cancel()
    wall = time.perf_counter() - start
    result: dict[str, Any] = {"wall_seconds": round(wall, 4)}
    if process.returncode == -signal.SIGKILL:
        result.update(status="killed", reason=f"killed after {kill_after:g} s")
        return result
    try:
        result.update(json.loads(output.decode().strip().splitlines()[-1]))
    except (ValueError, IndexError):
        result.update(status="error", reason=f"child exit {process.returncode}, no answer")
    return result


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGKILL)


def check_answer(puzzle: Puzzle, record: dict[str, Any]) -> None:
    """Verify a solved run's answer with sudoku_cp.verify; a failed check makes it 'wrong'."""
    from sudoku_cp.grid import Grid, parse_box
    from sudoku_cp.verify import check_completion

    if record.get("status") != "solved":
        record["verified"] = None
        return
    if not record.get("answer"):
        record.update(status="wrong", verified=False, reason="solved without an answer")
        return
    # the line layout gives the default box; another one is the record's
    box = (
        None if record.get("box") in (None, box_text(record["size"])) else parse_box(record["box"])
    )
    check = check_completion(
        Grid.parse(puzzle.line, box=box), Grid.parse(record["answer"], box=box)
    )
    record["verified"] = check.ok
    if not check.ok:
        record.update(status="wrong", reason=check.describe())


# -- the study ------------------------------------------------------------------------------------


class Log:
    """The results file: a header per session, one record per run, appended under a lock."""

    def __init__(self, path: Path, header: dict[str, Any], *, resume: bool) -> None:
        self.path = path
        self.lock = threading.Lock()
        self.records: list[dict[str, Any]] = []
        if path.exists() and path.stat().st_size:
            if not resume:
                raise SystemExit(f"{path} already holds results: pass --resume or another path")
            for record in load(path):
                if record.get("type") == "header":
                    if record.get("time_limit") != header["time_limit"]:
                        raise SystemExit(
                            f"--resume: time_limit {record.get('time_limit')} in "
                            f"{path}, {header['time_limit']} now"
                        )
                else:
                    self.records.append(record)
        path.parent.mkdir(parents=True, exist_ok=True)
        self.append({"type": "header", **header})

    def done(self) -> set[tuple[str, str, str, int, int]]:
        return {run_key(record) for record in self.records if record.get("type") == "run"}

    def append(self, record: dict[str, Any]) -> None:
        with self.lock:
            if record.get("type") != "header":
                self.records.append(record)
            with self.path.open("a") as handle:
                handle.write(json.dumps(record) + "\n")
                handle.flush()


def load(path: Path) -> list[dict[str, Any]]:
    """The records of a results file (a torn last line is skipped)."""
    records = []
    for line in path.read_text().splitlines():
        try:
            records.append(json.loads(line))
        except ValueError:
            continue
    return records


Runner = Callable[[dict[str, Any], float], dict[str, Any]]


def run_series(
    series: Series,
    sizes: Sequence[int | Shape],
    log: Log,
    *,
    time_limit: float,
    runner: Runner,
    progress: Callable[[str], None],
    puzzles: Callable[..., list[Puzzle]] = puzzles_of,
    first: int | None = None,
    keep_going: bool = False,
) -> None:
    """One series, ascending N; stops at the first timeout (or kill, or failure) unless
    `keep_going`."""
    done = log.done()
    previous = [
        r
        for r in log.records
        if r.get("type") == "run"
        and (r["kind"], r["mode"], r["backend"]) == (series.kind, series.mode, series.backend)
    ]
    stopped_at = min((r["size"] for r in previous if r["status"] in STOPPING), default=None)
    if keep_going:
        stopped_at = None
    shapes = sorted(shape if isinstance(shape, tuple) else (shape, "") for shape in sizes)
    for size, box in shapes:
        box = box or box_text(size)
        found = (
            puzzles(series.kind, size)
            if box == box_text(size)
            else puzzles_of(series.kind, size, box=box)
        )
        for puzzle in found[:first]:
            key = (series.kind, series.mode, series.backend, size, box, puzzle.index)
            if key in done:
                continue
            base = {
                "type": "run",
                "kind": series.kind,
                "density": DENSITY.get(series.kind),
                "mode": series.mode,
                "backend": series.backend,
                "size": size,
                "box": box,
                "puzzle_index": puzzle.index,
                "givens": givens_of(puzzle),
                "time_limit": time_limit,
            }
            if stopped_at is not None and size >= stopped_at:
                # Past the first timeout, and the rest of its N too: each would cost the whole
                # time limit to say what the first already said (the cell reads "timeout").
                record = {**base, "status": "not run", "reason": f"stopped at {stopped_at}"}
                log.append(record)
                continue
            spec = {
                "puzzle": puzzle.line,
                "backend": series.backend,
                "mode": series.mode,
                "time_limit": time_limit,
                "box": box,
            }
            record = {**base, **runner(spec, time_limit + KILL_GRACE)}
            check_answer(puzzle, record)
            log.append(record)
            progress(
                f"{series.label} N={size} ({box}) #{puzzle.index + 1}: {record['status']} "
                f"{_seconds_text(record.get('solve_seconds'))} "
                f"(wall {record.get('wall_seconds', 0):.1f} s)"
            )
            if record["status"] in STOPPING and stopped_at is None and not keep_going:
                stopped_at = size
                progress(f"{series.label}: stops at N={size} ({record['status']})")


def givens_of(puzzle: Puzzle) -> int:
    from sudoku_cp.grid import Grid

    return len(Grid.parse(puzzle.line).givens())


def box_text(size: int) -> str:
    from sudoku_cp.grid import default_box

    rows, columns = default_box(size)
    return f"{rows}x{columns}"


def _seconds_text(seconds: float | None) -> str:
    return "" if seconds is None else f"{seconds:.3g} s"


def disagreements(records: Iterable[dict[str, Any]]) -> list[str]:
    """Lexmin answers that differ between backends on one puzzle, one line each."""
    answers: dict[tuple[str, int, int], dict[str, str]] = {}
    for record in records:
        if (
            record.get("type") == "run"
            and record["mode"] == "lexmin"
            and record["status"] == "solved"
        ):
            key = (record["kind"], record["size"], record.get("box", ""), record["puzzle_index"])
            answers.setdefault(key, {})[record["backend"]] = record["answer"]
    lines = []
    for (kind, size, _, index), by_backend in sorted(answers.items()):
        if len(set(by_backend.values())) > 1:
            smallest = min(by_backend.values(), key=_line_values)
            wrong = sorted(b for b, a in by_backend.items() if a != smallest)
            lines.append(
                f"{kind} N={size} puzzle {index + 1}: lexmin answers differ; "
                f"not the smallest: {', '.join(wrong)}"
            )
    return lines


def _line_values(line: str) -> list[int]:
    from sudoku_cp.grid import Grid

    return list(Grid.parse(line).values)


def study(
    args: argparse.Namespace,
    *,
    runner: Runner | None = None,
    progress: Callable[[str], None] | None = None,
) -> int:
    say = progress or (lambda message: print(message, file=sys.stderr, flush=True))
    header = {
        "time_limit": args.time_limit,
        "jobs": args.jobs,
        "sizes": args.sizes,
        "puzzles": args.puzzles,
        "kinds": args.kinds,
        "modes": args.modes,
        "backends": args.backends,
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "machine": platform.node(),
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "versions": versions(),
    }
    log = Log(results_path(args), header, resume=args.resume)
    if args.jobs > 1:
        say(
            f"-j {args.jobs}: {args.jobs} series run at once, so wall times are taken "
            f"{args.jobs} at a time; compare CPU seconds"
        )
    all_series = [
        Series(kind, mode, backend)
        for kind in args.kinds
        for mode in args.modes
        for backend in args.backends
    ]
    run = runner or (lambda spec, kill_after: run_child(spec, kill_after=kill_after))
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [
            pool.submit(
                run_series,
                series,
                args.sizes,
                log,
                time_limit=args.time_limit,
                runner=run,
                progress=say,
                first=args.puzzles,
                keep_going=args.keep_going,
            )
            for series in all_series
        ]
        for future in futures:
            future.result()
    found = disagreements(log.records)
    for line in found:
        say(f"!!! DISAGREEMENT: {line}")
    if found:
        log.append({"type": "disagreements", "lines": found})
    say(f"done: {sum(1 for r in log.records if r.get('type') == 'run')} records in {log.path}")
    return 1 if found else 0


def versions() -> dict[str, str]:
    from importlib import metadata

    found = {}
    for package in ("sudoku-cp", "ortools", "python-sat"):
        with contextlib.suppress(metadata.PackageNotFoundError):
            found[package] = metadata.version(package)
    return found


# -- the report -----------------------------------------------------------------------------------

# solve: the backend's in-process solve time (set-up excluded); cpu: CPU seconds of the child's
# solve call (set-up included); wall: the child's whole life; setup: building a solver or model.
METRICS = {
    "solve": "solve_seconds",
    "cpu": "call_cpu_seconds",
    "wall": "wall_seconds",
    "setup": "setup_seconds",
    "rss": "peak_rss_mb",
}


def cells(
    records: Iterable[dict[str, Any]], metric: str = "solve"
) -> dict[tuple[str, str, str, int, str], tuple[str, float | None]]:
    """(kind, mode, backend, N, box) -> (text, median or None): the median over the puzzles
    of that shape, a timeout counting as infinite; 'timeout' when the median is one, 'not run'.
    The rss metric is the largest peak over the puzzles, in MB."""
    field = METRICS[metric]
    groups: dict[tuple[str, str, str, int, str], list[dict[str, Any]]] = {}
    for record in records:
        if record.get("type") == "run":
            box = record.get("box") or box_text(record["size"])
            groups.setdefault(
                (record["kind"], record["mode"], record["backend"], record["size"], box), []
            ).append(record)
    table: dict[tuple[str, str, str, int, str], tuple[str, float | None]] = {}
    for key, runs in groups.items():
        if all(r["status"] == "not run" for r in runs):
            table[key] = ("not run", None)
            continue
        ran = [r for r in runs if r["status"] != "not run"]
        times = [
            r.get(field) if r["status"] == "solved" and r.get(field) is not None else math.inf
            for r in ran
        ]
        median = statistics.median(times)
        if metric == "rss":
            peaks = [r[field] for r in ran if r.get(field) is not None]
            table[key] = (f"{max(peaks):.0f} MB", max(peaks)) if peaks else ("", None)
            continue
        failed = sum(1 for r in ran if r["status"] != "solved")
        statuses = sorted({r["status"] for r in ran if r["status"] != "solved"})
        if math.isinf(median):
            table[key] = ("/".join(statuses) if statuses else "timeout", None)
        else:
            note = f" ({failed}/{len(ran)} {'/'.join(statuses)})" if failed else ""
            table[key] = (f"{_format(median)}{note}", median)
    return table


def _format(seconds: float) -> str:
    if seconds < 1:
        return f"{seconds * 1000:.3g} ms"
    return f"{seconds:.3g} s"


def markdown(records: list[dict[str, Any]], metric: str = "solve") -> str:
    """One table per kind: rows N, columns backend x mode, the median time of the puzzles."""
    table = cells(records, metric)
    kinds = [k for k in KINDS if any(key[0] == k for key in table)]
    kinds += sorted({key[0] for key in table} - set(kinds))
    modes = [m for m in MODES if any(key[1] == m for key in table)]
    backends = sorted({key[2] for key in table}, key=_backend_order)
    lines = [
        f"Median {metric} over the puzzles of each N ({METRICS[metric]}; rss: the largest); "
        "a timeout counts as infinite; `not run`: the series stopped at a smaller N."
    ]
    for kind in kinds:
        sizes = sorted({(key[3], key[4]) for key in table if key[0] == kind})
        columns = [(backend, mode) for backend in backends for mode in modes]
        lines += [
            "",
            f"**{kind}**",
            "",
            "| N | " + " | ".join(f"{b} {m}" for b, m in columns) + " |",
            "|---:|" + "---:|" * len(columns),
        ]
        for size, box in sizes:
            row = [
                table.get((kind, mode, backend, size, box), ("", None))[0]
                for backend, mode in columns
            ]
            lines.append(f"| {size} ({box}) | " + " | ".join(row) + " |")
    found = disagreements(records)
    if found:
        lines += ["", "**DISAGREEMENTS between lexmin answers:**", ""]
        lines += [f"- {line}" for line in found]
    return "\n".join(lines) + "\n"


def _backend_order(name: str) -> tuple[int, str]:
    base = name.split("[")[0]
    return (BACKENDS.index(base) if base in BACKENDS else len(BACKENDS), name)


def plot(records: list[dict[str, Any]], path: Path, metric: str = "solve") -> None:
    """Time against N, log scale: a panel per kind x mode, a line per backend, timeouts as x."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    table = cells(records, metric)
    limits = [r["time_limit"] for r in records if r.get("type") == "run"]
    limit = max(limits) if limits else 300.0
    kinds = [k for k in KINDS if any(key[0] == k for key in table)] or sorted(
        {key[0] for key in table}
    )
    modes = [m for m in MODES if any(key[1] == m for key in table)]
    backends = sorted({key[2] for key in table}, key=_backend_order)
    figure, axes = plt.subplots(
        len(kinds),
        len(modes),
        figsize=(5.5 * len(modes), 3.6 * len(kinds)),
        squeeze=False,
        sharex=True,
        sharey=True,
    )
    for row, kind in enumerate(kinds):
        for column, mode in enumerate(modes):
            ax = axes[row][column]
            for number, backend in enumerate(backends):
                points = sorted(
                    (key[3], value)
                    for key, value in table.items()
                    if key[:3] == (kind, mode, backend)
                )
                solved = [(n, seconds) for n, (_, seconds) in points if seconds is not None]
                failed = [
                    n for n, (text, seconds) in points if seconds is None and text != "not run"
                ]
                (line,) = ax.plot(
                    [n for n, _ in solved],
                    [s for _, s in solved],
                    marker="o",
                    markersize=3,
                    label=backend,
                )
                if failed:  # side by side, so that equal timeouts do not hide each other
                    shift = 0.5 * (number - (len(backends) - 1) / 2)
                    ax.plot(
                        [n + shift for n in failed],
                        [limit] * len(failed),
                        linestyle="none",
                        marker="x",
                        markersize=8,
                        color=line.get_color(),
                    )
            ax.axhline(limit, color="grey", linewidth=0.6, linestyle=":")
            ax.set_yscale("log")
            ax.set_title(f"{kind}, {mode}", fontsize=10)
            ax.grid(True, which="both", alpha=0.3)
            if column == 0:
                ax.set_ylabel(f"{metric} seconds (median)")
            if row == len(kinds) - 1:
                ax.set_xlabel("N")
    axes[0][0].legend(fontsize=8)
    figure.suptitle(
        f"Scaling: time against N (x = timeout at {limit:g} s; missing = not run)", fontsize=11
    )
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)
    plt.close(figure)


def results_path(args: argparse.Namespace) -> Path:
    """The log a study run appends to: `--results`, else a new one under results/.

    Raises:
        RefusedPath: for a log under docs/ or data/, or a committed one.
    """
    if args.results is None:
        if args.resume:
            raise RefusedPath("--resume needs --results: the log of the run to continue")
        return fresh_folder("scaling") / "scaling.jsonl"
    path = Path(args.results)
    refuse_committed(path)
    return path


def report(args: argparse.Namespace) -> int:
    if args.results is None:
        raise RefusedPath("--report needs --results: the log to report")
    records = load(Path(args.results))
    out = Path(args.out) if args.out else Path(args.results).parent
    targets = [out / "table.md", out / "scaling.png"]
    for target in targets:
        refuse_committed(target)
    out.mkdir(parents=True, exist_ok=True)
    text = markdown(records, args.metric)
    targets[0].write_text(text)
    plot(records, targets[1], args.metric)
    print(text)
    print(f"wrote {targets[0]} and {targets[1]}", file=sys.stderr)
    return 1 if disagreements(records) else 0


# -- command line ---------------------------------------------------------------------------------


def _list(text: str) -> list[str]:
    return [item.strip() for item in text.split(",") if item.strip()]


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--results",
        default=None,
        help="the log (default for a run: results/scaling-TIME/scaling.jsonl)",
    )
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--time-limit", type=float, default=300.0)
    parser.add_argument("-j", "--jobs", type=int, default=1)
    parser.add_argument(
        "--sizes",
        type=lambda t: every_shape() if t == "all" else [shape_of(s) for s in _list(t)],
        default=list(SIZES),
        help="N (the default box), RxC (that box), or all: every N from 4 to 64 with a box",
    )
    parser.add_argument(
        "--keep-going",
        action="store_true",
        help="run every shape of a series, past its first timeout",
    )
    parser.add_argument("--kinds", type=_list, default=list(KINDS))
    parser.add_argument("--modes", type=_list, default=list(MODES))
    parser.add_argument(
        "--backends",
        type=lambda t: t.split(";") if ";" in t else _list(t),
        default=list(BACKENDS),
        help="comma-separated; use ';' between configurations with commas",
    )
    parser.add_argument(
        "--puzzles",
        type=int,
        default=None,
        help="only the first K puzzles of each file (default: all)",
    )
    parser.add_argument("--report", action="store_true", help="render the table and the plot")
    parser.add_argument(
        "--out",
        default=None,
        help="--report: the folder for table.md and scaling.png (default: the "
        "folder of --results); never under docs/ or data/",
    )
    parser.add_argument("--metric", choices=sorted(METRICS), default="solve")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.child:
        child_main()
        return 0
    try:
        return report(args) if args.report else study(args)
    except RefusedPath as refused:
        print(f"scaling_study.py: {refused}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
