"""Token accuracy and conlleval's chunk scores. Each expected count below is worked
out by hand from conlleval.pl's startOfChunk / endOfChunk rules (quoted in
rosenblatt/structured/_metrics.py): a chunk starts at B, at I after O, at any
non-O tag whose type differs from the previous tag's, at E or I after E, at E after
O; it ends before B, O, after E, and wherever the type changes."""

import pytest

from rosenblatt.structured._metrics import (
    chunk_scores,
    conlleval_report,
    end_of_chunk,
    start_of_chunk,
    token_accuracy,
)


def counts(gold, guess, scheme="auto"):
    """{type: (gold chunks, guessed chunks, correct)} and the micro totals."""
    scores = chunk_scores(gold, guess, scheme=scheme)
    return {kind: (value["support"], value["predicted"], value["correct"])
            for kind, value in scores.items()}


def test_iob2_one_right_one_wrong_type():
    # gold: NP [0-1], VP [3]; guess: NP [0-1], NP [3]
    assert counts(["B-NP", "I-NP", "O", "B-VP"], ["B-NP", "I-NP", "O", "B-NP"]) == {
        "NP": (1, 2, 1), "VP": (1, 0, 0), "micro avg": (2, 2, 1)}


def test_i_after_o_starts_a_chunk():
    # IOB1: the I-NP after O opens the chunk, as B-NP does in the guess: one chunk
    # [1-2] on both sides, so it is correct
    assert counts(["O", "I-NP", "I-NP"], ["O", "B-NP", "I-NP"])["NP"] == (1, 1, 1)
    # and at the very start (the script begins as if after an O)
    assert counts(["I-NP"], ["B-NP"])["NP"] == (1, 1, 1)


def test_a_type_change_inside_i_tags_splits_the_chunk():
    # gold I-NP I-VP: NP [0] then VP [1] (the type changed); guess I-NP I-NP: NP [0-1]
    # The NP chunks start together but end apart: none is correct.
    assert counts(["I-NP", "I-VP"], ["I-NP", "I-NP"]) == {
        "NP": (1, 1, 0), "VP": (1, 0, 0), "micro avg": (2, 1, 0)}


def test_an_i_tag_of_another_type_reads_as_a_b_tag():
    # guess I-VP after I-NP starts a VP chunk and ends the NP one: the same chunks
    # as the gold's B-VP, so both are correct although one tag differs
    scores = chunk_scores(["B-NP", "I-NP", "B-VP"], ["B-NP", "I-NP", "I-VP"])
    assert scores["micro avg"]["correct"] == 2 and scores["micro avg"]["f1"] == 1.0
    assert scores["micro avg"]["accuracy"] == 2 / 3


def test_b_tag_between_chunks_of_one_type_iob1():
    # gold: NP [0-1], NP [2] (B- separates two NPs); guess I I I: one NP [0-2]
    assert counts(["I-NP", "I-NP", "B-NP"], ["I-NP", "I-NP", "I-NP"])["NP"] == (2, 1, 0)


def test_b_of_another_type_ends_the_chunk():
    # guess B-VP inside the gold NP: NP [0] and VP [1] guessed, NP [0-1] gold
    assert counts(["B-NP", "I-NP"], ["B-NP", "B-VP"]) == {
        "NP": (1, 1, 0), "VP": (0, 1, 0), "micro avg": (1, 2, 0)}


def test_ioe_tags():
    # E closes a chunk: I E I E is NP [0-1], NP [2-3]; I I I E is one NP [0-3]
    assert counts(["I-NP", "E-NP", "I-NP", "E-NP"], ["I-NP", "I-NP", "I-NP", "E-NP"]) == {
        "NP": (2, 1, 0), "micro avg": (2, 1, 0)}
    # E E: two one-token chunks; O E: a chunk starts at E
    assert counts(["E-NP", "E-NP"], ["O", "E-NP"])["NP"] == (2, 1, 1)


def test_s_tags_are_unknown_to_conlleval():
    # IOBES singletons read by conlleval's rules: the script has no rule for S, so
    # S-PER S-PER starts one chunk (the type changes from "" at the first) and never
    # ends it: a single chunk
    assert counts(["S-PER", "S-PER"], ["S-PER", "O"], "iob2") == {
        "PER": (1, 1, 0), "micro avg": (1, 1, 0)}
    # separated by O they are two; B then S of one type is one chunk of two tokens
    assert counts(["S-PER", "O", "S-PER"], ["B-PER", "S-PER", "O"], "iob1")["PER"] == \
        (2, 1, 0)


# -- BIOES ------------------------------------------------------------------------------


