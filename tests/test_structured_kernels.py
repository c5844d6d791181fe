"""The structured perceptron's kernels against searches and loops written plainly:
Viterbi against every one of the K^n paths (ties included), an epoch against a
Python loop that decodes by that search and sums the full weights after every
sentence, in every layout the kernels take."""

import itertools

import numba
import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_array_equal

from rosenblatt._validation import kernel_view
from rosenblatt.structured._viterbi import (
    averaged_weights,
    sequence_epoch,
    viterbi,
    viterbi_batch,
    viterbi_batch_parallel,
)

NATURAL = np.empty(0, dtype=np.intp)


# -- references ----------------------------------------------------------------------


def emissions(X, start, stop, W):
    """``E[t, k] = Σ_j x_tj W[j, k]`` in float64, features in ascending order (the
    order the kernels sum in, so that the sums are the same bits)."""
    X = X.toarray() if sp.issparse(X) else X
    E = np.zeros((stop - start, W.shape[1]))
    for t in range(stop - start):
        for j in range(X.shape[1]):
            if X[start + t, j] != 0:
                E[t] += float(X[start + t, j]) * W[j]
    return E


def path_score(E, T, T0, path):
    score = T0[path[0]] + E[0, path[0]]
    for t in range(1, len(path)):
        score = (score + T[path[t - 1], path[t]]) + E[t, path[t]]
    return score


def brute_force(E, T, T0):
    """The best of all K^n paths; on ties the one smallest read backwards (the
    lowest last label, then the lowest label before it, …)."""
    n, n_labels = E.shape
    paths = list(itertools.product(range(n_labels), repeat=n))
    scores = [path_score(E, T, T0, path) for path in paths]
    best = max(scores)
    winners = [path for path, score in zip(paths, scores) if score == best]
    return list(min(winners, key=lambda path: path[::-1])), best, len(winners)


def layouts(X, index_dtypes=(np.int32, np.int64)):
    """``X`` as the kernels take it: dense, CSR with values, and (for 0/1 data) the
    binary CSR triplet, with either index width."""
    yield "dense", np.ascontiguousarray(X)
    for index_dtype in index_dtypes:
        csr = sp.csr_matrix(X)
        csr.indices = csr.indices.astype(index_dtype)
        csr.indptr = csr.indptr.astype(index_dtype)
        view = kernel_view(csr)
        name = f"csr-{np.dtype(index_dtype).name}"
        yield (name + "-binary" if view[0] is None else name), view


def lattice(rng, n, n_labels, n_features, integer, dtype=np.float64):
    if integer:  # small integers: sums are exact and ties are common
        X = rng.randint(0, 2, size=(n, n_features)).astype(dtype)
        W = rng.randint(-1, 2, size=(n_features, n_labels)).astype(float)
        T = rng.randint(-1, 2, size=(n_labels, n_labels)).astype(float)
        T0 = rng.randint(-1, 2, size=n_labels).astype(float)
    else:
        X = (rng.rand(n, n_features) * (rng.rand(n, n_features) < 0.6)).astype(dtype)
        W = rng.randn(n_features, n_labels)
        T = rng.randn(n_labels, n_labels)
        T0 = rng.randn(n_labels)
    return X, W, T, T0


# -- Viterbi ------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("integer", [True, False], ids=["ties", "real"])
def test_viterbi_is_the_best_of_all_paths(dtype, integer):
    rng = np.random.RandomState(0 if integer else 1)
    tied = 0
    for trial in range(60):
        n, n_labels = rng.randint(1, 6), rng.randint(1, 5)
        X, W, T, T0 = lattice(rng, n + 2, n_labels, 4, integer, dtype)
        start, stop = 1, 1 + n  # a sentence inside a larger matrix
        E = emissions(X, start, stop, W)
        expected, best, n_winners = brute_force(E, T, T0)
        tied += n_winners > 1
        for name, view in layouts(X):
            out = np.full(X.shape[0], -1, dtype=np.intp)
            score = viterbi(view, start, stop, W, T, T0, out)
            assert score == best, (trial, name)
            assert out[0] == -1 and out[-1] == -1, "rows outside the sentence were written"
            assert path_score(E, T, T0, out[start:stop]) == best, (trial, name)
            if integer or n_winners == 1:
                assert out[start:stop].tolist() == expected, (trial, name)
    if integer:
        assert tied >= 20  # the tie rule was exercised, not just stated


