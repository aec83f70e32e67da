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
from urllib.parse import quote

from .errors import DataSetError
from .grid import SYMBOLS
from .text import excerpt

log = logging.getLogger(__name__)

GITHUB_RAW = "https://raw.githubusercontent.com"
ENV_LOCAL = "SUDOKU_CP_DATA"  # a folder of normalised files, looked in first
ENV_CACHE = "SUDOKU_CP_CACHE"  # the cache folder (default: the user cache folder)
ENV_MIRROR = "SUDOKU_CP_DATA_URL"  # a base URL serving the upstream files at GitHub's paths
ENV_NO_DOWNLOAD = "SUDOKU_CP_NO_DOWNLOAD"  # 1/true/yes/on: never download
DOWNLOAD_RETRIES = 2  # pooch retries a failed or corrupted download, waiting 1 s, then 2 s
DOWNLOAD_TIMEOUT = 30.0  # seconds without an answer from the server before a try fails
CHUNK_BYTES = 64 * 1024  # pooch's default 1 KiB chunks mean 4000 writes for a 4 MB set


@dataclass(frozen=True)
class Normalisation:
    """How the upstream bytes become our file.

    Always: `\\r\\n` or `\\n` line ends, blank lines dropped, `.` becomes `0`, every kept line
    checked to be one puzzle of the set's size. Then, per set: `comments` drops lines that start
    with `#`; `header` is the exact first line, checked and dropped; `csv_column` keeps that
    comma-separated column (the puzzle, when the file also holds solutions).
    """

    comments: bool = False
    header: str | None = None
    csv_column: int | None = None

    def describe(self) -> str:
        """One line for `sudoku-cp data list`: what is done to the upstream bytes."""
        steps = []
        if self.header is not None:
            steps.append(f"skip header {self.header!r}")
        if self.comments:
            steps.append("drop '#' lines")
        if self.csv_column is not None:
            steps.append(f"keep CSV column {self.csv_column}")
        steps.append("'.' -> '0'")
        return ", ".join(steps)


@dataclass(frozen=True)
class DataSet:
    """One public puzzle set: what it is, and the upstream file and hashes it is pinned to."""

    name: str
    file: str  # our normalised file's name (its stem names the set in bench tables)
    puzzles: int
    size: int  # N of the N x N grids
    bytes: int  # size of the normalised file
    sha256: str  # of the normalised file
    known_for: str
    licence: str  # as stated by the source repository
    repo: str  # upstream: owner/name on GitHub
    commit: str
    path: str  # inside the repository
    upstream_bytes: int
    upstream_sha256: str
    normalisation: Normalisation

    @property
    def url(self) -> str:
        """The pinned raw URL of the upstream file (a `+` in the path is written %2B)."""
        return f"{GITHUB_RAW}/{self.repo}/{self.commit}/{quote(self.path)}"

    @property
    def source(self) -> str:
        return f"{self.repo} {self.path} @{self.commit[:7]}"

    @property
    def grid(self) -> str:
        return f"{self.size}x{self.size}"

    def mirror_url(self, base_url: str) -> str:
        """The upstream file on a mirror that keeps GitHub's paths: BASE/OWNER/REPO/COMMIT/PATH."""
        return base_url.rstrip("/") + self.url[len(GITHUB_RAW) :]


# -- the registry: each set pinned to its upstream file (commit, path, sha256) --------------------

PYTUDES = "414fe258a4181c2a819959d9a29bfcbe4c4b19c7"  # norvig/pytudes
KYLEGOUGH = "cd15960a534a5e780324efd2762a766f5c6a37b6"  # KyleGough/sudoku
BALMERDX = "9c4391b1ea32bb7a9587f668fa51f35473e68e24"  # balmerdx/sudoku_pytorch
GOOMII17 = "2edfbc413c51c501ff76e20de842b574a3017ade"  # goomii17/16X16-Sudoku-Dataset


