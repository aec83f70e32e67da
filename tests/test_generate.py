import functools
import io
import json
import random
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

import sudoku_cp.cli.generate as cli
from sudoku_cp import __version__
from sudoku_cp.backends import backend_class, get_backend
from sudoku_cp.cli import main
from sudoku_cp.errors import GridShapeError
from sudoku_cp.generate import (
    CompletionCounter,
    Effort,
    GenerateError,
    GivensRange,
    Kind,
    Request,
    UniquenessChecks,
    command_line,
    counting_backend_name,
    exchange_givens,
    generate,
    is_forced,
    make_request,
    parse_givens_range,
    random_completed_grid,
    remove_givens_while_unique,
    shuffle_grid,
    swap_cycles,
)
from sudoku_cp.grid import BLANK, Grid
from sudoku_cp.naive import naive_solve
from sudoku_cp.progress import Progress
from sudoku_cp.result import Mode

from .conftest import DATA, EMPTY_9_LEXMIN

GENERATED = DATA / "generated"


def usable(name: str) -> bool:
    try:
        return backend_class(name).is_available()
    except ImportError:
        return False


@pytest.fixture(scope="module")
def dfs():
    with get_backend("dfs") as backend:
        yield backend


@pytest.fixture(scope="module")
def second():
    """A second backend, independent of dfs, to confirm that unsat puzzles have no completion."""
    for name in ("sat", "cpsat"):
        if usable(name):
            with get_backend(name) as backend:
                yield backend
            return
    pytest.skip("need python-sat or ortools for a second backend")


@pytest.fixture(scope="module")
def big_counter(dfs):
    """The counter for 16x16 and 25x25 checks: sat (dfs needs minutes on some 25x25 counts)."""
    if not usable("sat"):
        yield None
        return
    with get_backend("sat") as backend:
        yield backend


def count(backend, puzzle: Grid, limit: int) -> int:
    return backend.solve(puzzle, mode="count", limit=limit).count


def made(kind: str, size: int, givens: str, *, seed: int = 7, count: int = 4, box=None):
    return list(
        generate(make_request(kind, size=size, box=box, givens=givens, seed=seed, count=count))
    )


# -- the kinds ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "size, givens, box",
    [(4, "4..8", None), (6, "9..16", None), (6, "9..16", (3, 2)), (9, "22..32", None)],
)
def test_unique_puzzles_have_one_completion(dfs, size, givens, box):
    for generated in made("unique", size, givens, box=box):
        assert count(dfs, generated.puzzle, 2) == 1
        assert generated.solution.is_solution_of(generated.puzzle)
        assert generated.puzzle.box == generated.solution.box == (box or generated.puzzle.box)
        assert not generated.puzzle.conflicts()
        assert generated.completions == 1


def test_unique_stops_at_a_minimal_puzzle_when_the_range_is_too_low(dfs):
    for generated in made("unique", 9, "0..5", count=2):
        assert generated.givens > 5  # no 9x9 puzzle with 5 givens is unique
        for cell in generated.puzzle.givens():  # every given is needed
            assert count(dfs, generated.puzzle.with_values({cell: 0}), 2) == 2


@pytest.mark.parametrize("size, givens", [(4, "4..8"), (6, "9..20"), (9, "20..45")])
def test_multi_puzzles_have_at_least_two_completions(dfs, size, givens):
    for generated in made("multi", size, givens, count=6):
        completions = count(dfs, generated.puzzle, 1000)
        assert completions >= 2
        assert (generated.completions, generated.completions_capped) == (
            completions,
            completions >= 1000,
        )
        assert generated.givens in parse_givens_range(givens, size=size)


def test_multi_keeps_many_givens_when_asked(dfs):
    # A swap cycle is left blank, so even 70 givens of 81 leave two completions.
    for generated in made("multi", 9, "70..70", count=3):
        assert generated.givens == 70
        assert count(dfs, generated.puzzle, 1000) == generated.completions >= 2


@pytest.mark.parametrize("size, givens", [(4, "4..8"), (6, "9..16"), (9, "22..32")])
def test_unsat_puzzles_have_no_completion_by_two_backends(dfs, second, size, givens):
    for generated in made("unsat", size, givens, count=5):
        assert generated.puzzle.conflicts() == []  # no two equal givens in any unit
        assert count(dfs, generated.puzzle, 1) == 0
        assert count(second, generated.puzzle, 1) == 0
        assert generated.completions == 0 and generated.solution is None