def test_viterbi_tie_rule_on_a_hand_made_lattice():
    # every path scores 0: the lowest label everywhere
    out = np.zeros(3, dtype=np.intp)
    assert viterbi(np.zeros((3, 2)), 0, 3, np.zeros((2, 3)), np.zeros((3, 3)), np.zeros(3),
                   out) == 0.0
    assert out.tolist() == [0, 0, 0]
    # two best paths, (1, 0) and (0, 1), score 1: the lower last label wins, so (1, 0)
    T = np.array([[0.0, 1.0], [1.0, 0.0]])
    out = np.zeros(2, dtype=np.intp)
    assert viterbi(np.zeros((2, 1)), 0, 2, np.zeros((1, 2)), T, np.zeros(2), out) == 1.0
    assert out.tolist() == [1, 0]


def test_viterbi_follows_transitions_against_emissions():
    # token 1 prefers label 1 on its own by 1, but leaving label 0 costs 3
    X = np.eye(2)
    W = np.array([[5.0, 0.0], [0.0, 1.0]])
    T = np.array([[0.0, -3.0], [0.0, 0.0]])
    out = np.zeros(2, dtype=np.intp)
    assert viterbi(X, 0, 2, W, T, np.zeros(2), out) == 5.0
    assert out.tolist() == [0, 0]
    T[0, 1] = -0.5
    assert viterbi(X, 0, 2, W, T, np.zeros(2), out) == 5.5
    assert out.tolist() == [0, 1]


def test_viterbi_batch_decodes_every_sentence_as_viterbi_does():
    rng = np.random.RandomState(3)
    X, W, T, T0 = lattice(rng, 30, 4, 5, integer=False)
    bounds = np.array([0, 3, 3, 10, 11, 30, 30])  # empty sentences included
    for name, view in layouts(X, index_dtypes=(np.int32,)):
        one_by_one = np.full(30, -1, dtype=np.intp)
        for start, stop in zip(bounds[:-1], bounds[1:]):
            if stop > start:
                viterbi(view, start, stop, W, T, T0, one_by_one)
        batch = np.full(30, -1, dtype=np.intp)
        viterbi_batch(view, bounds, W, T, T0, batch)
        assert_array_equal(batch, one_by_one, err_msg=name)
        assert (batch >= 0).all()


@pytest.mark.parametrize("n_parts", [1, 2, 3, 6, 40])  # 40: more parts than sentences
def test_parallel_batch_decodes_as_the_serial_one(n_parts):
    rng = np.random.RandomState(4)
    X, W, T, T0 = lattice(rng, 30, 4, 5, integer=True)  # ties: the same tie rule too
    bounds = np.array([0, 3, 3, 10, 11, 30, 30])  # empty sentences, at the ends too
    for name, view in layouts(X, index_dtypes=(np.int32,)):
        serial = np.full(30, -1, dtype=np.intp)
        viterbi_batch(view, bounds, W, T, T0, serial)
        parallel = np.full(30, -1, dtype=np.intp)
        viterbi_batch_parallel(view, bounds, W, T, T0, parallel, n_parts)
        assert_array_equal(parallel, serial, err_msg=name)


def test_predict_on_a_large_corpus_decodes_on_threads_as_serially(monkeypatch):
    """Above the size where predict decodes on threads, its labels are those of
    the serial batch (the switch is taken: the parallel kernel is called)."""
    from rosenblatt.structured import SequencePerceptron, _sequence

    rng = np.random.RandomState(5)
    lengths = rng.randint(1, 25, size=400)
    n_tokens = int(lengths.sum())
    X = sp.random(n_tokens, 300, density=0.05, format="csr", random_state=rng)
    X.data[:] = 1.0
    y = rng.randint(0, 30, size=n_tokens)
    model = SequencePerceptron(max_iter=1, random_state=0).fit(X, y, lengths)
    assert n_tokens * 30**2 >= _sequence.PARALLEL_SCORING_CELLS
    calls = []
    parallel = _sequence.viterbi_batch_parallel
    monkeypatch.setattr(_sequence, "viterbi_batch_parallel",
                        lambda *args: calls.append(args[-1]) or parallel(*args))
    monkeypatch.setattr(numba, "get_num_threads", lambda: 2)
    labels = model.predict(X, lengths)
    serial = np.empty(n_tokens, dtype=np.intp)
    viterbi_batch(kernel_view(X), np.concatenate(([0], np.cumsum(lengths))),
                  np.ascontiguousarray(model.coef_.T), model.transitions_,
                  model.start_transitions_, serial)
    assert calls == [8]
    assert_array_equal(labels, model.classes_[serial])


# -- one epoch ------------------------------------------------------------------------


