"""Compiled kernels of the dependency parser: hashed MSTParser features, the scores of
arcs, sibling pairs, grandchildren and relation labels, one training epoch, and
parsing.

A sentence of ``n`` words is ``n + 1`` node rows of ``X`` (uint64, one column per
attribute, see :data:`COLUMNS`): row 0 the artificial root, rows ``1 … n`` the
words; ``bounds`` marks where each sentence's rows start (like a CSR ``indptr``).
A cell holds a string's stable 64-bit hash (word, prefix, lemma, XPOS, FEATS),
or for UPOS the tag's number in :data:`UPOS_TAGS` (which the in-between features
count per tag).

Features (McDonald, Crammer & Pereira, ACL 2005, Table 1) are never listed: a
template is a row of ``spec`` (see :func:`template_table`) naming up to four
``(role, offset, column)`` parts, e.g. "the head's XPOS, the word after the head's
XPOS, the dependent's XPOS". Its value on an arc is the hash of the template
number and the parts' cells (:func:`_mix`), taken modulo the number of weights
(a power of two); every template is emitted twice, alone and conjoined with the
arc's direction and distance bucket (1, 2, 3, 4, 5, 6–10, > 10), as MSTParser
does. The in-between features (head tag, a tag between, dependent tag) are
emitted once for each UPOS present between the two words, found from per-tag
prefix counts, so an arc costs the same whatever its length.

Grandchild templates (role GRAND the head's head) are numbered from 1001, so that
their hashes never meet an arc or sibling template's of the same number, and
conjoined with the direction and distance of the arc and the side of the
grandparent. Only the factors ``(g, h, d)`` whose two arcs ``g → h`` and ``h → d``
are among the :data:`GRAND_HEADS` best-scored arcs into their dependents are
scored and learnt (:func:`candidate_heads`); the others are 0.

The weight vector is flat: ``w[:n_arc]`` scores arcs (and sibling pairs and
grandchildren), ``w[n_arc:]`` is the label weights, ``n_label_rows × K`` row-major:
a label feature hashes to a row, whose ``K`` contiguous weights score the ``K``
relations. An epoch (Collins 2002) decodes each sentence from its arc scores;
where a word's predicted head differs from the gold one it adds the gold arc's
features and subtracts the predicted arc's (a second-order model likewise for the
word's sibling factor, the grandparent model for its grandchild factor where the
word's head or its head's head differs); then, on the gold tree, each word's
relation is predicted from the label weights and a wrong one moves the gold
label's row up and the predicted one's down (the labeller of McDonald, Lerman &
Pereira 2006, as a perceptron trained in the same pass). Averaging keeps Daumé's
sums ``u``: an update ``Δ`` at sentence number ``c`` adds ``c · Δ`` (see
:class:`~rosenblatt.linear_model._averaged.Averaging`).
"""

import numpy as np

from .._config import jit
from ._decoders import (
    chu_liu_edmonds,
    eisner,
    eisner_grandparent,
    eisner_second_order,
    second_order_nonprojective,
)

#: the attribute columns of a node row
COLUMNS = ("form", "prefix", "lemma", "upos", "xpos", "feats")
WORD, PREFIX, LEMMA, UPOS, XPOS, FEATS = range(len(COLUMNS))

#: the universal POS tags; another tag is ``OTHER``, the root node's is ``ROOT``
UPOS_TAGS = ("ADJ", "ADP", "ADV", "AUX", "CCONJ", "DET", "INTJ", "NOUN", "NUM", "PART",
             "PRON", "PROPN", "PUNCT", "SCONJ", "SYM", "VERB", "X")
OTHER, ROOT = len(UPOS_TAGS), len(UPOS_TAGS) + 1
N_TAGS = len(UPOS_TAGS) + 2

