"""The Python API: the library behind the CLI, for notebooks and scripts.

    import sudoku_cp
    answer = sudoku_cp.solve(text, backend="cpsat", mode="lexmin", time_limit=5)
    for answer in sudoku_cp.solve_many("data/generated/unique-9x9.txt", backend="sat"): ...
    report = sudoku_cp.crosscheck("data/generated/multi-9x9.txt", backends=["dfs", "sat"])
    results = sudoku_cp.bench(["data/generated/unique-9x9.txt"], backends=["dfs", "sat"])
    frame = sudoku_cp.load_results("r.jsonl").to_pandas()

Every answer is checked by the one verifier. `crosscheck` and `bench` run the same sessions as
the command line (`sessions.py`), so a results log written by either resumes from the other.
Errors raise the typed exceptions of `sudoku_cp.errors`. Backend options are keyword arguments:
`solve(text, backend="sat", solver="cadical195")`; an option no chosen backend declares is
refused, naming the ones they do.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .agreement import Summary
from .configurations import Configuration, parse_configurations
from .engine import execute
from .errors import ArgumentError, GridParseError, InputError
from .executors import Executor, make_executor
from .grid import Grid, Shape
from .inputs import Sources, puzzles_of
from .judging import Answer, SkippedLine, SolveSettings
from .result import Mode
from .results_log.reader import Results, load_results
from .results_log.records import PuzzleEntry
from .sessions import BenchSession, CrosscheckSession, inputs_of

LOGGER = logging.getLogger(__name__)
Backends = str | Configuration | Sequence[str | Configuration]


def configurations_of(
    backends: Backends, options: dict[str, Any] | None = None
) -> list[Configuration]:
    """Configurations from names, `name[option=value,...]` strings or `Configuration`s, with
    `options` applied to every configuration whose backend declares them.

    Raises:
        ConfigurationError, UnknownBackendError, BackendOptionError: for what cannot be run.
    """
    if isinstance(backends, (str, Configuration)):
        backends = [backends]
    return parse_configurations(list(backends), options=options or {})


def solve(
    puzzle: str | Grid,
    *,
    backend: str | Configuration = "dfs",
    mode: Mode | str = "lexmin",
    limit: int = 2,
    time_limit: float | None = None,
    layout: str | None = None,
    box: Shape | str | None = None,
    certify: bool = False,
    keep_proofs: str | os.PathLike[str] | None = None,
    **options: Any,
) -> Answer:
    """Solve one puzzle, given as a `Grid` or as text in any layout the CLI reads.

    With `certify` (or `keep_proofs`, a folder for the CNF and proof files), the answer is
    certified by a checked proof as well (`Answer.certification`); one that fails is wrong.

    Raises:
        GridParseError: for text that is not one puzzle.
        InputError: for text holding several puzzles (use `solve_many`).
    """
    puzzles = list(puzzles_of(puzzle, layout=layout, box=box))
    if len(puzzles) != 1:
        raise InputError(f"expected one puzzle, got {len(puzzles)}: use solve_many")
    if puzzles[0].grid is None:
        raise GridParseError(str(puzzles[0].error))
    configurations = configurations_of(backend, options)
    settings = SolveSettings.of(mode, limit, time_limit, certify=certify, keep_proofs=keep_proofs)
    with contextlib.closing(execute(puzzles, configurations, settings)) as outcomes:
        checked = next(outcomes)
    assert not isinstance(checked, SkippedLine)  # its grid was checked above
    return checked.answers[0]


def solve_many(
    source: Sources,
    *,
    backend: str | Configuration = "dfs",
    mode: Mode | str = "lexmin",
    limit: int = 2,
    time_limit: float | None = None,
    jobs: int = 1,
    executor: str | Executor | None = None,
    client: Any = None,
    layout: str | None = None,
    box: Shape | str | None = None,
    invalid: str = "raise",
    certify: bool = False,
    keep_proofs: str | os.PathLike[str] | None = None,
    **options: Any,
) -> Iterator[Answer]:
    """Solve every puzzle of a file, a list of files, a set name or a text, lazily, in order.

    `invalid` says what an input line that is not a puzzle does: 'raise' (the default) raises
    `GridParseError` when the stream reaches it, after the answers before it; 'skip' logs a
    warning naming the line and goes on.

    Raises:
        GridParseError: for a line that is not a puzzle (with invalid='raise'), or a source
            that cannot be read.
    """
    if invalid not in ("raise", "skip"):
        raise ArgumentError(f"invalid must be 'raise' or 'skip', got {invalid!r}")
    configurations = configurations_of(backend, options)
    runner = make_executor("dask" if client is not None else executor, jobs=jobs, client=client)
    settings = SolveSettings.of(mode, limit, time_limit, certify=certify, keep_proofs=keep_proofs)
    try:
        with contextlib.closing(
            execute(
                puzzles_of(source, layout=layout, box=box),
                configurations,
                settings,
                executor=runner,
            )
        ) as outcomes:
            for item in outcomes:
                if isinstance(item, SkippedLine):
                    if invalid == "raise":
                        raise GridParseError(item.reason)
                    LOGGER.warning("skipped: %s", item.reason)
                    continue
                yield item.answers[0]
    finally:
        runner.close()


@dataclass
class CrosscheckReport:
    """What `crosscheck` found: the summary, the puzzle entries worth showing (wrong answers,
    disagreements, errors, the first timeouts), and `ok`."""

    summary: Summary
    findings: list[PuzzleEntry]
    invalid: list[str] = field(default_factory=list)  # input lines that are not puzzles
    hidden_timeouts: int = 0

    @property
    def ok(self) -> bool:
        """No wrong answer, no disagreement, no error, no input line that is not a puzzle."""
        return not self.summary.problems and not self.invalid

    def __str__(self) -> str:
        from .render.crosscheck import render_crosscheck_summary, render_findings

        table = render_crosscheck_summary(self.summary)
        findings = render_findings(self.findings, hidden_timeouts=self.hidden_timeouts)
        return f"{table}\n\n{findings}" if findings else table


def crosscheck(
    source: Sources,
    *,
    backends: Backends = ("dfs", "cpsat", "sat"),
    mode: Mode | str = "lexmin",
    limit: int = 2,
    time_limit: float | None = None,
    jobs: int = 1,
    executor: str | Executor | None = None,
    client: Any = None,
    results: str | os.PathLike[str] | None = None,
    resume: bool = False,
    layout: str | None = None,
    box: Shape | str | None = None,
    certify: bool = False,
    keep_proofs: str | os.PathLike[str] | None = None,
    **options: Any,
) -> CrosscheckReport:
    """Run several configurations on the same puzzles, verify every answer and compare them.

    With `results`, every puzzle's record is appended to that log as it completes; `resume`
    continues the run a log holds (written by this function or by `sudoku-cp crosscheck`).
    """
    configurations = configurations_of(backends, options)
    runner = make_executor("dask" if client is not None else executor, jobs=jobs, client=client)
    session = CrosscheckSession(
        puzzles_of(source, layout=layout, box=box),
        configurations,
        SolveSettings.of(mode, limit, time_limit, certify=certify, keep_proofs=keep_proofs),
        inputs=inputs_of(source) if not isinstance(source, Grid) else ["<grid>"],
        results=results,
        resume=resume,
        executor=runner,
        jobs=jobs,
    )
    invalid: list[str] = []
    with session:
        for _ in session.replay():
            pass
        for item in session.run():
            if isinstance(item, SkippedLine):
                invalid.append(item.reason)
    tally = session.tally
    return CrosscheckReport(session.summary(), list(tally.shown), invalid, tally.hidden_timeouts)


def bench(
    sources: Sources,
    *,
    backends: Backends = ("dfs", "cpsat", "sat"),
    mode: Mode | str = "lexmin",
    limit: int = 2,
    time_limit: float | None = None,
    repeat: int = 1,
    warmup: int = 0,
    first: int | None = None,
    results: str | os.PathLike[str] | None = None,
    resume: bool = False,
    layout: str | None = None,
    box: Shape | str | None = None,
    jobs: int = 1,
    executor: str | Executor | None = None,
    setup: bool = True,
    baseline: str | None = None,
    certify: bool = False,
    keep_proofs: str | os.PathLike[str] | None = None,
    **options: Any,
) -> Results:
    """Time configurations over puzzle sets (one set per file), every answer verified, as
    `sudoku-cp bench` does: by default each configuration in a process of its own (the
    `isolated` executor; `jobs` > 1 or `executor` choose otherwise), one-off set-up measured
    apart in fresh interpreters (`setup`), the session's environment recorded. Returns the
    results, old and new (also written to `results` when given).

    Raises:
        BenchError: for an input line that is not a puzzle, or two files that would be one set.
    """
    configurations = configurations_of(backends, options)
    labels = [configuration.label for configuration in configurations]
    chosen = executor or ("isolated" if jobs == 1 else "local")
    session = BenchSession(
        puzzles_of(sources, layout=layout, box=box, first=first),
        configurations,
        SolveSettings.of(
            mode,
            limit,
            time_limit,
            certify=certify,
            keep_proofs=keep_proofs,
            warmup=warmup,
            repeat=repeat,
            prime=True,
        ),
        inputs=inputs_of(sources),
        results=results,
        resume=resume,
        executor=make_executor(chosen, jobs=jobs),
        jobs=jobs,
        extra_settings={"baseline": baseline or labels[0], "first": first},
    )
    return _bench_results(session, setup, results)


def _bench_results(
    session: BenchSession, setup: bool, results: str | os.PathLike[str] | None
) -> Results:
    """Run a bench session (set-up first, when asked and there is work left): its entries,
    old and new, and its header."""
    collected = Results()
    with session:
        collected.entries.extend(session.replay())
        todo = session.remaining()
        if setup and todo:
            session.measure_setup(todo)
        for item in session.run():
            assert not isinstance(item, SkippedLine)  # a bench's puzzles are checked first
            collected.entries.append(item.to_entry())
    collected.headers.append(replace(session.header(), setup=session.setup or None))
    collected.header_paths.append(os.fspath(results) if results is not None else "")
    return collected


__all__ = [
    "Answer",
    "CrosscheckReport",
    "bench",
    "configurations_of",
    "crosscheck",
    "load_results",
    "solve",
    "solve_many",
]
