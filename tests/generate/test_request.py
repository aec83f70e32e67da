"""generate.request: the givens range and the request, checked as they are made."""

from __future__ import annotations

import re

import pytest

from sudoku_cp.errors import GridShapeError
from sudoku_cp.generate import GenerateError, GivensRange, make_request, parse_givens_range


@pytest.mark.parametrize(
    "text, low, high", [("24..30", 24, 30), ("25", 25, 25), (" 0..81 ", 0, 81)]
)
def test_parse_givens_range(text, low, high):
    assert parse_givens_range(text, size=9) == GivensRange(low, high)


@pytest.mark.parametrize(
    "text, message",
    [
        ("30..20", "the low end 30 is above the high end 20"),
        ("10..82", "a 9x9 grid has only 81 cells"),
        ("a..b", "expected givens as A..B"),
        ("-1..5", "expected givens as A..B"),
        ("", "expected givens as A..B"),
    ],
)
def test_bad_givens_range(text, message):
    with pytest.raises(GenerateError, match=re.escape(message)):
        parse_givens_range(text, size=9)


def test_make_request_checks_kind_size_and_count():
    with pytest.raises(GenerateError, match="unknown kind 'easy'"):
        make_request("easy", size=9, seed=0)
    with pytest.raises(GridShapeError, match="prime"):
        make_request("unique", size=7, seed=0)
    with pytest.raises(GenerateError, match="count"):
        make_request("unique", size=9, seed=0, count=0)
    request = make_request("unique", size=6, seed=0)
    assert (request.box, request.givens) == ((2, 3), GivensRange(9, 16))
