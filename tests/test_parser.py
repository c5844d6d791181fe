"""The dependency parser: its compiled features and epoch against plain Python, the
averaged weights, training to a perfect parse, model files, mixing, bad input,
attachment scores, and a slice of UD English EWT."""

import hashlib
import itertools
import json
import pathlib
import warnings

import numpy as np
import pytest

from rosenblatt.datasets import ConlluSentence
from rosenblatt.distributed import ParameterMixing
from rosenblatt.io import ModelFileError, load, save
from rosenblatt.metrics import attachment_scores, relation_scores
from rosenblatt.structured import DependencyParser, _arcs
from rosenblatt.structured._decoders import eisner, eisner_grandparent
from rosenblatt.structured._parser import (
    ARC_TEMPLATES,
    GRAND_TEMPLATES,
    LABEL_TEMPLATES,
    SIBLING_TEMPLATES,
    SPECS,
    encode,
    targets,
)

TREEBANKS = pathlib.Path(__file__).resolve().parents[2] / "shared" / "data" / "treebanks"

Sentence = ConlluSentence.from_columns

# ------------------------------------------------------------------ a tiny treebank

#: (forms, UPOS, heads, relations): projective trees
TINY = [
    ("the dog barks", "DET NOUN VERB", [2, 3, 0], "det nsubj root"),
    ("a cat sleeps", "DET NOUN VERB", [2, 3, 0], "det nsubj root"),
    ("the cat sees a dog", "DET NOUN VERB DET NOUN", [2, 3, 0, 5, 3],
     "det nsubj root det obj"),
    ("dogs chase cats quickly", "NOUN VERB NOUN ADV", [2, 0, 2, 2], "nsubj root obj advmod"),
    ("the big dog sleeps", "DET ADJ NOUN VERB", [3, 3, 4, 0], "det amod nsubj root"),
    ("a cat sleeps on the mat", "DET NOUN VERB ADP DET NOUN", [2, 3, 0, 6, 6, 3],
     "det nsubj root case det obl"),
    ("sleep", "VERB", [0], "root"),
]


def tiny():
    return [Sentence(forms.split(), upos=upos.split(), xpos=upos.split(),
                     lemma=forms.split(), head=heads, deprel=relations.split())
            for forms, upos, heads, relations in TINY]


SMALL = {"n_features": 2**12, "n_label_features": 2**8}

# ------------------------------------------------------- the features in plain Python

_M64 = 2**64 - 1


def _mix(h, value):
    return ((h ^ value) * 0x100000001B3) & _M64


def _index(h, mask):
    h ^= h >> 33
    h = (h * 0xFF51AFD7ED558CCD) & _M64
    h ^= h >> 33
    return h & mask


def _distance(h, d):
    length = abs(d - h)
    return (length if length <= 5 else 6 if length <= 10 else 7) + (8 if d > h else 0)


def _templates(X, start, n, templates, nodes, dd, mask, base=0):
    out = []
    for t, parts in enumerate(templates):
        h = _mix(0xCBF29CE484222325, base + t + 1)
        for role, offset, column in parts:
            node = nodes[role]
            if role == _arcs.SIB and node == nodes[_arcs.HEAD]:
                value = int(_arcs._FIRST)
            elif node < 0:
                value = int(_arcs._NONE)
            elif node + offset < 0:
                value = int(_arcs._BEFORE)
            elif node + offset > n:
                value = int(_arcs._AFTER)
            else:
                value = int(X[start + node + offset, column])
            h = _mix(h, value)
        out += [_index(h, mask), _index(_mix(h, dd), mask)]
    return out


def arc_features(X, start, n, h, d, mask):
    dd = _distance(h, d)
    out = _templates(X, start, n, ARC_TEMPLATES, [h, d, -1, -1, -1, -1], dd, mask)
    low, high = min(h, d), max(h, d)
    base = _mix(_mix(_mix(0xCBF29CE484222325, 0), int(X[start + h, _arcs.UPOS])),
                int(X[start + d, _arcs.UPOS]))
    for tag in sorted({int(X[start + p, _arcs.UPOS]) for p in range(low + 1, high)}):
        f = _mix(base, tag)
        out += [_index(f, mask), _index(_mix(f, dd), mask)]
    return out


