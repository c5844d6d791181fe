"""The dependency-parsing decoders against every tree: all head assignments of 1 to 6
words are enumerated, the single-root trees (and among them the projective ones)
kept, and each decoder's tree must score the best of its class on many random score
matrices (integer scores for ties, -inf arcs, large magnitudes). Scores are compared,
as ties make the heads ambiguous, and the heads too where the best tree is unique."""

import functools
import itertools
import json
import os
import subprocess
import sys

import numba
import numpy as np
import pytest

from rosenblatt.structured._decoders import (
    arborescence_any_roots,
    check_scores,
    chu_liu_edmonds,
    eisner,
    eisner_any_roots,
    eisner_chart,
    eisner_grandparent,
    eisner_second_order,
    hill_climb,
    second_order_nonprojective,
)
from rosenblatt.structured._trees import (
    count_roots,
    grand_score,
    is_projective,
    is_tree,
    tree_score,
)

NO_SIBLINGS = np.zeros((0, 0, 0))

# -- references, written from the definitions -----------------------------------------


def reaches_root(heads):
    for d in range(1, len(heads)):
        seen, node = set(), d
        while node != 0:
            if node in seen:
                return False
            seen.add(node)
            node = heads[node]
    return True


def descends(heads, node, ancestor):
    while node != ancestor and node != 0:
        node = heads[node]
    return node == ancestor


def projective_by_descendants(heads):
    """Every word strictly between a head and its dependent descends from the head."""
    return all(descends(heads, k, heads[d])
               for d in range(1, len(heads))
               for k in range(min(heads[d], d) + 1, max(heads[d], d)))


@functools.cache
def trees(n):
    """Every tree of n words rooted at 0 (any number of root children): an int array
    (count, n + 1)."""
    choices = [[h for h in range(n + 1) if h != d] for d in range(1, n + 1)]
    found = [(-1,) + heads for heads in itertools.product(*choices)
             if reaches_root((-1,) + heads)]
    return np.array(found, dtype=np.int64).reshape(-1, n + 1)


@functools.cache
def single_root(n, projective):
    every = trees(n)
    keep = [i for i, heads in enumerate(every) if list(heads[1:]).count(0) == 1
            and (not projective or projective_by_descendants(heads))]
    return every[keep]


@functools.cache
def sibling_triples(n, projective):
    """For each tree of :func:`single_root`, its n sibling factors (h, s, c): each word
    c is one head's child, after one s (its previous sibling outward, or the head)."""
    rows = []
    for heads in single_root(n, projective):
        triples = []
        for c in range(1, n + 1):
            h = heads[c]
            step = 1 if c > h else -1
            inner = [k for k in range(h + step, c, step) if heads[k] == h]
            triples.append((h, inner[-1] if inner else h, c))
        rows.append(triples)
    return np.array(rows, dtype=np.int64).reshape(-1, n, 3)


@functools.cache
def grand_triples(n):
    """For each projective tree of :func:`single_root`, its grandchild factors (g, h,
    d): each word d whose head h is a word, with g the head of h; the root's child
    gets the triple (0, 0, 0), whose score the tests set to 0."""
    rows = []
    for heads in single_root(n, True):
        rows.append([(heads[heads[d]], heads[d], d) if heads[d] > 0 else (0, 0, 0)
                     for d in range(1, n + 1)])
    return np.array(rows, dtype=np.int64).reshape(-1, n, 3)


def all_scores(n, projective, arcs, siblings=None, grands=None):
    candidates = single_root(n, projective)
    words = np.arange(1, n + 1)
    total = arcs[candidates[:, 1:], words].sum(axis=1)
    if siblings is not None:
        t = sibling_triples(n, projective)
        total = total + siblings[t[..., 0], t[..., 1], t[..., 2]].sum(axis=1)
    if grands is not None:
        t = grand_triples(n)
        zeroed = grands.copy()
        zeroed[0, 0, 0] = 0.0
        total = total + zeroed[t[..., 0], t[..., 1], t[..., 2]].sum(axis=1)
    return candidates, total


