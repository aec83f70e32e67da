"""instances: every format of `sudoku-cp encode` read back by a real external tool (python-sat
for DIMACS, CPMpy's OPB reader with Exact, HiGHS for LP, MiniZinc with Gecode, ACE from pycsp3
for XCSP3), the completion it finds checked by the verifier; each skipped, in one line naming
what to install, where its tool is missing."""

from __future__ import annotations

import importlib.util
import io
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from sudoku_cp.backends import get_backend
from sudoku_cp.grid import Grid
from sudoku_cp.instances import FORMATS, exactly_one_groups, format_of_suffix, write_instance
from sudoku_cp.verify import check_completion

from .conftest import BAEKJOON_2239, BAEKJOON_2239_ANSWER

PUZZLES = {
    "9x9": Grid.parse(BAEKJOON_2239),
    "6x6 open": Grid.parse("100000000200000000003000000000000004", box=(2, 3)),
    "4x4 empty": Grid.empty(4),
}


def written(grid: Grid, instance_format: str, folder: Path) -> Path:
    path = folder / f"puzzle{FORMATS[instance_format]}"
    with path.open("w", encoding="utf-8") as handle:
        write_instance(grid, handle, instance_format)
    return path


def from_booleans(grid: Grid, true: set[int]) -> Grid:
    """A grid from the numbers of the x(cell, value) that are 1 (x = cell * N + value)."""
    size = grid.size
    values = [0] * size * size
    for variable in true:
        cell, value = divmod(variable - 1, size)
        values[cell] = value + 1
    return Grid(tuple(values), grid.box)


def assert_completes(grid: Grid, answer: Grid) -> None:
    check = check_completion(grid, answer)
    assert check.ok, check.describe()


@pytest.mark.parametrize("name", PUZZLES)
def test_dimacs_read_by_python_sat(name, tmp_path):
    from pysat.formula import CNF
    from pysat.solvers import Solver

    grid = PUZZLES[name]
    cnf = CNF(from_file=str(written(grid, "dimacs", tmp_path)))
    with Solver(name="cadical195", bootstrap_with=cnf.clauses) as solver:
        assert solver.solve()
        true = {literal for literal in solver.get_model() or [] if 0 < literal <= grid.size**3}
    assert_completes(grid, from_booleans(grid, true))


@pytest.mark.parametrize("name", PUZZLES)
def test_opb_read_by_cpmpy_and_solved_by_exact(name, tmp_path):
    pytest.importorskip("cpmpy", reason="needs cpmpy (pip install cpmpy)")
    pytest.importorskip("exact", reason="needs Exact (pip install exact)")
    from cpmpy.tools.io.opb import load_opb
    from cpmpy.transformations.get_variables import get_variables_model

    grid = PUZZLES[name]
    model = load_opb(str(written(grid, "opb", tmp_path)))
    assert model.solve(solver="exact")
    true = {int(v.name[1:]) for v in get_variables_model(model) if v.value()}
    assert_completes(grid, from_booleans(grid, true))


@pytest.mark.parametrize("name", PUZZLES)
def test_lp_read_by_highs(name, tmp_path):
    highspy = pytest.importorskip("highspy", reason="needs highspy (pip install highspy)")
    grid = PUZZLES[name]
    highs = highspy.Highs()
    highs.setOptionValue("output_flag", False)
    assert highs.readModel(str(written(grid, "lp", tmp_path))) == highspy.HighsStatus.kOk
    assert highs.getNumCol() == grid.size**3
    highs.run()
    assert highs.getModelStatus() == highspy.HighsModelStatus.kOptimal
    values = highs.getSolution().col_value
    true = {
        int(highs.getColName(column)[1][1:])
        for column in range(highs.getNumCol())
        if values[column] > 0.5
    }
    assert_completes(grid, from_booleans(grid, true))


def _minizinc() -> None:
    pytest.importorskip("minizinc", reason="needs the minizinc package (pip install minizinc)")
    if shutil.which("minizinc") is None:
        pytest.skip("needs MiniZinc with Gecode (apt-get install minizinc)")


