"""Issue 35, items 1-7: the structured perceptron and the tagger refuse bad input with a
ValueError that says what was wrong and what to do."""

import numpy as np
import pytest

from rosenblatt.cli import main
from rosenblatt.io import save
from rosenblatt.structured import SentenceFeatures, SequencePerceptron, SequenceTagger


# item 7: a tagger (or sequence model) file given to the commands of row models
@pytest.mark.parametrize("command", [["predict"], ["evaluate"], ["plot"],
                                     ["train", "--resume"]])
@pytest.mark.parametrize("kind", ["tagger", "sequence"])
def test_a_sequence_model_file_given_to_a_row_command_exits_2_with_one_line(
        command, kind, tmp_path, capsys):
    if kind == "tagger":
        model = SequenceTagger().fit([["a", "b"], ["c"]], [["X", "Y"], ["Y"]])
    else:
        model = SequencePerceptron(max_iter=2).fit(np.eye(3), [0, 1, 0], [2, 1])
    path = tmp_path / "model.npz"
    save(model, path)
    data = tmp_path / "data.csv"
    data.write_text("x1,x2,x3,y\n1,0,0,0\n0,1,0,1\n")
    if command[0] == "train":
        argv = ["train", str(data), "--resume", str(path), "-o", str(tmp_path / "out.npz")]
    else:
        argv = [command[0], str(path), str(data)]
    assert main(argv) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1, lines
    assert f"a {type(model).__name__} model, which labels sentences" in lines[0]
    if kind == "tagger":
        assert "'rosenblatt tag " in lines[0]


# item 1: a warm_start refit on X of another width; sibling: any refused refit left the
# new width with the old weights (predict then read past them)
def test_warm_start_on_another_width_is_refused_and_the_model_kept():
    model = SequencePerceptron(max_iter=2, warm_start=True).fit(np.eye(3), [0, 1, 0], [2, 1])
    with pytest.raises(ValueError, match="continues the last fit, on 3 features; X has 5"):
        model.fit(np.ones((3, 5)), [0, 1, 0], [2, 1])
    assert model.n_features_in_ == 3 and model.start_transitions_.shape == (2,)
    model.fit(np.eye(3), [0, 1, 0], [2, 1])  # still goes on


@pytest.mark.parametrize("estimator", ["sequence", "perceptron"])
def test_a_refused_refit_keeps_the_fitted_width(estimator):
    from rosenblatt import Perceptron

    if estimator == "sequence":
        model = SequencePerceptron(max_iter=2).fit(np.eye(3), [0, 1, 0], [2, 1])
        refit, predict = (lambda: model.fit(np.ones((3, 5)), [0, 1, 0], [2, 2]),
                          lambda X: model.predict(X, [2, 1]))
    else:
        model = Perceptron(warm_start=True).fit(np.eye(3), [0, 1, 0])
        refit, predict = (lambda: model.fit(np.ones((3, 5)), [0, 1, 2]), model.predict)
    with pytest.raises(ValueError):
        refit()
    assert model.n_features_in_ == 3
    with pytest.raises(ValueError, match="X has 5 features"):
        predict(np.ones((3, 5)))


# item 2: predict decoded emission scores that overflowed; sibling: path scores (the
# sum over a sentence) that overflow although every token's scores are finite
def test_predict_refuses_scores_that_overflow():
    model = SequencePerceptron(max_iter=2).fit(np.eye(3) * 10, [0, 1, 0], [2, 1])
    X = np.array([[0.0, 1e308, 0.0]] * 3)
    with pytest.raises(ValueError, match="overflowed to inf or NaN"):
        model.decision_function(X)
    with pytest.raises(ValueError, match="overflowed to inf or NaN"):
        model.predict(X, [2, 1])
    with pytest.raises(ValueError, match="path scores of a sentence of 3 tokens"):
        model.predict(X / 10, [3])
    assert np.isfinite(model.decision_function(X / 10)).all()
    assert model.predict(X / 1e10, [3]).tolist() == [1, 1, 1]


# item 3: labels mixing numbers and strings became strings; np.str_ tokens were refused;
# sibling: SequencePerceptron.score compared labels of another type (or length) silently
def test_tagger_refuses_labels_mixing_numbers_and_strings_and_keeps_numbers():
    with pytest.raises(ValueError, match="mixes numbers and strings"):
        SequenceTagger().fit([["a", "b"], ["c"]], [[1, "x"], ["x"]])
    tagger = SequenceTagger().fit([["a", "b"], ["c"]], [[1, 2], [2]])
    assert tagger.predict([["a"]])[0][0] in (1, 2) and tagger.classes_.tolist() == [1, 2]


