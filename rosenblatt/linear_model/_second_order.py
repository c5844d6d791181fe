"""Second-order online rules: a weight vector ``w`` and a covariance ``Σ`` over it.

Seven binary rules share one learner and one kernel,
:func:`~rosenblatt._kernels._second_order.second_order_epoch`: for a row ``x``
with label ``y`` they read the margin ``m = y w·x`` and the variance
``v = xᵀΣx``, and when their condition holds move ``w`` along ``Σx`` and shrink
``Σ`` in that direction. They differ only in the condition and the scalars
(see each estimator's docstring and the kernel's module).

The state of a problem is the kernel's: the running weights ``w`` and bias
``b`` are the :class:`~rosenblatt.base.Problem`'s own ``coef`` and
``intercept`` (the kernel receives those very arrays, so the engine's mixing,
finiteness check and publishing see what the kernel wrote), and
:class:`CovarianceState` holds the rest: ``Σ`` (full or its diagonal, the bias
entry last), the second-order perceptron's ``u``, IELLIP's ``c_t`` and the
mistakes of each epoch.

Mixing across shards (:class:`~rosenblatt.distributed.ParameterMixing`): the
weights by ``μ`` as every rule; the covariance averaged by the same ``μ``, as
Hivemall and Jubatus mix theirs (see :data:`COVARIANCE_MIXING` for the
measurement behind the choice, and :meth:`CovarianceState.mixed`).
"""

from abc import abstractmethod
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from sklearn.utils._param_validation import StrOptions
from sklearn.utils.validation import check_is_fitted

from .._kernels import _second_order as so
from .._validation import PREFETCH_FEATURES
from ..base import (
    LinearLearner,
    LinearModel,
    OnlineMixin,
    PerceptronClassifier,
    Problem,
    Traced,
    constraints,
)
from ..base._file_form import Floats
from ..base._mistakes import CountsMistakes, MistakeCounts
from ..base._parameters import RealNumber
from ..base._registry import register
from ._online import update_log
from ._probabilities import GaussianProbabilities

#: the largest ``Σ`` of ``covariance="full"``: ``(d + 1)²`` float64 per problem
#: (5,000² × 8 bytes = 200 MB); wider data must use ``covariance="diagonal"``
MAX_FULL_DIMENSION = 5000
#: the largest total of the one-vs-rest problems' ``Σ`` (ten problems at the largest
#: dimension): 1,000 classes of 3,001² would allocate 72 GB until a MemoryError
MAX_FULL_BYTES = 10 * MAX_FULL_DIMENSION**2 * 8

#: How the shards' covariances combine after an epoch of parameter mixing:
#: ``"covariance"`` averages ``Σᵢ`` by ``μ`` (Hivemall's and Jubatus's mix),
#: ``"precision"`` averages ``Σᵢ⁻¹`` (``Σ = (Σ μᵢ Σᵢ⁻¹)⁻¹``; for the diagonal form
#: the harmonic mean of the variances). Measured on a9a → a9a.t (5 epochs,
#: ``random_state=0``, test accuracy, serial / precision / covariance): at 4
#: shards AROW 84.95 / 84.97 / 84.97 (full) and 84.95 / 84.99 / 84.99 (diagonal),
#: SCW-I 84.87 / 84.84 / 84.82, NHERD 84.99 / 84.93 / 84.91; at 16 shards AROW
#: 84.95 / 85.03 / 85.01, SCW-I (diagonal) 82.89 / 84.15 / 84.22, SOP 80.55 /
#: 84.12 / 84.22, IELLIP 82.36 / 84.11 / 84.12, CW 68.37 / 83.19 / 83.32. The two
#: agree within 0.15 point everywhere at 16 shards; at 4 shards they differ by up to
#: 0.7 point for SOP and IELLIP, each winning as often (CW, unstable on noisy data,
#: by 5). So the one that needs no inversion is the default: an average of
#: covariances is always a covariance (finite, positive semi-definite) and costs
#: O(D²) per shard, where the precision needs every ``Σᵢ`` invertible and well
#: conditioned (CW's and SCW's shrink factor ``1 − β s x²`` can come close to 0)
#: and O(D³) per shard in the full form. (Adding the shards' precision gains, as a
#: serial pass would gather them, diverged for CW and IELLIP at 4 and 16 shards.)
COVARIANCE_MIXING = "covariance"

#: ``covariance="auto"`` keeps the full ``Σ`` up to this many features, its diagonal
#: above. Measured by ``python benchmarks/bench_family_options.py covariance
#: covariance-multiclass`` (default parameters, random_state=0; test accuracy full /
#: diagonal, CPU of the fit full ÷ diagonal; AMD EPYC 2.6 GHz): pendigits (16
#: features) AROW 86.9 / 82.1 at 1.0×, SCW-I 86.5 / 84.6 at 2.3×; a9a (123) AROW
#: 84.94 / 84.96 at 4.2×, SCW-I 84.82 / 82.88 at 3.8×; w8a (300, the last 20 % held
#: out) AROW 99.87 / 99.82 at 27×, SCW-I 99.77 / 99.74 at 7.8×; MNIST (784, the t10k
#: file's first 7,000 images to train, last 3,000 to test, 10 classes) AROW 88.9 /
#: 91.7 at 12×, SCW-I 88.4 / 89.9 at 8.9×. The native multiclass rules agree:
#: pendigits MulticlassAROW 82.6 / 82.0, MulticlassSCW 80.3 / 81.6 (both about 1×),
#: MNIST 87.6 / 91.6 at 26× and 89.0 / 90.3 at 5.3×. The full form wins (or ties) up
#: to a9a's width at a few times the CPU, ties on w8a's at 8-27× and loses on MNIST's;
#: the threshold sits between a9a and w8a.
AUTO_FULL_MAX_FEATURES = 200


def resolved_covariance(covariance, n_features):
    """The form ``covariance`` gives on ``n_features`` features: ``"auto"`` is
    ``"full"`` up to :data:`AUTO_FULL_MAX_FEATURES`, ``"diagonal"`` above.

    >>> resolved_covariance("auto", 123), resolved_covariance("auto", 784)
    ('full', 'diagonal')
    >>> resolved_covariance("full", 784)
    'full'
    """
    if covariance != "auto":
        return covariance
    return "full" if n_features <= AUTO_FULL_MAX_FEATURES else "diagonal"


class CovarianceForm:
    """Estimator mixin: ``covariance_form_``, the form of ``Σ`` the fitted model
    keeps (``"full"`` or ``"diagonal"``: what ``covariance="auto"`` resolved to),
    read from ``covariance_`` itself (so a model file of any version shows it)."""

    #: whether the model keeps one ``Σ`` (the native multiclass rules) rather than one
    #: per problem (stacked for one-vs-rest)
    _one_covariance = False

    @property
    def covariance_form_(self):
        check_is_fitted(self, "covariance_")
        stacked = not self._one_covariance and len(self.classes_) > 2
        return "full" if np.ndim(self.covariance_) == 2 + stacked else "diagonal"


def check_dimension(name, covariance, dimension, n_problems):
    """Refuse ``covariance="full"`` beyond :data:`MAX_FULL_DIMENSION`, or beyond
    :data:`MAX_FULL_BYTES` over every problem, naming the memory."""
    if covariance != "full":
        return
    size = dimension * dimension * 8 * n_problems
    each = "" if n_problems == 1 else f" for {n_problems} one-vs-rest problems"
    if dimension <= MAX_FULL_DIMENSION and size > MAX_FULL_BYTES:
        raise ValueError(
            f"{name}(covariance='full') keeps a {dimension} x {dimension} float64 covariance "
            f"matrix per problem: {_bytes(size)}{each}, over the {_bytes(MAX_FULL_BYTES)} it "
            f"allows in all. Use covariance='diagonal', which keeps {dimension} numbers per "
            "problem, or fewer features (or classes)."
        )
    if dimension <= MAX_FULL_DIMENSION:
        return
    raise ValueError(
        f"{name}(covariance='full') keeps a {dimension} x {dimension} float64 covariance "
        f"matrix per problem: {_bytes(size)}{each}, and O({dimension}²) work per update. "
        f"Above {MAX_FULL_DIMENSION} dimensions (features + intercept) it is refused; use "
        f"covariance='diagonal', which keeps {dimension} numbers per problem and costs "
        "O(nonzeros) per row."
    )


def stepped(epoch, name, *args):
    """Run the compiled ``epoch`` on ``args``, its division by zero (a step of
    parameters and row weights so extreme that float64 rounds a term to 0 or
    infinity: NHERD ``C=1e300``, SCW-II ``C × sw = 1e-600``) refused in words."""
    try:
        return epoch(*args)
    except ZeroDivisionError as error:
        raise ValueError(
            f"{name} divided by zero in a step: its parameters (C, r) times the row "
            "weights (sample_weight, class_weight) are so large or small that float64 "
            "rounds a step's terms to 0 or infinity. Use parameters and weights nearer 1 "
            "(e.g. C and r in [1e-100, 1e100], weights rescaled to a mean of 1)."
        ) from error


def _bytes(size):
    for unit in ("bytes", "KB", "MB", "GB", "TB"):
        if size < 1000 or unit == "TB":
            return f"{size:.3g} {unit}" if unit != "bytes" else f"{size} bytes"
        size /= 1000


