"""Scores of sequence labelling: token accuracy and conlleval's chunk precision,
recall and F1.

:func:`chunk_scores` and :func:`conlleval_report` reproduce ``conlleval.pl``, the
scorer of the CoNLL-2000 chunking task (Tjong Kim Sang & Buchholz 2000; Erik Tjong
Kim Sang's script, version 2004-01-26), rule for rule: a tag ``B-NP`` is split at
its first hyphen into a prefix ``B`` and a type ``NP`` (a tag without a hyphen is
all prefix, of type ``""``), and a chunk starts or ends between two tokens by the
script's ``startOfChunk`` and ``endOfChunk``:

* a chunk **ends** after the previous token when the (previous, current) prefixes
  are ``B,B`` ``B,O`` ``I,B`` ``I,O`` ``E,E`` ``E,I`` ``E,O``, or when the previous
  prefix is not ``O`` (nor ``.``) and the type changes; a previous ``[`` or ``]``
  always ends one;
* a chunk **starts** at the current token when the prefixes are ``B,B`` ``I,B``
  ``O,B`` ``O,I`` ``E,E`` ``E,I`` ``O,E``, or when the current prefix is not ``O``
  (nor ``.``) and the type changes; a current ``[`` or ``]`` always starts one.

So IOB2 (``B-`` begins every chunk) and IOB1 (``B-`` only between two chunks of one
type) are both read as intended: an ``I-`` after ``O`` or after another type opens
a chunk. IOE's ``E-`` closes one. The script knows no ``S-`` prefix (IOBES): an
``S-`` token starts a chunk only where the type changes and never ends one by
itself, so ``S-PER S-PER`` is one chunk of two tokens, as the script scores it. A
chunk is correct when gold and guess start it at the same token with the same type
and end it at the same token. A sentence boundary (between the sentences of a
nested input) is read as conlleval reads a blank line: a token tagged ``O`` in both
columns that is not counted. One more quirk kept: Perl reads the type ``"0"`` as
false, so ``B-0`` has type ``""``.

**BIOES** (also called IOBES: ``B-`` begins a chunk of several tokens, ``I-``
continues it, ``E-`` ends it, ``S-`` is a chunk of one token) is scored by its own
rules with ``scheme="bioes"``, and by default (``scheme="auto"``) whenever the
tags, gold and predicted together, hold an ``S-`` prefix or both ``B-`` and ``E-``
(IOB1, IOB2 and IOE never do): a chunk is ``S-X``, or ``B-X`` followed by any
``I-X`` and then ``E-X``, all of one type, within a sentence. A malformed run is
read as seqeval reads IOBES in its strict mode (``mode="strict",
scheme=IOBES``): it is no chunk at all, neither right nor wrong; ``B-X`` not
closed by ``E-X`` (``B-X I-X O``, ``B-X S-X``), a lone ``I-X`` or ``E-X``, and a
type change inside (``B-X E-Y``) each make none, and the next ``B-`` or ``S-``
starts afresh. Token accuracy counts equal tags, as conlleval does.
``scheme="iob1"`` and ``"iob2"`` (and ``"auto"`` on other tags) are conlleval's
rules above, which read both.
"""

import numpy as np

#: conlleval's sentence boundary, an ``O`` in both columns that is not a token
_BOUNDARY = object()


def token_accuracy(y_true, y_pred):
    """The fraction of tokens whose predicted label equals the gold one.

    ``y_true`` and ``y_pred`` are flat lists of labels or lists of sentences (lists
    of labels), with the same lengths.

    >>> token_accuracy([["B-NP", "I-NP"], ["O"]], [["B-NP", "B-NP"], ["O"]])
    0.6666666666666666
    >>> token_accuracy(["DT", "NN"], ["DT", "NN"])
    1.0
    """
    pairs = _pairs(y_true, y_pred)
    total = sum(len(gold) for gold, _ in pairs)
    if total == 0:
        raise ValueError("No tokens to score: y_true is empty.")
    right = sum(sum(map(_same, gold, guess)) for gold, guess in pairs)
    return right / total


