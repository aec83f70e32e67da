"""The backend registry: names to classes, imported on first use.

The backend modules themselves import their solver (ortools, pysat) only inside methods, so
listing or choosing a backend never loads a solver it does not use.
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Iterator
from typing import Any

from ..errors import BackendOptionError, BackendUnavailableError, UnknownBackendError
from .base import Backend, Deadline, Outcome

__all__ = ["Backend", "BackendOptionError", "Deadline", "Outcome", "applicable_options",
           "backend_class", "backend_names", "get_backend", "register_backend", "registered"]

_REGISTRY: dict[str, tuple[str, str]] = {
    "dfs": ("sudoku_cp.backends.dfs", "DfsBackend"),
    "cpsat": ("sudoku_cp.backends.cpsat", "CpSatBackend"),
    "sat": ("sudoku_cp.backends.sat", "SatBackend"),
}


def register_backend(name: str, module_name: str, class_name: str) -> None:
    """Add a backend to the registry (tests use it for deliberately wrong backends)."""
    _REGISTRY[name] = (module_name, class_name)


@contextlib.contextmanager
def registered(name: str, module_name: str, class_name: str) -> Iterator[None]:
    """Register a backend for the length of a `with` block (a test's deliberately wrong
    backend); the registry is restored afterwards. Forked workers inherit it."""
    previous = _REGISTRY.get(name)
    _REGISTRY[name] = (module_name, class_name)
    try:
        yield
    finally:
        if previous is None:
            _REGISTRY.pop(name, None)
        else:
            _REGISTRY[name] = previous


def backend_names() -> list[str]:
    """The registered names, in registry order."""
    return list(_REGISTRY)


def backend_class(name: str) -> type[Backend]:
    """The class registered under `name`.

    Raises:
        UnknownBackendError: naming the choices.
    """
    try:
        module_name, class_name = _REGISTRY[name]
    except KeyError:
        raise UnknownBackendError(
            f"unknown backend {name!r} (choose from {', '.join(_REGISTRY)})") from None
    cls: type[Backend] = getattr(importlib.import_module(module_name), class_name)
    return cls


def get_backend(name: str, **options: Any) -> Backend:
    """A ready backend. Options that this backend does not take are ignored, so one set of
    command-line options can serve several backends; `applicable_options` tells which apply.

    Raises:
        UnknownBackendError: for an unregistered name.
        BackendUnavailableError: when its solver package is not installed.
        BackendOptionError: for an option value the backend refuses.
    """
    cls = backend_class(name)
    if not cls.is_available():
        raise BackendUnavailableError(
            f"backend {name!r} needs {', '.join(cls.requires)}: pip install sudoku-cp "
            f"(or pip install {' '.join(cls.requires)})")
    return cls(**{key: value for key, value in options.items()
                  if key in cls.option_names and value is not None})


def applicable_options(names: list[str], options: dict[str, Any]) -> dict[str, list[str]]:
    """For each option that is set, the chosen backends that take it (an empty list: none do)."""
    return {key: [name for name in names if key in backend_class(name).option_names]
            for key, value in options.items() if value is not None}

