"""``ParameterMixing``: the perceptron family trained on shards, by iterative parameter mixing."""

import time
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, MetaEstimatorMixin, clone
from sklearn.utils._param_validation import HasMethods, Interval, StrOptions
from sklearn.utils.validation import _check_sample_weight, check_is_fitted

from .._validation import check_classes, check_random_state, class_weights, validate_X_y
from ..base import ToleranceStop, warn
from ..base._parameters import WholeNumber
from ..linear_model import (
    PLA,
    AveragedPerceptron,
    BatchPerceptron,
    KernelPerceptron,
    LinearUnit,
    MulticlassPerceptron,
    Perceptron,
    PocketPerceptron,
    VotedPerceptron,
)
from ..linear_model._linear_unit import LossHistory, largest_eigenvalue
from ._backends import backend_for
from ._inputs import (
    is_dask_collection,
    is_file_list,
    plan_arrays,
    plan_dask,
    plan_files,
)
from ._shards import (
    Rule,
    class_counts,
    gram_part,
    largest_scaled_norm,
    shard_epoch,
    shard_train_alone,
    with_held_out,
)

#: Why an estimator cannot be trained by mixing, and what to use instead.
_REFUSED = {
    PLA: "PLA re-classifies every point before each update, which needs all the rows in one "
         "place; use Perceptron (the same rule, epoch by epoch)",
    VotedPerceptron: "its vote keeps every weight vector met in order, which mixing has no "
                     "counterpart for; use AveragedPerceptron (the vote's usual stand-in)",
    KernelPerceptron: "its dual form keeps support vectors of every shard and has no weight "
                      "vector to mix; use Perceptron or AveragedPerceptron on explicit "
                      "features (e.g. rosenblatt.preprocessing.degree2_products)",
    PocketPerceptron: "its pocket is judged by the mistakes over all the training rows; use "
                      "AveragedPerceptron, which also tames inseparable data",
}


