"""The `sudoku-cp` command line: one module per command, each parsing its options, calling the
library once, and rendering.

Exit codes: 0 every puzzle solved (or counted); 1 some puzzle has no solution, timed out, or a
backend answered wrongly, disagreed or failed; 2 bad usage, unreadable input or a file that
cannot be written; 130 interrupted by Ctrl-C, 143 stopped by SIGTERM (results kept either way).
"""

from __future__ import annotations

from .signals import early_signal, install_signal_handlers, stop_with

# First thing: a signal during the imports below is recorded (an exception raised in the middle
# of an import would be a traceback) and acted on when `main` starts.
install_signal_handlers(deferred=True)

import importlib  # noqa: E402
import signal  # noqa: E402
import sys  # noqa: E402
from typing import Any  # noqa: E402

import click  # noqa: E402

from .._version import __version__  # noqa: E402
from ..backends.base import forget_notices  # noqa: E402
from .options import CONTEXT  # noqa: E402
from .output import log_warnings  # noqa: E402
from .signals import EXIT_INTERRUPTED, EXIT_USAGE, STOP, quiet_echo  # noqa: E402

# command name -> (module of this package, function): each module is imported when its command
# runs (or when help lists them), so `sudoku-cp solve -b dfs` never loads plots or Dask.
COMMANDS: dict[str, tuple[str, str]] = {
    "solve": ("solve", "solve"),
    "crosscheck": ("crosscheck", "crosscheck"),
    "bench": ("bench", "bench"),
    "plot": ("report", "plot"),
    "report": ("report", "report"),
    "generate": ("generate", "generate_command"),
    "backends": ("backends", "list_backends"),
    "encode": ("backends", "encode"),
    "data": ("data", "data"),
    "certify": ("certify", "certify"),
    "explain": ("explain", "explain"),
}


class CommandGroup(click.Group):
    """The commands, loaded on use; usage errors are one line ('Error: ... (see COMMAND
    --help)'), exit 2; Ctrl-C and SIGTERM are handled from the first moment."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *COMMANDS})

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in COMMANDS and name not in self.commands:
            module, attribute = COMMANDS[name]
            command = getattr(importlib.import_module(f".{module}", __name__), attribute)
            self.add_command(command, name)
        return super().get_command(ctx, name)

    def main(self, *args: Any, **kwargs: Any) -> Any:
        kwargs["standalone_mode"] = False
        if early_signal() is not None:
            stop_with()  # came while loading: nothing started, nothing to keep
        handlers = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
        install_signal_handlers()
        forget_notices()  # each command says once what it read under an old word
        try:
            return super().main(*args, **kwargs)
        except click.UsageError as error:
            path = error.ctx.command_path.split()[1:] if error.ctx is not None else []
            quiet_echo(
                f"Error: {error.format_message()} (see {' '.join(['sudoku-cp', *path])} --help)"
            )
            sys.exit(EXIT_USAGE)
        except click.ClickException as error:
            error.show()
            sys.exit(error.exit_code)
        except click.exceptions.Abort:
            quiet_echo("Aborted.")
            sys.exit(EXIT_INTERRUPTED)
        except click.exceptions.Exit as error:
            sys.exit(error.exit_code)
        finally:
            # A caller in the same process (a test) gets its handlers back, unless a signal
            # came: then the process is exiting, and another signal must not kill it halfway
            # through its clean-up.
            if STOP.signum is None:
                signal.signal(signal.SIGINT, handlers[0])
                signal.signal(signal.SIGTERM, handlers[1])


@click.group(
    cls=CommandGroup,
    context_settings=CONTEXT,
    invoke_without_command=True,
    epilog="Examples:\n\n\b\n  sudoku-cp solve data/examples/baekjoon2239.txt\n"
    "  sudoku-cp crosscheck top95 --backends dfs,sat\n"
    "  sudoku-cp COMMAND --help",
)
@click.version_option(__version__, prog_name="sudoku-cp")
@click.pass_context
def main(ctx: click.Context) -> None:
    """Lexicographically smallest Sudoku completions by search, CP-SAT and SAT."""
    log_warnings()
    if ctx.invoked_subcommand is None:
        click.echo(ctx.get_help())


__all__ = ["COMMANDS", "main"]
