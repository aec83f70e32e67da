"""generate.kinds: the multi, unsat and adversarial kinds, each puzzle with the property of its
kind; and the run: the same seed gives the same puzzles, a shorter run a prefix of a longer one."""

from __future__ import annotations

import pytest

from sudoku_cp.generate import Kind, generate, make_request, parse_givens_range
from sudoku_cp.naive import naive_solve

from .conftest import count, made


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


@pytest.mark.parametrize("kind", [str(kind) for kind in Kind])
def test_same_seed_same_puzzles_other_seed_other_puzzles(kind):
    def lines(seed: int) -> list[str]:
        return [g.puzzle.to_line() for g in made(kind, 6, "9..14", seed=seed, count=4)]

    assert lines(3) == lines(3)
    assert lines(3) != lines(4)


def test_a_shorter_run_is_a_prefix_of_a_longer_one():
    five = made("multi", 9, "25..35", seed=5, count=5)
    assert made("multi", 9, "25..35", seed=5, count=2) == five[:2]
