"""First-order online rules: ROMMA, ALMA, online gradient descent, Winnow, Balanced
Winnow and the p-norm perceptron.

Each rule is one compiled epoch of :mod:`rosenblatt._kernels._first_order` that
updates the problem's own ``coef``/``intercept`` arrays in place (so the training
loop mixes, checks and publishes the very weights the kernel moved), a typed
state for what the rule keeps besides them, and the mistakes of every epoch
(:class:`~rosenblatt.base._mistakes.MistakeCounts`: ``n_mistakes_``, and the stop
at a mistake-free epoch):

- ROMMA, ALMA, online gradient descent: the problem holds ``w`` and ``b``; the
  state the mistakes, and ALMA's corrections ``k − 1`` (OGD's ``t`` is the
  problem's ``seen``);
- Winnow: ``w`` and the multiplicative bias ``b``; the state the threshold
  (``intercept_`` is ``b − θ``);
- Balanced Winnow: ``u`` and ``b_u``; the state ``v``, ``b_v`` and the threshold
  (``coef_`` is ``u − v``);
- the p-norm perceptron: ``w = g_p(θ)`` and its bias; the state ``θ``.

Mixing (iterative parameter mixing, McDonald et al. 2010) averages the running
weights by ``μ`` (the engine), and every state mixes itself: ``θ``, ``v`` alike,
counters added as the examples ``seen`` are.
"""

import math
from dataclasses import dataclass, field, replace

import numpy as np
from sklearn.utils._param_validation import StrOptions

from .._kernels import _first_order
from ..base import LinearLearner, LinearModel, OnlineMixin, PerceptronClassifier, Traced
from ..base import constraints as _constraints
from ..base._file_form import FLOAT64, Floats, Ints, Optional
from ..base._mistakes import CountsMistakes, MistakeCounts
from ..base._parameters import RealNumber
from ..base._registry import register
from .._kernels._penalty import TRACKS, Penalty
from ._averaged import Averaging
from ._online import update_log
from ._penalty import Regularized
from ._probabilities import LogisticProbabilities

#: The parameters every first-order rule shares, in the family's order.
ONLINE_RULE_PARAMETERS = (
    "fit_intercept", "max_iter", "tol", "n_iter_no_change", "shuffle", "random_state",
    "record", "class_weight", "warm_start", "n_jobs",
)

_ADVICE = ("increase max_iter; on data that are not linearly separable no epoch is "
           "mistake-free, and the weights after max_iter epochs are the rule's answer")


def constraints(own, **extra):
    """The estimator's ``_parameter_constraints``: its own parameters, then the shared."""
    return _constraints(tuple(own) + ONLINE_RULE_PARAMETERS, **extra)


# ------------------------------------------------------------------------- states

@dataclass
class FirstOrderState(MistakeCounts):
    """The mistakes of each epoch; the base of the rules' own states.

    :meth:`warm` is what a ``warm_start`` fit takes from the previous fit's
    state: the weights and every weight-like array (``θ``, ``v``), never the
    counters (the examples seen, ALMA's corrections, the mistakes), which start
    afresh as in a new run.

    With ``average=True`` (ROMMA, ALMA, Winnow, Balanced Winnow, the p-norm
    perceptron) the state also keeps the sums of the model's weights after every
    example (before Winnow's threshold): ``sum_coef``, ``sum_intercept`` and
    ``summed``, the examples they hold (the kernels add the weights lazily, before
    each update; the weights held since then count ``seen − summed`` times more:
    :meth:`completed`). ``None`` without averaging. The model publishes their
    mean. Mixed, the shards' completed sums add up (each went on from the same
    sums), as the examples ``seen`` do: the mean is over every weight vector any
    shard held."""

    sum_coef: np.ndarray = field(default=None, kw_only=True)
    sum_intercept: np.ndarray = field(default=None, kw_only=True)
    summed: np.ndarray = field(default=None, kw_only=True)

    file_form = {"sum_coef": Optional(Floats(like="coef", dtypes=FLOAT64)),
                 "sum_intercept": Optional(Floats(1)),
                 "summed": Optional(Ints(1))}

    def with_sums(self, coef):
        """This state with empty sums, for weights shaped as ``coef``."""
        return replace(self, sum_coef=np.zeros(coef.shape), sum_intercept=np.zeros(1),
                       summed=np.zeros(1, dtype=np.int64))

    def kernel_iterates(self):
        """``(sum_w, sum_b, summed)`` for the kernels, or ``None``."""
        if self.sum_coef is None:
            return None
        return self.sum_coef, self.sum_intercept, self.summed

    def model_weights(self, coef, intercept):
        """The model's weights from the running ones, before a threshold (Balanced
        Winnow's ``u − v``)."""
        return coef, intercept

    def completed(self, coef, intercept, seen):
        """The sums of the model's weights after each of the ``seen`` examples: the
        kept sums and the current weights ``seen − summed`` times."""
        coef, intercept = self.model_weights(coef, intercept)
        times = seen - int(self.summed[0])
        return self.sum_coef + times * coef, self.sum_intercept + times * intercept

    def mean_weights(self, coef, intercept, seen):
        """The mean of the model's weights after every example (before a threshold),
        or the weights themselves without averaging or before any example."""
        if self.sum_coef is None or seen == 0:
            return self.model_weights(coef, intercept)
        total_coef, total_intercept = self.completed(coef, intercept, seen)
        return total_coef / seen, total_intercept / seen

    def published(self, coef, intercept, seen):
        return self.mean_weights(coef, intercept, seen)

    def mixed_sums(self, before, parts, seen):
        """The fields of the sums after mixing the shards' copies ``parts`` of the
        problem ``before`` (whose state this is): complete to ``seen``."""
        if self.sum_coef is None:
            return {}
        start = self.completed(before.coef, before.intercept, int(before.seen[0]))
        totals = [p.state.completed(p.coef, p.intercept, int(p.seen[0])) for p in parts]
        return {"sum_coef": _added(start[0], [total[0] for total in totals]),
                "sum_intercept": _added(start[1], [total[1] for total in totals]),
                "summed": np.array([seen], dtype=np.int64)}

    def mixed(self, before, parts, mu, coef, intercept, seen):
        return replace(self, mistakes=self.mixed_mistakes(parts),
                       **self.mixed_sums(before, parts, seen))

    def renumber(self, move):
        if self.sum_coef is not None:
            move(self.sum_coef)

    def is_finite(self, problem):
        sums = () if self.sum_coef is None else (self.sum_coef, self.sum_intercept)
        return super().is_finite(problem) and all(np.all(np.isfinite(a)) for a in sums)

    def warm(self, previous):
        """This fresh state with the weight-like arrays of ``previous``."""
        return self


@dataclass
class Corrections(FirstOrderState):
    """ALMA's count of corrections, the paper's ``k − 1`` (an int64 ``(1,)`` array
    the kernel updates). Mixed as the examples ``seen`` are: the corrections of
    every shard added, so the steps ``η_k`` and the margins ``γ_k`` shrink as if
    the shards' corrections had been made one after another."""

    corrections: np.ndarray

    def mixed(self, before, parts, mu, coef, intercept, seen):
        start = int(self.corrections[0])
        total = start + sum(int(part.state.corrections[0]) - start for part in parts)
        return replace(self, corrections=np.array([total], dtype=np.int64),
                       mistakes=self.mixed_mistakes(parts),
                       **self.mixed_sums(before, parts, seen))


@dataclass
class Threshold(FirstOrderState):
    """Winnow's threshold ``θ``: the rule predicts with ``w·x + b − θ`` and
    publishes ``intercept_ = b − θ`` (``b`` the multiplicative bias, 0 without
    ``fit_intercept``)."""

    threshold: float

    def published(self, coef, intercept, seen):
        coef, intercept = self.mean_weights(coef, intercept, seen)
        return coef, intercept - self.threshold


@dataclass
class Balanced(FirstOrderState):
    """Balanced Winnow's second vector ``v`` and its bias (the problem's ``coef`` and
    ``intercept`` are ``u`` and ``b_u``), and the threshold: it publishes
    ``coef_ = u − v`` and ``intercept_ = b_u − b_v − θ``. ``v`` mixes as ``u`` does."""

    v: np.ndarray
    intercept_v: np.ndarray
    threshold: float

    def model_weights(self, coef, intercept):
        return coef - self.v, intercept - self.intercept_v

    def published(self, coef, intercept, seen):
        coef, intercept = self.mean_weights(coef, intercept, seen)
        return coef, intercept - self.threshold

    def mixed(self, before, parts, mu, coef, intercept, seen):
        return replace(self, v=_mix(self.v, [p.state.v for p in parts], mu),
                       intercept_v=_mix(self.intercept_v, [p.state.intercept_v for p in parts],
                                        mu),
                       mistakes=self.mixed_mistakes(parts),
                       **self.mixed_sums(before, parts, seen))

    def renumber(self, move):
        super().renumber(move)
        move(self.v)

    def warm(self, previous):
        return replace(self, v=previous.v.copy(), intercept_v=previous.intercept_v.copy())


