"""The documentation against what it documents (issue 37 B): examples that a reader can follow
page after page without one page's files breaking another's, commands that need nothing the
clone lacks, tables that list every command and extra, samples equal to the real output, install
hints that work from a clone, exit codes as the commands give them."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

from .conftest import ROOT
from .doc_samples import expand_loops, pages, shell_commands, writers, written_by_command

# The study scripts write into a new timestamped folder under results/ on every run.
OWN_FOLDER = "results/"


def shared_outputs(found: dict[Path, list[tuple[str, bool]]]) -> list[str]:
    """Files that two pages write, or that one page writes twice without resuming."""
    problems = []
    owners: dict[str, set[str]] = defaultdict(set)
    for page, written in found.items():
        seen: set[str] = set()
        for path, continues in written:
            if path.startswith(OWN_FOLDER):
                continue
            owners[path].add(str(page.relative_to(ROOT)))
            if path in seen and not continues and not path.endswith("/"):
                problems.append(f"{page.relative_to(ROOT)} writes {path} twice")
            seen.add(path)
    problems += [
        f"{path} is written by {', '.join(sorted(where))}"
        for path, where in sorted(owners.items())
        if len(where) > 1
    ]
    return problems


def test_no_two_pages_write_the_same_file():
    # A reader who follows the README and then python-api.md must not meet a results log of
    # other settings (ResultsFileError), nor certify.md's first command a log it did not write.
    assert shared_outputs({page: writers(page) for page in pages()}) == []


def test_the_shared_output_check_finds_a_clash():
    readme, api = ROOT / "README.md", ROOT / "docs" / "python-api.md"
    assert shared_outputs({readme: [("r.jsonl", False)], api: [("r.jsonl", True)]}) == [
        "r.jsonl is written by README.md, docs/python-api.md"
    ]
    assert shared_outputs({readme: [("r.jsonl", False), ("r.jsonl", False)]}) == [
        "README.md writes r.jsonl twice"
    ]
    assert shared_outputs({readme: [("r.jsonl", False), ("r.jsonl", True)]}) == []


def test_loops_are_unrolled_so_their_files_are_seen():
    commands = ["for mode in lexmin any; do", "sudoku-cp bench x --results $mode.jsonl", "done"]
    assert expand_loops(commands) == [
        "sudoku-cp bench x --results lexmin.jsonl",
        "sudoku-cp bench x --results any.jsonl",
    ]


# -- nothing outside the clone ---------------------------------------------------------------

OUTSIDE = re.compile(r"(?<![\w.])(?:\.\./|/work/)")
INLINE_COMMAND = re.compile(r"`((?:sudoku-cp|python|head|pip|gunzip) [^`]+)`")


# The full reports of the studies are `sudoku-cp report` output: they quote the command of the
# run they record, as it was run.
RECORDS = re.compile(r"docs/studies/[^/]+/\d{4}-\d{2}-\d{2}/")  # a study's dated runs, as made


def is_record(page: Path) -> bool:
    """A page a run wrote (its report, with the commands as they ran), not one to follow."""
    return RECORDS.match(str(page.relative_to(ROOT))) is not None


def commands_outside_the_clone(page: Path, root: Path = ROOT) -> list[str]:
    """The page's commands (shell blocks and inline code) that name a path beside the clone:
    the maintainers' data folder, which a reader does not have."""
    text = page.read_text(encoding="utf-8")
    commands = [*shell_commands(page), *INLINE_COMMAND.findall(text)]
    return [f"{page.relative_to(root)}: {line}" for line in commands if OUTSIDE.search(line)]


def test_no_command_in_the_docs_reads_outside_the_clone():
    found = [
        line for page in pages() if not is_record(page) for line in commands_outside_the_clone(page)
    ]
    assert found == []


def test_the_outside_check_sees_the_maintainers_data(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "```sh\nhead -1000 ../shared/data/serg_benchmark.txt > serg1000.txt\n```\n"
        "Run `python benchmarks/x.py /work/shared/data/top95.txt`; see ../README.md.\n"
    )
    found = [line.split(": ", 1)[1] for line in commands_outside_the_clone(page, tmp_path)]
    assert found == [
        "head -1000 ../shared/data/serg_benchmark.txt > serg1000.txt",
        "python benchmarks/x.py /work/shared/data/top95.txt",
    ]


def test_the_benchmarks_the_docs_run_default_to_data_in_the_clone():
    # tools/bench_dask.py, run as executors.md shows it, read ../shared/data/17clue.txt.
    scripts = {
        name
        for page in pages()
        for line in shell_commands(page)
        for name in re.findall(r"python (tools/\w+\.py)", line)
    }
    assert "tools/bench_dask.py" in scripts
    outside = [
        name
        for name in sorted(scripts)
        if re.search(r'ROOT\.parent\s*/\s*"shared"', (ROOT / name).read_text(encoding="utf-8"))
    ]
    assert outside == []


