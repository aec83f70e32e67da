"""datasets.registry: the eleven public sets, each pinned to its upstream file (checked against
../shared/data when it is there), and how upstream bytes are normalised into our file."""

from __future__ import annotations

import dataclasses
import json

import pytest

from sudoku_cp import datasets
from sudoku_cp.datasets import DataSetError, Normalisation

from ..conftest import BAEKJOON_2239
from .conftest import (
    DATA_FOLDER,
    PUZZLES,
    TINY,
    TINY_NORMALISED,
    TINY_UPSTREAM,
    needs_shared,
    sha256,
)


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
