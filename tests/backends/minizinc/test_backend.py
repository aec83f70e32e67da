"""The minizinc backend: what the contract suite (test_backend_contract.py) does not check: the
solver option (any solver the driver lists, an unknown one refused in one line), the missing
driver named with what to install, the lex-min refused to a solver that ignores the search, the
stats, and the lex-min argument in `sudoku-cp backends minizinc`."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from sudoku_cp.backends import backend_class, get_backend
from sudoku_cp.cli import main
from sudoku_cp.errors import BackendFailure, BackendOptionError, BackendUnavailableError
from sudoku_cp.grid import Grid
from sudoku_cp.result import Mode, Status

from ...conftest import BAEKJOON_2239, BAEKJOON_2239_ANSWER

pytestmark = pytest.mark.skipif(
    not backend_class("minizinc").is_available(),
    reason="needs minizinc (pip install minizinc; apt-get install minizinc)",
)


def test_the_default_solver_is_gecode_and_the_stats_name_it():
    with get_backend("minizinc") as backend:
        result = backend.solve(Grid.parse(BAEKJOON_2239), time_limit=60)
    assert result.status is Status.SOLVED
    assert result.solution.to_line() == BAEKJOON_2239_ANSWER
    assert result.stats["solver"] == "gecode" and result.stats["nodes"] >= 1


def test_a_solver_the_driver_lists_is_taken_by_id_or_tag():
    from sudoku_cp.backends.minizinc import solver_names

    assert {"gecode", "org.gecode.gecode"} <= set(solver_names())
    with get_backend("minizinc", solver="org.gecode.gecode") as backend:
        result = backend.solve(Grid.parse(BAEKJOON_2239), mode=Mode.COUNT, limit=2)
    assert (result.status, result.count) == (Status.SOLVED, 1)


def test_an_unknown_solver_is_one_line_and_exit_2():
    with pytest.raises(BackendOptionError, match="MiniZinc has no solver 'nosuch'.*gecode"):
        get_backend("minizinc", solver="nosuch")
    result = CliRunner().invoke(
        main, ["solve", "-b", "minizinc[solver=nosuch]", "-"], input=BAEKJOON_2239
    )
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: ") and len(result.stderr.splitlines()) == 1
    assert "minizinc --solvers lists" in result.stderr


def test_a_missing_driver_names_what_to_install(monkeypatch):
    import shutil

    monkeypatch.setattr(shutil, "which", lambda name, *args, **kwargs: None)
    with pytest.raises(BackendUnavailableError, match="apt-get install minizinc"):
        get_backend("minizinc")
    result = CliRunner().invoke(main, ["solve", "-b", "minizinc", "-"], input=BAEKJOON_2239)
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 1 and "apt-get install minizinc" in result.stderr
    from sudoku_cp.testing.suite import _unavailable

    skip = _unavailable(backend_class("minizinc"))  # the contract suite's one skip line
    assert skip is not None and "\n" not in skip and "apt-get install minizinc" in skip


def test_the_lexmin_is_refused_to_a_solver_that_ignores_the_search(monkeypatch):
    from sudoku_cp.backends.minizinc import backend as module

    monkeypatch.setattr(module, "ANNOTATION_SOLVERS", ("chuffed",))
    with get_backend("minizinc") as backend:
        with pytest.raises(BackendFailure, match="cannot give the lex-min"):
            backend.solve(Grid.parse(BAEKJOON_2239))
        assert backend.solve(Grid.parse(BAEKJOON_2239), mode=Mode.ANY).status is Status.SOLVED


def test_backends_minizinc_says_why_the_answer_is_the_lexmin():
    result = CliRunner().invoke(main, ["backends", "minizinc"])
    text = " ".join(result.stdout.split())
    assert result.exit_code == 0
    assert "lex-min: the model's search is int_search(cells in row-major order" in text
    assert "the first one it finds is the lex-min" in text