# -- exit codes as the commands give them -------------------------------------------------------


def exit_code(*args: str) -> int:
    from click.testing import CliRunner

    from sudoku_cp.cli import main

    return CliRunner().invoke(main, [*args, "-j", "1"]).exit_code


def test_the_exit_codes_are_those_the_docs_give(register):
    # commands/index.md's table (the README points to it): for solve, no solution or a timeout
    # is 1; for crosscheck and bench, timeouts and an agreed "no solution" are results, 0.
    register("sleepy", "tests.wrong_backends", "TimeoutBackend")
    unsat = str(ROOT / "data" / "generated" / "unsat-4x4.txt")
    unique = str(ROOT / "data" / "generated" / "unique-4x4.txt")  # first cells blank: sleepy
    assert exit_code("solve", unsat) == 1
    assert exit_code("solve", unique, "-b", "sleepy") == 1
    assert exit_code("crosscheck", unsat, "-b", "dfs,sat") == 0
    assert exit_code("crosscheck", unique, "-b", "dfs,sleepy") == 0
    assert exit_code("bench", unique, "-b", "dfs,sleepy", "--no-setup", "--no-isolate") == 0
    table = (ROOT / "docs" / "commands" / "index.md").read_text(encoding="utf-8")
    ok = next(line for line in table.splitlines() if line.startswith("| 0 |"))
    assert "crosscheck and bench" in ok and "timeouts" in ok and '"no solution"' in ok
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    sentence = readme.split("Exit codes", 1)[1].split("\n\n", 1)[0]
    assert "docs/commands/index.md#exit-codes-every-command" in sentence
    assert "never a timeout" in sentence


# -- the tables of commands and extras -----------------------------------------------------------


def table_rows(text: str, header: str) -> dict[str, str]:
    """The rows of the Markdown table whose header line starts with `header`, by their first
    cell (its backticks and link taken off)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    rows = {}
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        first = line.split("|")[1].strip()
        name = re.sub(r"\[`?([^`\]]+)`?\]\([^)]*\)|`([^`]+)`", lambda m: m[1] or m[2], first)
        rows[name] = line
    return rows


def test_the_command_table_lists_every_command():
    from .test_docs import command_tree

    commands = {path[0] for path in command_tree() if len(path) == 1}
    page = (ROOT / "docs" / "commands" / "index.md").read_text(encoding="utf-8")
    assert set(table_rows(page, "| command |")) == commands


def extras() -> dict[str, list[str]]:
    """pyproject.toml's extras: each with the distributions it installs (another extra of the
    project as `the NAME extra`)."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    found = {}
    for extra, requirements in project["optional-dependencies"].items():
        names = []
        for requirement in requirements:
            name = re.match(r"[A-Za-z0-9._-]+(\[[^\]]+\])?", requirement)
            assert name is not None
            if name[0].startswith(project["name"] + "["):
                names.append(f"the `{name[1].strip('[]')}` extra")
            else:
                names.append(name[0].split("[")[0])
        found[extra] = names
    return found


def test_the_extras_table_lists_every_extra_and_what_it_installs():
    page = (ROOT / "docs" / "getting-started.md").read_text(encoding="utf-8")
    rows = table_rows(page, "| extra |")
    assert set(rows) == set(extras())
    missing = [
        f"{extra}: {name}"
        for extra, names in extras().items()
        for name in names
        if not re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", rows[extra].split("|")[2])
    ]
    assert missing == []


def test_the_readme_names_the_system_packages_the_check_installs():
    # .ci/run installs Chromium for the HTML report's browser tests; a reader of the README must
    # learn that the suite needs it (or those tests skip).
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    packages = [
        word
        for line in re.findall(r"apt-get install ([^\n>]+)", script)
        for word in line.split()
        if not word.startswith("-")
    ]
    assert "chromium" in packages
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert [name for name in packages if not re.search(rf"\b{re.escape(name)}\b", readme)] == []


# -- install lines that work from a clone --------------------------------------------------------

PUBLISHED_FORM = re.compile(r"sudoku-cp\[")
EXTRA_INSTALL = re.compile(r"pip install -?e? ?'\.\[([\w,-]+)\]'")