def naive_training(X, y, bounds, visits, W, T, T0):
    """Collins' training loop in plain Python: decode each sentence by brute force,
    update the weights where the paths differ, and add the full weights to a running
    sum after every sentence (the average, computed the slow way)."""
    X = X.toarray() if sp.issparse(X) else np.asarray(X, dtype=np.float64)
    W, T, T0 = W.copy(), T.copy(), T0.copy()
    sums = [np.zeros_like(W), np.zeros_like(T), np.zeros_like(T0)]
    mistakes, token_errors, log = 0, 0, []
    for number, s in enumerate(visits, start=1):
        start, stop = bounds[s], bounds[s + 1]
        if stop > start:
            guess, _, _ = brute_force(emissions(X, start, stop, W), T, T0)
            gold = list(y[start:stop])
            if guess != gold:
                mistakes += 1
                token_errors += sum(g != p for g, p in zip(gold, guess))
                log.append((s, number))
                for t in range(stop - start):
                    if gold[t] != guess[t]:
                        W[:, gold[t]] += X[start + t]
                        W[:, guess[t]] -= X[start + t]
                if gold[0] != guess[0]:
                    T0[gold[0]] += 1
                    T0[guess[0]] -= 1
                for t in range(1, stop - start):
                    if (gold[t - 1], gold[t]) != (guess[t - 1], guess[t]):
                        T[gold[t - 1], gold[t]] += 1
                        T[guess[t - 1], guess[t]] -= 1
        for total, weights in zip(sums, (W, T, T0)):
            total += weights
    return (W, T, T0), sums, mistakes, token_errors, log


def corpus(seed, n_sentences=14, n_labels=3, n_features=6, values=(1.0,)):
    """Short sentences of sparse features and gold labels that depend on them."""
    rng = np.random.RandomState(seed)
    lengths = rng.randint(1, 5, size=n_sentences)
    lengths[3] = lengths[-1] = 0  # empty sentences (the last too): counted, never decoded
    bounds = np.concatenate([[0], np.cumsum(lengths)]).astype(np.intp)
    n = bounds[-1]
    mask = rng.rand(n, n_features) < 0.4
    X = np.where(mask, rng.choice(values, size=(n, n_features)), 0.0)
    y = (np.argmax(X @ rng.randn(n_features, n_labels), axis=1)
         + rng.randint(0, 2, size=n)) % n_labels
    return X, y.astype(np.intp), bounds


def fresh(n_features, n_labels, start=0.0):
    return (np.full((n_features, n_labels), start), np.full((n_labels, n_labels), start),
            np.full(n_labels, start))


@pytest.mark.parametrize("values", [(1.0,), (0.5, 1.0, 2.0)], ids=["binary", "valued"])
@pytest.mark.parametrize("shuffled", [False, True], ids=["natural", "order"])
def test_epochs_equal_the_naive_loop_and_its_average(values, shuffled):
    X, y, bounds = corpus(0, values=values)
    n_sentences, n_labels = len(bounds) - 1, 3
    rng = np.random.RandomState(5)
    orders = [rng.permutation(n_sentences) if shuffled else np.arange(n_sentences)
              for _ in range(3)]
    visits = np.concatenate(orders)
    reference, sums, mistakes, token_errors, log = naive_training(
        X, y, bounds, visits, *fresh(X.shape[1], n_labels))
    assert mistakes > 5  # the test sees updates, not a corpus learnt at once
    for name, view in layouts(X):
        W, T, T0 = fresh(X.shape[1], n_labels)
        U = fresh(X.shape[1], n_labels)
        seen = np.zeros(1, dtype=np.int64)
        log_rows, log_positions = np.zeros(len(visits), np.int64), np.zeros(len(visits),
                                                                               np.int64)
        got_mistakes = got_errors = 0
        got_log = []
        for order in orders:
            order = order.astype(np.intp) if shuffled else NATURAL
            m, e = sequence_epoch(view, y, bounds, order, W, T, T0, U, seen,
                                  (log_rows, log_positions))
            got_mistakes, got_errors = got_mistakes + m, got_errors + e
            got_log += list(zip(log_rows[:m].tolist(), log_positions[:m].tolist()))
        assert (got_mistakes, got_errors, got_log) == (mistakes, token_errors, log), name
        assert seen[0] == len(visits)
        for weights, cached, expected, total in zip((W, T, T0), U, reference, sums):
            assert_array_equal(weights, expected, err_msg=name)
            # Daumé's identity, exact on these dyadic values: the sum of the weights
            # after each sentence is (N + 1) w_N − w_0 − U
            assert_array_equal((len(visits) + 1) * weights - cached, total, err_msg=name)
            np.testing.assert_allclose(averaged_weights(weights, cached, seen),
                                       total / len(visits), rtol=1e-13, atol=1e-13)