def random_scores(rng, n, kind, order=2):
    shape = (n + 1,) * order
    if kind == "integer":  # few values: many ties
        return rng.randint(-2, 3, size=shape).astype(float)
    if kind == "normal":
        return rng.normal(size=shape)
    if kind == "large":  # exact multiples of 2^40 and tiny ones: exact sums, huge range
        return rng.randint(-3, 4, size=shape) * 2.0**40 + rng.randint(-3, 4, size=shape)
    scores = rng.randint(-2, 3, size=shape).astype(float)  # "forbidden": some -inf arcs
    scores[rng.rand(*shape) < 0.3] = -np.inf
    return scores


KINDS = ["integer", "normal", "large", "forbidden"]
EXACT = {"integer", "large", "forbidden"}


def assert_best(heads, candidates, totals, value, kind):
    """``value`` (the decoded tree's score) is the best of ``totals``; where that best is
    reached by one tree only, ``heads`` is that tree."""
    best = totals.max()
    if kind in EXACT:
        assert value == best
        winners = totals == best
    else:
        assert np.isclose(value, best, rtol=1e-12, atol=1e-12)
        winners = np.isclose(totals, best, rtol=1e-12, atol=1e-12)
    if winners.sum() == 1 and np.isfinite(best):
        np.testing.assert_array_equal(heads, candidates[np.argmax(winners)])


def assert_single_root_tree(heads, n):
    assert heads.dtype == np.int64 and heads.shape == (n + 1,) and heads[0] == -1
    assert is_tree(heads) and reaches_root(heads) and count_roots(heads) == 1


CASES = [(n, kind, seed) for n in range(1, 7) for kind in KINDS
         for seed in range(12 if n < 6 else 4)]


# -- the helpers -----------------------------------------------------------------------


@pytest.mark.parametrize("n", range(6))
def test_helpers_agree_with_their_definitions(n):
    for heads in trees(n):
        assert is_tree(heads)
        assert count_roots(heads) == list(heads[1:]).count(0)
        assert is_projective(heads) == projective_by_descendants(heads)
    # every assignment that is not a tree, and malformed arrays
    choices = [range(n + 1)] * n
    for rest in itertools.product(*choices):
        heads = np.array((-1,) + rest, dtype=np.int64)
        selfish = any(heads[d] == d for d in range(1, n + 1))
        assert is_tree(heads) == (not selfish and reaches_root(heads))
    for bad in ([0], [], [-1, 2], [-1, -1], [0, 0]):
        assert not is_tree(np.array(bad, dtype=np.int64))


def test_tree_score_adds_the_arcs_then_each_heads_siblings_outward():
    rng = np.random.RandomState(0)
    for n in range(1, 6):
        arcs, siblings = rng.normal(size=(n + 1, n + 1)), rng.normal(size=(n + 1,) * 3)
        for projective in (True, False):
            candidates, totals = all_scores(n, projective, arcs, siblings)
            arcs_only = all_scores(n, projective, arcs)[1]
            for heads, total, first in zip(candidates, totals, arcs_only):
                assert np.isclose(tree_score(heads, arcs, siblings), total, rtol=1e-12)
                assert tree_score(heads, arcs, NO_SIBLINGS) == first
    # by hand: 0 → 2, 2 → 1, 2 → 3, 2 → 4 (right children 3 then 4)
    heads, arcs = np.array([-1, 2, 0, 2, 2]), np.zeros((5, 5))
    siblings = np.zeros((5, 5, 5))
    siblings[0, 0, 2], siblings[2, 2, 1], siblings[2, 2, 3], siblings[2, 3, 4] = 1, 10, 100, 1e3
    siblings[2, 2, 4] = 1e4  # 4 is not 2's closest right child: not counted
    assert tree_score(heads, arcs, siblings) == 1111.0


# -- the decoders against every tree ---------------------------------------------------


@pytest.mark.parametrize("n, kind, seed", CASES)
def test_eisner_finds_the_best_projective_single_root_tree(n, kind, seed):
    scores = random_scores(np.random.RandomState(seed), n, kind)
    heads = eisner(scores)
    assert_single_root_tree(heads, n)
    assert is_projective(heads)
    candidates, totals = all_scores(n, True, scores)
    value = tree_score(heads, scores, NO_SIBLINGS)
    assert_best(heads, candidates, totals, value, kind)
    # the chart's last cell is the tree's score (the same sum in another order)
    assert np.isclose(eisner_chart(scores)["complete_right"][0, n], value, rtol=1e-12, atol=0)


