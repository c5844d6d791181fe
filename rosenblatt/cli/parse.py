"""``rosenblatt parse``: train a dependency parser on a CoNLL-U treebank, evaluate it,
parse a file.

``parse train`` reads a CoNLL-U treebank (every word with its HEAD and DEPREL),
trains :class:`~rosenblatt.structured.DependencyParser` (serially, or on shards of
the sentences by iterative parameter mixing with ``--shards``) and saves it.
``parse evaluate`` prints UAS and LAS as the CoNLL 2018 shared task counts them
(every word, the universal part of the relation) and a table per relation;
``parse predict`` writes the file back with HEAD and DEPREL filled, every other
column, comment, multiword token and empty node untouched. ``-`` for a file reads
standard input.
"""

import pathlib
import sys
import time
from dataclasses import dataclass

import numpy as np

from ..datasets._conll import _text as file_text
from ..datasets._conllu import ConlluFormatError, parse_conllu, write_conllu
from ..io import save
from ..structured import DependencyParser, attachment_scores, relation_scores
from ..structured._parser import DECODERS
from ..structured._trees import is_projective
from ._common import check_output, load_model_of, positive_whole_number


def read_treebank(path):
    """The sentences of the CoNLL-U file ``path`` (``-``: standard input), and the
    name its errors give it.

    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "one.conllu"
    >>> _ = path.write_text("1\\tHi\\thi\\tINTJ\\tUH\\t_\\t0\\troot\\t_\\t_\\n")
    >>> sentences, name = read_treebank(path)
    >>> len(sentences), name.endswith("one.conllu")
    (1, True)
    """
    name = "standard input" if str(path) == "-" else str(path)
    try:
        text = file_text(pathlib.Path(path), "utf-8")
    except ValueError as error:
        raise ConlluFormatError(str(error)) from None
    return parse_conllu(text, name), name


@dataclass(frozen=True)
class ParseTraining:
    """A trained parser, with what the command prints about it."""

    parser: object
    n_sentences: int
    n_words: int
    non_projective: int
    seconds: float

    def lines(self, output):
        parser = self.parser
        inner = getattr(parser, "estimator_", parser)
        relations = parser.classes_.tolist()
        shown = ", ".join(relations[:8]) + (", ..." if len(relations) > 8 else "")
        lines = [f"parser     {type(inner).__name__} ({inner.decoder}) -> {output}",
                 f"sentences  {self.n_sentences:,}   words {self.n_words:,}   "
                 f"non-projective {self.non_projective:,} "
                 f"({100 * self.non_projective / self.n_sentences:.1f} %)",
                 f"relations  {len(relations)}: {shown}",
                 f"features   {inner.n_features:,} arc weights, {inner.n_label_features:,} "
                 f"x {len(relations)} relation weights (hashed)",
                 f"epochs     {parser.n_iter_}   updates {parser.n_updates_:,}"]
        if hasattr(parser, "n_shards_"):
            lines.append(f"shards     {parser.n_shards_} on {parser.backend_} (iterative "
                         "parameter mixing of whole sentences)")
        lines.append(f"time       {self.seconds:.1f} s CPU")
        return lines


#: the estimator's own defaults are the command's
DEFAULTS = DependencyParser().get_params()


def train_parser(path, *, epochs=DEFAULTS["max_iter"], shards=None,
                 decoder=DEFAULTS["decoder"], seed=None):
    """Train a :class:`~rosenblatt.structured.DependencyParser` on the CoNLL-U
    treebank ``path``: ``epochs`` passes (``max_iter``), on ``shards`` shards of the
    sentences by iterative parameter mixing on threads, with ``decoder``; ``seed``
    fixes the sentence order.

    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "train.conllu"
    >>> _ = path.write_text("1\\tdogs\\tdog\\tNOUN\\tNNS\\t_\\t2\\tnsubj\\t_\\t_\\n"
    ...                     "2\\tbark\\tbark\\tVERB\\tVBP\\t_\\t0\\troot\\t_\\t_\\n\\n")
    >>> training = train_parser(path, epochs=2, seed=0)
    >>> training.n_sentences, training.n_words, training.parser.classes_.tolist()
    (1, 2, ['nsubj', 'root'])
    """
    sentences, name = read_treebank(path)
    model = DependencyParser(decoder=decoder, max_iter=epochs, random_state=seed)
    if shards is not None:
        from ..distributed import ParameterMixing

        model = ParameterMixing(model, n_shards=shards, client="threads")
    start = time.process_time()
    try:
        model.fit(sentences)
    except ValueError as error:
        raise ValueError(f"{name}: {error}") from None
    seconds = time.process_time() - start
    non_projective = sum(not is_projective(_nodes(sentence.heads)) for sentence in sentences)
    return ParseTraining(model, len(sentences), sum(map(len, sentences)), non_projective,
                         seconds)


def _nodes(heads):
    """Heads as the decoders write them: node 0 the root, with head -1."""
    return np.concatenate(([-1], heads)).astype(np.int64)


