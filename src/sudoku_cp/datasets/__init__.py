"""The public puzzle sets by name: a pinned registry, fetched once, verified, cached, offline.

Each set is pinned to one upstream file (repository, commit, path) by the sha256 of its bytes, and
to the sha256 of our normalised file (one puzzle per line, `0` for blank, `\\n` line ends). A set's
file is looked for, in order:

1. in the folder `SUDOKU_CP_DATA` names (normalised set files, one per set), hash-checked;
2. in the user cache (`platformdirs.user_cache_dir("sudoku-cp")`, or `SUDOKU_CP_CACHE`),
   hash-checked;
3. else the upstream file is downloaded by pooch (retries, a temporary file moved into place only
   when its sha256 matches), from GitHub or from the mirror `SUDOKU_CP_DATA_URL`, normalised, its
   sha256 checked again, and written atomically: a torn download is never taken for a good file.

`SUDOKU_CP_NO_DOWNLOAD=1` (or `download=False`) stops before step 3 and says what is missing.
pooch and platformdirs are imported inside functions: reading a puzzle file never loads them.
The registry itself (what each set is pinned to, and how it is normalised) is `registry`.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import re
import sys
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TextIO

from ..errors import DataSetError
from .registry import GITHUB_RAW, REGISTRY, DataSet, Normalisation, get, names, normalise

log = logging.getLogger(__name__)

ENV_LOCAL = "SUDOKU_CP_DATA"  # a folder of normalised files, looked in first
ENV_CACHE = "SUDOKU_CP_CACHE"  # the cache folder (default: the user cache folder)
ENV_MIRROR = "SUDOKU_CP_DATA_URL"  # a base URL serving the upstream files at GitHub's paths
ENV_NO_DOWNLOAD = "SUDOKU_CP_NO_DOWNLOAD"  # 1/true/yes/on: never download
DOWNLOAD_RETRIES = 2  # pooch retries a failed or corrupted download, waiting 1 s, then 2 s
DOWNLOAD_TIMEOUT = 30.0  # seconds without an answer from the server before a try fails
CHUNK_BYTES = 64 * 1024  # pooch's default 1 KiB chunks mean thousands of writes for a set


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


# -- where the files are -------------------------------------------------------------------------


@dataclass(frozen=True)
class DataConfig:
    """Where sets are looked for and fetched from; `from_env()` reads the SUDOKU_CP_* variables."""

    local: Path | None = None  # SUDOKU_CP_DATA: normalised files, used first
    cache: Path | None = None  # None: the user cache folder
    mirror: str | None = None  # SUDOKU_CP_DATA_URL: base URL instead of GitHub's
    download: bool = True  # False: SUDOKU_CP_NO_DOWNLOAD is set

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> DataConfig:
        env = os.environ if environ is None else environ
        local = env.get(ENV_LOCAL) or None
        cache = env.get(ENV_CACHE) or None
        return cls(
            local=Path(local).expanduser() if local else None,
            cache=Path(cache).expanduser() if cache else None,
            mirror=env.get(ENV_MIRROR) or None,
            download=env.get(ENV_NO_DOWNLOAD, "").strip().lower() not in ("1", "true", "yes", "on"),
        )

    def check(self) -> None:
        """Refuse settings that cannot mean what was asked, naming the variable and its value.

        Raises:
            DataSetError: SUDOKU_CP_DATA that is not a folder; SUDOKU_CP_DATA_URL that is not
                an http(s):// or file:// URL.
        """
        if self.local is not None and not self.local.is_dir():
            what = "does not exist" if not self.local.exists() else "is not a folder"
            raise DataSetError(
                f"{ENV_LOCAL}={self.local} {what}: set it to a folder of "
                f"normalised set files, or unset it"
            )
        if self.mirror is not None:
            scheme = self.mirror.split("://", 1)[0].lower() if "://" in self.mirror else ""
            if scheme not in ("http", "https", "file"):
                raise DataSetError(
                    f"{ENV_MIRROR}={self.mirror} is not an http://, https:// or file:// URL"
                )

    def cache_folder(self) -> Path:
        """The folder of normalised files fetched before (upstream files in its `upstream/`)."""
        if self.cache is not None:
            return self.cache
        import platformdirs  # only when a set is looked up by name

        return Path(platformdirs.user_cache_dir("sudoku-cp"))

    def url(self, dataset: DataSet) -> str:
        return dataset.mirror_url(self.mirror) if self.mirror else dataset.url


def locate(dataset: str | DataSet, *, config: DataConfig | None = None) -> Path | None:
    """Where the set's file already is (SUDOKU_CP_DATA, then the cache), not verified; or None."""
    chosen = get(dataset)
    config = config or DataConfig.from_env()
    candidates = [config.local / chosen.file] if config.local else []
    candidates.append(config.cache_folder() / chosen.file)
    return next((path for path in candidates if path.is_file()), None)


