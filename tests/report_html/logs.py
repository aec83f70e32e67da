"""Results logs for the HTML report's tests: a crosscheck with a deliberate disagreement (the
wrong backends of tests/wrong_backends.py) and long configuration labels, made through the CLI
as a user would make one."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sudoku_cp.backends import registered

from ..bench_helpers import invoke
from ..conftest import DATA
from ..wrong_backends import WRONG_BACKENDS

# Two 9x9 puzzles with several completions (notlexmin answers another valid one: its cells
# that differ from the lex-min are marked), two with one (everyone agrees), and a 6x6 set.
NINE = [
    line
    for line in (DATA / "generated" / "multi-9x9.txt").read_text().splitlines()
    if line and not line.startswith("#")
][:2] + [
    line
    for line in (DATA / "generated" / "unique-9x9.txt").read_text().splitlines()
    if line and not line.startswith("#")
][:2]
SIX = [
    line
    for line in (DATA / "generated" / "multi-6x6.txt").read_text().splitlines()
    if line and not line.startswith("#")
][:1]
LONG = "sat[encoding=extended,amo=pairwise,solver=glucose3]"
OTHER_LONG = "sat[encoding=minimal,amo=ladder,solver=cadical195]"
BACKENDS = ("dfs", "notlexmin", LONG, OTHER_LONG)


@contextlib.contextmanager
def wrong_backends() -> Iterator[None]:
    """The deliberately wrong backends in the registry (as the `wrong_backends` fixture does,
    for fixtures of a wider scope)."""
    with contextlib.ExitStack() as stack:
        for name, class_name in WRONG_BACKENDS.items():
            stack.enter_context(registered(name, "tests.wrong_backends", class_name))
        yield


def disagreement_log(folder: Path) -> Path:
    """`crosscheck nine.txt six.txt -b dfs,notlexmin,sat[...],sat[...] --results`: notlexmin
    is wrong on the three puzzles with several completions (its valid answer is not the
    lex-min); the two with one completion agree."""
    nine, six = folder / "nine.txt", folder / "six.txt"
    nine.write_text("\n".join(NINE) + "\n")
    six.write_text("\n".join(SIX) + "\n")
    log = folder / "disagree.jsonl"
    with wrong_backends(), contextlib.chdir(folder):  # the sources as a user names them
        result = invoke(
            "crosscheck", nine.name, six.name, "-b", ",".join(BACKENDS), "-j", "1",
            "--results", log.name,
        )  # fmt: skip
    assert result.exit_code == 1, result.output  # the wrong answers make it exit 1
    return log


def records_of(log: Path) -> list[dict[str, Any]]:
    return [
        record
        for record in map(json.loads, log.read_text().splitlines())
        if record["kind"] == "puzzle"
    ]
