"""Backends from installed packages (entry-point group `sudoku_cp.backends`).

The example plugin package under tests/plugin_example (its own pyproject.toml) is installed with
pip, for real, into a folder of its own (`pip install --target`), which this test process and the
commands it runs put on their path: its entry points are then found exactly as those of a package
in site-packages, without touching the environment that other test runs share. It declares
`naive` (a working backend) and `naivebroken` (a module that does not exist).
"""

from __future__ import annotations

import importlib.metadata
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

import sudoku_cp
from sudoku_cp.backends import (
    BUILTIN_BACKENDS,
    backend_class,
    backend_names,
    backend_problems,
    plugins,
    registered,
    reload_plugins,
)
from sudoku_cp.backends.dfs import DfsBackend
from sudoku_cp.cli import main
from sudoku_cp.errors import BackendUnavailableError
from sudoku_cp.testing import BAEKJOON_2239, BAEKJOON_2239_ANSWER, check_backend, contract_tests

from ..conftest import DATA, ROOT

EXAMPLE = Path(__file__).resolve().parent.parent / "plugin_example"
PUZZLE_FILE = DATA / "examples" / "baekjoon2239.txt"
BROKEN_REASON = (
    "plugin 'naivebroken' (sudoku_cp_example.missing:Nope, from sudoku-cp-example "
    "0.1.0): ModuleNotFoundError: No module named 'sudoku_cp_example.missing'"
)


def listed_rows(output: str, width: int) -> list[str]:
    """`sudoku-cp backends`'s rows unwrapped: a backend's first line or a line under it (at
    `width` + 1 columns) with the lines that continue it (indented further) joined back on."""
    rows: list[str] = []
    for line in output.splitlines():
        indent = len(line) - len(line.lstrip(" "))
        if rows and indent > width + 1:
            rows[-1] += " " + line.strip()
        else:
            rows.append(line)
    return rows


def _can_build_wheels_here() -> bool:
    """Whether this environment's setuptools builds wheels without a build environment of its
    own (setuptools 70.1 and later, or the wheel package)."""
    import importlib.util

    try:
        major, minor = (
            int(part) for part in importlib.metadata.version("setuptools").split(".")[:2]
        )
    except (importlib.metadata.PackageNotFoundError, ValueError):
        return False
    return (major, minor) >= (70, 1) or importlib.util.find_spec("wheel") is not None


