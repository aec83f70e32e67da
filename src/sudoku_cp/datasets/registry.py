"""The registry of public puzzle sets: each pinned to one upstream file (repository, commit,
path, sha256) and to the sha256 of our normalised file, and how the upstream bytes become it."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote

from ..errors import DataSetError
from ..grid import SYMBOLS
from ..text import excerpt

GITHUB_RAW = "https://raw.githubusercontent.com"


@dataclass(frozen=True)
class Normalisation:
    """How the upstream bytes become our file.

    Always: `\\r\\n` or `\\n` line ends, blank lines dropped, `.` becomes `0`, every kept line
    checked to be one puzzle of the set's size. Then, per set: `comments` drops lines that start
    with `#`; `header` is the exact first line, checked and dropped; `csv_column` keeps that
    comma-separated column (the puzzle, when the file also holds solutions).
    """

    comments: bool = False
    header: str | None = None
    csv_column: int | None = None

    def describe(self) -> str:
        """One line for `sudoku-cp data list`: what is done to the upstream bytes."""
        steps = []
        if self.header is not None:
            steps.append(f"skip header {self.header!r}")
        if self.comments:
            steps.append("drop '#' lines")
        if self.csv_column is not None:
            steps.append(f"keep CSV column {self.csv_column}")
        steps.append("'.' -> '0'")
        return ", ".join(steps)


@dataclass(frozen=True)
class DataSet:
    """One public puzzle set: what it is, and the upstream file and hashes it is pinned to."""

    name: str
    file: str  # our normalised file's name (its stem names the set in bench tables)
    puzzles: int
    size: int  # N of the N x N grids
    bytes: int  # size of the normalised file
    sha256: str  # of the normalised file
    known_for: str
    licence: str  # as stated by the source repository
    repo: str  # upstream: owner/name on GitHub
    commit: str
    path: str  # inside the repository
    upstream_bytes: int
    upstream_sha256: str
    normalisation: Normalisation

    @property
    def url(self) -> str:
        """The pinned raw URL of the upstream file (a `+` in the path is written %2B)."""
        return f"{GITHUB_RAW}/{self.repo}/{self.commit}/{quote(self.path)}"

    @property
    def source(self) -> str:
        return f"{self.repo} {self.path} @{self.commit[:7]}"

    @property
    def grid(self) -> str:
        return f"{self.size}x{self.size}"

    def mirror_url(self, base_url: str) -> str:
        """The upstream file on a mirror that keeps GitHub's paths: BASE/OWNER/REPO/COMMIT/PATH."""
        return base_url.rstrip("/") + self.url[len(GITHUB_RAW) :]


# -- the registry: each set pinned to its upstream file (commit, path, sha256) --------------------

PYTUDES = "414fe258a4181c2a819959d9a29bfcbe4c4b19c7"  # norvig/pytudes
KYLEGOUGH = "cd15960a534a5e780324efd2762a766f5c6a37b6"  # KyleGough/sudoku
BALMERDX = "9c4391b1ea32bb7a9587f668fa51f35473e68e24"  # balmerdx/sudoku_pytorch
GOOMII17 = "2edfbc413c51c501ff76e20de842b574a3017ade"  # goomii17/16X16-Sudoku-Dataset


