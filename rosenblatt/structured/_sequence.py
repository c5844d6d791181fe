"""The structured perceptron for sequence labelling (Collins 2002), on the one engine.

A sentence is one example: its tokens are rows of ``X`` (feature rows, usually
from :class:`~rosenblatt.structured.SentenceFeatures`), ``lengths`` says where
each sentence ends. The learner is one problem whose weights are the emission
weights ``W`` (n_features × K), the transitions ``T`` (K × K) and the start
weights ``T0`` (K), held as one flat vector so that everything the engine does
with a weight vector applies unchanged: Daumé's averaging sums
(:class:`~rosenblatt.linear_model._averaged.Averaging`), the mixing step of
:class:`~rosenblatt.distributed.ParameterMixing` (McDonald, Hall & Mann 2010
mixed exactly this model), model files and ``partial_fit``. An epoch is one call
of the compiled :func:`~._viterbi.sequence_epoch` over the sentences in the
epoch's order.
"""

import itertools
import threading
from dataclasses import dataclass

import numba
import numpy as np
from sklearn.metrics import accuracy_score
from sklearn.utils.validation import check_is_fitted

from .._config import check_weights_fit
from .._validation import (
    check_classes,
    check_lengths,
    check_scores,
    encode_labels,
    kernel_view,
    validate_X,
    validate_X_y,
)
from ..base import Learner, PerceptronClassifier, Problem, RuleState, constraints
from ..base._classifier import check_warm_start
from ..base._file_form import Floats
from ..base._linear import PARALLEL_SCORING_CELLS
from ..base._registry import register
from ..linear_model._averaged import Averaging
from ._forward_backward import forward_backward_batch, nbest_batch
from ._viterbi import sequence_epoch, viterbi_batch, viterbi_batch_parallel


@dataclass(frozen=True)
class SequenceTrace:
    """The updates of a ``record=True`` fit: for the ``m``-th update, the epoch,
    the sentence (its index among the fit's sentences) and its example number
    (sentences seen so far, 1-based, over every epoch)."""

    epochs: np.ndarray
    sentences: np.ndarray
    positions: np.ndarray

    @property
    def n_updates(self):
        return len(self.sentences)


class SequenceRecorder:
    """Collects the logged updates of each epoch into a :class:`SequenceTrace`."""

    def __init__(self):
        self.parts = []

    def add(self, epoch, sentences, positions):
        self.parts.append((np.full(len(sentences), epoch, dtype=np.int64),
                           sentences.copy(), positions.copy()))

    def build(self):
        columns = zip(*self.parts) if self.parts else ([], [], [])
        return SequenceTrace(*(np.concatenate(c) if len(c) else np.zeros(0, dtype=np.int64)
                               for c in map(list, columns)))


def split_weights(vector, n_features, n_labels):
    """Views ``(W, T, T0)`` into the flat weight vector (or its averaging sums)."""
    emissions = n_features * n_labels
    W = vector[:emissions].reshape(n_features, n_labels)
    T = vector[emissions:emissions + n_labels * n_labels].reshape(n_labels, n_labels)
    return W, T, vector[emissions + n_labels * n_labels:]


