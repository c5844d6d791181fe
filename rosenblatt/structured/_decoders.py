"""Compiled decoders of dependency parsing: the best tree of a sentence under arc
(first-order), arc-and-sibling (second-order) or arc, sibling and grandchild scores,
projective or not, always with exactly one word attached to the root, as Universal
Dependencies requires.

Conventions (those of :mod:`._trees`): a sentence of ``n`` words has the nodes
``0 … n``, node 0 the artificial root; ``scores[h, d]`` (float64, shape
``(n + 1, n + 1)``) scores the arc ``h → d`` (column 0 and the diagonal are never
read); ``sibling_scores[h, s, c]`` scores ``c`` as the next child of ``h`` after ``s``
going outward on the same side (``s == h`` for the child closest to ``h``). Each
decoder returns ``heads``, int64 of length ``n + 1`` with ``heads[0] = -1``. The
functions take and return plain arrays so that a compiled training epoch can call
them per sentence; scores must be finite or ``-inf`` (an arc that may not be used;
if every tree needs one, some tree of score ``-inf`` is returned). NaN and ``+inf``
are not checked here: :func:`check_scores` is the callers' (the parser validates
its weights once, not each sentence).

First order, projective: :func:`eisner` (Eisner, "Three New Probabilistic Models for
Dependency Parsing: An Exploration", COLING 1996; the span formulation of McDonald,
Crammer & Pereira, ACL 2005). Each span ``[s, t]`` of the sentence has four
best scores: *complete* spans, a head at one end whose subtree on that side is done
(``complete_right[s, t]`` headed by ``s``, ``complete_left[s, t]`` by ``t``), and
*incomplete* spans, whose two ends are joined by an arc and whose inside is not yet
closed (``incomplete_right[s, t]`` holds ``s → t``, ``incomplete_left[s, t]`` holds
``t → s``)::

    incomplete_right[s, t] = max_{s≤r<t} complete_right[s, r] + complete_left[r+1, t] + score[s, t]
    incomplete_left[s, t]  = the same halves                                      + score[t, s]
    complete_right[s, t]   = max_{s<r≤t} incomplete_right[s, r] + complete_right[r, t]
    complete_left[s, t]    = max_{s≤r<t} complete_left[s, r] + incomplete_left[r, t]

O(n³) time, O(n²) space; the tree is ``complete_right[0, n]``. The root takes one child
by restricting the spans that start at 0 (the usual trick, e.g. Zmigrod, Vieira &
Cotterell, "Please Mind the Root", EMNLP 2020): ``incomplete_right[0, t]``
only splits at ``r = 0`` (every word before ``t`` is then under ``t``),
``complete_right[0, t]`` exists only for the whole sentence ``t = n`` (so the root's
one child ``r`` spans everything after it), and nothing has the root as a dependent.
Exactly the single-root projective trees are then built, at no extra cost.

Second order, projective: :func:`eisner_second_order` (McDonald & Pereira, "Online
Learning of Approximate Dependency Parsing Algorithms", EACL 2006). A fifth
table of *sibling* spans ``[s, t]`` joins two adjacent children ``s`` and ``t`` of a
head outside the span (``s``'s right half and ``t``'s left half), so that an
incomplete span adds its children one at a time from the head outward and can score
each with the previous one: ``incomplete_right[s, t] = max(complete_left[s+1, t] +
sib[s, s, t], max_{s<r<t} incomplete_right[s, r] + sibling[r, t] + sib[s, r, t]) +
score[s, t]``, and symmetrically leftward. Still O(n³).

Arcs, siblings and grandchildren, projective: :func:`eisner_grandparent`, Koo &
Collins' grand-sibling algorithm ("Efficient Third-order Dependency Parsers", ACL
2010, Model 1) with its grand-sibling part ``(g, h, s, d)`` scored as
``sib[h, s, d] + grand[g, h, d]``, ``grand_scores[g, h, d]`` scoring ``d`` as a child
of ``h`` whose head is ``g``. (Carreras 2007 would also fit, but scores a head's
outermost grandchildren rather than the grandparent of every arc; Koo & Collins'
spans add exactly one factor per arc.) Every span of the sentence's words carries
the head ``g`` of its head, which must lie outside the span (the tree is projective):
``complete_right[g, h, e]``, ``complete_left[g, h, e]``, ``incomplete_right[g, h,
d]``, ``incomplete_left[g, h, d]`` as above, and the sibling spans ``sibling[h, s,
t]`` of two adjacent children ``s < t`` of ``h`` (``h`` is their grandparent index)::

    incomplete_right[g, h, d] = arc[h, d] + grand[g, h, d] + max(
        complete_left[h, d, h+1] + sib[h, h, d],
        max_{h<r<d} incomplete_right[g, h, r] + sibling[h, r, d] + sib[h, r, d])
    complete_right[g, h, e]   = max_{h<d≤e} incomplete_right[g, h, d] + complete_right[h, d, e]
    sibling[h, s, t]          = max_{s≤r<t} complete_right[h, s, r] + complete_left[h, t, r+1]

and symmetrically leftward; O(n⁴) time, O(n³) space (five ``(n + 1)³`` tables and
their back-pointers: 100 words take 60 MB and about 0.15 s). The root
takes one child ``r``, and has no head: the tree is ``max_r arc[0, r] + sib[0, 0, r] +
complete_left[0, r, 1] + complete_right[0, r, n]`` (``r``'s own spans have the
grandparent 0), and the root's child has no grandchild factor (``grand[·, 0, ·]`` is
never read; nor is any ``grand[g, h, d]`` with ``g`` between ``h`` and ``d``).

Non-projective, first order: :func:`chu_liu_edmonds`, the maximum spanning
arborescence (Chu & Liu 1965, Edmonds 1967; McDonald, Pereira, Ribarov & Hajič,
EMNLP 2005): every word takes its best head; a cycle among those choices is
contracted into one node whose incoming arcs are rescored by what they displace in
the cycle, until no cycle remains; the contractions are then undone last to first.
It is written as a loop with explicit records of the contractions (numba compiles
recursion over arrays only with declared signatures). A contraction of ``k`` nodes
rescores the arcs into them and hands the new node the choices that pointed into the
cycle (O(nk)), then chooses the new node's best head (O(n)); the cycles hold fewer
than 2n nodes in all and finding one is O(n), so a sentence is O(n²) (Tarjan's
bound, without his heaps): about half a millisecond for 100 words. The single root is
the device of making the root's arcs costlier than any score (Gabow & Tarjan,
J. Algorithms 1984; Zmigrod, Vieira & Cotterell 2020), done exactly: an arc weighs
a triple compared in order, (root arcs, forbidden arcs, score), so that the best
arborescence has one root arc (every tree has at least one), then the fewest ``-inf``
arcs, then the best score; Chu–Liu–Edmonds holds for weights in any ordered group.

Non-projective, second order: :func:`second_order_nonprojective`, McDonald & Pereira's
approximate search (EACL 2006): from the best projective tree, repeatedly make
the one head change that raises the score most while the result stays a tree, until
none raises it. A single change cannot move the root's child without making zero or
two of them, so the root's child stays that of the projective tree.

Without the constraint: :func:`eisner_any_roots` and :func:`arborescence_any_roots`,
the same algorithms letting the root take any number of children, to measure how
often the constraint changes the tree.

Ties: every maximisation keeps the first best candidate of its loop (strict ``>``):
in the charts the lowest split point ``r``; in :func:`chu_liu_edmonds` each word
first takes the lowest-numbered of its best heads, a cycle the lowest-numbered of its
best entering nodes (a contracted cycle numbered after every word), and the member it
is entered by is the first in the cycle's order among equal rescored arcs; in the
search the lowest ``d`` then the lowest new head.
The output is a deterministic function of the scores; among several best trees,
which one is returned is defined by these loops, not by a simple order on trees. (In
:func:`eisner_grandparent` likewise: the lowest split, the innermost previous
sibling first, the lowest root child.)
"""

