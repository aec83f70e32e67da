"""datasets: the public puzzle sets by name: fetched over real HTTP (through pooch, from a local
server), verified, cached, read offline or from a local folder; set names resolved where a
command reads puzzles; the environment's settings checked."""

from __future__ import annotations

import dataclasses
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sudoku_cp import datasets
from sudoku_cp.datasets import DataConfig, DataSetError

from ..conftest import BAEKJOON_2239
from ..http_mirror import Mirror, rebuilt_upstream
from .conftest import (
    DATA_FOLDER,
    TINY,
    TINY_NORMALISED,
    TINY_UPSTREAM,
    files_under,
    needs_shared,
)


def test_fetch_downloads_normalises_and_caches(config: DataConfig, mirror: Mirror) -> None:
    path = datasets.fetch(TINY, config=config)
    assert path == config.cache_folder() / "tiny.txt"
    assert path.read_bytes() == TINY_NORMALISED
    assert mirror.requests_for(TINY) == 1


def test_a_cached_set_is_not_downloaded_again(config: DataConfig, mirror: Mirror) -> None:
    first = datasets.fetch(TINY, config=config)
    again = datasets.fetch(TINY, config=config)
    offline = datasets.fetch(TINY, download=False, config=config)
    assert first == again == offline
    assert mirror.requests_for(TINY) == 1


@needs_shared
@pytest.mark.parametrize("name", ["easy50", "top95", "hardest"])
def test_a_registered_set_comes_through_pooch_verified(
    name: str, config: DataConfig, mirror: Mirror
) -> None:
    dataset = datasets.get(name)
    assert DATA_FOLDER is not None
    body = rebuilt_upstream(dataset, DATA_FOLDER)
    if body is None:
        pytest.skip(f"{DATA_FOLDER} holds no {dataset.file}")
    mirror.serve(dataset, body)
    path = datasets.fetch(name, config=config)
    assert path.read_bytes() == (DATA_FOLDER / dataset.file).read_bytes()
    assert mirror.requests_for(dataset) == 1


def test_a_corrupted_download_is_one_line_and_not_kept(config: DataConfig, mirror: Mirror) -> None:
    mirror.serve(TINY, TINY_UPSTREAM.replace(b"# three", b"# four!"))
    with pytest.raises(DataSetError) as caught:
        datasets.fetch(TINY, config=config)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"tiny: the download from {mirror.url}/example/puzzles/")
    assert "does not match the pinned sha256" in message and "nothing was cached" in message
    assert files_under(config.cache_folder()) == []
    mirror.serve(TINY, TINY_UPSTREAM)
    assert datasets.fetch(TINY, config=config).read_bytes() == TINY_NORMALISED


def test_an_interrupted_download_leaves_nothing_taken_for_valid(
    config: DataConfig, mirror: Mirror
) -> None:
    mirror.cut(TINY)
    with pytest.raises(DataSetError, match=r"^tiny: cannot download .*: the connection broke"):
        datasets.fetch(TINY, config=config)
    assert files_under(config.cache_folder()) == []
    assert datasets.fetch(TINY, config=config).read_bytes() == TINY_NORMALISED
    assert mirror.requests_for(TINY) == 2


def test_a_broken_download_is_retried(
    monkeypatch: pytest.MonkeyPatch, config: DataConfig, mirror: Mirror
) -> None:
    monkeypatch.setattr(datasets, "DOWNLOAD_RETRIES", 1)  # pooch waits 1 s before the retry
    mirror.cut(TINY)
    assert datasets.fetch(TINY, config=config).read_bytes() == TINY_NORMALISED
    assert mirror.requests_for(TINY) == 2


def test_a_missing_upstream_file_is_one_line(config: DataConfig, mirror: Mirror) -> None:
    mirror.files.clear()
    with pytest.raises(DataSetError, match=r"^tiny: cannot download \S+: HTTP 404 Not Found$"):
        datasets.fetch(TINY, config=config)


def test_offline_refuses_and_says_what_is_missing(config: DataConfig, mirror: Mirror) -> None:
    with pytest.raises(DataSetError) as caught:
        datasets.fetch(TINY, download=False, config=config)
    assert str(caught.value) == (
        "tiny: not downloaded yet and downloads are off (--no-download or "
        "SUDOKU_CP_NO_DOWNLOAD); run `sudoku-cp data fetch tiny` online, or set SUDOKU_CP_DATA "
        "to a folder holding tiny.txt"
    )
    assert mirror.requests_for(TINY) == 0