@dataclass
class CovarianceState(MistakeCounts):
    """What a second-order rule keeps besides ``w`` and ``b``.

    ``cov`` is ``Σ`` (``(D, D)``, ``covariance="full"``) or its diagonal
    (``(D,)``), ``D = n_features + fit_intercept``, the bias entry last (the
    second-order perceptron keeps ``Σ = A⁻¹``); ``u`` the second-order
    perceptron's ``Σ y x`` over its mistakes (``(D,)``; empty for the other
    rules); ``c`` IELLIP's ``c_t`` for the next row (``(1,)``; 0 for the others);
    ``fit_intercept`` whether ``cov`` and ``u`` end with the bias entry.
    """

    cov: np.ndarray
    u: np.ndarray
    c: np.ndarray
    fit_intercept: bool

    @property
    def renumberable(self):
        """A diagonal moves with the columns (:meth:`renumber`); a full matrix is
        not renumbered (wide sparse data, where renumbering helps, needs the
        diagonal form anyway)."""
        return self.cov.ndim == 1

    def kernel_state(self, problem):
        """The kernel's :class:`~rosenblatt._kernels._second_order.SecondOrderState`,
        made of the problem's own weight arrays and this state's."""
        return so.SecondOrderState(problem.coef, problem.intercept, self.cov, self.u, self.c,
                                   problem.seen)

    def n_features(self):
        return self.cov.shape[0] - int(self.fit_intercept)

    def covariance(self):
        """``Σ`` without the bias entry, as ``covariance_`` publishes it."""
        d = self.n_features()
        return (self.cov[:d, :d] if self.cov.ndim == 2 else self.cov[:d]).copy()

    def bias_covariance(self):
        """The bias's entries of ``Σ``, as ``intercept_covariance_`` publishes them:
        its row of the full ``Σ`` (the covariances with the features, then its
        variance; ``(d + 1,)``) or its variance (``()``, diagonal form); zeros
        without intercept, where the bias is 0 for sure."""
        d = self.n_features()
        if not self.fit_intercept:
            return np.zeros(d + 1) if self.cov.ndim == 2 else np.zeros(())
        return self.cov[d].copy()

    def renumber(self, move):
        d = self.n_features()
        move(self.cov[:d])
        if self.u.size:
            move(self.u[:d])

    def mixed(self, before, parts, mu, coef, intercept, seen):
        """The shards' copies combined: ``Σ`` averaged by ``μ`` (see
        :data:`COVARIANCE_MIXING`), SOP's
        ``u`` by ``μ`` like the weights, and then SOP's weights set to ``Σu`` (they
        are a function of ``A`` and ``u``; this writes into ``coef`` and
        ``intercept``, the mixed weights the problem takes); IELLIP's ``c_t`` decays
        once per row of every shard, ``c₀ · Π (cᵢ / c₀)`` (= ``c₀ bⁿ`` for the ``n``
        rows of the epoch); the mistakes of the epoch add up."""
        cov = mix_covariance(self.cov, [part.state.cov for part in parts], mu)
        u = self.u.copy()
        for weight, part in zip(mu, parts):
            u += weight * (part.state.u - self.u)
        if u.size:
            shifted = cov @ u if cov.ndim == 2 else cov * u
            d = self.n_features()
            coef[...] = shifted[:d]
            intercept[0] = shifted[d] if self.fit_intercept else 0.0
        c = self.c.copy()
        if c[0] > 0.0:
            for part in parts:
                c *= part.state.c / self.c
        return CovarianceState(cov, u, c, self.fit_intercept,
                               mistakes=self.mixed_mistakes(parts))

    def is_finite(self, problem):
        return super().is_finite(problem) and all(
            np.all(np.isfinite(array)) for array in (self.cov, self.u, self.c))


def mix_covariance(start, covariances, mu, how=None):
    """``start`` moved by the shards' ``covariances`` weighted by ``mu``: their
    precisions ``Σ⁻¹`` averaged (``how="precision"``), or ``Σ`` itself
    (``"covariance"``); ``None``: :data:`COVARIANCE_MIXING`. Both as the engine
    mixes the weights, ``x₀ + Σ μᵢ (xᵢ − x₀)``."""
    how = how or COVARIANCE_MIXING
    if how == "covariance":
        mixed = start.copy()
        for weight, cov in zip(mu, covariances):
            mixed += weight * (cov - start)
        return mixed
    invert = _invert_diagonal if start.ndim == 1 else _invert_symmetric
    precision = invert(start)
    mixed = precision.copy()
    for weight, cov in zip(mu, covariances):
        mixed += weight * (invert(cov) - precision)
    return invert(mixed)


def _invert_diagonal(s):
    with np.errstate(divide="ignore"):
        return 1.0 / s


def _invert_symmetric(matrix):
    inverse = np.linalg.inv(matrix)
    return (inverse + inverse.T) / 2.0  # exactly symmetric, as the kernel keeps Σ


def copied(state):
    """A copy of a kernel state's arrays."""
    return type(state)(*(array.copy() for array in state))


def replayed_orders(order, n_rows, rows, restart):
    """The row orders that replay an epoch up to each of its updates, for the
    weights after each (``record=True``): pairs ``(segment, fresh)``, where a
    copy of the epoch's starting state (afresh when ``fresh``) trained on
    ``segment`` holds, bit for bit, the weights the epoch had right after the
    update of row ``rows[k]``.

    Without ``restart`` each segment goes on from the last (a kernel's call keeps
    nothing between rows but its arrays, so calls in a row are the one call);
    with it (IELLIP, whose call keeps its factor ``γ`` aside until it ends) every
    segment is a prefix of the epoch from its start: quadratic, for
    teaching-size data.

    >>> [(s.tolist(), fresh) for s, fresh in replayed_orders(np.empty(0, np.intp), 5,
    ...                                                      np.array([1, 3]), False)]
    [([0, 1], False), ([2, 3], False)]
    """
    visit = order if len(order) else np.arange(n_rows, dtype=np.intp)
    where = np.empty(n_rows, dtype=np.intp)
    where[visit] = np.arange(len(visit), dtype=np.intp)
    done = 0
    for end in where[np.asarray(rows, dtype=np.intp)] + 1:
        start = 0 if restart else done
        yield np.ascontiguousarray(visit[start:end]), restart
        done = end


def _bias_covariance_shape(file):
    """``intercept_covariance_`` in a model file: a row of ``d + 1`` per problem
    (full form) or one variance per problem (diagonal form)."""
    d, problems = file.sizes["features"], file.sizes["problems"]
    full = resolved_covariance(file.model.covariance, d) == "full"
    return (problems, d + 1) if full else (problems,)


def _covariance_shape(file):
    """``covariance_`` in a model file: ``Σ`` without the bias entry, ``(d, d)`` or its
    diagonal ``(d,)``, stacked on a first axis for one-vs-rest."""
    d, problems = file.sizes["features"], file.sizes["problems"]
    one = (d, d) if resolved_covariance(file.model.covariance, d) == "full" else (d,)
    return one if problems == 1 else (problems, *one)


class SecondOrderLearner(CountsMistakes, Traced, LinearLearner):
    """A binary second-order rule: one call of ``second_order_epoch`` per epoch,
    from ``w = 0`` and ``Σ = aI``; stops after an epoch without a mistake. Each
    rule's learner gives :meth:`_rule` (and IELLIP its ``c``)."""

    published_form = {"covariance_": Floats(_covariance_shape),
                      "intercept_covariance_": Floats(_bias_covariance_shape)}

    _advice = ("these rules are usually run for one to a few passes, where a mistake-free "
               "pass is not expected: raise max_iter to train longer, or ignore the "
               "warning (n_mistakes_ shows the mistakes of each epoch)")

    @abstractmethod
    def _rule(self):
        """The kernel's :class:`~rosenblatt._kernels._second_order.SecondOrderRule`."""

    def _covariance(self, n_features):
        """The form of ``Σ`` on ``n_features`` features (``"auto"`` resolved)."""
        return resolved_covariance(self.covariance, n_features)

    def _first_state(self, n_features):
        """The kernel's starting state (``w = 0``, ``Σ = aI``)."""
        return so.new_state(self._rule(), n_features, a=self.a,
                            covariance=self._covariance(n_features),
                            fit_intercept=self.fit_intercept)

    def _start_problems(self, X, rngs, previous):
        n_features = X.shape[1]
        dimension = n_features + int(self.fit_intercept)
        check_dimension(self.name, self._covariance(n_features), dimension, len(rngs))
        problems = []
        for k, (rng, classes) in enumerate(zip(rngs, self._problem_classes())):
            if previous is None:
                start = self._first_state(n_features)
                if _pairs_pay(X, self._rule(), start):
                    start = so.as_pairs(start)
                coef, intercept = start.w, start.b
                state = CovarianceState(start.cov, start.u, start.c, bool(self.fit_intercept))
            else:  # warm start: the weights and the covariance go on
                last = previous[k]
                check_continues(self, last, n_features)
                coef, intercept = last.coef.copy(), last.intercept.copy()
                state = CovarianceState(last.state.cov.copy(), last.state.u.copy(),
                                        last.state.c.copy(), last.state.fit_intercept)
            problems.append(Problem(coef=coef, intercept=intercept, rng=rng, classes=classes,
                                    state=state,
                                    recorder=self._new_recorder(coef, intercept, classes)))
        return problems

    def _before_training(self, problems, shards, backend, partial):
        for problem in problems:
            check_continues(self, problem, problem.coef.shape[-1])

    def _confirms_on_weights(self, problem):
        return True  # the rules update rows they classify right (a margin, a confidence)

    def _epoch(self, problem, data, order):
        state, recorder, rule = problem.state, problem.recorder, self._rule()
        weights = state.kernel_state(problem)
        log = update_log(data.n_rows) if recorder is not None else None
        start = copied(weights) if recorder is not None else None
        carry = ()
        if rule.code == so.IELLIP and recorder is None:  # Σ's factor over the epoch's blocks
            if getattr(problem, "_carry", None) is None:
                problem._carry = np.zeros(2)
            carry = (problem._carry,)
        # wide CSR: w and s as pairs for the epoch (one cache miss per value, not two)
        epoch = so.interleaved_epoch if so.interleaves(data.Xk, order, rule, weights) else \
            so.second_order_epoch
        n_mistakes, n_updates = stepped(
            epoch, self.name, data.Xk, data.y, data.kernel_sw, order, rule,
            self.fit_intercept, weights, log, *carry)
        state.count_mistakes(problem.n_iter, n_mistakes)
        if recorder is not None:
            rows, activations, positions = (column[:n_updates] for column in log)
            coefs, intercepts, running = [], [], start
            for segment, fresh in replayed_orders(order, data.n_rows, rows,
                                                  restart=rule.code == so.IELLIP):
                running = copied(start) if fresh or running is start else running
                so.second_order_epoch(data.Xk, data.y, data.kernel_sw, segment, rule,
                                      self.fit_intercept, running, None)
                coefs.append(running.w.copy())
                intercepts.append(running.b[0])
            recorder.add_snapshots(problem.n_iter, data.X, data.y, rows, activations,
                                   positions, coefs, intercepts)
        return n_updates

    def _epoch_end(self, problem):
        if getattr(problem, "_carry", None) is not None:
            so.second_order_unscale(problem.state.kernel_state(problem).cov, problem._carry)
            problem._carry = None

    def publish(self, problems):
        """Adds ``covariance_``: ``Σ`` without the bias entry, one per problem stacked
        on a first axis for one-vs-rest; and ``intercept_covariance_``, the bias's
        entries, one row per problem (as ``intercept_``)."""
        fitted = super().publish(problems)
        covariances = [p.state.covariance() for p in problems]
        fitted["covariance_"] = covariances[0] if len(covariances) == 1 else \
            np.stack(covariances)
        fitted["intercept_covariance_"] = np.stack([p.state.bias_covariance() for p in problems])
        return fitted


def _pairs_pay(X, rule, state):
    """Whether to keep ``w`` and the diagonal ``s`` as pairs (``so.as_pairs``) from the
    start: wide CSR data (weights beyond the caches: two misses a stored value
    apart, one as pairs) and a rule whose epoch uses them (not SOP)."""
    return (sp.issparse(X) and X.shape[1] >= PREFETCH_FEATURES and state.cov.ndim == 1
            and rule.code != so.SOP)


