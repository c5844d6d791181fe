"""The structured (sequence) perceptron: Viterbi decoding, token features, scores.

- :class:`SequencePerceptron` — first-order structured perceptron (Collins 2002),
  averaged, trained by the one engine (serial, or by sentences with
  :class:`~rosenblatt.distributed.ParameterMixing`).
- :class:`SentenceFeatures` — sentences to a CSR matrix of token features, by an
  editable template.
- :class:`SequenceTagger` — the two together: sentences and their labels in, a
  label list per sentence out (or the labels' marginals, or the n best sequences);
  saved to one model file with its features.
- :func:`token_accuracy`, :func:`chunk_scores`, :func:`conlleval_report` — the
  metrics of tagging and chunking, with conlleval's rules (and BIOES's).

Collins (2002), "Discriminative Training Methods for Hidden Markov Models: Theory
and Experiments with Perceptron Algorithms", EMNLP.
"""

from ._features import SentenceFeatures, default_template
from ._metrics import chunk_scores, conlleval_report, token_accuracy
from ._sequence import SequencePerceptron, SequenceTrace
from ._tagger import SequenceTagger

__all__ = [
    "SentenceFeatures",
    "SequencePerceptron",
    "SequenceTagger",
    "SequenceTrace",
    "chunk_scores",
    "conlleval_report",
    "default_template",
    "token_accuracy",
]
