"""The options commands share, declared once: the option class and types (a lazy choice, a
number of seconds), and the groups: input, solving (with the backends' shorthand flags, from
their declarations), executors, results log."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any

import click

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 80, "show_default": True}


class Option(click.Option):
    """An option whose described default ('the machine's cores') is shown like a value:
    '[default: the machine's cores]', the one way every default is shown.

    `lazy_help` builds the help text when help is shown: a text that lists the backends would
    otherwise read every installed package's entry points (the plugins) on every start.
    """

    def __init__(
        self, *args: Any, lazy_help: Callable[[], str] | None = None, **attributes: Any
    ) -> None:
        super().__init__(*args, **attributes)
        self._lazy_help = lazy_help

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        if self._lazy_help is not None:
            self.help, self._lazy_help = self._lazy_help(), None
        return super().get_help_record(ctx)

    def get_help_extra(self, ctx: click.Context) -> Any:
        extra = super().get_help_extra(ctx)
        if isinstance(self.show_default, str) and "default" in extra:
            extra["default"] = self.show_default
        return extra

    def consume_value(self, ctx: click.Context, opts: Any) -> tuple[Any, Any]:
        """The value given, else one given under an earlier name of the option (`renamed`)."""
        value, source = super().consume_value(ctx, opts)
        earlier = ctx.meta.get(_RENAMED, {})
        if source is click.core.ParameterSource.DEFAULT and self.name in earlier:
            return earlier[self.name], click.core.ParameterSource.COMMANDLINE
        return value, source


def option(*names: str, **attributes: Any) -> Callable[..., Any]:
    return click.option(*names, cls=Option, **attributes)


_RENAMED = "sudoku_cp.renamed"  # ctx.meta: option name -> the value given under an old name


def renamed(old: str, new: str, name: str, **attributes: Any) -> Callable[..., Any]:
    """An earlier flag of the option `name` (whose flag is now `new`): hidden from the help,
    still read, with a one-line notice naming the new flag. The option itself takes the value
    (`Option.consume_value`); given both ways, the new flag wins."""
    from ..backends.base import renamed_notice

    def remember(ctx: click.Context, _param: click.Parameter, value: Any) -> None:
        if value is not None:
            renamed_notice(f"{old} is now {new}")
            ctx.meta.setdefault(_RENAMED, {})[name] = value

    return click.option(
        old,
        f"renamed_{name}",
        hidden=True,
        expose_value=False,
        callback=remember,
        default=None,
        **attributes,
    )


class LazyChoice(click.Choice):  # type: ignore[type-arg,unused-ignore]
    """A Choice whose values come from the library, loaded only when needed (parsing, help)."""

    def __init__(self, load: Callable[[], Iterable[str]]) -> None:
        self._load = load
        self._loaded: tuple[str, ...] | None = None
        super().__init__([])

    @property  # type: ignore[override,unused-ignore]
    def choices(self) -> tuple[str, ...]:
        if self._loaded is None:
            self._loaded = tuple(self._load())
        return self._loaded

    @choices.setter
    def choices(self, value: Any) -> None:
        pass  # set by click.Choice.__init__; the loader is the source


class Seconds(click.ParamType):  # type: ignore[type-arg,unused-ignore]
    """A time limit in seconds: positive; 'inf' (or more than 1e9) means none; NaN refused."""

    name = "SECONDS"

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> float | None:
        if value is None or isinstance(value, float):
            number = value
        else:
            try:
                number = float(value)
            except ValueError:
                self.fail(f"{value!r} is not a number of seconds", param, ctx)
        if number is None:
            return None
        if math.isnan(number) or number <= 0:
            self.fail(
                f"{value!r} is not a positive number of seconds (use inf for no limit)", param, ctx
            )
        return None if math.isinf(number) or number > 1e9 else number


def options(*decorators: Callable[..., Any]) -> Callable[..., Any]:
    """Several option decorators as one."""

    def apply(command: Callable[..., Any]) -> Callable[..., Any]:
        for decorator in reversed(decorators):
            command = decorator(command)
        return command

    return apply


def _layouts() -> list[str]:
    from ..formats import Layout

    return [str(layout) for layout in Layout]


input_options = options(
    click.argument("files", nargs=-1, metavar="[FILE|SET]..."),
    option(
        "--input-format",
        type=LazyChoice(_layouts),
        default=None,
        show_default="detected",
        help="Input layout.",
    ),
    option(
        "--box",
        metavar="RxC",
        default=None,
        show_default="square, else squarest",
        help="Box shape, e.g. 2x3 for 6x6.",
    ),
    option(
        "--no-download",
        is_flag=True,
        default=False,
        show_default=False,
        help="Never fetch a puzzle set by name; use the cache or SUDOKU_CP_DATA.",
    ),
)


def shorthand_flag_options() -> list[Callable[..., Any]]:
    """One click option per built-in backend option that declares a shorthand flag
    (`BackendOption.flag`): its help, choices and bounds come from the declaration."""
    from ..backends import shorthand_flags

    made = []
    for flag, (backend, declared) in shorthand_flags().items():
        kind: Any = None
        metavar: str | None = "NAME"
        if declared.kind is int:
            kind, metavar = click.IntRange(min=declared.minimum), "N"
        elif isinstance(declared.choices, tuple):
            kind = click.Choice(declared.choices)
            metavar = None if len(declared.choices) <= 4 else "NAME"  # else listed in help
        made.append(
            option(
                flag,
                f"flag_{declared.name}_{backend}",
                type=kind,
                default=None,
                show_default=str(declared.default),
                metavar=metavar,
                help=f"{backend}: {declared.help} (shorthand for {backend}[{declared.name}=...]).",
            )
        )
        made += [  # earlier names of the flag: still read, with a notice (`flags_given`)
            option(old, f"flag_{declared.name}_{backend}_{index}", default=None, hidden=True)
            for index, old in enumerate(declared.old_flags)
        ]
    return made


def _modes() -> list[str]:
    from ..result import Mode

    return [str(mode) for mode in Mode]


class Modes(click.ParamType):  # type: ignore[type-arg,unused-ignore]
    """One mode or several, comma-separated (`lexmin,any`): each checked, in the order given."""

    name = "MODE[,MODE]"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        names = [name.strip() for name in str(value).split(",")]
        for name in names:
            if name not in _modes():
                self.fail(f"{name!r} is not one of {', '.join(_modes())}", param, ctx)
        if len(set(names)) < len(names):
            self.fail(f"{value!r} names a mode twice", param, ctx)
        return ",".join(names)


_MODE_HELP = (
    "lexmin: smallest completion row by row; any: some completion; count: "
    "completions up to --count-limit."
)


def _solve_options(mode: Callable[..., Any]) -> Callable[..., Any]:
    return options(
        mode,
        option(
            "--count-limit",
            "limit",
            type=click.IntRange(min=1),
            default=2,
            help="Count mode: stop counting at this many completions.",
        ),
        renamed("--limit", "--count-limit", "limit", type=click.IntRange(min=1)),
        option(
            "--time-limit",
            type=Seconds(),
            default=None,
            show_default="none",
            help="Seconds per puzzle (inf: none); past it the puzzle is a timeout.",
        ),
        option(
            "--certify",
            is_flag=True,
            default=False,
            show_default=False,
            help="Certify each answer as it comes (a checked proof for lex-min, "
            "unsatisfiable and counts); an answer that fails is wrong.",
        ),
        option(
            "--keep-proofs",
            type=click.Path(file_okay=False),
            metavar="DIR",
            default=None,
            help="With --certify (implied): write each CNF and proof there.",
        ),
        *shorthand_flag_options(),
    )


solve_options = _solve_options(
    option("--mode", type=LazyChoice(_modes), default="lexmin", help=_MODE_HELP)
)
# bench times several modes in turn (a results log each)
bench_solve_options = _solve_options(
    option(
        "--mode",
        type=Modes(),
        default="lexmin",
        help=_MODE_HELP + " Several, comma-separated, run one after the other.",
    )
)


def _executor_names() -> list[str]:
    from ..executors import EXECUTORS

    return list(EXECUTORS)


def _executor_help() -> str:
    from ..executors import EXECUTORS

    return "; ".join(f"{name}: {help_text}" for name, (_, _, help_text) in EXECUTORS.items())


executor_options = options(
    option(
        "--executor",
        type=LazyChoice(_executor_names),
        default="local",
        lazy_help=lambda: f"Where the puzzles run: {_executor_help()}.",
    ),
    option(
        "--scheduler",
        metavar="ADDRESS",
        default=None,
        show_default="a local cluster",
        help="dask: the scheduler to attach to, e.g. tcp://host:8786 or tls://...",
    ),
)


first_option = option(
    "--first",
    "first",
    type=click.IntRange(min=1),
    metavar="K",
    default=None,
    show_default="all",
    help="Only the first K puzzles of each file or set.",
)

results_options = options(
    option(
        "--results",
        "results",
        type=click.Path(dir_okay=False),
        default=None,
        help="Append every puzzle's record to this JSON Lines log as it completes.",
    ),
    option(
        "--resume",
        is_flag=True,
        default=False,
        show_default=False,
        help="Continue the run in --results: skip its finished puzzles, retry errors.",
    ),
)


__all__ = [
    "CONTEXT",
    "Modes",
    "bench_solve_options",
    "LazyChoice",
    "Option",
    "Seconds",
    "executor_options",
    "first_option",
    "input_options",
    "option",
    "options",
    "renamed",
    "results_options",
    "shorthand_flag_options",
    "solve_options",
]