@pytest.fixture(scope="session")
def plugin_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example package installed by pip into a folder of its own (built from a copy: pip
    builds in the source folder, and concurrent runs must not share one)."""
    work = tmp_path_factory.mktemp("plugin")
    source, target = work / "source", work / "site"
    shutil.copytree(
        EXAMPLE, source, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__")
    )
    command = [
        sys.executable,
        "-m",
        "pip",
        "install",
        "--quiet",
        "--no-deps",
        "--disable-pip-version-check",
        "--target",
        str(target),
        str(source),
    ]
    if _can_build_wheels_here():
        command.append("--no-build-isolation")  # fast, and offline
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        pytest.fail(f"pip could not install {EXAMPLE}:\n{done.stdout}{done.stderr}")
    return target


@pytest.fixture(scope="module", autouse=True)
def plugin(plugin_site: Path) -> Iterator[Path]:
    """The example plugin on this process's path, the registry looking again; afterwards the
    registry without it (later test modules see the plugins of the environment only)."""
    sys.path.insert(0, str(plugin_site))
    reload_plugins()
    try:
        yield plugin_site
    finally:
        sys.path.remove(str(plugin_site))
        reload_plugins()


def sudoku_cp_command(plugin_site: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    """`sudoku-cp ...` in a new process that sees the installed example plugin."""
    path = os.pathsep.join(p for p in (str(plugin_site), os.environ.get("PYTHONPATH")) if p)
    return subprocess.run(
        [sys.executable, "-m", "sudoku_cp", *arguments],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": path},
        timeout=120,
        check=False,
    )


# -- the registry ----------------------------------------------------------------------------------


def test_the_plugins_come_after_the_builtins_and_the_broken_one_is_listed():
    names = backend_names()
    builtins = len(BUILTIN_BACKENDS)
    assert names[:builtins] == list(BUILTIN_BACKENDS)
    assert {"naive", "naivebroken"} <= set(names[builtins:])
    assert plugins()["naive"].distribution == "sudoku-cp-example 0.1.0"
    assert backend_class("naive").__module__ == "sudoku_cp_example"


def test_a_plugin_that_fails_to_import_is_refused_in_one_line():
    with pytest.raises(BackendUnavailableError) as caught:
        backend_class("naivebroken")
    assert str(caught.value) == f"backend 'naivebroken' cannot be loaded: {BROKEN_REASON}"
    assert backend_problems()["naivebroken"] == BROKEN_REASON
    assert "naive" not in backend_problems()


@pytest.fixture
def fake_plugins(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., None]]:
    """`fake_plugins((name, value), ...)`: the registry sees these entry points only (from no
    distribution); afterwards it looks at the real ones again."""

    def install(*pairs: tuple[str, str]) -> None:
        points = [
            importlib.metadata.EntryPoint(name, value, "sudoku_cp.backends")
            for name, value in pairs
        ]
        monkeypatch.setattr(
            importlib.metadata,
            "entry_points",
            lambda **selection: points if selection == {"group": "sudoku_cp.backends"} else [],
        )
        reload_plugins()

    yield install
    monkeypatch.undo()
    reload_plugins()


def test_a_plugin_with_a_taken_name_is_ignored_and_reported(fake_plugins):
    fake_plugins(
        ("dfs", "sudoku_cp_example:NaiveBackend"),
        ("notbackend", "sudoku_cp.grid:Grid"),
        ("naive", "sudoku_cp_example:NaiveBackend"),
        ("naive", "sudoku_cp.backends.dfs:DfsBackend"),
        ("bad[name]", "sudoku_cp_example:NaiveBackend"),
        ("noclass", "sudoku_cp_example"),
    )
    assert backend_class("dfs") is DfsBackend
    assert backend_class("naive") is DfsBackend  # of two plugins, the first by value
    assert backend_names() == [*BUILTIN_BACKENDS, "naive", "notbackend"]
    problems = backend_problems()
    assert problems == {
        "dfs": (
            "plugin 'dfs' (sudoku_cp_example:NaiveBackend, from an unknown distribution) is "
            "ignored: 'dfs' is a built-in backend"
        ),
        "naive": (
            "plugin 'naive' (sudoku_cp_example:NaiveBackend, from an unknown "
            "distribution) is ignored: plugin 'naive' (sudoku_cp.backends.dfs:DfsBackend, "
            "from an unknown distribution) has that name"
        ),
        "bad[name]": (
            "plugin 'bad[name]' (sudoku_cp_example:NaiveBackend, from an unknown "
            "distribution) is ignored: a backend name cannot hold any of '[]=,|' or "
            "spaces"
        ),
        "noclass": (
            "plugin 'noclass' (sudoku_cp_example, from an unknown distribution) is "
            "ignored: an entry point of sudoku_cp.backends is 'module:Class'"
        ),
        "notbackend": (
            "plugin 'notbackend' (sudoku_cp.grid:Grid, from an unknown "
            "distribution): Grid is not a subclass of sudoku_cp.backends.Backend"
        ),
    }
    listed = listed_rows(CliRunner().invoke(main, ["backends"]).output, 10)
    cpsat = next(i for i, line in enumerate(listed) if line.startswith("cpsat"))
    assert listed[0] == "dfs        available  " + DfsBackend.description
    assert "           " + problems["dfs"] in listed[1:cpsat]  # under the built-in it lost to
    assert f"notbackend broken     {problems['notbackend']}" in listed
    assert listed[-2:] == [
        f"bad[name]  ignored    {problems['bad[name]']}",
        f"noclass    ignored    {problems['noclass']}",
    ]


def test_a_registration_by_hand_outlives_a_reload():
    with registered("handmade", "sudoku_cp.backends.dfs", "DfsBackend"):
        reload_plugins()
        assert backend_class("handmade") is DfsBackend
        assert "naive" in backend_names()
    assert "handmade" not in backend_names()


# -- the published contract suite ------------------------------------------------------------------

test_naive_contract = contract_tests("naive")  # the one line a plugin's test module needs


def test_check_backend_passes_the_plugin_and_refuses_the_broken_one():
    assert check_backend("naive") == []
    assert check_backend("naivebroken") == [
        f"naivebroken: backend 'naivebroken' cannot be loaded: {BROKEN_REASON}"
    ]


def test_check_backend_catches_a_wrong_backend():
    from ..wrong_backends import NotLexminBackend, OverCountBackend

    failures = check_backend(NotLexminBackend, sizes=(4, 6))
    assert failures and all(
        ": lexmin-" in failure or "warm-batch" in failure for failure in failures
    ), failures
    failures = check_backend(OverCountBackend, sizes=(4,))
    assert any(": count-like-brute-force-4-5-11: count of" in failure for failure in failures)


# -- every command, pool workers, the Python API ---------------------------------------------------


def test_sudoku_cp_backends_lists_the_plugin_and_the_broken_one(plugin):
    done = sudoku_cp_command(plugin, "backends")
    assert done.returncode == 0, done.stderr
    lines = listed_rows(done.stdout, 11)
    assert lines[0].startswith("dfs         available  ")  # the name column fits naivebroken
    assert "naive       available  example plugin: naive row-major DFS (small grids)" in lines
    assert f"naivebroken broken     {BROKEN_REASON}" in lines


def test_crosscheck_in_pool_workers_agrees(plugin):
    done = sudoku_cp_command(plugin, "crosscheck", str(PUZZLE_FILE), "-b", "dfs,naive", "-j", "2")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 puzzle: 0 wrong, 0 disagree, 0 error, 0 timeout, 1 agree" in done.stdout


def test_the_python_api_solves_with_the_plugin():
    answer = sudoku_cp.solve(BAEKJOON_2239, backend="naive")
    assert answer.status == "solved" and answer.solution is not None
    assert answer.solution.to_line() == BAEKJOON_2239_ANSWER
    answers = list(sudoku_cp.solve_many(str(PUZZLE_FILE), backend="naive", jobs=2))
    assert [a.solution.to_line() for a in answers if a.solution] == [BAEKJOON_2239_ANSWER]


def test_a_command_asking_for_the_broken_plugin_fails_in_one_line_and_dfs_still_works(plugin):
    for command in (
        ["solve", str(PUZZLE_FILE), "-b", "naivebroken"],
        ["crosscheck", str(PUZZLE_FILE), "-b", "dfs,naivebroken"],
    ):
        done = sudoku_cp_command(plugin, *command)
        assert done.returncode == 2
        assert done.stderr == f"Error: backend 'naivebroken' cannot be loaded: {BROKEN_REASON}\n"
    done = sudoku_cp_command(plugin, "solve", str(PUZZLE_FILE), "-b", "dfs")
    assert done.returncode == 0, done.stderr
    assert BAEKJOON_2239_ANSWER[:9] in done.stdout.replace(" ", "")


def test_the_ignored_plugins_are_found_on_the_first_look(fake_plugins, monkeypatch):
    """`backend_problems()` in a fresh process, before anything read the entry points (what
    `sudoku-cp backends` does first), still reports a plugin that takes a built-in's name."""
    import sudoku_cp.backends as registry

    fake_plugins(("dfs", "sudoku_cp_example:NaiveBackend"))
    monkeypatch.setattr(registry, "_plugins", None)
    registry._ignored.clear()
    assert backend_problems()["dfs"].endswith("is ignored: 'dfs' is a built-in backend")
