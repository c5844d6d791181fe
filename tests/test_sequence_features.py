"""SentenceFeatures: the strings each template entry makes, the matrix they become
(vocabulary or hashing), and the errors for what it cannot read."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.feature_extraction import FeatureHasher

from rosenblatt.structured import _features
from rosenblatt.structured._features import SentenceFeatures, default_template

SENTENCES = [
    [("The", "DT"), ("dog-like", "JJ"), ("RUNS", "VBZ")],
    [("a", "DT"), ("1984", "CD")],
]


def token_features(features, X):
    """The feature strings of every row of X."""
    names = features.get_feature_names_out()
    return [set(names[X.indices[X.indptr[t]:X.indptr[t + 1]]]) for t in range(X.shape[0])]


def test_the_default_template_makes_the_documented_features():
    features = SentenceFeatures()
    X, lengths = features.fit_transform(SENTENCES)
    assert lengths.tolist() == [3, 2] and X.shape[0] == 5
    rows = token_features(features, X)
    assert rows[1] == {
        "bias=1", "word=dog-like", "lower=dog-like",
        "prefix1=d", "prefix2=do", "prefix3=dog", "prefix4=dog-",
        "suffix1=e", "suffix2=ke", "suffix3=ike", "suffix4=like", "has_hyphen=1",
        "word[-2]=<s>", "word[-1]=The", "word[+1]=RUNS", "word[+2]=</s>",
        "col1[-2]=<s>", "col1[-1]=DT", "col1=JJ", "col1[+1]=VBZ", "col1[+2]=</s>",
        "col1[-1]|col1=DT|JJ", "col1|col1[+1]=JJ|VBZ",
    }
    # the flags where true only; a one-letter word has no longer prefixes or suffixes
    assert {"is_title=1"} <= rows[0] and "is_upper=1" not in rows[0]
    assert {"is_upper=1"} <= rows[2] and "is_title=1" not in rows[2]
    assert {"is_digit=1", "prefix4=1984"} <= rows[4]
    assert {name for name in rows[3] if name.startswith(("prefix", "suffix"))} == \
        {"prefix1=a", "suffix1=a"}
    # offsets stop at the sentence: the next sentence's first word is not "+1" of RUNS
    assert "word[+1]=</s>" in rows[2] and "word[-1]=<s>" in rows[3]
    assert "col1[-1]|col1=<s>|DT" in rows[3] and "col1|col1[+1]=CD|</s>" in rows[4]
    assert sum(map(len, rows)) == X.nnz


def test_the_matrix_is_binary_sorted_int32_without_repeats():
    X, _ = SentenceFeatures().fit_transform(SENTENCES)
    assert sp.isspmatrix_csr(X) and X.indices.dtype == np.int32
    assert X.indptr.dtype == np.int32 and (X.data == 1.0).all()
    for t in range(X.shape[0]):
        row = X.indices[X.indptr[t]:X.indptr[t + 1]]
        assert (np.diff(row) > 0).all()


def test_the_vocabulary_is_sorted_and_unseen_strings_are_dropped():
    features = SentenceFeatures(template=["lower", "col1"]).fit(SENTENCES)
    names = list(features.vocabulary_)
    assert names == sorted(names) and list(features.vocabulary_.values()) == \
        list(range(len(names)))
    X, lengths = features.transform([[("THE", "NN"), ("cat", "DT")]])
    assert lengths.tolist() == [2] and X.shape == (2, len(names))
    assert token_features(features, X) == [{"lower=the"}, {"col1=DT"}]


def test_fit_transform_equals_fit_then_transform():
    one = SentenceFeatures().fit_transform(SENTENCES)[0]
    two = SentenceFeatures().fit(SENTENCES).transform(SENTENCES)[0]
    assert (one != two).nnz == 0 and one.nnz > 0


def test_batches_do_not_leak_offsets_between_sentences(monkeypatch):
    sentences = [[(f"w{i}{j}", f"T{j}") for j in range(1 + i % 4)] for i in range(25)]
    whole, _ = SentenceFeatures().fit_transform(sentences)
    monkeypatch.setattr(_features, "_BATCH_TOKENS", 3)
    features = SentenceFeatures()
    pieces, _ = features.fit_transform(sentences)
    assert (whole != pieces).nnz == 0
    assert (features.transform(sentences)[0] != whole).nnz == 0


def test_hashing_gives_feature_hashers_columns():
    template = ["word", "suffix2", "col1[-1]|col1"]
    features = SentenceFeatures(template=template, vocabulary="hash", n_features=2**18)
    X, _ = features.fit_transform(SENTENCES)
    named = SentenceFeatures(template=template).fit(SENTENCES)
    strings = [sorted(row) for row in token_features(named, named.transform(SENTENCES)[0])]
    expected = FeatureHasher(2**18, input_type="string", alternate_sign=False).transform(strings)
    expected.data[:] = 1.0
    assert X.shape == (5, 2**18) and (X != expected).nnz == 0
    assert features.vocabulary_ is None
    with pytest.raises(ValueError, match="no names"):
        features.get_feature_names_out()


def test_hash_collisions_leave_one_entry_of_value_one():
    X, _ = SentenceFeatures(vocabulary="hash", n_features=2).fit_transform(SENTENCES)
    assert X.shape[1] == 2 and (X.data == 1.0).all()
    assert X.getnnz(axis=1).max() <= 2  # a row of ~20 strings in 2 columns


def test_plain_string_tokens_and_a_callable_entry():
    def shape(sentence, i):
        word = sentence[i]
        return "".join("X" if c.isupper() else "x" for c in word) if word.isalpha() else None

    features = SentenceFeatures(template=["word", shape, "word[+1]"])
    X, lengths = features.fit_transform([["Hi", "there", "42"]])
    assert lengths.tolist() == [3] and features.n_columns_ == 1
    assert token_features(features, X) == [
        {"word=Hi", "shape=Xx", "word[+1]=there"},
        {"word=there", "shape=xxxxx", "word[+1]=42"},
        {"word=42", "word[+1]=</s>"},
    ]


def test_the_default_template_follows_the_columns():
    assert default_template(1) == (
        ["bias", "word", "lower", "prefix1", "prefix2", "prefix3", "prefix4", "suffix1",
         "suffix2", "suffix3", "suffix4", "is_title", "is_upper", "is_digit", "has_hyphen",
         "word[-2]", "word[-1]", "word[+1]", "word[+2]"])
    three = default_template(3)
    assert three[:len(default_template(2))] == default_template(2)
    assert three[-2:] == ["col2[-1]|col2", "col2|col2[+1]"]
    features = SentenceFeatures().fit([[("a", "b", "c")]])
    assert features.template_ == three and features.n_columns_ == 3


def test_a_fixed_vocabulary():
    features = SentenceFeatures(template=["word"], vocabulary={"word=a": 2, "word=b": 0})
    X, _ = features.fit_transform([["a", "b", "c"]])
    assert X.toarray().tolist() == [[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 0.0, 0.0]]
    assert features.get_feature_names_out().tolist() == ["word=b", None, "word=a"]
    with pytest.raises(ValueError, match="vocabulary columns must be whole numbers"):
        SentenceFeatures(vocabulary={"word=a": -1}).fit([["a"]])


def test_parameters_and_clone():
    features = SentenceFeatures(template=["word"], vocabulary="hash", n_features=64)
    assert features.get_params() == {"template": ["word"], "vocabulary": "hash",
                                     "n_features": 64, "min_count": 1}
    copy = clone(features)
    assert copy.get_params() == features.get_params() and not hasattr(copy, "n_features_")


def test_empty_sentences_have_no_rows():
    X, lengths = SentenceFeatures().fit_transform([[], [("a", "b")], []])
    assert lengths.tolist() == [0, 1, 0] and X.shape[0] == 1


@pytest.mark.parametrize("template, message", [
    (["colour"], "Unknown template entry 'colour'"),
    (["prefix0"], "Unknown template entry"),
    (["col5"], "reads column 5, but the tokens have 2"),
    (["word[-x]"], "Unknown template entry"),
    (["word", "word"], "distinct names"),
    ([lambda s, i: "a", lambda s, i: "b"], "distinct names"),
    ([], "empty"),
    ("word", "list of entries"),
    ([3], "string or a callable"),
])
def test_template_errors(template, message):
    with pytest.raises(ValueError, match=message):
        SentenceFeatures(template=template).fit(SENTENCES)


@pytest.mark.parametrize("sentences, message", [
    ("The dog runs", "list of sentences"),
    (["The dog runs"], "Sentence 0 is a str"),
    ([[("a", "b"), ("c",)]], "same number of columns"),
    ([[("a", "b"), "c"]], "string or a tuple"),
    ([[("a", 1)]], "Column 1 of the tokens holds non-strings"),
])
def test_input_errors(sentences, message):
    with pytest.raises(ValueError, match=message):
        SentenceFeatures().fit(sentences)


def test_transform_refuses_tokens_of_another_shape():
    features = SentenceFeatures().fit(SENTENCES)
    with pytest.raises(ValueError, match="tokens of 2"):
        features.transform([["a", "b"]])


@pytest.mark.parametrize("params, message", [
    ({"vocabulary": "learn"}, "vocabulary must be"),
    ({"vocabulary": ["a"]}, "vocabulary must be"),
    ({"vocabulary": "hash", "n_features": 0}, "n_features"),
    ({"vocabulary": "hash", "n_features": 2.5}, "n_features"),
])
def test_parameter_errors(params, message):
    with pytest.raises(ValueError, match=message):
        SentenceFeatures(**params).fit(SENTENCES)


def test_on_a_real_corpus(shared_data):
    path = shared_data / "sequences" / "conll2000-test.txt"
    if not path.exists():
        pytest.skip(f"{path} is absent")
    from rosenblatt.datasets._conll import load_conll
    sentences, _ = load_conll(path)
    features = SentenceFeatures()
    X, lengths = features.fit_transform(sentences)
    assert X.shape[0] == lengths.sum() == 47377 and len(lengths) == 2012
    # every token has its bias, word, lower, first and last letter, 4 context words,
    # 5 tags and 2 tag bigrams: 16 features at least
    assert X.getnnz(axis=1).min() == 16
    bias = features.vocabulary_["bias=1"]
    assert (X[:, bias].toarray() == 1).all()


def test_min_count_keeps_the_strings_met_often_enough():
    sentences = [["the", "dog", "barks"], ["the", "cat"], ["a", "dog"]]
    every = SentenceFeatures(template=["bias", "lower", "word[-1]"]).fit(sentences)
    twice = SentenceFeatures(template=["bias", "lower", "word[-1]"], min_count=2)
    X, lengths = twice.fit_transform(sentences)
    # met on 2+ tokens: bias (7), lower=dog, lower=the, word[-1]=<s> (3), word[-1]=the;
    # not lower=barks, lower=cat, lower=a, word[-1]=dog, word[-1]=a (1 each)
    assert list(twice.vocabulary_) == ["bias=1", "lower=dog", "lower=the", "word[-1]=<s>",
                                       "word[-1]=the"]
    assert list(twice.vocabulary_.values()) == [0, 1, 2, 3, 4]  # sorted, numbered from 0
    assert X.shape == (7, 5) and lengths.tolist() == [3, 2, 2]
    # the kept columns of the full matrix, renumbered: the same rows
    full, _ = every.transform(sentences)
    kept = [every.vocabulary_[name] for name in twice.get_feature_names_out()]
    np.testing.assert_array_equal(X.toarray(), full.toarray()[:, kept])
    np.testing.assert_array_equal(twice.transform(sentences)[0].toarray(), X.toarray())


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "2"])
def test_min_count_must_be_a_whole_number_from_1(bad):
    with pytest.raises(ValueError, match=r"min_count must be a whole number >= 1"):
        SentenceFeatures(min_count=bad).fit([["a"]])


@pytest.mark.parametrize("vocabulary", ["hash", {"word=a": 0}])
def test_min_count_needs_a_fitted_vocabulary(vocabulary):
    with pytest.raises(ValueError, match="min_count .* needs vocabulary='fit'"):
        SentenceFeatures(vocabulary=vocabulary, min_count=2).fit([["a"]])
