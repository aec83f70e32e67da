"""The README's Python API examples run as written, in a folder holding the files they name."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from .conftest import DATA, ROOT

README = ROOT / "README.md"


def section(title: str) -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end >= 0 else None]


def python_blocks(text: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)


def test_the_python_api_section_has_examples():
    assert python_blocks(section("Python API"))


@pytest.mark.parametrize("number", range(len(python_blocks(section("Python API")))))
def test_the_python_api_examples_run(number, tmp_path, monkeypatch):
    pytest.importorskip("pandas")
    unique = [line for line in (DATA / "generated" / "unique-9x9.txt").read_text().splitlines()
              if line and not line.startswith("#")]
    (tmp_path / "puzzles.txt").write_text("\n".join(unique[:20]) + "\n")
    shutil.copy(DATA / "generated" / "adversarial-9x9.txt", tmp_path / "top95.txt")
    monkeypatch.chdir(tmp_path)
    code = python_blocks(section("Python API"))[number]
    exec(compile(code, f"README.md (Python API, block {number + 1})", "exec"), {})
    assert (tmp_path / "r.jsonl").exists() or "r.jsonl" not in code
