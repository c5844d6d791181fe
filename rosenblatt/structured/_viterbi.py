"""Compiled kernels of the structured (sequence) perceptron: Viterbi decoding and one
training epoch.

The model (Collins 2002, "Discriminative Training Methods for Hidden Markov Models:
Theory and Experiments with Perceptron Algorithms", EMNLP) scores a label sequence
``y_0 … y_{n-1}`` of a sentence whose tokens have feature rows ``x_0 … x_{n-1}`` as::

    score(y) = T0[y_0] + Σ_t x_t · W[:, y_t] + Σ_{t≥1} T[y_{t-1}, y_t]

with emission weights ``W`` of shape (n_features, K), transition weights ``T`` of
shape (K, K) (from the label in the row to the label in the column) and start
weights ``T0`` of shape (K,). ``W`` has a row per feature because that is how a CSR
row reads it: a stored feature ``j`` adds the contiguous row ``W[j, :]`` to the K
scores of its token (crfsuite lays out its weights the same way), and an update
writes into the row that was just read.

Training (Collins' Fig. 1) decodes each sentence with the current weights and, when
the best path differs from the gold one, adds the gold path's features and subtracts
the predicted path's: ``W[:, g_t] += x_t`` and ``W[:, p_t] -= x_t`` at each token with
``g_t != p_t``; ``T0[g_0] += 1, T0[p_0] -= 1`` when the first labels differ; and
``T[g_{t-1}, g_t] += 1, T[p_{t-1}, p_t] -= 1`` for each position whose gold and
predicted bigrams differ. Where they agree nothing is written at all: ``+1`` then
``-1`` is not the identity in floating point (``(0.1 + 1) - 1 != 0.1``).

Averaging (Collins' Section 2.5) keeps the mean of the weights over training without
touching every weight after every sentence: Daumé's lazy sums (*A Course in Machine
Learning*, Alg. 7, "AveragedPerceptronTrain"). Beside each of ``W, T, T0`` a cache
``U`` of the same shape receives ``c · Δ`` for each update ``Δ`` made at sentence
number ``c`` (1-based, counted over every epoch and call in ``seen[0]``). If ``w_c``
are the weights after sentence ``c`` and ``w_0`` those before the first one, then
after ``N`` sentences ``Σ_{c=1..N} w_c = (N + 1) w_N − w_0 − U`` exactly, so the mean
of the weights after each sentence is::

    mean = w_N − (U − (w_N − w_0)) / N          (see :func:`averaged_weights`)

which from a zero start is ``w_N − (U − w_N) / N``. (Daumé's Alg. 7 as printed
returns ``w − U / c`` with ``c = N + 1``, the mean over the ``N + 1`` weight
vectors ``w_0 … w_N`` from a zero start: ``N / (N + 1)`` times ours, the same
decisions. Ours is the convention of :class:`rosenblatt.AveragedPerceptron`.)

``X`` is what :func:`rosenblatt._validation.kernel_view` returns: a 2-D C-contiguous
array, or the CSR triplet ``(data, indices, indptr)`` (``data`` is ``None`` when all
stored values are 1, and a fourth element, a prefetch look-ahead, may follow; it is
ignored here). The emission scores are summed in float64 in the order of the stored
features, so a dense matrix and its CSR form with sorted indices give the same bits.
The kernels are compiled without fast-math: no loop here needs reassociation to be
vectorised (each runs across the K labels), and decoding must compare exactly the
sums the docstrings describe. ``W, T, T0`` (and the averaging sums) must be
C-contiguous, label codes in ``0 … K-1``: validation is the caller's, as for every
kernel of the package.

Speed: decoding is most of an epoch once the weights are trained, and it is two
things per token: K emission sums over the token's feature rows (memory-bound: the
rows of rare features miss the cache, hence :func:`prefetch_rows`), and the K × K
Viterbi step (compute-bound: the score vectors are padded to whole vector registers,
see ``_LINE``). On CoNLL-2000 chunking (K = 22, 20 features a token, 135,571
features) an averaged epoch runs at about 3 million tokens a second of CPU time,
some five times python-crfsuite's averaged perceptron on the same features.
"""