def _same(a, b):
    return a == b


def chunk_scores(y_true, y_pred, *, scheme="auto"):
    """Per-type and overall chunk precision, recall and F1, by conlleval's rules
    (IOB1, IOB2, IOE) or BIOES's.

    Parameters
    ----------
    y_true, y_pred : list of str, or list of list of str
        Gold and predicted chunk tags (``B-NP``, ``I-NP``, ``O``, …), flat (one
        sequence) or one list per sentence (a chunk never crosses a sentence).
    scheme : {"auto", "iob1", "iob2", "bioes"}, default="auto"
        How tags make chunks: ``"bioes"`` by BIOES's rules (``S-PER S-PER`` is two
        chunks; a malformed run none, as seqeval's strict mode reads it),
        ``"iob1"`` and ``"iob2"`` by conlleval's; ``"auto"`` picks ``"bioes"``
        when the tags hold an ``S-`` prefix or both ``B-`` and ``E-``, else
        conlleval's (see the module docstring).

    Returns
    -------
    dict
        For each chunk type, in sorted order, a dict with ``precision``,
        ``recall``, ``f1`` (fractions in [0, 1]; 0 where undefined, as conlleval
        prints), ``support`` (gold chunks), ``predicted`` (predicted chunks) and
        ``correct``; then ``"micro avg"``, the same over every chunk, with the
        token ``accuracy`` as conlleval counts it (tags equal prefix and type).

    Examples
    --------
    >>> gold = ["B-NP", "I-NP", "O", "B-VP"]
    >>> scores = chunk_scores(gold, ["B-NP", "I-NP", "O", "B-NP"])
    >>> scores["NP"]["precision"], scores["NP"]["recall"], scores["VP"]["recall"]
    (0.5, 1.0, 0.0)
    >>> round(scores["micro avg"]["f1"], 4), scores["micro avg"]["accuracy"]
    (0.5, 0.75)

    BIOES: two one-token chunks against one chunk of two tokens:

    >>> chunk_scores(["S-PER", "S-PER"], ["B-PER", "E-PER"])["PER"]["support"]
    2
    >>> chunk_scores(["S-PER", "S-PER"], ["B-PER", "E-PER"])["PER"]["predicted"]
    1
    """
    counts = _count(y_true, y_pred, scheme)
    result = {}
    for kind in sorted(set(counts["gold"]) | set(counts["guessed"])):
        result[kind] = _scores(counts["correct"].get(kind, 0), counts["gold"].get(kind, 0),
                               counts["guessed"].get(kind, 0))
    micro = _scores(sum(counts["correct"].values()), sum(counts["gold"].values()),
                    sum(counts["guessed"].values()))
    micro["accuracy"] = counts["right_tags"] / counts["tokens"] if counts["tokens"] else 0.0
    result["micro avg"] = micro
    return result


def _scores(correct, gold, guessed):
    precision = correct / guessed if guessed else 0.0
    recall = correct / gold if gold else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": precision, "recall": recall, "f1": f1, "support": gold,
            "predicted": guessed, "correct": correct}