def test_bioes_singletons_and_closed_chunks():
    # S-PER S-PER: two chunks (conlleval's rules make one); B-X E-X: one
    assert counts(["S-PER", "S-PER"], ["S-PER", "O"]) == {
        "PER": (2, 1, 1), "micro avg": (2, 1, 1)}
    assert counts(["B-PER", "E-PER"], ["B-PER", "E-PER"], "bioes")["PER"] == (1, 1, 1)
    assert counts(["B-PER", "I-PER", "I-PER", "E-PER", "S-LOC"],
                  ["B-PER", "I-PER", "E-PER", "S-PER", "S-LOC"]) == {
        "LOC": (1, 1, 1), "PER": (1, 2, 0), "micro avg": (2, 3, 1)}
    # E-X then B-X of one type: two chunks (conlleval's IOE reading merges them)
    assert counts(["B-X", "E-X", "B-X", "E-X"], ["B-X", "E-X", "B-X", "E-X"])["X"] == \
        (2, 2, 2)
    assert counts(["B-X", "E-X", "B-X", "E-X"], ["B-X", "E-X", "B-X", "E-X"],
                  "iob2")["X"] == (1, 1, 1)


@pytest.mark.parametrize("malformed", [
    ["B-X", "I-X", "O"],            # never closed
    ["B-X", "I-X"],                 # the sentence ends first
    ["I-X", "E-X"],                 # no B
    ["E-X"],
    ["I-X"],
    ["B-X", "E-Y"],                 # a type change inside
    ["B-X", "I-Y", "E-X"],
])
def test_malformed_bioes_runs_are_no_chunk_as_in_seqevals_strict_mode(malformed):
    assert counts([malformed], [["O"] * len(malformed)], "bioes")["micro avg"] == (0, 0, 0)


def test_after_a_malformed_run_the_next_chunk_starts_afresh():
    # B-X not closed; its S-X, then B-Y…E-Y, are chunks (seqeval's strict IOBES
    # reads the same: B-X S-X -> S-X; B-X I-X B-Y E-Y -> B-Y E-Y)
    assert counts(["B-X", "S-X", "B-X", "I-X", "B-Y", "E-Y"],
                  ["O", "S-X", "O", "O", "B-Y", "E-Y"]) == {
        "X": (1, 1, 1), "Y": (1, 1, 1), "micro avg": (2, 2, 2)}


def test_bioes_chunks_stay_in_their_sentence_and_the_report_counts_them():
    assert counts([["B-X"], ["E-X"]], [["B-X"], ["E-X"]], "bioes")["micro avg"] == (0, 0, 0)
    report = conlleval_report([["S-PER", "S-PER", "O"]], [["S-PER", "O", "O"]])
    assert report.splitlines()[0] == \
        "processed 3 tokens with 2 phrases; found: 1 phrases; correct: 1."


def test_auto_reads_bioes_only_from_its_prefixes():
    # I and E only: IOE, conlleval's rules (E E is two chunks there too)
    assert counts(["I-NP", "E-NP", "I-NP", "E-NP"], ["I-NP", "I-NP", "I-NP", "E-NP"]) == {
        "NP": (2, 1, 0), "micro avg": (2, 1, 0)}
    # B and E together, or a single S in the predictions: BIOES
    assert counts(["B-X", "E-X", "B-X", "E-X"], ["O", "O", "O", "O"])["X"] == (2, 0, 0)
    assert counts(["B-X", "I-X"], ["S-X", "O"])["micro avg"] == (0, 1, 0)


@pytest.mark.parametrize("scheme, message", [
    ("IOB2", "scheme must be one of"), ("iobes", "scheme must be one of"),
    (None, "scheme must be one of"),
])
def test_an_unknown_scheme_is_refused(scheme, message):
    with pytest.raises(ValueError, match=message):
        chunk_scores(["B-X"], ["B-X"], scheme=scheme)


def test_tags_outside_bioes_are_refused_under_it():
    with pytest.raises(ValueError, match=r"scheme='bioes' reads the tags .* got 'U-X'"):
        chunk_scores(["U-X"], ["O"], scheme="bioes")


def test_sentences_end_chunks():
    # a sentence boundary is an O for both: I-NP after it starts a new chunk
    assert counts([["B-NP"], ["I-NP"]], [["B-NP"], ["I-NP"]])["NP"] == (2, 2, 2)
    assert counts(["B-NP", "I-NP"], ["B-NP", "I-NP"])["NP"] == (1, 1, 1)


def test_types_with_hyphens_and_perls_false_zero():
    # the tag splits at its first hyphen: B-NP-X has type NP-X
    assert counts(["B-NP-X", "I-NP-X"], ["B-NP-X", "B-NP-X"])["NP-X"] == (1, 2, 0)
    # Perl reads the type "0" as false: B-0 has type ""
    assert counts(["B-0"], ["B-0"]) == {"": (1, 1, 1), "micro avg": (1, 1, 1)}


