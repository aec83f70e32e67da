"""report.py: the tables, the CSV and JSON Lines schemas, the plots, the Markdown report, and
`sudoku-cp plot` / `sudoku-cp report` end to end."""

import json
import sys

import pytest
from click.testing import CliRunner

from sudoku_cp.bench import RUN_COLUMNS, summarize
from sudoku_cp.cli import main
from sudoku_cp.report import (MATPLOTLIB_MISSING, PlotError, PlotUnavailableError,
                              ResultsFileError, ResultsWriter, cactus_figure, csv_header_text,
                              csv_text, load_results, plot_figure, render_markdown_report,
                              render_summary_markdown, render_summary_text, save_figure,
                              scaling_figure, scatter_figure)

from .bench_helpers import run_record

HEADER = {"kind": "header", "date": "2026-01-01T00:00:00+00:00", "command": "sudoku-cp bench x",
          "settings": {"mode": "lexmin", "limit": 2, "time_limit": 10.0, "warmup": 0,
                       "repeat": 1, "jobs": 1, "baseline": "a",
                       "backends": {"a": {}, "b": {}}}}


def hand_made():
    """Set 'top': a solves 2 of 3 (4 ms at most), b all 3; times by hand in test_bench too."""
    return [
        run_record("top", 0, "a", "solved", 0.001), run_record("top", 1, "a", "solved", 0.004),
        run_record("top", 2, "a", "timeout", 10.0),
        run_record("top", 0, "b", "solved", 0.002), run_record("top", 1, "b", "solved", 0.001),
        run_record("top", 2, "b", "solved", 0.5),
    ]


def three_backends_two_sets():
    records = []
    for set_name, size in (("nine", 9), ("sixteen", 16)):
        for index in range(4):
            for number, backend in enumerate(("dfs", "cpsat", "sat")):
                status = "timeout" if (backend, index) == ("dfs", 3) else "solved"
                records.append(run_record(set_name, index, backend, status,
                                          0.001 * (index + 1) * (number + 1) * size / 9,
                                          size=size, givens=20 + index))
    return records


# -- tables ----------------------------------------------------------------------------------------

def test_summary_text_table_exact():
    rows = summarize(hand_made(), time_limit=10.0, baseline="a")
    assert render_summary_text(rows, baseline="a") == (
        "set  backend  puzzles  solved  timeout  wrong  error  PAR-2  mean  median   p90   p99"
        "   max   t/a\n"
        "top  a              3       2        1      0      0   6668  2.50    2.50  4.00  4.00"
        "  4.00  1.00\n"
        "top  b              3       3        0      0      0    168   168    2.00   500   500"
        "   500  0.71")


def test_summary_markdown_table_exact():
    rows = summarize(hand_made(), time_limit=10.0, baseline="a")
    assert render_summary_markdown(rows, baseline=None).splitlines() == [
        "| set | backend | puzzles | solved | timeout | wrong | error | PAR-2 | mean | median | "
        "p90 | p99 | max |",
        "| :--- | :--- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | "
        "---: |",
        "| top | a | 3 | 2 | 1 | 0 | 0 | 6668 | 2.50 | 2.50 | 4.00 | 4.00 | 4.00 |",
        "| top | b | 3 | 3 | 0 | 0 | 0 | 168 | 168 | 2.00 | 500 | 500 | 500 |",
    ]


def test_a_mode_column_appears_only_with_several_modes():
    records = hand_made() + [run_record("top", 0, "a", "solved", 0.001, mode="any")]
    rows = summarize(records, time_limit=None, baseline=None)
    assert render_summary_text(rows, baseline=None).splitlines()[0].split()[:3] == [
        "set", "mode", "backend"]
    assert [(row.mode, row.backend) for row in rows] == [("lexmin", "a"), ("lexmin", "b"),
                                                          ("any", "a")]


# -- results files ---------------------------------------------------------------------------------