_SETS: tuple[DataSet, ...] = (
    DataSet(
        name="easy50",
        file="easy50.txt",
        puzzles=50,
        size=9,
        bytes=4100,
        sha256="42e6745e6dad9c8a35e73254b9e3b5fcfb203995a72f87f5df6cf598f1c47d05",
        known_for="Norvig's 'easy' set (essay 'Solving Every Sudoku Puzzle'); Project Euler 96",
        licence="MIT",
        repo="norvig/pytudes",
        commit=PYTUDES,
        path="py/sudoku-easy50.txt",
        upstream_bytes=4100,
        upstream_sha256="42e6745e6dad9c8a35e73254b9e3b5fcfb203995a72f87f5df6cf598f1c47d05",
        normalisation=Normalisation(),
    ),
    DataSet(
        name="kaggle_1000",
        file="kaggle_1000.txt",
        puzzles=1000,
        size=9,
        bytes=82000,
        sha256="e3562670473be8db18985c527e678741ece44e980597fe6080a9c5e5822d1da4",
        known_for="first 1000 of Kaggle's '1 million Sudoku games'; trivial, many redundant clues",
        licence="none stated",
        repo="KyleGough/sudoku",
        commit=KYLEGOUGH,
        path="datasets/1000.csv",
        upstream_bytes=164000,
        upstream_sha256="1b8c4e140370f60ee389abbb6f8bfc441ade2d1c8215e3c7b93bfa3fb31b3c64",
        normalisation=Normalisation(csv_column=0),
    ),
    DataSet(
        name="top95",
        file="top95.txt",
        puzzles=95,
        size=9,
        bytes=7790,
        sha256="2f0dba64ec5d250bb6239189dcc134b099281619ab8ee1c1620bfeeb9f362367",
        known_for="magictour top95 (G. Stertenbrink); Norvig's 'hard' set",
        licence="MIT",
        repo="norvig/pytudes",
        commit=PYTUDES,
        path="py/sudoku-top95.txt",
        upstream_bytes=7790,
        upstream_sha256="b16eff35fbe41fb7b122f21c5c6ba30b85861b47946d33257070df1a69cddd36",
        normalisation=Normalisation(),
    ),
    DataSet(
        name="hardest",
        file="hardest.txt",
        puzzles=11,
        size=9,
        bytes=902,
        sha256="81d040bf4531135725efbb9066373af7aa2119808c91ca02b3b4607d17e4c6e2",
        known_for="Norvig's 'hardest' list; line 6 is AI Escargot",
        licence="MIT",
        repo="norvig/pytudes",
        commit=PYTUDES,
        path="py/sudoku-hardest.txt",
        upstream_bytes=902,
        upstream_sha256="398e1e5df4f50723078e3b510e00ea7eb9e104c521a9a186b4c20cd066c0459f",
        normalisation=Normalisation(),
    ),
    DataSet(
        name="top1465",
        file="top1465.txt",
        puzzles=1465,
        size=9,
        bytes=120130,
        sha256="703c865fc81344b8d5c306a9fbee00ea900aa98257c235b3d57c7ecea208cc95",
        known_for="magictour top1465, the classic benchmark (tdoku: moderately hard)",
        licence="none stated (tdoku: BSD-2-Clause)",
        repo="balmerdx/sudoku_pytorch",
        commit=BALMERDX,
        path="data/puzzles3_magictour_top1465",
        upstream_bytes=120176,
        upstream_sha256="ca0369f516dac7dfdd987d2c310ac33dcfc7478db5171bea5bca1f3878758bce",
        normalisation=Normalisation(comments=True),
    ),
    DataSet(
        name="forum_hardest_1106",
        file="forum_hardest_1106.txt",
        puzzles=375,
        size=9,
        bytes=30750,
        sha256="c96802f067c985f66b07b326b26a8a7cd8664d750b57a4dee74b3c37b538566e",
        known_for="Enjoy Sudoku forum hardest list 2011; tdoku's hardest for backtracking",
        licence="none stated (pytudes copy: MIT)",
        repo="balmerdx/sudoku_pytorch",
        commit=BALMERDX,
        path="data/puzzles6_forum_hardest_1106",
        upstream_bytes=30863,
        upstream_sha256="45d0afc5892d6797621d7c00f518df8f1483eceb921416984b8687e16128eb06",
        normalisation=Normalisation(comments=True),
    ),
    DataSet(
        name="forum_hardest_1905_11plus",
        file="forum_hardest_1905_11plus.txt",
        puzzles=48766,
        size=9,
        bytes=3998812,
        sha256="639e4340a3294efdc4f1cd4ddf076b1a52883c0a415a9cfa8e70c30d17101a6f",
        known_for="forum potential-hardest list ph_1905, SE rating above 11 (tdoku)",
        licence="none stated (tdoku data)",
        repo="balmerdx/sudoku_pytorch",
        commit=BALMERDX,
        path="data/puzzles5_forum_hardest_1905_11+",
        upstream_bytes=3998812,
        upstream_sha256="56236eaf6c7445ea244db3423ec44a102349dbedf6e457af0fcdd3d07cf39996",
        normalisation=Normalisation(),
    ),
    DataSet(
        name="17clue",
        file="17clue.txt",
        puzzles=49158,
        size=9,
        bytes=4030956,
        sha256="e80c7038375bdcfef6f63e54f061e9af155175a65069d40aa6ca145605af2e6b",
        known_for="all 49158 17-clue Sudoku (Royle, completed); pathological for naive DFS",
        licence="none stated (tdoku data)",
        repo="balmerdx/sudoku_pytorch",
        commit=BALMERDX,
        path="data/puzzles2_17_clue",
        upstream_bytes=4080411,
        upstream_sha256="2cf268735dfd40d32269b5f20ebbea067037e5976b4d016ce0b4d3c0a50deb30",
        normalisation=Normalisation(comments=True),
    ),
    DataSet(
        name="serg_benchmark",
        file="serg_benchmark.txt",
        puzzles=10000,
        size=9,
        bytes=820000,
        sha256="50b5467190aceb2eb9a7c8436301b97ca9f5a5dfc169ba0e9bb779e79e123fc6",
        known_for="Serg's benchmark: every puzzle has 2+ solutions; lex-min, uniqueness",
        licence="none stated (tdoku data)",
        repo="balmerdx/sudoku_pytorch",
        commit=BALMERDX,
        path="data/puzzles7_serg_benchmark",
        upstream_bytes=830065,
        upstream_sha256="5468125857f02cb1e9b1fc6ba36ac88dc8d75afa47bc030c507cdfefbfe0eeaa",
        normalisation=Normalisation(comments=True),
    ),
    DataSet(
        name="norvig_10k",
        file="norvig_10k.txt",
        puzzles=10000,
        size=9,
        bytes=820000,
        sha256="ee0a359fd1944538f6c8c3ad94c65ea59c10d3d2f9e66bcf236f32a5bebbf685",
        known_for="the 10,000 puzzles timed in Norvig's Sudoku.ipynb; mostly 17 clues",
        licence="MIT",
        repo="norvig/pytudes",
        commit=PYTUDES,
        path="ipynb/sudoku10k.txt",
        upstream_bytes=820000,
        upstream_sha256="0671d27b20b3a152e17dfde78ee2d8cf6d3e4434e1dcc3b477cfea04dad5624e",
        normalisation=Normalisation(),
    ),
    DataSet(
        name="16x16_3000",
        file="16x16_3000.txt",
        puzzles=3000,
        size=16,
        bytes=771000,
        sha256="8d7dfda9d78fe44afda50a653cc5787af1acff37f179231168eedd5a57933767",
        known_for="3000 16x16 hexasudokus (2020); MenxLi/sudoku.cpp benchmarks on it",
        licence="none stated",
        repo="goomii17/16X16-Sudoku-Dataset",
        commit=GOOMII17,
        path="16x16Dataset.csv",
        upstream_bytes=1545015,
        upstream_sha256="f9ed63891dc098a01fa4efd1cc5166e1af190f17aa458ffffff1ff1a2655d0b7",
        normalisation=Normalisation(csv_column=0, header="Sudoku,solution"),
    ),
)

