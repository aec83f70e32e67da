"""Small helpers for the words every message uses: plurals, articles, quoted excerpts, one-line
errors."""

from __future__ import annotations

EXCERPT = 40  # characters of an input line quoted in a message


def plural(count: int, noun: str) -> str:
    """'1 puzzle', '2 puzzles'."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def excerpt(text: str, limit: int = EXCERPT) -> str:
    """Text as a message quotes it: its repr, cut after `limit` characters with the length said
    ("'12345'", "'1234...' ... (90 characters)")."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text)} characters)"


def article(number: int) -> str:
    """'a' or 'an' before a number as it is read aloud: 'an 8x8', 'an 11x11', 'an 18x18',
    'an 80...', 'a 9x9', 'a 16x16'. Eight, eleven and eighteen start with a vowel: a number
    whose leading group of digits (of thousands) reads as one of them takes 'an'."""
    digits = str(abs(number))
    leading = digits[: len(digits) % 3 or 3]
    return "an" if leading.startswith("8") or leading in ("11", "18") else "a"


def one_line(error: BaseException) -> str:
    """An exception's message as one line: its first non-blank line, spaces squeezed (its
    type's name when it has none)."""
    lines = [" ".join(line.split()) for line in str(error).splitlines()]
    return next((line for line in lines if line), type(error).__name__)


__all__ = ["EXCERPT", "article", "excerpt", "one_line", "plural"]
