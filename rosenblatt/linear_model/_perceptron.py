"""The perceptron of Rosenblatt, online and cyclic.

Ahmed & Pavlu Alg. 1 and Daumé Alg. 5; the "missed" flag loop of CISC 271 §30.1
is the same algorithm (one epoch without a miss ends training).
"""

from ..base import EpochPerceptron, OnlinePerceptronMixin
from ._params import ATTRIBUTES, EPOCH_PARAMETERS


class Perceptron(OnlinePerceptronMixin, EpochPerceptron):
    __doc__ = f"""The classic perceptron: an update on every mistake, epoch after epoch.

    For each row in turn, ``a = w·x + b``; if ``y a <= 0`` (Daumé stresses ≤: a
    point on the boundary is a mistake) then ``w += eta y x`` and ``b += eta y``.
    Training stops after the first epoch without a mistake, or after
    ``max_iter`` epochs with a ``ConvergenceWarning``.

    Labels may be any two values, mapped to -1/+1 in the sorted order of
    ``classes_``; with labels {{0, 1}} the trace reports CISC 271's quantisation
    ``q`` and residual ``e = y - q``, and ``w += e x`` is this same update.
    Three or more classes are learned one-vs-rest.

    Parameters
    ----------
    {EPOCH_PARAMETERS}

    Attributes
    ----------
    {ATTRIBUTES}

    Notes
    -----
    With ``shuffle="none"``, zero start and ``eta=1`` it equals scikit-learn's
    ``Perceptron(shuffle=False, tol=None)`` on dense data (scikit-learn's
    sparse path shrinks the intercept step; ours treats CSR exactly as dense).

    References
    ----------
    Rosenblatt (1958); Ahmed & Pavlu, lecture notes, Alg. 1; Daumé III,
    *A Course in Machine Learning*, ch. 4, Alg. 5.

    Examples
    --------
    Ahmed & Pavlu's AND example: converged weights [-4, 3, 2] (bias first), the
    first mistake-free epoch is the 9th.

    >>> from rosenblatt import Perceptron
    >>> X, y = [[0, 0], [0, 1], [1, 0], [1, 1]], [-1, -1, -1, 1]
    >>> model = Perceptron(shuffle="none").fit(X, y)
    >>> model.intercept_.tolist(), model.coef_.tolist(), model.n_iter_
    ([-4.0], [[3.0, 2.0]], 9)
    """
