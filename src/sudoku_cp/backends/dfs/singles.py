"""Naked and hidden singles, the propagation every `dfs` node gets, in two loops.

A naked single is a decided cell: its value leaves its peers. A hidden single is a value with one
place left in a unit: it goes there. Both only remove values that occur in no completion, so
they never change which completions exist.

- `singles` scans: it rescans the units whose candidates changed (a bitset of unit indices) for
  hidden singles. It is what `Propagation.propagate` runs at every node of the row-major search.
- `settle` is bit-parallel: beside the candidates it keeps `places` (per value, the bitset of
  the cells that hold it), so a decided cell removes its value from `places[v] & peers` in one
  operation, and only the units of the cells that lost v are checked, for v alone. The MRV
  search and the look-ahead's probes propagate with it. At every node with a completion both
  reach the same fixpoint; `settle` also refutes a cell that is the only place of two values,
  which `singles` leaves to the search.
"""

from __future__ import annotations

from .tables import Candidates, Settled, Tables


def singles(tables: Tables, candidates: Candidates, decided: list[int], dirty: int) -> bool:
    """Apply naked and hidden singles in place until fixpoint; False on a contradiction.

    `decided` lists cells that became single-valued and whose value must still be removed from
    their peers (cells decided here are added); `dirty` the units whose candidates changed
    otherwise, a bitset of unit indices. Only those units, and the units of decided cells, are
    scanned for hidden singles: the others cannot have gained one. The dirty units are an int,
    not a set: ORing three bits per changed cell is the innermost operation of the whole
    backend, and an int does it far cheaper than `set.update`.
    """
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
            # Cell by cell: an itemgetter's tuple costs more here than the indexing.
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
                    # An open cell whose values are all hidden here (two values, one place) is
                    # not refuted: setting it to either value refutes it at once, and checking
                    # for it on every decided cell costs more than it saves. settle() refutes it.
                    if only and only != mask:
                        if only & (only - 1):
                            return False  # two values need this one cell
                        candidates[cell] = only
                        decided.append(cell)
        if not decided:
            return True


def settle(
    tables: Tables, candidates: Candidates, places: list[int], removals: list[tuple[int, int]]
) -> Settled | None:
    """Copies of `candidates` and `places` with the (cell, bits) `removals` made and naked and
    hidden singles applied to fixpoint, or None on a contradiction.

    A decided cell removes its value v from the peers in `places[v] & peers`; a hidden single is
    one more removal (the cell's other values), made by the same loop as the given ones.
    """
    peer_bits, unit_set_of = tables.peer_bits, tables.unit_set_of
    child = candidates[:]
    spots = places[:]
    checks: list[tuple[int, int]] = []  # (value index, bitset of units to check for it)
    decided: list[int] = []
    pending: list[tuple[int, int]] | None = list(removals)  # (cell, values to remove from it)
    while pending:
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
        pending = hidden_singles(tables.unit_bits, child, spots, checks)
        if pending is None:
            return None
    return child, spots


def hidden_singles(
    unit_bits: tuple[int, ...], child: Candidates, spots: list[int], checks: list[tuple[int, int]]
) -> list[tuple[int, int]] | None:
    """Check each (value, units) of `checks` (emptied): the removals that set the hidden singles
    found (each open cell that is a value's one place in a unit loses its other values), or
    None when a value has no place left in a unit."""
    pending = []
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
    return pending