def fetch(
    dataset: str | DataSet,
    *,
    download: bool = True,
    progress: bool = False,
    config: DataConfig | None = None,
) -> Path:
    """The path of the set's verified normalised file, downloading it on first use.

    `progress` draws a download bar on stderr when it is a terminal. `config` defaults to the
    SUDOKU_CP_* environment; downloads happen only when both `download` and the config allow.

    Raises:
        DataSetError: an unknown name; a SUDOKU_CP_DATA file whose sha256 is wrong; downloads
            refused and the set not there; a failed download, or one whose sha256 is wrong
            (it is deleted, nothing is cached). One line naming the set and the file or URL.
    """
    chosen = get(dataset)
    config = config or DataConfig.from_env()
    config.check()
    if config.local is not None:
        local = config.local / chosen.file
        if local.is_file():
            _check_normalised(local, chosen, where=ENV_LOCAL)
            return local
        log.warning(
            "%s=%s holds no %s: looking in the cache, then downloading",
            ENV_LOCAL,
            config.local,
            chosen.file,
        )
    cache = config.cache_folder()
    target = cache / chosen.file
    if target.is_file():
        if sha256_of(target) == chosen.sha256:
            return target
        # Only something outside sudoku-cp can damage it (it is written atomically): fetch again.
        log.warning(
            "%s: the cached %s does not match its sha256; fetching it again", chosen.name, target
        )
        _remove(target)
    raw = _upstream_file(
        chosen, cache, config=config, download=download and config.download, progress=progress
    )
    data = normalise(chosen, raw.read_bytes())
    digest = hashlib.sha256(data).hexdigest()
    if digest != chosen.sha256:
        raise DataSetError(
            f"{chosen.name}: normalising {raw} gave sha256 {digest}, the registry "
            f"pins {chosen.sha256}; nothing was cached"
        )
    try:
        _write_atomically(target, data)
    except OSError as error:
        raise DataSetError(
            f"{chosen.name}: cannot write {target}: "
            f"{error.strerror or error} (set {ENV_CACHE} to another folder)"
        ) from None
    log.info("%s: cached %s", chosen.name, target)
    return target


def resolve_source(arg: str, *, download: bool = True, progress: bool = True) -> str:
    """A puzzle source as given on the command line: a file (or '-') as is, else a set's path.

    An existing file wins over a set of the same name. A registered set is fetched on first use
    (a progress bar on a terminal) and read from the cache afterwards.

    Raises:
        DataSetError: for an argument that is neither an existing path nor a registered set,
            and for every failure of `fetch`.
    """
    if arg == "-" or os.path.exists(arg):
        return arg
    if arg in REGISTRY:
        return str(fetch(arg, download=download, progress=progress))
    raise DataSetError(
        f"{arg}: no such file, and not a known puzzle set (known: {', '.join(names())})"
    )


def upstream_path(dataset: DataSet, cache: Path) -> Path:
    """Where the verified upstream file is kept: a damaged normalised file is rebuilt offline."""
    return cache / "upstream" / dataset.name / PurePosixPath(dataset.path).name


def _check_normalised(path: Path, dataset: DataSet, *, where: str) -> None:
    digest = sha256_of(path)
    if digest != dataset.sha256:
        raise DataSetError(
            f"{path}: sha256 {digest} does not match the {dataset.name} set's "
            f"{dataset.sha256} (a damaged or different file in {where})"
        )


def _upstream_file(
    dataset: DataSet, cache: Path, *, config: DataConfig, download: bool, progress: bool
) -> Path:
    raw = upstream_path(dataset, cache)
    if raw.is_file() and sha256_of(raw) == dataset.upstream_sha256:
        return raw
    if not download:
        where = (
            f"{ENV_LOCAL}={config.local} holds no {dataset.file}"
            if config.local
            else f"or set {ENV_LOCAL} to a folder holding {dataset.file}"
        )
        raise DataSetError(
            f"{dataset.name}: not downloaded yet and downloads are off "
            f"(--no-download or {ENV_NO_DOWNLOAD}); run `sudoku-cp data fetch "
            f"{dataset.name}` online, {where}"
        )
    url = config.url(dataset)
    if url.lower().startswith("file://"):
        _copy_from_mirror(dataset, raw, url)
    else:
        _download(dataset, raw, url=url, progress=progress)
    return raw


def _copy_from_mirror(dataset: DataSet, raw: Path, url: str) -> None:
    """The upstream file from a local mirror (a file:// URL), checked like a download.

    Raises:
        DataSetError: the file is not there, cannot be read, or is not the pinned one.
    """
    from urllib.parse import unquote, urlparse

    source = Path(unquote(urlparse(url).path))
    try:
        data = source.read_bytes()
    except OSError as error:
        raise DataSetError(
            f"{dataset.name}: cannot read {source} (from {ENV_MIRROR}): {error.strerror or error}"
        ) from None
    digest = hashlib.sha256(data).hexdigest()
    if digest != dataset.upstream_sha256:
        raise DataSetError(
            f"{dataset.name}: {source} (from {ENV_MIRROR}) is not the pinned "
            f"upstream file: sha256 {digest}, pinned {dataset.upstream_sha256}; "
            f"nothing was cached"
        )
    try:
        _write_atomically(raw, data)
    except OSError as error:
        raise DataSetError(
            f"{dataset.name}: cannot write {raw}: {error.strerror or error} "
            f"(set {ENV_CACHE} to another folder)"
        ) from None