import numpy as np
from numba import prange, types
from numba.extending import overload, register_jitable

from .._config import jit
from .._kernels._prefetch import prefetch

#: The score vectors are padded to a whole number of 64-byte lines (8 float64): the
#: loops across the labels then run as whole vectors with no scalar remainder. With
#: the 22 chunk tags of CoNLL-2000 that decodes 40 % faster (24 columns, 2 wasted).
_LINE = 8


# --------------------------------------------------------------------------------------
# Row primitives over a matrix of K columns. As in rosenblatt._kernels._rows, each is
# written once per layout; the overloads pick the layout at compile time and the plain
# Python dispatchers run under NUMBA_DISABLE_JIT=1.


@register_jitable
def _dense_scores(X, i, W, e):
    for j in range(X.shape[1]):
        value = X[i, j]
        for k in range(W.shape[1]):
            e[k] += value * W[j, k]


@register_jitable
def _csr_scores(X, i, W, e):
    data, indices, indptr = X[0], X[1], X[2]
    for p in range(indptr[i], indptr[i + 1]):
        j, value = indices[p], data[p]
        for k in range(W.shape[1]):
            e[k] += value * W[j, k]


@register_jitable
def _binary_csr_scores(X, i, W, e):
    indices, indptr = X[1], X[2]
    for p in range(indptr[i], indptr[i + 1]):
        j = indices[p]
        for k in range(W.shape[1]):
            e[k] += W[j, k]


@register_jitable
def _dense_move(X, i, W, up, down, step):
    for j in range(X.shape[1]):
        value = X[i, j]
        if value != 0.0:  # a dense row of mostly zeros writes only where it has values
            W[j, up] += step * value
            W[j, down] -= step * value


@register_jitable
def _csr_move(X, i, W, up, down, step):
    data, indices, indptr = X[0], X[1], X[2]
    for p in range(indptr[i], indptr[i + 1]):
        j, value = indices[p], data[p]
        W[j, up] += step * value
        W[j, down] -= step * value


@register_jitable
def _binary_csr_move(X, i, W, up, down, step):
    indices, indptr = X[1], X[2]
    for p in range(indptr[i], indptr[i + 1]):
        j = indices[p]
        W[j, up] += step
        W[j, down] -= step


@register_jitable
def _csr_prefetch_rows(X, i, W):
    indices, indptr = X[1], X[2]
    last = W.shape[1] - 1
    for p in range(indptr[i], indptr[i + 1]):
        weights = W[indices[p]]
        for k in range(0, last, _LINE):
            prefetch(weights, k)
        prefetch(weights, last)  # the row's last line, when K is not a multiple of 8


def prefetch_rows(X, i, W):
    """Request the weight rows that row ``i`` of a CSR ``X`` will read. A weight
    matrix of some 100,000 features by K labels is larger than the L2 cache, and
    the rows of rare features are cache misses the CPU cannot foresee: asked for a
    token ahead, they arrive while the current token is scored (CoNLL-2000: the
    scores 1.6x faster). A dense row reads every weight row in order: nothing to do."""


@overload(prefetch_rows)
def _prefetch_rows_overload(X, i, W):
    if isinstance(X, types.BaseTuple):
        return _csr_prefetch_rows
    return lambda X, i, W: None


def row_scores(X, i, W, e):
    """``e[k] += x_i · W[:, k]`` for every label ``k``."""
    if isinstance(X, tuple):
        (_binary_csr_scores if X[0] is None else _csr_scores)(X, i, W, e)
    else:
        _dense_scores(X, i, W, e)


def row_move(X, i, W, up, down, step):
    """``W[:, up] += step · x_i`` and ``W[:, down] -= step · x_i`` in one pass over the row."""
    if isinstance(X, tuple):
        (_binary_csr_move if X[0] is None else _csr_move)(X, i, W, up, down, step)
    else:
        _dense_move(X, i, W, up, down, step)


@overload(row_scores)
def _row_scores_overload(X, i, W, e):
    if isinstance(X, types.BaseTuple):
        return _binary_csr_scores if isinstance(X[0], types.NoneType) else _csr_scores
    return _dense_scores


