"""``rosenblatt tag`` on CoNLL-U: UPOS (or the column named) learnt from FORM (or the
columns named), never from another gold column; ``tag predict`` writes the same file
with only that column filled; ``-`` reads standard input."""

import io
import pathlib
import sys

import pytest

from rosenblatt.cli import main
from rosenblatt.cli.tag import read_tag_file, train_tagger
from rosenblatt.datasets import load_conll, load_conllu, write_conllu
from rosenblatt.datasets._conllu import parse_conllu
from rosenblatt.io import load

TREEBANKS = pathlib.Path(__file__).resolve().parents[2] / "shared" / "data" / "treebanks"
SEQUENCES = pathlib.Path(__file__).resolve().parents[2] / "shared" / "data" / "sequences"


def line(ident, form, lemma, upos, xpos, head, deprel):
    return f"{ident}\t{form}\t{lemma}\t{upos}\t{xpos}\tNumber=Sing\t{head}\t{deprel}\t_\t_\n"


TRAIN = (
    "# sent_id = a\n# text = The dog barks.\n"
    + line(1, "The", "the", "DET", "DT", 2, "det") + line(2, "dog", "dog", "NOUN", "NN", 3, "nsubj")
    + line(3, "barks", "bark", "VERB", "VBZ", 0, "root") + line(4, ".", ".", "PUNCT", ".", 3, "punct")
    + "\n# sent_id = b\n"
    + "1-2\tcannot\t_\t_\t_\t_\t_\t_\t_\t_\n"
    + line(1, "can", "can", "AUX", "MD", 3, "aux") + line(2, "not", "not", "PART", "RB", 3, "advmod")
    + line(3, "bark", "bark", "VERB", "VB", 0, "root")
    + "3.1\tbark\tbark\tVERB\tVB\t_\t_\t_\t3:conj\t_\n\n"
    + "# sent_id = c\n"
    + line(1, "A", "a", "DET", "DT", 2, "det") + line(2, "cat", "cat", "NOUN", "NN", 3, "nsubj")
    + line(3, "sleeps", "sleep", "VERB", "VBZ", 0, "root") + "\n")


@pytest.fixture
def treebank(tmp_path):
    path = tmp_path / "train.conllu"
    path.write_text(TRAIN)
    return path


def blank(sentences, column):
    return [s.replace(**{column: ["_"] * len(s)}) for s in sentences]


def test_upos_is_learnt_from_form_only(treebank):
    data = read_tag_file(treebank)
    # the ID, the multiword token and the empty node are not words; no gold column leaks
    assert data.sentences[1] == [("can",), ("not",), ("bark",)]
    assert data.labels[1] == ["AUX", "PART", "VERB"]
    training = train_tagger(treebank, epochs=5, seed=0)
    assert training.tagger.features_.n_columns_ == 1
    assert training.n_tokens == 10 and training.accuracy == 1.0


def test_another_label_column_and_token_columns_by_name(treebank):
    data = read_tag_file(treebank, label_column="XPOS", token_columns=["form", "lemma"])
    assert data.sentences[0][2] == ("barks", "bark")
    assert data.labels[0] == ["DT", "NN", "VBZ", "."]


def test_predict_fills_only_the_label_column(treebank, tmp_path, capsys):
    model = tmp_path / "tagger.npz"
    assert main(["tag", "train", str(treebank), "-o", str(model), "--seed", "0"]) == 0
    capsys.readouterr()
    unlabelled = tmp_path / "words.conllu"
    write_conllu(blank(load_conllu(treebank), "upos"), unlabelled)
    assert main(["tag", "predict", str(model), str(unlabelled)]) == 0
    # the tagger learnt the training file: the output is the file itself, byte for byte
    assert capsys.readouterr().out == TRAIN
    out = tmp_path / "tagged.conllu"
    assert main(["tag", "predict", str(model), str(unlabelled), "-o", str(out)]) == 0
    assert capsys.readouterr().out == f"wrote {out} (3 sentences, 10 tokens)\n"
    assert out.read_text() == TRAIN
    assert main(["tag", "evaluate", str(model), str(treebank)]) == 0
    assert capsys.readouterr().out.startswith("accuracy   1.0000  (10 tokens, 3 sentences)")


