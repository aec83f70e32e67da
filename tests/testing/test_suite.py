"""testing.suite: failures name the configuration and the case, every option value is checked,
known failures are marked xfail."""

from __future__ import annotations

from typing import Any

import pytest

from sudoku_cp.backends import BackendOption
from sudoku_cp.backends.base import Deadline, Outcome
from sudoku_cp.backends.dfs import DfsBackend
from sudoku_cp.grid import Grid
from sudoku_cp.result import Mode
from sudoku_cp.testing import assert_backend, check_backend, contract_tests

from ..wrong_backends import NotLexminBackend


class SometimesWrongBackend(NotLexminBackend):
    """dfs, answering the completion after the lex-min when told `wrong=yes`."""

    name = "sometimeswrong"
    options = (
        *DfsBackend.options,
        BackendOption("wrong", "answer another completion", "no", choices=("no", "yes")),
    )

    def _solve(self, grid: Grid, *, mode: Mode, limit: int, deadline: Deadline) -> Outcome:
        if self.option_values["wrong"] == "yes":
            return super()._solve(grid, mode=mode, limit=limit, deadline=deadline)
        return DfsBackend._solve(self, grid, mode=mode, limit=limit, deadline=deadline)


def test_a_value_that_breaks_the_contract_is_named_in_each_failure():
    failures = check_backend(SometimesWrongBackend, sizes=(4,))
    assert failures and all(
        failure.startswith("SometimesWrongBackend[wrong=yes]: lexmin-") for failure in failures
    ), failures
    assert check_backend(SometimesWrongBackend, sizes=(4,), every_value=False) == []
    assert check_backend(SometimesWrongBackend, sizes=(4,), wrong="no") == []


def test_assert_backend_lists_every_failure():
    with pytest.raises(AssertionError, match=r"^\d+ contract failure\(s\):\nSometimesWrong"):
        assert_backend(SometimesWrongBackend, sizes=(4,))


def test_the_defaults_run_every_case_and_the_other_values_the_core():
    test = contract_tests(SometimesWrongBackend, sizes=(4, 6, 9), quick=False)
    ids = [parameter.id for parameter in test.pytestmark[0].args[1]]  # type: ignore[attr-defined]
    defaults = [name for name in ids if name.startswith("SometimesWrongBackend-")]
    others = [name for name in ids if name.startswith("SometimesWrongBackend[")]
    assert len(defaults) + len(others) == len(ids)
    assert "SometimesWrongBackend-warm-batch-like-fresh" in defaults
    assert "SometimesWrongBackend[wrong=yes]-warm-batch-like-fresh" not in others
    assert "SometimesWrongBackend[wrong=yes]-time-limit-empty25" in others
    assert "SometimesWrongBackend[wrong=yes]-lexmin-like-naive-9-25-5" in others


def test_known_failures_are_marked_xfail_and_still_run():
    test = contract_tests(
        SometimesWrongBackend, sizes=(4,), xfail={"SometimesWrongBackend[wrong=yes]": "known"}
    )
    marks: dict[str, Any] = {
        parameter.id: parameter.marks  # type: ignore[attr-defined]
        for parameter in test.pytestmark[0].args[1]  # type: ignore[attr-defined]
    }
    marked = {name for name, found in marks.items() if found}
    assert marked == {name for name in marks if name.startswith("SometimesWrongBackend[wrong=")}
    mark = marks["SometimesWrongBackend[wrong=yes]-lexmin-known-empty4"][0]
    assert mark.name == "xfail" and mark.kwargs == {"reason": "known", "strict": False}


test_sometimes_wrong_contract = contract_tests(
    SometimesWrongBackend,
    sizes=(4,),
    xfail={
        f"SometimesWrongBackend[wrong=yes]-{case}": "answers the lex-successor"
        for case in ("lexmin-known-empty4", "lexmin-like-naive-4-4-1")
    },
)