def check_continues(learner, problem, n_features):
    """A problem goes on (``warm_start``, ``partial_fit``) only with the form of
    ``Σ`` it has: the same features, ``fit_intercept`` and ``covariance``."""
    state = problem.state
    dimension = n_features + int(learner.fit_intercept)
    form = "full" if state.cov.ndim == 2 else "diagonal"
    if problem.coef.shape[-1] != n_features or state.cov.shape[0] != dimension or \
            form != learner._covariance(n_features) or \
            state.fit_intercept != bool(learner.fit_intercept):
        bias = " and the intercept" if state.fit_intercept else ""
        raise ValueError(
            f"{learner.name} continues its last fit, whose covariance is {form} over "
            f"{problem.coef.shape[-1]} features{bias}; got {n_features} features with "
            f"covariance={learner.covariance!r} (here {learner._covariance(n_features)!r}) and "
            f"fit_intercept={learner.fit_intercept}. Call fit with warm_start=False to "
            "start afresh."
        )


class SecondOrderPerceptronLearner(SecondOrderLearner):
    def _rule(self):
        return so.second_order_rule("sop")

    def _separable_data_converge(self, problem):
        return True  # a perceptron-like mistake bound on separable data

    def _confirms_on_weights(self, problem):
        return False  # it updates on mistakes only


class ConfidenceWeightedLearner(SecondOrderLearner):
    def _rule(self):
        return so.second_order_rule("cw", eta=self.eta)


class AROWLearner(SecondOrderLearner):
    def _rule(self):
        return so.second_order_rule("arow", r=self.r)


class NAROWLearner(SecondOrderLearner):
    def _rule(self):
        return so.second_order_rule("narow", b=self.b)


class NHERDLearner(SecondOrderLearner):
    def _rule(self):
        return so.second_order_rule("nherd", C=self.C)


class IELLIPLearner(SecondOrderLearner):
    def _rule(self):
        return so.second_order_rule("iellip", b=self.b)

    def _first_state(self, n_features):
        return so.new_state(self._rule(), n_features, a=self.a,
                            covariance=self._covariance(n_features),
                            fit_intercept=self.fit_intercept, c=self.c)


#: SCW's confidence ``eta`` when given as None, by variant (LIBOL's defaults)
SCW_DEFAULT_ETA = {"I": 0.75, "II": 0.90}


class SoftConfidenceWeightedLearner(SecondOrderLearner):
    def _rule(self):
        eta = self.eta if self.eta is not None else SCW_DEFAULT_ETA[self.variant]
        return so.second_order_rule("scw1" if self.variant == "I" else "scw2", C=self.C,
                                    eta=eta)


#: the parameters every second-order estimator ends with
SHARED_PARAMETERS = (
    "covariance", "fit_intercept", "max_iter", "tol", "n_iter_no_change", "shuffle",
    "random_state", "record", "class_weight", "warm_start",
)
POSITIVE = [RealNumber(0, None, closed="neither")]
CONFIDENCE = [RealNumber(0.5, 1, closed="neither")]
SHARED_CONSTRAINTS = {"covariance": [StrOptions({"auto", "full", "diagonal"})],
                      "a": POSITIVE}


@register("sop", "second-order")
class SecondOrderPerceptron(CovarianceForm, OnlineMixin, LinearModel, PerceptronClassifier):
    """The second-order perceptron: the perceptron in the metric of the data's correlation.

    Cesa-Bianchi, Conconi & Gentile (2005). With ``A = aI + Σ x xᵀ`` and
    ``u = Σ y x``, both summed over the past mistakes (rows with the constant 1
    appended when ``fit_intercept``), the weights are ``w = A⁻¹ u``. On a row
    with ``y w·x <= 0`` (a tie is a mistake):

    - ``u += y x`` and ``A += x xᵀ`` (only on mistakes);
    - ``w = A⁻¹ u`` (the paper predicts with ``uᵀ (A + x xᵀ)⁻¹ x``, of the same sign).

    ``A⁻¹`` is kept rather than ``A``, updated by Sherman–Morrison:
    ``Σ -= (Σx)(Σx)ᵀ / (1 + xᵀΣx)``, from ``Σ = I/a``; ``covariance_`` is this
    ``A⁻¹``. ``covariance="diagonal"`` keeps only its diagonal ``s``, shrunk by
    the diagonal of the same update, ``s -= (s∘x)² / (1 + Σ s x²)``, and
    ``w = s∘u``: ``O(nonzeros)`` per row instead of ``O(d²)``.

    A row weight ``ω`` (``sample_weight`` times ``class_weight``) counts the row
    ``ω`` times: ``A += ω x xᵀ``, ``u += ω y x``; a weight of 0 drops the row.

    Probabilities: none; its matrix ``A⁻¹`` is the inverse of the (regularised)
    correlation matrix of the rows it erred on, the metric of its update, not
    the covariance of a distribution over weight vectors, so
    ``Φ(w·x/√(xᵀA⁻¹x))`` would be no probability of the paper's model. For
    probabilities, calibrate its scores with
    :class:`sklearn.calibration.CalibratedClassifierCV`.

    Parameters
    ----------
    a : float, default=1.0
        The regulariser ``a > 0``: ``A`` starts at ``aI``. Small ``a``: the
        first mistakes weigh more.
    covariance : {"auto", "full", "diagonal"}, default="auto"
        ``A⁻¹`` as a ``(d+1) × (d+1)`` matrix (the paper's rule; refused above
        5,000 dimensions, whose matrix alone would take 200 MB) or only its
        diagonal (the rule's diagonal approximation, for wide sparse data).
        ``"auto"``: ``"full"`` up to 200 features, ``"diagonal"`` above (measured:
        full gained 2 to 5 points on pendigits' 16 features at 1-2.3× the CPU and
        up to 2 on a9a's 123 at 4×, tied on w8a's 300 at 8-27×, lost 1.5 to 3
        points on MNIST's 784 at 9-12×; ``covariance_form_`` says which was used).
    fit_intercept : bool, default=True
        Learn a bias ``b``: the weight of a constant feature 1 appended to every
        row (its entry is the last of ``A``). False: the boundary passes through 0.
    max_iter : int, default=1000
        Largest number of epochs (the papers' algorithms are one pass:
        ``max_iter=1``). Training stops by the stopping rule of the mistake-driven rules
        (:mod:`rosenblatt.base._stopping`): after an epoch without a mistake (``y f <= 0``,
        counted as each row is met, before its update); or when the epoch's mistakes have not
        fallen by ``tol × n_samples`` for ``n_iter_no_change`` epochs, unless a linear program
        finds the rows separable (on data of up to 50,000 values), where the rule's mistake
        bound promises a mistake-free epoch. ``stop_reason_`` says which; a run that reaches
        ``max_iter`` first warns (``ConvergenceWarning``).
    tol : float or None, default=1e-3
        The stall threshold above, as a share of the rows. ``None``: stop only
        at a mistake-free epoch or ``max_iter``.
    n_iter_no_change : int, default=5
        Epochs without that improvement before training stops.
    shuffle : {"none", "once", "every_epoch"}, default="every_epoch"
        Row order (Daumé §4.2): as given, one random permutation kept for every
        epoch, or a new permutation each epoch. ``"none"`` with ``max_iter=1``
        is the paper's single pass.
    random_state : None, int, RandomState or Generator, default=None
        Source of the permutations. A generator you pass is advanced in place,
        as in scikit-learn.
    record : bool, default=False
        Keep a :class:`~rosenblatt.Trace` of every update in ``trace_``, with the
        weights after each (replayed exactly by the kernel up to each update:
        slow, for teaching-size data); its ``update`` is NaN, the step not
        being a multiple of ``x``.
    class_weight : dict, "balanced" or None, default=None
        Multiplies the weight of each row by the weight of its class.
    warm_start : bool, default=False
        Start ``fit`` from the previous fit's ``u``, ``A⁻¹`` and weights instead
        of ``u = 0``, ``A = aI``.
    n_jobs : int or None, default=None
        Threads for one-vs-rest (one binary problem per thread); -1 for every
        core. Results do not depend on it.

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
        The weights ``w = A⁻¹ u`` (without the bias).
    intercept_ : ndarray of shape (1,) or (n_classes,)
        The bias, the weight of the constant feature.
    covariance_ : ndarray
        ``A⁻¹`` without the bias entry: shape (n_features, n_features), or
        (n_features,) for ``covariance="diagonal"``; for one-vs-rest one per
        class, stacked: (n_classes, n_features, n_features) or
        (n_classes, n_features).
    intercept_covariance_ : ndarray
        The bias's entries of ``Σ``: its row of the full matrix (its
        covariances with the features, then its variance), shape
        (1, n_features + 1) or (n_classes, n_features + 1) for one-vs-rest; or
        its variance, shape (1,) or (n_classes,), for ``covariance="diagonal"``.
        Zeros with ``fit_intercept=False``.
    classes_ : ndarray
        The labels, sorted; ``classes_[0]`` is coded -1 and ``classes_[1]`` +1.
    n_features_in_ : int
        Number of features seen in ``fit``.
    n_iter_ : int
        Epochs run (the largest over the one-vs-rest problems).
    n_updates_ : int
        Updates made (its mistakes; summed over the problems).
    n_mistakes_ : ndarray of int, shape (n_epochs,)
        Mistakes (``y w·x <= 0`` before the row's update) in each epoch, summed
        over the one-vs-rest problems; ``n_mistakes_[0] / n_samples`` is LIBOL's
        online mistake rate of one pass.
    converged_ : bool
        Whether the last epoch made no mistake (for every problem);
        never ``True`` otherwise: a stop by ``tol`` is not convergence.
    stop_reason_ : str
        Why training ended: ``"mistake_free"``, ``"tol"`` (the mistakes stopped
        falling), ``"early_stopping"``, ``"max_iter"`` (with a
        ``ConvergenceWarning``), or ``"partial_fit"`` after a ``partial_fit``
        call; for one-vs-rest, the reason of the problem that ran longest.
    trace_ : Trace, or tuple of Trace (one per class)
        With ``record=True`` only.

    See Also
    --------
    AROW : the second-order rule most used in practice, which also updates on
        correct rows of small margin.

    References
    ----------
    N. Cesa-Bianchi, A. Conconi and C. Gentile, "A second-order perceptron
    algorithm", SIAM J. Comput. 34(3), 2005.

    Examples
    --------
    >>> from rosenblatt.linear_model import SecondOrderPerceptron
    >>> X, y = [[0, 0], [0, 1], [1, 0], [1, 1]], [-1, -1, -1, 1]
    >>> model = SecondOrderPerceptron(shuffle="none").fit(X, y)
    >>> model.n_mistakes_.tolist(), model.predict(X).tolist()
    ([2, 3, 0], [-1, -1, -1, 1])
    """

    _PARAMETERS = ("a",) + SHARED_PARAMETERS + ("n_jobs",)
    _parameter_constraints = constraints(_PARAMETERS, **SHARED_CONSTRAINTS)

    def __init__(
        self,
        *,
        a=1.0,
        covariance="auto",
        fit_intercept=True,
        max_iter=1000,
        tol=1e-3,
        n_iter_no_change=5,
        shuffle="every_epoch",
        random_state=None,
        record=False,
        class_weight=None,
        warm_start=False,
        n_jobs=None,
    ):
        self.a = a
        self.covariance = covariance
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol
        self.n_iter_no_change = n_iter_no_change
        self.shuffle = shuffle
        self.random_state = random_state
        self.record = record
        self.class_weight = class_weight
        self.warm_start = warm_start
        self.n_jobs = n_jobs

    _learner_class = SecondOrderPerceptronLearner