def conlleval_report(y_true, y_pred, *, scheme="auto"):
    """conlleval's text report, character for character (without ``-l``/``-r``);
    the chunks are counted by ``scheme``, as :func:`chunk_scores` counts them.

    >>> print(conlleval_report([["B-NP", "I-NP", "O", "B-VP"]],
    ...                        [["B-NP", "I-NP", "O", "B-NP"]]), end="")
    processed 4 tokens with 2 phrases; found: 2 phrases; correct: 1.
    accuracy:  75.00%; precision:  50.00%; recall:  50.00%; FB1:  50.00
                   NP: precision:  50.00%; recall: 100.00%; FB1:  66.67  2
                   VP: precision:   0.00%; recall:   0.00%; FB1:   0.00  0
    """
    counts = _count(y_true, y_pred, scheme)
    tokens, right_tags = counts["tokens"], counts["right_tags"]
    correct_chunk = sum(counts["correct"].values())
    found_correct = sum(counts["gold"].values())
    found_guessed = sum(counts["guessed"].values())
    # the arithmetic and formats of the script, in its order (percentages first)
    precision = 100 * correct_chunk / found_guessed if found_guessed > 0 else 0.0
    recall = 100 * correct_chunk / found_correct if found_correct > 0 else 0.0
    fb1 = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
    lines = [f"processed {tokens} tokens with {found_correct} phrases; "
             f"found: {found_guessed} phrases; correct: {correct_chunk}.\n"]
    if tokens > 0:
        lines.append("accuracy: %6.2f%%; precision: %6.2f%%; recall: %6.2f%%; FB1: %6.2f\n"
                     % (100 * right_tags / tokens, precision, recall, fb1))
    for kind in _perl_sorted_types(counts):
        correct = counts["correct"].get(kind, 0)
        guessed = counts["guessed"].get(kind, 0)
        gold = counts["gold"].get(kind, 0)
        precision = 100 * correct / guessed if guessed else 0.0
        recall = 100 * correct / gold if gold else 0.0
        fb1 = 0.0 if precision + recall == 0.0 else \
            2 * precision * recall / (precision + recall)
        lines.append("%17s: precision: %6.2f%%; recall: %6.2f%%; FB1: %6.2f  %d\n"
                     % (kind, precision, recall, fb1, guessed))
    return "".join(lines)


def _perl_sorted_types(counts):
    """The script's list of types: the sorted keys of both tables, a key dropped
    when it repeats the previous one unless that one is false in Perl (``""``),
    so a type ``""`` found in both is printed twice, as the script does."""
    types, last = [], None
    for kind in sorted(list(counts["gold"]) + list(counts["guessed"])):
        if not last or last != kind:
            types.append(kind)
        last = kind
    return types


# -- the script's state machine ---------------------------------------------------------


def _split(tag):
    """conlleval's ``/^([^-]*)-(.*)$/``: the prefix before the first hyphen and the
    type after it; a tag without one is all prefix. A type Perl reads as false
    (``"0"``; ``""``) is ``""``."""
    prefix, hyphen, kind = tag.partition("-")
    if not hyphen:
        return tag, ""
    return prefix, ("" if kind == "0" else kind)


def end_of_chunk(previous_tag, tag, previous_type, kind):
    """conlleval's ``endOfChunk``: whether a chunk ended between the previous token
    and this one, from their prefixes and types.

    >>> end_of_chunk("I", "I", "NP", "VP"), end_of_chunk("I", "I", "NP", "NP")
    (True, False)
    """
    pair = (previous_tag, tag)
    return (pair in _ENDS
            or (previous_tag != "O" and previous_tag != "." and previous_type != kind)
            or previous_tag in ("[", "]"))


def start_of_chunk(previous_tag, tag, previous_type, kind):
    """conlleval's ``startOfChunk``: whether a chunk started at this token.

    >>> start_of_chunk("O", "I", "", "NP"), start_of_chunk("B", "I", "NP", "NP")
    (True, False)
    """
    pair = (previous_tag, tag)
    return (pair in _STARTS
            or (tag != "O" and tag != "." and previous_type != kind)
            or tag in ("[", "]"))


_ENDS = {("B", "B"), ("B", "O"), ("I", "B"), ("I", "O"), ("E", "E"), ("E", "I"), ("E", "O")}
_STARTS = {("B", "B"), ("I", "B"), ("O", "B"), ("O", "I"), ("E", "E"), ("E", "I"), ("O", "E")}


#: the values of ``scheme``; the ones conlleval's rules read
SCHEMES = ("auto", "iob1", "iob2", "bioes")
_BIOES_PREFIXES = frozenset("BIESO")