import numpy as np
from numba.extending import register_jitable

from .._config import jit
from ._trees import tree_score

_COMPLETE_RIGHT, _COMPLETE_LEFT, _INCOMPLETE_RIGHT, _INCOMPLETE_LEFT, _SIBLING = range(5)


# --------------------------------------------------------------------------------------
# Charts: back-pointers followed with an explicit stack (no recursion in compiled code)


@register_jitable
def _tables(size, count):
    """``count`` score tables of ``-inf`` with their back-pointers, for nodes 0 … size-1."""
    scores = np.full((count, size, size), -np.inf)
    back = np.zeros((count, size, size), dtype=np.int64)
    for i in range(size):
        scores[_COMPLETE_RIGHT, i, i] = 0.0
        scores[_COMPLETE_LEFT, i, i] = 0.0
    return scores, back


@register_jitable
def _complete(chart, back, s, t, last, one_root):
    """Fill the two complete spans ``[s, t]`` from shorter ones (both ``-inf`` when they
    start at the root, but for the whole sentence ``complete_right[0, last]``; and
    ``complete_right[0, t]`` for every ``t`` when the root may take several children)."""
    if s > 0 or t == last or not one_root:
        best, split = -np.inf, s + 1
        for r in range(s + 1, t + 1):
            value = chart[_INCOMPLETE_RIGHT, s, r] + chart[_COMPLETE_RIGHT, r, t]
            if value > best:
                best, split = value, r
        chart[_COMPLETE_RIGHT, s, t], back[_COMPLETE_RIGHT, s, t] = best, split
    if s > 0:
        best, split = -np.inf, s
        for r in range(s, t):
            value = chart[_COMPLETE_LEFT, s, r] + chart[_INCOMPLETE_LEFT, r, t]
            if value > best:
                best, split = value, r
        chart[_COMPLETE_LEFT, s, t], back[_COMPLETE_LEFT, s, t] = best, split


