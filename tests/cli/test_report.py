"""`sudoku-cp report` end to end: Markdown with and without plots, LaTeX, CSV, several modes, and
bad names, baselines, logs and folders as one line and exit 2."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path

import pytest

from sudoku_cp.plots import PLOT_KINDS
from sudoku_cp.results_log.records import ConfigurationEntry

from ..bench_helpers import (
    FAILURES,
    bench_header,
    failures_records,
    hand_made,
    invoke,
    three_backends_two_sets,
    write_log,
)
from ..conftest import EXAMPLES


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
        "Warning: matplotlib is not installed: pip install '.[plot]' from a sudoku-cp "
        f"checkout (or pip install matplotlib); the report has no plots.\nWrote {output}\n"
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


# -- plots that show something, named by short labels ---------------------------------------------


def test_a_report_of_one_givens_count_says_why_it_has_no_scaling_plot(tmp_path: Path) -> None:
    """Every puzzle of hand_made() has 30 givens: a scaling plot would be a dot per backend."""
    pytest.importorskip("matplotlib")
    log = write_log(tmp_path / "r.jsonl", bench_header(), hand_made())
    output = tmp_path / "report.md"
    result = invoke("report", log, "-o", output)
    assert result.exit_code == 0, result.output
    assert not (tmp_path / "report-scaling.png").exists()
    assert (tmp_path / "report-cactus.png").exists() and (tmp_path / "report-scatter.png").exists()
    assert (
        "No scaling plot: the solved puzzles have 1 givens count (30), and the plot needs 3 or "
        "more." in output.read_text()
    )
    result = invoke("plot", log, "--kind", "scaling", "-o", tmp_path / "s.png")
    assert (result.exit_code, result.stderr) == (
        2,
        "Error: no scaling plot by givens: the solved puzzles have 1 givens count (30), and "
        "the plot needs 3 or more\n",
    )


GRID = (
    ConfigurationEntry("sat[solver=glucose3,encoding=extended]", "sat", {"solver": "glucose3"}),
    ConfigurationEntry("sat[solver=cadical195,encoding=extended]", "sat", {"solver": "cadical195"}),
)


def grid_log(tmp_path: Path) -> Path:
    """hand_made() with a and b renamed to two configurations of a grid."""
    options = [{**dict(item.options), "encoding": "extended"} for item in GRID]
    header = replace(
        bench_header(baseline=GRID[0].label),
        configurations=tuple(
            replace(item, options=option) for item, option in zip(GRID, options, strict=True)
        ),
    )
    text = json.dumps(hand_made()).replace('"backend": "a"', f'"backend": "{GRID[0].label}"')
    text = text.replace('"backend": "b"', f'"backend": "{GRID[1].label}"')
    records = json.loads(text)
    return write_log(tmp_path / "grid.jsonl", header, records)


def test_the_markdown_report_shows_short_labels_and_a_table_of_the_full_ones(
    tmp_path: Path,
) -> None:
    output = tmp_path / "report.md"
    result = invoke("report", grid_log(tmp_path), "-o", output, "--no-plots")
    assert result.exit_code == 0, result.output
    text = output.read_text()
    assert "| top | sat glucose3 | 3 | 2 | 1 |" in text and "| t/sat glucose3 |" in text
    assert (
        "| label | configuration |\n|:---|:---|\n"
        "| sat glucose3 | `sat[solver=glucose3,encoding=extended]` |\n"
        "| sat cadical195 | `sat[solver=cadical195,encoding=extended]` |\n"
    ) in text
    assert "divided by sat glucose3's" in text


def test_plot_legends_use_short_labels_and_the_command_lists_the_full_ones(
    tmp_path: Path,
) -> None:
    pytest.importorskip("matplotlib")
    output = tmp_path / "cactus.png"
    result = invoke("plot", grid_log(tmp_path), "-o", output)
    assert (result.exit_code, result.stdout) == (0, "")
    assert result.stderr == (
        f"Wrote {output}\n"
        "sat glucose3: sat[solver=glucose3,encoding=extended]\n"
        "sat cadical195: sat[solver=cadical195,encoding=extended]\n"
    )


# -- strings from a log are escaped in Markdown and LaTeX -----------------------------------------

HOSTILE_SET = "<img src=x onerror=alert(1)>"
HOSTILE_LABEL = "<script>alert(1)</script>"


@pytest.fixture
def hostile_log(tmp_path: Path) -> Path:
    """`sudoku-cp crosscheck '<img src=x onerror=alert(1)>.txt' -b '<script>alert(1)</script>=
    dfs,sat'` run as a user runs it (its command line is in the log too)."""
    source = tmp_path / f"{HOSTILE_SET}.txt"
    source.write_text((EXAMPLES / "baekjoon2239.txt").read_text())
    done = subprocess.run(
        [sys.executable, "-m", "sudoku_cp", "crosscheck", source.name, "-b",
         f"{HOSTILE_LABEL}=dfs,sat", "-j", "1", "--results", "r.jsonl"],
        cwd=tmp_path, capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return tmp_path / "r.jsonl"


class Elements(HTMLParser):
    """The elements of an HTML text, by tag, and its visible text."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.text = ""

    def handle_starttag(self, tag: str, attrs: object) -> None:
        self.tags.append(tag)

    def handle_data(self, data: str) -> None:
        self.text += data


