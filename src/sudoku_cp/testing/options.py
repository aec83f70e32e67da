"""Which configurations of a backend the contract suite runs: every declared value of every option.

`contract_configurations(cls, name)` gives the backend's defaults first, then each declared value
of each option with the others at their defaults, then the combinations asked for, each once, as
`sudoku_cp.configurations.Configuration`s labelled as on the command line (`sat`,
`sat[solver=cadical195]`): a failing case names the configuration to run again with `-b`.

- An option whose choices are a function (sat's `solver`) counts every value it returns.
- A whole-number option (cpsat's `workers`) has no list of values: it runs at its default, and
  at the values a combination names.
- Options given (`fixed`) hold in every configuration and are not varied.
- A combination is written as a configuration grid, with or without the backend's name:
  `"model=boolean|integer,lexmin=objective|search"` is four configurations. Where two options
  work together (an integer model and its implied counts), a combination runs them together.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from ..backends import Backend
from ..configurations import Configuration, split_top_level
from ..errors import ConfigurationError


def contract_configurations(
    cls: type[Backend],
    name: str,
    *,
    fixed: Mapping[str, Any] | None = None,
    combinations: Sequence[str] = (),
    every_value: bool = True,
) -> list[Configuration]:
    """The configurations to check, the defaults (with `fixed`) first; `name` is the registry
    name the labels start with (for a class, its name in the failures).

    Raises:
        BackendOptionError: for a fixed or combined value an option refuses.
        ConfigurationError: for an option the backend does not declare, or a malformed
            combination.
    """
    given = _canonical(cls, fixed or {})
    variants: list[dict[str, Any]] = [{}]
    if every_value:
        for option in cls.options:
            if option.name in given:
                continue
            # the default's own value repeats the defaults: dropped below, as every repeat
            variants.extend(
                {option.name: option.convert(value)} for value in option.choice_list() or ()
            )
    for text in combinations:
        variants.extend(_combined(cls, text))
    configurations: list[Configuration] = []
    seen: set[str] = set()
    for variant in variants:
        options = {**given, **variant}
        key = repr(sorted(cls.configure(options).items()))
        if key not in seen:
            seen.add(key)
            configurations.append(Configuration(cls.name, options, _label(cls, name, options)))
    return configurations


def _canonical(cls: type[Backend], options: Mapping[str, Any]) -> dict[str, Any]:
    """Options as the backend declares them: today's names, converted values.

    Raises:
        ConfigurationError, BackendOptionError: see `contract_configurations`.
    """
    canonical = {}
    for key, value in options.items():
        declared = cls.resolve_option(key, notice=False)
        if declared is None:
            known = ", ".join(cls.option_names()) or "none"
            raise ConfigurationError(f"{cls.name} has no option {key!r} (its options: {known})")
        canonical[declared.name] = declared.convert(value)
    return canonical


def _combined(cls: type[Backend], text: str) -> list[dict[str, Any]]:
    """The configurations of one combination, `"a=x|y,b=z"` or `"name[a=x|y,b=z]"`.

    Raises:
        ConfigurationError, BackendOptionError: see `contract_configurations`.
    """
    _, bracket, inside = text.partition("[")
    if bracket:
        if not inside.endswith("]"):
            raise ConfigurationError(f"{text!r}: options go in one [...] at the end")
        text = inside[:-1]
    alternatives = []
    for item in split_top_level(text):
        key, equal, values = item.partition("=")
        if not equal or not values.strip():
            raise ConfigurationError(f"{text!r}: write options as name=value, got {item!r}")
        alternatives.append(
            [_canonical(cls, {key.strip(): value.strip()}) for value in values.split("|")]
        )
    return [
        {key: value for part in combination for key, value in part.items()}
        for combination in itertools.product(*alternatives)
    ]


def _label(cls: type[Backend], name: str, options: Mapping[str, Any]) -> str:
    """`name`, or `name[option=value,...]` with the options in declaration order."""
    shown = [f"{key}={options[key]}" for key in cls.option_names() if key in options]
    return f"{name}[{','.join(shown)}]" if shown else name


__all__ = ["contract_configurations"]
