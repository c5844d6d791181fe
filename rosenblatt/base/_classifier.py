"""The ``fit``/``partial_fit`` skeleton shared by every estimator.

:class:`PerceptronClassifier` validates the data, encodes the labels, builds
the estimator's learner (:mod:`._learner`) from its parameters and runs it with
the training loop (:mod:`._loop`) on one shard holding every row, then sets the
fitted attributes the learner publishes. Two classes are one binary problem
(labels mapped to -1/+1 in sorted order), more are one binary problem per class
(one-vs-rest, on threads since the kernels release the GIL, each with its own
seeded generator so that the threads never change the result).
"""

import contextlib
import difflib
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
from ._shard import Shard, ThreadBackend


class PerceptronClassifier(ClassifierMixin, BaseEstimator):
    """Labels and the ``fit`` skeleton of every estimator; not used directly.

    An estimator made from it holds its parameters (``__init__``), its
    docstring, ``_learner_class`` (the :class:`~._learner.Learner` of its rule,
    built from the parameters at every call), ``decision_function`` and the
    fitted attributes the learner publishes. ``self._problems`` keeps the
    training state between calls (see :class:`~._problem.Problem`).
    """

    #: the estimator's rule (see :mod:`._learner`)
    _learner_class = None

    #: Called with the problem after every epoch when set (see :func:`on_epoch`).
    _on_epoch = None

    #: The file a model was read from (see :func:`rosenblatt.io.load`), until a new fit.
    _model_file = None

    #: What a model file holds of the state prediction reads besides the fitted
    #: attributes (:meth:`_prediction_state`): ``None``, nothing; else a
    #: :class:`~._file_form.ProblemFields` (the vote, the dual form).
    _state_form = None

    def __new__(cls, *args, **params):
        # Python would refuse an unknown keyword in the name of the class that defines
        # __init__ ("PenalizedRuleParameters.__init__() got an unexpected keyword..."):
        # name the estimator and the parameter meant instead
        unknown = [name for name in params if name not in cls._get_param_names()]
        if args or unknown:
            raise TypeError(unknown_parameters_message(cls, args, unknown))
        return super().__new__(cls)

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
        with self._kept_if_refused():
            width = getattr(self, "n_features_in_", None)
            X, y = validate_X_y(self, X, y, reset=True)
            classes = check_classes(y)
            warm = self.warm_start and hasattr(self, "_problems")
            check_warm_start(self, warm, classes, X, width)
            codes = encode_labels(y, classes)
            weights = row_weights(X, codes, classes, sample_weight, self.class_weight)
            learner = self._start_fit(classes, X, warm)
        self._learn(learner, X, codes, weights, partial=False)
        return self

    @contextlib.contextmanager
    def _kept_if_refused(self):
        """Put back the fitted width, feature names and classes when the checks of a
        refit refuse its input: the check of X resets them first, and a fitted model
        left with the new width and the old weights would read past its weights when
        it predicts (the structured perceptron's kernels do, without a word)."""
        names = ("n_features_in_", "feature_names_in_", "classes_")
        saved = {name: self.__dict__[name] for name in names if name in self.__dict__}
        try:
            yield
        except BaseException:
            for name in names:
                self.__dict__.pop(name, None)
            self.__dict__.update(saved)
            raise

    def _learner(self):
        """The rule, built from the current parameters and the fitted attributes
        it goes on from (see :mod:`._learner`)."""
        learner = self._learner_class(self.get_params(deep=False), name=type(self).__name__,
                                      classes=self.classes_, on_epoch=self._on_epoch)
        for name in learner._reads_fitted:
            setattr(learner, name, getattr(self, name, None))
        return learner

    def _start_fit(self, classes, X, warm):
        """The problems at the start of a fit (from ``init``, or the last fit's
        weights with ``warm``), the same for a serial fit and for
        :class:`~rosenblatt.distributed.ParameterMixing`; returns the learner.
        ``X`` gives the width."""
        self.classes_ = classes
        learner = self._learner()
        self._problems = learner.start_problems(
            X, check_random_state(self.random_state), self._problems if warm else None)
        return learner

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
        # (a linear model's own decision_function has refused them already: no second pass)
        if not getattr(self, "_scores_refused_if_not_finite", False) and \
                not np.isfinite(scores).all():
            check_scores(scores, validate_X(self, X, reset=False))
        if scores.ndim == 1:
            return self.classes_[(scores > 0).astype(np.intp)]
        return self.classes_[np.argmax(scores, axis=1)]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags

    # ----------------------------------------------------------------- training

    def _learn(self, learner, X, codes, weights, *, partial, bounds=None):
        """Train every problem on ``X`` (a whole fit, or one ``partial_fit`` epoch):
        the training loop on one shard holding every row (and every sentence,
        ``bounds``, when the rows are tokens), in this process."""
        renumbering = learner.column_renumbering(self._problems, X, partial)
        shard = Shard(X, codes, weights, renumbering=renumbering, bounds=bounds)
        learner._weighted_rows = weights is not None and bool(np.any(weights != weights[0]))
        try:
            learner.train(self._problems, [shard], ThreadBackend(), partial=partial)
        finally:  # an error or an interrupt too leaves the weights in their own numbering
            if renumbering is not None:
                renumbering.finish(self._problems)
        self._end_call(learner, partial)

    def _train_on(self, shards, classes, n_features, *, resume=False, epochs=None,
                  backend=None, weighted=False):
        """Train on ``shards`` (rows in memory or files read in blocks) with the
        training loop and the learner's stopping rule: a new fit, or with
        ``resume`` the saved run's problems going on where they stopped, up to
        ``epochs`` more epochs (default: ``max_iter``). The shards' rows must
        already be checked and their labels among ``classes``; ``weighted``: their
        rows weigh unequally (see the stopping rule)."""
        self._validate_params()
        backend = backend or ThreadBackend()
        if resume:
            self._refuse_if_loaded("resuming")
            learner = self._learner()
        else:
            self.n_features_in_ = n_features
            vars(self).pop("feature_names_in_", None)
            learner = self._start_fit(np.asarray(classes), np.empty((0, n_features)), False)
        learner._weighted_rows = weighted
        learner.train(self._problems, shards, backend, partial=False, epochs=epochs)
        self._end_call(learner, partial=False)
        return self

    def _end_call(self, learner, partial):
        """Publish the fitted attributes; after a fit, warn about problems that ran out."""
        self._publish(learner)
        self._model_file = None
        if not partial:
            message = learner.not_converged_message(self._problems)
            if message is not None:
                warn(message)

    def _publish(self, learner):
        """Set the fitted attributes the learner makes of the problems."""
        vars(self).update(learner.publish(self._problems))


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
            learner = self._start_fit(check_classes(classes), X, warm=False)
        else:
            if classes is not None and not np.array_equal(
                    classes := check_classes(classes), self.classes_):
                raise ValueError(
                    f"classes={classes.tolist()!r} differs from the classes of the "
                    f"first partial_fit call {self.classes_.tolist()!r}."
                )
            learner = self._learner()
        codes = encode_labels(y, self.classes_)
        weights = row_weights(X, codes, self.classes_, sample_weight, self.class_weight)
        self._learn(learner, X, codes, weights, partial=True)
        return self


