"""``rosenblatt tag``: train a sequence tagger on a CoNLL or CoNLL-U file, evaluate it,
tag a file.

``tag train`` reads a CoNLL column file (a token per line, its columns separated
by whitespace, the label last; a blank line between sentences) or a CoNLL-U file
(``.conllu[.gz]``, or found by its content: the label a column named by
``--label-column``, UPOS by default, the tokens FORM, or the columns named by
``--token-columns``: never another gold column unless asked), turns the tokens
into features (:class:`~rosenblatt.structured.SentenceFeatures`), trains the
averaged structured perceptron (:class:`~rosenblatt.structured.SequencePerceptron`,
on shards of the sentences with ``--shards``) and saves both as one
:class:`~rosenblatt.structured.SequenceTagger` file. ``tag evaluate`` prints the
token accuracy and, for chunk tags (``B-``, ``I-``, ``E-``, ``S-``, ``O``), conlleval's
table; ``tag predict`` writes the file's columns with the predicted label added
(CoNLL) or the same CoNLL-U with only the label column filled. ``-`` for a file
reads standard input.
"""

import argparse
import pathlib
import re
import sys
from dataclasses import dataclass

from ..datasets._conll import _text as file_text
from ..datasets._conll import parse_conll
from ..datasets._conllu import COLUMNS, looks_like_conllu, parse_conllu, write_conllu
from ..io import save
from ..structured import (
    SentenceFeatures,
    SequencePerceptron,
    SequenceTagger,
    conlleval_report,
    token_accuracy,
)
from ._common import check_output, load_model_of, positive_whole_number

#: chunk tags as conlleval reads them: a prefix, a hyphen and a type, or O
_CHUNK_TAG = re.compile(r"^(?:[BIES]-.+|O)$")


@dataclass(frozen=True)
class TagTraining:
    """A trained tagger, with what the command prints about it."""

    tagger: SequenceTagger
    n_sentences: int
    n_tokens: int
    accuracy: float

    def lines(self, output):
        tagger = self.tagger
        model, features = tagger.model_, tagger.features_
        inner = getattr(model, "estimator_", model)
        labels = tagger.classes_.tolist()
        shown = ", ".join(labels[:8]) + (", ..." if len(labels) > 8 else "")
        vocabulary = "hashed" if features.vocabulary_ is None else "seen in training"
        if features.min_count > 1:
            vocabulary += f" on {features.min_count}+ tokens"
        lines = [f"tagger     {type(inner).__name__} -> {output}",
                 f"sentences  {self.n_sentences:,}   tokens {self.n_tokens:,}",
                 f"labels     {len(labels)}: {shown}",
                 f"features   {features.n_features_:,} ({vocabulary}; template of "
                 f"{len(features.template_)} entries on tokens of {features.n_columns_} "
                 f"column{'s' * (features.n_columns_ != 1)})",
                 f"epochs     {model.n_iter_}   updates {model.n_updates_:,}   "
                 f"converged {model.converged_}"]
        if hasattr(model, "n_shards_"):
            lines.append(f"shards     {model.n_shards_} on {model.backend_} (iterative "
                         "parameter mixing of whole sentences)")
        lines.append(f"accuracy   {self.accuracy:.4f} (tokens of the training file)")
        return lines


@dataclass(frozen=True)
class TagFile:
    """A CoNLL or CoNLL-U file read for a tagger: its tokens, its labels (or None)
    and what is needed to write it back with predicted labels."""

    name: str
    sentences: list
    labels: list
    rows: list = None  # CoNLL: every column of every line
    conllu: list = None  # CoNLL-U: the sentences, to fill one column of
    label_column: object = None

    @property
    def n_tokens(self):
        return sum(map(len, self.sentences))

    def write(self, predicted, stream, marginals=None):
        """Write the file with the predicted labels; with ``marginals`` (one
        probability per token), each label's probability too: a last column of a
        CoNLL file, ``Marginal=p`` in a CoNLL-U word's MISC."""
        if self.conllu is None:
            write_conll(self.rows, predicted, stream, marginals)
            return
        sentences = []
        for k, (sentence, labels) in enumerate(zip(self.conllu, predicted)):
            columns = {self.label_column: labels}
            if marginals is not None:
                columns["misc"] = [_with_marginal(misc, p) for misc, p in
                                   zip(sentence.column("misc"), marginals[k])]
            sentences.append(sentence.replace(**columns))
        write_conllu(sentences, stream)