@register("cw", "second-order")
class ConfidenceWeighted(CovarianceForm, GaussianProbabilities, OnlineMixin, LinearModel,
                         PerceptronClassifier):
    """Confidence-weighted learning: a Gaussian over weight vectors, projected onto each row.

    Crammer, Dredze & Pereira (2008), the exact KL projection ("Exact convex
    confidence-weighted learning"). The model is ``N(w, Σ)``; each row asks
    that the probability of classifying it right be at least ``eta``. With
    ``φ = Φ⁻¹(eta)`` (the standard normal quantile), ``ψ = 1 + φ²/2``,
    ``ξ = 1 + φ²``, the margin ``m = y w·x`` and the variance ``v = xᵀΣx``: if
    ``φ√v − m > 0``,

    - ``α = max(0, (−mψ + √(m²φ⁴/4 + vφ²ξ)) / (vξ))``,
    - ``u = (−αvφ + √(α²v²φ² + 4v))² / 4``, ``β = αφ / (√u + vαφ)``,
    - ``w += α y Σx`` and ``Σ -= β (Σx)(Σx)ᵀ``,

    from ``w = 0``, ``Σ = aI`` (rows with the constant 1 appended when
    ``fit_intercept``). ``covariance="diagonal"`` keeps the diagonal ``s`` of
    ``Σ`` and applies the diagonal of the same update (``Σx`` is ``s∘x``,
    ``v = Σ s x²``, ``s -= β (s∘x)²``).

    CW has no loss to weigh: a row weight (``sample_weight`` times
    ``class_weight``) of 0 drops the row, and any positive weight acts as 1
    (the projection onto a row's constraint already satisfies a copy of it), so
    ``class_weight`` has no effect beyond zeros.

    Probabilities: CW's model is the Gaussian ``N(w, Σ)`` and each row's
    constraint is a lower bound ``eta`` on this very probability.
    ``predict_proba`` gives ``Φ(M/√V)`` for ``classes_[1]``, the probability
    that a weight vector drawn from ``N(w, Σ)`` scores the row positive (``M =
    w·x + b``, ``V = x̃ᵀΣx̃`` with the constant 1 of the intercept in ``x̃``; 1,
    0 or ½ by the sign of ``M`` where ``V = 0``); one-vs-rest normalises the
    classes' probabilities to sum to 1 (see ``docs/user_guide/online.rst``,
    "Probabilities").

    Parameters
    ----------
    eta : float, default=0.7
        The confidence ``η`` in (0.5, 1): the probability of a right prediction
        each row asks for. Higher: larger, more aggressive steps.
    a : float, default=1.0
        The starting variance ``a > 0``: ``Σ = aI``.
    covariance : {"auto", "full", "diagonal"}, default="auto"
        ``Σ`` as a ``(d+1) × (d+1)`` matrix (the paper's and LIBOL's form;
        refused above 5,000 dimensions, whose matrix alone would take 200 MB)
        or only its diagonal (``O(nonzeros)`` per row, for wide sparse data).
        ``"auto"``: ``"full"`` up to 200 features, ``"diagonal"`` above (measured:
        full gained 2 to 5 points on pendigits' 16 features at 1-2.3× the CPU and
        up to 2 on a9a's 123 at 4×, tied on w8a's 300 at 8-27×, lost 1.5 to 3
        points on MNIST's 784 at 9-12×; ``covariance_form_`` says which was used).
    fit_intercept : bool, default=True
        Learn a bias ``b``: the weight of a constant feature 1 appended to every
        row (its variance is the last entry of ``Σ``). False: the boundary
        passes through 0.
    max_iter : int, default=1000
        Largest number of epochs (the papers' algorithms are one pass:
        ``max_iter=1``). Training stops by the stopping rule of the
        mistake-driven rules (:mod:`rosenblatt.base._stopping`): after an epoch
        without a mistake (``y f <= 0``, counted as each row is met, before its
        update); or when the epoch's mistakes have not fallen by
        ``tol × n_samples`` for ``n_iter_no_change`` epochs.
        ``stop_reason_`` says which; a run that reaches ``max_iter`` first
        warns (``ConvergenceWarning``).
    tol : float or None, default=1e-3
        The stall threshold above, as a share of the rows. ``None``: stop only
        at a mistake-free epoch or ``max_iter``.
    n_iter_no_change : int, default=5
        Epochs without that improvement before training stops.
    shuffle : {"none", "once", "every_epoch"}, default="every_epoch"
        Row order (Daumé §4.2): as given, one random permutation kept for every
        epoch, or a new permutation each epoch. ``"none"`` with ``max_iter=1``
        is the paper's single pass.
    random_state : None, int, RandomState or Generator, default=None
        Source of the permutations. A generator you pass is advanced in place,
        as in scikit-learn.
    record : bool, default=False
        Keep a :class:`~rosenblatt.Trace` of every update in ``trace_``, with the
        weights after each (replayed exactly by the kernel up to each update:
        slow, for teaching-size data); its ``update`` is NaN, the step not
        being a multiple of ``x``.
    class_weight : dict, "balanced" or None, default=None
        Multiplies the weight of each row by the weight of its class: only a
        weight of 0 changes CW (it drops the rows).
    warm_start : bool, default=False
        Start ``fit`` from the previous fit's weights and covariance instead of
        ``w = 0``, ``Σ = aI``.
    n_jobs : int or None, default=None
        Threads for one-vs-rest (one binary problem per thread); -1 for every
        core. Results do not depend on it.

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
        The mean ``w`` (without the bias).
    intercept_ : ndarray of shape (1,) or (n_classes,)
        The bias, the mean of the constant feature's weight.
    covariance_ : ndarray
        ``Σ`` without the bias entry: shape (n_features, n_features), or
        (n_features,) for ``covariance="diagonal"``; for one-vs-rest one per
        class, stacked: (n_classes, n_features, n_features) or
        (n_classes, n_features).
    intercept_covariance_ : ndarray
        The bias's entries of ``Σ``: its row of the full matrix (its
        covariances with the features, then its variance), shape
        (1, n_features + 1) or (n_classes, n_features + 1) for one-vs-rest; or
        its variance, shape (1,) or (n_classes,), for ``covariance="diagonal"``.
        Zeros with ``fit_intercept=False``.
    classes_ : ndarray
        The labels, sorted; ``classes_[0]`` is coded -1 and ``classes_[1]`` +1.
    n_features_in_ : int
        Number of features seen in ``fit``.
    n_iter_ : int
        Epochs run (the largest over the one-vs-rest problems).
    n_updates_ : int
        Updates made: rows whose constraint did not hold (summed over the
        problems); more than the mistakes.
    n_mistakes_ : ndarray of int, shape (n_epochs,)
        Mistakes (``y w·x <= 0`` before the row's update) in each epoch, summed
        over the one-vs-rest problems; ``n_mistakes_[0] / n_samples`` is LIBOL's
        online mistake rate of one pass.
    converged_ : bool
        Whether the last epoch made no mistake (for every problem);
        never ``True`` otherwise: a stop by ``tol`` is not convergence.
    stop_reason_ : str
        Why training ended: ``"mistake_free"``, ``"tol"`` (the mistakes stopped
        falling), ``"early_stopping"``, ``"max_iter"`` (with a
        ``ConvergenceWarning``), or ``"partial_fit"`` after a ``partial_fit``
        call; for one-vs-rest, the reason of the problem that ran longest.
    trace_ : Trace, or tuple of Trace (one per class)
        With ``record=True`` only.

    References
    ----------
    K. Crammer, M. Dredze and F. Pereira, "Exact convex confidence-weighted
    learning", NIPS 2008; M. Dredze, K. Crammer and F. Pereira,
    "Confidence-weighted linear classification", ICML 2008.

    Examples
    --------
    >>> from rosenblatt.linear_model import ConfidenceWeighted
    >>> X, y = [[0, 0], [0, 1], [1, 0], [1, 1]], [-1, -1, -1, 1]
    >>> model = ConfidenceWeighted(shuffle="none").fit(X, y)
    >>> model.n_mistakes_.tolist(), model.predict(X).tolist()
    ([2, 2, 0], [-1, -1, -1, 1])
    """

    _PARAMETERS = ("eta", "a") + SHARED_PARAMETERS + ("n_jobs",)
    _parameter_constraints = constraints(_PARAMETERS, eta=CONFIDENCE, **SHARED_CONSTRAINTS)

    def __init__(
        self,
        *,
        eta=0.7,
        a=1.0,
        covariance="auto",
        fit_intercept=True,
        max_iter=1000,
        tol=1e-3,
        n_iter_no_change=5,
        shuffle="every_epoch",
        random_state=None,
        record=False,
        class_weight=None,
        warm_start=False,
        n_jobs=None,
    ):
        self.eta = eta
        self.a = a
        self.covariance = covariance
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol
        self.n_iter_no_change = n_iter_no_change
        self.shuffle = shuffle
        self.random_state = random_state
        self.record = record
        self.class_weight = class_weight
        self.warm_start = warm_start
        self.n_jobs = n_jobs

    _learner_class = ConfidenceWeightedLearner


