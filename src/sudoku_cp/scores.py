"""The scores that solver competitions rank by, per set (and mode) and configuration (pure:
returns data). Every score reads a puzzle's outcome as the bench statistics do: the worst status
of its repeats and the median of their wall-clock times.

- `solved`: answered (a verified completion, or an uncontradicted "unsatisfiable") within the
  time limit: an answer that came after the limit does not count.
- `par2`: the mean over the set's puzzles of the time when solved, else twice the time limit
  (the SAT competition's penalised average runtime); none without a limit.
- `borda`: the MiniZinc Challenge's complete scoring for satisfaction problems: for each puzzle
  and each pair of configurations (s, t), s scores 1 when it solved and t did not, t's time over
  the sum of both times when both solved, 0 otherwise; a configuration's score is its sum.
- `wrong` and `excluded`: a configuration with a wrong answer on a set is left out of that set's
  ranking, its Borda pairs and its virtual best (as the XCSP3 competition disqualifies a solver
  that gave one), and marked.
- the virtual best solver (`VirtualBest`): per puzzle, the best time among the configurations
  not excluded; and each configuration's `unique` solves, the puzzles no other one solved.
  A portfolio's row (its runs' stats name its `members`) is followed by the virtual best of its
  members when they all ran too, not excluded: `VBS(dfs+sat+cpsat)`.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

from .bench_statistics import GroupKey, PuzzleOutcome, SummaryRow, percentile, puzzle_outcomes
from .bench_statistics import summarize as summarize_times
from .result import RunStatus
from .results_log.reader import RunRow

SCORES_VERSION = 1  # the layout of `Scores.to_json` (docs/reference/scores.md)


@dataclass(frozen=True)
class ConfigurationScore:
    """One configuration's scores on one set in one mode."""

    set: str
    mode: str
    backend: str
    puzzles: int
    solved: int
    timeouts: int
    wrong: int
    errors: int
    par2: float | None  # seconds; None without a time limit
    borda: float | None  # None when excluded
    unique: int  # puzzles only this configuration solved (among those not excluded)
    excluded: bool  # a wrong answer on this set: out of its ranking and its virtual best


@dataclass(frozen=True)
class VirtualBest:
    """The virtual best solver of one set in one mode: per puzzle, the best of the
    configurations not excluded."""

    set: str
    mode: str
    puzzles: int
    solved: int
    par2: float | None
    members: tuple[str, ...]


@dataclass(frozen=True)
class Scores:
    """Every configuration's scores and each set's virtual best, with the time limit they used."""

    time_limit: float | None
    configurations: tuple[ConfigurationScore, ...]
    virtual_best: tuple[VirtualBest, ...]

    def ranking(self, set_name: str, mode: str) -> list[ConfigurationScore]:
        """A set's configurations best first: most solved, then lowest PAR-2 (then highest
        Borda); the excluded ones last, in their order."""
        scores = [row for row in self.configurations if (row.set, row.mode) == (set_name, mode)]
        ranked = sorted(
            (row for row in scores if not row.excluded),
            key=lambda row: (-row.solved, row.par2 or 0.0, -(row.borda or 0.0)),
        )
        return ranked + [row for row in scores if row.excluded]

    def to_json(self) -> dict[str, Any]:
        """The scores as `report -o scores.json` writes them (docs/reference/scores.md)."""
        return {
            "format": "sudoku-cp scores",
            "version": SCORES_VERSION,
            "time": "wall-clock seconds, the median of a puzzle's timed repeats",
            "time_limit": self.time_limit,
            "configurations": [asdict(row) for row in self.configurations],
            "virtual_best": [
                {**asdict(row), "members": list(row.members)} for row in self.virtual_best
            ],
        }


def score(
    outcomes: Mapping[GroupKey, Mapping[int, PuzzleOutcome]], *, time_limit: float | None
) -> Scores:
    """The scores of every (set, mode) group of `outcomes` (`bench_statistics.puzzle_outcomes`),
    configurations in their order of appearance."""
    groups: dict[tuple[str, str], dict[str, Mapping[int, PuzzleOutcome]]] = {}
    for (set_name, mode, backend), puzzles in outcomes.items():
        groups.setdefault((set_name, mode), {})[backend] = puzzles
    rows: list[ConfigurationScore] = []
    best: list[VirtualBest] = []
    for (set_name, mode), members in groups.items():
        group_rows, virtual = _score_group(set_name, mode, members, time_limit)
        rows += group_rows
        best.append(virtual)
    return Scores(time_limit, tuple(rows), tuple(best))


