"""The strong level's look-ahead: both sides of the busiest binary choices, and the branch.

A binary choice is a two-candidate cell, or a value with two places in a unit: every completion
lies on one of its two sides. At each node of the strong MRV search, `LookAhead.branch` probes
the PROBE_WIDTH choices whose sides reach the most peer candidates, each side propagated with
singles (`settle`), narrowing the node as the pass goes:

- a side that fails is removed: the other side holds in every completion;
- when both sides hold, a candidate that neither keeps is removed (the dilemma rule: it costs one
  OR of two grids);

the strong rules then run once over a pass that narrowed, and the search branches on the choice
with the largest product of (1 + the candidates each side removes), as look-ahead SAT solvers
(march) rank their branches. Like propagation, it only removes values in no completion.
"""

from __future__ import annotations

from operator import or_

from ..base import Deadline, TimeUp
from .propagation import Propagation
from .singles import settle
from .strong import MATCHING_FROM_SIZE
from .tables import (
    Candidates,
    Choice,
    Settled,
    Tables,
    cell_choices,
    most_constrained,
    places_of,
)

PROBE_WIDTH = 30  # binary choices looked ahead at each node of the strong MRV search
WIDE_PROBE_WIDTH = 60  # the probe width from MATCHING_FROM_SIZE on


class LookAhead:
    """The look-ahead of one puzzle's strong search."""

    def __init__(self, propagation: Propagation, deadline: Deadline) -> None:
        self.propagation = propagation
        self.tables = propagation.tables
        self.deadline = deadline
        self.width = WIDE_PROBE_WIDTH if self.tables.size >= MATCHING_FROM_SIZE else PROBE_WIDTH

    def branch(self, candidates: Candidates) -> list[Choice] | None:
        """Narrow a propagated node in place by passes of probes, then the choices to branch on
        (the (cell, bit) sides, the one to try first last): [] when the node has no completion,
        None when it is a completion.

        The best-ranked choice is taken if the pass's removals left both its sides open; else the
        node is looked at again.

        Raises:
            TimeUp: when the deadline passes during a pass (a pass can take seconds on 25x25).
        """
        size = self.tables.size
        while True:
            places = places_of(candidates, size)
            ranked = binary_choices(self.tables, candidates, places)
            if not ranked:
                cell = most_constrained(candidates)
                return None if cell < 0 else cell_choices(cell, candidates[cell])
            scored = self.probe_pass(candidates, places, ranked[: self.width])
            if scored is None:
                return []
            best, narrowed = scored
            if narrowed and not self.propagation.propagate(candidates, []):  # singles hold already
                return []
            if best and (not narrowed or is_open(candidates, best)):
                return best

    def probe_pass(
        self, candidates: Candidates, places: list[int], choices: list[list[Choice]]
    ) -> tuple[list[Choice], bool] | None:
        """Probe each choice still open, narrowing `candidates` in place: the best choice (its
        sides reversed, to be popped in order) and whether anything was removed, or None when a
        choice fails on both sides (no completion below the node)."""
        best: list[Choice] = []
        best_score = 0
        narrowed = False
        for choice in choices:
            if self.deadline.expired():
                raise TimeUp
            if not is_open(candidates, choice):
                continue  # a removal earlier in this pass decided it
            sides: list[Settled] = []
            for cell, bit in choice:
                side = self.probe(candidates, places, cell, bit)
                if side is None:
                    break  # the other side is forced: no need to probe it
                sides.append(side)
            if len(sides) < 2:
                # The side that did not fail holds in every completion (when it fails too, there
                # is no completion below this node).
                forced = sides[0] if sides else self.probe(candidates, places, *choice[1])
                if forced is None:
                    return None
                candidates[:], places = forced
                narrowed = True
                continue
            # How many candidates each side removes, before the dilemma narrows the node.
            total = sum(map(int.bit_count, places))
            first_cut, second_cut = (total - sum(map(int.bit_count, side[1])) for side in sides)
            kept = self.keep_either(candidates, places, sides)
            if kept is not None:
                places = kept
                narrowed = True
            score = (first_cut + 1) * (second_cut + 1)
            if score > best_score:
                best_score, best = score, choice[::-1]
        return best, narrowed

    def keep_either(
        self, candidates: Candidates, places: list[int], sides: list[Settled]
    ) -> list[int] | None:
        """The dilemma rule: remove in place what neither side keeps, with singles after it;
        the new places, or None when both sides keep everything."""
        either = list(map(or_, sides[0][0], sides[1][0]))
        if either == candidates:
            return None
        removed = [
            (cell, old & ~new)
            for cell, (old, new) in enumerate(zip(candidates, either, strict=True))
            if old != new
        ]
        settled = settle(self.tables, candidates, places, removed)
        # Cannot fail: each side is a fixpoint that holds, inside the union, and singles only
        # remove what no such fixpoint below the union keeps.
        assert settled is not None
        candidates[:], places = settled
        return places

    def probe(
        self, candidates: Candidates, places: list[int], cell: int, bit: int
    ) -> Settled | None:
        """One side of a binary choice, propagated with singles only (`settle`): locked
        candidates would refute a little more, but at twice the cost of each of the many
        probes."""
        return settle(self.tables, candidates, places, [(cell, candidates[cell] ^ bit)])


def binary_choices(tables: Tables, candidates: Candidates, places: list[int]) -> list[list[Choice]]:
    """Every two-sided choice, as its two (cell, bit) sides: two-candidate cells, and values
    with two places in a unit; those whose sides reach the most peer candidates first.

    Reach is counted with the open cells of each value (from `places`), ANDed with a cell's
    peers."""
    peer_bits = tables.peer_bits
    open_cells = sum(1 << cell for cell, mask in enumerate(candidates) if mask & (mask - 1))
    places_of_open = [cells & open_cells for cells in places]
    scored: list[tuple[int, int, list[Choice]]] = []
    for cell, mask in enumerate(candidates):
        if mask.bit_count() == 2:
            low, high = mask & -mask, mask & (mask - 1)
            reach = (places_of_open[low.bit_length() - 1] & peer_bits[cell]).bit_count() + (
                places_of_open[high.bit_length() - 1] & peer_bits[cell]
            ).bit_count()
            scored.append((-reach, len(scored), [(cell, low), (cell, high)]))
    for unit_masks, unit_bits in zip(tables.unit_masks, tables.unit_bits, strict=True):
        once = twice = thrice = 0
        for mask in unit_masks(candidates):
            if mask & (mask - 1):
                thrice |= twice & mask
                twice |= once & mask
                once |= mask
        pairs = twice & ~thrice
        while pairs:
            bit = pairs & -pairs
            pairs ^= bit
            cells_with = places_of_open[bit.bit_length() - 1]
            both = cells_with & unit_bits
            first = (both & -both).bit_length() - 1
            second = both.bit_length() - 1
            reach = (cells_with & peer_bits[first]).bit_count() + (
                cells_with & peer_bits[second]
            ).bit_count()
            scored.append((-reach, len(scored), [(first, bit), (second, bit)]))
    scored.sort()
    return [choice for _, _, choice in scored]


def is_open(candidates: Candidates, choice: list[Choice]) -> bool:
    """Whether both sides of a binary choice are still open (possible and not yet decided)."""
    (first, first_bit), (second, second_bit) = choice
    first_mask, second_mask = candidates[first], candidates[second]
    return (
        bool(first_mask & first_bit and second_mask & second_bit)
        and first_mask != first_bit
        and second_mask != second_bit
    )
