"""``rosenblatt tag``: train, evaluate and predict on CoNLL files; bad input ends in
one line on stderr and exit code 2."""

import pathlib
import subprocess
import sys

import pytest

from rosenblatt.cli import main
from rosenblatt.cli.tag import tag_file
from rosenblatt.datasets import load_conll
from rosenblatt.io import load, save
from rosenblatt.structured import SequenceTagger

SEQUENCES = pathlib.Path(__file__).resolve().parents[2] / "shared" / "data" / "sequences"

TRAIN = """\
-DOCSTART- -X- O

The DT B-NP
dog NN I-NP
barks VBZ B-VP
loudly RB B-ADVP

A DT B-NP
cat NN I-NP
sleeps VBZ B-VP

The DT B-NP
old JJ I-NP
cat NN I-NP
sleeps VBZ B-VP
here RB B-ADVP

Dogs NNS B-NP
bark VBP B-VP
"""

TEST = """\
A DT B-NP
dog NN I-NP
sleeps VBZ B-VP

Cats NNS B-NP
bark VBP B-VP
loudly RB B-ADVP
"""


@pytest.fixture
def files(tmp_path):
    (tmp_path / "train.txt").write_text(TRAIN)
    (tmp_path / "test.txt").write_text(TEST)
    return tmp_path


def summary(out):
    return dict(line.split(None, 1) for line in out.splitlines() if line.strip())


def trained(files, capsys, *options):
    model = files / "tagger.npz"
    assert main(["tag", "train", str(files / "train.txt"), "-o", str(model), "--seed", "0",
                 *options]) == 0
    return model, summary(capsys.readouterr().out)


