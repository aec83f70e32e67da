"""What a results log holds, as types: a session `Header`, a `PuzzleEntry` per puzzle, and a
`Run` per configuration and repeat; and the line `solve --format jsonl` prints, an `AnswerLine`
(the puzzle's fields and one run's, flat). Each converts to and from its JSON object.

`from_json` is the one validating reader of a line: every field is checked for its type and
its words (a status, a verdict, a mode), and anything else raises `RecordError`, which the
readers turn into one line naming the file and line. Logs of earlier versions are read into the
same types: version 2 kept a wrong answer's grid under `solution`, today's under `answer`.
The layout is documented in docs/results-log.md, and a test holds that page to these types.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from ..grid import Grid, Shape, parse_box
from ..result import Mode, RunStatus, Verdict
from .fields import RecordError, field_of, rating_of, shown, word_of

RESULTS_FORMAT = "sudoku-cp results"
RESULTS_VERSION = 3  # 3: a wrong answer's grid under "answer" (2: under "solution")
READABLE_VERSIONS = (2, 3)
INVALID: Final = "invalid"  # the status of an input line that is not a puzzle, in every output
# Characters of an input line that is not a puzzle kept in its `puzzle` field: more than the line
# of the largest puzzle, so that only a runaway line (no newline for megabytes) is cut, and
# `puzzle_length` then says so.
INVALID_LINE_KEPT = 1 << 16


# -- a run ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    """One configuration's answer to one puzzle (one repeat of it), as the log keeps it.

    `solution` is a verified completion (status solved; in count mode the first one found);
    `answer` is the grid a wrong answer gave, kept to be audited. `count` and `limit_reached`
    are set in count mode only. `certified` and `certificate` are set under --certify.
    """

    backend: str  # the configuration's label
    status: RunStatus
    repeat: int = 0
    seconds: float | None = None
    cpu_seconds: float | None = None
    max_rss_mb: float | None = None
    build_seconds: float | None = None
    solve_seconds: float | None = None
    solution: str | None = None
    answer: str | None = None
    count: int | None = None
    limit_reached: bool | None = None
    reason: str | None = None
    disagrees: bool = False
    certified: bool | None = None
    certificate: Mapping[str, Any] | None = None
    stats: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # As written: a run held in memory equals the same run read back from its log.
        for name in ("seconds", "cpu_seconds", "build_seconds", "solve_seconds"):
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, round(float(value), 7))
        if self.max_rss_mb is not None:
            object.__setattr__(self, "max_rss_mb", round(float(self.max_rss_mb), 1))

    @property
    def name(self) -> str:
        """How the verifier names this run among a puzzle's: the label, `label#2` for a repeat."""
        return self.backend if not self.repeat else f"{self.backend}#{self.repeat}"

    @property
    def grid_text(self) -> str | None:
        """The grid the backend gave, right or wrong."""
        return self.solution or self.answer

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "backend": self.backend,
            "repeat": self.repeat,
            "status": str(self.status),
            "seconds": self.seconds,
            "cpu_seconds": self.cpu_seconds,
            "max_rss_mb": self.max_rss_mb,
            "build_seconds": self.build_seconds,
            "solve_seconds": self.solve_seconds,
            "solution": self.solution,
        }
        if self.answer is not None:
            data["answer"] = self.answer
        if self.count is not None or self.limit_reached is not None:
            data.update(count=self.count, limit_reached=bool(self.limit_reached))
        if self.reason:
            data["reason"] = self.reason
        if self.disagrees:
            data["disagrees"] = True
        if self.certified is not None:
            data.update(certified=self.certified, certificate=self.certificate)
        data["stats"] = dict(self.stats)
        return data

    @classmethod
    def from_json(cls, data: Any, *, version: int = RESULTS_VERSION) -> Run:
        """Raises: RecordError: for an object that is not a whole run."""
        if not isinstance(data, dict):
            raise RecordError("a run is not a JSON object")
        status = word_of(data, "status", RunStatus)
        solution = field_of(data, "solution", str, optional=True)
        answer = field_of(data, "answer", str, optional=True)
        if version < 3 and status is RunStatus.WRONG and answer is None:
            solution, answer = None, solution  # version 2 kept a wrong grid as the solution
        count = field_of(data, "count", int, optional=True)
        if count is not None and count < 0:
            raise RecordError(f"count is negative: {count}")
        certificate = field_of(data, "certificate", dict, optional=True)
        return cls(
            backend=field_of(data, "backend", str),
            status=status,
            repeat=field_of(data, "repeat", int, optional=True) or 0,
            seconds=field_of(data, "seconds", float, optional=True),
            cpu_seconds=field_of(data, "cpu_seconds", float, optional=True),
            max_rss_mb=field_of(data, "max_rss_mb", float, optional=True),
            build_seconds=field_of(data, "build_seconds", float, optional=True),
            solve_seconds=field_of(data, "solve_seconds", float, optional=True),
            solution=solution,
            answer=answer,
            count=count,
            limit_reached=field_of(data, "limit_reached", bool, optional=True),
            reason=field_of(data, "reason", str, optional=True),
            disagrees=bool(field_of(data, "disagrees", bool, optional=True)),
            certified=field_of(data, "certified", bool, optional=True),
            certificate=certificate,
            stats=field_of(data, "stats", dict, optional=True) or {},
        )


