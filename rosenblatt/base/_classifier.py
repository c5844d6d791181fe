"""Labels, problems and the ``fit``/``partial_fit`` skeleton shared by every estimator.

:class:`PerceptronClassifier` turns any labels into problems and runs them: two
classes are one binary problem (labels mapped to -1/+1 in sorted order), more
are one binary problem per class (one-vs-rest, on threads since the kernels
release the GIL, each with its own seeded generator so that the threads never
change the result). It does not know how a problem starts or learns; that comes
from the primal (:mod:`._linear`) or dual weights and the training loop
(:mod:`._epochs`) the estimator is made of.
"""

import contextlib
import os
import sys
import warnings

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context
from sklearn.exceptions import ConvergenceWarning

from .._validation import (
    check_classes,
    check_random_state,
    check_scores,
    encode_labels,
    row_weights,
    validate_X,
    validate_X_y,
)
from ._loop import train
from ._shard import Shard, ThreadBackend


class PerceptronClassifier(ClassifierMixin, BaseEstimator):
    """Labels, one-vs-rest and the ``fit`` skeleton; not used directly.

    An estimator made from it provides ``_start_problems(X, rngs, warm)`` (the
    problems at the start of ``fit``), the hooks of a rule made of epochs
    (:class:`~._epochs.EpochLoop`: ``_epoch`` and the rest, which the training
    loop of :mod:`._loop` calls), ``_publish()`` (the fitted attributes) and
    ``decision_function``.
    """

    #: Printed in the ConvergenceWarning; rules may suggest something better.
    _advice = "increase max_iter, or use PocketPerceptron to keep the weights with the " \
        "fewest training mistakes"

    #: Called with the problem after every epoch when set (see :func:`on_epoch`).
    _on_epoch = None

    #: The file a model was read from (see :func:`rosenblatt.io.load`), until a new fit.
    _model_file = None

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Learn from ``X`` (n_samples, n_features) and labels ``y``.

        Parameters
        ----------
        X : array-like or CSR matrix of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None

        Returns
        -------
        self
        """
        if self.warm_start:
            self._refuse_if_loaded("warm_start=True")
        X, y = validate_X_y(self, X, y, reset=True)
        classes = check_classes(y)
        warm = self.warm_start and hasattr(self, "_problems")
        if warm and not np.array_equal(classes, self.classes_):
            raise ValueError(
                f"warm_start=True needs the classes of the first fit {self.classes_.tolist()!r}"
                f", got {classes.tolist()!r}; set warm_start=False to start afresh."
            )
        self._start_fit(classes, X, warm)
        codes = encode_labels(y, classes)
        weights = row_weights(X, codes, classes, sample_weight, self.class_weight)
        self._learn(X, codes, weights, partial=False)
        return self

    def _start_fit(self, classes, X, warm):
        """The problems at the start of a fit (from ``init``, or the last fit's
        weights with ``warm``), and their row-order streams: the estimator's
        random stream is drawn here, in the same order for a serial fit and for
        :class:`~rosenblatt.distributed.ParameterMixing`. ``X`` gives the width."""
        self.classes_ = classes
        rngs = self._problem_rngs(check_random_state(self.random_state))
        self._problems = self._start_problems(X, rngs, warm)
        self._start_streams()

    def _refuse_if_loaded(self, what):
        """A model read from a file cannot go on training: the file holds what
        prediction needs, not the training state."""
        if self._model_file is not None:
            raise ValueError(
                f"This {type(self).__name__} was read from {self._model_file}, which holds what "
                "prediction needs but not the training state (the averaging sums, the random "
                f"generator, the examples seen), so {what} would not continue the saved run. "
                "Fit afresh, or keep training the model in memory before saving it."
            )

    def predict(self, X):
        """Class labels; an activation of exactly 0 predicts the negative class.

        Scores that overflowed to inf or NaN (X far larger than the training data)
        are refused with a ``ValueError``, not turned into an arbitrary class."""
        scores = self.decision_function(X)
        if not np.isfinite(scores).all():
            check_scores(scores, validate_X(self, X, reset=False))
        if scores.ndim == 1:
            return self.classes_[(scores > 0).astype(np.intp)]
        return self.classes_[np.argmax(scores, axis=1)]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags

    # ----------------------------------------------------------------- problems
    # One-vs-rest by default; MulticlassPerceptron keeps every class in one problem.

    def _problem_classes(self):
        """``(negative, positive)`` labels of each problem."""
        if len(self.classes_) == 2:
            return [tuple(self.classes_)]
        return [(f"not {label}", label) for label in self.classes_]

    def _problem_targets(self, codes):
        """The ±1 label vector of each problem."""
        if len(self.classes_) == 2:
            return [np.where(codes == 1, 1.0, -1.0)]
        return [np.where(codes == k, 1.0, -1.0) for k in range(len(self.classes_))]

    def _problem_rngs(self, rng):
        """The estimator's generator for one problem; one seeded child per problem
        otherwise, so that the result does not depend on thread scheduling."""
        n_problems = len(self._problem_classes())
        if n_problems == 1:
            return [rng]
        seeds = rng.integers(2**31 - 1, size=n_problems) if isinstance(
            rng, np.random.Generator) else rng.randint(2**31 - 1, size=n_problems)
        return [np.random.RandomState(seed) for seed in seeds]

    # ----------------------------------------------------------------- training

    def _learn(self, X, codes, weights, *, partial):
        """Train every problem on ``X`` (a whole fit, or one ``partial_fit`` epoch):
        the training loop on one shard holding every row, in this process."""
        shard = Shard(X, codes, weights, renumbering=self._column_renumbering(X, partial))
        try:
            self._train_shards([shard], ThreadBackend(), partial=partial)
        finally:  # an error or an interrupt too leaves the weights in their own numbering
            if shard.renumbering is not None:
                shard.renumbering.finish(self._problems)
        self._end_call(partial)

    def _train_shards(self, shards, backend, *, partial, mixing="uniform", record=None):
        """Run the training loop (:func:`~._loop.train`) on ``shards``: one in
        this process for a serial fit, several for parameter mixing (which then
        publishes with :meth:`_end_call`, as :meth:`_learn` does)."""
        self._before_training(shards, backend, partial)
        train(self, self._problems, shards, backend,
              epochs=1 if partial else self._max_epochs(), partial=partial, mixing=mixing,
              record=record)

    def _end_call(self, partial):
        """Publish the fitted attributes; after a fit, warn about problems that ran out."""
        self._publish()
        self._model_file = None
        if not partial:
            self._warn_if_not_converged()

    def _start_streams(self):
        """Each problem's row-order stream, drawn at the start of a fit."""
        for problem in self._problems:
            self._draw_seed(problem)

    def _draw_seed(self, problem):
        """Hook: see :class:`~._epochs.EpochLoop`."""

    def _before_training(self, shards, backend, partial):
        """Hook run once per ``fit``/``partial_fit`` call, before the problems train."""

    #: The columns' renumbering during a ``fit`` call (see :mod:`._columns`), or None.
    _renumbering = None

    def _column_renumbering(self, X, partial):
        """Hook: the :class:`~rosenblatt.base._columns.Renumbering` the problems
        may switch to during training, or ``None``."""
        return None

    def _publish_counters(self):
        """The fitted attributes every estimator shares."""
        self.n_iter_ = max(p.n_iter for p in self._problems)
        self.n_updates_ = sum(p.n_updates for p in self._problems)
        self.converged_ = all(p.converged for p in self._problems)

    def _warn_if_not_converged(self):
        failed = [p for p in self._problems if not p.converged and not p.stopped_early]
        if not failed:
            return
        which = ""
        if len(self._problems) > 1:
            which = " for class(es) " + ", ".join(str(p.classes[1]) for p in failed)
        message = self._not_converged_message(which)
        if message is not None:
            warn(message)

    def _not_converged_message(self, which):
        """The ``ConvergenceWarning``'s text, or ``None`` when the settings have
        no stopping rule that could have failed."""
        return (
            f"{type(self).__name__} ran {self._limit_description()} without a mistake-free "
            f"pass{which}; the data may not be linearly separable — {self._advice}."
        )

    def _limit_description(self):
        return f"max_iter={self.max_iter} epochs"


