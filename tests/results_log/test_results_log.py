"""results_log (the package): its names load on first use, each from the module that defines
it, and importing the package loads neither the writer nor the reader."""

from __future__ import annotations

import subprocess
import sys

import pytest

from sudoku_cp import results_log


@pytest.mark.parametrize("name", results_log.__all__)
def test_every_name_of_the_package_loads(name: str) -> None:
    value = getattr(results_log, name)
    assert name in dir(results_log)
    assert getattr(value, "__module__", results_log.__name__).startswith("sudoku_cp.results_log")


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="has no attribute 'Tally'"):
        results_log.Tally  # noqa: B018


def test_importing_the_package_loads_no_module_of_it() -> None:
    script = (
        "import sys, sudoku_cp.results_log; "
        "print(sorted(m for m in sys.modules if m.startswith('sudoku_cp.results_log.')))"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.stdout == "[]\n", done.stderr
