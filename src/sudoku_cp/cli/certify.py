"""`sudoku-cp certify`: a checked certificate for every answer in results logs or solve output.

Thin, like the other commands: the claims, proofs and checks are in `sudoku_cp.certify`. Exit 0 when
every claim is certified, 1 when one is not, 2 for input that cannot be read (one line
`Error: ...` on stderr).
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import click

from ..certify import DEFAULT_SOLVER, ENGINES, PROOF_SOLVERS, Certifier
from ..certify.certifier import Certification
from ..certify.files import ClaimTally
from ..certify.readers import Entry
from ..progress import Progress
from ..text import plural
from .objects import make_executor
from .options import executor_options, option
from .output import echo, output_file, run_command
from .signals import check_stop, signal_word, stop_with

EXIT_FAILED = 1

EPILOG = """\b
Examples:
  sudoku-cp crosscheck serg.txt --backends dfs,cpsat,sat --results log.jsonl
  sudoku-cp certify log.jsonl
  sudoku-cp solve puzzles.txt --format jsonl | sudoku-cp certify -
  sudoku-cp certify log.jsonl --keep-proofs proofs/ --checker both
  sudoku-cp certify big-log.jsonl -j 2

\b
What is certified (docs/certify.md):
  lexmin         a completion (verified) and a refuted smaller one
  any            a completion (verified)
  unsatisfiable  a refutation of every completion
  count k        k completions verified, and a refutation of another
                 (at the limit: k completions verified)
  Every refutation is a proof checked by dratify."""


@click.command(name="certify", epilog=EPILOG)
@click.argument("files", metavar="FILE...", nargs=-1, required=True)
@option(
    "--solver",
    type=click.Choice(list(PROOF_SOLVERS)),
    default=DEFAULT_SOLVER,
    show_default=True,
    help="The proof-logging SAT solver (python-sat).",
)
@option(
    "--checker",
    type=click.Choice(ENGINES),
    default="auto",
    show_default=True,
    help="dratify's engine: native (Rust, from cdclkit-native), python, auto "
    "(native when installed), or both (each proof must pass both).",
)
@option(
    "--keep-proofs",
    type=click.Path(file_okay=False, path_type=Path),
    metavar="DIR",
    help="Write every CNF and proof there, to re-check with another checker (drat-trim, ...).",
)
@option(
    "--report",
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="FILE",
    help="Write one JSON line per claim: where, whose, certified, why, certificate.",
)
@option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    default=1,
    help="Worker processes; the lines stay in input order.",
)
@executor_options
@run_command
def certify(
    files: tuple[str, ...],
    solver: str,
    checker: str,
    keep_proofs: Path | None,
    report: Path | None,
    jobs: int,
    executor: str,
    scheduler: str | None,
) -> None:
    """Certify every claimed answer in results logs or `solve --format jsonl` output.

    FILE is a results log of crosscheck or bench, or what `solve --format jsonl` printed
    (`-` reads standard input). Every run's claim is checked, whichever backend made it: a
    lex-min answer must be a completion with a checked proof that none is smaller, an
    unsatisfiable answer needs a checked refutation, a count its completions and a refutation
    of one more. One line per claim that fails, then a summary.
    """
    from ..certify_job import certify_paths

    started = time.perf_counter()
    tally = ClaimTally()
    progress = Progress(None, label="certify ")
    certifier = Certifier(solver=solver, engine=checker, keep_proofs=keep_proofs)
    runner = make_executor(executor, jobs, scheduler)
    try:
        with runner, _report(report) as out:
            for entry, certification in certify_paths(files, certifier, tally, executor=runner):
                if certification is not None and not certification.certified:
                    progress.close()
                    echo(failure_line(entry, certification))
                if out is not None and certification is not None:
                    out.write(json.dumps(report_record(entry, certification)) + "\n")
                progress.advance(note=f"{tally.failed} not certified" if tally.failed else "")
                check_stop()
    except KeyboardInterrupt:
        progress.close()
        _summary(tally, time.perf_counter() - started)
        stop_with(f"{signal_word()} after {plural(tally.claims, 'claim')}.")
    finally:
        progress.close()
    _summary(tally, time.perf_counter() - started)
    if not tally.ok:
        raise SystemExit(EXIT_FAILED)


def failure_line(entry: Entry, certification: Certification) -> str:
    """'FILE:LINE: BACKEND: CLAIM: not certified: WHY' (the smaller completion in WHY)."""
    return (
        f"{entry.where}: {entry.label}: {certification.claim.describe()}: not certified: "
        f"{certification.reason}"
    )


def report_record(entry: Entry, certification: Certification) -> dict[str, object]:
    """One line of --report."""
    return {
        "file": entry.file,
        "line": entry.line,
        "backend": entry.label,
        "status": entry.status,
        "claim": certification.claim.describe(),
        **certification.to_dict(),
    }


@contextlib.contextmanager
def _report(path: Path | None) -> Iterator[IO[str] | None]:
    """The --report file, open for writing (None when not asked for)."""
    if path is None:
        yield None
        return
    with output_file(str(path)) as handle:
        yield handle


def _summary(tally: ClaimTally, seconds: float) -> None:
    kinds = ", ".join(f"{kind} {count}" for kind, count in sorted(tally.kinds.items()))
    echo(
        f"certify: {plural(tally.claims, 'claim')} from {plural(tally.files, 'file')}: "
        f"{tally.certified} certified, {tally.failed} not certified"
        + (f" ({kinds}; {tally.distinct} distinct)" if kinds else "")
        + (f"; {plural(tally.unanswered, 'run')} without an answer" if tally.unanswered else "")
    )
    median = tally.median_check_ms()
    if median is not None:
        lines = sorted(tally.proof_lines)[len(tally.proof_lines) // 2]
        echo(
            f"proofs: {len(tally.proof_checks)} checked by {tally.checker}; median "
            f"{median:.1f} ms to check, median proof {plural(lines, 'line')}; "
            f"{seconds:.1f} s in all"
        )
    else:
        echo(f"no proof needed; {seconds:.1f} s in all")
