"""render.crosscheck: crosscheck's text, pure: the summary table (80 columns, short labels and
their legend, the median's note), the findings worst first with the hidden timeouts counted, and a
wrong answer drawn side by side with the cells that make it wrong marked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sudoku_cp.agreement import summarize
from sudoku_cp.render.crosscheck import (
    render_crosscheck,
    render_crosscheck_summary,
    render_findings,
)
from sudoku_cp.result import Mode
from sudoku_cp.results_log.records import PuzzleEntry

from ..bench_helpers import (
    FAILURES,
    answered_and_timed_out,
    crosscheck_entry,
    entries,
    failures_records,
    invoke,
    resumed_count_summary,
    timeouts_tally,
)
from ..wrong_backends import wrong_backends  # noqa: F401 (a fixture)


def jsonl(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


def test_the_findings_worst_first_and_the_timeouts_not_shown_counted() -> None:
    tally = timeouts_tally()
    summary = tally.summary(wall_seconds=2.0)
    findings = render_findings(tally.shown, hidden_timeouts=tally.hidden_timeouts)
    assert findings.split("\n\n") == [
        "ERROR  s.txt:7 (puzzle 7)\n  finding 6",
        "TIMEOUT  s.txt:2 (puzzle 2)\n  finding 1",
        "TIMEOUT  s.txt:3 (puzzle 3)\n  finding 2",
        "... and 3 more timeouts (every verdict is in --results FILE or --format jsonl)",
    ]
    text = render_crosscheck(tally, summary)
    assert text.startswith(render_crosscheck_summary(summary) + "\n\nERROR  s.txt:7")


def test_the_median_column_says_it_is_over_the_answered_runs() -> None:
    """0.002 s and 0.004 s solved, two timeouts of 1 s: total 2.006 s, median 3 ms."""
    summary = summarize(answered_and_timed_out(), backends=["a"], mode=Mode.LEXMIN)
    text = render_crosscheck_summary(summary)
    assert text.splitlines()[2].split()[-2:] == ["2.006", "3.00"]
    assert "median ms: over the answered runs, never a timeout" in text


def test_summary_lines() -> None:
    lines = render_crosscheck_summary(resumed_count_summary()).splitlines()
    assert lines[0] == "crosscheck --mode count: a (interrupted)"
    assert lines[2].split() == ["a", "1", "0", "0", "0", "0", "0", "0.500", "500.00"]
    assert lines[4:] == [
        "1 puzzle: 0 wrong, 0 disagree, 0 error, 0 timeout, 1 agree",
        "2 input lines are not a puzzle (not run)",
        "resumed: 1 puzzle from the results log",
    ]


@pytest.mark.usefixtures("wrong_backends")
def test_a_side_by_side_block_in_full() -> None:
    """The empty 4x4, drawn from its record with every time set to 1 ms (the column widths
    follow the status texts): only notlexmin is wrong, and the cells where it differs from the
    lex-min are the ones marked."""
    result = invoke(
        "crosscheck",
        "--backends",
        "notlexmin,dfs,rulebreaker,givenchanger",
        "--jobs",
        "1",
        "--format",
        "jsonl",
        stdin="0" * 16 + "\n",
    )
    record = jsonl(result.stdout)[0]
    for run in record["runs"]:
        run["seconds"] = 0.001
    legend, block = render_findings([PuzzleEntry.from_json(record)]).split("\n\n")
    assert legend.startswith("'*' marks a cell")
    assert block.splitlines() == [
        "WRONG  <stdin>:1 (puzzle 1)",
        "  notlexmin: wrong: not the lex-min: dfs's completion is smaller (first difference at "
        "row 3, column 2)",
        "  puzzle       notlexmin      dfs             rulebreaker     givenchanger",
        "  0 givens     WRONG 1.0 ms   solved 1.0 ms   solved 1.0 ms   solved 1.0 ms",
        "  . . | . .    1 2 | 3 4      1 2 | 3 4       1 2 | 3 4       1 2 | 3 4",
        "  . . | . .    3 4 | 1 2      3 4 | 1 2       3 4 | 1 2       3 4 | 1 2",
        "  ----+-----   ----+-----     ----+-----      ----+-----      ----+-----",
        "  . . | . .    2 3*| 4 1*     2 1 | 4 3       2 1 | 4 3       2 1 | 4 3",
        "  . . | . .    4 1*| 2 3*     4 3 | 2 1       4 3 | 2 1       4 3 | 2 1",
    ]


@pytest.mark.usefixtures("wrong_backends")
def test_a_rectangular_box_shape_is_recorded_and_drawn(tmp_path: Path) -> None:
    path = tmp_path / "six.txt"
    path.write_text("0" * 36 + "\n")
    result = invoke(
        "crosscheck",
        path,
        "--backends",
        "dfs,notlexmin",
        "--jobs",
        "1",
        "--box",
        "3x2",
        "--format",
        "jsonl",
    )
    record = jsonl(result.stdout)[0]
    assert (record["box"], record["size"], record["verdict"]) == ("3x2", 6, "wrong")
    for run in record["runs"]:
        run["seconds"] = 0.001  # the column widths follow the status texts
    text = render_findings([PuzzleEntry.from_json(record)])
    lines = text.split("\n\n")[1].splitlines()
    assert lines[4:8] == [
        "  . . | . . | . .    1 2 | 3 4 | 5 6    1 2 | 3 4 | 5 6",
        "  . . | . . | . .    3 4 | 5 6 | 1 2    3 4 | 5 6 | 1 2",
        "  . . | . . | . .    5 6 | 1 2 | 3 4    5 6 | 1 2 | 3 4",
        "  ----+-----+-----   ----+-----+-----   ----+-----+-----",
    ]
    assert len(lines) == 11


def test_the_summary_fits_80_columns_with_short_labels_and_their_legend() -> None:
    labels = [f"sat[encoding=extended,amo=pairwise,solver={solver}]" for solver in ("a", "b")]
    summary = summarize(
        [crosscheck_entry(0, "agree", *((label, "solved", 0.5) for label in labels))],
        backends=labels,
        mode=Mode.LEXMIN,
    )
    shorts = {labels[0]: "sat a", labels[1]: "sat b"}
    lines = render_crosscheck_summary(summary, shorts).splitlines()
    assert max(map(len, lines)) <= 80
    assert lines[0] == "crosscheck --mode lexmin: sat a, sat b"
    assert [line.split()[:2] for line in lines[2:4]] == [["sat", "a"], ["sat", "b"]]
    assert f"sat a: {labels[0]}" in lines and f"sat b: {labels[1]}" in lines


def test_the_summary_counts_timeouts_wrong_and_errors_in_their_own_columns() -> None:
    """Each configuration has distinct non-zero counts: swapping two columns shows."""
    summary = summarize(entries(failures_records()), backends=list(FAILURES), mode=Mode.LEXMIN)
    lines = render_crosscheck_summary(summary).splitlines()
    titles = lines[1].split()[:7]
    assert titles == ["backend", "solved", "unsat", "timeout", "wrong", "disagree", "error"]
    names = {"timeout": "timeouts", "error": "errors"}
    found = {}
    for line in lines[2:4]:
        row = dict(zip(titles, line.split(), strict=False))
        found[row["backend"]] = {
            names.get(title, title): int(row[title])
            for title in ("solved", "timeout", "wrong", "error")
        }
    assert found == FAILURES
    assert [row.split()[2] for row in lines[2:4]] == ["0", "0"]  # unsat
