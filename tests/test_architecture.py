"""The shape of the code: imports run one way, from the vocabulary up to the two faces.

Every import of a `sudoku_cp` module is read from the source (at module level, inside functions
and under `TYPE_CHECKING` alike) and checked against the layers below: a module may import its
own layer and the layers under it, never one above, and the import graph has no circle. A new
module must be given its layer here, so its place is a decision, not an accident. Also checked,
for every module: its shape (functions, module and docstring lengths), and that no line reads
like a measurement.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parent.parent / "src" / "sudoku_cp"

# Lowest first. A module may import modules of its own layer and of the layers before it.
LAYERS: list[tuple[str, ...]] = [
    ("_version", "text", "errors"),
    ("grid",),
    ("result",),
    ("textio", "box_directives", "formats", "verify", "naive", "progress"),
    # what a log holds, and its one reader
    ("results_log.fields", "results_log.records", "results_log.reader"),
    ("certify", "certify.*"),  # the proofs: under the runs, which certify as answers come
    ("backends.base",),
    ("backends", "backends.*"),
    ("configurations", "datasets", "datasets.*", "inputs", "generate", "generate.*", "instances"),
    ("explain", "explain.*"),  # human techniques, checked by the sat backend's CNF
    ("judging", "testing", "testing.*"),
    (
        "executors.base",
        "executors.inline",
        "executors.local",
        "executors.isolated",
        "executors.fresh",
        "executors.dask_cluster",
        "executors.dask",
        "executors",
        "executors.worker_signals",
    ),
    ("engine", "certify_job"),
    (
        "results_log",
        "results_log.resume",
        "results_log.writer",
        "environment",
        "agreement",
        "bench_statistics",
        "scores",
        "labels",
    ),
    ("sessions",),
    ("render", "render.*", "plots", "report", "report_html", "report_html.*"),
    ("api", "__init__"),
    ("cli.signals",),
    ("cli.output", "cli.options"),
    ("cli.objects",),
    ("cli", "cli.*", "__main__"),
]


def layer_of(module: str) -> int:
    for number, names in enumerate(LAYERS):
        for name in names:
            if module == name or (name.endswith(".*") and module.startswith(name[:-1])):
                return number
    raise AssertionError(
        f"sudoku_cp.{module} has no layer in tests/test_architecture.py: give it one"
    )


def module_name(path: Path) -> str:
    parts = path.relative_to(SOURCE).with_suffix("").parts
    if parts[-1] == "__init__" and len(parts) > 1:
        parts = parts[:-1]
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(SOURCE.rglob("*.py"))}


def imports_of(module: str, path: Path, known: set[str]) -> set[str]:
    """The sudoku_cp modules a module imports, anywhere in its source."""
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    if module == "__init__":
        package = []
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [
                alias.name.removeprefix("sudoku_cp.")
                for alias in node.names
                if alias.name.startswith("sudoku_cp.")
            ]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                prefix = ".".join(base + ([node.module] if node.module else []))
            elif node.module and node.module.startswith("sudoku_cp"):
                prefix = node.module.removeprefix("sudoku_cp").lstrip(".")
            else:
                continue
            targets = [f"{prefix}.{alias.name}".lstrip(".") for alias in node.names]
            targets = [target if target in known else prefix for target in targets]
        found |= {target or "__init__" for target in targets}
    return {target for target in found if target != module}


def graph() -> dict[str, set[str]]:
    found = modules()
    known = set(found)
    return {
        module: {target for target in imports_of(module, path, known) if target in known}
        for module, path in found.items()
    }


def test_every_module_has_a_layer() -> None:
    for module in modules():
        layer_of(module)


def test_imports_never_go_up_a_layer() -> None:
    upward = [
        f"sudoku_cp.{module} (layer {layer_of(module)}) imports sudoku_cp.{target} "
        f"(layer {layer_of(target)})"
        for module, targets in graph().items()
        for target in sorted(targets)
        if layer_of(target) > layer_of(module)
    ]
    assert not upward, "\n".join(upward)


def test_the_import_graph_has_no_circle() -> None:
    edges = graph()
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for target in sorted(edges[module]):
            if state.get(target) == 1:
                return path[path.index(target) :] + [target]
            if target not in state:
                circle = visit(target)
                if circle:
                    return circle
        path.pop()
        state[module] = 2
        return None

    for module in sorted(edges):
        if module not in state:
            circle = visit(module)
            assert circle is None, "an import circle: " + " -> ".join(circle)


def test_the_checker_sees_an_upward_import(tmp_path: Path) -> None:
    """The check can fail: an upward import, a TYPE_CHECKING one, is found."""
    source = tmp_path / "grid.py"
    source.write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .sessions import Session\n"
    )
    assert imports_of("grid", source, {"grid", "sessions"}) == {"sessions"}
    assert layer_of("sessions") > layer_of("grid")


LONGEST_FUNCTION = 60
LONGEST_MODULE = 450
LONGEST_DOCSTRING = 30
# A line that reads like a measurement or history: figures and dates belong to the docs (the
# decisions register and the studies), never to the code.
MEASUREMENT = re.compile(
    r"\b\d+(\.\d+)?\s?(ms|µs|s)\b.*\b(measured|median|was|before|after|run)\b|\bissue \d+\b"
    r"|\b\d+(\.\d+)?\s?(ms|µs|s|MB|GB)\b.*\b(vs|against|took|needs?|needed|passed|hit|ties?|wins?"
    r"|faster|slower)\b"
    r"|\b(measured|took|needed) (on|in|at) \d|\bfastest measured\b|(?-i:\bMeasured on\b)",
    re.IGNORECASE,
)


@pytest.mark.parametrize("module", sorted(modules()))
def test_every_module_keeps_its_shape(module: str) -> None:
    """Backends included: no function over 60 lines, no module over 450, no module docstring
    over 30, no line that reads like a measurement."""
    text = modules()[module].read_text()
    tree = ast.parse(text)
    long = [
        f"{node.name} ({node.end_lineno - node.lineno + 1} lines)"
        for node in ast.walk(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and node.end_lineno is not None
        and node.end_lineno - node.lineno + 1 > LONGEST_FUNCTION
    ]
    assert not long, f"sudoku_cp.{module}: " + ", ".join(long)
    assert text.count("\n") <= LONGEST_MODULE, f"sudoku_cp.{module}: {text.count(chr(10))} lines"
    docstring = ast.get_docstring(tree, clean=False) or ""
    assert docstring.count("\n") + 1 <= LONGEST_DOCSTRING, f"sudoku_cp.{module}'s docstring"
    measured = [line.strip() for line in text.splitlines() if MEASUREMENT.search(line)]
    assert not measured, f"sudoku_cp.{module}: " + " | ".join(measured)


def test_the_shape_check_sees_a_measurement() -> None:
    assert MEASUREMENT.search("# measured: 2.3 ms before the change")
    assert MEASUREMENT.search("as issue 28 found")
    assert MEASUREMENT.search("# sat wins from 12x12 on (0.22 s vs 0.42 s)")
    assert MEASUREMENT.search("# 16x16 1.9 s against 93 s")
    assert MEASUREMENT.search("# Measured on minimal-puzzle runs")
    assert not MEASUREMENT.search('"""What set-up is measured on."""')
    assert not MEASUREMENT.search("# the search must not see a rewritten model")