_SETS: tuple[DataSet, ...] = (
    DataSet(
        name="easy50",
        file="easy50.txt",
        puzzles=50,
        size=9,
        bytes=4100,
        sha256="42e6745e6dad9c8a35e73254b9e3b5fcfb203995a72f87f5df6cf598f1c47d05",
        known_for="Norvig's 'easy' set (essay 'Solving Every Sudoku Puzzle'); Project Euler 96",
        licence="MIT",
        repo="norvig/pytudes",
        commit=PYTUDES,
        path="py/sudoku-easy50.txt",
        upstream_bytes=4100,
        upstream_sha256="42e6745e6dad9c8a35e73254b9e3b5fcfb203995a72f87f5df6cf598f1c47d05",
        normalisation=Normalisation(),
    ),
    DataSet(
        name="kaggle_1000",
        file="kaggle_1000.txt",
        puzzles=1000,
        size=9,
        bytes=82000,
        sha256="e3562670473be8db18985c527e678741ece44e980597fe6080a9c5e5822d1da4",
        known_for="first 1000 of Kaggle's '1 million Sudoku games'; trivial, many redundant clues",
        licence="none stated",
        repo="KyleGough/sudoku",
        commit=KYLEGOUGH,
        path="datasets/1000.csv",
        upstream_bytes=164000,
        upstream_sha256="1b8c4e140370f60ee389abbb6f8bfc441ade2d1c8215e3c7b93bfa3fb31b3c64",
        normalisation=Normalisation(csv_column=0),
    ),
    DataSet(
        name="top95",
        file="top95.txt",
        puzzles=95,
        size=9,
        bytes=7790,
        sha256="2f0dba64ec5d250bb6239189dcc134b099281619ab8ee1c1620bfeeb9f362367",
        known_for="magictour top95 (G. Stertenbrink); Norvig's 'hard' set",
        licence="MIT",
        repo="norvig/pytudes",
        commit=PYTUDES,
        path="py/sudoku-top95.txt",
        upstream_bytes=7790,
        upstream_sha256="b16eff35fbe41fb7b122f21c5c6ba30b85861b47946d33257070df1a69cddd36",
        normalisation=Normalisation(),
    ),
    DataSet(
        name="hardest",
        file="hardest.txt",
        puzzles=11,
        size=9,
        bytes=902,
        sha256="81d040bf4531135725efbb9066373af7aa2119808c91ca02b3b4607d17e4c6e2",
        known_for="Norvig's 'hardest' list; line 6 is AI Escargot",
        licence="MIT",
        repo="norvig/pytudes",
        commit=PYTUDES,
        path="py/sudoku-hardest.txt",
        upstream_bytes=902,
        upstream_sha256="398e1e5df4f50723078e3b510e00ea7eb9e104c521a9a186b4c20cd066c0459f",
        normalisation=Normalisation(),
    ),
    DataSet(
        name="top1465",
        file="top1465.txt",
        puzzles=1465,
        size=9,
        bytes=120130,
        sha256="703c865fc81344b8d5c306a9fbee00ea900aa98257c235b3d57c7ecea208cc95",
        known_for="magictour top1465, the classic benchmark (tdoku: moderately hard)",
        licence="none stated (tdoku: BSD-2-Clause)",
        repo="balmerdx/sudoku_pytorch",
        commit=BALMERDX,
        path="data/puzzles3_magictour_top1465",
        upstream_bytes=120176,
        upstream_sha256="ca0369f516dac7dfdd987d2c310ac33dcfc7478db5171bea5bca1f3878758bce",
        normalisation=Normalisation(comments=True),
    ),
    DataSet(
        name="forum_hardest_1106",
        file="forum_hardest_1106.txt",
        puzzles=375,
        size=9,
        bytes=30750,
        sha256="c96802f067c985f66b07b326b26a8a7cd8664d750b57a4dee74b3c37b538566e",
        known_for="Enjoy Sudoku forum hardest list 2011; tdoku's hardest for backtracking",
        licence="none stated (pytudes copy: MIT)",
        repo="balmerdx/sudoku_pytorch",
        commit=BALMERDX,
        path="data/puzzles6_forum_hardest_1106",
        upstream_bytes=30863,
        upstream_sha256="45d0afc5892d6797621d7c00f518df8f1483eceb921416984b8687e16128eb06",
        normalisation=Normalisation(comments=True),
    ),
    DataSet(
        name="forum_hardest_1905_11plus",
        file="forum_hardest_1905_11plus.txt",
        puzzles=48766,
        size=9,
        bytes=3998812,
        sha256="639e4340a3294efdc4f1cd4ddf076b1a52883c0a415a9cfa8e70c30d17101a6f",
        known_for="forum potential-hardest list ph_1905, SE rating above 11 (tdoku)",
        licence="none stated (tdoku data)",
        repo="balmerdx/sudoku_pytorch",
        commit=BALMERDX,
        path="data/puzzles5_forum_hardest_1905_11+",
        upstream_bytes=3998812,
        upstream_sha256="56236eaf6c7445ea244db3423ec44a102349dbedf6e457af0fcdd3d07cf39996",
        normalisation=Normalisation(),
    ),
    DataSet(
        name="17clue",
        file="17clue.txt",
        puzzles=49158,
        size=9,
        bytes=4030956,
        sha256="e80c7038375bdcfef6f63e54f061e9af155175a65069d40aa6ca145605af2e6b",
        known_for="all 49158 17-clue Sudoku (Royle, completed); pathological for naive DFS",
        licence="none stated (tdoku data)",
        repo="balmerdx/sudoku_pytorch",
        commit=BALMERDX,
        path="data/puzzles2_17_clue",
        upstream_bytes=4080411,
        upstream_sha256="2cf268735dfd40d32269b5f20ebbea067037e5976b4d016ce0b4d3c0a50deb30",
        normalisation=Normalisation(comments=True),
    ),
    DataSet(
        name="serg_benchmark",
        file="serg_benchmark.txt",
        puzzles=10000,
        size=9,
        bytes=820000,
        sha256="50b5467190aceb2eb9a7c8436301b97ca9f5a5dfc169ba0e9bb779e79e123fc6",
        known_for="Serg's benchmark: every puzzle has 2+ solutions; lex-min, uniqueness",
        licence="none stated (tdoku data)",
        repo="balmerdx/sudoku_pytorch",
        commit=BALMERDX,
        path="data/puzzles7_serg_benchmark",
        upstream_bytes=830065,
        upstream_sha256="5468125857f02cb1e9b1fc6ba36ac88dc8d75afa47bc030c507cdfefbfe0eeaa",
        normalisation=Normalisation(comments=True),
    ),
    DataSet(
        name="norvig_10k",
        file="norvig_10k.txt",
        puzzles=10000,
        size=9,
        bytes=820000,
        sha256="ee0a359fd1944538f6c8c3ad94c65ea59c10d3d2f9e66bcf236f32a5bebbf685",
        known_for="the 10,000 puzzles timed in Norvig's Sudoku.ipynb; mostly 17 clues",
        licence="MIT",
        repo="norvig/pytudes",
        commit=PYTUDES,
        path="ipynb/sudoku10k.txt",
        upstream_bytes=820000,
        upstream_sha256="0671d27b20b3a152e17dfde78ee2d8cf6d3e4434e1dcc3b477cfea04dad5624e",
        normalisation=Normalisation(),
    ),
    DataSet(
        name="16x16_3000",
        file="16x16_3000.txt",
        puzzles=3000,
        size=16,
        bytes=771000,
        sha256="8d7dfda9d78fe44afda50a653cc5787af1acff37f179231168eedd5a57933767",
        known_for="3000 16x16 hexasudokus (2020); MenxLi/sudoku.cpp benchmarks on it",
        licence="none stated",
        repo="goomii17/16X16-Sudoku-Dataset",
        commit=GOOMII17,
        path="16x16Dataset.csv",
        upstream_bytes=1545015,
        upstream_sha256="f9ed63891dc098a01fa4efd1cc5166e1af190f17aa458ffffff1ff1a2655d0b7",
        normalisation=Normalisation(csv_column=0, header="Sudoku,solution"),
    ),
)