def _with_marginal(misc, probability):
    """A CoNLL-U MISC field with ``Marginal=p`` added (in place of an old one).

    >>> _with_marginal("_", 0.98765), _with_marginal("SpaceAfter=No|Marginal=0.1", 1.0)
    ('Marginal=0.9877', 'SpaceAfter=No|Marginal=1.0000')
    """
    kept = [item for item in misc.split("|") if item != "_" and
            not item.startswith("Marginal=")]
    return "|".join([*kept, f"Marginal={probability:.4f}"])


def read_tag_file(path, *, labelled=True, label_column=None, token_columns=None,
                  data_format="auto"):
    """Read ``path`` (``-``: standard input) as a :class:`TagFile`.

    ``data_format`` is "conll", "conllu" or "auto" (CoNLL-U for a ``.conllu`` or
    ``.conllu.gz`` name, or when the content reads as CoNLL-U). For CoNLL-U,
    ``label_column`` names the column to learn or predict (default "upos") and
    ``token_columns`` the columns a token is made of (default: FORM only); for
    CoNLL, ``label_column`` is an index (default -1) and every other column is part
    of a token. ``labelled=False`` reads a CoNLL file without a label column;
    ``None`` decides later by the width of its lines (:func:`tag_file`).

    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "one.conllu"
    >>> _ = path.write_text("# sent_id = 1\\n1\\tHi\\thi\\tINTJ\\tUH\\t_\\t0\\troot\\t_\\t_\\n")
    >>> data = read_tag_file(path, label_column="xpos", token_columns=["form", "lemma"])
    >>> data.sentences, data.labels
    ([[('Hi', 'hi')]], [['UH']])
    """
    name = "standard input" if str(path) == "-" else str(path)
    text = file_text(pathlib.Path(path), "utf-8")
    if data_format not in ("auto", "conll", "conllu"):
        raise ValueError(f"--format must be auto, conll or conllu; got {data_format!r}")
    conllu = data_format == "conllu" or data_format == "auto" and (
        name.endswith((".conllu", ".conllu.gz")) or looks_like_conllu(text))
    if not conllu:
        if token_columns is not None:
            raise ValueError(f"{name}: --token-columns names CoNLL-U columns; a CoNLL "
                             "column file's tokens are every column but the label's")
        index = _column_number(name, -1 if label_column is None else label_column)
        if labelled:
            sentences, labels = parse_conll(text, name, label_column=index)
            return TagFile(name, sentences, labels, label_column=index)
        rows = parse_conll(text, name, label_column=None)[0]
        return TagFile(name, rows, None, rows=rows, label_column=index)
    label = _column_name(name, "upos" if label_column is None else label_column,
                         "--label-column")
    tokens = ["form"] if token_columns is None else [
        _column_name(name, column, "--token-columns") for column in token_columns]
    if label in tokens:
        raise ValueError(f"{name}: the label column {label.upper()} is also a token column "
                         "(--token-columns); a tagger would read the answer it is to give")
    if len(set(tokens)) != len(tokens):
        raise ValueError(f"{name}: --token-columns names a column twice: {','.join(tokens)}")
    sentences_read = parse_conllu(text, name)
    sentences = [list(zip(*(sentence.column(column) for column in tokens)))
                 for sentence in sentences_read]
    labels = [sentence.column(label) for sentence in sentences_read]
    if labelled and all(value == "_" for sentence in labels for value in sentence):
        raise ValueError(f"{name}: no word has a {label.upper()} ('_' everywhere); train "
                         "and evaluate need a file with that column filled (--label-column "
                         "names another)")
    return TagFile(name, sentences, labels if labelled is not False else None,
                   conllu=sentences_read, label_column=label)


def _column_number(name, value):
    """A CoNLL column given on the command line: a whole number (from the end if
    negative)."""
    if isinstance(value, int):
        return value
    try:
        return int(value)
    except ValueError:
        raise ValueError(f"{name}: a CoNLL column file's --label-column is a column "
                         f"number (negative from the end); got {value!r} (column names "
                         "are for CoNLL-U files)") from None


def _column_name(name, value, option):
    if isinstance(value, str) and value.lower() in COLUMNS and value.lower() != "id":
        return value.lower()
    raise ValueError(f"{name}: {option} {value!r} is not a CoNLL-U column; name one of "
                     f"{', '.join(COLUMNS[1:])}")


