"""The `minizinc` backend: the shipped MiniZinc model (`model.py`) run by any MiniZinc solver."""

from .model import data_text, model_text

__all__ = ["data_text", "model_text"]