@pytest.mark.parametrize("size, givens", [(4, "4..6"), (6, "9..12"), (9, "20..25")])
def test_adversarial_puzzles_are_unique_with_first_row_n_to_1(dfs, size, givens):
    for generated in made("adversarial", size, givens, count=2):
        assert count(dfs, generated.puzzle, 2) == 1
        assert generated.solution.is_solution_of(generated.puzzle)
        assert list(generated.solution.values[:size]) == list(range(size, 0, -1))
        naive = naive_solve(generated.puzzle, node_limit=2_000_000)
        assert (naive.nodes, naive.finished) == (generated.naive_nodes, generated.naive_finished)
        if naive.finished:
            assert naive.solution == generated.solution


def test_adversarial_beats_the_plain_unique_puzzle():
    # The same unique puzzles (same seed), before relabelling, cost the naive DFS far less.
    plain = made("unique", 9, "20..25", seed=11, count=3)
    hard = made("adversarial", 9, "20..25", seed=11, count=3)
    assert [p.givens for p in plain] == [h.givens for h in hard]
    plain_nodes = sum(naive_solve(p.puzzle, node_limit=2_000_000).nodes for p in plain)
    assert sum(h.naive_nodes for h in hard) > 5 * plain_nodes


# -- determinism ----------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", [str(kind) for kind in Kind])
def test_same_seed_same_puzzles_other_seed_other_puzzles(kind):
    def lines(seed: int) -> list[str]:
        return [g.puzzle.to_line() for g in made(kind, 6, "9..14", seed=seed, count=4)]

    assert lines(3) == lines(3)
    assert lines(3) != lines(4)


def test_a_shorter_run_is_a_prefix_of_a_longer_one():
    five = made("multi", 9, "25..35", seed=5, count=5)
    assert made("multi", 9, "25..35", seed=5, count=2) == five[:2]


def test_on_count_reports_each_completion_count_and_changes_nothing():
    # The progress hook within a puzzle: called after every count with the running total.
    request = make_request("unique", size=9, givens="22..28", seed=2, count=2)
    calls: list[int] = []
    reported = list(generate(request, counter_name="dfs", on_count=calls.append))
    assert reported == list(generate(request, counter_name="dfs"))
    assert len(calls) > 20 and calls == list(range(1, len(calls) + 1))


def test_the_counting_backend_changes_nothing_but_speed():
    if not usable("sat"):
        pytest.skip("need python-sat")
    request = make_request("unique", size=9, givens="22..28", seed=2, count=3)
    assert list(generate(request, counter_name="dfs")) == list(
        generate(request, counter_name="sat")
    )


def test_counting_backend_per_size():
    assert counting_backend_name(9) == "dfs"
    assert counting_backend_name(16) == ("sat" if usable("sat") else "dfs")


def test_counting_falls_back_to_dfs_without_sat(monkeypatch, caplog):
    monkeypatch.setattr("sudoku_cp.generate.counting.sat_backend_usable", lambda: False)
    assert counting_backend_name(25) == "dfs"
    assert "counting 25x25 completions with dfs" in caplog.text


# -- building blocks ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "size, box", [(4, None), (6, (2, 3)), (6, (3, 2)), (9, None), (16, None), (25, None)]
)
def test_random_completed_grids_are_full_and_valid(size, box):
    rng = random.Random(size)
    grids = {random_completed_grid(rng, size, box=box) for _ in range(3)}
    assert len(grids) == 3
    for grid in grids:
        assert grid.is_complete() and grid.conflicts() == []
        assert grid.box == Grid.empty(size, box=box).box


def test_shuffle_keeps_a_grid_valid_and_a_puzzle_unique(dfs):
    rng = random.Random(1)
    full = random_completed_grid(rng, 9)
    assert shuffle_grid(full, rng).conflicts() == []
    puzzle = made("unique", 9, "24..28", count=1)[0].puzzle
    assert count(dfs, shuffle_grid(puzzle, rng), 2) == 1


