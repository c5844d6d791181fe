"""The perceptron estimators, one private module per learning rule."""

from ._batch import BatchPerceptron
from ._perceptron import Perceptron
from ._pla import PLA
from ._pocket import PocketPerceptron

__all__ = ["BatchPerceptron", "PLA", "Perceptron", "PocketPerceptron"]
