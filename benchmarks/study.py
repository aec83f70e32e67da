"""Reproduce a published study into a new folder: the SAT encoding study or the worked comparison.

    python benchmarks/study.py encodings  [--out DIR] [--sets SET ...] [--first K] [--repeat R]
                                          [--time-limit S] [--no-setup] [--resume] [--dry-run]
    python benchmarks/study.py comparison [--out DIR] [--sets SET ...] [--first K]
                                          [--time-limit S] [--no-setup] [--resume] [--dry-run]
    python benchmarks/study.py families   [--out DIR] [--sets SET ...] [--first K] [--repeat R]
                                          [--time-limit S] [--no-setup] [--resume] [--dry-run]

Each study is the `sudoku-cp bench` and `sudoku-cp report` commands that made its committed report
(docs/study/encodings.md, docs/bench/comparison.md, docs/bench/families.md), run with this
interpreter (`python -m sudoku_cp`), writing the results logs and the report into `--out`: by
default a new folder `results/<study>-<time>/`. An existing folder is refused unless `--resume`
(then each bench continues its log), and so is any folder under docs/ or data/: a reproduction never
overwrites the committed record. The commands are printed as they run; `--dry-run` only prints them.
The defaults are the published settings; `--sets` and `--first` make a small run (`--sets
data/generated/unique-4x4.txt --first 3` takes seconds).

Exit: 0 when every bench exited 0; otherwise the first non-zero exit code (1: a wrong answer or
a backend error; 2: bad usage or input). The report is written whenever the logs exist.
"""

from __future__ import annotations

import argparse
import shlex
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the sibling module outputs.py
from outputs import ROOT, RefusedPath, fresh_folder, new_folder, refuse_committed  # noqa: E402

ENCODING_CONFIGURATIONS = (
    "dfs,cpsat,sat[encoding=minimal|extended,amo=pairwise|seqcounter|"
    "ladder,solver=glucose3|cadical195]"
)
ENCODING_BASELINE = "sat[encoding=extended,amo=pairwise,solver=glucose3]"


@dataclass(frozen=True)
class Study:
    """A study's published settings."""

    name: str
    sets: tuple[str, ...]
    first: int
    time_limit: float
    repeat: int
    report: str  # the report's file name in the output folder
    backends: str = "dfs,cpsat,sat"


STUDIES = {
    "encodings": Study(
        "encodings",
        ("top95", "17clue", "data/generated/unique-16x16.txt", "data/generated/unique-25x25.txt"),
        first=200,
        time_limit=5,
        repeat=2,
        report="encodings.md",
    ),
    "comparison": Study(
        "comparison",
        ("top95", "17clue", "serg_benchmark", "data/generated/unique-16x16.txt"),
        first=1000,
        time_limit=10,
        repeat=1,
        report="comparison.md",
    ),
    # Every solver family, lex-min and any: search, CP-SAT, CDCL, exact cover, CP with global
    # all-different (and, for the comparison, its decomposition into !=), pseudo-Boolean, SMT.
    "families": Study(
        "families",
        (
            "top95",
            "serg_benchmark",
            "17clue",
            "data/generated/unique-16x16.txt",
            "data/generated/unique-25x25.txt",
        ),
        first=50,
        time_limit=10,
        repeat=2,
        report="families.md",
        backends="dfs,cpsat,sat,dlx,choco,choco[alldiff=decomposition],z3,exact",
    ),
}


def commands(args: argparse.Namespace, out: Path) -> list[list[str]]:
    """The sudoku-cp command lines of the study (without the program name), in order."""
    study = STUDIES[args.study]
    # Files given here are taken from the current folder; the commands run in the project's root.
    sets = (
        [str(Path(item).resolve()) if Path(item).is_file() else item for item in args.sets]
        if args.sets
        else list(study.sets)
    )
    common = [
        "--first",
        str(args.first or study.first),
        "--time-limit",
        f"{args.time_limit or study.time_limit:g}",
    ]
    common += ["--no-setup"] if args.no_setup else []
    common += ["--resume"] if args.resume else []
    if study.name == "encodings":
        log = out / "encodings.jsonl"
        bench = [
            "bench",
            *sets,
            "-b",
            ENCODING_CONFIGURATIONS,
            *common,
            "--repeat",
            str(args.repeat or study.repeat),
            "--baseline",
            ENCODING_BASELINE,
            "--results",
            str(log),
        ]
        return [bench, ["report", str(log), "-o", str(out / study.report)]]
    repeat = args.repeat or study.repeat
    if repeat > 1:  # timed repeats: the report gives bootstrap intervals of the medians
        common += ["--repeat", str(repeat)]
    logs = [out / f"{mode}.jsonl" for mode in ("lexmin", "any")]
    benches = [
        [
            "bench",
            *sets,
            "--backends",
            study.backends,
            "--mode",
            mode,
            *common,
            "--results",
            str(log),
        ]
        for mode, log in zip(("lexmin", "any"), logs, strict=True)
    ]
    return [*benches, ["report", *map(str, logs), "-o", str(out / study.report)]]


def output_folder(args: argparse.Namespace) -> Path:
    """The folder to write into: new (created here), or an existing one to resume.

    Raises:
        RefusedPath: for a protected folder, or an existing one without --resume.
    """
    out = Path(args.out).resolve() if args.out else fresh_folder(args.study)
    if args.dry_run:
        refuse_committed(out)
        return out
    if args.resume and out.is_dir():
        refuse_committed(out)
        return out
    return new_folder(out)


def run(args: argparse.Namespace) -> int:
    out = output_folder(args)
    exit_code = 0
    for line in commands(args, out):
        print("sudoku-cp " + shlex.join(line), file=sys.stderr, flush=True)
        if args.dry_run:
            continue
        if line[0] == "report":
            refuse_committed(Path(line[-1]))
        code = subprocess.run(
            [sys.executable, "-m", "sudoku_cp", *line], cwd=ROOT, check=False
        ).returncode
        if code and not exit_code:
            exit_code = code
        if code >= 2 and line[0] == "bench":
            print(
                f"bench exited {code}: stopping (the logs so far are in {out}; continue "
                f"with --out {out} --resume)",
                file=sys.stderr,
            )
            return code
    if not args.dry_run:
        print(f"wrote {out}", file=sys.stderr)
    return exit_code


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("study", choices=sorted(STUDIES))
    parser.add_argument(
        "--out",
        default=None,
        help="a new folder for the logs and the report (default: results/STUDY-TIME)",
    )
    parser.add_argument(
        "--sets",
        nargs="+",
        default=None,
        help="the puzzle sets or files (default: the published ones)",
    )
    parser.add_argument("--first", type=int, default=None, help="the first K puzzles of each")
    parser.add_argument(
        "--repeat", type=int, default=None, help="encodings, families: timed repeats"
    )
    parser.add_argument("--time-limit", type=float, default=None, help="seconds per puzzle")
    parser.add_argument(
        "--no-setup",
        action="store_true",
        help="skip bench's set-up measurement (quicker, no set-up table)",
    )
    parser.add_argument(
        "--resume", action="store_true", help="continue the run in an existing --out folder"
    )
    parser.add_argument("--dry-run", action="store_true", help="print the commands only")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return run(parse_args(argv))
    except RefusedPath as refused:
        print(f"study.py: {refused}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
