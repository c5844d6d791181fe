"""The arc diagram: one arc per word, coloured by what a parser got right."""

import matplotlib
import pytest
from matplotlib.patches import Arc

from rosenblatt.datasets import ConlluSentence
from rosenblatt.inspection import DependencyTreeDisplay
from rosenblatt.inspection._dependencies import RIGHT, WRONG_HEAD, WRONG_RELATION

matplotlib.use("Agg")


def sentence(heads, relations, words=("The", "dog", "barks", ".")):
    return ConlluSentence([], [[str(k + 1), w, w.lower(), "X", "X", "_", str(h), r, "_", "_"]
                               for k, (w, h, r) in enumerate(zip(words, heads, relations))])


def arc_colours(display):
    return [matplotlib.colors.to_hex(patch.get_edgecolor()) for patch in display.ax_.patches
            if isinstance(patch, Arc)]


def test_a_sentence_draws_an_arc_per_word_but_the_root():
    display = DependencyTreeDisplay.from_sentence(
        sentence([2, 3, 0, 3], ["det", "nsubj", "root", "punct"]))
    texts = [text.get_text() for text in display.ax_.texts if text.get_text()]
    assert texts[:4] == ["The", "dog", "barks", "."]
    assert sorted(texts[4:]) == ["det", "nsubj", "punct", "root"]
    assert len(arc_colours(display)) == 3
    # an arc spans its head and dependent: "barks" (3) over "." (4) is 1 wide
    widths = sorted(patch.width for patch in display.ax_.patches if isinstance(patch, Arc))
    assert widths == [1, 1, 1]


def test_arcs_are_coloured_against_the_gold_tree():
    display = DependencyTreeDisplay(["The", "dog", "barks", "."], [2, 3, 0, 2],
                                    ["det", "obj", "root", "punct"],
                                    gold_heads=[2, 3, 0, 3],
                                    gold_relations=["det", "nsubj", "root", "punct"]).plot()
    assert arc_colours(display) == [RIGHT, WRONG_RELATION, WRONG_HEAD]
    # a subtype is not a wrong relation (LAS compares the universal part)
    subtype = DependencyTreeDisplay(["a", "b"], [2, 0], ["nmod:poss", "root"], [2, 0],
                                    ["nmod", "root"]).plot()
    assert arc_colours(subtype) == [RIGHT]


@pytest.mark.parametrize("args, message", [
    (([], [], []), "a head and a relation for each of its words; got 0 words"),
    ((["a", "b"], [2], ["x", "y"]), "got 2 words, 1 heads and 2 relations"),
    ((["a", "b"], [2, 3], ["x", "y"]), r"heads must name another word \(1 to 2\) or the root"),
    ((["a", "b"], [1, 0], ["x", "y"]), r"heads must name another word"),
    ((["a", "b"], [2, 0], ["x", "y"], [2]), "the gold tree has 1 heads for 2 words"),
])
def test_bad_trees_are_refused(args, message):
    with pytest.raises(ValueError, match=message):
        DependencyTreeDisplay(*args)