#: roles of a template's parts: the arc's head and dependent; for sibling
#: templates the sibling (the child of the head next inward); for label templates
#: the dependent's leftmost and rightmost children, the head's head (GRAND) and the
#: dependent's sibling next inward (SIB)
HEAD, DEP, SIB, LEFT_CHILD, RIGHT_CHILD, GRAND = range(6)
#: the decoders, by number
EISNER, CHU_LIU_EDMONDS, SECOND_ORDER, SECOND_ORDER_NONPROJECTIVE, GRANDPARENT = range(5)
#: what a grandchild template's number is offset by (its features never share a hash
#: with an arc or sibling template's of the same number and cells)
_GRAND_BASE = 1000
#: a grandchild factor ``(g, h, d)`` is scored (and learnt) only when ``h → d`` and
#: ``g → h`` are both among the ``GRAND_HEADS`` best-scored arcs into their
#: dependents; elsewhere it is 0 (scoring every triple costs O(n³) feature hashes
#: a sentence: on EWT about 240 CPU s over 5 epochs, more than all the rest of
#: training; with 8 candidates, about 19 s)
GRAND_HEADS = 8
#: sentences longer than this are decoded by the second-order chart, their grandchild
#: factors all 0 (and unlearnt): the grandparent chart is O(n⁴) in time and O(n³) in
#: memory, 0.5 GB and a few seconds at 200 words, 60 GB at 1,000
GRAND_LONGEST = 200

_MOST_PARTS = 4
#: stand-ins for cells outside the sentence, of a missing child, of "no sibling"
_BEFORE, _AFTER, _NONE, _FIRST = (np.uint64(0x9E3779B97F4A7C15), np.uint64(0xC2B2AE3D27D4EB4F),
                                  np.uint64(0x165667B19E3779F9), np.uint64(0x27D4EB2F165667C5))
_PRIME = np.uint64(0x100000001B3)
_SEED = np.uint64(0xCBF29CE484222325)


def template_table(templates):
    """The ``spec`` array of templates given as lists of ``(role, offset, column)``:
    a row per template, ``[n_parts, role, offset, column, …]`` padded with zeros.

    >>> template_table([[(HEAD, 0, UPOS), (DEP, 0, UPOS)], []]).tolist()[1]
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    """
    spec = np.zeros((len(templates), 1 + 3 * _MOST_PARTS), dtype=np.int64)
    for t, parts in enumerate(templates):
        spec[t, 0] = len(parts)
        for k, part in enumerate(parts):
            spec[t, 1 + 3 * k:4 + 3 * k] = part
    return spec


@jit(fastmath=False)
def _mix(h, value):
    """FNV-1a's step over a whole 64-bit value."""
    return (h ^ value) * _PRIME


@jit(fastmath=False)
def _index(h, mask):
    """The weight a feature's hash lands on: its bits mixed (MurmurHash3's
    finaliser, so that the low bits depend on every value), masked."""
    h ^= h >> np.uint64(33)
    h *= np.uint64(0xFF51AFD7ED558CCD)
    h ^= h >> np.uint64(33)
    return np.int64(h & mask)


@jit(fastmath=False)
def _distance(h, d):
    """Direction and distance bucket of the arc ``h → d`` as one number."""
    length = d - h if d > h else h - d
    bucket = length if length <= 5 else (6 if length <= 10 else 7)
    return np.uint64(bucket + (8 if d > h else 0))


@jit(fastmath=False)
def _cell(X, start, n, node, offset, column):
    """Column ``column`` of node ``node + offset`` of the sentence starting at row
    ``start`` with ``n`` words; a stand-in outside it or when ``node`` is -1."""
    if node < 0:
        return _NONE
    p = node + offset
    if p < 0:
        return _BEFORE
    if p > n:
        return _AFTER
    return X[start + p, column]


@jit(fastmath=False)
def _emit(h, dd, mask, out, m):
    """Write the feature of hash ``h`` alone and with the arc's direction and
    distance ``dd`` at ``out[m]``, ``out[m + 1]``; returns ``m + 2``."""
    out[m] = _index(h, mask)
    out[m + 1] = _index(_mix(h, dd), mask)
    return m + 2


@jit(fastmath=False)
def _templates(X, start, n, spec, head, dep, sib, left, right, grand, dd, mask, out, m,
               base=0):
    """Append to ``out`` (from ``m``) the two features of every template of
    ``spec`` (alone, and with ``dd``) on the nodes given by role; returns the new
    count. Template ``t`` is hashed as number ``base + t + 1``."""
    for t in range(spec.shape[0]):
        h = _mix(_SEED, np.uint64(base + t + 1))
        for k in range(spec[t, 0]):
            role = spec[t, 1 + 3 * k]
            node = head if role == HEAD else dep if role == DEP else sib if role == SIB \
                else left if role == LEFT_CHILD else right if role == RIGHT_CHILD else grand
            if role == SIB and node == head:
                value = _FIRST  # the child closest to its head has no sibling inward
            else:
                value = _cell(X, start, n, node, spec[t, 2 + 3 * k], spec[t, 3 + 3 * k])
            h = _mix(h, value)
        m = _emit(h, dd, mask, out, m)
    return m