def test_tagger_reads_numpy_strings_as_tokens():
    words = np.array(["a", "b", "c"])
    tagger = SequenceTagger().fit([list(words[:2]), [words[2]]], [["X", "Y"], ["Y"]])
    assert tagger.predict([list(words)]) == tagger.predict([["a", "b", "c"]])
    pairs = [tuple(np.array(["a", "DT"])), tuple(np.array(["b", "NN"]))]
    tagger = SequenceTagger().fit([pairs], [["X", "Y"]])
    assert tagger.predict([[("a", "DT")]]) == [["X"]]


@pytest.mark.parametrize("y", [[0, 1], ["0", "1", "0"]])
def test_sequence_score_refuses_labels_of_another_length_or_type(y):
    model = SequencePerceptron(max_iter=2).fit(np.eye(3), [0, 1, 0], [2, 1])
    with pytest.raises(ValueError, match="inconsistent numbers|Mix of label input types"):
        model.score(np.eye(3), y, [2, 1])


# item 5: lengths whose int64 sum wraps around to the number of rows passed; sibling:
# uint64 and huge float lengths wrapped in the cast to int64 (a misleading "has -1")
@pytest.mark.parametrize("lengths", [[2**62] * 4 + [3], [2**63 - 1, 2],
                                     np.array([2**64 - 1, 4], dtype=np.uint64), [1e300, 2.0]])
def test_lengths_that_would_wrap_around_are_refused(lengths):
    from rosenblatt._validation import check_lengths

    with pytest.raises(ValueError, match="but X has 3 rows"):
        check_lengths(lengths, 3)
    with pytest.raises(ValueError, match="but X has 3 rows"):
        SequencePerceptron(max_iter=1).fit(np.eye(3), [0, 1, 0], lengths)


def test_a_min_count_that_drops_every_feature_says_so():
    with pytest.raises(ValueError, match="min_count=5 keeps none of the .* feature strings"):
        SequenceTagger(SentenceFeatures(min_count=5)).fit([["a", "b"]], [["X", "Y"]])


# item 6: load_conll split ASCII lines on \x1c-\x1f too (str.split()); chunk scores on
# labels that are not strings raised AttributeError
@pytest.mark.parametrize("control", ["\x1c", "\x1d", "\x1e", "\x1f"])
def test_load_conll_splits_on_ascii_whitespace_only(control, tmp_path):
    from rosenblatt.datasets import load_conll

    path = tmp_path / "data.txt"
    path.write_text(f"a{control}b NN B-NP\nc NN I-NP\n")
    sentences, labels = load_conll(path)
    assert sentences[0] == [(f"a{control}b", "NN"), ("c", "NN")]
    assert labels[0] == ["B-NP", "I-NP"]


@pytest.mark.parametrize("y_true, y_pred", [([1, 2], [1, 2]), (["B-NP", "O"], ["B-NP", None]),
                                            ([[b"B-NP"]], [["B-NP"]])])
def test_chunk_scores_refuse_labels_that_are_not_strings(y_true, y_pred):
    from rosenblatt.structured import chunk_scores, conlleval_report

    for score in (chunk_scores, conlleval_report):
        with pytest.raises(ValueError, match="strings such as 'B-NP'"):
            score(y_true, y_pred)


# item 4: the memory check counts the copies each shard of parameter mixing makes
@pytest.mark.parametrize("average, per_shard", [(True, 3), (False, 1)])
def test_the_memory_check_counts_the_shards_of_parameter_mixing(average, per_shard,
                                                                monkeypatch):
    from rosenblatt.distributed import ParameterMixing
    from rosenblatt import _config

    rng = np.random.default_rng(0)
    X, y, lengths = rng.integers(0, 2, size=(40, 6)).astype(float), rng.integers(0, 3, 40), \
        [4] * 10
    size = 8 * (6 * 3 + 3 * 3 + 3)  # 6 features, 3 labels
    serial = 3 if average else 2
    monkeypatch.setattr(_config, "physical_memory", lambda: (serial + 4 * per_shard) * size - 1)
    SequencePerceptron(average=average, max_iter=1).fit(X, y, lengths)  # serially it fits
    ParameterMixing(SequencePerceptron(average=average, max_iter=1), n_shards=1,
                    client="threads").fit(X, y, lengths=lengths)
    with pytest.raises(ValueError, match=f"for 4 shards of parameter mixing .*"
                                         f"{serial + 4 * per_shard} arrays.*fewer shards"):
        ParameterMixing(SequencePerceptron(average=average, max_iter=1), n_shards=4,
                        client="threads").fit(X, y, lengths=lengths)
    monkeypatch.setattr(_config, "physical_memory", lambda: (serial + 4 * per_shard) * size)
    ParameterMixing(SequencePerceptron(average=average, max_iter=1), n_shards=4,
                    client="threads").fit(X, y, lengths=lengths)
