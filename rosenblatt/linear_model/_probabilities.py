"""Probabilities, where the model defines them.

A rule of the family gives ``predict_proba`` only where its own model is a
probability of the label, not a score squashed after the fact:

- :class:`~rosenblatt.linear_model.OnlineGradientDescent` with ``loss="logistic"``
  follows the gradient of ``log(1 + exp(−y f))``, the negative log-likelihood of
  the logistic model ``P(y = +1 | x) = σ(f)``, ``f = w·x + b``
  (:class:`LogisticProbabilities`); its other losses model no probability.
- The confidence-weighted family (CW, AROW, NAROW, NHERD, SCW) keeps a Gaussian
  over weight vectors, ``w ~ N(μ, Σ)``. The score of a row ``x̃`` (``x`` with the
  constant 1 of the intercept appended) is then normal, with mean ``M = μ·x̃``
  and variance ``V = x̃ᵀΣx̃``, and ``P(y = +1 | x) = P(w·x̃ > 0) = Φ(M / √V)``:
  the probability whose lower bound ``η`` CW's constraint enforces (Crammer,
  Dredze & Pereira, NIPS 2008) (:class:`GaussianProbabilities`). With ``V = 0``
  (a row of zeros without intercept, or a direction where ``Σ`` has shrunk to
  nothing) the score is certain: the probability is 1, 0 or ½ as ``M`` is
  positive, negative or 0.

``Σ`` is read from the fitted attributes (``covariance_`` and
``intercept_covariance_``, the bias's entries), never from the training state:
so a model loaded from a file, or trained by
:class:`~rosenblatt.distributed.ParameterMixing` (whose estimator publishes the
mixed ``Σ``), gives the same probabilities as the model in memory. The published
``Σ`` is the actual one: the kernel keeps a factor aside during an epoch only for
IELLIP (folded in by ``second_order_unscale`` at the epoch's end, before
publishing), and IELLIP has no probabilities.

One-vs-rest (three or more classes) does as scikit-learn's linear classifiers
(``LinearClassifierMixin._predict_proba_lr``): each class's binary probability
``p_k`` of "this class against the rest", normalised, ``p_k / Σ_j p_j``. The
normalisation is done on the logarithms (``log p_k − logsumexp_j log p_j``), so
that rows where every ``p_k`` underflows still get their ratios instead of 0/0.
``predict_log_proba`` is computed from ``log σ`` and ``log Φ``
(:func:`scipy.special.log_expit`, :func:`scipy.special.log_ndtr`) and never
rounds a small probability to ``log 0``; ``predict_proba`` is its exponential.

``argmax predict_proba`` is ``predict``'s class for two classes (``p > ½``
exactly when the score is positive; a score of exactly 0 gives ½ and the first
class, as ``predict`` does) and, for one-vs-rest logistic models, up to ties:
``σ`` is increasing, but rounds scores above about 37 to 1. For the Gaussian
models with three or more classes it is not ``predict``'s class in general:
``predict`` takes the largest mean score ``M_k``, the probabilities rank classes
by ``M_k / √V_k``, which also weighs how sure each class's model is.

The other rules have no probability model: their scores are margins (or, for
the second-order perceptron and IELLIP, a matrix that is not a distribution of
weight vectors). Calibrate them with
:class:`sklearn.calibration.CalibratedClassifierCV` (:data:`CALIBRATE`).
"""

import threading

import numpy as np
import scipy.sparse as sp
from scipy.special import log_expit, log_ndtr, logsumexp
from sklearn.utils.metaestimators import available_if
from sklearn.utils.validation import check_is_fitted

from .._kernels._variance import row_variances, row_variances_parallel
from .._validation import check_scores, kernel_view, validate_X
from ..base._linear import PARALLEL_SCORING_CELLS, _linear_scores

#: the advice every model without probabilities gives
CALIBRATE = ("For probabilities, calibrate its decision_function with "
             "sklearn.calibration.CalibratedClassifierCV(model), which fits a sigmoid "
             "(Platt) or isotonic map on held-out folds.")

#: rows of a dense block whose product with a full Σ is at most this many values
_BLOCK_VALUES = 1 << 22