def train_tagger(path, *, epochs=10, shards=None, template="default", hash_features=None,
                 min_count=1, label_column=None, seed=None, token_columns=None,
                 data_format="auto"):
    """Train a :class:`~rosenblatt.structured.SequenceTagger` on the CoNLL file
    ``path`` (labels in ``label_column``, every other column part of a token).

    ``epochs`` is the perceptron's ``max_iter``; ``shards`` trains by iterative
    parameter mixing on that many shards of the sentences, on threads; ``template``
    is ``"default"`` or a list of template entries; ``hash_features`` hashes the
    feature strings into that many columns instead of learning a vocabulary;
    ``min_count`` keeps the strings of the vocabulary met on at least that many
    tokens; ``seed`` fixes the sentence order. A CoNLL-U file learns the column
    ``label_column`` names (default UPOS) from ``token_columns`` (default FORM); see
    :func:`read_tag_file`.

    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "train.txt"
    >>> _ = path.write_text("the DT B-NP\\ndog NN I-NP\\nbarks VBZ B-VP\\n\\n"
    ...                     "a DT B-NP\\ncat NN I-NP\\n\\n")
    >>> training = train_tagger(path, epochs=5, seed=0)
    >>> training.n_sentences, training.n_tokens, training.accuracy
    (2, 5, 1.0)
    >>> training.tagger.predict([[("the", "DT"), ("cat", "NN")]])
    [['B-NP', 'I-NP']]
    """
    data = read_tag_file(path, label_column=label_column, token_columns=token_columns,
                         data_format=data_format)
    sentences, labels = data.sentences, data.labels
    if template != "default":
        template = list(template)
    if hash_features is None:
        features = SentenceFeatures(template=template, min_count=min_count)
    elif min_count > 1:
        raise ValueError("--min-count keeps the feature strings met often enough; hashed "
                         "features (--hash) have no vocabulary to cut: use one or the other.")
    else:
        features = SentenceFeatures(template=template, vocabulary="hash",
                                    n_features=hash_features)
    model = SequencePerceptron(max_iter=epochs, random_state=seed)
    if shards is not None:
        from ..distributed import ParameterMixing

        model = ParameterMixing(model, n_shards=shards, client="threads")
    tagger = SequenceTagger(features, model)
    try:
        tagger.fit(sentences, labels)
    except ValueError as error:
        raise ValueError(f"{data.name}: {error}") from None
    return TagTraining(tagger, len(sentences), data.n_tokens,
                       tagger.score(sentences, labels))


@dataclass(frozen=True)
class TagReport:
    """A tagger's predictions on a labelled file, scored."""

    gold: list
    predicted: list

    @property
    def accuracy(self):
        return token_accuracy(self.gold, self.predicted)

    @property
    def chunks(self):
        """Whether the gold labels are chunk tags (conlleval's table applies)."""
        tags = {tag for sentence in self.gold for tag in sentence}
        return tags != {"O"} and all(_CHUNK_TAG.match(tag) for tag in tags)

    def text(self):
        n_tokens = sum(map(len, self.gold))
        lines = [f"accuracy   {self.accuracy:.4f}  ({n_tokens:,} tokens, "
                 f"{len(self.gold):,} sentences)"]
        if self.chunks:
            lines += ["", conlleval_report(self.gold, self.predicted).rstrip("\n")]
        return "\n".join(lines)


def evaluate_tagger(tagger, path, label_column=None, token_columns=None,
                    data_format="auto"):
    """A :class:`TagReport` of ``tagger`` (a tagger, or its model file) on the
    labelled CoNLL or CoNLL-U file ``path``."""
    tagger = _tagger(tagger)
    data = read_tag_file(path, label_column=label_column, token_columns=token_columns,
                         data_format=data_format)
    _check_width(data, tagger, labelled=True)
    return TagReport(data.labels, _predict(tagger, data))


def tag_file(tagger, path, labels=None, label_column=None, token_columns=None,
             data_format="auto", marginals=False):
    """A :class:`TagFile` of ``path`` and the labels ``tagger`` predicts for it
    (with ``marginals``, a third value: per sentence, each predicted label's
    marginal probability, from :meth:`SequenceTagger.predict_marginals`).

    ``labels``: whether a CoNLL file has a label column (``label_column``), which is
    not part of a token; ``None`` decides by the width of its lines, which is the
    tagger's token width with a label column, or without one. A CoNLL-U file's
    label column is the one to fill (its content, if any, is not read).
    """
    tagger = _tagger(tagger)
    data = read_tag_file(path, labelled=False if labels is False else None,
                         label_column=label_column, token_columns=token_columns,
                         data_format=data_format)
    if data.conllu is None:
        width = len(data.rows[0][0])
        n_columns = tagger.features_.n_columns_
        told = labels
        if labels is None:
            labels = width == n_columns + 1
        if labels:
            if not -width <= data.label_column < width:
                raise ValueError(f"{data.name}: --label-column {data.label_column} is out "
                                 f"of range for lines of {width} columns")
            drop = data.label_column % width
            sentences = [[row[:drop] + row[drop + 1:] for row in sentence]
                         for sentence in data.rows]
        else:
            sentences = data.rows
        data = TagFile(data.name, sentences, None, rows=data.rows,
                       label_column=data.label_column)
        _check_width(data, tagger, labelled=labels if told is not None or labels else None)
    else:
        _check_width(data, tagger, labelled=False)
    predicted = _predict(tagger, data)
    if not marginals:
        return data, predicted
    probabilities = [[token[label] for token, label in zip(sentence, labels)]
                     for sentence, labels in zip(tagger.predict_marginals(data.sentences),
                                                 predicted)]
    return data, predicted, probabilities


