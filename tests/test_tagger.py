"""SequenceTagger: features and the structured perceptron as one estimator, and its
model file (the template as strings, the vocabulary as arrays, the model as io
stores a SequencePerceptron), which refuses what save would not have written."""

import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from numpy.testing import assert_array_equal

from rosenblatt.distributed import ParameterMixing
from rosenblatt.io import ModelFileError, load, save
from rosenblatt.structured import (
    SentenceFeatures,
    SequencePerceptron,
    SequenceTagger,
    default_template,
)

SENTENCES = [
    [("the", "DT"), ("dog", "NN"), ("barks", "VBZ")],
    [("a", "DT"), ("cat", "NN"), ("sleeps", "VBZ"), ("here", "RB")],
    [("the", "DT"), ("old", "JJ"), ("dog", "NN"), ("sleeps", "VBZ")],
    [("dogs", "NNS"), ("bark", "VBP")],
    [("a", "DT"), ("big", "JJ"), ("cat", "NN")],
]
LABELS = [
    ["B-NP", "I-NP", "B-VP"],
    ["B-NP", "I-NP", "B-VP", "B-ADVP"],
    ["B-NP", "I-NP", "I-NP", "B-VP"],
    ["B-NP", "B-VP"],
    ["B-NP", "I-NP", "I-NP"],
]
NEW = [[("the", "DT"), ("big", "JJ"), ("dog", "NN"), ("barks", "VBZ")], [("cats", "NNS")]]


def tagger(features=None, **model):
    model = SequencePerceptron(**{"shuffle": "none", "max_iter": 5, **model})
    return SequenceTagger(features, model).fit(SENTENCES, LABELS)


# ------------------------------------------------------------------------- the estimator

def test_fit_predict_score_on_sentences():
    fitted = tagger()
    assert fitted.score(SENTENCES, LABELS) == 1.0
    predicted = fitted.predict(NEW)
    assert [len(p) for p in predicted] == [4, 1]
    assert all(isinstance(label, str) for label in predicted[0])
    assert predicted[0][:3] == ["B-NP", "I-NP", "I-NP"]
    assert fitted.classes_.tolist() == ["B-ADVP", "B-NP", "B-VP", "I-NP"]
    assert fitted.features_.n_columns_ == 2


def test_it_is_the_features_then_the_model():
    features = SentenceFeatures(template=["bias", "word", "col1", "col1[-1]"])
    fitted = tagger(features)
    X, lengths = SentenceFeatures(template=features.template).fit_transform(SENTENCES)
    model = SequencePerceptron(shuffle="none", max_iter=5).fit(
        X, np.concatenate(LABELS), lengths)
    assert_array_equal(fitted.model_.coef_, model.coef_)
    assert fitted.features is features and not hasattr(features, "vocabulary_")  # cloned


def test_empty_sentences_are_left_out_of_fit_and_get_no_labels():
    fitted = SequenceTagger(model=SequencePerceptron(shuffle="none")).fit(
        [[], *SENTENCES], [[], *LABELS])
    assert fitted.model_.n_examples_ == len(SENTENCES) * fitted.model_.n_iter_
    assert fitted.predict([[], NEW[1], []]) == [[], fitted.predict([NEW[1]])[0], []]
    assert fitted.predict([]) == []


@pytest.mark.parametrize("labels, message", [
    (LABELS[:-1], "5 sentences but 4 lists of labels"),
    ([*LABELS[:-1], ["B-NP"]], "Sentence 4 has 3 tokens but 1 labels"),
    ([*LABELS[:-1], "B-NP"], "labels of sentence 4 are a str"),
    ("B-NP", "labels must be a list"),
])
def test_labels_that_do_not_fit_the_sentences_are_refused(labels, message):
    with pytest.raises(ValueError, match=message):
        SequenceTagger().fit(SENTENCES, labels)


def test_only_empty_sentences_are_refused():
    with pytest.raises(ValueError, match="every sentence is empty"):
        SequenceTagger().fit([[], []], [[], []])