def _score_group(
    set_name: str,
    mode: str,
    members: Mapping[str, Mapping[int, PuzzleOutcome]],
    time_limit: float | None,
) -> tuple[list[ConfigurationScore], VirtualBest]:
    numbers = sorted({number for puzzles in members.values() for number in puzzles})
    excluded = {
        backend
        for backend, puzzles in members.items()
        if any(outcome.status is RunStatus.WRONG for outcome in puzzles.values())
    }
    ranked = [backend for backend in members if backend not in excluded]
    times = {  # backend -> puzzle -> its time, for the puzzles it solved within the limit
        backend: {
            number: outcome.seconds
            for number, outcome in puzzles.items()
            if outcome.solved_within(time_limit) and outcome.seconds is not None
        }
        for backend, puzzles in members.items()
    }
    rows = []
    for backend, puzzles in members.items():
        statuses = [outcome.status for outcome in puzzles.values()]
        others = [other for other in ranked if other != backend]
        unique = sum(1 for number in times[backend] if not any(number in times[o] for o in others))
        rows.append(
            ConfigurationScore(
                set=set_name,
                mode=mode,
                backend=backend,
                puzzles=len(puzzles),
                solved=len(times[backend]),
                timeouts=statuses.count(RunStatus.TIMEOUT),
                wrong=statuses.count(RunStatus.WRONG),
                errors=statuses.count(RunStatus.ERROR),
                par2=_par2(times[backend], numbers, time_limit),
                borda=None if backend in excluded else _borda(backend, ranked, times, numbers),
                unique=unique if backend not in excluded else 0,
                excluded=backend in excluded,
            )
        )
    fastest = {
        number: min(times[backend][number] for backend in ranked if number in times[backend])
        for number in numbers
        if any(number in times[backend] for backend in ranked)
    }
    virtual = VirtualBest(
        set_name,
        mode,
        len(numbers),
        len(fastest),
        _par2(fastest, numbers, time_limit),
        tuple(ranked),
    )
    return rows, virtual


VIRTUAL_BEST = "VBS"  # the label of the virtual best solver's row


def members_label(members: str) -> str:
    """The label of the virtual best of a portfolio's members: 'VBS(dfs+sat+cpsat)'."""
    return f"{VIRTUAL_BEST}({members})"


def is_virtual(label: str) -> bool:
    """Whether a summary row is a virtual best (of a set, or of a portfolio's members)."""
    return label == VIRTUAL_BEST or (label.startswith(f"{VIRTUAL_BEST}(") and label[-1] == ")")


def _portfolios(rows: Iterable[RunRow]) -> dict[GroupKey, tuple[str, ...]]:
    """The portfolio configurations of `rows`, by (set, mode, label): their members, as their
    runs' stats name them."""
    found: dict[GroupKey, tuple[str, ...]] = {}
    for row in rows:
        members = row.run.stats.get("members")
        if isinstance(members, str) and (row.set, row.mode, row.backend) not in found:
            found[row.set, row.mode, row.backend] = tuple(members.split("+"))
    return found


