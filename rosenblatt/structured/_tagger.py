"""A tagger: sentences in, a label per token out, and a model file that holds both.

:class:`SequenceTagger` is :class:`~rosenblatt.structured.SentenceFeatures` followed
by :class:`~rosenblatt.structured.SequencePerceptron`, on sentences (lists of tokens)
and their labels (a list of labels per sentence) instead of a matrix and
``lengths``. It is what ``rosenblatt tag`` trains and saves: the features are part
of the model, since a tagger reads new sentences through the same vocabulary.
"""

import itertools

import numpy as np
from sklearn.base import BaseEstimator, clone
from sklearn.utils.validation import check_is_fitted

from ._features import SentenceFeatures, _sentences
from ._metrics import token_accuracy
from ._sequence import SequencePerceptron


class SequenceTagger(BaseEstimator):
    """Label the tokens of sentences: token features, then the structured perceptron.

    ``fit(sentences, labels)`` learns the features' vocabulary and the model;
    ``predict(sentences)`` returns a list of labels per sentence,
    ``predict_marginals`` a probability per label and token, ``predict_nbest`` the
    best label sequences with their scores. The pair is one
    estimator, and :func:`rosenblatt.io.save` writes it to one file (the template
    as its entry strings, the vocabulary as arrays, the model as a model file
    holds a :class:`SequencePerceptron`), which :func:`rosenblatt.io.load` reads
    back without running any code.

    Parameters
    ----------
    features : SentenceFeatures or None, default=None
        The token features (cloned by ``fit``); ``None``: ``SentenceFeatures()``,
        the default template and a vocabulary learned from the sentences.
    model : SequencePerceptron, ParameterMixing or None, default=None
        The sequence model (cloned by ``fit``); ``None``: ``SequencePerceptron()``.
        A :class:`~rosenblatt.distributed.ParameterMixing` of a
        ``SequencePerceptron`` trains on shards of the sentences; the tagger then
        predicts, and is saved, with the model it trained (its ``estimator_``).

    Attributes
    ----------
    features_ : SentenceFeatures
        The fitted features.
    model_ : SequencePerceptron or ParameterMixing
        The fitted model (a loaded tagger holds a ``SequencePerceptron``).
    classes_ : ndarray
        The labels, sorted (the model's).

    Examples
    --------
    Tokens are words, or tuples of columns (a word and its part-of-speech tag, say);
    a sentence of no tokens gets no labels:

    >>> from rosenblatt.structured import SequenceTagger, SentenceFeatures
    >>> sentences = [["the", "dog", "barks"], ["a", "cat", "sleeps"], ["the", "cat"]]
    >>> labels = [["DET", "NOUN", "VERB"], ["DET", "NOUN", "VERB"], ["DET", "NOUN"]]
    >>> tagger = SequenceTagger(SentenceFeatures(template=["bias", "word", "word[-1]"]))
    >>> tagger.fit(sentences, labels).predict([["a", "dog", "sleeps"], []])
    [['DET', 'NOUN', 'VERB'], []]
    >>> tagger.score(sentences, labels), tagger.classes_.tolist()
    (1.0, ['DET', 'NOUN', 'VERB'])
    """

    #: the model a fitted (and a saved) tagger holds
    _model_class = SequencePerceptron

    def __init__(self, features=None, model=None):
        self.features = features
        self.model = model

    def fit(self, sentences, labels):
        """Learn the features and the model from labelled sentences.

        Parameters
        ----------
        sentences : list of list of tokens
            A token is a string, or a tuple of strings (its columns: the word
            first). Sentences without tokens are left out.
        labels : list of list of str
            The label of every token, sentence by sentence.

        Returns
        -------
        self
        """
        sentences, labels = _pair(sentences, labels)
        kept = [k for k, sentence in enumerate(sentences) if len(sentence)]
        if not kept:
            raise ValueError("No tokens to learn from: every sentence is empty.")
        if len(kept) < len(sentences):
            sentences = [sentences[k] for k in kept]
            labels = [labels[k] for k in kept]
        features = SentenceFeatures() if self.features is None else clone(self.features)
        model = SequencePerceptron() if self.model is None else clone(self.model)
        X, lengths = features.fit_transform(sentences)
        # a list, checked as every estimator checks y: np.array would turn labels that
        # mix numbers and strings into strings (predicting '1' for 1)
        y = list(itertools.chain.from_iterable(labels))
        model.fit(X, y, lengths=lengths)
        self.features_, self.model_ = features, model
        return self

    def predict(self, sentences):
        """The best label sequence of each sentence (Viterbi).

        Parameters
        ----------
        sentences : list of list of tokens

        Returns
        -------
        list of list of str
            One list of labels per sentence, as long as the sentence.
        """
        return self._per_sentence(sentences, lambda X, lengths: _split(
            self.model_.predict(X, lengths=lengths).tolist(), lengths))

    def predict_marginals(self, sentences):
        """The probability of every label on every token, as a dict per token
        (python-crfsuite's ``Tagger.marginal`` for every label at once).

        These are the marginals of the model's Gibbs distribution at temperature 1
        (:meth:`SequencePerceptron.predict_marginals`): exact for the path scores,
        but a perceptron is not trained to make them calibrated probabilities;
        read them as confidence, not frequencies.

        Parameters
        ----------
        sentences : list of list of tokens

        Returns
        -------
        list of list of dict
            Per sentence, per token, ``{label: probability}`` over every label of
            :attr:`classes_` (in that order), summing to 1.

        Examples
        --------
        >>> from rosenblatt.structured import (SentenceFeatures, SequencePerceptron,
        ...                                    SequenceTagger)
        >>> tagger = SequenceTagger(SentenceFeatures(template=["word"]),
        ...                         SequencePerceptron(shuffle="none")).fit(
        ...     [["the", "dog"], ["a", "cat"]], [["DET", "NOUN"], ["DET", "NOUN"]])
        >>> [{label: round(p, 3) for label, p in token.items()}
        ...  for token in tagger.predict_marginals([["a", "dog"]])[0]]
        [{'DET': 0.709, 'NOUN': 0.291}, {'DET': 0.047, 'NOUN': 0.953}]
        """
        def marginals(X, lengths):
            labels = self.classes_.tolist()
            rows = [dict(zip(labels, row)) for row in
                    self._sequence_model().predict_marginals(X, lengths=lengths).tolist()]
            return _split(rows, lengths)
        return self._per_sentence(sentences, marginals)

    def predict_nbest(self, sentences, n=5):
        """The ``n`` best label sequences of each sentence with their scores, best
        first (exact k-best Viterbi, :meth:`SequencePerceptron.predict_nbest`); the
        first is :meth:`predict`'s.

        Parameters
        ----------
        sentences : list of list of tokens
        n : int, default=5

        Returns
        -------
        list of list of (list of str, float)
            Per sentence, up to ``n`` pairs of labels and score, in decreasing order
            of score (an empty sentence: ``[([], 0.0)]``, its one empty path).

        Examples
        --------
        >>> from rosenblatt.structured import (SentenceFeatures, SequencePerceptron,
        ...                                    SequenceTagger)
        >>> tagger = SequenceTagger(SentenceFeatures(template=["word"]),
        ...                         SequencePerceptron(shuffle="none")).fit(
        ...     [["the", "dog"], ["a", "cat"]], [["DET", "NOUN"], ["DET", "NOUN"]])
        >>> tagger.predict_nbest([["a", "dog"]], n=2)
        [[(['DET', 'NOUN'], 2.0), (['NOUN', 'NOUN'], 1.0)]]
        """
        def nbest(X, lengths):
            return [[(path.tolist(), score) for path, score in paths]
                    for paths in self._sequence_model().predict_nbest(X, lengths=lengths,
                                                                      n=n)]
        return self._per_sentence(sentences, nbest, empty=[([], 0.0)])

    def _sequence_model(self):
        """The fitted SequencePerceptron: the model, or the one ParameterMixing trained."""
        return getattr(self.model_, "estimator_", self.model_)

    def _per_sentence(self, sentences, decode, empty=()):
        """``decode(X, lengths)``'s list of results per sentence for the sentences
        with tokens; ``list(empty)`` for the others."""
        check_is_fitted(self, "model_")
        sentences = _sentences(sentences)
        kept = [sentence for sentence in sentences if len(sentence)]
        decoded = []
        if kept:
            decoded = decode(*self.features_.transform(kept))
        found = iter(decoded)
        return [next(found) if len(sentence) else list(empty) for sentence in sentences]

    def score(self, sentences, labels):
        """Token accuracy of :meth:`predict` on labelled sentences.

        Returns
        -------
        float
        """
        sentences, labels = _pair(sentences, labels)
        return token_accuracy(labels, self.predict(sentences))

    @property
    def classes_(self):
        check_is_fitted(self, "model_")
        return self.model_.classes_