@register_jitable
def _first_order_chart(scores, one_root):
    size = scores.shape[0]
    chart, back = _tables(size, 4)
    for width in range(1, size):
        for s in range(size - width):
            t = s + width
            # the two halves meeting at r, best first; at the root only r = 0 (one child)
            best, split = chart[_COMPLETE_RIGHT, s, s] + chart[_COMPLETE_LEFT, s + 1, t], s
            for r in range(s + 1, t if s > 0 or not one_root else s + 1):
                value = chart[_COMPLETE_RIGHT, s, r] + chart[_COMPLETE_LEFT, r + 1, t]
                if value > best:
                    best, split = value, r
            chart[_INCOMPLETE_RIGHT, s, t] = best + scores[s, t]
            back[_INCOMPLETE_RIGHT, s, t] = split
            if s > 0:  # the root is nobody's dependent
                chart[_INCOMPLETE_LEFT, s, t] = best + scores[t, s]
                back[_INCOMPLETE_LEFT, s, t] = split
            _complete(chart, back, s, t, size - 1, one_root)
    return chart, back


@register_jitable
def _second_order_chart(arcs, siblings):
    size = arcs.shape[0]
    chart, back = _tables(size, 5)
    for width in range(1, size):
        for s in range(size - width):
            t = s + width
            if s > 0:
                # two adjacent children s < t of one head outside [s, t]
                best, split = -np.inf, s
                for r in range(s, t):
                    value = chart[_COMPLETE_RIGHT, s, r] + chart[_COMPLETE_LEFT, r + 1, t]
                    if value > best:
                        best, split = value, r
                chart[_SIBLING, s, t], back[_SIBLING, s, t] = best, split
            # s → t: t the closest right child of s (split s), or the next after r
            best = chart[_COMPLETE_LEFT, s + 1, t] + siblings[s, s, t]
            split = s
            for r in range(s + 1, t if s > 0 else s + 1):  # the root takes one child
                value = (chart[_INCOMPLETE_RIGHT, s, r] + chart[_SIBLING, r, t]
                         + siblings[s, r, t])
                if value > best:
                    best, split = value, r
            chart[_INCOMPLETE_RIGHT, s, t] = best + arcs[s, t]
            back[_INCOMPLETE_RIGHT, s, t] = split
            if s > 0:
                # t → s: s the closest left child of t (split t), or the next after r
                best = chart[_COMPLETE_RIGHT, s, t - 1] + siblings[t, t, s]
                split = t
                for r in range(t - 1, s, -1):
                    value = (chart[_SIBLING, s, r] + chart[_INCOMPLETE_LEFT, r, t]
                             + siblings[t, r, s])
                    if value > best:
                        best, split = value, r
                chart[_INCOMPLETE_LEFT, s, t] = best + arcs[t, s]
                back[_INCOMPLETE_LEFT, s, t] = split
            _complete(chart, back, s, t, size - 1, True)
    return chart, back


@register_jitable
def _follow(back, size, second_order):
    """The heads of the tree ``complete_right[0, size-1]`` of a filled chart."""
    heads = np.full(size, -1, dtype=np.int64)
    # a span pushes its two parts and the second is popped at once, so the stack holds
    # one pending part a level of the derivation, plus one; only a complete span may
    # hand its very ends to a part (its incomplete one), every other step shortens the
    # span: at most 2·size levels
    stack = np.zeros((2 * size + 2, 3), dtype=np.int64)
    stack[0, 0], stack[0, 1], stack[0, 2] = _COMPLETE_RIGHT, 0, size - 1
    top = 1
    while top > 0:
        top -= 1
        kind, s, t = stack[top, 0], stack[top, 1], stack[top, 2]
        if s == t:
            continue
        r = back[kind, s, t]
        if kind == _COMPLETE_RIGHT:
            first, second = (_INCOMPLETE_RIGHT, s, r), (_COMPLETE_RIGHT, r, t)
        elif kind == _COMPLETE_LEFT:
            first, second = (_COMPLETE_LEFT, s, r), (_INCOMPLETE_LEFT, r, t)
        elif kind == _SIBLING or not second_order:
            # s's right half and t's left half, meeting at r (and the arc, if any)
            if kind == _INCOMPLETE_RIGHT:
                heads[t] = s
            elif kind == _INCOMPLETE_LEFT:
                heads[s] = t
            first, second = (_COMPLETE_RIGHT, s, r), (_COMPLETE_LEFT, r + 1, t)
        elif kind == _INCOMPLETE_RIGHT:  # second order: t after r, or s's first child
            heads[t] = s
            if r == s:
                first, second = (_COMPLETE_RIGHT, s, s), (_COMPLETE_LEFT, s + 1, t)
            else:
                first, second = (_INCOMPLETE_RIGHT, s, r), (_SIBLING, r, t)
        else:  # second order, t → s: s after r, or t's first child on the left
            heads[s] = t
            if r == t:
                first, second = (_COMPLETE_RIGHT, s, t - 1), (_COMPLETE_LEFT, t, t)
            else:
                first, second = (_SIBLING, s, r), (_INCOMPLETE_LEFT, r, t)
        for span in (first, second):
            stack[top, 0], stack[top, 1], stack[top, 2] = span
            top += 1
    return heads


@jit(fastmath=False)
def eisner(scores):
    """The best projective tree with one root child under arc scores: Eisner's
    algorithm, O(n³) (see the module docstring).

    Parameters
    ----------
    scores : float64 ndarray (n + 1, n + 1)
        ``scores[h, d]`` scores the arc ``h → d``; finite or ``-inf``.

    Returns
    -------
    heads : int64 ndarray (n + 1,)
        ``heads[d]`` the head of word ``d``, ``heads[0] = -1``.

    >>> import numpy as np
    >>> scores = np.zeros((4, 4))
    >>> scores[0, 2] = scores[2, 1] = scores[2, 3] = 1.0   # "the dog barks"-like
    >>> eisner(scores).tolist()
    [-1, 2, 0, 2]
    """
    _, back = _first_order_chart(scores, True)
    return _follow(back, scores.shape[0], False)