@jit(fastmath=False)
def arc_features(X, start, n, spec, counts, h, d, mask, out):
    """The feature indices of the arc ``h → d`` into ``out``; returns their number.
    ``counts[p, u]`` is the number of words of tag ``u`` among the nodes ``0 … p-1``."""
    dd = _distance(h, d)
    m = _templates(X, start, n, spec, h, d, -1, -1, -1, -1, dd, mask, out, 0)
    low, high = (h, d) if h < d else (d, h)
    base = _mix(_mix(_mix(_SEED, np.uint64(0)), X[start + h, UPOS]), X[start + d, UPOS])
    for u in range(counts.shape[1]):  # in-between: each tag present between once
        if counts[high, u] - counts[low + 1, u] > 0:  # (UPOS: the tag's number)
            m = _emit(_mix(base, np.uint64(u)), dd, mask, out, m)
    # (MSTParser's XPOS of every word between, each counted, cost 0.4 UAS on EWT dev)
    return m


@jit(fastmath=False)
def sibling_features(X, start, n, spec, h, s, c, mask, out):
    """The feature indices of ``c`` being the next child of ``h`` after ``s`` (``s ==
    h``: its closest child on that side); returns their number."""
    return _templates(X, start, n, spec, h, c, s, -1, -1, -1, _distance(h, c), mask, out,
                      0)


@jit(fastmath=False)
def grand_features(X, start, n, spec, g, h, d, mask, out):
    """The feature indices of ``d`` being a child of ``h`` whose head is ``g`` (a
    word or the root); returns their number. Each template is conjoined with the
    direction and distance of ``h → d`` and the side of ``g`` (before or after ``h``)."""
    dd = _distance(h, d) + np.uint64(16 if g > h else 0)
    return _templates(X, start, n, spec, h, d, -1, -1, -1, g, dd, mask, out, 0, _GRAND_BASE)


@jit(fastmath=False)
def label_features(X, start, n, spec, h, d, left, right, grand, sib, mask, out):
    """The label-row indices of the arc ``h → d`` whose dependent has the leftmost
    and rightmost children ``left`` and ``right`` (-1: none), whose head's head is
    ``grand`` (-1: the head is the root) and whose sibling next inward is ``sib``
    (``h``: none); returns their number."""
    return _templates(X, start, n, spec, h, d, sib, left, right, grand, _distance(h, d), mask,
                      out, 0)


@jit(fastmath=False)
def tag_counts(X, start, n, counts):
    """``counts[p, u]``: words of UPOS ``u`` among the nodes ``0 … p-1``."""
    counts[0, :] = 0
    for p in range(n + 1):
        counts[p + 1, :] = counts[p, :]
        counts[p + 1, X[start + p, UPOS]] += 1


@jit(fastmath=False)
def _sum(w, features, m):
    total = 0.0
    for k in range(m):
        total += w[features[k]]
    return total


@jit(fastmath=False)
def arc_scores(X, start, n, arc_spec, counts, w, mask, scores, features):
    """``scores[h, d]`` of every arc of the sentence (``-inf`` for ``h == d`` and
    into the root)."""
    for h in range(n + 1):
        scores[h, 0] = -np.inf
        for d in range(1, n + 1):
            if h == d:
                scores[h, d] = -np.inf
            else:
                m = arc_features(X, start, n, arc_spec, counts, h, d, mask, features)
                scores[h, d] = _sum(w, features, m)


@jit(fastmath=False)
def sibling_scores(X, start, n, sib_spec, w, mask, scores, features):
    """``scores[h, s, c]`` for every ``c`` on one side of ``h`` and ``s`` between
    them (or ``s == h``); the other cells are 0 (no decoder reads them)."""
    scores[:] = 0.0
    for h in range(n + 1):
        for c in range(1, n + 1):
            if c == h:
                continue
            step = 1 if c > h else -1
            s = h
            while s != c:
                m = sibling_features(X, start, n, sib_spec, h, s, c, mask, features)
                scores[h, s, c] = _sum(w, features, m)
                s += step