class SequenceLearner(Learner):
    """The structured perceptron's rule: decode each sentence, and on a wrong
    path add the gold path's features and subtract the predicted path's."""

    _reads_fitted = ("n_features_in_",)
    #: a row per label, and the transitions instead of biases (see base._file_form)
    published_form = {"coef_": Floats("classes", "features").needed().sparse(),
                      "transitions_": Floats("classes", "classes").needed(),
                      "start_transitions_": Floats("classes").needed()}
    _advice = ("the training sentences still hold tagging mistakes, as real corpora "
               "almost always do: max_iter epochs is the usual end (Collins' T); filter "
               "sklearn.exceptions.ConvergenceWarning to silence this")

    def _problem_classes(self):
        return [tuple(self.classes_)]

    def _problem_targets(self, codes):
        return [np.ascontiguousarray(codes, dtype=np.intp)]

    def _start_problems(self, X, rngs, previous):
        n_labels = len(self.classes_)
        _check_memory(X.shape[1], n_labels, self.average)
        if previous is not None:  # warm_start: the published weights, new sums
            start = np.array(previous[0].published()[0], dtype=np.float64)
        else:
            start = np.zeros(X.shape[1] * n_labels + n_labels * n_labels + n_labels)
        intercept = np.zeros(1)  # unused: the start weights T0 play its part
        state = Averaging.start(start, intercept) if self.average else RuleState()
        if self.average and previous is None:
            # the start is zero: a read-only broadcast zero, not n_features × K zeros kept
            # for the whole fit (a tagger of many labels holds gigabytes per such array)
            state.coef_start = np.broadcast_to(np.float64(0.0), start.shape)
        recorder = SequenceRecorder() if self.record else None
        return [Problem(coef=start, intercept=intercept, rng=rngs[0],
                        classes=tuple(self.classes_), state=state, recorder=recorder)]

    def check_shards(self, n_features, n_shards):
        _check_memory(n_features, len(self.classes_), self.average, n_shards)

    def _split(self, vector):
        return split_weights(vector, self.n_features_in_, len(self.classes_))

    def _epoch(self, problem, data, order):
        average = problem.state.kernel_average()
        if average is not None:
            average = self._split(average[0])
        log = None
        if problem.recorder is not None:
            log = (np.empty(data.n_units, dtype=np.int64), np.empty(data.n_units, dtype=np.int64))
        n_mistakes, _ = sequence_epoch(data.Xk, data.y, data.bounds, order,
                                       *self._split(problem.coef), average, problem.seen, log)
        if log is not None:
            problem.recorder.add(problem.n_iter, log[0][:n_mistakes], log[1][:n_mistakes])
        return n_mistakes

    def _problem_errors(self, problem, X, y, sw):
        raise ValueError("SequencePerceptron has no early stopping (sentences, not rows, "
                         "would be held out).")

    def publish(self, problems):
        problem = problems[0]
        published = problem.published()[0]
        # the mean of averaging is a new array; the running weights are copied
        W, T, T0 = self._split(np.array(published, dtype=np.float64,
                                        copy=published is problem.coef))
        fitted = {**super().publish(problems), "coef_": W.T, "transitions_": T.copy(),
                  "start_transitions_": T0.copy(),
                  "n_examples_": int(problem.seen[0])}
        if problem.recorder is not None:
            fitted["trace_"] = problem.recorder.build()
        return fitted


