"""render.py and report.py: the summary as text, Markdown, LaTeX (booktabs) and CSV, the Markdown
report (every session's environment and set-up, the table, its legend, the plots), and
`sudoku-cp report` end to end."""

from __future__ import annotations

import csv
import io
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from sudoku_cp.bench_statistics import summarize
from sudoku_cp.plots import PLOT_KINDS
from sudoku_cp.render.bench import (
    latex_escape,
    render_setup_text,
    render_summary_csv,
    render_summary_latex,
    render_summary_markdown,
    render_summary_text,
    summary_legend,
)
from sudoku_cp.report import (
    render_environment_markdown,
    render_markdown_report,
    render_setup_markdown,
)
from sudoku_cp.results_log.reader import load_results
from sudoku_cp.results_log.records import ConfigurationEntry
from sudoku_cp.results_log.writer import ResultsLog
from sudoku_cp.scores import scored_summary

from .bench_helpers import (
    ENVIRONMENT,
    bench_header,
    entries,
    hand_made,
    hand_made_rows,
    invoke,
    lines_of,
    puzzle_record,
    run_row,
    write_log,
)
from .conftest import DATA

Record = dict[str, Any]

SETUP: dict[str, Any] = {
    "a": {
        "import_seconds": 0.5,
        "create_seconds": 0.001,
        "shapes": [
            {
                "set": "top",
                "size": 9,
                "first_seconds": 0.02,
                "warm_seconds": 0.002,
                "first_status": "solved",
            }
        ],
    },
    "b": {"error": "ImportError: no solver"},
}


def rows_of(
    records: list[Record] | None = None,
    *,
    time_limit: float | None = 10.0,
    baseline: str | None = "a",
) -> Any:
    return summarize(
        records if records is not None else hand_made_rows(),
        time_limit=time_limit,
        baseline=baseline,
    )


def three_backends_two_sets() -> list[Record]:
    """Sets 'nine' and 'sixteen', 4 puzzles each, dfs timing out on the last one of each."""
    records = []
    for set_name, size in (("nine", 9), ("sixteen", 16)):
        for index in range(4):
            runs = [
                {
                    "backend": backend,
                    "status": "timeout" if (backend, index) == ("dfs", 3) else "solved",
                    "seconds": 0.001 * (index + 1) * (number + 1) * size / 9,
                }
                for number, backend in enumerate(("dfs", "cpsat", "sat"))
            ]
            record = puzzle_record(set_name, index, runs, size=size, givens=20 + index)
            records.append(record)
    return records


# -- the summary tables ----------------------------------------------------------------------------


def test_summary_text_table_exact() -> None:
    assert render_summary_text(rows_of(), baseline="a").splitlines() == [
        "top: 3 puzzles",
        "  backend  solved  timeout wrong error  PAR-2  median   max  ratio",
        "  a             2        1     0     0   6668    2.50  4.00   1.00",
        "  b             3        0     0     0    168    2.00   500   0.71",
        "  backend  mean   p90   p99",
        "  a        2.50  4.00  4.00",
        "  b         168   500   500",
    ]


def test_the_scored_summary_adds_borda_unique_and_the_virtual_best() -> None:
    """Borda by hand: a 2/3 + 1/5 + 0, b 1/3 + 4/5 + 1 (a times out on the third puzzle)."""
    rows = scored_summary(hand_made_rows(), time_limit=10.0, baseline="a")
    assert [(row.backend, row.solved, row.unique) for row in rows] == [
        ("a", 2, 0),
        ("b", 3, 1),
        ("VBS", 3, None),
    ]
    assert rows[0].borda == pytest.approx(2 / 3 + 1 / 5)
    assert rows[1].borda == pytest.approx(1 / 3 + 4 / 5 + 1)
    assert rows[2].median == pytest.approx(0.001) and rows[2].timeouts == 0
    lines = render_summary_text(rows, baseline="a", shorts={"a": "a", "b": "b"}).splitlines()
    assert lines[1].split() == ["backend", "solved", "timeout", "wrong", "error", "PAR-2"] + [
        "Borda",
        "median",
        "max",
        "ratio",
    ]
    assert lines[4].split() == ["VBS", "3", "0", "-", "-", "167", "-", "1.00", "500", "-"]
    assert max(len(line) for line in lines) <= 80


