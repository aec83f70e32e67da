"""results_log.fields: one field of a log line, checked: its type (an int is no bool, a float
may be an int, never NaN) or its word, with a message that names the field."""

from __future__ import annotations

import math

import pytest

from sudoku_cp.result import Mode
from sudoku_cp.results_log.fields import RecordError, field_of, shown, word_of


def test_a_field_of_its_type_is_returned_and_an_int_may_stand_for_a_float() -> None:
    data = {"seconds": 2, "count": 3, "solved": True, "note": None}
    assert field_of(data, "seconds", float) == 2.0 and isinstance(
        field_of(data, "seconds", float), float
    )
    assert field_of(data, "count", int) == 3 and field_of(data, "solved", bool) is True
    assert field_of(data, "note", str, optional=True) is None
    assert field_of(data, "missing", int, optional=True) is None


@pytest.mark.parametrize(
    "data, kind, message",
    [
        ({}, int, "no value"),
        ({"value": None}, int, "value is null"),
        ({"value": True}, int, "value is not a whole number: true"),
        ({"value": 1.5}, int, "value is not a whole number: 1.5"),
        ({"value": "3"}, float, "value is not a number: '3'"),
        ({"value": math.nan}, float, "value is not a finite number: NaN"),
        ({"value": 1}, bool, "value is not true or false: 1"),
        ({"value": [1]}, dict, "value is not a JSON object: [1]"),
        ({"value": {}}, list, "value is not a JSON list: {}"),
    ],
)
def test_a_field_of_another_type_is_refused_naming_it(data: dict, kind: type, message: str) -> None:
    with pytest.raises(RecordError) as raised:
        field_of(data, "value", kind)
    assert str(raised.value) == message


def test_a_word_is_one_of_its_enum_or_refused_with_the_choices() -> None:
    assert word_of({"mode": "count"}, "mode", Mode) is Mode.COUNT
    with pytest.raises(RecordError, match="mode 'fast' is none of lexmin, any, count"):
        word_of({"mode": "fast"}, "mode", Mode)


def test_a_long_value_is_shown_cut() -> None:
    assert shown("x" * 100) == repr("x" * 100)[:37] + "..."
    assert shown([1, 2]) == "[1, 2]"
