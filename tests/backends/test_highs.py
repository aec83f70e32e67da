"""The highs backend: what the contract suite does not check (each lex-min method on each
encoding runs it, in test_backend_contract.py): both methods give the lex-min by their own
means (the stats say how many MIPs), the staged loop's skips, the banner HiGHS prints kept off
standard output, the options."""

from __future__ import annotations

import subprocess
import sys

import pytest

from sudoku_cp.backends import backend_class, get_backend
from sudoku_cp.errors import BackendOptionError
from sudoku_cp.grid import Grid
from sudoku_cp.result import Mode, Status
from sudoku_cp.testing.puzzles import EMPTY_9_LEXMIN

from ..conftest import BAEKJOON_2239

pytestmark = pytest.mark.skipif(
    not backend_class("highs").is_available(), reason="needs highspy (pip install highspy)"
)


@pytest.mark.parametrize("method", ["staged", "tightening"])
def test_each_method_finds_the_lexmin_of_the_empty_grid(method):
    with get_backend("highs", lexmin=method) as backend:
        result = backend.solve(Grid.empty(9), time_limit=120)
    assert result.status is Status.SOLVED
    assert result.solution.to_line() == EMPTY_9_LEXMIN
    assert result.stats["lexmin"] == method and result.stats["mip_runs"] >= 1


def test_staged_runs_one_mip_per_cell_it_cannot_skip():
    with get_backend("highs", lexmin="staged") as backend:
        result = backend.solve(Grid.empty(4))
    stats = result.stats
    # 16 blanks: each one either skipped (the last solution's value is forced) or a MIP.
    assert stats["oracle_skipped"] + stats["oracle_calls"] - 1 == 16
    assert stats["mip_runs"] == stats["oracle_calls"]


def test_auto_is_the_measured_default_and_encodings_agree():
    from sudoku_cp.backends.highs import AUTO_LEXMIN

    puzzle = Grid.parse(BAEKJOON_2239)
    with get_backend("highs") as backend:
        assert backend.lexmin == AUTO_LEXMIN
        default = backend.solve(puzzle, mode=Mode.COUNT, limit=2)
    with get_backend("highs", encoding="minimal") as backend:
        minimal = backend.solve(puzzle, mode=Mode.COUNT, limit=2)
    assert (default.count, minimal.count) == (1, 1)
    assert default.solution == minimal.solution


def test_the_highs_banner_stays_off_standard_output():
    script = (
        "from sudoku_cp.backends import get_backend; from sudoku_cp.grid import Grid\n"
        "get_backend('highs').solve(Grid.empty(4))\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert run.stdout == ""


def test_unknown_options_are_refused():
    with pytest.raises(BackendOptionError, match="lexmin"):
        get_backend("highs", lexmin="objective")
    with pytest.raises(BackendOptionError, match="encoding"):
        get_backend("highs", encoding="pairwise")