def test_summary_markdown_table_exact() -> None:
    assert render_summary_markdown(rows_of(), baseline=None).splitlines() == [
        "| set | backend | puzzles | solved | timeout | wrong | error | PAR-2 | mean | median | "
        "p90 | p99 | max |",
        "| :--- | :--- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | "
        "---: |",
        "| top | a | 3 | 2 | 1 | 0 | 0 | 6668 | 2.50 | 2.50 | 4.00 | 4.00 | 4.00 |",
        "| top | b | 3 | 3 | 0 | 0 | 0 | 168 | 168 | 2.00 | 500 | 500 | 500 |",
    ]


def test_a_mode_column_appears_only_with_several_modes() -> None:
    records = hand_made_rows() + [run_row("top", 0, "a", "solved", 0.001, mode="any")]
    rows = rows_of(records, time_limit=None, baseline=None)
    assert render_summary_text(rows, baseline=None).splitlines()[0] == "top, lexmin: 3 puzzles"
    assert [(row.mode, row.backend) for row in rows] == [
        ("lexmin", "a"),
        ("lexmin", "b"),
        ("any", "a"),
    ]
    assert (
        render_summary_markdown(rows, baseline=None)
        .splitlines()[1]
        .startswith("| :--- | :--- | :--- | ---: |")
    )  # set, mode and backend are text, left-aligned
    assert render_summary_text(rows_of(), baseline="a").splitlines()[0] == "top: 3 puzzles"


def test_latex_table_uses_booktabs_rules_and_escapes_text() -> None:
    records = hand_made_rows() + [run_row("x_y", 0, "a", "solved", 0.002)]
    assert render_summary_latex(rows_of(records), baseline="a").splitlines() == [
        r"\begin{tabular}{llrrrrrrrrrrrr}",
        r"\toprule",
        r"set & backend & puzzles & solved & timeout & wrong & error & PAR-2 & mean & median & "
        r"p90 & p99 & max & t/a \\",
        r"\midrule",
        r"top & a & 3 & 2 & 1 & 0 & 0 & 6668 & 2.50 & 2.50 & 4.00 & 4.00 & 4.00 & 1.00 \\",
        r"top & b & 3 & 3 & 0 & 0 & 0 & 168 & 168 & 2.00 & 500 & 500 & 500 & 0.71 \\",
        r"\midrule",  # between sets
        r"x\_y & a & 1 & 1 & 0 & 0 & 0 & 2.00 & 2.00 & 2.00 & 2.00 & 2.00 & 2.00 & 1.00 \\",
        r"\bottomrule",
        r"\end{tabular}",
    ]
    assert latex_escape("50% of a_b & {c} #1 $x ~^\\") == (
        r"50\% of a\_b \& \{c\} \#1 \$x \textasciitilde{}\textasciicircum{}\textbackslash{}"
    )


def test_csv_summary_has_one_row_per_set_mode_and_backend_in_seconds() -> None:
    text = render_summary_csv(rows_of())
    table = list(csv.reader(io.StringIO(text)))
    assert table[0] == [
        "set",
        "mode",
        "backend",
        "puzzles",
        "solved",
        "timeouts",
        "wrong",
        "errors",
        "par2",
        "mean",
        "median",
        "p90",
        "p99",
        "max",
        "ratio",
        "ratio_puzzles",
        "cpu_median",
        "max_rss_mb",
        "median_ci",
        "ratio_ci",
        "p_value",
        "borda",
        "unique",
        "excluded",
    ]
    a, b = table[1:]
    assert a[:8] == ["top", "lexmin", "a", "3", "2", "1", "0", "0"]
    assert [float(value) for value in a[8:15]] == pytest.approx(
        [(0.001 + 0.004 + 20) / 3, 0.0025, 0.0025, 0.004, 0.004, 0.004, 1.0]
    )
    assert float(b[14]) == pytest.approx(0.5**0.5) and b[15] == "2"
    empty = list(
        csv.reader(io.StringIO(render_summary_csv(rows_of(time_limit=None, baseline=None))))
    )
    assert empty[1][8] == "" and empty[1][14] == ""  # no limit, no baseline: empty, not "None"