@jit(fastmath=False)
def eisner_any_roots(scores):
    """:func:`eisner` without the single-root constraint: the best projective tree,
    however many words hang from the root (to measure how often the constraint
    matters; UD trees have one).

    >>> import numpy as np
    >>> scores = np.zeros((3, 3)); scores[0, 1] = scores[0, 2] = 1.0
    >>> eisner_any_roots(scores).tolist(), eisner(scores).tolist()
    ([-1, 0, 0], [-1, 0, 1])
    """
    _, back = _first_order_chart(scores, False)
    return _follow(back, scores.shape[0], False)


@jit(fastmath=False)
def _eisner_tables(scores):
    return _first_order_chart(scores, True)[0]


def eisner_chart(scores):
    """The four tables of :func:`eisner`'s chart, for drawing it: a dict of float
    arrays ``(n + 1, n + 1)`` indexed ``[s, t]`` with ``s ≤ t`` (NaN below the
    diagonal): ``complete_right`` (headed by ``s``), ``complete_left`` (by ``t``),
    ``incomplete_right`` (the arc ``s → t``) and ``incomplete_left`` (``t → s``).
    Spans the single-root constraint rules out are ``-inf``; ``complete_right[0, n]``
    is the best tree's score.

    >>> import numpy as np
    >>> scores = np.zeros((3, 3)); scores[0, 1] = scores[1, 2] = 1.0
    >>> chart = eisner_chart(scores)
    >>> float(chart["complete_right"][0, 2]), float(chart["incomplete_left"][1, 2])
    (2.0, 0.0)
    """
    check_scores(scores)
    tables = _eisner_tables(np.ascontiguousarray(scores, dtype=np.float64))
    below = np.tril(np.ones(tables.shape[1:], dtype=bool), -1)
    names = ("complete_right", "complete_left", "incomplete_right", "incomplete_left")
    return {name: np.where(below, np.nan, table) for name, table in zip(names, tables)}


@jit(fastmath=False)
def eisner_second_order(arc_scores, sibling_scores):
    """The best projective tree with one root child under arc and sibling scores:
    McDonald & Pereira's (2006) second-order Eisner algorithm, O(n³).

    Parameters
    ----------
    arc_scores : float64 ndarray (n + 1, n + 1)
        ``arc_scores[h, d]`` scores the arc ``h → d``.
    sibling_scores : float64 ndarray (n + 1, n + 1, n + 1)
        ``sibling_scores[h, s, c]`` scores ``c`` as the next child of ``h`` after ``s``
        outward on one side (``s == h``: ``c`` is the closest child on its side).

    Returns
    -------
    heads : int64 ndarray (n + 1,)
        The tree maximising :func:`~._trees.tree_score`, ``heads[0] = -1``.

    >>> import numpy as np
    >>> arcs = np.zeros((4, 4)); arcs[0, 2] = 1.0
    >>> siblings = np.zeros((4, 4, 4))
    >>> siblings[2, 2, 3] = 1.0               # 3 as 2's first right child
    >>> siblings[2, 2, 1] = 1.0               # 1 as 2's first left child
    >>> eisner_second_order(arcs, siblings).tolist()
    [-1, 2, 0, 2]
    """
    _, back = _second_order_chart(arc_scores, sibling_scores)
    return _follow(back, arc_scores.shape[0], True)


# --------------------------------------------------------------------------------------
# Koo & Collins' grand-sibling chart (Model 1), its part scored as sibling + grandchild

_G_CR, _G_CL, _G_IR, _G_IL, _G_SIB = range(5)