REGISTRY: dict[str, DataSet] = {dataset.name: dataset for dataset in _SETS}


def names() -> list[str]:
    """The registered set names, in registry order (easy to hard, 9x9 before 16x16)."""
    return list(REGISTRY)


def get(dataset: str | DataSet) -> DataSet:
    """The registered set of that name (a DataSet is returned as is).

    Raises:
        DataSetError: for a name that is not registered; the message lists the known ones.
    """
    if isinstance(dataset, DataSet):
        return dataset
    try:
        return REGISTRY[dataset]
    except KeyError:
        raise DataSetError(
            f"{dataset}: not a known puzzle set (known: {', '.join(names())})"
        ) from None


# -- normalisation -------------------------------------------------------------------------------


def normalise(dataset: str | DataSet, raw: bytes) -> bytes:
    """Our file from the upstream bytes: one puzzle per line, `0` for blank, `\\n` ends.

    Raises:
        DataSetError: for bytes that are not ASCII, a missing header, or a line that is not one
            puzzle of the set's size after normalising (naming the set and the upstream line).
    """
    chosen = get(dataset)
    how = chosen.normalisation
    try:
        text = raw.decode("ascii")
    except UnicodeDecodeError as error:
        raise DataSetError(
            f"{chosen.name}: the upstream file is not ASCII (byte {error.start})"
        ) from None
    length = chosen.size * chosen.size
    alphabet = frozenset("0" + SYMBOLS[: chosen.size])
    header_pending = how.header is not None
    puzzles: list[str] = []
    for number, line in enumerate(text.split("\n"), start=1):
        line = line.removesuffix("\r")
        if not line.strip() or (how.comments and line.startswith("#")):
            continue
        if header_pending:
            if line != how.header:
                raise DataSetError(
                    f"{chosen.name}: upstream line {number}: expected the header "
                    f"{how.header!r}, found {excerpt(line)}"
                )
            header_pending = False
            continue
        puzzle = line
        if how.csv_column is not None:
            fields = line.split(",")
            if len(fields) <= how.csv_column:
                raise DataSetError(
                    f"{chosen.name}: upstream line {number} has no CSV column "
                    f"{how.csv_column}: {excerpt(line)}"
                )
            puzzle = fields[how.csv_column]
        puzzle = puzzle.replace(".", "0")
        if len(puzzle) != length or not alphabet.issuperset(puzzle):
            raise DataSetError(
                f"{chosen.name}: upstream line {number} is not one {chosen.grid} "
                f"puzzle ({length} of 0-{SYMBOLS[chosen.size - 1]} or .): "
                f"{excerpt(line)}"
            )
        puzzles.append(puzzle)
    if not puzzles:
        raise DataSetError(f"{chosen.name}: the upstream file holds no puzzle")
    return ("\n".join(puzzles) + "\n").encode("ascii")


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