class ParameterMixing(MetaEstimatorMixin, ClassifierMixin, BaseEstimator):
    """Train a perceptron on shards of the rows, on threads or a Dask cluster,
    by iterative parameter mixing.

    Each epoch, every shard runs one epoch of the estimator's rule from the same
    mixed weights, and the driver mixes the shards' weights: ``w ← Σᵢ μᵢ wᵢ``
    (McDonald, Hall & Mann 2010, Alg. 2). On data separable with margin γ, the
    mistakes weighted by μ stay below the perceptron's bound,
    ``Σₙ Σᵢ μᵢₙ kᵢₙ ≤ (R/γ)²`` (their Theorem 3; ``mixed_mistakes_``), and with
    ``mixing="errors"`` the number of epochs does too. With one shard it is the
    estimator itself.

    ``AveragedPerceptron`` (and ``MulticlassPerceptron(average=True)``) mix the
    running weights, which the theorem is about, and publish the mean of every
    running weight vector any shard held after each example: each shard-epoch
    returns the sum of its weights after each row (Daumé Alg. 7 restarted from the
    mixed weights), and ``coef_`` is the sum over shards and epochs divided by the
    examples. ``BatchPerceptron`` and ``LinearUnit(solver="batch")`` need no
    mixing: each shard returns its part of the step's sum, the driver adds the
    parts in shard order, and the result is the serial step's (exactly, up to the
    order of a floating-point sum). One-vs-rest problems are mixed per class, in
    one task per shard.

    ``strategy="one_shot"`` trains every shard alone to convergence and mixes once
    (their Alg. 1): it can fail to separate separable data (their Theorem 2);
    kept for comparison.

    Parameters
    ----------
    estimator : estimator
        ``Perceptron``, ``AveragedPerceptron``, ``MulticlassPerceptron``,
        ``LinearUnit``, or ``BatchPerceptron``, not fitted. Its parameters set the
        rule (``eta``, ``fit_intercept``, ``shuffle``, ``init``, ``class_weight``,
        ``max_iter``, ``tol``); its own early stopping is not used (see
        ``early_stopping`` here).
    n_shards : int or None, default=None
        Shards of the rows. ``None``: the Dask cluster's worker threads, or this
        machine's cores. The result depends on it, not on the number of workers.
    mixing : {"uniform", "errors"}, default="uniform"
        ``μᵢ = 1/S``, or proportional to the shard's mistakes in the epoch
        (uniform when no shard erred).
    strategy : {"iterative", "one_shot"}, default="iterative"
        Mix after every epoch, or once after training each shard alone.
    max_iter : int or None, default=None
        Largest number of epochs; ``None`` for the estimator's ``max_iter``.
    early_stopping : bool, default=False
        Each shard holds out a stratified ``validation_fraction`` of its rows; each
        epoch's task scores the published weights on them, and training stops
        when the accuracy over all shards has not improved for
        ``n_iter_no_change`` epochs (the last scored weights are kept).
    validation_fraction : float, default=0.1
        Share of each shard's rows held out for early stopping.
    n_iter_no_change : int, default=5
        Epochs without improvement before stopping early.
    chunk_size : int, default=100000
        Rows read at a time when ``X`` is a list of files.
    label : int or str or None, default=None
        Label column of CSV/``.npy`` files (default: the last).
    random_state : None, int, RandomState or Generator, default=None
        Seeds the starting weights (as the estimator would) and each shard's
        permutations; ``None`` uses the estimator's ``random_state``.
    client : distributed.Client, "threads" or None, default=None
        Where to train: a Dask client; ``"threads"`` for threads of this process;
        ``None`` for the active Dask client if there is one, else threads.

    Attributes
    ----------
    estimator_ : estimator
        The fitted estimator (``coef_``, ``intercept_``, ``n_iter_``, ...): what
        :func:`rosenblatt.io.save` writes and the displays draw.
    classes_ : ndarray
        The labels, sorted.
    coef_ : ndarray of shape (n_problems, n_features)
        The published weights (as ``estimator_.coef_``).
    intercept_ : ndarray of shape (n_problems,)
        The published biases.
    n_features_in_ : int
        Number of features.
    n_shards_ : int
        Shards trained on.
    n_iter_ : int
        Epochs run (the largest over the problems).
    n_updates_ : int
        Updates made on all shards.
    converged_ : bool
        Whether an epoch without a mistake on any shard (the loss settling, for
        the linear unit) was reached by every problem.
    mistakes_ : ndarray of shape (n_epochs, n_shards, n_problems)
        Updates of each shard in each epoch.
    mixing_weights_ : ndarray of shape (n_epochs, n_shards, n_problems)
        The ``μ`` of each epoch (ones for the batch rules, whose parts are added).
    mixed_mistakes_ : ndarray of shape (n_problems,)
        ``Σₙ Σᵢ μᵢₙ kᵢₙ``, the left side of Theorem 3.
    epoch_times_ : ndarray of shape (n_epochs,)
        Seconds of each epoch on the driver's clock (tasks, transfers and mixing).
    backend_ : str
        ``"threads"`` or ``"dask"``.

    References
    ----------
    McDonald, Hall & Mann, "Distributed training strategies for the structured
    perceptron", NAACL 2010.

    Examples
    --------
    >>> import numpy as np
    >>> from rosenblatt import AveragedPerceptron
    >>> from rosenblatt.distributed import ParameterMixing
    >>> rng = np.random.RandomState(0)
    >>> X = rng.randn(400, 3)
    >>> y = np.where(X @ [1.0, -2.0, 0.5] > 0, 1, 0)
    >>> model = ParameterMixing(AveragedPerceptron(random_state=0), n_shards=4,
    ...                         client="threads").fit(X, y)
    >>> model.mistakes_.shape[1:], model.score(X, y) > 0.97
    ((4, 1), True)
    """

    _parameter_constraints = {
        "estimator": [HasMethods(["fit"])],
        "n_shards": [WholeNumber(1, None, closed="left"), None],
        "mixing": [StrOptions({"uniform", "errors"})],
        "strategy": [StrOptions({"iterative", "one_shot"})],
        "max_iter": [WholeNumber(1, None, closed="left"), None],
        "early_stopping": ["boolean"],
        "validation_fraction": [Interval(Real, 0, 1, closed="neither")],
        "n_iter_no_change": [WholeNumber(1, None, closed="left")],
        "chunk_size": [WholeNumber(1, None, closed="left")],
        "label": [Integral, str, None],
        "random_state": ["random_state", np.random.Generator],
        "client": [StrOptions({"threads"}), HasMethods(["submit", "scatter"]), None],
    }

    def __init__(self, estimator, *, n_shards=None, mixing="uniform", strategy="iterative",
                 max_iter=None, early_stopping=False, validation_fraction=0.1,
                 n_iter_no_change=5, chunk_size=100_000, label=None, random_state=None,
                 client=None):
        self.estimator = estimator
        self.n_shards = n_shards
        self.mixing = mixing
        self.strategy = strategy
        self.max_iter = max_iter
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.chunk_size = chunk_size
        self.label = label
        self.random_state = random_state
        self.client = client

    # ------------------------------------------------------------------- fitting

    def fit(self, X, y=None, sample_weight=None, classes=None):
        """Train on ``X, y`` split into shards.

        Parameters
        ----------
        X : array-like, CSR matrix, dask array or dataframe, or list of file paths
            The rows: in memory (split into contiguous shards), a Dask collection
            (row blocks; shards built where the blocks are), or ``.npy``/LIBSVM/
            CSV files read on the workers, ``chunk_size`` rows at a time.
        y : array-like, dask array or Series, or None
            Labels; ``None`` with files (the labels are in them).
        sample_weight : array-like or dask array, default=None
            Row weights (not with files).
        classes : array-like, default=None
            Every label; found from the data when omitted.

        Returns
        -------
        self
        """
        self._validate_params()
        inner = self.estimator
        self._check_estimator(inner)
        backend = backend_for(self.client)
        rng = check_random_state(self.random_state if self.random_state is not None
                                 else inner.random_state)
        plan = self._plan(X, y, sample_weight, classes, backend)
        model = clone(inner)
        model.classes_ = plan.classes
        starts = model._starting_weights(plan.n_features, model._problem_rngs(rng))
        makers = plan.makers(_seeds(rng, plan.n_shards))
        shards = backend.build(makers, plan.places) if backend.name == "dask" \
            else backend.build(makers)
        rule = self._rule(model, plan, shards, backend)
        if self.early_stopping:
            shards = backend.update(with_held_out, shards, self.validation_fraction)
        rule = self._resolve_eta(model, rule, shards, backend, plan.n_features)
        self.n_shards_ = len(shards)
        self.backend_ = backend.name
        max_iter = self.max_iter if self.max_iter is not None else inner.max_iter
        if self.strategy == "one_shot":
            run = self._one_shot(rule, shards, backend, starts, max_iter)
        else:
            run = self._iterate(rule, shards, backend, starts, max_iter, model)
        self._publish(model, plan, rule, run)
        return self

    def _plan(self, X, y, sample_weight, classes, backend):
        n_shards = self.n_shards or _default_shards(backend)
        classes = None if classes is None else check_classes(classes)
        if is_file_list(X):
            if sample_weight is not None:
                raise ValueError("sample_weight cannot be given with files; weigh classes "
                                 "with the estimator's class_weight instead.")
            plan = plan_files(X, y, n_shards, classes, backend, self.chunk_size, self.label)
        elif is_dask_collection(X):
            plan = plan_dask(X, y, sample_weight, n_shards, classes, backend)
        else:
            X, y = validate_X_y(self, X, y, reset=True)
            if sample_weight is not None:
                sample_weight = _check_sample_weight(sample_weight, X, dtype=np.float64,
                                                     ensure_non_negative=True)
            found = check_classes(y)
            if classes is not None and not np.isin(found, classes).all():
                raise ValueError(f"y holds labels {found.tolist()!r}, not all among "
                                 f"classes={classes.tolist()!r}.")
            plan = plan_arrays(X, y, sample_weight, n_shards,
                               found if classes is None else classes)
        self.n_features_in_ = plan.n_features
        if plan.feature_names is not None:
            self.feature_names_in_ = plan.feature_names
        return plan

    @staticmethod
    def _check_estimator(inner):
        for cls, why in _REFUSED.items():
            if type(inner) is cls:
                raise ValueError(f"ParameterMixing cannot train {cls.__name__}: {why}.")
        known = (Perceptron, AveragedPerceptron, MulticlassPerceptron, LinearUnit,
                 BatchPerceptron)
        if type(inner) not in known:
            raise ValueError(
                f"ParameterMixing trains {', '.join(k.__name__ for k in known)}; got "
                f"{type(inner).__name__}."
            )
        if inner.early_stopping:
            raise ValueError("set early_stopping on ParameterMixing (scored on every shard), "
                             "not on the estimator it trains.")
        params = inner.get_params()
        defaults = {"margin": 0.0, "penalty": None}
        if isinstance(inner, ToleranceStop):  # scikit-learn's tol (LinearUnit's is mixed)
            defaults["tol"] = None
        unmixed = {name: params[name] for name, default in defaults.items()
                   if name in params and params[name] != default}
        if unmixed:
            raise ValueError(
                f"ParameterMixing mixes the textbook rule; it does not carry "
                f"{', '.join(f'{k}={v!r}' for k, v in unmixed.items())} to the shards. Leave "
                "them at their defaults (margin=0, penalty=None, tol=None; ParameterMixing "
                "has its own max_iter and early_stopping)."
            )

    def _rule(self, model, plan, shards, backend):
        """The :class:`Rule` the shards run, from the estimator's parameters."""
        n_classes = len(plan.classes)
        multiclass = isinstance(model, MulticlassPerceptron)
        batch = isinstance(model, BatchPerceptron) or (
            isinstance(model, LinearUnit) and model.solver == "batch")
        linear_unit = isinstance(model, LinearUnit)
        rule = Rule(
            kind="batch" if batch else "online",
            residual="multiclass" if multiclass else ("linear_unit" if linear_unit
                                                        else "perceptron"),
            layout="multiclass" if multiclass else ("binary" if n_classes == 2 else "ovr"),
            n_classes=n_classes,
            eta=model.eta,
            fit_intercept=model.fit_intercept,
            shuffle="none" if batch else model.shuffle,
            average=isinstance(model, AveragedPerceptron) or (multiclass and model.average),
            track_loss=linear_unit and model.tol is not None,  # tol=None: no loss pass
        )
        if model.class_weight is None:
            return rule
        if model.class_weight == "balanced":
            if plan.files:
                raise ValueError("class_weight='balanced' needs the class counts of every "
                                 "row; with files pass a dict of class weights.")
            counts = np.sum(backend.map(class_counts, shards, n_classes), axis=0)
            weights = counts.sum() / (n_classes * np.maximum(counts, 1))
        else:
            weights = class_weights(model.class_weight, plan.classes)
        return Rule(**{**rule.__dict__, "class_weights": weights})

    @staticmethod
    def _resolve_eta(model, rule, shards, backend, n_features):
        """The linear unit's ``eta="auto"``: the serial rule, computed over the shards
        (the Lanczos iteration's products are sums of the shards' parts)."""
        if not isinstance(model, LinearUnit) or model.eta != "auto":
            return rule
        if model.solver == "sgd":
            eta = 1.0 / max(backend.map(largest_scaled_norm, shards, rule))
        else:
            eta = 1.0 / largest_eigenvalue(
                lambda v: _in_order_sum(backend.map(gram_part, shards, rule, np.asarray(v))),
                n_features + int(rule.fit_intercept))
        model.eta_ = eta
        return Rule(**{**rule.__dict__, "eta": eta})

    # ------------------------------------------------------------------ the loops

    def _iterate(self, rule, shards, backend, starts, max_iter, model):
        """Iterative parameter mixing (or the exact batch step), one round per epoch.

        Round ``r`` sends the weights after epoch ``r − 1``; the tasks score them
        (loss, held-out accuracy) and train epoch ``r`` from them. A problem whose
        loss settled, or whose held-out accuracy stalled, stops at the weights the
        round scored; otherwise it takes the mixed result of epoch ``r``.
        """
        n_problems = rule.n_problems
        run = _Run(n_problems, starts, rule)
        scored_rounds = max_iter + (1 if rule.track_loss else 0)
        for r in range(1, scored_rounds + 1):
            active = [p for p in range(n_problems) if run.active[p]]
            if not active:
                break
            started = time.perf_counter()
            train = r <= max_iter
            scored = list(zip(*run.published())) if self.early_stopping else None
            outcomes = backend.map(shard_epoch, shards, run.weights(), rule, r, scored, train)
            for p in active:
                if self._stops_before(run, p, outcomes, r):
                    continue
                if not train:
                    run.active[p] = False
                    continue
                run.take_epoch(p, [shard[p] for shard in outcomes], self.mixing, r)
            run.finish_round(time.perf_counter() - started)
        return run

    def _stops_before(self, run, p, outcomes, r):
        """Whether problem ``p`` stops at the weights round ``r`` scored (those
        after epoch ``r − 1``): its loss settled or diverged, or early stopping."""
        coef, intercept = run.coef[p], run.intercept[p]
        if run.rule.track_loss:
            loss = float(sum(shard[p].loss for shard in outcomes))
            if r == 1:  # the start weights' loss
                run.history[p].begin(loss, coef, intercept)
                return False
            stop, converged = run.history[p].record(
                loss, coef, intercept, r - 1, self.estimator.tol,
                "batch" if run.rule.kind == "batch" else "sgd")
            if stop:
                run.converged[p], run.active[p] = converged, False
                return True
        if self.early_stopping and r > 1:
            errors = sum(shard[p].held_out_errors for shard in outcomes)
            total = sum(shard[p].held_out_total for shard in outcomes)
            score = 1.0 - errors / total if total > 0 else 0.0
            if score > run.best[p]:
                run.best[p], run.stale[p] = score, 0
            else:
                run.stale[p] += 1
            if run.stale[p] >= self.n_iter_no_change:
                run.stopped_early[p], run.active[p] = True, False
                return True
        return False

    def _one_shot(self, rule, shards, backend, starts, max_iter):
        """Alg. 1: each shard trains alone from the start weights; one mix."""
        run = _Run(rule.n_problems, starts, rule)
        started = time.perf_counter()
        results = backend.map(shard_train_alone, shards, run.weights(), rule, max_iter)
        outcomes = [outcome for outcome, _ in results]
        for p in range(rule.n_problems):
            run.take_epoch(p, [shard[p] for shard in outcomes], self.mixing, 1, one_shot=True)
            run.converged[p] = all(epochs < max_iter or shard[p].n_updates == 0
                                   for shard, (_, epochs) in zip(outcomes, results))
        run.n_iter[:] = max(epochs for _, epochs in results)
        run.finish_round(time.perf_counter() - started)
        return run

    # ----------------------------------------------------------------- publishing

    def _publish(self, model, plan, rule, run):
        coef, intercept = run.published()
        if rule.layout == "multiclass":
            model.coef_, model.intercept_ = coef[0].copy(), intercept[0].copy()
        else:
            model.coef_ = np.vstack([np.atleast_2d(c) for c in coef])
            model.intercept_ = np.concatenate([np.atleast_1d(b) for b in intercept])
        model.n_features_in_ = plan.n_features
        if plan.feature_names is not None:
            model.feature_names_in_ = plan.feature_names
        model.n_iter_ = int(max(run.n_iter))
        model.n_updates_ = int(run.mistakes.sum())
        model.converged_ = bool(all(run.converged))
        if rule.average:
            model.n_examples_ = int(max(run.examples))
        if rule.residual == "linear_unit":
            curves = tuple(np.array(h.losses) for h in run.history) or \
                tuple(np.array([]) for _ in range(rule.n_problems))  # tol=None
            model.loss_curve_ = curves[0] if len(curves) == 1 else curves
            model.n_updates_ = int(run.mistakes.sum()) if rule.kind == "online" else \
                int(sum(run.n_iter))
            if not hasattr(model, "eta_"):
                model.eta_ = rule.eta
        self.estimator_ = model
        self.classes_ = plan.classes
        self.mistakes_ = run.mistakes
        self.mixing_weights_ = run.mu
        self.mixed_mistakes_ = run.mixed_mistakes
        self.epoch_times_ = np.array(run.times)
        failed = [p for p in range(rule.n_problems)
                  if not run.converged[p] and not run.stopped_early[p]]
        # a linear unit with tol=None has no stopping rule that could fail
        if failed and (rule.track_loss or rule.residual != "linear_unit"):
            warn(self._not_converged_message(model, run, failed))

    def _not_converged_message(self, model, run, failed):
        diverged = [run.history[p].diverged for p in failed
                    if run.history and run.history[p].diverged]
        if diverged:
            epoch, before, after, _ = diverged[0]
            return (f"ParameterMixing: the linear unit diverged at epoch {epoch} (loss "
                    f"{before:.6g} -> {after:.6g}); use a smaller eta or eta='auto'. The "
                    "weights of smallest loss are kept.")
        which = ""
        if len(self.classes_) > 2 and run.rule.layout == "ovr":
            which = " for class(es) " + ", ".join(str(self.classes_[p]) for p in failed)
        return (f"ParameterMixing ran {int(max(run.n_iter))} epochs on {self.n_shards_} shards "
                f"without an epoch free of mistakes on every shard{which}; the data may not "
                "be linearly separable — increase max_iter, or train AveragedPerceptron.")

    # ---------------------------------------------------------------- prediction

    @property
    def coef_(self):
        check_is_fitted(self)
        return self.estimator_.coef_

    @property
    def intercept_(self):
        check_is_fitted(self)
        return self.estimator_.intercept_

    @property
    def n_iter_(self):
        check_is_fitted(self)
        return self.estimator_.n_iter_

    @property
    def n_updates_(self):
        check_is_fitted(self)
        return self.estimator_.n_updates_

    @property
    def converged_(self):
        check_is_fitted(self)
        return self.estimator_.converged_

    def decision_function(self, X):
        """The fitted estimator's ``decision_function``.

        Parameters
        ----------
        X : array-like or CSR matrix of shape (n_samples, n_features)

        Returns
        -------
        ndarray
        """
        check_is_fitted(self)
        return self.estimator_.decision_function(X)

    def predict(self, X):
        """The fitted estimator's labels for ``X``.

        Parameters
        ----------
        X : array-like or CSR matrix of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        check_is_fitted(self)
        return self.estimator_.predict(X)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags


class _Run:
    """The driver's state across epochs: the mixed running weights, the averaging
    sums, and the record of mistakes and mixing weights."""

    def __init__(self, n_problems, starts, rule):
        self.rule = rule
        self.coef = [np.array(c, dtype=np.float64) for c, _ in starts]
        self.intercept = [np.atleast_1d(np.array(b, dtype=np.float64)) for _, b in starts]
        self.active = [True] * n_problems
        self.converged = [False] * n_problems
        self.stopped_early = [False] * n_problems
        self.n_iter = np.zeros(n_problems, dtype=int)
        self.examples = np.zeros(n_problems, dtype=np.int64)
        self.sums = [None] * n_problems
        self.history = [LossHistory() for _ in range(n_problems)] if rule.track_loss else []
        self.best = [-np.inf] * n_problems
        self.stale = [0] * n_problems
        self.mixed_mistakes = np.zeros(n_problems)
        self.round_mistakes, self.round_mu = [], []
        self._mistakes = self._mu = None
        self.times = []

    def weights(self):
        return [(c, b) for c, b in zip(self.coef, self.intercept)]

    def published(self):
        """The weights the model publishes: the running ones, or their mean."""
        if not self.rule.average:
            return self.coef, self.intercept
        coef, intercept = [], []
        for p in range(len(self.coef)):
            if self.examples[p] == 0:
                coef.append(self.coef[p]), intercept.append(self.intercept[p])
            else:
                coef.append(self.sums[p][0] / self.examples[p])
                intercept.append(self.sums[p][1] / self.examples[p])
        return coef, intercept

    def take_epoch(self, p, outcomes, mixing, r, one_shot=False):
        """Mix (or, for a batch rule, add) the shards' results for problem ``p``."""
        k = np.array([o.n_updates for o in outcomes], dtype=float)
        if self.rule.kind == "batch":
            mu = np.ones(len(outcomes))
            gradient, bias_gradient = outcomes[0].coef, outcomes[0].intercept
            for outcome in outcomes[1:]:  # in shard order
                gradient, bias_gradient = gradient + outcome.coef, bias_gradient + \
                    outcome.intercept
            self.coef[p] = self.coef[p] + self.rule.eta * gradient
            if self.rule.fit_intercept:
                self.intercept[p] = self.intercept[p] + self.rule.eta * bias_gradient
        else:
            mu = _mixing_weights(k, mixing)
            coef, intercept = mu[0] * outcomes[0].coef, mu[0] * outcomes[0].intercept
            for weight, outcome in zip(mu[1:], outcomes[1:]):  # in shard order
                coef, intercept = coef + weight * outcome.coef, intercept + \
                    weight * outcome.intercept
            self.coef[p], self.intercept[p] = coef, intercept
            if self.rule.average and not one_shot:
                for outcome in outcomes:
                    self.examples[p] += outcome.n_examples
                    part = (outcome.coef_sum, outcome.intercept_sum)
                    self.sums[p] = part if self.sums[p] is None else (
                        self.sums[p][0] + part[0], self.sums[p][1] + part[1])
        if not (np.all(np.isfinite(self.coef[p])) and np.all(np.isfinite(self.intercept[p]))):
            raise ValueError(
                f"ParameterMixing ran into infinite or NaN weights in epoch {r}: the "
                "features, eta or the sample weights are too large for float64 arithmetic. "
                "Scale X (e.g. sklearn.preprocessing.StandardScaler), or lower eta or the "
                "weights."
            )
        self.mixed_mistakes[p] += float(mu @ k)
        self._record(p, k, mu)
        self.n_iter[p] = r
        if self.rule.kind == "batch" and self.rule.residual != "perceptron":
            return  # the linear unit stops on its loss
        if not self.rule.track_loss and k.sum() == 0:
            self.converged[p], self.active[p] = True, False

    def _record(self, p, k, mu):
        if self._mistakes is None:
            self._mistakes = np.zeros((len(k), len(self.coef)), dtype=np.int64)
            self._mu = np.zeros((len(k), len(self.coef)))
        self._mistakes[:, p], self._mu[:, p] = k, mu

    def finish_round(self, seconds):
        if self._mistakes is not None:
            self.round_mistakes.append(self._mistakes)
            self.round_mu.append(self._mu)
            self.times.append(seconds)
        self._mistakes = self._mu = None

    @property
    def mistakes(self):
        return np.array(self.round_mistakes, dtype=np.int64).reshape(
            -1, *(self.round_mistakes[0].shape if self.round_mistakes else (0, len(self.coef))))

    @property
    def mu(self):
        return np.array(self.round_mu).reshape(self.mistakes.shape)


def _mixing_weights(k, mixing):
    """μ of one epoch: ``1/S``, or proportional to the mistakes (uniform when none)."""
    if mixing == "errors" and k.sum() > 0:
        return k / k.sum()
    return np.full(len(k), 1.0 / len(k))


def _seeds(rng, n):
    """One seed per shard, drawn after the starting weights (RandomState or Generator)."""
    if isinstance(rng, np.random.Generator):
        return rng.integers(2**31 - 1, size=n)
    return rng.randint(2**31 - 1, size=n)


def _default_shards(backend):
    if backend.name == "dask":
        info = backend.client.scheduler_info()["workers"]
        return max(1, sum(worker.get("nthreads", 1) for worker in info.values()))
    return backend.n_threads


def _in_order_sum(parts):
    total = parts[0]
    for part in parts[1:]:
        total = total + part
    return total