@register_jitable
def _grandparent_chart(arcs, siblings, grands):
    """The g-spans of :func:`eisner_grandparent` (see the module docstring): ``chart[k,
    g, h, x]`` for ``k`` complete right/left (``x`` the far end) and incomplete
    right/left (``x`` the dependent), ``g`` the head of ``h``; ``chart[_G_SIB, h, s,
    t]`` two adjacent children ``s < t`` of ``h``. Returns the chart, its
    back-pointers and the root's child."""
    size = arcs.shape[0]
    n = size - 1
    chart = np.full((5, size, size, size), -np.inf)
    back = np.zeros((5, size, size, size), dtype=np.int32)
    for h in range(1, size):
        for g in range(size):
            chart[_G_CR, g, h, h] = 0.0
            chart[_G_CL, g, h, h] = 0.0
    for width in range(1, n):
        for s in range(1, size - width):
            t = s + width
            # s and t adjacent children of a head outside [s, t] (not the root: it
            # takes one child)
            for h in range(1, size):
                if s <= h <= t:
                    continue
                best, split = chart[_G_CR, h, s, s] + chart[_G_CL, h, t, s + 1], s
                for r in range(s + 1, t):
                    value = chart[_G_CR, h, s, r] + chart[_G_CL, h, t, r + 1]
                    if value > best:
                        best, split = value, r
                chart[_G_SIB, h, s, t], back[_G_SIB, h, s, t] = best, split
            for g in range(size):
                if s <= g <= t:
                    continue
                # s → t: t the closest right child of s (split s), or the next after r
                best, split = chart[_G_CL, s, t, s + 1] + siblings[s, s, t], s
                for r in range(s + 1, t):
                    value = (chart[_G_IR, g, s, r] + chart[_G_SIB, s, r, t]
                             + siblings[s, r, t])
                    if value > best:
                        best, split = value, r
                chart[_G_IR, g, s, t] = best + arcs[s, t] + grands[g, s, t]
                back[_G_IR, g, s, t] = split
                # t → s: s the closest left child of t (split t), or the next after r
                best, split = chart[_G_CR, t, s, t - 1] + siblings[t, t, s], t
                for r in range(t - 1, s, -1):
                    value = (chart[_G_SIB, t, s, r] + chart[_G_IL, g, t, r]
                             + siblings[t, r, s])
                    if value > best:
                        best, split = value, r
                chart[_G_IL, g, t, s] = best + arcs[t, s] + grands[g, t, s]
                back[_G_IL, g, t, s] = split
                # complete: the outermost child m and its own complete half
                best, split = chart[_G_IR, g, s, s + 1] + chart[_G_CR, s, s + 1, t], s + 1
                for m in range(s + 2, t + 1):
                    value = chart[_G_IR, g, s, m] + chart[_G_CR, s, m, t]
                    if value > best:
                        best, split = value, m
                chart[_G_CR, g, s, t], back[_G_CR, g, s, t] = best, split
                best, split = chart[_G_IL, g, t, s] + chart[_G_CL, t, s, s], s
                for m in range(s + 1, t):
                    value = chart[_G_IL, g, t, m] + chart[_G_CL, t, m, s]
                    if value > best:
                        best, split = value, m
                chart[_G_CL, g, t, s], back[_G_CL, g, t, s] = best, split
    # the root's one child r, whose two halves have the root as r's head (g = 0); the
    # arc 0 → r has no grandchild factor (the root has no head)
    root, top = 1, -np.inf
    for r in range(1, size):
        value = (arcs[0, r] + siblings[0, 0, r] + chart[_G_CL, 0, r, 1]
                 + chart[_G_CR, 0, r, n])
        if r == 1 or value > top:
            root, top = r, value
    return chart, back, root


@register_jitable
def _follow_grandparent(back, size, root):
    """The heads of the tree of a filled :func:`_grandparent_chart` whose root child
    is ``root``."""
    heads = np.full(size, -1, dtype=np.int64)
    if size < 2:
        return heads
    heads[root] = 0
    # every part popped pushes at most two, each strictly inside or shorter than it
    # (a complete span hands its ends to its incomplete one): at most 2·size levels
    stack = np.zeros((4 * size + 4, 4), dtype=np.int64)
    stack[0, 0], stack[0, 1], stack[0, 2], stack[0, 3] = _G_CL, 0, root, 1
    stack[1, 0], stack[1, 1], stack[1, 2], stack[1, 3] = _G_CR, 0, root, size - 1
    top = 2
    while top > 0:
        top -= 1
        kind, g, h, x = stack[top, 0], stack[top, 1], stack[top, 2], stack[top, 3]
        if h == x:
            continue
        r = np.int64(back[kind, g, h, x])
        if kind == _G_CR or kind == _G_CL:  # the outermost child r, then its half
            first, second = (kind + 2, g, h, r), (kind, h, r, x)
        elif kind == _G_SIB:  # children h < x of g, meeting at r
            first, second = (_G_CR, g, h, r), (_G_CL, g, x, r + 1)
        elif kind == _G_IR:
            heads[x] = h
            if r == h:
                first, second = (_G_CL, h, x, h + 1), (_G_CL, h, x, x)
            else:
                first, second = (_G_IR, g, h, r), (_G_SIB, h, r, x)
        else:  # _G_IL: x after r on h's left, or h's first left child
            heads[x] = h
            if r == h:
                first, second = (_G_CR, h, x, h - 1), (_G_CR, h, x, x)
            else:
                first, second = (_G_IL, g, h, r), (_G_SIB, h, x, r)
        for part in (first, second):
            stack[top, 0], stack[top, 1], stack[top, 2], stack[top, 3] = part
            top += 1
    return heads