def label_features(X, start, n, h, d, left, right, grand, sib, mask):
    """The labeller's rows; ``nodes`` by role: head, dependent, sibling next inward,
    leftmost and rightmost child, the head's head."""
    return _templates(X, start, n, LABEL_TEMPLATES, [h, d, sib, left, right, grand],
                      _distance(h, d), mask)


def sibling_features(X, start, n, h, s, c, mask):
    """``c`` the next child of ``h`` after ``s`` (``s == h``: the closest)."""
    return _templates(X, start, n, SIBLING_TEMPLATES, [h, c, s, -1, -1, -1],
                      _distance(h, c), mask)


def grand_features(X, start, n, g, h, d, mask):
    """``d`` a child of ``h`` whose head is ``g``: the templates numbered from 1001,
    with the direction and distance of ``h → d`` and the side of ``g``."""
    return _templates(X, start, n, GRAND_TEMPLATES, [h, d, -1, -1, -1, g],
                      _distance(h, d) + (16 if g > h else 0), mask, base=1000)


def inner_sibling(heads, c):
    """The child of ``heads[c]`` next to ``c`` towards it, or the head if none."""
    h = heads[c]
    between = range(c - 1, h, -1) if c > h else range(c + 1, h)
    return next((s for s in between if heads[s] == h), h)


def _squared_norm(plus, minus):
    """``‖Δ‖²`` of the count vector +1 at each of ``plus``, -1 at each of ``minus``."""
    counts = {}
    for f in plus:
        counts[f] = counts.get(f, 0) + 1
    for f in minus:
        counts[f] = counts.get(f, 0) - 1
    return float(sum(v * v for v in counts.values()))


def reference_epoch(X, y, bounds, order, w, u, sizes, seen, mira=False, C=1.0):
    """Collins' epoch with the labeller, in plain Python (first order, Eisner); with
    ``mira`` 1-best MIRA's step (passive-aggressive, capped at ``C``) on both."""
    n_arc, n_rows, n_labels = sizes
    mistakes = 0
    for s in order:
        seen += 1
        start, n = bounds[s], bounds[s + 1] - bounds[s] - 1
        scores = np.full((n + 1, n + 1), -np.inf)
        for h in range(n + 1):
            for d in range(1, n + 1):
                if h != d:
                    scores[h, d] = sum(w[f] for f in arc_features(X, start, n, h, d,
                                                                  n_arc - 1))
        heads = [int(head) for head in eisner(scores)]
        gold = [-1] + [int(y[start + d, 0]) for d in range(1, n + 1)]
        wrong = False
        tau = 1.0
        if mira:
            wrong_words = [d for d in range(1, n + 1) if heads[d] != gold[d]]
            plus = [f for d in wrong_words for f in arc_features(X, start, n, gold[d], d,
                                                                   n_arc - 1)]
            minus = [f for d in wrong_words for f in arc_features(X, start, n, heads[d], d,
                                                                    n_arc - 1)]
            margin = 0.0  # w·Δf, summed in the kernel's order
            for d in wrong_words:
                for f in arc_features(X, start, n, gold[d], d, n_arc - 1):
                    margin += w[f]
                for f in arc_features(X, start, n, heads[d], d, n_arc - 1):
                    margin -= w[f]
            norm = _squared_norm(plus, minus)
            tau = min(C, max(0.0, (len(wrong_words) - margin) / norm)) if norm else 0.0
        for d in range(1, n + 1):
            if heads[d] != gold[d]:
                wrong = True
                for head, step in ((gold[d], tau), (heads[d], -tau)):
                    for f in arc_features(X, start, n, head, d, n_arc - 1):
                        w[f] += step
                        u[f] += seen * step
        wrong = reference_labeller(X, y, start, n, gold, w, u, seen, sizes, mira, C) or wrong
        mistakes += wrong
    return mistakes, seen