def test_the_environment_can_forbid_downloads(
    monkeypatch: pytest.MonkeyPatch, mirror: Mirror
) -> None:
    monkeypatch.setenv(datasets.ENV_MIRROR, mirror.url)
    monkeypatch.setenv(datasets.ENV_NO_DOWNLOAD, "1")
    with pytest.raises(DataSetError, match="downloads are off"):
        datasets.fetch(TINY)
    monkeypatch.setenv(datasets.ENV_NO_DOWNLOAD, "0")
    assert datasets.fetch(TINY).read_bytes() == TINY_NORMALISED
    assert mirror.requests_for(TINY) == 1


def test_the_local_folder_comes_first(tmp_path: Path, config: DataConfig, mirror: Mirror) -> None:
    local = tmp_path / "local"
    local.mkdir()
    (local / "tiny.txt").write_bytes(TINY_NORMALISED)
    with_local = dataclasses.replace(config, local=local)
    assert datasets.fetch(TINY, config=with_local) == local / "tiny.txt"
    assert datasets.locate(TINY, config=with_local) == local / "tiny.txt"
    assert mirror.requests_for(TINY) == 0


def test_a_corrupted_local_file_is_refused(
    tmp_path: Path, config: DataConfig, mirror: Mirror
) -> None:
    local = tmp_path / "local"
    local.mkdir()
    (local / "tiny.txt").write_bytes(TINY_NORMALISED.replace(b"1", b"2", 1))
    with pytest.raises(
        DataSetError,
        match=rf"^{local / 'tiny.txt'}: sha256 \w+ does not match "
        r"the tiny set's \w+ \(.* in SUDOKU_CP_DATA\)$",
    ):
        datasets.fetch(TINY, config=dataclasses.replace(config, local=local))
    assert mirror.requests_for(TINY) == 0


def test_a_local_folder_without_the_set_falls_back(
    tmp_path: Path, config: DataConfig, mirror: Mirror
) -> None:
    with_local = dataclasses.replace(config, local=tmp_path)
    assert datasets.fetch(TINY, config=with_local) == config.cache_folder() / "tiny.txt"
    assert mirror.requests_for(TINY) == 1


def test_a_damaged_cached_file_is_rebuilt_from_the_kept_upstream_file(
    config: DataConfig, mirror: Mirror
) -> None:
    path = datasets.fetch(TINY, config=config)
    path.write_bytes(b"damaged\n")
    assert datasets.fetch(TINY, download=False, config=config).read_bytes() == TINY_NORMALISED
    assert mirror.requests_for(TINY) == 1


def test_a_normaliser_that_disagrees_with_the_pin_caches_nothing(config: DataConfig) -> None:
    misfiled = dataclasses.replace(TINY, sha256="0" * 64)
    with pytest.raises(
        DataSetError,
        match=r"^tiny: normalising .* gave sha256 \w+, the registry "
        r"pins 0{64}; nothing was cached$",
    ):
        datasets.fetch(misfiled, config=config)
    assert not (config.cache_folder() / "tiny.txt").exists()


def test_a_failed_write_leaves_no_partial_file(
    monkeypatch: pytest.MonkeyPatch, config: DataConfig
) -> None:
    def refuse(source: str, target: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)  # the rename that puts the file in place
    with pytest.raises(DataSetError, match=r"^tiny: cannot write .*tiny.txt: No space left"):
        datasets.fetch(TINY, config=config)
    assert [path.name for path in files_under(config.cache_folder())] == ["tiny+3.txt"]


def test_the_environment_configures_the_folders() -> None:
    config = DataConfig.from_env(
        {
            "SUDOKU_CP_DATA": "/data",
            "SUDOKU_CP_CACHE": "/cache",
            "SUDOKU_CP_DATA_URL": "http://mirror",
            "SUDOKU_CP_NO_DOWNLOAD": "yes",
        }
    )
    assert config == DataConfig(
        local=Path("/data"), cache=Path("/cache"), mirror="http://mirror", download=False
    )
    assert DataConfig.from_env({}).download
    assert DataConfig.from_env({}).cache_folder().name.lower() == "sudoku-cp"


def test_the_progress_bar_counts_bytes_on_a_terminal() -> None:
    stream = io.StringIO()
    bar = datasets.DownloadProgress("17clue ", stream=stream, enabled=True)
    bar.total = 4_000_000
    bar.update(1_000_000)
    bar.close()
    assert stream.getvalue() == "\rdownloading 17clue 1.0 MB of 4.0 MB (25%)\x1b[K\n"
    quiet = datasets.DownloadProgress("17clue ", stream=io.StringIO())  # not a terminal
    quiet.update(10)
    quiet.close()
    assert not quiet.enabled


def test_a_file_or_dash_is_taken_as_is(tmp_path: Path) -> None:
    puzzle = tmp_path / "easy50"  # a file wins over the set of the same name
    puzzle.write_text(BAEKJOON_2239)
    assert datasets.resolve_source(str(puzzle)) == str(puzzle)
    assert datasets.resolve_source("-") == "-"


