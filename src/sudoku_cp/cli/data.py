"""`sudoku-cp data`: the public puzzle sets by name (list, fetch, path).

Thin: the registry, the cache and the downloads are in `datasets`. Errors are one line
`Error: ...` on stderr and exit 2.
"""

from __future__ import annotations

import click

from .. import datasets
from ..errors import SudokuError
from .output import echo, fail, run_command
from .signals import EXIT_USAGE, quiet_echo

ENVIRONMENT_HELP = f"""\b
Environment:
  {datasets.ENV_LOCAL}=FOLDER    normalised set files, looked in first
  {datasets.ENV_CACHE}=FOLDER   the cache (default: the user cache folder)
  {datasets.ENV_MIRROR}=URL   a mirror of the upstream files (GitHub paths)
  {datasets.ENV_NO_DOWNLOAD}=1  never download; say what is missing"""


@click.group(
    name="data",
    epilog=ENVIRONMENT_HELP
    + """

\b
Examples:
  sudoku-cp data list
  sudoku-cp data fetch top95 17clue
  sudoku-cp crosscheck 17clue --backends dfs,sat""",
)
def data() -> None:
    """The public puzzle sets by name: fetched once, verified by sha256, cached, offline.

    Any command that reads puzzle files also takes a set name:
    `sudoku-cp crosscheck 17clue --backends dfs,sat`.
    """


@data.command(name="list", epilog="\b\nExample:\n  sudoku-cp data list")
@run_command
def list_sets() -> None:
    """List the sets and what each is known for.

    Per set: name, puzzles, grid, file size, whether it is here already, what it is known for,
    the pinned upstream file and the licence its repository states.
    """
    config = datasets.DataConfig.from_env()
    width = max(len(name) for name in datasets.names())
    echo(f"{'NAME':<{width}}  {'PUZZLES':>7}  {'GRID':<5}  {'SIZE':>7}  HERE")
    for dataset in datasets.REGISTRY.values():
        found = datasets.locate(dataset, config=config)
        here = (
            "-"
            if found is None
            else "local"
            if config.local is not None and found.parent == config.local
            else "cached"
        )
        echo(
            f"{dataset.name:<{width}}  {dataset.puzzles:>7}  {dataset.grid:<5}  "
            f"{_size(dataset.bytes):>7}  {here}"
        )
        echo(f"    {dataset.known_for}")
        echo(f"    {dataset.source}, licence: {dataset.licence}")
    echo("\nHERE: local = in $SUDOKU_CP_DATA, cached = fetched before, - = fetched on first use.")


@data.command(
    epilog="\b\nExamples:\n  sudoku-cp data fetch top95 17clue\n  sudoku-cp data fetch --all"
)
@click.argument("names", metavar="NAME...", nargs=-1)
@click.option("--all", "fetch_all", is_flag=True, help="Every set in `sudoku-cp data list`.")
@run_command
def fetch(names: tuple[str, ...], fetch_all: bool) -> None:
    """Download, verify and cache sets now; print their paths.

    A progress bar is drawn on a terminal. A set already cached or in $SUDOKU_CP_DATA is only
    verified. Every set named is tried; the exit status is 2 when one failed.
    """
    if fetch_all == bool(names):
        fail("name the sets to fetch, or give --all (not both)")
    chosen = datasets.names() if fetch_all else list(names)
    failed = 0
    for name in chosen:
        try:
            path = datasets.fetch(name, progress=True)
        except SudokuError as error:
            quiet_echo(f"Error: {error}")
            failed += 1
        else:
            echo(f"{name}\t{path}")
    if failed:
        raise SystemExit(EXIT_USAGE)


@data.command(
    epilog="\b\nExamples:\n  sudoku-cp data path 17clue\n"
    '  head -3 "$(sudoku-cp data path top95)"\n'
    "  sudoku-cp data path          # the cache folder"
)
@click.argument("name", required=False)
@click.option(
    "--no-download",
    is_flag=True,
    help=f"Fail instead of downloading a set not there yet (also: {datasets.ENV_NO_DOWNLOAD}=1).",
)
@run_command
def path(name: str | None, no_download: bool) -> None:
    """Print the path of a set's verified file.

    The set is fetched on first use. Without NAME, print the cache folder.
    """
    if name is None:
        echo(str(datasets.DataConfig.from_env().cache_folder()))
    else:
        echo(str(datasets.fetch(name, download=not no_download, progress=True)))


def _size(count: int) -> str:
    return f"{count / 1e6:.1f} MB" if count >= 1e6 else f"{max(1, round(count / 1e3))} kB"