def reference_labeller(X, y, start, n, gold, w, u, seen, sizes, mira=False, C=1.0):
    """The labeller's pass over a sentence's gold arcs, in plain Python: each word's
    relation predicted from its label rows, a wrong one moving the gold relation's
    weights up and the predicted one's down (by 1, or MIRA's step capped at ``C``);
    whether any was wrong."""
    n_arc, n_rows, n_labels = sizes
    wrong = False
    for d in range(1, n + 1):
        children = [c for c in range(1, n + 1) if gold[c] == d]
        left, right = (min(children), max(children)) if children else (-1, -1)
        grand = gold[gold[d]] if gold[d] > 0 else -1
        rows = label_features(X, start, n, gold[d], d, left, right, grand,
                              inner_sibling(gold, d), n_rows - 1)
        totals = [sum(w[n_arc + r * n_labels + k] for r in rows) for k in range(n_labels)]
        predicted, label = int(np.argmax(totals)), int(y[start + d, 1])
        if predicted != label:
            wrong = True
            tau = 1.0
            if mira:
                margin = 0.0
                for r in rows:
                    margin += w[n_arc + r * n_labels + label] \
                        - w[n_arc + r * n_labels + predicted]
                tau = min(C, max(0.0, (1.0 - margin) / (2.0 * _squared_norm(rows, []))))
            for k, step in ((label, tau), (predicted, -tau)):
                for r in rows:
                    w[n_arc + r * n_labels + k] += step
                    u[n_arc + r * n_labels + k] += seen * step
    return wrong


def _factor(tree, d, kind, keep):
    """Word ``d``'s arc ``(h, d)``, sibling ``(h, s, d)`` or grandchild factor ``(g, h,
    d)`` in ``tree`` (None: no grandchild factor scored, see ``keep``)."""
    h = tree[d]
    if kind == "arc":
        return (h, d)
    if kind == "sibling":
        return (h, inner_sibling(tree, d), d)
    return (tree[h], h, d) if h > 0 and (h, d) in keep and (tree[h], h) in keep else None


def reference_grandparent_epoch(X, y, bounds, order, w, u, sizes, seen):
    """The perceptron's epoch with the grandparent decoder, in plain Python: arcs,
    siblings and the grandchild factors of the candidate arcs (the ``GRAND_HEADS``
    best-scored heads of each word) are scored, decoded, and each factor that
    differs from the gold tree's moves the weights; the labeller as in
    :func:`reference_epoch`."""
    n_arc, n_rows, n_labels = sizes
    mistakes = 0
    for s in order:
        seen += 1
        start, n = bounds[s], bounds[s + 1] - bounds[s] - 1
        arcs = np.full((n + 1, n + 1), -np.inf)
        for h in range(n + 1):
            for d in range(1, n + 1):
                if h != d:
                    arcs[h, d] = sum(w[f] for f in arc_features(X, start, n, h, d, n_arc - 1))
        siblings = np.zeros((n + 1,) * 3)
        for h in range(n + 1):
            for c in range(1, n + 1):
                step = 1 if c > h else -1
                for sib in range(h, c, step) if c != h else ():
                    siblings[h, sib, c] = sum(w[f] for f in sibling_features(
                        X, start, n, h, sib, c, n_arc - 1))
        keep = set()  # the candidate arcs: each word's best heads, the first on ties
        for d in range(1, n + 1):
            ranked = sorted(range(n + 1), key=lambda h: -arcs[h, d])
            keep |= {(h, d) for h in ranked[:min(_arcs.GRAND_HEADS, n)]
                     if arcs[h, d] > -np.inf}
        grands = np.zeros((n + 1,) * 3)
        for g, h, d in itertools.product(range(n + 1), range(1, n + 1), range(1, n + 1)):
            if d != h and not min(h, d) <= g <= max(h, d) and (h, d) in keep \
                    and (g, h) in keep:
                grands[g, h, d] = sum(w[f] for f in grand_features(X, start, n, g, h, d,
                                                                     n_arc - 1))
        heads = [int(head) for head in eisner_grandparent(arcs, siblings, grands)]
        gold = [-1] + [int(y[start + d, 0]) for d in range(1, n + 1)]

        features = {"arc": arc_features, "sibling": sibling_features,
                    "grand": grand_features}
        wrong = False
        for kind in ("arc", "sibling", "grand"):
            for d in range(1, n + 1):
                ours, theirs = _factor(gold, d, kind, keep), _factor(heads, d, kind, keep)
                differs = heads[d] != gold[d] or (
                    kind == "sibling" and ours != theirs) or (
                    kind == "grand" and gold[d] > 0 and heads[gold[d]] != gold[gold[d]])
                if not differs:
                    continue
                wrong = True
                for f, step in ((ours, 1.0), (theirs, -1.0)):
                    if f is not None:
                        for k in features[kind](X, start, n, *f, n_arc - 1):
                            w[k] += step
                            u[k] += seen * step
        wrong = reference_labeller(X, y, start, n, gold, w, u, seen, sizes) or wrong
        mistakes += wrong
    return mistakes, seen


