"""What the documentation's examples do, read from the pages: the shell commands of each page in
order, the files they write, the Python blocks and the output their comments show. Shared by
tests/test_docs.py, tests/test_doc_drift.py and tests/test_doc_samples.py."""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator
from pathlib import Path

from .conftest import ROOT

DOCS = ROOT / "docs"
README = ROOT / "README.md"
SKIP_MARK = "<!-- docs-test: skip"
SHELL_BLOCK = re.compile(r"^```(?:sh|console)\n(.*?)^```", re.MULTILINE | re.DOTALL)
PYTHON_BLOCK = re.compile(
    r"^(<!-- docs-test: skip[^\n]*-->\n)?```python\n(.*?)^```", re.MULTILINE | re.DOTALL
)
# The options through which a command writes a file or a folder of its own.
WRITING_OPTIONS = {"--results", "-o", "--output", "--report", "--keep-proofs", "--out"}
# Python keywords and calls that write a file.
PYTHON_WRITERS = re.compile(
    r"""\b(?:results|output|report)\s*=\s*["']([^"']+)["']|open\(\s*["']([^"']+)["']\s*,\s*["'][wa]"""
)


def pages() -> list[Path]:
    return [*sorted(DOCS.rglob("*.md")), README]


def shell_commands(page: Path) -> list[str]:
    """The commands of a page's sh and console blocks, in order: continuation lines joined,
    console prompts taken off, console output and comment lines left out."""
    commands = []
    for match in SHELL_BLOCK.finditer(page.read_text(encoding="utf-8")):
        console = match.group(0).startswith("```console")
        joined = re.sub(r"\\\n\s*", " ", match.group(1))
        for line in joined.splitlines():
            if console:
                if not line.startswith("$ "):
                    continue  # output
                line = line[2:]
            line = line.strip()
            if line and not line.startswith("#"):
                commands.append(line)
    return commands


def sudoku_cp_lines() -> Iterator[tuple[str, str]]:
    """(where, line) for every `sudoku-cp` command line of a sh or console block."""
    for page in pages():
        for line in shell_commands(page):
            if line.startswith("sudoku-cp"):
                yield f"{page.relative_to(ROOT)}: {line}", line


def written_by_command(line: str) -> list[str]:
    """The files (or folders) a shell command line writes: its output options' values and its
    redirections (`> FILE`, `tee FILE`), whatever program it runs."""
    try:
        tokens = shlex.split(line, comments=True)
    except ValueError:
        return []
    written = []
    for index, token in enumerate(tokens):
        following = tokens[index + 1] if index + 1 < len(tokens) else None
        flag, _, value = token.partition("=")
        if flag in WRITING_OPTIONS and token.startswith("--") and value:
            written.append(value)
        elif following and (
            (token in WRITING_OPTIONS and not following.startswith("-"))
            or token in (">", ">>", "tee")
        ):
            written.append(following)
        elif re.fullmatch(r">>?[^>&].*", token):
            written.append(token.lstrip(">"))
    if "--config" in tokens[:-1]:
        written = by_study(tokens, written)
    return [path for path in written if not path.startswith("/dev/") and path != "-"]


def by_study(tokens: list[str], written: list[str]) -> list[str]:
    """What `bench --config STUDY.toml` writes: its results log (the command line's, else the
    file's), one per mode when it has several (r.jsonl: r-lexmin.jsonl, r-any.jsonl), and its
    reports beside the log."""
    import tomllib

    study = tomllib.loads((ROOT / tokens[tokens.index("--config") + 1]).read_text("utf-8"))
    given = dict(zip(tokens, tokens[1:], strict=False))
    results = Path(given.get("--results", study.get("results", "")))
    modes = given["--mode"].split(",") if "--mode" in given else study.get("mode", [])
    modes = [modes] if isinstance(modes, str) else modes
    logs = (
        [str(results)]
        if len(modes) < 2
        else [str(results.with_name(f"{results.stem}-{mode}{results.suffix}")) for mode in modes]
    )
    reports = [str(results.parent / report) for report in study.get("report", [])]
    return [path for path in written if path != str(results)] + logs + reports


def python_blocks(page: Path, *, skipped: bool = False) -> list[str]:
    """A page's Python blocks, in order (those marked to skip only when `skipped`)."""
    return [
        code
        for skip, code in PYTHON_BLOCK.findall(page.read_text(encoding="utf-8"))
        if skipped or not skip
    ]