@register("arow", "second-order")
class AROW(CovarianceForm, GaussianProbabilities, OnlineMixin, LinearModel,
           PerceptronClassifier):
    """Adaptive regularisation of weight vectors: confidence-weighted learning, robust to noise.

    Crammer, Kulesza & Dredze (2009). The model is a mean ``w`` and a
    covariance ``Σ``; with the margin ``m = y w·x`` and the variance
    ``v = xᵀΣx`` of a row, if ``m < 1``:

    - ``β = 1 / (v + r)``,
    - ``w += (1 − m) β y Σx``,
    - ``Σ -= β (Σx)(Σx)ᵀ``,

    from ``w = 0``, ``Σ = aI`` (rows with the constant 1 appended when
    ``fit_intercept``). Unlike CW the update is a regularised least step (the
    loss is the squared hinge, the confidence a penalty weighed by ``r``), so
    label noise moves it less. ``covariance="diagonal"`` keeps the diagonal
    ``s`` of ``Σ`` and applies the diagonal of the same update (``Σx`` is
    ``s∘x``, ``v = Σ s x²``, ``s -= β (s∘x)²``); this is not the paper's own
    diagonal variant (``1/s += x²/r``).

    A row weight ``ω`` (``sample_weight`` times ``class_weight``) counts the
    row ``ω`` times in the loss: ``r`` becomes ``r/ω`` (with a full ``Σ``
    exactly the updates of ``ω`` copies in a row, for whole ``ω``); a weight
    of 0 drops the row.

    Probabilities: AROW keeps the Gaussian ``N(w, Σ)`` of CW and updates it by a
    regularised KL projection (Crammer, Kulesza & Dredze 2009).
    ``predict_proba`` gives ``Φ(M/√V)`` for ``classes_[1]``, the probability
    that a weight vector drawn from ``N(w, Σ)`` scores the row positive (``M =
    w·x + b``, ``V = x̃ᵀΣx̃`` with the constant 1 of the intercept in ``x̃``; 1,
    0 or ½ by the sign of ``M`` where ``V = 0``); one-vs-rest normalises the
    classes' probabilities to sum to 1 (see ``docs/user_guide/online.rst``,
    "Probabilities").

    Parameters
    ----------
    r : float, default=1.0
        The regularisation ``r > 0`` of the confidence: larger ``r``, smaller
        and more cautious steps (for noisier data).
    a : float, default=1.0
        The starting variance ``a > 0``: ``Σ = aI``.
    covariance : {"auto", "full", "diagonal"}, default="auto"
        ``Σ`` as a ``(d+1) × (d+1)`` matrix (the paper's and LIBOL's form;
        refused above 5,000 dimensions, whose matrix alone would take 200 MB)
        or only its diagonal (``O(nonzeros)`` per row, for wide sparse data).
        ``"auto"``: ``"full"`` up to 200 features, ``"diagonal"`` above (measured:
        full gained 2 to 5 points on pendigits' 16 features at 1-2.3× the CPU and
        up to 2 on a9a's 123 at 4×, tied on w8a's 300 at 8-27×, lost 1.5 to 3
        points on MNIST's 784 at 9-12×; ``covariance_form_`` says which was used).
    fit_intercept : bool, default=True
        Learn a bias ``b``: the weight of a constant feature 1 appended to every
        row (its variance is the last entry of ``Σ``). False: the boundary
        passes through 0.
    max_iter : int, default=1000
        Largest number of epochs (the papers' algorithms are one pass:
        ``max_iter=1``). Training stops by the stopping rule of the
        mistake-driven rules (:mod:`rosenblatt.base._stopping`): after an epoch
        without a mistake (``y f <= 0``, counted as each row is met, before its
        update); or when the epoch's mistakes have not fallen by
        ``tol × n_samples`` for ``n_iter_no_change`` epochs.
        ``stop_reason_`` says which; a run that reaches ``max_iter`` first
        warns (``ConvergenceWarning``).
    tol : float or None, default=1e-3
        The stall threshold above, as a share of the rows. ``None``: stop only
        at a mistake-free epoch or ``max_iter``.
    n_iter_no_change : int, default=5
        Epochs without that improvement before training stops.
    shuffle : {"none", "once", "every_epoch"}, default="every_epoch"
        Row order (Daumé §4.2): as given, one random permutation kept for every
        epoch, or a new permutation each epoch. ``"none"`` with ``max_iter=1``
        is the paper's single pass.
    random_state : None, int, RandomState or Generator, default=None
        Source of the permutations. A generator you pass is advanced in place,
        as in scikit-learn.
    record : bool, default=False
        Keep a :class:`~rosenblatt.Trace` of every update in ``trace_``, with the
        weights after each (replayed exactly by the kernel up to each update:
        slow, for teaching-size data); its ``update`` is NaN, the step not
        being a multiple of ``x``.
    class_weight : dict, "balanced" or None, default=None
        Multiplies the weight of each row by the weight of its class.
    warm_start : bool, default=False
        Start ``fit`` from the previous fit's weights and covariance instead of
        ``w = 0``, ``Σ = aI``.
    n_jobs : int or None, default=None
        Threads for one-vs-rest (one binary problem per thread); -1 for every
        core. Results do not depend on it.

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
        The mean ``w`` (without the bias).
    intercept_ : ndarray of shape (1,) or (n_classes,)
        The bias, the mean of the constant feature's weight.
    covariance_ : ndarray
        ``Σ`` without the bias entry: shape (n_features, n_features), or
        (n_features,) for ``covariance="diagonal"``; for one-vs-rest one per
        class, stacked: (n_classes, n_features, n_features) or
        (n_classes, n_features).
    intercept_covariance_ : ndarray
        The bias's entries of ``Σ``: its row of the full matrix (its
        covariances with the features, then its variance), shape
        (1, n_features + 1) or (n_classes, n_features + 1) for one-vs-rest; or
        its variance, shape (1,) or (n_classes,), for ``covariance="diagonal"``.
        Zeros with ``fit_intercept=False``.
    classes_ : ndarray
        The labels, sorted; ``classes_[0]`` is coded -1 and ``classes_[1]`` +1.
    n_features_in_ : int
        Number of features seen in ``fit``.
    n_iter_ : int
        Epochs run (the largest over the one-vs-rest problems).
    n_updates_ : int
        Updates made: rows of margin below 1 (summed over the problems); more
        than the mistakes.
    n_mistakes_ : ndarray of int, shape (n_epochs,)
        Mistakes (``y w·x <= 0`` before the row's update) in each epoch, summed
        over the one-vs-rest problems; ``n_mistakes_[0] / n_samples`` is LIBOL's
        online mistake rate of one pass.
    converged_ : bool
        Whether the last epoch made no mistake (for every problem);
        never ``True`` otherwise: a stop by ``tol`` is not convergence.
    stop_reason_ : str
        Why training ended: ``"mistake_free"``, ``"tol"`` (the mistakes stopped
        falling), ``"early_stopping"``, ``"max_iter"`` (with a
        ``ConvergenceWarning``), or ``"partial_fit"`` after a ``partial_fit``
        call; for one-vs-rest, the reason of the problem that ran longest.
    trace_ : Trace, or tuple of Trace (one per class)
        With ``record=True`` only.

    References
    ----------
    K. Crammer, A. Kulesza and M. Dredze, "Adaptive regularization of weight
    vectors", NIPS 2009.

    Examples
    --------
    >>> from rosenblatt.linear_model import AROW
    >>> X, y = [[0, 0], [0, 1], [1, 0], [1, 1]], [-1, -1, -1, 1]
    >>> model = AROW(shuffle="none").fit(X, y)
    >>> model.n_mistakes_.tolist(), model.predict(X).tolist()
    ([2, 1, 0], [-1, -1, -1, 1])
    """

    _PARAMETERS = ("r", "a") + SHARED_PARAMETERS + ("n_jobs",)
    _parameter_constraints = constraints(_PARAMETERS, r=POSITIVE, **SHARED_CONSTRAINTS)

    def __init__(
        self,
        *,
        r=1.0,
        a=1.0,
        covariance="auto",
        fit_intercept=True,
        max_iter=1000,
        tol=1e-3,
        n_iter_no_change=5,
        shuffle="every_epoch",
        random_state=None,
        record=False,
        class_weight=None,
        warm_start=False,
        n_jobs=None,
    ):
        self.r = r
        self.a = a
        self.covariance = covariance
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol
        self.n_iter_no_change = n_iter_no_change
        self.shuffle = shuffle
        self.random_state = random_state
        self.record = record
        self.class_weight = class_weight
        self.warm_start = warm_start
        self.n_jobs = n_jobs

    _learner_class = AROWLearner


