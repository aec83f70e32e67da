"""The MRV search of `dfs`: every completion below a node, for any, count and the lex-min's oracle.

The search branches on the undecided cell with the fewest candidates (MRV), values ascending:

- with singles, each child is propagated by the bit-parallel `settle` (a node carries its places
  beside its candidates); at every node with a completion `settle` reaches the fixpoint of the
  scanning `singles`, so the completions come in the same order, and `any` keeps returning the
  same completion (the generator's grids depend on it);
- at the strong level (lex-min only), each node is narrowed by the look-ahead (lookahead.py),
  which also chooses the branch.

    search = MrvSearch(Propagation(grid), deadline)
    first = search.first_completion(start)        # some completion, or None
    for completion in search.completions(start): ...

The search counts its nodes and checks the deadline every CHECK_CLOCK_EVERY nodes.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..base import Deadline, TimeUp
from .lookahead import LookAhead
from .propagation import Propagation
from .singles import settle
from .tables import Candidates, Frame, most_constrained, places_of

CHECK_CLOCK_EVERY = 64  # nodes between deadline checks: cheap, yet a small fraction of a second


class MrvSearch:
    """One puzzle's MRV search over its propagation rules, with the node and oracle counts."""

    def __init__(self, propagation: Propagation, deadline: Deadline) -> None:
        self.propagation = propagation
        self.deadline = deadline
        self.look_ahead = LookAhead(propagation, deadline)
        self.nodes = 0
        self.oracle_calls = 0

    def tick(self) -> None:
        """Count a node; every CHECK_CLOCK_EVERY nodes, look at the clock.

        Raises:
            TimeUp: when the deadline has passed.
        """
        self.nodes += 1
        if self.nodes % CHECK_CLOCK_EVERY == 0 and self.deadline.expired():
            raise TimeUp

    def completions(
        self, candidates: Candidates, *, stop_at: int | None = None
    ) -> Iterator[Candidates]:
        """Every completion below a propagated node: with singles, by MRV search with ascending
        values (`plain_completions`); at the strong level, branching on the choice that the
        look-ahead ranks best.

        With `stop_at`, the search ends quietly once `self.nodes` reaches it.
        """
        if not self.propagation.strong:
            yield from self.plain_completions(candidates, stop_at)
            return
        branch = self.look_ahead.branch
        choices = branch(candidates)
        if choices is None:
            yield candidates
            return
        stack: list[Frame] = [(candidates, choices)] if choices else []
        while stack:
            if stop_at is not None and self.nodes >= stop_at:
                return
            _cell, child = self.next_child(stack)
            if child is None:
                continue
            choices = branch(child)
            if choices is None:
                yield child
            elif choices:
                stack.append((child, choices))

    def plain_completions(
        self, candidates: Candidates, stop_at: int | None
    ) -> Iterator[Candidates]:
        """`completions` with singles: the MRV cell, values ascending, each child propagated by
        the bit-parallel `settle`.

        `settle` refutes some dead nodes a step earlier than `Propagation.assume` would (a cell
        whose values are all hidden singles), so it may count fewer nodes.
        """
        tables, tick = self.propagation.tables, self.tick
        cell = most_constrained(candidates)
        if cell < 0:
            yield candidates
            return
        stack: list[tuple[Candidates, list[int], int, int]] = [
            (candidates, places_of(candidates, tables.size), cell, candidates[cell])
        ]
        while stack:
            if stop_at is not None and self.nodes >= stop_at:
                return
            node, places, cell, untried = stack[-1]
            bit = untried & -untried  # the smallest value first
            untried ^= bit
            if untried:
                stack[-1] = (node, places, cell, untried)
            else:
                stack.pop()
            tick()
            settled = settle(tables, node, places, [(cell, node[cell] ^ bit)])
            if settled is None:
                continue
            child, child_places = settled
            cell = most_constrained(child)
            if cell < 0:
                yield child
            else:
                stack.append((child, child_places, cell, child[cell]))

    def next_child(self, stack: list[Frame]) -> tuple[int, Candidates | None]:
        """Take the next untried choice of the top frame, leave the rest on the stack, and
        return its cell with the propagated child (or None)."""
        node, choices = stack[-1]
        cell, bit = choices.pop()
        if not choices:
            stack.pop()
        self.tick()
        return cell, self.propagation.assume(node, cell, bit)

    def first_completion(self, candidates: Candidates) -> Candidates | None:
        """The oracle: some completion below a propagated node, or None when there is none."""
        self.oracle_calls += 1
        return next(self.completions(candidates), None)

    def bounded_completion(self, candidates: Candidates, budget: int) -> Candidates | None | bool:
        """The oracle with a node budget: a completion, None (refuted), or False (undecided)."""
        self.oracle_calls += 1
        stop_at = self.nodes + budget
        for solution in self.completions(candidates, stop_at=stop_at):
            return solution
        return False if self.nodes >= stop_at else None
