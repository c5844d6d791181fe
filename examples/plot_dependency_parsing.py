"""
Training a dependency parser: the arc diagram of its trees
==========================================================

A dependency tree gives every word of a sentence one head, another word or the
root, and names the relation: *dog* is the ``nsubj`` (nominal subject) of *barks*,
*The* the ``det`` of *dog*. :class:`~rosenblatt.structured.DependencyParser` learns
to build such trees from a treebank with the averaged structured perceptron, as
MSTParser did (McDonald, Crammer & Pereira 2005): each arc ``h → d`` is scored by
hashed features of the two words, their part-of-speech tags, the tags around and
between them, the arc's direction and length; the decoder finds the best tree
(Eisner's algorithm by default, see the :ref:`chart page
<sphx_glr_auto_examples_plot_eisner_chart.py>`); where it differs from the gold
tree, the gold arcs' features are rewarded and the predicted ones' penalised.

Here a toy treebank of twenty short sentences written in CoNLL-U, the format of
the Universal Dependencies treebanks, stands in for a real one (``rosenblatt parse
train en_ewt-ud-train.conllu.gz`` trains on the English Web Treebank the same way).
"""

# %%
# A treebank in CoNLL-U
# ---------------------
# Each word line holds ten tab-separated columns: ID, FORM, LEMMA, UPOS, XPOS,
# FEATS, HEAD, DEPREL, DEPS and MISC. The sentences below are written as
# ``word/TAG/head/relation`` and turned into those lines.

import pathlib
import tempfile

import matplotlib.pyplot as plt

from rosenblatt.datasets import load_conllu
from rosenblatt.inspection import DependencyTreeDisplay
from rosenblatt.structured import DependencyParser, attachment_scores

TREEBANK = """
The/DET/2/det dog/NOUN/3/nsubj barks/VERB/0/root ./PUNCT/3/punct
A/DET/2/det cat/NOUN/3/nsubj sleeps/VERB/0/root ./PUNCT/3/punct
The/DET/3/det old/ADJ/3/amod man/NOUN/4/nsubj reads/VERB/0/root a/DET/6/det book/NOUN/4/obj ./PUNCT/4/punct
My/PRON/2/nmod:poss sister/NOUN/3/nsubj writes/VERB/0/root long/ADJ/5/amod letters/NOUN/3/obj ./PUNCT/3/punct
The/DET/2/det children/NOUN/3/nsubj play/VERB/0/root in/ADP/6/case the/DET/6/det park/NOUN/3/obl ./PUNCT/3/punct
A/DET/3/det small/ADJ/3/amod bird/NOUN/4/nsubj sings/VERB/0/root in/ADP/7/case the/DET/7/det garden/NOUN/4/obl ./PUNCT/4/punct
She/PRON/2/nsubj bought/VERB/0/root a/DET/5/det red/ADJ/5/amod car/NOUN/2/obj yesterday/NOUN/2/obl:tmod ./PUNCT/2/punct
We/PRON/2/nsubj saw/VERB/0/root the/DET/4/det movie/NOUN/2/obj with/ADP/7/case our/PRON/7/nmod:poss friends/NOUN/2/obl ./PUNCT/2/punct
He/PRON/2/nsubj runs/VERB/0/root very/ADV/4/advmod quickly/ADV/2/advmod ./PUNCT/2/punct
The/DET/2/det teacher/NOUN/3/nsubj gave/VERB/0/root the/DET/5/det students/NOUN/3/iobj a/DET/7/det test/NOUN/3/obj ./PUNCT/3/punct
They/PRON/3/nsubj will/AUX/3/aux visit/VERB/0/root their/PRON/5/nmod:poss parents/NOUN/3/obj tomorrow/NOUN/3/obl:tmod ./PUNCT/3/punct
The/DET/2/det cat/NOUN/4/nsubj is/AUX/4/cop happy/ADJ/0/root ./PUNCT/4/punct
Our/PRON/2/nmod:poss house/NOUN/4/nsubj is/AUX/4/cop big/ADJ/0/root and/CCONJ/6/cc bright/ADJ/4/conj ./PUNCT/4/punct
I/PRON/2/nsubj like/VERB/0/root tea/NOUN/2/obj and/CCONJ/5/cc coffee/NOUN/3/conj ./PUNCT/2/punct
The/DET/2/det girl/NOUN/3/nsubj kicked/VERB/0/root the/DET/5/det ball/NOUN/3/obj over/ADP/8/case the/DET/8/det fence/NOUN/3/obl ./PUNCT/3/punct
A/DET/2/det man/NOUN/6/nsubj with/ADP/5/case a/DET/5/det hat/NOUN/2/nmod walked/VERB/0/root home/ADV/6/advmod ./PUNCT/6/punct
The/DET/2/det students/NOUN/4/nsubj have/AUX/4/aux finished/VERB/0/root their/PRON/6/nmod:poss work/NOUN/4/obj ./PUNCT/4/punct
My/PRON/2/nmod:poss brother/NOUN/3/nsubj drives/VERB/0/root a/DET/6/det fast/ADJ/6/amod truck/NOUN/3/obj ./PUNCT/3/punct
Dogs/NOUN/2/nsubj chase/VERB/0/root cats/NOUN/2/obj in/ADP/6/case the/DET/6/det street/NOUN/2/obl ./PUNCT/2/punct
The/DET/2/det woman/NOUN/3/nsubj opened/VERB/0/root the/DET/5/det door/NOUN/3/obj slowly/ADV/3/advmod ./PUNCT/3/punct
"""