@register("narow", "second-order")
class NAROW(CovarianceForm, GaussianProbabilities, OnlineMixin, LinearModel,
            PerceptronClassifier):
    """Narrow adaptive regularisation: AROW whose regularisation adapts to each row's variance.

    Orabona & Crammer (2010). With the margin ``m = y w·x`` and the variance
    ``v = xᵀΣx`` of a row, if ``m < 1`` and ``v > 1/b``:

    - ``r_t = v / (b v − 1)``, ``β = 1 / (v + r_t)``,
    - ``w += (1 − m) β y Σx``,
    - ``Σ -= β (Σx)(Σx)ᵀ``,

    from ``w = 0``, ``Σ = aI`` (rows with the constant 1 appended when
    ``fit_intercept``); a row with ``v <= 1/b`` leaves the model alone: the
    covariance shrinks no further than a variance of ``1/b`` in any direction,
    so the steps never vanish (AROW's do, which suits stationary data less
    well than drifting data). ``covariance="diagonal"`` keeps the diagonal
    ``s`` of ``Σ`` and applies the diagonal of the same update.

    A row weight ``ω`` (``sample_weight`` times ``class_weight``) counts the
    row ``ω`` times in the loss: ``r_t`` becomes ``r_t/ω``; a weight of 0
    drops the row.

    Probabilities: NAROW's ``(w, Σ)`` is AROW's Gaussian, moved by AROW's step
    with an adaptive ``r_t`` (Orabona & Crammer derive the rule from a regret
    bound, so this is AROW's reading of its state). ``predict_proba`` gives
    ``Φ(M/√V)`` for ``classes_[1]``, the probability that a weight vector drawn
    from ``N(w, Σ)`` scores the row positive (``M = w·x + b``, ``V = x̃ᵀΣx̃``
    with the constant 1 of the intercept in ``x̃``; 1, 0 or ½ by the sign of
    ``M`` where ``V = 0``); one-vs-rest normalises the classes' probabilities to
    sum to 1 (see ``docs/user_guide/online.rst``, "Probabilities").

    Parameters
    ----------
    b : float, default=1.0
        ``b > 0``: the row's variance must exceed ``1/b`` for an update, and
        ``r_t = v/(b v − 1)``.
    a : float, default=1.0
        The starting variance ``a > 0``: ``Σ = aI``.
    covariance : {"auto", "full", "diagonal"}, default="auto"
        ``Σ`` as a ``(d+1) × (d+1)`` matrix (the paper's and LIBOL's form;
        refused above 5,000 dimensions, whose matrix alone would take 200 MB)
        or only its diagonal (``O(nonzeros)`` per row, for wide sparse data).
        ``"auto"``: ``"full"`` up to 200 features, ``"diagonal"`` above (measured:
        full gained 2 to 5 points on pendigits' 16 features at 1-2.3× the CPU and
        up to 2 on a9a's 123 at 4×, tied on w8a's 300 at 8-27×, lost 1.5 to 3
        points on MNIST's 784 at 9-12×; ``covariance_form_`` says which was used).
    fit_intercept : bool, default=True
        Learn a bias ``b``: the weight of a constant feature 1 appended to every
        row (its variance is the last entry of ``Σ``). False: the boundary
        passes through 0.
    max_iter : int, default=1000
        Largest number of epochs (the papers' algorithms are one pass:
        ``max_iter=1``). Training stops by the stopping rule of the
        mistake-driven rules (:mod:`rosenblatt.base._stopping`): after an epoch
        without a mistake (``y f <= 0``, counted as each row is met, before its
        update); or when the epoch's mistakes have not fallen by
        ``tol × n_samples`` for ``n_iter_no_change`` epochs.
        ``stop_reason_`` says which; a run that reaches ``max_iter`` first
        warns (``ConvergenceWarning``).
    tol : float or None, default=1e-3
        The stall threshold above, as a share of the rows. ``None``: stop only
        at a mistake-free epoch or ``max_iter``.
    n_iter_no_change : int, default=5
        Epochs without that improvement before training stops.
    shuffle : {"none", "once", "every_epoch"}, default="every_epoch"
        Row order (Daumé §4.2): as given, one random permutation kept for every
        epoch, or a new permutation each epoch. ``"none"`` with ``max_iter=1``
        is the paper's single pass.
    random_state : None, int, RandomState or Generator, default=None
        Source of the permutations. A generator you pass is advanced in place,
        as in scikit-learn.
    record : bool, default=False
        Keep a :class:`~rosenblatt.Trace` of every update in ``trace_``, with the
        weights after each (replayed exactly by the kernel up to each update:
        slow, for teaching-size data); its ``update`` is NaN, the step not
        being a multiple of ``x``.
    class_weight : dict, "balanced" or None, default=None
        Multiplies the weight of each row by the weight of its class.
    warm_start : bool, default=False
        Start ``fit`` from the previous fit's weights and covariance instead of
        ``w = 0``, ``Σ = aI``.
    n_jobs : int or None, default=None
        Threads for one-vs-rest (one binary problem per thread); -1 for every
        core. Results do not depend on it.

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
        The mean ``w`` (without the bias).
    intercept_ : ndarray of shape (1,) or (n_classes,)
        The bias, the mean of the constant feature's weight.
    covariance_ : ndarray
        ``Σ`` without the bias entry: shape (n_features, n_features), or
        (n_features,) for ``covariance="diagonal"``; for one-vs-rest one per
        class, stacked: (n_classes, n_features, n_features) or
        (n_classes, n_features).
    intercept_covariance_ : ndarray
        The bias's entries of ``Σ``: its row of the full matrix (its
        covariances with the features, then its variance), shape
        (1, n_features + 1) or (n_classes, n_features + 1) for one-vs-rest; or
        its variance, shape (1,) or (n_classes,), for ``covariance="diagonal"``.
        Zeros with ``fit_intercept=False``.
    classes_ : ndarray
        The labels, sorted; ``classes_[0]`` is coded -1 and ``classes_[1]`` +1.
    n_features_in_ : int
        Number of features seen in ``fit``.
    n_iter_ : int
        Epochs run (the largest over the one-vs-rest problems).
    n_updates_ : int
        Updates made (summed over the problems).
    n_mistakes_ : ndarray of int, shape (n_epochs,)
        Mistakes (``y w·x <= 0`` before the row's update) in each epoch, summed
        over the one-vs-rest problems; ``n_mistakes_[0] / n_samples`` is LIBOL's
        online mistake rate of one pass.
    converged_ : bool
        Whether the last epoch made no mistake (for every problem);
        never ``True`` otherwise: a stop by ``tol`` is not convergence.
    stop_reason_ : str
        Why training ended: ``"mistake_free"``, ``"tol"`` (the mistakes stopped
        falling), ``"early_stopping"``, ``"max_iter"`` (with a
        ``ConvergenceWarning``), or ``"partial_fit"`` after a ``partial_fit``
        call; for one-vs-rest, the reason of the problem that ran longest.
    trace_ : Trace, or tuple of Trace (one per class)
        With ``record=True`` only.

    References
    ----------
    F. Orabona and K. Crammer, "New adaptive algorithms for online
    classification", NIPS 2010.

    Examples
    --------
    >>> from rosenblatt.linear_model import NAROW
    >>> X, y = [[0, 0], [0, 1], [1, 0], [1, 1]], [-1, -1, -1, 1]
    >>> model = NAROW(b=10.0, shuffle="none").fit(X, y)
    >>> model.n_mistakes_.tolist(), model.predict(X).tolist()
    ([2, 0], [-1, -1, -1, 1])

    With the default ``b = 1`` the variance of these rows soon falls below 1,
    and NAROW stops learning before it separates them.
    """

    _PARAMETERS = ("b", "a") + SHARED_PARAMETERS + ("n_jobs",)
    _parameter_constraints = constraints(_PARAMETERS, b=POSITIVE, **SHARED_CONSTRAINTS)

    def __init__(
        self,
        *,
        b=1.0,
        a=1.0,
        covariance="auto",
        fit_intercept=True,
        max_iter=1000,
        tol=1e-3,
        n_iter_no_change=5,
        shuffle="every_epoch",
        random_state=None,
        record=False,
        class_weight=None,
        warm_start=False,
        n_jobs=None,
    ):
        self.b = b
        self.a = a
        self.covariance = covariance
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol
        self.n_iter_no_change = n_iter_no_change
        self.shuffle = shuffle
        self.random_state = random_state
        self.record = record
        self.class_weight = class_weight
        self.warm_start = warm_start
        self.n_jobs = n_jobs

    _learner_class = NAROWLearner


@register("nherd", "second-order")
class NHERD(CovarianceForm, GaussianProbabilities, OnlineMixin, LinearModel,
            PerceptronClassifier):
    """Normal herding: the Gaussian over weight vectors moved as a whole by each row.

    Crammer & Lee (2010), the full-matrix update ("Learning via Gaussian
    herding"). With ``γ = 1/C``, the margin ``m = y w·x`` and the variance
    ``v = xᵀΣx`` of a row, if ``m < 1``:

    - ``w += (1 − m) / (v + γ) · y Σx``,
    - ``Σ -= (v + 2γ) / (v + γ)² · (Σx)(Σx)ᵀ``,

    from ``w = 0``, ``Σ = aI`` (rows with the constant 1 appended when
    ``fit_intercept``). ``covariance="diagonal"`` keeps the diagonal ``s`` of
    ``Σ`` and applies the diagonal of the same update (``s -= β (s∘x)²`` with the
    same ``β``); this is not the paper's own diagonal variant
    (``s/(1 + C s x²)²``).

    A row weight ``ω`` (``sample_weight`` times ``class_weight``) counts the
    row ``ω`` times in the loss: ``C`` becomes ``Cω``; a weight of 0 drops the
    row.

    Probabilities: NHERD herds the Gaussian ``N(w, Σ)`` (Crammer & Lee 2010).
    ``predict_proba`` gives ``Φ(M/√V)`` for ``classes_[1]``, the probability
    that a weight vector drawn from ``N(w, Σ)`` scores the row positive (``M =
    w·x + b``, ``V = x̃ᵀΣx̃`` with the constant 1 of the intercept in ``x̃``; 1,
    0 or ½ by the sign of ``M`` where ``V = 0``); one-vs-rest normalises the
    classes' probabilities to sum to 1 (see ``docs/user_guide/online.rst``,
    "Probabilities").

    Parameters
    ----------
    C : float, default=1.0
        Aggressiveness ``C > 0``: ``γ = 1/C``; larger ``C``, larger steps.
    a : float, default=1.0
        The starting variance ``a > 0``: ``Σ = aI``.
    covariance : {"auto", "full", "diagonal"}, default="auto"
        ``Σ`` as a ``(d+1) × (d+1)`` matrix (the paper's and LIBOL's form;
        refused above 5,000 dimensions, whose matrix alone would take 200 MB)
        or only its diagonal (``O(nonzeros)`` per row, for wide sparse data).
        ``"auto"``: ``"full"`` up to 200 features, ``"diagonal"`` above (measured:
        full gained 2 to 5 points on pendigits' 16 features at 1-2.3× the CPU and
        up to 2 on a9a's 123 at 4×, tied on w8a's 300 at 8-27×, lost 1.5 to 3
        points on MNIST's 784 at 9-12×; ``covariance_form_`` says which was used).
    fit_intercept : bool, default=True
        Learn a bias ``b``: the weight of a constant feature 1 appended to every
        row (its variance is the last entry of ``Σ``). False: the boundary
        passes through 0.
    max_iter : int, default=1000
        Largest number of epochs (the papers' algorithms are one pass:
        ``max_iter=1``). Training stops by the stopping rule of the
        mistake-driven rules (:mod:`rosenblatt.base._stopping`): after an epoch
        without a mistake (``y f <= 0``, counted as each row is met, before its
        update); or when the epoch's mistakes have not fallen by
        ``tol × n_samples`` for ``n_iter_no_change`` epochs.
        ``stop_reason_`` says which; a run that reaches ``max_iter`` first
        warns (``ConvergenceWarning``).
    tol : float or None, default=1e-3
        The stall threshold above, as a share of the rows. ``None``: stop only
        at a mistake-free epoch or ``max_iter``.
    n_iter_no_change : int, default=5
        Epochs without that improvement before training stops.
    shuffle : {"none", "once", "every_epoch"}, default="every_epoch"
        Row order (Daumé §4.2): as given, one random permutation kept for every
        epoch, or a new permutation each epoch. ``"none"`` with ``max_iter=1``
        is the paper's single pass.
    random_state : None, int, RandomState or Generator, default=None
        Source of the permutations. A generator you pass is advanced in place,
        as in scikit-learn.
    record : bool, default=False
        Keep a :class:`~rosenblatt.Trace` of every update in ``trace_``, with the
        weights after each (replayed exactly by the kernel up to each update:
        slow, for teaching-size data); its ``update`` is NaN, the step not
        being a multiple of ``x``.
    class_weight : dict, "balanced" or None, default=None
        Multiplies the weight of each row by the weight of its class.
    warm_start : bool, default=False
        Start ``fit`` from the previous fit's weights and covariance instead of
        ``w = 0``, ``Σ = aI``.
    n_jobs : int or None, default=None
        Threads for one-vs-rest (one binary problem per thread); -1 for every
        core. Results do not depend on it.

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
        The mean ``w`` (without the bias).
    intercept_ : ndarray of shape (1,) or (n_classes,)
        The bias, the mean of the constant feature's weight.
    covariance_ : ndarray
        ``Σ`` without the bias entry: shape (n_features, n_features), or
        (n_features,) for ``covariance="diagonal"``; for one-vs-rest one per
        class, stacked: (n_classes, n_features, n_features) or
        (n_classes, n_features).
    intercept_covariance_ : ndarray
        The bias's entries of ``Σ``: its row of the full matrix (its
        covariances with the features, then its variance), shape
        (1, n_features + 1) or (n_classes, n_features + 1) for one-vs-rest; or
        its variance, shape (1,) or (n_classes,), for ``covariance="diagonal"``.
        Zeros with ``fit_intercept=False``.
    classes_ : ndarray
        The labels, sorted; ``classes_[0]`` is coded -1 and ``classes_[1]`` +1.
    n_features_in_ : int
        Number of features seen in ``fit``.
    n_iter_ : int
        Epochs run (the largest over the one-vs-rest problems).
    n_updates_ : int
        Updates made: rows of margin below 1 (summed over the problems); more
        than the mistakes.
    n_mistakes_ : ndarray of int, shape (n_epochs,)
        Mistakes (``y w·x <= 0`` before the row's update) in each epoch, summed
        over the one-vs-rest problems; ``n_mistakes_[0] / n_samples`` is LIBOL's
        online mistake rate of one pass.
    converged_ : bool
        Whether the last epoch made no mistake (for every problem);
        never ``True`` otherwise: a stop by ``tol`` is not convergence.
    stop_reason_ : str
        Why training ended: ``"mistake_free"``, ``"tol"`` (the mistakes stopped
        falling), ``"early_stopping"``, ``"max_iter"`` (with a
        ``ConvergenceWarning``), or ``"partial_fit"`` after a ``partial_fit``
        call; for one-vs-rest, the reason of the problem that ran longest.
    trace_ : Trace, or tuple of Trace (one per class)
        With ``record=True`` only.

    References
    ----------
    K. Crammer and D. D. Lee, "Learning via Gaussian herding", NIPS 2010.

    Examples
    --------
    >>> from rosenblatt.linear_model import NHERD
    >>> X, y = [[0, 0], [0, 1], [1, 0], [1, 1]], [-1, -1, -1, 1]
    >>> model = NHERD(shuffle="none", max_iter=20).fit(X, y)
    >>> model.n_mistakes_.tolist(), model.predict(X).tolist()
    ([2, 1, 1, 1, 1, 0], [-1, -1, -1, 1])
    """

    _PARAMETERS = ("C", "a") + SHARED_PARAMETERS + ("n_jobs",)
    _parameter_constraints = constraints(_PARAMETERS, C=POSITIVE, **SHARED_CONSTRAINTS)

    def __init__(
        self,
        *,
        C=1.0,
        a=1.0,
        covariance="auto",
        fit_intercept=True,
        max_iter=1000,
        tol=1e-3,
        n_iter_no_change=5,
        shuffle="every_epoch",
        random_state=None,
        record=False,
        class_weight=None,
        warm_start=False,
        n_jobs=None,
    ):
        self.C = C
        self.a = a
        self.covariance = covariance
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol
        self.n_iter_no_change = n_iter_no_change
        self.shuffle = shuffle
        self.random_state = random_state
        self.record = record
        self.class_weight = class_weight
        self.warm_start = warm_start
        self.n_jobs = n_jobs

    _learner_class = NHERDLearner