@dataclass
class DualWeights(FirstOrderState):
    """The p-norm perceptron's ``θ`` (the sum of ``y x`` over the mistakes) and its
    bias component; the problem's ``coef``/``intercept`` are ``w = g_p(θ)``, which
    the kernel recomputes from ``θ`` at the start of every epoch.

    ``θ`` mixes by ``μ`` as the perceptron's weights do (for ``p = 2`` it is
    them); the mixed running weights are then ``g_p`` of the mixed ``θ``, not the
    mean of the shards' ``w`` (:meth:`mixed` sets them)."""

    theta: np.ndarray
    theta_intercept: np.ndarray
    p: float
    fit_intercept: bool

    def mixed(self, before, parts, mu, coef, intercept, seen):
        theta = _mix(self.theta, [part.state.theta for part in parts], mu)
        theta_intercept = _mix(self.theta_intercept,
                               [part.state.theta_intercept for part in parts], mu)
        # the weights Problem.mix is about to take: g_p of the mixed θ
        coef[...], linked = _link(theta, theta_intercept, self.fit_intercept, self.p)
        if self.fit_intercept:
            intercept[...] = linked
        return replace(self, theta=theta, theta_intercept=theta_intercept,
                       mistakes=self.mixed_mistakes(parts),
                       **self.mixed_sums(before, parts, seen))

    def renumber(self, move):
        super().renumber(move)
        move(self.theta)

    def is_finite(self, problem):
        return super().is_finite(problem) and bool(np.all(np.isfinite(self.theta))) and \
            bool(np.all(np.isfinite(self.theta_intercept)))

    def warm(self, previous):
        return replace(self, theta=previous.theta.copy(),
                       theta_intercept=previous.theta_intercept.copy())


@dataclass
class StepSize(FirstOrderState):
    """Online gradient descent's state with ``learning_rate="adaptive"``: the current
    step size ``rate`` (from ``eta``; divided by 5 each time the stopping rule's
    stall comes while it is above 1e-6, see :class:`OnlineGradientDescentLearner`).
    ``None`` for the other schedules. The shards of a mixed epoch all step with the
    driver's rate, so the mixed state keeps it."""

    rate: float = field(default=None, kw_only=True)


@dataclass
class AveragedSteps(StepSize, Averaging):
    """Online gradient descent with ``average=True``: :class:`Averaging`'s sums (the
    mean of the weights after every example, by Daumé's cached weights, exact under
    the penalty's shrink), the mistakes and the adaptive rate."""

    @classmethod
    def begin(cls, coef, intercept, *, decayed, rate):
        """Empty sums for running weights from ``coef``, ``intercept``."""
        return replace(cls.start(coef, intercept, decayed), rate=rate)

    # Averaging's, not FirstOrderState's (whose sums are the other rules' averaging)
    published = Averaging.published
    renumber = Averaging.renumber
    is_finite = Averaging.is_finite
    kernel_average = Averaging.kernel_average

    def mixed(self, before, parts, mu, coef, intercept, seen):
        averaged = Averaging.mixed(self, before, parts, mu, coef, intercept, seen)
        return replace(self, u=averaged.u, beta=averaged.beta, window=averaged.window,
                       mistakes=self.mixed_mistakes(parts))


def _added(start, parts):
    """``s + Σ (sᵢ − s)``: what every shard added to ``start``."""
    total = start.copy()
    for part in parts:
        total += part - start
    return total


def _mix(start, parts, mu):
    """``w + Σ μᵢ (wᵢ − w)``, as :meth:`~rosenblatt.base.Problem.mix` mixes the weights."""
    mixed = start.copy()
    for weight, part in zip(mu, parts):
        mixed += weight * (part - start)
    return mixed


def _link(theta, theta_intercept, fit_intercept, p):
    """``g_p((θ, θ_b))_i = sign(θ_i) |θ_i|^(p−1) / ‖θ‖_p^(p−2)`` (0 at ``θ = 0``),
    written as the kernel writes it (scaled by the largest component); returns the
    weights and the bias component (``θ_b`` itself without intercept)."""
    full = np.append(theta, theta_intercept[0]) if fit_intercept else theta.copy()
    if p != 2.0:
        largest = np.max(np.abs(full), initial=0.0)
        if largest > 0.0:
            size = largest * np.sum((np.abs(full) / largest) ** p) ** (1.0 / p)
            full = np.sign(full) * (size * (np.abs(full) / size) ** (p - 1.0))
    if fit_intercept:
        return full[:-1], full[-1]
    return full, theta_intercept[0]


# ----------------------------------------------------------------------- learners

class ErrorFreeStop(CountsMistakes):
    """Learner mixin: the stop at a mistake-free epoch, for rules that also update
    rows they classify right (a margin error, a gradient): such an epoch may end
    with weights that a later update made wrong on an earlier row, so after it
    the weights are scored on the training rows (one pass, summed over the
    shards), and training stops (``converged_``) only when they make no mistake."""

    def _updates_right_rows(self):
        """Whether the rule updates rows with ``y f > 0`` too."""
        return True

    def _confirms_on_weights(self, problem):
        return self._updates_right_rows()


class FirstOrderLearner(Traced, ErrorFreeStop, LinearLearner):
    """A binary first-order rule: one kernel epoch on the problem's own weights.

    A rule gives ``_epoch`` (its kernel, parameters and weight arrays, handed to
    :meth:`_run`), its state (``_new_state``) and, when its weights do not start
    at 0, ``_starting_weights``.
    """

    _advice = _ADVICE

    #: whether the rule's kernel takes the sums of ``average=True`` (its last argument):
    #: the state's sums of the weights after every example (ROMMA, ALMA, the Winnows,
    #: the p-norm perceptron; online gradient descent keeps Daumé's cached sums instead)
    _sums_iterates = False

    def _averages_iterates(self):
        return self._sums_iterates and bool(getattr(self, "average", False))

    def _confirms_on_weights(self, problem):
        # the mean lags the running weights: a mistake-free epoch is confirmed on it
        return self._averages_iterates() or super()._confirms_on_weights(problem)

    def _before_training(self, problems, shards, backend, partial):
        super()._before_training(problems, shards, backend, partial)
        if self._sums_iterates:
            for problem in problems:
                if (problem.state.sum_coef is not None) != self._averages_iterates():
                    raise ValueError(
                        f"average was changed to {self.average} between partial_fit calls; "
                        "the mean kept so far cannot follow. Keep average fixed, or fit "
                        "afresh."
                    )

    def publish(self, problems):
        fitted = super().publish(problems)
        if getattr(self, "average", False):
            fitted["n_examples_"] = int(max(p.seen[0] for p in problems))
        return fitted

    def _starting_weights(self, n_features, rngs):
        return [(np.zeros(n_features), 0.0) for _ in rngs]

    def _new_state(self, coef, intercept):
        return FirstOrderState()

    def _start_problems(self, X, rngs, previous):
        """Fresh problems; with ``warm_start`` they take the previous fit's running
        weights and weight-like state (:meth:`FirstOrderState.warm`). The trace
        starts from the weights the model publishes."""
        problems = super()._start_problems(X, rngs, None)
        for k, problem in enumerate(problems):
            if previous is not None:
                problem.coef[...] = previous[k].coef
                problem.intercept[...] = previous[k].intercept
                # a fresh state for the weights the run now starts from (the averaging
                # sums' start), then what it takes from the previous fit
                problem.state = self._new_state(problem.coef, problem.intercept).warm(
                    previous[k].state)
            if self._averages_iterates():
                problem.state = problem.state.with_sums(problem.coef)
            if problem.recorder is not None:
                problem.recorder = self._new_recorder(*problem.published(), problem.classes)
        return problems

    def _run(self, problem, data, order, kernel, params, weights, carry=()):
        """One epoch of ``kernel(X, y, sw, order, *params, fit_intercept, weights,
        log, *carry)``: counts its mistakes and returns its updates (with a trace,
        see :func:`run_traced`)."""
        if self._sums_iterates:
            carry = carry + (problem.state.kernel_iterates(),)

        def call(order, log):
            return kernel(data.Xk, data.y, data.kernel_sw, order, *params, self.fit_intercept,
                          weights, log, *carry)

        if problem.recorder is None:
            n_mistakes, n_updates = call(order, None)
        else:
            n_mistakes, n_updates = run_traced(problem, data, order, call)
        problem.state.count_mistakes(problem.n_iter, n_mistakes)
        return n_updates


def run_traced(problem, data, order, call, multiclass=False):
    """An epoch with ``record=True``: ``call(order, log)`` (the rule's kernel) once
    per row, an order of length 1, which is the arithmetic of one call for the
    epoch; after every update the weights the model publishes are copied into the
    trace (``add_snapshots``; its ``update`` is NaN). Returns the mistakes and the
    updates.

    The kernels' logs would give each update's row and decision value, but not its
    weights: the first-order updates are not all a step along ``x`` (ROMMA's and
    ALMA's rescale ``w``, Winnow's multiply it), and where they are (OGD,
    multiclass PA) the step cannot be recomputed bit for bit outside the kernel,
    which is compiled with reassociation (``η/√t · g``, the dense ``‖x‖²``)."""
    log = update_log(1, multiclass)
    n_mistakes = n_updates = 0
    columns = ([], [], [], [], [], [])  # rows, decisions, positions, weights, biases, rivals
    for row in (order if len(order) else np.arange(data.n_rows, dtype=np.intp)):
        mistakes, updates = call(np.array([row], dtype=np.intp), log)
        n_mistakes += mistakes
        n_updates += updates
        if updates:
            coef, intercept = problem.published()
            for column, value in zip(columns, (row, log[1][0], log[2][0], np.array(coef),
                                               np.array(intercept), log[-1][0])):
                column.append(value)
    rows, decisions, positions = (np.array(columns[0], dtype=np.intp),
                                  np.array(columns[1], dtype=np.float64),
                                  np.array(columns[2], dtype=np.int64))
    shape = (len(rows),) + problem.coef.shape
    coefs = np.array(columns[3], dtype=np.float64).reshape(shape)
    intercepts = np.array(columns[4], dtype=np.float64).reshape(shape[:-1])
    if multiclass:
        problem.recorder.add_snapshots(problem.n_iter, data.X, data.y, rows, decisions,
                                       positions, np.array(columns[5], dtype=np.intp), coefs,
                                       intercepts)
    else:
        problem.recorder.add_snapshots(problem.n_iter, data.X, data.y, rows, decisions,
                                       positions, coefs, intercepts)
    return n_mistakes, n_updates


