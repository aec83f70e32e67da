"""A step of an explanation, the techniques a step may use (easiest first, each with its
level), and a puzzle's rating: the level of the hardest technique its explanation needs."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import ArgumentError
from ..grid import value_symbol
from .board import Candidate, candidate_name, cell_name

# technique -> level, easiest first; an explanation always applies the first that makes progress
TECHNIQUES: dict[str, int] = {
    "hidden single": 1,
    "naked single": 1,
    "pointing": 2,
    "claiming": 2,
    "naked pair": 3,
    "hidden pair": 3,
    "naked triple": 4,
    "hidden triple": 4,
    "naked quad": 5,
    "hidden quad": 5,
    "x-wing": 6,
    "swordfish": 7,
    "jellyfish": 8,
    "xy-wing": 9,
    "xyz-wing": 10,
}
CONTRADICTION = "contradiction"
CONTRADICTION_LEVEL = max(TECHNIQUES.values()) + 1  # the top level: needs proof by contradiction
SUBSETS_LEVEL = TECHNIQUES["naked quad"]
# names a user may give for a group of techniques
GROUPS: dict[str, tuple[str, ...]] = {
    "singles": ("hidden single", "naked single"),
    "locked candidates": ("pointing", "claiming"),
    "pairs": ("naked pair", "hidden pair"),
    "triples": ("naked triple", "hidden triple"),
    "quads": ("naked quad", "hidden quad"),
    "fish": ("x-wing", "swordfish", "jellyfish"),
    "wings": ("xy-wing", "xyz-wing"),
}


def parse_techniques(text: str) -> tuple[str, ...]:
    """The techniques a comma-separated list names (techniques or groups, any case), in the
    order of difficulty.

    Raises:
        ArgumentError: for a name that is neither a technique nor a group, listing the names.
    """
    known_names: dict[str, tuple[str, ...]] = {_key(name): (name,) for name in TECHNIQUES}
    known_names.update({_key(name): group for name, group in GROUPS.items()})
    chosen: set[str] = set()
    for item in text.split(","):
        if _key(item) in known_names:
            chosen.update(known_names[_key(item)])
        else:
            known = ", ".join([*TECHNIQUES, *GROUPS])
            raise ArgumentError(f"unknown technique {item.strip()!r} (choose from {known})")
    return tuple(name for name in TECHNIQUES if name in chosen)


def _key(name: str) -> str:
    """A name compared without case, and with '-', '_' and spaces alike."""
    return "".join(name.lower().replace("-", " ").replace("_", " ").split())


@dataclass(frozen=True)
class Step:
    """One deduction: the technique, what it places and eliminates, and what it reasons from
    (cells, the values it reasons on, the units it looks at). A contradiction step also holds the
    steps that follow from its assumption (`chain`), ending in `contradiction`."""

    technique: str
    placements: tuple[Candidate, ...] = ()
    eliminations: tuple[Candidate, ...] = ()
    cells: tuple[int, ...] = ()
    values: tuple[int, ...] = ()
    units: tuple[str, ...] = ()
    chain: tuple[Step, ...] = ()
    contradiction: str | None = None

    @property
    def level(self) -> int:
        return TECHNIQUES.get(self.technique, CONTRADICTION_LEVEL)

    def describe(self, size: int) -> str:
        """'naked pair {3,7} in r1c2 r1c5 (row 1): r1c4<>3, r1c4<>7'."""
        if self.technique == CONTRADICTION:
            (cell, value), *_ = self.eliminations
            return (
                f"contradiction: {candidate_name(cell, value, size)} leads to a contradiction in "
                f"{len(self.chain)} steps ({self.contradiction}), so {cell_name(cell, size)}"
                f"<>{value_symbol(value)}"
            )
        reasons = []
        if self.values:
            reasons.append("{" + ",".join(value_symbol(v) for v in self.values) + "}")
        if self.cells:
            reasons.append("in " + " ".join(cell_name(cell, size) for cell in self.cells))
        if self.units:
            reasons.append("(" + ", ".join(self.units) + ")")
        results = [candidate_name(cell, value, size) for cell, value in self.placements]
        results += [
            f"{cell_name(cell, size)}<>{value_symbol(value)}" for cell, value in self.eliminations
        ]
        return f"{self.technique} {' '.join(reasons)}: {', '.join(results)}"

    def to_dict(self, size: int) -> dict[str, Any]:
        """The step in the jsonl schema: rows, columns and values 1-based."""
        data: dict[str, Any] = {
            "technique": self.technique,
            "placements": [[*_row_column(cell, size), value] for cell, value in self.placements],
            "eliminations": [
                [*_row_column(cell, size), value] for cell, value in self.eliminations
            ],
            "from": [list(_row_column(cell, size)) for cell in self.cells],
            "values": list(self.values),
            "units": list(self.units),
        }
        if self.technique == CONTRADICTION:
            data["chain"] = [step.to_dict(size) for step in self.chain]
            data["contradiction"] = self.contradiction
        return data


def _row_column(cell: int, size: int) -> tuple[int, int]:
    row, column = divmod(cell, size)
    return row + 1, column + 1


@dataclass(frozen=True)
class Rating:
    """How hard a puzzle is: the level and name of the hardest technique it needs
    (`CONTRADICTION_LEVEL` when the techniques alone get stuck)."""

    level: int
    technique: str

    def to_dict(self) -> dict[str, Any]:
        return {"level": self.level, "technique": self.technique}


@dataclass
class Explanation:
    """The steps from a puzzle to where the techniques end: solved, stuck or unsatisfiable
    (`contradiction` then says what shows it)."""

    status: str
    steps: list[Step] = field(default_factory=list)
    contradiction: str | None = None

    @property
    def rating(self) -> Rating:
        if self.status == "stuck":
            return Rating(CONTRADICTION_LEVEL, CONTRADICTION)
        hardest = max(self.steps, key=lambda step: step.level, default=None)
        if hardest is None:
            return Rating(1, "none")
        return Rating(hardest.level, hardest.technique)


__all__ = [
    "CONTRADICTION",
    "CONTRADICTION_LEVEL",
    "GROUPS",
    "SUBSETS_LEVEL",
    "TECHNIQUES",
    "Explanation",
    "Rating",
    "Step",
    "parse_techniques",
]
