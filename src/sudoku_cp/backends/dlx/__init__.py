"""The `dlx` backend: Knuth's Algorithm X with dancing links, in pure Python.

- `links`: Sudoku as exact cover, the dancing links as arrays of ints, and the search, with the
  proof that the row-major search's first completion is the lex-min (`Links.choose_rowmajor`);
- `backend`: `DlxBackend`, the option `lexmin=auto|rowmajor|tightening`, and the tightening
  oracle on the links.

    from sudoku_cp.backends.dlx import DlxBackend
    DlxBackend(lexmin="rowmajor").solve(grid)
"""

from .backend import DlxBackend

__all__ = ["DlxBackend"]
