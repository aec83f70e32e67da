"""The solver process: a backend's solver run in a child interpreter that can be killed.

For a native solver that cannot be stopped in time or that takes over the process's signals
(Exact; Z3 too, by default): `SolverProcess` sends each puzzle to a child, and a child that has
not answered `KILL_GRACE_SECONDS` after the puzzle's deadline is killed (TIMEOUT). The option
that chooses it is `process=helper` (`process_option`); `process=inline` solves in this process.

The child is `python -m sudoku_cp.backends.solver_process`, started in `prepare()` (outside the
clock; after a kill, by the next puzzle on its own clock) in a session of its own, so a
terminal's Ctrl-C reaches only the parent. It reads pickled requests on stdin and writes pickled
answers on stdout:

    ("register", backend name, (module, class))       -> ("ok", None)
    ("build", backend name, options, size, box)       -> ("ok", setup seconds)
    ("solve", name, options, values, box, mode, limit, time limit) -> ("ok", result fields)
    ("fork", name, options), a socket sent alongside   -> ("ok", the worker's process id)

and it solves with the in-process backend of that name (options plus `process="inline"` for a
backend that declares it). The `portfolio` backend runs each member in such a child. It
exits when its stdin closes (the parent closed it, or died), and silently when its answer finds
the parent gone. The child's CPU seconds for a solve come back in the stats as
`helper_cpu_seconds`, which the engine adds to the parent's CPU time.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import select
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Mapping
from typing import IO, Any, BinaryIO

from ..errors import BackendFailure
from ..grid import Grid, Shape
from ..result import Mode, Status
from .base import BackendOption, Deadline, Outcome, TimeUp

# How long past the deadline a child may take to answer before it is killed: its own time limit
# is the time left, so a prompt solver answers TIMEOUT by itself first.
KILL_GRACE_SECONDS = 0.25
PROCESSES = ("helper", "inline")
WORKER_END_SECONDS = 1.0  # how long a killed worker may take to be gone


def process_option(why: str) -> BackendOption:
    """The `process` option of a backend that can run its solver in a solver process (value
    `helper`, the default) or inline; `why` says what the solver process guards against."""
    return BackendOption(
        "process",
        f"helper: the solver runs in a child process, killed {KILL_GRACE_SECONDS:g} s after "
        f"the deadline ({why}); inline: in this process, without that guarantee",
        "helper",
        choices=PROCESSES,
    )


class SolverProcess:
    """One child process serving one backend's puzzles."""

    def __init__(self, name: str, options: Mapping[str, Any], *, forks: bool = False) -> None:
        from . import backend_class

        self.name = name
        self.forks = forks  # whether the child forks workers (`fork`)
        self.fd_channel: socket.socket | None = None  # hands the child a worker's socket
        # The child solves in its own process: a backend that could run a helper of its own
        # (`process=helper`) is told not to, so that killing the child kills its solver.
        inline = {"process": "inline"} if backend_class(name).option("process") else {}
        self.options = {**options, **inline}
        self.process: subprocess.Popen[bytes] | None = None
        self.shapes: set[tuple[int, Shape]] = set()  # shapes whose model the child has built
        self.built: set[tuple[int, Shape]] = set()  # shapes some child has built, ever

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def start(self) -> None:
        """Start the child (an interpreter importing this module)."""
        self.stop()
        command = [sys.executable, "-m", "sudoku_cp.backends.solver_process"]
        theirs = None
        if self.forks:
            self.fd_channel, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
            command += ["--forks", str(theirs.fileno())]
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            start_new_session=True,  # no terminal Ctrl-C: the parent decides
            pass_fds=() if theirs is None else (theirs.fileno(),),
        )
        if theirs is not None:
            theirs.close()
        self.shapes = set()
        from . import BUILTIN_BACKENDS, registry_entry

        if self.name not in BUILTIN_BACKENDS:  # one registered by hand (a test's) or a plugin
            self._ask(("register", self.name, registry_entry(self.name)), None)

    def stop(self) -> None:
        """Kill the child, if there is one (it holds no state worth keeping)."""
        process, self.process = self.process, None
        if self.fd_channel is not None:
            self.fd_channel.close()
            self.fd_channel = None
        if process is not None:
            for stream in (process.stdin, process.stdout):
                if stream is not None:
                    stream.close()
            if process.poll() is None:
                # The child leads a session of its own: its whole process group goes with it.
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
            process.wait()

    def build(self, size: int, box: Shape, deadline: Deadline | None = None) -> None:
        """Have the child build the shape's model now (started first if it is not running):
        set-up, outside any clock, without a `deadline`; within it, with one.

        Raises:
            TimeUp: when the build has not ended `KILL_GRACE_SECONDS` after the deadline (the
                child is killed).
        """
        if not self.alive():
            self.start()
        if (size, box) not in self.shapes:
            try:
                self._ask(("build", self.name, self.options, size, box), deadline)
            except TimeUp:
                self.stop()
                raise
            self.shapes.add((size, box))
            self.built.add((size, box))

    def solve(self, grid: Grid, mode: Mode, limit: int, deadline: Deadline) -> Outcome:
        """The child's answer for one puzzle; TIMEOUT (and the child killed) when it has not
        answered `KILL_GRACE_SECONDS` after the deadline. A child killed at an earlier
        puzzle's deadline is restarted, and the shape's model rebuilt, on this puzzle's clock:
        a time limit bounds each puzzle's wall time."""
        try:
            self.build(grid.size, grid.box, deadline)
        except TimeUp:
            return Outcome.timeout(
                deadline, when="rebuilding the helper", stats={"helper": "killed"}
            )
        request = (
            "solve",
            self.name,
            self.options,
            grid.values,
            grid.box,
            mode.value,
            limit,
            deadline.remaining(),
        )
        try:
            status, values, count, stats, reason = self._ask(request, deadline)
        except TimeUp:
            self.stop()  # the next puzzle starts a new one, on its own clock
            return Outcome.timeout(deadline, when="helper killed", stats={"helper": "killed"})
        if status == Status.TIMEOUT.value:
            # worded by the puzzle's limit, not by the time left that the child was given
            return Outcome.timeout(deadline, count=count, stats=stats)
        return Outcome(Status(status), values, count, stats, reason)

    def _ask(self, request: tuple[Any, ...], deadline: Deadline | None) -> Any:
        self.send(request)
        if deadline is not None and deadline.at is not None:
            wait = deadline.at + KILL_GRACE_SECONDS - time.perf_counter()
            ready, _, _ = select.select([self.answers()], [], [], max(0.0, wait))
            if not ready:
                raise TimeUp
        return self.receive()

    def answers(self) -> IO[bytes]:
        """The pipe the child answers on (to wait for several children with `select`)."""
        assert self.process is not None and self.process.stdout is not None
        return self.process.stdout

    def send(self, request: tuple[Any, ...]) -> None:
        """Send the child a request, without waiting for its answer.

        Raises:
            BackendFailure: when the child is gone (it is stopped).
        """
        process = self.process
        assert process is not None and process.stdin is not None
        try:
            pickle.dump(request, process.stdin)
            process.stdin.flush()
        except OSError as error:
            self.stop()
            raise BackendFailure(f"the {self.name} helper process died: {error}") from error

    def receive(self) -> Any:
        """The child's answer to the request sent last (waiting for it).

        Raises:
            BackendFailure: when the child died or failed (it is stopped).
        """
        try:
            kind, answer = pickle.load(self.answers())
        except (OSError, EOFError, pickle.UnpicklingError) as error:
            self.stop()
            raise BackendFailure(f"the {self.name} helper process died: {error}") from error
        if kind != "ok":
            self.stop()
            raise BackendFailure(f"the {self.name} helper process failed: {answer}")
        return answer

    def fork(self) -> socket.socket:
        """Ask the child (started with `forks`) for a worker, without waiting: a fork of it,
        warm with every shape it has built, that answers on a socket of its own. `forked`
        reads its process id.

        Raises:
            BackendFailure: when the child is gone.
        """
        assert self.fd_channel is not None, "a SolverProcess made with forks=True"
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self.send(("fork", self.name, self.options))
            socket.send_fds(self.fd_channel, [b"w"], [theirs.fileno()])
        except OSError as error:
            mine.close()
            self.stop()
            raise BackendFailure(f"the {self.name} helper process died: {error}") from error
        finally:
            theirs.close()
        return mine

    def forked(self, channel: socket.socket) -> ForkedWorker:
        """The worker that `fork` asked for, on `channel` (its socket)."""
        try:
            pid = self.receive()
        except BackendFailure:
            channel.close()
            raise
        return ForkedWorker(self.name, pid, channel)


