"""The pocket algorithm: the perceptron that keeps its best weights so far."""

import numpy as np

from .. import _kernels
from ..base import EpochPerceptron
from ._params import ATTRIBUTES, EPOCH_PARAMETERS


class PocketPerceptron(EpochPerceptron):
    __doc__ = f"""Perceptron that returns the weights with the fewest training mistakes seen.

    The running weights follow the perceptron rule exactly (see
    :class:`Perceptron`). After every update the (weighted) number of training
    mistakes of the new weights is counted, and the weights go "in the pocket"
    when they make strictly fewer mistakes than the pocketed ones; the starting
    weights are the first pocket. ``coef_``/``intercept_`` are the pocketed
    weights. This answers Ahmed & Pavlu §3's wish for the decision boundary with
    the minimum number of misclassifications when the data are not separable.

    Each count is a pass over the data, so an epoch costs up to
    ``n_updates × n_samples`` row products; the count stops as soon as it
    reaches the pocket's, which makes most of them short. Not online: the
    mistakes are counted on the whole training set, so there is no ``partial_fit``.

    Parameters
    ----------
    {EPOCH_PARAMETERS}

    Attributes
    ----------
    {ATTRIBUTES}
    pocket_errors_ : ndarray of shape (1,) or (n_classes,)
        Weighted training mistakes of the pocketed weights of each problem.

    References
    ----------
    Gallant, "Perceptron-based learning algorithms", IEEE Trans. Neural
    Networks 1(2), 1990; Ahmed & Pavlu, lecture notes, §3.

    Examples
    --------
    XOR is not separable: the best a line can do is one mistake in four.

    >>> from rosenblatt import PocketPerceptron
    >>> X, y = [[0, 0], [0, 1], [1, 0], [1, 1]], [0, 1, 1, 0]
    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")  # XOR never converges: expected here
    ...     model = PocketPerceptron(init="uniform", max_iter=20, random_state=0).fit(X, y)
    >>> model.pocket_errors_.tolist(), model.score(X, y)
    ([1.0], 0.75)
    """

    _advice = "the weights with the fewest training mistakes seen are returned " \
        "(pocket_errors_); increase max_iter to search longer"

    def _prepare_problem(self, problem):
        problem.extra.update(
            coef=problem.coef.copy(), intercept=problem.intercept.copy(), errors=None
        )

    def _pocket(self, problem, Xk, y, sw):
        pocket = problem.extra
        if pocket["errors"] is None:  # first epoch: count the starting weights' mistakes
            start_errors = _kernels.weighted_errors(
                Xk, y, sw, pocket["coef"], pocket["intercept"][0], np.inf
            )
            pocket["errors"] = np.array([start_errors])
        return pocket["coef"], pocket["intercept"], pocket["errors"]

    def _published_weights(self, problem):
        return problem.extra["coef"], problem.extra["intercept"][0]

    def _publish(self):
        self.pocket_errors_ = np.array([p.extra["errors"][0] for p in self._problems])
        super()._publish()