def _download(dataset: DataSet, raw: Path, *, url: str, progress: bool) -> None:
    """pooch fetches `url` into `raw`: a temporary file, moved there only if its sha256 matches."""
    import pooch  # only when a set is downloaded (untyped: see [tool.mypy] in pyproject.toml)
    import requests

    bar = DownloadProgress(f"{dataset.name} ") if progress else None
    if bar is not None and not bar.enabled:
        bar = None
    store = pooch.create(
        path=raw.parent,
        base_url=url.rsplit("/", 1)[0],
        registry={raw.name: f"sha256:{dataset.upstream_sha256}"},
        urls={raw.name: url},
        retry_if_failed=DOWNLOAD_RETRIES,
    )
    downloader = pooch.HTTPDownloader(
        progressbar=bar or False, timeout=DOWNLOAD_TIMEOUT, chunk_size=CHUNK_BYTES
    )
    log.info("%s: downloading %s", dataset.name, url)
    try:
        with _quiet(pooch.get_logger()):
            store.fetch(raw.name, downloader=downloader)
    except ValueError as error:  # pooch: the sha256 of the download is not the pinned one
        found = re.search(r"but got ([0-9a-fA-F]+)", str(error))
        got = f" ({found.group(1)})" if found else ""
        raise DataSetError(
            f"{dataset.name}: the download from {url} does not match the pinned "
            f"sha256 {dataset.upstream_sha256}{got}; it was deleted, nothing "
            f"was cached"
        ) from None
    except requests.RequestException as error:
        raise DataSetError(f"{dataset.name}: cannot download {url}: {_why(error)}") from None
    except OSError as error:
        raise DataSetError(
            f"{dataset.name}: cannot write {raw}: {error.strerror or error} "
            f"(set {ENV_CACHE} to another folder)"
        ) from None
    finally:
        if bar is not None:
            bar.close()


def _why(error: Exception) -> str:
    """A failed request in a few words (requests' own messages run over several lines)."""
    import requests

    if isinstance(error, requests.HTTPError) and error.response is not None:
        return f"HTTP {error.response.status_code} {error.response.reason}"
    if isinstance(error, requests.exceptions.ChunkedEncodingError):
        return "the connection broke off mid-download"
    if isinstance(error, requests.Timeout):
        return f"no answer within {DOWNLOAD_TIMEOUT:g} s"
    if isinstance(error, requests.ConnectionError):
        return "cannot connect (offline? set SUDOKU_CP_DATA or SUDOKU_CP_DATA_URL)"
    return " ".join(str(error).split())[:200]


@contextlib.contextmanager
def _quiet(logger: logging.Logger) -> Iterator[None]:
    """pooch logs every download at INFO on its own stderr handler; the library stays quiet."""
    level = logger.level
    logger.setLevel(logging.WARNING)
    try:
        yield
    finally:
        logger.setLevel(level)


def _write_atomically(target: Path, data: bytes) -> None:
    """Write to a temporary file beside `target`, then rename: readers see all or nothing."""
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(
        dir=target.parent, prefix=f".{target.name}.", suffix=".part"
    )
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, target)
    except BaseException:
        _remove(Path(temporary))
        raise


def _remove(path: Path) -> None:
    with contextlib.suppress(OSError):
        path.unlink()


class DownloadProgress:
    """The progress bar pooch drives (`total`, `update`, `reset`, `close`): bytes on stderr,
    drawn only on a terminal, so logs and pipes stay clean."""

    def __init__(
        self, label: str, *, stream: TextIO | None = None, enabled: bool | None = None
    ) -> None:
        self.label = label
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.total = 0
        self.done = 0
        self._drawn = False

    def update(self, amount: int) -> None:
        self.done += amount
        if self.enabled:
            done = min(self.done, self.total) if self.total else self.done
            share = f" ({100 * done / self.total:.0f}%)" if self.total else ""
            total = f" of {_megabytes(self.total)}" if self.total else ""
            self.stream.write(f"\rdownloading {self.label}{_megabytes(done)}{total}{share}\x1b[K")
            self.stream.flush()
            self._drawn = True

    def reset(self) -> None:
        self.done = 0

    def close(self) -> None:
        """Leave the terminal on a fresh line."""
        if self._drawn:
            self.stream.write("\n")
            self.stream.flush()
            self._drawn = False


def _megabytes(count: int) -> str:
    return f"{count / 1e6:.1f} MB"


__all__ = [
    "ENV_CACHE",
    "ENV_LOCAL",
    "ENV_MIRROR",
    "ENV_NO_DOWNLOAD",
    "GITHUB_RAW",
    "REGISTRY",
    "DataConfig",
    "DataSet",
    "DownloadProgress",
    "Normalisation",
    "fetch",
    "get",
    "locate",
    "names",
    "normalise",
    "resolve_source",
    "sha256_of",
    "upstream_path",
]
