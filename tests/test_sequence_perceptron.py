"""SequencePerceptron: the structured perceptron on the one engine, against a plain
reference written from Collins (2002), serial and mixed, in model files."""

import itertools
import json
import pathlib
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_allclose, assert_array_equal

from rosenblatt.distributed import ParameterMixing
from rosenblatt.io import ModelFileError, load, save
from rosenblatt.structured import SequencePerceptron

from ._reference import orders

SEQUENCES = pathlib.Path(__file__).resolve().parents[2] / "shared" / "data" / "sequences"


def corpus(seed=0, n_sentences=40, n_features=6, longest=4):
    """Random binary token features; the label follows the first features with noise."""
    rng = np.random.default_rng(seed)
    lengths = rng.integers(1, longest + 1, size=n_sentences)
    X = (rng.random((lengths.sum(), n_features)) < 0.4).astype(float)
    y = np.where(X[:, 0] > 0, "A", np.where(X[:, 1] > 0, "B", "C"))
    flip = rng.random(len(y)) < 0.1
    y[flip] = rng.choice(["A", "B", "C"], size=flip.sum())
    return X, y, lengths


def brute_force_path(E, T, T0):
    """The best path over all K^n ones; ties: the smallest path read backwards."""
    n, K = E.shape
    best, best_key = None, None
    for path in itertools.product(range(K), repeat=n):
        score = T0[path[0]] + E[0, path[0]]
        for t in range(1, n):
            score += T[path[t - 1], path[t]] + E[t, path[t]]
        key = (-score, path[::-1])
        if best_key is None or key < best_key:
            best, best_key = path, key
    return np.array(best)


def reference_fit(X, codes, lengths, K, epochs, sentence_orders, average):
    """Collins' Fig. 1 with brute-force decoding, and the mean of the weights
    after every sentence computed naively (summed after each sentence)."""
    d = X.shape[1]
    W, T, T0 = np.zeros((d, K)), np.zeros((K, K)), np.zeros(K)
    sums = [np.zeros_like(W), np.zeros_like(T), np.zeros_like(T0)]
    starts = np.concatenate(([0], np.cumsum(lengths)))
    seen = 0
    for order in sentence_orders[:epochs]:
        for s in order:
            rows = slice(starts[s], starts[s + 1])
            x, gold = X[rows], codes[rows]
            path = brute_force_path(x @ W, T, T0)
            if not np.array_equal(path, gold):
                for t in range(len(gold)):
                    if gold[t] != path[t]:
                        W[:, gold[t]] += x[t]
                        W[:, path[t]] -= x[t]
                if gold[0] != path[0]:
                    T0[gold[0]] += 1
                    T0[path[0]] -= 1
                for t in range(1, len(gold)):
                    if (gold[t - 1], gold[t]) != (path[t - 1], path[t]):
                        T[gold[t - 1], gold[t]] += 1
                        T[path[t - 1], path[t]] -= 1
            seen += 1
            for total, weights in zip(sums, (W, T, T0)):
                total += weights
    if average:
        return [total / seen for total in sums]
    return [W, T, T0]


@pytest.mark.parametrize("average", [False, True])
@pytest.mark.parametrize("shuffle", ["none", "once", "every_epoch"])
@pytest.mark.parametrize("sparse", [False, True])
def test_equals_the_reference_written_from_the_paper(average, shuffle, sparse):
    X, y, lengths = corpus()
    epochs = 3
    model = SequencePerceptron(max_iter=epochs, average=average, shuffle=shuffle,
                               random_state=7)
    model.fit(sp.csr_matrix(X) if sparse else X, y, lengths)
    codes = np.searchsorted(model.classes_, y)
    expected = reference_fit(X, codes, lengths, 3, model.n_iter_,
                             orders(np.random.RandomState(7), len(lengths), shuffle, epochs),
                             average)
    assert_allclose(model.coef_, expected[0].T, rtol=1e-12, atol=1e-12)
    assert_allclose(model.transitions_, expected[1], rtol=1e-12, atol=1e-12)
    assert_allclose(model.start_transitions_, expected[2], rtol=1e-12, atol=1e-12)
    assert model.n_examples_ == model.n_iter_ * len(lengths)


