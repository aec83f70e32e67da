"""The Dask cluster under the `dask` executor: reached by address or started here, and let go.

- `connect(distributed, address)`: a client of a running scheduler (`tcp://host:8786`,
  `tls://host:8786`), with the user's Dask configuration (`distributed.comm.tls.*` gives a
  `tls://` address its certificates).
- `start_local_cluster(distributed, jobs)`: a `LocalCluster` of `jobs` single-threaded worker
  processes listening on 127.0.0.1 only (scheduler, workers, nannies and dashboard), its
  housekeeping cut down for one run of CPU-bound tasks (`cluster_config`), its workers deaf to
  Ctrl-C (the command stops them), and its client.
- `QuietClusterLogs`, `QuietSchedulerLoss`: Dask's life-cycle chatter and its lines about a lost
  scheduler kept out of the user's terminal, where the run says what matters in one line.
- `close_client`, `wait_idle`, `quietly`: clean-up steps that hold on a cluster already gone.

`import_distributed()` gives the `distributed` module, or `ExecutorError` with the install hint.
"""

from __future__ import annotations

import logging
import signal
import time
from collections.abc import Callable
from typing import Any

from ..errors import ExecutorError
from ..text import one_line

LOGGER = logging.getLogger(__name__)

INSTALL_HINT = (
    "--executor dask needs the dask extra: pip install '.[dask]' from a sudoku-cp checkout "
    "(or pip install 'dask[distributed]')"
)
CONNECT_TIMEOUT = 10.0  # seconds to reach a scheduler given by address


def import_distributed() -> Any:
    """The `distributed` module.

    Raises:
        ExecutorError: with the one-line install hint, when it is not installed.
    """
    try:
        import distributed
    except ImportError as error:
        raise ExecutorError(INSTALL_HINT) from error
    return distributed


def connect(distributed: Any, address: str) -> Any:
    """A client of the scheduler at `address`.

    Raises:
        ExecutorError: `address` is not a Dask address, or the scheduler cannot be reached
            within `CONNECT_TIMEOUT` seconds.
    """
    try:
        # Checked before a Client exists: a Client whose start fails on a malformed address is
        # left half-made to the garbage collector, whose close waits twice the timeout and
        # then prints a traceback.
        distributed.comm.get_address_host(address)
    except ValueError as error:
        raise ExecutorError(
            f"not a Dask scheduler address: {address}: {one_line(error)}"
        ) from error
    try:
        # Security comes from the Dask configuration (distributed.comm.tls.*), which is how
        # tls:// addresses get their certificates.
        return distributed.Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as error:
        raise ExecutorError(
            f"cannot reach the Dask scheduler at {address}: {one_line(error)}"
        ) from error


def start_local_cluster(distributed: Any, jobs: int) -> tuple[Any, Any]:
    """A new local cluster of `jobs` worker processes, and its client.

    Raises:
        ExecutorError: the cluster could not be started (what did start is stopped).
    """
    cluster = None
    try:
        # Loopback only: the scheduler, workers, nannies and dashboard accept no outside
        # connection (a Dask scheduler runs whatever code it is sent).
        with cluster_config():
            workers_ignore_ctrl_c(distributed)
            cluster = distributed.LocalCluster(
                n_workers=jobs,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address="127.0.0.1:0",
                worker_dashboard_address="127.0.0.1:0",
            )
            client = distributed.Client(cluster, set_as_default=False)
    except (OSError, TimeoutError, RuntimeError) as error:
        if cluster is not None:
            quietly(cluster.close)
        raise ExecutorError(f"cannot start a local Dask cluster: {one_line(error)}") from error
    LOGGER.info(
        "local Dask cluster at %s, dashboard %s", cluster.scheduler_address, cluster.dashboard_link
    )
    return cluster, client