@overload(row_move)
def _row_move_overload(X, i, W, up, down, step):
    if isinstance(X, types.BaseTuple):
        return _binary_csr_move if isinstance(X[0], types.NoneType) else _csr_move
    return _dense_move


# --------------------------------------------------------------------------------------
# Decoding


@register_jitable
def _workspace(longest, n_labels):
    """Work arrays for decoding sentences of up to ``longest`` tokens: emission
    scores ``E`` and back-pointers (longest, width), three score vectors, the path,
    and padded copies of the transitions ``TP`` (K, width) and start ``T0P``.
    Columns past ``K`` are zeros that nothing reads: they only fill the vectors."""
    size = max(longest, 1)
    width = (n_labels + _LINE - 1) // _LINE * _LINE
    return (np.zeros((size, width)), np.zeros((size, width), dtype=np.intp),
            np.zeros(width), np.zeros(width), np.zeros(width),
            np.zeros(size, dtype=np.intp), np.zeros((n_labels, width)), np.zeros(width))


@register_jitable
def _pad_transitions(T, T0, work):
    TP, T0P = work[6], work[7]
    for i in range(T.shape[0]):
        T0P[i] = T0[i]
        for j in range(T.shape[1]):
            TP[i, j] = T[i, j]


@register_jitable
def _emissions(X, start, stop, W, E, following):
    """``E[t, k] = x_{start+t} · W[:, k]`` for the tokens ``start … stop-1``, each
    token's weight rows requested a token ahead; ``following`` is the row decoded
    after ``stop - 1`` (-1 for none)."""
    for t in range(stop - start):
        ahead = start + t + 1 if start + t + 1 < stop else following
        if ahead >= 0:
            prefetch_rows(X, ahead, W)
        e = E[t]
        for k in range(W.shape[1]):
            e[k] = 0.0
        row_scores(X, start + t, W, e)


@register_jitable
def _best_path(E, n, n_labels, work):
    """First-order Viterbi over the emission scores ``E[:n]`` with the padded
    transitions of ``work``: the best path goes to ``work[5][:n]`` and its score is
    returned.

    ``score[j]`` after position ``t`` is the best score of a path over ``0 … t`` that
    ends in ``j``, summed left to right as ``((T0 + E_0) + T) + E_1 …``. Ties go to the
    lowest label: at each position the lowest predecessor among the best, at the
    end the lowest label among the best.
    """
    back, score, best, rival, path, TP, T0P = (work[1], work[2], work[3], work[4], work[5],
                                               work[6], work[7])
    width = TP.shape[1]
    for k in range(width):
        score[k] = T0P[k] + E[0, k]
    for t in range(1, n):
        # predecessor ``i`` outermost and the labels ``j`` inside: every inner loop
        # runs along a row of T and is vectorised across the labels; a strict ``>``
        # with ``i`` ascending keeps the lowest ``i`` on ties
        pointers = back[t]
        for j in range(width):
            best[j] = score[0] + TP[0, j]
            pointers[j] = 0
        for i in range(1, n_labels):
            from_i = score[i]
            for j in range(width):
                candidate = from_i + TP[i, j]
                current, pointer = best[j], pointers[j]
                better = candidate > current
                best[j] = candidate if better else current
                pointers[j] = i if better else pointer
        for j in range(width):
            rival[j] = best[j] + E[t, j]
        score, rival = rival, score
    last = 0
    for k in range(1, n_labels):
        if score[k] > score[last]:
            last = k
    path[n - 1] = last
    for t in range(n - 1, 0, -1):
        path[t - 1] = back[t, path[t]]
    return score[last]


