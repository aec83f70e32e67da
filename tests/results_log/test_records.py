"""results_log.records: the log's records as types, to and from JSON: every record type round
trips, logs of version 2 read into today's types (a wrong grid under `solution` becomes the
`answer`), and `solve --format jsonl` lines are the puzzle's fields and one run's."""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path

import pytest

from sudoku_cp.result import Mode, RunStatus, Verdict
from sudoku_cp.results_log.reader import RunRow
from sudoku_cp.results_log.records import (
    AnswerLine,
    ConfigurationEntry,
    Header,
    PuzzleEntry,
    RecordError,
    Run,
    record_from_json,
)

from ..bench_helpers import bench_header, hand_made

FIXTURES = Path(__file__).parent.parent / "fixtures" / "logs-0.1.0"

RUN = Run(
    backend="sat[solver=g4]",
    status=RunStatus.SOLVED,
    repeat=1,
    seconds=0.0012345678,
    cpu_seconds=0.001,
    max_rss_mb=41.26,
    build_seconds=0.0001,
    solve_seconds=0.0009,
    solution="1234341221434321",
    count=2,
    limit_reached=True,
    reason=None,
    disagrees=True,
    certified=True,
    certificate={"solver": "glucose4"},
    stats={"conflicts": 3},
)


def test_a_run_round_trips_through_json() -> None:
    data = RUN.to_json()
    assert data["seconds"] == 0.0012346 and data["max_rss_mb"] == 41.3  # rounded as written
    again = Run.from_json(json.loads(json.dumps(data)))
    assert again == Run(**{**vars(RUN), "seconds": 0.0012346, "max_rss_mb": 41.3})
    assert again.name == "sat[solver=g4]#1"


def test_a_run_leaves_out_what_it_does_not_have() -> None:
    data = Run("dfs", RunStatus.TIMEOUT, reason="no answer within 1 s").to_json()
    assert set(data) == {
        "backend",
        "repeat",
        "status",
        "seconds",
        "cpu_seconds",
        "max_rss_mb",
        "build_seconds",
        "solve_seconds",
        "solution",
        "reason",
        "stats",
    }


def test_a_wrong_answer_keeps_its_grid_as_the_answer_never_the_solution() -> None:
    wrong = Run("x", RunStatus.WRONG, answer="1" * 16)
    assert wrong.to_json()["solution"] is None and wrong.to_json()["answer"] == "1" * 16
    assert wrong.grid_text == "1" * 16
    version_2 = {"backend": "x", "status": "wrong", "solution": "1" * 16}
    assert Run.from_json(version_2, version=2) == wrong
    assert Run.from_json(version_2, version=3).solution == "1" * 16  # as written in version 3


def test_a_puzzle_entry_and_a_header_round_trip() -> None:
    for record in hand_made():
        entry = PuzzleEntry.from_json(record)
        assert PuzzleEntry.from_json(entry.to_json()) == entry
        assert entry.verdict is Verdict.AGREE and entry.mode is Mode.LEXMIN
    header = bench_header()
    assert Header.from_json(json.loads(json.dumps(header.to_json()))) == header
    assert record_from_json(header.to_json()) == header


def test_a_set_up_line_is_a_header_with_its_setup() -> None:
    header = Header("bench", {"mode": "lexmin"}, (ConfigurationEntry("a", "dfs"),), setup={"a": {}})
    data = header.to_json()
    assert data["setup_of"] == "session" and data["setup"] == {"a": {}}
    assert Header.from_json(data).setup_of == "session"


def test_an_answer_line_is_the_puzzle_s_fields_and_its_run_s() -> None:
    line = AnswerLine(0, "p.txt", 1, "0" * 16, mode=Mode.COUNT, run=RUN)
    data = line.to_json()
    assert list(data)[:5] == ["index", "source", "line", "puzzle", "mode"]
    assert {key: data[key] for key in RUN.to_json()} == RUN.to_json()
    assert AnswerLine.from_json(json.loads(json.dumps(data))).run == Run.from_json(RUN.to_json())
    invalid = AnswerLine(2, "p.txt", 3, "12x", invalid="not a puzzle", backend="dfs").to_json()
    assert (invalid["status"], invalid["reason"], invalid["backend"]) == (
        "invalid",
        "not a puzzle",
        "dfs",
    )
    assert AnswerLine.from_json({**invalid, "status": "invalid input"}).invalid == "not a puzzle"


def test_a_run_row_is_flat_for_pandas() -> None:
    entry = PuzzleEntry.from_json(hand_made()[0])
    row = RunRow(entry, entry.runs[1])
    flat = row.flat()
    assert (row.set, row.backend, row.number, row.status) == ("top", "b", 0, RunStatus.SOLVED)
    assert flat["box"] is None and flat["backend"] == "b" and flat["verdict"] == "agree"


@pytest.mark.parametrize("log", sorted(FIXTURES.glob("*.jsonl")))
def test_every_line_written_by_0_1_0_reads_and_writes_back_the_same(log: Path) -> None:
    """The 0.1.0 fixtures hold version 2 logs and solve output: each line reads into the types,
    and writing it back changes nothing but what version 3 moved (a wrong grid's key)."""
    version = 2
    for raw in log.read_text().splitlines():
        data = json.loads(raw)
        if "kind" not in data:  # solve --format jsonl: the same answer, in today's shape
            line = AnswerLine.from_json(data, version=2)
            assert line.run is not None
            written = line.to_json()
            for key in ("index", "source", "puzzle", "status", "solution", "backend", "stats"):
                assert written[key] == data[key], key
            continue
        record = record_from_json(data, version=version)
        if isinstance(record, Header):
            assert record.version == 2
            assert record.to_json() == data
        else:
            assert record.to_json() == data


def test_the_format_page_documents_every_field() -> None:
    """docs/results-log.md has a table per record type; each names exactly the type's fields."""
    page = (Path(__file__).parents[2] / "docs" / "results-log.md").read_text()
    for record_type in (Header, PuzzleEntry, Run, AnswerLine, ConfigurationEntry):
        table = page.split(f"<!-- fields of {record_type.__name__} -->", 1)[1].split("\n\n")[0]
        documented = {
            line.split("|")[1].strip().strip("`")
            for line in table.strip().splitlines()[2:]
            if line.startswith("|")
        }
        names = {field.name for field in fields(record_type)}
        assert documented == names, record_type.__name__


def test_a_record_error_names_the_field() -> None:
    with pytest.raises(RecordError, match="^no backend$"):
        Run.from_json({"status": "solved"})
    with pytest.raises(RecordError, match="repeat is not a whole number: true"):
        Run.from_json({"backend": "a", "status": "solved", "repeat": True})


def test_a_rating_round_trips_and_a_log_without_one_reads_as_none() -> None:
    record = hand_made()[0]
    assert "rating" not in record and PuzzleEntry.from_json(record).rating is None
    rated = {**record, "rating": {"level": 3, "technique": "hidden pair"}}
    entry = PuzzleEntry.from_json(rated)
    assert entry.rating == {"level": 3, "technique": "hidden pair"}
    assert entry.to_json()["rating"] == {"level": 3, "technique": "hidden pair"}
    assert PuzzleEntry.from_json(entry.to_json()) == entry
    assert "rating" not in PuzzleEntry.from_json(record).to_json()


@pytest.mark.parametrize("rating", [{"level": "3", "technique": "x"}, {"level": 3}, [3], True])
def test_a_malformed_rating_is_a_record_error(rating: object) -> None:
    with pytest.raises(RecordError, match="rating"):
        PuzzleEntry.from_json({**hand_made()[0], "rating": rating})
