"""Running the contract suite: `check_backend` and `assert_backend` anywhere, `contract_tests` in
pytest. Each runs every configuration of `options.contract_configurations` (the defaults with
every case, the others with the core cases) on one warm backend per configuration."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..backends import Backend, backend_class, get_backend, install_hint
from ..configurations import Configuration
from ..errors import SudokuError
from .cases import ContractCase, contract_cases
from .checks import Factory, expect
from .options import contract_configurations


def _loaded(backend: str | type[Backend]) -> type[Backend]:
    """The class of a registry name (a plugin that fails to import raises here, in one line).

    Raises:
        UnknownBackendError, BackendUnavailableError: for a name that cannot be loaded.
        AssertionError: for a class registered under another name than its own.
    """
    if not isinstance(backend, str):
        return backend
    cls = backend_class(backend)
    expect(cls.name == backend, f"the class registered as {backend!r} calls itself {cls.name!r}")
    return cls


def _factory(backend: str | type[Backend], options: Mapping[str, Any]) -> Factory:
    """A way to build the backend: through the registry for a name (so that a plugin's entry
    point is what is checked), directly for a class."""
    if isinstance(backend, str):
        name = backend
        return lambda: get_backend(name, **options)
    cls = backend
    return lambda: cls(**options)


def _label(backend: str | type[Backend]) -> str:
    return backend if isinstance(backend, str) else backend.__qualname__


def _unavailable(cls: type[Backend]) -> str | None:
    """Why the backend cannot run here (a solver package not installed), in one line naming
    what to install, or None."""
    if cls.is_available():
        return None
    return f"needs {', '.join(cls.requires)}: {install_hint(cls)}"


def _configurations(
    backend: str | type[Backend],
    options: Mapping[str, Any],
    combinations: Sequence[str],
    every_value: bool,
) -> list[Configuration]:
    """The configurations to check (see `options.contract_configurations`); for a backend that
    cannot run here, the one given (its checks are skipped: its option values may be unknown).

    Raises:
        SudokuError: for a backend that cannot be loaded, or options it refuses.
        AssertionError: see `_loaded`.
    """
    cls = _loaded(backend)
    if _unavailable(cls):
        return [Configuration(cls.name, options, _label(backend))]
    return contract_configurations(
        cls, _label(backend), fixed=options, combinations=combinations, every_value=every_value
    )


def check_backend(
    backend: str | type[Backend],
    *,
    sizes: Sequence[int] = (4, 6, 9),
    quick: bool = True,
    combinations: Sequence[str] = (),
    every_value: bool = True,
    **options: Any,
) -> list[str]:
    """Run the contract suite on a backend (a registry name or a Backend class, built with
    `options`), over every declared value of its other options (`every_value=False`: the one
    configuration) and the `combinations` given; the failures, one line each
    ('configuration: case: what'). A backend that cannot be loaded or whose solver is missing
    is one failure."""
    try:
        missing = _unavailable(_loaded(backend))
        if missing:
            return [f"{_label(backend)}: unavailable: {missing}"]
        configurations = _configurations(backend, options, combinations, every_value)
    except SudokuError as error:  # an unknown name, a plugin that fails to load, an option
        return [f"{backend}: {error}"]
    except Exception as error:
        return [f"{backend}: cannot be built: {type(error).__name__}: {error}"]
    failures = []
    for number, configuration in enumerate(configurations):
        cases = contract_cases(sizes=sizes, quick=quick, core_only=number > 0)
        failures += _check_configuration(backend, configuration, cases)
    return failures


def _check_configuration(
    backend: str | type[Backend], configuration: Configuration, cases: Sequence[ContractCase]
) -> list[str]:
    """The cases on one warm backend of one configuration; the failures, one line each."""
    label = configuration.label
    fresh = _factory(backend, configuration.options)
    try:
        warm = fresh()
    except SudokuError as error:
        return [f"{label}: {error}"]
    except Exception as error:
        return [f"{label}: cannot be built: {type(error).__name__}: {error}"]
    failures = []
    try:
        for case in cases:
            try:
                case.run(warm, fresh)
            except AssertionError as error:
                failures.append(f"{label}: {case.id}: {error}")
            except Exception as error:  # the contract: never raise on a well-formed grid
                failures.append(f"{label}: {case.id}: raised {type(error).__name__}: {error}")
    finally:
        warm.close()
    return failures


def assert_backend(
    backend: str | type[Backend],
    *,
    sizes: Sequence[int] = (4, 6, 9),
    quick: bool = True,
    combinations: Sequence[str] = (),
    every_value: bool = True,
    **options: Any,
) -> None:
    """`check_backend`, raising AssertionError with every failure when there is one."""
    failures = check_backend(
        backend,
        sizes=sizes,
        quick=quick,
        combinations=combinations,
        every_value=every_value,
        **options,
    )
    if failures:
        raise AssertionError(f"{len(failures)} contract failure(s):\n" + "\n".join(failures))


class _WarmBackend:
    """The backend under test in a pytest run: one warm instance at a time, built on first use
    for its configuration, closed when the next configuration's cases start or the test module
    is done."""

    def __init__(self, backend: str | type[Backend]) -> None:
        self.backend = backend
        self.label = ""
        self.warm: Backend | None = None
        self.finalizing = False

    def unavailable(self) -> str | None:
        return _unavailable(_loaded(self.backend))

    def get(self, configuration: Configuration) -> Backend:
        if self.warm is None or self.label != configuration.label:
            self.close()
            self.warm = _factory(self.backend, configuration.options)()
            self.label = configuration.label
        return self.warm

    def close(self) -> None:
        if self.warm is not None:
            self.warm.close()
            self.warm = None


def contract_tests(
    backend: str | type[Backend],
    *,
    sizes: Sequence[int] = (4, 6, 9),
    quick: bool = True,
    combinations: Sequence[str] = (),
    every_value: bool = True,
    xfail: Mapping[str, str] | None = None,
    **options: Any,
) -> Callable[..., None]:
    """A pytest test function that runs the contract suite, one test per configuration and
    case (its id: 'sat[solver=cadical195]-count-like-brute-force-9-45-13'):

        from sudoku_cp.testing import contract_tests
        test_contract = contract_tests("naive")

    Assign it to a name that starts with `test` in a test module (one name per backend). The
    arguments are `check_backend`'s; `xfail` maps a configuration's label, or a test's id, to
    the reason it is known to fail; such a case still runs, and one that passes shows as XPASS
    (not strict: a time limit overrun, say, may pass on a quiet machine).
    A backend whose solver package is not installed is skipped, one that fails to load fails
    every case with its one-line error.
    """
    import pytest

    try:
        configurations = _configurations(backend, options, combinations, every_value)
    except (SudokuError, AssertionError):  # each case fails with the error when it runs
        configurations = [Configuration(_label(backend), options, _label(backend))]
    warm = _WarmBackend(backend)
    known = xfail or {}
    parameters = []
    for number, configuration in enumerate(configurations):
        for case in contract_cases(sizes=sizes, quick=quick, core_only=number > 0):
            test_id = f"{configuration.label}-{case.id}"
            reason = known.get(test_id) or known.get(configuration.label)
            marks = [pytest.mark.xfail(reason=reason, strict=False)] if reason else []
            parameters.append(pytest.param(configuration, case, id=test_id, marks=marks))

    def test(configuration: Configuration, case: ContractCase, request: Any) -> None:
        missing = warm.unavailable()
        if missing:
            pytest.skip(missing)
        if not warm.finalizing:
            request.node.getparent(pytest.Module).addfinalizer(warm.close)
            warm.finalizing = True
        case.run(warm.get(configuration), _factory(backend, configuration.options))

    test.__doc__ = f"The backend contract on {_label(backend)}, every configuration."
    parametrised: Callable[..., None] = pytest.mark.parametrize(
        ("configuration", "case"), parameters
    )(test)
    return parametrised


__all__ = ["assert_backend", "check_backend", "contract_tests"]
