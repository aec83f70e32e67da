"""configurations: backend configurations and grids of them, labels, shorthand flags, and
the one-line refusals (in the library and through the CLI)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from sudoku_cp.backends import Backend, backend_names, registered
from sudoku_cp.backends.base import Deadline, Outcome
from sudoku_cp.cli import main
from sudoku_cp.configurations import (
    Configuration,
    ConfigurationError,
    option_names,
    parse_configurations,
    parse_one,
    split_top_level,
)
from sudoku_cp.errors import SudokuError, UnknownBackendError
from sudoku_cp.grid import Grid
from sudoku_cp.result import Mode

from .conftest import BAEKJOON_2239
from .wrong_backends import wrong_backends  # noqa: F401 (a fixture)


def labels(specs: list[Configuration]) -> list[str]:
    return [spec.label for spec in specs]


def test_a_plain_name_is_one_configuration_labelled_by_it() -> None:
    assert parse_configurations(["dfs"]) == [Configuration("dfs", {}, "dfs")]
    assert labels(parse_configurations(["dfs, cpsat,sat"])) == ["dfs", "cpsat", "sat"]
    assert labels(parse_configurations(["dfs", "sat"])) == ["dfs", "sat"]


def test_options_use_their_short_names_and_whole_numbers_become_ints() -> None:
    assert parse_one("sat[solver=cadical195]") == [
        Configuration("sat", {"solver": "cadical195"}, "sat[solver=cadical195]")
    ]
    assert parse_one("cpsat[workers=2,lexmin=search]") == [
        Configuration("cpsat", {"workers": 2, "lexmin": "search"}, "cpsat[workers=2,lexmin=search]")
    ]


def test_a_grid_expands_into_every_combination_with_distinct_labels() -> None:
    specs = parse_configurations(["sat[solver=glucose3|cadical195,encoding=minimal|extended]"])
    assert [spec.options for spec in specs] == [
        {"solver": "glucose3", "encoding": "minimal"},
        {"solver": "glucose3", "encoding": "extended"},
        {"solver": "cadical195", "encoding": "minimal"},
        {"solver": "cadical195", "encoding": "extended"},
    ]
    assert labels(specs) == [
        "sat[solver=glucose3,encoding=minimal]",
        "sat[solver=glucose3,encoding=extended]",
        "sat[solver=cadical195,encoding=minimal]",
        "sat[solver=cadical195,encoding=extended]",
    ]
    assert {spec.backend for spec in specs} == {"sat"}


def test_a_label_before_equals_names_one_configuration() -> None:
    specs = parse_configurations(["glu4=sat[solver=glucose4],dfs"])
    assert specs == [
        Configuration("sat", {"solver": "glucose4"}, "glu4"),
        Configuration("dfs", {}, "dfs"),
    ]
    assert specs[0].describe() == {
        "label": "glu4",
        "backend": "sat",
        "options": {"solver": "glucose4"},
    }
    with pytest.raises(
        ConfigurationError, match="a label names one configuration, not a grid of 2"
    ):
        parse_configurations(["two=sat[solver=glucose3|cadical195]"])
    with pytest.raises(ConfigurationError, match="an empty label"):
        parse_configurations(["=dfs"])


def test_commas_inside_brackets_stay_with_their_configuration() -> None:
    assert split_top_level("dfs, sat[a=1,b=2] ,cpsat") == ["dfs", "sat[a=1,b=2]", "cpsat"]
    with pytest.raises(ConfigurationError, match=r"unclosed '\['"):
        split_top_level("sat[a=1")
    with pytest.raises(ConfigurationError, match=r"unbalanced '\]'"):
        split_top_level("sat]")


def test_an_unknown_option_names_the_backend_options() -> None:
    with pytest.raises(ConfigurationError) as caught:
        parse_configurations(["sat[nope=1]"])
    assert option_names("sat") == ["solver", "encoding", "amo", "lexmin"]  # in declaration order
    assert str(caught.value) == (
        f"sat has no option 'nope' (its options: {', '.join(option_names('sat'))})"
    )
    with pytest.raises(ConfigurationError) as caught:
        parse_configurations(["dfs[x=1]"])
    choices = ", ".join(option_names("dfs")) or "none"
    assert str(caught.value) == f"dfs has no option 'x' (its options: {choices})"
    assert {"lexmin", "workers"} <= set(option_names("cpsat"))


class BareBackend(Backend):
    """A backend that declares no option (it never solves: only its options are looked at)."""

    name = "bare"
    description = "no options"

    def _solve(self, grid: Grid, *, mode: Mode, limit: int, deadline: Deadline) -> Outcome:
        raise NotImplementedError


def test_a_backend_without_options_says_none() -> None:
    with registered("bare", __name__, "BareBackend"):
        with pytest.raises(ConfigurationError) as caught:
            parse_configurations(["bare[x=1]"])
        assert str(caught.value) == "bare has no option 'x' (its options: none)"
        assert option_names("bare") == []


@pytest.mark.parametrize(
    "text, message",
    [
        ("sat[solver]", "write options as name=value, got 'solver'"),
        ("sat[solver=]", "write options as name=value, got 'solver='"),
        ("sat[solver=glucose3]x", r"options go in one \[...\] at the end"),
    ],
)
def test_malformed_options_are_refused(text: str, message: str) -> None:
    with pytest.raises(ConfigurationError, match=message):
        parse_configurations([text])


@pytest.mark.parametrize(
    "text", ["sat[solver=glucose3,solver=glucose4]", "sat[solver=glucose3,solver=glucose4]"]
)
def test_an_option_given_twice_is_refused(text: str) -> None:
    with pytest.raises(ConfigurationError, match="solver"):
        parse_configurations([text])


def test_an_unknown_backend_names_the_choices() -> None:
    with pytest.raises(UnknownBackendError) as caught:
        parse_configurations(["dfs,nope[x=1]"])
    assert str(caught.value) == f"unknown backend 'nope' (choose from {', '.join(backend_names())})"


@pytest.mark.parametrize(
    "items", [["dfs,dfs"], ["dfs", "dfs"], ["sat=dfs,sat"], ["sat[solver=glucose3|glucose3]"]]
)
def test_two_configurations_with_one_label_are_refused(items: list[str]) -> None:
    with pytest.raises(ConfigurationError, match="two configurations are labelled "):
        parse_configurations(items)


def test_no_configuration_is_refused() -> None:
    with pytest.raises(ConfigurationError, match="no backend configuration given"):
        parse_configurations([" , "])


def test_a_shorthand_applies_only_to_the_backends_that_take_it() -> None:
    specs = parse_configurations(
        ["dfs,sat,cpsat"], flags={"--sat-solver": "cadical195", "--workers": 2, "--amo": None}
    )
    assert [spec.options for spec in specs] == [{}, {"solver": "cadical195"}, {"workers": 2}]
    assert labels(specs) == ["dfs", "sat", "cpsat"]


def test_a_configuration_own_option_wins_over_the_shorthand() -> None:
    specs = parse_configurations(
        ["sat[solver=glucose4],glu3=sat"],
        flags={"--sat-solver": "glucose3", "--encoding": "minimal"},
    )
    assert [spec.options for spec in specs] == [
        {"solver": "glucose4", "encoding": "minimal"},
        {"solver": "glucose3", "encoding": "minimal"},
    ]


def test_a_shorthand_that_no_chosen_backend_takes_is_refused() -> None:
    with pytest.raises(ConfigurationError) as caught:
        parse_configurations(["dfs,sat"], flags={"--workers": 2})
    assert str(caught.value) == "--workers applies to cpsat, not to dfs, sat"


def test_configuration_errors_are_sudoku_errors() -> None:
    assert issubclass(ConfigurationError, SudokuError)


# -- through the CLI: one line, exit 2, before any puzzle ------------------------------------------


@pytest.fixture
def one_puzzle(tmp_path: Path) -> Path:
    path = tmp_path / "one.txt"
    path.write_text(BAEKJOON_2239 + "\n")
    return path


@pytest.mark.parametrize(
    "backends, shorthand, error",
    [
        (
            "sat[nope=1]",
            [],
            "sat has no option 'nope' (its options: solver, encoding, amo, lexmin)",
        ),
        ("dfs,nope", [], f"unknown backend 'nope' (choose from {', '.join(backend_names())})"),
        (
            "dfs,dfs",
            [],
            "two configurations are labelled dfs: give each its own label (label=backend[...])",
        ),
        ("dfs", ["--sat-solver", "glucose4"], "--sat-solver applies to sat, not to dfs"),
        ("sat[solver=nope]", [], "unknown SAT solver 'nope' (choose from "),
    ],
)
def test_the_cli_refuses_a_bad_configuration_in_one_line(
    one_puzzle: Path, backends: str, shorthand: list[str], error: str
) -> None:
    result = CliRunner().invoke(
        main, ["crosscheck", str(one_puzzle), "-b", backends, "--jobs", "1", *shorthand]
    )
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith(f"Error: {error}")
    assert result.stderr.count("\n") == 1


def test_the_cli_runs_and_shows_every_configuration_of_a_grid(one_puzzle: Path) -> None:
    result = CliRunner().invoke(
        main,
        [
            "crosscheck",
            str(one_puzzle),
            "--jobs",
            "1",
            "-b",
            "sat[solver=glucose3|cadical195],glu4=sat[solver=glucose4]",
        ],
    )
    assert result.exit_code == 0, result.output
    rows = [" ".join(line.split()[:-8]) for line in result.stdout.splitlines()[2:5]]
    assert rows == ["sat glucose3", "sat cadical195", "glu4"]  # short labels, with a legend:
    assert "sat glucose3: sat[solver=glucose3]" in result.stdout.splitlines()
    assert "1 puzzle: 0 wrong, 0 disagree, 0 error, 0 timeout, 1 agree" in result.stdout


@pytest.mark.parametrize("command", ["crosscheck", "bench"])
def test_a_wide_grid_fits_80_columns_with_keys_spelled_out_in_the_legend(
    one_puzzle: Path, command: str, tmp_path: Path
) -> None:
    grid = "dfs,sat[solver=glucose3|cadical195,encoding=minimal|extended,amo=pairwise|seqcounter]"
    result = CliRunner().invoke(
        main, [command, str(one_puzzle), "-b", grid, "--results", str(tmp_path / "r.jsonl")]
    )
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert max(map(len, lines)) <= 80, max(lines, key=len)  # the set-up lines of bench too
    keys = [f"sat#{i}" for i in range(1, 9)]
    assert all(any(line.split()[:1] == [key] for line in lines) for key in keys)  # rows
    assert "sat#8: sat[solver=cadical195,encoding=extended,amo=seqcounter]" in lines
    assert lines.count("dfs: dfs") == 0  # a label shown whole has no legend line


# -- options declared as data ---------------------------------------------------------------------


def test_backends_declare_their_options_as_data() -> None:
    from sudoku_cp.backends import backend_class, shorthand_flags

    sat, cpsat = backend_class("sat"), backend_class("cpsat")
    assert [option.name for option in sat.options] == ["solver", "encoding", "amo", "lexmin"]
    assert "cadical195" in sat.option("solver").choice_list()
    assert cpsat.option("workers").kind is int and cpsat.option("workers").minimum == 1
    assert sat.option("sat_solver") is None  # one name per option: the declared one
    assert set(sat.versions()) == {"python-sat"} and set(cpsat.versions()) == {"ortools"}
    flags = {flag: (backend, option.name) for flag, (backend, option) in shorthand_flags().items()}
    assert flags == {
        "--sat-solver": ("sat", "solver"),
        "--encoding": ("sat", "encoding"),
        "--amo": ("sat", "amo"),
        "--cpsat-lexmin": ("cpsat", "lexmin"),
        "--workers": ("cpsat", "workers"),
    }


def test_the_declared_name_is_the_keyword_everywhere() -> None:
    from sudoku_cp.backends import get_backend

    backend = get_backend("cpsat", lexmin="search", workers="2")
    assert backend.option_values == {
        "lexmin": "search",
        "model": "auto",
        "workers": 2,
        "counts": "auto",
    }
    assert get_backend("sat", solver="g4").option_values["solver"] == "glucose4"
    with pytest.raises(
        ConfigurationError,
        match="cpsat has no option 'cpsat_lexmin' "
        r"\(its options: lexmin, model, workers, "
        r"counts\)",
    ):
        parse_configurations(["cpsat[cpsat_lexmin=search]"])


@pytest.mark.parametrize(
    "call",
    [
        lambda: __import__("sudoku_cp.backends").backends.get_backend("dfs", bogus=1),
        lambda: __import__("sudoku_cp").solve(BAEKJOON_2239, backend="dfs", bogus=1),
        lambda: __import__("sudoku_cp").crosscheck([], backends=["dfs"], bogus=1),
    ],
)
def test_an_unknown_option_is_refused_through_every_face(call) -> None:
    with pytest.raises(SudokuError) as caught:
        call()
    message = str(caught.value)
    assert "bogus" in message and "lexmin" in message and "\n" not in message


def test_an_unknown_option_is_refused_on_the_command_line(one_puzzle: Path) -> None:
    result = CliRunner().invoke(main, ["solve", str(one_puzzle), "-b", "dfs[bogus=1]"])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == "Error: dfs has no option 'bogus' (its options: lexmin)\n"


def test_values_are_converted_and_checked_by_the_declaration() -> None:
    from sudoku_cp.errors import BackendOptionError

    (spec,) = parse_configurations(["cpsat[workers=2,lexmin=search]"])
    assert spec.options == {"workers": 2, "lexmin": "search"}
    with pytest.raises(BackendOptionError, match="'workers' takes a whole number >= 1, got '0'"):
        parse_configurations(["cpsat[workers=0]"])
    with pytest.raises(BackendOptionError, match="'lexmin' takes one of auto, objective, search"):
        parse_configurations(["cpsat[lexmin=fastest]"])
    result = CliRunner().invoke(main, ["solve", "-b", "sat[encoding=huge]"], input="0" * 16)
    assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1
    assert "takes one of extended, minimal" in result.stderr


def test_backends_command_describes_each_option() -> None:
    result = CliRunner().invoke(main, ["backends", "cpsat"])
    assert result.exit_code == 0
    assert "- workers=N  CP-SAT search workers (default 1, >= 1)" in result.stdout
    assert "- lexmin=auto|objective|search" in result.stdout


# -- earlier names of options, values and flags -------------------------------------------------


@pytest.mark.parametrize(
    ("written", "backend", "options"),
    [
        ("dfs[propagation=singles]", "dfs", {"lexmin": "singles"}),
        ("cpsat[strategy=objective]", "cpsat", {"lexmin": "objective"}),
        ("sat[sat_solver=g4]", "sat", {"solver": "glucose4"}),
        ("dlx[order=mrv]", "dlx", {"lexmin": "tightening"}),
        ("z3[encoding=int]", "z3", {"model": "integer"}),
    ],
)
def test_an_old_option_name_or_value_is_read_as_today_s_with_a_notice(
    written, backend, options, caplog
):
    from sudoku_cp.backends import base

    base._NOTICED.clear()
    with caplog.at_level("WARNING", logger="sudoku_cp"):
        (configuration,) = parse_configurations([written])
    assert (configuration.backend, dict(configuration.options)) == (backend, options)
    assert configuration.label == written  # logs written with the old words keep their labels
    (notice,) = [record.getMessage() for record in caplog.records]
    assert "is now" in notice and next(iter(options)) in notice


def test_a_grid_in_old_words_keeps_its_labels_as_written():
    labels = [item.label for item in parse_configurations(["z3[encoding=bool|int]"])]
    assert labels == ["z3[encoding=bool]", "z3[encoding=int]"]


def test_an_option_given_under_both_names_is_given_twice():
    with pytest.raises(ConfigurationError, match="given twice"):
        parse_configurations(["dfs[propagation=singles,lexmin=strong]"])


def test_an_old_flag_still_works_with_a_one_line_notice(tmp_path):
    puzzle = tmp_path / "p.txt"
    puzzle.write_text(BAEKJOON_2239 + "\n")
    result = CliRunner().invoke(
        main, ["solve", str(puzzle), "-b", "cpsat", "--cpsat-strategy", "objective"]
    )
    assert result.exit_code == 0, result.output
    assert (
        result.stderr
        == "warning: --cpsat-strategy is now --cpsat-lexmin (the old word still works)\n"
    )


def test_old_option_names_in_a_log_header_read_as_today_s():
    from sudoku_cp.results_log.resume import current_options

    assert current_options("cpsat", {"strategy": "search", "workers": 2}) == {
        "lexmin": "search",
        "workers": 2,
    }
    assert current_options("z3", {"encoding": "bool"}) == {"model": "boolean"}
    assert current_options("not-installed", {"x": "y"}) == {"x": "y"}
