"""report_html/payload.py: the packed per-record columns and details the page reads, and what the
page knows before unpacking them."""

from __future__ import annotations

import base64
import gzip
import json
from pathlib import Path

from sudoku_cp.bench_statistics import puzzle_outcomes
from sudoku_cp.report_html.certificates import RunCertification, load_report_inputs
from sudoku_cp.report_html.payload import (
    NONE,
    STATUSES,
    VERDICTS,
    configuration_list,
    meta_data,
    pack,
    puzzle_columns,
    puzzle_details,
    to_json,
    units,
)
from sudoku_cp.results_log.reader import load_results

from ..bench_helpers import bench_header, hand_made, write_log
from .logs import LONG, disagreement_log


def unpack(text: str) -> str:
    return gzip.decompress(base64.b64decode(text)).decode("ascii")


def test_pack_is_gzip_and_base64_and_the_same_every_time() -> None:
    text = to_json({"é": [1, 2], "line": "a\nb"})
    assert "\n" not in text and text.isascii()  # a newline only ever separates records
    assert unpack(pack(text)) == text
    assert pack(text) == pack(text)  # no time stamp in the gzip header


def test_times_are_integers_of_a_tenth_of_a_microsecond() -> None:
    assert (units(0.0021), units(1e-7), units(None)) == (21000, 1, NONE)


def test_the_columns_of_a_bench_log(tmp_path: Path) -> None:
    results = load_results(write_log(tmp_path / "r.jsonl", bench_header(), hand_made()))
    labels, _ = configuration_list(results)
    outcomes = puzzle_outcomes(list(results.rows()))
    columns = puzzle_columns(results, labels, outcomes, {})
    assert labels == ["a", "b"]
    assert (columns["set"], columns["number"], columns["line"]) == ([0, 0, 0], [0, 1, 2], [1, 2, 3])
    solved, timeout = STATUSES.index("solved"), STATUSES.index("timeout")
    assert columns["status"] == [[solved, solved, timeout], [solved, solved, solved]]
    assert columns["time"] == [[10000, 40000, NONE], [20000, 10000, 5000000]]
    assert columns["cpu"] == [[NONE] * 3, [NONE] * 3]  # no CPU time recorded
    assert columns["verdict"] == [VERDICTS.index("agree")] * 3
    assert "cert" not in columns


def test_the_meta_data_of_a_crosscheck(tmp_path: Path) -> None:
    results = load_results(disagreement_log(tmp_path))
    labels, shorts = configuration_list(results)
    meta = meta_data(results, labels, shorts, baseline="dfs", certified=False)
    assert meta["records"] == 5 and meta["baseline"] == 0
    assert meta["sets"] == ["nine", "six"] and meta["modes"] == ["lexmin"]
    assert meta["shapes"] == [[9, 3, 3], [6, 2, 3]]
    long = meta["configurations"][labels.index(LONG)]
    assert long["short"] == "sat extended/pairwise/glucose3" and long["full"] == LONG
    assert meta["statuses"] == list(STATUSES) and meta["time_limit"] is None
    json.dumps(meta)  # JSON-ready


def test_the_details_hold_every_run_and_the_marked_answers(tmp_path: Path) -> None:
    results = load_results(disagreement_log(tmp_path))
    labels, _ = configuration_list(results)
    details = [json.loads(text) for text in puzzle_details(results, labels, {})]
    first = details[0]  # a puzzle with several completions: notlexmin is wrong
    assert first["src"].endswith("nine.txt") and first["f"]
    assert len(first["a"]) == 2 and first["ref"] is not None
    runs = {labels[run["c"]]: run for run in first["r"]}
    assert runs["notlexmin"]["s"] == STATUSES.index("wrong")
    assert runs["notlexmin"]["a"] != runs["dfs"]["a"] == first["ref"]
    assert "not the lex-min" in runs["notlexmin"]["why"]
    marked = first["mk"][runs["notlexmin"]["a"]]
    assert marked and all(code == 0 for _, code in marked)  # differs from the lex-min
    assert first["mk"][first["ref"]] == []
    agreeing = details[2]  # one completion: everyone agrees, nothing is marked
    assert len(agreeing["a"]) == 1 and "mk" not in agreeing
    assert "box" not in details[4]  # 6x6 with the default 2x3 boxes: no need to say


def test_certifications_reach_the_columns_and_the_runs(tmp_path: Path) -> None:
    log = write_log(tmp_path / "r.jsonl", bench_header(), hand_made())
    inputs = load_report_inputs([log])
    certifications = {
        (0, "a", 0): RunCertification(True, "ok"),
        (1, "a", 0): RunCertification(False, "no"),
    }
    labels, _ = configuration_list(inputs.results)
    outcomes = puzzle_outcomes(list(inputs.results.rows()))
    columns = puzzle_columns(inputs.results, labels, outcomes, certifications)
    assert columns["cert"] == [[1, 0, NONE], [NONE, NONE, NONE]]
    details = [json.loads(text) for text in puzzle_details(inputs.results, labels, certifications)]
    assert details[1]["r"][0]["cert"] == [0, "no"] and "cert" not in details[2]["r"][0]


def test_ratings_reach_the_columns_and_the_meta_data(tmp_path: Path) -> None:
    records = hand_made()
    records[0] = {**records[0], "rating": {"level": 3, "technique": "hidden pair"}}
    records[2] = {**records[2], "rating": {"level": 1, "technique": "hidden single"}}
    results = load_results(write_log(tmp_path / "r.jsonl", bench_header(), records))
    labels, shorts = configuration_list(results)
    columns = puzzle_columns(results, labels, puzzle_outcomes(list(results.rows())), {})
    assert columns["rating"] == [3, NONE, 1]
    assert meta_data(results, labels, shorts, baseline=None, certified=False)["ratings"] == [1, 3]
    unrated = load_results(write_log(tmp_path / "u.jsonl", bench_header(), hand_made()))
    assert "rating" not in puzzle_columns(unrated, labels, {}, {})
