"""`CpSatBackend`: the `cpsat` backend's options, its `auto` choices and its kept models.

The backend picks, per puzzle, a model kind (`model`: Boolean or integer, `auto` by grid size and
mode), a lex-min method (`lexmin`: `search`, the default, or `objective`) and, for the lex-min
integer model of the big empty grids, the implied row counts (`counts`). It keeps one model per
grid shape and kind, made by `prepare` outside the puzzle's clock, poses each puzzle on it and
hands it to `search`, `objective` or `count`:

    backend = CpSatBackend(lexmin="objective")
    result = backend.solve(Grid.empty(9), time_limit=10)   # Backend.solve: prepare, then _solve

The figures behind the `auto` choices and the defaults are in docs/decisions.md.
"""

from __future__ import annotations

import time
from typing import Any, ClassVar

from ...grid import Grid, Shape
from ...result import Mode
from ..base import Backend, BackendOption, Deadline, Outcome, TimeUp
from .call import (
    ABANDONED,
    PuzzleCalls,
    configure_enumeration,
    configure_free_search,
    new_parameters,
    ortools_version,
    warm_up,
)
from .count import count_completions
from .kept import BooleanModel, CpSatModel, IntegerModel
from .objective import lexmin_by_objective
from .search import configure_fixed_search, first_solution, lexmin_by_search

LEXMIN_METHODS = ("auto", "objective", "search")
MODELS = ("auto", "boolean", "integer")
COUNTS = ("auto", "on", "off")  # the implied row counts of the lex-min integer model
DEFAULT_WORKERS = 1  # CP-SAT workers for `any`
# `auto` choices, by grid size N (docs/decisions.md)
INTEGER_FROM_SIZE = 26  # the integer model for lex-min from here on, the Boolean one below
COUNTS_FROM_SIZE = 33  # the row counts from here on ...
COUNTS_MAX_GIVENS = 1  # ... for puzzles with at most this many times N givens


def counts_wanted(size: int, box: Shape, givens: int = 0) -> bool:
    """Whether `auto` puts the row counts into the lex-min integer model for a puzzle of this
    shape with this many givens: from COUNTS_FROM_SIZE up, unless both box sides are powers of
    two (there the row-major greedy fill meets no dead end, so the counts only cost), and only
    with at most COUNTS_MAX_GIVENS * N givens."""
    rows, columns = box
    powers_of_two = all(side & (side - 1) == 0 for side in (rows, columns))
    return size >= COUNTS_FROM_SIZE and not powers_of_two and givens <= COUNTS_MAX_GIVENS * size