def _count(y_true, y_pred, scheme):
    """The counts of the scheme's chunks: correct / in gold / guessed per type,
    tags right, tokens."""
    if not isinstance(scheme, str) or scheme not in SCHEMES:
        raise ValueError(f"scheme must be one of {', '.join(map(repr, SCHEMES))}; got "
                         f"{scheme!r}.")
    pairs = _chunk_tags(_pairs(y_true, y_pred))
    if scheme == "auto":
        prefixes = {_split(tag)[0] for gold, guess in pairs for tag in (*gold, *guess)}
        scheme = "bioes" if "S" in prefixes or {"B", "E"} <= prefixes else "iob2"
    return _count_bioes(pairs) if scheme == "bioes" else _count_conlleval(pairs)


def _bioes_chunks(tags):
    """The chunks ``(first, last, type)`` of one sentence's BIOES tags, read as
    seqeval's strict mode reads IOBES: ``S-X``, or ``B-X I-X… E-X``; anything else
    is part of no chunk."""
    split = [_split(tag) for tag in tags]
    for tag, (prefix, _) in zip(tags, split):
        if prefix not in _BIOES_PREFIXES or (prefix == "O" and tag != "O"):
            raise ValueError(f"scheme='bioes' reads the tags B-X, I-X, E-X, S-X and O; got "
                             f"{tag!r}. Pass the scheme the tags are in.")
    chunks, i = set(), 0
    while i < len(split):
        prefix, kind = split[i]
        if prefix == "S":
            chunks.add((i, i, kind))
        elif prefix == "B":
            j = i + 1
            while j < len(split) and split[j] == ("I", kind):
                j += 1
            if j < len(split) and split[j] == ("E", kind):
                chunks.add((i, j, kind))
                i = j
            else:
                i = j - 1  # not closed: no chunk; the token after the run starts afresh
        i += 1
    return chunks


def _count_bioes(pairs):
    correct, gold_found, guessed_found = {}, {}, {}
    right_tags = tokens = 0
    for gold, guess in pairs:
        gold_chunks, guess_chunks = _bioes_chunks(gold), _bioes_chunks(guess)
        for chunks, found in ((gold_chunks, gold_found), (guess_chunks, guessed_found),
                              (gold_chunks & guess_chunks, correct)):
            for _, _, kind in chunks:
                found[kind] = found.get(kind, 0) + 1
        right_tags += sum(map(_same, gold, guess))
        tokens += len(gold)
    return {"correct": correct, "gold": gold_found, "guessed": guessed_found,
            "right_tags": right_tags, "tokens": tokens}


def _count_conlleval(pairs):
    """Run conlleval's main loop over the tokens (and boundaries) and return its
    counts: chunks correct / in gold / guessed per type, tags right, tokens."""
    correct, gold_found, guessed_found = {}, {}, {}
    right_tags = tokens = 0
    in_correct = False
    last_gold, last_guess, last_gold_type, last_guess_type = "O", "O", "", ""
    for gold_tag, guess_tag in _stream(pairs):
        if gold_tag is _BOUNDARY:
            gold, gold_type, guess, guess_type = "O", "", "O", ""
        else:
            gold, gold_type = _split(gold_tag)
            guess, guess_type = _split(guess_tag)
        gold_ends = end_of_chunk(last_gold, gold, last_gold_type, gold_type)
        guess_ends = end_of_chunk(last_guess, guess, last_guess_type, guess_type)
        if in_correct:
            if gold_ends and guess_ends and last_guess_type == last_gold_type:
                in_correct = False
                correct[last_gold_type] = correct.get(last_gold_type, 0) + 1
            elif gold_ends != guess_ends or guess_type != gold_type:
                in_correct = False
        gold_starts = start_of_chunk(last_gold, gold, last_gold_type, gold_type)
        guess_starts = start_of_chunk(last_guess, guess, last_guess_type, guess_type)
        if gold_starts and guess_starts and guess_type == gold_type:
            in_correct = True
        if gold_starts:
            gold_found[gold_type] = gold_found.get(gold_type, 0) + 1
        if guess_starts:
            guessed_found[guess_type] = guessed_found.get(guess_type, 0) + 1
        if gold_tag is not _BOUNDARY:
            if gold == guess and guess_type == gold_type:
                right_tags += 1
            tokens += 1
        last_gold, last_guess, last_gold_type, last_guess_type = \
            gold, guess, gold_type, guess_type
    if in_correct:
        correct[last_gold_type] = correct.get(last_gold_type, 0) + 1
    return {"correct": correct, "gold": gold_found, "guessed": guessed_found,
            "right_tags": right_tags, "tokens": tokens}