@dataclass(frozen=True)
class ParseReport:
    """A parser's trees on a treebank, scored."""

    gold: list
    predicted: list

    def text(self):
        scores = attachment_scores(self.gold, self.predicted)
        lines = [f"UAS        {100 * scores['uas']:.2f}  ({scores['words']:,} words, "
                 f"{len(self.gold):,} sentences; every word, punctuation included)",
                 f"LAS        {100 * scores['las']:.2f}  (the universal relation, before "
                 "any ':')",
                 "",
                 f"{'relation':<12} {'gold':>7} {'found':>7} {'right':>7} "
                 f"{'precision':>9} {'recall':>7} {'F1':>7}"]
        for relation, row in relation_scores(self.gold, self.predicted).items():
            lines.append(f"{relation:<12} {row['gold']:>7,} {row['predicted']:>7,} "
                         f"{row['correct']:>7,} {100 * row['precision']:>9.2f} "
                         f"{100 * row['recall']:>7.2f} {100 * row['f1']:>7.2f}")
        return "\n".join(lines)


def evaluate_parser(parser, path):
    """A :class:`ParseReport` of ``parser`` (a parser, or its model file) on the
    CoNLL-U treebank ``path``."""
    parser = _parser(parser)
    sentences, name = read_treebank(path)
    for sentence in sentences:
        _ = sentence.heads  # a treebank: every head given (the error names the sentence)
    return ParseReport(sentences, _parse(parser, sentences, name))


def parse_file(parser, path):
    """The sentences of the CoNLL-U file ``path`` parsed by ``parser`` (a parser or
    its model file): HEAD and DEPREL filled, everything else as read."""
    parser = _parser(parser)
    sentences, name = read_treebank(path)
    return _parse(parser, sentences, name)


def _parser(parser):
    return load_model_of(parser, DependencyParser, "a dependency parser",
                         "rosenblatt parse train")


def _parse(parser, sentences, name):
    try:
        return parser.predict(sentences)
    except ValueError as error:
        raise ValueError(f"{name}: {error}") from None


# -- the command line --------------------------------------------------------------------


def add_arguments(parser):
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    train = actions.add_parser(
        "train", help="Train a dependency parser on a CoNLL-U treebank and save it.",
        description="Train the averaged structured perceptron's dependency parser "
                    "(MSTParser's features; arcs, siblings for the second-order "
                    "decoders, grandchildren for the grandparent one, and relations) on "
                    "a CoNLL-U treebank and save it.")
    train.add_argument("data", metavar="FILE", help="the treebank (CoNLL-U, every word "
                                                    "with HEAD and DEPREL; .gz read "
                                                    "transparently; - standard input)")
    train.add_argument("-o", "--output", metavar="MODEL", required=True,
                       help="the parser file to write (.npz)")
    train.add_argument("--epochs", type=positive_whole_number, default=DEFAULTS["max_iter"],
                       metavar="N", help="passes over the sentences (default: "
                                         f"{DEFAULTS['max_iter']})")
    train.add_argument("--shards", type=positive_whole_number, metavar="S",
                       help="train on this many shards of the sentences, on threads, by "
                            "iterative parameter mixing")
    train.add_argument("--decoder", default=DEFAULTS["decoder"], choices=tuple(DECODERS),
                       help="first-order projective (eisner), first-order non-projective "
                            "(chu-liu-edmonds), second order with siblings (second-order), "
                            "its approximate non-projective search, or siblings and "
                            "grandchildren, projective (grandparent) (default: "
                            f"{DEFAULTS['decoder']})")
    train.add_argument("--seed", type=int, metavar="N",
                       help="the seed of the sentence order (default: a new order each run)")
    evaluate = actions.add_parser(
        "evaluate", help="UAS, LAS and a table per relation of a parser on a treebank.",
        description="Parse a CoNLL-U treebank with a saved parser and print UAS and LAS "
                    "as the CoNLL 2018 shared task counts them (every word, punctuation "
                    "included; LAS on the universal relation) and a table per relation.")
    evaluate.add_argument("model", metavar="MODEL", help="a parser file ('rosenblatt parse "
                                                         "train')")
    evaluate.add_argument("data", metavar="FILE", help="a CoNLL-U treebank (- standard "
                                                       "input)")
    predict = actions.add_parser(
        "predict", help="Parse a CoNLL-U file: HEAD and DEPREL filled, the rest untouched.",
        description="Write a CoNLL-U file back with HEAD and DEPREL of every word filled "
                    "by the parser; comments, multiword tokens, empty nodes and the other "
                    "columns as they were.")
    predict.add_argument("model", metavar="MODEL", help="a parser file ('rosenblatt parse "
                                                        "train')")
    predict.add_argument("data", metavar="FILE", help="a CoNLL-U file, parsed or not (- "
                                                      "standard input)")
    predict.add_argument("-o", "--output", metavar="OUT",
                         help="write here ('-' or nothing: standard output; .gz "
                              "compressed)")


def run(args):
    if args.action == "train":
        check_output(args.output)
        training = train_parser(args.data, epochs=args.epochs, shards=args.shards,
                                decoder=args.decoder, seed=args.seed)
        # what parsing needs: parse train does not go on training a saved parser
        save(training.parser, args.output, training_state=False)
        print("\n".join(training.lines(args.output)))
    elif args.action == "evaluate":
        print(evaluate_parser(args.model, args.data).text())
    else:
        to_stdout = args.output in (None, "-")
        if not to_stdout:
            check_output(args.output)
        parsed = parse_file(args.model, args.data)
        if to_stdout:
            write_conllu(parsed, sys.stdout)
        else:
            write_conllu(parsed, args.output)
            print(f"wrote {args.output} ({len(parsed):,} sentences, "
                  f"{sum(map(len, parsed)):,} words)")
    return 0