# -- a puzzle -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PuzzleFields:
    """Where a puzzle comes from and what it is: the fields every line about it starts with."""

    index: int  # its place in the run's input, from 0
    source: str  # the file, '<stdin>' or a set's file
    line: int  # its line in the source, from 1
    puzzle: str  # the puzzle in the line layout
    box: str | None = None  # 'RxC' when not the size's default

    def shape(self) -> Shape | None:
        """The box shape (None: the size's default)."""
        return parse_box(self.box) if self.box else None

    def grid(self) -> Grid:
        """The puzzle as a grid.

        Raises:
            GridParseError, GridShapeError: for text that is not a grid of that shape.
        """
        return Grid.parse(self.puzzle, box=self.shape())

    @property
    def where(self) -> str:
        return f"{self.source}:{self.line}"


def _puzzle_fields(data: Mapping[str, Any], *, source: bool = True) -> dict[str, Any]:
    """The puzzle's fields of a line (`source` required unless told otherwise)."""
    return {
        "index": field_of(data, "index", int, optional=True) or 0,
        "source": field_of(data, "source", str, optional=not source) or "",
        "line": field_of(data, "line", int, optional=True) or 0,
        "puzzle": field_of(data, "puzzle", str),
        "box": field_of(data, "box", str, optional=True),
    }


@dataclass(frozen=True)
class PuzzleEntry(PuzzleFields):
    """One puzzle of a crosscheck or bench session: every run of every configuration, and the
    verdict over them (`runs.judge`)."""

    set: str = ""  # the file's stem or the set's name
    number: int = 0  # its place in its source, from 0
    size: int = 0
    givens: int = 0
    mode: Mode = Mode.LEXMIN
    verdict: Verdict = Verdict.AGREE
    findings: tuple[str, ...] = ()
    runs: tuple[Run, ...] = ()
    rating: Mapping[str, Any] | None = None  # bench --rating: {"level": 3, "technique": ...}

    @property
    def key(self) -> tuple[str, int]:
        """What identifies the puzzle in its run: its source and place there."""
        return self.source, self.number

    @property
    def finished(self) -> bool:
        """Whether a resume leaves it alone: no run ended in an error."""
        return all(run.status is not RunStatus.ERROR for run in self.runs)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "kind": "puzzle",
            "index": self.index,
            "set": self.set,
            "number": self.number,
            "source": self.source,
            "line": self.line,
            "puzzle": self.puzzle,
        }
        if self.box is not None:
            data["box"] = self.box
        data.update(
            size=self.size,
            givens=self.givens,
            mode=str(self.mode),
            verdict=str(self.verdict),
            findings=list(self.findings),
            runs=[run.to_json() for run in self.runs],
        )
        if self.rating is not None:
            data["rating"] = dict(self.rating)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any], *, version: int = RESULTS_VERSION) -> PuzzleEntry:
        """Raises: RecordError: for an object that is not a whole puzzle entry."""
        puzzle = _puzzle_fields(data)
        number = field_of(data, "number", int)
        mode, verdict = word_of(data, "mode", Mode), word_of(data, "verdict", Verdict)
        findings = field_of(data, "findings", list, optional=True) or []
        if not all(isinstance(finding, str) for finding in findings):
            raise RecordError("findings are not all text")
        runs = field_of(data, "runs", list)
        if not runs:
            raise RecordError("no runs")
        return cls(
            **puzzle,
            set=field_of(data, "set", str, optional=True) or "",
            number=number,
            size=field_of(data, "size", int, optional=True) or 0,
            givens=field_of(data, "givens", int, optional=True) or 0,
            mode=mode,
            verdict=verdict,
            findings=tuple(findings),
            runs=tuple(Run.from_json(run, version=version) for run in runs),
            rating=rating_of(data),
        )