def test_parameter_mixing_trains_it_by_sentences(tmp_path):
    mixed = SequenceTagger(model=ParameterMixing(
        SequencePerceptron(random_state=0), n_shards=2, client="threads"))
    mixed.fit(SENTENCES * 4, LABELS * 4)
    assert mixed.model_.n_shards_ == 2 and mixed.score(SENTENCES, LABELS) > 0.9
    save(mixed, tmp_path / "mixed.npz")
    loaded = load(tmp_path / "mixed.npz")
    assert type(loaded.model_) is SequencePerceptron  # the estimator it trained
    assert loaded.predict(NEW) == mixed.predict(NEW)


# ---------------------------------------------------------------------------- model files

@pytest.mark.parametrize("features", [
    SentenceFeatures(),
    SentenceFeatures(template=["bias", "lower", "suffix2", "word[-1]|col1", "col1[+1]"]),
    SentenceFeatures(vocabulary="hash", n_features=64),
    SentenceFeatures(template=["word", "col1"],
                     vocabulary={"word=dog": 0, "col1=NN": 3, "col1=NNS": 3, "wörd=ü\n": 5}),
    SentenceFeatures(min_count=2),
], ids=["default", "template", "hash", "dict", "min_count"])
@pytest.mark.parametrize("training_state", [True, False])
def test_a_tagger_file_round_trips(features, training_state, tmp_path):
    fitted = tagger(features)
    save(fitted, tmp_path / "tagger.npz", training_state=training_state)
    loaded = load(tmp_path / "tagger.npz")
    assert isinstance(loaded, SequenceTagger)
    assert loaded.predict(NEW) == fitted.predict(NEW)
    assert loaded.features_.vocabulary_ == fitted.features_.vocabulary_
    assert loaded.features_.template_ == fitted.features_.template_
    assert loaded.features.get_params() == features.get_params()
    for name in ("coef_", "transitions_", "start_transitions_", "classes_"):
        assert_array_equal(getattr(loaded.model_, name), getattr(fitted.model_, name))
    X, lengths = fitted.features_.transform(NEW)
    Y, _ = loaded.features_.transform(NEW)
    assert (X != Y).nnz == 0
    save(loaded, tmp_path / "again.npz", training_state=training_state)  # loaded saves
    assert load(tmp_path / "again.npz").predict(NEW) == fitted.predict(NEW)


def test_the_saved_training_state_goes_on_training(tmp_path):
    fitted = tagger(random_state=0, shuffle="every_epoch")
    save(fitted, tmp_path / "tagger.npz", training_state=True)  # a tagger's is asked for
    loaded = load(tmp_path / "tagger.npz")
    X, lengths = fitted.features_.transform(SENTENCES)
    y = np.concatenate(LABELS)
    fitted.model_.partial_fit(X, y, lengths)
    loaded.model_.partial_fit(X, y, lengths)
    assert_array_equal(loaded.model_.coef_, fitted.model_.coef_)


def test_a_template_with_a_callable_is_refused_by_save(tmp_path):
    def shape(sentence, i):
        return "Xx" if sentence[i][0].istitle() else "x"

    fitted = tagger(SentenceFeatures(template=["word", shape]))
    with pytest.raises(ValueError, match="callable 'shape'.*template strings"):
        save(fitted, tmp_path / "tagger.npz")
    assert not (tmp_path / "tagger.npz").exists()


def test_an_unfitted_tagger_is_refused_by_save(tmp_path):
    with pytest.raises(ValueError, match="not fitted yet"):
        save(SequenceTagger(), tmp_path / "tagger.npz")


# ------------------------------------------------------------------------- forged files

def read(path):
    with np.load(path, allow_pickle=False) as stored:
        arrays = {key: stored[key] for key in stored.files}
    return arrays, json.loads(str(arrays.pop("__meta__")))


def forge(path, change):
    """``change(arrays, meta)`` edits the saved file, written back as anyone could."""
    arrays, meta = read(path)
    change(arrays, meta)
    arrays["__meta__"] = np.array(json.dumps(meta))
    np.savez(path, **arrays)


def refused(path, *words):
    with pytest.raises(ModelFileError) as error:
        load(path)
    message = str(error.value)
    assert str(path) in message and all(word in message for word in words), message
    return message


def saved(tmp_path, features=None, name="tagger.npz"):
    path = tmp_path / name
    save(tagger(features), path, training_state=False)
    return path


def strings(values):
    encoded = [value.encode() for value in values]
    return (np.frombuffer(b"".join(encoded), dtype=np.uint8),
            np.concatenate(([0], np.cumsum([len(e) for e in encoded]))).astype(np.int64))