class OnlineMixin:
    """``partial_fit``: one epoch over each chunk, the state kept between calls."""

    def partial_fit(self, X, y, classes=None, sample_weight=None):
        """One epoch over ``X, y``, continuing from the current state.

        ``classes`` (every label the stream will hold) is required on the first call.
        Early stopping does not apply to ``partial_fit``.

        Parameters
        ----------
        X : array-like or CSR matrix of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        classes : array-like, default=None
        sample_weight : array-like of shape (n_samples,), default=None

        Returns
        -------
        self
        """
        self._refuse_if_loaded("partial_fit")
        first = not hasattr(self, "_problems")
        self._validate_params()  # every call: set_params may have changed them
        if first:
            if classes is None:
                raise ValueError(
                    "classes must be passed on the first call to partial_fit: every label "
                    "the stream will contain, e.g. classes=[0, 1]."
                )
            if self.class_weight == "balanced":
                raise ValueError(
                    "class_weight='balanced' needs all labels at once and cannot be used "
                    "with partial_fit; pass a dict of class weights instead."
                )
        X, y = validate_X_y(self, X, y, reset=first)
        if first:
            self._start_fit(check_classes(classes), X, warm=False)
        elif classes is not None and not np.array_equal(
                classes := check_classes(classes), self.classes_):
            raise ValueError(
                f"classes={classes.tolist()!r} differs from the classes of the "
                f"first partial_fit call {self.classes_.tolist()!r}."
            )
        codes = encode_labels(y, self.classes_)
        weights = row_weights(X, codes, self.classes_, sample_weight, self.class_weight)
        self._learn(X, codes, weights, partial=True)
        return self


@contextlib.contextmanager
def on_epoch(model, callback):
    """Call ``callback(problem)`` after every epoch (or PLA update) of ``model``
    while the block runs: what a progress bar needs.

    >>> from rosenblatt import Perceptron
    >>> epochs = []
    >>> with on_epoch(Perceptron(shuffle="none"), lambda p: epochs.append(p.n_iter)) as m:
    ...     _ = m.fit([[0, 0], [0, 1], [1, 0], [1, 1]], [0, 0, 0, 1])
    >>> epochs
    [1, 2, 3, 4, 5, 6, 7, 8, 9]
    """
    model._on_epoch = callback
    try:
        yield model
    finally:
        del model._on_epoch


def warn(message):
    """A ``ConvergenceWarning`` pointing at the user's line."""
    warnings.warn(message, ConvergenceWarning, stacklevel=_caller_stacklevel())


def _caller_stacklevel():
    """``stacklevel`` that points a warning at the first frame outside rosenblatt
    and scikit-learn (whose ``_fit_context`` wraps ``fit``)."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    frame, level = sys._getframe(1), 1
    while frame is not None and (
        frame.f_code.co_filename.startswith(package)
        or f"{os.sep}sklearn{os.sep}" in frame.f_code.co_filename
    ):
        frame, level = frame.f_back, level + 1
    return level