@dataclass(frozen=True)
class AnswerLine(PuzzleFields):
    """One line of `solve --format jsonl`: the puzzle's fields, the mode, and its one run's,
    flat (`status` 'invalid' and the reason for an input line that is not a puzzle, whose
    `puzzle` is the line as read: its first `INVALID_LINE_KEPT` characters, with
    `puzzle_length` its whole length, when longer)."""

    mode: Mode = Mode.LEXMIN
    run: Run | None = None  # None for an invalid input line
    invalid: str | None = None  # why the input line is not a puzzle
    backend: str = ""  # the configuration asked, for an invalid input line (the run has it)
    puzzle_length: int | None = None  # an invalid line cut in `puzzle`: its whole length

    def __post_init__(self) -> None:
        if self.run is None and len(self.puzzle) > INVALID_LINE_KEPT:
            object.__setattr__(self, "puzzle_length", len(self.puzzle))
            object.__setattr__(self, "puzzle", self.puzzle[:INVALID_LINE_KEPT])

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "index": self.index,
            "source": self.source,
            "line": self.line,
            "puzzle": self.puzzle,
        }
        if self.box is not None:
            data["box"] = self.box
        data["mode"] = str(self.mode)
        if self.run is None:
            data.update(backend=self.backend, status=INVALID, reason=self.invalid)
            if self.puzzle_length is not None:
                data["puzzle_length"] = self.puzzle_length
        else:
            data.update(self.run.to_json())
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any], *, version: int = RESULTS_VERSION) -> AnswerLine:
        """Raises: RecordError: for an object that is not a line of solve --format jsonl."""
        status = field_of(data, "status", str)
        puzzle = _puzzle_fields(data, source=False)
        if status in (INVALID, "invalid input"):  # 'invalid input' before version 3
            reason = field_of(data, "reason", str, optional=True) or ""
            backend = field_of(data, "backend", str, optional=True) or ""
            length = field_of(data, "puzzle_length", int, optional=True)
            return cls(**puzzle, invalid=reason, backend=backend, puzzle_length=length)
        mode = word_of(data, "mode", Mode)
        if version < 3 and "answer" in data:  # a wrong grid, never the solution, in solve output
            version = 3
        return cls(**puzzle, mode=mode, run=Run.from_json(data, version=version))


# -- a session header -----------------------------------------------------------------------------


@dataclass(frozen=True)
class ConfigurationEntry:
    """A configuration as a header describes it: its label, backend and options."""

    label: str
    backend: str
    options: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "backend": self.backend, "options": dict(self.options)}

    @classmethod
    def from_json(cls, data: Any) -> ConfigurationEntry:
        if not isinstance(data, dict):
            raise RecordError("a configuration is not a JSON object")
        label = field_of(data, "label", str)
        return cls(
            label,
            field_of(data, "backend", str, optional=True) or label,
            field_of(data, "options", dict, optional=True) or {},
        )


