"""Online passive-aggressive learning (Crammer, Dekel, Keshet, Shalev-Shwartz & Singer 2006)."""


from sklearn.utils._param_validation import StrOptions

from .. import _kernels
from ..base import (
    LinearLearner,
    LinearModel,
    MistakeStop,
    OnlineMixin,
    PerceptronClassifier,
    constraints,
)
from ..base._parameters import RealNumber
from ..base._registry import register
from ._averaged import Averaging
from ._online import OnlineRule


class PassiveAggressiveLearner(OnlineRule, MistakeStop, LinearLearner):
    """The passive-aggressive rule: the online epoch with the step τ."""

    _advice = "increase max_iter, or set tol (e.g. 1e-3) to stop once the updates stop falling"

    def _learning_rate(self):
        return 1.0  # τ is the whole step

    def _rule(self):
        return _kernels.Residual(self.variant, C=self.C)

    def _new_state(self, coef, intercept):
        if self.average:
            return Averaging.start(coef, intercept)
        return super()._new_state(coef, intercept)

    # PA's "mistake" is its update condition, a margin y·a below 1: its mistake-free
    # epoch has every example at a margin of at least 1 (MistakeStop)

    def _confirms_on_weights(self, problem):
        # the mean separates some epochs after the running weights; and PA skips a row
        # x = 0 (no direction to step in), which an epoch without an update leaves wrong
        return True

    def _separable_data_converge(self, problem):
        # each update reaches a margin of exactly 1 on its row, and rounding leaves some
        # rows a hair below it: on separable rows the margins approach 1 without an epoch
        # free of updates (Kowalczyk's points: none in 1,000 epochs), so the stall decides
        return False


