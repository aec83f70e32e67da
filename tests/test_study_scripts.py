"""The study scripts write into new folders and never over the committed record
(benchmarks/outputs.py, benchmarks/study.py, the paths of benchmarks/scaling_study.py)."""

import importlib.util
import sys
from pathlib import Path

import pytest

from .conftest import ROOT

BENCHMARKS = ROOT / "benchmarks"


def load(name):
    """A benchmark script as a module (registered while it runs: its dataclasses need that)."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def outputs():
    return load("outputs")


@pytest.fixture(scope="module")
def study():
    return load("study")


@pytest.fixture(scope="module")
def scaling():
    return load("scaling_study")


@pytest.mark.parametrize(
    "path",
    [
        "docs/study/encodings.md",
        "docs/bench/new-report.md",
        "data/generated/new.txt",
        "pyproject.toml",
    ],
)
def test_committed_paths_are_refused(outputs, path):
    with pytest.raises(outputs.RefusedPath):
        outputs.refuse_committed(ROOT / path)


def test_new_paths_outside_the_record_are_accepted(outputs, tmp_path):
    outputs.refuse_committed(tmp_path / "r.jsonl")
    outputs.refuse_committed(ROOT / "results" / "never-made" / "r.jsonl")


def test_a_fresh_folder_is_new_and_under_results(outputs, tmp_path):
    first = outputs.fresh_folder("encodings", root=tmp_path)
    assert first.parent == tmp_path / "results" and first.name.startswith("encodings-")
    first.mkdir(parents=True)
    second = outputs.fresh_folder("encodings", root=tmp_path)
    assert second != first and not second.exists()
    with pytest.raises(outputs.RefusedPath, match="exists already"):
        outputs.new_folder(first, root=tmp_path)


def args_of(study, *argv):
    return study.parse_args(list(argv))


def test_the_encoding_study_is_the_published_bench_and_report(study, tmp_path):
    lines = study.commands(args_of(study, "encodings"), tmp_path)
    bench, report = lines
    assert bench[:5] == [
        "bench",
        "top95",
        "17clue",
        "data/generated/unique-16x16.txt",
        "data/generated/unique-25x25.txt",
    ]
    text = " ".join(bench)
    assert "--first 200 --time-limit 5 --repeat 2" in text
    assert f"--baseline {study.ENCODING_BASELINE}" in text
    assert bench[-2:] == ["--results", str(tmp_path / "encodings.jsonl")]
    assert report == [
        "report",
        str(tmp_path / "encodings.jsonl"),
        "-o",
        str(tmp_path / "encodings.md"),
    ]


def test_the_comparison_is_two_modes_and_one_report(study, tmp_path):
    lines = study.commands(args_of(study, "comparison", "--first", "5", "--resume"), tmp_path)
    assert [line[0] for line in lines] == ["bench", "bench", "report"]
    assert lines[0][lines[0].index("--mode") :][:2] == ["--mode", "lexmin"]
    assert lines[1][lines[1].index("--mode") :][:2] == ["--mode", "any"]
    assert all("--resume" in line and "--first" in line for line in lines[:2])
    assert lines[2][1:3] == [str(tmp_path / "lexmin.jsonl"), str(tmp_path / "any.jsonl")]


def test_study_refuses_the_committed_folders_and_an_existing_one(study, tmp_path, capsys):
    assert study.main(["comparison", "--out", str(ROOT / "docs" / "bench"), "--dry-run"]) == 2
    assert "under docs/" in capsys.readouterr().err
    assert study.main(["encodings", "--out", str(tmp_path)]) == 2
    assert "exists already" in capsys.readouterr().err


@pytest.mark.slow
def test_a_tiny_comparison_runs_end_to_end(study, tmp_path, capsys):
    out = tmp_path / "cmp"
    code = study.main(
        [
            "comparison",
            "--sets",
            str(ROOT / "data/generated/unique-4x4.txt"),
            "--first",
            "2",
            "--time-limit",
            "10",
            "--no-setup",
            "--out",
            str(out),
        ]
    )
    assert code == 0, capsys.readouterr().err
    assert {path.name for path in out.iterdir()} >= {"lexmin.jsonl", "any.jsonl", "comparison.md"}
    assert "| unique-4x4 | lexmin | dfs |" in (out / "comparison.md").read_text()


def test_scaling_study_logs_into_a_new_folder_by_default(scaling):
    path = scaling.results_path(scaling.parse_args([]))
    assert path.name == "scaling.jsonl" and path.parent.parent == ROOT / "results"
    assert not path.parent.exists()


def test_scaling_study_never_writes_the_committed_study(scaling, tmp_path):
    committed = str(ROOT / "docs" / "study" / "scaling" / "scaling.jsonl")
    with pytest.raises(scaling.RefusedPath):
        scaling.results_path(scaling.parse_args(["--results", committed, "--resume"]))
    with pytest.raises(scaling.RefusedPath):  # the report's default folder is the log's
        scaling.report(scaling.parse_args(["--report", "--results", committed]))
    with pytest.raises(scaling.RefusedPath, match="--resume needs --results"):
        scaling.results_path(scaling.parse_args(["--resume"]))
    assert not Path(tmp_path / "table.md").exists()