def test_scores_from_counts():
    gold = ["B-NP", "I-NP", "O", "B-VP", "B-NP", "O"]
    guess = ["B-NP", "I-NP", "O", "B-VP", "I-VP", "B-PP"]
    # gold NP [0-1], VP [3], NP [4]; guess NP [0-1], VP [3-4], PP [5]
    scores = chunk_scores(gold, guess)
    assert scores["NP"] == {"precision": 1.0, "recall": 0.5, "f1": 2 / 3, "support": 2,
                            "predicted": 1, "correct": 1}
    assert scores["VP"]["correct"] == 0 and scores["PP"]["precision"] == 0.0
    micro = scores["micro avg"]
    assert micro["precision"] == micro["recall"] == 1 / 3
    assert micro["f1"] == pytest.approx(1 / 3, rel=1e-15)
    assert micro["accuracy"] == 4 / 6
    assert list(scores) == ["NP", "PP", "VP", "micro avg"]


def test_the_report_is_conllevals_text():
    gold = [["B-NP", "I-NP", "O", "B-VP", "B-NP"], ["B-PP", "B-NP"]]
    guess = [["B-NP", "I-NP", "O", "B-VP", "I-VP"], ["B-PP", "B-NP"]]
    # gold: NP [0-1], VP [3], NP [4], PP, NP = 5 chunks; guess: NP, VP [3-4], PP, NP = 4;
    # correct: NP [0-1], PP, NP = 3; tags right: 6 of 7
    assert conlleval_report(gold, guess) == (
        "processed 7 tokens with 5 phrases; found: 4 phrases; correct: 3.\n"
        "accuracy:  85.71%; precision:  75.00%; recall:  60.00%; FB1:  66.67\n"
        "               NP: precision: 100.00%; recall:  66.67%; FB1:  80.00  2\n"
        "               PP: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
        "               VP: precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n")


def test_the_report_keeps_the_scripts_doubled_empty_type():
    # tags without a type: found in both tables under "", which the script's
    # duplicate filter lets through twice (it tests the previous key for truth)
    assert conlleval_report(["B"], ["B"]).splitlines()[2:] == [
        "                 : precision: 100.00%; recall: 100.00%; FB1: 100.00  1"] * 2


def test_an_empty_report():
    assert conlleval_report([], []) == \
        "processed 0 tokens with 0 phrases; found: 0 phrases; correct: 0.\n"


def test_the_rules_one_by_one():
    assert [end_of_chunk(a, b, "X", "X") for a, b in
            [("B", "B"), ("B", "O"), ("I", "B"), ("I", "O"), ("E", "E"), ("E", "I"),
             ("E", "O"), ("B", "I"), ("I", "I"), ("O", "B"), ("I", "E")]] == \
        [True] * 7 + [False] * 4
    assert [start_of_chunk(a, b, "X", "X") for a, b in
            [("B", "B"), ("I", "B"), ("O", "B"), ("O", "I"), ("E", "E"), ("E", "I"),
             ("O", "E"), ("B", "I"), ("I", "I"), ("I", "E"), ("B", "O")]] == \
        [True] * 7 + [False] * 4
    assert end_of_chunk("I", "I", "NP", "VP") and start_of_chunk("I", "I", "NP", "VP")
    assert not end_of_chunk("O", "B", "", "NP") and not start_of_chunk("B", "O", "NP", "")
    assert not end_of_chunk(".", "I", "NP", "VP") and not start_of_chunk("I", ".", "NP", "VP")
    assert end_of_chunk("[", "I", "NP", "NP") and start_of_chunk("I", "]", "NP", "NP")


def test_token_accuracy():
    assert token_accuracy(["DT", "NN", "VB"], ["DT", "NN", "NN"]) == 2 / 3
    assert token_accuracy([["DT"], ["NN", "VB"]], [["DT"], ["VB", "VB"]]) == 2 / 3
    assert token_accuracy([[1, 2], [3]], [[1, 2], [0]]) == 2 / 3


@pytest.mark.parametrize("gold, guess, message", [
    (["A", "B"], ["A"], "differ in length in the sequence: 2 and 1"),
    ([["A"], ["B", "C"]], [["A"], ["B"]], "differ in length in sentence 1"),
    ([["A"]], [["A"], ["B"]], "1 sentences, y_pred 2"),
    ([["A"]], ["A"], "both"),
    (["A", ["B"]], ["A", "B"], "mixes labels"),
    ("AB", "AB", "list of labels"),
])
def test_shape_errors(gold, guess, message):
    with pytest.raises(ValueError, match=message):
        chunk_scores(gold, guess)
    with pytest.raises(ValueError, match=message):
        token_accuracy(gold, guess)


def test_token_accuracy_of_nothing():
    with pytest.raises(ValueError, match="No tokens"):
        token_accuracy([], [])