def log_probabilities(scores, log_cdf):
    """Log-probabilities of the classes from standardised scores.

    ``scores`` is ``(n,)`` for two classes (``log_cdf(−s), log_cdf(s)``: the link
    is symmetric, ``F(−s) = 1 − F(s)``) or ``(n, K)`` for one-vs-rest (each
    class's ``log F(s_k)``, normalised so that the probabilities sum to 1; a row
    where every class's probability is 0, which needs scores of −inf, gets
    ``1/K`` each).

    >>> from scipy.special import log_ndtr
    >>> np.exp(log_probabilities(np.array([0.0, 1.0]), log_ndtr)).round(4).tolist()
    [[0.5, 0.5], [0.1587, 0.8413]]
    >>> np.exp(log_probabilities(np.array([[-38.0, -38.05, -50.0]]), log_ndtr)).round(4).tolist()
    [[0.8702, 0.1298, 0.0]]
    """
    if scores.ndim == 1:
        return np.column_stack([log_cdf(-scores), log_cdf(scores)])
    log_p = log_cdf(scores)
    with np.errstate(invalid="ignore"):  # -inf - (-inf) on rows of zeros, replaced below
        total = logsumexp(log_p, axis=1, keepdims=True)
        out = log_p - total
    empty = np.isneginf(total[:, 0])
    out[empty] = -np.log(scores.shape[1])
    return out


# ------------------------------------------------------------- logistic loss


def _models_a_probability(model):
    """Whether ``model`` has a logistic loss (OnlineGradientDescent's ``loss``;
    a model without that parameter, FTRLProximal, always has); an
    ``AttributeError`` saying why not (``available_if`` keeps it as the cause)."""
    if getattr(model, "loss", "logistic") == "logistic":
        return True
    raise AttributeError(
        f"{type(model).__name__}(loss={model.loss!r}) has no predict_proba: only "
        "loss='logistic' fits a probability model, P(y=+1|x) = 1/(1 + exp(-(w.x + b))); "
        f"the {model.loss} loss's scores are margins, not log-odds. Fit with "
        f"loss='logistic', or calibrate this model's decision_function with "
        "sklearn.calibration.CalibratedClassifierCV(model)."
    )


class LogisticProbabilities:
    """Estimator mixin: ``σ(w·x + b)`` for a model trained on the logistic loss
    (only then: the methods are absent otherwise, as scikit-learn's
    ``SGDClassifier`` does, so ``hasattr(model, "predict_proba")`` tells)."""

    @available_if(_models_a_probability)
    def predict_proba(self, X):
        """Probability of each class: ``σ(w·x + b)`` for ``classes_[1]`` (two
        classes), or each class's one-vs-rest ``σ`` normalised to sum to 1.

        Parameters
        ----------
        X : array-like or CSR matrix of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes), in the order of ``classes_``

        Examples
        --------
        >>> from rosenblatt.linear_model import OnlineGradientDescent
        >>> X, y = [[2, 1], [1, 3], [-1, -1], [-2, 1]], [1, 1, -1, -1]
        >>> model = OnlineGradientDescent(loss="logistic", shuffle="none").fit(X, y)
        >>> model.predict_proba([[1, 1], [0, 0]]).round(4).tolist()
        [[0.0787, 0.9213], [0.4497, 0.5503]]
        >>> hasattr(OnlineGradientDescent(loss="hinge"), "predict_proba")
        False
        """
        return np.exp(self.predict_log_proba(X))

    @available_if(_models_a_probability)
    def predict_log_proba(self, X):
        """Logarithm of :meth:`predict_proba`, computed as ``log σ`` (exact where
        ``predict_proba`` rounds to 0 or 1).

        Parameters
        ----------
        X : array-like or CSR matrix of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        return log_probabilities(self.decision_function(X), log_expit)


# ------------------------------------------------------------ Gaussian model


class GaussianProbabilities:
    """Estimator mixin: ``Φ(M / √V)`` from the Gaussian ``N(μ, Σ)`` over weight
    vectors that a confidence-weighted rule keeps (``coef_``, ``intercept_``,
    ``covariance_`` and ``intercept_covariance_``)."""

    def predict_proba(self, X):
        """Probability of each class under the Gaussian over weight vectors:
        ``Φ(M / √V)`` for ``classes_[1]`` (two classes), with ``M = μ·x̃`` and
        ``V = x̃ᵀΣx̃``; for one-vs-rest, each class's ``Φ`` normalised to sum to 1.

        Parameters
        ----------
        X : array-like or CSR matrix of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes), in the order of ``classes_``

        Examples
        --------
        >>> from rosenblatt.linear_model import AROW
        >>> X, y = [[0, 0], [0, 1], [1, 0], [1, 1]], [-1, -1, -1, 1]
        >>> model = AROW(shuffle="none").fit(X, y)
        >>> model.decision_function([[1, 1], [3, 3], [0, 0]]).round(4).tolist()
        [0.2069, 2.6897, -1.0345]
        >>> model.predict_proba([[1, 1], [3, 3], [0, 0]]).round(4).tolist()
        [[0.3246, 0.6754], [0.0592, 0.9408], [0.9936, 0.0064]]
        """
        return np.exp(self.predict_log_proba(X))

    def predict_log_proba(self, X):
        """Logarithm of :meth:`predict_proba`, computed as ``log Φ``
        (:func:`scipy.special.log_ndtr`: exact where ``predict_proba`` rounds to 0
        or 1).

        Parameters
        ----------
        X : array-like or CSR matrix of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        check_is_fitted(self)
        X = validate_X(self, X, reset=False)
        margins = check_scores(_linear_scores(X, self.coef_, self.intercept_), X)
        variances = check_scores(score_variances(self, X), X)
        scores = standardised(margins, variances)
        return log_probabilities(scores.ravel() if scores.shape[1] == 1 else scores, log_ndtr)


