"""The test suite mirrors the source: every module of src/sudoku_cp has its test module at the
mirrored path, or is named in NO_TEST_MODULE below with the test modules that cover it and why it
has none of its own. A new module needs one or the other, so leaving it untested is a decision.

The mirrored path of `src/sudoku_cp/a/b.py` is `tests/a/test_b.py`; of a package's `__init__.py`
it is `tests/a/test_a.py` (`generate/__init__.py`: `tests/generate/test_generate.py`); the
package root's is the table's. Every folder of test modules is a package (an `__init__.py`:
`tests.cli.test_generate` and `tests.generate.test_generate` are two modules), and no test file
is over ~600 lines. Test modules that mirror no module stay where they are: the contract suite
over every backend (test_backend_contract.py), the docs, the layers, old logs, benchmark scripts.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import ROOT

SOURCE = ROOT / "src" / "sudoku_cp"
TESTS = ROOT / "tests"

# Modules without a test module of their own: module -> (the test modules that cover it, why).
# Paths are relative to src/sudoku_cp and to tests/.
NO_TEST_MODULE: dict[str, tuple[tuple[str, ...], str]] = {
    "__init__.py": (("test_api.py",), "the API's names, each loaded there"),
    "__main__.py": (("cli/test_cli.py",), "`python -m sudoku_cp`, run there"),
    "_version.py": (("test_api.py", "cli/test_generate.py"), "one constant"),
    "backends/cpsat/__init__.py": (("backends/cpsat/test_backend.py",), "the package's names"),
    "backends/dfs/__init__.py": (("backends/dfs/test_backend.py",), "the package's names"),
    "backends/dlx/__init__.py": (("backends/dlx/test_backend.py",), "the package's names"),
    "backends/minizinc/__init__.py": (("backends/minizinc/test_model.py",), "the package's names"),
    "backends/sat/__init__.py": (("backends/sat/test_backend.py",), "the package's names"),
    "certify/__init__.py": (("certify/test_certifier.py",), "the package's names"),
    "cli/objects.py": (
        ("cli/test_solve.py", "cli/test_crosscheck.py", "cli/test_bench.py"),
        "what the shared options stand for: built by every command",
    ),
    "cli/options.py": (
        ("cli/test_solve.py", "cli/test_faults.py", "test_docs.py"),
        "the shared options: used by every command, each one documented",
    ),
    "cli/output.py": (
        ("cli/test_faults.py",),
        "one-line errors and exit codes, closed pipes, unwritable files: with real processes",
    ),
    "cli/signals.py": (
        ("cli/test_faults.py", "cli/test_signal_storm.py"),
        "signals sent to real processes",
    ),
    "explain/__init__.py": (("explain/test_path.py",), "the package's names"),
    "executors/inline.py": (("test_engine.py", "executors/test_executors.py"), "one loop"),
    "executors/isolated.py": (
        ("executors/test_local.py", "test_bench_statistics.py"),
        "the local pool, one process per configuration",
    ),
    "executors/worker_signals.py": (
        ("executors/test_dask_cluster.py",),
        "the Dask fork server's first import: on a real cluster",
    ),
    "render/__init__.py": ((), "a docstring, no code"),
    "render/answers.py": (("cli/test_solve.py",), "answers as solve prints them, exactly"),
    "testing/__init__.py": (
        ("testing/test_suite.py", "test_backend_contract.py"),
        "the published names",
    ),
    "testing/cases.py": (
        ("testing/test_suite.py", "test_backend_contract.py"),
        "the cases: run by the suite on every backend",
    ),
    "testing/checks.py": (
        ("testing/test_suite.py", "test_backend_contract.py"),
        "the checks: run on every backend, and failing on the wrong test backends",
    ),
}
LONGEST_TEST_FILE = 600


def mirrored(module: str) -> str:
    """The test module of a module, both relative to their roots: 'a/b.py' -> 'a/test_b.py',
    'a/__init__.py' -> 'a/test_a.py'."""
    folder, _, name = module.rpartition("/")
    if name == "__init__.py":
        name = f"{folder.rpartition('/')[2]}.py" if folder else "sudoku_cp.py"
    return f"{folder}/test_{name}".lstrip("/")


def untested(source: Path, tests: Path, table: dict[str, tuple[tuple[str, ...], str]]) -> list[str]:
    """The modules with neither a test module at the mirrored path nor a line in the table."""
    modules = sorted(path.relative_to(source).as_posix() for path in source.rglob("*.py"))
    return [
        f"{module}: no {tests.name}/{mirrored(module)}"
        for module in modules
        if not (tests / mirrored(module)).is_file() and module not in table
    ]


def test_every_module_has_its_test_module_or_says_why_not() -> None:
    missing = untested(SOURCE, TESTS, NO_TEST_MODULE)
    assert not missing, (
        "write the test module, or name the module in NO_TEST_MODULE (tests/test_layout.py) "
        "with the tests that cover it and why:\n" + "\n".join(missing)
    )


@pytest.mark.parametrize("module", sorted(NO_TEST_MODULE))
def test_the_table_holds_only_modules_without_a_test_module(module: str) -> None:
    """An entry names a module that exists and has no test module of its own (one that gained
    one leaves the table), real test modules, and a reason."""
    covering, why = NO_TEST_MODULE[module]
    assert (SOURCE / module).is_file(), f"{module} is gone: drop it from NO_TEST_MODULE"
    assert not (TESTS / mirrored(module)).is_file(), f"{module} has its test module now"
    assert all((TESTS / test).is_file() for test in covering), covering
    assert why


def test_every_folder_of_test_modules_is_a_package() -> None:
    folders = {path.parent for path in TESTS.rglob("test_*.py")}
    assert [
        str(folder) for folder in sorted(folders) if not (folder / "__init__.py").is_file()
    ] == []


def test_no_test_file_is_over_600_lines() -> None:
    long = [
        f"{path.relative_to(TESTS)} ({lines} lines)"
        for path in sorted(TESTS.rglob("*.py"))
        if (lines := path.read_text().count("\n")) > LONGEST_TEST_FILE
    ]
    assert not long, "split it along the modules it tests: " + ", ".join(long)


def test_the_mirror_check_sees_a_module_without_tests(tmp_path: Path) -> None:
    """The check can fail: a new module, a new package's __init__.py, found; the table and a
    test module at the mirrored path each answer for one."""
    source, tests = tmp_path / "sudoku_cp", tmp_path / "tests"
    for module in ("grid.py", "new.py", "widgets/__init__.py", "widgets/knob.py", "quiet.py"):
        (source / module).parent.mkdir(parents=True, exist_ok=True)
        (source / module).write_text("")
    for test in ("test_grid.py", "widgets/test_knob.py"):
        (tests / test).parent.mkdir(parents=True, exist_ok=True)
        (tests / test).write_text("")
    table = {"quiet.py": (("test_grid.py",), "a test")}
    assert untested(source, tests, table) == [
        "new.py: no tests/test_new.py",
        "widgets/__init__.py: no tests/widgets/test_widgets.py",
    ]
    assert mirrored("__init__.py") == "test_sudoku_cp.py"


def test_no_file_holds_a_merge_conflict_marker():
    # A merge once committed CHANGELOG.md with its conflict markers in it.
    markers = ("<" * 7 + " ", "=" * 7 + "\n", ">" * 7 + " ")
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for folder in ("src", "tests", "docs", "benchmarks", "studies", "plugins", ".ci")
        for path in sorted((ROOT / folder).rglob("*"))
        if path.is_file() and path.suffix in {".py", ".md", ".toml", ".yml", ".txt", ""}
        for number, line in enumerate(path.read_text(errors="replace").splitlines(True), 1)
        if line.startswith(markers)
    ]
    found += [
        f"{name}:{number}"
        for name in ("README.md", "CHANGELOG.md", "pyproject.toml", "mkdocs.yml")
        for number, line in enumerate((ROOT / name).read_text().splitlines(True), 1)
        if line.startswith(markers)
    ]
    assert found == []
