"""report: the Markdown report of results logs: every session's environment and set-up, the
summary table, its legend, the plots beside it."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from sudoku_cp.report import (
    render_environment_markdown,
    render_markdown_report,
    render_setup_markdown,
)
from sudoku_cp.results_log.reader import load_results
from sudoku_cp.results_log.records import ConfigurationEntry
from sudoku_cp.results_log.writer import ResultsLog

from .bench_helpers import (
    ENVIRONMENT,
    SETUP,
    Record,
    bench_header,
    entries,
    hand_made,
    invoke,
    lines_of,
    write_log,
)
from .conftest import DATA


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


def test_the_environment_names_each_configuration_once() -> None:
    """A configuration whose label spells it is named by its label alone, in an earlier
    release's option names too (sat_solver for solver); one the user named keeps its options."""
    header = replace(
        bench_header(),
        configurations=(
            ConfigurationEntry(
                "sat[solver=glucose3,encoding=minimal]",
                "sat",
                {"solver": "glucose3", "encoding": "minimal"},
            ),
            ConfigurationEntry("sat[sat_solver=cadical195]", "sat", {"sat_solver": "cadical195"}),
            ConfigurationEntry("glu4", "sat", {"solver": "glucose4"}),
            ConfigurationEntry("dfs", "dfs", {}),
        ),
    )
    (row,) = [
        line for line in render_environment_markdown(header).splitlines() if "backends" in line
    ]
    assert row == (
        "| backends | sat[solver=glucose3,encoding=minimal], sat[sat_solver=cadical195], "
        "glu4 = sat[solver=glucose4], dfs |"
    )


def test_the_title_names_the_commands_that_wrote_the_logs(tmp_path: Path) -> None:
    """A crosscheck log's report was titled 'sudoku-cp benchmark'."""
    crosscheck = replace(bench_header(), command="crosscheck")
    checked = write_log(tmp_path / "c.jsonl", crosscheck, hand_made())
    benched = write_log(tmp_path / "b.jsonl", bench_header(mode="any"), hand_made("any"))
    titles = [
        render_markdown_report(load_results(*logs), {}).splitlines()[0]
        for logs in ([checked], [benched], [checked, benched])
    ]
    assert titles == [
        "# sudoku-cp crosscheck",
        "# sudoku-cp bench",
        "# sudoku-cp crosscheck and bench",
    ]
