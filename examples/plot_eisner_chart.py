"""
Parsing a sentence: Eisner's chart and the maximum spanning tree
================================================================

A dependency parser gives each word of a sentence one head: another word, or the
artificial root ``0`` for the main word. An arc-factored (first-order) parser scores
a tree as the sum of its arcs' scores, ``score(tree) = Σ_d score[head(d), d]``, and
decodes by finding the best tree among the exponentially many. Two algorithms do it
exactly (McDonald, Pereira, Ribarov & Hajič, EMNLP 2005):

- **Eisner's algorithm** (1996) over *projective* trees, those whose arcs do not
  cross when drawn above the words: a chart of spans filled from short to long, in
  O(n³);
- **Chu–Liu–Edmonds** over all trees, projective or not: every word takes its best
  head, and cycles are contracted until none is left.

Both keep Universal Dependencies' rule that exactly one word hangs from the root.
Here the classic sentence of McDonald et al. (2005), *John saw a dog yesterday which
was a Yorkshire Terrier*, whose relative clause belongs to *dog* across *yesterday*:
its right tree is not projective. The arc scores come from a tiny hand-weighted
model, a few part-of-speech and word-pair weights and a distance penalty, standing
in for a trained one.
"""

# %%
# The scores
# ----------
# ``scores[h, d]`` scores the arc ``h → d`` over the nodes ``0 … n`` (``0`` the root).
# The weights reward what a first-order model learns from a treebank: a verb under
# the root, determiners and compounds just left of their noun, subjects left of the
# verb and objects right of it, and a pair of words (*dog* and *Terrier*, a breed
# names a dog). Every arc pays 0.3 for each word it passes over.

import matplotlib.pyplot as plt
import numpy as np

from rosenblatt.structured._decoders import chu_liu_edmonds, eisner, eisner_chart
from rosenblatt.structured._trees import is_projective, tree_score

words = ["John", "saw", "a", "dog", "yesterday", "which", "was", "a", "Yorkshire", "Terrier"]
tags = ["PROPN", "VERB", "DET", "NOUN", "ADV", "PRON", "AUX", "DET", "PROPN", "NOUN"]
gold = [2, 0, 4, 2, 2, 10, 10, 10, 10, 4]  # UD: the copula clause is headed by Terrier
n = len(words)
FIRST_ORDER = np.zeros((0, 0, 0))  # no sibling scores: tree_score adds the arcs alone

WEIGHTS = {  # (head tag, dependent tag, side of the dependent): weight
    ("ROOT", "VERB", "right"): 3.0,
    ("VERB", "PROPN", "left"): 2.5, ("VERB", "NOUN", "right"): 2.0,
    ("VERB", "ADV", "right"): 1.5, ("NOUN", "DET", "left"): 3.0,
    ("NOUN", "PROPN", "left"): 2.0, ("NOUN", "AUX", "left"): 1.5,
    ("NOUN", "PRON", "left"): 1.0, ("NOUN", "NOUN", "right"): 1.0,
    ("NOUN", "ADV", "right"): 0.5,
}
PAIRS = {("dog", "Terrier"): 2.0}
nodes, node_tags = ["ROOT", *words], ["ROOT", *tags]
scores = np.full((n + 1, n + 1), -np.inf)  # column 0 and the diagonal are never read
for h in range(n + 1):
    for d in range(1, n + 1):
        if h != d:
            side = "right" if d > h else "left"
            scores[h, d] = (WEIGHTS.get((node_tags[h], node_tags[d], side), -1.0)
                            + PAIRS.get((nodes[h], nodes[d]), 0.0) - 0.3 * (abs(h - d) - 1))


def describe(heads):
    arcs = ", ".join(f"{nodes[heads[d]]}→{nodes[d]}" for d in range(1, n + 1))
    right = sum(int(heads[d]) == gold[d - 1] for d in range(1, n + 1))
    return (f"score {tree_score(heads, scores, FIRST_ORDER):.1f}, "
            f"{right}/{n} heads right, projective {is_projective(heads)}: {arcs}")


projective, anything = eisner(scores), chu_liu_edmonds(scores)
gold_heads = np.array([-1, *gold])
print("gold    :", describe(gold_heads))
print("Eisner  :", describe(projective))
print("CLE     :", describe(anything))

# %%
# Eisner's chart
# --------------
# Each span ``[s, t]`` of the sentence has four best scores. A **complete** span has its
# head at one end and that head's subtree on that side finished (``→`` headed by ``s``,
# ``←`` by ``t``); an **incomplete** span has an arc joining its two ends, the inside
# not yet closed. Longer spans are built from two shorter ones:
#
# - incomplete ``[s, t]`` = best over ``r`` of complete→ ``[s, r]`` + complete← ``[r+1, t]``,
#   plus the arc ``s → t`` (or ``t → s``);
# - complete→ ``[s, t]`` = best over ``r`` of incomplete→ ``[s, r]`` + complete→ ``[r, t]``,
#   and symmetrically complete←.
#
# The root takes one child: spans starting at the root only exist as an incomplete
# span whose inside all hangs under its word, and as the one complete span of the
# whole sentence, ``complete→ [0, n]``: the best tree's score. The cells of the best
# tree's arcs are framed.

