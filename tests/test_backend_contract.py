"""The contract every built-in backend keeps, for every mode, for sizes 4, 6, 9 and 16, and for
every declared value of every option: the published suite of `sudoku_cp.testing` (what a plugin
runs on itself), in full on each backend's defaults and its core on every other configuration,
with the combinations of options that work together (z3 and exact are skipped, with the reason,
where their solver is not installed); and the counts of the built-ins against each other."""

import pytest

from sudoku_cp.backends import BUILTIN_BACKENDS, backend_class, get_backend
from sudoku_cp.errors import BackendOptionError
from sudoku_cp.result import Mode
from sudoku_cp.testing import (
    COUNT_LIMIT,
    KNOWN_COUNTS,
    contract_tests,
    count_batch,
)

FULL = {"sizes": (4, 6, 9, 16), "quick": False}


def _propagating_solvers() -> list[str]:
    """The sat solvers that take lexmin=propagation (the backend refuses the others)."""
    if not backend_class("sat").is_available():
        return ["auto"]  # the contract is skipped
    accepted = []
    for solver in backend_class("sat").option("solver").choice_list() or []:
        try:
            get_backend("sat", solver=solver, lexmin="propagation").close()
        except BackendOptionError:
            continue
        accepted.append(solver)
    return accepted


test_dfs_contract = contract_tests("dfs", **FULL)
test_cpsat_contract = contract_tests(
    "cpsat",
    combinations=[
        "model=boolean|integer,lexmin=objective|search",  # each lex-min method on each model
        "model=integer,counts=on|off",  # the implied counts live in the integer model
        "workers=2",  # `any` runs a portfolio
    ],
    **FULL,
)
test_sat_contract = contract_tests(
    "sat",
    combinations=[
        f"lexmin=propagation,solver={'|'.join(_propagating_solvers())}",  # trusts propagate()
        "lexmin=propagation,encoding=minimal",
        # the minimal encoding puts the at-most-ones on the units only
        "encoding=minimal,amo=seqcounter|ladder|bitwise|totalizer|mtotalizer|kmtotalizer|"
        "sortnetwrk|cardnetwrk",
    ],
    **FULL,
)
test_dlx_contract = contract_tests("dlx", **FULL)
test_z3_contract = contract_tests("z3", combinations=["model=integer,process=inline"], **FULL)
test_exact_contract = contract_tests(
    "exact", combinations=["encoding=minimal,process=inline"], **FULL
)
test_minizinc_contract = contract_tests("minizinc", **FULL)
test_pumpkin_contract = contract_tests("pumpkin", combinations=["process=inline"], **FULL)
test_highs_contract = contract_tests(
    "highs", combinations=["lexmin=staged|tightening,encoding=extended|minimal"], **FULL
)

test_portfolio_contract = contract_tests("portfolio", **FULL)


def test_the_suite_covers_every_builtin():
    tested = {
        name.removeprefix("test_").removesuffix("_contract")
        for name in globals()
        if name.endswith("_contract")
    }
    assert tested == set(BUILTIN_BACKENDS)


def test_counts_agree_across_backends():
    names = [name for name in BUILTIN_BACKENDS if backend_class(name).is_available()]
    if len(names) < 2:
        pytest.skip("need two backends to compare")
    counts = {}
    for name in names:
        with get_backend(name) as ready:
            counts[name] = [
                ready.solve(p, mode=Mode.COUNT, limit=COUNT_LIMIT).count for p in count_batch()
            ]
    assert counts == {name: list(KNOWN_COUNTS.values()) for name in names}