@register(None, "structured")
class SequencePerceptron(PerceptronClassifier):
    """Structured perceptron for sequence labelling: a label per token, the
    best label sequence per sentence (Collins 2002).

    A sentence of ``n`` tokens with feature rows ``x_0 … x_{n-1}`` gets the label
    path ``y`` of highest score::

        score(y) = T0[y_0] + Σ_t x_t · W[:, y_t] + Σ_{t≥1} T[y_{t-1}, y_t]

    found by Viterbi decoding (first order: label bigrams). Training visits the
    sentences one by one; when the decoded path differs from the gold one it
    adds the gold path's features and transitions and subtracts the predicted
    path's (the perceptron update, on the whole structure). With ``average=True``
    the model is the mean of the weights after every sentence (Collins §2.5),
    kept without a pass over the weights per update (Daumé's Alg. 7 sums).

    Training runs ``max_iter`` epochs, Collins' fixed ``T``; it ends earlier only
    after an epoch without a mistake (``converged_``). Real corpora rarely get
    there; running out of epochs ends with a ``ConvergenceWarning`` saying so, as
    every bounded loop of rosenblatt does (the parser's too).

    Parameters
    ----------
    max_iter : int, default=10
        Epochs over the sentences.
    average : bool, default=True
        Publish the mean of the weights over training (the averaged perceptron,
        much better on held-out text) instead of the last weights.
    shuffle : {"none", "once", "every_epoch"}, default="every_epoch"
        Sentence order: as given, one random permutation kept, or a new one each epoch.
    random_state : None, int, RandomState or Generator, default=None
        Source of the permutations.
    record : bool, default=False
        Keep a :class:`SequenceTrace` of the updates (epoch, sentence, example
        number) in ``trace_``.
    warm_start : bool, default=False
        Start ``fit`` from the weights of the previous fit.

    Attributes
    ----------
    classes_ : ndarray
        The token labels, sorted; code ``k`` is ``classes_[k]``.
    coef_ : ndarray of shape (n_classes, n_features)
        Emission weights: ``coef_[k] · x`` scores label ``k`` on a token.
    transitions_ : ndarray of shape (n_classes, n_classes)
        ``transitions_[i, j]`` scores label ``j`` right after label ``i``.
    start_transitions_ : ndarray of shape (n_classes,)
        Scores of each label on a sentence's first token.
    n_features_in_ : int
    n_iter_ : int
        Epochs run.
    n_updates_ : int
        Sentences whose decoded path was wrong (one update each), over every epoch.
    n_examples_ : int
        Sentences seen, over every epoch and call (what the mean is over).
    converged_ : bool
        Whether the last epoch made no mistake (every sentence decoded right).
    stop_reason_ : str
        ``"mistake_free"``, ``"max_iter"`` (Collins' fixed ``T`` epochs, the
        usual end), ``"early_stopping"`` or ``"partial_fit"``.
    trace_ : SequenceTrace
        With ``record=True`` only.

    References
    ----------
    Collins, "Discriminative training methods for hidden Markov models: theory
    and experiments with perceptron algorithms", EMNLP 2002. Daumé III, *A Course
    in Machine Learning*, Alg. 7 (the averaging sums).

    Examples
    --------
    Two sentences, one feature per word; after training, a new sentence made of
    the same words gets the labels its words had:

    >>> import numpy as np
    >>> from rosenblatt.structured import SequencePerceptron
    >>> X = np.eye(3)[[0, 1, 2, 0, 2]]          # words: the, dog, barks | the, barks
    >>> y = ["DET", "NOUN", "VERB", "DET", "VERB"]
    >>> model = SequencePerceptron(shuffle="none").fit(X, y, lengths=[3, 2])
    >>> model.predict(np.eye(3)[[0, 1]], lengths=[2]).tolist()
    ['DET', 'NOUN']
    """

    _PARAMETERS = ("max_iter", "average", "shuffle", "random_state", "record", "warm_start")
    _parameter_constraints = constraints(_PARAMETERS)
    _learner_class = SequenceLearner

    #: ParameterMixing shards this estimator's data by sentence (``lengths``)
    _fits_sequences = True

    #: the shared skeleton reads these; a sequence model has none of them
    class_weight = None

    def __init__(self, *, max_iter=10, average=True, shuffle="every_epoch", random_state=None,
                 record=False, warm_start=False):
        self.max_iter = max_iter
        self.average = average
        self.shuffle = shuffle
        self.random_state = random_state
        self.record = record
        self.warm_start = warm_start

    def fit(self, X, y, lengths):
        """Learn from token rows ``X``, token labels ``y`` and sentence ``lengths``.

        Parameters
        ----------
        X : array-like or CSR matrix of shape (n_tokens, n_features)
        y : array-like of shape (n_tokens,)
        lengths : array-like of int
            Tokens of each sentence, in order; they add up to ``n_tokens``.

        Returns
        -------
        self
        """
        self._validate_params()
        if self.warm_start:
            self._refuse_if_loaded("warm_start=True")
        with self._kept_if_refused():
            width = getattr(self, "n_features_in_", None)
            X, y = validate_X_y(self, X, y, reset=True)
            bounds = _bounds(check_lengths(lengths, X.shape[0]))
            classes = check_classes(y)
            warm = self.warm_start and hasattr(self, "_problems")
            check_warm_start(self, warm, classes, X, width)
            learner = self._start_fit(classes, X, warm)
        self._learn(learner, X, encode_labels(y, classes), None, partial=False, bounds=bounds)
        return self

    def partial_fit(self, X, y, lengths, classes=None):
        """One epoch over the sentences given, continuing from the current state.

        ``classes`` (every label the stream will hold) is required on the first call.

        Parameters
        ----------
        X : array-like or CSR matrix of shape (n_tokens, n_features)
        y : array-like of shape (n_tokens,)
        lengths : array-like of int
        classes : array-like, default=None

        Returns
        -------
        self
        """
        self._refuse_if_loaded("partial_fit")
        self._validate_params()
        first = not hasattr(self, "_problems")
        if first and classes is None:
            raise ValueError("classes must be passed on the first call to partial_fit: every "
                             "label the stream will contain, e.g. classes=['B-NP', 'I-NP', 'O'].")
        X, y = validate_X_y(self, X, y, reset=first)
        bounds = _bounds(check_lengths(lengths, X.shape[0]))
        if first:
            learner = self._start_fit(check_classes(classes), X, warm=False)
        else:
            if classes is not None and not np.array_equal(
                    classes := check_classes(classes), self.classes_):
                raise ValueError(f"classes={classes.tolist()!r} differs from the classes of "
                                 f"the first partial_fit call {self.classes_.tolist()!r}.")
            learner = self._learner()
        self._learn(learner, X, encode_labels(y, self.classes_), None, partial=True,
                    bounds=bounds)
        return self

    def predict(self, X, lengths):
        """The best label path of each sentence (Viterbi), one label per token.

        Parameters
        ----------
        X : array-like or CSR matrix of shape (n_tokens, n_features)
        lengths : array-like of int

        Returns
        -------
        ndarray of shape (n_tokens,)
        """
        X, bounds, weights = self._decoding(X, lengths)
        codes = np.empty(X.shape[0], dtype=np.intp)
        threads = numba.get_num_threads()
        # the Viterbi steps cost K² a token; numba's parallel kernels only from the main
        # thread (two at once abort the process: see rosenblatt.base._linear)
        if threads > 1 and len(bounds) > 2 and X.shape[0] * len(self.classes_) ** 2 >= \
                PARALLEL_SCORING_CELLS and threading.current_thread() is threading.main_thread():
            parts = min(4 * threads, len(bounds) - 1)  # runs of sentences, for balance
            viterbi_batch_parallel(kernel_view(X), bounds, *weights, codes, parts)
        else:
            viterbi_batch(kernel_view(X), bounds, *weights, codes)
        return self.classes_[codes]

    def predict_marginals(self, X, lengths):
        """The probability of every label on every token: the marginals of the
        model's Gibbs distribution, by forward–backward.

        The scores of the label paths of a sentence are read as a distribution at
        temperature 1, ``p(y | x) = exp(score(y)) / Σ_y' exp(score(y'))`` (a
        linear-chain CRF with this model's weights), and each token gets
        ``p(y_t = k | x)``, summed over every path, computed exactly (in log space,
        so no score overflows). A perceptron is trained to rank the right path
        first, not to give calibrated probabilities: its weights have no natural
        scale (training longer makes them larger, and these marginals sharper), so
        read them as the model's confidence, ordered like its scores, not as
        frequencies. Where a marginal's argmax differs from :meth:`predict`'s
        label, the best path and the best labels one by one disagree.

        Parameters
        ----------
        X : array-like or CSR matrix of shape (n_tokens, n_features)
        lengths : array-like of int

        Returns
        -------
        ndarray of shape (n_tokens, n_classes)
            Row ``t``, column ``k``: the probability of ``classes_[k]`` on token
            ``t``; every row sums to 1.

        Examples
        --------
        >>> import numpy as np
        >>> from rosenblatt.structured import SequencePerceptron
        >>> X = np.eye(3)[[0, 1, 2, 0, 2]]          # words: the, dog, barks | the, barks
        >>> y = ["DET", "NOUN", "VERB", "DET", "VERB"]
        >>> model = SequencePerceptron(shuffle="none").fit(X, y, lengths=[3, 2])
        >>> p = model.predict_marginals(np.eye(3)[[0, 1]], lengths=[2])
        >>> model.classes_.tolist(), np.round(p, 3).tolist()
        (['DET', 'NOUN', 'VERB'], [[0.894, 0.02, 0.085], [0.014, 0.761, 0.225]])
        """
        X, bounds, weights = self._decoding(X, lengths)
        marginals = np.empty((X.shape[0], len(self.classes_)))
        forward_backward_batch(kernel_view(X), bounds, *weights, marginals,
                               np.empty(len(bounds) - 1))
        return marginals

    def predict_nbest(self, X, lengths, n=5):
        """The ``n`` best label paths of each sentence and their scores, best first
        (exact k-best Viterbi).

        A sentence of ``m`` tokens has ``K^m`` paths; fewer than ``n`` are returned
        when it has fewer. The first is :meth:`predict`'s path, and paths of equal
        score come in a fixed order (the path of :meth:`predict` wins every tie the
        way Viterbi breaks it).

        Parameters
        ----------
        X : array-like or CSR matrix of shape (n_tokens, n_features)
        lengths : array-like of int
        n : int, default=5
            Paths per sentence, ``n >= 1``.

        Returns
        -------
        list of list of (ndarray, float)
            Per sentence, up to ``n`` pairs of a path (its labels, one per token)
            and its score ``T0[y_0] + Σ_t x_t · W[:, y_t] + Σ T[y_{t-1}, y_t]``, in
            decreasing order of score.

        Examples
        --------
        >>> import numpy as np
        >>> from rosenblatt.structured import SequencePerceptron
        >>> X = np.eye(3)[[0, 1, 2, 0, 2]]          # words: the, dog, barks | the, barks
        >>> y = ["DET", "NOUN", "VERB", "DET", "VERB"]
        >>> model = SequencePerceptron(shuffle="none").fit(X, y, lengths=[3, 2])
        >>> [(path.tolist(), score) for path, score in
        ...  model.predict_nbest(np.eye(3)[[0, 1]], lengths=[2], n=3)[0]]
        [(['DET', 'NOUN'], 3.5), (['DET', 'VERB'], 2.25), (['VERB', 'NOUN'], 1.0)]
        """
        if isinstance(n, (bool, np.bool_)) or not isinstance(n, (int, np.integer)) or n < 1:
            raise ValueError(f"n must be a whole number >= 1 (the paths to return per "
                             f"sentence); got {n!r}.")
        X, bounds, weights = self._decoding(X, lengths)
        n = int(n)
        paths = np.empty((X.shape[0], n), dtype=np.intp)
        scores = np.empty((len(bounds) - 1, n))
        found = np.empty(len(bounds) - 1, dtype=np.intp)
        nbest_batch(kernel_view(X), bounds, *weights, paths, scores, found)
        return [[(self.classes_[paths[start:stop, r]], float(scores[s, r]))
                 for r in range(found[s])]
                for s, (start, stop) in enumerate(itertools.pairwise(bounds))]

    def _decoding(self, X, lengths):
        """What every decoder reads, checked: ``X``, the sentence bounds, and the
        weights ``(W, T, T0)`` as the kernels take them."""
        check_is_fitted(self)
        X = validate_X(self, X, reset=False)
        lengths = check_lengths(lengths, X.shape[0])
        self._check_path_scores(X, lengths)
        weights = (np.ascontiguousarray(self.coef_.T), np.ascontiguousarray(self.transitions_),
                   np.ascontiguousarray(self.start_transitions_))
        return X, _bounds(lengths), weights

    def decision_function(self, X):
        """The emission scores ``coef_[k] · x`` of every label on every token (the
        transitions, which need the sentence, are not included).

        Parameters
        ----------
        X : array-like or CSR matrix of shape (n_tokens, n_features)

        Returns
        -------
        ndarray of shape (n_tokens, n_classes)
        """
        check_is_fitted(self)
        X = validate_X(self, X, reset=False)
        return check_scores(_emissions(X, self.coef_), X)

    def _check_path_scores(self, X, lengths, block=1 << 16):
        """Refuse X whose emission scores, or the score of a label path through its
        longest sentence, overflow to inf or NaN: Viterbi would pick an arbitrary
        path from them. Scores are computed ``block`` tokens at a time."""
        largest = 0.0
        for start in range(0, X.shape[0], block):
            part = X[start:start + block]
            largest = max(largest, float(np.abs(check_scores(_emissions(part, self.coef_),
                                                             part)).max(initial=0.0)))
        steps = (largest + float(np.abs(self.transitions_).max(initial=0.0))
                 + float(np.abs(self.start_transitions_).max(initial=0.0)))
        longest = int(np.max(lengths, initial=0))
        with np.errstate(over="ignore"):
            bound = np.float64(steps) * longest
        if not np.isfinite(bound):
            raise ValueError(
                f"The path scores of a sentence of {longest} tokens would overflow to inf "
                f"(emission scores up to {largest:.3g}): the decoded labels would be "
                "arbitrary. Scale X the way the training data was scaled, or split the "
                "longest sentences.")

    def score(self, X, y, lengths, sample_weight=None):
        """Token accuracy of :meth:`predict` on ``X``, ``y``.

        Returns
        -------
        float
        """
        # scikit-learn's accuracy checks y's length and type against the labels
        # predicted (labels '0' for classes 0 used to score 0.0 without a word)
        return float(accuracy_score(y, self.predict(X, lengths), sample_weight=sample_weight))

    def _prediction_state(self):
        """Arrays besides the public fitted attributes that prediction needs (for
        model files): none."""
        return {}

    def _restore_prediction_state(self, state):
        """Inverse of :meth:`_prediction_state`."""

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        return tags


