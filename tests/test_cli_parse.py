"""``rosenblatt parse``: train, evaluate and predict on CoNLL-U treebanks; the output
is the input with HEAD and DEPREL filled; bad input is one line and exit code 2."""

import io
import sys

import numpy as np
import pytest

from rosenblatt.cli import main
from rosenblatt.cli.parse import evaluate_parser, parse_file, train_parser
from rosenblatt.datasets import load_conllu, write_conllu
from rosenblatt.io import load, save
from rosenblatt.linear_model import Perceptron
from rosenblatt.structured import DependencyParser


def line(ident, form, upos, head, deprel):
    return f"{ident}\t{form}\t{form.lower()}\t{upos}\t{upos}\t_\t{head}\t{deprel}\t_\t_\n"


TREEBANK = (
    "# sent_id = a\n# text = The dog barks.\n"
    + line(1, "The", "DET", 2, "det") + line(2, "dog", "NOUN", 3, "nsubj")
    + line(3, "barks", "VERB", 0, "root") + line(4, ".", "PUNCT", 3, "punct")
    + "\n# sent_id = b\n"
    + "1-2\tcannot\t_\t_\t_\t_\t_\t_\t_\t_\n"
    + line(1, "can", "AUX", 3, "aux") + line(2, "not", "PART", 3, "advmod")
    + line(3, "bark", "VERB", 0, "root")
    + "3.1\tbark\tbark\tVERB\tVB\t_\t_\t_\t3:conj\t_\n\n"
    + "# sent_id = c\n"
    + line(1, "A", "DET", 2, "det") + line(2, "cat", "NOUN", 3, "nsubj")
    + line(3, "sleeps", "VERB", 0, "root") + line(4, "here", "ADV", 3, "advmod") + "\n")


@pytest.fixture
def treebank(tmp_path):
    path = tmp_path / "train.conllu"
    path.write_text(TREEBANK)
    return path


def unparsed(sentences):
    return [s.replace(head=["_"] * len(s), deprel=["_"] * len(s)) for s in sentences]


def summary(out):
    return dict(line.split(None, 1) for line in out.splitlines() if line.strip())


def test_train_evaluate_predict(treebank, tmp_path, capsys):
    model = tmp_path / "parser.npz"
    assert main(["parse", "train", str(treebank), "-o", str(model), "--seed", "0"]) == 0
    lines = summary(capsys.readouterr().out)
    assert lines["parser"] == f"DependencyParser (grandparent) -> {model}"
    assert lines["sentences"].split() == ["3", "words", "11", "non-projective", "0", "(0.0",
                                          "%)"]
    assert lines["relations"] == "6: advmod, aux, det, nsubj, punct, root"
    assert isinstance(load(model), DependencyParser)

    assert main(["parse", "evaluate", str(model), str(treebank)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("UAS        100.00  (11 words, 3 sentences")
    assert out[1].startswith("LAS        100.00")
    table = {row.split()[0]: row.split()[1:] for row in out[4:]}
    assert table["advmod"] == ["2", "2", "2", "100.00", "100.00", "100.00"]

    # the parser learnt its treebank: parsing the file without its trees gives it back
    words = tmp_path / "words.conllu"
    write_conllu(unparsed(load_conllu(treebank)), words)
    assert main(["parse", "predict", str(model), str(words)]) == 0
    assert capsys.readouterr().out == TREEBANK
    out = tmp_path / "parsed.conllu.gz"
    assert main(["parse", "predict", str(model), str(words), "-o", str(out)]) == 0
    assert capsys.readouterr().out == f"wrote {out} (3 sentences, 11 words)\n"
    assert load_conllu(out) == load_conllu(treebank)


def test_predict_reads_standard_input(treebank, tmp_path, capsys, monkeypatch):
    model = tmp_path / "parser.npz"
    save(train_parser(treebank, epochs=10, seed=0).parser, model)
    text = io.StringIO()
    write_conllu(unparsed(load_conllu(treebank)), text)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.getvalue().encode())))
    assert main(["parse", "predict", str(model), "-"]) == 0
    assert capsys.readouterr().out == TREEBANK


def test_shards_train_by_parameter_mixing(treebank, tmp_path, capsys):
    model = tmp_path / "parser.npz"
    assert main(["parse", "train", str(treebank), "-o", str(model), "--seed", "0",
                 "--shards", "2", "--decoder", "chu-liu-edmonds"]) == 0
    lines = summary(capsys.readouterr().out)
    assert lines["shards"].startswith("2 on threads")
    assert lines["parser"] == f"DependencyParser (chu-liu-edmonds) -> {model}"
    parser = load(model)
    assert isinstance(parser, DependencyParser) and parser.decoder == "chu-liu-edmonds"


def test_the_functions_agree_with_the_estimator(treebank):
    training = train_parser(treebank, epochs=3, seed=0)
    parsed = parse_file(training.parser, treebank)
    assert parsed == training.parser.predict(load_conllu(treebank))
    report = evaluate_parser(training.parser, treebank)
    assert report.predicted == parsed


@pytest.mark.parametrize("command, message", [
    (["parse", "predict", "{classifier}", "{treebank}"],
     "a Perceptron model, not a dependency parser; 'rosenblatt parse train' makes one"),
    (["predict", "{parser}", "{csv}"],
     "a DependencyParser model, which parses sentences: use 'rosenblatt parse predict'"),
    (["evaluate", "{parser}", "{csv}"],
     "a DependencyParser model, which parses sentences: use 'rosenblatt parse evaluate'"),
    (["tag", "predict", "{parser}", "{treebank}"],
     "a DependencyParser model, not a tagger"),
    (["parse", "train", "{plain}", "-o", "{out}"],
     "this looks like a whitespace-separated CoNLL column file"),
    (["parse", "train", "{unparsed}", "-o", "{out}"], "has no HEAD ('_')"),
    (["parse", "evaluate", "{parser}", "{unparsed}"], "has no HEAD ('_')"),
    (["parse", "train", "{missing}", "-o", "{out}"], "no such file"),
])
def test_wrong_files_are_one_line_and_exit_code_2(treebank, tmp_path, capsys, command,
                                                  message):
    files = {"treebank": treebank, "out": tmp_path / "out.npz",
             "classifier": tmp_path / "perceptron.npz", "parser": tmp_path / "parser.npz",
             "csv": tmp_path / "rows.csv", "plain": tmp_path / "plain.txt",
             "unparsed": tmp_path / "unparsed.conllu", "missing": tmp_path / "absent.conllu"}
    save(Perceptron().fit(np.array([[0.0, 1], [1, 0]]), [0, 1]), files["classifier"])
    save(train_parser(treebank, epochs=1, seed=0).parser, files["parser"])
    files["csv"].write_text("x1,x2,y\n0,1,0\n1,0,1\n")
    files["plain"].write_text("The DT B-NP\ndog NN I-NP\n")
    write_conllu(unparsed(load_conllu(treebank)), files["unparsed"])
    capsys.readouterr()
    code = main([part.format(**files) for part in command])
    err = capsys.readouterr().err
    assert code == 2, err
    assert message in err and err.count("\n") == 1