@jit(fastmath=False)
def eisner_grandparent(arc_scores, sibling_scores, grand_scores):
    """The best projective tree with one root child under arc, sibling and
    grandchild scores: Koo & Collins' (2010) grand-sibling algorithm (Model 1) with
    its part scored as a sibling plus a grandchild factor, O(n⁴) time, O(n³) space.

    Parameters
    ----------
    arc_scores : float64 ndarray (n + 1, n + 1)
        ``arc_scores[h, d]`` scores the arc ``h → d``.
    sibling_scores : float64 ndarray (n + 1, n + 1, n + 1)
        As for :func:`eisner_second_order`.
    grand_scores : float64 ndarray (n + 1, n + 1, n + 1)
        ``grand_scores[g, h, d]`` scores ``d`` as a child of ``h`` whose head is
        ``g``; read only for a word ``h`` (the root's child has no grandchild
        factor: the root has no head) and ``g`` outside the span of ``h`` and ``d``.

    Returns
    -------
    heads : int64 ndarray (n + 1,)
        The tree maximising :func:`~._trees.tree_score` plus
        :func:`~._trees.grand_score`, ``heads[0] = -1``.

    >>> import numpy as np
    >>> arcs = np.zeros((4, 4)); arcs[0, 1] = 1.0
    >>> siblings, grands = np.zeros((4, 4, 4)), np.zeros((4, 4, 4))
    >>> grands[1, 2, 3] = 2.0                 # 3 under 2 when 2 is under 1
    >>> eisner_grandparent(arcs, siblings, grands).tolist()
    [-1, 0, 1, 2]
    """
    size = arc_scores.shape[0]
    if size < 2:
        return np.full(size, -1, dtype=np.int64)
    _, back, root = _grandparent_chart(arc_scores, sibling_scores, grand_scores)
    return _follow_grandparent(back, size, root)


# --------------------------------------------------------------------------------------
# Chu–Liu–Edmonds
#
# An arc's weight is a triple compared in order: the root arcs it adds (fewer first,
# counted only under the single-root constraint), the forbidden (-inf) arcs it adds
# (fewer first), then its finite score (higher first). Sums and differences of triples
# are taken part by part; the first two parts are small integers, exact in float64.
# Chu–Liu–Edmonds is correct for weights in any ordered abelian group, and a tree's
# triple is (its root arcs, its forbidden arcs, the sum of its other scores): the best
# triple has one root arc (every tree has one at least, and one suffices), the fewest
# forbidden arcs, and then the best score. This is the "subtract a large constant from
# the root's arcs" device (Gabow & Tarjan 1984; Zmigrod, Vieira & Cotterell 2020) made
# exact, and -inf never meets -inf in a difference (which would be NaN).


@register_jitable
def _better(work, u, v, x, y):
    """Whether the arc ``u → v`` weighs more than ``x → y`` (see above)."""
    roots, forbidden, W = work[9], work[10], work[0]
    if roots[u, v] != roots[x, y]:
        return roots[u, v] < roots[x, y]
    if forbidden[u, v] != forbidden[x, y]:
        return forbidden[u, v] < forbidden[x, y]
    return W[u, v] > W[x, y]


@register_jitable
def _choose_head(work, v, n_nodes):
    """``best_in[v]``: the live node of the best arc into ``v``, the lowest on ties."""
    owner, best_in = work[4], work[3]
    chosen = -1
    for u in range(n_nodes):
        if owner[u] < 0 and u != v and (chosen < 0 or _better(work, u, v, chosen, v)):
            chosen = u
    best_in[v] = chosen


@register_jitable
def _arborescence(weights, root, parent, work, one_root):
    """The maximum spanning arborescence of the complete graph ``weights[u, v]`` on
    ``m`` nodes rooted at ``root``, with one root child if ``one_root``: ``parent[v]``
    receives ``v``'s head (``parent[root] = -1``). ``work`` holds arrays of ``2m``
    nodes (the cycles add at most ``m - 1``); see the module docstring."""
    W, arc_head, arc_dep, best_in, owner, mark, members, first_member, base = work[:9]
    roots, forbidden, base_roots, base_forbidden = work[9], work[10], work[11], work[12]
    m = weights.shape[0]
    for u in range(m):
        for v in range(m):
            value = weights[u, v] if u != v else -np.inf
            forbidden[u, v] = 1.0 if value == -np.inf else 0.0
            W[u, v] = 0.0 if value == -np.inf else value
            roots[u, v] = 1.0 if one_root and u == root else 0.0
            arc_head[u, v], arc_dep[u, v] = u, v  # the original arc an arc stands for
    owner[:] = -1  # the cycle node a node was contracted into
    n_nodes, n_cycles, n_members = m, 0, 0
    for v in range(m):  # every node takes its best head (the lowest on ties)
        if v != root:
            _choose_head(work, v, n_nodes)
    while True:
        # a cycle among those choices: walk up from each node, marking the walk
        mark[:n_nodes] = -1
        cycle = -1
        for start in range(n_nodes):
            if owner[start] >= 0 or start == root:
                continue
            node = start
            while node != root and mark[node] < 0:
                mark[node] = start
                node = best_in[node]
            if node != root and mark[node] == start:
                cycle = node
                break
        if cycle < 0:
            break
        # contract it into the new node c
        c = n_nodes
        n_nodes += 1
        first_member[n_cycles] = n_members
        node = cycle
        while True:
            members[n_members] = node
            n_members += 1
            owner[node] = c
            # an arc into the cycle at ``node`` replaces the cycle's arc into ``node``
            chosen = best_in[node]
            base[node], base_roots[node] = W[chosen, node], roots[chosen, node]
            base_forbidden[node] = forbidden[chosen, node]
            node = chosen
            if node == cycle:
                break
        first_member[n_cycles + 1] = n_members
        for u in range(c):
            if owner[u] >= 0:
                continue
            into, out = -1, -1
            for k in range(first_member[n_cycles], n_members):
                v = members[k]
                # rescore u → v in place: no other contraction reads it again
                W[u, v] -= base[v]
                roots[u, v] -= base_roots[v]
                forbidden[u, v] -= base_forbidden[v]
                if into < 0 or _better(work, u, v, u, into):
                    into = v
                if out < 0 or _better(work, v, u, out, u):
                    out = v
            W[u, c], roots[u, c], forbidden[u, c] = W[u, into], roots[u, into], \
                forbidden[u, into]
            arc_head[u, c], arc_dep[u, c] = arc_head[u, into], arc_dep[u, into]
            W[c, u], roots[c, u], forbidden[c, u] = W[out, u], roots[out, u], forbidden[out, u]
            arc_head[c, u], arc_dep[c, u] = arc_head[out, u], arc_dep[out, u]
        n_cycles += 1
        # the cycle's best head; the nodes whose head was in the cycle now have c, which
        # weighs as much (no other arc into them changed)
        _choose_head(work, c, n_nodes)
        for v in range(c):
            if owner[v] < 0 and v != root and owner[best_in[v]] == c:
                best_in[v] = c
    # undo the contractions, last first: ``mark[v]`` becomes the original word that the
    # arc chosen into node v enters
    parent[root] = -1
    for v in range(n_nodes):
        if owner[v] < 0 and v != root:
            parent[arc_dep[best_in[v], v]] = arc_head[best_in[v], v]
            mark[v] = arc_dep[best_in[v], v]
    for k in range(n_cycles - 1, -1, -1):
        c = m + k
        entered = mark[c]
        inside = entered  # the member of the cycle that holds the entered word
        while owner[inside] != c:
            inside = owner[inside]
        for j in range(first_member[k], first_member[k + 1]):
            v = members[j]
            if v == inside:
                mark[v] = entered
            else:  # the other members keep their cycle arcs
                parent[arc_dep[best_in[v], v]] = arc_head[best_in[v], v]
                mark[v] = arc_dep[best_in[v], v]


