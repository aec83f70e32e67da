"""The `portfolio` backend: several backends race on each puzzle, the first accepted answer wins.

`portfolio[members=dfs+sat+cpsat]` keeps, per member, a solver process (`SolverProcess`, the
`z3` helper's child) that builds each shape's model, outside the clock, and forks a worker: a
copy of it, warm, started in milliseconds (`ForkedWorker`). A puzzle is sent to every member's
worker at once; the first answer that the verifier accepts (`verify.check_result`: the givens
kept, a full grid, no repeat, a count that fits its status) is the portfolio's, and the workers
still solving are killed at that moment, and forked again for the next puzzle. A member whose
answer the verifier refuses, or whose worker fails, is set aside and the race goes on. At the
deadline the workers that have not answered are killed (after the solver process's grace).

Modes: in lexmin mode only the members that guarantee the lex-min (`guarantees_lexmin`) race;
the verifier cannot tell a lex-min from another completion. In count mode every member counts
exactly up to the limit (the backend contract), so the first count to arrive is the count;
in any mode the first completion is the answer. An `unsatisfiable` answer is taken as it
comes (no single answer can refute it; crosscheck compares).

The stats are the winner's own, with `member` (who won), `members` (the line-up, which bench's
and report's virtual best of the members reads), `raced` (the members that got the puzzle),
`stopped` (those killed) and `rejected` (a refused answer, with the reason).
`helper_cpu_seconds` adds up the members' CPU during the race (from /proc where it can).
"""

from __future__ import annotations

import contextlib
import os
import select
import socket
import time
from typing import Any, ClassVar

from ..errors import BackendFailure, BackendOptionError, SudokuError
from ..grid import Grid, Shape
from ..result import Mode, SolveResult, Status
from . import solver_process
from .base import Backend, BackendOption, Deadline, Outcome
from .solver_process import SolverProcess

DEFAULT_MEMBERS = "dfs+sat+cpsat"
SEPARATOR = "+"


def parse_members(text: str) -> str:
    """The members as written ('dfs+sat+cpsat'), checked: registered backends that can run
    here, each once, none a portfolio.

    Raises:
        BackendOptionError: naming the member at fault.
    """
    from . import backend_class, backend_names, install_hint

    names = text.split(SEPARATOR)
    if not text.strip() or any(not name.strip() for name in names):
        raise BackendOptionError(
            f"option 'members' takes backend names joined by '{SEPARATOR}' "
            f"(e.g. {DEFAULT_MEMBERS}), got {text!r}"
        )
    names = [name.strip() for name in names]
    for name in names:
        try:
            cls = backend_class(name)
        except SudokuError:
            raise BackendOptionError(
                f"portfolio member {name!r} is not a backend "
                f"(choose from {', '.join(n for n in backend_names() if n != 'portfolio')})"
            ) from None
        if issubclass(cls, PortfolioBackend):
            raise BackendOptionError("a portfolio cannot be a member of a portfolio")
        if not cls.is_available():
            raise BackendOptionError(
                f"portfolio member {name!r} needs {', '.join(cls.requires)}: {install_hint(cls)}"
            )
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise BackendOptionError(f"portfolio member {repeated[0]!r} is named twice")
    return SEPARATOR.join(names)


