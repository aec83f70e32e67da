"""One field of a log line's JSON object, checked: its type (an int is no bool, a float may be
an int, never NaN), or its word (a status, a verdict, a mode); `RecordError` names the field."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any, TypeVar


class RecordError(ValueError):
    """A JSON object that is not a whole record; the message says which field and why."""


_T = TypeVar("_T")


def field_of(data: Mapping[str, Any], name: str, kind: type[_T], *, optional: bool = False) -> _T:
    """`data[name]` when it has the type `kind` (an int is no bool; a float may be an int)."""
    if name not in data or data[name] is None:
        if optional:
            return None  # type: ignore[return-value]
        raise RecordError(f"no {name}" if name not in data else f"{name} is null")
    value = data[name]
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
        raise RecordError(f"{name} is not {_a(kind)}: {shown(value)}")
    if isinstance(value, float) and not math.isfinite(value):
        raise RecordError(f"{name} is not a finite number: {shown(value)}")
    return value


def word_of(data: Mapping[str, Any], name: str, words: type[_T]) -> _T:
    """`data[name]` as one of the words of the enum `words`."""
    text = field_of(data, name, str)
    try:
        return words(text)  # type: ignore[call-arg]
    except ValueError:
        choices = ", ".join(str(word) for word in words)  # type: ignore[attr-defined]
        raise RecordError(f"{name} {shown(text)} is none of {choices}") from None


def _a(kind: type) -> str:
    names = {str: "text", int: "a whole number", float: "a number", bool: "true or false"}
    return names.get(kind, f"a JSON {'object' if kind is dict else 'list'}")


def shown(value: Any) -> str:
    text = json.dumps(value) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def rating_of(data: Mapping[str, Any]) -> dict[str, Any] | None:
    """A puzzle's rating (`bench --rating`), None in a log without one.

    Raises: RecordError: for a rating without a whole-number level and a technique.
    """
    rating = field_of(data, "rating", dict, optional=True)
    if rating is None:
        return None
    level, technique = rating.get("level"), rating.get("technique")
    if isinstance(level, bool) or not isinstance(level, int) or not isinstance(technique, str):
        raise RecordError(f"rating is not a level and a technique: {shown(rating)}")
    return {"level": level, "technique": technique}


__all__ = ["RecordError", "field_of", "rating_of", "shown", "word_of"]
