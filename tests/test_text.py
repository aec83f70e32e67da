"""text: the words every message uses: plurals, articles, quoted excerpts, one-line errors."""

from __future__ import annotations

from sudoku_cp.text import EXCERPT, article, excerpt, one_line, plural


def test_plural_says_one_puzzle_and_two_puzzles() -> None:
    assert [plural(count, "puzzle") for count in (0, 1, 2)] == [
        "0 puzzles",
        "1 puzzle",
        "2 puzzles",
    ]


def test_an_excerpt_is_quoted_and_a_long_one_cut_with_its_length() -> None:
    assert excerpt("12345") == "'12345'"
    long = "1" * 90
    assert excerpt(long) == f"{'1' * EXCERPT!r}... (90 characters)"
    assert excerpt(long, 4) == "'1111'... (90 characters)"


def test_an_before_a_number_read_with_a_vowel_first() -> None:
    takes_an = [8, 11, 18, 80, 81, 88, 800, 8000, 11000, 18000, 80000]
    takes_a = [1, 4, 6, 9, 10, 12, 16, 25, 36, 49, 64, 100, 110, 180, 1100, 1800]
    assert {article(number) for number in takes_an} == {"an"}
    assert {article(number) for number in takes_a} == {"a"}


def test_one_line_is_the_first_line_with_words_squeezed_or_the_type() -> None:
    assert one_line(ValueError("\n  bad   input \nsecond line")) == "bad input"
    assert one_line(KeyboardInterrupt()) == "KeyboardInterrupt"