def test_a_markdown_report_of_hostile_names_renders_no_live_html(
    hostile_log: Path, tmp_path: Path
) -> None:
    """Rendered by Python-Markdown with the extensions of the docs site (mkdocs.yml), as a
    report committed under docs/ would be: every name shows as text, none is an element."""
    markdown = pytest.importorskip("markdown")
    output = tmp_path / "report.md"
    assert invoke("report", hostile_log, "-o", output, "--no-plots").exit_code == 0
    elements = Elements()
    elements.feed(
        markdown.markdown(output.read_text(), extensions=["tables", "attr_list", "admonition"])
    )
    assert "script" not in elements.tags and "img" not in elements.tags
    assert elements.text.count(HOSTILE_SET) >= 3  # the set column, the inputs, the command
    assert elements.text.count(HOSTILE_LABEL) >= 3  # the configurations, the labels, command
    short = HOSTILE_LABEL[:23] + "\u2026"  # the label as tables show it
    assert elements.text.count(short) >= 4  # its row and its label, the ratio column and legend


def test_a_latex_table_of_hostile_names_escapes_them(hostile_log: Path, tmp_path: Path) -> None:
    output = tmp_path / "table.tex"
    assert invoke("report", hostile_log, "-o", output).exit_code == 0
    text = output.read_text()
    assert r"\textless{}script\textgreater{}alert(1)\textless{}/script\textgreater{}" in text
    assert r"\textless{}img src=x onerror=alert(1)\textgreater{}" in text
    assert "<" not in text and ">" not in text


# -- every format counts each configuration's outcomes in their own columns -----------------------

COUNTED = ("solved", "timeouts", "wrong", "errors")
SAME_COLUMN = {"timeout": "timeouts", "error": "errors", "configuration": "backend"}


def _counts(titles: list[str], rows: list[list[str]]) -> dict[str, dict[str, int]]:
    """The counted columns of a table's configuration rows, by the first word of the label."""
    names = [SAME_COLUMN.get(title.strip(), title.strip()) for title in titles]
    found = {}
    for cells in rows:
        row = dict(zip(names, (cell.strip() for cell in cells), strict=False))
        label = row["backend"].split()[0] if row.get("backend") else ""
        if label in FAILURES:
            assert len(cells) == len(names), cells
            found[label] = {name: int(row[name]) for name in COUNTED}
    return found


def _text_table(lines: list[str], first: str, split: str) -> dict[str, dict[str, int]]:
    """The table whose title row starts with `first`: its rows up to a blank line (rules, which
    have no `split`, left out)."""
    start = next(number for number, line in enumerate(lines) if line.startswith(first))
    end = next((number for number, line in enumerate(lines) if number > start and not line), None)
    rows = [line.strip(" |\\").split(split) for line in lines[start:end] if split in line]
    return _counts(rows[0], rows[1:])


class Table(HTMLParser):
    """The cells of the HTML summary table: its titles and its body's rows."""

    def __init__(self) -> None:
        super().__init__()
        self.titles: list[str] = []
        self.rows: list[list[str]] = []
        self.where: list[str] = []
        self.inside = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self.inside = ("id", "summary-table") in attrs
        elif self.inside and tag == "tr" and self.where[-1:] == ["tbody"]:
            self.rows.append([])
        elif self.inside and tag in ("td", "button"):
            (self.rows[-1] if tag == "td" else self.titles).append("")
        self.where.append(tag)

    def handle_endtag(self, tag: str) -> None:
        while self.where and self.where.pop() != tag:
            pass
        self.inside = self.inside and tag != "table"

    def handle_data(self, data: str) -> None:
        if self.inside and "td" in self.where and "span" not in self.where[-1:]:
            self.rows[-1][-1] += data
        elif self.inside and self.where[-1:] == ["button"]:
            self.titles[-1] += data


def _read_summary(kind: str, text: str) -> dict[str, dict[str, int]]:
    if kind == "csv":
        table = list(csv.DictReader(io.StringIO(text)))
        return _counts(list(table[0]), [list(row.values()) for row in table])
    if kind == "json":
        rows = json.loads(text)["configurations"]
        return _counts(list(rows[0]), [[str(value) for value in row.values()] for row in rows])
    if kind == "html":
        table = Table()
        table.feed(text)
        return _counts(table.titles, table.rows)
    if kind == "md":
        return _text_table(text.splitlines(), "| set |", " | ")
    return _text_table(text.splitlines(), "set & ", " & ")


@pytest.mark.parametrize("kind", ["md", "html", "tex", "csv", "json"])
def test_every_format_counts_timeouts_wrong_and_errors_in_their_own_columns(
    tmp_path: Path, kind: str
) -> None:
    """Each configuration has distinct non-zero counts: swapping two columns shows."""
    log = write_log(tmp_path / "r.jsonl", bench_header(), failures_records())
    output = tmp_path / f"summary.{kind}"
    result = invoke("report", log, "-o", output, "--no-plots")
    assert result.exit_code == 0, result.output
    assert _read_summary(kind, output.read_text()) == FAILURES


@pytest.mark.parametrize("suffix", ["md", "tex", "csv", "json"])
def test_a_certify_report_outside_html_says_where_it_goes(
    results_file: Path, tmp_path: Path, suffix: str
) -> None:
    from ..report_html.test_certificates import certify_line

    certified = tmp_path / "certified.jsonl"
    certified.write_text(certify_line(results_file, 2, "dfs", True) + "\n")
    output = tmp_path / f"out.{suffix}"
    result = invoke("report", results_file, certified, "-o", output, "--no-plots")
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.stderr == (
        f"Error: {certified} is a certify report: certify reports go in HTML reports "
        "(-o report.html, beside the logs they certify)\n"
    )
    assert not output.exists()
