"""crosscheck: verification and comparison per mode, the results file and resume, the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from sudoku_cp import crosscheck as cross
from sudoku_cp.backends import backend_names, register_backend
from sudoku_cp.cli import main
from sudoku_cp.formats import PuzzleRecord
from sudoku_cp.grid import Grid
from sudoku_cp.result import Mode, SolveResult, Status
from sudoku_cp.runner import PuzzleRun

from .conftest import (BAEKJOON_2239, BAEKJOON_2239_ANSWER, DATA, EMPTY_4_LEXMIN, UNSOLVABLE_4,
                       random_multi_solution, shared)
from .wrong_backends import WRONG_BACKENDS, InterruptingBackend

EXAMPLES = DATA / "examples"


TEST_BACKENDS = {name: ("tests.wrong_backends", class_name)
                 for name, class_name in WRONG_BACKENDS.items()}
TEST_BACKENDS["crashing"] = ("tests.wrong_backends", "ProcessKillerBackend")  # kills its worker


@pytest.fixture(autouse=True)
def wrong_backends():
    """The deliberately wrong backends, in the registry for one test only."""
    from sudoku_cp.backends import _REGISTRY

    added = [name for name in TEST_BACKENDS if name not in backend_names()]
    for name, (module_name, class_name) in TEST_BACKENDS.items():
        register_backend(name, module_name, class_name)
    yield
    for name in added:
        _REGISTRY.pop(name, None)
    InterruptingBackend.solves_before_interrupt = None


@pytest.fixture(scope="module")
def serg(tmp_path_factory) -> Path:
    """40 puzzles spread over serg_benchmark (every one has two or more completions)."""
    lines = shared("serg_benchmark.txt").read_text().splitlines()
    path = tmp_path_factory.mktemp("serg") / "serg40.txt"
    path.write_text("\n".join(lines[::len(lines) // 40][:40]) + "\n")
    return path


@pytest.fixture(scope="module")
def small(tmp_path_factory) -> Path:
    """A quick mixed set: unique, multi-solution 4x4 and 9x9, unsatisfiable, empty grids."""
    puzzles = [BAEKJOON_2239, "0" * 16, UNSOLVABLE_4, "55" + "0" * 79, "0" * 81]
    puzzles += [random_multi_solution(9, 30, seed).to_line() for seed in range(6)]
    puzzles += [random_multi_solution(4, 5, seed).to_line() for seed in range(4)]
    path = tmp_path_factory.mktemp("small") / "small.txt"
    path.write_text("\n".join(puzzles) + "\n")
    return path


def invoke(*args: str | Path, stdin: str | None = None):
    return CliRunner().invoke(main, ["crosscheck", *map(str, args)], input=stdin)


def records_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def without_timing(records: list[dict]) -> list[dict]:
    for record in records[1:]:  # the first is the settings header
        for entry in record["backends"].values():
            entry.pop("seconds")
    return records


# -- judging one puzzle --------------------------------------------------------------------------

def puzzle_run(puzzle: str, **answers: SolveResult | str) -> PuzzleRun:
    """A PuzzleRun as the runner would give it; a string answer is a backend error."""
    record = PuzzleRecord(0, "<test>", 1, puzzle, Grid.parse(puzzle))
    results = {name: [answer] for name, answer in answers.items() if not isinstance(answer, str)}
    errors = {name: answer for name, answer in answers.items() if isinstance(answer, str)}
    return PuzzleRun(record, results, errors)


def solved(solution: str, mode: Mode = Mode.LEXMIN, **fields) -> SolveResult:
    return SolveResult("x", mode, Status.SOLVED, Grid.parse(solution), seconds=0.001, **fields)


def status(state: Status, mode: Mode = Mode.LEXMIN, **fields) -> SolveResult:
    return SolveResult("x", mode, state, seconds=0.002, **fields)


OTHER_4 = "1234341223414123"  # another completion of the empty 4x4, larger than the lex-min


def test_lexmin_names_the_larger_completion_as_wrong():
    verdict = cross.judge(puzzle_run("0" * 16, a=solved(OTHER_4), b=solved(EMPTY_4_LEXMIN)),
                          backends=["a", "b"], mode=Mode.LEXMIN)
    assert verdict["verdict"] == "disagree"
    assert [verdict["backends"][name]["disagrees"] for name in "ab"] == [True, False]
    assert verdict["findings"] == ["a: not the lex-min: b's completion is smaller "
                                   "(first difference at row 3, column 2)"]


def test_a_valid_completion_refutes_unsatisfiable_in_any_mode():
    verdict = cross.judge(puzzle_run("0" * 16, a=solved(OTHER_4, Mode.ANY),
                                     b=solved(EMPTY_4_LEXMIN, Mode.ANY),
                                     c=status(Status.UNSATISFIABLE, Mode.ANY)),
                          backends=["a", "b", "c"], mode=Mode.ANY)
    assert verdict["verdict"] == "disagree"  # a and b differ, which any mode allows; c is wrong
    assert [verdict["backends"][name]["disagrees"] for name in "abc"] == [False, False, True]


def test_counts_compare_capped_and_a_tie_marks_everyone():
    count = dict(mode=Mode.COUNT, limit=2)
    two = solved(EMPTY_4_LEXMIN, count=2, **count)
    one = solved(EMPTY_4_LEXMIN, count=1, **count)
    verdict = cross.judge(puzzle_run("0" * 16, a=two, b=two, c=one), backends=["a", "b", "c"],
                          mode=Mode.COUNT)
    assert [verdict["backends"][name]["disagrees"] for name in "abc"] == [False, False, True]
    assert verdict["findings"] == ["counts differ: a 2+, b 2+, c 1"]
    tie = cross.judge(puzzle_run("0" * 16, a=two, c=one), backends=["a", "c"], mode=Mode.COUNT)
    assert [tie["backends"][name]["disagrees"] for name in "ac"] == [True, True]


def test_a_wrong_count_mode_completion_is_invalid():
    wrong = EMPTY_4_LEXMIN[:-2] + "34"
    verdict = cross.judge(puzzle_run("0" * 16, a=solved(wrong, Mode.COUNT, count=2, limit=2)),
                          backends=["a"], mode=Mode.COUNT)
    assert verdict["verdict"] == "invalid"
    assert verdict["findings"] == ["a: invalid answer: its first completion row 4 has two 3s"]


def test_timeout_is_not_a_disagreement_and_error_is_its_own_category():
    timeout = cross.judge(puzzle_run("0" * 16, a=solved(EMPTY_4_LEXMIN), b=status(Status.TIMEOUT)),
                          backends=["a", "b"], mode=Mode.LEXMIN)
    assert (timeout["verdict"], timeout["backends"]["b"]["disagrees"]) == ("timeout", False)
    error = cross.judge(puzzle_run("0" * 16, a=solved(EMPTY_4_LEXMIN), b="RuntimeError: boom"),
                        backends=["a", "b"], mode=Mode.LEXMIN)
    assert error["verdict"] == "error"
    assert error["backends"]["b"] == {"status": "error", "solution": None, "seconds": None,
                                      "disagrees": False, "error": "RuntimeError: boom"}


def test_invalid_beats_every_other_finding():
    changed = "2" + EMPTY_4_LEXMIN[1:]
    verdict = cross.judge(puzzle_run("1" + "0" * 15, a=solved(changed), b=solved(OTHER_4),
                                     c=solved(EMPTY_4_LEXMIN), d="boom"),
                          backends=["a", "b", "c", "d"], mode=Mode.LEXMIN)
    assert verdict["verdict"] == "invalid"
    assert verdict["findings"][0] == "a: invalid answer: changes the given 1 at row 1, column 1"


# -- the CLI: wrong backends are caught ----------------------------------------------------------

def test_another_valid_completion_is_caught_as_not_the_lexmin(serg):
    result = invoke(serg, "--backends", "dfs,notlexmin", "--jobs", "1")
    assert result.exit_code == 1
    summary = result.stdout.splitlines()
    assert summary[1].split() == ["backend", "solved", "unsat", "timeouts", "invalid", "disagree",
                                  "errors", "total", "s", "median", "ms", "share"]
    assert summary[2].split()[:7] == ["dfs", "40", "0", "0", "0", "0", "0"]
    assert summary[3].split()[:7] == ["notlexmin", "40", "0", "0", "0", "40", "0"]
    assert summary[4] == "40 puzzles: 0 invalid, 40 disagree, 0 error, 0 timeout, 0 agree"
    assert result.stdout.count("DISAGREE  ") == 40
    assert "notlexmin: not the lex-min: dfs's completion is smaller" in result.stdout


def test_invalid_answers_are_listed_first_with_the_bad_cells_marked(small):
    result = invoke(small, "--backends", "notlexmin,dfs,rulebreaker,givenchanger", "--jobs", "1")
    assert result.exit_code == 1
    blocks = result.stdout.split("\n\n")[2:]  # after the summary and the legend
    # The two empty grids (#1, #4) come before most others in the input, yet after every
    # invalid answer: only notlexmin is wrong on them, and a disagreement is a lesser finding.
    assert [block.split()[0] for block in blocks] == ["INVALID"] * 11 + ["DISAGREE"] * 2
    assert [block.splitlines()[0] for block in blocks[-2:]] == [
        f"DISAGREE  {small}:2 (puzzle #1)", f"DISAGREE  {small}:5 (puzzle #4)"]
    first = blocks[0].splitlines()
    assert first[0] == f"INVALID  {small}:1 (puzzle #0)"
    assert first[1:3] == ["  rulebreaker: invalid answer: column 2 has two 6s",
                          "  givenchanger: invalid answer: changes the given 1 at row 1, column 1"]
    assert first[3].split() == ["puzzle", "notlexmin", "dfs", "rulebreaker", "givenchanger"]
    assert first[4].split()[2::3] == ["solved", "solved", "INVALID", "INVALID"]
    # Row 1 of each grid, side by side: the swapped blanks, the repeats they cause in their
    # columns and the changed given carry a '*'.
    assert first[5] == ("  1 . 3 | . . . | 5 . 9    1 4 3 | 6 2 8 | 5 7 9    1 4 3 | 6 2 8 | 5 7 9"
                        "    1 6*3 | 4*2 8 | 5 7 9    2*4 3 | 6 2*8 | 5 7 9")
    assert first[8] == "  " + "   ".join(["------+-------+-------"] * 5)


def test_unsatisfiable_against_a_completion_disagrees_in_any_mode(small):
    result = invoke(small, "--backends", "dfs,nosolution", "--mode", "any", "--jobs", "1",
                    "--format", "jsonl")
    assert result.exit_code == 1
    verdicts = [json.loads(line)["verdict"] for line in result.stdout.splitlines()]
    assert verdicts == ["disagree", "disagree", "agree", "agree"] + ["disagree"] * 11


def test_a_wrong_count_is_a_disagreement(small):
    result = invoke(small, "--backends", "dfs,overcount,sat", "--mode", "count", "--limit", "3",
                    "--jobs", "1", "--format", "jsonl")
    assert result.exit_code == 1
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert records[0]["verdict"] == "disagree"  # unique: dfs and sat count 1, overcount 2
    assert records[0]["findings"] == ["counts differ: dfs 1, overcount 2, sat 1"]
    assert records[1]["verdict"] == "agree"  # the empty 4x4: everyone stops at the limit


def test_timeouts_are_reported_not_counted_as_disagreements(small):
    result = invoke(small, "--backends", "dfs,sleepy", "--jobs", "1")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[3].split()[:7] == ["sleepy", "5", "1", "9", "0", "0", "0"]
    assert lines[4] == "15 puzzles: 0 invalid, 0 disagree, 0 error, 9 timeout, 6 agree"
    assert lines[7:9] == [f"TIMEOUT  {small}:2 (puzzle #1)",
                          "  sleepy: timeout (no answer within 0.001 s)"]
    assert "TIMEOUT  " in result.stdout and "DISAGREE" not in result.stdout


def test_a_crashing_backend_is_an_error_and_the_run_goes_on(small):
    result = invoke(small, "--backends", "dfs,crasher", "--jobs", "1", "--format", "jsonl")
    assert result.exit_code == 1
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(records) == 15
    assert records[1]["verdict"] == "error"
    assert records[1]["backends"]["crasher"]["error"] == "RuntimeError: boom"


def test_a_worker_that_dies_is_an_error_for_that_backend_and_the_run_goes_on():
    dies = "9" + "0" * 80  # the crashing backend ends its process on a first value of 9
    stdin = f"{BAEKJOON_2239}\n{dies}\n{'0' * 16}\n"
    result = invoke("--backends", "dfs,crashing", "--jobs", "2", "--format", "jsonl", stdin=stdin)
    assert result.exit_code == 1
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["verdict"] for r in records] == ["agree", "error", "agree"]
    assert records[1]["backends"]["crashing"]["error"] == \
        "worker process died while solving this puzzle"
    assert records[1]["backends"]["dfs"]["status"] == "solved"


# -- agreement on real data ----------------------------------------------------------------------

def test_dfs_cpsat_sat_agree_on_serg_lexmin(serg, tmp_path):
    result = invoke(serg, "--backends", "dfs,cpsat,sat", "--jobs", "2",
                    "--results", tmp_path / "r.jsonl")
    assert result.exit_code == 0, result.output
    assert "40 puzzles: 0 invalid, 0 disagree, 0 error, 0 timeout, 40 agree" in result.stdout
    records = records_of(tmp_path / "r.jsonl")
    assert len(records) == 41 and all(r["verdict"] == "agree" for r in records[1:])


@pytest.mark.parametrize("mode", ["lexmin", "any", "count"])
def test_dfs_cpsat_sat_agree_on_project_data(small, mode):
    examples = [EXAMPLES / name for name in ("baekjoon2239.txt", "baekjoon2580.txt",
                                             "empty4.txt", "empty6.txt", "empty9.txt")]
    result = invoke(small, *examples, "--backends", "dfs,cpsat,sat", "--mode", mode,
                    "--limit", "3", "--jobs", "1")
    assert result.exit_code == 0, result.output
    assert "20 puzzles: 0 invalid, 0 disagree, 0 error, 0 timeout, 20 agree" in result.stdout


def test_jobs_2_gives_the_records_of_jobs_1(small, tmp_path):
    outputs = []
    for jobs in ("1", "2"):
        path = tmp_path / f"jobs{jobs}.jsonl"
        result = invoke(small, "--backends", "dfs,sat,notlexmin", "--jobs", jobs,
                        "--results", path)
        assert result.exit_code == 1
        outputs.append(without_timing(records_of(path)))
    assert outputs[0] == outputs[1]
    assert [r["index"] for r in outputs[1][1:]] == list(range(15))


# -- results file and resume ---------------------------------------------------------------------

def complete_run(puzzles: Path, path: Path) -> list[dict]:
    result = invoke(puzzles, "--backends", "dfs,interrupting", "--jobs", "1", "--results", path)
    assert result.exit_code == 0, result.output
    return records_of(path)


def test_resume_after_ctrl_c_gives_the_file_of_an_uninterrupted_run(small, tmp_path):
    whole = complete_run(small, tmp_path / "whole.jsonl")
    path = tmp_path / "interrupted.jsonl"
    # Six solves pass, the seventh is Ctrl-C: seven puzzles are done, since puzzle #3 has two
    # equal givens and never reaches a backend's search.
    InterruptingBackend.solves_before_interrupt = 6
    result = invoke(small, "--backends", "dfs,interrupting", "--jobs", "1", "--results", path)
    assert result.exit_code == 130
    assert "7 puzzles: 0 invalid, 0 disagree, 0 error, 0 timeout, 7 agree" in result.stdout
    assert "(interrupted)" in result.stdout.splitlines()[0]
    assert result.stderr.splitlines()[-1] == (
        f"Interrupted after 7 of 15 puzzles: the results so far are in {path}; to continue, "
        f"run the same command with --resume.")
    assert len(records_of(path)) == 8  # the header and seven verdicts, every line whole
    result = invoke(small, "--backends", "dfs,interrupting", "--jobs", "1", "--results", path,
                    "--resume")
    assert result.exit_code == 0, result.output
    assert "resumed: 7 puzzles from the results file" in result.stdout
    assert "15 puzzles: 0 invalid, 0 disagree, 0 error, 0 timeout, 15 agree" in result.stdout
    assert without_timing(records_of(path)) == without_timing(whole)


@pytest.mark.parametrize("cut", ["mid-line", "before-newline"])
def test_resume_drops_a_torn_last_line(small, tmp_path, cut):
    path = tmp_path / "r.jsonl"
    whole = complete_run(small, path)
    text = path.read_text()
    end_of_line_6 = [i for i, char in enumerate(text) if char == "\n"][5]  # header + 5 verdicts
    path.write_text(text[:end_of_line_6 - 40] if cut == "mid-line" else text[:end_of_line_6])
    result = invoke(small, "--backends", "dfs,interrupting", "--jobs", "1", "--results", path,
                    "--resume", "--format", "jsonl")
    assert result.exit_code == 0, result.output
    resumed = 4 if cut == "mid-line" else 5  # a whole record missing only its newline is kept
    assert f"resumed: {resumed} puzzles from the results file" in result.stderr
    assert len(result.stdout.splitlines()) == 15  # old and new verdicts, as without the cut
    assert path.read_text().count("\n") == 16
    assert without_timing(records_of(path)) == without_timing(whole)


def test_an_existing_results_file_is_never_overwritten(small, tmp_path):
    path = tmp_path / "r.jsonl"
    complete_run(small, path)
    before = path.read_text()
    result = invoke(small, "--backends", "dfs,interrupting", "--jobs", "1", "--results", path)
    assert result.exit_code == 2
    assert result.stderr == (f"Error: {path} already holds results: pass --resume to continue "
                             f"that run, or choose another --results path\n")
    assert path.read_text() == before


def test_resume_refuses_other_settings_and_other_input(small, serg, tmp_path):
    path = tmp_path / "r.jsonl"
    complete_run(small, path)
    before = path.read_text()
    other_mode = invoke(small, "--backends", "dfs,interrupting", "--mode", "any", "--jobs", "1",
                        "--results", path, "--resume")
    assert other_mode.exit_code == 2
    assert other_mode.stderr == (f"Error: {path} was written with other settings (mode lexmin "
                                 f"in the file, any now): resume with the same settings, or "
                                 f"choose another --results path\n")
    other_backends = invoke(small, "--backends", "dfs", "--jobs", "1", "--results", path,
                            "--resume")
    assert other_backends.exit_code == 2 and "backends dfs,interrupting in the file, dfs now" \
        in other_backends.stderr
    other_input = invoke(serg, "--backends", "dfs,interrupting", "--jobs", "1", "--results", path,
                         "--resume")
    assert other_input.exit_code == 2
    assert other_input.stderr.startswith(f"Error: {path} comes from a different input: its "
                                         f"puzzle #0 is {BAEKJOON_2239}, but in this input it is ")
    assert len(other_input.stderr.splitlines()) == 1
    assert path.read_text() == before


def test_resume_of_a_finished_run_runs_nothing_and_reports_it_all(small, tmp_path):
    path = tmp_path / "r.jsonl"
    complete_run(small, path)
    before = path.read_text()
    result = invoke(small, "--backends", "dfs,interrupting", "--jobs", "1", "--results", path,
                    "--resume")
    assert result.exit_code == 0
    assert "15 puzzles: 0 invalid, 0 disagree, 0 error, 0 timeout, 15 agree" in result.stdout
    assert path.read_text() == before


def test_the_results_file_starts_with_the_settings(small, tmp_path):
    path = tmp_path / "r.jsonl"
    complete_run(small, path)
    assert records_of(path)[0] == {
        "format": "sudoku-cp crosscheck results", "version": 1, "mode": "lexmin", "limit": None,
        "time_limit": None, "backends": ["dfs", "interrupting"], "options": {}}


# -- CLI usage and exit codes ----------------------------------------------------------------------

def test_unknown_backends_are_one_line_and_exit_2():
    result = invoke("--backends", "dfs,nope", stdin=BAEKJOON_2239 + "\n")
    assert result.exit_code == 2
    assert result.stderr == ("Error: unknown backend 'nope' in --backends (choose from "
                             f"{', '.join(backend_names())})\n")


def test_resume_without_results_is_bad_usage():
    result = invoke("--resume", stdin=BAEKJOON_2239 + "\n")
    assert result.exit_code == 2
    assert "--resume needs --results FILE" in result.stderr


def test_bad_input_lines_are_reported_and_the_run_goes_on():
    stdin = f"{BAEKJOON_2239}\n{'x' * 81}\n{'0' * 16}\n"
    result = invoke("--backends", "dfs,sat", "--jobs", "1", "--format", "jsonl", stdin=stdin)
    assert result.exit_code == 2
    assert result.stderr.splitlines()[0] == ("<stdin>:2:1: unknown symbol 'x' (a 9x9 puzzle uses "
                                             "0 or . for blank and 1-9)")
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(r["index"], r["verdict"]) for r in records] == [(0, "agree"), (2, "agree")]
    assert records[0]["backends"]["sat"]["solution"] == BAEKJOON_2239_ANSWER