def test_legend_says_what_the_columns_mean() -> None:
    legend = summary_legend(baseline="a", time_limit=10.0, repeat=3)
    assert "the median of its 3 timed repeats" in legend
    assert "counting 2 x 10 s" in legend and "t/a: geometric mean" in legend
    assert "p90, p99: nearest rank" in legend
    none = summary_legend(baseline=None, time_limit=None)
    assert "its one timed run" in none and "PAR-2: '-'" in none and "t/" not in none


def test_setup_text_one_line_per_backend() -> None:
    assert render_setup_text(SETUP).splitlines() == [
        "a: import 500 ms, create 1.00 ms; top first solve 20.0 ms (warm 2.00 ms)",
        "b: set-up not measured (ImportError: no solver)",
    ]


# -- the Markdown report ---------------------------------------------------------------------------


def test_environment_table_of_a_session() -> None:
    header = bench_header(backends=("a", "b"))
    header = replace(
        header,
        configurations=(
            header.configurations[0],
            ConfigurationEntry("b", "sat", {"solver": "cadical195"}),
        ),
    )
    assert render_environment_markdown(header).splitlines() == [
        "| | |",
        "|:---|:---|",
        "| date | 2026-01-01T00:00:00+00:00 |",
        "| command | `sudoku-cp bench x` |",
        "| tool | sudoku-cp 0.1.0 |",
        "| Python | 3.11.7 (CPython) |",
        "| packages | ortools 9.15.6755, python-sat 1.9.dev24 |",
        "| platform | Linux-test |",
        "| CPU | Test CPU, 2 cores (2 usable) |",
        "| load average at start | 0.5 / 0.25 / 0.1 (1/5/15 min) |",
        "| backends | a, b = sat[solver=cadical195] |",
        "| settings | mode lexmin, time limit 10 s, warm-up 0, repeat 1, jobs 1 |",
        "| inputs | `top.txt` |",
    ]
    resumed = render_environment_markdown(replace(header, resumed=True))
    assert "repeat 1, jobs 1 (a resumed session) |" in resumed
    assert render_environment_markdown(None) == "_No header: the environment was not recorded._"


def test_setup_table_per_backend_and_shape() -> None:
    timed_out = {
        "a": {**SETUP["a"], "shapes": [{**SETUP["a"]["shapes"][0], "first_status": "timeout"}]}
    }
    assert render_setup_markdown({**SETUP, **timed_out}).splitlines() == [
        "| backend | import (ms) | create (ms) | set | first solve (ms) | warm solve (ms) |",
        "|:---|---:|---:|:---|---:|---:|",
        "| a | 500 | 1.00 | top | 20.0 (timed out) | 2.00 |",
        "| b | - | - | not measured: ImportError: no solver | - | - |",
    ]


def report_of(tmp_path: Path, *headers_and_records: tuple[Record, list[Record]]) -> str:
    paths = [
        write_log(tmp_path / f"log{number}.jsonl", header, records)
        for number, (header, records) in enumerate(headers_and_records)
    ]
    return render_markdown_report(load_results(*paths), {"cactus": "r-cactus.png"}, baseline="a")


