"""Plain-text layout shared by the command line's tables: aligned columns, prose wrapped to the
terminal's 80 columns, and the legend of the short configuration labels a table shows."""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Mapping, Sequence

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


def wrapped(text: str, *, indent: str = "", hanging: str | None = None) -> str:
    """Prose wrapped to `WIDTH` columns (words are never cut); lines after the first are
    indented by `hanging` when given, else by `indent`."""
    return textwrap.fill(
        text,
        WIDTH,
        initial_indent=indent,
        subsequent_indent=indent if hanging is None else hanging,
        break_long_words=False,
    )


def fitted_labels(
    render: Callable[[Mapping[str, str]], str], shorts: Mapping[str, str]
) -> dict[str, str]:
    """The short labels a table fits `WIDTH` columns with: `shorts` when `render(shorts)` fits,
    else every short label longer than its key replaced by a key, `backend#i` (the i-th
    configuration of that backend shown), which the table's legend spells out in full."""
    shown = dict(shorts)
    if _fits(render(shown)):
        return shown
    seen: dict[str, int] = {}
    for label, short in shorts.items():
        backend = short.split(" ", 1)[0].split("[", 1)[0]
        seen[backend] = seen.get(backend, 0) + 1
        key = f"{backend}#{seen[backend]}"
        if len(short) > len(key):
            shown[label] = key
    return shown


def _fits(text: str) -> bool:
    return all(len(line) <= WIDTH for line in text.splitlines())


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


__all__ = ["WIDTH", "aligned", "certified_line", "fitted_labels", "label_legend", "wrapped"]
