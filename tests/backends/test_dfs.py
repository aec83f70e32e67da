import random
from itertools import islice

import pytest

import sudoku_cp.backends.dfs as dfs
from sudoku_cp.backends import get_backend
from sudoku_cp.grid import Grid
from sudoku_cp.result import Status

from ..conftest import ANTI_BACKTRACK, DATA, G17, naive_lexmin, random_multi_solution, shared


@pytest.fixture(scope="module")
def backend():
    return get_backend("dfs")


def test_hidden_singles_solve_hard_unique_puzzles_without_branching(backend):
    for line in (G17, ANTI_BACKTRACK):
        result = backend.solve(Grid.parse(line))
        assert result.status is Status.SOLVED and result.stats["nodes"] == 0


def test_unique_puzzle_needs_a_single_oracle_call(backend):
    assert backend.solve(Grid.parse(G17)).stats["oracle_calls"] == 1


def test_the_oracle_budget_does_not_change_the_answer(backend, monkeypatch):
    puzzles = [random_multi_solution(9, givens, seed) for seed, givens in enumerate(range(18, 30))]
    expected = [backend.solve(p).solution for p in puzzles]
    for budget in (0, 1000):
        monkeypatch.setattr(dfs, "ORACLE_BUDGET_PER_CELL", budget)
        assert [backend.solve(p).solution for p in puzzles] == expected


