"""Every committed study (studies/*.toml) runs as the issue's quick trial does, `sudoku-cp bench
--config studies/NAME.toml` with a small sample and a short limit, and its log gives the scores
(`sudoku-cp report r.jsonl -o s.json`). A study whose backends are not all installed (the choco
plugin, which CI installs after the suite) runs with those it can, its other backends named in
the test's output; a study with none installed is skipped."""

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
from .conftest import shared

ROOT = Path(__file__).resolve().parent.parent
STUDIES = sorted((ROOT / "studies").glob("*.toml"))
# The sample: one puzzle of the study's first input, a 1 s limit, one timed run, no set-up
# measurement (the full studies take hours; this checks that each file runs and reports, and
# test_every_input_of_a_study_exists that its other inputs are there).
QUICK = ["--first", "1", "--time-limit", "1", "--repeat", "1", "--no-setup"]


def installed_backends(study: Path) -> tuple[list[str], list[str]]:
    """The study's backends items that can run here, and the backends of those that cannot."""
    backends = tomllib.loads(study.read_text())["backends"]
    items = backends if isinstance(backends, list) else [backends]
    kept, missing = [], []
    for item in items:
        try:
            unavailable = [
                configuration.backend
                for configuration in parse_configurations([item])
                if not backend_class(configuration.backend).is_available()
            ]
        except SudokuError:
            unavailable = [item]
        (missing.extend(unavailable) if unavailable else kept.append(item))
    return kept, sorted(set(missing))


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


def study_inputs(study: Path) -> list[str]:
    """The inputs a study file names (its `inputs` or `sets` key)."""
    settings = tomllib.loads(study.read_text())
    inputs = settings.get("inputs", settings.get("sets", []))
    return [inputs] if isinstance(inputs, str) else list(inputs)


@pytest.mark.parametrize("study", STUDIES, ids=[study.stem for study in STUDIES])
def test_every_input_of_a_study_exists(study: Path) -> None:
    from sudoku_cp.datasets import REGISTRY

    inputs = study_inputs(study)
    assert inputs
    assert [name for name in inputs if name not in REGISTRY and not (ROOT / name).is_file()] == []


def public_sets(study: Path, folder: Path) -> Path:
    """A folder holding the study's public sets, by their set files' names, as SUDOKU_CP_DATA
    would: each from the test suite's mirror of ../shared/data (never the internet), the test
    skipped when one is not there."""
    from sudoku_cp.datasets import REGISTRY

    folder.mkdir()
    for name in tomllib.loads(study.read_text()).get("inputs", []):
        if name in REGISTRY:
            (folder / REGISTRY[name].file).symlink_to(shared(name))
    return folder


@pytest.mark.parametrize("study", STUDIES, ids=[study.stem for study in STUDIES])
def test_each_study_runs_from_its_file_and_reports_its_scores(
    study: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    kept, missing = installed_backends(study)
    if not kept:
        pytest.skip(f"{study.name}: not installed here: {', '.join(missing)}")
    only = ["--backends", ",".join(kept)] if missing else []
    if missing:
        print(f"{study.name}: run without {', '.join(missing)} (not installed here)")
    monkeypatch.setenv("SUDOKU_CP_DATA", str(public_sets(study, tmp_path / "sets")))
    monkeypatch.chdir(ROOT)  # a study's inputs are relative to the project's root
    # The fresh executor kills a child 10 s past its limit, time for a big grid's build; the
    # sample needs none of it (a killed build is a timeout and ends its series).
    monkeypatch.setattr(engine, "DEADLINE_GRACE", 1.0)
    log = tmp_path / "r.jsonl"
    first_input = study_inputs(study)[:1]  # the others: test_every_input_of_a_study_exists
    result = invoke(
        "bench",
        *first_input,
        "--config",
        study.relative_to(ROOT),
        *QUICK,
        *only,
        "--results",
        log,
    )
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