def _stream(pairs):
    """(gold, guess) tags token by token, a boundary after every sentence (as the
    blank line conlleval reads after each)."""
    for gold, guess in pairs:
        for pair in zip(gold, guess):
            yield pair
        yield _BOUNDARY, _BOUNDARY


# -- inputs -----------------------------------------------------------------------------


def _sentences(labels, name):
    """A flat list of labels as one sentence, or a list of sentences as it is."""
    if isinstance(labels, (str, bytes)) or not hasattr(labels, "__iter__"):
        raise ValueError(f"{name} must be a list of labels or a list of sentences (lists "
                         f"of labels); got {type(labels).__name__}.")
    items = list(labels)
    nested = [isinstance(item, (list, tuple, np.ndarray)) for item in items]
    if all(nested) and items:
        return [list(item) for item in items], True
    if any(nested):
        raise ValueError(f"{name} mixes labels and lists of labels: give a flat list of "
                         "labels or a list of sentences.")
    return [items], False


def _chunk_tags(pairs):
    """``pairs`` if every label is a string (a chunk tag such as ``'B-NP'``), else a
    ``ValueError`` that names the first that is not.

    >>> _chunk_tags([(["B-NP", 1], ["B-NP", "O"])])
    Traceback (most recent call last):
    ValueError: chunk scores read labels as chunk tags, strings such as 'B-NP', 'I-NP' or 'O'; y_true holds 1 (int). Convert the labels to such strings, or score other labels with token_accuracy.
    """
    for gold, guess in pairs:
        for name, labels in (("y_true", gold), ("y_pred", guess)):
            for label in labels:
                if not isinstance(label, str):
                    raise ValueError(
                        "chunk scores read labels as chunk tags, strings such as 'B-NP', "
                        f"'I-NP' or 'O'; {name} holds {label!r} ({type(label).__name__}). "
                        "Convert the labels to such strings, or score other labels with "
                        "token_accuracy.")
    return pairs


def _pairs(y_true, y_pred):
    gold, gold_nested = _sentences(y_true, "y_true")
    guess, guess_nested = _sentences(y_pred, "y_pred")
    if gold_nested != guess_nested and sum(map(len, gold)) and sum(map(len, guess)):
        raise ValueError("y_true and y_pred must both be flat lists of labels or both "
                         "lists of sentences.")
    if len(gold) != len(guess):
        raise ValueError(f"y_true has {len(gold)} sentences, y_pred {len(guess)}.")
    for number, (a, b) in enumerate(zip(gold, guess)):
        if len(a) != len(b):
            where = f"sentence {number}" if gold_nested else "the sequence"
            raise ValueError(f"y_true and y_pred differ in length in {where}: "
                             f"{len(a)} and {len(b)} labels.")
    return list(zip(gold, guess))


def _tree(item):
    """``(heads, relations)`` of a sentence, or of a pair from ``predict_heads``."""
    if isinstance(item, tuple) and len(item) == 2:
        return np.asarray(item[0]), [str(label) for label in item[1]]
    return np.asarray(item.heads), item.column("deprel")