def test_swapping_a_cycle_gives_another_completed_grid():
    full = random_completed_grid(random.Random(3), 9)
    for first, second in [(1, 2), (3, 7), (5, 9)]:
        cycles = swap_cycles(full, first, second)
        assert sorted(cell for cycle in cycles for cell in cycle) == sorted(
            cell for cell, value in enumerate(full.values) if value in (first, second)
        )
        for cycle in cycles:
            swapped = full.with_values({cell: first + second - full.values[cell] for cell in cycle})
            assert swapped != full and swapped.conflicts() == []


def test_a_forced_given_is_recognised():
    full = list(random_completed_grid(random.Random(4), 4).values)
    geometry = Grid.empty(4).geometry
    assert is_forced(full, 0, geometry.peers[0], 4)  # a full grid forces every cell
    assert not is_forced([0] * 16, 0, geometry.peers[0], 4)


@pytest.mark.parametrize(
    "text, low, high", [("24..30", 24, 30), ("25", 25, 25), (" 0..81 ", 0, 81)]
)
def test_parse_givens_range(text, low, high):
    assert parse_givens_range(text, size=9) == GivensRange(low, high)


@pytest.mark.parametrize(
    "text, message",
    [
        ("30..20", "the low end 30 is above the high end 20"),
        ("10..82", "a 9x9 grid has only 81 cells"),
        ("a..b", "expected givens as A..B"),
        ("-1..5", "expected givens as A..B"),
        ("", "expected givens as A..B"),
    ],
)
def test_bad_givens_range(text, message):
    with pytest.raises(GenerateError, match=re.escape(message)):
        parse_givens_range(text, size=9)


def test_make_request_checks_kind_size_and_count():
    with pytest.raises(GenerateError, match="unknown kind 'easy'"):
        make_request("easy", size=9, seed=0)
    with pytest.raises(GridShapeError, match="prime"):
        make_request("unique", size=7, seed=0)
    with pytest.raises(GenerateError, match="count"):
        make_request("unique", size=9, seed=0, count=0)
    request = make_request("unique", size=6, seed=0)
    assert (request.box, request.givens) == ((2, 3), GivensRange(9, 16))


def test_command_line_names_a_non_default_box_only():
    assert command_line(Request(Kind.UNSAT, 6, (3, 2), GivensRange(9, 16), 3, 2)) == (
        "sudoku-cp generate --kind unsat --size 6 --box 3x2 --count 2 --givens 9..16 --seed 3"
    )
    assert "--box" not in command_line(Request(Kind.UNSAT, 6, (2, 3), GivensRange(9, 16), 3))


# -- the command line -----------------------------------------------------------------------------


def invoke(*args: str):
    return CliRunner().invoke(main, ["generate", *args])


def test_cli_line_format_exact_output():
    result = invoke(
        "--size", "4", "--count", "2", "--givens", "5..6", "--kind", "unique", "--seed", "9"
    )
    assert result.exit_code == 0, result.output
    puzzles = made("unique", 4, "5..6", seed=9, count=2)
    assert result.stdout == "\n".join(
        [
            "# sudoku-cp generate --kind unique --size 4 --count 2 --givens 5..6 --seed 9",
            f"# sudoku-cp {__version__}: the same command and version give the same puzzles",
            "# unique: exactly one completion; givens removed at random while it stays unique",
            "# each puzzle line (N*N symbols, 0 blank) follows a comment with its facts",
            f"# 1: givens={puzzles[0].givens} completions=1",
            puzzles[0].puzzle.to_line(),
            f"# 2: givens={puzzles[1].givens} completions=1",
            puzzles[1].puzzle.to_line(),
            f"# 2 puzzles, givens {min(p.givens for p in puzzles)}.."
            f"{max(p.givens for p in puzzles)}"
            f" (mean {sum(p.givens for p in puzzles) / 2:.1f})",
            "",
        ]
    )
    assert result.stderr == ""


