"""The Dask executor's own cluster (`executors.dask_cluster`): a local cluster on loopback only,
its workers quiet and deaf to Ctrl-C, a TLS scheduler reached with the user's configuration, and
the one-line errors for a scheduler out of reach and a missing extra."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from sudoku_cp.cli import main
from sudoku_cp.configurations import Configuration
from sudoku_cp.engine import SolveJob, execute
from sudoku_cp.errors import ExecutorError
from sudoku_cp.executors import dask_cluster
from sudoku_cp.executors.dask import INSTALL_HINT, DaskExecutor
from sudoku_cp.judging import SolveSettings

from ..conftest import G17
from .dask_helpers import puzzle_lines, records_of, verdicts, wait_until

distributed = pytest.importorskip("distributed")  # the `test` extra installs it: CI runs these


def test_a_local_cluster_listens_on_loopback_only_and_is_closed_after_the_run():
    psutil = pytest.importorskip("psutil")
    executor = DaskExecutor(jobs=1)
    dask_client = executor.start()
    try:
        workers = list(dask_client.run(os.getpid).values())
        assert executor.cluster.scheduler_address.startswith("tcp://127.0.0.1:")
        assert executor.cluster.dashboard_link.startswith("http://127.0.0.1:")
        me = psutil.Process()
        listening = [
            connection.laddr.ip
            for process in (me, *me.children(recursive=True))
            for connection in process.net_connections(kind="inet")
            if connection.status == psutil.CONN_LISTEN
        ]
        assert len(listening) >= 4  # scheduler, dashboard, nanny, worker (and its http server)
        assert set(listening) == {"127.0.0.1"}
        runs = list(
            executor.map(
                records_of(puzzle_lines(2, seed=8)),
                SolveJob([Configuration("dfs")], SolveSettings()),
            )
        )
        assert [run.input.index for run in runs] == [0, 1]
    finally:
        executor.close()
    assert executor.client is None and executor.cluster is None
    assert wait_until(lambda: not any(psutil.pid_exists(pid) for pid in workers))


def _distributed_level() -> int:
    return logging.getLogger("distributed").getEffectiveLevel()


def test_the_local_clusters_workers_keep_dasks_info_lines_to_themselves():
    """A worker writes to the user's terminal directly, after the command's one line too: its
    INFO lines ('Received 'close-stream'... closing') showed after an interrupt (issue 24.5)."""
    executor = DaskExecutor(jobs=1)
    try:
        levels = executor.start().run(_distributed_level)
    finally:
        executor.close()
    assert set(levels.values()) == {logging.WARNING}


FORK_SERVER_MASK = """
from multiprocessing import forkserver
from sudoku_cp.executors.dask import DaskExecutor

if __name__ == "__main__":
    executor = DaskExecutor(jobs=1)
    executor.start()
    pid = forkserver._forkserver._forkserver_pid
    status = open(f"/proc/{pid}/status").read().splitlines()
    print(next(line.split()[1] for line in status if line.startswith("SigBlk")))
    executor.close()
"""


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux's /proc")
def test_the_fork_server_starts_with_ctrl_c_held(tmp_path):
    """A Ctrl-C while the fork server imports its modules, before it ignores SIGINT, printed a
    KeyboardInterrupt traceback (issue 24.5): it starts with SIGINT blocked, from its first
    instruction. Seen from its signal mask (SigBlk), in a fresh process of its own."""
    script = tmp_path / "mask.py"
    script.write_text(FORK_SERVER_MASK)
    shown = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120
    )
    assert shown.returncode == 0, shown.stderr
    assert int(shown.stdout.split()[-1], 16) & (1 << (signal.SIGINT - 1))


def test_a_tls_scheduler_with_the_users_dask_security_configuration():
    pytest.importorskip("cryptography")  # Security.temporary() makes its certificates with it
    import dask

    security = distributed.Security.temporary()
    with distributed.LocalCluster(
        n_workers=1,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        protocol="tls://",
        security=security,
        dashboard_address=None,
    ) as secure:
        address = secure.scheduler_address
        assert address.startswith("tls://127.0.0.1:")
        lines = puzzle_lines(3, seed=12)
        # What a user's ~/.config/dask/distributed.yaml would hold (PEM text or file names).
        with dask.config.set(
            {
                "distributed.comm.require-encryption": True,
                "distributed.comm.tls.ca-file": security.tls_ca_file,
                "distributed.comm.tls.client.cert": security.tls_client_cert,
                "distributed.comm.tls.client.key": security.tls_client_key,
            }
        ):
            dask_result = verdicts(
                execute(
                    records_of(lines),
                    [Configuration("dfs")],
                    SolveSettings(),
                    executor=DaskExecutor(scheduler=address),
                )
            )
        assert dask_result == verdicts(
            execute(records_of(lines), [Configuration("dfs")], SolveSettings())
        )


def test_an_unreachable_scheduler_is_one_line(monkeypatch):
    monkeypatch.setattr(dask_cluster, "CONNECT_TIMEOUT", 0.5)
    executor = DaskExecutor(scheduler="tcp://127.0.0.1:9")
    with pytest.raises(
        ExecutorError,
        match=r"^cannot reach the Dask scheduler at "
        r"tcp://127\.0\.0\.1:9: .*",
    ):
        list(
            executor.map(
                records_of(puzzle_lines(1)), SolveJob([Configuration("dfs")], SolveSettings())
            )
        )


@pytest.mark.parametrize(
    ("address", "why"),
    [
        ("nonsense://x", "unknown address scheme 'nonsense'"),
        ("tcp://[::1", "invalid address '[::1'"),
    ],
)
def test_a_malformed_scheduler_address_is_one_line_at_once(tmp_path, address, why):
    # Such an address left a half-made Client whose clean-up at exit waited 20 s and printed
    # a 'Client.__del__' traceback after the error line.
    puzzles = tmp_path / "p.txt"
    puzzles.write_text(G17 + "\n")
    process = subprocess.run(
        [sys.executable, "-m", "sudoku_cp", "crosscheck", str(puzzles), "-b", "dfs"]
        + ["--executor", "dask", "--scheduler", address],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert process.returncode == 2
    assert process.stderr.startswith(f"Error: not a Dask scheduler address: {address}: {why}")
    assert len(process.stderr.splitlines()) == 1, process.stderr


def test_without_the_extra_the_cli_says_how_to_install_it(monkeypatch, tmp_path):
    puzzles = tmp_path / "p.txt"
    puzzles.write_text(G17 + "\n")
    monkeypatch.setitem(__import__("sys").modules, "distributed", None)  # import fails
    with pytest.raises(ExecutorError, match=r"pip install '\.\[dask\]' from a sudoku-cp checkout"):
        DaskExecutor()
    result = CliRunner().invoke(
        main, ["crosscheck", str(puzzles), "-b", "dfs", "--executor", "dask"]
    )
    assert result.exit_code == 2
    assert result.stderr.strip() == f"Error: {INSTALL_HINT}"
