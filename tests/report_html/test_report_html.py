"""report_html (the page) and `sudoku-cp report -o report.html`: one self-contained file from one
or many logs, certify reports beside them, and bad input as one line and exit 2. What the page
does in a browser is tested in test_browser.py."""

from __future__ import annotations

import base64
import gzip
import json
import re
from pathlib import Path

import pytest
from markupsafe import escape

from sudoku_cp.report_html import load_report_inputs, render_html_report

from ..bench_helpers import bench_header, hand_made, invoke, write_log
from .logs import LONG, disagreement_log


def embedded(page: str, name: str) -> str:
    found = re.search(rf'<script type="[^"]+" id="{name}">(.*?)</script>', page, re.S)
    assert found, f"no #{name} block"
    return found.group(1)


def unpacked(page: str, name: str) -> str:
    return gzip.decompress(base64.b64decode(embedded(page, name))).decode("ascii")


@pytest.fixture
def log(tmp_path: Path) -> Path:
    return write_log(tmp_path / "r.jsonl", bench_header(), hand_made())


def test_the_page_is_self_contained(log: Path) -> None:
    page = render_html_report(load_report_inputs([log]), baseline="a")
    assert page.startswith("<!doctype html>")
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)  # no network
    assert '<link rel="stylesheet"' not in page and "<script src" not in page
    meta = json.loads(embedded(page, "meta"))
    assert [config["label"] for config in meta["configurations"]] == ["a", "b"]
    assert len(json.loads(unpacked(page, "columns"))["puzzle"]) == 3
    assert len(unpacked(page, "details").split("\n")) == 3
    assert page == render_html_report(load_report_inputs([log]), baseline="a")  # reproducible


def test_text_from_the_logs_is_escaped(tmp_path: Path) -> None:
    header = bench_header(environment={"argv": "sudoku-cp bench '</script><b>x</b>'"})
    log = write_log(tmp_path / "r.jsonl", header, hand_made())
    page = render_html_report(load_report_inputs([log]))
    assert "<b>x</b>" not in page and "&lt;/script&gt;&lt;b&gt;x&lt;/b&gt;" in page


def test_the_summary_and_sessions_are_in_the_page(tmp_path: Path) -> None:
    log = disagreement_log(tmp_path)
    page = render_html_report(load_report_inputs([log]), baseline="dfs")
    assert page.count('<tr data-configuration="') == 10  # (4 configurations + VBS) x 2 sets
    assert f'title="{LONG}"' in page and "sat extended/pairwise/glucose3" in page
    argv = json.loads(log.read_text().splitlines()[0])["environment"]["argv"]
    assert f'<pre class="command"><code>{escape(argv)}</code></pre>' in page


def test_cli_writes_html_from_the_suffix_or_format(log: Path, tmp_path: Path) -> None:
    result = invoke("report", log, "-o", tmp_path / "report.html")
    assert (result.exit_code, result.stdout) == (0, "")
    assert result.stderr == f"Wrote {tmp_path / 'report.html'}\n"  # what was written
    assert (tmp_path / "report.html").read_text().startswith("<!doctype html>")
    result = invoke("report", log, "-o", tmp_path / "page.txt", "--format", "html")
    assert (result.exit_code, result.stdout) == (0, "")
    assert "<!doctype html>" in (tmp_path / "page.txt").read_text()
    result = invoke("report", log, "-o", tmp_path / "also.md", "--format", "csv")
    assert (tmp_path / "also.md").read_text().startswith("set,mode,backend")


def test_cli_html_of_two_logs_and_a_certify_report(log: Path, tmp_path: Path) -> None:
    other = write_log(tmp_path / "any.jsonl", bench_header(mode="any"), hand_made("any"))
    report = tmp_path / "cert.jsonl"
    report.write_text(
        json.dumps({"file": str(log), "line": 2, "backend": "b", "status": "solved",
                    "claim": "lex-min", "certified": False, "reason": "no"}) + "\n"
    )  # fmt: skip
    result = invoke("report", log, report, other, "-o", tmp_path / "both.html")
    assert (result.exit_code, result.stdout) == (0, "")
    page = (tmp_path / "both.html").read_text()
    meta = json.loads(embedded(page, "meta"))
    assert meta["modes"] == ["lexmin", "any"] and meta["certified"] and meta["records"] == 6
    assert "not certified" in page and f"certificates from {report}" in page


@pytest.mark.parametrize(
    "arguments, message",
    [
        (["-o", "{tmp}/report.txt"], "{tmp}/report.txt: name the report .md (Markdown), .html, "
         ".tex (LaTeX), .csv or .json (the scores), or choose with --format"),
        (["-o", "{tmp}/no/report.html"], "{tmp}/no/report.html: cannot write: the folder "
         "{tmp}/no does not exist"),
        (["-o", "{tmp}/r.html", "--baseline", "zzz"], "no results for baseline 'zzz' (the "
         "results hold a, b)"),
        (["-o", "{tmp}/r.html", "--format", "pdf"], "Invalid value for '--format': 'pdf' is not "
         "one of 'md', 'html', 'tex', 'csv', 'json'. (see sudoku-cp report --help)"),
    ],
)  # fmt: skip
def test_cli_bad_output_or_baseline_is_one_line(
    log: Path, tmp_path: Path, arguments: list[str], message: str
) -> None:
    result = invoke("report", log, *(argument.format(tmp=tmp_path) for argument in arguments))
    assert (result.exit_code, result.stderr) == (2, f"Error: {message.format(tmp=tmp_path)}\n")
    assert not list(tmp_path.glob("*.html"))


def test_cli_unreadable_logs_are_one_line(tmp_path: Path) -> None:
    missing = tmp_path / "none.jsonl"
    result = invoke("report", missing, "-o", tmp_path / "r.html")
    assert (result.exit_code, result.stderr) == (
        2,
        f"Error: {missing}: cannot read: No such file or directory\n",
    )
    (tmp_path / "junk.jsonl").write_text("not json\n{}\n")
    result = invoke("report", tmp_path / "junk.jsonl", "-o", tmp_path / "r.html")
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"Error: {tmp_path / 'junk.jsonl'}:1: not a results record")
    result = invoke("report", log_only_certify(tmp_path), "-o", tmp_path / "r.html")
    assert (result.exit_code, result.stderr) == (
        2,
        f"Error: {tmp_path / 'cert.jsonl'} is a certify report: name the results log it "
        "certifies too\n",
    )


def log_only_certify(tmp_path: Path) -> Path:
    report = tmp_path / "cert.jsonl"
    report.write_text(json.dumps({"file": "r.jsonl", "line": 2, "backend": "a",
                                  "claim": "lex-min", "certified": True}) + "\n")  # fmt: skip
    return report


def test_the_facts_line_spaces_every_separator(log: Path, tmp_path: Path) -> None:
    """It read 'baseline a· certificates from ...' (a template line joined to the next)."""
    report = tmp_path / "cert.jsonl"
    report.write_text(
        json.dumps({"file": str(log), "line": 2, "backend": "b", "status": "solved",
                    "claim": "lex-min", "certified": True, "reason": "checked"}) + "\n"
    )  # fmt: skip
    page = render_html_report(load_report_inputs([log, report]), baseline="a")
    facts = re.search(r'<p class="facts">(.*?)</p>', page, re.S)
    assert facts
    text = " ".join(re.sub(r"<[^>]+>", "", facts.group(1)).split())
    assert text == (
        f"3 puzzle records · 2 configurations · 1 set (top) · mode lexmin · time limit 10 s · "
        f"baseline a · certificates from {report}"
    )