def test_predict_with_marginals_writes_them_in_misc(treebank, tmp_path, capsys):
    model = tmp_path / "tagger.npz"
    assert main(["tag", "train", str(treebank), "-o", str(model), "--seed", "0"]) == 0
    capsys.readouterr()
    unlabelled = tmp_path / "words.conllu"
    sentences = blank(load_conllu(treebank), "upos")
    sentences[0] = sentences[0].replace(misc=["_", "SpaceAfter=No", "_", "_"])
    write_conllu(sentences, unlabelled)
    assert main(["tag", "predict", str(model), str(unlabelled), "--marginals"]) == 0
    tagged = parse_conllu(capsys.readouterr().out, "output")
    tagger = load(model)
    words = [s.column("form") for s in sentences]
    probabilities = [[token[label] for token, label in zip(tokens, labels)] for tokens, labels
                     in zip(tagger.predict_marginals([[(w,) for w in s] for s in words]),
                            tagger.predict([[(w,) for w in s] for s in words]))]
    assert tagged[0].column("misc")[:2] == [f"Marginal={probabilities[0][0]:.4f}",
                                            f"SpaceAfter=No|Marginal={probabilities[0][1]:.4f}"]
    # everything else as without --marginals: the labels filled, the rest untouched
    assert [s.replace(misc=["_"] * len(s)) for s in tagged] == [
        s.replace(misc=["_"] * len(s)) for s in load_conllu(treebank)]


def test_predict_reads_standard_input(treebank, tmp_path, capsys, monkeypatch):
    model = tmp_path / "tagger.npz"
    assert main(["tag", "train", str(treebank), "-o", str(model), "--seed", "0",
                 "--label-column", "xpos", "--token-columns", "form,lemma"]) == 0
    capsys.readouterr()
    text = io.StringIO()
    write_conllu(blank(load_conllu(treebank), "xpos"), text)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.getvalue().encode())))
    assert main(["tag", "predict", str(model), "-", "--label-column", "xpos",
                 "--token-columns", "form,lemma"]) == 0
    assert capsys.readouterr().out == TRAIN
    # a plain CoNLL file on standard input too
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"the DT\ncat NN\n")))
    plain = tmp_path / "plain.npz"
    assert main(["tag", "train", "-", "-o", str(plain), "--seed", "0"]) == 0
    assert isinstance(load(plain).predict([[("the",)]]), list)


@pytest.mark.parametrize("options, message", [
    (["--label-column", "pos"], "--label-column 'pos' is not a CoNLL-U column; name one of "
                                "form, lemma, upos"),
    (["--label-column", "3"], "--label-column '3' is not a CoNLL-U column"),
    (["--token-columns", "form,upos"], "the label column UPOS is also a token column"),
    (["--token-columns", "form,form"], "--token-columns names a column twice"),
    (["--token-columns", "word"], "--token-columns 'word' is not a CoNLL-U column"),
    (["--label-column", "deps"], "no word has a DEPS ('_' everywhere)"),
])
def test_bad_columns_are_one_line_and_exit_code_2(treebank, tmp_path, capsys, options,
                                                  message):
    code = main(["tag", "train", str(treebank), "-o", str(tmp_path / "m.npz"), *options])
    err = capsys.readouterr().err
    assert code == 2 and message in err and err.count("\n") == 1


def test_conll_files_keep_their_numbers_and_refuse_names(tmp_path, capsys):
    path = tmp_path / "plain.txt"
    path.write_text("the DT\ncat NN\n")
    code = main(["tag", "train", str(path), "-o", str(tmp_path / "m.npz"), "--label-column",
                 "upos"])
    assert code == 2 and "a CoNLL column file's --label-column is a column number" in (
        capsys.readouterr().err)
    code = main(["tag", "train", str(path), "-o", str(tmp_path / "m.npz"), "--token-columns",
                 "form"])
    assert code == 2 and "--token-columns names CoNLL-U columns" in capsys.readouterr().err


def test_a_tagger_trained_on_two_columns_refuses_one(treebank, tmp_path, capsys):
    model = tmp_path / "tagger.npz"
    assert main(["tag", "train", str(treebank), "-o", str(model), "--token-columns",
                 "form,lemma"]) == 0
    capsys.readouterr()
    assert main(["tag", "predict", str(model), str(treebank)]) == 2
    assert ("tokens of 1 CoNLL-U column (--token-columns); the tagger reads tokens of 2: "
            "give --token-columns as at training") in capsys.readouterr().err


def test_format_is_found_by_content_and_can_be_forced(treebank, tmp_path):
    renamed = tmp_path / "train.txt"
    renamed.write_text(TRAIN)
    assert read_tag_file(renamed).labels == read_tag_file(treebank).labels
    plain = tmp_path / "x.txt"
    plain.write_text("a B\n")
    with pytest.raises(ValueError, match="line 1: 1 tab-separated field"):
        read_tag_file(plain, data_format="conllu")


def test_ewt_from_conllu_reads_the_words_and_tags_of_the_column_files():
    conllu = TREEBANKS / "en_ewt-ud-test.conllu.gz"
    column = SEQUENCES / "en_ewt-upos-test.txt"
    if not (conllu.exists() and column.exists()):
        pytest.skip("the EWT files are not on this machine")
    data = read_tag_file(conllu)
    sentences, labels = load_conll(column)
    assert data.sentences == sentences and data.labels == labels