class ForkedWorker:
    """A fork of a solver process, answering one backend's puzzles on a socket: started in
    milliseconds, warm, and killed on its own (`stop`) while the solver process stays."""

    def __init__(self, name: str, pid: int, channel: socket.socket) -> None:
        self.name, self.pid, self.channel = name, pid, channel
        self.reader = channel.makefile("rb")
        self.writer = channel.makefile("wb")
        self.handle: int | None = None  # once stopped: a pidfd that says when it is gone

    def answers(self) -> socket.socket:
        return self.channel

    def send(self, request: tuple[Any, ...]) -> None:
        """Send a request (see the protocol above), without waiting.

        Raises:
            BackendFailure: when the worker is gone.
        """
        try:
            pickle.dump(request, self.writer)
            self.writer.flush()
        except OSError as error:
            raise BackendFailure(f"the {self.name} worker died: {error}") from error

    def receive(self) -> Any:
        """The worker's answer to the request sent last (waiting for it).

        Raises:
            BackendFailure: when the worker died or failed.
        """
        try:
            kind, answer = pickle.load(self.reader)
        except (OSError, EOFError, pickle.UnpicklingError) as error:
            raise BackendFailure(f"the {self.name} worker died: {error}") from error
        if kind != "ok":
            raise BackendFailure(f"the {self.name} worker failed: {answer}")
        return answer

    def stop(self) -> None:
        """Kill the worker now, without waiting for it to be gone (`wait_gone`): its solver
        process, which ignores its children's ends, lets the system reap it."""
        with contextlib.suppress(OSError):  # gone already, or no pidfd here
            self.handle = os.pidfd_open(self.pid)
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)
        for stream in (self.reader, self.writer, self.channel):
            with contextlib.suppress(OSError):
                stream.close()

    def wait_gone(self) -> None:
        """Wait until the stopped worker is gone, `WORKER_END_SECONDS` at most."""
        handle, self.handle = self.handle, None
        if handle is not None:
            select.select([handle], [], [], WORKER_END_SECONDS)  # readable once it has ended
            os.close(handle)