def scored_summary(
    rows: Iterable[RunRow],
    *,
    time_limit: float | None,
    baseline: str | None,
    intervals: bool = False,
) -> list[SummaryRow]:
    """The bench summary (`bench_statistics.summarize`) with the scores: each configuration's
    Borda score, unique solves and exclusion, and after each set's configurations its virtual
    best solver's row (label `VBS`: solved, PAR-2 and the times of the fastest answers), and
    after a portfolio's row the virtual best of its members (`members_label`)."""
    rows = list(rows)
    outcomes = puzzle_outcomes(rows)
    summary = summarize_times(
        rows, time_limit=time_limit, baseline=baseline, intervals=intervals, outcomes=outcomes
    )
    scores = score(outcomes, time_limit=time_limit)
    by_key = {(row.set, row.mode, row.backend): row for row in scores.configurations}
    best = {(row.set, row.mode): row for row in scores.virtual_best}
    portfolios = _portfolios(rows)
    scored: list[SummaryRow] = []
    for number, row in enumerate(summary):
        found = by_key[row.set, row.mode, row.backend]
        scored.append(replace(row, borda=found.borda, unique=found.unique, excluded=found.excluded))
        members = portfolios.get((row.set, row.mode, row.backend), ())
        group = best[row.set, row.mode]
        if members and all(member in group.members for member in members):
            scored.append(
                _virtual_row(
                    _best_of(group, members, outcomes, time_limit),
                    outcomes,
                    time_limit,
                    label=members_label("+".join(members)),
                )
            )
        following = summary[number + 1] if number + 1 < len(summary) else None
        if following is None or (following.set, following.mode) != (row.set, row.mode):
            scored.append(_virtual_row(best[row.set, row.mode], outcomes, time_limit))
    return scored


def _best_of(
    group: VirtualBest,
    members: Sequence[str],
    outcomes: Mapping[GroupKey, Mapping[int, PuzzleOutcome]],
    time_limit: float | None,
) -> VirtualBest:
    """The virtual best of some of a set's configurations (a portfolio's members)."""
    fastest: dict[int, float] = {}
    for member in members:
        for number, outcome in outcomes[group.set, group.mode, member].items():
            if outcome.solved_within(time_limit) and outcome.seconds is not None:
                fastest[number] = min(fastest.get(number, outcome.seconds), outcome.seconds)
    numbers = sorted({n for member in members for n in outcomes[group.set, group.mode, member]})
    return replace(
        group,
        puzzles=len(numbers),
        solved=len(fastest),
        par2=_par2(fastest, numbers, time_limit),
        members=tuple(members),
    )


def _virtual_row(
    best: VirtualBest,
    outcomes: Mapping[GroupKey, Mapping[int, PuzzleOutcome]],
    time_limit: float | None,
    *,
    label: str = VIRTUAL_BEST,
) -> SummaryRow:
    """The virtual best solver as a row of the summary: per puzzle the fastest answer within
    the limit among its members."""
    fastest: dict[int, float] = {}
    for member in best.members:
        for number, outcome in outcomes[best.set, best.mode, member].items():
            if outcome.solved_within(time_limit) and outcome.seconds is not None:
                fastest[number] = min(fastest.get(number, outcome.seconds), outcome.seconds)
    times = list(fastest.values())
    return SummaryRow(
        set=best.set,
        mode=best.mode,
        backend=label,
        puzzles=best.puzzles,
        solved=best.solved,
        timeouts=best.puzzles - best.solved,  # the puzzles no member solved
        wrong=0,
        errors=0,
        par2=best.par2,
        mean=statistics.fmean(times) if times else None,
        median=statistics.median(times) if times else None,
        p90=percentile(times, 90) if times else None,
        p99=percentile(times, 99) if times else None,
        max=max(times) if times else None,
        ratio=None,
        ratio_puzzles=0,
    )


def _par2(
    times: Mapping[int, float], numbers: Sequence[int], time_limit: float | None
) -> float | None:
    if time_limit is None or not numbers:
        return None
    return statistics.fmean(times.get(number, 2 * time_limit) for number in numbers)


def _borda(
    backend: str,
    ranked: Sequence[str],
    times: Mapping[str, Mapping[int, float]],
    numbers: Sequence[int],
) -> float:
    """MiniZinc's complete scoring, satisfaction: the sum over puzzles and opponents."""
    mine = times[backend]
    total = 0.0
    for other in ranked:
        if other == backend:
            continue
        theirs = times[other]
        for number in numbers:
            if number not in mine:
                continue
            if number not in theirs:
                total += 1.0
            else:
                both = mine[number] + theirs[number]
                total += 0.5 if both <= 0 else theirs[number] / both
    return total


__all__ = [
    "SCORES_VERSION",
    "ConfigurationScore",
    "Scores",
    "VirtualBest",
    "is_virtual",
    "members_label",
    "score",
    "scored_summary",
]
