"""`sudoku-cp report` end to end: Markdown with and without plots, LaTeX, CSV, several modes, and
bad names, baselines, logs and folders as one line and exit 2."""

from __future__ import annotations

import csv
import io
import sys
from pathlib import Path

import pytest

from sudoku_cp.plots import PLOT_KINDS

from ..bench_helpers import bench_header, hand_made, invoke, three_backends_two_sets, write_log


@pytest.fixture
def results_file(tmp_path: Path) -> Path:
    return write_log(
        tmp_path / "results.jsonl",
        bench_header(backends=("dfs", "cpsat", "sat"), baseline="dfs"),
        three_backends_two_sets(),
    )


def test_cli_report_markdown_without_plots(results_file: Path, tmp_path: Path) -> None:
    output = tmp_path / "report.md"
    result = invoke("report", results_file, "-o", output, "--no-plots")
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", f"Wrote {output}\n")
    text = output.read_text()
    assert "| nine | dfs | 4 | 3 | 1 | 0 | 0 |" in text and "t/dfs" in text  # the run's baseline
    assert "| sixteen | sat | 4 | 4 | 0 | 0 | 0 |" in text
    assert "| command | `sudoku-cp bench x` |" in text
    assert "![" not in text and not list(tmp_path.glob("*.png"))


