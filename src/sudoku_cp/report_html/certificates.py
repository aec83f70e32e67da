"""The reports of `sudoku-cp certify --report FILE` read back and joined to the results logs
they certify, and the inputs of an HTML report told apart (results logs, certify reports).

A certify report holds one JSON object per claim, `file`, `line` (the results log and the line
of its puzzle record), `backend` (the label, `label#k` for the k-th timed repeat counting from
1), `certified` and `reason`. A run certified while it ran (`crosscheck --certify`) carries
`certified` itself; a certify report given with the logs is later, so it wins.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import ResultsFileError
from ..results_log.reader import Results, load_results

RunKey = tuple[int, str, int]  # (entry index, configuration label, repeat)


@dataclass(frozen=True)
class RunCertification:
    """What a proof checker said of one run: certified or not, and why."""

    certified: bool
    reason: str = ""


@dataclass
class ReportInputs:
    """The results logs of an HTML report, read as one, and the certifications of their runs
    (from the runs themselves and from certify reports), by (entry, label, repeat)."""

    results: Results
    certifications: dict[RunKey, RunCertification] = field(default_factory=dict)
    certify_reports: list[str] = field(default_factory=list)


def is_certify_report(path: str | os.PathLike[str]) -> bool:
    """Whether a file's first record is a line of `certify --report` (no `kind`, a `claim`
    and `certified`); False for anything else, unreadable files included (the results-log
    reader then names the problem)."""
    try:
        with open(path, "rb") as handle:
            for raw in handle:
                if raw.strip():
                    data = json.loads(raw)
                    return (
                        isinstance(data, dict)
                        and "kind" not in data
                        and {"claim", "certified"} <= data.keys()
                    )
    except (OSError, ValueError):
        return False
    return False


def load_report_inputs(paths: Sequence[str | os.PathLike[str]]) -> ReportInputs:
    """Read results logs and certify reports, in any order, as one report's inputs.

    Raises:
        ResultsFileError: for a file that cannot be read or is neither, for certify reports
            without a results log, and for a certify report of a log that is not given.
    """
    reports = [str(path) for path in paths if is_certify_report(path)]
    logs = [path for path in paths if str(path) not in reports]
    if not logs:
        raise ResultsFileError(
            f"{reports[0]} is a certify report: name the results log it certifies too"
        )
    inputs = ReportInputs(load_results(*logs), certify_reports=reports)
    inputs.certifications.update(_certified_runs(inputs.results))
    for report in reports:
        inputs.certifications.update(_read_report(report, inputs.results))
    return inputs


def _certified_runs(results: Results) -> Iterator[tuple[RunKey, RunCertification]]:
    for index, entry in enumerate(results.entries):
        for run in entry.runs:
            if run.certified is not None:
                key = (index, run.backend, run.repeat)
                yield key, RunCertification(run.certified, run.reason or "")


def _read_report(path: str, results: Results) -> Iterator[tuple[RunKey, RunCertification]]:
    """The certifications of one certify report, keyed by the runs they are about.

    Raises:
        ResultsFileError: for a line that is not a certify record, or one about a log that is
            not among the results.
    """
    located = _record_index(results)
    entries = list(_lines(path))
    files = {name: _log_of(name, results.paths) for name in {str(d["file"]) for _, d in entries}}
    for number, data in entries:
        log = files[str(data["file"])]
        if log is None:
            raise ResultsFileError(
                f"{path}:{number}: certifies {data['file']}, which is not among the results "
                f"logs given: name it too"
            )
        index = located.get((log, int(data["line"])))
        if index is None:
            raise ResultsFileError(
                f"{path}:{number}: {data['file']} has no puzzle record at line {data['line']} "
                f"(was the log written again since it was certified?)"
            )
        label, repeat = _label_and_repeat(str(data["backend"]))
        yield (index, label, repeat), RunCertification(bool(data["certified"]), str(data["reason"]))


def _lines(path: str) -> Iterator[tuple[int, Mapping[str, Any]]]:
    try:
        with open(path, "rb") as handle:
            raw_lines = handle.read().splitlines()
    except OSError as error:
        raise ResultsFileError(f"{path}: cannot read: {error.strerror or error}") from None
    for number, raw in enumerate(raw_lines, start=1):
        if not raw.strip():
            continue
        try:
            data = json.loads(raw)
        except ValueError:
            data = None
        if not isinstance(data, dict) or not {"file", "line", "backend", "certified"} <= set(data):
            raise ResultsFileError(f"{path}:{number}: not a line of sudoku-cp certify --report")
        data.setdefault("reason", "")
        yield number, data


def _log_of(name: str, paths: Iterable[str]) -> str | None:
    """The results log a certify report names: the same file, else the only one of that name."""
    paths = list(paths)
    for path in paths:
        if os.path.realpath(path) == os.path.realpath(name):
            return path
    same_name = [path for path in paths if Path(path).name == Path(name).name]
    return same_name[0] if len(same_name) == 1 else None


def _record_index(results: Results) -> dict[tuple[str, int], int]:
    return {location: index for index, location in enumerate(results.entry_lines)}


def _label_and_repeat(name: str) -> tuple[str, int]:
    """'sat' -> ('sat', 0); 'sat#2' (certify counts timed repeats from 1) -> ('sat', 1)."""
    label, mark, number = name.rpartition("#")
    if mark and number.isdigit() and int(number) >= 1:
        return label, int(number) - 1
    return name, 0


__all__ = [
    "RunCertification",
    "ReportInputs",
    "RunKey",
    "is_certify_report",
    "load_report_inputs",
]