def set_vocabulary(names, columns=None):
    def change(arrays, meta):
        arrays["features:strings"], arrays["features:offsets"] = strings(names)
        if columns is not None:
            arrays["features:columns"] = np.asarray(columns)
    return change


def test_a_vocabulary_with_a_string_twice_is_refused(tmp_path):
    path = saved(tmp_path)
    arrays, _ = read(path)
    names = [bytes(arrays["features:strings"][a:b]).decode()
             for a, b in zip(arrays["features:offsets"][:-1], arrays["features:offsets"][1:])]
    forge(path, set_vocabulary([names[0], *names[:-1]]))
    refused(path, "features:strings", "sorted without repeats")
    dictionary = SentenceFeatures(template=["word"], vocabulary={"word=dog": 0, "word=cat": 1})
    path = saved(tmp_path, dictionary, "dict.npz")
    forge(path, set_vocabulary(["word=dog", "word=dog"]))
    refused(path, "features:strings", "'word=dog' twice")


@pytest.mark.parametrize("columns", [[0, 7], [0, -1], [0.0, 1.0]])
def test_a_vocabulary_column_out_of_range_is_refused(columns, tmp_path):
    dictionary = SentenceFeatures(template=["word"], vocabulary={"word=dog": 0, "word=cat": 1})
    path = saved(tmp_path, dictionary)
    forge(path, set_vocabulary(["word=cat", "word=dog"], columns))
    refused(path, "features:columns")


def test_fit_vocabulary_columns_must_number_the_sorted_strings(tmp_path):
    # save leaves them out (they are 0, 1, ...); a file that holds them (as files
    # before format 3 did) must hold those
    path = saved(tmp_path)
    assert "features:columns" not in read(path)[0]
    forge(path, lambda arrays, meta: arrays.__setitem__(
        "features:columns", np.arange(len(arrays["features:offsets"]) - 1)))
    assert load(path).predict(NEW) == tagger().predict(NEW)
    forge(path, lambda arrays, meta: arrays.__setitem__(
        "features:columns", arrays["features:columns"][::-1].copy()))
    refused(path, "features:columns", "as fit does")


@pytest.mark.parametrize("offsets", [[0, 3, 2, 9], [1, 3, 9], [0, 3, 99], []])
def test_offsets_that_do_not_cut_the_strings_are_refused(offsets, tmp_path):
    dictionary = SentenceFeatures(template=["word"], vocabulary={"word=a": 0, "word=bc": 1})
    path = saved(tmp_path, dictionary)
    forge(path, lambda arrays, meta: arrays.__setitem__(
        "features:offsets", np.array(offsets, dtype=np.int64)))
    refused(path, "features:offsets")


def test_strings_that_are_not_utf8_are_refused(tmp_path):
    path = saved(tmp_path, SentenceFeatures(template=["word"], vocabulary={"word=a": 0}))
    forge(path, lambda arrays, meta: arrays.__setitem__(
        "features:strings", np.array([0xff] * 6, dtype=np.uint8)))
    refused(path, "not UTF-8")


@pytest.mark.parametrize("edit, words", [
    (lambda f: f.__setitem__("template_", [*f["template_"][:-1], "os.system"]),
     ["not the default template"]),
    (lambda f: f.update(template=["bias", "__import__('os')"],
                        template_=["bias", "__import__('os')"]), ["Unknown template entry"]),
    (lambda f: f.update(template=["word", "col7"], template_=["word", "col7"]),
     ["reads column 7"]),
    (lambda f: f.update(template=["word"], template_=["word", "col1"]), ["template_"]),
    (lambda f: f.update(template_=[{"callable": "os.system"}], template=[]), ["template_"]),
    (lambda f: f.update(vocabulary="pickle"), ["'fit', 'hash' or 'dict'"]),
    (lambda f: f.update(n_columns_=-2), ["n_columns_"]),
    (lambda f: f.update(n_features_=3), ["features:columns"]),
    (lambda f: f.pop("n_features"), ["parts.features"]),
    (lambda f: f.update(vocabulary="hash"), ["no arrays", "extra"]),
    (lambda f: f.update(min_count=0), ["min_count", "from 1"]),
    (lambda f: f.update(min_count="2"), ["min_count"]),
])
def test_forged_feature_settings_are_refused(edit, words, tmp_path):
    path = saved(tmp_path)
    forge(path, lambda arrays, meta: edit(meta["parts"]["features"]))
    refused(path, *words)


