"""Backend configurations: `sat`, `sat[solver=cadical195]`, `glu4=sat[solver=glucose4]`, and
grids of them: `sat[solver=glucose3|cadical195,encoding=minimal|extended]` is four.

A configuration is a `BackendSpec`: a registry name, options, and a label (the text as written
for a single configuration, `name[k=v,...]` for one expanded from a grid, or the label given
before `=`). Every option is checked against what the backend takes; unknown options, a
backend that takes no such shorthand flag, and two configurations with one label are refused in
one line naming the choices - never ignored.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from .backends import backend_class, backend_names, is_backend_name
from .engine import BackendSpec
from .errors import SudokuError

class ConfigurationError(SudokuError, ValueError):
    """A configuration that cannot be run: bad syntax, an unknown option, a repeated label."""


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
    """The options a backend takes, by their configuration names."""
    cls = backend_class(name)
    declared = [option.name for option in cls.options]
    undeclared = [key for key in cls.option_names
                  if not any(option.key == key for option in cls.options)]
    return sorted(declared + undeclared)


def _keyword(name: str, option: str) -> str:
    """The constructor keyword of a configuration option.

    Raises:
        ConfigurationError: for an option the backend does not take.
    """
    cls = backend_class(name)
    declared = cls.option(option)
    if declared is not None:
        return declared.key
    keyword = option.replace("-", "_")
    if keyword not in cls.option_names:
        choices = ", ".join(option_names(name)) or "none"
        raise ConfigurationError(f"{name} has no option {option!r} (its options: {choices})")
    return keyword


def _value(name: str, keyword: str, text: str) -> Any:
    """An option's value as the backend declares it (a number, a choice); an undeclared
    option's whole numbers become ints, the rest stay text.

    Raises:
        BackendOptionError: for a value the declaration refuses, naming what it takes.
    """
    declared = backend_class(name).option(keyword)
    if declared is not None:
        return declared.convert(text)
    if text.lstrip("-").isdigit():
        return int(text)
    return text


def parse_one(text: str) -> list[BackendSpec]:
    """One configuration, or the grid it expands into.

    Raises:
        ConfigurationError, UnknownBackendError: for what cannot be run.
    """
    label = ""
    body = text
    bracket = text.find("[")
    equals = text.find("=")
    if equals >= 0 and (bracket < 0 or equals < bracket):
        label, body = text[:equals].strip(), text[equals + 1:].strip()
        if not label:
            raise ConfigurationError(f"an empty label in {text!r}")
    name, _, rest = body.partition("[")
    name = name.strip()
    if not is_backend_name(name):
        backend_class(name)  # raises UnknownBackendError naming the choices
    if rest and not rest.endswith("]"):
        raise ConfigurationError(f"{text!r}: options go in one [...] at the end")
    grid: list[list[tuple[str, Any]]] = []
    for item in split_top_level(rest[:-1]) if rest else []:
        option, equal, values = item.partition("=")
        if not equal or not values.strip():
            raise ConfigurationError(f"{text!r}: write options as name=value, got {item!r}")
        keyword = _keyword(name, option.strip())
        if any(existing == keyword for existing, _ in (alternatives[0] for alternatives in grid)):
            raise ConfigurationError(f"{text!r}: option {option.strip()!r} is given twice")
        grid.append([(keyword, _value(name, keyword, value.strip()))
                     for value in values.split("|")])
    combinations = list(itertools.product(*grid)) if grid else [()]
    specs = []
    for combination in combinations:
        options = dict(combination)
        if label and len(combinations) > 1:
            raise ConfigurationError(f"{text!r}: a label names one configuration, not a grid "
                                     f"of {len(combinations)}")
        specs.append(BackendSpec(name, options, label or _label(name, options, text,
                                                                len(combinations))))
    return specs


class _Named:
    def __init__(self, name: str) -> None:
        self.name = name


def _label(name: str, options: Mapping[str, Any], text: str, count: int) -> str:
    if count == 1:
        return text.strip()
    cls = backend_class(name)
    shown = ",".join(f"{(cls.option(key) or _Named(key)).name}={value}"
                     for key, value in options.items())
    return f"{name}[{shown}]"


def _takes(name: str, key: str) -> bool:
    """Whether a registered backend takes an option (a broken plugin takes none)."""
    try:
        return key in backend_class(name).option_names
    except SudokuError:
        return False


def parse_configurations(items: Sequence[str | BackendSpec], *,
                         shorthands: Mapping[str, Any] | None = None) -> list[BackendSpec]:
    """Configurations from strings (each may hold several, comma-separated) or specs.

    `shorthands` are options given as flags (`--sat-solver`, `--workers`, ...): each applies to
    every configuration whose backend takes it, unless that configuration sets it itself.

    Raises:
        ConfigurationError: for bad syntax, an unknown option, a shorthand no chosen backend
            takes, no configuration, or a label used twice.
        UnknownBackendError: for an unknown backend name.
    """
    specs: list[BackendSpec] = []
    for item in items:
        if isinstance(item, BackendSpec):
            specs.append(item)
            continue
        for part in split_top_level(item):
            specs.extend(parse_one(part))
    if not specs:
        raise ConfigurationError("no backend configuration given")
    given = {key: value for key, value in (shorthands or {}).items() if value is not None}
    for key, value in given.items():
        takers = [spec for spec in specs if key in backend_class(spec.name).option_names]
        if not takers:
            owners = [name for name in backend_names() if _takes(name, key)]
            raise ConfigurationError(
                f"--{key.replace('_', '-')} applies to {', '.join(owners) or 'no backend'}, "
                f"not to {', '.join(spec.label for spec in specs)}")
        specs = [BackendSpec(spec.name, {key: value, **spec.options}, spec.label)
                 if spec in takers and key not in spec.options else spec for spec in specs]
    labels = [spec.label for spec in specs]
    repeated = sorted({label for label in labels if labels.count(label) > 1})
    if repeated:
        raise ConfigurationError(f"two configurations are labelled {', '.join(repeated)}: give "
                                 f"each its own label (label=backend[...])")
    return specs


__all__ = ["ConfigurationError", "option_names", "parse_configurations",
           "parse_one", "split_top_level"]