def _tagger(tagger):
    return load_model_of(tagger, SequenceTagger, "a tagger", "rosenblatt tag train")


def _check_width(data, tagger, labelled):
    """Refuse a file whose tokens are not as wide as the tagger's, by name."""
    n_columns = tagger.features_.n_columns_
    width = len(data.sentences[0][0])
    if data.conllu is not None:
        if width != n_columns:
            raise ValueError(
                f"{data.name}: tokens of {width} CoNLL-U column{'s' * (width != 1)} "
                f"(--token-columns); the tagger reads tokens of {n_columns}: give "
                "--token-columns as at training")
        return
    width += bool(labelled)
    if width != n_columns + bool(labelled):
        expected = {True: f"a labelled file has lines of {n_columns + 1}",
                    False: f"a file without labels has lines of {n_columns}",
                    None: f"lines of {n_columns}, or {n_columns + 1} with a label"}
        raise ValueError(f"{data.name}: lines of {width} column{'s' * (width != 1)}; the "
                         f"tagger reads tokens of {n_columns} column"
                         f"{'s' * (n_columns != 1)}: {expected[labelled]}")


def _predict(tagger, data):
    try:
        return tagger.predict(data.sentences)
    except ValueError as error:
        raise ValueError(f"{data.name}: {error}") from None


def write_conll(rows, predicted, stream, marginals=None):
    """Each token's columns and its predicted label (and its probability, given
    ``marginals``), a blank line after each sentence.

    >>> import io
    >>> out = io.StringIO()
    >>> write_conll([[("He", "PRP"), ("ran", "VBD")]], [["B-NP", "B-VP"]], out,
    ...             marginals=[[0.99, 0.5]])
    >>> print(out.getvalue(), end="")
    He PRP B-NP 0.9900
    ran VBD B-VP 0.5000
    <BLANKLINE>
    """
    for k, (sentence, labels) in enumerate(zip(rows, predicted)):
        ends = ([f" {p:.4f}" for p in marginals[k]] if marginals is not None
                else [""] * len(labels))
        stream.write("".join(f"{' '.join(row)} {label}{end}\n"
                             for row, label, end in zip(sentence, labels, ends)) + "\n")


# -- the command line --------------------------------------------------------------------


def template_option(text):
    """``--template``: ``default``, or entries separated by commas.

    >>> template_option("default"), template_option("bias, word, word[-1]|word")
    ('default', ['bias', 'word', 'word[-1]|word'])
    """
    if text.strip() == "default":
        return "default"
    entries = [entry.strip() for entry in text.split(",") if entry.strip()]
    if not entries:
        raise argparse.ArgumentTypeError("expected 'default' or template entries separated "
                                         f"by commas, got {text!r}")
    return entries