def test_cli_shows_progress_within_a_puzzle(monkeypatch):
    # On a terminal, the display moves with every completion count, not only per puzzle (a
    # sparse 25x25 puzzle can take minutes).
    screen = io.StringIO()
    monkeypatch.setattr(
        cli, "Progress", functools.partial(Progress, stream=screen, enabled=True, interval=0)
    )
    result = invoke("--size", "9", "--givens", "22..28", "--seed", "2")
    assert result.exit_code == 0
    assert "\rgenerate unique 0 " in screen.getvalue()
    assert re.search(r"\(removing givens, \d+ left; 1 solver question \(", screen.getvalue())
    assert re.search(r"; 2 solver questions \(\d+\.\d s\); filling ", screen.getvalue())


def test_cli_output_is_readable_by_solve(tmp_path):
    target = tmp_path / "multi.txt"
    assert (
        invoke(
            "--size", "6", "--count", "3", "--kind", "multi", "--seed", "1", "-o", str(target)
        ).exit_code
        == 0
    )
    result = CliRunner().invoke(main, ["solve", "--mode", "count", "--limit", "1000", str(target)])
    facts = [line for line in target.read_text().splitlines() if re.match(r"# \d+:", line)]
    counts = [re.search(r"completions=(\d+)", line).group(1) for line in facts]
    assert result.exit_code == 0
    assert [line.rstrip("+") for line in result.stdout.splitlines()] == counts


def test_cli_jsonl_fields():
    result = invoke(
        "--size",
        "9",
        "--count",
        "2",
        "--kind",
        "adversarial",
        "--givens",
        "22..26",
        "--seed",
        "3",
        "--format",
        "jsonl",
    )
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["index"] for r in records] == [0, 1]
    first = records[0]
    assert {
        "kind",
        "size",
        "box",
        "seed",
        "puzzle",
        "solution",
        "givens",
        "completions",
        "naive_nodes",
        "naive_finished",
        "version",
        "command",
    } <= set(first)
    assert (first["kind"], first["size"], first["box"], first["completions"]) == (
        "adversarial",
        9,
        "3x3",
        1,
    )
    assert first["solution"].startswith("987654321")
    assert first["command"] == (
        "sudoku-cp generate --kind adversarial --size 9 --count 2 --givens 22..26 --seed 3"
    )
    assert Grid.parse(first["solution"]).is_solution_of(Grid.parse(first["puzzle"]))


def test_cli_unsat_multi_comments():
    result = invoke("--size", "4", "--kind", "multi", "--count", "1", "--givens", "4")
    assert re.search(r"^# 1: givens=4 completions=\d+$", result.stdout, re.M)
    result = invoke("--size", "4", "--kind", "unsat", "--count", "1")
    assert re.search(r"^# 1: givens=\d+ completions=0$", result.stdout, re.M)


def test_cli_notes_puzzles_outside_the_range():
    result = invoke("--size", "4", "--count", "2", "--givens", "0..1")
    assert result.exit_code == 0
    assert (
        result.stderr == "Note: 2 of 2 puzzles stopped at a minimal puzzle outside --givens 0..1.\n"
    )
    assert "2 outside 0..1 (stopped at a minimal puzzle)" in result.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (["--givens", "30..20"], "Error: givens 30..20: the low end 30 is above the high end 20"),
        (["--size", "7"], "Error: no box shape fits size 7 (it is prime)"),
        (["--size", "6", "--box", "2x2"], "Error: a 2x2 box does not fit a 6x6 grid"),
        (["--box", "3by3"], "Error: expected a box shape like 2x3, got '3by3'"),
        (
            ["--count", "0"],
            "Error: Invalid value for '--count': 0 is not in the range x>=1. "
            "(see sudoku-cp generate --help)",
        ),
        (["--givens", "x"], "Error: expected givens as A..B (e.g. 24..30), got 'x'"),
        (["--size", "4", "--givens", "17"], "Error: givens 17: a 4x4 grid has only 16 cells"),
    ],
)
def test_cli_bad_options_one_line_exit_2(args, message):
    result = invoke(*args)
    assert result.exit_code == 2
    assert result.stderr == message + "\n"
    assert result.stdout == ""


def test_cli_kind_choices_are_the_library_kinds():
    """The `--kind` choices are read from the click command, so a kind added to `Kind` but
    not to the CLI (or the other way round) fails here."""
    (option,) = [param for param in main.commands["generate"].params if param.name == "kind"]
    choices = list(option.type.choices)
    assert choices == [kind.value for kind in Kind]
    assert option.default == Kind.UNIQUE.value
    result = invoke("--kind", "easy")
    assert result.exit_code == 2
    assert ", ".join(repr(choice) for choice in choices) in result.stderr