def cluster_config() -> Any:
    """The Dask settings our local cluster starts with (its nannies hand them to the workers).

    The cluster serves one run of CPU-bound tasks on this machine, so its housekeeping is cut
    down (how much that saves: docs/decisions.md, the Dask section):
    - the statistical profiler is off: it samples the running task's stack, taking the GIL
      from the solver each time, and only feeds the dashboard's profile page;
    - the event loops' health tick runs every second (it only times the "event loop was
      unresponsive" warning);
    - no work stealing: tasks are queued on the scheduler and go to a worker when it has a free
      thread, so there is nothing to rebalance;
    - the memory and system monitors look every second or two;
    - workers are forked from a fork server (see `workers_ignore_ctrl_c`), which also starts
      them faster than a fresh interpreter each.
    """
    import dask.config

    return dask.config.set(
        {
            "distributed.worker.profile.enabled": False,
            "distributed.admin.tick.interval": "1s",
            "distributed.scheduler.work-stealing": False,
            "distributed.worker.memory.monitor-interval": "1s",
            "distributed.admin.system-monitor.interval": "2s",
            "distributed.worker.multiprocessing-method": "forkserver",
        }
    )


def workers_ignore_ctrl_c(distributed: Any) -> None:
    """Have the local cluster's worker processes ignore SIGINT from their first instruction.

    A terminal's Ctrl-C goes to every process of its group: a worker that received it would
    print a KeyboardInterrupt traceback from wherever it was (importing Dask takes a second),
    while the command itself stops the cluster anyway. The workers are forked from a fork
    server (`cluster_config`) that imports `worker_signals` first, which ignores SIGINT; the
    fork server passes the handlers it started with to every worker it forks, restarted
    workers included. Signal masks would not do: a spawned child starts with none blocked.
    """
    context = distributed.utils.get_mp_context()  # sets Dask's own preload list, once
    if context.get_start_method() == "forkserver":
        context.set_forkserver_preload([f"{__package__}.worker_signals", "distributed"])
        _start_fork_server_with_ctrl_c_held()


def _start_fork_server_with_ctrl_c_held() -> None:
    """Start the fork server with SIGINT blocked in this thread, so that it starts with SIGINT
    blocked too (a signal mask survives exec): a Ctrl-C while it imports its own modules,
    before `worker_signals` runs, would print a KeyboardInterrupt traceback. A Ctrl-C meant for
    the command meanwhile is held, not lost: it is delivered when the mask is restored. The
    resource tracker is started first: its own start unblocks SIGINT in this thread when it is
    done."""
    from multiprocessing import forkserver, resource_tracker

    resource_tracker.ensure_running()
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        forkserver.ensure_running()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


class QuietClusterLogs:
    """Keeps the local cluster's life-cycle chatter (INFO: workers started, keys cancelled) out
    of the user's terminal while it runs; its warnings and errors still show."""

    def __init__(self) -> None:
        self.level: int | None = None  # the distributed logger's own level before `hold`

    def hold(self) -> None:
        logger = logging.getLogger("distributed")
        if self.level is None and logger.getEffectiveLevel() < logging.WARNING:
            self.level = logger.level
            logger.setLevel(logging.WARNING)

    def restore(self) -> None:
        if self.level is not None:
            logging.getLogger("distributed").setLevel(self.level)
            self.level = None


class QuietSchedulerLoss(logging.Filter):
    """Drops Dask's own lines about a lost scheduler: the run reports it in one line."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith("Failed to reconnect to scheduler")


def close_client(client: Any) -> None:
    """Close a client; one that lost its scheduler logs the traceback of its cancelled
    reconnection attempt, which says nothing the run's one line does not."""
    lost = getattr(client, "status", "running") != "running"
    disabled = logging.root.manager.disable
    if lost:
        logging.disable(logging.CRITICAL)
    try:
        quietly(client.close)
    finally:
        if lost:
            logging.disable(disabled)


def _executing(dask_worker: Any) -> int:
    """How many tasks a worker is running (run on each worker by `Client.run`)."""
    return int(dask_worker.state.executing_count)


def wait_idle(client: Any, timeout: float) -> None:
    """Wait until no worker runs a task, `timeout` seconds at most."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if not any(client.run(_executing).values()):
                return
        except Exception:  # the cluster is going anyway
            return
        time.sleep(0.05)


def quietly(action: Callable[[], Any]) -> None:
    """Run a clean-up step that may fail on a cluster already gone."""
    try:
        action()
    except Exception as error:
        LOGGER.debug("Dask clean-up step failed: %r", error)


__all__ = [
    "CONNECT_TIMEOUT",
    "INSTALL_HINT",
    "QuietClusterLogs",
    "QuietSchedulerLoss",
    "close_client",
    "cluster_config",
    "connect",
    "import_distributed",
    "quietly",
    "start_local_cluster",
    "wait_idle",
    "workers_ignore_ctrl_c",
]
