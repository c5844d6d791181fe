"""Marginals (forward–backward) and the n best paths (k-best Viterbi), against every
label path of short sentences enumerated; and the estimators' methods on them."""

import itertools

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from rosenblatt.structured import SentenceFeatures, SequencePerceptron, SequenceTagger
from rosenblatt.structured._forward_backward import forward_backward_batch, nbest_batch

from .test_structured_kernels import emissions, lattice, layouts, path_score


def all_paths(E, T, T0):
    """Every label path of the sentence and its score (summed as the kernels sum)."""
    n, n_labels = E.shape
    paths = list(itertools.product(range(n_labels), repeat=n))
    return paths, np.array([path_score(E, T, T0, path) for path in paths])


def brute_marginals(E, T, T0):
    paths, scores = all_paths(E, T, T0)
    weights = np.exp(scores - scores.max())
    marginals = np.zeros(E.shape)
    for path, weight in zip(paths, weights):
        marginals[np.arange(len(path)), path] += weight
    return marginals / weights.sum(), np.log(weights.sum()) + scores.max()


def sentences(rng, n_sentences, n_labels, integer, dtype=np.float64):
    lengths = rng.randint(0, 5, size=n_sentences)
    X, W, T, T0 = lattice(rng, int(lengths.sum()), n_labels, 4, integer, dtype)
    return X, np.concatenate(([0], np.cumsum(lengths))).astype(np.intp), W, T, T0


@pytest.mark.parametrize("integer", [True, False], ids=["ties", "real"])
def test_marginals_are_the_brute_force_ones(integer):
    rng = np.random.RandomState(3)
    for trial in range(25):
        n_labels = rng.randint(1, 5)
        X, bounds, W, T, T0 = sentences(rng, 4, n_labels, integer)
        if not integer:  # scores of a trained model: tens, so exp overflows without logs
            W, T, T0 = 300 * W, 300 * T, 300 * T0
        for name, view in layouts(X):
            out = np.full((X.shape[0], n_labels), np.nan)
            log_z = np.full(len(bounds) - 1, np.nan)
            forward_backward_batch(view, bounds, W, T, T0, out, log_z)
            for s, (start, stop) in enumerate(itertools.pairwise(bounds)):
                if stop == start:
                    assert log_z[s] == 0.0
                    continue
                expected, expected_log_z = brute_marginals(emissions(X, start, stop, W), T, T0)
                assert_allclose(out[start:stop], expected, rtol=1e-9, atol=1e-12,
                                err_msg=f"{trial} {name}")
                assert_allclose(log_z[s], expected_log_z, rtol=1e-12)
            assert np.all(np.isfinite(out)) and np.all(out >= 0)
            assert_allclose(out.sum(axis=1), 1.0, rtol=0, atol=1e-14)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("integer", [True, False], ids=["ties", "real"])
def test_nbest_is_the_top_of_every_path(dtype, integer):
    rng = np.random.RandomState(5)
    for trial in range(25):
        n_labels = rng.randint(1, 5)
        X, bounds, W, T, T0 = sentences(rng, 4, n_labels, integer, dtype)
        k = rng.randint(1, 12)
        for name, view in layouts(X):
            paths = np.full((X.shape[0], k), -1, dtype=np.intp)
            scores, found = np.zeros((len(bounds) - 1, k)), np.zeros(len(bounds) - 1, np.intp)
            nbest_batch(view, bounds, W, T, T0, paths, scores, found)
            for s, (start, stop) in enumerate(itertools.pairwise(bounds)):
                if stop == start:  # the empty path, of score 0
                    assert found[s] == 1 and scores[s, 0] == 0.0
                    assert np.all(scores[s, 1:] == -np.inf)
                    continue
                E = emissions(X, start, stop, W)
                every, every_score = all_paths(E, T, T0)
                m = min(k, len(every))
                assert found[s] == m
                # the score lists are equal exactly, ties included
                assert scores[s, :m].tolist() == sorted(every_score, reverse=True)[:m], \
                    (trial, name)
                assert np.all(scores[s, m:] == -np.inf)
                got = [tuple(paths[start:stop, r]) for r in range(m)]
                assert len(set(got)) == m, "a path came twice"
                for path, score in zip(got, scores[s]):
                    assert path_score(E, T, T0, path) == score