@register_jitable
def _arborescence_work(m):
    size = 2 * max(m, 1)
    return (np.empty((size, size)), np.empty((size, size), dtype=np.int64),
            np.empty((size, size), dtype=np.int64), np.zeros(size, dtype=np.int64),
            np.full(size, -1, dtype=np.int64), np.full(size, -1, dtype=np.int64),
            np.zeros(size, dtype=np.int64), np.zeros(size + 1, dtype=np.int64),
            np.zeros(size), np.empty((size, size)), np.empty((size, size)), np.zeros(size),
            np.zeros(size))


@jit(fastmath=False)
def chu_liu_edmonds(scores):
    """The best tree with one root child under arc scores, projective or not: the
    maximum spanning arborescence with the root's arcs made costly beyond any score
    (see the module docstring).

    Parameters
    ----------
    scores : float64 ndarray (n + 1, n + 1)
        ``scores[h, d]`` scores the arc ``h → d``; finite or ``-inf``.

    Returns
    -------
    heads : int64 ndarray (n + 1,)
        ``heads[0] = -1``; a tree of the greatest ``Σ_d scores[heads[d], d]`` among
        those with one root child (with ``-inf`` arcs: one with the fewest of them).

    >>> import numpy as np
    >>> scores = np.zeros((5, 5))
    >>> scores[0, 2] = scores[2, 4] = scores[4, 1] = scores[2, 3] = 1.0   # crossing arcs
    >>> chu_liu_edmonds(scores).tolist()
    [-1, 4, 0, 2, 2]
    """
    heads = np.full(scores.shape[0], -1, dtype=np.int64)
    if scores.shape[0] > 1:
        _arborescence(scores, 0, heads, _arborescence_work(scores.shape[0]), True)
    return heads


@jit(fastmath=False)
def arborescence_any_roots(scores):
    """:func:`chu_liu_edmonds` without the single-root constraint: the maximum
    spanning arborescence rooted at 0, however many words hang from the root (to
    measure how often the constraint matters; UD trees have one).

    >>> import numpy as np
    >>> scores = np.zeros((3, 3)); scores[0, 1] = scores[0, 2] = 1.0
    >>> arborescence_any_roots(scores).tolist(), chu_liu_edmonds(scores).tolist()
    ([-1, 0, 0], [-1, 0, 1])
    """
    heads = np.full(scores.shape[0], -1, dtype=np.int64)
    if scores.shape[0] > 1:
        _arborescence(scores, 0, heads, _arborescence_work(scores.shape[0]), False)
    return heads


# --------------------------------------------------------------------------------------
# McDonald & Pereira's approximate second-order non-projective search


@register_jitable
def _index_tree(heads, ancestor, before, after):
    """Tables that make each candidate change O(1), rebuilt once a change (O(n²)):
    ``ancestor[x, y]`` whether ``y`` is ``x`` or above it; ``before[h, p]`` the last
    child of ``h`` left of position ``p`` and ``after[h, p]`` the first one right of
    it (-1 for none)."""
    size = heads.shape[0]
    ancestor[:] = False
    for x in range(size):
        y = x
        while y >= 0:
            ancestor[x, y] = True
            y = heads[y]
    for h in range(size):
        last = -1
        for p in range(size):
            before[h, p] = last
            if p > 0 and heads[p] == h:
                last = p
        last = -1
        for p in range(size - 1, -1, -1):
            after[h, p] = last
            if p > 0 and heads[p] == h:
                last = p