def test_predict_is_viterbi_over_the_published_weights():
    X, y, lengths = corpus(seed=1, longest=4)
    model = SequencePerceptron(random_state=0, max_iter=4).fit(X, y, lengths)
    predicted = model.predict(X, lengths)
    starts = np.concatenate(([0], np.cumsum(lengths)))
    for s in range(len(lengths)):
        rows = slice(starts[s], starts[s + 1])
        path = brute_force_path(X[rows] @ model.coef_.T, model.transitions_,
                                model.start_transitions_)
        assert_array_equal(predicted[rows], model.classes_[path])
    assert model.score(X, y, lengths) == np.mean(predicted == y)


@pytest.mark.parametrize("shuffle", ["none", "once", "every_epoch"])
@pytest.mark.parametrize("average", [False, True])
def test_one_shard_of_mixing_is_the_serial_fit(shuffle, average):
    X, y, lengths = corpus(seed=2)
    settings = dict(max_iter=4, shuffle=shuffle, average=average, random_state=3)
    serial = SequencePerceptron(**settings).fit(X, y, lengths)
    mixed = ParameterMixing(SequencePerceptron(**settings), n_shards=1,
                            client="threads").fit(X, y, lengths=lengths)
    for name in ("coef_", "transitions_", "start_transitions_"):
        assert_array_equal(getattr(mixed.estimator_, name), getattr(serial, name))
    assert (mixed.n_iter_, mixed.n_updates_) == (serial.n_iter_, serial.n_updates_)


def test_mixing_keeps_sentences_whole_and_learns():
    X, y, lengths = corpus(seed=3, n_sentences=200)
    model = ParameterMixing(SequencePerceptron(random_state=0), n_shards=4,
                            client="threads").fit(X, y, lengths=lengths)
    assert model.mistakes_.shape[1:] == (4, 1)
    serial = SequencePerceptron(random_state=0).fit(X, y, lengths)
    assert model.score(X, y, lengths=lengths) > serial.score(X, y, lengths) - 0.05
    # each epoch's mistakes are whole sentences: at most the sentences of the shard
    assert model.mistakes_.sum(axis=1).max() <= len(lengths)
    assert_array_equal(model.predict(X, lengths=lengths),
                       model.estimator_.predict(X, lengths))


def test_mixing_refuses_what_it_cannot_split_by_sentence():
    X, y, lengths = corpus()
    with pytest.raises(ValueError, match="lengths is required"):
        ParameterMixing(SequencePerceptron(), n_shards=2, client="threads").fit(X, y)
    from rosenblatt import Perceptron
    with pytest.raises(ValueError, match="Perceptron learns rows one by one"):
        ParameterMixing(Perceptron(), n_shards=2, client="threads").fit(
            X, y == "A", lengths=lengths)


@pytest.mark.parametrize("lengths,message", [
    ([2, 3], "add up to 5 tokens, but X has 4 rows"),
    ([0, 5], "must be >= 1"),
    ([[1, 2]], "1-D list"),
    ([1.5, 2.5], "whole numbers"),
    (None, "lengths is required"),
])
def test_bad_lengths_are_refused_with_the_reason(lengths, message):
    X, y = np.eye(4)[:4], ["a", "b", "a", "b"]
    with pytest.raises(ValueError, match=message):
        SequencePerceptron().fit(X, y, lengths)


