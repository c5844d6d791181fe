"""Tagger model files against crfsuite's, on the same features: their sizes, and
whether float32 weights change a prediction.

    python benchmarks/bench_model_size.py           # CoNLL-2000 chunking, EWT (49 tags)
    python benchmarks/bench_model_size.py --quick   # CoNLL-2000 only

Needs ``pip install -e ".[bench]"`` (python-crfsuite) and the corpora in
``../shared/data/sequences``. Both learn from the same attributes, as in
``bench_structured.py``: :class:`~rosenblatt.structured.SentenceFeatures` with its
default template makes our matrix, and each token's feature strings are what
crfsuite gets; both run 10 epochs of the averaged perceptron (crfsuite's
``algorithm="ap"``). A file holds everything its tagger needs to tag raw
sentences: ours the feature strings, the template and the model; crfsuite's its
attribute and label strings and its weights.

Our files, written by :func:`rosenblatt.io.save` as a :class:`SequenceTagger`:
the default (prediction only, float64 weights: exactly the trained model), with
``weights_dtype="float32"``, and with the training state (``training_state=True``).
For float32, the test and training sets are decoded by the model loaded from the
float32 file and by the trained one, and every differing token is counted.
"""

import argparse
import os
import pathlib
import platform
import sys
import tempfile

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_ab import cpu_model
from bench_structured import EPOCHS, Corpus, by_sentence

from rosenblatt.io import load, save
from rosenblatt.structured import SequencePerceptron, SequenceTagger

CORPORA = ("CoNLL-2000 chunking", "EWT, 49 tags")


def crfsuite_size(corpus, folder):
    import pycrfsuite

    trainer = pycrfsuite.Trainer(algorithm="ap", verbose=False)
    for items, labels in zip(by_sentence(corpus.strings(corpus.X), corpus.lengths),
                             corpus.train_labels):
        trainer.append(items, labels)
    trainer.set_params({"max_iterations": EPOCHS})
    path = os.path.join(folder, "model.crfsuite")
    trainer.train(path)
    return os.path.getsize(path)


def measure(name, folder):
    corpus = Corpus(name)
    model = SequencePerceptron(max_iter=EPOCHS, random_state=0).fit(corpus.X, corpus.y,
                                                                    corpus.lengths)
    tagger = SequenceTagger()
    tagger.features_, tagger.model_ = corpus.features, model  # what fit would hold
    sizes = {}
    for label, options in (("ours", {}), ("ours, float32", {"weights_dtype": "float32"}),
                           ("ours + training state", {"training_state": True})):
        path = os.path.join(folder, f"{label}.npz")
        save(tagger, path, **options)
        sizes[label] = os.path.getsize(path)
    rounded = load(os.path.join(folder, "ours, float32.npz")).model_
    changed = {}
    for part, X, lengths in (("test", corpus.X_test, corpus.test_lengths),
                             ("train", corpus.X, corpus.lengths)):
        changed[part] = (int(np.sum(rounded.predict(X, lengths) != model.predict(X, lengths))),
                         X.shape[0])
    sizes["crfsuite"] = crfsuite_size(corpus, folder)
    nonzero = np.count_nonzero(model.coef_)
    return sizes, changed, (nonzero, model.coef_.size, corpus.features.n_features_)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    print(f"# {cpu_model()}, {os.cpu_count()} cores; Python {platform.python_version()}, "
          f"numpy {np.__version__}; {EPOCHS} epochs, averaged, the same features")
    print(f"{'corpus':<20} {'file':<24} {'MB':>8} {'/ crfsuite':>11}")
    for name in CORPORA[:1] if args.quick else CORPORA:
        with tempfile.TemporaryDirectory() as folder:
            sizes, changed, (nonzero, size, n_features) = measure(name, folder)
        for label, value in sizes.items():
            print(f"{name:<20} {label:<24} {value / 1e6:8.2f} "
                  f"{value / sizes['crfsuite']:10.2f}x")
        print(f"{name:<20} weights: {nonzero:,} nonzero of {size:,} ({n_features:,} features); "
              + "; ".join(f"float32 changes {k} of {n:,} {part} tokens"
                          for part, (k, n) in changed.items()))


if __name__ == "__main__":
    main()
