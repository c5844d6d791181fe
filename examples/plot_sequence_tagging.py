"""
Tagging a sentence step by step: Viterbi and the structured perceptron's update
===============================================================================

Collins' (2002) structured perceptron gives every token of a sentence a label, and
scores a whole label sequence ``y`` of the tokens ``x_0 … x_{n-1}`` as::

    score(y) = T0[y_0] + Σ_t W[y_t] · x_t + Σ_{t≥1} T[y_{t-1}, y_t]

the emission scores of the labels on their tokens plus the transition weights
between consecutive labels. Decoding finds the sequence of highest score among the
``K^n`` (Viterbi); training decodes a sentence and, when the sequence is wrong, moves
the weights of the gold sequence up and those of the predicted one down.

Here a tiny part-of-speech tagger (four labels, three features per token) tags the
sentence *a young fox sleeps*: its **lattice** (a column per token, a row per label,
the emission score in each cell), Viterbi's table of best scores, the best path with
the transition weights on its edges; then the **update** on the wrong path it finds,
and the lattice after it. The :doc:`user guide </user_guide/sequences>` has the API,
the command line and the corpora.
"""

# %%
# A tiny tagger
# -------------
# Six sentences train it; the seventh, *a young fox sleeps*, is the one we follow. Its
# words *young* and *fox* never occur in the six. The features are a bias, the word
# and its last two letters; the vocabulary is learned from all seven sentences (as a
# vocabulary is learned from the whole training corpus), the model from the first
# six only. ``average=False`` keeps the last weights, so that one update is exactly
# what the figures show (a real tagger averages).

import matplotlib.pyplot as plt
import numpy as np

from rosenblatt.structured import SentenceFeatures, SequencePerceptron

corpus = [
    ("the dog barks", "DET NOUN VERB"),
    ("a cat sleeps", "DET NOUN VERB"),
    ("the old cat sleeps", "DET ADJ NOUN VERB"),
    ("dogs bark", "NOUN VERB"),
    ("a big dog runs", "DET ADJ NOUN VERB"),
    ("the cats run", "DET NOUN VERB"),
    ("a young fox sleeps", "DET ADJ NOUN VERB"),  # the sentence we follow
]
sentences = [words.split() for words, _ in corpus]
labels = [tags.split() for _, tags in corpus]

features = SentenceFeatures(template=["bias", "word", "suffix2"])
X, lengths = features.fit_transform(sentences)
names = features.get_feature_names_out()
train_rows = lengths[:-1].sum()
model = SequencePerceptron(average=False, shuffle="none", max_iter=10)
model.fit(X[:train_rows], np.concatenate(labels[:-1]), lengths[:-1])
print(f"{X.shape[1]} features, labels {model.classes_.tolist()}; trained in "
      f"{model.n_iter_} epochs, {model.n_updates_} updates")

tokens, gold = sentences[-1], labels[-1]
x = X[train_rows:]  # the rows of "a young fox sleeps"
for token, row in zip(tokens, x):
    print(f"{token:7s} {', '.join(names[row.indices])}")

# %%
# Viterbi, step by step
# ---------------------
# The emission score of label ``k`` on token ``t`` is ``W[k] · x_t``: the sum of the
# weights of the token's features for that label (``decision_function``). Viterbi
# then fills a table: ``δ_0(k) = T0[k] + e_0(k)`` and, for each next token, the best
# way into each label, ``δ_t(k) = max_j (δ_{t-1}(j) + T[j, k]) + e_t(k)``, noting
# which ``j`` gave it. The best last cell, followed back, is the best path. Unseen
# words have only the bias (and, for *young*, a suffix *-ng* no training word had),
# so the transitions decide.

classes = model.classes_.tolist()


def viterbi_table(E, T, T0):
    """Viterbi's best scores ``δ`` (tokens × labels), back pointers and path."""
    n, K = E.shape
    delta, back = np.empty((n, K)), np.zeros((n, K), dtype=int)
    delta[0] = T0 + E[0]
    for t in range(1, n):
        into = delta[t - 1][:, None] + T  # into[j, k]: from label j to label k
        back[t] = into.argmax(axis=0)
        delta[t] = into.max(axis=0) + E[t]
    path = [int(delta[-1].argmax())]
    for t in range(n - 1, 0, -1):
        path.append(int(back[t, path[-1]]))
    return delta, back, path[::-1]