@jit(fastmath=False)
def candidate_heads(arcs, n, keep):
    """``keep[h, d]``: whether ``h → d`` is among the :data:`GRAND_HEADS` best arcs into
    ``d`` under the arc scores ``arcs`` (the first on ties; never a ``-inf`` arc)."""
    keep[:n + 1, :n + 1] = False
    for d in range(1, n + 1):
        order = np.argsort(-arcs[:, d], kind="mergesort")
        for k in range(min(GRAND_HEADS, n)):
            if arcs[order[k], d] > -np.inf:
                keep[order[k], d] = True


@jit(fastmath=False)
def grand_scores(X, start, n, grand_spec, w, mask, keep, scores, features):
    """``scores[g, h, d]`` for every word ``h``, its dependent ``d`` and ``g`` outside
    the span of ``h`` and ``d`` (the cells :func:`~._decoders.eisner_grandparent`
    reads) where ``keep[h, d]`` and ``keep[g, h]``; the other cells are 0."""
    scores[:] = 0.0
    for h in range(1, n + 1):
        for d in range(1, n + 1):
            if d == h or not keep[h, d]:
                continue
            low, high = (h, d) if h < d else (d, h)
            for g in range(n + 1):
                if low <= g <= high or not keep[g, h]:
                    continue
                m = grand_features(X, start, n, grand_spec, g, h, d, mask, features)
                scores[g, h, d] = _sum(w, features, m)


@jit(fastmath=False)
def decode(kind, scores, siblings, grands):
    if kind == EISNER:
        return eisner(scores)
    if kind == CHU_LIU_EDMONDS:
        return chu_liu_edmonds(scores)
    if kind == SECOND_ORDER:
        return eisner_second_order(scores, siblings)
    if kind == GRANDPARENT:
        return eisner_grandparent(scores, siblings, grands)
    return second_order_nonprojective(scores, siblings)


@jit(fastmath=False)
def inner_siblings(heads, n, inner):
    """``inner[c]``: the child of ``heads[c]`` next to ``c`` towards the head on
    the same side, or the head itself when ``c`` is its closest child there."""
    for c in range(1, n + 1):
        h = heads[c]
        inner[c] = h
        if c > h:
            for s in range(c - 1, h, -1):
                if heads[s] == h:
                    inner[c] = s
                    break
        else:
            for s in range(c + 1, h):
                if heads[s] == h:
                    inner[c] = s
                    break


@jit(fastmath=False)
def outer_children(heads, n, left, right):
    """The leftmost and rightmost child of every node (-1: none)."""
    left[:n + 1] = -1
    right[:n + 1] = -1
    for d in range(1, n + 1):
        h = heads[d]
        if left[h] == -1 or d < left[h]:
            left[h] = d
        right[h] = max(right[h], d)


@jit(fastmath=False)
def _move(w, u, features, m, offset, step, c):
    """Add ``step`` to the weights ``features`` (shifted by ``offset``), and
    ``c · step`` to the averaging sums."""
    for k in range(m):
        w[offset + features[k]] += step
        if u is not None:
            u[offset + features[k]] += c * step


@jit(fastmath=False)
def _squared_difference(plus, n_plus, minus, n_minus):
    """``‖Δ‖²`` of the sparse vector with a count of 1 at each index of ``plus[:n_plus]``
    and -1 at each of ``minus[:n_minus]`` (repeated indices add up, so collisions
    and features shared by both sides count as they weigh)."""
    a = np.sort(plus[:n_plus])
    b = np.sort(minus[:n_minus])
    total = 0.0
    i = j = 0
    while i < n_plus or j < n_minus:
        if j >= n_minus or (i < n_plus and a[i] < b[j]):
            index = a[i]
        else:
            index = b[j]
        value = 0.0
        while i < n_plus and a[i] == index:
            value += 1.0
            i += 1
        while j < n_minus and b[j] == index:
            value -= 1.0
            j += 1
        total += value * value
    return total


@jit(fastmath=False)
def _grand_differs(gold, heads, d):
    """Whether word ``d``'s grandchild factor (its head and its head's head) differs
    between the trees ``gold`` and ``heads`` (the root's child has none)."""
    if heads[d] != gold[d]:
        return True
    return gold[d] > 0 and heads[gold[d]] != gold[gold[d]]


