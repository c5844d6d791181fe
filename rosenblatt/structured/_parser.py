"""An arc-factored dependency parser trained by the averaged structured perceptron,
on the one engine.

A sentence (a :class:`~rosenblatt.datasets.ConlluSentence`, or anything with its
``column(name)``, ``heads``, ``len`` and ``replace``) is one example. Its words
become node rows of integer ids (:func:`encode`: each string hashed once to a
stable 64-bit number, so a model needs no vocabulary); the compiled epoch
(:func:`~._arcs.parser_epoch`) computes the MSTParser features of every arc from
them, decodes, and updates the one flat weight vector (arcs, sibling pairs,
grandchildren and relation labels) with Daumé's averaging sums. Everything else is the engine's:
the training loop, the epoch's sentence order, parameter mixing by sentences.
"""

import hashlib
from numbers import Integral

import numpy as np
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from .._config import check_weights_fit
from .._validation import validate_X
from ..base import Learner, PerceptronClassifier, Problem, RuleState, constraints
from ..base._file_form import Floats, Word
from ..base._parameters import RealNumber
from ..base._registry import register
from ..base._shard import Shard
from ..linear_model._averaged import Averaging
from . import _arcs
from ._arcs import (
    DEP,
    FEATS,
    GRAND,
    HEAD,
    LEFT_CHILD,
    LEMMA,
    PREFIX,
    RIGHT_CHILD,
    SIB,
    UPOS,
    WORD,
    XPOS,
    parse,
    parser_epoch,
    template_table,
)

#: the decoders by name (see :mod:`._decoders`)
DECODERS = {"eisner": _arcs.EISNER, "chu-liu-edmonds": _arcs.CHU_LIU_EDMONDS,
            "second-order": _arcs.SECOND_ORDER,
            "second-order-nonprojective": _arcs.SECOND_ORDER_NONPROJECTIVE,
            "grandparent": _arcs.GRANDPARENT}

#: the update rules by name: the kernel's ``mira`` bits (1 the tree's step, 2 the
#: relations')
UPDATES = {"perceptron": 0, "mira": 3}

#: the arc templates: McDonald, Crammer & Pereira (2005), Table 1 (a and b: unigram
#: and bigram; c: the surrounding tags, with XPOS and with UPOS), the 5-letter
#: prefix standing in for the word, and the lemmas; each also with the arc's
#: direction and distance (the in-between tags are added by the kernel)
ARC_TEMPLATES = [
    [],  # with the direction and distance: a prior on arc lengths
    [(HEAD, 0, WORD), (HEAD, 0, XPOS)], [(HEAD, 0, WORD)], [(HEAD, 0, XPOS)],
    [(HEAD, 0, PREFIX), (HEAD, 0, XPOS)], [(HEAD, 0, PREFIX)], [(HEAD, 0, UPOS)],
    [(HEAD, 0, LEMMA)],
    [(DEP, 0, WORD), (DEP, 0, XPOS)], [(DEP, 0, WORD)], [(DEP, 0, XPOS)],
    [(DEP, 0, PREFIX), (DEP, 0, XPOS)], [(DEP, 0, PREFIX)], [(DEP, 0, UPOS)],
    [(DEP, 0, LEMMA)],
    [(HEAD, 0, WORD), (HEAD, 0, XPOS), (DEP, 0, WORD), (DEP, 0, XPOS)],
    [(HEAD, 0, XPOS), (DEP, 0, WORD), (DEP, 0, XPOS)],
    [(HEAD, 0, WORD), (DEP, 0, WORD), (DEP, 0, XPOS)],
    [(HEAD, 0, WORD), (HEAD, 0, XPOS), (DEP, 0, XPOS)],
    [(HEAD, 0, WORD), (HEAD, 0, XPOS), (DEP, 0, WORD)],
    [(HEAD, 0, WORD), (DEP, 0, WORD)], [(HEAD, 0, XPOS), (DEP, 0, XPOS)],
    [(HEAD, 0, UPOS), (DEP, 0, UPOS)], [(HEAD, 0, LEMMA), (DEP, 0, LEMMA)],
    [(HEAD, 0, PREFIX), (HEAD, 0, XPOS), (DEP, 0, PREFIX), (DEP, 0, XPOS)],
    [(HEAD, 0, PREFIX), (DEP, 0, PREFIX)],
    [(HEAD, 0, XPOS), (HEAD, 1, XPOS), (DEP, -1, XPOS), (DEP, 0, XPOS)],
    [(HEAD, -1, XPOS), (HEAD, 0, XPOS), (DEP, -1, XPOS), (DEP, 0, XPOS)],
    [(HEAD, 0, XPOS), (HEAD, 1, XPOS), (DEP, 0, XPOS), (DEP, 1, XPOS)],
    [(HEAD, -1, XPOS), (HEAD, 0, XPOS), (DEP, 0, XPOS), (DEP, 1, XPOS)],
    [(HEAD, 0, UPOS), (HEAD, 1, UPOS), (DEP, -1, UPOS), (DEP, 0, UPOS)],
    [(HEAD, -1, UPOS), (HEAD, 0, UPOS), (DEP, -1, UPOS), (DEP, 0, UPOS)],
    [(HEAD, 0, UPOS), (HEAD, 1, UPOS), (DEP, 0, UPOS), (DEP, 1, UPOS)],
    [(HEAD, -1, UPOS), (HEAD, 0, UPOS), (DEP, 0, UPOS), (DEP, 1, UPOS)],
    # MSTParser's backed-off surrounding tags (three of the four), both tag sets
    *[template for tag in (XPOS, UPOS) for template in (
        [(HEAD, 0, tag), (HEAD, 1, tag), (DEP, 0, tag)],
        [(HEAD, 0, tag), (DEP, -1, tag), (DEP, 0, tag)],
        [(HEAD, -1, tag), (HEAD, 0, tag), (DEP, 0, tag)],
        [(HEAD, 0, tag), (DEP, 0, tag), (DEP, 1, tag)],
        [(HEAD, 0, tag), (DEP, -1, tag), (DEP, 0, tag), (DEP, 1, tag)],
        [(HEAD, -1, tag), (HEAD, 0, tag), (HEAD, 1, tag), (DEP, 0, tag)])],
    # words with the other's UPOS, morphology, lemmas (+0.5 UAS on EWT dev together)
    [(HEAD, 0, WORD), (DEP, 0, UPOS)], [(HEAD, 0, UPOS), (DEP, 0, WORD)],
    [(HEAD, 0, FEATS), (DEP, 0, FEATS)], [(HEAD, 0, UPOS), (DEP, 0, FEATS)],
    [(HEAD, 0, FEATS), (DEP, 0, UPOS)], [(HEAD, 0, LEMMA), (DEP, 0, UPOS)],
    [(HEAD, 0, UPOS), (DEP, 0, LEMMA)],
    [(HEAD, 0, LEMMA), (HEAD, 0, UPOS), (DEP, 0, LEMMA), (DEP, 0, UPOS)],
]