@register("iellip", "second-order")
class IELLIP(CovarianceForm, OnlineMixin, LinearModel, PerceptronClassifier):
    """The improved ellipsoid method: a shrinking ellipsoid of weight vectors, cut by each mistake.

    Yang, Jin & Ye (2009), as LIBOL's ``IELLIP.m``. With the margin
    ``m = y w·x`` and the variance ``v = xᵀΣx`` of a row, on a mistake
    (``m <= 0``) with ``v > 0``:

    - ``g = y x / √v``,
    - ``w += (1 − m) / √v · Σg``,
    - ``Σ = (Σ − c_t (Σg)(Σg)ᵀ) / (1 − c_t)``,

    where ``c_1 = c`` and ``c_{t+1} = b c_t`` after every row (updated or not):
    the cuts soften as the data goes by. From ``w = 0``, ``Σ = aI`` (rows with
    the constant 1 appended when ``fit_intercept``); ``c_t`` goes on across
    epochs and ``partial_fit`` calls. ``covariance="diagonal"`` keeps the
    diagonal ``s`` of ``Σ`` and applies the diagonal of the same update.

    IELLIP has no loss to weigh: a row weight (``sample_weight`` times
    ``class_weight``) of 0 drops the row (its ``c_t`` does not decay), and any
    positive weight acts as 1 (the update gives the row ``y w·x = 1``, so a
    copy of it is no mistake); ``class_weight`` has no effect beyond zeros.

    Probabilities: none; ``Σ`` is the shape of the ellipsoid of weight vectors
    that the method cuts (each cut divides it by ``1 − c_t``), not the
    covariance of a distribution over them, so ``Φ(w·x/√(xᵀΣx))`` would be no
    probability of the paper's model. For probabilities, calibrate its scores
    with :class:`sklearn.calibration.CalibratedClassifierCV`.

    Parameters
    ----------
    a : float, default=1.0
        The starting size ``a > 0`` of the ellipsoid: ``Σ = aI``.
    b : float, default=0.3
        The decay ``b`` in (0, 1] of ``c_t`` per row.
    c : float, default=0.1
        ``c_1`` in (0, 1): how deep the first cuts go.
    covariance : {"auto", "full", "diagonal"}, default="auto"
        ``Σ`` as a ``(d+1) × (d+1)`` matrix (the paper's and LIBOL's form;
        refused above 5,000 dimensions, whose matrix alone would take 200 MB)
        or only its diagonal (``O(nonzeros)`` per row, for wide sparse data).
        ``"auto"``: ``"full"`` up to 200 features, ``"diagonal"`` above (measured:
        full gained 2 to 5 points on pendigits' 16 features at 1-2.3× the CPU and
        up to 2 on a9a's 123 at 4×, tied on w8a's 300 at 8-27×, lost 1.5 to 3
        points on MNIST's 784 at 9-12×; ``covariance_form_`` says which was used).
    fit_intercept : bool, default=True
        Learn a bias ``b``: the weight of a constant feature 1 appended to every
        row (its entry is the last of ``Σ``). False: the boundary passes
        through 0.
    max_iter : int, default=1000
        Largest number of epochs (the papers' algorithms are one pass:
        ``max_iter=1``). Training stops by the stopping rule of the
        mistake-driven rules (:mod:`rosenblatt.base._stopping`): after an epoch
        without a mistake (``y f <= 0``, counted as each row is met, before its
        update); or when the epoch's mistakes have not fallen by
        ``tol × n_samples`` for ``n_iter_no_change`` epochs.
        ``stop_reason_`` says which; a run that reaches ``max_iter`` first
        warns (``ConvergenceWarning``).
    tol : float or None, default=1e-3
        The stall threshold above, as a share of the rows. ``None``: stop only
        at a mistake-free epoch or ``max_iter``.
    n_iter_no_change : int, default=5
        Epochs without that improvement before training stops.
    shuffle : {"none", "once", "every_epoch"}, default="every_epoch"
        Row order (Daumé §4.2): as given, one random permutation kept for every
        epoch, or a new permutation each epoch. ``"none"`` with ``max_iter=1``
        is the paper's single pass.
    random_state : None, int, RandomState or Generator, default=None
        Source of the permutations. A generator you pass is advanced in place,
        as in scikit-learn.
    record : bool, default=False
        Keep a :class:`~rosenblatt.Trace` of every update in ``trace_``, with the
        weights after each (replayed exactly by the kernel up to each update,
        from the epoch's start each time: quadratic, for teaching-size data);
        its ``update`` is NaN, the step not being a multiple of ``x``.
    class_weight : dict, "balanced" or None, default=None
        Multiplies the weight of each row by the weight of its class: only a
        weight of 0 changes IELLIP (it drops the rows).
    warm_start : bool, default=False
        Start ``fit`` from the previous fit's weights, ``Σ`` and ``c_t`` instead
        of ``w = 0``, ``Σ = aI``, ``c_1 = c``.
    n_jobs : int or None, default=None
        Threads for one-vs-rest (one binary problem per thread); -1 for every
        core. Results do not depend on it.

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
        The centre ``w`` of the ellipsoid (without the bias).
    intercept_ : ndarray of shape (1,) or (n_classes,)
        The bias, the constant feature's weight.
    covariance_ : ndarray
        ``Σ`` without the bias entry: shape (n_features, n_features), or
        (n_features,) for ``covariance="diagonal"``; for one-vs-rest one per
        class, stacked: (n_classes, n_features, n_features) or
        (n_classes, n_features).
    intercept_covariance_ : ndarray
        The bias's entries of ``Σ``: its row of the full matrix (its
        covariances with the features, then its variance), shape
        (1, n_features + 1) or (n_classes, n_features + 1) for one-vs-rest; or
        its variance, shape (1,) or (n_classes,), for ``covariance="diagonal"``.
        Zeros with ``fit_intercept=False``.
    classes_ : ndarray
        The labels, sorted; ``classes_[0]`` is coded -1 and ``classes_[1]`` +1.
    n_features_in_ : int
        Number of features seen in ``fit``.
    n_iter_ : int
        Epochs run (the largest over the one-vs-rest problems).
    n_updates_ : int
        Updates made (its mistakes with ``v > 0``; summed over the problems).
    n_mistakes_ : ndarray of int, shape (n_epochs,)
        Mistakes (``y w·x <= 0`` before the row's update) in each epoch, summed
        over the one-vs-rest problems; ``n_mistakes_[0] / n_samples`` is LIBOL's
        online mistake rate of one pass.
    converged_ : bool
        Whether the last epoch made no mistake (for every problem);
        never ``True`` otherwise: a stop by ``tol`` is not convergence.
    stop_reason_ : str
        Why training ended: ``"mistake_free"``, ``"tol"`` (the mistakes stopped
        falling), ``"early_stopping"``, ``"max_iter"`` (with a
        ``ConvergenceWarning``), or ``"partial_fit"`` after a ``partial_fit``
        call; for one-vs-rest, the reason of the problem that ran longest.
    trace_ : Trace, or tuple of Trace (one per class)
        With ``record=True`` only.

    References
    ----------
    L. Yang, R. Jin and J. Ye, "Online learning by ellipsoid method", ICML
    2009; S. C. H. Hoi, J. Wang and P. Zhao, "LIBOL: a library for online
    learning algorithms", JMLR 15, 2014 (``IELLIP.m``).

    Examples
    --------
    >>> from rosenblatt.linear_model import IELLIP
    >>> X, y = [[0, 0], [0, 1], [1, 0], [1, 1]], [-1, -1, -1, 1]
    >>> model = IELLIP(shuffle="none", max_iter=10).fit(X, y)
    >>> model.n_mistakes_.tolist(), model.predict(X).tolist()
    ([2, 2, 2, 2, 2, 0], [-1, -1, -1, 1])
    """

    _PARAMETERS = ("a", "b", "c") + SHARED_PARAMETERS + ("n_jobs",)
    _parameter_constraints = constraints(
        _PARAMETERS, b=[RealNumber(0, 1, closed="right")],
        c=[RealNumber(0, 1, closed="neither")], **SHARED_CONSTRAINTS)

    def __init__(
        self,
        *,
        a=1.0,
        b=0.3,
        c=0.1,
        covariance="auto",
        fit_intercept=True,
        max_iter=1000,
        tol=1e-3,
        n_iter_no_change=5,
        shuffle="every_epoch",
        random_state=None,
        record=False,
        class_weight=None,
        warm_start=False,
        n_jobs=None,
    ):
        self.a = a
        self.b = b
        self.c = c
        self.covariance = covariance
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol
        self.n_iter_no_change = n_iter_no_change
        self.shuffle = shuffle
        self.random_state = random_state
        self.record = record
        self.class_weight = class_weight
        self.warm_start = warm_start
        self.n_jobs = n_jobs

    _learner_class = IELLIPLearner


