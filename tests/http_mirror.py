"""A real HTTP server on 127.0.0.1 that stands in for GitHub in the dataset tests.

`Mirror` serves bodies at GitHub's raw paths (/OWNER/REPO/COMMIT/PATH), so pointing
`SUDOKU_CP_DATA_URL` (or `DataConfig.mirror`) at `mirror.url` sends pooch's real HTTP requests
here. It counts the requests per path, and can cut the connection mid-body (the Content-Length
still announces the whole file) to play an interrupted download.

../shared/data holds normalised files, not upstream ones, but for five sets the upstream bytes are
the normalised file itself or that file with `.` for `0`: `rebuilt_upstream` tries both and keeps
a candidate only when it has the pinned upstream sha256, so what is served is upstream, byte for
byte. `puzzle_set_path(name)` is the helper for tests that need a public set: through the mirror
when the set can be rebuilt, else ../shared/data as SUDOKU_CP_DATA (hash-checked), else the
developer's own SUDOKU_CP_DATA or cache (never the internet); it skips when none has the set.
"""

from __future__ import annotations

import atexit
import collections
import hashlib
import shutil
import tempfile
import threading
from collections.abc import Callable, Iterator, Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from urllib.parse import urlsplit

import pytest

from sudoku_cp import datasets
from sudoku_cp.datasets import DataConfig, DataSet, DataSetError

SHARED_DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"


class Mirror:
    """An HTTP server in a daemon thread, bound to a free port on 127.0.0.1."""

    def __init__(self, files: Mapping[str, bytes] | None = None) -> None:
        self.files: dict[str, bytes] = dict(files or {})  # URL path -> body
        self.cuts: dict[str, int] = {}  # URL path -> next requests to cut
        self.requests: collections.Counter[str] = collections.Counter()
        self._lock = threading.Lock()
        mirror = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (the http.server API)
                path = urlsplit(self.path).path
                with mirror._lock:
                    mirror.requests[path] += 1
                    body = mirror.files.get(path)
                    cut = mirror.cuts.get(path, 0) > 0
                    if cut:
                        mirror.cuts[path] -= 1
                if body is None:
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/plain")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body[: len(body) // 2] if cut else body)
                self.wfile.flush()
                self.close_connection = True

            def log_message(self, format: str, *args: object) -> None:  # noqa: A002
                pass  # keep test output clean

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        # A short poll interval: shutdown() waits for it, once per test.
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.02,), daemon=True)
        self.thread.start()

    def serve(self, dataset: DataSet, body: bytes) -> None:
        """Serve `body` where the set's upstream file is, at GitHub's path."""
        self.files[path_of(dataset)] = body

    def cut(self, dataset: DataSet, times: int = 1) -> None:
        """Send only half of the set's body, then close, on the next `times` requests."""
        self.cuts[path_of(dataset)] = times

    def requests_for(self, dataset: DataSet) -> int:
        return self.requests[path_of(dataset)]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)

    def __enter__(self) -> Mirror:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


def path_of(dataset: DataSet) -> str:
    return urlsplit(dataset.url).path


def rebuilt_upstream(dataset: DataSet, folder: Path = SHARED_DATA) -> bytes | None:
    """The set's exact upstream bytes rebuilt from its normalised file in `folder`, or None."""
    normalised = folder / dataset.file
    if not normalised.is_file():
        return None
    data = normalised.read_bytes()
    for candidate in (data, data.replace(b"0", b".")):
        if hashlib.sha256(candidate).hexdigest() == dataset.upstream_sha256:
            return candidate
    return None


# -- a public set for any test -----------------------------------------------------------------


class _Sets:
    """One mirror and one temporary cache for the whole test session, started on first use."""

    def __init__(self) -> None:
        self.mirror: Mirror | None = None
        self.cache: Path | None = None

    def path(self, name: str) -> Path:
        dataset = datasets.get(name)
        if SHARED_DATA.is_dir():
            body = rebuilt_upstream(dataset)
            if body is not None:
                mirror, cache = self._started()
                mirror.serve(dataset, body)
                return datasets.fetch(dataset, config=DataConfig(cache=cache, mirror=mirror.url))
            if (SHARED_DATA / dataset.file).is_file():
                return datasets.fetch(
                    dataset,
                    config=DataConfig(local=SHARED_DATA, cache=self._started()[1], download=False),
                )
        try:  # no ../shared: the developer's SUDOKU_CP_DATA or cache, never the internet
            return datasets.fetch(dataset, download=False)
        except DataSetError as error:
            pytest.skip(str(error))

    def _started(self) -> tuple[Mirror, Path]:
        if self.mirror is None or self.cache is None:
            self.mirror = Mirror()
            self.cache = Path(tempfile.mkdtemp(prefix="sudoku-cp-test-cache-"))
            atexit.register(self.close)
        return self.mirror, self.cache

    def close(self) -> None:
        if self.mirror is not None:
            self.mirror.close()
        if self.cache is not None:
            shutil.rmtree(self.cache, ignore_errors=True)
        self.mirror = self.cache = None


_SETS = _Sets()


def puzzle_set_path(name: str) -> Path:
    """The verified file of a public set (see the module docstring); skips the test without it."""
    return _SETS.path(name)


@pytest.fixture(scope="session")
def puzzle_set() -> Iterator[Callable[[str], Path]]:
    """`puzzle_set("serg_benchmark")` -> the verified file, or the test is skipped."""
    yield puzzle_set_path
    _SETS.close()
