"""The voted perceptron of Freund & Schapire (Daumé eq. 4.17)."""

import numpy as np
import scipy.sparse as sp
from sklearn.utils.validation import check_is_fitted

from .._validation import validate_X
from ..base import EpochPerceptron, OnlinePerceptronMixin
from ._params import ATTRIBUTES, EPOCH_PARAMETERS

#: Test rows × weight vectors scored at once when voting (bounds the memory).
_BLOCK_CELLS = 1 << 22


class VotedPerceptron(OnlinePerceptronMixin, EpochPerceptron):
    __doc__ = f"""Perceptron whose every weight vector votes, weighted by how long it survived.

    Training is the perceptron's (see :class:`Perceptron`). Each weight vector
    met during training is kept with its survival count ``c``: the number of
    examples after which it was the current vector. An update at example ``t``
    starts a new vector whose count includes ``t`` (Freund & Schapire), so a
    vector overthrown at once gets ``c = 1`` (Daumé) and the counts sum to the
    number of examples processed. The prediction is the sign of the
    count-weighted vote of signs (Daumé eq. 4.17)::

        ŷ = sign( Σₖ cₖ sign(wₖ·x + bₖ) )      (sign(0) = −1)

    Memory stays proportional to the mistakes: the vectors are stored as the
    starting weights plus one sparse update row per mistake, and
    ``vectors_`` builds the dense vectors on demand.

    Parameters
    ----------
    {EPOCH_PARAMETERS}

    Attributes
    ----------
    {ATTRIBUTES}
    vectors_, vector_intercepts_, counts_ : ndarrays, or tuples of them per class
        The weight vectors met (starting one first), their biases, and their
        survival counts. Vectors with a zero count (the start, when the first
        example is a mistake) are kept: they do not vote.

    ``coef_``/``intercept_`` are the final running weights (the vanilla
    perceptron's); ``decision_function`` is the vote ``Σₖ cₖ sign(wₖ·x + bₖ)``.

    References
    ----------
    Freund & Schapire, "Large margin classification using the perceptron
    algorithm", Machine Learning 37, 1999; Daumé III, §4.6, eq. 4.17.

    Examples
    --------
    >>> from rosenblatt import VotedPerceptron
    >>> X, y = [[0, 0], [0, 1], [1, 0], [1, 1]], [-1, -1, -1, 1]
    >>> model = VotedPerceptron(shuffle="none").fit(X, y)
    >>> model.counts_.tolist(), int(model.counts_.sum())
    ([0, 3, 1, 1, 2, 2, 1, 1, 3, 1, 2, 2, 2, 1, 1, 3, 1, 2, 7], 36)
    >>> model.decision_function([[1, 1], [0, 1]]).tolist()
    [12.0, -34.0]
    """

    def _prepare_problem(self, problem):
        problem.extra.update(
            coef_start=problem.coef.copy(), intercept_start=problem.intercept[0],
            updates=[], intercept_updates=[], positions=[], pending_rows=[],
        )

    def _before_learning(self, X, weights):
        self._X_now = X

    def _record_buffers(self, problem, n):
        # the vote needs every mistake, recorded or not
        return problem.recorder.buffers(n) if problem.recorder else _buffers(n)

    def _after_epoch(self, problem, X, Xk, y, sw, record, mistakes):
        super()._after_epoch(problem, X, Xk, y, sw, record, mistakes)
        rows, _, positions = (buffer[:mistakes].copy() for buffer in record)
        steps = self.eta * sw[rows] * y[rows]
        extra = problem.extra
        extra["pending_rows"].append(rows)  # turned into update rows once per call
        extra["intercept_updates"].append(steps if self.fit_intercept else 0.0 * steps)
        extra["positions"].append(positions)
        extra.setdefault("pending_steps", []).append(steps)

    def _store_updates(self, problem):
        """Turn the rows of this call's mistakes into sparse update rows ``step · x``."""
        extra = problem.extra
        if extra["pending_rows"]:
            rows = np.concatenate(extra["pending_rows"])
            steps = np.concatenate(extra["pending_steps"])
            extra["updates"].append(sp.csr_matrix(sp.diags(steps) @ sp.csr_matrix(
                self._X_now[rows])))
            extra["pending_rows"], extra["pending_steps"] = [], []

    def _publish(self):
        for problem in self._problems:
            self._store_updates(problem)
        self._X_now = None
        self._votes = [_Vote.from_problem(p) for p in self._problems]
        super()._publish()

    def _problem_errors(self, problem, X, y, sw):
        # early stopping scores the vote, not the running weights
        self._store_updates(problem)
        predicted = np.where(_Vote.from_problem(problem).decision(X) > 0, 1.0, -1.0)
        return float(sw[predicted != y].sum())

    def decision_function(self, X):
        """The vote ``Σₖ cₖ sign(wₖ·x + bₖ)``: shape (n_samples,) for two classes,
        else (n_samples, n_classes)."""
        check_is_fitted(self)
        X = validate_X(self, X, reset=False)
        scores = np.column_stack([vote.decision(X) for vote in self._votes])
        return scores.ravel() if scores.shape[1] == 1 else scores

    _VOTE_FIELDS = ("coef_start", "intercept_start", "updates", "intercept_updates", "counts")

    def _prediction_state(self):
        return {f"vote{k}_{field}": getattr(vote, "_counts" if field == "counts" else field)
                for k, vote in enumerate(self._votes) for field in self._VOTE_FIELDS}

    def _restore_prediction_state(self, state):
        n_votes = 1 if len(self.classes_) == 2 else len(self.classes_)
        self._votes = [
            _Vote(*(state[f"vote{k}_{field}"] for field in self._VOTE_FIELDS))
            for k in range(n_votes)
        ]
        for vote in self._votes:
            vote.coef_start = np.asarray(vote.coef_start, dtype=np.float64)
            if vote.coef_start.shape != (self.n_features_in_,) or vote.updates.shape[0] + 1 \
                    != len(vote._counts) or len(vote.intercept_updates) != vote.updates.shape[0]:
                raise ValueError("the stored weight vectors do not fit their counts")

    def _per_problem(self, name):
        values = tuple(getattr(vote, name)() for vote in self._votes)
        return values[0] if len(values) == 1 else values

    @property
    def vectors_(self):
        check_is_fitted(self)
        return self._per_problem("vectors")

    @property
    def vector_intercepts_(self):
        check_is_fitted(self)
        return self._per_problem("intercepts")

    @property
    def counts_(self):
        check_is_fitted(self)
        return self._per_problem("counts")


