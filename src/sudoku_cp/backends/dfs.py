"""The `dfs` backend: pure-Python depth-first search on candidate bitmasks.

Every cell holds a bitmask of its remaining candidates (bit v-1 for value v). Propagation applies
naked singles (a decided cell removes its value from its peers) and hidden singles (a value with one
place left in a unit goes there) until nothing changes; both only remove values that occur in no
completion, so they never change which completions exist.

- any / count: search on the cell with the fewest candidates (MRV), values ascending; each child
  is propagated bit-parallel (`_Search.settle`: per value, a bitset of the cells holding it).
- lexmin: greedy row-major choice with an exact feasibility oracle. The lex-min completion is the
  one that, cell by cell in row-major order, takes the smallest value whose prefix can still be
  completed. We keep a *witness* (some completion of the current prefix, found by the MRV search):
  values at or above the witness's value need no check (the witness itself proves the witness
  value feasible), and each smaller candidate is tried with the MRV search as the oracle. A value
  the oracle refutes is removed for good and propagation runs again. The choice follows row-major
  order and ascending values only; the oracle may search in any order, which is what keeps the
  naive DFS's exponential blow-ups (69 M nodes on some 9x9 grids) away. A puzzle proved to have
  exactly one completion returns it at once. Before the oracle, a child is *dived* into: the
  row-major search itself below it, with a node budget, whose first completion is the answer.
  On open grids (the empty ones above all) singles and a matching check per unit see every
  dead end, the dive fills the grid without a backtrack, and the oracle, whose MRV search for
  a witness wanders over the whole grid, is never asked.
- the strong level (lexmin only; `propagation=auto` uses it from 16x16 on) is for that proof on
  sparse unique grids, where the singles search needs 10^4-10^5 nodes. Propagation adds locked
  candidates (pointing and claiming), and from 25x25 on arc consistency on each unit's
  all-different (Regin's matching rule: the naked and hidden subsets of every size). Each node
  looks ahead: both sides of its busiest binary choices (a two-candidate cell, a value with two
  places in a unit) are propagated with singles; a side that fails is removed for good, so is a
  candidate that neither side keeps (the dilemma rule), and the search branches on the choice
  whose two sides both remove the most (the product of their cuts). The probes are
  bit-parallel (`_Search.settle`: per value, a bitset of the cells holding it), and the
  stronger rules run once per look-ahead pass. It first runs the plain search for N*N nodes,
  and the row-major loop stays plain: a look-ahead node costs dozens of propagations, which
  only pays when the plain search is lost.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import reduce
from itertools import islice
from operator import itemgetter, or_
from typing import Any, ClassVar

from ..grid import BLANK, Grid, Shape, geometry
from ..result import Mode, Status
from .base import Backend, BackendOption, Deadline, Outcome

Candidates = list[int]  # one bitmask per cell; a single bit means the cell is decided
Settled = tuple[Candidates, list[int]]  # candidates and their places (see _Search.settle)

CHECK_CLOCK_EVERY = 64  # nodes between deadline checks: cheap, yet well under 10 ms apart
SINGLES_FIRST_PER_CELL = 1  # strong level: singles nodes per cell before the look-ahead takes over
PROBE_WIDTH = 30  # strong level: binary choices looked ahead at each node of the MRV search
MATCHING_FROM_SIZE = 25  # strong level: all-different consistency from this size on (below, it
# cost more than it saved: unique-16x16 the same nodes, 45 % of the time in the matchings)
WIDE_PROBE_WIDTH = 60  # the probe width from MATCHING_FROM_SIZE on (unique-25x25 puzzle 0:
# 17 s against 25 s at 30; unique-16x16 ran 10 % slower at 60)
MATCHING_MEMO_LIMIT = 200_000  # unit states remembered by one search before the memo restarts
PROPAGATION_LEVELS = ("auto", "singles", "strong")
STRONG_FROM_SIZE = (
    16  # auto: the strong level from this size on (it costs more than it saves below)
)
DIVE_NODES_PER_OPEN_CELL = 2  # a row-major dive's node budget (the empty 64x64 fills in 1.1)
# The lex-min dives from the top before the look-ahead from this size on: below it, the plain
# search settles the open grids within its N*N nodes, and the dive only cost (unique-16x16: 6 %
# more nodes, no puzzle faster).
ROOT_DIVE_FROM_SIZE = 25
ORACLE_BUDGET_PER_CELL = 1  # oracle nodes per cell of the grid before the row-major search goes on


class _OutOfTime(Exception):
    """Raised inside the search when the deadline passes."""


@dataclass(frozen=True, eq=False)
class _Tables:
    """Geometry flattened into tuples of ints for the inner loops."""

    size: int
    full: int
    peers: tuple[tuple[int, ...], ...]
    units: tuple[tuple[int, ...], ...]
    units_of: tuple[tuple[tuple[int, ...], ...], ...]
    unit_set_of: tuple[int, ...]  # each cell's three units as a bitset of unit indices
    unit_masks: tuple[Callable[[Candidates], tuple[int, ...]], ...]  # each unit's masks
    peer_bits: tuple[int, ...]  # each cell's peers as a bitset of cells
    unit_bits: tuple[int, ...]  # each unit's cells as a bitset of cells
    segments: _Segments  # every box ∩ row and box ∩ column, for locked candidates


@dataclass(frozen=True, eq=False)
class _Segments:
    """Where boxes meet rows and columns (segments), flattened for locked candidates.

    For segment i: `getters[i](candidates)` gives its cells' masks; `line_of[i]` numbers its row
    or column, `box_of[i]` its box and direction (row segments and column segments of one box
    are two groups); `line_rest[i]` and `box_rest[i]` are the other cells of its line and box.
    """

    getters: tuple[Callable[[Candidates], tuple[int, ...]], ...]
    line_of: tuple[int, ...]
    box_of: tuple[int, ...]
    line_rest: tuple[tuple[int, ...], ...]
    box_rest: tuple[tuple[int, ...], ...]
    line_count: int
    box_count: int


@functools.cache
def _tables(size: int, box: Shape) -> _Tables:
    geo = geometry(size, box)
    unit_set_of = tuple(
        sum(1 << index for index, unit in enumerate(geo.units) if cell in unit)
        for cell in geo.cells
    )
    return _Tables(
        size,
        (1 << size) - 1,
        geo.peers,
        geo.units,
        geo.units_of,
        unit_set_of,
        geo.unit_getters,
        tuple(sum(1 << peer for peer in peers) for peers in geo.peers),
        tuple(sum(1 << cell for cell in unit) for unit in geo.units),
        _segments(geo.rows + geo.columns, geo.boxes),
    )


def _segments(lines: tuple[tuple[int, ...], ...], boxes: tuple[tuple[int, ...], ...]) -> _Segments:
    """The box-line intersections of every row and column (`lines`: rows, then columns)."""
    getters, line_of, box_of, line_rest, box_rest = [], [], [], [], []
    row_count = len(lines) // 2
    for line_index, line in enumerate(lines):
        for box_index, box_cells in enumerate(boxes):
            cells = tuple(cell for cell in line if cell in box_cells)
            if not cells:
                continue
            getters.append(itemgetter(*cells))
            line_of.append(line_index)
            box_of.append(2 * box_index + (line_index >= row_count))
            line_rest.append(tuple(cell for cell in line if cell not in cells))
            box_rest.append(tuple(cell for cell in box_cells if cell not in cells))
    return _Segments(
        tuple(getters),
        tuple(line_of),
        tuple(box_of),
        tuple(line_rest),
        tuple(box_rest),
        len(lines),
        2 * len(boxes),
    )


Frame = tuple[Candidates, list[tuple[int, int]]]  # a node and its untried (cell, bit), last first


class _Search:
    """One puzzle's search: propagation, the MRV search and the lex-min greedy loop.

    With `strong`, propagation adds locked candidates and the search may branch on the places of
    a value in a unit; without it, propagation and branching are exactly the original ones, so
    `any` keeps finding the same completion (the generator depends on it).
    """

    def __init__(self, grid: Grid, deadline: Deadline, *, strong: bool = False) -> None:
        self.tables = _tables(grid.size, grid.box)
        self.grid = grid
        self.deadline = deadline
        self.strong = strong
        self.nodes = 0
        self.oracle_calls = 0
        self.dives = 0
        self.backtracks = 0  # row-major frames whose every value failed
        self.matching = strong and grid.size >= MATCHING_FROM_SIZE
        self.probe_width = WIDE_PROBE_WIDTH if grid.size >= MATCHING_FROM_SIZE else PROBE_WIDTH
        self.unit_memo: dict[tuple[int, ...], tuple[int, ...]] = {}  # see all_different

    # -- propagation ------------------------------------------------------------------------------

    def propagate(self, candidates: Candidates, decided: list[int], dirty: int = 0) -> bool:
        """Apply the rules until fixpoint; False on a contradiction.

        `decided` lists cells that became single-valued and whose value must still be removed
        from their peers; `dirty` the units whose candidates changed otherwise (a bitset).
        """
        if not self.strong:
            return self.singles(candidates, decided, dirty)
        while True:
            if not self.singles(candidates, decided, dirty):
                return False
            dirty = self.locked_candidates(candidates, decided)
            if dirty < 0:
                return False
            if not decided and not dirty and self.matching:
                dirty = self.all_different(candidates, decided)
                if dirty < 0:
                    return False
            if not decided and not dirty:
                return True

    def singles(self, candidates: Candidates, decided: list[int], dirty: int) -> bool:
        """Apply naked and hidden singles until fixpoint; False on a contradiction.

        Only the units where a candidate changed (`dirty`, a bitset of unit indices, and the
        units of decided cells) are scanned for hidden singles: the others cannot have gained
        one. The dirty units are an int, not a set: ORing three bits per changed cell is the
        innermost operation of the whole backend, and measured 2.5x cheaper than `set.update`.
        """
        tables = self.tables
        peers, units, unit_set_of, full = (
            tables.peers,
            tables.units,
            tables.unit_set_of,
            tables.full,
        )
        while True:
            while decided:
                cell = decided.pop()
                dirty |= unit_set_of[cell]
                bit = candidates[cell]
                for peer in peers[cell]:
                    mask = candidates[peer]
                    if mask & bit:
                        mask ^= bit
                        if not mask:
                            return False
                        candidates[peer] = mask
                        dirty |= unit_set_of[peer]
                        if not mask & (mask - 1):
                            decided.append(peer)
            while dirty:
                lowest = dirty & -dirty
                dirty ^= lowest
                unit = units[lowest.bit_length() - 1]
                once = twice = 0
                # Indexing cell by cell measured faster than an itemgetter's tuple here.
                for cell in unit:
                    mask = candidates[cell]
                    twice |= once & mask
                    once |= mask
                if once != full:
                    return False  # some value has no place left in this unit
                hidden = once & ~twice
                if hidden:
                    for cell in unit:
                        mask = candidates[cell]
                        only = mask & hidden
                        # An open cell whose values are all hidden here (two values, one place)
                        # is not refuted: setting it to either value refutes it at once, and
                        # checking for it on every decided cell cost 5 % on 9x9 medians.
                        # settle() refutes it.
                        if only and only != mask:
                            if only & (only - 1):
                                return False  # two values need this one cell
                            candidates[cell] = only
                            decided.append(cell)
            if not decided:
                return True

    def locked_candidates(self, candidates: Candidates, decided: list[int]) -> int:
        """Pointing and claiming: a value whose places in a box all lie on one line leaves the
        rest of that line, and one whose places on a line all lie in one box leaves the rest of
        that box. Cells left with one value go to `decided`; returns the units whose candidates
        changed (a bitset of unit indices), or -1 on a contradiction.

        Each segment (box ∩ line) is ORed once; a value is in another segment of its line (box)
        exactly when it is in two or more segments of that line (box).
        """
        tables = self.tables
        layout = tables.segments
        unit_set_of = tables.unit_set_of
        dirty = 0
        masks = [reduce(or_, cells(candidates)) for cells in layout.getters]
        line_once = [0] * layout.line_count
        line_twice = [0] * layout.line_count
        box_once = [0] * layout.box_count
        box_twice = [0] * layout.box_count
        for mask, line, box in zip(masks, layout.line_of, layout.box_of, strict=True):
            line_twice[line] |= line_once[line] & mask
            line_once[line] |= mask
            box_twice[box] |= box_once[box] & mask
            box_once[box] |= mask
        for index, mask in enumerate(masks):
            in_line = line_twice[layout.line_of[index]]
            in_box = box_twice[layout.box_of[index]]
            pointing = mask & in_line & ~in_box
            claiming = mask & in_box & ~in_line
            if not pointing and not claiming:
                continue
            for bits, rest in (
                (pointing, layout.line_rest[index]),
                (claiming, layout.box_rest[index]),
            ):
                if not bits:
                    continue
                for cell in rest:
                    old = candidates[cell]
                    if old & bits:
                        new = old & ~bits
                        if not new:
                            return -1
                        candidates[cell] = new
                        dirty |= unit_set_of[cell]
                        if not new & (new - 1):
                            decided.append(cell)
        return dirty

    def all_different(self, candidates: Candidates, decided: list[int]) -> int:
        """Arc consistency on each unit's all-different (Regin's matching rule, `_consistent`):
        a value stays in a cell only if some assignment of the unit's missing values to its open
        cells gives it there. It finds the naked and hidden pairs, triples, ... that singles and
        locked candidates miss. Returns the changed units as a bitset, or -1 on a contradiction;
        stops after the first unit that decides a cell (singles go first).

        A unit's answer depends only on its masks, and siblings share most units: the answers are
        memoised by the unit's tuple of masks (unique-25x25: four lookups in five hit).
        """
        tables = self.tables
        memo = self.unit_memo
        if len(memo) > MATCHING_MEMO_LIMIT:
            memo.clear()
        dirty = 0
        for unit, unit_masks in zip(tables.units, tables.unit_masks, strict=True):
            masks = unit_masks(candidates)
            narrowed = memo.get(masks)
            if narrowed is None:
                narrowed = memo[masks] = _consistent(masks)
            if narrowed is masks:
                continue
            if not narrowed:
                return -1
            dirty |= self.replace(candidates, unit, narrowed, decided)
            if decided:
                return dirty
        return dirty

    def replace(
        self, candidates: Candidates, cells: Sequence[int], masks: Sequence[int], decided: list[int]
    ) -> int:
        """Give `cells` these (narrower) masks in place; cells left with one value go to
        `decided`. Returns the units whose candidates changed, as a bitset."""
        unit_set_of = self.tables.unit_set_of
        dirty = 0
        for cell, new in zip(cells, masks, strict=True):
            if candidates[cell] != new:
                candidates[cell] = new
                dirty |= unit_set_of[cell]
                if not new & (new - 1):
                    decided.append(cell)
        return dirty

    def initial_candidates(self) -> Candidates | None:
        """Candidates of the puzzle after propagation, or None when it is contradictory."""
        full = self.tables.full
        candidates = [full if value == BLANK else 1 << (value - 1) for value in self.grid.values]
        decided = [cell for cell, value in enumerate(self.grid.values) if value != BLANK]
        return candidates if self.propagate(candidates, decided) else None

    def assume(self, candidates: Candidates, cell: int, bit: int) -> Candidates | None:
        """A propagated copy with `cell` set to `bit`, or None when that fails."""
        child = candidates[:]
        child[cell] = bit
        return child if self.propagate(child, [cell]) else None

    # -- MRV search ------------------------------------------------------------------------------

    def tick(self) -> None:
        self.nodes += 1
        if self.nodes % CHECK_CLOCK_EVERY == 0 and self.deadline.expired():
            raise _OutOfTime

    @staticmethod
    def most_constrained(candidates: Candidates) -> int:
        """The undecided cell with the fewest candidates (first in row-major order), or -1."""
        best, best_count = -1, 1 << 30
        for cell, mask in enumerate(candidates):
            if mask & (mask - 1):
                count = mask.bit_count()
                if count < best_count:
                    best, best_count = cell, count
                    if count == 2:
                        break
        return best

    def look_ahead(self, candidates: Candidates) -> list[tuple[int, int]] | None:
        """Try both sides of the best-placed binary choices (a two-candidate cell, or a value with
        two places in a unit), narrowing `candidates` in place as the pass goes:

        - a side that fails is removed (the other side holds in every completion);
        - when both sides hold, a candidate that neither keeps is removed (every completion lies
          on one side: the dilemma rule; it costs one OR of two grids);

        and the pass goes on over the narrowed grid, propagated with singles; the strong rules
        run once at the end of a pass that narrowed. Then branch on the choice with the largest
        product of (1 + the candidates each side removes), as look-ahead SAT solvers (march)
        rank their branches, if removals left both its sides open; else look again. (The larger
        side's size, used before, needed 832 proof nodes on the first puzzle of
        unique-25x25.txt, this 710.)"""
        size = self.tables.size
        while True:
            places = _places(candidates, size)
            ranked = self.binary_choices(candidates, places)
            if not ranked:
                cell = self.most_constrained(candidates)
                return None if cell < 0 else _cell_choices(cell, candidates[cell])
            best: list[tuple[int, int]] = []
            best_score = 0
            narrowed = False
            for choice in ranked[: self.probe_width]:
                if self.deadline.expired():
                    raise _OutOfTime  # a look-ahead can take seconds on 25x25
                if not _open(candidates, choice):
                    continue  # a removal earlier in this pass decided it
                sides: list[Settled] = []
                for cell, bit in choice:
                    side = self.probe(candidates, places, cell, bit)
                    if side is None:
                        break  # the other side is forced: no need to probe it
                    sides.append(side)
                if len(sides) < 2:
                    # The side that did not fail holds in every completion (when it fails too,
                    # there is no completion below this node).
                    forced = sides[0] if sides else self.probe(candidates, places, *choice[1])
                    if forced is None:
                        return []
                    candidates[:], places = forced
                    narrowed = True
                    continue
                # How many candidates each side removes, before the dilemma narrows the node.
                total = sum(map(int.bit_count, places))
                first_cut, second_cut = (total - sum(map(int.bit_count, side[1])) for side in sides)
                either = list(map(or_, sides[0][0], sides[1][0]))
                if either != candidates:
                    removed = [
                        (cell, old & ~new)
                        for cell, (old, new) in enumerate(zip(candidates, either, strict=True))
                        if old != new
                    ]
                    settled = self.settle(candidates, places, removed)
                    # Cannot fail: each side is a fixpoint that holds, inside the union, and
                    # singles only remove what no such fixpoint below the union keeps.
                    assert settled is not None
                    candidates[:], places = settled
                    narrowed = True
                score = (first_cut + 1) * (second_cut + 1)
                if score > best_score:
                    best_score, best = score, choice[::-1]
            if narrowed and not self.propagate(candidates, []):  # singles hold already
                return []
            if best and (not narrowed or _open(candidates, best)):
                return best

    def probe(
        self, candidates: Candidates, places: list[int], cell: int, bit: int
    ) -> Settled | None:
        """One side of a binary choice, propagated with singles only (`settle`): locked
        candidates would refute a little more, but at twice the cost of each of the many
        probes."""
        return self.settle(candidates, places, [(cell, candidates[cell] ^ bit)])

    def settle(
        self, candidates: Candidates, places: list[int], removals: list[tuple[int, int]]
    ) -> Settled | None:
        """Copies of `candidates` and `places` with the (cell, bits) `removals` made and naked and
        hidden singles applied to fixpoint, or None on a contradiction.

        Bit-parallel: `places[v]` is the bitset of cells that hold value index v. A decided cell
        removes its value from the peers in `places[v] & peers`, and only the units of the cells
        that lost v are checked for v's hidden single (or for v having no place left). A hidden
        single is one more removal (the cell's other values), made by the same loop as the
        given ones."""
        tables = self.tables
        peer_bits, unit_bits, unit_set_of = tables.peer_bits, tables.unit_bits, tables.unit_set_of
        child = candidates[:]
        spots = places[:]
        checks: list[tuple[int, int]] = []  # (value index, bitset of units to check for it)
        decided: list[int] = []
        pending = list(removals)  # (cell, values to remove from it), hidden singles too
        while True:
            while pending:
                cell, rest = pending.pop()
                rest &= child[cell]
                mask = child[cell] ^ rest
                if not mask:
                    return None
                child[cell] = mask
                if rest and not mask & (mask - 1):
                    decided.append(cell)
                here = 1 << cell
                units = unit_set_of[cell]
                while rest:  # highest bit first: one big-int operation fewer than lowest first
                    value = rest.bit_length() - 1
                    rest ^= 1 << value
                    spots[value] ^= here
                    checks.append((value, units))
            while decided:
                cell = decided.pop()
                bit = child[cell]
                value = bit.bit_length() - 1
                spot = spots[value]
                hits = spot & peer_bits[cell]
                if not hits:
                    continue
                spots[value] = spot ^ hits
                touched = 0
                while hits:
                    peer = hits.bit_length() - 1
                    hits ^= 1 << peer
                    mask = child[peer] ^ bit
                    if not mask:
                        return None
                    child[peer] = mask
                    touched |= unit_set_of[peer]
                    if not mask & (mask - 1):
                        decided.append(peer)
                checks.append((value, touched))
            while checks:
                value, units = checks.pop()
                spot = spots[value]
                while units:
                    unit = units.bit_length() - 1
                    units ^= 1 << unit
                    only = spot & unit_bits[unit]
                    if not only & (only - 1):
                        if not only:
                            return None  # the value has no place left in this unit
                        cell = only.bit_length() - 1
                        mask = child[cell]
                        if mask & (mask - 1):
                            pending.append((cell, mask ^ (1 << value)))  # a hidden single
            if not pending and not decided:
                return child, spots

    def binary_choices(
        self, candidates: Candidates, places: list[int]
    ) -> list[list[tuple[int, int]]]:
        """Every two-sided choice, as its two (cell, bit) sides: two-candidate cells, and values
        with two places in a unit; those whose sides reach the most peer candidates first.

        Reach is counted with the open cells of each value (from `places`, see `settle`), ANDed
        with a cell's peers."""
        tables = self.tables
        peer_bits = tables.peer_bits
        open_cells = sum(1 << cell for cell, mask in enumerate(candidates) if mask & (mask - 1))
        places_of = [cells & open_cells for cells in places]
        scored: list[tuple[int, int, list[tuple[int, int]]]] = []
        for cell, mask in enumerate(candidates):
            if mask.bit_count() == 2:
                low, high = mask & -mask, mask & (mask - 1)
                reach = (places_of[low.bit_length() - 1] & peer_bits[cell]).bit_count() + (
                    places_of[high.bit_length() - 1] & peer_bits[cell]
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
                cells_with = places_of[bit.bit_length() - 1]
                both = cells_with & unit_bits
                first = (both & -both).bit_length() - 1
                second = both.bit_length() - 1
                reach = (cells_with & peer_bits[first]).bit_count() + (
                    cells_with & peer_bits[second]
                ).bit_count()
                scored.append((-reach, len(scored), [(first, bit), (second, bit)]))
        scored.sort()
        return [choice for _, _, choice in scored]

    def completions(
        self, candidates: Candidates, *, stop_at: int | None = None
    ) -> Iterator[Candidates]:
        """Every completion below a propagated node: with singles, by MRV search with ascending
        values (`plain_completions`); at the strong level, branching on the choice that the
        look-ahead ranks best (the (cell, bit) choices, last one first: [] when the node has no
        completion, None when it is a completion).

        With `stop_at`, the search ends quietly once `self.nodes` reaches it.
        """
        if not self.strong:
            yield from self.plain_completions(candidates, stop_at)
            return
        choices = self.look_ahead(candidates)
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
            choices = self.look_ahead(child)
            if choices is None:
                yield child
            elif choices:
                stack.append((child, choices))

    def plain_completions(
        self, candidates: Candidates, stop_at: int | None
    ) -> Iterator[Candidates]:
        """`completions` with singles: the MRV cell, values ascending, each child propagated by
        the bit-parallel `settle` (a node carries its places beside its candidates).

        At every node with a completion `settle` reaches the fixpoint of `assume`'s `singles`,
        so the completions come in the same order and `any` gives the same one; `settle` also
        refutes some dead nodes a step earlier (a cell whose values are all hidden singles), so
        it may count fewer nodes. It does less work per node (top95, the search for a second
        completion: median 2.9 ms with `singles`, 1.9 ms with `settle`).
        """
        most_constrained, settle = self.most_constrained, self.settle
        cell = most_constrained(candidates)
        if cell < 0:
            yield candidates
            return
        stack: list[tuple[Candidates, list[int], int, int]] = [
            (candidates, _places(candidates, self.tables.size), cell, candidates[cell])
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
            self.tick()
            settled = settle(node, places, [(cell, node[cell] ^ bit)])
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
        return cell, self.assume(node, cell, bit)

    def first_completion(self, candidates: Candidates) -> Candidates | None:
        """The oracle: some completion below a propagated node, or None when there is none."""
        self.oracle_calls += 1
        return next(self.completions(candidates), None)

    # -- lex-min ---------------------------------------------------------------------------------

    def bounded_completion(self, candidates: Candidates, budget: int) -> Candidates | None | bool:
        """The oracle with a node budget: a completion, None (refuted), or False (undecided)."""
        self.oracle_calls += 1
        stop_at = self.nodes + budget
        for solution in self.completions(candidates, stop_at=stop_at):
            return solution
        return False if self.nodes >= stop_at else None

    def dive(self, stack: list[Frame], budget: int, stall: int | None = None) -> Candidates | None:
        """Run the row-major search on `stack` (frames of first undecided cells, as in `lexmin`)
        for up to `budget` nodes, or until `stall` nodes pass without reaching a cell further
        on: its first completion (the lex-min below the stack's nodes), or None with the stack
        empty (no completion) or not (out of nodes; the stack is where the search stands, to
        be taken up again).

        No oracle: where singles and the matching check see each dead end at once, as on the
        empty grids, the row-major fill needs no backtrack at all, and an MRV search for a
        witness of each prefix cost far more (empty 36x36: 400 oracle calls of up to N*N nodes
        each, most of them out of budget, against a fill of 2,800 nodes).
        """
        self.dives += 1
        units_of = self.tables.units_of
        stop_at = self.nodes + budget
        stall_at, furthest = stop_at, -1
        while stack and self.nodes < stop_at and self.nodes < stall_at:
            last = len(stack[-1][1]) == 1
            cell, child = self.next_child(stack)
            if stall is not None and cell > furthest:
                furthest, stall_at = cell, self.nodes + stall
            if child is None or not _hall_holds(child, units_of[cell]):
                self.backtracks += last
                continue
            next_cell = _first_undecided(child, cell + 1)
            if next_cell < 0:
                return child
            stack.append((child, _cell_choices(next_cell, child[next_cell])))
        return None

    def root_dive(self, candidates: Candidates) -> tuple[bool, Candidates | None]:
        """A dive from the top of the grid that gives up after N nodes without progress:
        (True, the lex-min or None when there is no completion), or (False, None) when it
        gave up."""
        first = _first_undecided(candidates, 0)
        if first < 0:
            return True, candidates
        stack = [(candidates, _cell_choices(first, candidates[first]))]
        solution = self.dive(stack, self.dive_budget(candidates), self.tables.size)
        return solution is not None or not stack, solution

    def lexmin(self, candidates: Candidates) -> Candidates | None:
        """The row-major smallest completion below a propagated node, or None.

        A depth-first search that branches on the first undecided cell in row-major order with
        ascending values, so the first completion it reaches is the lex-min. What keeps it fast:
        a *witness* completion of the current prefix; a child that agrees with the witness is
        known feasible, and then the lex-min lies below it and every later sibling is dropped.
        Any other child is first dived into (`dive`: the same search with a node budget and no
        oracle), whose first completion is the answer. When the dive runs out, the child is put
        to the MRV oracle with a small node budget, which either refutes it, finds a new
        witness, or gives up; in the last two cases the search goes on where the dive stopped.
        """
        self.oracle_calls += 1
        look_ahead, self.strong = self.strong, False
        stop_at = self.nodes + SINGLES_FIRST_PER_CELL * len(candidates) if look_ahead else None
        found = list(islice(self.completions(candidates, stop_at=stop_at), 2))
        if stop_at is not None and len(found) < 2 and self.nodes >= stop_at:
            # A cheap search did not settle how many completions there are: the hard case of a
            # sparse unique grid, whose uniqueness proof the look-ahead shortens by orders, or
            # (from ROOT_DIVE_FROM_SIZE on) a grid so open that the MRV search gets lost in it
            # while the row-major dive fills it at once (the empty 56x56 and 64x64).
            if self.tables.size >= ROOT_DIVE_FROM_SIZE:
                settled, solution = self.root_dive(candidates)
                if settled:
                    return solution
            self.strong = True
            found = list(islice(self.completions(candidates), 2))
            self.strong = False
        if len(found) < 2:
            return found[0] if found else None  # exactly one completion: it is the lex-min
        witness = found[0]
        # The row-major loop stays with singles: its oracle budget counts nodes, and a node with
        # look-ahead costs dozens of propagations (multi-16x16 ran 10-50x slower with it).
        budget = ORACLE_BUDGET_PER_CELL * len(candidates)
        units_of = self.tables.units_of
        cell = _first_undecided(candidates, 0)
        stack: list[Frame] = [(candidates, _cell_choices(cell, candidates[cell]))]
        while stack:
            last = len(stack[-1][1]) == 1  # a failing last value sends the search back up
            cell, child = self.next_child(stack)
            if child is None or not _hall_holds(child, units_of[cell]):
                self.backtracks += last
                continue
            next_cell = _first_undecided(child, cell + 1)
            if next_cell < 0:
                return child  # the first completion reached in row-major order
            below = [(child, _cell_choices(next_cell, child[next_cell]))]
            if not _agrees(child, witness):
                solution = self.dive(below, self.dive_budget(child))
                if solution is not None:
                    return solution  # the first completion in row-major order
                verdict = self.bounded_completion(child, budget) if below else None
                if verdict is None:
                    self.backtracks += last
                    continue  # refuted by the dive or the oracle
                if isinstance(verdict, list):
                    witness = verdict
            if _agrees(child, witness):
                stack.clear()  # this child is feasible: the lex-min lies below it
            stack += below  # the row-major search goes on where the dive stopped
        return None

    def dive_budget(self, candidates: Candidates) -> int:
        """A dive's node budget: DIVE_NODES_PER_OPEN_CELL for each undecided cell."""
        return DIVE_NODES_PER_OPEN_CELL * sum(1 for mask in candidates if mask & (mask - 1))


def _places(candidates: Candidates, size: int) -> list[int]:
    """For each value index, the bitset of cells that hold it."""
    places = [0] * size
    for cell, mask in enumerate(candidates):
        here = 1 << cell
        while mask:
            low = mask & -mask
            mask ^= low
            places[low.bit_length() - 1] |= here
    return places


def _cell_choices(cell: int, mask: int) -> list[tuple[int, int]]:
    """The values of a cell as (cell, bit) choices, the smallest last (it is popped first)."""
    choices = []
    while mask:
        bit = mask & -mask
        choices.append((cell, bit))
        mask ^= bit
    choices.reverse()
    return choices


def _hall_holds(candidates: Candidates, units: tuple[tuple[int, ...], ...]) -> bool:
    """Whether each unit can still give its missing values to distinct open cells.

    A perfect matching between the open cells and their candidates (Hall's condition): it sees
    the pigeonhole dead ends that singles cannot, such as five cells left with four values.
    """
    for unit in units:
        open_masks = [
            candidates[cell] for cell in unit if candidates[cell] & (candidates[cell] - 1)
        ]
        owner: dict[int, int] = {}  # value bit -> index of the open cell holding it
        for index in range(len(open_masks)):
            if not _augment(index, open_masks, owner, [0]):
                return False
    return True


def _augment(index: int, open_masks: list[int], owner: dict[int, int], seen: list[int]) -> bool:
    """Find a value for open cell `index`, moving earlier cells along an augmenting path."""
    untried = open_masks[index] & ~seen[0]
    while untried:
        bit = untried & -untried
        untried ^= bit
        seen[0] |= bit
        holder = owner.get(bit)
        if holder is None or _augment(holder, open_masks, owner, seen):
            owner[bit] = index
            return True
    return False


def _consistent(masks: tuple[int, ...]) -> tuple[int, ...]:
    """A unit's masks less every value that no perfect matching of its open cells to its missing
    values gives that cell; the same tuple when nothing goes, () when there is no such matching.

    Regin's rule: take one perfect matching; value v of cell i (not i's own match) is in some
    perfect matching iff the cell j matched to v can reach i along "j holds the match of k"
    edges (an alternating cycle through i and v). With every missing value matched (a unit has
    as many open cells as missing values), no free value can start an alternating path.
    """
    places = [index for index, mask in enumerate(masks) if mask & (mask - 1)]
    count = len(places)
    open_masks = [masks[index] for index in places]
    if count < 3 or min(map(int.bit_count, open_masks)) == count:
        return masks  # every open cell can take every missing value: nothing to remove
    owner: dict[int, int] = {}  # value bit -> index of the open cell it is matched to
    matched = [0] * count
    used = 0
    unmatched = []
    for index, mask in enumerate(open_masks):  # greedy first: most cells match at once
        free = mask & ~used
        if free:
            bit = free & -free
            used |= bit
            owner[bit] = index
            matched[index] = bit
        else:
            unmatched.append(index)
    for index in unmatched:
        if not _augment(index, open_masks, owner, [0]):
            return ()
    if unmatched:  # augmenting paths moved some matches
        for bit, index in owner.items():
            matched[index] = bit
    edges = []  # for each open cell, the cells matched to its other values, as a bitset
    back = [0] * count  # the same edges reversed
    for index, mask in enumerate(open_masks):
        rest = mask ^ matched[index]
        out = 0
        while rest:
            bit = rest & -rest
            rest ^= bit
            target = owner[bit]
            out |= 1 << target
            back[target] |= 1 << index
        edges.append(out)
    every = (1 << count) - 1
    if _reachable(edges, 0) | 1 == every and _reachable(back, 0) | 1 == every:
        # One strongly connected component: every value lies on a cycle. This is the common
        # case (97 % of the calls on unique-25x25), settled with two searches instead of one
        # per cell.
        return masks
    reach = [_reachable(edges, index) for index in range(count)]
    result: list[int] | None = None
    for index, mask in enumerate(open_masks):
        rest = mask ^ matched[index]
        keep = mask
        while rest:
            bit = rest & -rest
            rest ^= bit
            if not reach[owner[bit]] >> index & 1:
                keep ^= bit
        if keep != mask:
            if result is None:
                result = list(masks)
            result[places[index]] = keep
    return masks if result is None else tuple(result)


def _reachable(edges: list[int], start: int) -> int:
    """The nodes reachable from `start` in one or more steps (edges as bitsets), as a bitset."""
    seen = frontier = edges[start]
    while frontier:
        low = frontier & -frontier
        frontier ^= low
        new = edges[low.bit_length() - 1] & ~seen
        seen |= new
        frontier |= new
    return seen


def _open(candidates: Candidates, choice: list[tuple[int, int]]) -> bool:
    """Whether both sides of a binary choice are still open (possible and not yet decided)."""
    (first, first_bit), (second, second_bit) = choice
    first_mask, second_mask = candidates[first], candidates[second]
    return (
        bool(first_mask & first_bit and second_mask & second_bit)
        and first_mask != first_bit
        and second_mask != second_bit
    )


def _first_undecided(candidates: Candidates, start: int) -> int:
    """The first cell from `start` on (row-major) with more than one candidate, or -1."""
    for cell in range(start, len(candidates)):
        mask = candidates[cell]
        if mask & (mask - 1):
            return cell
    return -1


def _agrees(candidates: Candidates, witness: Candidates) -> bool:
    """Whether the witness completion is still allowed by these candidates."""
    return all(mask & bit for mask, bit in zip(candidates, witness, strict=True))


def _values(candidates: Candidates) -> tuple[int, ...]:
    return tuple(mask.bit_length() for mask in candidates)


class DfsBackend(Backend):
    """Hand-written depth-first search: bitmask candidates, naked and hidden singles, MRV.

    `propagation` chooses what the lex-min search does at each node: `singles` (naked and
    hidden singles, MRV cell), `strong` (also locked candidates, all-different consistency from
    25x25 on, and a look-ahead on binary choices that keeps the values it refutes and picks the
    branching choice), or `auto` (singles below 16x16, strong from 16x16 on). `any` and `count`
    always use singles, so `any` keeps returning the same completion (the generator's grids
    depend on it).

    Raises:
        BackendOptionError: for an unknown propagation level.
    """

    name = "dfs"
    description = (
        "pure-Python search: bitmasks, singles (+ locked candidates and look-ahead "
        "for large lex-min), MRV oracle for lex-min"
    )
    options: ClassVar[tuple[BackendOption, ...]] = (
        BackendOption(
            "lexmin",
            "how the lex-min search propagates: singles; strong (locked candidates, "
            "look-ahead on binary choices for the uniqueness proof); auto = strong from 16x16",
            "auto",
            choices=PROPAGATION_LEVELS,
            renamed_from=("propagation",),
        ),
    )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.propagation: str = self.option_values["lexmin"]

    def is_strong(self, grid: Grid, mode: Mode) -> bool:
        """Whether this search uses the strong level."""
        if mode is not Mode.LEXMIN or self.propagation == "singles":
            return False
        return self.propagation == "strong" or grid.size >= STRONG_FROM_SIZE

    def _solve(self, grid: Grid, *, mode: Mode, limit: int, deadline: Deadline) -> Outcome:
        search = _Search(grid, deadline, strong=self.is_strong(grid, mode))
        stats: dict[str, object] = {
            "nodes": 0,
            "oracle_calls": 0,
            "dives": 0,
            "backtracks": 0,
            "propagation": "strong" if search.strong else "singles",
        }
        count = 0
        values: tuple[int, ...] | None = None
        status = Status.SOLVED
        try:
            candidates = search.initial_candidates()
            if candidates is None:
                status = Status.UNSATISFIABLE
            elif mode is Mode.LEXMIN:
                solution = search.lexmin(candidates)
                values = None if solution is None else _values(solution)
            elif mode is Mode.ANY:
                solution = search.first_completion(candidates)
                values = None if solution is None else _values(solution)
            else:
                for solution in search.completions(candidates):
                    if values is None:
                        values = _values(solution)
                    count += 1
                    if count >= limit:
                        break
            if status is Status.SOLVED and values is None:
                status = Status.UNSATISFIABLE
        except _OutOfTime:
            status, values = Status.TIMEOUT, None
        stats.update(
            nodes=search.nodes,
            oracle_calls=search.oracle_calls,
            dives=search.dives,
            backtracks=search.backtracks,
        )
        reason = (
            "propagation and search found no completion" if status is Status.UNSATISFIABLE else None
        )
        if status is Status.TIMEOUT:
            reason = f"no answer within {deadline.time_limit:g} s"
        return Outcome(status, values, count if mode is Mode.COUNT else None, stats, reason)
