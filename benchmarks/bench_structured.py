"""The structured perceptron against its peers: python-crfsuite's averaged
perceptron and NLTK's perceptron tagger, on real corpora, in one run.

    python benchmarks/bench_structured.py            # CoNLL-2000, EWT (49 tags), Brown (12)
    python benchmarks/bench_structured.py --quick    # CoNLL-2000 only, fewer rounds
    python benchmarks/bench_structured.py --memory   # peak memory on Brown, fresh processes

Needs ``pip install -e ".[bench]"`` (python-crfsuite, nltk and psutil are peers and
tools of the benchmark only) and the corpora in ``../shared/data/sequences``.

Same features for rosenblatt and crfsuite: :class:`~rosenblatt.structured.SentenceFeatures`
with its default template makes the matrix we train on, and each token's feature
strings (the names of its columns) are what crfsuite gets, so both learn from the
same attributes; NLTK's tagger has its own template (words only) and five
iterations, as it ships. Training is timed as CPU time of the training call alone
(features made beforehand, for both); the contenders are interleaved, each round
running every one once in a rotated order, and the speed ratio is taken within a
round and reported as median [min-max] over the rounds. Accuracy is token
accuracy, and for chunking and NER the chunk F1 of conlleval's rules.
"""

import argparse
import os
import pathlib
import platform
import statistics
import subprocess
import sys
import time

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rosenblatt.datasets import load_conll  # noqa: E402
from rosenblatt.structured import (  # noqa: E402
    SentenceFeatures,
    SequencePerceptron,
    chunk_scores,
    token_accuracy,
)

SEQUENCES = ROOT.parent / "shared" / "data" / "sequences"

#: name -> (train file, test file, whether the labels are chunks)
CORPORA = {
    "CoNLL-2000 chunking": ("conll2000-train.txt", "conll2000-test.txt", True),
    "EWT, 49 tags": ("en_ewt-xpos-train.txt", "en_ewt-xpos-test.txt", False),
    "Brown, 12 tags": ("brown_universal-train.txt.gz", "brown_universal-test.txt.gz", False),
}

EPOCHS = 10


def cpu(function):
    start = time.process_time()
    result = function()
    return time.process_time() - start, result


def summary(values):
    return f"{statistics.median(values):.2f} [{min(values):.2f}-{max(values):.2f}]"


class Corpus:
    """A corpus read once, with the features every contender is given."""

    def __init__(self, name):
        train, test, self.chunks = CORPORA[name]
        self.name = name
        self.train_sentences, self.train_labels = load_conll(SEQUENCES / train)
        self.test_sentences, self.test_labels = load_conll(SEQUENCES / test)
        self.features = SentenceFeatures()
        self.X, self.lengths = self.features.fit_transform(self.train_sentences)
        self.X_test, self.test_lengths = self.features.transform(self.test_sentences)
        self.y = np.concatenate(self.train_labels)
        self.n_tokens = self.X.shape[0]

    def strings(self, X):
        """Each token's feature strings: the names of its columns (crfsuite's input)."""
        names = self.features.get_feature_names_out()
        return [names[X.indices[X.indptr[i]:X.indptr[i + 1]]].tolist()
                for i in range(X.shape[0])]

    def split(self, tokens, lengths):
        return [list(part) for part in by_sentence(np.asarray(tokens), lengths)]

    def quality(self, predicted):
        """Token accuracy, and chunk F1 for chunk labels."""
        accuracy = token_accuracy(self.test_labels, predicted)
        if not self.chunks:
            return f"accuracy {100 * accuracy:.2f} %"
        f1 = chunk_scores(self.test_labels, predicted)["micro avg"]["f1"]
        return f"F1 {100 * f1:.2f}, accuracy {100 * accuracy:.2f} %"


def by_sentence(tokens, lengths):
    """Consecutive runs of ``tokens`` of the given ``lengths``."""
    ends = np.cumsum(lengths)
    return [tokens[start:end] for start, end in zip(np.r_[0, ends[:-1]], ends)]


def ours(corpus):
    seconds, model = cpu(lambda: SequencePerceptron(max_iter=EPOCHS, random_state=0).fit(
        corpus.X, corpus.y, corpus.lengths))
    predicted = corpus.split(model.predict(corpus.X_test, corpus.test_lengths),
                             corpus.test_lengths)
    return seconds, corpus.quality(predicted)


