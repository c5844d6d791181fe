"""Compiled kernels beside Viterbi: the marginals of each token's label by
forward–backward, and the ``n`` best label paths by k-best Viterbi.

Both read the model of :mod:`._viterbi` (emissions ``W``, transitions ``T``,
start ``T0``), and the same ``X`` (a dense array or the CSR triplet of
:func:`rosenblatt._validation.kernel_view`) and sentence ``bounds``.

**Marginals.** Read as a Gibbs distribution at temperature 1, the model gives a
label path ``y`` the probability ``p(y | x) = exp(score(y)) / Z`` with ``Z`` the
sum of ``exp(score)`` over all ``K^n`` paths: a linear-chain CRF with the
perceptron's weights. The forward scores ``α[t, k]`` (log of the sum over the
paths of ``0 … t`` ending in ``k``) and backward scores ``β[t, k]`` (the paths of
``t+1 … n-1`` following ``k``) are kept in log space, so that the scores of a
trained perceptron (tens to hundreds) never overflow::

    α[0, k] = T0[k] + E[0, k]
    α[t, j] = E[t, j] + log Σ_i exp(α[t-1, i] + T[i, j])
    β[n-1, k] = 0
    β[t, i] = log Σ_j exp(T[i, j] + E[t+1, j] + β[t+1, j])
    p(y_t = k | x) = exp(α[t, k] + β[t, k] − log Z),   log Z = log Σ_k exp(α[n-1, k])

Each token's row is normalised by its own sum (``Σ_k exp(α + β)`` is ``Z`` at
every ``t`` up to rounding), so it sums to 1 to the last bit or two.

**n best.** k-best Viterbi keeps, for every position ``t`` and label ``j``, the
``k`` best partial paths over ``0 … t`` that end in ``j`` (their scores, and for
each the predecessor label and its rank there): the ``k`` best of the
``K × k`` extensions ``score[t-1, i, r] + T[i, j]``, merged from the ``K`` sorted
lists of the predecessors (a ``K``-way merge, ``O(k K)`` a label), then
``+ E[t, j]``. A complete path's best ``k`` extensions of a prefix are among the
extensions of the prefix's best ``k`` (the remaining score does not depend on how
the prefix was reached), so the ``k`` best complete paths are exact. Scores are
summed in :func:`~._viterbi.viterbi`'s order, and ties go the same way (the lower
predecessor label, then its lower rank; at the end the lower last label), so the
first path is Viterbi's, bit for bit.
"""

import numpy as np
from numba.extending import register_jitable

from .._config import jit
from ._viterbi import _emissions, _first_row, _longest


@register_jitable
def _log_sum_exp(values, n):
    """``log Σ exp(values[:n])``, shifted by the largest so nothing overflows."""
    largest = values[0]
    for k in range(1, n):
        largest = max(largest, values[k])
    total = 0.0
    for k in range(n):
        total += np.exp(values[k] - largest)
    return largest + np.log(total)


@jit(fastmath=False)
def forward_backward_batch(X, bounds, W, T, T0, out, log_z):
    """Write the marginal probability of every label on every token of every
    sentence ``s`` (rows ``bounds[s] … bounds[s+1]-1``) into ``out`` (n_tokens, K),
    and ``log Z`` of each sentence into ``log_z`` (n_sentences,; ``0`` for an
    empty one), by forward–backward in log space (see the module docstring).

    Examples
    --------
    Two labels, one token with equal scores: one half each; a second token whose
    transitions favour staying tilts both tokens alike:

    >>> import numpy as np
    >>> X, W = np.ones((1, 1)), np.zeros((1, 2))
    >>> out, log_z = np.zeros((1, 2)), np.zeros(1)
    >>> forward_backward_batch(X, np.array([0, 1]), W, np.zeros((2, 2)), np.zeros(2),
    ...                        out, log_z)
    >>> out.tolist(), round(float(log_z[0]), 6)   # Z = e^0 + e^0
    ([[0.5, 0.5]], 0.693147)
    >>> X, W = np.array([[1.0], [0.0]]), np.array([[1.0, 0.0]])
    >>> out, log_z = np.zeros((2, 2)), np.zeros(1)
    >>> T = np.array([[1.0, 0.0], [0.0, 0.0]])
    >>> forward_backward_batch(X, np.array([0, 2]), W, T, np.zeros(2), out, log_z)
    >>> np.round(out, 4).tolist()   # paths 00: e^2, 01: e, 10: 1, 11: 1
    [[0.8348, 0.1652], [0.6929, 0.3071]]
    """
    n_labels = W.shape[1]
    longest = max(_longest(bounds), 1)
    E = np.zeros((longest, n_labels))
    alpha = np.zeros((longest, n_labels))
    beta = np.zeros((longest, n_labels))
    terms = np.zeros(n_labels)
    n_sentences = bounds.shape[0] - 1
    for s in range(n_sentences):
        start, stop = bounds[s], bounds[s + 1]
        n = stop - start
        log_z[s] = 0.0
        if n == 0:
            continue
        following = _first_row(bounds, s + 1) if s + 1 < n_sentences else -1
        _emissions(X, start, stop, W, E, following)
        for k in range(n_labels):
            alpha[0, k] = T0[k] + E[0, k]
        for t in range(1, n):
            for j in range(n_labels):
                for i in range(n_labels):
                    terms[i] = alpha[t - 1, i] + T[i, j]
                alpha[t, j] = E[t, j] + _log_sum_exp(terms, n_labels)
        for k in range(n_labels):
            beta[n - 1, k] = 0.0
        for t in range(n - 2, -1, -1):
            for i in range(n_labels):
                for j in range(n_labels):
                    terms[j] = T[i, j] + E[t + 1, j] + beta[t + 1, j]
                beta[t, i] = _log_sum_exp(terms, n_labels)
        for k in range(n_labels):
            terms[k] = alpha[n - 1, k]
        log_z[s] = _log_sum_exp(terms, n_labels)
        for t in range(n):
            row = out[start + t]
            largest = alpha[t, 0] + beta[t, 0]
            for k in range(1, n_labels):
                largest = max(largest, alpha[t, k] + beta[t, k])
            total = 0.0
            for k in range(n_labels):
                row[k] = np.exp(alpha[t, k] + beta[t, k] - largest)
                total += row[k]
            for k in range(n_labels):
                row[k] /= total


