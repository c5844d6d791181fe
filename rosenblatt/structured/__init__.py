"""The structured (sequence) perceptron: Viterbi decoding, token features, scores.

- :class:`SequencePerceptron` — first-order structured perceptron (Collins 2002),
  averaged, trained by the one engine (serial, or by sentences with
  :class:`~rosenblatt.distributed.ParameterMixing`).
- :class:`SentenceFeatures` — sentences to a CSR matrix of token features, by an
  editable template.
- :func:`token_accuracy`, :func:`chunk_scores`, :func:`conlleval_report` — the
  metrics of tagging and chunking, with conlleval's rules.

Collins (2002), "Discriminative Training Methods for Hidden Markov Models: Theory
and Experiments with Perceptron Algorithms", EMNLP.
"""

from ._features import SentenceFeatures, default_template
from ._metrics import chunk_scores, conlleval_report, token_accuracy
from ._sequence import SequencePerceptron, SequenceTrace

__all__ = [
    "SentenceFeatures",
    "SequencePerceptron",
    "SequenceTrace",
    "chunk_scores",
    "conlleval_report",
    "default_template",
    "token_accuracy",
]
