"""CISC 271's step function, with the value at 0 the text leaves open.

CISC 271 writes the perceptron with labels coded 0/1 as ``q = H(w·x + b)`` and
``w += η (y − q) x``, ``H`` the Heaviside step. The text does not say what
``H(0)`` is: MATLAB's ``heaviside(0)`` is 0.5, other courses take 1, and
``numpy.heaviside(a, h0)`` asks. rosenblatt's default (``h0=None``) is Daumé's
``y a <= 0``: a point on the boundary is a mistake for either class. With
``h0`` in {0, 0.5, 1} the rule is the text's with that ``H(0)``.
"""


import numpy as np

from .. import _kernels
from ..base._parameters import RealNumber

#: the ``h0`` parameter's constraint
H0_CONSTRAINT = [RealNumber(0, 1, closed="both"), None]


class StepFunction:
    """Learner mixin: the ``h0`` parameter for the perceptron's rules."""

    def _rule(self):
        """The kernel's rule: the perceptron's (with its margin, if it has one), or
        the text's step function with ``H(0) = h0``."""
        margin = getattr(self, "margin", 0.0)  # BatchPerceptron has none
        if self.h0 is None:
            return _kernels.Residual("perceptron", margin=margin)
        if margin != 0:
            raise ValueError(
                f"h0 chooses H(0), the step function's value on the boundary, and margin="
                f"{margin} moves the threshold off it: set one of them, not both."
            )
        return _kernels.Residual("heaviside", h0=self.h0)

    def _residuals(self, data, rows, activations):
        """``e = y − H(a)`` in the 0/1 coding for each logged update (the label
        itself, ±1, for the perceptron's rule)."""
        if self.h0 is None:
            return data.y[rows]
        target = (data.y[rows] > 0).astype(np.float64)
        output = np.where(activations > 0, 1.0, np.where(activations < 0, 0.0, self.h0))
        return target - output

    def _new_recorder(self, coef, intercept, classes):
        recorder = super()._new_recorder(coef, intercept, classes)
        if recorder is not None:
            recorder.h0 = self.h0
        return recorder