@pytest.mark.parametrize("n, kind, seed", CASES)
def test_chu_liu_edmonds_finds_the_best_single_root_tree(n, kind, seed):
    scores = random_scores(np.random.RandomState(100 + seed), n, kind)
    heads = chu_liu_edmonds(scores)
    assert_single_root_tree(heads, n)
    candidates, totals = all_scores(n, False, scores)
    value = tree_score(heads, scores, NO_SIBLINGS)
    if kind == "normal":  # tree_score's own sums: the best, to the last bit
        totals = np.array([tree_score(tree, scores, NO_SIBLINGS) for tree in candidates])
        assert value == totals.max()
    assert_best(heads, candidates, totals, value, kind)
    if kind == "forbidden":  # the fewest -inf arcs, then the best sum of the others
        words = np.arange(1, n + 1)
        arcs = scores[candidates[:, 1:], words]
        keys = [(np.isneginf(row).sum(), -row[np.isfinite(row)].sum()) for row in arcs]
        mine = scores[heads[1:], words]
        assert (np.isneginf(mine).sum(), -mine[np.isfinite(mine)].sum()) == min(keys)


@pytest.mark.parametrize("n, kind, seed", CASES)
def test_without_the_root_constraint_the_best_of_every_tree(n, kind, seed):
    scores = random_scores(np.random.RandomState(400 + seed), n, kind)
    every = trees(n)
    projective = np.array([projective_by_descendants(heads) for heads in every])
    totals = scores[every[:, 1:], np.arange(1, n + 1)].sum(axis=1)
    anything = np.ones_like(projective, dtype=bool)
    for heads, among in ((eisner_any_roots(scores), projective),
                         (arborescence_any_roots(scores), anything)):
        assert heads.dtype == np.int64 and heads[0] == -1 and is_tree(heads)
        assert is_projective(heads) or among is anything
        assert_best(heads, every[among], totals[among],
                    tree_score(heads, scores, NO_SIBLINGS), kind)


@pytest.mark.parametrize("n, kind, seed", CASES)
def test_second_order_eisner_finds_the_best_projective_tree(n, kind, seed):
    rng = np.random.RandomState(200 + seed)
    arcs, siblings = random_scores(rng, n, kind), random_scores(rng, n, kind, order=3)
    heads = eisner_second_order(arcs, siblings)
    assert_single_root_tree(heads, n)
    assert is_projective(heads)
    candidates, totals = all_scores(n, True, arcs, siblings)
    assert_best(heads, candidates, totals, tree_score(heads, arcs, siblings), kind)


GRAND_CASES = CASES + [(7, kind, seed) for kind in ("normal", "forbidden") for seed in range(2)]


@pytest.mark.parametrize("n, kind, seed", GRAND_CASES)
def test_the_grandparent_chart_finds_the_best_projective_tree(n, kind, seed):
    """Every single-root projective tree of up to 7 words scored by arcs, siblings and
    grandchildren: the decoded one scores the best (the very tree where it is unique)."""
    rng = np.random.RandomState(400 + seed)
    arcs, siblings = random_scores(rng, n, kind), random_scores(rng, n, kind, order=3)
    grands = random_scores(rng, n, kind, order=3)
    heads = eisner_grandparent(arcs, siblings, grands)
    assert_single_root_tree(heads, n)
    assert is_projective(heads)
    candidates, totals = all_scores(n, True, arcs, siblings, grands)
    value = tree_score(heads, arcs, siblings) + grand_score(heads, grands)
    assert_best(heads, candidates, totals, value, kind)


