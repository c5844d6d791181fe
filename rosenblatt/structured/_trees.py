"""Dependency trees as head arrays: their checks and their score, compiled so that a
parser's compiled epoch (and the decoders of :mod:`._decoders`) can call them.

A sentence of ``n`` words has the nodes ``0 … n``, node 0 the artificial root. A tree
is the int array ``heads`` of length ``n + 1``: ``heads[d]`` is the head of word ``d``
(``0 … n``) and ``heads[0] = -1``. It is a tree when following heads from any word
reaches 0 (no cycle); a UD tree has besides exactly one word whose head is 0
(:func:`count_roots`). It is projective when no two arcs cross with the root drawn to
the left of the words (:func:`is_projective`): for trees rooted at 0 this is the same
as "every word between a head and its dependent descends from the head" (Kübler,
McDonald & Nivre, *Dependency Parsing*, 2009).

Scores (McDonald & Pereira, "Online Learning of Approximate Dependency Parsing
Algorithms", EACL 2006): ``arc_scores[h, d]`` scores the arc ``h → d``;
``sibling_scores[h, s, c]`` scores ``c`` being the next child of ``h`` after ``s`` on
the same side of ``h``, going outward from ``h``, with ``s == h`` when ``c`` is the
child of ``h`` closest to it on that side. :func:`tree_score` adds the arcs, then
the sibling factors; a ``sibling_scores`` of shape ``(0, 0, 0)`` means a first-order
(arc-factored) score.
"""

import numpy as np

from .._config import jit


@jit(fastmath=False)
def count_roots(heads):
    """The number of words whose head is the root (1 in a UD tree).

    >>> import numpy as np
    >>> count_roots(np.array([-1, 2, 0, 2])), count_roots(np.array([-1, 0, 0]))
    (1, 2)
    """
    roots = 0
    for d in range(1, heads.shape[0]):
        if heads[d] == 0:
            roots += 1
    return roots


@jit(fastmath=False)
def is_tree(heads):
    """Whether ``heads`` is a tree rooted at 0: ``heads[0] == -1``, every other head in
    ``0 … n`` and not the word itself, and no cycle. (Any number of root children;
    see :func:`count_roots`.)

    >>> import numpy as np
    >>> is_tree(np.array([-1, 2, 0])), is_tree(np.array([-1, 2, 1]))
    (True, False)
    """
    size = heads.shape[0]
    if size == 0 or heads[0] != -1:
        return False
    for d in range(1, size):
        if heads[d] < 0 or heads[d] >= size or heads[d] == d:
            return False
    # walk up from each word; ``state`` 0 unseen, 1 on the current walk, 2 known to
    # reach the root: each node is walked over once, so O(n) in all
    state = np.zeros(size, dtype=np.int8)
    state[0] = 2
    for start in range(1, size):
        node = start
        while state[node] == 0:
            state[node] = 1
            node = heads[node]
        if state[node] == 1:  # met the current walk again: a cycle
            return False
        node = start
        while state[node] == 1:
            state[node] = 2
            node = heads[node]
    return True


@jit(fastmath=False)
def is_projective(heads):
    """Whether no two arcs of the tree ``heads`` cross, the root drawn left of the
    words (arcs ``a–b`` and ``c–d`` cross when ``a < c < b < d``). O(n²).

    ``heads`` must be a tree (:func:`is_tree`).

    >>> import numpy as np
    >>> is_projective(np.array([-1, 2, 0, 2])), is_projective(np.array([-1, 3, 0, 2, 1]))
    (True, False)
    """
    size = heads.shape[0]
    for d in range(1, size):
        left, right = min(heads[d], d), max(heads[d], d)
        for e in range(d + 1, size):
            inner, outer = min(heads[e], e), max(heads[e], e)
            if left < inner < right < outer or inner < left < outer < right:
                return False
    return True


@jit(fastmath=False)
def tree_score(heads, arc_scores, sibling_scores):
    """The score of the tree ``heads``: ``Σ_d arc_scores[heads[d], d]`` summed over
    ``d = 1 … n`` in order, then, when ``sibling_scores`` is not of shape ``(0, 0, 0)``,
    the sibling factors of each head ``h = 0 … n`` in order: its children right of it
    going outward (``sibling_scores[h, h, c₁] + sibling_scores[h, c₁, c₂] + …``,
    ``h < c₁ < c₂ …``), then those left of it going outward (``c₁ > c₂ > …``).

    The sum's order is fixed so that the decoders, their tests and the approximate
    search compare the very same floating-point numbers.

    >>> import numpy as np
    >>> arcs = np.arange(9.0).reshape(3, 3)           # arcs[h, d]
    >>> heads = np.array([-1, 0, 1])                  # 0 → 1 → 2
    >>> float(tree_score(heads, arcs, np.zeros((0, 0, 0))))
    6.0
    >>> siblings = np.zeros((3, 3, 3)); siblings[1, 1, 2] = 0.5
    >>> float(tree_score(heads, arcs, siblings))
    6.5
    """
    size = heads.shape[0]
    total = 0.0
    for d in range(1, size):
        total += arc_scores[heads[d], d]
    if sibling_scores.shape[0] == 0:
        return total
    for h in range(size):
        previous = h
        for c in range(h + 1, size):
            if heads[c] == h:
                total += sibling_scores[h, previous, c]
                previous = c
        previous = h
        for c in range(h - 1, 0, -1):
            if heads[c] == h:
                total += sibling_scores[h, previous, c]
                previous = c
    return total


@jit(fastmath=False)
def grand_score(heads, grand_scores):
    """The grandchild factors of the tree ``heads``: ``Σ grand_scores[heads[h], h, d]``
    over the words ``d = 1 … n`` in order whose head ``h = heads[d]`` is a word (the
    root has no head, so its child has no grandchild factor).

    >>> import numpy as np
    >>> grands = np.zeros((4, 4, 4)); grands[1, 2, 3] = 2.0; grands[0, 1, 2] = 0.5
    >>> float(grand_score(np.array([-1, 0, 1, 2]), grands))   # 0 → 1 → 2 → 3
    2.5
    """
    total = 0.0
    for d in range(1, heads.shape[0]):
        h = heads[d]
        if h > 0:
            total += grand_scores[heads[h], h, d]
    return total
