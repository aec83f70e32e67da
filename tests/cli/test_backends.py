"""`sudoku-cp backends` (every backend listed, with its options) and `sudoku-cp encode` (DIMACS
that any solver can use, and each other format as tests/test_instances.py reads it back)."""

from __future__ import annotations

from ..conftest import BAEKJOON_2239, BAEKJOON_2239_ANSWER, EXAMPLES


def test_backends_lists_every_backend(run):
    result = run("backends")
    names = [line.split()[0] for line in result.stdout.splitlines() if not line.startswith(" ")]
    from sudoku_cp.backends import BUILTIN_BACKENDS

    assert result.exit_code == 0 and names[: len(BUILTIN_BACKENDS)] == list(BUILTIN_BACKENDS)
    assert BUILTIN_BACKENDS == (
        "dfs",
        "cpsat",
        "sat",
        "dlx",
        "z3",
        "exact",
        "minizinc",
        "highs",
        "pumpkin",
        "portfolio",
    )
    assert "options: solver, encoding, amo, lexmin" in run("backends", "sat").stdout


def test_encode_writes_dimacs_that_any_solver_can_use(run, tmp_path):
    from pysat.formula import CNF
    from pysat.solvers import Solver

    from sudoku_cp.backends.sat import decode_model

    out = tmp_path / "puzzle.cnf"
    result = run("encode", str(EXAMPLES / "baekjoon2239.txt"), "-o", str(out))
    assert result.exit_code == 0, result.stderr
    text = out.read_text()
    assert text.startswith("c ") and "\np cnf " in text
    with Solver(name="glucose3", bootstrap_with=CNF(from_string=text).clauses) as solver:
        assert solver.solve()
        values = decode_model(solver.get_model(), 9)
    assert "".join(map(str, values)) == BAEKJOON_2239_ANSWER


def test_encode_refuses_an_unknown_amo_encoding(run):
    result = run("encode", "--amo", "magic", str(EXAMPLES / "baekjoon2239.txt"))
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: ") and len(result.stderr.splitlines()) == 1


def test_backends_fits_80_columns(run):
    # The descriptions were one line of up to 136 columns, which a terminal wraps at column 80
    # into the next backend's column; each is now wrapped under itself.
    from sudoku_cp.backends import backend_names

    for args in [(), tuple(backend_names())]:
        lines = run("backends", *args).stdout.splitlines()
        assert lines and max(len(line) for line in lines) <= 80, args
    lines = run("backends", "dfs").stdout.splitlines()
    assert lines[0].startswith("dfs    available  pure-Python search: ")
    assert lines[1].startswith(" " * 18 + "look-ahead")  # under the description
    assert lines[2] == "       options: lexmin"


def test_encode_writes_each_format_the_instances_module_writes(run, tmp_path):
    import io

    from sudoku_cp.grid import Grid
    from sudoku_cp.instances import FORMATS, write_instance

    puzzle = Grid.parse(BAEKJOON_2239)
    for name, suffix in FORMATS.items():
        expected = io.StringIO()
        write_instance(puzzle, expected, name, encoding="extended", amo="pairwise")
        chosen = run("encode", str(EXAMPLES / "baekjoon2239.txt"), "--format", name)
        by_suffix = tmp_path / f"puzzle{suffix}"
        assert (
            run("encode", str(EXAMPLES / "baekjoon2239.txt"), "-o", str(by_suffix)).exit_code == 0
        )
        assert chosen.exit_code == 0 and chosen.stdout == expected.getvalue(), name
        assert by_suffix.read_text() == expected.getvalue(), name


def test_encode_refuses_cnf_options_for_another_format(run):
    result = run("encode", "--format", "lp", "--amo", "ladder", str(EXAMPLES / "baekjoon2239.txt"))
    assert result.exit_code == 2
    assert result.stderr == "Error: --amo applies to --format dimacs only, not lp\n"