@register("passive_aggressive", "passive-aggressive")
class PassiveAggressiveClassifier(OnlineMixin, LinearModel, PerceptronClassifier):
    """Passive-aggressive classifier: the smallest step that fixes each example.

    The online loop of :class:`Perceptron` with another step. For a row ``x``
    with label ``y`` (±1) and activation ``a = w·x + b``, the hinge loss is
    ``ℓ = max(0, 1 − y a)``. An example with ``ℓ = 0`` leaves the weights alone
    (passive); otherwise ``w += τ y x`` and ``b += τ y`` (aggressive), with

    - ``"pa"``: ``τ = ℓ / ‖x‖²``, just enough to reach a margin of 1 on ``x``
      (the bias moves by the same step, its feature not counted in ``‖x‖²``);
    - ``"pa1"``: ``τ = min(C, ℓ / ‖x‖²)``, the step capped at ``C``;
    - ``"pa2"``: ``τ = ℓ / (‖x‖² + 1/(2C))``.

    Sample and class weights multiply ``τ``. A row ``x = 0`` gives PA and PA-I
    no direction: it is skipped, as if absent (as in scikit-learn).

    With ``shuffle="none"`` and ``tol=None`` it equals scikit-learn's
    ``SGDClassifier(loss="hinge", penalty=None, learning_rate="pa1"`` (or
    ``"pa2"``) ``, eta0=C, shuffle=False, tol=None)``, with ``average`` too, on
    dense data (scikit-learn's sparse path shrinks the intercept step; ours
    treats CSR exactly as dense). scikit-learn 1.8 deprecated its own
    ``PassiveAggressiveClassifier``; this one keeps its defaults (``C=1.0``,
    ``tol=1e-3``) and adds the plain ``"pa"`` rule of the paper.

    Probabilities: none; its scores are the margins of a hinge-loss rule, which
    models no probability. For probabilities, calibrate its scores with
    :class:`sklearn.calibration.CalibratedClassifierCV`.

    Parameters
    ----------
    C : float, default=1.0
        Aggressiveness (> 0) of ``"pa1"`` (the largest step) and ``"pa2"`` (the
        smaller ``C``, the smaller the steps: use a small ``C`` on noisy data).
        Not used by ``"pa"``.
    variant : {"pa", "pa1", "pa2"}, default="pa1"
        The step rule (Crammer et al. 2006, Fig. 1: PA, PA-I, PA-II).
    average : bool, default=False
        Predict with the mean of the weights after every example (as
        :class:`AveragedPerceptron` does), instead of the last weights.
    fit_intercept : bool, default=True
        Learn a bias ``b``. False: the boundary passes through 0.
    max_iter : int, default=1000
        Largest number of epochs; reaching it warns with ``ConvergenceWarning``.
    tol : float or None, default=1e-3
        Stop once the epoch's updates (rows with a hinge loss, margin below 1)
        have not fallen below the fewest so far by ``tol × n_samples`` for
        ``n_iter_no_change`` epochs in a row (:mod:`rosenblatt.base._stopping`;
        scikit-learn watches the hinge loss instead). ``None``: stop only after
        an epoch in which no example had a loss. PA's updates bring a row to a
        margin of 1 exactly, and rounding leaves some a hair below it, so on
        separable data an epoch without an update may never come: unlike the
        perceptron's, PA's stall is not checked against the rows' separability.
    shuffle : {"none", "once", "every_epoch"}, default="every_epoch"
        Row order (Daumé §4.2): as given, one random permutation kept for every
        epoch, or a new permutation each epoch.
    init : {"zeros", "uniform", "normal"} or array-like, default="zeros"
        Starting weights: zeros, one draw of ``rng.random(n_features + 1)``
        (U[0, 1)) or ``rng.standard_normal(...)``, bias first; or an array of that
        shape (bias first), or one row per class for one-vs-rest.
    random_state : None, int, RandomState or Generator, default=None
        Source of the random initial weights and permutations. A generator you
        pass is advanced in place, as in scikit-learn.
    class_weight : dict, "balanced" or None, default=None
        Multiplies the weight of each row by the weight of its class.
    warm_start : bool, default=False
        Start ``fit`` from the weights of the previous fit instead of ``init``.
    early_stopping : bool, default=False
        Hold out a stratified ``validation_fraction`` of the rows and stop when
        their accuracy has not improved (by ``tol``, when set) for
        ``n_iter_no_change`` epochs.
    validation_fraction : float, default=0.1
        Share of rows held out for early stopping.
    n_iter_no_change : int, default=5
        Epochs without improvement before stopping: of the held-out accuracy
        with ``early_stopping``, else of the epoch's training mistakes when ``tol`` is set.
    n_jobs : int or None, default=None
        Threads for one-vs-rest (one binary problem per thread); -1 for every
        core. Results do not depend on it.
    weights_dtype : {"float64", "float32"}, default="float64"
        What the running weights are stored in during training. ``"float32"``
        halves their memory and the memory traffic of every epoch on wide sparse
        data; each dot product and update is still computed in float64, and only
        rounded to float32 when stored (1e-7 relative), so the weights drift from
        float64 training: 1e-6 to 1e-5 of the largest weight after 5 epochs on
        a9a with random values, none with integer steps on 0/1 data, and a step
        that lands on a mistake's threshold can go the other way. The averaging
        sums stay float64; ``coef_`` is float64 either way.

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
        The weights (their mean over training with ``average=True``).
    intercept_ : ndarray of shape (1,) or (n_classes,)
        The bias.
    classes_ : ndarray
        The labels, sorted; ``classes_[0]`` is coded -1 and ``classes_[1]`` +1.
    n_features_in_ : int
        Number of features seen in ``fit``.
    n_iter_ : int
        Epochs run (the largest over the one-vs-rest problems).
    n_updates_ : int
        Aggressive steps taken (summed over the problems).
    converged_ : bool
        Whether the last epoch made no mistake (for every problem);
        never ``True`` otherwise: a stop by ``tol`` is not convergence.
    stop_reason_ : str
        Why training ended: ``"mistake_free"``, ``"tol"`` (the mistakes stopped
        falling), ``"early_stopping"``, ``"max_iter"`` (with a
        ``ConvergenceWarning``), or ``"partial_fit"`` after a ``partial_fit``
        call; for one-vs-rest, the reason of the problem that ran longest.

    References
    ----------
    K. Crammer, O. Dekel, J. Keshet, S. Shalev-Shwartz and Y. Singer, "Online
    passive-aggressive algorithms", JMLR 7, 2006.

    Examples
    --------
    The AND data: after 7 epochs of the plain PA rule every example lies at a
    margin ``y a`` of at least 1 (the row ``(0, 0)`` has no direction and is skipped).

    >>> from rosenblatt import PassiveAggressiveClassifier
    >>> X, y = [[0, 0], [0, 1], [1, 0], [1, 1]], [-1, -1, -1, 1]
    >>> model = PassiveAggressiveClassifier(variant="pa", tol=None, shuffle="none").fit(X, y)
    >>> model.n_iter_, model.coef_.tolist(), (model.decision_function(X) * y).tolist()
    (7, [[2.421875, 2.359375]], [3.765625, 1.40625, 1.34375, 1.015625])
    """

    _PARAMETERS = ("C", "variant", "average", "fit_intercept", "max_iter", "tol", "shuffle",
                   "init", "random_state", "class_weight", "warm_start", "early_stopping",
                   "validation_fraction", "n_iter_no_change", "n_jobs", "weights_dtype")
    _parameter_constraints = constraints(
        _PARAMETERS,
        C=[RealNumber(0, None, closed="neither")],
        variant=[StrOptions({"pa", "pa1", "pa2"})],
    )

    def __init__(
        self,
        *,
        C=1.0,
        variant="pa1",
        average=False,
        fit_intercept=True,
        max_iter=1000,
        tol=1e-3,
        shuffle="every_epoch",
        init="zeros",
        random_state=None,
        class_weight=None,
        warm_start=False,
        early_stopping=False,
        validation_fraction=0.1,
        n_iter_no_change=5,
        n_jobs=None,
        weights_dtype="float64",
    ):
        self.C = C
        self.variant = variant
        self.average = average
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol
        self.shuffle = shuffle
        self.init = init
        self.random_state = random_state
        self.class_weight = class_weight
        self.warm_start = warm_start
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.n_jobs = n_jobs
        self.weights_dtype = weights_dtype

    _learner_class = PassiveAggressiveLearner