def test_partial_fit_needs_classes_then_goes_on():
    X, y, lengths = corpus(seed=4)
    with pytest.raises(ValueError, match="classes must be passed"):
        SequencePerceptron().partial_fit(X, y, lengths)
    model = SequencePerceptron(shuffle="none")
    model.partial_fit(X, y, lengths, classes=["A", "B", "C"])
    model.partial_fit(X, y, lengths)
    whole = SequencePerceptron(shuffle="none", max_iter=2).fit(X, y, lengths)
    if whole.n_iter_ == 2:
        assert_array_equal(model.coef_, whole.coef_)
    with pytest.raises(ValueError, match="not among|not in|unknown|classes"):
        model.partial_fit(X[:1], ["Z"], [1])


def test_the_trace_records_each_updated_sentence():
    X, y, lengths = corpus(seed=5)
    model = SequencePerceptron(record=True, shuffle="none", max_iter=2).fit(X, y, lengths)
    trace = model.trace_
    assert trace.n_updates == model.n_updates_
    assert set(np.unique(trace.epochs)) <= {1, 2}
    first = trace.positions[trace.epochs == 1]
    assert_array_equal(first, trace.sentences[trace.epochs == 1] + 1)  # natural order


def test_model_files_round_trip_and_resume_exactly(tmp_path):
    X, y, lengths = corpus(seed=6)
    model = SequencePerceptron(random_state=0, max_iter=3).fit(X, y, lengths)
    save(model, tmp_path / "tagger.npz")
    loaded = load(tmp_path / "tagger.npz")
    assert_array_equal(loaded.predict(X, lengths), model.predict(X, lengths))
    model.partial_fit(X, y, lengths)
    loaded.partial_fit(X, y, lengths)
    assert_array_equal(loaded.coef_, model.coef_)
    assert_array_equal(loaded.transitions_, model.transitions_)


def test_training_keeps_no_array_of_zeros_for_a_zero_start():
    """The averaging's start is zero in a fresh fit: held as a broadcast zero, not a
    copy of the weights' size (a 459-label tagger's is 1.3 GB); a warm start keeps
    its real start weights."""
    import tracemalloc

    X, y, lengths = corpus(seed=7, n_features=4000)
    model = SequencePerceptron(random_state=0, max_iter=2).fit(X, y, lengths)
    problem = model._problems[0]
    start = problem.state.coef_start
    assert start.strides == (0,) and start.shape == problem.coef.shape
    tracemalloc.start()  # the check after each epoch does not make it full-size either
    assert problem.state.is_finite(problem)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < problem.coef.nbytes / 4
    again = model.set_params(warm_start=True).fit(X, y, lengths)
    start = again._problems[0].state.coef_start
    assert start.strides == (8,) and start.any()


def test_a_forged_transition_matrix_is_refused(tmp_path):
    X, y, lengths = corpus(seed=6)
    save(SequencePerceptron(max_iter=2).fit(X, y, lengths), tmp_path / "m.npz",
         training_state=False)
    with np.load(tmp_path / "m.npz", allow_pickle=False) as data:
        arrays = dict(data)
    arrays["transitions_"] = np.zeros((2, 2))  # three labels: (3, 3)
    np.savez(tmp_path / "forged.npz", **arrays)
    with pytest.raises(ModelFileError, match="transitions_"):
        load(tmp_path / "forged.npz")


@pytest.mark.skipif(not (SEQUENCES / "conll2000-train.txt").exists(),
                    reason="CoNLL-2000 is not in ../shared/data/sequences")
def test_conll2000_chunking_reaches_the_published_f1():
    """Averaged structured perceptron, the standard template, 10 epochs: crfsuite's
    averaged perceptron scores F1 93.41 with the same features on this machine."""
    from rosenblatt.datasets import load_conll
    from rosenblatt.structured import SentenceFeatures, chunk_scores

    train_sentences, train_labels = load_conll(SEQUENCES / "conll2000-train.txt")
    test_sentences, test_labels = load_conll(SEQUENCES / "conll2000-test.txt")
    features = SentenceFeatures()
    X, lengths = features.fit_transform(train_sentences)
    model = SequencePerceptron(random_state=0).fit(X, np.concatenate(train_labels), lengths)
    X_test, test_lengths = features.transform(test_sentences)
    predicted = np.split(model.predict(X_test, test_lengths), np.cumsum(test_lengths)[:-1])
    f1 = chunk_scores(test_labels, [list(p) for p in predicted])["micro avg"]["f1"]
    assert f1 > 0.93


