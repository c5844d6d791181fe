"""Data sets of the texts: truth tables, the random target line, the *SVM Succinctly* toy set."""

from ._generators import make_boolean, make_target_line
from ._textbook import load_svm_succinctly

__all__ = ["load_svm_succinctly", "make_boolean", "make_target_line"]