# -- the data files -------------------------------------------------------------------------------


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


# -- sizes above 25x25: pattern fill, swap walk, the count the construction proves -----------


@pytest.mark.parametrize("size", [4, 6, 9, 12, 20, 30, 36])
def test_pattern_grid_is_complete_and_valid(size):
    from sudoku_cp.generate import pattern_grid

    grid = pattern_grid(size)
    assert is_full(grid) and not grid.conflicts()


def is_full(grid):
    return 0 not in grid.values


def test_swap_walk_keeps_the_grid_valid_and_moves_it():
    from sudoku_cp.generate import pattern_grid, swap_walk

    start = pattern_grid(12)
    walked = swap_walk(start, random.Random(3), steps=50)
    assert is_full(walked) and not walked.conflicts()
    assert walked != start
    assert swap_walk(start, random.Random(3), steps=50) == walked  # same seed, same grid


def test_big_multi_is_fast_counts_to_two_by_construction_and_is_reproducible():
    from sudoku_cp.generate import multi_solution_limit

    assert multi_solution_limit(25) == 1000 and multi_solution_limit(36) == 2
    request = make_request("multi", size=36, givens="300..320", seed=5, count=2)
    first = list(generate(request, counter_name="dfs"))
    again = list(generate(request, counter_name="dfs"))
    assert [p.puzzle for p in first] == [p.puzzle for p in again]
    for generated in first:
        assert generated.completions == 2 and generated.completions_capped
        assert 300 <= generated.givens <= 320 and not generated.puzzle.conflicts()


def test_swapped_twin_is_a_second_completion():
    from sudoku_cp.generate import smallest_swap_cycle, swapped

    solution = random_completed_grid(random.Random(4), 30)
    cycle = smallest_swap_cycle(solution, random.Random(4))
    twin = swapped(solution, cycle)
    assert twin != solution and not twin.conflicts() and 0 not in twin.values
    assert sum(a != b for a, b in zip(solution.values, twin.values, strict=True)) == len(cycle)


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


# -- the removal's questions on a kept SAT solver, and the exchange search below a minimal puzzle


def minimal_puzzle(size, seed, checks, filler):
    """(solution, values, witnesses, rng): a random removal down to a minimal puzzle."""
    rng = random.Random(seed)
    solution = random_completed_grid(rng, size, filler=filler)
    values, witnesses = remove_givens_while_unique(solution, rng, checks, target=0)
    return solution, values, witnesses, rng


def assert_minimal_and_unique(values, solution, dfs):
    """One completion, the known one; and every given is needed (without it, two or more)."""
    puzzle = Grid(tuple(values), solution.box)
    result = dfs.solve(puzzle, mode=Mode.COUNT, limit=2)
    assert result.count == 1
    assert dfs.solve(puzzle, mode=Mode.LEXMIN).solution == solution
    for cell in puzzle.givens():
        without = list(values)
        without[cell] = BLANK
        assert dfs.solve(Grid(tuple(without), solution.box), mode=Mode.COUNT, limit=2).count == 2


@pytest.fixture
def sat_checks():
    if not usable("sat"):
        pytest.skip("the sat backend is not installed")
    with get_backend("sat") as sat:
        checks = UniquenessChecks(CompletionCounter(sat), use_sat=True)
        yield checks
        checks.close()


@pytest.mark.parametrize("seed", range(4))
def test_witnesses_only_skip_questions_they_answer(dfs, sat_checks, seed):
    # Every refused removal keeps a witness: the cells where another completion differs. The
    # exchange search skips a given whose witness holds no new given, so a wrong skip would leave
    # a given that can go; the final puzzle must be minimal, checked here by dfs alone.
    solution, values, witnesses, rng = minimal_puzzle(9, seed, sat_checks, dfs)
    assert sorted(witnesses) == [cell for cell, value in enumerate(values) if value != BLANK]
    for cell, witness in witnesses.items():  # the other completion differs at the cell itself
        assert cell in witness
        assert all(values[other] == BLANK for other in witness - {cell})
    exchange_givens(solution, values, witnesses, rng, sat_checks, target=0, moves=81)
    assert_minimal_and_unique(values, solution, dfs)
    for cell, witness in witnesses.items():  # still the witness of a second completion
        assert cell in witness and all(values[other] == BLANK for other in witness - {cell})