@jit(fastmath=False)
def viterbi(X, start, stop, W, T, T0, out):
    """Decode one sentence, the token rows ``start … stop-1`` of ``X``: write its best
    label path into ``out[start:stop]`` and return the path's score.

    Parameters
    ----------
    X : ndarray (n_tokens, n_features) or CSR triplet (see the module docstring)
    start, stop : int
        The sentence's first row and one past its last (``stop > start``).
    W : ndarray (n_features, K)
        Emission weights: ``x_t · W[:, k]`` scores label ``k`` at token ``t``.
    T : ndarray (K, K)
        Transition weights, ``T[i, j]`` from label ``i`` to label ``j``.
    T0 : ndarray (K,)
        Start weights: ``T0[k]`` scores label ``k`` on the first token.
    out : int ndarray (n_tokens,)
        Receives the path in ``out[start:stop]`` (indexed by token row, so that
        decoding every sentence of a corpus fills one array).

    Returns
    -------
    score : float
        ``T0[y_0] + E[0, y_0] + Σ_t (T[y_{t-1}, y_t] + E[t, y_t])``, summed left to
        right, for the best path ``y``.

    Ties: among the paths of the best score, the one with the lowest last label,
    then among those the lowest label before it, and so on back to the first token
    (the smallest path read backwards). With exact scores (small integers, say)
    this is deterministic and what a search over all ``K^n`` paths with that
    ordering returns.

    Examples
    --------
    Two labels, two one-hot tokens; the transitions favour staying on a label:

    >>> import numpy as np
    >>> X = np.eye(2)
    >>> W = np.array([[2.0, 0.0], [0.0, 1.0]])
    >>> T = np.array([[1.0, -5.0], [-5.0, 1.0]])
    >>> out = np.zeros(2, dtype=np.intp)
    >>> float(viterbi(X, 0, 2, W, T, np.zeros(2), out)), out.tolist()
    (3.0, [0, 0])
    """
    n_labels = W.shape[1]
    work = _workspace(stop - start, n_labels)
    _pad_transitions(T, T0, work)
    _emissions(X, start, stop, W, work[0], -1)
    value = _best_path(work[0], stop - start, n_labels, work)
    for t in range(stop - start):
        out[start + t] = work[5][t]
    return value


@jit(fastmath=False)
def viterbi_batch(X, bounds, W, T, T0, out):
    """Decode every sentence ``s`` (rows ``bounds[s] … bounds[s+1]-1``) into
    ``out``, as :func:`viterbi` does one; empty sentences are passed over. One call
    for a whole corpus: the work arrays are made once.

    >>> import numpy as np
    >>> X, W, T = np.eye(2), np.array([[2.0, 0.0], [0.0, 1.0]]), np.zeros((2, 2))
    >>> out = np.zeros(2, dtype=np.intp)
    >>> viterbi_batch(X, np.array([0, 1, 2]), W, T, np.zeros(2), out)
    >>> out.tolist()
    [0, 1]
    """
    _decode_sentences(X, bounds, W, T, T0, out)


@jit(fastmath=False, parallel=True)
def viterbi_batch_parallel(X, bounds, W, T, T0, out, n_parts):
    """:func:`viterbi_batch` with the sentences cut into ``n_parts`` runs of
    consecutive sentences, decoded on numba's threads (each with its own work
    arrays): the same paths, as each sentence is decoded alone.

    Only call it from the main thread: numba's default (workqueue) threading
    layer aborts the process when two threads run parallel kernels at once.

    >>> import numpy as np
    >>> X, W, T = np.eye(2), np.array([[2.0, 0.0], [0.0, 1.0]]), np.zeros((2, 2))
    >>> out = np.zeros(2, dtype=np.intp)
    >>> viterbi_batch_parallel(X, np.array([0, 1, 2]), W, T, np.zeros(2), out, 2)
    >>> out.tolist()
    [0, 1]
    """
    n_sentences = bounds.shape[0] - 1
    for part in prange(n_parts):
        first, last = part * n_sentences // n_parts, (part + 1) * n_sentences // n_parts
        if last > first:
            _decode_sentences(X, bounds[first:last + 1], W, T, T0, out)