@register_jitable
def _pop_best(lists, counts, shift, heads):
    """One step of the merge of K lists sorted best first: list ``i`` is
    ``lists[i, :counts[i]] + shift[i]``, its next entry at ``heads[i]``. Returns the
    list whose next entry is the best (the lowest such ``i`` on ties; ``-1`` when
    every list is used up) and that entry, and moves past it."""
    chosen, top = -1, 0.0
    for i in range(lists.shape[0]):
        if heads[i] < counts[i]:
            candidate = lists[i, heads[i]] + shift[i]
            if chosen < 0 or candidate > top:
                chosen, top = i, candidate
    if chosen >= 0:
        heads[chosen] += 1
    return chosen, top


@jit(fastmath=False)
def nbest_batch(X, bounds, W, T, T0, paths, scores, found):
    """The ``k = paths.shape[1]`` best label paths of every sentence, by k-best
    Viterbi (see the module docstring).

    Parameters
    ----------
    X, bounds, W, T, T0
        As :func:`~._viterbi.viterbi_batch` reads them.
    paths : int ndarray (n_tokens, k)
        Receives in ``paths[bounds[s]:bounds[s+1], r]`` the ``r``-th best path of
        sentence ``s`` (``r = 0`` the best).
    scores : float ndarray (n_sentences, k)
        Receives the paths' scores, in decreasing order (``-inf`` past the last).
    found : int ndarray (n_sentences,)
        Receives how many paths sentence ``s`` has: ``min(k, K^n)`` (an empty
        sentence has one, the empty path, of score 0).

    Examples
    --------
    Two labels, two tokens, the transitions favour staying on a label: the four
    paths, best first:

    >>> import numpy as np
    >>> X, W = np.eye(2), np.array([[2.0, 0.0], [0.0, 1.0]])
    >>> T = np.array([[1.0, -5.0], [-5.0, 1.0]])
    >>> paths, scores = np.zeros((2, 4), dtype=np.intp), np.zeros((1, 4))
    >>> found = np.zeros(1, dtype=np.intp)
    >>> nbest_batch(X, np.array([0, 2]), W, T, np.zeros(2), paths, scores, found)
    >>> paths.T.tolist(), scores.tolist(), found.tolist()
    ([[0, 0], [1, 1], [0, 1], [1, 0]], [[3.0, 2.0, -2.0, -5.0]], [4])
    """
    n_labels, k = W.shape[1], paths.shape[1]
    longest = max(_longest(bounds), 1)
    E = np.zeros((longest, n_labels))
    best = np.full((longest, n_labels, k), -np.inf)
    from_label = np.zeros((longest, n_labels, k), dtype=np.intp)
    from_rank = np.zeros((longest, n_labels, k), dtype=np.intp)
    count = np.zeros((longest, n_labels), dtype=np.intp)
    heads = np.zeros(n_labels, dtype=np.intp)
    no_shift = np.zeros(n_labels)
    path = np.zeros(longest, dtype=np.intp)
    n_sentences = bounds.shape[0] - 1
    for s in range(n_sentences):
        start, stop = bounds[s], bounds[s + 1]
        n = stop - start
        for r in range(k):
            scores[s, r] = -np.inf
        found[s] = 0
        if n == 0:  # one path, the empty one, of score 0
            scores[s, 0] = 0.0
            found[s] = 1
            continue
        following = _first_row(bounds, s + 1) if s + 1 < n_sentences else -1
        _emissions(X, start, stop, W, E, following)
        for j in range(n_labels):
            best[0, j, 0] = T0[j] + E[0, j]
            count[0, j] = 1
        for t in range(1, n):
            for j in range(n_labels):
                # merge the K sorted lists of position t-1, each shifted by T[i, j]
                heads[:] = 0
                m = 0
                while m < k:
                    chosen, top = _pop_best(best[t - 1], count[t - 1], T[:, j], heads)
                    if chosen < 0:
                        break
                    best[t, j, m] = top + E[t, j]
                    from_label[t, j, m] = chosen
                    from_rank[t, j, m] = heads[chosen] - 1
                    m += 1
                count[t, j] = m
        # the k best ends: the same merge over the last position's lists, unshifted
        heads[:] = 0
        m = 0
        while m < k:
            chosen, top = _pop_best(best[n - 1], count[n - 1], no_shift, heads)
            if chosen < 0:
                break
            scores[s, m] = top
            label, rank = chosen, heads[chosen] - 1
            for t in range(n - 1, -1, -1):
                path[t] = label
                if t > 0:
                    label, rank = from_label[t, label, rank], from_rank[t, label, rank]
            for t in range(n):
                paths[start + t, m] = path[t]
            m += 1
        found[s] = m