@jit(fastmath=False)
def _scored(heads, keep, d):
    """Whether word ``d`` of the tree ``heads`` has a grandchild factor that was
    scored (see :func:`grand_scores`): its head a word, both arcs candidates."""
    h = heads[d]
    return h > 0 and keep[h, d] and keep[heads[h], h]


@jit(fastmath=False)
def _gather(features, m, into, n_into, w, sign, margin):
    """Append the ``m`` feature indices to ``into`` (from ``n_into``) and add
    ``sign × w`` over them to ``margin``; returns the new count and margin."""
    for k in range(m):
        into[n_into] = features[k]
        n_into += 1
        margin += sign * w[features[k]]
    return n_into, margin


@jit(fastmath=False)
def _mira_step(X, start, words, arc_spec, sib_spec, grand_spec, counts, gold, heads,
               gold_inner, inner, second, grand, keep, w, mask, features, C):
    """1-best MIRA's step for the tree (McDonald, Crammer & Pereira 2005), the
    passive-aggressive update of the hashed features:
    ``τ = min(C, (L − w·Δf) / ‖Δf‖²)``, ``L`` the words with a wrong head, ``Δf`` the
    gold tree's features minus the predicted one's over the arcs (and sibling
    and grandchild factors) that differ; 0 when nothing differs or ``‖Δf‖² = 0``."""
    width = features.shape[0]
    plus = np.empty(3 * words * width, dtype=np.int64)
    minus = np.empty(3 * words * width, dtype=np.int64)
    n_plus = n_minus = 0
    loss = 0.0
    margin = 0.0  # w · Δf
    for d in range(1, words + 1):
        if heads[d] != gold[d]:
            loss += 1.0
            m = arc_features(X, start, words, arc_spec, counts, gold[d], d, mask, features)
            n_plus, margin = _gather(features, m, plus, n_plus, w, 1.0, margin)
            m = arc_features(X, start, words, arc_spec, counts, heads[d], d, mask, features)
            n_minus, margin = _gather(features, m, minus, n_minus, w, -1.0, margin)
        if second and (heads[d] != gold[d] or inner[d] != gold_inner[d]):
            m = sibling_features(X, start, words, sib_spec, gold[d], gold_inner[d], d, mask,
                                 features)
            n_plus, margin = _gather(features, m, plus, n_plus, w, 1.0, margin)
            m = sibling_features(X, start, words, sib_spec, heads[d], inner[d], d, mask,
                                 features)
            n_minus, margin = _gather(features, m, minus, n_minus, w, -1.0, margin)
        if grand and _grand_differs(gold, heads, d):
            if _scored(gold, keep, d):
                m = grand_features(X, start, words, grand_spec, gold[gold[d]], gold[d], d,
                                   mask, features)
                n_plus, margin = _gather(features, m, plus, n_plus, w, 1.0, margin)
            if _scored(heads, keep, d):
                m = grand_features(X, start, words, grand_spec, heads[heads[d]], heads[d], d,
                                   mask, features)
                n_minus, margin = _gather(features, m, minus, n_minus, w, -1.0, margin)
    if loss == 0.0:
        return 0.0
    norm = _squared_difference(plus, n_plus, minus, n_minus)
    if norm == 0.0:
        return 0.0
    return min(C, max(0.0, (loss - margin) / norm))


@jit(fastmath=False)
def _label_step(w, offset, n_labels, rows, m, label, predicted, C):
    """The passive-aggressive step of a wrong relation: ``τ = min(C, (1 − margin) /
    (2‖x‖²))``, ``margin`` the gold relation's score minus the predicted one's,
    ``x`` the arc's label rows with their counts."""
    margin = 0.0
    for i in range(m):
        margin += w[offset + rows[i] * n_labels + label] \
            - w[offset + rows[i] * n_labels + predicted]
    norm = _squared_difference(rows, m, rows, 0)
    if norm == 0.0:
        return 0.0
    return min(C, max(0.0, (1.0 - margin) / (2.0 * norm)))


@jit(fastmath=False)
def best_label(w, offset, n_labels, rows, m):
    """The label of highest score summed over the label rows ``rows[:m]`` (the first
    of a tie)."""
    best, arg = -np.inf, 0
    for k in range(n_labels):
        total = 0.0
        for i in range(m):
            total += w[offset + rows[i] * n_labels + k]
        if total > best:
            best, arg = total, k
    return arg