def whole_number(text):
    """An argparse type: a whole number, negative allowed (a column from the end)."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None


def add_arguments(parser):
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    train = actions.add_parser(
        "train", help="Train a tagger on a CoNLL file and save it.",
        description="Train the averaged structured perceptron on a CoNLL file (a token "
                    "per line, columns separated by spaces, the label last, a blank line "
                    "between sentences) or a CoNLL-U file (UPOS learnt from FORM unless "
                    "--label-column/--token-columns say otherwise) and save it with its "
                    "features.")
    train.add_argument("data", metavar="FILE", help="the training file (CoNLL columns or "
                                                    "CoNLL-U; .gz read transparently; - "
                                                    "standard input)")
    train.add_argument("-o", "--output", metavar="MODEL", required=True,
                       help="the tagger file to write (.npz)")
    train.add_argument("--epochs", type=positive_whole_number, default=10, metavar="N",
                       help="passes over the sentences (default: 10)")
    train.add_argument("--shards", type=positive_whole_number, metavar="S",
                       help="train on this many shards of the sentences, on threads, by "
                            "iterative parameter mixing")
    train.add_argument("--template", type=template_option, default="default", metavar="T",
                       help="the feature template: 'default', or entries separated by "
                            "commas, e.g. 'bias,word,lower,suffix3,word[-1],col1'")
    train.add_argument("--hash", type=positive_whole_number, metavar="N", dest="hash_features",
                       help="hash the feature strings into N columns instead of learning "
                            "a vocabulary")
    train.add_argument("--min-count", type=positive_whole_number, default=1, metavar="N",
                       help="keep the feature strings met on at least N tokens (default: 1, "
                            "all; 2 roughly halves the memory of a many-label tagger)")
    _label_column(train)
    train.add_argument("--seed", type=int, metavar="N",
                       help="the seed of the sentence order (default: a new order each run)")
    evaluate = actions.add_parser(
        "evaluate", help="Token accuracy of a tagger on a labelled CoNLL file (and "
                         "conlleval's chunk scores).",
        description="Token accuracy of a saved tagger on a labelled CoNLL file, and "
                    "conlleval's chunk precision, recall and F1 when the labels are "
                    "chunk tags (B-, I-, E-, S-, O).")
    evaluate.add_argument("model", metavar="MODEL", help="a tagger file ('rosenblatt tag "
                                                         "train')")
    evaluate.add_argument("data", metavar="FILE", help="a labelled CoNLL or CoNLL-U file "
                                                       "(- standard input)")
    _label_column(evaluate)
    predict = actions.add_parser(
        "predict", help="Tag a CoNLL file: its columns, then the predicted label.",
        description="Write each line of a CoNLL file with the predicted label as a last "
                    "column (conlleval's input when the file has its gold labels).")
    predict.add_argument("model", metavar="MODEL", help="a tagger file ('rosenblatt tag "
                                                        "train')")
    predict.add_argument("data", metavar="FILE", help="a CoNLL or CoNLL-U file, labelled or "
                                                      "not (- standard input)")
    predict.add_argument("-o", "--output", metavar="OUT",
                         help="write here ('-' or nothing: standard output)")
    predict.add_argument("--no-labels", action="store_true",
                         help="the file has no label column (found by the width of its "
                              "lines otherwise)")
    predict.add_argument("--marginals", action="store_true",
                         help="also write each predicted label's marginal probability "
                              "(forward-backward over the model's scores): a last column "
                              "of a CoNLL file, Marginal=p in a CoNLL-U word's MISC")
    _label_column(predict)


def _label_column(parser):
    parser.add_argument("--label-column", metavar="K",
                        help="the column of the labels: in a CoNLL file its number, "
                             "negative from the end (default: -1, the last); in a CoNLL-U "
                             "file its name (default: upos; xpos, feats, lemma, deprel ...)")
    parser.add_argument("--token-columns", type=column_names, metavar="NAMES",
                        help="CoNLL-U only: the columns a token is made of, by name, "
                             "separated by commas (default: form; e.g. form,lemma)")
    parser.add_argument("--format", choices=("auto", "conll", "conllu"), default="auto",
                        dest="data_format",
                        help="the file's format (default: auto, CoNLL-U for a .conllu[.gz] "
                             "name or content, else CoNLL columns)")


def column_names(text):
    """``--token-columns``: names separated by commas.

    >>> column_names("form, lemma")
    ['form', 'lemma']
    """
    names = [name.strip() for name in text.split(",") if name.strip()]
    if not names:
        raise argparse.ArgumentTypeError(f"expected column names separated by commas, got "
                                         f"{text!r}")
    return names


def run(args):
    columns = {"label_column": args.label_column, "token_columns": args.token_columns,
               "data_format": args.data_format}
    if args.action == "train":
        check_output(args.output)
        training = train_tagger(args.data, epochs=args.epochs, shards=args.shards,
                                template=args.template, hash_features=args.hash_features,
                                min_count=args.min_count, seed=args.seed, **columns)
        # what prediction needs: tag train does not go on training a saved tagger
        save(training.tagger, args.output, training_state=False)
        print("\n".join(training.lines(args.output)))
    elif args.action == "evaluate":
        print(evaluate_tagger(args.model, args.data, **columns).text())
    else:
        to_stdout = args.output in (None, "-")
        if not to_stdout:
            check_output(args.output)
        data, predicted, *marginals = tag_file(
            args.model, args.data, labels=False if args.no_labels else None,
            marginals=args.marginals, **columns)
        marginals = marginals[0] if marginals else None
        if to_stdout:
            data.write(predicted, sys.stdout, marginals)
        else:
            with pathlib.Path(args.output).open("w", encoding="utf-8") as stream:
                data.write(predicted, stream, marginals)
            print(f"wrote {args.output} ({len(data.sentences):,} sentences, "
                  f"{data.n_tokens:,} tokens)")
    return 0
