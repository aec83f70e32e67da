"""The version of sudoku-cp: the one place it is written.

`pyproject.toml` reads it (`[tool.setuptools.dynamic]`), so the installed distribution's metadata
and `sudoku_cp.__version__` are always the same string.
"""

__version__ = "0.1.0"
