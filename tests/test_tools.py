"""The scripts under tools/ (measurements that cannot be a study file) still fit the library:
each imports, and every name it imports from sudoku_cp - at the top or inside a function -
exists. (Running them takes minutes to hours: not the suite's job.)"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "tools"
SCRIPTS = sorted(BENCHMARKS.glob("*.py"))


@pytest.mark.parametrize("script", SCRIPTS, ids=[script.name for script in SCRIPTS])
def test_the_script_imports(script: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(BENCHMARKS))  # scripts may import their neighbours
    monkeypatch.setattr(sys, "argv", [str(script)])
    name = f"benchmark_{script.stem}"
    spec = importlib.util.spec_from_file_location(name, script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, name, module)
    spec.loader.exec_module(module)  # `if __name__ == "__main__"` keeps it from running


@pytest.mark.parametrize("script", SCRIPTS, ids=[script.name for script in SCRIPTS])
def test_every_sudoku_cp_name_it_imports_exists(script: Path) -> None:
    missing = []
    for node in ast.walk(ast.parse(script.read_text())):
        if (
            isinstance(node, ast.ImportFrom)
            and node.module
            and node.module.startswith("sudoku_cp")
            and node.level == 0
        ):
            try:
                module = importlib.import_module(node.module)
            except ImportError as error:
                missing.append(f"line {node.lineno}: {error}")
                continue
            missing += [
                f"line {node.lineno}: {node.module}.{alias.name}"
                for alias in node.names
                if not hasattr(module, alias.name) and not _submodule(node.module, alias.name)
            ]
    assert not missing, f"{script.name} imports what the library no longer has: {missing}"


def _submodule(package: str, name: str) -> bool:
    try:
        importlib.import_module(f"{package}.{name}")
    except ImportError:
        return False
    return True


def test_a_missing_name_is_found(tmp_path: Path) -> None:
    """The check can fail."""
    script = tmp_path / "old.py"
    script.write_text("def main():\n    from sudoku_cp.engine import BackendSpec\n")
    with pytest.raises(AssertionError, match="sudoku_cp.engine.BackendSpec"):
        test_every_sudoku_cp_name_it_imports_exists(script)
