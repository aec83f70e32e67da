"""errors: one family under SudokuError; a parse error says where, an unknown backend's message
is not quoted, and python-sat's form of Ctrl-C comes out as KeyboardInterrupt."""

from __future__ import annotations

import inspect

import pytest

from sudoku_cp import errors
from sudoku_cp.errors import (
    GridParseError,
    SudokuError,
    UnknownBackendError,
    is_solver_interrupt,
    solver_interrupts,
)


def test_every_error_is_a_sudoku_error() -> None:
    family = [
        value
        for name, value in vars(errors).items()
        if inspect.isclass(value)
        and issubclass(value, Exception)
        and value.__module__ == errors.__name__
    ]
    assert len(family) > 10 and all(issubclass(error, SudokuError) for error in family)


def test_a_parse_error_is_located_by_the_parts_it_knows() -> None:
    error = GridParseError("unknown symbol 'x'", source="p.txt", line=3, column=7)
    assert str(error) == error.located() == "p.txt:3:7: unknown symbol 'x'"
    assert error.message == "unknown symbol 'x'"
    assert GridParseError("empty", source="<stdin>").located() == "<stdin>: empty"
    assert str(GridParseError("no puzzle")) == "no puzzle"


def test_an_unknown_backend_reads_as_its_message() -> None:
    error = UnknownBackendError("unknown backend 'nope' (choose from dfs)")
    assert str(error) == "unknown backend 'nope' (choose from dfs)"
    assert isinstance(error, KeyError)


def test_a_solver_interrupt_is_a_keyboard_interrupt_and_other_errors_stay_themselves() -> None:
    caught = RuntimeError("Caught keyboard interrupt")
    assert is_solver_interrupt(caught) and not is_solver_interrupt(RuntimeError("out of memory"))
    with pytest.raises(KeyboardInterrupt), solver_interrupts():
        raise caught
    with pytest.raises(RuntimeError, match="out of memory"), solver_interrupts():
        raise RuntimeError("out of memory")