def install_lines(text: str, where: str) -> list[str]:
    """What is wrong with a text's install lines: the published form `sudoku-cp[EXTRA]` (the
    toolkit is installed from a clone), or an extra that pyproject.toml does not have."""
    known = set(extras())
    problems = [f"{where}: sudoku-cp[...]" for _ in PUBLISHED_FORM.finditer(text)]
    for match in EXTRA_INSTALL.finditer(text):
        problems += [
            f"{where}: no extra {name}" for name in match[1].split(",") if name not in known
        ]
    return problems


def test_every_install_line_works_from_a_clone():
    # The docs and the tool's own hints (missing solver, matplotlib, scipy, dask, dratify).
    texts = [page for page in pages() if not is_record(page) and page.name != "CHANGELOG.md"]
    texts += sorted((ROOT / "src" / "sudoku_cp").rglob("*.py"))
    problems = [
        problem
        for path in texts
        for problem in install_lines(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    ]
    assert problems == []


def test_the_install_check_finds_the_published_form_and_unknown_extras():
    text = "pip install 'sudoku-cp[z3]'; pip install '.[plot,nosuch]'"
    assert install_lines(text, "x") == ["x: sudoku-cp[...]", "x: no extra nosuch"]


# -- defaults and sample outputs as the commands have them ---------------------------------------

DEFAULT = re.compile(r"\(default:? (?:`([^`]+)`|(\d[\d.]*)\b)")


def shown_default(parameter) -> str | None:
    """An option's default as a reader would type it; None when it has none to show."""
    if isinstance(parameter.show_default, str):
        return parameter.show_default
    if parameter.is_flag and parameter.secondary_opts:
        return parameter.opts[-1] if parameter.default else parameter.secondary_opts[-1]
    if parameter.default is None or parameter.is_flag:
        return None
    return str(parameter.default)


def wrong_defaults(tree, read) -> list[str]:
    """Option rows of the command pages whose `(default `X`)` is not the option's default."""
    import click

    from .test_docs import page_of

    problems = []
    for path, command in tree.items():
        text = read(page_of(path)) or ""
        for parameter in command.params:
            if not isinstance(parameter, click.Option) or parameter.hidden:
                continue
            flag = parameter.opts[-1]
            row = re.search(rf"^\|[^|]*`{re.escape(flag)}[ `].*$", text, re.MULTILINE)
            written = row and DEFAULT.search(row[0])
            if written and (written[1] or written[2]) != shown_default(parameter):
                problems.append(
                    f"{' '.join(('sudoku-cp', *path))} {flag}: the page says "
                    f"{written[1] or written[2]}, "
                    f"the default is {shown_default(parameter)}"
                )
    return problems


def test_every_default_on_the_command_pages_is_the_real_one():
    from .test_docs import command_tree, read_page

    assert wrong_defaults(command_tree(), read_page) == []


NUMBERS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
NUMBERS += ["eleven", "twelve", "thirteen", "fourteen", "fifteen"]
RACES = {"portfolio"}  # a race of other backends: in the tables, not counted as independent


def test_the_home_pages_list_every_backend_alike():
    # index.md said "three backends" and described cpsat's former default, long after the
    # README had seven: both tables hold every built-in (and the choco plugin), with the same
    # words, and the count before "independent backends" is the number of rows.
    from sudoku_cp.backends import BUILTIN_BACKENDS

    tables = {}
    for name in ("README.md", "docs/index.md"):
        text = (ROOT / name).read_text(encoding="utf-8")
        rows = table_rows(text, "| backend | method |")
        assert set(rows) == {*BUILTIN_BACKENDS, "choco"}, name
        count = re.search(r"(\w+) independent backends", text)
        assert count is not None and count[1].lower() == NUMBERS[len(set(rows) - RACES)], name
        tables[name] = {backend: row.split("|")[2].strip() for backend, row in rows.items()}
    # The plugin's cell links to its folder in the README only.
    tables["README.md"]["choco"] = tables["README.md"]["choco"].replace(
        "[`plugins/sudoku-cp-choco`](plugins/sudoku-cp-choco)", "`plugins/sudoku-cp-choco`"
    )
    assert tables["README.md"] == tables["docs/index.md"]


# -- what the docs read, they write --------------------------------------------------------------

READERS = ("report", "plot", "certify")


def logs_read(page: Path) -> list[str]:
    """The results logs a page's commands read: the .jsonl arguments of report, plot and
    certify, and `load_results("...")` in its Python blocks."""
    import shlex

    from .doc_samples import python_blocks

    read = []
    for line in expand_loops(shell_commands(page)):
        if not line.startswith("sudoku-cp "):
            continue
        words = shlex.split(line, comments=True)
        if len(words) > 1 and len(words) > 1 and words[1] in READERS:
            for index, word in enumerate(words[2:], start=2):
                if word.endswith(".jsonl") and words[index - 1] not in WRITING:
                    read.append(word)
    for code in python_blocks(page):
        read += re.findall(r"load_results\(\s*[\"']([^\"']+)[\"']", code)
    return read


WRITING = {"--results", "-o", "--output", "--report"}


def test_every_log_the_docs_read_is_one_they_write():
    # plot.md and report.md read r.jsonl, which no page wrote once each page had its own names.
    written = {path for page in pages() for path, _ in writers(page)}
    unread = [
        f"{page.relative_to(ROOT)}: {path}"
        for page in pages()
        if not is_record(page)
        for path in logs_read(page)
        if path not in written and not (ROOT / path).exists() and not path.startswith(OWN_FOLDER)
    ]
    assert unread == []


def time_limits_reported_together(found: dict[Path, list[str]]) -> list[str]:
    """Reports and plots of several logs whose writing commands had different time limits
    (`report` refuses them: one PAR-2 needs one limit)."""
    import shlex

    limit_of: dict[str, str] = {}
    for lines in found.values():
        for line in lines:
            words = shlex.split(line, comments=True) if line.startswith("sudoku-cp ") else []
            limit = next(
                (words[i + 1] for i, w in enumerate(words[:-1]) if w == "--time-limit"), ""
            )
            for path in written_by_command(line):
                limit_of[path] = limit
    problems = []
    for page, lines in found.items():
        for line in lines:
            if not line.startswith(("sudoku-cp report ", "sudoku-cp plot ")):
                continue
            output = written_by_command(line)
            logs = [
                word
                for word in shlex.split(line, comments=True)
                if word in limit_of and word not in output
            ]
            if len({limit_of[log] for log in logs}) > 1:
                problems.append(f"{page.relative_to(ROOT)}: {line}")
    return problems


def test_logs_reported_together_have_one_time_limit():
    # bench.md reported a log without a time limit with one of --time-limit 10: exit 2.
    found = {page: expand_loops(shell_commands(page)) for page in pages()}
    assert time_limits_reported_together(found) == []
    page = ROOT / "docs" / "commands" / "bench.md"
    planted = {
        page: [
            "sudoku-cp bench top95 --results a.jsonl",
            "sudoku-cp bench 17clue --time-limit 10 --results b.jsonl",
            "sudoku-cp report a.jsonl b.jsonl -o r.md",
        ]
    }
    assert time_limits_reported_together(planted) == [
        "docs/commands/bench.md: sudoku-cp report a.jsonl b.jsonl -o r.md"
    ]


# -- a backend a page runs is one the page installs ---------------------------------------------

# What must be installed for a backend beyond `pip install .`: the words of the install line.
INSTALLED_BY = {
    "choco": "./plugins/sudoku-cp-choco",
    "z3": "z3",
    "exact": "exact",
}


def uninstalled_backends(lines: list[str]) -> list[str]:
    """Commands that run a backend (by -b/--backends) that no earlier line of the page
    installs: a new user who follows the page has only `pip install .`, or the README's
    test extras (which hold z3 and exact)."""
    import shlex

    installed: set[str] = set()
    problems = []
    for line in lines:
        if line.startswith("pip install"):
            extras = re.findall(r"\.\[([\w,-]+)\]", line)
            words = set(line.split()) | {name for group in extras for name in group.split(",")}
            if any(name == "test" for group in extras for name in group.split(",")):
                words |= {"z3", "exact"}
            installed |= {backend for backend, word in INSTALLED_BY.items() if word in words}
            continue
        if not line.startswith("sudoku-cp "):
            continue
        words = shlex.split(line, comments=True)
        for index, word in enumerate(words[:-1]):
            if word in ("-b", "--backends", "--backend"):
                named = re.findall(r"(?:^|,)(\w+)", words[index + 1])
                problems += [
                    f"{line}: {name}"
                    for name in named
                    if name in INSTALLED_BY and name not in installed
                ]
    return problems


def test_every_backend_a_page_runs_is_installed_on_it():
    # backends.md ran -b dfs,choco,... where nothing had installed the choco plugin: exit 2.
    # The z3 and exact backends come with the README's test extras, which the walk has.
    readme = shell_commands(ROOT / "README.md")
    found = [
        f"{page.relative_to(ROOT)}: {problem}"
        for page in pages()
        if not is_record(page)
        for problem in uninstalled_backends(readme + shell_commands(page))
    ]
    assert found == []
    assert uninstalled_backends(["pip install .", "sudoku-cp solve x -b dfs,choco"]) == [
        "sudoku-cp solve x -b dfs,choco: choco"
    ]