def encoded(sentences):
    X, bounds = encode(sentences)
    classes = np.array(sorted({r for s in sentences for r in s.column("deprel")}))
    heads = [s.heads for s in sentences]
    y = targets(heads, [s.column("deprel") for s in sentences], classes, bounds)
    return X, bounds, y, classes


def test_the_compiled_features_are_the_plain_hashes():
    X, bounds, _, _ = encoded(tiny())
    counts = np.zeros((12, _arcs.N_TAGS), dtype=np.int64)
    out = np.empty(400, dtype=np.int64)
    for s in range(len(TINY)):
        start, n = bounds[s], bounds[s + 1] - bounds[s] - 1
        _arcs.tag_counts(X, start, n, counts)
        for h in range(n + 1):
            for d in range(1, n + 1):
                if h != d:
                    m = _arcs.arc_features(X, start, n, SPECS[0], counts, h, d,
                                           np.uint64(2**20 - 1), out)
                    assert out[:m].tolist() == arc_features(X, start, n, h, d, 2**20 - 1)
                    for grand, sib in ((-1, h), (0, d - 1 if d > h else d + 1), (n, h)):
                        m = _arcs.label_features(X, start, n, SPECS[2], h, d, 1, n, grand,
                                                 sib, np.uint64(2**10 - 1), out)
                        assert out[:m].tolist() == label_features(X, start, n, h, d, 1, n,
                                                                  grand, sib, 2**10 - 1)


def test_the_compiled_epoch_is_the_plain_loop_exactly():
    X, bounds, y, classes = encoded(tiny())
    sizes = (2**10, 2**6, len(classes))
    size = sizes[0] + sizes[1] * sizes[2]
    w, u, seen = np.zeros(size), np.zeros(size), np.zeros(1, dtype=np.int64)
    w_ref, u_ref, seen_ref = np.zeros(size), np.zeros(size), 0
    rng = np.random.default_rng(0)
    for _ in range(3):
        order = rng.permutation(len(TINY)).astype(np.intp)
        mistakes = _arcs.parser_epoch(X, y, bounds, order, SPECS, w, u, sizes, _arcs.EISNER,
                                      seen)
        expected, seen_ref = reference_epoch(X, y, bounds, order, w_ref, u_ref, sizes,
                                             seen_ref)
        assert mistakes == expected
        assert np.array_equal(w, w_ref) and np.array_equal(u, u_ref)
        assert seen[0] == seen_ref
    assert np.any(w != 0)


def test_the_compiled_grandparent_epoch_is_the_plain_loop_exactly():
    X, bounds, y, classes = encoded(tiny())
    sizes = (2**10, 2**6, len(classes))
    size = sizes[0] + sizes[1] * sizes[2]
    w, u, seen = np.zeros(size), np.zeros(size), np.zeros(1, dtype=np.int64)
    w_ref, u_ref, seen_ref = np.zeros(size), np.zeros(size), 0
    rng = np.random.default_rng(0)
    for _ in range(3):
        order = rng.permutation(len(TINY)).astype(np.intp)
        mistakes = _arcs.parser_epoch(X, y, bounds, order, SPECS, w, u, sizes,
                                      _arcs.GRANDPARENT, seen)
        expected, seen_ref = reference_grandparent_epoch(X, y, bounds, order, w_ref, u_ref,
                                                         sizes, seen_ref)
        assert mistakes == expected
        assert np.array_equal(w, w_ref) and np.array_equal(u, u_ref)
    # the grandchild features were learnt: some moved weight only they reach
    out = np.empty(400, dtype=np.int64)
    m = _arcs.grand_features(X, bounds[2], 5, SPECS[3], 3, 5, 4, np.uint64(2**10 - 1), out)
    assert out[:m].tolist() == grand_features(X, bounds[2], 5, 3, 5, 4, 2**10 - 1)
    assert np.any(w != 0)


