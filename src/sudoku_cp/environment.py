"""A session's surroundings, measured apart from its timings: the machine, the versions and the
command line (`environment`), and the one-off set-up of each backend (`measure_setup`).

One-off set-up is measured in a fresh interpreter per backend: the import of the solver package,
and the first solve of one puzzle of each grid shape against a second, warm solve of the same
puzzle (the difference is the one-off cost: a SAT solver and its base CNF built for the shape,
lazy initialisation inside the solver). In the measuring process the solver packages are
imported before the first timed run (`import_solvers`), every backend does its per-shape set-up
in `prepare()` before its clock starts, and each worker solves the first puzzle of each shape
once untimed, so no timed puzzle pays for set-up.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import json
import os
import platform
import subprocess
import sys
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

from ._version import __version__
from .backends import backend_class
from .configurations import Configuration
from .errors import BenchError
from .formats import InputPuzzle
from .grid import Shape
from .judging import SolveSettings, set_of

SETUP_TIMEOUT_SECONDS = 600.0


def check_set_names(paths: Sequence[str]) -> None:
    """Refuse two inputs that would be one set (sets are named after the file's stem).

    Raises:
        BenchError: naming both files.
    """
    seen: dict[str, str] = {}
    for path in paths:
        name = set_of("<stdin>" if path == "-" else path)
        if name in seen and seen[name] != path:
            raise BenchError(
                f"{seen[name]} and {path} would both be set {name!r}: rename one of them"
            )
        seen[name] = path


# -- what is measured ------------------------------------------------------------------------------


def import_solvers(configurations: Iterable[Configuration]) -> None:
    """Import the solver packages now: forked workers then start with them loaded."""
    for configuration in configurations:
        cls = backend_class(configuration.backend)
        if cls.is_available():
            for module in solver_modules(configuration.backend):
                importlib.import_module(module)


def solver_modules(backend: str) -> tuple[str, ...]:
    """The modules whose import is a backend's one-off cost, as the backend declares them
    (`setup_modules`; else what it `requires`: `import ortools` alone loads almost nothing)."""
    cls = backend_class(backend)
    return cls.setup_modules or cls.requires


def first_of_each_shape(puzzles: Iterable[InputPuzzle]) -> list[tuple[str, str, Shape]]:
    """(set, puzzle, box) of the first puzzle of each grid shape: what set-up is measured on."""
    found: dict[tuple[int, Shape], tuple[str, str, Shape]] = {}
    for puzzle in puzzles:
        if puzzle.grid is not None:
            found.setdefault(
                (puzzle.grid.size, puzzle.grid.box),
                (set_of(puzzle.source), puzzle.text, puzzle.grid.box),
            )
    return list(found.values())


# -- set-up and environment ------------------------------------------------------------------------

_SETUP_SCRIPT = r"""
import importlib, json, sys, time
task = json.load(sys.stdin)
start = time.perf_counter()
for module in task["modules"]:
    importlib.import_module(module)
import_seconds = time.perf_counter() - start if task["modules"] else None
from sudoku_cp.grid import Grid
if task.get("file"):  # a backend of bench --backend-file: loaded again by its path
    from sudoku_cp.backends.from_file import load_module
    load_module(*task["file"])
cls = getattr(importlib.import_module(task["module"]), task["class"])
start = time.perf_counter()
backend = cls(**task["options"])
create_seconds = time.perf_counter() - start
shapes = []
for set_name, line, box in task["puzzles"]:
    grid = Grid.parse(line, box=tuple(box))
    first, warm = (backend.solve(grid, mode=task["mode"], limit=task["limit"],
                                 time_limit=task["time_limit"]) for _ in range(2))
    shapes.append({"set": set_name, "size": grid.size, "first_seconds": first.seconds,
                   "warm_seconds": warm.seconds, "first_status": str(first.status)})
backend.close()
json.dump({"import_seconds": import_seconds, "create_seconds": create_seconds,
           "shapes": shapes}, sys.stdout)
"""


def measure_setup(
    configurations: Sequence[Configuration],
    puzzles: Sequence[tuple[str, str, Shape]],
    settings: SolveSettings,
    *,
    starting: Callable[[Configuration], None] | None = None,
) -> dict[str, Any]:
    """One-off costs per backend, each measured in a fresh interpreter.

    `import_seconds`: importing the solver package (None for pure Python); `create_seconds`:
    building the backend; per grid shape (its first puzzle): `first_seconds`, the cold first
    solve, and `warm_seconds`, the same puzzle solved again. A backend whose measurement fails
    gets an `error` instead.
    """
    # The child must import what this process imports (a test's backend module included).
    environment_variables = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    setup: dict[str, Any] = {}
    for configuration in configurations:
        if starting is not None:
            starting(configuration)
        cls = backend_class(configuration.backend)
        task = {
            "modules": list(solver_modules(configuration.backend)),
            "module": cls.__module__,
            "file": _loaded_from(cls.__module__),
            "class": cls.__qualname__,
            "options": dict(configuration.options),
            "puzzles": puzzles,
            "mode": str(settings.mode),
            "limit": settings.limit,
            "time_limit": settings.time_limit,
        }
        try:
            done = subprocess.run(
                [sys.executable, "-c", _SETUP_SCRIPT],
                input=json.dumps(task),
                capture_output=True,
                text=True,
                env=environment_variables,
                timeout=SETUP_TIMEOUT_SECONDS,
                check=False,
            )
        except subprocess.TimeoutExpired:
            setup[configuration.label] = {"error": f"took over {SETUP_TIMEOUT_SECONDS:g} s"}
            continue
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1]
            setup[configuration.label] = {"error": last}
            continue
        setup[configuration.label] = json.loads(done.stdout)
    return setup


def _loaded_from(module_name: str) -> tuple[str, str] | None:
    """(module, path) of the module loaded from a file by `bench --backend-file` that holds
    `module_name` (itself, or the package it is part of), else None."""
    from .backends.from_file import FILES

    for loaded, path in FILES.items():
        if module_name == loaded or module_name.startswith(loaded + "."):
            return loaded, path
    return None


def cpu_model() -> str:
    """The CPU's model name from /proc/cpuinfo (or what the platform module knows)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                key, _, value = line.partition(":")
                if key.strip() in ("model name", "Model", "Hardware"):
                    return value.strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def package_versions(backends: Iterable[str]) -> dict[str, str]:
    """The versions of the packages the chosen backends declare (`Backend.packages`)."""
    versions: dict[str, str] = {}
    for name in backends:
        versions.update(backend_class(name).versions())
    return versions


def environment(*, configurations: Sequence[Configuration], jobs: int, argv: str) -> dict[str, Any]:
    """The machine, the versions, the date and the command line of a session."""
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    return {
        "tool": f"sudoku-cp {__version__}",
        "date": datetime.now(UTC).astimezone().isoformat(timespec="seconds"),
        "argv": argv,
        "python": f"{platform.python_version()} ({platform.python_implementation()})",
        "platform": platform.platform(),
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "usable_cores": usable,
        "jobs": jobs,
        "load_average": [round(load, 2) for load in os.getloadavg()]
        if hasattr(os, "getloadavg")
        else None,
        "versions": package_versions(configuration.backend for configuration in configurations),
    }


__all__ = [
    "check_set_names",
    "environment",
    "first_of_each_shape",
    "import_solvers",
    "measure_setup",
    "package_versions",
    "solver_modules",
]