@jit(fastmath=False)
def _workspace(bounds, specs):
    """The longest sentence's node count, and the arrays a pass over the
    sentences reuses: the tag counts and a buffer of feature indices."""
    longest = 0
    for s in range(bounds.shape[0] - 1):
        longest = max(longest, bounds[s + 1] - bounds[s])
    width = max(max(specs[0].shape[0], specs[1].shape[0]) * 2 + 2 * N_TAGS,
                max(specs[2].shape[0], specs[3].shape[0]) * 2)
    return (longest, np.zeros((longest + 2, N_TAGS), dtype=np.int64),
            np.empty(width, dtype=np.int64))


@jit(fastmath=False)
def _best_tree(X, start, words, specs, w, mask, kind, counts, features, keep):
    """The decoded heads of one sentence under the weights ``w``; leaves its tag
    counts in ``counts`` and, for the grandparent decoder, its candidate arcs in
    ``keep`` (for the updates)."""
    second = kind == SECOND_ORDER or kind == SECOND_ORDER_NONPROJECTIVE or kind == GRANDPARENT
    if kind == GRANDPARENT and words > GRAND_LONGEST:
        keep[:words + 1, :words + 1] = False  # no grandchild factor scored, none learnt
        kind = SECOND_ORDER
    scores = np.empty((words + 1, words + 1))
    siblings = np.zeros((words + 1, words + 1, words + 1) if second else (0, 0, 0))
    grands = np.zeros((words + 1, words + 1, words + 1) if kind == GRANDPARENT
                      else (0, 0, 0))
    tag_counts(X, start, words, counts)
    arc_scores(X, start, words, specs[0], counts, w, mask, scores, features)
    if second:
        sibling_scores(X, start, words, specs[1], w, mask, siblings, features)
    if kind == GRANDPARENT:
        candidate_heads(scores, words, keep)
        grand_scores(X, start, words, specs[3], w, mask, keep, grands, features)
    return decode(kind, scores, siblings, grands)