def path_score(path, E, T, T0):
    return T0[path[0]] + sum(E[t, k] for t, k in enumerate(path)) + \
        sum(T[a, b] for a, b in zip(path, path[1:]))


E = model.decision_function(x)
T, T0 = model.transitions_, model.start_transitions_
delta, back, path = viterbi_table(E, T, T0)
predicted = model.predict(x, lengths=[len(tokens)]).tolist()
assert [classes[k] for k in path] == predicted  # the same path as the compiled Viterbi

print(f"{'':6s}" + "".join(f"{token:>16s}" for token in tokens))
for k, label in enumerate(classes):
    cells = [f"{E[t, k]:+5.1f} δ{delta[t, k]:+5.1f}" + ("  " if t == 0 else
             f" {classes[back[t, k]][0]}") for t in range(len(tokens))]
    print(f"{label:6s}" + "".join(f"{cell:>16s}" for cell in cells))
print("predicted:", predicted, "  gold:", gold)

# %%
# Each cell reads: the emission score, then ``δ`` and the first letter of the label
# it came from. The lattice draws the same: the emission score in each cell, every
# possible transition in grey, and the best path with the weight of each of its
# transitions (``T0`` on the way in).

COLOURS = {"best": "tab:blue", "gold": "tab:green", "predicted": "tab:red"}


def draw_lattice(ax, E, T, T0, paths, title, delta=None):
    n, K = E.shape
    for t in range(n - 1):  # every transition, faint
        for a in range(K):
            for b in range(K):
                ax.plot([t, t + 1], [a, b], color="0.85", lw=0.6, zorder=0)
    for number, (name, steps, style) in enumerate(paths):
        colour = COLOURS[name]
        # where along its edge a weight is written: apart when two paths share an edge
        at = 0.5 if len(paths) == 1 else 0.38 + 0.24 * number
        xs, ys = [-0.8, *range(n)], [(K - 1) / 2, *steps]
        ax.plot(xs, ys, color=colour, lw=3, ls=style, alpha=0.8, zorder=1,
                label=f"{name}: {path_score(steps, E, T, T0):+.1f}")
        weights = [T0[steps[0]], *(T[a, b] for a, b in zip(steps, steps[1:]))]
        for t, weight in enumerate(weights):
            middle = (xs[t] + at * (xs[t + 1] - xs[t]), ys[t] + at * (ys[t + 1] - ys[t]))
            ax.annotate(f"{weight:+.0f}", middle, ha="center", va="center", fontsize=8,
                        color=colour, zorder=3,
                        bbox=dict(boxstyle="round,pad=0.15", fc="white", ec=colour, lw=0.6))
    for t in range(n):
        for k in range(K):
            ax.scatter(t, k, s=900, color="white", edgecolor="0.3", zorder=2)
            ax.text(t, k, f"{E[t, k]:+.0f}", ha="center", va="center", fontsize=10, zorder=4)
            if delta is not None:
                ax.text(t + 0.2, k + 0.3, f"δ {delta[t, k]:+.0f}", fontsize=7, color="0.4",
                        zorder=4)
    ax.scatter(-0.8, (K - 1) / 2, s=300, color="0.3", zorder=2)
    ax.text(-0.8, (K - 1) / 2 - 0.35, "start", ha="center", fontsize=8)
    ax.set_xticks(range(n), tokens)
    ax.set_yticks(range(K), classes)
    ax.xaxis.tick_top()
    ax.set_xlim(-1.2, n - 0.4)
    ax.set_ylim(K - 0.4, -0.6)
    ax.tick_params(length=0)
    for side in ax.spines.values():
        side.set_visible(False)
    ax.legend(loc="lower left", bbox_to_anchor=(0, -0.2), ncol=2, frameon=False,
              title="path: its score")
    ax.set_title(title, fontsize=11, pad=24)


figure, ax = plt.subplots(figsize=(8, 4.6))
draw_lattice(ax, E, T, T0, [("best", path, "-")],
             "the lattice before the update: emission scores, the best path", delta)
