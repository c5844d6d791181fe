"""Mistakes counted per epoch: ``n_mistakes_``, and the stop at a mistake-free epoch.

LIBOL (Hoi, Wang & Zhao 2014) compares online learners by their *online mistake
rate*: the rows predicted wrongly as they are met, before their update, over the
rows seen. A rule whose update condition is not the mistake (AROW updates on a
margin below 1, CW and SCW on a confidence constraint) counts its mistakes
apart from its updates; these two pieces keep that count per epoch, mix it
across shards and publish it:

- :class:`MistakeCounts`, a :class:`~._problem.RuleState` mixin: the list
  ``mistakes`` (one count per epoch of the problem), what the epoch adds to it
  (:meth:`~MistakeCounts.count_mistakes`) and how the shards' counts of an
  epoch add up (:meth:`~MistakeCounts.mixed_mistakes`);
- :class:`CountsMistakes`, a :class:`~._learner.Learner` mixin: the stop at an
  epoch without a mistake (``converged_``) and ``n_mistakes_``, the counts of
  every epoch summed over the problems (one-vs-rest).
"""

from dataclasses import dataclass, field, replace

import numpy as np

from ._problem import RuleState
from ._stopping import MistakeStop


@dataclass
class MistakeCounts(RuleState):
    """Rule-state mixin: the mistakes of each epoch of the problem (a list of ints,
    entry ``e - 1`` for epoch ``e``; ``partial_fit`` calls are epochs too).

    The field is keyword-only, so a rule's state dataclass may put its own fields
    (without defaults) first. A state that keeps nothing else mixes itself
    (:meth:`mixed`); a state with more mixes its other fields and takes
    :meth:`mixed_mistakes` for this one.

    >>> state = MistakeCounts()
    >>> state.count_mistakes(1, 3); state.count_mistakes(2, 1); state.count_mistakes(2, 1)
    >>> state.mistakes
    [3, 2]
    """

    mistakes: list = field(default_factory=list, kw_only=True)

    def count_mistakes(self, epoch, n_mistakes):
        """Add ``n_mistakes`` to epoch ``epoch``'s count (from 1; a shard that
        streams its rows in blocks adds once per block)."""
        while len(self.mistakes) < epoch:
            self.mistakes.append(0)
        self.mistakes[epoch - 1] += int(n_mistakes)

    def mixed_mistakes(self, parts):
        """The counts after mixing the shards' copies ``parts`` of the problem that
        this state belongs to: the epochs before stay, each later epoch is the sum
        of the shards' counts (one epoch under iterative mixing, every epoch of
        the shards' runs under one-shot mixing)."""
        start = len(self.mistakes)
        end = max([start] + [len(part.state.mistakes) for part in parts])
        added = [sum(part.state.mistakes[e] for part in parts if e < len(part.state.mistakes))
                 for e in range(start, end)]
        return list(self.mistakes) + added

    def mixed(self, before, parts, mu, coef, intercept, seen):
        return replace(self, mistakes=self.mixed_mistakes(parts))

    def epoch_mistakes(self, epoch):
        """The mistakes counted in epoch ``epoch`` (0 when it has none)."""
        return self.mistakes[epoch - 1] if 0 < epoch <= len(self.mistakes) else 0


class CountsMistakes(MistakeStop):
    """Learner mixin for rules whose state is a :class:`MistakeCounts`: the
    stopping rule (:class:`~._stopping.MistakeStop`) on the mistakes counted
    apart from the updates, and ``n_mistakes_``.

    The rule's ``_epoch`` calls ``problem.state.count_mistakes(problem.n_iter, n)``
    with the mistakes its kernel counted (rows with ``y a <= 0`` before their
    update). The epoch's updates (what ``_epoch`` returns: ``n_updates_``, and the
    shards' share of ``mixing="errors"``) may be more than its mistakes.
    """

    def _epoch_mistakes(self, problem, updates):
        """The epoch's mistakes (the count summed over the shards, when mixed)."""
        return problem.state.epoch_mistakes(problem.n_iter)

    def _separable_data_converge(self, problem):
        # most of these rules have no mistake bound that ends in a mistake-free epoch
        # on separable data (CW, AROW, SCW, Winnow's positive weights...); those
        # that do (ROMMA, ALMA, p-norm, the second-order perceptron) say so
        return False

    def publish(self, problems):
        """Adds ``n_mistakes_``: the mistakes of each epoch (``n_iter_`` of them),
        summed over the problems; a one-vs-rest problem that stopped early adds
        nothing to the later epochs."""
        fitted = super().publish(problems)
        counts = np.zeros(fitted["n_iter_"], dtype=np.int64)
        for problem in problems:
            mistakes = np.asarray(problem.state.mistakes[:len(counts)], dtype=np.int64)
            counts[:len(mistakes)] += mistakes
        fitted["n_mistakes_"] = counts
        return fitted