def test_averaging_from_nonzero_start_weights():
    X, y, bounds = corpus(1)
    start = fresh(X.shape[1], 3, start=0.25)
    visits = np.arange(len(bounds) - 1)
    reference, sums, _, _, _ = naive_training(X, y, bounds, visits, *start)
    W, T, T0 = (array.copy() for array in start)
    U = fresh(X.shape[1], 3)
    seen = np.zeros(1, dtype=np.int64)
    sequence_epoch(X, y, bounds, NATURAL, W, T, T0, U, seen, None)
    for weights, cached, first, total in zip((W, T, T0), U, start, sums):
        np.testing.assert_allclose(averaged_weights(weights, cached, seen, start=first),
                                   total / len(visits), rtol=1e-13, atol=1e-13)
    assert not np.allclose(averaged_weights(W, U[0], seen), sums[0] / len(visits))


def test_natural_order_equals_the_order_of_every_sentence():
    X, y, bounds = corpus(2)
    results = []
    for order in (NATURAL, np.arange(len(bounds) - 1, dtype=np.intp)):
        W, T, T0 = fresh(X.shape[1], 3)
        U, seen = fresh(X.shape[1], 3), np.zeros(1, dtype=np.int64)
        counts = sequence_epoch(X, y, bounds, order, W, T, T0, U, seen, None)
        results.append((counts, W, T, T0, *U, seen))
    for a, b in zip(*results):
        assert_array_equal(a, b)
    # and another order gives other weights (the order matters, so it was used)
    W, T, T0 = fresh(X.shape[1], 3)
    sequence_epoch(X, y, bounds, np.arange(len(bounds) - 1)[::-1].astype(np.intp), W, T, T0,
                   None, np.zeros(1, dtype=np.int64), None)
    assert not np.array_equal(W, results[0][1])


def test_two_epochs_in_one_call_equal_two_calls():
    X, y, bounds = corpus(4)
    rng = np.random.RandomState(0)
    first, second = (rng.permutation(len(bounds) - 1).astype(np.intp) for _ in range(2))
    states = []
    for orders in ([first, second], [np.concatenate([first, second])]):
        W, T, T0 = fresh(X.shape[1], 3)
        U, seen = fresh(X.shape[1], 3), np.zeros(1, dtype=np.int64)
        totals = np.zeros(2, dtype=np.int64)
        for order in orders:
            totals += sequence_epoch(X, y, bounds, order, W, T, T0, U, seen, None)
        states.append((totals, W, T, T0, *U, seen))
    for a, b in zip(*states):
        assert_array_equal(a, b)
    assert states[0][-1][0] == 2 * (len(bounds) - 1)


def test_without_averaging_the_running_weights_are_the_same():
    X, y, bounds = corpus(5)
    W1, T1, T01 = fresh(X.shape[1], 3)
    W2, T2, T02 = fresh(X.shape[1], 3)
    a = sequence_epoch(X, y, bounds, NATURAL, W1, T1, T01, fresh(X.shape[1], 3),
                       np.zeros(1, dtype=np.int64), None)
    b = sequence_epoch(X, y, bounds, NATURAL, W2, T2, T02, None, np.zeros(1, dtype=np.int64),
                       None)
    assert a == b and a[0] > 0
    for one, two in zip((W1, T1, T01), (W2, T2, T02)):
        assert_array_equal(one, two)


def test_agreeing_bigrams_and_tokens_are_not_touched():
    # weights that +1 then -1 would not restore bit for bit
    X = np.eye(3)
    y = np.array([0, 1, 2], dtype=np.intp)
    bounds = np.array([0, 3], dtype=np.intp)
    W = np.full((3, 3), 0.1)
    W[1, 1] = 1.0  # the second token is read as label 1, rightly
    W[2, 1] = 5.0  # the third one too, wrongly: only the bigram (1, 2) vs (1, 1) differs
    T = np.full((3, 3), 0.1)
    T0 = np.full(3, 0.1)
    before = W.copy(), T.copy(), T0.copy()
    out = np.zeros(3, dtype=np.intp)
    viterbi(X, 0, 3, W, T, T0, out)
    assert out.tolist() == [0, 1, 1]
    assert sequence_epoch(X, y, bounds, NATURAL, W, T, T0, None, np.zeros(1, np.int64),
                          None) == (1, 1)
    changed_T = {tuple(index) for index in np.argwhere(T != before[1])}
    assert changed_T == {(1, 2), (1, 1)}
    assert T[1, 2] == 0.1 + 1 and T[1, 1] == 0.1 - 1
    assert_array_equal(T0, before[2])  # the first label was right
    assert_array_equal(W[:2], before[0][:2])  # the first two tokens were right
    assert W[2, 2] == 0.1 + 1 and W[2, 1] == 5.0 - 1 and W[2, 0] == 0.1


