"""Signals at random moments: start-up, the pool's fork, the Dask cluster's start, mid-run.

    python tools/signal_storm.py PUZZLES [--trials 200] [--seed 1] [--max-delay 4]
                                      [--commands crosscheck,dask,solve,bench] [--window 0.3]

Each trial starts a real `sudoku-cp` process in a session of its own, waits a random time
(a third of the trials within the first 0.3 s: the interpreter's start, the imports, the fork of
the workers), sends SIGINT to the whole process group (what a terminal's Ctrl-C does) or SIGTERM
to the command (what `kill` does), and checks:

- nothing is lost: the exit status is 130 or 143 whenever the signal came while work was left
  (0 or 1 only when the log already held every puzzle);
- no traceback and no 'Exception ignored' on stderr, and at most one line there;
- 'Interrupted after N puzzles' names the number of records the log holds;
- the run then resumes (`--resume`) to a log with every puzzle exactly once.

A signal before the interpreter has run sudoku-cp's first line (the 'start-up window') kills the
process the way Python's defaults do (SIGTERM: by the signal; SIGINT: KeyboardInterrupt): those
are counted apart, with the window measured. So is a signal that lands while the interpreter
winds down after finishing every puzzle (it puts the default handlers back): 'killed while
exiting', nothing lost. A process killed that way with work left, later than the start-up window
(`--window`, default three times its median measured first, at least 0.3 s: a loaded machine
starts Python slower), is a failure: a silent death. Prints one line per failure and a summary;
exit 1 when a trial failed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

AFTER = re.compile(r"(?:Interrupted|Terminated) after (\d+)(?: of \d+)? puzzles?")

COMMANDS = {
    "crosscheck": ["crosscheck", "-b", "dfs,sat", "-j", "2"],
    "dask": ["crosscheck", "-b", "dfs,sat", "-j", "2", "--executor", "dask"],
    "solve": ["solve", "-b", "dfs", "-j", "2", "--format", "jsonl"],
    "bench": ["bench", "-b", "dfs,sat", "--no-setup"],
}


@dataclass
class Trial:
    command: str
    signum: int
    delay: float
    code: int | None = None
    problems: list[str] = field(default_factory=list)
    kind: str = "stopped"  # stopped | finished first | start-up window
    stderr: str = ""


def _records(log: Path) -> list[int]:
    if not log.exists():
        return []
    indexes = []
    for line in log.read_text().splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue  # a torn last line: resume drops it
        if record.get("kind") == "puzzle":
            indexes.append(record["index"])
    return indexes


def _argv(command: str, puzzles: Path, log: Path) -> list[str]:
    argv = [sys.executable, "-m", "sudoku_cp", *COMMANDS[command], str(puzzles)]
    return argv if command == "solve" else [*argv, "--results", str(log)]


WINDOW = 0.3  # seconds from the launch within which Python's own defaults may still act


def run_trial(
    command: str,
    signum: int,
    delay: float,
    puzzles: Path,
    total: int,
    folder: Path,
    window: float = WINDOW,
) -> Trial:
    """One trial (see the module docstring)."""
    trial = Trial(command, signum, delay)
    log = folder / "log.jsonl"
    log.unlink(missing_ok=True)
    process = subprocess.Popen(
        _argv(command, puzzles, log),
        stdout=subprocess.PIPE if command == "solve" else subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    time.sleep(delay)
    alive = process.poll() is None
    if alive:
        if signum == signal.SIGINT:
            os.killpg(process.pid, signum)
        else:
            process.send_signal(signum)
    try:
        out, err = process.communicate(timeout=300)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        trial.code = None
        trial.problems.append("still running 300 s after the signal: killed")
        return trial
    trial.code, trial.stderr = process.returncode, err
    done = _records(log)
    if process.returncode < 0 or (
        process.returncode == 1 and "KeyboardInterrupt" in err and "sudoku_cp" not in err
    ):
        # Python's own defaults acted: before sudoku-cp's first line, or after its last one.
        answered = len(out.splitlines()) if command == "solve" else len(set(done))
        if answered >= total:
            trial.kind = "killed while exiting"
        elif delay <= window:
            trial.kind = "start-up window"
        else:
            trial.problems.append(
                f"killed by its signal after {delay} s with {answered} of {total} puzzles "
                f"done: a silent death"
            )
        return trial
    if "Traceback" in err or "Exception ignored" in err:
        trial.problems.append("traceback: " + err.strip().splitlines()[-1][:120])
    if len(err.strip().splitlines()) > 1:
        trial.problems.append(f"{len(err.strip().splitlines())} lines on stderr")
    if process.returncode in (0, 1):
        if command != "solve" and len(set(done)) < total:
            trial.problems.append(
                f"exit {process.returncode} after a signal with "
                f"{len(set(done))} of {total} puzzles done: signal lost"
            )
        trial.kind = "finished first" if alive else "finished before the signal"
    elif process.returncode not in (130, 143):
        trial.problems.append(f"exit {process.returncode}")
    said = AFTER.search(err)
    if said and command != "solve" and int(said.group(1)) != len(done):
        trial.problems.append(f"says {said.group(1)} puzzles, the log holds {len(done)}")
    if command != "solve" and not trial.problems:
        _resume(trial, command, puzzles, log, total)
    return trial


def _resume(trial: Trial, command: str, puzzles: Path, log: Path, total: int) -> None:
    if not log.exists():
        return
    again = subprocess.run(
        [*_argv(command, puzzles, log), "--resume"], capture_output=True, text=True, timeout=600
    )
    if again.returncode not in (0, 1):
        trial.problems.append(f"resume exited {again.returncode}: {again.stderr.strip()[-120:]}")
        return
    done = _records(log)
    if sorted(done) != list(range(total)):
        trial.problems.append(
            f"after resume the log holds {len(done)} records, {len(set(done))} distinct, of {total}"
        )


def startup_window(repeats: int = 20) -> float:
    """Median seconds from exec to sudoku-cp's handlers (its first line), measured."""
    probe = (
        "import time, sys; t = float(sys.argv[1]); import sudoku_cp.cli.signals; "
        "print(time.time() - t)"
    )
    times = sorted(
        float(
            subprocess.run(
                [sys.executable, "-c", probe, repr(time.time())], capture_output=True, text=True
            ).stdout
        )
        for _ in range(repeats)
    )
    return times[len(times) // 2]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("puzzles", type=Path)
    parser.add_argument("--trials", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-delay", type=float, default=4.0)
    parser.add_argument("--commands", default=",".join(COMMANDS))
    parser.add_argument("--window", type=float, default=None)
    args = parser.parse_args()
    commands = args.commands.split(",")
    total = sum(1 for line in args.puzzles.read_text().splitlines() if line.strip())
    rng = random.Random(args.seed)
    window = args.window if args.window is not None else max(WINDOW, 3 * startup_window())
    kinds: Counter[str] = Counter()
    failed = 0
    with tempfile.TemporaryDirectory() as folder:
        for number in range(args.trials):
            delay = rng.uniform(0, 0.3) if rng.random() < 1 / 3 else rng.uniform(0, args.max_delay)
            trial = run_trial(
                commands[number % len(commands)],
                rng.choice([signal.SIGINT, signal.SIGTERM]),
                round(delay, 3),
                args.puzzles,
                total,
                Path(folder),
                window,
            )
            kinds[f"{trial.command} {trial.kind} exit {trial.code}"] += 1
            if trial.problems:
                failed += 1
                print(
                    f"FAIL {trial.command} {signal.Signals(trial.signum).name} after "
                    f"{trial.delay} s: {'; '.join(trial.problems)}",
                    flush=True,
                )
                print("    " + "\n    ".join(trial.stderr.splitlines()[-30:]), flush=True)
    print(
        f"{args.trials} trials, {failed} failed; start-up window (exec to sudoku-cp's "
        f"handlers) median {startup_window() * 1e3:.0f} ms, kills within {window:.2f} s counted "
        f"as start-up"
    )
    for kind, count in sorted(kinds.items()):
        print(f"  {count:4d}  {kind}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