def test_weights_larger_than_the_machine_are_refused_with_what_to_do(monkeypatch):
    """n_features × K weights the memory cannot hold: a ValueError at the start,
    not a process killed midway by the system."""
    from rosenblatt import _config

    X, y, lengths = corpus(seed=8)  # 6 features, 3 labels: (18 + 9 + 3) × 8 bytes
    monkeypatch.setattr(_config, "physical_memory", lambda: 3 * 8 * 30 - 1)
    with pytest.raises(ValueError, match=r"would need 0\.0 GB .*6 features × 3 labels.*3 arrays"
                                         r".*min_count=2.*--min-count 2"):
        SequencePerceptron().fit(X, y, lengths)
    SequencePerceptron(average=False).fit(X, y, lengths)  # 2 arrays fit
    monkeypatch.setattr(_config, "physical_memory", lambda: None)  # the system does not say
    SequencePerceptron().fit(X, y, lengths)


# ------------------------------------------------------- compact model files (format 3)


def wordy(seed=0, n_words=400, n_sentences=60):
    """One-hot words (most of the n_words × K weights stay zero), a label per word."""
    rng = np.random.default_rng(seed)
    lengths = rng.integers(1, 8, size=n_sentences)
    words = rng.integers(0, n_words, size=lengths.sum())
    X = sp.csr_matrix((np.ones(len(words)), (np.arange(len(words)), words)),
                      shape=(len(words), n_words))
    return X, np.array(["A", "B", "C", "D"])[words % 4], lengths


def stored(path):
    with np.load(path, allow_pickle=False) as data:
        arrays = dict(data)
    return arrays, json.loads(str(arrays.pop("__meta__")))


def rewrite(path, arrays, meta, target):
    np.savez(target, **arrays, __meta__=np.array(json.dumps(meta)))
    return target


@pytest.mark.parametrize("average", [True, False])
def test_the_emission_weights_are_stored_by_their_nonzeros_bit_for_bit(average, tmp_path):
    X, y, lengths = wordy()
    model = SequencePerceptron(random_state=0, max_iter=3, average=average).fit(X, y, lengths)
    save(model, tmp_path / "m.npz", training_state=False)
    arrays, meta = stored(tmp_path / "m.npz")
    assert meta["format_version"] == 3 and "coef_" not in arrays
    assert meta["attributes"]["coef_"] == {"nonzeros": [4, 400], "dtype": "float64"}
    index, values = arrays["coef_.index"], arrays["coef_.values"]
    assert index.dtype == np.int32 and np.all(np.diff(index) > 0)
    assert len(index) == np.count_nonzero(model.coef_)
    # the last weights of binary features are whole numbers: float32 loses nothing
    assert values.dtype == (np.float64 if average else np.float32)
    loaded = load(tmp_path / "m.npz")
    assert loaded.coef_.dtype == np.float64
    assert_array_equal(loaded.coef_, model.coef_)
    assert_array_equal(loaded.predict(X, lengths), model.predict(X, lengths))
    save(model, tmp_path / "state.npz")  # with the training state, which resumes exactly
    resumed = load(tmp_path / "state.npz")
    assert stored(tmp_path / "state.npz")[1]["format_version"] == 3
    assert_array_equal(resumed.partial_fit(X, y, lengths).coef_,
                       model.partial_fit(X, y, lengths).coef_)


