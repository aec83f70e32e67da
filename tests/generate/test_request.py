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


def test_a_negative_seed_is_refused():
    # random.Random(-1) is random.Random(1): a negative seed would repeat a positive one's
    # puzzles.
    with pytest.raises(GenerateError, match="the seed must be 0 or more, got -1"):
        make_request("unique", size=9, seed=-1)


def test_a_multi_range_above_the_most_givens_of_two_completions_is_refused():
    with pytest.raises(
        GenerateError,
        match=re.escape(
            "givens 78..81: a multi puzzle keeps at most 77 of the 81 cells (its two "
            "completions differ in at least 4 cells, which stay blank)"
        ),
    ):
        make_request("multi", size=9, givens="78..81", seed=0)
    assert make_request("multi", size=9, givens="70..81", seed=0).givens == GivensRange(70, 81)
    assert make_request("unique", size=9, givens="81", seed=0).givens == GivensRange(81, 81)
