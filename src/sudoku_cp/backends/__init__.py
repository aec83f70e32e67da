"""The backend registry: names to classes, imported on first use.

The registry is the built-in backends plus the plugins: installed packages that declare an entry
point in the group `sudoku_cp.backends` (name = `module:Class`, e.g. `naive =
"sudoku_cp_example:NaiveBackend"`). Plugins are looked up once, on the first use of the registry,
and imported only when their backend is asked for. A plugin that fails to import, is not a
`Backend`, or takes a built-in's name never breaks the other backends: `backend_class` refuses it
in one line, and `backend_problems` says what is wrong (what `sudoku-cp backends` prints).

The backend modules themselves import their solver (ortools, pysat) only inside methods, so
listing or choosing a backend never loads a solver it does not use.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import importlib.metadata

from ..errors import BackendOptionError, BackendUnavailableError, UnknownBackendError
from ..text import one_line
from .base import Backend, BackendOption, Deadline, Outcome, TimeUp

__all__ = [
    "BUILTIN_BACKENDS",
    "Backend",
    "BackendOption",
    "BackendOptionError",
    "Deadline",
    "ENTRY_POINT_GROUP",
    "KNOWN_PLUGINS",
    "Outcome",
    "Plugin",
    "backend_class",
    "backend_names",
    "backend_problems",
    "get_backend",
    "install_hint",
    "is_backend_name",
    "plugins",
    "register_backend",
    "registered",
    "registry_entry",
    "reload_plugins",
    "shorthand_flags",
    "TimeUp",
]

log = logging.getLogger(__name__)

ENTRY_POINT_GROUP = "sudoku_cp.backends"
# Characters that configurations give a meaning to ('label=sat[solver=a|b],dfs'): a plugin name
# holding one could never be asked for.
_RESERVED_CHARACTERS = frozenset("[]=,| \t")

_REGISTRY: dict[str, tuple[str, str]] = {
    "dfs": ("sudoku_cp.backends.dfs", "DfsBackend"),
    "cpsat": ("sudoku_cp.backends.cpsat", "CpSatBackend"),
    "sat": ("sudoku_cp.backends.sat", "SatBackend"),
    "dlx": ("sudoku_cp.backends.dlx", "DlxBackend"),
    "z3": ("sudoku_cp.backends.z3", "Z3Backend"),
    "exact": ("sudoku_cp.backends.exact", "ExactBackend"),
    "minizinc": ("sudoku_cp.backends.minizinc", "MiniZincBackend"),
    "highs": ("sudoku_cp.backends.highs", "HighsBackend"),
    "pumpkin": ("sudoku_cp.backends.pumpkin", "PumpkinBackend"),
    "portfolio": ("sudoku_cp.backends.portfolio", "PortfolioBackend"),
}
BUILTIN_BACKENDS: tuple[str, ...] = tuple(_REGISTRY)
# Plugin distributions shipped in this repository, with how to install each: `sudoku-cp
# backends` lists the ones not installed, and asking for one names its install line.
KNOWN_PLUGINS: dict[str, str] = {
    "choco": "pip install ./plugins/sudoku-cp-choco (from a sudoku-cp checkout)",
}


@dataclass(frozen=True)
class Plugin:
    """A backend declared by an installed package: its entry point and where it comes from."""

    name: str
    module: str
    attribute: str  # the class, 'Class' or 'Outer.Inner'
    distribution: str  # the installed package ('sudoku-cp-example 0.1.0')

    @property
    def value(self) -> str:
        """The entry point's value, 'module:Class'."""
        return f"{self.module}:{self.attribute}"

    def describe(self) -> str:
        return f"plugin {self.name!r} ({self.value}, from {self.distribution})"


_plugins: dict[str, Plugin] | None = None  # None until the first use of the registry
_ignored: dict[str, str] = {}  # plugin name -> why it is not in the registry (a clash, a bad name)


def _distribution_of(entry_point: importlib.metadata.EntryPoint) -> str:
    dist = entry_point.dist
    if dist is None:
        return "an unknown distribution"
    return f"{dist.metadata['Name'] or '?'} {dist.version}"