class ScaledWeights:
    """Learner mixin for the rules whose kernels keep ``w = s·v`` (ROMMA, ALMA_2):
    at an epoch's end, the scale the blocks carried is folded into the weights."""

    def _epoch_end(self, problem):
        super()._epoch_end(problem)
        if getattr(problem, "_carry", None) is not None:
            _first_order.alma_unscale(problem.coef, problem.intercept, self.fit_intercept,
                                      problem._carry)
            problem._carry = None


class ROMMALearner(ScaledWeights, FirstOrderLearner):
    """ROMMA: the kernel's projection onto the two constraints."""

    _sums_iterates = True

    def _separable_data_converge(self, problem):
        return True  # a perceptron-like mistake bound on separable data

    # the update rescales the whole weight vector: nothing to gain from renumbered
    # columns, and its norm ‖w‖² would be summed in another order
    _renumbers = False

    def _epoch(self, problem, data, order):
        return self._run(problem, data, order, _first_order.romma_epoch, (self.aggressive,),
                         (problem.coef, problem.intercept, problem.seen),
                         _scale_carry(problem))

    def _updates_right_rows(self):
        return self.aggressive


class ALMALearner(ScaledWeights, FirstOrderLearner):
    """ALMA_p: the kernel's step in the dual space and projection into the q-ball."""

    _sums_iterates = True

    def _separable_data_converge(self, problem):
        return True  # a perceptron-like mistake bound on separable data

    _renumbers = False  # g_p and the q-norm work on the whole vector (see ROMMALearner)

    def _new_state(self, coef, intercept):
        return Corrections(np.zeros(1, dtype=np.int64))

    def _epoch(self, problem, data, order):
        B = 1.0 / self.alpha if self.B is None else float(self.B)
        carry = _scale_carry(problem) if self.p == 2.0 else (None,)
        return self._run(problem, data, order, _first_order.alma_epoch,
                         (float(self.p), float(self.alpha), B, float(self.C)),
                         (problem.coef, problem.intercept, problem.seen,
                          problem.state.corrections), carry)


def _scale_carry(problem):
    """The ``carry`` argument of a kernel that keeps ``w = s·v`` (ROMMA, ALMA_2): the
    problem's ``(4,)`` array, new at an epoch's first block, so that the blocks of a
    file carry ``s`` and ``‖w‖²`` as one call over their rows would; ``None`` (fold
    at the end of every call) for a traced epoch, whose calls are single rows."""
    if problem.recorder is not None:
        return (None,)
    if getattr(problem, "_carry", None) is None:
        problem._carry = np.zeros(4)
    return (problem._carry,)


class ProgressiveLoss:
    """Learner mixin for the loss-driven rules (OGD, FTRL), whose kernels add each
    row's weighted loss before its update to a ``(2,)`` array (loss, weight): the
    epoch's mean is ``problem.epoch_loss``, the progressive validation loss that
    Vowpal Wabbit reports (the command line's pass line prints it), summed over
    every block of an epoch."""

    def _epoch_losses(self, problem):
        """The array the epoch's blocks add to (a new one at an epoch's first block)."""
        if getattr(problem, "_losses", None) is None:
            problem._losses = np.zeros(2)
        return problem._losses

    def _epoch_end(self, problem):
        super()._epoch_end(problem)
        losses, problem._losses = getattr(problem, "_losses", None), None
        if losses is not None and losses[1] > 0.0:
            problem.epoch_loss = float(losses[0] / losses[1])


class OnlineGradientDescentLearner(ProgressiveLoss, Regularized, FirstOrderLearner):
    """Online gradient descent: ``w += η_t g x``, ``t`` the problem's ``seen``, with
    scikit-learn's schedules, penalty (:class:`Regularized`: the perceptron's
    machinery) and averaging (:class:`AveragedSteps`)."""

    #: the adaptive rate stops being divided below this (scikit-learn's ``_plain_sgd``)
    ADAPTIVE_FLOOR = 1e-6


    def _updates_right_rows(self):
        return self.loss != "perceptron"

    def _confirms_on_weights(self, problem):
        # the mean lags the running weights: a mistake-free epoch is confirmed on it
        return bool(self.average) or self._updates_right_rows()

    def _new_state(self, coef, intercept):
        rate = float(self.eta) if self.learning_rate == "adaptive" else None
        if self.average:
            return AveragedSteps.begin(coef, intercept, decayed=self.penalty is not None,
                                       rate=rate)
        return FirstOrderState() if rate is None else StepSize(rate=rate)

    def _before_training(self, problems, shards, backend, partial):
        if self.learning_rate == "optimal" and self.alpha == 0.0:
            raise ValueError(
                "learning_rate='optimal' steps by 1/(alpha (t0 + t)), which alpha=0 makes "
                "infinite; set alpha > 0 (e.g. 1e-4, scikit-learn's default), or choose "
                "another learning_rate."
            )
        for problem in problems:
            state = problem.state
            if isinstance(state, Averaging) != bool(self.average):
                raise ValueError(
                    f"average was changed to {self.average} between partial_fit calls; the "
                    "mean kept so far cannot follow. Keep average fixed, or fit afresh."
                )
            if (getattr(state, "rate", None) is not None) != (self.learning_rate == "adaptive"):
                raise ValueError(
                    "learning_rate was changed to or from 'adaptive' between partial_fit "
                    "calls; the adaptive rate is kept by the run. Keep it fixed, or fit "
                    "afresh."
                )
        super()._before_training(problems, shards, backend, partial)

    def _penalty_arrays(self, problem):
        """The perceptron's penalty arrays and two more entries: the shrink and the L1
        step per unit of step size, which the kernel turns into each example's own
        (the step changes with ``t``)."""
        penalty = super()._penalty_arrays(problem)
        rho, alpha = self._l1_ratio(), float(self.alpha)
        params = np.append(penalty.params, [(1.0 - rho) * alpha, rho * alpha])
        params[TRACKS] = 0.0  # the stopping rule watches mistakes, not the objective
        return Penalty(params, penalty.scalars, penalty.q)

    def _schedule(self, problem):
        """``(eta, schedule, t0)`` for the kernel's :func:`~rosenblatt._kernels.
        _first_order.ogd_rate`. ``"optimal"``: ``η_t = 1/(α (t0 + t − 1))`` with
        Bottou's ``t0`` as scikit-learn computes it: a typical weight
        ``typw = √(1/√α)``, a first step ``η_0 = typw/max(1, −g(1, −typw))`` and
        ``t0 = 1/(η_0 α)``, so that the first step is ``η_0``."""
        kind = _first_order.OGD_SCHEDULES[self.learning_rate]
        if self.learning_rate == "optimal":
            alpha = float(self.alpha)
            typw = math.sqrt(1.0 / math.sqrt(alpha))
            slope = -_first_order._ogd_gradient(_first_order.OGD_LOSSES[self.loss], 1.0, -typw)
            first = typw / max(1.0, slope)
            return 1.0 / alpha, kind, 1.0 / (first * alpha)
        if self.learning_rate == "adaptive":
            return float(problem.state.rate), kind, 0.0
        return float(self.eta), kind, 0.0

    def _epoch(self, problem, data, order):
        eta, kind, t0 = self._schedule(problem)
        return self._run(problem, data, order, _first_order.ogd_epoch,
                         (eta, _first_order.OGD_LOSSES[self.loss]),
                         (problem.coef, problem.intercept, problem.seen),
                         (kind, float(self.power_t), t0, problem.state.kernel_average(),
                          problem.penalty, self._epoch_losses(problem)))

    def _stop(self, problem, end):
        """The stopping rule; with ``learning_rate="adaptive"`` its stall (the
        mistakes not falling by ``tol × n_samples`` for ``n_iter_no_change``
        epochs) divides the rate by 5 and goes on, as scikit-learn's stall does,
        until the rate is at most 1e-6, when the stall ends the run."""
        reason = problem.stop_reason
        stop = super()._stop(problem, end)
        if stop and problem.stop_reason == "tol" and self.learning_rate == "adaptive" and \
                problem.state.rate > self.ADAPTIVE_FLOOR:
            problem.state.rate /= 5.0
            problem.n_no_improvement = 0
            problem.stop_reason = reason
            return False
        return stop



class WinnowLearner(FirstOrderLearner):
    """Winnow2: multiplicative promotions and demotions on a mistake."""

    _sums_iterates = True

    def _updates_right_rows(self):
        return False

    def _threshold(self, n_features):
        return n_features / 2.0 if self.threshold is None else float(self.threshold)

    def _starting_weights(self, n_features, rngs):
        return [(np.full(n_features, float(self.w0)), float(self.w0) if self.fit_intercept
                 else 0.0) for _ in rngs]

    def _new_state(self, coef, intercept):
        return Threshold(self._threshold(coef.shape[0]))

    def _epoch(self, problem, data, order):
        problem.state.threshold = self._threshold(problem.coef.shape[0])  # set_params
        return self._run(problem, data, order, _first_order.winnow_epoch,
                         (float(self.alpha), problem.state.threshold),
                         (problem.coef, problem.intercept, problem.seen))