# -- the child ------------------------------------------------------------------------------------


class _Server:
    """The child: a backend per (name, options), kept across requests."""

    def __init__(self, forks: socket.socket | None) -> None:
        self.backends: dict[tuple[str, tuple[tuple[str, Any], ...]], Any] = {}
        self.forks = forks  # where a worker's socket comes from

    def serve(self, requests: BinaryIO, answers: BinaryIO) -> None:
        """Answer requests until the requests end."""
        while True:
            try:
                request = pickle.load(requests)
            except EOFError:
                return
            answer = self.answer(request, requests, answers)
            pickle.dump(answer, answers)
            answers.flush()

    def answer(self, request: tuple[Any, ...], requests: BinaryIO, answers: BinaryIO) -> Any:
        from . import backend_class, register_backend

        kind, name, options = request[:3]
        if kind == "register":  # a name this process's registry may not have: options = entry
            register_backend(name, *options)
            return ("ok", None)
        if kind == "fork":
            return ("ok", self.fork(requests, answers))
        key = (name, tuple(sorted(options.items())))
        try:
            backend = self.backends.get(key)
            if backend is None:
                backend = self.backends[key] = backend_class(name)(**options)
            if kind == "build":
                size, box = request[3:]
                started = time.perf_counter()
                backend.prepare(Grid.empty(size, box=box))
                return ("ok", time.perf_counter() - started)
            values, box, mode, limit, time_limit = request[3:]
            cpu = time.process_time()
            result = backend.solve(
                Grid.from_values(values, box=box), mode=mode, limit=limit, time_limit=time_limit
            )
            stats = {**result.stats, "helper_cpu_seconds": time.process_time() - cpu}
            values = None if result.solution is None else result.solution.values
            return ("ok", (result.status.value, values, result.count, stats, result.reason))
        except Exception as error:  # the parent reports it as a backend failure
            return ("error", f"{type(error).__name__}: {error}")

    def fork(self, requests: BinaryIO, answers: BinaryIO) -> int:
        """Fork a worker that serves the socket the parent sent; its process id. The worker
        never comes back here: it ends when its socket closes."""
        assert self.forks is not None
        _, descriptors, _, _ = socket.recv_fds(self.forks, 1, 1)
        parent = os.getpid()  # read before the fork: the child may run after this process died
        pid = os.fork()
        if pid:
            os.close(descriptors[0])
            return pid
        try:  # the worker
            _end_with_parent(parent)
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            for stream in (requests, answers, self.forks):
                stream.close()
            self.forks = None
            channel = socket.socket(fileno=descriptors[0])
            self.serve(channel.makefile("rb"), channel.makefile("wb"))
        finally:
            os._exit(0)


def _end_with_parent(parent: int) -> None:
    """Have the system kill this process when its parent (`parent`, the process id it had
    before the fork) ends (Linux's PR_SET_PDEATHSIG): a worker busy with a puzzle reads no
    request, so it would not see its solver process go. A parent gone before the request took
    effect (the child was scheduled late) ends the child here."""
    with contextlib.suppress(OSError, AttributeError):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # 1: PR_SET_PDEATHSIG
    if os.getppid() != parent:  # the parent ended before the request took effect
        os._exit(0)


def _serve(requests: BinaryIO, answers: BinaryIO, forks: socket.socket | None = None) -> None:
    """Answer requests until stdin closes."""
    if forks is not None:
        signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the system reaps the workers
    _Server(forks).serve(requests, answers)


if __name__ == "__main__":
    # The answers get the pipe to the parent to themselves: whatever the solver prints on file
    # descriptor 1 goes to stderr instead.
    channel = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    forks = None
    if sys.argv[1:2] == ["--forks"]:
        forks = socket.socket(fileno=int(sys.argv[2]))
    try:
        _serve(sys.stdin.buffer, channel, forks)
    except BrokenPipeError:
        # The parent is gone (killed, or stopped by a signal) with its end of the pipe: no one
        # is left to answer, and a traceback on the terminal it shared would say nothing.
        os._exit(0)