def crfsuite(corpus, folder="/tmp"):
    import pycrfsuite

    if not hasattr(corpus, "crf_train"):  # the strings once per corpus, not timed
        corpus.crf_train = by_sentence(corpus.strings(corpus.X), corpus.lengths)
        corpus.crf_test = by_sentence(corpus.strings(corpus.X_test), corpus.test_lengths)
    trainer = pycrfsuite.Trainer(algorithm="ap", verbose=False)
    for items, labels in zip(corpus.crf_train, corpus.train_labels):
        trainer.append(items, labels)
    trainer.set_params({"max_iterations": EPOCHS})
    path = os.path.join(folder, f"bench_structured_{os.getpid()}.crfsuite")
    seconds, _ = cpu(lambda: trainer.train(path))
    tagger = pycrfsuite.Tagger()
    tagger.open(path)
    predicted = [tagger.tag(items) for items in corpus.crf_test]
    tagger.close()
    os.remove(path)
    return seconds, corpus.quality(predicted)


def nltk_tagger(corpus):
    from nltk.tag.perceptron import PerceptronTagger

    tagger = PerceptronTagger(load=False)
    data = [[(token[0], label) for token, label in zip(sentence, labels)]
            for sentence, labels in zip(corpus.train_sentences, corpus.train_labels)]
    seconds, _ = cpu(lambda: tagger.train(data, nr_iter=5))
    predicted = [[label for _, label in tagger.tag([token[0] for token in sentence])]
                 for sentence in corpus.test_sentences]
    return seconds, corpus.quality(predicted)


CONTENDERS = {"rosenblatt": ours, "crfsuite": crfsuite, "nltk": nltk_tagger}


def run(names, rounds):
    for name in names:
        corpus = Corpus(name)
        print(f"\n## {name}: {corpus.n_tokens:,} training tokens, "
              f"{len(corpus.lengths):,} sentences, {corpus.X.shape[1]:,} features, "
              f"{len(np.unique(corpus.y))} labels; {EPOCHS} epochs (NLTK: 5)")
        ours(corpus)  # compile the kernels outside the timing
        times = {contender: [] for contender in CONTENDERS}
        quality = {}
        ratios = []
        order = list(CONTENDERS)
        for r in range(rounds):
            round_times = {}
            for contender in order[r % len(order):] + order[:r % len(order)]:
                seconds, quality[contender] = CONTENDERS[contender](corpus)
                round_times[contender] = seconds
                times[contender].append(seconds)
            ratios.append(round_times["crfsuite"] / round_times["rosenblatt"])
        print("| contender | CPU seconds | token-epochs/s | quality |")
        print("|---|---|---|---|")
        for contender in CONTENDERS:
            epochs = 5 if contender == "nltk" else EPOCHS
            rate = corpus.n_tokens * epochs / statistics.median(times[contender])
            print(f"| {contender} | {summary(times[contender])} | {rate:,.0f} | "
                  f"{quality[contender]} |")
        print(f"speed-up over crfsuite (its time / ours, per round): {summary(ratios)}x")


def peak_memory():
    """Peak resident memory of training on Brown, each contender in a fresh process."""
    print("\n## Peak memory, Brown (12 tags), training in a fresh process")
    for contender in ("rosenblatt", "crfsuite"):
        code = (
            "import resource, sys; sys.path.insert(0, %r); "
            "import bench_structured as b; c = b.Corpus('Brown, 12 tags'); "
            "b.CONTENDERS[%r](c); "
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20)"
        ) % (str(ROOT / "benchmarks"), contender)
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=True)
        print(f"| {contender} | {float(out.stdout.split()[-1]):.2f} GB (whole process: "
              "corpus, features and model) |")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--rounds", type=int, default=None)
    parser.add_argument("--memory", action="store_true")
    args = parser.parse_args(argv)
    import numba

    print(f"# {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}, numpy {np.__version__}, numba "
          f"{numba.__version__}")
    if not SEQUENCES.exists():
        sys.exit(f"no corpora in {SEQUENCES}: nothing to measure")
    if args.memory:
        peak_memory()
        return
    names = ["CoNLL-2000 chunking"] if args.quick else list(CORPORA)
    run(names, args.rounds or (2 if args.quick else 3))


if __name__ == "__main__":
    main()
