"""The CLI under faults and misuse, with real processes where the fault needs one: wrong answers,
streaming, time limits, unwritable files, a full disk, concurrent writers, signals, orphans."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from sudoku_cp.backends import registered
from sudoku_cp.cli import main

from ..conftest import BAEKJOON_2239, BAEKJOON_2239_ANSWER, DATA
from .conftest import cli, wait_for

EXAMPLES = DATA / "examples"
UNIQUE_9 = [
    line
    for line in (DATA / "generated" / "unique-9x9.txt").read_text().splitlines()
    if line and not line.startswith("#")
]


def run(*args: str, stdin: str | bytes | None = None):
    return CliRunner().invoke(main, list(args), input=stdin)


def puzzles_file(tmp_path: Path, count: int, name: str = "many.txt") -> Path:
    path = tmp_path / name
    path.write_text("".join(UNIQUE_9[i % len(UNIQUE_9)] + "\n" for i in range(count)))
    return path


def puzzle_records(path: Path) -> list[dict]:
    records: list[dict] = []
    if not path.exists():
        return records
    for line in path.read_text().splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue  # a torn last line
        if record.get("kind") == "puzzle":
            records.append(record)
    return records


# -- wrong answers are never printed as solved ---------------------------------------------------


def test_a_wrong_answer_is_reported_wrong_never_solved():
    with registered("rulebreaker", "tests.wrong_backends", "RuleBreakerBackend"):
        text = run("solve", "-b", "rulebreaker", "--format", "line", stdin=BAEKJOON_2239 + "\n")
        lines = run("solve", "-b", "rulebreaker", "--format", "jsonl", stdin=BAEKJOON_2239 + "\n")
    assert (text.exit_code, text.stdout) == (1, "wrong\n")
    assert "rulebreaker wrong: column" in text.stderr
    record = json.loads(lines.stdout)
    assert lines.exit_code == 1
    assert record["status"] == "wrong" and record["solution"] is None
    assert record["reason"].startswith("column") and len(record["answer"]) == 81


# -- streaming and jobs --------------------------------------------------------------------------


def test_the_first_answer_of_a_slow_pipe_comes_before_the_input_ends():
    process = subprocess.Popen(
        [sys.executable, "-m", "sudoku_cp", "solve"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdin is not None and process.stdout is not None
    try:
        process.stdin.write(BAEKJOON_2239 + "\n")
        process.stdin.flush()
        first = process.stdout.readline()  # blocks until the answer: the pipe is still open
        assert first == BAEKJOON_2239_ANSWER + "\n"
        process.stdin.write(UNIQUE_9[0] + "\n")
        process.stdin.close()
        assert len(process.stdout.readline().strip()) == 81
    finally:
        process.kill()
        process.wait()


def test_solve_with_jobs_keeps_the_input_order(tmp_path):
    path = puzzles_file(tmp_path, 60)
    one = run("solve", str(path), "--format", "line")
    two = run("solve", str(path), "--format", "line", "--jobs", "2")
    assert one.exit_code == two.exit_code == 0
    assert one.stdout == two.stdout and len(one.stdout.splitlines()) == 60


# -- time limits ---------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["nan", "-1", "0", "soon"])
def test_a_time_limit_that_is_not_a_positive_number_is_refused_in_one_line(value):
    result = run("solve", "--time-limit", value, stdin=BAEKJOON_2239 + "\n")
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 1 and "--time-limit" in result.stderr


@pytest.mark.parametrize("backend", ["dfs", "cpsat", "sat"])
@pytest.mark.parametrize("value", ["inf", "1e30"])
def test_an_infinite_time_limit_is_no_limit_on_every_backend(backend, value):
    result = run(
        "solve",
        "-b",
        backend,
        "--time-limit",
        value,
        "--format",
        "line",
        stdin=BAEKJOON_2239 + "\n",
    )
    assert (result.exit_code, result.stdout) == (0, BAEKJOON_2239_ANSWER + "\n")
    assert "Exception" not in result.stderr


# -- help ----------------------------------------------------------------------------------------


def test_bare_sudoku_cp_prints_its_help_and_exits_0():
    result = subprocess.run([sys.executable, "-m", "sudoku_cp"], capture_output=True, text=True)
    assert result.returncode == 0 and "Usage:" in result.stdout and "solve" in result.stdout


def _commands():
    import click

    context = click.Context(main)
    for name in main.list_commands(context):
        command = main.get_command(context, name)
        if hasattr(command, "commands"):
            for sub in command.commands:
                yield [name, sub]
        yield [name]


@pytest.mark.parametrize("words", list(_commands()), ids=" ".join)
def test_every_command_has_examples_and_fits_80_columns(words):
    result = run(*words, "--help")
    assert result.exit_code == 0
    assert "Example" in result.stdout, f"{' '.join(words)} has no example in its help"
    assert max(len(line) for line in result.stdout.splitlines()) <= 80
    assert "2-core" not in result.stdout and "this machine" not in result.stdout


def test_a_usage_error_is_one_line():
    result = run("solve", "--mode", "fastest", stdin="0" * 16)
    assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1
    assert result.stderr.startswith("Error: ") and "--mode" in result.stderr


# -- files that cannot be written ----------------------------------------------------------------

WRITERS = {
    "generate": lambda path, log: ["generate", "--size", "4", "-o", path],
    "encode": lambda path, log: ["encode", str(EXAMPLES / "baekjoon2239.txt"), "-o", path],
    "crosscheck": lambda path, log: [
        "crosscheck",
        str(EXAMPLES / "baekjoon2239.txt"),
        "-b",
        "dfs",
        "--results",
        path,
    ],
    "bench": lambda path, log: [
        "bench",
        str(EXAMPLES / "baekjoon2239.txt"),
        "-b",
        "dfs",
        "--no-setup",
        "--results",
        path,
    ],
    "report": lambda path, log: ["report", log, "-o", path],
    "plot": lambda path, log: ["plot", log, "-o", path],
}
SUFFIXES = {
    "generate": ".txt",
    "encode": ".cnf",
    "crosscheck": ".jsonl",
    "bench": ".jsonl",
    "report": ".md",
    "plot": ".png",
}


@pytest.fixture(scope="module")
def example_results(tmp_path_factory):
    """A small results log to report and plot."""
    path = tmp_path_factory.mktemp("log") / "r.jsonl"
    result = run(
        "bench",
        str(EXAMPLES / "baekjoon2239.txt"),
        "-b",
        "dfs,sat",
        "--no-setup",
        "--results",
        str(path),
    )
    assert result.exit_code == 0, result.stderr
    return str(path)


@pytest.mark.parametrize("command", sorted(WRITERS))
@pytest.mark.parametrize("where", ["missing folder", "read-only folder", "disk full"])
def test_every_file_writing_option_fails_in_one_line(command, where, tmp_path, example_results):
    if where == "read-only folder" and os.geteuid() == 0:
        pytest.skip("root writes into read-only folders")
    if where == "missing folder":
        target = str(tmp_path / "nonexistent" / f"x{SUFFIXES[command]}")
    elif where == "read-only folder":
        folder = tmp_path / "read-only"
        folder.mkdir()
        folder.chmod(0o555)
        target = str(folder / f"x{SUFFIXES[command]}")
    else:
        if command in ("plot",):
            pytest.skip("matplotlib chooses the format from the suffix; /dev/full has none")
        target = "/dev/full"
    result = subprocess.run(
        [sys.executable, "-m", "sudoku_cp", *WRITERS[command](target, example_results)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert result.stderr.startswith("Error: ") and "Traceback" not in result.stderr


def test_solve_to_a_full_disk_is_one_line():
    with open("/dev/full", "w") as full:
        result = subprocess.run(
            [sys.executable, "-m", "sudoku_cp", "solve", str(EXAMPLES / "baekjoon2239.txt")],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
        )
    assert result.returncode == 2
    assert result.stderr.strip() == (
        "Error: standard output: cannot write: No space left on device"
    )


def _limit_file_size(limit: int):
    def apply() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return apply


def test_a_disk_that_fills_mid_run_keeps_the_results_and_resume_finishes(tmp_path):
    source = puzzles_file(tmp_path, 40)
    results = tmp_path / "r.jsonl"
    full = subprocess.run(
        [
            sys.executable,
            "-m",
            "sudoku_cp",
            "crosscheck",
            str(source),
            "-b",
            "dfs",
            "-j",
            "1",
            "--results",
            str(results),
        ],
        capture_output=True,
        text=True,
        preexec_fn=_limit_file_size(20_000),
    )
    assert full.returncode == 2, full.stderr
    assert "cannot write" in full.stderr and "Traceback" not in full.stderr
    kept = puzzle_records(results)
    assert 0 < len(kept) < 40
    resumed = subprocess.run(
        [
            sys.executable,
            "-m",
            "sudoku_cp",
            "crosscheck",
            str(source),
            "-b",
            "dfs",
            "--results",
            str(results),
            "--resume",
        ],
        capture_output=True,
        text=True,
    )
    assert resumed.returncode == 0, resumed.stderr
    numbers = [record["number"] for record in puzzle_records(results)]
    assert sorted(numbers) == list(range(40))
    assert not list(tmp_path.glob("*.tmp"))


# -- concurrent writers, signals, orphans --------------------------------------------------------


def test_a_second_run_on_a_results_log_in_use_is_refused_and_nothing_is_lost(tmp_path):
    # Enough puzzles that the first run is still going when the second has started (400 were
    # all done within the second's start-up once dfs and sat got faster).
    source = puzzles_file(tmp_path, 6000)
    results = tmp_path / "r.jsonl"
    args = ["crosscheck", str(source), "-b", "dfs,sat", "-j", "1", "--results", str(results)]
    first = cli(*args)
    try:
        wait_for(lambda: len(puzzle_records(results)) >= 5)
        second = subprocess.run(
            [sys.executable, "-m", "sudoku_cp", *args, "--resume"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert second.returncode == 2
        assert f"in use by another run (pid {first.pid})" in second.stderr
        assert len(second.stderr.splitlines()) == 1
        assert first.wait(timeout=300) == 0
    finally:
        first.kill()
    numbers = [record["number"] for record in puzzle_records(results)]
    assert sorted(numbers) == list(range(6000))  # none lost, none duplicated


def _children(pid: int) -> set[int]:
    found = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        children = (task / "children").read_text().split()
        found.update(int(child) for child in children)
    return found


def _alive(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "State:\tZ" not in status


def test_sigterm_keeps_the_results_prints_a_summary_and_exits_143(tmp_path):
    source = puzzles_file(tmp_path, 3000)
    results = tmp_path / "r.jsonl"
    process = cli("crosscheck", str(source), "-b", "dfs,sat", "-j", "2", "--results", str(results))
    try:
        wait_for(lambda: len(puzzle_records(results)) >= 20)
        workers = _children(process.pid)
        process.send_signal(signal.SIGTERM)
        stdout, stderr = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 143, stderr
    assert "crosscheck --mode lexmin" in stdout
    assert "Terminated after" in stderr and "--resume" in stderr
    assert "Traceback" not in stderr and "Exception ignored" not in stderr
    wait_for(lambda: not any(_alive(pid) for pid in workers), timeout=10)


def test_workers_exit_when_the_driver_is_killed(tmp_path):
    source = puzzles_file(tmp_path, 3000)
    process = cli("crosscheck", str(source), "-b", "dfs,sat", "-j", "2")
    try:
        wait_for(lambda: len(_children(process.pid)) >= 2)
        time.sleep(0.5)  # the workers are solving
        workers = _children(process.pid)
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)
        wait_for(lambda: not any(_alive(pid) for pid in workers), timeout=10)
    finally:
        process.kill()


def test_a_sigint_to_one_worker_does_not_stop_the_run(tmp_path):
    source = puzzles_file(tmp_path, 3000)
    results = tmp_path / "r.jsonl"
    process = cli("crosscheck", str(source), "-b", "dfs", "-j", "2", "--results", str(results))
    try:
        wait_for(lambda: len(puzzle_records(results)) >= 5)
        worker = min(_children(process.pid))
        os.kill(worker, signal.SIGINT)
        stdout, stderr = process.communicate(timeout=120)
    finally:
        process.kill()
    assert process.returncode == 0, stderr
    assert "3000 puzzles: 0 wrong, 0 disagree, 0 error, 0 timeout, 3000 agree" in stdout


def test_superscript_digits_in_the_spaced_layout_are_one_line():
    grid = "\n".join(" ".join(["0"] * 9) for _ in range(8)) + "\n0 0 0 0 0 0 0 0 \u00b2\n"
    result = run("solve", stdin=grid)
    assert result.exit_code == 2
    assert result.stderr == "Error: <stdin>:9:17: expected a number, got '\u00b2'\n"


def test_a_36_line_block_is_one_36x36_puzzle_never_36_puzzles():
    result = run("solve", "--mode", "any", "--format", "line", stdin=("0" * 36 + "\n") * 36)
    assert result.exit_code == 0, result.stderr
    (answer,) = result.stdout.splitlines()
    values = [int(value) for value in answer.split(",")]
    assert len(values) == 36 * 36 and sorted(values[:36]) == list(range(1, 37))


def test_an_81_line_block_is_refused_in_one_line():
    result = run("solve", stdin=("0" * 81 + "\n") * 81)
    assert result.exit_code == 2 and result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and "81" in result.stderr


@pytest.mark.parametrize(
    "args",
    [["crosscheck", "-b", "dfs,sat", "-j", "2"], ["solve", "-b", "cpsat", "--format", "line"]],
    ids=["crosscheck -j 2", "solve cpsat"],
)
def test_three_quick_ctrl_c_end_in_one_message_and_no_traceback(tmp_path, args):
    source = puzzles_file(tmp_path, 30000)
    results = tmp_path / "r.jsonl"
    extra = ["--results", str(results)] if args[0] == "crosscheck" else []
    process = cli(*args, str(source), *extra)
    try:
        assert process.stdout is not None
        if args[0] == "solve":
            process.stdout.readline()  # it is solving
        else:
            wait_for(lambda: len(puzzle_records(results)) >= 5)
        for _ in range(3):
            process.send_signal(signal.SIGINT)
            time.sleep(0.03)
        _, stderr = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 130, stderr
    assert "Interrupted after" in stderr
    assert "Traceback" not in stderr and "Exception ignored" not in stderr


@pytest.mark.parametrize(
    ("signum", "code", "word"),
    [(signal.SIGINT, 130, "Interrupted"), (signal.SIGTERM, 143, "Terminated")],
    ids=["Ctrl-C", "SIGTERM"],
)
def test_a_sparse_generate_stops_on_a_signal_in_one_line(tmp_path, signum, code, word):
    # A 25x25 unique puzzle takes minutes, nearly all of them inside python-sat's solver calls,
    # where its C code catches Ctrl-C and raises an error of its own (it was a traceback, exit 1).
    # Stopped before its first puzzle, it leaves no file: a header alone would claim a puzzle
    # that the file lacks.
    target = tmp_path / "p"
    process = cli("generate", "--size", "25", "--givens", "200..260", "-o", str(target))
    try:
        wait_for(target.exists)  # the command has started
        time.sleep(4)  # past the start-up, in the uniqueness questions
        process.send_signal(signum)
        _, stderr = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == code, stderr
    assert stderr.strip() == f"{word} before the first puzzle: {target} not written."
    assert not target.exists()


# -- a closed standard output (a reader such as `head` that ends the pipe) ---------------------


def closed_after_first_line(*args: str) -> tuple[int, str, str]:
    """Run a command whose standard output is read for one line and then closed, like
    `... | head -1`; returns the exit code, the line read and standard error."""
    process = cli(*args)
    assert process.stdout is not None and process.stderr is not None
    first = process.stdout.readline()
    process.stdout.close()
    stderr = process.stderr.read()
    return process.wait(timeout=120), first, stderr


@pytest.mark.parametrize(
    "command",
    [
        ["crosscheck", "-b", "dfs,sat", "-j", "2", "--format", "jsonl"],
        ["crosscheck", "-b", "dfs", "-j", "1", "--format", "jsonl"],
        ["solve", "-b", "dfs", "--format", "line"],
        ["solve", "-b", "dfs", "-j", "2", "--format", "jsonl"],
    ],
)
def test_a_closed_pipe_stops_quietly_with_the_status_of_sigpipe(tmp_path, command):
    # As `seq 1000000 | head -1` does: no message, the status of a process ended by SIGPIPE
    # (128 + 13), the results so far kept and resumable.
    source = puzzles_file(tmp_path, 3000)
    extra = ["--results", str(tmp_path / "r.jsonl")] if command[0] == "crosscheck" else []
    code, first, stderr = closed_after_first_line(*command, str(source), *extra)
    assert first  # the first answer came
    assert (code, stderr) == (141, "")
    if extra:  # kept and resumable
        kept = puzzle_records(tmp_path / "r.jsonl")
        assert kept
        resumed = run(
            "crosscheck",
            "-b",
            command[2],
            "-j",
            "1",
            str(source),
            *extra,
            "--resume",
            "--format",
            "jsonl",
        )
        assert resumed.exit_code == 0, resumed.stderr
        assert len(puzzle_records(tmp_path / "r.jsonl")) == 3000


def test_a_closed_pipe_stops_bench_too(tmp_path):
    source = puzzles_file(tmp_path, 4)
    process = cli("bench", str(source), "-b", "dfs", "--no-setup", "--executor", "inline")
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # before the table: its first line cannot be written
    stderr = process.stderr.read()
    assert (process.wait(timeout=120), stderr) == (141, "")


def test_a_closed_pipe_stops_generate_quietly():
    code, first, stderr = closed_after_first_line("generate", "--size", "4", "--count", "100000")
    assert first.startswith("# sudoku-cp generate")
    assert (code, stderr) == (141, "")


def test_a_file_without_newlines_is_refused_in_bounded_memory(tmp_path: Path) -> None:
    # crosscheck counted the lines of /dev/zero before validating them: 3 GB read, then
    # MemoryError. It refuses it at once, as solve does, and reads a long line piecewise.
    result = run("crosscheck", "/dev/zero", "-b", "dfs,sat")
    assert result.exit_code == 2
    assert result.stderr == (
        "Error: /dev/zero:1: binary data, not a puzzle (a NUL byte at offset 0)\n"
    )
    one_line = tmp_path / "one-line.txt"
    one_line.write_bytes(b"1" * (3 << 20))  # no newline
    result = run("crosscheck", str(one_line), "-b", "dfs,sat")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"{one_line}:1: expected N*N symbols for a puzzle")
    assert len(result.stderr.splitlines()) == 1


@pytest.mark.parametrize("text", ["", "not a puzzle\n12345\n"], ids=["empty", "all-invalid"])
def test_a_crosscheck_that_ran_no_puzzle_leaves_no_log_to_block_the_rerun(tmp_path, text):
    wrong, right, log = tmp_path / "wrong.txt", tmp_path / "right.txt", tmp_path / "r.jsonl"
    wrong.write_text(text)
    right.write_text(BAEKJOON_2239 + "\n")
    failed = run("crosscheck", str(wrong), "-b", "dfs,sat", "--results", str(log))
    assert failed.exit_code == 2 and failed.stderr.startswith("Error: "), failed.output
    assert not log.exists()  # no header-only log left behind
    assert run("certify", str(log)).exit_code == 2  # nothing to certify, not '0 claims'
    rerun = run("crosscheck", str(right), "-b", "dfs,sat", "--results", str(log))
    assert rerun.exit_code == 0, rerun.output
    resumed = run("crosscheck", str(right), "-b", "dfs,sat", "--results", str(log), "--resume")
    assert resumed.exit_code == 0 and "resumed: 1 puzzle" in resumed.output, resumed.output
