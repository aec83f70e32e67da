"""Plain-text layout shared by the command line's tables: aligned columns, prose wrapped to the
terminal's 80 columns, and the legend of the short configuration labels a table shows."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence

WIDTH = 80  # the columns a default output fits in


def aligned(rows: Sequence[Sequence[str]], *, text_columns: int = 1, gap: str = "  ") -> list[str]:
    """Rows as lines, each column as wide as its widest cell: the first `text_columns` to the
    left, the numbers to the right."""
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    return [
        gap.join(
            cell.ljust(width) if column < text_columns else cell.rjust(width)
            for column, (cell, width) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in rows
    ]


def wrapped(text: str, *, indent: str = "") -> str:
    """Prose wrapped to `WIDTH` columns (words are never cut)."""
    return textwrap.fill(
        text, WIDTH, initial_indent=indent, subsequent_indent=indent, break_long_words=False
    )


def certified_line(certified: int, claims: int) -> str:
    """--certify's tally: '12/12 answers certified', and what failed ('11/12 answers
    certified; 1 not certified, counted as wrong'); a timeout or an error claims nothing."""
    noun = "answer" if claims == 1 else "answers"
    line = f"{certified}/{claims} {noun} certified"
    if certified < claims:
        line += f"; {claims - certified} not certified, counted as wrong"
    if not claims:
        line += " (a timeout or an error claims nothing)"
    return line


def label_legend(shorts: Mapping[str, str]) -> list[str]:
    """One line per configuration shown by a short label: 'short: the full label'."""
    return [
        wrapped(f"{short}: {label}", indent="") for label, short in shorts.items() if short != label
    ]


__all__ = ["WIDTH", "aligned", "certified_line", "label_legend", "wrapped"]