def test_markdown_report_has_environment_setup_table_legend_and_relative_images(
    tmp_path: Path,
) -> None:
    text = report_of(tmp_path, (bench_header(setup=SETUP), hand_made()))
    assert text.startswith("# sudoku-cp bench\n\n## Environment\n\n| | |\n")
    assert text.count("## Environment") == 1  # one session: no file name in the title
    assert "| command | `sudoku-cp bench x` |" in text
    assert "### One-off set-up (not in the timings)" in text
    assert "| a | 500 | 1.00 | top | 20.0 | 2.00 |" in text
    assert "## Results" in text
    assert (
        "| top | b | 3 | 3 | 0 | 0 | 0 | 168 | 2.1 | 1 | 168 | 2.00 | 500 | 500 | 500 | 0.71 |"
        in (text)
    )
    assert "| top | VBS | 3 | 3 | 0 | - | - | 167 | - | - |" in text
    assert "2 x 10 s" in text
    assert "## Plots\n\n![cactus](r-cactus.png)\n\nCactus plot:" in text
    assert text.endswith("\n") and not text.endswith("\n\n")
    assert text.index("## Environment") < text.index("## Results") < text.index("## Plots")


def test_markdown_report_shows_every_session_environment(tmp_path: Path) -> None:
    first = bench_header(environment={**ENVIRONMENT, "argv": "sudoku-cp bench first"})
    later = bench_header(
        environment={**ENVIRONMENT, "argv": "sudoku-cp bench later", "cpu": "Other CPU"},
        resumed=True,
    )
    path = write_log(tmp_path / "r.jsonl", first, hand_made()[:2])
    with ResultsLog.open(path, later, resume=True) as log:
        log.append(entries(hand_made())[2])
    any_mode = write_log(
        tmp_path / "any.jsonl",
        bench_header(mode="any", environment={**ENVIRONMENT, "argv": "sudoku-cp bench any"}),
        hand_made("any"),
    )
    text = render_markdown_report(load_results(path, any_mode), {}, baseline="a")
    assert [line for line in text.splitlines() if line.startswith("## Environment")] == [
        f"## Environment: `{path}`",
        f"## Environment: `{path}` (resumed)",
        f"## Environment: `{any_mode}`",
    ]
    for command in ("first", "later", "any"):
        assert f"| command | `sudoku-cp bench {command}` |" in text
    assert "| CPU | Other CPU, 2 cores (2 usable) |" in text
    assert "| top | lexmin | a | 3 | 2 | 1 |" in text and "| top | any | b | 3 | 3 | 0 |" in text
    assert "## Plots" not in text


def test_markdown_report_of_a_bench_log_shows_its_setup(tmp_path: Path) -> None:
    """A real bench log: its set-up is written as a second header line of the same session."""
    log = tmp_path / "r.jsonl"
    assert (
        invoke(
            "bench", DATA / "examples" / "empty4.txt", "--backends", "dfs", "--results", log
        ).exit_code
        == 0
    )
    assert [line["kind"] for line in lines_of(log)] == ["header", "header", "puzzle"]
    text = render_markdown_report(load_results(log), {})
    assert "### One-off set-up (not in the timings)" in text
    (setup_row,) = [line for line in text.splitlines() if line.startswith("| dfs | - | ")]
    assert "| empty4 | " in setup_row  # pure Python: no import; the first 4x4 puzzle's solves


def test_the_setup_of_a_session_is_not_a_session_of_its_own(tmp_path: Path) -> None:
    log = tmp_path / "r.jsonl"
    assert (
        invoke(
            "bench", DATA / "examples" / "empty4.txt", "--backends", "dfs", "--results", log
        ).exit_code
        == 0
    )
    text = render_markdown_report(load_results(log), {})
    assert text.count("## Environment") == 1
    assert "| CPU | , ? cores (? usable) |" not in text
    assert (
        text.index("## Environment") < text.index("### One-off set-up") < text.index("## Results")
    )


# -- the command line ------------------------------------------------------------------------------


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