@pytest.mark.filterwarnings("ignore:included file")  # Debian's Gecode library, not the model
@pytest.mark.parametrize("name", PUZZLES)
def test_mzn_and_dzn_read_by_minizinc_whose_first_solution_is_the_lexmin(name, tmp_path):
    _minizinc()
    import minizinc

    grid = PUZZLES[name]
    model = minizinc.Model(str(written(grid, "mzn", tmp_path)))
    model.add_file(str(written(grid, "dzn", tmp_path)))
    result = minizinc.Instance(minizinc.Solver.lookup("gecode"), model).solve()
    answer = Grid(tuple(value for row in result["grid"] for value in row), grid.box)
    assert_completes(grid, answer)
    with get_backend("dfs") as dfs:
        assert answer == dfs.solve(grid).solution  # the model's search gives the lex-min


def _ace() -> list[str]:
    """The command that runs ACE, the solver that pycsp3 ships."""
    found = importlib.util.find_spec("pycsp3")
    if found is None or found.origin is None:
        pytest.skip("needs pycsp3, which ships the ACE solver (pip install pycsp3)")
    if shutil.which("java") is None:
        pytest.skip("needs Java for ACE (apt-get install default-jre-headless)")
    jars = sorted(Path(found.origin).parent.glob("solvers/ace/ACE-*.jar"))
    if not jars:
        pytest.skip("needs pycsp3 with its ACE jar (pip install pycsp3)")
    return ["java", "-jar", str(jars[-1])]


@pytest.mark.parametrize("name", PUZZLES)
def test_xcsp3_read_by_ace(name, tmp_path):
    command = _ace()
    grid = PUZZLES[name]
    path = written(grid, "xcsp3", tmp_path)
    run = subprocess.run(
        [*command, str(path)], capture_output=True, text=True, timeout=300, check=False
    )
    found = re.search(r"<values>([\d\s]+)</values>", run.stdout)
    assert found, run.stdout[-2000:] + run.stderr[-2000:]
    answer = Grid(tuple(int(value) for value in found.group(1).split()), grid.box)
    assert_completes(grid, answer)
    if name == "9x9":
        assert answer.to_line() == BAEKJOON_2239_ANSWER


def test_an_unsatisfiable_puzzle_stays_so_in_lp(tmp_path):
    highspy = pytest.importorskip("highspy", reason="needs highspy (pip install highspy)")
    grid = Grid.parse("1200003400000000")  # no repeat, and no completion
    highs = highspy.Highs()
    highs.setOptionValue("output_flag", False)
    highs.readModel(str(written(grid, "lp", tmp_path)))
    highs.run()
    assert highs.getModelStatus() == highspy.HighsModelStatus.kInfeasible


def test_the_boolean_model_has_one_equality_per_cell_unit_value_and_given():
    grid = PUZZLES["9x9"]
    groups = list(exactly_one_groups(grid))
    assert len(groups) == 81 + 27 * 9 + len(grid.givens())
    assert groups[0] == ("cell0", list(range(1, 10)))
    assert groups[81] == ("row0_1", [cell * 9 + 1 for cell in range(9)])
    assert groups[-1][0].startswith("given") and len(groups[-1][1]) == 1


def test_the_xcsp3_of_an_empty_grid_has_no_instantiation(tmp_path):
    text = written(Grid.empty(4), "xcsp3", tmp_path).read_text()
    assert "<instantiation>" not in text and text.count("<allDifferent>") == 12


def test_a_suffix_names_its_format():
    assert [format_of_suffix(f"p{suffix}") for suffix in FORMATS.values()] == list(FORMATS)
    assert format_of_suffix("P.LP") == "lp" and format_of_suffix("p.txt") is None


def test_an_unknown_format_is_refused():
    from sudoku_cp.errors import ArgumentError

    with pytest.raises(ArgumentError, match="unknown instance format 'csv' \\(choose from dimacs"):
        write_instance(Grid.empty(4), io.StringIO(), "csv")