figure.tight_layout()

# %%
# The model reads *young* as a noun and *fox* as a verb: after a determiner it has
# only ever seen a noun or an adjective, a noun was the more frequent, and after a
# noun a verb. Note the first column: VERB has the best ``δ`` at *a* alone, but the
# best path runs through DET. Viterbi commits to nothing until the last token; the
# path is read backwards from the best final cell.
#
# One training update
# -------------------
# Gold ``y`` = DET ADJ NOUN VERB, predicted ``z`` = DET NOUN VERB VERB. The update
# adds the gold path's features and transitions and subtracts the predicted one's,
# only where they differ: at *young*, ``W[ADJ] += x`` and ``W[NOUN] -= x``; at *fox*,
# ``W[NOUN] += x`` and ``W[VERB] -= x``; the transitions DET→ADJ, ADJ→NOUN, NOUN→VERB
# up by one, DET→NOUN, NOUN→VERB, VERB→VERB down by one. ``partial_fit`` on the one
# sentence runs exactly this (it decodes, finds the same wrong path and updates):

before = model.coef_.copy(), model.transitions_.copy(), model.start_transitions_.copy()
model.partial_fit(x, gold, [len(tokens)])
after = model.coef_, model.transitions_, model.start_transitions_

changes = []
for k, j in zip(*np.nonzero(after[0] - before[0])):
    changes.append((f"W[{classes[k]}] · {names[j]}", after[0][k, j] - before[0][k, j]))
for a, b in zip(*np.nonzero(after[1] - before[1])):
    changes.append((f"T[{classes[a]} → {classes[b]}]", after[1][a, b] - before[1][a, b]))
for k in np.nonzero(after[2] - before[2])[0]:
    changes.append((f"T0[{classes[k]}]", after[2][k] - before[2][k]))
for name, change in changes:
    print(f"{name:28s} {change:+.0f}")

figure, (left, right) = plt.subplots(1, 2, figsize=(12, 4.8),
                                     gridspec_kw=dict(width_ratios=[1.3, 1]))
draw_lattice(left, E, *before[1:], [("gold", [classes.index(g) for g in gold], "-"),
                                    ("predicted", path, "--")],
             "the update compares two paths (weights before it)")
names_, values = zip(*changes)
right.barh(range(len(changes)), values,
           color=["tab:green" if v > 0 else "tab:red" for v in values])
right.set_yticks(range(len(changes)), names_, fontsize=9)
right.invert_yaxis()
right.axvline(0, color="0.3", lw=0.8)
right.set(xlabel="change of the weight", xlim=(-1.5, 1.5),
          title="what the update moves: up for gold, down for predicted")
figure.tight_layout()

# %%
# Two moves cancel and are absent: NOUN→VERB is in both paths (gold at *fox* →
# *sleeps*, predicted at *young* → *fox*), and the NOUN bias goes down at *young* and
# up at *fox*. What the update did not touch is as telling: DET's weights and the
# start weights, right in both paths, and every weight of *a* and *sleeps*.
#
# After the update
# ----------------
# The same sentence decoded again: *young* now has an adjective's features, *fox* a
# noun's, and DET→ADJ→NOUN is a path the transitions favour.

E_after = model.decision_function(x)
delta_after, _, path_after = viterbi_table(E_after, after[1], after[2])
print("predicted after the update:", model.predict(x, lengths=[len(tokens)]).tolist())

figure, ax = plt.subplots(figsize=(8, 4.6))
draw_lattice(ax, E_after, after[1], after[2], [("best", path_after, "-")],
             "the lattice after the update", delta_after)
figure.tight_layout()

# %%
# One update fixed this sentence, the perceptron's promise in miniature: on data
# that some weights label perfectly with a margin, the number of such updates is
# bounded (Collins 2002, Theorem 1). On a real corpus the features number in the
# hundreds of thousands, the averaged weights are used, and ``SequenceTagger`` keeps
# the features with the model: ``rosenblatt tag train`` does it from a CoNLL file.
#
# Reference: M. Collins, "Discriminative training methods for hidden Markov models:
# theory and experiments with perceptron algorithms", EMNLP 2002.