def _trees(gold, predicted):
    """Both lists of trees, checked against each other sentence by sentence."""
    gold, predicted = list(gold), list(predicted)
    if len(gold) != len(predicted):
        raise ValueError(f"{len(gold)} gold sentences but {len(predicted)} predicted ones; "
                         "score the same sentences, in the same order.")
    if not gold:
        raise ValueError("No sentences to score.")
    pairs = []
    for number, (g, p) in enumerate(zip(gold, predicted)):
        g, p = _tree(g), _tree(p)
        if len(g[0]) != len(p[0]) or len(g[1]) != len(g[0]) or len(p[1]) != len(p[0]):
            raise ValueError(f"Sentence {number} has {len(g[0])} gold words but {len(p[0])} "
                             "predicted ones; attachment is scored word by word (gold "
                             "tokenisation).")
        pairs.append((g, p))
    return pairs


def _universal(label):
    return label.split(":", 1)[0]


def attachment_scores(gold, predicted):
    """UAS and LAS as the CoNLL 2018 shared task counts them with gold tokenisation:
    every syntactic word, punctuation included; LAS compares the universal relation
    (DEPREL before any ``:``).

    Parameters
    ----------
    gold, predicted : list of ConlluSentence (or of ``(heads, relations)`` pairs)
        The same sentences, gold and parsed.

    Returns
    -------
    dict
        ``uas``, ``las`` (fractions) and ``words`` (the words counted).

    Examples
    --------
    >>> gold = [([2, 0, 2], ["nsubj", "root", "obj"])]
    >>> parsed = [([2, 0, 1], ["nsubj", "root", "obj"])]
    >>> attachment_scores(gold, parsed)
    {'uas': 0.6666666666666666, 'las': 0.6666666666666666, 'words': 3}
    """
    words = heads = labelled = 0
    for (gold_heads, gold_labels), (heads_found, labels_found) in _trees(gold, predicted):
        right = gold_heads == heads_found
        words += len(gold_heads)
        heads += int(right.sum())
        labelled += sum(1 for ok, a, b in zip(right, gold_labels, labels_found)
                        if ok and _universal(a) == _universal(b))
    return {"uas": heads / max(words, 1), "las": labelled / max(words, 1), "words": words}


def relation_scores(gold, predicted):
    """Labelled attachment per universal relation: for each relation, the words
    holding it in the gold trees and in the predicted ones, those right (right head
    and relation), and precision, recall and F1 (what the CoNLL evaluation's
    per-relation LAS reports).

    Returns
    -------
    dict
        relation -> ``{"gold", "predicted", "correct", "precision", "recall", "f1"}``,
        relations sorted.

    Examples
    --------
    >>> gold = [([2, 0, 2], ["nsubj", "root", "obj"])]
    >>> parsed = [([2, 0, 2], ["nsubj", "root", "obl:tmod"])]
    >>> relation_scores(gold, parsed)["obj"]
    {'gold': 1, 'predicted': 0, 'correct': 0, 'precision': 0.0, 'recall': 0.0, 'f1': 0.0}
    """
    counts = {}
    for (gold_heads, gold_labels), (heads_found, labels_found) in _trees(gold, predicted):
        for head, label, head_found, label_found in zip(gold_heads, gold_labels, heads_found,
                                                        labels_found):
            label, label_found = _universal(label), _universal(label_found)
            counts.setdefault(label, [0, 0, 0])[0] += 1
            counts.setdefault(label_found, [0, 0, 0])[1] += 1
            if head == head_found and label == label_found:
                counts[label][2] += 1
    table = {}
    for label in sorted(counts):
        n_gold, n_predicted, correct = counts[label]
        precision = correct / n_predicted if n_predicted else 0.0
        recall = correct / n_gold if n_gold else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        table[label] = {"gold": n_gold, "predicted": n_predicted, "correct": correct,
                        "precision": precision, "recall": recall, "f1": f1}
    return table