#: the sibling templates (McDonald & Pereira 2006): the child ``c`` (role DEP) next
#: after its sibling ``s`` (SIB) on one side of the head
SIBLING_TEMPLATES = [
    [(SIB, 0, XPOS), (DEP, 0, XPOS)], [(SIB, 0, UPOS), (DEP, 0, UPOS)],
    [(SIB, 0, WORD), (DEP, 0, WORD)], [(SIB, 0, WORD), (DEP, 0, XPOS)],
    [(SIB, 0, XPOS), (DEP, 0, WORD)],
    [(HEAD, 0, XPOS), (SIB, 0, XPOS), (DEP, 0, XPOS)],
    [(HEAD, 0, UPOS), (SIB, 0, UPOS), (DEP, 0, UPOS)],
    [(SIB, 0, UPOS), (DEP, 0, WORD)], [(SIB, 0, WORD), (DEP, 0, UPOS)],
    [(HEAD, 0, WORD), (SIB, 0, XPOS), (DEP, 0, XPOS)],
    [(HEAD, 0, XPOS), (SIB, 0, XPOS), (DEP, 0, WORD)],
    [(HEAD, 0, LEMMA), (SIB, 0, UPOS), (DEP, 0, UPOS)],
]

#: the grandchild templates (Koo & Collins 2010; TurboParser's, Martins, Almeida &
#: Smith 2013, in part): the dependent ``d`` (role DEP) of the head ``h`` (HEAD)
#: whose own head is ``g`` (GRAND), tags of the three and of ``g`` and ``d``, with a
#: lemma in place of a tag in some; each also with the direction and distance of
#: ``h → d`` and the side of ``g``
GRAND_TEMPLATES = [
    [(GRAND, 0, XPOS), (HEAD, 0, XPOS), (DEP, 0, XPOS)],
    [(GRAND, 0, UPOS), (HEAD, 0, UPOS), (DEP, 0, UPOS)],
    [(GRAND, 0, XPOS), (DEP, 0, XPOS)], [(GRAND, 0, UPOS), (DEP, 0, UPOS)],
    [(GRAND, 0, LEMMA), (HEAD, 0, UPOS), (DEP, 0, UPOS)],
    [(GRAND, 0, UPOS), (HEAD, 0, LEMMA), (DEP, 0, UPOS)],
    [(GRAND, 0, UPOS), (HEAD, 0, UPOS), (DEP, 0, LEMMA)],
    [(GRAND, 0, LEMMA), (DEP, 0, UPOS)], [(GRAND, 0, UPOS), (DEP, 0, LEMMA)],
    [(GRAND, 0, LEMMA), (DEP, 0, LEMMA)],
]

