"""Writes the model files of this folder, as the rosenblatt of commit 5c5fb0f (before
io became a package) wrote them; ``tests/test_old_model_files.py`` loads them.

Run from a checkout of that commit: ``python tests/data/model_files/write.py``.
``expected.npz`` holds, per file, the scores on ``X`` and, for a file with its
training state, the scores after one more ``partial_fit`` on ``X``, ``y``.
"""

import pathlib
import warnings

import numpy as np
import scipy.sparse as sp

import rosenblatt.linear_model as lm
from rosenblatt.io import save
from rosenblatt.structured import SentenceFeatures, SequencePerceptron, SequenceTagger

HERE = pathlib.Path(__file__).resolve().parent
RNG = np.random.RandomState(0)
X = np.round(RNG.randn(18, 3), 2)
Y = np.arange(18) % 3


def models():
    """name -> (fitted estimator, the rows it was fitted on)."""
    csr = sp.csr_matrix(X)
    return {
        "perceptron-2": (lm.Perceptron(max_iter=3, random_state=0), X, Y % 2),
        "averaged-3": (lm.AveragedPerceptron(max_iter=3, random_state=0), X, Y),
        "voted-3-csr": (lm.VotedPerceptron(max_iter=2, random_state=0), csr, Y),
        "pocket-3": (lm.PocketPerceptron(max_iter=3, random_state=0), X, Y),
        "linear_unit-2": (lm.LinearUnit(max_iter=3, random_state=0), X, Y % 2),
        "kernel-2-vote": (lm.KernelPerceptron(max_iter=2, voting="vote", random_state=0),
                          X, Y % 2),
        "kernel-3-forgetron": (lm.KernelPerceptron(max_iter=2, budget=4, random_state=0,
                                                   budget_policy="forgetron"), X, Y),
        "multiclass-3-average": (lm.MulticlassPerceptron(max_iter=3, average=True,
                                                         random_state=0), X, Y),
        "arow-3-diagonal": (lm.AROW(max_iter=2, covariance="diagonal", random_state=0), X, Y),
        "balanced_winnow-2": (lm.BalancedWinnow(max_iter=2, random_state=0), np.abs(X),
                              Y % 2),
        "pnorm-3": (lm.PNormPerceptron(max_iter=2, random_state=0), X, Y),
    }


SENTENCES = [["the", "dog", "runs"], ["a", "cat", "sleeps"], ["the", "cat", "runs"]]
TAGS = [["D", "N", "V"], ["D", "N", "V"], ["D", "N", "V"]]


def main():
    expected = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, (model, rows, labels) in models().items():
            model.fit(rows, labels)
            for training_state in (True, False):
                stem = f"{name}{'' if training_state else '-v1'}"
                save(model, HERE / f"{stem}.npz", training_state=training_state)
                expected[f"{stem}:scores"] = model.decision_function(rows)
            if hasattr(model, "partial_fit"):
                model.partial_fit(rows, labels)
                expected[f"{name}:resumed"] = model.decision_function(rows)
        tagger = SequenceTagger(SentenceFeatures(), SequencePerceptron(max_iter=2,
                                                                       random_state=0))
        tagger.fit(SENTENCES, TAGS)
        save(tagger, HERE / "tagger.npz")
        expected["tagger:tags"] = np.array([tag for tags in tagger.predict(SENTENCES)
                                            for tag in tags])
    np.savez(HERE / "expected.npz", X=X, Y=Y, **expected)


if __name__ == "__main__":
    main()