HELD_OUT = """
The/DET/3/det young/ADJ/3/amod woman/NOUN/4/nsubj reads/VERB/0/root a/DET/7/det long/ADJ/7/amod letter/NOUN/4/obj in/ADP/10/case the/DET/10/det garden/NOUN/4/obl ./PUNCT/4/punct
My/PRON/2/nmod:poss friends/NOUN/3/nsubj bought/VERB/0/root a/DET/6/det small/ADJ/6/amod house/NOUN/3/obj ./PUNCT/3/punct
The/DET/2/det boy/NOUN/4/nsubj will/AUX/4/aux kick/VERB/0/root the/DET/6/det ball/NOUN/4/obj tomorrow/NOUN/4/obl:tmod ./PUNCT/4/punct
Her/PRON/2/nmod:poss brother/NOUN/4/nsubj has/AUX/4/aux written/VERB/0/root letters/NOUN/4/obj to/ADP/8/case his/PRON/8/nmod:poss teacher/NOUN/4/obl ./PUNCT/4/punct
The/DET/2/det dog/NOUN/7/nsubj in/ADP/5/case the/DET/5/det garden/NOUN/2/nmod is/AUX/7/cop happy/ADJ/0/root ./PUNCT/7/punct
"""


def conllu(text):
    """The ``word/TAG/head/relation`` sentences as a CoNLL-U file's text."""
    blocks = []
    for k, sentence in enumerate(text.split("\n")):
        if sentence.strip():
            lines = [f"# sent_id = {k}"]
            for i, token in enumerate(sentence.split(), start=1):
                word, tag, head, relation = token.split("/")
                lines.append(f"{i}\t{word}\t{word.lower()}\t{tag}\t{tag}\t_\t{head}\t"
                             f"{relation}\t_\t_")
            blocks.append("\n".join(lines) + "\n\n")
    return "".join(blocks)


folder = pathlib.Path(tempfile.mkdtemp())
(folder / "toy.conllu").write_text(conllu(TREEBANK))
(folder / "held_out.conllu").write_text(conllu(HELD_OUT))
train = load_conllu(folder / "toy.conllu")
held_out = load_conllu(folder / "held_out.conllu")
print(f"{len(train)} training sentences, {sum(map(len, train))} words; "
      f"{len(held_out)} held out, {sum(map(len, held_out))} words")

# %%
# A tree of the treebank
# ----------------------
# Arcs go from the head to the dependent, drawn above the words; the root's arrow
# comes from above.

DependencyTreeDisplay.from_sentence(train[9])
plt.title("a gold tree of the treebank")
plt.tight_layout()

# %%
# Training and parsing new sentences
# ----------------------------------
# Ten epochs of the averaged perceptron, then the held-out sentences parsed and
# scored as the CoNLL 2018 shared task scores parsers: UAS counts the words given
# the right head, LAS the right head and relation.

parser = DependencyParser(max_iter=10, random_state=0, n_features=2**16,
                          n_label_features=2**12).fit(train)
scores = attachment_scores(held_out, parser.predict(held_out))
print(f"held out: UAS {100 * scores['uas']:.1f}, LAS {100 * scores['las']:.1f} "
      f"({scores['words']} words)")

# %%
# The parser's tree of a sentence it never saw, coloured against the gold tree:
# blue arcs are right, red ones a wrong head, orange ones the right head with
# the wrong relation. The toy treebank never put a prepositional phrase inside a
# subject, so the parser hangs *garden* on the nearest word that heads a clause,
# *happy*, and calls it a second subject: the kind of attachment a real treebank
# teaches.

fig, ax = plt.subplots(figsize=(8, 3))
DependencyTreeDisplay.from_parser(parser, held_out[4], ax=ax)
ax.set_title("the parser's tree of a held-out sentence (red: a wrong head)")
plt.tight_layout()
plt.show()