#: the relation templates: the two words, their neighbours, the dependent's
#: outermost children (a preposition's lemma tells obl from obj, say), the head's
#: head and the dependent's sibling next inward
LABEL_TEMPLATES = [
    [], [(DEP, 0, UPOS)], [(DEP, 0, XPOS)], [(DEP, 0, WORD)], [(DEP, 0, LEMMA)],
    [(DEP, 0, FEATS)], [(HEAD, 0, UPOS)], [(HEAD, 0, XPOS)], [(HEAD, 0, WORD)],
    [(HEAD, 0, LEMMA)], [(HEAD, 0, UPOS), (DEP, 0, UPOS)], [(HEAD, 0, XPOS), (DEP, 0, XPOS)],
    [(HEAD, 0, LEMMA), (DEP, 0, LEMMA)], [(HEAD, 0, UPOS), (DEP, 0, LEMMA)],
    [(HEAD, 0, LEMMA), (DEP, 0, UPOS)], [(DEP, 0, FEATS), (DEP, 0, UPOS)],
    [(HEAD, 0, UPOS), (DEP, 0, FEATS)], [(DEP, -1, UPOS), (DEP, 0, UPOS)],
    [(DEP, 0, UPOS), (DEP, 1, UPOS)], [(DEP, -1, LEMMA)], [(DEP, 1, LEMMA)],
    [(LEFT_CHILD, 0, UPOS), (DEP, 0, UPOS)], [(LEFT_CHILD, 0, LEMMA), (DEP, 0, UPOS)],
    [(RIGHT_CHILD, 0, UPOS), (DEP, 0, UPOS)], [(RIGHT_CHILD, 0, LEMMA), (DEP, 0, UPOS)],
    [(LEFT_CHILD, 0, LEMMA), (HEAD, 0, UPOS), (DEP, 0, UPOS)],
    [(HEAD, 0, UPOS), (DEP, 0, UPOS), (LEFT_CHILD, 0, UPOS)],
    # the head's head and the dependent's sibling next inward (conj against
    # parataxis, iobj against obj; EWT dev relations on the gold arcs 97.11 → 97.32 %)
    [(GRAND, 0, UPOS), (HEAD, 0, UPOS), (DEP, 0, UPOS)], [(GRAND, 0, UPOS), (DEP, 0, UPOS)],
    [(GRAND, 0, LEMMA), (HEAD, 0, UPOS), (DEP, 0, UPOS)], [(SIB, 0, UPOS), (DEP, 0, UPOS)],
    [(SIB, 0, UPOS), (HEAD, 0, UPOS), (DEP, 0, UPOS)], [(SIB, 0, LEMMA), (DEP, 0, UPOS)],
]

SPECS = (template_table(ARC_TEMPLATES), template_table(SIBLING_TEMPLATES),
         template_table(LABEL_TEMPLATES), template_table(GRAND_TEMPLATES))

#: the templates' fingerprint, stored in a model file: weights hashed from other
#: templates (a file of an earlier version) would load and parse without a word,
#: wrongly, so such a file is refused
TEMPLATES_ID = hashlib.blake2b(repr((ARC_TEMPLATES, SIBLING_TEMPLATES, LABEL_TEMPLATES,
                                     GRAND_TEMPLATES)).encode(), digest_size=8).hexdigest()

_UPOS_CODES = {tag: k for k, tag in enumerate(_arcs.UPOS_TAGS)}
_ROOT_STRING = "<root>"


def string_id(text):
    """A string's stable 64-bit id (BLAKE2b), the same in every process and run.

    >>> string_id("dog") == string_id("dog") != string_id("cat")
    True
    """
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8", "surrogatepass"),
                                          digest_size=8).digest(), "little")


