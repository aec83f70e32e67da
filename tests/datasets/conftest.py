"""Shared by the puzzle-set tests: `TINY`, a test set pinned like the real ones and served by a
local HTTP mirror (tests/http_mirror.py), the cache isolated from the developer's, and the real
sets' folder when it is there (../shared/data or SUDOKU_CP_DATA)."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from sudoku_cp import datasets
from sudoku_cp.datasets import DataConfig, DataSet, Normalisation

from ..conftest import ANTI_BACKTRACK, BAEKJOON_2239, G17
from ..http_mirror import SHARED_DATA, Mirror


def _data_folder() -> Path | None:
    """The normalised public sets: ../shared/data, else the developer's SUDOKU_CP_DATA (read
    here, before the tests clear the variable)."""
    local = os.environ.get(datasets.ENV_LOCAL)
    candidates = [SHARED_DATA, *([Path(local).expanduser()] if local else [])]
    return next((folder for folder in candidates if folder.is_dir()), None)


DATA_FOLDER = _data_folder()


needs_shared = pytest.mark.skipif(
    DATA_FOLDER is None, reason="needs the public sets: ../shared/data or SUDOKU_CP_DATA=FOLDER"
)


PUZZLES = [BAEKJOON_2239, G17, ANTI_BACKTRACK]


# Shaped like balmerdx's files: '#' header lines, '.' blanks, '\r\n' ends, a trailing blank line.
TINY_UPSTREAM = (
    "# three puzzles\r\n# '.' is blank\r\n"
    + "".join(puzzle.replace("0", ".") + "\r\n" for puzzle in PUZZLES)
    + "\r\n"
).encode("ascii")


TINY_NORMALISED = "".join(puzzle + "\n" for puzzle in PUZZLES).encode("ascii")


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


TINY = DataSet(
    name="tiny",
    file="tiny.txt",
    puzzles=3,
    size=9,
    bytes=len(TINY_NORMALISED),
    sha256=sha256(TINY_NORMALISED),
    known_for="a test set",
    licence="MIT",
    repo="example/puzzles",
    commit="0123456789abcdef0123456789abcdef01234567",
    path="data/tiny+3.txt",
    upstream_bytes=len(TINY_UPSTREAM),
    upstream_sha256=sha256(TINY_UPSTREAM),
    normalisation=Normalisation(comments=True),
)


@pytest.fixture(autouse=True)
def isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No SUDOKU_CP_* variable of the developer's, no real cache, no waiting between retries."""
    for name in (datasets.ENV_LOCAL, datasets.ENV_MIRROR, datasets.ENV_NO_DOWNLOAD):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv(datasets.ENV_CACHE, str(tmp_path / "user-cache"))
    monkeypatch.setattr(datasets, "DOWNLOAD_RETRIES", 0)


@pytest.fixture
def mirror() -> Iterator[Mirror]:
    with Mirror() as server:
        server.serve(TINY, TINY_UPSTREAM)
        yield server


@pytest.fixture
def config(tmp_path: Path, mirror: Mirror) -> DataConfig:
    return DataConfig(cache=tmp_path / "cache", mirror=mirror.url)


@pytest.fixture
def tiny_registered(monkeypatch: pytest.MonkeyPatch, mirror: Mirror) -> Mirror:
    monkeypatch.setitem(datasets.REGISTRY, "tiny", TINY)
    monkeypatch.setenv(datasets.ENV_MIRROR, mirror.url)
    return mirror


def files_under(folder: Path) -> list[Path]:
    return sorted(path for path in folder.rglob("*") if path.is_file())