def test_exchange_goes_below_a_minimal_16x16(dfs, second, sat_checks):
    # Random removal ends near 93 givens on every 16x16 grid; the exchange search keeps the
    # puzzle unique and goes lower (95 -> 89 on this seed).
    solution, values, witnesses, rng = minimal_puzzle(16, 0, sat_checks, dfs)
    minimal = sum(value != BLANK for value in values)
    exchange_givens(solution, values, witnesses, rng, sat_checks, target=0, moves=256)
    assert sum(value != BLANK for value in values) < minimal
    puzzle = Grid(tuple(values), solution.box)
    assert second.solve(puzzle, mode=Mode.COUNT, limit=2).count == 1  # dfs takes seconds here


def test_the_sat_questions_give_the_counters_puzzle(dfs, sat_checks):
    # The witnesses and the kept solver change the speed only: asking every question as a count
    # up to 2 (no witness) makes the same puzzle from the same seed.
    solution, by_sat, sat_witnesses, rng = minimal_puzzle(9, 5, sat_checks, dfs)
    exchange_givens(solution, by_sat, sat_witnesses, rng, sat_checks, target=0, moves=81)
    counted = UniquenessChecks(CompletionCounter(dfs), use_sat=False)
    solution_again, by_count, witnesses, rng = minimal_puzzle(9, 5, counted, dfs)
    assert solution_again == solution
    exchange_givens(solution, by_count, witnesses, rng, counted, target=0, moves=81)
    assert by_count == by_sat
    assert sat_checks.counter.calls < counted.counter.calls  # the witnesses saved questions


def test_a_sparse_16x16_run_is_deterministic_and_unique(second):
    # Through generate(): the range lies below random removal's minimal puzzles, so the exchange
    # search runs; the same seed gives the same puzzle, and it has one completion.
    if not usable("sat"):
        pytest.skip("the sat backend is not installed")
    request = make_request("unique", size=16, givens="87..89", seed=1, count=1)
    seen: list[str] = []
    first = list(generate(request, on_progress=lambda effort: seen.append(effort.note())))
    again = list(generate(request))
    assert [p.puzzle for p in first] == [p.puzzle for p in again]
    (made,) = first
    assert second.solve(made.puzzle, mode=Mode.COUNT, limit=2).count == 1
    assert made.givens in request.givens
    assert any(note.startswith("exchanging givens") for note in seen)
    assert re.search(r"\d+ solver questions \(\d+\.\d s\); filling \d+\.\d s", seen[-1])


def test_effort_names_the_phase_and_the_time_spent():
    effort = Effort()
    effort.enter("removing", givens=300)
    effort.questions, effort.question_seconds = 3, 1.25
    note = effort.note()
    assert note.startswith("removing givens, 300 left; 3 solver questions (1.2 s); filling ")
    assert "removing " in note


def test_ctrl_c_during_a_uniqueness_question_is_a_keyboard_interrupt(sat_checks, monkeypatch):
    # python-sat's C solvers catch SIGINT during a call and raise `pysolvers.error: Caught
    # keyboard interrupt`; the question hands it on as KeyboardInterrupt, which the CLI ends
    # with one line and exit 130 (it was a traceback and exit 1).
    import pysolvers

    solution = Grid.parse(EMPTY_9_LEXMIN)
    sat_checks.start(solution)

    def interrupted(*args, **kwargs):
        raise pysolvers.error("Caught keyboard interrupt")

    monkeypatch.setattr(sat_checks._solver, "solve", interrupted)
    with pytest.raises(KeyboardInterrupt):
        sat_checks.alternative(list(solution.values), 0)

    def failed(*args, **kwargs):
        raise RuntimeError("out of memory")

    monkeypatch.setattr(sat_checks._solver, "solve", failed)
    with pytest.raises(RuntimeError, match="out of memory"):  # any other error stays itself
        sat_checks.alternative(list(solution.values), 0)
