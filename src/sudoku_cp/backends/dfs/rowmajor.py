"""The lex-min of `dfs`: a row-major depth-first search with a witness, dives and an MRV oracle.

    propagation = Propagation(grid, strong=...)
    lexmin = RowMajorSearch(propagation, MrvSearch(propagation, deadline)).lexmin(start)

Why its answer is the lex-min, and what keeps it fast, is `RowMajorSearch`'s docstring. The
strong level (lookahead.py) serves only the first step, the count to two, whose uniqueness proof
it shortens on sparse grids; the row-major loop stays with singles, its nodes being many and its
oracle's budget counted in nodes.
"""

from __future__ import annotations

from itertools import islice

from .mrv import MrvSearch
from .propagation import Propagation
from .strong import hall_holds
from .tables import Candidates, Frame, cell_choices, first_undecided

SINGLES_FIRST_PER_CELL = 1  # strong level: singles nodes per cell before the look-ahead takes over
ROOT_DIVE_FROM_SIZE = 25  # the strong level dives from the top before its look-ahead search
DIVE_NODES_PER_OPEN_CELL = 2  # a dive's node budget, per undecided cell below its node
ORACLE_BUDGET_PER_CELL = 1  # oracle nodes per cell of the grid before the row-major search goes on


class RowMajorSearch:
    """The lex-min below a node: the first completion of a depth-first search that branches on
    the first undecided cell in row-major order, values ascending.

    **Why the first completion it reaches is the lex-min.** At a branching node every cell
    before the branched one is decided, so the completions below value v all precede, in
    row-major order, those below any v' > v: the search meets the completions in lexicographic
    order. Propagation (singles, and the check that each unit of the child still has a perfect
    matching of open cells to missing values) only removes values that occur in no completion:
    it cuts subtrees without completions and reorders none. What keeps it fast changes which
    subtrees are searched, never that order:

    - **The count to two.** An MRV search first looks for two completions. None: there is no
      completion. Exactly one: it is the lex-min (every proper puzzle ends here). Otherwise the
      first is the *witness*, a completion that agrees with the current prefix.
    - **The witness.** A child that agrees with the witness has a completion below it. When the
      search reaches it, every subtree before it in row-major order has been searched or
      refuted, so the lex-min lies below this child, and the rest of the stack (larger values
      of this cell and of earlier cells) is dropped.
    - **The dive.** Any other child is first searched by the same row-major search with a node
      budget and no oracle; its first completion is then the first in row-major order, the
      answer. On open grids singles and the matching check see every dead end, and the dive
      fills the grid without a backtrack.
    - **The oracle.** When the dive runs out, the MRV search (which may search in any order)
      is asked, with a node budget, whether the child has a completion: none refutes the
      child; one becomes the new witness; undecided leaves the child open. In the last two
      cases the row-major search goes on where the dive stopped, the part the dive searched
      having no completion.

    The choice follows row-major order and ascending values only; the oracle may search in any
    order, which is what keeps the naive search's exponential blow-ups away.
    """

    def __init__(self, propagation: Propagation, search: MrvSearch) -> None:
        self.propagation = propagation
        self.search = search
        self.units_of = propagation.tables.units_of
        self.dives = 0
        self.backtracks = 0  # row-major frames whose every value failed

    def lexmin(self, candidates: Candidates) -> Candidates | None:
        """The row-major smallest completion below a propagated node, or None."""
        self.search.oracle_calls += 1
        found = self.two_completions(candidates)
        if len(found) < 2:
            return found[0] if found else None
        return self.first_in_row_major_order(candidates, found[0])

    def two_completions(self, candidates: Candidates) -> list[Candidates]:
        """Two completions below the node, the first to be the witness; fewer when the answer is
        settled: then the list holds the lex-min, or nothing when there is no completion.

        At the strong level, a cheap plain search comes first. When it does not settle the count
        it is the hard case of a sparse unique grid, whose uniqueness proof the look-ahead
        shortens, or (from ROOT_DIVE_FROM_SIZE on) a grid so open that the MRV search gets lost
        in it while a row-major dive from the top fills it at once.
        """
        propagation, search = self.propagation, self.search
        strong, propagation.strong = propagation.strong, False
        stop_at = search.nodes + SINGLES_FIRST_PER_CELL * len(candidates) if strong else None
        found = list(islice(search.completions(candidates, stop_at=stop_at), 2))
        if stop_at is None or len(found) == 2 or search.nodes < stop_at:
            return found
        if propagation.tables.size >= ROOT_DIVE_FROM_SIZE:
            settled, solution = self.root_dive(candidates)
            if settled:
                return [] if solution is None else [solution]
        propagation.strong = True
        found = list(islice(search.completions(candidates), 2))
        propagation.strong = False
        return found

    def first_in_row_major_order(
        self, candidates: Candidates, witness: Candidates
    ) -> Candidates | None:
        """The row-major loop below a node with two completions, `witness` one of them."""
        search, units_of = self.search, self.units_of
        budget = ORACLE_BUDGET_PER_CELL * len(candidates)
        cell = first_undecided(candidates, 0)
        stack: list[Frame] = [(candidates, cell_choices(cell, candidates[cell]))]
        while stack:
            last = len(stack[-1][1]) == 1  # a failing last value sends the search back up
            cell, child = search.next_child(stack)
            if child is None or not hall_holds(child, units_of[cell]):
                self.backtracks += last
                continue
            next_cell = first_undecided(child, cell + 1)
            if next_cell < 0:
                return child  # the first completion reached in row-major order
            below = [(child, cell_choices(next_cell, child[next_cell]))]
            if not agrees(child, witness):
                solution = self.dive(below, self.dive_budget(child))
                if solution is not None:
                    return solution  # the first completion in row-major order
                verdict = search.bounded_completion(child, budget) if below else None
                if verdict is None:
                    self.backtracks += last
                    continue  # refuted by the dive or the oracle
                if isinstance(verdict, list):
                    witness = verdict
            if agrees(child, witness):
                stack.clear()  # this child is feasible: the lex-min lies below it
            stack += below  # the row-major search goes on where the dive stopped
        return None

    def dive(
        self, stack: list[Frame], budget: int, *, stall: int | None = None
    ) -> Candidates | None:
        """Run the row-major search on `stack` (frames of first undecided cells) for up to
        `budget` nodes, or until `stall` nodes pass without reaching a cell further on: its first
        completion (the lex-min below the stack's nodes), or None with the stack empty (no
        completion) or not (out of nodes; the stack is where the search stands, to be taken up
        again).

        No oracle: where singles and the matching check see each dead end at once, as on the
        empty grids, the row-major fill needs no backtrack at all, and an MRV search for a
        witness of each prefix would wander over the whole grid.
        """
        self.dives += 1
        search, units_of = self.search, self.units_of
        stop_at = search.nodes + budget
        stall_at, furthest = stop_at, -1
        while stack and search.nodes < stop_at and search.nodes < stall_at:
            last = len(stack[-1][1]) == 1
            cell, child = search.next_child(stack)
            if stall is not None and cell > furthest:
                furthest, stall_at = cell, search.nodes + stall
            if child is None or not hall_holds(child, units_of[cell]):
                self.backtracks += last
                continue
            next_cell = first_undecided(child, cell + 1)
            if next_cell < 0:
                return child
            stack.append((child, cell_choices(next_cell, child[next_cell])))
        return None

    def root_dive(self, candidates: Candidates) -> tuple[bool, Candidates | None]:
        """A dive from the top of the grid that gives up after N nodes without progress:
        (True, the lex-min or None when there is no completion), or (False, None) when it
        gave up."""
        first = first_undecided(candidates, 0)
        if first < 0:
            return True, candidates
        stack = [(candidates, cell_choices(first, candidates[first]))]
        solution = self.dive(
            stack, self.dive_budget(candidates), stall=self.propagation.tables.size
        )
        return solution is not None or not stack, solution

    @staticmethod
    def dive_budget(candidates: Candidates) -> int:
        """A dive's node budget: DIVE_NODES_PER_OPEN_CELL for each undecided cell."""
        return DIVE_NODES_PER_OPEN_CELL * sum(1 for mask in candidates if mask & (mask - 1))


def agrees(candidates: Candidates, witness: Candidates) -> bool:
    """Whether the witness completion is still allowed by these candidates."""
    return all(mask & bit for mask, bit in zip(candidates, witness, strict=True))
