"""The rules of the strong level beyond singles: locked candidates and all-different consistency.

- `locked_candidates` (pointing and claiming): a value whose places in a box all lie on one line
  leaves the rest of that line, and one whose places on a line all lie in one box leaves the
  rest of that box.
- `all_different`: arc consistency on each unit's all-different by Régin's matching rule
  (`consistent`): a value stays in a cell only if some assignment of the unit's missing values
  to its open cells, one each, gives it there. It finds every naked and hidden pair, triple, ...
  at once. Its answers are memoised by the unit's masks (`UnitMemo`).
- `hall_holds`: whether each of some units still has a perfect matching at all (Hall's
  condition), the pigeonhole check the row-major search makes on each child.

Each rule only removes values that occur in no completion. They run on `Candidates` in place;
`Propagation` (propagation.py) applies them with singles to a fixpoint.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import reduce
from operator import or_

from .tables import Candidates, Tables

MATCHING_FROM_SIZE = 25  # all-different consistency from this size on (it costs more below)
MATCHING_MEMO_LIMIT = 200_000  # unit states remembered by one search before the memo restarts

UnitMemo = dict[tuple[int, ...], tuple[int, ...]]  # a unit's masks -> `consistent` of them


def locked_candidates(tables: Tables, candidates: Candidates, decided: list[int]) -> int:
    """Pointing and claiming, in place. Cells left with one value go to `decided`; returns the
    units whose candidates changed (a bitset of unit indices), or -1 on a contradiction.

    Each segment (box ∩ line) is ORed once; a value is in another segment of its line (box)
    exactly when it is in two or more segments of that line (box).
    """
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


def all_different(
    tables: Tables, memo: UnitMemo, candidates: Candidates, decided: list[int]
) -> int:
    """Arc consistency on each unit's all-different (`consistent`), in place. Returns the changed
    units as a bitset, or -1 on a contradiction; stops after the first unit that decides a cell
    (singles go first).

    A unit's answer depends only on its masks, and sibling nodes share most units: the answers
    are kept in `memo`, cleared when it passes MATCHING_MEMO_LIMIT entries.
    """
    if len(memo) > MATCHING_MEMO_LIMIT:
        memo.clear()
    dirty = 0
    for unit, unit_masks in zip(tables.units, tables.unit_masks, strict=True):
        masks = unit_masks(candidates)
        narrowed = memo.get(masks)
        if narrowed is None:
            narrowed = memo[masks] = consistent(masks)
        if narrowed is masks:
            continue
        if not narrowed:
            return -1
        dirty |= replace(tables, candidates, unit, narrowed, decided)
        if decided:
            return dirty
    return dirty


def replace(
    tables: Tables,
    candidates: Candidates,
    cells: Sequence[int],
    masks: Sequence[int],
    decided: list[int],
) -> int:
    """Give `cells` these (narrower) masks in place; cells left with one value go to `decided`.
    Returns the units whose candidates changed, as a bitset."""
    unit_set_of = tables.unit_set_of
    dirty = 0
    for cell, new in zip(cells, masks, strict=True):
        if candidates[cell] != new:
            candidates[cell] = new
            dirty |= unit_set_of[cell]
            if not new & (new - 1):
                decided.append(cell)
    return dirty


def consistent(masks: tuple[int, ...]) -> tuple[int, ...]:
    """A unit's masks less every value that no perfect matching of its open cells to its missing
    values gives that cell; the same tuple when nothing goes, () when there is no such matching.

    Régin's rule: take one perfect matching; value v of cell i (not i's own match) is in some
    perfect matching iff the cell j matched to v can reach i along "j holds the match of k"
    edges (an alternating cycle through i and v). With every missing value matched (a unit has
    as many open cells as missing values), no free value can start an alternating path.
    """
    places = [index for index, mask in enumerate(masks) if mask & (mask - 1)]
    count = len(places)
    open_masks = [masks[index] for index in places]
    if count < 3 or min(map(int.bit_count, open_masks)) == count:
        return masks  # every open cell can take every missing value: nothing to remove
    matching = perfect_matching(open_masks)
    if matching is None:
        return ()
    owner, matched = matching
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
    if reachable(edges, 0) | 1 == every and reachable(back, 0) | 1 == every:
        # One strongly connected component: every value lies on a cycle. This is the common
        # case, settled with two searches instead of one per cell.
        return masks
    reach = [reachable(edges, index) for index in range(count)]
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


def perfect_matching(open_masks: list[int]) -> tuple[dict[int, int], list[int]] | None:
    """A perfect matching of open cells to values: (value bit -> cell index, each cell's value
    bit), or None when there is none."""
    owner: dict[int, int] = {}  # value bit -> index of the open cell it is matched to
    matched = [0] * len(open_masks)
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
        if not augment(index, open_masks, owner, [0]):
            return None
    if unmatched:  # augmenting paths moved some matches
        for bit, index in owner.items():
            matched[index] = bit
    return owner, matched


def augment(index: int, open_masks: list[int], owner: dict[int, int], seen: list[int]) -> bool:
    """Find a value for open cell `index`, moving earlier cells along an augmenting path."""
    untried = open_masks[index] & ~seen[0]
    while untried:
        bit = untried & -untried
        untried ^= bit
        seen[0] |= bit
        holder = owner.get(bit)
        if holder is None or augment(holder, open_masks, owner, seen):
            owner[bit] = index
            return True
    return False


def reachable(edges: list[int], start: int) -> int:
    """The nodes reachable from `start` in one or more steps (edges as bitsets), as a bitset."""
    seen = frontier = edges[start]
    while frontier:
        low = frontier & -frontier
        frontier ^= low
        new = edges[low.bit_length() - 1] & ~seen
        seen |= new
        frontier |= new
    return seen


def hall_holds(candidates: Candidates, units: tuple[tuple[int, ...], ...]) -> bool:
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
            if not augment(index, open_masks, owner, [0]):
                return False
    return True
