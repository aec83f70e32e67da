"""generate (the package): the data files under data/generated are what their recorded commands
make, and their puzzles have the property of their kind."""

from __future__ import annotations

import random
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from sudoku_cp.cli import main
from sudoku_cp.generate import Kind
from sudoku_cp.grid import Grid
from sudoku_cp.naive import naive_solve

from ..conftest import DATA
from .conftest import GENERATED, count


@dataclass
class GeneratedFile:
    """A data/generated file: its command, and each puzzle with its fact comment."""

    path: Path
    command: str
    facts: list[str]
    puzzles: list[str]

    @property
    def arguments(self) -> list[str]:
        words = shlex.split(self.command)
        assert words[:2] == ["sudoku-cp", "generate"]
        return words[2:]

    def option(self, name: str) -> str:
        words = self.arguments
        return words[words.index(name) + 1]

    def fact(self, index: int, name: str) -> str:
        return re.search(rf"{name}(?:=|>=)(\d+\+?)", self.facts[index]).group(1)


def read_generated(path: Path) -> GeneratedFile:
    lines = path.read_text().splitlines()
    assert lines[0].startswith("# sudoku-cp generate ")
    facts, puzzles = [], []
    for line in lines:
        if re.match(r"# \d+: ", line):
            facts.append(line)
        elif not line.startswith("#"):
            puzzles.append(line)
    return GeneratedFile(path, lines[0][2:], facts, puzzles)


DATA_FILES = sorted(GENERATED.glob("*.txt"))


# How many leading puzzles each file regenerates in the test: all of the cheap files, a prefix
# of the dear ones (seconds per puzzle measured on an idle 2-core VM in brackets). 0: none; the
# file is still parsed and sampled for its kind's property.
REGENERATED_PREFIX = {
    "adversarial-9x9": 2,  # (1.1 s)
    "unique-16x16": 4,  # (0.23 s)
    "multi-16x16": 4,  # (0.32 s)
    "multi-20x20": 2,  # (about 4 s)
    "unsat-16x16": 4,  # (0.25 s)
    "adversarial-16x16": 1,  # (1.4 s)
    "unique-25x25": 0,  # (18 s for the first; unsat-25x25 runs the same unique removal)
    "multi-25x25": 2,  # (0.25 s)
    "unsat-25x25": 1,  # (3.7 s)
    "adversarial-25x25": 1,  # (1.6 s)
}


def test_data_files_exist_for_every_kind_and_size():
    names = {path.stem for path in DATA_FILES}
    for kind in Kind:
        for size in (4, 6, 9, 16, 25):
            assert f"{kind}-{size}x{size}" in names
    assert set(REGENERATED_PREFIX) <= names


def test_data_is_small_enough_for_the_repository():
    assert sum(path.stat().st_size for path in DATA.rglob("*") if path.is_file()) <= 2_000_000


def test_data_readme_lists_every_file_with_its_command():
    readme = (DATA / "README.md").read_text()
    for path in DATA_FILES:
        assert f"generated/{path.name}" in readme
        assert f"{read_generated(path).command} -o data/generated/{path.name}" in readme


@pytest.mark.slow
@pytest.mark.parametrize("path", DATA_FILES, ids=lambda path: path.stem)
def test_data_file_matches_its_command(path):
    recorded = read_generated(path)
    assert len(recorded.puzzles) == len(recorded.facts) == int(recorded.option("--count"))
    prefix = REGENERATED_PREFIX.get(path.stem)
    if prefix == 0:
        pytest.skip(f"{path.name} is too slow to regenerate in the test suite")
    arguments = recorded.arguments
    if prefix is not None:
        arguments[arguments.index("--count") + 1] = str(prefix)
    result = CliRunner().invoke(main, ["generate", *arguments])
    assert result.exit_code == 0, result.output
    if prefix is None:
        assert result.stdout == path.read_text()
    else:
        again = result.stdout.splitlines()
        assert [line for line in again if not line.startswith("#")] == recorded.puzzles[:prefix]
        assert [line for line in again if re.match(r"# \d+: ", line)] == recorded.facts[:prefix]