def encode(sentences):
    """Node rows of ``sentences``: ``(X, bounds)``, ``X`` uint64 of shape
    ``(n_words + n_sentences, 6)`` (a root row, then a row per word, per sentence;
    columns as :data:`~._arcs.COLUMNS`), ``bounds`` where each sentence starts.

    >>> from rosenblatt.datasets import ConlluSentence
    >>> from rosenblatt.structured._parser import encode
    >>> X, bounds = encode([ConlluSentence.from_columns(["Dogs", "bark"],
    ...                                                 upos=["NOUN", "VERB"])])
    >>> X.shape, bounds.tolist(), X[1:, 3].tolist()   # UPOS as its number
    ((3, 6), [0, 3], [7, 15])
    """
    ids = {}

    def identify(text):
        found = ids.get(text)
        if found is None:
            found = ids[text] = string_id(text)
        return found

    lengths = np.array([len(s) for s in sentences], dtype=np.intp)
    bounds = np.concatenate(([0], np.cumsum(lengths + 1))).astype(np.intp)
    X = np.empty((int(bounds[-1]), len(_arcs.COLUMNS)), dtype=np.uint64)
    root = identify(_ROOT_STRING)
    for s, sentence in enumerate(sentences):
        start = bounds[s]
        X[start, :] = root
        X[start, UPOS] = _arcs.ROOT
        forms = [form.lower() for form in sentence.column("form")]
        rows = X[start + 1:bounds[s + 1]]
        rows[:, WORD] = [identify(form) for form in forms]
        rows[:, PREFIX] = [identify("\x00" + form[:5]) for form in forms]
        rows[:, LEMMA] = [identify(lemma) for lemma in sentence.column("lemma")]
        rows[:, UPOS] = [_UPOS_CODES.get(tag, _arcs.OTHER) for tag in sentence.column("upos")]
        rows[:, XPOS] = [identify(tag) for tag in sentence.column("xpos")]
        rows[:, FEATS] = [identify(feats) for feats in sentence.column("feats")]
    return X, bounds


def _name(sentence, number):
    """How a message names a sentence: its number, and its ``sent_id`` when known."""
    sent_id = getattr(sentence, "sent_id", None)
    return f"sentence {number}" + (f" ({sent_id})" if sent_id else "")


def check_sentences(sentences, what):
    """The sentences as a list; refuses no sentences or an empty one."""
    if isinstance(sentences, (str, bytes)) or not hasattr(sentences, "__iter__"):
        raise ValueError(f"{what} takes a list of sentences (rosenblatt.datasets."
                         f"load_conllu); got {type(sentences).__name__}.")
    sentences = list(sentences)
    if not sentences:
        raise ValueError(f"{what} got no sentences.")
    for number, sentence in enumerate(sentences):
        if not hasattr(sentence, "column"):
            raise ValueError(f"{_name(sentence, number)} is a {type(sentence).__name__}, "
                             "not a sentence (rosenblatt.datasets.ConlluSentence).")
        if len(sentence) == 0:
            raise ValueError(f"{_name(sentence, number)} has no words.")
    return sentences


def gold_trees(sentences):
    """Every sentence's gold heads (checked: one tree, one word on the root) and
    relations, or a ``ValueError`` naming the first sentence that has none."""
    heads, relations = [], []
    for number, sentence in enumerate(sentences):
        where = _name(sentence, number)
        try:
            found = np.asarray(sentence.heads, dtype=np.int64)
        except ValueError as error:
            raise ValueError(f"{where} has no gold heads to learn from: {error}") from None
        n = len(sentence)
        if found.shape != (n,) or np.any(found < 0) or np.any(found > n):
            raise ValueError(f"{where}: HEAD must be 0 (the root) or a word's ID (1 … {n}) "
                             f"for each of its {n} words; got {found.tolist()}.")
        roots = int(np.sum(found == 0))
        if roots != 1:
            raise ValueError(f"{where} has {roots} words whose HEAD is 0; a dependency tree "
                             "has exactly one.")
        if not _is_tree(found):
            raise ValueError(f"{where}: its HEADs make a cycle, not a tree.")
        labels = sentence.column("deprel")
        if "_" in labels:
            raise ValueError(f"{where} has a word without DEPREL ('_'); every word needs its "
                             "relation to learn from.")
        heads.append(found)
        relations.append(labels)
    return heads, relations


def _is_tree(heads):
    """Whether following the heads (1-based, 0 the root) from every word reaches the root."""
    state = np.zeros(len(heads) + 1, dtype=np.int8)  # 0 new, 1 on the path, 2 reaches root
    state[0] = 2
    for word in range(1, len(heads) + 1):
        path = []
        while state[word] == 0:
            state[word] = 1
            path.append(word)
            word = heads[word - 1]
        if state[word] == 1:
            return False
        state[path] = 2
    return True


def targets(heads, relations, classes, bounds):
    """``y``: a ``(head, label code)`` row per node row (``-1`` at the root rows)."""
    y = np.full((int(bounds[-1]), 2), -1, dtype=np.int64)
    codes = {label: k for k, label in enumerate(classes.tolist())}
    for s, (found, labels) in enumerate(zip(heads, relations)):
        y[bounds[s] + 1:bounds[s + 1], 0] = found
        y[bounds[s] + 1:bounds[s + 1], 1] = [codes[label] for label in labels]
    return y


