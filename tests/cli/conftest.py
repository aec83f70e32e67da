"""Shared by the command-line tests: `run`, the command in process."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from sudoku_cp.cli import main


@pytest.fixture
def run():
    def invoke(*args: str, stdin: str | bytes | None = None):
        return CliRunner().invoke(main, list(args), input=stdin)

    return invoke