chart = eisner_chart(scores)
print(f"complete→ [0, {n}] = {chart['complete_right'][0, n]:.1f}")

figure, axes = plt.subplots(2, 2, figsize=(11, 10))
panels = [("incomplete_right", "incomplete →: the arc s → t"),
          ("incomplete_left", "incomplete ←: the arc t → s"),
          ("complete_right", "complete →: headed by s"),
          ("complete_left", "complete ←: headed by t")]
finite = np.concatenate([table[np.isfinite(table)] for table in chart.values()])
for ax, (name, title) in zip(axes.flat, panels):
    table = chart[name]
    ax.imshow(np.ma.masked_invalid(table), cmap="viridis", vmin=finite.min(),
              vmax=finite.max())
    for s in range(n + 1):
        for t in range(s, n + 1):
            if np.isfinite(table[s, t]):
                ax.text(t, s, f"{table[s, t]:.1f}", ha="center", va="center", fontsize=6,
                        color="white" if table[s, t] < finite.mean() else "black")
    for d in range(1, n + 1):
        h = projective[d]
        framed = ((name == "incomplete_right" and h < d, h, d),
                  (name == "incomplete_left" and h > d, d, h))
        for use, s, t in framed:
            if use:
                ax.add_patch(plt.Rectangle((t - 0.5, s - 0.5), 1, 1, fill=False,
                                           edgecolor="tab:red", lw=2))
    if name == "complete_right":
        ax.add_patch(plt.Rectangle((n - 0.5, -0.5), 1, 1, fill=False, edgecolor="tab:red",
                                   lw=2))
    ax.set_xticks(range(n + 1), nodes, rotation=60, fontsize=8)
    ax.set_yticks(range(n + 1), nodes, fontsize=8)
    ax.set(xlabel="t (span end)", ylabel="s (span start)", title=title)
figure.tight_layout()

# %%
# The two trees
# -------------
# Eisner's tree is drawn above the words, the maximum spanning tree below; an arc
# that differs from the gold tree is dashed. *dog → Terrier* crosses *saw → yesterday*,
# so a projective tree cannot have both: Eisner's keeps the relative clause (worth
# more) and hangs *yesterday* from *dog* instead, 0.4 below the gold tree, which the
# maximum spanning tree finds.


def draw_arcs(ax, heads, above, colour):
    sign = 1 if above else -1
    for d in range(1, n + 1):
        h = int(heads[d])
        middle, width = (h + d) / 2, abs(h - d)
        height = sign * (0.4 + 0.25 * width)
        xs = np.linspace(0, np.pi, 50)
        ax.plot(middle + width / 2 * np.cos(xs) * np.sign(h - d) * -1,
                0.3 * sign + height * np.sin(xs), color=colour, lw=1.6,
                ls="-" if h == gold[d - 1] else "--")
        ax.annotate("", xy=(d, 0.3 * sign), xytext=(d, 0.3 * sign + 0.15 * sign),
                    arrowprops={"arrowstyle": "-|>", "color": colour})


figure, ax = plt.subplots(figsize=(11, 5))
for i, (word, tag) in enumerate(zip(nodes, node_tags)):
    ax.text(i, 0, word if i else "ROOT", ha="center", va="center", fontsize=10,
            fontweight="bold" if i == 0 else None)
    if i:
        ax.text(i, -0.18, tag, ha="center", va="center", fontsize=7, color="0.4")
draw_arcs(ax, projective, True, "tab:blue")
draw_arcs(ax, anything, False, "tab:orange")
for heads, name, y, colour in ((projective, "Eisner (projective)", 2.9, "tab:blue"),
                               (anything, "Chu–Liu–Edmonds (any tree)", -3.0, "tab:orange")):
    value = tree_score(heads, scores, FIRST_ORDER)
    ax.text(-0.4, y, f"{name}: score {value:.1f}", color=colour, fontsize=10)
ax.set_xlim(-0.6, n + 0.6)
ax.set_ylim(-3.2, 3.2)
ax.axis("off")
figure.tight_layout()

# %%
# References: J. Eisner, "Three new probabilistic models for dependency parsing: an
# exploration", COLING 1996; R. McDonald, F. Pereira, K. Ribarov and J. Hajič,
# "Non-projective dependency parsing using spanning tree algorithms", EMNLP 2005.
