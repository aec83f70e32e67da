from __future__ import annotations

import pytest

from sudoku_cp.errors import ArgumentError
from sudoku_cp.explain.steps import (
    CONTRADICTION_LEVEL,
    TECHNIQUES,
    Explanation,
    Step,
    parse_techniques,
)


def test_techniques_are_named_alone_or_by_group_in_the_order_of_difficulty() -> None:
    assert parse_techniques("pointing, SINGLES") == ("hidden single", "naked single", "pointing")
    assert parse_techniques("fish,xy_wing") == ("x-wing", "swordfish", "jellyfish", "xy-wing")
    assert list(TECHNIQUES.values()) == sorted(TECHNIQUES.values())


def test_an_unknown_technique_is_refused_with_the_names() -> None:
    with pytest.raises(ArgumentError, match="unknown technique 'bug'.*hidden single"):
        parse_techniques("singles,bug")


def test_a_step_in_the_schema_is_one_based() -> None:
    step = Step(
        "naked pair", eliminations=((10, 3),), cells=(0, 1), values=(3, 7), units=("row 1",)
    )
    assert step.to_dict(9) == {
        "technique": "naked pair",
        "placements": [],
        "eliminations": [[2, 2, 3]],
        "from": [[1, 1], [1, 2]],
        "values": [3, 7],
        "units": ["row 1"],
    }
    assert step.describe(9) == "naked pair {3,7} in r1c1 r1c2 (row 1): r2c2<>3"


def test_the_rating_is_the_hardest_step_and_stuck_is_the_top() -> None:
    steps = [Step("hidden single", placements=((0, 1),)), Step("x-wing", eliminations=((5, 2),))]
    assert Explanation("solved", steps).rating.to_dict() == {"level": 6, "technique": "x-wing"}
    stuck = Explanation("stuck", steps).rating
    assert (stuck.level, stuck.technique) == (CONTRADICTION_LEVEL, "contradiction")


def test_a_contradiction_step_says_what_it_assumed() -> None:
    chain = (Step("naked single", placements=((1, 2),)),)
    step = Step(
        "contradiction",
        eliminations=((21, 5),),
        chain=chain,
        contradiction="r1c1 has no candidate left",
    )
    assert step.describe(9).startswith("contradiction: r3c4=5 leads to a contradiction in 1 steps")
    assert step.to_dict(9)["chain"][0]["placements"] == [[1, 2, 2]]