class BalancedWinnowLearner(WinnowLearner):
    """Balanced Winnow: ``u`` promoted where ``v`` is demoted."""

    def _new_state(self, coef, intercept):
        return Balanced(np.full(coef.shape, float(self.w0)), intercept.copy(),
                        self._threshold(coef.shape[0]))

    def _epoch(self, problem, data, order):
        state = problem.state
        state.threshold = self._threshold(problem.coef.shape[0])
        return self._run(problem, data, order, _first_order.balanced_winnow_epoch,
                         (float(self.alpha), state.threshold),
                         (problem.coef, state.v, problem.intercept, state.intercept_v,
                          problem.seen))


class PNormLearner(FirstOrderLearner):
    """The p-norm perceptron: ``θ`` sums the mistakes, ``w = g_p(θ)``."""

    _sums_iterates = True

    def _separable_data_converge(self, problem):
        return True  # a perceptron-like mistake bound on separable data

    _renumbers = False  # g_p works on the whole vector (see ROMMALearner)

    def _updates_right_rows(self):
        return False

    def _p(self, n_features):
        return max(2.0, 2.0 * math.log(n_features)) if self.p is None else float(self.p)

    def _new_state(self, coef, intercept):
        return DualWeights(np.zeros(coef.shape), np.zeros(1), self._p(coef.shape[0]),
                           bool(self.fit_intercept))

    def _epoch(self, problem, data, order):
        state = problem.state
        state.p = self._p(problem.coef.shape[0])  # set_params between partial_fit calls
        return self._run(problem, data, order, _first_order.pnorm_epoch, (state.p,),
                         (state.theta, state.theta_intercept, problem.coef, problem.intercept,
                          problem.seen))


# --------------------------------------------------------------------- estimators