def test_the_grandparent_factors_change_the_tree():
    """A grandchild factor the sibling chart cannot see decides: 3 goes under 2 only
    when 2 is under 1."""
    arcs = np.zeros((4, 4))
    arcs[0, 1] = 1.0
    arcs[1, 3] = 0.5  # alone, 3 would rather hang from 1
    siblings, grands = np.zeros((4, 4, 4)), np.zeros((4, 4, 4))
    assert eisner_second_order(arcs, siblings).tolist() == \
        eisner_grandparent(arcs, siblings, grands).tolist()
    assert eisner_grandparent(arcs, siblings, grands)[3] == 1
    grands[1, 2, 3] = 1.0
    assert eisner_grandparent(arcs, siblings, grands).tolist() == [-1, 0, 1, 2]
    grands[0, 1, 2] = grands[0, 0, 1] = 100.0  # never read: the root has no head
    grands[3, 1, 2] = 100.0  # nor a grandparent inside the span of h and d
    assert eisner_grandparent(arcs, siblings, grands).tolist() == [-1, 0, 1, 2]


@pytest.mark.parametrize("n, kind, seed", CASES)
def test_the_approximate_search_improves_on_the_projective_tree(n, kind, seed):
    rng = np.random.RandomState(300 + seed)
    arcs, siblings = random_scores(rng, n, kind), random_scores(rng, n, kind, order=3)
    projective = eisner_second_order(arcs, siblings)
    heads = second_order_nonprojective(arcs, siblings)
    assert_single_root_tree(heads, n)
    value = tree_score(heads, arcs, siblings)
    assert value >= tree_score(projective, arcs, siblings)
    totals = all_scores(n, False, arcs, siblings)[1]
    assert value <= totals.max() or np.isclose(value, totals.max(), rtol=1e-12)
    # a local optimum: no single head change that keeps one root child scores more
    for d in range(1, n + 1):
        for h in range(1, n + 1):
            if heads[d] == 0 or h in (d, heads[d]):
                continue
            moved = heads.copy()
            moved[d] = h
            if is_tree(moved):
                assert not tree_score(moved, arcs, siblings) > value + 1e-9 * abs(value)


def test_the_search_finds_a_non_projective_tree_the_charts_cannot():
    arcs = np.zeros((5, 5))
    arcs[0, 2] = arcs[2, 4] = arcs[4, 1] = arcs[2, 3] = 1.0
    siblings = np.zeros((5, 5, 5))
    assert tree_score(eisner_second_order(arcs, siblings), arcs, siblings) == 3.0
    heads = second_order_nonprojective(arcs, siblings)
    assert heads.tolist() == chu_liu_edmonds(arcs).tolist() == [-1, 4, 0, 2, 2]
    assert not is_projective(heads)
    # with first-order scores the climb is a first-order search
    start = eisner(arcs)
    assert hill_climb(start, arcs, NO_SIBLINGS) == 4.0 and start.tolist() == heads.tolist()


def test_every_decoder_keeps_one_root_child_where_the_arcs_want_several():
    n = 6
    arcs = np.full((n + 1, n + 1), -1.0)
    arcs[0, 1:] = 5.0  # each word would rather hang from the root
    siblings = np.zeros((n + 1,) * 3)
    for heads in (eisner(arcs), chu_liu_edmonds(arcs), eisner_second_order(arcs, siblings),
                  second_order_nonprojective(arcs, siblings),
                  eisner_grandparent(arcs, siblings, siblings)):
        assert_single_root_tree(heads, n)
        assert tree_score(heads, arcs, NO_SIBLINGS) == 5.0 - (n - 1)


def test_an_empty_sentence_and_one_word():
    for decode in (eisner, chu_liu_edmonds):
        assert decode(np.zeros((1, 1))).tolist() == [-1]
        assert decode(np.zeros((2, 2))).tolist() == [-1, 0]
    for decode in (eisner_second_order, second_order_nonprojective):
        assert decode(np.zeros((1, 1)), np.zeros((1, 1, 1))).tolist() == [-1]
        assert decode(np.zeros((2, 2)), np.zeros((2, 2, 2))).tolist() == [-1, 0]
    assert eisner_grandparent(np.zeros((1, 1)), np.zeros((1, 1, 1)),
                              np.zeros((1, 1, 1))).tolist() == [-1]
    assert eisner_grandparent(np.zeros((2, 2)), np.zeros((2, 2, 2)),
                              np.zeros((2, 2, 2))).tolist() == [-1, 0]


