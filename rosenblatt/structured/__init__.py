"""The structured (sequence) perceptron: Viterbi decoding, token features, scores.

- :class:`SequencePerceptron` — first-order structured perceptron (Collins 2002),
  averaged, trained by the one engine (serial, or by sentences with
  :class:`~rosenblatt.distributed.ParameterMixing`).
- :class:`SentenceFeatures` — sentences to a CSR matrix of token features, by an
  editable template.
- :class:`SequenceTagger` — the two together: sentences and their labels in, a
  label list per sentence out (or the labels' marginals, or the n best sequences);
  saved to one model file with its features.
- :class:`DependencyParser` — an arc-factored (or second-order, or grandparent)
  dependency parser trained by the averaged structured perceptron on the one
  engine, with its relation labeller; :func:`attachment_scores` and :func:`relation_scores`
  score it (UAS, LAS, per relation).
- :func:`token_accuracy`, :func:`chunk_scores`, :func:`conlleval_report` — the
  metrics of tagging and chunking, with conlleval's rules (and BIOES's).

Collins (2002), "Discriminative Training Methods for Hidden Markov Models: Theory
and Experiments with Perceptron Algorithms", EMNLP.
"""

from ._features import SentenceFeatures, default_template
from ._metrics import (
    attachment_scores,
    chunk_scores,
    conlleval_report,
    relation_scores,
    token_accuracy,
)
from ._parser import DependencyParser
from ._sequence import SequencePerceptron, SequenceTrace
from ._tagger import SequenceTagger

__all__ = [
    "DependencyParser",
    "SentenceFeatures",
    "SequencePerceptron",
    "SequenceTagger",
    "SequenceTrace",
    "attachment_scores",
    "chunk_scores",
    "conlleval_report",
    "default_template",
    "relation_scores",
    "token_accuracy",
]
