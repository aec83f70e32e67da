"""A study file: `bench --config STUDY.toml` reads a TOML file whose keys are bench's long
options (`time-limit = 10`, `backends = ["dfs", "sat[amo=pairwise|ladder]"]`), plus `inputs`
(or `sets`) for the puzzle files or sets. The file's values become the command's defaults, so an
option given on the command line overrides the file."""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from typing import Any

import click

from .options import Seconds, option
from .output import fail

INPUT_KEYS = ("inputs", "sets")  # the command's FILE|SET arguments


def study_option(*, comma_lists: tuple[str, ...]) -> Callable[..., Any]:
    """The `--config` option: read before the others, it sets their defaults from the file.
    `comma_lists` names the options whose value a file may give as a list (joined by commas)."""

    def load(ctx: click.Context, _param: click.Parameter, path: str | None) -> None:
        if path is not None:
            defaults = study_defaults(ctx.command, path, comma_lists=comma_lists)
            ctx.default_map = {**(ctx.default_map or {}), **defaults}

    return option(
        "--config",
        metavar="STUDY.toml",
        type=click.Path(dir_okay=False),
        default=None,
        is_eager=True,
        expose_value=False,
        callback=load,
        help="A study file: TOML whose keys are this command's long options (and inputs); "
        "the command line overrides it.",
    )


def study_keys(command: click.Command) -> dict[str, click.Parameter]:
    """A study file's keys: each visible long option's name without its dashes, and the
    inputs; the name of a boolean flag's negative form (`no-setup`) is a key too."""
    keys: dict[str, click.Parameter] = {}
    for param in command.params:
        if isinstance(param, click.Argument):
            keys.update(dict.fromkeys(INPUT_KEYS, param))
        elif isinstance(param, click.Option) and not param.hidden and param.name != "config":
            for flag in (*param.opts, *param.secondary_opts):
                if flag.startswith("--"):
                    keys[flag[2:]] = param
    return keys


def study_defaults(
    command: click.Command, path: str, *, comma_lists: tuple[str, ...] = ()
) -> dict[str, Any]:
    """The file's values by parameter name, checked: an unknown key, a value of the wrong
    type or out of its choices is one error line naming the file and the key."""
    try:
        with open(path, "rb") as handle:
            table = tomllib.load(handle)
    except OSError as error:
        fail(f"{path}: cannot read the study file: {error.strerror or error}")
    except tomllib.TOMLDecodeError as error:
        fail(f"{path}: not a TOML file: {error}")
    keys = study_keys(command)
    defaults: dict[str, Any] = {}
    for key, value in table.items():
        param = keys.get(key)
        if param is None or param.name is None:
            fail(f"{path}: unknown key {key!r} (the keys: {', '.join(sorted(keys))})")
        if param.name in defaults:
            fail(f"{path}: {key!r} gives {param.name} a second time")
        negative = isinstance(param, click.Option) and f"--{key}" in param.secondary_opts
        converted = _value(path, key, param, value, comma_lists)
        defaults[param.name] = (not converted) if negative else converted
    return defaults


def _value(
    path: str, key: str, param: click.Parameter, value: Any, comma_lists: tuple[str, ...]
) -> Any:
    """The value of one key, checked against its option's type."""

    def wrong(expected: str) -> None:
        fail(f"{path}: {key} must be {expected}, not {value!r}")

    if isinstance(param, click.Argument) or (isinstance(param, click.Option) and param.multiple):
        items = [value] if isinstance(value, str) else value
        if not isinstance(items, list) or not all(isinstance(item, str) for item in items):
            wrong("a list of strings")
        return tuple(items)
    if isinstance(param, click.Option) and param.is_flag:
        if not isinstance(value, bool):
            wrong("true or false")
        return value
    kind = param.type
    if isinstance(kind, click.IntRange | click.types.IntParamType):
        if isinstance(value, bool) or not isinstance(value, int):
            wrong("a whole number")
    elif isinstance(kind, Seconds):
        if isinstance(value, bool) or not isinstance(value, int | float | str):
            wrong('a number of seconds (or "inf")')
    elif param.name in comma_lists and isinstance(value, list):
        if not value or not all(isinstance(item, str) for item in value):
            wrong("a string or a list of strings")
        value = ",".join(value)
    elif not isinstance(value, str):
        wrong("a string")
    try:
        return kind.convert(value, param, None)
    except click.BadParameter as error:
        fail(f"{path}: {key}: {error.message}")


__all__ = ["INPUT_KEYS", "study_defaults", "study_keys", "study_option"]