def test_csv_schema_is_a_fixed_column_list():
    assert RUN_COLUMNS == ("set", "index", "line", "puzzle", "size", "givens", "backend", "mode",
                           "repeat", "status", "seconds", "build_seconds", "solve_seconds",
                           "count", "reason", "solution", "stats")
    text = csv_header_text({"kind": "header"}, with_columns=True) + csv_text(
        [run_record("top", 0, "a", "solved", 0.25, stats={"nodes": 3}, reason="a, b\nc")])
    assert text.splitlines() == [
        '# {"kind":"header"}',
        "set,index,line,puzzle,size,givens,backend,mode,repeat,status,seconds,build_seconds,"
        "solve_seconds,count,reason,solution,stats",
        'top,0,1,p0,9,30,a,lexmin,0,solved,0.25,,,,"a, b c",,"{""nodes"":3}"',
    ]


@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
def test_results_round_trip(tmp_path, suffix):
    path = tmp_path / f"results{suffix}"
    records = hand_made()
    records[0].update(build_seconds=0.0005, solve_seconds=0.0004, count=None,
                      stats={"nodes": 12, "solver": "glucose4", "reused": True})
    records[2].update(reason="no answer within 10 s", solution=None)
    with ResultsWriter(path, HEADER) as writer:
        writer.write(records[:3])
        writer.write(records[3:])
    with ResultsWriter(path, {**HEADER, "resumed": True}) as writer:
        writer.write([run_record("top", 3, "a", "solved", 0.003)])
    loaded = load_results(path)
    assert loaded.records == records + [run_record("top", 3, "a", "solved", 0.003)]
    assert loaded.headers == [HEADER, {**HEADER, "resumed": True}]
    assert (loaded.time_limit, loaded.baseline(), loaded.repeat) == (10.0, "a", 1)


def test_jsonl_schema_header_first_then_flat_records(tmp_path):
    path = tmp_path / "results.jsonl"
    with ResultsWriter(path, HEADER) as writer:
        writer.write(hand_made()[:1])
    first, second = [json.loads(line) for line in path.read_text().splitlines()]
    assert first == HEADER
    assert tuple(second) == RUN_COLUMNS


@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
def test_a_line_torn_by_a_kill_is_skipped_and_closed(tmp_path, suffix):
    path = tmp_path / f"results{suffix}"
    with ResultsWriter(path, HEADER) as writer:
        writer.write(hand_made()[:2])
    with open(path, "a") as handle:
        handle.write('top,2,3,p2,9,30,a,lex' if suffix == ".csv" else '{"set":"top","ind')
    with ResultsWriter(path, HEADER) as writer:
        writer.write(hand_made()[2:3])
    assert load_results(path).records == hand_made()[:3]


def test_loading_refuses_what_is_not_a_results_file(tmp_path):
    solve_output = tmp_path / "solve.jsonl"
    solve_output.write_text('{"index":0,"source":"x","status":"solved"}\n')
    with pytest.raises(ResultsFileError, match=r"not a bench results file \(record 1 has no "
                                               r"'set'\)"):
        load_results(solve_output)
    with pytest.raises(ResultsFileError, match="cannot read: No such file or directory"):
        load_results(tmp_path / "missing.jsonl")
    with pytest.raises(ResultsFileError, match="end in .jsonl or .csv, not .txt"):
        load_results(tmp_path / "results.txt")
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    with pytest.raises(ResultsFileError, match="no run records"):
        load_results(empty)


# -- plots -----------------------------------------------------------------------------------------

def visible_lines(axes):
    return [line for line in axes.get_lines() if not line.get_label().startswith("_")]


@pytest.fixture
def matplotlib():
    return pytest.importorskip("matplotlib")


def test_cactus_has_a_panel_per_set_and_a_line_per_backend(matplotlib, tmp_path):
    figure = cactus_figure(three_backends_two_sets(), time_limit=10.0)
    panels = [axes for axes in figure.axes if axes.get_visible()]
    assert [axes.get_title() for axes in panels] == ["nine (4 puzzles)", "sixteen (4 puzzles)"]
    for axes in panels:
        lines = visible_lines(axes)
        assert [line.get_label() for line in lines] == ["dfs", "cpsat", "sat"]
        # dfs solved 3 of 4: its step climbs 0, 1, 2, 3 and stays at 3.
        assert list(lines[0].get_ydata()) == [0, 1, 2, 3, 3]
    path = tmp_path / "cactus.png"
    save_figure(figure, path)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 5000


