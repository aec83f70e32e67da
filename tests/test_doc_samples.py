"""The documentation's examples run, and show what they print (issue 37 B3, B7): every Python
block runs as written in a fresh folder holding a copy of data/ (as a reader would run it from
the project's root), and the comment on each of its `print(...)` lines is what that line prints;
every console sample (`$ sudoku-cp ...` and the lines after it) is the command's real output; a
name that a block's comments or docstrings give in backticks exists in the block or in
sudoku_cp; the README's tour and Getting started's run the same commands."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tokenize
from io import StringIO
from pathlib import Path

import pytest

from .conftest import DATA, ROOT
from .doc_samples import (
    RECORDING_RUNNER,
    SHELL_BLOCK,
    WRITING_OPTIONS,
    all_python_blocks,
    console_samples,
    pages,
    shown_outputs,
    shows,
)


def run_block(code: str, folder: Path) -> tuple[subprocess.CompletedProcess[str], dict[int, str]]:
    """Run a block in `folder` (with a copy of data/); what each of its lines printed."""
    shutil.copytree(DATA, folder / "data")
    (folder / "block.py").write_text(code, encoding="utf-8")
    printed = folder / "printed.json"
    done = subprocess.run(
        [sys.executable, "-c", RECORDING_RUNNER, str(folder / "block.py"), str(printed)],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=600,
    )
    lines = json.loads(printed.read_text()) if printed.exists() else {}
    return done, {int(number): text for number, text in lines.items()}


@pytest.mark.parametrize("name, code", all_python_blocks(), ids=[n for n, _ in all_python_blocks()])
def test_every_python_example_runs_and_prints_what_it_shows(name, code, tmp_path):
    if "to_pandas" in code:
        pytest.importorskip("pandas")
    done, printed = run_block(code, tmp_path)
    assert done.returncode == 0, f"{name} failed:\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}"
    wrong = [
        f"{name} line {number}: shows {comment!r}, prints {printed.get(number)!r}"
        for number, comment in shown_outputs(code).items()
        if not shows(comment, printed.get(number, ""))
    ]
    assert wrong == []


def test_the_printed_output_check(tmp_path):
    code = 'print("solved", 0.0165)  # solved 0.0041\nprint("a\\nb\\nc")  # a\\nb...\n'
    code += 'print("row 1 has two 1s (and 2 more)")  # the rules broken\n'
    done, printed = run_block(code, tmp_path)
    assert done.returncode == 0 and printed == {
        1: "solved 0.0165\n",
        2: "a\nb\nc\n",
        3: "row 1 has two 1s (and 2 more)\n",
    }
    shown = shown_outputs(code)
    assert [shows(shown[number], printed[number]) for number in (1, 2, 3)] == [True, True, False]
    assert not shows("solved 10", "solved 10 (the limit)")  # no ... : the whole line
    assert shows("Grid.parse('1030005...')", "Grid.parse('1030005099')")


# -- console samples are the real output ---------------------------------------------------------


def entries_of_built_ins(output: str) -> str:
    """`sudoku-cp backends` output without the plugins' entries (whether a plugin is installed
    differs between machines; the docs show a fresh install's)."""
    from sudoku_cp.backends import BUILTIN_BACKENDS

    kept, keep = [], True
    for line in output.splitlines(keepends=True):
        if line[:1].strip():
            keep = line.split()[0] in BUILTIN_BACKENDS
        if keep:
            kept.append(line)
    return "".join(kept)


def console_cases() -> list[tuple[str, str, str]]:
    return [
        (f"{page.relative_to(ROOT)}: {command}", command, output)
        for page in pages()
        for command, output in console_samples(page)
    ]


@pytest.mark.parametrize("where, command, shown", console_cases(), ids=lambda v: v[:60])
def test_every_console_sample_is_the_real_output(where, command, shown, tmp_path):
    shutil.copytree(DATA, tmp_path / "data")
    args = shlex.split(command)
    assert args[0] == "sudoku-cp", f"{where}: a console sample runs sudoku-cp"
    done = subprocess.run(
        [sys.executable, "-m", "sudoku_cp", *args[1:]],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "COLUMNS": "80"},
    )
    real = done.stdout
    if args[1:2] == ["backends"]:
        real, shown = entries_of_built_ins(real), entries_of_built_ins(shown)
    assert real == shown, f"{where}: the page shows other output than the command gives"


def test_the_docs_have_console_samples():
    assert {where.split(":")[0] for where, _, _ in console_cases()} >= {
        "docs/commands/backends.md",
        "docs/commands/generate.md",
    }


# -- names in a block's comments exist -----------------------------------------------------------


def missing_names(code: str) -> list[str]:
    """Names in backticks in a block's comments and strings that are neither a name of its
    code nor one of sudoku_cp's modules' (plugins.md's template said `_search`, a function it
    does not have)."""
    import importlib
    import pkgutil

    import sudoku_cp

    code_names, prose = set(), []
    for token in tokenize.generate_tokens(StringIO(code).readline):
        if token.type == tokenize.NAME:
            code_names.add(token.string)
        elif token.type in (tokenize.COMMENT, tokenize.STRING):
            prose.append(token.string)
    known = set(dir(sudoku_cp))
    for module in pkgutil.walk_packages(sudoku_cp.__path__, "sudoku_cp."):
        known.add(module.name.rsplit(".", 1)[1])
    known |= {name for name in dir(importlib.import_module("sudoku_cp.backends"))}
    return [
        name
        for text in prose
        for name in re.findall(r"`([A-Za-z_]\w*)`", text)
        if name not in code_names and name not in known
    ]


def test_every_name_a_python_example_mentions_exists():
    found = [
        f"{name}: `{word}`" for name, code in all_python_blocks() for word in missing_names(code)
    ]
    assert found == []


def test_the_name_check_finds_a_function_the_template_lacks():
    code = '"""Replace `_search` with your solver; `name` and `Grid` exist."""\nname = 1\n'
    assert missing_names(code) == ["_search"]


# -- the README's tour and Getting started's -----------------------------------------------------


def tour(page: Path) -> dict[tuple[str, ...], list[str]]:
    """The commands of a page's "A tour" section by command and positional arguments: their
    options sorted, the files they write left out (each page writes its own)."""
    text = page.read_text(encoding="utf-8").split("## A tour", 1)[1].split("\n## ", 1)[0]
    found = {}
    for line in tour_lines(text):
        words = shlex.split(line, comments=True)[1:]
        positional, options, index = [], [], 0
        while index < len(words):
            word = words[index]
            value = words[index + 1] if index + 1 < len(words) else ""
            takes = word.startswith("-") and value and not value.startswith("-")
            if word in WRITING_OPTIONS:
                pass
            elif word.startswith("-"):
                options.append(f"{word} {value}" if takes else word)
            else:
                positional.append(word)
            index += 2 if takes else 1
        found[tuple(positional)] = sorted(options)
    return found


def tour_lines(text: str) -> list[str]:
    """The sudoku-cp command lines of the shell blocks of a text."""
    return [
        line
        for block in SHELL_BLOCK.findall(text)
        for line in (part.strip() for part in block.splitlines())
        if line.startswith("sudoku-cp ")
    ]


def test_the_readme_and_getting_started_run_the_same_commands():
    readme, start = tour(ROOT / "README.md"), tour(ROOT / "docs" / "getting-started.md")
    shared = set(readme) & set(start)
    assert len(shared) >= 6
    assert {key: readme[key] for key in shared} == {key: start[key] for key in shared}