def _split(flat, lengths):
    """``flat`` (a list with an item per token) cut into a list per sentence."""
    ends = np.cumsum(lengths).tolist()
    return [flat[end - n:end] for n, end in zip(lengths.tolist(), ends)]


def _pair(sentences, labels):
    """Sentences and labels checked against each other: a list of labels per
    sentence, as long as it; the first that is not is named."""
    sentences = _sentences(sentences)
    if isinstance(labels, (str, bytes)) or not hasattr(labels, "__iter__"):
        raise ValueError("labels must be a list with a list of labels per sentence; got "
                         f"{type(labels).__name__}.")
    labels = list(labels)
    if len(labels) != len(sentences):
        raise ValueError(f"{len(sentences)} sentences but {len(labels)} lists of labels; "
                         "give a list of labels per sentence.")
    checked = []
    for number, (sentence, sentence_labels) in enumerate(zip(sentences, labels)):
        if isinstance(sentence_labels, (str, bytes)) or not hasattr(sentence_labels, "__len__"):
            raise ValueError(f"The labels of sentence {number} are a "
                             f"{type(sentence_labels).__name__}, not a list of labels (one "
                             "per token).")
        if len(sentence_labels) != len(sentence):
            raise ValueError(f"Sentence {number} has {len(sentence)} tokens but "
                             f"{len(sentence_labels)} labels.")
        checked.append(list(sentence_labels))
    return sentences, checked
