import pytest

from sudoku_cp.formats import read_puzzles
from sudoku_cp.result import Mode, Status
from sudoku_cp.runner import BackendSpec, SolveSettings, run

from .conftest import random_multi_solution


@pytest.fixture(autouse=True)
def crashing_backend(monkeypatch):
    from sudoku_cp import backends
    monkeypatch.setitem(backends._REGISTRY, "crashing",
                        ("tests.wrong_backends", "ProcessKillerBackend"))


def puzzles(first_values):
    lines = []
    for seed, first in enumerate(first_values):
        values = list(random_multi_solution(9, 30, seed).values)
        values[0] = first
        lines.append("".join(map(str, values)))
    return read_puzzles("\n".join(lines) + "\nbad line\n")[1]


SPECS = [BackendSpec("dfs"), BackendSpec("crashing")]


@pytest.mark.parametrize("jobs", [1, 2])
def test_results_come_in_input_order_and_skip_bad_records(jobs):
    records = puzzles([0] * 12)
    runs = list(run(records, [BackendSpec("dfs")], SolveSettings(), jobs=jobs, chunk_size=2))
    assert [r.record.index for r in runs] == list(range(12))
    assert all(r.result("dfs").status in (Status.SOLVED, Status.UNSATISFIABLE) for r in runs)


@pytest.mark.parametrize("jobs", [1, 2])
def test_an_exception_is_an_error_for_that_puzzle_and_backend_only(jobs):
    records = puzzles([0, 8, 0, 0])
    runs = list(run(records, SPECS, SolveSettings(), jobs=jobs, chunk_size=2))
    assert [sorted(r.errors) for r in runs] == [[], ["crashing"], [], []]
    assert runs[1].errors["crashing"] == "RuntimeError: boom"
    assert runs[1].result("dfs") is not None and runs[3].result("crashing") is not None


def test_a_worker_that_dies_is_replaced_and_the_killer_named():
    records = puzzles([0, 0, 9, 0, 0, 0, 9, 0])
    runs = list(run(records, SPECS, SolveSettings(), jobs=2, chunk_size=3))
    assert [r.record.index for r in runs] == list(range(8))
    died = [r.record.index for r in runs if r.errors]
    assert died == [2, 6]
    assert runs[2].errors == {"crashing": "worker process died while solving this puzzle"}
    assert all(r.result("dfs") is not None for r in runs)


def test_warmup_and_repeats():
    records = puzzles([0, 0])
    settings = SolveSettings(mode=Mode.ANY, warmup=1, repeat=3)
    runs = list(run(records, [BackendSpec("dfs")], settings))
    assert [len(r.results["dfs"]) for r in runs] == [3, 3]