def all_python_blocks() -> list[tuple[str, str]]:
    """(name, code) of every Python block to run; skipped blocks are left out."""
    return [
        (f"{page.relative_to(ROOT)}#{number}", code)
        for page in pages()
        for number, code in enumerate(python_blocks(page), start=1)
    ]


def written_by_python(code: str) -> list[str]:
    return [first or second for first, second in PYTHON_WRITERS.findall(code)]


def expand_loops(commands: list[str]) -> list[str]:
    """The commands with `for VAR in A B; do ... done` unrolled, `$VAR` and `${VAR}` replaced."""
    expanded: list[str] = []
    index = 0
    while index < len(commands):
        loop = re.fullmatch(r"for (\w+) in ([^;]+); do", commands[index])
        if not loop:
            expanded.append(commands[index])
            index += 1
            continue
        end = commands.index("done", index)
        body = commands[index + 1 : end]
        for value in loop.group(2).split():
            expanded += [re.sub(rf"\$\{{?{loop.group(1)}\b\}}?", value, line) for line in body]
        index = end + 1
    return expanded


def writers(page: Path) -> list[tuple[str, bool]]:
    """(file, continues) for every command or Python block of a page that writes a file, in
    order; `continues` when it resumes a log it may find there (--resume, resume=True)."""
    found = []
    for line in expand_loops(shell_commands(page)):
        found += [(path, "--resume" in line.split()) for path in written_by_command(line)]
    for code in python_blocks(page, skipped=True):
        found += [(path, "resume=True" in code) for path in written_by_python(code)]
    return found


# -- what a Python block prints, line by line -------------------------------------------------

# Runs a block as `python -c` would (in __main__), recording what each `print` call of the block
# prints, by the block's line number, into the JSON file named by the second argument.
RECORDING_RUNNER = """
import builtins, io, json, sys, __main__
code, out = open(sys.argv[1], encoding="utf-8").read(), sys.argv[2]
printed, plain_print = {}, builtins.print
def recording_print(*args, **options):
    frame = sys._getframe(1)
    if frame.f_code.co_filename == "<doc>" and options.get("file") is None:
        text = io.StringIO()
        plain_print(*args, **{**options, "file": text})
        printed.setdefault(str(frame.f_lineno), text.getvalue())
    plain_print(*args, **options)
builtins.print = recording_print
try:
    exec(compile(code, "<doc>", "exec"), __main__.__dict__)
finally:
    json.dump(printed, open(out, "w", encoding="utf-8"))
"""

PRINT_COMMENT = re.compile(r"^\s*print\(.*\)\s+# (.+)$")
NUMBER = re.compile(r"\d+\\\.\d+")


def shown_outputs(code: str) -> dict[int, str]:
    """The output each `print(...)  # OUTPUT` line of a block shows, by line number."""
    return {
        number: match[1]
        for number, line in enumerate(code.splitlines(), start=1)
        if (match := PRINT_COMMENT.match(line))
    }


def shows(comment: str, printed: str) -> bool:
    """Whether a print line's comment is what it printed: `...` stands for anything (at the end:
    more follows, lines included), a decimal number for any number (times vary), `\\n` a new
    line."""
    comment = comment.replace("\\n", "\n")
    pieces = [NUMBER.sub(r"\\d+(?:\\.\\d+)?", re.escape(piece)) for piece in comment.split("...")]
    pattern = ".*?".join(pieces)
    text = printed.rstrip("\n")
    if comment.endswith("..."):
        return re.match(pattern, text, re.DOTALL) is not None
    return re.fullmatch(pattern, text) is not None


def console_samples(page: Path) -> list[tuple[str, str]]:
    """(command, output) of every `$ ` line of a page's console blocks and the lines after it."""
    samples: list[tuple[str, str]] = []
    for match in SHELL_BLOCK.finditer(page.read_text(encoding="utf-8")):
        if not match.group(0).startswith("```console"):
            continue
        for line in match.group(1).splitlines():
            if line.startswith("$ "):
                samples.append((line[2:], ""))
            elif samples:
                samples[-1] = (samples[-1][0], samples[-1][1] + line + "\n")
    return samples
