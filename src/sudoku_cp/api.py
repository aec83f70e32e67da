"""The Python API: the engine behind the CLI, for notebooks and scripts.

    import sudoku_cp
    r = sudoku_cp.solve(text, backend="cpsat", mode="lexmin", time_limit=5)
    for r in sudoku_cp.solve_many("puzzles.txt", backend="sat", jobs=2): ...
    report = sudoku_cp.crosscheck("puzzles.txt", backends=["dfs", "sat"], jobs=2)
    runs = sudoku_cp.bench(["top95.txt"], backends=["dfs", "cpsat", "sat"], results="r.jsonl")
    df = sudoku_cp.load_results("r.jsonl").to_pandas()

Every answer is verified by the one checker; errors raise the typed exceptions of
`sudoku_cp.errors`.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from .engine import (BackendSpec, Executor, PuzzleResult, SolveSettings, execute,
                     make_executor)
from .errors import GridParseError, InputError
from .formats import Layout, PuzzleRecord, PuzzleStream, read_puzzles
from .grid import Grid, Shape
from .result import Mode, SolveResult
from .results import Results, ResultsLog, load_results, make_header

Sources = str | os.PathLike[str] | Sequence[str | os.PathLike[str]]


@dataclass(frozen=True)
class Answer:
    """One puzzle's answer from one backend, verified.

    `status` is solved, unsatisfiable, timeout, wrong (the answer failed the checker: `reason`
    says how) or error (the backend raised). `solution` is the completion (None unless solved);
    `count` is set in count mode; `seconds` is the solve time.
    """

    puzzle: Grid | None
    status: str
    solution: Grid | None
    count: int | None
    seconds: float | None
    reason: str | None
    result: SolveResult | None  # the backend's raw result
    source: str = ""
    line: int = 0

    @classmethod
    def of(cls, outcome: PuzzleResult) -> Answer:
        record = outcome.record
        if record.grid is None:
            return cls(None, "invalid input", None, None, None, record.error, None,
                       record.source, record.line)
        run = outcome.runs[0]
        result = run.result
        solution = result.solution if result is not None and run.status == "solved" else None
        return cls(record.grid, run.status, solution,
                   result.count if result is not None else None, run.seconds, run.reason,
                   result, record.source, record.line)


def specs_of(backends: str | BackendSpec | Sequence[str | BackendSpec],
             options: dict[str, Any] | None = None) -> list[BackendSpec]:
    """Backend configurations from names, `name[option=value,...]` strings or specs.

    Raises:
        ConfigurationError, UnknownBackendError, BackendOptionError: for what cannot be run.
    """
    from .configs import parse_configurations

    if isinstance(backends, (str, BackendSpec)):
        backends = [backends]
    return parse_configurations(list(backends), shorthands=options or {})


def _stream(source: Sources | Grid, *, layout: str | None, box: Shape | str | None,
            first: int | None = None) -> Iterable[PuzzleRecord]:
    from .grid import parse_box

    shape = parse_box(box) if isinstance(box, str) else box
    chosen = Layout(layout) if layout else None
    if isinstance(source, Grid):
        return [PuzzleRecord(0, "<grid>", 1, source.to_line(), source)]
    if isinstance(source, str) and ("\n" in source or not _looks_like_path(source)):
        _, records = read_puzzles(source, source="<text>", layout=chosen, box=shape)
        return records
    paths = [os.fspath(source)] if isinstance(source, (str, os.PathLike)) \
        else [os.fspath(path) for path in source]
    return _checked(PuzzleStream(_resolved(paths), layout=chosen, box=shape, first=first))


def _looks_like_path(text: str) -> bool:
    return os.path.exists(text) or "/" in text or text.endswith((".txt", ".sdk", ".csv")) \
        or text == "-" or _is_set_name(text)


def _is_set_name(text: str) -> bool:
    from .datasets import names

    return text in names()


def _resolved(paths: list[str]) -> list[str]:
    from .datasets import resolve_source

    return [path if path == "-" or os.path.exists(path) else resolve_source(path)
            for path in paths]


def _checked(stream: PuzzleStream) -> Iterator[PuzzleRecord]:
    yield from stream
    if stream.errors:
        raise GridParseError(stream.errors[0])


def solve(puzzle: str | Grid, *, backend: str | BackendSpec = "dfs", mode: Mode | str = "lexmin",
          limit: int = 2, time_limit: float | None = None, layout: str | None = None,
          box: Shape | str | None = None, **options: Any) -> Answer:
    """Solve one puzzle, given as a `Grid` or as text in any layout the CLI reads.

    Raises:
        GridParseError: for text that is not one puzzle.
    """
    records = list(_stream(puzzle, layout=layout, box=box)) if not isinstance(puzzle, Grid) \
        else list(_stream(puzzle, layout=None, box=None))
    if len(records) != 1:
        raise InputError(f"expected one puzzle, got {len(records)}: use solve_many")
    if records[0].grid is None:
        raise GridParseError(str(records[0].error))
    specs = specs_of(backend, options)
    settings = SolveSettings(Mode(mode), limit, time_limit)
    with contextlib.closing(execute(records, specs, settings)) as outcomes:
        return Answer.of(next(iter(outcomes)))


def solve_many(source: Sources, *, backend: str | BackendSpec = "dfs",
               mode: Mode | str = "lexmin", limit: int = 2, time_limit: float | None = None,
               jobs: int = 1, executor: str | Executor | None = None, client: Any = None,
               layout: str | None = None, box: Shape | str | None = None,
               **options: Any) -> Iterator[Answer]:
    """Solve every puzzle of a file, a list of files, a set name or a text, lazily, in order.

    Input lines that are not puzzles come back with status 'invalid input' (and the reason).
    """
    specs = specs_of(backend, options)
    settings = SolveSettings(Mode(mode), limit, time_limit)
    runner = make_executor(executor if client is None else "dask", jobs=jobs, client=client)
    try:
        with contextlib.closing(execute(_stream(source, layout=layout, box=box), specs,
                                        settings, executor=runner)) as outcomes:
            for outcome in outcomes:
                yield Answer.of(outcome)
    finally:
        runner.close()


@dataclass
class CrosscheckReport:
    """What `crosscheck` found: the summary, the records worth showing, and `ok`."""

    summary: Any
    findings: list[dict[str, Any]]

    @property
    def ok(self) -> bool:
        """No wrong answer, no disagreement, no error."""
        return not self.summary.problems

    def __str__(self) -> str:
        from .tally import Tally
        from .render import render_crosscheck

        tally = Tally([backend.name for backend in self.summary.backends], self.summary.mode)
        tally.shown = list(self.findings)
        return render_crosscheck(tally, self.summary)


def crosscheck(source: Sources, *, backends: Sequence[str | BackendSpec] = ("dfs", "cpsat", "sat"),
               mode: Mode | str = "lexmin", limit: int = 2, time_limit: float | None = None,
               jobs: int = 1, executor: str | Executor | None = None, client: Any = None,
               results: str | os.PathLike[str] | None = None, resume: bool = False,
               layout: str | None = None, box: Shape | str | None = None,
               **options: Any) -> CrosscheckReport:
    """Run several configurations on the same puzzles, verify every answer and compare them."""
    from .tally import Tally

    specs = specs_of(list(backends), options)
    settings = SolveSettings(Mode(mode), limit, time_limit)
    tally = Tally([spec.label for spec in specs], settings.mode)
    start = time.perf_counter()
    runner = make_executor(executor if client is None else "dask", jobs=jobs, client=client)
    with _open_log(results, "crosscheck", specs, settings, resume) as log:
        records: Iterable[PuzzleRecord] = _stream(source, layout=layout, box=box)
        if log is not None:
            for record in log.previous():
                tally.add(record, resumed=True)
            records = (record for record in records if not log.is_done(record))
        logger = (lambda outcome: log.append(outcome.to_record())) if log is not None else None
        try:
            for outcome in execute(records, specs, settings, executor=runner, log=logger):
                if outcome.verdict is None:
                    tally.bad_input += 1
                else:
                    tally.add(outcome.to_record())
        finally:
            runner.close()
    summary = tally.summary(wall_seconds=time.perf_counter() - start)
    return CrosscheckReport(summary, [dict(record) for record in tally.shown])


def bench(sources: Sources, *, backends: Sequence[str | BackendSpec] = ("dfs", "cpsat", "sat"),
          mode: Mode | str = "lexmin", limit: int = 2, time_limit: float | None = None,
          repeat: int = 1, warmup: int = 0, first: int | None = None,
          results: str | os.PathLike[str] | None = None, resume: bool = False,
          layout: str | None = None, box: Shape | str | None = None,
          **options: Any) -> Results:
    """Time configurations over puzzle sets (one set per file), in this process, every answer
    verified; returns the results (also written to `results` when given)."""
    specs = specs_of(list(backends), options)
    settings = SolveSettings(Mode(mode), limit, time_limit, warmup, repeat, prime=True)
    collected = Results()
    with _open_log(results, "bench", specs, settings, resume) as log:
        records: Iterable[PuzzleRecord] = _stream(sources, layout=layout, box=box, first=first)
        if log is not None:
            collected.records.extend(log.previous())
            records = (record for record in records if not log.is_done(record))
        logger = (lambda outcome: log.append(outcome.to_record())) if log is not None else None
        for outcome in execute(records, specs, settings, log=logger):
            if outcome.verdict is None:
                raise InputError(str(outcome.record.error))
            collected.records.append(outcome.to_record())
    collected.headers.append(make_header(command="bench", settings=settings.to_dict(),
                                         backends=[spec.describe() for spec in specs]))
    collected.header_paths.append(str(results or ""))
    return collected


@contextlib.contextmanager
def _open_log(path: str | os.PathLike[str] | None, command: str, specs: Sequence[BackendSpec],
              settings: SolveSettings, resume: bool) -> Iterator[ResultsLog | None]:
    if path is None:
        yield None
        return
    header = make_header(command=command, settings=settings.to_dict(),
                         backends=[spec.describe() for spec in specs])
    log = ResultsLog.open(path, header, resume=resume)
    try:
        yield log
    finally:
        log.close()


__all__ = ["Answer", "CrosscheckReport", "bench", "crosscheck", "load_results", "solve",
           "solve_many"]
