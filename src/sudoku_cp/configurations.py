"""Backend configurations: `sat`, `sat[solver=cadical195]`, `glu4=sat[solver=glucose4]`, and
grids of them: `sat[solver=glucose3|cadical195,encoding=minimal|extended]` is four.

A `Configuration` is a registry name, options, and a label (the text as written for a single
configuration, `name[k=v,...]` for one expanded from a grid, or the label given before `=`).
Every option is checked and converted by the backend's declaration (`BackendOption`); unknown
options, a shorthand flag that no chosen backend takes, and two configurations with one label are
refused in one line naming the choices - never ignored.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .backends import Backend, backend_class, get_backend, is_backend_name
from .errors import ConfigurationError, SudokuError


@dataclass(frozen=True)
class Configuration:
    """A backend configuration: a registry name, its options (converted by the backend's
    declarations), and the label it is shown and logged under (its record key `backend`)."""

    backend: str
    options: Mapping[str, Any] = field(default_factory=dict)
    label: str = ""

    def __post_init__(self) -> None:
        if not self.label:
            object.__setattr__(self, "label", self.backend)

    def build(self) -> Backend:
        """The backend, ready to solve.

        Raises:
            BackendUnavailableError, BackendOptionError: see `get_backend`.
        """
        return get_backend(self.backend, **dict(self.options))

    def describe(self) -> dict[str, Any]:
        """JSON-ready: label, backend name and options (what a results header records)."""
        return {"label": self.label, "backend": self.backend, "options": dict(self.options)}


def split_top_level(text: str) -> list[str]:
    """'dfs,sat[a=1,b=2]' -> ['dfs', 'sat[a=1,b=2]']: commas inside brackets stay."""
    parts: list[str] = []
    current: list[str] = []
    depth = 0
    for char in text:
        if char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
            if depth < 0:
                raise ConfigurationError(f"unbalanced ']' in {text!r}")
        if char == "," and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
    if depth:
        raise ConfigurationError(f"unclosed '[' in {text!r}")
    parts.append("".join(current))
    return [part.strip() for part in parts if part.strip()]


def option_names(name: str) -> list[str]:
    """The options a backend declares, by name, in declaration order."""
    return backend_class(name).option_names()


def _checked_option(name: str, option: str, text: str) -> tuple[str, Any]:
    """An option's name and value as the backend declares them (today's name, a number, a
    canonical choice); an earlier name of the option is read as today's, with a notice.

    Raises:
        ConfigurationError: for an option the backend does not declare, naming the ones it does.
        BackendOptionError: for a value the declaration refuses, naming what it takes.
    """
    declared = backend_class(name).resolve_option(option)
    if declared is None:
        choices = ", ".join(option_names(name)) or "none"
        raise ConfigurationError(f"{name} has no option {option!r} (its options: {choices})")
    return declared.name, declared.convert(text)


def _shown(name: str, option: str, text: str, declared: tuple[str, Any]) -> str:
    """An option's value as a grid's label shows it: the canonical value, or an old value as
    written (labels in logs written before the value was renamed read the same)."""
    found = backend_class(name).resolve_option(option, notice=False)
    if found is not None and text in dict(found.old_values):
        return text
    return str(declared[1])


def parse_one(text: str) -> list[Configuration]:
    """One configuration, or the grid it expands into.

    Raises:
        ConfigurationError, UnknownBackendError: for what cannot be run.
    """
    label = ""
    body = text
    bracket = text.find("[")
    equals = text.find("=")
    if equals >= 0 and (bracket < 0 or equals < bracket):
        label, body = text[:equals].strip(), text[equals + 1 :].strip()
        if not label:
            raise ConfigurationError(f"an empty label in {text!r}")
    name, _, rest = body.partition("[")
    name = name.strip()
    if not is_backend_name(name):
        backend_class(name)  # raises UnknownBackendError naming the choices
    if rest and not rest.endswith("]"):
        raise ConfigurationError(f"{text!r}: options go in one [...] at the end")
    # Per option, its alternatives as ((name as written, value as written), (name, value)).
    grid: list[list[tuple[tuple[str, str], tuple[str, Any]]]] = []
    for item in split_top_level(rest[:-1]) if rest else []:
        option, equal, values = item.partition("=")
        if not equal or not values.strip():
            raise ConfigurationError(f"{text!r}: write options as name=value, got {item!r}")
        option = option.strip()
        alternatives = [
            ((option, _shown(name, option, value.strip(), declared)), declared)
            for value in values.split("|")
            for declared in [_checked_option(name, option, value.strip())]
        ]
        if any(known[0][1][0] == alternatives[0][1][0] for known in grid):
            raise ConfigurationError(f"{text!r}: option {option!r} is given twice")
        grid.append(alternatives)
    combinations = list(itertools.product(*grid)) if grid else [()]
    if label and len(combinations) > 1:
        raise ConfigurationError(
            f"{text!r}: a label names one configuration, not a grid of {len(combinations)}"
        )
    configurations = []
    for combination in combinations:
        options = dict(declared for _, declared in combination)
        if label:
            shown = label
        elif len(combinations) == 1:
            shown = text.strip()
        else:  # the options as written, so that a log's labels read as its command line
            written = ",".join(f"{key}={value}" for (key, value), _ in combination)
            shown = f"{name}[{written}]"
        configurations.append(Configuration(name, options, shown))
    return configurations


def parse_configurations(
    items: Sequence[str | Configuration],
    *,
    flags: Mapping[str, Any] | None = None,
    options: Mapping[str, Any] | None = None,
) -> list[Configuration]:
    """Configurations from strings (each may hold several, comma-separated) or configurations.

    `flags` are the command line's shorthand flags (`--sat-solver`, `--workers`, ...: see
    `backends.shorthand_flags`), each applying to every configuration of its backend that does
    not set that option itself. `options` are options given by name (the Python API's keyword
    arguments), each applying to every configuration whose backend declares it, likewise.

    Raises:
        ConfigurationError: for bad syntax, an unknown option, a flag or option that no chosen
            backend takes, no configuration, or a label used twice.
        BackendOptionError: for a value an option refuses.
        UnknownBackendError: for an unknown backend name.
    """
    configurations: list[Configuration] = []
    for item in items:
        if isinstance(item, Configuration):
            configurations.append(item)
            continue
        for part in split_top_level(item):
            configurations.extend(parse_one(part))
    if not configurations:
        raise ConfigurationError("no backend configuration given")
    for flag, value in (flags or {}).items():
        if value is not None:
            configurations = _apply_flag(configurations, flag, value)
    for key, value in (options or {}).items():
        if value is not None:
            configurations = _apply_option(configurations, key, value)
    labels = [configuration.label for configuration in configurations]
    repeated = sorted({label for label in labels if labels.count(label) > 1})
    if repeated:
        raise ConfigurationError(
            f"two configurations are labelled {', '.join(repeated)}: give "
            f"each its own label (label=backend[...])"
        )
    return configurations


def _apply_flag(chosen: list[Configuration], flag: str, value: Any) -> list[Configuration]:
    from .backends import shorthand_flags

    owner, option = shorthand_flags()[flag]
    if not any(item.backend == owner for item in chosen):
        raise ConfigurationError(
            f"{flag} applies to {owner}, not to {', '.join(item.label for item in chosen)}"
        )
    return [
        _with_option(item, option.name, value) if item.backend == owner else item for item in chosen
    ]


def _apply_option(chosen: list[Configuration], key: str, value: Any) -> list[Configuration]:
    takers = [item for item in chosen if _takes(item.backend, key)]
    if not takers:
        offered = sorted({name for item in chosen for name in _declared(item.backend)})
        raise ConfigurationError(
            f"no chosen backend has an option {key!r} (their options: "
            f"{', '.join(offered) or 'none'})"
        )
    return [_with_option(item, key, value) if item in takers else item for item in chosen]


def _with_option(item: Configuration, key: str, value: Any) -> Configuration:
    declared = backend_class(item.backend).resolve_option(key)
    assert declared is not None
    if declared.name in item.options:
        return item  # the configuration's own setting wins
    options = {**item.options, declared.name: declared.convert(value)}
    return Configuration(item.backend, options, item.label)


def _declared(name: str) -> list[str]:
    """The options a registered backend declares (a broken plugin declares none)."""
    try:
        return option_names(name)
    except SudokuError:
        return []


def _takes(name: str, key: str) -> bool:
    try:
        return backend_class(name).resolve_option(key, notice=False) is not None
    except SudokuError:
        return False


__all__ = [
    "Configuration",
    "ConfigurationError",
    "option_names",
    "parse_configurations",
    "parse_one",
    "split_top_level",
]
