"""executors: found by name in one registry (the CLI's --executor choices), and capped to what the
machine can use."""

from __future__ import annotations

import logging

import pytest
from click.testing import CliRunner

from sudoku_cp.cli import main
from sudoku_cp.errors import ExecutorError
from sudoku_cp.executors import EXECUTORS, default_jobs, make_executor, usable_jobs
from sudoku_cp.executors.inline import InlineExecutor
from sudoku_cp.executors.isolated import IsolatedExecutor
from sudoku_cp.executors.local import LocalExecutor

from ..conftest import BAEKJOON_2239, BAEKJOON_2239_ANSWER


def test_every_executor_is_found_by_name() -> None:
    assert list(EXECUTORS) == ["local", "inline", "isolated", "dask", "fresh"]
    assert isinstance(make_executor("inline"), InlineExecutor)
    assert isinstance(make_executor("isolated"), IsolatedExecutor)
    assert isinstance(make_executor("local", jobs=1), InlineExecutor)
    assert isinstance(make_executor("local", jobs=2), LocalExecutor)
    with pytest.raises(
        ExecutorError,
        match=r"unknown executor 'cloud' \(choose from local, "
        r"inline, isolated, dask, fresh\)",
    ):
        make_executor("cloud")


def test_the_command_line_offers_the_registry() -> None:
    result = CliRunner().invoke(main, ["solve", "--help"])
    assert "local: worker processes" in result.stdout and "isolated:" in result.stdout
    solved = CliRunner().invoke(
        main, ["solve", "--executor", "isolated", "--format", "line"], input=BAEKJOON_2239 + "\n"
    )
    assert (solved.exit_code, solved.stdout) == (0, BAEKJOON_2239_ANSWER + "\n")


def test_too_many_jobs_are_capped_with_one_line(caplog: pytest.LogCaptureFixture) -> None:
    most = 4 * default_jobs()
    with caplog.at_level(logging.WARNING, logger="sudoku_cp"):
        assert usable_jobs(1000) == most
        assert usable_jobs(2) == 2
        executor = make_executor("local", jobs=1000)
    assert isinstance(executor, LocalExecutor) and executor.jobs == most
    assert (
        caplog.messages
        == [
            f"-j 1000 is more worker processes than this machine can use: "
            f"running {most} (4 per core)"
        ]
        * 2
    )


def test_the_cli_says_so_and_solves(tmp_path) -> None:
    result = CliRunner().invoke(
        main, ["solve", "-j", "1000", "--format", "line"], input=BAEKJOON_2239 + "\n"
    )
    assert result.exit_code == 0 and result.stdout == BAEKJOON_2239_ANSWER + "\n"
    assert result.stderr.startswith("warning: -j 1000 is more worker processes than")