def standardised(margins, variances):
    """``M / √V``; where ``V <= 0`` (no uncertainty left, or a rounding below 0),
    ``+inf``, ``−inf`` or 0 as ``M`` is positive, negative or 0.

    >>> standardised(np.array([3.0, 3.0, -1.0, 0.0]), np.array([4.0, 0.0, 0.0, 0.0])).tolist()
    [1.5, inf, -inf, 0.0]
    """
    certain = variances <= 0.0
    with np.errstate(divide="ignore", invalid="ignore"):
        scores = margins / np.sqrt(np.where(certain, 1.0, variances))
    if certain.any():
        sure = np.where(margins > 0.0, np.inf, np.where(margins < 0.0, -np.inf, 0.0))
        scores = np.where(certain, sure, scores)
    return scores


def gaussian_parts(model):
    """``Σ`` of each problem in the three parts the variance kernel takes: the
    features' block ``(K, d)`` or ``(K, d, d)``, the bias's covariances with the
    features ``(K, d)`` (``(K, 0)`` for the diagonal form, which has none) and
    the bias's variance ``(K,)``: from ``covariance_`` and
    ``intercept_covariance_``, which is all a model file holds."""
    n_problems = len(model.intercept_)
    stacked = n_problems > 1
    cov = np.asarray(model.covariance_, dtype=np.float64)
    cov = cov if stacked else cov[np.newaxis]
    d = cov.shape[1]
    bias_row = getattr(model, "intercept_covariance_", None)
    if bias_row is None:
        if model.fit_intercept:
            raise ValueError(
                f"This {type(model).__name__} has no intercept_covariance_, the bias's "
                "entries of the covariance Σ that predict_proba needs with "
                "fit_intercept=True: it was read from a model file written before "
                "rosenblatt stored them. Fit the model again (and save it again) to get "
                "probabilities; predict and decision_function work as they are."
            )
        full = cov.ndim == 3
        bias_row = np.zeros((n_problems, d + 1) if full else (n_problems,))
    bias_row = np.asarray(bias_row, dtype=np.float64)
    if cov.ndim == 3:
        return cov, np.ascontiguousarray(bias_row[:, :d]), np.ascontiguousarray(bias_row[:, d])
    return cov, np.empty((n_problems, 0)), bias_row


def score_variances(model, X):
    """``V = x̃ᵀΣx̃`` (n_samples, n_problems) of every row of ``X`` (checked)."""
    cov, cross, bias = gaussian_parts(model)
    if cov.ndim == 3 and not sp.issparse(X):
        return _dense_full_variances(X, cov, cross, bias)
    cells = (X.nnz if sp.issparse(X) else X.size) * len(bias)
    parallel = cells >= PARALLEL_SCORING_CELLS and \
        threading.current_thread() is threading.main_thread()
    kernel = row_variances_parallel if parallel else row_variances
    return kernel(kernel_view(X), cov, cross, bias)


def _dense_full_variances(X, cov, cross, bias):
    """``V`` of dense rows with a full ``Σ``: ``Σ_j (XΣ)_ij X_ij + 2 X c + b``, by
    blocks of rows (BLAS's matrix product; the block's ``XΣ`` stays small)."""
    n, d = X.shape
    out = np.empty((n, len(bias)))
    step = max(1, _BLOCK_VALUES // max(d, 1))
    for start in range(0, n, step):
        block = X[start:start + step].astype(np.float64, copy=False)
        for k in range(len(bias)):
            out[start:start + step, k] = np.einsum("ij,ij->i", block @ cov[k], block) + \
                2.0 * (block @ cross[k]) + bias[k]
    return out