def sample(recorded: GeneratedFile, size: int) -> list[int]:
    """A few puzzle indices: all of a small file's first ones, fewer for big grids."""
    how_many = {4: 10, 6: 10, 9: 6, 16: 3, 20: 2, 25: 1}[size]
    indices = range(len(recorded.puzzles))
    return sorted(random.Random(recorded.path.stem).sample(indices, min(how_many, len(indices))))


@pytest.mark.parametrize("path", DATA_FILES, ids=lambda path: path.stem)
def test_data_file_puzzles_have_the_property_of_their_kind(path, dfs, big_counter):
    recorded = read_generated(path)
    kind = recorded.option("--kind")
    size = int(recorded.option("--size"))
    box = recorded.option("--box") if "--box" in recorded.arguments else None
    box_shape = tuple(int(part) for part in box.split("x")) if box else None
    puzzles = [Grid.parse(line, box=box_shape) for line in recorded.puzzles]  # all of them parse
    assert all(p.size == size and p.conflicts() == [] for p in puzzles)
    for index, puzzle in enumerate(puzzles):
        assert int(recorded.fact(index, "givens")) == len(puzzle.givens())
    counter = dfs if size <= 9 or big_counter is None else big_counter
    if size == 25 and counter is dfs:
        pytest.skip("need python-sat to count 25x25 completions")
    for index in sample(recorded, size):
        puzzle = puzzles[index]
        if kind in ("unique", "adversarial"):
            result = counter.solve(puzzle, mode="count", limit=2)
            assert result.count == 1
        if kind == "multi":
            completions = count(counter, puzzle, 1000)
            assert completions >= 2
            assert recorded.fact(index, "completions") == (
                "1000+" if completions >= 1000 else str(completions)
            )
        if kind == "unsat":
            assert count(counter, puzzle, 1) == 0
        if kind == "adversarial":
            assert list(result.solution.values[:size]) == list(range(size, 0, -1))
            recorded_nodes = int(recorded.fact(index, "naive_nodes"))
            exact = "naive_nodes=" in recorded.facts[index]
            naive = naive_solve(puzzle, node_limit=min(recorded_nodes, 200_000))
            assert naive.nodes == min(recorded_nodes, 200_000)
            assert naive.finished == (exact and recorded_nodes <= 200_000)


SCALING = GENERATED / "scaling"


# The scaling study's inputs (data/generated/scaling/README.md): a cheap sample is regenerated.
SCALING_SAMPLE = ["multi50-9x9", "multi25-12x12", "multi50-30x30", "multi25-36x36"]


def test_scaling_inputs_exist_and_readme_lists_their_commands():
    readme = (SCALING / "README.md").read_text()
    for size in (4, 6, 9, 12, 16, 20, 25, 30, 36, 42, 49, 56, 64):
        for density in ("multi50", "multi25"):
            path = SCALING / f"{density}-{size}x{size}.txt"
            recorded = read_generated(path)
            assert len(recorded.puzzles) == 3
            assert f"{recorded.command} -o data/generated/scaling/{path.name}" in readme


def test_scaling_inputs_cover_every_shape_up_to_64():
    # Every N from 4 to 64 that has a box (issue 40: the study covers every shape).
    readme = (SCALING / "README.md").read_text()
    sizes = [n for n in range(4, 65) if any(n % r == 0 and r * r <= n for r in range(2, 9))]
    assert len(sizes) == 45 and 26 in sizes and 62 in sizes and 7 not in sizes
    for size in sizes:
        for density in ("multi50", "multi25"):
            path = SCALING / f"{density}-{size}x{size}.txt"
            recorded = read_generated(path)
            assert len(recorded.puzzles) == 3
            assert f"{recorded.command} -o data/generated/scaling/{path.name}" in readme
            assert f"`{path.name}`" in readme


@pytest.mark.slow
@pytest.mark.parametrize("stem", SCALING_SAMPLE)
def test_scaling_input_matches_its_command(stem):
    path = SCALING / f"{stem}.txt"
    result = CliRunner().invoke(main, ["generate", *read_generated(path).arguments])
    assert result.exit_code == 0, result.output
    assert result.stdout == path.read_text()