def check_memory(sizes, average, n_shards=1):
    """Refuse a weight vector that cannot fit in this machine's memory, with what to
    do, rather than let the system kill the process midway: ``n_features +
    n_label_features × K`` float64, three arrays of it while averaging (the running
    weights, the sums, the published mean), two otherwise; each of ``n_shards > 1``
    shards of parameter mixing copies the running weights (and the sums).

    >>> check_memory((2**24, 2**17, 37), average=True)  # the defaults on EWT: ~0.5 GB
    >>> check_memory((2**40, 2**17, 37), average=True)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: DependencyParser would need 26388.4 GB for its weights ...
    """
    n_arc, n_rows, n_labels = sizes
    copies = 3 if average else 2
    if n_shards > 1:
        copies += n_shards * (2 if average else 1)
    check_weights_fit(
        "DependencyParser", n_arc + n_rows * n_labels, copies,
        f"n_features={n_arc:,} + n_label_features={n_rows:,} × {n_labels} relations", average,
        "Give a smaller power of two for n_features (EWT parses within 0.4 UAS at 2**23) or "
        "n_label_features", n_shards)


def make_shard(X, y, weights, index, classes, lengths):
    """A :class:`~rosenblatt.base.Shard` of whole sentences (``lengths`` node rows
    each), as :class:`~rosenblatt.distributed.ParameterMixing` builds them."""
    return Shard(X, y, weights, index, bounds=np.concatenate(([0], np.cumsum(lengths))).astype(
        np.intp))


class ParserLearner(Learner):
    """The structured perceptron's rule on trees: decode each sentence, add the
    gold tree's features and subtract the predicted one's where they differ, and
    teach the labeller on the gold arcs, in one compiled pass."""

    _reads_fitted = ("n_features_in_",)
    #: a treebank may name one relation only (``dep`` everywhere): its file loads
    min_classes = 1
    #: the arc weights, and a row of relation weights per hashed label feature
    published_form = {"coef_": Floats("features").needed(),
                      "label_coef_": Floats(lambda file: (file.model.n_label_features,
                                                          file.sizes["classes"])).needed(),
                      "feature_templates_": Word([TEMPLATES_ID]).needed(
                          missing="is missing: the file was saved by a version of rosenblatt "
                                  "whose parser had other feature templates; train the "
                                  "parser again with this version")}
    _advice = ("the training sentences still hold parsing mistakes, as real treebanks "
               "always do: max_iter epochs is the usual end (Collins' T); filter "
               "sklearn.exceptions.ConvergenceWarning to silence this")

    def _problem_classes(self):
        return [tuple(self.classes_)]

    def _problem_targets(self, codes):
        return [codes]

    def _sizes(self):
        return (int(self.n_features), int(self.n_label_features), len(self.classes_))

    def check_shards(self, n_features, n_shards):
        check_memory(self._sizes(), self.average, n_shards)

    def _start_problems(self, X, rngs, previous):
        n_arc, n_rows, n_labels = self._sizes()
        check_memory(self._sizes(), self.average)
        if previous is not None:  # warm_start: the published weights, new sums
            start = np.array(previous[0].published()[0], dtype=np.float64)
        else:
            start = np.zeros(n_arc + n_rows * n_labels)
        intercept = np.zeros(1)  # unused
        state = Averaging.start(start, intercept) if self.average else RuleState()
        if self.average and previous is None:
            state.coef_start = np.broadcast_to(np.float64(0.0), start.shape)
        return [Problem(coef=start, intercept=intercept, rng=rngs[0],
                        classes=tuple(self.classes_), state=state)]

    def _epoch(self, problem, data, order):
        average = problem.state.kernel_average()
        return parser_epoch(data.X, data.y, data.bounds, order, SPECS, problem.coef,
                            None if average is None else average[0], self._sizes(),
                            DECODERS[self.decoder], problem.seen, UPDATES[self.update],
                            float(self.C))

    def _problem_errors(self, problem, X, y, sw):
        """Words given a wrong head or relation by the published weights (what
        one-shot mixing checks its mixed model by); the root rows mark the sentences."""
        bounds = np.append(np.flatnonzero(y[:, 0] == -1), len(y)).astype(np.intp)
        heads = np.empty(len(y), dtype=np.int64)
        labels = np.empty(len(y), dtype=np.int64)
        weights = np.ascontiguousarray(problem.published()[0], dtype=np.float64)
        parse(X, bounds, SPECS, weights, self._sizes(), DECODERS[self.decoder], heads, labels)
        words = y[:, 0] != -1
        return int(np.sum(words & ((heads != y[:, 0]) | (labels != y[:, 1]))))

    def publish(self, problems):
        problem = problems[0]
        published = problem.published()[0]
        weights = np.array(published, dtype=np.float64, copy=published is problem.coef)
        n_arc = int(self.n_features)
        return {**super().publish(problems), "coef_": weights[:n_arc],
                "label_coef_": weights[n_arc:].reshape(-1, len(self.classes_)),
                "feature_templates_": TEMPLATES_ID, "n_examples_": int(problem.seen[0])}