@register_jitable
def _sibling_change(siblings, before, after, h, d, sign):
    """What adding (``sign = 1``) or removing (``-1``) ``d`` as a child of ``h`` adds to
    the sibling factors of ``h``'s children: ``d`` goes between the child of ``h``
    next to it towards ``h`` (or ``h`` itself) and the next one outward (if any)."""
    if siblings.shape[0] == 0:
        return 0.0
    if d > h:
        inner, outer = max(before[h, d], h), after[h, d]
    else:
        inner, outer = after[h, d], before[h, d]
        if inner < 0 or inner > h:
            inner = h
    change = siblings[h, inner, d]
    if outer >= 0:
        change += siblings[h, d, outer] - siblings[h, inner, outer]
    return sign * change


@jit(fastmath=False)
def hill_climb(heads, arc_scores, sibling_scores):
    """Improve the tree ``heads`` in place by single head changes that keep it a tree
    with its one root child, the best change each time, until none raises
    :func:`~._trees.tree_score` (a change is kept only when the recomputed score is
    greater, so the search ends). A ``sibling_scores`` of shape ``(0, 0, 0)`` climbs
    the arc scores alone. Returns the final score.

    >>> import numpy as np
    >>> arcs = np.zeros((4, 4)); arcs[3, 1] = 1.0
    >>> heads = np.array([-1, 2, 0, 2])
    >>> float(hill_climb(heads, arcs, np.zeros((0, 0, 0)))), heads.tolist()
    (1.0, [-1, 3, 0, 2])
    """
    size = heads.shape[0]
    current = tree_score(heads, arc_scores, sibling_scores)
    trial = heads.copy()
    ancestor = np.zeros((size, size), dtype=np.bool_)
    before = np.zeros((size, size), dtype=np.int64)
    after = np.zeros((size, size), dtype=np.int64)
    while True:
        _index_tree(heads, ancestor, before, after)
        gain, moved, new_head = 0.0, -1, -1
        for d in range(1, size):
            old = heads[d]
            if old == 0:
                continue  # the root's only child: a new head would leave no root child
            leaving = (_sibling_change(sibling_scores, before, after, old, d, -1)
                       - arc_scores[old, d])
            for h in range(1, size):
                if h == old or ancestor[h, d]:
                    continue  # no change, or d itself or below it: a cycle
                value = (leaving + arc_scores[h, d]
                         + _sibling_change(sibling_scores, before, after, h, d, 1))
                if value > gain:
                    gain, moved, new_head = value, d, h
        if moved < 0:
            return current
        trial[:] = heads
        trial[moved] = new_head
        value = tree_score(trial, arc_scores, sibling_scores)
        if not value > current:  # the change's gain was rounding
            return current
        heads[:] = trial
        current = value


@jit(fastmath=False)
def second_order_nonprojective(arc_scores, sibling_scores):
    """McDonald & Pereira's (2006) approximate non-projective second-order decoder:
    :func:`eisner_second_order`, then :func:`hill_climb`. Its tree scores at least as
    much as the projective one; it is not always the best non-projective tree (finding
    that is NP-hard: McDonald & Pereira 2006; McDonald & Satta, IWPT 2007).

    >>> import numpy as np
    >>> arcs = np.zeros((5, 5))
    >>> arcs[0, 2] = arcs[2, 4] = arcs[4, 1] = arcs[2, 3] = 1.0   # crossing arcs
    >>> second_order_nonprojective(arcs, np.zeros((5, 5, 5))).tolist()
    [-1, 4, 0, 2, 2]
    """
    heads = eisner_second_order(arc_scores, sibling_scores)
    hill_climb(heads, arc_scores, sibling_scores)
    return heads


# --------------------------------------------------------------------------------------
# Checks, for the callers that take scores from outside


def check_scores(scores, sibling_scores=None):
    """Refuse what the decoders do not define: scores that are not square ``(n + 1,
    n + 1)`` (and ``(n + 1,)*3`` for siblings), NaN, or ``+inf``. ``-inf`` is allowed
    (an arc never to use). Returns nothing; raises ``ValueError``.

    >>> import numpy as np
    >>> check_scores(np.zeros((3, 3)))
    >>> check_scores(np.full((3, 3), np.nan))
    Traceback (most recent call last):
    ...
    ValueError: arc scores hold NaN or +inf (only finite scores and -inf are decoded)
    """
    scores = np.asarray(scores)
    if scores.ndim != 2 or scores.shape[0] != scores.shape[1] or scores.shape[0] < 1:
        raise ValueError(f"arc scores must be of shape (n + 1, n + 1), not {scores.shape}")
    parts = [("arc", scores)]
    if sibling_scores is not None:
        sibling_scores = np.asarray(sibling_scores)
        if sibling_scores.shape != (scores.shape[0],) * 3:
            raise ValueError(f"sibling scores must be of shape {(scores.shape[0],) * 3}, "
                             f"not {sibling_scores.shape}")
        parts.append(("sibling", sibling_scores))
    for name, part in parts:
        if np.isnan(part).any() or np.isposinf(part).any():
            raise ValueError(f"{name} scores hold NaN or +inf (only finite scores and "
                             "-inf are decoded)")