def test_scatter_has_a_series_per_set_and_the_diagonal(matplotlib, tmp_path):
    figure = scatter_figure(three_backends_two_sets(), time_limit=10.0)
    (axes,) = figure.axes
    assert [c.get_label() for c in axes.collections] == [
        "nine", "sixteen", "solved by one only (other at penalty)"]
    assert len(axes.collections[0].get_offsets()) == 3  # puzzle 3 went to the penalty series
    assert axes.get_xlabel().startswith("dfs") and axes.get_ylabel().startswith("cpsat")
    assert [line.get_label() for line in axes.get_lines()] == ["_diagonal"]
    assert axes.get_xscale() == axes.get_yscale() == "log"
    chosen = scatter_figure(three_backends_two_sets(), x="sat", y="cpsat")
    assert len(chosen.axes[0].collections) == 2  # both solved every puzzle
    path = tmp_path / "scatter.svg"
    save_figure(chosen, path)
    assert path.read_text().lstrip().startswith("<?xml") and path.stat().st_size > 5000


def test_scatter_refuses_a_missing_or_single_backend(matplotlib):
    with pytest.raises(PlotError, match=r"no results for backend 'nope' \(the results hold "
                                        r"dfs, cpsat, sat\)"):
        scatter_figure(three_backends_two_sets(), x="nope")
    with pytest.raises(PlotError, match="needs two different backends"):
        scatter_figure([r for r in three_backends_two_sets() if r["backend"] == "dfs"])


def test_scaling_has_a_line_and_a_band_per_backend(matplotlib, tmp_path):
    figure = scaling_figure(three_backends_two_sets())
    (axes,) = figure.axes
    assert [line.get_label() for line in axes.get_lines()] == ["dfs", "cpsat", "sat"]
    assert list(axes.get_lines()[1].get_xdata()) == [9, 16]  # by size: the results hold two
    assert len(axes.collections) == 3
    by_givens = scaling_figure(three_backends_two_sets(), by="givens")
    assert list(by_givens.axes[0].get_lines()[0].get_xdata()) == [20, 21, 22]  # 23: dfs timed out
    with pytest.raises(PlotError, match="choose size or givens"):
        scaling_figure(three_backends_two_sets(), by="cells")
    path = tmp_path / "scaling.png"
    save_figure(figure, path)
    assert path.stat().st_size > 5000


def test_missing_matplotlib_is_one_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)  # makes the import fail
    with pytest.raises(PlotUnavailableError) as raised:
        plot_figure(hand_made(), "cactus")
    assert str(raised.value) == MATPLOTLIB_MISSING == (
        "matplotlib is not installed: pip install 'sudoku-cp[plot]'")


def test_markdown_report_has_tables_legend_and_relative_images():
    header = {**HEADER, "setup": {"a": {"import_seconds": 0.5, "create_seconds": 0.001,
                                        "shapes": [{"set": "top", "first_seconds": 0.02,
                                                    "warm_seconds": 0.002}]}}}
    text = render_markdown_report(hand_made(), header, {"cactus": "r-cactus.png"}, baseline="a")
    assert text.startswith("# sudoku-cp benchmark\n")
    assert "| command | `sudoku-cp bench x` |" in text
    assert "| a | 500 | 1.00 | top | 20.0 | 2.00 |" in text
    assert "| top | b | 3 | 3 | 0 | 0 | 0 | 168 | 168 | 2.00 | 500 | 500 | 500 | 0.71 |" in text
    assert "2 x 10 s" in text and "![cactus](r-cactus.png)" in text


# -- the command line ------------------------------------------------------------------------------

def invoke(*args):
    return CliRunner().invoke(main, [str(arg) for arg in args])


@pytest.fixture
def results_file(tmp_path):
    path = tmp_path / "results.jsonl"
    with ResultsWriter(path, {**HEADER, "settings": {**HEADER["settings"], "baseline": "dfs"}}
                       ) as writer:
        writer.write(three_backends_two_sets())
    return path


@pytest.mark.parametrize("kind", ["cactus", "scatter", "scaling"])
def test_cli_plot_each_kind(matplotlib, results_file, kind):
    image = results_file.with_name(f"{kind}.png")
    result = invoke("plot", results_file, "--kind", kind, "-o", image)
    assert (result.exit_code, result.output) == (0, "")
    assert image.stat().st_size > 5000


