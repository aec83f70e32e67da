"""testing.options: the configurations the contract suite runs, every declared value of every
option, labelled as `-b` takes them."""

from __future__ import annotations

import pytest

from sudoku_cp.backends import backend_class
from sudoku_cp.errors import BackendOptionError, ConfigurationError
from sudoku_cp.testing import contract_configurations


def labels(name: str, **arguments: object) -> list[str]:
    found = contract_configurations(backend_class(name), name, **arguments)  # type: ignore[arg-type]
    return [configuration.label for configuration in found]


def test_the_defaults_come_first_then_each_value_of_each_option():
    assert labels("dfs") == ["dfs", "dfs[lexmin=singles]", "dfs[lexmin=strong]"]
    assert labels("z3") == ["z3", "z3[model=integer]", "z3[process=inline]"]


def test_an_option_whose_choices_are_a_function_counts_every_value():
    solvers = backend_class("sat").option("solver").choice_list()
    assert solvers is not None and len(solvers) > 2
    found = labels("sat")
    assert [f"sat[solver={solver}]" for solver in solvers[1:]] == [
        label for label in found if label.startswith("sat[solver=")
    ]


def test_a_whole_number_option_runs_its_default_and_the_values_a_combination_names():
    assert not any("workers" in label for label in labels("cpsat"))
    assert labels("cpsat", combinations=["workers=1|3"])[-1] == "cpsat[workers=3]"


def test_combinations_expand_as_a_grid_and_repeats_run_once():
    found = labels("z3", combinations=["z3[model=boolean|integer,process=inline]", "model=integer"])
    assert found == [
        "z3",
        "z3[model=integer]",
        "z3[process=inline]",  # model=boolean,process=inline is this one: it runs once
        "z3[model=integer,process=inline]",
    ]


def test_fixed_options_hold_everywhere_and_are_not_varied():
    found = contract_configurations(backend_class("z3"), "z3", fixed={"model": "integer"})
    assert [(item.label, dict(item.options)) for item in found] == [
        ("z3[model=integer]", {"model": "integer"}),
        ("z3[model=integer,process=inline]", {"model": "integer", "process": "inline"}),
    ]


def test_every_value_false_is_the_one_configuration():
    assert labels("sat", every_value=False) == ["sat"]


def test_unknown_options_and_refused_values_are_named():
    with pytest.raises(ConfigurationError, match="dfs has no option 'order'"):
        labels("dfs", combinations=["order=a|b"])
    with pytest.raises(BackendOptionError, match="lexmin"):
        labels("dfs", combinations=["lexmin=fastest"])
    with pytest.raises(ConfigurationError, match="write options as name=value"):
        labels("dfs", combinations=["lexmin"])