def test_nbest_first_path_is_viterbi_and_marginals_are_probabilities():
    rng = np.random.RandomState(0)
    X = (rng.rand(40, 6) < 0.4).astype(float)
    y = rng.choice(["A", "B", "C"], size=40)
    lengths = [5, 7, 3, 10, 1, 14]
    model = SequencePerceptron(max_iter=3, random_state=0).fit(X, y, lengths)
    predicted = model.predict(X, lengths)
    best = model.predict_nbest(X, lengths, n=1)
    assert all(len(paths) == 1 for paths in best)
    assert_array_equal(np.concatenate([paths[0][0] for paths in best]), predicted)
    five = model.predict_nbest(X, lengths, n=5)
    for one, paths in zip(best, five):
        assert_array_equal(paths[0][0], one[0][0])
        assert paths[0][1] == one[0][1]
        assert [score for _, score in paths] == sorted((score for _, score in paths),
                                                       reverse=True)
    assert len(five[4]) == 3  # a one-token sentence has K paths
    marginals = model.predict_marginals(X, lengths)
    assert marginals.shape == (40, 3)
    assert_allclose(marginals.sum(axis=1), 1.0)


@pytest.mark.parametrize("n", [0, -1, 2.5, True, "3", None])
def test_nbest_refuses_a_bad_n(n):
    model = SequencePerceptron(max_iter=1).fit(np.eye(2), ["a", "b"], [2])
    with pytest.raises(ValueError, match="n must be a whole number >= 1"):
        model.predict_nbest(np.eye(2), [2], n=n)


def test_unfitted_and_bad_input_are_refused():
    with pytest.raises(ValueError, match="not fitted"):
        SequencePerceptron().predict_marginals(np.eye(2), [2])
    model = SequencePerceptron(max_iter=1).fit(np.eye(2), ["a", "b"], [2])
    with pytest.raises(ValueError, match="NaN"):
        model.predict_marginals(np.array([[np.nan, 0.0]]), [1])
    with pytest.raises(ValueError):
        model.predict_nbest(np.eye(2), [3])


def test_tagger_marginals_and_nbest_per_sentence():
    sentences = [["the", "dog", "barks"], ["a", "cat", "sleeps"], ["the", "cat"]]
    labels = [["DET", "NOUN", "VERB"], ["DET", "NOUN", "VERB"], ["DET", "NOUN"]]
    tagger = SequenceTagger(SentenceFeatures(template=["bias", "word", "word[-1]"]),
                            SequencePerceptron(shuffle="none")).fit(sentences, labels)
    new = [["a", "dog", "sleeps"], [], ["the"]]
    marginals = tagger.predict_marginals(new)
    assert [len(s) for s in marginals] == [3, 0, 1]
    for sentence in marginals:
        for token in sentence:
            assert list(token) == ["DET", "NOUN", "VERB"]
            assert abs(sum(token.values()) - 1) < 1e-12
    nbest = tagger.predict_nbest(new, n=4)
    assert nbest[1] == [([], 0.0)]
    assert [paths[0][0] for paths in nbest] == tagger.predict(new)
    assert len(nbest[2]) == 3 and len(nbest[0]) == 4
    assert all(isinstance(label, str) for label in nbest[0][0][0])


def test_a_tagger_trained_by_parameter_mixing_gives_them_too():
    from rosenblatt.distributed import ParameterMixing

    sentences = [["the", "dog", "barks"], ["a", "cat", "sleeps"], ["the", "cat"]] * 4
    labels = [["DET", "NOUN", "VERB"], ["DET", "NOUN", "VERB"], ["DET", "NOUN"]] * 4
    mixed = SequenceTagger(model=ParameterMixing(SequencePerceptron(random_state=0),
                                                 n_shards=2, client="threads"))
    mixed.fit(sentences, labels)
    new = [["a", "dog", "barks"]]
    assert [paths[0][0] for paths in mixed.predict_nbest(new, n=2)] == mixed.predict(new)
    marginals = mixed.predict_marginals(new)[0]
    assert [max(token, key=token.get) for token in marginals] == mixed.predict(new)[0]