@register_jitable
def _decode_sentences(X, bounds, W, T, T0, out):
    """Decode the sentences ``bounds`` delimits into ``out``, with one set of work
    arrays (see :func:`viterbi_batch`)."""
    n_labels = W.shape[1]
    work = _workspace(_longest(bounds), n_labels)
    _pad_transitions(T, T0, work)
    n_sentences = bounds.shape[0] - 1
    for s in range(n_sentences):
        start, stop = bounds[s], bounds[s + 1]
        if stop > start:
            following = _first_row(bounds, s + 1) if s + 1 < n_sentences else -1
            _emissions(X, start, stop, W, work[0], following)
            _best_path(work[0], stop - start, n_labels, work)
            for t in range(stop - start):
                out[start + t] = work[5][t]


@register_jitable
def _first_row(bounds, s):
    """Sentence ``s``'s first row, or -1 when it is empty (and may have no row)."""
    return bounds[s] if bounds[s + 1] > bounds[s] else -1


@register_jitable
def _longest(bounds):
    longest = 0
    for s in range(bounds.shape[0] - 1):
        longest = max(longest, bounds[s + 1] - bounds[s])
    return longest


# --------------------------------------------------------------------------------------
# Training


@jit(fastmath=False)
def sequence_epoch(X, y, bounds, order, W, T, T0, average, seen, log):
    """One epoch of the structured perceptron (Collins 2002, Fig. 1) over the
    sentences ``order``, updating ``W, T, T0`` in place.

    Parameters
    ----------
    X : ndarray (n_tokens, n_features) or CSR triplet (see the module docstring)
    y : int ndarray (n_tokens,)
        Gold label codes in ``0 … K-1``, one per token row.
    bounds : int ndarray (n_sentences + 1,)
        Sentence ``s`` is the rows ``bounds[s] … bounds[s+1]-1`` (like a CSR
        ``indptr``: ``bounds[0] == 0``, ``bounds[-1] == n_tokens``).
    order : intp ndarray
        The sentences to visit, in that order; empty for every sentence in turn.
    W, T, T0 : ndarrays (n_features, K), (K, K), (K,)
        Emission, transition and start weights (see :func:`viterbi`).
    average : (UW, UT, UT0) or None
        Daumé's cached sums, shaped like ``W, T, T0``: an update ``Δ`` at sentence
        number ``c`` adds ``c · Δ``. ``None`` when averaging is off (compiled away).
        See :func:`averaged_weights` for the mean.
    seen : int64 ndarray (1,)
        Sentences seen so far, over every epoch and call; each visited sentence
        adds one (an empty one too) before it is decoded, so sentence number ``c``
        is ``seen[0]`` at its update.
    log : (sentences, positions) or None
        int64 arrays of at least ``len(order)`` (or ``n_sentences``) entries: the
        ``m``-th sentence updated this epoch and its sentence number ``c``.

    Returns
    -------
    (n_mistakes, n_token_errors)
        Sentences whose decoded path differed from the gold one (each one update),
        and the tokens it got wrong over the epoch.

    Examples
    --------
    Two one-token sentences with one-hot features. From zero weights every label
    ties and label 0 wins, so the first sentence (gold 1) is a mistake; its update
    moves the start weights too, which makes the second (gold 0) one as well. The
    second epoch makes none:

    >>> import numpy as np
    >>> X, y, bounds = np.eye(2), np.array([1, 0]), np.array([0, 1, 2])
    >>> W, T, T0 = np.zeros((2, 2)), np.zeros((2, 2)), np.zeros(2)
    >>> seen = np.zeros(1, dtype=np.int64)
    >>> order = np.empty(0, dtype=np.intp)
    >>> sequence_epoch(X, y, bounds, order, W, T, T0, None, seen, None)
    (2, 2)
    >>> sequence_epoch(X, y, bounds, order, W, T, T0, None, seen, None), seen.tolist()
    ((0, 0), [4])
    >>> W.tolist(), T0.tolist()
    ([[-1.0, 1.0], [1.0, -1.0]], [0.0, 0.0])
    """
    n_labels = W.shape[1]
    n_sentences = bounds.shape[0] - 1
    n = order.shape[0] if order.shape[0] > 0 else n_sentences
    longest = _longest(bounds) if order.shape[0] == 0 else _longest_of(bounds, order)
    work = _workspace(longest, n_labels)
    _pad_transitions(T, T0, work)
    path = work[5]
    count = seen[0]
    n_mistakes = 0
    n_errors = 0
    for m in range(n):
        s = order[m] if order.shape[0] > 0 else m
        start, stop = bounds[s], bounds[s + 1]
        count += 1
        if stop == start:
            continue
        following = -1  # the next sentence's first row, to request its weights early
        if m + 1 < n:
            following = _first_row(bounds, order[m + 1] if order.shape[0] > 0 else m + 1)
        _emissions(X, start, stop, W, work[0], following)
        _best_path(work[0], stop - start, n_labels, work)
        errors = 0
        for t in range(stop - start):
            if path[t] != y[start + t]:
                errors += 1
        if errors == 0:
            continue
        _update(X, y, start, stop, path, W, T, T0, 1.0, work)
        if average is not None:
            _update(X, y, start, stop, path, average[0], average[1], average[2],
                    float(count), None)
        if log is not None:
            log[0][n_mistakes] = s
            log[1][n_mistakes] = count
        n_mistakes += 1
        n_errors += errors
    seen[0] = count
    return n_mistakes, n_errors