@dataclass(frozen=True)
class Header:
    """A session's first line: the command, its settings (with the configurations), the
    version that wrote it, when, and from the CLI the inputs and the environment. A bench
    session adds a set-up line, a header with `setup` (`setup_of` is 'session')."""

    command: str
    settings: Mapping[str, Any]
    configurations: tuple[ConfigurationEntry, ...] = ()
    version: int = RESULTS_VERSION
    sudoku_cp: str = ""
    started: str = ""
    inputs: tuple[str, ...] | None = None
    environment: Mapping[str, Any] | None = None
    resumed: bool = False
    setup: Mapping[str, Any] | None = None
    setup_of: str | None = None

    @property
    def time_limit(self) -> float | None:
        value = self.settings.get("time_limit")
        return None if value is None else float(value)

    @property
    def labels(self) -> list[str]:
        return [configuration.label for configuration in self.configurations]

    def to_json(self) -> dict[str, Any]:
        settings = {**self.settings, "backends": [c.to_json() for c in self.configurations]}
        data: dict[str, Any] = {
            "kind": "header",
            "format": RESULTS_FORMAT,
            "version": self.version,
            "command": self.command,
            "settings": settings,
        }
        if self.sudoku_cp:  # a set-up line has neither
            data.update(sudoku_cp=self.sudoku_cp, started=self.started)
        if self.environment is not None:
            data["environment"] = dict(self.environment)
        if self.inputs is not None:
            data["inputs"] = list(self.inputs)
        if self.resumed:
            data["resumed"] = True
        if self.setup is not None:
            data.update(setup=dict(self.setup), setup_of=self.setup_of or "session")
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Header:
        """Raises: RecordError: for a header of another format or version, or not whole."""
        if data.get("format") != RESULTS_FORMAT:
            raise RecordError("not a sudoku-cp results header")
        version = field_of(data, "version", int)
        if version not in READABLE_VERSIONS:
            raise RecordError(f"version {version}, which this release cannot read")
        settings = field_of(data, "settings", dict)
        backends = settings.get("backends") or []
        if not isinstance(backends, list):
            raise RecordError("settings.backends is not a JSON list")
        inputs = field_of(data, "inputs", list, optional=True)
        return cls(
            command=field_of(data, "command", str),
            settings={key: value for key, value in settings.items() if key != "backends"},
            configurations=tuple(ConfigurationEntry.from_json(item) for item in backends),
            version=version,
            sudoku_cp=field_of(data, "sudoku_cp", str, optional=True) or "",
            started=field_of(data, "started", str, optional=True) or "",
            inputs=None if inputs is None else tuple(str(item) for item in inputs),
            environment=field_of(data, "environment", dict, optional=True),
            resumed=bool(field_of(data, "resumed", bool, optional=True)),
            setup=field_of(data, "setup", dict, optional=True),
            setup_of=field_of(data, "setup_of", str, optional=True),
        )


LogRecord = Header | PuzzleEntry


def record_from_json(data: Any, *, version: int = RESULTS_VERSION) -> LogRecord:
    """A log line's object as its record; `version` is that of the session it belongs to.

    Raises:
        RecordError: for an object that is neither a header nor a whole puzzle entry.
    """
    if not isinstance(data, dict):
        raise RecordError("not a JSON object")
    kind = data.get("kind")
    if kind == "header":
        return Header.from_json(data)
    if kind == "puzzle":
        return PuzzleEntry.from_json(data, version=version)
    raise RecordError(f"kind {shown(kind)} is neither header nor puzzle")


__all__ = [
    "READABLE_VERSIONS",
    "RESULTS_FORMAT",
    "RESULTS_VERSION",
    "AnswerLine",
    "ConfigurationEntry",
    "Header",
    "LogRecord",
    "PuzzleEntry",
    "PuzzleFields",
    "RecordError",
    "Run",
    "record_from_json",
]