@pytest.mark.parametrize("C", [1.0, 0.001])  # 0.001 caps steps
def test_the_compiled_mira_epoch_is_the_plain_loop(C):
    X, bounds, y, classes = encoded(tiny())
    sizes = (2**10, 2**6, len(classes))  # small: hash collisions count in ‖Δf‖²
    size = sizes[0] + sizes[1] * sizes[2]
    w, u, seen = np.zeros(size), np.zeros(size), np.zeros(1, dtype=np.int64)
    w_ref, u_ref, seen_ref = np.zeros(size), np.zeros(size), 0
    w_perceptron, w_uncapped, u_uncapped = np.zeros(size), np.zeros(size), np.zeros(size)
    rng = np.random.default_rng(0)
    for _ in range(3):
        order = rng.permutation(len(TINY)).astype(np.intp)
        mistakes = _arcs.parser_epoch(X, y, bounds, order, SPECS, w, u, sizes, _arcs.EISNER,
                                      seen, 3, C)
        _arcs.parser_epoch(X, y, bounds, order, SPECS, w_perceptron, None, sizes,
                           _arcs.EISNER, np.zeros(1, dtype=np.int64))
        reference_epoch(X, y, bounds, order, w_uncapped, u_uncapped, sizes, seen_ref, mira=True,
                        C=1e9)
        expected, seen_ref = reference_epoch(X, y, bounds, order, w_ref, u_ref, sizes,
                                             seen_ref, mira=True, C=C)
        assert mistakes == expected
        np.testing.assert_allclose(w, w_ref, rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(u, u_ref, rtol=1e-12, atol=1e-15)
    assert np.any(w != 0) and not np.allclose(w, w_perceptron)
    assert np.allclose(w, w_uncapped) == (C == 1.0)  # the small C binds, 1 does not


def test_the_squared_difference_counts_collisions_and_shared_features():
    rng = np.random.default_rng(1)
    for _ in range(20):
        plus = rng.integers(0, 8, size=rng.integers(0, 12))
        minus = rng.integers(0, 8, size=rng.integers(0, 12))
        assert _arcs._squared_difference(plus, len(plus), minus, len(minus)) \
            == _squared_norm(plus.tolist(), minus.tolist())


def test_the_published_weights_are_the_mean_after_every_sentence():
    sentences = tiny()
    X, bounds, y, classes = encoded(sentences)
    parser = DependencyParser(decoder="eisner", shuffle="none", max_iter=3, **SMALL)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parser.fit(sentences)
    sizes = (SMALL["n_features"], SMALL["n_label_features"], len(classes))
    w = np.zeros(sizes[0] + sizes[1] * sizes[2])
    total = np.zeros_like(w)
    for _ in range(parser.n_iter_):
        for s in range(len(sentences)):  # one sentence at a time: the weights after each
            reference_epoch(X, y, bounds, [s], w, np.zeros_like(w), sizes, 0)
            total += w
    mean = total / (parser.n_iter_ * len(sentences))
    assert parser.n_examples_ == parser.n_iter_ * len(sentences)
    np.testing.assert_allclose(parser.coef_, mean[:sizes[0]], rtol=0, atol=1e-12)
    np.testing.assert_allclose(parser.label_coef_.ravel(), mean[sizes[0]:], rtol=0, atol=1e-12)


@pytest.mark.parametrize("decoder", ["eisner", "chu-liu-edmonds", "second-order",
                                     "second-order-nonprojective", "grandparent"])
def test_a_tiny_treebank_is_learnt_perfectly(decoder):
    sentences = tiny()
    parser = DependencyParser(decoder=decoder, max_iter=20, random_state=0, **SMALL)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parser.fit(sentences)
    assert parser.score(sentences) == 1.0
    assert attachment_scores(sentences, parser.predict(sentences))["las"] == 1.0
    assert parser.converged_ and parser.stop_reason_ == "mistake_free"


def test_the_grandparent_decoder_learns_with_mira_steps_too():
    sentences = tiny()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parser = DependencyParser(decoder="grandparent", update="mira", max_iter=20,
                                  random_state=0, **SMALL).fit(sentences)
    assert parser.score(sentences) == 1.0 and parser.converged_


def test_sentences_beyond_the_grandparent_limit_are_parsed_by_the_second_order_chart():
    sentences = tiny()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parser = DependencyParser(max_iter=3, random_state=0, **SMALL).fit(sentences)
    assert parser.decoder == "grandparent"
    words = [w for s in sentences for w in s.column("form")]
    tags = [t for s in sentences for t in s.column("upos")]
    n = _arcs.GRAND_LONGEST + 1
    long = [Sentence((words * 8)[:n], upos=(tags * 8)[:n], xpos=(tags * 8)[:n])]
    grandparent = parser.predict_heads(long)[0][0]
    parser.decoder = "second-order"
    assert grandparent.tolist() == parser.predict_heads(long)[0][0].tolist()
    assert (grandparent == 0).sum() == 1


def test_predict_fills_head_and_deprel_and_keeps_the_rest():
    sentences = tiny()
    parser = DependencyParser(max_iter=20, random_state=0, **SMALL).fit(sentences)
    bare = [Sentence(s.column("form"), upos=s.column("upos"), xpos=s.column("xpos"),
                     lemma=s.column("lemma")) for s in sentences]
    parsed = parser.predict(bare)
    for before, after, gold in zip(bare, parsed, sentences):
        assert after.column("upos") == before.column("upos")
        assert after.column("head") == gold.column("head")
        assert after.column("deprel") == gold.column("deprel")
        assert before.column("head") == ["_"] * len(before)
    heads, relations = parser.predict_heads(bare)[2]
    assert heads.tolist() == [2, 3, 0, 5, 3] and relations.tolist()[2] == "root"


def test_a_parser_that_does_not_parse_its_training_set_warns():
    with pytest.warns(Warning, match="parsing mistakes"):
        DependencyParser(max_iter=1, random_state=0, **SMALL).fit(tiny())


# ------------------------------------------------------------------- model files


def test_a_model_file_predicts_identically_and_goes_on_training(tmp_path):
    sentences = tiny()
    parser = DependencyParser(max_iter=2, random_state=0, **SMALL)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parser.fit(sentences)
    save(parser, tmp_path / "parser.npz")
    loaded = load(tmp_path / "parser.npz")
    assert type(loaded) is DependencyParser and loaded.get_params() == parser.get_params()
    for a, b in zip(parser.predict_heads(sentences), loaded.predict_heads(sentences)):
        assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    parser.partial_fit(sentences[:3])
    loaded.partial_fit(sentences[:3])
    assert np.array_equal(parser.coef_, loaded.coef_)
    assert np.array_equal(parser.label_coef_, loaded.label_coef_)


def _forge(path, out, **changes):
    arrays = dict(np.load(path, allow_pickle=False))
    arrays.update(changes)
    np.savez(out, **arrays)


def test_forged_model_files_are_refused_by_name(tmp_path):
    parser = DependencyParser(max_iter=20, random_state=0, **SMALL).fit(tiny())
    save(parser, tmp_path / "parser.npz", training_state=False)
    good = dict(np.load(tmp_path / "parser.npz", allow_pickle=False))
    forgeries = {
        "label_coef_": {"label_coef_": good["label_coef_"][:, :-1]},
        "coef_": {"coef_": np.full_like(good["coef_"], np.nan)},
        "classes_": {"classes_": good["classes_"][::-1]},
    }
    for field, change in forgeries.items():
        _forge(tmp_path / "parser.npz", tmp_path / "forged.npz", **change)
        with pytest.raises(ModelFileError, match=field):
            load(tmp_path / "forged.npz")
    meta = json.loads(str(good["__meta__"]))
    assert meta["attributes"]["feature_templates_"] == parser.feature_templates_  # stored
    meta["params"]["decoder"] = "cky"
    _forge(tmp_path / "parser.npz", tmp_path / "forged.npz", __meta__=np.array(json.dumps(meta)))
    with pytest.raises(ModelFileError, match="decoder"):
        load(tmp_path / "forged.npz")


def test_a_parser_of_one_relation_saves_and_loads(tmp_path):
    sentences = [_with(s, deprel=["dep"] * len(s)) for s in tiny()]
    sentences = [Sentence(s.column("form"), upos=s.column("upos"), head=s.column("head"),
                          deprel=s.column("deprel")) for s in sentences]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parser = DependencyParser(max_iter=3, random_state=0, **SMALL).fit(sentences)
    save(parser, tmp_path / "parser.npz")
    loaded = load(tmp_path / "parser.npz")
    assert loaded.classes_.tolist() == ["dep"]
    assert [s.column("deprel") for s in loaded.predict(sentences)] == [
        s.column("deprel") for s in sentences]
    _forge(tmp_path / "parser.npz", tmp_path / "forged.npz", classes_=np.array([], dtype="<U3"))
    with pytest.raises(ModelFileError, match="classes_: must be a 1-D array of at least 1 "
                                             "label "):
        load(tmp_path / "forged.npz")


def test_a_file_of_other_feature_templates_is_refused(tmp_path, monkeypatch):
    """A file saved before the templates changed (an earlier version's parser) would
    load and label with the wrong weights: its fingerprint is refused, and a file
    without one says to train the parser again."""
    from rosenblatt.structured import _parser

    parser = DependencyParser(max_iter=2, random_state=0, **SMALL)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parser.fit(tiny())
    assert parser.feature_templates_ == _parser.TEMPLATES_ID
    save(parser, tmp_path / "parser.npz")
    monkeypatch.setattr(_parser.ParserLearner.published_form["feature_templates_"], "words",
                        ("0123456789abcdef",))  # this version's templates, changed
    with pytest.raises(ModelFileError, match="feature_templates_.*must be one of"):
        load(tmp_path / "parser.npz")
    monkeypatch.undo()
    # the fingerprint of the templates before the grandchild ones were added
    before = hashlib.blake2b(repr((ARC_TEMPLATES, SIBLING_TEMPLATES, LABEL_TEMPLATES))
                             .encode(), digest_size=8).hexdigest()
    assert before != _parser.TEMPLATES_ID
    parser.feature_templates_ = before
    save(parser, tmp_path / "before.npz")
    with pytest.raises(ModelFileError, match="feature_templates_.*must be one of"):
        load(tmp_path / "before.npz")
    del parser.feature_templates_  # as a file of the first parser had it
    save(parser, tmp_path / "old.npz")
    with pytest.raises(ModelFileError, match="feature_templates_: is missing: the file was "
                                             "saved by a version of rosenblatt whose parser"):
        load(tmp_path / "old.npz")


# -------------------------------------------------------------------------- mixing


def test_mixing_on_one_shard_is_the_serial_fit():
    sentences = tiny() * 3
    params = {"max_iter": 3, "random_state": 0, **SMALL}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        serial = DependencyParser(**params).fit(sentences)
        mixed = ParameterMixing(DependencyParser(**params), n_shards=1).fit(sentences)
        shards = ParameterMixing(DependencyParser(**params), n_shards=3).fit(sentences)
    assert np.array_equal(serial.coef_, mixed.estimator_.coef_)
    assert np.array_equal(serial.label_coef_, mixed.estimator_.label_coef_)
    assert shards.mistakes_.shape[1] == 3 and shards.estimator_.n_examples_ == \
        serial.n_examples_


def test_mixing_on_dask_is_mixing_on_threads():
    distributed = pytest.importorskip("distributed")
    params = {"max_iter": 3, "random_state": 0, **SMALL}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with distributed.Client(processes=False, n_workers=2, threads_per_worker=1,
                                dashboard_address=None) as client:
            on_dask = ParameterMixing(DependencyParser(**params), n_shards=2,
                                      client=client).fit(tiny() * 2)
        on_threads = ParameterMixing(DependencyParser(**params), n_shards=2,
                                     client="threads").fit(tiny() * 2)
    assert on_dask.backend_ == "dask"
    assert np.array_equal(on_dask.estimator_.coef_, on_threads.estimator_.coef_)
    assert np.array_equal(on_dask.estimator_.label_coef_, on_threads.estimator_.label_coef_)


# ----------------------------------------------------------------------- bad input


class LooseSentence:
    """A sentence with the methods the parser reads and none of CoNLL-U's checks
    (``ConlluSentence`` refuses a HEAD out of range or an empty sentence itself):
    what reaches the parser's own checks from other readers."""

    def __init__(self, forms, **columns):
        self.columns = {"form": list(forms), **{name: [str(value) for value in values]
                                                for name, values in columns.items()}}

    def __len__(self):
        return len(self.columns["form"])

    def column(self, name):
        return list(self.columns.get(name, ["_"] * len(self)))

    @property
    def heads(self):
        return np.array([int(head) for head in self.column("head")], dtype=np.int64)


def _with(sentence, **columns):
    """``sentence`` as a LooseSentence, with ``columns`` replaced."""
    names = ("lemma", "upos", "xpos", "head", "deprel")
    return LooseSentence(sentence.column("form"),
                         **{**{name: sentence.column(name) for name in names}, **columns})


@pytest.mark.parametrize("change, message", [
    ({"head": ["_", "3", "0"]}, "sentence 1 has no gold heads"),
    ({"head": ["2", "0", "0"]}, "sentence 1 has 2 words whose HEAD is 0"),
    ({"head": ["2", "1", "0"]}, "sentence 1: its HEADs make a cycle"),
    ({"head": ["2", "9", "0"]}, r"sentence 1: HEAD must be 0 \(the root\) or a word's ID"),
    ({"deprel": ["det", "_", "root"]}, "sentence 1 has a word without DEPREL"),
])
def test_bad_gold_trees_are_refused_naming_the_sentence(change, message):
    sentences = tiny()
    sentences[1] = _with(sentences[1], **change)
    with pytest.raises(ValueError, match=message):
        DependencyParser(**SMALL).fit(sentences)


def test_weights_larger_than_the_memory_are_refused_before_training(monkeypatch):
    from rosenblatt import _config

    # SMALL's weights: 2**12 + 2**8 × 8 relations, 8 bytes, 3 arrays: 147,456 bytes
    monkeypatch.setattr(_config, "physical_memory", lambda: 140_000)
    with pytest.raises(ValueError, match=r"DependencyParser would need 0\.0 GB for its "
                                         r"weights \(n_features=4,096 \+ n_label_features="
                                         r"256 × 8 relations, 8 bytes each, 3 arrays"):
        DependencyParser(**SMALL).fit(tiny())
    monkeypatch.setattr(_config, "physical_memory", lambda: 200_000)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        DependencyParser(max_iter=1, **SMALL).fit(tiny())  # 147,456 bytes fit
        with pytest.raises(ValueError, match="for 2 shards of parameter mixing.*use fewer "
                                             "shards"):
            ParameterMixing(DependencyParser(max_iter=1, **SMALL), n_shards=2).fit(tiny())


def test_no_sentences_empty_ones_and_bad_sizes_are_refused():
    with pytest.raises(ValueError, match="fit got no sentences"):
        DependencyParser(**SMALL).fit([])
    with pytest.raises(ValueError, match="sentence 0 has no words"):
        DependencyParser(**SMALL).fit([LooseSentence([])])
    with pytest.raises(ValueError, match="list of sentences"):
        DependencyParser(**SMALL).fit("the dog barks")
    with pytest.raises(ValueError, match="n_features must be a power of two"):
        DependencyParser(n_features=1000).fit(tiny())
    with pytest.raises(ValueError, match="decoder"):
        DependencyParser(decoder="cky").fit(tiny())
    with pytest.raises(ValueError, match="classes must be passed"):
        DependencyParser(**SMALL).partial_fit(tiny())


# -------------------------------------------------------------------------- metrics


def test_attachment_scores_count_every_word_and_the_universal_relation():
    gold = [([2, 0, 2, 2], ["nsubj", "root", "obj", "punct"])]
    parsed = [([2, 0, 2, 3], ["nsubj:pass", "root", "iobj", "punct"])]
    assert attachment_scores(gold, parsed) == {"uas": 0.75, "las": 0.5, "words": 4}
    table = relation_scores(gold, parsed)
    assert table["nsubj"]["correct"] == 1 and table["iobj"]["predicted"] == 1
    assert table["punct"] == {"gold": 1, "predicted": 1, "correct": 0, "precision": 0.0,
                              "recall": 0.0, "f1": 0.0}
    with pytest.raises(ValueError, match="1 gold sentences but 2 predicted"):
        attachment_scores(gold, parsed * 2)
    with pytest.raises(ValueError, match="Sentence 0 has 4 gold words but 3"):
        attachment_scores(gold, [([2, 0, 2], ["a", "b", "c"])])


# ---------------------------------------------------------------------- real data


@pytest.mark.skipif(not (TREEBANKS / "en_ewt-ud-train.conllu.gz").exists(),
                    reason="UD English EWT is not on this machine")
def test_a_slice_of_ewt_is_parsed_well():
    from rosenblatt.datasets import load_conllu

    train = load_conllu(TREEBANKS / "en_ewt-ud-train.conllu.gz")[:1500]
    dev = load_conllu(TREEBANKS / "en_ewt-ud-dev.conllu.gz")[:400]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parser = DependencyParser(max_iter=3, random_state=0, n_features=2**20,
                                  n_label_features=2**14).fit(train)
    scores = attachment_scores(dev, parser.predict(dev))
    assert scores["uas"] >= 0.78 and scores["las"] >= 0.72, scores
