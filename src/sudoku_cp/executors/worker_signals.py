"""Imported first by the local Dask cluster's fork server (`dask_cluster.workers_ignore_ctrl_c`).

- The fork server, and every worker process it forks, ignore Ctrl-C: the command stops them.
- Dask's own logging in them starts at WARNING (the fork server imports `distributed` next,
  which reads the level from the environment): a worker's INFO lines ('Received
  'close-stream'... closing', 'Stopping worker') would reach the user's terminal directly,
  even after the command's one line, since a worker keeps the terminal as its stderr.
- An exception that escapes the fork server's own plumbing (a worker forked while the command
  exits finds its start-up semaphore gone) is not printed: the only reader of that stderr is
  the user's terminal, after the command's one line. While the command runs, a worker that
  cannot start is reported by its nanny, in the command's process.
"""

import os
import signal
import sys
from types import TracebackType


def _quiet(
    kind: type[BaseException], error: BaseException, traceback: TracebackType | None
) -> None:
    """Say nothing (see the module docstring)."""


signal.signal(signal.SIGINT, signal.SIG_IGN)
sys.excepthook = _quiet
# Only where no level was chosen: a user's DASK_LOGGING__DISTRIBUTED still wins.
os.environ.setdefault("DASK_LOGGING__DISTRIBUTED", "warning")
