"""The averaged perceptron, with Daumé's cached-weights trick."""

import numpy as np

from ..base import EpochPerceptron, OnlinePerceptronMixin
from ._params import ATTRIBUTES, EPOCH_PARAMETERS


class AveragedPerceptron(OnlinePerceptronMixin, EpochPerceptron):
    __doc__ = f"""Perceptron that predicts with the average of its weights over training.

    Training is the perceptron's (see :class:`Perceptron`): the running weights
    ``w, b`` decide the mistakes. ``coef_``/``intercept_`` are the mean of the
    weights after each of the ``T`` examples seen so far, over every epoch and
    ``partial_fit`` call (Daumé eq. 4.18): weights that survive long weigh more.

    The mean costs nothing on correct examples, by Daumé Alg. 7's cached
    weights: on a mistake at example number ``c`` (from 1), ``u += c η y x`` and
    ``β += c η y``; then the mean is ``w − (u − (w − w₀)) / T`` (and likewise for
    the bias), ``w₀`` the starting weights.

    Alg. 7 as printed returns ``w − u / c`` with ``c = T + 1``, which from a zero
    start is ``T / (T + 1)`` times our mean: the same predictions, scaled
    weights. We follow the convention of scikit-learn's
    ``SGDClassifier(loss="perceptron", learning_rate="constant", eta0=1,
    penalty=None, average=True)``, whose weights ours equal on dense data.

    Parameters
    ----------
    {EPOCH_PARAMETERS}

    Attributes
    ----------
    {ATTRIBUTES}
    n_examples_ : int
        ``T``, the examples the mean is over (the largest over the problems).

    Convergence (an epoch without a mistake) and the trace concern the running
    weights; early stopping scores the averaged ones.

    References
    ----------
    Daumé III, *A Course in Machine Learning*, §4.6, Alg. 7; Freund & Schapire,
    "Large margin classification using the perceptron algorithm", 1999.

    Examples
    --------
    >>> from rosenblatt import AveragedPerceptron
    >>> X, y = [[0, 0], [0, 1], [1, 0], [1, 1]], [-1, -1, -1, 1]
    >>> model = AveragedPerceptron(shuffle="none").fit(X, y)
    >>> model.n_examples_, model.intercept_.round(4).tolist(), model.coef_.round(4).tolist()
    (36, [-2.5556], [[2.0833, 1.3333]])
    """

    def _prepare_problem(self, problem):
        problem.extra.update(
            u=np.zeros_like(problem.coef), beta=np.zeros_like(problem.intercept),
            coef_start=problem.coef.copy(), intercept_start=problem.intercept.copy(),
        )

    def _cache(self, problem):
        return problem.extra["u"], problem.extra["beta"]

    def _published_weights(self, problem):
        coef, intercept = averaged_weights(problem)
        return coef, intercept[0]

    def _publish(self):
        self.n_examples_ = int(max(p.seen[0] for p in self._problems))
        super()._publish()


def averaged_weights(problem):
    """Mean of the weights after each example, from the running and cached weights.

    Works for a weight vector with its bias array (1,) and for a multiclass
    weight matrix with its bias vector alike.
    """
    seen = problem.seen[0]
    w, b = problem.coef, problem.intercept
    if seen == 0:
        return w.copy(), b.copy()
    extra = problem.extra
    coef = w - (extra["u"] - (w - extra["coef_start"])) / seen
    intercept = b - (extra["beta"] - (b - extra["intercept_start"])) / seen
    return coef, intercept