@register("scw", "second-order")
class SoftConfidenceWeighted(CovarianceForm, GaussianProbabilities, OnlineMixin, LinearModel,
                             PerceptronClassifier):
    """Soft confidence-weighted learning: CW's projection with a capped, noise-tolerant step.

    Wang, Zhao & Hoi (2012), SCW-I and SCW-II. With ``φ = Φ⁻¹(eta)``,
    ``ψ = 1 + φ²/2``, ``ξ = 1 + φ²``, the margin ``m = y w·x`` and the variance
    ``v = xᵀΣx`` of a row: if ``φ√v − m > 0``,

    - SCW-I: ``α = min(C, max(0, (−mψ + √(m²φ⁴/4 + vφ²ξ)) / (vξ)))`` (CW's step,
      capped at ``C``);
    - SCW-II: with ``n = v + 1/(2C)`` and ``γ = φ√(φ²m²v² + 4nv(n + vφ²))``,
      ``α = max(0, (−(2mn + φ²mv) + γ) / (2(n² + nvφ²)))``;
    - then ``u = (−αvφ + √(α²v²φ² + 4v))² / 4``, ``β = αφ / (√u + vαφ)``,
      ``w += α y Σx`` and ``Σ -= β (Σx)(Σx)ᵀ``,

    from ``w = 0``, ``Σ = aI`` (rows with the constant 1 appended when
    ``fit_intercept``). These are the paper's formulas (LIBOL's ``SCW2.m``
    differs from them by a typo). ``covariance="diagonal"`` keeps the diagonal
    ``s`` of ``Σ`` and applies the diagonal of the same update.

    A row weight ``ω`` (``sample_weight`` times ``class_weight``) counts the
    row ``ω`` times in the loss: ``C`` becomes ``Cω``; a weight of 0 drops the
    row.

    Probabilities: SCW keeps CW's Gaussian ``N(w, Σ)`` and its constraint on
    this probability (Wang, Zhao & Hoi 2012). ``predict_proba`` gives
    ``Φ(M/√V)`` for ``classes_[1]``, the probability that a weight vector drawn
    from ``N(w, Σ)`` scores the row positive (``M = w·x + b``, ``V = x̃ᵀΣx̃``
    with the constant 1 of the intercept in ``x̃``; 1, 0 or ½ by the sign of
    ``M`` where ``V = 0``); one-vs-rest normalises the classes' probabilities to
    sum to 1 (see ``docs/user_guide/online.rst``, "Probabilities").

    Parameters
    ----------
    C : float, default=1.0
        Aggressiveness ``C > 0``: the largest step of SCW-I, the weight of the
        loss in SCW-II. Smaller for noisier data.
    eta : float or None, default=None
        The confidence ``η`` in (0.5, 1); ``None``: 0.75 for ``"I"``, 0.90 for
        ``"II"`` (LIBOL's defaults).
    variant : {"I", "II"}, default="I"
        SCW-I (a hinge loss, the step capped) or SCW-II (a squared hinge loss).
    a : float, default=1.0
        The starting variance ``a > 0``: ``Σ = aI``.
    covariance : {"auto", "full", "diagonal"}, default="auto"
        ``Σ`` as a ``(d+1) × (d+1)`` matrix (the paper's and LIBOL's form;
        refused above 5,000 dimensions, whose matrix alone would take 200 MB)
        or only its diagonal (``O(nonzeros)`` per row, for wide sparse data).
        ``"auto"``: ``"full"`` up to 200 features, ``"diagonal"`` above (measured:
        full gained 2 to 5 points on pendigits' 16 features at 1-2.3× the CPU and
        up to 2 on a9a's 123 at 4×, tied on w8a's 300 at 8-27×, lost 1.5 to 3
        points on MNIST's 784 at 9-12×; ``covariance_form_`` says which was used).
    fit_intercept : bool, default=True
        Learn a bias ``b``: the weight of a constant feature 1 appended to every
        row (its variance is the last entry of ``Σ``). False: the boundary
        passes through 0.
    max_iter : int, default=1000
        Largest number of epochs (the papers' algorithms are one pass:
        ``max_iter=1``). Training stops by the stopping rule of the
        mistake-driven rules (:mod:`rosenblatt.base._stopping`): after an epoch
        without a mistake (``y f <= 0``, counted as each row is met, before its
        update); or when the epoch's mistakes have not fallen by
        ``tol × n_samples`` for ``n_iter_no_change`` epochs.
        ``stop_reason_`` says which; a run that reaches ``max_iter`` first
        warns (``ConvergenceWarning``).
    tol : float or None, default=1e-3
        The stall threshold above, as a share of the rows. ``None``: stop only
        at a mistake-free epoch or ``max_iter``.
    n_iter_no_change : int, default=5
        Epochs without that improvement before training stops.
    shuffle : {"none", "once", "every_epoch"}, default="every_epoch"
        Row order (Daumé §4.2): as given, one random permutation kept for every
        epoch, or a new permutation each epoch. ``"none"`` with ``max_iter=1``
        is the paper's single pass.
    random_state : None, int, RandomState or Generator, default=None
        Source of the permutations. A generator you pass is advanced in place,
        as in scikit-learn.
    record : bool, default=False
        Keep a :class:`~rosenblatt.Trace` of every update in ``trace_``, with the
        weights after each (replayed exactly by the kernel up to each update:
        slow, for teaching-size data); its ``update`` is NaN, the step not
        being a multiple of ``x``.
    class_weight : dict, "balanced" or None, default=None
        Multiplies the weight of each row by the weight of its class.
    warm_start : bool, default=False
        Start ``fit`` from the previous fit's weights and covariance instead of
        ``w = 0``, ``Σ = aI``.
    n_jobs : int or None, default=None
        Threads for one-vs-rest (one binary problem per thread); -1 for every
        core. Results do not depend on it.

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
        The mean ``w`` (without the bias).
    intercept_ : ndarray of shape (1,) or (n_classes,)
        The bias, the mean of the constant feature's weight.
    covariance_ : ndarray
        ``Σ`` without the bias entry: shape (n_features, n_features), or
        (n_features,) for ``covariance="diagonal"``; for one-vs-rest one per
        class, stacked: (n_classes, n_features, n_features) or
        (n_classes, n_features).
    intercept_covariance_ : ndarray
        The bias's entries of ``Σ``: its row of the full matrix (its
        covariances with the features, then its variance), shape
        (1, n_features + 1) or (n_classes, n_features + 1) for one-vs-rest; or
        its variance, shape (1,) or (n_classes,), for ``covariance="diagonal"``.
        Zeros with ``fit_intercept=False``.
    classes_ : ndarray
        The labels, sorted; ``classes_[0]`` is coded -1 and ``classes_[1]`` +1.
    n_features_in_ : int
        Number of features seen in ``fit``.
    n_iter_ : int
        Epochs run (the largest over the one-vs-rest problems).
    n_updates_ : int
        Updates made: rows whose constraint did not hold (summed over the
        problems); more than the mistakes.
    n_mistakes_ : ndarray of int, shape (n_epochs,)
        Mistakes (``y w·x <= 0`` before the row's update) in each epoch, summed
        over the one-vs-rest problems; ``n_mistakes_[0] / n_samples`` is LIBOL's
        online mistake rate of one pass.
    converged_ : bool
        Whether the last epoch made no mistake (for every problem);
        never ``True`` otherwise: a stop by ``tol`` is not convergence.
    stop_reason_ : str
        Why training ended: ``"mistake_free"``, ``"tol"`` (the mistakes stopped
        falling), ``"early_stopping"``, ``"max_iter"`` (with a
        ``ConvergenceWarning``), or ``"partial_fit"`` after a ``partial_fit``
        call; for one-vs-rest, the reason of the problem that ran longest.
    trace_ : Trace, or tuple of Trace (one per class)
        With ``record=True`` only.

    References
    ----------
    J. Wang, P. Zhao and S. C. H. Hoi, "Exact soft confidence-weighted
    learning", ICML 2012.

    Examples
    --------
    >>> from rosenblatt.linear_model import SoftConfidenceWeighted
    >>> X, y = [[0, 0], [0, 1], [1, 0], [1, 1]], [-1, -1, -1, 1]
    >>> model = SoftConfidenceWeighted(shuffle="none").fit(X, y)
    >>> model.n_mistakes_.tolist(), model.predict(X).tolist()
    ([2, 3, 0], [-1, -1, -1, 1])
    """

    _PARAMETERS = ("C", "eta", "variant", "a") + SHARED_PARAMETERS + ("n_jobs",)
    _parameter_constraints = constraints(
        _PARAMETERS, C=POSITIVE, eta=CONFIDENCE + [None], variant=[StrOptions({"I", "II"})],
        **SHARED_CONSTRAINTS)

    def __init__(
        self,
        *,
        C=1.0,
        eta=None,
        variant="I",
        a=1.0,
        covariance="auto",
        fit_intercept=True,
        max_iter=1000,
        tol=1e-3,
        n_iter_no_change=5,
        shuffle="every_epoch",
        random_state=None,
        record=False,
        class_weight=None,
        warm_start=False,
        n_jobs=None,
    ):
        self.C = C
        self.eta = eta
        self.variant = variant
        self.a = a
        self.covariance = covariance
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol
        self.n_iter_no_change = n_iter_no_change
        self.shuffle = shuffle
        self.random_state = random_state
        self.record = record
        self.class_weight = class_weight
        self.warm_start = warm_start
        self.n_jobs = n_jobs

    _learner_class = SoftConfidenceWeightedLearner
