"""The `cpsat` backend: Sudoku as an OR-Tools CP-SAT model.

Read it in this order:

- `model`: the two models written into CP-SAT's proto (a Boolean per cell and value with
  exactly-ones; an integer per cell with `AllDifferent`, and its implied row counts);
- `kept`: a model kept per grid shape (`BooleanModel`, `IntegerModel`), a puzzle posed on it;
- `search`: lex-min as the first solution of a fixed search, and why that is the lex-min; the
  single solve of `any`;
- `objective`: lex-min by a uniqueness probe and a staged exact objective, and why;
- `count`: counting completions up to a limit;
- `call`: the parameters and the watched CP-SAT call, one budget for a puzzle's calls;
- `backend`: `CpSatBackend`, its options and `auto` choices, set-up outside the clock.

ortools is imported only inside functions: choosing another backend never pays for loading it.
"""

from .backend import CpSatBackend
from .call import ortools_version

__all__ = ["CpSatBackend", "ortools_version"]