def test_float32_data_trains_as_float64_data():
    X, y, bounds = corpus(6, values=(0.5, 1.0, 2.0))
    results = []
    for dtype in (np.float64, np.float32):
        for name, view in layouts(X.astype(dtype), index_dtypes=(np.int32,)):
            W, T, T0 = fresh(X.shape[1], 3)
            U, seen = fresh(X.shape[1], 3), np.zeros(1, dtype=np.int64)
            for _ in range(2):
                sequence_epoch(view, y, bounds, NATURAL, W, T, T0, U, seen, None)
            results.append((W, T, T0, *U))
    for other in results[1:]:
        for a, b in zip(results[0], other):
            assert_array_equal(a, b)


def test_a_wide_csr_with_its_look_ahead_trains_as_a_narrow_one():
    X, y, bounds = corpus(7)
    wide = sp.hstack([sp.csr_matrix(X), sp.csr_matrix((X.shape[0], 2**17))], format="csr")
    view = kernel_view(wide)
    assert len(view) == 4  # kernel_view adds a prefetch look-ahead at >= 2**17 columns
    narrow = fresh(X.shape[1], 3), fresh(X.shape[1], 3)
    broad = fresh(wide.shape[1], 3), fresh(wide.shape[1], 3)
    counts = [sequence_epoch(data, y, bounds, NATURAL, *weights, cached,
                             np.zeros(1, dtype=np.int64), None)
              for data, (weights, cached) in ((X, narrow), (view, broad))]
    assert counts[0] == counts[1] and counts[0][0] > 0
    for small, large in zip(narrow[0] + narrow[1], broad[0] + broad[1]):
        assert_array_equal(small, large[:len(small)])  # W's first rows; T, T0 whole
        assert not large[len(small):].any()


def test_conll2000_chunking_end_to_end(shared_data):
    """Collins' averaged perceptron with the default template on CoNLL-2000: the
    published level (93.53 F1 for his base-NP chunker; the shared task's systems
    85.8-93.5 F1 on this data) within a few epochs."""
    if numba.config.DISABLE_JIT:
        pytest.skip("NUMBA_DISABLE_JIT: five epochs of CoNLL-2000 in plain Python take "
                    "minutes; the small tests run the same lines")
    folder = shared_data / "sequences"
    if not (folder / "conll2000-train.txt").exists():
        pytest.skip(f"{folder}/conll2000-*.txt are absent")
    from rosenblatt.datasets._conll import load_conll
    from rosenblatt.structured._features import SentenceFeatures
    from rosenblatt.structured._metrics import chunk_scores

    train, train_tags = load_conll(folder / "conll2000-train.txt")
    test, test_tags = load_conll(folder / "conll2000-test.txt")
    features = SentenceFeatures()
    X, lengths = features.fit_transform(train)
    X_test, test_lengths = features.transform(test)
    labels = sorted({tag for tags in train_tags for tag in tags})
    code = {tag: k for k, tag in enumerate(labels)}
    y = np.array([code[tag] for tags in train_tags for tag in tags], dtype=np.intp)
    bounds = np.concatenate([[0], np.cumsum(lengths)]).astype(np.intp)
    test_bounds = np.concatenate([[0], np.cumsum(test_lengths)]).astype(np.intp)
    W, T, T0 = fresh(X.shape[1], len(labels))
    U, seen = fresh(X.shape[1], len(labels)), np.zeros(1, dtype=np.int64)
    rng = np.random.RandomState(0)
    mistakes = []
    for _ in range(5):
        order = rng.permutation(len(lengths)).astype(np.intp)
        mistakes.append(sequence_epoch(kernel_view(X), y, bounds, order, W, T, T0, U, seen,
                                       None)[0])
    assert mistakes == sorted(mistakes, reverse=True) and seen[0] == 5 * len(lengths)
    mean = [averaged_weights(w, u, seen) for w, u in zip((W, T, T0), U)]
    out = np.empty(X_test.shape[0], dtype=np.intp)
    viterbi_batch(kernel_view(X_test), test_bounds, *mean, out)
    guess = [[labels[k] for k in out[a:b]] for a, b in zip(test_bounds[:-1], test_bounds[1:])]
    assert chunk_scores(test_tags, guess)["micro avg"]["f1"] > 0.93