def test_only_forbidden_arcs_still_give_a_tree():
    for n in (1, 4, 9):
        arcs = np.full((n + 1, n + 1), -np.inf)
        siblings = np.full((n + 1,) * 3, -np.inf)
        for heads in (eisner(arcs), chu_liu_edmonds(arcs), eisner_second_order(arcs, siblings),
                      second_order_nonprojective(arcs, siblings),
                      eisner_grandparent(arcs, siblings, siblings)):
            assert_single_root_tree(heads, n)


def test_long_sentences_give_single_root_trees_and_cle_beats_eisner():
    rng = np.random.RandomState(7)
    for n in (15, 40, 80):
        arcs = rng.normal(size=(n + 1, n + 1))
        siblings = rng.normal(size=(n + 1,) * 3) * 0.3
        projective, anything = eisner(arcs), chu_liu_edmonds(arcs)
        assert_single_root_tree(projective, n)
        assert_single_root_tree(anything, n)
        assert is_projective(projective)
        assert tree_score(anything, arcs, NO_SIBLINGS) >= tree_score(projective, arcs,
                                                                    NO_SIBLINGS) - 1e-9
        second, searched = eisner_second_order(arcs, siblings), \
            second_order_nonprojective(arcs, siblings)
        assert_single_root_tree(second, n)
        assert_single_root_tree(searched, n)
        assert is_projective(second)
        assert tree_score(searched, arcs, siblings) >= tree_score(second, arcs, siblings)
        grandparent = eisner_grandparent(arcs, siblings, np.zeros_like(siblings))
        assert_single_root_tree(grandparent, n)
        assert is_projective(grandparent)
        assert np.isclose(tree_score(grandparent, arcs, siblings),
                          tree_score(second, arcs, siblings), rtol=1e-12)


@pytest.mark.parametrize("direction", ["rightward", "leftward", "nested"])
def test_the_deepest_derivations_fit_the_back_pointer_stack(direction):
    """Chains are the deepest derivations: the plain-Python bodies (whose arrays check
    their bounds) follow them, and the compiled ones return the same trees."""
    n = 30
    if direction == "rightward":
        chain = [-1, *range(n)]  # 0 → 1 → 2 … → n
    elif direction == "leftward":
        chain = [-1, *range(2, n + 1), 0]  # 0 → n → n-1 … → 1
    else:
        middle = n // 2  # 0 → middle, then outward both ways
        chain = [-1] + [d + 1 for d in range(1, middle)] + [0] + \
            [d - 1 for d in range(middle + 1, n + 1)]
    arcs = np.zeros((n + 1, n + 1))
    arcs[chain[1:], np.arange(1, n + 1)] = 1.0
    siblings = np.zeros((n + 1,) * 3)
    for decode, args in ((eisner, (arcs,)), (eisner_any_roots, (arcs,)),
                         (eisner_second_order, (arcs, siblings)),
                         (eisner_grandparent, (arcs, siblings, siblings))):
        assert decode.py_func(*args).tolist() == decode(*args).tolist() == chain


def test_the_chart_tables_for_a_figure():
    scores = np.arange(16.0).reshape(4, 4)
    chart = eisner_chart(scores)
    assert set(chart) == {"complete_right", "complete_left", "incomplete_right",
                          "incomplete_left"}
    for table in chart.values():
        assert table.shape == (4, 4) and np.isnan(table[np.tril_indices(4, -1)]).all()
    assert np.isneginf(chart["incomplete_left"][0, 1:]).all()  # the root is no dependent
    assert np.isneginf(chart["complete_right"][0, 1:3]).all()  # one root child
    heads = eisner(scores)
    assert chart["complete_right"][0, 3] == tree_score(heads, scores, NO_SIBLINGS)


# -- called from compiled code, and run as plain Python --------------------------------


@numba.njit
def decode_all(arcs, siblings):
    first, anything = eisner(arcs), chu_liu_edmonds(arcs)
    second = eisner_second_order(arcs, siblings)
    searched = second_order_nonprojective(arcs, siblings)
    roots = count_roots(eisner_any_roots(arcs)) + count_roots(arborescence_any_roots(arcs))
    grandparent = eisner_grandparent(arcs, siblings, siblings)
    return (first, anything, second, searched, tree_score(second, arcs, siblings),
            is_projective(anything), count_roots(first) + roots, is_tree(searched),
            grandparent, grand_score(grandparent, siblings))