@register_jitable
def _longest_of(bounds, order):
    longest = 0
    for m in range(order.shape[0]):
        longest = max(longest, bounds[order[m] + 1] - bounds[order[m]])
    return longest


@register_jitable
def _update(X, y, start, stop, path, W, T, T0, step, work):
    """Add ``step`` times (gold features − predicted features) of the sentence:
    only where the gold and predicted labels (tokens) or bigrams (transitions)
    differ, so that agreeing parts are not touched at all. The padded copies of
    ``T`` and ``T0`` that decoding reads (in ``work``; ``None`` for the averaging
    sums) receive the new values."""
    gold, guess = y[start], path[0]
    if gold != guess:
        row_move(X, start, W, gold, guess, step)
        T0[gold] += step
        T0[guess] -= step
        if work is not None:
            work[7][gold], work[7][guess] = T0[gold], T0[guess]
    for t in range(1, stop - start):
        previous_gold, previous_guess = gold, guess
        gold, guess = y[start + t], path[t]
        if gold != guess:
            row_move(X, start + t, W, gold, guess, step)
        if gold != guess or previous_gold != previous_guess:
            T[previous_gold, gold] += step
            T[previous_guess, guess] -= step
            if work is not None:
                work[6][previous_gold, gold] = T[previous_gold, gold]
                work[6][previous_guess, guess] = T[previous_guess, guess]


def averaged_weights(weights, cached, seen, start=None):
    """The mean of the weights after each of the ``seen`` sentences, from the running
    ``weights`` and Daumé's ``cached`` sums (``average`` of :func:`sequence_epoch`):
    ``weights − (cached − (weights − start)) / seen``; ``start`` (the weights before
    the first sentence) defaults to zeros. Before any sentence, the weights
    themselves. Works for each of ``W, T, T0``.

    The example of :func:`sequence_epoch`, averaged: after the first sentence the
    start weights were ``[-1, 1]``, after the second ``[0, 0]``; their mean is
    ``[-0.5, 0.5]``.

    >>> import numpy as np
    >>> X, y, bounds = np.eye(2), np.array([1, 0]), np.array([0, 1, 2])
    >>> W, T, T0 = np.zeros((2, 2)), np.zeros((2, 2)), np.zeros(2)
    >>> U = (np.zeros((2, 2)), np.zeros((2, 2)), np.zeros(2))
    >>> seen = np.zeros(1, dtype=np.int64)
    >>> sequence_epoch(X, y, bounds, np.empty(0, dtype=np.intp), W, T, T0, U, seen, None)
    (2, 2)
    >>> T0.tolist(), U[2].tolist(), averaged_weights(T0, U[2], seen).tolist()
    ([0.0, 0.0], [1.0, -1.0], [-0.5, 0.5])
    """
    weights = np.asarray(weights, dtype=np.float64)
    seen = int(np.asarray(seen).reshape(-1)[0])
    if seen == 0:
        return weights.copy()
    moved = weights if start is None else weights - start
    return weights - (cached - moved) / seen