def test_a_set_name_resolves_to_its_cached_file(tiny_registered: Mirror) -> None:
    path = datasets.resolve_source("tiny")
    assert path == os.path.join(os.environ[datasets.ENV_CACHE], "tiny.txt")
    assert datasets.resolve_source("tiny") == path
    assert tiny_registered.requests_for(TINY) == 1


def test_an_unknown_source_is_one_line() -> None:
    with pytest.raises(DataSetError) as caught:
        datasets.resolve_source("missing.txt")
    assert str(caught.value) == (
        "missing.txt: no such file, and not a known puzzle set (known: easy50, kaggle_1000, "
        "top95, hardest, top1465, forum_hardest_1106, forum_hardest_1905_11plus, 17clue, "
        "serg_benchmark, norvig_10k, 16x16_3000)"
    )


def test_reading_files_loads_neither_pooch_nor_platformdirs(tmp_path: Path) -> None:
    puzzle = tmp_path / "one.txt"
    puzzle.write_text(BAEKJOON_2239)
    script = (
        "import sys; import sudoku_cp.cli.data; from sudoku_cp.datasets import "
        f"resolve_source; resolve_source({str(puzzle)!r}); "
        "print(sorted({'pooch', 'platformdirs', 'requests'} & set(sys.modules)))"
    )
    output = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout
    assert output == "[]\n"


def test_a_file_url_mirror_is_read_and_checked(tmp_path: Path) -> None:
    from urllib.parse import unquote

    mirrored = tmp_path / "mirror" / unquote(TINY.mirror_url("").lstrip("/"))
    mirrored.parent.mkdir(parents=True)
    mirrored.write_bytes(TINY_UPSTREAM)
    config = DataConfig(cache=tmp_path / "cache", mirror=f"file://{tmp_path / 'mirror'}")
    assert datasets.fetch(TINY, config=config).read_bytes() == TINY_NORMALISED
    mirrored.write_bytes(TINY_UPSTREAM + b"\n# changed\n")
    (config.cache_folder() / "tiny.txt").unlink()
    (config.cache_folder() / "upstream" / TINY.repo.replace("/", "+")).mkdir(
        parents=True, exist_ok=True
    )
    for kept in (config.cache_folder() / "upstream").rglob("*"):
        if kept.is_file():
            kept.unlink()
    with pytest.raises(
        DataSetError,
        match=r"^tiny: .* \(from SUDOKU_CP_DATA_URL\) is not the "
        r"pinned upstream file: sha256 \w+, pinned \w+; "
        r"nothing was cached$",
    ):
        datasets.fetch(TINY, config=config)


def test_a_file_url_mirror_without_the_file_says_so(tmp_path: Path) -> None:
    config = DataConfig(cache=tmp_path / "cache", mirror=f"file://{tmp_path / 'nothing'}")
    with pytest.raises(
        DataSetError,
        match=r"^tiny: cannot read .*tiny\+3.txt \(from "
        r"SUDOKU_CP_DATA_URL\): No such file or directory$",
    ):
        datasets.fetch(TINY, config=config)


def test_a_mirror_that_is_no_url_is_refused(tmp_path: Path) -> None:
    config = DataConfig(cache=tmp_path / "cache", mirror="ftp.example.org/mirror")
    with pytest.raises(
        DataSetError,
        match=r"^SUDOKU_CP_DATA_URL=ftp.example.org/mirror is not "
        r"an http://, https:// or file:// URL$",
    ):
        datasets.fetch(TINY, config=config)


@pytest.mark.parametrize("kind", ["missing", "file"])
def test_a_local_folder_that_is_none_is_refused(tmp_path: Path, kind: str) -> None:
    local = tmp_path / "local"
    if kind == "file":
        local.write_text("not a folder")
    config = DataConfig(cache=tmp_path / "cache", local=local)
    what = "does not exist" if kind == "missing" else "is not a folder"
    with pytest.raises(DataSetError, match=rf"^SUDOKU_CP_DATA={local} {what}: "):
        datasets.fetch(TINY, config=config)


def test_a_local_folder_without_the_set_says_so(
    tmp_path: Path, mirror: Mirror, caplog: pytest.LogCaptureFixture
) -> None:
    config = DataConfig(cache=tmp_path / "cache", local=tmp_path, mirror=mirror.url)
    with caplog.at_level("WARNING", logger="sudoku_cp"):
        datasets.fetch(TINY, config=config)
    assert f"SUDOKU_CP_DATA={tmp_path} holds no tiny.txt" in caplog.text
    offline = DataConfig(cache=tmp_path / "other-cache", local=tmp_path, download=False)
    with pytest.raises(DataSetError, match=rf"SUDOKU_CP_DATA={tmp_path} holds no tiny.txt$"):
        datasets.fetch(TINY, config=offline)