def test_cli_report_writes_plots_next_to_the_markdown(results_file: Path, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    output = tmp_path / "out" / "report.md"
    output.parent.mkdir()
    result = invoke("report", results_file, "-o", output)
    images = ", ".join(str(output.parent / f"report-{kind}.png") for kind in PLOT_KINDS)
    assert (result.exit_code, result.stderr) == (0, f"Wrote {output} and {images}\n")
    text = output.read_text()
    for kind in ("cactus", "scatter", "scaling"):
        assert f"![{kind}](report-{kind}.png)" in text  # relative: they move together
        assert (output.parent / f"report-{kind}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_report_without_matplotlib_still_writes_the_tables(
    results_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)  # makes the import fail
    output = tmp_path / "report.md"
    result = invoke("report", results_file, "-o", output, "--baseline", "sat")
    assert result.exit_code == 0
    assert result.stderr == (
        "Warning: matplotlib is not installed: pip install "
        f"'sudoku-cp[plot]'; the report has no plots.\nWrote {output}\n"
    )
    assert "t/sat" in output.read_text() and "![" not in output.read_text()


def test_cli_report_latex(results_file: Path, tmp_path: Path) -> None:
    output = tmp_path / "table.tex"
    result = invoke("report", results_file, "-o", output)
    assert (result.exit_code, result.stdout) == (0, "")
    lines = output.read_text().splitlines()
    assert lines[:4] == [
        r"\begin{tabular}{llrrrrrrrrrrrrrr}",
        r"\toprule",
        r"set & backend & puzzles & solved & timeout & wrong & error & PAR-2 & Borda & unique & "
        r"mean & median & p90 & p99 & max & t/dfs \\",
        r"\midrule",
    ]
    assert lines[4].startswith(r"nine & dfs & 4 & 3 & 1 & 0 & 0 & ")
    assert lines.count(r"\midrule") == 2 and lines[-2:] == [r"\bottomrule", r"\end{tabular}"]


def test_cli_report_csv(results_file: Path, tmp_path: Path) -> None:
    output = tmp_path / "summary.csv"
    result = invoke("report", results_file, "-o", output, "--baseline", "cpsat")
    assert (result.exit_code, result.stdout) == (0, "")
    table = list(csv.DictReader(io.StringIO(output.read_text())))
    assert [(row["set"], row["backend"], row["solved"], row["timeouts"]) for row in table] == [
        ("nine", "dfs", "3", "1"),
        ("nine", "cpsat", "4", "0"),
        ("nine", "sat", "4", "0"),
        ("nine", "VBS", "4", "0"),
        ("sixteen", "dfs", "3", "1"),
        ("sixteen", "cpsat", "4", "0"),
        ("sixteen", "sat", "4", "0"),
        ("sixteen", "VBS", "4", "0"),
    ]
    assert float(table[1]["ratio"]) == pytest.approx(1.0)
    assert float(table[2]["ratio"]) == pytest.approx(1.5)  # sat takes 3 units where cpsat takes 2


def test_cli_report_of_two_modes_has_a_mode_column(tmp_path: Path) -> None:
    lexmin = write_log(tmp_path / "lexmin.jsonl", bench_header(), hand_made())
    any_mode = write_log(tmp_path / "any.jsonl", bench_header(mode="any"), hand_made("any"))
    output = tmp_path / "both.md"
    result = invoke("report", lexmin, any_mode, "-o", output, "--no-plots")
    assert result.exit_code == 0, result.output
    text = output.read_text()
    assert "| top | any | b | 3 | 3 |" in text and "| top | lexmin | a | 3 | 2 |" in text
    assert "mode lexmin, time limit" in text and "mode any, time limit" in text


@pytest.mark.parametrize(
    "name, message",
    [
        (
            "report.txt",
            "report.txt: name the report .md (Markdown), .html, .tex (LaTeX), .csv or .json "
            "(the scores), or choose with --format",
        ),
    ],
)
def test_cli_report_bad_output_name_exit_2(results_file: Path, name: str, message: str) -> None:
    result = invoke("report", results_file, "-o", name)
    assert (result.exit_code, result.stderr) == (2, f"Error: {message}\n")


def test_cli_report_unknown_baseline_exit_2(results_file: Path, tmp_path: Path) -> None:
    result = invoke("report", results_file, "-o", tmp_path / "r.md", "--baseline", "nope")
    assert (result.exit_code, result.stderr) == (
        2,
        "Error: no results for baseline 'nope' (the results hold dfs, cpsat, sat)\n",
    )
    assert not (tmp_path / "r.md").exists()


def test_cli_report_missing_or_broken_results_exit_2(tmp_path: Path) -> None:
    missing = tmp_path / "none.jsonl"
    result = invoke("report", missing, "-o", tmp_path / "r.md")
    assert (result.exit_code, result.stderr) == (
        2,
        f"Error: {missing}: cannot read: No such file or directory\n",
    )
    broken = write_log(tmp_path / "broken.jsonl", bench_header(), hand_made())
    broken.write_bytes(broken.read_bytes().replace(b"\n", b"\nnull\n", 1))
    result = invoke("report", broken, "-o", tmp_path / "r.md")
    assert (result.exit_code, result.stderr) == (
        2,
        f"Error: {broken}:2: not a results record (not a JSON object)\n",
    )


def test_cli_report_refuses_files_with_different_time_limits(tmp_path: Path) -> None:
    first = write_log(tmp_path / "a.jsonl", bench_header(), hand_made())
    second = write_log(tmp_path / "b.jsonl", bench_header(time_limit=1.0), hand_made())
    result = invoke("report", first, second, "-o", tmp_path / "r.md", "--no-plots")
    assert (result.exit_code, result.stderr) == (
        2,
        f"Error: {second}: measured with a time limit of 1 s, not 10 s like {first}\n",
    )


def test_a_report_into_a_missing_folder_names_the_folder(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from sudoku_cp.cli import main

    log = tmp_path / "r.jsonl"
    assert (
        CliRunner()
        .invoke(
            main,
            ["crosscheck", "-b", "dfs", "-j", "1", "--results", str(log)],
            input="0" * 16 + "\n",
        )
        .exit_code
        == 0
    )
    result = CliRunner().invoke(main, ["report", str(log), "-o", str(tmp_path / "no" / "x.md")])
    assert result.exit_code == 2
    assert result.stderr == (
        f"Error: {tmp_path / 'no' / 'x.md'}: cannot write: the folder "
        f"{tmp_path / 'no'} does not exist\n"
    )