def test_the_decoders_can_be_called_from_compiled_code():
    rng = np.random.RandomState(3)
    arcs, siblings = rng.normal(size=(8, 8)), rng.normal(size=(8, 8, 8))
    first, anything, second, searched, value, projective, roots, tree, grandparent, \
        grand = decode_all(arcs, siblings)
    assert grandparent.tolist() == eisner_grandparent(arcs, siblings, siblings).tolist()
    assert grand == grand_score(grandparent, siblings)
    assert first.tolist() == eisner(arcs).tolist()
    assert anything.tolist() == chu_liu_edmonds(arcs).tolist()
    assert searched.tolist() == second_order_nonprojective(arcs, siblings).tolist()
    assert value == tree_score(second, arcs, siblings) and tree
    assert roots == 1 + count_roots(eisner_any_roots(arcs)) + \
        count_roots(arborescence_any_roots(arcs))
    assert projective == is_projective(anything)


SCRIPT = """
import json
import numpy as np
from rosenblatt.structured._decoders import (arborescence_any_roots, chu_liu_edmonds,
    eisner, eisner_any_roots, eisner_chart, eisner_grandparent, eisner_second_order,
    second_order_nonprojective)
from rosenblatt.structured._trees import (count_roots, grand_score, is_projective, is_tree,
    tree_score)
rng = np.random.RandomState(11)
out = []
for n in (0, 1, 2, 5, 9, 14):
    for integer in (True, False):
        arcs = rng.randint(-2, 3, size=(n + 1, n + 1)) * 1.0 if integer else \\
            rng.normal(size=(n + 1, n + 1))
        siblings = rng.randint(-2, 3, size=(n + 1,) * 3) * 1.0 if integer else \\
            rng.normal(size=(n + 1,) * 3)
        if integer and n > 2:
            arcs[rng.rand(n + 1, n + 1) < 0.2] = -np.inf
        grands = rng.normal(size=(n + 1,) * 3)
        trees = [eisner(arcs), chu_liu_edmonds(arcs), eisner_second_order(arcs, siblings),
                 second_order_nonprojective(arcs, siblings), eisner_any_roots(arcs),
                 arborescence_any_roots(arcs), eisner_grandparent(arcs, siblings, grands)]
        chart = eisner_chart(arcs)["complete_right"][0, n]
        out.append([[tree.tolist() for tree in trees], str(chart),
                    [[str(tree_score(tree, arcs, siblings)), int(count_roots(tree)),
                      bool(is_tree(tree)), bool(is_projective(tree)),
                      str(grand_score(tree, grands))] for tree in trees]])
print(json.dumps(out))
"""


def test_python_decoders_equal_compiled_decoders():
    """Under NUMBA_DISABLE_JIT=1 the decoders' plain-Python bodies run (what coverage
    sees): the same trees, bit for bit."""
    results = []
    for disable in ("1", "0"):
        env = dict(os.environ, NUMBA_DISABLE_JIT=disable)
        done = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True,
                              text=True, check=True)
        results.append(json.loads(done.stdout))
    assert results[0] == results[1] and len(results[0]) == 12


# -- the callers' check ----------------------------------------------------------------


@pytest.mark.parametrize("scores, siblings, message", [
    (np.zeros((3, 4)), None, "shape"),
    (np.zeros((0, 0)), None, "shape"),
    (np.zeros(3), None, "shape"),
    (np.array([[0.0, np.nan], [0.0, 0.0]]), None, "NaN"),
    (np.array([[0.0, np.inf], [0.0, 0.0]]), None, r"\+inf"),
    (np.zeros((2, 2)), np.zeros((2, 2)), "sibling scores must be of shape"),
    (np.zeros((2, 2)), np.full((2, 2, 2), np.nan), "sibling scores hold NaN"),
])
def test_check_scores_refuses_what_is_not_decoded(scores, siblings, message):
    with pytest.raises(ValueError, match=message):
        check_scores(scores, siblings)
    check_scores(np.full((3, 3), -np.inf), np.zeros((3, 3, 3)))  # -inf is allowed