REGISTRY: dict[str, DataSet] = {dataset.name: dataset for dataset in _SETS}


def names() -> list[str]:
    """The registered set names, in registry order (easy to hard, 9x9 before 16x16)."""
    return list(REGISTRY)


def get(dataset: str | DataSet) -> DataSet:
    """The registered set of that name (a DataSet is returned as is).

    Raises:
        DataSetError: for a name that is not registered; the message lists the known ones.
    """
    if isinstance(dataset, DataSet):
        return dataset
    try:
        return REGISTRY[dataset]
    except KeyError:
        raise DataSetError(
            f"{dataset}: not a known puzzle set (known: {', '.join(names())})"
        ) from None


# -- normalisation -------------------------------------------------------------------------------


def normalise(dataset: str | DataSet, raw: bytes) -> bytes:
    """Our file from the upstream bytes: one puzzle per line, `0` for blank, `\\n` ends.

    Raises:
        DataSetError: for bytes that are not ASCII, a missing header, or a line that is not one
            puzzle of the set's size after normalising (naming the set and the upstream line).
    """
    chosen = get(dataset)
    how = chosen.normalisation
    try:
        text = raw.decode("ascii")
    except UnicodeDecodeError as error:
        raise DataSetError(
            f"{chosen.name}: the upstream file is not ASCII (byte {error.start})"
        ) from None
    length = chosen.size * chosen.size
    alphabet = frozenset("0" + SYMBOLS[: chosen.size])
    header_pending = how.header is not None
    puzzles: list[str] = []
    for number, line in enumerate(text.split("\n"), start=1):
        line = line.removesuffix("\r")
        if not line.strip() or (how.comments and line.startswith("#")):
            continue
        if header_pending:
            if line != how.header:
                raise DataSetError(
                    f"{chosen.name}: upstream line {number}: expected the header "
                    f"{how.header!r}, found {excerpt(line)}"
                )
            header_pending = False
            continue
        puzzle = line
        if how.csv_column is not None:
            fields = line.split(",")
            if len(fields) <= how.csv_column:
                raise DataSetError(
                    f"{chosen.name}: upstream line {number} has no CSV column "
                    f"{how.csv_column}: {excerpt(line)}"
                )
            puzzle = fields[how.csv_column]
        puzzle = puzzle.replace(".", "0")
        if len(puzzle) != length or not alphabet.issuperset(puzzle):
            raise DataSetError(
                f"{chosen.name}: upstream line {number} is not one {chosen.grid} "
                f"puzzle ({length} of 0-{SYMBOLS[chosen.size - 1]} or .): "
                f"{excerpt(line)}"
            )
        puzzles.append(puzzle)
    if not puzzles:
        raise DataSetError(f"{chosen.name}: the upstream file holds no puzzle")
    return ("\n".join(puzzles) + "\n").encode("ascii")
