"""The Sudoku models of the `cpsat` backend, written into CP-SAT's model proto.

Cells are numbered row-major from 0, values run 1..N. Two models, each written once per grid
shape (`kept` keeps them and poses puzzles on them):

- the **Boolean** model: a Boolean per (cell, value), variable ``cell * N + value - 1``, "the
  cell holds the value"; exactly one value per cell, each value exactly once per unit (the
  extended encoding, whose unit propagation finds naked and hidden singles);
- the **integer** model: an integer 1..N per cell, variable ``cell``; an `AllDifferent` per unit;
  for the big empty grids with the implied row counts of `add_row_counts`.

`ProtoWriter` speaks `cp_model.CpModel`'s verbs (`new_bool_var_series`, `add_exactly_one`,
`add_all_different`, `add_linear_constraint` with `only_enforce_if`, ...) but appends to the
proto's own fields through `cp_model_helper`, the C++ binding that `cp_model` wraps: `cp_model`
imports pandas and numpy, which would make every process that runs the backend bigger and slower
to start. The protos are the ones `cp_model` writes (tested):

    from ortools.sat.python import cp_model_helper as cmh

    model = ProtoWriter(cmh.CpModelProto())
    write_boolean_model(model, geometry(9, (3, 3)))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ...grid import Geometry, Shape

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


def write_boolean_model(model: ProtoWriter, geometry: Geometry) -> None:
    """The Boolean model of this grid: variable ``cell * N + value - 1`` is "cell holds value"."""
    size = geometry.size
    holds = model.new_bool_var_series(size**3)
    for cell in range(size * size):  # one value per cell
        model.add_exactly_one(holds[cell * size : (cell + 1) * size])
    for unit in geometry.units:  # each value once per unit
        for value in range(1, size + 1):
            model.add_exactly_one([holds[cell * size + value - 1] for cell in unit])


def write_integer_model(
    model: ProtoWriter, geometry: Geometry, *, row_counts: bool = False
) -> None:
    """The integer model of this grid: variable ``cell`` is the cell's value, 1..N; with
    `row_counts`, the implied constraints of `add_row_counts` (variables N*N and up)."""
    size = geometry.size
    cells = model.new_int_var_series(size * size, 1, size)
    for unit in geometry.units:
        model.add_all_different([cells[cell] for cell in unit])
    if row_counts:
        add_row_counts(model, cells, size, geometry.box_shape)


def add_row_counts(model: ProtoWriter, cells: Sequence[int], size: int, box: Shape) -> None:
    """Add implied constraints that let bounds propagation see Hall sets along a row.

    CP-SAT's `AllDifferent` propagates bounds only, and the lex-min of an empty grid whose box
    sides are not powers of two runs into pigeonholes it cannot see. In the empty 36x36, once
    the third row's first 12 cells are set, the 12 values that the last two boxes already hold can
    only go into the 12 cells of the two middle boxes, so values 1..12 cannot; the fixed search
    has to refute that conflict by conflict.

    The constraints: per cell and value a literal ``b == (cell == value)`` (two half-reified
    equalities: ``cell == value`` if b, ``cell != value`` if not b). Per row, value v and cut k
    after each box but the last (k = box width, 2 * box width, ...), a Boolean ``p`` "v is among
    the row's first k cells": ``p == sum(b over the first k cells)``, ``p + sum(b over the other
    cells) == 1``; and per row and cut ``sum(p over the values) == k``. Linear propagation on
    them does the counting step (a row prefix of k cells holds exactly k values) that the
    `AllDifferent` bounds propagator lacks.

    **Why the fixed search still finds the lex-min.** Each variable added is a function of the
    cells (b is "cell == v", p is "v is among the first k cells"), and every completion, with them
    so set, satisfies every constraint added (a row holds each value once, so its first k cells
    hold exactly k values). So they remove no completion: the lex-min `S*` extends to a solution of
    the whole model, and the propagation they add is sound like the rest, which is all the argument
    of `search.lexmin_by_search` needs. Its decision strategy still lists the cells alone, and once
    every cell is fixed propagation fixes the added variables, so the first solution is still `S*`.
    They change how soon a wrong prefix is refuted, not which solution comes first (tested: the
    same answers with and without them).
    """
    _rows, width = box
    holds = model.new_bool_var_series(size * size * size)  # cell == value
    for cell, variable in enumerate(cells):
        for value in range(1, size + 1):
            literal = holds[cell * size + value - 1]
            model.add_linear_constraint([variable], [1], value, value, only_enforce_if=literal)
            model.add_linear_expression_in_domain(
                [variable],
                [1],
                [INT64_MIN, value - 1, value + 1, INT64_MAX],
                only_enforce_if=negated(literal),
            )
    for row in range(size):
        row_cells = range(row * size, (row + 1) * size)
        for cut in range(width, size, width):
            first, rest = row_cells[:cut], row_cells[cut:]
            among = model.new_bool_var_series(size)  # the value is among the first `cut` cells
            for value, inside in enumerate(among):
                in_first = [holds[cell * size + value] for cell in first]
                in_rest = [holds[cell * size + value] for cell in rest]
                # inside == sum(in_first), inside + sum(in_rest) == 1
                model.add_linear_constraint([*in_first, inside], [-1] * len(in_first) + [1], 0, 0)
                model.add_linear_constraint([*in_rest, inside], [1] * (len(in_rest) + 1), 1, 1)
            model.add_linear_constraint(among, [1] * size, cut, cut)


def negated(literal: int) -> int:
    """The literal "not x", as the proto writes it (`~x` in `cp_model`)."""
    return -literal - 1


class ProtoWriter:
    """Appends variables and constraints to a CP-SAT model proto, as `cp_model.CpModel`'s verbs
    of the same names would write them; a variable is its index, from 0."""

    def __init__(self, proto: Any) -> None:
        from ortools.sat.python import cp_model_helper as cmh

        self.proto = proto
        self._cmh = cmh

    def new_int_var_series(self, count: int, low: int, high: int) -> range:
        """`count` new integer variables with domain low..high; their indices."""
        start = len(self.proto.variables)
        variable = self._cmh.IntegerVariableProto()
        variable.domain.extend([low, high])
        self.proto.variables.extend([variable] * count)
        return range(start, start + count)

    def new_bool_var_series(self, count: int) -> range:
        """`count` new Boolean variables; their indices."""
        return self.new_int_var_series(count, 0, 1)

    def add_exactly_one(self, literals: Iterable[int]) -> None:
        self.proto.constraints.add().exactly_one.literals.extend(literals)

    def add_all_different(self, variables: Iterable[int]) -> None:
        expressions = self.proto.constraints.add().all_diff.exprs
        for variable in variables:
            expression = expressions.add()
            expression.vars.append(variable)
            expression.coeffs.append(1)

    def add_linear_constraint(
        self,
        variables: Sequence[int],
        coefficients: Sequence[int],
        low: int,
        high: int,
        *,
        only_enforce_if: int | None = None,
    ) -> None:
        """low <= sum(coefficient * variable) <= high, if the enforcement literal holds."""
        self.add_linear_expression_in_domain(
            variables, coefficients, [low, high], only_enforce_if=only_enforce_if
        )

    def add_linear_expression_in_domain(
        self,
        variables: Sequence[int],
        coefficients: Sequence[int],
        domain: Sequence[int],
        *,
        only_enforce_if: int | None = None,
    ) -> None:
        """sum(coefficient * variable) in `domain` (flat intervals: low, high, low, high, ...),
        if the enforcement literal holds."""
        constraint = self.proto.constraints.add()
        if only_enforce_if is not None:
            constraint.enforcement_literal.append(only_enforce_if)
        linear = constraint.linear
        linear.vars.extend(variables)
        linear.coeffs.extend(coefficients)
        linear.domain.extend(domain)
