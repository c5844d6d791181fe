"""Parameter documentation shared by the estimators, so it is written once."""

PARAMS = {
    "eta": """eta : float, default=1.0
        Learning rate η (> 0): an update adds ``eta * y * x`` to the weights.""",
    "fit_intercept": """fit_intercept : bool, default=True
        Learn a bias ``b`` (updated as ``b += eta * y``, the same as a constant
        feature x₀ = 1 with its weight first). False: the boundary passes through 0.""",
    "max_iter": """max_iter : int, default=1000
        Largest number of epochs (Daumé's MaxIter); reaching it warns with
        ``ConvergenceWarning``.""",
    "shuffle": """shuffle : {"none", "once", "every_epoch"}, default="every_epoch"
        Row order (Daumé §4.2): as given, one random permutation kept for every
        epoch, or a new permutation each epoch.""",
    "init": """init : {"zeros", "uniform", "normal"} or array-like, default="zeros"
        Starting weights: zeros, one draw of ``rng.random(n_features + 1)``
        (U[0, 1)) or ``rng.standard_normal(...)``, bias first; or an array of that
        shape (bias first), or one row per class for one-vs-rest.""",
    "random_state": """random_state : None, int, RandomState or Generator, default=None
        Source of the random initial weights and permutations. A generator you
        pass is advanced in place, as in scikit-learn.""",
    "record": """record : bool, default=False
        Keep a :class:`~rosenblatt.Trace` of every update in ``trace_``.""",
    "class_weight": """class_weight : dict, "balanced" or None, default=None
        Multiplies the weight of each row by the weight of its class.""",
    "warm_start": """warm_start : bool, default=False
        Start ``fit`` from the weights of the previous fit instead of ``init``.""",
    "early_stopping": """early_stopping : bool, default=False
        Hold out a stratified ``validation_fraction`` of the rows and stop when
        their accuracy has not improved for ``n_iter_no_change`` epochs.""",
    "validation_fraction": """validation_fraction : float, default=0.1
        Share of rows held out for early stopping.""",
    "n_iter_no_change": """n_iter_no_change : int, default=5
        Epochs without improvement of the held-out accuracy before stopping.""",
    "n_jobs": """n_jobs : int or None, default=None
        Threads for one-vs-rest (one binary problem per thread); -1 for every
        core. Results do not depend on it.""",
}

ATTRIBUTES = """coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
        The weights.
    intercept_ : ndarray of shape (1,) or (n_classes,)
        The bias.
    classes_ : ndarray
        The labels, sorted; ``classes_[0]`` is coded -1 and ``classes_[1]`` +1.
    n_features_in_ : int
        Number of features seen in ``fit``.
    n_iter_ : int
        Epochs run (the largest over the one-vs-rest problems).
    n_updates_ : int
        Mistakes that changed the weights (summed over the problems).
    converged_ : bool
        Whether a pass without mistakes was reached (by every problem).
    trace_ : Trace, or tuple of Trace (one per class)
        With ``record=True`` only."""


def parameters(*names):
    """The Parameters entries for ``names``, indented for a class docstring."""
    return "\n    ".join(PARAMS[name] for name in names)


#: The Parameters entries of the rules that run epochs of the perceptron rule.
EPOCH_PARAMETERS = parameters(
    "eta", "fit_intercept", "max_iter", "shuffle", "init", "random_state", "record",
    "class_weight", "warm_start", "early_stopping", "validation_fraction",
    "n_iter_no_change", "n_jobs",
)