def _load_plugins() -> dict[str, Plugin]:
    """The plugins, found on first use: entry points are read (not imported) and put in the
    registry, after the built-ins, in name order; a built-in's name stays the built-in's."""
    global _plugins
    if _plugins is not None:
        return _plugins
    import importlib.metadata  # here, not at the top: only a plugin lookup needs it

    found: dict[str, Plugin] = {}
    _ignored.clear()
    try:
        entry_points = sorted(
            importlib.metadata.entry_points(group=ENTRY_POINT_GROUP),
            key=lambda point: (point.name, point.value),
        )
    except Exception as error:  # broken metadata of some unrelated package  # pragma: no cover
        log.warning("cannot read the %s entry points: %s", ENTRY_POINT_GROUP, error)
        entry_points = []
    for entry_point in entry_points:
        attribute: str | None = entry_point.attr  # None for a value without ':Class'
        plugin = Plugin(
            entry_point.name, entry_point.module, attribute or "", _distribution_of(entry_point)
        )
        if not attribute:
            _ignored[plugin.name] = (
                f"plugin {plugin.name!r} ({entry_point.value}, from "
                f"{plugin.distribution}) is ignored: an entry point of "
                f"{ENTRY_POINT_GROUP} is 'module:Class'"
            )
        elif plugin.name in BUILTIN_BACKENDS:
            _ignored[plugin.name] = (
                f"{plugin.describe()} is ignored: {plugin.name!r} is a built-in backend"
            )
        elif plugin.name in found:
            _ignored[plugin.name] = (
                f"{plugin.describe()} is ignored: {found[plugin.name].describe()} has that name"
            )
        elif _RESERVED_CHARACTERS & set(plugin.name) or not plugin.name:
            _ignored[plugin.name] = (
                f"{plugin.describe()} is ignored: a backend name cannot "
                f"hold any of '[]=,|' or spaces"
            )
        else:
            found[plugin.name] = plugin
    for name, plugin in found.items():
        # A name already registered by hand (a test's backend) keeps its registration.
        _REGISTRY.setdefault(name, (plugin.module, plugin.attribute))
    _plugins = found
    return found


def plugins() -> dict[str, Plugin]:
    """The plugin backends in the registry, by name."""
    return dict(_load_plugins())


def reload_plugins() -> None:
    """Forget the plugins found so far and look for them again (after a package was installed
    or removed in a running process). Forked workers inherit what this process has found."""
    global _plugins
    if _plugins is not None:
        for name, plugin in _plugins.items():
            if _REGISTRY.get(name) == (plugin.module, plugin.attribute):
                del _REGISTRY[name]
    _plugins = None
    importlib.invalidate_caches()
    _load_plugins()


def register_backend(name: str, module_name: str, class_name: str) -> None:
    """Add a backend to the registry (tests use it for deliberately wrong backends)."""
    _load_plugins()
    _REGISTRY[name] = (module_name, class_name)


@contextlib.contextmanager
def registered(name: str, module_name: str, class_name: str) -> Iterator[None]:
    """Register a backend for the length of a `with` block (a test's deliberately wrong
    backend); the registry is restored afterwards. Forked workers inherit it."""
    _load_plugins()
    previous = _REGISTRY.get(name)
    _REGISTRY[name] = (module_name, class_name)
    try:
        yield
    finally:
        if previous is None:
            _REGISTRY.pop(name, None)
        else:
            _REGISTRY[name] = previous


def registry_entry(name: str) -> tuple[str, str]:
    """Where the registry finds `name`'s class: (module, class), for a child process to
    register it too.

    Raises:
        UnknownBackendError: for an unregistered name.
    """
    backend_class(name)  # the check, and the one-line error
    return _REGISTRY[name]


def backend_names() -> list[str]:
    """The registered names, in registry order: the built-ins, then the plugins (a plugin that
    fails to import included: `backend_problems` says why)."""
    _load_plugins()
    return list(_REGISTRY)


def _builtin(name: str) -> bool:
    """Whether `name` is a built-in's: no plugin can take it, so it is looked up without reading
    the entry points of every installed package (a tenth of a second at each start)."""
    return name in BUILTIN_BACKENDS and name in _REGISTRY


