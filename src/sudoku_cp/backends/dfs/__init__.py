"""The `dfs` backend: pure-Python depth-first search on candidate bitmasks.

Every cell holds a bitmask of its remaining candidates (bit v-1 for value v). The modules, in
reading order:

- `tables`: the shape's geometry flattened into tuples of ints for the inner loops;
- `singles`: naked and hidden singles, scanned (`singles`) and bit-parallel (`settle`);
- `strong`: the strong level's extra rules, locked candidates and all-different consistency
  (Régin's matching rule);
- `propagation`: `Propagation`, the rules of one puzzle at its level, to a fixpoint;
- `lookahead`: the strong level's look-ahead on binary choices, which also picks the branch;
- `mrv`: `MrvSearch`, every completion by MRV search (any, count, the lex-min's oracle);
- `rowmajor`: `RowMajorSearch`, the lex-min, with the proof that its first completion is it;
- `backend`: `DfsBackend`, the option `lexmin=auto|singles|strong` (strong from 16x16 on).

    from sudoku_cp.backends.dfs import DfsBackend
    DfsBackend(lexmin="strong").solve(grid)
"""

from .backend import DfsBackend

__all__ = ["DfsBackend"]