@register("romma", "first-order")
class ROMMA(OnlineMixin, LinearModel, PerceptronClassifier):
    """ROMMA, the relaxed online maximum margin algorithm (Li & Long 2002).

    On a mistake (``y f <= 0`` with ``f = w·x + b``; ``aggressive=True``: on
    every ``y f < 1``) the weights become the shortest ``w`` with
    ``w·w_t >= ‖w_t‖²`` (one half-space standing in for every constraint met
    so far) and ``y w·x >= 1``:

    - ``w = y x/‖x‖²`` when ``w_t = 0`` or ``‖x‖²‖w_t‖² <= y f`` (the first
      constraint is then slack);
    - else, with ``A = ‖x‖²‖w_t‖²`` and ``D = A − f²``,
      ``w = ((A − y f) w_t + ‖w_t‖² (y − f) x)/D``.

    A row parallel to ``w_t`` (``D <= 1e-12 A``: the two constraints do not
    meet) is a mistake left without update, and a row ``x = 0`` is skipped.
    The bias is the weight of a constant feature 1, in ``‖x‖²``, ``‖w‖²`` and
    ``f``. The update is a projection, without a step size: a sample or class
    weight only says whether a row is there (any weight > 0) or not (0).

    ``‖w‖`` is 1 over the margin the constraints met so far allow: on data that
    no line separates they cannot all hold, and ``‖w‖`` grows with every epoch
    (3-fold per epoch on a class lying between two others), so keep the epochs
    few there, as the default does.

    Probabilities: none; its scores are the margins of a maximum-margin rule,
    which models no probability. For probabilities, calibrate its scores with
    :class:`sklearn.calibration.CalibratedClassifierCV`.

    Parameters
    ----------
    aggressive : bool, default=False
        Update on every row with ``y f < 1`` (aggressive ROMMA), not only on
        mistakes; the trained weights then reach a margin of 1 sooner.
    average : bool, default=False
        Publish as ``coef_``/``intercept_`` the mean of the model's weights after every
        example met, over every epoch and ``partial_fit`` call (``n_examples_`` of
        them); the updates are unchanged. No paper of this rule defines an averaged
        form: it is the generic online-to-batch average of Cesa-Bianchi, Conconi &
        Gentile (2004), the averaged perceptron's mean, which Carvalho & Cohen (2006)
        found to help single-pass online learners. The sums cost O(n_features) per
        update (the weights are added lazily, between updates at no cost).
    fit_intercept : bool, default=True
        Learn a bias ``b``: the weight of a constant feature 1 appended to
        every row, in every norm and product of the rule. False: the boundary
        passes through 0.
    max_iter : int, default=1000
        Largest number of epochs (the papers' algorithms are one pass:
        ``max_iter=1``). Training stops by the stopping rule of the mistake-driven rules
        (:mod:`rosenblatt.base._stopping`): after an epoch without a mistake (``y f <= 0``,
        counted as each row is met, before its update) when the weights after it make none on
        the training rows either; or when the epoch's mistakes have not fallen by ``tol ×
        n_samples`` for ``n_iter_no_change`` epochs, unless a linear program finds the rows
        separable (on data of up to 50,000 values), where the rule's mistake bound promises a
        mistake-free epoch. ``stop_reason_`` says which; a run that reaches ``max_iter`` first
        warns (``ConvergenceWarning``).
    tol : float or None, default=1e-3
        The stall threshold above, as a share of the rows. ``None``: stop only
        at a mistake-free epoch or ``max_iter``.
    n_iter_no_change : int, default=5
        Epochs without that improvement before training stops.
    shuffle : {"none", "once", "every_epoch"}, default="every_epoch"
        Row order (Daumé §4.2): as given, one random permutation kept for every
        epoch, or a new permutation each epoch.
    random_state : None, int, RandomState or Generator, default=None
        Source of the permutations. A generator you pass is advanced in place,
        as in scikit-learn.
    record : bool, default=False
        Keep a :class:`~rosenblatt.Trace` of every update in ``trace_`` (the
        weights after each one).
    class_weight : dict, "balanced" or None, default=None
        Multiplies the weight of each row by the weight of its class.
    warm_start : bool, default=False
        Start ``fit`` from the weights (and the state that goes with them)
        of the previous fit; the counters start afresh.
    n_jobs : int or None, default=None
        Threads for one-vs-rest (one binary problem per thread); -1 for every
        core. Results do not depend on it.

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
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
        Updates made (summed over the problems).
    n_mistakes_ : ndarray of shape (n_epochs,)
        Mistakes (``y f <= 0`` before the update) of each epoch, summed over the
        problems; each ``partial_fit`` call is an epoch.
    n_examples_ : int
        With ``average=True``: the examples the mean is over (the largest over the
        problems).
    converged_ : bool
        Whether the last epoch made no mistake, confirmed on the training rows (for every problem);
        never ``True`` otherwise: a stop by ``tol`` is not convergence.
    stop_reason_ : str
        Why training ended: ``"mistake_free"``, ``"tol"`` (the mistakes stopped
        falling), ``"early_stopping"``, ``"max_iter"`` (with a
        ``ConvergenceWarning``), or ``"partial_fit"`` after a ``partial_fit``
        call; for one-vs-rest, the reason of the problem that ran longest.
    trace_ : Trace, or tuple of Trace (one per class)
        With ``record=True`` only.

    Notes
    -----
    ``ParameterMixing`` averages the shards' weights, as for the perceptron.
    With ``average=True`` the shards' sums of the weights
    they held add up, and the mean is over all of them.

    References
    ----------
    Y. Li and P. M. Long, "The relaxed online maximum margin algorithm",
    *Machine Learning* 46, 361-387, 2002.

    Examples
    --------
    >>> from rosenblatt.linear_model import ROMMA
    >>> X, y = [[2, 1], [1, 3], [-1, -1], [-2, 1]], [1, 1, -1, -1]
    >>> model = ROMMA(fit_intercept=False, shuffle="none").fit(X, y)
    >>> model.coef_.round(4).tolist(), model.n_mistakes_.tolist()
    ([[0.4, 0.2]], [1, 0])

    Aggressive ROMMA goes on until every row has a margin ``y f`` of at least 1:

    >>> model = ROMMA(aggressive=True, fit_intercept=False, shuffle="none").fit(X, y)
    >>> model.n_updates_, (model.decision_function(X) * y).round(4).tolist()
    (3, [1.6667, 1.6667, 1.0, 1.0])
    """

    _PARAMETERS = ("aggressive", "average") + ONLINE_RULE_PARAMETERS
    _parameter_constraints = constraints(
        ("aggressive", "average"), aggressive=["boolean"]
    )

    def __init__(
        self,
        *,
        aggressive=False,
        average=False,
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
        self.aggressive = aggressive
        self.average = average
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

    _learner_class = ROMMALearner


@register("alma", "first-order")
class ALMA(OnlineMixin, LinearModel, PerceptronClassifier):
    """ALMA_p, the approximate large margin algorithm (Gentile 2001).

    Each row is normalised in the p-norm, ``x̂ = x/‖x‖_p``. With ``k − 1`` the
    corrections made so far, the margin asked for is ``γ_k = B √(p−1)/√k`` and
    the step ``η_k = C/(√(p−1) √k)``. On a row with ``y w·x̂ <= (1 − α) γ_k``
    (a margin error, not only a mistake) the weights step in the dual space and
    go back into the unit ball of the dual norm ``q = p/(p − 1)``:
    ``w' = g_p(g_q(w) + η_k y x̂)``, ``w = w'/max(1, ‖w'‖_q)``, ``k += 1``,
    where ``g_r(t)_i = sign(t_i) |t_i|^(r−1)/‖t‖_r^(r−2)`` (``g_2`` is the
    identity: ALMA_2 is a perceptron with a shrinking margin and step, kept in
    the unit ball). ``1 − α`` is the share of the best margin it approximates.

    Rows ``x = 0`` are skipped; sample and class weights multiply ``η_k``. The
    bias is the weight of a constant feature 1, in ``‖x‖_p`` and in the norms
    of ``w``: scale the features to about 1 (beside features of 5 the bias
    learns slowly, as every row is normalised with it).

    Probabilities: none; its scores are the margins of a maximum-margin rule,
    which models no probability. For probabilities, calibrate its scores with
    :class:`sklearn.calibration.CalibratedClassifierCV`.

    Parameters
    ----------
    p : float, default=2.0
        The norm of the instances (>= 2); the weights live in the dual q-norm.
        ``p ≈ 2 ln n_features`` suits few relevant features among many.
    alpha : float, default=0.9
        In (0, 1]: the rule approximates ``1 − alpha`` of the largest margin;
        smaller values ask for more margin and make more corrections.
    B : float or None, default=None
        Scale of the margin ``γ_k`` (> 0); ``None``: ``1/alpha`` (the paper's).
    C : float, default=sqrt(2)
        Scale of the step ``η_k`` (> 0, at most 1e100: the norm of a larger
        step overflows float64); the paper's ``√2``.
    average : bool, default=False
        Publish as ``coef_``/``intercept_`` the mean of the model's weights after every
        example met, over every epoch and ``partial_fit`` call (``n_examples_`` of
        them); the updates are unchanged. No paper of this rule defines an averaged
        form: it is the generic online-to-batch average of Cesa-Bianchi, Conconi &
        Gentile (2004), the averaged perceptron's mean, which Carvalho & Cohen (2006)
        found to help single-pass online learners. The sums cost O(n_features) per
        update (the weights are added lazily, between updates at no cost).
    fit_intercept : bool, default=True
        Learn a bias ``b``: the weight of a constant feature 1 appended to
        every row, in every norm and product of the rule. False: the boundary
        passes through 0.
    max_iter : int, default=1000
        Largest number of epochs (the papers' algorithms are one pass:
        ``max_iter=1``). Training stops by the stopping rule of the mistake-driven rules
        (:mod:`rosenblatt.base._stopping`): after an epoch without a mistake (``y f <= 0``,
        counted as each row is met, before its update) when the weights after it make none on
        the training rows either; or when the epoch's mistakes have not fallen by ``tol ×
        n_samples`` for ``n_iter_no_change`` epochs, unless a linear program finds the rows
        separable (on data of up to 50,000 values), where the rule's mistake bound promises a
        mistake-free epoch. ``stop_reason_`` says which; a run that reaches ``max_iter`` first
        warns (``ConvergenceWarning``).
    tol : float or None, default=1e-3
        The stall threshold above, as a share of the rows. ``None``: stop only
        at a mistake-free epoch or ``max_iter``.
    n_iter_no_change : int, default=5
        Epochs without that improvement before training stops.
    shuffle : {"none", "once", "every_epoch"}, default="every_epoch"
        Row order (Daumé §4.2): as given, one random permutation kept for every
        epoch, or a new permutation each epoch.
    random_state : None, int, RandomState or Generator, default=None
        Source of the permutations. A generator you pass is advanced in place,
        as in scikit-learn.
    record : bool, default=False
        Keep a :class:`~rosenblatt.Trace` of every update in ``trace_`` (the
        weights after each one).
    class_weight : dict, "balanced" or None, default=None
        Multiplies the weight of each row by the weight of its class.
    warm_start : bool, default=False
        Start ``fit`` from the weights (and the state that goes with them)
        of the previous fit; the counters start afresh.
    n_jobs : int or None, default=None
        Threads for one-vs-rest (one binary problem per thread); -1 for every
        core. Results do not depend on it.

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
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
        Updates made (summed over the problems): ALMA's corrections.
    n_mistakes_ : ndarray of shape (n_epochs,)
        Mistakes (``y f <= 0`` before the update) of each epoch, summed over the
        problems; each ``partial_fit`` call is an epoch.
    n_examples_ : int
        With ``average=True``: the examples the mean is over (the largest over the
        problems).
    converged_ : bool
        Whether the last epoch made no mistake, confirmed on the training rows (for every problem);
        never ``True`` otherwise: a stop by ``tol`` is not convergence.
    stop_reason_ : str
        Why training ended: ``"mistake_free"``, ``"tol"`` (the mistakes stopped
        falling), ``"early_stopping"``, ``"max_iter"`` (with a
        ``ConvergenceWarning``), or ``"partial_fit"`` after a ``partial_fit``
        call; for one-vs-rest, the reason of the problem that ran longest.
    trace_ : Trace, or tuple of Trace (one per class)
        With ``record=True`` only.

    Notes
    -----
    ``ParameterMixing`` averages the shards' weights, which stay in the unit
    q-ball (a convex combination of points of a ball), and adds their
    corrections as it adds the examples seen, so that ``γ_k`` and ``η_k`` go on
    shrinking as if the corrections had been made one after another.
    With ``average=True`` the shards' sums of the weights
    they held add up, and the mean is over all of them.

    References
    ----------
    C. Gentile, "A new approximate maximal margin classification algorithm",
    *Journal of Machine Learning Research* 2, 213-242, 2001.

    Examples
    --------
    >>> from rosenblatt.linear_model import ALMA
    >>> X, y = [[2, 1], [1, 3], [-1, -1], [-2, 1]], [1, 1, -1, -1]
    >>> model = ALMA(shuffle="none").fit(X, y)
    >>> model.coef_.round(4).tolist(), model.intercept_.round(4).tolist()
    ([[0.8165, 0.4082]], [0.4082])
    >>> model.n_mistakes_.tolist(), model.n_updates_
    ([1, 0], 1)
    """

    _PARAMETERS = ("p", "alpha", "B", "C", "average") + ONLINE_RULE_PARAMETERS
    _parameter_constraints = constraints(
        ("p", "alpha", "B", "C", "average"),
        p=[RealNumber(2, None, closed="left")],
        alpha=[RealNumber(0, 1, closed="right")],
        B=[RealNumber(0, None, closed="neither"), None],
        # C ≥ ~1.4e154 made the step's norm overflow: an all-zero model, without a word
        C=[RealNumber(0, 1e100, closed="right")],
    )

    def __init__(
        self,
        *,
        p=2.0,
        alpha=0.9,
        B=None,
        C=math.sqrt(2),
        average=False,
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
        self.p = p
        self.alpha = alpha
        self.B = B
        self.C = C
        self.average = average
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

    _learner_class = ALMALearner


@register("ogd", "first-order")
class OnlineGradientDescent(LogisticProbabilities, OnlineMixin, LinearModel,
                            PerceptronClassifier):
    """Online gradient descent on a convex loss (Zinkevich 2003; LIBOL's ``OGD``).

    ``t`` counts every row met, over every epoch and ``partial_fit`` call, and
    ``η_t = eta/√t`` by default. Each row moves the weights along the loss's
    negative gradient at ``f = w·x + b``: ``w += η_t g x`` and ``b += η_t g``, with

    - ``"hinge"``: ``g = y`` when ``y f < 1``, for ``max(0, 1 − y f)``;
    - ``"logistic"``: ``g = y/(1 + exp(y f))``, for ``log(1 + exp(−y f))``;
    - ``"squared"``: ``g = y − f``, for ``(f − y)²/2``;
    - ``"perceptron"``: ``g = y`` when ``y f <= 0``, for ``max(0, −y f)``.

    ``eta/√t`` is Zinkevich's step, with regret ``O(√T)`` against any fixed
    weights; sample and class weights multiply the step.

    The options are scikit-learn's ``SGDClassifier``'s, with its names except
    ``eta`` (its ``eta0``): ``learning_rate`` picks the schedule of ``η_t``,
    ``penalty``/``alpha``/``l1_ratio`` regularise as :class:`~rosenblatt.Perceptron`
    does (the same code: the L2 shrink ``1 − (1 − l1_ratio) α η_t`` before each
    step, then the cumulative L1 truncation of Tsuruoka et al. 2009), and
    ``average=True`` publishes the mean of the weights after every example.
    ``OnlineGradientDescent(eta=e, loss=L, learning_rate=r, power_t=p, penalty=P,
    alpha=a, l1_ratio=l, average=A, shuffle="none", tol=None)`` takes the steps
    of ``SGDClassifier(eta0=e, loss=L', learning_rate=r, power_t=p, penalty=P,
    alpha=a, l1_ratio=l, average=A, shuffle=False, tol=None)`` on dense data, with
    ``L'`` = ``"hinge"``, ``"log_loss"``, ``"squared_error"``, ``"perceptron"``
    (scikit-learn's sparse path shrinks the intercept step; with an L1 part and
    ``average`` its mean is taken before each truncation, ours after). Only the
    defaults differ: ``learning_rate="invscaling"`` with ``eta=1`` (Zinkevich's
    ``1/√t``, this class's rule from the start) where scikit-learn has
    ``"optimal"`` and ``eta0=0.01``, and ``penalty=None`` where it has ``"l2"``.

    Probabilities: with ``loss="logistic"`` the rule descends the log-loss of
    the logistic model, and ``predict_proba`` gives its ``σ(w·x + b)``
    (one-vs-rest: normalised over the classes); the other losses' scores are
    margins, which model no probability, and the models trained on them have no
    ``predict_proba`` (``hasattr`` is False). For probabilities, calibrate its
    scores with :class:`sklearn.calibration.CalibratedClassifierCV`.

    Parameters
    ----------
    eta : float, default=1.0
        The base step size (> 0), scikit-learn's ``eta0``: ``η_t = eta/t^power_t``
        (``"invscaling"``), ``eta`` (``"constant"``) or the starting rate of
        ``"adaptive"``; not used by ``"optimal"``.
    loss : {"hinge", "logistic", "squared", "perceptron"}, default="hinge"
        The loss whose gradient is followed.
    learning_rate : {"invscaling", "constant", "optimal", "adaptive"}, default="invscaling"
        The schedule of the step ``η_t``, ``t`` the examples met from 1:

        - ``"invscaling"``: ``eta/t^power_t`` (``eta/√t``, Zinkevich's);
        - ``"constant"``: ``eta``;
        - ``"optimal"``: ``1/(alpha (t0 + t − 1))``, with Bottou's ``t0``
          (scikit-learn's: ``t0 = 1/(η₀ alpha)``, ``η₀ = √(1/√alpha)``, so that the
          first step is about the size of a typical weight); needs ``alpha > 0``;
        - ``"adaptive"``: ``eta``, divided by 5 each time the stopping rule
          stalls (the epoch's mistakes not falling by ``tol × n_samples`` for
          ``n_iter_no_change`` epochs) instead of stopping, until it is at most
          1e-6, when the stall ends the run. scikit-learn watches its objective
          (loss plus penalty) for this; here, as for stopping, the mistakes.
          Without ``tol`` the rate never changes.
    power_t : float, default=0.5
        The exponent of ``"invscaling"``.
    penalty : {"l2", "l1", "elasticnet"} or None, default=None
        Regularisation as in scikit-learn: before each step the weights shrink by
        ``max(0, 1 − (1 − l1_ratio) alpha η_t)`` (the L2 part), and after it the L1
        part moves the weights of the example's features towards 0 by the penalty
        accumulated so far, never past 0 (Tsuruoka et al. 2009; for dense rows every
        feature, for CSR rows the stored ones). The bias is not penalised. ``None``:
        plain gradient steps.
    alpha : float, default=0.0001
        Strength of the penalty (>= 0), and the scale of ``"optimal"``'s steps.
    l1_ratio : float, default=0.15
        Share of L1 in ``"elasticnet"`` (0: L2 only, 1: L1 only).
    average : bool, default=False
        Publish as ``coef_``/``intercept_`` the mean of the weights after every
        example met, over every epoch and ``partial_fit`` call (averaged SGD,
        Polyak & Juditsky 1992; scikit-learn's ``average=True``), kept at no cost
        per example by the averaged perceptron's sums (Daumé Alg. 7), exact under
        the penalty's shrink. ``n_examples_`` is the number of weights averaged.
    fit_intercept : bool, default=True
        Learn a bias ``b``: the weight of a constant feature 1 appended to
        every row, in every norm and product of the rule. False: the boundary
        passes through 0.
    max_iter : int, default=1000
        Largest number of epochs (the papers' algorithms are one pass:
        ``max_iter=1``). Training stops by the stopping rule of the mistake-driven rules
        (:mod:`rosenblatt.base._stopping`): after an epoch without a mistake (``y f <= 0``,
        counted as each row is met, before its update) when the weights after it make none on
        the training rows either; or when the epoch's mistakes have not fallen by ``tol ×
        n_samples`` for ``n_iter_no_change`` epochs. ``stop_reason_`` says which; a run that
        reaches ``max_iter`` first warns (``ConvergenceWarning``).
    tol : float or None, default=1e-3
        The stall threshold above, as a share of the rows. ``None``: stop only
        at a mistake-free epoch or ``max_iter``.
    n_iter_no_change : int, default=5
        Epochs without that improvement before training stops.
    shuffle : {"none", "once", "every_epoch"}, default="every_epoch"
        Row order (Daumé §4.2): as given, one random permutation kept for every
        epoch, or a new permutation each epoch.
    random_state : None, int, RandomState or Generator, default=None
        Source of the permutations. A generator you pass is advanced in place,
        as in scikit-learn.
    record : bool, default=False
        Keep a :class:`~rosenblatt.Trace` of every update in ``trace_`` (the
        weights after each one).
    class_weight : dict, "balanced" or None, default=None
        Multiplies the weight of each row by the weight of its class.
    warm_start : bool, default=False
        Start ``fit`` from the weights (and the state that goes with them)
        of the previous fit; the counters start afresh.
    n_jobs : int or None, default=None
        Threads for one-vs-rest (one binary problem per thread); -1 for every
        core. Results do not depend on it.

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
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
        Updates made (summed over the problems): rows whose gradient was not 0.
    n_mistakes_ : ndarray of shape (n_epochs,)
        Mistakes (``y f <= 0`` before the update) of each epoch, summed over the
        problems; each ``partial_fit`` call is an epoch.
    n_examples_ : int
        With ``average=True``: the examples the mean is over (the largest over the
        problems).
    converged_ : bool
        Whether the last epoch made no mistake, confirmed on the training rows (for every problem);
        never ``True`` otherwise: a stop by ``tol`` is not convergence.
    stop_reason_ : str
        Why training ended: ``"mistake_free"``, ``"tol"`` (the mistakes stopped
        falling), ``"early_stopping"``, ``"max_iter"`` (with a
        ``ConvergenceWarning``), or ``"partial_fit"`` after a ``partial_fit``
        call; for one-vs-rest, the reason of the problem that ran longest.
    trace_ : Trace, or tuple of Trace (one per class)
        With ``record=True`` only.

    Notes
    -----
    ``ParameterMixing`` averages the shards' weights and adds the rows they
    met into ``t``, so the step keeps shrinking as over one pass of every row;
    the adaptive rate is the driver's, the penalty's L1 memory mixes as the
    weights (as for the perceptron), and with ``average=True`` the sums of the
    weights the shards held add up, and the model publishes the mean over the
    last mixed epoch (as :class:`~rosenblatt.AveragedPerceptron` does).

    References
    ----------
    M. Zinkevich, "Online convex programming and generalized infinitesimal
    gradient ascent", ICML 2003. S. C. H. Hoi, J. Wang and P. Zhao, "LIBOL: a
    library for online learning algorithms", *Journal of Machine Learning
    Research* 15, 495-499, 2014.

    Examples
    --------
    >>> from rosenblatt.linear_model import OnlineGradientDescent
    >>> X, y = [[2, 1], [1, 3], [-1, -1], [-2, 1]], [1, 1, -1, -1]
    >>> model = OnlineGradientDescent(loss="logistic", shuffle="none").fit(X, y)
    >>> model.coef_.round(4).tolist(), model.n_mistakes_.tolist()
    ([[1.5736, 0.6841]], [1, 0])

    scikit-learn's defaults, averaged: an L2 penalty and the ``"optimal"`` schedule.

    >>> model = OnlineGradientDescent(learning_rate="optimal", penalty="l2", average=True,
    ...                               shuffle="none").fit(X, y)
    >>> model.coef_.round(4).tolist(), model.n_examples_, model.n_mistakes_.tolist()
    ([[19.9303, 9.9652]], 8, [1, 0])
    """

    _PARAMETERS = ("eta", "loss", "learning_rate", "power_t", "penalty", "alpha", "l1_ratio",
                   "average") + ONLINE_RULE_PARAMETERS
    _parameter_constraints = constraints(
        ("eta", "loss", "learning_rate", "power_t", "penalty", "alpha", "l1_ratio", "average"),
        loss=[StrOptions(set(_first_order.OGD_LOSSES))],
        learning_rate=[StrOptions(set(_first_order.OGD_SCHEDULES))],
        power_t=[RealNumber(None, None, closed="neither")],
    )

    def __init__(
        self,
        *,
        eta=1.0,
        loss="hinge",
        learning_rate="invscaling",
        power_t=0.5,
        penalty=None,
        alpha=0.0001,
        l1_ratio=0.15,
        average=False,
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
        self.loss = loss
        self.learning_rate = learning_rate
        self.power_t = power_t
        self.penalty = penalty
        self.alpha = alpha
        self.l1_ratio = l1_ratio
        self.average = average
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

    _learner_class = OnlineGradientDescentLearner


@register("winnow", "first-order")
class Winnow(OnlineMixin, LinearModel, PerceptronClassifier):
    """Winnow2: multiplicative updates, for few relevant features (Littlestone 1988).

    The weights start at ``w0`` and stay positive (a demotion below the smallest
    float64 leaves the weight at that smallest value, 5e-324, not at 0, from which
    no promotion could bring it back). On a mistake,
    ``y (w·x − threshold) <= 0``, each weight is multiplied by ``alpha^(y x_i)``:
    promoted on a positive example, demoted on a negative one; a feature the
    row does not have keeps its weight. The mistakes grow with the logarithm of
    the number of features (a disjunction of ``k`` of ``n`` boolean features
    costs ``O(k log n)``), so Winnow finds a few relevant features among very
    many irrelevant ones, where the perceptron's mistakes grow with ``n``.

    The features should be >= 0 (boolean in the paper) and about 1 at most (a
    feature of 5 moves its weight 32-fold with ``alpha=2``): the weights are
    positive, so Winnow learns boundaries ``w·x = threshold`` with positive
    weights only. :class:`BalancedWinnow` learns weights of either sign. Sample
    and class weights multiply the exponent. ``coef_`` is ``w`` and
    ``intercept_`` is ``b − threshold`` (``−threshold`` without intercept).

    Probabilities: none; its scores are the margins of a mistake-driven
    multiplicative rule, which models no probability. For probabilities,
    calibrate its scores with
    :class:`sklearn.calibration.CalibratedClassifierCV`.

    Parameters
    ----------
    alpha : float, default=2.0
        The promotion factor (> 1); a demotion divides by it.
    threshold : float or None, default=None
        The threshold ``θ`` of ``w·x > θ``; ``None``: ``n_features/2``.
    w0 : float, default=1.0
        The starting weight of every feature (> 0).
    average : bool, default=False
        Publish as ``coef_``/``intercept_`` the mean of the model's weights after every
        example met, over every epoch and ``partial_fit`` call (``n_examples_`` of
        them); the updates are unchanged. No paper of this rule defines an averaged
        form: it is the generic online-to-batch average of Cesa-Bianchi, Conconi &
        Gentile (2004), the averaged perceptron's mean, which Carvalho & Cohen (2006)
        found to help single-pass online learners. The sums cost O(n_features) per
        update (the weights are added lazily, between updates at no cost).
    fit_intercept : bool, default=False
        Learn a bias ``b`` (from ``w0``) as the weight of a constant feature 1,
        multiplicatively like any weight: it stays positive, so the boundary's
        bias ``b − threshold`` only moves within ``(−threshold, ∞)``. False
        (default): the paper's rule, whose threshold is the bias.
    max_iter : int, default=1000
        Largest number of epochs (the papers' algorithms are one pass:
        ``max_iter=1``). Training stops by the stopping rule of the mistake-driven rules
        (:mod:`rosenblatt.base._stopping`): after an epoch without a mistake (``y f <= 0``,
        counted as each row is met, before its update) when the weights after it make none on
        the training rows either; or when the epoch's mistakes have not fallen by ``tol ×
        n_samples`` for ``n_iter_no_change`` epochs. ``stop_reason_`` says which; a run that
        reaches ``max_iter`` first warns (``ConvergenceWarning``).
    tol : float or None, default=1e-3
        The stall threshold above, as a share of the rows. ``None``: stop only
        at a mistake-free epoch or ``max_iter``.
    n_iter_no_change : int, default=5
        Epochs without that improvement before training stops.
    shuffle : {"none", "once", "every_epoch"}, default="every_epoch"
        Row order (Daumé §4.2): as given, one random permutation kept for every
        epoch, or a new permutation each epoch.
    random_state : None, int, RandomState or Generator, default=None
        Source of the permutations. A generator you pass is advanced in place,
        as in scikit-learn.
    record : bool, default=False
        Keep a :class:`~rosenblatt.Trace` of every update in ``trace_`` (the
        weights after each one).
    class_weight : dict, "balanced" or None, default=None
        Multiplies the weight of each row by the weight of its class.
    warm_start : bool, default=False
        Start ``fit`` from the weights (and the state that goes with them)
        of the previous fit; the counters start afresh.
    n_jobs : int or None, default=None
        Threads for one-vs-rest (one binary problem per thread); -1 for every
        core. Results do not depend on it.

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
        The weights (positive).
    intercept_ : ndarray of shape (1,) or (n_classes,)
        The bias: ``b − threshold``.
    classes_ : ndarray
        The labels, sorted; ``classes_[0]`` is coded -1 and ``classes_[1]`` +1.
    n_features_in_ : int
        Number of features seen in ``fit``.
    n_iter_ : int
        Epochs run (the largest over the one-vs-rest problems).
    n_updates_ : int
        Updates made (summed over the problems).
    n_mistakes_ : ndarray of shape (n_epochs,)
        Mistakes (``y f <= 0`` before the update) of each epoch, summed over the
        problems; each ``partial_fit`` call is an epoch.
    n_examples_ : int
        With ``average=True``: the examples the mean is over (the largest over the
        problems).
    converged_ : bool
        Whether the last epoch made no mistake, confirmed on the training rows (for every problem);
        never ``True`` otherwise: a stop by ``tol`` is not convergence.
    stop_reason_ : str
        Why training ended: ``"mistake_free"``, ``"tol"`` (the mistakes stopped
        falling), ``"early_stopping"``, ``"max_iter"`` (with a
        ``ConvergenceWarning``), or ``"partial_fit"`` after a ``partial_fit``
        call; for one-vs-rest, the reason of the problem that ran longest.
    trace_ : Trace, or tuple of Trace (one per class)
        With ``record=True`` only.

    Notes
    -----
    ``ParameterMixing`` averages the shards' weights (and the multiplicative
    bias). That is legitimate for a multiplicative rule: a convex combination
    of positive weights is positive, lies between the shards' own values, and
    the rule goes on from it as from any positive start (the geometric mean,
    averaging the exponents, would be the other choice; the arithmetic mean is
    the engine's, and one shard is the serial fit bit for bit).
    With ``average=True`` the shards' sums of the weights
    they held add up, and the mean is over all of them.

    References
    ----------
    N. Littlestone, "Learning quickly when irrelevant attributes abound: a new
    linear-threshold algorithm", *Machine Learning* 2, 285-318, 1988.

    Examples
    --------
    Two relevant features among eight: ``y = x0 OR x3``.

    >>> import numpy as np
    >>> from rosenblatt.linear_model import Winnow
    >>> X = np.array([[int(b) for b in f"{i:08b}"] for i in range(256)])
    >>> y = X[:, 0] | X[:, 3]
    >>> model = Winnow(shuffle="none").fit(X, y)
    >>> model.coef_.tolist(), model.intercept_.tolist(), model.n_mistakes_.tolist()
    ([[8.0, 0.5, 0.5, 8.0, 0.5, 0.25, 0.25, 1.0]], [-4.0], [6, 2, 0])
    """

    _PARAMETERS = ("alpha", "threshold", "w0", "average") + ONLINE_RULE_PARAMETERS
    _parameter_constraints = constraints(
        ("alpha", "threshold", "w0", "average"),
        alpha=[RealNumber(1, None, closed="neither")],
        threshold=[RealNumber(None, None, closed="neither"), None],
        w0=[RealNumber(0, None, closed="neither")],
    )

    def __init__(
        self,
        *,
        alpha=2.0,
        threshold=None,
        w0=1.0,
        average=False,
        fit_intercept=False,
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
        self.alpha = alpha
        self.threshold = threshold
        self.w0 = w0
        self.average = average
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

    _learner_class = WinnowLearner


@register("balanced_winnow", "first-order")
class BalancedWinnow(OnlineMixin, LinearModel, PerceptronClassifier):
    """Balanced Winnow: Winnow for weights of either sign (Littlestone 1988).

    Two positive vectors ``u`` and ``v``, both from ``w0``, and the weights
    ``w = u − v``. On a mistake, ``y ((u − v)·x − threshold) <= 0``:
    ``u_i *= alpha^(y x_i)`` and ``v_i *= alpha^(−y x_i)``, so a feature of the
    row gains weight towards the label on one side and loses it on the other.
    The mistake bound is Winnow's, logarithmic in the number of features;
    features of about 1 at most suit it, as they suit Winnow.

    The bias is a constant feature 1 with its own pair ``b_u``, ``b_v`` (both
    from ``w0``, so ``b = b_u − b_v`` starts at 0 and takes either sign):
    ``intercept_`` is ``b_u − b_v − threshold``. Sample and class weights
    multiply the exponents.

    Probabilities: none; its scores are the margins of a mistake-driven
    multiplicative rule, which models no probability. For probabilities,
    calibrate its scores with
    :class:`sklearn.calibration.CalibratedClassifierCV`.

    Parameters
    ----------
    alpha : float, default=2.0
        The promotion factor (> 1).
    threshold : float, default=0.0
        The threshold ``θ`` of ``(u − v)·x > θ``.
    w0 : float, default=1.0
        The starting value of every component of ``u`` and ``v`` (> 0).
    average : bool, default=False
        Publish as ``coef_``/``intercept_`` the mean of the model's weights after every
        example met, over every epoch and ``partial_fit`` call (``n_examples_`` of
        them); the updates are unchanged. No paper of this rule defines an averaged
        form: it is the generic online-to-batch average of Cesa-Bianchi, Conconi &
        Gentile (2004), the averaged perceptron's mean, which Carvalho & Cohen (2006)
        found to help single-pass online learners. The sums cost O(n_features) per
        update (the weights are added lazily, between updates at no cost).
    fit_intercept : bool, default=True
        Learn a bias ``b``: the weight of a constant feature 1 appended to
        every row, in every norm and product of the rule. False: the boundary
        passes through 0.
    max_iter : int, default=1000
        Largest number of epochs (the papers' algorithms are one pass:
        ``max_iter=1``). Training stops by the stopping rule of the mistake-driven rules
        (:mod:`rosenblatt.base._stopping`): after an epoch without a mistake (``y f <= 0``,
        counted as each row is met, before its update) when the weights after it make none on
        the training rows either; or when the epoch's mistakes have not fallen by ``tol ×
        n_samples`` for ``n_iter_no_change`` epochs. ``stop_reason_`` says which; a run that
        reaches ``max_iter`` first warns (``ConvergenceWarning``).
    tol : float or None, default=1e-3
        The stall threshold above, as a share of the rows. ``None``: stop only
        at a mistake-free epoch or ``max_iter``.
    n_iter_no_change : int, default=5
        Epochs without that improvement before training stops.
    shuffle : {"none", "once", "every_epoch"}, default="every_epoch"
        Row order (Daumé §4.2): as given, one random permutation kept for every
        epoch, or a new permutation each epoch.
    random_state : None, int, RandomState or Generator, default=None
        Source of the permutations. A generator you pass is advanced in place,
        as in scikit-learn.
    record : bool, default=False
        Keep a :class:`~rosenblatt.Trace` of every update in ``trace_`` (the
        weights after each one).
    class_weight : dict, "balanced" or None, default=None
        Multiplies the weight of each row by the weight of its class.
    warm_start : bool, default=False
        Start ``fit`` from the weights (and the state that goes with them: ``v``)
        of the previous fit; the counters start afresh.
    n_jobs : int or None, default=None
        Threads for one-vs-rest (one binary problem per thread); -1 for every
        core. Results do not depend on it.

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
        The weights ``u − v``.
    intercept_ : ndarray of shape (1,) or (n_classes,)
        The bias ``b_u − b_v − threshold``.
    classes_ : ndarray
        The labels, sorted; ``classes_[0]`` is coded -1 and ``classes_[1]`` +1.
    n_features_in_ : int
        Number of features seen in ``fit``.
    n_iter_ : int
        Epochs run (the largest over the one-vs-rest problems).
    n_updates_ : int
        Updates made (summed over the problems).
    n_mistakes_ : ndarray of shape (n_epochs,)
        Mistakes (``y f <= 0`` before the update) of each epoch, summed over the
        problems; each ``partial_fit`` call is an epoch.
    n_examples_ : int
        With ``average=True``: the examples the mean is over (the largest over the
        problems).
    converged_ : bool
        Whether the last epoch made no mistake, confirmed on the training rows (for every problem);
        never ``True`` otherwise: a stop by ``tol`` is not convergence.
    stop_reason_ : str
        Why training ended: ``"mistake_free"``, ``"tol"`` (the mistakes stopped
        falling), ``"early_stopping"``, ``"max_iter"`` (with a
        ``ConvergenceWarning``), or ``"partial_fit"`` after a ``partial_fit``
        call; for one-vs-rest, the reason of the problem that ran longest.
    trace_ : Trace, or tuple of Trace (one per class)
        With ``record=True`` only.

    Notes
    -----
    ``ParameterMixing`` averages ``u`` and ``v`` (each by ``μ``, as the
    weights): the mixed vectors stay positive, and ``u − v`` is then the
    average of the shards' weights (see :class:`Winnow`).
    With ``average=True`` the shards' sums of the weights
    they held add up, and the mean is over all of them.

    References
    ----------
    N. Littlestone, "Learning quickly when irrelevant attributes abound: a new
    linear-threshold algorithm", *Machine Learning* 2, 1988. A. J. Grove, N.
    Littlestone and D. Schuurmans, "General convergence results for linear
    discriminant updates", *Machine Learning* 43, 173-210, 2001.

    Examples
    --------
    >>> from rosenblatt.linear_model import BalancedWinnow
    >>> X, y = [[2, 1], [1, 3], [-1, -1], [-2, 1]], [1, 1, -1, -1]
    >>> model = BalancedWinnow(shuffle="none").fit(X, y)
    >>> model.coef_.tolist(), model.intercept_.tolist(), model.n_mistakes_.tolist()
    ([[3.75, 1.5]], [1.5], [1, 0])
    """

    _PARAMETERS = ("alpha", "threshold", "w0", "average") + ONLINE_RULE_PARAMETERS
    _parameter_constraints = constraints(
        ("alpha", "threshold", "w0", "average"),
        alpha=[RealNumber(1, None, closed="neither")],
        threshold=[RealNumber(None, None, closed="neither")],
        w0=[RealNumber(0, None, closed="neither")],
    )

    def __init__(
        self,
        *,
        alpha=2.0,
        threshold=0.0,
        w0=1.0,
        average=False,
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
        self.alpha = alpha
        self.threshold = threshold
        self.w0 = w0
        self.average = average
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

    _learner_class = BalancedWinnowLearner


@register("pnorm", "first-order")
class PNormPerceptron(OnlineMixin, LinearModel, PerceptronClassifier):
    """The p-norm perceptron (Grove, Littlestone & Schuurmans 2001; Gentile 2003).

    ``θ`` sums ``y x`` over the mistakes (the perceptron's weights) and the rule
    predicts with ``w = g_p(θ)``, ``g_p(θ)_i = sign(θ_i) |θ_i|^(p−1)/‖θ‖_p^(p−2)``.
    On a mistake, ``y (w·x + b) <= 0``: ``θ += y x`` and ``w = g_p(θ)`` again.
    ``p = 2`` is the perceptron; ``p ≈ 2 ln n_features`` behaves like Winnow
    (mistakes logarithmic in the number of features for a few relevant ones),
    with weights of either sign and no tuning. Sample and class weights
    multiply the step ``y x``; the bias is a constant feature 1 (a component of
    ``θ`` and of the norm).

    Probabilities: none; its scores are the margins of a mistake-driven rule,
    which models no probability. For probabilities, calibrate its scores with
    :class:`sklearn.calibration.CalibratedClassifierCV`.

    Parameters
    ----------
    p : float or None, default=None
        The norm (> 1; the papers' bounds are for ``p >= 2``); ``None``:
        ``max(2, 2 ln n_features)`` (Gentile's choice).
    average : bool, default=False
        Publish as ``coef_``/``intercept_`` the mean of the model's weights after every
        example met, over every epoch and ``partial_fit`` call (``n_examples_`` of
        them); the updates are unchanged. No paper of this rule defines an averaged
        form: it is the generic online-to-batch average of Cesa-Bianchi, Conconi &
        Gentile (2004), the averaged perceptron's mean, which Carvalho & Cohen (2006)
        found to help single-pass online learners. The sums cost O(n_features) per
        update (the weights are added lazily, between updates at no cost).
    fit_intercept : bool, default=True
        Learn a bias ``b``: the weight of a constant feature 1 appended to
        every row, in every norm and product of the rule. False: the boundary
        passes through 0.
    max_iter : int, default=1000
        Largest number of epochs (the papers' algorithms are one pass:
        ``max_iter=1``). Training stops by the stopping rule of the mistake-driven rules
        (:mod:`rosenblatt.base._stopping`): after an epoch without a mistake (``y f <= 0``,
        counted as each row is met, before its update) when the weights after it make none on
        the training rows either; or when the epoch's mistakes have not fallen by ``tol ×
        n_samples`` for ``n_iter_no_change`` epochs, unless a linear program finds the rows
        separable (on data of up to 50,000 values), where the rule's mistake bound promises a
        mistake-free epoch. ``stop_reason_`` says which; a run that reaches ``max_iter`` first
        warns (``ConvergenceWarning``).
    tol : float or None, default=1e-3
        The stall threshold above, as a share of the rows. ``None``: stop only
        at a mistake-free epoch or ``max_iter``.
    n_iter_no_change : int, default=5
        Epochs without that improvement before training stops.
    shuffle : {"none", "once", "every_epoch"}, default="every_epoch"
        Row order (Daumé §4.2): as given, one random permutation kept for every
        epoch, or a new permutation each epoch.
    random_state : None, int, RandomState or Generator, default=None
        Source of the permutations. A generator you pass is advanced in place,
        as in scikit-learn.
    record : bool, default=False
        Keep a :class:`~rosenblatt.Trace` of every update in ``trace_`` (the
        weights after each one).
    class_weight : dict, "balanced" or None, default=None
        Multiplies the weight of each row by the weight of its class.
    warm_start : bool, default=False
        Start ``fit`` from the weights (and the state that goes with them: ``θ``)
        of the previous fit; the counters start afresh.
    n_jobs : int or None, default=None
        Threads for one-vs-rest (one binary problem per thread); -1 for every
        core. Results do not depend on it.

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
        The weights ``g_p(θ)``.
    intercept_ : ndarray of shape (1,) or (n_classes,)
        The bias (``g_p(θ)``'s bias component).
    classes_ : ndarray
        The labels, sorted; ``classes_[0]`` is coded -1 and ``classes_[1]`` +1.
    n_features_in_ : int
        Number of features seen in ``fit``.
    n_iter_ : int
        Epochs run (the largest over the one-vs-rest problems).
    n_updates_ : int
        Updates made (summed over the problems).
    n_mistakes_ : ndarray of shape (n_epochs,)
        Mistakes (``y f <= 0`` before the update) of each epoch, summed over the
        problems; each ``partial_fit`` call is an epoch.
    n_examples_ : int
        With ``average=True``: the examples the mean is over (the largest over the
        problems).
    converged_ : bool
        Whether the last epoch made no mistake, confirmed on the training rows (for every problem);
        never ``True`` otherwise: a stop by ``tol`` is not convergence.
    stop_reason_ : str
        Why training ended: ``"mistake_free"``, ``"tol"`` (the mistakes stopped
        falling), ``"early_stopping"``, ``"max_iter"`` (with a
        ``ConvergenceWarning``), or ``"partial_fit"`` after a ``partial_fit``
        call; for one-vs-rest, the reason of the problem that ran longest.
    trace_ : Trace, or tuple of Trace (one per class)
        With ``record=True`` only.

    Notes
    -----
    ``ParameterMixing`` averages ``θ`` by ``μ`` (the perceptron's mixing, which
    it is for ``p = 2``); the mixed weights are ``g_p`` of the mixed ``θ``.
    With ``average=True`` the shards' sums of the weights
    they held add up, and the mean is over all of them.

    References
    ----------
    A. J. Grove, N. Littlestone and D. Schuurmans, "General convergence results
    for linear discriminant updates", *Machine Learning* 43, 2001. C. Gentile,
    "The robustness of the p-norm algorithms", *Machine Learning* 53, 265-299,
    2003.

    Examples
    --------
    >>> from rosenblatt.linear_model import PNormPerceptron
    >>> X, y = [[2, 1], [1, 3], [-1, -1], [-2, 1]], [1, 1, -1, -1]
    >>> model = PNormPerceptron(p=3.0, shuffle="none").fit(X, y)
    >>> model.coef_.round(4).tolist(), model.intercept_.round(4).tolist()
    ([[1.8566, 0.4642]], [0.4642])
    """

    _PARAMETERS = ("p", "average") + ONLINE_RULE_PARAMETERS
    _parameter_constraints = constraints(
        ("p", "average"), p=[RealNumber(1, None, closed="neither"), None],
    )

    def __init__(
        self,
        *,
        p=None,
        average=False,
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
        self.p = p
        self.average = average
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

    _learner_class = PNormLearner
