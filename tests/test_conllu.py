"""CoNLL-U read and written exactly: the treebanks' bytes back, every malformed line
refused with its file and line."""

import gzip
import io
import pathlib

import numpy as np
import pytest

from rosenblatt.datasets import (
    ConlluFormatError,
    ConlluSentence,
    load_conll,
    load_conllu,
    write_conllu,
)
from rosenblatt.datasets._conllu import COLUMNS

TREEBANKS = pathlib.Path(__file__).resolve().parents[2] / "shared" / "data" / "treebanks"

WORD = "{}\tw{}\tw\tNOUN\tNN\t_\t{}\tdep\t_\t_"
SENTENCE = ("# sent_id = s1\n# text = don't go\n"
            "1-2\tdon't\t_\t_\t_\t_\t_\t_\t_\t_\n"
            "1\tdo\tdo\tAUX\tVBP\t_\t3\taux\t_\t_\n"
            "2\tn't\tnot\tPART\tRB\t_\t3\tadvmod\t_\t_\n"
            "3\tgo\tgo\tVERB\tVB\t_\t0\troot\t_\t_\n"
            "3.1\tgo\tgo\tVERB\tVB\t_\t_\t_\t3:conj\t_\n\n")


def write(tmp_path, text, name="t.conllu"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("name", ["en_ewt-ud-test", "pt_bosque-ud-dev"])
def test_a_treebank_is_written_back_byte_for_byte(name):
    path = TREEBANKS / f"{name}.conllu.gz"
    if not path.exists():
        pytest.skip(f"{path} is not on this machine")
    sentences = load_conllu(path)
    out = io.StringIO()
    write_conllu(sentences, out)
    assert out.getvalue() == gzip.decompress(path.read_bytes()).decode("utf-8")
    expected_words = {"en_ewt-ud-test": 25094, "pt_bosque-ud-dev": 28447}[name]
    assert sum(map(len, sentences)) == expected_words


def test_words_columns_heads_and_comments(tmp_path):
    sentence, = load_conllu(write(tmp_path, SENTENCE))
    assert len(sentence) == 3
    assert sentence.column("form") == ["do", "n't", "go"]  # no range, no empty node
    assert sentence.column("UPOS") == ["AUX", "PART", "VERB"]
    np.testing.assert_array_equal(sentence.heads, [3, 3, 0])
    assert sentence.heads.dtype == np.int64
    assert sentence.sent_id == "s1"
    assert sentence.comments == ("# sent_id = s1", "# text = don't go")


def test_replace_fills_words_only_and_writes_the_rest_untouched(tmp_path):
    sentence, = load_conllu(write(tmp_path, SENTENCE))
    parsed = sentence.replace(head=[2, 0, 2], deprel=["a", "root", "b"])
    out = io.StringIO()
    write_conllu([parsed], out)
    expected = (SENTENCE.replace("3\taux", "2\ta").replace("3\tadvmod", "0\troot")
                .replace("VB\t_\t0\troot\t_\t_\n3.1", "VB\t_\t2\tb\t_\t_\n3.1"))
    assert out.getvalue() == expected
    assert sentence.column("head") == ["3", "3", "0"]  # the original is unchanged


def test_gzip_is_read_and_written(tmp_path):
    sentences = load_conllu(write(tmp_path, SENTENCE))
    path = tmp_path / "out.conllu.gz"
    write_conllu(sentences, path)
    assert path.read_bytes()[:2] == b"\x1f\x8b"
    assert load_conllu(path) == sentences


def test_crlf_line_ends_and_a_missing_final_blank_line_are_read(tmp_path):
    sentences = load_conllu(write(tmp_path, SENTENCE.rstrip("\n").replace("\n", "\r\n")))
    assert sentences == load_conllu(write(tmp_path, SENTENCE, "b.conllu"))


@pytest.mark.parametrize("text, message", [
    ("", "no sentences"),
    ("\n\n", "no sentences"),
    ("# only a comment\n\n", "line 1: comment lines without a sentence"),
    ("1 dog dog NOUN NN _ 0 root _ _\n", ("line 1: 1 tab-separated field, a CoNLL-U "
                                           "token line has 10 (this looks like a "
                                           "whitespace-separated CoNLL column file")),
    (WORD.format(1, 1, 0) + "\t_\n", "line 1: 11 tab-separated fields"),
    (WORD.format(2, 2, 0) + "\n", "line 1: word ID 2 out of sequence; expected 1"),
    (WORD.format(1, 1, 0) + "\n" + WORD.format(1, 1, 1) + "\n",
     "line 2: word ID 1 out of sequence; expected 2"),
    (WORD.format(1, 1, 0) + "\n# late\n", "line 2: a comment line after the token lines"),
    (WORD.format(1, 1, 5) + "\n", "line 1: HEAD '5' names no word of this 1-word"),
    (WORD.format(1, 1, -1) + "\n", "line 1: HEAD '-1' names no word"),
    (WORD.format(1, 1, 1) + "\n", "line 1: word 1 is its own HEAD"),
    (WORD.format("x", 1, 0) + "\n", "line 1: ID 'x' is not a word number"),
    ("2-3\ta\t_\t_\t_\t_\t_\t_\t_\t_\n" + WORD.format(1, 1, 0) + "\n",
     "line 1: multiword token 2-3 must span the words that follow"),
    ("1-2\ta\t_\t_\t_\t_\t_\t_\t_\t_\n" + WORD.format(1, 1, 0) + "\n",
     "a multiword token ends at word 2, past the sentence's 1 words"),
    ("1.1\ta\t_\t_\t_\t_\t_\t_\t_\t_\n", "line 1: empty node 1.1 must follow word 1"),
    ("1.1\ta\t_\t_\t_\t_\t_\t_\t_\t_\n" + WORD.format(1, 1, 0) + "\n",
     "line 1: empty node 1.1 must follow word 1"),
    ("0.1\ta\t_\t_\t_\t_\t_\t_\t_\t_\n\n", "line 1: a sentence without a syntactic word"),
    ("1\tw\t\tNOUN\tNN\t_\t0\troot\t_\t_\n", "line 1: the LEMMA field is empty"),
])
def test_malformed_files_are_refused_with_file_and_line(tmp_path, text, message):
    path = write(tmp_path, text)
    with pytest.raises(ConlluFormatError) as error:
        load_conllu(path)
    assert str(path) in str(error.value)
    assert message in str(error.value)
    assert isinstance(error.value, ValueError)


def test_unreadable_files_say_why(tmp_path):
    with pytest.raises(ConlluFormatError, match="no such file"):
        load_conllu(tmp_path / "absent.conllu")
    (tmp_path / "bad.gz").write_bytes(b"\x1f\x8b garbage")
    with pytest.raises(ConlluFormatError, match="damaged gzip"):
        load_conllu(tmp_path / "bad.gz")
    (tmp_path / "latin.conllu").write_bytes(b"1\tcaf\xe9\t_\t_\t_\t_\t0\troot\t_\t_\n")
    with pytest.raises(ConlluFormatError, match="line 1: not utf-8 text"):
        load_conllu(tmp_path / "latin.conllu")


def test_a_sentence_without_heads_says_so_when_heads_are_asked_for(tmp_path):
    sentence, = load_conllu(write(tmp_path, "# sent_id = q7\n" + WORD.format(1, 1, "_")))
    assert sentence.column("head") == ["_"]
    with pytest.raises(ConlluFormatError, match=r"word 1 \('w1'\) of the sentence q7 has "
                                                r"no HEAD \('_'\)"):
        _ = sentence.heads


def test_replace_and_column_refuse_what_is_not_conllu(tmp_path):
    sentence, = load_conllu(write(tmp_path, SENTENCE))
    with pytest.raises(ValueError, match="unknown CoNLL-U column 'pos'"):
        sentence.column("pos")
    with pytest.raises(ValueError, match="upos: 2 values for a sentence of 3 words"):
        sentence.replace(upos=["A", "B"])
    with pytest.raises(ValueError, match="holds no tab"):
        sentence.replace(upos=["A", "B\tC", "D"])
    with pytest.raises(ValueError, match="not empty"):
        sentence.replace(upos=["A", "", "D"])
    with pytest.raises(ValueError, match="upos values are strings"):
        sentence.replace(upos=["A", 1, "D"])
    with pytest.raises(ValueError, match="head values are whole numbers"):
        sentence.replace(head=[1.5, 0, 1])
    with pytest.raises(ValueError, match="HEAD '7' names no word"):
        sentence.replace(head=[7, 0, 1])
    with pytest.raises(ValueError, match="head values are whole numbers"):
        sentence.replace(head=["2", "-1", "2"])  # numbers as column("head") gives them: only
    assert sentence.replace(head=sentence.column("head")) == sentence  # whole ones
    built = ConlluSentence.from_columns(sentence.column("form"), **{
        name: sentence.column(name) for name in COLUMNS[2:]})
    assert [built.column(name) for name in COLUMNS] == [
        sentence.column(name) for name in COLUMNS] and not built.comments
    with pytest.raises(ValueError, match="ID column cannot be replaced"):
        sentence.replace(id=["1", "2", "3"])
    with pytest.raises(ConlluFormatError, match="10 fields; got 3"):
        ConlluSentence([], [["1", "a", "b"]])
    with pytest.raises(TypeError, match="writes ConlluSentence objects; got list"):
        write_conllu([["1"]], io.StringIO())


def test_load_conll_still_reads_plain_column_files(tmp_path):
    path = write(tmp_path, "He PRP\nruns VBZ\n\n", "plain.txt")
    assert load_conll(path) == ([[("He",), ("runs",)]], [["PRP", "VBZ"]])