def _buffers(n):
    return (np.empty(n, dtype=np.intp), np.empty(n), np.empty(n, dtype=np.int64))


class _Vote:
    """The voting committee of one binary problem: start + one update per mistake."""

    def __init__(self, coef_start, intercept_start, updates, intercept_updates, counts):
        self.coef_start = coef_start
        self.intercept_start = intercept_start
        self.updates = updates                      # CSR, one row per mistake
        self.intercept_updates = intercept_updates  # one per mistake
        self._counts = counts                       # one per vector (mistakes + 1)

    @classmethod
    def from_problem(cls, problem):
        extra = problem.extra
        d = len(problem.coef)
        updates = sp.vstack(extra["updates"], format="csr") if extra["updates"] else \
            sp.csr_matrix((0, d))
        intercept_updates = np.concatenate(extra["intercept_updates"] or [np.empty(0)])
        positions = np.concatenate(extra["positions"] or [np.empty(0, dtype=np.int64)])
        # vector k is current from the example of mistake k to the one before mistake k+1
        starts = np.concatenate([[1], positions])
        ends = np.concatenate([positions, [problem.seen[0] + 1]])
        return cls(extra["coef_start"], extra["intercept_start"], updates,
                   intercept_updates, (ends - starts).astype(np.int64))

    def counts(self):
        return self._counts.copy()

    def vectors(self):
        steps = np.vstack([self.coef_start[None, :], self.updates.toarray()])
        return np.cumsum(steps, axis=0)

    def intercepts(self):
        return np.cumsum(np.concatenate([[self.intercept_start], self.intercept_updates]))

    def activations(self, X):
        """Yield blocks ``(rows, A)`` with ``A[i, k] = wₖ·xᵢ + bₖ`` for every vector."""
        n_vectors = len(self._counts)
        block = max(1, _BLOCK_CELLS // n_vectors)
        for start in range(0, X.shape[0], block):
            rows = slice(start, min(start + block, X.shape[0]))
            Xb = X[rows]
            base = np.asarray(Xb @ self.coef_start).ravel() + self.intercept_start
            steps = np.asarray((self.updates @ Xb.T).T.todense()) if sp.issparse(Xb) else \
                np.asarray(self.updates @ np.asarray(Xb, dtype=np.float64).T).T
            steps = steps + self.intercept_updates[None, :]
            yield rows, np.cumsum(np.hstack([base[:, None], steps]), axis=1)

    def decision(self, X):
        scores = np.empty(X.shape[0])
        for rows, activations in self.activations(X):
            scores[rows] = np.where(activations > 0, 1.0, -1.0) @ self._counts
        return scores