def test_a_dense_model_is_stored_as_before(tmp_path):
    X, y, lengths = corpus(seed=6)  # every feature meets every label: nothing to gain
    model = SequencePerceptron(random_state=0, max_iter=3).fit(X, y, lengths)
    save(model, tmp_path / "m.npz", training_state=False)
    arrays, meta = stored(tmp_path / "m.npz")
    assert meta["format_version"] == 1 and arrays["coef_"].shape == (3, 6)


def test_float32_weights_are_rounded_only_when_asked_and_never_with_the_state(tmp_path):
    X, y, lengths = wordy()
    model = SequencePerceptron(random_state=0, max_iter=3).fit(X, y, lengths)
    save(model, tmp_path / "m32.npz", training_state=False, weights_dtype="float32")
    assert stored(tmp_path / "m32.npz")[0]["coef_.values"].dtype == np.float32
    loaded = load(tmp_path / "m32.npz")
    assert_array_equal(loaded.coef_, model.coef_.astype(np.float32).astype(np.float64))
    assert_array_equal(loaded.predict(X, lengths), model.predict(X, lengths))
    with pytest.raises(ValueError, match="no longer match the training state"):
        save(model, tmp_path / "no.npz", weights_dtype="float32")
    with pytest.raises(ValueError, match="weights_dtype must be"):
        save(model, tmp_path / "no.npz", training_state=False, weights_dtype="float16")
    from rosenblatt import Perceptron  # nothing of its file is rounded: refused, not ignored
    with pytest.raises(ValueError, match="a Perceptron file stores its weights as fit left"):
        save(Perceptron().fit([[0.0], [1.0]], [0, 1]), tmp_path / "no.npz",
             training_state=False, weights_dtype="float32")
    assert not (tmp_path / "no.npz").exists()


def _index(values):
    return lambda arrays, meta: arrays.__setitem__("coef_.index", np.array(values, np.int32))


def _values(values):
    return lambda arrays, meta: arrays.__setitem__("coef_.values", np.array(values))


@pytest.mark.parametrize("forge, words", [
    (_index([0, 5, 1600]), ["coef_.index", "position 1600", "outside", "(4, 400)"]),
    (_index([-1, 5, 6]), ["coef_.index", "position -1"]),
    (_index([5, 3, 9]), ["coef_.index", "not strictly increasing"]),
    (_index([5, 5, 9]), ["coef_.index", "not strictly increasing"]),
    (lambda a, m: a.__setitem__("coef_.index", a["coef_.index"].astype(np.float64)),
     ["coef_.index", "int32 or int64"]),
    (_values([1.0, 2.0]), ["coef_.values", "one per position"]),
    (_values([1.0, np.nan, 2.0]), ["coef_.values", "NaN or infinity"]),
    (_values([1.0, np.inf, 2.0]), ["coef_.values", "NaN or infinity"]),
    (lambda a, m: a.__setitem__("coef_.values", np.array(["a", "b", "c"])),
     ["coef_.values", "float64 or float32"]),
    (lambda a, m: a.pop("coef_.values"), ["coef_.values", "missing"]),
    (lambda a, m: m["attributes"]["coef_"].update(nonzeros=[4, 399]),
     ["coef_", "shape (4, 399)", "expected (4, 400)"]),
    (lambda a, m: m["attributes"]["coef_"].update(nonzeros=[4, "400"]), ["coef_", "sizes"]),
    (lambda a, m: m["attributes"]["coef_"].update(dtype="int8"), ["coef_", "'int8'"]),
    (lambda a, m: m["attributes"]["coef_"].update(nonzeros=[2**40, 2**20]),
     ["coef_", "GB", "more than half of this machine"]),
    (lambda a, m: m.update(format_version=2), ["coef_", "format 2 files do not hold"]),
])
def test_a_forged_sparse_coef_is_refused_naming_what_is_wrong(forge, words, tmp_path):
    X, y, lengths = wordy()
    save(SequencePerceptron(random_state=0, max_iter=2).fit(X, y, lengths), tmp_path / "m.npz",
         training_state=False)
    arrays, meta = stored(tmp_path / "m.npz")
    if "coef_.index" in arrays and len(arrays["coef_.values"]) != 3:  # three nonzeros
        arrays["coef_.index"] = arrays["coef_.index"][:3]
        arrays["coef_.values"] = arrays["coef_.values"][:3]
    forge(arrays, meta)
    path = rewrite(tmp_path / "m.npz", arrays, meta, tmp_path / "forged.npz")
    with pytest.raises(ModelFileError) as error:
        load(path)
    message = str(error.value)
    assert str(path) in message and all(word in message for word in words), message


