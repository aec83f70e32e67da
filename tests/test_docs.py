"""The documentation is tested like code (in the style of sqlite-utils' test_docs.py).

- Every command of the click group `sudoku_cp.cli.main` (subcommands of `data` included) has its
  page, docs/commands/COMMAND.md, and every option of every command appears on that page.
- Every `sudoku-cp ...` line in a shell block of the docs or the README names real commands and
  real options of them.
- Every ```python block of the docs and the README runs as written (tests/test_doc_samples.py,
  with what its print lines show); a block that must not run is preceded by
  `<!-- docs-test: skip (the reason) -->`, and only the cluster recipes are.
- Every option of every built-in backend is in the options table of docs/backends.md.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from pathlib import Path

import click
import pytest

from .conftest import ROOT
from .doc_samples import DOCS, PYTHON_BLOCK, all_python_blocks, pages, sudoku_cp_lines

COMMAND_PAGES = DOCS / "commands"


def command_tree() -> dict[tuple[str, ...], click.Command]:
    """Every command by its path: () is the group itself, ('data', 'list') a subcommand."""
    from sudoku_cp.cli import main

    return walk(main)


def walk(
    command: click.Command, path: tuple[str, ...] = ()
) -> dict[tuple[str, ...], click.Command]:
    found = {path: command}
    if isinstance(command, click.Group):
        context = click.Context(command)
        for name in command.list_commands(context):
            child = command.get_command(context, name)
            assert child is not None, f"{' '.join(path + (name,))} is listed but cannot load"
            found.update(walk(child, path + (name,)))
    return found


def option_names(command: click.Command) -> list[str]:
    """The flags a reader can type: every name of every visible option, help left out."""
    names = []
    for parameter in command.params:
        if isinstance(parameter, click.Option) and not parameter.hidden:
            names += [*parameter.opts, *parameter.secondary_opts]
    return names


def page_of(path: tuple[str, ...]) -> Path:
    return COMMAND_PAGES / (f"{path[0]}.md" if path else "index.md")


def mentions(text: str, flag: str) -> bool:
    """Whether the page describes the option: in a row of its options table (a mention in the
    synopsis or in passing is not a description)."""
    return re.search(rf"^\|.*(?<![\w-]){re.escape(flag)}(?![\w-])", text, re.MULTILINE) is not None


def undocumented(
    tree: dict[tuple[str, ...], click.Command], read: Callable[[Path], str | None]
) -> list[str]:
    """What the command pages leave out: missing pages, subcommand sections and options."""
    problems = []
    for path, command in tree.items():
        page = page_of(path)
        text = read(page)
        shown = " ".join(("sudoku-cp", *path))
        if text is None:
            problems.append(f"{shown}: no page {page.relative_to(ROOT)}")
            continue
        if len(path) > 1 and f"# {shown}" not in text:
            problems.append(f"{shown}: no section '# {shown}' in {page.relative_to(ROOT)}")
        problems += [
            f"{shown}: option {flag} not in {page.relative_to(ROOT)}"
            for flag in option_names(command)
            if not mentions(text, flag) and (path, flag) != ((), "--version")
        ]
    return problems


def read_page(page: Path) -> str | None:
    return page.read_text(encoding="utf-8") if page.exists() else None


# -- every command and option is documented -------------------------------------------------------


def test_every_command_and_option_is_documented():
    assert undocumented(command_tree(), read_page) == []


def test_the_check_finds_an_undocumented_command_and_option():
    tree = command_tree()
    solve = tree[("solve",)]
    tree[("frobnicate",)] = click.Command("frobnicate", params=[click.Option(["--wibble"])])
    tree[("solve",)] = click.Command(
        "solve", params=[*solve.params, click.Option(["--not-in-the-docs"])]
    )
    tree[("data", "purge")] = click.Command("purge", params=[])
    already = set(undocumented(command_tree(), read_page))
    problems = [problem for problem in undocumented(tree, read_page) if problem not in already]
    assert "sudoku-cp frobnicate: no page docs/commands/frobnicate.md" in problems
    assert "sudoku-cp solve: option --not-in-the-docs not in docs/commands/solve.md" in problems
    assert (
        "sudoku-cp data purge: no section '# sudoku-cp data purge' in docs/commands/data.md"
        in problems
    )
    assert len(problems) == 3


def test_every_command_page_is_a_command():
    commands = {path[0] for path in command_tree() if path}
    stale = {page.stem for page in COMMAND_PAGES.glob("*.md")} - commands - {"index"}
    assert not stale, f"pages for commands that do not exist: {sorted(stale)}"


def test_every_command_is_in_the_site_navigation():
    navigation = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    missing = [
        path[0]
        for path in command_tree()
        if len(path) == 1 and f"commands/{path[0]}.md" not in navigation
    ]
    assert not missing


def test_every_backend_option_is_in_the_options_table():
    from sudoku_cp.backends import BUILTIN_BACKENDS, backend_class

    text = (DOCS / "backends.md").read_text(encoding="utf-8")
    missing = [
        f"{name}[{option.name}]"
        for name in BUILTIN_BACKENDS
        for option in backend_class(name).options
        if f"| `{name}` | `{option.name}` |" not in text
    ]
    assert not missing


# -- every sudoku-cp line in the docs is a real command ----------------------------------------

STOP_TOKENS = {"|", "||", "&&", ";", ">", ">>", "2>", "&"}


def command_lines() -> list[tuple[str, str]]:
    """(where, line) for every `sudoku-cp` command line of a sh or console block."""
    return list(sudoku_cp_lines())


def unknown_words(tree: dict[tuple[str, ...], click.Command], line: str) -> list[str]:
    """The command and option words of one command line that sudoku-cp does not have."""
    tokens = shlex.split(line, comments=True)[1:]
    path: tuple[str, ...] = ()
    while tokens and path + (tokens[0],) in tree:
        path += (tokens.pop(0),)
    command = tree[path]
    if isinstance(command, click.Group) and tokens and not tokens[0].startswith("-"):
        return [f"no command {' '.join(('sudoku-cp', *path, tokens[0]))}"]
    known = set(option_names(command)) | {"-h", "--help"}
    words = []
    for token in tokens:
        if token in STOP_TOKENS:
            break
        flag = token.split("=", 1)[0]
        if (
            flag.startswith("-")
            and flag != "-"
            and not re.fullmatch(r"-\d.*", flag)
            and flag not in known
        ):
            words.append(f"{' '.join(('sudoku-cp', *path))} has no option {flag}")
    return words


def test_the_docs_have_command_lines():
    assert len(list(command_lines())) > 30


@pytest.mark.parametrize("where, line", list(command_lines()), ids=lambda value: value[:70])
def test_every_command_line_in_the_docs_is_real(where, line):
    assert unknown_words(command_tree(), line) == []


def test_the_command_line_check_finds_unknown_words():
    tree = command_tree()
    assert unknown_words(tree, "sudoku-cp solve x.txt --mode any --frobnicate 3") == [
        "sudoku-cp solve has no option --frobnicate"
    ]
    assert unknown_words(tree, "sudoku-cp data purge top95") == ["no command sudoku-cp data purge"]
    assert unknown_words(tree, "sudoku-cp bench top95 --first=10 -b dfs | head -3 --x") == []


# -- every Python example runs as written -------------------------------------------------------


def test_the_docs_and_the_readme_have_python_examples():
    names = [name for name, _ in all_python_blocks()]
    assert any(name.startswith("README.md#") for name in names)
    assert sum(name.startswith("docs/python-api.md#") for name in names) >= 4
    assert any(name.startswith("docs/plugins.md#") for name in names)


def test_only_the_cluster_recipes_are_skipped():
    skipped = [
        page.relative_to(ROOT)
        for page in pages()
        for match in PYTHON_BLOCK.finditer(page.read_text(encoding="utf-8"))
        if match.group(1)
    ]
    assert {str(page) for page in skipped} == {"docs/dask-jobqueue.md"}


def test_every_page_is_in_the_site_navigation():
    navigation = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    missing = [
        str(page.relative_to(DOCS))
        for page in sorted(DOCS.rglob("*.md"))
        if str(page.relative_to(DOCS)) not in navigation
    ]
    assert not missing, f"pages mkdocs build --strict would refuse: {missing}"


def test_every_reference_directive_names_a_module():
    """`::: dotted.path` lines (a module, or a class or function in one) are resolved by
    mkdocstrings at build time; a renamed module breaks the site build (it did once:
    sudoku_cp.results became sudoku_cp.results_log)."""
    import importlib

    names = [
        match.group(1)
        for page in DOCS.rglob("*.md")
        for match in re.finditer(r"^::: ([\w.]+)$", page.read_text(encoding="utf-8"), re.M)
    ]
    assert names
    for name in names:
        parts = name.split(".")
        for split in range(len(parts), 0, -1):  # the longest importable prefix, then attributes
            try:
                found = importlib.import_module(".".join(parts[:split]))
            except ModuleNotFoundError:
                continue
            for attribute in parts[split:]:
                found = getattr(found, attribute)  # AttributeError: the directive names nothing
            break
        else:
            raise AssertionError(f"{name} names no module")


def test_the_architecture_page_names_every_module():
    """docs/architecture.md lists the source: a module added without a line there fails."""
    page = (ROOT / "docs" / "architecture.md").read_text()
    layout = page.split("## Every module", 1)[1].split("```", 2)[1]
    source = ROOT / "src" / "sudoku_cp"
    missing = []
    for path in sorted(source.rglob("*.py")):
        relative = path.relative_to(source)
        folder = "/".join(relative.parts[:-1])
        name = relative.name
        listed = (
            name in layout
            if not folder
            else f"{relative.parts[-2]}/" in layout
            and (name in layout or name.removesuffix(".py") in layout)
        )
        if not listed:
            missing.append(str(relative))
    assert not missing, "not on docs/architecture.md: " + ", ".join(missing)


def test_no_project_issue_numbers_in_user_facing_docs_or_help() -> None:
    """The docs, the README, the study files and the command help speak of what was done, never
    of the tracker's issue numbers (an upstream project's issue, named, is a reference)."""
    from click.testing import CliRunner

    from sudoku_cp.cli import COMMANDS, main

    pattern = re.compile(r"\bissues?[ -]#?\d+", re.IGNORECASE)
    texts = {str(path): path.read_text() for path in DOCS.rglob("*.md")}
    texts.pop(str(DOCS / "changelog.md"), None)  # the history, kept as it was written
    texts["README.md"] = (ROOT / "README.md").read_text()
    texts |= {str(path): path.read_text() for path in (ROOT / "studies").glob("*.toml")}
    runner = CliRunner()
    texts |= {name: runner.invoke(main, [name, "--help"]).stdout for name in COMMANDS}
    found = [
        f"{where}: {match.group()}"
        for where, text in texts.items()
        for match in pattern.finditer(text)
        if not text[: match.start()].rstrip().lower().endswith(("or-tools", "ortools"))
    ]
    assert found == []
