"""Every committed study (studies/*.toml) runs as the issue's quick trial does, `sudoku-cp bench
--config studies/NAME.toml` with a small sample and a short limit, and its log gives the scores
(`sudoku-cp report r.jsonl -o s.json`). A study whose backends are not all installed (the
choco plugin) is skipped, naming them."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from sudoku_cp import engine
from sudoku_cp.backends import backend_class
from sudoku_cp.configurations import parse_configurations
from sudoku_cp.errors import SudokuError

from .bench_helpers import invoke

ROOT = Path(__file__).resolve().parent.parent
STUDIES = sorted((ROOT / "studies").glob("*.toml"))
# The sample: one puzzle of each set, a 1 s limit, one timed run, no set-up measurement (the
# full studies take hours; this checks that each file runs and reports).
QUICK = ["--first", "1", "--time-limit", "1", "--repeat", "1", "--no-setup"]


def missing_backends(study: Path) -> list[str]:
    """The backends of a study that cannot run here."""
    backends = tomllib.loads(study.read_text())["backends"]
    items = backends if isinstance(backends, list) else [backends]
    missing = []
    for item in items:
        try:
            for configuration in parse_configurations([item]):
                if not backend_class(configuration.backend).is_available():
                    missing.append(configuration.backend)
        except SudokuError:
            missing.append(item)
    return sorted(set(missing))


def test_the_studies_are_the_projects_studies() -> None:
    assert [study.stem for study in STUDIES] == [
        "at-most-one",
        "certification",
        "comparison",
        "defaults",
        "encodings",
        "families",
        "scaling",
        "time-limits",
    ]


@pytest.mark.parametrize("study", STUDIES, ids=[study.stem for study in STUDIES])
def test_each_study_runs_from_its_file_and_reports_its_scores(
    study: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    missing = missing_backends(study)
    if missing:
        pytest.skip(f"{study.name}: not installed here: {', '.join(missing)}")
    monkeypatch.chdir(ROOT)  # a study's inputs are relative to the project's root
    # The fresh executor kills a child 10 s past its limit, time for a big grid's build; the
    # sample needs none of it (a killed build is a timeout and ends its series).
    monkeypatch.setattr(engine, "DEADLINE_GRACE", 1.0)
    log = tmp_path / "r.jsonl"
    result = invoke("bench", "--config", study.relative_to(ROOT), *QUICK, "--results", log)
    assert result.exit_code == 0, result.output
    settings = tomllib.loads(study.read_text())
    modes = settings.get("mode", ["lexmin"])
    modes = modes if isinstance(modes, list) else modes.split(",")
    logs = [log] if len(modes) == 1 else [tmp_path / f"r-{mode}.jsonl" for mode in modes]
    for each in logs:
        header = json.loads(each.read_text().splitlines()[0])
        assert header["settings"]["time_limit"] == 1.0 and header["settings"]["first"] == 1
    for report in settings.get("report", []):  # written beside the log
        assert (tmp_path / report).is_file(), report
    scores = tmp_path / "s.json"
    reported = invoke("report", *logs, "-o", scores)
    assert reported.exit_code == 0, reported.output
    assert json.loads(scores.read_text())["format"] == "sudoku-cp scores"