def test_train_evaluate_predict(files, capsys):
    model, lines = trained(files, capsys, "--epochs", "5")
    assert lines["tagger"] == f"SequencePerceptron -> {model}"
    assert lines["sentences"] == "4   tokens 14"
    assert lines["labels"] == "4: B-ADVP, B-NP, B-VP, I-NP"
    assert lines["features"].split()[0] == str(load(model).features_.n_features_)
    assert lines["epochs"].split()[0] in {str(n) for n in range(1, 6)}
    assert lines["accuracy"].startswith("1.0000")
    assert "shards" not in lines
    assert isinstance(load(model), SequenceTagger)

    assert main(["tag", "evaluate", str(model), str(files / "test.txt")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("accuracy   ") and "(6 tokens, 2 sentences)" in out
    assert "processed 6 tokens with 5 phrases" in out  # conlleval's table: chunk tags
    assert "NP: precision:" in out

    assert main(["tag", "predict", str(model), str(files / "test.txt")]) == 0
    out = capsys.readouterr().out
    blocks = out.split("\n\n")
    assert [len(block.splitlines()) for block in blocks if block] == [3, 3]
    assert out.endswith("\n\n")
    first = out.splitlines()[0].split()
    assert first[:3] == ["A", "DT", "B-NP"] and len(first) == 4  # the input, then the guess
    loaded = load(model)
    sentences, _ = load_conll(files / "test.txt")
    guesses = [line.split()[-1] for line in out.splitlines() if line]
    assert guesses == sum(loaded.predict(sentences), [])


def test_predict_writes_a_file_and_reads_a_file_without_labels(files, capsys):
    model, _ = trained(files, capsys)
    unlabelled = files / "words.txt"
    unlabelled.write_text("".join(" ".join(line.split()[:2]) + "\n" if line.strip() else "\n"
                                  for line in TEST.splitlines()))
    out_file = files / "tagged.txt"
    assert main(["tag", "predict", str(model), str(unlabelled), "-o", str(out_file)]) == 0
    assert capsys.readouterr().out == f"wrote {out_file} (2 sentences, 6 tokens)\n"
    rows = [line.split() for line in out_file.read_text().splitlines()]
    assert [len(row) for row in rows] == [3, 3, 3, 0, 3, 3, 3, 0]  # word, POS, guess
    labelled = tag_file(model, files / "test.txt")[1]
    assert [row[-1] for row in rows if row] == sum(labelled, [])
    assert main(["tag", "predict", str(model), str(unlabelled), "--no-labels"]) == 0
    assert capsys.readouterr().out == out_file.read_text()


def test_predict_with_marginals_adds_each_labels_probability(files, capsys):
    model, _ = trained(files, capsys, "--epochs", "5")
    assert main(["tag", "predict", str(model), str(files / "test.txt"), "--marginals"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines() if line]
    sentences, _ = load_conll(files / "test.txt")
    tagger = load(model)
    expected = [(label, token[label]) for labels, tokens in
                zip(tagger.predict(sentences), tagger.predict_marginals(sentences))
                for label, token in zip(labels, tokens)]
    assert [(row[-2], float(row[-1])) for row in rows] == [
        (label, round(p, 4)) for label, p in expected]
    assert all(0.0 < float(row[-1]) <= 1.0 for row in rows) and len(rows[0]) == 5


def test_train_on_shards_says_so(files, capsys):
    _, lines = trained(files, capsys, "--shards", "2", "--epochs", "3")
    assert lines["shards"].startswith("2 on threads")


def test_train_with_a_template_and_hashing(files, capsys):
    model, lines = trained(files, capsys, "--template", "bias, word, suffix2, col1",
                           "--hash", "256")
    assert lines["features"].startswith("256 (hashed; template of 4 entries")
    tagger = load(model)
    assert tagger.features_.template_ == ["bias", "word", "suffix2", "col1"]
    assert tagger.features_.vocabulary_ is None


def test_train_with_a_minimum_count_keeps_the_frequent_strings(files, capsys):
    model, every = trained(files, capsys)
    model, lines = trained(files, capsys, "--min-count", "2")
    kept = load(model).features_
    assert lines["features"].startswith(f"{kept.n_features_} (seen in training on 2+ tokens")
    assert 0 < kept.n_features_ < int(every["features"].split()[0])
    assert kept.min_count == 2 and "bias=1" in kept.vocabulary_


def test_a_label_column_elsewhere(files, capsys):
    swapped = files / "swapped.txt"
    swapped.write_text("".join(" ".join(reversed(line.split())) + "\n" if line.strip()
                               else "\n" for line in TRAIN.splitlines()[2:]))
    model = files / "swapped.npz"
    assert main(["tag", "train", str(swapped), "-o", str(model), "--label-column", "0"]) == 0
    assert "labels     4: B-ADVP, B-NP, B-VP, I-NP" in capsys.readouterr().out
    assert main(["tag", "evaluate", str(model), str(swapped), "--label-column", "0"]) == 0


def test_labels_that_are_not_chunks_get_no_conlleval_table(files, capsys):
    pos = files / "pos.txt"
    pos.write_text("The DT\ndog NN\n\nA DT\ncat NN\n")
    model = files / "pos.npz"
    assert main(["tag", "train", str(pos), "-o", str(model)]) == 0
    capsys.readouterr()
    assert main(["tag", "evaluate", str(model), str(pos)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("accuracy   1.0000") and "phrases" not in out


@pytest.mark.parametrize("argv, message", [
    (["tag", "train", "{empty}", "-o", "{out}"], "empty.txt: no tokens"),
    (["tag", "train", "{ragged}", "-o", "{out}"], "ragged.txt, line 3: 2 columns, expected 3"),
    (["tag", "train", "{missing}", "-o", "{out}"], "missing.txt: no such file"),
    (["tag", "train", "{train}", "-o", "{folder}/no/such.npz"], "does not exist"),
    (["tag", "train", "{train}", "-o", "{out}", "--template", "word,col9"],
     "reads column 9"),
    (["tag", "train", "{train}", "-o", "{out}", "--template", "word,shape"],
     "Unknown template entry 'shape'"),
    (["tag", "train", "{train}", "-o", "{out}", "--label-column", "5"], "out of range"),
    (["tag", "train", "{train}", "-o", "{out}", "--epochs", "0"], "expected a whole number"),
    (["tag", "train", "{train}", "-o", "{out}", "--min-count", "0"], "expected a whole number"),
    (["tag", "train", "{train}", "-o", "{out}", "--min-count", "2", "--hash", "64"],
     "use one or the other"),
    (["tag", "train", "{train}"], "required: -o/--output"),
    (["tag"], "required: ACTION"),
    (["tag", "evaluate", "{perceptron}", "{test}"], "a Perceptron model, not a tagger"),
    (["tag", "predict", "{perceptron}", "{test}"], "a Perceptron model, not a tagger"),
    (["tag", "evaluate", "{train}", "{test}"], "not a readable model file"),
    (["tag", "evaluate", "{tagger}", "{words}"],
     "words.txt: lines of 2 columns; the tagger reads tokens of 2 columns"),
    (["tag", "predict", "{tagger}", "{test}", "--no-labels"],
     "test.txt: lines of 3 columns; the tagger reads tokens of 2 columns"),
    (["tag", "predict", "{tagger}", "{wide}"], "lines of 4 columns"),
    (["tag", "predict", "{tagger}", "{empty}"], "empty.txt: no tokens"),
    (["tag", "predict", "{tagger}", "{test}", "-o", "{folder}"], "a folder"),
])
def test_bad_input_exits_2_with_one_line(argv, message, files, capsys):
    from rosenblatt import Perceptron

    (files / "empty.txt").write_text("")
    (files / "ragged.txt").write_text("The DT B-NP\ndog NN I-NP\nbarks B-VP\n")
    (files / "words.txt").write_text("The DT\ndog NN\n")
    (files / "wide.txt").write_text("The DT x B-NP\n")
    save(Perceptron().fit([[0.0], [1.0]], [0, 1]), files / "perceptron.npz")
    tagger = files / "tagger.npz"
    if "{tagger}" in argv:
        assert main(["tag", "train", str(files / "train.txt"), "-o", str(tagger),
                     "--epochs", "1"]) == 0
        capsys.readouterr()
    names = {name: files / f"{name}.{suffix}" for name, suffix in [
        ("empty", "txt"), ("ragged", "txt"), ("missing", "txt"), ("train", "txt"),
        ("test", "txt"), ("words", "txt"), ("wide", "txt"), ("perceptron", "npz"),
        ("tagger", "npz"), ("out", "npz")]}
    argv = [arg.format(folder=files, **names) for arg in argv]
    assert main(argv) == 2
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1 and message in lines[0], captured.err
    assert lines[0].startswith("rosenblatt tag") and "Traceback" not in captured.err


def test_help_of_each_action(capsys):
    for argv in (["tag", "--help"], ["tag", "train", "--help"], ["tag", "evaluate", "--help"],
                 ["tag", "predict", "--help"]):
        assert main(argv) == 0
        assert "usage: rosenblatt tag" in capsys.readouterr().out


def test_a_closed_pipe_exits_quietly(files, capsys):
    model, _ = trained(files, capsys)
    big = files / "big.txt"
    big.write_text(TEST * 5000)
    process = subprocess.run(
        f"{sys.executable} -m rosenblatt tag predict {model} {big} | head -1",
        shell=True, capture_output=True, text=True, executable="/bin/bash")
    assert process.stdout == "A DT B-NP B-NP\n" or process.stdout.startswith("A DT B-NP ")
    assert process.stderr == ""


@pytest.mark.skipif(not (SEQUENCES / "conll2000-train.txt").exists(),
                    reason="CoNLL-2000 is not in ../shared/data/sequences")
def test_conll2000_in_two_epochs(tmp_path, capsys):
    model = tmp_path / "chunker.npz"
    assert main(["tag", "train", str(SEQUENCES / "conll2000-train.txt"), "-o", str(model),
                 "--epochs", "2", "--seed", "0"]) == 0
    lines = summary(capsys.readouterr().out)
    assert lines["sentences"] == "8,936   tokens 211,727"
    assert lines["labels"].startswith("22: ")
    assert main(["tag", "evaluate", str(model), str(SEQUENCES / "conll2000-test.txt")]) == 0
    out = capsys.readouterr().out
    f1 = float(out.split("FB1:")[1].split()[0])
    assert float(out.split()[1]) > 0.94 and f1 > 91.0
