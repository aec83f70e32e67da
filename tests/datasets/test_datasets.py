"""The public puzzle sets: the registry, normalisation, and fetching over real HTTP.

Downloads go to a local server (tests/http_mirror.py) through pooch; `TINY` is a test set pinned
like the real ones, so the HTTP, hash, cache and offline cases need nothing outside this folder.
The real registry entries are checked against ../shared/data when it is there.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from sudoku_cp import datasets
from sudoku_cp.cli.data import data
from sudoku_cp.datasets import DataConfig, DataSet, DataSetError, Normalisation

from ..conftest import ANTI_BACKTRACK, BAEKJOON_2239, BAEKJOON_2239_ANSWER, G17
from ..http_mirror import SHARED_DATA, Mirror, rebuilt_upstream


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


def files_under(folder: Path) -> list[Path]:
    return sorted(path for path in folder.rglob("*") if path.is_file())


# -- the registry --------------------------------------------------------------------------------


def test_the_registry_holds_the_eleven_sets() -> None:
    assert datasets.names()[:3] == ["easy50", "kaggle_1000", "top95"]
    assert len(datasets.names()) == 11
    assert len({dataset.file for dataset in datasets.REGISTRY.values()}) == 11
    assert datasets.get("16x16_3000").size == 16
    assert datasets.get("forum_hardest_1905_11plus").url.endswith("_1905_11%2B")


@needs_shared
def test_the_registry_copies_upstream_json() -> None:
    assert DATA_FOLDER is not None
    if not (DATA_FOLDER / "upstream.json").is_file():
        pytest.skip(f"needs upstream.json in {DATA_FOLDER} (../shared/data has it)")
    pinned = json.loads((DATA_FOLDER / "upstream.json").read_text())
    assert [entry["name"] for entry in pinned] == datasets.names()
    for entry in pinned:
        dataset = datasets.get(entry["name"])
        upstream = entry["upstream"]
        assert (dataset.file, dataset.puzzles, dataset.sha256) == (
            entry["file"],
            entry["puzzles"],
            entry["sha256"],
        ), dataset.name
        assert (dataset.url, dataset.upstream_sha256, dataset.upstream_bytes) == (
            upstream["url"],
            upstream["sha256"],
            upstream["bytes"],
        ), dataset.name


@needs_shared
def test_the_registry_pins_the_shared_files() -> None:
    assert DATA_FOLDER is not None
    for dataset in datasets.REGISTRY.values():
        if not (DATA_FOLDER / dataset.file).is_file():
            continue  # a SUDOKU_CP_DATA folder may hold some of the sets
        content = (DATA_FOLDER / dataset.file).read_bytes()
        assert (sha256(content), len(content), content.count(b"\n")) == (
            dataset.sha256,
            dataset.bytes,
            dataset.puzzles,
        ), dataset.name


def test_an_unknown_name_lists_the_known_ones() -> None:
    with pytest.raises(DataSetError, match=r"^nope: not a known puzzle set \(known: easy50, "):
        datasets.get("nope")


def test_a_mirror_keeps_githubs_paths() -> None:
    easy50 = datasets.get("easy50")
    assert easy50.mirror_url("http://127.0.0.1:8000/mirror/") == (
        "http://127.0.0.1:8000/mirror/norvig/pytudes/"
        "414fe258a4181c2a819959d9a29bfcbe4c4b19c7/py/sudoku-easy50.txt"
    )


# -- normalisation -------------------------------------------------------------------------------


def test_comments_crlf_dots_and_blank_lines_are_normalised() -> None:
    assert datasets.normalise(TINY, TINY_UPSTREAM) == TINY_NORMALISED


def test_a_csv_keeps_its_puzzle_column_after_the_header() -> None:
    sixteen_like = dataclasses.replace(
        TINY, size=4, normalisation=Normalisation(header="Sudoku,solution", csv_column=0)
    )
    raw = b"Sudoku,solution\r\n1200000000000000,1234341221434321\r\n0000000000000043,x"
    assert datasets.normalise(sixteen_like, raw) == b"1200000000000000\n0000000000000043\n"


def test_a_headerless_csv_keeps_the_quiz_column() -> None:
    kaggle_like = dataclasses.replace(TINY, normalisation=Normalisation(csv_column=0))
    raw = "".join(f"{puzzle},{puzzle}\n" for puzzle in PUZZLES).encode()
    assert datasets.normalise(kaggle_like, raw) == TINY_NORMALISED


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"# ok\n" + BAEKJOON_2239.encode() + b"\n123\n", r"^tiny: upstream line 3 is not one 9x9"),
        (BAEKJOON_2239.replace("0", "x", 1).encode(), r"^tiny: upstream line 1 is not one 9x9"),
        (b"# only comments\n\n", r"^tiny: the upstream file holds no puzzle$"),
        (b"\xff", r"^tiny: the upstream file is not ASCII"),
    ],
)
def test_a_line_that_is_not_a_puzzle_is_refused(raw: bytes, message: str) -> None:
    with pytest.raises(DataSetError, match=message):
        datasets.normalise(TINY, raw)


def test_a_wrong_header_is_refused() -> None:
    with_header = dataclasses.replace(TINY, normalisation=Normalisation(header="Sudoku,solution"))
    with pytest.raises(DataSetError, match=r"line 1: expected the header 'Sudoku,solution'"):
        datasets.normalise(with_header, b"quizzes,solutions\n" + BAEKJOON_2239.encode())


# -- fetching over HTTP --------------------------------------------------------------------------


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


# -- names on the command line -------------------------------------------------------------------


@pytest.fixture
def tiny_registered(monkeypatch: pytest.MonkeyPatch, mirror: Mirror) -> Mirror:
    monkeypatch.setitem(datasets.REGISTRY, "tiny", TINY)
    monkeypatch.setenv(datasets.ENV_MIRROR, mirror.url)
    return mirror


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


# -- sudoku-cp data ------------------------------------------------------------------------------


def test_data_list_shows_every_set() -> None:
    result = CliRunner().invoke(data, ["list"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    rows = [line.split()[0] for line in lines[1:] if line and not line.startswith(" ")]
    assert rows == [*datasets.names(), "HERE:"]
    assert result.output.splitlines()[1].split() == ["easy50", "50", "9x9", "4", "kB", "-"]
    assert "norvig/pytudes py/sudoku-easy50.txt @414fe25, licence: MIT" in result.output


def test_data_list_says_which_sets_are_here(tiny_registered: Mirror) -> None:
    datasets.fetch("tiny")
    result = CliRunner().invoke(data, ["list"])
    assert [line.split() for line in result.output.splitlines() if line.startswith("tiny")] == [
        ["tiny", "3", "9x9", "1", "kB", "cached"]
    ]


def test_data_path_prints_the_verified_file(tiny_registered: Mirror) -> None:
    result = CliRunner().invoke(data, ["path", "tiny"])
    assert (result.exit_code, result.output) == (
        0,
        os.path.join(os.environ[datasets.ENV_CACHE], "tiny.txt") + "\n",
    )
    assert CliRunner().invoke(data, ["path"]).output == os.environ[datasets.ENV_CACHE] + "\n"


def test_data_path_no_download_is_one_error_line(tiny_registered: Mirror) -> None:
    result = CliRunner().invoke(data, ["path", "--no-download", "tiny"])
    assert result.exit_code == 2
    assert result.output.startswith("Error: tiny: not downloaded yet and downloads are off")
    assert result.output.count("\n") == 1
    assert tiny_registered.requests_for(TINY) == 0


def test_data_fetch_tries_every_name_and_fails_with_2(tiny_registered: Mirror) -> None:
    result = CliRunner().invoke(data, ["fetch", "nope", "tiny"])
    assert result.exit_code == 2
    assert result.stdout == f"tiny\t{os.path.join(os.environ[datasets.ENV_CACHE], 'tiny.txt')}\n"
    assert result.stderr.startswith("Error: nope: not a known puzzle set (known: easy50, ")


def test_data_fetch_wants_names_or_all() -> None:
    for arguments in (["fetch"], ["fetch", "--all", "easy50"]):
        result = CliRunner().invoke(data, arguments)
        assert (result.exit_code, result.output) == (
            2,
            "Error: name the sets to fetch, or give --all (not both)\n",
        )


def test_sudoku_cp_has_the_data_commands() -> None:
    from sudoku_cp.cli import main

    result = CliRunner().invoke(main, ["data", "list"])
    assert result.exit_code == 0, result.output
    assert [
        line.split()[0] for line in result.output.splitlines() if line and not line.startswith(" ")
    ][1:12] == datasets.names()


def test_a_command_reading_puzzles_takes_a_set_name(tiny_registered: Mirror) -> None:
    from sudoku_cp.cli import main

    refused = CliRunner().invoke(main, ["solve", "--no-download", "tiny"])
    assert refused.exit_code == 2
    assert refused.stderr.startswith("Error: tiny: not downloaded yet and downloads are off")
    solved = CliRunner().invoke(main, ["solve", "tiny"])
    assert solved.exit_code == 0, solved.output
    assert solved.stdout.splitlines()[0] == BAEKJOON_2239_ANSWER
    assert tiny_registered.requests_for(TINY) == 1


# -- what is wrong with the environment's values ---------------------------------------------------


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
