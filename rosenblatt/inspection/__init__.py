"""Pictures of perceptrons: Display objects in scikit-learn's style (decision
boundaries, learning curves, dependency trees), and animations."""

from ._animation import animate
from ._boundary import BoundaryDisplay, boundary_segment
from ._dependencies import DependencyTreeDisplay
from ._curves import EpochCurveDisplay, LossDisplay, models_per_epoch
from ._player import TracePlayer
from ._regions import RegionsDisplay

__all__ = [
    "BoundaryDisplay", "DependencyTreeDisplay", "EpochCurveDisplay", "LossDisplay", "RegionsDisplay", "TracePlayer",
    "animate", "boundary_segment", "models_per_epoch",
]
