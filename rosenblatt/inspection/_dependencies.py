"""The arc diagram of a dependency tree: the words in a row, each arc drawn above
them from the head to the dependent with its relation, the root's arrow from above."""

import numpy as np
from matplotlib.patches import Arc

#: colours of the arcs: right, a wrong head, a right head with a wrong relation
RIGHT, WRONG_HEAD, WRONG_RELATION = "#1f77b4", "#d62728", "#ff7f0e"


class DependencyTreeDisplay:
    """A sentence's dependency tree as an arc diagram.

    :meth:`from_sentence` draws a CoNLL-U sentence's own tree;
    :meth:`from_parser` parses a sentence and draws the parser's tree, and where the
    sentence has its gold tree, colours every arc by what the parser got right:
    blue right, red a wrong head, orange the right head with a wrong relation
    (the relation the parser gave is shown). Keeps ``ax_``, ``figure_``,
    ``words``, ``heads`` (0 for the root) and ``relations``.

    Parameters
    ----------
    words : list of str
    heads : sequence of int
        The head of each word, 1-based, 0 for the root.
    relations : sequence of str
    gold_heads, gold_relations : sequences, default=None
        The gold tree, to colour the arcs by.

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> display = DependencyTreeDisplay(["Dogs", "bark", "."], [2, 0, 2],
    ...                                 ["nsubj", "root", "punct"]).plot()
    >>> [text.get_text() for text in display.ax_.texts if text.get_text()]
    ['Dogs', 'bark', '.', 'nsubj', 'root', 'punct']
    """

    def __init__(self, words, heads, relations, gold_heads=None, gold_relations=None):
        self.words = [str(word) for word in words]
        self.heads = np.asarray(heads, dtype=np.int64).reshape(-1)
        self.relations = [str(relation) for relation in relations]
        n = len(self.words)
        if not n or len(self.heads) != n or len(self.relations) != n:
            raise ValueError(f"a tree needs a head and a relation for each of its words; got "
                             f"{n} words, {len(self.heads)} heads and {len(self.relations)} "
                             "relations.")
        if np.any((self.heads < 0) | (self.heads > n) | (self.heads == np.arange(1, n + 1))):
            raise ValueError(f"heads must name another word (1 to {n}) or the root (0); got "
                             f"{self.heads.tolist()}.")
        self.gold_heads = None if gold_heads is None else np.asarray(gold_heads, np.int64)
        self.gold_relations = gold_relations
        if self.gold_heads is not None and len(self.gold_heads) != n:
            raise ValueError(f"the gold tree has {len(self.gold_heads)} heads for {n} words.")

    @classmethod
    def from_sentence(cls, sentence, *, ax=None):
        """Draw the tree a CoNLL-U sentence holds (its HEAD and DEPREL)."""
        return cls(sentence.column("form"), sentence.heads,
                   sentence.column("deprel")).plot(ax=ax)

    @classmethod
    def from_parser(cls, parser, sentence, *, ax=None):
        """Parse ``sentence`` with a fitted parser and draw its tree, coloured
        against the sentence's gold tree when it has one."""
        parsed = parser.predict([sentence])[0]
        gold = "_" not in sentence.column("head")
        return cls(parsed.column("form"), parsed.heads, parsed.column("deprel"),
                   sentence.heads if gold else None,
                   sentence.column("deprel") if gold else None).plot(ax=ax)

    def _colour(self, k):
        if self.gold_heads is None:
            return RIGHT
        if self.heads[k] != self.gold_heads[k]:
            return WRONG_HEAD
        universal = self.relations[k].split(":")[0]
        if self.gold_relations is not None and \
                universal != str(self.gold_relations[k]).split(":")[0]:
            return WRONG_RELATION
        return RIGHT

    def plot(self, ax=None):
        """Draw on ``ax`` (a new figure sized to the sentence if None)."""
        import matplotlib.pyplot as plt

        n = len(self.words)
        spans = [abs(int(h) - (k + 1)) for k, h in enumerate(self.heads) if h]
        top = 0.5 * max(spans, default=1) + 1.2
        if ax is None:
            _, ax = plt.subplots(figsize=(max(4.0, 0.9 * n + 1), 1.0 + 0.45 * top))
        for k, word in enumerate(self.words):
            ax.text(k + 1, 0, word, ha="center", va="top", fontsize=11)
        for k, head in enumerate(self.heads):
            colour, d = self._colour(k), k + 1
            if head == 0:  # the root: an arrow from above
                ax.annotate("", xy=(d, 0.15), xytext=(d, top - 0.2),
                            arrowprops={"arrowstyle": "->", "color": colour, "lw": 1.5})
                ax.text(d, top - 0.15, self.relations[k], ha="center", va="bottom",
                        fontsize=9, color=colour)
                continue
            middle, width = (head + d) / 2, abs(head - d)
            height = 0.5 * width + 0.3
            ax.add_patch(Arc((middle, 0.15), width, 2 * height, theta1=0, theta2=180,
                             color=colour, lw=1.5))
            ax.annotate("", xy=(d, 0.15), xytext=(d + 0.08 * np.sign(head - d), 0.45),
                        arrowprops={"arrowstyle": "->", "color": colour, "lw": 1.5})
            ax.text(middle, 0.15 + height, self.relations[k], ha="center", va="bottom",
                    fontsize=9, color=colour,
                    bbox={"facecolor": "white", "edgecolor": "none", "pad": 0.5})
        ax.set_xlim(0.4, n + 0.6)
        ax.set_ylim(-0.6, top + 0.3)
        ax.set_axis_off()
        self.ax_, self.figure_ = ax, ax.figure
        return self