@pytest.mark.parametrize("args, message", [
    (["--kind", "scatter", "--x", "dfs", "--y", "nope", "-o", "s.png"],
     "scatter: no results for backend 'nope' (the results hold dfs, cpsat, sat)"),
    (["-o", "plot.txt"], "plot.txt: plots are written as .png, .svg or .pdf, not .txt"),
])
def test_cli_plot_bad_usage_is_one_line_exit_2(matplotlib, results_file, args, message):
    result = invoke("plot", results_file, *args)
    assert (result.exit_code, result.stderr) == (2, f"Error: {message}\n")


def test_cli_plot_missing_results_exit_2(tmp_path):
    result = invoke("plot", tmp_path / "none.jsonl", "-o", tmp_path / "p.png")
    assert result.exit_code == 2
    assert result.stderr == (f"Error: {tmp_path / 'none.jsonl'}: cannot read: No such file or "
                             f"directory\n")


def test_cli_report_writes_markdown_and_plots_next_to_it(matplotlib, results_file, tmp_path):
    output = tmp_path / "out" / "report.md"
    output.parent.mkdir()
    result = invoke("report", results_file, "-o", output)
    assert (result.exit_code, result.output) == (0, "")
    text = output.read_text()
    for kind in ("cactus", "scatter", "scaling"):
        assert f"![{kind}](report-{kind}.png)" in text
        assert (output.parent / f"report-{kind}.png").stat().st_size > 5000
    assert "| nine | dfs | 4 | 3 | 1 | 0 | 0 |" in text and "t/dfs" in text


def test_cli_report_without_matplotlib_still_writes_the_tables(results_file, tmp_path,
                                                               monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    output = tmp_path / "report.md"
    result = invoke("report", results_file, "-o", output, "--baseline", "sat")
    assert result.exit_code == 0
    assert result.stderr == (f"Warning: {MATPLOTLIB_MISSING}; the report has no plots.\n")
    assert "t/sat" in output.read_text() and "![" not in output.read_text()


def test_cli_report_of_two_modes_has_a_mode_column_and_dashed_lines(matplotlib, tmp_path):
    lexmin, any_mode = tmp_path / "lexmin.jsonl", tmp_path / "any.csv"
    with ResultsWriter(lexmin, HEADER) as writer:
        writer.write(hand_made())
    with ResultsWriter(any_mode, {**HEADER, "command": "sudoku-cp bench y"}) as writer:
        writer.write([{**record, "mode": "any"} for record in hand_made()])
    output = tmp_path / "both.md"
    result = invoke("report", lexmin, any_mode, "-o", output)
    assert result.exit_code == 0, result.output
    text = output.read_text()
    assert "| top | any | b | 3 | 3 |" in text and "| top | lexmin | a | 3 | 2 |" in text
    assert "`sudoku-cp bench x ; sudoku-cp bench y`" in text and "mode lexmin, any" in text
    figure = plot_figure(hand_made() + [{**r, "mode": "any"} for r in hand_made()], "cactus")
    lines = visible_lines(figure.axes[0])
    assert [(line.get_label(), line.get_linestyle()) for line in lines] == [
        ("a (lexmin)", "-"), ("b (lexmin)", "-"), ("a (any)", "--"), ("b (any)", "--")]
    assert lines[0].get_color() == lines[2].get_color()  # a colour per backend


def test_files_with_different_time_limits_are_not_merged(tmp_path):
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    with ResultsWriter(first, HEADER) as writer:
        writer.write(hand_made())
    with ResultsWriter(second, {**HEADER, "settings": {**HEADER["settings"], "time_limit": 1.0}}
                       ) as writer:
        writer.write(hand_made())
    result = invoke("report", first, second, "-o", tmp_path / "r.md", "--no-plots")
    assert (result.exit_code, result.stderr) == (
        2, f"Error: {second}: measured with time limit 1.0, not 10.0 like {first}\n")


def test_cli_plot_without_matplotlib_exit_2(results_file, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    result = invoke("plot", results_file, "-o", results_file.with_name("c.png"))
    assert (result.exit_code, result.stderr) == (2, f"Error: {MATPLOTLIB_MISSING}\n")