def _check_memory(n_features, n_labels, average, n_shards=1):
    """Refuse weights that cannot fit in this machine's memory, with what to do,
    rather than let the system kill the process midway: the weights are
    ``n_features × K`` float64, and averaged training keeps two more arrays of
    that size (the sums and the mean it publishes). Each of ``n_shards > 1`` shards
    of parameter mixing deep-copies the running weights, and when averaging the sums
    and the zero start too (made full size by the copy).

    >>> _check_memory(10, 3, True, n_shards=4)  # a few kilobytes
    """
    copies = 3 if average else 2  # the running weights, (the sums,) the published ones
    if n_shards > 1:
        copies += n_shards * (3 if average else 1)
    check_weights_fit(
        "SequencePerceptron", n_features * n_labels + n_labels * n_labels + n_labels, copies,
        f"{n_features:,} features × {n_labels} labels", average,
        "Keep fewer features: SentenceFeatures(min_count=2) (or 'rosenblatt tag train "
        "--min-count 2') drops the strings met once, vocabulary='hash' with a smaller "
        "n_features caps them; or merge rare labels", n_shards)


def _emissions(X, coef):
    """``X @ coef.T`` in float64, overflow left to :func:`check_scores` to report."""
    with np.errstate(over="ignore", invalid="ignore"):
        return np.asarray(X @ coef.T, dtype=np.float64)


def _bounds(lengths):
    return np.concatenate(([0], np.cumsum(lengths))).astype(np.intp)