@jit(fastmath=False)
def parser_epoch(X, y, bounds, order, specs, w, u, sizes, kind, seen, mira=0, C=1.0):
    """One epoch of the averaged structured perceptron over the sentences
    ``order`` (empty: every sentence in turn), updating ``w`` (and ``u``, Daumé's
    sums, unless ``None``) in place.

    ``y[r]`` is the gold ``(head, label code)`` of node row ``r`` (the root row's
    are ignored); ``specs`` the arc, sibling, label and grandchild templates;
    ``sizes = (n_arc, n_label_rows, n_labels)``; ``kind`` the decoder;
    ``seen[0]`` the sentences seen so far (one added per sentence before it is
    decoded: sentence number ``c``). ``mira``: 0 the perceptron's step 1
    everywhere; bit 1 the tree's step is 1-best MIRA's (passive-aggressive,
    :func:`_mira_step`), bit 2 each wrong relation's too (see :func:`_label_step`),
    both capped at ``C``. Returns the sentences with a wrong head or label (each
    an update).
    """
    arc_spec, sib_spec, label_spec, grand_spec = specs
    n_arc, n_rows, n_labels = sizes
    arc_mask, row_mask = np.uint64(n_arc - 1), np.uint64(n_rows - 1)
    grand = kind == GRANDPARENT
    second = kind == SECOND_ORDER or kind == SECOND_ORDER_NONPROJECTIVE or grand
    n = order.shape[0] if order.shape[0] > 0 else bounds.shape[0] - 1
    longest, counts, features = _workspace(bounds, specs)
    keep = np.zeros((longest + 1, longest + 1) if grand else (0, 0), dtype=np.bool_)
    gold = np.empty(longest + 1, dtype=np.int64)
    gold_inner = np.empty(longest + 1, dtype=np.int64)
    inner = np.empty(longest + 1, dtype=np.int64)
    left = np.empty(longest + 1, dtype=np.int64)
    right = np.empty(longest + 1, dtype=np.int64)
    count = seen[0]
    n_mistakes = 0
    for i in range(n):
        s = order[i] if order.shape[0] > 0 else i
        start = bounds[s]
        words = bounds[s + 1] - start - 1
        count += 1
        if words < 1:
            continue
        c = np.float64(count)
        heads = _best_tree(X, start, words, specs, w, arc_mask, kind, counts, features, keep)
        wrong = False
        for d in range(1, words + 1):
            gold[d] = y[start + d, 0]
        gold[0] = -1
        if second:
            inner_siblings(gold, words, gold_inner)
            inner_siblings(heads, words, inner)
        step = 1.0
        if mira & 1:
            step = _mira_step(X, start, words, arc_spec, sib_spec, grand_spec, counts, gold,
                              heads, gold_inner, inner, second, grand, keep, w, arc_mask,
                              features, C)
        for d in range(1, words + 1):
            if heads[d] != gold[d]:
                wrong = True
                m = arc_features(X, start, words, arc_spec, counts, gold[d], d, arc_mask,
                                 features)
                _move(w, u, features, m, 0, step, c)
                m = arc_features(X, start, words, arc_spec, counts, heads[d], d, arc_mask,
                                 features)
                _move(w, u, features, m, 0, -step, c)
        if second:
            for d in range(1, words + 1):
                if heads[d] != gold[d] or inner[d] != gold_inner[d]:
                    wrong = True
                    m = sibling_features(X, start, words, sib_spec, gold[d], gold_inner[d], d,
                                         arc_mask, features)
                    _move(w, u, features, m, 0, step, c)
                    m = sibling_features(X, start, words, sib_spec, heads[d], inner[d], d,
                                         arc_mask, features)
                    _move(w, u, features, m, 0, -step, c)
        if grand:
            for d in range(1, words + 1):
                if _grand_differs(gold, heads, d):
                    wrong = True
                    if _scored(gold, keep, d):
                        m = grand_features(X, start, words, grand_spec, gold[gold[d]], gold[d],
                                           d, arc_mask, features)
                        _move(w, u, features, m, 0, step, c)
                    if _scored(heads, keep, d):
                        m = grand_features(X, start, words, grand_spec, heads[heads[d]],
                                           heads[d], d, arc_mask, features)
                        _move(w, u, features, m, 0, -step, c)
        # the labeller learns on the gold tree
        outer_children(gold, words, left, right)
        inner_siblings(gold, words, gold_inner)
        for d in range(1, words + 1):
            m = label_features(X, start, words, label_spec, gold[d], d, left[d], right[d],
                               gold[gold[d]] if gold[d] > 0 else -1, gold_inner[d], row_mask,
                               features)
            predicted = best_label(w, n_arc, n_labels, features, m)
            label = y[start + d, 1]
            if predicted != label:
                wrong = True
                step = 1.0
                if mira & 2:
                    step = _label_step(w, n_arc, n_labels, features, m, label, predicted, C)
                for k in range(m):
                    features[k] = features[k] * n_labels
                _move(w, u, features, m, n_arc + label, step, c)
                _move(w, u, features, m, n_arc + predicted, -step, c)
        if wrong:
            n_mistakes += 1
    seen[0] = count
    return n_mistakes


@jit(fastmath=False)
def parse(X, bounds, specs, w, sizes, kind, heads_out, labels_out):
    """Heads and label codes of every sentence (node rows as in training):
    ``heads_out[r]`` and ``labels_out[r]`` for the word of row ``r`` (-1 at root rows)."""
    label_spec = specs[2]
    n_arc, n_rows, n_labels = sizes
    arc_mask, row_mask = np.uint64(n_arc - 1), np.uint64(n_rows - 1)
    n_sentences = bounds.shape[0] - 1
    longest, counts, features = _workspace(bounds, specs)
    keep = np.zeros((longest + 1, longest + 1) if kind == GRANDPARENT else (0, 0),
                    dtype=np.bool_)
    left = np.empty(longest + 1, dtype=np.int64)
    right = np.empty(longest + 1, dtype=np.int64)
    inner = np.empty(longest + 1, dtype=np.int64)
    for s in range(n_sentences):
        start = bounds[s]
        words = bounds[s + 1] - start - 1
        heads_out[start] = -1
        labels_out[start] = -1
        if words < 1:
            continue
        heads = _best_tree(X, start, words, specs, w, arc_mask, kind, counts, features, keep)
        outer_children(heads, words, left, right)
        inner_siblings(heads, words, inner)
        for d in range(1, words + 1):
            m = label_features(X, start, words, label_spec, heads[d], d, left[d], right[d],
                               heads[heads[d]] if heads[d] > 0 else -1, inner[d], row_mask,
                               features)
            heads_out[start + d] = heads[d]
            labels_out[start + d] = best_label(w, n_arc, n_labels, features, m)
