"""bench --backend-file NAME=PATH:CLASS: a backend from a file or a package folder (a copy of
another revision's backend, its relative imports resolved), timed beside the installed ones,
its set-up measured in a fresh interpreter too; a bad value is one line, exit 2."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

import sudoku_cp.backends.dfs
from sudoku_cp.backends import _REGISTRY

from ..bench_helpers import TINY, invoke, lines_of, puzzles_of

SINGLE_FILE = """
from sudoku_cp.backends.dfs import DfsBackend


class SlowerDfs(DfsBackend):
    '''The dfs backend, as another version of it would be.'''
"""


@pytest.fixture
def forget_file_backends():
    """The registry and sys.modules as they were: a file backend is registered for good."""
    registry, modules = dict(_REGISTRY), set(sys.modules)
    yield
    _REGISTRY.clear()
    _REGISTRY.update(registry)
    for name in set(sys.modules) - modules:
        del sys.modules[name]


def test_a_package_copy_and_a_file_are_timed_beside_the_installed_backend(
    tmp_path: Path, forget_file_backends
) -> None:
    package = tmp_path / "dfs_old"
    shutil.copytree(Path(sudoku_cp.backends.dfs.__file__).parent, package)
    single = tmp_path / "slower.py"
    single.write_text(SINGLE_FILE)
    log = tmp_path / "r.jsonl"
    result = invoke(
        "bench", TINY[0], "-b", "dfs,dfs_old,slower",
        "--backend-file", f"dfs_old={package}:DfsBackend",
        "--backend-file", f"slower={single}:SlowerDfs", "--results", log,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    (record,) = puzzles_of(log)
    assert [(run["backend"], run["status"]) for run in record["runs"]] == [
        ("dfs", "solved"),
        ("dfs_old", "solved"),
        ("slower", "solved"),
    ]
    assert len({run["solution"] for run in record["runs"]}) == 1
    (setup,) = [line["setup"] for line in lines_of(log) if line.get("setup")]
    assert all("error" not in setup[label] for label in ("dfs", "dfs_old", "slower")), setup


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ("old", "expected NAME=PATH:CLASS"),
        ("old=x.py", "expected NAME=PATH:CLASS"),
        ("a b={file}:SlowerDfs", "a NAME of letters, digits, - and _"),
        ("dfs={file}:SlowerDfs", "dfs is already a backend's name"),
        ("old={missing}:SlowerDfs", "{missing}: no such file or folder"),
        ("old={file}:Nope", "{file} has no Backend class Nope"),
        ("old={broken}:X", "{broken}: cannot load it: ZeroDivisionError: division by zero"),
        ("old={folder}:X", "{folder}: not a Python file or a package folder with __init__.py"),
    ],
)
def test_a_bad_backend_file_is_one_line(
    tmp_path: Path, forget_file_backends, given: str, message: str
) -> None:
    paths = {
        "file": tmp_path / "slower.py",
        "missing": tmp_path / "none.py",
        "broken": tmp_path / "broken.py",
        "folder": tmp_path / "folder",
    }
    paths["file"].write_text(SINGLE_FILE)
    paths["broken"].write_text("1 / 0\n")
    paths["folder"].mkdir()
    given, message = given.format(**paths), message.format(**paths)
    result = invoke("bench", TINY[0], "--backend-file", given)
    assert result.exit_code == 2
    assert result.stderr == f"Error: --backend-file {given!r}: {message}\n"