def test_the_training_state_is_stored_by_its_nonzeros_and_checked(tmp_path):
    X, y, lengths = wordy(n_words=3000, n_sentences=200)
    model = SequencePerceptron(random_state=0, max_iter=2).fit(X, y, lengths)
    save(model, tmp_path / "m.npz")
    arrays, meta = stored(tmp_path / "m.npz")
    packed = meta["training"][0]
    assert packed["fields"]["coef"] == {"nonzeros": "training0.coef", "shape": [12020],
                                        "dtype": "float64"}
    assert len(arrays["training0.state.coef_start.index"]) == 0  # the zero start: nothing
    # coef_, the running weights, the sums and the start: less than one of them dense
    assert (tmp_path / "m.npz").stat().st_size < model.coef_.nbytes
    saved_coef = load(tmp_path / "m.npz").coef_

    def dense_coef(arrays, meta):  # coef_ as format 2 stores it: only the state is sparse
        del arrays["coef_.index"], arrays["coef_.values"]
        arrays["coef_"], meta["attributes"]["coef_"] = saved_coef, {"array": True}

    again = load(tmp_path / "m.npz").partial_fit(X, y, lengths)
    assert_array_equal(again.coef_, model.partial_fit(X, y, lengths).coef_)
    for forge, words in [
        (lambda a, m: a["training0.state.u.index"].__setitem__(0, 10**6),
         ["training state problem0.state.u.index", "position 1000000"]),
        (lambda a, m: a["training0.coef.index"].sort() or a["training0.coef.index"].__setitem__(
            1, a["training0.coef.index"][0]), ["problem0.coef.index", "not strictly"]),
        (lambda a, m: a["training0.coef.values"].__setitem__(0, np.nan),
         ["problem0.coef", "NaN or infinity"]),
        (lambda a, m: dense_coef(a, m) or m.update(format_version=2),
         ["training: stores arrays by their nonzeros", "format 2"]),
    ]:
        arrays, meta = stored(tmp_path / "m.npz")
        for key in arrays:
            arrays[key] = arrays[key].copy()
        forge(arrays, meta)
        path = rewrite(tmp_path / "m.npz", arrays, meta, tmp_path / "forged.npz")
        with pytest.raises(ModelFileError) as error:
            load(path)
        assert all(word in str(error.value) for word in words), str(error.value)


def test_running_out_of_epochs_warns_as_every_bounded_loop_does():
    from sklearn.exceptions import ConvergenceWarning

    rng = np.random.default_rng(0)  # random labels: no epoch is ever mistake-free
    X, y = rng.normal(size=(40, 3)), rng.integers(0, 3, 40)
    with pytest.warns(ConvergenceWarning, match=r"SequencePerceptron ran max_iter=2 epochs "
                                                r".*still hold tagging mistakes"):
        model = SequencePerceptron(max_iter=2, random_state=0).fit(X, y, lengths=[10] * 4)
    assert (model.stop_reason_, model.converged_) == ("max_iter", False)
    X, y = np.eye(2)[[0, 1, 0, 1]], [0, 1, 0, 1]  # one feature per label: learnt at once
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        model = SequencePerceptron(max_iter=5).fit(X, y, lengths=[2, 2])
    assert (model.stop_reason_, model.converged_) == ("mistake_free", True)
