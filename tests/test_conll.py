"""load_conll on every sequence corpus of shared/data (the counts its README gives)
and on small files that show each rule and each error."""

import gzip
import re

import pytest

from rosenblatt.datasets._conll import ConllFormatError, load_conll


def readme_table(folder):
    """{file: (sentences, tokens, tags)} from the README's table of files."""
    text = (folder / "README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([^`]+)` \| ([\d,]+) \| ([\d,]+) \| (\d+)", text, re.MULTILINE)
    return {name: tuple(int(value.replace(",", "")) for value in values)
            for name, *values in rows}


@pytest.fixture(scope="module")
def sequences(shared_data):
    folder = shared_data / "sequences"
    if not (folder / "README.md").is_file():
        pytest.skip(f"{folder} is absent (the sequence corpora are not in this checkout)")
    return folder


def test_every_corpus_reads_as_its_readme_counts(sequences):
    table = readme_table(sequences)
    assert len(table) == 19  # the table was read, not skipped
    for name, (n_sentences, n_tokens, n_tags) in table.items():
        path = sequences / name
        if not path.exists():
            continue
        sentences, labels = load_conll(path)
        assert len(sentences) == len(labels) == n_sentences, name
        assert sum(map(len, sentences)) == n_tokens, name
        assert [len(s) for s in sentences] == [len(tags) for tags in labels], name
        assert len({tag for tags in labels for tag in tags}) == n_tags, name
        # POS files: the word; chunking and NER files: the word and its POS tag
        width = 2 if name.startswith(("conll2000", "conll2002")) else 1
        assert {len(token) for sentence in sentences for token in sentence} == {width}, name
        if width == 2:  # IOB2 chunk or entity tags
            assert all(re.fullmatch(r"O|[BI]-[A-Z]+", tag) for tags in labels for tag in tags)


def test_the_first_lines_of_conll2000(sequences):
    path = sequences / "conll2000-train.txt"
    if not path.exists():
        pytest.skip(f"{path} is absent")
    sentences, labels = load_conll(path)
    assert sentences[0][:3] == [("Confidence", "NN"), ("in", "IN"), ("the", "DT")]
    assert labels[0][:3] == ["B-NP", "B-PP", "B-NP"]
    words, _ = load_conll(path, columns=[0])
    assert words[0][:2] == [("Confidence",), ("in",)]


def write(tmp_path, text, name="data.txt", binary=False):
    path = tmp_path / name
    if binary:
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8", newline="")
    return path


def test_blank_lines_docstart_and_the_last_sentence(tmp_path):
    path = write(tmp_path, "-DOCSTART- -X- -X- O\n\nEU NNP B-ORG\nrejects VBZ O\n\n\n\n"
                           "-DOCSTART- -X- -X- O\nPeter NNP B-PER\n")  # no blank line at the end
    sentences, labels = load_conll(path)
    assert sentences == [[("EU", "NNP"), ("rejects", "VBZ")], [("Peter", "NNP")]]
    assert labels == [["B-ORG", "O"], ["B-PER"]]


def test_tabs_crlf_and_runs_of_spaces_separate_columns(tmp_path):
    path = write(tmp_path, "a\tDT  O\r\nb \t NN B-NP\r\n\r\n")
    assert load_conll(path) == ([[("a", "DT"), ("b", "NN")]], [["O", "B-NP"]])


def test_unicode_spaces_stay_inside_tokens_and_a_bom_is_dropped(tmp_path):
    path = write(tmp_path, "\ufeff10\u00a0000 CD O\ncafé NN O\n")
    sentences, _ = load_conll(path)
    assert sentences == [[("10\u00a0000", "CD"), ("café", "NN")]]


def test_columns_and_label_column(tmp_path):
    path = write(tmp_path, "B-NP He PRP\nB-VP reckons VBZ\n")
    sentences, labels = load_conll(path, label_column=0)
    assert sentences == [[("He", "PRP"), ("reckons", "VBZ")]] and labels == [["B-NP", "B-VP"]]
    sentences, labels = load_conll(path, columns=[-1, 1], label_column=0)
    assert sentences == [[("PRP", "He"), ("VBZ", "reckons")]]
    sentences, labels = load_conll(path, label_column=None)
    assert labels is None and sentences[0][0] == ("B-NP", "He", "PRP")


def test_gzip_is_recognised_by_its_bytes(tmp_path):
    text = "He PRP B-NP\n\nOK UH O\n"
    expected = load_conll(write(tmp_path, text))
    assert load_conll(write(tmp_path, gzip.compress(text.encode()), "a.gz", True)) == expected
    assert load_conll(write(tmp_path, gzip.compress(text.encode()), "a.txt", True)) == expected
    assert load_conll(write(tmp_path, text, "plain.gz")) == expected


def test_another_encoding(tmp_path):
    path = write(tmp_path, "caf\xe9 NN O\n".encode("latin-1"), binary=True)
    assert load_conll(path, encoding="latin-1")[0] == [[("café", "NN")]]


@pytest.mark.parametrize("content, message", [
    (b"He PRP B-NP\nreckons B-VP\n", r"data\.txt, line 2: 2 columns, expected 3 \(as on line 1\)"),
    (b"\n-DOCSTART- O\nHe PRP B-NP\n\na b\n", r"line 5: 2 columns, expected 3 \(as on line 3\)"),
    (b"a b c\nd e f g\n", r"line 2: 4 columns, expected 3"),
    (b"", r"data\.txt: no tokens"),
    (b"\n\n-DOCSTART- -X- O\n\n", r"no tokens"),
    (b"a NN O\n\nb NN O\ncaf\xe9 NN O\n", r"data\.txt, line 4: not utf-8 text \(byte 0xe9"),
    (b"lonely\nwords\n", r"line 1: 1 column, the label"),
    (b"\x1f\x8bnot really gzip", r"data\.txt: a damaged gzip file"),
])
def test_file_errors_name_the_file_and_line(tmp_path, content, message):
    path = write(tmp_path, content, binary=True)
    with pytest.raises(ConllFormatError, match=message) as error:
        load_conll(path)
    assert isinstance(error.value, ValueError)


def test_argument_errors(tmp_path):
    path = write(tmp_path, "He PRP B-NP\n")
    with pytest.raises(ValueError, match="label_column 3 is out of range for lines of 3"):
        load_conll(path, label_column=3)
    with pytest.raises(ValueError, match="columns -4 is out of range"):
        load_conll(path, columns=[-4])
    with pytest.raises(ValueError, match="whole numbers"):
        load_conll(path, columns=["word"])
    with pytest.raises(ValueError, match="sequence of column indices"):
        load_conll(path, columns=0)
    with pytest.raises(ConllFormatError, match="no such file"):
        load_conll(tmp_path / "missing.txt")
    with pytest.raises(ValueError, match="unknown encoding"):
        load_conll(path, encoding="no-such-codec")