@pytest.mark.parametrize("seed", range(40))
def test_lexmin_equals_naive_on_random_small_grids(backend, seed):
    rng = random.Random(seed)
    size, box = rng.choice([(4, (2, 2)), (6, (2, 3)), (6, (3, 2)), (8, (2, 4))])
    puzzle = random_multi_solution(size, rng.randint(0, size * size // 3), seed, box=box)
    assert backend.solve(puzzle).solution == naive_lexmin(puzzle)


def test_propagation_finds_hidden_contradictions_without_search(backend):
    # Cell (1,1) must be 1 (its row holds 2-9) but column 1 already has a 1.
    puzzle = Grid.parse("023456789" + "0" * 36 + "100000000" + "0" * 27)
    assert naive_lexmin(puzzle) is None
    result = backend.solve(puzzle)
    assert result.status is Status.UNSATISFIABLE and result.stats["nodes"] == 0


def test_timeout_on_the_empty_64x64(backend):
    # (The empty 25x25 used to take seconds; the dive fills it in about 0.1 s.)
    result = backend.solve(Grid.empty(64), time_limit=0.2)
    assert result.status is Status.TIMEOUT and "0.2" in result.reason


def test_the_dive_does_not_change_the_answer(backend, monkeypatch):
    # A dive budget of 0 turns the dives off: the oracle-only search of before.
    puzzles = [random_multi_solution(9, givens, seed) for seed, givens in enumerate(range(8, 30))]
    puzzles += [
        random_multi_solution(16, givens, seed) for seed, givens in enumerate(range(0, 90, 15))
    ]
    puzzles += [Grid.empty(16), Grid.empty(12, box=(4, 3))]
    expected = [backend.solve(p).solution for p in puzzles]
    monkeypatch.setattr(dfs, "DIVE_NODES_PER_OPEN_CELL", 0)
    assert [backend.solve(p).solution for p in puzzles] == expected


@pytest.mark.parametrize(("size", "box"), [(25, None), (30, (6, 5)), (36, None), (36, (4, 9))])
def test_empty_grids_fill_without_a_backtrack(backend, size, box):
    # (Not every box shape: the empty 42x42 with 6x7 boxes backtracks 166 times in row 34.)
    result = backend.solve(Grid.empty(size, box=box))
    assert result.status is Status.SOLVED
    assert result.stats["backtracks"] == 0 and result.stats["oracle_calls"] == 1
    assert result.solution.values[:size] == tuple(range(1, size + 1))


def test_the_dive_from_the_top_settles_what_the_plain_search_does_not(backend, monkeypatch):
    # With no plain nodes before the look-ahead, the empty 25x25 is left to the dive from the
    # top, which must give the same lex-min as the dive below the first witness.
    expected = backend.solve(Grid.empty(25))
    monkeypatch.setattr(dfs, "SINGLES_FIRST_PER_CELL", 0)
    result = backend.solve(Grid.empty(25))
    assert result.solution == expected.solution
    assert result.stats["dives"] == 1 and result.stats["oracle_calls"] == 1


def test_a_dive_that_runs_out_leaves_its_stack_to_go_on_with():
    search = dfs._Search(Grid.empty(9), dfs.Deadline(None))
    candidates = search.initial_candidates()
    stack = [(candidates, dfs._cell_choices(0, candidates[0]))]
    assert search.dive(stack, 5) is None and stack  # out of nodes, not refuted
    solution = search.dive(stack, 10_000)
    assert solution is not None and dfs._values(solution) == naive_lexmin(Grid.empty(9)).values


def test_serg_benchmark_sample_agrees_with_naive(backend):
    lines = shared("serg_benchmark.txt").read_text().split()[:30]
    for line in lines:
        puzzle = Grid.parse(line)
        assert backend.solve(puzzle).solution == naive_lexmin(puzzle)


def test_importing_dfs_loads_no_solver():
    import subprocess
    import sys

    code = (
        "import sys, sudoku_cp.cli, sudoku_cp.backends.dfs, sudoku_cp.backends; "
        "from sudoku_cp.backends import get_backend; get_backend('dfs'); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('ortools', 'pysat')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# -- the strong propagation level (locked candidates, look-ahead on binary choices) -------------

TOP95_FIRST = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


@pytest.fixture(scope="module")
def strong():
    return get_backend("dfs", lexmin="strong")


@pytest.fixture(scope="module")
def singles():
    return get_backend("dfs", lexmin="singles")


@pytest.mark.parametrize("seed", range(40))
def test_strong_lexmin_equals_naive_on_random_small_grids(strong, seed):
    rng = random.Random(1000 + seed)
    size, box = rng.choice([(4, (2, 2)), (6, (2, 3)), (6, (3, 2)), (8, (2, 4))])
    puzzle = random_multi_solution(size, rng.randint(0, size * size // 3), seed, box=box)
    result = strong.solve(puzzle)
    assert result.solution == naive_lexmin(puzzle)
    assert result.stats["propagation"] == "strong"


def test_strong_agrees_with_singles_on_generated_16x16(strong, singles):
    # (unique #2 is left out: singles need seconds on it)
    for lines in (_generated("unique-16x16.txt")[2:8], _generated("multi-16x16.txt")[:6]):
        for line in lines:
            puzzle = Grid.parse(line)
            assert strong.solve(puzzle).solution == singles.solve(puzzle).solution, line


def test_look_ahead_cuts_the_uniqueness_proof(strong, singles):
    # unique-16x16 #37: the singles search needs thousands of nodes, the strong one a handful.
    line = _generated("unique-16x16.txt")[36]
    many, few = singles.solve(Grid.parse(line)), strong.solve(Grid.parse(line))
    assert few.solution == many.solution
    assert few.stats["nodes"] * 5 < many.stats["nodes"]


def test_auto_is_singles_below_16_and_strong_from_16(backend):
    assert backend.solve(Grid.parse(G17)).stats["propagation"] == "singles"
    assert (
        backend.solve(Grid.parse(_generated("unique-16x16.txt")[0])).stats["propagation"]
        == "strong"
    )


@pytest.mark.parametrize("mode", ["any", "count"])
def test_any_and_count_keep_the_original_search(strong, singles, mode):
    # generate.py fills grids with `any`: its answer must not depend on the level.
    for line in (TOP95_FIRST, _generated("multi-16x16.txt")[0]):
        puzzle = Grid.parse(line)
        a, b = strong.solve(puzzle, mode=mode, limit=3), singles.solve(puzzle, mode=mode, limit=3)
        assert (a.solution, a.count, a.stats) == (b.solution, b.count, b.stats)
        assert a.stats["propagation"] == "singles"


def test_strong_refutes_contradictions(strong):
    puzzle = Grid.parse("023456789" + "0" * 36 + "100000000" + "0" * 27)
    assert strong.solve(puzzle).status is Status.UNSATISFIABLE
    for line in _generated("unsat-16x16.txt")[:2]:
        assert strong.solve(Grid.parse(line)).status is Status.UNSATISFIABLE


def test_locked_candidates_point_and_claim():
    # Box 1 keeps 1 only in row 1 (pointing): 1 leaves the rest of row 1.
    # Column 9 keeps 2 only in box 9 (claiming): 2 leaves the rest of box 9.
    search = dfs._Search(Grid.empty(9), dfs.Deadline(None), strong=True)
    full = search.tables.full
    candidates = [full] * 81
    for cell in (9, 10, 11, 18, 19, 20):
        candidates[cell] &= ~1
    for row in range(6):
        candidates[row * 9 + 8] &= ~2
    decided: list[int] = []
    dirty = search.locked_candidates(candidates, decided)
    assert dirty > 0
    assert all(not candidates[cell] & 1 for cell in range(3, 9))
    assert all(candidates[cell] & 1 for cell in range(3))
    assert all(not candidates[row * 9 + col] & 2 for row in (6, 7, 8) for col in (6, 7))
    assert candidates[6 * 9 + 8] & 2
    # The dirty units are those of the changed cells: row 1 and boxes 2, 3 (pointing), box 9.
    units = search.tables.units
    changed = {index for index in range(len(units)) if dirty >> index & 1}
    assert all(any(cell in units[index] for index in changed) for cell in (3, 8, 60, 70))
    untouched_box = {27, 28, 29, 36, 37, 38, 45, 46, 47}  # box 4: none of its cells changed
    assert not any(set(units[index]) == untouched_box for index in changed)


def test_locked_candidates_report_a_contradiction():
    search = dfs._Search(Grid.empty(9), dfs.Deadline(None), strong=True)
    candidates = [search.tables.full] * 81
    for cell in (9, 10, 11, 18, 19, 20):
        candidates[cell] &= ~1  # 1 must be in row 1 within box 1 ...
    candidates[3] = 1  # ... yet cell (1, 4) can only be 1: pointing empties it
    assert search.locked_candidates(candidates, []) == -1


def test_unknown_propagation_level_is_refused():
    from sudoku_cp.errors import BackendOptionError

    with pytest.raises(BackendOptionError, match="lexmin"):
        get_backend("dfs", lexmin="clever")


def _generated(name: str) -> list[str]:
    return [
        line
        for line in (DATA / "generated" / name).read_text().splitlines()
        if line and not line.startswith("#")
    ]


# -- all-different consistency (Regin's matching rule) and the look-ahead's removals ------------


def _brute_consistent(masks):
    """The masks less every value that no assignment of distinct values to the cells allows."""
    import itertools

    size = len(masks)
    keep = [0] * size
    for values in itertools.permutations(range(size)):
        if all(masks[cell] >> value & 1 for cell, value in enumerate(values)):
            for cell, value in enumerate(values):
                keep[cell] |= 1 << value
    return tuple(keep) if any(keep) else ()


def test_consistent_removes_naked_and_hidden_pairs():
    # Cells 0 and 1 hold {1, 2} only (a naked pair): 1 and 2 leave cells 2 and 3.
    assert dfs._consistent((0b0011, 0b0011, 0b1111, 0b1111)) == (0b0011, 0b0011, 0b1100, 0b1100)
    # 3 and 4 fit only in cells 2 and 3 (a hidden pair): the rest of those cells goes.
    assert dfs._consistent((0b0011, 0b0011, 0b1111, 0b1101)) == (0b0011, 0b0011, 0b1100, 0b1100)
    # Three cells share two values: no assignment at all.
    assert dfs._consistent((0b0011, 0b0011, 0b0011, 0b1111)) == ()
    untouched = (0b1111, 0b1111, 0b1111, 0b1111)
    assert dfs._consistent(untouched) is untouched  # the same tuple: nothing to remove


def _unit_at_singles_fixpoint(rng, size):
    """Random masks of one unit, as propagation leaves them: no decided value elsewhere in the
    unit, no value with one place left. None when singles find a contradiction."""
    full = (1 << size) - 1
    masks = [rng.randrange(1, full + 1) for _ in range(size)]
    for cell in rng.sample(range(size), rng.randint(0, 2)):
        masks[cell] = 1 << rng.randrange(size)
    changed = True
    while changed:
        changed = False
        for cell, mask in enumerate(masks):
            if mask and not mask & (mask - 1):
                for other in range(size):
                    if other != cell and masks[other] & mask:
                        masks[other] &= ~mask
                        changed = True
        for value in range(size):
            places = [cell for cell in range(size) if masks[cell] >> value & 1]
            if not places or 0 in masks:
                return None
            if len(places) == 1 and masks[places[0]] != 1 << value:
                masks[places[0]] = 1 << value
                changed = True
    return tuple(masks)


@pytest.mark.parametrize("seed", range(300))
def test_consistent_equals_brute_force(seed):
    rng = random.Random(seed)
    masks = None
    while masks is None:
        masks = _unit_at_singles_fixpoint(rng, rng.randint(3, 7))
    assert dfs._consistent(masks) == _brute_consistent(masks)


def test_matching_is_used_from_25x25_only():
    deadline = dfs.Deadline(None)
    assert dfs._Search(Grid.empty(25), deadline, strong=True).matching
    assert not dfs._Search(Grid.empty(25), deadline, strong=False).matching
    assert not dfs._Search(Grid.empty(16), deadline, strong=True).matching


@pytest.mark.parametrize("seed", range(25))
def test_look_ahead_keeps_every_completion(seed):
    # The look-ahead removes failed sides and what neither side of a choice keeps (the dilemma
    # rule): no completion may lose a value it uses.
    rng = random.Random(2000 + seed)
    size, box = rng.choice([(4, (2, 2)), (6, (2, 3)), (6, (3, 2))])
    # 6x6 grids with a few givens have millions of completions: the first 3,000 are checked.
    puzzle = random_multi_solution(
        size, rng.randint(size * size // 4, size * size // 2), seed, box=box
    )
    plain = dfs._Search(puzzle, dfs.Deadline(None))
    start = plain.initial_candidates()
    assert start is not None
    completions = list(islice(plain.completions(start[:]), 3000))
    search = dfs._Search(puzzle, dfs.Deadline(None), strong=True)
    search.matching = True  # all-different consistency too, though these grids are small
    candidates = search.initial_candidates()
    assert candidates is not None
    choices = search.look_ahead(candidates)
    assert choices != []  # the puzzle has completions: the look-ahead must not refute it
    for completion in completions:
        assert all(mask & bit for mask, bit in zip(candidates, completion, strict=True))


def test_matching_cuts_the_unique_25x25_search():
    # unique-25x25 #2: the look-ahead alone needs 42 nodes to prove it unique, with matching 28.
    line = _generated("unique-25x25.txt")[1]
    with_matching = dfs._Search(Grid.parse(line), dfs.Deadline(None), strong=True)
    without = dfs._Search(Grid.parse(line), dfs.Deadline(None), strong=True)
    without.matching = False
    found = []
    for search in (with_matching, without):
        candidates = search.initial_candidates()
        assert candidates is not None
        found.append(list(search.completions(candidates)))
    assert len(found[0]) == 1 and found[0] == found[1]
    assert with_matching.nodes < without.nodes


# -- singles: the complete fixpoint, scanned (`singles`) and bit-parallel (`settle`) ------------


def _singles_fixpoint(candidates, tables):
    """Naked and hidden singles applied one at a time until nothing changes, or None."""
    masks = list(candidates)
    changed = True
    while changed:
        changed = False
        for cell, mask in enumerate(masks):
            if mask and not mask & (mask - 1):
                for peer in tables.peers[cell]:
                    if masks[peer] & mask:
                        masks[peer] &= ~mask
                        changed = True
        if 0 in masks:
            return None
        for unit in tables.units:
            for value in range(tables.size):
                places = [cell for cell in unit if masks[cell] >> value & 1]
                if not places:
                    return None
                if len(places) == 1 and masks[places[0]] != 1 << value:
                    masks[places[0]] = 1 << value
                    changed = True
    return masks


def _two_values_one_cell(candidates, tables):
    """Whether some unit has an open cell that is the only place of two of its values."""
    for unit in tables.units:
        for cell in unit:
            mask = candidates[cell]
            alone = [
                value
                for value in range(tables.size)
                if mask >> value & 1
                and not any(candidates[other] >> value & 1 for other in unit if other != cell)
            ]
            if len(alone) >= 2:
                return True
    return False


def test_settle_refutes_a_cell_that_is_the_one_place_of_two_values():
    # Row 0 of a 4x4 (the rest open): once 1 leaves cell 1 and 2 leaves cell 2, values 1 and 2
    # fit only in cell 0, which can take one of them. settle() refutes it; singles() leaves it
    # to the search (its docstring says why), whose two children of cell 0 both fail.
    search = dfs._Search(Grid.empty(4), dfs.Deadline(None))
    start = [0b0011, 0b1101, 0b1110, 0b1100] + [0b1111] * 12
    removals = [(1, 0b0001), (2, 0b0010)]
    assert search.settle(start, dfs._places(start, 4), removals) is None
    narrowed = [0b0011, 0b1100, 0b1100, 0b1100] + [0b1111] * 12
    assert _two_values_one_cell(narrowed, search.tables)
    assert search.singles(narrowed, [], (1 << len(search.tables.units)) - 1)
    assert search.assume(narrowed, 0, 0b0001) is None
    assert search.assume(narrowed, 0, 0b0010) is None


@pytest.mark.parametrize("seed", range(60))
def test_settle_and_singles_reach_the_same_fixpoint(seed):
    # Random removals from a propagated multi-solution grid, some of them contradictory (8 of
    # the 60): the bit-parallel `settle` and the scanning `singles` both reach the one fixpoint
    # of the rules, or both refute it (`singles` may leave one kind of contradiction open).
    rng = random.Random(3000 + seed)
    size, box = rng.choice([(4, (2, 2)), (6, (2, 3)), (9, (3, 3)), (16, (4, 4))])
    puzzle = random_multi_solution(
        size, rng.randint(size * size // 5, size * size // 2), seed, box=box
    )
    search = dfs._Search(puzzle, dfs.Deadline(None), strong=True)
    start = _singles_fixpoint(search.initial_candidates(), search.tables)
    assert start is not None
    places = dfs._places(start, size)
    assert places == [
        sum(1 << cell for cell, mask in enumerate(start) if mask >> value & 1)
        for value in range(size)
    ]
    open_cells = [cell for cell, mask in enumerate(start) if mask & (mask - 1)]
    removals = []
    for cell in rng.sample(open_cells, min(len(open_cells), rng.randint(1, 4))):
        mask = start[cell]
        if rng.random() < 0.5:
            removals.append((cell, mask & -mask))  # one value leaves the cell
        else:
            keep = 1 << rng.choice([value for value in range(size) if mask >> value & 1])
            removals.append((cell, mask & ~keep))  # the cell is set to one value
    narrowed = start[:]
    for cell, bits in removals:
        narrowed[cell] &= ~bits
    expected = None if 0 in narrowed else _singles_fixpoint(narrowed, search.tables)
    settled = search.settle(start, places, removals)
    if expected is None:
        assert settled is None
    else:
        assert settled is not None
        assert settled[0] == expected and settled[1] == dfs._places(expected, size)
    scanned = narrowed[:]
    every_unit = (1 << len(search.tables.units)) - 1
    decided = [cell for cell, mask in enumerate(scanned) if mask and not mask & (mask - 1)]
    holds = 0 not in narrowed and search.singles(scanned, decided, every_unit)
    if expected is not None:
        assert holds and scanned == expected
    else:  # refuted, or stopped at the one contradiction singles() leaves to the search
        assert not holds or _two_values_one_cell(scanned, search.tables)
    assert start == _singles_fixpoint(start, search.tables)  # settle works on copies


def _reference_completions(search, candidates):
    """The MRV search with values ascending, each child propagated by `assume` (the scanning
    singles): the order that the bit-parallel plain search must keep."""
    stack = [candidates]
    while stack:
        node = stack.pop()
        cell = search.most_constrained(node)
        if cell < 0:
            yield node
            continue
        # _cell_choices lists the largest value first: pushed in that order, the smallest is
        # popped first.
        for _, bit in dfs._cell_choices(cell, node[cell]):
            child = search.assume(node, cell, bit)
            if child is not None:
                stack.append(child)


@pytest.mark.parametrize("seed", range(30))
def test_plain_search_keeps_the_scanning_search_order(seed):
    # `any` must keep its completion (the generated data sets depend on it), and count its
    # completions in the same order: the bit-parallel `settle` must reach the fixpoint of
    # `singles` at every node that has a completion.
    rng = random.Random(seed)
    size, box = rng.choice([(4, (2, 2)), (6, (2, 3)), (9, (3, 3)), (9, (3, 3)), (12, (3, 4))])
    puzzle = random_multi_solution(size, rng.randint(size, size * size // 3), seed, box=box)
    search = dfs._Search(puzzle, dfs.Deadline(None))
    candidates = search.initial_candidates()
    assert candidates is not None
    expected = list(islice(_reference_completions(search, candidates), 25))
    assert list(islice(search.completions(candidates), 25)) == expected