def _cpu_seconds(pid: int) -> float | None:
    """The CPU seconds a running process's threads have used so far (the scheduler's
    nanoseconds in /proc, since the clock ticks of /proc/PID/stat are too coarse for a race of
    milliseconds); None where /proc cannot say."""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
        total = 0
        for task in tasks:
            with open(f"/proc/{pid}/task/{task}/schedstat", encoding="ascii") as handle:
                total += int(handle.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None
    return total / 1e9


class PortfolioBackend(Backend):
    """A race of member backends in child processes (a warm fork of each member's solver
    process per race): the first answer the verifier accepts wins and the others are killed.

    Raises:
        BackendOptionError: for no members, an unknown member, a member that is itself a
            portfolio, or a member named twice.
    """

    name = "portfolio"
    guarantees_lexmin = True  # lex-min answers come only from members that guarantee it
    lexmin_reason = (
        "in lexmin mode only the members that guarantee the lex-min race, so the winner's "
        "answer is the lex-min by that member's own argument"
    )
    description = (
        "a race of backends in child processes (members=dfs+sat+cpsat): the first answer "
        "the verifier accepts wins, the others are killed"
    )
    options: ClassVar[tuple[BackendOption, ...]] = (
        BackendOption(
            "members",
            f"the backends that race, joined by '{SEPARATOR}', each with its default options; "
            "in lexmin mode only those that guarantee the lex-min",
            DEFAULT_MEMBERS,
            parse=parse_members,
        ),
    )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.members: tuple[str, ...] = tuple(self.option_values["members"].split(SEPARATOR))
        self.processes: dict[str, _Member] = {}

    def racers(self, mode: Mode) -> list[_Member]:
        """The members that race in `mode` (their processes not started yet).

        Raises:
            BackendOptionError: in lexmin mode, when no member guarantees the lex-min.
        """
        from . import backend_class

        names = [
            name
            for name in self.members
            if mode is not Mode.LEXMIN or backend_class(name).guarantees_lexmin
        ]
        if not names:
            raise BackendOptionError(
                f"portfolio: no member of {SEPARATOR.join(self.members)} guarantees the lex-min"
            )
        return [
            self.processes.get(name) or self.processes.setdefault(name, _Member(name))
            for name in names
        ]

    def prepare(self, grid: Grid) -> bool:
        return self.prepare_for(grid, Mode.LEXMIN)

    def prepare_for(self, grid: Grid, mode: Mode | str) -> bool:
        """Have every racing member whose solver process never built this shape build it, all
        at once, and fork it a warm worker: the one-off set-up."""
        shape = (grid.size, grid.box)
        new = [member for member in self.racers(Mode(mode)) if shape not in member.zygote.built]
        for member in new:
            member.ready(shape, wait=False)
        for member in new:  # the solver processes build side by side
            member.ready(shape)
        return bool(new)

    def _solve(self, grid: Grid, *, mode: Mode, limit: int, deadline: Deadline) -> Outcome:
        shape = (grid.size, grid.box)
        race = _Race(grid, mode, limit, deadline)
        try:
            for member in self.racers(mode):
                race.add(member, shape)
            while race.winner is None and race.listening:
                wait = (
                    None if deadline.at is None else deadline.at + solver_process.KILL_GRACE_SECONDS
                )
                left = None if wait is None else wait - time.perf_counter()
                if left is not None and left <= 0:
                    break
                ready, _, _ = select.select(list(race.listening), [], [], left)
                if not ready:
                    break  # the deadline and its grace are over
                for channel in ready:
                    race.hear(race.listening.pop(channel))
                    if race.winner is not None:
                        break
        finally:
            race.stop_the_rest()
        return race.outcome(self.members)

    def close(self) -> None:
        for member in self.processes.values():
            member.stop()
        self.processes.clear()


class _Member:
    """One member: its solver process, which builds the shapes and forks workers, and the
    worker that races (killed when it loses, and forked again at once, warm)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.zygote = SolverProcess(name, {}, forks=True)  # the solver process that forks
        self.worker: solver_process.ForkedWorker | None = None
        self.forking: socket.socket | None = None  # a fork asked for, its id not read yet
        self.building: tuple[int, Shape] | None = None  # a build sent, its answer not read yet
        self.solving = False
        self.dying: list[solver_process.ForkedWorker] = []  # killed, maybe not gone yet

    def pid(self) -> int | None:
        return None if self.worker is None else self.worker.pid

    def ready(self, shape: tuple[int, Shape], *, wait: bool = True) -> None:
        """Make sure a worker with the shape's model is waiting: the solver process started
        and the shape built if need be (the worker forked anew after a build). With `wait`
        false, only send the build, if one is needed.

        Raises:
            BackendFailure: when the solver process or its worker fails.
        """
        self.bury()
        if not self.zygote.alive():
            self.drop_worker()
            self.forking = self.building = None
            self.zygote.start()
        if shape not in self.zygote.shapes and self.building is None:
            self.take_fork()  # the solver process answers in order
            self.zygote.send(("build", self.name, self.zygote.options, *shape))
            self.building = shape
        if not wait:
            return
        if self.building is not None:
            self.zygote.receive()
            self.zygote.shapes.add(self.building)
            self.zygote.built.add(self.building)
            self.building = None
            self.drop_worker()  # forked before the build: it lacks the shape
        self.take_fork()
        if self.worker is None:
            self.forking = self.zygote.fork()
            self.take_fork()

    def take_fork(self) -> None:
        """Read the worker a fork asked for, if one was asked for."""
        if self.forking is not None:
            channel, self.forking = self.forking, None
            self.worker = self.zygote.forked(channel)

    def replace_worker(self) -> None:
        """Kill the worker now and ask for a new one (read before the next race)."""
        self.drop_worker()
        if self.zygote.alive():
            with contextlib.suppress(BackendFailure):  # the next `ready` starts a new process
                self.forking = self.zygote.fork()

    def drop_worker(self) -> None:
        """Kill the worker now (`bury` makes sure it is gone)."""
        worker, self.worker, self.solving = self.worker, None, False
        if worker is not None:
            worker.stop()
            self.dying.append(worker)

    def bury(self) -> None:
        """Wait for the workers killed so far to be gone: the next race's start, long after
        the kill, rather than the kill itself (a few milliseconds of the winner's time)."""
        for worker in self.dying:
            worker.wait_gone()
        self.dying.clear()

    def stop(self) -> None:
        self.drop_worker()
        self.bury()
        if self.forking is not None:
            self.forking.close()
            self.forking = None
        self.zygote.stop()  # its process group: a worker being forked goes with it


class _Race:
    """One puzzle's race: who is listened to, what each member answered, and who won."""

    def __init__(self, grid: Grid, mode: Mode, limit: int, deadline: Deadline) -> None:
        self.grid, self.mode, self.limit, self.deadline = grid, mode, limit, deadline
        self.listening: dict[Any, _Member] = {}  # answer pipe -> member
        self.members: list[_Member] = []
        self.cpu_at_start: dict[str, float | None] = {}
        self.winner: str | None = None
        self.answer: Outcome | None = None
        self.raced: list[str] = []
        self.rejected: dict[str, str] = {}
        self.timeouts: dict[str, Outcome] = {}
        self.reported_cpu: dict[str, float] = {}
        self.stopped: dict[str, float | None] = {}  # the members killed: their CPU at the kill
        self.broken: list[_Member] = []  # members whose worker failed

    def add(self, member: _Member, shape: tuple[int, Shape]) -> None:
        """Give a member the puzzle (its worker forked, and the shape built, if need be)."""
        self.members.append(member)
        try:
            member.ready(shape)
            assert member.worker is not None
            self.cpu_at_start[member.name] = _cpu_seconds(member.worker.pid)
            request = (self.grid.values, self.grid.box, self.mode.value, self.limit)
            member.worker.send(
                ("solve", member.name, member.zygote.options, *request, self.deadline.remaining())
            )
        except BackendFailure as error:
            self.rejected[member.name] = str(error)
            self.broken.append(member)
            return
        member.solving = True
        self.raced.append(member.name)
        self.listening[member.worker.answers()] = member

    def hear(self, member: _Member) -> None:
        """Read a member's answer: the winner's, a timeout, or one set aside with the reason."""
        assert member.worker is not None
        member.solving = False
        try:
            status, values, count, stats, reason = member.worker.receive()
        except BackendFailure as error:
            self.rejected[member.name] = str(error)
            self.broken.append(member)
            return
        stats = dict(stats)
        self.reported_cpu[member.name] = float(stats.pop("helper_cpu_seconds", 0.0))
        outcome = Outcome(Status(status), values, count, stats, reason)
        if outcome.status is Status.TIMEOUT:
            self.timeouts[member.name] = outcome
            return
        refused = self.refusal(member.name, outcome)
        if refused is not None:
            self.rejected[member.name] = refused
            return
        self.winner, self.answer = member.name, outcome

    def refusal(self, name: str, outcome: Outcome) -> str | None:
        """Why the verifier refuses a member's answer, or None when it accepts it."""
        from ..verify import check_result

        counting = self.mode is Mode.COUNT
        result = SolveResult(
            backend=name,
            mode=self.mode,
            status=outcome.status,
            solution=None if outcome.values is None else Grid(tuple(outcome.values), self.grid.box),
            count=outcome.count if counting else None,
            limit=self.limit if counting else None,
        )
        return check_result(self.grid, result)

    def stop_the_rest(self) -> None:
        """Kill the workers still solving the puzzle, now, and ask for new ones at once (a
        fork of the member's solver process: warm, in milliseconds); replace broken ones."""
        for member in self.members:
            if member.solving:
                pid = member.pid()
                self.stopped[member.name] = None if pid is None else _cpu_seconds(pid)
                member.replace_worker()
            elif member in self.broken:
                member.replace_worker()

    def cpu_seconds(self) -> float:
        """The members' CPU seconds in the race: what /proc says each child used, else what
        the child reported for its solve."""
        total = 0.0
        for member in self.members:
            before = self.cpu_at_start[member.name]
            if member.name in self.stopped:
                after = self.stopped[member.name]
            else:
                pid = member.pid()
                after = None if pid is None else _cpu_seconds(pid)
            if before is not None and after is not None and after >= before:
                total += after - before
            else:
                total += self.reported_cpu.get(member.name, 0.0)
        return total

    def outcome(self, members: tuple[str, ...]) -> Outcome:
        """The portfolio's answer: the winner's, else a timeout, else a failure naming why
        each member gave none.

        Raises:
            BackendFailure: when every member failed or gave an answer the verifier refused.
        """
        portfolio: dict[str, Any] = {
            "members": SEPARATOR.join(members),
            "raced": SEPARATOR.join(self.raced),
            "helper_cpu_seconds": self.cpu_seconds(),
        }
        if self.stopped:
            portfolio["stopped"] = SEPARATOR.join(self.stopped)
        if self.rejected:
            portfolio["rejected"] = "; ".join(
                f"{name}: {reason}" for name, reason in self.rejected.items()
            )
        if self.answer is not None:
            answer = self.answer
            answer.stats = {**answer.stats, **portfolio, "member": self.winner}
            return answer
        if self.rejected and not (self.timeouts or self.stopped or self.deadline.expired()):
            raise BackendFailure(f"no member's answer was accepted: {portfolio['rejected']}")
        counts = [o.count for o in self.timeouts.values() if o.count is not None]
        return Outcome.timeout(self.deadline, count=max(counts, default=None), stats=portfolio)
