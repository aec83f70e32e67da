"""A backend from a file, for an A/B against another version: `bench --backend-file
NAME=PATH:CLASS` registers CLASS of PATH (a module file, or a backend package's folder) under
NAME, beside the installed backends.

The file is loaded as a module of `sudoku_cp.backends` (`sudoku_cp.backends._file_NAME`), so a
copy of a backend taken from another revision (`git show REV:src/sudoku_cp/backends/dfs.py >
/tmp/dfs_old.py`, or `git archive REV src/sudoku_cp/backends/sat | tar -x -C /tmp` for a package)
finds this version's base class and helpers through its relative imports. Forked workers inherit
the loaded module; a fresh interpreter (bench's set-up measurement) loads it again by path.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

from ..errors import ArgumentError

MODULE_PREFIX = "sudoku_cp.backends._file_"
FILES: dict[str, str] = {}  # module name -> the path it was loaded from


def load_module(module_name: str, path: str) -> ModuleType:
    """The module at `path` (a .py file, or a package's folder) under `module_name`, loaded
    once and kept in `sys.modules`.

    Raises:
        ArgumentError: for a path that is neither a .py file nor a folder with __init__.py.
    """
    if module_name in sys.modules:
        return sys.modules[module_name]
    where = Path(path)
    if where.is_dir():
        spec = importlib.util.spec_from_file_location(
            module_name, where / "__init__.py", submodule_search_locations=[str(where)]
        )
        if not (where / "__init__.py").is_file():
            spec = None
    else:
        spec = importlib.util.spec_from_file_location(module_name, where)
    if spec is None or spec.loader is None or not (where.is_file() or spec.origin):
        raise ArgumentError(f"{path}: not a Python file or a package folder with __init__.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as error:
        del sys.modules[module_name]
        raise ArgumentError(f"{path}: cannot load it: {type(error).__name__}: {error}") from None
    FILES[module_name] = str(where.resolve())
    return module


def register_file_backend(given: str) -> str:
    """Register the backend `NAME=PATH:CLASS` describes; its name.

    Raises:
        ArgumentError: in one line, for a malformed value, a name already taken, a path that
            cannot be loaded, or a class that is not there or not a `Backend`.
    """
    from . import Backend, is_backend_name, register_backend

    name, equals, rest = given.partition("=")
    path, colon, class_name = rest.rpartition(":")
    if not (equals and colon and name and path and class_name):
        raise ArgumentError(f"--backend-file {given!r}: expected NAME=PATH:CLASS")
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_-]*", name):
        raise ArgumentError(f"--backend-file {given!r}: a NAME of letters, digits, - and _")
    if is_backend_name(name):
        raise ArgumentError(f"--backend-file {given!r}: {name} is already a backend's name")
    if not Path(path).exists():
        raise ArgumentError(f"--backend-file {given!r}: {path}: no such file or folder")
    module_name = MODULE_PREFIX + name.replace("-", "_")
    try:
        module = load_module(module_name, path)
    except ArgumentError as error:
        raise ArgumentError(f"--backend-file {given!r}: {error}") from None
    found = getattr(module, class_name, None)
    if not (isinstance(found, type) and issubclass(found, Backend)):
        raise ArgumentError(f"--backend-file {given!r}: {path} has no Backend class {class_name}")
    register_backend(name, module_name, class_name)
    return name


__all__ = ["FILES", "MODULE_PREFIX", "load_module", "register_file_backend"]