def is_backend_name(name: str) -> bool:
    """Whether `name` is in the registry (plugins are read only for a name not built in)."""
    return _builtin(name) or name in backend_names()


def backend_class(name: str) -> type[Backend]:
    """The class registered under `name`, imported now.

    Raises:
        UnknownBackendError: naming the choices.
        BackendUnavailableError: for a plugin that fails to import or is not a Backend, in one
            line naming the plugin, its package and the error.
    """
    if _builtin(name):
        return _import_class(*_REGISTRY[name])
    _load_plugins()
    try:
        module_name, class_name = _REGISTRY[name]
    except KeyError:
        hint = f"; {name!r} is a plugin: {KNOWN_PLUGINS[name]}" if name in KNOWN_PLUGINS else ""
        raise UnknownBackendError(
            f"unknown backend {name!r} (choose from {', '.join(_REGISTRY)}){hint}"
        ) from None
    plugin = (_plugins or {}).get(name)
    if plugin is None or (module_name, class_name) != (plugin.module, plugin.attribute):
        return _import_class(module_name, class_name)  # a built-in, or registered by hand
    try:
        cls = _import_class(module_name, class_name)
    except Exception as error:  # whatever a third-party import raises, it is one line here
        raise _PluginError(
            name, f"{plugin.describe()}: {type(error).__name__}: {one_line(error)}"
        ) from error
    if not (isinstance(cls, type) and issubclass(cls, Backend)):
        raise _PluginError(
            name,
            f"{plugin.describe()}: {plugin.attribute} is not a subclass "
            f"of sudoku_cp.backends.Backend",
        )
    return cls


class _PluginError(BackendUnavailableError):
    """A plugin that cannot be loaded; `reason` names it, its package and the error."""

    def __init__(self, name: str, reason: str) -> None:
        super().__init__(f"backend {name!r} cannot be loaded: {reason}")
        self.reason = reason


def _import_class(module_name: str, class_name: str) -> type[Backend]:
    target: Any = importlib.import_module(module_name)
    for attribute in class_name.split("."):  # 'module:Outer.Inner' is a valid entry point
        target = getattr(target, attribute)
    cls: type[Backend] = target
    return cls


def backend_problems() -> dict[str, str]:
    """What is wrong with the plugins, by name: one that fails to import or is not a Backend
    (it is listed, and refused when asked for), and one ignored because another backend has its
    name (a built-in's name stays the built-in's). Importing each plugin is the check, so this
    loads every plugin backend module (not their solvers)."""
    found = _load_plugins()  # first: loading them is what finds the ignored ones
    problems = dict(_ignored)
    for name in found:
        if name in problems:
            continue
        try:
            backend_class(name)
        except _PluginError as error:
            problems[name] = error.reason
    return problems


def get_backend(name: str, **options: Any) -> Backend:
    """A ready backend, built with the options its class declares (see `BackendOption`).

    Raises:
        UnknownBackendError: for an unregistered name.
        BackendUnavailableError: when its solver package is not installed, or a plugin that
            fails to load.
        BackendOptionError: for an option the backend does not declare (naming the ones it
            does) or a value it refuses.
    """
    cls = backend_class(name)
    if not cls.is_available():
        raise BackendUnavailableError(
            f"backend {name!r} needs {', '.join(cls.requires)}: {install_hint(cls)}"
        )
    return cls(**cls.configure(options))


def install_hint(cls: type[Backend]) -> str:
    """One line saying how to install what a backend `requires`."""
    return cls.install_hint or (f"pip install sudoku-cp (or pip install {' '.join(cls.requires)})")


def shorthand_flags() -> dict[str, tuple[str, BackendOption]]:
    """The command line's shorthand flags, from the built-in backends' declarations: flag ->
    (backend name, option). Plugins' options are set in configurations (`name[option=value]`)."""
    flags: dict[str, tuple[str, BackendOption]] = {}
    for name in BUILTIN_BACKENDS:
        for option in backend_class(name).options:
            if option.flag is not None:
                if option.flag in flags:  # pragma: no cover - a declaration mistake
                    raise ValueError(f"two options declare {option.flag}")
                flags[option.flag] = (name, option)
    return flags