class CpSatBackend(Backend):
    """OR-Tools CP-SAT, every size and mode: lex-min by the fixed row-major search
    (`search.lexmin_by_search`) or by a staged exact objective (`objective.lexmin_by_objective`),
    on the Boolean model up to 25x25 and on the integer model from 26x26 (options `lexmin` and
    `model`, both `auto` by default). `any` is CP-SAT's own search with `workers` workers;
    lex-min and counting always use one.

    The backend keeps, per grid shape, one model of each kind that `model` picks for that size
    in some mode (and, for puzzles that want them, the lex-min integer model with the row
    counts); `prepare` makes them, and imports OR-Tools, outside the clock.
    """

    name = "cpsat"
    guarantees_lexmin = True
    description = (
        "OR-Tools CP-SAT model; lex-min by a fixed row-major search (Booleans, "
        "from 26x26 integers) or a staged exact objective"
    )
    requires = ("ortools",)
    packages: ClassVar[tuple[str, ...]] = ("ortools",)
    setup_modules: ClassVar[tuple[str, ...]] = ("ortools.sat.python.cp_model_helper",)
    options: ClassVar[tuple[BackendOption, ...]] = (
        BackendOption(
            "lexmin",
            "search: the first solution of the fixed row-major search; objective: a "
            "staged exact objective; auto: search",
            "auto",
            choices=LEXMIN_METHODS,
            flag="--cpsat-lexmin",
            renamed_from=("strategy", "cpsat_strategy"),
            old_flags=("--cpsat-strategy",),
        ),
        BackendOption(
            "model",
            "boolean: a Boolean per cell and value, exactly-ones; integer: an "
            "integer per cell, AllDifferent per unit; auto: integer for lexmin from "
            f"{INTEGER_FROM_SIZE}x{INTEGER_FROM_SIZE}, else boolean",
            "auto",
            choices=MODELS,
            renamed_from=("cpsat_model",),
        ),
        BackendOption(
            "workers",
            "CP-SAT search workers",
            DEFAULT_WORKERS,
            kind=int,
            minimum=1,
            flag="--workers",
        ),
        BackendOption(
            "counts",
            "implied row counts in the lex-min integer model (a Boolean per "
            "row, value and box boundary: is the value left of it), which let the "
            "fixed search see pigeonholes; auto: "
            f"from {COUNTS_FROM_SIZE}x{COUNTS_FROM_SIZE} unless both box sides are "
            "powers of two, for puzzles with at most N givens",
            "auto",
            choices=COUNTS,
            renamed_from=("cpsat_counts",),
        ),
    )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.workers: int = self.option_values["workers"]
        self.lexmin_choice: str = self.option_values["lexmin"]
        self.model_choice: str = self.option_values["model"]
        self.counts_choice: str = self.option_values["counts"]
        # (size, box, kind) -> the kept model of that kind
        self._models: dict[tuple[int, Shape, str], CpSatModel] = {}
        # (size, box) -> the lex-min integer model with the row counts, made for the puzzles
        # that want it (`uses_row_counts`)
        self._models_with_counts: dict[tuple[int, Shape], IntegerModel] = {}
        # the kept models that a CP-SAT call past its budget may still read (`CpSatModel.busy`)
        self._busy: list[CpSatModel] = []
        # the shapes whose every model is made, whatever the puzzle (`prepare` has nothing to do)
        self._ready: set[tuple[int, Shape]] = set()
        # purpose -> CP-SAT parameters (`_parameters`)
        self._parameter_sets: dict[str, Any] = {}

    def model_kind(self, size: int, mode: Mode = Mode.LEXMIN) -> str:
        """The model this backend uses for grids of this size in this mode: `auto` takes the
        integer model for lex-min from INTEGER_FROM_SIZE up, the Boolean one otherwise (`any`
        and `count` too: their free search is faster on it)."""
        if self.model_choice != "auto":
            return self.model_choice
        return "integer" if mode is Mode.LEXMIN and size >= INTEGER_FROM_SIZE else "boolean"

    def uses_row_counts(self, grid: Grid) -> bool:
        """Whether this backend's lex-min by the integer model takes the model with the row counts
        for this puzzle (`model.add_row_counts`; `auto`: `counts_wanted`)."""
        if self.counts_choice != "auto":
            return self.counts_choice == "on"
        return counts_wanted(grid.size, grid.box, len(grid.givens()))

    def lexmin_method(self, size: int) -> str:
        """The lex-min method this backend uses for grids of this size (`auto`: the search, at
        every size)."""
        return "search" if self.lexmin_choice == "auto" else self.lexmin_choice

    def prepare(self, grid: Grid) -> bool:
        """Import OR-Tools, warm CP-SAT up and make this shape's models, once per shape (the
        models of every mode: `prepare` does not know the mode, and it runs outside the clock).
        A CP-SAT call that outlived an earlier puzzle's budget is waited for by the next puzzle,
        on its own clock (`_settle`): that wait is a puzzle's cost, not set-up."""
        made = False
        size, box = grid.size, grid.box
        if (size, box) in self._ready:
            return made
        for mode in Mode:
            kind = self.model_kind(size, mode)
            key = (size, box, kind)
            if key in self._models:
                continue
            warm_up()
            self._models[key] = (
                IntegerModel(size, box) if kind == "integer" else BooleanModel(size, box)
            )
            made = True
        if self.model_kind(size) != "integer":
            self._ready.add((size, box))  # every model of the shape is made
        # The lex-min integer model with the row counts, when this puzzle wants it (prepare does
        # not know the mode either: a puzzle that wants it in `any` mode makes it too).
        elif (size, box) not in self._models_with_counts and self.uses_row_counts(grid):
            warm_up()
            self._models_with_counts[size, box] = IntegerModel(size, box, row_counts=True)
            made = True
        return made

    def _settle(self, deadline: Deadline | None = None) -> None:
        """Wait for the calls that outlived their budgets (within the puzzle's time left).

        Raises:
            TimeUp: when one is still running at the deadline.
        """
        while self._busy:
            remaining = None if deadline is None else deadline.remaining()
            if not self._busy[-1].settle(remaining):
                raise TimeUp(f"waiting for an earlier puzzle's call: {ABANDONED}")
            self._busy.pop()

    def close(self) -> None:
        """Wait for any call still running, then drop the kept models."""
        self._settle()
        self._models.clear()
        self._models_with_counts.clear()
        self._ready.clear()

    def _parameters(self, purpose: str) -> Any:
        """This backend's CP-SAT parameters for "search", "objective", "any" or "count",
        configured once and reused puzzle after puzzle (each call sets its own time budget)."""
        parameters = self._parameter_sets.get(purpose)
        if parameters is None:
            parameters = new_parameters()
            if purpose == "any":
                configure_free_search(parameters)
                parameters.num_workers = self.workers
            elif purpose == "count":
                configure_enumeration(parameters)
            else:  # lex-min: the search, or the stages and the probe of the objective
                configure_fixed_search(parameters)
            self._parameter_sets[purpose] = parameters
        return parameters

    def _model_for(self, grid: Grid, mode: Mode) -> CpSatModel:
        """The kept model this puzzle is solved on in this mode."""
        kind = self.model_kind(grid.size, mode)
        if mode is Mode.LEXMIN and kind == "integer" and self.uses_row_counts(grid):
            return self._models_with_counts[grid.size, grid.box]
        return self._models[grid.size, grid.box, kind]

    def _solve(self, grid: Grid, *, mode: Mode, limit: int, deadline: Deadline) -> Outcome:
        self.prepare(grid)  # a no-op after Backend.solve; here for direct callers
        self._settle(deadline)
        model = self._model_for(grid, mode)
        lexmin = mode is Mode.LEXMIN
        method = self.lexmin_method(grid.size)
        calls = PuzzleCalls(self._parameters(method if lexmin else mode.value), deadline)
        proto = model.proto
        stats: dict[str, Any] = {
            "model": model.kind,
            "ortools": ortools_version(),
            "variables": len(proto.variables),
            "constraints": len(proto.constraints),
            "row_counts": isinstance(model, IntegerModel) and model.row_counts,
        }
        start = time.perf_counter()
        # The staged objective needs the candidates; the Boolean strategy finds its own.
        candidates = model.candidates(grid.values) if lexmin and method == "objective" else None
        try:
            with model.posed(grid, lexmin=lexmin, candidates=candidates) as givens:
                # Narrowed domains (the integer model; the Boolean one from
                # GIVENS_AS_DOMAINS_FROM_SIZE) are no assumptions.
                stats.update(
                    givens=givens,
                    assumptions=len(proto.assumptions),
                    build_seconds=time.perf_counter() - start,
                )
                outcome = self._answer(grid, model, calls, stats, mode, limit, candidates)
        except TimeUp as stop:
            outcome = Outcome.timeout(deadline, when=stop.when, count=stop.count)
        finally:
            if model.busy is not None:
                self._busy.append(model)  # waited for by the next puzzle, on its clock
        outcome.stats = {
            **stats,
            "solve_seconds": calls.solve_seconds,
            "stages": calls.made,
            "branches": calls.branches,
            "conflicts": calls.conflicts,
            **outcome.stats,
        }
        return outcome

    def _answer(
        self,
        grid: Grid,
        model: CpSatModel,
        calls: PuzzleCalls,
        stats: dict[str, Any],
        mode: Mode,
        limit: int,
        candidates: list[int] | None,
    ) -> Outcome:
        """The puzzle's outcome on its posed model, by the mode and the lex-min method.

        Raises:
            TimeUp: when the budget runs out first.
        """
        if mode is Mode.LEXMIN and candidates is not None:
            stats.update(strategy="objective", workers=1)
            return lexmin_by_objective(grid, model, calls, stats, candidates)
        if mode is Mode.LEXMIN:
            stats.update(strategy="search", workers=1)
            return lexmin_by_search(model, calls)
        if mode is Mode.ANY:
            stats.update(strategy="portfolio", workers=self.workers)
            return first_solution(model, calls)
        stats.update(strategy="enumerate", workers=1)
        return count_completions(model, calls, limit, stats)
