from sudoku_cp.backends.dfs.propagation import Propagation
from sudoku_cp.grid import Grid


def test_matching_is_used_from_25x25_only():
    assert Propagation(Grid.empty(25), strong=True).matching
    assert not Propagation(Grid.empty(25), strong=False).matching
    assert not Propagation(Grid.empty(16), strong=True).matching


def test_initial_candidates_keep_the_givens_and_refute_contradictions():
    propagation = Propagation(Grid.parse("023456789" + "0" * 72))
    candidates = propagation.initial_candidates()
    assert candidates is not None and candidates[0] == 1  # the naked single of row 1
    contradiction = Grid.parse("023456789" + "0" * 36 + "100000000" + "0" * 27)
    assert Propagation(contradiction).initial_candidates() is None
