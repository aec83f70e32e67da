"""Where the study scripts write: a new folder under results/, never over a committed file.

The committed figures and logs under docs/ (and the data under data/) are the record of a run;
reproducing a study must not overwrite them. So a study writes into `results/<study>-<time>/`
by default (git ignores results*/), and any path it is given is refused when it lies under docs/
or data/ or is a file git tracks.
"""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROTECTED = ("docs", "data")  # folders of committed records: never written by a study


class RefusedPath(SystemExit):
    """A path a study must not write to; exits with a one-line message."""


def fresh_folder(study: str, *, root: Path = ROOT) -> Path:
    """A new folder `results/<study>-<YYYYmmdd-HHMMSS>` (with a suffix if that one exists)."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    base = root / "results" / f"{study}-{stamp}"
    candidate, number = base, 1
    while candidate.exists():
        number += 1
        candidate = base.with_name(f"{base.name}-{number}")
    return candidate


def refuse_committed(path: Path, *, root: Path = ROOT) -> None:
    """Refuse (RefusedPath) a path under docs/ or data/, or one that git tracks.

    Raises:
        RefusedPath: naming the path and what to do instead.
    """
    resolved = path.resolve()
    for folder in PROTECTED:
        if resolved.is_relative_to((root / folder).resolve()):
            raise RefusedPath(
                f"{path}: under {folder}/, where the committed records are; "
                f"write to a new folder (the default is under results/)"
            )
    if _tracked(resolved, root):
        raise RefusedPath(
            f"{path}: a committed file; write to a new folder (the default is under results/)"
        )


def new_folder(path: Path, *, root: Path = ROOT) -> Path:
    """Create `path` as a new, empty folder for a study's output.

    Raises:
        RefusedPath: when it exists already, or is a protected path.
    """
    refuse_committed(path, root=root)
    if path.exists():
        raise RefusedPath(
            f"{path} exists already: name a new folder (or omit it for a fresh "
            f"one under results/), or pass --resume to continue the run in it"
        )
    path.mkdir(parents=True)
    return path


def _tracked(path: Path, root: Path) -> bool:
    if not path.is_relative_to(root.resolve()):
        return False
    try:
        found = subprocess.run(
            ["git", "-C", str(root), "ls-files", "--error-unmatch", "--", str(path)],
            capture_output=True,
            check=False,
        )
    except OSError:  # no git: the protected folders are the rule
        return False
    return found.returncode == 0