def test_a_hashed_width_the_model_does_not_read_is_refused(tmp_path):
    path = saved(tmp_path, SentenceFeatures(vocabulary="hash", n_features=64))
    forge(path, lambda arrays, meta: meta["parts"]["features"].update(n_features=65,
                                                                      n_features_=65))
    refused(path, "reads 64 features, but the tagger's features make 65")


def test_the_model_part_is_checked_as_a_model_file_is(tmp_path):
    path = saved(tmp_path)
    forge(path, lambda arrays, meta: arrays.__setitem__("model:transitions_", np.zeros((2, 2))))
    refused(path, "transitions_")
    path = saved(tmp_path)
    forge(path, lambda arrays, meta: meta["parts"]["model"].update(estimator="Perceptron"))
    refused(path, "parts.model", "must be a SequencePerceptron")
    path = saved(tmp_path)
    forge(path, lambda arrays, meta: arrays.__setitem__("model:extra_", np.zeros(3)))
    refused(path, "extra_")
    path = saved(tmp_path)
    forge(path, lambda arrays, meta: arrays.__setitem__("surplus", np.zeros(3)))
    refused(path, "'surplus' belongs to no part")
    path = saved(tmp_path)
    forge(path, lambda arrays, meta: meta.pop("parts"))
    refused(path, "parts")


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(key=st.sampled_from(["features:strings", "features:offsets", "features:columns"]),
       kind=st.sampled_from(["fit", "dict"]), data=st.data())
def test_property_a_spoiled_vocabulary_is_refused_or_loads(key, kind, data, tmp_path):
    """Any length, dtype or value of a vocabulary array: a ModelFileError naming the
    file, or a tagger that predicts (a changed byte may still make valid strings)."""
    features = SentenceFeatures(template=["word", "col1"]) if kind == "fit" else \
        SentenceFeatures(template=["word"], vocabulary={"word=dog": 0, "word=cat": 2})
    path = saved(tmp_path, features)
    arrays, _ = read(path)
    # a fitted vocabulary's columns (0, 1, ...) are not stored: forge them in
    original = arrays.get(key, np.arange(len(arrays["features:offsets"]) - 1))
    how = data.draw(st.sampled_from(["length", "dtype", "value"]))
    if how == "length":
        forged = np.resize(original, data.draw(st.integers(0, original.size + 3)))
    elif how == "dtype":
        forged = original.astype(data.draw(st.sampled_from(
            ["int32", "uint8", "float64", "bool", "U3", "int16"])))
    else:
        forged = original.copy()
        forged[data.draw(st.integers(0, forged.size - 1))] = data.draw(
            st.sampled_from([0, 1, 2, 200, 255] if forged.dtype == np.uint8
                            else [-1, 0, 1, 2, 10**6]))
    forge(path, lambda arrays, meta: arrays.__setitem__(key, forged))
    try:
        loaded = load(path)
    except ModelFileError as error:
        assert str(path) in str(error)
        return
    assert len(loaded.predict(NEW)[0]) == 4


def test_loading_runs_no_code_from_the_template(tmp_path, monkeypatch):
    """Template entries are parsed by the features' grammar; a name that is not one
    is refused, never looked up or evaluated."""
    calls = []
    monkeypatch.setattr("builtins.eval", lambda *args: calls.append(args))
    path = saved(tmp_path, SentenceFeatures(template=["word", "suffix2"]))
    forge(path, lambda arrays, meta: meta["parts"]["features"].update(
        template=["word", "print(1)"], template_=["word", "print(1)"]))
    refused(path, "Unknown template entry 'print(1)'")
    assert calls == []
    assert default_template(2)[0] == "bias"


def test_a_file_written_before_min_count_loads_with_every_string_kept(tmp_path):
    path = saved(tmp_path)
    forge(path, lambda arrays, meta: meta["parts"]["features"].pop("min_count"))
    loaded = load(path)
    assert loaded.features.min_count == 1
    assert loaded.predict(NEW) == load(saved(tmp_path, name="again.npz")).predict(NEW)