@register(None, "structured")
class DependencyParser(PerceptronClassifier):
    """Dependency parser: the best tree of each sentence under arc (sibling,
    grandchild) scores learnt by the averaged structured perceptron (Collins 2002),
    with the relation of each arc from an averaged perceptron labeller trained
    alongside.

    A sentence of ``n`` words gets the heads ``h`` maximising
    ``Σ_d w · f(h_d → d)`` (first order; McDonald, Crammer & Pereira 2005), plus
    ``Σ w · g(h, s, c)`` over adjacent siblings for the second-order decoders
    (McDonald & Pereira 2006), plus ``Σ w · q(g, h, d)`` over grandchildren (``d``
    a child of ``h``, a child of ``g``) for the grandparent decoder (Koo & Collins
    2010), over projective trees (Eisner's algorithm and its extensions) or all
    trees (Chu–Liu–Edmonds), one word on the root. The features are MSTParser's
    (the words, 5-letter prefixes, UPOS and XPOS of head and dependent, their
    neighbours' tags, the tags between them, each with the arc's direction and
    distance) plus the lemmas, hashed into ``n_features`` weights. Then each arc
    gets the relation of highest score from its head's and dependent's
    attributes, the dependent's outermost children, the head's head and the
    dependent's sibling next inward (``n_label_features`` rows of a weight per
    relation).

    Training visits the sentences in the epoch's order: where the decoded tree
    gives a word another head than the gold one, the gold arc's features are
    added and the predicted one's subtracted (likewise for each sibling or
    grandchild factor that differs); on the gold tree, a wrong relation
    moves the gold one's weights up and the predicted one's down. With
    ``average=True`` the model is the mean of the weights after every sentence.
    Training runs ``max_iter`` epochs; a treebank is never parsed without a
    mistake, so the run ends with a ``ConvergenceWarning`` saying so.

    Parameters
    ----------
    decoder : {"eisner", "chu-liu-edmonds", "second-order", \
"second-order-nonprojective", "grandparent"}, default="grandparent"
        First-order projective (Eisner 1996), first-order non-projective
        (Chu–Liu–Edmonds), second-order projective with siblings, or its
        approximate non-projective search (McDonald & Pereira 2006), or
        projective with siblings and grandchildren (Koo & Collins 2010, Model 1
        with the grand-sibling part split into a sibling and a grandchild
        factor; O(n⁴), the grandchildren scored only where both arcs are among
        each word's 8 best-scored heads; a sentence of more than 200 words
        gets the second-order chart: the grandparent one takes 60 bytes a
        cell of ``(n + 1)³``, 0.5 GB at 200 words). The
        default is the most accurate on UD English EWT (test UAS 88.76, LAS
        86.83, against second order's 87.99 / 86.12, Eisner's 86.79 and
        Chu–Liu–Edmonds' 85.75 UAS; BENCHMARKS.md) and trains in about 220 CPU
        s there (second order 170, Eisner 57); on treebanks with many crossing
        arcs (Portuguese Bosque) non-projective decoding beats projective at
        first and second order, and the default is still ahead (UAS 90.02
        against the second-order search's 89.89).
    update : {"perceptron", "mira"}, default="perceptron"
        The step of an update. ``"perceptron"``: 1 (Collins 2002). ``"mira"``:
        1-best MIRA's passive-aggressive step (McDonald, Crammer & Pereira
        2005), ``τ = min(C, (L − w·Δf) / ‖Δf‖²)`` for the tree, ``L`` the words
        given a wrong head and ``Δf`` the gold tree's features minus the
        predicted one's (counted with their hash collisions), and
        ``τ = min(C, (1 − margin) / (2‖x‖²))`` for a wrong relation of the
        labeller, ``x`` its label rows; averaging as with the perceptron.
    C : float, default=1.0
        The largest MIRA step (``update="mira"`` only; with a few hundred
        features per arc the steps are mostly far below 1, so the default
        seldom binds).
    max_iter : int, default=5
        Epochs over the sentences (EWT dev: second order gains nothing after
        the second to fourth epoch).
    average : bool, default=True
        Publish the mean of the weights over training.
    shuffle : {"none", "once", "every_epoch"}, default="every_epoch"
        Sentence order of the epochs.
    random_state : None, int, RandomState or Generator, default=None
        Source of the orders.
    n_features : int, default=2**24
        Weights the arc (and sibling and grandchild) features are hashed to; a power of two
        (128 MB of float64, three times that while training with averaging;
        on EWT dev 2**24 parses 0.4 UAS better than 2**23: fewer collisions).
    n_label_features : int, default=2**17
        Rows the relation features are hashed to (each a weight per relation);
        a power of two.
    warm_start : bool, default=False
        Start ``fit`` from the weights of the previous fit.

    Attributes
    ----------
    classes_ : ndarray of str
        The relations (DEPREL) seen in training, sorted.
    coef_ : ndarray of shape (n_features,)
        The arc (and sibling and grandchild) feature weights.
    label_coef_ : ndarray of shape (n_label_features, n_classes)
        The relation weights.
    feature_templates_ : str
        The fingerprint of the feature templates the weights were hashed from; a
        model file whose fingerprint is not this version's is refused on loading
        (its weights would parse, wrongly).
    n_features_in_ : int
        ``n_features``.
    n_iter_ : int
    n_updates_ : int
        Sentences parsed or labelled wrong during training (one update each).
    n_examples_ : int
        Sentences seen, over every epoch and call.
    converged_ : bool
    stop_reason_ : str

    References
    ----------
    McDonald, Crammer & Pereira, "Online large-margin training of dependency
    parsers", ACL 2005. McDonald & Pereira, "Online learning of approximate
    dependency parsing algorithms", EACL 2006. Collins, EMNLP 2002.

    Examples
    --------
    >>> from rosenblatt.structured import DependencyParser
    >>> from rosenblatt.datasets import ConlluSentence
    >>> sentence = ConlluSentence.from_columns
    >>> train = [sentence(["dogs", "bark"], upos=["NOUN", "VERB"], head=[2, 0],
    ...                   deprel=["nsubj", "root"]),
    ...          sentence(["cats", "sleep"], upos=["NOUN", "VERB"], head=[2, 0],
    ...                   deprel=["nsubj", "root"])]
    >>> parser = DependencyParser(max_iter=3, random_state=0, n_features=2**12,
    ...                           n_label_features=2**8).fit(train)
    >>> parsed = parser.predict([sentence(["birds", "sing"], upos=["NOUN", "VERB"])])
    >>> parsed[0].column("head"), parsed[0].column("deprel")
    (['2', '0'], ['nsubj', 'root'])
    """

    _PARAMETERS = ("decoder", "update", "C", "max_iter", "average", "shuffle",
                   "random_state", "n_features", "n_label_features", "warm_start")
    _parameter_constraints = constraints(
        _PARAMETERS, decoder=[StrOptions(set(DECODERS))], update=[StrOptions(set(UPDATES))],
        C=[RealNumber(0, None, closed="neither")],
        n_features=[Interval(Integral, 2, 2**40, closed="both")],
        n_label_features=[Interval(Integral, 2, 2**40, closed="both")])
    _learner_class = ParserLearner
    class_weight = None

    def __init__(self, *, decoder="grandparent", update="perceptron", C=1.0, max_iter=5,
                 average=True,
                 shuffle="every_epoch", random_state=None, n_features=2**24,
                 n_label_features=2**17,
                 warm_start=False):
        self.decoder = decoder
        self.update = update
        self.C = C
        self.max_iter = max_iter
        self.average = average
        self.shuffle = shuffle
        self.random_state = random_state
        self.n_features = n_features
        self.n_label_features = n_label_features
        self.warm_start = warm_start

    def decision_function(self, X):
        """Arc scores ``X @ coef_`` of rows of hashed arc features (``n_features``
        columns, e.g. a CSR row with a 1 at each feature of an arc).

        Parameters
        ----------
        X : array-like or CSR matrix of shape (n_arcs, n_features)

        Returns
        -------
        ndarray of shape (n_arcs,)
        """
        check_is_fitted(self, "coef_")
        X = validate_X(self, X, reset=False)
        return np.asarray(X @ self.coef_, dtype=np.float64).reshape(-1)

    def _mixing_plan(self, sentences, n_shards):
        """How :class:`~rosenblatt.distributed.ParameterMixing` builds its shards from
        ``sentences``: whole sentences each (their node rows), dealt as it says."""
        from ..distributed._inputs import plan_sequences

        self._validate_params()
        self._check_sizes()
        X, bounds, y, classes = self._encoded(sentences, "fit")
        plan = plan_sequences(X, y, np.diff(bounds), n_shards, classes, make=make_shard)
        plan.n_features = self.n_features  # the hashed weights, not the node columns
        return plan

    def _prediction_state(self):
        """Arrays besides the fitted attributes that prediction needs: none."""
        return {}

    def _restore_prediction_state(self, state):
        """Inverse of :meth:`_prediction_state`."""

    def _check_sizes(self):
        for name in ("n_features", "n_label_features"):
            value = getattr(self, name)
            if value & (value - 1):
                raise ValueError(f"{name} must be a power of two (features are hashed to its "
                                 f"low bits); got {value}, e.g. use {1 << value.bit_length()}.")

    def _encoded(self, sentences, what, classes=None):
        """Node rows, bounds and targets of gold ``sentences``, their relations among
        ``classes`` (or the classes found)."""
        sentences = check_sentences(sentences, what)
        heads, relations = gold_trees(sentences)
        found = np.array(sorted({label for labels in relations for label in labels}))
        if classes is None:
            classes = found
        elif not np.isin(found, classes).all():
            raise ValueError(f"the sentences hold the relations "
                             f"{sorted(set(found) - set(classes))!r}, not among the model's "
                             f"classes_ {list(classes)!r}.")
        X, bounds = encode(sentences)
        return X, bounds, targets(heads, relations, classes, bounds), classes

    def fit(self, sentences):
        """Learn from sentences with their gold trees (HEAD and DEPREL of every word).

        Parameters
        ----------
        sentences : list of ConlluSentence
            As :func:`rosenblatt.datasets.load_conllu` reads them; FORM, LEMMA,
            UPOS, XPOS and FEATS are read where present (``_`` elsewhere).

        Returns
        -------
        self
        """
        self._validate_params()
        self._check_sizes()
        if self.warm_start:
            self._refuse_if_loaded("warm_start=True")
        X, bounds, y, classes = self._encoded(sentences, "fit")
        warm = self.warm_start and hasattr(self, "_problems")
        if warm and (not np.array_equal(classes, self.classes_)
                     or self.n_features_in_ != self.n_features
                     or self._problems[0].coef.shape[0] != self.n_features
                     + self.n_label_features * len(classes)):
            raise ValueError(f"warm_start=True continues the last fit, on the relations "
                             f"{self.classes_.tolist()!r} and n_features={self.n_features_in_}"
                             f"; got {classes.tolist()!r}. Set warm_start=False to start "
                             "afresh.")
        self.n_features_in_ = self.n_features
        learner = self._start_fit(classes, X, warm)
        self._learn(learner, X, y, None, partial=False, bounds=bounds)
        return self

    def partial_fit(self, sentences, classes=None):
        """One epoch over ``sentences``, continuing from the current state.

        ``classes`` (every relation the stream will hold) is required on the first call.

        Returns
        -------
        self
        """
        self._refuse_if_loaded("partial_fit")
        self._validate_params()
        self._check_sizes()
        first = not hasattr(self, "_problems")
        if first and classes is None:
            raise ValueError("classes must be passed on the first call to partial_fit: every "
                             "relation the stream will contain, e.g. classes=['nsubj', 'obj', "
                             "'root'].")
        if classes is not None:
            classes = np.array(sorted(set(map(str, classes))))
            if not first and not np.array_equal(classes, self.classes_):
                raise ValueError(f"classes={classes.tolist()!r} differs from the classes of "
                                 f"the first partial_fit call {self.classes_.tolist()!r}.")
        X, bounds, y, classes = self._encoded(sentences, "partial_fit",
                                              classes if first else self.classes_)
        if first:
            self.n_features_in_ = self.n_features
            learner = self._start_fit(classes, X, warm=False)
        else:
            learner = self._learner()
        self._learn(learner, X, y, None, partial=True, bounds=bounds)
        return self

    def _parse(self, sentences):
        """Heads (int64, 0 the root) and relations of every sentence."""
        check_is_fitted(self, "coef_")
        sentences = check_sentences(sentences, "predict")
        X, bounds = encode(sentences)
        heads = np.empty(X.shape[0], dtype=np.int64)
        labels = np.empty(X.shape[0], dtype=np.int64)
        weights = np.ascontiguousarray(np.concatenate((self.coef_, self.label_coef_.ravel())))
        sizes = (len(self.coef_), self.label_coef_.shape[0], len(self.classes_))
        parse(X, bounds, SPECS, weights, sizes, DECODERS[self.decoder], heads, labels)
        return sentences, [(heads[bounds[s] + 1:bounds[s + 1]],
                            self.classes_[labels[bounds[s] + 1:bounds[s + 1]]])
                           for s in range(len(sentences))]

    def predict_heads(self, sentences):
        """The predicted trees as arrays: per sentence, the heads (int64, 0 the
        root) and the relations (str), one per word.

        Returns
        -------
        list of (ndarray, ndarray)
        """
        return self._parse(sentences)[1]

    def predict(self, sentences):
        """The sentences parsed: new sentences with HEAD and DEPREL filled in,
        everything else as it was.

        Returns
        -------
        list of ConlluSentence
        """
        sentences, trees = self._parse(sentences)
        return [sentence.replace(head=heads.tolist(),
                                 deprel=labels.tolist())
                for sentence, (heads, labels) in zip(sentences, trees)]

    def score(self, sentences):
        """Unlabelled attachment score (UAS) of :meth:`predict` on sentences with gold
        trees: the share of words given their gold head, every word counted.

        Returns
        -------
        float
        """
        from ..metrics import attachment_scores

        return attachment_scores(sentences, self.predict(sentences))["uas"]
