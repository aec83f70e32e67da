"""The `minizinc` backend: the shipped MiniZinc model (`model.py`) run by any MiniZinc solver
(`backend.py`)."""

from .backend import MiniZincBackend, solver_names
from .model import data_text, model_text

__all__ = ["MiniZincBackend", "data_text", "model_text", "solver_names"]