#: scikit-learn's names for parameters rosenblatt calls otherwise
_SCIKIT_LEARN_NAMES = {"eta0": "eta", "learning_rate": "eta", "n_iter": "max_iter"}


def unknown_parameters_message(cls, args, unknown):
    """Why ``cls(*args, **params)`` is refused, with the parameter meant.

    >>> from rosenblatt import Perceptron
    >>> print(unknown_parameters_message(Perceptron, (), ["eta0"]))
    Perceptron got an unexpected keyword argument 'eta0': did you mean eta (scikit-learn's \
eta0)? See help(Perceptron) for its parameters.
    """
    name, names = cls.__name__, cls._get_param_names()
    if args:
        return (f"{name} takes its parameters by keyword only, e.g. {name}({names[0]}=...); "
                f"got {len(args)} positional argument(s).")
    given = unknown[0]
    meant = _SCIKIT_LEARN_NAMES.get(given)
    if meant in names:
        hint = f": did you mean {meant} (scikit-learn's {given})?"
    else:
        close = difflib.get_close_matches(given, names, n=1)
        hint = f": did you mean {close[0]}?" if close else \
            f"; its parameters are {', '.join(names)}."
    return f"{name} got an unexpected keyword argument {given!r}{hint} See help({name}) " \
        "for its parameters."


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


def check_warm_start(model, warm, classes, X, width):
    """Refuse a ``warm_start`` refit on other classes or on X of another width than
    the last fit's (the kernels would read and write past the weights).

    >>> from rosenblatt import Perceptron
    >>> model = Perceptron(warm_start=True).fit([[0.0], [1.0]], [0, 1])
    >>> check_warm_start(model, True, model.classes_, np.zeros((2, 3)), 1)
    Traceback (most recent call last):
    ValueError: warm_start=True continues the last fit, on 1 features; X has 3. Set warm_start=False to start afresh.
    """
    if warm and not np.array_equal(classes, model.classes_):
        raise ValueError(
            f"warm_start=True needs the classes of the first fit {model.classes_.tolist()!r}"
            f", got {classes.tolist()!r}; set warm_start=False to start afresh."
        )
    if warm and X.shape[1] != width:
        raise ValueError(
            f"warm_start=True continues the last fit, on {width} features; X has "
            f"{X.shape[1]}. Set warm_start=False to start afresh."
        )
