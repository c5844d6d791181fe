"""``ParameterMixing``: the perceptron family trained on shards, by iterative parameter mixing."""

import time
from numbers import Integral

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, MetaEstimatorMixin, clone
from sklearn.utils._param_validation import HasMethods, StrOptions
from sklearn.utils.metaestimators import available_if
from sklearn.utils.validation import _check_sample_weight, check_is_fitted

from .._validation import check_classes, check_lengths, class_weights, validate_X_y
from ..base import MixingRecord, ThreadBackend, train
from ..base._learner import stop_reason
from ..base._shard import shard_errors
from ..base._parameters import WholeNumber
from ._backends import HoldsClient, backend_for
from ._inputs import (
    is_dask_collection,
    is_file_list,
    plan_arrays,
    plan_dask,
    plan_files,
    plan_sequences,
)
from ._shards import class_counts, with_class_weights


class ParameterMixing(HoldsClient, MetaEstimatorMixin, ClassifierMixin, BaseEstimator):
    """Train an estimator on shards of the rows, on threads or a Dask cluster,
    by iterative parameter mixing.

    Each epoch, every shard runs one epoch of the estimator's rule from the same
    mixed weights, and the weights are mixed: ``w ← Σᵢ μᵢ wᵢ`` (McDonald, Hall
    & Mann 2010, Alg. 2). On data separable with margin γ, the mistakes weighted
    by μ stay below the perceptron's bound, ``Σₙ Σᵢ μᵢₙ kᵢₙ ≤ (R/γ)²`` (their
    Theorem 3; ``mixed_mistakes_``), and with ``mixing="errors"`` the number of
    epochs does too.

    It is the estimator's own training loop (a serial ``fit`` is the same loop
    on one shard), so every option of the estimator is carried to the shards —
    ``eta``, ``margin``, ``h0``, ``penalty``, ``tol``, ``weights_dtype``, the
    passive-aggressive steps, ``class_weight``, ``early_stopping`` (each shard
    holds out its share of rows; the accuracy is summed over the shards),
    ``warm_start`` — and with one shard the result is the serial estimator's,
    bit for bit, whatever the shuffle mode. Averaging (``AveragedPerceptron``,
    ``average=True``) publishes the mean of every running weight vector any
    shard held: the averaging sums of the shards add up. The batch rules
    (``BatchPerceptron``, ``LinearUnit(solver="batch")``) need no mixing: each
    shard's step is its part of the sum over every row, and the parts add. The
    linear unit's loss and ``tol``'s epoch loss are summed over the shards, so
    the stopping rules decide as they would serially. An estimator whose state
    cannot be mixed (a pocket, a vote, a dual form, PLA's global pick) is
    refused with the reason and what to use instead. One-vs-rest problems are
    mixed per class, in one task per shard.

    ``strategy="one_shot"`` trains every shard alone (the same loop, on that
    shard) and mixes once (their Alg. 1): it can fail to separate separable data
    (their Theorem 2); kept for comparison.

    Parameters
    ----------
    estimator : estimator
        The estimator to train (not fitted, or fitted by an earlier
        ``ParameterMixing`` fit when its ``warm_start`` is true): its parameters
        set the rule, ``max_iter``, the stopping rule and ``random_state``.
    n_shards : int or None, default=None
        Shards of the rows. ``None``: the Dask cluster's worker threads, or this
        machine's cores. The result depends on it, not on the number of workers.
    mixing : {"uniform", "errors"}, default="uniform"
        ``μᵢ = 1/S``, or proportional to the shard's mistakes in the epoch
        (uniform when no shard erred).
    strategy : {"iterative", "one_shot"}, default="iterative"
        Mix after every epoch, or once after training each shard alone.
    shard_rows : {"random", "contiguous"}, default="random"
        How rows held in this process's memory (arrays, CSR) are dealt to the
        shards: at random (a permutation drawn from the estimator's random
        stream; each shard keeps its rows in their order), or in contiguous
        blocks. Mixing assumes shards alike: contiguous blocks of a file that
        holds one source after another (MNIST's test file: two populations of
        writers) make each shard specialise, and the mix loses accuracy (see
        BENCHMARKS.md). Dask collections and files are always sharded where
        they lie, in contiguous runs of rows (moving rows between workers would
        cost more than an epoch): shuffle such data once beforehand if its
        parts differ.
    chunk_size : int, default=100000
        Rows read at a time when ``X`` is a list of files.
    label : int or str or None, default=None
        Label column of CSV/``.npy`` files (default: the last).
    client : distributed.Client, str or None, default=None
        Where to train: a Dask client, or a scheduler's address; ``"threads"``
        for threads of this process; ``None`` for the active Dask client if
        there is one, else threads. A client is shared by clones and kept as
        its address when pickled.

    Attributes
    ----------
    estimator_ : estimator
        The fitted estimator (``coef_``, ``intercept_``, ``n_iter_``, ...): what
        :func:`rosenblatt.io.save` writes, what the displays draw, and what goes
        on learning with ``partial_fit``.
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
        Whether the estimator's stopping rule was met (an epoch without a
        mistake on any shard, for the textbook rule) by every problem.
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

    One shard is the serial fit:

    >>> one = ParameterMixing(AveragedPerceptron(random_state=0), n_shards=1).fit(X, y)
    >>> serial = AveragedPerceptron(random_state=0).fit(X, y)
    >>> bool(np.array_equal(one.coef_, serial.coef_)), one.n_iter_ == serial.n_iter_
    (True, True)
    """

    _parameter_constraints = {
        "estimator": [HasMethods(["fit"])],
        "n_shards": [WholeNumber(1, None, closed="left"), None],
        "mixing": [StrOptions({"uniform", "errors"})],
        "strategy": [StrOptions({"iterative", "one_shot"})],
        "shard_rows": [StrOptions({"random", "contiguous"})],
        "chunk_size": [WholeNumber(1, None, closed="left")],
        "label": [Integral, str, None],
        "client": [str, HasMethods(["submit", "scatter"]), None],
    }

    def __init__(self, estimator, *, n_shards=None, mixing="uniform", strategy="iterative",
                 shard_rows="random", chunk_size=100_000, label=None, client=None):
        self.estimator = estimator
        self.n_shards = n_shards
        self.mixing = mixing
        self.strategy = strategy
        self.shard_rows = shard_rows
        self.chunk_size = chunk_size
        self.label = label
        self.client = client

    # ------------------------------------------------------------------- fitting

    def fit(self, X, y=None, sample_weight=None, classes=None, lengths=None):
        """Train on ``X, y`` split into shards.

        Parameters
        ----------
        X : array-like, CSR matrix, dask array or dataframe, or list of file paths
            The rows: in memory (split into contiguous shards), a Dask collection
            (row blocks rebalanced into shards of equal rows, built where the
            blocks are), or ``.npy``/LIBSVM/CSV files read on the workers,
            ``chunk_size`` rows at a time. For a
            :class:`~rosenblatt.structured.DependencyParser`: its sentences (a list
            of ``ConlluSentence``), whole ones dealt to the shards.
        y : array-like, dask array or Series, or None
            Labels; ``None`` with files (the labels are in them).
        sample_weight : array-like or dask array, default=None
            Row weights (not with files).
        classes : array-like, default=None
            Every label; found from the data when omitted.
        lengths : array-like of int, default=None
            For a sequence estimator (:class:`~rosenblatt.structured.SequencePerceptron`):
            the number of tokens of each sentence, in the order of the rows of an
            in-memory ``X``. Sentences are the unit of sharding: each shard holds
            whole ones, dealt as ``shard_rows`` says.

        Returns
        -------
        self
        """
        self._validate_params()
        backend = backend_for(self.client)
        plan = self._plan(X, y, sample_weight, classes, backend, lengths)
        model, learner = self._model(plan)
        indices = [None] if plan.n_shards == 1 else list(range(plan.n_shards))
        makers = plan.makers(indices, self._deal(model, plan))
        shards = backend.build(makers, plan.places) if backend.name == "dask" \
            else backend.build(makers)
        if len(shards) > 1:
            refusal = learner.mixing_refusal(model._problems)
            if refusal is not None:
                raise ValueError(f"ParameterMixing cannot train {type(model).__name__} on "
                                 f"several shards: {refusal}.")
        shards = self._weigh_classes(model, plan, shards, backend)
        self.n_shards_ = len(shards)
        self.backend_ = backend.name
        record = MixingRecord(len(model._problems), len(shards))
        learner._weighted_rows = sample_weight is not None or model.class_weight is not None
        if self.strategy == "one_shot":
            self._one_shot(model, learner, shards, backend, record)
        else:
            learner.train(model._problems, shards, backend, partial=False, mixing=self.mixing,
                          record=record)
        model._end_call(learner, partial=False)
        self.estimator_ = model
        self.classes_ = plan.classes
        self.mistakes_, self.mixing_weights_, self.epoch_times_ = record.arrays()
        self.mixed_mistakes_ = (self.mistakes_ * self.mixing_weights_).sum(axis=(0, 1))
        return self

    def _plan(self, X, y, sample_weight, classes, backend, lengths=None):
        n_shards = self.n_shards or _default_shards(backend)
        classes = None if classes is None else check_classes(classes)
        if hasattr(self.estimator, "_mixing_plan"):  # sentences the estimator encodes itself
            plan = self.estimator._mixing_plan(X, n_shards)  # (DependencyParser's trees)
            self.n_features_in_ = plan.n_features
            return plan
        sequences = getattr(self.estimator, "_fits_sequences", False)
        if sequences or lengths is not None:
            return self._plan_sequences(X, y, sample_weight, classes, n_shards, lengths,
                                        sequences)
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

    def _plan_sequences(self, X, y, sample_weight, classes, n_shards, lengths, sequences):
        name = type(self.estimator).__name__
        if not sequences:
            raise ValueError(f"lengths gives sentences to a sequence estimator "
                             f"(SequencePerceptron); {name} learns rows one by one: drop "
                             "lengths.")
        if is_file_list(X) or is_dask_collection(X):
            raise ValueError(f"{name} is mixed over sentences of X in this process's memory "
                             "(a matrix of token features and lengths=...); files and Dask "
                             "collections of tokens are not split by sentence: load them first "
                             "(rosenblatt.datasets.load_conll, SentenceFeatures).")
        if sample_weight is not None:
            raise ValueError(f"{name} takes no sample_weight.")
        X, y = validate_X_y(self, X, y, reset=True)
        lengths = check_lengths(lengths, X.shape[0])
        found = check_classes(y)
        if classes is not None and not np.isin(found, classes).all():
            raise ValueError(f"y holds labels {found.tolist()!r}, not all among "
                             f"classes={classes.tolist()!r}.")
        plan = plan_sequences(X, y, lengths, n_shards, found if classes is None else classes)
        self.n_features_in_ = plan.n_features
        return plan

    def _model(self, plan):
        """The estimator with its problems at the start of the fit, exactly as its
        own ``fit`` starts them (afresh, or from the last fit with ``warm_start``),
        and its learner."""
        warm = self.estimator.warm_start and hasattr(self, "estimator_") and \
            hasattr(self.estimator_, "_problems")
        model = self.estimator_ if warm else clone(self.estimator)
        model._validate_params()
        if warm and not (np.array_equal(plan.classes, model.classes_)
                         and plan.n_features == model.n_features_in_):
            raise ValueError(
                f"warm_start=True continues the last fit, on {model.n_features_in_} features "
                f"and classes {model.classes_.tolist()!r}; got {plan.n_features} features and "
                f"{plan.classes.tolist()!r}. Set warm_start=False to start afresh."
            )
        model.n_features_in_ = plan.n_features
        if plan.feature_names is not None:
            model.feature_names_in_ = plan.feature_names
        learner = model._start_fit(plan.classes, np.empty((0, plan.n_features)), warm)
        learner.check_shards(plan.n_features, plan.n_shards)  # each shard copies the weights
        return model, learner

    def _deal(self, model, plan):
        """The permutation by which rows in memory are dealt to the shards, drawn
        from the estimator's random stream after its own draws; ``None`` to keep
        contiguous blocks."""
        if self.shard_rows == "contiguous" or not plan.dealable or plan.n_shards == 1:
            return None
        return model._problems[0].rng.permutation(plan.n_rows)

    @staticmethod
    def _weigh_classes(model, plan, shards, backend):
        """The shards with ``class_weight`` applied to their rows' weights."""
        if model.class_weight is None:
            return shards
        n_classes = len(plan.classes)
        if model.class_weight == "balanced":
            counts = np.sum(backend.map(class_counts, shards, n_classes), axis=0)
            weights = counts.sum() / (n_classes * np.maximum(counts, 1))
        else:
            weights = class_weights(model.class_weight, plan.classes)
        return backend.update(with_class_weights, shards, weights)

    def _one_shot(self, model, learner, shards, backend, record):
        """Alg. 1: each shard trains alone (the training loop on that shard), then
        the shards' problems are mixed once."""
        learner._before_training(model._problems, shards, backend, partial=False)
        started = time.perf_counter()
        results = backend.map(train_alone, shards, learner, dict(enumerate(model._problems)))
        updates = np.zeros((len(shards), len(model._problems)), dtype=np.int64)
        mu = np.zeros(updates.shape)
        for p, problem in enumerate(model._problems):
            parts = [result[p] for result in results]
            updates[:, p] = [part.n_updates for part in parts]
            mu[:, p] = learner._mixing_weights(updates[:, p], self.mixing)
            learner._mix(problem, parts, mu[:, p])
            problem.n_iter = max(part.n_iter for part in parts)
            problem.n_updates = int(updates[:, p].sum())
            problem.stop_reason = stop_reason(parts)
        # every shard may have separated its own rows while the mixed weights do not
        # separate them all: converged_ only when they do
        errors = np.sum(backend.map(shard_errors, shards, learner, dict(enumerate(
            model._problems))), axis=0)
        for p, problem in enumerate(model._problems):
            problem.converged = all(part[p].converged for part in results) and errors[p] == 0
            problem.stopped_early = any(part.stopped_early for part in parts)
        record.add(updates, mu, time.perf_counter() - started)

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

    @available_if(lambda self: _has_probabilities(self))
    def predict_proba(self, X):
        """The fitted estimator's ``predict_proba`` (only for an estimator that has
        one: see its docstring's "Probabilities").

        Parameters
        ----------
        X : array-like or CSR matrix of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        check_is_fitted(self)
        return self.estimator_.predict_proba(X)

    @available_if(lambda self: _has_probabilities(self))
    def predict_log_proba(self, X):
        """The fitted estimator's ``predict_log_proba``.

        Parameters
        ----------
        X : array-like or CSR matrix of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        check_is_fitted(self)
        return self.estimator_.predict_log_proba(X)

    def predict(self, X, lengths=None):
        """The fitted estimator's labels for ``X``.

        Parameters
        ----------
        X : array-like or CSR matrix of shape (n_samples, n_features)
        lengths : array-like of int, default=None
            The sentence lengths, for a sequence estimator.

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        check_is_fitted(self)
        if getattr(self.estimator_, "_fits_sequences", False):
            return self.estimator_.predict(X, lengths)
        if lengths is not None:
            raise ValueError(f"lengths is for sequence estimators; "
                             f"{type(self.estimator_).__name__} labels rows one by one.")
        return self.estimator_.predict(X)

    def score(self, X, y, sample_weight=None, lengths=None):
        """The fitted estimator's accuracy on ``X, y`` (tokens, with ``lengths``
        for a sequence estimator).

        Returns
        -------
        float
        """
        if lengths is None:
            return super().score(X, y, sample_weight)
        check_is_fitted(self)
        return self.estimator_.score(X, y, lengths, sample_weight=sample_weight)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags


def _has_probabilities(mixing):
    """Whether the mixed estimator has ``predict_proba`` (the fitted one once fit):
    its ``AttributeError`` saying why not is kept as the cause."""
    estimator = getattr(mixing, "estimator_", mixing.estimator)
    return callable(estimator.predict_proba)


def train_alone(shard, learner, problems):
    """One-shot mixing's local run: the training loop on this shard alone, from
    copies of ``problems``; returns them."""
    import copy

    problems = [copy.deepcopy(problems[p]) for p in sorted(problems)]
    train(learner, problems, [shard], ThreadBackend(1), epochs=learner._max_epochs(),
          partial=False)
    return dict(enumerate(problems))


def _default_shards(backend):
    if backend.name == "dask":
        info = backend.client.scheduler_info()["workers"]
        return max(1, sum(worker.get("nthreads", 1) for worker in info.values()))
    return backend.n_threads
